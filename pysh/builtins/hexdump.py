"""hexdump / hd: util-linux 2.38's hexdump with its built-in formats.

``-b -c -C -d -o -x`` (one line per format for each 16-byte block, in the order
given; none means hexdump's default two-byte hex), ``-n LENGTH``, ``-s OFFSET``
(util-linux size suffixes: KiB/K, MiB/M, ... and kB, MB, ... powers of 1000),
``-v`` (otherwise a run of identical blocks shows as one ``*``), files read one
after another as one stream (``-`` is a file name, as in util-linux; standard
input is read only without operands). ``hd`` is ``hexdump -C``. Format strings (``-e``,
``-f``) are not supported: they are refused with a clear error.
"""

from __future__ import annotations

import errno

from pysh.builtins._textutil import OpenFailed, open_input, strerror
from pysh.shellkit.options import OptionError, parse_options

PROG = "hexdump"
BLOCK = 16
USAGE = """
Usage:
 hexdump [options] <file>...

Display file contents in hexadecimal, decimal, octal, or ascii.

Options:
 -b, --one-byte-octal      one-byte octal display
 -c, --one-byte-char       one-byte character display
 -C, --canonical           canonical hex+ASCII display
 -d, --two-bytes-decimal   two-byte decimal display
 -o, --two-bytes-octal     two-byte octal display
 -x, --two-bytes-hex       two-byte hexadecimal display
 -L, --color[=<mode>]      interpret color formatting specifiers
                             colors are enabled by default
 -e, --format <format>     format string to be used for displaying data
 -f, --format-file <file>  file that contains format strings
 -n, --length <length>     interpret only length bytes of input
 -s, --skip <offset>       skip offset bytes from the beginning
 -v, --no-squeezing        output identical lines

 -h, --help                display this help
 -V, --version             display version

Arguments:
 <length> and <offset> arguments may be followed by the suffixes for
   GiB, TiB, PiB, EiB, ZiB, and YiB (the "iB" is optional)

For more details see hexdump(1).
"""

LONG = {"one-byte-octal": "b", "one-byte-char": "c", "canonical": "C",
        "two-bytes-decimal": "d", "two-bytes-octal": "o", "two-bytes-hex": "x",
        "color?": "L", "format=": "e", "format-file=": "f", "length=": "n", "skip=": "s",
        "no-squeezing": "v", "help": "h", "version": "V"}

_C_ESCAPES = {0: "\\0", 7: "\\a", 8: "\\b", 9: "\\t", 10: "\\n", 11: "\\v", 12: "\\f", 13: "\\r"}


def _char3(b: int) -> str:
    """%3_c: a printable byte, a C escape, or three octal digits."""
    if 32 <= b < 127:
        return f"{chr(b):>3}"
    esc = _C_ESCAPES.get(b)
    return f"{esc:>3}" if esc is not None else f"{b:03o}"


# name -> (address width, bytes per unit, unit formatter, unit width)
FORMATS = {
    "default": (7, 2, lambda v: f"{v:04x}", 4),
    "x": (7, 2, lambda v: f"   {v:04x}", 7),
    "d": (7, 2, lambda v: f"  {v:05d}", 7),
    "o": (7, 2, lambda v: f" {v:06o}", 7),
    "b": (7, 1, lambda v: f"{v:03o}", 3),
    "c": (7, 1, _char3, 3),
}


def _line(fmt: str, offset: int, block: bytes) -> str:
    if fmt == "C":
        hexes = [f"{b:02x}" if i < len(block) else "  " for i, b in
                 enumerate(block.ljust(BLOCK, b"\0"))]
        text = "".join(chr(b) if 32 <= b < 127 else "." for b in block)
        return f"{offset:08x}  {' '.join(hexes[:8])}  {' '.join(hexes[8:])}  |{text}|\n"
    width, size, conv, unit_width = FORMATS[fmt]
    units = []
    for i in range(0, BLOCK, size):
        chunk = block[i:i + size]
        units.append(conv(int.from_bytes(chunk.ljust(size, b"\0"), "little")) if chunk
                     else " " * unit_width)
    return f"{offset:0{width}x} " + " ".join(units) + "\n"


def _size(text: str) -> int | None:
    """util-linux's strtosize: C integer syntax, then K/M/G... (KiB) or KB/MB... (1000s)."""
    s = text.strip()
    num_end = 0
    base = 10
    if s[:2].lower() == "0x":
        base, num_end = 16, 2
        while num_end < len(s) and s[num_end] in "0123456789abcdefABCDEF":
            num_end += 1
        digits = s[2:num_end]
    else:
        while num_end < len(s) and s[num_end].isdigit():
            num_end += 1
        digits = s[:num_end]
        if len(digits) > 1 and digits.startswith("0"):
            base = 8
    if not digits:
        return None
    try:
        value = int(digits, base)
    except ValueError:
        return None
    suffix = s[num_end:]
    if not suffix:
        return value
    powers = "KMGTPEZY"
    letter = suffix[0].upper()
    if letter not in powers:
        return None
    rest = suffix[1:]
    if rest in ("", "iB", "ib"):
        return value * 1024 ** (powers.index(letter) + 1)
    if rest in ("B", "b"):
        return value * 1000 ** (powers.index(letter) + 1)
    return None


async def main(shell, argv: list[str]) -> int:
    prog = PROG
    try:
        opts, operands = parse_options(argv[1:], "bcCdoxL::e:f:n:s:vhV", LONG)
    except OptionError as e:
        await shell.error(prog, str(e))
        await shell.stderr.write(f"Try '{prog} --help' for more information.\n".encode())
        return 1
    formats: list[str] = ["C"] if argv[0].rsplit("/", 1)[-1] == "hd" else []
    length = skip = None
    squeeze = True
    for opt, val in opts:
        if opt == "h":
            await shell.stdout.write(USAGE.encode())
            return 0
        if opt == "V":
            await shell.stdout.write(b"hexdump from util-linux 2.38.1\n")
            return 0
        if opt in ("e", "f"):
            await shell.error(prog, f"-{opt}: format strings are not supported by pysh's hexdump")
            return 1
        if opt in ("n", "s"):
            n = _size(val)
            if n is None:
                what = "length" if opt == "n" else "offset"
                await shell.error(prog, f"failed to parse {what}: '{val}': Invalid argument")
                return 1
            if opt == "n":
                length = n
            else:
                skip = n
        elif opt == "v":
            squeeze = False
        elif opt in "bcCdox":
            formats.append(opt)
    if not formats:
        formats = ["default"]
    out = bytearray()
    status = 0
    failed = 0
    offset = 0
    to_skip = skip or 0
    left = length
    pending = b""
    prev: bytes | None = None
    starred = False

    async def emit(block: bytes) -> None:
        nonlocal prev, starred
        if squeeze and block == prev and len(block) == BLOCK:
            if not starred:
                out.extend(b"*\n")
                starred = True
        else:
            starred = False
            for f in formats:
                out.extend(_line(f, offset, block).encode())
        prev = block
        if len(out) >= 1 << 16:
            await shell.stdout.write(bytes(out))
            out.clear()

    for name in operands or [None]:  # None: standard input
        if left == 0:
            break
        try:
            # util-linux reads standard input only without operands: "-" is a file name
            stream = open_input(shell, "-" if name is None else "./-" if name == "-" else name)
        except OpenFailed as e:
            await shell.error(prog, f"{name}: {strerror(e.exc)}")
            if e.errno != errno.EISDIR:  # hexdump opens a directory, then fails to read it
                status = 1
                failed += 1
            continue
        try:
            while left != 0:
                chunk = await stream.read(1 << 16)
                if not chunk:
                    break
                shell.budget.check()
                if to_skip:
                    cut = min(to_skip, len(chunk))
                    chunk = chunk[cut:]
                    to_skip -= cut
                    offset += cut
                if left is not None:
                    chunk = chunk[:left]
                    left -= len(chunk)
                data = pending + chunk
                whole = len(data) - len(data) % BLOCK
                for i in range(0, whole, BLOCK):
                    await emit(data[i:i + BLOCK])
                    offset += BLOCK
                pending = data[whole:]
        except OSError as e:
            await shell.error(prog, f"{name}: {strerror(e)}")
            status = 1
        finally:
            stream.close()
    if operands and failed == len(operands):
        await shell.stdout.write(bytes(out))
        await shell.error(prog, "all input file arguments failed")
        return 1
    if pending:
        await emit(pending)
        offset += len(pending)
    if offset or prev is not None:
        width = 8 if formats[-1] == "C" else 7
        out.extend(f"{offset:0{width}x}\n".encode())
    await shell.stdout.write(bytes(out))
    return status
