"""The pysh command line, driven as a user would: a real process, real fds."""

from __future__ import annotations

import os
import subprocess
import sys
import zlib

import pytest

PYSH = [sys.executable, "-m", "pysh"]


def run(args, stdin=b"", cwd=None, timeout=60, tmpdir=None):
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C.UTF-8",
           "PYTHONPATH": os.pathsep.join(sys.path)}
    if tmpdir is not None:
        env["TMPDIR"] = str(tmpdir)
    p = subprocess.run(PYSH + args, input=stdin, capture_output=True, timeout=timeout, cwd=cwd,
                       env=env)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def test_dash_c_and_positional_parameters():
    assert run(["-c", 'echo "$0 $1 $#"', "name", "a", "b"]) == (0, "name a 2\n", "")
    assert run(["-c", "exit 3"])[0] == 3


def test_script_on_stdin_reads_its_own_following_lines():
    code, out, _ = run([], stdin=b"read x\nhello there\necho got $x\n")
    assert (code, out) == (0, "got hello there\n")


def test_script_file_with_arguments(tmp_path):
    # $0 never shows the host's layout: a script outside every mount is its file name,
    # one inside the sandbox its virtual path
    script = tmp_path / "s.sh"
    script.write_text('echo "$0 $@"\n')
    assert run([str(script), "x", "y"]) == (0, "s.sh x y\n", "")
    (tmp_path / "ws").mkdir()
    inside = tmp_path / "ws" / "t.sh"
    inside.write_text('echo "$0 ${BASH_SOURCE[0]}"; nosuch\n')
    code, out, err = run(["--sandbox", str(tmp_path / "ws"), str(inside)])
    assert (code, out) == (127, "/batch/t.sh /batch/t.sh\n")
    assert err == "/batch/t.sh: line 1: nosuch: command not found\n"
    assert str(tmp_path) not in out + err


def test_workspace_is_the_sandbox_dir(tmp_path):
    (tmp_path / "f.txt").write_text("data\n")
    code, out, _ = run(["--sandbox", str(tmp_path), "-c", "pwd; cat f.txt; echo new > g"])
    assert (code, out) == (0, "/batch\ndata\n")
    assert (tmp_path / "g").read_text() == "new\n"


def test_host_files_are_not_there():
    code, out, err = run(["-c", "cat /etc/passwd; echo $?"])
    assert out == "1\n"
    assert err == "cat: /etc/passwd: No such file or directory\n"


@pytest.mark.parametrize("args", [["--bogus"], ["--sandbox", "/nonexistent-dir", "-c", "true"],
                                  ["--workspace", "relative", "-c", "true"],
                                  ["--timeout", "x", "-c", "true"], ["-c"]])
def test_usage_errors_exit_2_and_create_nothing(args, tmp_path):
    # pysh's temp root is a private dir here, so "nothing created" can be checked exactly
    code, out, err = run(args, tmpdir=tmp_path)
    assert code == 2 and err.startswith("pysh: ")
    assert "Traceback" not in err
    assert os.listdir(tmp_path) == []


def test_syntax_error_reported_like_bash():
    code, out, err = run(["-c", "echo a\nfi\necho b"])
    assert (code, out) == (2, "a\n")
    assert err == "pysh: -c: line 2: syntax error near unexpected token `fi'\npysh: -c: line 2: `fi'\n"


def test_timeout_is_a_clean_124():
    # 2 s, not less: on a loaded CI machine a shorter deadline could fire before `echo start`
    code, out, err = run(["--timeout", "2", "-c", "echo start; while :; do :; done"])
    assert (code, out) == (124, "start\n")
    assert err == "pysh: timeout: limit exceeded (2s)\n"


def test_parse_only():
    assert run(["-n", "-c", "echo hi"]) == (0, "", "")
    assert run(["-n", "-c", "if"])[0] == 2


def test_env_passes_only_what_is_asked(monkeypatch):
    code, out, _ = run(["--env", "GREETING=hi", "--env", "PATH", "-c",
                        'echo "$GREETING ${LC_ALL-unset} ${PYTHONPATH-unset}"'])
    assert out == "hi unset unset\n"


def test_strict_bounds_what_the_run_writes():
    # `yes` would fill the pipe forever: past max_output_bytes (1 MiB strict) stdout stops
    # as a closed pipe does, and the run says so
    p = subprocess.run(PYSH + ["--strict", "-c", "yes; echo after $? >&2"], capture_output=True,
                       timeout=60, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert len(p.stdout) == 1 << 20 and set(p.stdout) == set(b"y\n")
    assert p.stderr == (b"after 141\n"
                        b"pysh: stdout: limit exceeded (1048576 bytes): the rest was not written\n")
    assert p.returncode == 0


def test_strict_bounds_a_gzip_bomb(tmp_path):
    # 512 MiB of zeros in 0.5 MB: to stdout it stops at max_output_bytes, to a file at
    # max_file_size (before, both ran until the disk or the pipe was full)
    c = zlib.compressobj(9, zlib.DEFLATED, 31)
    (tmp_path / "bomb.gz").write_bytes(
        b"".join(c.compress(bytes(1 << 20)) for _ in range(512)) + c.flush())
    p = subprocess.run(PYSH + ["--strict", "--limit", "max_file_size=1M", "--sandbox",
                               str(tmp_path), "-c", 'gunzip -c bomb.gz; echo "st $?" >&2; '
                               "gunzip bomb.gz; echo not reached"], capture_output=True,
                       timeout=120, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert p.stdout == bytes(1 << 20) and p.returncode == 126, p.stderr
    assert p.stderr == (b"st 141\npysh: file size: limit exceeded (1048576 bytes)\n"
                        b"pysh: stdout: limit exceeded (1048576 bytes): the rest was not written\n")
    assert (tmp_path / "bomb").stat().st_size == 1 << 20


def test_limit_options():
    code, out, err = run(["--limit", "max_file_size=1K", "--limit", "max-total-written=none",
                          "-c", "head -c 1000 /dev/zero > a; echo ok; head -c 2K /dev/zero > f; "
                          "echo not reached"])
    assert (code, out, err) == (126, "ok\n", "pysh: file size: limit exceeded (1024 bytes)\n")
    assert run(["--limit", "max_output_bytes=5", "-c", "echo 1234; echo 5678"])[:2] == (141, "1234\n")
    code, _, err = run(["--limit", "max_string_length=1K", "-c", "read x < /dev/zero"])
    assert (code, err) == (126, "pysh: string: limit exceeded (1024 bytes)\n")
    assert run(["--strict", "--limit", "timeout=none", "-c", "echo $((1+1))"]) == (0, "2\n", "")


@pytest.mark.parametrize("args,message", [
    (["--limit", "max_files=1"], "--limit: max_files: no such limit (one of: timeout, "),
    (["--limit", "max_file_size=lots"], "--limit: max_file_size: invalid value: lots"),
    (["--limit", "max_commands=1M"], "--limit: max_commands: invalid value: 1M"),
    (["--limit", "timeout=0"], "--limit: timeout: invalid value: 0"),
    (["--limit", "-c"], "--limit: -c: expected NAME=VALUE"),
])
def test_bad_limits_are_usage_errors(args, message):
    code, out, err = run(args + ["-c", "echo no"])
    assert (code, out) == (2, "") and err.startswith("pysh: " + message), err


def test_help_shows_the_limit_options():
    out = run(["--help"])[1]
    assert "--strict" in out and "--limit NAME=VALUE" in out
