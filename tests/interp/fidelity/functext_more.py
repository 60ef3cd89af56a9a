"""Function text of nested definitions whose bodies end in a here-document, and of
here-documents among other commands (where bash puts or drops the ';')."""

from tests.interp.cases import case

CASES = [
    case("nested-def-with-heredoc", "h1() { outer() { cat <<X\nnested $1\nX\n}; outer; }\ndeclare -f h1\n"),
    case("nested-def-heredoc-then-command", "k1() { a() { cat <<X\nx\nX\n}\nb; }\nk2() { a() { cat <<X\nx\nX\n} > out; b; }\ndeclare -f k1 k2\n"),
    case("heredoc-then-commands", "k4() { cat <<X; echo after\nx\nX\n}\nk5() { if true; then cat <<X; fi; echo z\nx\nX\n}\ndeclare -f k4 k5\n"),
    case("nested-def-heredoc-runs", "f() { g() { cat <<EOF\nin g $1\nEOF\n}; g arg; }; f; type g | tail -n +2\n"),
]
