"""dd beyond the golden cases: the files it writes, the transfer line, confinement."""

from __future__ import annotations

import re

import pytest

from tests.harness import run_cmd, sandbox

pytestmark = pytest.mark.overlay_too  # also on an overlay in make test

FILES = {"in.txt": "hello world\n", "o1": "abcdef", "escape": {"symlink": "/etc"}}


def _dd(*operands, files=FILES):
    with sandbox(files) as ex:
        r = run_cmd(ex, ["dd", *operands])
        out = ex.shell.fs.read_bytes("o1") if ex.shell.fs.exists("o1") else None
    return r, out


def test_output_files_as_gnu_writes_them():
    # each expectation was checked against GNU dd 9.1 on this machine
    assert _dd("if=in.txt", "of=o1", "bs=4", "count=2", "status=none")[1] == b"hello wo"
    assert _dd("if=in.txt", "of=o1", "seek=1", "bs=3", "conv=notrunc", "status=none")[1] == \
        b"abchello world\n"
    assert _dd("if=in.txt", "of=o1", "bs=3", "seek=2", "count=1", "status=none")[1] == \
        b"abcdefhel"
    assert _dd("if=in.txt", "of=o1", "oflag=append", "conv=notrunc", "status=none")[1] == \
        b"abcdefhello world\n"
    r, out = _dd("if=in.txt", "of=o1", "conv=excl")
    assert r.status == 1 and out == b"abcdef" and "failed to open 'o1': File exists" in r.err


def test_transfer_line():
    r, _ = _dd("if=in.txt", "of=o1")
    lines = r.err.splitlines()
    assert lines[:2] == ["0+1 records in", "0+1 records out"]
    assert re.fullmatch(r"12 bytes copied, [0-9.e-]+ s, [0-9.]+ [kMG]B/s", lines[2]), lines[2]
    with sandbox({}) as ex:
        r = run_cmd(ex, ["dd", "if=/dev/zero", "of=/dev/null", "bs=64K", "count=16"])
    assert re.match(r"1048576 bytes \(1\.0 MB, 1\.0 MiB\) copied, ", r.err.splitlines()[2])


def test_confined_paths():
    r, _ = _dd("if=escape/passwd")
    assert r.status == 1 and "failed to open 'escape/passwd': Permission denied" in r.err
    r, _ = _dd("if=in.txt", "of=/etc/hosts")
    assert r.status == 1 and "failed to open '/etc/hosts': No such file or directory" in r.err
