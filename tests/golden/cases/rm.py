"""rm (GNU coreutils 9.1): what it says and its exit status."""

from tests.builtins.files.fixtures import SMALL, TREE


def c(name, *args, files=SMALL, **kw):
    return dict(name=name, argv=["rm", *args], files=files, **kw)


CASES = [
    c("file", "a.txt"),
    c("verbose", "-v", "a.txt", "b.py"),
    c("missing", "nope"),
    c("missing_force", "-f", "nope"),
    c("force_no_args", "-f"),
    c("no_args"),
    c("dir_without_r", "dir"),
    c("dir_d_nonempty", "-d", "dir"),
    c("dir_d_empty", "-dv", "dir/sub", files={"dir/sub/": None}),
    c("recursive_verbose", "-rv", "dir"),
    c("rf_verbose", "-rfv", "dir", "nope"),
    c("R_verbose", "-Rv", "dir"),
    c("recursive_tree", "-rv", "src", files=TREE),
    c("dot", "-r", "."),
    c("dotdot", "-rf", "dir/.."),
    c("root", "-rf", "/"),
    c("link", "-v", "link"),
    c("interactive_no", "-i", "a.txt", stdin="n\n"),
    c("interactive_yes", "-iv", "a.txt", stdin="y\n"),
    c("interactive_empty", "-i", "e", files={"e": ""}, stdin="y\n"),
    c("interactive_link", "-i", "link", stdin="n\n"),
    c("interactive_recursive", "-riv", "dir", stdin="y\ny\ny\ny\ny\ny\n"),
    c("interactive_recursive_no", "-ri", "dir", stdin="n\n"),
    c("interactive_once", "-Iv", "a.txt", "b.py", "link", "dir/c.txt", stdin="y\n"),
    c("interactive_once_no", "-I", "a.txt", "b.py", "link", "dir/c.txt", stdin="n\n"),
    c("interactive_once_recursive", "-rI", "dir", stdin="n\n"),
    c("bad_option", "-W", "a.txt"),
    c("dash_file", "--", "-x", files={"-x": ""}),
]
