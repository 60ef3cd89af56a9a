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

from pysh.shellkit.errors import MountError
from pysh.shellkit.overlay import Layer
from pysh.shellkit.tempdirs import system_temp_root

# Host roots that would expose the host itself. /proc and /sys are refused by name
# at once; every mount is also checked by the type of the file system it is on
# (``MountTable``), which is what refuses /dev, /dev/pts, cgroups and the like while a
# tmpfs under /dev/shm or /run/user/UID is a fine workspace.
_FORBIDDEN_EXACT = ("/",)
_FORBIDDEN_TREES = ("/proc", "/sys")

# Kernel file systems: statfs f_type (linux/magic.h) and their names in mountinfo.
# devtmpfs reports tmpfs's magic, so it is known by name only.
PSEUDO_FS_MAGIC = {
    0x9FA0: "proc", 0x62656572: "sysfs", 0x1CD1: "devpts", 0x27E0EB: "cgroup",
    0x63677270: "cgroup2", 0x73636673: "securityfs", 0x64626720: "debugfs",
    0x74726163: "tracefs", 0xCAFE4A11: "bpf", 0x62656570: "configfs", 0x6165676C: "pstore",
    0xDE5E81E4: "efivarfs", 0x19800202: "mqueue", 0x958458F6: "hugetlbfs",
    0x65735543: "fusectl", 0x42494E4D: "binfmt_misc", 0xF97CFF8C: "selinuxfs",
    0x43415D53: "smackfs", 0x6E736673: "nsfs", 0x0187: "autofs", 0x67596969: "rpc_pipefs",
    0x6E667364: "nfsd",
}
PSEUDO_FS_NAMES = frozenset(PSEUDO_FS_MAGIC.values()) | {"devtmpfs", "sysfs", "proc"}


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


class Mount:
    """``virtual`` shows host directory ``host``; ``read_only`` refuses every write;
    ``overlay`` makes ``host`` the read-only lower layer of a private upper layer that
    takes every write (see :mod:`pysh.shellkit.overlay`). Immutable; compares by
    ``(virtual, host, read_only, overlay)``."""

    __slots__ = ("virtual", "host", "read_only", "overlay", "host_real")

    def __init__(self, virtual: str, host: str | os.PathLike, read_only: bool = False,
                 overlay: bool = False) -> None:
        v = virtual
        if not isinstance(v, str) or not v.startswith("/"):
            raise MountError(f"mount point must be an absolute path: {v!r}")
        if not is_normal_abspath(v):
            raise MountError(f"mount point must be a normalised path: {v!r}")
        if v == "/":
            raise MountError("cannot mount over /")
        if overlay and read_only:
            raise MountError(f"an overlay mount cannot be read-only: {v}")
        host = os.fspath(host)
        if not os.path.isabs(host):
            host = os.path.abspath(host)
        real = os.path.realpath(host)
        if not os.path.isdir(real):
            raise MountError(f"mount source for {v} is not an existing directory")
        _refuse_unsafe_host_root(real, v)
        init = object.__setattr__  # the fields are set once, here
        init(self, "virtual", v)
        init(self, "host", os.path.normpath(host))
        init(self, "read_only", read_only)
        init(self, "overlay", overlay)
        init(self, "host_real", real)  # the canonical (symlink-free) host path

    def __setattr__(self, name, value) -> None:
        raise AttributeError(f"cannot assign to field {name!r} (Mount is immutable)")

    def _key(self) -> tuple:
        return (self.virtual, self.host, self.read_only, self.overlay)

    def __eq__(self, other) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __reduce__(self):  # copy and pickle: rebuilt (and checked again) through __init__
        return Mount, (self.virtual, self.host, self.read_only, self.overlay)

    def __repr__(self) -> str:
        return (f"Mount(virtual={self.virtual!r}, host={self.host!r}, "
                f"read_only={self.read_only!r}, overlay={self.overlay!r})")


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


_TMPFS_MAGICS = (0x01021994, 0x858458F6)  # tmpfs (and devtmpfs), ramfs
_fstatfs = None


def _fs_magic(fd: int) -> int | None:
    """statfs(2) f_type of the file system ``fd`` is on (None where it cannot be asked)."""
    global _fstatfs
    try:
        import ctypes

        if _fstatfs is None:
            _fstatfs = ctypes.CDLL(None, use_errno=True).fstatfs
        buf = ctypes.create_string_buffer(256)  # struct statfs; f_type is its first word
        if _fstatfs(fd, buf) != 0:
            return None
        return ctypes.c_ulong.from_buffer(buf).value & 0xFFFFFFFF
    except (OSError, AttributeError, ValueError):
        return None


def _fs_name(fd: int) -> str | None:
    """The file-system type of ``fd``'s mount as /proc/self/mountinfo names it."""
    try:
        with open(f"/proc/self/fdinfo/{fd}") as f:
            mnt_id = next((ln.split()[1] for ln in f if ln.startswith("mnt_id:")), None)
        if mnt_id is None:
            return None
        with open("/proc/self/mountinfo") as f:
            for line in f:
                if line.split(" ", 1)[0] == mnt_id:
                    return line.split(" - ", 1)[1].split()[0]
    except (OSError, IndexError):
        return None
    return None


def _dir_and_ancestors(path: str | None) -> set[tuple[int, int]]:
    """(st_dev, st_ino) of ``path`` and each directory above it."""
    keys: set[tuple[int, int]] = set()
    if not path or not path.startswith("/"):
        return keys
    p = os.path.realpath(path)
    while True:
        try:
            st = os.stat(p)
            keys.add((st.st_dev, st.st_ino))
        except OSError:
            pass
        if p == "/":
            return keys
        p = os.path.dirname(p)


def home_directories() -> list[str]:
    """The invoking user's home, as $HOME and as the password database say."""
    homes = [os.environ.get("HOME") or ""]
    try:
        import pwd

        homes.append(pwd.getpwuid(os.getuid()).pw_dir)
    except (ImportError, KeyError):
        pass
    return [h for h in homes if h.startswith("/")]


def _stat_mode(st: os.stat_result) -> int:
    return st.st_mode & 0o1777


def _check_host_root(fd: int, m: Mount, allow_home: bool) -> None:
    """Refusals decided on the held root fd: what it is, not how it was spelled."""
    magic = _fs_magic(fd)
    kind = PSEUDO_FS_MAGIC.get(magic) if magic is not None else None
    if kind is None and (magic is None or magic in _TMPFS_MAGICS):
        name = _fs_name(fd)
        if name in PSEUDO_FS_NAMES:
            kind = name
        elif name is None and is_under(m.host_real, "/dev") and not is_under(m.host_real, "/dev/shm"):
            kind = "devtmpfs"  # /proc unreadable: a tmpfs under /dev is taken for /dev itself
    if kind is not None:
        raise MountError(f"refusing to mount a kernel file system ({kind}) at {m.virtual}")
    st = os.fstat(fd)
    key = (st.st_dev, st.st_ino)
    # Directories shared by every user or every program (what is in them is not the
    # workspace's): the temp root, /dev/shm, /var/tmp, the user's runtime dir.
    for shared in (system_temp_root(), "/dev/shm", "/var/tmp", f"/run/user/{os.getuid()}"):
        if key in _dir_and_ancestors(shared):
            raise MountError(f"refusing to mount a shared temporary directory or one of its "
                             f"ancestors at {m.virtual}")
    if not allow_home:
        for home in home_directories():
            if key in _dir_and_ancestors(home):
                raise MountError(
                    f"refusing to mount the home directory or one of its ancestors at "
                    f"{m.virtual} (its keys and tokens live there; allow it on purpose with "
                    f"--allow-home or Sandbox(allow_home=True))")


class MountTable:
    """The mounts of one sandbox instance, each with a held host-root fd.

    Each root is checked on its held fd: not a kernel file system (by statfs type),
    not a shared temp directory or an ancestor of one, and not the invoking user's
    home directory or an ancestor of it unless ``allow_home``.
    """

    def __init__(self, mounts: Iterable[Mount], *, allow_home: bool = False,
                 overlay_area: str | None = None):
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
        self.layers: dict[str, Layer] = {}
        self._area_fds: list[int] = []
        try:
            for m in self.mounts:
                self._fds[m.virtual] = os.open(
                    m.host_real, os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC
                )
                _check_host_root(self._fds[m.virtual], m, allow_home)
        except OSError:
            self.close()
            raise MountError("cannot open a mount source directory") from None
        except MountError:
            self.close()
            raise
        if any(m.overlay for m in self.mounts):
            try:
                self._open_layers(overlay_area)
            except OSError:
                self.close()
                raise MountError("cannot make the overlay area") from None
            except MountError:
                self.close()
                raise
            for m in self.mounts:
                if m.overlay:
                    host_spellings.append((self.layers[m.virtual].upper, m))
            self._host_order = sorted(host_spellings, key=lambda hm: len(hm[0]), reverse=True)

    def _open_layers(self, area: str | None) -> None:
        """The upper layer of each overlay mount: ``u<N>`` in the instance's overlay area
        (kept when it is there already: a restored snapshot), with the ``work`` and
        ``empty`` directories beside (see :mod:`pysh.shellkit.overlay`)."""
        if area is None:
            raise MountError("an overlay mount needs the instance's overlay area")
        area = os.path.realpath(area)
        fds = {}
        for name in ("work", "empty"):
            path = os.path.join(area, name)
            if not os.path.isdir(path):
                os.mkdir(path, 0o700)
            fds[name] = os.open(path, os.O_PATH | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
            self._area_fds.append(fds[name])
        for i, m in enumerate(m for m in self.mounts if m.overlay):
            upper = os.path.join(area, f"u{i}")
            if not os.path.isdir(upper):
                st = os.fstat(self._fds[m.virtual])
                os.mkdir(upper, 0o700)
                os.chmod(upper, _stat_mode(st))  # the merged root shows the lower root's mode
                os.utime(upper, ns=(st.st_atime_ns, st.st_mtime_ns))
            self.layers[m.virtual] = Layer(upper, fds["work"], fds["empty"])

    # -- lifetime -----------------------------------------------------------
    def close(self) -> None:
        fds, self._fds = self._fds, {}
        for layer in self.layers.values():
            layer.close()
        area, self._area_fds = self._area_fds, []
        for fd in [*fds.values(), *area]:
            try:
                os.close(fd)
            except OSError:
                pass

    def overlay_areas(self) -> list[str]:
        """The overlay area's host path (its upper layers and work dir), if there is one."""
        return [os.path.dirname(layer.upper) for layer in list(self.layers.values())[:1]]

    def layer(self, mount: Mount) -> Layer | None:
        """The overlay state of ``mount`` (None unless it is an overlay mount)."""
        return self.layers.get(mount.virtual) if mount.overlay else None

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
