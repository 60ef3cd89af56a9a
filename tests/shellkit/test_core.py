"""The mapping + confinement core: isolation, both doors agreeing, nesting, read-only, canary."""

from __future__ import annotations

import errno
import os
import stat
import tempfile

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pysh.interpreter import ExecCommand
from pysh.shellkit import FileSystemError, Mount, MountError, MountTable
from tests.shellkit.conftest import assert_no_canary, build_tree


def swiftbash_dirs() -> set[str]:
    return {n for n in os.listdir(tempfile.gettempdir()) if n.startswith("swiftbash-")}


# ------------------------------------------------------------------ isolation
@pytest.fixture
def private_temp_root(tmp_path, monkeypatch):
    """A system temp root of our own, so that other processes' files do not count."""
    root = tmp_path / "temp-root"
    root.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(root))
    return str(root)


def test_two_instances_have_their_own_tmp(tree, private_temp_root):
    before = set(os.listdir(tempfile.gettempdir()))
    with ExecCommand(tree.ws) as a, ExecCommand(tree.ws) as b:
        a.shell.fs.write_bytes("/tmp/x", b"from a")
        b.shell.fs.write_bytes("/tmp/x", b"from b")
        assert a.shell.fs.read_bytes("/tmp/x") == b"from a"
        assert b.shell.fs.read_bytes("/tmp/x") == b"from b"
        assert a.temp_dir != b.temp_dir
        for ex in (a, b):
            assert os.path.basename(ex.temp_dir).startswith("swiftbash-")
            assert stat.S_IMODE(os.stat(ex.temp_dir).st_mode) == 0o700
            assert os.listdir(ex.temp_dir) == ["x"]
        assert str(a.shell.resolve("/tmp/x")).startswith(os.path.realpath(a.temp_dir) + "/")
        # the system temp root got nothing but the two instances' /tmp and home dirs (and
        # the lock beside each, which a sweep reads after a SIGKILL)
        new = set(os.listdir(tempfile.gettempdir())) - before
        dirs = {os.path.basename(d) for d in (a.temp_dir, b.temp_dir, a.ephemeral_home,
                                              b.ephemeral_home)}
        assert new == dirs | {d + ".lock" for d in dirs}
        assert a.ephemeral_home != b.ephemeral_home
        assert a.shell.fs.read_bytes("/tmp/x") != b.shell.fs.read_bytes("/tmp/x")
    assert set(os.listdir(tempfile.gettempdir())) - before == set()


def test_sibling_instance_tmp_is_unaddressable(tree):
    with ExecCommand(tree.ws) as a, ExecCommand(tree.ws) as b:
        b.shell.fs.write_bytes("/tmp/secret", b"b's")
        sib = b.temp_dir
        name = os.path.basename(sib)
        for path in (sib, sib + "/secret", f"/tmp/{name}/secret", f"/tmp/../{name}/secret",
                     tempfile.gettempdir() + "/" + name + "/secret"):
            with pytest.raises(FileSystemError) as ea:
                a.shell.fs.read_bytes(path)
            assert ea.value.errno == errno.ENOENT, path
            # door B: denied, or a not-yet-existing name inside a's own /tmp
            try:
                host = str(a.shell.resolve(path))
            except FileSystemError as e:
                assert e.errno == errno.ENOENT, path
            else:
                assert host.startswith(os.path.realpath(a.temp_dir) + "/"), path
                assert not os.path.exists(host), path
        # a symlink planted toward the sibling is an escape at both doors
        os.symlink(sib, os.path.join(a.temp_dir, "to_sibling"))
        for door in (lambda p: a.shell.fs.read_bytes(p), a.shell.resolve):
            with pytest.raises(FileSystemError) as ei:
                door("/tmp/to_sibling/secret")
            assert ei.value.errno == errno.EACCES


def test_host_spellings_of_mounted_dirs_do_not_exist(instance, tree):
    shell = instance.shell
    real_ws = os.path.realpath(tree.ws)
    for path in (tree.ws, real_ws, tree.ws + "/file.txt", instance.temp_dir, tree.base,
                 tree.outside + "/secret.txt", "/etc/passwd", "/proc/self/root/etc/passwd",
                 "/root", "/home/other", instance.ephemeral_home):
        with pytest.raises(FileSystemError) as ea:
            shell.fs.stat(path)
        assert ea.value.errno == errno.ENOENT, path
        # the message echoes the caller's own spelling, and nothing more
        assert str(ea.value) == f"{path}: No such file or directory"
        assert door_a_answer(shell, path) == door_b_answer(shell, path) == ("denied", errno.ENOENT)


def test_prefix_siblings_are_not_under_the_mount(instance):
    shell = instance.shell
    for path in ("/batchx", "/batchx/file.txt", "/tmpfoo", "/tmpfoo/x", "/batc", "/tm"):
        for op in (shell.fs.stat, shell.resolve, lambda p: shell.fs.write_bytes(p, b"x")):
            with pytest.raises(FileSystemError) as ei:
                op(path)
            assert ei.value.errno == errno.ENOENT, path


def test_root_is_synthetic_and_lists_the_mounts(instance):
    fs = instance.shell.fs
    assert {"batch", "tmp"} <= set(fs.listdir("/"))
    assert stat.S_ISDIR(fs.stat("/").st_mode)
    assert fs.realpath("/batch/..") == "/"
    assert fs.read_bytes("/batch/../tmp/../batch/file.txt") == b"inside\n"
    for op in (lambda: fs.write_bytes("/x", b""), lambda: fs.mkdir("/x"),
               lambda: fs.rmdir("/batch"), lambda: fs.unlink("/tmp")):
        with pytest.raises(FileSystemError):
            op()
    assert not fs.access("/", os.W_OK)


def test_dev_nodes(instance):
    fs = instance.shell.fs
    assert fs.read_bytes("/dev/null") == b""
    fs.write_bytes("/dev/null", b"discarded")
    with fs.open("/dev/zero") as f:
        assert f.read(4) == b"\0\0\0\0"
    assert str(instance.shell.resolve("/dev/null")) == "/dev/null"
    assert fs.exists("/dev/stdin")


# ----------------------------------------------------- both doors agree
COMPONENTS = [".", "..", "", "file.txt", "dir", "sub", "f", "in_rel", "in_dir", "in_sub",
              "in_abs", "up", "out_rel", "out_abs", "out_file", "etc", "chain_a", "loop1",
              "l40_0", "l41_0", "proc_root", "dangling_in", "dangling_out", "missing",
              "batch", "tmp", "deep_out", "secret.txt"]

paths = st.builds(
    lambda start, comps, trailing: start + "/".join(comps) + ("/" if trailing else ""),
    st.sampled_from(["/", "/batch/", "/tmp/", "", "//batch//", "/batch/dir/"]),
    st.lists(st.sampled_from(COMPONENTS), min_size=0, max_size=5),
    st.booleans(),
)


def door_a_answer(shell, path):
    try:
        s = shell.fs.stat(path)
    except FileSystemError as e:
        return ("denied", e.errno)
    if s.st_ino == 0:  # a synthetic node: no host object behind it
        return ("virtual", None)
    return ("target", (s.st_dev, s.st_ino), shell.fs.realpath(path))


def is_synthetic(shell, path):
    try:
        return shell.core.kind(shell.abspath(path)).kind != "host"
    except FileSystemError:
        return False


def door_b_answer(shell, path):
    try:
        host = shell.resolve(path)
    except FileSystemError as e:
        if e.errno == errno.EACCES and is_synthetic(shell, path):
            return ("virtual", None)
        return ("denied", e.errno)
    roots = [m.host_real for m in shell.core.table]
    assert any(str(host) == r or str(host).startswith(r + "/") for r in roots), "escaped"
    assert os.path.normpath(str(host)) == str(host)
    try:
        s = os.stat(host)
    except FileNotFoundError:
        return ("denied", errno.ENOENT)
    except NotADirectoryError:
        return ("denied", errno.ENOTDIR)
    return ("target", (s.st_dev, s.st_ino), shell.to_virtual(host))


@pytest.fixture(scope="module")
def shared_instance(tmp_path_factory):
    tree = build_tree(str(tmp_path_factory.mktemp("doors")))
    with ExecCommand(tree.ws) as ex:
        # the same traps inside the instance's /tmp
        os.makedirs(os.path.join(ex.temp_dir, "dir", "sub"))
        with open(os.path.join(ex.temp_dir, "file.txt"), "wb") as f:
            f.write(b"t")
        os.symlink("file.txt", os.path.join(ex.temp_dir, "in_rel"))
        os.symlink("../batch", os.path.join(ex.temp_dir, "up"))
        os.symlink(tree.outside, os.path.join(ex.temp_dir, "out_abs"))
        ex.shell.cwd = "/batch/dir"
        yield ex


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=paths)
def test_both_doors_agree(shared_instance, path):
    shell = shared_instance.shell
    a = door_a_answer(shell, path)
    b = door_b_answer(shell, path)
    assert a == b, path
    assert_no_canary(a, b)


def test_both_doors_agree_on_known_paths(shared_instance):
    shell = shared_instance.shell
    for rel in ["/batch/in_dir/sub/f", "/batch/in_sub/..", "/batch/out_rel", "in_sub/f", "../up",
                "/tmp/up/file.txt", "/tmp/out_abs", "/batch/l41_0", "/batch/l40_0/", "/"]:
        assert door_a_answer(shell, rel) == door_b_answer(shell, rel), rel


# ------------------------------------------------------------------ nesting
def test_temp_root_inside_workspace_host_dir(tmp_path):
    ws = tmp_path / "ws"
    inner = ws / "inner"
    inner.mkdir(parents=True)
    (inner / "a").write_bytes(b"inner")
    table = MountTable([Mount("/batch", str(ws)), Mount("/data", str(inner))])
    try:
        assert table.host_to_virtual(str(inner / "a")) == "/data/a"
        assert table.host_to_virtual(str(ws / "b")) == "/batch/b"
        assert table.host_to_virtual(str(ws / "innerx")) == "/batch/innerx"
    finally:
        table.close()
    with ExecCommand(ws, mounts=[Mount("/data", str(inner))]) as ex:
        assert ex.shell.to_virtual(ex.shell.resolve("/batch/inner/a")) == "/data/a"
        assert ex.shell.fs.read_bytes("/data/a") == b"inner"
        assert ex.shell.display(f"see {inner}/a and {ws}/z") == "see /data/a and /batch/z"


def test_workspace_inside_temp_root_maps_right(tmp_path):
    outer = tmp_path / "outer"
    ws = outer / "ws"
    ws.mkdir(parents=True)
    with ExecCommand(ws, mounts=[Mount("/outer", str(outer))]) as ex:
        ex.shell.fs.write_bytes("/batch/f", b"1")
        assert ex.shell.to_virtual(ex.shell.resolve("/outer/ws/f")) == "/batch/f"
        assert ex.shell.fs.read_bytes("/outer/ws/f") == b"1"


def test_nested_virtual_mounts_shadow(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    (a / "sub").mkdir(parents=True)
    b.mkdir()
    (a / "sub" / "f").write_bytes(b"under")
    (b / "f").write_bytes(b"mounted")
    with ExecCommand(a, workspace="/w", mounts=[Mount("/w/sub", str(b))]) as ex:
        fs = ex.shell.fs
        assert fs.read_bytes("/w/sub/f") == b"mounted"
        assert fs.read_bytes("/w/sub/../sub/f") == b"mounted"
        assert fs.realpath("/w/sub/..") == "/w"


# ---------------------------------------------------------------- read-only
def test_read_only_mount_refuses_every_write(tree):
    with ExecCommand(tree.ws, read_only=True) as ex:
        fs = ex.shell.fs
        path = os.path.join(tree.ws, "file.txt")
        before = (open(path, "rb").read(), os.stat(path).st_mode, os.stat(path).st_mtime_ns)
        ops = [
            lambda: fs.write_bytes("/batch/file.txt", b"x"),
            lambda: fs.append_bytes("/batch/file.txt", b"x"),
            lambda: fs.open("/batch/file.txt", "r+b"),
            lambda: fs.truncate("/batch/file.txt", 0),
            lambda: fs.write_bytes("/batch/new", b"x"),
            lambda: fs.mkdir("/batch/newdir"),
            lambda: fs.unlink("/batch/file.txt"),
            lambda: fs.rmdir("/batch/dir/sub"),
            lambda: fs.rename("/batch/file.txt", "/batch/moved"),
            lambda: fs.rename("/batch/file.txt", "/tmp/moved"),
            lambda: fs.symlink("file.txt", "/batch/ln"),
            lambda: fs.link("/batch/file.txt", "/batch/hl"),
            lambda: fs.chmod("/batch/file.txt", 0o777),
            lambda: fs.utime("/batch/file.txt", (0, 0)),
            lambda: fs.write_bytes("/batch/in_rel", b"x"),
            lambda: ex.shell.resolve("/batch/file.txt", write=True),
        ]
        for op in ops:
            with pytest.raises(FileSystemError) as ei:
                op()
            assert ei.value.errno == errno.EACCES
        assert not fs.access("/batch/file.txt", os.W_OK)
        assert fs.read_bytes("/batch/file.txt") == b"inside\n"
        assert (open(path, "rb").read(), os.stat(path).st_mode, os.stat(path).st_mtime_ns) == before
        assert sorted(os.listdir(tree.ws)) == sorted(os.listdir(tree.ws))
        assert not os.path.exists(os.path.join(tree.ws, "new"))
        # /tmp stays writable
        fs.write_bytes("/tmp/ok", b"x")


# ------------------------------------------------------------- mount rules
@pytest.mark.parametrize("virtual", ["batch", "/", "/a/../b", "/a/", "//a", "/a/./b"])
def test_bad_mount_points(tmp_path, virtual):
    with pytest.raises(MountError):
        Mount(virtual, str(tmp_path))


@pytest.mark.parametrize("host", ["/", "/proc", "/sys", "/dev", "/run", "/proc/self",
                                  tempfile.gettempdir()])
def test_unsafe_host_roots(host):
    if not os.path.isdir(host):
        pytest.skip("not on this machine")
    with pytest.raises(MountError):
        MountTable([Mount("/x", host)]).close()


def test_host_root_must_exist(tmp_path):
    with pytest.raises(MountError):
        Mount("/x", str(tmp_path / "missing"))
    (tmp_path / "file").write_bytes(b"")
    with pytest.raises(MountError):
        Mount("/x", str(tmp_path / "file"))


def test_duplicate_mount_points(tmp_path):
    with pytest.raises(MountError):
        MountTable([Mount("/a", str(tmp_path)), Mount("/a", str(tmp_path))])


def test_mount_error_creates_nothing(tmp_path, private_temp_root):
    before = swiftbash_dirs()
    with pytest.raises(MountError):
        ExecCommand(tmp_path / "missing").open()
    assert swiftbash_dirs() == before


# ------------------------------------------------------------------- canary
def test_canary_never_leaks(instance, tree):
    shell = instance.shell
    texts = []
    # resolve()'s return value is a host path by design (for the port's own use): only its
    # errors count here
    resolve_errors = lambda p: (shell.resolve(p), None)[1]  # noqa: E731
    for path in ["/batch/out_rel/secret.txt", "/batch/missing/x", "/batch/loop1",
                 "/batch/etc/passwd", "/batch/file.txt/x", "/tmp/../batch/out_abs/",
                 "/batch/out_abs", "/batch/chain_a/x", "/batch/proc_root"]:
        for op in (shell.fs.read_bytes, shell.fs.stat, shell.fs.listdir, resolve_errors,
                   shell.fs.readlink, shell.fs.realpath, lambda p: shell.fs.write_bytes(p, b"x"),
                   lambda p: shell.fs.mkdir(p, parents=True), shell.fs.unlink):
            try:
                texts.append(op(path))
            except (OSError, ValueError) as e:
                texts += [e, e.args, str(e), repr(e)]
    host = shell.resolve("/batch/file.txt")
    texts.append(shell.to_virtual(host))
    texts.append(shell.display(f"error: {host}: {instance.temp_dir}/x {tree.ws}"))
    texts.append(shell.fs.readlink("/batch/in_abs"))
    texts.append(shell.fs.realpath("/batch/in_abs"))
    with pytest.raises(ValueError) as ei:
        shell.to_virtual(tree.outside)
    texts.append(ei.value)
    assert_no_canary(*texts)
    assert shell.fs.readlink("/batch/in_abs") == "/batch/file.txt"


def test_readlink_never_names_where_the_sandbox_lives(instance):
    fs = instance.shell.fs
    with pytest.raises(FileSystemError) as ei:
        fs.readlink("/batch/out_file")  # -> <host base>/outside-CANARY/secret.txt
    assert ei.value.errno == errno.EACCES
    assert fs.readlink("/batch/etc") == "/etc"  # names nothing of the sandbox
    assert fs.readlink("/batch/proc_root") == "/proc/self/root"
    with pytest.raises(FileSystemError) as ei:
        fs.readlink("/batch/out_rel")  # -> ../outside-CANARY: climbs out, names a host dir
    assert ei.value.errno == errno.EACCES
    assert fs.readlink("/batch/dir/up") == "../file.txt"  # stays inside: the stored text


# ------------------------------------------------------------------ cleanup
def test_cleanup_on_normal_exit_exception_and_keyboard_interrupt(tree):
    with ExecCommand(tree.ws) as ex:
        ex.shell.fs.write_bytes("/tmp/a", b"x")
        os.symlink(tree.outside, os.path.join(ex.temp_dir, "trap"))  # rmtree must not follow
    assert not os.path.exists(ex.temp_dir)
    assert os.path.exists(os.path.join(tree.outside, "secret.txt"))
    for exc in (RuntimeError, KeyboardInterrupt):
        with pytest.raises(exc):
            with ExecCommand(tree.ws) as ex:
                ex.shell.fs.mkdir("/tmp/d/e", parents=True)
                raise exc()
        assert not os.path.exists(ex.temp_dir)
    with ExecCommand() as ex:
        ws = ex.ephemeral_workspace
        ex.shell.fs.write_bytes("/batch/f", b"x")
        assert os.path.isdir(ws)
    assert not os.path.exists(ws)


def test_forgotten_instance_is_cleaned_by_finalizer(tree):
    import gc

    ex = ExecCommand(tree.ws).open()
    path = ex.temp_dir
    del ex
    gc.collect()
    assert not os.path.exists(path)


def _outcome(fn):
    try:
        res = fn()
    except FileSystemError as e:
        return ("err", e.errno)
    with res:
        return ("ok", res.kind, res.vpath, res.name)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=paths, follow=st.booleans())
def test_fast_path_agrees_with_the_component_walk(shared_instance, path, follow):
    """The openat2 shortcut is an optimisation only: same answers as the walk."""
    core = shared_instance.shell.core
    vpath = shared_instance.shell.abspath(path)
    comps = [c for c in vpath.split("/") if c]
    assert _outcome(lambda: core.resolve(vpath, follow)) == _outcome(
        lambda: core._resolve_walk(vpath, comps, follow)), vpath
