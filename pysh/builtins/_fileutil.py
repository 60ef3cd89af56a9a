"""Shared helpers of the file utilities (ls, cp, find, ...): private to the FILES block.

Quoting of names in diagnostics as GNU does it, option parsing with GNU's
usage wording, error texts built from errno and the virtual path, mode
strings, human-readable sizes, the synthetic owner, and time zones taken
from the script's ``TZ`` (UTC when unset; never the host's).
"""

from __future__ import annotations

import errno as _errno
import os
import stat as _stat
import time
from collections.abc import Mapping

from pysh.shellkit import FileSystemError
from pysh.shellkit.options import OptionError, parse_options
from pysh.shellkit.text import decode, encode

# The synthetic owner of every file (see pysh/interpreter/exec_command.py).
USER = "user"
UID = 1000
GID = 1000


class Usage(Exception):
    """A usage error: ``prog: message`` then the ``Try '--help'`` line; exit ``status``."""

    def __init__(self, message: str, status: int = 1, hint: bool = True):
        super().__init__(message)
        self.message = message
        self.status = status
        self.hint = hint


class Output:
    """Collects output bytes and writes them in chunks of at least 64 KiB."""

    __slots__ = ("stream", "buf")

    def __init__(self, stream):
        self.stream = stream
        self.buf = bytearray()

    async def write(self, data: bytes) -> None:
        self.buf += data
        if len(self.buf) >= 65536:
            await self.flush()

    def add(self, data: bytes) -> None:
        self.buf += data

    async def text(self, s: str) -> None:
        await self.write(encode(s))

    async def flush(self) -> None:
        if self.buf:
            data = bytes(self.buf)
            self.buf.clear()
            await self.stream.write(data)


async def usage_error(shell, prog: str, err: Usage) -> int:
    msg = f"{prog}: {err.message}\n" if err.message else ""
    if err.hint:
        msg += f"Try '{prog} --help' for more information.\n"
    await shell.stderr.write(encode(msg))
    return err.status


def parse(args: list[str], short: str, long: Mapping[str, str] | None = None, *,
          status: int = 1, permute: bool = True):
    """parse_options, with OptionError turned into :class:`Usage` (exit ``status``)."""
    lng = dict(long or {})
    lng.setdefault("help", "help")
    lng.setdefault("version", "version")
    try:
        return parse_options(args, short, lng, permute=permute)
    except OptionError as e:
        raise Usage(str(e), status) from None


async def help_or_version(shell, prog: str, opts, help_text: str) -> bool:
    """Answer --help / --version; True when the command should exit 0 now."""
    for k, _ in opts:
        if k == "help":
            await shell.stdout.write(encode(help_text.strip("\n") + "\n"))
            return True
        if k == "version":
            await shell.stdout.write(encode(f"{prog} (pysh) 1.0\n"))
            return True
    return False


# ------------------------------------------------------------------ quoting
_C_ESCAPES = {"\a": "a", "\b": "b", "\f": "f", "\n": "n", "\r": "r", "\t": "t", "\v": "v"}
_SHELL_SPECIAL = set("\t\n !\"#$&'()*;<=>?[\\]^`{|}~")


def _needs_escape(ch: str) -> bool:
    o = ord(ch)
    return o < 32 or o == 127 or 0xDC80 <= o <= 0xDCFF


def _escape_char(ch: str) -> str:
    if ch in _C_ESCAPES:
        return "\\" + _C_ESCAPES[ch]
    o = ord(ch)
    if 0xDC80 <= o <= 0xDCFF:
        o -= 0xDC00
    return f"\\{o:03o}"


def q(name: str) -> str:
    """GNU's quoting of a file name in diagnostics (shell-escape-always): 'x', "it's", 'a'$'\\n''b'."""
    if "'" in name and not any(_needs_escape(c) or c in "$`\\\"!" for c in name):
        return '"' + name + '"'
    out = ["'"]
    in_quote = True
    for ch in name:
        if _needs_escape(ch):
            if in_quote:
                out.append("'")
                in_quote = False
            out.append("$'" + _escape_char(ch) + "'")
            continue
        if not in_quote:
            out.append("'")
            in_quote = True
        if ch == "'":
            out.append("'\\''")
        else:
            out.append(ch)
    if in_quote:
        out.append("'")
    return "".join(out)


def lq(name: str) -> str:
    """gnulib's locale quoting (find, mkdir, mktemp): ‘x’ with C escapes inside."""
    out = []
    for ch in name:
        if _needs_escape(ch):
            out.append(_escape_char(ch))
        elif ch == "\\":
            out.append("\\\\")
        else:
            out.append(ch)
    return "\u2018" + "".join(out) + "\u2019"


def shell_quote_name(name: str) -> str:
    """ls's shell-escape quoting of a listed name (only quoted when needed)."""
    if name and not any(c in _SHELL_SPECIAL or _needs_escape(c) for c in name):
        return name
    return q(name)


# ------------------------------------------------------------------- errors
def strerror(e: OSError | int) -> str:
    code = e if isinstance(e, int) else (e.errno or _errno.EIO)
    return os.strerror(code)


# --------------------------------------------------------------- file modes
def mode_string(mode: int) -> str:
    return _stat.filemode(mode)


def type_char(mode: int) -> str:
    return _stat.filemode(mode)[0]


def file_type_name(mode: int, size: int = 1) -> str:
    """stat's %F."""
    if _stat.S_ISREG(mode):
        return "regular file" if size else "regular empty file"
    if _stat.S_ISDIR(mode):
        return "directory"
    if _stat.S_ISLNK(mode):
        return "symbolic link"
    if _stat.S_ISFIFO(mode):
        return "fifo"
    if _stat.S_ISSOCK(mode):
        return "socket"
    if _stat.S_ISCHR(mode):
        return "character special file"
    if _stat.S_ISBLK(mode):
        return "block special file"
    return "weird file"


# ------------------------------------------------------------------- sizes
_UNITS = "KMGTPEZYRQ"


def human(n: int, base: int = 1024) -> str:
    """GNU's -h (ceiling rounding, one decimal below 10): 512, 1.0K, 4.0K, 12K, 1.5M."""
    if n < base:
        return str(n)
    i = 0
    div = base
    while n >= div * base and i < len(_UNITS) - 1:
        div *= base
        i += 1
    tenths = -(-n * 10 // div)
    if tenths < 100:
        return f"{tenths // 10}.{tenths % 10}{_UNITS[i]}"
    whole = -(-n // div)
    if whole >= base and i < len(_UNITS) - 1:
        return f"1.0{_UNITS[i + 1]}"
    return f"{whole}{_UNITS[i]}"


_SIZE_SUFFIX = {"": 1, "K": 1024, "M": 1024 ** 2, "G": 1024 ** 3, "T": 1024 ** 4,
                "P": 1024 ** 5, "E": 1024 ** 6, "Z": 1024 ** 7, "Y": 1024 ** 8,
                "KB": 1000, "MB": 1000 ** 2, "GB": 1000 ** 3, "TB": 1000 ** 4,
                "PB": 1000 ** 5, "EB": 1000 ** 6, "ZB": 1000 ** 7, "YB": 1000 ** 8,
                "KIB": 1024, "MIB": 1024 ** 2, "GIB": 1024 ** 3, "TIB": 1024 ** 4,
                "PIB": 1024 ** 5, "EIB": 1024 ** 6, "B": 512}


def parse_size(text: str) -> int | None:
    """A coreutils size (``10K``, ``1MB``, ``2MiB``, ``512``); None when invalid."""
    t = text.strip()
    i = 0
    while i < len(t) and t[i].isdigit():
        i += 1
    if i == 0:
        return None
    suffix = t[i:].upper()
    if suffix not in _SIZE_SUFFIX:
        return None
    if t[i:] == "k":
        suffix = "K"
    return int(t[:i]) * _SIZE_SUFFIX[suffix]


# ------------------------------------------------------------------- owner
def user_name(uid: int) -> str:
    return USER


def group_name(gid: int) -> str:
    return USER


# -------------------------------------------------------------------- time
def tzinfo(shell):
    """The script's time zone: ``TZ`` from its environment, UTC when unset or unknown."""
    import datetime

    name = shell.env.get("TZ", "")
    if not name or name in ("UTC", "UTC0", "GMT", "GMT0", ":UTC", "Z"):
        return datetime.UTC
    try:
        import zoneinfo

        return zoneinfo.ZoneInfo(name.lstrip(":"))
    except Exception:
        return _posix_tz(name) or datetime.UTC


def _posix_tz(name: str):
    """A fixed-offset POSIX TZ such as ``EST5`` or ``UTC-3``."""
    import datetime
    import re

    m = re.fullmatch(r"([A-Za-z]{3,})([+-]?)(\d{1,2})(?::(\d\d))?", name)
    if not m:
        return None
    hours = int(m.group(3))
    minutes = int(m.group(4) or 0)
    sign = -1 if m.group(2) != "-" else 1  # POSIX offsets are west-positive
    return datetime.timezone(sign * datetime.timedelta(hours=hours, minutes=minutes), m.group(1))


def localtime(shell, ts: float):
    import datetime

    return datetime.datetime.fromtimestamp(ts, tzinfo(shell))


def now() -> float:
    return time.time()


def full_time(shell, ns: int) -> str:
    """``2024-01-02 03:04:05.000000000 +0000`` (stat %y, ls --full-time)."""
    dt = localtime(shell, ns // 1_000_000_000)
    return dt.strftime("%Y-%m-%d %H:%M:%S") + f".{ns % 1_000_000_000:09d} " + dt.strftime("%z")


# -------------------------------------------------------------------- paths
def join(a: str, b: str) -> str:
    return a + b if a.endswith("/") else a + "/" + b


def basename(path: str) -> str:
    p = path.rstrip("/")
    if not p:
        return "/" if path else ""
    return p.rsplit("/", 1)[-1]


def dirname(path: str) -> str:
    p = path.rstrip("/")
    if not p:
        return "/" if path.startswith("/") else "."
    if "/" not in p:
        return "."
    d = p.rsplit("/", 1)[0].rstrip("/")
    return d or "/"


def is_dir_stat(st) -> bool:
    return _stat.S_ISDIR(st.st_mode)


def b(s: str) -> bytes:
    return encode(s)


def s(data: bytes) -> str:
    return decode(data)


# -------------------------------------------------------------- mode specs
_WHO = {"u": 0o4700, "g": 0o2070, "o": 0o1007, "a": 0o7777}
_PERM = {"r": 0o444, "w": 0o222, "x": 0o111, "s": 0o6000, "t": 0o1000}


def parse_mode(spec: str):
    """Compile a chmod mode (octal or symbolic) into a function (mode, is_dir, umask) -> mode.

    None when ``spec`` is not a valid mode.
    """
    if spec and all(c in "01234567" for c in spec):
        if len(spec) > 4 and spec.lstrip("0") and len(spec.lstrip("0")) > 4:
            return None
        value = int(spec, 8)
        if value > 0o7777:
            return None
        return lambda mode, is_dir, umask: value
    clauses = []
    for clause in spec.split(","):
        i = 0
        who = 0
        while i < len(clause) and clause[i] in _WHO:
            who |= _WHO[clause[i]]
            i += 1
        if i >= len(clause):
            return None
        actions = []
        while i < len(clause):
            op = clause[i]
            if op not in "+-=":
                return None
            i += 1
            perms = 0
            copy = None
            cond_x = False
            if i < len(clause) and clause[i] in "ugo":
                copy = clause[i]
                i += 1
            else:
                while i < len(clause) and clause[i] in "rwxXst":
                    c = clause[i]
                    if c == "X":
                        cond_x = True
                    else:
                        perms |= _PERM[c]
                    i += 1
            actions.append((op, perms, copy, cond_x))
        clauses.append((who, actions))

    def apply(mode: int, is_dir: bool, umask: int) -> int:
        mode &= 0o7777
        for who, actions in clauses:
            affected = who or 0o7777
            for op, perms, copy, cond_x in actions:
                value = perms
                if copy is not None:
                    shift = {"u": 6, "g": 3, "o": 0}[copy]
                    bits = (mode >> shift) & 7
                    value = bits << 6 | bits << 3 | bits
                if cond_x and (is_dir or mode & 0o111):
                    value |= 0o111
                value &= affected
                if not who:
                    value &= ~umask
                if op == "+":
                    mode |= value
                elif op == "-":
                    mode &= ~value
                else:
                    keep = ~affected
                    if is_dir and not who:
                        keep |= 0o6000
                    mode = (mode & keep) | value
        return mode & 0o7777

    return apply


def mode_bits_string(mode: int) -> str:
    """``rwxr-xr-x`` (no type letter), as chmod -v prints it."""
    return _stat.filemode(mode)[1:]


# ------------------------------------------------------------ ordered walk
class Item:
    """One entry met by :func:`walk_ordered`.

    ``kind``: "entry" (any entry, before a directory's contents), "post" (a
    directory after its contents, or right after "entry" when it was not
    descended), "error" (``error`` holds a FileSystemError whose vpath is the
    shown path). Set ``prune = True`` on a directory's "entry" item to keep the
    walk out of it.
    """

    __slots__ = ("kind", "entry", "path", "name", "depth", "is_dir", "prune", "error",
                 "descended")

    def __init__(self, kind, entry, path, name, depth, is_dir):
        self.kind = kind
        self.entry = entry
        self.path = path
        self.name = name
        self.depth = depth
        self.is_dir = is_dir
        self.prune = False
        self.error = None
        self.descended = False

    def stat(self, follow: bool = False):
        return self.entry.stat(follow)


class SynthEntry:
    """A WalkEntry look-alike for entries of synthetic directories (/, /dev, /bin)."""

    __slots__ = ("name", "type", "path", "link_stat", "_fs", "_st")

    def __init__(self, fs, name: str, type_: str, path: str):
        self.name = name
        self.type = type_
        self.path = path
        self.link_stat = None
        self._fs = fs
        self._st = None

    def stat(self, follow: bool = False):
        if follow:
            return complete_stat(self._fs.stat(self.path))
        if self._st is None:
            self._st = complete_stat(self._fs.lstat(self.path))
        return self._st

    def is_dir(self) -> bool:
        return self.type == "d"

    def is_symlink(self) -> bool:
        return self.type == "l"


def _remap(err, canon: str, shown: str):

    v = err.vpath or ""
    if canon and (v == canon or v.startswith(canon.rstrip("/") + "/")):
        rest = v[len(canon.rstrip("/")):]
        return FileSystemError(err.errno, shown.rstrip("/") + rest if rest else shown)
    return err


def walk_ordered(shell, top: str, *, follow: bool = False, depth: int = 1, order=None):
    """Descendants of directory ``top`` in GNU fts order (readdir order, pre-order).

    Yields :class:`Item`; a directory's "post" item comes after its subtree.
    ``top`` is shown as the caller spelled it. Symlinks are followed only with
    ``follow`` (the core re-checks every link; a link out is an error item).
    ``order``, when given, reorders each directory's entries (a function from
    the list of WalkEntry to a new list): cp reads directories in inode order.
    """
    if not shell.is_host_path(top):
        yield from _walk_synthetic(shell, top, follow, depth)
        return
    fs = shell.fs
    budget = shell.budget
    errors: list = []
    abs_top = fs.abspath(top).rstrip("/") or "/"
    dtop = top.rstrip("/") or "/"
    cut = len(abs_top)
    if abs_top == "/":
        cut, dtop = 0, ""

    def shown(p: str) -> str:
        return dtop + p[cut:] if cut else p

    def fix(e):
        from pysh.shellkit import FileSystemError

        v = e.vpath or ""
        if v == abs_top or v.startswith(abs_top + "/"):
            return FileSystemError(e.errno, shown(v) if v != abs_top else top)
        return e

    it = fs.walk(top, follow_symlinks=follow, onerror=errors.append)
    first = next(it, None)
    for e in errors:
        ei = Item("error", None, top, basename(top), depth - 1, True)
        if first is not None:
            e = _remap(e, first.canonical, first.path)
        ei.error = fix(e)
        yield ei
    errors.clear()
    if first is None:
        return
    if order is not None:
        _reorder(first, order)
    # frames: [walkdir, entry iterator, depth of its entries, the entry that led here]
    stack = [(first, iter(first.entries), depth, None)]
    lookahead = None
    count = 0
    while stack:
        wd, ents, d, parent_ent = stack[-1]
        ent = next(ents, None)
        if ent is None:
            stack.pop()
            if parent_ent is not None:
                yield Item("post", parent_ent, shown(wd.path), parent_ent.name, d - 1, True)
            continue
        count += 1
        if count & 255 == 0:
            budget.check()
        t = ent.type
        if t == "d":
            is_dir = True
        elif t == "l" and follow:
            lst = ent.link_stat
            is_dir = lst is not None and _stat.S_ISDIR(lst.st_mode)
        else:
            is_dir = False
        path = ent.path
        item = Item("entry", ent, dtop + path[cut:] if cut else path, ent.name, d, is_dir)
        yield item
        if not is_dir:
            continue
        if item.prune:
            _drop(wd.dirs, ent)
            if lookahead is not None and lookahead.path == path:
                lookahead.dirs.clear()
                lookahead = None
            yield Item("post", ent, item.path, ent.name, d, True)
            continue
        if lookahead is None:
            lookahead = next(it, None)
            if errors:
                for e in errors:
                    ei = Item("error", ent, item.path, ent.name, d, True)
                    err = e
                    if lookahead is not None:
                        err = _remap(err, lookahead.canonical, lookahead.path)
                    if err is e:
                        err = _remap(err, wd.canonical, wd.path)
                    ei.error = fix(err)
                    yield ei
                errors.clear()
        if lookahead is not None and lookahead.path == path:
            sub, lookahead = lookahead, None
            if order is not None:
                _reorder(sub, order)
            item.descended = True
            stack.append((sub, iter(sub.entries), d + 1, ent))
        else:
            yield Item("post", ent, item.path, ent.name, d, True)


def _reorder(wd, order) -> None:
    wd.entries = order(wd.entries)
    rank = {id(e): i for i, e in enumerate(wd.entries)}
    wd.dirs.sort(key=lambda e: rank.get(id(e), 0))


def _walk_synthetic(shell, top: str, follow: bool, depth: int):
    """The same walk over synthetic directories (``/``, ``/dev``, ``/usr``), into mounts."""

    fs = shell.fs
    try:
        ents = fs.scandir(top)
    except FileSystemError as e:
        ei = Item("error", None, top, basename(top), depth - 1, True)
        ei.error = FileSystemError(e.errno, top)
        yield ei
        return
    for de in sorted(ents, key=lambda x: x.name):
        path = join(top, de.name)
        ent = SynthEntry(fs, de.name, de.type, path)
        is_dir = de.type == "d"
        if de.type == "l" and follow:
            try:
                ent.link_stat = fs.stat(path)
                is_dir = _stat.S_ISDIR(ent.link_stat.st_mode)
            except FileSystemError:
                pass
        item = Item("entry", ent, path, de.name, depth, is_dir)
        yield item
        if is_dir and not item.prune:
            item.descended = True
            yield from walk_ordered(shell, path, follow=follow, depth=depth + 1)
        if is_dir:
            yield Item("post", ent, path, de.name, depth, True)


def _drop(lst: list, ent) -> None:
    for i in range(len(lst) - 1, -1, -1):
        if lst[i] is ent:
            del lst[i]
            return


# ------------------------------------------------------------------- globs
_CLASSES = {
    "alpha": "a-zA-Z", "digit": "0-9", "alnum": "a-zA-Z0-9", "upper": "A-Z", "lower": "a-z",
    "space": " \\t\\n\\r\\f\\v", "blank": " \\t", "punct": "!-/:-@\\[-`{-~", "print": " -~",
    "graph": "!-~", "cntrl": "\\x00-\\x1f\\x7f", "xdigit": "0-9A-Fa-f", "word": "a-zA-Z0-9_",
}


def bracket(pat: str, i: int, backslash_escapes: bool) -> tuple[str, int] | None:
    """Translate the bracket expression starting at ``pat[i] == '['``; None if unterminated."""
    j = i + 1
    out = ["["]
    if j < len(pat) and pat[j] in "!^":
        out.append("^")
        j += 1
    first = True
    while j < len(pat):
        c = pat[j]
        if c == "]" and not first:
            out.append("]")
            return "".join(out), j + 1
        first = False
        if c == "[" and j + 1 < len(pat) and pat[j + 1] in ":=.":
            kind = pat[j + 1]
            end = pat.find(kind + "]", j + 2)
            if end < 0:
                return None
            name = pat[j + 2:end]
            if kind == ":":
                cls = _CLASSES.get(name)
                if cls is None:
                    return None
                out.append(cls)
            else:
                out.append(_re_escape_class(name))
            j = end + 2
            continue
        if c == "\\" and backslash_escapes and j + 1 < len(pat):
            out.append(_re_escape_class(pat[j + 1]))
            j += 2
            continue
        if c == "-" and out[-1] not in ("[", "^") and j + 1 < len(pat) and pat[j + 1] != "]":
            out.append("-")
            j += 1
            continue
        out.append(_re_escape_class(c))
        j += 1
    return None


def _re_escape_class(c: str) -> str:
    return "".join("\\" + ch if ch in "\\]^-[" else ch for ch in c)


def glob_to_regex(pat: str) -> str:
    """fnmatch(3) without FNM_PERIOD (find -name, -path; ls, du): a Python regex source for
    ``fullmatch``, linear in the subject whatever the pattern (see shellkit.wildmatch)."""
    import re

    from pysh.shellkit.wildmatch import join_stars

    out: list[str | None] = []
    i = 0
    n = len(pat)
    while i < n:
        c = pat[i]
        if c == "*":
            while i < n and pat[i] == "*":
                i += 1
            out.append(None)
            continue
        if c == "?":
            out.append(".")
        elif c == "[":
            br = bracket(pat, i, True)
            if br is None:
                out.append("\\[")
            else:
                out.append(br[0])
                i = br[1]
                continue
        elif c == "\\" and i + 1 < n:
            i += 1
            out.append(re.escape(pat[i]))
        else:
            out.append(re.escape(c))
        i += 1
    return join_stars(out)


def compile_glob(pat: str, *, icase: bool = False):
    """A compiled matcher for a whole string (``.fullmatch``)."""
    import re

    flags = re.DOTALL | (re.IGNORECASE if icase else 0)
    return re.compile(glob_to_regex(pat), flags)


SIX_MONTHS = 31556952 // 2


def ls_date(shell, ts: float, current: float) -> str:
    """``Jan  2 03:04`` for recent times, ``Jan  2  2024`` otherwise (ls -l, find -ls)."""
    dt = localtime(shell, int(ts // 1))
    month = _MONTHS[dt.month - 1]
    if current - SIX_MONTHS < ts <= current:
        return f"{month} {dt.day:2d} {dt.hour:02d}:{dt.minute:02d}"
    return f"{month} {dt.day:2d}  {dt.year}"


_MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def complete_stat(st):
    """Synthetic nodes (/, /dev/null, /bin/x) come with a 10-field stat: fill the rest with 0."""
    if st.st_mtime_ns is not None:
        return st
    t = tuple(st)
    return os.stat_result(
        t + (float(t[7]), float(t[8]), float(t[9]), t[7] * 10 ** 9, t[8] * 10 ** 9,
             t[9] * 10 ** 9),
        {"st_blksize": 4096, "st_blocks": 0, "st_rdev": 0})


def lstat(fs, path: str):
    return complete_stat(fs.lstat(path))


def stat(fs, path: str):
    return complete_stat(fs.stat(path))


async def copy_target(shell, prog: str, operands: list[str], target_dir: str | None,
                      no_target: bool) -> tuple[list[str], str, bool] | None:
    """cp/mv's operands as (sources, destination, into-a-directory), GNU's checks and wording;
    None after reporting a bad target."""
    if target_dir is not None:
        try:
            if not _stat.S_ISDIR(stat(shell.fs, target_dir).st_mode):
                await shell.error(prog, f"target directory {q(target_dir)}: Not a directory")
                return None
        except FileSystemError as e:
            await shell.error(prog, f"target directory {q(target_dir)}: {strerror(e)}")
            return None
        return operands, target_dir, True
    sources, dest = operands[:-1], operands[-1]
    into = False
    if not no_target:
        try:
            into = _stat.S_ISDIR(stat(shell.fs, dest).st_mode)
        except FileSystemError as e:
            if len(sources) > 1:
                await shell.error(prog, f"target {q(dest)}: {strerror(e)}")
                return None
        if len(sources) > 1 and not into:
            await shell.error(prog, f"target {q(dest)}: Not a directory")
            return None
    return sources, dest, into


async def ask(shell, prompt: str) -> bool:
    """Ask ``prompt`` on stderr and read the answer from stdin, as GNU does (y/Y = yes).

    When stdin is a terminal the question cannot be put from inside the sandbox:
    the answer is "no" and a note says why (use -f, or answer through a pipe).
    """
    await shell.stderr.write(encode(prompt))
    if shell.stdin.isatty():
        await shell.stderr.write(b"(no answer can be read from a terminal here: assuming no)\n")
        return False
    line = await shell.stdin.readline()
    return line[:1] in (b"y", b"Y")


def describe(st) -> str:
    """rm's and cp's words for a file type: 'regular file', 'directory', 'symbolic link'."""
    mode = st.st_mode
    if _stat.S_ISREG(mode):
        return "regular file" if st.st_size else "regular empty file"
    return file_type_name(mode)


# -------------------------------------------------------------------- dates
_MONTH_NAMES = {m.lower(): i + 1 for i, m in enumerate(_MONTHS)}
_MONTH_NAMES.update({n: i + 1 for i, n in enumerate(
    ["january", "february", "march", "april", "may", "june", "july", "august", "september",
     "october", "november", "december"])})
_UNITS_SECONDS = {"sec": 1, "second": 1, "min": 60, "minute": 60, "hour": 3600, "day": 86400,
                  "week": 604800, "fortnight": 1209600}


def parse_date(shell, text: str, base_ns: int | None = None) -> int | None:
    """GNU date strings, the common forms: nanoseconds since the epoch, or None.

    ``@EPOCH``, ``now``/``today``/``yesterday``/``tomorrow``, ISO 8601
    (``2024-01-02``, ``2024-01-02 03:04[:05[.n]]``, ``T`` separator, ``Z``/``UTC``/
    ``+HH[:]MM`` zones), ``MM/DD/YYYY``, month names (``Jan 2 2024``,
    ``2 January 2024``), a bare ``HH:MM[:SS]`` (today), and relative items
    (``3 days ago``, ``+1 hour``, ``next week``, ``-2 months``).
    """
    import datetime
    import re

    tz = tzinfo(shell)
    t = " ".join(text.strip().lower().split())
    current = time.time_ns() if base_ns is None else base_ns
    if t.startswith("@"):
        m = re.fullmatch(r"@([+-]?\d+)(?:[.,](\d{1,9}))?", t)
        if not m:
            return None
        frac = (m.group(2) or "").ljust(9, "0")
        sign = -1 if m.group(1).startswith("-") else 1
        return int(m.group(1)) * 1_000_000_000 + sign * int(frac or 0)
    now_dt = datetime.datetime.fromtimestamp(current / 1e9, tz)
    date = None  # (y, m, d)
    clock = None  # (H, M, S, ns)
    zone = None
    rel_seconds = 0
    rel_months = 0
    rest = t
    patterns = [
        (r"(\d{4})-(\d{1,2})-(\d{1,2})", "ymd"),
        (r"(\d{1,2})/(\d{1,2})/(\d{2,4})", "mdy"),
        (r"(\d{1,2})[ -]([a-z]{3,9})\.?,?[ -](\d{4})", "dMy"),
        (r"([a-z]{3,9})\.? (\d{1,2}),? (\d{4})", "Mdy"),
        (r"([a-z]{3,9})\.? (\d{1,2})", "Md"),
    ]
    for pat, kind in patterns:
        m = re.search(r"(?:^|(?<=[\s]))" + pat + r"(?=$|[\sT t])", rest)
        if not m:
            continue
        g = m.groups()
        try:
            if kind == "ymd":
                date = (int(g[0]), int(g[1]), int(g[2]))
            elif kind == "mdy":
                y = int(g[2])
                y = y + (2000 if y < 69 else 1900) if y < 100 else y
                date = (y, int(g[0]), int(g[1]))
            elif kind == "dMy":
                date = (int(g[2]), _month(g[1]), int(g[0]))
            elif kind == "Mdy":
                date = (int(g[2]), _month(g[0]), int(g[1]))
            else:
                date = (now_dt.year, _month(g[0]), int(g[1]))
        except (KeyError, ValueError):
            date = None
            continue
        rest = (rest[:m.start()] + " " + rest[m.end():]).strip()
        if rest.startswith("t"):
            rest = rest[1:]
        break
    m = re.search(r"(?:^|(?<=\s))(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?"
                  r"(?:\s*(am|pm))?", rest)
    if m:
        h, mi = int(m.group(1)), int(m.group(2))
        sec = int(m.group(3) or 0)
        ns = int((m.group(4) or "").ljust(9, "0") or 0)
        if m.group(5):
            h = h % 12 + (12 if m.group(5) == "pm" else 0)
        clock = (h, mi, sec, ns)
        rest = (rest[:m.start()] + " " + rest[m.end():]).strip()
    m = re.search(r"(?:^|(?<=\s))(z|utc|gmt|[+-]\d{2}:?\d{2})(?=$|\s)", rest)
    if m:
        z = m.group(1)
        if z in ("z", "utc", "gmt"):
            zone = datetime.UTC
        else:
            sign = -1 if z[0] == "-" else 1
            digits = z[1:].replace(":", "")
            zone = datetime.timezone(sign * datetime.timedelta(hours=int(digits[:2]),
                                                                minutes=int(digits[2:])))
        rest = (rest[:m.start()] + " " + rest[m.end():]).strip()
    words = rest.split()
    i = 0
    day_words = {"now": 0, "today": 0, "yesterday": -86400, "tomorrow": 86400}
    while i < len(words):
        w = words[i]
        if w in day_words:
            rel_seconds += day_words[w]
            i += 1
            continue
        n = None
        if re.fullmatch(r"[+-]?\d+", w):
            n = int(w)
            i += 1
        elif w in ("next", "last", "this"):
            n = {"next": 1, "last": -1, "this": 0}[w]
            i += 1
        elif w == "a" or w == "an":
            n = 1
            i += 1
        if i >= len(words):
            return None
        unit = words[i].rstrip("s") if words[i] not in ("s",) else words[i]
        if unit in ("min", "mins"):
            unit = "min"
        if n is None:
            n = 1
        i += 1
        ago = i < len(words) and words[i] == "ago"
        if ago:
            i += 1
            n = -n
        if unit in _UNITS_SECONDS:
            rel_seconds += n * _UNITS_SECONDS[unit]
        elif unit == "month":
            rel_months += n
        elif unit == "year":
            rel_months += 12 * n
        else:
            return None
    zone = zone or tz
    if date is None and clock is None:
        base = datetime.datetime.fromtimestamp(current // 1_000_000_000, zone)
        frac = current % 1_000_000_000
    else:
        y, mo, d = date if date is not None else (now_dt.year, now_dt.month, now_dt.day)
        h, mi, sec, frac = clock if clock is not None else (0, 0, 0, 0)
        try:
            base = datetime.datetime(y, mo, d, h, mi, sec, tzinfo=zone)
        except ValueError:
            return None
    if rel_months:
        total = base.year * 12 + base.month - 1 + rel_months
        try:
            base = base.replace(year=total // 12, month=total % 12 + 1)
        except ValueError:
            return None
    secs = int(base.timestamp()) + rel_seconds
    return secs * 1_000_000_000 + frac


def _month(name: str) -> int:
    n = name.lower().rstrip(".")
    if n in _MONTH_NAMES:
        return _MONTH_NAMES[n]
    if n[:3] in _MONTH_NAMES:
        return _MONTH_NAMES[n[:3]]
    raise KeyError(name)


def parse_touch_stamp(shell, text: str) -> int | None:
    """touch -t's ``[[CC]YY]MMDDhhmm[.ss]`` as nanoseconds, or None."""
    import datetime
    import re

    m = re.fullmatch(r"(\d{8}|\d{10}|\d{12})(?:\.(\d{2}))?", text)
    if not m:
        return None
    digits = m.group(1)
    sec = int(m.group(2) or 0)
    if len(digits) == 12:
        year = int(digits[:4])
        digits = digits[4:]
    elif len(digits) == 10:
        yy = int(digits[:2])
        year = yy + (2000 if yy < 69 else 1900)
        digits = digits[2:]
    else:
        year = localtime(shell, time.time()).year
    try:
        dt = datetime.datetime(year, int(digits[0:2]), int(digits[2:4]), int(digits[4:6]),
                               int(digits[6:8]), 59 if sec == 60 else sec, tzinfo=tzinfo(shell))
    except ValueError:
        return None
    return int(dt.timestamp()) * 1_000_000_000
