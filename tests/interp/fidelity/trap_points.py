"""Where DEBUG and ERR traps fire: before `for`/`case`/`select` heads, `((...))`, `[[...]]`,
the three parts of an arithmetic `for`, each simple part of a pipeline (in the parent, before the
part starts), once per pipeline for ERR; a signal a script sends itself runs its trap at once."""

from tests.interp.cases import case

D = "trap 'echo \"  dbg $LINENO\"' DEBUG\n"

CASES = [
    case("debug-dparen-dbracket", D + """(( x = 1 + 2 ))
[[ $x == 3 ]]
y=4
export z=5
echo "$x $y $z"
"""),
    case("debug-for-in", D + """for i in a b
do
  echo "i=$i"
done
for j in; do echo never; done
echo end
"""),
    case("debug-for-arith", D + """for (( k = 0;
       k < 2;
       k++ )); do
  echo "k=$k"
done
for ((;;)); do break; done
"""),
    case("debug-case", D + """v=x.txt
case $v in
  *.sh) echo sh ;;
  *.txt)
    echo txt
    ;;
esac
case nomatch in a) echo a ;; esac
"""),
    case("debug-if-while-until", D + """if [[ -n a ]]; then
  echo yes
fi
n=0
while (( n < 2 )); do
  (( n++ ))
done
until true; do :; done
"""),
    case("debug-pipeline-parts", D + """echo one |
  tr a-z A-Z |
  cat
{ echo g1; echo g2; } | cat
echo "ps=${PIPESTATUS[*]}"
"""),
    case("debug-pipeline-lastpipe", "shopt -s lastpipe\n" + D + """echo v | read w
echo "w=$w"
true | { echo inner; }
"""),
    case("debug-andor-not", D + """false || echo or
true && echo and
! false
"""),
    case("debug-bash-command", """trap 'printf "<%s>\\n" "$BASH_COMMAND"' DEBUG
for a in 1; do :; done
(( a += 1 ))
[[ $a -eq 2 ]]
case $a in 2) : ok ;; esac
echo last | cat
"""),
    case("debug-in-functions-functrace", """f() {
  for q in 1; do
    [[ $q ]]
  done
}
trap 'echo "  dbg $LINENO"' DEBUG
f
set -o functrace
f
trap - DEBUG
echo done
"""),
    case("debug-subshell-and-group", D + """( echo sub )
{ echo grp; }
x=$(echo cs)
echo "$x"
"""),
    case("debug-select", D + """select s in one two; do
  echo "s=$s"
  break
done <<< 2
"""),
    case("err-pipeline-once", """trap 'echo "err $LINENO ${PIPESTATUS[*]}"' ERR
false | false |
  false
{ true; false; } | false
true | false
false | true
! false | false
echo done
"""),
    case("err-pipeline-pipefail", """set -o pipefail
trap 'echo "err $LINENO $?"' ERR
false | true
(exit 3) | true | true
true | true
echo done
"""),
    case("err-compound-atoms", """trap 'echo "err $LINENO"' ERR
(( 0 ))
[[ a == b ]]
x=$(false)
(false)
{ false; }
f() { false; }
f
echo done
"""),
    case("signal-self-trap", """trap 'echo "usr1 $?"' USR1
kill -USR1 $$
echo "after=$?"
trap 'echo term' TERM
kill $$
echo "after2=$?"
trap - USR1
(trap 'echo sub-usr1' USR1; kill -USR1 $BASHPID; echo sub-after)
"""),
    case("signal-self-with-debug-err", """trap 'echo "usr1 $LINENO"' USR1
trap 'echo "err $LINENO"' ERR
f() { kill -USR2 $$; }
trap 'echo usr2; false' USR2
f
echo "after=$?"
"""),
]
CASES += [
    case("child-shell-signals-parent", r"""trap 'echo "usr1 st=$?"; ( exit 42 )' USR1
echo before=$?
sh -c "kill -USR1 $$"; echo "after=$?"
bash -c 'echo "ppid ok $(( PPID == '$$' ))"; [ $$ != '$$' ] && echo "own pid"'
echo "x=$(sh -c "kill -USR1 $$"; echo cs)"
trap - USR1
bash -c 'trap "echo child-usr1" USR1; sh -c "kill -USR1 \$PPID"; echo "in child"; trap "echo child-term; exit 3" TERM; sh -c "kill -TERM \$PPID"; echo "not reached"'
echo "child st=$?"
"""),
    case("signal-trap-runs-debug-and-err", r"""trap 'false; echo "$LINENO usr1"' USR1
trap 'false; echo "$LINENO dbg"' DEBUG
sh -c "kill -USR1 $$"
echo after=$?
trap - DEBUG
trap 'false; echo "$LINENO err"' ERR
sh -c "kill -USR1 $$"
echo after=$?
kill -USR1 $$
echo after2=$?
trap 'echo "  dbg $BASH_COMMAND"' DEBUG
false
"""),
    case("ignored-by-default-signals", r"""trap 'echo urg' URG
kill -URG $$
{ echo begin; sleep 0.2; echo end; } > out.txt &
kill -URG $!; kill -WINCH $!; kill -CHLD $!; kill -0 $!; echo "alive $?"
wait; echo "wait $?"; cat out.txt
sleep 5 & kill -TERM $!; wait $!; echo "term $?"
"""),
]
