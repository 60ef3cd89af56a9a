"""Pattern matching and loops in the interpreter, against another checkout in the same run.

    python bench/match_bench.py [--rounds N] [--against /path/to/other/checkout]

Rows: the loop and parameter-expansion rows of interp_bench.py, a glob over 10,000
names, ``case`` over 10,000 words. Each row is the best CPU time of N rounds, pysh warm
in-process. With ``--against``, the other checkout (say, main before a change) runs the
same rows in a child process, rounds interleaved with ours so both see the same load,
and the last column is the ratio ours / theirs.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SETUP = "mkdir -p g && cd g && for ((i=0; i<10000; i++)); do : > f$i.txt; done; cd .."
WORDS = "w=(); for ((i=0; i<10000; i++)); do w+=(word$i.txt); done"

SCRIPTS = [
    ("arith while loop x5000",
     'i=0; s=0; while [ "$i" -lt 5000 ]; do s=$((s + i * 2)); i=$((i + 1)); done; echo $s'),
    ("3000 function calls + local",
     'f() { local a=$1 b; b=$((a + 1)); r=$b; }; for ((i=0; i<3000; i++)); do f $i; done; echo $r'),
    ("param expansion x3000",
     'p=/usr/local/lib/python3/site.py; for ((i=0; i<3000; i++)); do a=${p##*/}; b=${p%/*}; '
     'c=${p//o/0}; d=${#p}; done; echo $a $b $c $d'),
    ("glob over 10,000 names", "a=(g/*1?.txt); b=(g/f*9*); echo ${#a[@]} ${#b[@]}"),
    ("case over 10,000 words",
     'n=0; for x in "${w[@]}"; do case $x in *.md|README*) ;; word*7.txt) n=$((n+1));; '
     '*) ;; esac; done; echo $n'),
    ("extglob case over 10,000 words",
     'shopt -s extglob; n=0; for x in "${w[@]}"; do case $x in @(foo|bar)*) ;; '
     'word+([0-9])7.txt) n=$((n+1));; esac; done; echo $n'),
]

CHILD = r"""
import json, sys, time
sys.path.insert(0, ROOT_DIR)
import anyio
from pysh.commands import default_registry
from pysh.interpreter import ExecCommand
from pysh.interpreter.toplevel import fresh_budget, make_interp, make_session, run_main
from pysh.shellkit import BytesInput, CaptureOutput

setup, scripts = json.loads(sys.argv[1])
with ExecCommand(registry=default_registry()) as ex:
    interp = make_interp(make_session(ex), fds={0: BytesInput(b""), 1: CaptureOutput(),
                                                2: CaptureOutput()})

    def run(src):
        interp.fds[1] = CaptureOutput()
        fresh_budget(interp, None)
        status = anyio.run(run_main, interp, lambda it: it.eval_string(src))
        assert status == 0, (src, status, interp.fds[1].getvalue())
        return interp.fds[1].getvalue()

    for s in setup:
        run(s)
    print("ready", flush=True)
    for line in sys.stdin:  # one row index per line: run it once, print the CPU time
        label, src = scripts[int(line)]
        t = time.process_time()
        out = run(src)
        print(json.dumps([time.process_time() - t, out.decode()[-200:]]), flush=True)
"""


class Runner:
    def __init__(self, root: str):
        self.p = subprocess.Popen(
            [sys.executable, "-c", CHILD.replace("ROOT_DIR", repr(root)),
             json.dumps([[SETUP, WORDS], SCRIPTS])],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=root)
        assert self.p.stdout.readline().strip() == "ready"

    def once(self, i: int) -> tuple[float, str]:
        self.p.stdin.write(f"{i}\n")
        self.p.stdin.flush()
        return tuple(json.loads(self.p.stdout.readline()))

    def close(self):
        self.p.stdin.close()
        self.p.wait()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--against", help="another pysh checkout to compare with")
    a = ap.parse_args()
    ours = Runner(ROOT)
    theirs = Runner(os.path.abspath(a.against)) if a.against else None
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs; best of {a.rounds}")
    print(f"{'script':34} {'ours ms':>9}" + (f" {'theirs ms':>10} {'ratio':>7}" if theirs else ""))
    for i, (label, _src) in enumerate(SCRIPTS):
        best_o = best_t = float("inf")
        for _ in range(a.rounds):
            t, out_o = ours.once(i)
            best_o = min(best_o, t)
            if theirs:
                t, out_t = theirs.once(i)
                best_t = min(best_t, t)
                if out_t != out_o:
                    print(f"  output differs: {out_o!r} vs {out_t!r}")
        line = f"{label:34} {best_o * 1000:9.1f}"
        if theirs:
            line += f" {best_t * 1000:10.1f} {best_o / best_t:6.2f}x"
        print(line)
    ours.close()
    if theirs:
        theirs.close()


if __name__ == "__main__":
    main()
