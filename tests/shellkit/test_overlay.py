"""Overlay mounts: the host directory is a read-only lower layer, writes land in a private
upper layer. The same attacks as on a plain mount, on both layers and both doors; whiteouts,
merged listings, ``..``, copy-up (and a copy-up racing a symlink swap); the faces' flags."""

from __future__ import annotations

import errno
import os
import shutil
import threading
import time

import pytest

from pysh.interpreter import ExecCommand
from pysh.shellkit import FileSystemError, Mount, MountError
from tests.harness import tree_state
from tests.shellkit.conftest import CANARY, assert_no_canary
from tests.shellkit.test_escapes import (
    DENIED,
    ESCAPES,
    OPS,
    THROUGH_ONLY,
    door_a,
    door_b_errno,
    outside_untouched,
)
from tests.shellkit.test_race import _exchange


@pytest.fixture
def ov(tree):
    """An instance whose workspace is an overlay of the trap tree; the whole host tree
    (workspace and outside) must be exactly as it was when it ends."""
    before = [tree_state(tree.base)]
    with ExecCommand(tree.ws, overlay=True) as ex:
        # a test that changed the host tree itself says so once it is done with it
        ex.host_changed = lambda: before.__setitem__(0, tree_state(tree.base))
        yield ex
    assert tree_state(tree.base) == before[0]


def upper(ex) -> str:
    return ex.table.layers["/batch"].upper


def check_escapes(shell) -> None:
    """Every trap is judged as on a plain mount, at both doors, for every kind of operation
    (a write would copy up: it must be refused first)."""
    for rel, code in ESCAPES:
        path = f"/batch/{rel}"
        for op in sorted(OPS):
            got = door_a(OPS[op], shell, path)
            assert got in DENIED | {errno.ENOTDIR, errno.EISDIR, errno.EPERM}, (op, path, got)
            if op not in THROUGH_ONLY:
                write = op not in ("read", "stat", "listdir")
                assert door_b_errno(shell, path, write=write) == code, (op, path)
                assert got == code, (op, path, got)


def test_escapes_denied_on_the_lower_layer(ov, tree):
    check_escapes(ov.shell)
    outside_untouched(tree)
    assert os.listdir(upper(ov)) == []  # nothing was copied up on the way to a refusal


def test_escapes_denied_on_the_upper_layer(ov, tree):
    """The same traps in the upper layer (planted host side: they mask the lower ones), and
    links the script makes there itself."""
    shutil.copytree(tree.ws, upper(ov), symlinks=True, dirs_exist_ok=True)
    check_escapes(ov.shell)
    fs = ov.shell.fs
    for target in ("/etc", "../../../../../../..", os.path.join(tree.outside, "secret.txt")):
        with pytest.raises(FileSystemError) as ei:  # no link out is made in either layer
            fs.symlink(target, "/batch/planted")
        assert ei.value.errno == errno.EPERM
        assert_no_canary(ei.value)
    assert not os.path.lexists(os.path.join(upper(ov), "planted"))
    outside_untouched(tree)


def test_lower_directory_swapped_for_a_link_is_never_followed(ov, tree):
    """A lower directory replaced (host side) by a link out after the sandbox saw it."""
    fs = ov.shell.fs
    assert fs.read_bytes("/batch/dir/sub/f") == b"deep\n"
    os.rename(os.path.join(tree.ws, "dir"), os.path.join(tree.base, "moved"))
    os.symlink(tree.outside, os.path.join(tree.ws, "dir"))
    try:
        for path in ("/batch/dir/secret.txt", "/batch/dir/sub/f"):
            for op in ("read", "write", "append", "chmod"):
                assert door_a(OPS[op], ov.shell, path) in DENIED
            assert door_b_errno(ov.shell, path, write=True) in DENIED
    finally:
        os.unlink(os.path.join(tree.ws, "dir"))
        os.rename(os.path.join(tree.base, "moved"), os.path.join(tree.ws, "dir"))
        ov.host_changed()
    outside_untouched(tree)


def test_writes_whiteouts_and_merged_listing(ov, tree):
    fs = ov.shell.fs
    fs.write_bytes("/batch/file.txt", b"changed\n")
    fs.write_bytes("/batch/dir/new.txt", b"new\n")
    fs.unlink("/batch/in_rel")
    assert fs.read_bytes("/batch/file.txt") == b"changed\n"
    names = fs.listdir("/batch")
    assert len(names) == len(set(names))  # an entry in both layers is listed once
    assert "in_rel" not in names and "file.txt" in names
    assert sorted(fs.listdir("/batch/dir")) == ["deep_out", "new.txt", "sub", "up"]
    with pytest.raises(FileSystemError) as ei:
        fs.read_bytes("/batch/in_rel")
    assert ei.value.errno == errno.ENOENT
    # a whiteout hides a whole lower directory; one made in its place is opaque
    for f in fs.listdir("/batch/dir/sub"):
        fs.unlink(f"/batch/dir/sub/{f}")
    fs.rmdir("/batch/dir/sub")
    assert not fs.exists("/batch/dir/sub/f")
    fs.mkdir("/batch/dir/sub")
    assert fs.listdir("/batch/dir/sub") == []
    fs.write_bytes("/batch/in_rel", b"again\n")
    assert fs.read_bytes("/batch/in_rel") == b"again\n"
    # the host directory is untouched; the upper layer holds only what changed
    assert open(os.path.join(tree.ws, "file.txt"), "rb").read() == b"inside\n"
    assert sorted(os.listdir(upper(ov))) == ["dir", "file.txt", "in_rel"]


def test_rename_of_a_merged_directory_and_dotdot(ov):
    fs = ov.shell.fs
    fs.write_bytes("/batch/dir/added", b"a\n")
    fs.rename("/batch/dir", "/batch/dir2")
    assert not fs.exists("/batch/dir")
    assert sorted(fs.listdir("/batch/dir2")) == ["added", "deep_out", "sub", "up"]
    assert fs.read_bytes("/batch/dir2/sub/f") == b"deep\n"
    assert fs.read_bytes("/batch/dir2/sub/../up") == b"inside\n"  # ../file.txt from dir2
    assert fs.read_bytes("/batch/dir2/sub/../../file.txt") == b"inside\n"
    assert fs.realpath("/batch/dir2/sub/..") == "/batch/dir2"
    with pytest.raises(FileSystemError) as ei:  # .. above the mount root goes no further
        fs.read_bytes("/batch/../../../etc/passwd")
    assert ei.value.errno in DENIED
    assert fs.read_bytes("/batch/../batch/file.txt") == b"inside\n"


def test_door_b_reads_the_holding_layer_and_copies_up_for_writing(ov, tree):
    shell = ov.shell
    ws, up = os.path.realpath(tree.ws), os.path.realpath(upper(ov))
    assert str(shell.resolve("/batch/dir/sub/f")) == os.path.join(ws, "dir/sub/f")
    host = str(shell.resolve("/batch/dir/sub/f", write=True))
    assert host == os.path.join(up, "dir/sub/f")
    with open(host, "rb") as f:
        assert f.read() == b"deep\n"  # copied up with its data
    with open(host, "ab") as f:
        f.write(b"more\n")
    assert shell.fs.read_bytes("/batch/dir/sub/f") == b"deep\nmore\n"
    assert str(shell.resolve("/batch/dir/sub/f")) == host  # the upper copy wins now
    new = str(shell.resolve("/batch/dir/sub/../newfile", write=True))
    assert new == os.path.join(up, "dir/newfile") and os.path.isdir(os.path.dirname(new))
    assert_no_canary(host, new)


def test_hard_linked_lower_file_is_not_copied_up_for_writing(ov, tree):
    os.link(os.path.join(tree.outside, "secret.txt"), os.path.join(tree.ws, "hl"))
    try:
        for op in ("write", "append", "chmod"):
            got = door_a(OPS[op], ov.shell, "/batch/hl")
            assert got in (errno.EPERM, errno.EACCES), op
        assert door_b_errno(ov.shell, "/batch/hl", write=True) in (errno.EPERM, errno.EACCES)
    finally:
        os.unlink(os.path.join(tree.ws, "hl"))
        ov.host_changed()
    outside_untouched(tree)


def test_copy_up_racing_a_symlink_swap_never_writes_outside(ov, tree):
    """A lower directory swapped, host side, with a link out while the sandbox copies a
    file of it up: the copy is made from what the walk held, never through the link."""
    ws = tree.ws
    real = os.path.join(ws, "swap")
    os.mkdir(real)
    with open(os.path.join(real, "f"), "wb") as f:
        f.write(b"inside")
    with open(os.path.join(tree.outside, "f"), "wb") as f:
        f.write(CANARY.encode())
    other = os.path.join(ws, "swap_other")
    os.symlink(tree.outside, other)
    up = upper(ov)
    stop = threading.Event()
    swaps = 0

    def swapper():
        nonlocal swaps
        while not stop.is_set():
            _exchange(real, other)
            swaps += 1

    t = threading.Thread(target=swapper, daemon=True)
    t.start()
    fs, shell = ov.shell.fs, ov.shell
    wrote = denied = 0
    bad = []
    deadline = time.monotonic() + 2.0
    try:
        while time.monotonic() < deadline:
            try:
                fs.append_bytes("/batch/swap/f", b"+")
                wrote += 1
            except FileSystemError as e:
                assert_no_canary(e)
                denied += 1
            try:
                host = str(shell.resolve("/batch/swap/f", write=True))
                if host != os.path.join(os.path.realpath(up), "swap", "f"):
                    bad.append(host)
            except FileSystemError:
                pass
            for name in ("swap", "swap_other"):  # start over: the next write copies up again
                shutil.rmtree(os.path.join(up, name), ignore_errors=True)
                if os.path.lexists(os.path.join(up, name)):
                    os.unlink(os.path.join(up, name))
    finally:
        stop.set()
        t.join()
        if os.path.islink(real):
            _exchange(real, other)
    assert swaps > 100
    assert wrote > 0 and denied > 0  # the race really happened both ways
    assert bad == []
    with open(os.path.join(tree.outside, "f"), "rb") as f:
        assert f.read() == CANARY.encode()
    os.unlink(os.path.join(tree.outside, "f"))
    with open(os.path.join(real, "f"), "rb") as f:
        assert f.read() == b"inside"
    shutil.rmtree(real)
    os.unlink(other)
    ov.host_changed()
    outside_untouched(tree)


def test_overlay_flags_of_the_faces(tmp_path):
    import pysh
    from pysh import cli, mcp

    host = tmp_path / "h"
    host.mkdir()
    (host / "keep").write_bytes(b"host\n")
    before = tree_state(str(host))
    with pysh.Sandbox(str(host), overlay=True) as sb:
        r = sb.run("echo new > keep; echo x > made; rm keep; echo y > keep; cat keep made; ls")
        assert r.stdout == "y\nx\nkeep\nmade\n", r
    with pysh.Sandbox(None, mounts=[(str(host), "/data", "overlay")]) as sb:
        r = sb.run("rm /data/keep && ls /data | wc -l && touch /data/t && ls /data")
        assert r.stdout == "0\nt\n", r
    assert tree_state(str(host)) == before
    with pytest.raises(MountError):
        Mount("/x", str(host), read_only=True, overlay=True)
    with pytest.raises(ValueError):
        pysh.Sandbox(None, mounts=[(str(host), "/data", "overlya")])
    o = cli.parse_cli(["--overlay", "--mount", f"{host}:/m:overlay", "-c", "true"])
    assert o.overlay and o.mounts == [(str(host), "/m", "overlay")]
    with pytest.raises(cli.UsageError):
        cli.parse_cli(["--overlay", "--read-only", "-c", "true"])
    with pytest.raises(cli.UsageError):
        cli.parse_cli(["--mount", f"{host}:/m:overlya", "-c", "true"])
    o, _ = mcp.parse_args(["--overlay", "--sandbox", str(host)])
    ex = cli.build_instance(o)
    assert ex.overlay and not ex.read_only
