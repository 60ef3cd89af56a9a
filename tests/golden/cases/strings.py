"""Golden cases: strings (GNU binutils)."""

BIN = b"\x00\x01hello world\x00ab\x00abcd\xff\xfelonger string here\n\x02tab\there\x00" + \
    b"\x7f1234567\x00x"
FILES = {"bin": BIN, "text": "just text\nmore\n", "d/": None}
CASES = [
    dict(name="default", argv=["strings", "bin"]),
    dict(name="stdin", argv=["strings"], stdin=BIN),
    dict(name="n2", argv=["strings", "-n", "2", "bin"]),
    dict(name="n8", argv=["strings", "-n8", "bin"]),
    dict(name="obsolete_n", argv=["strings", "-3", "bin"]),
    dict(name="bytes", argv=["strings", "--bytes=6", "bin"]),
    dict(name="a", argv=["strings", "-a", "bin"]),
    dict(name="td", argv=["strings", "-t", "d", "bin"]),
    dict(name="tx", argv=["strings", "-tx", "bin"]),
    dict(name="to", argv=["strings", "-t", "o", "bin"]),
    dict(name="o", argv=["strings", "-o", "bin"]),
    dict(name="f", argv=["strings", "-f", "bin", "text"]),
    dict(name="text", argv=["strings", "text"]),
    dict(name="w", argv=["strings", "-w", "text"]),
    dict(name="missing", argv=["strings", "missing"]),
]
for c in CASES:
    c.setdefault("files", FILES)
