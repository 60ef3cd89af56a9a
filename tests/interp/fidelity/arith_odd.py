"""Arithmetic in odd places: assoc arrays in (( )), negative indices, literals into assoc."""

from tests.interp.cases import case

CASES = [
    case("assoc-in-dparen", r"""declare -A m; (( m[k]=42 )); echo "${m[k]}"; (( m[k]++ )); echo "${m[k]}"; k=other; (( m[$k] = 7 )); echo "${m[other]}"; (( m[a b]=1 )) ; declare -p m"""),
    case("assoc-key-is-text", r"""declare -A m; x=5; (( m[x]=1 )); (( m[x+1]=2 )); declare -p m; echo $(( m[x] + m[x+1] )); echo "${m[x+1]}" """),
    case("indexed-key-is-arith", r"""a=(); x=2; (( a[x]=10, a[x+1]=11 )); declare -p a; echo $(( a[x] * 2 )) $(( a[1+1] ))"""),
    case("negative-index-read", r"""a=(1 2 3); echo "${a[-1]}" "${a[-3]}"; echo "${a[-4]}"; echo "st=$?"; echo $(( a[-1] + a[-2] ))"""),
    case("negative-index-out-of-range-arith", r"""a=(1 2 3); echo $(( a[-4] )); echo "after st=$?" """),
    case("negative-index-assign", r"""a=(1 2 3); a[-1]=last; declare -p a; a[-4]=x; echo "st=$?"; (( a[-5]=1 )); echo "st=$?"; declare -p a"""),
    case("negative-on-empty-and-sparse", r"""e=(); echo "[${e[-1]}]"; s=([5]=five [10]=ten); echo "${s[-1]}" "[${s[-2]}]" "${s[-6]}"; (( s[-1] += 1 )); echo "${s[10]}" """),
    case("indexed-literal-to-assoc", r"""declare -A m; m=(a b c d); declare -p m; m=(x); declare -p m; m=([k]=v w); declare -p m 2>&1"""),
    case("assoc-literal-mixed", r"""declare -A m=([a]=1 b 2); declare -p m; declare -A n=(one two three); declare -p n"""),
    case("arith-in-subscripts", r"""a=(10 20 30 40); i=1; echo "${a[i+1]}" "${a[i*2+1]}" "${a[$i]}" "${a[ i ]}"; echo "${a[@]:i:2}"; unset "a[i]"; echo "${!a[@]}" """),
    case("arith-in-slices", r"""s=abcdefg; n=2; echo "${s:n:n+1}" "${s: -n}" "${s:n*2}" "${s:(-3):2}"; a=(p q r s); echo "${a[@]:1+1}" """),
    case("arith-in-brace-and-case", r"""x=3; case $((x*2)) in 6) echo six;; esac; for ((i=x; i>0; i--)); do printf %s $i; done; echo; echo $(( x > 2 ? x : -x ))"""),
    case("arith-string-vars", r"""a=b; b=c; c=7; echo $(( a )) $(( a + 1 )); x='1 + 2'; echo $(( x * 2 )); y='y'; echo $(( y )) 2>&1 | head -1"""),
    case("arith-recursion-limit", r"""a=a; echo $(( a )) 2>&1 | cut -c1-60; echo "st=${PIPESTATUS[0]}" """),
    case("arith-assign-to-special", r"""(( 3 = 4 )) 2>&1; echo "st=$?"; echo $(( 1 = 2 )) 2>&1; echo "st=$?"; (( x = y = 5 )); echo "$x $y" """),
    case("arith-overflow-and-division", r"""echo $(( 9223372036854775807 + 1 )) $(( -9223372036854775808 / -1 )) 2>&1; echo $(( 2 ** 63 )) $(( 7 % -3 )) $(( -7 / 2 ))"""),
    case("arith-bases", r"""echo $(( 16#ff )) $(( 2#1010 )) $(( 36#zz )) $(( 64#_ )) $(( 64#@ )) $(( 010 )) $(( 0x10 )); echo $(( 8#9 )) 2>&1; echo $(( 65#1 )) 2>&1"""),
    case("arith-in-let-and-declare-i", r"""let 'a[2]=5' 'b = a[2] * 2'; echo "${a[2]} $b"; declare -i n='a[2] + 1'; echo "$n"; declare -A m; let 'm[k]=3'; echo "${m[k]}" """),
    case("arith-empty-and-whitespace", r"""echo $(( )) $((  )); x=; echo $(( x + 1 )); (( )); echo "st=$?"; echo $(( ${unset_v} + 2 ))"""),
    case("arith-with-set-u", r"""set -u; a=(1); echo $(( a[0] + 1 )); (echo $(( a[5] + 1 ))) 2>&1; echo "st=$?"; (echo $(( nosuch + 1 ))) 2>&1; echo "st=$?" """),
    case("arith-comma-and-assign-ops", r"""(( x = 1, y = x + 1, z = y << 2 )); echo $x $y $z; (( x += 2, y *= 3, z >>= 1, x |= 8 )); echo $x $y $z; (( w = x++ + ++x )); echo $w $x"""),
    case("arith-in-array-keys-assign", r"""a[1+1]=two; a[2*2]=four; echo "${!a[@]}"; declare -A m; m[1+1]=k; echo "${!m[@]}" """),
    case("arith-nested-subscripts", r"""a=(0 1 2 3); b=(3 2 1 0); echo $(( a[b[0]] )) "${a[b[1]]}"; (( a[b[2]] = 9 )); echo "${a[@]}" """),
    case("arith-in-test-brackets", r"""a=(5); [[ a[0] -eq 5 ]] && echo eq; [ 5 -eq "${a[0]}" ] && echo test-eq; [[ 1+1 -eq 2 ]] && echo expr; declare -A m=([k]=3); [[ m[k] -eq 3 ]] && echo assoc"""),
    case("assoc-arith-quoted-keys", r"""declare -A m; (( m["a b"]=1 )) 2>&1; (( m['q']=2 )); declare -p m; key='x y'; (( m[$key]=3 )) 2>&1; declare -p m"""),
]
CASES += [
    case("assoc-literal-errors", r"""declare -A m; m=(a [k]=v); declare -p m; m=([k]=v "x y" z); declare -p m; declare -A n=([k]=v "x y"); declare -p n; f() { local -A l=([k]=1 z); declare -p l; }; f; declare -A o; o+=([a]=1 b); declare -p o"""),
    case("assoc-key-quoting-in-declare-p", r"""declare -A m=([a~]=1 [~a]=2 ['#x']=3 [x#]=4 [a=b]=5 [é]=6 [$'\t']=7 [a,b]=8 [%]=9 ['@']=10 [x+1]=11); declare -p m"""),
    case("dparen-error-prefix", r"""(( 1/0 )); echo "st=$?"; ((  2 + 1/0  )); (( x = 09 )); (( a b )); echo $(( 5 % 0 )); echo after"""),
]
