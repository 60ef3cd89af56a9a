"""Every port: --help, unknown options, and the usual awkward operands."""

from __future__ import annotations

import json

import pytest

from tests.ports.conftest import run

PORTS = ["jq", "rg", "fd", "sqlite3", "tar", "gzip", "gunzip", "zcat", "zip", "unzip"]


@pytest.mark.parametrize("cmd", PORTS)
def test_help(inst, cmd):
    r = run(inst, [cmd, "--help"] if cmd != "sqlite3" else [cmd, "-help"])
    assert r.status == 0
    assert (r.out + r.err).strip()


@pytest.mark.parametrize("cmd,status", [("jq", 2), ("rg", 2), ("fd", 2), ("sqlite3", 1),
                                        ("tar", 2), ("gzip", 1), ("zip", 16), ("unzip", 10)])
def test_unknown_option(inst, cmd, status):
    r = run(inst, [cmd, "-Y"])
    assert r.status == status
    assert r.err or r.out
    assert "Traceback" not in r.err


@pytest.fixture
def files(inst):
    fs = inst.shell.fs
    fs.write_bytes("/batch/latin1.txt", b"caf\xe9 needle\n\xff\xfe\n")
    fs.write_bytes("/batch/empty.txt", b"")
    fs.mkdir("/batch/adir")
    return inst


def test_rg_awkward_operands(files):
    r = run(files, ["rg", "needle", "latin1.txt"])
    assert r.status == 0 and r.stdout == b"caf\xe9 needle\n"
    assert run(files, ["rg", "needle", "empty.txt"]).status == 1
    r = run(files, ["rg", "needle", "missing.txt"])
    assert r.status == 2 and r.err == "missing.txt: No such file or directory (os error 2)\n"
    r = run(files, ["rg", "needle", "adir"])
    assert r.status == 1 and r.err == ""
    r = run(files, ["rg", "x", "etc/passwd"])
    assert r.status == 2 and r.err == "etc/passwd: Permission denied (os error 13)\n"


def test_rg_no_path_searches_cwd(files):
    files.shell.fs.mkdir("/batch/adir/deeper")
    files.shell.fs.write_bytes("/batch/adir/deeper/n.txt", b"needle\n")
    r = run(files, ["rg", "-l", "needle"], cwd="/batch/adir")
    assert r.out == "deeper/n.txt\n"


def test_rg_json(files):
    files.shell.fs.write_bytes("/batch/j.txt", "x\nh\u00e9llo needle\n".encode())
    r = run(files, ["rg", "--json", "needle", "j.txt"])
    events = [json.loads(line) for line in r.out.splitlines()]
    assert [e["type"] for e in events] == ["begin", "match", "end", "summary"]
    m = events[1]["data"]
    assert m["path"] == {"text": "j.txt"} and m["line_number"] == 2
    assert m["absolute_offset"] == 2
    assert m["submatches"] == [{"match": {"text": "needle"}, "start": 7, "end": 13}]
    end = events[2]["data"]["stats"]
    assert end["matched_lines"] == 1 and end["matches"] == 1
    assert end["bytes_printed"] == len((r.out.splitlines()[0] + "\n" + r.out.splitlines()[1]
                                        + "\n").encode())
    assert events[3]["data"]["stats"]["searches_with_match"] == 1


def test_fd_awkward_operands(files):
    r = run(files, ["fd", ".", "empty.txt"])
    assert r.status == 1 and "is not a directory" in r.err
    r = run(files, ["fd", "latin"])
    assert r.out == "latin1.txt\n"
    r = run(files, ["fd", "-t", "e", "-d", "1"])
    assert "empty.txt\n" in r.out and "adir/\n" in r.out


def test_fd_exec_statuses(files):
    r = run(files, ["fd", "-e", "txt", "-x", "cat", "{}", "nonexistent-file"])
    assert r.status == 1
    r = run(files, ["fd", "-e", "txt", "-X", "wc", "-c"])
    assert r.status == 0 and "total" in r.out
    r = run(files, ["fd", "zzz", "-x", "cat"])
    assert r.status == 0 and r.out == ""


def test_sqlite_awkward_operands(files):
    r = run(files, ["sqlite3", "adir", "select 1"])
    assert r.status == 1 and "unable to open database" in r.err
    r = run(files, ["sqlite3", "empty.txt", "select 1"])
    assert r.status == 0 and r.out == "1\n"
    r = run(files, ["sqlite3", "latin1.txt", "select count(*) from sqlite_schema"])
    assert r.status == 26 and r.err == "Error: in prepare, file is not a database (26)\n"
    r = run(files, ["sqlite3", "latin1.txt", ".tables"])
    assert r.status == 1 and r.err == "Error: file is not a database\n"
    r = run(files, ["sqlite3", ":memory:", ".import latin1.txt t", "select count(*) from t"])
    assert r.status == 0 and r.out == "1\n"
    r = run(files, ["sqlite3", ":memory:", ".read missing.sql"])
    assert r.status == 1 and r.err == 'Error: cannot open "missing.sql"\n'


def test_sqlite_databases_is_virtual(files):
    r = run(files, ["sqlite3", "/tmp/v.db", ".databases"])
    assert r.out == "main: /tmp/v.db r/w\n"


@pytest.mark.parametrize("cmd", [["gzip", "-c"], ["zcat"], ["tar", "-tf"], ["unzip", "-l"]])
def test_archive_awkward_operands(files, cmd):
    for name in ("latin1.txt", "empty.txt", "missing.txt", "adir", "etc/passwd"):
        r = run(files, [*cmd, name])
        if cmd == ["gzip", "-c"] and name in ("latin1.txt", "empty.txt"):
            assert r.status == 0 and r.stdout[:2] == b"\x1f\x8b"
        else:
            assert r.status != 0, (cmd, name, r)
            assert r.err or r.out
            assert "Traceback" not in r.err


def test_gzip_roundtrip_bytes(files):
    import gzip

    data = bytes(range(256)) * 300
    files.shell.fs.write_bytes("/batch/bin.dat", data)
    r = run(files, ["gzip", "-c", "bin.dat"])
    assert gzip.decompress(r.stdout) == data
    r = run(files, ["gzip", "-9", "-k", "bin.dat"])
    assert r.status == 0
    assert files.shell.fs.read_bytes("/batch/bin.dat") == data
    r = run(files, ["zcat", "bin.dat.gz"])
    assert r.stdout == data


@pytest.mark.parametrize("argv", [["rg", "x", "/dev/zero"], ["jq", "-n", "--rawfile", "x",
                                                              "/dev/zero", "1"],
                                  ["sqlite3", ":memory:", ".import /dev/zero t"],
                                  ["gzip", "-c", "/dev/zero"]])
def test_endless_inputs_are_bounded(tree, argv):
    from pysh.commands import default_registry
    from pysh.interpreter import ExecCommand
    from pysh.shellkit import LimitExceeded, Limits

    with ExecCommand(tree.ws, registry=default_registry(),
                     limits=Limits(max_string_length=2_000_000)) as ex:
        with pytest.raises(LimitExceeded):
            run(ex, argv)


def test_gunzip_restores_name_with_N(inst):
    import gzip
    import io

    b = io.BytesIO()
    with gzip.GzipFile(filename="original.txt", mode="wb", fileobj=b, mtime=1704164645) as g:
        g.write(b"payload\n")
    inst.shell.fs.write_bytes("/batch/renamed.gz", b.getvalue())
    r = run(inst, ["gunzip", "-N", "renamed.gz"])
    assert r.status == 0, r.err
    assert inst.shell.fs.read_bytes("/batch/original.txt") == b"payload\n"
    assert inst.shell.fs.stat("/batch/original.txt").st_mtime == 1704164645
    assert not inst.shell.fs.exists("/batch/renamed.gz")


def test_zip_junk_paths_and_unzip_overwrite(inst):
    fs = inst.shell.fs
    fs.mkdir("/batch/zz/deep", parents=True)
    fs.write_bytes("/batch/zz/deep/f.txt", b"one\n")
    r = run(inst, ["zip", "-q", "-j", "j.zip", "zz/deep/f.txt"])
    assert r.status == 0
    fs.write_bytes("/batch/f.txt", b"old\n")
    r = run(inst, ["unzip", "-q", "j.zip"])  # no -o: the existing file is kept
    assert fs.read_bytes("/batch/f.txt") == b"old\n"
    r = run(inst, ["unzip", "-o", "-q", "j.zip"])
    assert r.status == 0 and fs.read_bytes("/batch/f.txt") == b"one\n"


def test_rg_json_context_events(inst):
    inst.shell.fs.write_bytes("/batch/c.txt", b"1\n2\nmatch\n4\n")
    r = run(inst, ["rg", "--json", "-C1", "match", "c.txt"])
    events = [json.loads(line) for line in r.out.splitlines()]
    assert [e["type"] for e in events] == ["begin", "context", "match", "context", "end",
                                           "summary"]
    assert [(e["data"]["line_number"], e["data"]["absolute_offset"]) for e in events[1:4]] == \
        [(2, 2), (3, 4), (4, 10)]
    assert events[1]["data"]["submatches"] == []
