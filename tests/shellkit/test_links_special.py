"""Links never point out, special files never block, hard-linked files are never written.

Issue 11 items 4 and 5, at the core (both doors) and through the commands that make
links. Scripts that could hang on a regression run in a child process with a hard kill.
"""

from __future__ import annotations

import errno
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

import pytest

from pysh.commands import default_registry
from pysh.interpreter import ExecCommand
from pysh.shellkit import FileSystemError
from tests.harness import PLANTS_ON_THE_HOST, READS_THE_HOST, run_cmd
from tests.shellkit.conftest import CANARY, SECRET, assert_no_canary


def errno_of(fn, *args, **kw) -> int:
    try:
        fn(*args, **kw)
    except FileSystemError as e:
        assert_no_canary(e)
        return e.errno
    return 0


def host_links(root: str) -> dict[str, str]:
    out = {}
    for dirpath, dirs, files in os.walk(root):
        for n in dirs + files:
            p = os.path.join(dirpath, n)
            if os.path.islink(p):
                out[os.path.relpath(p, root)] = os.readlink(p)
    return out


def points_inside(root: str, rel_link: str) -> bool:
    """Whether the link, read lexically from its host directory, stays under ``root``."""
    target = os.readlink(os.path.join(root, rel_link))
    if target.startswith("/"):
        return False
    where = os.path.normpath(os.path.join(os.path.dirname(rel_link), target))
    return not (where == ".." or where.startswith("../"))


def run_hostile(ws: str, script: str, timeout: float = 30.0) -> subprocess.CompletedProcess:
    """The CLI in a child process: a hang is killed, and fails the test, instead of the suite."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C.UTF-8",
           "PYTHONPATH": os.pathsep.join(sys.path)}
    try:
        return subprocess.run([sys.executable, "-m", "pysh", "--sandbox", ws, "-c", script],
                              capture_output=True, timeout=timeout, env=env, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail(f"hung (killed after {timeout}s): {script}")


# --------------------------------------------------------------- links never point out
OUT_TARGETS = [
    "/etc",                     # absolute, outside every mount
    "/",                        # the synthetic root
    "/tmp/tf",                  # another mount: its host path must never be written
    "../../..",                 # climbs above the mount root
    f"../outside-{CANARY}",     # a sibling of the workspace on the host
    "dir/../../x",              # lexically out through a real directory
    "/batch/../etc",
    "/dev/null",                # an emulated device: not a place on the host
    "/usr/bin/cat",             # a synthetic command file
]


@pytest.mark.parametrize("target", OUT_TARGETS)
def test_symlink_out_of_the_mount_is_refused(instance, tree, target):
    fs = instance.shell.fs
    assert errno_of(fs.symlink, target, "/batch/e") == errno.EPERM
    assert not os.path.lexists(os.path.join(tree.ws, "e"))
    if target.startswith("/"):  # an absolute one is refused from anywhere
        assert errno_of(fs.symlink, target, "/batch/dir/sub/e") == errno.EPERM


@pytest.mark.plain_only(READS_THE_HOST)
def test_links_made_inside_are_stored_relative_and_never_hold_a_host_path(instance, tree):
    fs = instance.shell.fs
    cases = {
        "/batch/dir/sub/abs": ("/batch/file.txt", "../../file.txt"),
        "/batch/dir/abs_dir": ("/batch/dir/sub", "sub"),
        "/batch/rootlink": ("/batch", "."),
        "/batch/dir/rel": ("../file.txt", "../file.txt"),       # as given
        "/batch/dir/dangling": ("nothing/here", "nothing/here"),
        "/batch/dir/norm": ("sub/../../file.txt", "../file.txt"),  # '..' after a name
        "/batch/in_dir/via_link": ("../file.txt", "../file.txt"),  # made through a link
    }
    for link, (target, stored) in cases.items():
        fs.symlink(target, link)
        host = os.path.join(tree.ws, os.path.relpath(fs.realpath(link.rsplit("/", 1)[0]), "/batch"),
                            link.rsplit("/", 1)[1])
        assert os.readlink(host) == stored, link
    assert fs.read_bytes("/batch/dir/sub/abs") == b"inside\n"
    assert fs.readlink("/batch/dir/sub/abs") == "../../file.txt"
    for rel, target in host_links(tree.ws).items():
        if not rel.startswith(("in_", "out_", "etc", "chain", "loop", "proc", "l4", "dir/up",
                               "dir/deep_out", "dangling")):
            assert not target.startswith("/"), (rel, target)
            assert points_inside(tree.ws, rel), rel


@pytest.mark.plain_only(READS_THE_HOST)
def test_a_link_through_an_in_sandbox_link_is_checked_where_it_lands(instance, tree):
    """'in_dir' leads to /batch/dir: a link made through it is one level deeper than it looks."""
    fs = instance.shell.fs
    assert errno_of(fs.symlink, "../../x", "/batch/in_dir/l") == errno.EPERM
    fs.symlink("../x", "/batch/in_dir/l")
    assert os.readlink(os.path.join(tree.ws, "dir", "l")) == "../x"


@pytest.mark.plain_only(READS_THE_HOST)
def test_a_link_cannot_be_bent_out_by_another_link(instance, tree):
    """'up' -> ../.. is fine at dir/sub; 'up/..' would climb out physically: stored lexically."""
    fs = instance.shell.fs
    fs.symlink("../..", "/batch/dir/sub/up")
    fs.symlink("up/..", "/batch/dir/sub/x")
    assert os.readlink(os.path.join(tree.ws, "dir", "sub", "x")) == "."
    fs.symlink("up/../../..", "/batch/dir/sub/y")  # lexically: the mount root
    assert os.readlink(os.path.join(tree.ws, "dir", "sub", "y")) == "../.."


def test_moving_a_link_where_it_would_point_out_is_refused(instance, tree):
    fs = instance.shell.fs
    fs.mkdir("/batch/a/b/c", parents=True)
    fs.symlink("../../../file.txt", "/batch/a/b/c/l")
    fs.rename("/batch/a/b/c/l", "/batch/a/b/c/l2")  # same depth: fine
    assert errno_of(fs.rename, "/batch/a/b/c/l2", "/batch/l") == errno.EPERM
    # a directory moved to a shallower place takes its climbing links with it
    assert errno_of(fs.rename, "/batch/a/b/c", "/batch/c") == errno.EPERM
    fs.rename("/batch/a/b/c", "/batch/a/b/d")  # same depth
    fs.rename("/batch/a", "/batch/dir/a")      # deeper
    assert fs.readlink("/batch/dir/a/b/d/l2") == "../../../file.txt"
    # hard-linking a link makes a second link: checked where it lands
    assert errno_of(fs.link, "/batch/dir/a/b/d/l2", "/batch/hl") == errno.EPERM
    # a planted link that points out cannot be moved, nor copied across mounts
    assert errno_of(fs.rename, "/batch/out_abs", "/batch/dir/moved") == errno.EPERM
    assert errno_of(fs.rename, "/batch/dir/deep_out", "/batch/moved") == errno.EPERM
    assert errno_of(fs.rename, "/batch/etc", "/tmp/etc") == errno.EPERM
    assert not os.path.lexists(os.path.join(instance.temp_dir, "etc"))
    for rel in host_links(tree.ws):
        if rel.startswith("dir/a"):
            assert points_inside(tree.ws, rel), rel


def test_racing_renames_never_leave_a_link_pointing_out(instance, tree):
    """One thread makes links that climb three levels in a/b/c while another moves c up
    and back: a link must never land at a place it climbs out of."""
    fs = instance.shell.fs
    fs.mkdir("/batch/a/b/c", parents=True)
    stop = threading.Event()
    errors: list = []

    def mover():
        while not stop.is_set():
            for src, dst in (("/batch/a/b/c", "/batch/c"), ("/batch/c", "/batch/a/b/c")):
                try:
                    fs.rename(src, dst)
                except FileSystemError:
                    pass

    t = threading.Thread(target=mover)
    t.start()
    try:
        for i in range(300):
            try:
                fs.symlink("../../../file.txt", f"/batch/a/b/c/l{i}")
            except FileSystemError:
                continue  # c was up at the moment: ENOENT
            for place in ("a/b/c", "c"):
                rel = f"{place}/l{i}"
                if os.path.lexists(os.path.join(tree.ws, rel)) and not points_inside(tree.ws, rel):
                    errors.append(rel)
            try:
                fs.unlink(f"/batch/a/b/c/l{i}")
            except FileSystemError:
                fs.unlink(f"/batch/c/l{i}")
    finally:
        stop.set()
        t.join()
    assert errors == []


@pytest.mark.plain_only(PLANTS_ON_THE_HOST)
def test_a_directory_swapped_for_a_link_while_links_are_made_in_it(instance, tree):
    """A host thread keeps swapping a/b/c between the real directory and a link to the
    mount root (c -> ../..) while links that climb three levels are made in a/b/c: each
    is checked where it lands (the real c: inside; through the link: the root, EPERM)."""
    fs = instance.shell.fs
    c = os.path.join(tree.ws, "a", "b", "c")
    os.makedirs(c)
    stop = threading.Event()

    def swapper():
        while not stop.is_set():
            try:
                os.rename(c, c + "_aside")
                os.symlink("../..", c)
                os.unlink(c)
                os.rename(c + "_aside", c)
                time.sleep(0.0002)  # c stays the real directory a moment too (or no link lands)
            except OSError:
                pass

    t = threading.Thread(target=swapper)
    t.start()
    made = 0
    try:
        # at least 300 tries, and on until some link landed in the real c (bounded)
        for i in range(3000):
            if i >= 300 and made:
                break
            try:
                fs.symlink("../../../file.txt", f"/batch/a/b/c/mk{i}")
                made += 1
            except FileSystemError as e:  # ENOTDIR: c was a link when opened, a dir when read
                assert e.errno in (errno.EPERM, errno.ENOENT, errno.ENOTDIR), e
    finally:
        stop.set()
        t.join()
    assert made
    mine = [rel for rel in host_links(tree.ws) if os.path.basename(rel).startswith("mk")]
    assert len(mine) == made and all(rel.startswith("a/b/c/mk") for rel in mine)
    assert [rel for rel in mine if not points_inside(tree.ws, rel)] == []


def test_link_commands_refuse_with_eperm_in_each_tools_words(tree):
    """The real tools' messages for EPERM (recorded under a symlink() that fails)."""
    os.symlink("/usr/share", os.path.join(tree.ws, "planted"))
    with ExecCommand(tree.ws, registry=default_registry()) as ex:
        def run(*argv):
            r = run_cmd(ex, list(argv))
            assert_no_canary(r.out, r.err)
            return r.status, r.err

        assert run("ln", "-s", "/etc", "e") == (
            1, "ln: failed to create symbolic link 'e': Operation not permitted\n")
        assert run("ln", "-s", "/tmp/tf", "l") == (
            1, "ln: failed to create symbolic link 'l': Operation not permitted\n")
        # ln -sf keeps the old link when the new one is refused (GNU makes it aside first)
        assert run("ln", "-s", "file.txt", "keep")[0] == 0
        assert run("ln", "-sf", "../..", "keep")[0] == 1
        assert os.readlink(os.path.join(tree.ws, "keep")) == "file.txt"
        for opt, name in (("-P", "c1"), ("-a", "c2"), ("-d", "c3")):
            assert run("cp", opt, "planted", name) == (
                1, f"cp: cannot create symbolic link '{name}': Operation not permitted\n")
        assert run("mv", "planted", "/tmp/p") == (
            1, "mv: cannot create symbolic link '/tmp/p': Operation not permitted\n")
        assert run("mv", "dir/up", "up2") == (
            1, "mv: cannot move 'dir/up' to 'up2': Operation not permitted\n")
        assert run("ln", "planted", "hard") == (
            1, "ln: failed to create hard link 'hard': Operation not permitted\n")
        assert os.path.islink(os.path.join(tree.ws, "planted"))
        for n in ("e", "l", "c1", "c2", "c3", "up2", "hard"):
            assert not os.path.lexists(os.path.join(tree.ws, n)), n
        assert not os.path.lexists(os.path.join(ex.temp_dir, "p"))
        # the finding: 'ln -s /tmp/tf l' stored the host path; an in-mount one is relative
        assert run("ln", "-s", "/batch/dir/sub/f", "l")[0] == 0
        r = run_cmd(ex, ["stat", "-c", "%s %N", "l"])
        assert r.out == "9 'l' -> 'dir/sub/f'\n"


# -------------------------------------------------------------- hard-linked files
@pytest.mark.plain_only(PLANTS_ON_THE_HOST)
def test_a_file_with_other_hard_links_is_read_but_never_written(instance, tree):
    """A hard link the host planted may be the other name of a file outside: reading is
    fine; any change to it (content, size, mode, times) is refused through both doors."""
    secret = os.path.join(tree.outside, "secret.txt")
    os.link(secret, os.path.join(tree.ws, "hl"))
    fs, shell = instance.shell.fs, instance.shell
    assert fs.read_bytes("/batch/hl") == SECRET
    for mode in ("wb", "ab", "r+b", "w+b"):
        assert errno_of(fs.open, "/batch/hl", mode) == errno.EPERM, mode
    assert errno_of(fs.truncate, "/batch/hl", 0) == errno.EPERM
    assert errno_of(fs.chmod, "/batch/hl", 0o777) == errno.EPERM
    assert errno_of(fs.utime, "/batch/hl", (0, 0)) == errno.EPERM
    assert errno_of(shell.resolve, "/batch/hl", write=True) == errno.EPERM
    shell.resolve("/batch/hl")  # reading through door B stays allowed
    with open(secret, "rb") as f:
        assert f.read() == SECRET
    assert os.stat(secret).st_mode & 0o777 != 0o777
    # the name itself can go; then the file has one link again
    fs.write_bytes("/batch/mine", b"a")
    fs.link("/batch/mine", "/batch/mine2")
    assert errno_of(fs.write_bytes, "/batch/mine", b"b") == errno.EPERM
    fs.unlink("/batch/mine2")
    fs.write_bytes("/batch/mine", b"b")
    fs.unlink("/batch/hl")
    assert os.path.exists(secret)


# ------------------------------------------------------------------- special files
@pytest.fixture
def specials(tree):
    """A FIFO, a link to it, a FIFO deeper down and a socket, planted by the host.

    In-process tests of them run under an alarm: a blocking open() on regression is
    interrupted and fails the test instead of hanging the suite."""

    def blocked(*_):
        raise TimeoutError("a blocking open of a special file")

    old = signal.signal(signal.SIGALRM, blocked)
    signal.alarm(30)
    os.mkfifo(os.path.join(tree.ws, "fifo"))
    os.mkfifo(os.path.join(tree.ws, "dir", "fifo2"))
    os.symlink("fifo", os.path.join(tree.ws, "to_fifo"))
    short = tempfile.mkdtemp(prefix="s")  # sockaddr_un holds ~108 bytes: bind short, then move
    s = socket.socket(socket.AF_UNIX)
    s.bind(os.path.join(short, "s"))
    os.rename(os.path.join(short, "s"), os.path.join(tree.ws, "sock"))
    os.rmdir(short)
    try:
        yield tree
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
        s.close()


@pytest.mark.plain_only(PLANTS_ON_THE_HOST)
def test_special_files_are_refused_at_once_through_both_doors(instance, specials):
    fs, shell = instance.shell.fs, instance.shell
    for path in ("/batch/fifo", "/batch/to_fifo", "/batch/dir/fifo2", "/batch/sock"):
        for mode in ("rb", "wb", "ab", "r+b"):
            assert errno_of(fs.open, path, mode) == errno.ENXIO, (path, mode)
        a = errno_of(fs.read_bytes, path)
        b = errno_of(shell.resolve, path)
        assert a == b == errno.ENXIO, path
        assert errno_of(shell.resolve, path, write=True) == errno.ENXIO
    assert errno_of(shell.resolve, "/batch/fifo", follow=False) == errno.ENXIO
    # what may be asked of them without opening them still works
    assert fs.lexists("/batch/fifo") and not fs.is_file("/batch/fifo")
    # the emulated devices keep working
    assert fs.read_bytes("/dev/null") == b""
    fs.write_bytes("/dev/null", b"x")
    with fs.open("/dev/zero", "rb") as f:
        assert f.read(3) == b"\0\0\0"


@pytest.mark.plain_only(PLANTS_ON_THE_HOST)
def test_a_planted_device_is_refused_through_both_doors(instance, tree):
    """A device node is refused on the held fd, before anything is read or written: the
    driver's open may run (O_NONBLOCK|O_NOCTTY), its read and write never do."""
    import stat

    from pysh.shellkit.confine import open_leaf

    dev = os.open("/dev", os.O_PATH | os.O_DIRECTORY)
    try:
        for flags in (os.O_RDONLY, os.O_WRONLY | os.O_TRUNC, os.O_RDWR):
            assert errno_of(open_leaf, "null", flags, 0, dev, "/batch/null") == errno.ENXIO
    finally:
        os.close(dev)
    try:  # planted in the workspace, where this user may make device nodes
        os.mknod(os.path.join(tree.ws, "zero"), stat.S_IFCHR | 0o666, os.makedev(1, 5))
    except PermissionError:
        return  # no CAP_MKNOD here: the held-fd check above is the rule that refuses it
    fs, shell = instance.shell.fs, instance.shell
    for mode in ("rb", "wb", "r+b"):
        assert errno_of(fs.open, "/batch/zero", mode) == errno.ENXIO, mode
    assert errno_of(fs.read_bytes, "/batch/zero") == errno_of(shell.resolve, "/batch/zero") \
        == errno_of(shell.resolve, "/batch/zero", write=True) == errno.ENXIO
    assert stat.S_ISCHR(fs.lstat("/batch/zero").st_mode)
    with ExecCommand(tree.ws, registry=default_registry()) as ex:
        r = run_cmd(ex, ["head", "-c", "4", "zero"])
    assert (r.status, r.out, r.err) == (1, "", "head: cannot open 'zero' for reading: "
                                               "No such device or address\n")


@pytest.mark.plain_only(PLANTS_ON_THE_HOST)
def test_the_walker_does_not_block_on_a_fifo(instance, specials):
    for wd in instance.shell.fs.walk("/batch"):
        for e in wd.files:
            if e.name in ("fifo", "fifo2", "sock"):
                assert errno_of(e.open) == errno.ENXIO


HOSTILE_FIFO_SCRIPTS = [
    "cat fifo", "echo x > fifo", "echo x >> fifo", "read x < fifo", "cat < to_fifo",
    "head -n1 fifo", "tail fifo", "wc -l fifo", "grep x fifo", "sort fifo", "cp fifo copy",
    "source ./fifo", ". ./dir/fifo2", "cat sock", "echo x > sock", "exec 3<fifo",
    "jq . fifo", "rg x fifo", "sqlite3 fifo 'select 1'", "tar -cf t.tar fifo",
    "gzip -c fifo", "base64 fifo", "sha256sum fifo", "diff fifo file.txt", "cmp fifo file.txt",
    "tee fifo < /dev/null", "sed -n p fifo", "awk 1 fifo", "dd if=fifo of=/dev/null",
    "mkfifo myfifo; cat myfifo",
]


def test_hostile_scripts_on_planted_fifos_finish(specials):
    """Each would block forever on a blocking open(): a hard kill fails the test instead."""
    script = "; ".join(f"{{ {s}; }} 2>>errs; echo \"$?\" >> statuses" for s in HOSTILE_FIFO_SCRIPTS)
    r = run_hostile(specials.ws, script + "; cat errs; cat statuses")
    out = r.stdout.decode() + r.stderr.decode()
    assert_no_canary(out)
    assert "Traceback" not in out and "internal error" not in out
    statuses = open(os.path.join(specials.ws, "statuses")).read().split()
    assert len(statuses) == len(HOSTILE_FIFO_SCRIPTS)
    errs = open(os.path.join(specials.ws, "errs")).read()
    assert "No such device or address" in errs
    assert "mkfifo: cannot create fifo" in errs and "myfifo" in errs
