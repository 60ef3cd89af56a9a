"""Aliases whose value ends in a blank: the next word is looked up too, and when that word is
itself replaced, its value's first word is looked up again (chains through `for`, `in`,
variable names, arguments); unalias usage."""

from tests.interp.cases import case

H = "shopt -s expand_aliases\n"

CASES = [
    case("chain-in-for-head", H + r"""alias FOR1='for ' FOR2='FOR1 ' eye1='i ' eye2='eye1 ' IN='in ' onetwo='$one "2" '
one=1
FOR2 eye2 IN onetwo 3; do echo "[$i]"; done
FOR1 eye1 in b; do echo "[$i]"; done
FOR2 eye1 IN c d; do echo "[$i]"; done
"""),
    case("chain-arguments", H + r"""alias e='echo ' a1='a2 ' a2='x ' q='"quoted word" ' n='no-blank'
e a1 q n
e n a1
alias s='sudo_ ' ; sudo_() { echo "sudo: $*"; }; s a1 e
"""),
    case("chain-stops-at-self", H + r"""alias ls2='ls2 ' e='echo '; ls2() { echo "fn $*"; }
ls2 ls2 x
alias x='y ' y='x '; e x y
"""),
    case("chain-in-function-and-subshell", H + r"""alias e='echo ' w='word '
f() { e w w; }
f; (e w e w); echo "$(e w)"
"""),
]
