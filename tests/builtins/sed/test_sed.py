"""sed: in-place editing through the door, w/r files, the sandbox, refusals, limits."""

from __future__ import annotations

import os
import stat

import pytest

from pysh.shellkit.limits import LimitExceeded, Limits
from tests.harness import run_cmd, sandbox, view, view_root

FILES = {
    "escape": {"symlink": "/etc"},
    "latin": b"caf\xe9\nna\xefve\n",
    "empty": "",
    "dir/": None,
}


def read(ex, name: str) -> bytes:
    with open(view(ex, name), "rb") as f:
        return f.read()


def listing(ex, sub: str = "") -> list[str]:
    return sorted(os.listdir(os.path.join(view_root(ex), sub)))


def test_in_place_edits_and_keeps_mode():
    with sandbox({"f": {"content": "a1\nb2\n", "mode": 0o640}}) as ex:
        r = run_cmd(ex, ["sed", "-i", "s/[0-9]/N/", "f"])
        assert (r.status, r.out, r.err) == (0, "", "")
        assert read(ex, "f") == b"aN\nbN\n"
        assert stat.S_IMODE(os.stat(view(ex, "f")).st_mode) == 0o640
        assert listing(ex) == ["f"]  # no temporary file left behind


def test_in_place_backup_suffix_forms():
    with sandbox({"f": "x\n", "g": "y\n", "h": "z\n", "d/k": "k\n"}) as ex:
        assert run_cmd(ex, ["sed", "-i.bak", "s/x/X/", "f"]).status == 0
        assert read(ex, "f") == b"X\n" and read(ex, "f.bak") == b"x\n"
        assert run_cmd(ex, ["sed", "--in-place=.orig", "s/y/Y/", "g"]).status == 0
        assert read(ex, "g") == b"Y\n" and read(ex, "g.orig") == b"y\n"
        assert run_cmd(ex, ["sed", "-iold_*", "s/z/Z/", "h"]).status == 0
        assert read(ex, "h") == b"Z\n" and read(ex, "old_h") == b"z\n"
        assert run_cmd(ex, ["sed", "-i~", "s/k/K/", "d/k"]).status == 0
        assert read(ex, "d/k") == b"K\n" and read(ex, "d/k~") == b"k\n"


def test_in_place_files_are_separate():
    with sandbox({"a": "1\n2\n", "b": "3\n4\n"}) as ex:
        r = run_cmd(ex, ["sed", "-i", "$s/$/ last/;1s/^/first /", "a", "b"])
        assert r.status == 0
        assert read(ex, "a") == b"first 1\n2 last\n"
        assert read(ex, "b") == b"first 3\n4 last\n"


def test_in_place_quit_keeps_only_what_was_written():
    with sandbox({"f": "1\n2\n3\n"}) as ex:
        assert run_cmd(ex, ["sed", "-i", "2q", "f"]).status == 0
        assert read(ex, "f") == b"1\n2\n"


def test_in_place_read_only_mount_leaves_file():
    with sandbox({"f": "keep\n"}, read_only=True) as ex:
        r = run_cmd(ex, ["sed", "-i", "s/keep/lost/", "f"])
        assert r.status == 4
        assert "Permission denied" in r.err and "Traceback" not in r.err
        assert ex.workspace_dir not in r.err
        assert read(ex, "f") == b"keep\n"
        assert listing(ex) == ["f"]


def test_in_place_errors_do_not_leave_temporaries():
    with sandbox({"f": "x\n"}) as ex:
        r = run_cmd(ex, ["sed", "-i", "s/x/\\n/;bnowhere", "f"])
        assert r.status == 4 and "can't find label for jump to `nowhere'" in r.err
        assert read(ex, "f") == b"x\n" and listing(ex) == ["f"]


def test_w_file_through_the_door():
    with sandbox({"f": "a\nb\nc\n"}) as ex:
        r = run_cmd(ex, ["sed", "-n", "/b/w out.txt\n/c/s/c/C/w out.txt", "f"])
        assert r.status == 0 and r.out == ""
        assert read(ex, "out.txt") == b"b\nC\n"


def test_w_file_denied():
    with sandbox(FILES) as ex:
        r = run_cmd(ex, ["sed", "w escape/x", "latin"])
        assert r.status == 4
        assert r.err == "sed: couldn't open file escape/x: Permission denied\n"


def test_r_denied_file_is_empty_and_leaks_nothing():
    with sandbox(FILES) as ex:
        r = run_cmd(ex, ["sed", "1r escape/passwd", "latin"])
        assert r.status == 0 and b"root" not in r.stdout
        assert r.stdout == b"caf\xe9\nna\xefve\n"


def test_denied_missing_dir_and_empty():
    with sandbox(FILES) as ex:
        r = run_cmd(ex, ["sed", "p", "escape/passwd"])
        assert (r.status, r.err) == (2, "sed: can't read escape/passwd: Permission denied\n")
        r = run_cmd(ex, ["sed", "p", "/etc/passwd"])
        assert (r.status, r.err) == (2, "sed: can't read /etc/passwd: No such file or directory\n")
        r = run_cmd(ex, ["sed", "p", "dir"])
        assert (r.status, r.err) == (4, "sed: read error on dir: Is a directory\n")
        r = run_cmd(ex, ["sed", "p", "empty"])
        assert (r.status, r.out, r.err) == (0, "", "")


def test_non_utf8_round_trip():
    with sandbox(FILES) as ex:
        r = run_cmd(ex, ["sed", "s/na/NA/", "latin"])
        assert r.stdout == b"caf\xe9\nNA\xefve\n"
        r = run_cmd(ex, ["sed", "-n", "l", "latin"])
        assert r.out == "caf\\351$\nna\\357ve$\n"


@pytest.mark.parametrize("script,message", [
    ("e ls", "sed: -e expression #1, char 1: `e' command not supported in the sandbox (it runs a command)\n"),
    ("s/x/y/e", "sed: -e expression #1, char 7: option `e' of `s' not supported in the sandbox (it runs a command)\n"),
])
def test_host_commands_refused(script, message):
    with sandbox({"f": "x\n"}) as ex:
        r = run_cmd(ex, ["sed", script, "f"])
    assert (r.status, r.out, r.err) == (1, "", message)


def test_endless_loop_meets_the_deadline():
    with sandbox({"f": "x\n"}, limits=Limits(timeout=0.5)) as ex:
        with pytest.raises(LimitExceeded) as ei:
            run_cmd(ex, ["sed", ":a;ba", "f"])
        assert ei.value.status == 124


def test_growing_pattern_space_meets_the_string_limit():
    with sandbox({"f": "x\n"}, limits=Limits(max_string_length=10_000)) as ex:
        with pytest.raises(LimitExceeded) as ei:
            run_cmd(ex, ["sed", ":a;s/^/xx/;ta", "f"])
        assert ei.value.what == "string"


def test_pathological_regex_meets_the_deadline():
    with sandbox({"f": "abc" * 3000 + "\n"}, limits=Limits(timeout=0.5)) as ex:
        with pytest.raises(LimitExceeded):
            run_cmd(ex, ["sed", "-n", "/a.*b.*c.*d/p", "f"])


def test_help_and_bad_option():
    with sandbox({}) as ex:
        r = run_cmd(ex, ["sed", "--help"])
        assert r.status == 0 and r.out.startswith("Usage: sed [OPTION]...")
        r = run_cmd(ex, ["sed", "--no-such-option", "p"])
        assert r.status == 1 and r.err.startswith("sed: unrecognized option '--no-such-option'")


def test_fast_paths_agree_with_the_general_executor():
    text = "".join(f"foo {i} bar foo\n" for i in range(3000)) + "tail foo"
    with sandbox({"f": text}) as ex:
        for fast, slow in [
            (["sed", "s/foo/X/g", "f"], ["sed", "s/foo/X/g;s/\\n//", "f"]),
            (["sed", "s/foo/X/", "f"], ["sed", "s/foo/X/;s/\\n//", "f"]),
            (["sed", "-n", "/7 bar/p", "f"], ["sed", "-n", "/7 bar/p;/\\n/d", "f"]),
            (["sed", "/7 bar/d", "f"], ["sed", "/7 bar/d;/\\n/d", "f"]),
            (["sed", "-n", "100,120p", "f"], ["sed", "-n", "100,120p;/\\n/d", "f"]),
            (["sed", "2999,$d", "f"], ["sed", "2999,$d;/\\n/d", "f"]),
        ]:
            a, b = run_cmd(ex, fast), run_cmd(ex, slow)
            assert (a.stdout, a.status) == (b.stdout, b.status), fast
