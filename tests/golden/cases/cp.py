"""cp (GNU coreutils 9.1): what it says (-v, errors, prompts) and its exit status."""

from tests.builtins.files.fixtures import SMALL, TREE

# Recursive -v cases use a tree in which every directory holds one entry: GNU cp reads
# directories in inode order, and inode numbers are not allocated in creation order.
CPT = {"a.txt": "alpha\n", "b.py": "print(1)\n", "link": {"symlink": "a.txt"},
       "dir/sub/d.py": ""}


def r(name, *args, files=CPT, **kw):
    return dict(name=name, argv=["cp", *args], files=files, **kw)


def c(name, *args, files=SMALL, **kw):
    return dict(name=name, argv=["cp", *args], files=files, **kw)


CASES = [
    c("verbose_file", "-v", "a.txt", "new.txt"),
    c("verbose_into_dir", "-v", "a.txt", "b.py", "dir"),
    r("recursive_verbose", "-rv", "dir", "copy"),
    r("R_verbose", "-Rv", "dir", "copy"),
    r("archive_verbose", "-av", "dir", "copy"),
    r("recursive_into_existing", "-rv", "dir", "dir/sub", files={"dir/sub/": None}),
    c("into_itself", "-r", "dir", "dir/sub/x"),
    c("omit_dir", "dir", "x"),
    c("omit_dir_v", "-v", "a.txt", "dir", "out"),
    c("same_file", "a.txt", "a.txt"),
    c("same_file_dir", "a.txt", "."),
    c("missing_source", "nope", "x"),
    c("missing_operand"),
    c("missing_dest", "a.txt"),
    c("target_not_dir", "a.txt", "b.py", "c"),
    c("target_is_file", "a.txt", "b.py", "dir/c.txt"),
    c("t_option", "-v", "-t", "dir", "a.txt", "b.py"),
    c("t_missing_dir", "-t", "nope", "a.txt"),
    r("T_option", "-rvT", "dir", "other"),
    c("no_clobber", "-nv", "a.txt", "b.py"),
    c("interactive_no", "-i", "a.txt", "b.py", stdin="n\n"),
    c("interactive_yes", "-iv", "a.txt", "b.py", stdin="y\n"),
    c("interactive_new", "-iv", "a.txt", "new"),
    c("force_verbose", "-fv", "a.txt", "b.py"),
    c("update_older", "-uv", "a.txt", "b.py"),
    c("preserve", "-pv", "a.txt", "p.txt"),
    c("link", "-lv", "a.txt", "hard"),
    c("symbolic", "-sv", "a.txt", "soft"),
    c("symbolic_relative_elsewhere", "-s", "a.txt", "dir/soft"),
    c("deref_L", "-Lv", "link", "deref"),
    c("no_deref_P", "-Pv", "link", "nod"),
    c("recursive_link_arg", "-rv", "link", "lcopy"),
    c("parents", "-v", "--parents", "dir/sub/d.py", "dir"),
    c("overwrite_dir_with_file", "a.txt", "dir/sub/..", files=dict(SMALL, **{"x/a.txt/": None})),
    c("dir_onto_file", "-r", "dir", "a.txt"),
    c("file_onto_dir", "a.txt", "x", files=dict(SMALL, **{"x/a.txt/": None})),
    c("tree_recursive", "-r", "src", "docs", "out", files=TREE),
    r("recursive_link_inside", "-rv", "dir", "x", files={"a.txt": "", "dir/sub/l": {"symlink": "../../a.txt"}}),
    c("bad_option", "-W", "a", "b"),
    c("bad_preserve", "--preserve=frob", "a.txt", "x"),
]
