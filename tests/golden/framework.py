"""Golden tests: expected output recorded from the real tools, compared with pysh.

A case group is a module ``tests/golden/cases/<group>.py`` with ``CASES``, a
list of dicts:

    name     unique within the group
    argv     the command line, run by pysh as a registered command
    script   instead of argv: a shell script (``bash -c`` when recording, pysh's interpreter
             when testing) for pipelines and redirections around the command under test
    stdin    str or bytes (default empty)
    files    workspace contents (see tests.harness.populate)
    env      extra environment variables
    oracle   argv for the real tool when it differs (e.g. ["gawk", "--posix", ...])
    setup    [step, ...] run first, in the workspace, on both sides (output discarded): an argv,
             or {"write": path, "content": ..., "append": bool} (a file the harness writes)
    cwd      a workspace subdirectory to run ``argv`` in (relative)
    subst    [(regex, replacement)] applied to the real tool's output when recording
             (e.g. the owner name: the sandbox reports a synthetic user)
    fixture  a tree unpacked into the workspace first (tests/golden/fixtures/NAME.tar.gz,
             built with the real tool by tests/golden/fixtures/build.py)

``python -m tests.golden.record [GROUP...]`` runs every case with the real
tool in a host temp dir holding the same files (cwd there, its path folded to
/batch, LC_ALL=C.UTF-8, TZ=UTC) and writes ``expected/<group>.json``.
"""

from __future__ import annotations

import base64
import importlib
import json
import pathlib

HERE = pathlib.Path(__file__).resolve().parent
CASES_DIR = HERE / "cases"
EXPECTED_DIR = HERE / "expected"

ORACLE_ENV = {
    "PATH": "/usr/local/bin:/usr/bin:/bin",
    "LC_ALL": "C.UTF-8",
    "TZ": "UTC",
    "USER": "user",
    "LOGNAME": "user",
}


def pseudo_random_bytes(n: int, seed: int) -> bytes:
    """Reproducible binary test data (a C-library LCG), the same on every machine."""
    out = bytearray()
    x = seed
    for _ in range(n):
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        out.append(x >> 16 & 0xFF)
    return bytes(out)


def groups() -> list[str]:
    return sorted(p.stem for p in CASES_DIR.glob("*.py") if p.stem != "__init__")


def load_cases(group: str) -> list[dict]:
    mod = importlib.import_module(f"tests.golden.cases.{group}")
    cases = list(mod.CASES)
    names = [c["name"] for c in cases]
    dupes = {n for n in names if names.count(n) > 1}
    assert not dupes, f"{group}: duplicate case names {sorted(dupes)}"
    return cases


def to_bytes(value) -> bytes:
    if value is None:
        return b""
    if isinstance(value, bytes):
        return value
    return value.encode("utf-8", "surrogateescape")


def encode_blob(data: bytes):
    """JSON-safe: a str when the bytes are UTF-8, else {"base64": ...}."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return {"base64": base64.b64encode(data).decode("ascii")}


def decode_blob(value) -> bytes:
    if isinstance(value, dict):
        return base64.b64decode(value["base64"])
    return value.encode("utf-8")


def expected_path(group: str) -> pathlib.Path:
    return EXPECTED_DIR / f"{group}.json"


def load_expected(group: str) -> dict:
    p = expected_path(group)
    if not p.exists():
        return {}
    return json.loads(p.read_text())
