"""Record tests/ports/net/golden_expected.json from the real curl and wget.

    python -m tests.ports.net.record [NAME...]

Needs bash, curl 7.88 and wget 1.21 on the host (apt-get install curl wget)."""

from __future__ import annotations

import json
import pathlib
import sys

from tests.ports.net.golden import CASES, run_real
from tests.ports.net.server import Server

EXPECTED = pathlib.Path(__file__).with_name("golden_expected.json")


def main(names: list[str]) -> None:
    data = json.loads(EXPECTED.read_text()) if EXPECTED.exists() else {}
    with Server() as s:
        for name, cmd in CASES:
            if names and name not in names:
                continue
            data[name] = run_real(cmd, s.base, s.port)
            print(name, data[name]["status"], file=sys.stderr)
    known = {n for n, _ in CASES}
    data = {k: v for k, v in sorted(data.items()) if k in known}
    EXPECTED.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
