"""Golden cases: gzip / gunzip / zcat (GNU gzip 1.12). Compressed inputs are built here.

pysh compresses with zlib, GNU gzip with its own deflate: compressed bytes may
differ, so compression is checked by round trips in tests/ports/test_archive.py.
"""

import gzip
import io


def _gz(data: bytes, name: str | None = "a.txt", mtime: int = 1704164645) -> bytes:
    b = io.BytesIO()
    with gzip.GzipFile(filename=name or "", mode="wb", fileobj=b, mtime=mtime) as g:
        g.write(data)
    return b.getvalue()


TEXT = b"hello gzip\n" * 50
FILES = {
    "a.txt.gz": _gz(TEXT),
    "b.gz": _gz(b"bee\n", name="original-name.txt"),
    "noname.gz": _gz(b"x\n", name=None),
    "plain.txt": "plain\n",
    "bad.gz": b"not gzip data at all\n",
    "empty.gz": b"",
    "dir/": None,
}

CASES = [
    dict(name="list", argv=["gzip", "-l", "a.txt.gz"]),
    dict(name="list_two", argv=["gzip", "-l", "a.txt.gz", "b.gz"]),
    dict(name="list_bad", argv=["gzip", "-l", "bad.gz"]),
    dict(name="decompress_stdout", argv=["gzip", "-dc", "a.txt.gz"]),
    dict(name="gunzip_stdout", argv=["gunzip", "-c", "b.gz"]),
    dict(name="zcat", argv=["zcat", "a.txt.gz", "b.gz"]),
    dict(name="zcat_stdin", argv=["zcat"], stdin=_gz(b"from stdin\n")),
    dict(name="gunzip_in_place", argv=["gunzip", "a.txt.gz"]),
    dict(name="gunzip_keep", argv=["gunzip", "-k", "b.gz"]),
    dict(name="gunzip_unknown_suffix", argv=["gunzip", "plain.txt"]),
    dict(name="gunzip_bad", argv=["gunzip", "bad.gz"]),
    dict(name="gunzip_missing", argv=["gunzip", "nofile.gz"]),
    dict(name="gzip_missing", argv=["gzip", "nofile"]),
    dict(name="gzip_in_place", argv=["gzip", "plain.txt"]),
    dict(name="gzip_already", argv=["gzip", "a.txt.gz"]),
    dict(name="gzip_dir", argv=["gzip", "dir"]),
    dict(name="gzip_quiet_missing", argv=["gzip", "-q", "nofile"]),
    dict(name="zcat_bad", argv=["zcat", "bad.gz"]),
    dict(name="gunzip_restore_name", argv=["gunzip", "-N", "b.gz"]),
    dict(name="test_ok", argv=["gzip", "-t", "a.txt.gz", "b.gz"]),
    dict(name="test_bad", argv=["gzip", "-t", "bad.gz"]),
    dict(name="gzip_force_existing", argv=["gzip", "-f", "plain.txt"],
         files={**FILES, "plain.txt.gz": b"old"}),
    dict(name="gzip_existing", argv=["gzip", "plain.txt"], files={**FILES, "plain.txt.gz": b"old"}),
]
for _c in CASES:
    _c.setdefault("files", FILES)
