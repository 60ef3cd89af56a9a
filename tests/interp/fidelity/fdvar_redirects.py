"""{var} redirections: every kind (file, here-doc, here-string, dup, close) allocates an
fd from 10 up, sets the variable, and leaves the fd open after the command (simple or
compound); without a command bash forks, so nothing stays; {var}>&- needs a number."""

from tests.interp.cases import case

CASES = [
    case("herestring-on-compound", r"""{ echo; } {abc}<<< walrus; echo "abc=$abc"; cat <&$abc"""),
    case("herestring-on-simple-and-if", r"""echo x {b}<<< bbb; echo "b=$b"; cat <&$b; if true; then :; fi {c}<<< ccc; echo "c=$c"; cat <&$c"""),
    case("heredoc-fd-var", "cat {h}<<EOF >/dev/null\ndoc line\nEOF\necho \"h=$h\"; cat <&$h\n"),
    case("without-a-command", r"""{d}<<< ddd; echo "d=[$d]"; {e}>e.txt; echo "e=[$e]"; ls e.txt; {f}</dev/null; echo "f=[$f]" """),
    case("numbering-and-reuse", r""": {a}>/dev/null; : {b}>/dev/null; echo "$a $b"; exec {a}>&-; : {c}>/dev/null; echo "$c"; exec {b}>&- {c}>&-; exec {d}>/dev/null; echo "$d" """),
    case("close-needs-a-number", "echo bad {y}>&-\necho st=$?\ny=notanumber\necho bad2 {y}>&-\necho st=$?\n"),
    case("dup-into-var", r"""exec {o}>&1; echo "o=$o"; echo via-dup >&$o; exec {o}>&-; echo st=$?; { echo grp; } {p}>&1 >&2; echo "p=$p" """),
    case("file-stays-open", r"""echo first {w}>w.txt; echo second >&$w; exec {w}>&-; cat w.txt; echo more >&$w; echo st=$?"""),
    case("function-and-loop", r"""f() { echo "in f $1"; }; f a {q}>q.txt; echo "q=$q"; for i in 1 2; do :; done {r}<<< loopdoc; cat <&$r"""),
    case("in-subshell-not-parent", r"""( : {s}>/dev/null; echo "in=$s" ); echo "out=[$s]"; x=$(: {t}>/dev/null; echo $t); echo "cs=$x t=[$t]" """),
    case("read-through-var-fd", r"""exec {in}<<< $'l1\nl2\nl3'; read -u $in a; read -u "$in" b; echo "$a $b"; while read -r line <&$in; do echo "rest $line"; done"""),
    case("set-u-and-readonly", r"""set -u; exec {u}>/dev/null; echo "u=$u"; readonly ro=5; echo x {ro}>/dev/null; echo "st=$? ro=$ro" """, ignore_stderr=True),
    case("local-var-in-function", r"""g() { local v; exec {v}>/dev/null; echo "in g v=$v"; }; g; echo "after [$v]" """),
]
