"""head: the first part of files (GNU coreutils semantics)."""

from __future__ import annotations

import errno
from collections import deque

from pysh.builtins._textutil import (
    NumberError,
    OpenFailed,
    OptionError,
    Writer,
    help_text,
    open_input,
    parse_options,
    parse_size,
    quote,
    quoteaf,
    strerror,
    usage,
    version_text,
)
from pysh.shellkit.text import encode

HELP = """\
Usage: head [OPTION]... [FILE]...
Print the first 10 lines of each FILE to standard output.
With more than one FILE, precede each with a header giving the file name.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -c, --bytes=[-]NUM       print the first NUM bytes of each file;
                             with the leading '-', print all but the last
                             NUM bytes of each file
  -n, --lines=[-]NUM       print the first NUM lines instead of the first 10;
                             with the leading '-', print all but the last
                             NUM lines of each file
  -q, --quiet, --silent    never print headers giving file names
  -v, --verbose            always print headers giving file names
  -z, --zero-terminated    line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit

NUM may have a multiplier suffix:
b 512, kB 1000, K 1024, MB 1000*1000, M 1024*1024,
GB 1000*1000*1000, G 1024*1024*1024, and so on for T, P, E, Z, Y, R, Q.
Binary prefixes can be used, too: KiB=K, MiB=M, and so on.
"""

LONG = {"bytes=": "c", "lines=": "n", "quiet": "q", "silent": "q", "verbose": "v",
        "zero-terminated": "z", "help": "help", "version": "version"}


def _obsolete(arg: str) -> list[str] | None:
    """``-5``, ``-5c``, ``-5l``, ``-2kqv``: the old syntax, as the first argument only."""
    if len(arg) < 2 or arg[0] != "-" or not arg[1].isdigit():
        return None
    i = 1
    while i < len(arg) and arg[i].isdigit():
        i += 1
    num, rest = arg[1:i], arg[i:]
    unit = "n"
    mult = ""
    out: list[str] = []
    for ch in rest:
        if ch in "bkm":
            mult = ch
            unit = "c"
        elif ch == "c":
            unit = "c"
        elif ch == "l":
            unit = "n"
        elif ch in "qvz":
            out.append("-" + ch)
        else:
            return None
    return [f"-{unit}", num + mult, *out]


async def main(shell, argv: list[str]) -> int:
    prog = "head"
    args = argv[1:]
    if args and (ob := _obsolete(args[0])) is not None:
        args = ob + args[1:]
    try:
        opts, files = parse_options(args, "c:n:qvz0123456789", LONG)
    except OptionError as e:
        return await usage(shell, prog, str(e))
    mode = "n"
    count = 10
    elide = False
    headers: bool | None = None
    delim = b"\n"
    for k, v in opts:
        if k == "help":
            return await help_text(shell, HELP)
        if k == "version":
            return await version_text(shell, prog)
        if k in ("c", "n"):
            mode = k
            s = v or ""
            elide = s.startswith("-")
            if elide:
                s = s[1:]
            try:
                count = parse_size(s)
            except NumberError as e:
                what = "number of lines" if k == "n" else "number of bytes"
                tail = ": Value too large for defined data type" if e.kind == "range" else ""
                await shell.error(prog, f"invalid {what}: {quote(v or '')}{tail}")
                return 1
        elif k == "q":
            headers = False
        elif k == "v":
            headers = True
        elif k == "z":
            delim = b"\0"
        elif k.isdigit():
            return await usage(shell, prog, f"invalid option -- '{k}'")
    if not files:
        files = ["-"]
    if headers is None:
        headers = len(files) > 1
    out = Writer(shell.stdout)
    status = 0
    first = True
    for name in files:
        shown = "standard input" if name == "-" else name
        try:
            stream = open_input(shell, name)
        except OpenFailed as e:
            if e.errno == errno.EISDIR:
                stream = None
            else:
                await out.flush()
                await shell.error(prog, f"cannot open {quoteaf(name)} for reading: {strerror(e)}")
                status = 1
                continue
        if headers:
            await out.write(encode(("" if first else "\n") + f"==> {shown} <==\n"))
        first = False
        if stream is None:
            await out.flush()
            await shell.error(prog, f"error reading {quoteaf(name)}: Is a directory")
            status = 1
            continue
        try:
            await _head(shell, stream, out, mode, count, elide, delim)
        finally:
            stream.close()
    await out.flush()
    return status


async def _head(shell, stream, out: Writer, mode: str, count: int, elide: bool,
                delim: bytes) -> None:
    budget = shell.budget
    if mode == "c" and not elide:
        left = count
        while left > 0:
            chunk = await stream.read(min(left, 1 << 18))
            if not chunk:
                break
            budget.check()
            left -= len(chunk)
            await out.write(chunk)
        return
    if mode == "c":
        # all but the last `count` bytes
        keep = bytearray()
        while True:
            chunk = await stream.read(1 << 18)
            if not chunk:
                break
            budget.check()
            keep += chunk
            if len(keep) > count:
                n = len(keep) - count
                await out.write(bytes(keep[:n]))
                del keep[:n]
            budget.check_string(len(keep))  # `head -c -1T`: the window is held
        return
    if not elide:
        left = count
        if left <= 0:
            return
        while True:
            chunk = await stream.read(1 << 16)
            if not chunk:
                break
            budget.check()
            n = chunk.count(delim)
            if n < left:
                left -= n
                await out.write(chunk)
                continue
            pos = -1
            for _ in range(left):
                pos = chunk.index(delim, pos + 1)
            await out.write(chunk[:pos + 1])
            return
        return
    # all but the last `count` lines
    window: deque[bytes] = deque()
    pending = b""
    async for data in stream.line_blocks(delim):
        budget.check()
        parts = data.split(delim)
        pending = parts.pop()  # not empty only for a last line without its delimiter
        emit = []
        for p in parts:
            window.append(p)
            if len(window) > count:
                emit.append(window.popleft())
        if emit:
            await out.write(delim.join(emit) + delim)
    if pending:
        window.append(pending)
        if len(window) > count:
            await out.write(window.popleft() + (delim if window else b""))
