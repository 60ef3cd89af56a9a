"""xxd: make a hex dump or do the reverse (vim's xxd, version 2022-01-14 as in vim 9.0).

The hex dump (``-c -g -u -e -b -E -o -d -s -l -a``), plain (``-p``) and C
include (``-i -n -C``) styles, and ``-r`` / ``-r -p`` back to binary, to
standard output or patched into an output file through the door (``-r``
opens the output file without truncating it, as xxd does). Options are
parsed the way xxd parses them: any word starting with the option letter,
``--`` spellings, values attached or in the next word, numbers in C
``strtol`` syntax (``0x`` hex, leading ``0`` octal). ``--help`` alone prints
the usage to standard output and exits 0 (xxd itself treats it as an unknown
option: usage on standard error, exit 1).
"""

from __future__ import annotations

import errno as _errno
import os
import re

from pysh.shellkit.text import encode

VERSION = "xxd 2022-01-14 by Juergen Weigert et al."
USAGE = """\
Usage:
       xxd [options] [infile [outfile]]
    or
       xxd -r [-s [-]offset] [-c cols] [-ps] [infile [outfile]]
Options:
    -a          toggle autoskip: A single '*' replaces nul-lines. Default off.
    -b          binary digit dump (incompatible with -ps,-i,-r). Default hex.
    -C          capitalize variable names in C include file style (-i).
    -c cols     format <cols> octets per line. Default 16 (-i: 12, -ps: 30).
    -E          show characters in EBCDIC. Default ASCII.
    -e          little-endian dump (incompatible with -ps,-i,-r).
    -g bytes    number of octets per group in normal output. Default 2 (-e: 4).
    -h          print this summary.
    -i          output in C include file style.
    -l len      stop after <len> octets.
    -n name     set the variable name used in C include output (-i).
    -o off      add <off> to the displayed file position.
    -ps         output in postscript plain hexdump style.
    -r          reverse operation: convert (or patch) hexdump into binary.
    -r -s off   revert with <off> added to file positions found in hexdump.
    -d          show offset in decimal instead of hex.
    -s [+][-]seek  start at <seek> bytes abs. (or +: rel.) infile offset.
    -u          use upper case hex letters.
    -v          show version: "xxd 2022-01-14 by Juergen Weigert et al.".
"""

HEX_NORMAL, HEX_POSTSCRIPT, HEX_CINCLUDE, HEX_BITS, HEX_LITTLEENDIAN = 0, 1, 2, 4, 8
COLS = 256
ULONG = 1 << 64
LONG_MAX = (1 << 63) - 1
LONG_MIN = -(1 << 63)
CHUNK = 1 << 16

ETOA64 = bytes([
    0o040, 0o240, 0o241, 0o242, 0o243, 0o244, 0o245, 0o246,
    0o247, 0o250, 0o325, 0o056, 0o074, 0o050, 0o053, 0o174,
    0o046, 0o251, 0o252, 0o253, 0o254, 0o255, 0o256, 0o257,
    0o260, 0o261, 0o041, 0o044, 0o052, 0o051, 0o073, 0o176,
    0o055, 0o057, 0o262, 0o263, 0o264, 0o265, 0o266, 0o267,
    0o270, 0o271, 0o313, 0o054, 0o045, 0o137, 0o076, 0o077,
    0o272, 0o273, 0o274, 0o275, 0o276, 0o277, 0o300, 0o301,
    0o302, 0o140, 0o072, 0o043, 0o100, 0o047, 0o075, 0o042,
    0o303, 0o141, 0o142, 0o143, 0o144, 0o145, 0o146, 0o147,
    0o150, 0o151, 0o304, 0o305, 0o306, 0o307, 0o310, 0o311,
    0o312, 0o152, 0o153, 0o154, 0o155, 0o156, 0o157, 0o160,
    0o161, 0o162, 0o136, 0o314, 0o315, 0o316, 0o317, 0o320,
    0o321, 0o345, 0o163, 0o164, 0o165, 0o166, 0o167, 0o170,
    0o171, 0o172, 0o322, 0o323, 0o324, 0o133, 0o326, 0o327,
    0o330, 0o331, 0o332, 0o333, 0o334, 0o335, 0o336, 0o337,
    0o340, 0o341, 0o342, 0o343, 0o344, 0o135, 0o346, 0o347,
    0o173, 0o101, 0o102, 0o103, 0o104, 0o105, 0o106, 0o107,
    0o110, 0o111, 0o350, 0o351, 0o352, 0o353, 0o354, 0o355,
    0o175, 0o112, 0o113, 0o114, 0o115, 0o116, 0o117, 0o120,
    0o121, 0o122, 0o356, 0o357, 0o360, 0o361, 0o362, 0o363,
    0o134, 0o237, 0o123, 0o124, 0o125, 0o126, 0o127, 0o130,
    0o131, 0o132, 0o364, 0o365, 0o366, 0o367, 0o370, 0o371,
    0o060, 0o061, 0o062, 0o063, 0o064, 0o065, 0o066, 0o067,
    0o070, 0o071, 0o372, 0o373, 0o374, 0o375, 0o376, 0o377,
])
ASCII_COLUMN = bytes(c if 31 < c < 127 else 0x2E for c in range(256))
EBCDIC_COLUMN = bytes(ASCII_COLUMN[ETOA64[c - 64]] if c >= 64 else 0x2E for c in range(256))
HEXVAL = [-1] * 256
for _i, _ch in enumerate(b"0123456789abcdef"):
    HEXVAL[_ch] = _i
for _i, _ch in enumerate(b"ABCDEF"):
    HEXVAL[_ch] = 10 + _i
BITS = [format(c, "08b") for c in range(256)]
BITS_SPACED = [b + " " for b in BITS]


class Exit(Exception):
    """End xxd with a status (its message already written)."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class ReadError(Exception):
    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.errno = code


# ------------------------------------------------------------------ numbers
def _digit(ch: str, base: int) -> int:
    if "0" <= ch <= "9":
        v = ord(ch) - 48
    elif "a" <= ch <= "z":
        v = ord(ch) - 87
    elif "A" <= ch <= "Z":
        v = ord(ch) - 55
    else:
        return -1
    return v if v < base else -1


def strtol(s: str, unsigned: bool = False) -> int:
    """C strtol / strtoul with base 0 (clamped, as the C library does)."""
    i, n = 0, len(s)
    while i < n and s[i] in " \t\n\v\f\r":
        i += 1
    neg = False
    if i < n and s[i] in "+-":
        neg = s[i] == "-"
        i += 1
    base = 10
    if s[i:i + 2] in ("0x", "0X") and i + 2 < n and _digit(s[i + 2], 16) >= 0:
        base = 16
        i += 2
    elif s[i:i + 1] == "0":
        base = 8
    start = i
    v = 0
    while i < n and _digit(s[i], base) >= 0:
        v = v * base + _digit(s[i], base)
        i += 1
    if i == start:
        return 0
    if unsigned:
        if v >= ULONG:
            return ULONG - 1
        return (-v) % ULONG if neg else v
    if neg:
        v = -v
    return max(LONG_MIN, min(LONG_MAX, v))


def c_int(v: int) -> int:
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >= 1 << 31 else v


# ------------------------------------------------------------------ input
class Source:
    """The input: a door file (seekable), a stream, or a file whose reads fail."""

    def __init__(self, shell, name: str | None) -> None:
        self.shell = shell
        self.file = None
        self.stream = None
        self.error: int | None = None
        self.is_stdin = name is None
        if name is None:
            self.stream = shell.stdin
        elif name.startswith("/dev/"):
            self.stream = shell.open_input(name)
        else:
            try:
                self.file = shell.fs.open(name, "rb")
            except OSError as e:
                if getattr(e, "errno", None) == _errno.EISDIR:
                    self.error = _errno.EISDIR   # fopen() succeeds, reading fails
                else:
                    raise

    async def read(self, n: int) -> bytes:
        if self.error is not None:
            raise ReadError(self.error)
        if self.file is not None:
            try:
                return self.file.read(n)
            except OSError as e:
                raise ReadError(getattr(e, "errno", None) or _errno.EIO) from None
        return await self.stream.read(n)

    def seek(self, offset: int, whence: int) -> int | None:
        """fseek(): the new position, or None when it fails (a pipe, a negative target)."""
        if self.error is not None:
            return max(offset, 0) if whence != os.SEEK_END else 0
        if self.file is None:
            return None
        try:
            if whence == os.SEEK_END:
                size = self.file.seek(0, os.SEEK_END)
                target = size + offset
            else:
                target = self.file.tell() + offset if whence == os.SEEK_CUR else offset
            if target < 0:
                return None
            return self.file.seek(target)
        except OSError:
            return None

    def close(self) -> None:
        if self.file is not None:
            try:
                self.file.close()
            except OSError:
                pass
        elif self.stream is not None and not self.is_stdin:
            self.stream.close()


# ------------------------------------------------------------------ output
class Out:
    """Buffered writes to an OutputStream."""

    def __init__(self, shell, stream) -> None:
        self.shell = shell
        self.stream = stream
        self.parts: list = []
        self.size = 0

    async def add(self, s) -> None:
        self.parts.append(s)
        self.size += len(s)
        if self.size >= CHUNK:
            await self.flush()

    async def flush(self) -> None:
        if self.parts:
            data = b"".join(p if isinstance(p, bytes) else p.encode("latin-1") for p in self.parts)
            self.parts.clear()
            self.size = 0
            await self.stream.write(data)
            self.shell.budget.check()


class StreamSink:
    """Reverse output to a stream: forward seeks write NUL bytes; no seeking back."""

    def __init__(self, out: Out) -> None:
        self.out = out
        self.pos = 0

    async def seek(self, target: int) -> None:
        if target < self.pos:
            raise _SeekBack
        gap = target - self.pos
        while gap:
            n = min(gap, CHUNK)
            await self.out.add(bytes(n))
            gap -= n
        self.pos = target

    async def write(self, data: bytes) -> None:
        await self.out.add(data)
        self.pos += len(data)

    async def finish(self) -> None:
        await self.out.flush()


class FileSink:
    """Reverse output patched into a file through the door."""

    def __init__(self, shell, f) -> None:
        self.shell = shell
        self.f = f
        self.pos = 0
        self.buf = bytearray()
        self.buf_pos = 0

    def _flush(self) -> None:
        if self.buf:
            try:
                self.f.seek(self.buf_pos)
                self.f.write(bytes(self.buf))
            except (OSError, OverflowError, ValueError) as e:
                raise _WriteError(getattr(e, "errno", None) or _errno.EFBIG) from None
            finally:
                self.buf.clear()

    async def seek(self, target: int) -> None:
        if target < 0:
            raise _SeekBack
        self._flush()
        self.pos = target

    async def write(self, data: bytes) -> None:
        if not self.buf:
            self.buf_pos = self.pos
        self.buf += data
        self.pos += len(data)
        if len(self.buf) >= CHUNK:
            self._flush()
            self.shell.budget.check()

    async def finish(self) -> None:
        self._flush()

    def close(self) -> None:
        try:
            self.f.close()
        except OSError:
            pass


class _SeekBack(Exception):
    pass


class _WriteError(Exception):
    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.errno = code


def _long(v: int) -> int:
    """A C long: wrapped to 64 bits, signed."""
    v &= ULONG - 1
    return v - ULONG if v > LONG_MAX else v


# ------------------------------------------------------------------ main
async def main(shell, argv: list[str]) -> int:
    try:
        return await _main(shell, argv)
    except Exit as e:
        return e.status


async def _usage(shell) -> None:
    await shell.stderr.write(encode(USAGE))
    raise Exit(1)


async def _error(shell, msg: str, status: int) -> None:
    await shell.stderr.write(encode(f"xxd: {msg}\n"))
    raise Exit(status)


async def _main(shell, argv: list[str]) -> int:
    autoskip = 0
    hextype = HEX_NORMAL
    upper = capitalize = decimal = ebcdic = False
    revert = 0
    cols = 0
    colsgiven = False
    octspergrp = -1
    length = -1
    seekoff = 0
    relseek, negseek = True, False
    displayoff = 0
    varname: str | None = None
    args = list(argv[1:])
    while args:
        a = args[0]
        if a == "--help":
            await shell.stdout.write(encode(USAGE))
            return 0
        pp = a[1:] if a.startswith("--") and len(a) > 2 else a
        rest = pp[2:]
        nxt = args[1] if len(args) > 1 else None

        def take(nxt: str | None = nxt) -> str:
            if nxt is None:
                raise _NeedArg
            args.pop(0)
            return nxt

        try:
            if pp.startswith("-a"):
                autoskip = 1 - autoskip
            elif pp.startswith("-b"):
                hextype = HEX_BITS
            elif pp.startswith("-e"):
                hextype = HEX_LITTLEENDIAN
            elif pp.startswith("-u"):
                upper = True
            elif pp.startswith("-p"):
                hextype = HEX_POSTSCRIPT
            elif pp.startswith("-i"):
                hextype = HEX_CINCLUDE
            elif pp.startswith("-C"):
                capitalize = True
            elif pp.startswith("-d"):
                decimal = True
            elif pp.startswith("-r"):
                revert += 1
            elif pp.startswith("-E"):
                ebcdic = True
            elif pp.startswith("-v"):
                await shell.stderr.write(encode(VERSION + "\n"))
                return 0
            elif pp.startswith("-c"):
                if rest and rest.startswith("apitalize"):
                    capitalize = True
                elif rest and not rest.startswith("ols"):
                    colsgiven = True
                    cols = c_int(strtol(rest))
                else:
                    v = take()
                    colsgiven = True
                    cols = c_int(strtol(v))
            elif pp.startswith("-g"):
                if rest and not rest.startswith("roup"):
                    octspergrp = c_int(strtol(rest))
                else:
                    octspergrp = c_int(strtol(take()))
            elif pp.startswith("-o"):
                if rest and not rest.startswith("ffset"):
                    displayoff = strtol(rest, unsigned=True)
                else:
                    v = take()
                    k = 1 if v.startswith("+") else 0
                    if v[k:k + 1] == "-":
                        displayoff = (ULONG - strtol(v[k + 1:], unsigned=True)) % ULONG
                    else:
                        displayoff = strtol(v[k:], unsigned=True)
            elif pp.startswith("-s"):
                relseek, negseek = False, False
                if rest and not rest.startswith("kip") and not rest.startswith("eek"):
                    v = rest
                else:
                    v = take()
                k = 0
                if v.startswith("+"):
                    relseek = True
                    k = 1
                if v[k:k + 1] == "-":
                    negseek = True
                    k += 1
                seekoff = strtol(v[k:])
            elif pp.startswith("-l"):
                if rest and not rest.startswith("en"):
                    length = strtol(rest)
                else:
                    length = strtol(take())
            elif pp.startswith("-n"):
                if rest and not rest.startswith("ame"):
                    varname = rest
                else:
                    varname = take()
            elif pp == "--":
                args.pop(0)
                break
            elif pp.startswith("-") and len(pp) > 1:
                await _usage(shell)
            else:
                break
        except _NeedArg:
            await _usage(shell)
        args.pop(0)

    if not colsgiven or (cols == 0 and hextype != HEX_POSTSCRIPT):
        cols = {HEX_POSTSCRIPT: 30, HEX_CINCLUDE: 12, HEX_BITS: 6}.get(hextype, 16)
    if octspergrp < 0:
        octspergrp = {HEX_BITS: 1, HEX_NORMAL: 2, HEX_LITTLEENDIAN: 4}.get(hextype, 0)
    if ((hextype == HEX_POSTSCRIPT and cols < 0) or (hextype != HEX_POSTSCRIPT and cols < 1)
            or (hextype in (HEX_NORMAL, HEX_BITS, HEX_LITTLEENDIAN) and cols > COLS)):
        await _error(shell, f"invalid number of columns (max. {COLS}).", 1)
    if octspergrp < 1 or octspergrp > cols:
        octspergrp = cols
    elif hextype == HEX_LITTLEENDIAN and octspergrp & (octspergrp - 1):
        await _error(shell, "number of octets per group must be a power of 2 with -e.", 1)
    if len(args) > 2:
        await _usage(shell)

    inname = args[0] if args and args[0] != "-" else None
    outname = args[1] if len(args) > 1 and args[1] != "-" else None
    try:
        src = Source(shell, inname)
    except OSError as e:
        await _error(shell, f"{inname}: {os.strerror(getattr(e, 'errno', None) or 5)}", 2)
    try:
        return await _run(shell, src, inname, outname, locals_=dict(
            autoskip=autoskip, hextype=hextype, upper=upper, capitalize=capitalize,
            decimal=decimal, ebcdic=ebcdic, revert=revert, cols=cols, octspergrp=octspergrp,
            length=length, seekoff=seekoff, relseek=relseek, negseek=negseek,
            displayoff=displayoff, varname=varname))
    finally:
        src.close()


class _NeedArg(Exception):
    pass


async def _open_output(shell, outname: str | None, revert: bool):
    """(Out for a stream, or a FileSink for a reverse into a file)."""
    if outname is None:
        return Out(shell, shell.stdout), None
    try:
        if outname.startswith("/dev/"):
            return Out(shell, shell.open_output(outname)), None
        if revert:
            try:
                f = shell.fs.open(outname, "r+b")
            except OSError as e:
                if getattr(e, "errno", None) != _errno.ENOENT:
                    raise
                f = shell.fs.open(outname, "wb", perm=0o666 & ~shell.umask)
            return None, FileSink(shell, f)
        return Out(shell, shell.open_output(outname)), None
    except OSError as e:
        await _error(shell, f"{outname}: {os.strerror(getattr(e, 'errno', None) or 5)}", 3)
        raise  # not reached


async def _run(shell, src: Source, inname, outname, locals_: dict) -> int:
    o = locals_
    hextype = o["hextype"]
    revert = o["revert"]
    out, fsink = await _open_output(shell, outname, bool(revert))
    try:
        if revert:
            if hextype not in (HEX_NORMAL, HEX_POSTSCRIPT):
                await _error(shell, "Sorry, cannot revert this type of hexdump", 255)
            sink = fsink if fsink is not None else StreamSink(out)
            base = -o["seekoff"] if o["negseek"] else o["seekoff"]
            try:
                await _huntype(shell, src, sink, o["cols"], hextype, base)
                await sink.finish()
            except _SeekBack:
                await sink.finish()
                await _error(shell, "Sorry, cannot seek backwards.", 5)
            except _WriteError as e:
                await _error(shell, os.strerror(e.errno), 3)
            return 0
        seekoff = o["seekoff"]
        if seekoff or o["negseek"] or not o["relseek"]:
            seekoff = await _seek_input(shell, src, seekoff, o["relseek"], o["negseek"])
        try:
            if hextype == HEX_CINCLUDE:
                await _cinclude(shell, src, out, inname, o)
            elif hextype == HEX_POSTSCRIPT:
                await _plain(shell, src, out, o)
            else:
                await _dump(shell, src, out, seekoff, o)
        except ReadError as e:
            await out.flush()
            await _error(shell, os.strerror(e.errno), 2)
        await out.flush()
        return 0
    finally:
        if fsink is not None:
            fsink.close()
        if out is not None and out.stream is not shell.stdout:
            out.stream.close()


async def _seek_input(shell, src: Source, seekoff: int, relseek: bool, negseek: bool) -> int:
    if relseek:
        pos = src.seek(-seekoff if negseek else seekoff, os.SEEK_CUR)
    else:
        pos = src.seek(-seekoff if negseek else seekoff, os.SEEK_END if negseek else os.SEEK_SET)
    if pos is None and negseek:
        await _error(shell, "Sorry, cannot seek.", 4)
    if pos is not None:
        return pos
    # not seekable: read the bytes away
    if seekoff < 0:
        while True:
            try:
                data = await src.read(CHUNK)
            except ReadError as e:
                await _error(shell, os.strerror(e.errno), 2)
            if not data:
                await _error(shell, "Sorry, cannot seek.", 4)
    left = seekoff
    while left > 0:
        try:
            data = await src.read(min(left, CHUNK))
        except ReadError as e:
            await _error(shell, os.strerror(e.errno), 2)
        if not data:
            await _error(shell, "Sorry, cannot seek.", 4)
        left -= len(data)
        shell.budget.check()
    return seekoff


async def _chunks(shell, src: Source, length: int):
    """The input in chunks, at most ``length`` bytes when length >= 0."""
    left = length
    while left != 0:
        n = CHUNK if left < 0 else min(left, CHUNK)
        data = await src.read(n)
        if not data:
            return
        if left > 0:
            left -= len(data)
        shell.budget.check()
        yield data


def _name_bytes(name: str, capitalize: bool) -> str:
    b = encode(name)
    out = "__" if b[:1].isdigit() else ""
    for c in b:
        ch = chr(c)
        if c < 128 and ch.isalnum():
            out += ch.upper() if capitalize else ch
        else:
            out += "_"
    return out


async def _cinclude(shell, src: Source, out: Out, inname, o: dict) -> None:
    varname = o["varname"]
    if varname is None and inname is not None:
        varname = inname
    cap = o["capitalize"]
    name = _name_bytes(varname, cap) if varname is not None else None
    if name is not None:
        await out.add(f"unsigned char {name}[] = {{\n")
    cols = o["cols"]
    fmt = "0X%02X" if o["upper"] else "0x%02x"
    table = [fmt % c for c in range(256)]
    p = 0
    async for data in _chunks(shell, src, o["length"]):
        parts = []
        for c in data:
            if p % cols:
                parts.append(", ")
            elif p:
                parts.append(",\n  ")
            else:
                parts.append("  ")
            parts.append(table[c])
            p += 1
        await out.add("".join(parts))
    if p:
        await out.add("\n")
    if name is not None:
        await out.add("};\n")
        await out.add(f"unsigned int {name}_{'LEN' if cap else 'len'} = {p};\n")


async def _plain(shell, src: Source, out: Out, o: dict) -> None:
    cols = o["cols"]
    upper = o["upper"]
    left = cols  # bytes until the next newline
    async for data in _chunks(shell, src, o["length"]):
        h = data.hex()
        if upper:
            h = h.upper()
        if cols == 0:
            await out.add(h)
            continue
        parts = []
        i = 0
        n = len(data)
        while i < n:
            k = min(left, n - i)
            parts.append(h[2 * i:2 * (i + k)])
            i += k
            left -= k
            if left == 0:
                parts.append("\n")
                left = cols
        await out.add("".join(parts))
    if cols == 0 or left < cols:
        await out.add("\n")


class _Lines:
    """xxdline(): autoskip of runs of all-zero lines."""

    def __init__(self, out: Out) -> None:
        self.out = out
        self.zero_seen = 0
        self.z = ""
        self.parts: list[str] = []

    def line(self, text: str, nz: int) -> None:
        if not nz and self.zero_seen == 1:
            self.z = text
        if nz:
            go = True
        else:
            go = self.zero_seen == 0
            self.zero_seen += 1
        if go:
            if nz:
                if nz < 0:
                    self.zero_seen -= 1
                if self.zero_seen == 2:
                    self.parts.append(self.z)
                if self.zero_seen > 2:
                    self.parts.append("*\n")
            if nz >= 0 or self.zero_seen > 0:
                self.parts.append(text)
            if nz:
                self.zero_seen = 0

    async def flush(self) -> None:
        if self.parts:
            await self.out.add("".join(self.parts))
            self.parts.clear()


async def _dump(shell, src: Source, out: Out, seekoff: int, o: dict) -> None:
    hextype = o["hextype"]
    cols = o["cols"]
    g = o["octspergrp"]
    autoskip = o["autoskip"]
    decimal = o["decimal"]
    base = seekoff + o["displayoff"]
    column = EBCDIC_COLUMN if o["ebcdic"] else ASCII_COLUMN
    upper = o["upper"]
    bits = hextype == HEX_BITS
    le = hextype == HEX_LITTLEENDIAN
    unit = 8 if bits else 2
    grplen = unit * g + 1
    hexw = unit * cols + (cols - 1) // g      # the hex area of a full line
    asc_off = 3 + (grplen * cols - 1) // g    # from the end of the address to the text
    literal = le and (cols % g != 0 or g & (g - 1) != 0)

    def addr(n: int) -> str:
        a = (n + base) % ULONG
        if decimal:
            return f"{a - ULONG if a > LONG_MAX else a:08d}:"
        return f"{a:08x}:"

    def hexpart(d: bytes) -> str:
        if bits:
            items = [BITS[c] for c in d]
            if g == 1:
                return " ".join(items)
            return " ".join("".join(items[i:i + g]) for i in range(0, len(items), g))
        if le:
            groups = []
            for i in range(0, len(d), g):
                grp = d[i:i + g][::-1].hex()
                if upper:
                    grp = grp.upper()
                groups.append(grp.rjust(2 * g))
            return " ".join(groups)
        h = d.hex(" ", -g) if g < len(d) else d.hex()
        return h.upper() if upper else h

    def literal_line(n: int, d: bytes) -> str:
        a = addr(n)
        al = len(a)
        buf = list(a) + [" "] * (8 * cols + 16)
        hx = "0123456789ABCDEF" if upper else "0123456789abcdef"
        c = al
        for p, e in enumerate(d):
            x = p ^ (g - 1)
            c = al + 1 + (grplen * x) // g
            buf[c] = hx[e >> 4]
            buf[c + 1] = hx[e & 15]
            c = al + asc_off + p
            buf[c] = chr(column[e])
            c += 1
        return "".join(buf[:c]) + "\n"

    def full_line(n: int, d: bytes) -> str:
        if literal:
            return literal_line(n, d)
        return addr(n) + " " + hexpart(d) + "  " + d.translate(column).decode("latin-1") + "\n"

    lines = _Lines(out)
    n = 0
    pending = b""
    last = ""
    budget = shell.budget
    async for data in _chunks(shell, src, o["length"]):
        if pending:
            data = pending + data
        nfull = len(data) // cols
        if autoskip or literal:
            for k in range(nfull):
                d = data[k * cols:(k + 1) * cols]
                last = full_line(n, d)
                lines.line(last, (cols - d.count(0)) if autoskip else 1)
                n += cols
        elif nfull:
            text = data[:nfull * cols].translate(column).decode("latin-1")
            parts = lines.parts
            if hextype == HEX_NORMAL and not decimal and not upper and g < cols:
                mask = ULONG - 1
                for k in range(0, nfull * cols, cols):
                    parts.append(f"{(n + base) & mask:08x}: {data[k:k + cols].hex(' ', -g)}  "
                                 f"{text[k:k + cols]}\n")
                    n += cols
            elif le and g > 1:
                # reverse the bytes of every group of the chunk, then dump as groups
                end = nfull * cols
                swapped = bytearray(end)
                for j in range(g):
                    swapped[j:end:g] = data[g - 1 - j:end:g]
                for k in range(0, end, cols):
                    h = swapped[k:k + cols].hex(" ", -g) if g < cols else swapped[k:k + cols].hex()
                    parts.append(f"{addr(n)} {h.upper() if upper else h}  {text[k:k + cols]}\n")
                    n += cols
            elif bits and g == 1:
                spaced = BITS_SPACED
                for k in range(0, nfull * cols, cols):
                    h = "".join(map(spaced.__getitem__, data[k:k + cols]))
                    parts.append(f"{addr(n)} {h[:-1]}  {text[k:k + cols]}\n")
                    n += cols
            else:
                for k in range(nfull):
                    parts.append(f"{addr(n)} {hexpart(data[k * cols:(k + 1) * cols])}  "
                                 f"{text[k * cols:(k + 1) * cols]}\n")
                    n += cols
        pending = data[nfull * cols:]
        await lines.flush()
        budget.check()
    if pending:
        d = pending
        if literal:
            text = literal_line(n, d)
        else:
            text = (addr(n) + " " + hexpart(d).ljust(hexw) + "  "
                    + d.translate(column).decode("latin-1") + "\n")
        lines.line(text, 1)
    elif autoskip:
        lines.line(last, -1)
    await lines.flush()


# ------------------------------------------------------------------ reverse
_CANON = re.compile(rb"([0-9a-fA-F]+): ((?:[0-9a-fA-F]{2})+(?: (?:[0-9a-fA-F]{2})+)*)([^\n]*)(?:\n|\Z)")
_PLAIN_ONLY = re.compile(rb"[0-9a-fA-F \n\t]*\Z")
_WS = re.compile(rb"[ \n\t]+")


async def _read_all(shell, src: Source) -> bytes:
    parts = []
    size = 0
    while True:
        try:
            data = await src.read(1 << 20)
        except ReadError:
            break  # huntype() reads with getc(): an error is the end of the input
        if not data:
            break
        parts.append(data)
        size += len(data)
        shell.budget.check_string(size)  # the whole input is held: /dev/zero is endless
        shell.budget.check()
    return b"".join(parts)


async def _huntype(shell, src: Source, sink, cols: int, hextype: int, base_off: int) -> None:
    data = (await _read_all(shell, src)).replace(b"\r", b"")
    ps = hextype == HEX_POSTSCRIPT
    if ps and _PLAIN_ONLY.match(data):
        digits = _WS.sub(b"", data)
        if digits:
            if base_off:
                await sink.seek(base_off)
            await sink.write(bytes.fromhex(digits[:len(digits) // 2 * 2].decode("ascii")))
        return
    n = len(data)
    i = 0
    ign_garb, n1, n2, n3, p = 1, -1, 0, 0, cols
    have_off = want_off = 0
    budget = shell.budget
    steps = 0
    hexval = HEXVAL
    while i < n:
        if not ps and ign_garb and (i == 0 or data[i - 1] == 10):
            m = _CANON.match(data, i)
            if m:
                hexdigits = m.group(2).replace(b" ", b"")
                count = len(hexdigits) // 2
                rest = m.group(3)
                if count >= cols or not rest or (hexval[rest[0]] < 0 and (
                        len(rest) == 1 or hexval[rest[1]] < 0)):
                    target = _long(base_off + _long(int(m.group(1), 16)))
                    if target != have_off:
                        await sink.seek(target)
                    chunk = bytes.fromhex(hexdigits[:2 * cols].decode("ascii"))
                    await sink.write(chunk)
                    have_off = target + len(chunk)
                    i = m.end()
                    steps += 1
                    if steps & 0x3FF == 0:
                        budget.check()
                    continue
        c = data[i]
        i += 1
        steps += 1
        if steps & 0xFFFF == 0:
            budget.check()
        if ps and c in (32, 10, 9):
            continue
        n3 = n2
        n2 = n1
        n1 = hexval[c]
        if n1 == -1 and ign_garb:
            continue
        ign_garb = 0
        if not ps and p >= cols:
            if n1 < 0:
                p = 0
                continue
            want_off = _long((want_off << 4) | n1)
            continue
        if _long(base_off + want_off) != have_off:
            await sink.seek(_long(base_off + want_off))
            have_off = _long(base_off + want_off)
        if n2 >= 0 and n1 >= 0:
            await sink.write(bytes(((n2 << 4) | n1,)))
            have_off += 1
            want_off += 1
            n1 = -1
            if not ps:
                p += 1
                if p >= cols and c != 10:
                    j = data.find(b"\n", i)
                    i, c = (n, -1) if j < 0 else (j + 1, 10)
        elif n1 < 0 and n2 < 0 and n3 < 0 and c != 10:
            j = data.find(b"\n", i)
            i, c = (n, -1) if j < 0 else (j + 1, 10)
        if c == 10:
            if not ps:
                want_off = 0
            p = cols
            ign_garb = 1
