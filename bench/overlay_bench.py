"""An overlay mount against a plain mount of the same tree, measured in one run.

    python bench/overlay_bench.py [--rounds R]

Each workload runs in a sandbox over a plain mount of a copy of the tree and in one
over an overlay of the tree itself (with some of it already copied up, as after an
agent's edits), the rounds interleaved so that the machine's drift hits both alike;
best of R. Then the change set: ``changes()`` over 10,000 written files, and over a
10,000-file lower layer of which 100 files changed. The machine is noisy: read the
ratios, not the absolute times. (The git repository is made with the real git.)
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import pysh  # noqa: E402

ENV = {"GIT_AUTHOR_NAME": "A", "GIT_AUTHOR_EMAIL": "a@e", "GIT_COMMITTER_NAME": "A",
       "GIT_COMMITTER_EMAIL": "a@e"}


def make_tree(root: str, n: int) -> None:
    per = 50
    for i in range(n):
        d = os.path.join(root, f"d{i // per:03d}")
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, f"f{i:05d}.txt"), "w") as f:
            f.write(f"line one of {i}\nneedle {i % 7}\n" + "filler text\n" * 20)


def make_repo(root: str, commits: int) -> None:
    """``commits`` commits of a 50-file project, through git fast-import (quick)."""
    os.makedirs(root)
    subprocess.run(["git", "init", "-q", root], check=True)
    lines = []
    for c in range(commits):
        lines.append("commit refs/heads/master\n"
                     f"committer A <a@e> {1700000000 + c} +0000\ndata 3\nc{c % 10}\n")
        f = c % 50
        body = f"file {f} version {c}\n"
        lines.append(f"M 100644 inline src/f{f:02d}.txt\ndata {len(body)}\n{body}\n")
    subprocess.run(["git", "-C", root, "fast-import", "--quiet"], input="".join(lines).encode(),
                   check=True)
    subprocess.run(["git", "-C", root, "checkout", "-q", "master"], check=True)
    subprocess.run(["git", "-C", root, "gc", "-q"], check=True)


def timed(sb: pysh.Sandbox, script: str) -> tuple[float, float]:
    """(wall, CPU) seconds of one run: on a loaded machine the process's CPU time is the
    steadier figure (the script runs in-process, on the sandbox's thread)."""
    t, c = time.perf_counter(), time.process_time()
    r = sb.run(script)
    took, cpu = time.perf_counter() - t, time.process_time() - c
    if r.exit_code != 0:
        raise SystemExit(f"failed: {script}: {r.stderr}")
    return took, cpu


def compare(name: str, plain_dir: str, lower_dir: str, script: str, rounds: int,
            prepare: str | None = None) -> tuple:
    """Best-of-``rounds`` (wall, CPU) seconds of ``script`` on a plain mount and on an
    overlay."""
    best_p = best_o = (float("inf"), float("inf"))
    with pysh.Sandbox(plain_dir, env=ENV) as p, pysh.Sandbox(lower_dir, env=ENV, overlay=True) as o:
        if prepare:
            timed(p, prepare)
            timed(o, prepare)
        for _ in range(rounds):
            best_p = tuple(map(min, best_p, timed(p, script)))
            best_o = tuple(map(min, best_o, timed(o, script)))
    return name, best_p, best_o


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    rounds = ap.parse_args().rounds
    rows = []
    with tempfile.TemporaryDirectory() as d:
        tree, copy = os.path.join(d, "tree"), os.path.join(d, "copy")
        make_tree(tree, 2000)
        shutil.copytree(tree, copy)
        # an agent has edited a tenth of the files (copied up) and deleted a few
        dirty = "for f in d00*/f*0.txt; do echo edit >> $f; done; rm -f d001/f0005*.txt"
        rows.append(compare("grep -r over 2,000 files", copy, tree,
                            "grep -r needle . | wc -l >/dev/null", rounds, dirty))
        rows.append(compare("find over 2,000 files", copy, tree,
                            "find . -name '*.txt' | wc -l >/dev/null", rounds, dirty))
        rows.append(compare("write 1,000 files", copy, tree,
                            "mkdir -p w; for i in $(seq 1000); do echo $i > w/f$i; done; rm -r w",
                            rounds))
        repo, repo_copy = os.path.join(d, "repo"), os.path.join(d, "repo_copy")
        make_repo(repo, 1000)
        shutil.copytree(repo, repo_copy, symlinks=True)
        rows.append(compare("git status, 1,000 commits", repo_copy, repo,
                            "git status --short >/dev/null", rounds,
                            "echo x >> src/f01.txt; git status >/dev/null"))
        rows.append(compare("git log | wc, 1,000 commits", repo_copy, repo,
                            "git log --oneline | wc -l >/dev/null", rounds))

        print(f"{'workload':28} {'plain ms':>9} {'overlay ms':>11} {'ratio':>6}"
              f" {'plain CPU':>10} {'overlay CPU':>12} {'ratio':>6}")
        for name, p, o in rows:
            print(f"{name:28} {p[0] * 1e3:9.1f} {o[0] * 1e3:11.1f} {o[0] / p[0]:6.2f}"
                  f" {p[1] * 1e3:10.1f} {o[1] * 1e3:12.1f} {o[1] / p[1]:6.2f}")

        big = os.path.join(d, "big")
        make_tree(big, 10000)
        with pysh.Sandbox(big, overlay=True) as sb:
            timed(sb, "for f in d0[0-1]*/f*0.txt; do echo edit >> $f; done")
            n = len(sb.changes())
            wall, cpu = best_of(sb.changes, rounds)
            print(f"changes(), 10,000-file lower, {n} changed: {wall * 1e3:.1f} ms "
                  f"(CPU {cpu * 1e3:.1f} ms)")
        empty = os.path.join(d, "empty")
        os.mkdir(empty)
        with pysh.Sandbox(empty, overlay=True) as sb:
            timed(sb, "for d in $(seq 100); do mkdir d$d; for i in $(seq 100); do "
                      "echo $i > d$d/f$i; done; done")
            n = len(sb.changes())
            wall, cpu = best_of(sb.changes, rounds)
            print(f"changes(), {n} added entries (10,000 files): {wall * 1e3:.1f} ms "
                  f"(CPU {cpu * 1e3:.1f} ms)")


def best_of(fn, rounds: int) -> tuple[float, float]:
    runs = [_time(fn) for _ in range(rounds)]
    return min(w for w, _ in runs), min(c for _, c in runs)


def _time(fn) -> tuple[float, float]:
    t, c = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - t, time.process_time() - c


if __name__ == "__main__":
    main()
