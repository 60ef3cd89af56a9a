"""ln (GNU coreutils 9.1): what it says and its exit status."""

from tests.builtins.files.fixtures import SMALL


def c(name, *args, files=SMALL, **kw):
    return dict(name=name, argv=["ln", *args], files=files, **kw)


CASES = [
    c("symbolic_verbose", "-sv", "a.txt", "l2"),
    c("hard_verbose", "-v", "a.txt", "h2"),
    c("exists_symbolic", "-s", "a.txt", "b.py"),
    c("exists_hard", "a.txt", "b.py"),
    c("force_symbolic", "-sfv", "a.txt", "b.py"),
    c("hard_dir", "dir", "hd"),
    c("hard_missing", "nope", "x"),
    c("symbolic_dangling", "-sv", "nope", "x"),
    c("into_dir", "-sv", "a.txt", "b.py", "dir"),
    c("one_arg", "-sv", "dir/c.txt"),
    c("relative", "-srv", "dir/c.txt", "rel"),
    c("relative_into", "-srv", "a.txt", "dir/sub/r"),
    c("target_dir_t", "-sv", "-t", "dir", "a.txt"),
    c("no_target_T", "-svT", "a.txt", "dir"),
    c("no_deref_n", "-sfnv", "b.py", "dl", files=dict(SMALL, dl={"symlink": "dir"})),
    c("deref_dir_link", "-sfv", "b.py", "dl", files=dict(SMALL, dl={"symlink": "dir"})),
    c("not_dir_target", "-s", "a.txt", "b.py", "c"),
    c("missing_operand"),
    c("relative_without_s", "-r", "a", "b"),
    c("bad_option", "-W", "a", "b"),
]
