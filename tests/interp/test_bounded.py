"""Hostile scripts that once ran forever under any timeout (issue 12): each now answers,
or stops at its deadline with the limit's status, within its timeout plus one second.

All cases run in one child process with a hard kill (tests/interp/hostile.py).
"""

from __future__ import annotations

import pytest

from tests.interp.hostile import Case, assert_clean, run_hostile

A3000 = "x=$(printf 'a%.0s' {1..3000}); "
A40 = "x=$(printf 'a%.0s' {1..40}); "
LONG_NAME = "a" * 250
SIX = "*a*a*a*a*a*a*b"

# id -> (case, expected status, expected stdout or None for "any")
CASES: dict[str, tuple[Case, int, str | None]] = {
    # -- pattern matching: every one of these was exponential
    "cond-stars": (Case(A3000 + "[[ $x == *a*a*a*a*a*b ]]; echo $?"), 0, "1\n"),
    "cond-stars-match": (Case(A3000 + "[[ ${x}b == *a*a*a*a*a*b ]]; echo $?"), 0, "0\n"),
    "subst-stars": (Case(A3000 + "y=${x//*a*a*a*a*b/}; echo ${#y}"), 0, "3000\n"),
    "trim-stars": (Case(A3000 + "y=${x##*a*a*a*a*b}; z=${x%%*a*a*a*a*b}; echo ${#y} ${#z}"),
                   0, "3000 3000\n"),
    "case-extglob": (Case("shopt -s extglob; " + A40
                          + "case $x in *(a|a)b) echo m;; *) echo no;; esac"), 0, "no\n"),
    "cond-extglob": (Case(A40 + "[[ $x == *(a|a)b ]]; echo $?"), 0, "1\n"),
    "cond-extglob-3000": (Case(A3000 + "[[ $x == +(a|aa)b ]]; echo $?; "
                               "[[ ${x}b == +(a|aa)b ]]; echo $?"), 0, "1\n0\n"),
    "glob-long-name": (Case(f"echo {SIX}; echo {SIX[:-1]}a | wc -c",
                            files={LONG_NAME: "x"}), 0, f"{SIX}\n251\n"),
    "find-name": (Case(f"find . -name '{SIX}'; find . -name '{SIX[:-1]}a' | wc -l",
                       files={LONG_NAME: "x"}), 0, "1\n"),
    "find-path": (Case(f"find . -path '*{SIX}' | wc -l; find . -ipath './{SIX.upper()}'",
                       files={LONG_NAME: "x"}), 0, "0\n"),
    "ls-ignore": (Case(f"ls --ignore='{SIX}' | wc -l", files={LONG_NAME: "x"}), 0, "1\n"),
    # a negation after a star is quadratic: it must stop at the deadline, not past it
    "extglob-deadline": (Case("x=ab; for i in {1..17}; do x=$x$x; done; "
                              "[[ $x == *!(*a*a*b)c ]]; echo $?", timeout=1.0), 124, ""),
}


@pytest.fixture(scope="module")
def outcomes():
    names = list(CASES)
    return dict(zip(names, run_hostile([CASES[n][0] for n in names]), strict=True))


@pytest.mark.parametrize("name", list(CASES))
def test_hostile_script_is_bounded(outcomes, name):
    case, status, out = CASES[name]
    o = outcomes[name]
    assert_clean(o)
    assert o.elapsed < case.timeout + 1, o
    assert o.status == status, o
    if out is not None:
        assert o.out == out, o
    if status == 124:
        assert "timeout: limit exceeded" in o.err, o
