"""An instance's directories go on every exit (issue 12, item 7): SIGTERM, SIGHUP and SIGINT
remove them before pysh ends by the signal; after a SIGKILL the next pysh sweeps them, and
never touches a directory that is not pysh's own."""

from __future__ import annotations

import fcntl
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from pysh.shellkit.tempdirs import new_uuid, sweep_stale

PYSH = [sys.executable, "-m", "pysh"]


def _env(tmpdir) -> dict:
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C.UTF-8",
            "PYTHONPATH": os.pathsep.join(sys.path), "TMPDIR": str(tmpdir)}


def _default_signals() -> None:
    # the child starts as a process manager would start it: a suite run under nohup or as a
    # background job has SIGHUP/SIGINT ignored, and pysh rightly keeps an inherited SIG_IGN
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(sig, signal.SIG_DFL)


def _start(tmpdir, args=("-c", "sleep 30"), stdin=None) -> subprocess.Popen:
    p = subprocess.Popen(PYSH + list(args), env=_env(tmpdir), stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, stdin=None if stdin is None else subprocess.PIPE,
                         preexec_fn=_default_signals)
    if stdin is not None:
        p.stdin.write(stdin)
        p.stdin.flush()
    deadline = time.monotonic() + 30
    while len([n for n in os.listdir(tmpdir) if not n.endswith(".lock")]) < 3:
        assert p.poll() is None and time.monotonic() < deadline, p.stderr.read()
        time.sleep(0.05)
    time.sleep(0.3)  # the signal handlers are in place once the script runs
    return p


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_a_terminating_signal_removes_the_instance_dirs(tmp_path, sig):
    p = _start(tmp_path)
    names = sorted(os.listdir(tmp_path))
    assert [n.split("-")[0] for n in names if not n.endswith(".lock")] == \
        ["pysh", "pysh", "swiftbash"], names
    p.send_signal(sig)
    try:
        status = p.wait(timeout=20)
    finally:
        p.kill()
    assert status == -sig, p.stderr.read()  # ended by the signal: $? is 128+N in a shell
    assert os.listdir(tmp_path) == []


def test_an_mcp_server_stopped_by_sigterm_removes_its_dirs(tmp_path):
    # how process managers and MCP clients stop a server: here in the middle of a call
    calls = [{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                 "protocolVersion": "2025-06-18", "capabilities": {},
                 "clientInfo": {"name": "t", "version": "1"}}},
             {"jsonrpc": "2.0", "method": "notifications/initialized"},
             {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
              "params": {"name": "bash", "arguments": {"command": "sleep 30"}}}]
    p = _start(tmp_path, ["mcp"], "".join(json.dumps(c) + "\n" for c in calls).encode())
    p.send_signal(signal.SIGTERM)
    try:
        status = p.wait(timeout=20)
    finally:
        p.kill()
    assert status == -signal.SIGTERM, p.stderr.read()
    assert os.listdir(tmp_path) == []


def test_after_a_sigkill_the_next_run_sweeps_only_what_is_stale(tmp_path):
    p = _start(tmp_path)
    p.kill()
    p.wait(timeout=20)
    left = sorted(os.listdir(tmp_path))
    assert len(left) == 6, left  # three dirs and their locks: nothing ran after SIGKILL

    # what the sweep must leave: a live instance (its lock held), a look-alike without a
    # lock, other names, and a file in the place of a directory
    live = tmp_path / f"swiftbash-{new_uuid()}"
    live.mkdir()
    held = os.open(str(live) + ".lock", os.O_RDWR | os.O_CREAT)
    fcntl.flock(held, fcntl.LOCK_EX)
    lookalike = tmp_path / f"swiftbash-{new_uuid()}"
    lookalike.mkdir()
    (tmp_path / "swiftbash-notauuid").mkdir()
    (tmp_path / "swiftbash-notauuid.lock").write_text("")
    plain = tmp_path / f"pysh-workspace-{new_uuid()}"
    plain.write_text("a file, not a directory")
    (tmp_path / (plain.name + ".lock")).write_text("")
    keep = sorted(os.listdir(tmp_path))
    try:
        r = subprocess.run(PYSH + ["-c", "echo hi"], env=_env(tmp_path), capture_output=True,
                           timeout=60)
        assert (r.returncode, r.stdout) == (0, b"hi\n"), r.stderr
        now = sorted(os.listdir(tmp_path))
    finally:
        os.close(held)
    # the stale instance went with its locks; of the rest only a free lock of pysh's naming
    assert now == sorted(set(keep) - set(left) - {plain.name + ".lock"}), now
    assert (plain.read_text(), live.is_dir(), lookalike.is_dir()) == (
        "a file, not a directory", True, True)


def test_the_sweep_needs_the_owner_gone(tmp_path):
    # in-process: a lock held by this very process (another open file) is not free
    d = tmp_path / f"pysh-home-{new_uuid()}"
    d.mkdir()
    (d / "x").write_text("x")
    fd = os.open(str(d) + ".lock", os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)
    assert sweep_stale(str(tmp_path)) == 0 and d.is_dir()
    os.close(fd)
    assert sweep_stale(str(tmp_path)) == 1 and os.listdir(tmp_path) == []


def test_a_new_instance_survives_a_sweep_between_its_open_and_its_lock(tmp_path, monkeypatch):
    # Another process's sweep can open a lock file just created and flock it before its
    # owner does: the owner then takes a new name instead of failing (this was a
    # BlockingIOError when several pysh processes shared /tmp)
    from pysh.shellkit import tempdirs

    real_flock = fcntl.flock
    raced = []

    def flock(fd, op):
        if not raced:
            raced.append(os.readlink(f"/proc/self/fd/{fd}"))
            sweeper = os.open(f"/proc/self/fd/{fd}", os.O_RDWR)  # the sweep's own open file
            real_flock(sweeper, fcntl.LOCK_EX | fcntl.LOCK_NB)
            raced.append(sweeper)
        return real_flock(fd, op)

    monkeypatch.setattr(fcntl, "flock", flock)
    path = tempdirs.make_instance_dir(str(tmp_path), "swiftbash-")
    os.close(raced[1])
    try:
        # a second name was taken, and its lock is ours
        assert len(raced) == 2 and os.path.isdir(path) and raced[0] != path + ".lock"
        assert os.readlink(f"/proc/self/fd/{tempdirs._live[path]}") == path + ".lock"
    finally:
        tempdirs.remove_instance_dir(path)
