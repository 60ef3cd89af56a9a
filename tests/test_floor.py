"""The kernel floor (Landlock on the sandbox's worker thread), layer by layer, and the tripwire.

* cooperative alone: the worker runs unrestricted; the core refuses the escapes;
* kernel alone: the core's check is bypassed on purpose (a monkeypatch); the
  kernel refuses the same opens with EACCES;
* both: the default.

Plus the tripwire (tests/tripwire.py) catching a door-B port that follows an
in-sandbox symlink out (the git kind of escape), with the floor off and on.
"""

from __future__ import annotations

import errno
import os
import pathlib
import subprocess
import sys

import pytest

from pysh.commands import default_registry
from pysh.interpreter import ExecCommand
from pysh.shellkit import FileSystemError, landlock
from pysh.shellkit.confine import Confinement
from tests import tripwire
from tests.harness import run_cmd
from tests.shellkit.conftest import SECRET, build_tree

needs_landlock = pytest.mark.skipif(
    not landlock.abi(), reason=f"the kernel offers no usable Landlock ({landlock.describe()})")


async def naive_cat(shell, argv):
    """A door-B port written naively: resolve a directory, then join more path onto the
    host string and open it, letting the kernel follow whatever links are on the way."""
    base, _, rest = argv[1].partition("//")
    try:
        host = str(shell.resolve(base))
        host = os.path.join(host, rest) if rest else host
    except FileSystemError as e:
        await shell.stderr.write(f"naive-cat: core: errno {e.errno}\n".encode())
        return 1
    try:
        with open(host, "rb") as f:
            data = f.read()
    except OSError as e:
        await shell.stderr.write(f"naive-cat: errno {e.errno}\n".encode())
        return 1
    await shell.stdout.write(data)
    return 0


async def naive_write(shell, argv):
    try:
        with open(str(shell.resolve(argv[1], write=True)), "wb") as f:
            f.write(b"x")
    except FileSystemError as e:
        await shell.stderr.write(f"naive-write: core: errno {e.errno}\n".encode())
        return 1
    except OSError as e:
        await shell.stderr.write(f"naive-write: errno {e.errno}\n".encode())
        return 1
    return 0


def _instance(ws, **kw):
    reg = default_registry()
    reg.register("naive-cat", naive_cat)
    reg.register("naive-write", naive_write)
    return ExecCommand(ws, registry=reg, **kw)


def _bypass_core(monkeypatch):
    """The cooperative check, off on purpose: door B joins the path onto the mount's host
    root as a string, following nothing and refusing nothing."""
    def resolve_host(self, vpath, *, follow=True, write=False):
        found = self.table.find(vpath)
        assert found is not None, vpath
        mount, rel = found
        return pathlib.Path(os.path.join(mount.host_real, rel))

    monkeypatch.setattr(Confinement, "resolve_host", resolve_host)


@pytest.fixture
def tree(tmp_path):
    return build_tree(str(tmp_path))


def test_cooperative_alone(tree):
    with _instance(tree.ws, kernel_floor=False) as ex:
        assert ex.floor == "off"
        r = run_cmd(ex, ["naive-cat", "out_file"])
        assert r.status != 0 and SECRET not in r.stdout
        with pytest.raises(FileSystemError):
            ex.call(ex.shell.resolve, "out_file")
        with pytest.raises(FileSystemError):
            ex.call(ex.shell.fs.read_bytes, "out_file")


def test_neither_layer_is_an_escape(tree, monkeypatch):
    """The bypass is real: with the core bypassed and no floor, the secret comes out (so
    the kernel-alone test below cannot pass by accident)."""
    _bypass_core(monkeypatch)
    with _instance(tree.ws, kernel_floor=False) as ex, tripwire.caught() as found:
        r = run_cmd(ex, ["naive-cat", "out_file"])
    assert r.stdout == SECRET
    assert found and "outside the sandbox" in found[0]


@needs_landlock
def test_kernel_alone(tree, monkeypatch, tmp_path):
    _bypass_core(monkeypatch)
    sibling = tmp_path / "sibling"
    sibling.mkdir()
    (sibling / "theirs").write_bytes(SECRET)
    with _instance(tree.ws) as ex, tripwire.caught() as found:
        assert ex.floor == f"landlock ABI {landlock.abi()}"
        r = run_cmd(ex, ["naive-cat", "out_file"])  # a symlink in the workspace to outside
        assert (r.status, r.stdout, r.err) == (1, b"", f"naive-cat: errno {errno.EACCES}\n")
        r = run_cmd(ex, ["naive-cat", "etc//hostname"])  # a symlink to /etc
        assert r.err == f"naive-cat: errno {errno.EACCES}\n"
        # straight at a host path, from the worker thread
        for path in (os.path.join(tree.outside, "secret.txt"), str(sibling / "theirs")):
            with pytest.raises(PermissionError):
                ex.call(lambda p=path: open(p, "rb").read())
        # the threads the worker starts are restricted too
        with pytest.raises(PermissionError):
            ex.call(_in_a_new_thread, os.path.join(tree.outside, "secret.txt"))
        # what the sandbox does own still works
        r = run_cmd(ex, ["naive-cat", "file.txt"])
        assert r.stdout == b"inside\n"
    assert len(found) == 4


def _in_a_new_thread(path):
    import threading

    box = {}

    def target():
        try:
            open(path, "rb").read()
        except OSError as e:
            box["error"] = e

    t = threading.Thread(target=target)
    t.start()
    t.join()
    raise box["error"]


@needs_landlock
def test_kernel_keeps_a_read_only_mount_read_only(tree, monkeypatch):
    _bypass_core(monkeypatch)
    with _instance(tree.ws, read_only=True) as ex:
        r = run_cmd(ex, ["naive-write", "file.txt"])
        assert r.err == f"naive-write: errno {errno.EACCES}\n"
        r = run_cmd(ex, ["naive-write", "/tmp/scratch"])  # its own /tmp stays writable
        assert r.status == 0
    assert open(os.path.join(tree.ws, "file.txt"), "rb").read() == b"inside\n"


@needs_landlock
def test_both_layers(tree):
    with _instance(tree.ws) as ex:
        r = run_cmd(ex, ["naive-cat", "out_file"])
        assert r.status != 0 and SECRET not in r.stdout + r.stderr
        with pytest.raises(FileSystemError) as info:  # the core answers first
            ex.call(ex.shell.resolve, "out_file")
        assert info.value.errno == errno.EACCES
        r = run_cmd(ex, ["cat", "out_file", "file.txt"])
        assert r.stdout == b"inside\n" and "Permission denied" in r.err


def test_tripwire_catches_a_git_kind_escape(tree):
    """`.git/refs` moved to a sibling dir inside the workspace and linked back; inside it a
    link out. A port that joins `refs/heads/main` onto `.git`'s host path follows both."""
    ws = pathlib.Path(tree.ws)
    (ws / "stash" / "heads").mkdir(parents=True)
    (ws / ".git").mkdir()
    (ws / ".git" / "refs").symlink_to("../stash")
    (ws / "stash" / "heads" / "main").symlink_to(os.path.join(tree.outside, "secret.txt"))
    with _instance(tree.ws, kernel_floor=False) as ex, tripwire.caught() as found:
        r = run_cmd(ex, ["naive-cat", ".git//refs/heads/main"])
    assert r.stdout == SECRET  # the escape is real without the floor...
    assert len(found) == 1 and "secret.txt" in found[0]  # ...and the tripwire saw it
    if landlock.abi():
        with _instance(tree.ws) as ex, tripwire.caught() as found:
            r = run_cmd(ex, ["naive-cat", ".git//refs/heads/main"])
        assert r.err == f"naive-cat: errno {errno.EACCES}\n"  # the kernel refused it...
        assert len(found) == 1  # ...and the tripwire still reports the attempt


def test_tripwire_catches_processes_and_sockets(tree):
    import socket

    def start_process():
        subprocess.run(["true"])

    def connect():
        s = socket.socket()
        try:
            s.connect(("127.0.0.1", 9))
        except OSError:
            pass
        finally:
            s.close()

    with _instance(tree.ws, kernel_floor=False) as ex, tripwire.caught() as found:
        ex.call(start_process)
        ex.call(connect)
        ex.call(os.listdir, tree.outside)
    assert [f.split(":")[0] for f in found] == ["subprocess.Popen", "socket.connect", "os.listdir"]


def test_without_landlock_pysh_says_so(tree, monkeypatch):
    monkeypatch.setattr(landlock, "_abi", 0)
    monkeypatch.setattr(landlock, "_why_not", "not in this kernel")
    assert landlock.describe() == "landlock: unavailable (not in this kernel)"
    from pysh import Sandbox

    with Sandbox(tree.ws) as sb:
        info = sb.info()
        assert info["landlock"] == "unavailable (not in this kernel)"
        assert info["kernel_floor"] is False
        assert info["floor"].startswith("cooperative only")
        assert sb.run("cat file.txt").stdout == "inside\n"


def test_version_lists_landlock():
    p = subprocess.run([sys.executable, "-m", "pysh", "--version"], capture_output=True,
                       text=True, timeout=60)
    lines = p.stdout.splitlines()
    assert lines[0].startswith("pysh ") and lines[1] == landlock.describe()
    if landlock.abi():
        assert lines[1] == f"landlock: ABI {landlock.abi()}"


PLANT = r"""
import os, sys
ws = sys.argv[1]
os.chdir(ws)
sys.path.insert(0, ws)  # `python agent.py` run from the project that is also the workspace
from pysh import Sandbox
with Sandbox(ws) as sb:
    r = sb.run("printf 'print(\"PLANTED CODE RAN\")\\nraise SystemExit(9)\\n' > sqlite3.py; "
               "sqlite3 :memory: 'select 1'")
print(r.stdout, r.stderr, r.exit_code)
"""


def test_a_module_planted_in_the_workspace_is_never_imported(tmp_path):
    """A command module is imported on first use, on the worker; the workspace may be on the
    embedder's sys.path (its cwd or script dir). The worker's imports look only in the Python
    installation, so a planted `sqlite3.py` stays a file (on the old main it ran as host code)."""
    p = subprocess.run([sys.executable, "-c", PLANT, str(tmp_path)], capture_output=True,
                       text=True, timeout=60)
    assert "PLANTED" not in p.stdout + p.stderr
    assert p.returncode == 0 and p.stdout.split() == ["1", "0"], (p.stdout, p.stderr)
