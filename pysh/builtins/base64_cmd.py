"""base64: encode or decode base64 (GNU coreutils)."""

from __future__ import annotations

import base64 as _b64
import binascii
import re

from pysh.builtins._textutil import (
    OptionError,
    help_text,
    parse_options,
    quote,
    quotef,
    strerror,
    usage,
    version_text,
)

HELP = """\
Usage: base64 [OPTION]... [FILE]
Base64 encode or decode FILE, or standard input, to standard output.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -d, --decode          decode data
  -i, --ignore-garbage  when decoding, ignore non-alphabet characters
  -w, --wrap=COLS       wrap encoded lines after COLS character (default 76).
                          Use 0 to disable line wrapping
      --help        display this help and exit
      --version     output version information and exit

The data are encoded as described for the base64 alphabet in RFC 4648.
When decoding, the input may contain newlines in addition to the bytes of
the formal base64 alphabet.  Use --ignore-garbage to attempt to recover
from any other non-alphabet bytes in the encoded stream.
"""

LONG = {"decode": "d", "ignore-garbage": "i", "wrap=": "w", "help": "help",
        "version": "version"}
_GARBAGE = re.compile(rb"[^A-Za-z0-9+/=]")
_WS = re.compile(rb"\n")


async def main(shell, argv: list[str]) -> int:
    prog = "base64"
    try:
        opts, files = parse_options(argv[1:], "diw:", LONG)
    except OptionError as e:
        return await usage(shell, prog, str(e))
    decode = ignore = False
    wrap = 76
    for k, v in opts:
        if k == "help":
            return await help_text(shell, HELP)
        if k == "version":
            return await version_text(shell, prog)
        if k == "d":
            decode = True
        elif k == "i":
            ignore = True
        elif k == "w":
            t = (v or "").strip()
            if not t.isdigit():
                await shell.error(prog, f"invalid wrap size: {quote(v or '')}")
                return 1
            wrap = int(t)
    if len(files) > 1:
        return await usage(shell, prog, f"extra operand {quote(files[1])}")
    name = files[0] if files else "-"
    try:
        stream = shell.open_input(name)
    except OSError as e:
        if e.errno == 21:
            await shell.error(prog, "read error: Is a directory")
        else:
            await shell.error(prog, f"{quotef(name)}: {strerror(e)}")
        return 1
    try:
        if decode:
            return await _decode(shell, stream, ignore)
        return await _encode(shell, stream, wrap)
    finally:
        stream.close()


async def _encode(shell, stream, wrap: int) -> int:
    col = 0
    carry = b""
    while True:
        chunk = await stream.read(3 * (1 << 16))
        if not chunk:
            break
        shell.budget.check()
        data = carry + chunk
        n = len(data) - len(data) % 3
        carry = data[n:]
        enc = _b64.b64encode(data[:n])
        col = await _emit(shell, enc, wrap, col)
    enc = _b64.b64encode(carry)
    col = await _emit(shell, enc, wrap, col)
    if wrap and col:
        await shell.stdout.write(b"\n")
    return 0


async def _emit(shell, enc: bytes, wrap: int, col: int) -> int:
    if not enc:
        return col
    if not wrap:
        await shell.stdout.write(enc)
        return col + len(enc)
    parts = []
    i = 0
    if col:
        i = wrap - col
        parts.append(enc[:i])
        if len(enc) < i:
            await shell.stdout.write(enc)
            return col + len(enc)
        parts.append(b"\n")
    n = len(enc)
    full_end = i + (n - i) // wrap * wrap
    if full_end > i:
        parts.append(b"\n".join([enc[j:j + wrap] for j in range(i, full_end, wrap)]))
        parts.append(b"\n")
    rest = enc[full_end:]
    parts.append(rest)
    await shell.stdout.write(b"".join(parts))
    return len(rest)


async def _decode(shell, stream, ignore: bool) -> int:
    data = await stream.read()
    if ignore:
        data = _GARBAGE.sub(b"", data)
    else:
        data = data.replace(b"\n", b"")
    # decode in quanta, stopping at the first bad one as GNU does
    out = bytearray()
    i = 0
    n = len(data)
    status = 0
    while i < n:
        quantum = data[i:i + 4]
        try:
            if len(quantum) < 4:
                raise binascii.Error
            out += _b64.b64decode(quantum, validate=True)
        except (binascii.Error, ValueError):
            # a short final quantum: GNU decodes what it can, then complains
            m = _GARBAGE.search(quantum)
            body = (quantum[:m.start()] if m else quantum).split(b"=")[0]
            if len(body) >= 2:
                try:
                    out += _b64.b64decode(body + b"=" * (-len(body) % 4))
                except (binascii.Error, ValueError):
                    pass
            status = 1
            break
        if b"=" in quantum and i + 4 < n:
            # padding in the middle
            status = 1
            i += 4
            break
        i += 4
    await shell.stdout.write(bytes(out))
    if status:
        await shell.error("base64", "invalid input")
    return status
