"""basename and dirname (GNU coreutils 9.1)."""


def c(name, *args, **kw):
    return dict(name=name, argv=list(args), **kw)


CASES = [
    c("simple", "basename", "/a/b/c.txt"),
    c("suffix", "basename", "/a/b/c.txt", ".txt"),
    c("suffix_whole", "basename", ".txt", ".txt"),
    c("trailing_slash", "basename", "a/b/"),
    c("root", "basename", "/"),
    c("empty", "basename", ""),
    c("multiple", "basename", "-a", "a/b", "c//d//"),
    c("suffix_option", "basename", "-s", ".c", "a.c", "b.c", "c.h"),
    c("zero", "basename", "-z", "a/b"),
    c("extra_operand", "basename", "a", "b", "c"),
    c("missing_operand", "basename"),
    c("bad_option", "basename", "-W"),
    c("dirname_simple", "dirname", "/a/b/c.txt"),
    c("dirname_no_slash", "dirname", "c.txt"),
    c("dirname_trailing", "dirname", "a/b/"),
    c("dirname_root", "dirname", "/"),
    c("dirname_double", "dirname", "//a//b"),
    c("dirname_many", "dirname", "a/b", "/x", "y"),
    c("dirname_zero", "dirname", "-z", "a/b", "c"),
    c("dirname_missing", "dirname"),
    c("dirname_dot", "dirname", "."),
    c("dirname_empty", "dirname", ""),
]
