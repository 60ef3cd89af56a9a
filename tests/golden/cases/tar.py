"""Golden cases: tar (GNU tar 1.34). Archives are built here with tarfile, byte for byte fixed.

What extraction does to the file system is checked by tests/ports/test_archive.py;
hostile archives (slip, links out, devices) are refused by design where GNU tar
would strip or follow, so they live there too.
"""

import bz2
import gzip
import io
import lzma
import tarfile

T = 1704164645


def _tar(members) -> bytes:
    b = io.BytesIO()
    with tarfile.open(fileobj=b, mode="w", format=tarfile.GNU_FORMAT) as tf:
        for name, kind, extra in members:
            ti = tarfile.TarInfo(name)
            ti.mtime, ti.uname, ti.gname, ti.uid, ti.gid = T, "user", "user", 1000, 1000
            if kind == "f":
                ti.size, ti.mode = len(extra), 0o644
                tf.addfile(ti, io.BytesIO(extra))
            elif kind == "x":
                ti.size, ti.mode = len(extra), 0o755
                tf.addfile(ti, io.BytesIO(extra))
            elif kind == "d":
                ti.type, ti.mode = tarfile.DIRTYPE, 0o755
                tf.addfile(ti)
            elif kind == "l":
                ti.type, ti.mode, ti.linkname = tarfile.SYMTYPE, 0o777, extra
                tf.addfile(ti)
            elif kind == "h":
                ti.type, ti.mode, ti.linkname = tarfile.LNKTYPE, 0o644, extra
                tf.addfile(ti)
    return b.getvalue()


GOOD = _tar([("d", "d", None), ("d/a.txt", "f", b"alpha\n"), ("d/sub", "d", None),
             ("d/sub/b.txt", "f", b"beta\n" * 100), ("d/run.sh", "x", b"#!/bin/sh\n"),
             ("d/link", "l", "a.txt"), ("d/hard", "h", "d/a.txt")])
FILES = {
    "good.tar": GOOD,
    "good.tgz": gzip.compress(GOOD, mtime=0),
    "good.tbz": bz2.compress(GOOD),
    "good.txz": lzma.compress(GOOD),
    "junk.tar": b"this is not a tar archive at all\n" * 40,
    "src/one.txt": "one\n",
    "src/two/three.txt": "three\n",
    "src/two/four.txt": "four\n",
    "out/": None,
}

CASES = [
    dict(name="list", argv=["tar", "-tf", "good.tar"]),
    dict(name="list_verbose", argv=["tar", "-tvf", "good.tar"]),
    dict(name="list_gz", argv=["tar", "-tzf", "good.tgz"]),
    dict(name="list_gz_auto", argv=["tar", "-tf", "good.tgz"]),
    dict(name="list_bz2", argv=["tar", "-tjf", "good.tbz"]),
    dict(name="list_xz", argv=["tar", "-tJf", "good.txz"]),
    dict(name="list_old_style", argv=["tar", "tf", "good.tar"]),
    dict(name="list_long_opts", argv=["tar", "--list", "--file=good.tar"]),
    dict(name="list_member", argv=["tar", "-tf", "good.tar", "d/sub"]),
    dict(name="list_member_missing", argv=["tar", "-tf", "good.tar", "nope"]),
    dict(name="list_stdin", argv=["tar", "-tf", "-"], stdin=GOOD),
    dict(name="extract_verbose", argv=["tar", "-xvf", "good.tar"]),
    dict(name="extract_C", argv=["tar", "-xvf", "good.tar", "-C", "out"]),
    dict(name="extract_gz", argv=["tar", "-xzvf", "good.tgz", "-C", "out"]),
    dict(name="extract_stdout", argv=["tar", "-xOf", "good.tar", "d/a.txt"]),
    dict(name="extract_strip", argv=["tar", "-xvf", "good.tar", "--strip-components=1", "-C", "out"]),
    dict(name="extract_member", argv=["tar", "-xvf", "good.tar", "d/sub/b.txt"]),
    dict(name="extract_missing_archive", argv=["tar", "-xf", "nofile.tar"]),
    dict(name="extract_missing_dir", argv=["tar", "-xf", "good.tar", "-C", "nodir"]),
    dict(name="create_verbose", argv=["tar", "-cvf", "new.tar", "src"],
         oracle=["tar", "--sort=name", "-cvf", "new.tar", "src"]),
    dict(name="create_gz_verbose", argv=["tar", "-czvf", "new.tgz", "src/two"],
         oracle=["tar", "--sort=name", "-czvf", "new.tgz", "src/two"]),
    dict(name="create_missing", argv=["tar", "-cf", "new.tar", "src/one.txt", "nofile"]),
    dict(name="create_empty", argv=["tar", "-cf", "new.tar"]),
    dict(name="no_mode", argv=["tar", "-f", "good.tar"]),
    dict(name="two_modes", argv=["tar", "-tx", "-f", "good.tar"]),
]
for _c in CASES:
    _c.setdefault("files", FILES)
