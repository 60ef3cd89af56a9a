"""wc: line, word, character and byte counts (GNU coreutils 9.1 semantics and widths)."""

from __future__ import annotations

import errno
import re
import stat as _stat

from pysh.builtins._textutil import (
    OptionError,
    char_width,
    help_text,
    parse_options,
    quote,
    quoteaf,
    quotef,
    strerror,
    usage,
    utf8_locale,
    version_text,
)
from pysh.shellkit import on_write_error
from pysh.shellkit.text import decode, encode

HELP = """\
Usage: wc [OPTION]... [FILE]...
  or:  wc [OPTION]... --files0-from=F
Print newline, word, and byte counts for each FILE, and a total line if
more than one FILE is specified.  A word is a non-zero-length sequence of
printable characters delimited by white space.

With no FILE, or when FILE is -, read standard input.

The options below may be used to select which counts are printed, always in
the following order: newline, word, character, byte, maximum line length.
  -c, --bytes            print the byte counts
  -m, --chars            print the character counts
  -l, --lines            print the newline counts
      --files0-from=F    read input from the files specified by
                           NUL-terminated names in file F;
                           If F is - then read names from standard input
  -L, --max-line-length  print the maximum display width
  -w, --words            print the word counts
      --help        display this help and exit
      --version     output version information and exit
"""

LONG = {"bytes": "c", "chars": "m", "lines": "l", "files0-from=": "files0",
        "max-line-length": "L", "words": "w", "help": "help",
        "version": "version"}

# white space that ends a word (glibc iswspace in C.UTF-8, minus the no-break spaces)
_SEP_U = "\t\n\v\f\r \u00a0\u2007\u202f\u2060\u1680\u2000-\u2006\u2008-\u200a\u2028\u2029\u205f\u3000"
_SPLIT_U = re.compile(f"[{_SEP_U}]+")
_PRINT_U = re.compile("[^\x00-\x1f\x7f-\x9f\udc80-\udcff]")
_SURR = re.compile("[\udc80-\udcff]")
_SPLIT_B = re.compile(rb"[\t\n\v\f\r ]+")
_PRINT_B = re.compile(rb"[!-~]")
_CTRL_B = re.compile(rb"[\x00-\x08\x0e-\x1f\x7f-\xff]")
_WIDE = re.compile("[^\x20-\x7e]")


class Counts:
    __slots__ = ("lines", "words", "chars", "bytes", "maxlen")

    def __init__(self):
        self.lines = self.words = self.chars = self.bytes = self.maxlen = 0


def _count_words_bytes(block: bytes) -> int:
    """Words of an ASCII/C-locale block: runs between blanks holding a printable byte."""
    if not _CTRL_B.search(block):
        return len(block.split())
    return sum(1 for t in _SPLIT_B.split(block) if t and _PRINT_B.search(t))


def _count_words_text(text: str) -> int:
    return sum(1 for t in _SPLIT_U.split(text) if t and _PRINT_U.search(t))


def _line_width(line: str, utf8: bool) -> int:
    """Display width of one line segment: tabs to 8, \\r and \\f restart."""
    best = 0
    pos = 0
    for ch in line:
        if ch == "\t":
            pos += 8 - pos % 8
        elif ch in "\r\f":
            best = max(best, pos)
            pos = 0
        elif ch == " ":
            pos += 1
        else:
            if utf8:
                w = char_width(ch)
            else:
                o = ord(ch)
                w = 1 if 0x20 < o < 0x7f else -1
            if w > 0:
                pos += w
    return max(best, pos)


def _count_block(c: Counts, block: bytes, want_words: bool, want_chars: bool, want_len: bool,
                 utf8: bool) -> None:
    c.bytes += len(block)
    c.lines += block.count(b"\n")
    if not (want_words or want_chars or want_len):
        return
    ascii_only = block.isascii()
    if want_chars:
        if ascii_only or not utf8:
            c.chars += len(block)
        else:
            text = decode(block)
            c.chars += len(text) - len(_SURR.findall(text))
    if want_words:
        if ascii_only or not utf8:
            c.words += _count_words_bytes(block)
        else:
            c.words += _count_words_text(decode(block))
    if want_len:
        if ascii_only and b"\t" not in block and b"\r" not in block and b"\f" not in block \
                and not _CTRL_B.search(block):
            m = max((len(x) for x in block.split(b"\n")), default=0)
        else:
            text = decode(block) if utf8 else block.decode("latin-1")
            m = max((_line_width(x, utf8) for x in text.split("\n")), default=0)
        if m > c.maxlen:
            c.maxlen = m


@on_write_error(1, "{prog}: write error\n")
async def main(shell, argv: list[str]) -> int:
    prog = "wc"
    try:
        opts, files = parse_options(argv[1:], "cmlLw", LONG)
    except OptionError as e:
        return await usage(shell, prog, str(e))
    want = set()
    files0 = None
    total = "auto"  # coreutils 9.1 has no --total
    for k, v in opts:
        if k == "help":
            return await help_text(shell, HELP)
        if k == "version":
            return await version_text(shell, prog)
        if k == "files0":
            files0 = v
        else:
            want.add(k)
    if not want:
        want = {"l", "w", "c"}
    status = 0
    if files0 is not None:
        if files:
            await shell.error(prog, f"extra operand {quoteaf(files[0])}")
            await shell.stderr.write(encode(
                "file operands cannot be combined with --files0-from\n"))
            return await usage(shell, prog, None)
        try:
            src = shell.open_input(files0)
        except OSError as e:
            await shell.error(prog, f"cannot open {quoteaf(files0)} for reading: {strerror(e)}")
            return 1
        try:
            data = await src.read()
        finally:
            src.close()
        try:
            streamed = files0 == "-" or not _stat.S_ISREG(shell.fs.stat(files0).st_mode)
        except OSError:
            streamed = True
        names = [decode(n) for n in data.split(b"\0")]
        if names and names[-1] == "":
            names.pop()
        files = names
        from_list = True
    else:
        from_list = False
        streamed = False
        if not files:
            files = ["-"]
    utf8 = utf8_locale(shell)
    want_words = "w" in want
    want_chars = "m" in want
    want_len = "L" in want

    # widths: from the sizes of regular files (GNU compute_number_width)
    width = 1
    single = len(files) == 1 and len(want) == 1
    if not single and not streamed:
        regular_total = 0
        minimum = 1
        for name in files:
            if name == "-":
                minimum = 7
                continue
            try:
                st = shell.fs.stat(name)
            except OSError:
                continue
            if _stat.S_ISREG(st.st_mode):
                regular_total += st.st_size
            else:
                minimum = 7
        width = max(len(str(regular_total)), minimum)
    results: list[tuple[Counts, str | None]] = []
    tot = Counts()
    out_lines: list[bytes] = []

    def fmt(c: Counts, name: str | None) -> bytes:
        fields = []
        if "l" in want:
            fields.append(c.lines)
        if "w" in want:
            fields.append(c.words)
        if "m" in want:
            fields.append(c.chars)
        if "c" in want:
            fields.append(c.bytes)
        if "L" in want:
            fields.append(c.maxlen)
        s = " ".join(f"{x:{width}d}" for x in fields)
        if name is not None:
            s += " " + name
        return encode(s + "\n")

    count_ok = 0
    for name in files:
        if from_list and name == "":
            await shell.error(prog, "invalid zero-length file name")
            status = 1
            continue
        if from_list and name == "-" and files0 == "-":
            await shell.error(prog, "when reading file names from stdin, no file name of "
                                    f"{quote('-')} allowed")
            status = 1
            continue
        c = Counts()
        try:
            stream = shell.open_input(name)
        except OSError as e:
            if e.errno == errno.EISDIR:
                await shell.stdout.write(b"".join(out_lines))
                out_lines.clear()
                await shell.error(prog, f"{quotef(name)}: Is a directory")
                status = 1
                if total != "only":
                    out_lines.append(fmt(c, name))
                continue
            await shell.stdout.write(b"".join(out_lines))
            out_lines.clear()
            await shell.error(prog, f"{quotef(name)}: {strerror(e)}")
            status = 1
            continue
        try:
            if not (want_words or want_chars or want_len):
                while True:
                    chunk = await stream.read(1 << 18)
                    if not chunk:
                        break
                    shell.budget.check()
                    c.bytes += len(chunk)
                    c.lines += chunk.count(b"\n")
            else:
                async for block in stream.line_blocks(b"\n"):
                    shell.budget.check()
                    _count_block(c, block, want_words, want_chars, want_len, utf8)
        finally:
            stream.close()
        count_ok += 1
        tot.lines += c.lines
        tot.words += c.words
        tot.chars += c.chars
        tot.bytes += c.bytes
        tot.maxlen = max(tot.maxlen, c.maxlen)
        if total != "only":
            out_lines.append(fmt(c, None if (name == "-" and not from_list and len(files) == 1
                                              and argv_has_no_files(argv, files0)) else name))
        if len(out_lines) > 256:
            await shell.stdout.write(b"".join(out_lines))
            out_lines.clear()
        results.append((c, name))
    show_total = total == "always" or (total == "auto" and len(files) > 1)
    if total == "only":
        width = 1
        out_lines.append(fmt(tot, None))
    elif show_total:
        out_lines.append(fmt(tot, "total"))
    await shell.stdout.write(b"".join(out_lines))
    return status


def argv_has_no_files(argv, files0) -> bool:
    return files0 is None and not any(a == "-" for a in argv[1:])
