"""seq: print a sequence of numbers (GNU coreutils formatting rules)."""

from __future__ import annotations

import math
import re
from decimal import Decimal, InvalidOperation, localcontext

from pysh.builtins._textutil import (
    OptionError,
    help_text,
    parse_options,
    quote,
    usage,
    version_text,
)
from pysh.shellkit.text import encode

HELP = """\
Usage: seq [OPTION]... LAST
  or:  seq [OPTION]... FIRST LAST
  or:  seq [OPTION]... FIRST INCREMENT LAST
Print numbers from FIRST to LAST, in steps of INCREMENT.

Mandatory arguments to long options are mandatory for short options too.
  -f, --format=FORMAT      use printf style floating-point FORMAT
  -s, --separator=STRING   use STRING to separate numbers (default: \\n)
  -w, --equal-width        equalize width by padding with leading zeroes
      --help        display this help and exit
      --version     output version information and exit

If FIRST or INCREMENT is omitted, it defaults to 1.  That is, an
omitted INCREMENT defaults to 1 even when LAST is smaller than FIRST.
The sequence of numbers ends when the sum of the current number and
INCREMENT would become greater than LAST.
FIRST, INCREMENT, and LAST are interpreted as floating point values.
INCREMENT is usually positive if FIRST is smaller than LAST, and
INCREMENT is usually negative if FIRST is greater than LAST.
INCREMENT must not be 0; none of FIRST, INCREMENT and LAST may be NaN.
FORMAT must be suitable for printing one argument of type 'double';
it defaults to %.PRECf if FIRST, INCREMENT, and LAST are all fixed point
decimal numbers with maximum precision PREC, and to %g otherwise.
"""

LONG = {"format=": "f", "separator=": "s", "equal-width": "w", "help": "help",
        "version": "version"}
INT_MAX = 2 ** 31 - 1
_DEC = re.compile(r"[ \t\n\v\f\r]*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$")
_HEX = re.compile(r"[ \t\n\v\f\r]*[+-]?0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)"
                  r"(?:[pP][+-]?\d+)?$")
_SPECIAL = re.compile(r"[ \t\n\v\f\r]*([+-]?)(inf|infinity|nan)$", re.I)
_FMT = re.compile(r"%([-+ #0']*)(\d*)(?:\.(\d*))?(L?)([aAeEfFgG])")


class SeqError(Exception):
    pass


class Operand:
    __slots__ = ("value", "width", "precision")

    def __init__(self, value, width: int, precision: int):
        self.value = value
        self.width = width
        self.precision = precision


def scan_arg(arg: str) -> Operand:
    if _DEC.match(arg):
        value = Decimal(arg.strip())
    elif _HEX.match(arg):
        value = Decimal(float.fromhex(arg.strip()))
    elif m := _SPECIAL.match(arg):
        if m.group(2).lower() == "nan":
            raise SeqError(f"invalid {quote('not-a-number')} argument: {quote(arg)}")
        value = Decimal("-Infinity" if m.group(1) == "-" else "Infinity")
    else:
        raise SeqError(f"invalid floating point argument: {quote(arg)}")
    a = arg.lstrip(" \t\n\v\f\r+")
    width = 0
    precision = INT_MAX
    dp = a.find(".")
    if dp < 0 and "p" not in a:
        precision = 0
    if "x" not in a and "X" not in a and value.is_finite():
        fraction_len = 0
        width = len(a)
        if dp >= 0:
            rest = a[dp + 1:]
            m = re.match(r"[^eE]*", rest)
            fraction_len = len(m.group())
            precision = fraction_len
            if fraction_len == 0:
                width -= 1
            elif dp == 0 or not a[dp - 1].isdigit():
                width += 1
        e = a.find("e")
        if e < 0:
            e = a.find("E")
        if e >= 0:
            m = re.match(r"[+-]?\d*", a[e + 1:])
            try:
                exponent = int(m.group()) if m.group() not in ("", "+", "-") else 0
            except ValueError:
                exponent = 0
            precision += -exponent if exponent < 0 else -min(precision, exponent)
            width -= len(a) - e
            if exponent < 0:
                if dp >= 0:
                    if e == dp + 1:
                        width += 1
                else:
                    width += 1
                exponent = -exponent
            else:
                if dp >= 0 and precision == 0 and fraction_len:
                    width -= 1
                exponent -= min(fraction_len, exponent)
            width += exponent
    return Operand(value, width, precision)


def default_format(first: Operand, step: Operand, last: Operand, equal_width: bool):
    prec = max(first.precision, step.precision)
    if prec != INT_MAX and last.precision != INT_MAX:
        if equal_width:
            first_width = first.width + (prec - first.precision)
            last_width = last.width + (prec - last.precision)
            if last.precision and prec == 0:
                last_width -= 1
            if last.precision == 0 and prec:
                last_width += 1
            if first.precision == 0 and prec:
                first_width += 1
            width = max(first_width, last_width)
            return ("fixed", prec, width)
        return ("fixed", prec, 0)
    return ("g", None, None)


LONG_DOUBLE_MAX = Decimal("1.18973149535723176502e+4932")
_BIG = Decimal("1e4000")  # past it, Python's int() cannot be printed: Decimal formats it


def check_format(fmt: str) -> tuple[str, str, str]:
    """(prefix, directive, suffix) of a user format with one floating directive."""
    i = 0
    n = len(fmt)
    found = None
    while i < n:
        if fmt[i] == "%":
            if i + 1 < n and fmt[i + 1] == "%":
                i += 2
                continue
            if found is not None:
                raise SeqError(f"format {quote(fmt)} has too many % directives")
            m = _FMT.match(fmt, i)
            if not m:
                j = i + 1
                while j < n and fmt[j] in "-+ #0'123456789.L":
                    j += 1
                ch = fmt[j] if j < n else ""
                if not ch:
                    raise SeqError(f"format {quote(fmt)} ends in %")
                raise SeqError(f"format {quote(fmt)} has unknown %{ch} directive")
            found = (i, m.end(), m)
            i = m.end()
            continue
        i += 1
    if found is None:
        raise SeqError(f"format {quote(fmt)} has no % directive")
    a, b, m = found
    directive = "%" + m.group(1).replace("'", "") + m.group(2) + (
        "." + m.group(3) if m.group(3) is not None else "") + m.group(5)
    return fmt[:a].replace("%%", "%"), directive, fmt[b:].replace("%%", "%")


def _fmt_g(x: Decimal) -> str:
    if x.is_infinite():
        return "-inf" if x < 0 else "inf"
    s = f"{float(x):g}"
    return s


async def main(shell, argv: list[str]) -> int:
    prog = "seq"
    args = argv[1:]
    # negative numbers are operands, not options
    opt_args: list[str] = []
    operands: list[str] = []
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--":
            operands.extend(args[i + 1:])
            break
        if a.startswith("-") and len(a) > 1 and not (a[1].isdigit() or a[1] == "."):
            opt_args.append(a)
            if a in ("-f", "-s") or a in ("--format", "--separator"):
                if i + 1 < len(args):
                    opt_args.append(args[i + 1])
                    i += 1
        else:
            operands.append(a)
        i += 1
    try:
        opts, rest = parse_options(opt_args, "f:s:w", LONG)
    except OptionError as e:
        return await usage(shell, prog, str(e))
    operands = rest + operands
    fmt = None
    sep = "\n"
    equal = False
    for k, v in opts:
        if k == "help":
            return await help_text(shell, HELP)
        if k == "version":
            return await version_text(shell, prog)
        if k == "f":
            fmt = v or ""
        elif k == "s":
            sep = v or ""
        elif k == "w":
            equal = True
    if not operands:
        return await usage(shell, prog, "missing operand")
    if len(operands) > 3:
        return await usage(shell, prog, f"extra operand {quote(operands[3])}")
    if fmt is not None and equal:
        return await usage(shell, prog, "format string may not be specified when printing "
                                        "equal width strings")
    try:
        ops = [scan_arg(a) for a in operands]
    except SeqError as e:
        return await usage(shell, prog, str(e))
    for a, o in zip(operands, ops, strict=True):
        if o.value.is_finite() and abs(o.value) > LONG_DOUBLE_MAX:  # GNU's long double
            return await usage(shell, prog, f"invalid floating point argument: {quote(a)}")
    one = Operand(Decimal(1), 1, 0)
    if len(ops) == 1:
        first, step, last = one, one, ops[0]
    elif len(ops) == 2:
        first, step, last = ops[0], one, ops[1]
    else:
        first, step, last = ops
    if step.value == 0:
        return await usage(shell, prog, f"invalid Zero increment value: {quote(operands[1])}")
    if fmt is None and not equal and all(_is_int(o.value) and abs(o.value) < _BIG
                                         for o in (first, step, last)):
        # whole numbers, default format: what nearly every `seq` is, done with range()
        await _run_ints(shell, int(first.value), int(step.value), int(last.value), sep)
        return 0
    try:
        if fmt is not None:
            prefix, directive, suffix = check_format(fmt)
            # a width or precision from the script sizes each number: bounded first
            for size in re.findall(r"\d+", directive):
                shell.budget.check_string(int(size))

            def render(x: Decimal) -> str:
                v = float(x)
                return prefix + (directive % v) + suffix
        else:
            kind, prec, width = default_format(first, step, last, equal)
            shell.budget.check_string(max(prec, width))
            if kind == "fixed":
                if prec == 0 and width == 0:
                    def render(x: Decimal) -> str:
                        return str(int(x)) if x == x.to_integral_value() and abs(x) < _BIG \
                            else f"{x:.0f}"
                else:
                    spec = f"0{width}.{prec}f" if width else f".{prec}f"

                    def render(x: Decimal) -> str:
                        return format(x, spec)
            else:
                render = _fmt_g
    except SeqError as e:
        await shell.error(prog, str(e))
        return 1
    await _run(shell, first.value, step.value, last.value, render, sep)
    return 0


def _is_int(x: Decimal) -> bool:
    return x.is_finite() and x == x.to_integral_value() and abs(x) < 10**18


async def _run_ints(shell, first: int, step: int, last: int, sep: str) -> None:
    out = shell.stdout
    budget = shell.budget
    stop = last + (1 if step > 0 else -1)
    chunk = 8192
    rng = range(first, stop, step)
    n = len(rng)
    if n == 0:
        return
    # bytes %-formatting of a whole chunk is about twice as fast as joining str()s
    one = b"%d" + encode(sep).replace(b"%", b"%%")
    for k in range(0, n, chunk):
        part = rng[k:k + chunk]
        last_chunk = k + chunk >= n
        fmt = one * (len(part) - 1) + (b"%d\n" if last_chunk else one)
        await out.write(fmt % tuple(part))
        budget.check()


async def _run(shell, first: Decimal, step: Decimal, last: Decimal, render, sep: str) -> None:
    out = shell.stdout
    if (step > 0 and first > last) or (step < 0 and first < last):
        return
    if first.is_infinite() or step.is_infinite():
        # GNU prints inf forever; stop at the budget
        pass
    budget = shell.budget
    parts: list[str] = []
    size = 0
    i = 0
    x = first
    with localcontext() as ctx:
        ctx.prec = 60
        while True:
            s = render(x)
            parts.append(s)
            size += len(s) + 1
            i += 1
            x0 = x
            try:
                x = first + i * step
            except InvalidOperation:
                break
            if x == x0 and x.is_finite():  # the step is lost in the precision: no more values
                break
            beyond = x < last if step < 0 else last < x
            if beyond:
                xs = render(x)
                extra = False
                try:
                    if Decimal(xs) == last:
                        extra = render(x0) != xs
                except InvalidOperation:
                    extra = False
                if not extra:
                    break
            if size >= (1 << 16):
                await out.write(encode(sep.join(parts) + sep))
                parts.clear()
                size = 0
                budget.check()
            if x.is_infinite() and i > 1 and math.isinf(float(x0)):
                budget.check()
    await out.write(encode(sep.join(parts) + "\n"))
