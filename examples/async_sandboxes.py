"""Several sandboxes at once on one event loop (anyio: asyncio or trio).

    python examples/async_sandboxes.py [asyncio|trio]

Each sandbox has its own shell state and its own private /tmp; none can see
another's files, variables or working directory.
"""

from __future__ import annotations

import sys

import anyio

import pysh


async def worker(n: int, results: dict) -> None:
    async with pysh.Sandbox() as sb:
        await sb.arun(f"cd /tmp; N={n}; seq 1 {n} > numbers")
        await anyio.sleep(0.01 * (5 - n))  # interleave the sandboxes
        r = await sb.arun("echo \"sandbox $N in $(pwd) sees: $(echo /tmp/*)\" "
                          "sum=$(awk '{s += $1} END {print s}' numbers)")
        results[n] = r.stdout.strip()


async def main() -> None:
    results: dict[int, str] = {}
    async with anyio.create_task_group() as tg:
        for n in range(1, 6):
            tg.start_soon(worker, n, results)
    for n in sorted(results):
        print(results[n])


if __name__ == "__main__":
    anyio.run(main, backend=sys.argv[1] if len(sys.argv) > 1 else "asyncio")
