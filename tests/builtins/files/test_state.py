"""What the file utilities leave on disk, and what golden tests cannot show (inodes, random
names, terminals)."""

from __future__ import annotations

import os
import stat

import anyio
import pytest

from pysh.shellkit import BytesInput, CaptureOutput
from tests.harness import RegistryExecutor, run_cmd, sandbox, view

pytestmark = pytest.mark.overlay_too  # also on an overlay in make test

T = 1704164645  # the fixture mtime

FILES = {"a.txt": "alpha\n", "b.txt": "beta\n", "dir/sub/c.txt": "gamma\n",
         "exe": {"content": "#!/bin/sh\n", "mode": 0o755}, "link": {"symlink": "a.txt"}}


def read(ex, *parts):
    with open(view(ex, *parts), "rb") as f:
        return f.read()


def test_cp_copies_content_modes_and_trees():
    with sandbox(FILES) as ex:
        assert run_cmd(ex, ["cp", "exe", "exe2"]).status == 0
        assert read(ex, "exe2") == b"#!/bin/sh\n"
        assert stat.S_IMODE(os.stat(view(ex, "exe2")).st_mode) == 0o755
        assert os.stat(view(ex, "exe2")).st_mtime != T
        assert run_cmd(ex, ["cp", "-p", "a.txt", "p.txt"]).status == 0
        assert os.stat(view(ex, "p.txt")).st_mtime == T
        assert run_cmd(ex, ["cp", "-r", "dir", "copy"]).status == 0
        assert read(ex, "copy", "sub", "c.txt") == b"gamma\n"
        assert run_cmd(ex, ["cp", "-a", "link", "link2"]).status == 0
        assert os.readlink(view(ex, "link2")) == "a.txt"
        assert run_cmd(ex, ["cp", "link", "deref"]).status == 0
        assert not os.path.islink(view(ex, "deref")) and read(ex, "deref") == b"alpha\n"
        assert run_cmd(ex, ["cp", "-n", "b.txt", "a.txt"]).status == 0
        assert read(ex, "a.txt") == b"alpha\n"
        assert run_cmd(ex, ["cp", "b.txt", "a.txt"]).status == 0
        assert read(ex, "a.txt") == b"beta\n"
        assert run_cmd(ex, ["cp", "-l", "b.txt", "hard"]).status == 0
        assert os.stat(view(ex, "hard")).st_ino == os.stat(view(ex, "b.txt")).st_ino
        assert run_cmd(ex, ["cp", "a.txt", "/tmp/x"]).status == 0  # across mounts
        assert open(os.path.join(ex.temp_dir, "x"), "rb").read() == b"beta\n"
        r = run_cmd(ex, ["cp", "-i", "a.txt", "b.txt"], stdin="n\n")
        assert r.err == "cp: overwrite 'b.txt'? " and read(ex, "b.txt") == b"beta\n"


def test_mv_renames_and_moves_across_mounts():
    with sandbox(FILES) as ex:
        assert run_cmd(ex, ["mv", "a.txt", "dir"]).status == 0
        assert read(ex, "dir", "a.txt") == b"alpha\n" and not os.path.exists(view(ex, "a.txt"))
        assert run_cmd(ex, ["mv", "dir", "/tmp/moved"]).status == 0
        assert not os.path.exists(view(ex, "dir"))
        assert open(os.path.join(ex.temp_dir, "moved", "sub", "c.txt"), "rb").read() == b"gamma\n"
        assert run_cmd(ex, ["mv", "-n", "b.txt", "exe"]).status == 0
        assert read(ex, "exe") == b"#!/bin/sh\n"


def test_rm_removes_trees_and_asks_on_stdin():
    with sandbox(FILES) as ex:
        r = run_cmd(ex, ["rm", "-i", "a.txt"], stdin="n\n")
        assert r.err == "rm: remove regular file 'a.txt'? " and os.path.exists(view(ex, "a.txt"))
        r = run_cmd(ex, ["rm", "-i", "a.txt"], stdin="y\n")
        assert not os.path.exists(view(ex, "a.txt"))
        assert run_cmd(ex, ["rm", "-r", "dir"]).status == 0
        assert not os.path.exists(view(ex, "dir"))
        assert run_cmd(ex, ["rm", "link"]).status == 0
        assert not os.path.lexists(view(ex, "link"))


class TtyInput(BytesInput):
    def isatty(self) -> bool:
        return True


def run_tty(ex, argv):
    async def go():
        out, err = CaptureOutput(), CaptureOutput()
        shell = ex.shell.child(fds={0: TtyInput(b"y\n"), 1: out, 2: err},
                               executor=RegistryExecutor())
        status = await shell.registry.get(argv[0])(shell, argv)
        return status, out.getvalue(), err.getvalue()
    return anyio.run(go)


def test_prompts_refuse_when_stdin_is_a_terminal():
    with sandbox(FILES) as ex:
        status, _, err = run_tty(ex, ["rm", "-i", "a.txt"])
        assert os.path.exists(view(ex, "a.txt"))
        assert err.startswith(b"rm: remove regular file 'a.txt'? (no answer can be read")
        status, out, err = run_tty(ex, ["find", "a.txt", "-ok", "basename", "{}", ";"])
        assert out == b"" and status == 1 and b"-ok" in err
        status, _, err = run_tty(ex, ["cp", "-i", "b.txt", "a.txt"])
        assert read(ex, "a.txt") == b"alpha\n"
        status, _, err = run_tty(ex, ["mv", "-i", "b.txt", "a.txt"])
        assert read(ex, "a.txt") == b"alpha\n" and os.path.exists(view(ex, "b.txt"))


def test_ln_stores_relative_targets():
    with sandbox(FILES) as ex:
        assert run_cmd(ex, ["ln", "-s", "/batch/a.txt", "dir/abs"]).status == 0
        assert os.readlink(view(ex, "dir", "abs")) == "../a.txt"
        assert run_cmd(ex, ["readlink", "dir/abs"]).out == "../a.txt\n"
        assert run_cmd(ex, ["ln", "-sr", "dir/sub/c.txt", "rel"]).status == 0
        assert os.readlink(view(ex, "rel")) == "dir/sub/c.txt"
        assert run_cmd(ex, ["ln", "-sf", "b.txt", "link"]).status == 0
        assert os.readlink(view(ex, "link")) == "b.txt"
        assert run_cmd(ex, ["ln", "a.txt", "hard"]).status == 0
        assert os.stat(view(ex, "hard")).st_nlink == 2


def test_touch_sets_times():
    with sandbox(FILES) as ex:
        assert run_cmd(ex, ["touch", "-d", "2024-01-02 03:04:05", "new"]).status == 0
        assert os.stat(view(ex, "new")).st_mtime == T
        assert run_cmd(ex, ["touch", "-t", "200001011200.30", "a.txt"]).status == 0
        assert os.stat(view(ex, "a.txt")).st_mtime == 946728030
        assert run_cmd(ex, ["touch", "-m", "-d", "@1000", "b.txt"]).status == 0
        st = os.stat(view(ex, "b.txt"))
        assert (st.st_mtime, st.st_atime) == (1000, T)
        assert run_cmd(ex, ["touch", "-a", "-d", "@2000", "b.txt"]).status == 0
        st = os.stat(view(ex, "b.txt"))
        assert (st.st_mtime, st.st_atime) == (1000, 2000)
        assert run_cmd(ex, ["touch", "-r", "b.txt", "exe"]).status == 0
        assert os.stat(view(ex, "exe")).st_mtime == 1000
        assert run_cmd(ex, ["touch", "-d", "2024-01-02 03:04:05 +0100", "a.txt"]).status == 0
        assert os.stat(view(ex, "a.txt")).st_mtime == T - 3600
        assert run_cmd(ex, ["touch", "-d", "1 day ago", "a.txt"]).status == 0
        import time
        assert abs(os.stat(view(ex, "a.txt")).st_mtime - (time.time() - 86400)) < 60
        assert run_cmd(ex, ["touch", "-c", "nope"]).status == 0
        assert not os.path.exists(view(ex, "nope"))
        assert run_cmd(ex, ["touch", "-d", "2024-01-02", "a.txt"],
                       env={"TZ": "America/New_York"}).status == 0
        assert os.stat(view(ex, "a.txt")).st_mtime == 1704171600


def test_chmod_modes():
    with sandbox(FILES) as ex:
        assert run_cmd(ex, ["chmod", "u+x,go-r", "a.txt"]).status == 0
        assert stat.S_IMODE(os.stat(view(ex, "a.txt")).st_mode) == 0o700
        assert run_cmd(ex, ["chmod", "a=r", "a.txt"]).status == 0
        assert stat.S_IMODE(os.stat(view(ex, "a.txt")).st_mode) == 0o444
        assert run_cmd(ex, ["chmod", "-R", "go=", "dir"]).status == 0
        assert stat.S_IMODE(os.stat(view(ex, "dir", "sub", "c.txt")).st_mode) == 0o600
        assert run_cmd(ex, ["chmod", "u+s", "exe"]).status == 0  # stripped by the door
        assert stat.S_IMODE(os.stat(view(ex, "exe")).st_mode) == 0o755


def test_mkdir_and_rmdir():
    with sandbox(FILES) as ex:
        assert run_cmd(ex, ["mkdir", "-p", "-m", "700", "x/y"]).status == 0
        assert stat.S_IMODE(os.stat(view(ex, "x", "y")).st_mode) == 0o700
        assert stat.S_IMODE(os.stat(view(ex, "x")).st_mode) == 0o755
        assert run_cmd(ex, ["rmdir", "-p", "x/y"]).status == 0
        assert not os.path.exists(view(ex, "x"))


def test_truncate_sizes():
    with sandbox({"f": "0123456789"}) as ex:
        for spec, size in [("5", 5), ("+3", 8), ("-2", 6), ("<4", 4), (">10", 10),
                           ("%8", 16), ("/5", 15), ("1K", 1024), ("1KB", 1000)]:
            assert run_cmd(ex, ["truncate", "-s", spec, "f"]).status == 0
            assert os.path.getsize(view(ex, "f")) == size, spec
        assert run_cmd(ex, ["truncate", "-s", "7", "new"]).status == 0
        assert read(ex, "new") == b"\0" * 7


def test_mktemp_creates_inside_the_sandbox():
    with sandbox(FILES) as ex:
        r = run_cmd(ex, ["mktemp"])
        name = r.out.strip()
        assert r.status == 0 and name.startswith("/tmp/tmp.") and len(name) == len("/tmp/tmp.") + 10
        p = os.path.join(ex.temp_dir, name[5:])
        assert os.path.isfile(p) and stat.S_IMODE(os.stat(p).st_mode) == 0o600
        r = run_cmd(ex, ["mktemp", "-d", "-p", "dir", "wXXXX"])
        d = r.out.strip()
        assert d.startswith("dir/w") and os.path.isdir(view(ex, d))
        assert stat.S_IMODE(os.stat(view(ex, d)).st_mode) == 0o700
        r = run_cmd(ex, ["mktemp", "--suffix=.txt", "fXXXXXX"])
        assert r.out.endswith(".txt\n") and os.path.isfile(view(ex, r.out.strip()))
        r = run_cmd(ex, ["mktemp", "-u", "-t", "xXXX"])
        assert r.out.startswith("/tmp/x") and not os.path.exists(
            os.path.join(ex.temp_dir, r.out.strip()[5:]))
        r = run_cmd(ex, ["mktemp"], env={"TMPDIR": "/batch/dir"})
        assert r.out.startswith("/batch/dir/tmp.")


def test_find_delete_exec_and_inodes():
    with sandbox(FILES) as ex:
        ino = os.lstat(view(ex, "a.txt")).st_ino
        assert run_cmd(ex, ["find", ".", "-inum", str(ino)]).out == "./a.txt\n"
        r = run_cmd(ex, ["find", "a.txt", "-ls"])
        fields = r.out.split()
        assert fields[0] == str(ino) and fields[2] == "-rw-r--r--" and fields[4:6] == ["user"] * 2
        assert fields[-1] == "a.txt" and fields[-4:-1] == ["Jan", "2", "2024"]
        assert run_cmd(ex, ["find", "dir", "-name", "*.txt", "-delete"]).status == 0
        assert not os.path.exists(view(ex, "dir", "sub", "c.txt"))
        assert run_cmd(ex, ["find", "dir", "-delete"]).status == 0
        assert not os.path.exists(view(ex, "dir"))
        r = run_cmd(ex, ["ls", "-i", "a.txt"])
        assert r.out == f"{ino} a.txt\n"
        r = run_cmd(ex, ["find", ".", "-maxdepth", "1", "-name", "*.txt", "-fprint", "out"])
        assert sorted(read(ex, "out").split()) == [b"./a.txt", b"./b.txt"]


def test_ls_long_symlink_and_synthetic_owner():
    with sandbox(FILES) as ex:
        r = run_cmd(ex, ["ls", "-l", "link"])
        assert r.out.startswith("lrwxrwxrwx 1 user user 5 ") and r.out.endswith(" link -> a.txt\n")
        r = run_cmd(ex, ["ls", "-n", "a.txt"])
        assert " 1000 1000 " in r.out
        r = run_cmd(ex, ["ls", "-l", "--time-style=+%Y-%m-%d", "a.txt"], env={"TZ": "UTC"})
        assert r.out == "-rw-r--r-- 1 user user 6 2024-01-02 a.txt\n"
        r = run_cmd(ex, ["ls", "-l", "--time-style=+%H", "a.txt"], env={"TZ": "Asia/Tokyo"})
        assert r.out.endswith(" 12 a.txt\n")
        assert run_cmd(ex, ["ls", "/"]).out.split() == ["batch", "bin", "dev", "home", "tmp", "usr"]
        assert "ls" in run_cmd(ex, ["ls", "/bin"]).out.split()


def test_stat_default_format():
    with sandbox(FILES) as ex:
        r = run_cmd(ex, ["stat", "a.txt"])
        lines = r.out.splitlines()
        assert lines[0] == "  File: a.txt"
        assert lines[1].startswith("  Size: 6         \tBlocks: ")
        assert "Inode: " in lines[2] and "Links: 1" in lines[2]
        assert lines[3] == "Access: (0644/-rw-r--r--)  Uid: ( 1000/    user)   Gid: ( 1000/    user)"
        assert lines[5] == "Modify: 2024-01-02 03:04:05.000000000 +0000"
        assert lines[7] == " Birth: -"
        assert run_cmd(ex, ["stat", "-c", "%m", "a.txt"]).out == "/batch\n"
        assert run_cmd(ex, ["stat", "-c", "%N", "link"]).out == "'link' -> 'a.txt'\n"


def test_df_shows_only_the_sandbox_mounts():
    with sandbox(FILES) as ex:
        r = run_cmd(ex, ["df"])
        lines = r.out.splitlines()
        assert lines[0].split() == ["Filesystem", "1K-blocks", "Used", "Available", "Use%",
                                    "Mounted", "on"]
        assert [ln.split()[-1] for ln in lines[1:]] == ["/batch", "/tmp", "/home/user"]
        assert ex.workspace_dir not in r.out
        r = run_cmd(ex, ["df", "-hT", "dir"])
        assert r.out.splitlines()[0].split()[:3] == ["Filesystem", "Type", "Size"]
        assert r.out.splitlines()[1].split()[-1] == "/batch"


def test_du_counts_hard_links_once():
    with sandbox({"a": "x" * 10000}) as ex:
        assert run_cmd(ex, ["ln", "a", "b"]).status == 0
        r = run_cmd(ex, ["du", "-a", "-b"])
        assert [ln.split("\t")[1] for ln in r.out.splitlines()][-1] == "."
        assert r.out.count("10000\t") == 1


def test_help_and_bad_options_for_every_command():
    names = ["ls", "cp", "mv", "rm", "mkdir", "rmdir", "touch", "ln", "chmod", "find", "tree",
             "du", "df", "stat", "realpath", "readlink", "basename", "dirname", "mktemp",
             "truncate", "file", "pwd"]
    with sandbox(FILES) as ex:
        for name in names:
            r = run_cmd(ex, [name, "--help"])
            assert r.status == 0 and r.out, name
            r = run_cmd(ex, [name, "--no-such-option"])
            assert r.status != 0 and r.err and "Traceback" not in r.err, name
