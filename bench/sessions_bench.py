"""How far one process goes: many sessions at once, each on its own worker thread.

    python bench/sessions_bench.py [--sessions 1,8,32,128] [--seconds S] [--busy]
                                   [--switch-interval MS] [--mcp]

For each session count N, N :class:`pysh.Sandbox` sessions are driven from one
asyncio loop (as ``pysh mcp`` drives them), each calling ``arun("echo hi | wc -c")``
back to back for S seconds. Prints calls/s over all sessions, the median and
99th-percentile latency of one call, and the process's resident memory and
thread count per session. ``--busy`` adds one more session that spins in
``while :; do :; done`` meanwhile (what it costs the others: the GIL). ``--mcp``
measures the same through ``pysh mcp --http`` (a child process) with the MCP SDK's
client, one MCP session per N (HTTP and JSON-RPC included).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

SCRIPT = "echo hi | wc -c"


def rss_mib() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def report(n: int, calls: int, seconds: float, lat: list[float], extra: str = "") -> None:
    lat.sort()
    p50 = statistics.median(lat) * 1e3 if lat else float("nan")
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1e3 if lat else float("nan")
    print(f"{n:>9} {calls / seconds:>10.0f} {p50:>9.2f} {p99:>9.2f} {extra}")


def api_round(n: int, seconds: float, busy: bool) -> None:
    import anyio

    from pysh import Sandbox

    base_rss = rss_mib()
    base_threads = threading.active_count()
    boxes = [Sandbox() for _ in range(n)]
    lat: list[float] = []
    calls = 0

    async def session(sb) -> None:
        nonlocal calls
        await sb.arun("true")
        end = time.monotonic() + seconds
        while (t0 := time.monotonic()) < end:
            r = await sb.arun(SCRIPT)
            assert r.stdout == "3\n", r
            lat.append(time.monotonic() - t0)
            calls += 1

    async def main() -> None:
        async with anyio.create_task_group() as tg:
            if busy:
                spinner = Sandbox()
                boxes.append(spinner)
                tg.start_soon(lambda: spinner.arun("while :; do :; done", timeout=seconds + 1))
                await anyio.sleep(0.2)
            for sb in boxes[:n]:
                tg.start_soon(session, sb)

    t0 = time.monotonic()
    anyio.run(main)
    took = time.monotonic() - t0
    mem = (rss_mib() - base_rss) / n
    threads = threading.active_count() - base_threads
    for sb in boxes:
        sb.close()
    report(n, calls, min(took, seconds), lat, f"{mem:>10.2f} {threads:>8}")


def mcp_round(n: int, seconds: float) -> None:
    import socket
    import subprocess

    import anyio
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "pysh", "mcp", "--http", str(port)],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL,
                            cwd=os.path.join(os.path.dirname(__file__), ".."))
    try:
        for _ in range(300):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        lat: list[float] = []
        calls = 0

        async def session() -> None:
            nonlocal calls
            async with streamable_http_client(f"http://127.0.0.1:{port}/mcp") as streams:
                async with ClientSession(streams[0], streams[1]) as s:
                    await s.initialize()
                    await s.call_tool("bash", {"command": "true"})
                    end = time.monotonic() + seconds
                    while (t0 := time.monotonic()) < end:
                        await s.call_tool("bash", {"command": SCRIPT})
                        lat.append(time.monotonic() - t0)
                        calls += 1

        async def main() -> None:
            async with anyio.create_task_group() as tg:
                for _ in range(n):
                    tg.start_soon(session)

        anyio.run(main)
        report(n, calls, seconds, lat)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sessions", default="1,8,32,128")
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--busy", action="store_true", help="one more session spins meanwhile")
    ap.add_argument("--switch-interval", type=float, help="sys.setswitchinterval, in ms")
    ap.add_argument("--mcp", action="store_true", help="through pysh mcp --http instead")
    a = ap.parse_args()
    if a.switch_interval:
        sys.setswitchinterval(a.switch_interval / 1000)
    counts = [int(x) for x in a.sessions.split(",")]
    print(f"{'mcp' if a.mcp else 'api'}: `{SCRIPT}` back to back per session for {a.seconds:g} s"
          f"{', one more session spinning' if a.busy else ''}; switch interval "
          f"{sys.getswitchinterval() * 1000:g} ms")
    print(f"{'sessions':>9} {'calls/s':>10} {'p50 ms':>9} {'p99 ms':>9}"
          + ("" if a.mcp else f" {'MiB/sess':>10} {'threads':>8}"))
    for n in counts:
        if a.mcp:
            mcp_round(n, a.seconds)
        else:
            api_round(n, a.seconds, a.busy)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
