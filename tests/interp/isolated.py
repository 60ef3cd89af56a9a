"""Hostile scripts run in a child process with a hard kill, so a regression (a read that
never ends, a buffer that grows to gigabytes) fails its test instead of hanging the suite.

One child runs a whole batch of cases (start-up is paid once) and reports each case as
one JSON line as soon as it ends; when the child is killed, the cases it finished still
report and the rest fail with what was seen.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

_CHILD = r"""
import json, os, shutil, sys, tempfile, time
from pysh import Limits, Sandbox

for case in json.loads(sys.stdin.read()):
    ws = tempfile.mkdtemp()
    for name, size in case.get("plant", {}).items():  # files the host put there
        with open(os.path.join(ws, name), "wb") as f:
            f.write(bytes(size))
    with Sandbox(ws, limits=Limits(**case["limits"])) as sb:
        t0 = time.monotonic()
        r = sb.run(case["script"])
        elapsed = time.monotonic() - t0
        after = sb.run(case["after"]).stdout if case.get("after") else None
    shutil.rmtree(ws)
    print(json.dumps({"name": case["name"], "status": r.exit_code, "out": r.stdout,
                      "err": r.stderr, "elapsed": elapsed, "after": after}), flush=True)
"""


class Outcome:
    def __init__(self, d: dict):
        self.status = d["status"]
        self.out = d["out"]
        self.err = d["err"]
        self.elapsed = d["elapsed"]
        self.after = d["after"]

    def __repr__(self) -> str:
        return (f"Outcome(status={self.status}, out={self.out[:200]!r}, err={self.err[:300]!r}, "
                f"elapsed={self.elapsed:.2f}, after={self.after!r})")


def run_batch(cases: list[dict], kill_after: float) -> dict[str, Outcome | str]:
    """``cases``: dicts with name, script, limits (Limits fields), optional after (a
    script run next in the same sandbox, fresh budget), optional plant (name -> size: files
    of NUL bytes the host puts in the workspace first). Returns name -> Outcome, or a
    string saying why there is none (the child was killed or died)."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C.UTF-8",
           "PYTHONPATH": os.pathsep.join(sys.path)}
    try:
        p = subprocess.run([sys.executable, "-c", _CHILD], input=json.dumps(cases).encode(),
                           capture_output=True, timeout=kill_after, env=env)
        stdout, why = p.stdout, f"child ended (status {p.returncode}): {p.stderr[-2000:]!r}"
    except subprocess.TimeoutExpired as e:  # killed: the cases before the hang still count
        stdout, why = e.stdout or b"", f"child killed after {kill_after} s"
    results: dict[str, Outcome | str] = {c["name"]: why for c in cases}
    for line in stdout.decode("utf-8", "replace").splitlines():
        try:
            d = json.loads(line)
        except ValueError:
            continue
        results[d["name"]] = Outcome(d)
    return results
