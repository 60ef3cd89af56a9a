"""`pysh mcp` end to end, through the MCP SDK's own client."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time

import anyio
import pytest

mcp = pytest.importorskip("mcp")

from mcp import ClientSession, StdioServerParameters, stdio_client  # noqa: E402


def _text(result) -> str:
    return "".join(c.text for c in result.content if getattr(c, "type", "") == "text")


def _params(*args) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=["-m", "pysh", "mcp", *args],
                                 cwd=os.getcwd())


async def _with_session(params, fn):
    with anyio.fail_after(60):
        async with stdio_client(params) as (r, w):
            async with ClientSession(r, w) as s:
                await s.initialize()
                return await fn(s)


def test_stdio_end_to_end(tmp_path):
    (tmp_path / "notes.txt").write_text("a note\n")
    (tmp_path / "escape").symlink_to("/etc")

    async def scenario(s):
        tools = {t.name: t for t in (await s.list_tools()).tools}
        assert set(tools) == {"bash", "read_file", "write_file"}
        schema = tools["bash"].input_schema
        assert "command" in schema["properties"] and "timeout" in schema["properties"]
        assert schema.get("required") == ["command"]
        out = {}
        out["first"] = await s.call_tool("bash", {"command": "cd /tmp; X=41; f() { echo f$1; }; cat /batch/notes.txt"})
        out["state"] = await s.call_tool("bash", {"command": "pwd; echo $((X+1)); f x"})
        out["fail"] = await s.call_tool("bash", {"command": "echo partial; echo bad >&2; exit 3"})
        out["denied"] = await s.call_tool("bash", {"command": "cat /batch/escape/passwd"})
        out["missing"] = await s.call_tool("bash", {"command": "cat /etc/passwd"})
        out["syntax"] = await s.call_tool("bash", {"command": "if then"})
        out["timeout"] = await s.call_tool("bash", {"command": "while :; do :; done", "timeout": 0.5})
        out["after"] = await s.call_tool("bash", {"command": "echo still $X"})
        out["write"] = await s.call_tool("write_file", {"path": "w.txt", "content": "written\n"})
        out["readback"] = await s.call_tool("bash", {"command": "cat /tmp/w.txt"})
        out["read"] = await s.call_tool("read_file", {"path": "/batch/notes.txt"})
        out["read_denied"] = await s.call_tool("read_file", {"path": "/batch/escape/passwd"})
        return out

    out = anyio.run(_with_session, _params("--sandbox", str(tmp_path)), scenario)
    assert not out["first"].is_error and _text(out["first"]) == "a note\n"
    assert not out["state"].is_error and _text(out["state"]) == "/tmp\n42\nfx\n"
    assert out["fail"].is_error
    assert _text(out["fail"]) == "partial\n[stderr]\nbad\n[exit status: 3]\n"
    assert out["denied"].is_error and "escape/passwd: Permission denied" in _text(out["denied"])
    assert out["missing"].is_error and "No such file or directory" in _text(out["missing"])
    assert out["syntax"].is_error and "syntax error" in _text(out["syntax"])
    assert out["timeout"].is_error
    assert "timeout: limit exceeded (0.5s)" in _text(out["timeout"])
    assert "timed out" in _text(out["timeout"])
    assert _text(out["after"]) == "still 41\n"
    assert not out["write"].is_error and "/tmp/w.txt" in _text(out["write"])
    assert _text(out["readback"]) == "written\n"
    assert _text(out["read"]) == "a note\n"
    assert out["read_denied"].is_error and "Permission denied" in _text(out["read_denied"])
    for r in out.values():
        assert str(tmp_path) not in _text(r)


def test_stdio_default_timeout_and_read_only(tmp_path):
    async def scenario(s):
        slow = await s.call_tool("bash", {"command": "while :; do :; done"})
        ro = await s.call_tool("bash", {"command": "echo x > f"})
        wf = await s.call_tool("write_file", {"path": "g", "content": "x"})
        return slow, ro, wf

    slow, ro, wf = anyio.run(_with_session, _params("--sandbox", str(tmp_path), "--read-only",
                                                     "--timeout", "0.4"), scenario)
    assert slow.is_error and "limit exceeded (0.4s)" in _text(slow)
    assert ro.is_error and wf.is_error
    assert list(tmp_path.iterdir()) == []


def test_bad_options_fail_cleanly(tmp_path):
    p = subprocess.run([sys.executable, "-m", "pysh", "mcp", "--sandbox", str(tmp_path / "nope")],
                       capture_output=True, timeout=60, stdin=subprocess.DEVNULL)
    assert p.returncode == 2 and b"not a directory" in p.stderr and b"Traceback" not in p.stderr
    p = subprocess.run([sys.executable, "-m", "pysh", "mcp", "-c", "echo"],
                       capture_output=True, timeout=60, stdin=subprocess.DEVNULL)
    assert p.returncode == 2
    p = subprocess.run([sys.executable, "-m", "pysh", "mcp", "--http", "notaport"],
                       capture_output=True, timeout=60, stdin=subprocess.DEVNULL)
    assert p.returncode == 2 and b"invalid port" in p.stderr


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def _http_server(*args):
    """``pysh mcp --http`` in a child process on a free port of 127.0.0.1 (killed at the end)."""
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "pysh", "mcp", "--http", str(port), *args],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise AssertionError(proc.stderr.read().decode() if proc.poll() is not None
                                         else "server did not start") from None
                time.sleep(0.1)
        yield port
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_untrusted_callers_get_strict_limits_unless_loosened():
    from pysh import Limits, cli
    from pysh.mcp import parse_args

    def limits(*argv):
        return cli.limits_of(parse_args(list(argv))[0])

    assert limits() == Limits.strict().with_(timeout=120.0)
    assert limits("--timeout", "9") == Limits.strict().with_(timeout=9.0)
    assert limits("--limit", "max_file_size=none", "--limit", "timeout=5") == \
        Limits.strict().with_(max_file_size=None, timeout=5.0)
    assert limits("--no-strict") == Limits(timeout=120.0)


def test_limits_hold_for_the_tools(tmp_path):
    async def scenario(s):
        big = await s.call_tool("bash", {"command": "head -c 4K /dev/zero > f; echo not here"})
        size = await s.call_tool("bash", {"command": "stat -c %s f"})
        wf = await s.call_tool("write_file", {"path": "g", "content": "x" * 2000})
        ok = await s.call_tool("write_file", {"path": "h", "content": "x" * 1000})
        return big, size, wf, ok

    big, size, wf, ok = anyio.run(_with_session, _params(
        "--sandbox", str(tmp_path), "--limit", "max_file_size=1K"), scenario)
    assert big.is_error and "pysh: file size: limit exceeded (1024 bytes)" in _text(big)
    assert "not here" not in _text(big) and _text(size) == "1024\n"
    assert wf.is_error and "file size: limit exceeded (1024 bytes)" in _text(wf)
    assert not ok.is_error
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f", "h"]


@contextlib.asynccontextmanager
async def _http_session(port: int):
    from mcp.client.streamable_http import streamable_http_client

    async with streamable_http_client(f"http://127.0.0.1:{port}/mcp") as streams:
        async with ClientSession(streams[0], streams[1]) as s:
            await s.initialize()
            yield s


def test_streamable_http_sessions_are_separate():
    with _http_server() as port:
        async def one_session(value: str):
            async with _http_session(port) as s:
                await s.call_tool("bash", {"command": f"V={value}; echo {value} > /tmp/id"})
                res = await s.call_tool("bash", {"command": "echo $V; cat /tmp/id"})
                return _text(res)

        async def main():
            with anyio.fail_after(60):
                return [await one_session("one"), await one_session("two")]

        assert anyio.run(main) == ["one\none\n", "two\ntwo\n"]


def test_a_busy_session_never_stalls_another():
    """Issue 12: while session A burns CPU (with a timeout), session B's `echo`s all return
    before A's run ends, and A's timeout arrives. Each session runs on its own worker thread.
    Ordering, not timing: before the fix B's calls waited for A's run to end."""
    # the server's strict default counts the loop's commands: only the timeout may end it
    with _http_server("--limit", "max_commands=none",
                      "--limit", "max_loop_iterations=none") as port:
        async def main():
            async with _http_session(port) as a, _http_session(port) as b:
                for s in (a, b):  # each session's sandbox and thread exist before the clock starts
                    await s.call_tool("bash", {"command": "true"})
                out: dict = {}

                async def busy():
                    t0 = time.monotonic()
                    res = await a.call_tool("bash", {"command": "while :; do :; done", "timeout": 8})
                    out["a"] = (time.monotonic() - t0, _text(res), res.is_error)

                async with anyio.create_task_group() as tg:
                    tg.start_soon(busy)
                    await anyio.sleep(0.5)  # A is in its loop by now
                    out["b"] = []
                    for _ in range(3):
                        t0 = time.monotonic()
                        res = await b.call_tool("bash", {"command": "echo hi"})
                        out["b"].append((time.monotonic() - t0, _text(res)))
                    out["b_done_before_a"] = "a" not in out
                return out

        async def bounded():
            with anyio.fail_after(60):
                return await main()

        out = anyio.run(bounded)
    assert [text for _, text in out["b"]] == ["hi\n"] * 3, out["b"]
    assert out["b_done_before_a"], out
    took, text, is_error = out["a"]
    assert is_error and "timed out" in text, text
    assert took >= 8.0, took
