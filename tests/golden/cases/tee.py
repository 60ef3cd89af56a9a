"""Golden cases: tee (GNU coreutils)."""

CASES = [
    dict(name="stdout_only", argv=["tee"], stdin="hello\n"),
    dict(name="one_file", argv=["tee", "out"], stdin="hello\n"),
    dict(name="append", argv=["tee", "-a", "old"], stdin="more\n", files={"old": "first\n"}),
    dict(name="dir", argv=["tee", "d"], stdin="x\n", files={"d/": None}),
    dict(name="missing_dir", argv=["tee", "no/such"], stdin="x\n"),
    dict(name="i", argv=["tee", "-i"], stdin="x\n"),
    dict(name="p", argv=["tee", "-p"], stdin="x\n"),
    dict(name="output_error", argv=["tee", "--output-error=warn"], stdin="x\n"),
    dict(name="output_error_bad", argv=["tee", "--output-error=loud"], stdin="x\n"),
    dict(name="binary", argv=["tee"], stdin=b"\xff\x00\xfe\n"),
    dict(name="bad_opt", argv=["tee", "-x"], stdin=""),
]
