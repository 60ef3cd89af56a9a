"""Change sets of overlay mounts: what the merged view changes in the lower layer, and
how those changes are written back to the host directory (or dropped).

:func:`scan` compares the merged view (upper layer, whiteouts, lower layer) with the
lower layer as it is now. Only where the upper layer has a directory, or a whiteout
lies beneath, is anything listed or read: an untouched subtree costs nothing.

:func:`apply` writes selected changes to the host directory through directory fds
held from the mount's root (``O_NOFOLLOW`` at every component: a symlink planted on
the host on the way is a conflict, never followed), all or nothing: a change whose
host entry is no longer what the sandbox first saw of it (see :attr:`Layer.bases`),
or that appeared on the host meanwhile, is a conflict, and any conflict refuses the
whole apply. It runs in two phases: every new version is written under a temporary
name beside its place and fsynced, then each is renamed into place (deletions after),
so a crash leaves every file either old or new; a journal lets :func:`sweep` remove
the temporaries of an apply that died. :func:`discard` empties the upper layer and forgets the whiteouts.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import re
import stat as _stat
from dataclasses import asdict, dataclass

from pysh.shellkit.overlay import Layer, base_key
from pysh.shellkit.tempdirs import _clear_dir

_DIR_PATH = os.O_PATH | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_DIR_READ = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_FILE_READ = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_CHUNK = 1 << 16


@dataclass(slots=True)
class Change:
    """One changed path of an overlay mount.

    ``status``: "added", "modified" or "deleted"; ``kind``: "file", "dir", "symlink" or
    "other" (for a deletion, the old entry's); the ``old_`` fields describe the lower
    entry, the others the merged view's (None where that side has none). ``mode`` is
    the permission bits, ``size`` a file's (or a symlink's) length in bytes."""

    path: str
    status: str
    kind: str
    old_kind: str | None = None
    size: int | None = None
    old_size: int | None = None
    mode: int | None = None
    old_mode: int | None = None
    target: str | None = None
    old_target: str | None = None
    mount: str = ""
    rel: str = ""

    def to_dict(self) -> dict:
        d = asdict(self)
        for k in ("mode", "old_mode"):
            if d[k] is not None:
                d[k] = f"{d[k]:04o}"
        return d


@dataclass
class ApplyResult:
    """The paths written to the host, and the ones refused: (path, reason)."""

    applied: list[str]
    conflicts: list[tuple[str, str]]


def _kind(mode: int) -> str:
    if _stat.S_ISREG(mode):
        return "file"
    if _stat.S_ISDIR(mode):
        return "dir"
    if _stat.S_ISLNK(mode):
        return "symlink"
    return "other"


def _join(rel: str, name: str) -> str:
    return f"{rel}/{name}" if rel else name


def _open_rel(root: int, rel: str, flags: int = _DIR_READ) -> int:
    """``rel`` beneath directory fd ``root``, no symlink followed on the way; -1 if absent."""
    fd = os.dup(root)
    try:
        for c in rel.split("/") if rel else ():
            nfd = os.open(c, _DIR_PATH, dir_fd=fd)
            os.close(fd)
            fd = nfd
        out = os.open(".", flags, dir_fd=fd)
    except OSError:
        return -1
    finally:
        os.close(fd)
    return out


def _entries(fd: int) -> dict[str, os.stat_result]:
    out = {}
    if fd < 0:
        return out
    with os.scandir(fd) as it:
        for e in it:
            try:
                out[e.name] = e.stat(follow_symlinks=False)
            except OSError:
                pass
    return out


def _same_content(ufd: int, lfd: int, name: str) -> bool:
    try:
        a = os.open(name, _FILE_READ, dir_fd=ufd)
    except OSError:
        return False
    try:
        b = os.open(name, _FILE_READ, dir_fd=lfd)
    except OSError:
        os.close(a)
        return False
    try:
        while True:
            x, y = os.read(a, _CHUNK), os.read(b, _CHUNK)
            if x != y:
                return False
            if not x:
                return True
    finally:
        os.close(a)
        os.close(b)


def _readlink(fd: int, name: str) -> str | None:
    try:
        return os.readlink(name, dir_fd=fd)
    except OSError:
        return None


def scan(layer: Layer, lower_root: int, mount: str) -> list[Change]:
    """The changes of one overlay mount (``mount``: its virtual path), sorted by path."""
    out: list[Change] = []
    with layer.lock:
        hidden = set(layer.hidden)
        touched = set()  # the whiteouts and every directory above one
        for h in hidden:
            parts = h.split("/")
            touched.update("/".join(parts[:i]) for i in range(len(parts) + 1))
        upper_root = os.open(".", _DIR_READ, dir_fd=layer.upper_fd)
        try:
            stack = [("", "both")]
            while stack:
                rel, side = stack.pop()
                _scan_dir(layer, upper_root, lower_root, mount, rel, side, hidden, touched,
                          out, stack)
        finally:
            os.close(upper_root)
    out.sort(key=lambda c: c.rel.split("/"))
    return out


def _scan_dir(layer, upper_root, lower_root, mount, rel, side, hidden, touched, out, stack):
    """One directory: ``side`` "both" (compare), "old" (all deleted), "new" (all added)."""
    ufd = _open_rel(upper_root, rel) if side != "old" else -1
    lfd = _open_rel(lower_root, rel) if side != "new" else -1
    try:
        old = _entries(lfd)
        upper = _entries(ufd)
        lower_seen = side == "both" and not layer.is_hidden(rel) if rel else side == "both"
        names = sorted(set(old) | set(upper))
        for name in names:
            sub = _join(rel, name)
            o = old.get(name)
            u = upper.get(name)
            # the merged view's entry: the upper one, else the lower one if not hidden
            n, holder = (u, "u") if u is not None else (
                (o, "l") if o is not None and lower_seen and sub not in hidden else (None, ""))
            if holder == "l" and sub not in touched:
                continue  # untouched: the same entry on both sides
            vpath = mount + "/" + sub
            if n is None:
                if o is not None:
                    out.append(_change(vpath, mount, sub, "deleted", None, o, ufd, lfd, name))
                    if _stat.S_ISDIR(o.st_mode):
                        stack.append((sub, "old"))
                continue
            if o is None or side == "new":
                out.append(_change(vpath, mount, sub, "added", n, None, ufd, lfd, name))
                if _stat.S_ISDIR(n.st_mode):
                    stack.append((sub, "new"))
                continue
            nd, od = _stat.S_ISDIR(n.st_mode), _stat.S_ISDIR(o.st_mode)
            if nd and od:
                if _stat.S_IMODE(n.st_mode) != _stat.S_IMODE(o.st_mode):
                    out.append(_change(vpath, mount, sub, "modified", n, o, ufd, lfd, name))
                stack.append((sub, "both"))  # (an opaque one shows no lower entry)
                continue
            if _stat.S_IFMT(n.st_mode) == _stat.S_IFMT(o.st_mode) and holder == "u":
                if _stat.S_ISREG(n.st_mode):
                    same = (_stat.S_IMODE(n.st_mode) == _stat.S_IMODE(o.st_mode)
                            and n.st_size == o.st_size and _same_content(ufd, lfd, name))
                elif _stat.S_ISLNK(n.st_mode):
                    same = _readlink(ufd, name) == _readlink(lfd, name)
                else:
                    same = True
                if same:
                    continue
            out.append(_change(vpath, mount, sub, "modified", n, o,
                               ufd if holder == "u" else lfd, lfd, name))
            if od:
                stack.append((sub, "old"))
            if nd:
                stack.append((sub, "new"))
    finally:
        for fd in (ufd, lfd):
            if fd >= 0:
                os.close(fd)


def _change(vpath, mount, rel, status, n, o, nfd, lfd, name) -> Change:
    c = Change(vpath, status, _kind((n or o).st_mode), mount=mount, rel=rel)
    if n is not None:
        c.mode = _stat.S_IMODE(n.st_mode)
        if not _stat.S_ISDIR(n.st_mode):
            c.size = n.st_size
        if _stat.S_ISLNK(n.st_mode):
            c.target = _readlink(nfd, name)
    if o is not None:
        c.old_kind = _kind(o.st_mode)
        c.old_mode = _stat.S_IMODE(o.st_mode)
        if not _stat.S_ISDIR(o.st_mode):
            c.old_size = o.st_size
        if _stat.S_ISLNK(o.st_mode):
            c.old_target = _readlink(lfd, name)
    return c


def read_side(layer: Layer, lower_root: int, c: Change, new: bool) -> bytes:
    """The content of one side of a file change (b"" where that side has no file)."""
    if (c.kind if new else c.old_kind) != "file" or (new and c.status == "deleted") or (
            not new and c.status == "added"):
        return b""
    parent, _, name = c.rel.rpartition("/")
    if new:
        root = os.open(".", _DIR_READ, dir_fd=layer.upper_fd)
        try:
            dfd = _open_rel(root, parent)
        finally:
            os.close(root)
        if dfd >= 0 and not _exists(dfd, name):  # the merged view shows the lower file
            os.close(dfd)
            dfd = -1
        if dfd < 0:
            dfd = _open_rel(lower_root, parent)
    else:
        dfd = _open_rel(lower_root, parent)
    if dfd < 0:
        return b""
    try:
        fd = os.open(name, _FILE_READ, dir_fd=dfd)
    except OSError:
        return b""
    finally:
        os.close(dfd)
    try:
        if not _stat.S_ISREG(os.fstat(fd).st_mode):
            return b""
        chunks = []
        while True:
            b = os.read(fd, 1 << 20)
            if not b:
                return b"".join(chunks)
            chunks.append(b)
    finally:
        os.close(fd)


def _exists(dfd: int, name: str) -> bool:
    try:
        os.stat(name, dir_fd=dfd, follow_symlinks=False)
        return True
    except OSError:
        return False


# ------------------------------------------------------------------------ apply
def selected(changes: list[Change], paths) -> list[Change]:
    """The changes at or beneath one of the virtual ``paths`` (all of them for None)."""
    if paths is None:
        return list(changes)
    want = [p.rstrip("/") or "/" for p in paths]
    return [c for c in changes
            if any(c.path == p or c.path.startswith(p + "/") or p == "/" for p in want)]


class _Conflict(Exception):
    pass


APPLY_PREFIX = ".pysh-apply-"  # every name an apply makes in a host directory
_JOURNAL = re.compile(r"\.pysh-apply-([0-9a-f]{32})\.journal")


@dataclass(slots=True)
class _Step:
    """One change to write: the host entry as checked, and (for a file, a symlink or a
    directory the host lacks) the temporary name its new version is built under."""

    c: Change
    cur: os.stat_result | None
    tree: list[Change] | None = None  # a directory made whole: the changes beneath it
    tmp: str | None = None


def apply(layer: Layer, lower_root: int, changes: list[Change]) -> ApplyResult:
    """Write ``changes`` (from :func:`scan` of this layer) to the host directory, all or
    nothing: every change is checked first; if one conflicts, nothing is written and the
    conflicts come back. Otherwise every new file, symlink and directory tree is built
    under a temporary name beside its place (fsynced), every host entry is checked again,
    and only then is each renamed into place; deletions come after the renames, a type
    change (a directory replaced by a file or the reverse) and directory modes last. A
    crash leaves each file old or new, and a journal at the host root naming the
    temporaries' directories: the next apply or sandbox on that directory removes them
    (:func:`sweep`)."""
    with layer.lock:
        sweep(lower_root)
        steps, conflicts = _plan(layer, lower_root, changes)
        if conflicts or not steps:
            return ApplyResult([], conflicts)
        try:
            journal = _Journal(lower_root, steps)
        except OSError as e:  # the host directory takes no new entry: nothing was written
            why = f"cannot write to the host directory: {os.strerror(e.errno or errno.EIO)}"
            return ApplyResult([], [(s.c.path, why) for s in steps])
        upper_root = os.open(".", _DIR_READ, dir_fd=layer.upper_fd)
        try:
            try:
                for s in steps:  # phase 1: every temporary written, nothing replaced yet
                    _prepare(layer, upper_root, lower_root, s, journal)
            except _Conflict as e:
                return ApplyResult([], [(s.c.path, str(e))])
            conflicts = _recheck(lower_root, steps)
            if conflicts:
                return ApplyResult([], conflicts)
            applied, failed = _commit(lower_root, steps)  # phase 2: renames
        finally:
            os.close(upper_root)
            journal.close(steps)  # what was not renamed into place, then the journal
        for rel in applied:  # what the sandbox now holds as the lower entries
            parent, _, name = rel.rpartition("/")
            dfd = _open_rel(lower_root, parent, _DIR_PATH)
            try:
                layer.bases[rel] = base_key(os.stat(name, dir_fd=dfd, follow_symlinks=False))
            except OSError:
                layer.bases.pop(rel, None)
            finally:
                if dfd >= 0:
                    os.close(dfd)
    by_rel = {c.rel: c.path for c in changes}
    return ApplyResult([by_rel[r] for r in applied], failed)


def _host_stat(lower_root: int, rel: str) -> os.stat_result | None:
    parent, _, name = rel.rpartition("/")
    dfd = _open_rel(lower_root, parent, _DIR_PATH)
    if dfd < 0:
        raise _Conflict("its directory is missing or changed on the host")
    try:
        return os.stat(name, dir_fd=dfd, follow_symlinks=False)
    except FileNotFoundError:
        return None
    except OSError as e:
        raise _Conflict(os.strerror(e.errno or errno.EIO)) from None
    finally:
        os.close(dfd)


def conflicts(layer: Layer, lower_root: int, changes: list[Change]) -> list[tuple[str, str]]:
    """The changes :func:`apply` would refuse now: (path, reason)."""
    with layer.lock:
        return _plan(layer, lower_root, changes)[1]


def _plan(layer: Layer, lower_root: int, changes: list[Change]):
    """Check every change against the host; a directory the host lacks takes the changes
    beneath it along (built whole, renamed into place at once)."""
    steps: list[_Step] = []
    conflicts: list[tuple[str, str]] = []
    trees: dict[str, _Step] = {}
    refused: set[str] = set()
    for c in sorted(changes, key=lambda c: c.rel.split("/")):
        parts = c.rel.split("/")
        above = ["/".join(parts[:i]) for i in range(1, len(parts))]
        if any(a in refused for a in above):
            continue  # beneath a conflict: reported there
        tree = next((trees[a] for a in above if a in trees), None)
        if tree is not None:
            tree.tree.append(c)
            continue
        try:
            cur = _host_stat(lower_root, c.rel)
            _check_base(layer, c, cur)
        except _Conflict as e:
            conflicts.append((c.path, str(e)))
            refused.add(c.rel)
            continue
        s = _Step(c, cur)
        if c.status != "deleted" and c.kind == "dir" and (cur is None
                                                          or not _stat.S_ISDIR(cur.st_mode)):
            s.tree = []
            trees[c.rel] = s
        steps.append(s)
    return steps, conflicts


def _check_base(layer: Layer, c: Change, cur: os.stat_result | None) -> None:
    """Refuse a change when the host entry is not what the sandbox started from."""
    if c.old_kind is None:  # added: nothing may have appeared there (a directory may)
        if cur is not None and not (c.kind == "dir" and _stat.S_ISDIR(cur.st_mode)):
            raise _Conflict("it was created on the host meanwhile")
        return
    if cur is None:
        raise _Conflict("it was removed on the host meanwhile")
    if _kind(cur.st_mode) != c.old_kind:
        raise _Conflict("it changed type on the host meanwhile")
    if c.old_kind == "dir":
        return  # its entries are checked one by one; its mtime moves with them
    base = layer.bases.get(c.rel)
    if base is None or base != base_key(cur):
        raise _Conflict("it changed on the host since the sandbox read it")


def _needs_tmp(s: _Step) -> bool:
    return s.c.status != "deleted" and (s.c.kind != "dir" or s.tree is not None)


class _Journal:
    """``.pysh-apply-<id>.journal`` at the host root, locked while its apply runs: the
    directories where that apply's temporaries (``.pysh-apply-<id>-<n>``) are made."""

    def __init__(self, root: int, steps: list[_Step]) -> None:
        self.root = root
        self.id = os.urandom(16).hex()
        self.n = 0
        self.name = f"{APPLY_PREFIX}{self.id}.journal"
        dirs = sorted({s.c.rel.rpartition("/")[0] for s in steps if _needs_tmp(s)})
        self.fd = -1
        if not dirs:
            return
        fd = os.open(self.name, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
                     | os.O_CLOEXEC, 0o600, dir_fd=root)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            _write_all(fd, json.dumps({"pysh-apply": 1, "dirs": dirs}).encode())
            os.fsync(fd)
            _fsync_dir(root)
        except BaseException:
            os.close(fd)
            _unlink(root, self.name)
            raise
        self.fd = fd

    def tmp_name(self) -> str:
        self.n += 1
        return f"{APPLY_PREFIX}{self.id}-{self.n}"

    def close(self, steps: list[_Step]) -> None:
        if self.fd < 0:
            return
        for s in steps:
            if s.tmp is not None:
                dfd = _open_rel(self.root, s.c.rel.rpartition("/")[0], _DIR_PATH)
                if dfd >= 0:
                    _remove(dfd, s.tmp)
                    os.close(dfd)
        _unlink(self.root, self.name)
        os.close(self.fd)  # (the lock goes with it)
        self.fd = -1


def sweep(root: int) -> None:
    """Remove what an apply that died (a crash, a kill) left in the host directory open at
    ``root``: the temporaries its journal names, then the journal. Only a journal no live
    apply holds locked, and in the directories it lists only the names of that apply;
    nothing else is touched."""
    try:
        rfd = _open_rel(root, "")
        if rfd < 0:
            return
        try:
            journals = [m.group(1) for e in os.scandir(rfd) if (m := _JOURNAL.fullmatch(e.name))]
        finally:
            os.close(rfd)
    except OSError:
        return
    for tx in journals:
        name = f"{APPLY_PREFIX}{tx}.journal"
        try:
            fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC,
                         dir_fd=root)
        except OSError:
            continue
        try:
            if not _stat.S_ISREG(os.fstat(fd).st_mode):
                continue
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # a live apply holds it
            dirs = json.loads(os.read(fd, 1 << 24)).get("dirs")
            if not isinstance(dirs, list):
                continue
            prefix = f"{APPLY_PREFIX}{tx}-"
            for rel in dirs:
                if not isinstance(rel, str) or (rel and any(
                        p in ("", ".", "..") for p in rel.split("/"))):
                    continue
                dfd = _open_rel(root, rel)
                if dfd < 0:
                    continue
                try:
                    for e in list(os.scandir(dfd)):
                        if e.name.startswith(prefix) and e.name[len(prefix):].isdigit():
                            _remove(dfd, e.name)
                finally:
                    os.close(dfd)
            _unlink(root, name)
        except (OSError, ValueError, AttributeError):
            continue
        finally:
            os.close(fd)


def _remove(dfd: int, name: str) -> None:
    """Remove entry ``name`` of ``dfd``: a directory with all it holds."""
    try:
        os.unlink(name, dir_fd=dfd)
        return
    except IsADirectoryError:
        pass
    except OSError as e:
        if e.errno != errno.EPERM:
            return
    try:
        fd = os.open(name, _DIR_READ, dir_fd=dfd)
    except OSError:
        return
    try:
        _clear_dir(fd)
    finally:
        os.close(fd)
    try:
        os.rmdir(name, dir_fd=dfd)
    except OSError:
        pass


def _unlink(dfd: int, name: str) -> None:
    try:
        os.unlink(name, dir_fd=dfd)
    except OSError:
        pass


def _fsync_dir(dfd: int) -> None:
    try:
        fd = os.open(".", _DIR_READ, dir_fd=dfd)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _prepare(layer, upper_root, lower_root, s: _Step, journal: _Journal) -> None:
    """Phase 1 for one step: its new version built under a temporary name."""
    if not _needs_tmp(s):
        return
    parent = s.c.rel.rpartition("/")[0]
    dfd = _open_rel(lower_root, parent)
    if dfd < 0:
        raise _Conflict("its directory is missing or changed on the host")
    try:
        s.tmp = journal.tmp_name()
        try:
            if s.tree is None:
                _write_entry(layer, upper_root, dfd, s.tmp, s.c)
            else:
                _write_tree(layer, upper_root, dfd, s.tmp, s.c, s.tree)
            os.fsync(dfd)
        except OSError as e:
            raise _Conflict(os.strerror(e.errno or errno.EIO)) from None
    finally:
        os.close(dfd)


def _write_tree(layer, upper_root, dfd, tmp, top: Change, members: list[Change]) -> None:
    """A directory the host lacks, with everything beneath it, built at ``tmp``."""
    os.mkdir(tmp, 0o700, dir_fd=dfd)
    dirs = [("", top)]
    base = top.rel + "/"
    for c in members:  # sorted by path: a directory before what it holds
        sub = tmp + "/" + c.rel[len(base):]
        parent, _, name = sub.rpartition("/")
        pfd = _open_rel(dfd, parent)
        if pfd < 0:
            raise _Conflict("the sandbox's copy changed during the apply")
        try:
            if c.kind == "dir":
                os.mkdir(name, 0o700, dir_fd=pfd)
                dirs.append((sub[len(tmp) + 1:], c))
            else:
                _write_entry(layer, upper_root, pfd, name, c)
        finally:
            os.close(pfd)
    for rel, c in reversed(dirs):  # the modes last: a read-only directory is filled first
        fd = _open_rel(dfd, tmp + "/" + rel if rel else tmp)
        if fd < 0:
            raise _Conflict("the sandbox's copy changed during the apply")
        try:
            os.fchmod(fd, c.mode if c.mode is not None else 0o755)
        finally:
            os.close(fd)


def _recheck(lower_root: int, steps: list[_Step]) -> list[tuple[str, str]]:
    """Every host entry once more, after the temporaries were written."""
    out = []
    for s in steps:
        try:
            now = _host_stat(lower_root, s.c.rel)
        except _Conflict as e:
            out.append((s.c.path, str(e)))
            continue
        if (now is None) != (s.cur is None) or (now is not None and (
                base_key(now) != base_key(s.cur) and not _stat.S_ISDIR(now.st_mode))):
            out.append((s.c.path, "it changed on the host during the apply"))
    return out


def _commit(lower_root: int, steps: list[_Step]):
    """Phase 2: renames, then deletions (the deepest first), then type changes, then the
    modes of directories (the deepest first)."""
    applied: list[str] = []
    failed: list[tuple[str, str]] = []
    retyped = [s for s in steps if s.c.status != "deleted" and s.cur is not None
               and _kind(s.cur.st_mode) != s.c.kind]
    is_retyped = {id(s) for s in retyped}
    plain = [s for s in steps if _needs_tmp(s) and id(s) not in is_retyped]
    deletions = sorted((s for s in steps if s.c.status == "deleted"),
                       key=lambda s: s.c.rel.count("/"), reverse=True)
    modes = sorted((s for s in steps if not _needs_tmp(s) and s.c.status != "deleted"),
                   key=lambda s: s.c.rel.count("/"), reverse=True)
    for group in (plain, deletions, retyped, modes):
        for s in group:
            parent, _, name = s.c.rel.rpartition("/")
            dfd = _open_rel(lower_root, parent)
            try:
                if dfd < 0:
                    raise FileNotFoundError(errno.ENOENT, "")
                if s.c.status == "deleted":
                    if _stat.S_ISDIR(s.cur.st_mode):
                        os.rmdir(name, dir_fd=dfd)
                    else:
                        os.unlink(name, dir_fd=dfd)
                elif s.tmp is None:  # a directory the host has: its mode
                    fd = os.open(name, _DIR_READ, dir_fd=dfd)
                    try:
                        os.fchmod(fd, s.c.mode if s.c.mode is not None else 0o755)
                    finally:
                        os.close(fd)
                else:
                    if id(s) in is_retyped:  # (not atomic: rename cannot swap a file and a dir)
                        if _stat.S_ISDIR(s.cur.st_mode):
                            os.rmdir(name, dir_fd=dfd)
                        else:
                            os.unlink(name, dir_fd=dfd)
                    os.rename(s.tmp, name, src_dir_fd=dfd, dst_dir_fd=dfd)
                    s.tmp = None
                os.fsync(dfd)
            except OSError as e:
                failed.append((s.c.path, os.strerror(e.errno or errno.EIO)))
                continue
            finally:
                if dfd >= 0:
                    os.close(dfd)
            applied.append(s.c.rel)
            applied += [c.rel for c in s.tree or ()]
    return applied, failed


def _write_entry(layer: Layer, upper_root: int, dfd: int, tmp: str, c: Change) -> None:
    """A file or symlink's new version made at ``tmp`` in ``dfd``, fsynced."""
    if c.kind == "symlink":
        if c.target is None:
            raise _Conflict("its link target cannot be read")
        os.symlink(c.target, tmp, dir_fd=dfd)
        return
    if c.kind != "file":
        raise _Conflict("only files, directories and symlinks are applied")
    src = _open_upper_file(layer, upper_root, c)
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
                     | os.O_CLOEXEC, 0o600, dir_fd=dfd)
        try:
            _copy(src, fd)
            st = os.fstat(src)
            os.fchmod(fd, _stat.S_IMODE(st.st_mode))
            os.utime(fd, ns=(st.st_atime_ns, st.st_mtime_ns))
            os.fsync(fd)
        finally:
            os.close(fd)
    finally:
        os.close(src)


def _copy(src: int, dst: int) -> None:
    while True:
        b = os.read(src, 1 << 20)
        if not b:
            return
        _write_all(dst, b)


def _open_upper_file(layer: Layer, upper_root: int, c: Change) -> int:
    parent, _, name = c.rel.rpartition("/")
    dfd = _open_rel(upper_root, parent)
    if dfd < 0:
        raise _Conflict("the sandbox's copy is gone")
    try:
        fd = os.open(name, _FILE_READ, dir_fd=dfd)
    except OSError:
        raise _Conflict("the sandbox's copy is gone") from None
    finally:
        os.close(dfd)
    if not _stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise _Conflict("the sandbox's copy is not a regular file")
    return fd


def discard(layer: Layer) -> None:
    """Drop every change: the upper layer emptied, the whiteouts forgotten."""
    with layer.lock:
        fd = os.open(".", _DIR_READ, dir_fd=layer.upper_fd)
        try:
            _clear_dir(fd)
        finally:
            os.close(fd)
        layer.hidden.clear()
        layer.bases.clear()
