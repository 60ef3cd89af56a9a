"""The five file situations for every misc command that reads a file operand.

A non-UTF-8 file, an empty file, a missing file, a directory where a file is
expected, and a denied path (a host symlink out of the workspace) -- plus the
host's /etc/passwd, which does not exist in the sandbox.
"""

from __future__ import annotations

import pytest

from tests.harness import run_cmd, sandbox

FILES = {
    "escape": {"symlink": "/etc"},
    "latin1": b"caf\xe9\nna\xefve\n",
    "empty": "",
    "d/": None,
    "ok": "1\n",
    "utf8": "x\n",
}


@pytest.fixture(scope="module")
def ex():
    with sandbox(FILES) as ex:
        yield ex


# (argv with FILE as the operand, expected status for a missing / denied file, message shape)
def _diff(f):
    return ["diff", f, "ok"]


def _bc(f):
    return ["bc", f]


def _date(f):
    return ["date", "-r", f]


def _datef(f):
    return ["date", "-f", f]


def _xargs(f):
    return ["xargs", "-a", f, "echo"]


READERS = {"diff": (_diff, 2), "bc": (_bc, 1), "date-r": (_date, 1), "date-f": (_datef, 1),
           "xargs-a": (_xargs, 1)}


@pytest.mark.parametrize("name", sorted(READERS))
def test_denied_path(ex, name):
    build, status = READERS[name]
    r = run_cmd(ex, build("escape/passwd"))
    assert r.status == status
    if name == "bc":
        assert r.err == "File escape/passwd is unavailable.\n"
    else:
        assert "escape/passwd" in r.err and "Permission denied" in r.err
    assert "root:" not in r.out


@pytest.mark.parametrize("name", sorted(READERS))
def test_host_path_does_not_exist(ex, name):
    build, status = READERS[name]
    r = run_cmd(ex, build("/etc/passwd"))
    assert r.status == status
    assert "root:" not in r.out
    if name != "bc":
        assert "/etc/passwd" in r.err and "No such file or directory" in r.err


@pytest.mark.parametrize("name", sorted(READERS))
def test_missing_file(ex, name):
    build, status = READERS[name]
    r = run_cmd(ex, build("nosuch"))
    assert r.status == status
    assert "nosuch" in r.err


def test_diff_empty_and_latin1(ex):
    r = run_cmd(ex, ["diff", "empty", "latin1"])
    assert r.status == 1
    assert r.stdout == b"0a1,2\n> caf\xe9\n> na\xefve\n"
    r = run_cmd(ex, ["diff", "latin1", "latin1"])
    assert (r.status, r.stdout) == (0, b"")


def test_diff_directory_where_file_expected(ex):
    r = run_cmd(ex, ["diff", "ok", "d"])
    assert (r.status, r.err) == (2, "diff: d/ok: No such file or directory\n")


def test_bc_empty_latin1_and_directory(ex):
    assert run_cmd(ex, ["bc", "empty"], "1+1\n").stdout == b"2\n"
    # an undecodable byte is an illegal character, reported and skipped
    r = run_cmd(ex, ["bc", "latin1"])
    assert r.status == 0
    assert "illegal character" in r.err
    r = run_cmd(ex, ["bc", "d"])
    assert (r.status, r.err) == (1, "d 1: read() in flex scanner failed\n")


def test_date_reference_empty_dir_latin1(ex):
    for f in ("empty", "d", "latin1"):
        r = run_cmd(ex, ["date", "-u", "-r", f, "+%F %T"])
        assert (r.status, r.out) == (0, "2024-01-02 03:04:05\n"), f


def test_date_file_of_dates(ex):
    r = run_cmd(ex, ["date", "-f", "empty"])
    assert (r.status, r.stdout) == (0, b"")
    r = run_cmd(ex, ["date", "-u", "-f", "latin1", "+%s"])
    assert r.status == 1
    assert r.err.count("invalid date") == 2
    r = run_cmd(ex, ["date", "-f", "d"])
    assert r.status == 1 and "d: Is a directory" in r.err


def test_xargs_arg_file_variants(ex):
    r = run_cmd(ex, ["xargs", "-a", "latin1", "echo"])
    assert (r.status, r.stdout) == (0, b"caf\xe9 na\xefve\n")
    assert run_cmd(ex, ["xargs", "-a", "empty", "-r", "echo", "x"]).stdout == b""
    r = run_cmd(ex, ["xargs", "-a", "d", "echo"])
    assert r.status == 0  # GNU: a directory reads as empty input


def test_env_chdir_denied_and_missing(ex):
    r = run_cmd(ex, ["env", "-C", "escape", "true"])
    assert r.status == 125 and "cannot change directory to 'escape'" in r.err
    r = run_cmd(ex, ["env", "-C", "nosuch", "true"])
    assert (r.status, r.err) == (
        125, "env: cannot change directory to 'nosuch': No such file or directory\n")


def test_which_skips_denied_path_entries(ex):
    r = run_cmd(ex, ["which", "passwd"], env={"PATH": "escape:/batch/d"})
    assert (r.status, r.out) == (1, "")
