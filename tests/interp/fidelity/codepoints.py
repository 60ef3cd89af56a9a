"""Code point escapes (\\u, \\U) in $'...', echo -e, printf and ${x@E}: bash encodes any
value below 0x80000000 with the UTF-8 scheme (surrogates and values past U+10FFFF too);
the bytes are then ordinary bytes to every other expansion."""

from tests.interp.cases import case

_HEX = "od -An -tx1 | tr -s ' \\n' ' '; echo"

CASES = [
    case("ansi-c-edges", "printf '%s|' $'\\U0010ffff' $'\\U00110000' $'\\ud800' $'\\udfff' $'\\U7fffffff' $'\\Uffffffff' | " + _HEX),
    case("echo-e-edges", "echo -e '\\U0010ffff|\\U00110000|\\ud800|\\U0000dc00|\\U7fffffff|\\U80000000|' | " + _HEX),
    case("printf-format-edges", "printf '\\U0010ffff|\\U00110000|\\udc00|\\U03ffffff|\\U04000000|' | " + _HEX),
    case("printf-b-edges", "printf '%b|' '\\udc00' '\\U00200000' '\\u00e9x' '\\u' '\\Ug' | " + _HEX),
    case("at-E-edges", "x='\\udc00\\U0010ffff\\u00e9'; y=${x@E}; printf %s \"$y\" | " + _HEX + "; echo ${#y}"),
    case("lengths-and-slices", "x=$'a\\udc00b\\U0010ffffc'; echo ${#x}; printf %s \"${x:1:1}\" | " + _HEX + "; printf %s \"${x:3}\" | " + _HEX),
    case("status-and-stderr", "echo -e '\\udc00' >/dev/null; echo st=$?; printf '\\udc00' >/dev/null; echo st=$?; printf '%b' '\\U00110000' >/dev/null; echo st=$?"),
    case("case-conversion-of-bad-bytes", "x=$'\\udc00\\u00e9\\U00110000z'; printf %s \"${x^^}\" | " + _HEX + "; declare -u u=\"$x\"; printf %s \"$u\" | " + _HEX),
    case("quoting-bad-bytes", "x=$'\\udc00'; printf '%q\\n' \"$x\"; echo \"${x@Q}\"; declare -p x; y=$'\\U00110000'; printf '%q\\n' \"$y\""),
    case("arrays-and-pattern", "a=($'\\ud800' $'\\u00e9' x); echo ${#a[@]}; for e in \"${a[@]}\"; do printf %s \"$e\" | od -An -tx1; done; s=$'a\\ud800b'; echo \"${s//$'\\ud800'/-}\"; [[ $s == a?b ]] && echo one-char || echo not-one"),
    case("ifs-and-read", "IFS=$'\\u00e9'; x=$'a\\u00e9b\\u00e9c'; set -- $x; echo $#; printf '<%s>' \"$@\"; echo; IFS=' '; read -r p q <<< $'\\U0001F600 \\ud800'; printf %s \"$p$q\" | " + _HEX),
    case("in-functions-and-subshells", "f() { local v=$'\\ud800'; printf %s \"$v\" | od -An -tx1; }; f; (printf '\\U00110000' | od -An -tx1); x=$(echo -e '\\udc00'); printf %s \"$x\" | " + _HEX),
    case("normal-code-points", "echo $'\\u03bc \\U000003bc \\u00e9 \\u41 \\U1F600 \\u0' | " + _HEX + "; printf '\\u20ac %b\\n' '\\u20ac' | " + _HEX),
    case("set-u-and-escape-defaults", "set -u; x=${undefined-$'\\ud800'}; printf %s \"$x\" | od -An -tx1; : \"${y:=$'\\U00110000'}\"; printf %s \"$y\" | " + _HEX),
]
