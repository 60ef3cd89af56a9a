"""Golden cases: git 2.39's diff --check (whitespace errors, conflict markers, blank lines at
EOF; exit 2), --stat=<width>[,<name-width>] in diff, log and show."""

from tests.ports.git.golden_helpers import ap, case, commit, git, w

WS = [w("a.txt", "one \ntwo\n\t  three\n  \tfour\n<<<<<<< HEAD\n=======\n>>>>>>> x\n\n\n"),
      w("dir/c.txt", "sea\r\n"), w("new file.txt", "trail\t\n"), git("add", "new file.txt")]
LONG = [w("dir/sub/a_rather_long_file_name_for_the_stat_graph.txt", "x\n" * 30),
        ap("b.txt", "more\n" * 7), git("add", "."), commit(2, "long names")]


def c(name, argv, setup=(), **kw):
    return case(f"diffopts_{name}", argv, extra_setup=list(setup), **kw)


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
]
