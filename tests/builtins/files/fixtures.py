"""A shared workspace for the file-utility golden groups (ls, find, tree, du, stat, ...)."""

TREE = {
    "src/main.py": "print('hi')\n",
    "src/util.py": "",
    "src/lib/helper.py": "x = 1\n" * 100,
    "src/lib/data.json": '{"a": 1}\n',
    "src/README.md": "# readme\n",
    "docs/guide.txt": "guide\n",
    "docs/empty/": None,
    "build/out.o": b"\x7fELF\x02\x01\x01" + b"\0" * 60,
    "build/cache/x.tmp": "tmp",
    ".hidden/secret": "s",
    ".gitignore": "*.o\n",
    "big.bin": {"content": b"\0" * 5000},
    "script.sh": {"content": "#!/bin/sh\necho hi\n", "mode": 0o755},
    "ro.txt": {"content": "read only\n", "mode": 0o444},
    "old.txt": {"content": "old\n", "mtime": 1000000000},
    "Mixed.PY": "",
    "link_main": {"symlink": "src/main.py"},
    "link_dir": {"symlink": "src"},
    "dangling": {"symlink": "nowhere"},
}

SMALL = {
    "a.txt": "alpha\n",
    "b.py": "print(1)\n",
    "dir/c.txt": "gamma\n",
    "dir/sub/d.py": "",
    "link": {"symlink": "a.txt"},
}

TIMED = {
    "alpha.txt": {"content": "a" * 10, "mtime": 1600000000},
    "beta.log": {"content": "b" * 3000, "mtime": 1700000000},
    "gamma": {"content": "", "mtime": 1500000000},
    "delta.tar.gz": {"content": "d" * 200, "mtime": 1650000000},
    "file10": {"content": "x", "mtime": 1600000001},
    "file2": {"content": "xx", "mtime": 1600000002},
    "file1": {"content": "xxx", "mtime": 1600000003},
    "Zeta.md": {"content": "z" * 70000, "mtime": 1690000000},
    "sub/": None,
    "exe": {"content": "#!/bin/sh\n", "mode": 0o755, "mtime": 1550000000},
}

COLS = {name: "" for name in ["a", "bbbbbbbbbbbb", "c", "ddd", "eeeeeee", "f", "gg",
                              "hhhhhhhhhhhhhhh", "i", "j", "kkkkkkkkkkkkkkkkkkkkkkk", "l",
                              "mmmm", "n"]}
