"""Door A: the FileSystem protocol, virtual paths in and out.

Builtins, globbing, redirections and ``cd`` reach files only through an
object of this shape (``shell.fs``). Paths are virtual: absolute, or
relative to the ``cwd`` the object is bound to. Every failure is a
:class:`~pysh.shellkit.errors.FileSystemError` naming the virtual path.

The implementation over the confinement core is
``pysh.interpreter.filesystems.MountedFileSystem``; it holds no path logic of
its own.
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from collections.abc import Iterator

from pysh.shellkit.confine import WalkDir

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)

if TYPE_CHECKING:
    from typing import BinaryIO


class DirEntry:
    """A name in a directory with its type: 'd' directory, 'f' file, 'l' symlink, 'o' other."""

    __slots__ = ("name", "type", "path")

    def __init__(self, name: str, type_: str, path: str):
        self.name = name
        self.type = type_
        self.path = path

    def is_dir(self) -> bool:
        return self.type == "d"

    def is_file(self) -> bool:
        return self.type == "f"

    def is_symlink(self) -> bool:
        return self.type == "l"

    def __repr__(self) -> str:
        return f"DirEntry({self.path!r}, {self.type!r})"


class FileSystem(ABC):
    """The operations a command may perform on files."""

    cwd: str
    budget = None  # the run's Budget its files count against (None: no limits)

    @abstractmethod
    def at(self, cwd: str) -> FileSystem:
        """The same file system, with relative paths taken against ``cwd``."""

    def with_budget(self, budget) -> FileSystem:
        """The same file system, its reads and writes bounded by ``budget``'s limits.

        Whole-file reads stop past ``max_string_length``; writes stop at
        ``max_file_size`` and ``max_total_written`` (see ``shellkit.capped``).
        """
        return self

    def abspath(self, path: str) -> str:
        """``path`` made absolute against ``cwd`` (no normalisation: '..' stays physical)."""
        if path.startswith("/"):
            return path
        if self.cwd == "/":
            return "/" + path
        return self.cwd + "/" + path if path else self.cwd

    # -- reading and writing ----------------------------------------------
    @abstractmethod
    def open(self, path: str, mode: str = "rb", *, perm: int = 0o666) -> BinaryIO:
        """Binary modes: rb, wb, ab, xb, r+b, w+b, a+b. ``perm`` applies when creating."""

    def read_bytes(self, path: str) -> bytes:
        """The whole file (bounded like every whole-file read of the door)."""
        with self.open(path, "rb") as f:
            return f.read()

    def write_bytes(self, path: str, data: bytes) -> int:
        with self.open(path, "wb") as f:
            return f.write(data)

    def append_bytes(self, path: str, data: bytes) -> int:
        with self.open(path, "ab") as f:
            return f.write(data)

    # -- metadata -----------------------------------------------------------
    @abstractmethod
    def stat(self, path: str) -> os.stat_result: ...

    @abstractmethod
    def lstat(self, path: str) -> os.stat_result: ...

    def exists(self, path: str) -> bool:
        try:
            self.stat(path)
            return True
        except OSError:
            return False

    def lexists(self, path: str) -> bool:
        try:
            self.lstat(path)
            return True
        except OSError:
            return False

    def is_dir(self, path: str) -> bool:
        import stat as _stat

        try:
            return _stat.S_ISDIR(self.stat(path).st_mode)
        except OSError:
            return False

    def is_file(self, path: str) -> bool:
        import stat as _stat

        try:
            return _stat.S_ISREG(self.stat(path).st_mode)
        except OSError:
            return False

    @abstractmethod
    def access(self, path: str, mode: int) -> bool:
        """os.access semantics; W_OK is False on read-only mounts and synthetic nodes."""

    # -- directories --------------------------------------------------------
    @abstractmethod
    def scandir(self, path: str) -> list[DirEntry]:
        """Entries of a directory (unsorted, without '.' and '..')."""

    def listdir(self, path: str) -> list[str]:
        """Sorted names in a directory."""
        return sorted(e.name for e in self.scandir(path))

    @abstractmethod
    def mkdir(self, path: str, mode: int = 0o777, *, parents: bool = False,
              exist_ok: bool = False) -> None: ...

    @abstractmethod
    def rmdir(self, path: str) -> None: ...

    @abstractmethod
    def walk(self, top: str, *, follow_symlinks: bool = False, onerror=None) -> Iterator[WalkDir]:
        """Top-down walk through held dir fds (see ``Confinement.walk``)."""

    # -- names --------------------------------------------------------------
    @abstractmethod
    def unlink(self, path: str) -> None: ...

    @abstractmethod
    def rename(self, src: str, dst: str) -> None:
        """Within a mount atomically; across mounts as copy + delete."""

    @abstractmethod
    def symlink(self, target: str, path: str) -> None:
        """An absolute virtual ``target`` is stored relative to ``path``'s directory."""

    @abstractmethod
    def readlink(self, path: str) -> str: ...

    @abstractmethod
    def link(self, src: str, dst: str) -> None:
        """Hard link; never follows ``src``'s last component."""

    @abstractmethod
    def realpath(self, path: str) -> str:
        """Canonical virtual path (symlinks resolved; the last component may be missing)."""

    # -- attributes ---------------------------------------------------------
    @abstractmethod
    def chmod(self, path: str, mode: int, *, follow_symlinks: bool = True) -> None:
        """Setuid and setgid bits are always stripped."""

    @abstractmethod
    def utime(self, path: str, times: tuple[float, float] | None = None, *,
              ns: tuple[int, int] | None = None, follow_symlinks: bool = True) -> None: ...

    @abstractmethod
    def truncate(self, path: str, size: int) -> None: ...

    # -- mounts -------------------------------------------------------------
    @abstractmethod
    def mounts(self) -> list[tuple[str, bool]]:
        """(virtual mount point, read_only) for every mount."""

    @abstractmethod
    def statvfs(self, path: str) -> os.statvfs_result:
        """File-system figures of the mount holding ``path``."""
