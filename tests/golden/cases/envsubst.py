"""Golden cases: envsubst (GNU gettext-runtime 0.21)."""

ENV = {"FOO": "bar", "EMPTY": "", "U": "ü"}
TEXT = b"a $FOO ${FOO} $NOPE ${NOPE} $$FOO \\$FOO ${FOO:-x} $1 ${FOO $EMPTY| $U $FOO_X\nno refs\n"


def case(name, *args, stdin=TEXT, **kw):
    return dict(name=name, argv=["envsubst", *args], stdin=stdin, env=ENV, **kw)


CASES = [
    case("all"),
    case("only_listed", "$FOO"),
    case("only_listed_braces", "x ${U} y"),
    case("variables", "-v", "x $A ${B} $A"),
    case("variables_missing_format", "-v"),
    case("too_many", "a", "b"),
    case("no_trailing_newline", stdin=b"$FOO"),
    case("non_utf8", stdin=b"\xff$FOO\xfe\n"),
    case("empty", stdin=b""),
    case("bad_option", "-x"),
    case("help", "--help"),
    case("version", "--version"),
]
