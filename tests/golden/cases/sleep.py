"""sleep (GNU coreutils 9.1): short waits and the argument errors."""

CASES = [
    dict(name="short", argv=["sleep", "0.01"]),
    dict(name="zero", argv=["sleep", "0"]),
    dict(name="sum_suffixes", argv=["sleep", "0.01s", "0m", "0h", "0d"]),
    dict(name="exp", argv=["sleep", "1e-3"]),
    dict(name="hex", argv=["sleep", "0x0.1p-4"]),
    dict(name="bad_suffix", argv=["sleep", "1x"]),
    dict(name="bad_two", argv=["sleep", "a", "0", "b"]),
    dict(name="missing", argv=["sleep"]),
    dict(name="negative", argv=["sleep", "-1"]),
    dict(name="trailing_space", argv=["sleep", "1 "]),
    dict(name="bad_long", argv=["sleep", "--bogus"]),
]
