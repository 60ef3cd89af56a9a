"""expand and unexpand (GNU coreutils 9.1): tabs to spaces and back.

Columns are bytes (GNU 9.1 has no multibyte support here); backspace steps
back a column. The files are one stream, as in GNU (a line may run from one
file into the next). Tab stop lists take GNU's ``N``, ``N,M``, ``/N`` and
``+N`` forms and the obsolete ``-N`` options.
"""

from __future__ import annotations

from pysh.builtins._textutil import (
    OptionError,
    Writer,
    help_text,
    parse_options,
    quote,
    quotef,
    strerror,
    usage,
    version_text,
)

EXPAND_HELP = """\
Usage: expand [OPTION]... [FILE]...
Convert tabs in each FILE to spaces, writing to standard output.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -i, --initial    do not convert tabs after non blanks
  -t, --tabs=N     have tabs N characters apart, not 8
  -t, --tabs=LIST  use comma separated list of tab positions.
                     The last specified position can be prefixed with '/'
                     to specify a tab size to use after the last
                     explicitly specified tab stop.  Also a prefix of '+'
                     can be used to align remaining tab stops relative to
                     the last specified tab stop instead of the first column
      --help        display this help and exit
      --version     output version information and exit
"""

UNEXPAND_HELP = """\
Usage: unexpand [OPTION]... [FILE]...
Convert blanks in each FILE to tabs, writing to standard output.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -a, --all        convert all blanks, instead of just initial blanks
      --first-only  convert only leading sequences of blanks (overrides -a)
  -t, --tabs=N     have tabs N characters apart instead of 8 (enables -a)
  -t, --tabs=LIST  use comma separated list of tab positions.
                     The last specified position can be prefixed with '/'
                     to specify a tab size to use after the last
                     explicitly specified tab stop.  Also a prefix of '+'
                     can be used to align remaining tab stops relative to
                     the last specified tab stop instead of the first column
      --help        display this help and exit
      --version     output version information and exit
"""


class TabError(Exception):
    pass


class TabStops:
    """GNU expand-common.c: the tab list, with /N (extend) and +N (increment)."""

    def __init__(self) -> None:
        self.tabs: list[int] = []
        self.extend = 0
        self.increment = 0
        self.size = 0
        self.errors: list[str] = []

    def parse(self, spec: str) -> None:
        have = False
        val = 0
        ext = inc = False
        ok = True
        i = 0
        while i < len(spec):
            ch = spec[i]
            if ch in ", \t":
                if have:
                    ok = self._add(val, ext, inc)
                    if not ok:
                        break
                have = False
            elif ch == "/":
                if have:
                    self.errors.append(f"'/' specifier not at start of number: {quote(spec[i:])}")
                    ok = False
                ext, inc = True, False
            elif ch == "+":
                if have:
                    self.errors.append(f"'+' specifier not at start of number: {quote(spec[i:])}")
                    ok = False
                inc, ext = True, False
            elif "0" <= ch <= "9":
                if not have:
                    val, have = 0, True
                val = val * 10 + ord(ch) - 48
                if val >= 1 << 64:
                    j = i
                    while j > 0 and "0" <= spec[j - 1] <= "9":
                        j -= 1
                    k = i
                    while k < len(spec) and "0" <= spec[k] <= "9":
                        k += 1
                    self.errors.append(f"tab stop is too large {quote(spec[j:k])}")
                    ok = False
                    i = k - 1
            else:
                self.errors.append(f"tab size contains invalid character(s): {quote(spec[i:])}")
                ok = False
                break
            i += 1
        if ok and have:
            ok = self._add(val, ext, inc)
        if not ok:
            raise TabError()

    def _add(self, val: int, ext: bool, inc: bool) -> bool:
        if ext:
            if self.extend:
                self.errors.append("'/' specifier only allowed with the last value")
                self.extend = val
                return False
            self.extend = val
        elif inc:
            if self.increment:
                self.errors.append("'+' specifier only allowed with the last value")
                self.increment = val
                return False
            self.increment = val
        else:
            self.tabs.append(val)
        return True

    def finalize(self) -> None:
        prev = 0
        for t in self.tabs:
            if t == 0:
                self.errors.append("tab size cannot be 0")
                raise TabError()
            if t <= prev:
                self.errors.append("tab sizes must be ascending")
                raise TabError()
            prev = t
        if self.increment and self.extend:
            self.errors.append("'/' specifier is mutually exclusive with '+'")
            raise TabError()
        if not self.tabs:
            self.size = self.extend or self.increment or 8
        elif len(self.tabs) == 1 and not self.extend and not self.increment:
            self.size = self.tabs[0]
        else:
            self.size = 0

    def next_tab(self, column: int, index: int) -> tuple[int, int, bool]:
        """(next tab column, new tab index, past the last stop)."""
        if self.size:
            return column + self.size - column % self.size, index, False
        tabs = self.tabs
        while index < len(tabs):
            if column < tabs[index]:
                return tabs[index], index, False
            index += 1
        if self.extend:
            return column + self.extend - column % self.extend, index, False
        if self.increment:
            end = tabs[-1]
            return column + self.increment - (column - end) % self.increment, index, False
        return 0, index, True


def _split_obsolete(args: list[str]) -> list[str]:
    """``-4`` and ``-4,8`` (obsolete tab stops) become ``-t 4`` and ``-t 4,8``."""
    out = []
    for i, a in enumerate(args):
        if a == "--":
            out += args[i:]
            break
        if len(a) > 1 and a[0] == "-" and a[1].isdigit():
            out += ["-t", a[1:]]
        else:
            out.append(a)
    return out


async def _lines(shell, prog: str, files: list[str], failed: list[bool]):
    """The lines of all files as one stream (each with its newline; the last may lack it)."""
    pending = b""
    budget = shell.budget
    for name in files or ["-"]:
        try:
            stream = shell.open_input(name)
        except OSError as e:
            await shell.error(prog, f"{quotef(name)}: {strerror(e)}")
            failed[0] = True
            continue
        try:
            while True:
                try:
                    chunk = await stream.read(1 << 18)
                except OSError as e:
                    await shell.error(prog, f"{quotef(name)}: {strerror(e)}")
                    failed[0] = True
                    break
                if not chunk:
                    break
                budget.check()
                data = pending + chunk
                parts = data.split(b"\n")
                pending = parts.pop()
                for p in parts:
                    yield p + b"\n"
        finally:
            stream.close()
    if pending:
        yield pending


def expand_line(line: bytes, stops: TabStops, initial: bool, budget) -> bytes:
    if b"\t" not in line and b"\b" not in line:
        return line
    out = bytearray()
    column = 0
    index = 0
    for pos, c in enumerate(line):
        if c == 9:
            nxt, index, last = stops.next_tab(column, index)
            if last:
                nxt = column + 1
            budget.check_string(len(out) + nxt - column)  # a tab stop from the script
            out += b" " * (nxt - column)
            column = nxt
            continue
        if c == 8:
            if column:
                column -= 1
            if index:
                index -= 1
        else:
            column += 1
        out.append(c)
        if initial and c not in (32, 9):
            out += line[pos + 1:]
            break
    return bytes(out)


def unexpand_line(line: bytes, stops: TabStops, all_blanks: bool) -> bytes:
    """GNU unexpand's state machine over one line (``line`` keeps its newline)."""
    if b" " not in line and b"\t" not in line:
        return line
    out = bytearray()
    convert = True
    column = 0
    pending = bytearray()
    one_blank_before_tab_stop = False
    prev_blank = True
    index = 0
    n = len(line)
    eof = not line.endswith(b"\n")
    i = 0
    while i <= n:
        c = line[i] if i < n else -1  # -1: end of input without a newline
        if i == n and not eof:
            break
        i += 1
        if convert:
            blank = c in (32, 9)
            if blank:
                nxt, index, last = stops.next_tab(column, index)
                if last:
                    convert = False
                if convert:
                    if c == 9:
                        column = nxt
                        if pending:
                            pending[0] = 9
                    else:
                        column += 1
                        if not (prev_blank and column == nxt):
                            if column == nxt:
                                one_blank_before_tab_stop = True
                            pending.append(c)
                            prev_blank = True
                            continue
                        c = 9
                        if pending:
                            pending[0] = 9
                        else:
                            pending.append(9)
                    del pending[int(one_blank_before_tab_stop):]
            elif c == 8:
                column = column - 1 if column else 0
                index = index - 1 if index else 0
            else:
                column += 1
            if pending:
                if len(pending) > 1 and one_blank_before_tab_stop:
                    pending[0] = 9
                out += pending
                pending.clear()
                one_blank_before_tab_stop = False
            prev_blank = blank
            convert = convert and (all_blanks or blank)
            if not convert and c >= 0:
                out.append(c)
                out += line[i:]
                break
        if c < 0:
            break
        out.append(c)
    return bytes(out)


async def _run(shell, argv: list[str], prog: str) -> int:
    unexpand = prog == "unexpand"
    long = {"tabs=": "t", "help": "help", "version": "version"}
    if unexpand:
        long.update({"all": "a", "first-only": "first"})
    else:
        long["initial"] = "i"
    try:
        opts, files = parse_options(_split_obsolete(argv[1:]), "at:" if unexpand else "it:",
                                    long)
    except OptionError as e:
        return await usage(shell, prog, str(e))
    stops = TabStops()
    flag = False  # expand -i / unexpand -a
    first_only = False
    try:
        for k, v in opts:
            if k == "help":
                return await help_text(shell, UNEXPAND_HELP if unexpand else EXPAND_HELP)
            if k == "version":
                return await version_text(shell, prog)
            if k == "t":
                if unexpand:
                    flag = True
                stops.parse(v or "")
            elif k in ("i", "a"):
                flag = True
            elif k == "first":
                first_only = True
        stops.finalize()
    except TabError:
        for m in stops.errors:
            await shell.error(prog, m)
        return 1
    if first_only:
        flag = False
    out = Writer(shell.stdout)
    failed = [False]
    async for line in _lines(shell, prog, files, failed):
        if unexpand:
            await out.write(unexpand_line(line, stops, flag))
        else:
            await out.write(expand_line(line, stops, flag, shell.budget))
    await out.flush()
    return 1 if failed[0] else 0


async def expand_main(shell, argv: list[str]) -> int:
    return await _run(shell, argv, "expand")


async def unexpand_main(shell, argv: list[str]) -> int:
    return await _run(shell, argv, "unexpand")
