"""Sandboxes of one process never stall each other (each runs on its own worker thread).

The hostile part (a busy loop) runs in a child process with a hard kill, so a
regression fails here instead of hanging the suite.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

CHILD = r"""
import json, sys, time
import anyio
from pysh import Sandbox

async def main():
    a, b = Sandbox(), Sandbox()
    await a.arun("true")
    await b.arun("true")
    out = {}

    async def busy():
        t0 = time.monotonic()
        r = await a.arun("while :; do :; done", timeout=6)
        out["a"] = [time.monotonic() - t0, r.timed_out]

    async with anyio.create_task_group() as tg:
        tg.start_soon(busy)
        await anyio.sleep(0.3)
        t0 = time.monotonic()
        r = await b.arun("echo hi")
        out["b"] = [time.monotonic() - t0, r.stdout, "a" not in out]
        t0 = time.monotonic()
        await anyio.sleep(0.05)  # the caller's own loop keeps turning
        out["loop"] = time.monotonic() - t0
    t0 = time.monotonic()
    with anyio.move_on_after(0.3):  # cancelling the caller stops the script
        await a.arun("while :; do :; done")
    out["cancel"] = time.monotonic() - t0
    out["after"] = (await a.arun("echo still")).stdout
    a.close()
    b.close()
    print(json.dumps(out))

anyio.run(main, backend=sys.argv[1])
"""


@pytest.mark.parametrize("backend", ["asyncio", "trio"])
def test_a_busy_sandbox_never_stalls_another(backend):
    pytest.importorskip(backend)
    p = subprocess.run([sys.executable, "-c", CHILD, backend], capture_output=True, text=True,
                       timeout=60)  # kills the child past it
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    # ordering, not timing (the suite runs on loaded machines): B answers while A still runs,
    # the caller's loop turns, a cancel lands long before A's own 6 s timeout would
    took, stdout, before_a = out["b"]
    assert stdout == "hi\n" and before_a, out
    took, timed_out = out["a"]
    assert timed_out and took >= 6.0, out
    assert out["loop"] < 3.0, out
    assert out["cancel"] < 5.0 and out["after"] == "still\n", out
