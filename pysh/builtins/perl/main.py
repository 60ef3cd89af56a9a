"""The perl command: options, the -n/-p loop, <> over @ARGV, -i in-place edits, exit status.

Supported: ``-e``/``-E`` (several are joined with newlines), ``-n``, ``-p``,
``-i[SUFFIX]``, ``-l[OCTAL]``, ``-a``, ``-F PATTERN``, ``-0[OCTAL]`` (``-00``
paragraph mode, ``-0777`` slurp), ``-w``/``-W``/``-X`` (accepted; pysh does not
print perl's warnings), ``-M``/``-m`` for ``strict``, ``warnings``,
``List::Util`` and ``POSIX``, ``-c``, ``-v``, a script file, or the program on
standard input. The language subset is described in README/issue 13: regular
expressions use Perl's syntax on the ``regex`` engine, guarded by the run's
deadline; strings are bytes (Latin-1 characters), as perl without ``-C``.

Anything outside the subset is refused before the program runs:
``pysh's perl subset does not support ...``, exit 255 (perl's status for a
program that does not compile). ``die`` exits as perl does (errno, else 255).
"""

from __future__ import annotations

import re
import time

from pysh.builtins.perl.compiler import Compiler, Frame, Runtime
from pysh.builtins.perl.parser import Parser, PerlSyntaxError, Unsupported
from pysh.builtins.perl.values import (
    CodeRef,
    FileHandle,
    LoopControl,
    PerlDie,
    PerlExit,
    ReturnValue,
    to_str,
)
from pysh.shellkit.text import decode, encode

VERSION = """
This is perl 5, version 36, subversion 0 (v5.36.0) built for x86_64-linux-gnu-thread-multi
(pysh: the one-liner subset of Perl, run in the sandbox)

Copyright 1987-2022, Larry Wall

Perl may be copied only under the terms of either the Artistic License or the
GNU General Public License, which may be found in the Perl 5 source kit.
"""

USAGE = """
Usage: perl [switches] [--] [programfile] [arguments]
  -0[octal/hexadecimal] specify record separator (\\0, if no argument)
  -a                    autosplit mode with -n or -p (splits $_ into @F)
  -c                    check syntax only (runs BEGIN and CHECK blocks)
  -e commandline        one line of program (several -e's allowed, omit programfile)
  -E commandline        like -e, but enables all optional features
  -F/pattern/           split() pattern for -a switch (//'s are optional)
  -i[extension]         edit <> files in place (makes backup if extension supplied)
  -l[octnum]            enable line ending processing, specifies line terminator
  -[mM][-]module        execute "use/no module..." before executing program
  -n                    assume "while (<>) { ... }" loop around program
  -p                    assume loop like -n but print line also, like sed
  -v                    print version, patchlevel and license
  -w                    enable many useful warnings
  -W                    enable all warnings
  -X                    disable all warnings

(pysh runs the one-liner subset of Perl; see the README.)
"""

L1 = "latin-1"


def _latin(s: str) -> str:
    """A str from the shell (UTF-8 with surrogates) as perl's bytes (Latin-1 characters)."""
    return encode(s).decode(L1)


def _shell_str(s: str) -> str:
    return decode(s.encode(L1))


class StdinBuffer:
    """Standard input: read asynchronously by the driver, consumed synchronously."""

    def __init__(self, shell):
        self.shell = shell
        self.data = ""
        self.pos = 0
        self.eof = False

    async def fill(self, want_sep: str | None) -> None:
        """Read until a whole record (by ``want_sep``) is buffered, or to the end."""
        budget = self.shell.budget
        while not self.eof:
            if want_sep is not None and want_sep != "" and \
                    self.data.find(want_sep, self.pos) >= 0:
                return
            if want_sep == "" and re.search(r"[^\n]\n\n", self.data[self.pos:]):
                return
            chunk = await self.shell.stdin.read(1 << 16)
            if not chunk:
                self.eof = True
                return
            budget.check()
            if self.pos > (1 << 20):
                self.data = self.data[self.pos:]
                self.pos = 0
            self.data += chunk.decode(L1)
            budget.check_string(len(self.data) - self.pos)

    async def fill_all(self) -> None:
        await self.fill(None)


class ArgvReader:
    """<> and <ARGV>: the files named in @ARGV in turn (standard input when there are none)."""

    def __init__(self, rt: Runtime, stdin: StdinBuffer, inplace: str | None):
        self.rt = rt
        self.stdin = stdin
        self.inplace = inplace
        self.cur: FileHandle | None = None
        self.started = False
        self.finished = False
        self.last_was_argv = True
        self.out_fh: FileHandle | None = None

    # -- opening -------------------------------------------------------------------
    def open_next(self) -> bool:
        rt = self.rt
        self.finish_inplace()
        argv = rt.arrays.setdefault("ARGV", [])
        while True:
            if not argv:
                if self.started:
                    self.finished = True
                    self.cur = None
                    return False
                self.started = True
                argv.append("-")
                if self.inplace is not None:
                    rt.write(rt.stderr, "-i used with no filenames on the command line, "
                                        "reading from STDIN.\n")
            self.started = True
            name = to_str(argv.pop(0))
            rt.scalars["ARGV"] = name
            if name == "-":
                fh = FileHandle("-", "<")
                fh.path = None
                self.cur = fh
                self.cur_is_stdin = True
                return True
            try:
                data = rt.shell.stream_data(name)
                if data is None:
                    data = rt.fs.read_bytes(name)
                rt.budget.check_string(len(data))
            except OSError as e:
                import os
                rt.write(rt.stderr, f"Can't open {name}: {os.strerror(e.errno or 5)}.\n")
                continue
            fh = FileHandle(name, "<", name)
            fh.data = data.decode(L1)
            self.cur = fh
            self.cur_is_stdin = False
            if self.inplace is not None:
                out = FileHandle(name, ">", None)
                self.out_fh = out
                rt.selected = out
            return True

    def finish_inplace(self) -> None:
        """-i: the edited text replaces the file (the original kept under the suffix)."""
        rt = self.rt
        out = self.out_fh
        if out is None or self.cur is None:
            return
        name = self.cur.name
        data = "".join(out.out).encode(L1, "replace")
        if self.inplace:
            suffix = self.inplace
            backup = suffix.replace("*", name) if "*" in suffix else name + suffix
            rt.fs.write_bytes(backup, self.cur.data.encode(L1, "replace"))
        rt.fs.write_bytes(name, data)
        rt.budget.count_written(len(data))
        self.out_fh = None
        rt.selected = rt.stdout

    def close_current(self) -> None:
        if self.cur is not None:
            self.cur.pos = len(self.cur.data) if not self.cur_is_stdin else self.cur.pos

    # -- reading ---------------------------------------------------------------------
    def source(self) -> tuple[str, int]:
        fh = self.cur
        if self.cur_is_stdin:
            return self.stdin.data, self.stdin.pos
        return fh.data, fh.pos

    def readline(self):
        rt = self.rt
        while True:
            if self.cur is None:
                if self.finished or not self.open_next():
                    return None
            if self.cur_is_stdin:
                holder = self.stdin
                rec = _next_record(rt, holder)
                if rec is None and not holder.eof:
                    raise NeedInput()
            else:
                rec = _next_record(rt, self.cur)
            if rec is not None:
                rt.lineno += 1
                return rec
            if not self.open_next():
                return None

    def read_all_lines(self) -> list:
        out = []
        while True:
            rec = self.readline()
            if rec is None:
                return out
            out.append(rec)

    def eof_current(self) -> bool:
        if self.cur is None:
            return True
        if self.cur_is_stdin:
            return self.stdin.pos >= len(self.stdin.data) and self.stdin.eof
        return self.cur.pos >= len(self.cur.data)

    def eof_all(self) -> bool:
        return self.eof_current() and not self.rt.arrays.get("ARGV")


class NeedInput(Exception):
    """Standard input has no whole record buffered yet (the driver reads more)."""


def _next_record(rt: Runtime, holder):
    data = holder.data
    pos = holder.pos
    if pos >= len(data):
        return None
    sep = rt.scalars.get("/")
    eof = getattr(holder, "eof", True)
    if sep is None:
        if not eof:
            return None
        holder.pos = len(data)
        return data[pos:]
    sep = to_str(sep)
    if sep == "":
        while pos < len(data) and data[pos] == "\n":
            pos += 1
        if pos >= len(data):
            holder.pos = pos
            return None
        j = data.find("\n\n", pos)
        if j < 0:
            if not eof:
                return None
            holder.pos = len(data)
            return data[pos:]
        k = j + 2
        while k < len(data) and data[k] == "\n":
            k += 1
        if k >= len(data) and not eof:
            return None
        holder.pos = k
        return data[pos:j + 2]
    j = data.find(sep, pos)
    if j < 0:
        if not eof:
            return None
        holder.pos = len(data)
        return data[pos:]
    holder.pos = j + len(sep)
    return data[pos:j + len(sep)]


class Options:
    def __init__(self):
        self.code: list[str] = []
        self.loop = None  # "n" or "p"
        self.inplace: str | None = None
        self.autosplit = False
        self.split_pat: str | None = None
        self.chomp_l = False
        self.ors: str | None = None
        self.ors_set = False
        self.irs: object = "\n"
        self.irs_set = False
        self.check = False
        self.features: set = set()
        self.modules: list[tuple[str, str, bool]] = []
        self.script: str | None = None


class UsageError(Exception):
    pass


def parse_switches(argv: list[str]) -> tuple[Options, list[str]]:
    o = Options()
    i = 0
    n = len(argv)
    while i < n:
        a = argv[i]
        if a == "--":
            i += 1
            break
        if not a.startswith("-") or a == "-":
            break
        i += 1
        j = 1
        while j < len(a):
            c = a[j]
            j += 1
            if c in "eE":
                if j < len(a):
                    o.code.append(a[j:])
                elif i < n:
                    o.code.append(argv[i])
                    i += 1
                else:
                    raise UsageError(f"No code specified for -{c}.")
                if c == "E":
                    o.features.add("say")
                break
            if c in "np":
                if o.loop != "p":
                    o.loop = c
            elif c == "a":
                o.autosplit = True
                o.loop = o.loop or "n"
            elif c == "F":
                o.autosplit = True
                o.loop = o.loop or "n"
                pat = a[j:]
                if not pat and i < n:
                    pat = argv[i]
                    i += 1
                o.split_pat = pat
                break
            elif c == "i":
                o.inplace = a[j:]
                if o.inplace.startswith("-") or False:
                    pass
                break
            elif c == "l":
                m = re.match(r"[0-7]*", a[j:])
                digits = m.group(0)
                j += len(digits)
                o.chomp_l = True
                o.ors_set = True
                # $\ = $/ (undef after -0777; "\n\n" in paragraph mode, as perl.c does)
                o.ors = chr(int(digits, 8)) if digits else ("\n\n" if o.irs == "" else o.irs)
            elif c == "0":
                m = re.match(r"x[0-9a-fA-F]+|[0-7]*", a[j:])
                digits = m.group(0)
                j += len(digits)
                if digits.startswith("x"):
                    o.irs = chr(int(digits[1:], 16))
                elif digits == "":
                    o.irs = "\0"
                else:
                    v = int(digits, 8)
                    o.irs = None if v >= 0o400 else ("" if v == 0 else chr(v))
                o.irs_set = True
            elif c in "wWXtTUs":
                pass
            elif c == "c":
                o.check = True
            elif c == "v":
                raise _Version()
            elif c == "h":
                raise _Help()
            elif c in "mM":
                rest = a[j:]
                if not rest and i < n:
                    rest = argv[i]
                    i += 1
                no = rest.startswith("-")
                rest = rest.lstrip("-")
                mod, _, imports = rest.partition("=")
                o.modules.append((mod, imports, no))
                break
            elif c in "CdDxuIV":
                raise UsageError(f"pysh's perl subset does not support the -{c} switch.")
            else:
                raise UsageError(f'Unrecognized switch: -{a[j - 1:]}  (-h will show valid '
                                 'options).')
    return o, argv[i:]


class _Version(Exception):
    pass


class _Help(Exception):
    pass


async def main(shell, argv: list[str]) -> int:
    args = [_latin(a) for a in argv[1:]]
    try:
        o, rest = parse_switches(args)
    except _Version:
        await shell.stdout.write(encode(VERSION))
        return 0
    except _Help:
        await shell.stdout.write(encode(USAGE))
        return 0
    except UsageError as e:
        await shell.stderr.write(encode(_shell_str(str(e)) + "\n"))
        return 29 if "Unrecognized" in str(e) else 255
    rt = Runtime()
    rt.shell = shell
    rt.fs = shell.fs
    rt.budget = shell.budget
    rt.hashes["ENV"] = {_latin(k): _latin(v) for k, v in shell.env.items()}
    stdin = StdinBuffer(shell)
    name = "-e"
    if o.code:
        src = "\n".join(o.code)
    elif rest:
        name = rest.pop(0)
        try:
            src = shell.fs.read_bytes(_shell_str(name)).decode(L1)
        except OSError as e:
            import os
            await shell.stderr.write(encode(
                f'Can\'t open perl script "{_shell_str(name)}": '
                f'{os.strerror(e.errno or 5)}\n'))
            return 2
        if src.startswith("#!"):
            src = src.split("\n", 1)[1] if "\n" in src else ""
            src = "\n" + src
    else:
        await stdin.fill_all()
        src = stdin.data
        stdin.data, stdin.pos = "", 0
    rt.scalars["0"] = name
    rt.arrays["ARGV"] = list(rest)
    if o.irs_set:
        rt.scalars["/"] = o.irs
    if o.ors_set:
        rt.scalars["\\"] = o.ors
    features = set(o.features)
    for mod, imports, _no in o.modules:
        if mod in ("strict", "warnings", "utf8"):
            continue
        if mod == "feature":
            features.add("say")
            continue
        if mod in ("List::Util", "POSIX", "List::MoreUtils", "Scalar::Util"):
            rt.imports.update(x for x in re.split(r"[,\s]+", imports) if x)
            rt.imports.add(mod)
            continue
        return await _refuse(shell, f"the module {mod}")
    try:
        parser = Parser(src, 1, features)
        stmts = parser.parse_program()
    except PerlSyntaxError as e:
        await shell.stderr.write(encode(_shell_str(
            f"{e.message}\nExecution of {name} aborted due to compilation errors.\n")))
        return 255
    except Unsupported as e:
        return await _refuse(shell, str(e))
    except RecursionError:
        return await _refuse(shell, "a program nested this deeply")
    _collect_imports(rt, stmts)
    comp = Compiler(rt, features)
    try:
        begin_fns, body, end_fns = comp.program(stmts)
        split_fn = _autosplit(comp, o) if o.autosplit else None
    except Unsupported as e:
        return await _refuse(shell, str(e))
    except RecursionError:
        return await _refuse(shell, "a program nested this deeply")
    if o.check:
        await shell.stderr.write(encode(f"{_shell_str(name)} syntax OK\n"))
        return 0
    frame = Frame(comp.scope.size + 8, None, [], 0)
    rt.main_frame = frame
    for ref, fn in comp.sub_bodies:
        ref.fn = _bind(fn, frame)
    reader = ArgvReader(rt, stdin, o.inplace)
    rt.argv = reader
    rt.stdin = FileHandle("STDIN", "<")
    rt.open_files = []
    rt.read_stdin_line = lambda: _stdin_line(rt, stdin)
    rt.read_stdin_lines = lambda: _stdin_lines(rt, stdin)
    rt.stdin_eof = lambda: stdin.eof and stdin.pos >= len(stdin.data)
    status = 0
    try:
        try:
            for b in begin_fns:
                b(frame)
            if o.loop is None:
                if _uses_input(stmts):
                    await stdin.fill_all()
                body(frame)
            else:
                await _run_loop(shell, rt, reader, stdin, o, body, frame, split_fn)
        except PerlExit as e:
            status = e.status
        for b in end_fns + rt.end_blocks:
            try:
                b(frame)
            except PerlExit as e:
                status = e.status
        reader.finish_inplace()
    except PerlDie as e:
        status = _die_status(rt)
        await _flush(shell, rt)
        msg = e.value if isinstance(e.value, str) else to_str(e.value)
        await shell.stderr.write(encode(_shell_str(msg)))
        return status
    except LoopControl as e:
        await _flush(shell, rt)
        label = f' "{e.label}"' if e.label else ""
        await shell.stderr.write(encode(f'Can\'t "{e.kind}" outside a loop block{label} at '
                                        f'{name} line 1.\n'))
        return 255
    except ReturnValue:
        pass
    except Unsupported as e:
        await _flush(shell, rt)
        return await _refuse(shell, str(e))
    except RecursionError:
        await _flush(shell, rt)
        await shell.stderr.write(b"pysh: perl: deep recursion: the sandbox's stack is full\n")
        return 255
    except ZeroDivisionError:
        await _flush(shell, rt)
        await shell.stderr.write(encode(f"Illegal division by zero at {name} line 1.\n"))
        return 255
    finally:
        for fh in getattr(rt, "open_files", []):
            try:
                from pysh.builtins.perl.builtins import flush_fh
                flush_fh(rt, fh)
            except OSError:
                pass
    await _flush(shell, rt)
    return status & 0xFF


def _bind(fn, frame):
    return lambda args, want: fn(frame, args, want)


async def _refuse(shell, what: str) -> int:
    await shell.stderr.write(encode(_shell_str(
        f"pysh's perl subset does not support {what}.\n")))
    return 255


def _die_status(rt: Runtime) -> int:
    if rt.errno:
        return rt.errno & 0xFF
    return 255


async def _flush(shell, rt: Runtime) -> None:
    if rt.err:
        text = "".join(rt.err)
        rt.err.clear()
        await shell.stderr.write(text.encode(L1, "replace"))
    if rt.out:
        text = "".join(rt.out)
        rt.out.clear()
        rt.out_size = 0
        await shell.stdout.write(text.encode(L1, "replace"))


def _autosplit(comp: Compiler, o: Options):
    pat = o.split_pat
    rt = comp.rt
    if pat is None:
        node = ("split", [])
    else:
        if len(pat) >= 2 and pat[0] in "/\"'" and pat[-1] == pat[0]:
            pat = pat[1:-1]
        node = ("split", [("match", ("str", pat), ""), ("scalar", "_")])
    fn = comp.listv(node)
    arrays = rt.arrays

    def split(f):
        arrays["F"] = fn(f)
    return split


async def _run_loop(shell, rt: Runtime, reader: ArgvReader, stdin: StdinBuffer, o: Options,
                    body, frame, split_fn) -> None:
    scalars = rt.scalars
    printing = o.loop == "p"
    chomp = o.chomp_l
    budget = shell.budget
    last_flush = time.monotonic()
    n = 0
    while True:
        try:
            line = reader.readline()
        except NeedInput:
            sep = scalars.get("/")
            await stdin.fill(None if sep is None else to_str(sep))
            continue
        if line is None:
            return
        if chomp:
            sep = scalars.get("/")
            if sep is not None:
                sep = to_str(sep)
                if sep == "":
                    line = line.rstrip("\n")
                elif line.endswith(sep):
                    line = line[:-len(sep)]
        scalars["_"] = line
        if split_fn is not None:
            split_fn(frame)
        try:
            body(frame)
        except LoopControl as e:
            if e.label not in (None, "LINE"):
                raise
            if e.kind == "last":
                return
        if printing:
            text = to_str(scalars.get("_"))
            ors = scalars.get("\\")
            if ors is not None:
                text += to_str(ors)
            rt.write(rt.selected, text)
        n += 1
        if n & 255 == 0 or rt.out_size > (1 << 20):
            budget.check()
            if rt.out_size > (1 << 16) or time.monotonic() - last_flush > 0.05:
                await _flush(shell, rt)
                last_flush = time.monotonic()
            if time.monotonic() >= budget.yield_at:
                await budget.pause()


def _stdin_line(rt: Runtime, stdin: StdinBuffer):
    rec = _next_record(rt, stdin)
    if rec is not None:
        rt.lineno += 1
    return rec


def _stdin_lines(rt: Runtime, stdin: StdinBuffer) -> list:
    out = []
    while True:
        rec = _stdin_line(rt, stdin)
        if rec is None:
            return out
        out.append(rec)


def _uses_input(stmts) -> bool:
    """Whether the program reads <>, <STDIN> or eof (standard input is then read first)."""
    text = repr(stmts)
    return "'readline'" in text or "'eof'" in text or "'STDIN'" in text


def _collect_imports(rt: Runtime, stmts) -> None:
    for st in stmts:
        if st and st[0] == "use" and st[1] in ("List::Util", "POSIX", "List::MoreUtils",
                                               "Scalar::Util"):
            rt.imports.add(st[1])
            args = st[2]
            for name in re.findall(r"'str', '(\w+)'", repr(args)):
                rt.imports.add(name)


__all__ = ["main", "CodeRef"]
