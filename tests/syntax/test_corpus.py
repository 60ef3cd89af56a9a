"""Real-world scripts (corpus/, see its README.md): bash -n agreement and round-trip.

Every script and its mutants (truncated, one line deleted) must get the
same accept/reject verdict as `bash -n` gave when record_golden.py ran.
"""

import json
import os

import pytest

from pysh.interpreter.syntax import ParseError, parse
from pysh.interpreter.syntax.printer import format_program

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "corpus")


def _entries():
    import record_golden as rg

    with open(os.path.join(HERE, "golden", "corpus_bash_n.json")) as f:
        gold = json.load(f)
    for rel, path in rg.corpus_files():
        with open(path, "rb") as f:
            data = f.read()
        yield rel, data, gold.get(rel)
        for suffix, mdata in rg.mutants(data):
            yield rel + suffix, mdata, gold.get(rel + suffix)


def _verdict(src):
    try:
        parse(src)
    except ParseError as e:
        return "error: " + e.message
    return "ok"


def test_corpus_agrees_with_bash_n():
    import record_golden as rg

    if not os.path.isdir(CORPUS):
        pytest.skip("no corpus")
    total = agree = 0
    bad = []
    for key, data, g in _entries():
        if g is None or g["sha256"] != rg.sha(data):
            continue
        total += 1
        ours = _verdict(data.decode("utf-8", "surrogateescape"))
        if (ours == "ok") == (g["bash"] == "ok"):
            agree += 1
        else:
            bad.append((key, g["bash"], ours))
    assert total >= 500
    assert not bad, f"{agree}/{total} agree; disagreements: {bad[:20]}"


def test_corpus_round_trips():
    import record_golden as rg

    n = 0
    for rel, path in rg.corpus_files():
        with open(path, "rb") as f:
            src = f.read().decode("utf-8", "surrogateescape")
        prog = parse(src)
        printed = format_program(prog)
        assert parse(printed) == prog, rel
        n += 1
    assert n > 100
