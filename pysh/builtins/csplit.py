"""csplit (GNU coreutils 9.1): split a file at line numbers and BRE matches.

Output files are written through the FileSystem door; on an error they are
removed again unless ``-k`` (as GNU). Patterns are GNU BREs through the
shared regex layer (deadline-guarded).
"""

from __future__ import annotations

import re

from pysh.builtins._textutil import (
    OptionError,
    Writer,
    help_text,
    parse_options,
    quote,
    quoteaf,
    quotef,
    read_all,
    strerror,
    usage,
    version_text,
)
from pysh.shellkit.regex import RegexError, compile_posix
from pysh.shellkit.text import decode, encode

HELP = """\
Usage: csplit [OPTION]... FILE PATTERN...
Output pieces of FILE separated by PATTERN(s) to files 'xx00', 'xx01', ...,
and output byte counts of each piece to standard output.

Read standard input if FILE is -

Mandatory arguments to long options are mandatory for short options too.
  -b, --suffix-format=FORMAT  use sprintf FORMAT instead of %02d
  -f, --prefix=PREFIX        use PREFIX instead of 'xx'
  -k, --keep-files           do not remove output files on errors
      --suppress-matched     suppress the lines matching PATTERN
  -n, --digits=DIGITS        use specified number of digits instead of 2
  -s, --quiet, --silent      do not print counts of output file sizes
  -z, --elide-empty-files    remove empty output files
      --help        display this help and exit
      --version     output version information and exit

Each PATTERN may be:
  INTEGER            copy up to but not including specified line number
  /REGEXP/[OFFSET]   copy up to but not including a matching line
  %REGEXP%[OFFSET]   skip to, but not including a matching line
  {INTEGER}          repeat the previous pattern specified number of times
  {*}                repeat the previous pattern as many times as possible

A line OFFSET is an integer optionally preceded by '+' or '-'
"""

INTMAX = (1 << 63) - 1


class Die(Exception):
    """A fatal error: ``message`` (already formatted) and whether to remove the files."""

    def __init__(self, message: str | None, cleanup: bool = True, usage_hint: bool = False):
        super().__init__(message or "")
        self.message = message
        self.cleanup = cleanup
        self.usage_hint = usage_hint


class Done(Exception):
    """{*} ran out of input after a regexp: a normal end (exit 0)."""


class _Control:
    __slots__ = ("regexp", "ignore", "offset", "repeat", "forever", "lines", "argnum", "re")

    def __init__(self, argnum: int):
        self.regexp = False
        self.ignore = False
        self.offset = 0
        self.repeat = 0
        self.forever = False
        self.lines = 0
        self.argnum = argnum
        self.re = None


def _strtoimax(s: str, signed: bool) -> int | None:
    t = s.lstrip(" \t\n\v\f\r")
    if t[:1] in ("+", "-") and (signed or t[:1] == "+"):
        sign, t = (-1 if t[0] == "-" else 1), t[1:]
    else:
        sign = 1
    if not t or not (t.isascii() and t.isdigit()):
        return None
    return sign * int(t)


def _suffix_format(fmt: str) -> str:
    """Validate GNU's -b FORMAT (one %d/%i/%u/%o/%x/%X conversion); raises Die."""
    percent = False
    i = 0
    n = len(fmt)
    while i < n:
        if fmt[i] == "%":
            i += 1
            if i < n and fmt[i] == "%":
                i += 1
                continue
            if percent:
                raise Die("too many % conversion specifications in suffix", False)
            percent = True
            flags = set()
            while i < n and fmt[i] in "-0'#":
                flags.add(fmt[i])
                i += 1
            while i < n and fmt[i].isdigit():
                i += 1
            if i < n and fmt[i] == ".":
                i += 1
                while i < n and fmt[i].isdigit():
                    i += 1
            ch = fmt[i] if i < n else ""
            if ch == "":
                raise Die("missing conversion specifier in suffix", False)
            if ch not in "diuoxX":
                shown = ch if ch.isprintable() and ch.isascii() else f"\\{ord(ch) & 0xff:03o}"
                raise Die(f"invalid conversion specifier in suffix: {shown}", False)
            allowed = {"#"} if ch in "oxX" else {"'"}
            bad = (flags & {"#", "'"}) - allowed
            if bad:
                raise Die(f"invalid flags in conversion specification: %{bad.pop()}{ch}", False)
        i += 1
    if not percent:
        raise Die("missing % conversion specification in suffix", False)
    return fmt


def _printf_int(fmt: str, num: int) -> str:
    """C printf of one int conversion (the suffix format); '%u' acts as '%d'."""
    def conv(m: re.Match) -> str:
        if m.group(0) == "%%":
            return "%"
        flags, width, prec, ch = m.group(1), m.group(2), m.group(3), m.group(4)
        flags = flags.replace("'", "")
        ch = "d" if ch in "iu" else ch
        alt = "#" in flags and ch != "d" and num != 0  # C: no 0x / 0 prefix for zero
        flags = flags.replace("#", "")
        digits = ("%" + ("." + prec if prec is not None else "") + ch) % num
        if alt:
            digits = ("0x" if ch == "x" else "0X" if ch == "X" else "0") + digits \
                if not (ch == "o" and digits.startswith("0")) else digits
        if "-" in flags:
            return digits.ljust(int(width or 0))
        fill = "0" if "0" in flags and prec is None else " "
        if fill == "0" and alt and ch in "xX":
            return digits[:2] + digits[2:].rjust(int(width or 0) - 2, "0")
        return digits.rjust(int(width or 0), fill)
    return re.sub(r"%%|%([-0'#]*)(\d*)(?:\.(\d*))?([diuoxX])", conv, fmt)


class Csplit:
    def __init__(self, shell, prefix: str, suffix: str | None, digits: int, keep: bool,
                 quiet: bool, elide: bool, suppress: bool, argv: list[str]):
        self.shell = shell
        self.fs = shell.fs
        self.prefix = prefix
        self.suffix = suffix
        self.digits = digits
        self.keep = keep
        self.quiet = quiet
        self.elide = elide
        self.suppress = suppress
        self.argv = argv
        self.lines: list[bytes] = []
        self.first = 1  # the first line not yet removed (1-based)
        self.current = 0  # the last line looked at
        self.created = 0
        self.out = None
        self.out_name = ""
        self.written = 0
        self.counts = Writer(shell.stdout)

    # -- the line buffer -----------------------------------------------------
    def find_line(self, n: int) -> bytes | None:
        return self.lines[n - 1] if 1 <= n <= len(self.lines) else None

    def remove_line(self) -> bytes | None:
        if self.first > len(self.lines):
            return None
        if self.current < self.first:
            self.current = self.first
        line = self.lines[self.first - 1]
        self.first += 1
        return line

    def first_line(self) -> int:
        if self.first > len(self.lines):
            raise Die("input disappeared", cleanup=False)
        return self.first

    def no_more_lines(self) -> bool:
        return self.find_line(self.current + 1) is None

    # -- output files ----------------------------------------------------------
    def filename(self, num: int) -> str:
        if self.suffix is not None:
            return self.prefix + _printf_int(self.suffix, num)
        return self.prefix + f"{num:0{self.digits}d}"

    def create(self) -> None:
        self.out_name = self.filename(self.created)
        try:
            self.out = self.fs.open(self.out_name, "wb")
        except OSError as e:
            raise Die(f"{quotef(self.out_name)}: {strerror(e)}") from None
        self.created += 1
        self.written = 0

    def save(self, line: bytes) -> None:
        self.out.write(line)
        self.written += len(line)
        self.shell.budget.count_written(len(line))

    async def close(self) -> None:
        if self.out is None:
            return
        self.out.close()
        self.out = None
        if self.written == 0 and self.elide:
            try:
                self.fs.unlink(self.out_name)
            except OSError:
                pass
            self.created -= 1
        elif not self.quiet:
            await self.counts.write(encode(f"{self.written}\n"))

    def delete_all(self) -> None:
        if self.keep:
            return
        if self.out is not None:
            self.out.close()
            self.out = None
        for i in range(self.created - 1, -1, -1):
            try:
                self.fs.unlink(self.filename(i))
            except OSError:
                pass
        self.created = 0

    # -- the patterns ----------------------------------------------------------
    def write_to_file(self, last: int, ignore: bool, argnum: int) -> None:
        first = self.first_line()
        if first > last:
            raise Die(f"{quote(self.argv[argnum])}: line number out of range")
        for _ in range(last - first):
            line = self.remove_line()
            if line is None:
                raise Die(f"{quote(self.argv[argnum])}: line number out of range")
            if not ignore:
                self.save(line)

    def dump_rest(self) -> None:
        while True:
            line = self.remove_line()
            if line is None:
                return
            self.save(line)

    def line_error(self, p: _Control, rep: int) -> Die:
        tail = f" on repetition {rep}" if rep else ""
        return Die(f"{quote(str(p.lines))}: line number out of range{tail}")

    async def process_line_count(self, p: _Control, rep: int) -> None:
        last_to_save = p.lines * (rep + 1)
        self.create()
        if self.no_more_lines() and self.suppress:
            raise self.line_error(p, rep)
        linenum = self.first_line()
        while linenum < last_to_save:
            linenum += 1
            line = self.remove_line()
            if line is None:
                raise self.line_error(p, rep)
            self.save(line)
        await self.close()
        if self.suppress:
            self.remove_line()
        if self.no_more_lines() and not self.suppress:
            raise self.line_error(p, rep)

    async def regexp_error(self, p: _Control, rep: int, ignore: bool) -> Die:
        tail = f" on repetition {rep}" if rep else ""
        if not ignore:
            self.dump_rest()
            await self.close()
        return Die(f"{quote(self.argv[p.argnum])}: match not found{tail}")

    async def process_regexp(self, p: _Control, rep: int) -> None:
        ignore = p.ignore
        if not ignore:
            self.create()
        budget = self.shell.budget
        while True:
            self.current += 1
            line = self.find_line(self.current)
            if self.current & 1023 == 0:
                budget.check()
            if line is None:
                if p.forever:
                    if not ignore:
                        self.dump_rest()
                        await self.close()
                    raise Done()
                raise await self.regexp_error(p, rep, ignore)
            text = line[:-1] if line.endswith(b"\n") else line
            if p.re.search(decode(text)) is not None:
                break
            if p.offset >= 0:
                line = self.remove_line()
                if not ignore:
                    self.save(line)
        break_line = self.current + p.offset
        self.write_to_file(break_line, ignore, p.argnum)
        if not ignore:
            await self.close()
        if p.offset > 0:
            self.current = break_line
        if self.suppress:
            self.remove_line()

    async def split(self, controls: list[_Control]) -> None:
        for p in controls:
            j = 0
            while p.forever or j <= p.repeat:
                if p.regexp:
                    await self.process_regexp(p, j)
                else:
                    await self.process_line_count(p, j)
                j += 1
        self.create()
        self.dump_rest()
        await self.close()


def _parse_patterns(args: list[str], start: int, budget) -> tuple[list[_Control], list[str]]:
    controls: list[_Control] = []
    last_val = 0
    warnings: list[str] = []
    i = start
    while i < len(args):
        a = args[i]
        if a[:1] in ("/", "%"):
            delim = a[0]
            close = a.rfind(delim, 1)
            if close < 1:
                raise Die(f"{a}: closing delimiter '{delim}' missing", False)
            p = _Control(i)
            p.regexp = True
            p.ignore = delim == "%"
            try:
                p.re = compile_posix(a[1:close], budget=budget)
            except RegexError as e:
                raise Die(f"{quote(a)}: invalid regular expression: {e}", False) from None
            if close + 1 < len(a):
                off = _strtoimax(a[close + 1:], True)
                if off is None or abs(off) > INTMAX:
                    raise Die(f"{quote(a)}: integer expected after delimiter", False)
                p.offset = off
        else:
            p = _Control(i)
            val = _strtoimax(a, False)
            if val is None or val > INTMAX:
                raise Die(f"{quote(a)}: invalid pattern", False)
            if val == 0:
                raise Die(f"{a}: line number must be greater than zero", False)
            if val < last_val:
                raise Die(f"line number {quote(a)} is smaller than preceding line number, "
                          f"{last_val}", False)
            if val == last_val:
                warnings.append(f"warning: line number {quote(a)} is the same as preceding "
                                "line number")
            last_val = val
            p.lines = val
        controls.append(p)
        if i + 1 < len(args) and args[i + 1].startswith("{"):
            i += 1
            r = args[i]
            if not r.endswith("}"):
                raise Die(f"{quote(r)}: '}}' is required in repeat count", False)
            body = r[1:-1]
            if body == "*":
                p.forever = True
            else:
                val = _strtoimax(body, False)
                if val is None or val > INTMAX:
                    raise Die(f"{quote(r[:-1])}}}: integer required between '{{' and '}}'",
                              False)
                p.repeat = val
        i += 1
    return controls, warnings


async def main(shell, argv: list[str]) -> int:
    prog = "csplit"
    try:
        opts, operands = parse_options(argv[1:], "f:b:kn:sqz", {
            "digits=": "n", "quiet": "s", "silent": "s", "keep-files": "k",
            "elide-empty-files": "z", "prefix=": "f", "suffix-format=": "b",
            "suppress-matched": "suppress", "help": "help", "version": "version"})
    except OptionError as e:
        return await usage(shell, prog, str(e))
    prefix, suffix, digits = "xx", None, 2
    keep = quiet = elide = suppress = False
    for k, v in opts:
        if k == "help":
            return await help_text(shell, HELP)
        if k == "version":
            return await version_text(shell, prog)
        if k == "f":
            prefix = v or ""
        elif k == "b":
            suffix = v or ""
        elif k == "k":
            keep = True
        elif k == "n":
            n = _strtoimax(v or "", True)
            if n is None or n < 0 or n > 2 ** 31 - 1:
                tail = ": Numerical result out of range" if n is not None else ""
                await shell.error(prog, f"invalid number: {quote(v or '')}{tail}")
                return 1
            digits = n
        elif k == "s":
            quiet = True
        elif k == "z":
            elide = True
        elif k == "suppress":
            suppress = True
    if len(operands) < 2:
        msg = "missing operand" if not operands else f"missing operand after {quote(operands[-1])}"
        return await usage(shell, prog, msg)
    try:
        if suffix is not None:
            _suffix_format(suffix)
        name = operands[0]
        try:
            stream = shell.open_input(name)
        except OSError as e:
            raise Die(f"cannot open {quoteaf(name)} for reading: {strerror(e)}", False) from None
        try:
            data = await read_all(shell, stream)
        except OSError as e:
            raise Die(f"read error: {strerror(e)}", False) from None
        finally:
            stream.close()
        controls, warnings = _parse_patterns(operands, 1, shell.budget)
    except Die as d:
        await shell.error(prog, d.message)
        return 1
    for w in warnings:
        await shell.error(prog, w)
    cs = Csplit(shell, prefix, suffix, digits, keep, quiet, elide, suppress, operands)
    cs.lines = _lines(data)
    status = 0
    try:
        await cs.split(controls)
    except Done:
        pass
    except Die as d:
        await shell.error(prog, d.message)
        if d.cleanup:  # GNU closes the current piece (printing its size), then removes all
            await cs.close()
            cs.delete_all()
        status = 1
    except OSError as e:
        await cs.counts.flush()
        await shell.error(prog, f"write error for {quoteaf(cs.out_name)}: {strerror(e)}")
        cs.delete_all()
        status = 1
    finally:
        if cs.out is not None:
            cs.out.close()
    await cs.counts.flush()
    return status


def _lines(data: bytes) -> list[bytes]:
    """Lines ending in \\n only (splitlines would also break at \\r and others)."""
    parts = data.split(b"\n")
    out = [p + b"\n" for p in parts[:-1]]
    if parts[-1]:
        out.append(parts[-1])
    return out
