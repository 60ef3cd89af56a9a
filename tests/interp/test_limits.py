"""Every limit fires with a clean message and its documented status, never a traceback
or a hang (the run deadline of each test is its own safety net)."""

from __future__ import annotations

import pytest

from pysh.shellkit import Limits
from tests.interp.runner import run_script

BASE = dict(timeout=20.0)


@pytest.mark.parametrize("name,limits,script,status,message", [
    ("timeout", dict(timeout=0.3), "echo start; while :; do :; done", 124,
     "pysh: timeout: limit exceeded (0.3s)"),
    ("timeout-in-sleep", dict(timeout=0.3), "sleep 100", 124, "pysh: timeout: limit exceeded (0.3s)"),
    ("timeout-blocked-on-pipe", dict(timeout=0.3), "yes | { sleep 50; }", 124,
     "pysh: timeout: limit exceeded (0.3s)"),
    ("commands", dict(max_commands=50), "for i in $(seq 100); do :; done", 126,
     "pysh: commands: limit exceeded (50 commands)"),
    ("loop", dict(max_loop_iterations=1000), "while :; do :; done", 126,
     "pysh: loop: limit exceeded (1000 iterations)"),
    ("call-depth", dict(max_call_depth=50), "f() { f; }; f", 126,
     "pysh: call depth: limit exceeded (50 nested calls)"),
    ("eval-depth", dict(max_call_depth=30), "e='eval \"$e\"'; eval \"$e\"", 126,
     "pysh: call depth: limit exceeded (30 nested calls)"),
    ("string", dict(max_string_length=1000), "x=a; while :; do x=$x$x; done", 126,
     "pysh: string: limit exceeded (1000 bytes)"),
    ("array", dict(max_array_size=100), "a=(); for i in $(seq 200); do a+=($i); done", 126,
     "pysh: array: limit exceeded (100 elements)"),
    ("brace", dict(max_brace_expansion=1000), "echo {1..10}{1..10}{1..10}{1..10}", 126,
     "pysh: line 1: brace expansion: limit exceeded (1000 words)"),
    ("brace-range", dict(max_brace_expansion=1000), "echo {1..100000000000}", 126,
     "pysh: line 1: brace expansion: limit exceeded (1000 words)"),
    ("heredoc", dict(max_heredoc_size=10), "cat <<EOF\n0123456789abcdef\nEOF", 126,
     "pysh: here-document: limit exceeded (10 bytes)"),
    ("substitution-depth", dict(max_substitution_depth=5), "f() { echo $(f); }; f", 126,
     "pysh: substitution depth: limit exceeded (5 levels)"),
])
def test_limit(name, limits, script, status, message):
    r = run_script(script, limits=Limits(**{**BASE, **limits}))
    assert r.status == status, r
    assert message in r.err, r.err
    assert "Traceback" not in r.err


def test_arithmetic_is_64_bit_and_instant():
    r = run_script("echo $((1<<100000)) $((2**64)) $((2**63)) $(( 9223372036854775807 + 1 ))")
    assert r.out == "4294967296 0 -9223372036854775808 -9223372036854775808\n"


def test_pipeline_of_a_billion_stops_at_once():
    r = run_script("seq 1 1000000000 | head -n 2; yes | head -c 5", limits=Limits(timeout=10))
    assert (r.out, r.status) == ("1\n2\ny\ny\ny", 0)


def test_deep_recursion_runs_as_in_bash():
    # bash recurses thousands of levels; Python's default stack depth allowed under 100
    r = run_script("n=0; f() { n=$((n+1)); if [ $n -lt 500 ]; then f; fi; }; f; echo $n")
    assert (r.out, r.status) == ("500\n", 0), r


def test_recursion_past_the_python_stack_is_a_clean_limit():
    # subshells cost more Python frames per level than max_call_depth counts
    r = run_script("f() { ( f ); }; f", limits=Limits(timeout=20.0, max_call_depth=100_000))
    assert r.status == 126, r
    assert "pysh: call depth: limit exceeded (" in r.err and "stack" in r.err, r.err
    assert "Traceback" not in r.err and "internal error" not in r.err
