"""awk values: numbers are floats, strings are str, and input-derived strings are StrNum.

A StrNum ("numeric string" in POSIX) compares as a number when it looks like
one. UNINIT is the uninitialized value: "" and 0 at once.
"""

from __future__ import annotations

import math
import re


class StrNum(str):
    """A string from input (fields, getline, split, ARGV, ENVIRON, -v): maybe a number."""

    __slots__ = ()


class _Uninit(StrNum):
    __slots__ = ()

    def __repr__(self) -> str:
        return "UNINIT"


UNINIT = _Uninit("")

_WS = " \t\n\r\f\v"
# The numeric prefix of a string: decimal only (hex and "inf"/"nan" words are not numbers,
# as in the one-true-awk and gawk: "INFO" in a log is 0, not infinity), plus gawk's
# "IEEE magic values": a whole string of exactly +inf -inf +nan -nan (any case).
_DECIMAL = re.compile(r"[ \t\n\r\f\v]*([-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?)")
_MAGIC = re.compile(r"[ \t\n\r\f\v]*([-+])([iI][nN][fF]|[nN][aA][nN])[ \t\n\r\f\v]*\Z")
_TRAIL_WS = re.compile(r"[ \t\n\r\f\v]*\Z")


def strtod(s: str) -> tuple[float, int]:
    """The value of the longest numeric prefix of s, and where it ends (0: none)."""
    m = _DECIMAL.match(s)
    if m is None:
        m = _MAGIC.match(s)
        if m is None:
            return 0.0, 0
        neg = m.group(1) == "-"
        if m.group(2)[0] in "iI":
            return (-math.inf if neg else math.inf), m.end()
        return (-math.nan if neg else math.nan), m.end()
    try:
        return float(m.group(1)), m.end()
    except (ValueError, OverflowError):  # pragma: no cover - float() returns inf
        return 0.0, 0


def to_num_slow(s: str) -> float:
    if not s:
        return 0.0
    return strtod(s)[0]


def _plain_float(f: float, v: str) -> bool:
    """float(v) == f means what awk means: a decimal number (no inf/nan words, _, non-ASCII)."""
    return f - f == 0.0 and v.isascii() and "_" not in v


def to_num(v) -> float:
    """awk's numeric value of any value."""
    if v.__class__ is float:
        return v
    if not v or v[0] > "9":  # empty, or a letter first: 0 (no exception on "INFO")
        return 0.0
    try:
        f = float(v)
    except ValueError:
        return strtod(v)[0]
    if _plain_float(f, v):
        return f
    return strtod(v)[0]


def str_to_num(v: str) -> float:
    """to_num for a value known to be a str (a field)."""
    if not v or v[0] > "9":
        return 0.0
    try:
        f = float(v)
    except ValueError:
        return strtod(v)[0]
    if f - f == 0.0 and v.isascii() and "_" not in v:
        return f
    return strtod(v)[0]


def looks_numeric(s: str):
    """The number a StrNum stands for when it looks numeric (POSIX), else None."""
    if s is UNINIT:
        return 0.0
    if not s or s[0] > "9":  # a letter first: not a number
        return None
    try:
        f = float(s)
    except ValueError:
        f = None
    if f is not None and f - f == 0.0 and s.isascii() and "_" not in s:
        return f
    if not s:
        return None
    v, end = strtod(s)
    if end == 0:
        return None
    if end == len(s) or _TRAIL_WS.match(s, end):
        return v
    return None
