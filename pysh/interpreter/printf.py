"""bash's printf (and echo -e) formatting: every conversion, %b %q %(fmt)T, format reuse."""

from __future__ import annotations

import re
import time

from pysh.interpreter.syntax.lexer import canonical_bytes, code_point
from pysh.shellkit import LimitExceeded

_SIMPLE_ESC = {"a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f", "n": "\n",
               "r": "\r", "t": "\t", "v": "\v", "\\": "\\", "'": "'", '"': '"', "?": "?"}


def _hex_run(s: str, i: int, maxlen: int) -> tuple[int, int]:
    j = i
    while j < len(s) and j - i < maxlen and s[j] in "0123456789abcdefABCDEF":
        j += 1
    return (int(s[i:j], 16), j) if j > i else (-1, i)


def _chr(code: int) -> str:
    """A byte value (< 256) is that byte; a code point is UTF-8 encoded."""
    if code < 0x80:
        return chr(code)
    if code < 0x100:
        return bytes([code]).decode("utf-8", "surrogateescape")
    return code_point(code)


def ansi_c_unescape(s: str) -> str:
    """The escapes of ``$'...'`` and ``${x@E}``."""
    out, i, n = [], 0, len(s)
    while i < n:
        c = s[i]
        if c != "\\" or i + 1 >= n:
            out.append(c)
            i += 1
            continue
        d = s[i + 1]
        if d in _SIMPLE_ESC:
            out.append(_SIMPLE_ESC[d])
            i += 2
        elif d in "01234567":
            j = i + 1
            while j < n and j - i <= 3 and s[j] in "01234567":
                j += 1
            out.append(_chr(int(s[i + 1:j], 8) & 0xFF))
            i = j
        elif d == "x":
            v, j = _hex_run(s, i + 2, 2)
            if v < 0:
                out.append("\\x")
                i += 2
            else:
                out.append(_chr(v))
                i = j
        elif d in "uU":
            v, j = _hex_run(s, i + 2, 4 if d == "u" else 8)
            if v < 0:
                out.append("\\" + d)
                i += 2
            else:
                out.append(code_point(v))
                i = j
        elif d == "c" and i + 2 < n:
            out.append(chr(ord(s[i + 2]) & 0x1F))
            i += 3
        else:
            out.append("\\" + d)
            i += 2
    return canonical_bytes("".join(out))


def echo_unescape(s: str, bare_octal: bool = True,
                  warn: list[str] | None = None) -> tuple[str, bool]:
    """echo -e / printf %b escapes. Returns (text, stop) -- stop after ``\\c``.

    ``bare_octal``: ``\\NNN`` without the leading 0 is octal too (printf %b), not
    for echo -e. ``warn`` collects printf's complaints (a ``\\x`` or ``\\u`` with no digit)."""
    out, i, n = [], 0, len(s)
    while i < n:
        c = s[i]
        if c != "\\" or i + 1 >= n:
            out.append(c)
            i += 1
            continue
        d = s[i + 1]
        if d == "c":
            return "".join(out), True
        if d in "abefnrtv\\":
            out.append(_SIMPLE_ESC[d])
            i += 2
        elif d == "E":
            out.append("\x1b")
            i += 2
        elif d == "0":
            j = i + 2
            while j < n and j - (i + 2) < 3 and s[j] in "01234567":
                j += 1
            out.append(_chr(int(s[i + 2:j] or "0", 8) & 0xFF))
            i = j
        elif d in "1234567" and bare_octal:
            j = i + 1
            while j < n and j - (i + 1) < 3 and s[j] in "01234567":
                j += 1
            out.append(_chr(int(s[i + 1:j], 8) & 0xFF))
            i = j
        elif d == "x":
            v, j = _hex_run(s, i + 2, 2)
            if v < 0:
                if warn is not None:
                    warn.append("missing hex digit for \\x")
                out.append("\\x")
                i += 2
            else:
                out.append(_chr(v))
                i = j
        elif d in "uU":
            v, j = _hex_run(s, i + 2, 4 if d == "u" else 8)
            if v < 0:
                if warn is not None:
                    warn.append("missing unicode digit for \\" + d)
                out.append("\\" + d)
                i += 2
            else:
                out.append(code_point(v))
                i = j
        else:
            out.append("\\" + d)
            i += 2
    return "".join(out), False


def needs_ansi_c(s: str) -> bool:
    """bash's ansic_shouldquote: a control character or a byte that is no character."""
    return any(ord(c) < 32 or ord(c) == 127 or 0xDC80 <= ord(c) <= 0xDCFF for c in s)


def ansi_c_quote(s: str) -> str:
    out = ["$'"]
    for c in s:
        o = ord(c)
        if c == "'":
            out.append("\\'")
        elif c == "\\":
            out.append("\\\\")
        elif c == "\n":
            out.append("\\n")
        elif c == "\t":
            out.append("\\t")
        elif c == "\r":
            out.append("\\r")
        elif c == "\x1b":
            out.append("\\E")
        elif c == "\a":
            out.append("\\a")
        elif c == "\b":
            out.append("\\b")
        elif c == "\f":
            out.append("\\f")
        elif c == "\v":
            out.append("\\v")
        elif o < 32 or o == 127:
            out.append(f"\\{o:03o}")
        elif 0xDC80 <= o <= 0xDCFF:  # an undecodable byte
            out.append(f"\\{o - 0xDC00:03o}")
        else:
            out.append(c)
    out.append("'")
    return "".join(out)


# bash's bstab: what sh_backslash_quote always escapes
_Q_SPECIAL = frozenset("\t\n !\"$&'()*,;<>?[\\]^`{|}")


def printf_q(s: str) -> str:
    """``printf %q``: backslash-quote, or $'...' when control characters are present."""
    if s == "":
        return "''"
    if needs_ansi_c(s):
        return ansi_c_quote(s)
    out = []
    for i, c in enumerate(s):
        # (a # starting the word, a ~ starting it or after : or =)
        if c in _Q_SPECIAL or (c == "#" and i == 0) or (c == "~" and (i == 0 or s[i - 1] in ":=")):
            out.append("\\")
        out.append(c)
    return "".join(out)


class PrintfError(Exception):
    pass


_U64 = 0xFFFFFFFFFFFFFFFF


def _parse_number(arg: str, errors: list[str], unsigned: bool = False) -> int:
    """strtoimax/strtoumax as bash's printf uses them: leading blanks are fine, trailing
    text is an error (the number read so far is still used), overflow clamps."""
    s = arg.lstrip(" \t\n")
    if not s:
        if arg:
            errors.append(f"{arg}: invalid number")
        return 0
    if s[0] in "'\"":
        if len(s) < 2:
            return 0
        o = ord(s[1])
        return o - 0xDC00 if 0xDC80 <= o <= 0xDCFF else o  # a byte of invalid UTF-8
    neg = False
    body = s
    if body[0] in "+-":
        neg = body[0] == "-"
        body = body[1:]
    base, digits = 10, "0123456789"
    if body[:2].lower() == "0x":
        base, digits, body = 16, "0123456789abcdefABCDEF", body[2:]
    elif body.startswith("0") and len(body) > 1:
        base, digits = 8, "01234567"
    j = 0
    while j < len(body) and body[j] in digits:
        j += 1
    if j < len(body) or j == 0:
        errors.append(f"{arg}: invalid number")
    mag = int(body[:j], base) if j else 0
    if unsigned:
        if mag > _U64:
            errors.append(f"warning: {arg}: Numerical result out of range")
            return _U64
        return (-mag) & _U64 if neg else mag
    v = -mag if neg else mag
    if not -0x8000000000000000 <= v <= 0x7FFFFFFFFFFFFFFF:  # bash warns, and clamps
        errors.append(f"warning: {arg}: Numerical result out of range")
    return max(-0x8000000000000000, min(0x7FFFFFFFFFFFFFFF, v))


_FLOAT_PREFIX = re.compile(r"[+-]?(?:inf(?:inity)?|nan|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)",
                           re.IGNORECASE)


def _parse_float(arg: str, errors: list[str]) -> float:
    s = arg.strip(" \t\n")
    if not s:
        return 0.0
    if s[0] in "'\"":
        return float(ord(s[1])) if len(s) > 1 else 0.0
    try:
        return float(s) if not s.lower().startswith(("0x", "-0x", "+0x")) else float.fromhex(s)
    except ValueError:
        errors.append(f"{arg}: invalid number")
        m = _FLOAT_PREFIX.match(s)  # strtold: what a number it begins with is still used
        try:
            return float(m.group(0)) if m else 0.0
        except ValueError:
            return 0.0


def printf(fmt: str, args: list[str], now=None, tz: str | None = None,
           max_len: int | None = None) -> tuple[str, list[str]]:
    """Format like bash's printf; returns (output, error messages). The format is
    reused while arguments remain.

    With ``max_len`` (the run's string limit), a width or precision that would pad past it,
    or an output that grows past it, is the string-limit error before anything is made.
    """
    errors: list[str] = []
    out: list[str] = []
    size = counted = 0  # the length of out[:counted], checked at each conversion
    ai = 0
    nargs = len(args)
    first = True
    while first or ai < nargs:
        first = False
        consumed_before = ai
        i, n = 0, len(fmt)
        stop = False
        while i < n:
            c = fmt[i]
            if c == "\\":
                # printf's own escapes (\c stops output only in a %b argument) (like echo -e, plus \" \')
                j = i + 1
                if j < n and fmt[j] in "01234567":
                    k = j
                    while k < n and k - j < 3 and fmt[k] in "01234567":
                        k += 1
                    out.append(_chr(int(fmt[j:k], 8) & 0xFF))
                    i = k
                    continue
                if j < n and fmt[j] in _SIMPLE_ESC:
                    out.append(_SIMPLE_ESC[fmt[j]])
                    i = j + 1
                    continue
                if j < n and fmt[j] == "x":
                    v, k = _hex_run(fmt, j + 1, 2)
                    if v >= 0:
                        out.append(_chr(v))
                        i = k
                        continue
                    errors.append("missing hex digit for \\x")
                if j < n and fmt[j] in "uU":
                    v, k = _hex_run(fmt, j + 1, 4 if fmt[j] == "u" else 8)
                    if v >= 0:
                        out.append(code_point(v))
                        i = k
                        continue
                    errors.append("missing unicode digit for \\" + fmt[j])
                out.append(c)
                i += 1
                continue
            if c != "%":
                out.append(c)
                i += 1
                continue
            if i + 1 < n and fmt[i + 1] == "%":
                out.append("%")
                i += 2
                continue
            # %[flags][width][.precision][length]conv
            j = i + 1
            flags = ""
            while j < n and fmt[j] in "-+ #0":
                flags += fmt[j]
                j += 1
            width = ""
            if j < n and fmt[j] == "*":
                w = _parse_number(args[ai], errors) if ai < nargs else 0
                ai += 1
                if w < 0:
                    flags += "-"
                    w = -w
                width = str(w)
                j += 1
            else:
                while j < n and fmt[j].isdigit():
                    width += fmt[j]
                    j += 1
            prec = None
            if j < n and fmt[j] == ".":
                j += 1
                if j < n and fmt[j] == "*":
                    pv = _parse_number(args[ai], errors) if ai < nargs else 0
                    ai += 1
                    prec = str(pv) if pv >= 0 else None
                    j += 1
                else:
                    p = ""
                    while j < n and fmt[j].isdigit():
                        p += fmt[j]
                        j += 1
                    prec = p or "0"
            while j < n and fmt[j] in "hlLjzt":
                j += 1
            if max_len is not None:
                size += sum(map(len, out[counted:]))
                counted = len(out)
                if size > max_len or (width and int(width) > max_len) or (
                        prec is not None and int(prec) > max_len and fmt[j:j + 1] not in "sbqQ"):
                    raise LimitExceeded("string", f"{max_len} bytes")
            if j < n and fmt[j] == "(":
                close = fmt.find(")", j)
                if close < 0 or close + 1 >= n or fmt[close + 1] != "T":
                    errors.append(f"`{fmt[i:]}': invalid format character")
                    return "".join(out), errors
                tfmt = fmt[j + 1:close]
                arg = args[ai] if ai < nargs else None
                ai += 1
                out.append(_pad(_strftime(tfmt, arg, now, errors, tz), flags, width, prec))
                i = close + 2
                continue
            if j >= n:
                errors.append(f"`{fmt[i:]}': missing format character")
                return "".join(out), errors
            conv = fmt[j]
            arg = args[ai] if ai < nargs else None
            if conv in "diouxXeEfFgGaAcsbqQ":
                ai += 1
            spec = "%" + flags + width + ("." + prec if prec is not None else "")
            if conv in "di":
                v = _parse_number(arg, errors) if arg is not None else 0
                out.append(_fmt_int(spec, v))
            elif conv in "ouxX":
                v = _parse_number(arg, errors, unsigned=True) if arg is not None else 0
                out.append(_fmt_int(spec, v, conv))
            elif conv in "eEfFgGaA":
                v = _parse_float(arg, errors) if arg is not None else 0.0
                if conv in "aA":
                    out.append(_pad(float(v).hex() if conv == "a" else float(v).hex().upper(),
                                    flags, width, None))
                else:
                    out.append((spec + conv) % v)
            elif conv == "c":
                # the first byte, not the first character
                out.append(_pad(arg or "\0", flags, width, "1"))  # C's %c of '\0'

            elif conv == "s":
                out.append(_pad(arg or "", flags, width, prec))
            elif conv == "b":
                text, stop = echo_unescape(arg or "", warn=errors)
                out.append(_pad(text, flags, width, prec))
                if stop:
                    return "".join(out), errors
            elif conv in "qQ":
                q = printf_q(arg or "") if arg is not None else "''"
                if conv == "Q" and prec is not None:
                    q = printf_q((arg or "")[: int(prec)])
                    prec = None
                out.append(_pad(q, flags, width, prec if conv == "q" else None))
            else:
                errors.append(f"`{conv}': invalid format character")
                return "".join(out), errors
            i = j + 1
        if stop or ai == consumed_before:
            break
    return "".join(out), errors


def _pad(s: str, flags: str, width: str, prec: str | None) -> str:
    """Precision and width count bytes, as C's printf does."""
    if s.isascii():
        if prec is not None:
            s = s[: int(prec)]
        size = len(s)
    else:
        b = s.encode("utf-8", "surrogateescape")
        if prec is not None and int(prec) < len(b):
            b = b[: int(prec)]
            s = b.decode("utf-8", "surrogateescape")
        size = len(b)
    if width:
        w = int(width)
        if size < w:
            s = s + " " * (w - size) if "-" in flags else " " * (w - size) + s
    return s


def _fmt_int(spec: str, v: int, conv: str = "d") -> str:
    if "#" in spec and conv in "oxX":
        # C's alternate forms: 0 prefix for octal, 0x only for non-zero hex
        digits = {"o": f"{v:o}", "x": f"{v:x}", "X": f"{v:X}"}[conv]
        if conv == "o" and not digits.startswith("0"):
            digits = "0" + digits
        elif conv in "xX" and v != 0:
            digits = ("0x" if conv == "x" else "0X") + digits
        head = spec.replace("#", "")
        width = int("".join(ch for ch in head.split(".")[0] if ch.isdigit()).lstrip("0") or "0")
        if "-" in head:
            return digits.ljust(width)
        if "0" in head.split(".")[0][1:2] and "-" not in head:
            return digits.rjust(width, "0")
        return digits.rjust(width)
    if "." in spec and conv == "d":
        # C: precision is the minimum number of digits
        head, prec = spec.split(".")
        digits = str(abs(v)).rjust(int(prec or "0"), "0")
        if prec == "0" and v == 0:
            digits = ""
        sign = "-" if v < 0 else ("+" if "+" in head else (" " if " " in head else ""))
        body = sign + digits
        width = int("".join(ch for ch in head if ch.isdigit()).lstrip("0") or "0")
        return body.ljust(width) if "-" in head else body.rjust(width)
    try:
        return (spec + conv) % v
    except (ValueError, TypeError):
        return str(v)


def _strftime(tfmt: str, arg: str | None, now, errors: list[str], tz: str | None = None) -> str:
    if arg is None or arg == "" or arg == "-1":
        t = time.time() if now is None else now
    elif arg == "-2":
        t = time.time() if now is None else now
    else:
        t = _parse_number(arg, errors)
    import datetime

    zone = _zone(tz)
    try:
        out = datetime.datetime.fromtimestamp(t, zone).strftime(tfmt or "%X")
    except (ValueError, OverflowError, OSError):
        return ""
    # bash formats into a 128-byte buffer: what does not fit is dropped entirely
    return "" if len(out.encode("utf-8", "surrogateescape")) >= 128 else out


def _zone(tz: str | None):
    """The sandbox's time zone: TZ from the script's environment, else UTC (never the host's)."""
    import datetime

    if tz:
        try:
            from zoneinfo import ZoneInfo

            return ZoneInfo(tz.lstrip(":"))
        except Exception:  # noqa: BLE001 - an unknown zone name is UTC, as glibc does
            return datetime.UTC
    return datetime.UTC
