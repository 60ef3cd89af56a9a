#!/usr/bin/env python3
"""Parser throughput: lines/s on a real-world corpus, against `bash -n` in the same run.

    python bench/parse_bench.py [--min-lines 20000] [--repeat 5] [--json out.json]

The corpus is built at bench time (into bench/_work/, not committed) by
concatenating real shell scripts: the copy committed under
tests/syntax/corpus/ plus `#!/bin/sh` / `#!/bin/bash` scripts found on this
machine (/usr/share, /usr/lib, /etc, /usr/bin, /usr/sbin) that both `bash -n`
and pysh accept.  Also reports what importing the parser adds to start-up
(`python -X importtime`).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

from pysh.interpreter.syntax import ParseError, parse  # noqa: E402

WORK = os.path.join(HERE, "_work")
COMMITTED = os.path.join(ROOT, "tests", "syntax", "corpus")
HOST_DIRS = ["/usr/share", "/usr/lib", "/etc", "/usr/bin", "/usr/sbin"]
SHEBANG = re.compile(rb"^#! ?(/bin/(ba)?sh|/usr/bin/env (ba)?sh)\b")


def _candidates():
    for root, _dirs, files in os.walk(COMMITTED):
        for fn in sorted(files):
            if not fn.endswith(".md"):
                yield os.path.join(root, fn)
    for top in HOST_DIRS:
        for root, dirs, files in os.walk(top):
            dirs.sort()
            if "/proc" in root or "site-packages" in root or "node_modules" in root:
                continue
            for fn in sorted(files):
                path = os.path.join(root, fn)
                try:
                    if os.path.islink(path) or os.path.getsize(path) > 400_000:
                        continue
                    with open(path, "rb") as f:
                        head = f.read(64)
                except OSError:
                    continue
                if SHEBANG.match(head):
                    yield path


def _bash_ok(path) -> bool:
    try:
        p = subprocess.run(["bash", "-n", path], capture_output=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return p.returncode == 0 and not p.stderr


def build_corpus(min_lines: int) -> tuple[str, int, int]:
    os.makedirs(WORK, exist_ok=True)
    seen = set()
    chunks = []
    lines = 0
    used = 0
    for path in _candidates():
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError:
            continue
        if data in seen or b"\0" in data:
            continue
        seen.add(data)
        text = data.decode("utf-8", "surrogateescape")
        if not _bash_ok(path):
            continue
        try:
            parse(text)
        except ParseError:
            continue
        if not text.endswith("\n"):
            text += "\n"
        chunks.append(text)
        lines += text.count("\n")
        used += 1
        if lines >= min_lines * 1.05:
            break
    corpus = "".join(chunks)
    path = os.path.join(WORK, "corpus.sh")
    with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(corpus)
    return path, lines, used


def best_of(fn, repeat, clock=time.perf_counter):
    best = float("inf")
    for _ in range(repeat):
        t0 = clock()
        fn()
        best = min(best, clock() - t0)
    return best


def import_cost(runs: int = 7) -> dict:
    """What importing the parser adds to start-up, in ms (best of `runs`).

    Measured as the cumulative ``-X importtime`` of ``pysh.interpreter.syntax``
    after ``pysh.interpreter`` (its parent package, the rest of pysh) is
    already imported: only what the parser itself brings in is counted.
    """
    code = "import pysh.interpreter; import pysh.interpreter.syntax"
    best = {}
    for flag in ("pyc", "nobytecode"):
        env = dict(os.environ)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        if flag == "nobytecode":
            env["PYTHONDONTWRITEBYTECODE"] = "1"
        vals = []
        for _ in range(runs):
            p = subprocess.run([sys.executable, "-X", "importtime", "-c", code],
                               capture_output=True, text=True, env=env, cwd=ROOT)
            for ln in p.stderr.splitlines():
                parts = ln.split("|")
                if len(parts) == 3 and parts[2].strip() == "pysh.interpreter.syntax":
                    vals.append(int(parts[1]) / 1000.0)
        best[flag] = min(vals) if vals else None
    return best


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--min-lines", type=int, default=20000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--json")
    args = ap.parse_args(argv)

    path, lines, used = build_corpus(args.min_lines)
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        text = f.read()
    print(f"corpus: {path}: {lines} lines from {used} scripts, {len(text)} chars")
    if lines < args.min_lines:
        print(f"warning: fewer than {args.min_lines} lines available on this machine")

    t_pysh = best_of(lambda: parse(text), args.repeat)
    t_pysh_cpu = best_of(lambda: parse(text), args.repeat, time.process_time)

    def run_bash():
        subprocess.run(["bash", "-n", path], check=True, capture_output=True)

    t_bash = best_of(run_bash, args.repeat)
    imp = import_cost()
    res = {
        "lines": lines,
        "scripts": used,
        "pysh_seconds": round(t_pysh, 4),
        "pysh_lines_per_s": round(lines / t_pysh),
        "pysh_cpu_seconds": round(t_pysh_cpu, 4),
        "pysh_lines_per_cpu_s": round(lines / t_pysh_cpu),
        "load_average": os.getloadavg()[0],
        "bash_n_seconds": round(t_bash, 4),
        "bash_n_lines_per_s": round(lines / t_bash),
        "pysh_over_bash_time": round(t_pysh / t_bash, 2),
        "import_ms": imp,
    }
    print(f"pysh parse : {t_pysh * 1000:8.1f} ms  {res['pysh_lines_per_s']:>9,} lines/s")
    print(f"  (CPU time: {t_pysh_cpu * 1000:8.1f} ms  {res['pysh_lines_per_cpu_s']:>9,} lines/s;"
          f" load average {res['load_average']:.1f} on {os.cpu_count()} CPUs)")
    print(f"bash -n    : {t_bash * 1000:8.1f} ms  {res['bash_n_lines_per_s']:>9,} lines/s")
    print(f"pysh takes {res['pysh_over_bash_time']}x the time of bash -n")
    print(f"import pysh.interpreter.syntax adds {imp['pyc']} ms (with .pyc files), "
          f"{imp['nobytecode']} ms (PYTHONDONTWRITEBYTECODE=1: compiled every time)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(res, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
