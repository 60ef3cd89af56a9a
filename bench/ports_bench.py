"""The ports against the real tools, side by side in one run (ratios only).

    .venv/bin/python bench/ports_bench.py [--repeat R] [--quick]

Workloads (generated in a temp dir at bench time):

* rg   ``rg -n PATTERN .`` over 2,000 files
* fd   ``fd -e py`` over 10,000 files
* jq   a filter over a 10 MB JSON file
* sqlite3  ``.import`` of a 100,000-row CSV, then a GROUP BY query
* tar  ``tar -czf`` then ``tar -xzf`` of 1,000 files

pysh is timed two ways: through ``pysh --sandbox DIR -c '...'`` (a whole
process: interpreter start-up included) and in-process through the test
harness (the command alone, as a registered command). The real tools run via
``sh -c`` in the same directory. Each figure is the best of R runs.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

WORDS = ("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron "
         "pi rho sigma tau upsilon phi chi psi omega").split()


def make_text_tree(root: str, n: int, lines: int = 60) -> None:
    rnd = random.Random(1)
    for i in range(n):
        d = os.path.join(root, f"pkg{i // 100}", f"mod{i // 10}")
        os.makedirs(d, exist_ok=True)
        body = []
        for j in range(lines):
            words = rnd.choices(WORDS, k=8)
            if (i * lines + j) % 97 == 0:
                words.insert(3, "needle_42")
            body.append(" ".join(words))
        with open(os.path.join(d, f"f{i}.txt"), "w") as f:
            f.write("\n".join(body) + "\n")


def make_name_tree(root: str, n: int) -> None:
    exts = [".py", ".txt", ".md", ".json", ".js"]
    for i in range(n):
        d = os.path.join(root, f"pkg{i // 200}", f"mod{i // 20}")
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, f"file{i}{exts[i % len(exts)]}"), "w") as f:
            f.write("x\n")


def make_json(path: str, size: int) -> None:
    rnd = random.Random(2)
    items = []
    total = 0
    i = 0
    while total < size:
        item = {"id": i, "name": f"item-{i}", "v": rnd.randint(0, 1000),
                "tags": rnd.choices(WORDS, k=3), "ok": i % 3 == 0,
                "nested": {"x": rnd.random(), "y": [1, 2, 3]}}
        items.append(item)
        total += len(json.dumps(item)) + 2
        i += 1
    with open(path, "w") as f:
        json.dump(items, f)


def make_csv(path: str, rows: int) -> None:
    rnd = random.Random(3)
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["id", "k", "v", "label"])
        for i in range(rows):
            w.writerow([i, f"k{i % 50}", rnd.randint(0, 10000), rnd.choice(WORDS)])


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def real(cwd: str, script: str):
    def go():
        subprocess.run(["sh", "-c", script], cwd=cwd, check=False, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
    return go


def pysh_cli(cwd: str, script: str):
    def go():
        p = subprocess.run([sys.executable, "-m", "pysh", "--sandbox", cwd, "-c", script],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if p.returncode not in (0, 1):
            raise SystemExit(f"pysh failed ({p.returncode}): {p.stderr.decode()[:500]}")
    return go


def pysh_inproc(cwd: str, argvs: list[list[str]]):
    from pysh.commands import default_registry
    from pysh.interpreter import ExecCommand
    from tests.harness import run_cmd

    def go():
        with ExecCommand(cwd, registry=default_registry()) as ex:
            for argv in argvs:
                r = run_cmd(ex, argv)
                if r.status not in (0, 1):
                    raise SystemExit(f"pysh {argv[0]} failed ({r.status}): {r.err[:500]}")
    return go


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="smaller inputs (a smoke run)")
    ap.add_argument("--only", action="append", default=[],
                    help="run only these workloads (rg, fd, jq, sqlite3, tar); repeatable")
    args = ap.parse_args()

    def want(name: str) -> bool:
        return not args.only or name in args.only
    scale = 10 if args.quick else 1
    tmp = tempfile.mkdtemp(prefix="ports-bench-")
    rows = []
    try:
        # ---- rg
        if want('rg'):
            rg_dir = os.path.join(tmp, "rg")
            make_text_tree(rg_dir, 2000 // scale)
            rows.append(("rg -n PATTERN (2,000 files)",
                         real(rg_dir, "rg -n needle_42 . > /dev/null"),
                         pysh_cli(rg_dir, "rg -n needle_42 . > /dev/null"),
                         pysh_inproc(rg_dir, [["rg", "-n", "needle_42", "."]])))
        # ---- fd
        if want('fd'):
            fd_dir = os.path.join(tmp, "fd")
            make_name_tree(fd_dir, 10000 // scale)
            rows.append(("fd -e py (10,000 files)",
                         real(fd_dir, "fdfind -e py > /dev/null"),
                         pysh_cli(fd_dir, "fd -e py > /dev/null"),
                         pysh_inproc(fd_dir, [["fd", "-e", "py"]])))
        # ---- jq
        if want('jq'):
            jq_dir = os.path.join(tmp, "jq")
            os.makedirs(jq_dir)
            make_json(os.path.join(jq_dir, "big.json"), 10_000_000 // scale)
            prog = "[.[] | select(.v > 500) | {name, v, t: .tags[0]}] | length"
            rows.append(("jq filter (10 MB JSON)",
                         real(jq_dir, f"jq '{prog}' big.json > /dev/null"),
                         pysh_cli(jq_dir, f"jq '{prog}' big.json > /dev/null"),
                         pysh_inproc(jq_dir, [["jq", prog, "big.json"]])))
            rows.append(("jq -c '.[]' (10 MB JSON)",
                         real(jq_dir, "jq -c '.[]' big.json > /dev/null"),
                         pysh_cli(jq_dir, "jq -c '.[]' big.json > /dev/null"),
                         pysh_inproc(jq_dir, [["jq", "-c", ".[]", "big.json"]])))
        # ---- sqlite3
        if want('sqlite3'):
            sq_dir = os.path.join(tmp, "sq")
            os.makedirs(sq_dir)
            make_csv(os.path.join(sq_dir, "data.csv"), 100_000 // scale)
            q = "select k, count(*), sum(v) from t group by k order by k"
            script = (f"rm -f db.sqlite; sqlite3 db.sqlite '.import --csv data.csv t' '{q}' "
                      "> /dev/null")

            def sq_inproc_clean(fn):
                def go():
                    p = os.path.join(sq_dir, "db.sqlite")
                    if os.path.exists(p):
                        os.unlink(p)
                    fn()
                return go
            rows.append(("sqlite3 .import + query (100,000 rows)",
                         real(sq_dir, script),
                         sq_inproc_clean(pysh_cli(sq_dir, f"sqlite3 db.sqlite '.import --csv "
                                                          f"data.csv t' '{q}' > /dev/null")),
                         sq_inproc_clean(pysh_inproc(sq_dir, [["sqlite3", "db.sqlite",
                                                               ".import --csv data.csv t", q]]))))
        # ---- tar
        if want('tar'):
            tar_dir = os.path.join(tmp, "tar")
            make_text_tree(os.path.join(tar_dir, "src"), 1000 // scale, lines=20)

            def tar_clean(fn):
                def go():
                    shutil.rmtree(os.path.join(tar_dir, "out"), ignore_errors=True)
                    os.makedirs(os.path.join(tar_dir, "out"))
                    fn()
                return go
            rows.append(("tar -czf + tar -xzf (1,000 files)",
                         tar_clean(real(tar_dir, "tar -czf a.tgz src && tar -xzf a.tgz -C out")),
                         tar_clean(pysh_cli(tar_dir, "tar -czf a.tgz src && tar -xzf a.tgz -C out")),
                         tar_clean(pysh_inproc(tar_dir, [["tar", "-czf", "a.tgz", "src"],
                                                         ["tar", "-xzf", "a.tgz", "-C", "out"]]))))

        print(f"{'workload':40} {'real':>8} {'pysh -c':>9} {'ratio':>7} {'in-proc':>9} {'ratio':>7}")
        for name, f_real, f_cli, f_in in rows:
            t_real = best(f_real, args.repeat)
            t_cli = best(f_cli, args.repeat)
            t_in = best(f_in, args.repeat)
            print(f"{name:40} {t_real:8.3f} {t_cli:9.3f} {t_cli / t_real:6.1f}x "
                  f"{t_in:9.3f} {t_in / t_real:6.1f}x", flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
