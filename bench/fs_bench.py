"""Door A and door B against raw host I/O, on a 4 KiB file, measured in one run.

    python bench/fs_bench.py [--n N] [--rounds R] [--baseline SRC]

Prints microseconds per operation and each confined figure as a ratio of its
raw twin. The machine is noisy: read the ratios, not the absolute times.

Each door is measured twice: on the calling thread, unrestricted (as before
the kernel floor), and on the sandbox's worker thread, which Landlock restricts
to the sandbox's roots where the kernel offers it (the figure scripts pay now).
The last column is that cost: the worker's figure over the unrestricted one.

``--baseline SRC`` also measures the pysh of another source tree (e.g. main
before a change: ``git archive REV | tar -x -C /tmp/before``) in a child
process, its rounds interleaved with ours, and prints this tree's worker figure
over the baseline's (its worker's where it has one, else its calling thread's).
Each figure is given twice: wall clock, and the measuring thread's CPU time (on
a loaded machine the wall clock mostly measures the waits for a CPU).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
ROWS = ("stat", "read 4 KiB (door A)", "resolve + read (door B)", "raw read", "resolve only")


def per_op(fn, n: int) -> tuple[float, float]:
    """(wall, this thread's CPU) µs per call of ``fn``, over ``n`` calls."""
    t0, c0 = time.perf_counter(), time.thread_time()
    for _ in range(n):
        fn()
    return (time.perf_counter() - t0) / n * 1e6, (time.thread_time() - c0) / n * 1e6


def measure(n: int, rounds: int) -> dict[str, dict[str, float]]:
    """Per row: the best of ``rounds`` for pysh on the calling thread, on the worker (where
    this tree has one), and the raw twin; each as wall and CPU µs. The calling thread's
    and the worker's rounds alternate, so the machine's drift hits both alike."""
    from pysh.interpreter import ExecCommand

    out: dict[str, dict[str, float]] = {}

    def keep(row: str, key: str, figures: tuple[float, float]) -> None:
        for suffix, v in zip(("", " cpu"), figures, strict=True):
            d = out.setdefault(row, {})
            d[key + suffix] = min(d.get(key + suffix, v), v)

    with tempfile.TemporaryDirectory() as d:
        os.makedirs(os.path.join(d, "src", "pkg"))
        host = os.path.join(d, "src", "pkg", "data.bin")
        with open(host, "wb") as f:
            f.write(os.urandom(4096))
        with ExecCommand(d) as ex:
            fs, shell = ex.shell.fs, ex.shell
            on_worker = getattr(ex, "call", None)  # trees before the kernel floor: none
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

            cases = dict(zip(ROWS, ((lambda: fs.stat(vpath), lambda: os.stat(host)),
                                    (a_read, raw_read), (b_read, raw_read), (raw_read, None),
                                    (lambda: shell.resolve(vpath), None)), strict=True))
            for _ in range(rounds):
                for row, (fn, raw) in cases.items():
                    keep(row, "pysh", per_op(fn, n))
                    if on_worker is not None:  # the loop runs on the restricted thread
                        keep(row, "worker", on_worker(per_op, fn, n))
                    if raw is not None:
                        keep(row, "raw", per_op(raw, n))
            out["floor"] = {"text": getattr(ex, "floor", "none (no worker thread)")}
    return out


def baseline_round(src: str, n: int) -> dict | None:
    p = subprocess.run([sys.executable, os.path.abspath(__file__), "--n", str(n), "--rounds", "1",
                        "--src", os.path.abspath(src), "--json"], capture_output=True, text=True,
                       timeout=1800)
    if p.returncode != 0:
        sys.stderr.write(f"baseline side failed:\n{p.stderr[-2000:]}\n")
        return None
    return json.loads(p.stdout.strip().splitlines()[-1])


def merge(acc: dict, got: dict) -> None:
    for row, figures in got.items():
        d = acc.setdefault(row, {})
        for k, v in figures.items():
            d[k] = v if isinstance(v, str) else min(d.get(k, v), v)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=20000, help="operations per round (default 20000)")
    ap.add_argument("--rounds", type=int, default=5, help="rounds; the best is kept (default 5)")
    ap.add_argument("--baseline", metavar="SRC", help="also measure the pysh of this source tree")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--src", default=HERE, help=argparse.SUPPRESS)  # the tree whose pysh runs
    a = ap.parse_args()
    sys.path.insert(0, a.src)
    base: dict = {}
    if a.baseline:  # rounds interleaved with the baseline's
        ours: dict = {}
        for _ in range(a.rounds):
            merge(base, baseline_round(a.baseline, a.n) or {})
            merge(ours, measure(a.n, 1))
    else:
        ours = measure(a.n, a.rounds)
    if a.json:
        print(json.dumps(ours))
        return 0
    from pysh.shellkit import landlock

    print(f"kernel floor on the worker: {ours.pop('floor')['text']} ({landlock.describe()})")
    base.pop("floor", None)
    for cpu in ("", " cpu"):
        print(f"\nµs per operation, {'thread CPU time' if cpu else 'wall clock'} "
              f"(best of {a.rounds} rounds of {a.n})")
        head = (f"{'operation':26} {'pysh':>8} {'raw':>8} {'ratio':>7} {'worker':>8} "
                f"{'worker/pysh':>12}")
        if base:
            head += f" {'baseline':>9} {'worker/baseline':>16}"
        print(head)
        for row in ROWS:
            f = ours[row]
            ours_, worker, raw = f["pysh" + cpu], f.get("worker" + cpu), f.get("raw" + cpu)
            line = (f"{row:26} {ours_:8.2f} {'' if raw is None else f'{raw:8.2f}':>8} "
                    f"{'' if raw is None else f'{ours_ / raw:6.2f}x':>7} "
                    f"{'' if worker is None else f'{worker:8.2f}':>8} "
                    f"{'' if worker is None else f'{worker / ours_:11.2f}x':>12}")
            if base and row in base:
                b = base[row].get("worker" + cpu, base[row]["pysh" + cpu])
                mine = ours_ if worker is None else worker
                line += f" {b:9.2f} {mine / b:15.2f}x"
            print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
