"""A shell's state as plain data (JSON-ready) and back, for session snapshots.

What is kept: global variables with their attributes (scalars, indexed and associative
arrays), functions (as bash prints them, with their attributes), aliases, ``set`` and
``shopt`` options, traps, the umask, the cwd and the directory stack, ``$?`` and
``PIPESTATUS``, ``$0`` and the positional parameters. Restoring is data only: values
are assigned, never expanded; a function's text is parsed (one definition, nothing
else) and bound, never run. Anything malformed raises :class:`StateError`.
"""

from __future__ import annotations

from pysh.interpreter.state import CAPCASE, SET_OPTIONS, SHOPT_OPTIONS, Var
from pysh.interpreter.syntax import ast as A

# attribute bits a snapshot may carry (TEMPVAR/PROPAGATE belong to a running command)
_ATTRS = 0x1FF | CAPCASE  # (declare -c too)


class StateError(ValueError):
    pass


def capture(interp) -> dict:
    from pysh.interpreter.syntax.bashprint import function_text

    variables = {}
    for name, v in interp.vars.globals.items():
        value = v.value
        if isinstance(value, dict):
            value = {"a": [[k, x] for k, x in value.items()]} if not v.is_assoc else \
                {"A": [[k, x] for k, x in value.items()]}
        variables[name] = [value, v.attrs & _ATTRS]
    return {
        "variables": variables,
        "functions": {n: [function_text(f), interp.func_attrs.get(n, "")]
                      for n, f in interp.funcs.items()},
        "aliases": dict(interp.aliases),
        "set": sorted(interp.opts),
        "shopt": sorted(interp.shopts),
        "traps": dict(interp.traps),
        "umask": interp.umask,
        "cwd": interp.cwd,
        "dirstack": list(interp.dirstack),
        "status": interp.status,
        "pipestatus": list(interp.pipestatus),
        "argv0": interp.argv0,
        "argv": list(interp.argv),
    }


def _str(x, what: str) -> str:
    if not isinstance(x, str):
        raise StateError(f"bad {what}")
    return x


def _strs(x, what: str) -> list[str]:
    if not isinstance(x, list):
        raise StateError(f"bad {what}")
    return [_str(s, what) for s in x]


def _int(x, what: str, lo: int = 0, hi: int = 1 << 31) -> int:
    if not isinstance(x, int) or isinstance(x, bool) or not lo <= x < hi:
        raise StateError(f"bad {what}")
    return x


def _strmap(x, what: str) -> dict[str, str]:
    if not isinstance(x, dict):
        raise StateError(f"bad {what}")
    return {_str(k, what): _str(v, what) for k, v in x.items()}


def _variable(name: str, spec) -> Var:
    if not (name.isidentifier() and name.isascii()) or not isinstance(spec, list) or len(spec) != 2:
        raise StateError("bad variable")
    value, attrs = spec
    attrs = _int(attrs, "variable attributes", 0, _ATTRS + 1)
    if attrs & ~_ATTRS:
        raise StateError("bad variable attributes")
    if value is None or isinstance(value, str):
        return Var(value, attrs)
    if isinstance(value, dict) and len(value) == 1:
        (kind, items), = value.items()
        if kind in ("a", "A") and isinstance(items, list):
            out = {}
            for item in items:
                if not isinstance(item, list) or len(item) != 2:
                    raise StateError("bad array")
                k = _int(item[0], "array index", 0, 1 << 62) if kind == "a" else \
                    _str(item[0], "array key")
                out[k] = _str(item[1], "array element")
            return Var(out, attrs)
    raise StateError("bad variable")


def _function(name: str, spec) -> tuple[A.FunctionDef, str]:
    from pysh.interpreter.syntax import ParseError, parse

    if not isinstance(spec, list) or len(spec) != 2:
        raise StateError("bad function")
    text, attrs = _str(spec[0], "function"), _str(spec[1], "function attributes")
    if set(attrs) - set("rtxclu"):  # (what declare -f can give a function)
        raise StateError("bad function attributes")
    try:
        prog = parse(text)
    except (ParseError, RecursionError):
        raise StateError(f"function {name} does not parse") from None
    if len(prog.body) != 1 or type(prog.body[0]) is not A.FunctionDef or prog.body[0].name != name:
        raise StateError(f"function {name}: not one definition")
    return prog.body[0], attrs


def restore(interp, state) -> None:
    """Put ``state`` (from :func:`capture`, maybe crafted) into a fresh ``interp``."""
    if not isinstance(state, dict):
        raise StateError("bad shell state")
    try:
        variables = {n: _variable(n, s) for n, s in _dict(state, "variables").items()} \
            if "variables" in state else interp.vars.globals
        functions = {_str(n, "function name"): _function(n, s)
                     for n, s in _dict(state, "functions").items()}
        aliases = _strmap(state.get("aliases", {}), "aliases")
        opts = set(_strs(state.get("set", []), "options"))
        shopts = set(_strs(state.get("shopt", []), "options"))
        if opts - set(SET_OPTIONS) or shopts - set(SHOPT_OPTIONS):
            raise StateError("unknown option")
        traps = _strmap(state.get("traps", {}), "traps")
        cwd = _str(state.get("cwd", interp.cwd), "cwd")
        dirstack = _strs(state.get("dirstack", []), "directory stack")
        if not cwd.startswith("/") or any(not d.startswith("/") for d in dirstack):
            raise StateError("bad directory")
        status = _int(state.get("status", 0), "status", 0, 256)
        pipestatus = [_int(s, "PIPESTATUS", 0, 256) for s in state.get("pipestatus", [])]
        umask = _int(state.get("umask", interp.umask), "umask", 0, 0o1000)
        argv0 = _str(state.get("argv0", interp.argv0), "$0")
        argv = _strs(state.get("argv", []), "positional parameters")
    except (AttributeError, TypeError):
        raise StateError("bad shell state") from None
    interp.vars.globals = variables
    interp.vars.env_version += 1
    interp.funcs = {n: f for n, (f, _) in functions.items()}
    interp.func_attrs = {n: a for n, (_, a) in functions.items() if a}
    interp.aliases = aliases
    interp.opts, interp.shopts = opts, shopts
    interp.traps = traps
    interp.cwd, interp.dirstack = cwd, dirstack
    interp.status, interp.pipestatus = status, pipestatus
    interp.umask = umask
    interp.argv0, interp.argv = argv0, argv
    interp.env_cache = None
    interp.sync_option_vars()


def _dict(state: dict, key: str) -> dict:
    x = state.get(key, {})
    if not isinstance(x, dict):
        raise StateError(f"bad {key}")
    return x
