"""Golden cases: git 2.39's stash with untracked and ignored files (-u, -a), pathspecs,
pop/apply restoring deletions, --index, show -p/--stat/-u, stash branch, conflicts."""

from tests.ports.git.golden_helpers import ap, case, commit, dated, git, w

# a modified file, a staged one, a deleted one, an untracked file and dir, an ignored file
DIRTY = [ap("a.txt", "wip\n"), ap("b.txt", "staged\n"), git("add", "b.txt"), ["rm", "dir/c.txt"],
         w("u.txt", "untracked\n"), w("new/n.txt", "n\n"), w("x.log", "ignored\n"),
         w(".git/info/exclude", "*.log\n")]


def st(*args):
    return dated(5, git("stash", *args))


def c(name, argv, setup=(), **kw):
    return case(f"stash_{name}", argv, extra_setup=DIRTY + list(setup), **kw)


CASES = [
    c("push", st()),
    c("push_status", git("status", "--short", "--ignored"), [st("-q")]),
    c("pop", git("stash", "pop"), [st("-q")]),
    c("pop_status", git("status", "--short"), [st("-q"), git("stash", "pop", "-q")]),
    c("pop_index", git("stash", "pop", "--index"), [st("-q")]),
    c("pop_index_status", git("status", "--short"), [st("-q"), git("stash", "pop", "-q", "--index")]),
    c("apply", git("stash", "apply"), [st("-q")]),
    c("apply_index_status", git("status", "--short"), [st("-q"), git("stash", "apply", "-q", "--index")]),
    c("u", st("-u")),
    c("u_status", git("status", "--short", "--ignored"), [st("-u", "-q")]),
    c("u_log", git("log", "--format=%s|%P", "-1", "refs/stash^3"), [st("-u", "-q")]),
    c("u_tree", git("ls-tree", "-r", "refs/stash^3"), [st("-u", "-q")]),
    c("u_show", git("stash", "show"), [st("-u", "-q")]),
    c("u_show_u", git("stash", "show", "-u"), [st("-u", "-q")]),
    c("u_show_include", git("stash", "show", "--include-untracked", "--stat"), [st("-u", "-q")]),
    c("u_show_only", git("stash", "show", "--only-untracked"), [st("-u", "-q")]),
    c("u_show_p_u", git("stash", "show", "-p", "-u"), [st("-u", "-q")]),
    c("u_pop", git("stash", "pop"), [st("-u", "-q")]),
    c("u_pop_status", git("status", "--short", "--ignored"), [st("-u", "-q"), git("stash", "pop", "-q")]),
    c("u_pop_exists", git("stash", "pop"), [st("-u", "-q"), w("u.txt", "other\n")]),
    c("u_pop_exists_status", git("status", "--short"),
      [st("-u", "-q"), w("u.txt", "other\n"), git("stash", "pop", "-q")]),
    c("u_list", git("stash", "list"), [st("--include-untracked", "-q")]),
    c("a", st("-a")),
    c("a_status", git("status", "--short", "--ignored"), [st("--all", "-q")]),
    c("a_pop_status", git("status", "--short", "--ignored"), [st("-a", "-q"), git("stash", "pop", "-q")]),
    c("paths", st("push", "--", "a.txt")),
    c("paths_status", git("status", "--short"), [st("push", "-q", "--", "a.txt")]),
    c("paths_show", git("stash", "show", "--stat"), [st("push", "-q", "--", "a.txt", "dir")]),
    c("paths_m_status", git("status", "--short"), [st("push", "-q", "-m", "two", "a.txt", "b.txt")]),
    c("paths_list", git("stash", "list"), [st("push", "-q", "-m", "two", "a.txt", "b.txt")]),
    c("paths_nomatch", st("push", "--", "nosuch")),
    c("paths_u", git("status", "--short"), [st("push", "-q", "-u", "--", "u.txt", "a.txt")]),
    c("show_p", git("stash", "show", "-p"), [st("-q")]),
    c("show_stat", git("stash", "show", "--stat"), [st("-q")]),
    c("show_name_only", git("stash", "show", "--name-only"), [st("-q")]),
    c("show_numstat", git("stash", "show", "--numstat", "stash@{0}"), [st("-q")]),
    c("branch", git("stash", "branch", "stashed"), [st("-q")]),
    c("branch_status", git("status", "--short"), [st("-q"), git("stash", "branch", "stashed")]),
    c("branch_list", git("branch"), [st("-q"), git("stash", "branch", "stashed")]),
    c("branch_none", git("stash", "branch", "nothing")),
    c("branch_exists", git("stash", "branch", "main"), [st("-q")]),
    c("conflict_pop", git("stash", "pop"),
      [st("-q"), w("a.txt", "other\n"), git("add", "a.txt"), commit(6, "other")]),
    c("conflict_pop_status", git("status", "--short"),
      [st("-q"), w("a.txt", "other\n"), git("add", "a.txt"), commit(6, "other"),
       git("stash", "pop", "-q")]),
    c("conflict_list", git("stash", "list"),
      [st("-q"), w("a.txt", "other\n"), git("add", "a.txt"), commit(6, "other"),
       git("stash", "pop", "-q")]),
    c("dirty_pop", git("stash", "pop"), [st("-q"), ap("a.txt", "again\n")]),
    c("show_none", git("stash", "show"), [git("reset", "-q", "--hard")]),
]
