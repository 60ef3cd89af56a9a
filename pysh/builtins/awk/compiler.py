# ruff: noqa: UP031 - C printf formatting is the point here
"""Compile the awk syntax tree to Python source.

Each awk global scalar is a module global ``V_name``, each array ``A_name``
(an AwkArray), each function ``F_name``; parameters are locals ``p_name``.
Expressions are typed at compile time (num / str / any) so that numeric and
string contexts convert only when they must. BEGIN, the record loop and END
are async functions; a user function is async only when it (or a callee)
does I/O that waits (getline, system, close, fflush).
"""

from __future__ import annotations

from pysh.builtins.awk import nodes as N
from pysh.builtins.awk.awkre import RegexError, check
from pysh.builtins.awk.errors import AwkSyntaxError
from pysh.builtins.awk.format import _plan as _fmt_plan
from pysh.builtins.awk.parser import ARRAY_ARGS

NUM, STR, ANY = "num", "str", "any"

NUM_SPECIALS = {"NR", "FNR", "RSTART", "RLENGTH"}
STR_SPECIALS = {"FS", "OFS", "ORS", "RS", "SUBSEP", "CONVFMT", "OFMT", "FILENAME"}
SPECIAL_ARRAYS = {"ENVIRON", "ARGV", "PROCINFO"}
# gawk's special variables pysh's awk does not implement: a program naming one is refused
UNSUPPORTED_GAWK = {"FPAT", "FIELDWIDTHS", "RT", "ARGIND", "BINMODE", "LINT", "PREC",
                    "ROUNDMODE", "SYMTAB", "FUNCTAB", "TEXTDOMAIN"}
# gawk's special variables it does: globals the record loop must not keep in a local
GAWK_SCALARS = {"IGNORECASE", "ERRNO"}
ARITH = {"+": "+", "-": "-", "*": "*", "/": "/"}
CMP = {"<": "<", "<=": "<=", ">": ">", ">=": ">=", "==": "==", "!=": "!="}
CMP_FUNC = {"<": "_lt", "<=": "_le", ">": "_gt", ">=": "_ge", "==": "_eq", "!=": "_ne"}


class CompileError(AwkSyntaxError):
    status = 2


class RuleError(CompileError):
    """gawk's non-fatal "error:" for a statement its rule cannot hold (exit 1)."""

    status = 1


def _walk(node):
    """Every node below (and including) node."""
    stack = [node]
    while stack:
        n = stack.pop()
        if n is None:
            continue
        if isinstance(n, list):
            stack.extend(n)
            continue
        if not isinstance(n, N.Node):
            continue
        yield n
        for f in n.fields:
            v = getattr(n, f)
            if isinstance(v, (N.Node, list)):
                stack.append(v)


class Scope:
    """Names of one function (params) or of the main program (params empty)."""

    def __init__(self, fn: N.Function | None):
        self.fn = fn
        self.params = list(fn.params) if fn else []


class Compiler:
    def __init__(self, prog: N.Program, src: str, icase: bool = False):
        self.prog = prog
        names = {n.name for n in _walk([p for it in prog.items for p in (
            it.pattern, it.pattern2, it.action)] + [fn.body for fn in prog.functions.values()])
            if isinstance(n, (N.Var, N.Index, N.In))}
        # IGNORECASE named anywhere (or set with -v): comparisons and regexes ask it at run time
        self.icase = icase or "IGNORECASE" in names
        # PROCINFO named anywhere: for-in loops ask PROCINFO["sorted_in"] for their order
        self.sorted_loops = "PROCINFO" in names
        self.file_rules = any(it.kind in ("BEGINFILE", "ENDFILE") for it in prog.items)
        self.src = src
        self.lines: list[str] = []
        self.linemap: list[int] = []
        self.cur_line = 0
        self.indent = 0
        self.tmp = 0
        self.regexes: dict[str, str] = {}  # source -> name
        self.consts: dict[str, object] = {}
        self.global_arrays: set[str] = set()
        self.global_scalars: set[str] = set()
        self.param_arrays: dict[str, set[str]] = {}  # function -> params used as arrays
        self.param_scalars: dict[str, set[str]] = {}
        self.async_funcs: set[str] = set()
        self.scope: Scope | None = None
        self.loops: list[tuple] = []  # stack of (kind, extra)
        self.in_main_body = False
        self.rule_kind = ""  # BEGIN END main function
        self.is_async = True
        self.uses_getline_main = False
        self.assigns_rs = False
        self.inline_fields = False
        self.stable = False
        self.localized: set[str] = set()
        self.warnings: list[tuple[int, str]] = []

    # -- errors -------------------------------------------------------------------
    def error(self, msg: str, node=None):
        line = getattr(node, "line", 0) or self.cur_line or 1
        raise CompileError(msg, line, -1, self.src)

    # -- emission -------------------------------------------------------------------
    def emit(self, code: str) -> None:
        self.lines.append("    " * self.indent + code)
        self.linemap.append(self.cur_line)

    def newtmp(self, prefix: str = "_t") -> str:
        self.tmp += 1
        return f"{prefix}{self.tmp}"

    def regex_const(self, source: str) -> str:
        name = self.regexes.get(source)
        if name is None:
            try:
                check(source)
            except RegexError as e:
                self.error(f"{e}: /{source}/")
            name = f"_RX{len(self.regexes)}"
            self.regexes[source] = name
        return name

    # -- analysis ---------------------------------------------------------------------
    def analyse(self) -> None:
        prog = self.prog
        funcs = prog.functions
        for name in funcs:
            self.param_arrays[name] = set()
            self.param_scalars[name] = set()
        links: list[tuple[str | None, str, str, int]] = []  # (scope fn, name, callee, index)

        def scope_of(fn_name, var):
            if fn_name is not None and var in funcs[fn_name].params:
                return ("p", fn_name, var)
            return ("g", None, var)

        first_use: dict = {}

        def mark(kind, fn_name, var, node):
            where = scope_of(fn_name, var)
            if var in funcs and where[0] == "g":
                self.error(f"function `{var}' called with space between name and `(',\nor used as a variable or an array", node)
            if where[0] == "g":
                (self.global_arrays if kind == "a" else self.global_scalars).add(var)
            else:
                (self.param_arrays if kind == "a" else self.param_scalars)[fn_name].add(var)
            key = (fn_name if where[0] == "p" else None, var)
            prev = first_use.get(key)
            if prev is None or node.seq < prev[0]:
                first_use[key] = (node.seq, kind, node)

        roots = [(p, None) for it in prog.items for p in (it.pattern, it.pattern2, it.action)
                 if p is not None] + [(fn.body, name) for name, fn in funcs.items()]
        for root, _ in roots:
            for n in _walk(root):
                name = n.array if isinstance(n, N.ForIn) else getattr(n, "name", None) \
                    if isinstance(n, (N.Var, N.Index, N.In, N.Delete)) else None
                if name in UNSUPPORTED_GAWK:
                    self.error(f"`{name}' (a gawk extension) is not supported by pysh's awk", n)
        for root, fn_name in roots:
            skip = set()  # Var nodes passed whole (call arguments, length(x), split's array)
            for n in _walk(root):
                if isinstance(n, N.Call):
                    if n.name not in funcs:
                        self.error(f"function `{n.name}' not defined", n)
                    callee = funcs[n.name]
                    if len(n.args) > len(callee.params):
                        self.warnings.append((n.line, f"function `{n.name}' called with more arguments than declared"))
                        del n.args[len(callee.params):]
                    for i, a in enumerate(n.args):
                        a = _ungroup(a)
                        if isinstance(a, N.Var):
                            skip.add(id(a))
                            links.append((fn_name, a.name, n.name, i))
                elif isinstance(n, N.Builtin):
                    for i, a in enumerate(n.args):
                        if (n.name, i) in ARRAY_ARGS:
                            skip.add(id(a))
                            mark("a", fn_name, a.name, n)
                    if n.name == "length" and n.args and isinstance(_ungroup(n.args[0]), N.Var):
                        skip.add(id(_ungroup(n.args[0])))
            for n in _walk(root):
                if isinstance(n, N.Var):
                    if id(n) not in skip:
                        mark("s", fn_name, n.name, n)
                elif isinstance(n, (N.Index, N.In)):
                    mark("a", fn_name, n.name, n)
                elif isinstance(n, N.ForIn):
                    mark("a", fn_name, n.array, n)
                    mark("s", fn_name, n.var, n)
                elif isinstance(n, N.Delete):
                    mark("a", fn_name, n.name, n)

        # propagate array-ness through call arguments until nothing changes
        changed = True
        while changed:
            changed = False
            for fn_name, var, callee, i in links:
                if not callee:
                    continue
                where = scope_of(fn_name, var)
                cparam = funcs[callee].params[i]
                caller_is_array = (var in self.global_arrays) if where[0] == "g" else (var in self.param_arrays[fn_name])
                callee_is_array = cparam in self.param_arrays[callee]
                if caller_is_array and not callee_is_array:
                    self.param_arrays[callee].add(cparam)
                    changed = True
                elif callee_is_array and not caller_is_array:
                    caller_scalar = (var in self.global_scalars) if where[0] == "g" \
                        else (var in self.param_scalars[fn_name])
                    if caller_scalar:
                        self.error(f"attempt to use scalar parameter `{cparam}' as an array")
                    if where[0] == "g":
                        self.global_arrays.add(var)
                    else:
                        self.param_arrays[fn_name].add(var)
                    changed = True
        # a name that is both
        for v in sorted(self.global_arrays & self.global_scalars):
            seq, kind, node = first_use.get((None, v), (0, "a", None))
            if kind == "s":
                self.error(f"attempt to use scalar `{v}' as an array", node)
            self.error(f"attempt to use array `{v}' in a scalar context", node)
        for v in self.global_arrays & SPECIAL_VARS_SCALAR:
            self.error(f"attempt to use scalar `{v}' as an array")
        for v in self.global_scalars & SPECIAL_ARRAYS:
            self.error(f"attempt to use array `{v}' in a scalar context")
        for fname in funcs:
            both = self.param_arrays[fname] & self.param_scalars[fname]
            for v in sorted(both):
                seq, kind, node = first_use.get((fname, v), (0, "s", None))
                if kind == "a":
                    self.error(f"attempt to use array parameter `{v}' in a scalar context", node)
                self.error(f"attempt to use scalar parameter `{v}' as an array", node)
        # scalar args to array params
        for fn_name, var, callee, i in links:
            if not callee:
                continue
            cparam = funcs[callee].params[i]
            if cparam in self.param_arrays[callee]:
                where = scope_of(fn_name, var)
                is_scalar = (var in self.global_scalars) if where[0] == "g" else (var in self.param_scalars[fn_name])
                if is_scalar:
                    self.error(f"attempt to use scalar parameter `{cparam}' as an array")
        for fn in funcs.values():
            for n in _walk(fn.body):
                if isinstance(n, N.Call):
                    callee = funcs[n.name]
                    for i, a in enumerate(n.args):
                        if callee.params[i] in self.param_arrays[n.name] and not isinstance(a, N.Var):
                            self.error(f"attempt to use scalar parameter `{callee.params[i]}' as an array", n)
        for item in prog.items:
            for part in (item.pattern, item.pattern2, item.action):
                for n in _walk(part):
                    if isinstance(n, N.Call):
                        callee = funcs[n.name]
                        for i, a in enumerate(n.args):
                            if callee.params[i] in self.param_arrays[n.name] and not isinstance(a, N.Var):
                                self.error(f"attempt to use scalar parameter `{callee.params[i]}' as an array", n)

        # which functions wait (async)
        direct = {}
        calls = {}
        for name, fn in funcs.items():
            d = False
            cs = set()
            for n in _walk(fn.body):
                if isinstance(n, N.Getline):
                    d = True
                elif isinstance(n, N.Builtin) and n.name in ("system", "close", "fflush"):
                    d = True
                elif isinstance(n, N.Call):
                    cs.add(n.name)
            direct[name] = d
            calls[name] = cs
        self.async_funcs = {n for n, d in direct.items() if d}
        changed = True
        while changed:
            changed = False
            for name in funcs:
                if name not in self.async_funcs and calls[name] & self.async_funcs:
                    self.async_funcs.add(name)
                    changed = True

        # plain getline or RS changes outside BEGIN: records one at a time
        for root in [p for it in prog.items for p in (it.pattern, it.pattern2, it.action) if p is not None] + [fn.body for fn in funcs.values()]:
            for n in _walk(root):
                if isinstance(n, N.Getline) and n.kind == "simple":
                    self.uses_getline_main = True
        for it in prog.items:
            if it.kind == "BEGIN":
                continue
            for p in (it.pattern, it.pattern2, it.action):
                if self._assigns_rs(p):
                    self.assigns_rs = True
        for fn in funcs.values():
            if self._assigns_rs(fn.body):
                self.assigns_rs = True

    def compute_split_limit(self) -> int:
        """The highest constant field index of the whole program, or -1 when any code
        reads NF, a computed field, or more than a few fields."""
        roots = [p for it in self.prog.items for p in (it.pattern, it.pattern2, it.action)
                 if p is not None] + [fn.body for fn in self.prog.functions.values()]
        k = 0
        for n in _walk(roots):
            if isinstance(n, N.Var) and n.name == "NF":
                return -1
            if isinstance(n, N.Field):
                idx = _ungroup(n.index)
                if not (isinstance(idx, N.Num) and idx.value.is_integer() and 0 <= idx.value <= 8):
                    return -1
                k = max(k, int(idx.value))
        return k if k > 0 else -1

    def record_is_stable(self) -> bool:
        """True when no code changes $0, a field or NF, or reads a record by getline."""
        roots = [p for it in self.prog.items for p in (it.pattern, it.pattern2, it.action)
                 if p is not None] + [fn.body for fn in self.prog.functions.values()]
        for n in _walk(roots):
            targets = []
            if isinstance(n, (N.Assign, N.Incr)):
                targets.append(n.target)
            elif isinstance(n, N.Getline):
                if n.target is None:
                    return False
                targets.append(n.target)
            elif isinstance(n, N.Builtin) and n.name in ("sub", "gsub"):
                if len(n.args) < 3:
                    return False
                targets.append(n.args[2])
            for t in targets:
                t = _ungroup(t)
                if isinstance(t, N.Field) or (isinstance(t, N.Var) and t.name == "NF"):
                    return False
        return True

    def _assigns_rs(self, root) -> bool:
        for n in _walk(root):
            if isinstance(n, (N.Assign, N.Incr)) and isinstance(n.target, N.Var) and n.target.name == "RS":
                return True
            if isinstance(n, N.Getline) and isinstance(n.target, N.Var) and n.target.name == "RS":
                return True
            if isinstance(n, N.Builtin) and n.name in ("sub", "gsub") and len(n.args) == 3 \
                    and isinstance(n.args[2], N.Var) and n.args[2].name == "RS":
                return True
        return False

    # -- names ---------------------------------------------------------------------------
    def is_param(self, name: str) -> bool:
        return self.scope is not None and name in self.scope.params

    def is_array(self, name: str) -> bool:
        if self.is_param(name):
            return name in self.param_arrays[self.scope.fn.name]
        return name in self.global_arrays or name in SPECIAL_ARRAYS

    def array_ref(self, name: str, node=None) -> str:
        if self.is_param(name):
            if name in self.param_scalars[self.scope.fn.name]:
                self.error(f"attempt to use scalar parameter `{name}' as an array", node)
            return "p_" + name
        if name in self.prog.functions:
            self.error(f"function `{name}' called with space between name and `(',\nor used as a variable or an array", node)
        return "A_" + name

    def var_read(self, name: str) -> tuple[str, str]:
        if self.is_param(name):
            if name in self.param_arrays[self.scope.fn.name]:
                return "p_" + name, ANY
            return "p_" + name, ANY
        if name == "NF":
            if self.inline_fields and self.in_main_body:
                return "float(len(_f))", NUM
            return "_R.get_nf()", NUM
        if name in NUM_SPECIALS:
            return self.gref(name), NUM
        if name in STR_SPECIALS:
            return "V_" + name, STR if name != "FILENAME" else ANY
        if name in self.global_arrays or name in SPECIAL_ARRAYS:
            self.error(f"attempt to use array `{name}' in a scalar context")
        return self.gref(name), ANY

    def gref(self, name: str) -> str:
        """The Python name of awk global `name` here (a local copy inside the record loop)."""
        if self.in_main_body and name in self.localized:
            return "L_" + name
        return "V_" + name

    # -- conversions ----------------------------------------------------------------------
    def num(self, node) -> str:
        node = _ungroup(node)
        if isinstance(node, N.Num):
            return _numlit(node.value)
        if isinstance(node, N.Field):
            k = self.inline_nf(node)
            if k is not None:
                return f"_snum({self.nf_field(k)})"
            idx = self.field_index(node)
            if self.inline(idx):
                if idx == 0:
                    return "_snum(_rec)"
                return f"(_snum(_f[{idx - 1}]) if len(_f) > {idx - 1} else 0.0)"
            if isinstance(idx, int):
                if idx == 0:
                    return f"_num({self.rec0()})"
                return f"_fnum({idx})"
            return f"_R.dnum({idx[0]})"
        if isinstance(node, N.Var) and not self.is_param(node.name) and node.name not in NUM_SPECIALS \
                and node.name != "NF":
            code, kind = self.var_read(node.name)
            if kind == NUM:
                return code
            return f"({code} if {code}.__class__ is float else _num({code}))"
        if isinstance(node, N.Var) and self.is_param(node.name):
            code = "p_" + node.name
            return f"({code} if {code}.__class__ is float else _num({code}))"
        code, kind = self.ex(node)
        if kind == NUM:
            return code
        return f"_num({code})"

    def str_(self, node) -> str:
        node = _ungroup(node)
        if isinstance(node, N.Str):
            return repr(node.value)
        if isinstance(node, N.Field):
            k = self.inline_nf(node)
            if k is not None:
                return self.nf_field(k)
            idx = self.field_index(node)
            if self.inline(idx):
                return "_rec" if idx == 0 else f"(_f[{idx - 1}] if len(_f) > {idx - 1} else '')"
            if isinstance(idx, int):
                return self.rec0() if idx == 0 else f"_fstr({idx})"
            return f"_R.dstr({idx[0]})"
        code, kind = self.ex(node)
        if kind == STR:
            return code
        if kind == NUM:
            if isinstance(node, N.Num) and node.value.is_integer():
                return repr("%d" % node.value)
            return f"_ntos({code})"
        return f"_str({code})"

    def out_str(self, node) -> str:
        node2 = _ungroup(node)
        if isinstance(node2, N.Field):
            k = self.inline_nf(node2)
            if k is not None:
                return self.nf_field(k)
            idx = self.field_index(node2)
            if self.inline(idx):
                return "_rec" if idx == 0 else f"(_f[{idx - 1}] if len(_f) > {idx - 1} else '')"
            if isinstance(idx, int):
                return self.rec0() if idx == 0 else f"_fout({idx})"
            return f"_ostr(_R.dval({idx[0]}))"
        if isinstance(node2, N.Str):
            return repr(node2.value)
        code, kind = self.ex(node)
        if kind == STR:
            return code
        if kind == NUM:
            if isinstance(node2, N.Num) and node2.value.is_integer():
                return repr("%d" % node2.value)
            return f"_ontos({code})"
        return f"_ostr({code})"

    def val(self, node) -> str:
        return self.ex(node)[0]

    def key(self, subs: list) -> str:
        if len(subs) == 1:
            return self.key1(subs[0])
        parts = [self.key1(s) for s in subs]
        return "V_SUBSEP.join((" + ", ".join(parts) + ",))"

    def key1(self, node) -> str:
        node = _ungroup(node)
        if isinstance(node, N.Num):
            if node.value.is_integer():
                return repr("%d" % node.value)
            return f"_key({_numlit(node.value)})"
        if isinstance(node, N.Str):
            return repr(node.value)
        if isinstance(node, N.Field):
            return self.str_(node)
        code, kind = self.ex(node)
        if kind == STR:
            return code
        return f"_key({code})"

    def cond(self, node) -> str:
        node = _ungroup(node)
        t = type(node)
        if t is N.Compare:
            return self.compare(node)
        if t is N.Match:
            return self.match(node)
        if t is N.In:
            return f"({self.key(node.subs)} in {self.array_ref(node.name, node)})"
        if t is N.And:
            return f"({self.cond(node.a)} and {self.cond(node.b)})"
        if t is N.Or:
            return f"({self.cond(node.a)} or {self.cond(node.b)})"
        if t is N.Not:
            return f"(not {self.cond(node.a)})"
        if t is N.Regex:
            return f"({self.regex_const(node.source)}.search({self.rec0()}) is not None)"
        if t is N.Num:
            return "True" if node.value != 0 else "False"
        if t is N.Str:
            return "True" if node.value != "" else "False"
        if t is N.Field:
            idx = self.field_index(node)
            if self.inline(idx):
                return f"_bool({self.ex_Field(node)[0]})"
            if isinstance(idx, int):
                return f"_bool(_fval({idx}))" if idx else f"_bool(StrNum({self.rec0()}))"
            return f"_bool(_R.dval({idx[0]}))"
        code, kind = self.ex(node)
        if kind == NUM:
            return f"({code} != 0.0)"
        if kind == STR:
            return f"({code} != '')"
        return f"_bool({code})"

    def boolval(self, c: str) -> str:
        return f"(1.0 if {c} else 0.0)"

    def rec0(self) -> str:
        """$0: the loop's own record while nothing can change it."""
        return "_rec" if self.in_main_body and self.stable else "_R.get0()"

    def inline_nf(self, node):
        """k for $NF / $(NF-k) read from the loop's field list, else None."""
        if not (self.inline_fields and self.in_main_body):
            return None
        idx = _ungroup(node.index)
        if isinstance(idx, N.Var) and idx.name == "NF":
            return 0
        if (isinstance(idx, N.Binary) and idx.op == "-" and isinstance(_ungroup(idx.a), N.Var)
                and _ungroup(idx.a).name == "NF" and isinstance(_ungroup(idx.b), N.Num)
                and _ungroup(idx.b).value.is_integer() and 0 <= _ungroup(idx.b).value < 100):
            return int(_ungroup(idx.b).value)
        return None

    def nf_field(self, k: int) -> str:
        return f"(_f[-{k + 1}] if len(_f) > {k} else _R.dstr(float(len(_f) - {k})))"

    def inline(self, idx) -> bool:
        """Field idx (an int) is read straight from the record loop's local field list."""
        return self.inline_fields and self.in_main_body and isinstance(idx, int)

    def field_index(self, node):
        """An int for a constant field index, else (code,) of the index value."""
        idx = _ungroup(node.index)
        if isinstance(idx, N.Num) and idx.value >= 0 and idx.value.is_integer() and idx.value < 1e9:
            return int(idx.value)
        if isinstance(idx, N.Num):
            return (self.num(idx),)
        return (self.val(idx),)

    # -- expressions -------------------------------------------------------------------------
    def ex(self, node) -> tuple[str, str]:
        t = type(node)
        meth = getattr(self, "ex_" + t.__name__, None)
        if meth is None:
            self.error("syntax error", node)
        return meth(node)

    def ex_Group(self, node):
        code, kind = self.ex(node.expr)
        return code, kind

    def ex_GroupList(self, node):
        self.error("syntax error", node)

    def ex_Num(self, node):
        return _numlit(node.value), NUM

    def ex_Str(self, node):
        return repr(node.value), STR

    def ex_Regex(self, node):
        return self.boolval(self.cond(node)), NUM

    def ex_Var(self, node):
        return self.var_read(node.name)

    def ex_Field(self, node):
        k = self.inline_nf(node)
        if k is not None:
            return f"StrNum({self.nf_field(k)})", ANY
        idx = self.field_index(node)
        if self.inline(idx):
            if idx == 0:
                return "StrNum(_rec)", ANY
            return f"(StrNum(_f[{idx - 1}]) if len(_f) > {idx - 1} else '')", ANY
        if isinstance(idx, int):
            if idx == 0:
                return f"StrNum({self.rec0()})", ANY
            return f"_fval({idx})", ANY
        return f"_R.dval({idx[0]})", ANY

    def ex_Index(self, node):
        return f"{self.array_ref(node.name, node)}[{self.key(node.subs)}]", ANY

    def ex_Cond(self, node):
        a, ka = self.ex(node.a)
        b, kb = self.ex(node.b)
        kind = ka if ka == kb else ANY
        return f"({a} if {self.cond(node.test)} else {b})", kind

    def ex_And(self, node):
        return self.boolval(self.cond(node)), NUM

    ex_Or = ex_And
    ex_Not = ex_And
    ex_Compare = ex_And
    ex_Match = ex_And
    ex_In = ex_And

    def ex_Unary(self, node):
        if node.op == "-":
            return f"(-{self.num(node.a)})", NUM
        return f"(+{self.num(node.a)})", NUM

    def ex_Binary(self, node):
        a = self.num(node.a)
        b = self.num(node.b)
        op = node.op
        if op in ARITH:
            return f"({a} {op} {b})", NUM
        if op == "%":
            return f"_fmod({a}, {b})", NUM
        return f"_pow({a}, {b})", NUM

    def ex_Concat(self, node):
        parts = [self.str_(i) for i in node.items]
        if len(parts) <= 4:
            return "(" + " + ".join(parts) + ")", STR
        return "''.join((" + ", ".join(parts) + ",))", STR

    def ex_Assign(self, node):
        target = node.target
        if node.op == "=":
            value, kind = self.ex(node.expr)
            if isinstance(_ungroup(node.expr), N.Concat):
                value = f"_cs({value})"
            return self.assign_expr(target, value, kind)
        return self.compound(target, node.op[:-1], node.expr)

    def compound(self, target, op, expr):
        rhs = self.num(expr)
        if isinstance(target, N.Var):
            cur = self.num(target)
            return self.assign_expr(target, _arith(op, cur, rhs, True), NUM)
        if isinstance(target, N.Index):
            arr = self.array_ref(target.name, target)
            return f"_aop({arr}, {self.key(target.subs)}, {op!r}, {rhs})", NUM
        idx = self.field_index(target)
        icode = str(idx) if isinstance(idx, int) else idx[0]
        return f"_R.fop({icode}, {op!r}, {rhs})", NUM

    def assign_expr(self, target, value: str, kind: str = ANY) -> tuple[str, str]:
        target = _ungroup(target)
        if isinstance(target, N.Var):
            name = target.name
            if self.is_param(name):
                if self.is_array(name):
                    self.error(f"attempt to use array `{name}' in a scalar context", target)
                return f"(p_{name} := {value})", kind
            if name == "NF":
                return f"_R.set_nf({value})", NUM
            if name in NUM_SPECIALS:
                v = value if kind == NUM else f"_num({value})"
                return f"({self.gref(name)} := {v})", NUM
            if name == "FS":
                return f"_R.set_fs({value})", STR
            if name == "RS":
                return f"_R.set_rs({value})", STR
            if name in STR_SPECIALS:
                v = value if kind == STR else f"_str({value})"
                return f"(V_{name} := {v})", STR
            if name in self.prog.functions:
                self.error(f"function `{name}' called with space between name and `(',\nor used as a variable or an array", target)
            self.var_read(name)
            return f"({self.gref(name)} := {value})", kind
        if isinstance(target, N.Index):
            arr = self.array_ref(target.name, target)
            return f"_aset({arr}, {self.key(target.subs)}, {value})", kind
        if isinstance(target, N.Field):
            idx = self.field_index(target)
            icode = str(idx) if isinstance(idx, int) else idx[0]
            return f"_R.setfield({icode}, {value})", kind
        self.error("syntax error", target)

    def ex_Incr(self, node):
        target = node.target
        delta = "1.0" if node.op == "++" else "-1.0"
        if isinstance(target, N.Var):
            cur = self.num(target)
            if node.prefix:
                return self.assign_expr(target, f"{cur} + {delta}", NUM)
            t = self.newtmp()
            asg, _ = self.assign_expr(target, f"{t} + {delta}", NUM)
            return f"(({t} := {cur}), {asg})[0]", NUM
        if isinstance(target, N.Index):
            arr = self.array_ref(target.name, target)
            return f"_aincr({arr}, {self.key(target.subs)}, {delta}, {not node.prefix})", NUM
        idx = self.field_index(target)
        icode = str(idx) if isinstance(idx, int) else idx[0]
        return f"_R.fincr({icode}, {delta}, {not node.prefix})", NUM

    def ex_Call(self, node):
        fn = self.prog.functions[node.name]
        args = []
        for i, a in enumerate(node.args):
            pname = fn.params[i]
            if pname in self.param_arrays[node.name]:
                a2 = _ungroup(a)
                if not isinstance(a2, N.Var):
                    self.error(f"attempt to use scalar parameter `{pname}' as an array", node)
                args.append(self.array_ref(a2.name, a2))
            elif isinstance(a, N.Var) and self.is_array(a.name):
                args.append(self.array_ref(a.name, a))
            elif isinstance(a, N.Var) and not self.is_param(a.name) and a.name not in self.global_scalars \
                    and a.name not in NUM_SPECIALS and a.name not in STR_SPECIALS and a.name != "NF":
                # an untyped name passed along: a scalar that may be unset
                args.append(self.gref(a.name))
            else:
                args.append(self.val(a))
        call = f"F_{node.name}({', '.join(args)})"
        if node.name in self.async_funcs:
            if not self.is_async:
                raise AssertionError("async call in sync context")
            return f"(await {call})", ANY
        return call, ANY

    def ex_Getline(self, node):
        if not self.is_async:
            raise AssertionError("getline in sync context")
        target = node.target
        if node.kind == "simple":
            if self.rule_kind in ("BEGINFILE", "ENDFILE"):
                raise RuleError(f"non-redirected `getline' invalid inside `{self.rule_kind}' "
                                "rule", node.line or 1, -1, self.src)
            g0 = self.newtmp("_g")
            if target is None:
                return (f"({g0} if ({g0} := _R.getline_main_sync(False)) is not None "
                        "else (await _R.getline_main()))"), NUM
            call = (f"({g0} if ({g0} := _R.getline_main_sync(True)) is not None "
                    "else (await _R.getline_main_var()))")
        elif node.kind == "file":
            src = self.val(node.src)
            if target is None:
                return f"(await _R.getline_file({src}, False))", NUM
            call = f"await _R.getline_file({src}, True)"
        else:
            src = self.val(node.src)
            if target is None:
                return f"(await _R.getline_cmd({src}, False))", NUM
            call = f"await _R.getline_cmd({src}, True)"
        g = self.newtmp("_g")
        asg, _ = self.assign_expr(target, "_R.glval")
        return f"(({g} := {call}), ({g} > 0 and {asg}), {g})[2]", NUM

    def ex_Builtin(self, node):
        name = node.name
        args = node.args
        if name == "length":
            if not args:
                return f"float(len({self.rec0()}))", NUM
            a = _ungroup(args[0])
            if isinstance(a, N.Var) and self.is_array(a.name):
                return f"float(len({self.array_ref(a.name, a)}))", NUM
            if isinstance(a, N.Var) and self.is_param(a.name):
                return f"_R.length(p_{a.name})", NUM
            return f"float(len({self.str_(a)}))", NUM
        if name == "substr":
            s = self.str_(args[0])
            m = self.num(args[1])
            if len(args) == 3:
                return f"_R.substr({s}, {m}, {self.num(args[2])})", STR
            return f"_R.substr({s}, {m})", STR
        if name == "index":
            if self.icase:
                return f"_R.index({self.str_(args[0])}, {self.str_(args[1])})", NUM
            return f"float({self.str_(args[0])}.find({self.str_(args[1])}) + 1)", NUM
        if name == "split":
            s = self.str_(args[0])
            arr = self.array_ref(args[1].name, args[1])
            if len(args) >= 3:
                sep = _ungroup(args[2])
                sep = self.regex_const(sep.source) if isinstance(sep, N.Regex) else self.val(sep)
                if len(args) == 4:
                    seps = self.array_ref(args[3].name, args[3])
                    return f"_R.awk_split({s}, {arr}, {sep}, {seps})", NUM
                return f"_R.awk_split({s}, {arr}, {sep})", NUM
            return f"_R.awk_split({s}, {arr})", NUM
        if name in ("sub", "gsub"):
            rx = self.regex_arg(args[0])
            repl = self.str_(args[1])
            glob = name == "gsub"
            if len(args) == 3:
                target = _ungroup(args[2])
            else:
                target = N.Field(N.Num(0.0), line=node.line)
            if isinstance(target, N.Field) and self.field_index(target) == 0:
                tval = "_R.get0()"
                s = self.newtmp("_s")
                return (f"(({s} := _R.sub({rx}, {repl}, {tval}, {glob})), "
                        f"({s}[1] is not None and _R.set_record({s}[1])), {s}[0])[2]"), NUM
            tval = self.val(target)
            s = self.newtmp("_s")
            asg, _ = self.assign_expr(target, f"{s}[1]", STR)
            return (f"(({s} := _R.sub({rx}, {repl}, {tval}, {glob})), "
                    f"({s}[1] is not None and {asg}), {s}[0])[2]"), NUM
        if name == "match":
            if len(args) == 3:
                arr = self.array_ref(args[2].name, args[2])
                return f"_R.match({self.str_(args[0])}, {self.regex_arg(args[1])}, {arr})", NUM
            return f"_R.match({self.str_(args[0])}, {self.regex_arg(args[1])})", NUM
        gawk = self.gawk_builtin(name, args)
        if gawk is not None:
            return gawk
        if name == "sprintf":
            return self.sprintf_code(args), STR
        if name in ("log", "sqrt", "exp"):
            return f"_R.{name}({self.num(args[0])}, {self.cur_line})", NUM
        if name in ("sin", "cos", "int"):
            return f"_c_{name}({self.num(args[0])})", NUM
        if name == "atan2":
            return f"_atan2({self.num(args[0])}, {self.num(args[1])})", NUM
        if name == "rand":
            return "_R.rand()", NUM
        if name == "srand":
            if args:
                return f"_R.srand({self.val(args[0])})", NUM
            return "_R.srand()", NUM
        if name == "tolower":
            return f"_lower({self.str_(args[0])})", STR
        if name == "toupper":
            return f"_upper({self.str_(args[0])})", STR
        if name == "system":
            return f"(await _R.system({self.val(args[0])}))", NUM
        if name == "close":
            return f"(await _R.close({self.val(args[0])}))", NUM
        if name == "fflush":
            if args:
                return f"(await _R.fflush({self.val(args[0])}, {self.cur_line}))", NUM
            return "(await _R.fflush())", NUM
        self.error(f"function `{name}' not defined", node)

    def gawk_builtin(self, name: str, args: list):
        """gawk's own functions (None: not one of them)."""
        if name == "gensub":
            target = self.str_(args[3]) if len(args) == 4 else self.rec0()
            return (f"_R.gensub({self.regex_arg(args[0])}, {self.str_(args[1])}, "
                    f"{self.val(args[2])}, {target}, {self.cur_line})"), STR
        if name in ("asort", "asorti"):
            src = self.array_ref(args[0].name, args[0])
            dest = self.array_ref(args[1].name, args[1]) if len(args) > 1 else "None"
            how = self.val(args[2]) if len(args) > 2 else "None"
            return f"_R.{name}({src}, {dest}, {how})", NUM
        if name == "patsplit":
            arr = self.array_ref(args[1].name, args[1])
            pat = self.regex_arg(args[2]) if len(args) > 2 else "None"
            seps = self.array_ref(args[3].name, args[3]) if len(args) > 3 else "None"
            return f"_R.patsplit({self.str_(args[0])}, {arr}, {pat}, {seps})", NUM
        if name == "strftime":
            vals = ", ".join(self.val(a) for a in args)
            return f"_R.strftime({vals})", STR
        if name == "systime":
            return "_R.systime()", NUM
        if name == "mktime":
            utc = self.val(args[1]) if len(args) > 1 else "None"
            return f"_R.mktime({self.str_(args[0])}, {utc})", NUM
        if name in ("and", "or", "xor", "lshift", "rshift", "compl"):
            nums = ", ".join(self.num(a) for a in args)
            return f"_R.bits({name!r}, {nums})", NUM
        return None

    def regex_arg(self, node) -> str:
        node = _ungroup(node)
        if isinstance(node, N.Regex):
            return self.regex_const(node.source)
        if isinstance(node, N.Str):
            try:
                check(node.value)
            except RegexError:
                return f"_R.dyn_regex({node.value!r})"  # a run-time error, as gawk reports it
            return self.regex_const(node.value)
        return f"_R.dyn_regex({self.val(node)})"

    def compare(self, node) -> str:
        a, ka = self.ex(node.a)
        b, kb = self.ex(node.b)
        op = node.op
        if ka == NUM and kb == NUM:
            return f"({a} {op} {b})"
        if self.icase:  # IGNORECASE decides at run time how strings compare
            return f"{CMP_FUNC[op]}({a}, {b})"
        if ka == STR and kb == STR:
            return f"({a} {op} {b})"
        if ka == STR or kb == STR:
            return f"({self.str_(node.a)} {op} {self.str_(node.b)})"
        return f"{CMP_FUNC[op]}({a}, {b})"

    def match(self, node) -> str:
        s = self.str_(node.a)
        rx = self.regex_arg(node.regex)
        neg = "is None" if node.negate else "is not None"
        return f"({rx}.search({s}) {neg})"

    # -- statements ---------------------------------------------------------------------------
    def stmts(self, lst) -> None:
        if not lst:
            self.emit("pass")
            return
        n0 = len(self.lines)
        for s in lst:
            self.stmt(s)
        if len(self.lines) == n0:
            self.emit("pass")

    def block(self, node) -> None:
        if isinstance(node, N.Block):
            self.stmts(node.stmts)
        else:
            self.stmts([node])

    def stmt(self, node) -> None:
        if node.line:
            self.cur_line = node.line
        meth = getattr(self, "st_" + type(node).__name__)
        meth(node)

    def st_Block(self, node):
        if node.stmts:
            for s in node.stmts:
                self.stmt(s)

    def st_ExprStmt(self, node):
        e = _ungroup(node.expr)
        if isinstance(e, N.Assign) and e.op == "=":
            t = _ungroup(e.target)
            value, kind = self.ex(e.expr)
            if isinstance(_ungroup(e.expr), N.Concat):
                value = f"_cs({value})"
            if isinstance(t, N.Var) and not self.is_param(t.name) and t.name not in NUM_SPECIALS \
                    and t.name not in STR_SPECIALS and t.name != "NF":
                self.var_read(t.name)
                if t.name in self.prog.functions:
                    self.error(f"function `{t.name}' called with space between name and `(',\nor used as a variable or an array", t)
                self.emit(f"{self.gref(t.name)} = {value}")
                return
            if isinstance(t, N.Var) and self.is_param(t.name) and not self.is_array(t.name):
                self.emit(f"p_{t.name} = {value}")
                return
            if isinstance(t, N.Index):
                self.emit(f"{self.array_ref(t.name, t)}[{self.key(t.subs)}] = {value}")
                return
            self.emit(self.assign_expr(t, value, kind)[0])
            return
        if isinstance(e, N.Incr):
            t = e.target
            delta = "1.0" if e.op == "++" else "-1.0"
            if isinstance(t, N.Var) and not (t.name in NUM_SPECIALS or t.name in STR_SPECIALS or t.name == "NF"):
                cur = self.num(t)
                ref = ("p_" + t.name) if self.is_param(t.name) else self.gref(t.name)
                if self.is_param(t.name) and self.is_array(t.name):
                    self.error(f"attempt to use array `{t.name}' in a scalar context", t)
                self.emit(f"{ref} = {cur} + {delta}")
                return
            if isinstance(t, N.Index):
                arr = self.array_ref(t.name, t)
                k = self.newtmp("_k")
                self.emit(f"{k} = {self.key(t.subs)}")
                self.emit("try:")
                self.emit(f"    {arr}[{k}] += {delta}")
                self.emit("except TypeError:")
                self.emit(f"    _ainc({arr}, {k}, {delta})")
                return
        if isinstance(e, N.Assign) and e.op in ("+=", "-=", "*=") and isinstance(_ungroup(e.target), N.Index):
            t = _ungroup(e.target)
            arr = self.array_ref(t.name, t)
            k = self.newtmp("_k")
            v = self.newtmp("_v")
            self.emit(f"{k} = {self.key(t.subs)}")
            self.emit(f"{v} = {self.num(e.expr)}")
            self.emit("try:")
            self.emit(f"    {arr}[{k}] {e.op} {v}")
            self.emit("except TypeError:")
            self.emit(f"    _aop({arr}, {k}, {e.op[0]!r}, {v})")
            return
        if isinstance(e, N.Assign) and e.op == "+=" and isinstance(_ungroup(e.target), N.Var):
            t = _ungroup(e.target)
            if not (t.name in NUM_SPECIALS or t.name in STR_SPECIALS or t.name == "NF") and not (
                    self.is_param(t.name) and self.is_array(t.name)):
                ref = ("p_" + t.name) if self.is_param(t.name) else self.gref(t.name)
                if not self.is_param(t.name):
                    self.var_read(t.name)
                self.emit(f"{ref} = {self.num(t)} + {self.num(e.expr)}")
                return
        code, _ = self.ex(e)
        self.emit(code)

    def st_Print(self, node):
        if not node.args:
            body = f"{self.rec0()} + V_ORS"
        else:
            args = node.args
            parts = []
            for i, a in enumerate(args):
                if i:
                    parts.append("V_OFS")
                parts.append(self.out_str(a))
            parts.append("V_ORS")
            body = " + ".join(parts)
        self.emit_output(node, body)

    def st_Printf(self, node):
        args = node.args
        if len(args) == 1 and isinstance(args[0], N.Group):
            args = [args[0].expr]
        self.emit_output(node, self.sprintf_code(args))

    def sprintf_code(self, args) -> str:
        """sprintf(args): a constant format C and Python agree on becomes a Python %-format."""
        fmt = _ungroup(args[0])
        if isinstance(fmt, N.Str):
            if len(args) == 1 and "%" not in fmt.value:
                return repr(fmt.value)
            plan = _fmt_plan(fmt.value)
            if plan is not None and len(args) - 1 >= len(plan[1]):
                pyfmt, kinds = plan
                temps, conv, checks = [], [], []
                for kind, a in zip(kinds, args[1:], strict=False):
                    t = self.newtmp("_p")
                    if kind == "s":
                        temps.append(f"({t} := {self.str_(a)})")
                        conv.append(t)
                    else:
                        temps.append(f"({t} := {self.num(a)})")
                        checks.append(f"{t} - {t} == 0.0")
                        conv.append(f"int({t})" if kind == "d" else t)
                extra = [self.val(a) for a in args[1 + len(kinds):]]
                slow = f"_R.sprintf({', '.join([repr(fmt.value)] + [t.split(' :=')[0][1:] for t in temps] + extra)})"
                fast = f"{pyfmt!r} % ({', '.join(conv)},)"
                if not checks:
                    return f"({', '.join(temps + [fast])})[-1]" if temps else fast
                return f"({', '.join(temps)}, ({fast} if {' and '.join(checks)} else {slow}))[-1]"
        return f"_R.sprintf({', '.join(self.val(a) for a in args)})"

    def emit_output(self, node, body: str) -> None:
        if node.dest_kind is None:
            self.emit(f"_o({body})")
        else:
            dest = self.val(node.dest)
            self.emit(f"_R.redirect({node.dest_kind!r}, {dest}).write({body})")

    def st_If(self, node):
        self.emit(f"if {self.cond(node.cond)}:")
        self.indent += 1
        self.block(node.then)
        self.indent -= 1
        if node.else_ is not None:
            self.emit("else:")
            self.indent += 1
            self.block(node.else_)
            self.indent -= 1

    def tick(self) -> None:
        self.emit("_tk -= 1")
        if self.is_async:
            self.emit("if _tk < 0: _tk = await _atick()")
        else:
            self.emit("if _tk < 0: _tk = _tick()")

    def st_While(self, node):
        self.emit(f"while {self.cond(node.cond)}:")
        self.indent += 1
        self.tick()
        self.loops.append(("while", None))
        self.block(node.body)
        self.loops.pop()
        self.indent -= 1

    def st_DoWhile(self, node):
        self.emit("while True:")
        self.indent += 1
        self.tick()
        self.loops.append(("do", node.cond))
        self.block(node.body)
        self.loops.pop()
        self.emit(f"if not {self.cond(node.cond)}: break")
        self.indent -= 1

    def st_For(self, node):
        if node.init is not None:
            self.stmt(node.init)
        cond = self.cond(node.cond) if node.cond is not None else "True"
        self.emit(f"while {cond}:")
        self.indent += 1
        self.tick()
        self.loops.append(("for", node.incr))
        self.block(node.body)
        self.loops.pop()
        if node.incr is not None:
            self.stmt(node.incr)
        self.indent -= 1

    def st_ForIn(self, node):
        arr = self.array_ref(node.array, node)
        k = self.newtmp("_k")
        if self.sorted_loops:
            self.emit(f"for {k} in _R.forin_keys({arr}):")
        else:
            self.emit(f"for {k} in list({arr}):")
        self.indent += 1
        self.tick()
        target = N.Var(node.var, line=node.line)
        if self.is_param(node.var) and self.is_array(node.var):
            self.error(f"attempt to use array `{node.var}' in a scalar context", node)
        asg, _ = self.assign_expr(target, f"StrNum({k})")
        self.emit(asg)
        self.loops.append(("forin", None))
        self.block(node.body)
        self.loops.pop()
        self.indent -= 1

    def st_Break(self, node):
        self.emit("break")

    def st_Continue(self, node):
        kind, extra = self.loops[-1]
        if kind == "for" and extra is not None:
            self.stmt(extra)
        elif kind == "do":
            self.emit(f"if not {self.cond(extra)}: break")
        self.emit("continue")

    def st_NextStmt(self, node):
        if self.rule_kind in ("BEGIN", "END", "BEGINFILE", "ENDFILE"):
            raise RuleError(f"`next' used in {self.rule_kind} action", node.line or 1, -1,
                            self.src)
        if self.in_main_body and not self.loops:
            self.emit("continue")
        else:
            self.emit("raise _NEXT")

    def st_NextFileStmt(self, node):
        if self.rule_kind in ("BEGIN", "END"):
            self.error(f"`nextfile' used in {self.rule_kind} action", node)
        self.emit("raise _NEXTFILE")

    def st_Exit(self, node):
        if node.expr is None:
            self.emit("raise _AwkExit(None)")
        else:
            self.emit(f"raise _AwkExit(_exitcode({self.num(node.expr)}))")

    def st_Return(self, node):
        if node.expr is None:
            self.emit("return _U")
        else:
            e = _ungroup(node.expr)
            if isinstance(e, N.Var) and self.is_array(e.name):
                self.error(f"attempt to use array `{e.name}' in a scalar context", node)
            self.emit(f"return {self.val(node.expr)}")

    def st_Delete(self, node):
        arr = self.array_ref(node.name, node)
        if node.subs is None:
            self.emit(f"{arr}.clear()")
        else:
            self.emit(f"{arr}.pop({self.key(node.subs)}, None)")

    # -- program -------------------------------------------------------------------------------
    def globals_decl(self) -> None:
        names = sorted({"V_" + n for n in self.assigned_globals()})
        for i in range(0, len(names), 20):
            self.emit("global " + ", ".join(names[i:i + 20]))

    def assigned_globals(self) -> set[str]:
        out = {"NR", "FNR"}
        for n in _walk([p for it in self.prog.items for p in (it.pattern, it.pattern2, it.action)]
                       + [fn.body for fn in self.prog.functions.values()]):
            if isinstance(n, N.Var):
                out.add(n.name)
            elif isinstance(n, N.ForIn):
                out.add(n.var)
        return {n for n in out if n not in self.global_arrays and n not in SPECIAL_ARRAYS
                and n != "NF" and n not in self.prog.functions}

    def compile(self) -> tuple[str, list[int]]:
        self.analyse()
        prog = self.prog
        for fn in prog.functions.values():
            self.compile_function(fn)
        begins = [it for it in prog.items if it.kind == "BEGIN"]
        ends = [it for it in prog.items if it.kind == "END"]
        mains = [it for it in prog.items if it.kind in ("main", "range")]
        self.rule_kind = "BEGIN"
        self.cur_line = begins[0].line if begins else 1
        self.emit("async def _begin():")
        self.indent += 1
        self.globals_decl()
        self.emit("_tk = 1000")
        for it in begins:
            self.cur_line = it.line
            self.block(it.action)
        self.emit("pass")
        self.indent -= 1
        self.rule_kind = "main"
        self.compile_main(mains)
        for kind in ("BEGINFILE", "ENDFILE"):
            self.rule_kind = kind
            self.emit(f"async def _{kind.lower()}():")
            self.indent += 1
            self.globals_decl()
            self.emit("_tk = 1000")
            for it in prog.items:
                if it.kind == kind:
                    self.cur_line = it.line
                    self.block(it.action)
            self.emit("pass")
            self.indent -= 1
        self.rule_kind = "END"
        self.emit("async def _end():")
        self.indent += 1
        self.globals_decl()
        self.emit("_tk = 1000")
        for it in ends:
            self.cur_line = it.line
            self.block(it.action)
        self.emit("pass")
        self.indent -= 1
        self.last_rule_line = mains[-1].line if mains else -1
        self.has_begin = bool(begins)
        self.has_main = bool(mains)
        self.has_end = bool(ends)
        return "\n".join(self.lines) + "\n", self.linemap

    def compile_function(self, fn: N.Function) -> None:
        self.scope = Scope(fn)
        self.rule_kind = "function"
        self.is_async = fn.name in self.async_funcs
        self.cur_line = fn.line
        params = []
        for p in fn.params:
            if p in self.param_arrays[fn.name]:
                params.append(f"p_{p}=None")
            else:
                params.append(f"p_{p}=_U")
        kw = "async def" if self.is_async else "def"
        self.emit(f"{kw} F_{fn.name}({', '.join(params)}):")
        self.indent += 1
        self.globals_decl()
        for p in fn.params:
            if p in self.param_arrays[fn.name]:
                self.emit(f"if p_{p} is None: p_{p} = _Arr()")
        self.emit("_tk = 1000")
        self.block(fn.body)
        self.emit("return _U")
        self.indent -= 1
        self.scope = None
        self.is_async = True

    def compile_main(self, mains) -> None:
        self.emit("async def _main():")
        self.indent += 1
        self.globals_decl()
        self.emit("_tk = 1000")
        for i, it in enumerate(mains):
            if it.kind == "range":
                self.emit(f"_rg{i} = False")
        # BEGINFILE/ENDFILE run between records: the loop takes one record at a time
        per_record = self.uses_getline_main or self.assigns_rs or self.file_rules
        self.stable = self.record_is_stable()
        self.inline_fields = self.stable and any(
            isinstance(n, N.Field) or (isinstance(n, N.Var) and n.name == "NF")
            for n in _walk([p for it in mains for p in (it.pattern, it.pattern2, it.action)
                            if p is not None]))
        self.split_limit = self.compute_split_limit() if self.inline_fields else -1
        # NR/FNR need updating per record only when the record loop can see them
        roots = [p for it in mains for p in (it.pattern, it.pattern2, it.action) if p is not None]
        roots += [fn.body for fn in self.prog.functions.values()]
        nr_live = per_record or any(isinstance(n, N.Var) and n.name in ("NR", "FNR")
                                    for n in _walk(roots))
        outputs = any(it.action is None for it in mains) or any(
            isinstance(n, (N.Print, N.Printf, N.Call)) or (
                isinstance(n, N.Builtin) and n.name in ("system", "close", "fflush"))
            for n in _walk(roots))
        redirects = any(isinstance(n, (N.Print, N.Printf)) and n.dest_kind is not None
                        for n in _walk([it.action for it in self.prog.items if it.action]
                                       + [fn.body for fn in self.prog.functions.values()]))
        check = "if len(_obuf) > 1024 or _R.dirty: await _R.checkpoint()" if redirects \
            else "if len(_obuf) > 1024: await _R.checkpoint()"
        if per_record:
            self.emit("while True:")
            self.indent += 1
            self.emit(check)
            self.emit("_rec = _R.next_main_record_sync()")
            self.emit("if _rec is None:")
            self.emit("    _rec = await _R.next_main_record()")
            self.emit("    if _rec is None: break")
            self.record_body(mains, True)
            self.indent -= 1
        else:
            main_roots = [p for it in mains for p in (it.pattern, it.pattern2, it.action)
                          if p is not None]
            fn_names = {n.name for n in _walk([fn.body for fn in self.prog.functions.values()])
                        if isinstance(n, N.Var)}
            fn_names |= {n.var for n in _walk([fn.body for fn in self.prog.functions.values()])
                         if isinstance(n, N.ForIn)}
            any_getline = any(isinstance(n, N.Getline) for n in _walk(
                [p for it in self.prog.items for p in (it.pattern, it.pattern2, it.action)
                 if p is not None] + [fn.body for fn in self.prog.functions.values()]))
            cands = {n.name for n in _walk(main_roots) if isinstance(n, N.Var)}
            cands |= {n.var for n in _walk(main_roots) if isinstance(n, N.ForIn)}
            loc = set()
            for name in cands:
                if name in fn_names or name in self.global_arrays or name in SPECIAL_ARRAYS:
                    continue
                if name in NUM_SPECIALS or name in STR_SPECIALS or name in ("NF", "ARGC") \
                        or name in GAWK_SCALARS:
                    continue
                if name in self.prog.functions:
                    continue
                loc.add(name)
            # NR is kept in a local too (FNR stays global: messages report it)
            if nr_live and not any_getline and "NR" not in fn_names:
                loc.add("NR")
            self.localized = loc
            names = sorted(loc)
            load = "; ".join(f"L_{n} = V_{n}" for n in names)
            store = "; ".join(f"V_{n} = L_{n}" for n in names)
            if names:
                self.emit(load)
                self.emit("try:")
                self.indent += 1
            self.emit("while True:")
            self.indent += 1
            if names:
                self.emit(store)
            self.emit("_batch = await _R.next_batch()")
            if names:
                self.emit(load)
            self.emit("if _batch is None: break")
            if not nr_live:
                self.emit("_nr0 = V_NR; _fnr0 = V_FNR; _i = 0")
            self.emit("try:")
            self.indent += 1
            if nr_live:
                self.emit("for _rec in _batch:")
            else:
                self.emit("for _i, _rec in enumerate(_batch, 1):")
            self.indent += 1
            if outputs:
                self.emit(check)
            self.record_body(mains, nr_live)
            self.indent -= 2
            self.emit("except _NextFile:")
            self.emit("    _R.skip_file()")
            if not nr_live:
                self.emit("finally:")
                self.emit("    V_NR = _nr0 + _i; V_FNR = _fnr0 + _i")
            self.indent -= 1
            if names:
                self.indent -= 1
                self.emit("finally:")
                self.emit("    " + store)
            self.localized = set()
        self.indent -= 1

    def record_body(self, mains, nr_live) -> None:
        self.in_main_body = True
        if nr_live:
            self.emit(f"{self.gref('NR')} += 1.0")
            self.emit(f"{self.gref('FNR')} += 1.0")
        self.emit("_R.rec = _rec")
        if self.inline_fields:
            k = self.split_limit
            if k > 0:
                # only fields 1..k are ever read and nothing asks NF: split no further
                self.emit(f"_f = _R.flds = _rec.split(None, {k}) if _R.splitter is _ssplit "
                          "else (_R.splitter(_rec) if _rec else [])")
            else:
                self.emit("_f = _R.flds = _R.splitter(_rec) if _rec else []")
        else:
            self.emit("_R.flds = None")
        if not mains:
            self.in_main_body = False
            return
        self.emit("try:")
        self.indent += 1
        for i, it in enumerate(mains):
            self.cur_line = it.line
            if it.kind == "range":
                c1 = self.cond(it.pattern)
                c2 = self.cond(it.pattern2)
                self.emit(f"if _rg{i}:")
                self.indent += 1
                self.emit(f"if {c2}: _rg{i} = False")
                self.action(it)
                self.indent -= 1
                self.emit(f"elif {c1}:")
                self.indent += 1
                self.emit(f"_rg{i} = not {c2}")
                self.action(it)
                self.indent -= 1
            elif it.pattern is not None:
                self.emit(f"if {self.cond(it.pattern)}:")
                self.indent += 1
                self.action(it)
                self.indent -= 1
            else:
                self.action(it)
        self.in_main_body = False
        self.indent -= 1
        self.emit("except _NextRecord:")
        self.emit("    pass")
        if self.uses_getline_main or self.assigns_rs or self.file_rules:
            self.emit("except _NextFile:")
            self.emit("    _R.skip_file()")

    def action(self, it) -> None:
        if it.action is None:
            self.emit(f"_o({self.rec0()} + V_ORS)")
        else:
            self.block(it.action)


SPECIAL_VARS_SCALAR = NUM_SPECIALS | STR_SPECIALS | {"NF", "ARGC"}


def _ungroup(node):
    while isinstance(node, N.Group):
        node = node.expr
    return node


def _numlit(v: float) -> str:
    if v != v:
        return "_NAN"
    if v in (float("inf"), float("-inf")):
        return "_INF" if v > 0 else "(-_INF)"
    return repr(float(v))


def _arith(op: str, a: str, b: str, assign: bool = False) -> str:
    if assign and op in "/%":
        return f"_divasg({a}, {b}, {op!r})"
    if op in ARITH:
        return f"({a} {op} {b})"
    if op == "%":
        return f"_fmod({a}, {b})"
    return f"_pow({a}, {b})"
