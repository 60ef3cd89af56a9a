"""Golden cases: git 2.39's cherry-pick, revert and (non-interactive) rebase with their
--continue/--skip/--abort/--quit, what status, branch and reflog say in the middle of one,
commit during a pick, checkout's path counts. Each operation is a case of its own (its output),
and the repository after it is checked by a later case that runs it in its setup (log with
commit and tree ids, status)."""

from tests.ports.git.golden_helpers import ap, case, commit, git, w

FILES = {"a.txt": "one\ntwo\nthree\nfour\nfive\n", "b.txt": "bee\n"}

# main: initial, "main: ONE", "main: bee2"; topic (from initial): six, add c, TWO;
# conflict (from main~1): two -> 2 (conflicts with topic's TWO)
SEQ = [
    git("init", "-q", "-b", "main"), git("add", "."), commit(1, "initial"),
    git("checkout", "-q", "-b", "topic"), ap("a.txt", "six\n"), commit(2, "topic: six", "-a"),
    w("c.txt", "c\n"), git("add", "c.txt"), commit(3, "topic: add c"),
    w("a.txt", "one\nTWO\nthree\nfour\nfive\nsix\n"), commit(4, "topic: TWO", "-a"),
    git("checkout", "-q", "main"), w("a.txt", "ONE\ntwo\nthree\nfour\nfive\n"),
    commit(5, "main: ONE", "-a"), ap("b.txt", "bee2\n"), commit(6, "main: bee2", "-a"),
    git("checkout", "-q", "-b", "conflict", "main~1"), w("a.txt", "ONE\n2\nthree\nfour\nfive\n"),
    commit(7, "conflict: 2", "-a"), git("checkout", "-q", "main"),
]
OTHER = {"GIT_COMMITTER_NAME": "C O Mitter", "GIT_COMMITTER_EMAIL": "c@example.com",
         "GIT_COMMITTER_DATE": "@1700500000 +0100"}
LOG = git("log", "--format=%H %T %an|%ad|%cn|%cd %s", "--date=raw", "-5")
ALL = git("log", "--format=%h %T %s", "--all")


def c(name, argv, steps=(), env=None):
    return case(name, argv, setup=SEQ + list(steps), files=FILES, env=env)


RESOLVED = w("a.txt", "ONE\n2\nthree\nfour\nfive\n")
REBASE_FIX = w("a.txt", "one\nTWO\nthree\nfour\nfive\nsix\n")
CP = git("cherry-pick", "topic", "conflict")  # TWO conflicts, then conflict's 2
RB = [git("checkout", "-q", "conflict"), git("rebase", "topic")]  # stops on 'main: ONE'

CASES = [
    # -- cherry-pick -------------------------------------------------------------------------
    c("cp_one", git("cherry-pick", "topic~2"), env=OTHER),
    c("cp_one_state", LOG, [git("cherry-pick", "topic~2")], env=OTHER),
    c("cp_two", git("cherry-pick", "topic~2", "topic~1")),
    c("cp_range", git("cherry-pick", "main..topic")),
    c("cp_range_state", ALL, [git("cherry-pick", "main..topic")]),
    c("cp_x", git("log", "-1", "--format=%B"), [git("cherry-pick", "-x", "topic~1")]),
    c("cp_signoff", git("log", "-1", "--format=%B"), [git("cherry-pick", "-s", "topic~1")]),
    c("cp_n", git("status", "--short"), [git("cherry-pick", "-n", "topic~1")]),
    c("cp_n_out", git("cherry-pick", "-n", "topic~1")),
    c("cp_conflict", git("cherry-pick", "topic")),
    c("cp_conflict_status", git("status"), [git("cherry-pick", "topic")]),
    c("cp_conflict_short", git("status", "--short", "-b"), [git("cherry-pick", "topic")]),
    c("cp_conflict_diff_cached", git("diff", "--cached"), [git("cherry-pick", "topic")]),
    c("cp_conflict_msg", git("log", "-1", "--format=%s"), [git("cherry-pick", "topic")]),
    c("cp_abort", git("cherry-pick", "--abort"), [git("cherry-pick", "topic")]),
    c("cp_abort_state", git("status"), [git("cherry-pick", "topic"),
                                        git("cherry-pick", "--abort")]),
    c("cp_seq_stop", CP),
    c("cp_seq_status", git("status"), [CP]),
    c("cp_seq_continue", git("cherry-pick", "--continue"), [CP, RESOLVED, git("add", "a.txt")]),
    c("cp_seq_continue_state", git("status"), [CP, RESOLVED, git("add", "a.txt"),
                                               git("cherry-pick", "--continue")]),
    c("cp_seq_continue_unresolved", git("cherry-pick", "--continue"), [CP]),
    c("cp_seq_skip", git("cherry-pick", "--skip"), [CP]),
    c("cp_seq_skip_log", ALL, [CP, git("cherry-pick", "--skip")]),
    c("cp_seq_quit", git("status", "--short"), [CP, git("cherry-pick", "--quit")]),
    c("cp_seq_again", git("cherry-pick", "main~1"), [CP]),
    c("cp_commit_resolved", git("commit", "--no-edit"), [git("cherry-pick", "topic"),
                                                         RESOLVED, git("add", "a.txt")],
      env=OTHER),
    c("cp_commit_empty", git("commit", "-m", "x"), [git("cherry-pick", "topic"),
                                                    git("checkout", "HEAD", "a.txt")]),
    c("cp_commit_unmerged", git("commit", "-m", "x"), [git("cherry-pick", "topic")]),
    c("cp_amend_refused", git("commit", "--amend", "-m", "x"), [git("cherry-pick", "topic")]),
    c("cp_merge_no_m", git("cherry-pick", "main"), [git("merge", "-q", "--no-ff", "-m", "m",
                                                        "topic~1")]),
    c("cp_bad_rev", git("cherry-pick", "nope")),
    c("cp_blob", git("cherry-pick", "HEAD:a.txt")),
    c("cp_empty_set", git("cherry-pick", "HEAD..HEAD")),
    c("cp_usage", git("cherry-pick")),
    c("cp_nothing", git("cherry-pick", "--continue")),
    c("cp_dirty", git("cherry-pick", "topic~2"), [ap("a.txt", "dirty\n"), git("add", "a.txt")]),
    c("cp_reflog", git("reflog", "-3"), [git("cherry-pick", "topic~2")]),
    # -- revert ------------------------------------------------------------------------------
    c("revert_head", git("revert", "--no-edit", "HEAD")),
    c("revert_head_log", git("log", "-2", "--format=%H %T %s%n%b"),
      [git("revert", "--no-edit", "HEAD")]),
    c("revert_two", git("log", "--format=%s", "-3"), [git("revert", "--no-edit", "HEAD~1",
                                                           "HEAD")]),
    c("revert_n", git("status", "--short"), [git("revert", "-n", "HEAD")]),
    c("revert_n_status", git("status"), [git("revert", "-n", "HEAD")]),
    c("revert_conflict", git("revert", "--no-edit", "HEAD~1"), [git("checkout", "-q", "topic")]),
    c("revert_conflict_status", git("status"), [git("checkout", "-q", "topic"),
                                               git("revert", "--no-edit", "HEAD~2")]),
    c("revert_reference", git("log", "-1", "--format=%B"),
      [git("revert", "--no-edit", "--reference", "HEAD")]),
    c("revert_usage", git("revert")),
    # -- rebase ------------------------------------------------------------------------------
    c("rebase_clean", git("rebase", "main"), [git("checkout", "-q", "topic~1")]),
    c("rebase_branch", git("rebase", "main"), [git("checkout", "-q", "-b", "t2", "topic~1")]),
    c("rebase_branch_state", ALL, [git("checkout", "-q", "-b", "t2", "topic~1"),
                                   git("rebase", "main")]),
    c("rebase_branch_reflog", git("reflog", "-5"),
      [git("checkout", "-q", "-b", "t2", "topic~1"), git("rebase", "main")]),
    c("rebase_q", git("rebase", "-q", "main"), [git("checkout", "-q", "-b", "t2", "topic~1")]),
    c("rebase_uptodate", git("rebase", "main~1")),
    c("rebase_onto", git("log", "--format=%s", "-4"),
      [git("checkout", "-q", "topic"), git("rebase", "--onto", "main", "topic~2", "topic")]),
    c("rebase_stop", RB[1], RB[:1]),
    c("rebase_stop_status", git("status"), RB),
    c("rebase_stop_branch", git("branch"), RB),
    c("rebase_stop_short", git("status", "--short", "-b"), RB),
    c("rebase_continue", git("rebase", "--continue"), RB + [REBASE_FIX, git("add", "a.txt")]),
    c("rebase_continue_status", git("status"), RB + [REBASE_FIX, git("add", "a.txt"),
                                                     git("rebase", "--continue")]),
    c("rebase_continue_unresolved", git("rebase", "--continue"), RB),
    c("rebase_skip", git("rebase", "--skip"), RB),
    c("rebase_abort", git("rebase", "--abort"), RB),
    c("rebase_abort_state", git("reflog", "-3"), RB + [git("rebase", "--abort")]),
    c("rebase_abort_status", git("status"), RB + [git("rebase", "--abort")]),
    c("rebase_dirty", git("rebase", "main"), [git("checkout", "-q", "topic"),
                                              ap("a.txt", "x\n")]),
    c("rebase_no_upstream", git("rebase")),
    c("rebase_detached_no_upstream", git("rebase"), [git("checkout", "-q", "HEAD~1")]),
    c("rebase_none_in_progress", git("rebase", "--continue")),
    c("rebase_in_progress", git("rebase", "main"), RB),
    c("rebase_upstream", git("rebase"), [git("checkout", "-q", "--track", "-b", "t3", "main"),
                                         git("reset", "-q", "--hard", "topic~1")]),
    c("rebase_upstream_log", git("log", "--format=%s", "-4"),
      [git("checkout", "-q", "--track", "-b", "t3", "main"),
       git("reset", "-q", "--hard", "topic~1"), git("rebase")]),
    c("checkout_b_track_local", git("checkout", "--track", "-b", "t3", "main")),
    c("checkout_b_track_status", git("status", "-sb"), [git("checkout", "-q", "--track", "-b",
                                                            "t3", "main"),
                                                        git("reset", "-q", "--hard", "HEAD~1")]),
    c("checkout_b_quiet", git("checkout", "-q", "-b", "t3", "main~1")),
    c("checkout_b_paths", git("checkout", "-b", "t3", "main", "a.txt")),
    c("checkout_b_track_paths", git("checkout", "--track", "-b", "t3", "main", "a.txt")),
    c("checkout_B_reset", git("checkout", "-B", "topic", "main")),
    c("checkout_B_reset_reflog", git("reflog", "topic", "-2"),
      [git("checkout", "-q", "-B", "topic", "main")]),
    c("rebase_commit_during", git("commit", "-m", "fixed"), RB + [REBASE_FIX,
                                                                  git("add", "a.txt")]),
    # -- detached HEAD descriptions ----------------------------------------------------------
    c("detached_from_branch", git("status"), [git("checkout", "-q", "topic"),
                                              git("rebase", "main", "topic~1")]),
    c("detached_from_commit", git("branch"), [git("checkout", "-q", "HEAD~1"),
                                              git("commit", "-q", "--allow-empty", "-m", "e")]),
    c("detached_at_tag", git("status"), [git("tag", "v1", "main~1"),
                                         git("checkout", "-q", "v1")]),
    # -- reflog ------------------------------------------------------------------------------
    c("reflog", git("reflog")),
    c("reflog_branch", git("reflog", "show", "topic")),
    c("reflog_n", git("reflog", "-n", "2", "main")),
    c("reflog_format", git("reflog", "--format=%H %gd %gs %gn <%ge>", "-3")),
    c("reflog_date", git("reflog", "--date=iso", "-2")),
    c("reflog_exists", git("reflog", "exists", "refs/heads/main")),
    c("reflog_exists_not", git("reflog", "exists", "refs/heads/nope")),
    c("reflog_unknown", git("reflog", "nope")),
    # -- checkout's count of the paths it wrote ----------------------------------------------
    c("checkout_paths_tree", git("checkout", "HEAD~1", "a.txt", "b.txt"), [ap("a.txt", "x\n")]),
    c("checkout_paths_index", git("checkout", "a.txt"), [ap("a.txt", "x\n")]),
    c("checkout_paths_dashdash", git("checkout", "--", "a.txt"), [ap("a.txt", "x\n")]),
    c("checkout_paths_quiet", git("checkout", "-q", "."), [ap("a.txt", "x\n")]),
    c("checkout_paths_dot", git("checkout", "."), [ap("a.txt", "x\n"), git("add", "a.txt"),
                                                   ap("b.txt", "y\n")]),
]
