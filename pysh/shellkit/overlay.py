"""Overlay mounts: a host directory as the read-only lower layer of a mount.

An overlay mount shows a host directory (the *lower* layer, never written) merged
with a private *upper* layer: a directory of the instance's overlay area (beside its
``/tmp``, same lifetime). What the script writes goes to the upper layer; a name that
exists in the upper layer hides the lower one; a deletion of a lower name is recorded
as *hidden* (a whiteout): the lower entry at that path, and everything beneath it, is
no longer seen. A directory made where a hidden lower one was is therefore opaque.

The walk itself is the one walk of :mod:`pysh.shellkit.confine` (it carries a lower
directory fd beside each upper one while it is in an overlay mount); this module holds
the state of one overlay mount (:class:`Layer`) and the fd-level helpers the core
calls: copy-up (files with their data or just their mode, symlinks, directories on
demand, whole merged trees), the merged listing, and the record of what the sandbox
first saw of each lower file (what :mod:`pysh.shellkit.changes` checks before it
writes anything back to the host).

Whiteouts live in memory (and in snapshots), not as marker files in the upper layer:
a library that door B hands an upper path to sees only real files there.

The overlay area of an instance::

    <area>/work    copy-ups are built here, then renamed into place (atomic, never
                   seen half-made in a listing)
    <area>/empty   an empty directory: the directory fd of a missing leaf whose parent
                   has no upper copy yet (a lookup there finds nothing; never a lower fd)
    <area>/u0 ...  the upper layer of each overlay mount
"""

from __future__ import annotations

import errno
import os
import stat as _stat
import threading

from pysh.shellkit.errors import FileSystemError

_DIR_PATH = os.O_PATH | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_DIR_READ = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_CHUNK = 1 << 20


def base_key(st: os.stat_result) -> tuple:
    """What identifies a version of a host entry: a rewrite, a replace (rename over it),
    a chmod or a touch all change it."""
    return (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_mode)


class Layer:
    """The state of one overlay mount: its upper layer, what of the lower is hidden, and
    what the sandbox first saw of the lower entries it read, copied up or deleted."""

    __slots__ = ("upper", "upper_fd", "work_fd", "empty_fd", "hidden", "bases", "lock",
                 "charge", "__weakref__")

    def __init__(self, upper: str, work_fd: int, empty_fd: int) -> None:
        self.upper = upper  # canonical host path of the upper root
        self.upper_fd = os.open(upper, _DIR_PATH)
        self.work_fd = work_fd  # borrowed from the table
        self.empty_fd = empty_fd  # borrowed from the table
        self.hidden: set[str] = set()  # paths below the mount root whose lower entry is gone
        self.bases: dict[str, tuple] = {}  # path -> base_key of the lower entry first seen
        self.lock = threading.RLock()
        # called with the number of bytes a copy-up writes (the run's write limits)
        self.charge = None

    def close(self) -> None:
        fd, self.upper_fd = self.upper_fd, -1
        if fd >= 0:
            try:
                os.close(fd)
            except OSError:
                pass

    # -- whiteouts -----------------------------------------------------------------
    def is_hidden(self, rel: str) -> bool:
        """Whether the lower entry at ``rel`` or one of its ancestors is hidden."""
        hidden = self.hidden
        if not hidden:
            return False
        if rel in hidden:
            return True
        i = rel.find("/")
        while i >= 0:
            if rel[:i] in hidden:
                return True
            i = rel.find("/", i + 1)
        return False

    def hide(self, rel: str) -> None:
        """The lower entry at ``rel`` (and all beneath it) is gone from the merged view."""
        with self.lock:
            prefix = rel + "/"
            stale = [k for k in self.hidden if k.startswith(prefix)]
            self.hidden.difference_update(stale)
            self.hidden.add(rel)

    def note_base(self, rel: str, st: os.stat_result) -> None:
        """Remember the lower entry at ``rel`` as the sandbox first saw it."""
        if rel not in self.bases:
            self.bases[rel] = base_key(st)

    def note_base_at(self, dir_fd: int, name: str, rel: str) -> None:
        if rel not in self.bases:
            try:
                self.bases[rel] = base_key(os.stat(name, dir_fd=dir_fd, follow_symlinks=False))
            except OSError:
                pass

    # -- copy-up -------------------------------------------------------------------
    def upper_dirs(self, lower_root: int, comps: list[str], vpath: str) -> int:
        """An ``O_PATH`` fd (the caller's) of the upper directory ``comps`` below the root,
        made on demand with the mode and times of the lower directories.

        ``comps`` is a canonical path the core already walked: every component is a
        directory of the merged view, so it is opened without following anything."""
        fd = os.dup(self.upper_fd)
        lfd = -1
        lower_gone = False
        try:
            for i, c in enumerate(comps):
                if not lower_gone:  # the lower counterpart, for the mode of a new directory
                    try:
                        nl = os.open(c, _DIR_PATH, dir_fd=lower_root if lfd < 0 else lfd)
                    except OSError:
                        nl = -1
                    if lfd >= 0:
                        os.close(lfd)
                    lfd = nl
                    lower_gone = nl < 0 or self.is_hidden("/".join(comps[: i + 1]))
                try:
                    nfd = os.open(c, _DIR_PATH, dir_fd=fd)
                except FileNotFoundError:
                    st = None if lower_gone else os.fstat(lfd)
                    mode = _stat.S_IMODE(st.st_mode) if st is not None else 0o755
                    with self.lock, _same_times(fd):
                        try:
                            os.mkdir(c, mode & 0o1777, dir_fd=fd)
                        except FileExistsError:
                            pass
                        else:
                            os.chmod(c, mode & 0o1777, dir_fd=fd)  # the umask left out bits
                            if st is not None:
                                os.utime(c, ns=(st.st_atime_ns, st.st_mtime_ns), dir_fd=fd)
                    nfd = os.open(c, _DIR_PATH, dir_fd=fd)
                os.close(fd)
                fd = nfd
        except OSError as e:
            os.close(fd)
            raise FileSystemError(errno.ENOTDIR if e.errno == errno.ELOOP else e.errno,
                                  vpath) from None
        finally:
            if lfd >= 0:
                os.close(lfd)
        return fd

    def copy_up(self, ldir: int, udir: int, name: str, vpath: str, rel: str,
                data: bool = True) -> None:
        """Copy lower entry ``name`` of ``ldir`` into upper directory ``udir``: a regular
        file with its data (or, unless ``data``, empty, with its mode), a symlink with its
        target, a directory alone (its entries stay where they are). Built in the work
        directory and renamed into place. FIFOs, sockets and devices are refused (ENXIO)."""
        with self.lock:
            try:
                os.stat(name, dir_fd=udir, follow_symlinks=False)
                return  # already there (another thread copied it)
            except FileNotFoundError:
                pass
            except OSError as e:
                raise FileSystemError(e.errno, vpath) from None
            try:
                st = os.stat(name, dir_fd=ldir, follow_symlinks=False)
            except OSError as e:
                raise FileSystemError(e.errno, vpath) from None
            self.note_base(rel, st)
            with _same_times(udir):  # a copy-up is no change of the directory
                self._copy_up(ldir, udir, name, vpath, st, data)

    def _copy_up(self, ldir: int, udir: int, name: str, vpath: str, st: os.stat_result,
                 data: bool = True) -> None:
        mode = _stat.S_IMODE(st.st_mode) & 0o1777
        if _stat.S_ISDIR(st.st_mode):
            try:
                os.mkdir(name, mode, dir_fd=udir)
                os.chmod(name, mode, dir_fd=udir)
                os.utime(name, ns=(st.st_atime_ns, st.st_mtime_ns), dir_fd=udir)
            except OSError as e:
                raise FileSystemError(e.errno, vpath) from None
            return
        tmp = "cu-" + os.urandom(8).hex()
        try:
            if _stat.S_ISLNK(st.st_mode):
                os.symlink(os.readlink(name, dir_fd=ldir), tmp, dir_fd=self.work_fd)
                os.utime(tmp, ns=(st.st_atime_ns, st.st_mtime_ns), dir_fd=self.work_fd,
                         follow_symlinks=False)
            elif _stat.S_ISREG(st.st_mode):
                self._copy_file(ldir, name, tmp, mode, data, st)
            else:
                raise FileSystemError(errno.ENXIO, vpath)
            os.rename(tmp, name, src_dir_fd=self.work_fd, dst_dir_fd=udir)
        except BaseException as e:
            try:
                os.unlink(tmp, dir_fd=self.work_fd)
            except OSError:
                pass
            if isinstance(e, OSError) and not isinstance(e, FileSystemError):
                raise FileSystemError(e.errno, vpath) from None
            raise

    def _copy_file(self, ldir: int, name: str, tmp: str, mode: int, data: bool,
                   st: os.stat_result) -> None:
        src = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC,
                      dir_fd=ldir) if data else -1
        try:
            if src >= 0 and not _stat.S_ISREG(os.fstat(src).st_mode):
                raise FileSystemError(errno.ENXIO, name)  # swapped since the lstat
            dst = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600,
                          dir_fd=self.work_fd)
            try:
                if src >= 0:
                    if self.charge is not None and st.st_size:
                        self.charge(st.st_size)
                    _copy_fd(src, dst)
                os.fchmod(dst, mode)
                if data:
                    os.utime(dst, ns=(st.st_atime_ns, st.st_mtime_ns))
            finally:
                os.close(dst)
        finally:
            if src >= 0:
                os.close(src)

    def copy_up_tree(self, udir_path: int, ldir_path: int, rel: str, vpath: str) -> None:
        """Make the upper directory at ``udir_path`` (O_PATH) complete: every entry the
        merged view shows beneath it is copied up (for a rename of a merged directory,
        after which the lower one is hidden)."""
        try:
            ufd = os.open(".", _DIR_READ, dir_fd=udir_path)
        except OSError as e:
            raise FileSystemError(e.errno, vpath) from None
        try:
            lfd = os.open(".", _DIR_READ, dir_fd=ldir_path)
        except OSError:
            os.close(ufd)
            return
        try:
            upper_names = {e.name: _etype(e) for e in os.scandir(ufd)}
            for e in os.scandir(lfd):
                sub = f"{rel}/{e.name}" if rel else e.name
                if self.is_hidden(sub):
                    continue
                t = upper_names.get(e.name)
                if t is None:
                    self.copy_up(lfd, ufd, e.name, vpath, sub)
                    t = _etype(e)
                    if t != "d":
                        continue
                elif t != "d" or _etype(e) != "d":
                    continue  # the upper entry masks the lower one
                su = os.open(e.name, _DIR_PATH, dir_fd=ufd)
                try:
                    sl = os.open(e.name, _DIR_PATH, dir_fd=lfd)
                except OSError:
                    os.close(su)
                    continue
                try:
                    self.copy_up_tree(su, sl, sub, vpath)
                finally:
                    os.close(su)
                    os.close(sl)
        except OSError as e:
            raise FileSystemError(e.errno, vpath) from None
        finally:
            os.close(ufd)
            os.close(lfd)


class _same_times:
    """Put a directory's times back after an entry was made in it behind the script's back
    (a copy-up, an upper copy of a directory on the way): only what the script does to a
    directory changes its mtime, as without the overlay."""

    __slots__ = ("fd", "st")

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def __enter__(self) -> None:
        self.st = os.fstat(self.fd)

    def __exit__(self, *exc) -> None:
        try:
            os.utime(f"/proc/self/fd/{self.fd}", ns=(self.st.st_atime_ns, self.st.st_mtime_ns))
        except OSError:
            pass


def touch_dir(fd: int) -> None:
    """Set a directory's mtime to now (an entry of it was deleted by a whiteout)."""
    try:
        os.utime(f"/proc/self/fd/{fd}")
    except OSError:
        pass


_STAT_EXTRA = ("st_atime", "st_mtime", "st_ctime", "st_atime_ns", "st_mtime_ns", "st_ctime_ns",
               "st_blksize", "st_blocks", "st_rdev")


def merged_dir_stat(layer: Layer, st: os.stat_result, udir: int, ldir: int, name: str,
                    rel: str) -> os.stat_result:
    """The stat of an upper directory, with the link count of the merged directory when
    the lower layer has one there too (2 + its subdirectories, as ``find -links`` sees)."""
    if ldir < 0 or layer.is_hidden(rel):
        return st
    try:
        lfd = os.open(name, _DIR_READ, dir_fd=ldir)
    except OSError:
        return st
    try:
        ufd = os.open(name, _DIR_READ, dir_fd=udir)
    except OSError:
        os.close(lfd)
        return st
    try:
        n = 2 + sum(1 for e in merged_entries(layer, ufd, lfd, rel) if e[1] == "d")
    except OSError:
        return st
    finally:
        os.close(ufd)
        os.close(lfd)
    if n == st.st_nlink:
        return st
    seq = list(st)
    seq[3] = n
    return os.stat_result(seq, {k: getattr(st, k) for k in _STAT_EXTRA})


def _copy_fd(src: int, dst: int) -> int:
    total = 0
    try:
        while True:
            n = os.copy_file_range(src, dst, _CHUNK)
            if not n:
                return total
            total += n
    except OSError as e:
        if e.errno not in (errno.EXDEV, errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP) or total:
            raise
    while True:
        b = os.read(src, _CHUNK)
        if not b:
            return total
        view = memoryview(b)
        while view:
            n = os.write(dst, view)
            view = view[n:]
        total += len(b)


def _etype(e: os.DirEntry) -> str:
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


def merged_entries(layer: Layer, ufd: int, lfd: int, rel: str) -> list[tuple[str, str, int]]:
    """(name, type, fd of the directory that holds it) of a merged directory: the upper
    entries, then the lower ones that no upper entry masks and no whiteout hides.
    ``ufd``/``lfd`` are readable directory fds, -1 for a layer that has no such directory."""
    out: list[tuple[str, str, int]] = []
    seen: set[str] = set()
    if ufd >= 0:
        with os.scandir(ufd) as it:
            for e in it:
                out.append((e.name, _etype(e), ufd))
                seen.add(e.name)
    if lfd >= 0:
        hidden = layer.hidden
        prefix = rel + "/" if rel else ""
        with os.scandir(lfd) as it:
            for e in it:
                name = e.name
                if name in seen or (hidden and prefix + name in hidden):
                    continue
                out.append((name, _etype(e), lfd))
    return out


def lower_visible(layer: Layer, ldir: int, name: str, rel: str) -> bool:
    """Whether the lower layer shows an entry ``name`` (at ``rel``) in ``ldir``."""
    if ldir < 0 or layer.is_hidden(rel):
        return False
    try:
        os.stat(name, dir_fd=ldir, follow_symlinks=False)
        return True
    except OSError:
        return False
