"""Golden cases: tac (GNU coreutils)."""

FILES = {"f": "one\ntwo\nthree\n", "nonl": "a\nb", "csv": "a,b,c,", "d/": None,
         "bin": b"\xff\n\x80\n", "empty": ""}
CASES = [
    dict(name="basic", argv=["tac", "f"]),
    dict(name="stdin", argv=["tac"], stdin="1\n2\n3\n"),
    dict(name="nonl", argv=["tac", "nonl"]),
    dict(name="multi", argv=["tac", "f", "nonl"]),
    dict(name="s", argv=["tac", "-s", ",", "csv"]),
    dict(name="b", argv=["tac", "-b", "f"]),
    dict(name="bs", argv=["tac", "-b", "-s", ",", "csv"]),
    dict(name="r", argv=["tac", "-r", "-s", "[0-9]", ], stdin="a1b22c3"),
    dict(name="r_b", argv=["tac", "-rb", "-s", "x\\+"], stdin="axxbxcxxx"),
    dict(name="multi_char_sep", argv=["tac", "-s", "::"], stdin="a::b::c"),
    dict(name="bin", argv=["tac", "bin"]),
    dict(name="empty", argv=["tac", "empty"]),
    dict(name="missing", argv=["tac", "missing"]),
    dict(name="dir", argv=["tac", "d"]),
    dict(name="bad_opt", argv=["tac", "-x"]),
]
for c in CASES:
    c.setdefault("files", FILES)
