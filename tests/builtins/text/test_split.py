"""split writes its pieces through the door: compare the files with GNU split's."""

from __future__ import annotations

import os
import subprocess
import tempfile

import pytest

from tests.harness import run_cmd, sandbox

DATA = "".join(f"line {i} " + "x" * (i % 7) + "\n" for i in range(60)).encode() + b"\xff tail"


def _gnu(argv):
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "in"), "wb") as f:
            f.write(DATA)
        subprocess.run(argv, cwd=d, check=True, env={"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"})
        out = {}
        for name in sorted(os.listdir(d)):
            if name != "in":
                with open(os.path.join(d, name), "rb") as f:
                    out[name] = f.read()
        return out


@pytest.mark.parametrize("args", [
    ["-l", "7"], ["-b", "100"], ["-C", "50"], ["-d", "-l", "5"], ["-a", "3", "-l", "20"],
    ["-x", "-b", "64"], ["--additional-suffix=.txt", "-l", "30"], ["-n", "4"], ["-n", "l/4"],
    ["-n", "r/3"], ["-e", "-n", "100"], ["--numeric-suffixes=3", "-l", "25"], ["-l", "1"],
    ["-t", "x", "-l", "10"],
])
def test_split_files_match_gnu(args):
    want = _gnu(["split", *args, "in", "p"])
    with sandbox({"in": DATA}) as ex:
        r = run_cmd(ex, ["split", *args, "in", "p"])
        assert r.status == 0, r.err
        got = {n: ex.shell.fs.read_bytes(n) for n in ex.shell.fs.listdir(".") if n != "in"}
    assert got == want


def test_split_auto_widening_names():
    want = _gnu(["split", "-b", "1", "in"])
    with sandbox({"in": DATA}) as ex:
        r = run_cmd(ex, ["split", "-b", "1", "in"])
        assert r.status == 0
        got = sorted(n for n in ex.shell.fs.listdir(".") if n != "in")
    assert got == sorted(want)


def test_split_read_only_refused():
    with sandbox({"in": "a\nb\n"}, read_only=True) as ex:
        r = run_cmd(ex, ["split", "-l", "1", "in"])
        assert r.status == 1 and "xaa: Permission denied" in r.err
        assert ex.shell.fs.listdir(".") == ["in"]
