"""touch (GNU coreutils 9.1): errors and exit status (times are checked in unit tests)."""

from tests.builtins.files.fixtures import SMALL


def c(name, *args, files=SMALL, **kw):
    return dict(name=name, argv=["touch", *args], files=files, **kw)


CASES = [
    c("create", "new"),
    c("existing", "a.txt"),
    c("no_create_missing", "-c", "nope"),
    c("missing_dir", "nope/x"),
    c("bad_date", "-d", "foo", "a.txt"),
    c("bad_stamp", "-t", "99", "a.txt"),
    c("missing_reference", "-r", "nope", "a.txt"),
    c("missing_operand"),
    c("date_ok", "-d", "2024-01-02 03:04:05", "a.txt"),
    c("date_long_option", "--date=2024-01-02", "a.txt"),
    c("stamp_ok", "-t", "202401020304.05", "a.txt"),
    c("reference_ok", "-r", "b.py", "a.txt"),
    c("two_sources", "-t", "202401020304", "-r", "b.py", "a.txt"),
    c("bad_option", "-W", "a.txt"),
]
