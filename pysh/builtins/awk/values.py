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
# strtod's prefix: hex floats, inf/infinity, nan, decimal
_STRTOD = re.compile(
    r"[ \t\n\r\f\v]*([-+]?)(?:"
    r"(0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][-+]?[0-9]+)?)"
    r"|((?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?)"
    r"|([iI][nN][fF](?:[iI][nN][iI][tT][yY])?)"
    r"|([nN][aA][nN](?:\([0-9A-Za-z_]*\))?))"
)
_TRAIL_WS = re.compile(r"[ \t\n\r\f\v]*\Z")


def strtod(s: str) -> tuple[float, int]:
    """C strtod: the value of the longest numeric prefix, and where it ends (0: none)."""
    m = _STRTOD.match(s)
    if m is None:
        return 0.0, 0
    sign = -1.0 if m.group(1) == "-" else 1.0
    if m.group(2) is not None:
        h = m.group(2)
        try:
            v = float.fromhex(h)
        except (ValueError, OverflowError):
            v = math.inf
        return sign * v, m.end()
    if m.group(3) is not None:
        try:
            return sign * float(m.group(3)), m.end()
        except OverflowError:  # pragma: no cover - float() returns inf
            return sign * math.inf, m.end()
    if m.group(4) is not None:
        return sign * math.inf, m.end()
    return math.copysign(math.nan, sign), m.end()


def to_num_slow(s: str) -> float:
    if not s:
        return 0.0
    return strtod(s)[0]


def to_num(v) -> float:
    """awk's numeric value of any value."""
    if v.__class__ is float:
        return v
    if not v:
        return 0.0
    try:
        f = float(v)
    except ValueError:
        return strtod(v)[0]
    if f - f == 0.0 and "_" not in v and v.isascii():
        return f
    return strtod(v)[0]


def str_to_num(v: str) -> float:
    """to_num for a value known to be a str (a field)."""
    try:
        f = float(v)
    except ValueError:
        return strtod(v)[0] if v else 0.0
    if v.isascii() and "_" not in v:
        return f
    return strtod(v)[0]


def looks_numeric(s: str):
    """The number a StrNum stands for when it looks numeric (POSIX), else None."""
    if s is UNINIT:
        return 0.0
    try:
        f = float(s)
    except ValueError:
        f = None
    if f is not None:
        if f - f == 0.0:
            if "_" not in s and s.isascii():
                return f
        elif f == f:  # inf: Python and strtod agree on the spellings
            return f
        else:
            return None  # nan strings are not numbers
    if not s:
        return None
    v, end = strtod(s)
    if end == 0 or v != v:
        return None
    if end == len(s) or _TRAIL_WS.match(s, end):
        return v
    return None
