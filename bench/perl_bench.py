"""perl one-liners: pysh's perl against perl 5.36, measured side by side (issue 13).

    .venv/bin/python bench/perl_bench.py [--repeat R] [--lines N]

Inputs are made at bench time in a temp dir: a text of N lines (default 200,000) of
words and three numeric columns. Each case is timed two ways: the whole ``pysh
--sandbox DIR -c '...'`` process (start-up included) against ``sh -c`` running the
real perl, and the pysh command alone, called in-process through the test harness,
against the real perl's process. Ratios only: both run on the same machine in the
same run. Beside the wall clock, the CPU time (user + system: the child's for the real
perl and for ``pysh -c``, this process's for the in-process run): on a loaded machine the
wall clock of a long run grows with the load, the CPU time does not.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

ENV = {"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8", "TZ": "UTC"}
WORDS = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu".split()

CASES = [
    ("perl -pe 's/a/b/' (large file)", "perl -pe 's/a/b/' big.txt > out.txt",
     ["perl", "-pe", "s/a/b/", "big.txt"]),
    ("perl -lane column sum", "perl -lane '$s += $F[1]; END { print $s }' big.txt",
     ["perl", "-lane", "$s += $F[1]; END { print $s }", "big.txt"]),
    ("perl -ne grep + count", "perl -ne '$n++ if /gamma \\d+/; END { print $n }' big.txt",
     ["perl", "-ne", "$n++ if /gamma \\d+/; END { print $n }", "big.txt"]),
    ("perl -pe 's/(\\w+)/<$1>/g'", "perl -pe 's/(\\w+)/<$1>/g' big.txt > out.txt",
     ["perl", "-pe", "s/(\\w+)/<$1>/g", "big.txt"]),
    ("perl -pe 'tr/a-z/A-Z/'", "perl -pe 'tr/a-z/A-Z/' big.txt > out.txt",
     ["perl", "-pe", "tr/a-z/A-Z/", "big.txt"]),
    ("perl -pe 's/(\\d+)/$1*2/ge'", "perl -pe 's/(\\d+)/$1*2/ge' big.txt > out.txt",
     ["perl", "-pe", "s/(\\d+)/$1*2/ge", "big.txt"]),
]


def make_inputs(root: str, lines: int) -> None:
    r = random.Random(13)
    with open(os.path.join(root, "big.txt"), "w") as f:
        for _ in range(lines):
            f.write(f"{r.choice(WORDS)} {r.randint(0, 999)} {r.random():.3f} "
                    f"{' '.join(r.choice(WORDS) for _ in range(5))}\n")


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def best(fn, repeat: int, child: bool) -> tuple[float, float]:
    """The best wall-clock and the best CPU time of ``repeat`` runs."""
    cpu_now = _children_cpu if child else time.process_time
    walls, cpus = [], []
    for _ in range(repeat):
        t, c = time.perf_counter(), cpu_now()
        fn()
        walls.append(time.perf_counter() - t)
        cpus.append(cpu_now() - c)
    return min(walls), min(cpus)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--lines", type=int, default=200_000)
    args = ap.parse_args()
    pysh = os.path.join(os.path.dirname(sys.executable), "pysh")
    from pysh.commands import default_registry
    from pysh.interpreter import ExecCommand
    from tests.harness import run_cmd

    with tempfile.TemporaryDirectory(prefix="perl-bench-") as root:
        make_inputs(root, args.lines)
        print(f"{args.lines} lines; best of {args.repeat}")
        print(f"{'case':34} {'perl s':>8} {'pysh -c s':>10} {'ratio':>7} "
              f"{'in-proc s':>10} {'ratio':>7} | CPU: {'perl':>6} {'-c':>6} {'ratio':>6} "
              f"{'in-proc':>7} {'ratio':>6}")
        with ExecCommand(root, registry=default_registry()) as ex:
            for label, script, argv in CASES:
                real, real_cpu = best(lambda s=script: subprocess.run(
                    ["sh", "-c", s], cwd=root, env=ENV, check=False, capture_output=True),
                    args.repeat, True)
                whole, whole_cpu = best(lambda s=script: subprocess.run(
                    [pysh, "--sandbox", root, "-c", s], env=ENV, check=False,
                    capture_output=True), args.repeat, True)
                inproc, inproc_cpu = best(lambda a=argv: run_cmd(ex, a), args.repeat, False)
                print(f"{label:34} {real:8.3f} {whole:10.3f} {whole / real:6.1f}x "
                      f"{inproc:10.3f} {inproc / real:6.1f}x | CPU: {real_cpu:6.3f} "
                      f"{whole_cpu:6.3f} {whole_cpu / real_cpu:5.1f}x {inproc_cpu:7.3f} "
                      f"{inproc_cpu / real_cpu:5.1f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
