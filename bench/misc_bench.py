"""diff, bc, expr and date: pysh against the GNU tools, measured side by side.

    .venv/bin/python bench/misc_bench.py [--repeat R]

Cases (inputs generated at bench time in a temp dir):

* ``diff -u`` of two 10,000-line files with 100 scattered changes;
* ``diff`` of two 2,000-line files of few distinct lines (Myers' worst case: the
  edit distance is large, so the ``too_expensive`` cut-off works);
* ``bc -l`` computing ``scale=500; 4*a(1)`` and a 2,000-iteration loop;
* ``date -d`` over 2,000 date strings (``date -f``);
* 2,000 ``expr`` regex matches through ``xargs`` (commands run in-process).

Each is timed two ways: the whole ``pysh --sandbox DIR -c '...'`` process
(start-up included) against ``sh -c`` running the GNU tools, and the pysh
command alone, called in-process through the test harness, against the GNU
process. Ratios only: every tool runs on the same machine in the same run.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

ENV = {"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8", "TZ": "UTC"}


def make_inputs(root: str) -> None:
    r = random.Random(5)
    lines = [f"line {i}: some text here {r.randint(0, 1000)}" for i in range(10000)]
    with open(os.path.join(root, "big1"), "w") as f:
        f.write("".join(x + "\n" for x in lines))
    for k in range(100):
        i = r.randrange(len(lines))
        op = r.random()
        if op < 0.33:
            del lines[i]
        elif op < 0.66:
            lines.insert(i, f"inserted {k}")
        else:
            lines[i] = f"changed {k}"
    with open(os.path.join(root, "big2"), "w") as f:
        f.write("".join(x + "\n" for x in lines))
    for name in ("dup1", "dup2"):
        with open(os.path.join(root, name), "w") as f:
            f.write("".join(r.choice(["{", "}", "", "x", "return 0;"]) + "\n" for _ in range(2000)))
    with open(os.path.join(root, "dates"), "w") as f:
        for _ in range(2000):
            f.write(f"2024-{r.randint(1, 12):02d}-{r.randint(1, 28):02d} "
                    f"{r.randint(0, 23):02d}:{r.randint(0, 59):02d} UTC "
                    f"{r.randint(1, 40)} days ago\n")
    with open(os.path.join(root, "words"), "w") as f:
        for _ in range(2000):
            f.write("".join(r.choice("abcxyz") for _ in range(12)) + "\n")
    with open(os.path.join(root, "loop.bc"), "w") as f:
        f.write("s = 0\nfor (i = 0; i < 2000; i++) { s += i * i / 7 }\ns\nquit\n")


CASES = [
    ("diff -u 10k lines, 100 changes", "diff -u big1 big2 > /dev/null",
     ["diff", "-u", "big1", "big2"], b""),
    ("diff 2k lines, few distinct", "diff dup1 dup2 > /dev/null", ["diff", "dup1", "dup2"], b""),
    ("bc -l pi to 500 digits", "echo 'scale=500; 4*a(1)' | bc -l > /dev/null", ["bc", "-l"],
     b"scale=500; 4*a(1)\n"),
    ("bc 2000-iteration loop", "bc loop.bc > /dev/null", ["bc", "loop.bc"], b""),
    ("date -f 2000 dates", "date -f dates +%s > /dev/null", ["date", "-f", "dates", "+%s"], b""),
    ("xargs expr 2000 regex matches", "xargs -I{} expr {} : 'a*\\(x\\|y\\)' < words > /dev/null",
     ["xargs", "-I{}", "expr", "{}", ":", "a*\\(x\\|y\\)"], None),
]


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    pysh = os.path.join(os.path.dirname(sys.executable), "pysh")
    from tests.harness import run_cmd, sandbox

    with tempfile.TemporaryDirectory(prefix="misc-bench-") as root:
        make_inputs(root)
        with open(os.path.join(root, "words"), "rb") as f:
            words = f.read()
        files = {}
        for name in os.listdir(root):
            with open(os.path.join(root, name), "rb") as f:
                files[name] = f.read()
        print(f"{'case':36} {'GNU s':>8} {'pysh -c s':>10} {'ratio':>7} "
              f"{'in-proc s':>10} {'ratio':>7}")
        with sandbox(files) as ex:
            for label, script, argv, stdin in CASES:
                data = words if stdin is None else stdin
                gnu = best(lambda s=script: subprocess.run(
                    ["sh", "-c", s], cwd=root, env=ENV, check=False), args.repeat)
                whole = best(lambda s=script: subprocess.run(
                    [pysh, "--sandbox", root, "-c", s], env=ENV, check=False,
                    capture_output=True), args.repeat)
                inproc = best(lambda a=argv, d=data: run_cmd(ex, a, d), args.repeat)
                print(f"{label:36} {gnu:8.3f} {whole:10.3f} {whole / gnu:6.1f}x "
                      f"{inproc:10.3f} {inproc / gnu:6.1f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
