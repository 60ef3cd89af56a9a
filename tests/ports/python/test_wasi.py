"""The WASI calls behind os/io, answered by door A: what CPython code sees of them."""

from __future__ import annotations

import os

SCRIPT = r"""python3 - <<'EOF'
import os, stat
def t(what, fn):
    try:
        r = fn()
        print(what, "->", repr(r))
    except OSError as e:
        print(what, "->", type(e).__name__)
open("a.txt", "w").write("hello world\n")
os.makedirs("d/e")
t("symlink", lambda: os.symlink("a.txt", "ln"))
t("readlink", lambda: os.readlink("ln"))
t("islink", lambda: (os.path.islink("ln"), os.path.isfile("ln"), stat.S_ISLNK(os.lstat("ln").st_mode)))
t("read via link", lambda: open("ln").read())
t("scandir", lambda: sorted((e.name, e.is_dir(), e.is_file(), e.is_symlink()) for e in os.scandir(".")))
t("pread", lambda: os.pread(os.open("a.txt", os.O_RDONLY), 5, 6))
def pw():
    fd = os.open("a.txt", os.O_RDWR)
    os.pwrite(fd, b"WORLD", 6)
    pos = os.lseek(fd, 0, os.SEEK_CUR)
    os.close(fd)
    return pos, open("a.txt").read()
t("pwrite", pw)
def tr():
    with open("a.txt", "r+") as f:
        f.truncate(5)
        f.seek(0, 2)
        return f.tell(), os.path.getsize("a.txt")
t("truncate", tr)
t("os.truncate", lambda: (os.truncate("a.txt", 2), open("a.txt").read()))
t("utime", lambda: (os.utime("a.txt", (1000000000, 1234567890)), os.stat("a.txt").st_mtime))
t("rename over", lambda: (open("b.txt", "w").write("b"), os.replace("b.txt", "a.txt"), open("a.txt").read()))
t("open dir", lambda: open("d"))
t("mkdir exists", lambda: os.mkdir("d"))
t("rmdir non-empty", lambda: os.rmdir("d"))
t("remove dir", lambda: os.remove("d"))
t("x existing", lambda: open("a.txt", "x"))
t("r+ missing", lambda: open("missing", "r+"))
t("listdir file", lambda: os.listdir("a.txt"))
def app():
    with open("log", "a") as f:
        f.write("1")
    with open("log", "a+") as f:
        f.seek(0)
        f.write("2")
        f.seek(0)
        return f.read()
t("append", app)
def many():
    os.mkdir("many")
    for i in range(600):
        open(f"many/file-with-a-longish-name-{i:04d}.txt", "w").close()
    names = os.listdir("many")
    return len(names), len(set(names)), sorted(names)[-1]
t("listdir 600", many)
def big():
    data = bytes(range(256)) * 20000
    open("big.bin", "wb").write(data)
    back = open("big.bin", "rb").read()
    with open("big.bin", "rb") as f:
        parts = []
        while chunk := f.read(65537):
            parts.append(chunk)
    return len(back), back == data, b"".join(parts) == data
t("big", big)
t("hard link", lambda: (os.link("log", "log2"), open("log2").read()))
t("getcwd after chdir", lambda: (os.chdir("d/e"), os.getcwd(), os.chdir("../.."),
                                 os.path.realpath("."), open("a.txt").read()))
t("walk", lambda: [(r, sorted(ds), sorted(fs)) for r, ds, fs in os.walk("d")])
t("exists /dev/null", lambda: (os.path.exists("/dev/null"), os.path.isdir("/tmp")))
t("tmp roundtrip", lambda: (open("/tmp/x", "w").write("t"), open("/tmp/x").read()))
EOF"""


def test_os_and_io_calls(sb):
    r = sb.run(SCRIPT)
    assert r.exit_code == 0, r.stderr
    got = dict(line.split(" -> ", 1) for line in r.stdout.splitlines())
    assert got["symlink"] == "None"
    assert got["readlink"] == "'a.txt'"
    assert got["islink"] == "(True, True, True)"
    assert got["read via link"] == "'hello world\\n'"
    assert got["scandir"] == ("[('a.txt', False, True, False), ('d', True, False, False), "
                              "('ln', False, True, True)]")
    assert got["pread"] == "b'world'"
    assert got["pwrite"] == "(0, 'hello WORLD\\n')"
    assert got["truncate"] == "(5, 5)"
    assert got["os.truncate"] == "(None, 'he')"
    assert got["utime"] == "(None, 1234567890.0)"
    assert got["rename over"] == "(1, None, 'b')"
    assert got["open dir"] == "IsADirectoryError"
    assert got["mkdir exists"] == "FileExistsError"
    assert got["rmdir non-empty"] == "OSError"
    assert got["remove dir"] in ("IsADirectoryError", "PermissionError")
    assert got["x existing"] == "FileExistsError"
    assert got["r+ missing"] == "FileNotFoundError"
    assert got["listdir file"] == "NotADirectoryError"
    assert got["append"] == "'12'"
    assert got["listdir 600"] == "(600, 600, 'file-with-a-longish-name-0599.txt')"
    assert got["big"] == "(5120000, True, True)"
    # (os.getcwd() itself would say /batch/d/e/../..: wasi-libc keeps chdir's path as given)
    assert got["getcwd after chdir"] == "(None, '/batch/d/e', None, '/batch', 'b')"
    assert got["walk"] == "[('d', ['e'], []), ('d/e', [], [])]"
    assert got["exists /dev/null"] == "(True, True)"
    assert got["tmp roundtrip"] == "(1, 't')"
    assert os.readlink(sb.host / "ln") == "a.txt"
    assert (sb.host / "big.bin").stat().st_size == 5120000


def test_stdin_from_a_file_and_a_here_string(sb):
    sb.run("printf 'a,b\\n1,2\\n' > in.csv")
    assert sb.run("python3 -c 'import sys; print(sys.stdin.read().split())' < in.csv").stdout == \
        "['a,b', '1,2']\n"
    assert sb.run("python3 -c 'print(input()[::-1])' <<< hello").stdout == "olleh\n"
