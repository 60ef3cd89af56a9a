"""The committed LALR tables match grammar.lark."""

import pytest

from pysh.interpreter.syntax import _tables, gen_tables


def test_tables_match_grammar():
    pytest.importorskip("lark")
    with open(gen_tables.GRAMMAR) as f:
        text = f.read()
    assert _tables.GRAMMAR_SHA256 == gen_tables.grammar_digest(text), (
        "grammar.lark changed: run python -m pysh.interpreter.syntax.gen_tables")
    with open(gen_tables.TABLES) as f:
        committed = f.read()
    assert committed == gen_tables.build(text), (
        "_tables.py is stale: run python -m pysh.interpreter.syntax.gen_tables")
