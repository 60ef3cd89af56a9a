"""Golden cases: git 2.39's status --porcelain=v2 and clean, on the 'project' fixture
(tests/golden/fixtures): submodule, rename, conflicts, untracked and ignored files."""

from tests.ports.git.golden_helpers import ap, case, git, w

F = "project"


def c(name, argv, cwd="proj", setup=(), **kw):
    return case(name, argv, setup=list(setup), fixture=F, cwd=cwd, **kw)


DIRTY = [ap("proj/README.md", "more\n"), w("proj/new.txt", "n\n"), ["rm", "proj/latest"],
         ap("proj/src/main.py", "# staged\n"), git("-C", "proj", "add", "src/main.py"),
         w("proj/build/out.o", "o\n"), w("proj/.gitignore", "*.o\nbuild/\n"),
         w("proj/src/tmp.o", "t\n"), w("proj/docs/new/page.txt", "p\n")]
RENAMED = [git("-C", "proj", "mv", "src/helpers.py", "src/util.py")]

CASES = [
    # -- status --porcelain=v2 ---------------------------------------------------------------
    c("v2", git("status", "--porcelain=v2")),
    c("v2_branch", git("status", "--porcelain=v2", "--branch")),
    c("v2_dirty", git("status", "--porcelain=v2", "-b"), setup=DIRTY),
    c("v2_ignored", git("status", "--porcelain=v2", "--ignored"), setup=DIRTY),
    c("v2_z", git("status", "--porcelain=v2", "-z"), setup=DIRTY + RENAMED),
    c("v2_rename", git("status", "--porcelain=v2"), setup=RENAMED),
    c("v2_uall", git("status", "--porcelain=2", "-uall"), setup=DIRTY),
    c("v2_detached", git("status", "--porcelain=v2", "-b"), cwd="detached"),
    c("v2_topic", git("status", "--porcelain=v2", "-b"),
      setup=[git("-C", "proj", "checkout", "-q", "topic")]),
    c("v2_mode", git("status", "--porcelain=v2"), setup=[["chmod", "+x", "proj/README.md"]]),
    c("v2_subdir", git("status", "--porcelain=v2"), cwd="proj/src", setup=DIRTY),
    c("v2_conflict", git("status", "--porcelain=v2", "-b"),
      setup=[git("-C", "proj", "checkout", "-q", "-b", "side", "HEAD~1"),
             ap("proj/README.md", "side\n"), git("-C", "proj", "commit", "-qam", "side"),
             git("-C", "proj", "checkout", "-q", "main"), ap("proj/README.md", "main\n"),
             git("-C", "proj", "commit", "-qam", "main"), git("-C", "proj", "merge", "-q", "side")]),
    c("v3_bad", git("status", "--porcelain=v3")),
    # -- clean -------------------------------------------------------------------------------
    c("clean_refused", git("clean"), setup=DIRTY),
    c("clean_n", git("clean", "-n"), setup=DIRTY),
    c("clean_nd", git("clean", "-nd"), setup=DIRTY),
    c("clean_nx", git("clean", "-nx"), setup=DIRTY),
    c("clean_ndx", git("clean", "-ndx"), setup=DIRTY),
    c("clean_ndX", git("clean", "-ndX"), setup=DIRTY),
    c("clean_f", git("clean", "-f"), setup=DIRTY),
    c("clean_f_status", git("status", "--short", "--ignored"),
      setup=DIRTY + [git("-C", "proj", "clean", "-f")]),
    c("clean_fdx", git("clean", "-fdx"), setup=DIRTY),
    c("clean_fdx_status", git("status", "--short", "--ignored"),
      setup=DIRTY + [git("-C", "proj", "clean", "-fdx")]),
    c("clean_q", git("clean", "-fdq"), setup=DIRTY),
    c("clean_path", git("clean", "-n", "docs"), setup=DIRTY),
    c("clean_path_dir", git("clean", "-n", "docs/new"), setup=DIRTY),
    c("clean_subdir", git("clean", "-nd"), cwd="proj/src", setup=DIRTY),
    c("clean_subdir_up", git("clean", "-nd", ".."), cwd="proj/src", setup=DIRTY),
    c("clean_x_X", git("clean", "-x", "-X")),
    c("clean_nothing", git("clean", "-n")),
]

CASES += [
    # -- submodule status, worktree list ------------------------------------------------------
    c("submodule_status", git("submodule", "status")),
    c("submodule_bare", git("submodule")),
    c("submodule_status_path", git("submodule", "status", "vendor")),
    c("submodule_status_subdir", git("submodule", "status"), cwd="proj/src"),
    c("worktree_list", git("worktree", "list")),
    c("worktree_list_porcelain", git("worktree", "list", "--porcelain")),
    c("worktree_list_detached", git("worktree", "list"), cwd="detached"),
    c("worktree_none", git("worktree")),
]

CASES += [
    # -- diff-tree, rev-list --max-parents/--min-parents ---------------------------------------
    c("diff_tree", git("diff-tree", "HEAD")),
    c("diff_tree_r", git("diff-tree", "-r", "HEAD~1")),
    c("diff_tree_names", git("diff-tree", "--no-commit-id", "--name-only", "-r", "HEAD~2")),
    c("diff_tree_status", git("diff-tree", "--no-commit-id", "--name-status", "-r", "HEAD~3")),
    c("diff_tree_stat", git("diff-tree", "--stat", "HEAD~2")),
    c("diff_tree_p", git("diff-tree", "-p", "HEAD~2")),
    c("diff_tree_two", git("diff-tree", "HEAD~5", "HEAD")),
    c("diff_tree_two_r_path", git("diff-tree", "-r", "HEAD~5", "HEAD", "--", "src")),
    c("diff_tree_merge", git("diff-tree", "HEAD^{/Merge}")),
    c("diff_tree_s", git("diff-tree", "-s", "HEAD~1")),
    c("diff_tree_M", git("diff-tree", "-r", "-M", "v0.9", "HEAD")),
    c("diff_tree_root", git("diff-tree", "--root", "-r", "HEAD~12")),
    c("rl_max_parents", git("rev-list", "--max-parents=0", "HEAD")),
    c("rl_min_parents", git("rev-list", "--min-parents=2", "--all")),
    c("log_max_parents", git("log", "--oneline", "--max-parents=1", "-3")),
]

CASES += [
    # -- commits named by their message: REV^{/regex}, :/regex ----------------------------------
    c("rev_msg_search", git("rev-parse", "HEAD^{/Merge}")),
    c("rev_msg_search_all", git("log", "--oneline", "-1", ":/feature")),
    c("rev_msg_search_from", git("show", "-s", "--format=%s", "HEAD~3^{/.}")),
    c("rev_msg_search_none", git("rev-parse", "HEAD^{/nomatch-xyz}")),
    c("rev_msg_search_all_none", git("rev-parse", ":/nomatch-xyz")),
]

CASES += [
    # -- new branches: local changes listed only with a start point, remote ones tracked -----
    c("checkout_b_here", git("checkout", "-b", "feat"), setup=DIRTY),
    c("checkout_b_start", git("checkout", "-b", "feat", "main"), setup=DIRTY),
    c("checkout_b_remote", git("checkout", "-b", "feat", "origin/main")),
    c("checkout_b_remote_status", git("status", "-sb"),
      setup=[git("-C", "proj", "checkout", "-q", "-b", "feat", "origin/main")]),
    c("checkout_b_no_track", git("checkout", "--no-track", "-b", "feat", "origin/main")),
    c("switch_c_remote", git("switch", "-c", "feat", "origin/main")),
    c("config_get_regexp", git("config", "--get-regexp", r"branch\..*")),
    c("config_get_regexp_bad", git("config", "--get-regexp", "(")),
]
