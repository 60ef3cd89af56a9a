"""xtrace of array literals (as written, $'...' decoded, traced before their words are
expanded), of empty (( )) parts of an arithmetic for (traced as 1), and function text of
those; PS4 whose expansion fails."""

from tests.interp.cases import case

CASES = [
    case("array-literal-trace", r"""set -x; arr=("a'b\"c" 'd$e' 'f\g' "h'\$i" plain '' $'t\tt' '*' "$(echo x)" ~ a{1,2}); arr+=([3]="k'" [5]=$'\n'); set +x""", ignore_stderr=False),
    case("array-decl-trace", r"""set -x; declare -a d=("q'r" $'s\nt'); f() { local -a l=("u'v" $'w\tx'); }; f; set +x""", ignore_stderr=False),
    case("array-trace-order", r"""set -x; a=($(echo one) "$(echo two)"); b=(`echo three`) c=$(echo four); set +x""", ignore_stderr=False),
    case("arith-for-empty-parts-trace", r"""set -x; for (( ; ; )); do break; done; for ((i=0; ; )); do break; done; for (( ;i<1; )); do i=5; done; for ((j=0;j<1;j++)); do :; done; set +x""", ignore_stderr=False),
    case("arith-for-empty-parts-text", r"""f() { for ((;;)); do break; done; for (( ; ; i++ )); do :; done; for ((i=0;;)); do :; done; for (( ;x; )); do :; done; }; declare -f f; type f | tail -n +2 | head -3"""),
    case("ps4-failing-expansions", "x=1\nPS4='+$(x'\nset -x\necho one\nPS4='+oops $(( 1 / 0 )) '\necho two\nPS4='+${undefined_ps4-}: '\nset -u\necho three\nset +x\n", ignore_stderr=True),
    case("ps4-unset-var-under-set-u", "set -u\nPS4='+[$nope] '\nset -x\necho visible\nset +x\necho st=$?\n", ignore_stderr=True),
]
