"""find: GNU findutils' expression language over the FileSystem door.

Traversal is ``walk_ordered`` (held directory fds, GNU fts order: readdir
order, pre-order; ``-depth`` evaluates directories after their contents).
Symlinks are followed only with ``-L`` (or ``-H`` for starting points), and
every link is re-checked by the confinement core: one pointing out of the
sandbox is reported as ``Permission denied``.

``-exec``/``-execdir`` run pysh commands in-process (``shell.run``). ``-ok``
and ``-okdir`` ask on stderr and read the answer from stdin as GNU does; when
stdin is a terminal they refuse (no way to prompt from in-process), and the
test is false. ``-user``/``-group`` know the synthetic user only (``user``,
uid/gid 1000; ``root`` is known and owns nothing).
"""

from __future__ import annotations

import errno
import math
import re
import stat as _stat
import time

from pysh.builtins._fileutil import (
    GID,
    UID,
    USER,
    Item,
    Output,
    compile_glob,
    localtime,
    ls_date,
    mode_string,
    parse_mode,
    strerror,
    walk_ordered,
)
from pysh.builtins._fileutil import bracket as _bracket
from pysh.builtins._fileutil import lstat as xlstat
from pysh.builtins._fileutil import stat as xstat
from pysh.shellkit import FileSystemError, on_write_error
from pysh.shellkit.regex import RegexError, compile_python
from pysh.shellkit.text import encode

HELP = """
Usage: find [-H] [-L] [-P] [-Olevel] [-D debugopts] [path...] [expression]

default path is the current directory; default expression is -print
expression may consist of: operators, options, tests, and actions:

operators (decreasing precedence; -and is implicit where no others are given):
      ( EXPR )   ! EXPR   -not EXPR   EXPR1 -a EXPR2   EXPR1 -and EXPR2
      EXPR1 -o EXPR2   EXPR1 -or EXPR2   EXPR1 , EXPR2

positional options (always true): -daystart -follow -regextype

normal options (always true, specified before other expressions):
      -depth --help -maxdepth LEVELS -mindepth LEVELS -mount -noleaf
      --version -xdev -ignore_readdir_race -noignore_readdir_race

tests (N can be +N or -N or N): -amin N -anewer FILE -atime N -cmin N
      -cnewer FILE -ctime N -empty -false -fstype TYPE -gid N -group NAME
      -ilname PATTERN -iname PATTERN -inum N -iwholename PATTERN -iregex PATTERN
      -links N -lname PATTERN -mmin N -mtime N -name PATTERN -newer FILE
      -nouser -nogroup -path PATTERN -perm [-/]MODE -regex PATTERN
      -readable -writable -executable
      -wholename PATTERN -size N[bcwkMG] -true -type [bcdpflsD] -uid N
      -used N -user NAME -xtype [bcdpfls]

actions: -delete -print0 -printf FORMAT -fprintf FILE FORMAT -print
      -fprint0 FILE -fprint FILE -ls -fls FILE -prune -quit
      -exec COMMAND ; -exec COMMAND {} + -ok COMMAND ;
      -execdir COMMAND ; -execdir COMMAND {} + -okdir COMMAND ;
"""

PROG = "find"


class FindError(Exception):
    """A fatal error while parsing the command line (exit 1)."""


class Quit(Exception):
    pass


def _bq(s: str) -> str:
    """find's older `x' quoting."""
    return f"`{s}'"


def _lq(s: str) -> str:
    from pysh.builtins._fileutil import lq

    return lq(s)


# ------------------------------------------------------------ the context
class Ctx:
    """What every predicate may consult: the shell, options, the current start point."""

    def __init__(self, shell):
        self.shell = shell
        self.fs = shell.fs
        self.follow = "P"  # P, L or H
        self.maxdepth = None
        self.mindepth = 0
        self.depth_first = False
        self.daystart = False
        self.regextype = "emacs"
        self.warn = shell.stdin.isatty()
        self.now = time.time()
        self.out = Output(shell.stdout)
        self.status = 0
        self.top = "."
        self.files: dict[str, Output] = {}
        self.batches: list = []
        self.errors: list[str] = []
        self.seen_nondefault = False
        self.quit = False

    def st(self, it: Item):
        """The stat find's tests see: lstat under -P, the target's under -L (the link if broken)."""
        e = it.entry
        if self.follow == "P" or (self.follow == "H" and it.depth > 0):
            return e.stat(False)
        if e.type == "l":
            ls = e.link_stat
            if ls is not None:
                return ls
            return e.stat(False)
        return e.stat(False)

    def type_char(self, it: Item) -> str:
        e = it.entry
        t = e.type
        if t == "l" and (self.follow == "L" or (self.follow == "H" and it.depth == 0)):
            ls = e.link_stat
            return _type_of(ls.st_mode) if ls is not None else "l"
        if t == "o":
            try:
                return _type_of(e.stat(False).st_mode)
            except FileSystemError:
                return "?"
        return t


def _type_of(mode: int) -> str:
    if _stat.S_ISREG(mode):
        return "f"
    if _stat.S_ISDIR(mode):
        return "d"
    if _stat.S_ISLNK(mode):
        return "l"
    if _stat.S_ISFIFO(mode):
        return "p"
    if _stat.S_ISSOCK(mode):
        return "s"
    if _stat.S_ISCHR(mode):
        return "c"
    if _stat.S_ISBLK(mode):
        return "b"
    return "?"


class TopEntry:
    """A starting point in the shape of a WalkEntry."""

    __slots__ = ("name", "type", "path", "link_stat", "_lst")

    def __init__(self, ctx: Ctx, path: str):
        self.path = path
        self.name = path
        fs = ctx.fs
        self._lst = xlstat(fs, path)
        self.link_stat = None
        self.type = _type_of(self._lst.st_mode)
        if self.type not in "dfl":
            self.type = "o"
        if self.type == "l" and ctx.follow in "LH":
            try:
                self.link_stat = xstat(fs, path)
            except FileSystemError as e:
                if e.errno != errno.ENOENT:
                    raise
        elif self.type != "l" and ctx.follow == "P" and path.endswith("/"):
            pass

    def stat(self, follow: bool = False):
        if follow and self.link_stat is not None:
            return self.link_stat
        return self._lst


# ------------------------------------------------------------------ nodes
class Node:
    __slots__ = ("kind", "fn", "afn", "a", "b", "name", "action")

    def __init__(self, kind, fn=None, afn=None, a=None, b=None, name="", action=False):
        self.kind, self.fn, self.afn, self.a, self.b = kind, fn, afn, a, b
        self.name, self.action = name, action

    def is_async(self) -> bool:
        if self.kind == "pred":
            return self.afn is not None
        return bool(self.a and self.a.is_async()) or bool(self.b and self.b.is_async())


def compile_sync(n: Node):
    k = n.kind
    if k == "pred":
        return n.fn
    if k == "not":
        f = compile_sync(n.a)
        return lambda it: not f(it)
    fa, fb = compile_sync(n.a), compile_sync(n.b)
    if k == "and":
        return lambda it: fa(it) and fb(it)
    if k == "or":
        return lambda it: fa(it) or fb(it)
    return lambda it: (fa(it), fb(it))[1]


def compile_async(n: Node):
    k = n.kind
    if k == "pred":
        if n.afn is not None:
            return n.afn
        f = n.fn

        async def leaf(it):
            return f(it)
        return leaf
    if k == "not":
        fa = compile_async(n.a)

        async def neg(it):
            return not await fa(it)
        return neg
    fa, fb = compile_async(n.a), compile_async(n.b)
    if k == "and":
        async def conj(it):
            return await fa(it) and await fb(it)
        return conj
    if k == "or":
        async def disj(it):
            return await fa(it) or await fb(it)
        return disj

    async def comma(it):
        await fa(it)
        return await fb(it)
    return comma


# ----------------------------------------------------------------- parser
PATTERN_PRIMARIES = {"-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename",
                     "-lname", "-ilname"}
GLOBAL_OPTIONS = {"-maxdepth", "-mindepth", "-depth", "-d", "-xdev", "-mount", "-noleaf",
                  "-ignore_readdir_race", "-noignore_readdir_race", "-help", "--help",
                  "-version", "--version"}
POSITIONAL_OPTIONS = {"-daystart", "-follow", "-regextype", "-warn", "-nowarn"}
ACTIONS = {"-print", "-print0", "-printf", "-fprint", "-fprint0", "-fprintf", "-ls", "-fls",
           "-exec", "-execdir", "-ok", "-okdir", "-delete", "-quit"}
REGEX_TYPES = ["findutils-default", "ed", "emacs", "gnu-awk", "grep", "posix-awk", "awk",
               "posix-basic", "posix-egrep", "egrep", "posix-extended", "posix-minimal-basic",
               "sed"]


class Parser:
    def __init__(self, ctx: Ctx, toks: list[str]):
        self.ctx = ctx
        self.toks = toks
        self.i = 0
        self.has_action = False
        self.saw_test = None  # the first non-option argument, for -maxdepth warnings
        self.last = None  # the last primary parsed

    def peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self):
        t = self.toks[self.i]
        self.i += 1
        return t

    def arg(self, opt: str) -> str:
        if self.i >= len(self.toks):
            raise FindError(f"missing argument to {_bq(opt)}")
        return self.take()

    def parse(self) -> Node | None:
        if self.peek() is None:
            return None
        n = self.comma()
        if self.peek() is not None:
            t = self.peek()
            if t == ")":
                raise FindError("you have too many ')'")
            raise self.misplaced(t)
        return n

    def misplaced(self, t: str) -> FindError:
        msg = f"paths must precede expression: {_bq(t)}"
        if self.last in PATTERN_PRIMARIES:
            msg += f"\n{PROG}: possible unquoted pattern after predicate {_bq(self.last)}?"
        return FindError(msg)

    def comma(self) -> Node:
        a = self.or_()
        while self.peek() == ",":
            self.take()
            if self.peek() is None or self.peek() == ")":
                raise FindError("expected an expression after ','")
            b = self.or_()
            a = Node("comma", a=a, b=b)
        return a

    def or_(self) -> Node:
        a = self.and_()
        while self.peek() in ("-o", "-or"):
            op = self.take()
            if self.peek() is None or self.peek() in (")", ",", "-o", "-or", "-a", "-and"):
                raise FindError(f"expected an expression after '{op}'")
            b = self.and_()
            a = Node("or", a=a, b=b)
        return a

    def and_(self) -> Node:
        a = self.unary()
        while True:
            t = self.peek()
            if t in ("-a", "-and"):
                self.take()
                if self.peek() is None or self.peek() in (")", ",", "-o", "-or", "-a", "-and"):
                    raise FindError(f"expected an expression after '{t}'")
                a = Node("and", a=a, b=self.unary())
            elif t is None or t in (")", ",", "-o", "-or"):
                return a
            else:
                a = Node("and", a=a, b=self.unary())

    def unary(self) -> Node:
        t = self.peek()
        if t in ("!", "-not"):
            self.take()
            if self.peek() is None or self.peek() in (")", ",", "-o", "-or", "-a", "-and"):
                raise FindError(f"expected an expression after '{t}'")
            return Node("not", a=self.unary())
        if t == "(":
            self.take()
            if self.peek() == ")":
                raise FindError("invalid expression; empty parentheses are not allowed.")
            if self.peek() is None:
                raise FindError("invalid expression; I was expecting to find a ')' somewhere "
                                "but did not see one.")
            n = self.comma()
            if self.peek() != ")":
                raise FindError("invalid expression; I was expecting to find a ')' somewhere "
                                "but did not see one.")
            self.take()
            return n
        if t in ("-a", "-and", "-o", "-or", ","):
            raise FindError(f"invalid expression; you have used a binary operator '{t}' "
                            "with nothing before it.")
        if t == ")":
            raise FindError("invalid expression; you have too many ')'")
        return self.primary()

    # -- primaries --------------------------------------------------------
    def primary(self) -> Node:
        ctx = self.ctx
        t = self.take()
        if t in GLOBAL_OPTIONS:
            if self.saw_test is not None and ctx.warn:
                ctx.errors.append(
                    f"warning: you have specified the global option {t} after the argument "
                    f"{self.saw_test}, but global options are not positional, i.e., {t} "
                    "affects tests specified before it as well as those specified after it.  "
                    "Please specify global options before other arguments.")
            return self.global_option(t)
        if t in POSITIONAL_OPTIONS:
            return self.positional_option(t)
        if self.saw_test is None:
            self.saw_test = t
        handler = PRIMARIES.get(t)
        if handler is None:
            if t.startswith("-") and len(t) > 1:
                raise FindError(f"unknown predicate {_bq(t)}")
            raise self.misplaced(t)
        node = handler(self, t)
        self.last = t
        if node.action:
            self.has_action = True
        return node

    def global_option(self, t: str) -> Node:
        ctx = self.ctx
        if t in ("-maxdepth", "-mindepth"):
            v = self.arg(t)
            if not v.isdigit():
                raise FindError(f"Expected a positive decimal integer argument to {t}, but got "
                                f"{_lq(v)}")
            if t == "-maxdepth":
                ctx.maxdepth = int(v)
            else:
                ctx.mindepth = int(v)
        elif t in ("-depth", "-d"):
            ctx.depth_first = True
        elif t in ("-help", "--help"):
            raise HelpRequested()
        elif t in ("-version", "--version"):
            raise VersionRequested()
        return true_node(t)

    def positional_option(self, t: str) -> Node:
        ctx = self.ctx
        if t == "-daystart":
            ctx.daystart = True
        elif t == "-follow":
            ctx.follow = "L"
        elif t == "-regextype":
            v = self.arg(t)
            if v not in REGEX_TYPES:
                valid = ", ".join(_lq(x) for x in REGEX_TYPES)
                raise FindError(f"Unknown regular expression type {_lq(v)}; valid types are "
                                f"{valid}.")
            ctx.regextype = v
        elif t == "-warn":
            ctx.warn = True
        elif t == "-nowarn":
            ctx.warn = False
        return true_node(t)


class HelpRequested(Exception):
    pass


class VersionRequested(Exception):
    pass


def true_node(name: str) -> Node:
    return Node("pred", fn=lambda it: True, name=name)


def pred(name: str, fn, action: bool = False) -> Node:
    return Node("pred", fn=fn, name=name, action=action)


# -- name tests -------------------------------------------------------------
def _basename_for_name(it: Item) -> str:
    if it.depth > 0:
        return it.name
    p = it.path.rstrip("/")
    if not p:
        return "/"
    return p.rsplit("/", 1)[-1]


def p_name(p: Parser, t: str) -> Node:
    pat = p.arg(t)
    icase = t == "-iname"
    if "/" in pat and p.ctx.warn and pat != "/":
        p.ctx.errors.append(
            f"warning: {_lq(t)} matches against basenames only, but the given pattern contains "
            f"a directory separator ({_lq('/')}), thus the expression will evaluate to false "
            f"all the time.  Did you mean {_lq('-wholename')}?")
    simple = _simple_glob(pat) if not icase else None
    if simple is not None:
        kind, lit = simple
        if kind == "suffix":
            def fn(it):
                if it.depth:
                    return it.name.endswith(lit)
                return _basename_for_name(it).endswith(lit)
            return pred(t, fn)
        if kind == "exact":
            def fn(it):
                return (it.name if it.depth else _basename_for_name(it)) == lit
            return pred(t, fn)
    rx = compile_glob(pat, icase=icase).fullmatch

    def fn(it):
        return rx(it.name if it.depth else _basename_for_name(it)) is not None
    return pred(t, fn)


def _simple_glob(pat: str):
    special = set("*?[\\")
    if not any(c in special for c in pat):
        return "exact", pat
    if pat.startswith("*") and not any(c in special for c in pat[1:]):
        return "suffix", pat[1:]
    return None


def p_path(p: Parser, t: str) -> Node:
    pat = p.arg(t)
    rx = compile_glob(pat, icase=t in ("-ipath", "-iwholename")).fullmatch
    return pred(t, lambda it: rx(it.path) is not None)


def p_lname(p: Parser, t: str) -> Node:
    pat = p.arg(t)
    rx = compile_glob(pat, icase=t == "-ilname").fullmatch
    fs = p.ctx.fs

    def fn(it):
        if it.entry.type != "l":
            return False
        try:
            return rx(fs.readlink(it.path)) is not None
        except FileSystemError:
            return False
    return pred(t, fn)


def p_regex(p: Parser, t: str) -> Node:
    pat = p.arg(t)
    icase = t == "-iregex"
    try:
        text = regex_to_python(pat, p.ctx.regextype)
        re.compile(text, re.DOTALL | (re.IGNORECASE if icase else 0))
        # matched on the regex engine with the run's deadline ('\(a\|aa\)*b' backtracks)
        rx = compile_python(text, icase=icase, dotall=True, budget=p.ctx.shell.budget)
    except (re.error, ValueError, RegexError):
        raise FindError(f"Invalid regular expression {_lq(pat)}") from None
    m = rx.fullmatch
    return pred(t, lambda it: m(it.path) is not None)


# -- types and sizes ----------------------------------------------------------
def p_type(p: Parser, t: str) -> Node:
    v = p.arg(t)
    letters = v.split(",")
    for c in letters:
        if len(c) != 1 or c not in "bcdpflsD":
            if len(c) != 1:
                raise FindError(f"Must separate multiple arguments to {t} using: ','"
                                if c else f"Arguments to {t} should contain only one letter")
            raise FindError(f"Unknown argument to {t}: {c}")
    want = set(letters)
    ctx = p.ctx
    if t == "-type":
        if want == {"f"} or want == {"d"}:
            w = letters[0]
            if ctx.follow == "P":
                return pred(t, lambda it: it.entry.type == w)
        return pred(t, lambda it: ctx.type_char(it) in want)

    def xtype(it):
        e = it.entry
        if ctx.follow == "P" or (ctx.follow == "H" and it.depth > 0):
            if e.type == "l":
                try:
                    return _type_of(xstat(ctx.fs, it.path).st_mode) in want
                except FileSystemError:
                    return "l" in want
            return ctx.type_char(it) in want
        try:
            return _type_of(e.stat(False).st_mode) in want
        except FileSystemError:
            return False
    return pred(t, xtype)


def _num_arg(p: Parser, t: str, v: str):
    m = re.fullmatch(r"([+-]?)(\d+)", v)
    if not m:
        raise FindError(f"invalid argument {_bq(v)} to {_bq(t)}")
    return m.group(1), int(m.group(2))


def _cmp(sign: str, n: int):
    if sign == "+":
        return lambda x: x > n
    if sign == "-":
        return lambda x: x < n
    return lambda x: x == n


def p_size(p: Parser, t: str) -> Node:
    v = p.arg(t)
    m = re.fullmatch(r"([+-]?)(\d+)([bcwkMG]?)", v)
    if not m:
        m2 = re.fullmatch(r"[+-]?\d+(.)", v)
        if m2:
            raise FindError(f"invalid -size type {_bq(m2.group(1))}")
        raise FindError(f"invalid argument {_bq(v)} to {_bq(t)}")
    sign, n, unit = m.group(1), int(m.group(2)), m.group(3) or "b"
    size = {"b": 512, "c": 1, "w": 2, "k": 1024, "M": 1024 ** 2, "G": 1024 ** 3}[unit]
    c = _cmp(sign, n)
    ctx = p.ctx

    def fn(it):
        try:
            s = ctx.st(it).st_size
        except FileSystemError:
            return False
        return c(-(-s // size))
    return pred(t, fn)


def p_empty(p: Parser, t: str) -> Node:
    ctx = p.ctx

    def fn(it):
        try:
            st = ctx.st(it)
        except FileSystemError:
            return False
        if _stat.S_ISREG(st.st_mode):
            return st.st_size == 0
        if _stat.S_ISDIR(st.st_mode):
            try:
                return not ctx.fs.scandir(it.path)
            except FileSystemError:
                return False
        return False
    return pred(t, fn)


# -- times ---------------------------------------------------------------------
def p_time(p: Parser, t: str) -> Node:
    v = p.arg(t)
    sign, n = _num_arg(p, t, v)
    ctx = p.ctx
    field = {"a": "st_atime", "m": "st_mtime", "c": "st_ctime"}[t[1]]
    unit = 86400 if t.endswith("time") else 60
    c = _cmp(sign, n)
    if ctx.daystart:
        dt = localtime(ctx.shell, ctx.now)
        origin = ctx.now - (dt.hour * 3600 + dt.minute * 60 + dt.second) + 86400
    else:
        origin = ctx.now

    def fn(it):
        try:
            ts = getattr(ctx.st(it), field)
        except FileSystemError:
            return False
        return c(math.floor((origin - ts) / unit))
    return pred(t, fn)


def p_newer(p: Parser, t: str) -> Node:
    ref = p.arg(t)
    ctx = p.ctx
    try:
        st = xstat(ctx.fs, ref) if ctx.follow != "P" else xlstat(ctx.fs, ref)
    except FileSystemError as e:
        raise FindError(f"{_lq(ref)}: {strerror(e)}") from None
    field = {"-newer": "st_mtime_ns", "-anewer": "st_atime_ns", "-cnewer": "st_ctime_ns"}[t]
    refv = st.st_mtime_ns

    def fn(it):
        try:
            return getattr(ctx.st(it), field) > refv
        except FileSystemError:
            return False
    return pred(t, fn)


def p_newerxy(p: Parser, t: str) -> Node:
    ref = p.arg(t)
    x, y = t[-2], t[-1]
    ctx = p.ctx
    if x not in "amc" or y not in "amctB" or x == "B":
        raise FindError(f"invalid predicate {_bq(t)}")
    if y == "t":
        refv = _parse_date(ctx, ref)
        if refv is None:
            raise FindError(f"I cannot figure out how to interpret {_lq(ref)} as a date or time")
    else:
        try:
            st = xstat(ctx.fs, ref)
        except FileSystemError as e:
            raise FindError(f"{_lq(ref)}: {strerror(e)}") from None
        refv = getattr(st, {"a": "st_atime_ns", "m": "st_mtime_ns", "c": "st_ctime_ns"}[y])
    field = {"a": "st_atime_ns", "m": "st_mtime_ns", "c": "st_ctime_ns"}[x]

    def fn(it):
        try:
            return getattr(ctx.st(it), field) > refv
        except FileSystemError:
            return False
    return pred(t, fn)


def _parse_date(ctx: Ctx, text: str) -> int | None:
    import datetime

    tz = localtime(ctx.shell, 0).tzinfo
    for fmt in ("%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%d", "%Y-%m-%dT%H:%M:%S",
                "%Y/%m/%d %H:%M:%S", "%Y/%m/%d"):
        try:
            dt = datetime.datetime.strptime(text.strip(), fmt).replace(tzinfo=tz)
            return int(dt.timestamp()) * 1_000_000_000
        except ValueError:
            continue
    if text.startswith("@") and text[1:].isdigit():
        return int(text[1:]) * 1_000_000_000
    return None


# -- permissions, owners, links ------------------------------------------------
def p_perm(p: Parser, t: str) -> Node:
    v = p.arg(t)
    kind = ""
    spec = v
    if v[:1] in ("-", "/", "+") and len(v) > 1:
        kind, spec = v[0], v[1:]
        if kind == "+" and not spec.isdigit():
            kind, spec = "", v
    fn_mode = parse_mode(spec)
    if fn_mode is None:
        raise FindError(f"invalid mode {_lq(v)}")
    want = fn_mode(0, False, 0)
    ctx = p.ctx

    def fn(it):
        try:
            m = ctx.st(it).st_mode & 0o7777
        except FileSystemError:
            return False
        if kind == "-":
            return m & want == want
        if kind in ("/", "+"):
            return want == 0 or bool(m & want)
        return m == want
    return pred(t, fn)


KNOWN_USERS = {USER: UID, "root": 0}


def p_user(p: Parser, t: str) -> Node:
    v = p.arg(t)
    if v in KNOWN_USERS:
        n = KNOWN_USERS[v]
    elif v.isdigit():
        n = int(v)
    else:
        what = "user" if t == "-user" else "group"
        raise FindError(f"{_lq(v)} is not the name of a known {what}")
    mine = UID if t == "-user" else GID
    return pred(t, lambda it: n == mine)


def p_uid(p: Parser, t: str) -> Node:
    sign, n = _num_arg(p, t, p.arg(t))
    c = _cmp(sign, n)
    mine = UID if t == "-uid" else GID
    return pred(t, lambda it: c(mine))


def p_links(p: Parser, t: str) -> Node:
    sign, n = _num_arg(p, t, p.arg(t))
    c = _cmp(sign, n)
    ctx = p.ctx
    field = "st_nlink" if t == "-links" else "st_ino"

    def fn(it):
        try:
            return c(getattr(ctx.st(it), field))
        except FileSystemError:
            return False
    return pred(t, fn)


def p_samefile(p: Parser, t: str) -> Node:
    ref = p.arg(t)
    ctx = p.ctx
    try:
        st = xstat(ctx.fs, ref) if ctx.follow == "L" else xlstat(ctx.fs, ref)
    except FileSystemError as e:
        raise FindError(f"{_lq(ref)}: {strerror(e)}") from None
    key = (st.st_dev, st.st_ino)

    def fn(it):
        try:
            s = ctx.st(it)
        except FileSystemError:
            return False
        return (s.st_dev, s.st_ino) == key
    return pred(t, fn)


def p_access(p: Parser, t: str) -> Node:
    import os

    mode = {"-readable": os.R_OK, "-writable": os.W_OK, "-executable": os.X_OK}[t]
    fs = p.ctx.fs
    return pred(t, lambda it: fs.access(it.path, mode))


def p_const(p: Parser, t: str) -> Node:
    v = t == "-true"
    return pred(t, lambda it: v)


def p_nouser(p: Parser, t: str) -> Node:
    return pred(t, lambda it: False)


def p_fstype(p: Parser, t: str) -> Node:
    v = p.arg(t)
    return pred(t, lambda it: v == "pysh")


def p_skip_arg(p: Parser, t: str) -> Node:
    p.arg(t)
    return true_node(t)


# -- actions -------------------------------------------------------------------
def _emit(ctx: Ctx, data: bytes, out: Output | None = None) -> None:
    (out or ctx.out).buf += data


def p_print(p: Parser, t: str) -> Node:
    ctx = p.ctx
    end = b"\0" if t == "-print0" else b"\n"
    buf = ctx.out.buf

    def fn(it):
        buf.extend(encode(it.path))
        buf.extend(end)
        return True
    return pred(t, fn, action=True)


def _open_out(p: Parser, name: str) -> Output:
    ctx = p.ctx
    if name in ctx.files:
        return ctx.files[name]
    try:
        stream = ctx.shell.open_output(name)
    except FileSystemError as e:
        raise FindError(f"{_lq(name)}: {strerror(e)}") from None
    out = Output(stream)
    ctx.files[name] = out
    return out


def p_fprint(p: Parser, t: str) -> Node:
    out = _open_out(p, p.arg(t))
    end = b"\0" if t == "-fprint0" else b"\n"

    def fn(it):
        out.buf += encode(it.path) + end
        return True
    return pred(t, fn, action=True)


def p_printf(p: Parser, t: str) -> Node:
    ctx = p.ctx
    if t == "-fprintf":
        out = _open_out(p, p.arg(t))
    else:
        out = ctx.out
    fmt = p.arg(t)
    render = compile_format(ctx, fmt)

    def fn(it):
        out.buf += render(it)
        return True
    return pred(t, fn, action=True)


def p_ls(p: Parser, t: str) -> Node:
    ctx = p.ctx
    out = _open_out(p, p.arg(t)) if t == "-fls" else ctx.out
    widths = {"ino": 9, "blocks": 6, "nlink": 3, "size": 8}

    def fn(it):
        try:
            st = ctx.st(it)
        except FileSystemError as e:
            _report(ctx, it.path, e)
            return True
        vals = {"ino": str(st.st_ino), "blocks": str(((st.st_blocks or 0) + 1) // 2),
                "nlink": str(st.st_nlink), "size": str(st.st_size)}
        if _stat.S_ISLNK(st.st_mode):
            try:
                vals["size"] = str(len(encode(ctx.fs.readlink(it.path))))
            except FileSystemError:
                pass
        for k, v in vals.items():
            if len(v) > widths[k]:
                widths[k] = len(v)
        line = (f"{vals['ino']:>{widths['ino']}} {vals['blocks']:>{widths['blocks']}} "
                f"{mode_string(st.st_mode)} {vals['nlink']:>{widths['nlink']}} "
                f"{USER:<8} {USER:<8} {vals['size']:>{widths['size']}} "
                f"{ls_date(ctx.shell, st.st_mtime, ctx.now)} {it.path}")
        if _stat.S_ISLNK(st.st_mode):
            try:
                line += " -> " + ctx.fs.readlink(it.path)
            except FileSystemError:
                pass
        out.buf += encode(line + "\n")
        return True
    return pred(t, fn, action=True)


def p_prune(p: Parser, t: str) -> Node:
    def fn(it):
        it.prune = True
        return True
    return pred(t, fn)


def p_quit(p: Parser, t: str) -> Node:
    def fn(it):
        raise Quit()
    return pred(t, fn, action=True)


def p_delete(p: Parser, t: str) -> Node:
    ctx = p.ctx
    ctx.depth_first = True
    fs = ctx.fs

    def fn(it):
        if it.depth == 0 and it.path in (".", "./"):
            return True
        try:
            if it.entry.type == "d":
                fs.rmdir(it.path)
            else:
                fs.unlink(it.path)
            return True
        except FileSystemError as e:
            ctx.errors.append(f"cannot delete {_lq(it.path)}: {strerror(e)}")
            ctx.status = 1
            return False
    return pred(t, fn, action=True)


def p_exec(p: Parser, t: str) -> Node:
    ctx = p.ctx
    cmd: list[str] = []
    plus = False
    while True:
        if p.peek() is None:
            raise FindError(f"missing argument to {_bq(t)}")
        a = p.take()
        if a == ";":
            break
        if a == "+" and cmd and "{}" in cmd[-1] and t in ("-exec", "-execdir"):
            if cmd[-1] != "{}":
                raise FindError(f"In {_lq(t + ' ... {} +')} the {_lq('{}')} must appear by "
                                f"itself, but you specified {_lq(cmd[-1])}")
            plus = True
            cmd.pop()
            break
        cmd.append(a)
    if not cmd:
        raise FindError(f"missing argument to {_bq(t)}")
    if plus:
        for a in cmd:
            if "{}" in a:
                raise FindError(f"In {_lq(t + ' ... {} +')} the {_lq('{}')} must appear by "
                                f"itself, but you specified {_lq(a)}")
    in_dir = t in ("-execdir", "-okdir")
    ask = t in ("-ok", "-okdir")
    shell = ctx.shell

    def place(it) -> tuple[str, str | None]:
        if not in_dir:
            return it.path, None
        path = it.path.rstrip("/") or "/"
        if path == "/":
            return "/", "/"
        if "/" not in path:
            return "./" + path, shell.cwd
        parent, name = path.rsplit("/", 1)
        return "./" + name, shell.fs.abspath(parent or "/")

    if plus:
        batch = {"dir": None, "args": [], "size": 0}
        ctx.batches.append((batch, cmd, t))

        async def run_plus(it):
            name, cwd = place(it)
            if batch["args"] and (batch["dir"] != cwd or batch["size"] > 120_000):
                await flush_batch(ctx, batch, cmd)
            batch["dir"] = cwd
            batch["args"].append(name)
            batch["size"] += len(name) + 1
            return True
        return Node("pred", afn=run_plus, name=t, action=True)

    async def run_one(it):
        name, cwd = place(it)
        argv = [a.replace("{}", name) for a in cmd]
        await ctx.out.flush()
        if ask:
            if not await _confirm(ctx, argv[0], it.path):
                return False
        status = await shell.run(argv, cwd=cwd) if cwd else await shell.run(argv)
        return status == 0
    return Node("pred", afn=run_one, name=t, action=True)


async def _confirm(ctx: Ctx, cmd: str, path: str) -> bool:
    shell = ctx.shell
    if shell.stdin.isatty():
        await _flush_errors(ctx)
        await shell.error(PROG, "-ok: cannot ask for confirmation on a terminal from inside "
                                "the sandbox; use -exec")
        ctx.status = 1
        return False
    prompt = f"< {cmd} ... {path} > ? "
    await shell.stderr.write(encode(prompt))
    line = await shell.stdin.readline()
    return line[:1] in (b"y", b"Y")


async def flush_batch(ctx: Ctx, batch: dict, cmd: list[str]) -> None:
    if not batch["args"]:
        return
    args, cwd = batch["args"], batch["dir"]
    batch["args"], batch["size"] = [], 0
    await ctx.out.flush()
    argv = cmd + args
    status = await ctx.shell.run(argv, cwd=cwd) if cwd else await ctx.shell.run(argv)
    if status != 0:
        ctx.status = 1


PRIMARIES = {
    "-name": p_name, "-iname": p_name,
    "-path": p_path, "-ipath": p_path, "-wholename": p_path, "-iwholename": p_path,
    "-lname": p_lname, "-ilname": p_lname,
    "-regex": p_regex, "-iregex": p_regex,
    "-type": p_type, "-xtype": p_type,
    "-size": p_size, "-empty": p_empty,
    "-mtime": p_time, "-atime": p_time, "-ctime": p_time,
    "-mmin": p_time, "-amin": p_time, "-cmin": p_time,
    "-newer": p_newer, "-anewer": p_newer, "-cnewer": p_newer,
    "-perm": p_perm, "-user": p_user, "-group": p_user, "-uid": p_uid, "-gid": p_uid,
    "-nouser": p_nouser, "-nogroup": p_nouser,
    "-links": p_links, "-inum": p_links, "-samefile": p_samefile,
    "-readable": p_access, "-writable": p_access, "-executable": p_access,
    "-true": p_const, "-false": p_const, "-fstype": p_fstype,
    "-print": p_print, "-print0": p_print, "-fprint": p_fprint, "-fprint0": p_fprint,
    "-printf": p_printf, "-fprintf": p_printf, "-ls": p_ls, "-fls": p_ls,
    "-prune": p_prune, "-quit": p_quit, "-delete": p_delete,
    "-exec": p_exec, "-execdir": p_exec, "-ok": p_exec, "-okdir": p_exec,
}
for _x in "amc":
    for _y in "amct":
        PRIMARIES[f"-newer{_x}{_y}"] = p_newerxy


# ---------------------------------------------------------------- -printf
_ESC = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v",
        "\\": "\\", "0": "\0"}


def compile_format(ctx: Ctx, fmt: str):
    pieces: list = []
    lit: list[str] = []
    i = 0
    n = len(fmt)

    def flush_lit():
        if lit:
            pieces.append(encode("".join(lit)))
            lit.clear()

    while i < n:
        c = fmt[i]
        if c == "\\" and i + 1 < n:
            d = fmt[i + 1]
            if d in "01234567":
                j = i + 1
                while j < n and j < i + 4 and fmt[j] in "01234567":
                    j += 1
                lit.append(chr(int(fmt[i + 1:j], 8) & 0xFF))
                i = j
                continue
            if d == "c":
                flush_lit()
                pieces.append(None)
                break
            if d in _ESC:
                lit.append(_ESC[d])
            else:
                ctx.errors.append(f"warning: unrecognized escape {_bq(chr(92) + d)}")
                lit.append("\\" + d)
            i += 2
            continue
        if c == "%" and i + 1 < n:
            m = re.match(r"%([-+ #0]*)(\d*)(?:\.(\d+))?", fmt[i:])
            j = i + m.end()
            if j >= n:
                lit.append(fmt[i:])
                break
            d = fmt[j]
            flags, width, prec = m.group(1), m.group(2), m.group(3)
            if d == "%":
                lit.append("%")
                i = j + 1
                continue
            if d in "aAcCtT" and d not in "act" or d in "ACT":
                if j + 1 >= n:
                    lit.append(fmt[i:])
                    break
                k = fmt[j + 1]
                getter = _time_directive(ctx, d, k)
                j += 1
            else:
                getter = _DIRECTIVES.get(d)
                if getter is None:
                    ctx.errors.append(f"warning: unrecognized format directive {_bq('%' + d)}")
                    lit.append(fmt[i:j + 1])
                    i = j + 1
                    continue
            flush_lit()
            pieces.append(_with_width(ctx, getter, d, flags, width, prec))
            i = j + 1
            continue
        lit.append(c)
        i += 1
    flush_lit()

    def render(it) -> bytes:
        out = bytearray()
        for pc in pieces:
            if pc is None:
                break
            if isinstance(pc, bytes):
                out += pc
            else:
                out += encode(pc(it))
        return bytes(out)
    return render


_NUMERIC = set("dDiknsSbGU")


def _with_width(ctx, getter, d, flags, width, prec):
    def f(it):
        try:
            v = getter(ctx, it)
        except FileSystemError as e:
            _report(ctx, it.path, e)
            v = ""
        if prec is not None and d not in _NUMERIC:
            v = v[: int(prec)]
        if width:
            w = int(width)
            if "-" in flags:
                v = v.ljust(w)
            else:
                v = v.rjust(w)
        return v
    return f


def _report(ctx: Ctx, path: str, e: OSError) -> None:
    ctx.errors.append(f"{_lq(path)}: {strerror(e)}")
    ctx.status = 1


def _d_path(ctx, it):
    return it.path


def _d_name(ctx, it):
    if it.depth:
        return it.name
    p = it.path.rstrip("/")
    return p.rsplit("/", 1)[-1] if p else "/"


def _d_head(ctx, it):
    p = it.path.rstrip("/") if it.depth == 0 else it.path
    if "/" not in p:
        return "."
    return p.rsplit("/", 1)[0]


def _d_rel(ctx, it):
    if it.depth == 0:
        return ""
    top = ctx.top
    p = it.path
    t = top.rstrip("/") or "/"
    if p.startswith(t):
        return p[len(t):].lstrip("/")
    return p


def _d_link(ctx, it):
    if it.entry.type != "l":
        return ""
    try:
        return ctx.fs.readlink(it.path)
    except FileSystemError:
        return ""


def _d_Y(ctx, it):
    if it.entry.type != "l":
        return ctx.type_char(it)
    try:
        return _type_of(xstat(ctx.fs, it.path).st_mode)
    except FileSystemError as e:
        return {errno.ENOENT: "N", errno.ELOOP: "L"}.get(e.errno, "?")


_DIRECTIVES = {
    "p": _d_path, "f": _d_name, "h": _d_head, "P": _d_rel,
    "H": lambda ctx, it: ctx.top,
    "d": lambda ctx, it: str(it.depth),
    "s": lambda ctx, it: str(ctx.st(it).st_size),
    "m": lambda ctx, it: "%o" % (ctx.st(it).st_mode & 0o7777),
    "M": lambda ctx, it: mode_string(ctx.st(it).st_mode),
    "n": lambda ctx, it: str(ctx.st(it).st_nlink),
    "i": lambda ctx, it: str(ctx.st(it).st_ino),
    "k": lambda ctx, it: str(((ctx.st(it).st_blocks or 0) + 1) // 2),
    "b": lambda ctx, it: str(ctx.st(it).st_blocks or 0),
    "D": lambda ctx, it: str(ctx.st(it).st_dev),
    "u": lambda ctx, it: USER, "g": lambda ctx, it: USER,
    "U": lambda ctx, it: str(UID), "G": lambda ctx, it: str(GID),
    "y": lambda ctx, it: ctx.type_char(it),
    "Y": _d_Y, "l": _d_link,
    "F": lambda ctx, it: "pysh",
    "S": lambda ctx, it: _sparseness(ctx.st(it)),
    "Z": lambda ctx, it: "",
    "a": lambda ctx, it: _ctime(ctx, ctx.st(it).st_atime_ns),
    "c": lambda ctx, it: _ctime(ctx, ctx.st(it).st_ctime_ns),
    "t": lambda ctx, it: _ctime(ctx, ctx.st(it).st_mtime_ns),
}


def _sparseness(st) -> str:
    if st.st_size == 0:
        return "1"
    return f"{st.st_blocks * 512 / st.st_size:g}"


_DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]


def _frac(ns: int) -> str:
    return f"{ns % 1_000_000_000:09d}0"


def _ctime(ctx: Ctx, ns: int) -> str:
    dt = localtime(ctx.shell, ns // 1_000_000_000)
    from pysh.builtins._fileutil import _MONTHS

    return (f"{_DAYS[dt.weekday()]} {_MONTHS[dt.month - 1]} {dt.day:2d} "
            f"{dt.hour:02d}:{dt.minute:02d}:{dt.second:02d}.{_frac(ns)} {dt.year}")


def _time_directive(ctx: Ctx, d: str, k: str):
    field = {"A": "st_atime_ns", "C": "st_ctime_ns", "T": "st_mtime_ns"}[d]

    def get(ctx, it):
        ns = getattr(ctx.st(it), field)
        secs = ns // 1_000_000_000
        if k == "@":
            return f"{secs}.{_frac(ns)}"
        dt = localtime(ctx.shell, secs)
        if k == "+":
            return dt.strftime("%Y-%m-%d+%H:%M:%S") + "." + _frac(ns)
        if k == "S":
            return f"{dt.second:02d}.{_frac(ns)}"
        if k == "T":
            return dt.strftime("%H:%M:%S") + "." + _frac(ns)
        if k == "k":
            return f"{dt.hour:2d}"
        if k == "l":
            return f"{(dt.hour % 12) or 12:2d}"
        if k == "e":
            return f"{dt.day:2d}"
        if k in "aAbBcCdDFgGhHIjmMnNpPrRstuUVwWxXyYzZ+":
            if k == "c":
                return dt.strftime("%a %b %e %H:%M:%S %Y")
            if k == "x":
                return dt.strftime("%m/%d/%y")
            if k == "X":
                return dt.strftime("%H:%M:%S")
            return dt.strftime("%" + k)
        return ""
    return get


# ---------------------------------------------------------------- regexes
def regex_to_python(pat: str, rtype: str) -> str:
    """Translate a find -regex pattern (emacs, POSIX basic/extended, ...) to Python syntax."""
    if rtype in ("emacs", "findutils-default"):
        ops_escaped = set("()|")  # \( \) \| are operators; + ? are operators unescaped
        plain_ops = set("+?*")
        intervals_escaped = False
    elif rtype in ("posix-basic", "grep", "ed", "sed", "posix-minimal-basic"):
        ops_escaped = set("()|+?{}")
        plain_ops = set("*")
        intervals_escaped = True
    else:  # extended flavours
        ops_escaped = set()
        plain_ops = set("+?*(){}|")
        intervals_escaped = False
    out = []
    i = 0
    n = len(pat)
    while i < n:
        c = pat[i]
        if c == "\\" and i + 1 < n:
            d = pat[i + 1]
            i += 2
            if d in ops_escaped:
                out.append(d)
            elif d.isdigit():
                out.append("\\" + d)
            elif d in "wWsSbB":
                out.append("\\" + d)
            elif d == "<":
                out.append(r"\b(?=\w)")
            elif d == ">":
                out.append(r"\b(?<=\w)")
            elif d == "`":
                out.append(r"\A")
            elif d == "'":
                out.append(r"\Z")
            else:
                out.append(re.escape(d))
            continue
        if c == "[":
            br = _bracket(pat, i, False)
            if br is None:
                raise ValueError("unterminated bracket")
            out.append(br[0])
            i = br[1]
            continue
        if c in plain_ops:
            if c in "{}" and intervals_escaped:
                out.append(re.escape(c))
            else:
                out.append(c)
        elif c in "^$.":
            out.append(c)
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


# ----------------------------------------------------------------- driver
def split_args(args: list[str]):
    """Leading -H/-L/-P/-D/-O options, the starting points, and the expression."""
    i = 0
    follow = "P"
    while i < len(args):
        a = args[i]
        if a in ("-H", "-L", "-P"):
            follow = a[1]
            i += 1
        elif a == "-D":
            i += 2
        elif a.startswith("-O") and a[2:].isdigit():
            i += 1
        elif a == "--":
            i += 1
            break
        elif a.startswith("-") and len(a) > 1 and set(a[1:]) <= set("HLP"):
            follow = a[-1]
            i += 1
        else:
            break
    starts = []
    while i < len(args):
        a = args[i]
        if (a.startswith("-") and a != "-") or a in ("(", "!"):
            break
        starts.append(a)
        i += 1
    return follow, starts, args[i:]


@on_write_error(1, "{prog}: ‘standard output’: {strerror}\n{prog}: write error\n")
async def main(shell, argv: list[str]) -> int:
    ctx = Ctx(shell)
    follow, starts, expr = split_args(argv[1:])
    ctx.follow = follow
    parser = Parser(ctx, expr)
    try:
        root = parser.parse()
        if ctx.follow != follow and follow != "P":
            pass
    except HelpRequested:
        await shell.stdout.write(encode(HELP.strip("\n") + "\n"))
        return 0
    except VersionRequested:
        await shell.stdout.write(b"find (pysh) 1.0\n")
        return 0
    except FindError as e:
        await _flush_errors(ctx)
        await shell.error(PROG, str(e))
        await _close_files(ctx)
        return 1
    await _flush_errors(ctx)
    if root is None:
        root = pred("-print", p_print(parser, "-print").fn, action=True)
    elif not parser.has_action:
        root = Node("and", a=root, b=p_print(parser, "-print"))
    if not starts:
        starts = ["."]
    is_async = root.is_async()
    evaluate = compile_async(root) if is_async else compile_sync(root)
    try:
        for top in starts:
            ctx.top = top
            await run_start(ctx, top, evaluate, is_async)
            if ctx.quit:
                break
        for batch, cmd, _t in ctx.batches:
            await flush_batch(ctx, batch, cmd)
    finally:
        await ctx.out.flush()
        await _flush_errors(ctx)
        await _close_files(ctx)
    return ctx.status


async def _flush_errors(ctx: Ctx) -> None:
    if ctx.errors:
        msg = "".join(f"{PROG}: {m}\n" for m in ctx.errors)
        ctx.errors.clear()
        await ctx.shell.stderr.write(encode(msg))


async def _close_files(ctx: Ctx) -> None:
    for out in ctx.files.values():
        try:
            await out.flush()
        finally:
            out.stream.close()
    ctx.files.clear()


async def run_start(ctx: Ctx, top: str, evaluate, is_async: bool) -> None:
    shell = ctx.shell
    if top == "":
        ctx.errors.append(f"{_lq('')}: No such file or directory")
        ctx.status = 1
        return
    try:
        entry = TopEntry(ctx, top)
    except FileSystemError as e:
        ctx.errors.append(f"{_lq(top)}: {strerror(e)}")
        ctx.status = 1
        return
    is_dir = entry.type == "d" or (entry.link_stat is not None
                                   and _stat.S_ISDIR(entry.link_stat.st_mode))
    it = Item("entry", entry, top, top, 0, is_dir)
    maxd, mind = ctx.maxdepth, ctx.mindepth
    depth_first = ctx.depth_first
    out = ctx.out
    try:
        if not depth_first or not is_dir:
            if mind <= 0:
                if is_async:
                    await evaluate(it)
                else:
                    evaluate(it)
        if not is_dir or it.prune and not depth_first or (maxd is not None and maxd <= 0):
            if depth_first and is_dir and mind <= 0:
                await _eval(evaluate, it, is_async)
            return
        follow = ctx.follow == "L"
        ancestors = []
        if follow:
            try:
                st = xstat(shell.fs, top)
                ancestors.append(((st.st_dev, st.st_ino), top))
            except FileSystemError:
                pass
        walker = walk_ordered(shell, top, follow=follow)
        errors = ctx.errors
        for item in walker:
            kind = item.kind
            if kind == "entry":
                d = item.depth
                if item.is_dir:
                    if maxd is not None and d >= maxd:
                        item.prune = True
                    elif follow:
                        _loop_check(ctx, item, ancestors)
                    if depth_first:
                        continue
                if d >= mind:
                    if is_async:
                        await evaluate(item)
                    else:
                        evaluate(item)
                if len(out.buf) >= 65536:
                    await out.flush()
                if errors and len(errors) > 64:
                    await _flush_errors(ctx)
            elif kind == "post":
                if follow and ancestors and ancestors[-1][1] == item.path:
                    ancestors.pop()
                if depth_first and item.depth >= mind:
                    await _eval(evaluate, item, is_async)
            else:
                e = item.error
                if ctx.follow != "P" and e.errno == errno.ENOENT:
                    continue
                ctx.errors.append(f"{_lq(e.vpath or item.path)}: {strerror(e)}")
                ctx.status = 1
                await out.flush()
                await _flush_errors(ctx)
        if depth_first and mind <= 0:
            await _eval(evaluate, it, is_async)
    except Quit:
        ctx.quit = True


async def _eval(evaluate, it, is_async: bool):
    if is_async:
        return await evaluate(it)
    return evaluate(it)


def _loop_check(ctx: Ctx, item: Item, ancestors: list) -> None:
    try:
        st = item.entry.stat(True) if item.entry.type == "l" else item.entry.stat(False)
    except FileSystemError:
        return
    key = (st.st_dev, st.st_ino)
    for k, p in ancestors:
        if k == key:
            ctx.errors.append(f"File system loop detected; {_lq(item.path)} is part of the same "
                              f"file system loop as {_lq(p)}.")
            ctx.status = 1
            item.prune = True
            return
    while ancestors and not item.path.startswith(ancestors[-1][1].rstrip("/") + "/"):
        ancestors.pop()
    ancestors.append((key, item.path))
