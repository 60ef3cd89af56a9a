from __future__ import annotations

import pytest

from pysh.shellkit.options import OptionError, parse_options

LONG = {"line-number": "n", "regexp=": "e", "color?": "color", "colour?": "color",
        "count": "c", "context=": "C"}


def test_short_long_and_permutation():
    opts, ops = parse_options(["-nv", "pat", "-e", "x", "--regexp=y", "f", "-Cx", "--color",
                               "--", "-n"], "nvce:C:", LONG)
    assert opts == [("n", None), ("v", None), ("e", "x"), ("e", "y"), ("C", "x"), ("color", None)]
    assert ops == ["pat", "f", "-n"]


def test_prefixes_and_errors():
    assert parse_options(["--line", "--colo=never"], "", LONG)[0] == [("n", None),
                                                                        ("color", "never")]
    for args, msg in [
        (["-k"], "invalid option -- 'k'"),
        (["-e"], "option requires an argument -- 'e'"),
        (["--nope"], "unrecognized option '--nope'"),
        (["--count=3"], "option '--count' doesn't allow an argument"),
        (["--regexp"], "option '--regexp' requires an argument"),
        (["--co"], "option '--co' is ambiguous; possibilities: '--color' '--colour' '--count' '--context'"),
    ]:
        with pytest.raises(OptionError) as ei:
            parse_options(args, "nve:", LONG)
        assert str(ei.value) == msg


def test_no_permute_and_dash_operand():
    assert parse_options(["-n", "a", "-v"], "nv", permute=False) == ([("n", None)], ["a", "-v"])
    assert parse_options(["-", "-n"], "n") == ([("n", None)], ["-"])
