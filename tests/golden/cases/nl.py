"""Golden cases: nl (GNU coreutils 9.1)."""

TEXT = "alpha\nbeta\n\ngamma\n\n\n\ndelta\n"
SECT = "\\:\\:\\:\nhead\n\\:\\:\nbody1\nbody2\n\\:\nfoot\n\\:\\:\\:\nhead2\n\\:\\:\nbody3\n"
FILES = {"t": TEXT, "s": SECT, "nonl": "a\nb", "bin": b"\xff\n\xc3(\n", "empty": "",
         "d/": None, "g": "x\ny\n"}
CASES = [
    dict(name="default", argv=["nl", "t"]),
    dict(name="stdin", argv=["nl"], stdin=TEXT),
    dict(name="ba", argv=["nl", "-ba", "t"]),
    dict(name="bt", argv=["nl", "-b", "t", "t"]),
    dict(name="bn", argv=["nl", "-bn", "t"]),
    dict(name="bp", argv=["nl", "-bp^[ab]", "t"]),
    dict(name="bp_bre", argv=["nl", "-bpa\\(l\\|m\\)", "t"]),
    dict(name="ln", argv=["nl", "-n", "ln", "t"]),
    dict(name="rz", argv=["nl", "-nrz", "t"]),
    dict(name="rn", argv=["nl", "-nrn", "t"]),
    dict(name="w3", argv=["nl", "-w", "3", "t"]),
    dict(name="w1", argv=["nl", "-w1", "-ba", "t"]),
    dict(name="s", argv=["nl", "-s", ": ", "t"]),
    dict(name="s_empty", argv=["nl", "-s", "", "t"]),
    dict(name="v", argv=["nl", "-v", "10", "t"]),
    dict(name="v_neg", argv=["nl", "-v", "-2", "-nrz", "t"]),
    dict(name="i", argv=["nl", "-i", "5", "t"]),
    dict(name="l2", argv=["nl", "-ba", "-l", "2", "t"]),
    dict(name="sections", argv=["nl", "s"]),
    dict(name="sections_ha", argv=["nl", "-ha", "-fa", "s"]),
    dict(name="sections_p", argv=["nl", "-p", "-ha", "s"]),
    dict(name="d_custom", argv=["nl", "-d", "@@", "-ha"], stdin="@@@@@@\nh\n@@@@\nb\n"),
    dict(name="d_single", argv=["nl", "-d", "@"], stdin="@:@:\nb\n@:\nf\n"),
    dict(name="multi", argv=["nl", "t", "g"]),
    dict(name="nonl", argv=["nl", "nonl"]),
    dict(name="bin", argv=["nl", "bin"]),
    dict(name="empty", argv=["nl", "empty"]),
    dict(name="missing", argv=["nl", "missing"]),
    dict(name="dir", argv=["nl", "d"]),
    dict(name="bad_style", argv=["nl", "-bx", "t"]),
    dict(name="bad_format", argv=["nl", "-n", "zz", "t"]),
    dict(name="bad_width", argv=["nl", "-w", "0", "t"]),
    dict(name="bad_width_str", argv=["nl", "-w", "x", "t"]),
    dict(name="bad_opt", argv=["nl", "-k", "t"]),
    dict(name="long_opts", argv=["nl", "--body-numbering=a", "--number-width=2",
                                 "--number-separator=|", "t"]),
]
for c in CASES:
    c.setdefault("files", FILES)
