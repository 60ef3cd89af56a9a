"""awk: what the golden recordings cannot show (syntax errors exit 2 where gawk exits 1,
usage, the five file cases, commands run through the interpreter, limits)."""

from __future__ import annotations

import anyio
import pytest

from pysh.shellkit import BytesInput, CaptureOutput, Limits
from tests.harness import run_cmd, sandbox


def awk(*args, stdin="", files=None, **kw):
    with sandbox(files or {}, **kw) as ex:
        return run_cmd(ex, ["awk", *args], stdin)


def sh(script: str, files=None, stdin=b"", limits: Limits | None = None,
       timeout: float | None = None):
    """Run a bash script through the interpreter (awk's commands need run_script)."""
    from pysh.interpreter.toplevel import fresh_budget, make_interp, make_session, run_main

    kw = {"limits": limits} if limits is not None else {}
    with sandbox(files or {}, **kw) as ex:
        session = make_session(ex)
        out, err = CaptureOutput(), CaptureOutput()
        interp = make_interp(session, fds={0: BytesInput(stdin), 1: out, 2: err})
        if timeout is not None:
            fresh_budget(interp, timeout=timeout)

        async def body(it):
            from pysh.interpreter.syntax import CommandReader

            lines = iter(script.splitlines(keepends=True))
            reader = CommandReader(lambda: next(lines, None), name="sh", extglob=lambda: True)
            return await it.run_reader(reader)

        status = anyio.run(run_main, interp, body)
        return status, out.getvalue().decode("utf-8", "surrogateescape"), \
            err.getvalue().decode("utf-8", "surrogateescape")


# -- syntax errors: gawk's two-line message, exit 2 ------------------------------------
@pytest.mark.parametrize("prog,caret_col,msg", [
    ("BEGIN { x = }", 12, "syntax error"),
    ('BEGIN { x = "abc }', 12, "unterminated string"),
    ("BEGIN { x = /abc }", 13, "unterminated regexp"),
    ("BEGIN {", 7, "unexpected newline or end of string"),
    ("BEGIN { print 1 < 2 < 3 }", 20, "syntax error"),
    ("{ print $1 > 5 ? 1 : 2 }", 15, "syntax error"),
    ("BEGIN { for ((k) in a) n++ }", 21, "syntax error"),
])
def test_syntax_errors(prog, caret_col, msg):
    r = awk(prog)
    assert r.status == 2
    assert r.stdout == b""
    lines = r.err.split("\n")
    assert lines[0] == f"awk: cmd. line:1: {prog}"
    assert lines[1] == "awk: cmd. line:1: " + " " * caret_col + "^ " + msg
    assert "Traceback" not in r.err


def test_bignum_flag_warns_and_computes_with_doubles():
    # pysh has no MPFR: -M says so as a gawk built without it does, and goes on
    r = awk("-M", "BEGIN { print 2^10, 2^53 + 1 }")
    assert (r.status, r.stdout) == (0, b"1024 9007199254740992\n")
    assert r.err == "awk: warning: -M ignored: MPFR/GMP support not compiled in\n"


def test_syntax_error_in_progfile_names_file_and_line():
    r = awk("-f", "p.awk", files={"p.awk": "BEGIN {\n  x = 1\n  y = 1 +\n}\n"})
    assert r.status == 2
    assert r.err.startswith("awk: p.awk:3:   y = 1 +\nawk: p.awk:3: ")


def test_semantic_errors_are_fatal():
    r = awk("BEGIN { x = 1; x[1] = 2 }")
    assert r.status == 2
    assert r.err == "awk: cmd. line:1: fatal: attempt to use scalar `x' as an array\n"
    r = awk("function f(f) { return 1 } BEGIN { }")
    assert r.status == 2 and "cannot use function name as parameter name" in r.err
    r = awk("BEGIN { next }")  # gawk: a non-fatal "error:", exit 1 (golden awk_gawk:next_in_begin)
    assert r.status == 1 and r.err == "awk: cmd. line:1: error: `next' used in BEGIN action\n"
    r = awk("BEGIN { return 1 }")
    assert r.status == 2 and "`return' used outside function context" in r.err


def test_deeply_nested_program_is_an_error_not_a_crash():
    prog = "BEGIN { x = " + "(" * 3000 + "1" + ")" * 3000 + "; print x }"
    r = awk(prog)
    assert r.status == 2
    assert "Traceback" not in r.err


# -- usage ------------------------------------------------------------------------------
def test_help_and_version():
    r = awk("--help")
    assert r.status == 0 and r.out.startswith("Usage: awk") and r.err == ""
    r = awk("-h")
    assert r.status == 0 and "-F fs" in r.out
    for flag in ("--version", "-V", "-version"):
        r = awk(flag)
        assert r.status == 0 and "awk" in r.out and r.err == ""


def test_usage_errors_exit_2():
    r = awk()
    assert r.status == 2 and r.err.startswith("Usage: awk")
    r = awk("-z", "BEGIN{}")
    assert r.status == 2 and r.err.startswith("awk: invalid option -- 'z'\n")
    r = awk("--nosuch", "BEGIN{}")
    assert r.status == 2 and "unrecognized option '--nosuch'" in r.err
    r = awk("-F")
    assert r.status == 2 and "option requires an argument -- F" in r.err
    r = awk("-v", "novalue", "BEGIN { print 1 }")
    assert r.status == 2
    assert r.err.startswith("awk: `novalue' argument to `-v' not in `var=value' form\n\nUsage: awk")


def test_long_options():
    r = awk("--field-separator=:", "--assign=x=7", "{ print $2, x }", stdin="a:b\n")
    assert (r.status, r.out) == (0, "b 7\n")
    r = awk("--file", "p.awk", stdin="q\n", files={"p.awk": "{ print \"<\" $0 \">\" }"})
    assert r.out == "<q>\n"


def test_gawk_mawk_nawk_aliases():
    for name in ("gawk", "mawk", "nawk"):
        with sandbox() as ex:
            r = run_cmd(ex, [name, "BEGIN { print 1 + 1 }"])
        assert (r.status, r.out) == (0, "2\n")


# -- the five file cases ------------------------------------------------------------------
def test_non_utf8_file_round_trips():
    data = b"\xff\xfe a\xe9b\n\x80 z\n"
    r = awk("{ print $2, length($1) }", "f", files={"f": data})
    assert r.status == 0
    assert r.stdout == b"a\xe9b 2\nz 1\n"


def test_empty_file():
    r = awk("{ n++ } END { print n + 0, NR, FILENAME }", "e", files={"e": ""})
    assert (r.status, r.out, r.err) == (0, "0 0 e\n", "")


def test_missing_file():
    r = awk("{ print }", "nosuch")
    assert r.status == 2
    assert r.err == "awk: fatal: cannot open file `nosuch' for reading: No such file or directory\n"


def test_directory_operand():
    r = awk("{ print }", "d", files={"d/": None})
    assert r.status == 2
    assert r.err == "awk: fatal: cannot open file `d' for reading: Is a directory\n"


def test_denied_path_is_permission_denied_with_virtual_path():
    files = {"escape": {"symlink": "/etc"}}
    r = awk("{ print }", "escape/passwd", files=files)
    assert r.status == 2
    assert r.err == "awk: fatal: cannot open file `escape/passwd' for reading: Permission denied\n"
    r = awk("{ print }", "/etc/passwd")
    assert r.status == 2
    assert r.err == "awk: fatal: cannot open file `/etc/passwd' for reading: No such file or directory\n"
    # getline from a denied file fails softly (-1), as awk does for unreadable files
    r = awk('BEGIN { print (getline l < "escape/passwd") }', files=files)
    assert (r.status, r.out) == (0, "-1\n")
    # writing there is refused with the virtual path
    r = awk('BEGIN { print "x" > "escape/owned" }', files=files)
    assert r.status == 2
    assert r.err == "awk: cmd. line:1: fatal: cannot redirect to `escape/owned': Permission denied\n"
    r = awk("-f", "escape/passwd", files=files)
    assert r.status == 2
    assert "cannot open source file `escape/passwd' for reading: Permission denied" in r.err
    for res in (r,):
        assert "/tmp/" not in res.err and "pysh-test" not in res.err


def test_progfile_errors():
    r = awk("-f", "nosuch.awk")
    assert r.status == 2
    assert r.err == "awk: fatal: cannot open source file `nosuch.awk' for reading: No such file or directory\n"
    r = awk("-f", "d", files={"d/": None})
    assert r.status == 2 and "Is a directory" in r.err


def test_output_file_written_through_the_door():
    with sandbox({}) as ex:
        r = run_cmd(ex, ["awk", '{ print $2 > "out.txt"; print $1 >> "log" } END { close("out.txt") }'],
                    "a 1\nb 2\n")
        assert r.status == 0
        assert ex.shell.fs.read_bytes("out.txt") == b"1\n2\n"
        assert ex.shell.fs.read_bytes("log") == b"a\nb\n"


# -- commands through the interpreter -----------------------------------------------------
def test_cmd_getline_forms():
    status, out, err = sh(
        'printf "b\\na\\n" > f\n'
        'awk \'BEGIN { while (("cat f" | getline l) > 0) print "v:" l, NR;'
        ' "echo one two" | getline; print $2, NF, NR; print close("cat f"), close("nope") }\'\n')
    assert (status, err) == (0, "")
    assert out == "v:b 1\nv:a 2\ntwo 2 3\n0 -1\n"


def test_print_to_command_and_close_status():
    status, out, err = sh(
        'awk \'BEGIN { print "b" | "sort"; print "a" | "sort"; r = close("sort");'
        ' print "x" | "cat; exit 3"; print "st", r, close("cat; exit 3") }\'\n')
    assert (status, err) == (0, "")
    assert out == "a\nb\nx\nst 0 3\n"


def test_pipe_output_order_at_exit_like_gawk():
    status, out, _ = sh('awk \'BEGIN { print "b\\na" | "sort"; print "x" }\'\n')
    assert (status, out) == (0, "a\nb\nx\n")


def test_system_flushes_and_returns_status():
    status, out, _ = sh('awk \'BEGIN { printf "first "; r = system("echo sys; exit 4"); print "r=" r }\'\n')
    assert (status, out) == (0, "first sys\nr=4\n")


def test_system_sees_awk_output_files():
    status, out, _ = sh('awk \'BEGIN { print "data" > "f"; system("cat f") }\'\n')
    assert (status, out) == (0, "data\n")


def test_awk_in_a_pipeline():
    status, out, _ = sh("seq 5 | awk '$1 % 2 { s += $1 } END { print s }'\n")
    assert (status, out) == (0, "9\n")


def test_stub_executor_reports_missing_interpreter():
    # the plain harness has no run_script: awk says so instead of crashing
    r = awk('BEGIN { "echo hi" | getline x; print "[" x "]" }')
    assert r.status == 0
    assert r.out == "[]\n"
    assert "running commands needs the interpreter" in r.err


# -- limits ---------------------------------------------------------------------------------
def test_infinite_loop_stops_at_the_deadline():
    status, out, err = sh("awk 'BEGIN { while (1) x++ }'\n", timeout=0.5)
    assert status == 124
    assert "timeout" in err


def test_loop_iteration_limit():
    status, _, err = sh("awk 'BEGIN { for (;;) n++ }'\n",
                        limits=Limits(max_loop_iterations=20000))
    assert status == 126
    assert "loop" in err


def test_string_size_limit():
    status, _, err = sh("awk 'BEGIN { s = \"x\"; while (1) s = s s }'\n",
                        limits=Limits(max_string_length=1 << 20))
    assert status == 126
    assert "string" in err


def test_pathological_regex_is_bounded_by_the_deadline():
    prog = ("awk 'BEGIN { s = sprintf(\"%40s\", \"\"); gsub(/ /, \"a\", s); "
            "if (s ~ /^(a|aa)*c$/) print \"m\"; else print \"no\" }'\n")
    status, out, err = sh(prog, timeout=2.0)
    assert status in (0, 124)
    assert "Traceback" not in err


def test_recursion_too_deep_is_fatal():
    r = awk("function f(n) { return f(n + 1) } BEGIN { f(1) }")
    assert r.status == 2
    assert "function call nesting too deep" in r.err
    assert "Traceback" not in r.err


def test_many_output_files_are_parked_and_reopened_to_append():
    # 500 distinct files, written round-robin: more than may be open at once
    with sandbox({}) as ex:
        r = run_cmd(ex, ["awk", '{ print $2 > ("out" ($1 % 500)) }'],
                    "".join(f"{i} v{i}\n" for i in range(1500)))
        assert (r.status, r.err) == (0, "")
        assert ex.shell.fs.read_bytes("out7") == b"v7\nv507\nv1007\n"
        assert ex.shell.fs.read_bytes("out499") == b"v499\nv999\nv1499\n"
