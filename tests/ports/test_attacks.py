"""Port-specific attacks: archive slip, sqlite escapes, jq host files, rg/fd -L out."""

from __future__ import annotations

import io
import os
import tarfile
import zipfile

import pytest

from tests.harness import PLANTS_ON_THE_HOST, READS_THE_HOST, run_cmd
from tests.ports.conftest import CANARY, SECRET, run


def run_archive(inst, tree, argv):
    """Archive members here carry the outside dir's (canary) name as link targets: messages
    may echo those member strings, but never a host path."""
    r = run_cmd(inst, argv)
    assert tree.base not in r.out + r.err
    assert os.path.dirname(tree.base) not in r.out + r.err
    return r


def _tar(members) -> bytes:
    b = io.BytesIO()
    with tarfile.open(fileobj=b, mode="w", format=tarfile.GNU_FORMAT) as tf:
        for name, kind, extra in members:
            ti = tarfile.TarInfo(name)
            ti.mode = 0o644
            if kind == "f":
                ti.size = len(extra)
                tf.addfile(ti, io.BytesIO(extra))
            elif kind == "d":
                ti.type = tarfile.DIRTYPE
                tf.addfile(ti)
            elif kind == "l":
                ti.type, ti.linkname = tarfile.SYMTYPE, extra
                tf.addfile(ti)
            elif kind == "h":
                ti.type, ti.linkname = tarfile.LNKTYPE, extra
                tf.addfile(ti)
            elif kind in ("c", "b", "p"):
                ti.type = {"c": tarfile.CHRTYPE, "b": tarfile.BLKTYPE, "p": tarfile.FIFOTYPE}[kind]
                tf.addfile(ti)
            elif kind == "suid":
                ti.mode, ti.size, ti.uid, ti.gid = 0o6755, len(extra), 0, 0
                ti.uname = ti.gname = "root"
                tf.addfile(ti, io.BytesIO(extra))
    return b.getvalue()


def _outside_state(tree):
    out = []
    for dirpath, dirnames, filenames in os.walk(tree.base):
        if dirpath.startswith(tree.ws):
            continue
        for n in filenames + dirnames:
            p = os.path.join(dirpath, n)
            out.append((p, os.path.getsize(p) if os.path.isfile(p) else None))
    return sorted(out)


def _ws_file_count(tree):
    return sum(len(f) for _, _, f in os.walk(tree.ws))


SLIP_TAR = [
    ("../slip-parent.txt", "f", b"x"),
    ("dest/../../slip-up.txt", "f", b"x"),
    ("/abs-slip.txt", "f", b"x"),
    ("esc", "l", f"../../outside-{CANARY}"),       # a link out of the destination...
    ("esc/planted.txt", "f", b"through the link"),  # ...then a file written through it
    ("abs_esc", "l", "/etc"),
    ("abs_esc/passwd", "f", b"root::0:0"),
    ("up", "l", ".."),
    ("up/sibling.txt", "f", b"x"),
    ("hard_out", "h", "/etc/passwd"),
    ("hard_up", "h", f"../outside-{CANARY}/secret.txt"),
    ("dev_c", "c", None),
    ("dev_b", "b", None),
    ("fifo", "p", None),
    ("ok.txt", "f", b"fine\n"),
]


@pytest.mark.overlay_too
@pytest.mark.parametrize("gz", [False, True])
def test_tar_slip_refused(inst, tree, gz):
    import gzip

    data = _tar(SLIP_TAR)
    inst.shell.fs.write_bytes("/batch/evil.tar", gzip.compress(data) if gz else data)
    inst.shell.fs.mkdir("/batch/dest")
    before = _outside_state(tree)
    r = run_archive(inst, tree, ["tar", "-xvf", "evil.tar", "-C", "dest"])
    assert r.status == 2
    assert _outside_state(tree) == before
    assert inst.shell.fs.read_bytes("/batch/dest/ok.txt") == b"fine\n"
    # nothing was created next to the destination either
    assert sorted(inst.shell.fs.listdir("/batch")) == sorted(
        set(inst.shell.fs.listdir("/batch")) - {"slip-parent.txt", "slip-up.txt", "sibling.txt"})
    assert not inst.shell.fs.lexists("/batch/slip-parent.txt")
    assert not os.path.exists(os.path.join(tree.base, "slip-up.txt"))
    for name in ("dev_c", "dev_b", "fifo", "hard_out", "hard_up"):
        assert not inst.shell.fs.lexists(f"/batch/dest/{name}")
    err = r.err
    assert "Member name contains '..'" in err and "absolute" in err
    assert "esc: Cannot create symlink" in err and "dev_c: Cannot mknod" in err
    assert SECRET.decode() not in r.out + err


@pytest.mark.plain_only(READS_THE_HOST)
def test_tar_symlink_then_file_through_existing_link(inst, tree):
    """A link already in the destination that leads out is never written through."""
    os.symlink(tree.outside, os.path.join(tree.ws, "dest2"))
    inst.shell.fs.mkdir("/batch/d3")
    os.symlink(f"../../outside-{CANARY}", os.path.join(tree.ws, "d3", "pre"))
    inst.shell.fs.write_bytes("/batch/a.tar", _tar([("pre/x.txt", "f", b"x"), ("y.txt", "f", b"y")]))
    before = _outside_state(tree)
    r = run(inst, ["tar", "-xf", "a.tar", "-C", "d3"])
    assert r.status == 2 and "pre/x.txt" in r.err
    r2 = run(inst, ["tar", "-xf", "a.tar", "-C", "dest2"])
    assert r2.status == 2 and "Permission denied" in r2.err
    assert _outside_state(tree) == before


def test_tar_modes_masked_no_owner(inst):
    inst.shell.fs.write_bytes("/batch/s.tar", _tar([("suid.sh", "suid", b"#!/bin/sh\n")]))
    r = run(inst, ["tar", "-xf", "s.tar"])
    assert r.status == 0, r.err
    st = inst.shell.fs.stat("/batch/suid.sh")
    assert st.st_mode & 0o7000 == 0
    assert st.st_uid == os.getuid()


def test_tar_member_cap(tree):
    from pysh.commands import default_registry
    from pysh.interpreter import ExecCommand
    from pysh.shellkit import LimitExceeded, Limits

    with ExecCommand(tree.ws, registry=default_registry(),
                     limits=Limits(max_array_size=5)) as ex:
        ex.shell.fs.write_bytes("/batch/many.tar",
                                _tar([(f"f{i}", "f", b"x") for i in range(20)]))
        with pytest.raises(LimitExceeded):
            run(ex, ["tar", "-xf", "many.tar"])


def test_tar_size_cap(tree):
    from pysh.commands import default_registry
    from pysh.interpreter import ExecCommand
    from pysh.shellkit import LimitExceeded, Limits

    with ExecCommand(tree.ws, registry=default_registry(),
                     limits=Limits(max_file_size=1000)) as ex:
        with open(os.path.join(tree.ws, "big.tar"), "wb") as f:  # set-up: not the script's write
            f.write(_tar([("big", "f", b"x" * 5000)]))
        with pytest.raises(LimitExceeded):
            run(ex, ["tar", "-xf", "big.tar"])
        assert not ex.shell.fs.exists("/batch/big")


def _zip(entries) -> bytes:
    b = io.BytesIO()
    with zipfile.ZipFile(b, "w") as z:
        for name, data, mode in entries:
            zi = zipfile.ZipInfo(name)
            zi.create_system = 3
            zi.external_attr = mode << 16
            z.writestr(zi, data)
    return b.getvalue()


@pytest.mark.overlay_too
def test_zip_slip_refused(inst, tree):
    inst.shell.fs.write_bytes("/batch/evil.zip", _zip([
        ("../zip-parent.txt", b"x", 0o100644),
        ("/zip-abs.txt", b"x", 0o100644),
        ("lnk", f"../../outside-{CANARY}".encode(), 0o120777),
        ("lnk/through.txt", b"x", 0o100644),
        ("abs_lnk", b"/etc", 0o120777),
        ("fifo", b"", 0o010644),
        ("good.txt", b"good\n", 0o104755),
    ]))
    before = _outside_state(tree)
    r = run_archive(inst, tree, ["unzip", "-o", "evil.zip", "-d", "zd"])
    assert r.status != 0
    assert _outside_state(tree) == before
    assert inst.shell.fs.read_bytes("/batch/zd/good.txt") == b"good\n"
    assert inst.shell.fs.stat("/batch/zd/good.txt").st_mode & 0o7000 == 0
    assert not inst.shell.fs.lexists("/batch/zip-parent.txt")
    import stat as _stat

    # the link was refused; the later member then made a plain directory inside the destination
    assert not _stat.S_ISLNK(inst.shell.fs.lstat("/batch/zd/lnk").st_mode)
    assert inst.shell.fs.read_bytes("/batch/zd/lnk/through.txt") == b"x"
    assert not inst.shell.fs.lexists("/batch/zd/abs_lnk")
    assert not inst.shell.fs.lexists("/batch/zd/fifo")


@pytest.mark.overlay_too
def test_sqlite_escapes_denied(inst, tree):
    before = _outside_state(tree)
    outside_db = os.path.join(tree.outside, "x.db")
    attacks = [
        f"attach '{outside_db}' as o",
        "attach 'file:/etc/passwd?mode=ro' as o",
        "attach ':memory:' as m",
        f"vacuum into '{outside_db}'",
        "vacuum into '/batch/copy.db'",
        "select load_extension('/usr/lib/x86_64-linux-gnu/libsqlite3.so.0')",
        "pragma temp_store_directory = '/etc'",
        "detach main",
    ]
    for sql in attacks:
        r = run(inst, ["sqlite3", "/batch/t.db", sql])
        assert r.status != 0, sql
        assert "not authorized" in r.err or "authorization denied" in r.err, (sql, r.err)
    assert _outside_state(tree) == before
    assert not inst.shell.fs.exists("/batch/copy.db")
    for dot in (".shell ls", ".system id", ".load x", ".cd /", ".backup /tmp/b.db"):
        r = run(inst, ["sqlite3", ":memory:", dot])
        assert r.status == 1 and "not available in the sandbox" in r.err
    r = run(inst, ["sqlite3", "/batch/t.db", "vacuum", "select 1"])
    assert r.status == 0 and r.out == "1\n"


def test_sqlite_length_limit_and_deadline(tree):
    from pysh.commands import default_registry
    from pysh.interpreter import ExecCommand
    from pysh.shellkit import LimitExceeded, Limits

    with ExecCommand(tree.ws, registry=default_registry(),
                     limits=Limits(max_string_length=1000)) as ex:
        r = run(ex, ["sqlite3", ":memory:", "select length(zeroblob(5000))"])
        assert r.status != 0 and "too big" in r.err
    with ExecCommand(tree.ws, registry=default_registry(), limits=Limits(timeout=0.3)) as ex:
        with pytest.raises(LimitExceeded):
            run(ex, ["sqlite3", ":memory:", "with recursive c(x) as (select 1 union all "
                     "select x + 1 from c) select count(*) from c"])


@pytest.mark.overlay_too
def test_jq_host_files_and_env(inst, tree):
    r = run(inst, ["jq", "-n", "--rawfile", "x", "/etc/passwd", "$x"])
    assert r.status == 2 and "No such file or directory" in r.err
    r = run(inst, ["jq", "-n", "--rawfile", "x", "out_file", "$x"])
    assert r.status == 2 and "Permission denied" in r.err
    r = run(inst, ["jq", "-n", "--slurpfile", "x", "out_abs/secret.txt", "$x"])
    assert r.status == 2 and "Permission denied" in r.err
    r = run(inst, ["jq", ".", "/proc/self/environ"])
    assert r.status == 2
    r = run(inst, ["jq", "-n", "-c", "[env | keys[]] == [$ENV | keys[]]"])
    assert r.out == "true\n"
    r = run(inst, ["jq", "-n", "-r", "env | keys | join(\",\")"])
    assert r.out.strip().split(",") == sorted(inst.shell.env)
    host_only = [k for k in os.environ if k not in inst.shell.env]
    assert host_only, "the host environment should have some variable the sandbox lacks"
    r = run(inst, ["jq", "-n", "-c", f"[env.{host_only[0]}, $ENV.{host_only[0]}]"])
    assert r.out == "[null,null]\n"
    for prog in ('import "x" as x; .', 'include "x"; .', '"x" | modulemeta'):
        r = run(inst, ["jq", "-n", prog])
        assert r.status in (3, 5), prog
    r = run(inst, ["jq", "-n", "-c", "[get_search_list, get_jq_origin, get_prog_origin]"])
    assert r.out == "[[],null,null]\n"


@pytest.mark.overlay_too
@pytest.mark.parametrize("tool", ["rg", "fd"])
def test_follow_links_out_never_reads_outside(inst, tree, tool):
    with open(os.path.join(tree.outside, "needle.txt"), "wb") as f:
        f.write(b"needle " + SECRET + b"\n")
    argv = ["rg", "-L", "-uu", "needle", "."] if tool == "rg" else ["fd", "-L", "-H", "needle"]
    r = run(inst, argv)
    assert SECRET.decode() not in r.out + r.err
    assert "needle.txt" not in r.out
    if tool == "rg":
        assert "out_rel: Permission denied" in r.err


def test_rg_explicit_link_out_denied(inst):
    r = run(inst, ["rg", "SECRET", "out_rel/secret.txt", "out_abs", "etc/passwd"])
    assert r.status == 2 and r.out == ""
    assert r.err.count("Permission denied (os error 13)") == 3


@pytest.mark.plain_only(READS_THE_HOST)
def test_archive_link_members_out_are_refused_with_eperm(inst, tree):
    """tar and unzip make link members through the core: one that would point out of
    the destination (or the mount) is refused in each tool's words for EPERM."""
    inst.shell.fs.mkdir("/batch/dest")
    inst.shell.fs.write_bytes("/batch/l.tar", _tar([
        ("in", "l", "ok.txt"), ("ok.txt", "f", b"ok\n"),
        ("up", "l", "sub/../../.."), ("abs", "l", "/batch/ok.txt")]))
    r = run_archive(inst, tree, ["tar", "-xf", "l.tar", "-C", "dest"])
    assert r.status == 2
    assert "tar: up: Cannot create symlink to 'sub/../../..': Operation not permitted\n" in r.err
    assert "tar: abs: Cannot create symlink to '/batch/ok.txt': Operation not permitted\n" in r.err
    assert os.readlink(os.path.join(tree.ws, "dest", "in")) == "ok.txt"
    assert not os.path.lexists(os.path.join(tree.ws, "dest", "up"))
    inst.shell.fs.write_bytes("/batch/l.zip", _zip([
        ("zin", b"ok.txt", 0o120777), ("zout", b"../../..", 0o120777)]))
    r = run_archive(inst, tree, ["unzip", "-o", "l.zip", "-d", "dest"])
    assert r.err == "symlink error: Operation not permitted\n"
    assert os.readlink(os.path.join(tree.ws, "dest", "zin")) == "ok.txt"
    assert not os.path.lexists(os.path.join(tree.ws, "dest", "zout"))


@pytest.mark.plain_only(PLANTS_ON_THE_HOST)
def test_ports_never_write_a_hard_linked_file(inst, tree):
    """A database the host hard-linked into the workspace is read, never written."""
    import sqlite3

    outside_db = os.path.join(tree.outside, "x.db")
    con = sqlite3.connect(outside_db)
    con.execute("create table t(x)")
    con.execute("insert into t values (42)")
    con.commit()
    con.close()
    os.link(outside_db, os.path.join(tree.ws, "x.db"))
    before = _outside_state(tree)
    r = run(inst, ["sqlite3", "-readonly", "/batch/x.db", "select x from t"])
    assert (r.status, r.out) == (0, "42\n")
    r = run(inst, ["sqlite3", "/batch/x.db", "insert into t values (1)"])
    assert r.status == 1 and "unable to open database" in r.err  # sqlite3's words for it
    assert _outside_state(tree) == before
    r = run(inst, ["gzip", "-c", "x.db"])  # reading through door B stays allowed
    assert r.status == 0


PLANTED_LINKS = ["out_rel", "out_abs", "out_file", "etc", "chain_a", "chain_b", "loop1",
                 "proc_root", "dir/deep_out", "dangling_out", "in_rel", "in_abs", "dir/up"]


@pytest.mark.overlay_too
def test_a_planted_link_is_a_link_through_both_doors(inst, tree):
    """Door B's lstat of a link that points out followed it (tar archived the host's /etc
    as a directory with its times; zip added it as one): it is the link, as door A says."""
    import stat

    from pysh.ports import _common

    for rel in PLANTED_LINKS:
        a = inst.shell.fs.lstat("/batch/" + rel)
        b = _common.vstat(inst.shell, rel, follow=False)
        assert stat.S_ISLNK(a.st_mode) and stat.S_ISLNK(b.st_mode), rel
        assert (a.st_ino, a.st_size) == (b.st_ino, b.st_size), rel


@pytest.mark.plain_only(READS_THE_HOST)
def test_archives_take_a_planted_link_as_the_link_and_its_text_as_readlink_shows_it(inst, tree):
    """tar stores a link as a link, with the text the core's readlink gives: a target that
    would tell where the sandbox lives on the host is refused, as readlink refuses it."""
    r = run_archive(inst, tree, ["tar", "-cvf", "t.tar", *PLANTED_LINKS])
    for rel in ("out_rel", "out_abs", "out_file", "chain_b", "dir/deep_out", "dangling_out"):
        assert f"tar: {rel}: Cannot readlink: Permission denied\n" in r.err, rel
        assert inst.shell.fs.lexists("/batch/" + rel)
    assert r.status == 2
    with tarfile.open(os.path.join(tree.ws, "t.tar")) as tf:
        got = {m.name: (m.issym(), m.linkname) for m in tf.getmembers()}
    assert got == {"etc": (True, "/etc"), "chain_a": (True, "chain_b"), "loop1": (True, "loop2"),
                   "proc_root": (True, "/proc/self/root"), "in_rel": (True, "file.txt"),
                   "in_abs": (True, "/batch/file.txt"), "dir/up": (True, "../file.txt")}
    r = run_archive(inst, tree, ["zip", "-r", "z.zip", "etc", "out_abs", "file.txt"])
    assert r.status == 18
    assert r.err.count("could not open for reading") == 2 and "adding: file.txt" in r.out
    with zipfile.ZipFile(os.path.join(tree.ws, "z.zip")) as zf:
        assert zf.namelist() == ["file.txt"]
