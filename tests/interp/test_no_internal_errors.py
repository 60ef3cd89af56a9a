"""No internal error from script input (issue 12, item 8): the fuzzer's bounded run, and
the findings that bash cannot record (its own behaviour there is a crash or needs a limit).
The recorded ones are in tests/interp/fidelity/internal_errors.py."""

from __future__ import annotations

import subprocess
import sys

from tests.interp.hostile import ROOT, Case, assert_clean, run_hostile, run_python


def test_fuzzer_finds_nothing():
    # a fixed sequence of examples (derandomized): `make fuzz` explores at random, longer
    p = subprocess.run([sys.executable, "-m", "tests.fuzz", "--seconds", "12", "--derandomize"],
                       capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    assert "no failure" in p.stderr


def test_a_trap_that_signals_itself_is_a_clean_limit():
    # bash recurses until its stack overflows (SIGSEGV); here the depth is a call's
    outs = run_hostile([Case('trap "kill -INT $$" INT; kill -INT $$; echo after', timeout=20),
                        Case('trap "echo t; kill -USR1 \\$\\$" USR1; kill -USR1 $$', timeout=20)])
    for o in outs:
        assert_clean(o)
        assert o.status == 126 and "pysh: call depth: limit exceeded (100 nested trap" in o.err, o


WRITE_PAST_LIMIT = r"""
from pysh import Limits, Sandbox
with Sandbox(limits=Limits(max_output_bytes=1000)) as sb:
    r = sb.run("yes\necho after >&2; echo x")
    print(r.exit_code, repr(r.stderr[-300:]))
"""


def test_the_shell_writing_past_the_output_limit_dies_as_of_sigpipe():
    # the shell's own echo after the limit closed stdout: bash dies of SIGPIPE (141)
    out = run_python(WRITE_PAST_LIMIT, timeout=60)
    assert out.startswith("141 ") and "internal error" not in out, out
