"""pysh's curl next to the real curl, against the same local server (tests/ports/net/server.py).

    .venv/bin/python bench/net_bench.py [--repeat R] [--mb 10] [--requests 200]

Workloads, each run by pysh's ``curl`` in a warm ``Sandbox`` (in-process, the allow-list
naming the server) and by the host's ``curl`` through ``bash -c`` in the same run:

* big        ``curl -s URL -o big.bin`` of a 10 MB body (the body lands in the workspace)
* big-stdout ``curl -s URL > /dev/null`` of the same body (through the shell's stdout)
* small      200 ``curl -s URL/text`` in one script (a loop: one transfer each)

Each figure is the best of R runs; read the ratios, not the absolute times (the machine
is shared and the server is a Python thread). Target: within 3x of the real curl.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


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
    ap.add_argument("--mb", type=int, default=10)
    ap.add_argument("--requests", type=int, default=200)
    args = ap.parse_args()
    curl = shutil.which("curl")
    if curl is None:
        print("the real curl is not installed (apt-get install curl)")
        return 1
    from pysh.api import Sandbox
    from pysh.shellkit.network import Network
    from tests.ports.net.server import Server

    size = args.mb * 1024 * 1024
    work = [
        ("big", f"curl -s {{base}}/bytes/{size} -o big.bin"),
        ("big-stdout", f"curl -s {{base}}/bytes/{size} > /dev/null"),
        ("small", f"for i in $(seq {args.requests}); do curl -s {{base}}/text; done > /dev/null"),
    ]
    with Server() as s, tempfile.TemporaryDirectory() as ws:
        with Sandbox(ws, network=Network([s.base + "/"])) as sb:
            sb.run(f"curl -s {s.base}/text")  # warm: the modules are imported
            print(f"{'workload':<12} {'curl':>9} {'pysh':>9} {'ratio':>7}")
            for name, script in work:
                text = script.format(base=s.base)

                def real(text=text):
                    subprocess.run(["bash", "-c", text], cwd=ws, check=True,
                                   env={"PATH": "/usr/bin:/bin", "HOME": ws})

                def ours(text=text):
                    r = sb.run(text)
                    assert r.exit_code == 0, r.stderr

                t_real = best(real, args.repeat)
                t_ours = best(ours, args.repeat)
                print(f"{name:<12} {t_real * 1000:8.1f}ms {t_ours * 1000:8.1f}ms "
                      f"{t_ours / t_real:6.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
