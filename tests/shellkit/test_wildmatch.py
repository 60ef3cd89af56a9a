"""The bounded shell-pattern matcher against a plain definitional one, and its bounds.

The reference below follows the definition of each element directly (all the ends a
pattern can reach from a start, by recursion over the string): exponential in general,
fine on short subjects, and written independently of the bit-set engine it checks.
"""

from __future__ import annotations

import re
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pysh.shellkit import Budget, LimitExceeded, Limits
from pysh.shellkit import wildmatch as wm

ALPHABET = "ab.A/"


def ref_ends(elems, s, i, nocase=False):
    """Every j such that elems match s[i:j]."""
    flags = re.S | (re.I if nocase else 0)
    ends = {i}
    for e in elems:
        nxt = set()
        for p in ends:
            k = e[0]
            if k == "lit":
                t = s[p:p + len(e[1])]
                if len(t) == len(e[1]) and re.fullmatch(re.escape(e[1]), t, flags):
                    nxt.add(p + len(e[1]))
            elif k == "one":
                if p < len(s):
                    nxt.add(p + 1)
            elif k == "set":
                if p < len(s) and re.fullmatch(e[1], s[p], flags):
                    nxt.add(p + 1)
            elif k == "star":
                nxt.update(range(p, len(s) + 1))
            else:
                nxt |= ref_ext(e[1], e[2], s, p, nocase)
        ends = nxt
    return ends


def ref_ext(op, alts, s, p, nocase):
    one = set()
    for a in alts:
        one |= ref_ends(a, s, p, nocase)
    if op == "@":
        return one
    if op == "?":
        return one | {p}
    if op == "!":
        return set(range(p, len(s) + 1)) - one
    seen = {p} if op == "*" else set(one)
    todo = list(seen)
    while todo:
        q = todo.pop()
        for a in alts:
            for r in ref_ends(a, s, q, nocase):
                if r not in seen:
                    seen.add(r)
                    todo.append(r)
    return seen


atoms = st.sampled_from([("lit", "a"), ("lit", "b"), ("lit", "ab"), ("lit", "."), ("one",),
                         ("star",), ("set", "[ab]"), ("set", "[^a]"), ("set", "[A-Z/]")])


def _patterns(ext: bool):
    if not ext:
        return st.lists(atoms, max_size=6)
    return st.recursive(
        st.lists(atoms, max_size=4),
        lambda inner: st.lists(
            st.one_of(atoms, st.tuples(st.just("ext"), st.sampled_from("@*+?!"),
                                       st.lists(inner, min_size=1, max_size=3))),
            max_size=4),
        max_leaves=10)


def _check(elems, s, nocase):
    m = wm.compile_elems(elems, nocase)
    ends = ref_ends(elems, s, 0, nocase)
    assert m.fullmatch(s) == (len(s) in ends)
    assert m.prefix(s, False) == (min(ends) if ends else -1)
    assert m.prefix(s, True) == (max(ends) if ends else -1)
    starts = [i for i in range(len(s) + 1) if len(s) in ref_ends(elems, s, i, nocase)]
    assert m.suffix(s, False) == (max(starts) if starts else -1)
    assert m.suffix(s, True) == (min(starts) if starts else -1)
    for start in (0, min(2, len(s))):
        want = None
        for i in range(start, len(s) + 1):
            e = ref_ends(elems, s, i, nocase)
            if e:
                want = (i, max(e))
                break
        assert m.search(s, start) == want


subjects = st.text(alphabet=ALPHABET, max_size=8)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_patterns(False), subjects, st.booleans())
def test_plain_patterns_agree_with_the_definition(elems, s, nocase):
    _check(elems, s, nocase)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_patterns(True), subjects, st.booleans())
def test_extglob_patterns_agree_with_the_definition(elems, s, nocase):
    _check(elems, s, nocase)


def test_long_subjects_take_the_same_answers(monkeypatch):
    # subjects past _SHORT build their masks another way: check both ways agree
    elems = [("star",), ("ext", "+", [[("set", "[ab]")], [("lit", "ab")]]), ("lit", "."),
             ("ext", "!", [[("lit", "x")]])]
    s = "ab" * 200 + "." + "xy"
    got = [wm.compile_elems(elems).prefix(s, longest) for longest in (False, True)]
    monkeypatch.setattr(wm, "_SHORT", 10_000)
    assert got == [wm.compile_elems(elems).prefix(s, longest) for longest in (False, True)]
    assert got == [401, 403]


@pytest.mark.parametrize("elems,subject", [
    # *a*a*a*a*a*b: exponential for a backtracking regex
    ([("star",), *[("lit", "a"), ("star",)] * 5, ("lit", "b")], "a" * 100_000),
    # *(a|a)b and +(a|aa)b
    ([("ext", "*", [[("lit", "a")], [("lit", "a")]]), ("lit", "b")], "a" * 3000),
    ([("ext", "+", [[("lit", "a")], [("lit", "aa")]]), ("lit", "b")], "a" * 3000),
    # runs of a class over a long subject
    ([("ext", "+", [[("set", "[a-z]")]]), ("lit", "b")], "a" * 1_000_000),
])
def test_hostile_patterns_are_fast(elems, subject):
    m = wm.compile_elems(elems)
    t = time.monotonic()
    assert not m.fullmatch(subject)
    assert m.prefix(subject, True) == -1 and m.search(subject) is None
    assert time.monotonic() - t < 5


def test_a_long_extglob_match_polls_the_deadline():
    # a negation after a star: one simulation per start position, O(n^2) in all
    elems = [("star",), ("ext", "!", [[("star",), ("lit", "a"), ("star",), ("lit", "b")]]),
             ("lit", "c")]
    b = Budget(Limits(timeout=0.2))
    t = time.monotonic()
    with pytest.raises(LimitExceeded):
        wm.compile_elems(elems).fullmatch("ab" * 200_000, b)
    assert time.monotonic() - t < 10  # the deadline stopped it; a full run is O(n^2) on 400k
