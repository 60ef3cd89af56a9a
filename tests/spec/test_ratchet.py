"""The spec ratchet: every case listed in passing.txt still passes (a stable sample here;
``make spec`` runs them all)."""

from __future__ import annotations

import pytest

from tests.spec import ratchet


def test_listed_spec_cases_still_pass():
    root = ratchet.spec_root()
    if root is None:
        pytest.skip("the shared spec suite is not on this machine (set PYSH_SPEC_DIR)")
    ids = ratchet.load_passing()
    assert ids, "tests/spec/passing.txt is empty: run python -m tests.spec.ratchet update"
    wanted = ratchet.sampled(ids)
    res = ratchet.run_cases(root, wanted, jobs=2)
    regressed = [i for i in wanted if not res.get(i, False)]
    assert regressed == []
