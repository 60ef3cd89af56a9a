"""pysh's parser accepts/rejects what `bash -n` accepts/rejects (golden verdicts).

The verdicts were recorded by record_golden.py; this test never runs bash.
"""

import json
import os

import pytest

from pysh.interpreter.syntax import ParseError, parse

HERE = os.path.dirname(os.path.abspath(__file__))
GOLDEN = os.path.join(HERE, "golden")


def _verdict(code: str) -> str:
    try:
        parse(code)
    except ParseError as e:
        return "error: " + e.message
    return "ok"


def test_spec_cases_agree_with_bash_n():
    import record_golden as rg

    if not os.path.isdir(os.path.join(rg.SPEC_DIR, "cases")):
        pytest.skip("spec cases not available")
    with open(os.path.join(GOLDEN, "spec_bash_n.json")) as f:
        gold = json.load(f)
    total = agree = 0
    bad = []
    for key, code in rg.spec_cases():
        g = gold.get(key)
        if g is None or g["sha256"] != rg.sha(code):
            continue  # case changed since recording; re-run record_golden.py
        total += 1
        ours = _verdict(code.decode("utf-8", "surrogateescape"))
        if (ours == "ok") == (g["bash"] == "ok"):
            agree += 1
        else:
            bad.append((key, g["bash"], ours))
    assert total > 1000
    assert not bad, f"{agree}/{total} agree; disagreements: {bad[:20]}"


def test_tricky_snippets_agree_with_bash_n():
    import record_golden as rg

    with open(os.path.join(GOLDEN, "snippets_bash_n.json")) as f:
        gold = json.load(f)
    bad = []
    n = 0
    for key, code in rg.snippets():
        g = gold[key]
        assert g["sha256"] == rg.sha(code), "re-run record_golden.py"
        n += 1
        ours = _verdict(code.decode())
        if (ours == "ok") != (g["bash"] == "ok"):
            bad.append((code.decode(), g["bash"], ours))
    assert n > 90 and not bad, bad
