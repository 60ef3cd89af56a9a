"""Shell patterns (glob syntax, with extglob) compiled to matchers.

A pattern arrives as a string in which every quoted character is preceded by
a backslash (``escape()`` builds that), so quoting survives into matching.
Patterns without ``!(...)`` become Python regexes; ``!(...)`` needs a real
backtracking matcher, so those patterns are matched by :class:`_Backtrack`.
"""

from __future__ import annotations

import re
from functools import lru_cache

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
        if c in "*?[]\\()|@+!":
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


def _has_negation(elems: list[tuple]) -> bool:
    for e in elems:
        if e[0] == "ext":
            if e[1] == "!" or any(_has_negation(a) for a in e[2]):
                return True
    return False


def _to_regex(elems: list[tuple], pathname: bool) -> str:
    out = []
    any_char = "[^/]" if pathname else "."
    for e in elems:
        k = e[0]
        if k == "lit":
            out.append(re.escape(e[1]))
        elif k == "star":
            out.append(any_char + "*")
        elif k == "one":
            out.append(any_char)
        elif k == "set":
            out.append(e[1])
        else:
            op, alts = e[1], e[2]
            body = "|".join(_to_regex(a, pathname) for a in alts)
            suffix = {"@": "", "*": "*", "+": "+", "?": "?"}[op]
            out.append(f"(?:{body}){suffix}")
    return "".join(out)


class _Backtrack:
    """A matcher for patterns with ``!(...)``: full match only."""

    def __init__(self, elems: list[tuple], pathname: bool, nocase: bool):
        self.elems = elems
        self.pathname = pathname
        self.nocase = nocase
        self._res: dict[str, re.Pattern] = {}

    def _set_re(self, cls: str) -> re.Pattern:
        r = self._res.get(cls)
        if r is None:
            r = self._res[cls] = re.compile(cls, re.S | (re.I if self.nocase else 0))
        return r

    def fullmatch(self, s: str) -> bool:
        if self.nocase:
            s = s.lower()
        memo: dict = {}
        return self._m(self.elems, 0, s, 0, len(s), memo)

    def _m(self, elems, i, s, j, end, memo) -> bool:
        key = (id(elems), i, j, end)
        hit = memo.get(key)
        if hit is not None:
            return hit
        r = self._m2(elems, i, s, j, end, memo)
        memo[key] = r
        return r

    def _m2(self, elems, i, s, j, end, memo) -> bool:
        if i == len(elems):
            return j == end
        e = elems[i]
        k = e[0]
        if k == "lit":
            t = e[1].lower() if self.nocase else e[1]
            return s.startswith(t, j) and j + len(t) <= end and self._m(elems, i + 1, s, j + len(t), end, memo)
        if k == "one":
            return j < end and not (self.pathname and s[j] == "/") and self._m(elems, i + 1, s, j + 1, end, memo)
        if k == "set":
            return j < end and bool(self._set_re(e[1]).fullmatch(s[j])) and self._m(elems, i + 1, s, j + 1, end, memo)
        if k == "star":
            for t in range(j, end + 1):
                if t > j and self.pathname and s[t - 1] == "/":
                    break
                if self._m(elems, i + 1, s, t, end, memo):
                    return True
            return False
        op, alts = e[1], e[2]
        if op == "!":
            for t in range(j, end + 1):
                if not any(self._m(a, 0, s, j, t, memo) for a in alts) and self._m(elems, i + 1, s, t, end, memo):
                    return True
            return False
        if op in ("@", "?"):
            if op == "?" and self._m(elems, i + 1, s, j, end, memo):
                return True
            for t in range(j, end + 1):
                if any(self._m(a, 0, s, j, t, memo) for a in alts) and self._m(elems, i + 1, s, t, end, memo):
                    return True
            return False
        # '*' and '+': one or more repetitions (zero more for '*')
        if op == "*" and self._m(elems, i + 1, s, j, end, memo):
            return True
        for t in range(j + 1, end + 1):
            if any(self._m(a, 0, s, j, t, memo) for a in alts):
                if self._m(elems, i + 1, s, t, end, memo):
                    return True
                # another repetition of the same group
                rest = [("ext", "*", alts)] + list(elems[i + 1:])
                if self._m(rest, 0, s, t, end, memo):
                    return True
        return False


class Matcher:
    """A compiled pattern: ``fullmatch(s)``, and ``regex`` when one exists (for searching)."""

    __slots__ = ("regex", "_bt", "literal", "greedy_is_longest")

    def __init__(self, regex: re.Pattern | None, bt: _Backtrack | None, literal: str | None,
                 greedy_is_longest: bool = True):
        self.regex = regex
        self._bt = bt
        self.literal = literal
        # without alternation, a greedy regex match is the POSIX longest one
        self.greedy_is_longest = greedy_is_longest

    def fullmatch(self, s: str) -> bool:
        if self.literal is not None:
            return s == self.literal
        if self.regex is not None:
            return self.regex.fullmatch(s) is not None
        return self._bt.fullmatch(s)  # type: ignore[union-attr]


@lru_cache(maxsize=2048)
def compile_pattern(p: str, *, pathname: bool = False, nocase: bool = False,
                    extglob: bool = True) -> Matcher:
    elems = parse(p, extglob)
    if not nocase and all(e[0] == "lit" for e in elems):
        return Matcher(None, None, "".join(e[1] for e in elems))
    if _has_negation(elems):
        return Matcher(None, _Backtrack(elems, pathname, nocase), None)
    flags = re.S | (re.I if nocase else 0)
    has_ext = any(e[0] == "ext" for e in elems)
    return Matcher(re.compile(_to_regex(elems, pathname), flags), None, None, not has_ext)


def match(p: str, s: str, *, nocase: bool = False, extglob: bool = True) -> bool:
    """Full match of a string against a pattern (case, [[ == ]])."""
    return compile_pattern(p, nocase=nocase, extglob=extglob).fullmatch(s)


@lru_cache(maxsize=1024)
@lru_cache(maxsize=1024)
def literal_text(p: str) -> str | None:
    """The text a pattern matches when it has no glob characters at all, else None."""
    elems = parse(p)
    if all(e[0] == "lit" for e in elems):
        return "".join(e[1] for e in elems)
    return None



@lru_cache(maxsize=1024)
def _anchored(p: str, nocase: bool):
    """Regexes for the trimming operators, for patterns without ext-globs (where a greedy
    match is the longest and a lazy one the shortest): (prefix greedy, prefix lazy,
    suffix leftmost) -- or None when the pattern needs the general path."""
    elems = parse(p)
    if any(e[0] == "ext" for e in elems):
        return None
    flags = re.S | (re.I if nocase else 0)
    greedy = _to_regex(elems, False)
    lazy = greedy.replace(".*", ".*?")  # _to_regex writes a star as exactly ".*"
    return (re.compile(greedy, flags), re.compile(lazy, flags),
            re.compile(f"(?:{greedy})\\Z", flags))


def strip_prefix(s: str, p: str, longest: bool, nocase: bool = False) -> str:
    """``${s#p}`` / ``${s##p}``."""
    lit = None if nocase else literal_text(p)
    if lit is not None:
        return s[len(lit):] if s.startswith(lit) else s
    fast = _anchored(p, nocase)
    if fast is not None:
        mo = (fast[0] if longest else fast[1]).match(s)
        return s[mo.end():] if mo is not None else s
    m = compile_pattern(p, nocase=nocase)
    rng = range(len(s), -1, -1) if longest else range(len(s) + 1)
    for k in rng:
        if m.fullmatch(s[:k]):
            return s[k:]
    return s


def strip_suffix(s: str, p: str, longest: bool, nocase: bool = False) -> str:
    """``${s%p}`` / ``${s%%p}``."""
    lit = None if nocase else literal_text(p)
    if lit is not None:
        return s[: len(s) - len(lit)] if lit and s.endswith(lit) else s
    fast = _anchored(p, nocase)
    if fast is not None and longest:
        mo = fast[2].search(s)  # the leftmost start that reaches the end: the longest
        return s[:mo.start()] if mo is not None else s
    m = compile_pattern(p, nocase=nocase)
    n = len(s)
    first = _first_literal(p) if not nocase else None
    if not longest and first:
        # shortest suffix: try start positions from the end, only where it can begin
        k = s.rfind(first)
        while k >= 0:
            if m.fullmatch(s[k:]):
                return s[:k]
            k = s.rfind(first, 0, k)
        return s  # a pattern that starts with a literal cannot match the empty suffix
    rng = range(n + 1) if longest else range(n, -1, -1)
    for k in rng:
        if m.fullmatch(s[k:]):
            return s[:k]
    return s


@lru_cache(maxsize=1024)
def _first_literal(p: str) -> str | None:
    elems = parse(p)
    if elems and elems[0][0] == "lit" and elems[0][1]:
        return elems[0][1][0]
    return None


def _at(p: str, i: int) -> str:
    return p[i] if i < len(p) else ""


def match_length(p: str) -> int:
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
        elif c in "?+!@" and i < n and p[i] == "(":
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
               nocase: bool = False, fixed: int = -1) -> tuple[int, int] | None:
    """Leftmost-longest match of ``p`` in ``s`` from ``start`` (``anchor`` '#' or '%').
    ``fixed`` >= 0: only matches of that length are tried (see match_length)."""
    m = compile_pattern(p, nocase=nocase)
    n = len(s)
    if fixed >= 0:
        if anchor == "#":
            k = start + fixed
            return (start, k) if k <= n and m.fullmatch(s[start:k]) else None
        if anchor == "%":
            k = n - fixed
            return (k, n) if k >= start and m.fullmatch(s[k:]) else None
        for i in range(start, n - fixed + 1):
            if m.fullmatch(s[i:i + fixed]):
                return i, i + fixed
        return None
    if anchor == "#":
        for k in range(n, start - 1, -1):
            if m.fullmatch(s[start:k]):
                return start, k
        return None
    if anchor == "%":
        for k in range(start, n + 1):
            if m.fullmatch(s[k:]):
                return k, n
        return None
    if m.regex is not None:
        rx = m.regex
        for i in range(start, n + 1):
            best = None
            mo = rx.match(s, i)
            if mo is None:
                continue
            # the regex engine is greedy, not POSIX-longest: widen if a longer match exists
            best = mo.end()
            if not m.greedy_is_longest:
                for k in range(n, best, -1):
                    if rx.fullmatch(s, i, k):
                        best = k
                        break
            return i, best
        return None
    if m.literal is not None:
        if m.literal == "":
            return (start, start)
        i = s.find(m.literal, start)
        return (i, i + len(m.literal)) if i >= 0 else None
    for i in range(start, n + 1):
        for k in range(n, i - 1, -1):
            if m.fullmatch(s[i:k]):
                return i, k
    return None
