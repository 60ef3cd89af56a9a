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

from pysh.shellkit.errors import FileSystemError
from pysh.shellkit.mounts import Mount, MountTable, is_under, split_components
from pysh.shellkit.overlay import Layer, lower_visible, merged_dir_stat, merged_entries, touch_dir

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)

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
_DIR_READ = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


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


def _last_errno() -> int:
    """The errno of the last failed openat2 (ctypes keeps its own copy)."""
    import ctypes  # already loaded: openat2 is made with it

    return ctypes.get_errno()


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


class Resolved:
    """The result of a walk.

    For a ``HOST`` node, ``dir_fd`` is the directory that holds the leaf and
    ``name`` the leaf's name in it (``"."`` when the path is a mount root:
    then ``dir_fd`` is the root itself). ``owned`` says whether ``dir_fd``
    must be closed (use the object as a context manager).

    In an overlay mount: ``dir_fd`` is the directory of the layer that holds the leaf
    (for a missing leaf: the upper parent, or an empty directory when the parent has no
    upper copy yet: never a lower directory). ``udir``/``ldir`` are the parent in each
    layer (-1: none), ``where`` is "u", "l" or "" (missing), ``rel`` the leaf's path
    below the mount root. Writes go through ``Confinement._up`` first.
    """

    __slots__ = ("vpath", "kind", "mount", "dir_fd", "name", "owned", "fdnum", "st", "layer",
                 "udir", "ldir", "uown", "lown", "where", "rel")

    def __init__(self, vpath: str, kind: str, mount: Mount | None = None, dir_fd: int = -1,
                 name: str = "", owned: bool = False, *, fdnum: int = -1,
                 st: os.stat_result | None = None, layer: Layer | None = None, udir: int = -1,
                 ldir: int = -1, uown: bool = False, lown: bool = False, where: str = "",
                 rel: str = "") -> None:
        self.vpath = vpath
        self.kind = kind
        self.mount = mount
        self.dir_fd = dir_fd
        self.name = name
        self.owned = owned
        self.fdnum = fdnum  # STREAM: which shell fd
        self.st = st  # lstat of the leaf, when the walk already made one
        self.layer = layer
        self.udir = udir
        self.ldir = ldir
        self.uown = uown
        self.lown = lown
        self.where = where
        self.rel = rel

    def close(self) -> None:
        if self.owned:
            self.owned = False
            os.close(self.dir_fd)
        if self.uown:
            self.uown = False
            os.close(self.udir)
        if self.lown:
            self.lown = False
            os.close(self.ldir)

    def __enter__(self) -> Resolved:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def is_mount_root(self) -> bool:
        return self.kind == HOST and self.name == "."


class _Walk:
    """Mutable state of one walk: where we are, and which fds we own.

    In an overlay mount ``stack`` holds the upper layer's directory fds and ``lstack``
    the lower layer's, level by level (-1 where that layer has no such directory, or
    its directory is hidden); ``base`` is the number of components of the mount point."""

    __slots__ = ("mount", "stack", "loc", "layer", "lstack", "base")

    def __init__(self) -> None:
        self.mount: Mount | None = None  # None: in the synthetic part of the namespace
        self.stack: list[int] = []  # host dir fds from the mount root down; [0] is borrowed
        self.loc: list[str] = []  # canonical virtual components of where we are
        self.layer: Layer | None = None
        self.lstack: list[int] = []
        self.base = 0

    def reset(self) -> None:
        for fd in self.stack[1:]:
            if fd >= 0:
                os.close(fd)
        for fd in self.lstack[1:]:
            if fd >= 0:
                os.close(fd)
        self.stack = []
        self.lstack = []
        self.layer = None
        self.mount = None
        self.loc = []

    def rel(self, extra: str) -> str:
        """The path of ``extra`` in the current directory, below the mount root."""
        parts = self.loc[self.base:]
        return "/".join(parts) + "/" + extra if parts else extra

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

    def may_hold_files(self, vdir: str) -> bool:
        """Whether a regular file can be found in directory ``vdir`` (absolute, normalised).
        Outside the mounts there are only synthetic directories, which list mount points,
        devices, the shell's streams and commands (a PATH search skips them: no walk)."""
        return vdir == "/dev" or vdir.startswith("/dev/") or self.table.find(vdir) is not None

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
    def resolve(self, path: str, follow: bool = True, write: bool = False) -> Resolved:
        """Walk absolute virtual ``path``; the leaf is followed if ``follow`` (or a trailing '/').

        The leaf of a HOST result may not exist; every component before it does.
        Raises FileSystemError (ENOENT, ENOTDIR, EACCES for an escape, ELOOP).

        ``write``: the caller will create, replace or change the leaf by acting on
        ``dir_fd`` itself. In an overlay mount ``dir_fd`` is then the upper layer's
        directory (copied up on demand) and an existing lower leaf is copied up first;
        without it ``dir_fd`` may be a lower directory, which must never be written.
        (Removing a name is :meth:`remove`: a lower entry is hidden, not unlinked.)
        """
        res = self._resolve(path, follow)
        if write and res.layer is not None:
            try:
                self._up(res, path, "data")
            except BaseException:
                res.close()
                raise
        return res

    def _resolve(self, path: str, follow: bool) -> Resolved:
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
        if m.overlay:
            return self._resolve_fast_ov(vpath, m, rest, follow)
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

    def _resolve_fast_ov(self, vpath: str, m: Mount, rest: str, follow: bool) -> Resolved | None:
        """The fast path in an overlay mount: the parent opened in both layers with one
        openat2 each. Only when nothing on the way is hidden, and either the upper layer
        has the whole parent (its directories win at every level) or has none of some
        level on (then the lower one, free of links, is the merged path)."""
        layer = self.table.layer(m)
        parent, _, leaf = rest.rpartition("/")
        if parent and layer.hidden and layer.is_hidden(parent):
            return None
        u, l = layer.upper_fd, self.table.root_fd(m)
        if parent:
            u = _openat2(layer.upper_fd, parent)
            if u < 0 and _last_errno() != errno.ENOENT:
                return None  # a file or a link in the upper layer on the way: walk
            l = _openat2(l, parent)
            if l < 0 and u < 0:
                return None
        w = _Walk()  # the two levels (root, parent) as the walk would hold them
        w.mount, w.layer, w.loc = m, layer, split_components(parent)
        if parent:
            w.stack, w.lstack = [layer.upper_fd, u], [self.table.root_fd(m), l]
        else:
            w.stack, w.lstack = [u], [l]
        try:
            where, st = self._ov_lookup(w, leaf, vpath)
        except FileSystemError:
            w.reset()
            return None
        if where and follow and _stat.S_ISLNK(st.st_mode):
            w.reset()
            return None
        return self._ov_leaf(w, leaf, vpath, where, st)

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
                    self._enter(w, m, split_components(here))
                    continue
                if w.mount is None:
                    res = self._step_synthetic(w, comp, here, is_last, path)
                    if res is not None:
                        return res
                    continue
                if w.layer is not None:  # in a directory of an overlay mount
                    step = self._ov_step(w, comp, here, is_last, follow, trailing, path)
                    if step is None:
                        continue
                    if isinstance(step, Resolved):
                        return step
                    links += 1
                    if links > MAX_SYMLINKS:
                        raise _err(errno.ELOOP, path)
                    self._push_link(w, step, pending, path)
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

    def _enter(self, w: _Walk, m: Mount, loc: list[str]) -> None:
        """Stand at the root of mount ``m`` (both layers' roots for an overlay mount)."""
        w.reset()
        w.mount, w.loc = m, loc
        root = self.table.root_fd(m)
        layer = self.table.layer(m) if m.overlay else None
        if layer is None:
            w.stack = [root]
        else:
            w.layer, w.stack, w.lstack, w.base = layer, [layer.upper_fd], [root], len(loc)

    def _dotdot(self, w: _Walk, pending: list, from_link: Mount | None, path: str) -> None:
        if w.mount is not None and len(w.stack) > 1:
            fd = w.stack.pop()
            if fd >= 0:
                os.close(fd)
            if w.lstack:
                fd = w.lstack.pop()
                if fd >= 0:
                    os.close(fd)
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
        if w.layer is not None:
            return self._ov_leaf(w, name, vpath, *self._ov_lookup(w, name, vpath))
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
            if w.layer is not None:
                res.layer, res.udir, res.ldir, res.where = w.layer, w.stack[0], w.lstack[0], "u"
            w.reset()
            return res
        # Re-express the directory as (parent fd, name) so that it can be removed or renamed.
        name = w.loc[-1]
        self._dotdot(w, [], None, vpath)
        return self._leaf(w, name, vpath)

    # ------------------------------------------------------------ the union walk
    def _ov_step(self, w: _Walk, comp: str, here: str, is_last: bool, follow: bool,
                 trailing: bool, path: str) -> Resolved | str | None:
        """One component in a directory of an overlay mount: the upper layer's entry wins,
        else the lower layer's unless it is hidden. Returns the result (the last component),
        None (entered a directory), or a symlink's target for the walk to follow."""
        if is_last:
            where, st = self._ov_lookup(w, comp, path)
            if not where:
                if follow and self.table.synthetic_children(here) is not None:
                    w.reset()
                    w.loc = split_components(here)
                    return None
                return self._ov_leaf(w, comp, here, where, st)
            if follow:
                if _stat.S_ISLNK(st.st_mode):
                    return self._readlink_at(w.stack[-1] if where == "u" else w.lstack[-1],
                                             comp, path)
                if trailing and not _stat.S_ISDIR(st.st_mode):
                    raise _err(errno.ENOTDIR, path)
            return self._ov_leaf(w, comp, here, where, st)
        ufd, lfd = w.stack[-1], w.lstack[-1]
        if lfd >= 0 and w.layer.hidden and w.rel(comp) in w.layer.hidden:
            lfd = -1
        if ufd >= 0:
            fd, target = self._open_step(ufd, comp, path)
            if fd >= 0:
                lower = -1
                if lfd >= 0:  # the lower half of a merged directory, if it is one
                    try:
                        lower = os.open(comp, _DIR_FLAGS, dir_fd=lfd)
                    except OSError:
                        pass
                w.stack.append(fd)
                w.lstack.append(lower)
                w.loc.append(comp)
                return None
            if target is not None:
                return target
        if lfd >= 0:
            fd, target = self._open_step(lfd, comp, path)
            if fd >= 0:
                w.stack.append(-1)
                w.lstack.append(fd)
                w.loc.append(comp)
                return None
            if target is not None:
                return target
        if self.table.synthetic_children(here) is not None:
            w.reset()
            w.loc = split_components(here)
            return None
        raise _err(errno.ENOENT, path)

    def _open_step(self, dfd: int, comp: str, path: str) -> tuple[int, str | None]:
        """(directory fd, None), (-1, a symlink's target) or (-1, None) when missing."""
        try:
            return os.open(comp, _DIR_FLAGS, dir_fd=dfd), None
        except OSError as e:
            if e.errno == errno.ENOENT:
                return -1, None
            if e.errno not in (errno.ENOTDIR, errno.ELOOP):
                raise _err(e.errno, path) from None
        return -1, self._readlink_at(dfd, comp, path)  # ENOTDIR unless a symlink

    @staticmethod
    def _ov_lookup(w: _Walk, name: str, path: str) -> tuple[str, os.stat_result | None]:
        """Which layer shows ``name`` in the current directory ("u", "l" or "") and its lstat."""
        ufd, lfd = w.stack[-1], w.lstack[-1]
        if lfd >= 0 and w.layer.hidden and w.rel(name) in w.layer.hidden:
            lfd = -1
        for where, dfd in (("u", ufd), ("l", lfd)):
            if dfd >= 0:
                try:
                    return where, os.stat(name, dir_fd=dfd, follow_symlinks=False)
                except FileNotFoundError:
                    pass
                except OSError as e:
                    raise _err(e.errno, path) from None
        return "", None

    def _ov_leaf(self, w: _Walk, name: str, vpath: str, where: str,
                 st: os.stat_result | None) -> Resolved:
        layer, mount, rel = w.layer, w.mount, w.rel(name)
        udir, ldir = w.stack.pop(), w.lstack.pop()
        deep = bool(w.stack)  # the popped level is not the mount root (borrowed fds)
        w.reset()
        if where == "u":
            dfd = udir
        elif where == "l":
            dfd = ldir
        else:  # never a lower directory: a lookup there could find a hidden entry
            dfd = udir if udir >= 0 else layer.empty_fd
        return Resolved(vpath, HOST, mount, dfd, name, False, st=st, layer=layer, udir=udir,
                        ldir=ldir, uown=deep and udir >= 0, lown=deep and ldir >= 0,
                        where=where, rel=rel)

    # ------------------------------------------------------- host <-> virtual
    def host_path(self, res: Resolved) -> Path:
        """Canonical host path of a HOST resolution (every component before the leaf is real)."""
        m = res.mount
        assert m is not None
        from pathlib import Path  # only door B needs it: kept off the start-up path

        if res.layer is not None:  # the layer that holds the leaf (upper when it is new)
            root = m.host_real if res.where == "l" else res.layer.upper
            return Path(root + "/" + res.rel if res.rel else root)
        rel = res.vpath[len(m.virtual):]
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

    # ------------------------------------------------------------- overlay writes
    def _up(self, res: Resolved, vpath: str, copy: str = "") -> None:
        """Make an overlay leaf act on the upper layer: its parent directory is copied up
        on demand (the directories on the way made with the lower ones' modes), and with
        ``copy`` ("data": a file with its content; "meta": empty, with its mode) an
        existing lower leaf too (a symlink as a symlink, a directory without its entries).
        Afterwards ``res.dir_fd`` is the upper parent."""
        layer = res.layer
        if layer is None or res.where == "u":
            return
        if res.udir < 0:
            comps = res.rel.split("/")[:-1]
            res.udir = layer.upper_dirs(self.table.root_fd(res.mount), comps, vpath)
            res.uown = True
        if res.where == "l" and copy:
            layer.copy_up(res.ldir, res.udir, res.name, vpath, res.rel, data=copy == "data")
            res.where, res.st = "u", None
        res.dir_fd = res.udir

    def _up_existing(self, res: Resolved, vpath: str, modify: bool = True) -> None:
        """Copy an existing overlay leaf up before it is changed in place (chmod, utime,
        a write): the hard-link rule is judged on the lower file first."""
        if res.layer is None or res.where == "u":
            return
        if not res.where:
            raise _err(errno.ENOENT, vpath)
        st = res.st or self._lstat(res, vpath)
        if modify and _stat.S_ISREG(st.st_mode) and st.st_nlink > 1:
            raise _err(errno.EPERM, vpath)  # its other names may lie outside
        check_node(st, vpath, False)
        self._up(res, vpath, "data")

    @staticmethod
    def _lstat(res: Resolved, vpath: str) -> os.stat_result:
        try:
            return os.stat(res.name, dir_fd=res.dir_fd, follow_symlinks=False)
        except OSError as e:
            raise _err(e.errno, vpath) from None

    def _ov_open_dirs(self, res: Resolved, vpath: str) -> tuple[int, int]:
        """Readable fds of an overlay directory in each layer (-1 where it has none)."""
        if not res.where:
            raise _err(errno.ENOENT, vpath)
        layer = res.layer
        if res.is_mount_root:
            name, ufd_parent, lfd_parent = ".", res.udir, res.ldir
        else:
            name, ufd_parent = res.name, res.udir if res.where == "u" else -1
            lfd_parent = res.ldir if res.ldir >= 0 and not layer.is_hidden(res.rel) else -1
        ufd = lfd = -1
        try:
            if ufd_parent >= 0:
                ufd = os.open(name, _DIR_READ, dir_fd=ufd_parent)
            if lfd_parent >= 0:
                try:
                    lfd = os.open(name, _DIR_READ, dir_fd=lfd_parent)
                except OSError:
                    if ufd < 0:
                        raise
        except OSError as e:
            if ufd >= 0:
                os.close(ufd)
            raise _err(e.errno, vpath) from None
        return ufd, lfd

    def _ov_is_empty(self, res: Resolved, vpath: str) -> bool:
        ufd, lfd = self._ov_open_dirs(res, vpath)
        try:
            return not merged_entries(res.layer, ufd, lfd, res.rel)
        finally:
            for fd in (ufd, lfd):
                if fd >= 0:
                    os.close(fd)

    def _ov_remove(self, res: Resolved, vpath: str, is_dir: bool) -> None:
        """unlink/rmdir in an overlay mount: the upper entry goes, a lower one is hidden."""
        if not res.where:
            raise _err(errno.ENOENT, vpath)
        layer = res.layer
        st = res.st or self._lstat(res, vpath)
        if is_dir:
            if not _stat.S_ISDIR(st.st_mode):
                raise _err(errno.ENOTDIR, vpath)
            if not self._ov_is_empty(res, vpath):
                raise _err(errno.ENOTEMPTY, vpath)
        elif _stat.S_ISDIR(st.st_mode):
            raise _err(errno.EISDIR, vpath)
        with layer.lock:
            in_lower = lower_visible(layer, res.ldir, res.name, res.rel)
            if in_lower:
                layer.note_base_at(res.ldir, res.name, res.rel)
            if res.where == "u":
                try:
                    (os.rmdir if is_dir else os.unlink)(res.name, dir_fd=res.udir)
                except OSError as e:
                    raise _err(e.errno, vpath) from None
            if in_lower:
                layer.hide(res.rel)
                if res.where == "l":  # the directory changed, as an unlink would change it
                    self._up(res, vpath)
                    touch_dir(res.udir)

    def _ov_rename(self, rs: Resolved, rd: Resolved, src: str, dst: str) -> None:
        """rename in an overlay mount: the source is copied up (a merged directory with
        everything the merged view shows beneath it) and renamed in the upper layer; the
        lower entries at both names are hidden."""
        layer = rs.layer
        if not rs.where:
            raise _err(errno.ENOENT, src)
        sst = rs.st or self._lstat(rs, src)
        src_dir = _stat.S_ISDIR(sst.st_mode)
        if rd.where:
            if rd.rel == rs.rel:
                return
            dst_dir = _stat.S_ISDIR((rd.st or self._lstat(rd, dst)).st_mode)
            if dst_dir and not src_dir:
                raise _err(errno.EISDIR, src, dst)
            if src_dir and not dst_dir:
                raise _err(errno.ENOTDIR, src, dst)
            if dst_dir and not self._ov_is_empty(rd, dst):
                raise _err(errno.ENOTEMPTY, src, dst)
        if src_dir and rd.rel.startswith(rs.rel + "/"):
            raise _err(errno.EINVAL, src, dst)
        with layer.lock:
            src_lower = lower_visible(layer, rs.ldir, rs.name, rs.rel)
            if not src_dir:
                self._up_existing(rs, src, modify=False)
            else:
                self._up(rs, src, "data")
                if src_lower:  # a merged directory: all of it comes up
                    try:
                        ufd = os.open(rs.name, _DIR_FLAGS, dir_fd=rs.udir)
                    except OSError as e:
                        raise _err(e.errno, src) from None
                    try:
                        lfd = os.open(rs.name, _DIR_FLAGS, dir_fd=rs.ldir)
                    except OSError:
                        lfd = -1
                    try:
                        if lfd >= 0:
                            layer.copy_up_tree(ufd, lfd, rs.rel, src)
                    finally:
                        os.close(ufd)
                        if lfd >= 0:
                            os.close(lfd)
            self._check_moved_tree(rs, rd, src)
            self._up(rd, dst)
            dst_lower = lower_visible(layer, rd.ldir, rd.name, rd.rel)
            if dst_lower:
                layer.note_base_at(rd.ldir, rd.name, rd.rel)
            try:
                os.rename(rs.name, rd.name, src_dir_fd=rs.udir, dst_dir_fd=rd.udir)
            except OSError as e:
                raise _err(e.errno, src, dst) from None
            if src_lower:
                layer.hide(rs.rel)
            if dst_lower:
                layer.hide(rd.rel)

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
                    if res.layer is not None:
                        return self._ov_open(res, flags, mode, vpath, write)
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

    def _ov_open(self, res: Resolved, flags: int, mode: int, vpath: str, write: bool) -> int:
        if write and res.where == "l":
            st = res.st or self._lstat(res, vpath)
            if _stat.S_ISLNK(st.st_mode):
                raise _err(errno.ELOOP, vpath)  # the caller follows it
            if flags & os.O_CREAT and flags & os.O_EXCL:
                raise _err(errno.EEXIST, vpath)
            if _stat.S_ISDIR(st.st_mode):
                raise _err(errno.EISDIR, vpath)
            check_node(st, vpath, True)
            self._up(res, vpath, "meta" if flags & os.O_TRUNC else "data")
        elif write:
            self._up(res, vpath)
        fd = open_leaf(res.name, flags, mode, res.dir_fd, vpath)
        if res.where == "l":
            res.layer.note_base(res.rel, os.fstat(fd))
        return fd

    def stat(self, vpath: str, follow: bool = True) -> os.stat_result:
        res = self.resolve(vpath, follow=follow)
        with res:
            if res.kind == HOST:
                st = res.st
                if st is None:
                    try:
                        st = os.stat(res.name, dir_fd=res.dir_fd, follow_symlinks=False)
                    except OSError as e:
                        raise _err(e.errno, vpath) from None
                if res.where == "u" and _stat.S_ISDIR(st.st_mode):
                    name = res.name if not res.is_mount_root else "."
                    st = merged_dir_stat(res.layer, st, res.udir, res.ldir, name, res.rel)
                return st
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
            entries = self.list_resolved(res, vpath)
            # Mount points beneath this directory show up even where the host has no entry.
            names = {n for n, _ in entries}
            for m in self.table:
                if m.virtual.rsplit("/", 1)[0] == res.vpath.rstrip("/") and m.virtual != res.vpath:
                    leaf = m.virtual.rsplit("/", 1)[1]
                    if leaf not in names:
                        entries.append((leaf, "d"))
            return entries

    def list_resolved(self, res: Resolved, vpath: str) -> list[tuple[str, str]]:
        """(name, type) of the HOST directory a caller resolved (both layers of an overlay
        mount merged); no mount points."""
        fd, ov = self._open_level(res, vpath)
        try:
            return [(name, t) for name, t, _ in self._list_level(fd, ov)]
        except OSError as e:
            raise _err(e.errno, vpath) from None
        finally:
            _close_level(fd, ov)

    def _open_level(self, res: Resolved, vpath: str) -> tuple[int, tuple | None]:
        """A readable directory to list: (fd, None), or in an overlay mount (upper fd or -1,
        (layer, lower fd or -1, path below the root))."""
        if res.layer is None:
            return self._open_dir(res, vpath), None
        ufd, lfd = self._ov_open_dirs(res, vpath)
        return ufd, (res.layer, lfd, res.rel)

    @staticmethod
    def _list_level(fd: int, ov: tuple | None) -> list[tuple[str, str, int]]:
        """(name, type, fd of the directory holding it) of a directory from _open_level."""
        if ov is not None:
            return merged_entries(ov[0], fd, ov[1], ov[2])
        with os.scandir(fd) as it:
            return [(e.name, _entry_type(e), fd) for e in it]

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
            if res.layer is not None:
                if res.where:
                    raise _err(errno.EEXIST, vpath)
                self._up(res, vpath)
            try:
                os.mkdir(res.name, mode & 0o1777, dir_fd=res.dir_fd)
            except OSError as e:
                raise _err(e.errno, vpath) from None

    def unlink(self, vpath: str) -> None:
        res = self.resolve(vpath.rstrip("/") or "/", follow=False)
        with res:
            self.remove(res, vpath)

    def rmdir(self, vpath: str) -> None:
        res = self.resolve(vpath.rstrip("/") or "/", follow=False)
        with res:
            self.remove(res, vpath, True)

    def remove(self, res: Resolved, vpath: str, is_dir: bool = False) -> None:
        """unlink (rmdir if ``is_dir``) the leaf of a resolution (``follow=False``) made by
        the caller; in an overlay mount the lower entry is hidden."""
        self._removable(res, vpath)
        if res.layer is not None:
            return self._ov_remove(res, vpath, is_dir)
        try:
            (os.rmdir if is_dir else os.unlink)(res.name, dir_fd=res.dir_fd)
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
                    if rs.layer is not None:
                        return self._ov_rename(rs, rd, src, dst)
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
                if res.layer is not None:
                    if res.where:
                        raise _err(errno.EEXIST, vpath)
                    self._up(res, vpath)
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
                    if rs.layer is not None:
                        if rd.where:
                            raise _err(errno.EEXIST, dst)
                        if rs.where and _stat.S_ISDIR((rs.st or self._lstat(rs, src)).st_mode):
                            raise _err(errno.EPERM, dst)
                        self._up_existing(rs, src, modify=False)
                        self._up(rd, dst)
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
            if res.where == "l":
                if _stat.S_ISLNK((res.st or self._lstat(res, vpath)).st_mode):
                    raise _err(errno.EOPNOTSUPP, vpath)  # symlinks have no mode on Linux
                self._up_existing(res, vpath)
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
            self._up_existing(res, vpath)
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
                if res.layer is not None:  # the library writes the upper layer's copy
                    if res.where == "l":
                        check_node(res.st or self._lstat(res, vpath), vpath, True)
                    self._up(res, vpath, "data")
            elif res.where == "l":
                res.layer.note_base_at(res.ldir, res.name, res.rel)
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
                fd, ov = self._open_level(res, top)
            except FileSystemError as e:
                if onerror:
                    onerror(e)
                return
        yield from self._walk_fd(fd, top.rstrip("/") or "/", res.vpath, follow_symlinks, onerror,
                                 set(), ov)

    def _walk_fd(self, fd, shown, canon, follow, onerror, ancestors, ov=None):
        """One directory of the walk: ``fd`` (and, in an overlay mount, ``ov`` = (layer,
        lower fd, path below the root), where ``fd`` is the upper one or -1)."""
        try:
            st = os.fstat(fd if fd >= 0 else ov[1])
            key = (st.st_dev, st.st_ino)
            if key in ancestors:
                return
            ancestors.add(key)
            dirs, files, order = [], [], []
            for name, t, dfd in self._list_level(fd, ov):
                ent = WalkEntry(name, t, dfd, shown, canon)
                if ov is not None:
                    ent._ov = ov
                order.append(ent)
                if t == "d":
                    dirs.append(ent)
                elif t == "l" and follow:
                    try:
                        lst = self.stat(_join(canon, name), follow=True)
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
                sub_ov = None
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
                            sfd, sub_ov = self._open_level(res, sub_shown)
                        except FileSystemError as err:
                            if onerror:
                                onerror(err)
                            continue
                else:
                    sub_canon = _join(canon, ent.name)
                    try:
                        if ov is None:
                            sfd = os.open(ent.name, _DIR_READ, dir_fd=fd)
                        else:
                            sfd, sub_ov = _ov_subdir(ent.name, fd, ov)
                    except OSError as e:
                        if onerror:
                            onerror(_err(e.errno, sub_shown))
                        continue
                yield from self._walk_fd(sfd, sub_shown, sub_canon, follow, onerror, ancestors,
                                         sub_ov)
            ancestors.discard(key)
        finally:
            _close_level(fd, ov)


def _close_level(fd: int, ov: tuple | None) -> None:
    if fd >= 0:
        os.close(fd)
    if ov is not None and ov[1] >= 0:
        os.close(ov[1])


def _ov_subdir(name: str, fd: int, ov: tuple) -> tuple[int, tuple]:
    """Both layers' fds of subdirectory ``name`` of a merged directory (upper ``fd``,
    ``ov`` = (layer, lower fd, path)): the lower half only if no upper entry masks it
    and no whiteout hides it."""
    layer, lfd, rel = ov
    sub_rel = f"{rel}/{name}" if rel else name
    u = -1
    if fd >= 0:
        try:
            u = os.open(name, _DIR_READ, dir_fd=fd)
        except FileNotFoundError:
            pass
        except NotADirectoryError:
            return -1, (layer, -1, sub_rel)  # an upper file masks it: never listed as a dir
    lo = -1
    if lfd >= 0 and not (layer.hidden and sub_rel in layer.hidden):
        try:
            lo = os.open(name, _DIR_READ, dir_fd=lfd)
        except OSError:
            if u < 0:
                raise
    if u < 0 and lo < 0:
        raise FileNotFoundError(errno.ENOENT, name)
    return u, (layer, lo, sub_rel)


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

    __slots__ = ("name", "type", "_dir_fd", "_shown", "_canon", "link_stat", "_stat", "_ov")

    def __init__(self, name: str, type_: str, dir_fd: int, shown: str, canon: str):
        self.name = name
        self.type = type_
        self._dir_fd = dir_fd
        self._shown = shown
        self._canon = canon
        self.link_stat: os.stat_result | None = None
        self._stat: os.stat_result | None = None
        self._ov: tuple | None = None  # in an overlay mount: (layer, lower dir fd, its path)

    @property
    def path(self) -> str:
        """Virtual path as reached from the walk's top (symlinked dirs keep their link name)."""
        return _join(self._shown, self.name)

    def stat(self, follow: bool = False) -> os.stat_result:
        if follow and self.link_stat is not None:
            return self.link_stat
        if self._stat is None:
            try:
                st = os.stat(self.name, dir_fd=self._dir_fd, follow_symlinks=False)
            except OSError as e:
                raise _err(e.errno, self.path) from None
            ov = self._ov
            if ov is not None and self.type == "d" and self._dir_fd != ov[1]:
                rel = f"{ov[2]}/{self.name}" if ov[2] else self.name
                st = merged_dir_stat(ov[0], st, self._dir_fd, ov[1], self.name, rel)
            self._stat = st
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
        fd = open_leaf(self.name, flags, 0, self._dir_fd, self.path)
        ov = self._ov
        if ov is not None and self._dir_fd == ov[1]:  # what the sandbox first read of a lower file
            rel = f"{ov[2]}/{self.name}" if ov[2] else self.name
            if rel not in ov[0].bases:
                ov[0].note_base(rel, os.fstat(fd))
        return fd

    def __repr__(self) -> str:
        return f"WalkEntry({self.path!r}, {self.type!r})"


class WalkDir:
    """One directory of a walk: its entries split into directories and the rest."""

    __slots__ = ("path", "canonical", "dirs", "files", "entries")

    def __init__(self, path: str, canonical: str, dirs: list[WalkEntry], files: list[WalkEntry],
                 entries: list[WalkEntry] | None = None) -> None:
        self.path = path  # virtual, as reached
        self.canonical = canonical  # virtual, symlinks resolved
        self.dirs = dirs
        self.files = files
        # every entry in the order the directory listed them (readdir order, as GNU fts sees it)
        self.entries = [] if entries is None else entries
