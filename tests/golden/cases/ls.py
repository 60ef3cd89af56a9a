"""ls (GNU coreutils 9.1). Owner and group are the sandbox's synthetic user: the real tool's
'root root' is recorded as 'user user' (and uid/gid 0 as 1000). Long listings avoid entries
whose times are not fixed by the fixture (symlinks, the workspace root) unless the date is
formatted away with --time-style=+."""

from tests.builtins.files.fixtures import COLS, SMALL, TIMED, TREE

OWNER = [(" root root ", " user user "), (" root ", " user ")]
NUMERIC = [(" 0 0 ", " 1000 1000 ")]


def c(name, *args, files=TREE, **kw):
    return dict(name=name, argv=["ls", *args], files=files, **kw)


def lc(name, *args, files=TREE, **kw):
    return c(name, *args, files=files, subst=OWNER, **kw)


SIZED = {"big": "x" * 5000, "small": "ab", "notes.md": "", "b~": "", ".h~": "", "keep": ""}
NONUTF8 = {b"caf\xe9".decode("utf-8", "surrogateescape"): "x", "plain": "",
           "new\nline": "", "sp ace": "", "it's": ""}

CASES = [
    c("plain"),
    c("one", "-1"),
    c("all", "-a", "src"),
    c("almost_all", "-A"),
    c("classify", "-F"),
    c("slash", "-p"),
    c("file_type", "--file-type"),
    c("directory", "-d", "src", "docs", "script.sh"),
    c("recursive", "-R"),
    c("recursive_sub", "-R", "src"),
    c("recursive_all", "-Ra", "src"),
    c("reverse", "-r"),
    c("time", "-t", files=TIMED),
    c("time_reverse", "-tr", files=TIMED),
    c("size_sort", "-S", files=TIMED),
    c("size_sort_reverse", "-Sr", files=TIMED),
    c("extension", "-X", files=TIMED),
    c("version", "-v", files=TIMED),
    c("unsorted_one", "-U", "sub", files=TIMED),
    c("f_flag", "-f", "sub", files=TIMED),
    lc("long", "-l", "src"),
    lc("long_all", "-la", "src/lib"),
    lc("long_almost", "-lA", "src"),
    lc("long_dir", "-ld", "src", "docs"),
    lc("long_recursive", "-lR", "src"),
    lc("long_human", "-lh", files=TIMED),
    lc("long_si", "-l", "--si", files=TIMED),
    lc("long_time", "-lt", files=TIMED),
    lc("long_time_reverse", "-ltr", files=TIMED),
    lc("long_size", "-lS", files=TIMED),
    lc("long_size_human", "-lSh", files=TIMED),
    lc("long_classify", "-lF", files=TIMED),
    lc("long_files", "-l", "big.bin", "ro.txt", "script.sh", "old.txt"),
    lc("long_mixed", "-l", "old.txt", "docs", "src/lib"),
    c("long_numeric", "-ln", "src", subst=NUMERIC),
    c("long_no_owner", "-g", "src", subst=[(" root ", " user ")]),
    c("long_no_group", "-o", "src", subst=[(" root ", " user ")]),
    c("long_G", "-lG", "src", subst=[(" root ", " user ")]),
    lc("full_time", "--full-time", "src"),
    lc("time_style_long_iso", "-l", "--time-style=long-iso", files=TIMED),
    lc("time_style_iso", "-l", "--time-style=iso", files=TIMED),
    lc("time_style_format", "-l", "--time-style=+%Y/%m/%d", files=TIMED),
    lc("long_links", "-l", "--time-style=+", "link_main", "link_dir", "dangling"),
    lc("long_links_F", "-lF", "--time-style=+", "link_main", "link_dir", "dangling"),
    lc("long_L", "-lL", "link_main"),
    c("size_blocks", "-s", "src"),
    c("size_human", "-sh", files=TIMED),
    lc("long_and_size", "-ls", "src"),
    c("kibibytes", "-sk", "src"),
    c("columns", "-C", files=COLS),
    c("columns_env", "-C", files=COLS, env={"COLUMNS": "30"}),
    c("columns_width", "-C", "-w", "40", files=COLS),
    c("columns_classify", "-CF", files=TIMED),
    c("across", "-x", files=COLS),
    c("across_width", "-x", "-w", "30", files=COLS),
    c("commas", "-m", files=COLS),
    c("commas_width", "-m", "-w", "30", files=COLS),
    c("tabsize0", "-C", "-T", "0", "-w", "30", files=COLS),
    c("color_never", "--color=never", "src"),
    c("group_dirs_first", "--group-directories-first", files=TIMED),
    c("gdf_long", "-l", "--group-directories-first", files=TIMED, subst=OWNER),
    c("operands_mixed", "old.txt", "src", "docs", "big.bin"),
    c("operand_file", "src/main.py"),
    c("missing", "nope"),
    c("missing_and_present", "nope", "src", "also_nope"),
    c("link_dir_operand", "link_dir"),
    c("link_dir_classify", "-F", "link_dir"),
    c("link_dir_slash", "link_dir/"),
    c("link_dir_d", "-d", "link_dir"),
    c("deref_H", "-H", "link_dir"),
    c("deref_L_dangling", "-L", "dangling"),
    c("dangling_operand", "dangling"),
    c("empty_dir", "docs/empty"),
    c("empty_dir_long", "-l", "docs/empty"),
    c("hidden_dir", "-A", ".hidden"),
    c("non_utf8", files=NONUTF8),
    c("quote_c", "-Q", files=NONUTF8),
    c("escape_b", "-b", files=NONUTF8),
    c("hide_control", "-q", files=NONUTF8),
    c("quoting_shell_escape", "--quoting-style=shell-escape", files=NONUTF8),
    c("small", files=SMALL),
    c("small_recursive", "-R", files=SMALL),
    c("ignore", "--ignore=*.py", files=SMALL),
    c("hide", "--hide=*.py", files=SMALL),
    c("zero", "--zero", files=SMALL),
    c("bad_option", "-W"),
    c("bad_long_option", "--frobnicate"),
    c("bad_sort", "--sort=frob"),
    c("sort_word", "--sort=size", files=TIMED),
    c("format_commas", "--format=commas", files=SMALL),
]
CASES += [
    c("bad_time", "--time=frob"),
    c("bad_format", "--format=frob"),
    c("bad_color", "--color=frob"),
    c("bad_quoting", "--quoting-style=frob"),
    # --block-size scales -l's size column: a unit alone is named after each size
    *[lc(f"block_size_{n}", "-l", "--time-style=+", f"--block-size={v}", "big", "small",
         files=SIZED) for n, v in (("K", "K"), ("1K", "1K"), ("KB", "KB"), ("KiB", "KiB"),
                                   ("M", "M"), ("2048", "2048"), ("human", "human-readable"),
                                   ("si", "si"), ("quote", "'1"))],
    lc("block_size_then_h", "-l", "--time-style=+", "--block-size=K", "-h", "big", files=SIZED),
    c("block_size_zero", "-l", "--block-size=0", "big", files=SIZED),
    c("block_size_bad", "-l", "--block-size=x", "big", files=SIZED),
    c("ignore_short", "-I", "*.md", "-I", "b*", files=SIZED),
    c("ignore_long", "--ignore=*~", files=SIZED),
    c("ignore_backups", "-B", files=SIZED),
    c("ignore_backups_all", "-aB", files=SIZED),
    c("hide_vs_all", "--hide=*.md", "-a", files=SIZED),
]
