"""python3 basics: stdio both ways, exit statuses, argv, env, cwd, files through door A."""

from __future__ import annotations

from pysh.api import Limits, Sandbox


def test_print_and_pipe_out(sb):
    r = sb.run("python3 -c 'print(1); print(2)' | head -1")
    assert (r.stdout, r.exit_code) == ("1\n", 0)


def test_pipe_in(sb):
    r = sb.run("yes | head -1000 | python3 -c 'import sys; print(len(sys.stdin.read().split()))'")
    assert (r.stdout, r.exit_code) == ("1000\n", 0)


def test_exit_status_and_traceback(sb):
    r = sb.run("python3 -c 'import sys; sys.exit(3)'; echo $?")
    assert r.stdout == "3\n"
    r = sb.run("python3 -c '1/0'")
    assert r.exit_code == 1
    assert r.stderr.endswith("ZeroDivisionError: division by zero\n")
    assert 'File "<string>", line 1, in <module>' in r.stderr


def test_argv_env_cwd(sb):
    sb.run("mkdir -p sub; cd sub; export FOO=bar")
    r = sb.run("python3 -c 'import os, sys; print(sys.argv[1:], os.environ[\"FOO\"], os.getcwd())' a 'b c'")
    assert r.stdout == "['a', 'b c'] bar /batch/sub\n"


def test_files_through_the_door(sb):
    sb.run("printf 'x\\ny\\n' > in.txt")
    r = sb.run("python3 -c '"
               "import pathlib; p = pathlib.Path(\"in.txt\"); "
               "pathlib.Path(\"out.txt\").write_text(p.read_text().upper())'; cat out.txt")
    assert r.stdout == "X\nY\n"
    assert (sb.host / "out.txt").read_text() == "X\nY\n"


def test_script_file_and_stdin_script(sb):
    sb.run("printf 'import sys\\nprint(sys.argv)\\n' > s.py")
    assert sb.run("python3 s.py 1 2").stdout == "['s.py', '1', '2']\n"
    r = sb.run("python3 - x <<'EOF'\nimport sys\nprint(sys.argv)\nEOF")
    assert r.stdout == "['-', 'x']\n"


def test_version():
    with Sandbox() as s:
        assert s.run("python3 -V; python3 --version").stdout == "Python 3.12.0\nPython 3.12.0\n"


def test_memory_limit_is_a_memory_error(tmp_path):
    with Sandbox(limits=Limits(python_memory=64 * 1024 * 1024)) as s:
        r = s.run("python3 -c 'x = bytearray(100 * 1024 * 1024)'")
        assert r.exit_code == 1
        assert r.stderr.rstrip().endswith("MemoryError")
        assert s.run("python3 -c 'x = bytearray(10 * 1024 * 1024); print(len(x))'").stdout == "10485760\n"


def test_deep_c_recursion_is_a_clean_error(sb):
    # A documented limit of the WASI build: its C stack holds ~60 levels of Python -> C ->
    # Python recursion. Past it the guest traps; the shell says so in one line.
    r = sb.run("python3 -c '\nfrom functools import lru_cache\n@lru_cache(None)\n"
               "def f(n): return n if n < 2 else f(n - 1) + f(n - 2)\nprint(f(500))'; echo $?")
    assert r.stdout == "1\n"
    assert r.stderr == ("python3: fatal error: the interpreter's C stack overflowed "
                        "(deep recursion through C code)\n")
    assert sb.run("python3 -c 'print(2)'").stdout == "2\n"
