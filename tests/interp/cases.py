"""Scripts whose stdout, stderr and status pysh must share with bash 5.2.

Recorded by ``python -m tests.interp.record`` into ``expected.json``.
"""

from __future__ import annotations

import pathlib

EXPECTED = pathlib.Path(__file__).with_name("expected.json")


def case(name, script, **kw):
    return dict(name=name, script=script, **kw)


CASES = [
    # -- expansion ----------------------------------------------------------------
    case("quoting", r"""x='a  b'; printf '[%s]' $x "$x" '$x' "\$x" $'t\tab'; echo""" "\n"),
    case("ifs-split", r"""IFS=:; x='a::b:'; set -- $x; echo $#; printf '<%s>' "$@"; echo
IFS=' :'; x=' a : b  c:'; set -- $x; echo $#; printf '<%s>' "$@"; echo"""),
    case("at-star", r"""set -- 'a b' c ''; printf '<%s>' "$@"; echo; printf '<%s>' "$*"; echo
printf '<%s>' $@; echo; IFS=-; printf '<%s>' "$*"; echo; x="$@"; echo "$x" """),
    case("param-ops", r"""u=; s=hello.tar.gz
echo "${u:-d1}" "${u-d2}" "${nope:-d3}" "${s:+alt}" "${u:+alt}"
echo ${s#*.} ${s##*.} ${s%.*} ${s%%.*} ${#s}
echo ${s/l/L} ${s//l/L} ${s/#h/H} ${s/%z/Z} ${s:1:3} ${s: -2} ${s:2}
echo ${s^} ${s^^} ${s,,} ${s^^[lo]}
: ${new:=assigned}; echo $new
p=/usr/local/lib/x.so; echo ${p##*/} ${p%/*}"""),
    case("arrays", r"""a=(one 'two three' four); echo ${#a[@]} ${a[1]} ${a[-1]}
a+=(five); a[9]=ten; echo "${!a[@]}"; echo "${a[@]:1:2}"
unset 'a[0]'; echo ${#a[@]} "${a[*]}"
declare -A m=([x]=1 [y]=2); m[z]=3; for k in "${!m[@]}"; do echo "$k=${m[$k]}"; done | sort
echo ${#m[@]}"""),
    case("arith", r"""echo $((2**10)) $((7/2)) $((-7%3)) $((1<<62)) $((2**63)) $((2**64)) $((0x1f)) $((8#17)) $((2#101))
x=5; ((x++)); ((x+=10)); echo $x $((x>3 ? 1 : 0)) $((x,2))
echo $(( (1+2)*3 )); i=0; while ((i<3)); do ((i++)); done; echo $i"""),
    case("arith-errors", "echo $((1/0))\necho next\necho $((1+))\necho after\n"),
    case("brace", r"""echo {a,b}{1,2} x{1..3}y {5..1..2} {a..e} {01..03} {a,{b,c}} {} {x}"""),
    case("tilde-and-assign", r"""HOME=/home/u; echo ~ ~/x "~" x=~/a; y=~/b:~/c; echo $y"""),
    case("command-subst", r"""x=$(echo a; echo b; echo); echo "[$x]"; y=`echo q`; echo $y $(echo $(echo nest))
echo "$(printf 'a\n\n\n')|"; false; echo $(true) $?"""),
    case("glob", r"""echo *.txt; echo b*; echo nomatch*; shopt -s nullglob; echo nomatch*; echo [ab]*.txt""",
         files={"a.txt": "", "b.txt": "", "bx": "", ".hidden.txt": ""}),
    case("case-patterns", r"""for w in apple Banana cherry 42 x.y; do
  case $w in a*) echo "$w: a";; [Bb]*) echo "$w: b";; *[0-9]) echo "$w: num";; *.*) echo "$w: dot";; *) echo "$w: other";; esac
done
case x in x) echo one;& y) echo two;; z) echo three;; esac"""),
    case("cond-expr", r"""[[ abc == a* ]] && echo glob; [[ abc =~ ^a(b)c$ ]] && echo "re ${BASH_REMATCH[1]}"
[[ -n x && ! -z x ]] && echo ok; [[ 10 -gt 9 ]] && echo num; [[ b > a ]] && echo str
[ -d . ] && echo dir; test 3 -eq 3 && echo eq; [ a = b ] || echo ne"""),
    # -- control flow and functions --------------------------------------------------
    case("loops", r"""for i in 1 2 3 4 5; do [ $i = 2 ] && continue; [ $i = 4 ] && break; echo $i; done
for ((i=0; i<3; i++)); do for j in a b; do [ $j = b ] && continue 2; echo $i$j; done; done
n=0; until [ $n -ge 3 ]; do n=$((n+1)); done; echo $n"""),
    case("functions", r"""f() { local x=inner; echo "$1 $# ${FUNCNAME[0]}"; g; return 7; }
g() { echo "g sees $x"; }; x=outer; f a b; echo "status $? x=$x"
fact() { if [ $1 -le 1 ]; then echo 1; else echo $(( $1 * $(fact $(( $1 - 1 ))) )); fi; }; fact 10"""),
    case("subshell-isolation", r"""x=1; (x=2; cd /; echo in $x); echo out $x; { x=3; }; echo $x
echo $(exit 4); echo $?"""),
    # -- errexit -----------------------------------------------------------------------
    case("errexit-basic", "set -e\ntrue\nfalse || echo ok\nif false; then :; fi\nfalse && true\necho reached\nfalse\necho not reached\n"),
    case("errexit-function", "set -e\nf() { false; echo in-f; }\nf || echo caught\nf\necho not reached\n"),
    case("errexit-subshell-pipeline", "set -e\n(false; echo no) || echo sub-failed\nfalse | true\necho pipe-ok\nset -o pipefail\nfalse | true\necho not reached\n"),
    case("errexit-cmdsub", "set -e\nx=$(false; echo still)\necho \"x=$x\"\ny=$(false)\necho not reached\n"),
    # -- traps -----------------------------------------------------------------------------
    case("trap-exit", "trap 'echo bye $?' EXIT\necho hi\nexit 3\n"),
    case("trap-err", "trap 'echo err at $LINENO' ERR\nfalse\ntrue\nf() { return 2; }\nf\necho done\n"),
    case("trap-subshell", "trap 'echo main-exit' EXIT\n( trap 'echo sub-exit' EXIT; echo in-sub )\necho after\n"),
    case("trap-list", "trap 'echo x' INT TERM\ntrap -p\ntrap - INT\ntrap -p\n"),
    # -- redirections ------------------------------------------------------------------------
    case("redirect-order", r"""{ echo out; echo err >&2; } > f 2>&1; cat f; { echo out2; echo err2 >&2; } 2>&1 > g; echo ---; cat g"""),
    case("redirect-fds", r"""exec 3> f3; echo one >&3; echo two >&3; exec 3>&-; cat f3
exec 4< f3; read a <&4; read b <&4; echo "$b $a"; exec 4<&-
echo x >> f3; cat f3 | wc -l; : > f3; wc -c < f3"""),
    case("here-docs", "x=val\ncat <<EOF\n$x $(echo sub) \\$x\nEOF\ncat <<'EOF'\n$x literal\nEOF\ncat <<-EOF\n\tstripped\nEOF\ncat <<< \"here $x\"\n"),
    case("noclobber", "set -C\necho a > f\necho b > f || echo refused\necho c >| f\ncat f\n"),
    case("dev-null-and-stdio", "echo gone > /dev/null; echo err > /dev/stderr; cat /dev/null; echo to-stdout > /dev/stdout\n"),
    # -- pipelines ------------------------------------------------------------------------------
    case("pipes", r"""printf 'b\na\nc\n' | sort | head -n 2; echo "${PIPESTATUS[@]}"
yes | head -n 3; seq 1 1000000000 | head -n 2
x=before; echo changed | read x; echo $x
false | true; echo "${PIPESTATUS[@]}" """),
    case("pipe-stderr", r"""{ echo out; echo err >&2; } |& cat; { echo o; echo e >&2; } 2>/dev/null | cat"""),
    case("sigpipe-status", r"""yes | head -n 1 > /dev/null; echo "${PIPESTATUS[@]}" """),
    # -- jobs --------------------------------------------------------------------------------------
    case("background-wait", r"""{ sleep 0.2; echo late; } & pid=$!; echo early; wait $pid; echo "waited $?"
( exit 5 ) & wait $!; echo "status $?" """),
    # -- the byte model ---------------------------------------------------------------------
    case("bytes-roundtrip", "x=$(cat bin); printf '%q\\n' \"$x\"; printf '%s' \"$x\" > out; y=$(cat out); [ \"$x\" = \"$y\" ] && echo same; cat bin > copy; [ \"$(cat copy)\" = \"$x\" ] && echo same2\n",
         files={"bin": b"\xff\xfe\x00-\xc3\x28\n"}),
    case("bytes-var", "v=$(printf '\\xe9t\\xe9'); echo ${#v}; printf '%s\\n' \"$v\" > o; cat o\n"),
    # -- bad input ------------------------------------------------------------------------------
    case("syntax-error-after-output", "echo a\nif then\necho b\n"),
    case("unbound-variable", "set -u\necho start\necho $nope\necho not reached\n"),
    case("bad-substitution", "echo ${x!}\necho next line\n"),
    case("command-not-found", "nosuchcmd arg\necho $?\n./nosuchfile; echo $?\n"),
    case("unexpected-eof", "echo start\nif true; then\n  echo x\n"),
    case("readonly", "readonly r=1\nr=2\necho $r $?\nunset r\necho $?\n"),
    # -- builtins --------------------------------------------------------------------------------
    case("read-builtin", "while IFS=: read -r a b; do echo \"[$a][$b]\"; done <<'EOF'\nx:y:z\n\\t:q\nlast\nEOF\nread -a arr <<< 'p q r'; echo ${arr[1]}\n"),
    case("printf-builtin", r"""printf '%5s|%-5s|%05d|%x|%o|%e|%.2f|%c|%%\n' ab cd 42 255 8 1234.5 3.14159 xyz
printf '%s-' a b c; echo; printf -v v '%03d' 7; echo $v; printf '%q\n' 'a b' "it's" """),
    case("getopts-builtin", r"""f() { local OPTIND o; while getopts 'ab:c' o; do echo "$o ${OPTARG-}"; done; shift $((OPTIND-1)); echo "rest: $*"; }
f -a -b val -c x y; f -ab2 z"""),
    case("declare-p", r"""declare -i n=5; declare -a a=(1 2); declare -A m=([k]=v); declare -r r=ro; x='q"$'
declare -p n a m r x"""),
    case("set-clusters", r"""set -euo pipefail; echo $-; shopt -po pipefail
set +euo pipefail; set -oo pipefail nounset; echo $-; shopt -po pipefail
set -eo errexit x y; echo "$- $1 $2"; set -euo | grep -c "^pipefail"; set +e; set -o bogus; echo $?
set -u; echo ${1} ${2}; echo $3"""),
    case("call-stack", r"""mf() { echo "mf: [${BASH_SOURCE[*]}] [${FUNCNAME[*]}] [${BASH_LINENO[*]}]"; lf; caller 0; }
echo "top: [${BASH_SOURCE[*]}] [${FUNCNAME[*]}] [${#BASH_LINENO[@]}]"
source ./lib.sh
mf
g() { . ./lib.sh; }
g
caller; echo "caller at top: $?"
select x in a b; do break; done < /dev/null; echo "select at EOF: $?"
bash -c 'f() { echo "-c: [${BASH_SOURCE[*]}] [${FUNCNAME[*]}] [${BASH_LINENO[*]}]"; caller; }; f'
""", files={"lib.sh": 'echo "lib: [${BASH_SOURCE[*]}] [${FUNCNAME[*]}] [${BASH_LINENO[*]}]"\n'
            'lf() { echo "lf: [${BASH_SOURCE[*]}] [${FUNCNAME[*]}] [${BASH_LINENO[*]}]"; caller 1; }\n'}),
    case("redirect-errors", "cat < nofile; echo \"st=$?\"\necho x > nodir/f\nexec 4<missing; echo \"exec=$?\"\n"
         "mkdir d; echo > d; x=./nope/y; echo > $x; echo > \"\"\n"),
    case("mapfile-forms", r"""printf 'a\nb\nc\nd\n' > f
mapfile -C 'echo cb' -c 2 arr < f; declare -p arr
cb() { echo "cb $1 [$2]"; }; mapfile -t -C cb -c 1 -O 5 arr < f; declare -p arr
mapfile -s 1 -n 2 -t arr < f; declare -p arr; printf 'x\0y' | { mapfile -d '' arr; declare -p arr; }
{ mapfile -n 1 first; read -r rest; echo "${first}rest=$rest"; } < f; mapfile -c 0 arr < f; echo $?
"""),
    case("set-v", """set -v
echo a  # c

# comment
x=1; echo $x
if true; then
  echo in
fi
cat <<E
hd
E
eval 'echo ev'; trap 'echo trapped' EXIT
set +v
echo quiet
"""),
    case("xtrace-assignments", r"""set -x
n=0; x=$((n+=1)); echo $n; y=$((n+=1)) true; echo $n
a=1 b=$a; c="x y" d=; arr=(1 "a b"); arr[1]=z; arr+=(q)
f() { echo "$X"; }; X="v w" f
PS4='+${FUNCNAME[0]:-top}:$((1+1)) $(echo sub) '; f; a=2
"""),
    case("return-trap", r"""f() { trap 'echo "RET f $?"' RETURN; return 3; }; f; echo mid
g() { :; }; g; echo "not inherited"; set -T; g; set +T
echo 'return 4' > s.sh; . ./s.sh; echo "st=$?"; . /dev/null; . .; echo "dir=$?"
"""),
    case("exec-prefix-assignments", r"""x=1 exec; echo "[$x]"; y=2 exec 3>/dev/null; echo "[$y]"
n=0; z=$((n+=1)) exec; echo "$n"; export e=1; e=2 exec; echo $e; echo hi >&3
"""),
    case("aliases", open(pathlib.Path(__file__).with_name("aliases.sh")).read()),
    case("pattern-classes-utf8", r"""case "ü" in [[:alpha:]]) echo alpha;; esac
x="héllo1!Ⓐ٣"; echo "${x//[[:alpha:]]/.}" "${x//[![:alnum:]]/_}" "${x//[[:punct:]]/P}"
touch é a1 B; echo [[:upper:]]* [[:lower:]]*; echo *[[:digit:]]
[[ "É" == [[:upper:]] && "ß" == [[:lower:]] && " " == [[:blank:]] ]] && echo classes
"""),
    case("cd-pwd", "mkdir -p d/e; cd d/e; pwd; cd ..; pwd; cd -; cd /nonexistent; echo $?\n"),
    case("eval-source", "eval 'x=1; echo $x'; echo 'echo sourced $1' > s.sh; . ./s.sh arg\n"),
    # -- conformance fixes (beyond the spec suite's own cases) -------------------------------
    case("break-args", r"""for i in a b; do echo $i; break 0; done; echo "st=$?"
for i in a b; do for j in c d; do echo $i$j; continue -1; done; done; echo "st=$?"
for i in a b; do echo $i; break -- 1; done
f() { for i in a; do break 1 2; done; echo in-f; }
f; echo discarded
echo next
break x; echo "outside=$?"
return; echo "return=$?"
"""),
    case("echo-printf-bytes", r"""echo -e 'a\101|\0101|\1' | od -c
printf '%b|' '\101' '\0101'; echo
echo -n $'\c0\c-\c?' | od -An -tx1
printf '%.1s|%3s|%-4s|%3c|%c|' μμ μ μ μ ''; echo
printf '%x %x\n' "'μ" "'"$'\xce'
printf -v x '\xce\xbc'; printf '%q %s\n' "$x" ${#x}; y=$'\xce\xbc\xce'; printf '%q\n' "$y"
"""),
    case("getopts-bind", r"""set -- -a -b x rest; getopts ab: o-; echo "$? $OPTIND"; getopts ab: o-; echo "$? $OPTIND $OPTARG"
OPTIND=9; getopts ab: o; echo "$? $OPTIND $o"
"""),
    case("read-delims", "printf 'a\\\nb,c\\,d,e' | { read -d , x; echo \"[$x]\"; read -d , y; echo \"[$y]\"; }\n"
                       "printf 'p\\0q\\0' | { mapfile -d '' m; echo \"${#m[@]} ${m[1]}|\"; }\n"),
    case("glob-backslash-skipdots", r"""for v in 'a\*' '\a*' 'a\\b*' '*\\*' 'x\y*' '[a]\b' '*\'; do echo "$v =>" $v; done
echo -{Z..a}
shopt -u globskipdots; echo .* d/.* .?
""", files={"a\\b": "", "a*b": "", "ab": "", "x\\y": "", "d/f": ""}),
    case("patsub-match-length", r"""s='a]b'; for pat in '[^]]' '[^]x]' '[^x]]' '[]]' '[]x]' '[!]a]' '*[^]]' '[^]]*' '?[^]]' '[^]]?' 'b' '?' '[[:alpha:]]' '[[:alpha:]]]' '[a' 'a]' '\]'; do echo "$pat: //=${s//$pat/z} /=${s/$pat/z} /#=${s/#$pat/z} /%=${s/%$pat/z}"; done
x=/a/b; echo "${x////_}" "${x///_}" "${x//#/_}" "${x/#//_}"
"""),
    case("shellopts-live", r"""echo "$SHELLOPTS"; set -eu; echo "$SHELLOPTS"; set +eu -o pipefail; echo $SHELLOPTS
(set -x; echo ${#SHELLOPTS}) 2>/dev/null; shopt -s nullglob; [[ $BASHOPTS == *nullglob* ]] && echo nullglob
SHELLOPTS=x; echo "$?"; declare -p SHELLOPTS
"""),
    case("arith-cr", "x=$'4\\r'; echo $((x + 1)); echo next\necho $((1 +\r2))\necho $(( 2 ))\n"),
    case("readonly-assign", r"""readonly r=1
f() { r=2; echo in-f; }
f; echo after
echo next
for i in 1 2; do r=3; echo loop; done
(r=4; echo sub); echo st=$?
x=$(r=5; echo cs); echo "x=$x"
r=6 true && echo yes
true | r=7; echo "ps=${PIPESTATUS[*]}"
r=3 :; echo "st=$?"
r=3 eval "echo in"; echo "st=$?"
f() { echo f; }; r=4 f; echo "st=$?"
r=5 cat /dev/null; echo "st=$?"
r=5 nosuch; echo "st=$?"
x=1 r=2 y=3; echo "x=$x y=$y"
"""),
    case("eval-abort-line", r"""eval 'echo $((1/0)); echo in'; echo "after $?"
readonly r=1
eval "r=2; echo in2"; echo "after2 $?"
eval $'echo $((1/0)); echo in\necho in3'; echo "after3 $?"
f() { local x=local; readonly x; eval 'x=bar'; echo "status=$?"; }; f
eval 'for i in a; do break 1 2; done; echo in4'; echo "not reached"
echo next
"""),
    case("readonly-errexit", r"""set -e
readonly r=1
(r=2) || echo caught
echo next
x=$(r=3) || echo c2
echo n2
r=4 true || echo c3; echo n3
if r=5; then echo then; fi
"""),
    case("simple-command-lines", r"""echo a
eval "

echo \$LINENO"
eval "

f() { :; }"; shopt -s extdebug; declare -F f
f2() {
:
}; declare -F f2
echo $LINENO "

" $LINENO
echo "
" $LINENO
x=$LINENO"
"; echo $x
f() { echo "${BASH_LINENO[0]}"; }
f
f "
"
f \
 x
x=1 f
x="
" f
 f "" "
"
f <<EOF
hi
EOF
f | cat
! f
"""),
    case("declare-F-extdebug", r"""f() {
 echo
}

  g ()
{ :; }
shopt -s extdebug; declare -F f g
echo "h() { :; }" > s.sh; . ./s.sh; declare -F h
eval "

k() { :; }"; declare -F k
declare -F; shopt -u extdebug; declare -F f
"""),
    case("indirect-array-colon", r"""a=(""); ref='a[@]'; echo "[${!ref:-x}] [${!ref:+y}]"; a=(); echo "[${!ref:-x}] [${!ref:+y}]"
a=("" ""); ref='a[*]'; IFS=; echo "[${!ref:-x}] [${a[*]:-x}]"
"""),
    case("exec-a", r"""(exec -a FOOPROC sh -c 'echo $0'); (exec -a NAME bash -c 'echo $0 $1' a b); exec -a X echo done
"""),
    case("prefix-array-bindings", r"""f() { declare -p B; }; B=(1 2) f; B=(1 "x  y") f; B=([k]=v) env | grep ^B=
a=(x); a+=(y) env | grep ^a=
a=(x)
a[1]=z true; echo "st=$?"
echo next
f() { echo "f ${a[*]}"; }
a[1]=z f; echo "st=$?"
"""),
    case("posix-special-prefix", r"""x=42; x=tmp unset x; echo "x=$x"
set -o posix; x=1 :; echo "x=$x"; y=2 eval 'echo in $y'; echo "y=$y"; env | grep '^y='; z=3 true; echo "z=${z-unset}"
g() { x=42; x=tmp unset x; echo "x=$x"; x=42; x=tmp eval 'unset x'; echo "x=$x"; }; g
"""),
    case("funcdef-bad-names", r"""$foo-bar() { ls ; }; echo "st=$?"
function $x { :; }; echo "st=$?"; "q"() { :; }; echo "st=$?"; a-b() { echo ab; }; a-b
"""),
    case("errexit-negated-function", r"""g() { false; echo "g goes on"; }; set -e; ! g; echo after-g; set +e
foo() { set -e; false; echo "not reached"; }; ! foo; echo "not reached either"
"""),
    case("transform-ops", r"""empty=''; x=x
echo "[${x@Q}] [${empty@Q}] [${undef@Q}]" ${undef@Q} ${x@Q}
echo "[${x@K}] [${empty@K}] [${undef@K}] [${x@k}] [${undef@k}]"
echo "[${x@A}] [${empty@A}] [${undef@A}] [${undef@a}] [${undef@E}] [${undef@U}]"
declare -i u; echo "[${u@a}] [${u@A}] [${u@Q}] [${u@K}]"
declare -a ar; echo "[${ar@a}] [${ar@A}] [${ar[@]@K}] [${ar[@]@A}]"
ar=(1 "x y"); echo "[${ar@A}] [${ar[@]@A}] [${ar[1]@A}] [${ar@K}] [${ar[@]@K}] [${ar[*]@K}]"; printf '<%s>' ${ar[@]@k}; echo
declare -A A=([x]=y [k]="a b"); echo "[${A[@]@A}] [${A[x]@A}] [${A@K}] [${A[@]@K}] [${A@Q}] [${A[@]@Q}] [${A@a}] [${A[@]@a}]"; printf '<%s>' "${A[@]@k}"; echo
n=5; declare -i n; echo "[${n@A}]"; declare -r x; echo "[${x@A}] [${x@a}]"; export e=1; echo "[${e@A}]"
set -- a "b c"; echo "[${@@Q}] [${*@Q}] [${1@A}] [${@@K}]"
s=123; echo "[${s::}] [${s:1:}] [${s: }]"; echo ${s:}; echo not-reached
echo next
"""),
    case("empty-subscripts-list-to-element", r"""a=(1 2 3)
a[]=42; echo "st=$?"
echo ${a[@]}
echo ${a[]}; echo "st=$?"
echo next
a=(1 2 3)
echo ${a[ ]}; echo "st=$?"
echo next
a[ ]=5; echo st=$?
echo ${#a[]}
echo n2
declare -A A; A[]=1
echo n3
a=(1 "2 3")
a[-1]+=(4 5); echo st=$?
echo next ${a[@]}
a[0]=(x); echo st=$?
"""),
    case("dq-operand-single-quotes", r"""var='a b'; echo "${U:-'$var'}"; echo "${U:-'}'}"; echo "${U:-'\$var'}"; echo "${U:-'"x"'}"; echo "${U:-'a\b'}"; echo ${U:-'$var'}; echo "${U:-'a
 b'}" "${U-'$(echo c)'}" "${var:+'$var'}"
"""),
    case("dup-redirect-file-words", r"""set -- "2 3" "c d"; echo hi 1>& "$@"; echo "st=$?"
set -- "2 3"; echo hi 1>& "$@"; echo "st=$?"; cat "2 3"
x="a b"; echo hi >& $x; echo "st=$?"; touch g1; echo there >& g*; cat g1
"""),
    case("declare-through-nameref", r"""x=1; declare -n r=x; export r=5; echo "x=$x r=$r"; declare -p x r; readonly r=7; echo "x=$x"; declare -p x r; declare r=9; echo "x=$x"; declare -p r
y=2; declare -n q=y; export q; readonly q; declare -p y q; declare -i q; declare -p y; f() { local r=3; declare -p r; }; f; declare +n q; declare -p q
declare -A A=([K]=val); declare -n ref='A["K"]'; ref=v2; key=K; declare -n ref='A[$key]'; echo "$ref"; ref=v3; echo "${A[K]}"
"""),
    case("v-negative-subscript", r"""e=(); [[ -v e[-1] ]]; echo "st=$?"; [[ ! -v e[-1] ]]; echo "st=$?"
e=(1); [[ -v e[-1] ]]; echo "st=$?"; [[ -v e[-2] ]]; echo "st=$?"; test -v "e[-3]"; echo "st=$?"; (e=(); [ -v "e[-1]" ] || echo sub)
"""),
    case("test-three-args-and-or", r"""[ -z -a ] ]; echo "st=$?"; [ "" -a x ]; echo "st=$?"; [ "" -o x ]; echo "st=$?"; [ -n -o "" ]; echo "st=$?"; test x -a ""; echo "st=$?"
"""),
    case("operand-braces-do-not-nest", r"""echo "${U:-{a}b}"; echo ${U:-{a}b}; x=a; echo "${x/a/{b}c}" ${x/a/{b}c} "${x#{a}b}"; echo "${U:-${x}y}"
echo ${U:-{a,b}}; echo ${U:-x{a,b}y}; echo "${U:-{}}"; echo ${U:-a}{1,2}
IFS=x; X=abxcd; echo ${X/bxc/g}; X=a=\"\$a\"; echo ${X//a/{x,y,z}}
"""),
    case("shell-startup-without-path", r"""env -i bash --noprofile --norc --rcfile /dev/null -c 'echo "$PATH"; env | grep -c PATH; declare -p PATH PS4 IFS'
"""),
    case("shell-options-O-i", r"""bash +O nullglob -c 'echo foo *.nonexistent bar'; bash -O nullglob -c 'echo foo *.nonexistent bar'
bash -O dotglob -c 'shopt dotglob'; bash -c 'echo $-' | grep -c i; bash -i -c 'echo $-' 2>/dev/null | grep -c i
bash -i -c 'set -u; echo before; echo $x; echo after
echo line2' 2>/dev/null
"""),
    case("select-break-continue", r"""select x in a b; do echo "got $x"; [ "$x" = b ] && break; continue; echo no; done; echo "after $?"
for i in 1 2; do select y in p q; do echo "in $i $y"; break 2; done; done; echo end
select z in only; do echo "z=$z REPLY=$REPLY"; done; echo "eof $?"
""", stdin="1\n\n2\n3\n5\n"),
    case("regex-match-newlines", r"""x=$'a\nb'; [[ $x =~ a.b ]] && echo dot; [[ $x =~ a[^x]b ]] && echo negated
[[ $x =~ ^b ]] && echo caret; [[ $x =~ a$ ]] && echo dollar; [[ $x =~ a[[:space:]]b ]] && echo space
[[ $x =~ ^a.b$ ]] && echo whole; y=$'l1\nl2'; [[ $y =~ (l.)$ ]] && echo "last=${BASH_REMATCH[1]}"
c=$'a\r'; [[ $c =~ a$ ]] || echo "cr stays"; [[ $c =~ a.$ ]] && echo "cr is a char"
expr "$x" : 'a.b'; expr "$(printf 'ab\ncd')" : '\(.*\)'
"""),
    case("proc-subst-file-tests", r"""[ -p <(true) ] && echo p; [[ -p <(true) ]] && echo p2
echo x | { [ -p /dev/fd/0 ] && echo "stdin pipe"; }; [ -p >(cat) ] && echo wp; [ -f <(true) ] || echo "not regular"
[ -e <(true) ] && echo exists; [ -r <(true) ] && echo readable
"""),
]
