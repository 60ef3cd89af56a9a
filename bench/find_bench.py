"""find . -name '*.py' over 10,000 files: pysh against GNU find (and just-bash when installed).

    .venv/bin/python bench/find_bench.py [--files N] [--repeat R]

The tree is generated at bench time in a temp dir. pysh is measured through
``pysh -c 'find . -name "*.py" | wc -l'`` once the interpreter runs pipelines;
until then, ``find`` alone runs in-process through the test harness and GNU
find alone is its comparison. just-bash (PyPI ``just-bash``, installed only in
a throwaway venv such as /tmp/jb-venv) is timed when importable or found.
Ratios only: every tool is measured side by side in the same run.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def make_tree(root: str, n: int) -> None:
    exts = [".py", ".txt", ".md", ".json", ".js"]
    per_dir = 20
    i = 0
    d = 0
    while i < n:
        sub = os.path.join(root, f"pkg{d // 10}", f"mod{d}")
        os.makedirs(sub, exist_ok=True)
        for _ in range(per_dir):
            if i >= n:
                break
            with open(os.path.join(sub, f"file{i}{exts[i % len(exts)]}"), "w") as f:
                f.write("x\n")
            i += 1
        d += 1


def best(fn, repeat: int) -> tuple[float, object]:
    times = []
    result = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return min(times), result


def gnu_find(root: str, pipeline: bool) -> int:
    if pipeline:
        out = subprocess.run(["sh", "-c", "find . -name '*.py' | wc -l"], cwd=root,
                             capture_output=True, check=True).stdout
        return int(out.strip())
    out = subprocess.run(["find", ".", "-name", "*.py"], cwd=root, capture_output=True,
                         check=True).stdout
    return out.count(b"\n")


def pysh_cli_works() -> bool:
    try:
        p = subprocess.run([sys.executable, "-m", "pysh", "-c", "echo ok | wc -l"],
                           capture_output=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return p.returncode == 0 and p.stdout.strip() == b"1"


def pysh_cli(root: str) -> int:
    out = subprocess.run([sys.executable, "-m", "pysh", "--sandbox", root, "-c",
                          "find . -name '*.py' | wc -l"], capture_output=True, check=True).stdout
    return int(out.strip())


def pysh_inprocess(root: str):
    from pysh.commands import default_registry
    from pysh.interpreter import ExecCommand
    from tests.harness import run_cmd

    ex = ExecCommand(root, registry=default_registry()).open()

    def run() -> int:
        r = run_cmd(ex, ["find", ".", "-name", "*.py"])
        assert r.status == 0, r.err
        return r.stdout.count(b"\n")
    return ex, run


def just_bash_cmd() -> list[str] | None:
    for py in ("/tmp/jb-venv/bin/python",):
        if os.path.exists(py):
            p = subprocess.run([py, "-c", "import just_bash"], capture_output=True)
            if p.returncode == 0:
                return [py]
    try:
        import just_bash  # noqa: F401
    except ImportError:
        return None
    return [sys.executable]


JB_SCRIPT = r"""
import sys, time, asyncio
root, script = sys.argv[1], sys.argv[2]
try:
    from just_bash import Bash
except ImportError:
    from just_bash.bash import Bash
import os
files = {}
for dp, dn, fn in os.walk(root):
    for f in fn:
        p = os.path.join(dp, f)
        files["/work/" + os.path.relpath(p, root)] = open(p).read()
bash = Bash(files=files, cwd="/work")
async def go():
    t0 = time.perf_counter()
    r = await bash.exec(script)
    dt = time.perf_counter() - t0
    print(dt, r.stdout.strip())
asyncio.run(go())
"""


def just_bash(cmd: list[str], root: str, script: str) -> tuple[float, str] | None:
    p = subprocess.run(cmd + ["-c", JB_SCRIPT, root, script], capture_output=True, timeout=600)
    if p.returncode != 0:
        sys.stderr.write(p.stderr.decode(errors="replace")[-2000:])
        return None
    dt, _, out = p.stdout.decode().strip().partition(" ")
    return float(dt), out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    root = tempfile.mkdtemp(prefix="find-bench-")
    try:
        make_tree(root, args.files)
        pipeline = pysh_cli_works()
        g, gcount = best(lambda: gnu_find(root, pipeline), args.repeat)
        if pipeline:
            mode = "pysh -c 'find . -name \"*.py\" | wc -l'"
            p, pcount = best(lambda: pysh_cli(root), args.repeat)
        else:
            mode = "find alone, in-process through the harness (no pipelines yet)"
            ex, run = pysh_inprocess(root)
            try:
                run()  # warm: imports
                p, pcount = best(run, args.repeat)
            finally:
                ex.close()
        assert pcount == gcount, (pcount, gcount)
        print(f"find . -name '*.py' over {args.files} files ({gcount} matches); pysh: {mode}")
        print(f"  GNU find   {g * 1000:8.1f} ms")
        print(f"  pysh       {p * 1000:8.1f} ms   ratio {p / g:5.2f}x GNU (target <= 10x)")
        jb = just_bash_cmd()
        if jb is None:
            print("  just-bash  not installed (pip install just-bash into /tmp/jb-venv); skipped")
        else:
            res = just_bash(jb, root, "find . -name '*.py' | wc -l")
            if res is None:
                print("  just-bash  failed to run; skipped")
            else:
                print(f"  just-bash  {res[0] * 1000:8.1f} ms   pysh is {res[0] / p:5.2f}x faster"
                      f" (output {res[1]})")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
