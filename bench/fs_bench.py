"""Door A and door B against raw host I/O, on a 4 KiB file, measured in one run.

    python bench/fs_bench.py [--n N]

Prints microseconds per operation and each confined figure as a ratio of its
raw twin. The machine is noisy: read the ratios, not the absolute times.

Each door is measured twice: on the calling thread, unrestricted (as before
the kernel floor), and on the sandbox's worker thread, which Landlock restricts
to the sandbox's roots where the kernel offers it (the figure scripts pay now).
The last column is that cost: the worker's figure over the unrestricted one.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from pysh.interpreter import ExecCommand  # noqa: E402
from pysh.shellkit import landlock  # noqa: E402

ROUNDS = 5


def per_op(fn, n: int, rounds: int = ROUNDS) -> float:
    best = float("inf")
    for _ in range(rounds):  # best of 5 rounds damps the noise
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        best = min(best, (time.perf_counter() - t0) / n)
    return best * 1e6


def both(ex, fn, n: int) -> tuple[float, float]:
    """(calling thread, worker thread) figures, their rounds interleaved so that the
    machine's drift hits both alike."""
    here, there = float("inf"), float("inf")
    for _ in range(ROUNDS):
        here = min(here, per_op(fn, n, 1))
        there = min(there, ex.call(per_op, fn, n, 1))  # the loop runs on the restricted thread
    return here, there


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=20000)
    n = ap.parse_args().n
    with tempfile.TemporaryDirectory() as d:
        os.makedirs(os.path.join(d, "src", "pkg"))
        host = os.path.join(d, "src", "pkg", "data.bin")
        with open(host, "wb") as f:
            f.write(os.urandom(4096))
        with ExecCommand(d) as ex:
            fs, shell = ex.shell.fs, ex.shell
            vpath = "/batch/src/pkg/data.bin"

            def a_read():
                with fs.open(vpath, "rb") as f:
                    f.read()

            def b_read():
                with open(shell.resolve(vpath), "rb") as f:
                    f.read()

            def raw_read():
                with open(host, "rb") as f:
                    f.read()

            rows = []
            for name, fn, raw in (("stat", lambda: fs.stat(vpath), lambda: os.stat(host)),
                                  ("read 4 KiB (door A)", a_read, raw_read),
                                  ("resolve + read (door B)", b_read, raw_read),
                                  ("raw read", raw_read, None),
                                  ("resolve only", lambda: shell.resolve(vpath), None)):
                ours, worker = both(ex, fn, n)
                rows.append((name, ours, per_op(raw, n) if raw else None, worker))
            floor = ex.floor
    print(f"kernel floor on the worker: {floor} ({landlock.describe()})")
    print(f"{'operation':28} {'pysh µs':>9} {'raw µs':>9} {'ratio':>7} {'worker µs':>10} "
          f"{'worker/pysh':>12}")
    for name, ours, raw, worker in rows:
        ratio = f"{ours / raw:6.2f}x" if raw is not None else ""
        print(f"{name:28} {ours:9.2f} {'' if raw is None else f'{raw:9.2f}':>9} {ratio:>7} "
              f"{worker:10.2f} {worker / ours:11.2f}x")


if __name__ == "__main__":
    main()
