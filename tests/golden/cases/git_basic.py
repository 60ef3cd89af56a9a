"""Golden cases: git (2.39 on this machine) — init, add, commit, status, rm, mv, ls-files, config,
rev-parse. Identities and dates are pinned so that object ids match exactly."""

from tests.ports.git.golden_helpers import BASE, FILES, ap, case, commit, dated, git, w

CASES = [
    # -- init ---------------------------------------------------------------------------
    case("init_default", git("init"), setup=[], files={}),
    case("init_quiet", git("init", "-q"), setup=[], files={}),
    case("init_branch", git("init", "-b", "trunk"), setup=[], files={}),
    case("init_reinit", git("init"), setup=[git("init", "-q", "-b", "main")], files={}),
    case("init_dir", git("init", "-b", "main", "sub/repo"), setup=[], files={}),
    case("init_bare", git("init", "--bare", "-b", "main", "b.git"), setup=[], files={}),
    case("init_then_status", git("status"), setup=[git("init", "-q", "-b", "main")], files={}),
    # -- status -------------------------------------------------------------------------
    case("status_untracked", git("status"), setup=[git("init", "-q", "-b", "main")]),
    case("status_staged_initial", git("status"), setup=[git("init", "-q", "-b", "main"),
                                                        git("add", "a.txt", "dir")]),
    case("status_clean", git("status")),
    case("status_clean_short", git("status", "-s")),
    case("status_mixed", git("status"), setup=BASE + [
        ap("a.txt", "four\n"), git("add", "a.txt"), ap("a.txt", "five\n"),
        git("rm", "-q", "b.txt"), git("mv", "dir/c.txt", "dir/c2.txt"),
        w("new.txt", "new\n"), git("add", "new.txt"), w("untracked.txt", "u\n"),
        w("ud/sub/f", "f\n"), w("dir/sub/e.txt", "e\n")]),
    case("status_mixed_short", git("status", "--short"), setup="status_mixed"),
    case("status_mixed_sb", git("status", "-sb"), setup="status_mixed"),
    case("status_mixed_porcelain", git("status", "--porcelain"), setup="status_mixed"),
    case("status_mixed_subdir", git("status"), setup="status_mixed", cwd="dir"),
    case("status_mixed_subdir_short", git("status", "-s"), setup="status_mixed", cwd="dir"),
    case("status_mixed_subdir_porcelain", git("status", "--porcelain"), setup="status_mixed", cwd="dir"),
    case("status_uall", git("status", "-s", "-uall"), setup="status_mixed"),
    case("status_uno", git("status", "-uno"), setup="status_mixed"),
    case("status_unstaged_only", git("status"), setup=BASE + [ap("b.txt", "x\n")]),
    case("status_deleted_unstaged", git("status"), setup=BASE + [["rm", "b.txt"]]),
    case("status_ignored", git("status", "-s"), setup=BASE + [
        w(".gitignore", "*.log\nbuild/\n"), w("x.log", "l\n"),
        w("build/out", "o\n"), w("keep.txt", "k\n")]),
    case("status_ignored_flag", git("status", "-s", "--ignored"), setup="status_ignored"),
    case("status_exclude_file", git("status", "-s"), setup=BASE + [
        w(".git/info/exclude", "secret*\n"), w("secret.txt", "s\n"),
        w("public.txt", "p\n")]),
    case("status_quoted", git("status", "-s"), setup=BASE + [
        w("sp ace.txt", "x\n"), w("caf\u00e9.txt", "x\n"),
        w('q"uote.txt', "x\n")]),
    case("status_pathspec", git("status", "-s", "dir"), setup="status_mixed"),
    # -- add ----------------------------------------------------------------------------
    case("add_dot_status", git("status", "-s"), setup=[git("init", "-q", "-b", "main"), git("add", ".")]),
    case("add_A", git("status", "-s"), setup=BASE + [
        ["rm", "b.txt"], w("n.txt", "n\n"), ap("a.txt", "z\n"), git("add", "-A")]),
    case("add_u", git("status", "-s"), setup=BASE + [
        ["rm", "b.txt"], w("n.txt", "n\n"), ap("a.txt", "z\n"), git("add", "-u")]),
    case("add_dir_removal", git("status", "-s"), setup=BASE + [["rm", "dir/c.txt"], git("add", "dir")]),
    case("add_verbose", git("add", "-v", "."), setup=[git("init", "-q", "-b", "main")]),
    case("add_dry_run", git("add", "-n", "a.txt", "dir"), setup=[git("init", "-q", "-b", "main")]),
    case("add_ignored", git("add", "x.log"), setup=BASE + [
        w(".gitignore", "*.log\n"), w("x.log", "l\n")]),
    case("add_ignored_force", git("status", "-s"), setup=BASE + [
        w(".gitignore", "*.log\n"), w("x.log", "l\n"), git("add", "-f", "x.log")]),
    case("add_missing", git("add", "nope.txt"), setup=[git("init", "-q", "-b", "main")]),
    case("add_nothing", git("add"), setup=[git("init", "-q", "-b", "main")]),
    case("add_glob", git("status", "-s"), setup=[git("init", "-q", "-b", "main"), git("add", "*.txt")]),
    case("add_outside", git("add", "/etc/passwd"), setup=[git("init", "-q", "-b", "main")]),
    # -- commit -------------------------------------------------------------------------
    case("commit_root", git("commit", "-m", "first"), setup=[git("init", "-q", "-b", "main"),
                                                            git("add", ".")]),
    case("commit_second", git("commit", "-m", "second\n\nbody line"), setup=BASE + [
        ap("a.txt", "four\n"), w("n.txt", "n\n"), git("add", ".")]),
    case("commit_a", git("commit", "-a", "-m", "all"), setup=BASE + [
        ap("a.txt", "four\n"), ["rm", "b.txt"]]),
    case("commit_nothing", git("commit", "-m", "none")),
    case("commit_nothing_untracked", git("commit", "-m", "none"), setup=BASE + [
        w("u.txt", "u\n")]),
    case("commit_allow_empty", git("commit", "--allow-empty", "-m", "empty")),
    case("commit_amend", dated(5, git("commit", "--amend", "-m", "amended")), setup=BASE + [
        ap("a.txt", "four\n"), git("add", "a.txt")]),
    case("commit_amend_log", git("log", "--format=%H %s %an %at %ct"), setup="commit_amend",
         extra_setup=[dated(5, git("commit", "-q", "--amend", "-m", "amended"))]),
    case("commit_multi_m", git("log", "-n1", "--format=%B"), setup=BASE + [
        git("commit", "-q", "--allow-empty", "-m", "one", "-m", "two  ", "-m", "three")]),
    case("commit_author_differs", git("commit", "--allow-empty", "-m", "x"),
         env={"GIT_AUTHOR_NAME": "Other", "GIT_AUTHOR_EMAIL": "o@example.com"}),
    case("commit_author_opt", git("commit", "--allow-empty", "--author", "X Y <x@y.z>", "-m", "x")),
    case("commit_rename_summary", git("commit", "-m", "mv"), setup=BASE + [
        git("mv", "b.txt", "dir/b2.txt")]),
    case("commit_mode_change", git("commit", "-a", "-m", "chmod"), setup=BASE + [
        ["chmod", "+x", "b.txt"]]),
    case("commit_empty_message", git("commit", "--allow-empty", "-m", "")),
    case("commit_detached", git("commit", "--allow-empty", "-m", "det"), setup=BASE + [
        git("checkout", "-q", "--detach")]),
    case("commit_file_msg", git("commit", "--allow-empty", "-F", "msg.txt"),
         files=dict(FILES, **{"msg.txt": "from file\n\n\nbody\n"})),
    case("commit_then_log", git("log", "--format=%H%n%T%n%P%n%an <%ae> %ad%n%B"), setup=BASE + [
        ap("a.txt", "four\n"), commit(2, "second", "-a")]),
    # -- rm / mv ------------------------------------------------------------------------
    case("rm_file", git("rm", "b.txt")),
    case("rm_file_status", git("status", "-s"), setup=BASE + [git("rm", "-q", "b.txt")]),
    case("rm_cached", git("rm", "--cached", "b.txt")),
    case("rm_cached_status", git("status", "-s"), setup=BASE + [git("rm", "-q", "--cached", "b.txt")]),
    case("rm_dir_no_r", git("rm", "dir")),
    case("rm_dir_r", git("rm", "-r", "dir")),
    case("rm_modified", git("rm", "b.txt"), setup=BASE + [ap("b.txt", "x\n")]),
    case("rm_staged", git("rm", "b.txt"), setup=BASE + [ap("b.txt", "x\n"), git("add", "b.txt")]),
    case("rm_missing", git("rm", "nope")),
    case("mv_file", git("status", "-s"), setup=BASE + [git("mv", "b.txt", "bee.txt")]),
    case("mv_into_dir", git("status", "-s"), setup=BASE + [git("mv", "b.txt", "dir")]),
    case("mv_untracked", git("mv", "u.txt", "v.txt"), setup=BASE + [w("u.txt", "u\n")]),
    case("mv_missing", git("mv", "nope", "v.txt")),
    case("mv_exists", git("mv", "a.txt", "b.txt")),
    case("mv_dir", git("ls-files"), setup=BASE + [git("mv", "dir", "moved")]),
    # -- ls-files -----------------------------------------------------------------------
    case("ls_files", git("ls-files")),
    case("ls_files_stage", git("ls-files", "-s")),
    case("ls_files_subdir", git("ls-files"), cwd="dir"),
    case("ls_files_others", git("ls-files", "-o"), setup="status_mixed"),
    case("ls_files_others_std", git("ls-files", "-o", "--exclude-standard"), setup="status_ignored"),
    case("ls_files_modified", git("ls-files", "-m"), setup="status_mixed"),
    case("ls_files_deleted", git("ls-files", "-d"), setup=BASE + [["rm", "b.txt"]]),
    case("ls_files_z", git("ls-files", "-z")),
    case("ls_files_pathspec", git("ls-files", "dir")),
    # -- config -------------------------------------------------------------------------
    case("config_set_get", git("config", "user.name"), setup=BASE + [git("config", "user.name", "Someone")]),
    case("config_missing", git("config", "no.such")),
    case("config_list_local", git("config", "--local", "--list"), setup=BASE + [
        git("config", "alpha.beta", "gamma"), git("config", "sec.sub.key", "v")]),
    case("config_file_content", ["cat", ".git/config"], setup=BASE + [
        git("config", "alpha.beta", "gamma"), git("config", "sec.sub.key", "v")]),
    # --global writes the home's .gitconfig ($HOME is the sandbox's own, not the workspace)
    case("config_global", git("config", "--global", "--get", "user.name"),
         setup=BASE + [git("config", "--global", "user.name", "G")]),
    case("config_global_not_in_workspace", ["ls", "-A"],
         setup=BASE + [git("config", "--global", "user.name", "G")]),
    case("config_unset", git("config", "--get", "alpha.beta"), setup=BASE + [
        git("config", "alpha.beta", "gamma"), git("config", "--unset", "alpha.beta")]),
    case("config_identity_from_repo", git("log", "--format=%an %ae"), setup=[
        git("init", "-q", "-b", "main"), git("config", "user.name", "Repo User"),
        git("config", "user.email", "repo@example.com"), git("add", "."),
        git("commit", "-q", "-m", "x")],
        env={"GIT_AUTHOR_NAME": None, "GIT_AUTHOR_EMAIL": None, "GIT_COMMITTER_NAME": None,
             "GIT_COMMITTER_EMAIL": None}),
    # -- rev-parse ----------------------------------------------------------------------
    case("rp_head", git("rev-parse", "HEAD")),
    case("rp_short", git("rev-parse", "--short", "HEAD")),
    case("rp_abbrev_ref", git("rev-parse", "--abbrev-ref", "HEAD")),
    case("rp_toplevel", git("rev-parse", "--show-toplevel"), cwd="dir/sub"),
    case("rp_git_dir_top", git("rev-parse", "--git-dir")),
    case("rp_git_dir_sub", git("rev-parse", "--git-dir"), cwd="dir"),
    case("rp_prefix", git("rev-parse", "--show-prefix"), cwd="dir/sub"),
    case("rp_cdup", git("rev-parse", "--show-cdup"), cwd="dir/sub"),
    case("rp_inside", git("rev-parse", "--is-inside-work-tree")),
    case("rp_tilde", git("rev-parse", "HEAD~1", "HEAD^{tree}"), setup="two_commits"),
    case("rp_bad", git("rev-parse", "nope")),
    case("rp_verify_bad", git("rev-parse", "--verify", "-q", "nope")),
    case("not_a_repo", git("status"), setup=[], files={}),
    case("not_a_repo_log", git("log"), setup=[], files={}),
    case("unknown_command", git("frobnicate"), setup=[], files={}),
]
