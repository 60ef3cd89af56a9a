"""format-patch/am/apply, notes, archive and bisect: what the goldens cannot show (forms this
port refuses, read back with the standard library's readers instead of the real tools)."""

from __future__ import annotations

import io
import tarfile
import zipfile

import pytest

from tests.harness import run_cmd

ENV = {"GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "T",
       "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_AUTHOR_DATE": "@1700000000 +0000",
       "GIT_COMMITTER_DATE": "@1700000000 +0000"}


def g(inst, *args):
    return run_cmd(inst, ["git", *args], env=ENV)


@pytest.fixture
def repo(inst):
    fs = inst.shell.fs
    assert g(inst, "init", "-q", "-b", "main").status == 0
    fs.mkdir("/batch/pkg/sub", parents=True, exist_ok=True)
    fs.write_bytes("/batch/f", b"x\n")
    fs.write_bytes("/batch/pkg/run.sh", b"#!/bin/sh\n")
    fs.write_bytes("/batch/pkg/sub/bin", bytes(range(256)))
    assert run_cmd(inst, ["chmod", "+x", "pkg/run.sh"]).status == 0
    assert run_cmd(inst, ["ln", "-s", "f", "link"]).status == 0
    assert g(inst, "add", "f", "pkg", "link").status == 0
    assert g(inst, "commit", "-qm", "one").status == 0
    fs.write_bytes("/batch/f", b"y\n")
    assert g(inst, "commit", "-qam", "two").status == 0
    return inst


@pytest.mark.parametrize("argv", [
    ["apply", "--3way", "x.patch"], ["apply", "--reject", "x.patch"],
    ["am", "-3", "x.patch"], ["am", "--scissors", "x.patch"],
    ["format-patch", "--cover-letter", "-1"], ["format-patch", "--thread", "-1"],
    ["notes", "copy", "HEAD", "HEAD~1"], ["notes", "edit"],
    ["bisect", "visualize"], ["bisect", "replay", "log"],
    ["archive", "--remote=origin", "HEAD"], ["archive", "--add-file=f", "HEAD"],
])
def test_unsupported_forms_refused_in_one_line(repo, argv):
    repo.shell.fs.write_bytes("/batch/x.patch", b"")
    r = g(repo, *argv)
    assert r.status == 128
    assert r.out == ""
    assert r.err.startswith("fatal: ") and r.err.count("\n") == 1
    assert "Error" not in r.err and "/tmp" not in r.err


def test_binary_change_refused_by_format_patch(repo):
    repo.shell.fs.write_bytes("/batch/pkg/sub/bin", bytes(range(255, -1, -1)))
    assert g(repo, "commit", "-qam", "bin").status == 0
    r = g(repo, "format-patch", "-1", "--stdout")
    assert (r.out, r.status) == ("", 128)
    assert r.err == ("fatal: format-patch of binary changes is not supported by this port "
                     "(pkg/sub/bin)\n")


def test_zip_and_tar_read_back(repo):
    """The archives read with Python's readers: the tree's entries, modes and contents."""
    assert g(repo, "archive", "-o", "a.zip", "--prefix=p/", "HEAD").status == 0
    assert g(repo, "archive", "-o", "a.tgz", "HEAD", "pkg").status == 0
    z = zipfile.ZipFile(io.BytesIO(repo.shell.fs.read_bytes("/batch/a.zip")))
    assert z.namelist() == ["p/", "p/f", "p/link", "p/pkg/", "p/pkg/run.sh", "p/pkg/sub/",
                            "p/pkg/sub/bin"]
    assert z.read("p/pkg/sub/bin") == bytes(range(256))
    assert z.read("p/link") == b"f"
    assert z.getinfo("p/pkg/run.sh").external_attr >> 16 == 0o100755
    assert z.getinfo("p/link").external_attr >> 16 == 0o120777
    head = g(repo, "rev-parse", "HEAD").out.strip()
    assert z.comment.decode() == head
    t = tarfile.open(fileobj=io.BytesIO(repo.shell.fs.read_bytes("/batch/a.tgz")))
    assert [(m.name, oct(m.mode), m.type) for m in t.getmembers()] == [
        ("pkg", "0o775", tarfile.DIRTYPE), ("pkg/run.sh", "0o775", tarfile.REGTYPE),
        ("pkg/sub", "0o775", tarfile.DIRTYPE), ("pkg/sub/bin", "0o664", tarfile.REGTYPE)]
    assert t.extractfile("pkg/sub/bin").read() == bytes(range(256))
    assert t.pax_headers == {"comment": head}


def test_bisect_run_goes_through_the_shell(repo):
    """bisect run runs its command through the registry, in-process: a command that does
    not exist is the shell's 127, which bisect takes as 'bad' (as git does)."""
    assert g(repo, "bisect", "start", "HEAD", "HEAD~1").status == 0
    r = g(repo, "bisect", "run", "no-such-command-here")
    assert r.status == 0
    assert "is the first bad commit" in r.out
    assert "Error" not in r.err
