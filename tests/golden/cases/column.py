"""Golden cases: column (util-linux 2.38)."""

WORDS = "".join(f"{w}\n" for w in "one two three four five six seven eight nine ten".split())
TABLE = "a b c\nlonger x\n\nlast row here ok\n"
CASES = [
    dict(name="t", argv=["column", "-t"], stdin=TABLE),
    dict(name="t_s", argv=["column", "-t", "-s", ","], stdin="a,b,,c\n1,2,3,4\n"),
    dict(name="t_o", argv=["column", "-t", "-o", "|"], stdin="a b\ncc d\n"),
    dict(name="t_N", argv=["column", "-t", "-N", "X,Y"], stdin="a b\nc d\n"),
    dict(name="t_R", argv=["column", "-t", "-R", "2"], stdin="a 1\nbb 222\n"),
    dict(name="t_utf8", argv=["column", "-t"], stdin="h\u00e9 x\nab y\n"),
    dict(name="t_tabs", argv=["column", "-t"], stdin="a\tb\nccc\td\n"),
    dict(name="t_file", argv=["column", "-t", "f"], files={"f": TABLE}),
    dict(name="fill", argv=["column", "-c", "30"], stdin=WORDS),
    dict(name="fill_x", argv=["column", "-x", "-c", "30"], stdin=WORDS),
    dict(name="fill_default", argv=["column"], stdin=WORDS),
    dict(name="fill_short", argv=["column"], stdin="one\ntwo\nthree\n"),
    dict(name="fill_long_items", argv=["column", "-c", "40"],
         stdin="".join(f"item-number-{i}\n" for i in range(7))),
    dict(name="empty", argv=["column"], stdin=""),
    dict(name="missing", argv=["column", "missing"]),
]
