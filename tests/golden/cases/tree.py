"""tree (v2.1.0)."""

from tests.builtins.files.fixtures import SMALL, TREE

NOLINKS = {k: v for k, v in TREE.items() if not (isinstance(v, dict) and "symlink" in v)}
NAMES = {b"caf\xe9".decode("utf-8", "surrogateescape"): "", "new\nline": "", "sp ace": "",
         "é": "", "tab\there": ""}


def c(name, *args, files=TREE, **kw):
    return dict(name=name, argv=["tree", *args], files=files, **kw)


CASES = [
    c("plain"),
    c("all", "-a"),
    c("level1", "-L", "1"),
    c("level2_all", "-a", "-L", "2"),
    c("dirs_only", "-d"),
    c("dirs_only_level", "-d", "-L", "1"),
    c("full_path", "-f", "src"),
    c("full_path_dot", "-f"),
    c("no_indent", "-i", "src"),
    c("no_indent_full", "-if", "src"),
    c("classify", "-F"),
    c("noreport", "--noreport", "src"),
    c("exclude", "-I", "lib|*.txt"),
    c("exclude_dir", "-I", "build"),
    c("include", "-P", "*.py", files=NOLINKS),
    c("include_alt", "-P", "*.py|*.md", files=NOLINKS),
    c("include_icase", "-P", "*.PY", "--ignore-case", files=NOLINKS),
    c("dirsfirst", "--dirsfirst"),
    c("filesfirst", "--filesfirst", files=NOLINKS),
    c("two_roots", "src", "docs"),
    c("missing_root", "nope"),
    c("file_root", "src/main.py"),
    c("reverse", "-r", "src"),
    c("charset_ascii", "--charset=ascii", "src"),
    c("version_sort", "-v", files={"f10": "", "f2": "", "f1": "", "a": ""}),
    c("unsorted_single", "-U", "docs/empty"),
    c("names_escaped", files=NAMES),
    c("names_raw", "-N", files=NAMES),
    c("names_q", "-q", files=NAMES),
    c("small", files=SMALL),
    c("small_F", "-F", files=SMALL),
    c("perms", "-p", "src", subst=[]),
    c("sizes", "-s", "src"),
    c("human", "-h", files={"big": "x" * 5000, "small": "y"}),
    c("empty_dir", "docs/empty"),
    c("level_bad", "-L", "0"),
    c("level_word", "-L", "x"),
    c("bad_option", "-W"),
    c("follow_l", "-l", "link_dir"),
    c("link_root", "link_dir"),
    c("noreport_dirs", "-d", "--noreport"),
]
