"""git: pysh's port (dulwich) against the real git, measured side by side in one run.

    python bench/git_bench.py [--commits N] [--files F] [--rounds R]

A repository with N commits (default 1,000) over F files (default 200) is generated
with the real git (fast-import), then ``git status`` and ``git log --oneline -n 100``
are timed: real git as a host process, pysh through ``pysh -c`` (the interpreter,
as an agent calls it) and in-process (the registered command called directly, which
leaves out pysh's start-up). Best of R rounds of wall time; read the ratios. dulwich
is pure Python over a C git: the target is only to report.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)

ENV = {"GIT_AUTHOR_NAME": "B", "GIT_AUTHOR_EMAIL": "b@example.com", "GIT_COMMITTER_NAME": "B",
       "GIT_COMMITTER_EMAIL": "b@example.com", "PATH": "/usr/bin:/bin", "GIT_CONFIG_NOSYSTEM": "1"}


def make_repo(path: str, commits: int, files: int) -> None:
    env = dict(ENV, HOME=path)
    subprocess.run(["git", "init", "-q", "-b", "main", path], check=True, env=env)
    stream = []
    mark = 0
    contents = {f"src/f{i:04d}.txt": f"file {i}\n" for i in range(files)}
    for c in range(commits):
        path_c = f"src/f{c % files:04d}.txt"
        contents[path_c] += f"change {c}\n"
        t = 1700000000 + c * 60
        stream.append(f"commit refs/heads/main\nmark :{mark + 1}\n"
                      f"author B <b@example.com> {t} +0000\ncommitter B <b@example.com> {t} +0000\n")
        msg = f"commit number {c}\n"
        stream.append(f"data {len(msg)}\n{msg}")
        if mark:
            stream.append(f"from :{mark}\n")
        mark += 1
        todo = contents.items() if c == 0 else [(path_c, contents[path_c])]
        for p, data in todo:
            b = data.encode()
            stream.append(f"M 100644 inline {p}\ndata {len(b)}\n{data}\n")
    subprocess.run(["git", "fast-import", "--quiet"], cwd=path, input="".join(stream).encode(),
                   check=True, env=env)
    subprocess.run(["git", "checkout", "-q", "-f", "main"], cwd=path, check=True, env=env)
    # a few local changes so status has something to say
    with open(os.path.join(path, "src", "f0000.txt"), "a") as f:
        f.write("local edit\n")
    with open(os.path.join(path, "untracked.txt"), "w") as f:
        f.write("u\n")


def best(fn, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--commits", type=int, default=1000)
    ap.add_argument("--files", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    from tests.harness import run_cmd, sandbox

    with tempfile.TemporaryDirectory(prefix="git-bench-") as d:
        repo = os.path.join(d, "repo")
        make_repo(repo, a.commits, a.files)
        env = dict(ENV, HOME=repo)
        pysh = [sys.executable, "-m", "pysh", "--sandbox", repo, "-c"]
        cases = [("git status", ["git", "status"]),
                 ("git log --oneline -n 100", ["git", "log", "--oneline", "-n", "100"])]
        print(f"repository: {a.commits} commits, {a.files} files; best of {a.rounds}")
        print(f"{'command':<28}{'git':>10}{'pysh -c':>12}{'ratio':>8}{'in-process':>12}{'ratio':>8}")
        from pysh.commands import default_registry
        from pysh.interpreter import ExecCommand

        with ExecCommand(repo, registry=default_registry()) as ex:
            for label, argv in cases:
                real = best(lambda argv=argv: subprocess.run(argv, cwd=repo, env=env,
                                                             capture_output=True, check=True),
                            a.rounds)
                want = subprocess.run(argv, cwd=repo, env=env, capture_output=True).stdout

                def cli(argv=argv):
                    p = subprocess.run(pysh + [" ".join(argv)], env=env, capture_output=True)
                    return p

                p = cli()
                cli_t = best(cli, a.rounds) if p.returncode == 0 else float("nan")
                r = run_cmd(ex, argv, env=ENV)
                assert r.status == 0 and r.stdout == want, (r.stdout[:300], r.stderr[:300], want[:300])
                inproc = best(lambda argv=argv: run_cmd(ex, argv, env=ENV), a.rounds)
                print(f"{label:<28}{real * 1000:>9.1f}ms{cli_t * 1000:>10.1f}ms{cli_t / real:>7.1f}x"
                      f"{inproc * 1000:>10.1f}ms{inproc / real:>7.1f}x")
        del sandbox
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
