# ruff: noqa: UP031 - C printf formatting is the point here
"""awk EREs (with awk's escapes) translated to Python patterns.

A thin adapter: awk's dialect differs from grep's in its escapes (``\\/``,
``\\"``, string-style ``\\n`` ``\\t`` ``\\ddd``, backslashes inside brackets)
and in that a dynamic regex is an ordinary string. The translation keeps POSIX
meaning: ``.`` matches newline, ``$`` only at the very end, ``{n,m}``
intervals, literal ``*``/``+``/``?`` where nothing precedes them, POSIX classes.

Two compiled forms: ``search`` (does it match anywhere: Python's ``re``, the
fastest) and ``extent`` (where does the leftmost-longest match lie, for
match/sub/gsub/split/FS/RS: the ``regex`` package's POSIX mode when the
pattern has alternatives or optional parts that make leftmost-first differ).
"""

from __future__ import annotations

import re

try:  # the `regex` package gives POSIX leftmost-longest matching and Unicode POSIX classes
    import regex as _regex
except ImportError:  # pragma: no cover - the dependency is declared
    _regex = None


class RegexError(Exception):
    pass


_ASCII_CLASSES = {
    "alpha": "a-zA-Z", "digit": "0-9", "alnum": "0-9a-zA-Z", "upper": "A-Z", "lower": "a-z",
    "space": " \\t\\n\\r\\f\\v", "blank": " \\t", "punct": "!-/:-@\\[-`{-~",
    "print": " -~", "graph": "!-~", "cntrl": "\\x00-\\x1f\\x7f", "xdigit": "0-9A-Fa-f",
}
# classes whose meaning in a UTF-8 locale goes beyond ASCII
_UNICODE_CLASSES = {"alpha", "alnum", "upper", "lower", "punct", "print", "graph"}

_STR_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "f": "\f", "v": "\v", "a": "\a", "b": "\b",
                "/": "/", '"': '"'}

_INTERVAL = re.compile(r"\{(\d*)(,(\d*))?\}")


def _lit(c: str) -> str:
    """c as a literal outside brackets."""
    if c.isalnum() or c == "_" or ord(c) > 127:
        return c
    return "\\" + c if c not in "\n\t\r\f\v\a\b\x00" else "\\x%02x" % ord(c)


def _blit(c: str) -> str:
    """c as a literal inside a Python character class."""
    if c.isalnum() or c == "_" or ord(c) > 127:
        return c
    if ord(c) < 32 or ord(c) == 127:
        return "\\x%02x" % ord(c)
    return "\\" + c


class Translation:
    __slots__ = ("pattern", "unicode_classes", "needs_longest")

    def __init__(self, pattern: str, unicode_classes: bool, needs_longest: bool):
        self.pattern = pattern
        self.unicode_classes = unicode_classes
        self.needs_longest = needs_longest


def translate(src: str, *, for_regex_pkg: bool = False) -> Translation:
    out: list[str] = []
    n = len(src)
    i = 0
    groups: list[int] = []
    atom = -1  # index in out where the last quantifiable atom starts; -1: none
    last_quant = False
    uni = False
    longest = False
    while i < n:
        c = src[i]
        if c == "\\":
            if i + 1 >= n:
                atom = len(out)
                out.append("\\\\")
                i += 1
                last_quant = False
                continue
            d = src[i + 1]
            i += 2
            atom = len(out)
            last_quant = False
            if d in _STR_ESCAPES:
                out.append(_lit(_STR_ESCAPES[d]))
            elif d in "01234567":
                j = i - 1
                k = j
                while k < n and k < j + 3 and src[k] in "01234567":
                    k += 1
                out.append(_lit(chr(int(src[j:k], 8) & 0xFF)))
                i = k
            elif d == "y":
                out.append("\\b")
                atom = -1
            elif d == "B":
                out.append("\\B")
                atom = -1
            elif d == "<":
                out.append("\\b(?=\\w)")
                atom = -1
            elif d == ">":
                out.append("\\b(?<=\\w)")
                atom = -1
            elif d == "s":
                out.append("[ \\t\\n\\r\\f\\v]")
            elif d == "S":
                out.append("[^ \\t\\n\\r\\f\\v]")
            elif d == "w":
                out.append("\\w")
            elif d == "W":
                out.append("\\W")
            elif d == "`":
                out.append("\\A")
                atom = -1
            elif d == "'":
                out.append("\\Z")
                atom = -1
            else:
                out.append(_lit(d))
            continue
        if c == "[":
            piece, i, u = _bracket(src, i, for_regex_pkg)
            uni = uni or u
            atom = len(out)
            out.append(piece)
            last_quant = False
            continue
        if c in "*+?":
            if atom < 0:
                atom = len(out)
                out.append(_lit(c))
                last_quant = False
            else:
                if last_quant:
                    out[atom:] = ["(?:" + "".join(out[atom:]) + ")"]
                if out[atom].startswith("(?:"):
                    longest = True
                out.append(c)
                last_quant = True
            i += 1
            continue
        if c == "{":
            m = _INTERVAL.match(src, i)
            if m and atom >= 0 and (m.group(1) or m.group(2)):
                lo = m.group(1) or "0"
                hi = m.group(3) if m.group(2) else lo
                if hi and int(hi) < int(lo):
                    raise RegexError("Invalid content of \\{\\}")
                if int(lo) > 65535 or (hi and int(hi) > 65535):
                    raise RegexError("Regular expression too big")
                if last_quant:
                    out[atom:] = ["(?:" + "".join(out[atom:]) + ")"]
                if out[atom].startswith("(?:"):
                    longest = True
                out.append("{%s,%s}" % (lo, hi) if m.group(2) else "{%s}" % lo)
                last_quant = True
                i = m.end()
                continue
            atom = len(out)
            out.append("\\{")
            last_quant = False
            i += 1
            continue
        last_quant = False
        if c == "(":
            groups.append(len(out))
            out.append("(?:")
            atom = -1
            i += 1
            continue
        if c == ")":
            if not groups:
                atom = len(out)
                out.append("\\)")
            else:
                atom = groups.pop()
                out.append(")")
            i += 1
            continue
        if c == "|":
            out.append("|")
            atom = -1
            longest = True
            i += 1
            continue
        if c == "^":
            out.append("^")
            atom = -1
            i += 1
            continue
        if c == "$":
            out.append("\\Z")
            atom = -1
            i += 1
            continue
        if c == ".":
            atom = len(out)
            out.append(".")
            i += 1
            continue
        atom = len(out)
        out.append(_lit(c))
        i += 1
    if groups:
        raise RegexError("Unmatched ( or \\(")
    return Translation("".join(out), uni, longest)


def _bracket(src: str, i: int, for_regex_pkg: bool) -> tuple[str, int, bool]:
    """Translate the bracket expression at src[i] == '['; returns (piece, next index, unicode)."""
    n = len(src)
    j = i + 1
    negate = False
    if j < n and src[j] == "^":
        negate = True
        j += 1
    parts: list[str] = []
    uni = False
    first = True
    while True:
        if j >= n:
            raise RegexError("Unmatched [, [^, [:, [., or [=")
        c = src[j]
        if c == "]" and not first:
            j += 1
            break
        first = False
        if c == "[" and j + 1 < n and src[j + 1] in ":.=":
            kind = src[j + 1]
            close = src.find(kind + "]", j + 2)
            if close < 0:
                raise RegexError("Unmatched [, [^, [:, [., or [=")
            name = src[j + 2:close]
            j = close + 2
            if kind == ":":
                if name not in _ASCII_CLASSES:
                    raise RegexError("Invalid character class name")
                if name in _UNICODE_CLASSES:
                    uni = True
                if for_regex_pkg:
                    parts.append(f"[:{name}:]")
                else:
                    parts.append(_ASCII_CLASSES[name])
                continue
            # [.c.] and [=c=]: the character itself
            lo = name
            for ch in lo:
                parts.append(_blit(ch))
            continue
        if c == "\\" and j + 1 < n:
            d = src[j + 1]
            j += 2
            if d in _STR_ESCAPES:
                ch = _STR_ESCAPES[d]
            elif d in "01234567":
                k = j - 1
                m = k
                while m < n and m < k + 3 and src[m] in "01234567":
                    m += 1
                ch = chr(int(src[k:m], 8) & 0xFF)
                j = m
            else:
                ch = d
        else:
            ch = c
            j += 1
        # a range?
        if j + 1 < n and src[j] == "-" and src[j + 1] != "]":
            hi_c = src[j + 1]
            k = j + 2
            if hi_c == "\\" and j + 2 < n:
                hi_c = _STR_ESCAPES.get(src[j + 2], src[j + 2])
                k = j + 3
            elif hi_c == "[" and j + 2 < n and src[j + 2] in ".=":
                close = src.find(src[j + 2] + "]", j + 3)
                if close > 0:
                    hi_c = src[j + 3:close][:1] or hi_c
                    k = close + 2
            if ord(hi_c) < ord(ch):
                raise RegexError("Invalid range end")
            parts.append(_blit(ch) + "-" + _blit(hi_c))
            j = k
            continue
        parts.append(_blit(ch))
    body = "".join(parts)
    if not body:
        # [^] cannot be empty in awk: the ']' was taken as literal above
        body = "\\]"
    return ("[^" if negate else "[") + body + "]", j, uni


class AwkRegex:
    """One compiled awk regex: ``search(s)`` for a test, ``extent(s, pos)`` for match extents."""

    __slots__ = ("source", "search", "_re", "_ext", "_ext_pat")

    def __init__(self, source: str):
        self.source = source
        tr = translate(source)
        flags = re.DOTALL
        use_pkg = _regex is not None and (tr.unicode_classes or tr.needs_longest)
        try:
            if tr.unicode_classes and _regex is not None:
                pkg = translate(source, for_regex_pkg=True)
                self._re = _regex.compile(pkg.pattern, _regex.DOTALL | _regex.V0)
                if tr.needs_longest:
                    self._ext = _regex.compile(pkg.pattern, _regex.DOTALL | _regex.V0 | _regex.POSIX)
                else:
                    self._ext = self._re
            else:
                self._re = re.compile(tr.pattern, flags)
                if use_pkg:
                    self._ext = _regex.compile(tr.pattern, _regex.DOTALL | _regex.V0 | _regex.POSIX)
                else:
                    self._ext = self._re
        except (re.error, ValueError, OverflowError, RecursionError) as e:
            raise RegexError(str(e)) from None
        except Exception as e:  # the regex package's own error class
            raise RegexError(str(e)) from None
        self.search = self._re.search

    def extent(self, s: str, pos: int = 0):
        """The leftmost-longest match at or after pos (a match object or None)."""
        return self._ext.search(s, pos)

    def finditer_extents(self, s: str):
        return self._ext.finditer(s)


_cache: dict[str, AwkRegex] = {}


def compile_awk(source: str) -> AwkRegex:
    r = _cache.get(source)
    if r is None:
        if len(_cache) > 500:
            _cache.clear()
        r = _cache[source] = AwkRegex(source)
    return r
