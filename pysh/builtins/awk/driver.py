"""awk's command line, program loading, and one run of a compiled program."""

from __future__ import annotations

import math
import re
import sys

from pysh.builtins.awk import runtime as RT
from pysh.builtins.awk.compiler import CompileError, Compiler
from pysh.builtins.awk.errors import (
    AwkExit,
    AwkFatal,
    AwkSyntaxError,
    NextFile,
    NextRecord,
)
from pysh.builtins.awk.inplace import InPlace
from pysh.builtins.awk.lexer import unescape_string
from pysh.builtins.awk.parser import parse
from pysh.builtins.awk.values import UNINIT, StrNum, looks_numeric, str_to_num, to_num
from pysh.shellkit import BrokenPipe, FileSystemError, WriteError
from pysh.shellkit.text import decode, encode

PROG = "awk"
VERSION = ("awk (pysh) 1.0 - the POSIX awk language and the gawk 5.2 extensions agents use "
           "(PROCINFO[\"sorted_in\"], IGNORECASE, BEGINFILE/ENDFILE, gensub, asort, ...)\n")
USAGE = """\
Usage: awk [POSIX or GNU style options] -f progfile [--] file ...
Usage: awk [POSIX or GNU style options] [--] 'program' file ...
POSIX options:\t\tGNU long options: (standard)
\t-f progfile\t\t--file=progfile
\t-F fs\t\t\t--field-separator=fs
\t-v var=val\t\t--assign=var=val
Short options:\t\tGNU long options: (extensions)
\t-e 'program-text'\t--source='program-text'
\t-E file\t\t\t--exec=file
\t-h\t\t\t--help
\t-i inplace\t\t--include=inplace (edit each file in place)
\t-V\t\t\t--version

Commands in pipes, getline and system() run in-process in the sandbox.

Examples:
\tawk '{ sum += $1 }; END { print sum }' file
\tawk -F: '{ print $1 }' /etc/passwd
"""

_VAR_ASSIGN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=", re.DOTALL)
SPECIAL_NAMES = {"NR", "NF", "FNR", "FS", "OFS", "ORS", "RS", "FILENAME", "SUBSEP", "RSTART",
                 "RLENGTH", "CONVFMT", "OFMT", "ENVIRON", "ARGC", "ARGV"}


class Usage(Exception):
    pass


class Source:
    """The program text and where each of its lines came from (for messages)."""

    def __init__(self):
        self.text = ""
        self.segments: list[tuple[int, str]] = []  # (first line, name)

    def add(self, text: str, name: str) -> None:
        first = self.text.count("\n") + 1 if self.text else 1
        if self.text and not self.text.endswith("\n"):
            self.text += "\n"
            first = self.text.count("\n") + 1
        self.segments.append((first, name))
        self.text += text

    def where(self, line: int) -> tuple[str, int]:
        name, first = "cmd. line", 1
        for f, n in self.segments:
            if f <= line:
                name, first = n, f
        return name, line - first + 1


class Options:
    """What the command line asked for besides the program and its operands."""

    def __init__(self) -> None:
        self.fs: str | None = None
        self.assigns: list[str] = []
        self.sources: list[tuple[str, str]] = []  # ("f", progfile) or ("e", text), in order
        self.includes: list[str] = []  # -i / --include
        self.warnings: list[str] = []


_LONG = {"field-separator": "F", "assign": "v", "file": "f", "source": "e", "include": "i",
         "exec": "E", "bignum": "M", "optimize": "O", "no-optimize": "s", "help": "h",
         "version": "V", "posix": "P", "traditional": "c", "re-interval": "r"}
_WITH_ARG = "FvfeiE"


def parse_args(argv: list[str]):
    """("help"|"version", ...) or (Options, program text or None, operands)."""
    o = Options()
    i = 1
    n = len(argv)

    def take(key: str, val: str) -> bool:
        """Record an option with its argument; True when option parsing stops here (-E)."""
        if key == "F":
            o.fs = val
        elif key == "v":
            o.assigns.append(val)
        elif key in "fE":
            o.sources.append(("f", val))
        elif key == "e":
            o.sources.append(("e", val))
        elif key == "i":
            o.includes.append(val)
        return key == "E"

    def flag(key: str):
        if key in "hV":
            return "help" if key == "h" else "version"
        if key == "M":
            o.warnings.append("-M ignored: MPFR/GMP support not compiled in")
        return None  # P c r O s: already so, or nothing to do

    while i < n:
        a = argv[i]
        if a == "--":
            i += 1
            break
        if not a.startswith("-") or a == "-":
            break
        if a.startswith("--"):
            name, eq, val = a[2:].partition("=")
            matches = [k for k in _LONG if k.startswith(name)] if name else []
            if name in _LONG:
                matches = [name]
            if len(matches) != 1:
                if matches:
                    raise Usage(f"option '{a}' is ambiguous")
                raise Usage(f"unrecognized option '{a}'")
            key = _LONG[matches[0]]
            i += 1
            if key in _WITH_ARG:
                if not eq:
                    if i >= n:
                        raise Usage(f"option '--{matches[0]}' requires an argument")
                    val = argv[i]
                    i += 1
                if take(key, val):
                    break
            elif (done := flag(key)) is not None:
                return done, None, None
            continue
        if a in ("-version", "-W"):
            if a == "-W" and i + 1 < n:
                i += 1
                if argv[i].startswith("v"):
                    return "version", None, None
                i += 1
                continue
            return "version", None, None
        j = 1
        stop = False
        while j < len(a):
            c = a[j]
            if c in _WITH_ARG:
                val = a[j + 1:]
                if not val:
                    i += 1
                    if i >= n:
                        raise Usage(f"option requires an argument -- {c}")
                    val = argv[i]
                stop = take(c, val)
                break
            if c in "hVPcrMOs":
                if (done := flag(c)) is not None:
                    return done, None, None
                j += 1
                continue
            raise Usage(f"invalid option -- '{c}'")
        i += 1
        if stop:
            break
    program = None
    if not o.sources:
        if i >= n:
            raise Usage("")
        program = argv[i]
        i += 1
    return o, program, argv[i:]


async def main(shell, argv: list[str]) -> int:
    try:
        parsed = parse_args(argv)
    except Usage as e:
        if str(e):
            await shell.error(PROG, str(e))
        await shell.stderr.write(encode(USAGE))
        return 2
    if parsed[0] == "help":
        await shell.stdout.write(encode(USAGE))
        return 0
    if parsed[0] == "version":
        await shell.stdout.write(encode(VERSION))
        return 0
    opts, program, operands = parsed
    for w in opts.warnings:
        await shell.error(PROG, f"warning: {w}")
    inplace = InPlace()
    for name in opts.includes:
        if name not in ("inplace", "inplace.awk"):
            await shell.error(PROG, f"fatal: cannot open source file `{name}' for reading: "
                                    "No such file or directory")
            return 2
        inplace.enabled = True
    assigns = [a for a in opts.assigns if not inplace.option(a)]
    for a in assigns:
        if not _VAR_ASSIGN.match(a):
            await shell.stderr.write(encode(
                f"{PROG}: `{a}' argument to `-v' not in `var=value' form\n\n" + USAGE))
            return 2
    src = Source()
    if program is not None:
        src.add(program, "cmd. line")
    for kind, value in opts.sources:
        if kind == "e":
            src.add(value, "cmd. line")
            continue
        try:
            if value in ("-", "/dev/stdin"):
                data = await shell.stdin.read()
            else:
                data = shell.fs.read_bytes(value)
        except FileSystemError as e:
            await shell.error(PROG, f"fatal: cannot open source file `{value}' for reading: "
                                    f"{e.strerror}")
            return 2
        except IsADirectoryError:
            await shell.error(PROG, f"fatal: cannot open source file `{value}' for reading: "
                                    "Is a directory")
            return 2
        src.add(decode(data), value)
    return await run_program(shell, src, opts.fs, assigns, operands,
                             inplace if inplace.enabled else None)


def _syntax_message(src: Source, e: AwkSyntaxError) -> str:
    name, line = src.where(e.line)
    prefix = f"{PROG}: {name}:{line}: "
    if e.col is None or e.col < 0:
        return f"{prefix}{'error' if getattr(e, 'status', 2) == 1 else 'fatal'}: {e.msg}\n"
    text = e.source_line()
    return f"{prefix}{text}\n{prefix}{' ' * e.col}^ {e.msg}\n"


async def run_program(shell, src: Source, fs, assigns, operands, inplace=None) -> int:
    try:
        prog, warnings = parse(src.text)
        comp = Compiler(prog, src.text, icase=any(
            a.partition("=")[0] == "IGNORECASE" for a in assigns))
        pysrc, linemap = comp.compile()
    except AwkSyntaxError as e:
        await shell.stderr.write(encode(_syntax_message(src, e)))
        return getattr(e, "status", 2)
    except RecursionError:
        await shell.error(PROG, "fatal: program too deeply nested")
        return 2
    for line, msg in warnings + comp.warnings:
        name, ln = src.where(line)
        await shell.stderr.write(encode(f"{PROG}: {name}:{ln}: warning: {msg}\n"))
    try:
        code = compile(pysrc, "<awk>", "exec")
    except (SyntaxError, RecursionError, MemoryError):
        await shell.error(PROG, "fatal: program too complex")
        return 2

    g: dict = {}
    first_name = src.segments[0][1] if src.segments else "cmd. line"
    rt = RT.Runtime(shell, g, first_name)
    rt.cmd_status = {}
    rt.where = src.where
    rt.last_rule_line = comp.last_rule_line
    rt.program_names_forbidden = frozenset(prog.functions) | {"function", "BEGIN", "END"}
    rt.icase_mode = comp.icase
    rt.inplace = inplace
    _populate(g, rt, comp, operands, shell)
    rt._prep_fs()
    exec(code, g)  # noqa: S102 - our own generated code
    if comp.file_rules:
        rt.beginfile, rt.endfile = g["_beginfile"], g["_endfile"]
        rt.beginfile_line = next((it.line for it in prog.items if it.kind == "BEGINFILE"), 1)

    status = 0
    try:
        try:
            if fs is not None:
                rt.set_fs(StrNum(unescape_string(fs, rt.warn)))
            for a in assigns:
                if not _VAR_ASSIGN.match(a):
                    raise AwkFatal(f"`{a}' argument to `-v' not in `var=value' form", line=-1)
                name, _, val = a.partition("=")
                if name in prog.functions:
                    raise AwkFatal(f"cannot use function `{name}' as variable name", line=-1)
                rt.assign_var(name, StrNum(unescape_string(val, rt.warn)))
            try:
                try:
                    await g["_begin"]()
                except NextRecord as e:
                    raise AwkFatal("`next' cannot be called from a `BEGIN' rule",
                                   line=_awk_line(e.__traceback__, linemap)) from None
                except NextFile as e:
                    raise AwkFatal("`nextfile' cannot be called from a `BEGIN' rule",
                                   line=_awk_line(e.__traceback__, linemap)) from None
                if comp.has_main or comp.has_end or comp.file_rules:
                    await g["_main"]()
            except AwkExit as e:
                if e.status is not None:
                    status = e.status
            if inplace is not None:  # the last file is written before END runs
                await inplace.end(rt)
            try:
                try:
                    await g["_end"]()
                except NextRecord as e:
                    raise AwkFatal("`next' cannot be called from an `END' rule",
                                   line=_awk_line(e.__traceback__, linemap)) from None
                except NextFile as e:
                    raise AwkFatal("`nextfile' cannot be called from an `END' rule",
                                   line=_awk_line(e.__traceback__, linemap)) from None
            except AwkExit as e:
                if e.status is not None:
                    status = e.status
            await rt.close_all()
        except ZeroDivisionError as e:
            raise AwkFatal("division by zero attempted",
                           line=_awk_line(e.__traceback__, linemap)) from None
        except RecursionError as e:
            raise AwkFatal("function call nesting too deep",
                           line=_awk_line(e.__traceback__, linemap)) from None
        except OverflowError as e:
            raise AwkFatal("numeric overflow", line=_awk_line(e.__traceback__, linemap)) from None
    except AwkFatal as e:
        line = e.line
        if line is None:
            line = _awk_line(sys.exc_info()[2], linemap)
        await _finish_quietly(rt)
        msg = f"{rt.prefix(line)}fatal: {e.msg}\n"
        await shell.stderr.write(encode(msg))
        return 2
    except BrokenPipe:
        raise
    except WriteError as e:  # stdout is full (a file's failed flush is AwkFatal)
        try:
            await shell.stderr.write(encode(
                f"{rt.prefix(None)}warning: error writing standard output: {e}\n"))
        except (BrokenPipe, WriteError):
            pass
        return 1
    except (AwkSyntaxError, CompileError) as e:
        await _finish_quietly(rt)
        await shell.stderr.write(encode(_syntax_message(src, e)))
        return 2
    except FileSystemError as e:  # a write through the door failed (disk full, read-only...)
        await _finish_quietly(rt)
        await shell.stderr.write(encode(f"{rt.prefix(None)}fatal: {e}\n"))
        return 2
    except MemoryError:
        await _finish_quietly(rt)
        await shell.stderr.write(encode(f"{rt.prefix(None)}fatal: out of memory\n"))
        return 2
    except Exception as e:  # noqa: BLE001 - a bug of ours: a clean message, never a traceback
        await _finish_quietly(rt)
        line = _awk_line(e.__traceback__, linemap)
        await shell.stderr.write(encode(
            f"{rt.prefix(line)}fatal: internal error: {type(e).__name__}: {shell.display(str(e))}\n"))
        return 2
    return status & 0xFF


async def _finish_quietly(rt) -> None:
    try:
        if rt.inplace is not None:  # a fatal error: the file being edited keeps its text
            await rt.inplace.abandon(rt)
        await rt.stdout.flush()
        await rt.stderr.flush()
        for o in list(rt.outputs.values()):
            if o.kind == "file":
                await o.flush()
                if o.stream is not None:
                    o.stream.close()
    except (BrokenPipe, FileSystemError, OSError):
        pass


def _awk_line(tb, linemap) -> int | None:
    line = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == "<awk>":
            i = tb.tb_lineno - 1
            if 0 <= i < len(linemap):
                line = linemap[i] or line
        tb = tb.tb_next
    return line


def _populate(g: dict, rt, comp: Compiler, operands: list[str], shell) -> None:
    """The namespace the generated code runs in: helpers, globals, arrays."""
    tostr = rt.tostr
    ostr = rt.ostr

    def coerce(a, b):
        ca = a.__class__
        cb = b.__class__
        if ca is float:
            if cb is float:
                return a, b
            if cb is str:
                return tostr(a), b
            fb = looks_numeric(b)
            if fb is not None:
                return a, fb
            return tostr(a), b
        if ca is str:
            return a, (tostr(b) if cb is float else b)
        if cb is str:
            return a, b
        fa = looks_numeric(a)
        if cb is float:
            if fa is not None:
                return fa, b
            return a, tostr(b)
        if fa is not None:
            fb = looks_numeric(b)
            if fb is not None:
                return fa, fb
        return a, b

    def _lt(a, b):
        if a.__class__ is float and b.__class__ is float:
            return a < b
        a, b = coerce(a, b)
        return a < b

    def _le(a, b):
        if a.__class__ is float and b.__class__ is float:
            return a <= b
        a, b = coerce(a, b)
        return a <= b

    def _gt(a, b):
        if a.__class__ is float and b.__class__ is float:
            return a > b
        a, b = coerce(a, b)
        return a > b

    def _ge(a, b):
        if a.__class__ is float and b.__class__ is float:
            return a >= b
        a, b = coerce(a, b)
        return a >= b

    def _eq(a, b):
        if a.__class__ is float and b.__class__ is float:
            return a == b
        a, b = coerce(a, b)
        return a == b

    def _ne(a, b):
        if a.__class__ is float and b.__class__ is float:
            return a != b
        a, b = coerce(a, b)
        return a != b

    if comp.icase:
        # IGNORECASE: two strings compare case-blind while it is set
        fold = rt.fold
        plain = coerce

        def coerce(a, b):
            a, b = plain(a, b)
            if a.__class__ is not float and b.__class__ is not float:
                return fold(a, b)
            return a, b

    def _bool(v):
        c = v.__class__
        if c is float:
            return v != 0.0
        if c is str:
            return v != ""
        f = looks_numeric(v)
        if f is None:
            return v != ""
        return f != 0.0

    def _aset(a, k, v):
        a[k] = v
        return v

    def _ainc(a, k, delta):
        v = a.get(k)
        if v is None:
            a[k] = delta
        else:
            a[k] = (v if v.__class__ is float else to_num(v)) + delta

    def _aincr(a, k, delta, post):
        v = a.get(k)
        old = 0.0 if v is None else (v if v.__class__ is float else to_num(v))
        a[k] = old + delta
        return old if post else old + delta

    def _divasg(x, y, op):
        if y == 0:
            raise AwkFatal(f"division by zero attempted in `{op}='")
        return x / y if op == "/" else RT.c_fmod(x, y)

    def _arith(op, x, y):
        if op == "+":
            return x + y
        if op == "-":
            return x - y
        if op == "*":
            return x * y
        if op in "/%":
            return _divasg(x, y, op)
        return RT.c_pow(x, y)

    def _aop(a, k, op, v):
        r = a[k] = _arith(op, to_num(a[k]), v)
        return r

    def fout(i):
        f = rt.flds
        if f is None:
            f = rt.split()
        if i <= len(f):
            v = f[i - 1]
            return v if v.__class__ is str else ostr(v)
        return ""

    def fincr(i, delta, post):
        old = rt.dnum(i) if i.__class__ is not int else rt.fnum(i)
        rt.setfield(i, old + delta)
        return old if post else old + delta

    def fop(i, op, v):
        cur = rt.dnum(i) if i.__class__ is not int else rt.fnum(i)
        r = _arith(op, cur, v)
        rt.setfield(i, r)
        return r

    rt.fout = fout
    rt.fincr = fincr
    rt.fop = fop

    budget = rt.budget

    def _tick():
        root = budget
        while root.parent is not None:
            root = root.parent
        root.loop_iterations += 1000
        cap = root.limits.max_loop_iterations
        if cap is not None and root.loop_iterations > cap:
            budget.count_iteration()
        budget.check()
        return 1000

    async def _atick():
        _tick()
        if len(rt.stdout.buf) > RT.FLUSH_ITEMS or rt.dirty:
            await rt.checkpoint()
        return 1000

    def _exitcode(v):
        if v != v or v - v != 0.0:
            return 0
        return int(v)

    def _upper(s):
        if s.isascii():
            return s.upper()
        return "".join(c.upper() if len(c.upper()) == 1 else c for c in s)

    def _lower(s):
        if s.isascii():
            return s.lower()
        # towlower per character: one character for one (İ gives i, as glibc's)
        return "".join(c.lower() if len(c.lower()) == 1 else c.lower()[0] if c == "\u0130"
                       else c for c in s)

    def _atan2(y, x):
        return math.atan2(y, x)

    next_exc = NextRecord()
    nextfile_exc = NextFile()
    g.update({
        "_R": rt, "_U": UNINIT, "_snum": str_to_num, "_ssplit": str.split, "StrNum": StrNum, "_Arr": RT.AwkArray, "_num": to_num,
        "_str": tostr, "_ntos": tostr, "_ostr": ostr, "_ontos": ostr, "_key": tostr,
        "_bool": _bool, "_lt": _lt, "_le": _le, "_gt": _gt, "_ge": _ge, "_eq": _eq, "_ne": _ne,
        "_fnum": rt.fnum, "_fstr": rt.fstr, "_fval": rt.fval, "_fout": fout,
        "_o": rt.stdout.buf.append, "_obuf": rt.stdout.buf,
        "_aset": _aset, "_divasg": _divasg, "_ainc": _ainc, "_aincr": _aincr, "_aop": _aop,
        "_fmod": RT.c_fmod, "_pow": RT.c_pow, "_c_sin": RT.c_sin, "_c_cos": RT.c_cos,
        "_c_exp": RT.c_exp, "_c_log": RT.c_log, "_c_sqrt": RT.c_sqrt, "_c_int": RT.c_int,
        "_atan2": _atan2, "_upper": _upper, "_lower": _lower, "_cs": rt.check_str, "_tick": _tick, "_atick": _atick,
        "_NEXT": next_exc, "_NEXTFILE": nextfile_exc, "_NextRecord": NextRecord,
        "_NextFile": NextFile, "_AwkExit": AwkExit, "_exitcode": _exitcode,
        "_INF": math.inf, "_NAN": math.nan, "__builtins__": __builtins__,
    })
    for src, name in comp.regexes.items():
        g[name] = rt.regex(src)
    # scalars
    for name in comp.global_scalars | comp.assigned_globals():
        g["V_" + name] = UNINIT
    for name in comp.global_arrays:
        g["A_" + name] = RT.AwkArray()
    g.update({
        "V_NR": 0.0, "V_FNR": 0.0, "V_FS": " ", "V_OFS": " ", "V_ORS": "\n", "V_RS": "\n",
        "V_SUBSEP": "\x1c", "V_CONVFMT": "%.6g", "V_OFMT": "%.6g", "V_FILENAME": "",
        "V_RSTART": 0.0, "V_RLENGTH": -1.0,
    })
    env = RT.AwkArray()
    for k, v in shell.env.items():
        env[k] = StrNum(v)
    g["A_ENVIRON"] = env
    procinfo = RT.AwkArray()
    for k, v in (("version", "5.2.1"), ("api_major", "3"), ("api_minor", "2"),
                 ("FS", "FS"), ("pid", "1"), ("ppid", "0"),
                 ("uid", "1000"), ("euid", "1000"), ("gid", "1000"), ("egid", "1000"),
                 ("strftime", "%a %b %e %H:%M:%S %Z %Y"), ("platform", "posix")):
        procinfo[k] = StrNum(v)
    g["A_PROCINFO"] = procinfo
    g["V_IGNORECASE"] = UNINIT
    g["V_ERRNO"] = ""
    argv = RT.AwkArray()
    argv["0"] = PROG
    for i, a in enumerate(operands, 1):
        argv[str(i)] = StrNum(a)
    g["A_ARGV"] = argv
    g["V_ARGC"] = float(len(operands) + 1)
