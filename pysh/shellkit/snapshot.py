"""Session snapshots: a header (version, shell state, overlay bookkeeping) and a tar
stream of directory trees (an instance's upper layers and its ``/tmp``).

Packing walks the trees through directory fds (``O_NOFOLLOW``; regular files,
directories and symlinks only). Unpacking treats the stream as hostile: members are
regular files, directories and symlinks only, their names relative, normalised and
free of ``..``; each is made beneath a directory fd, every parent opened without
following a link (a symlink member cannot redirect a later one), files created
``O_EXCL``; member and byte counts are capped. Anything else is :class:`SnapshotError`
and nothing of the snapshot is used.
"""

from __future__ import annotations

import errno
import hashlib
import io
import json
import os
import stat as _stat
import tarfile

MAGIC = b"PYSH-SNAPSHOT\n"
VERSION = 1
MAX_HEADER = 64 << 20
_DIR_READ = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_DIR_PATH = os.O_PATH | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


class SnapshotError(ValueError):
    """The data is not a snapshot this version can restore (or it is hostile)."""


# ------------------------------------------------------------------------ packing
def pack(header: dict, trees: list[tuple[str, int]]) -> bytes:
    """The snapshot bytes: ``header`` (JSON-ready) and each (prefix, directory fd) tree."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w|", format=tarfile.PAX_FORMAT) as tar:
        for prefix, fd in trees:
            _pack_tree(tar, prefix, fd)
    body = buf.getvalue()
    # the stream's length and digest: a truncated or altered snapshot is refused whole,
    # before anything of it is used
    head = json.dumps({**header, "version": VERSION, "tar_size": len(body),
                       "tar_sha256": hashlib.sha256(body).hexdigest()}).encode()
    return MAGIC + b"%d\n" % len(head) + head + body


def _pack_tree(tar: tarfile.TarFile, prefix: str, root: int) -> None:
    top = os.open(".", _DIR_READ, dir_fd=root)
    stack = [(top, prefix)]
    try:
        while stack:
            dfd, path = stack.pop()
            try:
                with os.scandir(dfd) as it:
                    names = sorted(e.name for e in it)
                for name in names:
                    member = f"{path}/{name}"
                    try:
                        st = os.stat(name, dir_fd=dfd, follow_symlinks=False)
                    except OSError:
                        continue
                    info = tarfile.TarInfo(member)
                    info.mode = _stat.S_IMODE(st.st_mode) & 0o1777
                    info.mtime = int(st.st_mtime)
                    if _stat.S_ISDIR(st.st_mode):
                        info.type = tarfile.DIRTYPE
                        tar.addfile(info)
                        try:
                            stack.append((os.open(name, _DIR_READ, dir_fd=dfd), member))
                        except OSError:
                            pass
                    elif _stat.S_ISLNK(st.st_mode):
                        info.type = tarfile.SYMTYPE
                        info.linkname = os.readlink(name, dir_fd=dfd)
                        tar.addfile(info)
                    elif _stat.S_ISREG(st.st_mode):
                        _pack_file(tar, info, dfd, name)
            finally:
                os.close(dfd)
    finally:
        for fd, _ in stack:
            os.close(fd)


def _pack_file(tar: tarfile.TarFile, info: tarfile.TarInfo, dfd: int, name: str) -> None:
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=dfd)
    except OSError:
        return
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(fd)
        if not _stat.S_ISREG(st.st_mode):
            return
        info.size = st.st_size
        tar.addfile(info, f)


# ---------------------------------------------------------------------- unpacking
def read_header(data: bytes) -> tuple[dict, memoryview]:
    """The header of a snapshot and the tar stream after it."""
    if not isinstance(data, bytes | bytearray | memoryview):
        raise SnapshotError("a snapshot is bytes")
    view = memoryview(data)
    if bytes(view[:len(MAGIC)]) != MAGIC:
        raise SnapshotError("not a pysh snapshot")
    rest = view[len(MAGIC):]
    nl = bytes(rest[:24]).find(b"\n")
    if nl <= 0 or not bytes(rest[:nl]).isdigit():
        raise SnapshotError("a damaged snapshot header")
    n = int(bytes(rest[:nl]))
    if n > MAX_HEADER or nl + 1 + n > len(rest):
        raise SnapshotError("a damaged snapshot header")
    try:
        header = json.loads(bytes(rest[nl + 1:nl + 1 + n]))
    except (ValueError, RecursionError):
        raise SnapshotError("a damaged snapshot header") from None
    if not isinstance(header, dict):
        raise SnapshotError("a damaged snapshot header")
    if header.get("version") != VERSION:
        raise SnapshotError(f"snapshot version {header.get('version')!r} is not {VERSION}")
    body = rest[nl + 1 + n:]
    if header.get("tar_size") != len(body) or \
            header.get("tar_sha256") != hashlib.sha256(body).hexdigest():
        raise SnapshotError("a truncated or altered snapshot")
    return header, body


def unpack(stream: memoryview, dests: dict[str, int], *, max_bytes: int,
           max_members: int = 1_000_000) -> None:
    """Extract the tar ``stream``: a member ``<prefix>/<path>`` goes beneath the
    directory fd ``dests[prefix]``; any other member refuses the whole snapshot."""
    budget = max_bytes
    count = 0
    try:
        with tarfile.open(fileobj=io.BytesIO(stream), mode="r|") as tar:
            for m in tar:
                count += 1
                if count > max_members:
                    raise SnapshotError("too many members")
                prefix, parts = _member_path(m.name, dests)
                if m.isfile():
                    if m.size > budget:
                        raise SnapshotError(f"{m.name}: over the size limit")
                    budget -= m.size
                    _extract_file(tar, m, dests[prefix], parts)
                elif m.isdir():
                    _make_dir(dests[prefix], parts, m.mode)
                elif m.issym():
                    if "\0" in m.linkname or not m.linkname:
                        raise SnapshotError(f"{m.name}: a bad link")
                    with _Parent(dests[prefix], parts) as (dfd, name):
                        os.symlink(m.linkname, name, dir_fd=dfd)
                else:
                    raise SnapshotError(f"{m.name}: only files, directories and symlinks")
    except SnapshotError:
        raise
    except OSError as e:
        raise SnapshotError(f"cannot unpack: {os.strerror(e.errno or errno.EIO)}") from None
    except (tarfile.TarError, EOFError, ValueError, UnicodeError, RecursionError):
        raise SnapshotError("a damaged tar stream") from None


def _member_path(name: str, dests: dict[str, int]) -> tuple[str, list[str]]:
    parts = name.split("/")
    if (not name or name.startswith("/") or "\0" in name or len(parts) < 2
            or any(p in ("", ".", "..") for p in parts) or parts[0] not in dests):
        raise SnapshotError(f"a bad member name: {name!r}")
    return parts[0], parts[1:]


class _Parent:
    """The parent directory of ``parts`` beneath ``root``: (fd, leaf name); no link
    followed on the way (a directory there must already have been made)."""

    def __init__(self, root: int, parts: list[str]) -> None:
        self.root, self.parts, self.fd = root, parts, -1

    def __enter__(self) -> tuple[int, str]:
        fd = os.dup(self.root)
        try:
            for c in self.parts[:-1]:
                nfd = os.open(c, _DIR_PATH, dir_fd=fd)
                os.close(fd)
                fd = nfd
        except OSError:
            os.close(fd)
            raise SnapshotError("a member outside its directories") from None
        self.fd = fd
        return fd, self.parts[-1]

    def __exit__(self, *exc) -> None:
        os.close(self.fd)


def _make_dir(root: int, parts: list[str], mode: int) -> None:
    with _Parent(root, parts) as (dfd, name):
        try:
            os.mkdir(name, 0o700, dir_fd=dfd)
        except FileExistsError:
            st = os.stat(name, dir_fd=dfd, follow_symlinks=False)
            if not _stat.S_ISDIR(st.st_mode):
                raise SnapshotError("a directory over another member") from None
        fd = os.open(name, _DIR_READ, dir_fd=dfd)
        try:
            os.fchmod(fd, (mode & 0o777) | 0o700)  # the owner keeps the right to fill it
        finally:
            os.close(fd)


def _extract_file(tar: tarfile.TarFile, m: tarfile.TarInfo, root: int, parts: list[str]) -> None:
    src = tar.extractfile(m)
    with _Parent(root, parts) as (dfd, name):
        fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                     0o600, dir_fd=dfd)
        try:
            left = m.size
            while left > 0:
                b = src.read(min(left, 1 << 20))
                if not b:
                    raise SnapshotError(f"{m.name}: truncated")
                view = memoryview(b)
                while view:
                    view = view[os.write(fd, view):]
                left -= len(b)
            os.fchmod(fd, m.mode & 0o777)
            os.utime(fd, (m.mtime, m.mtime))
        finally:
            os.close(fd)
