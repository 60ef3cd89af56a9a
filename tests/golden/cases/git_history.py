"""Golden cases: git (2.39 on this machine) — log, diff, show, branch, checkout/switch, restore,
reset, tag, grep, blame, stash, merge, clone. Commits get distinct pinned dates."""

from tests.ports.git.golden_helpers import BASE, SETUPS, ap, case, commit, dated, git, w

HIST = BASE + [
    ap("a.txt", "four\n"), commit(2, "second: append four", "-a"),
    w("dir/c.txt", "sea\nocean\n"), w("e.txt", "eee\n"), git("add", "."), commit(3, "third"),
    git("mv", "b.txt", "bee.txt"), commit(4, "rename b"),
    git("tag", "v1"),
    dated(5, git("tag", "-a", "v2", "-m", "release two")),
    w("a.txt", "ONE\ntwo\nthree\nfour\n"), commit(6, "fourth\n\nwith a body\nof two lines", "-a"),
]
SETUPS["hist"] = HIST

BRANCHY = HIST + [
    git("checkout", "-q", "-b", "feat", "HEAD~2"),
    w("f.txt", "feature\n"), git("add", "f.txt"), commit(7, "feat one"),
    ap("f.txt", "more\n"), commit(8, "feat two", "-a"),
    git("checkout", "-q", "main"),
]
SETUPS["branchy"] = BRANCHY

MERGED = BRANCHY + [dated(9, git("merge", "-q", "--no-edit", "feat")),
                    ap("e.txt", "after\n"), commit(10, "after merge", "-a")]
SETUPS["merged"] = MERGED

CODE = BASE + [
    w("code.py", "import os\n\n\ndef alpha():\n    return 1\n\n\ndef beta():\n    x = 1\n"
      "    y = 2\n    return x + y\n\n\nclass Gamma:\n    def m(self):\n        pass\n"),
    git("add", "code.py"), commit(2, "code"),
    w("code.py", "import os\n\n\ndef alpha():\n    return 1\n\n\ndef beta():\n    x = 1\n"
      "    y = 3\n    return x + y\n\n\nclass Gamma:\n    def m(self):\n        return 42\n"
      "\n    def n(self):\n        pass\n"),
]
SETUPS["code"] = CODE

CASES = [
    # -- log ----------------------------------------------------------------------------
    case("log_default", git("log"), setup="hist"),
    case("log_oneline", git("log", "--oneline"), setup="hist"),
    case("log_n", git("log", "-n", "2", "--oneline"), setup="hist"),
    case("log_dash_num", git("log", "-3", "--format=%s"), setup="hist"),
    case("log_stat", git("log", "--stat"), setup="hist"),
    case("log_oneline_stat", git("log", "--oneline", "--stat"), setup="hist"),
    case("log_p", git("log", "-p"), setup="hist"),
    case("log_p_one", git("log", "-p", "-1", "HEAD~1"), setup="hist"),
    case("log_format", git("log", "--format=%H %h %T %t %P %p|%an|%ae|%ad|%at|%ai|%aI|%cn|%ce|%ct|%s"),
         setup="hist"),
    case("log_format_body", git("log", "--format=[%s]%n%b[%B]%x00end"), setup="hist"),
    case("log_pretty_format_sep", git("log", "--pretty=format:%h %s"), setup="hist"),
    case("log_format_name_only", git("log", "--format=%h %s", "--name-only"), setup="hist"),
    case("log_format_stat", git("log", "--format=%h", "--stat", "-2"), setup="hist"),
    case("log_pretty_short", git("log", "--pretty=short", "-2"), setup="hist"),
    case("log_pretty_full", git("log", "--pretty=full", "-1"), setup="hist"),
    case("log_pretty_fuller", git("log", "--pretty=fuller", "-1"), setup="hist"),
    case("log_pretty_oneline", git("log", "--pretty=oneline"), setup="hist"),
    case("log_name_status", git("log", "--name-status"), setup="hist"),
    case("log_name_only", git("log", "--name-only", "--oneline"), setup="hist"),
    case("log_numstat", git("log", "--numstat", "--oneline"), setup="hist"),
    case("log_shortstat", git("log", "--shortstat", "--oneline"), setup="hist"),
    case("log_graph_linear", git("log", "--graph", "--oneline"), setup="hist"),
    case("log_graph_linear_medium", git("log", "--graph", "-3"), setup="hist"),
    case("log_graph_merge", git("log", "--graph", "--oneline"), setup="merged"),
    case("log_graph_all", git("log", "--graph", "--oneline", "--all"), setup="branchy"),
    case("log_all", git("log", "--all", "--oneline"), setup="branchy"),
    case("log_merged", git("log", "--oneline"), setup="merged"),
    case("log_merged_medium", git("log", "-3"), setup="merged"),
    case("log_range", git("log", "--oneline", "main..feat"), setup="branchy"),
    case("log_range_exclude", git("log", "--oneline", "feat", "^main"), setup="branchy"),
    case("log_path", git("log", "--oneline", "--", "a.txt"), setup="hist"),
    case("log_path_dir", git("log", "--oneline", "dir"), setup="hist"),
    case("log_follow", git("log", "--oneline", "--follow", "bee.txt"), setup="hist"),
    case("log_follow_stat", git("log", "--stat", "--follow", "--", "bee.txt"), setup="hist"),
    case("log_nofollow", git("log", "--oneline", "--", "bee.txt"), setup="hist"),
    case("log_since", git("log", "--oneline", "--since=@1700000250"), setup="hist"),
    case("log_until", git("log", "--oneline", "--until=@1700000150"), setup="hist"),
    case("log_since_date", git("log", "--oneline", "--since", "2023-11-14 22:16:00"), setup="hist"),
    case("log_author", git("log", "--oneline", "--author=Other"), setup="hist", extra_setup=[
        dated(7, ["env", "GIT_AUTHOR_NAME=Other Person", "git", "commit", "-q", "--allow-empty",
                  "-m", "by other"])]),
    case("log_grep", git("log", "--oneline", "--grep=th"), setup="hist"),
    case("log_grep_i", git("log", "--oneline", "-i", "--grep=FOURTH"), setup="hist"),
    case("log_reverse", git("log", "--oneline", "--reverse"), setup="hist"),
    case("log_skip", git("log", "--oneline", "--skip=2", "-n", "2"), setup="hist"),
    case("log_decorate", git("log", "--oneline", "--decorate"), setup="branchy"),
    case("log_format_d", git("log", "--format=%h%d"), setup="branchy"),
    case("log_first_parent", git("log", "--oneline", "--first-parent"), setup="merged"),
    case("log_no_merges", git("log", "--oneline", "--no-merges"), setup="merged"),
    case("log_merges", git("log", "--oneline", "--merges"), setup="merged"),
    case("log_unborn", git("log"), setup=[git("init", "-q", "-b", "main")]),
    case("log_bad_rev", git("log", "nope"), setup="hist"),
    case("log_rev_tag", git("log", "--oneline", "v1"), setup="hist"),
    # -- diff ---------------------------------------------------------------------------
    case("diff_worktree", git("diff"), setup="code"),
    case("diff_worktree_stat", git("diff", "--stat"), setup="code"),
    case("diff_U1", git("diff", "-U1"), setup="code"),
    case("diff_U0", git("diff", "-U0"), setup="code"),
    case("diff_cached_empty", git("diff", "--cached"), setup="code"),
    case("diff_cached", git("diff", "--cached"), setup="code", extra_setup=[git("add", "code.py")]),
    case("diff_staged_name_status", git("diff", "--staged", "--name-status"), setup="hist",
         extra_setup=[git("mv", "e.txt", "ee.txt"), w("new.txt", "n\n"), git("add", "new.txt"),
                      git("rm", "-q", "bee.txt")]),
    case("diff_range", git("diff", "HEAD~3..HEAD"), setup="hist"),
    case("diff_two_revs", git("diff", "HEAD~2", "HEAD"), setup="hist"),
    case("diff_three_dot", git("diff", "main...feat"), setup="branchy"),
    case("diff_rev_worktree", git("diff", "HEAD~1"), setup="hist", extra_setup=[ap("e.txt", "x\n")]),
    case("diff_stat_range", git("diff", "--stat", "HEAD~4", "HEAD"), setup="hist"),
    case("diff_numstat", git("diff", "--numstat", "HEAD~4", "HEAD"), setup="hist"),
    case("diff_shortstat", git("diff", "--shortstat", "HEAD~4", "HEAD"), setup="hist"),
    case("diff_name_only", git("diff", "--name-only", "HEAD~4"), setup="hist"),
    case("diff_name_status", git("diff", "--name-status", "HEAD~4", "HEAD"), setup="hist"),
    case("diff_path", git("diff", "HEAD~4", "HEAD", "--", "a.txt"), setup="hist"),
    case("diff_noeol", git("diff"), setup="hist", extra_setup=[w("e.txt", "eee\nno newline")]),
    case("diff_deleted", git("diff"), setup="hist", extra_setup=[["rm", "e.txt"]]),
    case("diff_new_file_cached", git("diff", "--cached"), setup="hist", extra_setup=[
        w("n.txt", "new\nfile\n"), git("add", "n.txt")]),
    case("diff_binary", git("diff", "--cached"), setup="hist", extra_setup=[
        w("bin.dat", "a\x00b\n"), git("add", "bin.dat")]),
    case("diff_binary_stat", git("diff", "--cached", "--stat"), setup="hist", extra_setup=[
        w("bin.dat", "a\x00b\n"), git("add", "bin.dat")]),
    case("diff_mode", git("diff"), setup="hist", extra_setup=[["chmod", "+x", "e.txt"]]),
    case("diff_quiet", git("diff", "--quiet"), setup="code"),
    case("diff_exit_code_clean", git("diff", "--exit-code"), setup="hist"),
    case("diff_big_stat", git("diff", "--stat"), setup="hist", extra_setup=[
        w("a.txt", "".join(f"line {i}\n" for i in range(200))),
        w("a_very_long_directory_name/with_a_long_file_name_inside_of_it_for_width.txt", "x\n"),
        git("add", "-A")]),
    case("diff_bad_rev", git("diff", "nope"), setup="hist"),
    # -- show ---------------------------------------------------------------------------
    case("show_head", git("show"), setup="hist"),
    case("show_stat", git("show", "--stat", "HEAD~1"), setup="hist"),
    case("show_rev_path", git("show", "HEAD~3:a.txt"), setup="hist"),
    case("show_rev_path_missing", git("show", "HEAD:nope.txt"), setup="hist"),
    case("show_tag", git("show", "v2"), setup="hist"),
    case("show_tree", git("show", "HEAD:dir"), setup="hist"),
    case("show_oneline", git("show", "--oneline", "--stat", "HEAD"), setup="hist"),
    case("show_name_only", git("show", "--name-only", "--format=%s", "HEAD~1"), setup="hist"),
    case("show_merge", git("show", "HEAD~1"), setup="merged"),
    case("show_format", git("show", "-s", "--format=%an %s", "HEAD"), setup="hist"),
    case("cat_file_p", git("cat-file", "-p", "HEAD"), setup="hist"),
    case("cat_file_t", git("cat-file", "-t", "v2"), setup="hist"),
    # -- branch -------------------------------------------------------------------------
    case("branch_list", git("branch"), setup="branchy"),
    case("branch_v", git("branch", "-v"), setup="branchy"),
    case("branch_create", git("branch"), setup="hist", extra_setup=[git("branch", "topic"),
                                                                   git("branch", "old", "HEAD~2")]),
    case("branch_d", git("branch", "-d", "topic"), setup="hist", extra_setup=[git("branch", "topic")]),
    case("branch_d_unmerged", git("branch", "-d", "feat"), setup="branchy"),
    case("branch_D", git("branch", "-D", "feat"), setup="branchy"),
    case("branch_d_current", git("branch", "-d", "main"), setup="branchy"),
    case("branch_d_missing", git("branch", "-d", "nope"), setup="branchy"),
    case("branch_exists", git("branch", "feat"), setup="branchy"),
    case("branch_show_current", git("branch", "--show-current"), setup="branchy"),
    case("branch_detached", git("branch"), setup="hist", extra_setup=[git("checkout", "-q", "HEAD~1")]),
    case("branch_move", git("branch"), setup="branchy", extra_setup=[git("branch", "-m", "feat", "feature")]),
    case("branch_merged", git("branch", "--merged"), setup="merged", extra_setup=[git("branch", "x", "HEAD~3")]),
    # -- checkout / switch / restore ----------------------------------------------------
    case("checkout_branch", git("checkout", "feat"), setup="branchy"),
    case("checkout_branch_status", git("status"), setup="branchy", extra_setup=[git("checkout", "-q", "feat")]),
    case("checkout_branch_files", ["cat", "f.txt", "a.txt"], setup="branchy",
         extra_setup=[git("checkout", "-q", "feat")]),
    case("checkout_b", git("checkout", "-b", "new"), setup="hist"),
    case("checkout_b_start", git("checkout", "-b", "new", "HEAD~3"), setup="hist"),
    case("checkout_b_exists", git("checkout", "-b", "feat"), setup="branchy"),
    case("checkout_already", git("checkout", "main"), setup="branchy"),
    case("checkout_detached", git("checkout", "HEAD~1"), setup="hist"),
    case("checkout_detached_status", git("status"), setup="hist", extra_setup=[git("checkout", "-q", "HEAD~1")]),
    case("checkout_back_from_detached", git("checkout", "main"), setup="hist",
         extra_setup=[git("checkout", "-q", "HEAD~1")]),
    case("checkout_carry_changes", git("checkout", "feat"), setup="branchy", extra_setup=[ap("e.txt", "x\n")]),
    case("checkout_conflict", git("checkout", "HEAD~4"), setup="hist", extra_setup=[ap("a.txt", "x\n")]),
    case("checkout_path", ["cat", "a.txt"], setup="hist", extra_setup=[
        w("a.txt", "garbage\n"), git("checkout", "--", "a.txt")]),
    case("checkout_rev_path", git("status", "-s"), setup="hist", extra_setup=[
        git("checkout", "HEAD~4", "--", "a.txt")]),
    case("checkout_missing", git("checkout", "nope"), setup="hist"),
    case("checkout_dash", git("checkout", "-"), setup="branchy", extra_setup=[git("checkout", "-q", "feat")]),
    case("switch_branch", git("switch", "feat"), setup="branchy"),
    case("switch_c", git("switch", "-c", "topic"), setup="hist"),
    case("switch_missing", git("switch", "nope"), setup="hist"),
    case("switch_commit", git("switch", "HEAD~1"), setup="hist"),
    case("switch_detach", git("switch", "--detach", "HEAD~1"), setup="hist"),
    case("restore_worktree", ["cat", "a.txt"], setup="hist", extra_setup=[
        w("a.txt", "junk\n"), git("restore", "a.txt")]),
    case("restore_staged", git("status", "-s"), setup="hist", extra_setup=[
        ap("a.txt", "junk\n"), git("add", "a.txt"), git("restore", "--staged", "a.txt")]),
    case("restore_source", git("status", "-s"), setup="hist", extra_setup=[
        git("restore", "--source=HEAD~4", "a.txt")]),
    case("restore_missing", git("restore", "nope.txt"), setup="hist"),
    # -- reset --------------------------------------------------------------------------
    case("reset_soft", git("status", "-s"), setup="hist", extra_setup=[git("reset", "--soft", "HEAD~2")]),
    case("reset_mixed", git("reset", "HEAD~2"), setup="hist"),
    case("reset_mixed_status", git("status", "-s"), setup="hist", extra_setup=[git("reset", "-q", "HEAD~2")]),
    case("reset_hard", git("reset", "--hard", "HEAD~2"), setup="hist"),
    case("reset_hard_files", git("status"), setup="hist", extra_setup=[
        ap("a.txt", "x\n"), git("reset", "-q", "--hard", "HEAD~3")]),
    case("reset_paths", git("status", "-s"), setup="hist", extra_setup=[
        ap("a.txt", "x\n"), ap("e.txt", "y\n"), git("add", "."), git("reset", "-q", "--", "a.txt")]),
    case("reset_unstaged_msg", git("reset"), setup="hist", extra_setup=[
        ap("a.txt", "x\n"), git("add", "a.txt")]),
    case("reset_log", git("log", "--oneline"), setup="hist", extra_setup=[git("reset", "-q", "--hard", "v1")]),
    # -- tag ----------------------------------------------------------------------------
    case("tag_list", git("tag"), setup="hist", extra_setup=[git("tag", "a0", "HEAD~4")]),
    case("tag_list_pattern", git("tag", "-l", "v*"), setup="hist", extra_setup=[git("tag", "a0", "HEAD~4")]),
    case("tag_n", git("tag", "-n"), setup="hist"),
    case("tag_delete", git("tag", "-d", "v1"), setup="hist"),
    case("tag_delete_missing", git("tag", "-d", "nope"), setup="hist"),
    case("tag_exists", git("tag", "v1"), setup="hist"),
    case("tag_annotated_catfile", git("cat-file", "-p", "v2"), setup="hist"),
    # -- grep ---------------------------------------------------------------------------
    case("grep_basic", git("grep", "t"), setup="hist"),
    case("grep_n", git("grep", "-n", "o"), setup="hist"),
    case("grep_i_l", git("grep", "-i", "-l", "one"), setup="hist"),
    case("grep_count", git("grep", "-c", "e"), setup="hist"),
    case("grep_none", git("grep", "zzz"), setup="hist"),
    case("grep_rev", git("grep", "one", "HEAD~4"), setup="hist"),
    case("grep_path", git("grep", "-n", "e", "--", "dir"), setup="hist"),
    case("grep_w_v", git("grep", "-v", "-w", "two", "a.txt"), setup="hist"),
    case("grep_subdir", git("grep", "-n", "e"), setup="hist", cwd="dir"),
    case("grep_cached", git("grep", "--cached", "junk"), setup="hist", extra_setup=[
        ap("a.txt", "junk\n")]),
    # -- blame --------------------------------------------------------------------------
    case("blame_basic", git("blame", "a.txt"), setup="hist"),
    case("blame_rename", git("blame", "bee.txt"), setup="hist"),
    case("blame_rev", git("blame", "HEAD~2", "--", "a.txt"), setup="hist"),
    # -- stash --------------------------------------------------------------------------
    case("stash_push", git("stash"), setup="hist", extra_setup=[ap("a.txt", "wip\n")]),
    case("stash_list", git("stash", "list"), setup="hist", extra_setup=[
        ap("a.txt", "wip\n"), git("stash", "-q"), ap("e.txt", "wip2\n"),
        git("stash", "push", "-q", "-m", "second stash")]),
    case("stash_status_after", git("status", "-s"), setup="hist", extra_setup=[
        ap("a.txt", "wip\n"), git("stash", "-q")]),
    case("stash_pop", git("stash", "pop"), setup="hist", extra_setup=[
        ap("a.txt", "wip\n"), git("stash", "-q")]),
    case("stash_pop_files", ["cat", "a.txt"], setup="hist", extra_setup=[
        ap("a.txt", "wip\n"), git("stash", "-q"), git("stash", "pop", "-q")]),
    case("stash_nothing", git("stash"), setup="hist"),
    case("stash_show", git("stash", "show"), setup="hist", extra_setup=[
        ap("a.txt", "wip\n"), git("stash", "-q")]),
    case("stash_drop", git("stash", "list"), setup="hist", extra_setup=[
        ap("a.txt", "wip\n"), git("stash", "-q"), ap("e.txt", "wip2\n"), git("stash", "-q"),
        git("stash", "drop", "-q", "stash@{1}")]),
    # -- merge --------------------------------------------------------------------------
    case("merge_ff", git("merge", "feat"), setup="hist", extra_setup=[
        git("checkout", "-q", "-b", "feat"), w("f.txt", "f\n"), git("add", "f.txt"),
        commit(7, "feat"), git("checkout", "-q", "main")]),
    case("merge_three_way", dated(9, git("merge", "--no-edit", "feat")), setup="branchy"),
    case("merge_three_way_log", git("log", "--format=%s %p", "-1"), setup="merged"),
    case("merge_up_to_date", git("merge", "HEAD~1"), setup="hist"),
    case("merge_conflict", dated(9, git("merge", "feat")), setup="hist", extra_setup=[
        git("checkout", "-q", "-b", "feat", "HEAD~1"), w("a.txt", "one\nTWO\nthree\nfour\n"),
        commit(7, "feat edit", "-a"), git("checkout", "-q", "main")]),
    case("merge_conflict_file", ["cat", "a.txt"], setup="merge_conflict", extra_setup=[
        dated(9, git("merge", "feat"))]),
    case("merge_conflict_status", git("status"), setup="merge_conflict", extra_setup=[
        dated(9, git("merge", "feat"))]),
    case("merge_conflict_ls_stage", git("ls-files", "-s"), setup="merge_conflict", extra_setup=[
        dated(9, git("merge", "feat"))]),
    case("merge_conflict_resolve_commit", git("log", "--oneline", "--graph"), setup="merge_conflict",
         extra_setup=[dated(9, git("merge", "feat")), w("a.txt", "resolved\n"), git("add", "a.txt"),
                      dated(10, git("commit", "-q", "--no-edit"))]),
    case("merge_abort", git("status", "-s"), setup="merge_conflict", extra_setup=[
        dated(9, git("merge", "feat")), git("merge", "--abort")]),
    case("merge_no_ff", dated(9, git("merge", "--no-ff", "--no-edit", "feat")), setup="hist",
         extra_setup=[git("checkout", "-q", "-b", "feat"), w("f.txt", "f\n"), git("add", "f.txt"),
                      commit(7, "feat"), git("checkout", "-q", "main")]),
    case("merge_bad", git("merge", "nope"), setup="hist"),
    # -- clone --------------------------------------------------------------------------
    case("clone_local", git("clone", "src", "dst"), setup=[
        git("init", "-q", "-b", "main", "src"), w("src/x.txt", "x\n"), git("-C", "src", "add", "."),
        dated(1, git("-C", "src", "commit", "-q", "-m", "src commit"))]),
    case("clone_then_branch_a", git("-C", "dst", "branch", "-a"), setup="clone_local",
         extra_setup=[git("clone", "-q", "src", "dst")]),
    case("clone_then_status", git("-C", "dst", "status", "-sb"), setup="clone_local",
         extra_setup=[git("clone", "-q", "src", "dst")]),
    case("clone_then_log", git("-C", "dst", "log", "--oneline", "--decorate"), setup="clone_local",
         extra_setup=[git("clone", "-q", "src", "dst")]),
    case("clone_then_files", ["cat", "dst/x.txt"], setup="clone_local",
         extra_setup=[git("clone", "-q", "src", "dst")]),
    case("clone_then_config", git("-C", "dst", "config", "--get", "remote.origin.fetch"),
         setup="clone_local", extra_setup=[git("clone", "-q", "src", "dst")]),
    case("clone_missing", git("clone", "nope", "dst"), setup=[], files={}),
    case("clone_default_dir", ["cat", "src2/x.txt"], setup="clone_local", extra_setup=[
        ["mkdir", "sub"], git("-C", "sub", "clone", "-q", "../src", "../src2")]),
    case("clone_ahead_status", git("-C", "dst", "status"), setup="clone_local", extra_setup=[
        git("clone", "-q", "src", "dst"), w("dst/y.txt", "y\n"), git("-C", "dst", "add", "."),
        dated(2, git("-C", "dst", "commit", "-q", "-m", "local"))]),
]
