"""curl and wget against the real tools' recorded output on the same server (golden_cases.py;
re-record with ``python -m tests.ports.net.record``)."""

from __future__ import annotations

import json
import pathlib

import pytest

from tests.ports.net.golden import CASES, run_pysh

EXPECTED = json.loads(pathlib.Path(__file__).with_name("golden_expected.json").read_text())


@pytest.mark.parametrize("name, cmd", CASES, ids=[n for n, _ in CASES])
def test_golden(name, cmd, server):
    got = run_pysh(cmd, server.base, server.port)
    assert got == EXPECTED[name]
