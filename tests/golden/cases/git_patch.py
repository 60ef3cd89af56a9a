"""Golden cases: git 2.39's format-patch, apply and am (with its rebase-apply session:
--continue/--skip/--abort and what status says in the middle of one). The patches that
apply and am read are made in the setup by format-patch (pysh's own on pysh's side) or
written by the harness; the repository after an operation is checked by a later case."""

from tests.ports.git.golden_helpers import ap, case, commit, git, w

FILES = {"a.txt": "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "b.txt": "bee\n",
         "gone.txt": "old\n", "ren.txt": "keep\nthis\ncontent\n"}

# main: initial, "main: deux"; topic (from initial): six, TWO (with a body), add c,
# a change with a rename/delete/new file/mode change, a non-ASCII author and subject
SEQ = [
    git("init", "-q", "-b", "main"), git("add", "."), commit(1, "initial"),
    git("checkout", "-q", "-b", "topic"), ap("a.txt", "13\n"), commit(2, "topic: thirteen", "-a"),
    w("a.txt", "1\nTWO\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n"),
    commit(3, "topic: TWO\n\nSome body.\n\nMore body.", "-a"),
    w("c.txt", "c\n"), git("add", "c.txt"), commit(4, "topic: add c"),
    git("mv", "ren.txt", "renamed.txt"), git("rm", "-q", "gone.txt"), w("n.txt", "new\n"),
    git("add", "n.txt"), ["chmod", "+x", "b.txt"], git("add", "b.txt"),
    commit(5, "topic: shuffle files [v2] / with a rather long subject that will be folded by mail"),
    w("a.txt", "1\nTWO\n3\n4\n5\n6\n7\n8\n9\n10\nELEVEN\n12\n13\n"),
    commit(6, "Ünïcode: éléven", "-a", "--author", "Jöhn \"Q.\" Püblic <jqp@example.com>"),
    git("checkout", "-q", "main"), w("a.txt", "1\ndeux\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n"),
    commit(7, "main: deux", "-a"), git("format-patch", "-q", "-o", "pp", "main..topic"),
]
MBOX: list = []
P = "pp/"
P1, P2, P3, P4, P5 = (P + "0001-topic-thirteen.patch", P + "0002-topic-TWO.patch",
                      P + "0003-topic-add-c.patch",
                      P + "0004-topic-shuffle-files-v2-with-a-rather-long-subject.patch",
                      P + "0005-n-code-leven.patch")
LOG = git("log", "--format=%H %T %an <%ae> %ad | %cn %cd%n%B", "--date=raw")
STATE = git("status")


def c(name, argv, steps=(), env=None, **kw):
    return case(name, argv, setup=SEQ + list(steps), files=FILES, env=env, **kw)


OTHER = {"GIT_COMMITTER_NAME": "C O Mitter", "GIT_COMMITTER_EMAIL": "c@example.com",
         "GIT_COMMITTER_DATE": "@1700500000 +0100"}
AM = git("am", P1, P2, P3)  # stops at 0002: main changed line 2 too
PLAIN = ("--- a/a.txt\n+++ b/a.txt\n@@ -8,3 +8,3 @@\n 8\n-9\n+NINE\n 10\n")
NO_EOL = ("diff --git a/b.txt b/b.txt\nindex 0000000..1111111 100644\n--- a/b.txt\n+++ b/b.txt\n"
          "@@ -1 +1 @@\n-bee\n+bee\n\\ No newline at end of file\n")
BINARY = ("diff --git a/bin.dat b/bin.dat\nnew file mode 100644\nindex 0000000..2222222\n"
          "Binary files /dev/null and b/bin.dat differ\n")
OFFSET = ("diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -2,3 +2,3 @@\n 6\n-7\n+SEVEN\n"
          " 8\n")

CASES = [
    # -- format-patch ---------------------------------------------------------------------
    c("fp_stdout_range", git("format-patch", "--stdout", "main..topic")),
    c("fp_files", git("format-patch", "main..topic")),
    c("fp_files_ls", git("ls-files", "-o", "--exclude-standard"), [git("format-patch", "main")]),
    c("fp_o_dir", git("format-patch", "-o", "out/dir", "-2", "topic")),
    c("fp_one", git("format-patch", "-1", "--stdout", "topic~1")),
    c("fp_root", git("format-patch", "--root", "--stdout", "topic~3")),
    c("fp_k", git("format-patch", "-k", "--stdout", "-2", "topic")),
    c("fp_numbered_one", git("format-patch", "-n", "--stdout", "-1", "topic~2")),
    c("fp_no_numbered", git("format-patch", "-N", "--stdout", "-2", "topic~2")),
    c("fp_prefix_signoff", git("format-patch", "--subject-prefix=RFC v2", "-s", "--stdout",
                               "-2", "topic~2"), env=OTHER),
    c("fp_start_number", git("format-patch", "--start-number", "7", "-3", "topic")),
    c("fp_nothing", git("format-patch", "topic", "--stdout")),
    c("fp_bad_rev", git("format-patch", "nosuch")),
    c("fp_n_k", git("format-patch", "-n", "-k", "-1")),
    # -- apply ----------------------------------------------------------------------------
    c("ap_stat", git("apply", "--stat", P4)),
    c("ap_numstat_summary", git("apply", "--numstat", "--summary", P4, P1)),
    c("ap_stat_summary_R", git("apply", "--stat", "--summary", "-R", P4)),
    c("ap_check_ok", git("apply", "--check", "-v", P4)),
    c("ap_worktree", git("status", "--short"), [*MBOX, git("apply", P4)]),
    c("ap_worktree_content", git("diff"), [*MBOX, git("apply", P1)]),
    c("ap_index", git("status", "--short"), [*MBOX, git("apply", "--index", P4)]),
    c("ap_cached", git("status", "--short"), [*MBOX, git("apply", "--cached", P4)]),
    c("ap_reverse_fails", git("apply", "-R", P4)),
    c("ap_conflict", git("apply", P2)),
    c("ap_conflict_check", git("apply", "--check", P1, P2, P3)),
    c("ap_roundtrip", git("status", "--short"), [*MBOX, git("apply", P1), git("apply", "-R", P1)]),
    c("ap_not_in_index", git("apply", "--index", P1), [*MBOX, ap("a.txt", "x\n")]),
    c("ap_exists", git("apply", P3), [*MBOX, w("c.txt", "c\n")]),
    c("ap_p0", git("apply", "-p0", P1)),
    c("ap_p2", git("apply", "-p2", P1)),
    c("ap_empty", git("apply", "empty.diff"), [w("empty.diff", "")]),
    c("ap_missing_file", git("apply", "nosuch.diff")),
    c("ap_plain_diff", git("diff"), [w("plain.diff", PLAIN), git("apply", "plain.diff")]),
    c("ap_no_eol", git("diff"), [w("e.diff", NO_EOL), git("apply", "e.diff")]),
    c("ap_binary", git("apply", "bin.diff"), [w("bin.diff", BINARY)]),
    c("ap_offset", git("diff"), [w("o.diff", OFFSET), git("apply", "o.diff")]),
    # -- am -------------------------------------------------------------------------------
    c("am_clean", git("am", P1), env=OTHER),
    c("am_clean_state", LOG, [git("am", P1), git("am", P3)], env=OTHER),
    c("am_series_stops", AM),
    c("am_stopped_status", STATE, [AM]),
    c("am_stopped_files", git("ls-files", "-s"), [AM]),
    # the session's files themselves: the real git can take over what pysh stopped in
    c("am_state_files", ["cat"] + [".git/rebase-apply/" + f for f in (
        "next", "last", "info", "msg", "final-commit", "author-script", "keep", "sign", "utf8",
        "threeway", "quiet", "messageid", "abort-safety", "patch", "0001", "0002", "0003",
        "apply-opt", "applying")] + [".git/ORIG_HEAD"], [AM]),
    c("am_show_current", git("am", "--show-current-patch=diff"), [AM]),
    c("am_busy", git("am", P1), [AM]),
    c("am_skip", git("am", "--skip"), [AM]),
    c("am_skip_state", LOG, [AM, git("am", "--skip")]),
    c("am_continue_nothing", git("am", "--continue"), [AM]),
    c("am_continue", git("am", "--continue"),
      [AM, w("a.txt", "1\nTWO\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n"), git("add", "a.txt")]),
    c("am_continue_state", LOG,
      [AM, w("a.txt", "1\nTWO\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n"), git("add", "a.txt"),
       git("am", "--continue")]),
    c("am_abort", git("am", "--abort"), [AM]),
    c("am_abort_state", git("log", "--format=%s", "--all"), [AM, git("am", "--abort"),
                                                             git("status", "--short")]),
    c("am_no_session", git("am", "--continue")),
    c("am_k_signoff", git("log", "--format=%an|%s%n%b", "-2"),
      [git("format-patch", "-k", "-o", "kk", "topic~3..topic~2"), git("am", "-k", "-s",
                                                                       "kk/0001-topic-add-c.patch")]),
    c("am_nonascii", LOG + ["-1"], [*MBOX, git("am", P1), git("am", P5)]),
    c("am_renames", git("show", "--stat", "--format=%s"),
      [*MBOX, git("am", P1), git("am", P3), git("am", P4)]),
    c("am_empty_mail", git("am", "junk.txt"), [w("junk.txt", "junk\n")]),
]
