"""MountedFileSystem: the FileSystem door over the confinement core.

A thin adapter: it makes paths absolute against its cwd, calls the core, and
wraps fds in file objects. Every path decision is the core's.
"""

from __future__ import annotations

import errno
import io
import os
import stat as _stat
from collections.abc import Iterator

from pysh.shellkit.capped import admit_truncate, door_file
from pysh.shellkit.confine import COMMAND, COMMAND_MARKER, Confinement, WalkDir
from pysh.shellkit.errors import FileSystemError
from pysh.shellkit.filesystem import DirEntry, FileSystem

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)

if TYPE_CHECKING:
    from typing import BinaryIO

_MODES = {
    "rb": os.O_RDONLY,
    "wb": os.O_WRONLY | os.O_CREAT | os.O_TRUNC,
    "ab": os.O_WRONLY | os.O_CREAT | os.O_APPEND,
    "xb": os.O_WRONLY | os.O_CREAT | os.O_EXCL,
    "r+b": os.O_RDWR,
    "w+b": os.O_RDWR | os.O_CREAT | os.O_TRUNC,
    "a+b": os.O_RDWR | os.O_CREAT | os.O_APPEND,
}


class MountedFileSystem(FileSystem):
    def __init__(self, core: Confinement, cwd: str = "/", budget=None):
        self.core = core
        self.cwd = cwd
        self.budget = budget

    def at(self, cwd: str) -> MountedFileSystem:
        return MountedFileSystem(self.core, cwd, self.budget)

    def with_budget(self, budget) -> MountedFileSystem:
        return MountedFileSystem(self.core, self.cwd, budget)

    # -- reading and writing ----------------------------------------------
    def open(self, path: str, mode: str = "rb", *, perm: int = 0o666) -> BinaryIO:
        mode = mode.replace("br", "rb").replace("bw", "wb").replace("ba", "ab")
        flags = _MODES.get(mode)
        if flags is None:
            raise ValueError(f"unsupported mode {mode!r} (binary modes only)")
        vpath = self.abspath(path)
        try:
            fd = self.core.open(vpath, flags, perm)
        except FileSystemError as e:
            if e.errno == errno.EACCES and flags == os.O_RDONLY:
                node = self._kind(vpath)
                if node == COMMAND:
                    return io.BytesIO(COMMAND_MARKER)
            raise
        try:
            return door_file(fd, mode, self.budget, vpath)
        except OSError as e:
            os.close(fd)
            raise FileSystemError(e.errno, vpath) from None

    def _kind(self, vpath: str) -> str | None:
        try:
            return self.core.kind(vpath).kind
        except FileSystemError:
            return None

    # -- metadata -----------------------------------------------------------
    def stat(self, path: str) -> os.stat_result:
        return self.core.stat(self.abspath(path), follow=True)

    def lstat(self, path: str) -> os.stat_result:
        return self.core.stat(self.abspath(path), follow=False)

    def access(self, path: str, mode: int) -> bool:
        return self.core.access(self.abspath(path), mode)

    # -- directories --------------------------------------------------------
    def scandir(self, path: str) -> list[DirEntry]:
        vpath = self.abspath(path)
        base = vpath if vpath.endswith("/") else vpath + "/"
        return [DirEntry(name, t, base + name) for name, t in self.core.scandir(vpath)]

    def mkdir(self, path: str, mode: int = 0o777, *, parents: bool = False,
              exist_ok: bool = False) -> None:
        vpath = self.abspath(path)
        if not parents:
            try:
                self.core.mkdir(vpath, mode)
            except FileSystemError as e:
                if not (exist_ok and e.errno == errno.EEXIST and self.is_dir(vpath)):
                    raise
            return
        comps = vpath.split("/")
        for i in range(2, len(comps) + 1):
            prefix = "/".join(comps[:i])
            if not comps[i - 1] or comps[i - 1] in (".", ".."):
                continue
            try:
                self.core.mkdir(prefix, mode if i == len(comps) else 0o777)
            except FileSystemError as e:
                if e.errno != errno.EEXIST:
                    raise FileSystemError(e.errno, vpath) from None
                try:
                    st = self.core.stat(prefix, follow=True)
                except FileSystemError as e2:
                    raise FileSystemError(e2.errno, vpath) from None
                if not _stat.S_ISDIR(st.st_mode):
                    code = errno.EEXIST if i == len(comps) else errno.ENOTDIR
                    raise FileSystemError(code, vpath) from None

    def rmdir(self, path: str) -> None:
        self.core.rmdir(self.abspath(path))

    def walk(self, top: str, *, follow_symlinks: bool = False, onerror=None) -> Iterator[WalkDir]:
        return self.core.walk(self.abspath(top), follow_symlinks=follow_symlinks, onerror=onerror)

    # -- names --------------------------------------------------------------
    def unlink(self, path: str) -> None:
        self.core.unlink(self.abspath(path))

    def rename(self, src: str, dst: str) -> None:
        vsrc, vdst = self.abspath(src), self.abspath(dst)
        try:
            self.core.rename(vsrc, vdst)
        except FileSystemError as e:
            if e.errno != errno.EXDEV:
                raise
            self._copy_tree(vsrc, vdst)
            self._remove_tree(vsrc)

    def _copy_tree(self, src: str, dst: str) -> None:
        st = self.lstat(src)
        if _stat.S_ISLNK(st.st_mode):
            self.symlink(self.readlink(src), dst)
        elif _stat.S_ISDIR(st.st_mode):
            self.mkdir(dst, _stat.S_IMODE(st.st_mode) | 0o700)
            for e in self.scandir(src):
                self._copy_tree(e.path, dst.rstrip("/") + "/" + e.name)
            self.chmod(dst, _stat.S_IMODE(st.st_mode))
        else:
            with self.open(src, "rb") as fin, self.open(dst, "wb") as fout:
                while chunk := fin.read(1 << 20):
                    fout.write(chunk)
            self.chmod(dst, _stat.S_IMODE(st.st_mode))
        self.utime(dst, ns=(st.st_atime_ns, st.st_mtime_ns), follow_symlinks=False)

    def _remove_tree(self, path: str) -> None:
        st = self.lstat(path)
        if _stat.S_ISDIR(st.st_mode):
            for e in self.scandir(path):
                self._remove_tree(e.path)
            self.rmdir(path)
        else:
            self.unlink(path)

    def symlink(self, target: str, path: str) -> None:
        self.core.symlink(target, self.abspath(path))

    def readlink(self, path: str) -> str:
        return self.core.readlink(self.abspath(path))

    def link(self, src: str, dst: str) -> None:
        self.core.link(self.abspath(src), self.abspath(dst))

    def realpath(self, path: str) -> str:
        return self.core.realpath(self.abspath(path))

    # -- attributes ---------------------------------------------------------
    def chmod(self, path: str, mode: int, *, follow_symlinks: bool = True) -> None:
        self.core.chmod(self.abspath(path), mode, follow=follow_symlinks)

    def utime(self, path: str, times=None, *, ns=None, follow_symlinks: bool = True) -> None:
        self.core.utime(self.abspath(path), times, ns=ns, follow=follow_symlinks)

    def truncate(self, path: str, size: int) -> None:
        vpath = self.abspath(path)
        fd = self.core.open(vpath, os.O_WRONLY | os.O_CREAT)
        try:
            if self.budget is not None:
                admit_truncate(self.budget, fd, size)
            os.ftruncate(fd, size)
        except OSError as e:
            raise FileSystemError(e.errno, vpath) from None
        finally:
            os.close(fd)

    # -- mounts -------------------------------------------------------------
    def mounts(self) -> list[tuple[str, bool]]:
        return [(m.virtual, m.read_only) for m in self.core.table]

    def statvfs(self, path: str) -> os.statvfs_result:
        vpath = self.abspath(path)
        with self.core.resolve(vpath, follow=True) as res:
            if res.mount is None:
                raise FileSystemError(errno.ENOSYS, vpath)
            return self.core.statvfs(res.mount)
