"""find . -name '*.py' over 10,000 files: pysh against GNU find (and just-bash when installed).

    .venv/bin/python bench/find_bench.py [--files N] [--repeat R]

The tree is generated at bench time in a temp dir. Two comparisons:

* the pipeline: ``pysh --sandbox TREE -c 'find . -name "*.py" | wc -l'`` (a whole
  pysh process: start-up, sandbox, interpreter) against ``sh -c`` running GNU
  find and wc; used when ``pysh -c`` runs pipelines;
* find alone: pysh's ``find`` called in-process through the test harness against
  a GNU ``find`` process.

just-bash (PyPI ``just-bash``, installed only in a throwaway venv such as
/tmp/jb-venv, never a dependency) runs the same pipeline over the same files
loaded into its in-memory file system; only its ``exec`` is timed (loading the
files is not). The column is skipped when it is not installed. Ratios only:
every tool is measured side by side in the same run.
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


def pysh_pipeline_inprocess(root: str):
    """The same pipeline through the interpreter, in-process and warm (no process start-up)."""
    try:
        import anyio

        from pysh.cli import _run_text
        from pysh.commands import default_registry
        from pysh.interpreter import ExecCommand
        from pysh.interpreter.toplevel import make_interp, make_session, run_main
        from pysh.shellkit import CaptureOutput, NullInput
    except ImportError:
        return None
    ex = ExecCommand(root, registry=default_registry()).open()
    session = make_session(ex)

    def run() -> int:
        out, err = CaptureOutput(), CaptureOutput()
        interp = make_interp(session, fds={0: NullInput(), 1: out, 2: err})

        async def body(it):
            return await _run_text(it, "find . -name '*.py' | wc -l", parse_name="bench")
        status = anyio.run(run_main, interp, body)
        assert status == 0, err.getvalue()
        return int(out.getvalue().strip())
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
    best = None
    for _ in range(int(sys.argv[3])):
        t0 = time.perf_counter()
        r = await bash.exec(script)
        dt = time.perf_counter() - t0
        best = dt if best is None else min(best, dt)
    print(best, r.stdout.strip())
asyncio.run(go())
"""


def just_bash(cmd: list[str], root: str, script: str, repeat: int) -> tuple[float, str] | None:
    p = subprocess.run(cmd + ["-c", JB_SCRIPT, root, script, str(repeat)], capture_output=True,
                       timeout=900)
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
        print(f"find . -name '*.py' over {args.files} files")
        pipeline = pysh_cli_works()
        results = {}
        if pipeline:
            g, gcount = best(lambda: gnu_find(root, True), args.repeat)
            p, pcount = best(lambda: pysh_cli(root), args.repeat)
            assert pcount == gcount, (pcount, gcount)
            results["pipeline"] = p
            print(f"  pipeline | wc -l ({gcount} matches), whole processes:")
            print(f"    GNU (sh -c)     {g * 1000:8.1f} ms")
            print(f"    pysh -c         {p * 1000:8.1f} ms   ratio {p / g:5.2f}x GNU "
                  "(target <= 10x)")
            warm = pysh_pipeline_inprocess(root)
            if warm is not None:
                ex, run = warm
                try:
                    run()
                    w, wcount = best(run, args.repeat)
                finally:
                    ex.close()
                assert wcount == gcount
                results["warm"] = w
                print(f"    pysh, warm      {w * 1000:8.1f} ms   ratio {w / g:5.2f}x GNU "
                      "(interpreter in-process, no start-up)")
        else:
            print("  pipeline: pysh -c cannot run pipelines yet; skipped")
        g, gcount = best(lambda: gnu_find(root, False), args.repeat)
        ex, run = pysh_inprocess(root)
        try:
            run()  # warm: imports
            p, pcount = best(run, args.repeat)
        finally:
            ex.close()
        assert pcount == gcount, (pcount, gcount)
        print("  find alone:")
        print(f"    GNU find        {g * 1000:8.1f} ms")
        print(f"    pysh find       {p * 1000:8.1f} ms   ratio {p / g:5.2f}x GNU (in-process)")
        jb = just_bash_cmd()
        if jb is None:
            print("  just-bash  not installed (pip install just-bash into /tmp/jb-venv); skipped")
        else:
            res = just_bash(jb, root, "find . -name '*.py' | wc -l", args.repeat)
            if res is None:
                print("  just-bash  failed to run; skipped")
            else:
                print(f"  just-bash exec  {res[0] * 1000:8.1f} ms   (in-process, warm; its output: "
                      f"{res[1]})")
                for key, what in (("pipeline", "pysh -c (whole process)"),
                                  ("warm", "pysh warm pipeline")):
                    if key in results:
                        print(f"    {what} is {res[0] / results[key]:5.2f}x faster than "
                              "just-bash exec")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
