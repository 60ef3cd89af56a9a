"""python3 is as confined as cat: hostile guests in a child process with a hard kill.

Every host directory of the fixture carries CANARY in its name, and the file outside
the workspace holds SECRET: neither may ever show up in what the guest prints.
"""

from __future__ import annotations

import os

import pytest

from tests.ports.python.hostile import run_hostile
from tests.shellkit.conftest import CANARY, SECRET, build_tree


@pytest.fixture
def tree(tmp_path):
    return build_tree(str(tmp_path))


def clean(r: dict) -> dict:
    for text in (r["stdout"], r["stderr"]):
        assert CANARY not in text
        assert SECRET.decode() not in text
        assert "internal error" not in text
    return r


PROBE_OUTSIDE = r"""export ROOT_LISTING="[$(ls -A / | sed 's/.*/"&"/' | paste -sd, -)]"
python3 - <<'EOF'
import os
def show(what, fn):
    try:
        r = fn()
        print(what, "OK", repr(r)[:60])
    except OSError as e:
        print(what, type(e).__name__)
show("passwd", lambda: open("/etc/passwd").read())
show("passwd-exists", lambda: os.path.exists("/etc/passwd"))
show("dotdot", lambda: open("../../../../etc/passwd").read())
show("dotdot-list", lambda: sorted(os.listdir("/batch/../../..")))
show("root", lambda: sorted(os.listdir("/")))
print("shell-root OK", sorted(n for n in os.listdir("/") if not n.startswith(".")) == sorted(
    __import__("json").loads(os.environ["ROOT_LISTING"])))
show("proc", lambda: os.listdir("/proc/self"))
for name in ("out_rel", "out_abs", "out_file", "etc", "chain_a", "proc_root", "proc_cwd",
             "dir/deep_out", "dangling_out"):
    show(name, lambda: open(name + ("/secret.txt" if name != "out_file" else ""), "rb").read())
    show(name + "-list", lambda: os.listdir(name))
show("in_rel", lambda: open("in_rel").read())
show("in_abs", lambda: open("in_abs").read())
show("dir-up", lambda: open("dir/up").read())
show("write-out", lambda: open("dangling_out", "w").write("x"))
# Whether such a link may be made is the core's rule (as for ln -s); it never leads out.
try:
    os.symlink("/etc/passwd", "newlink")
    os.symlink("../" * 8 + "etc/passwd", "newlink2")
except OSError:
    pass
show("symlink-out", lambda: open("newlink").read())
show("symlink-up", lambda: open("newlink2").read())
show("readlink", lambda: os.readlink("out_abs"))
show("realpath", lambda: os.path.realpath("out_abs"))
EOF"""


def test_no_way_out_through_paths_and_links(tree):
    r = clean(run_hostile(tree.ws, PROBE_OUTSIDE))
    out = dict(line.split(" ", 1) for line in r["stdout"].splitlines())
    assert r["status"] == 0, r["stderr"]
    assert out["passwd"] == "FileNotFoundError"
    assert out["passwd-exists"] == "OK False"
    assert out["dotdot"] == "FileNotFoundError"
    # the guest's / is the shell's: the mount points and synthetic directories, nothing else
    assert out["dotdot-list"] == out["root"]
    assert out["shell-root"] == "OK True"
    assert "'batch'" in out["root"] and "'etc'" not in out["root"] and "'proc'" not in out["root"]
    assert out["proc"] == "FileNotFoundError"
    for name in ("out_rel", "out_abs", "out_file", "etc", "chain_a", "proc_root", "proc_cwd",
                 "dir/deep_out", "dangling_out"):
        assert not out[name].startswith("OK"), (name, out[name])
        assert not out[name + "-list"].startswith("OK"), (name, out[name + "-list"])
    assert out["in_rel"] == out["in_abs"] == out["dir-up"] == "OK 'inside\\n'"
    assert not out["write-out"].startswith("OK")
    assert not out["symlink-out"].startswith("OK")
    assert not out["symlink-up"].startswith("OK")
    assert not os.path.exists(os.path.join(tree.outside, "newfile"))
    assert sorted(os.listdir(tree.outside)) == ["secret.txt"]


def test_symlink_swap_race(tree):
    """A host thread swaps a link between a file inside and the secret outside while the
    guest reads it as fast as it can: the guest sees the inside file or an error, never
    the secret."""
    link = os.path.join(tree.ws, "swap")
    os.symlink("file.txt", link)
    script = r"""python3 - <<'EOF'
seen = {}
for _ in range(3000):
    try:
        data = open("swap", "rb").read()
    except OSError as e:
        data = type(e).__name__.encode()
    seen[data] = seen.get(data, 0) + 1
for k in sorted(seen):
    print(k)
EOF"""
    r = clean(run_hostile(tree.ws, script,
                          race=[link, "file.txt", os.path.join(tree.outside, "secret.txt")]))
    assert r["status"] == 0, r["stderr"]
    assert "b'inside\\n'" in r["stdout"]
    assert set(r["stdout"].splitlines()) <= {"b'inside\\n'", "b'PermissionError'",
                                            "b'FileNotFoundError'", "b'OSError'"}


def test_devices_and_stream_nodes(tree):
    script = r"""python3 - <<'EOF'
import os
print(len(open("/dev/urandom", "rb").read(16)), repr(open("/dev/null").read()))
open("/dev/null", "w").write("gone")
with open("/dev/stdout", "w") as f:
    f.write("via /dev/stdout\n")
print(sorted(os.listdir("/dev"))[:3])
EOF"""
    r = clean(run_hostile(tree.ws, script, kill_after=30))
    assert r["status"] == 0, r["stderr"]
    lines = r["stdout"].splitlines()  # print() is block-buffered on a pipe, as in CPython
    assert lines == ["via /dev/stdout", "16 ''", "['fd', 'full', 'null']"]


def test_read_only_mount_and_host_untouched(tree, tmp_path):
    ro = tmp_path / f"ro-{CANARY}"
    ro.mkdir()
    (ro / "keep.txt").write_text("original\n")
    script = r"""python3 - <<'EOF'
import os
for what, fn in [("write", lambda: open("/data/keep.txt", "w").write("changed")),
                 ("append", lambda: open("/data/keep.txt", "a").write("more")),
                 ("create", lambda: open("/data/new.txt", "w")),
                 ("unlink", lambda: os.remove("/data/keep.txt")),
                 ("rename", lambda: os.rename("/data/keep.txt", "/data/k2")),
                 ("mkdir", lambda: os.mkdir("/data/d")),
                 ("read", lambda: open("/data/keep.txt").read())]:
    try:
        print(what, "OK", repr(fn()))
    except OSError as e:
        print(what, type(e).__name__)
EOF"""
    r = clean(run_hostile(tree.ws, script, mounts=[(str(ro), "/data", True)]))
    assert r["status"] == 0, r["stderr"]
    out = r["stdout"].splitlines()
    assert out[-1] == "read OK 'original\\n'"
    for line in out[:-1]:
        assert " OK" not in line, line
    assert (ro / "keep.txt").read_text() == "original\n"
    assert sorted(os.listdir(ro)) == ["keep.txt"]


def test_no_sockets_subprocess_or_host_environment(tree):
    script = r"""python3 - <<'EOF'
import os
def show(what, fn):
    try:
        fn()
        print(what, "OK")
    except Exception as e:
        print(what, "refused")
import socket
show("socket", lambda: socket.socket().connect(("127.0.0.1", 22)))
show("subprocess", lambda: __import__("subprocess").run(["ls"]))
show("system", lambda: os.system("ls"))
show("fork", lambda: os.fork())
print(sorted(k for k in os.environ if "CANARY" in k or "CANARY" in os.environ[k]))
print(os.environ.get("PYSH_HOST_SECRET"))
EOF"""
    env = dict(os.environ, PYSH_HOST_SECRET=CANARY)
    r = clean(run_hostile(tree.ws, script, env=env))
    out = r["stdout"].splitlines()
    assert out[:4] == ["socket refused", "subprocess refused", "system refused", "fork refused"], r
    assert out[4:] == ["[]", "None"]


def test_tracebacks_name_no_host_path(tree):
    r = clean(run_hostile(tree.ws, "printf 'import json\\njson.loads(\"{\")\\n' > bad.py; python3 bad.py"))
    assert r["status"] == 1
    assert 'File "/batch/bad.py", line 2' in r["stderr"]
    assert "json.decoder.JSONDecodeError" in r["stderr"]


@pytest.mark.parametrize("name,script", [
    ("busy", "python3 -c 'while True: pass'"),
    ("sleep", "python3 -c 'import time; time.sleep(100)'"),
    ("stdin", "sleep 100 | python3 -c 'import sys; sys.stdin.read()'"),
    ("select", "python3 -c 'import select, sys; select.select([], [], [], 100)'"),
])
def test_deadline_stops_the_guest(tree, name, script):
    r = clean(run_hostile(tree.ws, script, limits={"timeout": 2.0}, kill_after=30))
    assert r["status"] == 124, r
    assert r["stderr"] == "pysh: timeout: limit exceeded (2s)\n"
    assert r["run_time"] < 15  # far below the guest's 100 s; margin for a loaded machine


def test_memory_bomb(tree):
    script = "python3 -c 'x = []\nwhile True: x.append(bytearray(10**7))'; echo after=$?"
    r = clean(run_hostile(tree.ws, script, limits={"timeout": 30.0, "python_memory": 256 << 20}))
    assert r["stdout"] == "after=1\n"
    assert r["stderr"].rstrip().endswith("MemoryError")


def test_fifo_never_blocks(tree):
    os.mkfifo(os.path.join(tree.ws, "fifo"))
    script = r"""python3 - <<'EOF'
for mode in ("r", "w"):
    try:
        open("fifo", mode)
        print(mode, "OK")
    except OSError as e:
        print(mode, type(e).__name__)
EOF"""
    r = clean(run_hostile(tree.ws, script, kill_after=30))
    assert r["status"] == 0, r["stderr"]
    for line in r["stdout"].splitlines():
        assert not line.endswith("OK"), line


WRITE_PAST_LIMITS = r"""python3 - <<'EOF'
import errno, os
def fails(what, f, *a):
    try:
        f(*a)
        print(what, "OK")
    except OSError as x:
        print(what, errno.errorcode[x.errno])
fd = os.open("big", os.O_WRONLY | os.O_CREAT)
print("whole", os.write(fd, b"x" * 1000), "short", os.write(fd, b"y" * 2000))
fails("then", os.write, fd, b"z")
fails("ftruncate", os.ftruncate, fd, 10**10)
fails("pwrite-far", os.pwrite, fd, b"a", 10**10)
os.close(fd)
f = open("buffered", "wb")
fails("buffered", f.write, b"b" * 100000)
fails("close", f.close)
fd = os.open("total", os.O_WRONLY | os.O_CREAT)
print("whole", os.write(fd, b"c" * 500), "short", os.write(fd, b"d" * 1000))
fails("then", os.write, fd, b"e")
EOF
echo "status $?"; stat -c '%n %s' big buffered total"""


def test_a_guest_writing_past_the_write_limits_gets_efbig_and_edquot(tmp_path):
    # As a process under RLIMIT_FSIZE (SIGXFSZ ignored) or a quota: the write that reaches
    # the limit is short, the next one fails; nothing past the limit reaches the file.
    r = clean(run_hostile(str(tmp_path), WRITE_PAST_LIMITS, kill_after=120, limits=dict(
        max_file_size=2048, max_total_written=2 * 2048 + 500 + 452, timeout=60)))
    assert (r["status"], r["stderr"]) == (0, ""), r
    assert r["stdout"] == ("whole 1000 short 1048\nthen EFBIG\nftruncate EFBIG\npwrite-far EFBIG\n"
                           "buffered EFBIG\nclose OK\nwhole 500 short 452\nthen EDQUOT\n"
                           "status 0\nbig 2048\nbuffered 2048\ntotal 952\n"), r
    assert sorted((p.name, p.stat().st_size) for p in tmp_path.iterdir()) == [
        ("big", 2048), ("buffered", 2048), ("total", 952)]


CORE_RULES = r"""python3 - <<'EOF'
import errno, os
def show(what, fn):
    try:
        fn()
        print(what, "OK")
    except OSError as e:
        print(what, errno.errorcode.get(e.errno, e.errno))
show("symlink-abs", lambda: os.symlink("/etc/passwd", "l1"))
show("symlink-up", lambda: os.symlink("../../..", "dir/l2"))
show("symlink-tmp", lambda: os.symlink("/tmp/x", "l3"))
show("symlink-in", lambda: os.symlink("/batch/file.txt", "dir/sub/l4"))
show("link-of-out-link", lambda: os.link("out_abs", "l5"))
show("hl-read", lambda: open("hl", "rb").read())
show("hl-write", lambda: open("hl", "wb"))
show("hl-append", lambda: open("hl", "ab"))
show("hl-rw", lambda: open("hl", "r+b"))
show("hl-truncate", lambda: os.truncate("hl", 0))
show("fifo-r", lambda: open("fifo", "rb"))
show("fifo-w", lambda: open("fifo", "wb"))
show("sock", lambda: open("sock", "rb"))
show("dev-null", lambda: open("/dev/null", "wb").write(b"x"))
EOF"""


def test_links_special_files_and_hard_links_follow_the_core_rules(tree):
    """The guest's path_symlink, path_link and path_open are the core's: a link out is EPERM
    (and none is left on the host), an absolute one inside is stored relative, a FIFO or
    socket fails at once, a hard-linked file is read but never written."""
    import socket
    import tempfile

    os.link(os.path.join(tree.outside, "secret.txt"), os.path.join(tree.ws, "hl"))
    os.mkfifo(os.path.join(tree.ws, "fifo"))
    short = tempfile.mkdtemp(prefix="s")  # sockaddr_un holds ~108 bytes: bind short, then move
    s = socket.socket(socket.AF_UNIX)
    s.bind(os.path.join(short, "s"))
    os.rename(os.path.join(short, "s"), os.path.join(tree.ws, "sock"))
    os.rmdir(short)
    try:
        r = clean(run_hostile(tree.ws, CORE_RULES, kill_after=60))
    finally:
        s.close()
    assert r["status"] == 0, r["stderr"]
    got = dict(line.split(" ", 1) for line in r["stdout"].splitlines())
    assert got == {"symlink-abs": "EPERM", "symlink-up": "EPERM", "symlink-tmp": "EPERM",
                   "symlink-in": "OK", "link-of-out-link": "EPERM", "hl-read": "OK",
                   "hl-write": "EPERM", "hl-append": "EPERM", "hl-rw": "EPERM",
                   "hl-truncate": "EPERM", "fifo-r": "ENXIO", "fifo-w": "ENXIO", "sock": "ENXIO",
                   "dev-null": "OK"}
    for n in ("l1", "l3", "l5", "dir/l2"):
        assert not os.path.lexists(os.path.join(tree.ws, n)), n
    assert os.readlink(os.path.join(tree.ws, "dir", "sub", "l4")) == "../../file.txt"
    with open(os.path.join(tree.outside, "secret.txt"), "rb") as f:
        assert f.read() == SECRET
