"""Session snapshots: a round trip after an agent-style session (the restored sandbox
answers a probe as the original does), nothing run on restore, a lower layer changed
underneath refused unless rebased, and crafted snapshots refused cleanly."""

from __future__ import annotations

import hashlib
import io
import json
import os
import tarfile

import pytest

import pysh
from pysh.shellkit.snapshot import MAGIC, SnapshotError
from tests.harness import tree_state

SESSION = r"""
mkdir -p src/lib && cd src && printf 'print(1)\n' > lib/m.py && echo edited >> ../README
rm ../old.txt; git init -q 2>/dev/null; pushd lib >/dev/null; pushd /tmp >/dev/null; popd >/dev/null
declare -a arr=(one 'two words' "$(printf 'x\ty')"); arr[10]=ten
declare -A map=([key]=value ['odd key']='a "q"' [e]=''); declare -i num=6*7
declare -rx RO=fixed; declare -l low=MiXeD; declare -u up=MiXeD; declare -n ref=num
export PLAIN=plain; unset PS4; empty=
f() { local x=$1; echo "f:$x:${arr[1]}"; }
function g { f "$@" | tr a-z A-Z; }; declare -fx f; readonly -f g
alias ll='ls -la' la='ls -A'; set -o pipefail -u; shopt -s extglob nullglob globstar
trap 'echo caught' USR1; trap 'echo err' ERR; umask 027
echo tmpfile > /tmp/scratch; mkdir -p /tmp/d/e; ln -s ../scratch /tmp/d/link
set -- a 'b c' d; false | true | (exit 5)
"""

PROBE = r"""
echo "status=$? pipestatus=${PIPESTATUS[*]} args=$# $*"; pwd; dirs
declare -p arr map num RO low up ref PLAIN empty; echo "${ref} ${!map[*]}"; declare -p PS4 2>&1
declare -f f g; declare -F; alias; shopt extglob nullglob globstar; set -o | grep -E 'pipefail|nounset'
trap -p; umask; cat /tmp/scratch /tmp/d/link; ls -R /batch /tmp | grep -v '^$'; cat /batch/README
g hello; echo $?
"""


def _lower(tmp_path):
    lower = tmp_path / "lower"
    lower.mkdir()
    (lower / "README").write_bytes(b"readme\n")
    (lower / "old.txt").write_bytes(b"old\n")
    return lower


def test_round_trip_of_an_agent_session(tmp_path):
    lower = _lower(tmp_path)
    before = tree_state(str(lower))
    with pysh.Sandbox(str(lower), overlay=True) as sb:
        assert sb.run(SESSION).exit_code == 5
        data = sb.snapshot()
        want = sb.run(PROBE)
    assert "F:HELLO:TWO WORDS" in want.stdout and "\ncaught\n" not in want.stdout
    with pysh.Sandbox.restore(data, str(lower)) as sb:
        got = sb.run(PROBE)
        changes = [(c.path, c.status) for c in sb.changes()]
    assert (got.stdout, got.stderr, got.exit_code) == (want.stdout, want.stderr, want.exit_code)
    assert ("/batch/old.txt", "deleted") in changes and ("/batch/README", "modified") in changes
    assert tree_state(str(lower)) == before


def test_restore_runs_nothing(tmp_path):
    lower = _lower(tmp_path)
    with pysh.Sandbox(str(lower), overlay=True) as sb:
        sb.run("trap 'echo exit >> /batch/log' EXIT; trap 'echo debug >> /batch/log' DEBUG; "
               "PROMPT_COMMAND='echo prompt >> /batch/log'; f() { echo f >> /batch/log; }")
        data = sb.snapshot()
        log = sb.fs.read_bytes("/batch/log")  # what the session's own traps wrote
    with pysh.Sandbox.restore(data, str(lower)) as sb:
        assert sb.fs.read_bytes("/batch/log") == log
        assert sb.getvar("PROMPT_COMMAND") == "echo prompt >> /batch/log"


def test_a_lower_layer_changed_underneath_is_refused_unless_rebased(tmp_path):
    lower = _lower(tmp_path)
    with pysh.Sandbox(str(lower), overlay=True) as sb:
        sb.run("cat README >/dev/null; echo mine > new")
        data = sb.snapshot()
    (lower / "README").write_bytes(b"changed on the host\n")
    with pytest.raises(SnapshotError, match="README changed on the host"):
        pysh.Sandbox.restore(data, str(lower))
    with pysh.Sandbox.restore(data, str(lower), rebase=True) as sb:
        assert sb.run("cat README new").stdout == "changed on the host\nmine\n"


def craft(members, header=None, shell=None) -> bytes:
    """A snapshot with a valid digest around a hand-made tar stream and header."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for info, data in members:
            tar.addfile(info, io.BytesIO(data) if data is not None else None)
    body = buf.getvalue()
    head = {"version": 1, "workspace": "/batch", "overlays": [{"virtual": "/batch"}],
            "shell": shell if shell is not None else {}, **(header or {})}
    head.update(tar_size=len(body), tar_sha256=hashlib.sha256(body).hexdigest())
    h = json.dumps(head).encode()
    return MAGIC + b"%d\n" % len(h) + h + body


def member(name, type_=tarfile.REGTYPE, data=b"x", **kw):
    info = tarfile.TarInfo(name)
    info.type = type_
    for k, v in kw.items():
        setattr(info, k, v)
    if type_ == tarfile.REGTYPE:
        info.size = len(data)
        return info, data
    return info, None


HOSTILE = {
    "dotdot": [member("u0/../../escape")],
    "absolute": [member("/tmp/escape")],
    "prefix_dotdot": [member("../escape")],
    "unknown_prefix": [member("zz/escape")],
    "link_then_file": [member("u0/l", tarfile.SYMTYPE, linkname="/"),
                       member("u0/l/escape")],
    "hard_link": [member("tmp/h", tarfile.LNKTYPE, linkname="/etc/passwd")],
    "device": [member("tmp/dev", tarfile.CHRTYPE, devmajor=1, devminor=3)],
    "fifo": [member("tmp/fifo", tarfile.FIFOTYPE)],
    "oversized": [member("tmp/big", data=b"y" * 5000)],
    "file_twice": [member("tmp/a"), member("tmp/a")],
}

BAD_SHELL = {
    "code_after_function": {"functions": {"f": ["f () { :; }; touch /batch/escape", ""]}},
    "function_named_otherwise": {"functions": {"f": ["g () { :; }", ""]}},
    "bad_variable_name": {"variables": {"a;b": ["x", 0]}},
    "bad_value_type": {"variables": {"a": [{"x": 1}, 0]}},
    "unknown_option": {"set": ["no-such-option"]},
    "relative_cwd": {"cwd": "../.."},
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_hostile_snapshots_are_refused(tmp_path, case):
    lower = _lower(tmp_path)
    before = tree_state(str(tmp_path))
    with pytest.raises(SnapshotError) as ei:
        pysh.Sandbox.restore(craft(HOSTILE[case]), str(lower), max_bytes=4096)
    assert str(tmp_path) not in str(ei.value)
    assert tree_state(str(tmp_path)) == before
    assert not os.path.exists("/tmp/escape")


def test_damaged_and_crafted_headers_are_refused(tmp_path):
    lower = _lower(tmp_path)
    with pysh.Sandbox(str(lower), overlay=True) as sb:
        good = sb.snapshot()
    bad = [b"", b"junk", good[:len(good) // 2], good[:-1] + b"\1",
           good.replace(b'"version": 1', b'"version": 2'),
           MAGIC + b"99999999999\n", MAGIC + b"5\n[1,2]",
           craft([], header={"version": 0}), craft([], header={"overlays": [{"virtual": "/x"}]}),
           craft([], header={"overlays": [{"virtual": "/batch", "hidden": ["../x"]}]})]
    bad += [craft([], shell=s) for s in BAD_SHELL.values()]
    for data in bad:
        with pytest.raises(SnapshotError):
            pysh.Sandbox.restore(data, str(lower))
    assert sorted(os.listdir(lower)) == ["README", "old.txt"]
    with pysh.Sandbox.restore(craft([member("tmp/ok", data=b"fine")]), str(lower)) as sb:
        assert sb.run("cat /tmp/ok").stdout == "fine"  # the crafting itself is sound


def test_mcp_state_dir_resumes_a_session_after_a_restart(tmp_path):
    pytest.importorskip("mcp")
    import sys

    import anyio
    from mcp import ClientSession, StdioServerParameters, stdio_client

    lower, state = _lower(tmp_path), tmp_path / "state"
    state.mkdir()
    params = StdioServerParameters(command=sys.executable, cwd=os.getcwd(), args=[
        "-m", "pysh", "mcp", "--sandbox", str(lower), "--overlay", "--state-dir", str(state)])

    def text(r) -> str:
        return "".join(c.text for c in r.content if getattr(c, "type", "") == "text")

    async def call(command):
        with anyio.fail_after(60):
            async with stdio_client(params) as (r, w), ClientSession(r, w) as s:
                await s.initialize()
                return text(await s.call_tool("bash", {"command": command}))

    anyio.run(call, "cd /tmp && X=41 && f() { echo f$1; }; echo kept > /batch/new")
    got = anyio.run(call, "pwd; echo $((X+1)); f x; cat /batch/new")  # a new server process
    assert got == "/tmp\n42\nfx\nkept\n"
    assert sorted(os.listdir(lower)) == ["README", "old.txt"]


def test_mcp_http_state_dir_resumes_each_session_by_its_id(tmp_path):
    """A Streamable HTTP session outlives a server restart: the client goes on with the
    same Mcp-Session-Id and finds its shell; a DELETE ends it and drops its state."""
    pytest.importorskip("mcp")
    import socket
    import subprocess
    import sys
    import time

    import anyio
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    lower, state = _lower(tmp_path), tmp_path / "state"
    state.mkdir()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]

    def start():
        proc = subprocess.Popen(
            [sys.executable, "-m", "pysh", "mcp", "--http", str(port), "--sandbox", str(lower),
             "--overlay", "--state-dir", str(state)],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while proc.poll() is None and time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                return proc
            except OSError:
                time.sleep(0.1)
        proc.kill()
        raise AssertionError("the server did not start")

    def text(r) -> str:
        return "".join(c.text for c in r.content if getattr(c, "type", "") == "text")

    procs = [start()]

    async def scenario():
        with anyio.fail_after(90):
            async with streamable_http_client(f"http://127.0.0.1:{port}/mcp") as streams, \
                    ClientSession(streams[0], streams[1]) as s:
                await s.initialize()
                await s.call_tool("bash", {"command": "cd /tmp && X=41 && echo kept > /batch/new"})
                saved = sorted(os.listdir(state))
                procs[0].kill()  # the server dies; a new one takes the port
                procs[0].wait()
                procs.append(start())
                got = text(await s.call_tool("bash", {"command": "pwd; echo $((X+1)); "
                                                                 "cat /batch/new"}))
        return saved, got

    try:
        saved, got = anyio.run(scenario)
    finally:
        for p in procs:
            p.kill()
            p.wait()
    assert len(saved) == 1 and saved[0].startswith("session-"), saved
    assert got == "/tmp\n42\nkept\n"
    assert os.listdir(state) == []  # the client's DELETE at the end
    assert sorted(os.listdir(lower)) == ["README", "old.txt"]


def test_the_sandboxs_own_home_travels_in_the_snapshot(tmp_path):
    lower = _lower(tmp_path)
    with pysh.Sandbox(str(lower), overlay=True) as sb:
        sb.run("echo notes > ~/notes; mkdir -p ~/.config/x && echo c > ~/.config/x/rc")
        data = sb.snapshot()
    with pysh.Sandbox.restore(data, str(lower)) as sb:
        assert sb.run("cat ~/notes ~/.config/x/rc").stdout == "notes\nc\n"
    with pytest.raises(SnapshotError, match="home"):  # never into the embedder's directory
        pysh.Sandbox.restore(data, str(lower), home=str(tmp_path / "myhome"))
    assert not (tmp_path / "myhome" / "notes").exists()
    with pysh.Sandbox(str(lower), overlay=True, home=str(tmp_path / "myhome")) as sb:
        sb.run("echo mine > ~/notes")
        data = sb.snapshot()  # an embedder's home is its own: not in the snapshot
    with pysh.Sandbox.restore(data, str(lower)) as sb:
        assert sb.run("cat ~/notes").exit_code == 1
