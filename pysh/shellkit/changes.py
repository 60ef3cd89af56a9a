"""Change sets of overlay mounts: what the merged view changes in the lower layer, and
how those changes are written back to the host directory (or dropped).

:func:`scan` compares the merged view (upper layer, whiteouts, lower layer) with the
lower layer as it is now. Only where the upper layer has a directory, or a whiteout
lies beneath, is anything listed or read: an untouched subtree costs nothing.

:func:`apply` writes selected changes to the host directory through directory fds
held from the mount's root (``O_NOFOLLOW`` at every component: a symlink planted on
the host on the way is a conflict, never followed). Each file is written to a
temporary name in its own directory, fsynced and renamed over the old one, so a crash
leaves every file either old or new; deletions come last. A change whose host entry
is no longer what the sandbox first saw of it (see :attr:`Layer.bases`), or that
appeared on the host meanwhile, is refused and reported as a conflict; the others are
applied. :func:`discard` empties the upper layer and forgets the whiteouts.
"""

from __future__ import annotations

import errno
import os
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


def apply(layer: Layer, lower_root: int, changes: list[Change]) -> ApplyResult:
    """Write ``changes`` (from :func:`scan` of this layer) to the host directory."""
    applied: list[str] = []
    conflicts: list[tuple[str, str]] = []
    with layer.lock:
        upper_root = os.open(".", _DIR_READ, dir_fd=layer.upper_fd)
        try:
            dirs_first = [c for c in changes if c.status != "deleted" and c.kind == "dir"]
            entries = [c for c in changes if c.status != "deleted" and c.kind != "dir"]
            # deletions last, the deepest first (a directory after what it held); a
            # directory turned into a file or a link once its entries are gone
            deletions = sorted((c for c in changes if c.status == "deleted"),
                               key=lambda c: c.rel.count("/"), reverse=True)
            over_dirs = [c for c in entries if c.old_kind == "dir"]
            entries = [c for c in entries if c.old_kind != "dir"]
            for group in (dirs_first, entries, deletions, over_dirs):
                for c in group:
                    try:
                        _apply_one(layer, upper_root, lower_root, c)
                        applied.append(c.path)
                    except _Conflict as e:
                        conflicts.append((c.path, str(e)))
        finally:
            os.close(upper_root)
    return ApplyResult(applied, conflicts)


def _apply_one(layer: Layer, upper_root: int, lower_root: int, c: Change) -> None:
    parent, _, name = c.rel.rpartition("/")
    dfd = _open_rel(lower_root, parent, _DIR_READ)
    if dfd < 0:
        raise _Conflict("its directory is missing or changed on the host")
    try:
        try:
            cur = os.stat(name, dir_fd=dfd, follow_symlinks=False)
        except FileNotFoundError:
            cur = None
        except OSError as e:
            raise _Conflict(os.strerror(e.errno or errno.EIO)) from None
        _check_base(layer, c, cur)
        if c.status == "deleted":
            _delete(dfd, name, c, cur)
        elif c.kind == "dir":
            _make_dir(dfd, name, c, cur)
        else:
            _write_entry(layer, upper_root, lower_root, dfd, name, c, cur)
        try:
            os.fsync(dfd)
        except OSError:
            pass
        try:
            new = os.stat(name, dir_fd=dfd, follow_symlinks=False)
        except OSError:
            layer.bases.pop(c.rel, None)
        else:  # what the sandbox now holds as the lower entry
            layer.bases[c.rel] = base_key(new)
    finally:
        os.close(dfd)


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


def _delete(dfd: int, name: str, c: Change, cur: os.stat_result) -> None:
    try:
        if _stat.S_ISDIR(cur.st_mode):
            os.rmdir(name, dir_fd=dfd)
        else:
            os.unlink(name, dir_fd=dfd)
    except OSError as e:
        raise _Conflict(os.strerror(e.errno or errno.EIO)) from None


def _make_dir(dfd: int, name: str, c: Change, cur: os.stat_result | None) -> None:
    try:
        if cur is not None and not _stat.S_ISDIR(cur.st_mode):
            os.unlink(name, dir_fd=dfd)  # a file turned into a directory
            cur = None
        if cur is None:
            os.mkdir(name, 0o700, dir_fd=dfd)
        fd = os.open(name, _DIR_READ, dir_fd=dfd)
    except OSError as e:
        raise _Conflict(os.strerror(e.errno or errno.EIO)) from None
    try:
        os.fchmod(fd, c.mode if c.mode is not None else 0o755)
    finally:
        os.close(fd)


def _write_entry(layer, upper_root, lower_root, dfd, name, c, cur) -> None:
    """A file or symlink: made under a temporary name beside, fsynced, renamed over."""
    tmp = f".pysh-apply-{os.urandom(6).hex()}"
    try:
        if c.kind == "symlink":
            if c.target is None:
                raise _Conflict("its link target cannot be read")
            os.symlink(c.target, tmp, dir_fd=dfd)
        elif c.kind == "file":
            src = _open_upper_file(layer, upper_root, c)
            try:
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
                             | os.O_CLOEXEC, 0o600, dir_fd=dfd)
                try:
                    while True:
                        b = os.read(src, 1 << 20)
                        if not b:
                            break
                        view = memoryview(b)
                        while view:
                            view = view[os.write(fd, view):]
                    st = os.fstat(src)
                    os.fchmod(fd, _stat.S_IMODE(st.st_mode))
                    os.utime(fd, ns=(st.st_atime_ns, st.st_mtime_ns))
                    os.fsync(fd)
                finally:
                    os.close(fd)
            finally:
                os.close(src)
        else:
            raise _Conflict("only files, directories and symlinks are applied")
        if cur is not None and _stat.S_ISDIR(cur.st_mode):
            os.rmdir(name, dir_fd=dfd)  # a directory turned into a file (its entries went)
        os.rename(tmp, name, src_dir_fd=dfd, dst_dir_fd=dfd)
    except BaseException as e:
        try:
            os.unlink(tmp, dir_fd=dfd)
        except OSError:
            pass
        if isinstance(e, OSError):
            raise _Conflict(os.strerror(e.errno or errno.EIO)) from None
        raise


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
