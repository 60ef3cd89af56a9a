"""Golden cases: git 2.39's diff --check (whitespace errors, conflict markers, blank lines at
EOF; exit 2), --stat=<width>[,<name-width>] in diff, log and show, word diffs (--word-diff
plain/porcelain/color, --word-diff-regex, --color-words) and whitespace folding (-w, -b,
--ignore-space-at-eol), in diff, log -p and show."""

from tests.ports.git.golden_helpers import ap, case, commit, git, w

WS = [w("a.txt", "one \ntwo\n\t  three\n  \tfour\n<<<<<<< HEAD\n=======\n>>>>>>> x\n\n\n"),
      w("dir/c.txt", "sea\r\n"), w("new file.txt", "trail\t\n"), git("add", "new file.txt")]
LONG = [w("dir/sub/a_rather_long_file_name_for_the_stat_graph.txt", "x\n" * 30),
        ap("b.txt", "more\n" * 7), git("add", "."), commit(2, "long names")]


def c(name, argv, setup=(), **kw):
    return case(f"diffopts_{name}", argv, extra_setup=list(setup), **kw)


WORDS = [w("a.txt", "one\nhello there foo bar\nthree\nx y z\nadded(line)\n"),
         w("b.txt", "bee  sting\n"), w("dir/sub/d.txt", "dee\nmore"),
         w("dir/c.txt", "def f():\n    a\n    b\n    c\n    d\n    e\n    gg\n")]
BASE_WORDS = [w("a.txt", "one\nhello world foo\nthree\nremoved line\nx  y\n"),
              w("dir/c.txt", "def f():\n    a\n    b\n    c\n    d\n    e\n    g\n"),
              w("b.txt", "bee sting\n"), git("add", "."), commit(2, "words base")]
SPACES = BASE_WORDS + [w("a.txt", "one\nhello  world foo \nthree\nremoved\tline\nx y\nnew\n"),
                       w("b.txt", "bee sting\r\n"), w("dir/c.txt", "def f():\n  a\n    b\n")]

CASES = [
    c("check", git("diff", "--check"), WS),
    c("check_exit_code", git("diff", "--check", "--exit-code"), WS),
    c("check_cached", git("diff", "--check", "--cached"), WS),
    c("check_head", git("diff", "--check", "HEAD"), WS),
    c("check_clean", git("diff", "--check")),
    c("check_path", git("diff", "--check", "--", "dir"), WS),
    c("check_commits", git("diff", "--check", "HEAD~1", "HEAD"),
      WS + [git("add", "."), commit(2, "ws")]),
    c("check_blank_eof_kept", git("diff", "--check"),
      [w("b.txt", "bee\n\n"), git("add", "."), commit(2, "blank"), ap("b.txt", "\n \n")]),
    c("stat_width", git("diff", "--stat=40", "HEAD~1"), LONG),
    c("stat_width_name", git("diff", "--stat=60,20", "HEAD~1"), LONG),
    c("stat_narrow", git("diff", "--stat=10", "HEAD~1"), LONG),
    c("log_stat_width", git("log", "--stat=50", "--format=%s", "-1"), LONG),
    c("show_stat_width", git("show", "--stat=45,15", "--format=%s"), LONG),
    c("word_diff", git("diff", "--word-diff"), BASE_WORDS + WORDS),
    c("word_diff_plain", git("diff", "--word-diff=plain"), BASE_WORDS + WORDS),
    c("word_diff_porcelain", git("diff", "--word-diff=porcelain"), BASE_WORDS + WORDS),
    c("word_diff_color", git("diff", "--word-diff=color"), BASE_WORDS + WORDS),
    c("color_words", git("diff", "--color-words"), BASE_WORDS + WORDS),
    c("color_words_regex", git("diff", "--color-words=[a-z]+"), BASE_WORDS + WORDS),
    c("word_regex_char", git("diff", "--word-diff-regex=."), BASE_WORDS + WORDS),
    c("word_regex_porcelain", git("diff", "--word-diff=porcelain", "--word-diff-regex=[^ ]"),
      BASE_WORDS + WORDS),
    c("word_diff_none", git("diff", "--word-diff=none", "--", "b.txt"), BASE_WORDS + WORDS),
    c("word_diff_bad", git("diff", "--word-diff=bogus"), BASE_WORDS + WORDS),
    c("word_diff_log", git("log", "-p", "--word-diff", "-1", "--format=%s"),
      BASE_WORDS + WORDS + [git("add", "."), commit(3, "words")]),
    c("word_diff_show", git("show", "--word-diff=porcelain", "--format=%s"),
      BASE_WORDS + WORDS + [git("add", "."), commit(3, "words")]),
    c("ws_w", git("diff", "-w"), SPACES),
    c("ws_b", git("diff", "-b"), SPACES),
    c("ws_eol", git("diff", "--ignore-space-at-eol"), SPACES),
    c("ws_all_long", git("diff", "--ignore-all-space", "--stat"), SPACES),
    c("ws_b_stat", git("diff", "-b", "--numstat"), SPACES),
    c("ws_show", git("show", "-w", "--format=%s"), SPACES + [git("add", "."), commit(3, "sp")]),
]
