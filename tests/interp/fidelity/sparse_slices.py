"""${a[@]:off:len} on sparse arrays: a negative offset counts back from the highest index + 1
(not from the number of elements); with "$*", unset elements, set -u, positional params."""

from tests.interp.cases import case

A = "x=(a b c d e f g h i j); unset 'x[2]' 'x[3]' 'x[4]' 'x[7]'\n"

CASES = [
    case("negative-offsets", A + r"""echo "[${x[@]: -3:2}] [${x[@]: -5}] [${x[@]: -6:3}] [${x[@]: -7}] [${x[@]: -10}] [${x[@]: -11}]"
echo "[${x[*]: -4:1}] [${x[*]: -1}] [${x[@]:(-2)}] [${x[@]: -9:0}]"
"""),
    case("positive-offsets-holes", A + r"""echo "[${x[@]:2}] [${x[@]:3:2}] [${x[@]:7:1}] [${x[@]:10}] [${x[@]:0:3}]"
n=-3; echo "[${x[@]:n:1}] [${x[@]:$n}] [${x[@]:1+1:1}]"
"""),
    case("star-and-ifs", A + r"""IFS=-; echo "[${x[*]: -4}]"; y=("${x[@]: -4:3}"); echo "${#y[@]} ${y[*]}"
IFS=; echo "[${x[*]: -2}]"
"""),
    case("appended-and-negative-index", r"""a=(); a[5]=five; a[9]=nine; a+=(ten)
echo "${!a[@]}"; echo "[${a[@]: -1}] [${a[@]: -5}] [${a[@]: -6:2}] [${a[@]: -11}]"
unset 'a[-1]'; echo "[${a[@]: -1}] [${a[*]: -2}]"
"""),
    case("set-u-and-func-local", r"""set -u
f() { local -a l=([3]=c [8]=h); echo "[${l[@]: -2}] [${l[@]: -6}] [${l[@]: -9:1}]"; }
f
set -- p q r s; echo "[${@: -2}] [${*: -1}] [${@:0:1}]" | sed 's#/[^ ]*pysh#pysh#'
"""),
    case("negative-length-error", A + r"""echo "[${x[@]: -3:-1}]"; echo "st=$?"
echo after
"""),
]
