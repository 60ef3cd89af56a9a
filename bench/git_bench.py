"""git: pysh's port (dulwich) against the real git, measured side by side in one run.

    python bench/git_bench.py [--rounds R] [--scale S] [--cli] [--only SUBSTR] [--profile DIR]

Three repositories are generated with the real git (fast-import) in a temp dir:

* history: 10,000 commits over 200 files: ``log --oneline``, ``rev-list --count``
* wide: a 20,000-file work tree (200 directories of 100): ``status`` clean, then with
  100 modified files, 100 untracked files and an untracked directory
* blame: a 2,000-line file with 500 commits of history: ``blame``

(``--scale`` divides the sizes, for a quick look.) Each row is timed for the real git as
a host process and for pysh in-process (the registered command called on a warm
instance, which leaves out pysh's start-up; ``--cli`` adds ``pysh -c`` as an agent calls
it). Best of R rounds, wall and CPU (the real git's from the children's rusage, pysh's
from the process's CPU clock); the ratio columns are pysh over git. pysh's output is
checked byte for byte against git's before timing. ``--profile DIR`` writes a cProfile
of one in-process run of each row to DIR/<row>.prof.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import subprocess
import sys
import tempfile
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)

ENV = {"GIT_AUTHOR_NAME": "B", "GIT_AUTHOR_EMAIL": "b@example.com", "GIT_COMMITTER_NAME": "B",
       "GIT_COMMITTER_EMAIL": "b@example.com", "PATH": "/usr/bin:/bin", "GIT_CONFIG_NOSYSTEM": "1",
       "TZ": "UTC", "LC_ALL": "C"}


def git(path: str, *args: str, stdin: bytes | None = None) -> None:
    subprocess.run(["git", *args], cwd=path, input=stdin, check=True, env=dict(ENV, HOME=path),
                   stdout=subprocess.DEVNULL)


def fast_import(path: str, stream: list[str | bytes]) -> None:
    git(path, "init", "-q", "-b", "main", ".")
    data = b"".join(s.encode() if isinstance(s, str) else s for s in stream)
    git(path, "fast-import", "--quiet", stdin=data)


def commit_header(n: int, msg: str) -> str:
    t = 1700000000 + n * 60
    return (f"commit refs/heads/main\nmark :{n + 1}\nauthor B <b@example.com> {t} +0000\n"
            f"committer B <b@example.com> {t} +0000\ndata {len(msg)}\n{msg}"
            + (f"from :{n}\n" if n else ""))


def blob(p: str, data: bytes) -> bytes:
    return f"M 100644 inline {p}\ndata {len(data)}\n".encode() + data + b"\n"


def make_history(path: str, commits: int, files: int = 200) -> None:
    """``commits`` commits, each changing one of ``files`` small files."""
    contents = {f"src/f{i:04d}.txt": f"file {i}\n" for i in range(files)}
    stream: list[str | bytes] = []
    for c in range(commits):
        p = f"src/f{c % files:04d}.txt"
        contents[p] += f"change {c}\n"
        stream.append(commit_header(c, f"commit number {c}\n"))
        for q in (contents if c == 0 else [p]):
            stream.append(blob(q, contents[q].encode()))
    fast_import(path, stream)
    git(path, "checkout", "-q", "-f", "main")


def make_wide(path: str, files: int) -> None:
    """One commit of ``files`` files in directories of 100, checked out, index refreshed."""
    stream: list[str | bytes] = [commit_header(0, "many files\n")]
    for i in range(files):
        stream.append(blob(f"d{i // 100:03d}/f{i % 100:02d}.txt", f"content of file {i}\n".encode()))
    stream.append(blob(".gitignore", b"*.o\nbuild/\n"))
    fast_import(path, stream)
    git(path, "checkout", "-q", "-f", "main")
    time.sleep(1.1)  # past the racy-git second: the refresh below records clean stat data
    git(path, "status", "--porcelain")  # git refreshes (and rewrites) its index here


def dirty_wide(path: str, files: int) -> None:
    """Some modified files, some untracked ones (and an ignored one, an untracked dir)."""
    n = max(1, files // 200)
    for i in range(0, files, files // n):
        with open(os.path.join(path, f"d{i // 100:03d}/f{i % 100:02d}.txt"), "a") as f:
            f.write("local edit\n")
    for i in range(n):
        with open(os.path.join(path, f"d{(i * 7) % max(1, files // 100):03d}/new{i}.txt"), "w") as f:
            f.write("u\n")
        with open(os.path.join(path, f"d{i % max(1, files // 100):03d}/x{i}.o"), "w") as f:
            f.write("o\n")
    os.makedirs(os.path.join(path, "newdir/sub"))
    with open(os.path.join(path, "newdir/sub/a.txt"), "w") as f:
        f.write("a\n")


def make_blame(path: str, commits: int, lines: int) -> None:
    """A ``lines``-line file changed by ``commits`` commits (a few lines each)."""
    rnd = random.Random(19)
    text = [f"line {i} of the original file\n" for i in range(lines)]
    stream: list[str | bytes] = []
    for c in range(commits):
        if c:
            for _ in range(4):
                i = rnd.randrange(len(text))
                kind = rnd.random()
                if kind < 0.6:
                    text[i] = f"line changed in commit {c}\n"
                elif kind < 0.8 or len(text) <= lines:
                    text.insert(i, f"line inserted in commit {c}\n")
                else:
                    del text[i]
        stream.append(commit_header(c, f"blame commit {c}\n"))
        stream.append(blob("file.txt", "".join(text).encode()))
        if c % 50 == 0:
            stream.append(blob(f"other/o{c}.txt", f"{c}\n".encode()))
    fast_import(path, stream)
    git(path, "checkout", "-q", "-f", "main")


def cpu_children() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def best(fn, rounds: int, cpu_clock) -> tuple[float, float]:
    """(best wall, best CPU) over ``rounds`` calls of ``fn``."""
    walls, cpus = [], []
    for _ in range(rounds):
        c, t = cpu_clock(), time.perf_counter()
        fn()
        walls.append(time.perf_counter() - t)
        cpus.append(cpu_clock() - c)
    return min(walls), min(cpus)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--scale", type=int, default=1, help="divide the repository sizes by this")
    ap.add_argument("--cli", action="store_true", help="also time `pysh -c` (start-up included)")
    ap.add_argument("--only", default="", help="rows whose label contains this")
    ap.add_argument("--profile", default="", help="write a cProfile of each row to this dir")
    ap.add_argument("--keep", default="", help="build the repositories in this dir (kept, and "
                    "reused by the next run with the same sizes); default: a temp dir")
    a = ap.parse_args()
    from pysh.commands import default_registry
    from pysh.interpreter import ExecCommand
    from tests.harness import run_cmd

    s = a.scale
    n_commits, n_files, n_blame, n_lines = 10000 // s, 20000 // s, 500 // s, 2000 // s
    with tempfile.TemporaryDirectory(prefix="git-bench-") as tmp:
        d = os.path.join(a.keep, f"scale{s}") if a.keep else tmp
        repos = {k: os.path.join(d, k) for k in ("history", "wide", "blame")}
        rows = [
            (f"log --oneline ({n_commits} commits)", "history", ["git", "log", "--oneline"], None),
            (f"rev-list --count ({n_commits})", "history", ["git", "rev-list", "--count", "HEAD"],
             None),
            (f"status, clean ({n_files} files)", "wide", ["git", "status"], None),
            ("status --porcelain, clean", "wide", ["git", "status", "--porcelain"], None),
            (f"status, dirty ({n_files} files)", "wide", ["git", "status"], dirty_wide),
            ("status --porcelain, dirty", "wide", ["git", "status", "--porcelain"], None),
            (f"blame ({n_lines} lines, {n_blame} commits)", "blame", ["git", "blame", "file.txt"],
             None),
        ]
        rows = [r for r in rows if a.only in r[0]]
        t0 = time.perf_counter()
        makers = {"history": lambda p: make_history(p, n_commits),
                  "wide": lambda p: make_wide(p, n_files),
                  "blame": lambda p: make_blame(p, n_blame, n_lines)}
        for which in sorted({r[1] for r in rows}):
            p = repos[which]
            if which == "wide" and os.path.isdir(p):  # a kept one: back to clean
                git(p, "clean", "-q", "-fdx")
                git(p, "checkout", "-q", "-f", "main")
                time.sleep(1.1)
                git(p, "status", "--porcelain")
            if not os.path.isdir(p):
                os.makedirs(p)
                makers[which](p)
        setup = time.perf_counter() - t0
        print(f"repositories built in {setup:.1f}s; best of {a.rounds}; "
              f"load {os.getloadavg()[0]:.1f}")
        head = f"{'command':<34}{'git wall':>9}{'cpu':>8}{'pysh wall':>11}{'cpu':>8}" \
               f"{'wall x':>8}{'cpu x':>7}"
        print(head + (f"{'pysh -c':>10}{'x':>6}" if a.cli else ""))
        for label, which, argv, prep in rows:
            repo = repos[which]
            if prep is not None:
                prep(repo, n_files)
            env = dict(ENV, HOME=repo)
            want = subprocess.run(argv, cwd=repo, env=env, capture_output=True).stdout
            real_w, real_c = best(lambda argv=argv, repo=repo, env=env: subprocess.run(
                argv, cwd=repo, env=env, capture_output=True, check=True), a.rounds, cpu_children)
            with ExecCommand(repo, registry=default_registry()) as ex:
                r = run_cmd(ex, argv, env=ENV)
                if r.status != 0 or r.stdout != want:
                    print(f"{label}: OUTPUT DIFFERS (status {r.status})\n  pysh: {r.stdout[:200]!r}"
                          f"\n  stderr: {r.stderr[:200]!r}\n  git:  {want[:200]!r}")
                    continue
                pw, pc = best(lambda argv=argv: run_cmd(ex, argv, env=ENV), a.rounds, time.process_time)
                if a.profile:
                    import cProfile

                    os.makedirs(a.profile, exist_ok=True)
                    name = "".join(ch if ch.isalnum() else "_" for ch in label)[:40]
                    pr = cProfile.Profile()
                    # the command runs on the instance's worker thread: profile it there
                    ex.call(lambda pr=pr: pr.enable())
                    run_cmd(ex, argv, env=ENV)
                    ex.call(lambda pr=pr: pr.disable())
                    pr.dump_stats(os.path.join(a.profile, name + ".prof"))
            line = (f"{label:<34}{real_w * 1000:>7.1f}ms{real_c * 1000:>6.0f}ms{pw * 1000:>9.1f}ms"
                    f"{pc * 1000:>6.0f}ms{pw / real_w:>7.1f}x{pc / max(real_c, 1e-3):>6.1f}x")
            if a.cli:
                cmd = [sys.executable, "-m", "pysh", "--sandbox", repo, "-c", " ".join(argv)]
                p = subprocess.run(cmd, env=env, capture_output=True)
                if p.returncode == 0 and p.stdout == want:
                    cw, _ = best(lambda cmd=cmd, env=env: subprocess.run(cmd, env=env,
                                                                         capture_output=True),
                                 a.rounds, cpu_children)
                    line += f"{cw * 1000:>8.0f}ms{cw / real_w:>5.1f}x"
                else:
                    line += "   differs"
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
