"""Change sets of an overlaid workspace: list, diff (git's format: pysh's git, itself
checked against git 2.39, is the oracle), apply (conflicts, crash safety), discard; the
CLI's --changes/--apply and the MCP tools."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap

import anyio
import pytest

import pysh
from tests.harness import tree_state

ENV = {"GIT_AUTHOR_NAME": "A", "GIT_AUTHOR_EMAIL": "a@example.com", "GIT_COMMITTER_NAME": "C",
       "GIT_COMMITTER_EMAIL": "c@example.com", "GIT_AUTHOR_DATE": "@1700000000 +0000",
       "GIT_COMMITTER_DATE": "@1700000000 +0000", "TZ": "UTC"}

AGENT = r"""
printf 'one\nTWO\nthree\nfour\n' > text.txt; rm gone.txt; chmod +x tool.sh
printf '\0\1\2' > blob.bin; mkdir -p new/deep && echo hi > new/deep/h.txt
ln -s text.txt link; rm -r olddir; mkdir olddir; echo again > olddir/kept
echo same > same.txt; printf 'x' > emptied; : > emptied
"""


def make_lower(root) -> None:
    root.mkdir()
    (root / "text.txt").write_bytes(b"one\ntwo\nthree\n")
    (root / "gone.txt").write_bytes(b"bye\n")
    (root / "tool.sh").write_bytes(b"echo tool\n")
    (root / "blob.bin").write_bytes(b"\0\0\0\0")
    (root / "same.txt").write_bytes(b"same\n")
    (root / "emptied").write_bytes(b"full\n")
    (root / "olddir").mkdir()
    (root / "olddir" / "a").write_bytes(b"a\n")
    (root / "olddir" / "kept").write_bytes(b"kept\n")
    for p in root.rglob("*"):
        if p.is_file():
            p.chmod(0o644)


def test_changes_list_diff_and_stat_match_git(tmp_path):
    lower, copy = tmp_path / "lower", tmp_path / "copy"
    make_lower(lower)
    shutil.copytree(lower, copy, symlinks=True)
    before = tree_state(str(lower))
    with pysh.Sandbox(str(copy), env=ENV) as sb:  # the oracle: git on a plain copy
        r = sb.run("git init -q && git add -A && git commit -qm base && " + AGENT
                   + "git add -A && git diff --cached && echo ==== && git diff --cached --stat"
                   " --summary")
        assert r.exit_code == 0, r
        want_diff, want_stat = r.stdout.split("====\n")
    with pysh.Sandbox(str(lower), env=ENV, overlay=True) as sb:
        assert sb.run(AGENT).exit_code == 0
        changes = {c.path: c for c in sb.changes()}
        assert sb.diff() == want_diff
        assert sb.diff(stat=True) == want_stat
    assert tree_state(str(lower)) == before
    brief = {p: (c.status, c.kind) for p, c in changes.items()}
    assert brief == {
        "/batch/blob.bin": ("modified", "file"), "/batch/emptied": ("modified", "file"),
        "/batch/gone.txt": ("deleted", "file"), "/batch/link": ("added", "symlink"),
        "/batch/new": ("added", "dir"), "/batch/new/deep": ("added", "dir"),
        "/batch/new/deep/h.txt": ("added", "file"), "/batch/olddir/a": ("deleted", "file"),
        "/batch/olddir/kept": ("modified", "file"), "/batch/text.txt": ("modified", "file"),
        "/batch/tool.sh": ("modified", "file")}  # same.txt: rewritten unchanged, not listed
    t = changes["/batch/text.txt"]
    assert (t.old_size, t.size) == (14, 19)
    assert (changes["/batch/tool.sh"].old_mode, changes["/batch/tool.sh"].mode) == (0o644, 0o755)
    assert changes["/batch/link"].target == "text.txt"
    assert json.loads(json.dumps(changes["/batch/tool.sh"].to_dict()))["mode"] == "0755"


def test_apply_is_all_or_nothing_and_reports_conflicts(tmp_path):
    lower = tmp_path / "lower"
    make_lower(lower)
    with pysh.Sandbox(str(lower), overlay=True) as sb:
        assert sb.run("cat text.txt same.txt >/dev/null;" + AGENT).exit_code == 0
        # the host changes two files the sandbox read or changed, and adds one it made
        (lower / "text.txt").write_bytes(b"host edit\n")
        (lower / "gone.txt").write_bytes(b"host edit\n")
        (lower / "link").write_bytes(b"host made it\n")
        host = tree_state(str(lower))
        r = sb.apply()
        assert sorted(p for p, _ in r.conflicts) == ["/batch/gone.txt", "/batch/link",
                                                     "/batch/text.txt"]
        assert all(why for _, why in r.conflicts) and r.applied == []
        assert tree_state(str(lower)) == host  # nothing written, no temporary left
        # the others, asked for by name, go through; the conflicts stay the sandbox's
        rest = [c.path for c in sb.changes()
                if c.path not in ("/batch/gone.txt", "/batch/link", "/batch/text.txt")]
        r = sb.apply(rest)
        assert r.conflicts == [] and sorted(r.applied) == sorted(rest)
        assert (lower / "text.txt").read_bytes() == b"host edit\n"
        assert (lower / "link").read_bytes() == b"host made it\n"
        assert (lower / "olddir" / "kept").read_bytes() == b"again\n"
        assert not (lower / "olddir" / "a").exists()
        assert (lower / "new" / "deep" / "h.txt").read_bytes() == b"hi\n"
        assert (lower / "tool.sh").stat().st_mode & 0o777 == 0o755
        assert (lower / "blob.bin").read_bytes() == b"\0\1\2"
        assert not [n for n in os.listdir(lower) if n.startswith(".pysh-apply")]
        left = sorted(c.path for c in sb.changes())
        assert left == ["/batch/gone.txt", "/batch/link", "/batch/text.txt"]
        # only what was asked for; then discard drops the rest
        assert sb.apply(["nothing-here"]).applied == []
        sb.discard()
        assert sb.changes() == []
        assert sb.run("cat text.txt gone.txt link").stdout == "host edit\nhost edit\nhost made it\n"


CRASH = textwrap.dedent("""
    import os, signal, sys
    import pysh
    renames = 0
    real = os.rename
    def rename(src, *a, **k):
        global renames
        real(src, *a, **k)
        if str(src).startswith(".pysh-apply-"):
            renames += 1
            if renames == 3:
                os.kill(os.getpid(), signal.SIGKILL)  # a crash between two renames
    with pysh.Sandbox(sys.argv[1], overlay=True) as sb:
        assert sb.run("for i in $(seq 10); do echo new$i > f$i; done; mkdir -p d/e; "
                      "echo n > d/e/n").exit_code == 0
        os.rename = rename
        sb.apply()
""")


def test_a_crash_between_renames_leaves_each_file_old_or_new(tmp_path):
    lower = tmp_path / "lower"
    lower.mkdir()
    for i in range(1, 11):
        (lower / f"f{i}").write_bytes(b"old%d\n" % i * 1000)
    (lower / ".pysh-apply-mine").write_bytes(b"the user's\n")  # never an apply's to remove
    p = subprocess.run([sys.executable, "-c", CRASH, str(lower)], timeout=120,
                       capture_output=True)
    assert p.returncode == -9, p.stderr
    got = {f"f{i}": (lower / f"f{i}").read_bytes() for i in range(1, 11)}
    new = [k for k, v in got.items() if v == b"new%s\n" % k[1:].encode()]
    old = [k for k, v in got.items() if v == b"old%s\n" % k[1:].encode() * 1000]
    # in path order: the new directory d (one rename, whole), f1, f10; the rest old
    assert sorted(new) == ["f1", "f10"] and len(old) == 8, got  # every file whole
    assert (lower / "d" / "e" / "n").read_bytes() == b"n\n"
    temps = sorted(n for n in os.listdir(lower) if n.startswith(".pysh-apply-"))
    assert len(temps) == 2 + 8, temps  # the user's file, the journal, 8 temporaries
    with pysh.Sandbox(str(lower)) as sb:  # the next sandbox on that directory sweeps them
        assert sb.run("ls -A").stdout == "".join(
            f"{n}\n" for n in sorted([".pysh-apply-mine", "d"] + list(got)))
    assert (lower / ".pysh-apply-mine").read_bytes() == b"the user's\n"
    assert got == {f"f{i}": (lower / f"f{i}").read_bytes() for i in range(1, 11)}


def test_cli_changes_and_apply(tmp_path, capsys):
    from pysh import cli

    lower = tmp_path / "lower"
    make_lower(lower)
    before = tree_state(str(lower))
    out = tmp_path / "changes.json"
    assert cli.main(["--sandbox", str(lower), "--overlay", "--changes", "json",
                     "--changes-to", str(out), "-c", "rm gone.txt"]) == 0
    assert [c["path"] for c in json.loads(out.read_text())] == ["/batch/gone.txt"]
    assert cli.main(["--sandbox", str(lower), "--overlay", "--changes", "stat",
                     "-c", "echo x >> same.txt"]) == 0
    assert capsys.readouterr().err == " same.txt | 1 +\n 1 file changed, 1 insertion(+)\n"
    assert tree_state(str(lower)) == before
    assert cli.main(["--sandbox", str(lower), "--overlay", "--apply", "-c",
                     "echo x >> same.txt"]) == 0
    assert (lower / "same.txt").read_bytes() == b"same\nx\n"
    assert cli.main(["--sandbox", str(lower), "--apply", "-c", "true"]) == 2
    assert "no overlay mount" in capsys.readouterr().err


def test_mcp_change_set_tools(tmp_path):
    pytest.importorskip("mcp")
    from mcp import ClientSession, StdioServerParameters, stdio_client

    lower = tmp_path / "lower"
    make_lower(lower)
    params = StdioServerParameters(command=sys.executable,
                                   args=["-m", "pysh", "mcp", "--sandbox", str(lower), "--overlay"],
                                   cwd=os.getcwd())

    def text(r) -> str:
        return "".join(c.text for c in r.content if getattr(c, "type", "") == "text")

    async def scenario():
        with anyio.fail_after(60):
            async with stdio_client(params) as (r, w), ClientSession(r, w) as s:
                await s.initialize()
                names = {t.name for t in (await s.list_tools()).tools}
                await s.call_tool("bash", {"command": "echo new > made; rm gone.txt"})
                listed = json.loads(text(await s.call_tool("changes", {})))
                stat = text(await s.call_tool("diff", {"stat": True}))
                one = text(await s.call_tool("apply_changes", {"paths": ["made"]}))
                await s.call_tool("discard_changes", {})
                after = text(await s.call_tool("bash", {"command": "ls"}))
                return names, listed, stat, one, after

    names, listed, stat, one, after = anyio.run(scenario)
    assert {"changes", "diff", "apply_changes", "discard_changes"} <= names
    assert [(c["path"], c["status"]) for c in listed] == [("/batch/gone.txt", "deleted"),
                                                          ("/batch/made", "added")]
    assert "2 files changed" in stat
    assert one == "applied /batch/made\n"
    assert (lower / "made").read_bytes() == b"new\n" and (lower / "gone.txt").exists()
    assert "gone.txt" in after and "made" in after


def test_apply_of_type_changes(tmp_path):
    lower = tmp_path / "lower"
    (lower / "d").mkdir(parents=True)
    (lower / "e").mkdir()
    (lower / "d" / "x").write_bytes(b"x\n")
    (lower / "f").write_bytes(b"f\n")
    with pysh.Sandbox(str(lower), overlay=True) as sb:
        sb.run("rm -r d; echo now-a-file > d; rm f; mkdir -p f/g; echo in > f/g/h; rmdir e; "
               "ln -s d e")
        assert [(c.path, c.status, c.old_kind, c.kind) for c in sb.changes()] == [
            ("/batch/d", "modified", "dir", "file"), ("/batch/d/x", "deleted", "file", "file"),
            ("/batch/e", "modified", "dir", "symlink"), ("/batch/f", "modified", "file", "dir"),
            ("/batch/f/g", "added", None, "dir"), ("/batch/f/g/h", "added", None, "file")]
        assert sb.apply().conflicts == []
        assert sb.changes() == []
    assert (lower / "d").read_bytes() == b"now-a-file\n" and os.readlink(lower / "e") == "d"
    assert (lower / "f" / "g" / "h").read_bytes() == b"in\n"


def test_the_sweep_removes_only_a_dead_applys_own_temporaries(tmp_path):
    import fcntl

    lower, outside = tmp_path / "lower", tmp_path / "outside"
    lower.mkdir()
    outside.mkdir()
    tx = "ab" * 16
    (lower / "sub").mkdir()
    (lower / "link").symlink_to(outside)
    for d in (lower, lower / "sub", outside):
        (d / f".pysh-apply-{tx}-1").write_bytes(b"temp")
        (d / f".pysh-apply-{tx}-x").write_bytes(b"not a temporary's name")
    (lower / f".pysh-apply-{tx}.journal").write_text(
        json.dumps({"pysh-apply": 1, "dirs": ["", "sub", "..", "link", "/tmp"]}))
    live = "cd" * 16  # a journal its apply still holds locked: not swept
    (lower / f".pysh-apply-{live}-1").write_bytes(b"in flight")
    (lower / f".pysh-apply-{live}.journal").write_text(json.dumps({"dirs": [""]}))
    with open(lower / f".pysh-apply-{live}.journal") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        with pysh.Sandbox(str(lower), overlay=True):
            pass
    assert sorted(os.listdir(lower)) == [f".pysh-apply-{tx}-x", f".pysh-apply-{live}-1",
                                         f".pysh-apply-{live}.journal", "link", "sub"]
    assert os.listdir(lower / "sub") == [f".pysh-apply-{tx}-x"]
    assert len(os.listdir(outside)) == 2  # through a symlink or '..': never
