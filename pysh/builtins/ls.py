"""ls: GNU coreutils' listing, through the FileSystem door.

Output to a non-terminal is one name per line (as GNU's), ``-C``/``-x``/``-m``
lay names out for ``COLUMNS`` (default 80) or ``-w``. Long listings use GNU's
column layout with the synthetic owner (``user``/``user``, uid/gid 1000) and
dates in the script's ``TZ`` (UTC by default). ``--color`` is accepted and
never colours. Directory contents are read through held dir fds
(``shell.fs.walk``, one directory at a time); synthetic directories (``/``,
``/dev``, ``/bin``) are listed through ``scandir``.
"""

from __future__ import annotations

import errno
import re
import stat as _stat
import unicodedata

from pysh.builtins._fileutil import (
    GID,
    UID,
    USER,
    Output,
    Usage,
    full_time,
    help_or_version,
    human,
    join,
    localtime,
    ls_date,
    mode_string,
    now,
    parse,
    q,
    shell_quote_name,
    strerror,
    usage_error,
)
from pysh.builtins._fileutil import lstat as xlstat
from pysh.builtins._fileutil import stat as xstat
from pysh.shellkit import FileSystemError, on_write_error
from pysh.shellkit.text import encode

PROG = "ls"

HELP = """
Usage: ls [OPTION]... [FILE]...
List information about the FILEs (the current directory by default).
Sort entries alphabetically if none of -cftuvSUX nor --sort is specified.

  -a, --all                  do not ignore entries starting with .
  -A, --almost-all           do not list implied . and ..
  -b, --escape               print C-style escapes for nongraphic characters
  -c                         with -lt: sort by, and show, ctime
  -C                         list entries by columns
      --color[=WHEN]         accepted; output is never coloured
  -d, --directory            list directories themselves, not their contents
  -f                         list all entries in directory order
  -F, --classify             append indicator (one of */=>@|) to entries
      --file-type            likewise, except do not append '*'
      --full-time            like -l --time-style=full-iso
  -g                         like -l, but do not list owner
      --group-directories-first
                             group directories before files
  -G, --no-group             in a long listing, don't print group names
  -h, --human-readable       with -l and -s, print sizes like 1K 234M 2G etc.
      --si                   likewise, but use powers of 1000 not 1024
  -H, --dereference-command-line
                             follow symbolic links listed on the command line
  -i, --inode                print the index number of each file
  -k, --kibibytes            default to 1024-byte blocks for file system usage
  -l                         use a long listing format
  -L, --dereference          show information for the file references
  -m                         fill width with a comma separated list of entries
  -n, --numeric-uid-gid      like -l, but list numeric user and group IDs
  -N, --literal              print entry names without quoting
  -o                         like -l, but do not list group information
  -p, --indicator-style=slash
                             append / indicator to directories
  -q, --hide-control-chars   print ? instead of nongraphic characters
  -Q, --quote-name           enclose entry names in double quotes
  -r, --reverse              reverse order while sorting
  -R, --recursive            list subdirectories recursively
  -s, --size                 print the allocated size of each file, in blocks
  -S                         sort by file size, largest first
      --sort=WORD            none (-U), size (-S), time (-t), version (-v),
                             extension (-X), name
      --time=WORD            atime (-u), ctime (-c), mtime
      --time-style=STYLE     full-iso, long-iso, iso, locale, +FORMAT
  -t                         sort by time, newest first
  -T, --tabsize=COLS         assume tab stops at each COLS instead of 8
  -u                         with -lt: sort by, and show, access time
  -U                         do not sort; list entries in directory order
  -v                         natural sort of (version) numbers within text
  -w, --width=COLS           set output width to COLS.  0 means no limit
  -x                         list entries by lines instead of by columns
  -X                         sort alphabetically by entry extension
  -1                         list one file per line
      --help        display this help and exit
"""

SHORT = "aAbBcCdfFgGhHiI:klLmnNopqQrRsStT:uUvw:xX1Z"
LONG = {
    "all": "a", "almost-all": "A", "escape": "b", "directory": "d", "classify?": "F",
    "file-type": "file-type", "full-time": "full-time", "no-group": "G",
    "human-readable": "h", "si": "si", "dereference-command-line": "H",
    "dereference-command-line-symlink-to-dir": "deref-dir", "inode": "i", "kibibytes": "k",
    "dereference": "L", "numeric-uid-gid": "n", "literal": "N", "indicator-style=": "indicator",
    "hide-control-chars": "q", "show-control-chars": "show-control", "quote-name": "Q",
    "quoting-style=": "quoting", "reverse": "r", "recursive": "R", "size": "s", "sort=": "sort",
    "time=": "time", "time-style=": "time-style", "tabsize=": "T", "width=": "w",
    "color?": "color", "colour?": "color", "group-directories-first": "gdf", "context": "Z",
    "format=": "format", "ignore=": "ignore", "hide=": "hide", "ignore-backups": "B",
    "block-size=": "block-size", "author": "author", "zero": "zero",
}


class Opts:
    def __init__(self):
        self.all = False
        self.almost = False
        self.directory = False
        self.fmt = "1"  # 1, l, C, x, m
        self.long = False
        self.owner = True
        self.group = True
        self.numeric = False
        self.human = 0  # 0, 1024, 1000
        self.block = 1024  # --block-size: the unit of -s and "total"
        self.size_unit = 1  # ... and of -l's size column
        self.unit_suffix = ""  # "K", "kB", "KiB" when --block-size named only a unit
        self.ignore_backups = False
        self.inode = False
        self.size = False
        self.sort = "name"
        self.reverse = False
        self.recursive = False
        self.indicator = "none"  # none, slash, file-type, classify
        self.deref = "dir"  # none, cmdline, all, dir (symlinks to dirs on the command line)
        self.time = "mtime"
        self.time_style = "locale"
        self.width = 80
        self.tabsize = 8
        self.gdf = False
        self.quoting = "literal"
        self.hide_control = False
        self.ignore: list = []
        self.hide: list = []
        self.zero = False


def parse_opts(shell, args: list[str]):
    opts, operands = parse(args, SHORT, LONG, status=2)
    o = Opts()
    if shell.stdout.isatty():  # GNU's defaults on a terminal
        o.fmt, o.quoting, o.hide_control = "C", "shell-escape", True
    cols = shell.env.get("COLUMNS", "")
    if cols.isdigit() and int(cols) > 0:
        o.width = int(cols)
    explicit_deref = False
    for k, v in opts:
        if k == "a":
            o.all, o.almost = True, False
        elif k == "A":
            o.almost, o.all = True, False
        elif k == "b":
            o.quoting = "escape"
        elif k == "c":
            o.time = "ctime"
        elif k == "C":
            o.fmt, o.long = "C", False
        elif k == "d":
            o.directory = True
        elif k == "f":
            o.all, o.sort = True, "none"
        elif k == "F":
            w = "always" if v is None else argmatch("classify", v, "color")
            o.indicator = "none" if w == "never" else "classify"
        elif k == "file-type":
            o.indicator = "file-type"
        elif k == "full-time":
            o.fmt, o.long, o.time_style = "l", True, "full-iso"
        elif k == "g":
            o.fmt, o.long, o.owner = "l", True, False
        elif k == "G":
            o.group = False
        elif k == "h":
            o.human = 1024
        elif k == "si":
            o.human = 1000
        elif k == "H":
            o.deref, explicit_deref = "cmdline", True
        elif k == "deref-dir":
            o.deref, explicit_deref = "dir", True
        elif k == "i":
            o.inode = True
        elif k == "B":
            o.ignore_backups = True
        elif k in ("k", "author", "Z"):  # -k: 1024-byte blocks, already the default
            pass
        elif k == "l":
            o.fmt, o.long = "l", True
        elif k == "L":
            o.deref, explicit_deref = "all", True
        elif k == "m":
            o.fmt, o.long = "m", False
        elif k == "n":
            o.fmt, o.long, o.numeric = "l", True, True
        elif k == "N":
            o.quoting = "literal"
        elif k == "o":
            o.fmt, o.long, o.group = "l", True, False
        elif k == "p":
            o.indicator = "slash"
        elif k == "indicator":
            o.indicator = argmatch("indicator-style", v)
        elif k == "q":
            o.hide_control = True
        elif k == "show-control":
            o.hide_control = False
        elif k == "Q":
            o.quoting = "c"
        elif k == "quoting":
            o.quoting = argmatch("quoting-style", v)
        elif k == "r":
            o.reverse = True
        elif k == "R":
            o.recursive = True
        elif k == "s":
            o.size = True
        elif k == "S":
            o.sort = "size"
        elif k == "sort":
            o.sort = "name" if v == "name" else argmatch("sort", v)
        elif k == "time":
            o.time = "mtime" if v in ("mtime", "modification") else argmatch("time", v)
            if o.time == "birth":
                o.time = "ctime"
        elif k == "time-style":
            style = v or ""
            if style.startswith("posix-"):
                style = style[6:]
            if not (style in ("full-iso", "long-iso", "iso", "locale") or style.startswith("+")):
                style = "locale"
            o.time_style = style
        elif k == "t":
            o.sort = "time"
        elif k == "T":
            if not v.isdigit():
                raise Usage(f"invalid tab size: {q(v)}", 2, hint=False)
            o.tabsize = int(v)
        elif k == "u":
            o.time = "atime"
        elif k == "U":
            o.sort = "none"
        elif k == "v":
            o.sort = "version"
        elif k == "w":
            if not v.isdigit():
                raise Usage(f"invalid line width: {q(v)}", 2, hint=False)
            o.width = int(v)
        elif k == "x":
            o.fmt, o.long = "x", False
        elif k == "X":
            o.sort = "extension"
        elif k == "1":
            if not o.long:
                o.fmt = "1"
        elif k == "color":
            if v is not None:
                argmatch("color", v)
        elif k == "gdf":
            o.gdf = True
        elif k == "format":
            m = {"verbose": "l", "commas": "m", "horizontal": "x", "vertical": "C",
                 "single-column": "1"}
            o.fmt = m[argmatch("format", v)]
            o.long = o.fmt == "l"
        elif k in ("ignore", "I"):
            o.ignore.append(_glob(v))
        elif k == "hide":
            o.hide.append(_glob(v))
        elif k == "block-size":
            _block_size(o, v)
        elif k == "zero":
            o.zero = True
    if not explicit_deref and (o.long or o.directory or o.indicator in ("classify",
                                                                        "file-type")):
        o.deref = "none"
    if o.sort == "time" and o.time != "mtime" and not o.long:
        pass
    if o.time != "mtime" and not o.long and o.sort == "name":
        o.sort = "time"
    return o, operands


ARGS = {
    "sort": [["none"], ["time"], ["size"], ["extension"], ["version"], ["width"]],
    "time": [["atime", "access", "use"], ["ctime", "status"], ["birth", "creation"]],
    "format": [["verbose", "long"], ["commas"], ["horizontal", "across"], ["vertical"],
               ["single-column"]],
    "color": [["always", "yes", "force"], ["never", "no", "none"], ["auto", "tty", "if-tty"]],
    "indicator-style": [["none"], ["slash"], ["file-type"], ["classify"]],
    "quoting-style": [["literal"], ["shell"], ["shell-always"], ["shell-escape"],
                      ["shell-escape-always"], ["c"], ["c-maybe"], ["escape"], ["locale"],
                      ["clocale"]],
}


def argmatch(opt: str, value, table: str | None = None) -> str:
    """The canonical spelling of ``value`` among --opt's arguments, or a Usage error."""
    groups = ARGS[table or opt]
    v = value or ""
    for g in groups:
        if v in g:
            return g[0]
    matches = {g[0] for g in groups for w in g if v and w.startswith(v)}
    if len(matches) == 1:
        return matches.pop()
    kind = "ambiguous" if len(matches) > 1 else "invalid"
    lines = [f"{kind} argument {lq_(v)} for {lq_('--' + opt)}", "Valid arguments are:"]
    for g in groups:
        lines.append("  - " + ", ".join(lq_(w) for w in g))
    raise Usage("\n".join(lines), 1)


def lq_(v) -> str:
    from pysh.builtins._fileutil import lq

    return lq(v or "")


def _glob(pat: str):
    from pysh.builtins._fileutil import compile_glob

    return compile_glob(pat).fullmatch


# ----------------------------------------------------------------- entries
class Info:
    __slots__ = ("name", "path", "st", "lst", "target", "target_st", "is_dir", "type")

    def __init__(self, name, path, type_="?"):
        self.name = name
        self.path = path
        self.st = None  # the stat shown (lstat, or the target's under -L)
        self.lst = None
        self.target = None  # symlink target text (long format)
        self.target_st = None  # the target's stat, for -F on the target / --gdf
        self.is_dir = type_ == "d"
        self.type = type_


def _need_stat(o: Opts) -> bool:
    return (o.long or o.inode or o.size or o.sort in ("time", "size") or o.gdf
            or o.indicator in ("classify", "file-type") or o.deref == "all")


def fill_info(shell, o: Opts, info: Info, stat_fn=None, follow=False) -> None:
    """Fill the stats ``o`` needs; raises FileSystemError."""
    fs = shell.fs
    if stat_fn is not None:
        lst = stat_fn()
    else:
        lst = xlstat(fs, info.path)
    info.lst = lst
    info.st = lst
    info.type = _tchar(lst.st_mode)
    info.is_dir = info.type == "d"
    if info.type == "l":
        if follow:
            try:
                st = xstat(fs, info.path)
            except FileSystemError:
                if o.deref == "all":
                    raise
                st = None
            if st is not None:
                info.st = st
                info.type = _tchar(st.st_mode)
                info.is_dir = info.type == "d"
                return
        if o.long:
            try:
                info.target = fs.readlink(info.path)
            except FileSystemError:
                info.target = ""
        if o.long and o.indicator != "none" or o.gdf:
            try:
                info.target_st = xstat(fs, info.path)
            except FileSystemError:
                info.target_st = None


def _tchar(mode: int) -> str:
    if _stat.S_ISDIR(mode):
        return "d"
    if _stat.S_ISLNK(mode):
        return "l"
    if _stat.S_ISREG(mode):
        return "f"
    return "o"


def read_dir(shell, o: Opts, path: str):
    """(list of Info, error) for the entries of directory ``path``."""
    fs = shell.fs
    infos: list[Info] = []
    need = _need_stat(o)
    follow = o.deref == "all"
    errors: list = []
    if shell.is_host_path(path):
        gen = fs.walk(path, onerror=errors.append)
        try:
            wd = next(gen, None)
            if wd is None:
                e = errors[0] if errors else FileSystemError(errno.EIO, path)
                return None, e
            for ent in wd.entries:
                name = ent.name
                if not _visible(o, name):
                    continue
                info = Info(name, join(path, name), ent.type)
                if need:
                    try:
                        fill_info(shell, o, info, ent.stat, follow)
                    except FileSystemError as e:
                        info.st = None
                        info.type = "?"
                        errors.append(FileSystemError(e.errno, info.path))
                infos.append(info)
        finally:
            gen.close()
    else:
        try:
            ents = fs.scandir(path)
        except FileSystemError as e:
            return None, e
        for de in ents:
            if not _visible(o, de.name):
                continue
            info = Info(de.name, join(path, de.name), de.type)
            if need:
                try:
                    fill_info(shell, o, info, None, follow)
                except FileSystemError as e:
                    errors.append(FileSystemError(e.errno, info.path))
            infos.append(info)
    if o.all:
        for name in ("..", "."):
            info = Info(name, join(path, name), "d")
            if need:
                try:
                    fill_info(shell, o, info, None, False)
                except FileSystemError:
                    pass
            infos.insert(0, info)
    return infos, errors


def _visible(o: Opts, name: str) -> bool:
    if name.startswith(".") and not (o.all or o.almost):
        return False
    if o.ignore_backups and name.endswith("~"):
        return False
    for m in o.ignore:
        if m(name):
            return False
    if not (o.all or o.almost):
        for m in o.hide:
            if m(name):
                return False
    return True


# ----------------------------------------------------------------- sorting
def _name_key(info: Info) -> bytes:
    return encode(info.name)


_VER_RE = re.compile(r"(\d+)")


def _version_key(name: str):
    # GNU filevercmp, approximately: . and .. first, then hidden files, then natural order.
    if name in (".", ".."):
        return (0, name, ())
    parts = []
    for i, chunk in enumerate(_VER_RE.split(name)):
        if i % 2:
            parts.append((1, int(chunk), ""))
        else:
            parts.append((0, 0, chunk))
    return (1, "", tuple(parts))


def sort_infos(o: Opts, infos: list[Info]) -> list[Info]:
    if o.sort == "none":
        res = list(infos)
        if o.reverse:
            res.reverse()
        return _gdf(o, res)
    res = sorted(infos, key=_name_key)
    if o.sort == "time":
        field = {"mtime": "st_mtime_ns", "atime": "st_atime_ns", "ctime": "st_ctime_ns"}[o.time]
        res.sort(key=lambda i: -(getattr(i.st, field) or 0) if i.st is not None else 0)
    elif o.sort == "size":
        res.sort(key=lambda i: -i.st.st_size if i.st is not None else 0)
    elif o.sort == "version":
        res.sort(key=lambda i: _version_key(i.name))
    elif o.sort == "extension":
        res.sort(key=lambda i: encode(_ext(i.name)))
    elif o.sort == "width":
        res.sort(key=lambda i: _width(i.name))
    if o.reverse:
        res.reverse()
    return _gdf(o, res)


def _ext(name: str) -> str:
    base = name.lstrip(".") if name not in (".", "..") else ""
    i = base.rfind(".")
    return base[i:] if i > 0 or (i == 0 and base) else ""


def _gdf(o: Opts, res: list[Info]) -> list[Info]:
    if not o.gdf:
        return res

    def isdir(i: Info) -> bool:
        if i.is_dir:
            return True
        return i.type == "l" and i.target_st is not None and _stat.S_ISDIR(i.target_st.st_mode)
    return [i for i in res if isdir(i)] + [i for i in res if not isdir(i)]


# ----------------------------------------------------------------- display
def _width(s: str) -> int:
    w = 0
    for ch in s:
        o = ord(ch)
        if o < 0x300:
            w += 1
        elif unicodedata.combining(ch):
            continue
        elif unicodedata.east_asian_width(ch) in ("W", "F"):
            w += 2
        else:
            w += 1
    return w


def quote_name(o: Opts, name: str) -> str:
    style = o.quoting
    if style == "literal":
        if o.hide_control:
            return "".join("?" if ord(c) < 32 or ord(c) == 127 or 0xDC80 <= ord(c) <= 0xDCFF
                           else c for c in name)
        return name
    if style in ("shell-escape", "shell", "locale", "clocale", "c-maybe"):
        return shell_quote_name(name)
    if style in ("shell-escape-always", "shell-always"):
        return q(name)
    if style in ("c", "escape"):
        out = []
        for ch in name:
            oc = ord(ch)
            if ch == "\\":
                out.append("\\\\")
            elif ch == '"' and style == "c":
                out.append('\\"')
            elif ch in "\a\b\f\n\r\t\v":
                out.append("\\" + "abfnrtv"["\a\b\f\n\r\t\v".index(ch)])
            elif ch == " " and style == "escape":
                out.append("\\ ")
            elif oc < 32 or oc == 127:
                out.append(f"\\{oc:03o}")
            elif 0xDC80 <= oc <= 0xDCFF:
                out.append(f"\\{oc - 0xDC00:03o}")
            else:
                out.append(ch)
        s = "".join(out)
        return f'"{s}"' if style == "c" else s
    return name


def indicator(o: Opts, mode: int | None) -> str:
    if o.indicator == "none" or mode is None:
        return ""
    if _stat.S_ISDIR(mode):
        return "/"
    if o.indicator == "slash":
        return ""
    if _stat.S_ISLNK(mode):
        return "@"
    if _stat.S_ISFIFO(mode):
        return "|"
    if _stat.S_ISSOCK(mode):
        return "="
    if _stat.S_ISREG(mode) and o.indicator == "classify" and mode & 0o111:
        return "*"
    return ""


def _mode_of(info: Info) -> int | None:
    if info.st is not None:
        return info.st.st_mode
    if info.type == "d":
        return _stat.S_IFDIR
    if info.type == "l":
        return _stat.S_IFLNK
    if info.type == "f":
        return _stat.S_IFREG
    return None


def _blocks(o: Opts, st) -> str:
    if st is None:
        return "?"
    return _scaled(o, (st.st_blocks or 0) * 512, o.block)


def _scaled(o: Opts, n: int, unit: int) -> str:
    """``n`` bytes in the unit -h, --si or --block-size chose (rounded up, as GNU ls)."""
    if o.human:
        return human_size(n, o.human)
    return f"{-(-n // unit)}{o.unit_suffix}"


_UNITS = "KMGTPEZY"


def _block_size(o: Opts, spec: str) -> None:
    """--block-size=SIZE: human-readable, si, or [']N[unit] where the unit is K, KiB (1024s)
    or KB (1000s); a unit with no number also names the unit after every size."""
    if spec in ("human-readable", "si"):
        o.human = 1024 if spec == "human-readable" else 1000
        return
    m = re.fullmatch(r"'?(\d*)(?:([KMGTPEZYkm])(iB|B)?)?", spec)
    if m is None or not (m.group(1) or m.group(2)):
        raise Usage(f"invalid --block-size argument {q(spec)}", 2, hint=False)
    number, letter, tail = m.group(1), m.group(2), m.group(3) or ""
    unit = 1
    if letter:
        base = 1000 if tail == "B" else 1024
        unit = base ** (_UNITS.index(letter.upper()) + 1)
    size = int(number or 1) * unit
    if size == 0:
        raise Usage(f"invalid --block-size argument {q(spec)}", 2, hint=False)
    o.human = 0
    o.block = o.size_unit = size
    if letter and not number:
        shown = "k" if letter.upper() == "K" and tail == "B" else letter.upper()
        o.unit_suffix = shown + tail
    else:
        o.unit_suffix = ""


def human_size(n: int, base: int) -> str:
    if base == 1000:
        return human(n, 1000).replace("K", "k")
    return human(n)


def format_time(shell, o: Opts, st, current: float) -> str:
    field = {"mtime": "st_mtime_ns", "atime": "st_atime_ns", "ctime": "st_ctime_ns"}[o.time]
    ns = getattr(st, field) or 0
    style = o.time_style
    if style == "full-iso":
        return full_time(shell, ns)
    ts = ns / 1e9
    dt = localtime(shell, ns // 1_000_000_000)
    if style == "long-iso":
        return dt.strftime("%Y-%m-%d %H:%M")
    recent = current - 15778476 < ts <= current
    if style == "iso":
        return dt.strftime("%m-%d %H:%M") if recent else dt.strftime("%Y-%m-%d ")
    if style.startswith("+"):
        fmts = style[1:].split("\n", 1)
        f = fmts[1] if recent and len(fmts) > 1 else fmts[0]
        return _strftime(dt, f, ns)
    return ls_date(shell, ts, current)


def _strftime(dt, fmt: str, ns: int) -> str:
    fmt = fmt.replace("%N", f"{ns % 1_000_000_000:09d}")
    return dt.strftime(fmt)


def long_lines(shell, o: Opts, infos: list[Info], extra: list[Info] = ()) -> list[str]:
    current = now()
    rows = []
    for info in [*infos, *extra]:
        st = info.st
        if st is None:
            rows.append((info, None))
            continue
        mode = mode_string(st.st_mode)
        if _stat.S_ISCHR(st.st_mode) or _stat.S_ISBLK(st.st_mode):
            import os

            size = f"{os.major(st.st_rdev)}, {os.minor(st.st_rdev)}"
        elif _stat.S_ISLNK(st.st_mode) and info.target is not None:
            size = str(len(encode(info.target)))
        else:
            size = _scaled(o, st.st_size, o.size_unit)
        cols = {
            "ino": str(st.st_ino), "blocks": _blocks(o, st), "mode": mode,
            "nlink": str(st.st_nlink),
            "owner": str(UID) if o.numeric else USER,
            "group": str(GID) if o.numeric else USER,
            "size": size, "date": format_time(shell, o, st, current),
        }
        rows.append((info, cols))
    widths: dict[str, int] = {}
    for _, cols in rows:
        if cols is None:
            continue
        for k, v in cols.items():
            if len(v) > widths.get(k, 0):
                widths[k] = len(v)
    out = []
    for info, cols in rows[: len(infos)]:
        parts = []
        if cols is None:
            if o.inode:
                parts.append("?".rjust(widths.get("ino", 1)))
            if o.size:
                parts.append("?".rjust(widths.get("blocks", 1)))
            parts.append("l?????????" if info.type == "l" else "??????????")
            parts.append("?".rjust(widths.get("nlink", 1)))
            if o.owner:
                parts.append("?".ljust(widths.get("owner", 1)))
            if o.group:
                parts.append("?".ljust(widths.get("group", 1)))
            parts.append("?".rjust(widths.get("size", 1)))
            parts.append("?".rjust(widths.get("date", 12)))
            out.append(" ".join(parts) + " " + quote_name(o, info.name))
            continue
        if o.inode:
            parts.append(cols["ino"].rjust(widths["ino"]))
        if o.size:
            parts.append(cols["blocks"].rjust(widths["blocks"]))
        parts.append(cols["mode"])
        parts.append(cols["nlink"].rjust(widths["nlink"]))
        if o.owner:
            parts.append(cols["owner"].ljust(widths["owner"]))
        if o.group:
            parts.append(cols["group"].ljust(widths["group"]))
        parts.append(cols["size"].rjust(widths["size"]))
        parts.append(cols["date"])
        name = quote_name(o, info.name)
        st = info.st
        if _stat.S_ISLNK(st.st_mode) and info.target is not None:
            name += " -> " + quote_name(o, info.target)
            if info.target_st is not None:
                name += indicator(o, info.target_st.st_mode) if o.indicator != "none" else ""
        else:
            name += indicator(o, st.st_mode)
        out.append(" ".join(parts) + " " + name)
    return out


def short_cells(o: Opts, infos: list[Info]) -> list[str]:
    cells = []
    iw = bw = 0
    if o.inode or o.size:
        for info in infos:
            if o.inode:
                iw = max(iw, len(str(info.st.st_ino)) if info.st is not None else 1)
            if o.size:
                bw = max(bw, len(_blocks(o, info.st)))
    for info in infos:
        prefix = ""
        if o.inode:
            prefix += (str(info.st.st_ino) if info.st is not None else "?").rjust(iw) + " "
        if o.size:
            prefix += _blocks(o, info.st).rjust(bw) + " "
        cells.append(prefix + quote_name(o, info.name) + indicator(o, _mode_of(info)))
    return cells


def columns(o: Opts, cells: list[str], across: bool) -> str:
    n = len(cells)
    if n == 0:
        return ""
    widths = [_width(c) for c in cells]
    line_len = o.width
    if line_len <= 0:
        max_cols = n
    else:
        max_cols = max(1, min(n, line_len // 3))
    best = 1
    best_arr = [max(widths) if widths else 0]
    for cols in range(max_cols, 0, -1):
        rows = -(-n // cols)
        if across:
            arr = [0] * cols
            for i, w in enumerate(widths):
                c = i % cols
                real = w + (0 if c == cols - 1 else 2)
                if real > arr[c]:
                    arr[c] = real
        else:
            cols_used = -(-n // rows)
            if cols_used != cols:
                continue
            arr = [0] * cols
            for i, w in enumerate(widths):
                c = i // rows
                real = w + (0 if c == cols - 1 else 2)
                if real > arr[c]:
                    arr[c] = real
        if line_len <= 0 or sum(arr) < line_len:
            best, best_arr = cols, arr
            break
    cols = best
    rows = -(-n // cols)
    starts = [0]
    for w in best_arr:
        starts.append(starts[-1] + w)
    lines = []
    for r in range(rows):
        if across:
            idxs = [r * cols + c for c in range(cols)]
        else:
            idxs = [c * rows + r for c in range(cols)]
        idxs = [i for i in idxs if i < n]
        line = []
        pos = 0
        for j, i in enumerate(idxs):
            line.append(cells[i])
            pos += widths[i]
            if j < len(idxs) - 1:
                target = starts[j + 1]
                line.append(_indent(pos, target, o.tabsize))
                pos = target
        lines.append("".join(line) + "\n")
    return "".join(lines)


def _indent(frm: int, to: int, tabsize: int) -> str:
    out = []
    while frm < to:
        if tabsize and to // tabsize > (frm + 1) // tabsize:
            out.append("\t")
            frm += tabsize - frm % tabsize
        else:
            out.append(" ")
            frm += 1
    return "".join(out)


def commas(o: Opts, cells: list[str]) -> str:
    out = []
    pos = 0
    line_length = o.width
    for i, c in enumerate(cells):
        w = _width(c)
        if i:
            if not line_length or pos + w + 2 < line_length:
                out.append(", ")
                pos += 2
            else:
                out.append(",\n")
                pos = 0
        out.append(c)
        pos += w
    return "".join(out) + "\n"


def render(shell, o: Opts, infos: list[Info], extra: list[Info] = ()) -> str:
    if o.long:
        lines = long_lines(shell, o, infos, extra)
        end = "\0" if o.zero else "\n"
        return "".join(line + end for line in lines)
    cells = short_cells(o, infos)
    if o.fmt == "C":
        return columns(o, cells, False)
    if o.fmt == "x":
        return columns(o, cells, True)
    if o.fmt == "m":
        return commas(o, cells)
    end = "\0" if o.zero else "\n"
    return "".join(c + end for c in cells)


def total_line(o: Opts, infos: list[Info]) -> str:
    blocks = sum(i.st.st_blocks or 0 for i in infos if i.st is not None)
    return f"total {_scaled(o, blocks * 512, o.block)}\n"


# -------------------------------------------------------------------- main
@on_write_error(2)
async def main(shell, argv: list[str]) -> int:
    return await _main(shell, argv)


async def _main(shell, argv: list[str]) -> int:
    try:
        parsed = parse(argv[1:], SHORT, LONG, status=2)
        if await help_or_version(shell, PROG, parsed[0], HELP):
            return 0
        o, operands = parse_opts(shell, argv[1:])
    except Usage as e:
        return await usage_error(shell, PROG, e)
    out = Output(shell.stdout)
    status = 0
    given = bool(operands)
    if not operands:
        operands = ["."]
    fs = shell.fs
    files: list[Info] = []
    dirs: list[Info] = []
    errs = []
    for name in operands:
        shell.budget.check()
        info = Info(name, name)
        try:
            lst = xlstat(fs, name)
        except FileSystemError as e:
            errs.append(f"cannot access {q(name)}: {strerror(e)}")
            status = 2
            continue
        follow = False
        if _stat.S_ISLNK(lst.st_mode):
            if o.deref in ("all", "cmdline"):
                follow = True
            elif o.deref == "dir" or name.endswith("/"):
                try:
                    follow = _stat.S_ISDIR(xstat(fs, name).st_mode)
                except FileSystemError:
                    follow = False
        try:
            fill_info(shell, o, info, lambda lst=lst: lst, follow)
        except FileSystemError as e:
            errs.append(f"cannot access {q(name)}: {strerror(e)}")
            status = 2
            continue
        if info.is_dir and not o.directory:
            dirs.append(info)
        else:
            files.append(info)
    if errs:
        await shell.stderr.write(encode("".join(f"{PROG}: {m}\n" for m in errs)))
    first = True
    if files:
        await out.text(render(shell, o, sort_infos(o, files), dirs))
        first = False
    dirs = sort_infos(o, dirs) if o.sort != "none" else dirs
    show_header = given and (len(operands) > 1 or o.recursive) or (not given and o.recursive)
    for info in dirs:
        st = await list_dir(shell, o, out, info.path, show_header, first, top=True)
        status = max(status, st)
        first = False
    await out.flush()
    return status


async def list_dir(shell, o: Opts, out: Output, path: str, header: bool, first: bool,
                   top: bool = False) -> int:
    shell.budget.check()
    infos, errors = read_dir(shell, o, path)
    if infos is None:
        await out.flush()
        await shell.error(PROG, f"cannot open directory {q(path)}: {strerror(errors)}")
        return 2 if top else 1
    status = 0
    chunk = []
    if header:
        if not first:
            chunk.append("\n")
        chunk.append(quote_name(o, path) + ":\n")
    infos = sort_infos(o, infos)
    if o.long or o.size:
        chunk.append(total_line(o, infos))
    chunk.append(render(shell, o, infos))
    await out.text("".join(chunk))
    if errors:
        await out.flush()
        for e in errors:
            await shell.error(PROG, f"cannot access {q(e.vpath or path)}: {strerror(e)}")
        status = 1
    if o.recursive:
        for info in infos:
            if info.name in (".", ".."):
                continue
            if info.type == "d" or (info.is_dir and o.deref == "all"):
                sub = info.path
                st = await list_dir(shell, o, out, sub, True, False)
                status = max(status, st)
    return status
