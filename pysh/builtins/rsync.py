"""rsync (3.2.7) for local copies, through the FileSystem door.

What it does: the sender's file list in rsync's order (a directory's files,
sorted, then each subdirectory in turn), trailing-slash semantics (``src/``
copies the contents, ``src`` the directory itself), the quick check (size and
modification time; ``-c`` checksums, ``--size-only``, ``-I``), ``-a``
(``-rlptgoD``; owner, group and devices are no-ops in the sandbox), ``-u``,
``--existing``, ``--ignore-existing``, ``--delete`` (before, during, after;
``--delete-excluded``), include/exclude rules with rsync's pattern rules
(``*``, ``**``, ``***``, anchored ``/``, directory-only ``/``, first match
wins; ``--exclude-from``, ``--include-from``, ``--filter`` with ``+``/``-``
rules, ``-C``), ``-m``, ``-R``, ``-L``, ``--mkpath``, ``--remove-source-files``,
``--max-size``/``--min-size``, ``-n`` and the ``-v``/``-i`` listings.

The "sent/received bytes" and speed figures of ``-v`` describe rsync's wire
protocol, which a local copy in the sandbox does not run: pysh prints the
lines with its own byte counts (the file data plus a per-entry estimate).

A remote ``host:path``, ``host::module`` or ``rsync://`` operand is refused
(no network in the sandbox): exit 10, rsync's "error in socket I/O".
"""

from __future__ import annotations

import errno
import hashlib
import re
import stat as _stat

from pysh.builtins._fileutil import basename, join
from pysh.builtins._textutil import parse_size
from pysh.shellkit import FileSystemError
from pysh.shellkit.options import OptionError, parse_options
from pysh.shellkit.text import decode, encode

VERSION = "rsync  version 3.2.7  protocol version 32\n"
HELP = """\
rsync  version 3.2.7  protocol version 32 (pysh: local copies only)

Usage: rsync [OPTION]... SRC [SRC]... DEST
  or   rsync [OPTION]... SRC        (list the files)

Options (the ones the sandbox's rsync runs)
--verbose, -v            increase verbosity
--quiet, -q              suppress non-error messages
--checksum, -c           skip based on checksum, not mod-time & size
--archive, -a            archive mode is -rlptgoD
--recursive, -r          recurse into directories
--relative, -R           use relative path names
--update, -u             skip files that are newer on the receiver
--dirs, -d               transfer directories without recursing
--mkpath                 create destination's missing path components
--links, -l              copy symlinks as symlinks
--copy-links, -L         transform symlink into referent file/dir
--perms, -p              preserve permissions
--times, -t              preserve modification times
--owner, -o / --group, -g / -D   accepted (one user in the sandbox)
--dry-run, -n            perform a trial run with no changes made
--existing               skip creating new files on receiver
--ignore-existing        skip updating files that exist on receiver
--remove-source-files    sender removes synchronized files (non-dir)
--delete                 delete extraneous files from dest dirs
--delete-before / --delete-during / --delete-after / --delete-excluded
--max-size=SIZE          don't transfer any file larger than SIZE
--min-size=SIZE          don't transfer any file smaller than SIZE
--prune-empty-dirs, -m   prune empty directory chains from file-list
--ignore-times, -I       don't skip files that match size and time
--size-only              skip files that match in size
--cvs-exclude, -C        auto-ignore files in the same way CVS does
--filter=RULE, -f        add a file-filtering RULE (+ and - rules)
--exclude=PATTERN        exclude files matching PATTERN
--exclude-from=FILE      read exclude patterns from FILE
--include=PATTERN        don't exclude files matching PATTERN
--include-from=FILE      read include patterns from FILE
--stats                  give some file-transfer stats
--human-readable, -h     output numbers in a human-readable format
--progress, -P           accepted (no progress meter)
--itemize-changes, -i    output a change-summary for all updates
--list-only              list the files instead of copying them
-z, -W, -S, -H, -x, --inplace, --partial   accepted, no effect
--version, -V            print the version and exit
--help                   show this help

Remote operands (host:path, host::module, rsync://) are refused: no network.
"""

_CVS = ("RCS SCCS CVS CVS.adm RCSLOG cvslog.* tags TAGS .make.state .nse_depinfo *~ #* .#* ,* "
        "_$* *$ *.old *.bak *.BAK *.orig *.rej .del-* *.a *.olb *.o *.obj *.so *.exe *.Z *.elc "
        "*.ln core .svn/ .git/ .hg/ .bzr/").split()


class RsyncError(Exception):
    def __init__(self, message: str, code: int):
        super().__init__(message)
        self.message = message
        self.code = code


# ------------------------------------------------------------------ filter rules
def _glob_re(pat: str) -> str:
    out = []
    i, n = 0, len(pat)
    while i < n:
        c = pat[i]
        if c == "*":
            if pat[i:i + 2] == "**":
                out.append(".*")
                i += 2
                continue
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            j = pat.find("]", i + 2 if pat[i + 1:i + 2] in ("!", "^", "]") else i + 1)
            if j < 0:
                out.append(re.escape(c))
            else:
                body = pat[i + 1:j]
                if body[:1] == "!":
                    body = "^" + body[1:]
                out.append("[" + body.replace("\\", "\\\\") + "]")
                i = j
        elif c == "\\" and i + 1 < n:
            i += 1
            out.append(re.escape(pat[i]))
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


class Rule:
    __slots__ = ("include", "rx", "dir_only", "text")

    def __init__(self, include: bool, pattern: str):
        self.include = include
        self.text = pattern
        pat = pattern
        self.dir_only = pat.endswith("/") and len(pat) > 1
        if self.dir_only:
            pat = pat.rstrip("/")
        anchored = pat.startswith("/")
        if anchored:
            pat = pat[1:]
        triple = pat.endswith("/***")
        if triple:
            pat = pat[:-4]
        full = anchored or "/" in pat or "**" in pat
        body = _glob_re(pat)
        if triple:
            body += "(?:/.*)?"
            self.dir_only = False
        if not full:
            self.rx = re.compile(r"(?:^|.*/)" + body + r"\Z", re.S)
        elif anchored:
            self.rx = re.compile(body + r"\Z", re.S)
        else:
            self.rx = re.compile(r"(?:^|.*/)" + body + r"\Z", re.S)

    def matches(self, rel: str, is_dir: bool) -> bool:
        if self.dir_only and not is_dir:
            return False
        return self.rx.match(rel) is not None


def excluded(rules: list[Rule], rel: str, is_dir: bool) -> bool:
    for r in rules:
        if r.matches(rel, is_dir):
            return not r.include
    return False


# ------------------------------------------------------------------ the file list
class Entry:
    __slots__ = ("rel", "src", "st", "kind", "target", "children")

    def __init__(self, rel: str, src: str, st, kind: str, target: str | None = None):
        self.rel = rel  # path relative to the destination ("." for a root "./")
        self.src = src  # virtual source path
        self.st = st
        self.kind = kind  # "f" file, "d" directory, "L" symlink
        self.target = target
        self.children: list[Entry] = []


class Rsync:
    def __init__(self, shell):
        self.shell = shell
        self.fs = shell.fs
        self.recursive = self.links = self.perms = self.times = False
        self.dirs = False
        self.copy_links = False
        self.verbose = 0
        self.quiet = False
        self.dry = False
        self.itemize = 0
        self.checksum = self.size_only = self.ignore_times = False
        self.update = self.existing = self.ignore_existing = False
        self.delete: str | None = None  # "before", "during", "after"
        self.delete_excluded = False
        self.rules: list[Rule] = []
        self.prune = False
        self.relative = False
        self.mkpath = False
        self.remove_source = False
        self.max_size: int | None = None
        self.min_size: int | None = None
        self.stats = False
        self.created_dest = False
        self.human = False
        self.list_only = False
        self.lines: list[str] = []
        self.errors: list[str] = []
        self.code = 0
        self.sent = 0
        self.received = 0
        self.total_size = 0
        self.n = {"reg": 0, "dir": 0, "link": 0}
        self.created = {"reg": 0, "dir": 0, "link": 0}
        self.deleted = 0
        self.transferred = 0
        self.transferred_size = 0

    # -- output ------------------------------------------------------------------
    def out(self, line: str) -> None:
        self.lines.append(line)

    def warn(self, message: str, code: int = 23) -> None:
        self.errors.append(message)
        self.code = max(self.code, code)

    def num(self, n: float) -> str:
        if self.human:
            for unit in ("", "K", "M", "G", "T"):
                if n < 1000 or unit == "T":
                    return f"{n:.2f}{unit}" if unit else f"{int(n)}"
                n /= 1000
        return f"{int(n):,}"

    # -- building the list ---------------------------------------------------------
    def kind_of(self, st) -> str | None:
        m = st.st_mode
        if _stat.S_ISREG(m):
            return "f"
        if _stat.S_ISDIR(m):
            return "d"
        if _stat.S_ISLNK(m):
            return "L"
        return None

    def make_entry(self, src: str, rel: str, filter_rel: str) -> Entry | None:
        fs = self.fs
        st = fs.stat(src) if self.copy_links else fs.lstat(src)
        kind = self.kind_of(st)
        target = None
        if kind == "L":
            if not self.links:
                self.out_skip(f'skipping non-regular file "{rel}"')
                return None
            target = fs.readlink(src)
        elif kind is None:
            self.out_skip(f'skipping non-regular file "{rel}"')
            return None
        if kind == "f" and ((self.max_size is not None and st.st_size > self.max_size) or
                            (self.min_size is not None and st.st_size < self.min_size)):
            return None
        return Entry(rel, src, st, kind, target)

    def out_skip(self, line: str) -> None:
        if not self.quiet:
            self.out(line)

    def scan(self, entry: Entry, filter_prefix: str) -> None:
        """Fill ``entry.children`` recursively (the filter sees ``filter_prefix`` + name)."""
        fs = self.fs
        budget = self.shell.budget
        try:
            names = sorted(fs.listdir(entry.src), key=lambda s: encode(s))
        except FileSystemError as e:
            self.warn(f'rsync: [sender] opendir "{entry.src}" failed: {_err(e)}')
            return
        for name in names:
            budget.check()
            src = join(entry.src, name)
            rel = name if entry.rel == "." else entry.rel + "/" + name
            frel = filter_prefix + name
            try:
                lst = fs.lstat(src)
            except FileSystemError as e:
                self.warn(f'rsync: [sender] link_stat "{src}" failed: {_err(e)}')
                continue
            is_dir = _stat.S_ISDIR(lst.st_mode)
            if self.copy_links and _stat.S_ISLNK(lst.st_mode):
                try:
                    is_dir = _stat.S_ISDIR(fs.stat(src).st_mode)
                except FileSystemError:
                    pass
            if excluded(self.rules, frel, is_dir):
                continue
            try:
                child = self.make_entry(src, rel, frel)
            except FileSystemError as e:
                self.warn(f'rsync: [sender] link_stat "{src}" failed: {_err(e)}')
                continue
            if child is None:
                continue
            if child.kind == "d":
                if self.recursive:
                    self.scan(child, frel + "/")
                    if self.prune and not _has_files(child):
                        continue
                elif not self.dirs:
                    continue
            entry.children.append(child)

    # -- comparing and copying -------------------------------------------------------
    def same(self, e: Entry, dst: str, dst_st) -> bool:
        """The quick check: is ``dst`` already up to date?"""
        if self.ignore_times:
            return False
        if dst_st.st_size != e.st.st_size:
            return False
        if self.size_only:
            return True
        if self.checksum:
            return _digest(self.fs, e.src) == _digest(self.fs, dst)
        return int(dst_st.st_mtime) == int(e.st.st_mtime)

    def item(self, code: str, rel: str, suffix: str = "") -> None:
        """One itemized line (-i) or name (-v)."""
        if self.itemize:
            self.out(f"{code} {rel}{suffix}")
        elif self.verbose:
            self.out(f"{rel}{suffix}")

    def sync_dir_attrs(self, e: Entry, dst: str) -> None:
        if self.dry:
            return
        try:
            if self.perms:
                self.fs.chmod(dst, _stat.S_IMODE(e.st.st_mode))
            if self.times:
                self.fs.utime(dst, ns=(e.st.st_atime_ns, e.st.st_mtime_ns))
        except FileSystemError:
            pass

    def do_file(self, e: Entry, dst: str) -> None:
        fs = self.fs
        try:
            dst_st = fs.lstat(dst)
        except FileSystemError:
            dst_st = None
        self.total_size += e.st.st_size
        self.sent += 24 + len(encode(e.rel))
        if dst_st is not None and _stat.S_ISDIR(dst_st.st_mode):
            self.warn(f'rsync: [generator] delete_file: rmdir(\"{e.rel}\") failed: '
                      f'{_err(FileSystemError(errno.ENOTEMPTY))}')
            return
        if dst_st is None and self.existing:
            return
        if dst_st is not None and self.ignore_existing:
            return
        if dst_st is not None and self.update and _stat.S_ISREG(dst_st.st_mode) and \
                int(dst_st.st_mtime) > int(e.st.st_mtime):
            return
        rel = e.rel
        if dst_st is not None and _stat.S_ISREG(dst_st.st_mode) and self.same(e, dst, dst_st):
            changes = []
            if self.perms and _stat.S_IMODE(dst_st.st_mode) != _stat.S_IMODE(e.st.st_mode):
                changes.append("p")
                if not self.dry:
                    try:
                        fs.chmod(dst, _stat.S_IMODE(e.st.st_mode))
                    except FileSystemError:
                        pass
            if self.times and int(dst_st.st_mtime) != int(e.st.st_mtime) and \
                    (self.checksum or self.size_only):
                changes.append("t")
                if not self.dry:
                    try:
                        fs.utime(dst, ns=(e.st.st_atime_ns, e.st.st_mtime_ns))
                    except FileSystemError:
                        pass
            if changes and self.itemize:
                flags = ["."] * 9
                for ch in changes:
                    flags["cstpoguax".index(ch)] = ch
                self.out(f".f{''.join(flags)} {rel}")
            self.remove_source_file(e)
            return
        if dst_st is None:
            code = ">f+++++++++"
            self.created["reg"] += 1
        else:
            flags = ["."] * 9
            if self.checksum:
                flags[0] = "c"
            if dst_st.st_size != e.st.st_size:
                flags[1] = "s"
            if int(dst_st.st_mtime) != int(e.st.st_mtime):
                flags[2] = "t" if self.times else "T"
            if self.perms and _stat.S_IMODE(dst_st.st_mode) != _stat.S_IMODE(e.st.st_mode):
                flags[3] = "p"
            code = ">f" + "".join(flags)
        self.item(code, rel)
        self.transferred += 1
        self.transferred_size += e.st.st_size
        self.sent += e.st.st_size
        if self.dry:
            return
        try:
            data_in = fs.open(e.src, "rb")
        except FileSystemError as err:
            self.warn(f'rsync: [sender] send_files failed to open "{e.src}": {_err(err)}')
            return
        try:
            if dst_st is not None and not _stat.S_ISREG(dst_st.st_mode):
                fs.unlink(dst)
            mode = _stat.S_IMODE(e.st.st_mode)
            if not self.perms:
                mode = (_stat.S_IMODE(dst_st.st_mode) if dst_st is not None
                        else mode & ~self.shell.umask)
            out = fs.open(dst, "wb", perm=0o600)
            try:
                budget = self.shell.budget
                while True:
                    chunk = data_in.read(1 << 20)
                    if not chunk:
                        break
                    out.write(chunk)
                    budget.count_written(len(chunk))
                    budget.check()
            finally:
                out.close()
            fs.chmod(dst, mode)
            if self.times:
                fs.utime(dst, ns=(e.st.st_atime_ns, e.st.st_mtime_ns))
        except OSError as err:
            self.warn(f'rsync: [receiver] write failed on "{dst}": {_err(err)}', 11)
            return
        finally:
            data_in.close()
        self.remove_source_file(e)

    def remove_source_file(self, e: Entry) -> None:
        if self.remove_source and not self.dry and e.kind != "d":
            try:
                self.fs.unlink(e.src)
            except FileSystemError as err:
                self.warn(f'rsync: [sender] sender failed to remove {e.rel}: {_err(err)}')

    def do_link(self, e: Entry, dst: str) -> None:
        fs = self.fs
        self.total_size += len(encode(e.target or ""))
        try:
            dst_st = fs.lstat(dst)
        except FileSystemError:
            dst_st = None
        if dst_st is not None and _stat.S_ISLNK(dst_st.st_mode):
            try:
                if fs.readlink(dst) == e.target:
                    self.remove_source_file(e)
                    return
            except FileSystemError:
                pass
        if dst_st is None and self.existing:
            return
        if dst_st is not None and self.ignore_existing:
            return
        if dst_st is None:
            code = "cL+++++++++"
            self.created["link"] += 1
        else:
            code = "cLc.t......"
        self.item(code, e.rel, f" -> {e.target}")
        if self.dry:
            return
        try:
            if dst_st is not None:
                if _stat.S_ISDIR(dst_st.st_mode):
                    raise FileSystemError(errno.EISDIR, dst)
                fs.unlink(dst)
            fs.symlink(e.target, dst)
        except FileSystemError as err:
            self.warn(f'rsync: [receiver] symlink "{dst}" -> "{e.target}" failed: {_err(err)}')
            return
        self.remove_source_file(e)

    def delete_extraneous(self, e: Entry, dst: str) -> None:
        """Remove what ``dst`` holds that the source directory ``e`` does not send."""
        fs = self.fs
        try:
            names = fs.listdir(dst)
        except FileSystemError:
            return
        keep = {c.rel.rsplit("/", 1)[-1] for c in e.children}
        prefix = "" if e.rel == "." else e.rel + "/"
        for name, is_dir in self.delete_order(dst, names):
            if name in keep:
                continue
            path = join(dst, name)
            frel = self.filter_prefix(e) + name
            if not self.delete_excluded and excluded(self.rules, frel, is_dir):
                continue
            self.delete_path(path, prefix + name, is_dir)

    def delete_order(self, dst: str, names: list[str]) -> list[tuple[str, bool]]:
        """rsync's list order (a directory's files, then its subdirectories), reversed."""
        items = []
        for name in names:
            try:
                items.append((name, _stat.S_ISDIR(self.fs.lstat(join(dst, name)).st_mode)))
            except FileSystemError:
                continue
        items.sort(key=lambda it: (it[1], encode(it[0])), reverse=True)
        return items

    def filter_prefix(self, e: Entry) -> str:
        return getattr(self, "_fprefix", {}).get(id(e), "")

    def delete_path(self, path: str, rel: str, is_dir: bool) -> None:
        fs = self.fs
        if is_dir:
            try:
                names = fs.listdir(path)
            except FileSystemError:
                names = []
            for name, d in self.delete_order(path, names):
                self.delete_path(join(path, name), rel + "/" + name, d)
        shown = rel + ("/" if is_dir else "")
        if self.itemize:
            self.out(f"*deleting   {shown}")
        elif self.verbose:
            self.out(f"deleting {shown}")
        self.deleted += 1
        if self.dry:
            return
        try:
            if is_dir:
                fs.rmdir(path)
            else:
                fs.unlink(path)
        except FileSystemError as err:
            self.warn(f'rsync: [generator] delete_file: unlink({rel}) failed: {_err(err)}')

    def do_dir(self, e: Entry, dst: str, deletions: list) -> None:
        fs = self.fs
        try:
            dst_st = fs.stat(dst)
        except FileSystemError:
            dst_st = None
        if dst_st is not None and not _stat.S_ISDIR(dst_st.st_mode):
            if not self.dry:
                try:
                    fs.unlink(dst)
                except FileSystemError:
                    pass
            dst_st = None
        rel_shown = "./" if e.rel == "." else e.rel + "/"
        new = dst_st is None or (e.rel == "." and self.created_dest)
        if new and self.existing and e.rel != ".":
            return
        if self.delete == "during" and not new:
            self.delete_extraneous(e, dst)
        elif self.delete == "after" and not new:
            deletions.append((e, dst))
        if new:
            self.created["dir"] += 1
            self.item("cd+++++++++", rel_shown.rstrip("/"), "/")
            if not self.dry and dst_st is None:
                try:
                    fs.mkdir(dst, 0o700)
                except FileSystemError as err:
                    self.warn(f'rsync: [generator] recv_generator: mkdir "{dst}" failed: '
                              f'{_err(err)}')
                    return
                mode = _stat.S_IMODE(e.st.st_mode)
                if not self.perms:
                    mode &= ~self.shell.umask
                try:
                    fs.chmod(dst, mode)
                except FileSystemError:
                    pass
        else:
            flags = ["."] * 9
            if self.times and int(dst_st.st_mtime) != int(e.st.st_mtime):
                flags[2] = "t"
            if self.perms and _stat.S_IMODE(dst_st.st_mode) != _stat.S_IMODE(e.st.st_mode):
                flags[3] = "p"
            if flags != ["."] * 9:
                self.item(".d" + "".join(flags), rel_shown.rstrip("/"), "/")
        self.sent += 24 + len(encode(e.rel))
        files = [c for c in e.children if c.kind != "d"]
        subdirs = [c for c in e.children if c.kind == "d"]
        for c in files:
            self.shell.budget.check()
            target = join(dst, c.rel.rsplit("/", 1)[-1])
            self.count(c)
            if c.kind == "L":
                self.do_link(c, target)
            else:
                self.do_file(c, target)
        for c in subdirs:
            self.count(c)
            self._fprefix[id(c)] = self.filter_prefix(e) + c.rel.rsplit("/", 1)[-1] + "/"
            self.do_dir(c, join(dst, c.rel.rsplit("/", 1)[-1]), deletions)
        if not new or not self.dry:
            self.sync_dir_attrs(e, dst)

    def count(self, e: Entry) -> None:
        self.n[{"f": "reg", "d": "dir", "L": "link"}[e.kind]] += 1


def _has_files(e: Entry) -> bool:
    return any(c.kind != "d" or _has_files(c) for c in e.children)


def _digest(fs, path: str) -> bytes:
    h = hashlib.md5()
    with fs.open(path, "rb") as f:
        while True:
            chunk = f.read(1 << 20)
            if not chunk:
                return h.digest()
            h.update(chunk)


def _err(e: OSError) -> str:
    import os

    code = e.errno or errno.EIO
    return f"{os.strerror(code)} ({code})"


def _remote(arg: str) -> bool:
    if arg.startswith("rsync://"):
        return True
    head = arg.split("/", 1)[0]
    return ":" in head and not arg.startswith(("./", "/"))


async def main(shell, argv: list[str]) -> int:
    r = Rsync(shell)
    r._fprefix = {}
    args = argv[1:]
    if args == ["-h"]:
        args = ["--help"]
    try:
        opts, operands = parse_options(args, "vqcarRudlLkKHpogDtnWxzSPhimCf:F0VIbe:T:B:y@:", {
            "verbose": "v", "quiet": "q", "checksum": "c", "archive": "a", "recursive": "r",
            "relative": "R", "update": "u", "dirs": "d", "links": "l", "copy-links": "L",
            "perms": "p", "owner": "o", "group": "g", "devices": "D", "specials": "D",
            "times": "t", "dry-run": "n", "whole-file": "W", "one-file-system": "x",
            "compress": "z", "sparse": "S", "human-readable": "h", "itemize-changes": "i",
            "prune-empty-dirs": "m", "cvs-exclude": "C", "filter=": "f", "exclude=": "exclude",
            "include=": "include", "exclude-from=": "exclude-from",
            "include-from=": "include-from", "delete": "delete", "del": "delete",
            "delete-before": "delete-before", "delete-during": "delete", "delete-delay":
            "delete-after", "delete-after": "delete-after", "delete-excluded":
            "delete-excluded", "existing": "existing", "ignore-existing": "ignore-existing",
            "remove-source-files": "remove-source-files", "max-size=": "max-size",
            "min-size=": "min-size", "size-only": "size-only", "ignore-times": "I",
            "mkpath": "mkpath", "stats": "stats", "progress": "progress", "partial": "noop",
            "inplace": "noop", "hard-links": "H", "numeric-ids": "noop", "list-only":
            "list-only", "version": "V", "help": "help", "keep-dirlinks": "K",
            "copy-dirlinks": "k", "force": "noop", "omit-dir-times": "O", "no-perms": "no-p",
            "no-times": "no-t", "no-owner": "noop", "no-group": "noop", "no-recursive":
            "no-r", "no-links": "no-l", "no-D": "noop", "no-o": "noop", "no-g": "noop",
            "no-p": "no-p", "no-t": "no-t", "no-r": "no-r", "no-l": "no-l", "executability":
            "noop", "ignore-errors": "noop", "rsh=": "e", "backup": "b", "suffix=": "unsup",
            "backup-dir=": "unsup", "chmod=": "unsup", "files-from=": "unsup",
            "link-dest=": "unsup", "compare-dest=": "unsup", "copy-dest=": "unsup",
            "out-format=": "unsup", "log-file=": "unsup", "info=": "unsup", "daemon": "unsup",
            "temp-dir=": "noop", "timeout=": "noop", "bwlimit=": "noop", "modify-window=": "@",
            "block-size=": "noop", "checksum-choice=": "noop", "compress-level=": "noop",
            "append": "unsup", "append-verify": "unsup", "fuzzy": "noop", "partial-dir=":
            "noop", "delay-updates": "noop", "safe-links": "noop", "atimes": "noop",
            "open-noatime": "noop", "8-bit-output": "noop", "super": "noop", "fake-super":
            "noop", "acls": "noop", "xattrs": "noop", "protect-args": "noop",
            "secluded-args": "noop", "no-implied-dirs": "noop", "max-delete=": "noop"})
    except OptionError as e:
        await shell.stderr.write(encode(f"rsync: {e}\nrsync error: syntax or usage error "
                                        "(code 1) at main.c(1795) [client=3.2.7]\n"))
        return 1
    rules_text: list[tuple[bool, str]] = []
    for k, v in opts:
        if k == "help":
            await shell.stdout.write(encode(HELP))
            return 0
        if k == "V":
            await shell.stdout.write(encode(VERSION))
            return 0
        if k in ("unsup", "e", "b"):
            await shell.stderr.write(encode(
                "rsync: this option is not supported by the sandbox's rsync (local copies "
                "only)\nrsync error: syntax or usage error (code 1) at main.c(1795) "
                "[client=3.2.7]\n"))
            return 1
        if k == "v":
            r.verbose += 1
        elif k == "q":
            r.quiet = True
        elif k == "c":
            r.checksum = True
        elif k == "a":
            r.recursive = r.links = r.perms = r.times = True
        elif k == "r":
            r.recursive = True
        elif k == "no-r":
            r.recursive = False
        elif k == "R":
            r.relative = True
        elif k == "u":
            r.update = True
        elif k == "d":
            r.dirs = True
        elif k == "l":
            r.links = True
        elif k == "no-l":
            r.links = False
        elif k == "L":
            r.copy_links = True
        elif k == "p":
            r.perms = True
        elif k == "no-p":
            r.perms = False
        elif k == "t":
            r.times = True
        elif k == "no-t":
            r.times = False
        elif k == "n":
            r.dry = True
        elif k == "i":
            r.itemize += 1
        elif k == "m":
            r.prune = True
        elif k == "C":
            rules_text += [(False, p) for p in _CVS]
        elif k == "f":
            rule = (v or "").strip()
            m = re.match(r"^(\+|-|include|exclude)[ _](.*)$", rule)
            if not m:
                await shell.stderr.write(encode(
                    f"rsync: filter rule not supported by the sandbox's rsync: {rule}\n"
                    "rsync error: syntax or usage error (code 1) at main.c(1795) "
                    "[client=3.2.7]\n"))
                return 1
            rules_text.append((m.group(1) in ("+", "include"), m.group(2)))
        elif k in ("exclude", "include"):
            rules_text.append((k == "include", v or ""))
        elif k in ("exclude-from", "include-from"):
            try:
                data = shell.fs.read_bytes(v) if v != "-" else b""
            except FileSystemError as e:
                await shell.stderr.write(encode(
                    f"rsync: failed to open {k} file {v}: {_err(e)}\n"
                    "rsync error: syntax or usage error (code 1) at main.c(1795) "
                    "[client=3.2.7]\n"))
                return 1
            for line in decode(data).splitlines():
                line = line.rstrip("\r")
                if not line or line[0] in "#;":
                    continue
                rules_text.append((k == "include-from", line))
        elif k == "delete":
            r.delete = r.delete or "during"
        elif k == "delete-before":
            r.delete = "before"
        elif k == "delete-after":
            r.delete = "after"
        elif k == "delete-excluded":
            r.delete_excluded = True
            r.delete = r.delete or "during"
        elif k == "existing":
            r.existing = True
        elif k == "ignore-existing":
            r.ignore_existing = True
        elif k == "remove-source-files":
            r.remove_source = True
        elif k in ("max-size", "min-size"):
            try:
                size = parse_size((v or "").upper().rstrip("B") or "x", "KMGTPE")
            except ValueError:
                await shell.stderr.write(encode(
                    f"rsync: --{k}={v}: invalid size\nrsync error: syntax or usage error "
                    "(code 1) at main.c(1795) [client=3.2.7]\n"))
                return 1
            if k == "max-size":
                r.max_size = size
            else:
                r.min_size = size
        elif k == "size-only":
            r.size_only = True
        elif k == "I":
            r.ignore_times = True
        elif k == "mkpath":
            r.mkpath = True
        elif k == "stats":
            r.stats = True
        elif k == "h":
            r.human = True
        elif k == "list-only":
            r.list_only = True
    r.rules = [Rule(inc, pat) for inc, pat in rules_text]
    if r.quiet:
        r.verbose = 0
    for a in operands:
        if _remote(a):
            await shell.stderr.write(encode(
                f"rsync: remote operand {a!r} is not supported: the sandbox has no network "
                "(only local copies)\nrsync error: error in socket I/O (code 10) at "
                "clientserver.c(139) [client=3.2.7]\n"))
            return 10
    if not operands:
        await shell.stdout.write(encode(HELP))
        await shell.stderr.write(encode("rsync error: syntax or usage error (code 1) at "
                                        "main.c(1789) [client=3.2.7]\n"))
        return 1
    if len(operands) == 1 or r.list_only:
        return await list_only(r, operands)
    return await transfer(r, operands[:-1], operands[-1])


async def flush(r: Rsync) -> None:
    shell = r.shell
    if r.lines:
        await shell.stdout.write(encode("\n".join(r.lines) + "\n"))
        r.lines.clear()
    if r.errors:
        await shell.stderr.write(encode("\n".join(r.errors) + "\n"))
        r.errors.clear()


async def list_only(r: Rsync, sources: list[str]) -> int:
    import datetime

    fs = r.fs
    r.links = True  # a listing shows links as links
    rows = []
    from pysh.builtins._fileutil import tzinfo

    tz = tzinfo(r.shell)

    def row(path: str, shown: str) -> None:
        st = fs.lstat(path)
        t = datetime.datetime.fromtimestamp(int(st.st_mtime), tz).strftime("%Y/%m/%d %H:%M:%S")
        mode = _stat.filemode(st.st_mode)
        rows.append(f"{mode} {st.st_size:>14,} {t} {shown}")

    for src in sources:
        try:
            st = fs.lstat(src)
        except FileSystemError as e:
            r.warn(f'rsync: [sender] link_stat "{fs.abspath(src)}" failed: {_err(e)}')
            continue
        contents = src.endswith("/") or src in (".", "..") or src.endswith("/.")
        if _stat.S_ISDIR(st.st_mode) and (contents or r.recursive):
            base = src.rstrip("/") or "/"
            shown_root = "." if contents else basename(src)
            row(src, shown_root)
            if r.recursive or contents:
                e = Entry(".", base, st, "d")
                if r.recursive:
                    r.scan(e, "" if contents else shown_root + "/")
                else:
                    saved, r.dirs = r.dirs, True
                    saved_rec = r.recursive
                    r.scan(e, "")
                    r.dirs, r.recursive = saved, saved_rec

                def walk(ent: Entry, prefix: str) -> None:
                    # rsync's order: a directory's files, then each subdirectory and its own
                    for c in ent.children:
                        if c.kind != "d":
                            row(c.src, prefix + c.rel)
                    for c in ent.children:
                        if c.kind == "d":
                            row(c.src, prefix + c.rel)
                            walk(c, prefix)

                walk(e, "" if contents else shown_root + "/")
        else:
            row(src, basename(src))
    if r.verbose:
        r.out("sending incremental file list")
    r.lines.extend(rows)
    if r.verbose:
        r.out("")
        r.out(f"sent {r.num(r.sent)} bytes  received {r.num(r.received)} bytes  "
              f"{r.num(0)} bytes/sec")
        r.out(f"total size is {r.num(r.total_size)}  speedup is 0.00")
    await flush(r)
    return r.code


async def transfer(r: Rsync, sources: list[str], dest: str) -> int:
    fs = r.fs
    shell = r.shell
    roots: list[tuple[Entry, str]] = []  # (entry, destination path)
    dest_is_dir = False
    try:
        dest_is_dir = _stat.S_ISDIR(fs.stat(dest).st_mode)
    except FileSystemError:
        pass
    file_targets = []
    for src in sources:
        contents = src.endswith("/") or src in (".", "..") or src.endswith("/.")
        try:
            lst = fs.stat(src) if (r.copy_links or contents) else fs.lstat(src)
        except FileSystemError as e:
            r.warn(f'rsync: [sender] link_stat "{fs.abspath(src)}" failed: {_err(e)}')
            continue
        is_dir = _stat.S_ISDIR(lst.st_mode)
        if is_dir and not (r.recursive or r.dirs):
            r.out_skip(f"skipping directory {basename(src) if not contents else '.'}")
            continue
        if r.relative:
            rel_path = src.lstrip("/").rstrip("/")
            parts = [p for p in rel_path.split("/") if p not in ("", ".")]
            name = "/".join(parts) or "."
        else:
            name = "." if (contents and is_dir) else basename(src)
        if excluded(r.rules, name, is_dir) and name != ".":
            continue
        try:
            e = r.make_entry(src, name, name)
        except FileSystemError as err:
            r.warn(f'rsync: [sender] link_stat "{fs.abspath(src)}" failed: {_err(err)}')
            continue
        if e is None:
            continue
        if e.kind == "d":
            if r.recursive:
                r.scan(e, "" if name == "." else name + "/")
            r._fprefix[id(e)] = "" if name == "." else name + "/"
        roots.append((e, src))
        file_targets.append(e)
    single_file = len(sources) == 1 and len(roots) == 1 and roots[0][0].kind != "d" \
        and not dest.endswith("/") and not dest_is_dir
    if not roots and not r.errors:  # every source was a skipped directory
        await flush(r)
        return r.code
    # the destination directory
    dest_dir = dest
    if not single_file and not dest_is_dir:
        try:
            fs.lstat(dest)
            exists = True
        except FileSystemError:
            exists = False
        if not exists:
            parent = dest.rstrip("/").rsplit("/", 1)[0] if "/" in dest.rstrip("/") else "."
            if not r.dry:
                try:
                    if r.mkpath:
                        fs.mkdir(dest.rstrip("/") or dest, 0o755, parents=True, exist_ok=True)
                    else:
                        fs.mkdir(dest.rstrip("/") or dest, 0o755)
                except FileSystemError as e:
                    await flush(r)
                    await shell.stderr.write(encode(
                        f'rsync: [Receiver] mkdir "{fs.abspath(dest.rstrip("/"))}" failed: '
                        f'{_err(e)}\nrsync error: error in file IO (code 11) at main.c(800) '
                        '[Receiver=3.2.7]\n'))
                    return 11
            elif not r.mkpath and not fs.exists(parent):
                await shell.stderr.write(encode(
                    f'rsync: [Receiver] mkdir "{fs.abspath(dest.rstrip("/"))}" failed: '
                    'No such file or directory (2)\nrsync error: error in file IO (code 11) '
                    'at main.c(800) [Receiver=3.2.7]\n'))
                return 11
            r.created_dest = True
            if r.verbose or r.itemize:
                r.lines.insert(0, f"created directory {dest.rstrip('/') or dest}")
    header = []
    if r.verbose and not r.quiet:
        inc = not (r.prune or r.delete in ("before", "after"))
        header = ["sending incremental file list" if inc else "building file list ... done"]
    r.lines[:0] = header
    deletions: list = []
    if r.delete == "before":
        for e, _ in roots:
            if e.kind == "d" and e.rel == ".":
                r.delete_extraneous(e, dest_dir)
    for e, _src in roots:
        shell.budget.check()
        target = dest if single_file else join(dest_dir, e.rel if e.rel != "." else "")
        if e.rel == ".":
            target = dest_dir
        if r.relative and e.rel != ".":
            parts = e.rel.split("/")
            for i in range(1, len(parts)):
                sub = "/".join(parts[:i])
                p = join(dest_dir, sub)
                if not fs.exists(p):
                    r.item("cd+++++++++", sub, "/")
                    if not r.dry:
                        try:
                            fs.mkdir(p, 0o755)
                        except FileSystemError:
                            pass
        r.count(e)
        if e.kind == "d":
            r.do_dir(e, target.rstrip("/") or target, deletions)
        elif e.kind == "L":
            r.do_link(e, target)
        else:
            r.do_file(e, target)
    for e, d in deletions:
        r.delete_extraneous(e, d)
    if (r.verbose or r.stats) and not r.quiet:
        total = r.n["reg"] + r.n["dir"] + r.n["link"]
        r.received = 14 + 8 * r.transferred + 4 * (total - 1 if total else 0)
        r.sent += 19
        rate = (r.sent + r.received) * 2.0
        if r.stats:
            r.out("")
            r.out(f"Number of files: {r.num(total)}{_kinds(r.n)}")
            created = sum(r.created.values())
            r.out(f"Number of created files: {r.num(created)}{_kinds(r.created)}")
            r.out(f"Number of deleted files: {r.num(r.deleted)}")
            r.out(f"Number of regular files transferred: {r.num(r.transferred)}")
            r.out(f"Total file size: {r.num(r.total_size)} bytes")
            r.out(f"Total transferred file size: {r.num(r.transferred_size)} bytes")
            r.out(f"Literal data: {r.num(0 if r.dry else r.transferred_size)} bytes")
            r.out("Matched data: 0 bytes")
            r.out("File list size: 0")
            r.out("File list generation time: 0.001 seconds")
            r.out("File list transfer time: 0.000 seconds")
            r.out(f"Total bytes sent: {r.num(r.sent)}")
            r.out(f"Total bytes received: {r.num(r.received)}")
        r.out("")
        speed = r.total_size / (r.sent + r.received) if (r.sent + r.received) else 0.0
        r.out(f"sent {r.num(r.sent)} bytes  received {r.num(r.received)} bytes  "
              f"{_rate(r, rate)} bytes/sec")
        r.out(f"total size is {r.num(r.total_size)}  speedup is {speed:.2f}"
              + (" (DRY RUN)" if r.dry else ""))
    await flush(r)
    if r.code == 23:
        await shell.stderr.write(encode(
            "rsync error: some files/attrs were not transferred (see previous errors) "
            "(code 23) at main.c(1347) [sender=3.2.7]\n"))
    return r.code


def _rate(r: Rsync, rate: float) -> str:
    if r.human:
        return r.num(rate)
    return f"{rate:,.2f}"


def _kinds(counts: dict) -> str:
    parts = [f"{k}: {v:,}" for k, v in (("reg", counts["reg"]), ("dir", counts["dir"]),
                                         ("link", counts["link"])) if v]
    return f" ({', '.join(parts)})" if parts else ""
