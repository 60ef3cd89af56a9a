"""grep: what the golden recordings cannot show -- the sandbox, trees in any order, deadlines."""

from __future__ import annotations

import pytest

from pysh.shellkit.limits import LimitExceeded, Limits
from tests.harness import run_cmd, sandbox

FILES = {
    "escape": {"symlink": "/etc"},
    "f": "hello\nworld\n",
    "latin": b"caf\xe9\nplain\n\xff\xfe hello\n",
    "empty": "",
    "dir/": None,
    "tree/a.py": "needle one\n",
    "tree/b.txt": "needle two\nno\n",
    "tree/sub/c.py": "x\nneedle three\n",
    "tree/sub/deeper/d.log": "needle four\n",
    "tree/bin.dat": b"needle\0binary\n",
    "tree/out": {"symlink": "../../../etc"},
    "tree/inside": {"symlink": "sub"},
}


@pytest.fixture(scope="module")
def ex():
    with sandbox(FILES) as ex:
        yield ex


def test_denied_path(ex):
    r = run_cmd(ex, ["grep", "root", "escape/passwd"])
    assert r.status == 2
    assert r.err == "grep: escape/passwd: Permission denied\n"
    assert r.out == ""


def test_host_etc_passwd_does_not_exist(ex):
    r = run_cmd(ex, ["grep", "root", "/etc/passwd"])
    assert r.status == 2 and r.err == "grep: /etc/passwd: No such file or directory\n"


def test_non_utf8_bytes_match_and_pass_through(ex):
    r = run_cmd(ex, ["grep", "-a", "caf", "latin"])
    assert r.stdout == b"caf\xe9\n"
    # a pattern holding the same undecodable byte matches it exactly
    r = run_cmd(ex, ["grep", "-ac", b"\xff\xfe".decode("utf-8", "surrogateescape"), "latin"])
    assert r.out == "1\n"
    r = run_cmd(ex, ["grep", "caf", "latin"])  # without -a: GNU's binary file notice
    assert r.status == 0 and r.out == "" and r.err == "grep: latin: binary file matches\n"


def test_empty_file_and_directory(ex):
    r = run_cmd(ex, ["grep", "x", "empty"])
    assert (r.status, r.out, r.err) == (1, "", "")
    r = run_cmd(ex, ["grep", "x", "dir"])
    assert (r.status, r.err) == (2, "grep: dir: Is a directory\n")


def test_recursive_tree_any_order(ex):
    r = run_cmd(ex, ["grep", "-rn", "needle", "tree"])
    assert r.status == 0
    assert sorted(r.out.splitlines()) == [
        "tree/a.py:1:needle one", "tree/b.txt:1:needle two", "tree/sub/c.py:2:needle three",
        "tree/sub/deeper/d.log:1:needle four"]
    # symlinks met in the tree are not followed by -r (neither the escaping one nor 'inside')
    assert r.err == "grep: tree/bin.dat: binary file matches\n"


def test_recursive_implicit_dot_is_relative(ex):
    r = run_cmd(ex, ["grep", "-rl", "needle"], cwd="/batch/tree")
    assert sorted(r.out.splitlines()) == ["a.py", "b.txt", "bin.dat", "sub/c.py",
                                          "sub/deeper/d.log"]


def test_dereference_recursive_reports_escaping_link(ex):
    r = run_cmd(ex, ["grep", "-R", "needle", "tree"])
    assert r.status == 2  # the link out of the sandbox is an error ...
    assert "tree/out: Permission denied" in r.err
    assert "/etc" not in r.err.replace("tree/out", "")
    lines = sorted(r.out.splitlines())
    assert "tree/inside/c.py:needle three" in lines  # ... the link inside is followed
    assert "tree/sub/c.py:needle three" in lines


def test_include_exclude_in_tree(ex):
    r = run_cmd(ex, ["grep", "-rl", "--include=*.py", "needle", "tree"])
    assert sorted(r.out.splitlines()) == ["tree/a.py", "tree/sub/c.py"]
    r = run_cmd(ex, ["grep", "-rl", "--exclude-dir=sub", "--exclude=*.dat", "needle", "tree"])
    assert sorted(r.out.splitlines()) == ["tree/a.py", "tree/b.txt"]


def test_help_and_bad_option(ex):
    r = run_cmd(ex, ["grep", "--help"])
    assert r.status == 0 and r.out.startswith("Usage: grep [OPTION]... PATTERNS [FILE]...")
    r = run_cmd(ex, ["grep", "--no-such-option", "x"])
    assert r.status == 2 and "unrecognized option '--no-such-option'" in r.err
    assert "Traceback" not in r.err


def test_pathological_pattern_meets_the_deadline():
    line = "abc" * 3000 + "\n"
    with sandbox({"big": line * 3}, limits=Limits(timeout=0.5)) as ex:
        with pytest.raises(LimitExceeded) as ei:
            run_cmd(ex, ["grep", "-c", "a.*b.*c.*d", "big"])
        assert ei.value.status == 124


def test_pathological_backreference_meets_the_deadline():
    # exponential for a backtracking engine: alternatives under + and back-references
    with sandbox({"f": "a" * 40 + "\n"}, limits=Limits(timeout=0.5)) as ex:
        with pytest.raises(LimitExceeded) as ei:
            run_cmd(ex, ["grep", "-E", "^(a|aa)+\\1\\1b", "f"])
        assert ei.value.status == 124


def test_stdin_chunks_and_long_lines():
    data = ("x" * 100_000 + "\n") * 5 + "needle\n"
    with sandbox({}) as ex:
        r = run_cmd(ex, ["grep", "-n", "needle"], stdin=data)
    assert r.out == "6:needle\n"
