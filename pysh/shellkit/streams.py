"""Byte streams: what a command's fds 0, 1, 2 (and 3..N) are.

One byte model: pipes, files, here-docs and captures all carry ``bytes``.

Streams are async so that pipeline stages run concurrently on anyio with
backpressure, and so that ``yes | head -n 1`` ends at once: a write to a
:class:`Pipe` whose readers are all gone raises :class:`BrokenPipe`.

A stream object may be shared by several fd-table slots and processes (as
``dup``'ed fds are); each holder calls :meth:`dup` to take a reference and
:meth:`close` to drop it. The underlying resource closes with the last one.

Writers are unbuffered at this level (a write reaches the pipe buffer, the
capture or the host fd at once), so commands should write in sizeable
chunks; readers buffer.

Every read that gathers "until something" (all of the input, a line, a record)
stops past the stream's ``cap`` (the run's ``max_string_length``) with the
clean string-limit error, and a long read lets the event loop run every
megabyte (or 10 ms), so ``read x < /dev/zero`` neither grows to gigabytes nor outlives
its deadline, whichever command does the reading.
"""

from __future__ import annotations

import os
import stat as _stat
import time
from collections.abc import AsyncIterator

from pysh.shellkit.errors import BrokenPipe, WriteError
from pysh.shellkit.limits import LimitExceeded, Limits
from pysh.shellkit.worker import ensure_loop, loop_running

CHUNK = 64 * 1024
PIPE_CAPACITY = 64 * 1024
# A long read lets the event loop run (deadlines, other jobs) this often, in bytes or time.
YIELD_BYTES = 1 << 20
YIELD_SECONDS = 0.01


# --------------------------------------------------------------------- input
class InputStream:
    """Buffered async byte reader. Subclasses implement :meth:`_fill`."""

    # Most bytes one read may gather (the run's string limit; set by whoever makes the
    # stream for a run, else the default limit).
    cap: int = Limits().max_string_length

    def __init__(self) -> None:
        self._buf = bytearray()
        self._eof = False
        self._refs = 1
        self._unyielded = 0
        self._yield_at = 0.0

    async def _fill(self) -> bytes:  # next chunk, b"" at EOF
        return b""

    async def _more(self) -> bool:
        if self._eof:
            return False
        data = await self._fill()
        if not data:
            self._eof = True
            return False
        self._buf += data
        await self._pace(len(data))
        return True

    async def _pace(self, n: int) -> None:
        # A file or /dev/zero never blocks: without this, a cancel scope's deadline
        # could not fire while the loop reads (or while a slow reader works through it).
        # A run without an event loop has no deadline scope to let in (a deadline brings
        # the loop), and its read still ends at the cap.
        self._unyielded += n
        if self._unyielded >= YIELD_BYTES or time.monotonic() >= self._yield_at:
            self._unyielded = 0
            self._yield_at = time.monotonic() + YIELD_SECONDS
            if loop_running():
                import anyio.lowlevel

                await anyio.lowlevel.checkpoint()

    def _too_long(self) -> LimitExceeded:
        self._buf.clear()
        return LimitExceeded("string", f"{self.cap} bytes")

    async def read(self, n: int = -1) -> bytes:
        """Up to ``n`` bytes (all that is left when n < 0, at most ``cap``); b"" at EOF."""
        if n < 0:
            cap = self.cap
            while len(self._buf) <= cap and await self._more():
                pass
            if len(self._buf) > cap:
                raise self._too_long()
            data = bytes(self._buf)
            self._buf.clear()
            return data
        if not self._buf:
            await self._more()
        data = bytes(self._buf[:n])
        del self._buf[:n]
        return data

    async def peek(self, n: int) -> bytes:
        """Up to ``n`` of the bytes a read would return next, left unread (filling the
        buffer once when it is empty); b"" at EOF."""
        if not self._buf:
            await self._more()
        return bytes(self._buf[:n])

    async def read_exactly(self, n: int) -> bytes:
        """``n`` bytes, or fewer only at EOF."""
        while len(self._buf) < n:
            if len(self._buf) > self.cap:
                raise self._too_long()
            if not await self._more():
                break
        data = bytes(self._buf[:n])
        del self._buf[:n]
        return data

    async def read_until(self, delim: bytes = b"\n", limit: int = -1) -> bytes:
        """Bytes up to and including ``delim`` (or up to ``limit`` bytes, or to EOF)."""
        start = 0
        cap = self.cap
        while True:
            i = self._buf.find(delim, start)
            if i >= 0:
                end = i + len(delim)
                if 0 <= limit < end:
                    end = limit
                break
            if 0 <= limit <= len(self._buf):
                end = limit
                break
            if len(self._buf) > cap:
                raise self._too_long()
            start = max(0, len(self._buf) - len(delim) + 1)
            if not await self._more():
                end = len(self._buf)
                break
        data = bytes(self._buf[:end])
        del self._buf[:end]
        return data

    async def readline(self) -> bytes:
        return await self.read_until(b"\n")

    async def lines(self) -> AsyncIterator[bytes]:
        """Each line with its newline (the last one may lack it)."""
        while True:
            i = self._buf.find(b"\n")
            while i < 0:
                start = len(self._buf)
                if start > self.cap:
                    raise self._too_long()
                if not await self._more():
                    if self._buf:
                        data = bytes(self._buf)
                        self._buf.clear()
                        yield data
                    return
                i = self._buf.find(b"\n", start)
            # Hand out every complete line already buffered in one go.
            chunk = bytes(self._buf[: self._buf.rfind(b"\n") + 1])
            del self._buf[: len(chunk)]
            for line in chunk.split(b"\n")[:-1]:
                yield line + b"\n"

    async def line_blocks(self, delim: bytes = b"\n") -> AsyncIterator[bytes]:
        """Blocks of whole records, each block ending with ``delim`` (the last one may lack
        it, at EOF): for line-at-a-time tools that work a block at a time. A record longer
        than ``cap`` raises the string-limit error."""
        buf = self._buf
        while True:
            if not buf and not await self._more():
                return
            i = buf.rfind(delim)
            start = 0
            while i < 0:
                if len(buf) > self.cap:
                    raise self._too_long()
                start = max(0, len(buf) - len(delim) + 1)
                if not await self._more():
                    data = bytes(buf)
                    buf.clear()
                    yield data
                    return
                i = buf.rfind(delim, start)
            end = i + len(delim)
            data = bytes(buf[:end])
            del buf[:end]
            yield data

    async def chunks(self) -> AsyncIterator[bytes]:
        """Whatever is available, chunk by chunk, until EOF."""
        if self._buf:
            data = bytes(self._buf)
            self._buf.clear()
            yield data
        while not self._eof:
            data = await self._fill()
            if not data:
                self._eof = True
                return
            await self._pace(len(data))
            yield data

    def at_eof_buffered(self) -> bool:
        return self._eof and not self._buf

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int | None:
        """The host fd behind this stream, if there is one (ports may need it)."""
        return None

    def dup(self) -> InputStream:
        self._refs += 1
        return self

    def close(self) -> None:
        self._refs -= 1
        if self._refs <= 0:
            self._release()

    def _release(self) -> None:
        pass


class BytesInput(InputStream):
    """A here-doc, here-string, or any bytes known up front."""

    def __init__(self, data: bytes = b"") -> None:
        super().__init__()
        self._buf += data
        self._eof = True


class NullInput(BytesInput):
    pass


class MaterialInput(BytesInput):
    """A pipe named as a file (``<(cmd)``, /dev/fd/N, /dev/stdin) read to its end before the
    command runs, so that every way of opening a file can open it: each open (each
    ``dup``) reads it from the start, as a file would be."""

    def __init__(self, data: bytes) -> None:
        super().__init__(data)
        self.data = data

    def dup(self) -> InputStream:
        return MaterialInput(self.data)


class FdInput(InputStream):
    """Reads a host fd. Pipes and terminals are read in a worker thread so the loop keeps running."""

    def __init__(self, fd: int, *, owned: bool = False) -> None:
        super().__init__()
        self.fd = fd
        self.owned = owned
        try:
            mode = os.fstat(fd).st_mode
            self._threaded = not (_stat.S_ISREG(mode) or _stat.S_ISBLK(mode))
        except OSError:
            self._threaded = False

    async def _fill(self) -> bytes:
        try:
            if self._threaded:
                import anyio

                await ensure_loop()
                return await anyio.to_thread.run_sync(os.read, self.fd, CHUNK, abandon_on_cancel=True)
            return os.read(self.fd, CHUNK)
        except OSError:
            return b""

    def isatty(self) -> bool:
        try:
            return os.isatty(self.fd)
        except OSError:
            return False

    def fileno(self) -> int | None:
        return self.fd

    def readline_blocking(self) -> bytes:
        """One line, read synchronously into the shared buffer.

        For a script read from stdin: the parser pulls lines one at a time, and
        whatever it does not take stays buffered for the script's own ``read``.
        """
        while b"\n" not in self._buf and not self._eof:
            try:
                data = os.read(self.fd, CHUNK)
            except OSError:
                data = b""
            if not data:
                self._eof = True
                break
            self._buf += data
        i = self._buf.find(b"\n")
        end = len(self._buf) if i < 0 else i + 1
        line = bytes(self._buf[:end])
        del self._buf[:end]
        return line

    def _release(self) -> None:
        if self.owned:
            try:
                os.close(self.fd)
            except OSError:
                pass


def door_cap(f, default: int) -> int:
    """The read cap of a file the door opened: its run's string limit (else ``default``)."""
    budget = getattr(getattr(f, "raw", None), "budget", None)
    return budget.limits.max_string_length if budget is not None else default


class FileInput(InputStream):
    """Reads a binary file object (one opened through the FileSystem door)."""

    def __init__(self, f) -> None:
        super().__init__()
        self.file = f
        self.cap = door_cap(f, self.cap)

    async def _fill(self) -> bytes:
        try:
            return self.file.read(CHUNK)
        except OSError:
            return b""

    def fileno(self) -> int | None:
        try:
            return self.file.fileno()
        except (OSError, ValueError, AttributeError):
            return None

    def _release(self) -> None:
        try:
            self.file.close()
        except OSError:
            pass


# -------------------------------------------------------------------- output
class OutputStream:
    """Async byte writer."""

    def __init__(self) -> None:
        self._refs = 1

    async def write(self, data: bytes) -> None:
        raise NotImplementedError

    async def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int | None:
        return None

    def dup(self) -> OutputStream:
        self._refs += 1
        return self

    def close(self) -> None:
        self._refs -= 1
        if self._refs <= 0:
            self._release()

    def _release(self) -> None:
        pass


class NullOutput(OutputStream):
    async def write(self, data: bytes) -> None:
        pass


class FdOutput(OutputStream):
    """Writes a host fd (the process's own stdout/stderr, or a file the door opened).

    With a ``limit`` (the CLI's max_output_bytes), the bytes past it are not written: the
    write that reaches it writes what fits, then this and every later write raise
    :class:`BrokenPipe`, as on a closed pipe, and ``truncated`` is set.
    """

    def __init__(self, fd: int, *, owned: bool = False, limit: int | None = None) -> None:
        super().__init__()
        self.fd = fd
        self.owned = owned
        self.limit = limit
        self.written = 0
        self.truncated = False

    async def write(self, data: bytes) -> None:
        if self.limit is not None:
            room = self.limit - self.written
            if len(data) > room:
                self.truncated = True
                if room > 0:
                    await self._write(memoryview(data)[:room])
                    self.written = self.limit
                raise BrokenPipe()
            self.written += len(data)
        await self._write(data)

    async def _write(self, data) -> None:
        view = memoryview(data)
        while view:
            try:
                n = os.write(self.fd, view)
            except BrokenPipeError:
                raise BrokenPipe() from None
            except BlockingIOError:
                import anyio

                await ensure_loop()
                await anyio.sleep(0.001)
                continue
            except OSError as e:  # ENOSPC (/dev/full), EIO, ...: the writer says "write error"
                raise WriteError.of(e) from None
            view = view[n:]

    def isatty(self) -> bool:
        try:
            return os.isatty(self.fd)
        except OSError:
            return False

    def fileno(self) -> int | None:
        return self.fd

    def _release(self) -> None:
        if self.owned:
            try:
                os.close(self.fd)
            except OSError:
                pass


class FileOutput(OutputStream):
    """Writes a binary file object opened through the FileSystem door."""

    def __init__(self, f) -> None:
        super().__init__()
        self.file = f

    async def write(self, data: bytes) -> None:
        # Flushed at once: a later reader of the same file (``exec 3>f; echo a >&3;
        # cat f``) must see the bytes, as with a real fd.
        try:
            self.file.write(data)
            self.file.flush()
        except BrokenPipeError:
            raise BrokenPipe() from None
        except OSError as e:
            raise WriteError.of(e) from None

    async def flush(self) -> None:
        try:
            self.file.flush()
        except BrokenPipeError:
            raise BrokenPipe() from None
        except OSError as e:
            raise WriteError.of(e) from None

    def fileno(self) -> int | None:
        try:
            return self.file.fileno()
        except (OSError, ValueError, AttributeError):
            return None

    def _release(self) -> None:
        try:
            self.file.close()
        except OSError:
            pass



class CaptureOutput(OutputStream):
    """Collects bytes (command substitution, the API's stdout/stderr) up to an optional cap.

    Past the cap, further bytes are dropped and ``truncated`` is set; with
    ``strict`` (a command substitution, whose result is a string) the write
    raises the string-limit error instead, which stops the writer at once.
    """

    def __init__(self, limit: int | None = None, *, strict: bool = False) -> None:
        super().__init__()
        self.data = bytearray()
        self.limit = limit
        self.truncated = False
        self.strict = strict

    async def write(self, data: bytes) -> None:
        self.write_nowait(data)

    def write_nowait(self, data: bytes) -> None:
        if self.limit is not None:
            room = self.limit - len(self.data)
            if len(data) > room:
                if self.strict:
                    raise LimitExceeded("string", f"{self.limit} bytes")
                self.truncated = True
                data = data[: max(room, 0)]
        self.data += data

    def getvalue(self) -> bytes:
        return bytes(self.data)


# ---------------------------------------------------------------------- pipe
class Pipe:
    """A bounded in-process pipe with reference-counted ends.

    Writers block while the buffer holds ``capacity`` bytes or more; a write
    after every reader has closed raises :class:`BrokenPipe`; readers see EOF
    once every writer has closed and the buffer is drained.
    """

    def __init__(self, capacity: int = PIPE_CAPACITY, read_cap: int | None = None) -> None:
        self.capacity = capacity
        self.read_cap = read_cap  # the readers' cap (None: the default)
        self.buf = bytearray()
        self.writers = 0
        self.readers = 0
        self._data_ready = None  # an anyio.Event while a reader waits
        self._space_ready = None  # an anyio.Event while a writer waits

    def reader(self) -> PipeReader:
        self.readers += 1
        return PipeReader(self)

    def writer(self) -> PipeWriter:
        self.writers += 1
        return PipeWriter(self)

    def _wake_readers(self) -> None:
        ev, self._data_ready = self._data_ready, None
        if ev is not None:
            ev.set()

    def _wake_writers(self) -> None:
        ev, self._space_ready = self._space_ready, None
        if ev is not None:
            ev.set()

    async def put(self, data: bytes) -> None:
        if self.readers <= 0:
            raise BrokenPipe()
        self.buf += data
        self._wake_readers()
        while len(self.buf) >= self.capacity:
            if self.readers <= 0:
                raise BrokenPipe()
            if self._space_ready is None:
                import anyio

                await ensure_loop()
                self._space_ready = anyio.Event()
            await self._space_ready.wait()
        if self.readers <= 0 and data:
            raise BrokenPipe()

    async def get(self, n: int) -> bytes:
        while not self.buf:
            if self.writers <= 0:
                return b""
            if self._data_ready is None:
                import anyio

                await ensure_loop()
                self._data_ready = anyio.Event()
            await self._data_ready.wait()
        data = bytes(self.buf[:n])
        del self.buf[:n]
        if len(self.buf) < self.capacity:
            self._wake_writers()
        return data

    def close_writer(self) -> None:
        self.writers -= 1
        if self.writers <= 0:
            self._wake_readers()

    def close_reader(self) -> None:
        self.readers -= 1
        if self.readers <= 0:
            self.buf.clear()
            self._wake_writers()


class PipeReader(InputStream):
    def __init__(self, pipe: Pipe) -> None:
        super().__init__()
        self.pipe = pipe
        if pipe.read_cap is not None:
            self.cap = pipe.read_cap

    async def _fill(self) -> bytes:
        return await self.pipe.get(CHUNK)

    def _release(self) -> None:
        self.pipe.close_reader()


class PipeWriter(OutputStream):
    def __init__(self, pipe: Pipe) -> None:
        super().__init__()
        self.pipe = pipe

    async def write(self, data: bytes) -> None:
        if data:
            await self.pipe.put(data)

    def _release(self) -> None:
        self.pipe.close_writer()
