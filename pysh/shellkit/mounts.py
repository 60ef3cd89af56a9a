"""Mounts: which virtual directory shows which host directory.

A :class:`Mount` is a validated value; a :class:`MountTable` holds one
``O_PATH`` directory fd per mount for its whole life, and answers the two
translation questions by component-wise longest prefix:

* virtual -> (mount, components below it)
* host    -> virtual (for folding host paths back on every way out)
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from pysh.shellkit.errors import MountError
from pysh.shellkit.tempdirs import system_temp_root

# Host roots that would expose the host itself. Subtrees of the kernel's
# pseudo file systems are refused too: nothing under them is data.
_FORBIDDEN_EXACT = ("/",)
_FORBIDDEN_TREES = ("/proc", "/sys", "/dev", "/run")


def is_normal_abspath(path: str) -> bool:
    """True for '/a/b': absolute, no '.', '..', '//' or trailing '/'."""
    return path.startswith("/") and posixpath.normpath(path) == path and not path.startswith("//")


def is_under(path: str, root: str) -> bool:
    """Component-wise prefix test on normalised absolute paths (/batchx is not under /batch)."""
    if root == "/":
        return path.startswith("/")
    return path == root or path.startswith(root + "/")


def split_components(path: str) -> list[str]:
    return [c for c in path.split("/") if c]


@dataclass(frozen=True)
class Mount:
    """``virtual`` shows host directory ``host``; ``read_only`` refuses every write."""

    virtual: str
    host: str
    read_only: bool = False
    # The canonical (symlink-free) host path, filled in by validation.
    host_real: str = field(default="", compare=False, repr=False)

    def __post_init__(self) -> None:
        v = self.virtual
        if not isinstance(v, str) or not v.startswith("/"):
            raise MountError(f"mount point must be an absolute path: {v!r}")
        if not is_normal_abspath(v):
            raise MountError(f"mount point must be a normalised path: {v!r}")
        if v == "/":
            raise MountError("cannot mount over /")
        host = os.fspath(self.host)
        if not os.path.isabs(host):
            host = os.path.abspath(host)
        real = os.path.realpath(host)
        if not os.path.isdir(real):
            raise MountError(f"mount source for {v} is not an existing directory")
        _refuse_unsafe_host_root(real, v)
        object.__setattr__(self, "host", os.path.normpath(host))
        object.__setattr__(self, "host_real", real)


def _refuse_unsafe_host_root(real: str, virtual: str) -> None:
    if real in _FORBIDDEN_EXACT:
        raise MountError(f"refusing to mount the host root at {virtual}")
    for tree in _FORBIDDEN_TREES:
        if is_under(real, tree):
            raise MountError(f"refusing to mount a kernel file system ({tree}) at {virtual}")
    temp_root = os.path.realpath(system_temp_root())
    if is_under(temp_root, real):
        raise MountError(
            f"refusing to mount the system temp root or one of its ancestors at {virtual}"
        )


class MountTable:
    """The mounts of one sandbox instance, each with a held host-root fd."""

    def __init__(self, mounts: Iterable[Mount]):
        self.mounts: tuple[Mount, ...] = tuple(mounts)
        seen: set[str] = set()
        for m in self.mounts:
            if m.virtual in seen:
                raise MountError(f"duplicate mount point: {m.virtual}")
            seen.add(m.virtual)
        self._by_virtual = {m.virtual: m for m in self.mounts}
        # Longest first, so the first hit of a linear scan is the longest prefix.
        self._virtual_order = sorted(self.mounts, key=lambda m: len(m.virtual), reverse=True)
        host_spellings = []
        for m in self.mounts:
            host_spellings.append((m.host_real, m))
            if m.host != m.host_real:
                host_spellings.append((m.host, m))
        self._host_order = sorted(host_spellings, key=lambda hm: len(hm[0]), reverse=True)
        # Every strict ancestor of a mount point is a synthetic directory.
        children: dict[str, set[str]] = {}
        for m in self.mounts:
            parts = split_components(m.virtual)
            for i in range(len(parts)):
                parent = "/" + "/".join(parts[:i])
                children.setdefault(parent, set()).add(parts[i])
        self._synthetic = children
        # Mounts that have other mounts beneath them (a fast path must not skip those).
        self.has_nested = {
            m.virtual: any(o is not m and is_under(o.virtual, m.virtual) for o in self.mounts)
            for m in self.mounts
        }
        self._fds: dict[str, int] = {}
        try:
            for m in self.mounts:
                self._fds[m.virtual] = os.open(
                    m.host_real, os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC
                )
        except OSError:
            self.close()
            raise MountError("cannot open a mount source directory") from None

    # -- lifetime -----------------------------------------------------------
    def close(self) -> None:
        fds, self._fds = self._fds, {}
        for fd in fds.values():
            try:
                os.close(fd)
            except OSError:
                pass

    @property
    def closed(self) -> bool:
        return not self._fds and bool(self.mounts)

    def root_fd(self, mount: Mount) -> int:
        return self._fds[mount.virtual]

    # -- virtual side -------------------------------------------------------
    def __iter__(self) -> Iterator[Mount]:
        return iter(self.mounts)

    def get(self, virtual: str) -> Mount | None:
        """The mount whose mount point is exactly ``virtual``."""
        return self._by_virtual.get(virtual)

    def find(self, vpath: str) -> tuple[Mount, str] | None:
        """Longest mount containing normalised ``vpath``, and the path below it ('' at the root)."""
        for m in self._virtual_order:
            if is_under(vpath, m.virtual):
                return m, vpath[len(m.virtual) + 1:]
        return None

    def synthetic_children(self, vpath: str) -> set[str] | None:
        """Names listed by a synthetic ancestor directory, or None if ``vpath`` is not one."""
        return self._synthetic.get(vpath)

    # -- host side ----------------------------------------------------------
    def host_to_virtual(self, host_path: str) -> str | None:
        """Map a host path under some mount's host root to its virtual path (longest host root wins)."""
        p = os.path.normpath(host_path)
        for root, m in self._host_order:
            if is_under(p, root):
                rest = p[len(root):]
                return m.virtual + rest if rest else m.virtual
        return None

    def host_roots(self) -> list[tuple[str, Mount]]:
        """Every host spelling of every mount root, longest first."""
        return list(self._host_order)
