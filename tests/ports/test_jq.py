"""jq details the golden files cannot show: libjq 1.8 behaviour, runaway programs, errors."""

from __future__ import annotations

import json
import threading

import pytest

from pysh.commands import default_registry
from pysh.interpreter import ExecCommand
from pysh.shellkit import LimitExceeded, Limits
from tests.ports.conftest import run


def test_number_literals_kept(inst):
    r = run(inst, ["jq", "-c", "."], stdin=b"[1.10, 100000000000000000001, 1e1000, 3.0]")
    assert r.out == "[1.10,100000000000000000001,1E+1000,3.0]\n"
    r = run(inst, ["jq", "-c", ".[] + 0"], stdin=b"[1.10, 3.0]")
    assert r.out == "1.1\n3\n"


def test_compile_error_counts_user_lines(inst):
    r = run(inst, ["jq", ".a |||"])
    assert r.status == 3
    assert "at <top-level>, line 1, column 5:" in r.err
    assert r.err.endswith("jq: 1 compile error\n")
    assert "__pysh" not in r.err and "$ENV" not in r.err
    r = run(inst, ["jq", ".a |\n\n ]"])
    assert "line 3" in r.err
    r = run(inst, ["jq", "-n", "$nope"])
    assert r.status == 3 and "$nope is not defined" in r.err


def test_color_and_mono(inst):
    r = run(inst, ["jq", "-C", "-c", "."], stdin=b'{"a":[1,"x",null]}')
    assert "\x1b[" in r.out
    plain = run(inst, ["jq", "-c", "."], stdin=b'{"a":[1,"x",null]}').out
    import re

    assert re.sub(r"\x1b\[[0-9;]*m", "", r.out) == plain
    r = run(inst, ["jq", "-C", "-M", "-c", "."], stdin=b"[1]")
    assert r.out == "[1]\n"


def test_debug_and_stderr_go_to_shell_stderr(inst):
    r = run(inst, ["jq", "-c", "debug | stderr | .a"], stdin=b'{"a": 1}')
    assert r.out == "1\n"
    assert r.err == '["DEBUG:",{"a":1}]\n{"a":1}'


def test_input_filename_and_positions(inst):
    inst.shell.fs.write_bytes("/batch/x.json", b'1\n"s"\n')
    r = run(inst, ["jq", ". + 1", "x.json"])
    assert r.status == 5 and r.out == "2\n"
    assert r.err == "jq: error (at x.json:2): string (\"s\") and number (1) cannot be added\n"
    r = run(inst, ["jq", "-n", "[inputs | input_filename]", "-c", "x.json", "/batch/x.json"])
    assert json.loads(r.out) == ["x.json", "x.json", "/batch/x.json", "/batch/x.json"]
    assert "/dev/fd" not in r.out


def test_directory_empty_and_non_utf8(inst):
    inst.shell.fs.mkdir("/batch/dir2")
    inst.shell.fs.write_bytes("/batch/empty.json", b"")
    inst.shell.fs.write_bytes("/batch/latin.json", b'"caf\xe9"\n')
    r = run(inst, ["jq", ".", "dir2"])
    assert r.status == 2 and r.err == "jq: error: Could not open file dir2: Is a directory\n"
    r = run(inst, ["jq", ".", "empty.json"])
    assert r.status == 0 and r.out == ""
    r = run(inst, ["jq", ".", "latin.json"])
    assert r.status == 0 and r.out == '"caf\ufffd"\n'


def test_help_and_version(inst):
    r = run(inst, ["jq", "--help"])
    assert r.status == 0 and r.out.startswith("Usage:")
    r = run(inst, ["jq", "--version"])
    assert r.status == 0 and r.out.startswith("jq-1.")


def _bounded(fn, seconds=60):
    """Run ``fn`` in a thread; the test fails (instead of hanging CI) if it never returns."""
    box = {}

    def target():
        try:
            box["value"] = fn()
        except BaseException as e:  # noqa: BLE001 - we want LimitExceeded too
            box["error"] = e

    t = threading.Thread(target=target, daemon=True)
    t.start()
    t.join(seconds)
    assert not t.is_alive(), "jq did not stop at the deadline"
    return box


@pytest.mark.parametrize("prog", ["repeat(1)", "[repeat(1)] | length", "last(range(1e18))",
                                  "def f: f; f"])
def test_runaway_programs_stop_at_the_deadline(tree, prog):
    with ExecCommand(tree.ws, registry=default_registry(), limits=Limits(timeout=0.3)) as ex:
        box = _bounded(lambda: run(ex, ["jq", "-n", prog]))
    assert isinstance(box.get("error"), LimitExceeded), box


def test_interrupt_stops_jq(tree):
    with ExecCommand(tree.ws, registry=default_registry()) as ex:
        timer = threading.Timer(0.3, ex.shell.budget.interrupt)
        timer.start()
        from pysh.shellkit import Interrupted

        box = _bounded(lambda: run(ex, ["jq", "-n", "[limit(1e15; repeat(1))] | length"]))
        timer.cancel()
    assert isinstance(box.get("error"), Interrupted), box


def test_null_input_does_not_read_stdin(inst):
    # `yes | jq -n 1` must not wait for the (endless) stdin: -n reads it only for input/inputs
    r = run(inst, ["jq", "-n", "1"], stdin=b"not json")
    assert r.out == "1\n" and r.status == 0


def test_local_time_is_utc_not_the_hosts(inst):
    r = run(inst, ["jq", "-n", "-c", "0 | [localtime, gmtime] | .[0] == .[1]"])
    assert r.out == "true\n"
    r = run(inst, ["jq", "-n", "-r", '0 | strflocaltime("%H:%M %Y")'])
    assert r.out == "00:00 1970\n"


def test_refuses_when_libjq_would_load_a_host_jq_file(inst, monkeypatch):
    import pysh.ports.jq as jqmod

    monkeypatch.setattr(jqmod, "_host_jq_file_present", lambda: True)
    r = run(inst, ["jq", "-n", "1"])
    assert r.status == 2 and "~/.jq" in r.err and r.out == ""


# every escape class jq knows (quote, backslash, \b\f\n\r\t, other controls, DEL) and
# non-ASCII on both sides of a surrogate pair, long enough for the chunked printer
_LONG_STRING = ('[range(0; 70000) | [34, 92, 8, 12, 10, 13, 9, 1, 31, 127, 32, 126, 233, 8232,'
                ' 65279, 128512, 1114111][. % 17]] | implode')


@pytest.mark.parametrize("flags", [[], ["-a"], ["-r", "-a"], ["--seq"]])
def test_long_string_printed_as_libjq_prints_it(inst, flags):
    from pysh.ports import _libjq as L

    r = run(inst, ["jq", "-n", *flags, _LONG_STRING])
    assert r.status == 0, r.err
    text = run(inst, ["jq", "-n", "-j", _LONG_STRING]).out.encode("utf-8", "surrogateescape")
    assert len(text) > 70000
    dump = L.dump(L.string(text), L.PRINT_ASCII if "-a" in flags else 0)
    assert r.out.encode("utf-8", "surrogateescape") == (b"\x1e" if "--seq" in flags else b"") \
        + dump + b"\n"


def test_folded_repetition_is_guarded_and_unfolded_programs_agree(tree):
    # number literals whose product could fold a string past the limit are computed at run
    # time through a guarded `*`: the same results, and the limit before any allocation
    prog = ('[(1,2) * (3,4)], ("ab" * 2.5), (3 * "ab"), ("x" * -1), ({a:{b:1}} * {a:{c:2}}), '
            '"x\\(1e3 * 2)", .5e1 * 1E+2, [.[2 * 0]?], (try ([1] * 2) catch .), $__loc__.line')
    expected = ('[3,6,4,8]\n"abab"\n"ababab"\nnull\n{"a":{"b":1,"c":2}}\n"x2000"\n500\n'
                '[null]\n"array ([1]) and number (2) cannot be multiplied"\n2\n')
    with ExecCommand(tree.ws, registry=default_registry()) as ex:
        assert run(ex, ["jq", "-nc", prog]).out == expected  # folded as jq folds it
    with ExecCommand(tree.ws, registry=default_registry(),
                     limits=Limits(max_string_length=1000)) as ex:
        assert run(ex, ["jq", "-nc", prog]).out == expected  # unfolded
        for p in [prog + ', ("x" * 1e9)', 'try ("x" * 1001) catch "caught" | length']:
            with pytest.raises(LimitExceeded, match="string"):
                run(ex, ["jq", "-nc", p])
