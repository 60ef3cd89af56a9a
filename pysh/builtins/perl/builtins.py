"""Perl's built-in functions for the subset: print, split, sort/map/grep, string and list
functions, file handles over the sandbox's FileSystem door, List::Util and POSIX bits."""

from __future__ import annotations

import fnmatch
import functools
import math
import os
import re
import stat as _stat
import time

from pysh.builtins.perl.compiler import LIST, SCALAR, Frame, _quotemeta, compile_regex
from pysh.builtins.perl.parser import Unsupported
from pysh.builtins.perl.values import (
    ArrayRef,
    CodeRef,
    FileHandle,
    HashRef,
    PerlDie,
    PerlExit,
    Ref,
    Regexp,
    ScalarRef,
    SprintfError,
    lc,
    norm_int,
    sprintf,
    to_bool,
    to_int,
    to_num,
    to_str,
    uc,
)

LIST_UTIL = {"sum", "sum0", "max", "min", "maxstr", "minstr", "first", "any", "all", "none",
             "uniq", "uniqnum", "shuffle", "reduce", "pairs", "product"}


def _args(c, node) -> list:
    return c.flat_args(node[2])


def _default(c, arg_nodes: list, i: int = 0):
    """The i-th argument's scalar function, or $_ when absent."""
    if len(arg_nodes) > i:
        return c.scalar(arg_nodes[i])
    rt = c.rt
    return lambda f: rt.scalars.get("_")


def compile_func(c, node, want):
    name = node[1]
    if name == "eof" and node[2] == [("list", [])]:  # eof(): the end of the last file
        rt = c.rt
        return _scalar_result(want, lambda f: 1 if rt.argv.eof_all() else "")
    args = _args(c, node)
    fn = _FUNCS.get(name)
    if fn is not None:
        return fn(c, args, want)
    if name in LIST_UTIL:
        return list_util(c, name, node[2], want)
    if name in ("floor", "ceil"):
        return posix(c, name, node[2], want)
    if name in ("system", "exec", "fork", "kill", "qx", "syscall", "pipe"):
        raise Unsupported(f"{name} (running programs)")
    raise Unsupported(f"the function {name}")


def _scalar_result(want, fn):
    if want == LIST:
        return lambda f: [fn(f)]
    return fn


# ---------------------------------------------------------------- strings
def f_length(c, args, want):
    a = _default(c, args)

    def length(f):
        v = a(f)
        return None if v is None else len(to_str(v))
    return _scalar_result(want, length)


def _str1(op):
    def maker(c, args, want):
        a = _default(c, args)
        return _scalar_result(want, lambda f: op(to_str(a(f))))
    return maker


def f_substr(c, args, want):
    if len(args) == 4:
        g, p = c.substr_lvalue(("func", "substr", [("list", args[:3])]))
        repl = c.scalar(args[3])

        def substr4(f):
            old = g(f)
            p(f, repl(f))
            return old
        return _scalar_result(want, substr4)
    if len(args) < 2:
        raise Unsupported("substr with fewer than 2 arguments")
    s = c.scalar(args[0])
    off = c.scalar(args[1])
    ln = c.scalar(args[2]) if len(args) > 2 else None

    def substr(f):
        st = to_str(s(f))
        o = to_int(off(f))
        n = len(st)
        if o < 0:
            o += n
            if o < 0:
                return None
        if o > n:
            return None
        if ln is None:
            return st[o:]
        k = to_int(ln(f))
        e = o + k if k >= 0 else n + k
        return st[o:max(o, e)]
    return _scalar_result(want, substr)


def f_index(c, args, want, rev=False):
    s = c.scalar(args[0])
    t = c.scalar(args[1])
    p = c.scalar(args[2]) if len(args) > 2 else None

    def index(f):
        st, sub = to_str(s(f)), to_str(t(f))
        if rev:
            pos = len(st) if p is None else to_int(p(f))
            pos = max(0, min(pos, len(st)))
            return st.rfind(sub, 0, pos + len(sub))
        pos = 0 if p is None else to_int(p(f))
        pos = max(0, pos)
        if pos > len(st):
            return -1 if sub else len(st)
        return st.find(sub, pos)
    return _scalar_result(want, index)


def f_rindex(c, args, want):
    return f_index(c, args, want, rev=True)


def f_sprintf(c, args, want):
    lst = c.listv(("list", args))

    def spf(f):
        items = lst(f)
        if not items:
            return ""
        try:
            return sprintf(to_str(items[0]), items[1:])
        except SprintfError as e:
            raise Unsupported(f"the sprintf conversion %{e}") from None
    return _scalar_result(want, spf)


def f_join(c, args, want):
    if not args:
        raise PerlDie("Not enough arguments for join")
    sep = c.scalar(args[0])
    lst = c.listv(("list", args[1:]))
    return _scalar_result(want, lambda f: to_str(sep(f)).join(to_str(x) for x in lst(f)))


def f_reverse(c, args, want):
    lst = c.listv(("list", args)) if args else None
    rt = c.rt
    if want == LIST:
        return lambda f: list(reversed(lst(f))) if lst else []

    def rev(f):
        if lst is None:
            return to_str(rt.scalars.get("_"))[::-1]
        return "".join(to_str(x) for x in lst(f))[::-1]
    return rev


def f_lc(c, args, want):
    return _str1(lc)(c, args, want)


def f_uc(c, args, want):
    return _str1(uc)(c, args, want)


def f_lcfirst(c, args, want):
    return _str1(lambda s: lc(s[:1]) + s[1:])(c, args, want)


def f_ucfirst(c, args, want):
    return _str1(lambda s: uc(s[:1]) + s[1:])(c, args, want)


def f_quotemeta(c, args, want):
    return _str1(_quotemeta)(c, args, want)


def f_chr(c, args, want):
    a = _default(c, args)
    return _scalar_result(want, lambda f: chr(max(0, to_int(a(f))) % 0x110000))


def f_ord(c, args, want):
    a = _default(c, args)

    def ordf(f):
        s = to_str(a(f))
        return ord(s[0]) if s else 0
    return _scalar_result(want, ordf)


def _chomp_like(c, args, want, chop: bool):
    rt = c.rt
    if not args:
        targets = [("scalar", "_")]
    elif len(args) == 1 and args[0][0] in ("paren", "list") or args[0][0] in (
            "array", "my", "assign", "hash", "deref_array"):
        targets = [args[0]]
    else:
        targets = args
    setters = []
    for t in targets:
        inner = t[1] if t[0] == "paren" else t
        if inner[0] in ("array", "deref_array") or (inner[0] == "my" and
                                                    inner[1][0][0] == "@"):
            if inner[0] == "my":
                c.scalar(inner)
                arr = c.array_container(("array", inner[1][0][1]))
            else:
                arr = c.array_container(inner)
            setters.append(("@", arr))
        elif inner[0] == "assign" and (inner[2][0] in ("array",) or (
                inner[2][0] == "my" and (inner[2][2] or inner[2][1][0][0] == "@"))):
            asg = c.listv(inner)
            tgt = inner[2]
            if tgt[0] == "my" and tgt[2]:
                names = tgt[1]
                getters = [c.lvalue(("scalar", n)) if s == "$" else
                           ("@", c.array_container(("array", n))) for s, n in names]
                setters.append(("assign_list", (asg, getters)))
                continue
            name = tgt[1] if tgt[0] == "array" else tgt[1][0][1]
            setters.append(("assign_arr", (asg, c.array_container(("array", name)))))
        elif inner[0] == "list":
            for it in inner[1]:
                setters.append(("$", c.lvalue(it)))
        else:
            setters.append(("$", c.lvalue(inner)))

    def one(v):
        if v is None:
            return v, 0
        s = to_str(v)
        if chop:
            return s[:-1], 1 if s else 0
        sep = rt.scalars.get("/")
        if sep is None:
            return s, 0
        sep = to_str(sep)
        if sep == "":
            n = len(s) - len(s.rstrip("\n"))
            return s.rstrip("\n"), n
        if s.endswith(sep):
            return s[:-len(sep)], len(sep)
        return s, 0

    def chomp(f):
        total = 0
        for kind, t in setters:
            if kind == "$":
                g, p = t
                v = g(f)
                nv, n = one(v)
                if n:
                    p(f, nv)
                total += n
            elif kind == "@":
                a = t(f)
                for i, v in enumerate(a):
                    a[i], n = one(v)
                    total += n
            elif kind == "assign_arr":
                asg, arr = t
                asg(f)
                a = arr(f)
                for i, v in enumerate(a):
                    a[i], n = one(v)
                    total += n
            else:
                asg, getters = t
                asg(f)
                for gp in getters:
                    if gp[0] == "@":
                        a = gp[1](f)
                        for i, v in enumerate(a):
                            a[i], n = one(v)
                            total += n
                    else:
                        g, p = gp
                        nv, n = one(g(f))
                        if n:
                            p(f, nv)
                        total += n
        return total
    return _scalar_result(want, chomp)


def f_chomp(c, args, want):
    return _chomp_like(c, args, want, False)


def f_chop(c, args, want):
    return _chomp_like(c, args, want, True)


# ---------------------------------------------------------------- numbers
def _num1(op):
    def maker(c, args, want):
        a = _default(c, args)

        def f1(f):
            try:
                return op(to_num(a(f)))
            except (ValueError, OverflowError):
                raise PerlDie("Can't take log of 0") from None
        return _scalar_result(want, f1)
    return maker


def _int(v):
    if isinstance(v, float):
        if v != v or v in (math.inf, -math.inf):
            return v
        return int(v)
    return v


def _log(v):
    if v <= 0:
        raise PerlDie(f"Can't take log of {to_str(v)}")
    return math.log(v)


def _sqrt(v):
    if v < 0:
        raise PerlDie(f"Can't take sqrt of {to_str(v)}")
    r = math.sqrt(v)
    return r


def f_hex(c, args, want):
    a = _default(c, args)

    def hx(f):
        s = to_str(a(f)).strip().replace("_", "")
        if s.lower().startswith("0x"):
            s = s[2:]
        n = 0
        for ch in s:
            if ch not in "0123456789abcdefABCDEF":
                break
            n = n * 16 + int(ch, 16)
        return n
    return _scalar_result(want, hx)


def f_oct(c, args, want):
    a = _default(c, args)

    def oc(f):
        s = to_str(a(f)).strip().replace("_", "")
        low = s.lower()
        base, digits = 8, "01234567"
        if low.startswith("0x") or low.startswith("x"):
            base, digits, s = 16, "0123456789abcdefABCDEF", s[low.index("x") + 1:]
        elif low.startswith("0b") or low.startswith("b"):
            base, digits, s = 2, "01", s[low.index("b") + 1:]
        elif low.startswith("0o"):
            s = s[2:]
        n = 0
        for ch in s:
            if ch not in digits:
                break
            n = n * base + int(ch, 16)
        return n
    return _scalar_result(want, oc)


def f_rand(c, args, want):
    rt = c.rt
    a = c.scalar(args[0]) if args else None

    def rnd(f):
        m = to_num(a(f)) if a else 1
        return rt.rng.random() * (m or 1)
    return _scalar_result(want, rnd)


def f_srand(c, args, want):
    rt = c.rt
    a = c.scalar(args[0]) if args else None

    def srnd(f):
        seed = to_int(a(f)) if a else int(time.time())
        rt.rng.seed(seed)
        return seed
    return _scalar_result(want, srnd)


def f_atan2(c, args, want):
    a, b = c.scalar(args[0]), c.scalar(args[1])
    return _scalar_result(want, lambda f: math.atan2(to_num(a(f)), to_num(b(f))))


def f_time(c, args, want):
    return _scalar_result(want, lambda f: int(time.time()))


def f_localtime(c, args, want, gmt=False):
    a = c.scalar(args[0]) if args else None
    rt = c.rt

    def lt(f):
        t = to_num(a(f)) if a else time.time()
        import datetime

        from pysh.builtins._fileutil import tzinfo
        tz = datetime.UTC if gmt else tzinfo(rt.shell)
        d = datetime.datetime.fromtimestamp(int(t), tz)
        if want == LIST:
            return [d.second, d.minute, d.hour, d.day, d.month - 1, d.year - 1900,
                    (d.weekday() + 1) % 7, d.timetuple().tm_yday - 1,
                    1 if d.dst() else 0]
        return d.strftime("%a %b ") + f"{d.day:2d}" + d.strftime(" %H:%M:%S %Y")
    return lt


def f_gmtime(c, args, want):
    return f_localtime(c, args, want, gmt=True)


# ---------------------------------------------------------------- scalars and containers
def f_defined(c, args, want):
    rt = c.rt
    if not args:
        return _scalar_result(want, lambda f: 1 if rt.scalars.get("_") is not None else "")
    a = args[0]
    if a[0] in ("array", "deref_array"):
        arr = c.array_container(a)
        return _scalar_result(want, lambda f: 1 if arr(f) else "")
    if a[0] == "amp_call" and a[2] is None:
        name = a[1][1]
        return _scalar_result(want, lambda f: 1 if (rt.subs.get(name) and
                                                     rt.subs[name].fn) else "")
    v = c.scalar(a)
    return _scalar_result(want, lambda f: 1 if v(f) is not None else "")


def f_undef(c, args, want):
    if not args:
        return _scalar_result(want, lambda f: None)
    a = args[0]
    if a[0] in ("array", "deref_array"):
        arr = c.array_container(a)
        return _scalar_result(want, lambda f: (arr(f).clear(), None)[1])
    if a[0] in ("hash", "deref_hash"):
        h = c.hash_container(a)
        return _scalar_result(want, lambda f: (h(f).clear(), None)[1])
    g, p = c.lvalue(a)
    return _scalar_result(want, lambda f: (p(f, None), None)[1])


def f_ref(c, args, want):
    a = _default(c, args)

    def ref(f):
        v = a(f)
        if isinstance(v, Ref):
            return v.kind
        return ""
    return _scalar_result(want, ref)


def f_scalar(c, args, want):
    a = c.scalar(args[0])
    return _scalar_result(want, a)


def _container_of(c, node):
    """(kind, container getter, key getter) for exists/delete."""
    if node[0] == "helem":
        return "h", c.hash_container(node[1]), c.hash_key(node[2])
    if node[0] == "aelem":
        return "a", c.array_container(node[1]), c.scalar(node[2])
    if node[0] == "hslice":
        return "hs", c.hash_container(node[1]), c.listv(node[2])
    if node[0] == "amp_call":
        return "sub", node[1][1], None
    raise Unsupported("exists/delete on this expression")


def f_exists(c, args, want):
    kind, cont, key = _container_of(c, args[0])
    rt = c.rt
    if kind == "sub":
        return _scalar_result(want, lambda f: 1 if cont in rt.subs else "")
    if kind == "h":
        return _scalar_result(want, lambda f: 1 if key(f) in cont(f) else "")

    def ex(f):
        a = cont(f)
        i = to_int(key(f))
        return 1 if -len(a) <= i < len(a) else ""
    return _scalar_result(want, ex)


def f_delete(c, args, want):
    kind, cont, key = _container_of(c, args[0])
    if kind == "h":
        return _scalar_result(want, lambda f: cont(f).pop(key(f), None))
    if kind == "hs":
        def dels(f):
            h = cont(f)
            out = [h.pop(to_str(k), None) for k in key(f)]
            return out if want == LIST else (out[-1] if out else None)
        return dels

    def dela(f):
        a = cont(f)
        i = to_int(key(f))
        if -len(a) <= i < len(a):
            v = a[i]
            if i == len(a) - 1 or i == -1:
                a.pop()
            else:
                a[i] = None
            return v
        return None
    return _scalar_result(want, dela)


def f_keys(c, args, want):
    node = args[0]
    if node[0] in ("array", "deref_array"):
        arr = c.array_container(node)
        if want == LIST:
            return lambda f: list(range(len(arr(f))))
        return lambda f: len(arr(f))
    h = c.hash_container(node)
    if want == LIST:
        return lambda f: list(h(f).keys())
    return lambda f: len(h(f))


def f_values(c, args, want):
    node = args[0]
    if node[0] in ("array", "deref_array"):
        arr = c.array_container(node)
        if want == LIST:
            return lambda f: list(arr(f))
        return lambda f: len(arr(f))
    h = c.hash_container(node)
    if want == LIST:
        return lambda f: list(h(f).values())
    return lambda f: len(h(f))


def f_each(c, args, want):
    h = c.hash_container(args[0])
    iters: dict = {}

    def each(f):
        d = h(f)
        it = iters.get(id(d))
        if it is None:
            it = iters[id(d)] = iter(list(d.items()))
        try:
            k, v = next(it)
            return [k, v] if want == LIST else k
        except StopIteration:
            iters.pop(id(d), None)
            return [] if want == LIST else None
    return each


def _array_arg(c, args, func):
    rt = c.rt
    if not args:
        if c.scope.parent is not None:
            return lambda f: f.args
        return lambda f: rt.arrays.setdefault("ARGV", [])
    return c.array_container(args[0])


def f_push(c, args, want, front=False):
    arr = c.array_container(args[0])
    vals = c.listv(("list", args[1:]))
    rt = c.rt

    def push(f):
        a = arr(f)
        v = vals(f)
        if front:
            a[0:0] = v
        else:
            a.extend(v)
        if len(a) > 50_000_000:
            rt.budget.check_array(len(a))
        return len(a)
    return _scalar_result(want, push)


def f_unshift(c, args, want):
    return f_push(c, args, want, front=True)


def f_pop(c, args, want):
    arr = _array_arg(c, args, "pop")
    return _scalar_result(want, lambda f: arr(f).pop() if arr(f) else None)


def f_shift(c, args, want):
    arr = _array_arg(c, args, "shift")
    return _scalar_result(want, lambda f: arr(f).pop(0) if arr(f) else None)


def f_splice(c, args, want):
    arr = c.array_container(args[0])
    off = c.scalar(args[1]) if len(args) > 1 else None
    ln = c.scalar(args[2]) if len(args) > 2 else None
    repl = c.listv(("list", args[3:])) if len(args) > 3 else None

    def splice(f):
        a = arr(f)
        o = to_int(off(f)) if off else 0
        if o < 0:
            o += len(a)
        n = to_int(ln(f)) if ln else len(a) - o
        if n < 0:
            n = max(0, len(a) - o + n)
        removed = a[o:o + n]
        a[o:o + n] = repl(f) if repl else []
        if want == LIST:
            return removed
        return removed[-1] if removed else None
    return splice


def f_wantarray(c, args, want):
    return _scalar_result(want, lambda f: 1 if f.want == LIST else 0)


# ---------------------------------------------------------------- control
def f_die(c, args, want):
    lst = c.listv(("list", args))
    rt = c.rt

    def die(f):
        items = lst(f)
        if len(items) == 1 and isinstance(items[0], Ref):
            raise PerlDie(items[0])
        msg = "".join(to_str(x) for x in items) or "Died"
        if not msg.endswith("\n"):
            msg += f" at -e line 1{_input_line(rt)}.\n"
        raise PerlDie(msg)
    return die


def f_warn(c, args, want):
    lst = c.listv(("list", args))
    rt = c.rt

    def warn(f):
        msg = "".join(to_str(x) for x in lst(f)) or "Warning: something's wrong"
        if not msg.endswith("\n"):
            msg += f" at -e line 1{_input_line(rt)}.\n"
        rt.write(rt.stderr, msg)
        return 1
    return _scalar_result(want, warn)


def _input_line(rt) -> str:
    if rt.lineno:
        name = "<>" if rt.argv is not None and rt.argv.last_was_argv else "<STDIN>"
        return f", {name} line {rt.lineno}"
    return ""


def f_exit(c, args, want):
    a = c.scalar(args[0]) if args else None

    def ex(f):
        raise PerlExit(to_int(a(f)) if a else 0)
    return ex


def f_sleep(c, args, want):
    raise Unsupported("sleep")


# ---------------------------------------------------------------- files
def _fh_target(c, node):
    """A filehandle expression: a bareword, a scalar holding one, or my $fh."""
    rt = c.rt
    if node[0] == "bareword":
        name = node[1]
        return (lambda f: rt.filehandles.get(name)), \
            (lambda f, v: rt.filehandles.__setitem__(name, v))
    return c.lvalue(node)


def f_open(c, args, want):
    if len(args) < 2:
        raise Unsupported("open with one argument")
    get, put = _fh_target(c, args[0])
    rt = c.rt
    if len(args) == 2:
        spec = c.scalar(args[1])
        mode_fn = None
        path_fn = None
    else:
        mode_fn = c.scalar(args[1])
        path_fn = c.scalar(args[2])
        if len(args) > 3:
            raise Unsupported("open with a command list")

    def op(f):
        if mode_fn is None:
            s = to_str(spec(f)).strip()
            if s.startswith(">>"):
                mode, path = ">>", s[2:].strip()
            elif s.startswith(">"):
                mode, path = ">", s[1:].strip()
            elif s.startswith("<"):
                mode, path = "<", s[1:].strip()
            elif s.endswith("|") or s.startswith("|"):
                raise Unsupported("open on a pipe (running programs)")
            else:
                mode, path = "<", s
        else:
            mode = to_str(mode_fn(f)).strip()
            path = path_fn(f)
            if isinstance(path, ScalarRef):
                raise Unsupported("open on an in-memory scalar")
            path = to_str(path)
            if ":" in mode:
                mode = mode.split(":")[0].strip()
            if mode in ("-|", "|-"):
                raise Unsupported("open on a pipe (running programs)")
            if mode not in ("<", ">", ">>", "+<"):
                raise PerlDie(f"Unknown open() mode '{mode}'")
        fh = FileHandle(path, mode, path)
        try:
            if mode in ("<", "+<"):
                if path == "-":
                    fh = rt.stdin
                else:
                    data = rt.fs.read_bytes(path) if not rt.shell.stream_data(path) else \
                        rt.shell.stream_data(path)
                    rt.budget.check_string(len(data))
                    fh.data = data.decode("latin-1")
            else:
                if path == "-":
                    fh = rt.stdout
                else:
                    if mode == ">":
                        rt.fs.write_bytes(path, b"")
                    else:
                        rt.fs.append_bytes(path, b"")
        except OSError as e:
            rt.errno = e.errno or 5
            put(f, None)
            return ""
        put(f, fh)
        if fh is not rt.stdin and fh is not rt.stdout:
            rt.open_files.append(fh)
        return 1
    return _scalar_result(want, op)


def f_close(c, args, want):
    rt = c.rt
    if not args:
        raise Unsupported("close without a handle")
    if args[0][0] == "bareword" and args[0][1] == "ARGV":
        def close_argv(f):
            rt.lineno = 0
            if rt.argv is not None:
                rt.argv.close_current()
            return 1
        return _scalar_result(want, close_argv)
    get, _ = _fh_target(c, args[0])

    def close(f):
        fh = get(f)
        if isinstance(fh, FileHandle):
            flush_fh(rt, fh)
            fh.closed = True
            return 1
        return ""
    return _scalar_result(want, close)


def flush_fh(rt, fh: FileHandle) -> None:
    if fh.out and fh.path is not None and fh.mode in (">", ">>"):
        data = "".join(fh.out).encode("latin-1", "replace")
        fh.out.clear()
        rt.fs.append_bytes(fh.path, data)
        rt.budget.count_written(len(data))


def f_binmode(c, args, want):
    return _scalar_result(want, lambda f: 1)


def f_eof(c, args, want):
    rt = c.rt
    if not args:
        return _scalar_result(want, lambda f: 1 if rt.argv.eof_current() else "")
    node = args[0]
    if node[0] == "bareword" and node[1] in ("ARGV",):
        return _scalar_result(want, lambda f: 1 if rt.argv.eof_current() else "")
    if node[0] == "bareword" and node[1] == "STDIN":
        return _scalar_result(want, lambda f: 1 if rt.stdin_eof() else "")
    get, _ = _fh_target(c, node)

    def eof(f):
        fh = get(f)
        if fh is rt.stdin:
            return 1 if rt.stdin_eof() else ""
        if isinstance(fh, FileHandle):
            return 1 if fh.pos >= len(fh.data) else ""
        return 1
    return _scalar_result(want, eof)


def _vpath(s: str) -> str:
    """A perl string (bytes as latin-1 characters) as the shell's path."""
    return s.encode("latin-1", "replace").decode("utf-8", "surrogateescape")


def _pstr(name: str) -> str:
    """A file name from the shell as a perl string."""
    return name.encode("utf-8", "surrogateescape").decode("latin-1")


def f_pos(c, args, want):
    """The end of the last m//g when it matched this value (per match, not per variable)."""
    a = _default(c, args)
    rt = c.rt

    def pos(f):
        g = rt.gpos
        return g[1] if g is not None and g[0] == to_str(a(f)) else None
    return _scalar_result(want, pos)


def f_stat(c, args, want, follow: bool = True):
    rt = c.rt
    a = _default(c, args)

    def st(f):
        v = a(f)
        path = v.path if isinstance(v, FileHandle) else _vpath(to_str(v))
        try:
            s = rt.fs.stat(path) if follow else rt.fs.lstat(path)
        except (OSError, TypeError) as e:
            rt.errno = getattr(e, "errno", None) or 2
            return [] if want == LIST else ""
        if want != LIST:
            return 1
        return [s.st_dev, s.st_ino, s.st_mode, s.st_nlink, s.st_uid, s.st_gid, s.st_rdev,
                s.st_size, int(s.st_atime), int(s.st_mtime), int(s.st_ctime),
                getattr(s, "st_blksize", 4096), getattr(s, "st_blocks", 0)]
    return st


def f_lstat(c, args, want):
    return f_stat(c, args, want, follow=False)


class DirHandle(FileHandle):
    """opendir's handle: the names left to read."""

    __slots__ = ("names",)


def f_opendir(c, args, want):
    if len(args) != 2:
        raise Unsupported("opendir without a handle and a directory")
    _, put = _fh_target(c, args[0])
    path = c.scalar(args[1])
    rt = c.rt

    def opendir(f):
        try:
            names = rt.fs.listdir(_vpath(to_str(path(f))))
        except OSError as e:
            rt.errno = e.errno or 5
            return 0
        dh = DirHandle("DIR", "dir")
        dh.names = [".", ".."] + [_pstr(n) for n in names]
        put(f, dh)
        return 1
    return _scalar_result(want, opendir)


def f_readdir(c, args, want):
    get, _ = _fh_target(c, args[0])

    def readdir(f):
        dh = get(f)
        if not isinstance(dh, DirHandle):
            return [] if want == LIST else None
        if want == LIST:
            out, dh.names = dh.names, []
            return out
        return dh.names.pop(0) if dh.names else None
    return readdir


def f_closedir(c, args, want):
    get, _ = _fh_target(c, args[0])

    def closedir(f):
        dh = get(f)
        if isinstance(dh, DirHandle):
            dh.names = []
            return 1
        return ""
    return _scalar_result(want, closedir)


def f_glob(c, args, want):
    """File::Glob's csh-style glob: words split on blanks, {a,b}, ~, * ? [...] per path
    component (a leading dot matched only by a dot), names sorted ignoring case; a word
    without wildcards is returned as it is."""
    a = _default(c, args)
    rt = c.rt

    def glob(f):
        out: list[str] = []
        for word in to_str(a(f)).split():
            for pat in _braces(word):
                if pat.startswith("~"):
                    home = to_str(rt.hashes["ENV"].get("HOME") or "")
                    pat = home + pat[1:] if pat == "~" or pat.startswith("~/") else pat
                if not any(ch in pat for ch in "*?["):
                    out.append(pat)
                    continue
                out.extend(sorted(_glob_walk(rt, pat), key=lambda n: (n.lower(), n)))
        if want == LIST:
            return out
        return out[0] if out else None
    return glob


def _braces(word: str) -> list[str]:
    i = word.find("{")
    if i < 0:
        return [word]
    depth, j, parts, start = 0, i, [], i + 1
    while j < len(word):
        ch = word[j]
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                parts.append(word[start:j])
                break
        elif ch == "," and depth == 1:
            parts.append(word[start:j])
            start = j + 1
        j += 1
    else:
        return [word]
    if len(parts) < 2:
        return [word[:j + 1] + x for x in _braces(word[j + 1:])]
    return [x for p in parts for x in _braces(word[:i] + p + word[j + 1:])]


def _glob_walk(rt, pat: str) -> list[str]:
    absolute = pat.startswith("/")
    found = ["/" if absolute else ""]
    for part in [p for p in pat.split("/") if p]:
        nxt = []
        for base in found:
            if not any(ch in part for ch in "*?["):
                cand = base + part
                if rt.fs.lexists(_vpath(cand)):
                    nxt.append(cand + "/")
                continue
            try:
                names = rt.fs.listdir(_vpath(base or "."))
            except OSError:
                continue
            m = re.compile(fnmatch.translate(part), re.S).match
            for n in names:
                n = _pstr(n)
                if n.startswith(".") and not part.startswith("."):
                    continue
                if m(n):
                    nxt.append(base + n + "/")
        found = nxt
        rt.check()
    return [p[:-1] for p in found]


def f_unlink(c, args, want):
    lst = c.listv(("list", args)) if args else (lambda f: [c.rt.scalars.get("_")])
    rt = c.rt

    def unlink(f):
        n = 0
        for p in lst(f):
            try:
                rt.fs.unlink(to_str(p))
                n += 1
            except OSError as e:
                rt.errno = e.errno or 5
        return n
    return _scalar_result(want, unlink)


def f_mkdir(c, args, want):
    a = _default(c, args)
    rt = c.rt

    def mk(f):
        try:
            rt.fs.mkdir(to_str(a(f)), 0o777)
            return 1
        except OSError as e:
            rt.errno = e.errno or 5
            return 0
    return _scalar_result(want, mk)


def f_rename(c, args, want):
    a, b = c.scalar(args[0]), c.scalar(args[1])
    rt = c.rt

    def rn(f):
        try:
            rt.fs.rename(to_str(a(f)), to_str(b(f)))
            return 1
        except OSError as e:
            rt.errno = e.errno or 5
            return 0
    return _scalar_result(want, rn)


def compile_filetest(c, node):
    op = node[1]
    a = c.scalar(node[2]) if node[2] is not None else (lambda f: c.rt.scalars.get("_"))
    rt = c.rt

    def ft(f):
        path = to_str(a(f))
        try:
            st = rt.fs.lstat(path) if op == "l" else rt.fs.stat(path)
        except OSError:
            return ""
        m = st.st_mode
        if op == "e":
            return 1
        if op == "f":
            return 1 if _stat.S_ISREG(m) else ""
        if op == "d":
            return 1 if _stat.S_ISDIR(m) else ""
        if op == "l":
            return 1 if _stat.S_ISLNK(m) else ""
        if op == "s":
            return st.st_size if st.st_size else ""
        if op == "z":
            return 1 if st.st_size == 0 else ""
        if op in "rwx":
            return 1 if rt.fs.access(path, {"r": os.R_OK, "w": os.W_OK, "x": os.X_OK}[op]) \
                else ""
        return ""
    return ft


# ---------------------------------------------------------------- print
def compile_print(c, node):
    _, kind, fh_node, args = node
    rt = c.rt
    if fh_node is None:
        get_fh = lambda f: rt.selected  # noqa: E731
    elif fh_node[0] == "bareword":
        name = fh_node[1]
        if name == "STDOUT":
            get_fh = lambda f: rt.stdout  # noqa: E731
        elif name == "STDERR":
            get_fh = lambda f: rt.stderr  # noqa: E731
        else:
            get_fh = lambda f: rt.filehandles.get(name)  # noqa: E731
    else:
        get_fh = c.scalar(fh_node)
    if kind == "printf":
        lst = c.listv(("list", args)) if args else (lambda f: [rt.scalars.get("_")])

        def printf(f):
            fh = get_fh(f)
            items = lst(f)
            if not items:
                return 1
            try:
                text = sprintf(to_str(items[0]), items[1:])
            except SprintfError as e:
                raise Unsupported(f"the printf conversion %{e}") from None
            _emit(rt, fh, text)
            return 1
        return printf
    say = kind == "say"
    if not args:
        def print_default(f):
            text = to_str(rt.scalars.get("_"))
            ors = rt.scalars.get("\\")
            if say:
                text += "\n"
            if ors is not None:
                text += to_str(ors)
            _emit(rt, get_fh(f), text)
            return 1
        return print_default
    items = c.flat_args(args)
    if len(items) == 1 and items[0][0] in ("scalar", "interp", "str"):
        one = c.scalar(items[0])

        def print1(f):
            v = one(f)
            text = v if type(v) is str else to_str(v)
            ors = rt.scalars.get("\\")
            if say:
                text += "\n"
            if ors is not None:
                text += to_str(ors)
            _emit(rt, get_fh(f), text)
            return 1
        return print1
    lst = c.listv(("list", items))

    def print_(f):
        vals = lst(f)
        sep = rt.scalars.get(",")
        text = (to_str(sep) if sep is not None else "").join(to_str(v) for v in vals)
        if say:
            text += "\n"
        ors = rt.scalars.get("\\")
        if ors is not None:
            text += to_str(ors)
        _emit(rt, get_fh(f), text)
        return 1
    return print_


def _emit(rt, fh, text: str) -> None:
    if fh is None:
        return
    if not isinstance(fh, FileHandle):
        raise PerlDie("print() on unopened filehandle")
    rt.write(fh, text)


# ---------------------------------------------------------------- split
def compile_split(c, node):
    args = node[1]
    rt = c.rt
    if not args:
        pat_node, str_fn, lim_fn = ("str", " "), (lambda f: rt.scalars.get("_")), None
    else:
        pat_node = args[0]
        str_fn = c.scalar(args[1]) if len(args) > 1 else (lambda f: rt.scalars.get("_"))
        lim_fn = c.scalar(args[2]) if len(args) > 2 else None
    awk = False
    if pat_node[0] == "str" and pat_node[1] == " ":
        awk = True
        rx_fn = None
    elif pat_node[0] == "match":
        if pat_node[1][0] == "str" and pat_node[1][1] == " ":
            rx_fn = c.pattern(("str", " "), pat_node[2])
        else:
            rx_fn = c.pattern(pat_node[1], pat_node[2])
        if pat_node[1][0] == "str" and pat_node[1][1] == "^":
            rx_fn = c.pattern(("str", "^"), pat_node[2] + "m")
    else:
        val = c.scalar(pat_node)

        def rx_fn(f):
            v = val(f)
            if isinstance(v, Regexp):
                return v.rx
            s = to_str(v)
            if s == " ":
                return None
            return compile_regex(rt, s, False, s == "^", False, False)

    def split(f):
        s = to_str(str_fn(f))
        limit = to_int(lim_fn(f)) if lim_fn else 0
        rx = rx_fn(f) if rx_fn is not None else None
        if awk or rx is None:
            s2 = s.lstrip(" \t\n\r\f\v")
            if limit > 0:
                parts = s2.split(None, limit - 1)
                if len(parts) == limit:
                    # the last field keeps its trailing text; split(None) stripped it
                    pass
            else:
                parts = s2.split()
            if limit > 0 and len(parts) == limit:
                k = 0
                pos = 0
                import re as _re
                for m in _re.finditer(r"\S+", s2):
                    k += 1
                    if k == limit:
                        pos = m.start()
                        break
                parts[-1] = s2[pos:]
            elif limit < 0 and s2 and s2[-1:].isspace():
                parts.append("")
            return parts
        if s == "":
            return []
        out = []
        pos = 0
        n = 0
        for m in rx.finditer(s):
            if limit > 0 and len(out) >= limit - 1:
                break
            if m.end() == 0 and m.start() == 0:
                continue  # a match at the very start that is empty is no split
            if m.start() == m.end() and m.start() >= len(s):
                break
            out.append(s[pos:m.start()])
            out.extend(m.groups())
            pos = m.end()
            n += 1
            rt.check()
        out.append(s[pos:])
        if pos == 0 and n == 0 and out == [s]:
            pass
        if limit == 0:
            while out and (out[-1] is None or out[-1] == ""):
                out.pop()
        if out and out[0] == "" and rx is not None and n and False:
            out.pop(0)
        return out
    return split


# ---------------------------------------------------------------- sort, map, grep
def compile_blockop(c, node, want):
    _, name, block, cmpfunc, lst_node = node
    rt = c.rt
    lst = c.listv(lst_node)
    if name == "sort":
        return _compile_sort(c, block, cmpfunc, lst, want)
    if name in ("first", "any", "all", "none"):
        return list_util(c, name, None, want, block=block, lst=lst)
    if name == "reduce":
        return list_util(c, name, None, want, block=block, lst=lst)
    if name == "sum":
        raise Unsupported("sum with a block")
    c.scope.blocks.append({})
    if block is not None and block and block[-1][0] == "expr":
        pre = c.block(block[:-1], new_scope=False)
        last = block[-1][1]
        body_list = c.listv(last) if name == "map" else None
        body_cond = c.cond(last) if name == "grep" else None
    else:
        pre = c.block(block or [], new_scope=False)
        body_list = (lambda f: [])
        body_cond = (lambda f: False)
    c.scope.blocks.pop()
    scalars = rt.scalars

    if name == "map":
        def mapf(f):
            items = lst(f)
            out = []
            saved = scalars.get("_")
            try:
                for v in items:
                    scalars["_"] = v
                    pre(f)
                    out.extend(body_list(f))
                    rt.check()
            finally:
                scalars["_"] = saved
            return out if want == LIST else len(out)
        return mapf

    def grepf(f):
        items = lst(f)
        out = []
        saved = scalars.get("_")
        try:
            for v in items:
                scalars["_"] = v
                pre(f)
                if body_cond(f):
                    out.append(scalars.get("_"))
                rt.check()
        finally:
            scalars["_"] = saved
        return out if want == LIST else len(out)
    return grepf


def _compile_sort(c, block, cmpfunc, lst, want):
    rt = c.rt
    scalars = rt.scalars
    if block is None and cmpfunc is None:
        def plain(f):
            items = lst(f)
            out = sorted(items, key=lambda v: to_str(v).encode("latin-1", "replace"))
            return out if want == LIST else len(out)
        return plain
    if block is not None:
        fast = _fast_sort_key(block)
        if fast is not None:
            kind, reverse = fast

            def fastsort(f):
                items = lst(f)
                if kind == "num":
                    out = sorted(items, key=lambda v: _numkey(to_num(v)), reverse=reverse)
                else:
                    out = sorted(items, key=lambda v: to_str(v), reverse=reverse)
                return out if want == LIST else len(out)
            return fastsort
        c.scope.blocks.append({})
        body = c.block(block, new_scope=False)
        if block and block[-1][0] == "expr":
            pre = c.block(block[:-1], new_scope=False)
            val = c.scalar(block[-1][1])
        else:
            pre = body
            val = (lambda f: 0)
        c.scope.blocks.pop()

        def cmp(f):
            def compare(x, y):
                scalars["a"], scalars["b"] = x, y
                pre(f)
                r = val(f)
                return to_int(r) if r is not None else 0
            return compare
    else:
        get_ref = (lambda f: rt.subs.get(cmpfunc[1])) if cmpfunc[0] == "funcname" else \
            c.scalar(cmpfunc)

        def cmp(f):
            ref = get_ref(f)

            def compare(x, y):
                scalars["a"], scalars["b"] = x, y
                r = ref.fn([], SCALAR)
                return to_int(r) if r is not None else 0
            return compare

    def sortf(f):
        items = lst(f)
        sa, sb = scalars.get("a"), scalars.get("b")
        try:
            out = sorted(items, key=functools.cmp_to_key(cmp(f)))
        finally:
            scalars["a"], scalars["b"] = sa, sb
        return out if want == LIST else len(out)
    return sortf


def _numkey(n):
    if n != n:
        return -math.inf
    return n


def _fast_sort_key(block):
    """{ $a <=> $b }, { $b <=> $a }, { $a cmp $b }, { $b cmp $a }: a key sort."""
    if len(block) != 1 or block[0][0] != "expr":
        return None
    e = block[0][1]
    if e[0] != "binop" or e[1] not in ("<=>", "cmp"):
        return None
    a, b = e[2], e[3]
    if a == ("scalar", "a") and b == ("scalar", "b"):
        return ("num" if e[1] == "<=>" else "str"), False
    if a == ("scalar", "b") and b == ("scalar", "a"):
        return ("num" if e[1] == "<=>" else "str"), True
    return None


# ---------------------------------------------------------------- List::Util, POSIX
def list_util(c, name, args, want, block=None, lst=None):
    rt = c.rt
    scalars = rt.scalars
    if lst is None:
        lst = c.listv(("list", args or []))
    if block is not None:
        c.scope.blocks.append({})
        if block and block[-1][0] == "expr":
            pre = c.block(block[:-1], new_scope=False)
            val = c.scalar(block[-1][1])
        else:
            pre = c.block(block, new_scope=False)
            val = (lambda f: None)
        c.scope.blocks.pop()

        def test(f, v):
            scalars["_"] = v
            pre(f)
            return to_bool(val(f))
        if name == "reduce":
            def reduce(f):
                items = lst(f)
                if not items:
                    return None
                sa, sb = scalars.get("a"), scalars.get("b")
                acc = items[0]
                for v in items[1:]:
                    scalars["a"], scalars["b"] = acc, v
                    pre(f)
                    acc = val(f)
                scalars["a"], scalars["b"] = sa, sb
                return acc
            return _scalar_result(want, reduce)

        def first(f):
            saved = scalars.get("_")
            try:
                items = lst(f)
                if name == "first":
                    for v in items:
                        if test(f, v):
                            return v
                    return None
                if name == "any":
                    return 1 if any(test(f, v) for v in items) else ""
                if name == "all":
                    return 1 if all(test(f, v) for v in items) else ""
                return 1 if not any(test(f, v) for v in items) else ""
            finally:
                scalars["_"] = saved
        return _scalar_result(want, first)

    def num(v):
        return to_num(v)

    def lu(f):
        items = lst(f)
        if name in ("sum", "sum0", "product"):
            if not items:
                return 0 if name != "sum" else None
            acc = 1 if name == "product" else 0
            for v in items:
                acc = norm_int(acc * num(v) if name == "product" else acc + num(v))
            return acc
        if name in ("max", "min"):
            if not items:
                return None
            vals = [num(v) for v in items]
            return max(vals) if name == "max" else min(vals)
        if name in ("maxstr", "minstr"):
            if not items:
                return None
            vals = [to_str(v) for v in items]
            return max(vals) if name == "maxstr" else min(vals)
        if name in ("uniq", "uniqnum"):
            seen = set()
            out = []
            for v in items:
                k = to_str(v) if name == "uniq" else to_num(v)
                if k not in seen:
                    seen.add(k)
                    out.append(v)
            return out if want == LIST else len(out)
        if name == "shuffle":
            out = list(items)
            rt.rng.shuffle(out)
            return out
        raise Unsupported(f"List::Util::{name}")
    if name in ("uniq", "uniqnum", "shuffle"):
        return lu if want == LIST else (lambda f: (lambda r: r if not isinstance(r, list)
                                                   else len(r))(lu(f)))
    return _scalar_result(want, lu)


def posix(c, name, args, want):
    lst = c.listv(("list", args or []))

    def px(f):
        items = lst(f)
        v = to_num(items[0]) if items else 0
        if name == "floor":
            r = math.floor(v)
        elif name == "ceil":
            r = math.ceil(v)
        elif name == "fmod":
            r = math.fmod(v, to_num(items[1]))
        elif name == "pow":
            r = math.pow(v, to_num(items[1]))
        elif name == "strftime":
            return _strftime(c.rt, items)
        else:
            raise Unsupported(f"POSIX::{name}")
        return r
    return _scalar_result(want, px)


def _strftime(rt, items: list) -> str:
    """POSIX::strftime(fmt, sec, min, hour, mday, mon, year, ...): out-of-range fields carry
    over (mday 0 is the month's last day before), as perl's mini_mktime does."""
    import datetime

    from pysh.builtins._fileutil import tzinfo
    fmt = to_str(items[0]) if items else ""
    sec, mi, hour, mday, mon, year = ([to_int(v) for v in items[1:7]] + [0] * 6)[:6]
    y, m = divmod(mon, 12)
    try:
        d = datetime.datetime(1900 + year + y, m + 1, 1, tzinfo=tzinfo(rt.shell)) + \
            datetime.timedelta(days=mday - 1, hours=hour, minutes=mi, seconds=sec)
        return d.strftime(fmt)
    except (ValueError, OverflowError):
        return ""


# ---------------------------------------------------------------- readline
def compile_readline(c, node, want):
    src = node[1]
    rt = c.rt
    kind = src[0]
    if kind == "argv":
        if want == LIST:
            return lambda f: rt.argv.read_all_lines()
        return lambda f: rt.argv.readline()
    if kind == "stdin" or (kind == "bareword" and src[1] == "STDIN"):
        if want == LIST:
            return lambda f: rt.read_stdin_lines()
        return lambda f: rt.read_stdin_line()
    if kind == "bareword":
        name = src[1]
        get = lambda f: rt.filehandles.get(name)  # noqa: E731
    else:
        get = c.scalar(("scalar", src[1]))

    def rl(f):
        fh = get(f)
        if fh is rt.stdin:
            return rt.read_stdin_lines() if want == LIST else rt.read_stdin_line()
        if not isinstance(fh, FileHandle) or fh.mode not in ("<", "+<"):
            return [] if want == LIST else None
        if want == LIST:
            out = []
            while True:
                line = read_record(rt, fh)
                if line is None:
                    return out
                out.append(line)
        return read_record(rt, fh)
    return rl


def read_record(rt, fh: FileHandle):
    """The next record of an in-memory file handle by $/ (None at the end)."""
    data = fh.data
    pos = fh.pos
    if pos >= len(data):
        return None
    sep = rt.scalars.get("/")
    if sep is None:
        fh.pos = len(data)
        rec = data[pos:]
    else:
        sep = to_str(sep)
        if sep == "":
            while pos < len(data) and data[pos] == "\n":
                pos += 1
            if pos >= len(data):
                fh.pos = pos
                return None
            j = data.find("\n\n", pos)
            if j < 0:
                rec, fh.pos = data[pos:], len(data)
            else:
                k = j + 2
                while k < len(data) and data[k] == "\n":
                    k += 1
                rec, fh.pos = data[pos:j + 2], k
        else:
            j = data.find(sep, pos)
            if j < 0:
                rec, fh.pos = data[pos:], len(data)
            else:
                rec, fh.pos = data[pos:j + len(sep)], j + len(sep)
    fh.lineno += 1
    rt.lineno = fh.lineno
    return rec


_FUNCS = {
    "length": f_length, "substr": f_substr, "index": f_index, "rindex": f_rindex,
    "sprintf": f_sprintf, "join": f_join, "reverse": f_reverse, "lc": f_lc, "uc": f_uc,
    "lcfirst": f_lcfirst, "ucfirst": f_ucfirst, "fc": f_lc, "quotemeta": f_quotemeta,
    "chr": f_chr, "ord": f_ord, "chomp": f_chomp, "chop": f_chop,
    "abs": _num1(abs), "int": _num1(_int), "sqrt": _num1(_sqrt), "log": _num1(_log),
    "exp": _num1(math.exp), "sin": _num1(math.sin), "cos": _num1(math.cos),
    "hex": f_hex, "oct": f_oct, "rand": f_rand, "srand": f_srand, "atan2": f_atan2,
    "time": f_time, "localtime": f_localtime, "gmtime": f_gmtime,
    "defined": f_defined, "undef": f_undef, "ref": f_ref, "scalar": f_scalar,
    "exists": f_exists, "delete": f_delete, "keys": f_keys, "values": f_values,
    "each": f_each, "push": f_push, "unshift": f_unshift, "pop": f_pop, "shift": f_shift,
    "splice": f_splice, "wantarray": f_wantarray, "die": f_die, "warn": f_warn,
    "exit": f_exit, "open": f_open, "close": f_close, "binmode": f_binmode, "eof": f_eof,
    "unlink": f_unlink, "mkdir": f_mkdir, "rename": f_rename, "sleep": f_sleep,
    "pos": f_pos, "stat": f_stat, "lstat": f_lstat, "opendir": f_opendir,
    "readdir": f_readdir, "closedir": f_closedir, "glob": f_glob,
}

__all__ = ["compile_func", "compile_print", "compile_split", "compile_blockop",
           "compile_readline", "compile_filetest", "list_util", "posix", "LIST_UTIL",
           "Frame", "HashRef", "ArrayRef", "CodeRef"]
