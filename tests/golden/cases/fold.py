"""Golden cases: fold (GNU coreutils 9.1)."""

LONG = "The quick brown fox jumps over the lazy dog and keeps running far away\n"
CASES = [
    dict(name="w20", argv=["fold", "-w", "20"], stdin=LONG),
    dict(name="default", argv=["fold"], stdin="x" * 200 + "\n"),
    dict(name="s", argv=["fold", "-s", "-w", "20"], stdin=LONG),
    dict(name="s_long_word", argv=["fold", "-s", "-w", "5"], stdin="abcdefghij klm\n"),
    dict(name="b", argv=["fold", "-b", "-w", "4"], stdin="a\tbcdefg\n"),
    dict(name="tabs", argv=["fold", "-w", "10"], stdin="a\tb\tc\td\n"),
    dict(name="backspace_cr", argv=["fold", "-w", "4"], stdin="abc\bdef\rghijk\n"),
    dict(name="obsolete", argv=["fold", "-10"], stdin=LONG),
    dict(name="utf8_bytes", argv=["fold", "-w", "3"], stdin="\u00e9\u00e9\u00e9\u00e9\n"),
    dict(name="nonl", argv=["fold", "-w", "3"], stdin="abcdefg"),
    dict(name="width_long", argv=["fold", "--width=7", "--spaces"], stdin=LONG),
    dict(name="bad_width", argv=["fold", "-w", "0"], stdin=LONG),
    dict(name="bad_width_x", argv=["fold", "-w", "x"], stdin=LONG),
    dict(name="missing", argv=["fold", "missing"]),
    dict(name="s_tabs", argv=["fold", "-s", "-w", "6"], stdin="ab\tcd ef gh\n"),
]
