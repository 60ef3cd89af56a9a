"""Traps: which a function or a subshell inherits (ERR under set -E, DEBUG and RETURN under
set -T or declare -ft), a pipeline element's own failure (no ERR), what LINENO is inside
EXIT, signal, ERR and RETURN traps."""

from tests.interp.cases import case

CASES = [
    case("err-not-in-functions", r"""trap 'echo err $LINENO' ERR; f() { false; echo in-f; }; f; echo st=$?; g() { false; }; g; echo st=$?"""),
    case("err-errtrace", r"""set -E; trap 'echo err' ERR; f() { false; echo in-f; }; f; (false); echo st=$?; x=$(false; echo in); echo $x"""),
    case("err-subshell-no-errtrace", r"""trap 'echo err' ERR; (false); echo st=$?; x=$(false; echo in); echo $x; (trap; false); { false; }"""),
    case("err-set-in-function", r"""trap 'echo err' ERR; f() { trap 'echo inner' ERR; false; }; f; false
trap 'echo outer' ERR; g() { trap - ERR; }; g; false; echo end"""),
    case("err-pipeline-elements", r"""set -E; trap 'echo err' ERR; false | true; echo a; { false; true; } | cat; echo b
set -o pipefail; true | false | true; echo c; f() { false; echo x; }; f | cat; echo d"""),
    case("errexit-pipeline-function", r"""set -eE; trap 'echo err' ERR; f() { false; echo x; }; f | cat; echo end; false | true; echo end2"""),
    case("debug-not-in-functions", r"""trap 'echo dbg $BASH_COMMAND' DEBUG; f() { echo x; }; f; trap - DEBUG
set -T; trap 'echo dbg2 $BASH_COMMAND' DEBUG; g() { echo y; }; g"""),
    case("debug-trace-attr", r"""trap 'echo dbg' DEBUG; f() { :; }; declare -ft f; f; trap - DEBUG; declare -pF f"""),
    case("return-trap-functrace", r"""set -T; trap 'echo ret' RETURN; (f() { :; }; f); x=$(g() { :; }; g); echo $x; h() { :; }; h"""),
    case("trap-lineno", "trap 'echo exit:$LINENO\necho exit2:$LINENO' EXIT\ntrap 'echo err:$LINENO\necho err2:$LINENO' ERR\n"
         "echo a\nfalse\nf() {\n  false\n}\nf\nset -T; trap 'echo ret:$LINENO' RETURN\nf\n"
         "trap 'echo usr:$LINENO' USR1\nkill -USR1 $$\necho b\nexit 3\n"),
    case("return-trap-lineno", "set -T\ntrap 'echo r $LINENO' RETURN\nf() {\n  echo a\n\n  echo b\n\n}\nf\ng() { return; }\ng\n"
         "h() {\n  return 3\n  echo no\n}\nh\n. /dev/null\n"),
    case("trap-error-lines", "trap 'nosuch_x' EXIT\ntrap 'nosuch_u' USR1\necho a\n\nkill -USR1 $$\necho b\n"),
]
