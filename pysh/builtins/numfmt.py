"""numfmt (GNU coreutils 9.1): numbers to and from human-readable units.

GNU computes in x87 ``long double`` (a 64-bit significand); so does this
module, exactly, with fractions rounded to 64 significant bits after every
operation GNU performs, so the last digit and the rounding of ties come out as
GNU prints them. The locale is C.UTF-8's: no thousands separator, so
``--grouping`` and ``%'f`` change nothing (as in GNU under that locale).
"""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, Context, Decimal
from fractions import Fraction

from pysh.builtins._textutil import (
    NumberError,
    OptionError,
    Writer,
    argmatch,
    argmatch_die,
    help_text,
    parse_options,
    parse_size,
    quote,
    usage,
    version_text,
)
from pysh.shellkit.text import decode, encode

HELP = """\
Usage: numfmt [OPTION]... [NUMBER]...
Reformat NUMBER(s), or the numbers from standard input if none are specified.

Mandatory arguments to long options are mandatory for short options too.
      --debug          print warnings about invalid input
  -d, --delimiter=X    use X instead of whitespace for field delimiter
      --field=FIELDS   replace the numbers in these input fields (default=1);
                         see FIELDS below
      --format=FORMAT  use printf style floating-point FORMAT;
                         see FORMAT below for details
      --from=UNIT      auto-scale input numbers to UNITs; default is 'none';
                         see UNIT below
      --from-unit=N    specify the input unit size (instead of the default 1)
      --grouping       use locale-defined grouping of digits, e.g. 1,000,000
                         (which means it has no effect in the C/POSIX locale)
      --header[=N]     print (without converting) the first N header lines;
                         N defaults to 1 if not specified
      --invalid=MODE   failure mode for invalid numbers: MODE can be:
                         abort (default), fail, warn, ignore
      --padding=N      pad the output to N characters; positive N will
                         right-align; negative N will left-align;
                         padding is ignored if the output is wider than N;
                         the default is to automatically pad if a whitespace
                         is found
      --round=METHOD   use METHOD for rounding when scaling; METHOD can be:
                         up, down, from-zero (default), towards-zero, nearest
      --suffix=SUFFIX  add SUFFIX to output numbers, and accept optional
                         SUFFIX in input numbers
      --to=UNIT        auto-scale output numbers to UNITs; see UNIT below
      --to-unit=N      the output unit size (instead of the default 1)
  -z, --zero-terminated    line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit

UNIT options:
  none       no auto-scaling is done; suffixes will trigger an error
  auto       accept optional single/two letter suffix:
               1K = 1000,
               1Ki = 1024,
               1M = 1000000,
               1Mi = 1048576,
  si         accept optional single letter suffix:
               1K = 1000,
               1M = 1000000,
               ...
  iec        accept optional single letter suffix:
               1K = 1024,
               1M = 1048576,
               ...
  iec-i      accept optional two-letter suffix:
               1Ki = 1024,
               1Mi = 1048576,
               ...

FIELDS supports cut(1) style field ranges:
  N    N'th field, counted from 1
  N-   from N'th field, to end of line
  N-M  from N'th to M'th field (inclusive)
  -M   from first to M'th field (inclusive)
  -    all fields
Multiple fields/ranges can be separated with commas

FORMAT must be suitable for printing one floating-point argument '%f'.
Optional quote (%'f) will enable --grouping (if supported by current locale).
Optional width value (%10f) will pad output. Optional zero (%010f) width
will zero pad the number. Optional negative values (%-10f) will left align.
Optional precision (%.1f) will override the input determined precision.

Exit status is 0 if all input numbers were successfully converted.
By default, numfmt will stop at the first conversion error with exit status 2.
With --invalid='fail' a warning is printed for each conversion error
and the exit status is 2.  With --invalid='warn' each conversion error is
diagnosed, but the exit status is 0.  With --invalid='ignore' conversion
errors are not diagnosed and the exit status is 0.
"""

UINTMAX = (1 << 64) - 1
INTMAX = (1 << 63) - 1
MAX_UNSCALED_DIGITS = 18  # LDBL_DIG
MAX_ACCEPTABLE_DIGITS = 27

NONE, AUTO, SI, IEC, IEC_I = "none", "auto", "si", "iec", "iec-i"
_FROM = [("none", NONE), ("auto", AUTO), ("si", SI), ("iec", IEC), ("iec-i", IEC_I)]
_TO = [("none", NONE), ("si", SI), ("iec", IEC), ("iec-i", IEC_I)]
_ROUND = [("up", "up"), ("down", "down"), ("from-zero", "from-zero"),
          ("towards-zero", "towards-zero"), ("nearest", "nearest")]
_INVALID = [("abort", "abort"), ("fail", "fail"), ("warn", "warn"), ("ignore", "ignore")]
_SUFFIXES = "KMGTPEZY"

# Conversion errors (simple_strtod_error).
OK, PRECISION_LOSS, OVERFLOW, INVALID_NUMBER, FORBIDDEN_SUFFIX, INVALID_SUFFIX, MISSING_I = \
    range(7)


# ------------------------------------------------------------- long double
def ld(x: Fraction) -> Fraction:
    """``x`` rounded to the nearest x87 long double (64-bit significand, ties to even)."""
    if x == 0:
        return Fraction(0)
    neg = x < 0
    a = -x if neg else x
    n, d = a.numerator, a.denominator
    shift = n.bit_length() - d.bit_length() - 64
    # m = a / 2**shift, brought into [2**63, 2**64)
    while True:
        num, den = (n, d << shift) if shift >= 0 else (n << -shift, d)
        if num >= den << 64:
            shift += 1
        elif num < den << 63:
            shift -= 1
        else:
            break
    q, r = divmod(num, den)
    if 2 * r > den or (2 * r == den and q & 1):
        q += 1
    v = Fraction(q) * (Fraction(2) ** shift)
    return -v if neg else v


def _trunc(x: Fraction) -> int:
    return int(x)  # toward zero, as a C conversion to an integer


def powerld(base: int, x: int) -> Fraction:
    if x == 0:
        return Fraction(1)
    result = Fraction(base)
    for _ in range(x - 1):
        result = ld(result * base)
    return result


def expld(val: Fraction, base: int) -> tuple[Fraction, int]:
    power = 0
    while abs(val) >= base:
        power += 1
        val = ld(val / base)
    return val, power


def simple_round(val: Fraction, how: str) -> Fraction:
    mul = _trunc(ld(val / INTMAX))
    big = ld(Fraction(INTMAX) * mul)
    val = ld(val - big)

    def ceiling(v: Fraction) -> int:
        i = _trunc(v)
        return i + 1 if i < v else i

    if how == "up":
        r = ceiling(val)
    elif how == "down":
        r = -ceiling(-val)
    elif how == "from-zero":
        r = -ceiling(-val) if val < 0 else ceiling(val)
    elif how == "towards-zero":
        r = _trunc(val)
    else:
        r = _trunc(ld(val - Fraction(1, 2)) if val < 0 else ld(val + Fraction(1, 2)))
    return ld(big + r)


def fixed(val: Fraction, prec: int) -> str:
    """printf("%.*Lf"): the exact binary value rounded half-even to ``prec`` places."""
    q = Decimal(1).scaleb(-prec)
    ctx = Context(prec=200, rounding=ROUND_HALF_EVEN)
    exact = ctx.divide(Decimal(val.numerator), Decimal(val.denominator))
    s = f"{exact.quantize(q, rounding=ROUND_HALF_EVEN, context=ctx):f}"
    if s.startswith("-") and not s.strip("-0."):
        return s  # -0.0 keeps its sign, as printf
    return s


def general(val: Fraction) -> str:
    """printf("%Lg")."""
    if val == 0:
        return "0"
    ctx = Context(prec=200, rounding=ROUND_HALF_EVEN)
    exact = ctx.divide(Decimal(val.numerator), Decimal(val.denominator))
    r = Context(prec=6, rounding=ROUND_HALF_EVEN).plus(exact)
    exp = r.adjusted()
    if -4 <= exp < 6:
        s = f"{r:f}"
        if "." in s:
            s = s.rstrip("0").rstrip(".")
        return s
    m = f"{r.scaleb(-exp):f}"
    if "." in m:
        m = m.rstrip("0").rstrip(".")
    return f"{m}e{'-' if exp < 0 else '+'}{abs(exp):02d}"


# --------------------------------------------------------------- parsing
def strtod_int(s: str, i: int) -> tuple[int, Fraction, bool, int]:
    """(error, value, negative, end) of an integer at s[i:] (GNU simple_strtod_int)."""
    err = OK
    neg = False
    if i < len(s) and s[i] == "-":
        i += 1
        neg = True
    val = Fraction(0)
    digits = 0
    found = False
    while i < len(s) and "0" <= s[i] <= "9":
        d = ord(s[i]) - 48
        found = True
        if val or d:
            digits += 1
        if digits > MAX_UNSCALED_DIGITS:
            err = PRECISION_LOSS
        if digits > MAX_ACCEPTABLE_DIGITS:
            return OVERFLOW, val, neg, i
        val = ld(ld(val * 10) + d)
        i += 1
    if not found and not s.startswith(".", i):
        return INVALID_NUMBER, val, neg, i
    return err, (-val if neg else val), neg, i


def strtod_human(s: str, scale: str) -> tuple[int, Fraction, int, int]:
    """(error, value, precision, end) of NUMBER[.FRAC][SUFFIX] (GNU simple_strtod_human)."""
    err, val, neg, i = strtod_int(s, 0)
    precision = 0
    if err not in (OK, PRECISION_LOSS):
        return err, val, 0, i
    if s.startswith(".", i):
        i += 1
        e2, frac, neg_frac, j = strtod_int(s, i)
        if e2 not in (OK, PRECISION_LOSS):
            return e2, val, 0, j
        if e2 == PRECISION_LOSS:
            err = e2
        if neg_frac:
            return INVALID_NUMBER, val, 0, j
        exponent = j - i
        frac = ld(frac / powerld(10, exponent))
        val = ld(val - frac) if neg else ld(val + frac)
        precision = exponent
        i = j
    base = 1024 if scale in (IEC, IEC_I) else 1000
    power = 0
    if i < len(s):
        while i < len(s) and s[i] in " \t":
            i += 1
        if i >= len(s) or s[i] not in _SUFFIXES:
            return INVALID_SUFFIX, val, precision, i
        if scale == NONE:
            return FORBIDDEN_SUFFIX, val, precision, i
        power = _SUFFIXES.index(s[i]) + 1
        i += 1
        if scale == AUTO and s.startswith("i", i):
            base = 1024
            i += 1
        precision = 0
    if scale == IEC_I:
        if s.startswith("i", i):
            i += 1
        else:
            return MISSING_I, val, precision, i
    val = ld(val * powerld(base, power))
    return err, val, precision, i


_FATAL = {
    OVERFLOW: "value too large to be converted: {}",
    INVALID_NUMBER: "invalid number: {}",
    FORBIDDEN_SUFFIX: "rejecting suffix in input: {} (consider using --from)",
    INVALID_SUFFIX: "invalid suffix in input: {}",
    MISSING_I: "missing 'i' suffix in input: {} (e.g Ki/Mi/Gi)",
}


def set_fields(spec: str) -> list[tuple[int, int]]:
    """GNU set_fields with SETFLD_ALLOW_DASH; raises Usage-style ValueError(message)."""
    pairs: list[tuple[int, int]] = []
    initial, value = 1, 0
    lhs = rhs = dash = False
    i = 0
    s = spec
    if s == "-":
        value, lhs, dash = 1, True, True
        i = 1
    while True:
        ch = s[i] if i < len(s) else ""
        if ch == "-":
            if dash:
                raise ValueError("invalid field range")
            dash = True
            i += 1
            if lhs and not value:
                raise ValueError("fields are numbered from 1")
            initial = value if lhs else 1
            value = 0
        elif ch in (",", " ", "\t", ""):
            if dash:
                dash = False
                if not lhs and not rhs:
                    initial = 1
                if not rhs:
                    pairs.append((initial, UINTMAX))
                else:
                    if value < initial:
                        raise ValueError("invalid decreasing range")
                    pairs.append((initial, value))
                value = 0
            else:
                if value == 0:
                    raise ValueError("fields are numbered from 1")
                pairs.append((value, value))
                value = 0
            if ch == "":
                break
            i += 1
            lhs = rhs = False
        elif "0" <= ch <= "9":
            if dash:
                rhs = True
            else:
                lhs = True
            value = value * 10 + ord(ch) - 48
            if value >= UINTMAX:
                j = i
                while j > 0 and "0" <= s[j - 1] <= "9":
                    j -= 1
                k = i
                while k < len(s) and "0" <= s[k] <= "9":
                    k += 1
                raise ValueError(f"field number {quote(s[j:k])} is too large")
            i += 1
        else:
            raise ValueError(f"invalid field value {quote(s[i:])}")
    pairs.sort()
    merged: list[tuple[int, int]] = []
    for lo, hi in pairs:
        if merged and lo <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(hi, merged[-1][1]))
        else:
            merged.append((lo, hi))
    return merged


class Fatal(Exception):
    """A conversion error under --invalid=abort: exit 2 after the output so far."""


class NumFmt:
    def __init__(self) -> None:
        self.scale_from = NONE
        self.scale_to = NONE
        self.round = "from-zero"
        self.invalid = "abort"
        self.suffix: str | None = None
        self.from_unit = 1
        self.to_unit = 1
        self.grouping = False
        self.padding_width = 0
        self.zero_padding_width = 0
        self.align_left = False
        self.user_precision = -1
        self.prefix = ""
        self.fmt_suffix = ""
        self.auto_padding = False
        self.delimiter: str | None = None
        self.fields: list[tuple[int, int]] | None = None
        self.debug = False
        self.errors: list[str] = []

    def error(self, message: str) -> None:
        """A conversion error: reported unless ignored; fatal under --invalid=abort."""
        if self.invalid != "ignore":
            self.errors.append(message)
        if self.invalid == "abort":
            raise Fatal()

    # -- output ----------------------------------------------------------------
    def to_human(self, val: Fraction, precision: int) -> str:
        zero = f"0{self.zero_padding_width}" if self.zero_padding_width else ""
        if self.scale_to == NONE:
            p10 = powerld(10, precision)
            val = ld(val * p10)
            val = simple_round(val, self.round)
            val = ld(val / p10)
            return _pad_zero(fixed(val, precision), zero)
        base = 1024 if self.scale_to in (IEC, IEC_I) else 1000
        val, power = expld(val, base)
        if self.user_precision != -1:
            adjust = min(power * 3, self.user_precision)
        elif abs(val) < 10:
            adjust = 1
        else:
            adjust = 0
        p10 = powerld(10, adjust)
        val = ld(val * p10)
        val = simple_round(val, self.round)
        val = ld(val / p10)
        if abs(val) >= base:
            val = ld(val / base)
            power += 1
        show_point = val != 0 and abs(val) < 10 and power > 0
        prec = int(show_point) if self.user_precision == -1 else self.user_precision
        text = _pad_zero(fixed(val, prec), zero) + ("" if power == 0 else _SUFFIXES[power - 1])
        if self.scale_to == IEC_I and power > 0:
            text += "i"
        return text

    def prepare(self, val: Fraction, precision: int) -> str | None:
        used = precision if self.user_precision == -1 else self.user_precision
        _, x = expld(val, 10)
        if self.scale_to == NONE and x + used > MAX_UNSCALED_DIGITS:
            if used:
                self.error(f"value/precision too large to be printed: '{general(val)}/{used}'"
                           " (consider using --to)")
            else:
                self.error(f"value too large to be printed: '{general(val)}'"
                           " (consider using --to)")
            return None
        if x > MAX_ACCEPTABLE_DIGITS - 1:
            self.error(f"value too large to be printed: '{general(val)}'"
                       " (cannot handle values > 999Y)")
            return None
        buf = self.to_human(val, used)
        if self.suffix:
            buf += self.suffix
        n = len(encode(buf))
        if self.padding_width and n < self.padding_width:
            fill = " " * (self.padding_width - n)
            buf = buf + fill if self.align_left else fill + buf
        return self.prefix + buf + self.fmt_suffix

    # -- input -----------------------------------------------------------------
    def convert(self, text: str, field: int) -> str | None:
        if self.suffix and len(text) > len(self.suffix) and text.endswith(self.suffix):
            text = text[:-len(self.suffix)]
        p = text.lstrip(" \t")
        if self.auto_padding:
            self.padding_width = len(encode(text)) if (p != text or field > 1) else 0
        err, val, precision, end = strtod_human(p, self.scale_from)
        if err not in (OK, PRECISION_LOSS):
            self.error(_FATAL[err].format(quote(p)))
            return None
        if end < len(p):
            self.error(f"invalid suffix in input {quote(p)}: {quote(p[end:])}")
            return None
        if err == PRECISION_LOSS and self.debug:
            self.errors.append(f"large input value {quote(p)}: possible precision loss")
        if self.from_unit != 1 or self.to_unit != 1:
            val = ld(ld(val * self.from_unit) / self.to_unit)
        return self.prepare(val, precision)

    def included(self, field: int) -> bool:
        if self.fields is None:
            return field == 1
        return any(lo <= field <= hi for lo, hi in self.fields)

    def line(self, line: str) -> tuple[str, bool]:
        """The converted line and whether every selected number converted."""
        out: list[str] = []
        ok = True
        field = 0
        pos = 0
        n = len(line)
        delim = self.delimiter
        while True:
            field += 1
            start = pos
            if delim is not None:
                if pos < n and line[pos] != delim:
                    end = line.find(delim, pos)
                    pos = n if end < 0 else end
            else:
                while pos < n and line[pos] in " \t\n":
                    pos += 1
                while pos < n and line[pos] not in " \t\n":
                    pos += 1
            text = line[start:pos]
            if self.included(field):
                try:
                    got = self.convert(text, field)
                except Fatal:
                    out.append(text)  # not printed: GNU exits before writing the field
                    raise Fatal("".join(out[:-1])) from None
                if got is None:
                    ok = False
                    got = text
                out.append(got)
            else:
                out.append(text)
            if pos < n:
                out.append(" " if delim is None else delim)
                pos += 1
            else:
                break
        return "".join(out), ok


def _pad_zero(num: str, zero: str) -> str:
    """printf's %0Nf zero padding after the sign."""
    if not zero:
        return num
    width = int(zero)
    if len(num) >= width:
        return num
    if num.startswith("-"):
        return "-" + num[1:].rjust(width - 1, "0")
    return num.rjust(width, "0")


def parse_format(nf: NumFmt, fmt: str) -> str | None:
    """GNU parse_format_string; None when fine, else the fatal message."""
    i = 0
    n = len(fmt)
    prefix = []
    while not (i < n and fmt[i] == "%" and fmt[i + 1:i + 2] != "%"):
        if i >= n:
            return f"format {quote(fmt)} has no % directive"
        prefix.append(fmt[i])
        i += 2 if fmt[i] == "%" else 1
    i += 1
    zero = False
    while True:
        j = i
        while j < n and fmt[j] == " ":
            j += 1
        skip = j - i
        i = j
        if i < n and fmt[i] == "'":
            nf.grouping = True
            i += 1
        elif i < n and fmt[i] == "0":
            zero = True
            i += 1
        elif not skip:
            break
    j = i
    if j < n and fmt[j] in "+-":
        j += 1
    k = j
    while k < n and fmt[k].isdigit():
        k += 1
    if k > j:
        pad = int(fmt[i:k])
        if abs(pad) > (1 << 63) - 1:
            return f"invalid format {quote(fmt)} (width overflow)"
        if pad != 0:
            if nf.debug and nf.padding_width and not (zero and pad > 0):
                nf.errors.append("--format padding overriding --padding")
            if pad < 0:
                nf.align_left = True
                nf.padding_width = -pad
            elif zero:
                nf.zero_padding_width = pad
            else:
                nf.padding_width = pad
        i = k
    if i >= n:
        return f"format {quote(fmt)} ends in %"
    if fmt[i] == ".":
        i += 1
        j = i
        if j < n and fmt[j] == "-":
            return f"invalid precision in format {quote(fmt)}"
        if j < n and (fmt[j] in " \t+"):
            return f"invalid precision in format {quote(fmt)}"
        k = j
        while k < n and fmt[k].isdigit():
            k += 1
        nf.user_precision = int(fmt[j:k]) if k > j else 0
        i = k
    if i >= n or fmt[i] != "f":
        return f"invalid format {quote(fmt)}, directive must be %[0]['][-][N][.][N]f"
    i += 1
    suffix_pos = i
    while i < n:
        if fmt[i] == "%" and fmt[i + 1:i + 2] != "%":
            return f"format {quote(fmt)} has too many % directives"
        i += 2 if fmt[i] == "%" else 1
    nf.prefix = fmt[:len(prefix)]  # GNU copies as many bytes as it counted units ("%%" is one)
    nf.fmt_suffix = fmt[suffix_pos:]
    return None


def _unit(text: str) -> int | None:
    """GNU unit_to_umax: K=1000, Ki=1024; None when invalid."""
    s = text
    suffixes = "KMGTPEZY"
    if s and not s[-1].isdigit():
        if s[-1] == "i" and len(s) >= 2 and not s[-2].isdigit():
            s = s[:-1]
        else:
            s = s + "B"
            suffixes = "KMGTPEZY0"
    try:
        n = parse_size(s, suffixes)
    except NumberError:
        return None
    return n or None


async def main(shell, argv: list[str]) -> int:
    prog = "numfmt"
    try:
        opts, numbers = parse_options(argv[1:], "d:z", {
            "from=": "from", "from-unit=": "from-unit", "to=": "to", "to-unit=": "to-unit",
            "round=": "round", "padding=": "padding", "suffix=": "suffix",
            "grouping": "grouping", "delimiter=": "d", "field=": "field", "debug": "debug",
            "-debug": "debug", "header?": "header", "format=": "format",
            "invalid=": "invalid", "zero-terminated": "z", "help": "help",
            "version": "version"})
    except OptionError as e:
        return await usage(shell, prog, str(e))
    nf = NumFmt()
    header = 0
    fmt = None
    eol = "\n"
    for k, v in opts:
        v = v or ""
        if k == "help":
            return await help_text(shell, HELP)
        if k == "version":
            return await version_text(shell, prog)
        if k in ("from", "to", "round", "invalid"):
            table = {"from": _FROM, "to": _TO, "round": _ROUND, "invalid": _INVALID}[k]
            got = argmatch(v, table)
            if got is None or got == "\0ambiguous":
                return await argmatch_die(shell, prog, f"--{k}", v, table)
            if k == "from":
                nf.scale_from = got
            elif k == "to":
                nf.scale_to = got
            elif k == "round":
                nf.round = got
            else:
                nf.invalid = got
        elif k in ("from-unit", "to-unit"):
            n = _unit(v)
            if n is None:
                await shell.error(prog, f"invalid unit size: {quote(v)}")
                return 1
            if k == "from-unit":
                nf.from_unit = n
            else:
                nf.to_unit = n
        elif k == "grouping":
            nf.grouping = True
        elif k == "padding":
            t = v.strip(" \t\n\v\f\r") if v[:1].isspace() else v
            try:
                w = int(t) if t and t.lstrip("+-").isdigit() else None
            except ValueError:
                w = None
            if w is None or w == 0 or abs(w) > (1 << 63) - 1:
                await shell.error(prog, f"invalid padding value {quote(v)}")
                return 1
            nf.align_left = w < 0
            nf.padding_width = abs(w)
        elif k == "field":
            if nf.fields is not None:
                await shell.error(prog, "multiple field specifications")
                return 1
            try:
                nf.fields = set_fields(v)
            except ValueError as e:
                await shell.error(prog, str(e))
                return await usage(shell, prog, None)
        elif k == "d":
            if len(encode(v)) > 1:
                await shell.error(prog, "the delimiter must be a single character")
                return 1
            nf.delimiter = v or "\0"
        elif k == "z":
            eol = "\0"
        elif k == "suffix":
            nf.suffix = v
        elif k == "debug":
            nf.debug = True
        elif k == "header":
            if v:
                try:
                    header = parse_size(v, "")
                except NumberError:
                    header = 0
                if header == 0:
                    await shell.error(prog, f"invalid header value {quote(v)}")
                    return 1
            else:
                header = 1
        elif k == "format":
            fmt = v
    if fmt is not None and nf.grouping:
        await shell.error(prog, "--grouping cannot be combined with --format")
        return 1
    if nf.debug and nf.scale_from == NONE and nf.scale_to == NONE and not nf.grouping \
            and not nf.padding_width and fmt is None:
        await shell.error(prog, "no conversion option specified")
    if fmt is not None:
        msg = parse_format(nf, fmt)
        for m in nf.errors:
            await shell.error(prog, m)
        nf.errors.clear()
        if msg:
            await shell.error(prog, msg)
            return 1
    if nf.grouping:
        if nf.scale_to != NONE:
            await shell.error(prog, "grouping cannot be combined with --to")
            return 1
        if nf.debug:
            await shell.error(prog, "grouping has no effect in this locale")
    # widths and precision from the script size every output field
    shell.budget.check_string(max(nf.padding_width, nf.zero_padding_width, nf.user_precision or 0))
    nf.auto_padding = nf.padding_width == 0 and nf.delimiter is None
    out = Writer(shell.stdout)
    all_ok = True

    async def one(line: str, newline: bool) -> bool:
        try:
            text, ok = nf.line(line)
        except Fatal as f:
            await out.write(encode(str(f)))
            await out.flush()
            for m in nf.errors:
                await shell.error(prog, m)
            raise
        await out.write(encode(text + (eol if newline else "")))
        if nf.errors:
            await out.flush()
            for m in nf.errors:
                await shell.error(prog, m)
            nf.errors.clear()
        return ok

    try:
        if numbers:
            if nf.debug and header:
                await shell.error(prog, "--header ignored with command-line input")
            for num in numbers:
                shell.budget.check()
                all_ok &= await one(num, True)
        else:
            data = await _read_stdin(shell)
            sep = encode(eol)
            lines = data.split(sep)
            last_unterminated = lines[-1] != b""
            if not last_unterminated:
                lines.pop()
            for idx, raw in enumerate(lines):
                newline = idx < len(lines) - 1 or not last_unterminated
                if header:
                    header -= 1
                    await out.write(raw + (sep if newline else b""))
                    continue
                if idx & 255 == 0:
                    shell.budget.check()
                all_ok &= await one(decode(raw), newline)
    except Fatal:
        await out.flush()
        return 2
    await out.flush()
    if nf.debug and not all_ok:
        await shell.error(prog, "failed to convert some of the input numbers")
    if not all_ok and nf.invalid not in ("warn", "ignore"):
        return 2
    return 0


async def _read_stdin(shell) -> bytes:
    parts = []
    while True:
        chunk = await shell.stdin.read(1 << 20)
        if not chunk:
            break
        parts.append(chunk)
        shell.budget.check()
    return b"".join(parts)
