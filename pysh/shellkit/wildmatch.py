"""Shell-pattern matching whose cost is bounded, whatever the pattern and the subject.

A naive translation of a glob to a backtracking regex is exponential: ``*a*a*a*b``
against ``aaaa...`` tries every way to place the ``a``s, and extglob's ``*(a|a)b``
every way to split the run. Each dialect's parser (bash patterns in the interpreter,
fnmatch(3) in find, ...) produces a list of elements, and this module matches them:

* ``("lit", text)``, ``("one",)`` (any character), ``("set", cls)`` (``cls`` is the
  regex source of one character: ``[a-z]``), ``("star",)`` -- plain patterns. Between
  two stars a segment has a fixed length, and its leftmost placement is always as good
  as any later one (the next star absorbs the gap), so the middle segments are matched
  inside atomic groups: one regex, linear time (:func:`star_regex`).
* ``("ext", op, [alternatives])`` with ``op`` in ``@*+?!`` -- extglob. These are
  matched by :class:`Ext`, a simulation over *sets of positions* held as the bits of
  an int: each element maps the set of positions where it may start to the set where
  it may end, with a few big-int operations per element. Repetition is a fixed point
  (at most n+1 rounds), negation runs once per start position: polynomial, never
  exponential, and every round polls the run's budget so the deadline fires inside
  one match.

Every engine answers the four questions the shell asks: a full match (``case``,
``[[ == ]]``, filename expansion), the shortest or longest matching prefix / suffix
(``${x#p}`` ``${x##p}`` ``${x%p}`` ``${x%%p}``) and the leftmost-longest match
(``${x/p/r}``).
"""

from __future__ import annotations

import re
from functools import lru_cache

ANY = "."  # the regex source of "any character" (the subject is matched with re.S)


def star_regex(segments: list[str], *, shortest: bool = False) -> str:
    """The regex source for ``S0*S1*...*Sk`` from the regex sources of the fixed-length
    segments between the stars (``k+1`` of them). Anchored at the start; to be used with
    ``fullmatch`` (or ``match`` for the longest prefix). ``shortest``: the last segment
    is placed leftmost too, so ``match`` ends at the shortest matching prefix.

    A star must match any character here (re.S): with stars that stop at ``/`` the
    leftmost placement is not always the one that succeeds."""
    if len(segments) == 1:
        return segments[0]
    mid = "".join(f"(?>.*?{s})" for s in segments[1:-1])
    if shortest:
        return f"{segments[0]}{mid}(?>.*?{segments[-1]})"
    return f"{segments[0]}{mid}.*{segments[-1]}"


def join_stars(pieces: list[str | None]) -> str:
    """:func:`star_regex` from a glob translated piece by piece: regex text for the
    fixed-length parts, ``None`` for each star."""
    segs = [""]
    for p in pieces:
        if p is None:
            segs.append("")
        else:
            segs[-1] += p
    return star_regex(segs)


def reverse(elems: list[tuple]) -> list[tuple]:
    """The pattern that matches the reversed strings (for the suffix questions)."""
    out: list[tuple] = []
    for e in reversed(elems):
        if e[0] == "lit":
            out.append(("lit", e[1][::-1]))
        elif e[0] == "ext":
            out.append(("ext", e[1], [reverse(a) for a in e[2]], *e[3:]))
        else:
            out.append(e)
    return out


def _source(e: tuple) -> str:
    k = e[0]
    if k == "lit":
        return re.escape(e[1])
    if k == "one":
        return ANY
    return e[1]


class Plain:
    """A pattern of literals, ``?``, brackets and stars: every question is one or two
    regex calls, each linear in the subject."""

    __slots__ = ("star_count", "head_len", "full", "short", "long", "head", "rest", "_rev",
                 "_elems", "_flags")

    def __init__(self, elems: list[tuple], flags: int):
        segs: list[list[tuple]] = [[]]
        for e in elems:
            if e[0] == "star":
                segs.append([])
            else:
                segs[-1].append(e)
        src = ["".join(_source(e) for e in seg) for seg in segs]
        self.star_count = len(segs) - 1
        self.head_len = sum(len(e[1]) if e[0] == "lit" else 1 for e in segs[0])
        self.full = re.compile(star_regex(src), flags)
        self.short = re.compile(star_regex(src, shortest=True), flags)
        self.long = self.full
        self.head = re.compile(src[0], flags)
        self.rest = re.compile(star_regex([""] + src[1:]), flags) if self.star_count else None
        self._elems = elems
        self._flags = flags
        self._rev: Plain | None = None

    def fullmatch(self, s: str, budget=None) -> bool:
        return self.full.fullmatch(s) is not None

    def prefix(self, s: str, longest: bool, budget=None) -> int:
        """The end of the shortest / longest matching prefix of s, or -1."""
        m = (self.long if longest else self.short).match(s)
        return -1 if m is None else m.end()

    def suffix(self, s: str, longest: bool, budget=None) -> int:
        """The start of the shortest / longest matching suffix of s, or -1."""
        if self._rev is None:
            self._rev = Plain(reverse(self._elems), self._flags)
        k = self._rev.prefix(s[::-1], longest)
        return -1 if k < 0 else len(s) - k

    def search(self, s: str, start: int = 0, budget=None) -> tuple[int, int] | None:
        """The leftmost-longest match at or after ``start``."""
        m = self.head.search(s, start)
        if m is None:
            return None
        i = m.start()
        if self.rest is None:
            return i, m.end()
        # if the rest fails after the leftmost head it fails after any later one
        r = self.rest.match(s, i + self.head_len)
        return None if r is None else (i, r.end())


@lru_cache(maxsize=512)
def _char_pred(src: str, flags: int):
    return re.compile(src, flags).fullmatch


_I = int(re.I)
_SHORT = 256  # subjects up to this long get their masks from one pass over the characters


def _one_char(alts: list[list[tuple]]) -> str | None:
    """The regex source of one character when every alternative is exactly one."""
    srcs = []
    for a in alts:
        if len(a) != 1 or a[0][0] not in ("lit", "one", "set") or (
                a[0][0] == "lit" and len(a[0][1]) != 1):
            return None
        srcs.append(_source(a[0]))
    return srcs[0] if len(srcs) == 1 else "(?:" + "|".join(srcs) + ")"


def _prepare(elems: list[tuple]) -> list[tuple]:
    """Ext elements get a fourth field: their one-character class, or None."""
    out = []
    for e in elems:
        if e[0] == "ext":
            alts = [_prepare(a) for a in e[2]]
            e = ("ext", e[1], alts, _one_char(alts) if e[1] in "*+" else None)
        out.append(e)
    return out


class _Run:
    """One subject and the bit masks of where each character class occurs (built lazily).
    Where the set of positions holds one position (the common case on short subjects)
    the elements test the characters directly instead."""

    __slots__ = ("s", "n", "full", "flags", "masks", "chars", "budget", "nocase")

    def __init__(self, s: str, flags: int, budget):
        self.s = s
        n = self.n = len(s)
        self.full = (1 << (n + 1)) - 1
        self.flags = flags
        self.nocase = flags & _I != 0
        self.masks: dict[str, int] = {ANY: (1 << n) - 1}
        self.budget = budget
        self.chars: dict[str, int] | None = None  # character -> where it occurs

    def _chars(self) -> dict[str, int]:
        chars = self.chars
        if chars is None:
            chars = self.chars = {}
            for i, c in enumerate(self.s):
                chars[c] = chars.get(c, 0) | 1 << i
        return chars

    def lit(self, c: str) -> int:
        if self.n <= _SHORT and not self.nocase:
            return self._chars().get(c, 0)
        return self.mask(re.escape(c))

    def mask(self, src: str) -> int:
        m = self.masks.get(src)
        if m is None:
            pred = _char_pred(src, self.flags)
            if self.n <= _SHORT:
                m = 0
                for c, bits in self._chars().items():
                    if pred(c):
                        m |= bits
            else:
                table = {ord(c): "1" if pred(c) else "0" for c in set(self.s)}
                # bit p is character p: the binary number is the subject read backwards
                bits = self.s.translate(table)[::-1]
                m = int(bits, 2) if bits else 0
            self.masks[src] = m
        return m

    def tick(self) -> None:
        if self.budget is not None:
            self.budget.check()

    def seq(self, elems: list[tuple], S: int) -> int:
        """The positions where ``elems`` can end, starting from any position in S."""
        s = self.s
        for e in elems:
            if not S:
                return 0
            k = e[0]
            single = not S & (S - 1)
            if k == "lit":
                t = e[1]
                if not self.nocase and (single or S.bit_count() <= 8):
                    ends = 0
                    while S:
                        low = S & -S
                        S ^= low
                        if s.startswith(t, low.bit_length() - 1):
                            ends |= low << len(t)
                    S = ends
                else:
                    for c in t:
                        S = (S & self.lit(c)) << 1
            elif k == "one":
                S = (S & self.masks[ANY]) << 1
            elif k == "set":
                if single:
                    p = S.bit_length() - 1
                    S = S << 1 if p < self.n and _char_pred(e[1], self.flags)(s[p]) else 0
                else:
                    S = (S & self.mask(e[1])) << 1
            elif k == "star":
                S = self.full & ~((S & -S) - 1)  # every position from the first on
            else:
                S = self.ext(e[1], e[2], e[3], S)
        return S

    def alts(self, alts: list[list[tuple]], S: int) -> int:
        r = 0
        for a in alts:
            r |= self.seq(a, S)
        return r

    def ext(self, op: str, alts: list[list[tuple]], one: str | None, S: int) -> int:
        if op == "@":
            return self.alts(alts, S)
        if op == "?":
            return S | self.alts(alts, S)
        if op == "!":
            # from each start p: every end q >= p where no alternative matches s[p:q]
            out = 0
            while S:
                self.tick()
                low = S & -S
                S ^= low
                out |= (self.full & ~(low - 1)) & ~self.alts(alts, low)
            return out
        if one is not None:
            # runs of one character class (``+([0-9])``)
            if not S & (S - 1):
                p = q = S.bit_length() - 1
                pred = _char_pred(one, self.flags)
                s, n = self.s, self.n
                while q < n and pred(s[q]):
                    q += 1
                if op == "+":
                    p += 1
                # every position from p to q (none when a '+' found no character)
                return ((1 << (q + 1)) - 1) & ~((1 << p) - 1)
            # adding the starts to the mask carries each one to the end of its run
            chars = self.mask(one)
            if op == "+":
                S = (S & chars) << 1
            d = S & chars
            return S | d | ((chars + d) ^ chars)
        # '*' and '+': the fixed point of one more repetition
        reach = S if op == "*" else self.alts(alts, S)
        front = reach
        while front:
            self.tick()
            front = self.alts(alts, front) & ~reach
            reach |= front
        return reach


def _high(bits: int) -> int:
    return bits.bit_length() - 1


def _low(bits: int) -> int:
    return (bits & -bits).bit_length() - 1


class Ext:
    """Any pattern, extglob included, by position-set simulation (see the module doc)."""

    __slots__ = ("elems", "flags", "_rev")

    def __init__(self, elems: list[tuple], flags: int):
        self.elems = _prepare(elems)
        self.flags = flags
        self._rev: Ext | None = None

    def _reversed(self) -> Ext:
        if self._rev is None:
            self._rev = Ext(reverse(self.elems), self.flags)
        return self._rev

    def _ends(self, s: str, start: int, budget) -> int:
        run = _Run(s, self.flags, budget)
        return run.seq(self.elems, 1 << start)

    def fullmatch(self, s: str, budget=None) -> bool:
        return bool(self._ends(s, 0, budget) >> len(s) & 1)

    def prefix(self, s: str, longest: bool, budget=None) -> int:
        ends = self._ends(s, 0, budget)
        if not ends:
            return -1
        return _high(ends) if longest else _low(ends)

    def suffix(self, s: str, longest: bool, budget=None) -> int:
        k = self._reversed().prefix(s[::-1], longest, budget)
        return -1 if k < 0 else len(s) - k

    def search(self, s: str, start: int = 0, budget=None) -> tuple[int, int] | None:
        global _last_search
        last = _last_search  # ${x//p/r} searches the same subject again after each match
        if last is not None and last[0] is self and last[1] is s:
            run, starts = last[2], last[3]
        else:
            # every start of a match: the ends of the reversed pattern run on the reversed
            # subject from every position, read backwards
            n = len(s)
            rev = _Run(s[::-1], self.flags, budget)
            back = rev.seq(self._reversed().elems, rev.full)
            starts = int(format(back, f"0{n + 1}b")[::-1], 2) if back else 0
            run = _Run(s, self.flags, budget)
            _last_search = (self, s, run, starts)
        run.budget = budget
        starts >>= start
        if not starts:
            return None
        i = start + _low(starts)
        return i, _high(run.seq(self.elems, 1 << i))


_last_search: tuple | None = None  # (matcher, subject, run, starts): one entry, for all


def compile_elems(elems: list[tuple], nocase: bool = False) -> Plain | Ext:
    """The bounded matcher for a parsed pattern."""
    flags = int(re.S | (re.I if nocase else 0))  # an int: enum arithmetic is slow
    if any(e[0] == "ext" for e in elems):
        return Ext(elems, flags)
    return Plain(elems, flags)
