"""awk's regexes through the team's POSIX layer (:mod:`pysh.shellkit.regex`, dialect "awk").

Two forms of one awk ERE:

* ``search(s)``: does it match anywhere (patterns, ``~``). The layer's
  translation, compiled with the stdlib ``re`` engine when the text is plain
  enough (it is faster per call on short strings), else the layer's own
  ``regex`` object; either way long subjects of a pattern that could backtrack
  badly go through the layer's guarded (deadline-aware) call.
* ``extent(s, pos)``: the leftmost-longest match (match, sub, gsub, split, FS,
  RS), from the layer's POSIX mode where leftmost-first would differ.
"""

from __future__ import annotations

import re

from pysh.shellkit.regex import RegexError as _LayerError
from pysh.shellkit.regex import compile_posix


class RegexError(Exception):
    pass


def _compile(source: str, longest: bool, budget, icase: bool = False):
    try:
        return compile_posix(source, extended=True, dialect="awk", dot_newline=True,
                             longest=longest, budget=budget, icase=icase)
    except _LayerError as e:
        raise RegexError(str(e)) from None


def _fast(rx):
    """The stdlib-re twin of a layer pattern, when it means the same there."""
    text = rx.python
    if rx.risky or rx.posix or rx.bytes_mode or "[:" in text or "\\p{" in text or "(?" in text:
        return None
    try:
        return re.compile(text, re.I if rx.raw.flags & re.I else 0)  # the same bit in regex
    except (re.error, OverflowError, RecursionError):
        return None


def _limit(rx) -> int:
    lim = getattr(rx, "_limit", None)
    return lim if isinstance(lim, int) else 0


class AwkRegex:
    """One compiled awk regex bound to the run's budget."""

    __slots__ = ("source", "search", "extent", "_rx", "fast_sub", "fast_lim")

    def __init__(self, source: str, budget=None, icase: bool = False):
        self.source = source
        rx = self._rx = _compile(source, False, budget, icase)
        self.search = _searcher(rx)
        longest = _compile(source, True, budget, icase)
        self.fast_sub = None
        self.fast_lim = -1
        if longest.posix:
            self.extent = longest.search
        else:
            self.extent = _searcher(rx, with_pos=True)
            fast = _fast(rx)
            text = rx.python
            if fast is not None and fast.fullmatch("") is None and "\\b" not in text \
                    and "\\B" not in text and "(?" not in text:
                # never matches the empty string: re.subn agrees with awk's sub/gsub
                self.fast_sub = fast.subn
                lim = _limit(rx)
                self.fast_lim = lim if rx.budget is not None else 1 << 62


def _searcher(rx, with_pos: bool = False):
    fast = _fast(rx)
    if fast is None:
        return rx.search
    lim = _limit(rx)
    fs = fast.search
    if rx.budget is None or lim >= 1 << 60:
        return fs
    guarded = rx.search
    if with_pos:
        def search_pos(s, pos=0):
            if len(s) > lim:
                return guarded(s, pos)
            return fs(s, pos)
        return search_pos

    def search(s):
        if len(s) > lim:
            return guarded(s)
        return fs(s)
    return search


def check(source: str) -> None:
    """Raise RegexError when source is not a valid awk regex."""
    _compile(source, False, None)
