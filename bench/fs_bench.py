"""Door A and door B against raw host I/O, on a 4 KiB file, measured in one run.

    python bench/fs_bench.py [--n N]

Prints microseconds per operation and each confined figure as a ratio of its
raw twin. The machine is noisy: read the ratios, not the absolute times.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from pysh.interpreter import ExecCommand  # noqa: E402


def per_op(fn, n: int) -> float:
    best = float("inf")
    for _ in range(5):  # best of 5 rounds damps the noise
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        best = min(best, (time.perf_counter() - t0) / n)
    return best * 1e6


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

            rows = [
                ("stat", per_op(lambda: fs.stat(vpath), n), per_op(lambda: os.stat(host), n)),
                ("read 4 KiB (door A)", per_op(a_read, n), per_op(raw_read, n)),
                ("resolve + read (door B)", per_op(b_read, n), per_op(raw_read, n)),
                ("resolve only", per_op(lambda: shell.resolve(vpath), n), None),
            ]
    print(f"{'operation':28} {'pysh µs':>9} {'raw µs':>9} {'ratio':>7}")
    for name, ours, raw in rows:
        if raw is None:
            print(f"{name:28} {ours:9.2f} {'':>9} {'':>7}")
        else:
            print(f"{name:28} {ours:9.2f} {raw:9.2f} {ours / raw:6.2f}x")


if __name__ == "__main__":
    main()
