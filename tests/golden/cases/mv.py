"""mv (GNU coreutils 9.1): what it says and its exit status."""

from tests.builtins.files.fixtures import SMALL


def c(name, *args, files=SMALL, **kw):
    return dict(name=name, argv=["mv", *args], files=files, **kw)


NONEMPTY = dict(SMALL, **{"t/dir/x": "x"})

CASES = [
    c("verbose", "-v", "a.txt", "new.txt"),
    c("verbose_into_dir", "-v", "a.txt", "b.py", "dir"),
    c("dir_rename", "-v", "dir", "renamed"),
    c("dir_into_dir", "-v", "dir", "other", files=dict(SMALL, **{"other/": None})),
    c("into_itself", "dir", "dir/sub"),
    c("same_file", "a.txt", "a.txt"),
    c("missing", "nope", "x"),
    c("missing_operand"),
    c("missing_dest", "a.txt"),
    c("target_not_dir", "a.txt", "b.py", "nope"),
    c("t_option", "-v", "-t", "dir", "a.txt", "b.py"),
    c("T_option", "-vT", "a.txt", "dir/c.txt"),
    c("no_clobber", "-nv", "a.txt", "b.py"),
    c("interactive_no", "-i", "a.txt", "b.py", stdin="n\n"),
    c("interactive_yes", "-iv", "a.txt", "b.py", stdin="y\n"),
    c("force", "-fv", "a.txt", "b.py"),
    c("update", "-uv", "a.txt", "b.py"),
    c("file_onto_dir", "a.txt", "x", files=dict(SMALL, **{"x/a.txt/": None})),
    c("dir_onto_file", "dir", "a.txt"),
    c("nonempty_target", "dir", "t", files=NONEMPTY),
    c("link_move", "-v", "link", "link2"),
    c("bad_option", "-W", "a", "b"),
]
