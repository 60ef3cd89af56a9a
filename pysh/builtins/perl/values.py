"""Perl values in Python: conversions, numbers, references, sprintf.

A scalar is ``None`` (undef), ``int``, ``float``, ``str`` or a reference; an
array is a Python ``list`` of scalars, a hash a ``dict`` from ``str``. Strings
hold bytes as Latin-1 characters, as perl without ``use utf8`` sees them: a
UTF-8 "é" is two characters, ``uc`` and ``\\w`` only know ASCII.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache

UV_MAX = (1 << 64) - 1
IV_MIN = -(1 << 63)


class PerlDie(Exception):
    """die: ``value`` is the message (or the object) that ``$@`` gets."""

    def __init__(self, value):
        super().__init__(value)
        self.value = value


class PerlExit(Exception):
    def __init__(self, status: int):
        super().__init__(status)
        self.status = status


class LoopControl(Exception):
    def __init__(self, kind: str, label: str | None):
        super().__init__(kind)
        self.kind = kind
        self.label = label


class ReturnValue(Exception):
    def __init__(self, value):
        super().__init__()
        self.value = value


class Ref:
    __slots__ = ()
    kind = "SCALAR"

    def stringify(self) -> str:
        return f"{self.kind}(0x{id(self.target()) & 0xFFFFFFFFFFFF:x})"

    def target(self):
        return self


class ArrayRef(Ref):
    __slots__ = ("a",)
    kind = "ARRAY"

    def __init__(self, a: list):
        self.a = a

    def target(self):
        return self.a

    def __eq__(self, other):
        return isinstance(other, ArrayRef) and other.a is self.a

    def __hash__(self):
        return id(self.a)


class HashRef(Ref):
    __slots__ = ("h",)
    kind = "HASH"

    def __init__(self, h: dict):
        self.h = h

    def target(self):
        return self.h

    def __eq__(self, other):
        return isinstance(other, HashRef) and other.h is self.h

    def __hash__(self):
        return id(self.h)


class CodeRef(Ref):
    __slots__ = ("fn", "name")
    kind = "CODE"

    def __init__(self, fn, name: str = "__ANON__"):
        self.fn = fn
        self.name = name


class ScalarRef(Ref):
    __slots__ = ("get", "set", "ident")
    kind = "SCALAR"

    def __init__(self, get, set_, ident):
        self.get = get
        self.set = set_
        self.ident = ident

    def target(self):
        return self.ident


class Regexp(Ref):
    """qr//: stringifies as (?^flags:pattern)."""

    __slots__ = ("text", "flags", "rx")
    kind = "Regexp"

    def __init__(self, text: str, flags: str, rx):
        self.text = text
        self.flags = flags
        self.rx = rx

    def stringify(self) -> str:
        return f"(?^{''.join(f for f in self.flags if f in 'imsxn')}:{self.text})"


class FileHandle(Ref):
    __slots__ = ("name", "mode", "data", "pos", "out", "path", "eof_flag", "lineno", "closed",
                 "is_std", "written")
    kind = "GLOB"

    def __init__(self, name: str, mode: str, path: str | None = None):
        self.name = name
        self.mode = mode  # "<", ">", ">>"
        self.data = ""  # what is left to read
        self.pos = 0
        self.out: list[str] = []
        self.path = path
        self.eof_flag = False
        self.lineno = 0
        self.closed = False
        self.is_std = False
        self.written = 0

    def stringify(self) -> str:
        return f"GLOB(0x{id(self) & 0xFFFFFFFFFFFF:x})"


# ------------------------------------------------------------------ conversions
def fmt_float(f: float) -> str:
    if f != f:
        return "NaN"
    if f in (math.inf, -math.inf):
        return "Inf" if f > 0 else "-Inf"
    if f == int(f) and abs(f) < 1e15:
        return str(int(f)) if f != 0 else ("-0" if math.copysign(1, f) < 0 else "0")
    return f"{f:.15g}"


def to_str(v) -> str:
    t = type(v)
    if t is str:
        return v
    if t is int:
        return str(v)
    if t is float:
        return fmt_float(v)
    if v is None:
        return ""
    if t is bool:
        return "1" if v else ""
    return v.stringify()


_NUM_RE = re.compile(r"\s*([+-]?)(?:(inf(?:inity)?|nan)|(\d*)(\.\d*)?(?:[eE]([+-]?\d+))?)",
                     re.IGNORECASE)


@lru_cache(maxsize=4096)
def parse_num(s: str):
    m = _NUM_RE.match(s)
    sign, special, digits, frac, exp = m.groups()
    if special:
        v = math.inf if special[0] in "iI" else math.nan
        return -v if sign == "-" else v
    if not digits and (not frac or frac == "."):
        return 0
    if frac is None and exp is None:
        v = int(digits)
        if sign == "-":
            v = -v
        if v > UV_MAX or v < IV_MIN:
            return float(v)
        return v
    try:
        v = float((digits or "0") + (frac or "") + (("e" + exp) if exp else ""))
    except OverflowError:
        v = math.inf
    return -v if sign == "-" else v


def to_num(v):
    t = type(v)
    if t is int or t is float:
        return v
    if t is str:
        return parse_num(v)
    if v is None:
        return 0
    if t is bool:
        return 1 if v else 0
    if isinstance(v, Ref):
        return id(v.target()) & 0xFFFFFFFFFFFF
    return 0


def to_int(v) -> int:
    n = to_num(v)
    if type(n) is int:
        return n
    if n != n:
        return 0
    if n in (math.inf, -math.inf):
        return UV_MAX if n > 0 else IV_MIN
    return int(n)


def to_bool(v) -> bool:
    if v is None:
        return False
    t = type(v)
    if t is str:
        return v != "" and v != "0"
    if t is int or t is float:
        return v != 0
    if t is bool:
        return v
    return True


def norm_int(r):
    """An integer result back into perl's range (a float past 64 bits)."""
    if type(r) is int and (r > UV_MAX or r < IV_MIN):
        return float(r)
    return r


def looks_like_number(v) -> bool:
    if type(v) in (int, float):
        return True
    if type(v) is not str:
        return False
    return re.fullmatch(r"\s*[+-]?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|"
                        r"0[xX][0-9a-fA-F]+|inf(?:inity)?|nan)\s*", v, re.I) is not None


_UPPER = str.maketrans("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def uc(s: str) -> str:
    return s.translate(_UPPER)


def lc(s: str) -> str:
    return s.translate(_LOWER)


def str_inc(s: str):
    """Perl's magic string increment ("aa9" -> "ab0", "Zz" -> "AAa")."""
    if not s or not re.fullmatch(r"[a-zA-Z]*[0-9]*", s):
        return norm_int(to_num(s) + 1) if type(to_num(s)) is int else to_num(s) + 1
    chars = list(s)
    i = len(chars) - 1
    while i >= 0:
        c = chars[i]
        if c == "z":
            chars[i] = "a"
        elif c == "Z":
            chars[i] = "A"
        elif c == "9":
            chars[i] = "0"
        else:
            chars[i] = chr(ord(c) + 1)
            return "".join(chars)
        i -= 1
    first = s[0]
    lead = "1" if first.isdigit() else ("a" if first.islower() else "A")
    return lead + "".join(chars)


# ------------------------------------------------------------------ sprintf
_FMT = re.compile(r"%(?:(\d+)\$)?([-+ 0#]*)(\*|\d+)?(?:\.(\*|\d*))?([hlqLV]*)"
                  r"([diouxXeEfFgGcsbBaAn%v])")


class SprintfError(Exception):
    pass


def sprintf(fmt: str, args: list, warn=None) -> str:
    out = []
    pos = 0
    ai = 0

    def next_arg():
        nonlocal ai
        if ai < len(args):
            v = args[ai]
        else:
            v = None
        ai += 1
        return v

    for m in _FMT.finditer(fmt):
        out.append(fmt[pos:m.start()])
        pos = m.end()
        index, flags, width, prec, _size, conv = m.groups()
        if conv == "%":
            out.append("%")
            continue
        if width == "*":
            w = to_int(next_arg())
            if w < 0:
                flags += "-"
                w = -w
            width = str(w)
        if prec == "*":
            p = to_int(next_arg())
            prec = str(p) if p >= 0 else None
        if index:
            v = args[int(index) - 1] if int(index) - 1 < len(args) else None
        else:
            v = next_arg()
        out.append(_format_one(flags, width, prec, conv, v))
    out.append(fmt[pos:])
    return "".join(out)


def _format_one(flags: str, width, prec, conv: str, v) -> str:
    spec = "%" + flags + (width or "") + ("." + prec if prec is not None else "")
    if conv in "di":
        n = to_num(v)
        if isinstance(n, float):
            if n != n or n in (math.inf, -math.inf):
                return _pad(flags, width, "-1" if n != n else ("-1" if n < 0 else "-1"))
            n = int(n)
        return (spec + "d") % n
    if conv in "ouxXbB":
        n = to_num(v)
        n = int(n) if not isinstance(n, int) else n
        if n < 0:
            n &= UV_MAX
        if conv in "bB":
            digits = format(n, "b")
            if prec is not None and prec != "" and len(digits) < int(prec or 0):
                digits = digits.rjust(int(prec), "0")
            if "#" in flags and n:
                digits = ("0" + conv) + digits
            return _pad(flags.replace("#", ""), width, digits)
        if conv == "u":
            return (spec + "d") % n
        s = (spec + conv) % n
        if conv == "o" and "#" in flags:
            s = s.replace("0o", "0", 1)
        return s
    if conv in "eEfFgGaA":
        n = to_num(v)
        f = float(n)
        if f != f or f in (math.inf, -math.inf):
            txt = "NaN" if f != f else ("Inf" if f > 0 else "-Inf")
            if f == math.inf and "+" in flags:
                txt = "+Inf"
            return _pad(flags.replace("0", ""), width, txt)
        if conv in "aA":
            return f.hex()
        return (spec + conv) % f
    if conv == "c":
        return _pad(flags, width, chr(to_int(v) % 0x110000))
    if conv == "s":
        s = to_str(v)
        if prec is not None and prec != "":
            s = s[:int(prec)]
        elif prec == "":
            s = ""
        return _pad(flags, width, s)
    if conv == "v":
        return ".".join(str(ord(c)) for c in to_str(v))
    raise SprintfError(conv)


def _pad(flags: str, width, s: str) -> str:
    if not width:
        return s
    w = int(width)
    if "-" in flags:
        return s.ljust(w)
    if "0" in flags and s[:1] not in ("-",) and s.lstrip("+-").isdigit():
        return s.rjust(w, "0")
    return s.rjust(w)
