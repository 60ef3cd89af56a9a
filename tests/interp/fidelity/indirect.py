"""Indirect expansion ${!x}, ${!a[@]}, ${!prefix*}, and namerefs (declare -n)."""

from tests.interp.cases import case

CASES = [
    case("basic", r"""x=y; y=hello; echo "${!x}"; p=1; set -- one two; echo "${!p}"; n='#'; echo "${!n}"; a=@; echo "${!a}"; s='*'; echo "${!s}" """),
    case("element-names-var", r"""a=(x y); x=XV; y=YV; echo "${!a}" "${!a[1]}"; i=1; echo "${!a[i]}" "${!a[-1]}"; b=(); echo "[${!b[0]-unset}]" """),
    case("ref-to-element", r"""arr=(p q r); r='arr[1]'; echo "${!r}"; r='arr[@]'; echo "${!r}"; printf '<%s>' "${!r}"; echo; r='arr[*]'; IFS=-; echo "${!r}"; echo ${#arr[@]}"""),
    case("keys", r"""a=(x y z); unset 'a[1]'; echo "${!a[@]}" "${!a[*]}"; declare -A m=([k1]=1 [k2]=2); for k in "${!m[@]}"; do echo "k=$k"; done | sort; s=str; echo "${!s[@]}"; echo "[${!nope[@]}]" """),
    case("prefix", r"""pfx_a=1 pfx_b=2 pfx_c=; pfxnot=3; echo "${!pfx_*}"; echo "${!pfx_@}"; printf '<%s>' "${!pfx_@}"; echo; IFS=,; echo "${!pfx_*}"; printf '<%s>' "${!pfx_*}"; echo"""),
    case("prefix-arrays-and-unset", r"""zz1=(a b); declare zz2; zz3=x; declare -A zz4=([k]=v); echo "${!zz*}"; unset zz3; echo "${!zz@}"; f() { local zzloc=1; echo "${!zz*}"; }; f; echo "[${!nomatchprefix*}]" """),
    case("suffix-ops", r"""x=val_one.txt; r=x; echo "${!r%.*}" "${!r#*_}" "${!r/one/two}" "${!r^^}" "${!r:2:3}" "${#r}" "${!r@Q}" """),
    case("default-ops", r"""r=unsetvar; echo "${!r:-dflt}" "${!r-d2}" "[${!r:+alt}]"; unsetvar=; echo "[${!r:-dflt}]" "[${!r-d2}]" "[${!r+alt}]"; echo "${!r:=assigned}"; echo "$unsetvar" """),
    case("at-a-transform", r"""declare -i num=3; declare -a arr=(1); declare -r ro=1; r=num; echo "${!r@a}"; r=arr; echo "${!r@a}"; r=ro; echo "${!r@a}"; r=nonexist; echo "[${!r@a}]"; export ex=1; r=ex; echo "${!r@a}" "${!r@A}" """),
    case("invalid", r"""x='bad name'; echo "${!x}"; echo "st=$?"; y='1a'; echo "${!y}"; echo after"""),
    case("unset-ref", r"""echo "[${!nothing}]"; echo "st=$?"; set -u; r=; echo "${!r}" ; echo after"""),
    case("set-u-target-unset", r"""set -u; r=missing; echo "${!r:-ok}"; (echo "${!r}"); echo "st=$?" """),
    case("nameref-basic", r"""x=1; declare -n r=x; echo "$r"; r=2; echo "$x"; declare -p r x; unset r; declare -p x 2>&1; echo "[$x]" """),
    case("nameref-unset-n", r"""x=1; declare -n r=x; unset -n r; declare -p r 2>&1; echo "$x"; declare -n q=x; q+=5; echo "$x ${!q}" """),
    case("nameref-arrays", r"""a=(1 2 3); declare -n r=a; echo "${r[1]}" "${#r[@]}" "${r[@]}"; r[5]=six; echo "${!a[@]}"; r+=(seven); echo "${a[@]}"; declare -p a"""),
    case("nameref-element", r"""a=(1 2 3); declare -n e='a[1]'; echo "$e"; e=TWO; echo "${a[@]}"; declare -A m=([k]=v); declare -n me='m[k]'; me=new; echo "${m[k]}" """),
    case("nameref-functions", r"""setit() { local -n ref=$1; ref="set by f"; }; setit var1; echo "$var1"; arr=(); push() { local -n _a=$1; _a+=("$2"); }; push arr x; push arr y; echo "${arr[@]}" "${#arr[@]}" """),
    case("nameref-local-shadow", r"""f() { local x=inner; local -n r=x; echo "$r"; }; x=outer; f; g() { local -n r=x; local x=g-inner; echo "$r"; }; g; echo "$x" """),
    case("nameref-indirect-bang", r"""x=val; declare -n r=x; echo "${!r}"; declare -n r2=r; echo "$r2"; echo "${!r2}" """),
    case("nameref-for-loop", r"""a=1 b=2 c=3; for v in a b c; do declare -n ref=$v; echo "$v=$ref"; done; declare -n loopref; for loopref in a b; do echo "$loopref"; done; echo "$a $b" """),
    case("nameref-self", r"""declare -n x=x; echo "st=$?"; declare -n y; y=y; echo "st=$?" """),
    case("nameref-invalid-target", r"""declare -n r='bad name'; echo "st=$?"; declare -n r2=1abc; echo "st=$?"; declare -n r3='a[1]'; echo "st=$?" """),
    case("nameref-attrs", r"""declare -n r=target; declare -i r; r=1+2; echo "$target"; declare -p target r; declare -u up; declare -n ru=up; ru=abc; echo "$up" """),
    case("nameref-unset-target", r"""x=1; declare -n r=x; unset r; echo "[${x-unset}]"; declare -p r; r=again; echo "$x" """),
    case("nameref-to-positional", r"""set -- a b; declare -n r=1; echo "st=$?"; echo "[$r]" """),
    case("nameref-dollar-bang-at", r"""arr=(a b c); declare -n r=arr; echo "${!r[@]}"; echo "${r[@]:1}"; echo "${#r}"; unset 'r[0]'; echo "${arr[@]}" """),
    case("indirect-in-arith", r"""x=y; y=5; echo $(( ${!x} + 1 )); a=(3 4); r='a[1]'; echo $(( ${!r} * 2 )); declare -n n=y; echo $(( n + 10 )); (( n++ )); echo "$y" """),
    case("indirect-subshell-and-local", r"""f() { local lv=L; local name=lv; echo "${!name}"; (echo "sub ${!name}"); }; f; name=gv; gv=G; ( echo "${!name}" ); echo "$(echo "${!name}")" """),
    case("prefix-declare-keys-ifs", r"""arr_1=a arr_2=b; names=(${!arr_*}); echo "${#names[@]}"; IFS=_; names=(${!arr_*}); echo "${#names[@]}" "${names[*]}" """),
    case("indirect-special-params", r"""f() { local i; for i in 1 2 3; do echo "$i=${!i}"; done; n=$#; echo "last=${!n}"; }; f a 'b c' d; z=0; echo "${!z}" """),
    case("nameref-cycle-read", r"""declare -n a=b b=a; echo "[$a]" "[${a-unset}]"; echo "st=$?"; declare -p a b"""),
    case("nameref-cycle-assign-gives-up-line", r"""declare -n a=b b=a; a=1; echo "same line"
echo "next $?"; f() { a=2; echo "in f"; }; f; echo "after f $?"
(a=3; echo "in sub"); echo "sub $?" """),
    case("nameref-cycle-three", r"""declare -n x=y; declare -n y=z; declare -n z=x; echo "[$x]"; x=1
echo "st=$?"; declare -p x y z"""),
    case("nameref-cycle-read-for", r"""declare -n p=q q=p; read p <<< 6; echo "read $?"; for p in 7; do echo loop; done; echo "for $?"; echo "${!p}"; echo same-line
echo "next $?" """),
    case("nameref-cycle-v-and-keys", r"""declare -n m1=m2 m2=m1; [[ -v m1 ]]; echo "v=$?"; echo "[${!m1[@]}] [${m1:-x}] [${m1:+y}]"; declare -p m1 m2"""),
    case("nameref-v-through-ref", r"""declare -n r; [[ -v r ]]; echo "$?"; r=target; [[ -v r ]]; echo "$?"; target=1; [[ -v r ]]; echo "$?"; declare -n e='arr[2]'; arr=(a b); [[ -v e ]]; echo "$?"; arr[2]=c; [[ -v e ]]; echo "$?"; test -v r; echo "$?" """),
    case("nameref-cycle-in-function", r"""f() { declare -n ref=other; other=val; echo "$ref"; declare -n g1=g2 g2=g1; echo "[${g1:-empty}]"; }; f; set -u; declare -n c1=c2 c2=c1; echo "${c1-dflt}" """),
]
