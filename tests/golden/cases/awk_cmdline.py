"""awk's command line beyond -F/-v/-f (gawk 5.2): -e/--source program pieces in order with
-f, -E, -i inplace (each file operand rewritten, -v inplace::suffix, stdin refused with
gawk's warning, END's output to the real stdout), an unknown -i, -M on small numbers."""

from tests.builtins.awk.gold import SUBST

FILES = {"f1": "a\nb\n", "f2": "c\n", "p.awk": "BEGIN { print \"from file\" }\n"}
SHOW = "; echo \"status $?\"; for f in $(ls -A | sort); do echo \"== $f\"; cat \"$f\"; done"


def s(name, script, show=True):
    return dict(name=name, script=script + (SHOW if show else ""), files=FILES, subst=SUBST)


CASES = [
    s("source_twice", "gawk -e 'BEGIN { print 1 }' -e 'BEGIN { print 2 }'", show=False),
    s("source_long", "gawk --source='BEGIN { print 3 }' --source 'END { print NR }' f1",
      show=False),
    s("file_then_source", "gawk -f p.awk -e 'BEGIN { print \"from -e\" }'", show=False),
    s("source_then_file", "gawk -e 'BEGIN { print \"from -e\" }' -f p.awk", show=False),
    s("source_takes_no_program_operand", "gawk -e '{ print FILENAME \": \" $0 }' f2 f1",
      show=False),
    s("exec_file", "gawk -E p.awk f1", show=False),
    s("inplace", "gawk -i inplace '{ print NR \": \" $0 } END { print \"done\" }' f1 f2"),
    s("inplace_suffix", "gawk -i inplace -v inplace::suffix=.bak '{ print toupper($0) }' f1"),
    s("inplace_long_include", "gawk --include=inplace 'NR == 1 { $0 = \"first\" } 1' f2 f1"),
    s("inplace_stdin", "echo x | gawk -i inplace '{ print }' -"),
    s("inplace_no_operand", "gawk -i inplace '{ print }' < f2"),
    s("inplace_exit_keeps_rest", "gawk -i inplace '{ print \"new\" } NR == 2 { exit }' f1 f2"),
    s("inplace_beginfile", "gawk -i inplace 'BEGINFILE { print \"top\" } { print }' f1"),
    s("inplace_mode_kept", "chmod 640 f2 && gawk -i inplace '{ print }' f2 && stat -c %a f2"),
    s("inplace_fatal_keeps_file", "gawk -i inplace '{ print; getline x < \"d/\" ; "
      "printf \"%*d\" }' f1"),
    s("include_unknown", "gawk -i nosuch 1 f1"),
    # pysh has no MPFR: -M warns (tests/builtins/awk) and computes with doubles
    s("bignum_small", "gawk -M 'BEGIN { print 2^10 }' 2>/dev/null", show=False),
]
