"""The interpreter side by side with bash (and the PyPI just-bash and bashkit packages), in one run.

    python bench/interp_bench.py [--rounds N]

Each script runs with ``bash -c``, ``pysh -c`` (a whole process: start-up included)
and pysh in-process on a warm sandbox (the API's case); just-bash and bashkit (an
in-process bash with a Rust core), when installed in throwaway venvs (``/tmp/jb-venv``
or ``$JUST_BASH_PYTHON``; ``/tmp/bk-venv`` or ``$BASHKIT_PYTHON``: ``python3 -m venv
/tmp/bk-venv && /tmp/bk-venv/bin/pip install bashkit``; never dependencies), run
in-process on a warm ``Bash`` object the same way. Figures are CPU time (user +
system; for processes, of the child), the best of N rounds: on a machine shared with
other work, wall-clock time measures the neighbours too. Every output is compared
with bash's: a figure for a wrong output is marked ``!``.
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


def run_proc(argv: list[str]) -> bytes:
    p = subprocess.run(argv, capture_output=True, check=False)
    if p.returncode != 0:
        raise RuntimeError(f"{argv[:3]} failed: {p.stderr[-300:]!r}")
    return p.stdout


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
        out[label] = (t, r.stdout) if ok else None
    print(json.dumps(out))
asyncio.run(main())
"""

BK_SCRIPT = r"""
import json, sys, time
from bashkit import Bash
scripts, rounds = json.loads(sys.argv[1]), int(sys.argv[2])
out = {}
for label, src in scripts:
    t = float("inf")
    ok = True
    for _ in range(rounds):
        # a fresh session each round: one session stops at 100,000 commands in all,
        # and one run at 10,000 commands or loop rounds unless told otherwise
        bash = Bash(max_commands=10**9, max_loop_iterations=10**9)
        bash.execute_sync("true")
        t0 = time.process_time()
        r = bash.execute_sync(src)
        t = min(t, time.process_time() - t0)
        ok = ok and r.exit_code == 0
    out[label] = (t, r.stdout) if ok else None
print(json.dumps(out))
"""


def peer_python(env: str, default: str, module: str) -> str | None:
    """A Python that can import ``module`` (a peer installed in a throwaway venv)."""
    for cand in (os.environ.get(env), default):
        if cand and os.path.exists(cand):
            if subprocess.run([cand, "-c", f"import {module}"], capture_output=True).returncode == 0:
                return cand
    return None


def peer_times(py: str | None, script: str, rounds: int) -> dict:
    """label -> (CPU seconds, stdout) of a peer's warm in-process runs (None: it failed)."""
    if not py:
        return {}
    p = subprocess.run([py, "-c", script, json.dumps(SCRIPTS), str(rounds)],
                       capture_output=True, text=True)
    if p.returncode != 0:
        sys.stderr.write(f"{py}: {p.stderr[-500:]}\n")
        return {}
    return json.loads(p.stdout.strip().splitlines()[-1])


def pysh_inprocess(rounds: int) -> dict[str, tuple[float, bytes]]:
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
            out[label] = (best(once, rounds), interp.fds[1].getvalue())
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()
    # as the installed `pysh` command starts (`python -m pysh` would also load runpy and
    # put the working directory on sys.path)
    pysh = [sys.executable, "-c", "import sys; from pysh.cli import main; sys.exit(main())"]
    jb_times = peer_times(peer_python("JUST_BASH_PYTHON", "/tmp/jb-venv/bin/python", "just_bash"),
                          JB_SCRIPT, a.rounds)
    bk_times = peer_times(peer_python("BASHKIT_PYTHON", "/tmp/bk-venv/bin/python", "bashkit"),
                          BK_SCRIPT, a.rounds)
    inproc = pysh_inprocess(a.rounds)
    with tempfile.TemporaryDirectory():
        rows = []
        for label, src in SCRIPTS:
            want = run_proc(["bash", "-c", src])
            t_bash = best(lambda src=src: run_proc(["bash", "-c", src]), a.rounds)
            out = {}
            t_pysh = best(lambda src=src, out=out: out.update(got=run_proc(pysh + ["-c", src])),
                          a.rounds)
            rows.append((label, want, t_bash, (t_pysh, out["got"]), inproc[label],
                         jb_times.get(label), bk_times.get(label)))
        t_python = best(lambda: run_proc([sys.executable, "-c", "pass"]), a.rounds)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs; best of {a.rounds}")
    print(f"python3 -c pass: {t_python * 1000:.1f} ms of CPU; pysh -c true: "
          f"{(rows[0][3][0] - t_python) * 1000:.1f} ms above it")
    print("CPU ms: bash -c | pysh -c | ratio | pysh warm in-process | just-bash warm | "
          "bashkit warm (! = output differs from bash's)")
    print(f"{'script':32} {'bash':>8} {'pysh':>9} {'x bash':>7} {'warm':>9} "
          f"{'jb warm':>10} {'jb/pysh':>8} {'bk warm':>10} {'bk/pysh':>8}")

    def cell(got, want, ref=None) -> str:
        if not got:
            return f"{'-':>10}" + (f" {'-':>8}" if ref else "")
        t, o = got
        o = o.encode() if isinstance(o, str) else o
        text = f"{t * 1000:9.1f}{'!' if o != want else ' '}"
        return text + (f" {t / ref:7.2f}x" if ref else "")

    for label, want, tb, tp, ti, tj, tk in rows:
        print(f"{label:32} {tb * 1000:8.1f} {cell(tp, want)} {tp[0] / tb:6.1f}x {cell(ti, want)}"
              f"{cell(tj, want, ti[0])} {cell(tk, want, ti[0])}")


if __name__ == "__main__":
    main()
