"""Word parts: quoting, expansions, tilde, brace expansion, extglob."""

import pytest

from pysh.interpreter.syntax import ast as A
from pysh.interpreter.syntax import parse


def words(src, **kw):
    cmd = parse(src, **kw).body[0]
    return [w.parts for w in cmd.words]


def arg(src, **kw):
    """The parts of the first argument of `echo ARG`."""
    return words("echo " + src, **kw)[1]


def test_quoting_is_recorded():
    assert arg("a'b c'\"d $x\"\\*$'\\t\\x41'$\"loc\"") == [
        A.Lit("a"), A.SQ("b c"), A.DQ([A.Lit("d "), A.Param("x")]), A.Esc("*"),
        A.AnsiC("\tA"), A.DQ([A.Lit("loc")], locale=True)]


def test_double_quote_backslashes():
    assert arg('"\\$ \\` \\" \\\\ \\a"') == [A.DQ([A.Lit('$ ` " \\ \\a')])]


def test_ansi_c_escapes():
    assert arg("$'\\a\\b\\e\\f\\n\\r\\t\\v\\\\\\'\\\"\\?\\101\\x42\\u263a\\cA'") == [
        A.AnsiC("\a\b\x1b\f\n\r\t\v\\'\"?AB\u263a\x01")]
    assert arg("$'\\xff'") == [A.AnsiC("\udcff")]  # a raw byte, surrogate-escaped
    assert arg("$'a\\0b'") == [A.AnsiC("a")]  # NUL ends the string, as in bash


def test_line_continuation_inside_words():
    assert arg("ab\\\ncd") == [A.Lit("abcd")]
    assert arg('"a\\\nb"') == [A.DQ([A.Lit("ab")])]
    assert arg("'a\\\nb'") == [A.SQ("a\\\nb")]
    assert arg("$\\\n?") == [A.Param("?")]


def test_simple_params():
    for name in ["x", "_a1", "1", "@", "*", "#", "?", "-", "$", "!", "0"]:
        assert arg("$" + name) == [A.Param(name)], name
    assert arg("$12") == [A.Param("1"), A.Lit("2")]
    assert arg("$ $/") == [A.Lit("$")]


P = A.Param


def W(*parts):
    return A.Word(list(parts))


@pytest.mark.parametrize("src,expect", [
    ("${x}", P("x")),
    ("${10}", P("10")),
    ("${#x}", P("x", length=True)),
    ("${#}", P("#")),
    ("${##}", P("#", length=True)),
    ("${#-}", P("-", length=True)),
    ("${!x}", P("x", indirect=True)),
    ("${!}", P("!")),
    ("${x:-w}", P("x", op=":-", arg=W(A.Lit("w")))),
    ("${x-w}", P("x", op="-", arg=W(A.Lit("w")))),
    ("${x:=w}", P("x", op=":=", arg=W(A.Lit("w")))),
    ("${x=w}", P("x", op="=", arg=W(A.Lit("w")))),
    ("${x:?w}", P("x", op=":?", arg=W(A.Lit("w")))),
    ("${x?}", P("x", op="?", arg=W())),
    ("${x:+w}", P("x", op=":+", arg=W(A.Lit("w")))),
    ("${x+w}", P("x", op="+", arg=W(A.Lit("w")))),
    ("${x#p*}", P("x", op="#", arg=W(A.Lit("p*")))),
    ("${x##p}", P("x", op="##", arg=W(A.Lit("p")))),
    ("${x%p}", P("x", op="%", arg=W(A.Lit("p")))),
    ("${x%%p}", P("x", op="%%", arg=W(A.Lit("p")))),
    ("${x/p/s}", P("x", op="/", arg=W(A.Lit("p")), arg2=W(A.Lit("s")))),
    ("${x//p/s}", P("x", op="//", arg=W(A.Lit("p")), arg2=W(A.Lit("s")))),
    ("${x/#p/s}", P("x", op="/#", arg=W(A.Lit("p")), arg2=W(A.Lit("s")))),
    ("${x/%p/s}", P("x", op="/%", arg=W(A.Lit("p")), arg2=W(A.Lit("s")))),
    ("${x/p}", P("x", op="/", arg=W(A.Lit("p")))),
    ("${x^}", P("x", op="^")),
    ("${x^^}", P("x", op="^^")),
    ("${x,}", P("x", op=",")),
    ("${x,,[ab]}", P("x", op=",,", arg=W(A.Lit("[ab]")))),
    ("${x@Q}", P("x", op="@Q")),
    ("${x@a}", P("x", op="@a")),
    ("${!pre*}", P("pre", op="!*")),
    ("${!pre@}", P("pre", op="!@")),
])
def test_braced_param_forms(src, expect):
    assert arg(src) == [expect]


def test_subscripts_and_slices():
    p = arg("${a[i+1]}")[0]
    assert p.name == "a" and p.index.text == "i+1"
    assert p.index.node is not None  # pre-parsed arithmetic
    p = arg("${a[@]}")[0]
    assert p.index.text == "@"
    p = arg("${#a[*]}")[0]
    assert p.length and p.index.text == "*"
    p = arg("${!a[@]}")[0]
    assert p.indirect and p.index.text == "@"
    p = arg("${x:1:2}")[0]
    assert p.op == ":" and p.offset.text == "1" and p.length_expr.text == "2"
    p = arg("${x: -1}")[0]
    assert p.offset.text == " -1" and p.length_expr is None
    p = arg("${x:$n}")[0]
    assert p.offset.node is None and p.offset.word.parts == [A.Param("n")]
    p = arg("${x:1?2:3}")[0]  # the ternary's ':' is not the separator
    assert p.offset.text == "1?2:3"


def test_operand_words_are_parsed():
    p = arg("${x:-a $y \"q\" 'r' ~}")[0]
    assert p.arg.parts == [A.Lit("a "), A.Param("y"), A.Lit(" "), A.DQ([A.Lit("q")]),
                           A.Lit(" "), A.SQ("r"), A.Lit(" ~")]
    p = arg("${x:-~/d}")[0]
    assert p.arg.parts[0] == A.Tilde("")
    w = arg("${u:-{a}b}")  # a bare { does not nest (bash): the operand is "{a", then "b}"
    assert w[0].arg.parts == [A.Lit("{a")] and w[1:] == [A.Lit("b}")]
    p = arg("${x:-${y:-z}}")[0]
    assert p.arg.parts == [P("y", op=":-", arg=W(A.Lit("z")))]


def test_operands_inside_double_quotes():
    # a value operand inside "..." is double-quoted; its single quotes are literal
    p = arg("\"${x:-'a b'}\"")[0].parts[0]
    assert p.arg.parts == [A.DQ([A.Lit("'a b'")])]
    # pattern operands keep their own quoting, even inside "..."
    p = arg("\"${x#'y'}\"")[0].parts[0]
    assert p.arg.parts == [A.SQ("y")]
    p = arg("\"${x#*b}\"")[0].parts[0]
    assert p.arg.parts == [A.Lit("*b")]


def test_bad_substitutions_are_kept_for_run_time():
    for src in ["${}", "${x!}", "${ x}", "${x@Z}", "${#x:1}"]:
        assert arg(src) == [A.BadSubst(src)], src


def test_command_substitution():
    (cs,) = arg("$(echo a; echo b)")
    assert isinstance(cs, A.CommandSub) and not cs.backquote
    assert [type(c) for c in cs.body.body] == [A.Simple, A.Simple]
    (cs,) = arg("$(case x in x) echo y;; esac)")
    assert isinstance(cs.body.body[0], A.Case)
    (cs,) = arg("$( (a) )")
    assert isinstance(cs.body.body[0], A.Subshell)
    (cs,) = arg("$((echo a); (echo b))")  # not arithmetic after all
    assert isinstance(cs, A.CommandSub) and len(cs.body.body) == 2
    (cs,) = arg("$()")
    assert cs.body.body == []


def test_backquotes():
    (cs,) = arg("`echo \\`echo hi\\``")
    assert cs.backquote
    inner = cs.body.body[0].words[1].parts[0]
    assert inner.backquote and inner.body.body[0].words[1].parts == [A.Lit("hi")]
    (dq,) = arg('"`echo \\"q\\"`"')
    assert dq.parts[0].body.body[0].words[1].parts == [A.DQ([A.Lit("q")])]
    # a syntax error inside backquotes is reported when they run, as in bash
    (cs,) = arg("`fi`")
    assert cs.body is None and cs.error.message == "syntax error near unexpected token `fi'"


def test_arithmetic_substitution():
    (a,) = arg("$(( 1 + 2 ))")
    assert isinstance(a, A.ArithSub) and a.expr.text == " 1 + 2 "
    assert a.expr.node == A.ABinary("+", A.ANum(1), A.ANum(2))
    (a,) = arg("$((x*$y))")
    assert a.expr.node is None  # has an expansion: parsed at run time
    assert a.expr.word.parts == [A.Lit("x*"), A.Param("y")]
    (a,) = arg("$((1+))")
    assert a.expr.node is None  # a syntax error surfaces at run time
    (a,) = arg("$[2*3]")
    assert a.expr.node == A.ABinary("*", A.ANum(2), A.ANum(3))
    (a,) = arg('$(( "1" + 2 ))')
    assert a.expr.node is not None


def test_process_substitution():
    (p,) = arg("<(ls -l)")
    assert p.op == "<" and p.body.body[0].words[0].parts == [A.Lit("ls")]
    (p,) = arg(">(cat)")
    assert p.op == ">"


def test_tilde():
    assert arg("~") == [A.Tilde("")]
    assert arg("~/x") == [A.Tilde(""), A.Lit("/x")]
    assert arg("~bob/x") == [A.Tilde("bob"), A.Lit("/x")]
    assert arg("~+") == [A.Tilde("+")]
    assert arg("a~") == [A.Lit("a~")]
    assert arg('~"/x"') == [A.Lit("~"), A.DQ([A.Lit("/x")])]
    assert arg("\\~") == [A.Esc("~")]
    # after = and : in arguments that look like assignments (bash, not POSIX)
    assert arg("a=~:~/b") == [A.Lit("a="), A.Tilde(""), A.Lit(":"), A.Tilde(""), A.Lit("/b")]
    assert arg("1a=~") == [A.Lit("1a=~")]


def test_tilde_in_assignments():
    a = parse("PATH=~/bin:~x/y:a~").body[0].assigns[0]
    assert a.value.parts == [A.Tilde(""), A.Lit("/bin:"), A.Tilde("x"), A.Lit("/y:a~")]


def test_brace_expansion():
    assert arg("{a,b}") == [A.Brace([[A.Lit("a")], [A.Lit("b")]])]
    assert arg("x{a,}y") == [A.Lit("x"), A.Brace([[A.Lit("a")], []]), A.Lit("y")]
    assert arg("{a,{b,c}}") == [A.Brace([[A.Lit("a")], [A.Brace([[A.Lit("b")],
                                                                  [A.Lit("c")]])]])]
    assert arg("{1..10..2}") == [A.BraceRange("1", "10", "2")]
    assert arg("{a..e}") == [A.BraceRange("a", "e")]
    assert arg("{01..3}") == [A.BraceRange("01", "3")]
    assert arg("{$x,y}") == [A.Brace([[A.Param("x")], [A.Lit("y")]])]
    for lit in ["{}", "{a}", "{a..}", "{1..b}", "\"{a,b}\"", "\\{a,b}", "{a,b"]:
        assert not any(isinstance(p, (A.Brace, A.BraceRange)) for p in arg(lit)), lit
    assert arg("${x},{a}") == [A.Param("x"), A.Lit(",{a}")]


def test_no_brace_expansion_where_bash_does_none():
    a = parse("x={a,b}").body[0].assigns[0]
    assert a.value.parts == [A.Lit("{a,b}")]
    c = parse("case {a,b} in {a,b}) ;; esac").body[0]
    assert c.word.parts == [A.Lit("{a,b}")] and c.items[0].patterns[0].parts == [A.Lit("{a,b}")]
    r = parse("cat <<< {a,b}").body[0].redirs[0]
    assert r.target.parts == [A.Lit("{a,b}")]
    r = parse("echo > {a,b}").body[0].redirs[0]
    assert isinstance(r.target.parts[0], A.Brace)  # bash: ambiguous redirect
    f = parse("for i in {1..3}; do :; done").body[0]
    assert f.words[0].parts == [A.BraceRange("1", "3")]


def test_extglob():
    assert arg("@(a|b*)", extglob=True) == [A.ExtGlob("@", [A.Lit("a|b*")])]
    assert arg("x!(*.c)y", extglob=True) == [A.Lit("x"), A.ExtGlob("!", [A.Lit("*.c")]),
                                             A.Lit("y")]
    assert arg("+(a|*(b))", extglob=True) == [
        A.ExtGlob("+", [A.Lit("a|"), A.ExtGlob("*", [A.Lit("b")])])]
    assert arg("@(a b)", extglob=True) == [A.ExtGlob("@", [A.Lit("a b")])]
    from pysh.interpreter.syntax import ParseError

    with pytest.raises(ParseError, match="unexpected token `\\('"):
        parse("echo @(a)")  # extglob off: a syntax error, as in bash
