"""The interpreter against bash 5.2's recorded behaviour (tests/interp/cases.py)."""

from __future__ import annotations

import json

import pytest

from tests.golden.framework import decode_blob, to_bytes
from tests.interp.cases import CASES, EXPECTED
from tests.interp.runner import run_script

_EXPECTED = json.loads(EXPECTED.read_text()) if EXPECTED.exists() else {}


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_against_bash(case):
    expected = _EXPECTED.get(case["name"])
    assert expected is not None, "no recording: run python -m tests.interp.record"
    r = run_script(case["script"], stdin=to_bytes(case.get("stdin")), files=case.get("files"),
                   args=case.get("args", ()))
    got = (r.stdout, r.status) if case.get("ignore_stderr") else (r.stdout, r.stderr, r.status)
    want = (decode_blob(expected["stdout"]), expected["status"]) if case.get("ignore_stderr") \
        else (decode_blob(expected["stdout"]), decode_blob(expected["stderr"]), expected["status"])
    assert got == want
