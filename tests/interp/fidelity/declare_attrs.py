"""declare's attributes: -c (capitalize), -l/-u/-c undoing each other, the order bash prints
the letters in (declare -p, ${x@a}), attributes on functions (declare -ft, -pf, -pF), what
setting an attribute does to the value already there."""

from tests.interp.cases import case

CASES = [
    case("capcase", r"""declare -c x="hello WORLD foo-bar_baz 1a"; echo "$x"; declare -p x; x+=" more"; echo "$x"
declare -c q; read q <<< 'hELLO there'; echo "$q"; q=ÉCOLE; echo $q; printf -v q '%s' 'aB'; echo $q"""),
    case("case-attrs-cancel", r"""declare -u -c y=abc; declare -p y; declare -c -l z=ABC; declare -p z; declare -l -u b=Ab; declare -p b
declare -u b; declare -p b; b=xy; echo $b; declare -ul c=Ab; declare -p c; declare -u d=x; declare -l d; declare -p d"""),
    case("capcase-arrays", r"""declare -c arr=(one two); declare -p arr; arr+=(tHREE); arr[0]+=X; declare -p arr
declare -A m=([k]=v); declare -cl m; declare -p m; m[z]=hello; declare -p m; declare +c arr; arr[5]=sIX; declare -p arr"""),
    case("attr-listing", r"""declare -c x=abc y; declare +c y; declare -c; declare -pc; declare -l L=Q; declare -pl"""),
    case("value-kept", r"""x=abc; declare -u x; echo $x; declare -p x; y=abc; declare -u y=$y; echo $y; z=(ab cd); declare -u z; declare -p z
w=Ab; declare -c w; declare -p w; a=(x); a+=(y); declare -u a; a+=(z); a[0]+=w; declare -p a"""),
    case("print-order", r"""declare -lx v=A; declare -p v; declare -ur w=b; declare -p w; echo "${v@a} ${w@a}"
declare -ilt n=5; declare -p n; declare -nl r=v; declare -p r; declare -ct y=ab; echo "${y@a}" "${y@A}"
declare -t t=1; echo "${t@a}"; declare -n rr=t; echo "${rr@a}"; declare -aix ai=(1); declare -p ai; export -p | grep ' v='"""),
    case("attrs-in-function", r"""f() { local -u u=abc; local -c c=xYZ; declare -p u c; local -l l; l=ABC; echo "$l ${l@a}"; }; f
g() { declare -xu G=q; }; g; declare -p G; printenv G"""),
    case("function-attrs", r"""f() { :; }; g() { echo g; }
declare -ft f; echo st=$?; declare -f f; echo ---; declare -pf f; echo ---; declare -pF f; echo ---; declare -F f
declare -fx g; declare -pf g; declare -pF; declare -F; echo ---; declare -Fp g; declare -fu f; echo st=$?; declare -pF f"""),
    case("function-attr-errors", r"""f() { :; }
declare -fi f; echo st=$?; declare -fa f; echo st=$?; declare -fA f; echo st=$?; declare -fn f; echo st=$?
declare -f x=1; echo st=$?; declare -f nosuch; echo st=$?; declare -pf nosuch; echo st=$?; declare -ft nosuch; echo st=$?
export -f nosuch; echo st=$?; readonly -f nosuch2; echo st=$?"""),
    case("function-listings", r"""f() { :; }; g() { :; }; declare -fx f; declare -fx; echo ---; declare -Fx; declare -ftx g; declare -Ft
export -pf; echo ---; readonly -pf; echo ---; declare -fr f; declare -Fr; typeset -f; echo ---; export -f"""),
    case("case-attr-mix", r"""declare -iu n; n=2+3; echo $n; declare -c s; s=$'\tab'; printf '%q\n' "$s"; s=' lead'; echo "[$s]"
declare -l L; L=ÀÉÎ; echo $L; declare -u U; U=ǆ; echo $U; declare -c C; C=ǆǆ; echo $C"""),
    case("set-u-and-attrs", r"""set -u; declare -c c; echo "${c-unset}"; declare -u u=; echo "[$u]"; declare -p c u"""),
]

CASES += [
    case("integer-assign-errors", "declare -i n\nn=1/0; echo same\necho next $?\ndeclare -i m=1/0; echo same2\necho next2 $?\n"
         "f() { local -i q=1/0; echo inf; }; f; echo same3\necho next3 $?\nn+=1/0; echo same4\necho next4 $?\n"
         "read n <<< 1/0; echo same5\necho next5 $?\nprintf -v n 1/0; echo same6\necho next6 $?\n"
         "eval 'n=1/0; echo in'; echo same7\necho next7 $?\nfor n in 2/0; do echo in; done\necho next8 $?\n"),
    case("export-readonly-options", r"""export -i x; echo st=$?; readonly -i x; echo st=$?; readonly -x y; echo st=$?; export -a z; echo st=$?
export -r z; echo st=$?; local -z; echo st=$?; f() { local -z q; echo st=$?; local -x e=1; declare -p e; }; f; declare -z; echo st=$?; typeset -z; echo st=$?"""),
]
