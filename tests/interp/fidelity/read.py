"""read: -N vs -n, -d '', -t 0, backslashes, NUL bytes, arrays with odd IFS."""

from tests.interp.cases import case

CASES = [
    case("N-vs-n", r"""printf 'ab\ncd\nef' | { read -n 4 x; echo "[$x]"; read -N 4 y; echo "[$y]"; read -N 10 z; echo "st=$? [$z]"; }"""),
    case("N-ignores-ifs", r"""printf '  a b  ' | { read -N 5 x; echo "[$x]"; }; printf '  a b  ' | { IFS= read -n 5 x; echo "[$x]"; }; printf '  a b  ' | { read -n 5 x; echo "[$x]"; }"""),
    case("N-multiple-names", r"""printf 'abcdefgh' | { read -N 6 a b; echo "[$a] [$b]"; }; printf 'a b c d' | { read -n 6 p q; echo "[$p] [$q]"; }"""),
    case("N-backslash", r"""printf 'a\\bcd' | { read -N 3 x; echo "[$x]"; }; printf 'a\\bcd' | { read -n 3 x; echo "[$x]"; }; printf 'a\\\nbc' | { read -n 3 x; echo "[$x]"; }; printf 'a\\bcd' | { read -r -N 3 x; echo "[$x]"; }"""),
    case("n-zero-and-bad", r"""echo abc | { read -n 0 x; echo "st=$? [$x]"; }; echo abc | { read -n -1 x; echo "st=$?"; }; echo abc | { read -n x y; echo "st=$?"; }; echo abc | { read -N 0 x; echo "st=$? [$x]"; }"""),
    case("d-empty-nul", r"""printf 'one\0two\0' | { read -d '' a; echo "st=$? [$a]"; read -d '' b; echo "st=$? [$b]"; read -d '' c; echo "st=$? [$c]"; }"""),
    case("d-empty-loop", r"""printf 'a b\0c\nd\0e' | while IFS= read -r -d '' f; do echo "<$f>"; done; printf 'x\0y\0' | { n=0; while read -d '' w; do n=$((n+1)); done; echo "n=$n"; }"""),
    case("d-char", r"""echo 'a:b:c' | { read -d : x; echo "[$x]"; read -d : y rest; echo "[$y] [$rest]"; }; printf 'a,b\nc,d' | { read -d , x; read -d , y; echo "[$x] [$y]"; }"""),
    case("d-multichar", r"""echo 'a:b;c' | { read -d ':;' x; echo "[$x]"; }; echo 'abc' | { read -d abc x; echo "st=$? [$x]"; }"""),
    case("t-zero", r"""read -t 0 < /dev/null; echo "st=$?"; read -t 0 x <<< "hello"; echo "st=$? [$x]"; read -t 0 < nonempty.txt; echo "st=$?" """,
         files={"nonempty.txt": "data\n"}),
    case("t-invalid", r"""read -t abc x <<< y; echo "st=$?"; read -t -1 x <<< y; echo "st=$?"; read -t 1.5 x <<< y; echo "st=$? [$x]"; read -t 0.0 <<< z; echo "st=$?" """),
    case("backslashes", r"""printf '%s\n' 'a\ b c' | { read x y; echo "[$x] [$y]"; }; printf '%s\n' 'a\\b' | { read x; echo "[$x]"; }; printf '%s\n' 'tab\	x' | { read x y; echo "[$x] [$y]"; }; printf '%s\n' 'end\' 'next' | { read x; echo "[$x]"; }"""),
    case("backslash-continuation-raw", r"""printf 'a\\\nb\n' | { read x; echo "[$x]"; }; printf 'a\\\nb\n' | { read -r x; echo "[$x]"; }; printf 'p q\\\n r s\n' | { read a b; echo "[$a] [$b]"; }"""),
    case("backslash-ifs-escape", r"""printf '%s\n' 'a\:b:c' | { IFS=: read x y; echo "[$x] [$y]"; }; printf '%s\n' 'a\:b:c' | { IFS=: read -r x y; echo "[$x] [$y]"; }; printf '%s\n' '\ lead' | { read x; echo "[$x]"; }"""),
    case("nul-bytes", r"""printf 'a\0b\nc\n' | { read x; echo "[$x]" | od -c | head -2; }; printf 'ab\0cd' | { read -N 4 x; echo "${#x} [$x]"; }""", ignore_stderr=True),
    case("array-odd-ifs", r"""IFS=: read -a arr <<< ':a::b:'; echo "${#arr[@]}"; printf '<%s>' "${arr[@]}"; echo; IFS=': ' read -a arr <<< ' a : b  :c '; echo "${#arr[@]}"; printf '<%s>' "${arr[@]}"; echo"""),
    case("array-empty-ifs", r"""IFS= read -a arr <<< '  a b  '; echo "${#arr[@]} [${arr[0]}]"; IFS=$'\n' read -a arr <<< 'x y'; echo "${#arr[@]} [${arr[0]}]" """),
    case("array-replaces", r"""arr=(old1 old2 old3); read -a arr <<< 'new'; declare -p arr; declare -A m; read -a m <<< 'x y' 2>&1; echo "st=$?"; readonly ro=(1); read -a ro <<< z; echo "st=$?" """),
    case("names-leftover", r"""read a b c <<< 'one two three four five'; echo "[$a] [$b] [$c]"; read a b c <<< 'one'; echo "[$a] [$b] [$c]"; IFS=, read a b <<< 'x,y,z,'; echo "[$a] [$b]"; IFS=, read a b <<< 'x,y,'; echo "[$a] [$b]" """),
    case("trailing-ifs-nonws", r"""IFS=: read a b <<< 'p:q:'; echo "[$b]"; IFS=: read a b <<< 'p:q::'; echo "[$b]"; IFS=': ' read a b <<< 'p: q : '; echo "[$b]"; IFS=' :' read a <<< '  x :  '; echo "[$a]" """),
    case("reply-default", r"""read <<< '  spaced  out  '; echo "[$REPLY]"; read -r <<< 'a\b'; echo "[$REPLY]"; read x <<< '  trimmed  '; echo "[$x]"; IFS= read y <<< '  kept  '; echo "[$y]" """),
    case("eof-partial", r"""printf 'no newline' | { read x; echo "st=$? [$x]"; }; printf '' | { read x; echo "st=$? [${x-unset}]"; }; x=old; read x < /dev/null; echo "st=$? [$x]" """),
    case("u-fd", r"""exec 3<<< 'from three'; read -u 3 x; echo "[$x]"; read -u 9 y; echo "st=$?"; read -u abc z; echo "st=$?"; exec 4< data.txt; read -u4 l1; read -u 4 l2; echo "$l1/$l2" """,
         files={"data.txt": "L1\nL2\n"}),
    case("invalid-names", r"""read 1bad <<< x; echo "st=$?"; read good 'bad-name' <<< 'p q'; echo "st=$? [$good]"; read -a 'a b' <<< x; echo "st=$?" """),
    case("in-function-local-setu", r"""f() { local line; set -u; while read -r line; do echo "<$line>"; done; echo "[$line]"; }; printf 'a\nb\n' | f; set -u; read x y <<< 'only'; echo "[$y]" """),
    case("p-prompt-noninteractive", r"""read -p 'prompt> ' x <<< 'val'; echo "[$x]"; read -p '' y <<< 'v2'; echo "[$y]" """),
    case("n-with-delim-and-ifs", r"""printf 'ab\ncd' | { read -n 5 x; echo "[$x]"; }; printf 'ab:cd' | { IFS=: read -n 4 x y; echo "[$x] [$y]"; }; printf 'abcdef' | { read -n 3 -d c x; echo "[$x]"; }"""),
    case("subshell-and-pipe-scope", r"""echo hi | read x; echo "[${x-unset}]"; shopt -s lastpipe; echo there | read y; echo "[$y]"; (read z <<< inner; echo "[$z]"); echo "[${z-unset}]" """),
    case("multibyte-n", r"""printf 'héllo' | { read -n 2 x; echo "[$x]"; }; printf 'ééé' | { read -N 2 x; echo "[$x]"; }; printf '日本語' | { read -n 1 x; read -n 1 y; echo "[$x][$y]"; }"""),
    case("status-loop-last-line", r"""printf 'a\nb' | while read l; do echo "<$l>"; done; printf 'a\nb' | while read l || [ -n "$l" ]; do echo "<$l>"; done"""),
]
CASES += [
    case("element-names", r"""read 'a[1]' 'a[2]' <<< 'x y'; declare -p a; i=0; read "b[i+1]" <<< v; declare -p b; declare -A m; read 'm[k]' <<< mv; declare -p m"""),
    case("readonly-target", r"""readonly r=1; read r <<< x; echo "st=$? $r"; read q r <<< 'a b'; echo "st=$? [$q]"; f() { local -r lr=1; read lr <<< z; echo "st=$?"; }; f"""),
    case("escaped-trailing-ws", r"""printf '%s\n' 'a\ ' | { read x; echo "[$x]"; }; printf '%s\n' 'a b c\ ' | { read x y; echo "[$x][$y]"; }; printf '%s\n' 'a b\ \ ' | { read x y; echo "[$x][$y]"; }"""),
]
