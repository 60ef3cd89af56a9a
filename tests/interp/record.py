"""Re-record the interpreter's golden files from bash 5.2 on this machine.

    .venv/bin/python -m tests.interp.record

Each case's script runs as a script file (``bash /tmp/x/script.sh``) in a temp
dir holding its files; the dir is folded to /batch and the script's name in
diagnostics to ``pysh`` (pysh's own name), so the recordings compare directly.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

from tests.golden.framework import ORACLE_ENV, encode_blob, to_bytes
from tests.harness import populate
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


def main(argv: list[str]) -> int:
    results = {c["name"]: record_case(c) for c in CASES}
    EXPECTED.write_text(json.dumps(results, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
    print(f"{len(results)} cases recorded")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
