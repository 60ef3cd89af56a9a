"""Text utilities against GNU coreutils (and just-bash when present), measured in one run.

    python bench/text_bench.py [--lines N] [--rounds R]

Inputs are generated at bench time (seeded). Each pipeline is timed with the
GNU tools (bash), with pysh, and with the PyPI just-bash package if a Python
that has it is found (``$JUST_BASH_PYTHON`` or /tmp/jb-venv/bin/python; never a
dependency of this repo). pysh runs through ``pysh -c`` when the interpreter
can run pipelines; until then each stage runs in-process through the test
harness, the output of one stage fed to the next. Ratios, not absolute times,
are the result: the machine is noisy.
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
sys.path.insert(0, ROOT)

from pysh.commands import default_registry  # noqa: E402
from pysh.interpreter import ExecCommand  # noqa: E402
from tests.harness import run_cmd  # noqa: E402

PIPELINES = [
    ("sort | uniq -c | sort -rn", [["sort", "words.txt"], ["uniq", "-c"], ["sort", "-rn"]]),
    ("sort -u", [["sort", "-u", "words.txt"]]),
    ("sort -k2,2n -t,", [["sort", "-t,", "-k2,2n", "table.csv"]]),
    ("wc", [["wc", "words.txt"]]),
    ("wc -l", [["wc", "-l", "words.txt"]]),
    ("cut -d, -f1,3", [["cut", "-d,", "-f1,3", "table.csv"]]),
    ("tr a-z A-Z", [["cat", "words.txt"], ["tr", "a-z", "A-Z"]]),
    ("head -n 1000", [["head", "-n", "1000", "words.txt"]]),
    ("tail -n 1000", [["tail", "-n", "1000", "words.txt"]]),
    ("tac", [["tac", "words.txt"]]),
    ("cat -n", [["cat", "-n", "words.txt"]]),
    ("md5sum", [["md5sum", "words.txt"]]),
    ("base64", [["base64", "words.txt"]]),
]


def shell_text(stages: list[list[str]]) -> str:
    return " | ".join(" ".join(_q(a) for a in st) for st in stages)


def _q(a: str) -> str:
    if all(c.isalnum() or c in "-_.,/:=" for c in a):
        return a
    return "'" + a.replace("'", "'\\''") + "'"


def make_inputs(d: str, n: int) -> None:
    rng = random.Random(42)
    vocab = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(3, 10)))
             for _ in range(5000)]
    weights = [1.0 / (i + 1) for i in range(len(vocab))]
    words = rng.choices(vocab, weights, k=n)
    with open(os.path.join(d, "words.txt"), "w") as f:
        f.write("\n".join(words) + "\n")
    with open(os.path.join(d, "table.csv"), "w") as f:
        for i in range(n):
            f.write(f"{words[i]},{rng.randint(0, 100000)},{rng.choice(vocab)}\n")


def best(fn, rounds: int) -> float:
    t = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        fn()
        t = min(t, time.perf_counter() - t0)
    return t


def gnu_time(d: str, stages, rounds: int) -> float:
    cmd = shell_text(stages) + " > /dev/null"
    env = {"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"}
    return best(lambda: subprocess.run(["bash", "-c", cmd], cwd=d, env=env, check=True), rounds)


def pysh_cli_works() -> bool:
    try:
        p = subprocess.run([sys.executable, "-m", "pysh", "-c", "printf 'b\\na\\n' | sort"],
                           capture_output=True, timeout=30, cwd=ROOT)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return p.returncode == 0 and p.stdout == b"a\nb\n"


def pysh_cli_time(d: str, stages, rounds: int) -> float:
    cmd = shell_text(stages) + " > /dev/null"
    return best(lambda: subprocess.run(
        [sys.executable, "-m", "pysh", "--sandbox", d, "-c", cmd], check=True, cwd=ROOT,
        capture_output=True), rounds)


def pysh_inproc_time(ex, stages, rounds: int) -> float:
    def run():
        data = b""
        for st in stages:
            r = run_cmd(ex, st, stdin=data)
            assert r.status == 0, (st, r.err)
            data = r.stdout
    return best(run, rounds)


JB_SCRIPT = r"""
import asyncio, json, sys, time
from just_bash import Bash
d, cmds, rounds = sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3])
files = {}
for name in ("words.txt", "table.csv"):
    with open(d + "/" + name) as f:
        files["/home/user/" + name] = f.read()
async def main():
    out = {}
    for label, cmd in cmds:
        bash = Bash(files=files)
        t = float("inf")
        for _ in range(rounds):
            t0 = time.perf_counter()
            r = await bash.exec(cmd + " > /dev/null")
            t = min(t, time.perf_counter() - t0)
        out[label] = t if r.exit_code == 0 else None
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
    ap.add_argument("--lines", type=int, default=200_000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--only", default=None, help="substring of the pipelines to run")
    args = ap.parse_args()
    pipes = [p for p in PIPELINES if not args.only or args.only in p[0]]
    d = tempfile.mkdtemp(prefix="text-bench-")
    try:
        make_inputs(d, args.lines)
        jb = just_bash_python()
        jb_times: dict = {}
        if jb:
            try:
                p = subprocess.run(
                    [jb, "-c", JB_SCRIPT, d, json.dumps([(lab, shell_text(st)) for lab, st in pipes]),
                     "1"], capture_output=True, timeout=1800)
                jb_times = json.loads(p.stdout or b"{}")
            except (subprocess.TimeoutExpired, ValueError):
                jb_times = {}
        cli = pysh_cli_works()
        mode = "pysh -c" if cli else "in-process (harness)"
        print(f"{args.lines} lines; pysh measured {mode}; just-bash: "
              f"{'found' if jb else 'not found (column skipped)'}")
        head = f"{'pipeline':28} {'GNU s':>8} {'pysh s':>8} {'pysh/GNU':>9}"
        if jb:
            head += f" {'just-bash s':>12} {'pysh/jb':>8}"
        print(head)
        with ExecCommand(d, registry=default_registry()) as ex:
            for label, stages in pipes:
                g = gnu_time(d, stages, args.rounds)
                p = pysh_cli_time(d, stages, args.rounds) if cli else pysh_inproc_time(
                    ex, stages, args.rounds)
                row = f"{label:28} {g:8.3f} {p:8.3f} {p / g:8.1f}x"
                if jb:
                    j = jb_times.get(label)
                    row += f" {j:12.3f} {p / j:7.2f}x" if j else f" {'failed':>12} {'':>8}"
                print(row, flush=True)
    finally:
        shutil.rmtree(d, ignore_errors=True)


if __name__ == "__main__":
    main()
