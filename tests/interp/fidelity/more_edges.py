"""Edges the first probes missed: a PATH given to one command (its search, the hash table),
GLOBIGNORE turning dotglob on and off, shift's messages, eval of a broken compound
assignment."""

from tests.interp.cases import case

G = {n: "" for n in [".h", "a", "b", "c.txt"]}

CASES = [
    case("prefix-path-search", r"""PATH=/nonexistent ls 2>&1; echo st=$?; PATH=/nonexistent command -v ls; echo st=$?
PATH=/nonexistent type ls; echo st=$?; hash -r; ls >/dev/null; PATH=/nonexistent ls; echo st=$?
f() { ls /dev/null; }; PATH=/x f; echo st=$?; PATH=/x env true; echo st=$?"""),
    case("prefix-path-hash", r"""ls >/dev/null; PATH=/x true; hash; ls > /dev/null; PATH=/x ls; hash
PATH=/usr/bin:/bin cat </dev/null; hash; f(){ :; }; PATH=/x f; hash; PATH=$PATH ls >/dev/null; hash"""),
    case("globignore-dotglob", r"""shopt dotglob; GLOBIGNORE=a; shopt dotglob; echo *; GLOBIGNORE=; shopt dotglob; echo *
unset GLOBIGNORE; shopt dotglob; echo *; shopt -s dotglob; GLOBIGNORE=; shopt dotglob; unset GLOBIGNORE; shopt dotglob
GLOBIGNORE=b; shopt -u dotglob; echo *; f() { local GLOBIGNORE=a; echo *; }; f; shopt dotglob; echo *""", files=G),
    case("globignore-local-unset", r"""g() { local GLOBIGNORE; unset GLOBIGNORE; shopt dotglob; }; g; shopt dotglob
GLOBIGNORE=: ; shopt dotglob; echo *; GLOBIGNORE='*.txt'; echo * .*; (unset GLOBIGNORE; echo *); echo *""", files=G),
    case("shift-messages", r"""set -- a; shopt -s shift_verbose; shift 1; shift; echo st=$?; shift 0; shift 1; shift 3
shift -1; echo st=$?; shift x; echo st=$?; shopt -u shift_verbose; shift; echo st=$?; shift 5; echo st=$?"""),
    case("eval-compound-assign-errors", r"""eval 'x=(1'; echo st=$?; eval 'x=(1 ")"'; echo st=$?; eval 'declare -a x=(1'; echo st=$?
eval 'a=(1;'; echo st=$?; eval 'echo "abc'; echo st=$?; eval 'if true; then'; echo st=$?"""),
    case("eval-heredoc-eof", r"""eval 'cat <<E
body'; echo st=$?; eval 'cat <<-E'; echo st=$?"""),
]

CASES += [
    case("arith-error-tokens", r"""x=3
for e in 'x ** -1' '2**-1' '2 ** - 1' '2**(-1)' 'x**-1+1' '1/0' '5 % 0' '2 ** -1 * 3' '(2**-1)' '1/0+2' '(1/0)' \
         '1 / 0 ' '3/(1-1)*2' '4%(2-2)' 'x/=0' 'x /= 1-1' 'x/=(0)' 'x %= 0 ' 'x/=0,1' 'x**=-1'; do
  ( echo $(( $e )) ) 2>&1; (( $e )) 2>&1; let "$e" 2>&1
done"""),
    case("subscript-arith-errors", r"""a=(1 2); (echo $(( a[1/0] )); echo not) 2>&1; (unset a; echo $(( a[1/0] + 1 )); echo not) 2>&1
(echo ${a[1/0]}; echo not) 2>&1; (a[1/0]=3; echo not) 2>&1; (declare -a b; b[2**-1]=1; echo not) 2>&1
((a[2**-1] = 1)) 2>&1; echo st=$?
let 'x=a[2**-1]' 2>&1; echo st=$?
(( 1/0 )) 2>&1; echo st=$?; declare -i n; (n='a[1/0]'; echo not) 2>&1; echo st=$?"""),
    case("substring-arith-errors", r"""x=abc; (echo ${x:1/0}) 2>&1; (echo ${x:1:1/0}) 2>&1; a=(1 2); (echo ${a[@]:1/0}) 2>&1
unset u; echo "[${u:1/0}]" "[${u::1/0}]"; unset a; echo "[${a[@]:1/0}]"; b=(); echo "[${b[*]:1/0}]"; declare -A m; echo "[${m[@]:1/0}]"
e=; (echo ${e:1/0}) 2>&1; set --; (echo ${@:1/0}) 2>&1; set -- a; (echo ${*:1/0}) 2>&1; (echo ${x: -1/0}) 2>&1
(echo ${x:y}; echo ok) 2>&1; (set -u; echo ${x:y}) 2>&1; c=(1); (echo ${c[1/0]:2}) 2>&1"""),
    case("subscript-error-discards", r"""f() { a=(1); echo ${a[1/0]}; echo infunc; }; f; echo after
echo next $?
a=(1); (( a[1/0] )); echo after $?
echo next2 $?
x=abc; echo ${x:1/0}; echo after3
echo next3 $?"""),
    case("redir-error-through-partial", r"""echo x 2>&1 > /nonexistent/f; echo st=$?
ls 2>&1 >/nonexistent/g; echo st=$?; { echo y; } 2>/dev/null >/nonexistent/h; echo st=$?
f() { echo in f; }; f 2>&1 >/nonexistent/d/x 2>/dev/null; echo st=$?
cat < /nonexist 2>&1; echo st=$?
echo a 2>&1 1>&- ; echo st=$?; printf x 2>/dev/null >&-; echo st=$?
declare -r R=1; declare R=2 2>/dev/null; echo st=$?; { echo b >&-; } 2>&1; echo st=$?"""),
    case("exec-redir-undo", r"""exec 3>&1 4>out4 5</nonexistent; echo st=$?; echo to3 >&3; echo to4 >&4; echo st=$?
exec 2>&1 >/nonexistent/x; echo st=$?; ls /nonexistent 2>/dev/null; echo st=$?
exec 6>out6; echo six >&6; exec 6>&-; cat out6; exec 7>&1 >/dev/null 2>&7; echo hidden; echo shown >&7
exec >&7 7>&-; echo back; exec 8<&- ; echo st=$?; exec 9>&1 9>&-; echo st=$?"""),
]

CASES += [
    case("compound-assign-syntax-discard", "echo a\nx=(1;) ; echo c\necho b; x=(2 |)\necho d; echo $?\n"
         "if true; then x=(3;); echo in; fi\necho e\nf() { y=(1 2 ;) ; }\necho g $?\n"
         "eval 'z=(1;); echo inner'; echo after $?\n"),
    case("compound-assign-eof", "echo a\nx=(1 2\necho never\n"),
    case("xtrace-decl-arrays", r"""set -x
declare -A m=([k]=v [a b]=c); declare -a a=([3]=x [1+1]=y z); declare -A n=([$((1+1))]="it's" ["k k"]+=v)
declare -a e=(); declare -a b+=(n); declare q=(1); f=$'a\nb'; declare -a w=("$f" ''); declare -A kv=(k1 v1 k2 v2)
g() { local -a l=(x y); local s=1; }; g; export E=(1 2); readonly -a R=(q); typeset -A t=([z]=1) u; a+=(4)"""),
]

X = {n: "" for n in ["a", "aa", "b", "ab", "+(a)"]}
CASES += [  # extglob patterns are matched by the option as it is at run time ([[ ]]: always)
    case("extglob-runtime-glob", r"""p='+(a)'; echo $p; p='@(a|b)'; echo $p; p='!(a)'; echo $p; shopt -s extglob; p='+(a)'; echo $p; p='!(a)'; echo $p; echo "$p" """, files=X),
    case("extglob-runtime-case", r"""p='+(a)'; case a in $p) echo m;; *) echo n;; esac; case '+(a)' in $p) echo m2;; esac; [[ aa == $p ]] && echo m3; shopt -s extglob; case aa in $p) echo m4;; esac""", files=X),
    case("extglob-runtime-params", r"""x=aab; echo ${x##+(a)} ${x/@(a)/X} ${x%%*(b)}; y='+(a)b'; echo ${y#+(a)}; shopt -s extglob; echo ${x##+(a)} ${x/@(a)/X} ${y#+(a)}""", files=X),
    case("extglob-runtime-function", r"""f() { x=aab; echo ${x##+(a)}; }; f; shopt -s extglob; f; shopt -u extglob; f; x=aab; echo ${x^^+(a)} ${x//?(a)/-}""", files=X),
]
