"""Golden cases: cmp (GNU diffutils 3.8)."""

FILES = {"c1": "abc\n", "c2": "abd\nx\n", "c3": "ab", "c4": "", "c5": "abc\nmore",
         "same": "abc\n", "lines": "l1\nl2\nl3x\n", "lines2": "l1\nl2\nl3y\n",
         "bin1": b"\x00\xff\x80a", "bin2": b"\x00\xfe\x81a", "d/": None}
CASES = [
    dict(name="same", argv=["cmp", "c1", "same"]),
    dict(name="differ", argv=["cmp", "c1", "c2"]),
    dict(name="differ_line", argv=["cmp", "lines", "lines2"]),
    dict(name="b", argv=["cmp", "-b", "c1", "c2"]),
    dict(name="l", argv=["cmp", "-l", "c1", "c2"]),
    dict(name="lb", argv=["cmp", "-lb", "c1", "c2"]),
    dict(name="l_bin", argv=["cmp", "-l", "bin1", "bin2"]),
    dict(name="lb_bin", argv=["cmp", "-lb", "bin1", "bin2"]),
    dict(name="b_bin", argv=["cmp", "-b", "bin1", "bin2"]),
    dict(name="eof_partial", argv=["cmp", "c1", "c3"]),
    dict(name="eof_line", argv=["cmp", "c1", "c5"]),
    dict(name="eof_empty", argv=["cmp", "c4", "c1"]),
    dict(name="s", argv=["cmp", "-s", "c1", "c2"]),
    dict(name="s_same", argv=["cmp", "--quiet", "c1", "same"]),
    dict(name="n", argv=["cmp", "-n", "2", "c1", "c2"]),
    dict(name="i", argv=["cmp", "-i", "1", "c1", "c2"]),
    dict(name="i_pair", argv=["cmp", "-i", "1:2", "lines", "lines2"]),
    dict(name="skip_operands", argv=["cmp", "c1", "c2", "1", "1"]),
    dict(name="stdin", argv=["cmp", "c1"], stdin="abz\n"),
    dict(name="stdin_dash", argv=["cmp", "-", "c1"], stdin="abc\n"),
    dict(name="missing", argv=["cmp", "c1", "missing"]),
    dict(name="no_operands", argv=["cmp"]),
    dict(name="extra", argv=["cmp", "c1", "c2", "0", "0", "x"]),
    dict(name="ls", argv=["cmp", "-l", "-s", "c1", "c2"]),
    dict(name="bad_opt", argv=["cmp", "-x", "c1", "c2"]),
    dict(name="bad_n", argv=["cmp", "-n", "x", "c1", "c2"]),
]
for c in CASES:
    c.setdefault("files", FILES)
