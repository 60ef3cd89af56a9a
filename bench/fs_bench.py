"""Door A and door B against raw host I/O, on a 4 KiB file, measured in one run.

    python bench/fs_bench.py [--n N] [--baseline SRC]

Prints microseconds per operation and each confined figure as a ratio of its
raw twin. The machine is noisy: read the ratios, not the absolute times.

Each door is measured twice: on the calling thread, unrestricted (as before
the kernel floor), and on the sandbox's worker thread, which Landlock restricts
to the sandbox's roots where the kernel offers it (the figure scripts pay now).
The last column is that cost: the worker's figure over the unrestricted one.

``--baseline SRC`` also measures the pysh of another source tree (e.g. a worktree
of an older commit: ``git worktree add --detach /tmp/base 4d3109a``) in a child
process, its rounds interleaved with this tree's, and prints what this tree costs
over it: on the calling thread, and as scripts pay it (the worker thread, where
this tree has one; the baseline's figure is its calling thread's when it has none).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ROUNDS = 5


def _src_from_argv() -> str:
    """The tree to import pysh from: this one, or ``--side SRC``'s (decided before importing)."""
    if "--side" in sys.argv:
        return os.path.abspath(sys.argv[sys.argv.index("--side") + 1])
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


sys.path.insert(0, _src_from_argv())

from pysh.interpreter import ExecCommand  # noqa: E402


def per_op(fn, n: int, rounds: int = ROUNDS) -> float:
    best = float("inf")
    for _ in range(rounds):  # best of the rounds damps the noise
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        best = min(best, (time.perf_counter() - t0) / n)
    return best * 1e6


def operations(ex, d: str) -> list[tuple[str, object, object]]:
    """(name, confined op, its raw twin or None)."""
    fs, shell = ex.shell.fs, ex.shell
    host = os.path.join(d, "src", "pkg", "data.bin")
    vpath = "/batch/src/pkg/data.bin"

    def a_open():
        fs.open(vpath, "rb").close()

    def a_read():
        with fs.open(vpath, "rb") as f:
            f.read()

    def b_read():
        with open(shell.resolve(vpath), "rb") as f:
            f.read()

    def raw_open():
        open(host, "rb").close()

    def raw_read():
        with open(host, "rb") as f:
            f.read()

    return [("stat", lambda: fs.stat(vpath), lambda: os.stat(host)),
            ("open + close (door A)", a_open, raw_open),
            ("read 4 KiB (door A)", a_read, raw_read),
            ("resolve + read (door B)", b_read, raw_read),
            ("raw read", raw_read, None),
            ("resolve only", lambda: shell.resolve(vpath), None)]


def one_round(n: int) -> dict:
    """One round of every operation: {"here", "worker", "raw"} µs per op by name
    ("worker" is None on a tree without a worker thread)."""
    out: dict = {"here": {}, "worker": None, "raw": {}, "floor": None}
    with tempfile.TemporaryDirectory() as d:
        os.makedirs(os.path.join(d, "src", "pkg"))
        with open(os.path.join(d, "src", "pkg", "data.bin"), "wb") as f:
            f.write(os.urandom(4096))
        with ExecCommand(d) as ex:
            call = getattr(ex, "call", None)
            if call is not None:
                out["worker"], out["floor"] = {}, ex.floor
            for name, fn, raw in operations(ex, d):
                out["here"][name] = per_op(fn, n, 1)
                if call is not None:  # the loop runs on the restricted thread
                    out["worker"][name] = call(per_op, fn, n, 1)
                if raw is not None:
                    out["raw"][name] = per_op(raw, n, 1)
    return out


def baseline_round(src: str, n: int) -> dict:
    p = subprocess.run([sys.executable, os.path.abspath(__file__), "--side", src, "--n", str(n)],
                       capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"baseline side failed:\n{p.stderr[-2000:]}")
    return json.loads(p.stdout.splitlines()[-1])


def merge(acc: dict | None, got: dict) -> dict:
    """Best (lowest) figure of each operation over the rounds."""
    if acc is None:
        return got
    for key in ("here", "worker", "raw"):
        if got[key] is not None:
            for name, v in got[key].items():
                acc[key][name] = min(acc[key][name], v)
    return acc


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=20000)
    ap.add_argument("--baseline", metavar="SRC", help="also measure the pysh of this source tree")
    ap.add_argument("--side", metavar="SRC", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.side:
        print(json.dumps(one_round(a.n)))
        return
    ours = base = None
    for _ in range(ROUNDS):  # interleaved, so that the machine's drift hits both alike
        if a.baseline:
            base = merge(base, baseline_round(a.baseline, a.n))
        ours = merge(ours, one_round(a.n))
    assert ours is not None
    from pysh.shellkit import landlock

    print(f"kernel floor on the worker: {ours['floor']} ({landlock.describe()})")
    head = f"{'operation':28} {'pysh µs':>9} {'raw µs':>9} {'ratio':>7} {'worker µs':>10} " \
           f"{'worker/pysh':>12}"
    if base:
        head += f" {'base µs':>9} {'pysh/base':>10} {'worker/base':>12}"
    print(head)
    for name, here in ours["here"].items():
        raw, worker = ours["raw"].get(name), ours["worker"][name]
        ratio = f"{here / raw:6.2f}x" if raw is not None else ""
        line = (f"{name:28} {here:9.2f} {'' if raw is None else f'{raw:9.2f}':>9} {ratio:>7} "
                f"{worker:10.2f} {worker / here:11.2f}x")
        if base and name in base["here"]:
            b = base["here"][name]
            line += f" {b:9.2f} {here / b:9.2f}x {worker / b:11.2f}x"
        print(line)


if __name__ == "__main__":
    main()
