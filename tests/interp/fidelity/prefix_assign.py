"""Prefix assignments: a=1 b=$a cmd, before builtins, special builtins and functions."""

from tests.interp.cases import case

CASES = [
    case("each-sees-earlier", r"""a=1 b=$a c="$a-$b" env | grep -E '^(a|b|c)=' | sort; echo "after [${a-u}] [${b-u}]" """),
    case("sees-earlier-builtin", r"""x=outer; x=1 y=$x bash -c 'echo "$x $y"'; x=1 y=$x declare -p y 2>&1; f() { echo "f: $x $y"; }; x=2 y=$x f"""),
    case("special-builtins-nonposix", r"""v=orig; v=tmp :; echo "$v"; v=tmp eval 'echo "in eval $v"'; echo "$v"; v=tmp export w=1; echo "$v"; v=tmp set -- a; echo "$v"; v=tmp shift; echo "$v" """),
    case("special-builtins-posix", r"""set -o posix; v=orig; v=tmp :; echo "$v"; u=tmp2 eval 'echo "in $u"'; echo "$u"; unset v; v=t3 readonly z=1; echo "$v"; env | grep -c '^v='"""),
    case("functions-nonposix-posix", r"""f() { echo "in f: $v"; v=changed; }; v=orig; v=tmp f; echo "after: $v"; set -o posix; v=tmp2 f; echo "posix after: $v" """),
    case("function-sees-exported", r"""f() { env | grep '^TV='; bash -c 'echo "child $TV"'; }; TV=temp f; echo "[${TV-unset}]"; env | grep -c '^TV='"""),
    case("function-unset-temp", r"""x=global; f() { unset x; echo "in f [${x-unset}]"; }; x=temp f; echo "after [$x]"; g() { local x=loc; echo "g $x"; }; x=temp g; echo "$x" """),
    case("ifs-read", r"""IFS=: read a b c <<< "1:2:3"; echo "$a|$b|$c"; echo "IFS=[$IFS]" | od -c | head -1; IFS=, read -a arr <<< "x,y,,z"; echo "${#arr[@]} ${arr[2]}" """),
    case("ifs-read-array-funcs", r"""f() { IFS=';' read -r -a parts <<< "$1"; echo "${#parts[@]}:${parts[*]}"; }; f 'a;b c;d'; IFS=' ' f 'p;q'; printf '%s\n' "$IFS" | od -c | head -1"""),
    case("array-literal-prefix", r"""a=(x y) env | grep '^a='; f() { echo "[$a] ${#a[@]}"; declare -p a; }; a=(p q) f; declare -p a 2>&1"""),
    case("array-literal-builtin", r"""b=(1 2) declare -p b 2>&1; echo "after: ${b-unset}"; c=(z) eval 'echo "[$c]"' """),
    case("element-prefix", r"""a[1]=x env true; echo "st=$?"; declare -p a 2>&1; arr[0]=v :; echo "st=$?" """),
    case("readonly-prefix", r"""readonly R=1; R=2 echo hi; echo "st=$?"; R=3 env | grep -c '^R='; f() { echo "f $R"; }; R=4 f; echo "st=$?" """),
    case("append-prefix", r"""x=base; x+=more env | grep '^x='; echo "$x"; y+=only env | grep '^y='; f() { echo "$x"; }; x+=!! f"""),
    case("nounset-prefix", r"""set -u; x=${undefined_v:-d} env | grep '^x='; (y=$undefined_w env true); echo "st=$?" """),
    case("integer-var-prefix", r"""declare -i n=5; n=2+3 env | grep '^n='; f() { echo "n=$n"; declare -p n; }; n=4*2 f; echo "$n" """),
    case("command-subst-in-prefix", r"""v=$(echo a b) w="$(echo c)" env | grep -E '^(v|w)=' | sort; echo "status-from-sub: $(x=$(false) true; echo $?)"; x=$(exit 3); echo "$?" """),
    case("prefix-and-redirect", r"""x=1 echo hi > out.txt; cat out.txt; x=2 cat < /nonexistent; echo "st=$?"; echo "[${x-unset}]" """),
    case("prefix-to-cd-path", r"""mkdir -p d1/sub; CDPATH=d1 cd sub >/dev/null; pwd; echo "[${CDPATH-unset}]"; HOME=/tmp cd; pwd"""),
    case("prefix-path-lookup", r"""printf 'echo found-me\n' > mycmd; chmod +x mycmd; PATH=.:$PATH mycmd; mycmd 2>&1 | sed 's/.*: //'; hash | grep -c mycmd"""),
    case("export-temp", r"""f() { export v; }; v=tmp f; echo "[${v-unset}]"; env | grep '^v='; g() { v=inner; }; v=tmp g; echo "[${v-unset}]" """),
    case("local-of-temp", r"""f() { local v; echo "[${v-unset}]"; v=L; echo "$v"; }; v=tmp f; echo "[${v-unset}]"; g() { local v=$v; echo "g:$v"; }; v=tmp g"""),
    case("nested-functions", r"""inner() { echo "inner $v $w"; }; outer() { w=2 inner; echo "outer $v [${w-u}]"; }; v=1 outer; echo "[${v-u}] [${w-u}]" """),
    case("subshell-and-pipe", r"""v=tmp bash -c 'echo $v' | cat; (v=sub env | grep '^v='); echo "[${v-unset}]"; v=p true | v=q env | grep '^v=' """),
    case("xtrace-prefix", r"""set -x; a=1 b="two words" true; f() { :; }; c=3 f; set +x""", ignore_stderr=False),
    case("declare-with-prefix", r"""x=1 declare y=2; echo "$y [${x-u}]"; f() { x=1 local z=3; echo "$z"; }; f; p=9 typeset -i q=p+1; echo "$q" """),
    case("read-prefix-builtins", r"""REPLY=old; IFS= read <<< "  spaced  "; echo "[$REPLY]"; IFS=- read -r a b <<< "x-y-z"; echo "$a/$b"; TMOUT=1 read c <<< "val"; echo "$c" """),
    case("type-command-prefix", r"""x=1 command env | grep -c '^x='; x=2 builtin eval 'echo $x'; x=3 command -v ls >/dev/null; echo "[${x-u}]" """),
    case("unset-in-special", r"""x=orig; x=tmp unset x; echo "[${x-unset}]"; set -o posix; y=orig; y=tmp unset y; echo "[${y-unset}]" """),
]
CASES += [
    case("propagate-export-readonly", r"""v=tmp export v; echo "[$v]"; declare -p v; w=tmp readonly w; declare -p w; u=tmp declare -x u; declare -p u"""),
    case("propagate-from-function", r"""f() { readonly v; }; v=tmp f; declare -p v; g() { declare -x w; }; w=tmp g; declare -p w; h() { u=one; export u; u=two; }; u=tmp h; declare -p u"""),
    case("local-keeps-temp", r"""f() { local v; declare -p v; v=new; declare -p v; }; v=tmp f; declare -p v 2>&1; g() { export v=changed; }; v=tmp g; declare -p v"""),
    case("temp-is-new-var", r"""n=2+3 declare -p n; declare -i n=1; n=2+3 declare -p n; f() { declare -p n; n=4+4; declare -p n; }; n=1+1 f; declare -u U; U=abc declare -p U; echo "$n" """),
    case("posix-special-keeps", r"""set -o posix; a=1 :; b=2 eval 'echo in-eval $b'; c=3 export d=4; declare -p a b c d 2>&1 | sed 's/declare -x/X/'; f() { :; }; e=5 f; echo "[${e-unset}]" """),
]
