"""Shell patterns (glob syntax, with extglob) compiled to matchers.

A pattern arrives as a string in which every quoted character is preceded by
a backslash (``escape()`` builds that), so quoting survives into matching.
This module parses bash's syntax into elements; :mod:`pysh.shellkit.wildmatch`
matches them in bounded time (linear for plain patterns, polynomial and
deadline-polled for extglob).
"""

from __future__ import annotations

import re
from functools import lru_cache

from pysh.shellkit import wildmatch as wm

GLOB_CHARS = frozenset("*?[")
_EXT_OPS = frozenset("@*+?!")

def _class_body(name: str) -> str:
    """A POSIX class as an `re` set body, for UTF-8 text as glibc's C.UTF-8 draws it
    (``[[:alpha:]]`` matches ``é``); an unknown name matches nothing, as in bash."""
    from pysh.interpreter._pattern_classes import CLASSES

    if name == "word":
        return CLASSES["alnum"] + "_"
    return CLASSES.get(name, "")


def escape(text: str) -> str:
    """Make every character of ``text`` literal in a pattern."""
    out = []
    for c in text:
        if c in "*?[]\\()|@+!^-":  # (^ and - too: quoted, they are not [^...] or a range)
            out.append("\\")
        out.append(c)
    return "".join(out)


def has_glob(pattern: str, extglob: bool = True) -> bool:
    """True when an unescaped glob character is present (a ``[`` only with its ``]``)."""
    if not ("*" in pattern or "?" in pattern or "[" in pattern or (extglob and "(" in pattern)):
        return False
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if c == "*" or c == "?":
            return True
        if c == "[":
            if _parse_bracket(pattern, i) is not None:
                return True
            i += 1
            continue
        if extglob and c in _EXT_OPS and i + 1 < n and pattern[i + 1] == "(":
            return True
        i += 1
    return False


def unescape(pattern: str) -> str:
    """The literal text of a pattern (backslashes removed)."""
    if "\\" not in pattern:
        return pattern
    out = []
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\" and i + 1 < n:
            out.append(pattern[i + 1])
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


# -- parsing into elements -------------------------------------------------
# ("lit", text) ("star",) ("one",) ("set", regex_class) ("ext", op, [alternatives])


def _parse_bracket(p: str, i: int) -> tuple[str, int] | None:
    """Parse ``[...]`` at p[i] == '['; returns (regex class, index after) or None (literal '[')."""
    n = len(p)
    j = i + 1
    negate = False
    if j < n and p[j] in "!^":
        negate = True
        j += 1
    items: list[str] = []
    first = True
    while j < n:
        c = p[j]
        if c == "]" and not first:
            cls = "".join(items)
            if not cls:
                return None
            return ("[^" if negate else "[") + cls + "]", j + 1
        first = False
        if c == "[" and j + 1 < n and p[j + 1] in ":.=":
            kind = p[j + 1]
            end = p.find(kind + "]", j + 2)
            if end < 0:
                items.append(re.escape(c))
                j += 1
                continue
            name = p[j + 2:end]
            if kind == ":":
                items.append(_class_body(name))
            else:
                items.append(re.escape(name))
            j = end + 2
            continue
        if c == "\\" and j + 1 < n:
            c = p[j + 1]
            j += 1
        # a range?
        if j + 2 < n and p[j + 1] == "-" and p[j + 2] != "]":
            hi = p[j + 2]
            k = j + 3
            if hi == "\\" and j + 3 < n:
                hi = p[j + 3]
                k = j + 4
            if ord(hi) >= ord(c):
                items.append(re.escape(c) + "-" + re.escape(hi))
            j = k
            continue
        items.append(re.escape(c))
        j += 1
    return None


def bracket_end(p: str, i: int) -> int:
    """The index after the bracket expression at p[i] == '[', or -1 (a literal '[')."""
    br = _parse_bracket(p, i)
    return -1 if br is None else br[1]


def _find_close(p: str, i: int) -> int:
    """Index of the ')' closing the '(' at p[i], or -1."""
    depth = 0
    n = len(p)
    while i < n:
        c = p[i]
        if c == "\\":
            i += 2
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i
        elif c == "[":
            br = _parse_bracket(p, i)
            if br is not None:
                i = br[1]
                continue
        i += 1
    return -1


def _split_alts(p: str) -> list[str]:
    alts, depth, start, i, n = [], 0, 0, 0, len(p)
    while i < n:
        c = p[i]
        if c == "\\":
            i += 2
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "|" and depth == 0:
            alts.append(p[start:i])
            start = i + 1
        i += 1
    alts.append(p[start:])
    return alts


def parse(p: str, extglob: bool = True) -> list[tuple]:
    elems: list[tuple] = []
    lit: list[str] = []
    i, n = 0, len(p)

    def flush():
        if lit:
            elems.append(("lit", "".join(lit)))
            lit.clear()

    while i < n:
        c = p[i]
        if c == "\\":
            if i + 1 < n:
                lit.append(p[i + 1])
            else:
                lit.append("\\")
            i += 2
            continue
        if extglob and c in _EXT_OPS and i + 1 < n and p[i + 1] == "(":
            close = _find_close(p, i + 1)
            if close > 0:
                flush()
                alts = [parse(a, extglob) for a in _split_alts(p[i + 2:close])]
                elems.append(("ext", c, alts))
                i = close + 1
                continue
        if c == "*":
            flush()
            if not (elems and elems[-1] == ("star",)):
                elems.append(("star",))
            i += 1
            continue
        if c == "?":
            flush()
            elems.append(("one",))
            i += 1
            continue
        if c == "[":
            br = _parse_bracket(p, i)
            if br is not None:
                flush()
                elems.append(("set", br[0]))
                i = br[1]
                continue
        lit.append(c)
        i += 1
    flush()
    return elems


class Matcher:
    """A compiled pattern. ``budget``: the run's, polled inside extglob matching."""

    __slots__ = ("literal", "engine", "_rx")

    def __init__(self, literal: str | None, engine: wm.Plain | wm.Ext | None):
        self.literal = literal
        self.engine = engine
        # a plain pattern's full match is one regex call: skip the layers (globs, case)
        self._rx = engine.full.fullmatch if isinstance(engine, wm.Plain) else None

    def fullmatch(self, s: str, budget=None) -> bool:
        if self._rx is not None:
            return self._rx(s) is not None
        if self.literal is not None:
            return s == self.literal
        return self.engine.fullmatch(s, budget)  # type: ignore[union-attr]


@lru_cache(maxsize=2048)
def compile_pattern(p: str, *, nocase: bool = False, extglob: bool = True) -> Matcher:
    elems = parse(p, extglob)
    if not nocase and all(e[0] == "lit" for e in elems):
        return Matcher("".join(e[1] for e in elems), None)
    return Matcher(None, wm.compile_elems(elems, nocase))


def match(p: str, s: str, *, nocase: bool = False, extglob: bool = True, budget=None) -> bool:
    """Full match of a string against a pattern (case, [[ == ]])."""
    return compile_pattern(p, nocase=nocase, extglob=extglob).fullmatch(s, budget)


@lru_cache(maxsize=1024)
def literal_text(p: str, extglob: bool = True) -> str | None:
    """The text a pattern matches when it has no glob characters at all, else None."""
    elems = parse(p, extglob)
    if all(e[0] == "lit" for e in elems):
        return "".join(e[1] for e in elems)
    return None


def _engine(p: str, nocase: bool, extglob: bool = True) -> wm.Plain | wm.Ext:
    m = compile_pattern(p, nocase=nocase, extglob=extglob)
    if m.engine is None:  # a literal: still answer through an engine
        return wm.compile_elems([("lit", m.literal)])
    return m.engine


def strip_prefix(s: str, p: str, longest: bool, nocase: bool = False, budget=None,
                 extglob: bool = True) -> str:
    """``${s#p}`` / ``${s##p}``."""
    lit = None if nocase else literal_text(p, extglob)
    if lit is not None:
        return s[len(lit):] if s.startswith(lit) else s
    k = _engine(p, nocase, extglob).prefix(s, longest, budget)
    return s if k < 0 else s[k:]


def strip_suffix(s: str, p: str, longest: bool, nocase: bool = False, budget=None,
                 extglob: bool = True) -> str:
    """``${s%p}`` / ``${s%%p}``."""
    lit = None if nocase else literal_text(p, extglob)
    if lit is not None:
        return s[: len(s) - len(lit)] if lit and s.endswith(lit) else s
    k = _engine(p, nocase, extglob).suffix(s, longest, budget)
    return s if k < 0 else s[:k]


def _at(p: str, i: int) -> str:
    return p[i] if i < len(p) else ""


def match_length(p: str, extglob: bool = True) -> int:
    """The one length every match of ``p`` has, or -1: bash's umatchlen, which ${x/p/r}
    trusts (it tries only substrings of that length). Its bracket scan takes the first
    character after ``[`` as a member whatever it is, so ``[^]]`` counts as ``[^]``
    and a ``]``: two characters, and the substitution never matches."""
    n = len(p)
    i = 0
    length = 0
    while i < n:
        c = p[i]
        i += 1
        if c == "\\":
            length += 1
            i += 1
        elif c == "*":
            return -1
        elif extglob and c in "?+!@" and i < n and p[i] == "(":
            return -1
        elif c == "[":
            brack = 1
            c = _at(p, i)
            i += 1
            cclass = collsym = equiv = False
            closed = False
            while True:
                nxt = _at(p, i)
                if c == "":  # no closing bracket: its characters count one each
                    i -= 1
                    break
                if c == "\\":
                    brack += 1
                    if nxt == "" or _at(p, i + 1) == "":
                        i += 1
                        break
                    i += 1
                elif c == "[" and nxt == ":":
                    i += 1
                    brack += 1
                    cclass = True
                elif cclass and c == ":" and nxt == "]":
                    i += 1
                    brack += 1
                    cclass = False
                elif c == "[" and nxt in (".", "="):
                    i += 1
                    brack += 1
                    if _at(p, i) == "]":
                        i += 1
                        brack += 1
                    collsym, equiv = (True, equiv) if nxt == "." else (collsym, True)
                elif (collsym and c == "." or equiv and c == "=") and nxt == "]":
                    i += 1
                    brack += 1
                    if c == ".":
                        collsym = False
                    else:
                        equiv = False
                else:
                    brack += 1
                c = _at(p, i)
                i += 1
                if c == "]":
                    closed = True
                    break
            length += 1 if closed else brack
        else:
            length += 1
    return length


def find_match(s: str, p: str, start: int = 0, anchor: str | None = None,
               nocase: bool = False, fixed: int = -1, budget=None,
               extglob: bool = True) -> tuple[int, int] | None:
    """Leftmost-longest match of ``p`` in ``s`` from ``start`` (``anchor`` '#' or '%').
    ``fixed`` >= 0: only matches of that length count (see match_length)."""
    eng = _engine(p, nocase, extglob)
    if anchor == "#":
        k = eng.prefix(s[start:], True, budget)
        m = None if k < 0 else (start, start + k)
    elif anchor == "%":
        k = eng.suffix(s[start:], True, budget)
        m = None if k < 0 else (start + k, len(s))
    else:
        m = eng.search(s, start, budget)
    if m is not None and fixed >= 0 and m[1] - m[0] != fixed:
        # bash's length guess can differ from the pattern's (``[^]]``): a fixed-length
        # pattern then never matches
        return None
    return m
