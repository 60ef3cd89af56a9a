"""file (5.44): the subset pysh sniffs."""

import gzip
import io
import struct
import tarfile
import zipfile

PNG = (b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR"
       + struct.pack(">IIBBBBB", 3, 2, 8, 6, 0, 0, 0) + b"\0\0\0\0")


def _gz() -> bytes:
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0) as f:
        f.write(b"hello\n")
    return buf.getvalue()


def _zip() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("a.txt", "hello\n" * 10)
    return buf.getvalue()


def _tar() -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.GNU_FORMAT) as t:
        data = b"hello\n"
        info = tarfile.TarInfo("a.txt")
        info.size = len(data)
        info.mtime = 1704164645
        t.addfile(info, io.BytesIO(data))
    return buf.getvalue()


FILES = {
    "a.txt": "hello\n",
    "empty": "",
    "u.txt": "café\n",
    "bom.txt": b"\xef\xbb\xbfbom\n",
    "crlf.txt": b"a\r\nb\r\n",
    "cr.txt": b"a\rb\r",
    "mixed.txt": b"a\r\nb\n",
    "noeol.txt": "no end",
    "long.txt": "x" * 400 + "\n",
    "esc.txt": b"a\x1b[1mb\n",
    "latin.txt": b"caf\xe9\n",
    "ext.txt": b"\x80\x81abc\n",
    "bin.dat": b"a\0b\x01\x02",
    "s.sh": {"content": "#!/bin/sh\necho hi\n", "mode": 0o755},
    "b.sh": "#!/bin/bash\necho hi\n",
    "envpy": "#!/usr/bin/env python3\nprint(1)\n",
    "p.py": "#!/usr/bin/python3\nprint(1)\n",
    "pl": "#!/usr/bin/perl\nprint 1;\n",
    "n.js": "#!/usr/bin/env node\nconsole.log(1)\n",
    "plain.py": "x = 1\n",
    "obj.json": '{"a": [1, 2, {"b": null}]}\n',
    "arr.json": "[1, 2, 3]\n",
    "notjson.txt": "{not json}\n",
    "x.xml": '<?xml version="1.0"?>\n<a/>\n',
    "h.html": "<!DOCTYPE html>\n<html></html>\n",
    "i.png": PNG,
    "g.gif": b"GIF89a\x05\0\x07\0" + b"\0" * 20,
    "d.pdf": b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n",
    "z.gz": _gz(),
    "z.zip": _zip(),
    "t.tar": _tar(),
    "dir/": None,
    "link": {"symlink": "a.txt"},
    "dangling": {"symlink": "nowhere"},
}

TEXTUAL = [n for n in FILES if not n.endswith("/")]


def c(name, *args, **kw):
    return dict(name=name, argv=["file", *args], files=FILES, **kw)


CASES = [
    c("all", *sorted(TEXTUAL), "dir"),
    c("brief", "-b", "a.txt", "u.txt", "empty"),
    c("mime", "-i", "a.txt", "u.txt", "latin.txt", "bin.dat", "empty", "dir", "link",
      "i.png", "g.gif", "z.gz", "z.zip", "t.tar", "obj.json", "s.sh", "envpy", "pl",
      "x.xml", "h.html", "bom.txt"),
    c("mime_type", "--mime-type", "a.txt", "obj.json", "i.png", "dir"),
    c("mime_brief", "-b", "--mime-type", "u.txt"),
    c("mime_encoding", "--mime-encoding", "a.txt", "u.txt", "bin.dat"),
    c("deref", "-L", "link", "dangling"),
    c("missing", "nope", "a.txt"),
    c("separator", "-F", "|", "a.txt"),
    c("no_pad", "-N", "a.txt", "u.txt"),
    c("stdin", "-", stdin="hello\n"),
    c("no_args"),
]
