"""Golden cases: split (GNU coreutils 9.1); the files it writes are checked by tests/builtins/text."""

FILES = {"f": "".join(f"{i}\n" for i in range(25)), "d/": None}
CASES = [
    dict(name="verbose_l", argv=["split", "--verbose", "-l", "10", "f"]),
    dict(name="verbose_d", argv=["split", "--verbose", "-d", "-l", "10", "f", "part"]),
    dict(name="verbose_a", argv=["split", "--verbose", "-a", "3", "-b", "20", "f"]),
    dict(name="verbose_suffix", argv=["split", "--verbose", "--additional-suffix=.txt", "-l5", "f"]),
    dict(name="verbose_n", argv=["split", "--verbose", "-n", "3", "f"]),
    dict(name="n_k", argv=["split", "-n", "2/3", "f"]),
    dict(name="n_lk", argv=["split", "-n", "l/2/3", "f"]),
    dict(name="n_rk", argv=["split", "-n", "r/1/4", "f"]),
    dict(name="exhausted", argv=["split", "-a", "1", "-l", "1", "f"]),
    dict(name="missing", argv=["split", "missing"]),
    dict(name="bad_lines", argv=["split", "-l", "0", "f"]),
    dict(name="bad_bytes", argv=["split", "-b", "x", "f"]),
    dict(name="bad_chunks", argv=["split", "-n", "0", "f"]),
    dict(name="extra", argv=["split", "f", "p", "q"]),
]
for c in CASES:
    c.setdefault("files", FILES)
