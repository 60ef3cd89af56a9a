"""rg -U, gawk with PROCINFO["sorted_in"], file over 1,000 files and grep -P line by line:
pysh against ripgrep, gawk, file and GNU grep, measured side by side (issue 13).

    .venv/bin/python bench/toolbox_bench.py [--repeat R]

Inputs are made at bench time in a temp dir: a tree of 300 Python-like files for rg, a
200,000-word text for awk and grep, and 1,000 real files copied from this machine (the
venv's site-packages and /usr/share: source, byte code, images, archives, ...) for file.
Each case is timed two ways: the whole ``pysh --sandbox DIR -c '...'`` process (start-up
included) against ``sh -c`` running the real tool, and the pysh command alone, called
in-process through the test harness, against the real tool's process. Ratios only: every
tool runs on the same machine in the same run.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

ENV = {"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8", "TZ": "UTC"}
WORDS = ("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron "
         "pi rho sigma tau upsilon phi chi psi omega").split()


def make_inputs(root: str) -> None:
    r = random.Random(13)
    src = os.path.join(root, "src")
    for i in range(300):
        d = os.path.join(src, f"pkg{i % 10}")
        os.makedirs(d, exist_ok=True)
        body = []
        for k in range(20):
            body.append(f"class C{k}:\n    def method_{k}(self, x):\n        \"\"\"Doc {k}.\"\"\"\n"
                        f"        return x + {r.randint(0, 99)}\n\n")
        with open(os.path.join(d, f"mod{i}.py"), "w") as f:
            f.write("".join(body))
    with open(os.path.join(root, "words.txt"), "w") as f:
        for _ in range(20000):
            f.write(" ".join(r.choice(WORDS) for _ in range(10)) + "  \n")
    corpus = os.path.join(root, "corpus")
    os.makedirs(corpus)
    n = 0
    for top in (sysconfig.get_paths()["purelib"], "/usr/share"):
        for dirpath, _, names in os.walk(top):
            for name in sorted(names):
                p = os.path.join(dirpath, name)
                if n >= 1000:
                    return
                try:
                    if os.path.islink(p) or not os.path.isfile(p) or os.path.getsize(p) > 200_000:
                        continue
                    shutil.copyfile(p, os.path.join(corpus, f"{n:04d}_{name}"))
                    n += 1
                except OSError:
                    continue


CASES = [
    ("rg -U multi-line over 300 files", "rg -U -c 'def \\w+\\(self, x\\):\\n\\s+\"\"\"' src",
     ["rg", "-U", "-c", 'def \\w+\\(self, x\\):\\n\\s+"""', "src"]),
    ("gawk sorted_in word count", "awk '{ for (i = 1; i <= NF; i++) n[$i]++ } END { "
     "PROCINFO[\"sorted_in\"] = \"@val_num_desc\"; for (w in n) print w, n[w] }' words.txt",
     ["awk", '{ for (i = 1; i <= NF; i++) n[$i]++ } END { PROCINFO["sorted_in"] = '
      '"@val_num_desc"; for (w in n) print w, n[w] }', "words.txt"]),
    ("file over 1,000 files", "file corpus/* > /dev/null", None),
    ("grep -P -c trailing blanks", "grep -cP '\\s+$' words.txt",
     ["grep", "-cP", "\\s+$", "words.txt"]),
]


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    pysh = os.path.join(os.path.dirname(sys.executable), "pysh")
    from pysh.commands import default_registry
    from pysh.interpreter import ExecCommand
    from tests.harness import run_cmd

    with tempfile.TemporaryDirectory(prefix="toolbox-bench-") as root:
        make_inputs(root)
        names = sorted(os.listdir(os.path.join(root, "corpus")))
        print(f"{'case':36} {'real s':>8} {'pysh -c s':>10} {'ratio':>7} "
              f"{'in-proc s':>10} {'ratio':>7}")
        with ExecCommand(root, registry=default_registry()) as ex:
            for label, script, argv in CASES:
                if argv is None:
                    argv = ["file"] + [f"corpus/{n}" for n in names]
                real = best(lambda s=script: subprocess.run(
                    ["sh", "-c", s], cwd=root, env=ENV, check=False, capture_output=True),
                    args.repeat)
                whole = best(lambda s=script: subprocess.run(
                    [pysh, "--sandbox", root, "-c", s], env=ENV, check=False,
                    capture_output=True), args.repeat)
                inproc = best(lambda a=argv: run_cmd(ex, a), args.repeat)
                print(f"{label:36} {real:8.3f} {whole:10.3f} {whole / real:6.1f}x "
                      f"{inproc:10.3f} {inproc / real:6.1f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
