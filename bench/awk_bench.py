"""awk against gawk and mawk (and just-bash when present), measured side by side in one run.

    python bench/awk_bench.py [--lines N] [--rounds R] [--only SUBSTR] [--jb-timeout S] [--no-jb]

Three programs over N generated lines (default 1,000,000): the issue's
``{s+=$1} END {print s}``, a field-heavy one and a regex-heavy one. pysh runs
through ``pysh -c`` (the interpreter, as an agent would call it); gawk and mawk
as host processes; just-bash (the PyPI package, never a dependency: it is
looked for in ``$JUST_BASH_PYTHON`` or /tmp/jb-venv) in its own venv. Each
figure is the best of R rounds of wall time; read the ratios, not the seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")

PROGRAMS = [
    ("sum $1", "{s+=$1} END {print s}"),
    ("fields", '{ n += NF; t += $2 * $4; c[$3]++; if (length($5) > m) m = length($5) } '
               'END { printf "%d %.2f %d %d\\n", n, t, length(c), m }'),
    ("regex", '/ERROR|WARN/ { e++ } $3 ~ /^id[0-9]*7$/ { s++ } '
              '{ if (match($0, /[0-9]+\\.[0-9]+/)) f += substr($0, RSTART, RLENGTH) } '
              'END { printf "%d %d %.2f\\n", e, s, f }'),
]


def make_input(path: str, n: int) -> None:
    rng = random.Random(7)
    levels = ["INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR"]
    words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"]
    with open(path, "w") as f:
        for i in range(n):
            f.write(f"{rng.randint(1, 100000)} {rng.choice(levels)} id{rng.randint(0, 999)} "
                    f"{rng.random() * 100:.3f} {rng.choice(words)}{i % 97} took {rng.random():.4f}s\n")


def best(fn, rounds: int) -> float | None:
    t = None
    for _ in range(rounds):
        t0 = time.perf_counter()
        ok = fn()
        dt = time.perf_counter() - t0
        if ok is False:
            return None
        t = dt if t is None else min(t, dt)
    return t


def run_ok(argv, cwd, expect=None) -> bool:
    p = subprocess.run(argv, cwd=cwd, capture_output=True)
    if p.returncode != 0:
        sys.stderr.write(f"failed: {argv[:3]}... {p.stderr[:300]!r}\n")
        return False
    if expect is not None and p.stdout != expect:
        sys.stderr.write(f"different output: {argv[:3]}: {p.stdout[:200]!r} != {expect[:200]!r}\n")
        return False
    return True


def pysh_argv(d: str, prog: str) -> list[str]:
    return [sys.executable, "-m", "pysh", "--sandbox", d, "-c", f"awk {_q(prog)} data.txt"]


def _q(a: str) -> str:
    return "'" + a.replace("'", "'\\''") + "'"


JB_SCRIPT = r"""
import asyncio, json, sys, time
from just_bash import Bash
d, progs, timeout = sys.argv[1], json.loads(sys.argv[2]), float(sys.argv[3])
with open(d + "/data.txt") as f:
    files = {"/home/user/data.txt": f.read()}
async def main():
    out = {}
    for label, prog in progs:
        bash = Bash(files=files)
        t0 = time.perf_counter()
        try:
            r = await asyncio.wait_for(bash.exec("awk '" + prog.replace("'", "'\\''") + "' data.txt"), timeout)
            out[label] = time.perf_counter() - t0 if r.exit_code == 0 else None
        except asyncio.TimeoutError:
            out[label] = -timeout
    print(json.dumps(out))
asyncio.run(main())
"""


def just_bash_python() -> str | None:
    for cand in (os.environ.get("JUST_BASH_PYTHON"), "/tmp/jb-venv/bin/python"):
        if cand and os.path.exists(cand):
            p = subprocess.run([cand, "-c", "import just_bash"], capture_output=True)
            if p.returncode == 0:
                return cand
    return None


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--lines", type=int, default=1_000_000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--only", default=None)
    ap.add_argument("--jb-timeout", type=float, default=600.0)
    ap.add_argument("--no-jb", action="store_true", help="skip the just-bash column")
    args = ap.parse_args()
    progs = [p for p in PROGRAMS if not args.only or args.only in p[0]]
    d = tempfile.mkdtemp(prefix="awk-bench-")
    try:
        data = os.path.join(d, "data.txt")
        make_input(data, args.lines)
        mawk = shutil.which("mawk")
        jb = None if args.no_jb else just_bash_python()
        jb_times: dict = {}
        if jb:
            try:
                p = subprocess.run([jb, "-c", JB_SCRIPT, d, json.dumps(progs), str(args.jb_timeout)],
                                   capture_output=True, timeout=args.jb_timeout * len(progs) + 120)
                jb_times = json.loads(p.stdout or b"{}")
            except (subprocess.TimeoutExpired, ValueError):
                jb_times = {}
        print(f"{args.lines} lines ({os.path.getsize(data) / 1e6:.1f} MB); best of {args.rounds}; "
              f"pysh via `pysh -c`; just-bash: {'found' if jb else 'not found (column skipped)'}")
        head = f"{'program':10} {'gawk s':>8} {'mawk s':>8} {'pysh s':>8} {'/gawk':>7} {'/mawk':>7}"
        if jb:
            head += f" {'just-bash s':>12} {'pysh/jb':>8}"
        print(head)
        for label, prog in progs:
            ref = subprocess.run(["gawk", prog, "data.txt"], cwd=d, capture_output=True).stdout
            g = best(lambda prog=prog: run_ok(["gawk", prog, "data.txt"], d), args.rounds)
            m = best(lambda prog=prog: run_ok([mawk, prog, "data.txt"], d), args.rounds) if mawk else None
            p = best(lambda prog=prog, ref=ref: run_ok(pysh_argv(d, prog), ROOT, expect=ref), args.rounds)
            row = f"{label:10} {g:8.3f} " + (f"{m:8.3f} " if m else f"{'-':>8} ")
            row += f"{p:8.3f} " if p else f"{'failed':>8} "
            row += f"{p / g:6.1f}x " if p and g else f"{'':>7} "
            row += f"{p / m:6.1f}x" if p and m else f"{'':>7}"
            if jb:
                j = jb_times.get(label)
                if j is None or not p:
                    row += f" {'failed':>12} {'':>8}"
                elif j < 0:
                    row += f" {'>' + format(-j, '.0f'):>12} {'<' + format(p / -j, '.3f') + 'x':>8}"
                else:
                    row += f" {j:12.3f} {p / j:7.3f}x"
            print(row, flush=True)
    finally:
        shutil.rmtree(d, ignore_errors=True)


if __name__ == "__main__":
    main()
