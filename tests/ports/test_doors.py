"""Every port, both doors: same file, same confinement, same errno, no canary."""

from __future__ import annotations

import io
import os
import tarfile
import zipfile

import pytest

from tests.ports.conftest import CANARY, SECRET, door_a_errno, run, strerror


def _read_cmds(path: str):
    """(argv, what stdout must contain) for each port reading ``path``."""
    return {
        "jq": (["jq", "-c", ".", path], b'{"v":1}'),
        "jq_rawfile": (["jq", "-n", "-r", "--rawfile", "x", path, "$x"], b'{"v": 1}'),
        "rg": (["rg", "-N", "v", path], b'{"v": 1}'),
        "gzip": (["gzip", "-c", path], b"\x1f\x8b"),
    }


JSON = b'{"v": 1}\n'
SQL = b"select 1;\n"


@pytest.mark.parametrize("port", ["jq", "jq_rawfile", "rg", "gzip"])
@pytest.mark.parametrize("where", ["/batch/in.json", "/tmp/in.json", "rel"])
def test_port_reads_what_door_a_wrote(inst, port, where):
    shell = inst.shell
    shell.fs.mkdir("/batch/sub", exist_ok=True)
    path = where if where != "rel" else "in.json"
    target = where if where != "rel" else "/batch/sub/in.json"
    shell.fs.write_bytes(target, JSON)
    argv, want = _read_cmds(path)[port]
    r = run(inst, argv, cwd="/batch/sub" if where == "rel" else None)
    assert r.status == 0, r.err
    assert want in r.stdout


def test_port_reads_via_tmpdir_spelling(inst):
    shell = inst.shell
    tmpdir = shell.env["TMPDIR"]
    shell.fs.write_bytes(f"{tmpdir}/t.json", JSON)
    r = run(inst, ["jq", "-c", ".", f"{tmpdir}/t.json"])
    assert r.stdout == b'{"v":1}\n'
    shell.fs.write_bytes(f"{tmpdir}/q.sql", SQL)
    r = run(inst, ["sqlite3", ":memory:", f".read {tmpdir}/q.sql"])
    assert r.stdout == b"1\n"


def test_sqlite_writes_door_a_reads(inst):
    shell = inst.shell
    for db in ("/batch/w.db", "/tmp/w.db"):
        r = run(inst, ["sqlite3", db, "create table t(v); insert into t values (41 + 1)",
                       ".output /tmp/o.txt", "select v from t"])
        assert r.status == 0, r.err
        assert shell.fs.read_bytes("/tmp/o.txt") == b"42\n"
        assert shell.fs.read_bytes(db)[:16] == b"SQLite format 3\x00"
        r = run(inst, ["sqlite3", db, "select v * 2 from t"])
        assert r.stdout == b"84\n"


def test_tar_roundtrip_between_doors(inst):
    shell = inst.shell
    shell.fs.mkdir("/batch/src/deep", parents=True, exist_ok=True)
    shell.fs.write_bytes("/batch/src/a.txt", b"alpha\n")
    shell.fs.write_bytes("/batch/src/deep/b.txt", b"beta\n")
    r = run(inst, ["tar", "-czf", "/tmp/s.tgz", "src"])
    assert r.status == 0, r.err
    data = shell.fs.read_bytes("/tmp/s.tgz")
    with tarfile.open(fileobj=io.BytesIO(data)) as tf:
        assert sorted(tf.getnames()) == ["src", "src/a.txt", "src/deep", "src/deep/b.txt"]
        assert {m.uname for m in tf.getmembers()} == {"user"}
    shell.fs.mkdir("/tmp/x")
    r = run(inst, ["tar", "-xzf", "s.tgz", "-C", "x"], cwd="/tmp")
    assert r.status == 0, r.err
    assert shell.fs.read_bytes("/tmp/x/src/deep/b.txt") == b"beta\n"


def test_gzip_roundtrip_between_doors(inst):
    shell = inst.shell
    shell.fs.write_bytes("/tmp/g.txt", b"gee\n" * 100)
    r = run(inst, ["gzip", "/tmp/g.txt"])
    assert r.status == 0, r.err
    assert not shell.fs.exists("/tmp/g.txt")
    import gzip as _gzip

    assert _gzip.decompress(shell.fs.read_bytes("/tmp/g.txt.gz")) == b"gee\n" * 100
    r = run(inst, ["gunzip", "g.txt.gz"], cwd="/tmp")
    assert r.status == 0, r.err
    assert shell.fs.read_bytes("/tmp/g.txt") == b"gee\n" * 100


def test_zip_roundtrip_between_doors(inst):
    shell = inst.shell
    shell.fs.mkdir("/batch/zsrc/d", parents=True, exist_ok=True)
    shell.fs.write_bytes("/batch/zsrc/d/f.txt", b"eff\n")
    r = run(inst, ["zip", "-q", "-r", "/tmp/z.zip", "zsrc"])
    assert r.status == 0, r.err
    with zipfile.ZipFile(io.BytesIO(shell.fs.read_bytes("/tmp/z.zip"))) as z:
        assert z.read("zsrc/d/f.txt") == b"eff\n"
    r = run(inst, ["unzip", "-q", "/tmp/z.zip", "-d", "/tmp/uz"])
    assert r.status == 0, r.err
    assert shell.fs.read_bytes("/tmp/uz/zsrc/d/f.txt") == b"eff\n"


def test_fd_and_rg_find_door_a_files(inst):
    shell = inst.shell
    shell.fs.mkdir("/tmp/proj/pkg", parents=True)
    shell.fs.write_bytes("/tmp/proj/pkg/mod.py", b"needle = 1\n")
    r = run(inst, ["fd", "-e", "py", ".", "/tmp/proj"])
    assert r.stdout == b"/tmp/proj/pkg/mod.py\n"
    r = run(inst, ["rg", "-l", "needle", "proj"], cwd="/tmp")
    assert r.stdout == b"proj/pkg/mod.py\n"


# ------------------------------------------------------------------ denial
def _denied_paths(inst, sibling):
    ws_host = inst.workspace_dir
    return [
        "/etc/passwd",                            # outside every mount
        os.path.join(ws_host, "file.txt"),        # host spelling of the workspace
        "out_rel/secret.txt",                     # relative link out
        "out_abs/secret.txt",                     # absolute link out
        "out_file",                               # link to an outside file
        "etc/passwd",
        os.path.join(sibling.temp_dir, "theirs.txt"),  # a sibling instance's temp dir
    ]


PORT_READERS = {
    "jq": lambda p: ["jq", ".", p],
    "jq_rawfile": lambda p: ["jq", "-n", "--rawfile", "x", p, "$x"],
    "jq_slurpfile": lambda p: ["jq", "-n", "--slurpfile", "x", p, "$x"],
    "jq_from_file": lambda p: ["jq", "-f", p],
    "rg": lambda p: ["rg", "x", p],
    "sqlite_db": lambda p: ["sqlite3", p, "select 1"],
    "sqlite_read": lambda p: ["sqlite3", ":memory:", f".read {p}"],
    "sqlite_import": lambda p: ["sqlite3", ":memory:", f".import {p} t"],
    "tar_x": lambda p: ["tar", "-xf", p],
    "tar_c": lambda p: ["tar", "-cf", "/tmp/o.tar", p],
    "gzip": lambda p: ["gzip", "-c", p],
    "zcat": lambda p: ["zcat", p],
    "unzip": lambda p: ["unzip", "-l", p],
    "zip": lambda p: ["zip", "-q", "/tmp/o.zip", p],
}


@pytest.mark.parametrize("port", sorted(PORT_READERS))
def test_denied_like_door_a(inst, sibling, tree, port):
    for path in _denied_paths(inst, sibling):
        code = door_a_errno(inst, path)
        assert code in (2, 13), (path, code)
        r = run(inst, PORT_READERS[port](path))
        assert r.status != 0, (port, path, r)
        assert SECRET not in r.stdout and b"sibling data" not in r.stdout
        if port in ("sqlite_db", "sqlite_read", "sqlite_import", "unzip", "zip"):
            continue  # these tools' own wordings name no errno (checked below)
        assert strerror(code).encode() in r.stderr, (port, path, r.stderr)


def test_sqlite_denial_messages(inst, sibling):
    for path in _denied_paths(inst, sibling):
        r = run(inst, ["sqlite3", path, "select 1"])
        assert r.status == 1
        shown = inst.shell.display(path)  # a host root typed by the caller is folded back
        assert r.stderr == f'Error: unable to open database "{shown}": unable to open database ' \
                           f"file\n".encode()


def test_fd_rg_denied_roots(inst, sibling):
    for path in _denied_paths(inst, sibling):
        r = run(inst, ["fd", ".", path])
        assert r.status != 0 and r.stdout == b""
        r = run(inst, ["rg", "--files", path])
        assert r.status == 2 and r.stdout == b""


def test_writers_denied_outside(inst, sibling, tree):
    outside_before = sorted(os.listdir(tree.outside))
    targets = ["out_rel/new.txt", "out_abs/new.txt", os.path.join(sibling.temp_dir, "new.txt"),
               "/etc/new.txt", os.path.join(inst.workspace_dir, "new.txt")]
    inst.shell.fs.write_bytes("/batch/plain.txt", b"p\n")
    for t in targets:
        run(inst, ["sqlite3", ":memory:", f".output {t}", "select 1"])
        run(inst, ["sqlite3", t, "create table x(a)"])
        run(inst, ["tar", "-cf", t, "plain.txt"])
        run(inst, ["zip", "-q", t, "plain.txt"])
        run(inst, ["tar", "-xf", "/dev/null", "-C", os.path.dirname(t) or "."])
    assert sorted(os.listdir(tree.outside)) == outside_before
    assert os.listdir(sibling.temp_dir) == ["theirs.txt"]


def test_canary_never_shown(inst, tree):
    """Errors from every port name virtual paths only, whatever they hit."""
    cmds = [
        ["jq", ".", "dir"], ["jq", ".", "loop1"], ["jq", "--rawfile", "x", "proc_root/etc/passwd", "."],
        ["rg", "-L", "secret", "."], ["rg", "x", "chain_a/secret.txt"], ["fd", "-L", "-H"],
        ["fd", "-L", "secret"], ["sqlite3", "dir/sub", "select 1"], ["sqlite3", ":memory:", ".databases"],
        ["tar", "-cvf", "/tmp/all.tar", "."], ["tar", "-chf", "/tmp/all2.tar", "."],
        ["zip", "-r", "/tmp/all.zip", "."], ["gzip", "-c", "dangling_out"],
        ["sqlite3", ":memory:", "select 1", ".show"],
    ]
    for argv in cmds:
        r = run(inst, argv, stdin=b"1\n")
        assert SECRET not in r.stdout
    # and the archives hold nothing from outside
    for name in ("/tmp/all.tar", "/tmp/all2.tar"):
        data = inst.shell.fs.read_bytes(name)
        assert SECRET not in data and CANARY.encode() not in data
    assert SECRET not in inst.shell.fs.read_bytes("/tmp/all.zip")
