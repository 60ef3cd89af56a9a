"""Every file git touches, opened through the confinement core at the moment of use.

Nothing here hands a host path to anyone. A virtual path is resolved by the core
(``shell.core.resolve``: held directory fds, symlinks judged by the core's rules), and
the one system call that follows acts on the directory fd the core returned, with
``O_NOFOLLOW`` on the leaf: what is opened is what was checked, whatever happens to
the names meanwhile.

:class:`GitDir` adds git's own rule on top: a file of the git dir (objects, packs,
refs, packed-refs, reflogs, index, config, HEAD...) must *be* inside the git dir. A
symlink inside it (or a directory reached through one) whose target leaves the git
dir is refused, whoever planted it and whenever it appears: the check is made on the
canonical location of the held directory, at open time.

Writes never go through a path either: a lock file is created with ``O_EXCL`` in the
held directory and renamed over its target in that same directory. On a read-only
mount every write fails before anything is written, with git's message
(``Unable to create '.../index.lock': Read-only file system``).
"""

from __future__ import annotations

import errno
import os
import posixpath
import stat as _stat

from pysh.shellkit import FileSystemError, Shell
from pysh.shellkit.capped import write_fd
from pysh.shellkit.confine import HOST, open_leaf


# ------------------------------------------------------------------ errors
class GitExit(Exception):
    """Stop the command: print ``message`` (already prefixed) to stderr, exit ``status``."""

    def __init__(self, message: str, status: int = 128):
        super().__init__(message)
        self.message = message
        self.status = status


def fatal(msg: str) -> GitExit:
    return GitExit(f"fatal: {msg}", 128)


def usage_error(msg: str) -> GitExit:
    return GitExit(msg, 129)


class LockError(GitExit):
    """A lock file could not be created; ``reason`` is git's sentence without a prefix."""

    def __init__(self, vlock: str, code: int):
        self.vlock = vlock
        self.code = code
        if code == errno.EEXIST:
            self.reason = (
                f"Unable to create '{vlock}': File exists.\n\n"
                "Another git process seems to be running in this repository, e.g.\n"
                "an editor opened by 'git commit'. Please make sure all processes\n"
                "are terminated then try again. If it still fails, a git process\n"
                "may have crashed in this repository earlier:\n"
                "remove the file manually to continue.")
        else:
            self.reason = f"Unable to create '{vlock}': {os.strerror(code)}"
        super().__init__(f"fatal: {self.reason}", 128)


def vjoin(a: str, b: str) -> str:
    if not b:
        return a
    return posixpath.normpath(a.rstrip("/") + "/" + b) if a != "/" else posixpath.normpath("/" + b)


# Every leaf is opened by the core's open_leaf (O_NOFOLLOW, never blocking on a special
# file, never writing a file with other hard links) on the directory fd it resolved.
_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL


def _regular_fd(fd: int, vpath: str) -> os.stat_result:
    """fstat of a fd that must be a regular file (a FIFO, socket or device is refused)."""
    st = os.fstat(fd)
    if not _stat.S_ISREG(st.st_mode):
        os.close(fd)
        raise FileSystemError(errno.EISDIR if _stat.S_ISDIR(st.st_mode) else errno.EACCES, vpath)
    return st


def _read_fd(fd: int, shell: Shell | None, vpath: str, cap: int | None) -> bytes:
    chunks = []
    total = 0
    try:
        while True:
            try:
                b = os.read(fd, 1 << 20)
            except OSError as e:
                raise FileSystemError(e.errno or errno.EIO, vpath) from None
            if not b:
                break
            total += len(b)
            if cap is not None and total > cap:
                from pysh.shellkit import LimitExceeded

                raise LimitExceeded("string", f"{cap} bytes")
            chunks.append(b)
            if shell is not None and len(chunks) & 15 == 0:
                shell.budget.check()
    finally:
        os.close(fd)
    return b"".join(chunks)


# --------------------------------------------------------------- the git dir
class GitDir:
    """The files of one git dir, by name relative to it (``"refs/heads/main"``)."""

    def __init__(self, shell: Shell, vgit: str):
        self.shell = shell
        self.core = shell.core
        self.root = vgit  # canonical (symlinks resolved), see open_gitdir()
        self._prefix = vgit.rstrip("/") + "/"

    def vpath(self, rel: str) -> str:
        return vjoin(self.root, rel)

    def inside(self, canonical: str) -> bool:
        return canonical == self.root or canonical.startswith(self._prefix)

    # -- resolution ------------------------------------------------------------
    def resolve(self, rel: str, follow: bool = True, write: bool = False):
        """The core's resolution of ``rel``; refused unless it lands inside the git dir.
        ``write``: the leaf is about to be created or changed in its held directory (on an
        overlay mount, the upper layer's, with an existing file copied up)."""
        vpath = self.vpath(rel)
        try:
            res = self.core.resolve(vpath, follow=follow, write=write)
        except FileSystemError as e:
            if e.errno in (errno.EACCES, errno.ELOOP):
                self._explain(rel)
            raise FileSystemError(e.errno, vpath) from None
        if res.kind != HOST or not self.inside(res.vpath):
            res.close()
            raise self.refusal(rel)
        return res

    def refusal(self, rel: str) -> GitExit:
        """git's kind of message for an internal that leads out of the repository."""
        link = self._first_link(rel) or rel
        return fatal(f"refusing the repository at {self.root}: '{link}' is a symlink out of "
                     "the repository")

    def _first_link(self, rel: str) -> str | None:
        parts = [p for p in rel.split("/") if p]
        for i in range(1, len(parts) + 1):
            sub = "/".join(parts[:i])
            try:
                st = self.core.stat(self.vpath(sub), follow=False)
            except FileSystemError:
                return None
            if _stat.S_ISLNK(st.st_mode):
                return sub
        return None

    def _explain(self, rel: str) -> None:
        """The core refused: when a symlink is on the way, say so as git would."""
        if self._first_link(rel) is not None:
            raise self.refusal(rel)

    # -- reading -----------------------------------------------------------------
    def open_fd(self, rel: str) -> int:
        """A fd of the regular file ``rel`` (FileSystemError: ENOENT, ...)."""
        vpath = self.vpath(rel)
        with self.resolve(rel) as res:
            try:
                fd = open_leaf(res.name, os.O_RDONLY, 0, res.dir_fd, vpath)
            except FileSystemError as e:
                if e.errno == errno.ELOOP:  # became a symlink since the core looked
                    raise self.refusal(rel) from None
                raise
        _regular_fd(fd, vpath)
        return fd

    def open_file(self, rel: str):
        """A binary file object (for dulwich's pack readers, which mmap it)."""
        fd = self.open_fd(rel)
        return os.fdopen(fd, "rb")

    def read(self, rel: str, cap: int | None = None) -> bytes:
        return _read_fd(self.open_fd(rel), self.shell, self.vpath(rel), cap)

    def read_opt(self, rel: str, cap: int | None = None) -> bytes | None:
        """The content, or None when the file does not exist (or is a directory)."""
        try:
            return self.read(rel, cap)
        except FileSystemError as e:
            if e.errno in (errno.ENOENT, errno.ENOTDIR, errno.EISDIR):
                return None
            raise

    def stat(self, rel: str, follow: bool = True) -> os.stat_result | None:
        """stat (lstat unless ``follow``) of ``rel``, or None when it does not exist."""
        try:
            res = self.resolve(rel, follow=follow)
        except FileSystemError as e:
            if e.errno in (errno.ENOENT, errno.ENOTDIR):
                return None
            raise
        with res:
            if res.st is not None:
                return res.st
            try:
                return os.stat(res.name, dir_fd=res.dir_fd, follow_symlinks=False)
            except OSError as e:
                if e.errno in (errno.ENOENT, errno.ENOTDIR):
                    return None
                raise FileSystemError(e.errno or errno.EIO, self.vpath(rel)) from None

    def exists(self, rel: str) -> bool:
        return self.stat(rel) is not None

    def isdir(self, rel: str) -> bool:
        st = self.stat(rel)
        return st is not None and _stat.S_ISDIR(st.st_mode)

    def listdir(self, rel: str) -> list[tuple[str, str]]:
        """(name, type) of a directory's entries: 'd', 'f', 'l' (symlink) or 'o'; [] if absent."""
        vpath = self.vpath(rel)
        try:
            res = self.resolve(rel)
        except FileSystemError as e:
            if e.errno in (errno.ENOENT, errno.ENOTDIR):
                return []
            raise
        with res:
            try:  # through the core: an overlay mount's two layers are listed merged
                return self.core.list_resolved(res, vpath)
            except FileSystemError as e:
                if e.errno in (errno.ENOENT, errno.ENOTDIR):
                    return []
                if e.errno == errno.ELOOP:
                    raise self.refusal(rel) from None
                raise

    def entry_kind(self, rel: str, t: str) -> str:
        """The kind ('d'/'f'/'o') of a listed entry, a symlink judged by where it leads."""
        if t != "l":
            return t
        st = self.stat(rel)
        if st is None:
            return "o"
        return "d" if _stat.S_ISDIR(st.st_mode) else "f" if _stat.S_ISREG(st.st_mode) else "o"

    # -- writing -----------------------------------------------------------------
    def _writable(self, res, vlock: str) -> None:
        if res.mount is not None and res.mount.read_only:
            raise LockError(vlock, errno.EROFS)

    def lock(self, rel: str) -> Lock:
        """Create ``rel.lock`` (O_EXCL) in the held directory of ``rel``; LockError if not."""
        vlock = self.vpath(rel) + ".lock"
        try:
            res = self.resolve(rel, follow=False, write=True)
        except FileSystemError as e:
            raise LockError(vlock, e.errno or errno.EIO) from None
        with res:
            self._writable(res, vlock)
            if res.name in (".", ""):
                raise LockError(vlock, errno.EISDIR)
            try:
                fd = open_leaf(res.name + ".lock", _CREATE, 0o666 & ~self.shell.umask,
                               res.dir_fd, vlock)
            except FileSystemError as e:
                raise LockError(vlock, e.errno or errno.EIO) from None
            try:
                dfd = os.dup(res.dir_fd)
            except OSError:
                os.close(fd)
                raise
        return Lock(self, rel, dfd, res.name, fd)

    def write(self, rel: str, data: bytes) -> None:
        """Replace ``rel`` atomically (lock file + rename in the same held directory)."""
        lk = self.lock(rel)
        try:
            lk.write(data)
            lk.commit()
        finally:
            lk.release()

    def write_new(self, rel: str, data: bytes, mode: int = 0o444) -> bool:
        """Write a file that must not change once written (a loose object): a private temp
        file renamed into place. False when it already existed."""
        vpath = self.vpath(rel)
        if self.stat(rel, follow=False) is not None:
            return False
        res = self.resolve(rel, follow=False, write=True)
        with res:
            self._writable(res, vpath)
            try:
                os.stat(res.name, dir_fd=res.dir_fd, follow_symlinks=False)
                return False
            except FileNotFoundError:
                pass
            except OSError as e:
                raise FileSystemError(e.errno or errno.EIO, vpath) from None
            tmp = f"tmp_obj_{os.getpid()}_{os.urandom(6).hex()}"
            try:
                fd = open_leaf(tmp, _CREATE, mode, res.dir_fd, vpath)
            except FileSystemError as e:
                raise FileSystemError(e.errno or errno.EIO, vpath) from None
            try:
                try:
                    _write_all(fd, data, self.shell.budget)
                finally:
                    os.close(fd)
                os.rename(tmp, res.name, src_dir_fd=res.dir_fd, dst_dir_fd=res.dir_fd)
            except OSError as e:
                try:
                    os.unlink(tmp, dir_fd=res.dir_fd)
                except OSError:
                    pass
                raise FileSystemError(e.errno or errno.EIO, vpath) from None
        return True

    def append(self, rel: str, data: bytes) -> None:
        """Append to ``rel`` (a reflog), creating it (the core refuses a file with other links)."""
        vpath = self.vpath(rel)
        res = self.resolve(rel, write=True)
        with res:
            self._writable(res, vpath)
            fd = open_leaf(res.name, os.O_WRONLY | os.O_APPEND | os.O_CREAT,
                           0o666 & ~self.shell.umask, res.dir_fd, vpath)
        _regular_fd(fd, vpath)  # closes it when it is not a regular file
        try:
            _write_all(fd, data, self.shell.budget)
        finally:
            os.close(fd)

    def unlink(self, rel: str, missing_ok: bool = True) -> bool:
        """Remove the name ``rel`` (never what a symlink there points at)."""
        vpath = self.vpath(rel)
        try:
            res = self.resolve(rel, follow=False)
        except FileSystemError as e:
            if missing_ok and e.errno in (errno.ENOENT, errno.ENOTDIR):
                return False
            raise
        with res:
            self._writable(res, vpath)
            try:
                self.core.remove(res, vpath)
            except OSError as e:
                if missing_ok and e.errno == errno.ENOENT:
                    return False
                raise FileSystemError(e.errno or errno.EIO, vpath) from None
        return True

    def rmdir(self, rel: str) -> bool:
        try:
            res = self.resolve(rel, follow=False)
        except FileSystemError:
            return False
        with res:
            if res.name in (".", "") or (res.mount is not None and res.mount.read_only):
                return False
            try:
                self.core.remove(res, self.vpath(rel), True)
            except OSError:
                return False
        return True

    def remove_empty_parents(self, rel: str, stop: str) -> None:
        """rmdir the emptied parents of ``rel`` up to (not including) ``stop``."""
        parent = posixpath.dirname(rel)
        while parent and parent != stop and parent.startswith(stop + "/"):
            if not self.rmdir(parent):
                break
            parent = posixpath.dirname(parent)

    def mkdirs(self, rel: str) -> None:
        """``mkdir -p`` of ``rel`` inside the git dir."""
        parts = [p for p in rel.split("/") if p]
        for i in range(1, len(parts) + 1):
            sub = "/".join(parts[:i])
            vpath = self.vpath(sub)
            res = self.resolve(sub, follow=False)
            with res:
                if res.name in (".", ""):
                    continue
                st = res.st
                if st is None:
                    try:
                        st = os.stat(res.name, dir_fd=res.dir_fd, follow_symlinks=False)
                    except FileNotFoundError:
                        st = None
                    except OSError as e:
                        raise FileSystemError(e.errno or errno.EIO, vpath) from None
                if st is not None and _stat.S_ISDIR(st.st_mode):
                    continue
                if st is not None and _stat.S_ISLNK(st.st_mode):
                    # a link to a directory inside the git dir is used as the directory
                    if self.isdir(sub):
                        continue
                self._writable(res, vpath)
                self._mkdir(sub, vpath)

    def _mkdir(self, sub: str, vpath: str) -> None:
        # resolved for writing: on an overlay mount, made in the upper layer
        with self.resolve(sub, follow=False, write=True) as res:
            try:
                os.mkdir(res.name, 0o777 & ~self.shell.umask, dir_fd=res.dir_fd)
            except FileExistsError:
                if not self.isdir(sub):
                    raise FileSystemError(errno.EEXIST, vpath) from None
            except OSError as e:
                raise FileSystemError(e.errno or errno.EIO, vpath) from None


class Lock:
    """A held ``X.lock``: write the new content, then commit (rename) or release (remove)."""

    __slots__ = ("gitdir", "rel", "dfd", "name", "fd", "done")

    def __init__(self, gitdir: GitDir, rel: str, dfd: int, name: str, fd: int):
        self.gitdir, self.rel, self.dfd, self.name, self.fd = gitdir, rel, dfd, name, fd
        self.done = False

    def write(self, data: bytes) -> None:
        try:
            _write_all(self.fd, data, self.gitdir.shell.budget)
        except OSError as e:
            raise FileSystemError(e.errno or errno.EIO, self.gitdir.vpath(self.rel) + ".lock") from None

    def commit(self) -> None:
        """Close the lock file and rename it over its target (in the held directory)."""
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1
        try:
            os.rename(self.name + ".lock", self.name, src_dir_fd=self.dfd, dst_dir_fd=self.dfd)
        except OSError as e:
            raise FileSystemError(e.errno or errno.EIO, self.gitdir.vpath(self.rel)) from None
        self.done = True

    def release(self) -> None:
        """Drop the lock (removing the lock file unless committed)."""
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1
        if self.dfd >= 0:
            if not self.done:
                try:
                    os.unlink(self.name + ".lock", dir_fd=self.dfd)
                except OSError:
                    pass
            os.close(self.dfd)
            self.dfd = -1

    def __enter__(self) -> Lock:
        return self

    def __exit__(self, *exc) -> None:
        self.release()


def _write_all(fd: int, data: bytes | memoryview, budget) -> None:
    write_fd(budget, fd, data)  # within the run's write limits


# ------------------------------------------------ any virtual path (door A)
# Paths may be relative (to the shell's cwd); errors name them as given.
def lstat(shell: Shell, vpath: str) -> os.stat_result | None:
    try:
        return shell.core.stat(shell.abspath(vpath), follow=False)
    except OSError:
        return None


def stat(shell: Shell, vpath: str) -> os.stat_result | None:
    try:
        return shell.core.stat(shell.abspath(vpath), follow=True)
    except OSError:
        return None


def exists(shell: Shell, vpath: str, follow: bool = True) -> bool:
    return (stat(shell, vpath) if follow else lstat(shell, vpath)) is not None


def is_dir(shell: Shell, vpath: str) -> bool:
    st = stat(shell, vpath)
    return st is not None and _stat.S_ISDIR(st.st_mode)


def _open(shell: Shell, vpath: str, flags: int, mode: int = 0o666) -> int:
    try:
        return shell.core.open(shell.abspath(vpath), flags, mode)
    except FileSystemError as e:
        raise FileSystemError(e.errno, vpath) from None


def open_regular(shell: Shell, vpath: str) -> tuple[int, os.stat_result]:
    """A fd for reading a regular file (links followed by the core; never blocks on a FIFO)."""
    fd = _open(shell, vpath, os.O_RDONLY)
    return fd, _regular_fd(fd, vpath)


def read_file(shell: Shell, vpath: str) -> bytes:
    """A file the user named (``commit -F``, ``diff --no-index``, excludes, config):
    bounded by the run's string limit and polled against the budget."""
    fd = _open(shell, vpath, os.O_RDONLY)
    st = os.fstat(fd)
    if _stat.S_ISDIR(st.st_mode):
        os.close(fd)
        raise FileSystemError(errno.EISDIR, vpath)
    if _stat.S_ISFIFO(st.st_mode) or _stat.S_ISSOCK(st.st_mode):
        os.close(fd)
        raise FileSystemError(errno.ENXIO, vpath)
    return _read_fd(fd, shell, vpath, shell.budget.limits.max_string_length)


def write_file(shell: Shell, vpath: str, data: bytes, *, exclusive: bool = False,
               mode: int = 0o666) -> None:
    """Create or truncate a file outside any git dir (``config --file``, a work-tree file)."""
    flags = os.O_WRONLY | os.O_CREAT | (os.O_EXCL if exclusive else os.O_TRUNC)
    fd = _open(shell, vpath, flags, mode & ~shell.umask)
    _regular_fd(fd, vpath)  # closes it when it is not a regular file
    try:
        _write_all(fd, data, shell.budget)
    finally:
        os.close(fd)


def replace_file(shell: Shell, vpath: str, data: bytes) -> None:
    """Replace a file outside a git dir (the global config): lock file + rename, through the core."""
    vpath = shell.abspath(vpath)
    lock = vpath + ".lock"
    try:
        fd = shell.core.open(lock, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666 & ~shell.umask)
    except FileSystemError as e:
        ro = _read_only(shell, vpath)
        raise LockError(lock, errno.EROFS if ro else e.errno or errno.EIO) from None
    try:
        _write_all(fd, data, shell.budget)
    except OSError as e:
        os.close(fd)
        shell.core.unlink(lock)
        raise FileSystemError(e.errno or errno.EIO, vpath) from None
    os.close(fd)
    shell.core.rename(lock, vpath)


def _read_only(shell: Shell, vpath: str) -> bool:
    hit = shell.core.table.find(posixpath.normpath(vpath))
    return hit is not None and hit[0].read_only
