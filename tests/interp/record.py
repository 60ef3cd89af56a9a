"""Re-record the interpreter's golden files from bash 5.2 on this machine.

    .venv/bin/python -m tests.interp.record              # tests/interp/cases.py
    .venv/bin/python -m tests.interp.record AREA...      # tests/interp/fidelity/AREA.py
    .venv/bin/python -m tests.interp.record --diff AREA  # where pysh differs, live

Each case's script runs as a script file (``bash /tmp/x/script.sh``) in a temp
dir holding its files; the dir is folded to /batch and the script's name in
diagnostics to ``pysh`` (pysh's own name), so the recordings compare directly.
"""

from __future__ import annotations

import difflib
import json
import os
import subprocess
import sys
import tempfile

from tests.golden.framework import ORACLE_ENV, decode_blob, encode_blob, to_bytes
from tests.harness import populate
from tests.interp import fidelity
from tests.interp.cases import CASES, EXPECTED


def record_case(case: dict) -> dict:
    with tempfile.TemporaryDirectory(prefix="interp-golden-") as d:
        real = os.path.realpath(d)
        ws = os.path.join(real, "ws")
        home = os.path.join(real, "home")  # the sandbox's own /home/user
        os.mkdir(ws)
        os.mkdir(home)
        populate(ws, case.get("files", {}))
        script = os.path.join(real, "script.sh")
        with open(script, "wb") as f:
            f.write(to_bytes(case["script"]))
        env = dict(ORACLE_ENV, HOME=home, PWD=ws, TMPDIR="/tmp")
        p = subprocess.run(["bash", script, *case.get("args", [])], cwd=ws, env=env,
                           input=to_bytes(case.get("stdin")), capture_output=True, timeout=60)
    out, err = p.stdout, p.stderr
    err = err.replace(script.encode() + b": ", b"pysh: ")
    out = out.replace(script.encode(), b"pysh")  # $0, BASH_SOURCE: the script's name
    err = err.replace(script.encode(), b"pysh")
    for host, virtual in ((ws.encode(), b"/batch"), (home.encode(), b"/home/user"),
                          (real.encode(), b"/batch")):
        out = out.replace(host, virtual)
        err = err.replace(host, virtual)
    return {"stdout": encode_blob(out), "stderr": encode_blob(err), "status": p.returncode}


def write(path, cases: list[dict]) -> None:
    names = [c["name"] for c in cases]
    assert len(set(names)) == len(names), "duplicate case names"
    results = {c["name"]: record_case(c) for c in cases}
    path.write_text(json.dumps(results, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
    print(f"{path.name}: {len(results)} cases recorded")


def diff(cases: list[dict]) -> int:
    """Run each case through bash and pysh; show where they differ."""
    from tests.interp.runner import run_script

    bad = 0
    for c in cases:
        want = record_case(c)
        r = run_script(c["script"], stdin=to_bytes(c.get("stdin")), files=c.get("files"),
                       args=c.get("args", ()))
        keys = ("stdout", "status") if c.get("ignore_stderr") else ("stdout", "stderr", "status")
        got = {"stdout": r.stdout, "stderr": r.stderr, "status": r.status}
        if all((decode_blob(want[k]) if k != "status" else want[k]) == got[k] for k in keys):
            continue
        bad += 1
        print(f"=== {c['name']}")
        for k in keys:
            w = decode_blob(want[k]) if k != "status" else want[k]
            if w == got[k]:
                continue
            if k == "status":
                print(f"  status: bash {w} pysh {got[k]}")
                continue
            wl = w.decode("utf-8", "replace").splitlines()
            gl = got[k].decode("utf-8", "replace").splitlines()
            for line in difflib.unified_diff(wl, gl, f"bash {k}", f"pysh {k}", lineterm="", n=1):
                print("  " + line)
    print(f"{len(cases) - bad}/{len(cases)} match")
    return 1 if bad else 0


def main(argv: list[str]) -> int:
    if argv[:1] == ["--diff"]:
        return diff([c for a in argv[1:] for c in fidelity.area_cases(a)])
    if not argv:
        write(EXPECTED, CASES)
        return 0
    for area in argv:
        write(fidelity.expected_path(area), fidelity.area_cases(area))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
