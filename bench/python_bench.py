"""pysh's python3 (CPython 3.12 on wasmtime, files through door A) next to the host's CPython.

    .venv/bin/python bench/python_bench.py [--repeat R] [--mb 50] [--lines 200000]

Workloads, each run by pysh's ``python3`` in a warm ``Sandbox`` (in-process) and by the
host's ``python3`` as a process in the same directory (its start-up included, ~15 ms):

* ``-c pass``        start-up alone; pysh also *cold*: the first call in a fresh
                     process (the runtime loaded from the compiled-module cache)
* loop               ``for i in range(1_000_000): s += i``
* read               a 50 MB file read line by line (``for line in open(...)``)
* write              200,000 lines written with ``f.write``

Each figure is the best of R runs; read the ratios, not the absolute times (the machine
is shared). Targets: warm ``-c pass`` under 60 ms; file I/O within 5x of host CPython.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

LOOP = "s = 0\nfor i in range(1_000_000):\n    s += i\nprint(s)\n"
READ = "n = 0\nfor line in open('big.txt'):\n    n += len(line)\nprint(n)\n"
WRITE = ("with open('out.txt', 'w') as f:\n    for i in range({lines}):\n"
         "        f.write(f'line {{i}} of the output file\\n')\n")


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def host_python() -> str:
    return shutil.which("python3", path="/usr/local/bin:/usr/bin:/bin") or sys.executable


def cold_start(ws: str) -> tuple[float, float]:
    """(first ``python3 -c pass`` in a fresh process, that process's whole wall time)."""
    code = ("import time; t0 = time.perf_counter(); from pysh.api import Sandbox\n"
            f"sb = Sandbox({ws!r}); t = time.perf_counter(); r = sb.run('python3 -c pass')\n"
            "first = time.perf_counter() - t; sb.close()\n"
            "assert r.exit_code == 0, r.stderr\n"
            "print(first, time.perf_counter() - t0)\n")
    t = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    total = time.perf_counter() - t
    first, _ = map(float, out.stdout.split())
    return first, total


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--mb", type=int, default=50)
    ap.add_argument("--lines", type=int, default=200_000)
    args = ap.parse_args()

    from pysh.api import Sandbox
    from pysh.ports.python.runtime import get_runtime

    get_runtime()  # compile (first time on this machine) or load, outside the timings
    host = host_python()
    ver = subprocess.run([host, "--version"], capture_output=True, text=True).stdout.strip()
    with tempfile.TemporaryDirectory(prefix="pybench-") as ws:
        line = b"the quick brown fox jumps over the lazy dog 0123456789\n"
        with open(os.path.join(ws, "big.txt"), "wb") as f:
            f.write(line * (args.mb * 1024 * 1024 // len(line)))
        write = WRITE.format(lines=args.lines)
        cases = [("-c pass", "pass"), ("1M-iteration loop", LOOP),
                 (f"read {args.mb} MB by line", READ), (f"write {args.lines:,} lines", write)]
        rows = []
        cold_first, cold_total = min(cold_start(ws) for _ in range(max(1, args.repeat // 2)))
        with Sandbox(ws) as sb:
            for name, code in cases:
                (open(os.path.join(ws, "s.py"), "w")).write(code)
                r = sb.run("python3 s.py")
                assert r.exit_code == 0, r.stderr
                want = subprocess.run([host, "s.py"], cwd=ws, capture_output=True, text=True)
                assert r.stdout == want.stdout, (name, r.stdout, want.stdout)
                t_pysh = best(lambda: sb.run("python3 s.py"), args.repeat)
                t_host = best(lambda: subprocess.run([host, "s.py"], cwd=ws, check=True,
                                                     capture_output=True), args.repeat)
                rows.append((name, t_pysh, t_host))
    print(f"pysh python3 (CPython 3.12.0, WASI, wasmtime) vs host {ver}; best of {args.repeat}")
    print(f"{'workload':<24}{'pysh':>10}{'host':>10}{'ratio':>8}")
    for name, tp, th in rows:
        print(f"{name:<24}{tp * 1000:>8.0f}ms{th * 1000:>8.0f}ms{tp / th:>7.1f}x")
    print(f"{'-c pass, cold':<24}{cold_first * 1000:>8.0f}ms"
          f"   (first call in a fresh process; that whole process: {cold_total * 1000:.0f} ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
