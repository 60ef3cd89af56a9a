"""The run's read and write limits where every file byte passes.

Door A (``FileSystem.open``) hands out file objects built here, and door B's
port write path (``write_fd``) goes through :func:`admit` too, so no command
can forget a limit:

* a whole-file read (``f.read()`` with no size) stops past the string limit
  with a clean :class:`LimitExceeded` and polls the run's deadline, so
  ``/dev/zero`` or an endless file cannot grow a buffer to gigabytes;
* a write that would carry a regular file past ``max_file_size`` (apparent
  size: a seek past the end counts its hole) or the run past
  ``max_total_written`` writes what still fits and raises the limit error,
  as a write past ``RLIMIT_FSIZE`` stops at the limit; ``truncate`` to a size
  past the limit is refused before anything changes.

Devices (``/dev/null``, ``/dev/full``) are not files: they count against nothing.
"""

from __future__ import annotations

import errno
import io
import os
import stat as _stat

from pysh.shellkit.errors import FileSystemError
from pysh.shellkit.limits import Budget, LimitExceeded, Limits

READ_CHUNK = 1 << 20
_DEFAULT_CAP = Limits().max_string_length


def admit(budget: Budget, fd: int, n: int, append: bool) -> tuple[int, LimitExceeded | None]:
    """How many of ``n`` bytes about to be written at ``fd``'s offset fit the limits.

    Counts them (and a hole the write would leave) against the run's total; returns
    the error to raise once that many are written, or None when all ``n`` fit.
    """
    limits = budget.limits
    file_cap = limits.max_file_size
    if file_cap is None and limits.max_total_written is None:
        return n, None
    try:
        st = os.fstat(fd)
        if not _stat.S_ISREG(st.st_mode):
            return n, None
        pos = st.st_size if append else os.lseek(fd, 0, os.SEEK_CUR)
    except OSError:
        return n, None
    allowed, err = n, None
    if file_cap is not None and pos + n > file_cap:
        allowed, err = max(0, file_cap - pos), budget.file_size_error()
    hole = max(0, pos - st.st_size)
    room = budget.write_room()
    if allowed and room is not None and hole + allowed > room:
        allowed, err = max(0, room - hole), budget.written_error()
    if allowed:
        budget.count_written(hole + allowed)
    return allowed, err


def admit_truncate(budget: Budget, fd: int, size: int) -> None:
    """Refuse (before anything changes) a truncate that would grow a file past a limit."""
    limits = budget.limits
    if limits.max_file_size is None and limits.max_total_written is None:
        return
    try:
        st = os.fstat(fd)
    except OSError:
        return
    if not _stat.S_ISREG(st.st_mode):
        return
    if limits.max_file_size is not None and size > limits.max_file_size:
        raise budget.file_size_error()
    grow = size - st.st_size
    if grow > 0:
        room = budget.write_room()
        if room is not None and grow > room:
            raise budget.written_error()
        budget.count_written(grow)


def write_fd(budget: Budget, fd: int, data) -> None:
    """Write all of ``data`` to a host fd a port opened through door B, within the limits."""
    view = memoryview(data)
    err = None
    if budget is not None:
        append = False
        try:
            import fcntl

            append = bool(fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_APPEND)
        except OSError:
            pass
        allowed, err = admit(budget, fd, view.nbytes, append)
        view = view[:allowed]
    while view:
        n = os.write(fd, view)
        view = view[n:]
    if err is not None:
        raise err


def read_capped(read, cap: int, budget: Budget | None, size_hint: int = 0) -> bytes:
    """Everything ``read(n)`` gives until EOF, refusing more than ``cap`` bytes."""
    parts = []
    total = 0
    want = min(size_hint + 1, cap + 1) if size_hint > 0 else READ_CHUNK
    while True:
        b = read(max(want, 1))
        if not b:
            break
        total += len(b)
        if total > cap:
            raise LimitExceeded("string", f"{cap} bytes")
        parts.append(b)
        if budget is not None:
            budget.check()
        want = min(READ_CHUNK, cap + 1 - total)
    return parts[0] if len(parts) == 1 else b"".join(parts)


class _ReadCapped(io.FileIO):
    """A door file: its whole-file read is bounded and polls the deadline."""

    budget: Budget | None = None
    vpath = ""

    def readall(self):
        budget = self.budget
        cap = budget.limits.max_string_length if budget is not None else _DEFAULT_CAP
        try:
            st = os.fstat(self.fileno())
            hint = st.st_size - os.lseek(self.fileno(), 0, os.SEEK_CUR) \
                if _stat.S_ISREG(st.st_mode) else 0
        except OSError:
            hint = 0
        return read_capped(self._read, cap, budget, hint)

    def _read(self, n: int) -> bytes:
        try:
            return io.FileIO.read(self, n) or b""
        except OSError as e:
            raise FileSystemError(e.errno or errno.EIO, self.vpath or None) from None


class _WriteCapped(_ReadCapped):
    """A door file under write limits: writes and truncates are admitted first."""

    append = False
    breached = False  # a limit error was raised: what is still buffered is past the limit
    _pending: LimitExceeded | None = None

    def write(self, b):
        err = self._pending
        if err is not None:  # the rest of a short write the limit cut
            self._pending = None
            self.breached = True
            raise err
        view = memoryview(b)
        allowed, err = admit(self.budget, self.fileno(), view.nbytes, self.append)
        if err is None:
            return io.FileIO.write(self, b)
        if not allowed:
            self.breached = True
            raise err
        # A short write: the buffered layer retries the rest at once, and meets the error.
        self._pending = err
        return io.FileIO.write(self, view[:allowed])

    def truncate(self, size=None):
        if size is None:
            size = self.tell()
        admit_truncate(self.budget, self.fileno(), size)
        return io.FileIO.truncate(self, size)


class _CappedBuffer:
    """Closing a capped file: a breach first met while flushing is raised; bytes still
    buffered after a breach already raised are past the limit and dropped."""

    def close(self):
        breached = self.raw.breached
        try:
            super().close()
        except LimitExceeded:
            if not breached:
                raise

    def __del__(self):  # never an "Exception ignored" report from the garbage collector
        try:
            self.close()
        except BaseException:  # noqa: BLE001
            pass


class _Writer(_CappedBuffer, io.BufferedWriter):
    pass


class _Random(_CappedBuffer, io.BufferedRandom):
    pass


_RAW_MODES = {"rb": "r", "wb": "w", "ab": "a", "xb": "w", "r+b": "r+", "w+b": "r+", "a+b": "a+"}


def door_file(fd: int, mode: str, budget: Budget | None, vpath: str):
    """The file object of a door-A open: a buffered file over a capped raw file."""
    raw_mode = _RAW_MODES[mode]
    limits = budget.limits if budget is not None else None
    capped = raw_mode != "r" and limits is not None and (
        limits.max_file_size is not None or limits.max_total_written is not None)
    raw = (_WriteCapped if capped else _ReadCapped)(fd, raw_mode, closefd=True)
    raw.budget = budget
    raw.vpath = vpath
    if capped:
        raw.append = "a" in raw_mode
    if raw_mode == "r":
        return io.BufferedReader(raw)
    if "+" in raw_mode:
        return (_Random if capped else io.BufferedRandom)(raw)
    return (_Writer if capped else io.BufferedWriter)(raw)
