"""Golden cases: rev (util-linux 2.38)."""

CASES = [
    dict(name="basic", argv=["rev"], stdin="abc\nhello world\n\n"),
    dict(name="utf8", argv=["rev"], stdin="h\u00e9llo \u4e2d\u6587\n"),
    dict(name="nonl", argv=["rev"], stdin="abc\nxyz"),
    dict(name="file", argv=["rev", "f", "g"], files={"f": "12\n", "g": "34\n"}),
    dict(name="tabs", argv=["rev"], stdin="a\tb\n"),
    dict(name="missing", argv=["rev", "missing"]),
    dict(name="empty", argv=["rev"], stdin=""),
]
