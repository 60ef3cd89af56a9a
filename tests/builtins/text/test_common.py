"""Every text utility: denied paths, /etc/passwd, non-UTF-8 round trips, --help, bad options."""

from __future__ import annotations

import pytest

from tests.harness import run_cmd, sandbox

FILES = {"escape": {"symlink": "/etc"}, "f": "hello\n", "bin": b"\xff\xfe\x80 a\n\xc3(\n"}

# command line reading one file operand (the operand is appended)
READERS = {
    "cat": ["cat"],
    "head": ["head"],
    "tail": ["tail"],
    "wc": ["wc"],
    "sort": ["sort"],
    "uniq": ["uniq"],
    "nl": ["nl"],
    "cut": ["cut", "-f1"],
    "tac": ["tac"],
    "fold": ["fold"],
    "paste": ["paste"],
    "rev": ["rev"],
    "comm": ["comm", "f"],
    "join": ["join", "f"],
    "base64": ["base64"],
    "md5sum": ["md5sum"],
    "sha256sum": ["sha256sum"],
    "b2sum": ["b2sum"],
    "cmp": ["cmp", "f"],
    "strings": ["strings"],
    "shuf": ["shuf"],
    "column": ["column"],
    "split": ["split"],
}


@pytest.fixture(scope="module")
def ex():
    with sandbox(FILES) as ex:
        yield ex


@pytest.mark.parametrize("cmd", sorted(READERS))
def test_denied_symlink_escape(ex, cmd):
    r = run_cmd(ex, READERS[cmd] + ["escape/passwd"])
    assert r.status != 0
    assert "escape/passwd" in r.err and "Permission denied" in r.err
    assert "root:" not in r.out
    assert "/etc" not in r.err.replace("escape/passwd", "")


@pytest.mark.parametrize("cmd", sorted(READERS))
def test_host_etc_passwd_does_not_exist(ex, cmd):
    r = run_cmd(ex, READERS[cmd] + ["/etc/passwd"])
    assert r.status != 0
    # binutils strings says just "No such file"
    assert "/etc/passwd" in r.err and "No such file" in r.err
    assert "root:" not in r.out


@pytest.mark.parametrize("cmd", sorted(READERS))
def test_help_and_bad_option(ex, cmd):
    r = run_cmd(ex, [cmd, "--help"])
    assert r.status == 0 and r.out.startswith("Usage")
    r = run_cmd(ex, [cmd, "--no-such-option"])
    assert r.status in (1, 2)
    assert "unrecognized option" in r.err
    assert f"Try '{cmd} --help'" in r.err or (cmd == "strings" and "Usage" in r.err)
    assert "Traceback" not in r.err


@pytest.mark.parametrize("argv", [["cat"], ["head", "-n", "5"], ["tail", "-n", "5"],
                                  ["sort", "-s", "-k1,1"], ["uniq"], ["cut", "-b1-"],
                                  ["cut", "-f1-"], ["fold", "-w", "100"], ["paste"], ["tac"], ["rev", "-0"]])
def test_non_utf8_round_trip(ex, argv):
    r = run_cmd(ex, argv + ["bin"])
    assert r.status == 0
    if argv == ["rev", "-0"]:
        assert r.stdout == b"\xff\xfe\x80 a\n\xc3(\n"[::-1]
        return
    assert r.stdout == b"\xff\xfe\x80 a\n\xc3(\n" or sorted(r.stdout.split(b"\n")) == sorted(
        b"\xff\xfe\x80 a\n\xc3(\n".split(b"\n"))


def test_sort_non_utf8_order(ex):
    r = run_cmd(ex, ["sort"], stdin=b"\xff\n\xc3(\nabc\n\x80\n")
    assert r.stdout == b"abc\n\x80\n\xc3(\n\xff\n"


WRITERS = [
    (["sort", "-o", "out", "f"], "out"),
    (["uniq", "f", "out"], "out"),
]


@pytest.mark.parametrize("argv,target", WRITERS)
def test_read_only_mount_refuses_writes(argv, target):
    with sandbox({"f": "hello\n", target: "original\n"}, read_only=True) as ex:
        r = run_cmd(ex, argv)
        assert r.status != 0
        assert "Permission denied" in r.err and target in r.err
        assert ex.shell.fs.read_bytes(target) == b"original\n"


def test_tee_writes_files_through_the_door():
    with sandbox({}) as ex:
        r = run_cmd(ex, ["tee", "a", "/tmp/b"], stdin=b"data\xff\n")
        assert r.status == 0 and r.stdout == b"data\xff\n"
        assert ex.shell.fs.read_bytes("a") == b"data\xff\n"
        assert ex.shell.fs.read_bytes("/tmp/b") == b"data\xff\n"


def test_tee_read_only_refused_but_copies_stdout():
    with sandbox({"t": "original\n"}, read_only=True) as ex:
        r = run_cmd(ex, ["tee", "t"], stdin=b"new\n")
        assert r.status == 1 and r.stdout == b"new\n"
        assert "tee: t: Permission denied" in r.err
        assert ex.shell.fs.read_bytes("t") == b"original\n"


def test_tee_denied_escape():
    with sandbox({"escape": {"symlink": "/etc"}}) as ex:
        r = run_cmd(ex, ["tee", "escape/x"], stdin=b"x\n")
        assert r.status == 1 and "Permission denied" in r.err


def test_tr_and_base64_round_trip_non_utf8(ex):
    data = bytes(range(256)) * 3
    r = run_cmd(ex, ["tr", "a", "a"], stdin=data)
    assert r.stdout == data
    enc = run_cmd(ex, ["base64"], stdin=data).stdout
    assert run_cmd(ex, ["base64", "-d"], stdin=enc).stdout == data


def test_shuf_random_source_is_reproducible(ex):
    a = run_cmd(ex, ["shuf", "--random-source=bin", "-i", "1-50", "-n", "3"])
    b = run_cmd(ex, ["shuf", "--random-source=bin", "-i", "1-50", "-n", "3"])
    assert a.status == 0 and a.stdout == b.stdout and len(a.stdout.split()) == 3


def test_rev_keeps_invalid_bytes(ex):
    r = run_cmd(ex, ["rev"], stdin=b"ab\xffc\n")
    assert r.stdout == b"c\xffba\n"
