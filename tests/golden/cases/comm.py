"""Golden cases: comm (GNU coreutils 9.1)."""

FILES = {"a": "apple\nbanana\ncherry\ndate\n", "b": "banana\ncherry\nfig\n",
         "unsorted": "b\na\nc\n", "s": "a\nb\n", "nonl": "apple\nzz", "d/": None,
         "z1": b"a\0c\0", "z2": b"b\0c\0"}
CASES = [
    dict(name="basic", argv=["comm", "a", "b"]),
    dict(name="1", argv=["comm", "-1", "a", "b"]),
    dict(name="2", argv=["comm", "-2", "a", "b"]),
    dict(name="3", argv=["comm", "-3", "a", "b"]),
    dict(name="12", argv=["comm", "-12", "a", "b"]),
    dict(name="23", argv=["comm", "-23", "a", "b"]),
    dict(name="13", argv=["comm", "-13", "a", "b"]),
    dict(name="delim", argv=["comm", "--output-delimiter=|", "a", "b"]),
    dict(name="delim_empty", argv=["comm", "--output-delimiter=", "a", "b"]),
    dict(name="total", argv=["comm", "--total", "a", "b"]),
    dict(name="total_3", argv=["comm", "--total", "-3", "a", "b"]),
    dict(name="unsorted", argv=["comm", "unsorted", "s"]),
    dict(name="check_order", argv=["comm", "--check-order", "unsorted", "s"]),
    dict(name="nocheck", argv=["comm", "--nocheck-order", "unsorted", "s"]),
    dict(name="stdin", argv=["comm", "-", "b"], stdin="banana\nzebra\n"),
    dict(name="nonl", argv=["comm", "nonl", "a"]),
    dict(name="z", argv=["comm", "-z", "z1", "z2"]),
    dict(name="missing", argv=["comm", "a", "missing"]),
    dict(name="one_operand", argv=["comm", "a"]),
    dict(name="no_operand", argv=["comm"]),
    dict(name="extra", argv=["comm", "a", "b", "c"]),
    dict(name="dir", argv=["comm", "d", "a"]),
]
for c in CASES:
    c.setdefault("files", FILES)
