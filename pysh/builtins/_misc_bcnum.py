"""bc's arbitrary-precision decimal numbers, with GNU bc 1.07's scale rules.

A number is ``(value, scale)``: the integer ``value`` times ``10**-scale``.
Every operation truncates toward zero, as GNU bc's number library does:

* ``+ -``: scale is the larger of the operands';
* ``*``: ``min(sa + sb, max(scale, sa, sb))``;
* ``/``: ``scale``;
* ``%``: ``a - (a / b) * b`` with the quotient at ``scale``, result scale
  ``max(sa, sb + scale)``;
* ``^``: integer exponents; ``min(sa * n, max(scale, sa))``, or ``scale`` for
  negative ones (computed as ``1 / a**-n``);
* ``sqrt``: GNU's Newton iteration, result scale ``max(scale, sa)``.

Decimal conversion goes through a divide-and-conquer routine, so numbers of
any size print (Python's ``str(int)`` refuses more than 4300 digits).
"""

from __future__ import annotations

Num = tuple[int, int]

ZERO: Num = (0, 0)
ONE: Num = (1, 0)

_POW10: dict[int, int] = {}


def pow10(n: int) -> int:
    p = _POW10.get(n)
    if p is None:
        p = 10 ** n
        if n < 4096:
            _POW10[n] = p
    return p


def to_dec(n: int) -> str:
    """Decimal digits of a non-negative int, without the int/str digit limit."""
    if n < pow10(4000):
        return str(n)
    # split in halves by a power of ten (recursive, O(M(n) log n))
    k = len(to_hex_len(n))
    half = k // 2
    hi, lo = divmod(n, pow10(half))
    return to_dec(hi) + to_dec(lo).rjust(half, "0")


def to_hex_len(n: int) -> str:
    """A string whose length approximates the decimal digit count of ``n``."""
    digits = int(n.bit_length() * 0.30102999566398) + 1
    return "x" * digits


def from_dec(s: str) -> int:
    if len(s) <= 4000:
        return int(s) if s else 0
    half = len(s) // 2
    return from_dec(s[:-half]) * pow10(half) + from_dec(s[-half:])


def trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def rescale(x: Num, s: int) -> Num:
    """``x`` with exactly ``s`` fractional digits (truncating or zero-extending)."""
    v, sx = x
    if s == sx:
        return x
    if s > sx:
        return (v * pow10(s - sx), s)
    return (trunc_div(v, pow10(sx - s)), s)


def is_zero(x: Num) -> bool:
    return x[0] == 0


def is_neg(x: Num) -> bool:
    return x[0] < 0


def compare(a: Num, b: Num) -> int:
    s = max(a[1], b[1])
    va = a[0] * pow10(s - a[1])
    vb = b[0] * pow10(s - b[1])
    return (va > vb) - (va < vb)


def add(a: Num, b: Num, scale_min: int = 0) -> Num:
    s = max(a[1], b[1], scale_min)
    return (a[0] * pow10(s - a[1]) + b[0] * pow10(s - b[1]), s)


def sub(a: Num, b: Num, scale_min: int = 0) -> Num:
    s = max(a[1], b[1], scale_min)
    return (a[0] * pow10(s - a[1]) - b[0] * pow10(s - b[1]), s)


def neg(a: Num) -> Num:
    return (-a[0], a[1])


def mul(a: Num, b: Num, scale: int) -> Num:
    full = a[1] + b[1]
    ps = min(full, max(scale, a[1], b[1]))
    return rescale((a[0] * b[0], full), ps)


def div(a: Num, b: Num, scale: int) -> Num | None:
    """a / b at ``scale`` digits, or None for a division by zero."""
    if b[0] == 0:
        return None
    # a/b = a0*10^sb / (b0*10^sa); times 10^scale
    num = a[0] * pow10(b[1] + scale)
    den = b[0] * pow10(a[1])
    return (trunc_div(num, den), scale)


def mod(a: Num, b: Num, scale: int) -> Num | None:
    if b[0] == 0:
        return None
    rscale = max(a[1], b[1] + scale)
    q = div(a, b, scale)
    t = mul(q, b, rscale)
    return sub(a, t, rscale)


def num2long(x: Num) -> int:
    """The integer part (truncated), as bc_num2long: 0 when it does not fit a long."""
    v = trunc_div(x[0], pow10(x[1])) if x[1] else x[0]
    if abs(v) > 0x7FFFFFFFFFFFFFFF:
        return 0
    return v


def int_part(x: Num) -> int:
    return trunc_div(x[0], pow10(x[1])) if x[1] else x[0]


def raise_(a: Num, b: Num, scale: int) -> tuple[Num, str | None]:
    """a ^ b; the second item is a warning or error text, if any."""
    warn = None
    if b[1] != 0:
        warn = "non-zero scale in exponent"
    exponent = int_part(b)
    if abs(exponent) > 0x7FFFFFFFFFFFFFFF:
        return ZERO, "exponent too large in raise"
    if exponent == 0:
        return ONE, warn
    negative = exponent < 0
    e = -exponent if negative else exponent
    if negative:
        rscale = scale
    else:
        rscale = min(a[1] * e, max(scale, a[1]))
    power = (a[0] ** e, a[1] * e)
    if negative:
        if power[0] == 0:
            return ZERO, "divide by zero"
        return div(ONE, power, rscale), warn
    return rescale(power, min(rscale, power[1])) if power[1] > rscale else power, warn


def n_len(x: Num) -> int:
    """Digits before the decimal point (at least 1), as bc's n_len."""
    ip = abs(int_part(x))
    return len(to_dec(ip)) if ip else 1


def length(x: Num) -> int:
    v, s = x
    if int_part(x) == 0 and s != 0:
        return s
    return n_len(x) + s


def _near_zero(x: Num, scale: int) -> bool:
    s = min(scale, x[1])
    t = abs(rescale(x, s)[0])
    return t <= 1


def sqrt(x: Num, scale: int) -> Num | None:
    """GNU bc_sqrt (Newton's method); None for a negative number."""
    c = compare(x, ZERO)
    if c < 0:
        return None
    if c == 0:
        return ZERO
    c1 = compare(x, ONE)
    if c1 == 0:
        return ONE
    rscale = max(scale, x[1])
    if c1 < 0:
        guess: Num = ONE
        cscale = x[1]
    else:
        guess = (pow10(n_len(x) // 2), 0)
        cscale = 3
    point5: Num = (5, 1)
    while True:
        guess1 = guess
        guess = div(x, guess, cscale)
        guess = add(guess, guess1)
        guess = mul(guess, point5, cscale)
        diff = sub(guess, guess1, cscale + 1)
        if _near_zero(diff, cscale):
            if cscale < rscale + 1:
                cscale = min(cscale * 3, rscale + 1)
            else:
                break
    return div(guess, ONE, rscale)


def parse_b10(text: str) -> Num:
    """A base-10 program constant (digits A-Z count as 9 except a lone digit)."""
    intpart, _, frac = text.partition(".")
    if len(intpart) == 1 and not frac and "A" <= intpart <= "Z":
        return (ord(intpart) - ord("A") + 10, 0)
    digits = "".join(c if c.isdigit() else "9" for c in intpart + frac)
    return (from_dec(digits) if digits else 0, len(frac))


def digit_value(c: str) -> int:
    if c.isdigit():
        return ord(c) - 48
    return ord(c) - ord("A") + 10


def parse_base(text: str, base: int) -> Num:
    """A constant in ibase ``base`` (GNU push_constant, digits clamped to base-1)."""
    intpart, dot, frac = text.partition(".")
    neg = False
    value = 0
    chars = [digit_value(c) for c in intpart]
    if chars:
        first = chars[0]
        if len(chars) > 1 and first >= base:
            first = base - 1
        value = first
        for d in chars[1:]:
            if d >= base:
                d = base - 1
            value = value * base + d
    result: Num = (value, 0)
    if dot:
        fchars = [digit_value(c) for c in frac]
        num = 0
        divisor = 1
        for idx, d in enumerate(fchars):
            if d >= base and (idx > 0 or True):
                d = base - 1
            num = num * base + d
            divisor *= base
        if fchars:
            f = div((num, 0), (divisor, 0), len(fchars))
            result = add(result, f)
    return neg_if(result, neg)


def neg_if(x: Num, flag: bool) -> Num:
    return neg(x) if flag else x


# ------------------------------------------------------------------ output
REF = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def format_num(x: Num, obase: int) -> str:
    """bc_out_num: the text of ``x`` in base ``obase`` (no leading 0 before the point)."""
    v, s = x
    out = []
    if v < 0:
        out.append("-")
    if v == 0:
        return "0" if not out else "-0"
    av = abs(v)
    if obase == 10:
        ip, fp = divmod(av, pow10(s)) if s else (av, 0)
        if ip:
            out.append(to_dec(ip))
        if s > 0:
            out.append(".")
            out.append(to_dec(fp).rjust(s, "0"))
        return "".join(out)
    ip, fp = divmod(av, pow10(s)) if s else (av, 0)
    width = len(str(obase - 1))
    digits = []
    while ip:
        ip, d = divmod(ip, obase)
        digits.append(d)
    for d in reversed(digits):
        if obase <= 16:
            out.append(REF[d])
        else:
            out.append(" " + str(d).rjust(width, "0"))
    if s > 0:
        out.append(".")
        frac: Num = (fp, s)
        t = 1
        first = True
        limit = pow10(s)  # while t has at most s digits: t < 10**s
        while t < limit:
            frac = mul(frac, (obase, 0), s)
            d = int_part(frac)
            frac = sub(frac, (d, 0))
            if obase <= 16:
                out.append(REF[d])
            else:
                out.append(("" if first else " ") + str(d).rjust(width, "0"))
            first = False
            t *= obase
    return "".join(out)
