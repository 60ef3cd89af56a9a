"""The interpreter against bash 5.2 on the feature probes of tests/interp/fidelity."""

from __future__ import annotations

import json

import pytest

from tests.golden.framework import decode_blob, to_bytes
from tests.interp import fidelity
from tests.interp.runner import run_script

_CASES = [(area, c) for area in fidelity.areas() for c in fidelity.area_cases(area)]
_EXPECTED = {area: json.loads(p.read_text()) if (p := fidelity.expected_path(area)).exists() else {}
             for area in fidelity.areas()}


@pytest.mark.parametrize(("area", "case"), _CASES, ids=[f"{a}/{c['name']}" for a, c in _CASES])
def test_against_bash(area, case):
    expected = _EXPECTED[area].get(case["name"])
    assert expected is not None, f"no recording: run python -m tests.interp.record {area}"
    r = run_script(case["script"], stdin=to_bytes(case.get("stdin")), files=case.get("files"),
                   args=case.get("args", ()))
    got = (r.stdout, r.status) if case.get("ignore_stderr") else (r.stdout, r.stderr, r.status)
    want = (decode_blob(expected["stdout"]), expected["status"]) if case.get("ignore_stderr") \
        else (decode_blob(expected["stdout"]), decode_blob(expected["stderr"]), expected["status"])
    assert got == want
