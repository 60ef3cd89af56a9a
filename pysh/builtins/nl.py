"""nl: number lines of files (GNU coreutils semantics)."""

from __future__ import annotations

import re

from pysh.builtins._textutil import (
    OptionError,
    Writer,
    bre_to_python,
    help_text,
    parse_options,
    quote,
    quotef,
    strerror,
    usage,
    version_text,
)
from pysh.shellkit.text import encode

HELP = """\
Usage: nl [OPTION]... [FILE]...
Write each FILE to standard output, with line numbers added.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -b, --body-numbering=STYLE      use STYLE for numbering body lines
  -d, --section-delimiter=CC      use CC for logical page delimiters
  -f, --footer-numbering=STYLE    use STYLE for numbering footer lines
  -h, --header-numbering=STYLE    use STYLE for numbering header lines
  -i, --line-increment=NUMBER     line number increment at each line
  -l, --join-blank-lines=NUMBER   group of NUMBER empty lines counted as one
  -n, --number-format=FORMAT      insert line numbers according to FORMAT
  -p, --no-renumber               do not reset line numbers for each section
  -s, --number-separator=STRING   add STRING after (possible) line number
  -v, --starting-line-number=NUMBER  first line number for each section
  -w, --number-width=NUMBER       use NUMBER columns for line numbers
      --help        display this help and exit
      --version     output version information and exit

Default options are: -bt -d'\\:' -fn -hn -i1 -l1 -n'rn' -s<TAB> -v1 -w6

CC are two delimiter characters used to construct logical page delimiters;
a missing second character implies ':'.  As a GNU extension one can specify
more than two characters, and also specify the empty string (-d '')
to disable section matching.

STYLE is one of:

  a      number all lines
  t      number only nonempty lines
  n      number no lines
  pBRE   number only lines that contain a match for the basic regular
         expression, BRE

FORMAT is one of:

  ln     left justified, no leading zeros
  rn     right justified, no leading zeros
  rz     right justified, leading zeros
"""

LONG = {"body-numbering=": "b", "section-delimiter=": "d", "footer-numbering=": "f",
        "header-numbering=": "h", "line-increment=": "i", "join-blank-lines=": "l",
        "number-format=": "n", "no-renumber": "p", "number-separator=": "s",
        "starting-line-number=": "v", "number-width=": "w", "help": "help",
        "version": "version"}


class NlError(Exception):
    pass


class NlUsage(NlError):
    pass


def _style(v: str, what: str):
    if v in ("a", "t", "n"):
        return v
    if v.startswith("p"):
        try:
            return re.compile(bre_to_python(encode(v[1:])))
        except re.error:
            raise NlError("invalid regular expression") from None
    raise NlUsage(f"invalid {what} numbering style: {quote(v)}")


def _int(v: str, what: str, lo: int | None = None) -> int:
    try:
        n = int(v.strip())
    except ValueError:
        raise NlError(f"invalid {what}: {quote(v)}") from None
    if lo is not None and n < lo:
        raise NlError(f"invalid {what}: {quote(v)}: Numerical result out of range")
    return n


async def main(shell, argv: list[str]) -> int:
    prog = "nl"
    try:
        opts, files = parse_options(argv[1:], "b:d:f:h:i:l:n:ps:v:w:", LONG)
    except OptionError as e:
        return await usage(shell, prog, str(e))
    styles = {"header": "n", "body": "t", "footer": "n"}
    delim = b"\\:"
    incr, join_blank, fmt, renumber, sep, start, width = 1, 1, "rn", True, b"\t", 1, 6
    try:
        for k, v in opts:
            if k == "help":
                return await help_text(shell, HELP)
            if k == "version":
                return await version_text(shell, prog)
            v = v or ""
            if k == "b":
                styles["body"] = _style(v, "body")
            elif k == "h":
                styles["header"] = _style(v, "header")
            elif k == "f":
                styles["footer"] = _style(v, "footer")
            elif k == "d":
                d = encode(v)
                delim = d + b":" if len(d) == 1 else d
            elif k == "i":
                incr = _int(v, "line number increment")
            elif k == "l":
                join_blank = _int(v, "line number of blank lines", 1)
            elif k == "n":
                if v not in ("ln", "rn", "rz"):
                    raise NlUsage(f"invalid line numbering format: {quote(v)}")
                fmt = v
            elif k == "p":
                renumber = False
            elif k == "s":
                sep = encode(v)
            elif k == "v":
                start = _int(v, "starting line number")
            elif k == "w":
                width = _int(v, "line number field width", 1)
                if width > 0x7FFFFFFF:
                    raise NlError(f"invalid line number field width: {quote(v)}: "
                                  "Value too large for defined data type")
                shell.budget.check_string(width)  # it sizes every line's number
    except NlUsage as e:
        return await usage(shell, prog, str(e))
    except NlError as e:
        await shell.error(prog, str(e))
        return 1
    if not files:
        files = ["-"]
    out = Writer(shell.stdout)
    blank_pad = b" " * (width + len(sep))
    state = {"section": "body", "line": start, "blanks": 0}
    headers = (delim * 3, delim * 2, delim) if delim else ()

    def number() -> bytes:
        n = state["line"]
        if fmt == "ln":
            s = b"%-*d" % (width, n)
        elif fmt == "rz":
            s = b"%0*d" % (width, n) if n >= 0 else b"-%0*d" % (width - 1, -n)
        else:
            s = b"%*d" % (width, n)
        state["line"] = n + incr
        return s + sep

    def line_out(text: bytes) -> bytes:
        if headers:
            if text == headers[0] or text == headers[1] or text == headers[2]:
                state["section"] = ("header" if text == headers[0] else
                                    "body" if text == headers[1] else "footer")
                if renumber:
                    state["line"] = start
                state["blanks"] = 0
                return b"\n"
        style = styles[state["section"]]
        if style == "a":
            if not text:
                state["blanks"] += 1
                if state["blanks"] < join_blank:
                    return blank_pad + b"\n"
                state["blanks"] = 0
            else:
                state["blanks"] = 0
            return number() + text + b"\n"
        if style == "t":
            return (number() + text if text else b"") + b"\n" if text else blank_pad + b"\n"
        if style == "n":
            return blank_pad + text + b"\n"
        if style.search(text):
            return number() + text + b"\n"
        return blank_pad + text + b"\n"

    status = 0
    for name in files:
        try:
            stream = shell.open_input(name)
        except OSError as e:
            await out.flush()
            await shell.error(prog, f"{quotef(name)}: {strerror(e)}")
            status = 1
            continue
        try:
            async for block in stream.line_blocks(b"\n"):
                shell.budget.check()
                parts = block.split(b"\n")
                last = parts.pop()  # not empty only for a last line without its newline
                await out.write(b"".join(map(line_out, parts)))
                if last:
                    await out.write(line_out(last))
        finally:
            stream.close()
    await out.flush()
    return status
