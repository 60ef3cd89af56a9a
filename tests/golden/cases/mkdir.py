"""mkdir (GNU coreutils 9.1)."""

from tests.builtins.files.fixtures import SMALL


def c(name, *args, files=SMALL, **kw):
    return dict(name=name, argv=["mkdir", *args], files=files, **kw)


CASES = [
    c("simple", "new"),
    c("verbose", "-v", "new", "other"),
    c("exists", "dir"),
    c("exists_file", "a.txt"),
    c("parents_verbose", "-pv", "x/y/z"),
    c("parents_existing", "-pv", "dir/sub/new"),
    c("parents_exists", "-p", "dir"),
    c("parents_through_file", "-p", "a.txt/x"),
    c("parents_file_exists", "-p", "a.txt"),
    c("missing_parent", "nope/x"),
    c("mode_octal_v", "-v", "-m", "700", "m"),
    c("mode_symbolic", "-m", "u=rwx,g=rx", "m"),
    c("mode_bad", "-m", "bad", "m"),
    c("trailing_slash", "-v", "t/"),
    c("missing_operand"),
    c("bad_option", "-W", "x"),
]
