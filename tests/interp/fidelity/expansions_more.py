"""Expansion edges: ${a[@]+word} and ${@:+word} when the word is not used (what is left is
"$@"'s own expansion: no word for none), quoting inside ${...} operands."""

from tests.interp.cases import case

CASES = [
    case("alt-on-empty-arrays", r"""e=(); printf '<%s>' "${e[@]+set}" "${e[*]+set}" "${e[@]:+set}" x; echo; set --; printf '<%s>' "${@+x}" "${*+x}" "${@:+x}" y; echo
e=(""); printf '<%s>' "${e[@]+set}" "${e[@]:+set}" x; echo; unset u; printf '<%s>' "${u[@]+set}" "${u+s}" x; echo
set -- ""; printf '<%s>' "${@:+x}" "${*:+x}" z; echo; set -- "" ""; printf '<%s>' "${@:+x}" "${*:+x}" z; echo
a=(1 2); printf '<%s>' ${e[@]+s} ${a[@]:+"$@"} z; echo; for w in "${e[@]+"$@"}"; do echo "[$w]"; done"""),
    case("operand-quoting", r"""x='a*b'; echo "${x#"a*"}" "${x#a\*}" "${x#'a*'}" ${x#"a"*}; y="it's"; echo "${y/\'/Q}" "${y//"'"/Q}" ${y/"'"/"&"}
v=abc; echo "${v:-"x y"}" "${u:-"x y"}" "${u:-'x y'}" ${u:-'x y'} "${u:-\"q\"}" ${u:-\"q\"} "${u-$v}" "${u-"$v"}" """),
    case("operand-splitting", r"""set -- 'a b' c; echo "${@:-none}" "${*:-none}"; for w in ${u:-"$@"}; do echo "[$w]"; done; for w in "${u:-$@}"; do echo "<$w>"; done
IFS=:; x='a:b'; set -- ${u:-$x}; echo $#; set -- "${u:-$x}"; echo $#; unset IFS; x='  sp  '; set -- ${x:+"$x"}; echo $#"""),
]
