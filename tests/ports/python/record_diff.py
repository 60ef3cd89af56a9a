"""Record the differential goldens from real bash and the host's CPython.

    .venv/bin/python -m tests.ports.python.record_diff

For every case of ``diff_cases.CASES``: a fresh copy of the fixture, ``bash -c`` the
command line with the host's ``python3`` first on PATH, then stdout, the exit status,
the last line of stderr and the files left behind go to ``diff_expected.json``.
"""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import tempfile

from tests.golden.framework import ORACLE_ENV
from tests.harness import populate
from tests.ports.python.diff_cases import CASES, FIXTURE

EXPECTED = pathlib.Path(__file__).with_name("diff_expected.json")


def snapshot(root: str) -> dict[str, str]:
    """The files under ``root``: text content, or ``<binary>`` (sqlite files differ by version).

    ``__pycache__`` is left out: 3.11 and 3.12 write differently named byte-code files.
    """
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d != "__pycache__"]
        rel_dir = os.path.relpath(dirpath, root)
        if rel_dir != "." and not filenames and not dirnames:
            out[rel_dir + "/"] = ""
        for name in filenames:
            p = os.path.join(dirpath, name)
            rel = os.path.relpath(p, root)
            data = open(p, "rb").read()
            try:
                out[rel] = data.decode("utf-8")
            except UnicodeDecodeError:
                out[rel] = "<binary>"
            if data.startswith(b"SQLite format 3\0"):
                out[rel] = "<binary>"
    return dict(sorted(out.items()))


def last_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    return lines[-1] if lines else ""


def record_case(cmd: str) -> dict:
    with tempfile.TemporaryDirectory(prefix="pydiff-") as d:
        real = os.path.realpath(d)
        populate(real, FIXTURE)
        env = dict(ORACLE_ENV, HOME=real, PWD=real, TMPDIR=real)
        p = subprocess.run(["bash", "-c", cmd], cwd=real, env=env, capture_output=True,
                           timeout=60)
        out = p.stdout.decode("utf-8", "surrogateescape").replace(real, "/batch")
        err = p.stderr.decode("utf-8", "surrogateescape").replace(real, "/batch")
        return {"stdout": out, "status": p.returncode, "stderr_last": last_line(err),
                "files": snapshot(real)}


def main() -> int:
    version = subprocess.run(["bash", "-c", "python3 --version"], env=ORACLE_ENV,
                             capture_output=True, text=True).stdout.strip()
    results = {name: record_case(cmd) for name, cmd in CASES.items()}
    EXPECTED.write_text(json.dumps({"oracle": version, "cases": results}, indent=1,
                                   sort_keys=True, ensure_ascii=False) + "\n")
    print(f"{len(results)} cases recorded with {version}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
