"""The differential suite: agent-style command lines, pysh's python3 against real bash + CPython.

Goldens (``diff_expected.json``) are recorded from the host's CPython 3.11 by
``record_diff.py``; pysh runs CPython 3.12.0 on WASI. Compared: stdout, the exit
status, the files left behind (``__pycache__`` aside: the byte-code names carry the
version) and the last line of stderr, with one normalisation: ``[Errno N]`` numbers,
which are WASI's in the guest (ENOENT is 44 there, 2 on Linux); the text after them
is the same.
"""

from __future__ import annotations

import json
import pathlib
import re

import pytest

from pysh.api import Sandbox
from tests.harness import populate
from tests.ports.python.diff_cases import CASES, FIXTURE
from tests.ports.python.record_diff import last_line, snapshot

EXPECTED = json.loads(pathlib.Path(__file__).with_name("diff_expected.json").read_text())["cases"]


def _norm(text: str) -> str:
    return re.sub(r"\[Errno \d+\]", "[Errno N]", text)


def test_every_case_is_recorded():
    assert sorted(EXPECTED) == sorted(CASES)
    assert len(CASES) >= 80


@pytest.mark.parametrize("name", sorted(CASES))
def test_case(name, tmp_path):
    ws = tmp_path / "ws"
    ws.mkdir()
    populate(str(ws), FIXTURE)
    with Sandbox(str(ws)) as sb:
        r = sb.run(CASES[name])
    want = EXPECTED[name]
    got = {"stdout": r.stdout, "status": r.exit_code, "stderr_last": _norm(last_line(r.stderr)),
           "files": snapshot(str(ws))}
    want = dict(want, stderr_last=_norm(want["stderr_last"]))
    assert got == want, r.stderr
