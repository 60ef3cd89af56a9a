"""AST shapes of the common constructs."""

from pysh.interpreter.syntax import ast as A
from pysh.interpreter.syntax import parse


def one(src):
    prog = parse(src)
    assert len(prog.body) == 1, prog.body
    return prog.body[0]


def w(*parts):
    return A.Word(list(parts))


def test_simple_command():
    c = one("echo hi there")
    assert c == A.Simple([], [w(A.Lit("echo")), w(A.Lit("hi")), w(A.Lit("there"))], [])
    assert c.line == 1


def test_assignments_and_redirs():
    c = one("a=1 b+=x cmd >out 2>&1")
    assert [a.name for a in c.assigns] == ["a", "b"]
    assert c.assigns[1].append
    assert c.redirs == [A.Redir(">", w(A.Lit("out"))), A.Redir(">&", w(A.Lit("1")), fd=2)]


def test_pipeline_and_list():
    prog = parse("a | b |& c && d || e & f")
    bg, f = prog.body
    assert isinstance(bg, A.Background)
    andor = bg.command
    assert andor.ops == ["&&", "||"]
    pipe = andor.commands[0]
    assert isinstance(pipe, A.Pipeline) and pipe.stderr == [False, True]
    assert f == A.Simple([], [w(A.Lit("f"))], [])


def test_if_for_while_case():
    c = one("if a; then b; elif c; then d; else e; fi")
    assert len(c.clauses) == 2 and c.else_body is not None
    c = one("for x in 1 2; do echo $x; done")
    assert c.var == "x" and len(c.words) == 2
    c = one("for x; do :; done")
    assert c.words is None
    c = one("while a; do b; done")
    assert not c.until
    c = one("case $x in a|b) echo;; (c) ;& *) ;;& esac")
    assert [i.terminator for i in c.items] == [";;", ";&", ";;&"]
    assert len(c.items[0].patterns) == 2


def test_function_and_redirect_on_body():
    c = one("f() { echo; } >log")
    assert isinstance(c, A.FunctionDef) and c.name == "f"
    assert c.body.redirs == [A.Redir(">", w(A.Lit("log")))]
    c = one("function g { :; }")
    assert c.keyword


def test_heredoc():
    c = one("cat <<EOF\nhello $x\nEOF\n")
    hd = c.redirs[0].heredoc
    assert hd.delimiter == "EOF" and not hd.quoted
    assert hd.parts == [A.Lit("hello "), A.Param("x"), A.Lit("\n")]
    c = one("cat <<-'E'\n\t$x\n\tE\n")
    hd = c.redirs[0].heredoc
    assert hd.quoted and hd.strip_tabs and hd.parts == [A.Lit("$x\n")]
