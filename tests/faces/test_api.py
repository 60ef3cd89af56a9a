"""pysh.Sandbox: the Python API."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import threading

import anyio
import pytest

import pysh
from pysh import Limits, RunResult, Sandbox, SandboxClosed, tool_schema
from pysh.api import TOOL_NAME


@pytest.fixture
def sb():
    with Sandbox() as s:
        yield s


def test_reexports():
    assert pysh.Sandbox is Sandbox and pysh.Limits is Limits and pysh.RunResult is RunResult
    assert pysh.tool_schema is tool_schema


def test_run_basic(sb):
    r = sb.run("echo hi; echo oops >&2; exit 3")
    assert (r.stdout, r.stderr, r.exit_code) == ("hi\n", "oops\n", 3)
    assert r.stdout_bytes == b"hi\n" and r.stderr_bytes == b"oops\n"
    assert not r.timed_out and not r.truncated and r.duration >= 0
    assert sb.run("echo hi | wc -c").stdout.strip() == "3"


def test_state_persists_between_calls(sb):
    sb.run("cd /tmp; X=42; f() { echo \"f:$1\"; }; set -o pipefail")
    r = sb.run("pwd; echo $X; f a; false | true; echo $?")
    assert r.stdout == "/tmp\n42\nf:a\n1\n"
    assert sb.cwd == "/tmp" and sb.getvar("X") == "42"


def test_exit_trap_fires_at_end_of_each_call(sb):
    r = sb.run("trap 'echo bye' EXIT; echo body")
    assert r.stdout == "body\nbye\n"
    assert sb.run("echo next").stdout == "next\n"  # the trap fired once, for its own call


def test_other_traps_persist(sb):
    sb.run("trap 'echo caught' ERR")
    assert sb.run("false; echo after").stdout == "caught\nafter\n"


def test_isolated_calls_do_not_change_the_session(sb):
    sb.run("cd /tmp; A=1")
    r = sb.run("cd /; A=2; B=3; g() { :; }; echo $A", isolated=True)
    assert r.stdout == "2\n"
    r = sb.run("pwd; echo ${A}-${B}; type g >/dev/null 2>&1 || echo nog")
    assert r.stdout == "/tmp\n1-\nnog\n"
    # ...but the file system is shared
    sb.run("echo shared > /tmp/f", isolated=True)
    assert sb.run("cat /tmp/f").stdout == "shared\n"


def test_isolated_sees_session_state(sb):
    sb.run("V=seen")
    assert sb.run("echo $V", isolated=True).stdout == "seen\n"


def test_syntax_error_comes_back_as_a_result(sb):
    r = sb.run("if then fi")
    assert r.exit_code == 2
    assert "syntax error" in r.stderr and "Traceback" not in r.stderr
    assert sb.run("echo ok").stdout == "ok\n"


def test_timeout_comes_back_as_a_result(sb):
    r = sb.run("echo before; while :; do :; done", timeout=0.3)
    assert r.exit_code == 124 and r.timed_out
    assert r.stdout == "before\n"
    assert "timeout: limit exceeded (0.3s)" in r.stderr
    r = sb.run("echo after")
    assert r.stdout == "after\n" and r.exit_code == 0 and not r.timed_out


def test_exit_124_is_not_a_timeout(sb):
    r = sb.run("exit 124")
    assert r.exit_code == 124 and not r.timed_out


def test_limits_timeout_is_the_default_per_call():
    with Sandbox(limits=Limits(timeout=0.3)) as s:
        r = s.run("while :; do :; done")
        assert r.timed_out and r.exit_code == 124


def test_loop_limit():
    with Sandbox(limits=Limits(max_loop_iterations=100)) as s:
        r = s.run("i=0; while :; do i=$((i+1)); done")
        assert r.exit_code == 126 and "loop: limit exceeded" in r.stderr
        assert s.run("echo $((i > 90))").stdout == "1\n"


def test_strict_limits_profile():
    strict = Limits.strict()
    assert strict.timeout is not None and strict.max_output_bytes < Limits().max_output_bytes
    with Sandbox(limits=strict) as s:
        assert s.limits == strict
        assert s.run("echo fine").stdout == "fine\n"


def test_output_cap_truncates_with_a_marker_and_stops_the_writer():
    with Sandbox(limits=Limits(max_output_bytes=100)) as s:
        r = s.run("yes; echo after >&2")
        assert r.truncated
        assert r.stdout_bytes == b"y\n" * 50
        assert r.stdout.startswith("y\ny\n")
        assert r.stdout.endswith("[pysh: stdout truncated: output exceeded the 100-byte limit]\n")
        assert r.stderr == "after\n"  # the other stream has its own cap
        r = s.run("for i in 1 2 3; do printf '%060d\\n' 0 >&2; done")
        assert r.truncated and len(r.stderr_bytes) == 100
        assert "stderr truncated" in r.stderr and "stdout truncated" not in r.stdout
        assert not s.run("echo small").truncated


def test_stdin_str_and_bytes(sb):
    assert sb.run("cat", stdin="text\n").stdout == "text\n"
    raw = b"\xff\xfe bin\n"
    r = sb.run("cat", stdin=raw)
    assert r.stdout_bytes == raw
    assert r.stdout.encode("utf-8", "surrogateescape") == raw
    assert sb.run("cat").stdout == ""  # no stdin: empty, never the host's


def test_env_cwd_args_are_per_call(sb):
    sb.run("cd /tmp; set -- a b")
    r = sb.run('pwd; echo "$Y"; echo "$#:$1:$2"', env={"Y": "why"}, cwd="/batch", args=["x", "y"])
    assert r.stdout == "/batch\nwhy\n2:x:y\n"
    assert sb.run("printenv Y", env={"Y": "exported"}).stdout == "exported\n"
    r = sb.run('pwd; echo "[$Y]"; echo $#')
    assert r.stdout == "/tmp\n[]\n0\n"


def test_cwd_relative_and_missing(sb):
    sb.fs.mkdir("/batch/d", exist_ok=True)
    assert sb.run("pwd", cwd="d").stdout == "/batch/d\n"
    r = sb.run("echo never", cwd="/nope")
    assert r.exit_code == 1 and r.stdout == ""
    assert r.stderr == "pysh: cd: /nope: No such file or directory\n"


def test_background_jobs_end_with_the_call(sb):
    r = sb.run("sleep 100 & echo started; (echo bg) & wait $!; echo $?")
    assert r.stdout == "started\nbg\n0\n"
    assert r.duration < 50
    r = sb.run("wait; echo waited")
    assert r.stdout == "waited\n"


def test_process_substitution(sb):
    assert sb.run("cat <(echo one) <(echo two)").stdout == "one\ntwo\n"


def test_workspace_dir_and_private_tmp(tmp_path):
    (tmp_path / "in.txt").write_text("hello\n")
    with Sandbox(tmp_path) as s:
        assert s.run("cat in.txt; pwd").stdout == "hello\n/batch\n"
        s.run("echo made > out.txt; echo scratch > /tmp/s")
        host_tmp = s._ex.temp_dir
        assert os.path.isdir(host_tmp)
        r = s.run("cat /etc/passwd; echo $TMPDIR")
        assert "No such file or directory" in r.stderr and r.stdout == "/tmp\n"
    assert (tmp_path / "out.txt").read_text() == "made\n"
    assert not os.path.exists(host_tmp)


def test_custom_workspace_mounts_and_read_only(tmp_path):
    ws = tmp_path / "ws"
    data = tmp_path / "data"
    ws.mkdir()
    data.mkdir()
    (data / "d.txt").write_text("data\n")
    with Sandbox(ws, workspace="/work", mounts=[(data, "/data", True)]) as s:
        assert s.workspace == "/work"
        r = s.run("pwd; cat /data/d.txt; echo x > /data/new")
        assert r.stdout == "/work\ndata\n"
        assert r.exit_code == 1 and _refused(r.stderr, "/data/new")
        assert not (data / "new").exists()
    with Sandbox(ws, read_only=True) as s:
        r = s.run("echo x > f")
        assert r.exit_code == 1 and _refused(r.stderr, "f")
    assert not (ws / "f").exists()


def _refused(stderr: str, path: str) -> bool:
    # the confinement core refuses writes to read-only mounts with EACCES (bash on a
    # read-only mount would say EROFS); either way the message names the virtual path
    return any(f"{path}: {m}" in stderr for m in ("Permission denied", "Read-only file system"))


def test_denied_path_is_a_result(tmp_path):
    (tmp_path / "escape").symlink_to("/etc")
    with Sandbox(tmp_path) as s:
        r = s.run("cat escape/passwd")
        assert r.exit_code == 1
        assert r.stderr == "cat: escape/passwd: Permission denied\n"
        assert str(tmp_path) not in r.stderr


def test_finalizer_cleans_up_when_not_closed():
    s = Sandbox()
    s.run("echo x > /tmp/x")
    host_tmp = s._ex.temp_dir
    assert os.path.isdir(host_tmp)
    del s
    gc.collect()
    assert not os.path.exists(host_tmp)


def test_closed_sandbox_raises():
    s = Sandbox()
    s.close()
    s.close()  # idempotent
    assert s.closed
    with pytest.raises(SandboxClosed):
        s.run("true")
    with pytest.raises(SandboxClosed):
        with s:
            pass


def test_api_misuse_raises(sb):
    with pytest.raises(TypeError):
        sb.run(b"echo")
    with pytest.raises(TypeError):
        sb.run("cat", stdin=3)
    with pytest.raises(ValueError):
        sb.run("true", timeout=0)
    with pytest.raises(TypeError):
        sb.run("true", args="ab")
    with pytest.raises(ValueError):
        sb.run("true", env={"1bad": "x"})
    with pytest.raises(TypeError):
        Sandbox(limits={"timeout": 1})
    with pytest.raises(TypeError):
        sb.register("sync", lambda shell, argv: 0)


async def _hello(shell, argv):
    name = argv[1] if len(argv) > 1 else "world"
    data = await shell.stdin.read()
    await shell.stdout.write(f"hello {name} {len(data)}\n".encode())
    return 5


def test_register_custom_command(sb):
    sb.register("hello", _hello)
    r = sb.run("echo abc | hello you; echo $?")
    assert r.stdout == "hello you 4\n5\n"
    assert "hello" in sb.commands()
    assert sb.run("ls /bin/hello 2>/dev/null || test -e /bin/hello && echo listed").stdout.endswith("listed\n")


def test_commands_parameter():
    async def fs_cmd(shell, argv):
        shell.fs.write_bytes(argv[1], b"written through the door\n")
        return 0

    with Sandbox(commands={"mk": fs_cmd, "hi2": "tests.faces.plugin_cmds:hi"}) as s:
        r = s.run("mk f.txt; cat f.txt; hi2 there")
        assert r.stdout == "written through the door\nplugin says there\n"


def test_entry_point_group(tmp_path, monkeypatch):
    import pysh.api as api

    dist = tmp_path / "pysh_plugin_demo-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: pysh-plugin-demo\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[pysh.commands]\nplughi = tests.faces.plugin_cmds:hi\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(api, "_ENTRY_POINTS", None)
    with Sandbox() as s:
        assert s.run("plughi ep").stdout == "plugin says ep\n"
    monkeypatch.setattr(api, "_ENTRY_POINTS", None)
    with Sandbox(entry_points=False) as s:
        assert s.run("plughi ep").exit_code == 127


def _isolation_script(i: int) -> str:
    return f"echo {i} > /tmp/id; cd /tmp; V={i}"


def _check(r_first: RunResult, r_second: RunResult, i: int) -> None:
    assert r_first.exit_code == 0, r_first
    # its own id, variable and cwd, and nothing in /tmp but its own file
    assert r_second.stdout == f"{i}\n{i}\n/tmp\n/tmp/id\n", r_second


SECOND = "cat /tmp/id; echo $V; pwd; echo /tmp/*"


def test_fifty_sandboxes_in_threads():
    n = 50
    boxes = [Sandbox() for _ in range(n)]
    errors: list = []
    barrier = threading.Barrier(n)

    def worker(i):
        try:
            barrier.wait()
            first = boxes[i].run(_isolation_script(i))
            second = boxes[i].run(SECOND)
            _check(first, second, i)
        except BaseException as e:  # noqa: BLE001
            errors.append((i, e))

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    temps = {b._ex.temp_dir for b in boxes}
    for b in boxes:
        b.close()
    assert errors == []
    assert len(temps) == n


@pytest.mark.parametrize("backend", ["asyncio", "trio"])
def test_fifty_sandboxes_as_tasks(backend):
    n = 50

    async def main():
        boxes = [Sandbox() for _ in range(n)]
        results: dict = {}

        async def worker(i):
            async with boxes[i] as b:
                first = await b.arun(_isolation_script(i))
                await anyio.sleep(0)
                second = await b.arun("sleep 0.01; " + SECOND)
                results[i] = (first, second)

        async with anyio.create_task_group() as tg:
            for i in range(n):
                tg.start_soon(worker, i)
        return results

    results = anyio.run(main, backend=backend)
    assert len(results) == n
    for i, (first, second) in results.items():
        _check(first, second, i)


@pytest.mark.parametrize("backend", ["asyncio", "trio"])
def test_arun_under_both_backends(backend):
    async def main():
        async with Sandbox() as s:
            r1 = await s.arun("X=1; cd /tmp; echo a | wc -c; cat <(echo ps)")
            r2 = await s.arun("echo $X; pwd", env={"E": "e"})
            r3 = await s.arun("while :; do :; done", timeout=0.2)
            r4 = await s.arun("sleep 100 & echo bg")
            return r1, r2, r3, r4

    r1, r2, r3, r4 = anyio.run(main, backend=backend)
    assert r1.stdout == "2\nps\n"
    assert r2.stdout == "1\n/tmp\n"
    assert r3.timed_out and r3.exit_code == 124
    assert r4.stdout == "bg\n" and r4.duration < 50


def test_sync_run_inside_a_running_loop():
    async def main():
        with Sandbox() as s:
            return s.run("echo from-inside | tr a-z A-Z")

    assert anyio.run(main).stdout == "FROM-INSIDE\n"


def test_mixing_run_and_arun(sb):
    sb.run("M=sync")

    async def main():
        return await sb.arun("echo $M; M=async")

    assert anyio.run(main).stdout == "sync\n"
    assert sb.run("echo $M").stdout == "async\n"


# -- tool calling -----------------------------------------------------------------------


def test_tool_schema_styles():
    g = tool_schema()
    assert g["name"] == TOOL_NAME == "bash"
    assert g["parameters"]["required"] == ["command"]
    assert set(g["parameters"]["properties"]) == {"command", "timeout"}
    assert tool_schema("anthropic")["input_schema"] == g["parameters"]
    o = tool_schema("openai")
    assert o["type"] == "function" and o["function"]["parameters"] == g["parameters"]
    json.dumps(o)
    with pytest.raises(ValueError):
        tool_schema("nope")


def test_call_tool_formatting(sb):
    assert sb.call_tool({"command": "echo hi"}) == "hi\n"
    out = sb.call_tool({"command": "echo out; echo err >&2; exit 4"})
    assert out == "out\n[stderr]\nerr\n[exit status: 4]\n"
    assert sb.call_tool('{"command": "true"}') == "[no output]\n"
    out = sb.call_tool({"command": "while :; do :; done", "timeout": 0.2})
    assert "timed out" in out and "124" in out
    assert "tool error" in sb.call_tool({"cmd": "x"})
    assert "tool error" in sb.call_tool("{not json")
    assert "tool error" in sb.call_tool({"command": "true", "timeout": "soon"})


def test_call_tool_says_truncation_plainly():
    with Sandbox(limits=Limits(max_output_bytes=10)) as s:
        out = s.call_tool({"command": "seq 1 100"})
        assert out.startswith("1\n2\n3\n4\n5\n")
        assert "stdout truncated: output exceeded the 10-byte limit" in out


def test_acall_tool():
    async def main():
        async with Sandbox() as s:
            return await s.acall_tool({"command": "echo async"})

    assert anyio.run(main) == "async\n"


# -- pysh --json ---------------------------------------------------------------------------


def _pysh(*args, stdin=b""):
    return subprocess.run([sys.executable, "-m", "pysh", *args], input=stdin, capture_output=True,
                          timeout=60)


def test_json_output(tmp_path):
    (tmp_path / "f").write_text("content\n")
    p = _pysh("--sandbox", str(tmp_path), "--json", "-c", "cat f; echo e >&2; exit 3")
    assert p.returncode == 0
    obj = json.loads(p.stdout)
    assert set(obj) == {"stdout", "stderr", "exit_code", "timed_out", "truncated", "duration"}
    assert obj["stdout"] == "content\n" and obj["stderr"] == "e\n" and obj["exit_code"] == 3
    assert obj["timed_out"] is False and obj["truncated"] is False


def test_json_timeout_and_args():
    p = _pysh("--timeout", "0.3", "--json", "-c", "while :; do :; done")
    obj = json.loads(p.stdout)
    assert obj["exit_code"] == 124 and obj["timed_out"] is True
    p = _pysh("--json", "-c", 'echo "$0 $1 $2"', "name", "a", "b")
    assert json.loads(p.stdout)["stdout"] == "name a b\n"
    p = _pysh("--json", stdin=b"echo from-stdin\n")
    assert json.loads(p.stdout)["stdout"] == "from-stdin\n"


def test_json_script_file_is_named_as_the_sandbox_sees_it(tmp_path):
    (tmp_path / "ws").mkdir()
    script = tmp_path / "ws" / "s.sh"
    script.write_text('echo "$0 ${BASH_SOURCE[0]}"; nosuch\n')
    obj = json.loads(_pysh("--sandbox", str(tmp_path / "ws"), "--json", str(script)).stdout)
    assert obj["stdout"] == "/batch/s.sh /batch/s.sh\n"
    assert obj["stderr"] == "/batch/s.sh: line 1: nosuch: command not found\n"
    outside = tmp_path / "o.sh"
    outside.write_text('echo "$0"\n')
    obj = json.loads(_pysh("--json", str(outside)).stdout)
    assert obj["stdout"] == "o.sh\n" and str(tmp_path) not in json.dumps(obj)
