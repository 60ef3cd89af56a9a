"""Golden cases: paste (GNU coreutils)."""

FILES = {"a": "1\n2\n3\n", "b": "x\ny\n", "c": "p\nq\nr\ns\n", "nonl": "k\nl",
         "d/": None}
CASES = [
    dict(name="two", argv=["paste", "a", "b"]),
    dict(name="three", argv=["paste", "a", "b", "c"]),
    dict(name="d", argv=["paste", "-d", ",", "a", "b"]),
    dict(name="d_cycle", argv=["paste", "-d", ",;", "a", "b", "c"]),
    dict(name="d_escape", argv=["paste", "-d", "\\t\\n", "a", "b", "c"]),
    dict(name="d_empty", argv=["paste", "-d", "\\0", "a", "b"]),
    dict(name="d_emptystr", argv=["paste", "-d", "", "a", "b"]),
    dict(name="s", argv=["paste", "-s", "a", "b"]),
    dict(name="sd", argv=["paste", "-s", "-d", "+", "a"]),
    dict(name="sd_cycle", argv=["paste", "-s", "-d", ",:", "c"]),
    dict(name="stdin", argv=["paste", "-", "a"], stdin="s1\ns2\n"),
    dict(name="stdin_twice", argv=["paste", "-", "-"], stdin="1\n2\n3\n4\n5\n"),
    dict(name="stdin_s", argv=["paste", "-s"], stdin="1\n2\n3\n"),
    dict(name="nonl", argv=["paste", "nonl", "a"]),
    dict(name="z", argv=["paste", "-z", "-"], stdin=b"a\0b\0"),
    dict(name="missing", argv=["paste", "a", "missing"]),
    dict(name="dir", argv=["paste", "d"]),
    dict(name="bin", argv=["paste", "-", "a"], stdin=b"\xff\n\x80\n"),
    dict(name="backslash_end", argv=["paste", "-d", "\\", "a"]),
]
for c in CASES:
    c.setdefault("files", FILES)
