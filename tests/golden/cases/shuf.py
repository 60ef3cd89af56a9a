"""Golden cases: shuf (GNU coreutils 9.1), seeded with --random-source."""

SEED = bytes((i * 37 + 11) % 256 for i in range(4096))
FILES = {"seed": SEED, "lines": "".join(f"line{i}\n" for i in range(20)),
         "short": b"\x01\x02", "d/": None}
CASES = [
    dict(name="file", argv=["shuf", "--random-source=seed", "lines"]),
    dict(name="n3_file", argv=["shuf", "-n", "3", "--random-source=seed", "lines"]),
    dict(name="e", argv=["shuf", "-e", "--random-source=seed", "a", "b", "c", "d", "e"]),
    dict(name="e_n", argv=["shuf", "-n2", "-e", "--random-source=seed", "a", "b", "c"]),
    dict(name="i", argv=["shuf", "-i", "1-10", "--random-source=seed"]),
    dict(name="i_n", argv=["shuf", "-i", "5-500", "-n", "5", "--random-source=seed"]),
    dict(name="i_big", argv=["shuf", "-i", "1-100000", "-n", "3", "--random-source=seed"]),
    dict(name="r", argv=["shuf", "-r", "-n", "8", "-e", "--random-source=seed", "x", "y", "z"]),
    dict(name="r_i", argv=["shuf", "-r", "-n", "5", "-i", "0-1000", "--random-source=seed"]),
    dict(name="z", argv=["shuf", "-z", "-e", "--random-source=seed", "a", "b", "c"]),
    dict(name="o", argv=["shuf", "-o", "out", "-e", "--random-source=seed", "a", "b"]),
    dict(name="n0", argv=["shuf", "-n", "0", "lines"]),
    dict(name="single", argv=["shuf", "-e", "only"]),
    dict(name="empty_stdin", argv=["shuf"], stdin=""),
    dict(name="short_source", argv=["shuf", "--random-source=short", "lines"]),
    dict(name="bad_range", argv=["shuf", "-i", "9-1"]),
    dict(name="bad_range_x", argv=["shuf", "-i", "a-b"]),
    dict(name="bad_count", argv=["shuf", "-n", "x", "lines"]),
    dict(name="e_i", argv=["shuf", "-e", "-i", "1-2", "a"]),
    dict(name="missing", argv=["shuf", "missing"]),
    dict(name="extra", argv=["shuf", "lines", "lines"]),
    dict(name="r_empty", argv=["shuf", "-r", "-n", "1"], stdin=""),
]
for c in CASES:
    c.setdefault("files", FILES)
