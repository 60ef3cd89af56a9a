"""patch: the resulting files against GNU patch, and what golden tests cannot show
(confinement, read-only mounts, non-UTF-8 content, CRLF, dangerous names)."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import tempfile

import pytest

from tests.golden.cases.patch import CASES, D_FIVE, TEN
from tests.golden.framework import ORACLE_ENV, to_bytes
from tests.harness import populate, run_cmd, sandbox, view, view_root

GNU_PATCH = shutil.which("patch", path="/usr/bin:/bin")


def _tree(root: str) -> dict[str, tuple[bytes | None, int]]:
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for d in dirnames:
            p = os.path.join(dirpath, d)
            out[os.path.relpath(p, root) + "/"] = (None, stat.S_IMODE(os.lstat(p).st_mode))
        for f in filenames:
            p = os.path.join(dirpath, f)
            st = os.lstat(p)
            if stat.S_ISLNK(st.st_mode):
                out[os.path.relpath(p, root)] = (b"->" + os.readlink(p).encode(), 0)
                continue
            with open(p, "rb") as fh:
                out[os.path.relpath(p, root)] = (fh.read(), stat.S_IMODE(st.st_mode))
    return out


def _gnu_tree(case: dict) -> tuple[dict, int]:
    with tempfile.TemporaryDirectory(prefix="patch-oracle-") as d:
        populate(d, case.get("files", {}))
        env = dict(ORACLE_ENV, HOME=d, PWD=d)
        p = subprocess.run([GNU_PATCH, *case["argv"][1:]], cwd=d, env=env,
                           input=to_bytes(case.get("stdin")), capture_output=True, timeout=30)
        return _tree(d), p.returncode


TREE_CASES = [c for c in CASES if c.get("tree")]


@pytest.mark.skipif(GNU_PATCH is None, reason="GNU patch (the oracle) is not installed")
@pytest.mark.parametrize("case", TREE_CASES, ids=[c["name"] for c in TREE_CASES])
def test_files_match_gnu_patch(case):
    """Patched files, .orig backups, .rej files, created and deleted files, modes."""
    want, want_status = _gnu_tree(case)
    with sandbox(case.get("files", {})) as ex:
        r = run_cmd(ex, case["argv"], to_bytes(case.get("stdin")))
        got = _tree(view_root(ex))
    assert r.status == want_status, r
    assert sorted(got) == sorted(want)
    for name in want:
        assert got[name] == want[name], name


def test_non_utf8_content_and_names():
    old = b"caf\xe9\n\xff\xfe line\nend\n"
    new = b"caf\xe9\n\xff\xfe LINE\nend\n"
    name = b"f\xe9".decode("utf-8", "surrogateescape")
    diff = (b"--- f\xe9\n+++ f\xe9\n@@ -1,3 +1,3 @@\n caf\xe9\n-\xff\xfe line\n"
            b"+\xff\xfe LINE\n end\n")
    with sandbox({name: old}) as ex:
        r = run_cmd(ex, ["patch"], diff)
        assert r.status == 0, r
        assert r.stdout == b"patching file 'f\xe9'\n"
        with open(view(ex, os.fsdecode(b"f\xe9")), "rb") as fh:
            assert fh.read() == new


def test_crlf_lines_pass_through_unchanged():
    diff = b"--- w\n+++ w\n@@ -1,2 +1,2 @@\n a\r\n-b\r\n+B\r\n"
    with sandbox({"w": b"a\r\nb\r\nc\r\n"}) as ex:
        r = run_cmd(ex, ["patch"], diff)
        assert (r.status, r.err) == (0, ""), r
        with open(view(ex, "w"), "rb") as fh:
            assert fh.read() == b"a\r\nB\r\nc\r\n"


def test_denied_path_through_escaping_symlink():
    diff = "--- escape/passwd\n+++ escape/passwd\n@@ -1 +1 @@\n-root\n+evil\n"
    with sandbox({"escape": {"symlink": "/etc"}}) as ex:
        host = ex.workspace_dir
        for argv in (["patch", "-p0"], ["patch", "escape/passwd"]):
            r = run_cmd(ex, argv, diff)
            assert r.status != 0, r
            assert host not in r.out + r.err
            assert "Traceback" not in r.err
        r = run_cmd(ex, ["patch", "escape/passwd"], diff)
        assert "Permission denied" in r.err, r
        r = run_cmd(ex, ["patch", "/etc/passwd"], diff)
        assert r.status != 0 and host not in r.out + r.err
        assert not os.path.exists(os.path.join(host, "escape", "passwd.rej"))


def test_symlink_target_is_refused_like_gnu():
    with sandbox({"real": TEN, "f": {"symlink": "real"}}) as ex:
        r = run_cmd(ex, ["patch"], D_FIVE)
        assert r.status == 1
        assert r.out.startswith("File f is not a regular file -- refusing to patch\n")
        with open(view(ex, "real")) as fh:
            assert fh.read() == TEN


def test_read_only_mount():
    with sandbox({"f": TEN}, read_only=True) as ex:
        r = run_cmd(ex, ["patch"], D_FIVE)
        assert r.status == 2, r
        assert "Permission denied" in r.err or "Read-only" in r.err, r.err
        assert ex.workspace_dir not in r.out + r.err
        with open(view(ex, "f")) as fh:
            assert fh.read() == TEN
        assert r.out == "File f is read-only; trying to patch anyway\npatching file f\n"
        r = run_cmd(ex, ["patch", "--dry-run"], D_FIVE)
        assert r.status == 0
        assert r.out == "File f is read-only; trying to patch anyway\nchecking file f\n"


def test_climbing_names_are_refused_and_nothing_is_written_outside():
    diff = "--- a/../../outside\n+++ b/../../outside\n@@ -0,0 +1 @@\n+pwn\n"
    with sandbox({"sub/": None}) as ex:
        r = run_cmd(ex, ["patch", "-p1", "-d", "sub"], diff)
        assert r.status == 1
        assert r.out.startswith("Ignoring potentially dangerous file name ../../outside\n")
        assert "can't find file to patch" in r.out
        parent = os.path.dirname(ex.workspace_dir)
        assert not os.path.exists(os.path.join(parent, "outside"))
        assert sorted(os.listdir(view_root(ex))) == ["sub"]


def test_explicit_target_outside_workspace_is_confined():
    with sandbox({}) as ex:
        r = run_cmd(ex, ["patch", "/etc/hostname"], D_FIVE)
        assert r.status != 0
        assert ex.workspace_dir not in r.out + r.err


def test_mode_is_kept():
    with sandbox({"f": {"content": TEN, "mode": 0o751}}) as ex:
        r = run_cmd(ex, ["patch"], D_FIVE)
        assert r.status == 0
        st = os.stat(view(ex, "f"))
        assert stat.S_IMODE(st.st_mode) == 0o751


def test_empty_target_and_directory_patch_file():
    with sandbox({"f": "", "d/": None}) as ex:
        r = run_cmd(ex, ["patch"], D_FIVE)
        assert r.status == 1 and "Hunk #1 FAILED at 2." in r.out
        r = run_cmd(ex, ["patch", "-i", "d"])
        assert r.status == 2 and r.err.startswith("patch: **** ")
        assert "Traceback" not in r.err


def test_large_file_many_hunks_is_fast_enough():
    lines = [f"line {i}\n" for i in range(20000)]
    new = list(lines)
    hunks = []
    for k in range(100, 20000, 400):
        new[k] = f"LINE {k}\n"
        hunks.append(f"@@ -{k - 2},5 +{k - 2},5 @@\n" + "".join(
            " " + lines[j] for j in range(k - 3, k)) + "-" + lines[k] + "+" + new[k]
            + "".join(" " + lines[j] for j in range(k + 1, k + 2)))
    diff = "--- f\n+++ f\n" + "".join(hunks)
    with sandbox({"f": "".join(lines)}) as ex:
        r = run_cmd(ex, ["patch", "-s"], diff)
        assert (r.status, r.out, r.err) == (0, "", ""), r
        with open(view(ex, "f")) as fh:
            assert fh.read() == "".join(new)
