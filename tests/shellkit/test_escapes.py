"""Symlink escapes, at both doors, for every kind of operation."""

from __future__ import annotations

import errno
import os

import pytest

from pysh.shellkit import FileSystemError
from tests.harness import PLANTS_ON_THE_HOST, READS_THE_HOST
from tests.shellkit.conftest import SECRET, assert_no_canary

DENIED = {errno.EACCES, errno.ENOENT, errno.ELOOP}

# (path through the trap, errno both doors must give)
ESCAPES = [
    ("out_rel/secret.txt", errno.EACCES),
    ("out_abs/secret.txt", errno.EACCES),
    ("out_file", errno.EACCES),
    ("etc/passwd", errno.EACCES),
    ("chain_a/secret.txt", errno.EACCES),
    ("loop1", errno.ELOOP),
    ("loop1/x", errno.ELOOP),
    ("l41_0", errno.ELOOP),
    ("proc_root/etc/passwd", errno.EACCES),
    ("proc_cwd/x", errno.EACCES),
    ("out_rel/", errno.EACCES),
    ("out_abs/", errno.EACCES),
    ("dir/deep_out/secret.txt", errno.EACCES),
    ("in_dir/../out_rel/secret.txt", errno.EACCES),
    ("in_sub/../../out_rel/secret.txt", errno.EACCES),
    ("dangling_out", errno.EACCES),
]


def places(instance):
    """The workspace, and the instance's own /tmp with the same traps planted host-side."""
    ws, tmp = instance.workspace_dir, instance.temp_dir
    for dirpath, dirnames, filenames in os.walk(ws):
        rel_dir = os.path.relpath(dirpath, ws)
        os.makedirs(os.path.join(tmp, rel_dir), exist_ok=True)
        for name in dirnames + filenames:
            src = os.path.join(dirpath, name)
            dst = os.path.join(tmp, rel_dir, name)
            if os.path.islink(src):
                target = os.readlink(src)
                if target.startswith(ws):
                    target = tmp + target[len(ws):]
                elif not target.startswith("/") and "outside" in target:
                    # same escape, re-aimed from the temp dir
                    target = os.path.relpath(os.path.normpath(os.path.join(dirpath, target)),
                                             os.path.dirname(dst))
                os.symlink(target, dst)
            elif os.path.isfile(src):
                with open(src, "rb") as fin, open(dst, "wb") as fout:
                    fout.write(fin.read())
    return ["/batch", "/tmp"]


def outside_untouched(tree):
    with open(os.path.join(tree.outside, "secret.txt"), "rb") as f:
        assert f.read() == SECRET
    assert sorted(os.listdir(tree.outside)) == ["secret.txt"]
    assert os.stat(os.path.join(tree.outside, "secret.txt")).st_mode & 0o777 == 0o644


def door_b_errno(shell, path, **kw):
    with pytest.raises(FileSystemError) as ei:
        shell.resolve(path, **kw)
    assert_no_canary(ei.value)
    return ei.value.errno


def door_a(op, shell, path):
    fs = shell.fs
    with pytest.raises(FileSystemError) as ei:
        op(fs, path)
    assert_no_canary(ei.value, ei.value.args)
    return ei.value.errno


OPS = {
    "read": lambda fs, p: fs.read_bytes(p),
    "stat": lambda fs, p: fs.stat(p),
    "write": lambda fs, p: fs.write_bytes(p, b"pwned"),
    "append": lambda fs, p: fs.append_bytes(p, b"pwned"),
    "truncate": lambda fs, p: fs.truncate(p, 0),
    "create_in": lambda fs, p: fs.write_bytes(p.rstrip("/") + "/new.txt", b"pwned"),
    "mkdir_through": lambda fs, p: fs.mkdir(p.rstrip("/") + "/newdir"),
    "mkdir_p_through": lambda fs, p: fs.mkdir(p.rstrip("/") + "/a/b", parents=True),
    "chmod": lambda fs, p: fs.chmod(p, 0o777),
    "utime": lambda fs, p: fs.utime(p, (0, 0)),
    "link_from": lambda fs, p: fs.link(p.rstrip("/") + "/secret.txt", "/batch/hardlink"),
    "remove_in": lambda fs, p: fs.unlink(p.rstrip("/") + "/secret.txt"),
    "rmdir_in": lambda fs, p: fs.rmdir(p.rstrip("/") + "/x"),
    "rename_from": lambda fs, p: fs.rename(p.rstrip("/") + "/secret.txt", "/batch/stolen"),
    "rename_into": lambda fs, p: fs.rename("/batch/file.txt", p.rstrip("/") + "/planted"),
    "listdir": lambda fs, p: fs.listdir(p),
    "symlink_in": lambda fs, p: fs.symlink("x", p.rstrip("/") + "/planted"),
}

# ops whose leaf is not followed: only paths that go *through* a trap apply
THROUGH_ONLY = {"link_from", "remove_in", "rmdir_in", "rename_from", "rename_into",
                "symlink_in", "create_in", "mkdir_through", "mkdir_p_through"}


@pytest.mark.parametrize("rel,code", ESCAPES)
@pytest.mark.parametrize("op", sorted(OPS))
def test_escape_denied_at_both_doors(instance, tree, rel, code, op):
    shell = instance.shell
    for root in places(instance):
        path = f"{root}/{rel}"
        got = door_a(OPS[op], shell, path)
        assert got in DENIED | {errno.ENOTDIR, errno.EISDIR, errno.EPERM}, (op, path, got)
        if op not in THROUGH_ONLY:
            # the same path, the same denial, through resolve()
            write = op not in ("read", "stat", "listdir")
            assert door_b_errno(shell, path, write=write) == code, (op, path)
            assert got == code, (op, path, got)
    outside_untouched(tree)
    assert not os.path.exists(os.path.join(instance.workspace_dir, "stolen"))
    assert not os.path.exists(os.path.join(instance.workspace_dir, "hardlink"))


@pytest.mark.parametrize("rel,code", ESCAPES)
def test_resolve_denies_each_escape(instance, rel, code):
    for root in places(instance):
        assert door_b_errno(instance.shell, f"{root}/{rel}") == code


def test_in_mount_links_keep_working(instance):
    fs = instance.shell.fs
    for root in places(instance):
        assert fs.read_bytes(f"{root}/in_rel") == b"inside\n"
        assert fs.read_bytes(f"{root}/in_dir/sub/f") == b"deep\n"
        assert fs.read_bytes(f"{root}/in_sub/../sub/f") == b"deep\n"
        assert fs.read_bytes(f"{root}/l40_0") == b"inside\n"
        assert fs.realpath(f"{root}/in_dir/sub") == f"{root}/dir/sub"
        # dotdot after a symlink is physical: in_sub/.. is dir, not the root
        assert fs.realpath(f"{root}/in_sub/..") == f"{root}/dir"
    # an absolute target inside the host root is followed as its virtual path
    assert fs.read_bytes("/batch/in_abs") == b"inside\n"
    assert fs.realpath("/batch/in_abs") == "/batch/file.txt"
    assert fs.read_bytes("/batch/dir/up") == b"inside\n"
    host = instance.shell.resolve("/batch/in_dir/sub/f")
    assert str(host) == os.path.join(os.path.realpath(instance.workspace_dir), "dir/sub/f")


def test_writes_through_in_mount_dangling_link_create_target(instance):
    fs = instance.shell.fs
    fs.write_bytes("/batch/dangling_in", b"made")
    assert fs.read_bytes("/batch/newfile_in") == b"made"
    assert os.path.islink(os.path.join(instance.workspace_dir, "dangling_in"))


@pytest.mark.plain_only(READS_THE_HOST)
def test_removing_a_link_removes_the_link_only(instance, tree):
    fs = instance.shell.fs
    fs.unlink("/batch/out_rel")
    fs.unlink("/batch/out_file")
    assert not os.path.lexists(os.path.join(tree.ws, "out_rel"))
    outside_untouched(tree)


@pytest.mark.plain_only(READS_THE_HOST)
def test_hardlink_of_a_symlink_links_the_symlink_itself(instance, tree):
    fs = instance.shell.fs
    fs.link("/batch/in_rel", "/batch/hl")  # a link that stays inside: a second name for it
    assert os.readlink(os.path.join(tree.ws, "hl")) == "file.txt"
    assert fs.read_bytes("/batch/hl") == b"inside\n"
    # one that points out would make a second way out: refused
    with pytest.raises(FileSystemError) as ei:
        fs.link("/batch/out_file", "/batch/hl_out")
    assert ei.value.errno == errno.EPERM
    assert not os.path.lexists(os.path.join(tree.ws, "hl_out"))
    # a relative link that is fine where it is, but would climb out from the new place
    with pytest.raises(FileSystemError) as ei:
        fs.link("/batch/dir/up", "/batch/up_here")
    assert ei.value.errno == errno.EPERM
    with pytest.raises(FileSystemError):
        fs.link(os.path.join(tree.outside, "secret.txt"), "/batch/hl2")
    outside_untouched(tree)


@pytest.mark.plain_only(READS_THE_HOST)
def test_chmod_strips_setuid_and_setgid(instance):
    fs = instance.shell.fs
    fs.write_bytes("x", b"")
    fs.chmod("x", 0o6755)
    assert os.stat(os.path.join(instance.workspace_dir, "x")).st_mode & 0o7777 == 0o755


@pytest.mark.plain_only(PLANTS_ON_THE_HOST)
def test_symlink_swap_of_leaf_does_not_redirect_creation(instance, tree):
    """Creating never follows the last component by the kernel: O_NOFOLLOW at the leaf."""
    fs = instance.shell.fs
    with fs.open("/batch/victim", "wb") as f:
        f.write(b"a")
    os.unlink(os.path.join(tree.ws, "victim"))
    os.symlink(os.path.join(tree.outside, "secret.txt"), os.path.join(tree.ws, "victim"))
    with pytest.raises(FileSystemError):
        fs.write_bytes("/batch/victim", b"pwned")
    outside_untouched(tree)


def test_messages_hold_virtual_paths_only(instance):
    fs = instance.shell.fs
    for rel, _ in ESCAPES:
        try:
            fs.read_bytes(f"/batch/{rel}")
        except OSError as e:
            assert str(e).startswith(f"/batch/{rel}: ")
            assert_no_canary(e, e.args, e.strerror, e.filename)
