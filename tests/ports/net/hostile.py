"""Run one network script through pysh in a child process with a hard kill.

A regression that hangs (a transfer the deadline no longer cancels, a cap no longer
enforced) then fails its test instead of the suite. The child starts its own test
server, reads a JSON spec on stdin and prints one JSON result line::

    {"script": bash source with {base} for the server's URL, "allow": [prefixes with {base}],
     "limits": {...}, "network": {max_bytes, timeout, methods}, "timeout": seconds | null,
     "ws": a host workspace (default: an ephemeral one), "keep": chars of output kept
     (default 4000, null: all), "race": [link, inside, outside] | null}

``race`` keeps swapping the symlink ``link`` (in ``ws``) between the two targets while
the script runs (tests/ports/python/hostile.py's racer).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time


def run_hostile(script: str, *, allow=("{base}/",), limits: dict | None = None,
                network: dict | None = None, timeout: float | None = None,
                kill_after: float = 60.0, ws: str | None = None, keep: int | None = 4000,
                race: list | None = None) -> dict:
    spec = {"script": script, "allow": list(allow), "limits": limits or {},
            "network": network or {}, "timeout": timeout, "ws": ws, "keep": keep, "race": race}
    t0 = time.monotonic()
    p = subprocess.run([sys.executable, "-m", "tests.ports.net.hostile"],
                       input=json.dumps(spec).encode(), capture_output=True, timeout=kill_after)
    elapsed = time.monotonic() - t0
    assert p.returncode == 0, p.stderr.decode(errors="replace")
    result = json.loads(p.stdout.decode().splitlines()[-1])
    result["elapsed"] = elapsed
    return result


def main() -> int:
    from pysh.api import Limits, Sandbox
    from pysh.shellkit.network import Network
    from tests.ports.net.server import Server
    from tests.ports.python.hostile import _racer

    spec = json.loads(sys.stdin.read())
    stop = threading.Event()
    if spec.get("race"):
        link, inside, outside = spec["race"]
        threading.Thread(target=_racer, args=(os.path.join(spec["ws"], link), inside, outside,
                                              stop), daemon=True).start()
    with Server() as s:
        fill = lambda text: text.replace("{base}", s.base)  # noqa: E731
        net = Network([fill(a) for a in spec["allow"]], **spec["network"])
        with Sandbox(spec.get("ws"), network=net, limits=Limits(**spec["limits"])) as sb:
            t = time.monotonic()
            r = sb.run(fill(spec["script"]), timeout=spec["timeout"])
            run_time = time.monotonic() - t
            stop.set()
            ls = sb.run("ls -l /batch | awk 'NR>1{print $5, $9}'").stdout
    keep = spec.get("keep", 4000) or None
    print(json.dumps({"stdout": r.stdout[-keep if keep else 0:],
                      "stderr": r.stderr[-keep if keep else 0:],
                      "status": r.exit_code, "timed_out": r.timed_out, "run_time": run_time,
                      "truncated": r.truncated, "files": ls, "stdout_len": len(r.stdout_bytes)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
