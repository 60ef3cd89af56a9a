"""Mount sources are judged on the opened directory (issue 11 item 6): kernel file
systems by statfs type, shared temp roots and the user's home by identity, so a
tmpfs directory under /dev/shm is a fine workspace while /dev itself is not."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid

import pytest

from pysh.api import Sandbox
from pysh.shellkit import Mount, MountError, MountTable


def refusal(host: str, **kw) -> str | None:
    try:
        MountTable([Mount("/x", host)], **kw).close()
    except MountError as e:
        return str(e)
    return None


@pytest.mark.parametrize("host,kind", [("/dev", "devtmpfs"), ("/dev/pts", "devpts")])
def test_kernel_file_systems_are_refused_by_type(host, kind):
    """Not by the '/dev' prefix: by what the directory is (devtmpfs is known by name)."""
    if not os.path.isdir(host):
        pytest.skip(f"{host} is not mounted on this machine")
    assert refusal(host) == f"refusing to mount a kernel file system ({kind}) at /x"


def test_a_link_to_a_kernel_file_system_is_refused_too(tmp_path):
    if not os.path.isdir("/dev/pts"):
        pytest.skip("no /dev/pts on this machine")
    os.symlink("/dev/pts", tmp_path / "pts")
    assert "kernel file system (devpts)" in refusal(str(tmp_path / "pts"))


@pytest.fixture
def shm_dir():
    if not os.path.isdir("/dev/shm") or not os.access("/dev/shm", os.W_OK):
        pytest.skip("no writable /dev/shm on this machine")
    d = os.path.join("/dev/shm", f"pysh-test-{uuid.uuid4().hex[:8]}")
    os.mkdir(d)
    yield d
    for dirpath, dirs, files in os.walk(d, topdown=False):
        for n in files:
            os.unlink(os.path.join(dirpath, n))
        for n in dirs:
            os.rmdir(os.path.join(dirpath, n))
    os.rmdir(d)


def test_a_workspace_in_dev_shm_works(shm_dir):
    """The finding: 'pysh --sandbox /dev/shm/work' said 'refusing to mount a kernel file system'."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": os.pathsep.join(sys.path)}
    p = subprocess.run([sys.executable, "-m", "pysh", "--sandbox", shm_dir, "-c",
                        "echo hi > f && cat f && pwd && ls"], capture_output=True, timeout=60, env=env)
    assert (p.returncode, p.stdout, p.stderr) == (0, b"hi\n/batch\nf\n", b"")
    with open(os.path.join(shm_dir, "f"), "rb") as f:
        assert f.read() == b"hi\n"
    # /dev/shm itself is shared by every user: refused, as the temp root is
    assert "shared temporary directory" in refusal("/dev/shm")


def test_the_home_directory_and_its_ancestors_need_allow_home(tmp_path, monkeypatch):
    home = tmp_path / "home" / "me"
    (home / "project").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    for host in (home, tmp_path / "home"):
        msg = refusal(str(host))
        assert msg is not None and "home directory" in msg and "--allow-home" in msg
        assert refusal(str(host), allow_home=True) is None
    assert refusal(str(home / "project")) is None  # a project under it is fine
    # a second spelling of the home (a link) is the same directory
    os.symlink(home, tmp_path / "alias")
    assert "home directory" in refusal(str(tmp_path / "alias"))
    with pytest.raises(MountError):
        Sandbox(str(home))
    with Sandbox(str(home), allow_home=True) as sb:
        assert sb.run("echo ok").stdout == "ok\n"
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": os.pathsep.join(sys.path),
           "HOME": str(home)}
    base = [sys.executable, "-m", "pysh", "--sandbox", str(home)]
    p = subprocess.run(base + ["-c", "echo ok"], capture_output=True, timeout=60, env=env)
    assert p.returncode == 2 and b"--allow-home" in p.stderr and str(tmp_path).encode() not in p.stderr
    p = subprocess.run(base + ["--allow-home", "-c", "echo ok"], capture_output=True, timeout=60,
                       env=env)
    assert (p.returncode, p.stdout) == (0, b"ok\n")


# linux/magic.h: the kinds issue 11 names, and a few more
KERNEL_FS = {"proc": 0x9FA0, "sysfs": 0x62656572, "devpts": 0x1CD1, "cgroup": 0x27E0EB,
             "cgroup2": 0x63677270, "securityfs": 0x73636673, "debugfs": 0x64626720,
             "tracefs": 0x74726163, "bpf": 0xCAFE4A11, "configfs": 0x62656570,
             "pstore": 0x6165676C, "efivarfs": 0xDE5E81E4, "mqueue": 0x19800202}


@pytest.mark.parametrize("kind", sorted(KERNEL_FS))
def test_each_kernel_file_system_type_is_refused_wherever_it_is_mounted(tmp_path, monkeypatch,
                                                                        kind):
    """proc, sysfs, cgroup, debugfs, bpf ... mounted elsewhere than /proc or /sys (where
    the path alone refuses them): the statfs type of the opened directory decides."""
    from pysh.shellkit import mounts

    monkeypatch.setattr(mounts, "_fs_magic", lambda fd: KERNEL_FS[kind])
    assert refusal(str(tmp_path)) == f"refusing to mount a kernel file system ({kind}) at /x"


@pytest.mark.parametrize("name", ["devtmpfs", "proc", "sysfs"])
def test_a_kernel_file_system_the_statfs_type_cannot_tell_is_known_by_its_mount(
        tmp_path, monkeypatch, name):
    """devtmpfs shares tmpfs's statfs magic: /proc/self/mountinfo's type name decides."""
    from pysh.shellkit import mounts

    monkeypatch.setattr(mounts, "_fs_magic", lambda fd: 0x01021994)
    monkeypatch.setattr(mounts, "_fs_name", lambda fd: name)
    assert refusal(str(tmp_path)) == f"refusing to mount a kernel file system ({name}) at /x"
    monkeypatch.setattr(mounts, "_fs_name", lambda fd: "tmpfs")
    assert refusal(str(tmp_path)) is None  # a tmpfs directory is a fine workspace


def test_every_kernel_file_system_mounted_here_is_refused():
    """Each mount point of this machine whose type is a kernel file system."""
    from pysh.shellkit.mounts import PSEUDO_FS_NAMES

    seen = []
    with open("/proc/self/mountinfo") as f:
        for line in f:
            point, kind = line.split()[4], line.split(" - ", 1)[1].split()[0]
            if kind in PSEUDO_FS_NAMES and os.path.isdir(point) and os.access(point, os.R_OK):
                seen.append(point)
                assert refusal(point) is not None, (point, kind)
    assert seen  # /proc at least


def test_mounts_and_limits_are_immutable_values_that_copy_and_pickle(tmp_path):
    import copy
    import pickle

    from pysh.shellkit import Limits

    m = Mount("/data", str(tmp_path), read_only=True)
    lim = Limits(timeout=3).with_(max_commands=None)
    for obj in (m, lim):
        for clone in (copy.copy(obj), copy.deepcopy(obj), pickle.loads(pickle.dumps(obj))):
            assert clone == obj and hash(clone) == hash(obj) and repr(clone) == repr(obj)
    assert lim.timeout == 3 and lim.max_commands is None and lim != Limits()
    assert m.host_real == os.path.realpath(tmp_path) and m != Mount("/data", str(tmp_path))
    with pytest.raises(AttributeError):
        lim.timeout = 5
    with pytest.raises(AttributeError):
        m.read_only = False
    with pytest.raises(TypeError):
        Limits(no_such_limit=1)
