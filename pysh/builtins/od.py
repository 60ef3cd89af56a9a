"""od: dump files in octal and other formats (GNU coreutils 9.1).

Every ``-t`` type (a c d o u x f with sizes 1 2 4 8 / C S I L, f 4 8 16 / F D L,
the ``z`` suffix), the traditional options, ``-A -j -N -S -v -w --endian``,
``--traditional`` offset and label operands, ``*`` for repeated lines. Files
are read in big chunks and each output line is built from a precomputed
per-spec format; floating point is printed as gnulib's ftoastr does (the
shortest ``%g`` precision that reads back to the same value), long double as
the x86 80-bit extended type, formatted exactly with integers.
"""

from __future__ import annotations

import errno as _errno
import math
import re
import struct
from fractions import Fraction

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
from pysh.shellkit.text import encode

HELP = """\
Usage: od [OPTION]... [FILE]...
  or:  od [-abcdfilosx]... [FILE] [[+]OFFSET[.][b]]
  or:  od --traditional [OPTION]... [FILE] [[+]OFFSET[.][b] [+][LABEL][.][b]]

Write an unambiguous representation, octal bytes by default,
of FILE to standard output.  With more than one FILE argument,
concatenate them in the listed order to form the input.

With no FILE, or when FILE is -, read standard input.

If first and second call formats both apply, the second format is assumed
if the last operand begins with + or (if there are 2 operands) a digit.
An OFFSET operand means -j OFFSET.  LABEL is the pseudo-address
at first byte printed, incremented when dump is progressing.
For OFFSET and LABEL, a 0x or 0X prefix indicates hexadecimal;
suffixes may be . for octal and b for multiply by 512.

Mandatory arguments to long options are mandatory for short options too.
  -A, --address-radix=RADIX   output format for file offsets; RADIX is one
                                of [doxn], for Decimal, Octal, Hex or None
      --endian={big|little}   swap input bytes according the specified order
  -j, --skip-bytes=BYTES      skip BYTES input bytes first
  -N, --read-bytes=BYTES      limit dump to BYTES input bytes
  -S BYTES, --strings[=BYTES]  output strings of at least BYTES graphic chars;
                                3 is implied when BYTES is not specified
  -t, --format=TYPE           select output format or formats
  -v, --output-duplicates     do not use * to mark line suppression
  -w[BYTES], --width[=BYTES]  output BYTES bytes per output line;
                                32 is implied when BYTES is not specified
      --traditional           accept arguments in third form above
      --help        display this help and exit
      --version     output version information and exit


Traditional format specifications may be intermixed; they accumulate:
  -a   same as -t a,  select named characters, ignoring high-order bit
  -b   same as -t o1, select octal bytes
  -c   same as -t c,  select printable characters or backslash escapes
  -d   same as -t u2, select unsigned decimal 2-byte units
  -f   same as -t fF, select floats
  -i   same as -t dI, select decimal ints
  -l   same as -t dL, select decimal longs
  -o   same as -t o2, select octal 2-byte units
  -s   same as -t d2, select decimal 2-byte units
  -x   same as -t x2, select hexadecimal 2-byte units


TYPE is made up of one or more of these specifications:
  a          named character, ignoring high-order bit
  c          printable character or backslash escape
  d[SIZE]    signed decimal, SIZE bytes per integer
  f[SIZE]    floating point, SIZE bytes per float
  o[SIZE]    octal, SIZE bytes per integer
  u[SIZE]    unsigned decimal, SIZE bytes per integer
  x[SIZE]    hexadecimal, SIZE bytes per integer

SIZE is a number.  For TYPE in [doux], SIZE may also be C for
sizeof(char), S for sizeof(short), I for sizeof(int) or L for
sizeof(long).  If TYPE is f, SIZE may also be F for sizeof(float), D
for sizeof(double) or L for sizeof(long double).

Adding a z suffix to any type displays printable characters at the end of
each output line.


BYTES is hex with 0x or 0X prefix, and may have a multiplier suffix:
  b    512
  KB   1000
  K    1024
  MB   1000*1000
  M    1024*1024
and so on for G, T, P, E, Z, Y.
Binary prefixes can be used, too: KiB=K, MiB=M, and so on.

GNU coreutils online help: <https://www.gnu.org/software/coreutils/>
Report any translation bugs to <https://translationproject.org/team/>
Full documentation <https://www.gnu.org/software/coreutils/od>
or available locally via: info '(coreutils) od invocation'
"""

PROG = "od"
SHORT = "A:aBbcDdeFfHhIij:LlN:OoS:st:vw::Xx"
LONG = {
    "skip-bytes=": "--skip-bytes", "address-radix=": "--address-radix",
    "read-bytes=": "--read-bytes", "format=": "--format",
    "output-duplicates": "--output-duplicates", "strings?": "--strings",
    "traditional": "--traditional", "width?": "--width", "endian=": "--endian",
    "help": "--help", "version": "--version",
}
# long option -> the short option it stands for
LONG_TO_SHORT = {"--skip-bytes": "j", "--address-radix": "A", "--read-bytes": "N",
                 "--format": "t", "--output-duplicates": "v", "--strings": "S",
                 "--width": "w"}
# traditional format options
OLD_FORMATS = {"a": "a", "b": "o1", "c": "c", "D": "u4", "d": "u2", "F": "fD", "e": "fD",
               "f": "fF", "X": "x4", "H": "x4", "i": "dI", "I": "dL", "L": "dL", "l": "dL",
               "O": "o4", "B": "o2", "o": "o2", "s": "d2", "h": "x2", "x": "x2"}
MULTIPLIERS = "bEGKkMmPTYZ0"
UINTMAX = (1 << 64) - 1
MAX_BLOCK = 1 << 22

CHARNAME = ["nul", "soh", "stx", "etx", "eot", "enq", "ack", "bel", "bs", "ht", "nl", "vt",
            "ff", "cr", "so", "si", "dle", "dc1", "dc2", "dc3", "dc4", "nak", "syn", "etb",
            "can", "em", "sub", "esc", "fs", "gs", "rs", "us", "sp"]
C_ESCAPES = {0: "\\0", 7: "\\a", 8: "\\b", 12: "\\f", 10: "\\n", 13: "\\r", 9: "\\t", 11: "\\v"}
# isprint() in the C / C.UTF-8 locale, for the hexl trailer
PRINTABLE = bytes(c if 0x20 <= c < 0x7F else 0x2E for c in range(256))

OCT_DIGITS = {1: 3, 2: 6, 4: 11, 8: 22}
SIGNED_DIGITS = {1: 4, 2: 6, 4: 11, 8: 20}
UNSIGNED_DIGITS = {1: 3, 2: 5, 4: 10, 8: 20}
HEX_DIGITS = {1: 2, 2: 4, 4: 8, 8: 16}
FLOAT_WIDTH = {4: 15, 8: 24, 16: 29}
INT_CODES = {1: "B", 2: "H", 4: "I", 8: "Q"}
SINT_CODES = {1: "b", 2: "h", 4: "i", 8: "q"}


class Fatal(Exception):
    """An error that ends od at once (after its message)."""


# ------------------------------------------------------------------ numbers
def _c_isspace(ch: str) -> bool:
    return ch in " \t\n\v\f\r"


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


def xstrtoumax(s: str, base: int, valid: str | None) -> tuple[int, set[str]]:
    """gnulib xstrtoumax: (value, errors) with errors a subset of {invalid, overflow, suffix}."""
    i = 0
    n = len(s)
    while i < n and _c_isspace(s[i]):
        i += 1
    if i < n and s[i] == "-":
        return 0, {"invalid"}
    j = i
    if j < n and s[j] == "+":
        j += 1
    b = base
    if (b in (0, 16)) and s[j:j + 2] in ("0x", "0X") and j + 2 < n and _digit(s[j + 2], 16) >= 0:
        j += 2
        b = 16
    elif b == 0:
        b = 8 if s[j:j + 1] == "0" else 10
    start = j
    value = 0
    while j < n and _digit(s[j], b) >= 0:
        value = value * b + _digit(s[j], b)
        j += 1
    errs: set[str] = set()
    if j == start:
        if valid and s and s[0] in valid:
            value = 1
            j = 0
        else:
            return 0, {"invalid"}
    elif value > UINTMAX:
        value = UINTMAX
        errs.add("overflow")
    if valid is None:
        return value, errs
    if j < n:
        ch = s[j]
        if ch not in valid:
            return value, errs | {"suffix"}
        kbase = 1024
        nsuf = 1
        if ch in "EGgkKMmPTtYZ" and "0" in valid:
            nxt = s[j + 1:j + 2]
            if nxt == "i":
                if s[j + 2:j + 3] == "B":
                    nsuf += 2
            elif nxt in ("B", "D"):
                kbase = 1000
                nsuf += 1
        powers = {"E": 6, "G": 3, "g": 3, "k": 1, "K": 1, "M": 2, "m": 2, "P": 5, "T": 4,
                  "t": 4, "Y": 8, "Z": 7}
        if ch == "b":
            mult = 512
        elif ch == "B":
            mult = 1024
        elif ch == "c":
            mult = 1
        elif ch == "w":
            mult = 2
        elif ch in powers:
            mult = kbase ** powers[ch]
        else:
            return value, errs | {"suffix"}
        value *= mult
        if value > UINTMAX:
            value = UINTMAX
            errs.add("overflow")
        if j + nsuf < n:
            errs.add("suffix")
    return value, errs


def _fatal_number(errs: set[str], option: str, arg: str) -> str:
    if "suffix" in errs:
        return f"invalid suffix in {option} argument '{arg}'"
    if "invalid" in errs:
        return f"invalid {option} argument '{arg}'"
    return f"{option} argument '{arg}' too large"


def parse_old_offset(s: str) -> int | None:
    if not s:
        return None
    if s[0] == "+":
        s = s[1:]
    if "." in s:
        radix = 10
    elif s[:1] == "0" and s[1:2] in ("x", "X"):
        radix = 16
    else:
        radix = 8
    value, errs = xstrtoumax(s, radix, "Bb")
    return None if errs else value


# ------------------------------------------------------------------ floats
FLT_MIN = 1.1754943508222875e-38
DBL_MIN = 2.2250738585072014e-308
_F32 = struct.Struct("<f")


def _round_f32(v: float) -> float:
    try:
        return _F32.unpack(_F32.pack(v))[0]
    except OverflowError:
        return float("inf") if v > 0 else float("-inf")


def _strtof(s: str) -> float:
    """strtof(): decimal to the nearest float (not through a double rounding)."""
    v = float(s)
    f = _round_f32(v)
    if f == v or f != f or f in (float("inf"), float("-inf")):
        return f
    g = 2 * v - f
    if _round_f32(g) != g:
        return f
    # v lies exactly halfway between two floats: decide on the exact decimal
    exact = Fraction(s)
    if exact == Fraction(v):
        return f
    lo, hi = (f, g) if f < g else (g, f)
    return hi if exact > Fraction(v) else lo


def _float_text(bits: int, size: int) -> str:
    if size == 4:
        x = _F32.unpack(bits.to_bytes(4, "little"))[0]
        neg = bits >> 31
        if x != x:
            return "-nan" if neg else "nan"
        if x in (float("inf"), float("-inf")):
            return "-inf" if neg else "inf"
        prec = 1 if abs(x) < FLT_MIN else 6
        while True:
            s = f"{x:.{prec}g}"
            if prec >= 9 or _strtof(s) == x:
                return s
            prec += 1
    x = struct.unpack("<d", bits.to_bytes(8, "little"))[0]
    neg = bits >> 63
    if x != x:
        return "-nan" if neg else "nan"
    if x in (float("inf"), float("-inf")):
        return "-inf" if neg else "inf"
    prec = 1 if abs(x) < DBL_MIN else 15
    while True:
        s = f"{x:.{prec}g}"
        if prec >= 17 or float(s) == x:
            return s
        prec += 1


_POW10: dict[int, int] = {}


def _pow10(n: int) -> int:
    v = _POW10.get(n)
    if v is None:
        if len(_POW10) > 4096:
            _POW10.clear()
        v = _POW10[n] = 10 ** n
    return v


def _decimal_exponent(num: int, den: int) -> int:
    """floor(log10(num/den)) for num/den > 0."""
    e = math.floor(math.log10(num) - math.log10(den))
    while True:
        if e >= 0:
            low = num >= den * _pow10(e)
        else:
            low = num * _pow10(-e) >= den
        if not low:
            e -= 1
            continue
        e1 = e + 1
        if e1 >= 0:
            high = num < den * _pow10(e1)
        else:
            high = num * _pow10(-e1) < den
        if not high:
            e += 1
            continue
        return e


def _format_g(num: int, den: int, prec: int, e: int) -> tuple[str, int, int]:
    """C's %.{prec}g of the exact positive rational num/den (round half to even),
    with the rounded digits q and their exponent t (the value shown is q * 10**t);
    ``e`` is floor(log10(num/den))."""
    prec = max(prec, 1)
    shift = prec - 1 - e
    if shift >= 0:
        q, r = divmod(num * _pow10(shift), den)
        d = den
    else:
        d = den * _pow10(-shift)
        q, r = divmod(num, d)
    if 2 * r > d or (2 * r == d and q & 1):
        q += 1
    if q >= _pow10(prec):
        q //= 10
        e += 1
    digits = str(q)
    t = e - prec + 1
    if prec > e >= -4:
        if e >= 0:
            ip, fp = digits[:e + 1], digits[e + 1:]
        else:
            ip, fp = "0", "0" * (-e - 1) + digits
        fp = fp.rstrip("0")
        return ip + ("." + fp if fp else ""), q, t
    mant = digits[0]
    rest = digits[1:].rstrip("0")
    if rest:
        mant += "." + rest
    return f"{mant}e{'-' if e < 0 else '+'}{abs(e):02d}", q, t


def _reads_back(q: int, t: int, hm: int, hk: int) -> bool:
    """Whether strtold() of q*10**t gives back the long double hm*2**hk (hm > 0)."""
    # units of 2**(hk-2): x is 4*hm, half an ulp is 2 (1 below a power of two)
    x4 = 4 * hm
    boundary = hm == 1 << 63 and hk > -16445
    lo, hi = x4 - (1 if boundary else 2), x4 + 2
    num = q * _pow10(t) if t > 0 else q
    den = _pow10(-t) if t < 0 else 1
    sh = 2 - hk
    if sh > 0:
        num <<= sh
    else:
        den <<= -sh
    even = not hm & 1
    top = hi * den
    if num > top or (num == top and not even):
        return False
    bottom = lo * den
    if num < bottom or (num == bottom and not (even or boundary)):
        return False
    return True


def _long_double_text(b: bytes) -> str:
    m = int.from_bytes(b[:8], "little")
    se = b[8] | b[9] << 8
    neg = se >> 15
    exp = se & 0x7FFF
    sign = "-" if neg else ""
    if exp == 0x7FFF:
        if m >> 63 and not m & ((1 << 63) - 1):
            return sign + "inf"
        return sign + "nan"
    if m == 0 and exp == 0:
        return sign + "0"
    if exp == 0:
        # the hardware reads a pseudo-denormal (integer bit set) with the minimum
        # exponent; glibc's printf drops the integer bit unless nothing else is set
        hm, hk = m, -16445
        shown = m if m == 1 << 63 else m & ((1 << 63) - 1)
        num, den = shown, 1 << 16445
    else:
        if not m >> 63:
            return sign + "nan"
        hm, hk = m, exp - 16383 - 63
        num, den = (m << hk, 1) if hk >= 0 else (m, 1 << -hk)
    prec = 1 if hk == -16445 and hm < 1 << 63 else 18
    e = _decimal_exponent(num, den)
    while True:
        text, q, t = _format_g(num, den, prec, e)
        if prec >= 21 or _reads_back(q, t, hm, hk):
            return sign + text
        prec += 1


# ------------------------------------------------------------------ specs
class Spec:
    __slots__ = ("kind", "size", "width", "hexl", "pad", "fields", "widths", "_fmt", "_cache",
                 "_st", "_tables", "_table", "_partial")

    def __init__(self, kind: str, size: int, width: int, hexl: bool) -> None:
        self.kind = kind      # d o u x f a c
        self.size = size
        self.width = width
        self.hexl = hexl
        self.pad = 0
        self.fields = 0
        self.widths: list[int] = []
        self._cache: dict = {}
        self._partial: dict = {}

    # -- preparation once the block size is known
    def prepare(self, bpb: int, swap: bool) -> None:
        f = self.fields = bpb // self.size
        pad = self.pad
        widths = []
        remaining = pad
        for i in range(f, 0, -1):
            nxt = pad * (i - 1) // f
            widths.append(remaining - nxt + self.width)
            remaining = nxt
        self.widths = widths
        endian = ">" if swap else "<"
        k = self.kind
        if k in "doux" and self.size == 1:
            # a byte: a table of the 256 texts per column width
            values = [c - 256 if k == "d" and c >= 128 else c for c in range(256)]
            conv = self._conv(0)
            names = [conv % v for v in values]
            self._st = None
            self._set_tables(names)
        elif k in "doux":
            code = (SINT_CODES if k == "d" else INT_CODES)[self.size]
            self._st = (endian, code)
            self._fmt = "".join(self._conv(w) for w in widths)
        elif k == "f":
            if self.size == 16:
                self._st = (endian, None)
            else:
                self._st = (endian, INT_CODES[self.size])
        else:
            self._set_tables([self._char_text(c) for c in range(256)])

    def _set_tables(self, names: list[str]) -> None:
        widths = self.widths
        if len(set(widths)) == 1:
            w = widths[0]
            self._table = [s.rjust(w) for s in names]
            self._tables = None
        else:
            self._table = None
            self._tables = [[s.rjust(w) for s in names] for w in widths]

    def _conv(self, w: int) -> str:
        k = self.kind
        if k == "o":
            return f"%{w}.{self.width}o"
        if k == "x":
            return f"%{w}.{self.width}x"
        return f"%{w}d"

    def _char_text(self, c: int) -> str:
        if self.kind == "a":
            m = c & 0x7F
            if m == 127:
                return "del"
            if m <= 32:
                return CHARNAME[m]
            return chr(m)
        if c in C_ESCAPES:
            return C_ESCAPES[c]
        if 0x20 <= c < 0x7F:
            return chr(c)
        return f"{c:03o}"

    # -- one line of fields for a block
    def line(self, block: bytes, nfields: int) -> str:
        k = self.kind
        if k in "ac" or self.size == 1:
            data = block[:nfields]
            if self._table is not None:
                return "".join(map(self._table.__getitem__, data))
            tables = self._tables
            return "".join([tables[j][c] for j, c in enumerate(data)])
        endian, code = self._st
        if k == "f":
            return self._float_line(block, nfields)
        values = struct.unpack_from(f"{endian}{nfields}{code}", block)
        if nfields == self.fields:
            return self._fmt % values
        fmt = self._partial.get(nfields)
        if fmt is None:
            fmt = self._partial[nfields] = "".join(self._conv(w) for w in self.widths[:nfields])
        return fmt % values

    def _float_line(self, block: bytes, nfields: int) -> str:
        endian, code = self._st
        cache = self._cache
        out = []
        widths = self.widths
        size = self.size
        if size == 16:
            for j in range(nfields):
                raw = block[16 * j:16 * j + 16]
                if endian == ">":
                    raw = raw[::-1]
                key = raw[:10]
                s = cache.get(key)
                if s is None:
                    s = cache[key] = _long_double_text(key)
                out.append(s.rjust(widths[j]))
            return "".join(out)
        values = struct.unpack_from(f"{endian}{nfields}{code}", block)
        for j, bits in enumerate(values):
            s = cache.get(bits)
            if s is None:
                if len(cache) > 65536:
                    cache.clear()
                s = cache[bits] = _float_text(bits, size)
            out.append(s.rjust(widths[j]))
        return "".join(out)


def decode_one(s_orig: str, s: str, i: int) -> tuple[Spec, int]:
    """One type at s[i:]; raises ValueError(message)."""
    c = s[i]
    if c in "doux":
        i += 1
        ch = s[i:i + 1]
        if ch and ch in "CSIL":
            size = {"C": 1, "S": 2, "I": 4, "L": 8}[ch]
            i += 1
        else:
            j = i
            while j < len(s) and "0" <= s[j] <= "9":
                j += 1
            if j == i:
                size = 4
            else:
                size = int(s[i:j])
                if size > UINTMAX:
                    raise ValueError(f"invalid type string {quote(s_orig)}")
                if size not in (1, 2, 4, 8):
                    raise ValueError(f"invalid type string {quote(s_orig)};\nthis system doesn't "
                                     f"provide a {size}-byte integral type")
                i = j
        width = {"d": SIGNED_DIGITS, "o": OCT_DIGITS, "u": UNSIGNED_DIGITS,
                 "x": HEX_DIGITS}[c][size]
        kind = c
    elif c == "f":
        i += 1
        ch = s[i:i + 1]
        if ch and ch in "FDL":
            size = {"F": 4, "D": 8, "L": 16}[ch]
            i += 1
        else:
            j = i
            while j < len(s) and "0" <= s[j] <= "9":
                j += 1
            if j == i:
                size = 8
            else:
                size = int(s[i:j])
                if size > UINTMAX:
                    raise ValueError(f"invalid type string {quote(s_orig)}")
                if size not in (4, 8, 16):
                    raise ValueError(f"invalid type string {quote(s_orig)};\nthis system doesn't "
                                     f"provide a {size}-byte floating point type")
                i = j
        width = FLOAT_WIDTH[size]
        kind = "f"
    elif c in "ac":
        i += 1
        size, width, kind = 1, 3, c
    else:
        raise ValueError(f"invalid character '{c}' in type string {quote(s_orig)}")
    hexl = s[i:i + 1] == "z"
    if hexl:
        i += 1
    return Spec(kind, size, width, hexl), i


def decode_format(s: str) -> list[Spec]:
    specs = []
    i = 0
    while i < len(s):
        spec, i = decode_one(s, s, i)
        specs.append(spec)
    return specs


# ------------------------------------------------------------------ input
class Inputs:
    """The concatenation of the file operands, read in chunks."""

    def __init__(self, shell, names: list[str]) -> None:
        self.shell = shell
        self.names = names
        self.index = 0
        self.stream = None
        self.name = ""
        self.pending_error: int | None = None
        self.ok = True
        self.opened = False   # whether any file was ever opened

    async def open_next(self) -> bool:
        shell = self.shell
        while self.index < len(self.names):
            name = self.names[self.index]
            self.index += 1
            self.name = "standard input" if name == "-" else name
            try:
                self.stream = shell.open_input(name)
                self.opened = True
                return True
            except OSError as e:
                if getattr(e, "errno", None) == _errno.EISDIR:
                    # fopen() of a directory succeeds; the first read fails
                    self.stream = None
                    self.pending_error = _errno.EISDIR
                    self.opened = True
                    return True
                await shell.error(PROG, f"{quotef(name)}: {strerror(e)}")
                self.ok = False
        self.stream = None
        return False

    def active(self) -> bool:
        return self.stream is not None or self.pending_error is not None

    async def read(self, n: int) -> bytes:
        while self.active():
            if self.pending_error is not None:
                code = self.pending_error
                self.pending_error = None
                import os

                await self.shell.error(PROG, f"{quotef(self.name)}: {os.strerror(code)}")
                self.ok = False
                await self.open_next()
                continue
            data = await self.stream.read(n)
            if data:
                return data
            self.stream.close()
            self.stream = None
            await self.open_next()
        return b""

    def close(self) -> None:
        if self.stream is not None:
            self.stream.close()
            self.stream = None


# ------------------------------------------------------------------ output
class Out:
    __slots__ = ("shell", "parts", "size")

    def __init__(self, shell) -> None:
        self.shell = shell
        self.parts: list[str] = []
        self.size = 0

    async def add(self, s: str) -> None:
        self.parts.append(s)
        self.size += len(s)
        if self.size >= 1 << 16:
            await self.flush()

    async def flush(self) -> None:
        if self.parts:
            data = "".join(self.parts).encode("latin-1")
            self.parts.clear()
            self.size = 0
            await self.shell.stdout.write(data)


class Addr:
    """format_address_{std,none,paren,label}."""

    def __init__(self, base: int, pad: int, mode: str, pseudo: int = 0) -> None:
        self.base = base
        self.pad = pad
        self.mode = mode
        self.pseudo = pseudo

    def std(self, a: int) -> str:
        a &= UINTMAX
        if self.base == 8:
            s = f"{a:o}"
        elif self.base == 10:
            s = f"{a:d}"
        else:
            s = f"{a:x}"
        return s.rjust(self.pad, "0")

    def text(self, a: int, end: str = "") -> str:
        if self.mode == "none":
            return ""
        if self.mode == "std":
            return self.std(a) + end
        if self.mode == "paren":
            return "(" + self.std(a) + ")" + end
        return self.std(a) + " (" + self.std(a + self.pseudo) + ")" + end


# ------------------------------------------------------------------ main
async def main(shell, argv: list[str]) -> int:
    try:
        return await _main(shell, argv)
    except Fatal:
        return 1


async def _main(shell, argv: list[str]) -> int:
    try:
        opts, operands = parse_options(argv[1:], SHORT, LONG)
    except OptionError as e:
        return await usage(shell, PROG, str(e))
    specs: list[Spec] = []
    ok = True
    modern = False
    traditional = False
    skip = 0
    limit: int | None = None
    string_min: int | None = None
    abbreviate = True
    swap = False
    width: int | None = None
    addr_base, addr_pad, addr_mode = 8, 7, "std"
    for key, val in opts:
        if key == "--help":
            return await help_text(shell, HELP)
        if key == "--version":
            return await version_text(shell, PROG)
        optname = key if key.startswith("--") else "-" + key
        key = LONG_TO_SHORT.get(key, key)
        if key == "A":
            modern = True
            ch = (val or "")[:1] or "\0"
            if ch == "d":
                addr_base, addr_pad, addr_mode = 10, 7, "std"
            elif ch == "o":
                addr_base, addr_pad, addr_mode = 8, 7, "std"
            elif ch == "x":
                addr_base, addr_pad, addr_mode = 16, 6, "std"
            elif ch == "n":
                addr_pad, addr_mode = 0, "none"
            else:
                await shell.error(PROG, f"invalid output address radix '{ch}'; it must be one "
                                  "character from [doxn]")
                return 1
        elif key in ("j", "N"):
            modern = True
            value, errs = xstrtoumax(val or "", 0, MULTIPLIERS)
            if errs:
                await shell.error(PROG, _fatal_number(errs, optname, val or ""))
                return 1
            if key == "j":
                skip = value
            else:
                limit = value
        elif key == "S":
            modern = True
            if val is None:
                string_min = 3
            else:
                value, errs = xstrtoumax(val, 0, MULTIPLIERS)
                if errs:
                    await shell.error(PROG, _fatal_number(errs, optname, val))
                    return 1
                if value > (1 << 63) - 1:
                    await shell.error(PROG, f"{quote(val)} is too large")
                    return 1
                string_min = value
        elif key == "t":
            modern = True
            try:
                specs.extend(decode_format(val or ""))
            except ValueError as e:
                await shell.error(PROG, str(e))
                ok = False
        elif key == "v":
            modern = True
            abbreviate = False
        elif key == "--traditional":
            traditional = True
        elif key == "--endian":
            choice = _argmatch(val or "", ["little", "big"])
            if choice is None or choice == "ambiguous":
                kind = "ambiguous" if choice == "ambiguous" else "invalid"
                await shell.error(PROG, f"{kind} argument {quote(val or '')} for "
                                  f"{quote('--endian')}")
                await shell.stderr.write(encode("Valid arguments are:\n  - ‘little’\n  - ‘big’\n"))
                return await usage(shell, PROG, None)
            swap = choice == "big"
        elif key == "w":
            modern = True
            if val is None:
                width = 32
            else:
                value, errs = xstrtoumax(val, 10, "")
                if errs:
                    await shell.error(PROG, _fatal_number(errs, optname, val))
                    return 1
                width = value
        elif key in OLD_FORMATS:
            specs.extend(decode_format(OLD_FORMATS[key]))
    if not ok:
        return 1
    if string_min is not None and specs:
        await shell.error(PROG, "no type may be specified when dumping strings")
        return 1

    # traditional operands: [FILE] [[+]OFFSET[.][b] [[+]LABEL[.][b]]]
    files = list(operands)
    pseudo_start: int | None = None
    if not modern or traditional:
        nf = len(files)
        if nf == 1:
            if traditional or files[0].startswith("+"):
                o1 = parse_old_offset(files[0])
                if o1 is not None:
                    skip = o1
                    files = []
        elif nf == 2:
            if traditional or files[1].startswith("+") or files[1][:1].isdigit():
                o2 = parse_old_offset(files[1])
                if o2 is not None:
                    o1 = parse_old_offset(files[0]) if traditional else None
                    if o1 is not None:
                        skip = o1
                        pseudo_start = o2
                        files = []
                    else:
                        skip = o2
                        files = files[:1]
        elif nf == 3:
            if traditional:
                o1 = parse_old_offset(files[1])
                o2 = parse_old_offset(files[2]) if o1 is not None else None
                if o1 is not None and o2 is not None:
                    skip = o1
                    pseudo_start = o2
                    files = files[:1]
        if traditional and len(files) > 1:
            await shell.error(PROG, f"extra operand {quote(files[1])}")
            await shell.error(PROG, "compatibility mode supports at most one file")
            return await usage(shell, PROG, None)

    if pseudo_start is not None:
        if addr_mode == "none":
            addr_base, addr_pad, addr_mode = 8, 7, "paren"
        else:
            addr_mode = "label"
    end_offset = None
    if limit is not None:
        end_offset = skip + limit
        if end_offset > UINTMAX:
            await shell.error(PROG, "skip-bytes + read-bytes is too large")
            return 1
    if not specs:
        specs = decode_format("oS")
    inputs = Inputs(shell, files or ["-"])
    try:
        await inputs.open_next()
        if not inputs.active():
            return 1 if not inputs.ok else 0
        # skip over the unwanted leading bytes
        left = skip
        while left > 0:
            data = await inputs.read(min(left, 1 << 20))
            if not data:
                break
            left -= len(data)
            shell.budget.check()
        if left > 0:
            await shell.error(PROG, "cannot skip past end of combined input")
            return 1
        pseudo = (pseudo_start - skip) if pseudo_start is not None else 0
        addr = Addr(addr_base, addr_pad, addr_mode, pseudo)
        out = Out(shell)
        bpb = await _block_size(shell, specs, width)
        if string_min is not None:
            await _dump_strings(shell, inputs, out, addr, skip, end_offset, string_min)
        else:
            if bpb > MAX_BLOCK:
                await shell.error(PROG, "memory exhausted")
                return 1
            await _dump(shell, inputs, out, addr, specs, skip, end_offset, bpb, abbreviate, swap)
        await out.flush()
    finally:
        inputs.close()
    return 0 if inputs.ok else 1


def _argmatch(value: str, choices: list[str]):
    if value in choices:
        return value
    matches = [c for c in choices if value and c.startswith(value)]
    if len(matches) == 1:
        return matches[0]
    return "ambiguous" if matches else None


def _lcm(a: int, b: int) -> int:
    return a * b // math.gcd(a, b)


async def _block_size(shell, specs: list[Spec], width: int | None) -> int:
    lcm = 1
    for sp in specs:
        lcm = _lcm(lcm, sp.size)
    if width is not None:
        if width != 0 and width % lcm == 0:
            return width
        await shell.error(PROG, f"warning: invalid width {width}; using {lcm} instead")
        return lcm
    return lcm * (16 // lcm) if lcm < 16 else lcm


async def _dump(shell, inputs: Inputs, out: Out, addr: Addr, specs: list[Spec], skip: int,
                end_offset: int | None, bpb: int, abbreviate: bool, swap: bool) -> int:
    width_per_block = max((sp.width + 1) * (bpb // sp.size) for sp in specs)
    for sp in specs:
        sp.pad = width_per_block - sp.width * (bpb // sp.size)
        sp.prepare(bpb, swap)
    pad_blank = " " * addr.pad
    first_addr = addr.text

    def lines_for(offset: int, block: bytes, n: int) -> str:
        parts = []
        for i, sp in enumerate(specs):
            fields = sp.fields
            blank = (bpb - n) // sp.size
            parts.append(first_addr(offset) if i == 0 else pad_blank)
            parts.append(sp.line(block, fields - blank))
            if sp.hexl:
                parts.append(" " * (blank * sp.width + sp.pad * blank // fields))
                parts.append("  >" + block[:n].translate(PRINTABLE).decode("latin-1") + "<")
            parts.append("\n")
        return "".join(parts)

    offset = skip
    prev: bytes | None = None
    prev_equal = False
    pending = b""
    chunk_size = bpb * max(1, (1 << 16) // bpb)
    budget = shell.budget
    while True:
        want = chunk_size
        if end_offset is not None:
            want = min(want, end_offset - offset - len(pending))
        data = await inputs.read(want) if want > 0 else b""
        if not data:
            break
        budget.check()
        if pending:
            data = pending + data
        nfull = len(data) // bpb
        pos = 0
        parts = []
        for _ in range(nfull):
            block = data[pos:pos + bpb]
            pos += bpb
            if abbreviate and block == prev:
                if not prev_equal:
                    parts.append("*\n")
                    prev_equal = True
            else:
                prev_equal = False
                parts.append(lines_for(offset, block, bpb))
            prev = block
            offset += bpb
        if parts:
            await out.add("".join(parts))
        pending = data[pos:]
    if pending:
        n = len(pending)
        block = pending + bytes(bpb - n)
        await out.add(lines_for(offset, block, n))
        offset += n
    if addr.mode != "none":
        await out.add(addr.text(offset, "\n"))
    return 0


_ESC_STR = {7: "\\a", 8: "\\b", 12: "\\f", 10: "\\n", 13: "\\r", 9: "\\t", 11: "\\v"}


async def _dump_strings(shell, inputs: Inputs, out: Out, addr: Addr, skip: int,
                        end_offset: int | None, string_min: int) -> None:
    parts = []
    total = 0
    while True:
        want = 1 << 20
        if end_offset is not None:
            want = min(want, end_offset - skip - total)
            if want <= 0:
                break
        data = await inputs.read(want)
        if not data:
            break
        parts.append(data)
        total += len(data)
        shell.budget.check()
    data = b"".join(parts)
    found: list[tuple[int, bytes]] = []
    if end_offset is None:
        # a run of printable characters, at least string_min long, ended by a NUL
        pattern = re.compile(rb"[\x20-\x7e]{%d,}\x00" % string_min) if string_min < 1 << 15 \
            else None
        if pattern is not None:
            for m in pattern.finditer(data):
                found.append((skip + m.start(), m.group()[:-1]))
                if len(found) > 4096:
                    await _emit_strings(out, addr, found)
        else:
            found = _scan_strings(data, skip, None, string_min, shell.budget)
    else:
        found = _scan_strings(data, skip, end_offset, string_min, shell.budget)
    await _emit_strings(out, addr, found)


async def _emit_strings(out: Out, addr: Addr, found: list[tuple[int, bytes]]) -> None:
    lines = []
    for where, text in found:
        s = text.decode("latin-1")
        for code, esc in _ESC_STR.items():
            if chr(code) in s:
                s = s.replace(chr(code), esc)
        lines.append(addr.text(where, " ") + s + "\n")
    found.clear()
    await out.add("".join(lines))


def _scan_strings(data: bytes, skip: int, end: int | None, string_min: int,
                  budget) -> list[tuple[int, bytes]]:
    """dump_strings() as GNU writes it (needed for -N, where a string may end at the limit)."""
    found = []
    n = len(data)
    address = skip
    i = 0
    count = 0
    while True:
        count += 1
        if count & 0xFFF == 0:
            budget.check()
        if end is not None and (end < string_min or end - string_min <= address):
            break
        start = i
        restart = False
        for _ in range(string_min):
            if i >= n:
                return found
            c = data[i]
            i += 1
            address += 1
            if not 0x20 <= c < 0x7F:
                restart = True
                break
        if restart:
            continue
        length = string_min
        while end is None or address < end:
            if i >= n:
                return found
            c = data[i]
            i += 1
            address += 1
            if c == 0:
                break
            if not 0x20 <= c < 0x7F:
                restart = True
                break
            length += 1
        if restart:
            continue
        found.append((address - length - 1, data[start:start + length]))
    return found
