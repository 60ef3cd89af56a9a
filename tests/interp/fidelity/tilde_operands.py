"""Tilde expansion inside the words of ${x-w}, ${x:-w}, ${x+w}, ${x:+w}: in an assignment's
value (scalar, element, +=, declare/local/export arguments) and a here-string, a tilde
after ':' there is expanded too; in arguments, array lists, [[ ]] and quotes it is not."""

from tests.interp.cases import case

CASES = [
    case("assignment-values", r"""HOME=/h; x=~:${undef-~:~}; echo "$x"; x=${undef:-~:~}; echo "$x"; v=1; p=${v+~:~}; echo "$p"; p=${v:+a:~/d}; echo "$p"; p=~:${undef+~:~}; echo "$p" """),
    case("assign-operator-is-leading-only", r"""HOME=/h; y=a:~:${undef=~:~}; echo "$y|$undef"; unset undef; z=${undef:=b:~}; echo "$z|$undef" """),
    case("declaration-builtins", r"""HOME=/h; declare z=~:${undef-~:~}; echo "$z"; export w=${undef-x:~}; echo "$w"; f() { local l=${undef-~:~}; echo "$l"; readonly r=${undef-:~}; echo "$r"; }; f"""),
    case("elements-append-herestring", r"""HOME=/h; a[0]=${u-~:~}; declare -A m; m[k]=${u-~:~}; x+=${u-~:~}; echo "${a[0]} ${m[k]} $x"; cat <<< ${u-~:~}; cat <<< "${u-~:~}" """),
    case("not-assignment-contexts", r"""HOME=/h; echo ${undef-~:~} ${undef-~/a:~/b}; a=(${undef-~:~} ~:~); echo "${a[*]}"; for i in ${undef-~:~}; do echo "$i"; done; [[ ${u-~:~} == /h:~ ]] && echo cond-leading"""),
    case("quoted-forms", r"""HOME=/h; x="${undef-~:~}"; echo "$x"; x=${undef-'~:~'}; echo "$x"; x=${undef-\~:\~}; echo "$x"; x=${undef-"~":~}; echo "$x"; echo "${undef-~:~}" """),
    case("nested-operands-and-subst", r"""HOME=/h; x=${a-${b-~:~}}; echo "$x"; z=$(echo ${u-~:~}); echo "$z"; e=${u-a:~}${u-:~}; echo "$e"; q=${u-~root:~}; echo "$q" """),
    case("tilde-prefix-edges", r"""HOME=/h; x=${u-a:~x/y:~/b:~$HOME:~}; echo "$x"; x=${u-~+:~-}; OLDPWD=/old; y=${u-:~-}; echo "$y" """),
    case("home-unset-and-set-u", r"""set -u; HOME=/h; x=${undefined-~:~}; echo "$x"; y=${undefined-:~$nope}; echo "[$y]" """),
    case("in-function-and-subshell", r"""HOME=/h; f() { local v; v=${1-~:~}; echo "$v"; }; f; f given; (w=${u-~:~}; echo "$w"); IFS=:; x=${u-~:~}; echo $x"""),
]
