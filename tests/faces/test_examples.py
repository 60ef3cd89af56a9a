"""The examples run and show what their docstrings promise."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples"


def _run(name: str, *args: str) -> str:
    p = subprocess.run([sys.executable, str(EXAMPLES / name), *args], capture_output=True,
                       text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert "Traceback" not in p.stderr
    return p.stdout


def test_agent_loop():
    out = _run("agent_loop.py")
    assert "access.log" in out and "2 errors" in out
    assert "cat: /etc/passwd: No such file or directory\n[exit status: 1]" in out
    assert "[timed out: the command was stopped (exit status 124)]" in out
    assert "syntax error near unexpected token `then'" in out


def test_async_sandboxes_both_backends():
    for backend in ("asyncio", "trio"):
        out = _run("async_sandboxes.py", backend)
        for n in range(1, 6):
            assert f"sandbox {n} in /tmp sees: /tmp/numbers sum={n * (n + 1) // 2}" in out


def test_custom_command():
    out = _run("custom_command.py")
    assert out == ("Uryyb, fnaqobk\nsecret\nstatus=1\n"
                   "rot13: /etc/passwd: No such file or directory\n")


def test_mcp_client_config_is_valid():
    cfg = json.loads((EXAMPLES / "mcp_client_config.json").read_text())
    server = cfg["mcpServers"]["pysh"]
    assert server["command"] == "pysh" and server["args"][0] == "mcp"


def test_demo_script():
    """`make demo`'s script: every section runs, and only the two refusals it shows are errors."""
    import pysh

    with pysh.Sandbox() as sb:
        r = sb.run((EXAMPLES / "demo.sh").read_text())
    assert r.exit_code == 0, r.stderr
    assert r.stderr == ("cat: /etc/passwd: No such file or directory\n"
                        "ln: failed to create symbolic link 'escape': Operation not permitted\n")
    for line in ("total 6", "jq: 5", "notes/n3.txt:1:note 3: 9 squared", "demo: first commit",
                 " 1 file changed, 1 insertion(+)", "(status 1: a symlink out of the sandbox is never made)"):
        assert line + "\n" in r.stdout
