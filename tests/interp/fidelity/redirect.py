"""Redirections: >&N / <&N, >&word, <>, globs matching several files, on { } and functions."""

from tests.interp.cases import case

CASES = [
    case("dup-aliases", r"""echo one 1<&2 2>/dev/null; { echo two 1<&2; } 2>err.txt; cat err.txt; exec 3>f3; echo three 1<&3; cat f3; echo four 0>&1"""),
    case("dup-word-nonnumber", r"""echo x >&file1; cat file1; ls nosuch >&file2; cat file2 | sed 's/.*: //'; echo y 1>&file3; cat file3"""),
    case("dup-word-fd-ambiguous", r"""echo z 2>&file4; echo "st=$?"; ls file4 2>&1 | sed 's/.*: //'; f=5; echo a >&$f; echo "st=$?"; g=-; echo b >&$g; echo "st=$?" """),
    case("dup-closed-fd", r"""echo x >&7; echo "st=$?"; echo y 2>&9; echo "st=$?"; cat <&8; echo "st=$?"; exec 3>&-; echo z >&3; echo "st=$?" """),
    case("close-fds", r"""exec 3>f; echo hi >&3; exec 3>&-; cat f; (echo out >&-) 2>&1 | sed 's/^.*: //'; read x <&-; echo "st=$?"; (read -u 0 y <&-); echo "st=$?" """),
    case("read-write-file", r"""printf 'abcdef\n' > rw; exec 3<>rw; read -n 2 x <&3; echo XY >&3; exec 3>&-; cat rw; echo new 1<>rw2; cat rw2; echo zz 0<>rw3 >&0; cat rw3"""),
    case("glob-targets", r"""touch a.log b.log; echo x > *.log; echo "st=$?"; echo y > c*.txt; echo "st=$?"; ls; echo z > a*.log; cat a.log""", files={"c1.txt": "old\n"}),
    case("glob-targets-nullglob-failglob", r"""touch a.log b.log; shopt -s nullglob; echo x > nomatch*; echo "st=$?"; shopt -u nullglob; shopt -s failglob; echo y > nomatch*; echo "st=$?"; echo z > a*; echo "st=$?" """),
    case("var-targets-ambiguous", r"""f=''; echo x > $f; echo "st=$?"; g='a b'; echo y > $g; echo "st=$?"; echo z > "$g"; cat "a b"; unset h; echo w > $h; echo "st=$?" """),
    case("brace-group-redirects", r"""{ echo a; echo b >&2; } > out 2> err; cat out err; { echo c; } >> out; cat out; { cat; } < out | wc -l"""),
    case("function-redirects", r"""f() { echo "in f"; echo "err f" >&2; } > fout 2>&1; f; cat fout; f > other; cat other; echo ---; cat fout"""),
    case("function-redirect-each-call", r"""n=0; g() { n=$((n+1)); echo "call $n"; } >> log; g; g; g; cat log; h() { cat; } < log; h | wc -l"""),
    case("order-matters", r"""{ echo out; echo err >&2; } 2>&1 >o1 | sed 's/^/piped: /'; cat o1; { echo out2; echo err2 >&2; } >o2 2>&1; cat o2"""),
    case("redirect-errors-skip-command", r"""echo x > nodir/f; echo "st=$?"; cat < missing; echo "st=$?"; { echo y; } > nodir/g; echo "st=$?"; f() { echo z; }; f > nodir/h; echo "st=$?" """),
    case("assignment-only-redirect", r"""x=1 > created1; ls created1; >created2; ls created2; y=$(echo v) > created3; echo "$y"; ls created3"""),
    case("noclobber", r"""set -C; echo a > nc; echo b > nc; echo "st=$?"; echo c >| nc; echo d >> nc; cat nc; echo e > /dev/null; echo "st=$?"; set +C"""),
    case("append-both", r"""echo a &> both; ls nosuch &>> both; cat both | sed 's/ls: .*/ls-error/'; echo b >> both 2>&1; wc -l < both"""),
    case("fd-variables", r"""exec {fd}>fdfile; echo "fd ok: $((fd >= 10))"; echo via >&$fd; exec {fd}>&-; cat fdfile; exec {r}<fdfile; read line <&$r; echo "$line"; exec {r}<&-"""),
    case("high-fds-and-move", r"""exec 10>ten; echo ten >&10; exec 10>&-; cat ten; exec 4>four; exec 5>&4-; echo moved >&5; echo "st4: $( { echo x >&4; } 2>&1 | sed 's/.*: //')"; exec 5>&-; cat four"""),
    case("here-string-and-doc-fds", "cat 0<<< \"zero\"; cat 3<<< \"three\" <&3; read a 4<<EOF <&4\nfour\nEOF\necho \"$a\"\n"),
    case("redirect-in-loops-and-if", r"""for i in 1 2; do echo $i; done > loop.out; cat loop.out; if true; then echo yes; fi 2>/dev/null > if.out; cat if.out; while read l; do echo "<$l>"; done < loop.out"""),
    case("subshell-and-pipe-redirects", r"""(echo sub; echo suberr >&2) 2>&1 > sub.out | cat; cat sub.out; echo p | (cat; echo more) > pipe.out; cat pipe.out"""),
    case("exec-permanent", r"""exec > ex.out; echo to-file; exec >&2; cat ex.out >&2; exec 2>/dev/null; ls nosuch; echo "st=$?" >&2 """, ignore_stderr=True),
    case("dev-fd-and-stdio-names", r"""echo a > /dev/stdout; echo b 2>&1 > /dev/stderr | cat; exec 3>f; echo c > /dev/fd/3; cat f; cat /dev/fd/0 <<< from-stdin"""),
    case("redirect-expansion-order", r"""x=first; echo a > $x; x=second echo b > $x; ls first second 2>&1 | sed 's/.*: //'; i=0; echo c > f$((i+=1)); echo "$i"; ls f1"""),
    case("tilde-and-brace-targets", r"""HOME=$PWD; echo t > ~/tfile; cat tfile; echo u > {a,b}.br; echo "st=$?"; echo v > x{y}z; cat 'x{y}z'"""),
    case("output-to-dir", r"""mkdir d; echo x > d; echo "st=$?"; echo y >> d; echo "st=$?"; : <> d; echo "st=$?" """),
    case("multiple-same-fd", r"""echo x > m1 > m2; cat m1; echo "[$(cat m2)]"; cat < m2 < /dev/null; echo "st=$?"; echo y 2>m3 2>m4 >&2; cat m3 m4"""),
]
CASES += [
    case("dup-word-messages", r"""f=7; echo a 2>&$f; echo "st=$?"; cat 3<&$f; echo "st=$?"; cat <&$f; echo "st=$?"; echo b >&$f; echo "st=$?"; e=; echo c >&$e; echo "st=$?" """),
    case("one-dup-word-is-both", r"""ls nosuch 1>&both1; sed 's/.*: //' both1; w='sp ace'; echo d >&$w; echo "st=$?"; echo e >&"$w"; cat "sp ace" """),
    case("temp-vars-hidden-from-redirects", r"""x=first; f() { echo in-f; }; x=second f > $x; x=third echo b > $x; x=fourth cat /dev/null > $x; ls"""),
]
