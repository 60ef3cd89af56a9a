"""tree (v2.x): an indented listing of directories, through the FileSystem door.

Directory contents are read through held dir fds (``shell.fs.walk``, one
directory at a time), sorted by name (or -v/-t/-r/-U). Symlinks are not
followed unless ``-l``; a link pointing out of the sandbox is shown as a
link and counted as a file. Colours (-C) are never emitted.
"""

from __future__ import annotations

import re
import stat as _stat

from pysh.builtins._fileutil import (
    USER,
    Output,
    Usage,
    bracket,
    help_or_version,
    human,
    join,
    localtime,
    lstat,
    mode_string,
    parse,
    stat,
    usage_error,
)
from pysh.shellkit import FileSystemError
from pysh.shellkit.text import encode
from pysh.shellkit.wildmatch import join_stars

PROG = "tree"

HELP = """
usage: tree [-acdfghilnpqrstuvxACDFNSU] [-L level] [-P pattern] [-I pattern]
	[--dirsfirst] [--filesfirst] [--noreport] [--prune] [--matchdirs]
	[--ignore-case] [--charset=X] [--sort[=]name] [--filelimit #]
	[--help] [--version] [--] [directory ...]
  ------- Listing options -------
  -a            All files are listed.
  -d            List directories only.
  -l            Follow symbolic links like directories.
  -f            Print the full path prefix for each file.
  -x            Stay on current filesystem only.
  -L level      Descend only level directories deep.
  -P pattern    List only those files that match the pattern given.
  -I pattern    Do not list files that match the given pattern.
  --ignore-case Ignore case when pattern matching.
  --matchdirs   Include directory names in -P pattern matching.
  --noreport    Turn off file/directory count at end of tree listing.
  --prune       Prune empty directories from the output.
  --filelimit # Do not descend dirs with more than # files in them.
  -------- File options ---------
  -q            Print non-printable characters as '?'.
  -N            Print non-printable characters as is.
  -p            Print the protections for each file.
  -u            Displays file owner or UID number.
  -g            Displays file group owner or GID number.
  -s            Print the size in bytes of each file.
  -h            Print the size in a more human readable way.
  -D            Print the date of last modification.
  -F            Appends '/', '=', '*', '@', '|' or '>' as per ls -F.
  ------- Sorting options -------
  -v            Sort files alphanumerically by version.
  -t            Sort files by last modification time.
  -U            Leave files unsorted.
  -r            Reverse the order of the sort.
  --dirsfirst   List directories before files.
  --filesfirst  List files before directories.
  --sort X      Select sort: name,version,size,mtime,ctime.
  ------- Graphics options ------
  -i            Don't print indentation lines.
  -n            Turn colorization off always (-C overrides).
  -C            Accepted; output is never coloured.
  --charset X   Use charset X for line drawing (ascii or utf-8).
  ------- Miscellaneous options -------
  --help        Print usage and this help message and exit.
"""

UTF8 = ("├── ", "└── ", "│\u00a0\u00a0 ", "    ")
USAGE = """usage: tree [-acdfghilnpqrstuvxACDFJQNSUX] [-L level [-R]] [-H  baseHREF]
\t[-T title] [-o filename] [-P pattern] [-I pattern] [--gitignore]
\t[--gitfile[=]file] [--matchdirs] [--metafirst] [--ignore-case]
\t[--nolinks] [--hintro[=]file] [--houtro[=]file] [--inodes] [--device]
\t[--sort[=]<name>] [--dirsfirst] [--filesfirst] [--filelimit #] [--si]
\t[--du] [--prune] [--charset[=]X] [--timefmt[=]format] [--fromfile]
\t[--fflinks] [--info] [--infofile[=]file] [--noreport] [--version]
\t[--help] [--] [directory ...]
"""
ASCII = ("|-- ", "`-- ", "|   ", "    ")


def compile_pattern(pat: str, icase: bool):
    """tree's patterns: globs with '|' between alternatives."""
    alts = []
    for alt in pat.split("|"):
        out: list[str | None] = []
        i = 0
        while i < len(alt):
            c = alt[i]
            if c == "*":
                out.append(None)  # a star: join_stars keeps the match linear
            elif c == "?":
                out.append(".")
            elif c == "[":
                br = bracket(alt, i, True)
                if br is not None:
                    out.append(br[0])
                    i = br[1]
                    continue
                out.append("\\[")
            elif c == "\\" and i + 1 < len(alt):
                i += 1
                out.append(re.escape(alt[i]))
            else:
                out.append(re.escape(c))
            i += 1
        alts.append(join_stars(out))
    return re.compile("(?:" + "|".join(alts) + ")", re.DOTALL | (re.I if icase else 0)).fullmatch


class Opts:
    def __init__(self):
        self.all = self.dirs_only = self.follow = self.full = self.one_fs = False
        self.level = None
        self.include = self.exclude = None
        self.icase = self.matchdirs = self.noreport = self.prune = False
        self.filelimit = None
        self.raw = False
        self.qmark = False
        self.perms = self.user = self.group = self.size = self.human = self.date = False
        self.classify = False
        self.sort = "name"
        self.reverse = False
        self.first = None  # dirs, files
        self.noindent = False
        self.lines = UTF8


class Entry:
    __slots__ = ("name", "path", "lst", "st", "is_dir", "target", "error")

    def __init__(self, name, path):
        self.name, self.path = name, path
        self.lst = self.st = None
        self.is_dir = False
        self.target = None
        self.error = False


def _display(o: Opts, name: str) -> str:
    if o.raw:
        return name
    out = []
    for ch in name:
        c = ord(ch)
        if o.qmark:
            out.append("?" if c < 32 or c == 127 else ch)
        elif c < 32 or c == 127:
            out.append(f"\\{c:03o}")
        elif 0xDC80 <= c <= 0xDCFF:
            out.append(f"\\{c - 0xDC00:03o}")
        else:
            out.append(ch)
    return "".join(out)


def _indicator(mode: int | None) -> str:
    if mode is None:
        return ""
    if _stat.S_ISDIR(mode):
        return "/"
    if _stat.S_ISLNK(mode):
        return "@"
    if _stat.S_ISFIFO(mode):
        return "|"
    if _stat.S_ISSOCK(mode):
        return "="
    if _stat.S_ISREG(mode) and mode & 0o111:
        return "*"
    return ""


def read_entries(shell, o: Opts, path: str) -> list[Entry] | None:
    fs = shell.fs
    entries: list[Entry] = []
    names: list[tuple[str, object]] = []
    if shell.is_host_path(path):
        gen = fs.walk(path)
        try:
            wd = next(gen, None)
            if wd is None:
                return None
            for ent in wd.entries:
                e = Entry(ent.name, join(path, ent.name))
                try:
                    e.lst = ent.stat(False)
                except FileSystemError:
                    e.error = True
                names.append((ent.name, e))
        finally:
            gen.close()
    else:
        try:
            for de in fs.scandir(path):
                e = Entry(de.name, join(path, de.name))
                try:
                    e.lst = lstat(fs, e.path)
                except FileSystemError:
                    e.error = True
                names.append((de.name, e))
        except FileSystemError:
            return None
    for name, e in names:
        if not o.all and name.startswith("."):
            continue
        lst = e.lst
        if lst is None:
            entries.append(e)
            continue
        e.st = lst
        if _stat.S_ISLNK(lst.st_mode):
            try:
                e.target = fs.readlink(e.path)
            except FileSystemError:
                e.target = "?"
            try:
                tst = stat(fs, e.path)
                e.st = tst
                e.is_dir = _stat.S_ISDIR(tst.st_mode)
            except FileSystemError:
                e.st = None
        else:
            e.is_dir = _stat.S_ISDIR(lst.st_mode)
        entries.append(e)
    return entries


def _filter(o: Opts, entries: list[Entry]) -> list[Entry]:
    res = []
    for e in entries:
        if o.dirs_only and not e.is_dir:
            continue
        if o.exclude is not None and o.exclude(e.name):
            continue
        if o.include is not None and not (e.is_dir and not o.matchdirs):
            if not o.include(e.name) and not (e.is_dir and o.matchdirs and False):
                continue
        res.append(e)
    return res


def _sort(o: Opts, entries: list[Entry]) -> list[Entry]:
    if o.sort == "none":
        res = list(entries)
    elif o.sort == "version":
        from pysh.builtins.ls import _version_key

        res = sorted(entries, key=lambda e: _version_key(e.name))
    elif o.sort in ("mtime", "ctime"):
        field = "st_mtime" if o.sort == "mtime" else "st_ctime"
        res = sorted(entries, key=lambda e: (getattr(e.lst, field, 0) if e.lst else 0,
                                             encode(e.name)))
    elif o.sort == "size":
        res = sorted(entries, key=lambda e: (-(e.lst.st_size if e.lst else 0), encode(e.name)))
    else:
        res = sorted(entries, key=lambda e: encode(e.name))
    if o.reverse:
        res.reverse()
    if o.first == "dirs":
        res = [e for e in res if e.is_dir] + [e for e in res if not e.is_dir]
    elif o.first == "files":
        res = [e for e in res if not e.is_dir] + [e for e in res if e.is_dir]
    return res


def _meta(shell, o: Opts, e: Entry) -> str:
    st = e.lst
    if not (o.perms or o.user or o.group or o.size or o.date) or st is None:
        return ""
    parts = []
    if o.perms:
        parts.append(mode_string(st.st_mode))
    if o.user:
        parts.append(f"{USER:<8}")
    if o.group:
        parts.append(f"{USER:<8}")
    if o.size:
        if o.human:
            parts.append(f"{human(st.st_size):>4}")
        else:
            parts.append(f"{st.st_size:>11}")
    if o.date:
        dt = localtime(shell, st.st_mtime)
        parts.append(dt.strftime("%b %e %H:%M"))
    return "[" + " ".join(parts) + "]  "


class Counts:
    def __init__(self):
        self.dirs = 0
        self.files = 0


async def main(shell, argv: list[str]) -> int:
    o = Opts()
    try:
        opts, roots = parse(argv[1:], "adlfxL:P:I:qNpugshDFvtUrinCASJXQ", {
            "dirsfirst": "dirsfirst", "filesfirst": "filesfirst", "noreport": "noreport",
            "prune": "prune", "matchdirs": "matchdirs", "ignore-case": "icase",
            "charset=": "charset", "sort=": "sort", "filelimit=": "filelimit",
            "du": "du", "si": "si", "inodes": "inodes", "device": "device",
            "nolinks": "nolinks", "fflinks": "fflinks", "noreport ": "noreport"}, status=1)
        if await help_or_version(shell, PROG, opts, HELP):
            return 0
        for k, v in opts:
            if k == "a":
                o.all = True
            elif k == "d":
                o.dirs_only = True
            elif k == "l":
                o.follow = True
            elif k == "f":
                o.full = True
            elif k == "x":
                o.one_fs = True
            elif k == "L":
                if not v.isdigit() or int(v) < 1:
                    raise Usage("Invalid level, must be greater than 0.", 1, hint=False)
                o.level = int(v)
            elif k == "P":
                o.include = v
            elif k == "I":
                o.exclude = v
            elif k == "q":
                o.raw, o.qmark = False, True
            elif k == "N":
                o.raw, o.qmark = True, False
            elif k == "p":
                o.perms = True
            elif k == "u":
                o.user = True
            elif k == "g":
                o.group = True
            elif k == "s":
                o.size = True
            elif k == "h":
                o.size = o.human = True
            elif k == "D":
                o.date = True
            elif k == "F":
                o.classify = True
            elif k == "v":
                o.sort = "version"
            elif k == "t":
                o.sort = "mtime"
            elif k == "U":
                o.sort = "none"
            elif k == "r":
                o.reverse = True
            elif k == "i":
                o.noindent = True
            elif k == "dirsfirst":
                o.first = "dirs"
            elif k == "filesfirst":
                o.first = "files"
            elif k == "noreport":
                o.noreport = True
            elif k == "prune":
                o.prune = True
            elif k == "matchdirs":
                o.matchdirs = True
            elif k == "icase":
                o.icase = True
            elif k == "charset":
                o.lines = ASCII if v.lower() in ("ascii", "us-ascii", "ansi_x3.4-1968") else UTF8
            elif k == "sort":
                if v not in ("name", "version", "size", "mtime", "ctime", "none"):
                    raise Usage(f"Invalid sort type '{v}'", 1, hint=False)
                o.sort = v
            elif k == "filelimit":
                if not v.isdigit():
                    raise Usage(f"Invalid filelimit value '{v}'", 1, hint=False)
                o.filelimit = int(v)
    except Usage as e:
        if e.message.startswith("invalid option -- "):
            e = Usage(f"Invalid argument -`{e.message[-2]}'.\n{USAGE.rstrip()}", 1, hint=False)
        elif e.message.startswith("unrecognized option '"):
            e = Usage(f"Invalid argument `{e.message[21:-1]}'.\n{USAGE.rstrip()}", 1,
                      hint=False)
        return await usage_error(shell, PROG, e)
    if o.include is not None:
        o.include = compile_pattern(o.include, o.icase)
    if o.exclude is not None:
        o.exclude = compile_pattern(o.exclude, o.icase)
    out = Output(shell.stdout)
    counts = Counts()
    status = 0
    for root in roots or ["."]:
        shell.budget.check()
        fs = shell.fs
        try:
            rst = stat(fs, root)
        except FileSystemError:
            rst = None
        if rst is None or not _stat.S_ISDIR(rst.st_mode):
            await out.text(f"{_display(o, root)}  [error opening dir]\n")
            if rst is None:
                status = 2
            else:
                counts.files += 1
            continue
        re_ = Entry(root, root)
        try:
            re_.lst = lstat(fs, root)
        except FileSystemError:
            re_.lst = rst
        head = (_meta(shell, o, re_) + _display(o, root)
                + ("/" if o.classify and not root.endswith("/") else ""))
        await out.text(head + "\n")
        lines = await _walk(shell, o, out, root, "", 1, counts, {(rst.st_dev, rst.st_ino)},
                            rst.st_dev)
        if lines:
            counts.dirs += 1
        await out.text("".join(lines))
    if not o.noreport:
        d = "directory" if counts.dirs == 1 else "directories"
        if o.dirs_only:
            await out.text(f"\n{counts.dirs} {d}\n")
        else:
            f = "file" if counts.files == 1 else "files"
            await out.text(f"\n{counts.dirs} {d}, {counts.files} {f}\n")
    await out.flush()
    return status


async def _walk(shell, o: Opts, out: Output, path: str, prefix: str, depth: int,
                counts: Counts, ancestors: set, dev) -> list[str]:
    shell.budget.check()
    entries = read_entries(shell, o, path)
    if entries is None:
        return []
    entries = _sort(o, _filter(o, entries))
    lines: list[str] = []
    tee, last, pipe, blank = o.lines
    for i, e in enumerate(entries):
        is_last = i == len(entries) - 1
        branch = "" if o.noindent else (last if is_last else tee)
        name = e.path if o.full else e.name
        text = _meta(shell, o, e) + _display(o, name)
        sub_lines: list[str] = []
        descend = e.is_dir and (e.target is None or o.follow)
        note = ""
        if e.target is not None:
            tgt = _display(o, e.target)
            if o.classify and e.st is not None:
                tgt += _indicator(e.st.st_mode)
            text += " -> " + tgt
        elif o.classify and e.lst is not None:
            text += _indicator(e.lst.st_mode)
        if e.is_dir:
            counts.dirs += 1
            if descend and (o.level is None or depth < o.level):
                key = (e.st.st_dev, e.st.st_ino) if e.st is not None else None
                if key in ancestors:
                    note = "  [recursive, not followed]"
                elif o.one_fs and e.st is not None and e.st.st_dev != dev:
                    pass
                else:
                    if o.filelimit is not None:
                        kids = read_entries(shell, o, e.path)
                        if kids is not None and len(_filter(o, kids)) > o.filelimit:
                            note = (f"  [{len(_filter(o, kids))} entries exceeds filelimit, "
                                    "not opening dir]")
                            kids = None
                    if not note:
                        child_prefix = prefix + ("" if o.noindent else (blank if is_last
                                                                          else pipe))
                        sub = read_entries(shell, o, e.path)
                        if sub is None:
                            note = "  [error opening dir]"
                        else:
                            if key is not None:
                                ancestors.add(key)
                            sub_lines = await _walk(shell, o, out, e.path, child_prefix,
                                                    depth + 1, counts, ancestors, dev)
                            if key is not None:
                                ancestors.discard(key)
            if o.prune and not sub_lines and not (o.include is not None and o.matchdirs
                                                  and o.include(e.name)):
                counts.dirs -= 1
                continue
        else:
            counts.files += 1
        lines.append(prefix + branch + text + note + "\n")
        lines.extend(sub_lines)
    if o.prune and lines:
        pass
    return lines
