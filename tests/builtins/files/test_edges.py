"""Every file utility on the edge cases: missing files, denied paths, non-UTF-8 names and
contents, empty files, directories where files are expected, read-only mounts."""

from __future__ import annotations

import os

import pytest

from tests.harness import host_changed, run_cmd, sandbox, view, view_root

NONUTF8 = b"caf\xe9".decode("utf-8", "surrogateescape")
FILES = {
    "a.txt": "alpha\n",
    "empty": "",
    "dir/inner": "x",
    "emptydir/": None,
    NONUTF8: b"bytes \xff\xfe\n",
    "escape": {"symlink": "/etc"},
}

# argv templates: {P} is the path under test
READERS = {
    "ls": ["ls", "{P}"],
    "ls_l": ["ls", "-l", "{P}"],
    "find": ["find", "{P}"],
    "du": ["du", "{P}"],
    "stat": ["stat", "{P}"],
    "realpath_e": ["realpath", "-e", "{P}"],
    "readlink_ev": ["readlink", "-ev", "{P}"],
    "cp": ["cp", "{P}", "copy"],
    "mv": ["mv", "{P}", "moved"],
    "rm": ["rm", "{P}"],
    "ln_hard": ["ln", "{P}", "hard"],
    "touch": ["touch", "{P}"],
    "chmod": ["chmod", "644", "{P}"],
    "truncate": ["truncate", "-s", "0", "{P}"],
    "mkdir": ["mkdir", "{P}/x"],
    "rmdir": ["rmdir", "{P}"],
    "mktemp": ["mktemp", "{P}/XXXXXX"],
    "df": ["df", "{P}"],
    "file": ["file", "{P}"],
    "tree": ["tree", "{P}"],
}


def _fill(argv, path):
    return [a.replace("{P}", path) for a in argv]


@pytest.mark.parametrize("name", sorted(READERS))
def test_denied_and_host_paths(name):
    with sandbox(FILES) as ex:
        host = ex.workspace_dir
        r = run_cmd(ex, _fill(READERS[name], "escape/passwd"))
        if name == "file":  # file(1) reports on stdout and exits 0
            assert r.status == 0 and "(Permission denied)" in r.out, r
        else:
            assert r.status != 0, (name, r)
        if name not in ("tree", "file"):
            assert "Permission denied" in r.err, (name, r.err)
        assert host not in r.out + r.err
        assert "/etc/passwd" not in r.out
        r = run_cmd(ex, _fill(READERS[name], "/etc/passwd"))
        if name == "file":
            assert r.status == 0 and "(No such file or directory)" in r.out, r
        else:
            assert r.status != 0, (name, r)
        if name not in ("tree", "file"):
            assert "No such file or directory" in r.err, (name, r.err)


@pytest.mark.parametrize("name", sorted(READERS))
def test_missing_file(name):
    with sandbox(FILES) as ex:
        r = run_cmd(ex, _fill(READERS[name], "nope/x" if name in ("mkdir", "mktemp", "touch",
                                                                    "truncate") else "nope"))
        if name == "file":
            assert r.out == "nope: cannot open `nope' (No such file or directory)\n"
            return
        assert r.status != 0, (name, r)
        if name != "tree":
            assert "No such file or directory" in r.err, (name, r.err)
            assert "nope" in r.err
        else:
            assert "[error opening dir]" in r.out


@pytest.mark.overlay_too
def test_non_utf8_names_round_trip():
    with sandbox(FILES) as ex:
        raw = b"caf\xe9"
        assert raw in run_cmd(ex, ["ls"]).stdout
        assert raw in run_cmd(ex, ["find", ".", "-name", "caf*"]).stdout
        assert raw in run_cmd(ex, ["tree", "-N"]).stdout
        assert b"caf\\351" in run_cmd(ex, ["tree"]).stdout
        assert raw in run_cmd(ex, ["du", "-a"]).stdout
        assert run_cmd(ex, ["file", NONUTF8]).stdout.endswith(b"ISO-8859 text\n")
        assert raw in run_cmd(ex, ["stat", "-c", "%n %s", NONUTF8]).stdout
        r = run_cmd(ex, ["cp", NONUTF8, NONUTF8 + ".bak"])
        assert r.status == 0
        assert open(view(ex, "caf\udce9.bak"), "rb").read() == \
            b"bytes \xff\xfe\n"
        assert run_cmd(ex, ["mv", NONUTF8 + ".bak", "m\udcff"]).status == 0
        assert run_cmd(ex, ["ls", "m\udcff"]).stdout == b"m\xff\n"
        r = run_cmd(ex, ["rm", "-v", "m\udcff"])
        assert r.stdout == b"removed 'm'$'\\377'\n"
        r = run_cmd(ex, ["ls", "nope\udcff"])
        assert r.stderr == b"ls: cannot access 'nope'$'\\377': No such file or directory\n"


@pytest.mark.overlay_too
def test_empty_files():
    with sandbox(FILES) as ex:
        assert run_cmd(ex, ["file", "empty"]).out == "empty: empty\n"
        assert run_cmd(ex, ["stat", "-c", "%s %F", "empty"]).out == "0 regular empty file\n"
        assert run_cmd(ex, ["du", "empty"]).out == "0\tempty\n"
        assert run_cmd(ex, ["find", ".", "-empty", "-type", "f"]).out == "./empty\n"
        assert run_cmd(ex, ["cp", "empty", "e2"]).status == 0
        assert os.path.getsize(view(ex, "e2")) == 0
        assert run_cmd(ex, ["truncate", "-s", "+3", "empty"]).status == 0
        assert open(view(ex, "empty"), "rb").read() == b"\0\0\0"
        assert run_cmd(ex, ["ls", "emptydir"]).out == ""
        assert run_cmd(ex, ["ls", "-l", "emptydir"]).out == "total 0\n"


@pytest.mark.overlay_too
def test_directories_where_files_are_expected():
    with sandbox(FILES) as ex:
        r = run_cmd(ex, ["cp", "dir", "x"])
        assert (r.status, r.err) == (1, "cp: -r not specified; omitting directory 'dir'\n")
        r = run_cmd(ex, ["rm", "dir"])
        assert (r.status, r.err) == (1, "rm: cannot remove 'dir': Is a directory\n")
        r = run_cmd(ex, ["truncate", "-s", "0", "dir"])
        assert r.err == "truncate: cannot open 'dir' for writing: Is a directory\n"
        r = run_cmd(ex, ["ln", "dir", "x"])
        assert r.err == "ln: dir: hard link not allowed for directory\n"
        r = run_cmd(ex, ["mkdir", "dir"])
        assert r.err == "mkdir: cannot create directory ‘dir’: File exists\n"
        r = run_cmd(ex, ["rmdir", "a.txt"])
        assert r.err == "rmdir: failed to remove 'a.txt': Not a directory\n"
        assert run_cmd(ex, ["file", "dir"]).out == "dir: directory\n"
        r = run_cmd(ex, ["mv", "dir", "a.txt"])
        assert r.err == "mv: cannot overwrite non-directory 'a.txt' with directory 'dir'\n"
        assert os.path.isdir(view(ex, "dir"))


def _snapshot(root):
    snap = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for n in dirnames + filenames:
            p = os.path.join(dirpath, n)
            st = os.lstat(p)
            data = open(p, "rb").read() if os.path.isfile(p) and not os.path.islink(p) else None
            snap[os.path.relpath(p, root)] = (st.st_mode, st.st_size, st.st_mtime_ns, data)
    return snap


WRITERS = [
    ["cp", "a.txt", "b.txt"],
    ["cp", "-r", "dir", "dir2"],
    ["mv", "a.txt", "b.txt"],
    ["rm", "a.txt"],
    ["rm", "-rf", "dir"],
    ["ln", "-s", "a.txt", "l"],
    ["ln", "a.txt", "h"],
    ["touch", "a.txt"],
    ["touch", "new"],
    ["chmod", "600", "a.txt"],
    ["chmod", "-R", "go-rwx", "dir"],
    ["truncate", "-s", "0", "a.txt"],
    ["mkdir", "d2"],
    ["mkdir", "-p", "d2/d3"],
    ["rmdir", "emptydir"],
    ["mktemp", "-p", ".", "XXXXXX"],
    ["find", ".", "-name", "*.txt", "-delete"],
]


@pytest.mark.parametrize("argv", WRITERS, ids=lambda a: "_".join(a))
def test_read_only_mount_refuses_writes(argv):
    with sandbox(FILES, read_only=True) as ex:
        before = _snapshot(ex.workspace_dir)
        r = run_cmd(ex, argv)
        assert r.status != 0, r
        assert "Permission denied" in r.err, r.err
        assert _snapshot(ex.workspace_dir) == before


@pytest.mark.overlay_too
def test_rm_cannot_remove_the_root_or_mount_roots():
    with sandbox(FILES) as ex:
        ws = ex.workspace_dir
        r = run_cmd(ex, ["rm", "-rf", "/"])
        assert r.status == 1
        assert r.err == ("rm: it is dangerous to operate recursively on '/'\n"
                         "rm: use --no-preserve-root to override this failsafe\n")
        r = run_cmd(ex, ["rm", "-rf", "/batch/.."])
        assert r.err == "rm: refusing to remove '.' or '..' directory: skipping '/batch/..'\n"
        assert run_cmd(ex, ["ln", "-s", "/", "rootlink"]).status == 1  # a link out of the mount
        os.symlink("/", os.path.join(ws, "rootlink"))  # as the host could have planted it
        host_changed(ex)
        r = run_cmd(ex, ["rm", "-rf", "rootlink/"])  # a link to '/' names nothing in here
        assert r.status == 1 and os.path.exists(view(ex, "a.txt"))
        r = run_cmd(ex, ["rm", "-rf", "//"])
        assert r.status == 1 and "dangerous to operate recursively" in r.err
        r = run_cmd(ex, ["rm", "-rf", "/tmp/../"])
        assert r.status == 1 and os.path.isdir(ex.temp_dir)
        r = run_cmd(ex, ["rm", "-rf", "--no-preserve-root", "/"])
        assert r.status == 1 and "Permission denied" in r.err
        assert os.path.exists(view(ex, "a.txt"))
        r = run_cmd(ex, ["rm", "-rf", "/tmp"])
        assert r.err == "rm: cannot remove '/tmp': Device or resource busy\n"
        assert os.path.isdir(ex.temp_dir)
        r = run_cmd(ex, ["rm", "-rf", "/batch"])
        assert r.status == 1
        assert r.err == "rm: cannot remove '/batch': Device or resource busy\n"
        assert os.path.isdir(ws) and os.listdir(view_root(ex)) == []
        r = run_cmd(ex, ["rmdir", "/tmp"])
        assert r.status == 1 and "Device or resource busy" in r.err
        r = run_cmd(ex, ["mv", "/tmp", "/batch/t"])
        assert r.status == 1 and "Device or resource busy" in r.err
