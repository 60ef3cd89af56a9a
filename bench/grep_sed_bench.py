"""grep and sed against GNU grep / GNU sed (and just-bash when present), measured in one run.

    python bench/grep_sed_bench.py [--files N] [--mb M] [--rounds R] [--only SUBSTR]

Inputs are generated at bench time under a temp dir (seeded): a tree of N
source files (default 2,000) and one text file of M megabytes (default 10).
Each command is timed with the GNU tool (bash -c), with pysh through
``pysh -c`` (start-up included) and in-process through the test harness
(start-up excluded), and with the PyPI just-bash package if a Python that has
it is found (``$JUST_BASH_PYTHON`` or /tmp/jb-venv/bin/python; never a
dependency of this repo). Ratios, not absolute times, are the result. Times are
CPU seconds (user + system, of the child processes or of this process), the best
of the rounds: on a loaded machine wall-clock times mostly measure the queue for
a CPU; the wall-clock ratio of ``pysh -c`` is shown too. just-bash runs
in-process (its files loaded into its in-memory file system), so its column is
compared with pysh in-process.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)

from pysh.commands import default_registry  # noqa: E402
from pysh.interpreter import ExecCommand  # noqa: E402
from tests.harness import run_cmd  # noqa: E402

COMMANDS = [
    ("grep -rn TODO src", ["grep", "-rn", "TODO", "src"]),
    ("grep -rn 'def process_[a-z]*'", ["grep", "-rn", "def process_[a-z]*", "src"]),
    ("grep -rni -E 'error|warning'", ["grep", "-rni", "-E", "error|warning", "src"]),
    ("grep -rl --include=*.py import", ["grep", "-rl", "--include=*.py", "import", "src"]),
    ("grep -c foo big.txt", ["grep", "-c", "foo", "big.txt"]),
    ("grep -v -c e big.txt", ["grep", "-v", "-c", "e", "big.txt"]),
    ("sed -n '50000,50100p'", ["sed", "-n", "50000,50100p", "big.txt"]),
    ("sed 's/foo/bar/g'", ["sed", "s/foo/bar/g", "big.txt"]),
    ("sed -n '/quux [0-9]*7$/p'", ["sed", "-n", "/quux [0-9]*7$/p", "big.txt"]),
    ("sed -E 's/(a|e)([a-z]+)/\\2\\1/g'", ["sed", "-E", "s/(a|e)([a-z]+)/\\2\\1/g", "big.txt"]),
]

WORDS = ["foo", "bar", "baz", "quux", "alpha", "beta", "gamma", "delta", "value", "result",
         "error", "warning", "process", "handle", "config", "data", "item", "list", "index"]


def make_inputs(d: str, nfiles: int, mb: int) -> None:
    rng = random.Random(7)
    src = os.path.join(d, "src")
    for i in range(nfiles):
        sub = os.path.join(src, f"pkg{i % 40:02d}", f"mod{i % 7}")
        os.makedirs(sub, exist_ok=True)
        ext = ".py" if i % 3 else ".txt"
        lines = []
        for j in range(rng.randint(60, 140)):
            k = rng.random()
            if k < 0.05:
                lines.append(f"def process_{rng.choice(WORDS)}(x, y):")
            elif k < 0.08:
                lines.append(f"    # TODO: {rng.choice(WORDS)} {rng.choice(WORDS)}")
            elif k < 0.12:
                lines.append(f"import {rng.choice(WORDS)}")
            else:
                lines.append("    " + " ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 9)))
                             + f" = {j}")
        with open(os.path.join(sub, f"file{i}{ext}"), "w") as f:
            f.write("\n".join(lines) + "\n")
    target = mb * 1024 * 1024
    with open(os.path.join(d, "big.txt"), "w") as f:
        size = 0
        n = 0
        while size < target:
            line = " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 12))) + f" {n}\n"
            f.write(line)
            size += len(line)
            n += 1


def _cpu() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    ch = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + ch.ru_utime + ch.ru_stime


def best(fn, rounds: int) -> tuple[float, float]:
    """(best CPU seconds, best wall seconds) of ``rounds`` runs."""
    c = w = float("inf")
    for _ in range(rounds):
        c0, w0 = _cpu(), time.perf_counter()
        fn()
        w = min(w, time.perf_counter() - w0)
        c = min(c, _cpu() - c0)
    return max(c, 1e-4), w


def text(argv: list[str]) -> str:
    return " ".join(shlex.quote(a) for a in argv)


def gnu_time(d: str, argv, rounds: int) -> tuple[float, float]:
    cmd = text(argv) + " > /dev/null"
    env = {"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"}
    return best(lambda: subprocess.run(["bash", "-c", cmd], cwd=d, env=env), rounds)


def pysh_cli_time(d: str, argv, rounds: int) -> tuple[float, float]:
    cmd = text(argv) + " > /dev/null"
    return best(lambda: subprocess.run(
        [sys.executable, "-m", "pysh", "--sandbox", d, "-c", cmd], cwd=ROOT,
        capture_output=True), rounds)


def pysh_inproc_time(ex, argv, rounds: int) -> tuple[float, float]:
    return best(lambda: run_cmd(ex, argv), rounds)


def check_same(d: str, ex, argv) -> bool:
    env = {"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"}
    g = subprocess.run(argv, cwd=d, env=env, capture_output=True)
    r = run_cmd(ex, argv)
    if argv[:2] == ["grep", "-rn"] or argv[:2] == ["grep", "-rni"] or argv[:2] == ["grep", "-rl"]:
        return sorted(g.stdout.splitlines()) == sorted(r.stdout.splitlines())
    return g.stdout == r.stdout


JB_SCRIPT = r"""
import asyncio, json, os, sys, time
from just_bash import Bash
d, cmds, rounds = sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3])
files = {}
for dirpath, _, names in os.walk(d):
    for name in names:
        p = os.path.join(dirpath, name)
        with open(p) as f:
            files["/home/user/" + os.path.relpath(p, d)] = f.read()
async def main():
    out = {}
    bash = Bash(files=files)
    for label, cmd in cmds:
        t = float("inf")
        ok = True
        for _ in range(rounds):
            t0 = time.process_time()
            try:
                r = await asyncio.wait_for(bash.exec(cmd + " > /dev/null"), 600)
                ok = ok and r.exit_code in (0, 1)
            except Exception:
                ok = False
            t = min(t, time.process_time() - t0)
        out[label] = t if ok else None
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
    ap.add_argument("--files", type=int, default=2000)
    ap.add_argument("--mb", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--only", default=None, help="substring of the commands to run")
    ap.add_argument("--no-jb", action="store_true", help="skip just-bash even if present")
    args = ap.parse_args()
    cmds = [c for c in COMMANDS if not args.only or args.only in c[0]]
    d = tempfile.mkdtemp(prefix="grep-sed-bench-")
    try:
        make_inputs(d, args.files, args.mb)
        jb = None if args.no_jb else just_bash_python()
        jb_times: dict = {}
        if jb:
            try:
                p = subprocess.run([jb, "-c", JB_SCRIPT, d,
                                    json.dumps([(lab, text(a)) for lab, a in cmds]), "1"],
                                   capture_output=True, timeout=3600)
                jb_times = json.loads(p.stdout or b"{}")
            except (subprocess.TimeoutExpired, ValueError):
                jb_times = {}
        print(f"{args.files} source files, {args.mb} MB text; just-bash: "
              f"{'found' if jb else 'not found (column skipped)'}")
        head = (f"{'command':36} {'GNU cpu':>7} {'pysh -c':>8} {'ratio':>6} {'in-proc':>8} "
                f"{'ratio':>6} {'wall':>6} {'same':>5}")
        if jb:
            head += f" {'just-bash':>10} {'pysh/jb':>8}"
        print(head)
        boot, _ = best(lambda: subprocess.run(
            [sys.executable, "-m", "pysh", "--sandbox", d, "-c", "true"], cwd=ROOT,
            capture_output=True), args.rounds)
        print(f"(pysh -c true, the start-up alone: {boot:.3f} s CPU)")
        with ExecCommand(d, registry=default_registry()) as ex:
            for label, argv in cmds:
                same = check_same(d, ex, argv)
                g, gw = gnu_time(d, argv, args.rounds)
                c, cw = pysh_cli_time(d, argv, args.rounds)
                p, _ = pysh_inproc_time(ex, argv, args.rounds)
                row = (f"{label:36} {g:7.3f} {c:8.3f} {c / g:5.1f}x {p:8.3f} {p / g:5.1f}x "
                       f"{cw / gw:5.1f}x {'yes' if same else 'NO':>5}")
                if jb:
                    j = jb_times.get(label)
                    row += f" {j:10.3f} {p / j:7.2f}x" if j else f" {'failed':>10} {'':>8}"
                print(row, flush=True)
    finally:
        shutil.rmtree(d, ignore_errors=True)


if __name__ == "__main__":
    main()
