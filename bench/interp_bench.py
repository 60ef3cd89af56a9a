"""The interpreter side by side with bash (and the PyPI just-bash package), in one run.

    python bench/interp_bench.py [--rounds N]

Each script runs with ``bash -c``, ``pysh -c`` (a whole process: start-up included)
and pysh in-process on a warm sandbox (the API's case); just-bash, when it is
installed in a throwaway venv (``/tmp/jb-venv`` or ``$JUST_BASH_PYTHON``; never a
dependency), runs in-process on a warm ``Bash`` object the same way. Figures are
CPU time (user + system; for processes, of the child), the best of N rounds: on a
machine shared with other work, wall-clock time measures the neighbours too.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

SCRIPTS = [
    ("start-up (true)", "true"),
    ("arith while loop x5000", 'i=0; s=0; while [ "$i" -lt 5000 ]; do s=$((s + i * 2)); i=$((i + 1)); done; echo $s'),
    ("3000 function calls + local", 'f() { local a=$1 b; b=$((a + 1)); r=$b; }; for ((i=0; i<3000; i++)); do f $i; done; echo $r'),
    ("param expansion x3000", 'p=/usr/local/lib/python3/site.py; for ((i=0; i<3000; i++)); do a=${p##*/}; b=${p%/*}; c=${p//o/0}; d=${#p}; done; echo $a $b $c $d'),
    ("seq 200000 | wc -l", "seq 1 200000 | wc -l"),
    ("while read x20000", 'n=0; while read -r l; do n=$((n + l)); done < <(seq 1 20000); echo $n'),
    ("mapfile 100000 lines", 'mapfile -t a < <(seq 1 100000); echo ${#a[@]}'),
]


def best(fn, rounds: int) -> float:
    """Best CPU time of ``fn`` (ours plus our children's)."""
    t = float("inf")
    for _ in range(rounds):
        t0 = _cpu()
        fn()
        t = min(t, _cpu() - t0)
    return t


def _cpu() -> float:
    import resource

    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def run_proc(argv: list[str], expect: bytes | None = None) -> None:
    p = subprocess.run(argv, capture_output=True, check=False)
    if p.returncode != 0:
        raise RuntimeError(f"{argv[:3]} failed: {p.stderr[-300:]!r}")


JB_SCRIPT = r"""
import asyncio, json, sys, time
from just_bash import Bash
scripts, rounds = json.loads(sys.argv[1]), int(sys.argv[2])
async def main():
    out = {}
    for label, src in scripts:
        bash = Bash()
        await bash.exec("true")
        t = float("inf")
        ok = True
        for _ in range(rounds):
            t0 = time.process_time()
            r = await bash.exec(src)
            t = min(t, time.process_time() - t0)
            ok = ok and r.exit_code == 0
        out[label] = t if ok else None
    print(json.dumps(out))
asyncio.run(main())
"""


def just_bash_python() -> str | None:
    for cand in (os.environ.get("JUST_BASH_PYTHON"), "/tmp/jb-venv/bin/python"):
        if cand and os.path.exists(cand):
            if subprocess.run([cand, "-c", "import just_bash"], capture_output=True).returncode == 0:
                return cand
    return None


def pysh_inprocess(rounds: int) -> dict[str, float]:
    import anyio

    from pysh.commands import default_registry
    from pysh.interpreter import ExecCommand
    from pysh.interpreter.toplevel import fresh_budget, make_interp, make_session, run_main
    from pysh.shellkit import BytesInput, CaptureOutput

    out = {}
    with ExecCommand(registry=default_registry()) as ex:
        session = make_session(ex)
        interp = make_interp(session, fds={0: BytesInput(b""), 1: CaptureOutput(), 2: CaptureOutput()})

        async def body(it, src):
            return await it.eval_string(src)

        for label, src in SCRIPTS:
            def once(label=label, src=src):
                interp.fds[1] = CaptureOutput()
                fresh_budget(interp, None)
                status = anyio.run(run_main, interp, lambda it, src=src: body(it, src))
                assert status == 0, (label, status)
            once()
            out[label] = best(once, rounds)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()
    pysh = [sys.executable, "-m", "pysh"]
    jb = just_bash_python()
    jb_times = {}
    if jb:
        p = subprocess.run([jb, "-c", JB_SCRIPT, json.dumps(SCRIPTS), str(a.rounds)],
                           capture_output=True, text=True)
        if p.returncode == 0:
            jb_times = json.loads(p.stdout.strip().splitlines()[-1])
    inproc = pysh_inprocess(a.rounds)
    with tempfile.TemporaryDirectory():
        rows = []
        for label, src in SCRIPTS:
            t_bash = best(lambda src=src: run_proc(["bash", "-c", src]), a.rounds)
            t_pysh = best(lambda src=src: run_proc(pysh + ["-c", src]), a.rounds)
            rows.append((label, t_bash, t_pysh, inproc[label], jb_times.get(label)))
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs; best of {a.rounds}")
    print("CPU ms: bash -c | pysh -c | ratio | pysh warm in-process | just-bash warm | jb/pysh")
    print(f"{'script':32} {'bash':>8} {'pysh':>8} {'x bash':>7} {'warm':>8} "
          f"{'jb warm':>10} {'jb/pysh':>8}")
    for label, tb, tp, ti, tj in rows:
        jbcol = f"{tj * 1000:10.1f} {tj / ti:7.1f}x" if tj else f"{'-':>10} {'-':>8}"
        print(f"{label:32} {tb * 1000:8.1f} {tp * 1000:8.1f} {tp / tb:6.1f}x {ti * 1000:8.1f} {jbcol}")


if __name__ == "__main__":
    main()
