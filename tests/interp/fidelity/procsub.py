"""Process substitution: <(cmd) and >(cmd) as file names the shell and its commands open."""

from tests.interp.cases import case

CASES = [
    case("cat-and-redirect", r"""cat <(echo a) <(echo b); wc -l < <(seq 3); while read l; do echo "<$l>"; done < <(printf 'x\ny\n')"""),
    case("diff-comm-paste", r"""diff <(echo a) <(echo b); echo "st=$?"; comm <(printf 'a\nb\n') <(printf 'b\nc\n'); paste <(seq 2) <(seq 3 4)"""),
    case("fd-names", r"""echo <(true) <(true); x=<(true); echo "$x"; f() { echo "$1 $2"; }; f <(:) >(:)"""),
    case("source-and-dot", r"""source <(echo 'v=from-source; echo sourced'); echo "$v"; . <(printf 'echo "args: $#"\n') a b"""),
    case("bash-reads-procsub", r"""bash <(echo 'echo "child $0" | sed "s#/dev/fd/[0-9]*#FD#"'); sh <(echo 'echo via sh')"""),
    case("read-and-mapfile", r"""read -r first < <(printf 'one\ntwo\n'); echo "$first"; mapfile -t arr < <(seq 3); echo "${#arr[@]} ${arr[2]}"; read -r a b <<< "$(cat <(echo p q))"; echo "$b" """),
    case("exec-fd-from-procsub", r"""exec 3< <(printf 'l1\nl2\n'); read -u 3 x; read -u 3 y; echo "$x/$y"; exec 3<&-"""),
    case("output-procsub", r"""echo hello > >(tr a-z A-Z); wait; sleep 0.2; printf 'a\nb\n' | tee >(wc -l > count.txt) > /dev/null; sleep 0.3; cat count.txt"""),
    case("in-loops-and-functions", r"""for i in 1 2; do cat <(echo "it $i"); done; g() { cat "$@"; }; g <(echo g1) <(echo g2); (cat <(echo sub))"""),
    case("redirect-to-dev-fd", r"""exec 4> out4; echo via-fd > /dev/fd/4; exec 4>&-; cat out4; cat /dev/fd/0 <<< stdin-name; cat < /dev/stdin <<< redirected"""),
    case("proc-self-fd", r"""exec 5<<< 'from five'; cat < /proc/self/fd/5; echo x > /proc/self/fd/1"""),
    case("procsub-status-and-bang", r"""cat <(exit 3) > /dev/null; echo "st=$?"; : <(echo bg); [ -n "$!" ] && echo "has-pid" """),
    case("procsub-with-set-e-and-pipefail", r"""set -e -o pipefail; cat <(false) > /dev/null; echo survived; diff <(echo x) <(echo x) && echo same"""),
    case("nested-procsub", r"""cat <(cat <(echo inner)); cat <(echo "$(cat <(echo deep))")"""),
    case("procsub-in-test", r"""[ -e <(true) ] && echo exists; [[ -p <(true) ]] && echo pipe; [ -r <(true) ] && echo readable; [ -f <(true) ] || echo not-file"""),
    case("procsub-glob-and-quotes", r"""echo "<(echo x)"; echo '<(echo y)'; echo \<\(echo z\); cat <(echo 'a b' "c  d")"""),
    case("procsub-in-assignment-and-array", r"""f=<(echo assigned); cat "$f" 2>/dev/null || echo gone; arr=(<(echo e1) <(echo e2)); echo "${#arr[@]}" """),
    case("procsub-many", r"""cat <(echo 1) <(echo 2) <(echo 3) <(echo 4) <(echo 5) <(echo 6); echo <(:) <(:) <(:)"""),
    case("sort-uniq-join", r"""sort <(printf 'b\na\n') <(printf 'c\n'); join <(printf '1 a\n2 b\n') <(printf '1 x\n2 y\n'); uniq -c <(printf 'a\na\nb\n')"""),
    case("head-tail-wc-on-procsub", r"""head -n1 <(seq 5); tail -n1 <(seq 5); wc -l <(seq 4) | sed 's#/dev/fd/[0-9]*#FD#'; cut -c1 <(echo xyz)"""),
    case("cmp-md5-on-procsub", r"""cmp <(echo a) <(echo a) && echo same; md5sum <(echo hi) | cut -c1-8; od -c <(printf 'ab') | head -1"""),
    case("xargs-and-find-with-procsub", r"""xargs echo < <(printf 'a\nb\n'); cat <(printf '%s\n' one two) | xargs -n1 echo item"""),
    case("procsub-stdin-of-while", r"""n=0; while read -r l; do n=$((n+1)); done < <(seq 5); echo "$n"; { read a; read b; } < <(printf '1\n2\n'); echo "$a$b" """),
    case("tee-output-procsubs", r"""echo data | tee >(cat > t1) >(cat > t2) > /dev/null; sleep 0.3; cat t1 t2"""),
]
CASES += [
    case("source-and-bash-from-stdin", r"""source /dev/stdin <<< 'echo sourced-stdin'; echo 'echo "piped $#"' | bash /dev/stdin a b; . /proc/self/fd/0 <<< 'echo via-proc'"""),
    case("pipe-tests-on-fds", r"""echo x | { [ -p /dev/fd/0 ] && echo stdin-pipe; }; [[ -p >(:) ]] && echo out-pipe"""),
]
CASES += [
    case("grep-sed-awk-on-procsub", r"""grep -c x <(printf 'x\nx\ny\n'); sed -n 2p <(seq 3); awk '{s+=$1} END {print s}' <(seq 4)"""),
]
