"""Golden cases: git 2.39's notes (add, append, show, list, remove, get-ref, --ref) on
refs/notes/commits, the notes commits and reflog it writes, and how log/show print notes
(``Notes:`` in the default format, ``%N``, --notes=<ref>, --no-notes, none with --oneline)."""

from tests.ports.git.golden_helpers import ap, case, commit, git

SEQ = [git("init", "-q", "-b", "main"), git("add", "."), commit(1, "one"),
       ap("a.txt", "more\n"), commit(2, "two\n\nbody", "-a"), ap("b.txt", "b2\n"),
       commit(3, "three", "-a")]
ADD = git("notes", "add", "-m", "note one", "-m", "para two")
N1 = git("notes", "add", "-m", "n1", "HEAD~1")
ENV = {"GIT_EDITOR": "false"}


def c(name, argv, steps=()):
    return case(name, argv, setup=SEQ + list(steps), env=ENV)


CASES = [
    c("add", ADD),
    c("add_log", git("log"), [ADD, N1]),
    c("add_show", git("show", "HEAD~1"), [ADD, N1]),
    c("add_oneline", git("log", "--oneline"), [ADD, N1]),
    c("add_format_N", git("log", "--format=%h %N|"), [ADD, N1]),
    c("add_no_notes", git("log", "-1", "--no-notes"), [ADD]),
    c("add_pretty_notes", git("log", "-1", "--format=medium", "--notes"), [ADD]),
    c("add_exists", git("notes", "add", "-m", "x"), [ADD]),
    c("add_force", git("notes", "add", "-f", "-m", "x"), [ADD]),
    c("list", git("notes", "list"), [ADD, N1]),
    c("list_bare", git("notes"), [ADD, N1]),
    c("list_one", git("notes", "list", "HEAD~1"), [ADD, N1]),
    c("list_missing", git("notes", "list", "HEAD~2"), [ADD]),
    c("list_bad", git("notes", "list", "nosuch")),
    c("show", git("notes", "show"), [ADD]),
    c("show_missing", git("notes", "show", "HEAD~1"), [ADD]),
    c("append", git("notes", "show"), [ADD, git("notes", "append", "-m", "appended")]),
    c("append_new", git("notes", "show", "HEAD~2"), [git("notes", "append", "-m", "a",
                                                         "HEAD~2")]),
    c("remove", git("notes", "remove", "HEAD~1"), [ADD, N1]),
    c("remove_missing", git("notes", "remove", "HEAD~1"), [ADD]),
    c("remove_ignore", git("notes", "remove", "--ignore-missing", "HEAD~1", "HEAD"), [ADD]),
    c("commits", git("log", "--format=%H %T %an %s", "refs/notes/commits"),
      [ADD, N1, git("notes", "append", "-m", "x"), git("notes", "remove", "HEAD~1")]),
    c("tree", git("ls-tree", "-r", "refs/notes/commits"), [ADD, N1]),
    c("reflog", git("reflog", "show", "refs/notes/commits"), [ADD, N1]),
    c("empty_message", git("notes", "add", "-m", ""), [ADD]),
    c("other_ref", git("log", "-1", "--notes=foo"), [git("notes", "--ref=foo", "add", "-m", "f")]),
    c("get_ref", git("notes", "--ref", "foo", "get-ref")),
    c("bad_sub", git("notes", "bogus")),
]
