"""The Python API's per-call cost: pysh.Sandbox next to just-bash's Bash, in the same run.

    python bench/api_bench.py [--n N] [--rounds R] [--tmpdir DIR] [--just-bash-python PY]
                              [--baseline SRC]

Measures, in µs per operation (best of R rounds of N operations):

* a warm ``run("true")`` and ``run("echo hi | wc -c")`` on one long-lived
  session, through the sync call (``Sandbox.run`` / ``Bash.run``) and inside a
  running event loop (``await Sandbox.arun`` / ``await Bash.exec``);
* sandbox creation + close, and creation + one ``run("true")`` + close.

just-bash (the PyPI ``just-bash`` package) is never a dependency: install it
into a throwaway venv (``python3 -m venv /tmp/jb-venv && /tmp/jb-venv/bin/pip
install just-bash``); the script runs its half of the measurements with that
interpreter (``--just-bash-python``, default ``/tmp/jb-venv/bin/python``, or the
current one if it can import ``just_bash``) and skips the column when absent.

``--baseline SRC`` also measures the pysh of another source tree (e.g. an
export of main: ``git archive main | tar -x -C /tmp/main-src``) in a child
process, in the same run, and prints its column and the ratio (what a change
costs, measured side by side on the same machine load).

Creation makes two host directories (the private ``/tmp`` and the ephemeral
workspace) and removes them on close, so its cost depends on the host file
system: ``--tmpdir`` points the sandboxes' temp root elsewhere (e.g. a tmpfs)
to separate pysh's own cost from the disk's.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

SCRIPTS = ("true", "echo hi | wc -c")

# Runs under the just-bash interpreter; prints one JSON object of µs figures.
JUST_BASH_SIDE = r"""
import asyncio, json, sys, time
from just_bash import Bash
n, rounds = int(sys.argv[1]), int(sys.argv[2])
scripts = json.loads(sys.argv[3])

def best(fn, n):
    out = []
    for _ in range(rounds):
        t = time.perf_counter()
        for _ in range(n):
            fn()
        out.append((time.perf_counter() - t) / n * 1e6)
    return min(out)

res = {}
b = Bash()
for s in scripts:
    r = b.run(s)
    assert r.exit_code == 0, (s, r)
    res["sync " + s] = best(lambda: b.run(s), n)

loop = asyncio.new_event_loop()
async def many(s, k):
    for _ in range(k):
        await b.exec(s)
for s in scripts:
    res["async " + s] = best(lambda: loop.run_until_complete(many(s, 100)), max(1, n // 100)) / 100

res["create+close"] = best(lambda: Bash(), n)
res["create+run+close"] = best(lambda: Bash().run("true"), max(1, n // 4))
print(json.dumps(res))
"""


CPU = {}  # key -> best process CPU µs per operation, beside the wall-clock figure


def best(fn, n: int, rounds: int, key: str | None = None) -> float:
    out, cpu = [], []
    for _ in range(rounds):
        t, c = time.perf_counter(), time.process_time()
        for _ in range(n):
            fn()
        out.append((time.perf_counter() - t) / n * 1e6)
        cpu.append((time.process_time() - c) / n * 1e6)
    if key is not None:
        CPU[key] = min(cpu)
    return min(out)


def measure_pysh(n: int, rounds: int) -> dict[str, float]:
    import asyncio

    from pysh import Sandbox

    res: dict[str, float] = {}
    sb = Sandbox()
    for s in SCRIPTS:
        r = sb.run(s)
        assert r.exit_code == 0, (s, r)
        for _ in range(min(n, 200)):
            sb.run(s)
        res["sync " + s] = best(lambda s=s: sb.run(s), n, rounds, key="sync " + s)

    async def many(s: str, k: int) -> None:
        for _ in range(k):
            await sb.arun(s)

    loop = asyncio.new_event_loop()
    try:
        for s in SCRIPTS:
            loop.run_until_complete(many(s, 50))
            res["async " + s] = best(lambda s=s: loop.run_until_complete(many(s, 100)),
                                     max(1, n // 100), rounds, key="async " + s) / 100
            CPU["async " + s] /= 100
    finally:
        loop.close()
    sb.close()

    def create_close():
        Sandbox().close()

    def create_run_close():
        with Sandbox() as s:
            s.run("true")

    create_close()
    res["create+close"] = best(create_close, max(1, n // 4), rounds)
    res["create+run+close"] = best(create_run_close, max(1, n // 8), rounds)
    # the process's CPU time per call (all threads): what the work costs, without the
    # time spent waiting for a CPU on a loaded machine (a thread hand-off pays that twice)
    res.update({f"{k} (cpu)": v for k, v in CPU.items()})
    return res


def measure_baseline(src: str, n: int, rounds: int) -> dict[str, float] | None:
    """The same measurements with the pysh found in ``src`` (a child process)."""
    env = dict(os.environ, PYTHONPATH=os.path.abspath(src))
    p = subprocess.run([sys.executable, os.path.abspath(__file__), "--n", str(n), "--rounds",
                        str(rounds), "--pysh-only"], capture_output=True, text=True, env=env,
                       cwd=os.path.abspath(src), timeout=1800)
    if p.returncode != 0:
        sys.stderr.write(f"baseline side failed:\n{p.stderr[-2000:]}\n")
        return None
    return json.loads(p.stdout.strip().splitlines()[-1])


def find_just_bash(explicit: str | None) -> str | None:
    candidates = [explicit] if explicit else ["/tmp/jb-venv/bin/python", sys.executable]
    for py in candidates:
        if not py or not os.path.exists(py):
            continue
        ok = subprocess.run([py, "-c", "import just_bash"], capture_output=True)
        if ok.returncode == 0:
            return py
    return None


def measure_just_bash(py: str, n: int, rounds: int) -> dict[str, float] | None:
    p = subprocess.run([py, "-c", JUST_BASH_SIDE, str(n), str(rounds), json.dumps(SCRIPTS)],
                       capture_output=True, text=True, timeout=1800)
    if p.returncode != 0:
        sys.stderr.write(f"just-bash side failed:\n{p.stderr[-2000:]}\n")
        return None
    return json.loads(p.stdout.strip().splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=2000, help="operations per round (default 2000)")
    ap.add_argument("--rounds", type=int, default=5, help="rounds; the best is kept (default 5)")
    ap.add_argument("--tmpdir", help="temp root of the sandboxes (default: the system's)")
    ap.add_argument("--just-bash-python", help="a Python that can import just_bash")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--baseline", metavar="SRC", help="also measure the pysh of this source tree")
    ap.add_argument("--pysh-only", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.tmpdir:
        tempfile.tempdir = a.tmpdir
    if a.pysh_only:
        print(json.dumps(measure_pysh(a.n, a.rounds)))
        return 0
    if a.baseline:
        # rounds interleaved with the baseline's, so that the machine's load hits both alike
        base, ours = {}, {}
        for _ in range(a.rounds):
            for acc, got in ((base, measure_baseline(a.baseline, a.n, 1)),
                             (ours, measure_pysh(a.n, 1))):
                for k, v in (got or {}).items():
                    acc[k] = min(acc.get(k, v), v)
    else:
        base, ours = None, measure_pysh(a.n, a.rounds)
    jb_py = find_just_bash(a.just_bash_python)
    theirs = measure_just_bash(jb_py, a.n, a.rounds) if jb_py else None
    if a.json:
        print(json.dumps({"pysh": ours, "baseline": base, "just_bash": theirs,
                          "tmpdir": tempfile.gettempdir()}))
        return 0
    print(f"pysh Sandbox vs just-bash Bash, µs per operation (best of {a.rounds} rounds; "
          f"sandbox temp root {tempfile.gettempdir()})")
    head = f"{'operation':<28}{'pysh µs':>12}"
    if base:
        head += f"{'baseline µs':>14}{'pysh/baseline':>15}"
    if theirs:
        head += f"{'just-bash µs':>15}{'pysh/just-bash':>16}"
    print(head)
    for key, value in ours.items():
        line = f"{key:<28}{value:>12.1f}"
        if base and key in base:
            line += f"{base[key]:>14.1f}{value / base[key]:>15.3f}"
        if theirs and key in theirs:
            line += f"{theirs[key]:>15.1f}{value / theirs[key]:>16.3f}"
        print(line)
    if not theirs:
        print("(just-bash not found: install it into /tmp/jb-venv to get its column)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
