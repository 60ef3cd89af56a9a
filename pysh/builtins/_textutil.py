"""Shared helpers of the text utilities (head, tail, sort, wc, ...).

Private to the text-utilities area (issue 5): GNU-style quoting of names in
messages, usage errors, size/number parsing with GNU suffixes, a buffered
writer, and chunked / line-block readers over the shell's streams.
"""

from __future__ import annotations

import errno as _errno
import os
import unicodedata

from pysh.shellkit.options import OptionError, parse_options
from pysh.shellkit.text import decode, encode

__all__ = ["OptionError", "parse_options", "decode", "encode"]

FLUSH = 64 * 1024


# ------------------------------------------------------------------ output
class Writer:
    """Collects output and writes it to a stream in big chunks."""

    __slots__ = ("stream", "buf")

    def __init__(self, stream) -> None:
        self.stream = stream
        self.buf = bytearray()

    async def write(self, data) -> None:
        self.buf += data
        if len(self.buf) >= FLUSH:
            await self.flush()

    async def flush(self) -> None:
        if self.buf:
            data = bytes(self.buf)
            self.buf.clear()
            await self.stream.write(data)


# ------------------------------------------------------------------ quoting
_SAFE = frozenset(b"%+,-./0123456789:ABCDEFGHIJKLMNOPQRSTUVWXYZ]_abcdefghijklmnopqrstuvwxyz")
_C_ESC = {7: "a", 8: "b", 12: "f", 10: "n", 13: "r", 9: "t", 11: "v"}


def _units(b: bytes):
    """(bytes, printable) units: a valid printable UTF-8 character, or one byte."""
    i, n = 0, len(b)
    while i < n:
        c = b[i]
        if c < 0x80:
            yield b[i:i + 1], 0x20 <= c < 0x7f
            i += 1
            continue
        ln = 2 if 0xC2 <= c <= 0xDF else 3 if 0xE0 <= c <= 0xEF else 4 if 0xF0 <= c <= 0xF4 else 0
        if ln and i + ln <= n:
            try:
                ch = b[i:i + ln].decode("utf-8")
                yield b[i:i + ln], ch.isprintable() or unicodedata.category(ch) == "Cf"
                i += ln
                continue
            except UnicodeDecodeError:
                pass
        yield b[i:i + 1], False
        i += 1


def _shell_always(b: bytes) -> str:
    """shell-escape-always quoting: 'x', with $'\\n' escapes; "x'y" when that is simpler."""
    out: list[str] = ["'"]
    pending_esc = False  # inside a $'...' escape run
    has_sq = False
    c_compat = True
    n = len(b)
    for i, (unit, printable) in enumerate(_units(b)):
        c = unit[0]
        if len(unit) == 1 and (not printable or c in _C_ESC):
            if not pending_esc:
                out.append("'$'")
                pending_esc = True
            out.append("\\" + (_C_ESC[c] if c in _C_ESC else f"{c:03o}"))
            c_compat = False
            continue
        if pending_esc:
            out.append("''")
            pending_esc = False
        if unit == b"'":
            has_sq = True
            out.append("'\\''")
            continue
        if len(unit) == 1 and not (c in _SAFE or c == 32 or (c in b"#~" and i == 0)
                                   or (c in b"{}" and n == 1)):
            c_compat = False
        out.append(decode(unit))
    out.append("'")
    if has_sq and c_compat:
        return '"' + decode(b) + '"'
    return "".join(out)


def quotef(name: str, colon: bool = True) -> str:
    """GNU ``quotef``: the name as is when it is shell-safe, else shell-quoted."""
    b = encode(name)
    if not b:
        return "''"
    safe = True
    n = len(b)
    for i, (unit, printable) in enumerate(_units(b)):
        if len(unit) > 1:
            if not printable:
                safe = False
                break
            continue
        c = unit[0]
        if c in _SAFE and not (colon and c == 58):
            continue
        if c in b"{}" and n > 1:
            continue
        if c in b"#~" and i != 0:
            continue
        safe = False
        break
    if safe:
        return name
    return _shell_always(b)


def quoteaf(name: str) -> str:
    """GNU ``quoteaf``: always shell-quoted."""
    return _shell_always(encode(name))


def quote(s: str) -> str:
    """GNU ``quote``: ‘s’ with C escapes for unprintable bytes (UTF-8 locale)."""
    out = ["\u2018"]
    for unit, printable in _units(encode(s)):
        c = unit[0]
        if len(unit) == 1:
            if c == 92:
                out.append("\\\\")
            elif c in _C_ESC:
                out.append("\\" + _C_ESC[c])
            elif not printable:
                out.append(f"\\{c:03o}")
            else:
                out.append(chr(c))
        else:
            out.append(decode(unit) if printable else "".join(f"\\{x:03o}" for x in unit))
    out.append("\u2019")
    return "".join(out)


# ------------------------------------------------------------------ errors
def strerror(exc: BaseException) -> str:
    code = getattr(exc, "errno", None)
    if isinstance(code, int) and code:
        return os.strerror(code)
    return os.strerror(_errno.EIO)


def errno_of(exc: BaseException) -> int:
    code = getattr(exc, "errno", None)
    return code if isinstance(code, int) else _errno.EIO


async def usage(shell, prog: str, message: str | None, status: int = 1) -> int:
    """``prog: message`` and the ``Try 'prog --help'`` line; returns ``status``."""
    if message:
        await shell.error(prog, message)
    await shell.stderr.write(encode(f"Try '{prog} --help' for more information.\n"))
    return status


async def help_text(shell, text: str) -> int:
    await shell.stdout.write(encode(text.rstrip("\n") + "\n"))
    return 0


async def version_text(shell, prog: str) -> int:
    await shell.stdout.write(encode(f"{prog} (pysh text utilities) 9.1\n"))
    return 0


# ------------------------------------------------------------------ numbers
_SUFFIX_POWER = {"b": None, "k": 1, "K": 1, "m": 2, "M": 2, "g": 3, "G": 3, "t": 4, "T": 4,
                 "P": 5, "E": 6, "Z": 7, "Y": 8, "R": 9, "Q": 10, "c": None, "w": None}
UINTMAX = 2 ** 64 - 1


class NumberError(ValueError):
    """``kind`` is 'invalid' or 'range'."""

    def __init__(self, kind: str):
        super().__init__(kind)
        self.kind = kind


def parse_size(s: str, suffixes: str = "bkKmMGTPEZYRQ0", maximum: int = UINTMAX) -> int:
    """xstrtoumax with GNU multiplicative suffixes (``0`` in ``suffixes``: allow KB, KiB)."""
    t = s.lstrip(" \t\n\v\f\r")
    if t.startswith("-"):
        raise NumberError("invalid")
    if t.startswith("+"):
        t = t[1:]
    i = 0
    while i < len(t) and t[i].isdigit() and t[i].isascii():
        i += 1
    if i == 0:
        if t and t[0] in suffixes and t[0] in _SUFFIX_POWER:
            value = 1
        else:
            raise NumberError("invalid")
    else:
        value = int(t[:i])
    rest = t[i:]
    if rest:
        ch = rest[0]
        if ch not in suffixes or ch == "0":
            raise NumberError("invalid")
        base = 1024
        extra = 1
        if "0" in suffixes and len(rest) >= 2:
            if rest[1:] == "B" or rest[1:] == "D":
                base, extra = 1000, 2
            elif rest[1:3] == "iB":
                extra = 3
        if ch == "b":
            mult = 512
        elif ch == "c":
            mult = 1
        elif ch == "w":
            mult = 2
        else:
            p = _SUFFIX_POWER.get(ch)
            if p is None:
                raise NumberError("invalid")
            mult = base ** p
        if len(rest) != extra:
            raise NumberError("invalid")
        value *= mult
    if value > maximum:
        raise NumberError("range")
    return value


# ------------------------------------------------------------------ locale
def utf8_locale(shell) -> bool:
    env = shell.env
    for var in ("LC_ALL", "LC_CTYPE", "LANG"):
        v = env.get(var)
        if v:
            low = v.lower()
            return "utf-8" in low or "utf8" in low
    return False


def char_width(ch: str) -> int:
    """wcwidth(): 0 for combining/format marks, 2 for wide East Asian, -1 unprintable."""
    o = ord(ch)
    if o < 0x20 or 0x7F <= o < 0xA0 or 0xDC80 <= o <= 0xDCFF:
        return -1
    if o < 0x300:
        return 1
    cat = unicodedata.category(ch)
    if cat in ("Mn", "Me") or o == 0x200B:
        return 0
    if cat == "Cf":
        return 0
    if cat in ("Cc", "Cs", "Co", "Cn"):
        return -1
    if unicodedata.east_asian_width(ch) in ("W", "F"):
        return 2
    return 1


# ------------------------------------------------------------------ input
class OpenFailed(Exception):
    def __init__(self, exc: BaseException):
        super().__init__(str(exc))
        self.exc = exc
        self.errno = errno_of(exc)


def open_input(shell, name: str):
    """The InputStream for an operand ('-' is stdin); raises OpenFailed."""
    try:
        return shell.open_input(name)
    except OSError as e:
        raise OpenFailed(e) from None


async def read_all(shell, stream) -> bytes:
    """All of ``stream`` (bounded by the run's string limit, like every whole-input read)."""
    return await stream.read()


async def blocks(shell, stream, delim: bytes = b"\n"):
    """Blocks of whole lines (each ending with ``delim``); the last may lack it. A line
    longer than the string limit is the limit error (``InputStream.line_blocks``)."""
    async for block in stream.line_blocks(delim):
        shell.budget.check()
        yield block


def stdin_name(name: str) -> str:
    return "standard input" if name == "-" else name


# ------------------------------------------------------------------ argmatch
def argmatch(value: str, choices: list[tuple[str, object]]):
    """GNU argmatch: an exact name or an unambiguous prefix -> its value, else None/'ambiguous'."""
    for name, val in choices:
        if name == value:
            return val
    matches = {val for name, val in choices if value and name.startswith(value)}
    if len(matches) == 1:
        return matches.pop()
    return "\0ambiguous" if matches else None


async def argmatch_die(shell, prog: str, option: str, value: str,
                       choices: list[tuple[str, object]], status: int = 1) -> int:
    kind = "ambiguous" if argmatch(value, choices) == "\0ambiguous" else "invalid"
    await shell.error(prog, f"{kind} argument {quote(value)} for {quote(option)}")
    lines = []
    last = object()
    for name, val in choices:
        if lines and val == last:
            lines[-1] += f", {quote(name)}"
        else:
            lines.append(f"  - {quote(name)}")
        last = val
    await shell.stderr.write(encode("Valid arguments are:\n" + "\n".join(lines) + "\n"))
    return await usage(shell, prog, None, status)


# ------------------------------------------------------------------ regex
def bre_to_python(pattern: bytes, extended: bool = False) -> bytes:
    """A small POSIX BRE/ERE to Python ``re`` (bytes) translation for nl -bp and csplit-like uses."""
    out = bytearray()
    i = 0
    n = len(pattern)
    classes = {b"alpha": b"a-zA-Z", b"digit": b"0-9", b"alnum": b"a-zA-Z0-9", b"upper": b"A-Z",
               b"lower": b"a-z", b"space": b" \\t\\n\\r\\f\\v", b"blank": b" \\t",
               b"punct": b"!-/:-@\\[-`{-~", b"print": b" -~", b"graph": b"!-~",
               b"cntrl": b"\\x00-\\x1f\\x7f", b"xdigit": b"0-9A-Fa-f"}
    while i < n:
        c = pattern[i:i + 1]
        if c == b"\\" and i + 1 < n:
            d = pattern[i + 1:i + 2]
            if not extended and d in b"(){}|+?":
                out += d
            elif d.isdigit() or d in b"wWsSbB<>":
                out += {b"<": b"\\b", b">": b"\\b"}.get(d, b"\\" + d)
            else:
                out += b"\\" + d
            i += 2
            continue
        if c == b"[":
            j = i + 1
            if j < n and pattern[j:j + 1] == b"^":
                j += 1
            if j < n and pattern[j:j + 1] == b"]":
                j += 1
            while j < n and pattern[j:j + 1] != b"]":
                if pattern[j:j + 2] == b"[:":
                    k = pattern.find(b":]", j + 2)
                    j = k + 2 if k > 0 else j + 1
                else:
                    j += 1
            body = pattern[i + 1:j]
            for name, rep in classes.items():
                body = body.replace(b"[:" + name + b":]", rep)
            body = body.replace(b"\\", b"\\\\")
            if body.startswith(b"^"):
                body = b"^" + body[1:].replace(b"[", b"\\[")
            else:
                body = body.replace(b"[", b"\\[")
            out += b"[" + body + b"]"
            i = j + 1
            continue
        if not extended and c in b"(){}|+?":
            out += b"\\" + c
        elif c == b"*" and (not out or out.endswith(b"(") or out.endswith(b"^")) and \
                not extended:
            out += b"\\*"
        else:
            out += c
        i += 1
    return bytes(out)
