"""truncate (GNU coreutils 9.1): errors and exit status (sizes: see the unit tests)."""


def c(name, *args, **kw):
    return dict(name=name, argv=["truncate", *args],
                files={"f": "0123456789", "d/": None, "r": "x" * 100}, **kw)


CASES = [
    c("no_size"),
    c("no_size_file", "f"),
    c("bad_size", "-s", "x", "f"),
    c("bad_unit", "-s", "10Q", "f"),
    c("directory", "-s", "0", "d"),
    c("no_create", "-c", "-s", "0", "nope"),
    c("missing_dir", "-s", "0", "nope/x"),
    c("reference_absolute", "-r", "r", "-s", "10", "f"),
    c("reference_missing", "-r", "nope", "f"),
    c("ok", "-s", "5", "f"),
    c("missing_operand", "-s", "0"),
    c("division_by_zero", "-s", "/0", "f"),
    c("bad_option", "-W"),
]
