"""Helpers for the awk golden case groups (tests/golden/cases/awk_*.py)."""

from __future__ import annotations

# gawk names itself in its messages; pysh's awk says "awk:"
SUBST = [(r"(?m)^gawk: ", "awk: ")]


def case(name, prog, stdin="", args=(), files=None, oracle=None, opts=(), env=None, subst=None):
    """One golden case: `awk OPTS PROG ARGS`, recorded from `gawk --posix` unless told."""
    argv = ["awk", *opts, prog, *args] if prog is not None else ["awk", *opts, *args]
    o = oracle or ["gawk", "--posix"]
    c = dict(name=name, argv=argv, stdin=stdin, oracle=[*o, *argv[1:]], subst=SUBST + list(subst or []))
    if files:
        c["files"] = files
    if env:
        c["env"] = env
    return c
