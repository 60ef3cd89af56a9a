"""The system temp root, and fresh names under it, without importing tempfile/uuid at start-up."""

from __future__ import annotations

import os
import sys


def system_temp_root() -> str:
    """What ``tempfile.gettempdir()`` returns (it is used when already imported)."""
    mod = sys.modules.get("tempfile")
    if mod is not None:
        return mod.gettempdir()
    for name in ("TMPDIR", "TEMP", "TMP"):
        d = os.environ.get(name)
        if d and os.path.isdir(d) and os.access(d, os.W_OK | os.X_OK):
            return os.path.abspath(d)
    for d in ("/tmp", "/var/tmp", "/usr/tmp"):
        if os.path.isdir(d) and os.access(d, os.W_OK | os.X_OK):
            return d
    import tempfile

    return tempfile.gettempdir()


def new_uuid() -> str:
    """A random (version 4) UUID string."""
    b = bytearray(os.urandom(16))
    b[6] = (b[6] & 0x0F) | 0x40
    b[8] = (b[8] & 0x3F) | 0x80
    h = b.hex()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def remove_tree(path: str) -> None:
    """Remove a directory tree without following symlinks planted inside it (fd-based,
    like shutil.rmtree on Linux, without importing shutil and its compression modules).
    Errors are ignored: this is clean-up."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        try:
            os.unlink(path)
        except OSError:
            pass
        return
    try:
        _clear_dir(fd)
    finally:
        os.close(fd)
    try:
        os.rmdir(path)
    except OSError:
        pass


_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def _clear_dir(dfd: int) -> None:
    """Empty the directory open at ``dfd``, depth first, without recursion and holding one
    directory fd at a time: a script can nest directories thousands deep (deeper than
    Python's stack, and than the fds a process may hold)."""
    fd = os.dup(dfd)
    names: list[str] = []  # the path from dfd down to fd
    failed: list[set[str]] = [set()]  # per level: entries that could not be removed
    try:
        while True:
            sub = None
            try:
                entries = list(os.scandir(fd))
            except OSError:
                entries = []
            for e in entries:
                if e.name in failed[-1]:
                    continue
                try:
                    is_dir = e.is_dir(follow_symlinks=False)
                except OSError:
                    is_dir = False
                if is_dir:
                    sub = e.name
                    break
                try:
                    os.unlink(e.name, dir_fd=fd)
                except OSError:
                    failed[-1].add(e.name)
            if sub is not None:
                try:
                    child = os.open(sub, _DIR, dir_fd=fd)
                except OSError:
                    failed[-1].add(sub)
                    continue
                os.close(fd)
                fd = child
                names.append(sub)
                failed.append(set())
                continue
            if not names:
                return
            # this directory is as empty as it gets: back up and remove it
            parent = os.open("..", _DIR, dir_fd=fd)
            os.close(fd)
            fd = parent
            name = names.pop()
            failed.pop()
            try:
                os.rmdir(name, dir_fd=fd)
            except OSError:
                failed[-1].add(name)
    finally:
        os.close(fd)
