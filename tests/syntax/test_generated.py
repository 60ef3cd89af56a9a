"""Generated modules (ast.py from gen_ast.py) are up to date."""

from pysh.interpreter.syntax import gen_ast


def test_ast_module_is_generated_from_spec():
    with open(gen_ast.TARGET) as f:
        assert f.read() == gen_ast.build(), (
            "ast.py is stale: run python pysh/interpreter/syntax/gen_ast.py")


def test_nodes_behave_like_dataclasses():
    from pysh.interpreter.syntax import ast as A

    a = A.Simple([], [A.Word([A.Lit("x")], "x")], [], line=3)
    b = A.Simple([], [A.Word([A.Lit("x")], "other text")], [], line=9)
    assert a == b  # line and Word.text do not take part in comparisons
    assert a != A.Simple([], [], [])
    assert repr(A.Lit("x")) == "Lit(text='x')"
    assert A.BraceGroup([]).redirs == [] and A.BraceGroup([]).redirs is not A.BraceGroup([]).redirs
    match A.Lit("y"):
        case A.Lit(text):
            assert text == "y"
