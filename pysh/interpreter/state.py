"""Shell state: variables with attributes, scopes, positional parameters, options.

Values are ``str`` (undecodable bytes carried as surrogates). An indexed
array is a sparse ``dict[int, str]``, an associative array a ``dict[str, str]``.
Scoping is dynamic, as in bash: a function's ``local`` frame is visible to
the functions it calls.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

# Variable attributes (declare -x -r -i -l -u -a -A -n -t).
EXPORT = 1
READONLY = 2
INTEGER = 4
LOWER = 8
UPPER = 16
ARRAY = 32
ASSOC = 64
NAMEREF = 128
TRACE = 256
TEMPVAR = 512  # a prefix assignment's binding (X=1 cmd)
PROPAGATE = 1024  # ... that export/readonly marked: made in the scope beneath when it ends
CAPCASE = 2048  # declare -c: the first character upper case, the rest lower
LOCALIZED = 4096  # a prefix binding `local` took over: `unset` leaves it an unset local
CASE_ATTRS = LOWER | UPPER | CAPCASE

# the attribute letters in the order bash prints them (declare -p, ${x@a})
ATTR_LETTERS = (("a", ARRAY), ("A", ASSOC), ("i", INTEGER), ("n", NAMEREF), ("r", READONLY),
                ("t", TRACE), ("x", EXPORT), ("c", CAPCASE), ("l", LOWER), ("u", UPPER))


def attr_letters(var: Var) -> str:
    """A variable's attribute letters as bash prints them (``xl`` for ``declare -lx``)."""
    a = var.attrs
    if isinstance(var.value, dict) and not a & ASSOC:
        a |= ARRAY
    return "".join(c for c, bit in ATTR_LETTERS if a & bit)


def valid_ref_name(value: str) -> bool:
    """A name or an array element (``a[...]``), as a nameref may name."""
    base, br, rest = value.partition("[")
    return base.isidentifier() and base.isascii() and (not br or (rest.endswith("]") and len(rest) > 1))


class Var:
    """A variable. ``value`` is None when declared but unset (``declare x``)."""

    __slots__ = ("value", "attrs")

    def __init__(self, value=None, attrs: int = 0):
        self.value = value
        self.attrs = attrs

    def copy(self) -> Var:
        v = self.value
        if isinstance(v, dict):
            v = dict(v)
        return Var(v, self.attrs)

    @property
    def is_array(self) -> bool:
        return isinstance(self.value, dict) or bool(self.attrs & (ARRAY | ASSOC))

    @property
    def is_assoc(self) -> bool:
        return bool(self.attrs & ASSOC)

    def __repr__(self) -> str:
        return f"Var({self.value!r}, {self.attrs})"


@lru_cache(maxsize=65536)
def bash_hash(key: str) -> int:
    """bash's hash_string (FNV-1, 32 bits): it decides associative arrays' order."""
    h = 2166136261
    for c in key.encode("utf-8", "surrogateescape"):
        h = (h * 16777619) & 0xFFFFFFFF
        h ^= c if c < 0x80 else (c - 256) & 0xFFFFFFFF  # bash XORs a (signed) char
    return h


def sorted_items(arr: dict) -> list:
    """Array items in bash's order: index order; for associative arrays, bash's hash
    table walk (bucket by bucket, the most recently inserted first within a bucket)."""
    if not arr:
        return []
    keys = list(arr)
    if isinstance(keys[0], int):
        # dict insertion order is usually index order already
        if all(keys[i] < keys[i + 1] for i in range(len(keys) - 1)):
            return list(arr.items())
        return sorted(arr.items())
    buckets = 1024
    while len(keys) >= buckets * 2:
        buckets *= 4
    mask = buckets - 1
    order = sorted(range(len(keys)), key=lambda i: (bash_hash(keys[i]) & mask, -i))
    return [(keys[i], arr[keys[i]]) for i in order]


SET_OPTIONS = {
    # long name: short letter (None when there is none)
    "allexport": "a", "braceexpand": "B", "emacs": None, "errexit": "e", "errtrace": "E",
    "functrace": "T", "hashall": "h", "histexpand": "H", "history": None, "ignoreeof": None,
    "interactive-comments": None, "keyword": "k", "monitor": "m", "noclobber": "C",
    "noexec": "n", "noglob": "f", "nolog": None, "notify": "b", "nounset": "u", "onecmd": "t",
    "physical": "P", "pipefail": None, "posix": None, "privileged": "p", "verbose": "v",
    "vi": None, "xtrace": "x",
}
SHORT_TO_LONG = {v: k for k, v in SET_OPTIONS.items() if v}
DEFAULT_SET = {"braceexpand", "hashall", "interactive-comments"}

SHOPT_OPTIONS = [  # in bash's order (shopt lists them so)
    "autocd", "assoc_expand_once", "cdable_vars", "cdspell", "checkhash", "checkjobs",
    "checkwinsize", "cmdhist", "compat31", "compat32", "compat40", "compat41", "compat42",
    "compat43", "compat44", "complete_fullquote", "direxpand", "dirspell", "dotglob", "execfail",
    "expand_aliases", "extdebug", "extglob", "extquote", "failglob", "force_fignore",
    "globasciiranges", "globskipdots", "globstar", "gnu_errfmt", "histappend", "histreedit",
    "histverify", "hostcomplete", "huponexit", "inherit_errexit", "interactive_comments",
    "lastpipe", "lithist", "localvar_inherit", "localvar_unset", "login_shell", "mailwarn",
    "no_empty_cmd_completion", "nocaseglob", "nocasematch", "noexpand_translation",
    "nullglob", "patsub_replacement", "progcomp", "progcomp_alias", "promptvars",
    "restricted_shell", "shift_verbose", "sourcepath", "varredir_close", "xpg_echo",
]
DEFAULT_SHOPT = {"checkwinsize", "cmdhist", "complete_fullquote", "extquote", "force_fignore",
                 "globasciiranges", "globskipdots", "hostcomplete", "interactive_comments",
                 "patsub_replacement", "progcomp", "promptvars", "sourcepath"}


class Frame:
    """One function call (its locals and positional parameters), or a *temp frame*:
    the ``X=1`` bindings in front of a function or builtin, which ``unset`` can
    remove to reveal the variable beneath, and which vanish when the command ends."""

    __slots__ = ("locals", "argv", "name", "line", "temp", "saved_opts", "shown_args")

    def __init__(self, name: str, argv: list[str], line: int = 0, temp: bool = False):
        self.locals: dict[str, Var] = {}
        self.argv = argv
        self.name = name
        self.line = line
        self.temp = temp
        self.saved_opts: set[str] | None = None  # `local -`: the options to restore
        self.shown_args: list[str] | None = None  # the call's arguments in BASH_ARGV


class Variables:
    """Global and local variables with bash's dynamic scoping."""

    __slots__ = ("globals", "frames", "env_version")

    def __init__(self) -> None:
        self.globals: dict[str, Var] = {}
        self.frames: list[Frame] = []
        self.env_version = 0  # bumped when anything exported may have changed

    def copy(self) -> Variables:
        new = Variables()
        new.globals = {k: v.copy() for k, v in self.globals.items()}
        new.frames = []
        for f in self.frames:
            nf = Frame(f.name, list(f.argv), f.line, f.temp)
            nf.locals = {k: v.copy() for k, v in f.locals.items()}
            nf.shown_args = f.shown_args
            new.frames.append(nf)
        new.env_version = self.env_version
        return new

    def lookup(self, name: str) -> Var | None:
        frames = self.frames
        if frames:
            for f in reversed(frames):
                v = f.locals.get(name)
                if v is not None:
                    return v
        return self.globals.get(name)

    def scope_of(self, name: str) -> dict[str, Var]:
        """The dict that holds ``name`` (the innermost one), or the globals."""
        for f in reversed(self.frames):
            if name in f.locals:
                return f.locals
        return self.globals

    def call_frame(self) -> Frame | None:
        """The innermost function frame (``local`` goes there, never into a temp frame)."""
        for f in reversed(self.frames):
            if not f.temp:
                return f
        return None

    def set_local(self, name: str, var: Var) -> None:
        f = self.call_frame()
        if f is not None:
            f.locals[name] = var
        else:
            self.globals[name] = var

    def is_local_here(self, name: str) -> bool:
        f = self.call_frame()
        return f is not None and name in f.locals and self.scope_of(name) is f.locals

    def unset(self, name: str) -> None:
        scope = self.scope_of(name)
        v = scope.pop(name, None)
        if v is not None and v.attrs & EXPORT:
            self.env_version += 1

    def all_names(self) -> set[str]:
        names = set(self.globals)
        for f in self.frames:
            names.update(f.locals)
        return names

    def visible(self) -> Iterator[tuple[str, Var]]:
        """Each visible variable once (innermost wins), in name order."""
        for name in sorted(self.all_names()):
            v = self.lookup(name)
            if v is not None:
                yield name, v
