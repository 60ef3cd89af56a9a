"""The spec ratchet: run the shared conformance suite through pysh.

    python -m tests.spec.ratchet run [--full] [-j N]   # check the passing list
    python -m tests.spec.ratchet update [-j N]         # run everything, add new passes
    python -m tests.spec.ratchet report [-j N]         # the full pass rate, worst files

``passing.txt`` lists the case ids (``file.test.sh#index``) that pass. A run
in which one of them fails is a failure. ``make test`` checks a stable sample
(a quarter of the list, chosen by hash) to stay fast; ``make spec`` checks all.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import pathlib
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent.parent
PASSING = HERE / "passing.txt"
SHELL = HERE / "pysh-spec-shell"


def spec_root() -> pathlib.Path | None:
    """The shared suite: $PYSH_SPEC_DIR, ../shared/spec next to the repo, or /work/shared/spec."""
    cands = [os.environ.get("PYSH_SPEC_DIR"), REPO.parent / "shared" / "spec", "/work/shared/spec"]
    for c in cands:
        if c and (pathlib.Path(c) / "run_spec.py").is_file() and (pathlib.Path(c) / "cases").is_dir():
            return pathlib.Path(c)
    return None


def load_passing() -> list[str]:
    if not PASSING.exists():
        return []
    return [ln.strip() for ln in PASSING.read_text().splitlines() if ln.strip() and not ln.startswith("#")]


def sampled(ids: list[str], fraction: int = 4) -> list[str]:
    return [i for i in ids if hashlib.sha256(i.encode()).digest()[0] % fraction == 0]


def all_case_ids(root: pathlib.Path) -> list[str]:
    sys.path.insert(0, str(root))
    from run_spec import parse_spec  # type: ignore

    ids = []
    for f in sorted((root / "cases").glob("*.test.sh")):
        _, cases = parse_spec(f.read_bytes())
        ids.extend(f"{f.name}#{i}" for i in range(len(cases)))
    return ids


def run_cases(root: pathlib.Path, wanted: list[str] | None, jobs: int) -> dict[str, bool]:
    """Run the suite (only ``wanted`` when given); case id -> passed."""
    with tempfile.TemporaryDirectory(prefix="pysh-ratchet-") as d:
        out = pathlib.Path(d) / "out.json"
        cmd = [sys.executable, str(root / "run_spec.py"), "--shell", str(SHELL),
               "--spec-dir", str(root / "cases"), "-j", str(jobs), "--json", str(out)]
        if wanted is not None:
            want = set(wanted)
            files = sorted({w.split("#")[0] for w in want})
            excl = pathlib.Path(d) / "exclude.txt"
            excl.write_text("".join(f"{i}\n" for i in all_case_ids(root)
                                    if i not in want and i.split("#")[0] in files))
            cmd += ["--files", ",".join(files), "--exclude", str(excl)]
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=3600)
        data = json.loads(out.read_text())
    results = {}
    for c in data["cases"]:
        if c["result"] == "SKIP":
            continue
        results[f"{c['file']}#{c['index']}"] = bool(c["passed"])
    return results


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("action", choices=["run", "update", "report"])
    ap.add_argument("--full", action="store_true")
    ap.add_argument("-j", type=int, default=2)
    a = ap.parse_args(argv)
    root = spec_root()
    if root is None:
        print("spec suite not found (set PYSH_SPEC_DIR)")
        return 2
    if a.action == "run":
        ids = load_passing()
        wanted = ids if a.full else sampled(ids)
        res = run_cases(root, wanted, a.j)
        bad = [i for i in wanted if not res.get(i, False)]
        print(f"ratchet: {len(wanted) - len(bad)}/{len(wanted)} listed cases pass")
        for i in bad:
            print("  regressed:", i)
        return 1 if bad else 0
    res = run_cases(root, None, a.j)
    passed = sorted(i for i, ok in res.items() if ok)
    total = len(res)
    print(f"spec: {len(passed)}/{total} passed ({100.0 * len(passed) / max(total, 1):.1f}%)")
    by_file: dict[str, int] = {}
    for i, ok in res.items():
        if not ok:
            f = i.split("#")[0]
            by_file[f] = by_file.get(f, 0) + 1
    for f, n in sorted(by_file.items(), key=lambda kv: -kv[1])[:10]:
        print(f"  {n:3d} failing  {f}")
    if a.action == "update":
        old = set(load_passing())
        new = sorted(old | set(passed), key=lambda s: (s.split("#")[0], int(s.split("#")[1])))
        PASSING.write_text("# spec case ids that pass; regenerate with: python -m tests.spec.ratchet update\n"
                           + "".join(f"{i}\n" for i in new))
        print(f"passing.txt: {len(new)} ids ({len(set(passed) - old)} new)")
        lost = old - set(passed)
        if lost:
            print(f"warning: {len(lost)} listed cases failed in this run: {sorted(lost)[:10]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
