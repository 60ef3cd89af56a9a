"""ed: the POSIX line editor as GNU ed 1.19 runs it, for scripted edits (``ed -s file <<EOF``).

Commands: a i c d p n l j m t s (with g, N, &, \\1..\\9, escaped newlines,
``%`` for the previous replacement, repeated ``s``), g v G V (command lists
with backslash continuations), w W wq q Q r e E f k x y z u = H h P # and
newline; addresses ``.``, ``$``, ``N``, ``+``/``-`` offsets, ``/re/``,
``?re?``, ``'x`` marks, ``,``, ``;`` and ``%``. Patterns are GNU BREs (EREs
with ``-E``) through the shared regex layer. Errors print ``?`` (and the
reason after ``H`` or with ``-v``); ed goes on with the next command and
exits 1 (2 when input ends with the buffer modified and unsaved), as GNU does.

Refused in the sandbox: anything that runs a shell command -- ``!cmd``,
``r !cmd``, ``w !cmd``, ``e !cmd`` -- prints ``?`` and, on stderr, that
shell commands are not available.
"""

from __future__ import annotations

import itertools
import re

from pysh.builtins._textutil import strerror
from pysh.shellkit.options import OptionError, parse_options
from pysh.shellkit.regex import RegexError, compile_posix
from pysh.shellkit.text import decode, encode

HELP = """\
GNU ed is a line-oriented text editor. It is used to create, display,
modify and otherwise manipulate text files, both interactively and via
shell scripts. A restricted version of ed, red, can only edit files in
the current directory and cannot execute shell commands. Ed is the
'standard' text editor in the sense that it is the original editor for
Unix, and thus widely available. For most purposes, however, it is
superseded by full-screen editors such as GNU Emacs or GNU Moe.

Usage: ed [options] [file]

Options:
  -h, --help                 display this help and exit
  -V, --version              output version information and exit
  -E, --extended-regexp      use extended regular expressions
  -G, --traditional          run in compatibility mode
  -l, --loose-exit-status    exit with 0 status even if a command fails
  -p, --prompt=STRING        use STRING as an interactive prompt
  -q, --quiet, --silent      suppress diagnostics written to stderr
  -r, --restricted           run in restricted mode
  -s, --script               suppress byte counts and '!' prompt
  -v, --verbose              be verbose; equivalent to the 'H' command
      --strip-trailing-cr    strip carriage returns at end of text lines

Start edit by reading in 'file' if given.
If 'file' begins with a '!', read output of shell command.

Exit status: 0 for a normal exit, 1 for environmental problems
(file not found, invalid command line options, I/O errors, etc), 2 to
indicate a corrupt or invalid input file, 3 for an internal consistency
error (e.g., bug) which caused ed to panic.

In the sandbox, shell commands (!cmd, r !cmd, w !cmd, e !cmd) are refused.
"""

VERSION = "GNU ed 1.19\n"


class EdError(Exception):
    """A command failed: ``?`` and, with H, the message."""


class Modified(Exception):
    """q/e on a modified buffer: warn once."""


class Quit(Exception):
    pass


_ids = itertools.count(1)


class Ed:
    def __init__(self, shell, *, silent: bool, extended: bool, loose: bool, prompt: str | None,
                 verbose: bool, restricted: bool, quiet: bool, strip_cr: bool):
        self.shell = shell
        self.fs = shell.fs
        self.silent = silent
        self.extended = extended
        self.loose = loose
        self.prompt = prompt or "*"
        self.prompt_on = prompt is not None
        self.verbose = verbose
        self.restricted = restricted
        self.quiet = quiet
        self.strip_cr = strip_cr
        self.lines: list[list] = []  # [id, text]
        self.cur = 0
        self.marks: dict[str, int] = {}
        self.filename = ""
        self.modified = False
        self.warned = False
        self.errmsg = ""
        self.last_re = None  # the last regex (searches and s share it)
        self.subst_re = None
        self.subst_repl: str | None = None
        self.subst_global = 0  # 0: first match, -1: all, N: the Nth
        self.subst_pflags = ""
        self.undo_state = None
        self.pending_undo = None
        self.yank: list[str] = []
        self.window = 22
        self.out = bytearray()
        self.input_lines: list[str] = []  # script lines read ahead by G/a/i/c
        self.status = 0
        self.lineno = 0

    # -- output ----------------------------------------------------------------
    def puts(self, s: str) -> None:
        self.out += encode(s)

    async def flush(self) -> None:
        if self.out:
            data = bytes(self.out)
            self.out.clear()
            await self.shell.stdout.write(data)

    def fail(self, msg: str) -> EdError:
        self.errmsg = msg
        return EdError(msg)

    # -- input -----------------------------------------------------------------
    async def read_line(self) -> str | None:
        """The next line of standard input without its newline; None at end of input."""
        self.shell.budget.check()
        line = await self.shell.stdin.readline()
        if not line:
            return None
        self.lineno += 1
        text = decode(line)
        return text[:-1] if text.endswith("\n") else text

    # -- the buffer --------------------------------------------------------------
    @property
    def last(self) -> int:
        return len(self.lines)

    def text(self, n: int) -> str:
        return self.lines[n - 1][1]

    def snapshot(self):
        return ([list(x) for x in self.lines], self.cur, self.modified, dict(self.marks))

    def begin_change(self) -> None:
        """Before a command that may change the buffer: GNU clears its undo stack here."""
        self.pending_undo = self.snapshot()
        self.undo_state = None

    def changed(self) -> None:
        self.modified = True
        if self.pending_undo is not None:
            self.undo_state = self.pending_undo

    def new_lines(self, texts: list[str]) -> list[list]:
        return [[next(_ids), t] for t in texts]

    def insert(self, after: int, texts: list[str]) -> None:
        self.shell.budget.check_array(len(self.lines) + len(texts))  # t and r can double it
        self.lines[after:after] = self.new_lines(texts)
        self.cur = after + len(texts)

    def delete(self, a: int, b: int) -> None:
        removed = {x[0] for x in self.lines[a - 1:b]}
        del self.lines[a - 1:b]
        for k in [k for k, v in self.marks.items() if v in removed]:
            del self.marks[k]
        self.cur = min(a, self.last) if self.last else 0
        if self.cur == 0 and self.last:
            self.cur = 1

    # -- regular expressions -----------------------------------------------------
    def compile(self, pattern: str):
        if pattern == "":
            if self.last_re is None:
                raise self.fail("No previous pattern")
            return self.last_re
        try:
            rx = compile_posix(pattern, extended=self.extended, budget=self.shell.budget)
        except RegexError as e:
            raise self.fail(str(e)) from None
        self.last_re = rx
        return rx

    def get_pattern(self, cmd: str, i: int) -> tuple[str, int]:
        """The pattern after the delimiter at cmd[i]; returns (pattern, index after closing)."""
        delim = cmd[i]
        if delim in (" ", "\n"):
            raise self.fail("Invalid pattern delimiter")
        j = i + 1
        out = []
        while j < len(cmd) and cmd[j] != delim and cmd[j] != "\n":
            c = cmd[j]
            if c == "[":
                k = _bracket_end(cmd, j)
                out.append(cmd[j:k])
                j = k
                continue
            if c == "\\" and j + 1 < len(cmd):
                if cmd[j + 1] == delim and delim != "\\":
                    out.append(delim if delim not in ".*[]^$" else "\\" + delim)
                else:
                    out.append(cmd[j:j + 2])
                j += 2
                continue
            out.append(c)
            j += 1
        return "".join(out), j

    # -- addresses -----------------------------------------------------------------
    def search(self, rx, forward: bool) -> int:
        n = self.last
        if n == 0:
            raise self.fail("No match")
        addr = self.cur
        budget = self.shell.budget
        for _ in range(n):
            addr = addr % n + 1 if forward else (addr - 2) % n + 1
            if rx.search(self.text(addr)) is not None:
                return addr
            budget.check()
        raise self.fail("No match")

    def addresses(self, cmd: str, i: int) -> tuple[int, int, int, int]:
        """GNU extract_addresses: (count, first, second, index after)."""
        first_addr = second_addr = -1
        first = True
        n = len(cmd)

        def skip(j: int) -> int:
            while j < n and cmd[j] in " \t":
                j += 1
            return j

        i = skip(i)
        while True:
            ch = cmd[i] if i < n else "\n"
            if ch.isdigit():
                m = re.match(r"\d+", cmd[i:])
                val = int(m.group(0))
                if val > 2 ** 31 - 1:
                    raise self.fail("Number out of range")
                i += len(m.group(0))
                if first:
                    first = False
                    second_addr = val
                else:
                    second_addr += val
            elif ch in " \t":
                i = skip(i + 1)
            elif ch in "+-":
                if first:
                    first = False
                    second_addr = self.cur
                if i + 1 < n and cmd[i + 1].isdigit():
                    m = re.match(r"\d+", cmd[i + 1:])
                    val = int(m.group(0))
                    i += 1 + len(m.group(0))
                    second_addr += val if ch == "+" else -val
                else:
                    i += 1
                    second_addr += 1 if ch == "+" else -1
            elif ch in ".$":
                if not first:
                    raise self.fail("Invalid address")
                first = False
                i += 1
                second_addr = self.cur if ch == "." else self.last
            elif ch in "/?":
                if not first:
                    raise self.fail("Invalid address")
                pat, j = self.get_pattern(cmd, i)
                if j < n and cmd[j] == ch:
                    j += 1
                rx = self.compile(pat)
                second_addr = self.search(rx, ch == "/")
                i = j
                first = False
            elif ch == "'":
                if not first:
                    raise self.fail("Invalid address")
                first = False
                mark = cmd[i + 1] if i + 1 < n else ""
                i += 2
                if not ("a" <= mark <= "z"):
                    raise self.fail("Invalid mark character")
                mid = self.marks.get(mark)
                second_addr = next((k + 1 for k, x in enumerate(self.lines) if x[0] == mid), -1)
                if second_addr < 0:
                    raise self.fail("Invalid address")
            elif ch in "%,;":
                if first:
                    if first_addr < 0:
                        first_addr = self.cur if ch == ";" else 1
                        second_addr = self.last
                    else:
                        first_addr = second_addr
                else:
                    if second_addr < 0 or second_addr > self.last:
                        raise self.fail("Invalid address")
                    if ch == ";":
                        self.cur = second_addr
                    first_addr = second_addr
                    first = True
                i += 1
            else:
                if not first and (second_addr < 0 or second_addr > self.last):
                    raise self.fail("Invalid address")
                cnt = 0
                if second_addr >= 0:
                    cnt = 2 if first_addr >= 0 else 1
                if cnt <= 0:
                    second_addr = self.cur
                if cnt <= 1:
                    first_addr = second_addr
                return cnt, first_addr, second_addr, i

    @staticmethod
    def check_range(cnt: int, a: int, b: int, da: int, db: int, last: int) -> tuple[int, int]:
        if cnt == 0:
            a, b = da, db
        if a < 1 or a > b or b > last:
            raise EdError("Invalid address")
        return a, b

    def range(self, cnt, a, b, da=None, db=None) -> tuple[int, int]:
        try:
            return self.check_range(cnt, a, b, self.cur if da is None else da,
                                    self.cur if db is None else db, self.last)
        except EdError:
            raise self.fail("Invalid address") from None

    # -- printing ------------------------------------------------------------------
    def print_lines(self, a: int, b: int, flags: str) -> None:
        if a < 1 or b > self.last or a > b:
            raise self.fail("Invalid address")
        for n in range(a, b + 1):
            t = self.text(n)
            prefix = f"{n}\t" if "n" in flags else ""
            if "l" in flags:
                self.puts(prefix + _list_line(t, 8 if prefix else 0) + "\n")
            else:
                self.puts(prefix + t + "\n")
        self.cur = b

    def suffix(self, cmd: str, i: int, flags: str = "") -> tuple[str, int]:
        """GNU get_command_suffix: any of l n p once each, then the end of the command."""
        while i < len(cmd) and cmd[i] in "lnp" and cmd[i] not in flags:
            flags += cmd[i]
            i += 1
        if i < len(cmd) and cmd[i] != "\n":
            raise self.fail("Invalid command suffix")
        return flags, i + 1

    # -- files -----------------------------------------------------------------------
    def shell_refused(self) -> EdError:
        self.shell_message = True
        return self.fail("Shell commands are not available in the sandbox")

    def get_filename(self, cmd: str, i: int, need: bool = True) -> tuple[str, int]:
        n = len(cmd)
        while i < n and cmd[i] in " \t":
            i += 1
        end = cmd.find("\n", i)
        end = n if end < 0 else end
        name = cmd[i:end]
        if name.startswith("!"):
            raise self.shell_refused()
        if not name and need and not self.filename:
            raise self.fail("No current filename")
        return name, end + 1

    async def read_file(self, name: str, after: int) -> int:
        try:
            data = self.fs.read_bytes(name)
        except OSError as e:
            await self.flush()
            if not self.quiet:
                await self.shell.stderr.write(encode(f"{name}: {strerror(e)}\n"))
            raise self.fail("Cannot open input file") from None
        self.shell.budget.check()
        text = decode(data)
        parts = text.split("\n")
        if parts and parts[-1] == "":
            parts.pop()
        elif parts:
            self.puts("Newline appended\n")
        if self.strip_cr:
            parts = [p[:-1] if p.endswith("\r") else p for p in parts]
        self.insert(after, parts)
        if not self.silent:
            appended = 1 if data and not data.endswith(b"\n") else 0
            self.puts(f"{len(data) + appended}\n")
        return len(parts)

    async def write_file(self, name: str, a: int, b: int, append: bool) -> int:
        body = "".join(self.text(k) + "\n" for k in range(a, b + 1)) if a else ""
        data = encode(body)
        try:
            if append:
                self.fs.append_bytes(name, data)
            else:
                self.fs.write_bytes(name, data)
        except OSError as e:
            await self.flush()
            if not self.quiet:
                await self.shell.stderr.write(encode(f"{name}: {strerror(e)}\n"))
            raise self.fail("Cannot open output file") from None
        self.shell.budget.count_written(len(data))
        if not self.silent:
            self.puts(f"{len(data)}\n")
        return b - a + 1 if a else 0

    # -- commands --------------------------------------------------------------------
    async def append_lines(self, after: int, cmd: str, i: int, isglobal: bool) -> int:
        """Read text lines up to a lone '.': inside a g command list from the list itself
        (from ``cmd[i:]``), else from standard input. Returns where the command list goes on."""
        texts = []
        while True:
            if isglobal:
                if i >= len(cmd):
                    break
                j = cmd.find("\n", i)
                j = len(cmd) if j < 0 else j
                line, i = cmd[i:j], j + 1
            else:
                line = await self.read_line()
                if line is None:
                    break
            if line == ".":
                break
            texts.append(line)
        if texts:
            self.insert(after, texts)
            self.changed()
        else:
            self.cur = after
        return i

    async def exec_command(self, cmd: str, i: int, isglobal: bool) -> int:
        """Run the command at cmd[i:]; return the index after it (its newline)."""
        cnt, a, b, i = self.addresses(cmd, i)
        n = len(cmd)
        while i < n and cmd[i] in " \t":
            i += 1
        c = cmd[i] if i < n else "\n"
        i += 1
        pflags = ""
        if c == "a" or c == "i":
            pflags, i = self.suffix(cmd, i)
            if not isglobal:
                self.begin_change()
            where = b if c == "a" else max(b - 1, 0)
            if c == "i" and b == 0:
                where = 0
            i = await self.append_lines(where, cmd, i, isglobal)
            if c == "i" and self.cur == where and where < b:
                self.cur = b
        elif c == "c":
            a, b = self.range(cnt, a, b)
            pflags, i = self.suffix(cmd, i)
            if not isglobal:
                self.begin_change()
            self.delete(a, b)
            self.changed()
            i = await self.append_lines(a - 1, cmd, i, isglobal)
            if self.cur == a - 1:
                self.cur = min(a, self.last)
        elif c == "d":
            a, b = self.range(cnt, a, b)
            pflags, i = self.suffix(cmd, i)
            if not isglobal:
                self.begin_change()
            self.delete(a, b)
            self.changed()
        elif c in "eE":
            if c == "e" and self.modified and not self.warned:
                raise Modified()
            if cnt:
                raise self.fail("Unexpected address")
            if i < n and cmd[i] not in " \t\n":
                raise self.fail("Unexpected command suffix")
            name, i = self.get_filename(cmd, i)
            self.lines = []
            self.marks.clear()
            self.modified = False
            if name:
                self.filename = name
            self.cur = 0
            await self.read_file(name or self.filename, 0)
            self.undo_state = None
            self.modified = False
            return i
        elif c == "f":
            if cnt:
                raise self.fail("Unexpected address")
            if i < n and cmd[i] not in " \t\n":
                raise self.fail("Unexpected command suffix")
            name, i = self.get_filename(cmd, i, need=False)
            if name:
                self.filename = name
            self.puts(self.filename + "\n")
            return i
        elif c in "gvGV":
            if isglobal:
                raise self.fail("Cannot nest global commands")
            a, b = self.range(cnt, a, b, 1, self.last)
            pat, j = self.get_pattern(cmd, i)
            if j >= n or cmd[j] != cmd[i]:
                raise self.fail("Missing pattern delimiter")
            rx = self.compile(pat)
            i = j + 1
            want = c in "gG"
            active = [self.lines[k - 1][0] for k in range(a, b + 1)
                      if (rx.search(self.text(k)) is not None) == want]
            if c in "GV":
                pflags, i = self.suffix(cmd, i)
                await self.global_interactive(active, pflags)
                return i
            return await self.global_run(active, cmd, i)
        elif c in "hH":
            if cnt:
                raise self.fail("Unexpected address")
            pflags, i = self.suffix(cmd, i)
            if c == "H":
                self.verbose = not self.verbose
            if (c == "h" or self.verbose) and self.errmsg:
                self.puts(self.errmsg + "\n")
            return i
        elif c == "j":
            a, b = self.range(cnt, a, b, self.cur, self.cur + 1)
            pflags, i = self.suffix(cmd, i)
            if not isglobal:
                self.begin_change()
            if a < b:
                joined = "".join(self.text(k) for k in range(a, b + 1))
                self.shell.budget.check_string(len(joined))
                self.delete(a, b)
                self.insert(a - 1, [joined])
                self.changed()
        elif c == "k":
            mark = cmd[i] if i < n else "\n"
            i += 1
            if b == 0:
                raise self.fail("Invalid address")
            if mark == "\n":
                raise self.fail("Invalid command suffix")
            pflags, i = self.suffix(cmd, i)
            if not ("a" <= mark <= "z"):
                raise self.fail("Invalid mark character")
            self.marks[mark] = self.lines[b - 1][0]
        elif c in "lnp":
            a, b = self.range(cnt, a, b)
            pflags, i = self.suffix(cmd, i, c)
            self.print_lines(a, b, pflags)
            return i
        elif c in "mt":
            a, b = self.range(cnt, a, b)
            dcnt, _, dest, i = self.addresses(cmd, i)
            if dest < 0 or dest > self.last:
                raise self.fail("Invalid address")
            if c == "m" and a <= dest < b:
                raise self.fail("Invalid destination")
            pflags, i = self.suffix(cmd, i)
            if not isglobal:
                self.begin_change()
            if c == "t":
                texts = [self.text(k) for k in range(a, b + 1)]
                self.insert(dest, texts)
            else:
                block = self.lines[a - 1:b]
                if dest >= b:
                    del self.lines[a - 1:b]
                    at = dest - (b - a + 1)
                else:
                    del self.lines[a - 1:b]
                    at = dest
                self.lines[at:at] = block
                self.cur = at + len(block)
            self.changed()
        elif c in "PqQ":
            if cnt:
                raise self.fail("Unexpected address")
            pflags, i = self.suffix(cmd, i)
            if c == "P":
                self.prompt_on = not self.prompt_on
                return i
            if c == "q" and self.modified and not self.warned:
                raise Modified()
            raise Quit()
        elif c == "r":
            if i < n and cmd[i] not in " \t\n":
                raise self.fail("Unexpected command suffix")
            if cnt == 0:
                b = self.last
            name, i = self.get_filename(cmd, i)
            if not self.filename:
                self.filename = name
            if not isglobal:
                self.begin_change()
            got = await self.read_file(name or self.filename, b)
            if got:
                self.changed()
            return i
        elif c == "s":
            return await self.command_s(cmd, i, cnt, a, b, isglobal)
        elif c == "u":
            if cnt:
                raise self.fail("Unexpected address")
            pflags, i = self.suffix(cmd, i)
            if self.undo_state is None:
                raise self.fail("Nothing to undo")
            state = self.snapshot()
            self.lines, self.cur, self.modified, self.marks = self.undo_state
            self.undo_state = state
        elif c in "wW":
            q = ""
            if i < n and cmd[i] in "qQ":
                q = cmd[i]
                i += 1
            if i < n and cmd[i] not in " \t\n":
                raise self.fail("Unexpected command suffix")
            name, i = self.get_filename(cmd, i)
            if cnt == 0 and self.last == 0:
                a = b = 0
            else:
                a, b = self.range(cnt, a, b, 1, self.last)
            if not self.filename:
                self.filename = name
            written = await self.write_file(name or self.filename, a, b, c == "W")
            if written == self.last:
                self.modified = False
            elif q == "q" and self.modified and not self.warned:
                raise Modified()
            if q:
                raise Quit()
            return i
        elif c == "x":
            if b < 0 or b > self.last:
                raise self.fail("Invalid address")
            pflags, i = self.suffix(cmd, i)
            if not self.yank:
                raise self.fail("Nothing to put")
            if not isglobal:
                self.begin_change()
            self.insert(b, list(self.yank))
            self.changed()
        elif c == "y":
            a, b = self.range(cnt, a, b)
            pflags, i = self.suffix(cmd, i)
            self.yank = [self.text(k) for k in range(a, b + 1)]
        elif c == "z":
            if cnt == 0:
                b = self.cur + (0 if isglobal else 1)
            if b < 1 or b > self.last:
                raise self.fail("Invalid address")
            m = re.match(r"[1-9]\d*", cmd[i:])
            if m:
                self.window = int(m.group(0))
                i += len(m.group(0))
            pflags, i = self.suffix(cmd, i)
            self.print_lines(b, min(self.last, b + self.window - 1), pflags)
            return i
        elif c == "=":
            pflags, i = self.suffix(cmd, i)
            self.puts(f"{b if cnt else self.last}\n")
            return i
        elif c == "!":
            raise self.shell_refused()
        elif c == "\n":
            if cnt == 0:
                b = self.cur + (0 if isglobal else 1)
            if b < 1 or b > self.last:
                raise self.fail("Invalid address")
            self.print_lines(b, b, "")
            return i
        elif c == "#":
            j = cmd.find("\n", i)
            return n if j < 0 else j + 1
        else:
            raise self.fail("Unknown command")
        if pflags:
            self.print_lines(self.cur, self.cur, pflags)
        return i

    async def command_s(self, cmd: str, i: int, cnt: int, a: int, b: int,
                        isglobal: bool) -> int:
        a, b = self.range(cnt, a, b)
        n = len(cmd)
        if i >= n or cmd[i] in "\ngpr0123456789":  # repeat the last substitution
            flags = ""
            j = i
            while j < n and cmd[j] != "\n":
                if cmd[j] in "gpr" and cmd[j] not in flags:
                    flags += cmd[j]
                elif cmd[j].isdigit():
                    flags += "N"
                else:
                    raise self.fail("Invalid command suffix")
                j += 1
            if self.subst_re is None:
                raise self.fail("No previous substitution")
            rx = self.last_re if "r" in flags and self.last_re is not None else self.subst_re
            nth = self.subst_global
            if "g" in flags:
                nth = 0 if nth == -1 else -1
            pflags = self.subst_pflags
            if "p" in flags:
                pflags = "" if pflags else "p"
            repl = self.subst_repl
            i = j + 1
        else:
            pat, j = self.get_pattern(cmd, i)
            delim = cmd[i]
            if j >= n or cmd[j] != delim:
                raise self.fail("Missing pattern delimiter")
            repl, j, continuation = self.get_replacement(cmd, j + 1, delim)
            pflags = ""
            nth = 0
            if continuation:  # the replacement ran to the end: an implied 'p'
                pflags = "p"
                i = j
            else:
                j += 1  # the closing delimiter
                seen_count = False
                while j < n and cmd[j] != "\n":
                    ch = cmd[j]
                    if ch == "g" and not seen_count:
                        nth, seen_count = -1, True
                    elif ch.isdigit() and ch != "0" and not seen_count:
                        m = re.match(r"\d+", cmd[j:])
                        nth, seen_count = int(m.group(0)), True
                        j += len(m.group(0)) - 1
                    elif ch in "lnp" and ch not in pflags:
                        pflags += ch
                    else:
                        raise self.fail("Invalid command suffix")
                    j += 1
                i = j + 1
            if not isglobal:
                self.begin_change()
            rx = self.compile(pat)
            self.subst_re = rx
            self.subst_repl = repl
            self.subst_global = nth
            self.subst_pflags = pflags
        if not isglobal and self.pending_undo is None:
            self.begin_change()
        elif not isglobal:
            self.begin_change()
        done = self.substitute(rx, repl, nth, a, b)
        if not done:
            if isglobal:
                return i
            raise self.fail("No match")
        self.changed()
        if pflags:
            self.print_lines(self.cur, self.cur, pflags)
        return i

    def get_replacement(self, cmd: str, i: int, delim: str) -> tuple[str, int, bool]:
        """The replacement text (``%`` = the previous one) and whether it ran to the end."""
        out = []
        n = len(cmd)
        j = i
        while j < n and cmd[j] != delim:
            if cmd[j] == "\n":
                if j + 1 >= n:
                    break
                out.append("\n")  # an escaped newline inside the replacement
                j += 1
                continue
            if cmd[j] == "\\" and j + 1 < n:
                out.append(cmd[j:j + 2])
                j += 2
                continue
            out.append(cmd[j])
            j += 1
        text = "".join(out)
        ended = j >= n or cmd[j] != delim
        if text == "%":
            if self.subst_repl is None:
                raise self.fail("No previous substitution")
            text = self.subst_repl
        if ended and text.endswith("\n"):
            text = text[:-1]
        return text, j, ended

    def substitute(self, rx, repl: str, nth: int, a: int, b: int) -> bool:
        done = False
        k = a
        budget = self.shell.budget
        end = b
        while k <= end:
            budget.check()
            line = self.text(k)
            pieces = []
            pos = 0
            count = 0
            changed = False
            for m in rx.finditer(line):
                count += 1
                if nth > 0 and count != nth:
                    continue
                pieces.append(line[pos:m.start()])
                pieces.append(_expand(repl, m))
                pos = m.end()
                changed = True
                if nth >= 0:
                    break
            if not changed:
                k += 1
                continue
            pieces.append(line[pos:])
            joined = "".join(pieces)
            budget.check_string(len(joined))
            new = joined.split("\n")
            self.lines[k - 1][1] = new[0]
            if len(new) > 1:
                self.lines[k:k] = self.new_lines(new[1:])
                end += len(new) - 1
                k += len(new) - 1
            self.cur = k
            done = True
            k += 1
        return done

    async def global_run(self, active: list[int], cmd: str, i: int) -> int:
        """Run the g/v command list on each active line; returns the index after it."""
        # the command list runs to the end of the (continued) command line
        text = cmd[i:]
        if text.strip("\n") == "":
            text = "p\n"
        self.begin_change()
        saved = self.pending_undo
        budget = self.shell.budget
        for lid in active:
            budget.check()
            addr = next((k + 1 for k, x in enumerate(self.lines) if x[0] == lid), 0)
            if addr == 0:
                continue
            self.cur = addr
            j = 0
            while j < len(text):
                j = await self.exec_command(text, j, True)
        self.pending_undo = saved
        if self.snapshot()[0] != saved[0]:
            self.undo_state = saved
        return len(cmd)

    async def global_interactive(self, active: list[int], pflags: str) -> None:
        prev = None
        self.begin_change()
        saved = self.pending_undo
        for lid in active:
            addr = next((k + 1 for k, x in enumerate(self.lines) if x[0] == lid), 0)
            if addr == 0:
                continue
            self.cur = addr
            self.print_lines(addr, addr, pflags)
            await self.flush()
            line = await self.read_line()
            if line is None:
                raise self.fail("Unexpected end of file")
            if line == "":
                continue
            if line == "&":
                if prev is None:
                    raise self.fail("No previous command")
                line = prev
            prev = line
            j = 0
            text = line + "\n"
            while j < len(text):
                j = await self.exec_command(text, j, True)
        self.pending_undo = saved
        if self.snapshot()[0] != saved[0]:
            self.undo_state = saved

    # -- the main loop -----------------------------------------------------------
    async def get_command(self) -> str | None:
        """One command line, with backslash-newline continuations joined in."""
        line = await self.read_line()
        if line is None:
            return None
        parts = [line]
        while _continued(parts[-1]):
            nxt = await self.read_line()
            if nxt is None:
                break
            parts[-1] = parts[-1][:-1]
            parts.append(nxt)
        return "\n".join(parts) + "\n"

    async def run(self, filename: str | None) -> int:
        if filename:
            if filename.startswith("!"):
                await self.shell.stderr.write(b"ed: shell commands are not available in the "
                                              b"sandbox\n")
                self.status = 1
            else:
                self.filename = filename
                try:
                    await self.read_file(filename, 0)
                except EdError:
                    pass  # the name is kept, the buffer stays empty (GNU ed)
                self.modified = False
                self.undo_state = None
        while True:
            await self.flush()
            if self.prompt_on:
                self.puts(self.prompt)
            cmd = await self.get_command()
            try:
                if cmd is None:
                    if not self.modified or self.warned:
                        await self.flush()
                        return self.status
                    self.warned = True
                    self.errmsg = "Warning: buffer modified"
                    self.puts("?\n")
                    if self.verbose:
                        self.puts(self.errmsg + "\n")
                    await self.flush()
                    return 2 if not self.loose else self.status
                self.shell_message = False
                await self.exec_command(cmd, 0, False)
                self.warned = False
            except Quit:
                await self.flush()
                return self.status
            except Modified:
                self.warned = True
                self.errmsg = "Warning: buffer modified"
                self.puts("?\n")
                if self.verbose:
                    self.puts(self.errmsg + "\n")
                if not self.loose:
                    self.status = self.status or 1
            except EdError:
                self.warned = False
                self.puts("?\n")
                if self.verbose:
                    self.puts(self.errmsg + "\n")
                if getattr(self, "shell_message", False):
                    await self.flush()
                    await self.shell.stderr.write(
                        b"ed: shell commands (!) are not available in the sandbox\n")
                if not self.loose:
                    self.status = self.status or 1


def _continued(line: str) -> bool:
    """A command line ending in an odd number of backslashes continues on the next."""
    k = len(line) - len(line.rstrip("\\"))
    return k % 2 == 1


def _bracket_end(s: str, i: int) -> int:
    """The index after the bracket expression starting at s[i] == '['."""
    j = i + 1
    if j < len(s) and s[j] == "^":
        j += 1
    if j < len(s) and s[j] == "]":
        j += 1
    while j < len(s) and s[j] != "]":
        if s[j] == "[" and j + 1 < len(s) and s[j + 1] in ":.=":
            k = s.find(s[j + 1] + "]", j + 2)
            j = k + 2 if k >= 0 else j + 1
        elif s[j] == "\n":
            return j
        else:
            j += 1
    return j + 1 if j < len(s) else j


def _expand(repl: str, m) -> str:
    out = []
    i = 0
    n = len(repl)
    while i < n:
        c = repl[i]
        if c == "&":
            out.append(m.group(0))
        elif c == "\\" and i + 1 < n:
            d = repl[i + 1]
            if d.isdigit() and d != "0":
                try:
                    out.append(m.group(int(d)) or "")
                except IndexError:
                    out.append("")
            elif d == "\n":
                out.append("\n")
            else:
                out.append(d)
            i += 2
            continue
        else:
            out.append(c)
        i += 1
    return "".join(out)


_ESC = {"\a": "\\a", "\b": "\\b", "\f": "\\f", "\r": "\\r", "\t": "\\t", "\v": "\\v",
        "\\": "\\\\"}


def _list_line(text: str, col: int = 0) -> str:
    """The ``l`` form: escapes, octal for unprintable bytes, ``$`` at the end, folded at 72."""
    units = []
    for ch in text:
        o = ord(ch)
        if ch in _ESC:
            units.append(_ESC[ch])
        elif 0xDC80 <= o <= 0xDCFF:
            units.append(f"\\{o - 0xDC00:03o}")
        elif o < 32 or o == 127:
            units.append(f"\\{o:03o}")
        elif o >= 128 and not ch.isprintable():
            units.extend(f"\\{b:03o}" for b in encode(ch))
        else:
            units.append(ch)
    out = []
    for u in units:
        if col + len(u) > 72:
            out.append("\\\n")
            col = 0
        out.append(u)
        col += len(u)
    return "".join(out) + "$"


async def main(shell, argv: list[str]) -> int:
    try:
        opts, operands = parse_options(argv[1:], "hVEGlp:qrsv", {
            "help": "h", "version": "V", "extended-regexp": "E", "traditional": "G",
            "loose-exit-status": "l", "prompt=": "p", "restricted": "r", "quiet": "q",
            "silent": "q", "script": "s", "verbose": "v", "strip-trailing-cr": "cr"})
    except OptionError as e:
        await shell.error("ed", str(e))
        await shell.stderr.write(b"Try 'ed --help' for more information.\n")
        return 1
    kw = dict(silent=False, extended=False, loose=False, prompt=None, verbose=False,
              restricted=False, quiet=False, strip_cr=False)
    for k, v in opts:
        if k == "h":
            await shell.stdout.write(encode(HELP))
            return 0
        if k == "V":
            await shell.stdout.write(encode(VERSION))
            return 0
        if k == "E":
            kw["extended"] = True
        elif k == "l":
            kw["loose"] = True
        elif k == "p":
            kw["prompt"] = v or ""
        elif k == "r":
            kw["restricted"] = True
        elif k == "s":
            kw["silent"] = True
        elif k == "q":
            kw["quiet"] = True
        elif k == "cr":
            kw["strip_cr"] = True
        elif k == "v":
            kw["verbose"] = True
    ed = Ed(shell, **kw)
    return await ed.run(operands[0] if operands else None)
