"""Run one network script through pysh in a child process with a hard kill.

A regression that hangs (a transfer the deadline no longer cancels, a cap no longer
enforced) then fails its test instead of the suite. The child starts its own test
server, reads a JSON spec on stdin and prints one JSON result line::

    {"script": bash source with {base} for the server's URL, "allow": [prefixes with {base}],
     "limits": {...}, "network": {max_bytes, timeout, methods}, "timeout": seconds | null}
"""

from __future__ import annotations

import json
import subprocess
import sys
import time


def run_hostile(script: str, *, allow=("{base}/",), limits: dict | None = None,
                network: dict | None = None, timeout: float | None = None,
                kill_after: float = 60.0) -> dict:
    spec = {"script": script, "allow": list(allow), "limits": limits or {},
            "network": network or {}, "timeout": timeout}
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

    spec = json.loads(sys.stdin.read())
    with Server() as s:
        fill = lambda text: text.replace("{base}", s.base)  # noqa: E731
        net = Network([fill(a) for a in spec["allow"]], **spec["network"])
        with Sandbox(network=net, limits=Limits(**spec["limits"])) as sb:
            t = time.monotonic()
            r = sb.run(fill(spec["script"]), timeout=spec["timeout"])
            run_time = time.monotonic() - t
            ls = sb.run("ls -l /batch | awk 'NR>1{print $5, $9}'").stdout
    print(json.dumps({"stdout": r.stdout[-4000:], "stderr": r.stderr[-4000:],
                      "status": r.exit_code, "timed_out": r.timed_out, "run_time": run_time,
                      "truncated": r.truncated, "files": ls, "stdout_len": len(r.stdout_bytes)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
