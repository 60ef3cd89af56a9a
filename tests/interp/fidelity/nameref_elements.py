"""Namerefs to array elements (declare -n r='a[i]', 'a[@]', 'a[$(cmd)+1]'): the subscript
is expanded each time the reference is used; bash refuses a list, a subscript of the
reference and a[@] as assignment targets."""

from tests.interp.cases import case

CASES = [
    case("subscript-re-evaluated", r"""a=(zero one two three); i=1; declare -n r='a[i]'; echo "$r"; i=2; echo "$r"; r=NEW; echo "${a[*]}"; i=3; r+=X; echo "${a[*]}" """),
    case("command-sub-in-subscript", r"""declare -n r='a[$(echo 2) + 1]'; a=(zero one two three); echo "ref=$r"; r=set; echo "${a[*]}"; n=0; declare -n c='a[$((n+=1))]'; echo "$c $c $n" """),
    case("at-and-star-reads", r"""a=('A B' C); declare -n r='a[@]' t='a[*]'; printf '<%s>' "$r" $r "${r:-x}" "${r#A}" "${r^^}" "${r@Q}" "${r/B/b}" "${r:1}"; echo; IFS=-; printf '<%s>' "$t" $t; echo"""),
    case("subscripting-the-reference", r"""a=(x y z); declare -n s='a[1]'; printf '<%s>' "$s" "${s[0]}" "${s[@]}" "${s[1]}" "${!s}"; echo"""),
    case("refused-assignments", "a=('A B' C); declare -n r='a[@]' s='a[1]'\nr=(X Y)\necho \"st=$? ${a[*]}\"\nr=x\necho \"st=$? ${a[*]}\"\ns[0]=foo\necho \"st=$? ${a[*]}\"\ns=(p q)\necho \"st=$? ${a[*]}\"\ns+=tail\necho \"st=$? ${a[*]}\"\n"),
    case("refused-assignment-abandons-line", r"""a=(1); declare -n r='a[0]'; r=(5); echo "not reached"
echo "next line ${a[*]}" """),
    case("builtins-assign-through", r"""a=(p q r); declare -n s='a[2]'; read s <<< readval; echo "${a[*]}"; printf -v s '%s' pv; echo "${a[*]}"; declare s=decl; echo "${a[*]}"; : ${s:=kept}; unset 'a[2]'; : ${s:=assigned}; echo "${a[*]}" """),
    case("assoc-element", r"""declare -A m=([k]=v [j]=w); declare -n r='m[k]' q='m["two words"]'; echo "r=$r"; r=vv; q=spaced; echo "${m[k]} ${m[two words]}"; unset r; declare -p m"""),
    case("unset-element-and-set-u", r"""a=(1 2); declare -n s='a[1]'; unset 'a[1]'; printf '<%s>' "$s" "${s-unset}" "${s:-empty}"; echo; set -u; echo "[$s]"; echo "st=$?" """),
    case("negative-and-arith-subscripts", r"""a=(1 2 3); declare -n last='a[-1]' mid='a[${#a[@]}/2]'; echo "$last $mid"; last=L; mid=M; echo "${a[*]}"; a+=(4 5); echo "$last $mid" """),
    case("local-nameref-in-function", r"""f() { local -n lr="$1"; lr=changed; echo "in f: $lr"; }; g=(a b c); f 'g[1]'; echo "${g[*]}"; k=2; f 'g[k]'; echo "${g[*]}" """),
    case("nameref-missing-array", r"""declare -n r='nosuch[3]'; echo "[${r-unset}]"; r=val; declare -p nosuch; declare -n q='other[x]'; q=1; declare -p other"""),
    case("invalid-target-names", r"""declare -n r='a[1'; echo "st=$?"; declare -n q='1a'; echo "st=$?"; declare -n p='a b'; echo "st=$?" """),
    case("in-subshell-and-pipeline", r"""a=(1 2 3); declare -n r='a[1]'; (r=sub; echo "in ${a[*]}"); echo "out ${a[*]}"; echo piped | { read r; echo "grp ${a[*]}"; }; echo "after ${a[*]}" """),
    case("for-loop-rebinds", r"""a=(1 2); declare -n s='a[0]'; for s in v1 v2; do :; done; v2=x; echo "$s ${a[*]}"; declare -p s"""),
    case("ifs-splitting-of-element", r"""a=('x y' 'p:q'); declare -n r='a[1]' s='a[0]'; IFS=:; printf '<%s>' $r $s; echo; IFS=' '; printf '<%s>' $r $s; echo"""),
    case("indirect-and-nameref-mix", r"""a=(u v w); declare -n r='a[2]'; x=r; echo "${!x}"; y='a[1]'; echo "${!y}"; declare -n r2=r; echo "$r2"; r2=via2; echo "${a[*]}" """),
]
