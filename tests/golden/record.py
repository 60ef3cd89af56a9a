"""Re-record golden files from the real tools on this machine.

    .venv/bin/python -m tests.golden.record            # every group
    .venv/bin/python -m tests.golden.record grep sed   # some groups
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile

from tests.golden.framework import (
    ORACLE_ENV,
    encode_blob,
    expected_path,
    groups,
    load_cases,
    to_bytes,
)
from tests.harness import populate


def record_case(case: dict) -> dict:
    with tempfile.TemporaryDirectory(prefix="golden-") as d, \
            tempfile.TemporaryDirectory(prefix="golden-home-") as h:
        real = os.path.realpath(d)
        home = os.path.realpath(h)
        if case.get("fixture"):  # a repository tree built by tests/golden/fixtures/build.py
            from tests.golden.fixtures.build import unpack

            unpack(case["fixture"], real)
        populate(real, case.get("files", {}))
        # the sandbox's home is its own /home/user, not the workspace
        env = dict(ORACLE_ENV, HOME=home, PWD=real)
        env.update(case.get("env", {}))
        for step in case.get("setup", []):
            if isinstance(step, dict):  # a file the harness writes itself
                path = os.path.join(real, step["write"])
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "ab" if step.get("append") else "wb") as f:
                    f.write(to_bytes(step.get("content")))
                continue
            subprocess.run(step, cwd=real, env=env, capture_output=True, timeout=60)
        argv = case.get("oracle") or (["bash", "-c", case["script"]] if "script" in case
                                      else case["argv"])
        cwd = os.path.join(real, case["cwd"]) if case.get("cwd") else real
        p = subprocess.run(argv, cwd=cwd, env=env, input=to_bytes(case.get("stdin")),
                           capture_output=True, timeout=60)
    out, err = p.stdout, p.stderr
    for host, virtual in ((home.encode(), b"/home/user"), (h.encode(), b"/home/user"),
                          (real.encode(), b"/batch"), (d.encode(), b"/batch")):
        out = out.replace(host, virtual)
        err = err.replace(host, virtual)
    for pattern, repl in case.get("subst", []):
        out = re.sub(to_bytes(pattern), to_bytes(repl), out)
        err = re.sub(to_bytes(pattern), to_bytes(repl), err)
    return {"stdout": encode_blob(out), "stderr": encode_blob(err), "status": p.returncode}


def main(argv: list[str]) -> int:
    for group in argv or groups():
        results = {c["name"]: record_case(c) for c in load_cases(group)}
        path = expected_path(group)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(results, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
        print(f"{group}: {len(results)} cases recorded")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
