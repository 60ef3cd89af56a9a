"""WASI preview 1 for the guest, answered by door A (``shell.fs``).

Every file call of the guest arrives here as a ``wasi_snapshot_preview1``
import and is served through the shell's FileSystem door: paths are the
sandbox's virtual paths (one preopened ``/``), so mounts, read-only mounts,
symlink rules, special files, write limits and errors are the core's. No host
directory is ever opened for the guest, and nothing of the host environment
is passed in.

A :class:`Guest` is one run. Its host functions are called on the worker
thread that runs the guest; the shell's async streams (fds 0, 1, 2, and
``/dev/stdout`` and friends) are reached through ``anyio.from_thread``.

Guest pointers are untrusted: every access to linear memory goes through a
``memoryview`` of exactly its size, with explicit bounds checks (a slice of a
memoryview past its end would silently come back short).
"""

from __future__ import annotations

import ctypes
import errno
import io
import os
import stat as _stat
import struct
import threading
import time
import zlib

import anyio
import anyio.from_thread

from pysh.shellkit import FileSystemError, Interrupted, LimitExceeded
from pysh.shellkit.confine import STREAM

# -- WASI constants --------------------------------------------------------------
# errno values, in WASI's order (index = WASI code).
_WASI_ERRNO_NAMES = (
    "SUCCESS 2BIG ACCES ADDRINUSE ADDRNOTAVAIL AFNOSUPPORT AGAIN ALREADY BADF BADMSG BUSY "
    "CANCELED CHILD CONNABORTED CONNREFUSED CONNRESET DEADLK DESTADDRREQ DOM DQUOT EXIST "
    "FAULT FBIG HOSTUNREACH IDRM ILSEQ INPROGRESS INTR INVAL IO ISCONN ISDIR LOOP MFILE "
    "MLINK MSGSIZE MULTIHOP NAMETOOLONG NETDOWN NETRESET NETUNREACH NFILE NOBUFS NODEV "
    "NOENT NOEXEC NOLCK NOLINK NOMEM NOMSG NOPROTOOPT NOSPC NOSYS NOTCONN NOTDIR NOTEMPTY "
    "NOTRECOVERABLE NOTSOCK NOTSUP NOTTY NXIO OVERFLOW OWNERDEAD PERM PIPE PROTO "
    "PROTONOSUPPORT PROTOTYPE RANGE ROFS SPIPE SRCH STALE TIMEDOUT TXTBSY XDEV NOTCAPABLE"
).split()
_TO_WASI = {getattr(errno, "E" + n): i for i, n in enumerate(_WASI_ERRNO_NAMES)
            if hasattr(errno, "E" + n)}
_TO_WASI[errno.EOPNOTSUPP] = _WASI_ERRNO_NAMES.index("NOTSUP")
E = {n: i for i, n in enumerate(_WASI_ERRNO_NAMES)}
ESUCCESS, EBADF, EINVAL, EIO, EFAULT, ENOSYS = (E["SUCCESS"], E["BADF"], E["INVAL"], E["IO"],
                                                 E["FAULT"], E["NOSYS"])
ENOTDIR, EISDIR, ESPIPE, EPIPE, ENOENT, EACCES = (E["NOTDIR"], E["ISDIR"], E["SPIPE"], E["PIPE"],
                                                   E["NOENT"], E["ACCES"])
ENOTSUP, ENOTCAPABLE, EEXIST, EPERM = E["NOTSUP"], E["NOTCAPABLE"], E["EXIST"], E["PERM"]

# file types
FT_UNKNOWN, FT_CHAR, FT_DIR, FT_REG, FT_LINK = 0, 2, 3, 4, 7
# oflags
O_CREAT, O_DIRECTORY, O_EXCL, O_TRUNC = 1, 2, 4, 8
# fdflags
FDF_APPEND, FDF_NONBLOCK = 1, 4
# lookupflags
LOOKUP_SYMLINK_FOLLOW = 1
# rights
R_FD_READ, R_FD_SEEK, R_FD_WRITE, R_FD_TELL = 1 << 1, 1 << 2, 1 << 6, 1 << 5
RIGHTS_ALL = (1 << 29) - 1
RIGHTS_TTY = RIGHTS_ALL & ~(R_FD_SEEK | R_FD_TELL)
# clocks
CLOCK_REALTIME, CLOCK_MONOTONIC = 0, 1
# poll
EV_CLOCK, EV_FD_READ, EV_FD_WRITE = 0, 1, 2
SUBCLOCK_ABSTIME = 1
# whence
WHENCE = {0: os.SEEK_SET, 1: os.SEEK_CUR, 2: os.SEEK_END}
# fst flags (set_times)
FST_ATIM, FST_ATIM_NOW, FST_MTIM, FST_MTIM_NOW = 1, 2, 4, 8

_U32 = 0xFFFFFFFF
_U64 = (1 << 64) - 1

_FILESTAT = struct.Struct("<QQB7xQQQQQ")  # 64 bytes
_FDSTAT = struct.Struct("<BxH4xQQ")  # 24 bytes
_PRESTAT = struct.Struct("<B3xI")  # 8 bytes
_DIRENT = struct.Struct("<QQIB3x")  # 24 bytes, then the name
_IOVEC = struct.Struct("<II")
_SUB = struct.Struct("<QB7xIxxxxQQH6x")  # 48 bytes: userdata, tag, clock id, timeout, precision, flags
_SUB_FD = struct.Struct("<QB7xI")  # the fd_read/fd_write variant's fields
_EVENT = struct.Struct("<QHB5xQH6x")  # 32 bytes
_U32S = struct.Struct("<I")
_U64S = struct.Struct("<Q")

CHUNK = 64 * 1024
POLL_SLICE = 0.05  # a sleeping guest looks at its deadline this often


def wasi_errno(e: BaseException) -> int:
    code = getattr(e, "errno", None)
    if not isinstance(code, int):
        return EIO
    return _TO_WASI.get(code, EIO)


def _limit_errno(e: LimitExceeded) -> int:
    """A write limit as the guest meets it: a file past max_file_size is EFBIG (as past
    RLIMIT_FSIZE), the run past max_total_written EDQUOT (a quota); the rest ends the run."""
    if e.what == "file size":
        return E["FBIG"]
    if e.what == "write":
        return E["DQUOT"]
    raise e


class WasiError(Exception):
    def __init__(self, code: int):
        super().__init__(code)
        self.code = code


class GuestStop(BaseException):  # noqa: N818 - not an error: unwinds the guest
    """Raised from a host function to end the guest (exit, deadline, kill)."""


def _filetype(mode: int) -> int:
    if _stat.S_ISREG(mode):
        return FT_REG
    if _stat.S_ISDIR(mode):
        return FT_DIR
    if _stat.S_ISLNK(mode):
        return FT_LINK
    if _stat.S_ISCHR(mode):
        return FT_CHAR
    return FT_UNKNOWN


def _ns(st: os.stat_result, which: str) -> int:
    ns = getattr(st, f"st_{which}_ns", None)
    if ns is None:  # a stat_result built from a 10-tuple (synthetic nodes)
        ns = int((getattr(st, f"st_{which}") or 0) * 1_000_000_000)
    return ns & _U64


# -- open files -------------------------------------------------------------------
class _File:
    __slots__ = ("f", "owner", "vpath", "append", "readable", "writable", "size_hint")
    kind = "file"

    def __init__(self, f, vpath: str, append: bool, readable: bool, writable: bool):
        # The guest buffers for itself: it works on the door file's raw file, so a write the
        # limits cut is a short write and the next one fails as under RLIMIT_FSIZE, with no
        # bytes past the limit left in a buffer between them.
        self.owner = f
        self.f = getattr(f, "raw", f)
        self.vpath = vpath
        self.append = append
        self.readable = readable
        self.writable = writable

    def close(self) -> None:
        try:
            self.owner.close()
        except (OSError, ValueError):
            pass


class _Dir:
    __slots__ = ("vpath", "listing")
    kind = "dir"

    def __init__(self, vpath: str):
        self.vpath = vpath
        self.listing: list[tuple[str, int]] | None = None

    def close(self) -> None:
        pass


class _Stream:
    """One of the shell's fds: an InputStream or an OutputStream (async)."""

    __slots__ = ("stream", "readable", "tty", "owned")
    kind = "stream"

    def __init__(self, stream, readable: bool, owned: bool = False):
        self.stream = stream
        self.readable = readable
        self.owned = owned
        try:
            self.tty = bool(stream.isatty())
        except Exception:  # noqa: BLE001 - a stream that cannot say is not a terminal
            self.tty = False

    def close(self) -> None:
        if self.owned:
            self.stream.close()


def _join(base: str, rel: str) -> str:
    if rel.startswith("/"):
        rel = rel.lstrip("/")  # WASI paths are relative to their directory fd
    if rel in ("", "."):
        return base
    return (base.rstrip("/") + "/" + rel) if base != "/" else "/" + rel


# -- the guest ----------------------------------------------------------------------
class Guest:
    """One run of the guest: its fd table, argv, environment and stop state."""

    def __init__(self, shell, argv: list[str], env: dict[str, str], *,
                 cwd: str = "/", cwd_slot: int | None = None):
        self.shell = shell
        self.fs = shell.fs.at("/")
        self.budget = shell.budget
        self.argv = [os.fsencode(a) + b"\0" for a in argv]
        self.environ = [os.fsencode(f"{k}={v}") + b"\0" for k, v in env.items()
                        if "=" not in k and "\0" not in k + v]
        self.fds: dict[int, object] = {
            0: _Stream(shell.stdin, True),
            1: _Stream(shell.stdout, False),
            2: _Stream(shell.stderr, False),
            3: _Dir("/"),
        }
        self.preopens = {3: "/"}
        self._packed: dict[int, tuple[bytes, list[int]]] = {}
        # WASI has no working directory: wasi-libc keeps it in a C variable that starts as
        # "/". Where the runtime knows that variable's address, args_get points it at the
        # shell's cwd (stored after the argument strings) before main() runs.
        self.cwd = os.fsencode(cwd) + b"\0" if cwd_slot is not None and cwd != "/" else b""
        self.cwd_slot = cwd_slot
        self.memory = None
        self.memory_access = None
        self._mem: memoryview | None = None
        self._mem_key: tuple[int, int] | None = None
        self.exit_code: int | None = None
        self.trap = None  # why the guest trapped (a wasmtime Trap), when it did by itself
        self.stop_exc: BaseException | None = None  # a LimitExceeded/Interrupted to re-raise
        self.killed = threading.Event()
        self.finished = threading.Event()
        self.io_scopes: set = set()
        self.start = time.monotonic()
        self._next_fd = 4

    # -- stopping ---------------------------------------------------------------
    def check(self) -> None:
        """Raise GuestStop when the run must end (deadline, interrupt, kill)."""
        if self.killed.is_set():
            raise GuestStop()
        try:
            self.budget.check()
        except (LimitExceeded, Interrupted) as e:
            self.stop_exc = e
            raise GuestStop() from None

    def kill(self) -> None:
        """From the event loop thread: stop the guest at its next host call or epoch tick."""
        self.killed.set()
        for scope in list(self.io_scopes):
            scope.cancel()

    # -- the shell's streams, from the worker thread ----------------------------------
    def _bridge(self, fn, *args):
        async def call():
            with anyio.CancelScope() as scope:
                self.io_scopes.add(scope)
                try:
                    if self.killed.is_set():
                        scope.cancel()
                    return True, await fn(*args)
                finally:
                    self.io_scopes.discard(scope)
            return False, None

        ok, value = anyio.from_thread.run(call)
        if not ok:
            raise GuestStop()
        return value

    # -- memory -----------------------------------------------------------------------
    def mem(self, caller) -> memoryview:
        """The guest's linear memory now (it moves or grows only while the guest runs).

        ``caller`` is wasmtime's caller pointer; ``memory_access`` (set by the runtime)
        holds the C calls that find the memory's base and size from it."""
        context_of, data, data_size, memory = self.memory_access
        ctx = context_of(caller)
        key = (data(ctx, memory), data_size(ctx, memory))
        if key != self._mem_key:
            self._mem = memoryview((ctypes.c_ubyte * key[1]).from_address(key[0])).cast("B")
            self._mem_key = key
        return self._mem

    @staticmethod
    def _span(mv: memoryview, ptr: int, n: int) -> memoryview:
        ptr &= _U32
        n &= _U32
        if ptr + n > len(mv):
            raise WasiError(EFAULT)
        return mv[ptr:ptr + n]

    def _put_u32(self, mv, ptr, v) -> None:
        ptr &= _U32
        if ptr + 4 > len(mv):
            raise WasiError(EFAULT)
        _U32S.pack_into(mv, ptr, v & _U32)

    def _put_u64(self, mv, ptr, v) -> None:
        ptr &= _U32
        if ptr + 8 > len(mv):
            raise WasiError(EFAULT)
        _U64S.pack_into(mv, ptr, v & _U64)

    def _pack(self, st: struct.Struct, mv, ptr, *values) -> None:
        ptr &= _U32
        if ptr + st.size > len(mv):
            raise WasiError(EFAULT)
        st.pack_into(mv, ptr, *values)

    def _iovs(self, mv, ptr, count) -> list[memoryview]:
        count &= _U32
        if count > 1024:
            raise WasiError(EINVAL)
        base = self._span(mv, ptr, count * 8)
        return [self._span(mv, b, n) for b, n in _IOVEC.iter_unpack(base)]

    def _str(self, mv, ptr, n) -> str:
        return os.fsdecode(bytes(self._span(mv, ptr, n)))

    # -- fds --------------------------------------------------------------------------
    def _get(self, fd: int):
        obj = self.fds.get(fd)
        if obj is None:
            raise WasiError(EBADF)
        return obj

    def _dir(self, fd: int) -> _Dir:
        obj = self._get(fd)
        if not isinstance(obj, _Dir):
            raise WasiError(ENOTDIR)
        return obj

    def _path(self, mv, fd: int, ptr: int, n: int) -> str:
        rel = self._str(mv, ptr, n)
        if "\0" in rel:
            raise WasiError(EINVAL)
        return _join(self._dir(fd).vpath, rel)

    def _add(self, obj) -> int:
        fd = self._next_fd
        while fd in self.fds:
            fd += 1
        self.fds[fd] = obj
        self._next_fd = fd + 1
        return fd

    def close_all(self) -> None:
        for fd, obj in list(self.fds.items()):
            if fd > 2:
                obj.close()
        self.fds.clear()

    # ============================================================== args, env, clocks
    def args_sizes_get(self, caller, argc_ptr, size_ptr):
        mv = self.mem(caller)
        self._put_u32(mv, argc_ptr, len(self.argv))
        self._put_u32(mv, size_ptr, sum(map(len, self.argv)) + len(self.cwd))

    def args_get(self, caller, argv_ptr, buf_ptr):
        end = self._vector(caller, self.argv, argv_ptr, buf_ptr)
        if self.cwd:
            mv = self.mem(caller)
            slot = self.cwd_slot & _U32
            old = _U32S.unpack_from(self._span(mv, slot, 4))[0]
            if bytes(self._span(mv, old, 2)) == b"/\0":  # still wasi-libc's initial "/"
                self._span(mv, end, len(self.cwd))[:] = self.cwd
                _U32S.pack_into(mv, slot, end)

    def environ_sizes_get(self, caller, count_ptr, size_ptr):
        mv = self.mem(caller)
        blob, offsets = self._packed.get(id(self.environ)) or self._pack_strings(self.environ)
        self._put_u32(mv, count_ptr, len(offsets))
        self._put_u32(mv, size_ptr, len(blob))

    def environ_get(self, caller, env_ptr, buf_ptr):
        self._vector(caller, self.environ, env_ptr, buf_ptr)

    def _vector(self, caller, items, ptrs, buf) -> int:
        """Write the strings ``items`` at ``buf`` and their addresses at ``ptrs`` (kept
        cheap: wasi-vfs asks for the whole environment on every fd call)."""
        mv = self.mem(caller)
        buf &= _U32
        blob, offsets = self._packed.get(id(items)) or self._pack_strings(items)
        self._span(mv, buf, len(blob))[:] = blob
        struct.pack_into(f"<{len(offsets)}I", self._span(mv, ptrs, 4 * len(offsets)), 0,
                         *[buf + o for o in offsets])
        return buf + len(blob)

    def _pack_strings(self, items) -> tuple[bytes, list[int]]:
        offsets, pos = [], 0
        for item in items:
            offsets.append(pos)
            pos += len(item)
        packed = self._packed[id(items)] = (b"".join(items), offsets)
        return packed

    def clock_res_get(self, caller, clock_id, res_ptr):
        self._put_u64(self.mem(caller), res_ptr, 1000)

    def clock_time_get(self, caller, clock_id, precision, time_ptr):
        if clock_id == CLOCK_REALTIME:
            t = time.time_ns()
        elif clock_id in (CLOCK_MONOTONIC, 2, 3):
            t = time.monotonic_ns()
        else:
            raise WasiError(EINVAL)
        self._put_u64(self.mem(caller), time_ptr, t)

    def random_get(self, caller, buf, n):
        span = self._span(self.mem(caller), buf, n)
        span[:] = os.urandom(len(span))

    def sched_yield(self, caller):
        self.check()

    def proc_exit(self, caller, code):
        self.exit_code = code & 0xFF
        raise GuestStop()

    def proc_raise(self, caller, sig):
        raise WasiError(ENOSYS)

    # =============================================================== sleeping, polling
    def poll_oneoff(self, caller, in_ptr, out_ptr, nsubs, nevents_ptr):
        mv = self.mem(caller)
        nsubs &= _U32
        if nsubs == 0 or nsubs > 4096:
            raise WasiError(EINVAL)
        subs = self._span(mv, in_ptr, nsubs * _SUB.size)
        ready: list[tuple] = []
        wake = None
        clocks = []
        for i in range(nsubs):
            userdata, tag, clock_id, timeout, _prec, flags = _SUB.unpack_from(subs, i * _SUB.size)
            if tag == EV_CLOCK:
                if flags & SUBCLOCK_ABSTIME:
                    now = time.time_ns() if clock_id == CLOCK_REALTIME else time.monotonic_ns()
                    delay = max(0, timeout - now) / 1e9
                else:
                    delay = timeout / 1e9
                clocks.append((delay, userdata))
                wake = delay if wake is None else min(wake, delay)
            elif tag in (EV_FD_READ, EV_FD_WRITE):
                _, _, fd = _SUB_FD.unpack_from(subs, i * _SUB.size)
                err = ESUCCESS if fd in self.fds else EBADF
                # Files and the shell's streams are always "ready": a read blocks in fd_read.
                ready.append((userdata, err, tag, 0))
            else:
                raise WasiError(EINVAL)
        if not ready and wake is not None:
            end = time.monotonic() + wake
            while True:
                self.check()
                left = end - time.monotonic()
                if left <= 0:
                    break
                remaining = self.budget.remaining()
                if remaining is not None and remaining <= 0:
                    self.check()
                time.sleep(min(left, POLL_SLICE))
            ready = [(ud, ESUCCESS, EV_CLOCK, 0) for d, ud in clocks if d <= wake]
        out = self._span(mv, out_ptr, len(ready) * _EVENT.size)
        for i, (ud, err, tag, nbytes) in enumerate(ready):
            _EVENT.pack_into(out, i * _EVENT.size, ud, err, tag, nbytes, 0)
        self._put_u32(mv, nevents_ptr, len(ready))

    # ========================================================================= fds
    def fd_prestat_get(self, caller, fd, ptr):
        name = self.preopens.get(fd)
        if name is None:
            raise WasiError(EBADF)
        self._pack(_PRESTAT, self.mem(caller), ptr, 0, len(name.encode()))

    def fd_prestat_dir_name(self, caller, fd, ptr, n):
        name = self.preopens.get(fd)
        if name is None:
            raise WasiError(EBADF)
        data = name.encode()
        if (n & _U32) < len(data):
            raise WasiError(E["NAMETOOLONG"])
        self._span(self.mem(caller), ptr, len(data))[:] = data

    def fd_close(self, caller, fd):
        if fd in self.preopens:
            raise WasiError(ENOTSUP)
        obj = self.fds.pop(fd, None)
        if obj is None:
            raise WasiError(EBADF)
        if fd > 2:
            obj.close()
        if fd < self._next_fd:
            self._next_fd = max(fd, 4)

    def fd_renumber(self, caller, fd, to):
        obj = self._get(fd)
        if fd in self.preopens or to in self.preopens:
            raise WasiError(ENOTSUP)
        old = self.fds.pop(to, None)
        if old is not None and to > 2:
            old.close()
        self.fds[to] = self.fds.pop(fd)
        del obj

    def fd_fdstat_get(self, caller, fd, ptr):
        obj = self._get(fd)
        flags = 0
        if isinstance(obj, _Stream):
            ftype = FT_CHAR if obj.tty else FT_UNKNOWN
            rights = RIGHTS_TTY if obj.tty else RIGHTS_ALL & ~(R_FD_SEEK | R_FD_TELL)
        elif isinstance(obj, _Dir):
            ftype, rights = FT_DIR, RIGHTS_ALL
        else:
            ftype = self._fstat_type(obj)
            rights = RIGHTS_ALL
            if obj.append:
                flags |= FDF_APPEND
        self._pack(_FDSTAT, self.mem(caller), ptr, ftype, flags, rights, rights)

    def _fstat_type(self, obj: _File) -> int:
        try:
            return _filetype(os.fstat(obj.f.fileno()).st_mode)
        except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
            return FT_REG

    def fd_fdstat_set_flags(self, caller, fd, flags):
        obj = self._get(fd)
        if isinstance(obj, _File):
            if flags & FDF_APPEND and not obj.append:
                raise WasiError(ENOTSUP)
            return
        if isinstance(obj, _Stream):
            return  # O_NONBLOCK on the shell's streams: reads block on the worker thread anyway
        raise WasiError(EBADF)

    def fd_fdstat_set_rights(self, caller, fd, base, inheriting):
        self._get(fd)

    def fd_advise(self, caller, fd, offset, length, advice):
        self._get(fd)

    def fd_allocate(self, caller, fd, offset, length):
        obj = self._file(fd)
        end = (offset & _U64) + (length & _U64)
        size = self._size(obj)
        if end > size:
            self._truncate(obj, end)

    def fd_datasync(self, caller, fd):
        self._sync(fd)

    def fd_sync(self, caller, fd):
        self._sync(fd)

    def _sync(self, fd) -> None:
        obj = self._get(fd)
        if isinstance(obj, _File):
            try:
                obj.f.flush()
            except (OSError, ValueError) as e:
                raise WasiError(wasi_errno(e)) from None

    def _file(self, fd) -> _File:
        obj = self._get(fd)
        if isinstance(obj, _Dir):
            raise WasiError(EISDIR)
        if not isinstance(obj, _File):
            raise WasiError(ESPIPE)
        return obj

    # -- reading and writing ---------------------------------------------------------
    def fd_read(self, caller, fd, iovs_ptr, iovs_len, nread_ptr):
        obj = self._get(fd)
        mv = self.mem(caller)
        iovs = self._iovs(mv, iovs_ptr, iovs_len)
        total = 0
        if isinstance(obj, _Stream):
            if not obj.readable:
                raise WasiError(EBADF)
            want = sum(len(v) for v in iovs)
            if want:
                self.check()
                data = self._bridge(obj.stream.read, min(want, CHUNK))
                total = self._scatter(iovs, data)
        elif isinstance(obj, _File):
            if not obj.readable:
                raise WasiError(EBADF)
            for v in iovs:
                if not len(v):
                    continue
                n = self._readinto(obj, v)
                total += n
                if n < len(v):
                    break
        else:
            raise WasiError(EISDIR)
        self._put_u32(mv, nread_ptr, total)

    @staticmethod
    def _scatter(iovs, data: bytes) -> int:
        off = 0
        for v in iovs:
            if off >= len(data):
                break
            piece = data[off:off + len(v)]
            v[:len(piece)] = piece
            off += len(piece)
        return off

    @staticmethod
    def _readinto(obj: _File, v: memoryview) -> int:
        try:
            n = obj.f.readinto(v)
        except (OSError, ValueError) as e:
            raise WasiError(wasi_errno(e)) from None
        return n or 0

    def fd_pread(self, caller, fd, iovs_ptr, iovs_len, offset, nread_ptr):
        obj = self._file(fd)
        if not obj.readable:
            raise WasiError(EBADF)
        mv = self.mem(caller)
        iovs = self._iovs(mv, iovs_ptr, iovs_len)
        f = obj.f
        try:
            saved = f.tell()
            f.seek(offset & _U64)
            total = 0
            try:
                for v in iovs:
                    if not len(v):
                        continue
                    n = self._readinto(obj, v)
                    total += n
                    if n < len(v):
                        break
            finally:
                f.seek(saved)
        except (OSError, ValueError) as e:
            raise WasiError(wasi_errno(e)) from None
        self._put_u32(mv, nread_ptr, total)

    def fd_write(self, caller, fd, iovs_ptr, iovs_len, nwritten_ptr):
        obj = self._get(fd)
        mv = self.mem(caller)
        data = b"".join(self._iovs(mv, iovs_ptr, iovs_len))
        if isinstance(obj, _Stream):
            if obj.readable:
                raise WasiError(EBADF)
            if data:
                self.check()
                from pysh.shellkit import BrokenPipe

                try:
                    self._bridge(obj.stream.write, data)
                except BrokenPipe:
                    raise WasiError(EPIPE) from None
        elif isinstance(obj, _File):
            data = data[:self._write(obj, data)]
        else:
            raise WasiError(EISDIR)
        self._put_u32(mv, nwritten_ptr, len(data))

    def _write(self, obj: _File, data: bytes) -> int:
        """Bytes written; short when a write limit cut it (the next write then fails)."""
        if not obj.writable:
            raise WasiError(EBADF)
        f = obj.f
        view = memoryview(data)
        done = 0
        try:
            while done < len(view):
                try:
                    n = f.write(view[done:])
                except LimitExceeded as e:
                    if done:
                        break
                    raise WasiError(_limit_errno(e)) from None
                if not n:
                    break
                done += n
            f.flush()  # (a buffered door file) a real fd's write is seen by every reader at once
        except (OSError, ValueError) as e:
            raise WasiError(wasi_errno(e)) from None
        return done

    def fd_pwrite(self, caller, fd, iovs_ptr, iovs_len, offset, nwritten_ptr):
        obj = self._file(fd)
        mv = self.mem(caller)
        data = b"".join(self._iovs(mv, iovs_ptr, iovs_len))
        if obj.append:
            data = data[:self._write(obj, data)]  # POSIX: pwrite on O_APPEND appends
        else:
            f = obj.f
            try:
                saved = f.tell()
                f.seek(offset & _U64)
                try:
                    data = data[:self._write(obj, data)]
                finally:
                    f.seek(saved)
            except (OSError, ValueError) as e:
                raise WasiError(wasi_errno(e)) from None
        self._put_u32(mv, nwritten_ptr, len(data))

    def fd_seek(self, caller, fd, offset, whence, newoffset_ptr):
        obj = self._file(fd)
        how = WHENCE.get(whence)
        if how is None:
            raise WasiError(EINVAL)
        try:
            pos = obj.f.seek(offset, how)
        except (OSError, ValueError) as e:
            raise WasiError(wasi_errno(e) if isinstance(e, OSError) else EINVAL) from None
        self._put_u64(self.mem(caller), newoffset_ptr, pos)

    def fd_tell(self, caller, fd, ptr):
        obj = self._file(fd)
        try:
            pos = obj.f.tell()
        except (OSError, ValueError) as e:
            raise WasiError(wasi_errno(e)) from None
        self._put_u64(self.mem(caller), ptr, pos)

    # -- metadata ---------------------------------------------------------------------
    def _pack_stat(self, mv, ptr, st: os.stat_result) -> None:
        self._pack(_FILESTAT, mv, ptr, st.st_dev & _U64, st.st_ino & _U64,
                   _filetype(st.st_mode), st.st_nlink, st.st_size & _U64,
                   _ns(st, "atime"), _ns(st, "mtime"), _ns(st, "ctime"))

    def fd_filestat_get(self, caller, fd, ptr):
        obj = self._get(fd)
        mv = self.mem(caller)
        if isinstance(obj, _Dir):
            st = self._stat(obj.vpath, True)
        elif isinstance(obj, _File):
            try:
                obj.f.flush()
                st = os.fstat(obj.f.fileno())
            except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
                st = self._stat(obj.vpath, True)
        else:
            self._pack(_FILESTAT, mv, ptr, 0, 0, FT_CHAR if obj.tty else FT_UNKNOWN, 1, 0, 0, 0, 0)
            return
        self._pack_stat(mv, ptr, st)

    def _stat(self, vpath: str, follow: bool) -> os.stat_result:
        try:
            return self.fs.stat(vpath) if follow else self.fs.lstat(vpath)
        except OSError as e:
            raise WasiError(wasi_errno(e)) from None

    def _size(self, obj: _File) -> int:
        try:
            obj.f.flush()
            return os.fstat(obj.f.fileno()).st_size
        except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
            return self._stat(obj.vpath, True).st_size

    def _truncate(self, obj: _File, size: int) -> None:
        if not obj.writable:
            raise WasiError(EBADF)
        f = obj.f
        try:
            pos = f.tell()
            f.truncate(size)
            f.seek(pos)  # ftruncate does not move the offset
        except (OSError, ValueError) as e:
            raise WasiError(wasi_errno(e)) from None
        except LimitExceeded as e:  # refused before anything changed
            raise WasiError(_limit_errno(e)) from None

    def fd_filestat_set_size(self, caller, fd, size):
        self._truncate(self._file(fd), size & _U64)

    def fd_filestat_set_times(self, caller, fd, atim, mtim, flags):
        obj = self._get(fd)
        if isinstance(obj, _Stream):
            raise WasiError(EBADF)
        self._set_times(obj.vpath, atim, mtim, flags, True)

    def _set_times(self, vpath, atim, mtim, flags, follow) -> None:
        now = time.time_ns()
        if flags & (FST_ATIM | FST_ATIM_NOW) and flags & (FST_MTIM | FST_MTIM_NOW):
            a = now if flags & FST_ATIM_NOW else atim & _U64
            m = now if flags & FST_MTIM_NOW else mtim & _U64
        else:
            st = self._stat(vpath, follow)
            a = now if flags & FST_ATIM_NOW else (atim & _U64 if flags & FST_ATIM else st.st_atime_ns)
            m = now if flags & FST_MTIM_NOW else (mtim & _U64 if flags & FST_MTIM else st.st_mtime_ns)
        try:
            self.fs.utime(vpath, ns=(a, m), follow_symlinks=follow)
        except OSError as e:
            raise WasiError(wasi_errno(e)) from None

    # -- directories --------------------------------------------------------------------
    def fd_readdir(self, caller, fd, buf, buf_len, cookie, used_ptr):
        d = self._dir(fd)
        mv = self.mem(caller)
        cookie &= _U64
        if cookie == 0 or d.listing is None:
            try:
                entries = self.fs.scandir(d.vpath)
            except OSError as e:
                raise WasiError(wasi_errno(e)) from None
            types = {"d": FT_DIR, "f": FT_REG, "l": FT_LINK}
            d.listing = [(".", FT_DIR), ("..", FT_DIR)] + sorted(
                (e.name, types.get(e.type, FT_CHAR if d.vpath.startswith("/dev") else FT_UNKNOWN))
                for e in entries)
        out = self._span(mv, buf, buf_len)
        pos = 0
        for i in range(cookie, len(d.listing)):
            name, ftype = d.listing[i]
            raw = os.fsencode(name)
            ino = zlib.crc32(os.fsencode(_join(d.vpath, name))) + 1
            head = _DIRENT.pack(i + 1, ino, len(raw), ftype)
            rec = head + raw
            room = len(out) - pos
            out[pos:pos + min(room, len(rec))] = rec[:room]
            pos += min(room, len(rec))
            if room <= len(rec):
                break
        self._put_u32(mv, used_ptr, pos)

    def path_create_directory(self, caller, fd, ptr, n):
        vpath = self._path(self.mem(caller), fd, ptr, n)
        self._fsop(self.fs.mkdir, vpath, 0o777 & ~self.shell.umask)

    def path_remove_directory(self, caller, fd, ptr, n):
        self._fsop(self.fs.rmdir, self._path(self.mem(caller), fd, ptr, n))

    def path_unlink_file(self, caller, fd, ptr, n):
        vpath = self._path(self.mem(caller), fd, ptr, n)
        if vpath.endswith("/"):
            st = self._stat(vpath, False)
            raise WasiError(EISDIR if _stat.S_ISDIR(st.st_mode) else ENOTDIR)
        self._fsop(self.fs.unlink, vpath)

    def path_rename(self, caller, fd, ptr, n, fd2, ptr2, n2):
        mv = self.mem(caller)
        self._fsop(self.fs.rename, self._path(mv, fd, ptr, n), self._path(mv, fd2, ptr2, n2))

    def path_symlink(self, caller, tptr, tn, fd, ptr, n):
        mv = self.mem(caller)
        target = self._str(mv, tptr, tn)
        self._fsop(self.fs.symlink, target, self._path(mv, fd, ptr, n))

    def path_readlink(self, caller, fd, ptr, n, buf, buf_len, used_ptr):
        mv = self.mem(caller)
        target = os.fsencode(self._fsop(self.fs.readlink, self._path(mv, fd, ptr, n)))
        out = self._span(mv, buf, buf_len)
        k = min(len(out), len(target))
        out[:k] = target[:k]
        self._put_u32(mv, used_ptr, k)

    def path_link(self, caller, fd, flags, ptr, n, fd2, ptr2, n2):
        mv = self.mem(caller)
        self._fsop(self.fs.link, self._path(mv, fd, ptr, n), self._path(mv, fd2, ptr2, n2))

    def path_filestat_get(self, caller, fd, flags, ptr, n, st_ptr):
        mv = self.mem(caller)
        vpath = self._path(mv, fd, ptr, n)
        self._pack_stat(mv, st_ptr, self._stat(vpath, bool(flags & LOOKUP_SYMLINK_FOLLOW)))

    def path_filestat_set_times(self, caller, fd, flags, ptr, n, atim, mtim, fst):
        vpath = self._path(self.mem(caller), fd, ptr, n)
        self._set_times(vpath, atim, mtim, fst, bool(flags & LOOKUP_SYMLINK_FOLLOW))

    def _fsop(self, fn, *args):
        try:
            return fn(*args)
        except OSError as e:
            raise WasiError(wasi_errno(e)) from None

    # -- opening ------------------------------------------------------------------------
    def path_open(self, caller, fd, lookup, ptr, n, oflags, rights, inheriting, fdflags, fd_ptr):
        mv = self.mem(caller)
        vpath = self._path(mv, fd, ptr, n)
        follow = bool(lookup & LOOKUP_SYMLINK_FOLLOW)
        wants_write = bool(rights & R_FD_WRITE) or bool(oflags & (O_CREAT | O_TRUNC))
        wants_read = bool(rights & R_FD_READ)
        if oflags & O_DIRECTORY:
            st = self._stat(vpath, follow)
            if not _stat.S_ISDIR(st.st_mode):
                raise WasiError(ENOTDIR)
            obj = _Dir(vpath)
        else:
            obj = self._open_file(vpath, oflags, fdflags, wants_read, wants_write, follow)
        self._put_u32(mv, fd_ptr, self._add(obj))

    def _open_file(self, vpath, oflags, fdflags, readable, writable, follow):
        if not follow:
            st = None
            try:
                st = self.fs.lstat(vpath)
            except OSError:
                pass
            if st is not None and _stat.S_ISLNK(st.st_mode):
                raise WasiError(E["LOOP"])
        append = bool(fdflags & FDF_APPEND)
        creat, excl, trunc = oflags & O_CREAT, oflags & O_EXCL, oflags & O_TRUNC
        if not writable:
            mode = "rb"
        elif excl and creat:
            mode = "xb" if not readable else None
        elif append:
            mode = "a+b" if readable else "ab"
            if not creat:
                self._stat(vpath, True)  # O_APPEND without O_CREAT: the file must exist
        elif trunc:
            mode = "w+b" if readable else "wb"
            if not creat:
                self._stat(vpath, True)
        else:
            mode = "r+b"
        perm = 0o666 & ~self.shell.umask
        try:
            if mode is None:  # O_RDWR|O_CREAT|O_EXCL: create, then reopen for both
                self.fs.open(vpath, "xb", perm=perm).close()
                mode = "r+b"
            try:
                f = self.fs.open(vpath, mode, perm=perm)
            except FileSystemError as e:
                if e.errno == errno.ENOENT and mode == "r+b" and creat:
                    # O_RDWR|O_CREAT (sqlite's open): create it, then open it for both.
                    try:
                        self.fs.open(vpath, "xb", perm=perm).close()
                    except FileSystemError as e2:
                        if e2.errno != errno.EEXIST:
                            raise
                    f = self.fs.open(vpath, mode, perm=perm)
                else:
                    raise
        except FileSystemError as e:
            if e.errno == errno.EISDIR and not writable:
                return _Dir(vpath)
            if e.errno == errno.ENXIO:
                stream = self._stream(vpath, writable)
                if stream is not None:
                    return stream
            raise WasiError(wasi_errno(e)) from None
        except OSError as e:
            raise WasiError(wasi_errno(e)) from None
        return _File(f, vpath, append, mode not in ("wb", "ab", "xb"), writable)

    def _stream(self, vpath: str, writable: bool) -> _Stream | None:
        """``/dev/stdout`` and friends: the shell's own fds."""
        try:
            res = self.shell.core.kind(vpath)
        except FileSystemError:
            return None
        if res.kind != STREAM:
            return None
        if res.fdnum in (0, 1, 2) and res.fdnum in self.fds:
            cur = self.fds[res.fdnum]
            if isinstance(cur, _Stream):
                return _Stream(cur.stream, cur.readable)
        s = self.shell.fds.get(res.fdnum)
        if s is None:
            raise WasiError(EBADF)
        return _Stream(s.dup(), not writable and hasattr(s, "read"), owned=True)

    # -- sockets: none ----------------------------------------------------------------------
    def sock_accept(self, caller, fd, flags, ptr):
        raise WasiError(ENOTSUP)

    def sock_recv(self, caller, fd, *args):
        raise WasiError(ENOTSUP)

    def sock_send(self, caller, fd, *args):
        raise WasiError(ENOTSUP)

    def sock_shutdown(self, caller, fd, how):
        raise WasiError(ENOTSUP)
