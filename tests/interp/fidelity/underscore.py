"""$_: the last argument of the previous simple command, and _ in commands' environment."""

from tests.interp.cases import case

CASES = [
    case("after-simple", r"""echo a b c >/dev/null; echo "$_"; echo "x y" >/dev/null; echo "$_"; printf '%s\n' >/dev/null; echo "$_" """),
    case("expanded-arg", r"""set -- p q r; : "$@"; echo "$_"; a=(1 2 "3 4"); : "${a[@]}"; echo "$_"; : $(echo w1 w2); echo "$_"; : *.txt; echo "$_" """,
         files={"a.txt": "", "b.txt": ""}),
    case("after-assignment", r"""echo one >/dev/null; x=5; echo "[$_]"; echo two >/dev/null; y=$(echo sub); echo "[$_]"; echo three >/dev/null; declare z=1; echo "[$_]" """),
    case("after-pipeline", r"""echo first >/dev/null; echo a b | cat >/dev/null; echo "[$_]"; echo q >/dev/null; true | echo last-in-pipe >/dev/null; echo "[$_]" """),
    case("after-subshell", r"""echo outer >/dev/null; (echo inner >/dev/null; echo "in [$_]"); echo "[$_]"; x=$(echo cs >/dev/null; echo "$_"); echo "$x [$_]" """),
    case("after-function", r"""f() { echo "in f [$_]"; echo body-last >/dev/null; }; f arg1 arg2; echo "[$_]"; g() { :; }; g; echo "[$_]"; g z; echo "[$_]" """),
    case("in-function-args", r"""f() { echo "$_ $# $1"; }; f a b c; f; set -- x y; f "$@" """),
    case("compound", r"""echo pre >/dev/null; if true; then :; fi; echo "[$_]"; for i in 1 2 3; do :; done; echo "[$_]"; for i in a b; do echo $i >/dev/null; done; echo "[$_]" """),
    case("arith-and-cond", r"""echo pre >/dev/null; ((1+2)); echo "[$_]"; echo pre2 >/dev/null; [[ -n abc ]]; echo "[$_]"; echo pre3 >/dev/null; [[ a == b || -z "" ]]; echo "[$_]"; (( x = 3 )); echo "[$_]" """),
    case("case-while", r"""echo pre >/dev/null; case abc in a*) : inner;; esac; echo "[$_]"; i=0; while ((i<2)); do ((i++)); done; echo "[$_]" """),
    case("env-of-command", r"""env | grep '^_='; bash -c 'echo "$_"' | grep -c bash; echo "$_" """),
    case("env-prefix", r"""_=custom env | grep '^_='; export _=exported; env | grep '^_='; echo "$_" """),
    case("assign-underscore", r"""_=mine; echo "$_"; _=mine; echo "[$_]" "$_" """),
    case("set-u", r"""set -u; echo "${_:-default}" >/dev/null; echo "$_"; : ; echo "[$_]" """),
    case("builtins", r"""cd . ; echo "$_"; cd /tmp; echo "$_"; cd - >/dev/null; true x y; echo "$_"; test -n zz; echo "$_"; [ a = a ]; echo "$_" """),
    case("declare-and-local", r"""declare -a arr=(1 2); echo "$_"; f() { local v=3 w; echo "$_"; }; f; export X=1; echo "$_"; readonly R=2; echo "$_" """),
    case("redirect-only", r"""echo pre >/dev/null; >/dev/null; echo "[$_]"; echo pre >/dev/null; { :; } >/dev/null; echo "[$_]" """),
    case("empty-arg", r"""echo a "" >/dev/null; echo "[$_]"; e=; echo x $e >/dev/null; echo "[$_]"; echo "y" "$e" >/dev/null; echo "[$_]" """),
    case("eval-source", r"""eval 'echo ev1 ev2 >/dev/null'; echo "[$_]"; echo 'echo s1 s2 >/dev/null' > s.sh; . ./s.sh; echo "[$_]"; eval ':'; echo "[$_]" """),
    case("background", r"""echo pre >/dev/null; sleep 0 & wait; echo "[$_]"; echo pre >/dev/null; true bgarg & echo "[$_]"; wait"""),
    case("in-trap", r"""trap 'echo "trap [$_]"' EXIT; echo last >/dev/null"""),
    case("xtrace", r"""set -x; echo a b >/dev/null; echo "[$_]"; set +x; echo "[$_]" """),
    case("loops-read", r"""printf 'l1\nl2\n' | while read line; do echo "$_" >/dev/null; done; echo "[$_]"; while read -r a b; do echo "[$_]"; done <<< "p q" """),
    case("ifs-star", r"""set -- a b; IFS=,; : "$*"; echo "$_"; : $*; echo "$_"; IFS=; a=(x y); : ${a[*]}; echo "$_" """),
    case("not-found", r"""nosuchcmd_z arg9 2>/dev/null; echo "[$_]"; ! echo neg >/dev/null; echo "[$_]"; time echo timed >/dev/null 2>&1; echo "[$_]" """, ignore_stderr=True),
    case("exec-and-command", r"""command echo cmd1 >/dev/null; echo "[$_]"; builtin echo b1 b2 >/dev/null; echo "[$_]"; exec 3>/dev/null; echo "[$_]"; exec 3>&- """),
    case("for-loop-var", r"""for _ in a b; do :; done; echo "[$_]"; for x in p q; do echo "$_"; done"""),
    case("declare-p", r"""echo hello >/dev/null; declare -p _; echo "[$_]"; f() { declare -p _; }; f one two"""),
]
CASES += [
    case("assign-sees-old", r"""echo keep >/dev/null; a=$_ b=$_; echo "$a $b [$_]"; echo k2 >/dev/null; c=$_ declare -p c 2>/dev/null; echo "[$_]" """),
    case("child-shell", r"""bash -c 'echo "$_"'; sh -c 'echo "[$_]"'; printf 'echo "$_"\n' > s.sh; bash s.sh; chmod +x s.sh; ./s.sh; PATH=$PATH:. s.sh"""),
]
