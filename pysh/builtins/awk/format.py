# ruff: noqa: UP031 - C printf formatting is the point here
"""printf/sprintf and number-to-string conversion, as gawk --posix does them.

Numbers are C doubles (Python floats). Integral values convert to strings as
integers; others through CONVFMT (OFMT for print). Infinities and NaNs print
as ``+inf -inf +nan -nan`` in conversions, and as C's ``inf``/``-nan`` in
``%f``-style conversions.
"""

from __future__ import annotations

import math
import re

from pysh.builtins.awk.errors import AwkFatal

_SPEC = re.compile(r"%([-+ #0']*)(\*|\d+)?(?:\.(\*|\d*))?(.?)", re.DOTALL)
UINT_RANGE = 2 ** 64
INT_MIN = -(2 ** 63)


def special_str(v: float) -> str:
    """inf/nan as awk prints them in string conversions."""
    if v != v:
        return "-nan" if math.copysign(1.0, v) < 0 else "+nan"
    return "+inf" if v > 0 else "-inf"


def num_to_str(v: float, fmt: str, max_len: int | None = None) -> str:
    """The string value of number v under CONVFMT/OFMT ``fmt``."""
    if v.is_integer():
        return "%d" % v
    if v - v != 0.0:
        return special_str(v)
    if fmt == "%.6g":
        return "%.6g" % v
    return sprintf(fmt, [v], None, None, max_len)


def _c_special(v: float, flags: str, width: int | None, upper: bool) -> str:
    if v != v:
        body = "nan"
        neg = math.copysign(1.0, v) < 0
    else:
        body = "inf"
        neg = v < 0
    if upper:
        body = body.upper()
    if neg:
        body = "-" + body
    elif "+" in flags:
        body = "+" + body
    elif " " in flags:
        body = " " + body
    if width and len(body) < width:
        body = body.ljust(width) if "-" in flags else body.rjust(width)
    return body


def _pad(s: str, flags: str, width: int | None) -> str:
    if width and len(s) < width:
        return s.ljust(width) if "-" in flags else s.rjust(width)
    return s


class FormatCtx:
    """What formatting needs from the runtime: value conversions."""

    __slots__ = ("tonum", "tostr", "isnum")

    def __init__(self, tonum, tostr, isnum):
        self.tonum = tonum
        self.tostr = tostr
        self.isnum = isnum  # does this value count as a number for %c


_plans: dict[str, tuple | None] = {}


def _plan(fmt: str):
    """A Python %-format and the kinds of its conversions, when C and Python agree on it."""
    out = []
    kinds = []
    pos = 0
    n = len(fmt)
    while pos < n:
        j = fmt.find("%", pos)
        if j < 0:
            out.append(fmt[pos:])
            break
        out.append(fmt[pos:j])
        m = _SPEC.match(fmt, j)
        flags, width_s, prec_s, conv = m.group(1), m.group(2), m.group(3), m.group(4)
        if conv == "%" and not flags and width_s is None and prec_s is None:
            out.append("%%")
            pos = m.end()
            continue
        if conv not in "sdieEfFgG" or width_s == "*" or prec_s == "*" or "#" in flags or "'" in flags:
            return None
        if (width_s and int(width_s) > 4096) or (prec_s and int(prec_s) > 4096):
            return None
        if conv == "s":
            if flags.replace("-", ""):
                return None
            kinds.append("s")
        elif conv in "di":
            if prec_s is not None and not prec_s.strip("0"):
                return None  # %.0d of 0 prints nothing in C
            kinds.append("d")
        else:
            kinds.append("f")
        out.append(fmt[j:m.end()])
        pos = m.end()
    return "".join(out), tuple(kinds)


def sprintf(fmt: str, args: list, ctx: FormatCtx | None, check_len, max_len: int | None = None) -> str:
    """awk's sprintf. ``check_len(n)`` guards widths against the string-size limit."""
    if "%" not in fmt:
        return fmt
    try:
        plan = _plans[fmt]
    except KeyError:
        if len(_plans) > 256:
            _plans.clear()
        plan = _plans[fmt] = _plan(fmt)
    if plan is not None and ctx is not None and len(args) >= len(plan[1]):
        vals = []
        for kind, a in zip(plan[1], args, strict=False):
            if kind == "s":
                vals.append(ctx.tostr(a))
                continue
            v = a if a.__class__ is float else ctx.tonum(a)
            if v - v != 0.0:
                break  # inf or nan: the long way
            vals.append(int(v) if kind == "d" else v)
        else:
            return plan[0] % tuple(vals)
    tonum = ctx.tonum if ctx is not None else float
    tostr = ctx.tostr if ctx is not None else str
    out: list[str] = []
    pos = 0
    argi = 0
    nargs = len(args)

    def next_arg(at: int):
        """The next argument; ``at`` is where the caret goes when there is none left (the
        star or the conversion that wanted it)."""
        nonlocal argi
        if argi >= nargs:
            raise AwkFatal("not enough arguments to satisfy format string\n\t`" + fmt
                           + "'\n\t" + " " * at + "^ ran out for this one")
        a = args[argi]
        argi += 1
        return a

    while True:
        j = fmt.find("%", pos)
        if j < 0:
            out.append(fmt[pos:])
            break
        out.append(fmt[pos:j])
        m = _SPEC.match(fmt, j)
        flags, width_s, prec_s, conv = m.group(1), m.group(2), m.group(3), m.group(4)
        flags = flags.replace("'", "")
        pos = m.end()
        if conv == "%" and not flags and width_s is None and prec_s is None:
            out.append("%")
            continue
        width: int | None = None
        prec: int | None = None
        if width_s == "*":
            w = int(_trunc(tonum(next_arg(fmt.find("*", j, pos)))))
            if w < 0:
                flags += "-"
                w = -w
            width = w
        elif width_s:
            width = int(width_s)
        if prec_s is not None:
            if prec_s == "*":
                p = int(_trunc(tonum(next_arg(fmt.find(".*", j, pos) + 1))))
                prec = p if p >= 0 else None
            else:
                prec = int(prec_s or "0")
        if check_len is not None and ((width or 0) > 4096 or (prec or 0) > 4096):
            check_len(max(width or 0, prec or 0))
        if conv == "":
            # a lone % at the end: printed as is
            out.append(fmt[j:pos])
            continue
        if conv == "%":
            out.append(_pad("%", flags, width))
            continue
        if conv not in "cdiouxXeEfFgGs":
            raise AwkFatal(f"`{conv}' is not permitted in POSIX awk formats")
        arg = next_arg(pos - 1)
        if conv == "s":
            s = tostr(arg)
            if prec is not None:
                s = s[:prec]
            out.append(_pad(s, flags, width))
        elif conv == "c":
            if arg.__class__ is float or (ctx is not None and ctx.isnum(arg)):
                code = int(_trunc(tonum(arg))) if tonum(arg) == tonum(arg) else 0
                try:
                    s = chr(code & 0xFFFFFFFF) if code >= 0 else chr(code & 0xFF)
                except (ValueError, OverflowError):
                    s = chr(code & 0xFF)
            else:
                s = tostr(arg)[:1] or "\0"
            out.append(_pad(s, flags, width))
        elif conv in "di":
            v = tonum(arg)
            if v - v != 0.0:
                out.append(_c_special(v, flags, width, False))
                continue
            out.append(_fmt_int(int(v), flags, width, prec, "d"))
        elif conv in "ouxX":
            v = tonum(arg)
            if v - v != 0.0:
                out.append(_c_special(v, flags, width, False))
                continue
            iv = int(v)
            if iv < 0:
                if iv >= INT_MIN:
                    iv += UINT_RANGE
                else:
                    out.append(_fmt_float(v, flags, width, prec, "g"))
                    continue
            elif iv >= UINT_RANGE:
                out.append(_fmt_float(v, flags, width, prec, "g"))
                continue
            out.append(_fmt_int(iv, flags.replace("+", "").replace(" ", ""), width, prec,
                                "d" if conv == "u" else conv))
        else:  # e E f F g G
            v = tonum(arg)
            if v - v != 0.0:
                out.append(_c_special(v, flags, width, conv in "EFG"))
                continue
            out.append(_fmt_float(v, flags, width, prec, conv))
    return "".join(out)


def _trunc(v: float) -> float:
    if v - v != 0.0:
        return 0.0
    return float(int(v))


def _fmt_int(iv: int, flags: str, width: int | None, prec: int | None, conv: str) -> str:
    neg = iv < 0
    a = -iv if neg else iv
    if conv == "d":
        digits = str(a)
    elif conv == "o":
        digits = format(a, "o")
    elif conv == "x":
        digits = format(a, "x")
    else:
        digits = format(a, "X")
    if prec is not None:
        if prec == 0 and a == 0:
            digits = ""
        elif len(digits) < prec:
            digits = "0" * (prec - len(digits)) + digits
    prefix = ""
    if "#" in flags:
        if conv == "o" and not digits.startswith("0"):
            digits = "0" + digits
        elif conv in "xX" and a != 0:
            prefix = "0" + conv
    if neg:
        sign = "-"
    elif "+" in flags:
        sign = "+"
    elif " " in flags:
        sign = " "
    else:
        sign = ""
    body = sign + prefix + digits
    if width and len(body) < width:
        if "-" in flags:
            body = body.ljust(width)
        elif "0" in flags and prec is None:
            body = sign + prefix + digits.rjust(width - len(sign) - len(prefix), "0")
        else:
            body = body.rjust(width)
    return body


def _fmt_float(v: float, flags: str, width: int | None, prec: int | None, conv: str) -> str:
    spec = "%" + "".join(f for f in "-+ #0" if f in flags)
    if width:
        spec += str(width)
    if prec is not None:
        spec += "." + str(prec)
    return (spec + conv) % v
