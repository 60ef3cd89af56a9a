"""Golden cases: base64 (GNU coreutils)."""

DATA = "".join(chr(i % 128) for i in range(300))
FILES = {"f": DATA, "enc": "aGVsbG8gd29ybGQK\n", "wrapped": "aGVs\nbG8g\nd29y\nbGQK\n",
         "bad": "aGVsbG8*d29ybGQK\n", "bin": b"\xff\xfe\x00\x80", "d/": None, "empty": ""}
CASES = [
    dict(name="encode", argv=["base64", "f"]),
    dict(name="encode_stdin", argv=["base64"], stdin="hello world\n"),
    dict(name="w0", argv=["base64", "-w", "0", "f"]),
    dict(name="w10", argv=["base64", "-w10", "f"]),
    dict(name="wrap_long", argv=["base64", "--wrap=20", "f"]),
    dict(name="bin", argv=["base64", "bin"]),
    dict(name="empty", argv=["base64", "empty"]),
    dict(name="one_byte", argv=["base64"], stdin="a"),
    dict(name="two_bytes", argv=["base64"], stdin="ab"),
    dict(name="decode", argv=["base64", "-d", "enc"]),
    dict(name="decode_wrapped", argv=["base64", "--decode", "wrapped"]),
    dict(name="decode_bad", argv=["base64", "-d", "bad"]),
    dict(name="decode_ignore", argv=["base64", "-di", "bad"]),
    dict(name="decode_nopad", argv=["base64", "-d"], stdin="aGk"),
    dict(name="decode_bin", argv=["base64", "-d"], stdin="//4AgA==\n"),
    dict(name="missing", argv=["base64", "missing"]),
    dict(name="dir", argv=["base64", "d"]),
    dict(name="extra", argv=["base64", "f", "g"]),
    dict(name="bad_wrap", argv=["base64", "-w", "x", "f"]),
]
for c in CASES:
    c.setdefault("files", FILES)
