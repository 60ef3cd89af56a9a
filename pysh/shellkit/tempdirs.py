"""The system temp root, the per-instance directories under it, and their clean-up.

An instance directory (``swiftbash-<uuid>``, ``pysh-workspace-<uuid>``,
``pysh-home-<uuid>``) is removed when
its instance closes, and on SIGTERM, SIGHUP and SIGINT by the faces' handler
(:func:`install_signal_cleanup`). Nothing can run after a SIGKILL, so each directory has a
lock: the file ``<name>.lock`` beside it in the temp root, ``flock``ed for as long as the
owning process lives (the kernel drops the lock when it dies). The first instance a process
opens sweeps the temp root (:func:`sweep_stale`): a directory of an exact instance name,
owned by this uid, whose lock file is free, belonged to a process that is gone and is
removed. The lock is beside the directory, not inside it, because the directory is the
script's /tmp or workspace: the script could delete a lock file inside it, and would see it.
A directory without a lock file (made by an older pysh, or not pysh's) is never touched.

No tempfile/uuid import at start-up.
"""

from __future__ import annotations

import os
import re
import signal
import stat as _stat
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


# ------------------------------------------------------------ instance dirs
_INSTANCE = re.compile(r"(?:swiftbash|pysh-workspace|pysh-home|pysh-overlay)-[0-9a-f]{8}-"
                       r"[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\Z")
_LOCK_SUFFIX = ".lock"
_live: dict[str, int] = {}  # this process's instance dirs -> their held lock fds
_swept = False


def make_instance_dir(root: str, prefix: str) -> str:
    """A fresh 0700 directory ``root/<prefix><uuid>`` with its held lock."""
    import fcntl

    tries = 0
    while True:
        path = os.path.join(root, prefix + new_uuid())
        # The lock first: a sweep that finds the directory always finds it locked.
        fd = os.open(path + _LOCK_SUFFIX, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
                     | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            # another process's sweep opened the new lock file between our open and our
            # flock, took it for a dead owner's and holds it: that name is its to remove
            os.close(fd)
            tries += 1
            if tries == 8:
                raise
            continue
        except BaseException:
            os.close(fd)
            _unlink(path + _LOCK_SUFFIX)
            raise
        try:
            os.mkdir(path, 0o700)
        except BaseException:
            os.close(fd)
            _unlink(path + _LOCK_SUFFIX)
            raise
        _live[path] = fd
        return path


def remove_instance_dir(path: str) -> None:
    """Remove an instance directory, then its lock (errors ignored: this is clean-up)."""
    remove_tree(path)
    fd = _live.pop(path, None)
    if fd is not None:
        _unlink(path + _LOCK_SUFFIX)
        os.close(fd)


def sweep_stale(root: str | None = None) -> int:
    """Remove the instance directories under ``root`` whose owner is gone (their lock is
    free); once per process unless ``root`` is given. Returns how many went."""
    global _swept
    if root is None:
        if _swept:
            return 0
        _swept = True
        root = system_temp_root()
    import fcntl

    try:
        rfd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        return 0
    removed = 0
    uid = os.getuid()
    try:
        names = os.listdir(rfd)
        for lock in names:
            name = lock[: -len(_LOCK_SUFFIX)]
            if not lock.endswith(_LOCK_SUFFIX) or not _INSTANCE.match(name):
                continue
            try:
                fd = os.open(lock, os.O_RDWR | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=rfd)
            except OSError:
                continue
            try:
                st = os.fstat(fd)
                if st.st_uid != uid or not _stat.S_ISREG(st.st_mode):
                    continue
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except OSError:
                    continue  # its owner lives
                if _remove_owned_dir(rfd, name, uid):
                    removed += 1
                _unlink(lock, rfd)
            finally:
                os.close(fd)
    finally:
        os.close(rfd)
    return removed


def _remove_owned_dir(rfd: int, name: str, uid: int) -> bool:
    try:
        dfd = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC,
                      dir_fd=rfd)
    except OSError:
        return False
    try:
        if os.fstat(dfd).st_uid != uid:
            return False
        _clear_dir(dfd)
    finally:
        os.close(dfd)
    try:
        os.rmdir(name, dir_fd=rfd)
    except OSError:
        return False
    return True


def _unlink(path: str, dir_fd: int | None = None) -> None:
    try:
        os.unlink(path, dir_fd=dir_fd)
    except OSError:
        pass


_HANDLED = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)


def install_signal_cleanup(signals=_HANDLED) -> None:
    """SIGTERM, SIGHUP and SIGINT remove this process's instance directories, then end it
    by the same signal (its status is 128+N, as bash's). A signal the process was started
    with ignored (``nohup``) stays ignored."""
    for sig in signals:
        try:
            current = signal.getsignal(sig)
        except ValueError:  # not the main thread
            return
        if current is signal.SIG_IGN:
            continue
        signal.signal(sig, _on_signal)


def _on_signal(signum, frame) -> None:
    for path in list(_live):
        remove_instance_dir(path)
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)
    os._exit(128 + signum)  # not reached unless the signal is blocked
