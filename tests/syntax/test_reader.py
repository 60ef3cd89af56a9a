"""CommandReader (one complete command at a time), parse_status, pysh -n, parse_arith."""

import io

import pytest

from pysh.interpreter.syntax import (
    ArithError,
    CommandReader,
    ParseError,
    is_complete,
    parse_arith,
    parse_status,
)
from pysh.interpreter.syntax import ast as A
from pysh.interpreter.syntax.check import main_n


class Lines:
    """A lazy line source that records how much was read."""

    def __init__(self, text):
        self.lines = text.splitlines(keepends=True)
        self.pulled = 0

    def __call__(self):
        if self.pulled >= len(self.lines):
            return None
        self.pulled += 1
        return self.lines[self.pulled - 1]


def test_reader_reads_no_further_than_the_command():
    src = Lines("echo a\nread x\nDATA LINE\nif true; then\n echo in\nfi; cat <<E\nbody\nE\n"
                "echo $(\necho sub)\nfi\necho never\n")
    r = CommandReader(src)
    got = []
    with pytest.raises(ParseError) as ei:
        for prog in r:
            got.append((prog.line, src.pulled, [type(c).__name__ for c in prog.body]))
            c = prog.body[0]
            if isinstance(c, A.Simple) and c.words[0].parts == [A.Lit("read")]:
                assert src() == "DATA LINE\n"  # the script's own read takes this line
    assert got == [(1, 1, ["Simple"]), (2, 2, ["Simple"]), (3, 8, ["If", "Simple"]),
                   (8, 10, ["Simple"])]
    # the error comes only when the bad command is reached
    assert ei.value.message == "syntax error near unexpected token `fi'"
    assert ei.value.line == 10 and src.pulled == 11
    assert list(r) == []


def test_reader_whole_line_before_running():
    # bash parses `a; fi` completely before running a: nothing is yielded
    r = CommandReader(Lines("echo a; fi\n"))
    with pytest.raises(ParseError):
        next(r)


def test_reader_from_string_and_warnings():
    r = CommandReader("cat <<E\nx\n")
    prog = next(r)
    assert prog.body[0].redirs[0].heredoc.parts == [A.Lit("x\n")]
    assert r.take_warnings() == [(2, "warning: here-document at line 1 delimited by "
                                     "end-of-file (wanted `E')")]
    assert r.take_warnings() == []


def test_reader_blank_lines_and_comments():
    progs = list(CommandReader("\n# c\n\necho a # c\n\n\necho b"))
    assert [p.line for p in progs] == [4, 7]


def test_reader_extglob_callable():
    state = {"on": False}
    r = CommandReader("shopt -s extglob\necho @(a)\n", extglob=lambda: state["on"])
    next(r)
    state["on"] = True  # the interpreter ran shopt
    prog = next(r)
    assert isinstance(prog.body[0].words[1].parts[0], A.ExtGlob)


@pytest.mark.parametrize("src,status", [
    ("echo hi", "complete"),
    ("echo hi\n", "complete"),
    ("", "complete"),
    ('echo "a', "incomplete"),
    ("echo 'a", "incomplete"),
    ("if x", "incomplete"),
    ("if x; then y", "incomplete"),
    ("while x; do", "incomplete"),
    ("for i in 1 2", "incomplete"),
    ("case x in", "incomplete"),
    ("case x in a) echo;;", "incomplete"),
    ("{ echo", "incomplete"),
    ("( echo", "incomplete"),
    ("f() {", "incomplete"),
    ("echo a |", "incomplete"),
    ("echo a &&", "incomplete"),
    ("echo a ||", "incomplete"),
    ("echo a \\\n", "incomplete"),
    ("cat <<E\nx", "incomplete"),
    ("echo $(", "incomplete"),
    ("echo ${x", "incomplete"),
    ("echo `x", "incomplete"),
    ("x=(1", "incomplete"),
    ("[[ a", "error"),
    ("[[ a &&", "incomplete"),
    ("((1+", "incomplete"),
    ("fi", "error"),
    ("echo a; fi", "error"),
    ("echo (", "error"),
])
def test_parse_status(src, status):
    assert parse_status(src) == status
    assert is_complete(src) == (status != "incomplete")


def test_pysh_n(tmp_path):
    err = io.StringIO()
    assert main_n(["-c", "echo a\nfi"], stderr=err) == 2
    assert err.getvalue() == ("pysh: -c: line 2: syntax error near unexpected token `fi'\n"
                              "pysh: -c: line 2: `fi'\n")
    f = tmp_path / "s.sh"
    f.write_text("echo ok\nif\n")
    err = io.StringIO()
    assert main_n([str(f)], stderr=err) == 2
    assert err.getvalue() == f"{f}: line 3: syntax error: unexpected end of file\n"
    err = io.StringIO()
    assert main_n([], stdin=io.StringIO("cat <<E\nx\n"), stderr=err) == 0
    assert err.getvalue() == ("pysh: warning: here-document at line 1 delimited by "
                              "end-of-file (wanted `E')\n")
    err = io.StringIO()
    assert main_n([str(tmp_path / "nope")], stderr=err) == 127
    assert "No such file or directory" in err.getvalue()
    assert main_n(["-c", "echo fine"], stderr=io.StringIO()) == 0


def test_cli_dash_n(tmp_path, capsys):
    from pysh.cli import main

    assert main(["-n", "-c", "if"]) == 2
    assert "unexpected end of file" in capsys.readouterr().err


# -- arithmetic ---------------------------------------------------------------------

def test_arith_nodes():
    assert parse_arith("1 + 2 * 3") == A.ABinary("+", A.ANum(1), A.ABinary("*", A.ANum(2),
                                                                            A.ANum(3)))
    assert parse_arith("-2**2") == A.ABinary("**", A.AUnary("-", A.ANum(2)), A.ANum(2))
    assert parse_arith("2**3**2") == A.ABinary("**", A.ANum(2), A.ABinary("**", A.ANum(3),
                                                                          A.ANum(2)))
    assert parse_arith("a ? b : c ? d : e") == A.ATernary(
        A.AVar("a"), A.AVar("b"), A.ATernary(A.AVar("c"), A.AVar("d"), A.AVar("e")))
    assert parse_arith("a = b += 1") == A.AAssign("=", A.AVar("a"), A.AAssign(
        "+=", A.AVar("b"), A.ANum(1)))
    assert parse_arith("x++ + ++y") == A.ABinary("+", A.AIncDec("++", False, A.AVar("x")),
                                                 A.AIncDec("++", True, A.AVar("y")))
    assert parse_arith("a+++b") == A.ABinary("+", A.AIncDec("++", False, A.AVar("a")),
                                             A.AVar("b"))
    assert parse_arith("arr[i+1] <<= 2") == A.AAssign("<<=", A.AVar("arr", "i+1"), A.ANum(2))
    assert parse_arith("1, 2") == A.ABinary(",", A.ANum(1), A.ANum(2))
    assert parse_arith("!a && ~b || c") == A.ABinary("||", A.ABinary(
        "&&", A.AUnary("!", A.AVar("a")), A.AUnary("~", A.AVar("b"))), A.AVar("c"))
    assert parse_arith("   ") is None


@pytest.mark.parametrize("text,value", [
    ("0x1f", 31), ("017", 15), ("2#101", 5), ("64#@", 62), ("64#_", 63), ("36#z", 35),
    ("64#Z", 61), ("0", 0), ("0x", 0), ("12345678901234567890", -6101065172474983726),
])
def test_arith_numbers(text, value):
    assert parse_arith(text) == A.ANum(value)


@pytest.mark.parametrize("text,msg", [
    (" 1+ ", '1+ : syntax error: operand expected (error token is "+ ")'),
    ("1 2", '1 2: syntax error in expression (error token is "2")'),
    ("1=2", '1=2: attempted assignment to non-variable (error token is "=2")'),
    ("a++b", 'a++b: syntax error in expression (error token is "b")'),
    ("1?2", "1?2: `:' expected for conditional expression (error token is \"2\")"),
    ("1?2:", '1?2:: expression expected (error token is ":")'),
    ("09", '09: value too great for base (error token is "09")'),
    ("08+1", '08: value too great for base (error token is "08")'),
    ("2#", '2#: invalid integer constant (error token is "2#")'),
    ("65#1", '65#1: invalid arithmetic base (error token is "65#1")'),
    ("37#Z", '37#Z: value too great for base (error token is "37#Z")'),
    ("1.5", '1.5: syntax error: invalid arithmetic operator (error token is ".5")'),
    ("'2'", "'2': syntax error: operand expected (error token is \"'2'\")"),
    ("a[1", 'a[1: bad array subscript (error token is "a[1")'),
    ("--x--", '--x--: --: assignment requires lvalue (error token is "--")'),
    ("(1", "(1: missing `)' (error token is \"1\")"),
    ("(" * 300 + "1" + ")" * 300, None),
])
def test_arith_errors_as_bash(text, msg):
    with pytest.raises(ArithError) as ei:
        parse_arith(text)
    if msg is None:
        assert "recursion level exceeded" in str(ei.value)
    else:
        assert str(ei.value) == msg
    with pytest.raises(ArithError):  # errors are cached too
        parse_arith(text)
