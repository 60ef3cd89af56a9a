"""parse(print(parse(s))) == parse(s) over the spec cases and hand-written snippets."""

import os

import pytest

from pysh.interpreter.syntax import ParseError, parse
from pysh.interpreter.syntax.printer import format_program

SNIPPETS = [
    "echo hi",
    "a=1 b=(x y) c+=3 cmd arg >out 2>&1 <in",
    "! time -p a | b |& c && d || e &",
    "time",
    "!",
    "! !",  # the negations cancel: a bare empty command
    "if a; then b; elif c; then d; else e; fi >f",
    "while read -r l; do echo \"$l\"; done <file",
    "until false; do break; done",
    "for i in 1 2 {a,b} {1..3}; do echo $i; done",
    "for ((i = 0; i < 3; i++)); do echo; done",
    "select x in a b; do break; done",
    "case $x in a|b) echo;; (esac) e;& *) ;;& esac",
    "f() { local -a v=(1 2); declare -A m=([k]=v [\"a b\"]=2); export X=~/bin:~/x; }",
    "function g { (cd /; ls) | wc -l; }",
    "cat <<EOF; cat <<-'X'\n$a ${b:-c} $(d) `e` \\$f\nEOF\n\tliteral $x\n\tX\n",
    "echo ${#a[@]} ${!a[@]} ${a[*]:1:2} ${x/#p/r} ${x//a/b} ${x%%.*} ${x^^} ${x,} ${x@Q}",
    "echo ${!pre*} ${!pre@} ${x:-$'\\t'} \"${x:+\"q\"}\" ${x?err} ${10}",
    "[[ -f x && ( $a == b* || ! $c =~ ^(x|y)+$ ) ]] && (( i++, j = 3 ** 2 ))",
    "echo $(( 1 + $x )) $[2*3] <(ls) >(cat) $'a\\nb' $\"loc\"",
    "exec {fd}>file 3<&0 4>&- 5<>rw >|clobber &>both &>>app <<<\"here $s\"",
    "coproc cat",
    "echo a\\ b 'c d' \"e\\\"f\" ~ ~user/x *.txt ?(a|b)",
    "{ echo; } 2>/dev/null; ( exit 3 ); echo $?",
]


@pytest.mark.parametrize("src", SNIPPETS)
def test_snippet_round_trip(src):
    prog = parse(src, extglob=True)
    printed = format_program(prog)
    assert parse(printed, extglob=True) == prog, printed


def test_spec_cases_round_trip():
    import record_golden as rg

    if not os.path.isdir(os.path.join(rg.SPEC_DIR, "cases")):
        pytest.skip("spec cases not available")
    n = 0
    for key, code in rg.spec_cases():
        src = code.decode("utf-8", "surrogateescape")
        try:
            prog = parse(src)
        except ParseError:
            continue
        printed = format_program(prog)
        assert parse(printed) == prog, (key, printed)
        n += 1
    assert n > 1000
