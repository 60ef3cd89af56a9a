"""Run one hostile python3 script through pysh in a child process with a hard kill.

A regression that hangs or escapes then fails the test instead of the suite. The
child reads a JSON spec on stdin and prints one JSON result line::

    {"ws": host dir, "script": bash source, "limits": {...}, "mounts": [[host, virtual, ro]],
     "race": [link, inside_target, outside_target] | null}

``race`` starts a thread that keeps swapping the symlink ``link`` between a target
inside the workspace and one outside while the script runs.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time


def run_hostile(ws: str, script: str, *, limits: dict | None = None, mounts=(), race=None,
                kill_after: float = 60.0, env: dict | None = None) -> dict:
    spec = {"ws": ws, "script": script, "limits": limits or {}, "mounts": [list(m) for m in mounts],
            "race": race}
    t0 = time.monotonic()
    p = subprocess.run([sys.executable, "-m", "tests.ports.python.hostile"],
                       input=json.dumps(spec).encode(), capture_output=True, timeout=kill_after,
                       env=env)
    elapsed = time.monotonic() - t0
    assert p.returncode == 0, p.stderr.decode(errors="replace")
    result = json.loads(p.stdout.decode().splitlines()[-1])
    result["elapsed"] = elapsed
    result["child_stderr"] = p.stderr.decode(errors="replace")
    return result


def _racer(link: str, inside: str, outside: str, stop: threading.Event) -> None:
    tmp = link + ".swap"
    while not stop.is_set():
        for target in (inside, outside):
            try:
                os.symlink(target, tmp)
                os.replace(tmp, link)
            except OSError:
                pass


def main() -> int:
    from pysh.api import Limits, Sandbox

    spec = json.loads(sys.stdin.read())
    stop = threading.Event()
    racer = None
    if spec.get("race"):
        racer = threading.Thread(target=_racer, args=(*spec["race"], stop), daemon=True)
        racer.start()
    try:
        with Sandbox(spec["ws"], mounts=[tuple(m) for m in spec["mounts"]],
                     limits=Limits(**spec["limits"])) as sb:
            t = time.monotonic()
            r = sb.run(spec["script"])
            run_time = time.monotonic() - t
    finally:
        stop.set()
    print(json.dumps({"stdout": r.stdout, "stderr": r.stderr, "status": r.exit_code,
                      "run_time": run_time}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
