"""The one mapping + confinement core.

Both doors stand on this module: the FileSystem door (builtins, globbing,
redirections, ``cd``) and ``Shell.resolve()`` (ports that need a host path).
A virtual path is resolved here, and only here, by walking it component by
component through held directory fds:

* each component is opened with ``O_PATH | O_NOFOLLOW`` relative to the
  directory fd before it, so no string is ever checked and opened later;
* symlinks are read (``readlinkat``) and their targets resolved by this same
  walker: a relative target that stays inside its mount is followed; one that
  climbs out of the mount root, an absolute target outside every mount's host
  root, and chains over 40 links are denied; an absolute target inside a
  mount's host root is followed as its virtual path;
* ``..`` is physical, as in the kernel: it pops the directory actually reached;
  at a mount root a literal ``..`` goes to the virtual parent, a ``..`` that
  came from a link target is an escape and is denied.

Operations then act on what resolution returned (a directory fd and a leaf
name, with ``O_NOFOLLOW``/``follow_symlinks=False``), never on a string that is
resolved again. Every error is a :class:`FileSystemError` carrying the virtual
path; Python's own ``OSError`` text (host paths) never leaves this module.

Besides the mounts, the namespace has synthetic, read-only nodes: the
ancestors of mount points (``/`` lists the mount points), ``/dev`` with
``null zero full random urandom stdin stdout stderr fd/N``, and the command
directories ``/usr/bin`` and ``/bin`` listing the registry (``/usr/local/bin`` exists,
empty, as on a fresh system: ``command -v cat`` says ``/usr/bin/cat``).
"""

from __future__ import annotations

import errno
import os
import posixpath
import re
import stat as _stat
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pysh.shellkit.errors import FileSystemError
from pysh.shellkit.mounts import Mount, MountTable, is_under, split_components

if TYPE_CHECKING:
    from pathlib import Path

MAX_SYMLINKS = 40
PATH_MAX = 4096  # bytes of a path, its NUL included, as Linux counts (ENAMETOOLONG)

# Serialises the operations that create or move symlinks (symlink, link, rename) in
# this process: the place a link is checked for is then the place it is made in.
_TOPOLOGY = threading.RLock()

# Node kinds.
HOST = "host"  # an entry of a mounted host directory (it may not exist yet)
SYNTHETIC = "dir"  # a synthetic read-only directory
DEVICE = "device"  # /dev/null and friends: harmless host devices
STREAM = "stream"  # /dev/stdin, /dev/stdout, /dev/stderr, /dev/fd/N: the shell's own fds
COMMAND = "command"  # an entry of a virtual command directory

DEVICES = {"null": "/dev/null", "zero": "/dev/zero", "full": "/dev/full",
           "random": "/dev/urandom", "urandom": "/dev/urandom"}
STREAMS = {"stdin": 0, "stdout": 1, "stderr": 2}
COMMAND_DIRS = ("/bin", "/usr/bin")
COMMAND_MARKER = b"#!/usr/bin/env pysh-command\n"

_O_WRITE = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
_LEAF_FLAGS = os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NOCTTY | os.O_NONBLOCK
_S_IFMT, _S_IFREG, _S_IFDIR = 0o170000, _stat.S_IFREG, _stat.S_IFDIR
_DIR_FLAGS = os.O_PATH | os.O_NOFOLLOW | os.O_DIRECTORY | os.O_CLOEXEC


def _make_openat2():
    """openat2(2) through ctypes, or None where the C library lacks ``syscall``."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        syscall = libc.syscall
    except (OSError, AttributeError):
        return None

    class OpenHow(ctypes.Structure):
        _fields_ = [("flags", ctypes.c_uint64), ("mode", ctypes.c_uint64),
                    ("resolve", ctypes.c_uint64)]

    flags = os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC
    # RESOLVE_NO_MAGICLINKS | RESOLVE_NO_SYMLINKS, and RESOLVE_BENEATH for relative walks
    beneath, anywhere = OpenHow(flags, 0, 0x02 | 0x04 | 0x08), OpenHow(flags, 0, 0x02 | 0x04)
    refs = {True: ctypes.byref(beneath), False: ctypes.byref(anywhere)}
    size = ctypes.sizeof(beneath)
    nr = 437  # the same number on every architecture (unified syscall table)
    syscall.restype = ctypes.c_long
    get_errno = ctypes.get_errno

    def openat2(dir_fd: int, path: str, is_beneath: bool) -> int:
        fd = syscall(nr, dir_fd, os.fsencode(path), refs[is_beneath], size)
        if fd < 0 and get_errno() in (errno.ENOSYS, errno.EPERM):
            global _openat2_fn  # no openat2 here (an old kernel, a seccomp filter)
            _openat2_fn = None
        return fd

    return openat2


_openat2_fn = None  # made on first use: importing ctypes costs start-up time
_openat2_ready = False


def _sys_openat2(dir_fd: int, path: str, beneath: bool) -> int | None:
    """openat2's fd, -1 on failure (errno in ctypes' copy), None where it is missing."""
    global _openat2_fn, _openat2_ready
    if not _openat2_ready:
        _openat2_fn = _make_openat2()
        _openat2_ready = True
    if _openat2_fn is None:
        return None
    return _openat2_fn(dir_fd, path, beneath)


def _openat2(dir_fd: int, rel: str) -> int:
    """A directory fd for ``rel`` beneath ``dir_fd`` (no symlinks on the way), or -1."""
    fd = _sys_openat2(dir_fd, rel, True)
    return -1 if fd is None else fd


def open_canonical_dir(host_path: str) -> int | None:
    """An ``O_PATH`` fd of ``host_path``, a canonical host directory as door B returned it,
    opened without following any symlink on the way: a component swapped for a link since
    the core resolved it fails (OSError ELOOP) instead of leading elsewhere. None where
    openat2 is missing (then the caller opens it plainly and checks where it landed)."""
    fd = _sys_openat2(-100, host_path, False)  # AT_FDCWD; the path is absolute
    if fd is not None and fd < 0:
        import ctypes

        code = ctypes.get_errno()
        if _openat2_fn is None:  # it just turned out to be missing
            return None
        raise OSError(code, os.strerror(code))
    return fd


def _err(code: int, vpath: str, vpath2: str | None = None) -> FileSystemError:
    return FileSystemError(code, vpath, vpath2)


@dataclass(slots=True)
class Resolved:
    """The result of a walk.

    For a ``HOST`` node, ``dir_fd`` is the directory that holds the leaf and
    ``name`` the leaf's name in it (``"."`` when the path is a mount root:
    then ``dir_fd`` is the root itself). ``owned`` says whether ``dir_fd``
    must be closed (use the object as a context manager).
    """

    vpath: str
    kind: str
    mount: Mount | None = None
    dir_fd: int = -1
    name: str = ""
    owned: bool = False
    fdnum: int = -1  # STREAM: which shell fd
    st: os.stat_result | None = None  # lstat of the leaf, when the walk already made one

    def close(self) -> None:
        if self.owned:
            self.owned = False
            os.close(self.dir_fd)

    def __enter__(self) -> Resolved:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def is_mount_root(self) -> bool:
        return self.kind == HOST and self.name == "."


class _Walk:
    """Mutable state of one walk: where we are, and which fds we own."""

    __slots__ = ("mount", "stack", "loc")

    def __init__(self) -> None:
        self.mount: Mount | None = None  # None: in the synthetic part of the namespace
        self.stack: list[int] = []  # host dir fds from the mount root down; [0] is borrowed
        self.loc: list[str] = []  # canonical virtual components of where we are

    def reset(self) -> None:
        for fd in self.stack[1:]:
            os.close(fd)
        self.stack = []
        self.mount = None
        self.loc = []

    def vpath(self, extra: str | None = None) -> str:
        parts = self.loc if extra is None else [*self.loc, extra]
        return "/" + "/".join(parts)


def _synthetic_stat(mode: int, size: int = 0) -> os.stat_result:
    return os.stat_result((mode, 0, 0, 2 if _stat.S_ISDIR(mode) else 1, 0, 0, size, 0, 0, 0))


class Confinement:
    """Resolution and every file operation over one :class:`MountTable`."""

    def __init__(self, table: MountTable, command_names: Callable[[], Iterable[str]] | None = None):
        self.table = table
        self._command_names = command_names or (lambda: ())
        self._display_re: re.Pattern[str] | None = None
        self._byte_fold: tuple | None = None

    # ------------------------------------------------------------------ names
    def command_names(self) -> set[str]:
        return set(self._command_names())

    def _synthetic_children(self, vpath: str) -> set[str] | None:
        """Names in a synthetic directory, or None when ``vpath`` is not one."""
        names = self.table.synthetic_children(vpath)
        extra: set[str] | None = None
        if vpath == "/":
            extra = {"dev", "bin", "usr"}
        elif vpath == "/dev":
            extra = {*DEVICES, *STREAMS, "fd"}
        elif vpath == "/dev/fd":
            extra = {"0", "1", "2"}
        elif vpath == "/usr":
            extra = {"bin", "local"}
        elif vpath == "/usr/local":
            extra = {"bin"}
        elif vpath == "/usr/local/bin":
            extra = set()
        elif vpath in COMMAND_DIRS:
            extra = self.command_names()
        if names is None and extra is None:
            return None
        return set(names or ()) | set(extra or ())

    def _synthetic_leaf(self, vpath: str, parent: str, name: str) -> Resolved | None:
        if parent == "/dev":
            if name in DEVICES:
                return Resolved(vpath, DEVICE)
            if name in STREAMS:
                return Resolved(vpath, STREAM, fdnum=STREAMS[name])
        elif parent == "/dev/fd" and name.isdigit():
            return Resolved(vpath, STREAM, fdnum=int(name))
        elif parent in COMMAND_DIRS and name in self.command_names():
            return Resolved(vpath, COMMAND)
        return None

    # --------------------------------------------------------------- the walk
    def resolve(self, path: str, follow: bool = True) -> Resolved:
        """Walk absolute virtual ``path``; the leaf is followed if ``follow`` (or a trailing '/').

        The leaf of a HOST result may not exist; every component before it does.
        Raises FileSystemError (ENOENT, ENOTDIR, EACCES for an escape, ELOOP).
        """
        if not path.startswith("/"):
            raise _err(errno.ENOENT, path)
        if "\0" in path:
            raise _err(errno.ENOENT, path.replace("\0", ""))
        if len(path) >= PATH_MAX // 4 and len(path.encode("utf-8", "surrogateescape")) >= PATH_MAX:
            # as the kernel refuses a longer path in one call (the component walk would
            # take any depth, each call costing the whole depth)
            raise _err(errno.ENAMETOOLONG, path)
        comps = [c for c in path.split("/") if c]
        if (_openat2_fn is not None or not _openat2_ready) and comps and not path.endswith("/"):
            res = self._resolve_fast(path, comps, follow)
            if res is not None:
                return res
        return self._resolve_walk(path, comps, follow)

    def _resolve_fast(self, path: str, comps: list[str], follow: bool) -> Resolved | None:
        """One openat2(RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS) for the directories before the leaf.

        Only for the plain case: no '.' or '..', a mount with nothing mounted beneath
        it, and no symlink anywhere before the leaf. Anything else (including any
        error) returns None and the component walk gives the exact answer.
        """
        if "." in comps or ".." in comps:
            return None
        vpath = "/" + "/".join(comps)
        hit = self.table.find(vpath)
        if hit is None:
            return None
        m, rest = hit
        if not rest or self.table.has_nested[m.virtual]:
            return None
        root_fd = self.table.root_fd(m)
        parent, _, leaf = rest.rpartition("/")
        if parent:
            dfd = _openat2(root_fd, parent)
            if dfd < 0:
                return None
            owned = True
        else:
            dfd, owned = root_fd, False
        res = Resolved(vpath, HOST, m, dfd, leaf, owned)
        if not follow:
            return res
        try:
            st = os.stat(leaf, dir_fd=dfd, follow_symlinks=False)
        except FileNotFoundError:
            return res
        except OSError:
            res.close()
            return None
        if _stat.S_ISLNK(st.st_mode):
            res.close()
            return None
        res.st = st
        return res

    def _resolve_walk(self, path: str, comps: list[str], follow: bool) -> Resolved:
        trailing = path.endswith("/") or path.endswith("/.")
        trailing = trailing and bool(comps)
        follow = follow or trailing
        # Pending components, last first; each tagged with the mount whose link produced it.
        pending: list[tuple[str, Mount | None]] = [(c, None) for c in reversed(comps)]
        w = _Walk()
        links = 0
        try:
            while pending:
                comp, from_link = pending.pop()
                if comp == ".":
                    continue
                if comp == "..":
                    self._dotdot(w, pending, from_link, path)
                    continue
                is_last = all(c == "." for c, _ in pending)
                here = w.vpath(comp)
                m = self.table.get(here)
                if m is not None:  # a mount point shadows whatever is beneath it
                    w.reset()
                    w.mount, w.stack, w.loc = m, [self.table.root_fd(m)], split_components(here)
                    continue
                if w.mount is None:
                    res = self._step_synthetic(w, comp, here, is_last, path)
                    if res is not None:
                        return res
                    continue
                # In a host directory.
                dfd = w.stack[-1]
                if is_last:
                    if not follow:
                        return self._leaf(w, comp, here)
                    try:
                        st = os.stat(comp, dir_fd=dfd, follow_symlinks=False)
                    except OSError as e:
                        if e.errno == errno.ENOENT:
                            if self.table.synthetic_children(here) is not None:
                                w.reset()
                                w.loc = split_components(here)
                                continue
                            return self._leaf(w, comp, here)
                        raise _err(e.errno, path) from None
                    if not _stat.S_ISLNK(st.st_mode):
                        if trailing and not _stat.S_ISDIR(st.st_mode):
                            raise _err(errno.ENOTDIR, path)
                        res = self._leaf(w, comp, here)
                        res.st = st
                        return res
                    target = self._readlink_at(dfd, comp, path)
                else:
                    try:
                        nfd = os.open(comp, _DIR_FLAGS, dir_fd=dfd)
                    except OSError as e:
                        if e.errno == errno.ENOENT:
                            if self.table.synthetic_children(here) is not None:
                                w.reset()
                                w.loc = split_components(here)
                                continue
                            raise _err(errno.ENOENT, path) from None
                        if e.errno not in (errno.ENOTDIR, errno.ELOOP):
                            raise _err(e.errno, path) from None
                        target = self._readlink_at(dfd, comp, path)  # ENOTDIR unless a symlink
                    else:
                        w.stack.append(nfd)
                        w.loc.append(comp)
                        continue
                links += 1
                if links > MAX_SYMLINKS:
                    raise _err(errno.ELOOP, path)
                self._push_link(w, target, pending, path)
            # Ran out of components: we stand on a directory (or synthetic node).
            return self._here(w)
        except BaseException:
            w.reset()
            raise

    @staticmethod
    def _readlink_at(dfd: int, name: str, path: str) -> str:
        try:
            return os.readlink(name, dir_fd=dfd)
        except OSError as e:
            code = errno.ENOTDIR if e.errno == errno.EINVAL else e.errno
            raise _err(code, path) from None

    def _dotdot(self, w: _Walk, pending: list, from_link: Mount | None, path: str) -> None:
        if w.mount is not None and len(w.stack) > 1:
            os.close(w.stack.pop())
            w.loc.pop()
            return
        if w.mount is not None:  # at a mount root
            if from_link is not None:
                raise _err(errno.EACCES, path)  # a link climbing out of its mount
        if not w.loc:
            return  # '/..' is '/'
        parent = w.loc[:-1]
        w.reset()
        # Re-enter the parent from the root: it may be synthetic or inside an outer mount.
        pending.extend((c, None) for c in reversed(parent))

    def _push_link(self, w: _Walk, target: str, pending: list, path: str) -> None:
        if not target:
            raise _err(errno.ENOENT, path)
        comps = [c for c in target.split("/") if c and c != "."]
        if target.startswith("/"):
            hit = self._host_prefix(comps)
            if hit is None:
                raise _err(errno.EACCES, path)  # absolute target outside every mount
            m, rest = hit
            w.reset()
            pending.extend((c, m) for c in reversed(rest))
            pending.extend((c, None) for c in reversed(split_components(m.virtual)))
            return
        pending.extend((c, w.mount) for c in reversed(comps))

    def _host_prefix(self, comps: list[str]) -> tuple[Mount, list[str]] | None:
        for root, m in self.table.host_roots():
            rc = split_components(root)
            if comps[: len(rc)] == rc:
                return m, comps[len(rc):]
        return None

    def _step_synthetic(self, w: _Walk, comp: str, here: str, is_last: bool, path: str):
        if self._synthetic_children(here) is not None:
            w.loc.append(comp)
            return None
        parent = w.vpath()
        leaf = self._synthetic_leaf(here, parent, comp)
        if leaf is not None:
            if not is_last:
                raise _err(errno.ENOTDIR, path)
            return leaf
        raise _err(errno.ENOENT, path)

    def _leaf(self, w: _Walk, name: str, vpath: str) -> Resolved:
        """Hand the current directory fd and ``name`` to the caller (it now owns the fd)."""
        dfd = w.stack[-1]
        owned = len(w.stack) > 1
        if owned:
            w.stack.pop()
        res = Resolved(vpath, HOST, w.mount, dfd, name, owned)
        w.reset()
        return res

    def _here(self, w: _Walk) -> Resolved:
        vpath = w.vpath()
        if w.mount is None:
            w.reset()
            return Resolved(vpath, SYNTHETIC)
        if len(w.stack) == 1:
            res = Resolved(vpath, HOST, w.mount, w.stack[0], ".", False)
            w.reset()
            return res
        # Re-express the directory as (parent fd, name) so that it can be removed or renamed.
        name = w.loc[-1]
        os.close(w.stack.pop())
        w.loc.pop()
        return self._leaf(w, name, vpath)

    # ------------------------------------------------------- host <-> virtual
    def host_path(self, res: Resolved) -> Path:
        """Canonical host path of a HOST resolution (every component before the leaf is real)."""
        m = res.mount
        assert m is not None
        rel = res.vpath[len(m.virtual):]
        from pathlib import Path  # only door B needs it: kept off the start-up path

        return Path(m.host_real + rel)

    def to_virtual(self, host_path: str | os.PathLike) -> str:
        """Virtual path of a host path under some mount's host root (ValueError otherwise)."""
        v = self.table.host_to_virtual(os.fspath(host_path))
        if v is None:
            raise ValueError("path is outside every mount")
        return v

    def display(self, text: str) -> str:
        """Fold every mount's host root that appears in ``text`` back to its virtual path."""
        if self._display_re is None:
            roots = self.table.host_roots()
            alts = "|".join(re.escape(r) for r, _ in roots)
            self._display_re = re.compile(f"(?:{alts})(?![A-Za-z0-9._-])") if alts else None
            self._display_map = {r: m.virtual for r, m in roots}
            if self._display_re is None:
                return text
        return self._display_re.sub(lambda mo: self._display_map[mo.group(0)], text)

    def fold_bytes(self, data: bytes, final: bool = True) -> tuple[bytes, bytes]:
        """:meth:`display` for a byte stream written in pieces: ``(folded, held)``.

        Unless ``final``, a tail that may be the start of a host root (or a whole
        root whose next byte decides whether it is one) is held back: the caller
        passes it in front of the next piece, so a root split across two writes is
        folded all the same.
        """
        f = self._byte_fold
        if f is None:
            roots = [(os.fsencode(r), os.fsencode(m.virtual)) for r, m in self.table.host_roots()]
            alts = b"|".join(re.escape(r) for r, _ in roots)
            f = self._byte_fold = (
                [r for r, _ in roots], max((len(r) for r, _ in roots), default=0),
                re.compile(b"(?:" + alts + b")(?![A-Za-z0-9._-])") if roots else None, dict(roots))
        roots, longest, pattern, virtual = f
        if pattern is None:
            return data, b""
        held = b""
        if not final:
            i = data.find(b"/", max(0, len(data) - longest))
            while i >= 0:
                tail = data[i:]
                if any(r.startswith(tail) for r in roots):
                    data, held = data[:i], bytes(tail)
                    break
                i = data.find(b"/", i + 1)
        if any(r in data for r in roots):
            data = pattern.sub(lambda mo: virtual[mo.group(0)], data)
        return data, held

    # -------------------------------------------------------------- helpers
    @staticmethod
    def _writable(res: Resolved, vpath: str) -> None:
        if res.kind != HOST or (res.mount is not None and res.mount.read_only):
            raise _err(errno.EACCES, vpath)

    def _follow_leaf(self, vpath: str) -> Resolved:
        return self.resolve(vpath, follow=True)

    # ------------------------------------------------------------ operations
    def open(self, vpath: str, flags: int, mode: int = 0o666) -> int:
        """Open a HOST or DEVICE node; returns a host fd the caller owns."""
        write = bool(flags & _O_WRITE)
        res = self.resolve(vpath, follow=False)
        for _ in range(MAX_SYMLINKS + 1):
            with res:
                if res.kind == DEVICE:
                    return os.open(DEVICES[res.vpath.rsplit("/", 1)[1]], flags & ~os.O_CREAT | os.O_CLOEXEC)
                if res.kind == SYNTHETIC:
                    if write:
                        raise _err(errno.EISDIR, vpath)
                    raise _err(errno.EISDIR if flags & os.O_DIRECTORY == 0 else errno.EACCES, vpath)
                if res.kind != HOST:
                    raise _err(errno.ENXIO if res.kind == STREAM else errno.EACCES, vpath)
                if write:
                    self._writable(res, vpath)
                    if vpath.endswith("/"):
                        raise _err(errno.EISDIR, vpath)
                try:
                    return open_leaf(res.name, flags, mode, res.dir_fd, vpath)
                except FileSystemError as e:
                    if e.errno == errno.ELOOP and res.name != ".":
                        # The leaf is a symlink: resolve it through the walker and retry.
                        nxt = self._follow_leaf(res.vpath)
                        res.close()
                        res = nxt
                        continue
                    raise
        raise _err(errno.ELOOP, vpath)

    def stat(self, vpath: str, follow: bool = True) -> os.stat_result:
        res = self.resolve(vpath, follow=follow)
        with res:
            if res.kind == HOST:
                if res.st is not None:
                    return res.st
                try:
                    return os.stat(res.name, dir_fd=res.dir_fd, follow_symlinks=False)
                except OSError as e:
                    raise _err(e.errno, vpath) from None
            return self._node_stat(res)

    def _node_stat(self, res: Resolved) -> os.stat_result:
        if res.kind == SYNTHETIC:
            return _synthetic_stat(_stat.S_IFDIR | 0o555, 4096)
        if res.kind == DEVICE or res.kind == STREAM:
            return _synthetic_stat(_stat.S_IFCHR | 0o666)
        return _synthetic_stat(_stat.S_IFREG | 0o755, len(COMMAND_MARKER))

    def access(self, vpath: str, mode: int) -> bool:
        """Like os.access, with read-only mounts and synthetic nodes refusing W_OK."""
        try:
            res = self.resolve(vpath, follow=True)
        except FileSystemError:
            return False
        with res:
            if res.kind != HOST:
                if mode & os.W_OK:
                    return res.kind in (DEVICE, STREAM)
                if mode & os.X_OK:
                    return res.kind in (SYNTHETIC, COMMAND)
                return True
            if mode & os.W_OK and res.mount is not None and res.mount.read_only:
                return False
            try:
                return os.access(res.name, mode, dir_fd=res.dir_fd, follow_symlinks=False)
            except OSError:
                return False

    def kind(self, vpath: str, follow: bool = True) -> Resolved:
        """Resolve and return the node (closed); for callers that only need .kind/.vpath/.fdnum."""
        res = self.resolve(vpath, follow=follow)
        res.close()
        return res

    def listdir(self, vpath: str) -> list[str]:
        return sorted(name for name, _ in self.scandir(vpath))

    def scandir(self, vpath: str) -> list[tuple[str, str]]:
        """(name, type) pairs; type is 'd', 'f', 'l' or 'o' (other)."""
        res = self.resolve(vpath, follow=True)
        with res:
            if res.kind == SYNTHETIC:
                out = []
                for name in self._synthetic_children(res.vpath) or ():
                    child = res.vpath.rstrip("/") + "/" + name
                    if self._synthetic_children(child) is not None or self.table.get(child):
                        out.append((name, "d"))
                    else:
                        out.append((name, "o" if res.vpath.startswith("/dev") else "f"))
                return out
            if res.kind != HOST:
                raise _err(errno.ENOTDIR, vpath)
            fd = self._open_dir(res, vpath)
            try:
                entries = []
                with os.scandir(fd) as it:
                    for e in it:
                        entries.append((e.name, _entry_type(e)))
            finally:
                os.close(fd)
            # Mount points beneath this directory show up even where the host has no entry.
            names = {n for n, _ in entries}
            for m in self.table:
                if m.virtual.rsplit("/", 1)[0] == res.vpath.rstrip("/") and m.virtual != res.vpath:
                    leaf = m.virtual.rsplit("/", 1)[1]
                    if leaf not in names:
                        entries.append((leaf, "d"))
            return entries

    @staticmethod
    def _open_dir(res: Resolved, vpath: str) -> int:
        try:
            return os.open(res.name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC,
                           dir_fd=res.dir_fd)
        except OSError as e:
            raise _err(e.errno, vpath) from None

    def mkdir(self, vpath: str, mode: int = 0o777) -> None:
        res = self.resolve(vpath, follow=False)
        with res:
            if res.kind != HOST:
                raise _err(errno.EEXIST if res.kind == SYNTHETIC else errno.EACCES, vpath)
            if res.is_mount_root:
                raise _err(errno.EEXIST, vpath)
            self._writable(res, vpath)
            try:
                os.mkdir(res.name, mode & 0o1777, dir_fd=res.dir_fd)
            except OSError as e:
                raise _err(e.errno, vpath) from None

    def unlink(self, vpath: str) -> None:
        res = self.resolve(vpath.rstrip("/") or "/", follow=False)
        with res:
            self._removable(res, vpath)
            try:
                os.unlink(res.name, dir_fd=res.dir_fd)
            except OSError as e:
                raise _err(e.errno, vpath) from None

    def rmdir(self, vpath: str) -> None:
        res = self.resolve(vpath.rstrip("/") or "/", follow=False)
        with res:
            self._removable(res, vpath)
            try:
                os.rmdir(res.name, dir_fd=res.dir_fd)
            except OSError as e:
                raise _err(e.errno, vpath) from None

    def _removable(self, res: Resolved, vpath: str) -> None:
        if res.kind != HOST:
            raise _err(errno.EACCES, vpath)
        if res.is_mount_root:
            raise _err(errno.EBUSY, vpath)
        self._writable(res, vpath)

    def rename(self, src: str, dst: str) -> None:
        """Rename within one mount (EXDEV across mounts: the caller copies and deletes).

        A symlink keeps its text when it moves: a move after which it (or a relative
        link in a moved directory) would point out of the mount is refused (EPERM).
        """
        with _TOPOLOGY:
            rs = self.resolve(src.rstrip("/") or "/", follow=False)
            with rs:
                self._removable(rs, src)
                rd = self.resolve(dst.rstrip("/") or "/", follow=False)
                with rd:
                    self._removable(rd, dst)
                    if rs.mount is not rd.mount:
                        raise _err(errno.EXDEV, src, dst)
                    self._check_moved_link(rs, rd, src)
                    self._check_moved_tree(rs, rd, src)
                    try:
                        os.rename(rs.name, rd.name, src_dir_fd=rs.dir_fd, dst_dir_fd=rd.dir_fd)
                    except OSError as e:
                        raise _err(e.errno, src, dst) from None

    def symlink(self, target: str, vpath: str) -> None:
        """Create a symlink at ``vpath`` whose target stays inside the link's own mount.

        The target is read as a virtual path from the link's directory: one that
        leaves the link's mount (climbs above its root, or names another mount, a
        synthetic node or nothing at all) is refused with EPERM. An absolute target
        inside the mount is stored relative, and so is a relative one with a ``..``
        after a name (``a/../b``), which another link could later bend out of the
        mount. No host path is ever written into a link.
        """
        with _TOPOLOGY:
            res = self.resolve(vpath.rstrip("/") or "/", follow=False)
            with res:
                self._removable(res, vpath)
                stored = self._stored_target(target, res, vpath)
                try:
                    os.symlink(stored, res.name, dir_fd=res.dir_fd)
                except OSError as e:
                    raise _err(e.errno, vpath) from None

    def _stored_target(self, target: str, link: Resolved, vpath: str) -> str:
        if not target or "\0" in target:
            raise _err(errno.ENOENT, vpath)
        m = link.mount
        assert m is not None
        link_dir = _below(posixpath.dirname(link.vpath), m)
        rel = self._target_below(target, m, link_dir)
        if rel is None:
            raise _err(errno.EPERM, vpath)
        if target.startswith("/") or _dotdot_after_name(target):
            return _relative(rel, link_dir)
        return target

    def _target_below(self, target: str, m: Mount, link_dir: list[str],
                      planted: bool = False) -> list[str] | None:
        """Where ``target``, read from directory ``link_dir`` (components below ``m``'s root),
        lands below ``m``'s root, or None when it leaves ``m``.

        Relative targets are taken lexically from the link's directory, without ever
        climbing above the mount root (the host would follow that climb into its own
        directories). An absolute target is a virtual path, or for a link already on
        disk (``planted``), possibly a host path under ``m``'s own host root.
        """
        comps = [c for c in target.split("/") if c and c != "."]
        if target.startswith("/"):
            host = self._host_prefix(comps) if planted else None
            if host is not None:
                if host[0] is not m:
                    return None
                base, comps = [], host[1]
            else:
                virt = [c for c in posixpath.normpath("/" + "/".join(comps)).split("/") if c]
                mc = split_components(m.virtual)
                if virt[: len(mc)] != mc:
                    return None
                base, comps = [], virt[len(mc):]
        else:
            base = list(link_dir)
        for c in comps:
            if c != "..":
                base.append(c)
            elif not base:
                return None  # climbs above the mount root
            else:
                base.pop()
        hit = self.table.find("/".join([m.virtual, *base]) if base else m.virtual)
        if hit is None or hit[0] is not m:
            return None  # lands in a mount nested in this one: another host tree
        return base

    def readlink(self, vpath: str) -> str:
        """The stored target; absolute targets inside a mount's host root come back virtual."""
        res = self.resolve(vpath.rstrip("/") or "/", follow=False)
        with res:
            if res.kind != HOST:
                raise _err(errno.EINVAL, vpath)
            try:
                target = os.readlink(res.name, dir_fd=res.dir_fd)
            except OSError as e:
                raise _err(e.errno, vpath) from None
        if target.startswith("/"):
            hit = self._host_prefix([c for c in target.split("/") if c and c != "."])
            if hit is not None:
                m, rest = hit
                return "/".join([m.virtual, *rest]) if rest else m.virtual
            if self._names_sandbox_location(target):
                raise _err(errno.EACCES, vpath)
        elif res.mount is not None:
            # A relative target that climbs above its mount names host directories outside it.
            below = res.vpath[len(res.mount.virtual):].lstrip("/")
            parent = posixpath.dirname(below)
            if posixpath.normpath(posixpath.join(parent, target)).split("/")[0] == "..":
                raise _err(errno.EACCES, vpath)
        return target

    def _names_sandbox_location(self, target: str) -> bool:
        """True when an absolute target lies under an ancestor (other than /) of a mount root.

        Such a string would tell the script where on the host its sandbox lives;
        a target elsewhere (``/etc/passwd``, ``/usr/share/x``) names nothing of it.
        """
        norm = posixpath.normpath(target)
        for root, _ in self.table.host_roots():
            parent = posixpath.dirname(root)
            while parent != "/":
                if is_under(norm, parent):
                    return True
                parent = posixpath.dirname(parent)
        return False

    def link(self, src: str, dst: str) -> None:
        """Hard link; the source's last component is never followed.

        Hard-linking a symlink makes a second link with the same target at the new
        place: refused (EPERM) when that target leaves the mount from there.
        """
        with _TOPOLOGY:
            rs = self.resolve(src.rstrip("/") or "/", follow=False)
            with rs:
                if rs.kind != HOST or rs.is_mount_root:
                    raise _err(errno.EPERM if rs.kind == HOST else errno.EACCES, src)
                rd = self.resolve(dst.rstrip("/") or "/", follow=False)
                with rd:
                    self._removable(rd, dst)
                    if rs.mount is not rd.mount:
                        raise _err(errno.EXDEV, src, dst)
                    self._check_moved_link(rs, rd, dst)
                    try:
                        os.link(rs.name, rd.name, src_dir_fd=rs.dir_fd, dst_dir_fd=rd.dir_fd,
                                follow_symlinks=False)
                    except OSError as e:
                        raise _err(e.errno, dst) from None

    def _check_moved_link(self, rs: Resolved, rd: Resolved, shown: str) -> None:
        """EPERM when ``rs``, if a symlink, would point out of the mount from ``rd``'s place."""
        try:
            target = os.readlink(rs.name, dir_fd=rs.dir_fd)
        except OSError:
            return  # not a symlink (or gone: the operation itself will say so)
        m = rd.mount
        assert m is not None
        if self._target_below(target, m, _below(posixpath.dirname(rd.vpath), m), True) is None:
            raise _err(errno.EPERM, shown)

    def _check_moved_tree(self, rs: Resolved, rd: Resolved, shown: str) -> None:
        """EPERM when a directory moved to a shallower place holds a relative link that
        would then climb out of the mount (links keep their text, so a shallower place
        gives every ``..`` in them less room)."""
        m = rd.mount
        assert m is not None
        old, new = _below(rs.vpath, m), _below(rd.vpath, m)
        if len(new) >= len(old):
            return
        try:
            fd = os.open(rs.name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC,
                         dir_fd=rs.dir_fd)
        except OSError:
            return  # not a directory
        self._check_links_in(fd, m, new, shown)

    def _check_links_in(self, fd: int, m: Mount, where: list[str], shown: str) -> None:
        try:
            with os.scandir(fd) as it:
                entries = [(e.name, _entry_type(e)) for e in it]
            for name, t in entries:
                if t == "l":
                    try:
                        target = os.readlink(name, dir_fd=fd)
                    except OSError:
                        continue
                    if not target.startswith("/") and self._target_below(target, m, where) is None:
                        raise _err(errno.EPERM, shown)
                elif t == "d":
                    try:
                        sub = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW
                                      | os.O_CLOEXEC, dir_fd=fd)
                    except OSError:
                        continue
                    self._check_links_in(sub, m, [*where, name], shown)
        finally:
            os.close(fd)

    def chmod(self, vpath: str, mode: int, follow: bool = True) -> None:
        """chmod through an O_PATH fd of the final (non-symlink) node; setuid/setgid are stripped."""
        res = self.resolve(vpath, follow=follow)
        with res:
            if res.kind != HOST:
                raise _err(errno.EACCES, vpath)
            self._writable(res, vpath)
            try:
                fd = os.open(res.name, os.O_PATH | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=res.dir_fd)
            except OSError as e:
                raise _err(e.errno, vpath) from None
            try:
                st = os.fstat(fd)
                if _stat.S_ISLNK(st.st_mode):
                    raise _err(errno.EOPNOTSUPP, vpath)  # symlinks have no mode on Linux
                if st.st_nlink > 1 and _stat.S_ISREG(st.st_mode):
                    raise _err(errno.EPERM, vpath)  # its other names may lie outside
                os.chmod(f"/proc/self/fd/{fd}", mode & 0o1777)
            except OSError as e:
                if isinstance(e, FileSystemError):
                    raise
                raise _err(e.errno, vpath) from None
            finally:
                os.close(fd)

    def utime(self, vpath: str, times=None, *, ns=None, follow: bool = True) -> None:
        res = self.resolve(vpath, follow=follow)
        with res:
            if res.kind != HOST:
                raise _err(errno.EACCES, vpath)
            self._writable(res, vpath)
            try:
                st = res.st or os.stat(res.name, dir_fd=res.dir_fd, follow_symlinks=False)
                if st.st_nlink > 1 and _stat.S_ISREG(st.st_mode):
                    raise _err(errno.EPERM, vpath)  # its other names may lie outside
                if ns is not None:
                    os.utime(res.name, ns=ns, dir_fd=res.dir_fd, follow_symlinks=False)
                else:
                    os.utime(res.name, times, dir_fd=res.dir_fd, follow_symlinks=False)
            except FileSystemError:
                raise
            except OSError as e:
                raise _err(e.errno, vpath) from None

    def realpath(self, vpath: str) -> str:
        """Canonical virtual path; the last component may be missing (GNU realpath's default)."""
        res = self.resolve(vpath, follow=True)
        with res:
            if res.kind == HOST and not res.is_mount_root:
                try:
                    os.stat(res.name, dir_fd=res.dir_fd, follow_symlinks=False)
                except FileNotFoundError:
                    pass
                except OSError as e:
                    raise _err(e.errno, vpath) from None
            return res.vpath

    def statvfs(self, mount: Mount) -> os.statvfs_result:
        return os.fstatvfs(self.table.root_fd(mount))

    # --------------------------------------------------------------- door B
    def resolve_host(self, vpath: str, *, follow: bool = True, write: bool = False) -> Path:
        """Door B: the canonical host path of ``vpath`` (its leaf may not exist yet)."""
        res = self.resolve(vpath, follow=follow)
        with res:
            if res.kind == DEVICE:
                from pathlib import Path

                return Path(DEVICES[res.vpath.rsplit("/", 1)[1]])
            if res.kind != HOST:
                raise _err(errno.EACCES, vpath)
            if write:
                self._writable(res, vpath)
            # Never hand out the path of a FIFO, socket or device (a library would
            # block opening it), nor one for writing a file with other hard links.
            st = res.st
            if st is None and not follow and not res.is_mount_root:
                try:
                    st = os.stat(res.name, dir_fd=res.dir_fd, follow_symlinks=False)
                except OSError:
                    st = None  # missing: an output file to be
            if st is not None:
                check_node(st, vpath, write)
            return self.host_path(res)

    # ----------------------------------------------------------- safe walker
    def walk(self, top: str, follow_symlinks: bool = False, onerror=None) -> Iterator[WalkDir]:
        """Top-down walk through held dir fds. Prune by editing ``WalkDir.dirs``.

        Symlinks are not followed unless asked; then each link is re-resolved by the
        core (so a link out is an error, reported to ``onerror``), and directories
        already on the current path are skipped (no loops).
        """
        try:
            res = self.resolve(top, follow=True)
        except FileSystemError as e:
            if onerror:
                onerror(e)
            return
        with res:
            if res.kind != HOST:
                if onerror:
                    onerror(_err(errno.ENOTDIR, top))
                return
            try:
                fd = self._open_dir(res, top)
            except FileSystemError as e:
                if onerror:
                    onerror(e)
                return
        yield from self._walk_fd(fd, top.rstrip("/") or "/", res.vpath, follow_symlinks, onerror, set())

    def _walk_fd(self, fd, shown, canon, follow, onerror, ancestors):
        try:
            st = os.fstat(fd)
            key = (st.st_dev, st.st_ino)
            if key in ancestors:
                return
            ancestors.add(key)
            dirs, files, order = [], [], []
            with os.scandir(fd) as it:
                for e in it:
                    t = _entry_type(e)
                    ent = WalkEntry(e.name, t, fd, shown, canon)
                    order.append(ent)
                    if t == "d":
                        dirs.append(ent)
                    elif t == "l" and follow:
                        try:
                            lst = self.stat(_join(canon, e.name), follow=True)
                        except FileSystemError as err:
                            if onerror:
                                onerror(err)
                            files.append(ent)
                            continue
                        ent.link_stat = lst
                        (dirs if _stat.S_ISDIR(lst.st_mode) else files).append(ent)
                    else:
                        files.append(ent)
            wd = WalkDir(shown, canon, dirs, files, order)
            yield wd
            for ent in wd.dirs:
                sub_shown = _join(shown, ent.name)
                if ent.type == "l":
                    try:
                        res = self.resolve(_join(canon, ent.name), follow=True)
                    except FileSystemError as err:
                        if onerror:
                            onerror(err)
                        continue
                    with res:
                        sub_canon = res.vpath
                        try:
                            sfd = self._open_dir(res, sub_shown)
                        except FileSystemError as err:
                            if onerror:
                                onerror(err)
                            continue
                else:
                    sub_canon = _join(canon, ent.name)
                    try:
                        sfd = os.open(ent.name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW
                                      | os.O_CLOEXEC, dir_fd=fd)
                    except OSError as e:
                        if onerror:
                            onerror(_err(e.errno, sub_shown))
                        continue
                yield from self._walk_fd(sfd, sub_shown, sub_canon, follow, onerror, ancestors)
            ancestors.discard(key)
        finally:
            os.close(fd)


def open_leaf(name: str, flags: int, mode: int, dir_fd: int, vpath: str) -> int:
    """Open ``name`` in held directory ``dir_fd`` under the core's rules for what is opened.

    * Never a blocking open of an unknown type: the open is ``O_NONBLOCK`` (and
      ``O_NOFOLLOW``), the type is checked on the held fd, and only a regular file
      or a directory is kept (``O_NONBLOCK`` then cleared). A FIFO, socket or
      device is refused with ENXIO, whatever its permissions say.
    * A write never reaches a regular file with more than one hard link (its other
      names may lie outside the sandbox): EPERM, checked before ``O_TRUNC`` acts.

    Symlinks give ELOOP (the caller resolves them). The caller owns the fd.
    """
    write = flags & _O_WRITE
    try:
        fd = os.open(name, (flags & ~os.O_TRUNC) | _LEAF_FLAGS, mode, dir_fd=dir_fd)
    except OSError as e:
        raise _err(e.errno, vpath) from None
    try:
        if flags & os.O_PATH:
            return fd
        st = os.fstat(fd)
        kind = st.st_mode & _S_IFMT
        if kind != _S_IFREG and kind != _S_IFDIR:
            raise _err(errno.ENXIO, vpath)
        if write and st.st_nlink > 1 and kind == _S_IFREG:
            raise _err(errno.EPERM, vpath)
        if not flags & os.O_NONBLOCK:
            os.set_blocking(fd, True)
        if write and flags & os.O_TRUNC and st.st_size:
            os.ftruncate(fd, 0)
    except BaseException as e:
        os.close(fd)
        if isinstance(e, OSError) and not isinstance(e, FileSystemError):
            raise _err(e.errno, vpath) from None
        raise
    return fd


def check_node(st: os.stat_result, vpath: str, write: bool) -> None:
    """The rules of :func:`open_leaf` for a node known by its lstat (door B hands out paths)."""
    kind = _stat.S_IFMT(st.st_mode)
    if kind == _stat.S_IFREG:
        if write and st.st_nlink > 1:
            raise _err(errno.EPERM, vpath)
    elif kind != _stat.S_IFDIR and kind != _stat.S_IFLNK:
        raise _err(errno.ENXIO, vpath)


def _below(vpath: str, m: Mount) -> list[str]:
    """Components of canonical ``vpath`` below mount ``m``'s root."""
    return split_components(vpath[len(m.virtual):])


def _relative(dest: list[str], start: list[str]) -> str:
    i = 0
    while i < len(dest) and i < len(start) and dest[i] == start[i]:
        i += 1
    return "/".join([".."] * (len(start) - i) + dest[i:]) or "."


def _dotdot_after_name(target: str) -> bool:
    named = False
    for c in target.split("/"):
        if c == "..":
            if named:
                return True
        elif c and c != ".":
            named = True
    return False


def _join(a: str, b: str) -> str:
    return a + b if a.endswith("/") else a + "/" + b


def _entry_type(e: os.DirEntry) -> str:
    try:
        if e.is_symlink():
            return "l"
        if e.is_dir(follow_symlinks=False):
            return "d"
        if e.is_file(follow_symlinks=False):
            return "f"
    except OSError:
        pass
    return "o"


class WalkEntry:
    """One directory entry met by :meth:`Confinement.walk`.

    ``stat()`` works while the walk is inside the entry's directory (the
    directory fd is held until its whole subtree is done).
    """

    __slots__ = ("name", "type", "_dir_fd", "_shown", "_canon", "link_stat", "_stat")

    def __init__(self, name: str, type_: str, dir_fd: int, shown: str, canon: str):
        self.name = name
        self.type = type_
        self._dir_fd = dir_fd
        self._shown = shown
        self._canon = canon
        self.link_stat: os.stat_result | None = None
        self._stat: os.stat_result | None = None

    @property
    def path(self) -> str:
        """Virtual path as reached from the walk's top (symlinked dirs keep their link name)."""
        return _join(self._shown, self.name)

    def stat(self, follow: bool = False) -> os.stat_result:
        if follow and self.link_stat is not None:
            return self.link_stat
        if self._stat is None:
            try:
                self._stat = os.stat(self.name, dir_fd=self._dir_fd, follow_symlinks=False)
            except OSError as e:
                raise _err(e.errno, self.path) from None
        return self._stat

    def is_dir(self) -> bool:
        return self.type == "d" or (
            self.link_stat is not None and _stat.S_ISDIR(self.link_stat.st_mode))

    def is_symlink(self) -> bool:
        return self.type == "l"

    def open(self, flags: int = os.O_RDONLY) -> int:
        """A host fd for reading this entry, opened relative to its held directory (O_NOFOLLOW).

        For ports that read what they walk (rg): no path is resolved again, so a
        concurrent rename or symlink swap cannot redirect the open. Valid while the
        walk is inside the entry's directory; read-only (write flags: EACCES); a
        symlink entry gives ELOOP (resolve its path instead).
        """
        if flags & _O_WRITE:
            raise _err(errno.EACCES, self.path)
        return open_leaf(self.name, flags, 0, self._dir_fd, self.path)

    def __repr__(self) -> str:
        return f"WalkEntry({self.path!r}, {self.type!r})"


@dataclass(slots=True)
class WalkDir:
    path: str  # virtual, as reached
    canonical: str  # virtual, symlinks resolved
    dirs: list[WalkEntry]
    files: list[WalkEntry]
    # every entry in the order the directory listed them (readdir order, as GNU fts sees it)
    entries: list[WalkEntry] = field(default_factory=list)
