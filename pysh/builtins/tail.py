"""tail: the last part of files, and -f/-F following through the FileSystem door."""

from __future__ import annotations

import errno
import os
import stat as _stat

import anyio

from pysh.builtins._textutil import (
    NumberError,
    OptionError,
    Writer,
    help_text,
    parse_options,
    parse_size,
    quote,
    quoteaf,
    quotef,
    strerror,
    usage,
    version_text,
)
from pysh.shellkit.streams import FileInput
from pysh.shellkit.text import encode
from pysh.shellkit.worker import ensure_loop

HELP = """\
Usage: tail [OPTION]... [FILE]...
Print the last 10 lines of each FILE to standard output.
With more than one FILE, precede each with a header giving the file name.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -c, --bytes=[+]NUM       output the last NUM bytes; or use -c +NUM to
                             output starting with byte NUM of each file
  -f, --follow[={name|descriptor}]
                           output appended data as the file grows;
                             an absent option argument means 'descriptor'
  -F                       same as --follow=name --retry
  -n, --lines=[+]NUM       output the last NUM lines, instead of the last 10;
                             or use -n +NUM to skip NUM-1 lines at the start
      --max-unchanged-stats=N  (accepted; the file is re-checked every poll)
      --pid=PID            with -f, terminate after process ID, PID dies
  -q, --quiet, --silent    never output headers giving file names
      --retry              keep trying to open a file if it is inaccessible
  -s, --sleep-interval=N   with -f, sleep for approximately N seconds
                             (default 1.0) between iterations
  -v, --verbose            always output headers giving file names
  -z, --zero-terminated    line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit

NUM may have a multiplier suffix:
b 512, kB 1000, K 1024, MB 1000*1000, M 1024*1024,
GB 1000*1000*1000, G 1024*1024*1024, and so on for T, P, E, Z, Y, R, Q.

Following ends at the run's deadline, or when the run is interrupted.
"""

LONG = {"bytes=": "c", "lines=": "n", "follow?": "follow", "quiet": "q", "silent": "q",
        "verbose": "v", "zero-terminated": "z", "retry": "retry", "pid=": "pid",
        "sleep-interval=": "s", "max-unchanged-stats=": "maxstats",
        "presume-input-pipe": "pipe", "help": "help", "version": "version"}


def _obsolete(args: list[str]):
    if not args:
        return None
    n = len(args)
    if not (n == 1 or (n == 2 and not (args[1].startswith("-") and len(args[1]) > 1))
            or (2 <= n <= 3 and args[1] == "--")):
        return None
    p = args[0]
    if p.startswith("+"):
        from_start = True
    elif p.startswith("-"):
        body = p[1:]
        if not body or body == "c":
            return None
        from_start = False
    else:
        return None
    s = p[1:]
    i = 0
    while i < len(s) and s[i].isdigit():
        i += 1
    digits, rest = s[:i], s[i:]
    default = 10
    lines = True
    if rest[:1] == "b":
        default *= 512
        lines = False
        rest = rest[1:]
    elif rest[:1] == "c":
        lines = False
        rest = rest[1:]
    elif rest[:1] == "l":
        rest = rest[1:]
    forever = False
    if rest[:1] == "f":
        forever = True
        rest = rest[1:]
    if rest:
        return None
    count = int(digits) if digits else default
    return from_start, lines, count, forever, args[1:]


class Followed:
    __slots__ = ("name", "shown", "file", "pos", "ino", "gone", "stream")

    def __init__(self, name, shown):
        self.name = name
        self.shown = shown
        self.file = None
        self.stream = None
        self.pos = 0
        self.ino = None
        self.gone = False


async def main(shell, argv: list[str]) -> int:
    prog = "tail"
    args = argv[1:]
    from_start = False
    lines_mode = True
    count = 10
    follow: str | None = None
    retry = pid_given = False
    headers: bool | None = None
    delim = b"\n"
    interval = 1.0
    pid: int | None = None
    ob = _obsolete(args)
    if ob is not None:
        from_start, lines_mode, count, forever, files = ob
        if forever:
            follow = "descriptor"
        opts = []
        if files and files[0] == "--":
            files = files[1:]
    else:
        try:
            opts, files = parse_options(args, "c:n:fFqs:vz0123456789", LONG)
        except OptionError as e:
            return await usage(shell, prog, str(e))
    for k, v in opts:
        if k == "help":
            return await help_text(shell, HELP)
        if k == "version":
            return await version_text(shell, prog)
        if k in ("c", "n"):
            lines_mode = k == "n"
            s = v or ""
            from_start = s.startswith("+")
            if s[:1] in "+-" and s:
                s = s[1:]
            try:
                count = parse_size(s)
            except NumberError as e:
                what = "number of lines" if k == "n" else "number of bytes"
                tail = ": Value too large for defined data type" if e.kind == "range" else ""
                await shell.error(prog, f"invalid {what}: {quote(v or '')}{tail}")
                return 1
        elif k == "f":
            follow = follow or "descriptor"
        elif k == "follow":
            if v is None or "descriptor".startswith(v) and v:
                follow = "descriptor"
            elif v and "name".startswith(v):
                follow = "name"
            else:
                await shell.error(prog, f"invalid argument {quote(v)} for {quote('--follow')}")
                await shell.stderr.write(encode(
                    f"Valid arguments are:\n  - {quote('descriptor')}\n  - {quote('name')}\n"))
                return await usage(shell, prog, None)
        elif k == "F":
            follow = "name"
            retry = True
        elif k == "retry":
            retry = True
        elif k == "q":
            headers = False
        elif k == "v":
            headers = True
        elif k == "z":
            delim = b"\0"
        elif k == "s":
            try:
                interval = float(v or "")
                if interval < 0 or interval != interval:
                    raise ValueError
            except ValueError:
                await shell.error(prog, f"invalid number of seconds: {quote(v or '')}")
                return 1
        elif k == "pid":
            pid_given = True
            try:
                pid = int(v or "")
                if pid < 0:
                    raise ValueError
            except ValueError:
                await shell.error(prog, f"invalid PID: {quote(v or '')}")
                return 1
        elif k == "maxstats":
            try:
                parse_size(v or "", "")
            except NumberError:
                await shell.error(prog, f"invalid maximum number of unchanged stats between opens: {quote(v or '')}")
                return 1
        elif k.isdigit():
            await shell.error(prog, f"option used in invalid context -- {k}")
            return 1
    if from_start and count:
        count -= 1
    if retry and not follow:
        await shell.error(prog, "warning: --retry ignored; --retry is useful only when following")
    if pid_given and not follow:
        await shell.error(prog, "warning: PID ignored; --pid=PID is useful only when following")
    if not files:
        files = ["-"]
    if headers is None:
        headers = len(files) > 1
    out = Writer(shell.stdout)
    status = 0
    followed: list[Followed] = []
    first = True
    for name in files:
        shown = "standard input" if name == "-" else name
        fol = Followed(name, shown)
        try:
            stream = shell.open_input(name)
        except OSError as e:
            if e.errno == errno.EISDIR:
                if headers:
                    await out.write(encode(("" if first else "\n") + f"==> {shown} <==\n"))
                first = False
                await out.flush()
                await shell.error(prog, f"error reading {quoteaf(name)}: Is a directory")
                if follow:
                    await shell.error(prog, f"{quoteaf(name)}: cannot follow end of this type of file; giving up on this name")
            else:
                await out.flush()
                await shell.error(prog, f"cannot open {quoteaf(name)} for reading: {strerror(e)}")
                if follow and retry and follow == "name":
                    fol.gone = True
                    followed.append(fol)
            status = 1
            continue
        if headers:
            await out.write(encode(("" if first else "\n") + f"==> {shown} <==\n"))
        first = False
        f = None
        if isinstance(stream, FileInput) and name != "-" and not name.startswith("/dev/"):
            f = stream.file
        try:
            if f is not None and _seekable(f):
                await _tail_file(shell, f, out, lines_mode, count, from_start, delim)
            else:
                await _tail_stream(shell, stream, out, lines_mode, count, from_start, delim)
        finally:
            if follow and f is not None:
                fol.file = f
                fol.stream = stream
                fol.pos = f.tell()
                try:
                    fol.ino = os.fstat(f.fileno()).st_ino
                except (OSError, ValueError, AttributeError):
                    fol.ino = None
                followed.append(fol)
            else:
                stream.close()
    await out.flush()
    if not follow or not followed:
        return status
    try:
        return await _follow(shell, followed, out, follow, retry, headers, interval, pid, status)
    finally:
        for fol in followed:
            if fol.stream is not None:
                fol.stream.close()


def _seekable(f) -> bool:
    try:
        return f.seekable() and _stat.S_ISREG(os.fstat(f.fileno()).st_mode)
    except (OSError, ValueError, AttributeError):
        return False


def _tail_start(data: bytes, lines_mode: bool, count: int, delim: bytes) -> int:
    """Offset in ``data`` where the last ``count`` lines/bytes start."""
    if not lines_mode:
        return max(0, len(data) - count)
    if count == 0:
        return len(data)
    end = len(data) - 1 if data.endswith(delim) else len(data)
    for _ in range(count):
        i = data.rfind(delim, 0, end)
        if i < 0:
            return 0
        end = i
    return end + 1


def _skip_start(data: bytes, lines_mode: bool, count: int, delim: bytes) -> int | None:
    """Offset after skipping ``count`` lines/bytes, or None when the data ends first."""
    if not lines_mode:
        return count if count <= len(data) else None
    pos = 0
    for _ in range(count):
        i = data.find(delim, pos)
        if i < 0:
            return None
        pos = i + 1
    return pos


async def _tail_file(shell, f, out, lines_mode, count, from_start, delim) -> None:
    size = os.fstat(f.fileno()).st_size
    if from_start:
        if not lines_mode:
            f.seek(min(count, size))
        else:
            left = count
            pos = 0
            f.seek(0)
            while left > 0:
                chunk = f.read(1 << 18)
                if not chunk:
                    return
                shell.budget.check()
                n = chunk.count(delim)
                if n < left:
                    left -= n
                    pos += len(chunk)
                    continue
                p = -1
                for _ in range(left):
                    p = chunk.index(delim, p + 1)
                pos += p + 1
                break
            f.seek(pos)
        await _copy_rest(shell, f, out)
        return
    if not lines_mode:
        f.seek(max(0, size - count))
        await _copy_rest(shell, f, out)
        return
    # read backwards until enough delimiters are seen
    block = 1 << 16
    end = size
    data = b""
    while end > 0:
        start = max(0, end - block)
        f.seek(start)
        data = f.read(end - start) + data
        end = start
        shell.budget.check()
        shell.budget.check_string(len(data))
        if data.count(delim) > count:
            break
        block = min(block * 2, 1 << 22)
    off = _tail_start(data, lines_mode, count, delim)
    await out.write(data[off:])
    f.seek(size)


async def _copy_rest(shell, f, out) -> None:
    while True:
        chunk = f.read(1 << 18)
        if not chunk:
            return
        shell.budget.check()
        await out.write(chunk)


async def _tail_stream(shell, stream, out, lines_mode, count, from_start, delim) -> None:
    budget = shell.budget
    if from_start:
        pending = b""
        left = count
        while left > 0 or pending:
            chunk = await stream.read(1 << 18)
            if not chunk:
                return
            budget.check()
            data = pending + chunk
            pending = b""
            off = _skip_start(data, lines_mode, left, delim)
            if off is None:
                if lines_mode:
                    left -= data.count(delim)
                    i = data.rfind(delim)
                    pending = data[i + 1:] if i >= 0 else data
                    if len(pending) > (1 << 20):
                        pending = b""  # inside one long skipped line: nothing to keep
                else:
                    left -= len(data)
                continue
            await out.write(data[off:])
            break
        while True:
            chunk = await stream.read(1 << 18)
            if not chunk:
                return
            budget.check()
            await out.write(chunk)
    # keep only what may end up in the output
    kept = bytearray()
    trim_at = 8 << 20
    while True:
        chunk = await stream.read(1 << 18)
        if not chunk:
            break
        budget.check()
        kept += chunk
        if len(kept) > trim_at:
            off = _tail_start(bytes(kept), lines_mode, count, delim)
            del kept[:off]
            budget.check_string(len(kept))  # `tail -c 1T`, or one endless line
            trim_at = max(8 << 20, 2 * len(kept))  # trimming stays linear in the input
    data = bytes(kept)
    await out.write(data[_tail_start(data, lines_mode, count, delim):])


async def _follow(shell, followed, out, mode, retry, headers, interval, pid, status) -> int:
    await ensure_loop()
    budget = shell.budget
    last = followed[-1] if followed else None
    fs = shell.fs
    pid_alive = True
    while True:
        budget.check()
        if pid is not None:
            pid_alive = any(p.pid == pid for p in shell.processes())
        for fol in followed:
            if mode == "name":
                try:
                    st = fs.stat(fol.name)
                except OSError as e:
                    if not fol.gone:
                        fol.gone = True
                        await out.flush()
                        if retry:
                            await shell.error("tail", f"{quoteaf(fol.name)} has become inaccessible: {strerror(e)}")
                        else:
                            await shell.error("tail", f"{quotef(fol.name)}: {strerror(e)}")
                    continue
                if fol.gone or fol.file is None or st.st_ino != fol.ino:
                    try:
                        f = fs.open(fol.name, "rb")
                    except OSError:
                        continue
                    await out.flush()
                    if fol.file is not None:
                        if fol.gone:
                            await shell.error("tail", f"{quoteaf(fol.name)} has appeared;  following new file")
                        else:
                            await shell.error("tail", f"{quoteaf(fol.name)} has been replaced;  following new file")
                        try:
                            fol.file.close()
                        except OSError:
                            pass
                    elif fol.gone:
                        await shell.error("tail", f"{quoteaf(fol.name)} has appeared;  following new file")
                    fol.file, fol.pos, fol.ino, fol.gone = f, 0, st.st_ino, False
                    fol.stream = None
            if fol.file is None:
                continue
            try:
                size = os.fstat(fol.file.fileno()).st_size
            except (OSError, ValueError):
                continue
            if size < fol.pos:
                await out.flush()
                await shell.error("tail", f"{quotef(fol.name)}: file truncated")
                fol.pos = 0
            if size > fol.pos:
                fol.file.seek(fol.pos)
                data = fol.file.read(size - fol.pos)
                fol.pos += len(data)
                if data:
                    if headers and fol is not last:
                        await out.write(encode(f"\n==> {fol.shown} <==\n"))
                    last = fol
                    await out.write(data)
        await out.flush()
        if pid is not None and not pid_alive:
            return status
        if mode == "descriptor" and not retry and all(f.file is None for f in followed):
            await shell.error("tail", "no files remaining")
            return 1
        wait = interval
        rem = budget.remaining()
        if rem is not None:
            wait = min(wait, max(rem, 0.0) + 0.001)
        await anyio.sleep(wait)
