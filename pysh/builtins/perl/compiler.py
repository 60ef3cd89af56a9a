"""The Perl subset's compiler: AST to Python closures, and the runtime they share.

Every expression compiles to a function of the frame: ``scalar(node)`` gives
one value, ``listv(node)`` a Python list (list context), ``lvalue(node)`` a
pair of getter/setter. Lexical (``my``) variables live in slots of the frame's
pad, resolved at compile time; package variables in the runtime's dicts.
"""

from __future__ import annotations

import functools
import math
import os
import random
import time

from pysh.builtins.perl.parser import Unsupported
from pysh.builtins.perl.values import (
    UV_MAX,
    ArrayRef,
    CodeRef,
    FileHandle,
    HashRef,
    LoopControl,
    PerlDie,
    Ref,
    Regexp,
    ReturnValue,
    ScalarRef,
    SprintfError,
    fmt_float,
    lc,
    norm_int,
    sprintf,
    str_inc,
    to_bool,
    to_int,
    to_num,
    to_str,
    uc,
)
from pysh.shellkit.regex import RegexError, compile_perl, compile_python

SCALAR, LIST = 0, 1


class Frame:
    __slots__ = ("pad", "outer", "args", "want")

    def __init__(self, size: int, outer, args: list, want: int = SCALAR):
        self.pad = [None] * size
        self.outer = outer
        self.args = args
        self.want = want


class Scope:
    """Compile-time: the lexical names of one sub body (nested blocks share its pad)."""

    def __init__(self, parent: Scope | None):
        self.parent = parent
        self.blocks: list[dict[str, int]] = [{}]
        self.size = 0

    def declare(self, key: str) -> int:
        slot = self.size
        self.size += 1
        self.blocks[-1][key] = slot
        return slot

    def lookup(self, key: str) -> tuple[int, int] | None:
        depth = 0
        s = self
        while s is not None:
            for b in reversed(s.blocks):
                if key in b:
                    return depth, b[key]
            s = s.parent
            depth += 1
        return None


class Runtime:
    """Package variables, I/O and the state of the last match."""

    def __init__(self):
        self.scalars: dict[str, object] = {"/": "\n", ",": None, "\\": None, '"': " ",
                                           ";": "\x1c", "0": "-e", "@": "", "!": "",
                                           "$": 4242, "_": None}
        self.arrays: dict[str, list] = {"ARGV": [], "INC": [], "F": []}
        self.hashes: dict[str, dict] = {"ENV": {}, "INC": {}}
        self.subs: dict[str, CodeRef] = {}
        self.match = None  # the last successful match
        self.match_subject = ""
        self.lineno = 0  # $.
        self.out: list[str] = []  # STDOUT, latin-1 text
        self.out_size = 0
        self.err: list[str] = []
        self.stdout = FileHandle("STDOUT", ">")
        self.stdout.is_std = True
        self.stderr = FileHandle("STDERR", ">")
        self.stderr.is_std = True
        self.selected = self.stdout
        self.filehandles: dict[str, FileHandle] = {"STDOUT": self.stdout,
                                                   "STDERR": self.stderr}
        self.argv = None  # the <> reader, set by the driver
        self.stdin = None
        self.fs = None
        self.budget = None
        self.shell = None
        self.flipflops: dict[int, bool] = {}
        self.end_blocks: list = []
        self.errno = 0
        self.regex_cache: dict = {}
        self.tick = 0
        self.main_frame: Frame | None = None
        self.features: set = set()
        self.imports: set = set()
        self.srand_called = False
        self.rng = random.Random()
        self.pos: dict[int, int] = {}
        self.gpos: tuple[str, int] | None = None  # pos(): the last m//g's subject and end
        self.local_stack: list = []

    def check(self) -> None:
        self.tick += 1
        if self.tick & 255 == 0:
            self.budget.check()

    def write(self, fh: FileHandle, text: str) -> None:
        if fh is self.stdout:
            self.out.append(text)
            self.out_size += len(text)
            if self.out_size > 256 << 20:
                raise PerlDie("pysh: perl: more than 256 MiB of output in one step\n")
        elif fh is self.stderr:
            self.err.append(text)
        else:
            if fh.closed or fh.mode == "<":
                return
            fh.out.append(text)
            fh.written += len(text)
            if fh.written > 256 << 20:
                raise PerlDie("pysh: perl: more than 256 MiB written to one file\n")


def perl_error(msg: str) -> PerlDie:
    return PerlDie(msg)


class Compiler:
    def __init__(self, rt: Runtime, features: set):
        self.rt = rt
        self.features = features
        self.scope = Scope(None)
        self.loop_labels: list[str | None] = []
        self.sub_bodies: list = []
        self.uses_local = False

    # ==================================================================== statements
    def program(self, stmts: list):
        """The main program: (begin blocks, body, end blocks)."""
        begins, ends, body = [], [], []
        for st in stmts:
            if st[0] == "begin":
                begins.append(st)
            elif st[0] == "end":
                ends.append(st)
            else:
                body.append(st)
        self.predeclare(stmts)
        begin_fns = [self.block(st[1]) for st in begins]
        main = self.block(body)
        end_fns = [self.block(st[1]) for st in ends]
        return begin_fns, main, end_fns

    def predeclare(self, stmts: list) -> None:
        """Named subs exist before the program runs (perl compiles them first)."""
        for st in stmts:
            if st[0] == "subdef":
                self.rt.subs.setdefault(st[1], CodeRef(None, st[1]))

    def block(self, stmts: list, new_scope: bool = True):
        if new_scope:
            self.scope.blocks.append({})
        self.predeclare(stmts)
        saved_local = self.uses_local
        self.uses_local = False
        fns = [f for f in (self.statement(st) for st in stmts) if f is not None]
        used_local = self.uses_local
        self.uses_local = saved_local or used_local
        if new_scope:
            self.scope.blocks.pop()
        if used_local and new_scope:
            inner = self._sequence(fns)
            rt = self.rt

            def restoring(f):
                mark = len(rt.local_stack)
                try:
                    return inner(f)
                finally:
                    while len(rt.local_stack) > mark:
                        put, fr, old = rt.local_stack.pop()
                        put(fr, old)  # the variable's own setter: not saved again
            return restoring
        return self._sequence(fns)

    def _sequence(self, fns):
        if not fns:
            return lambda f: None
        if len(fns) == 1:
            return fns[0]
        if len(fns) == 2:
            a, b = fns

            def run2(f):
                a(f)
                return b(f)
            return run2

        def run(f):
            r = None
            for fn in fns:
                r = fn(f)
            return r
        return run

    def statement(self, st):
        kind = st[0]
        rt = self.rt
        if kind == "expr":
            e = st[1]
            if e[0] == "str" or e[0] == "num":
                return None
            return self.scalar_void(e)
        if kind == "if":
            clauses = [(self.cond(c), self.block(b)) for c, b in st[1]]
            else_fn = self.block(st[2]) if st[2] is not None else None
            if len(clauses) == 1:
                c0, b0 = clauses[0]
                if else_fn is None:
                    def if1(f):
                        if c0(f):
                            return b0(f)
                    return if1

                def if2(f):
                    if c0(f):
                        return b0(f)
                    return else_fn(f)
                return if2

            def ifn(f):
                for c, b in clauses:
                    if c(f):
                        return b(f)
                if else_fn is not None:
                    return else_fn(f)
            return ifn
        if kind == "while":
            _, cond, body, label, until, cont = st
            cond_fn = self.while_cond(cond)
            self.loop_labels.append(label)
            body_fn = self.block(body)
            cont_fn = self.block(cont) if cont else None
            self.loop_labels.pop()

            def loop(f):
                while True:
                    rt.check()
                    c = cond_fn(f)
                    if c == until:
                        return None
                    try:
                        body_fn(f)
                    except LoopControl as e:
                        if e.label is not None and e.label != label:
                            raise
                        if e.kind == "last":
                            return None
                    if cont_fn is not None:
                        cont_fn(f)
            return loop
        if kind == "cfor":
            _, init, cond, step, body, label = st
            self.scope.blocks.append({})
            init_fn = self.scalar_void(init) if init is not None else None
            cond_fn = self.cond(cond) if cond is not None else (lambda f: True)
            step_fn = self.scalar_void(step) if step is not None else None
            self.loop_labels.append(label)
            body_fn = self.block(body)
            self.loop_labels.pop()
            self.scope.blocks.pop()

            def cfor(f):
                if init_fn:
                    init_fn(f)
                while cond_fn(f):
                    rt.check()
                    try:
                        body_fn(f)
                    except LoopControl as e:
                        if e.label is not None and e.label != label:
                            raise
                        if e.kind == "last":
                            return None
                    if step_fn:
                        step_fn(f)
            return cfor
        if kind == "foreach":
            return self.foreach(st)
        if kind == "bare_block":
            body_fn = self.block(st[1])
            label = st[2]

            def bare(f):
                try:
                    return body_fn(f)
                except LoopControl as e:
                    if e.label is not None and e.label != label:
                        raise
                    return None
            return bare
        if kind == "do_while":
            _, body, cond, until = st
            body_fn = self.block(body)
            cond_fn = self.cond(cond)

            def dowhile(f):
                while True:
                    rt.check()
                    body_fn(f)
                    if cond_fn(f) == until:
                        return None
            return dowhile
        if kind == "subdef":
            name = st[1]
            fn = self.sub_body(st[2])
            ref = rt.subs.setdefault(name, CodeRef(None, name))
            self.sub_bodies.append((ref, fn))  # bound to the main frame before the run
            return None
        if kind == "use":
            return self.use(st)
        if kind in ("begin", "end"):
            body = self.block(st[1])
            if kind == "end":
                rt.end_blocks.append(body)
                return None
            return body
        raise Unsupported(f"statement {kind}")

    def use(self, st):
        _, name, args, no = st
        if name in ("strict", "warnings", "utf8", "feature", "integer", "vars", "lib",
                    "constant", "diagnostics", "open", "locale", "bytes", "autodie"):
            if name == "feature" and args is not None and not no:
                if "say" in str(args):
                    self.features.add("say")
            if name == "constant" and args is not None:
                return self.use_constant(args)
            if name == "utf8" and not no:
                raise Unsupported("use utf8")
            return None
        if name in ("List::Util", "POSIX", "Scalar::Util", "List::MoreUtils", "Data::Dumper",
                    "Getopt::Long", "Time::HiRes", "File::Basename", "Cwd"):
            if name in ("Data::Dumper", "Getopt::Long", "Time::HiRes", "File::Basename", "Cwd"):
                raise Unsupported(f"the module {name}")
            return None
        raise Unsupported(f"the module {name}")

    def use_constant(self, args):
        if args[0] == "list" and len(args[1]) >= 2 and args[1][0][0] == "str":
            name = args[1][0][1]
            val = self.listv(("list", args[1][1:]))
            rt = self.rt

            def define(f):
                vals = val(f)
                rt.subs[name] = CodeRef(lambda fr, a, w, v=vals: (v if w == LIST else
                                                                   (v[-1] if v else None)),
                                        name)
            rt.subs.setdefault(name, CodeRef(None, name))
            return define
        raise Unsupported("this form of use constant")

    def foreach(self, st):
        _, var, lst, body, label = st
        rt = self.rt
        self.scope.blocks.append({})
        list_fn, sources = self.alias_list(lst)
        if var is None or var[0] == "global":
            name = "_" if var is None else var[1]

            def get(f, name=name):
                return rt.scalars.get(name)

            def put(f, v, name=name):
                rt.scalars[name] = v
            restore = True
        else:
            slot = self.scope.declare("$" + var[1])

            def get(f, slot=slot):
                return f.pad[slot]

            def put(f, v, slot=slot):
                f.pad[slot] = v
            restore = False
        self.loop_labels.append(label)
        body_fn = self.block(body)
        self.loop_labels.pop()
        self.scope.blocks.pop()
        name = None if var is None else var[1]

        def foreach(f):
            items, where = list_fn(f)
            saved = get(f) if restore else None
            try:
                for i, v in enumerate(items):
                    rt.check()
                    put(f, v)
                    try:
                        body_fn(f)
                    except LoopControl as e:
                        if e.label is not None and e.label != label:
                            raise
                        if e.kind == "last":
                            _write_back(where, i, v, get(f))
                            break
                    _write_back(where, i, v, get(f))
            finally:
                if restore:
                    put(f, saved)
        _ = name
        return foreach

    def alias_list(self, node):
        """A list to iterate with write-back to the arrays it came from (perl's aliasing)."""
        items = node[1] if node[0] in ("paren", "list") and node[0] == "list" else None
        if node[0] == "paren":
            return self.alias_list(node[1])
        if node[0] in ("array", "deref_array"):
            get_arr = self.array_container(node)

            def one(f):
                a = get_arr(f)
                return list(a), [(a, 0, len(a))]
            return one, None
        fn = self.listv(node)
        if items is not None and all(x[0] in ("array", "deref_array") for x in items):
            getters = [self.array_container(x) for x in items]

            def many(f):
                out, where = [], []
                for g in getters:
                    a = g(f)
                    where.append((a, len(out), len(a)))
                    out.extend(a)
                return out, where
            return many, None
        return (lambda f: (fn(f), None)), None

    # ==================================================================== helpers
    def cond(self, node):
        fn = self.scalar(node)
        return lambda f: to_bool(fn(f))

    def while_cond(self, node):
        """while (<FH>) and while (my $l = <FH>) test definedness, as perl does."""
        if node[0] == "readline":
            rd = self.scalar(node)
            rt = self.rt

            def cond(f):
                v = rd(f)
                rt.scalars["_"] = v
                return v is not None
            return cond
        if node[0] == "assign" and node[1] == "=" and node[3][0] == "readline":
            fn = self.scalar(node)
            return lambda f: fn(f) is not None
        if node[0] == "func" and node[1] in ("shift", "each") or node[0] == "glob":
            pass
        return self.cond(node)

    def scalar_void(self, node):
        return self.scalar(node)

    # ==================================================================== variables
    def lookup(self, sigil: str, name: str):
        return self.scope.lookup(sigil + name)

    def pad_access(self, depth: int, slot: int):
        if depth == 0:
            return (lambda f: f.pad[slot]), _setter0(slot)

        def get(f):
            for _ in range(depth):
                f = f.outer
            return f.pad[slot]

        def put(f, v):
            for _ in range(depth):
                f = f.outer
            f.pad[slot] = v
        return get, put

    def scalar_var(self, name: str):
        """(getter, setter) of $name."""
        rt = self.rt
        loc = self.lookup("$", name)
        if loc is not None:
            return self.pad_access(*loc)
        if name.isdigit() and name != "0":
            n = int(name)

            def group(f):
                m = rt.match
                if m is None or n > len(m.groups()):
                    return None
                return m.group(n)
            return group, _readonly(name)
        special = {
            "&": lambda f: rt.match.group(0) if rt.match else None,
            "`": lambda f: rt.match_subject[:rt.match.start()] if rt.match else None,
            "'": lambda f: rt.match_subject[rt.match.end():] if rt.match else None,
            "+": lambda f: _last_paren(rt.match),
            ".": lambda f: rt.lineno,
        }
        if name in special:
            if name == ".":
                def set_lineno(f, v):
                    rt.lineno = to_int(v)
                return special[name], set_lineno
            return special[name], _readonly(name)
        if name == "!":
            return (lambda f: _errno_str(rt.errno)), (lambda f, v: setattr(rt, "errno",
                                                                           to_int(v)))
        scalars = rt.scalars

        def get(f):
            return scalars.get(name)

        def put(f, v):
            scalars[name] = v
        return get, put

    def array_container(self, node):
        """A function giving the Python list behind an array node (autovivifying)."""
        rt = self.rt
        if node[0] == "array":
            name = node[1]
            loc = self.lookup("@", name)
            if loc is not None:
                get, _ = self.pad_access(*loc)
                return get
            if name == "_":
                return lambda f: f.args
            arrays = rt.arrays
            if name in ("-", "+"):
                return lambda f: _match_offsets(rt.match, name)

            def arr(f):
                a = arrays.get(name)
                if a is None:
                    a = arrays[name] = []
                return a
            return arr
        if node[0] == "deref_array":
            inner = node[1]
            if inner[0] in ("scalar", "aelem", "helem", "deref_scalar_of"):
                get, put = self.lvalue(inner)

                def deref(f):
                    v = get(f)
                    if v is None:
                        a = []
                        put(f, ArrayRef(a))
                        return a
                    if isinstance(v, ArrayRef):
                        return v.a
                    raise PerlDie("Not an ARRAY reference")
                return deref
            val = self.scalar(inner)

            def deref2(f):
                v = val(f)
                if isinstance(v, ArrayRef):
                    return v.a
                if v is None:
                    return []
                raise PerlDie("Not an ARRAY reference")
            return deref2
        if node[0] == "paren":
            return self.array_container(node[1])
        raise Unsupported(f"an array from {node[0]}")

    def hash_container(self, node):
        rt = self.rt
        if node[0] == "hash":
            name = node[1]
            loc = self.lookup("%", name)
            if loc is not None:
                get, _ = self.pad_access(*loc)
                return get
            hashes = rt.hashes
            if name == "+":
                return lambda f: (rt.match.groupdict() if rt.match else {})

            def h(f):
                d = hashes.get(name)
                if d is None:
                    d = hashes[name] = {}
                return d
            return h
        if node[0] == "deref_hash":
            inner = node[1]
            if inner[0] in ("scalar", "aelem", "helem", "deref_scalar_of"):
                get, put = self.lvalue(inner)

                def deref(f):
                    v = get(f)
                    if v is None:
                        d = {}
                        put(f, HashRef(d))
                        return d
                    if isinstance(v, HashRef):
                        return v.h
                    raise PerlDie("Not a HASH reference")
                return deref
            val = self.scalar(inner)

            def deref2(f):
                v = val(f)
                if isinstance(v, HashRef):
                    return v.h
                if v is None:
                    return {}
                raise PerlDie("Not a HASH reference")
            return deref2
        raise Unsupported(f"a hash from {node[0]}")

    def hash_key(self, node):
        if node[0] == "str":
            k = node[1]
            return lambda f: k
        if node[0] == "list":  # $h{a,b}: joined with $;
            fn = self.listv(node)
            rt = self.rt
            return lambda f: to_str(rt.scalars.get(";")).join(to_str(x) for x in fn(f))
        fn = self.scalar(node)
        return lambda f: to_str(fn(f))

    # ==================================================================== lvalues
    def lvalue(self, node):
        """(getter, setter) for a scalar lvalue."""
        kind = node[0]
        if kind == "scalar":
            return self.scalar_var(node[1])
        if kind == "my" or kind == "our":
            if len(node[1]) != 1 or node[1][0][0] != "$" or node[2]:
                raise Unsupported("this declaration as a scalar")
            name = node[1][0][1]
            if kind == "our":
                return self.scalar_var(name)
            slot = self.scope.declare("$" + name)
            return (lambda f: f.pad[slot]), _setter0(slot)
        if kind == "aelem":
            arr = self.array_container(node[1])
            idx = self.scalar(node[2])

            def get(f):
                a = arr(f)
                i = to_int(idx(f))
                if -len(a) <= i < len(a):
                    return a[i]
                return None

            def put(f, v):
                a = arr(f)
                i = to_int(idx(f))
                if i < 0:
                    i += len(a)
                    if i < 0:
                        raise PerlDie("Modification of non-creatable array value attempted, "
                                      f"subscript {i - len(a)}")
                if i >= len(a):
                    if i > 50_000_000:
                        raise PerlDie("Out of memory in perl:util:safesysrealloc")
                    a.extend([None] * (i + 1 - len(a)))
                a[i] = v
            return get, put
        if kind == "helem":
            h = self.hash_container(node[1])
            key = self.hash_key(node[2])

            def hget(f):
                return h(f).get(key(f))

            def hput(f, v):
                h(f)[key(f)] = v
            return hget, hput
        if kind == "deref_scalar_of":
            inner = self.scalar(node[1])

            def sget(f):
                r = inner(f)
                if isinstance(r, ScalarRef):
                    return r.get()
                if r is None:
                    return None
                raise PerlDie("Not a SCALAR reference")

            def sput(f, v):
                r = inner(f)
                if isinstance(r, ScalarRef):
                    r.set(v)
                    return
                raise PerlDie("Not a SCALAR reference")
            return sget, sput
        if kind == "local":
            return self.local(node[1])
        if kind == "cond":
            c = self.cond(node[1])
            ga, pa = self.lvalue(node[2])
            gb, pb = self.lvalue(node[3])
            return ((lambda f: ga(f) if c(f) else gb(f)),
                    (lambda f, v: pa(f, v) if c(f) else pb(f, v)))
        if kind == "paren":
            return self.lvalue(node[1])
        if kind == "func" and node[1] == "substr":
            return self.substr_lvalue(node)
        if kind == "assign":
            target = node[2]
            if node[1] == "=" and not _is_list_target(target):
                g, p = self.lvalue(target)  # (a 'my' is declared once, here)
                val = self.scalar(node[3])

                def aget(f):
                    p(f, val(f))
                    return g(f)
                return aget, p
            fn = self.scalar(node)
            g, p = self.lvalue(target)

            def aget2(f):
                fn(f)
                return g(f)
            return aget2, p
        if kind == "lastidx":
            arr = self.array_container(node[1])

            def lput(f, v):
                a = arr(f)
                n = to_int(v) + 1
                if n < len(a):
                    del a[n:]
                else:
                    a.extend([None] * (n - len(a)))
            return (lambda f: len(arr(f)) - 1), lput
        if kind in ("preinc", "predec"):
            fn = self.scalar(node)
            g, p = self.lvalue(node[1])
            return (lambda f: (fn(f), g(f))[1]), p
        raise Unsupported(f"assignment to {kind}")

    def local(self, target):
        """local: the old value is saved on the runtime's stack and put back when the
        enclosing block ends (block() wraps blocks that use local)."""
        rt = self.rt
        if target[0] in ("scalar", "helem", "aelem"):
            g, p = self.lvalue(target)
            self.uses_local = True

            def save_and_set(f, v):
                rt.local_stack.append((p, f, g(f)))
                p(f, v)
            return g, save_and_set
        raise Unsupported("local on this kind of variable")

    def substr_lvalue(self, node):
        args = self.flat_args(node[2])
        if len(args) < 2:
            raise Unsupported("substr with one argument")
        sg, sp = self.lvalue(args[0])
        off = self.scalar(args[1])
        ln = self.scalar(args[2]) if len(args) > 2 else None

        def bounds(f, s):
            o = to_int(off(f))
            if o < 0:
                o += len(s)
            o = max(0, min(o, len(s)))
            if ln is None:
                e = len(s)
            else:
                n = to_int(ln(f))
                e = o + n if n >= 0 else len(s) + n
            return o, max(o, min(e, len(s)))

        def get(f):
            s = to_str(sg(f))
            o, e = bounds(f, s)
            return s[o:e]

        def put(f, v):
            s = to_str(sg(f))
            o, e = bounds(f, s)
            sp(f, s[:o] + to_str(v) + s[e:])
        return get, put

    # ==================================================================== expressions
    def scalar(self, node):
        kind = node[0]
        m = getattr(self, "s_" + kind, None)
        if m is None:
            raise Unsupported(f"the construct '{kind}'")
        return m(node)

    def listv(self, node):
        """The node in list context: a function giving a Python list."""
        kind = node[0]
        m = getattr(self, "l_" + kind, None)
        if m is not None:
            return m(node)
        fn = self.scalar(node)
        return lambda f: [fn(f)]

    # -- literals
    def s_num(self, node):
        v = node[1]
        return lambda f: v

    def s_str(self, node):
        v = node[1]
        return lambda f: v

    def s_bareword(self, node):
        name = node[1]
        rt = self.rt
        if name in rt.filehandles or name in ("STDIN", "ARGV"):
            return lambda f: _get_fh(rt, name)
        if name in rt.subs:
            return self.s_call(("call", name, []))
        return lambda f: name

    def s_interp(self, node):
        parts = node[1]
        fns = []
        for p in parts:
            if p[0] == "str":
                s = p[1]
                fns.append(("s", s))
            elif p[0] == "case":
                fns.append(("c", p[1]))
            elif p[0] == "scalar_value":
                fns.append(("v", self.scalar(p[1])))
            else:
                fns.append(("a", self.listv(p[1])))
        rt = self.rt
        simple = all(k in ("s", "v") for k, _ in fns)
        if simple:
            pieces = [(x if k == "s" else None, x if k == "v" else None) for k, x in fns]

            def interp(f):
                return "".join([s if fn is None else to_str(fn(f)) for s, fn in pieces])
            return interp

        def interp_full(f):
            out = []
            mode = []  # active \U \L \Q
            once = None
            for k, x in fns:
                if k == "c":
                    if x == "E":
                        if mode:
                            mode.pop()
                    elif x in "ul":
                        once = x
                    else:
                        mode.append(x)
                    continue
                if k == "s":
                    text = x
                elif k == "v":
                    text = to_str(x(f))
                else:
                    text = to_str(rt.scalars.get('"')).join(to_str(v) for v in x(f))
                for md in mode:
                    text = uc(text) if md == "U" else lc(text) if md == "L" else \
                        _quotemeta(text)
                if once and text:
                    text = (uc(text[0]) if once == "u" else lc(text[0])) + text[1:]
                    once = None
                out.append(text)
            return "".join(out)
        return interp_full

    # -- variables
    def s_scalar(self, node):
        return self.scalar_var(node[1])[0]

    def s_my(self, node):
        names = node[1]
        if node[2]:  # my (...) in scalar context: the last one
            fn = self.l_my(node)
            return lambda f: (fn(f) or [None])[-1]
        sig, name = names[0]
        if node[0] == "our":
            if sig == "$":
                return self.scalar_var(name)[0]
            return lambda f: None
        slot = self.scope.declare(sig + name)
        if sig == "$":
            def my_scalar(f):
                f.pad[slot] = None
                return None
            return my_scalar
        if sig == "@":
            def my_array(f):
                f.pad[slot] = []
                return 0
            return my_array

        def my_hash(f):
            f.pad[slot] = {}
            return 0
        return my_hash

    s_our = s_my

    def l_my(self, node):
        fns = []
        for sig, name in node[1]:
            if sig == "undef":
                continue
            if node[0] == "our":
                continue
            slot = self.scope.declare(sig + name)
            init = {"$": lambda: None, "@": list, "%": dict}[sig]
            fns.append((slot, init))

        def my_list(f):
            for slot, init in fns:
                f.pad[slot] = init()
            return []
        return my_list

    l_our = l_my

    def s_local(self, node):
        g, p = self.local(node[1])

        def loc(f):
            p(f, None)
            return None
        return loc

    def s_array(self, node):
        arr = self.array_container(node)
        return lambda f: len(arr(f))

    def l_array(self, node):
        arr = self.array_container(node)
        return lambda f: list(arr(f))

    def s_deref_array(self, node):
        return self.s_array(node)

    def l_deref_array(self, node):
        return self.l_array(node)

    def s_hash(self, node):
        h = self.hash_container(node)
        return lambda f: len(h(f))

    def l_hash(self, node):
        h = self.hash_container(node)

        def flat(f):
            out = []
            for k, v in h(f).items():
                out.append(k)
                out.append(v)
            return out
        return flat

    s_deref_hash = s_hash
    l_deref_hash = l_hash

    def s_aelem(self, node):
        return self.lvalue(node)[0]

    def s_helem(self, node):
        return self.lvalue(node)[0]

    def s_deref_scalar_of(self, node):
        return self.lvalue(node)[0]

    def s_lastidx(self, node):
        arr = self.array_container(node[1])
        return lambda f: len(arr(f)) - 1

    def l_aslice(self, node):
        return _index_slice(self.array_container(node[1]), self.listv(node[2]))

    def s_aslice(self, node):
        fn = self.l_aslice(node)
        return lambda f: (fn(f) or [None])[-1]

    def l_hslice(self, node):
        h = self.hash_container(node[1])
        keys = self.listv(node[2])
        return lambda f: [h(f).get(to_str(k)) for k in keys(f)]

    def s_hslice(self, node):
        fn = self.l_hslice(node)
        return lambda f: (fn(f) or [None])[-1]

    def l_lslice(self, node):
        return _index_slice(self.listv(node[1]), self.listv(node[2]))

    def s_lslice(self, node):
        fn = self.l_lslice(node)
        return lambda f: (fn(f) or [None])[-1]

    # -- lists
    def l_list(self, node):
        fns = [self.listv(x) for x in node[1]]
        if len(fns) == 1:
            return fns[0]

        def lst(f):
            out = []
            for fn in fns:
                out.extend(fn(f))
            return out
        return lst

    def s_list(self, node):
        items = node[1]
        if not items:
            return lambda f: None
        fns = [self.scalar_void(x) for x in items[:-1]]
        last = self.scalar(items[-1])

        def comma(f):
            for fn in fns:
                fn(f)
            return last(f)
        return comma

    def s_paren(self, node):
        return self.scalar(node[1])

    def l_paren(self, node):
        return self.listv(node[1])

    def s_anonarray(self, node):
        fn = self.listv(("list", node[1]))
        return lambda f: ArrayRef(fn(f))

    def s_anonhash(self, node):
        fn = self.listv(("list", node[1]))

        def mk(f):
            items = fn(f)
            d = {}
            for i in range(0, len(items), 2):
                d[to_str(items[i])] = items[i + 1] if i + 1 < len(items) else None
            return HashRef(d)
        return mk

    def s_ref(self, node):
        target = node[1]
        if target[0] in ("array", "deref_array"):
            arr = self.array_container(target)
            return lambda f: ArrayRef(arr(f))
        if target[0] in ("hash", "deref_hash"):
            h = self.hash_container(target)
            return lambda f: HashRef(h(f))
        if target[0] == "amp_call" and target[2] is None:
            name = target[1][1]
            rt = self.rt
            return lambda f: rt.subs.get(name) or CodeRef(None, name)
        if target[0] in ("scalar", "aelem", "helem"):
            g, p = self.lvalue(target)
            ident = object()
            return lambda f: ScalarRef(lambda: g(f), lambda v: p(f, v), ident)
        if target[0] == "my":
            g, p = self.lvalue(target)
            ident = object()
            return lambda f: (g(f), ScalarRef(lambda: g(f), lambda v: p(f, v), ident))[1]
        fn = self.scalar(target)

        def const_ref(f):
            v = fn(f)
            return ScalarRef(lambda: v, _readonly_fn, object())
        return const_ref

    def s_anonsub(self, node):
        body = self.sub_body(node[1])
        return lambda f: CodeRef(functools.partial(body, f))

    def sub_body(self, stmts):
        """A sub: a function (outer frame, args, want) -> value or list."""
        saved_scope = self.scope
        self.scope = Scope(saved_scope)
        saved_labels = self.loop_labels
        self.loop_labels = []
        last_expr = None
        if stmts and stmts[-1][0] == "expr":
            last_expr = stmts[-1][1]
        size_holder = self.scope
        if last_expr is not None:
            # the statements before the last, then the last in the caller's context (once:
            # compiling a 'my' twice would give it two slots)
            self.predeclare(stmts)
            pre = self.block(stmts[:-1], new_scope=False)
            mark = len(self.scope.blocks[-1])
            list_last = self.listv(last_expr)
            # the scalar form must see the same variables: drop names the list form declared
            for k in list(self.scope.blocks[-1])[mark:]:
                del self.scope.blocks[-1][k]
            scalar_last = self.scalar(last_expr)
            body = None
        else:
            body = self.block(stmts, new_scope=False)
            pre = list_last = scalar_last = None
        self.scope = saved_scope
        self.loop_labels = saved_labels
        rt = self.rt

        def call(outer, args, want):
            fr = Frame(size_holder.size, outer, args, want)
            rt.check()
            mark = len(rt.local_stack)
            try:
                if last_expr is not None:
                    pre(fr)
                    return list_last(fr) if want == LIST else scalar_last(fr)
                r = body(fr)
                return [r] if want == LIST and r is not None else ([] if want == LIST else r)
            except ReturnValue as rv:
                v = rv.value
                if want == LIST:
                    return v
                return v[-1] if v else None
            finally:
                while len(rt.local_stack) > mark:  # local values end with the sub
                    put, frame, old = rt.local_stack.pop()
                    put(frame, old)
        return call

    # -- assignment
    def s_assign(self, node):
        op, target, value = node[1], node[2], node[3]
        if op == "=":
            if _is_list_target(target):
                fn = self.list_assign(target, value)
                return lambda f: len(fn(f))
            g, p = self.lvalue(target)
            if target[0] in ("array", "hash", "deref_array", "deref_hash"):
                raise Unsupported("assignment here")
            val = self.scalar(value)

            def assign(f):
                v = val(f)
                p(f, v)
                return v
            return assign
        g, p = self.lvalue(target)
        if target[0] in ("array", "deref_array") and op in ("x=",):
            raise Unsupported("@a x= N")
        val = self.scalar(value)
        if op in ("||=", "&&=", "//="):
            test = {"||=": to_bool, "&&=": lambda v: not to_bool(v),
                    "//=": lambda v: v is not None}[op]

            def logassign(f):
                cur = g(f)
                if test(cur):
                    return cur
                v = val(f)
                p(f, v)
                return v
            return logassign
        binop = _BINOPS[op[:-1]]

        def opassign(f):
            v = binop(g(f), val(f))
            p(f, v)
            return v
        return opassign

    def l_assign(self, node):
        if node[1] == "=" and _is_list_target(node[2]):
            return self.list_assign(node[2], node[3])
        fn = self.s_assign(node)
        target = node[2]
        if target[0] in ("array", "hash"):
            lf = self.listv(target)
            return lambda f: (fn(f), lf(f))[1]
        return lambda f: [fn(f)]

    def list_assign(self, target, value):
        """(LIST) = (LIST): returns the right-hand side list; assigns left to right."""
        val = self.listv(value)
        kind = target[0]
        if kind in ("array", "deref_array"):
            arr = self.array_container(target)

            def aassign(f):
                v = val(f)
                a = arr(f)
                a[:] = v
                return v
            return aassign
        if kind in ("hash", "deref_hash"):
            h = self.hash_container(target)

            def hassign(f):
                v = val(f)
                d = h(f)
                d.clear()
                for i in range(0, len(v), 2):
                    d[to_str(v[i])] = v[i + 1] if i + 1 < len(v) else None
                return v
            return hassign
        if kind in ("my", "our", "local") and kind != "local" or kind == "local" and False:
            targets = []
            for sig, name in target[1]:
                if sig == "undef":
                    targets.append(("skip", None))
                    continue
                if kind == "our":
                    if sig == "$":
                        targets.append(("$", self.scalar_var(name)[1]))
                    elif sig == "@":
                        targets.append(("@", self.array_container(("array", name))))
                    else:
                        targets.append(("%", self.hash_container(("hash", name))))
                    continue
                slot = self.scope.declare(sig + name)
                targets.append((sig, slot))
            is_my = kind == "my"

            def massign(f):
                v = val(f)
                i = 0
                for sig, t in targets:
                    if sig == "skip":
                        i += 1
                        continue
                    if sig == "$":
                        x = v[i] if i < len(v) else None
                        if is_my:
                            f.pad[t] = x
                        else:
                            t(f, x)
                        i += 1
                    elif sig == "@":
                        rest = v[i:]
                        if is_my:
                            f.pad[t] = list(rest)
                        else:
                            t(f)[:] = rest
                        i = len(v)
                    else:
                        d = {}
                        rest = v[i:]
                        for k in range(0, len(rest), 2):
                            d[to_str(rest[k])] = rest[k + 1] if k + 1 < len(rest) else None
                        if is_my:
                            f.pad[t] = d
                        else:
                            t(f).clear()
                            t(f).update(d)
                        i = len(v)
                return v
            return massign
        if kind == "local":
            return self.list_assign(target[1], value)
        if kind in ("paren", "list"):
            items = target[1] if kind == "list" else (
                target[1][1] if target[1][0] == "list" else [target[1]])
            setters = []
            for it in items:
                if it[0] in ("array", "deref_array"):
                    setters.append(("@", self.array_container(it)))
                elif it[0] in ("hash", "deref_hash"):
                    setters.append(("%", self.hash_container(it)))
                elif it[0] == "func" and it[1] == "undef" and not it[2]:
                    setters.append(("skip", None))
                elif it[0] == "my" and not it[2] and it[1][0][0] in "@%":
                    sig, name = it[1][0]
                    slot = self.scope.declare(sig + name)
                    cont = (lambda f, slot=slot: f.pad[slot])
                    init = (lambda f, slot=slot, sig=sig: f.pad.__setitem__(
                        slot, [] if sig == "@" else {}))
                    setters.append(("my" + sig, (cont, init)))
                else:
                    setters.append(("$", self.lvalue(it)[1]))

            def passign(f):
                v = val(f)
                i = 0
                for sig, t in setters:
                    if sig == "skip":
                        i += 1
                    elif sig == "$":
                        t(f, v[i] if i < len(v) else None)
                        i += 1
                    elif sig in ("@", "my@"):
                        if sig == "my@":
                            t[1](f)
                            a = t[0](f)
                        else:
                            a = t(f)
                        a[:] = v[i:]
                        i = len(v)
                    else:
                        if sig == "my%":
                            t[1](f)
                            d = t[0](f)
                        else:
                            d = t(f)
                        d.clear()
                        rest = v[i:]
                        for k in range(0, len(rest), 2):
                            d[to_str(rest[k])] = rest[k + 1] if k + 1 < len(rest) else None
                        i = len(v)
                return v
            return passign
        if kind in ("aslice", "hslice"):
            raise Unsupported("assignment to a slice")
        raise Unsupported(f"list assignment to {kind}")

    # -- operators
    def s_binop(self, node):
        op = node[1]
        a = self.scalar(node[2])
        b = self.scalar(node[3])
        if op == "x":
            if node[2][0] == "paren" or node[2][0] == "list":
                lf = self.listv(node[2])

                def rep_list_scalar(f):
                    items = lf(f)
                    n = max(0, to_int(b(f)))
                    return to_str(items[-1]) * n if items else ""
                return rep_list_scalar
            rt = self.rt

            def rep(f):
                s = to_str(a(f))
                n = to_int(b(f))
                if n <= 0:
                    return ""
                rt.budget.check_string(len(s) * n)
                return s * n
            return rep
        fn = _BINOPS.get(op)
        if fn is None:
            raise Unsupported(f"the operator {op}")
        if op == ".":
            def concat(f):
                x = a(f)
                y = b(f)
                return (x if type(x) is str else to_str(x)) + (y if type(y) is str else
                                                                to_str(y))
            return concat
        if op == "eq":
            return lambda f: _truth(to_str(a(f)) == to_str(b(f)))
        if op == "ne":
            return lambda f: _truth(to_str(a(f)) != to_str(b(f)))
        if op == "==":
            return lambda f: _truth(to_num(a(f)) == to_num(b(f)))
        return lambda f: fn(a(f), b(f))

    def l_binop(self, node):
        if node[1] == "x" and node[2][0] in ("paren", "list"):
            lf = self.listv(node[2])
            b = self.scalar(node[3])
            rt = self.rt

            def rep_list(f):
                items = lf(f)
                n = max(0, to_int(b(f)))
                rt.budget.check_array(len(items) * n)
                return items * n
            return rep_list
        fn = self.s_binop(node)
        return lambda f: [fn(f)]

    def s_neg(self, node):
        a = self.scalar(node[1])

        def neg(f):
            v = a(f)
            if type(v) is str and v and (v[0].isalpha() or v[0] == "_"):
                return "-" + v
            if type(v) is str and v.startswith("-") and v[1:2].isalpha():
                return "+" + v[1:]
            n = to_num(v)
            return norm_int(-n)
        return neg

    def s_not(self, node):
        a = self.scalar(node[1])
        return lambda f: "" if to_bool(a(f)) else 1

    def s_bitnot(self, node):
        a = self.scalar(node[1])
        return lambda f: (~to_int(a(f))) & UV_MAX

    def s_logand(self, node):
        a = self.scalar(node[1])
        b = self.scalar(node[2])

        def land(f):
            x = a(f)
            return b(f) if to_bool(x) else x
        return land

    def s_logor(self, node):
        a = self.scalar(node[1])
        b = self.scalar(node[2])

        def lor(f):
            x = a(f)
            return x if to_bool(x) else b(f)
        return lor

    def s_dor(self, node):
        a = self.scalar(node[1])
        b = self.scalar(node[2])

        def dor(f):
            x = a(f)
            return x if x is not None else b(f)
        return dor

    def l_logor(self, node):
        a = self.scalar(node[1])
        b = self.listv(node[2])

        def lor(f):
            x = a(f)
            return [x] if to_bool(x) else b(f)
        return lor

    def l_logand(self, node):
        a = self.scalar(node[1])
        b = self.listv(node[2])

        def land(f):
            x = a(f)
            return b(f) if to_bool(x) else [x]
        return land

    def s_xor(self, node):
        a = self.cond(node[1])
        b = self.cond(node[2])
        return lambda f: _truth(a(f) != b(f))

    def s_cond(self, node):
        c = self.cond(node[1])
        a = self.scalar(node[2])
        b = self.scalar(node[3])
        return lambda f: a(f) if c(f) else b(f)

    def l_cond(self, node):
        c = self.cond(node[1])
        a = self.listv(node[2])
        b = self.listv(node[3])
        return lambda f: a(f) if c(f) else b(f)

    def s_preinc(self, node):
        g, p = self.lvalue(node[1])

        def inc(f):
            v = g(f)
            nv = str_inc(v) if type(v) is str and v and not v[0].isdigit() and \
                v[0] not in "+-. " else norm_int(to_num(v) + 1)
            p(f, nv)
            return nv
        return inc

    def s_predec(self, node):
        g, p = self.lvalue(node[1])

        def dec(f):
            nv = norm_int(to_num(g(f)) - 1)
            p(f, nv)
            return nv
        return dec

    def s_postinc(self, node):
        g, p = self.lvalue(node[1])

        def inc(f):
            v = g(f)
            if type(v) is str and v and not v[0].isdigit() and v[0] not in "+-. ":
                p(f, str_inc(v))
                return v
            n = to_num(v)
            p(f, norm_int(n + 1))
            return n if v is not None else 0
        return inc

    def s_postdec(self, node):
        g, p = self.lvalue(node[1])

        def dec(f):
            n = to_num(g(f))
            p(f, norm_int(n - 1))
            return n
        return dec

    def s_range(self, node):
        """Scalar context: the flip-flop operator."""
        rt = self.rt
        key = id(node)
        op = node[1]

        def operand(n):
            if n[0] == "num":
                v = n[1]
                return lambda f: rt.lineno == v
            c = self.cond(n)
            return c
        left = operand(node[2])
        right = operand(node[3])
        counter = {"n": 0}

        def flipflop(f):
            state = rt.flipflops.get(key, False)
            if not state:
                if left(f):
                    counter["n"] = 1
                    if op == ".." and right(f):
                        rt.flipflops[key] = False
                        return "1E0"
                    rt.flipflops[key] = True
                    return 1
                return ""
            counter["n"] += 1
            if right(f):
                rt.flipflops[key] = False
                return f"{counter['n']}E0"
            return counter["n"]
        return flipflop

    def l_range(self, node):
        a = self.scalar(node[2])
        b = self.scalar(node[3])
        rt = self.rt

        def rng(f):
            x, y = a(f), b(f)
            if type(x) is str and x and not x.lstrip("-").isdigit() and \
                    not _looks_num(x):
                out = []
                s = x
                ys = to_str(y)
                while len(s) <= len(ys):
                    out.append(s)
                    if s == ys:
                        break
                    s = str_inc(s)
                    rt.check()
                    if len(out) > 10_000_000:
                        break
                return out
            lo, hi = to_int(x), to_int(y)
            rt.budget.check_array(max(0, hi - lo + 1))
            return list(range(lo, hi + 1))
        return rng

    # -- matching
    def s_bind(self, node):
        op, target, rhs = node[1], node[2], node[3]
        neg = op == "!~"
        if rhs[0] == "match":
            fn = self.match(rhs, target, LIST if False else SCALAR)
        elif rhs[0] == "subst":
            fn = self.subst(rhs, target)
        elif rhs[0] == "trans":
            fn = self.trans(rhs, target)
        else:
            # $x =~ $re or $x =~ "string": a match against the value as a pattern
            fn = self.match(("match", rhs, ""), target, SCALAR, dynamic=True)
        if neg:
            return lambda f: "" if to_bool(fn(f)) else 1
        return fn

    def l_bind(self, node):
        op, target, rhs = node[1], node[2], node[3]
        if rhs[0] == "match" and op == "=~":
            return self.match(rhs, target, LIST)
        if rhs[0] not in ("match", "subst", "trans") and op == "=~":
            return self.match(("match", rhs, ""), target, LIST, dynamic=True)
        fn = self.s_bind(node)
        return lambda f: [fn(f)]

    def s_match(self, node):
        return self.match(node, None, SCALAR)

    def l_match(self, node):
        return self.match(node, None, LIST)

    def s_qr(self, node):
        pat = self.pattern(node[1], node[2])
        flags = node[2]
        text_fn = self.pattern_text(node[1])
        return lambda f: Regexp(text_fn(f), flags, pat(f))

    def pattern_text(self, node):
        if node[0] == "str":
            t = node[1]
            return lambda f: t
        return self.scalar(node)

    def pattern(self, node, flags: str):
        """A function giving the compiled pattern (cached per text)."""
        rt = self.rt
        icase = "i" in flags
        multiline = "m" in flags
        dotall = "s" in flags
        extended = "x" in flags
        if node[0] == "str":
            text = node[1]
            cached = []

            def const(f):
                if not cached:
                    cached.append(compile_regex(rt, text, icase, multiline, dotall, extended))
                return cached[0]
            return const
        if node[0] == "interp":
            parts = node[1]
            fns = []
            for p in parts:
                if p[0] == "str":
                    fns.append(("s", p[1]))
                elif p[0] == "case":
                    fns.append(("c", p[1]))
                elif p[0] == "scalar_value":
                    fns.append(("v", self.scalar(p[1])))
                else:
                    fns.append(("a", self.listv(p[1])))

            def dyn(f):
                out = []
                quote = False
                for k, x in fns:
                    if k == "c":
                        if x == "Q":
                            quote = True
                        elif x == "E":
                            quote = False
                        continue
                    if k == "s":
                        out.append(x)
                        continue
                    if k == "v":
                        v = x(f)
                        text = v.stringify() if isinstance(v, Regexp) else to_str(v)
                    else:
                        text = to_str(rt.scalars.get('"')).join(to_str(v) for v in x(f))
                    out.append(_quotemeta(text) if quote else text)
                return compile_regex(rt, "".join(out), icase, multiline, dotall, extended)
            return dyn
        val = self.scalar(node)

        def value(f):
            v = val(f)
            if isinstance(v, Regexp):
                if not flags:
                    return v.rx
                return compile_regex(rt, v.stringify(), icase, multiline, dotall, extended)
            return compile_regex(rt, to_str(v), icase, multiline, dotall, extended)
        return value

    def target_fn(self, target):
        if target is None:
            rt = self.rt
            return (lambda f: rt.scalars.get("_")), (lambda f, v: rt.scalars.__setitem__("_",
                                                                                        v))
        if target[0] in ("scalar", "aelem", "helem", "my", "deref_scalar_of", "paren",
                         "assign", "local", "func"):
            try:
                return self.lvalue(target)
            except Unsupported:
                pass
        return self.scalar(target), None

    def match(self, node, target, want, dynamic: bool = False):
        flags = node[2]
        rt = self.rt
        pat = self.pattern(node[1], flags)
        get, _ = self.target_fn(target)
        glob = "g" in flags
        if glob and want == SCALAR:
            pos_key_fn = get

            def gmatch(f):
                s = to_str(pos_key_fn(f))
                rx = pat(f)
                key = id(node)
                start = rt.pos.get(key, 0) if rt.pos.get((key, "s")) == s else 0
                if start > len(s):
                    rt.pos.pop(key, None)
                    return ""
                m = rx.search(s, start)
                if m is None:
                    rt.pos.pop(key, None)
                    rt.gpos = None
                    return ""
                rt.match, rt.match_subject = m, s
                end = m.end()
                rt.gpos = (s, end)
                rt.pos[key] = end if end > m.start() else end + 1
                rt.pos[(key, "s")] = s
                return 1
            return gmatch
        if want == LIST:
            def lmatch(f):
                s = to_str(get(f))
                rx = pat(f)
                if glob:
                    out = []
                    last = None
                    for m in rx.finditer(s):
                        last = m
                        rt.check()
                        if m.re.groups:
                            out.extend(m.groups())
                        else:
                            out.append(m.group(0))
                    if last is not None:
                        rt.match, rt.match_subject = last, s
                    return out
                m = rx.search(s)
                if m is None:
                    return []
                rt.match, rt.match_subject = m, s
                if m.re.groups:
                    return list(m.groups())
                return [1]
            return lmatch

        def smatch(f):
            s = get(f)
            s = s if type(s) is str else to_str(s)
            m = pat(f).search(s)
            if m is None:
                return ""
            rt.match, rt.match_subject = m, s
            return 1
        return smatch

    def subst(self, node, target):
        _, pat_node, repl_node, flags = node
        rt = self.rt
        pat = self.pattern(pat_node, flags)
        get, put = self.target_fn(target)
        if put is None and "r" not in flags:
            raise Unsupported("s/// on a value that is not a variable")
        glob = "g" in flags
        ret_new = "r" in flags
        if repl_node[0] == "str" and "\\" not in repl_node[1] and "$" not in repl_node[1]:
            repl_text = repl_node[1]
            repl_fn = None
        else:
            repl_text = None
            repl_fn = self.scalar(repl_node)
        # a replacement of text and $1..$N / $& only is built from the match itself, without
        # going through the variables (the common s/(..)/<$1>/g is several times faster)
        parts = _group_template(repl_node)
        top_group = max((g for _, g in parts or () if g is not None), default=0)

        def rep_parts(m):
            rt.check()
            return "".join([t if g is None else (m.group(g) or "") for t, g in parts])

        def subst(f):
            s = to_str(get(f))
            rx = pat(f)
            if repl_fn is None:
                if glob:
                    seen = []

                    def lit(m):
                        seen.append(m)
                        return repl_text
                    new, n = rx.subn(lit, s)
                    if n:
                        rt.match, rt.match_subject = seen[-1], s
                else:
                    # the engine directly when the subject is too short to need the deadline
                    m = rx.search(s) if rx.guard_needed(len(s)) else rx.raw.search(s)
                    if m is None:
                        n = 0
                        new = s
                    else:
                        n = 1
                        rt.match, rt.match_subject = m, s
                        new = s[:m.start()] + repl_text + s[m.end():]
            elif parts is not None and top_group <= rx.raw.groups:
                if glob:
                    seen = []

                    def rep_seen(m):
                        seen.append(m)
                        return rep_parts(m)
                    new, n = rx.subn(rep_seen, s)
                    if n:
                        rt.match, rt.match_subject = seen[-1], s
                else:
                    m = rx.search(s)
                    n = 0 if m is None else 1
                    if m is None:
                        new = s
                    else:
                        rt.match, rt.match_subject = m, s
                        new = s[:m.start()] + rep_parts(m) + s[m.end():]
            else:
                def rep(m):
                    rt.match, rt.match_subject = m, s
                    rt.check()
                    return to_str(repl_fn(f))
                if glob:
                    new, n = rx.subn(rep, s)
                else:
                    m = rx.search(s)
                    if m is None:
                        n = 0
                        new = s
                    else:
                        n = 1
                        new = s[:m.start()] + rep(m) + s[m.end():]
            if ret_new:
                return new
            if n:
                rt.budget.check_string(len(new))
                put(f, new)
                return n
            return ""
        return subst

    def s_subst(self, node):
        return self.subst(node, None)

    def trans(self, node, target):
        _, src, dst, flags = node
        get, put = self.target_fn(target)
        complement = "c" in flags
        delete = "d" in flags
        squeeze = "s" in flags
        ret_new = "r" in flags
        if not dst and not delete:
            dst = src
        elif len(dst) < len(src) and not delete and dst:
            dst = dst + dst[-1] * (len(src) - len(dst))
        table = {}
        if not complement:
            for i, ch in enumerate(src):
                if ch in table:
                    continue
                table[ch] = dst[i] if i < len(dst) else None
        srcset = set(src)
        count_only = not dst and not delete and not complement
        if count_only:
            table = {ch: ch for ch in src}

        if not complement and not squeeze:
            # str.translate does the mapping and, deleting every listed character, the count
            mapping = {ord(ch): r for ch, r in table.items()}
            listed = dict.fromkeys(mapping)

            def tr_table(f):
                s = to_str(get(f))
                n = len(s) - len(s.translate(listed))
                if ret_new:
                    return s.translate(mapping)
                if n and not count_only and put is not None:
                    new = s.translate(mapping)
                    if new != s:
                        put(f, new)
                return n
            return tr_table

        def tr(f):
            s = to_str(get(f))
            out = []
            n = 0
            last_out = None
            for ch in s:
                if complement:
                    hit = ch not in srcset
                    repl = (dst[-1] if dst else ch) if hit and not delete else (
                        None if hit else ch)
                    if hit and delete and not dst:
                        repl = None
                else:
                    hit = ch in table
                    repl = table[ch] if hit else ch
                if hit:
                    n += 1
                    if repl is None:
                        last_out = None
                        continue
                    if squeeze and last_out == repl and out and out[-1] == repl:
                        continue
                    out.append(repl)
                    last_out = repl
                else:
                    out.append(ch)
                    last_out = None
            new = "".join(out)
            if ret_new:
                return new
            if new != s and put is not None:
                put(f, new)
            return n
        return tr

    def s_trans(self, node):
        return self.trans(node, None)

    # -- calls
    def flat_args(self, args: list) -> list:
        """The argument nodes of a call (a single comma list is spread)."""
        if len(args) == 1 and args[0][0] == "list":
            return list(args[0][1])
        return list(args)

    def s_call(self, node):
        return self.call(node, SCALAR)

    def l_call(self, node):
        return self.call(node, LIST)

    def call(self, node, want):
        name = node[1]
        rt = self.rt
        from pysh.builtins.perl import builtins as B

        if name in B.LIST_UTIL and (name in rt.imports or name not in rt.subs):
            if name in rt.imports or ("List::Util" in rt.imports):
                return B.list_util(self, name, node[2], want)
        if name in ("floor", "ceil", "fmod", "pow", "strftime") and name not in rt.subs:
            return B.posix(self, name, node[2], want)
        args = self.listv(("list", node[2])) if node[2] else (lambda f: [])
        ref = rt.subs.setdefault(name, CodeRef(None, name))

        def call(f):
            fn = ref.fn
            if fn is None:
                raise PerlDie(f"Undefined subroutine &main::{name} called")
            return fn(args(f), want)
        if want == SCALAR:
            return call
        return call

    def s_amp_call(self, node):
        return self.amp_call(node, SCALAR)

    def l_amp_call(self, node):
        return self.amp_call(node, LIST)

    def amp_call(self, node, want):
        ref_node, args = node[1], node[2]
        rt = self.rt
        if ref_node[0] == "funcname":
            name = ref_node[1]
            ref = rt.subs.setdefault(name, CodeRef(None, name))
            get_ref = lambda f: ref  # noqa: E731
        else:
            get_ref = self.scalar(ref_node)
        argf = self.listv(("list", args)) if args else (lambda f: list(f.args))

        def call(f):
            r = get_ref(f)
            if not isinstance(r, CodeRef) or r.fn is None:
                raise PerlDie("Not a CODE reference")
            return r.fn(argf(f), want)
        return call

    def s_callref(self, node):
        return self.callref(node, SCALAR)

    def l_callref(self, node):
        return self.callref(node, LIST)

    def callref(self, node, want):
        get_ref = self.scalar(node[1])
        argf = self.listv(("list", node[2])) if node[2] else (lambda f: [])

        def call(f):
            r = get_ref(f)
            if not isinstance(r, CodeRef) or r.fn is None:
                raise PerlDie("Not a CODE reference")
            return r.fn(argf(f), want)
        return call

    def s_return(self, node):
        val = self.listv(node[1]) if node[1] is not None else (lambda f: [])

        def ret(f):
            raise ReturnValue(val(f))
        return ret

    def s_last(self, node):
        return self.loop_control("last", node[1])

    def s_next(self, node):
        return self.loop_control("next", node[1])

    def s_redo(self, node):
        raise Unsupported("redo")

    def loop_control(self, kind, label):
        def ctl(f):
            raise LoopControl(kind, label)
        return ctl

    def s_do_block(self, node):
        self.scope.blocks.append({})
        stmts = node[1]
        pre = self.block(stmts[:-1], new_scope=False)
        last = stmts[-1] if stmts else None
        if last is not None and last[0] == "expr":
            val = self.scalar(last[1])
        else:
            val = self.block([last], new_scope=False) if last is not None else (lambda f: None)
        self.scope.blocks.pop()
        return lambda f: (pre(f), val(f))[1]

    def l_do_block(self, node):
        self.scope.blocks.append({})
        stmts = node[1]
        pre = self.block(stmts[:-1], new_scope=False)
        last = stmts[-1] if stmts else None
        if last is not None and last[0] == "expr":
            val = self.listv(last[1])
        else:
            fn = self.block([last], new_scope=False) if last is not None else (lambda f: None)
            val = lambda f: [fn(f)]  # noqa: E731
        self.scope.blocks.pop()
        return lambda f: (pre(f), val(f))[1]

    def s_eval_block(self, node):
        body = self.s_do_block(("do_block", node[1]))
        rt = self.rt

        def ev(f):
            try:
                v = body(f)
                rt.scalars["@"] = ""
                return v
            except PerlDie as e:
                rt.scalars["@"] = e.value if not isinstance(e.value, str) else (
                    e.value if e.value.endswith("\n") else e.value + " at -e line 1.\n")
                return None
        return ev

    # -- functions: see builtins.py
    def s_func(self, node):
        from pysh.builtins.perl import builtins as B
        return B.compile_func(self, node, SCALAR)

    def l_func(self, node):
        from pysh.builtins.perl import builtins as B
        return B.compile_func(self, node, LIST)

    def s_print(self, node):
        from pysh.builtins.perl import builtins as B
        return B.compile_print(self, node)

    def s_split(self, node):
        from pysh.builtins.perl import builtins as B
        fn = B.compile_split(self, node)
        return lambda f: len(fn(f))

    def l_split(self, node):
        from pysh.builtins.perl import builtins as B
        return B.compile_split(self, node)

    def s_blockop(self, node):
        from pysh.builtins.perl import builtins as B
        return B.compile_blockop(self, node, SCALAR)

    def l_blockop(self, node):
        from pysh.builtins.perl import builtins as B
        return B.compile_blockop(self, node, LIST)

    def s_readline(self, node):
        from pysh.builtins.perl import builtins as B
        return B.compile_readline(self, node, SCALAR)

    def l_readline(self, node):
        from pysh.builtins.perl import builtins as B
        return B.compile_readline(self, node, LIST)

    def s_filetest(self, node):
        from pysh.builtins.perl import builtins as B
        return B.compile_filetest(self, node)

    def s_stringify(self, node):
        fn = self.scalar(node[1])
        return lambda f: to_str(fn(f))


# ------------------------------------------------------------------------ helpers
def _index_slice(container, indexes):
    """An array or list slice: one element (or undef) per index, negative indexes from the end."""
    def sl(f):
        a = container(f)
        out = []
        for i in indexes(f):
            i = to_int(i)
            out.append(a[i] if -len(a) <= i < len(a) else None)
        return out
    return sl


def _setter0(slot: int):
    def put(f, v):
        f.pad[slot] = v
    return put


def _readonly(name: str):
    def put(f, v):
        raise PerlDie("Modification of a read-only value attempted")
    return put


def _readonly_fn(v):
    raise PerlDie("Modification of a read-only value attempted")


def _truth(b: bool):
    return 1 if b else ""


def _write_back(where, i, old, new) -> None:
    """foreach aliasing: a loop variable changed in the body changes the element."""
    if where is None or new is old:
        return
    for a, off, n in where:
        if off <= i < off + n:
            k = i - off
            if k < len(a):
                a[k] = new
            return


def _is_list_target(t) -> bool:
    k = t[0]
    if k in ("array", "hash", "deref_array", "deref_hash", "paren", "list", "aslice",
             "hslice"):
        return True
    if k in ("my", "our"):
        return t[2] or t[1][0][0] in "@%"
    if k == "local":
        return _is_list_target(t[1])
    return False


def _looks_num(s: str) -> bool:
    from pysh.builtins.perl.values import looks_like_number
    return looks_like_number(s)


def _last_paren(m):
    if m is None:
        return None
    for g in reversed(m.groups()):
        if g is not None:
            return g
    return None


def _match_offsets(m, which: str) -> list:
    if m is None:
        return []
    n = len(m.groups()) + 1
    return [m.start(i) if which == "-" else m.end(i) for i in range(n)]


def _errno_str(code: int) -> str:
    if not code:
        return ""
    return os.strerror(code)


def _quotemeta(s: str) -> str:
    return "".join(c if c.isalnum() and c.isascii() or c == "_" else "\\" + c for c in s)


def _get_fh(rt: Runtime, name: str):
    if name == "STDIN":
        return rt.stdin
    if name == "ARGV":
        return rt.argv
    return rt.filehandles.get(name)


def _num_cmp(a, b):
    x, y = to_num(a), to_num(b)
    if x != x or y != y:
        return None
    return (x > y) - (x < y)


def _add(a, b):
    x = a if type(a) is int else to_num(a)
    y = b if type(b) is int else to_num(b)
    r = x + y
    if type(r) is int and (r > UV_MAX or r < -(1 << 63)):
        return float(r)
    return r


def _sub(a, b):
    return norm_int(to_num(a) - to_num(b))


def _mul(a, b):
    return norm_int(to_num(a) * to_num(b))


def _div(a, b):
    x, y = to_num(a), to_num(b)
    if y == 0:
        raise PerlDie("Illegal division by zero")
    if type(x) is int and type(y) is int and x % y == 0:
        return x // y
    return x / y


def _mod(a, b):
    x, y = to_num(a), to_num(b)
    if isinstance(x, float) or isinstance(y, float):
        if math.isinf(x) or math.isinf(y) or x != x or y != y:
            return math.nan
        x, y = int(x), int(y)
    if y == 0:
        raise PerlDie("Illegal modulus zero")
    return x % y


def _pow(a, b):
    """** gives a floating-point number in perl (2**10 prints 1024, 2**53 in %.15g)."""
    x, y = to_num(a), to_num(b)
    try:
        return float(x) ** float(y)
    except OverflowError:
        return math.inf
    except ZeroDivisionError:
        return math.inf
    except ValueError:
        return math.nan


def _cmp_num(a, b):
    r = _num_cmp(a, b)
    return r


def _shl(a, b):
    return (to_int(a) << to_int(b)) & UV_MAX


def _shr(a, b):
    return (to_int(a) & UV_MAX) >> to_int(b)


def _band(a, b):
    if type(a) is str and type(b) is str:
        return "".join(chr(ord(x) & ord(y)) for x, y in zip(a, b, strict=False))
    return (to_int(a) & to_int(b)) & UV_MAX


def _bor(a, b):
    return (to_int(a) | to_int(b)) & UV_MAX


def _bxor(a, b):
    return (to_int(a) ^ to_int(b)) & UV_MAX


_BINOPS = {
    "+": _add, "-": _sub, "*": _mul, "/": _div, "%": _mod, "**": _pow,
    ".": lambda a, b: to_str(a) + to_str(b),
    "x": lambda a, b: to_str(a) * max(0, to_int(b)),
    "==": lambda a, b: _truth(to_num(a) == to_num(b)),
    "!=": lambda a, b: _truth(to_num(a) != to_num(b)),
    "<": lambda a, b: _truth(to_num(a) < to_num(b)),
    ">": lambda a, b: _truth(to_num(a) > to_num(b)),
    "<=": lambda a, b: _truth(to_num(a) <= to_num(b)),
    ">=": lambda a, b: _truth(to_num(a) >= to_num(b)),
    "<=>": _cmp_num,
    "eq": lambda a, b: _truth(to_str(a) == to_str(b)),
    "ne": lambda a, b: _truth(to_str(a) != to_str(b)),
    "lt": lambda a, b: _truth(to_str(a) < to_str(b)),
    "gt": lambda a, b: _truth(to_str(a) > to_str(b)),
    "le": lambda a, b: _truth(to_str(a) <= to_str(b)),
    "ge": lambda a, b: _truth(to_str(a) >= to_str(b)),
    "cmp": lambda a, b: (to_str(a) > to_str(b)) - (to_str(a) < to_str(b)),
    "<<": _shl, ">>": _shr, "&": _band, "|": _bor, "^": _bxor,
    "&&": lambda a, b: b if to_bool(a) else a,
    "||": lambda a, b: a if to_bool(a) else b,
}


def compile_regex(rt: Runtime, text: str, icase: bool, multiline: bool, dotall: bool,
                  extended: bool):
    key = (text, icase, multiline, dotall, extended)
    rx = rt.regex_cache.get(key)
    if rx is not None:
        return rx
    src = text
    if extended:
        src = "(?x)" + src
    try:
        tr = compile_perl(src, icase=icase, multiline=multiline)
        rx = compile_python("(?a)" + tr.python, icase=icase, multiline=multiline,
                            dotall=dotall, budget=rt.budget)
    except RegexError as e:
        raise PerlDie(f"{e} in regex; marked by <-- HERE in m/{text} <-- HERE / at -e "
                      "line 1.\n") from None
    if len(rt.regex_cache) > 500:
        rt.regex_cache.clear()
    rt.regex_cache[key] = rx
    return rx


__all__ = ["Compiler", "Runtime", "Frame", "SCALAR", "LIST", "fmt_float", "sprintf",
           "SprintfError", "time", "Ref"]


def _group_template(node) -> list | None:
    """[(text, None) | (None, group)] of a replacement made of text, $1..$N and $& only."""
    if node[0] != "interp":
        return None
    parts = []
    for p in node[1]:
        if p[0] == "str":
            parts.append((p[1], None))
        elif p[0] == "scalar_value" and p[1][0] == "scalar" and (
                p[1][1] == "&" or (p[1][1].isdigit() and p[1][1] != "0")):
            parts.append((None, 0 if p[1][1] == "&" else int(p[1][1])))
        else:
            return None
    return parts
