"""`pysh -c true` against `python3 -c pass`, for one or more source trees, in one run.

    python bench/startup_bench.py [--n 30] [TREE ...]     (default TREE: this checkout)

Each figure is the CPU time (user + system) of a child process, the best of N: on a
machine shared with other work, wall-clock time measures the neighbours too. The child
runs the ``pysh`` entry point (``from pysh.cli import main``, as the console script does)
with ``PYTHONPATH`` set to the tree, from an empty directory (``python -m`` would put the
working directory on ``sys.path`` and list it on every import). Give a second tree (an
export of main: ``git archive main | tar -x -C /tmp/base``) to compare before and after
under the same load. ``--instructions`` adds the instructions each executes under
valgrind (a count the machine's load does not move; about 2.8 million per ms here). Byte-code is compiled first (PYTHONDONTWRITEBYTECODE would
otherwise make every run compile the sources).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENTRY = "import sys; from pysh.cli import main; sys.exit(main())"


def cpu_ms(argv: list[str], env: dict, cwd: str, n: int) -> float:
    best = float("inf")
    for _ in range(n):
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(argv, env=env, cwd=cwd, check=True, stdout=subprocess.DEVNULL)
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        best = min(best, (r1.ru_utime + r1.ru_stime) - (r0.ru_utime + r0.ru_stime))
    return best * 1000


def instructions(argv: list[str], env: dict, cwd: str) -> int:
    p = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *argv],
                       env=dict(env, PYTHONHASHSEED="0"), cwd=cwd, capture_output=True, text=True,
                       check=True)
    return int(p.stderr.rsplit("Collected : ", 1)[1].split()[0])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=30)
    ap.add_argument("--instructions", action="store_true")
    ap.add_argument("trees", nargs="*", default=[ROOT])
    a = ap.parse_args()
    for tree in a.trees:
        subprocess.run([sys.executable, "-m", "compileall", "-q", os.path.join(tree, "pysh")],
                       check=True, stdout=subprocess.DEVNULL)
    with tempfile.TemporaryDirectory() as empty:
        print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs; best of {a.n}")
        base = cpu_ms([sys.executable, "-c", "pass"], dict(os.environ), empty, a.n)
        print(f"python3 -c pass: {base:.1f} ms of CPU")
        if a.instructions:
            base_i = instructions([sys.executable, "-c", "pass"], dict(os.environ), empty)
            print(f"python3 -c pass: {base_i / 1e6:.0f} M instructions")
        for tree in a.trees:
            env = dict(os.environ, PYTHONPATH=tree)
            argv = [sys.executable, "-c", ENTRY, "-c", "true"]
            t = cpu_ms(argv, env, empty, a.n)
            print(f"pysh -c true ({tree}): {t:.1f} ms, {t - base:.1f} ms above it")
            if a.instructions:
                i = instructions(argv, env, empty)
                print(f"    {i / 1e6:.0f} M instructions, {(i - base_i) / 1e6:.0f} M above it")


if __name__ == "__main__":
    main()
