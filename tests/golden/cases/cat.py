"""Golden cases: cat (GNU coreutils)."""

CTRL = bytes(range(0, 32)) + b"\n" + bytes(range(120, 256)) + b"\n"
FILES = {
    "f": "alpha\n\tbeta\n\n\n\ngamma  \n\n",
    "g": "one\ntwo",
    "h": "\n\nthree\n",
    "ctrl": CTRL,
    "tabs": "a\tb\t\tc\n",
    "empty": "",
    "bin": b"\xff\xfe\x00abc\n\xc3\xa4\x80\nz\n",
    "d/": None,
}

CASES = [
    dict(name="one", argv=["cat", "f"]),
    dict(name="two", argv=["cat", "f", "g"]),
    dict(name="stdin", argv=["cat"], stdin="hello\n"),
    dict(name="dash", argv=["cat", "g", "-", "g"], stdin="IN\n"),
    dict(name="n", argv=["cat", "-n", "f"]),
    dict(name="n_multi", argv=["cat", "-n", "f", "g", "h"]),
    dict(name="number_long", argv=["cat", "--number", "g"]),
    dict(name="b", argv=["cat", "-b", "f"]),
    dict(name="b_multi", argv=["cat", "-b", "g", "h"]),
    dict(name="bn", argv=["cat", "-bn", "f"]),
    dict(name="s", argv=["cat", "-s", "f"]),
    dict(name="s_multi", argv=["cat", "-s", "f", "h"]),
    dict(name="sn", argv=["cat", "-sn", "f"]),
    dict(name="E", argv=["cat", "-E", "f"]),
    dict(name="E_nonl", argv=["cat", "-E", "g"]),
    dict(name="T", argv=["cat", "-T", "tabs"]),
    dict(name="A", argv=["cat", "-A", "ctrl"]),
    dict(name="v", argv=["cat", "-v", "ctrl"]),
    dict(name="e", argv=["cat", "-e", "ctrl"]),
    dict(name="t", argv=["cat", "-t", "ctrl"]),
    dict(name="A_tabs", argv=["cat", "--show-all", "tabs"]),
    dict(name="show_nonprinting", argv=["cat", "--show-nonprinting", "bin"]),
    dict(name="u", argv=["cat", "-u", "g"]),
    dict(name="nA", argv=["cat", "-nA", "f"]),
    dict(name="binary", argv=["cat", "bin"]),
    dict(name="empty", argv=["cat", "empty"]),
    dict(name="empty_n", argv=["cat", "-n", "empty", "g"]),
    dict(name="missing", argv=["cat", "missing"]),
    dict(name="missing_multi", argv=["cat", "g", "missing", "h"]),
    dict(name="dir", argv=["cat", "d"]),
    dict(name="dir_multi", argv=["cat", "g", "d", "h"]),
    dict(name="spaced_missing", argv=["cat", "a b"]),
    dict(name="bad_opt", argv=["cat", "-k"]),
    dict(name="bad_long", argv=["cat", "--numbr"]),
    dict(name="long_prefix", argv=["cat", "--squeeze", "f"]),
    dict(name="ambiguous", argv=["cat", "--show", "f"]),
]
for c in CASES:
    c.setdefault("files", FILES)
