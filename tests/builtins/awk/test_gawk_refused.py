"""gawk features pysh's awk lacks are refused with a clear message, never ignored."""

import pytest

from tests.harness import run_cmd, sandbox


@pytest.mark.parametrize("prog,needle", [
    ('@include "lib.awk"\nBEGIN { print 1 }', "@include is not supported"),
    ('@load "ordchr"\nBEGIN { print 1 }', "@load is not supported"),
    ('@namespace "x"\nBEGIN { print 1 }', "@namespace is not supported"),
    ('function f(x) { return x } BEGIN { g = "f"; print @g(1) }', "indirect function calls"),
    ("BEGIN { x = @/ab/; print x }", "typed regexp constants (@/re/) is not supported"),
    ('BEGIN { FPAT = "[^,]*" } { print $2 }', "`FPAT' (a gawk extension) is not supported"),
    ('BEGIN { FIELDWIDTHS = "2 3" } { print $2 }', "`FIELDWIDTHS' (a gawk extension)"),
    ("{ print RT }", "`RT' (a gawk extension)"),
    ('BEGIN { for (f in FUNCTAB) print f }', "`FUNCTAB' (a gawk extension)"),
])
def test_refused(prog, needle):
    with sandbox({}) as ex:
        r = run_cmd(ex, ["awk", prog], b"a,b\n")
    assert r.status == 2, r
    assert needle in r.err and r.out == ""
