"""Golden cases: git 2.39 on a superproject with a submodule (tests/golden/fixtures, fixture
'submodules'): not initialised (``clone``: an empty directory, which git reports as nothing),
checked out (``inited``), with new commits, modified and untracked content, removed."""

from tests.ports.git.golden_helpers import ap, case, dated, git, w

F = "submodules"


def c(name, argv, cwd="clone", setup=(), **kw):
    return case(name, argv, setup=list(setup), fixture=F, cwd=cwd, **kw)


def sub_commit(n):  # a new commit inside the checked-out submodule
    return dated(n, git("-C", "inited/vendor/lib", "commit", "-q", "-am", f"sub change {n}"))


NEW_COMMITS = [ap("inited/vendor/lib/l.txt", "third\n"), sub_commit(1)]
MODIFIED = [ap("inited/vendor/lib/l.txt", "dirty\n")]
UNTRACKED = [w("inited/vendor/lib/new.txt", "u\n")]

CASES = [
    # -- not initialised: the empty directory is no change -----------------------------
    c("uninit_status", git("status")),
    c("uninit_status_short", git("status", "--short")),
    c("uninit_status_porcelain", git("status", "--porcelain")),
    c("uninit_diff", git("diff")),
    c("uninit_diff_head", git("diff", "HEAD")),
    c("uninit_diff_stat", git("diff", "--stat")),
    c("uninit_diff_name_only", git("diff", "--name-only", "HEAD")),
    c("uninit_diff_summary", git("diff", "--summary")),
    c("uninit_ls_files_m", git("ls-files", "-m")),
    c("uninit_ls_files_s", git("ls-files", "-s")),
    c("uninit_ls_files_d", git("ls-files", "-d")),
    c("uninit_add_all", git("status", "--short"), setup=[git("-C", "clone", "add", "-A")]),
    c("uninit_commit_a", git("commit", "-a", "-m", "nothing")),
    c("uninit_stash", git("stash")),
    c("uninit_checkout_b", git("checkout", "-b", "topic")),
    c("uninit_checkout_b_status", git("status", "-s"),
      setup=[git("-C", "clone", "checkout", "-q", "-b", "topic")]),
    c("uninit_reset_hard", git("reset", "--hard")),
    c("uninit_status_subdir", git("status", "-s"), cwd="clone/vendor"),
    # -- history that adds the submodule ---------------------------------------------
    c("log_p_add", git("log", "-p", "-1", "HEAD~1")),
    c("show_stat_add", git("show", "--stat", "HEAD~1")),
    c("show_summary_add", git("show", "--summary", "--format=%s", "HEAD~1")),
    c("show_numstat_add", git("show", "--numstat", "--format=", "HEAD~1")),
    c("log_name_status", git("log", "--name-status", "--format=%s")),
    c("diff_two_commits", git("diff", "HEAD~2", "HEAD")),
    c("diff_two_commits_stat", git("diff", "--stat", "HEAD~2", "HEAD")),
    c("ls_tree", git("ls-tree", "HEAD")),
    c("ls_tree_vendor", git("ls-tree", "-r", "HEAD", "vendor")),
    # -- removed directory: a deletion -----------------------------------------------
    c("removed_status", git("status", "-s"), setup=[["rm", "-r", "clone/vendor/lib"]]),
    c("removed_diff", git("diff"), setup=[["rm", "-r", "clone/vendor/lib"]]),
    c("removed_ls_files_m", git("ls-files", "-m"), setup=[["rm", "-r", "clone/vendor/lib"]]),
    # -- checked out, clean ------------------------------------------------------------
    c("inited_status", git("status"), cwd="inited"),
    c("inited_status_short", git("status", "-s"), cwd="inited"),
    c("inited_diff", git("diff"), cwd="inited"),
    c("inited_sub_status", git("status", "-s"), cwd="inited/vendor/lib"),
    c("inited_sub_log", git("log", "--oneline"), cwd="inited/vendor/lib"),
    c("inited_sub_rev_parse", git("rev-parse", "--show-toplevel"), cwd="inited/vendor/lib/src"),
    # -- new commits in the submodule ------------------------------------------------
    c("new_commits_status", git("status"), cwd="inited", setup=NEW_COMMITS),
    c("new_commits_short", git("status", "-s"), cwd="inited", setup=NEW_COMMITS),
    c("new_commits_porcelain", git("status", "--porcelain"), cwd="inited", setup=NEW_COMMITS),
    c("new_commits_diff", git("diff"), cwd="inited", setup=NEW_COMMITS),
    c("new_commits_diff_stat", git("diff", "--stat"), cwd="inited", setup=NEW_COMMITS),
    c("new_commits_diff_numstat", git("diff", "--numstat"), cwd="inited", setup=NEW_COMMITS),
    c("new_commits_diff_head", git("diff", "HEAD"), cwd="inited", setup=NEW_COMMITS),
    c("new_commits_ls_files_m", git("ls-files", "-m"), cwd="inited", setup=NEW_COMMITS),
    c("new_commits_add", git("status", "-s"), cwd="inited",
      setup=NEW_COMMITS + [git("-C", "inited", "add", "vendor/lib")]),
    c("new_commits_add_diff_cached", git("diff", "--cached"), cwd="inited",
      setup=NEW_COMMITS + [git("-C", "inited", "add", "vendor/lib")]),
    c("new_commits_commit_a", git("log", "-p", "-1", "--format=%s"), cwd="inited",
      setup=NEW_COMMITS + [dated(5, git("-C", "inited", "commit", "-q", "-am", "bump lib"))]),
    c("new_commits_add_all", git("status", "-s"), cwd="inited",
      setup=NEW_COMMITS + [git("-C", "inited", "add", "-A")]),
    # -- modified content ----------------------------------------------------------------
    c("modified_status", git("status"), cwd="inited", setup=MODIFIED),
    c("modified_short", git("status", "-s"), cwd="inited", setup=MODIFIED),
    c("modified_porcelain", git("status", "--porcelain"), cwd="inited", setup=MODIFIED),
    c("modified_diff", git("diff"), cwd="inited", setup=MODIFIED),
    c("modified_diff_stat", git("diff", "--stat"), cwd="inited", setup=MODIFIED),
    c("modified_diff_name_only", git("diff", "--name-only"), cwd="inited", setup=MODIFIED),
    c("modified_ls_files_m", git("ls-files", "-m"), cwd="inited", setup=MODIFIED),
    c("modified_add_all", git("status", "-s"), cwd="inited",
      setup=MODIFIED + [git("-C", "inited", "add", "-A")]),
    c("modified_commit_a", git("commit", "-a", "-m", "x"), cwd="inited", setup=MODIFIED),
    # -- untracked content -------------------------------------------------------------
    c("untracked_status", git("status"), cwd="inited", setup=UNTRACKED),
    c("untracked_short", git("status", "-s"), cwd="inited", setup=UNTRACKED),
    c("untracked_porcelain", git("status", "--porcelain"), cwd="inited", setup=UNTRACKED),
    c("untracked_diff", git("diff"), cwd="inited", setup=UNTRACKED),
    c("untracked_diff_stat", git("diff", "--stat"), cwd="inited", setup=UNTRACKED),
    # -- all three -------------------------------------------------------------------------
    c("all_status", git("status"), cwd="inited", setup=NEW_COMMITS + MODIFIED + UNTRACKED),
    c("all_short", git("status", "-s"), cwd="inited", setup=NEW_COMMITS + MODIFIED + UNTRACKED),
    c("all_diff", git("diff"), cwd="inited", setup=NEW_COMMITS + MODIFIED + UNTRACKED),
    c("mod_untracked_short", git("status", "-s"), cwd="inited", setup=MODIFIED + UNTRACKED),
    c("mod_untracked_status", git("status"), cwd="inited", setup=MODIFIED + UNTRACKED),
    # -- moving across the commit that added the submodule --------------------------------
    c("uninit_checkout_before", git("checkout", "HEAD~2")),
    c("uninit_checkout_before_status", git("status", "-s"),
      setup=[git("-C", "clone", "checkout", "-q", "HEAD~2")]),
    c("uninit_checkout_back", git("checkout", "-q", "main"),
      setup=[git("-C", "clone", "checkout", "-q", "HEAD~2")]),
    c("inited_checkout_before", git("checkout", "-q", "HEAD~2"), cwd="inited"),
    c("inited_checkout_before_status", git("status", "-s"), cwd="inited",
      setup=[git("-C", "inited", "checkout", "-q", "HEAD~2")]),
    c("inited_checkout_back", git("status", "-s"), cwd="inited",
      setup=[git("-C", "inited", "checkout", "-q", "HEAD~2"),
             git("-C", "inited", "checkout", "-q", "main")]),
    c("inited_reset_hard_before", git("reset", "--hard", "HEAD~2"), cwd="inited"),
    c("modified_stash", git("stash"), cwd="inited", setup=MODIFIED),
    c("new_commits_stash", git("stash"), cwd="inited", setup=NEW_COMMITS),
    # -- the superproject itself, and a file change next to the submodule -----------------
    c("super_status", git("status", "-s"), cwd="super"),
    c("super_file_and_sub", git("status"), cwd="inited",
      setup=NEW_COMMITS + [ap("inited/a.txt", "c\n")]),
]
