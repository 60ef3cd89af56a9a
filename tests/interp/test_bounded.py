"""Hostile scripts that once ran forever under any timeout (issue 12): each now answers,
or stops at its deadline with the limit's status, within its timeout plus a 10 s margin for loaded machines.

All cases run in one child process with a hard kill (tests/interp/hostile.py).
"""

from __future__ import annotations

import pytest

from tests.interp.hostile import Case, assert_clean, run_hostile

A3000 = "x=$(printf 'a%.0s' {1..3000}); "
A40 = "x=$(printf 'a%.0s' {1..40}); "
A5000 = "x=a; for i in {1..12}; do x=$x$x; done; "  # 4096 a's
LONG_NAME = "a" * 250
SIX = "*a*a*a*a*a*a*b"

# id -> (case, expected status or None for "an answer or the timeout", expected stdout or None)
CASES: dict[str, tuple[Case, int | None, str | None]] = {
    # -- pattern matching: every one of these was exponential
    "cond-stars": (Case(A3000 + "[[ $x == *a*a*a*a*a*b ]]; echo $?"), 0, "1\n"),
    "cond-stars-match": (Case(A3000 + "[[ ${x}b == *a*a*a*a*a*b ]]; echo $?"), 0, "0\n"),
    "subst-stars": (Case(A3000 + "y=${x//*a*a*a*a*b/}; echo ${#y}"), 0, "3000\n"),
    "trim-stars": (Case(A3000 + "y=${x##*a*a*a*a*b}; z=${x%%*a*a*a*a*b}; echo ${#y} ${#z}"),
                   0, "3000 3000\n"),
    "case-extglob": (Case("shopt -s extglob\n" + A40
                          + "case $x in *(a|a)b) echo m;; *) echo no;; esac"), 0, "no\n"),
    "cond-extglob": (Case(A40 + "[[ $x == *(a|a)b ]]; echo $?"), 0, "1\n"),
    # one repeat of overlapping one-character alternatives: the full match's regex path
    # (an atomic group), exponential for a plain backtracking regex
    "cond-extglob-overlap": (Case(A3000 + "[[ $x == *([a-z]|a)b ]]; echo $?; "
                                  "[[ ${x}b == +([a-z]|a)b ]]; echo $?"), 0, "1\n0\n"),
    "cond-extglob-3000": (Case(A3000 + "[[ $x == +(a|aa)b ]]; echo $?; "
                               "[[ ${x}b == +(a|aa)b ]]; echo $?"), 0, "1\n0\n"),
    "glob-long-name": (Case(f"echo {SIX}; echo {SIX[:-1]}a | wc -c",
                            files={LONG_NAME: "x"}), 0, f"{SIX}\n251\n"),
    "find-name": (Case(f"find . -name '{SIX}'; find . -name '{SIX[:-1]}a' | wc -l",
                       files={LONG_NAME: "x"}), 0, "1\n"),
    "find-path": (Case(f"find . -path '*{SIX}' | wc -l; find . -ipath './{SIX.upper()}'",
                       files={LONG_NAME: "x"}), 0, "0\n"),
    "ls-ignore": (Case(f"ls --ignore='{SIX}' | wc -l", files={LONG_NAME: "x"}), 0, "1\n"),
    # -- regex engines: backtracking ones stop at the deadline (status 124) or answer
    **{name: (Case(A5000 + script, timeout=1.0), None, None) for name, script in [
        ("grep-E", 'echo "${x}c" | grep -cE "^(a|aa)+b"'),
        ("grep-G", 'echo "${x}c" | grep -c "^\\(a\\|aa\\)*b"'),
        ("grep-P", 'echo "${x}c" | grep -cP "^(a|aa)+b"'),
        ("sed-E", 'echo "${x}c" | sed -E "s/^(a|aa)+b//"'),
        ("awk", 'echo "${x}c" | awk "/^(a|aa)+b/"'),
        ("cond-regex", '[[ ${x}c =~ ^(a|aa)+b ]]'),
        ("rg", 'echo "${x}b" > f; rg -c "(a|aa)+$" f'),
        ("rg-stdin", 'echo "${x}c" | rg -c "^(a|aa)+b"'),
        ("fd-regex", 'mkdir d; : > "d/${x:0:200}c"; fd "^(a|aa)+b" d'),
        ("find-regex", 'mkdir d; : > "d/${x:0:200}c"; find d -regex ".*/\\(a\\|aa\\)*b"'),
    ]},
    # globs that rg and fd take: linear, or stopped at the deadline
    "fd-glob": (Case(f"fd -g '{SIX}' .; fd -g '{SIX[:-1]}a' . | wc -l",
                     files={LONG_NAME: "x"}, timeout=1.0), None, None),
    "rg-glob": (Case(f"rg --files -g '{SIX}'; echo $?", files={LONG_NAME: "x"}, timeout=1.0),
                None, None),
    "ignore-file": (Case("rg --files | wc -l", files={LONG_NAME: "x", ".ignore": SIX + "\n"},
                         timeout=1.0), None, None),
    # -- the parser, word splitting, here-documents, deep paths
    "eval-long-line": (Case('x=":;"; for i in {1..19}; do x=$x$x; done; eval "$x"; echo done',
                            timeout=2.0), None, None),
    "source-long-line": (Case('x=":;"; for i in {1..19}; do x=$x$x; done; echo "$x" > f; '
                              'source f; echo done', timeout=2.0), None, None),
    "split-ten-million": (Case("a=($(seq 1 10000000)); echo ${#a[@]}", timeout=2.0), 124, ""),
    "split-array-limit": (Case("a=($(seq 1 300000)); echo ${#a[@]}",
                               limits={"max_array_size": 100_000}), 126, ""),
    "source-heredoc": (Case('{ echo "cat <<EOF | wc -c"; yes abcdefgh | head -c 20000000; '
                            'echo EOF; } > f; source f; echo $?', timeout=20.0), 0, "1\n"),
    # a here-doc of 15 million lines (one search, no per-line table: 2 s; line by line it
    # took 47 s), tab-stripped, and one of 3 million expansions (50 s of work: the parser
    # and the expansion poll the deadline)
    "heredoc-lines": (Case('{ echo "cat <<EOF | wc -c"; head -c 15000000 /dev/zero | tr "\\0" "\\n"; '
                           'echo EOF; } > f; source f; { echo "cat <<-X | wc -c"; '
                           'yes "$(printf "\\t\\tab")" | head -c 3000000; printf "\\n\\tX\\n"; } > g; '
                           '. g', timeout=15.0), 0, "15000000\n1800001\n"),
    "heredoc-expansions": (Case('{ echo "cat <<EOF | wc -c"; yes "\\$x\\$x\\$x\\$x\\$x\\$x" | '
                                'head -c 6000000; echo; echo EOF; } > f; source f', timeout=2.0),
                           124, ""),
    "mkdir-deep": (Case("p=d; for i in {1..10000}; do p=$p/d; done; mkdir -p $p; echo $?",
                        timeout=20.0), None, None),
    # jq: "x" * 1e9 is one C call (at compile time: both sides are literals); the GB
    # string is the limit error, not seconds of printing and copying past the deadline
    "jq-repeat": (Case("jq -n '\"x\" * 1e9' >/dev/null; echo never", timeout=5.0), 126, ""),
    "jq-repeat-var": (Case("jq -n '\"x\" as $x | $x * 3e8'; echo never", timeout=5.0),
                      126, ""),
    # printing one long string was one C call (jv_dump_string, 10 s of C for 10 million
    # control characters on a loaded machine): now escaped in pieces between deadline polls
    "jq-print-long": (Case("jq -n '\"\\u0001\" * 1e8' | wc -c", timeout=2.0), None, None),
    # oniguruma searches every start position, each up to 10 million steps: 60 blocks took
    # a minute; a search now stops at its own step limit (a jq error) or at the deadline
    "jq-regex-search": (Case("jq -n '(\"a\" * 28 + \"!\") * 60 | test(\"(a|aa)+$\")'; echo $?",
                             timeout=5.0), None, None),
    # a global match is one C loop of searches: the deadline stops it between two
    "jq-regex-global": (Case("jq -n '(\"a\" * 25 + \"!b\") * 400 "
                             "| [match(\"(a|aa)+!c|b\"; \"g\")] | length'", timeout=2.0),
                        124, ""),
    # a negation after a star is quadratic: it must stop at the deadline, not past it
    "extglob-deadline": (Case("x=ab; for i in {1..17}; do x=$x$x; done; "
                              "[[ $x == *!(*a*a*b)c ]]; echo $?", timeout=1.0), 124, ""),
}


@pytest.fixture(scope="module")
def outcomes():
    names = list(CASES)
    return dict(zip(names, run_hostile([CASES[n][0] for n in names]), strict=True))


@pytest.mark.parametrize("name", list(CASES))
def test_hostile_script_is_bounded(outcomes, name):
    case, status, out = CASES[name]
    o = outcomes[name]
    assert_clean(o)
    assert o.elapsed < case.timeout + 10, o  # margin for a loaded machine; a runaway has none
    if status is None:
        assert o.status in (0, 1, 124, *(126,) * (name == "jq-print-long")), o
    else:
        assert o.status == status, o
    if out is not None:
        assert o.out == out, o
    if status == 124:
        assert "timeout: limit exceeded" in o.err, o
    if name == "source-heredoc":
        assert "script too large" in o.err, o
    if name.startswith("jq-repeat"):
        assert "string: limit exceeded" in o.err, o
    if name == "jq-print-long":  # past the string limit, or stopped at the deadline
        assert o.status == 124 or o.status == 126 and "string: limit exceeded" in o.err, o
    if name == "jq-regex-search":
        assert o.status == 124 or o.out == "5\n" and "retry-limit-in-search over" in o.err, o
    if name == "mkdir-deep":
        assert "File name too long" in o.err, o
