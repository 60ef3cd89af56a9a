"""``[[ ... ]]`` and the file/string tests it shares with ``test`` / ``[``."""

from __future__ import annotations

import os
import stat as _stat

from pysh.interpreter import pattern as pat
from pysh.interpreter.arith_eval import ArithError, ArithRuntimeError
from pysh.interpreter.errors import ShellError
from pysh.interpreter.expand import BREAK, QUOTED
from pysh.interpreter.state import ASSOC, NAMEREF
from pysh.interpreter.syntax import ast as A
from pysh.shellkit import FileSystemError
from pysh.shellkit.streams import PipeReader, PipeWriter

FILE_UNARY = set("abcdefghkprsuwxGLNOS") | {"t"}
STRING_UNARY = {"z", "n"}


def file_test(interp, op: str, arg: str) -> bool:
    """The unary file tests of test(1) and [[ ]], through the FileSystem door."""
    if op == "t":
        try:
            fd = int(arg)
        except ValueError:
            return False
        s = interp.fds.get(fd)
        return bool(s is not None and s.isatty())
    fs = interp.fs
    if arg == "":
        return False
    if op == "p" and arg.startswith(("/dev/fd/", "/proc/self/fd/")):
        # <(cmd) and >(cmd) are pipes
        from pysh.interpreter.redirect import stream_fd

        n = stream_fd(interp, arg)
        if n is not None and n in interp.fds:
            return isinstance(interp.fds.get(n), (PipeReader, PipeWriter))
    try:
        if op in ("h", "L"):
            return _stat.S_ISLNK(fs.lstat(arg).st_mode)
        st = fs.stat(arg)
    except (FileSystemError, OSError):
        return False
    m = st.st_mode
    if op in ("a", "e"):
        return True
    if op == "f":
        return _stat.S_ISREG(m)
    if op == "d":
        return _stat.S_ISDIR(m)
    if op == "b":
        return _stat.S_ISBLK(m)
    if op == "c":
        return _stat.S_ISCHR(m)
    if op == "p":
        return _stat.S_ISFIFO(m)
    if op == "S":
        return _stat.S_ISSOCK(m)
    if op == "s":
        return st.st_size > 0
    if op == "g":
        return bool(m & _stat.S_ISGID)
    if op == "u":
        return bool(m & _stat.S_ISUID)
    if op == "k":
        return bool(m & _stat.S_ISVTX)
    if op == "r":
        return fs.access(arg, os.R_OK)
    if op == "w":
        return fs.access(arg, os.W_OK)
    if op == "x":
        return fs.access(arg, os.X_OK)
    if op in ("O", "G"):
        return True  # everything in the sandbox belongs to the sandbox user
    if op == "N":
        return st.st_mtime_ns > st.st_atime_ns
    return False


def file_compare(interp, op: str, a: str, b: str) -> bool:
    fs = interp.fs
    try:
        sa = fs.stat(a) if a else None  # stat("") fails: no such file
    except (FileSystemError, OSError):
        sa = None
    try:
        sb = fs.stat(b) if b else None
    except (FileSystemError, OSError):
        sb = None
    # (a pipe's synthetic stat, /dev/fd/N of <(cmd), has no time: it counts as 0)
    if op == "-nt":
        return sa is not None and (sb is None or (sa.st_mtime_ns or 0) > (sb.st_mtime_ns or 0))
    if op == "-ot":
        return sb is not None and (sa is None or (sa.st_mtime_ns or 0) < (sb.st_mtime_ns or 0))
    if op == "-ef":
        return sa is not None and sb is not None and (sa.st_dev, sa.st_ino) == (sb.st_dev, sb.st_ino)
    return False


async def flush_deferred_diags(interp) -> None:
    while interp.deferred_diags:
        await interp.diag(interp.deferred_diags.pop(0))


def var_is_set(interp, name: str) -> bool:
    """``-v name``. A negative index before the first element is false, and bash says
    it is a bad subscript: the message waits in ``interp.deferred_diags`` (this runs
    where no await is possible) for flush_deferred_diags."""
    if "[" in name and name.endswith("]"):
        base, _, sub = name[:-1].partition("[")
        v = interp.vars.lookup(base)
        if v is None or v.value is None:
            return False
        if sub in ("@", "*"):
            return bool(v.value) if isinstance(v.value, dict) else True
        if isinstance(v.value, dict):
            key = interp.expand_subscript_sync(base, sub)
            if type(key) is int and key < 0 and not v.attrs & ASSOC:
                interp.deferred_diags.append(f"{base}: bad array subscript")
                return False
            return key in v.value
        return sub in ("0",)
    v = interp.vars.lookup(name)
    if v is not None and v.attrs & NAMEREF and v.value:  # what the reference names
        target = interp._resolve_nameref(name)  # (bash does not look into an element)
        return bool(target) and "[" not in target and var_is_set(interp, target)
    if v is None:
        if name.isdigit():
            return int(name) <= len(interp.positional_list()) if name != "0" else True
        return interp.dynamic_var(name) is not None
    if isinstance(v.value, dict):
        return (0 if not v.is_assoc else "0") in v.value
    return v.value is not None


INT_OPS = {"-eq", "-ne", "-lt", "-le", "-gt", "-ge"}


def int_compare(op: str, a: int, b: int) -> bool:
    return {"-eq": a == b, "-ne": a != b, "-lt": a < b, "-le": a <= b, "-gt": a > b,
            "-ge": a >= b}[op]


async def eval_cond(interp, node, invert: bool = False) -> bool:
    """``invert``: the term is under a ``!`` (set -x shows it)."""
    t = type(node)
    if t is A.CondAnd:
        return await eval_cond(interp, node.left) and await eval_cond(interp, node.right)
    if t is A.CondOr:
        return await eval_cond(interp, node.left) or await eval_cond(interp, node.right)
    if t is A.CondNot:
        return not await eval_cond(interp, node.operand, True)
    trace = "xtrace" in interp.opts
    if t is A.CondWord:
        arg = await interp.expand_word(node.word)
        if trace:
            await _trace_term(interp, invert, "-n", arg)
        return arg != ""
    if t is A.CondUnary:
        op = node.op.lstrip("-")
        arg = await interp.expand_word(node.arg)
        if trace:
            await _trace_term(interp, invert, node.op, arg)
        if op == "z":
            return arg == ""
        if op == "n":
            return arg != ""
        if op == "v":
            found = var_is_set(interp, arg)
            await flush_deferred_diags(interp)
            return found
        if op == "R":
            v = interp.vars.lookup(arg)
            from pysh.interpreter.state import NAMEREF

            return v is not None and bool(v.attrs & NAMEREF)
        if op == "o":
            return arg in interp.opts
        return file_test(interp, op, arg)
    if t is A.CondBinary:
        op = node.op
        left = await interp.expand_word(node.left)
        if op in ("==", "=", "!=", "=~"):
            parts = node.right.parts
            if not trace and op != "=~" and len(parts) == 1 and type(parts[0]) is A.Lit:
                m = pat.match(parts[0].text, left, nocase="nocasematch" in interp.shopts,
                              budget=interp.budget)
                return m if op != "!=" else not m
            segs = await interp.expand_parts(parts, False, assign=True)
            if trace:  # bash shows the quoted characters of a pattern backslashed
                esc = _ere_escape if op == "=~" else (lambda x: "".join("\\" + c for c in x))
                shown = "".join(" " if sg is BREAK else esc(sg[0]) if sg[1] == QUOTED else sg[0]
                                for sg in segs)
                await _trace_term(interp, invert, op, left, shown)
            if op == "=~":
                return await _regex_match(interp, left, segs)
            p = "".join(" " if sg is BREAK else pat.escape(sg[0]) if sg[1] == QUOTED else sg[0]
                        for sg in segs)
            m = pat.match(p, left, nocase="nocasematch" in interp.shopts, budget=interp.budget)
            return m if op != "!=" else not m
        right = await interp.expand_word(node.right)
        if trace:
            await _trace_term(interp, invert, op, left, right)
        if op in ("<", ">"):  # [[ ]] compares by the locale's collation (test and [ do not)
            from pysh.interpreter.collate import collation_locale, less

            loc = collation_locale(interp.get_scalar)
            return less(left, right, loc) if op == "<" else less(right, left, loc)
        if op in INT_OPS:
            try:
                a = interp.arith.evaluate_text(left) if left.strip() else 0
                b = interp.arith.evaluate_text(right) if right.strip() else 0
            except (ArithError, ArithRuntimeError) as e:
                await interp.diag(f"[[: {e}")  # (bash: said, and the term is false)
                return False
            return int_compare(op, a, b)
        if op in ("-nt", "-ot", "-ef"):
            return file_compare(interp, op, left, right)
        raise ShellError(f"unexpected conditional binary operator `{op}'", status=2)
    raise ShellError("conditional expression: unsupported node", status=2)


async def _trace_term(interp, invert: bool, op: str, arg1: str, arg2: str | None = None) -> None:
    """set -x: each [[ ]] test as it runs (bash's xtrace_print_cond_term)."""
    parts = ["[["] + (["!"] if invert else [])
    if arg2 is None:
        parts += [op, arg1 or "''"]
    else:
        parts += [arg1 or "''", op, arg2 or "''"]
    await interp.err(await interp.ps4() + " ".join(parts) + " ]]\n")


async def _regex_match(interp, subject: str, segs: list) -> bool:
    src = []
    for s in segs:
        if s is BREAK:
            continue
        text, kind = s
        src.append(_ere_escape(text) if kind == QUOTED else text)
    regex_src = "".join(src)
    from pysh.shellkit.regex import RegexError

    try:
        rx = compile_ere(regex_src, "nocasematch" in interp.shopts, interp.budget)
    except RegexError:
        raise InvalidRegex() from None
    m = rx.search(subject)
    if m is None:
        interp.vars.globals.pop("BASH_REMATCH", None)
        from pysh.interpreter.state import Var

        interp.vars.globals["BASH_REMATCH"] = Var({})
        return False
    from pysh.interpreter.state import Var

    groups = {0: m.group(0)}
    for i, g in enumerate(m.groups(), 1):
        groups[i] = g if g is not None else ""
    interp.vars.globals["BASH_REMATCH"] = Var(groups)
    return True


class InvalidRegex(Exception):
    """bash: an =~ pattern that does not compile makes [[ ]] return 2, silently."""


def _ere_escape(text: str) -> str:
    """Quoted text inside an =~ pattern: every ERE special character made literal."""
    return "".join("\\" + c if c in ".[]()*+?{}|^$\\" else c for c in text)


def compile_ere(src: str, icase: bool, budget):
    """``[[ =~ ]]``: POSIX ERE through the one regex layer (glibc's dialect, as bash)."""
    from pysh.shellkit.regex import compile_posix

    return compile_posix(src, extended=True, icase=icase, bytes_mode=False, budget=budget)
