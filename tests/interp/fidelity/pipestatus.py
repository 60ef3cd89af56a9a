"""PIPESTATUS: before any pipeline, after simple and compound commands, subshells, !, pipefail."""

from tests.interp.cases import case

CASES = [
    case("initial", r"""echo "${PIPESTATUS[@]}" "${#PIPESTATUS[@]}"; declare -p PIPESTATUS"""),
    case("initial-unset-u", r"""set -u; echo "n=${#PIPESTATUS[@]}"; echo "[${PIPESTATUS[0]-unset}]"; echo "${PIPESTATUS[@]}" """),
    case("simple", r"""true; echo "${PIPESTATUS[@]}"; false; echo "${PIPESTATUS[@]}"; (exit 7); echo "${PIPESTATUS[@]}" """),
    case("pipeline-basic", r"""true | false | (exit 3); echo "${PIPESTATUS[@]} / ${#PIPESTATUS[@]} / $?"
false | true; s=("${PIPESTATUS[@]}"); echo "${s[@]}" """),
    case("read-twice", r"""false | (exit 2) | true; echo "${PIPESTATUS[*]}"; echo "${PIPESTATUS[*]}" """),
    case("after-assignment", r"""false | true; x=1; echo "${PIPESTATUS[@]}"; false | true; x=$(exit 4); echo "${PIPESTATUS[@]}" """),
    case("negation", r"""! true | false; echo "$? ${PIPESTATUS[@]}"; ! false; echo "$? ${PIPESTATUS[@]}"; ! (exit 3) | (exit 5); echo "$? ${PIPESTATUS[@]}" """),
    case("pipefail", r"""set -o pipefail; (exit 2) | true | (exit 0); echo "$? ${PIPESTATUS[@]}"; true | (exit 3) | (exit 4); echo "$? ${PIPESTATUS[@]}"
! (exit 2) | true; echo "$? ${PIPESTATUS[@]}" """),
    case("compound-if", r"""if false | true; then echo "in ${PIPESTATUS[@]}"; fi; echo "after ${PIPESTATUS[@]}"
if (exit 3); then :; else echo "else ${PIPESTATUS[@]}"; fi; echo "${PIPESTATUS[@]}" """),
    case("compound-loops", r"""for i in 1 2; do false | true; done; echo "for ${PIPESTATUS[@]}"
while false | (exit 1); do :; done; echo "while ${PIPESTATUS[@]}"
i=0; until (exit 0) | true; do :; done; echo "until ${PIPESTATUS[@]}" """),
    case("brace-group", r"""{ false | true; }; echo "${PIPESTATUS[@]}"; { true | false; } | (exit 6); echo "${PIPESTATUS[@]}" """),
    case("subshell", r"""(false | true | false); echo "${PIPESTATUS[@]}"; (exit 9) | (false | true); echo "${PIPESTATUS[@]}"
( false | (exit 3); echo "in ${PIPESTATUS[@]}" ); echo "out ${PIPESTATUS[@]}" """),
    case("function", r"""f() { false | (exit 4); }; f; echo "${PIPESTATUS[@]}"; g() { false | true; return 3; }; g; echo "${PIPESTATUS[@]}"
h() { true | false; echo "in ${PIPESTATUS[@]}"; }; h | cat; echo "${PIPESTATUS[@]}" """),
    case("and-or", r"""false | true && (exit 5) | true; echo "${PIPESTATUS[@]}"; true | false || true | (exit 2); echo "${PIPESTATUS[@]}"
false && true | true; echo "${PIPESTATUS[@]}" """),
    case("in-cmdsub", r"""false | true; echo "$(echo "${PIPESTATUS[@]}")"; x=$(false | (exit 3); echo "${PIPESTATUS[@]}"); echo "$x ${PIPESTATUS[@]}" """),
    case("assign-to-it", r"""PIPESTATUS=(7 8); echo "${PIPESTATUS[@]}"; true | false; echo "${PIPESTATUS[@]}"; PIPESTATUS=x; echo "${PIPESTATUS[@]}"; unset PIPESTATUS; echo "[${PIPESTATUS[@]}]"; false | true; echo "${PIPESTATUS[@]}" """),
    case("case-and-arith", r"""case x in x) false | true;; esac; echo "${PIPESTATUS[@]}"; ((0)); echo "${PIPESTATUS[@]}"; [[ -z x ]]; echo "${PIPESTATUS[@]}"
false | true; ((1)); echo "${PIPESTATUS[@]}" """),
    case("builtins-in-pipe", r"""echo x | read y | (exit 3); echo "${PIPESTATUS[@]}"; printf a | cat >/dev/null | exit 4; echo "${PIPESTATUS[@]}"
cd /nonexistent 2>/dev/null | true; echo "${PIPESTATUS[@]}" """),
    case("errexit-pipe", r"""set -e; false | true; echo "ok ${PIPESTATUS[@]}"; if true | false; then :; fi; echo "${PIPESTATUS[@]}"; set -o pipefail; false | true || echo "caught ${PIPESTATUS[@]}" """),
    case("long-pipeline", r"""(exit 1)|(exit 2)|(exit 3)|(exit 4)|(exit 5)|(exit 6)|(exit 7)|(exit 8)|(exit 9)|(exit 10)|(exit 11); echo "${PIPESTATUS[@]} ${#PIPESTATUS[@]} ${PIPESTATUS[-1]} ${!PIPESTATUS[@]}" """),
    case("command-not-found", r"""nosuchcmd_x 2>/dev/null | true; echo "${PIPESTATUS[@]}"; true | nosuchcmd_y 2>/dev/null; echo "${PIPESTATUS[@]}"; ./nonexec 2>/dev/null; echo "${PIPESTATUS[@]}" """,
         files={"nonexec": "echo hi\n"}),
    case("declare-p", r"""declare -p PIPESTATUS; false | (exit 3); declare -p PIPESTATUS; f() { true | false; }; f; declare -p PIPESTATUS; declare -p PIPESTATUS"""),
    case("time-and-negate", r"""time false | (exit 2) 2>/dev/null; echo "${PIPESTATUS[@]}"; ! { false | true; }; echo "$? ${PIPESTATUS[@]}" """, ignore_stderr=True),
    case("ifs-and-star", r"""false | true | (exit 3); IFS=,; echo "${PIPESTATUS[*]}"; a="${PIPESTATUS[*]}"; echo "$a"; IFS=; echo "${PIPESTATUS[*]}" """),
    case("exit-trap", r"""trap 'echo "trap ${PIPESTATUS[@]}"' EXIT; true | (exit 5)"""),
    case("while-read-pipe", r"""printf '1\n2\n' | while read n; do (exit $n) | true; done; echo "${PIPESTATUS[@]}"; printf 'a\n' | { read x; echo "got $x"; } | cat; echo "${PIPESTATUS[@]}" """),
    case("eval-and-source", r"""eval 'false | (exit 3)'; echo "${PIPESTATUS[@]}"; eval 'true | false; true'; echo "${PIPESTATUS[@]}"
echo 'false | (exit 4)' > s.sh; . ./s.sh; echo "${PIPESTATUS[@]}" """),
    case("subst-indices", r"""true | (exit 2) | false; echo "${PIPESTATUS[1]} ${PIPESTATUS[2]} ${PIPESTATUS[5]-none} ${PIPESTATUS:-first}"; echo "${PIPESTATUS[@]:1}" """),
]
