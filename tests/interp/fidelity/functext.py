"""Function text: declare -f/-F, type, command -V in bash's layout; xtrace quoting."""

from tests.interp.cases import case

CASES = [
    case("simple-bodies", r"""f() { echo hi; }; declare -f f; g() { echo a; echo b; return 3; }; declare -f g; type f | head -1; command -V g"""),
    case("words-not-rewritten", r"""f() { for i in "$@"; do echo $i ${i} "${i}x" '$i' \$i; done; local x=$((1+2)) y=`echo hi`; }; declare -f f"""),
    case("if-while-case", r"""f() { if [ -n "$1" ]; then echo yes; elif true; then :; else echo no; fi; while false; do break; done; until true; do continue; done; case $1 in a|b) echo ab;; *) echo other;& z) ;;& esac; }; declare -f f"""),
    case("pipes-lists", r"""f() { a | b | c; x && y || z; ! true; p & q; { r; s; } > out; (sub; shell) 2>&1; }; declare -f f"""),
    case("redirections", r"""f() { cat < in > out 2>> err; exec 3>&1 4<&0 5<> rw; echo x >| clob; cat <<< "here $x"; echo y &> both; echo z 2>&-; }; declare -f f"""),
    case("heredoc", "f() {\n  cat <<EOF\nline $x\nEOF\n  cat <<-'QUOTED'\n\tliteral $y\n\tQUOTED\n  echo after\n}\ndeclare -f f\n"),
    case("arith-cond", r"""f() { (( x = 1 + 2 )); [[ $a == b* && -n $c || ! -z "$d" ]]; for ((i=0; i<3; i++)); do echo $i; done; let 'y = 2'; }; declare -f f"""),
    case("nested-functions", r"""outer() { inner() { echo in; }; inner; }; declare -f outer; outer; declare -f inner"""),
    case("function-keyword", "function f { echo kw; }\nfunction g() { echo both; }\nh() ( echo subshell body )\ndeclare -f f g h\n"),
    case("compound-bodies", "f() if true; then echo a; fi\ng() for x in 1 2; do echo $x; done\nh() [[ -n x ]]\ndeclare -f f g h\n"),
    case("body-redirect", "f() { echo hi; } > /dev/null 2>&1\ng() { cat; } < /dev/null\ndeclare -f f g; f; type f\n"),
    case("declare-F", r"""b() { :; }; a() { :; }; c() { :; }; declare -F; declare -F a c nope; echo "st=$?"; declare -F | wc -l; typeset -F b"""),
    case("declare-f-many", r"""a() { :; }; b() { echo b; }; declare -f; declare -f a nonexistent b; echo "st=$?" """),
    case("type-variants", r"""f() { :; }; type f; type -t f echo ls if; type -p ls; type -a echo | head -2; type nosuch; echo "st=$?"; type -P ls"""),
    case("command-V-v", r"""f() { echo f; }; command -V f; command -v f; command -V echo; command -V if; command -v nosuch; echo "st=$?"; command -V nosuch; echo "st=$?" """),
    case("alias-and-keyword", r"""shopt -s expand_aliases; alias ll='ls -l'; type ll; command -V ll; command -v ll; type -t ll; type '[['; type -t time"""),
    case("comments-and-blank-lines", "f() {\n  # a comment\n  echo one   # trailing\n\n\n  echo two\n}\ndeclare -f f\n"),
    case("special-chars-in-words", r"""f() { echo 'it'\''s' "a\"b" $'tab\there' "${x:-def}" ${#arr[@]} "${arr[@]:1:2}" ${y//a/b}; }; declare -f f"""),
    case("assignments-and-arrays", r"""f() { local -a arr=(1 "two three" [5]=five); declare -A m=([k]=v); x+=1 y=2 cmd arg; arr+=(more); }; declare -f f"""),
    case("export-f-and-env", r"""f() { echo exported; }; export -f f; bash -c 'f; declare -f f'; declare -fx | head -3"""),
    case("xtrace-quoting", r"""set -x; echo 'one two' "a'b" $'line1\nline2' '' 'x*' 'tab	t' a=b '#x' '~u' '!' 2>&1; set +x""", ignore_stderr=False),
    case("xtrace-specials", r"""set -x; : "é" $'\001' "a\\b" '$HOME' '{a,b}' 'x;y' '(p)' '<>' '|&' '%'; set +x"""),
    case("xtrace-compound", r"""set -x; for i in a 'b c'; do :; done; [[ $i == 'b c' ]]; (( 1 + 2 )); case x in x) : ;; esac; x=$'\n'; arr=(1 'two w'); set +x"""),
    case("xtrace-ps4-and-nesting", r"""PS4='[$LINENO]+ '; set -x; f() { echo "in f"; }; f; x=$(echo sub); set +x; PS4='+ '; bash -xc 'echo child' 2>&1"""),
    case("set-shows-functions", r"""f() { echo set-body; }; set | grep -A3 '^f ()'"""),
    case("unset-f-and-redefine", r"""f() { echo v1; }; f() { echo v2; }; declare -f f; unset -f f; declare -f f; echo "st=$?"; type f 2>&1; echo "st=$?" """),
    case("coproc-select-time", "f() { time sleep 0; select x in a b; do break; done; }\ndeclare -f f\n"),
    case("empty-and-semicolons", "f() { :; ; }\ng() {\n:\n}\ndeclare -f g\n"),
    case("long-pipeline-negation-bg", r"""f() { ! a | b && c & d; e |& f2; }; declare -f f"""),
    case("case-layout", "f() {\n  case \"$1\" in\n    start) echo s\n      echo two\n      ;;\n    stop|halt) ;;\n    *) echo def ;;\n  esac\n}\ndeclare -f f\n"),
]
CASES += [
    case("xtrace-levels", r"""set -x; x=$(echo a; y=$(echo b)); eval "echo e"; (echo sub); f() { echo inf; }; f; echo 'echo s' > s.sh; . ./s.sh; trap 'echo t' EXIT""", ignore_stderr=False),
    case("xtrace-cond-terms", r"""set -x; x='a b'; [[ $x == "a b"* ]]; [[ -n $x && $x != *z ]]; [[ ! -z "" ]]; e=; [[ $e = y ]]; [[ $x =~ a\ (b) ]]; [[ abc ]]; [[ 3 -gt 2 ]]; set +x"""),
    case("xtrace-arith-for", r"""set -x; for ((  i = 0 ;i<1;  i++ )); do :; done; x=5; (( $x + 1 )); (( x++ )); set +x"""),
    case("xtrace-assign-quoting", r"""set -x; a='x y' b= c=$'t\tt' d='~x' e=a~b; f="it's"; arr=(1 "two w" '') ; declare g='q r'; export h=$'\n'; set +x"""),
    case("xtrace-loops-heads", r"""set -x; for w in "$HOME"x *.none 'lit eral'; do :; done; set -- p q; for v; do :; done; case "$1" in p) ;; esac; select s in; do :; done; set +x"""),
]
