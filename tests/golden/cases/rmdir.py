"""rmdir (GNU coreutils 9.1)."""

NESTED = {"a/b/c/": None, "a/b/x": "", "e/": None, "f": "", "p/q/r/": None}


def c(name, *args, files=NESTED, **kw):
    return dict(name=name, argv=["rmdir", *args], files=files, **kw)


CASES = [
    c("empty", "e"),
    c("verbose", "-v", "e"),
    c("nonempty", "a"),
    c("file", "f"),
    c("missing", "nope"),
    c("trailing_slash_file", "f/"),
    c("parents_verbose", "-pv", "p/q/r"),
    c("parents_nonempty", "-p", "a/b/c"),
    c("parents_ignore", "-p", "--ignore-fail-on-non-empty", "a/b/c"),
    c("ignore_nonempty", "--ignore-fail-on-non-empty", "a"),
    c("missing_operand"),
    c("bad_option", "-W", "e"),
]
