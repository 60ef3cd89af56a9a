"""mktemp (GNU coreutils 9.1): the errors (names are random; see the unit tests)."""


def c(name, *args, **kw):
    return dict(name=name, argv=["mktemp", *args], files={"f": ""}, **kw)


CASES = [
    c("too_few_x", "foo"),
    c("too_few_x_suffix", "fooXX.txt"),
    c("suffix_slash", "--suffix=/x", "XXXX"),
    c("template_suffix_slash", "XXX/x"),
    c("missing_dir", "nope/XXXX"),
    c("missing_dir_quiet", "-q", "nope/XXXX"),
    c("parent_is_file", "f/XXXX"),
    c("t_with_slash", "-t", "a/XXXX"),
    c("p_absolute", "-p", "/tmp", "/x/XXXX"),
    c("too_many", "aXXX", "bXXX"),
    c("bad_option", "-W"),
]
