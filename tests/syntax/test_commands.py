"""Commands, assignments, redirections, here-docs, [[ ]], (( ))."""

import pytest

from pysh.interpreter.syntax import ParseError, parse
from pysh.interpreter.syntax import ast as A


def one(src, **kw):
    prog = parse(src, **kw)
    assert len(prog.body) == 1, prog.body
    return prog.body[0]


def W(*parts):
    return A.Word(list(parts))


def L(text):
    return W(A.Lit(text))


# -- assignments ----------------------------------------------------------------

def test_assignment_forms():
    c = one("a=1 a+=x a[i+1]=v a=(x y) a+=(z) m=([k]=v [k2]+=w q) e= cmd")
    a = c.assigns
    assert (a[0].name, a[0].value) == ("a", L("1"))
    assert a[1].append and a[1].value == L("x")
    assert a[2].index.text == "i+1" and a[2].value == L("v")
    assert a[3].array == [A.ArrayElem(None, L("x")), A.ArrayElem(None, L("y"))]
    assert a[4].append and a[4].array == [A.ArrayElem(None, L("z"))]
    m = a[5].array
    assert m[0].key.text == "k" and m[0].value == L("v") and not m[0].append
    assert m[1].key.text == "k2" and m[1].append
    assert m[2].key is None
    assert a[6].value == W()
    assert c.words == [L("cmd")]


def test_array_literal_spans_lines_and_comments():
    c = one("a=(\n  1 # one\n  \"two 2\"\n)")
    assert [e.value for e in c.assigns[0].array] == [L("1"), W(A.DQ([A.Lit("two 2")]))]


def test_assignments_only_in_the_prefix():
    c = one("echo a=1")
    assert c.assigns == [] and c.words[1] == L("a=1")
    c = one(">out a=1 b=2 env")
    assert [x.name for x in c.assigns] == ["a", "b"]
    with pytest.raises(ParseError, match="unexpected token `\\('"):
        parse("echo a=(1)")


def test_declaration_builtins_take_assignments():
    c = one("declare -A m=([k]=v) x=$y z")
    assert c.words[0] == L("declare") and c.words[1] == L("-A")
    assert isinstance(c.words[2], A.Assign) and c.words[2].array[0].key.text == "k"
    assert c.words[3] == A.Assign("x", value=W(A.Param("y")))
    assert c.words[4] == L("z")
    c = one("local -r p=~/x")
    assert c.words[2].value.parts[0] == A.Tilde("")
    c = one("eval a=(1 2)")  # eval gets the text, as in bash
    assert isinstance(c.words[1], A.Word)
    with pytest.raises(ParseError):
        parse("builtin declare -a x=(1 2)")  # bash: syntax error too


# -- redirections ---------------------------------------------------------------

@pytest.mark.parametrize("src,redir", [
    ("<f", A.Redir("<", L("f"))),
    (">f", A.Redir(">", L("f"))),
    (">>f", A.Redir(">>", L("f"))),
    (">|f", A.Redir(">|", L("f"))),
    ("<>f", A.Redir("<>", L("f"))),
    ("<<<w", A.Redir("<<<", L("w"))),
    ("&>f", A.Redir("&>", L("f"))),
    ("&>>f", A.Redir("&>>", L("f"))),
    ("2>&1", A.Redir(">&", L("1"), fd=2)),
    ("0<&3", A.Redir("<&", L("3"), fd=0)),
    ("3>&-", A.Redir(">&", L("-"), fd=3)),
    ("10>f", A.Redir(">", L("f"), fd=10)),
    ("{fd}>f", A.Redir(">", L("f"), fd_var="fd")),
    ("{a[1]}<&-", A.Redir("<&", L("-"), fd_var="a[1]")),
])
def test_redirection_forms(src, redir):
    c = one("cmd " + src)
    assert c.redirs == [redir]


def test_redirect_word_boundaries():
    c = one("echo 2 >f a2>g")
    assert c.words == [L("echo"), L("2"), L("a2")]
    assert [r.fd for r in c.redirs] == [None, None]


def test_heredocs():
    first, second = parse("cat <<A; cat <<-'B' >out\nx $y \\$z\nA\n\tliteral $q\n\tB\n").body
    h1 = first.redirs[0].heredoc
    assert h1.delimiter == "A" and not h1.quoted and not h1.strip_tabs
    assert h1.parts == [A.Lit("x "), A.Param("y"), A.Lit(" $z\n")]
    h2 = second.redirs[0].heredoc
    assert h2.quoted and h2.strip_tabs and h2.parts == [A.Lit("literal $q\n")]
    assert second.redirs[1] == A.Redir(">", L("out"))


def test_heredoc_details():
    # a here-doc body ends at the delimiter line only; \<newline> joins lines
    h = one("cat <<E\nfoo\\\nE\nE\n").redirs[0].heredoc
    assert h.parts == [A.Lit("fooE\n")]
    h = one("cat <<'E'\nfoo\\\nE\n").redirs[0].heredoc
    assert h.parts == [A.Lit("foo\\\n")]
    h = one("cat <<\"$(x)\"\nbody\n$(x)\n").redirs[0].heredoc
    assert h.delimiter == "$(x)" and h.quoted
    h = one("cat <<E\n\"q\" `echo a`\nE\n").redirs[0].heredoc
    assert h.parts[0] == A.Lit('"q" ') and h.parts[1].backquote
    # an unparsable $(...) in a body is an error of the run, not of the parse
    h = one("cat <<E\n$(fi)\nE\n").redirs[0].heredoc
    assert h.parts[0].body is None and "fi" in h.parts[0].error.message


def test_heredoc_in_command_substitution():
    c = one("x=$(cat <<E\nhi\nE\n)")
    cs = c.assigns[0].value.parts[0]
    assert cs.body.body[0].redirs[0].heredoc.parts == [A.Lit("hi\n")]


def test_heredoc_at_end_of_input_warns():
    from pysh.interpreter.syntax import parse_with_warnings

    prog, warns = parse_with_warnings("cat <<E\nabc\n")
    assert prog.body[0].redirs[0].heredoc.parts == [A.Lit("abc\n")]
    # bash names the last line read (2), not the one after it
    assert warns == [(2, "warning: here-document at line 1 delimited by end-of-file "
                         "(wanted `E')")]


# -- pipelines and lists ----------------------------------------------------------

def test_pipelines():
    p = one("! a | b |& c")
    assert p.negated and p.stderr == [False, True] and len(p.commands) == 3
    p = one("time -p a")
    assert p.timed and p.time_posix and not p.negated
    p = one("time ! a")
    assert p.timed and p.negated
    assert one("! ! a") == one("a")
    p = one("time")
    assert p.timed and p.commands == [A.Simple([], [], [])]
    p = one("!")
    assert p.negated
    assert one("echo | time").commands[1] == A.Simple([], [L("time")], [])  # a command
    for bad in ["time && x", "time | cat", "! | x"]:
        with pytest.raises(ParseError):
            parse(bad)


def test_lists_and_background():
    body = parse("a; b & c && d || e &\nf").body
    assert [type(c) for c in body] == [A.Simple, A.Background, A.Background, A.Simple]
    ao = body[2].command
    assert ao.ops == ["&&", "||"] and len(ao.commands) == 3
    assert [c.line for c in body] == [1, 1, 1, 2]


# -- compound commands -----------------------------------------------------------

def test_if():
    c = one("if a; then b; elif c; then d; elif e; then f; else g; fi >log")
    assert len(c.clauses) == 3 and c.else_body == [A.Simple([], [L("g")], [])]
    assert c.redirs == [A.Redir(">", L("log"))]


def test_loops():
    c = one("while a; do b; done")
    assert not c.until and c.cond[0].words == [L("a")]
    assert one("until a; do b; done").until
    c = one("for x in a 'b c' $d; do :; done")
    assert c.var == "x" and len(c.words) == 3
    assert one("for x; do :; done").words is None
    assert one("for x\ndo :; done").words is None
    assert one("for x do :; done").words is None
    assert one("for x in; do :; done").words == []
    assert one("for x\nin a\ndo :; done").words == [L("a")]
    assert one("for x in a b; { echo $x; }").body[0].words[0] == L("echo")
    c = one("select x in a b; do break; done")
    assert isinstance(c, A.Select) and c.var == "x"
    c = one("for ((i = 0; i < 3; i++)); do echo; done")
    assert isinstance(c, A.ArithFor)
    assert c.init.node == A.AAssign("=", A.AVar("i"), A.ANum(0))
    assert c.cond.text == " i < 3" and c.step.text == " i++"
    c = one("for ((;;)) { break; }")
    assert c.init is None and c.cond is None and c.step is None
    with pytest.raises(ParseError, match="arithmetic expression required"):
        parse("for ((i=0;i<3)) do :; done")


def test_case():
    c = one("case $x in\n a|b) echo ab;;\n (c) ;&\n *) x ;;&\n esac")
    assert c.word == W(A.Param("x"))
    assert [[p for p in i.patterns] for i in c.items] == [[L("a"), L("b")], [L("c")], [L("*")]]
    assert [i.terminator for i in c.items] == [";;", ";&", ";;&"]
    assert c.items[1].body == []
    assert one("case x in esac").items == []
    assert one("case x in a) echo esac; esac").items[0].body[0].words[1] == L("esac")
    assert one("case x in (esac) ;; esac").items[0].patterns == [L("esac")]
    assert one("case if in if) ;; esac").word == L("if")
    last = one("case x in a) b; esac").items[0]
    assert last.terminator == ";;" and last.body[0].words == [L("b")]


def test_groups_subshells_functions():
    c = one("{ a; b; } 2>/dev/null")
    assert isinstance(c, A.BraceGroup) and len(c.body) == 2 and c.redirs[0].fd == 2
    c = one("(a; b)")
    assert isinstance(c, A.Subshell)
    c = one("f() { :; }")
    assert c == A.FunctionDef("f", A.BraceGroup([A.Simple([], [L(":")], [])]))
    c = one("function g { :; } >o")
    assert c.keyword and c.body.redirs == [A.Redir(">", L("o"))]
    c = one("function h() ( : )")
    assert c.keyword and isinstance(c.body, A.Subshell)
    c = one("f-b.c ()\n{ :; }")
    assert c.name == "f-b.c"
    assert isinstance(one("f() [[ -n x ]]").body, A.CondCmd)
    assert isinstance(one("f() (( 1 ))").body, A.ArithCmd)
    with pytest.raises(ParseError, match="unexpected token `echo'"):
        parse("f() echo")


def test_coproc_is_parsed():
    assert one("coproc cat") == A.Coproc(None, A.Simple([], [L("cat")], []))
    c = one("coproc NAME { cat; }")
    assert c.name == "NAME" and isinstance(c.body, A.BraceGroup)


def test_arith_command():
    c = one("(( i++ ))")
    assert c.expr.node == A.AIncDec("++", False, A.AVar("i"))
    c = one("((a=$b)) && echo")
    assert c.commands[0].expr.node is None
    c = one("((echo a); (echo b))")  # not arithmetic: nested subshells
    assert isinstance(c, A.Subshell) and isinstance(c.body[0], A.Subshell)


# -- [[ ]] ------------------------------------------------------------------------------

def cond(src, **kw):
    return one("[[ " + src + " ]]", **kw).expr


def test_cond_expressions():
    assert cond("-f x") == A.CondUnary("-f", L("x"))
    assert cond("x") == A.CondWord(L("x"))
    assert cond("a == b*") == A.CondBinary("==", L("a"), L("b*"))
    assert cond("a < b") == A.CondBinary("<", L("a"), L("b"))
    assert cond("a -nt b") == A.CondBinary("-nt", L("a"), L("b"))
    assert cond("! a && b || c") == A.CondOr(A.CondAnd(A.CondNot(A.CondWord(L("a"))),
                                                       A.CondWord(L("b"))), A.CondWord(L("c")))
    assert cond("a && ( b || c )") == A.CondAnd(A.CondWord(L("a")), A.CondOr(
        A.CondWord(L("b")), A.CondWord(L("c"))))
    assert cond("a &&\n b") == A.CondAnd(A.CondWord(L("a")), A.CondWord(L("b")))
    # the pattern side of == takes extglob syntax even when extglob is off
    assert cond("$x == @(a|b)").right == W(A.ExtGlob("@", [A.Lit("a|b")]))


def test_cond_regex_keeps_quoting():
    e = cond("$x =~ ^(a|b)+[0-9]\"q\"$")
    assert e.op == "=~"
    assert e.right.parts == [A.Lit("^(a|b)+[0-9]"), A.DQ([A.Lit("q")]), A.Lit("$")]
    assert cond("$x =~ (a b)").right.parts == [A.Lit("(a b)")]  # spaces inside ( )
    assert cond("$x =~ a||b").right.parts == [A.Lit("a||b")]


@pytest.mark.parametrize("src,msg", [
    ("[[ a b ]]", "conditional binary operator expected"),
    ("[[ -f ]]", "unexpected argument `]]' to conditional unary operator"),
    ("[[ ( a ]]", "unexpected token `]]', expected `)'"),
    ("[[ a == b c ]]", "syntax error in conditional expression"),
    ("[[ a == b ) ]]", "syntax error in conditional expression: unexpected token `)'"),
    ("[[ && ]]", "unexpected token `&&' in conditional command"),
    ("[[ a -eq ]]", "unexpected argument `]]' to conditional binary operator"),
    ("[[ a\n", "unexpected token `newline', conditional binary operator expected"),
])
def test_cond_errors_as_bash(src, msg):
    with pytest.raises(ParseError) as ei:
        parse(src)
    assert ei.value.message == msg and ei.value.source_line is None


# -- errors ------------------------------------------------------------------------

@pytest.mark.parametrize("src,line,msg,source", [
    ("echo a\nfi\n", 2, "syntax error near unexpected token `fi'", "fi"),
    ("echo x; fi", 1, "syntax error near unexpected token `fi'", "echo x; fi"),
    ("if true; then\n", 2, "syntax error: unexpected end of file", None),
    ("if true; then", 2, "syntax error: unexpected end of file", None),
    ("echo a |", 2, "syntax error: unexpected end of file", None),
    ('echo "a\nb\nc', 1, "unexpected EOF while looking for matching `\"'", None),
    ("echo 'a", 1, "unexpected EOF while looking for matching `''", None),
    ("echo $(echo a\n\necho b\n", 4, "unexpected EOF while looking for matching `)'", None),
    ("echo ${a\n", 1, "unexpected EOF while looking for matching `}'", None),
    ("echo `a\n", 1, "unexpected EOF while looking for matching ``'", None),
    ("x=(a\n", 1, "unexpected EOF while looking for matching `)'", None),
    ("echo (", 1, "syntax error near unexpected token `newline'", "echo ("),
    ("echo a (", 1, "syntax error near unexpected token `('", "echo a ("),
    ("while true; do done", 1, "syntax error near unexpected token `done'",
     "while true; do done"),
    ("a;;", 1, "syntax error near unexpected token `;;'", "a;;"),
    ("{ echo; } }", 1, "syntax error near unexpected token `}'", "{ echo; } }"),
    ("[[ a ]] ]]", 1, "syntax error near unexpected token `]]'", "[[ a ]] ]]"),
])
def test_errors_as_bash(src, line, msg, source):
    with pytest.raises(ParseError) as ei:
        parse(src)
    e = ei.value
    assert (e.line, e.message, e.source_line) == (line, msg, source)


def test_error_format():
    with pytest.raises(ParseError) as ei:
        parse("echo a\nfi\n")
    assert ei.value.format() == ("pysh: line 2: syntax error near unexpected token `fi'\n"
                                 "pysh: line 2: `fi'")
    assert ei.value.format("script.sh: line 2").startswith("script.sh: line 2: syntax")


@pytest.mark.parametrize("src", [
    "$(" * 300 + ")" * 300,
    "{ " * 300 + "a; " + "}; " * 300,
    "if a; then " * 300 + "b; " + "fi; " * 300,
    "echo " + "${x:-" * 300 + "}" * 300,
    "[[ " + "( " * 300 + "a" + " )" * 300 + " ]]",
    "echo " + '"$(' * 300 + ')"' * 300,
])
def test_hostile_nesting_is_a_clean_error(src):
    with pytest.raises(ParseError, match="nesting too deep"):
        parse(src)


def test_deep_but_flat_constructs_are_fine():
    assert len(parse(" | ".join(["a"] * 3000)).body[0].commands) == 3000
    assert len(parse("if a; then b; " + "elif c; then d; " * 2000 + "fi").body[0].clauses) \
        == 2001
    assert isinstance(parse("((" * 500 + "1" + "))" * 500).body[0], A.ArithCmd)


def test_size_limit(monkeypatch):
    from pysh.interpreter.syntax import lexer

    monkeypatch.setattr(lexer, "MAX_SOURCE", 1000)
    with pytest.raises(ParseError, match="script too large"):
        parse("echo hi\n" * 200)
