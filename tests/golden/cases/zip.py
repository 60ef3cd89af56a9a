"""Golden cases: zip / unzip (Info-ZIP 3.0 / 6.00). Archives are built here with zipfile."""

import io
import zipfile

DT = (2024, 1, 2, 3, 4, 6)


def _zip(entries) -> bytes:
    b = io.BytesIO()
    with zipfile.ZipFile(b, "w") as z:
        for name, data, comp in entries:
            zi = zipfile.ZipInfo(name, date_time=DT)
            zi.create_system = 3
            zi.external_attr = ((0o40755 if name.endswith("/") else 0o100644) << 16) | (
                0x10 if name.endswith("/") else 0)
            zi.compress_type = zipfile.ZIP_DEFLATED if comp else zipfile.ZIP_STORED
            z.writestr(zi, data)
    return b.getvalue()


Z = _zip([("d/", b"", False), ("d/a.txt", b"alpha\n", False), ("d/sub/", b"", False),
          ("d/sub/b.txt", b"beta\n" * 200, True), ("top.txt", b"top\n", False)])
FILES = {
    "z.zip": Z,
    "one.zip": _zip([("only.txt", b"1\n", False)]),
    "bad.zip": b"definitely not a zip\n",
    "src/x.txt": "x\n",
    "src/y/z.txt": "z\n",
}

CASES = [
    dict(name="list", argv=["unzip", "-l", "z.zip"]),
    dict(name="list_one", argv=["unzip", "-l", "one.zip"]),
    dict(name="extract", argv=["unzip", "z.zip"]),
    dict(name="extract_d", argv=["unzip", "z.zip", "-d", "out"]),
    dict(name="extract_quiet", argv=["unzip", "-q", "z.zip", "-d", "out"]),
    dict(name="extract_overwrite", argv=["unzip", "-o", "one.zip"],
         files={**FILES, "only.txt": "old\n"}),
    dict(name="pipe", argv=["unzip", "-p", "z.zip", "d/a.txt"]),
    dict(name="pipe_all", argv=["unzip", "-p", "z.zip"]),
    dict(name="member", argv=["unzip", "z.zip", "top.txt"]),
    dict(name="missing", argv=["unzip", "nofile.zip"]),
    dict(name="bad", argv=["unzip", "bad.zip"]),
    dict(name="zip_quiet", argv=["zip", "-q", "-r", "new.zip", "src"]),
    dict(name="zip_missing", argv=["zip", "-q", "new.zip", "nofile"]),
    dict(name="zip_verbose_dirs", argv=["zip", "-r", "new.zip", "src/y"]),
    dict(name="zip_junk_paths", argv=["zip", "-j", "new.zip", "src/x.txt", "src/y/z.txt"]),
    dict(name="zip_update", argv=["zip", "z.zip", "src/x.txt"]),
    # 'zip - FILES' streams the archive to stdout (messages on stderr)
    dict(name="zip_stdout", script=("zip -q - src/x.txt src/y/z.txt > s.zip; echo $?; "
                                  "unzip -l s.zip; unzip -p s.zip src/y/z.txt; ls")),
    dict(name="zip_stdout_messages", script=("zip -r - src > s.zip; unzip -l s.zip")),
    dict(name="zip_stdout_missing", script=("zip - nofile | wc -c")),
    dict(name="zip_stdout_quiet_missing", script=("zip -q - src/x.txt nofile | od -An -tx1 -N4; zip - src | od -An -c -N2")),
]
for _c in CASES:
    _c.setdefault("files", FILES)
