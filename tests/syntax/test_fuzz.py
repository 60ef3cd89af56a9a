"""Generated inputs: the parser never crashes, and what parses round-trips."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pysh.interpreter.syntax import ParseError, parse, parse_status
from pysh.interpreter.syntax.printer import format_program

TOKENS = [
    " ", " ", " ", "\n", "\t", ";", ";;", "&", "&&", "|", "||", "|&", "(", ")", "{", "}",
    "<", ">", ">>", "<<", "<<-", "<<<", ">&", "<&", "&>", "2>", "'", '"', "\\", "`", "$",
    "${", "}", "$(", "$((", "))", "[[", "]]", "((", "=", "+=", "[", "]", "*", "?", "~",
    "#", ",", "..", "!", "@(", "a", "b", "x", "1", "0", "if", "then", "else", "elif", "fi",
    "for", "in", "do", "done", "while", "until", "case", "esac", "function", "select",
    "time", "-p", "coproc", "declare", "a=", "a=(", "EOF", ":-", ":", "#", "%", "/", "^",
    "-f", "==", "=~", "-eq", "echo", "f()", "$x", "$@", "$1",
]

scripts = st.lists(st.sampled_from(TOKENS), max_size=40).map("".join)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scripts)
def test_random_token_soup_never_crashes_and_round_trips(src):
    try:
        prog = parse(src, extglob=True)
    except ParseError as e:
        assert e.message and e.line >= 1
        return
    printed = format_program(prog)
    assert parse(printed, extglob=True) == prog, printed


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=60))
def test_arbitrary_text_never_crashes(src):
    try:
        parse(src)
    except ParseError:
        pass
    assert parse_status(src) in ("complete", "incomplete", "error")
