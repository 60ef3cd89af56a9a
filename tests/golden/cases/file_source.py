"""Golden cases: file 5.44 on source files, scripts, CSV, databases and byte code: the text
rules (Magdir/python, c-lang, javascript, make, diff, perl, is_csv) and binary headers."""

import struct


def _sqlite(counter=5, pages=4, cookie=4, schema=4, enc=1, appid=0, user=0, wal=False):
    h = bytearray(b"SQLite format 3\0" + b"\0" * 84)
    h[16:18] = struct.pack(">H", 4096)
    h[18] = h[19] = 2 if wal else 1
    h[21:24] = b"\x40\x20\x20"
    for off, v in ((24, counter), (28, pages), (40, cookie), (44, schema), (56, enc),
                   (60, user), (68, appid), (92, counter), (96, 3040001)):
        h[off:off + 4] = struct.pack(">I", v)
    return bytes(h) + b"\0" * 3996


def _pyc(magic=3495, flags=0, ts=1704164645, size=76):
    return struct.pack("<HBBIII", magic, 13, 10, flags, ts, size) + b"\xe3" + b"\0" * 40


SOURCES = {
    "imp_from.py": "from os import path\n",
    "imp_dot.py": "from . import x\n",
    "imp_as.py": "import numpy as np\n",
    "imp_plain.py": "import os\n",
    "def_args.py": "x = 1\n\ndef f(a, b):\n    return a\n",
    "def_default.py": "def f(a=1):\n    pass\n",
    "def_init.py": "class A(object):\n  def __init__(self):\n    pass\n",
    "main_guard.py": 'if __name__ == "__main__":\n    main()\n',
    "try.py": "try:\n    x()\nexcept ValueError:\n    pass\n",
    "class.py": "class Foo(Base):\n    x = 1\n",
    "docstring.py": '"""A module."""\n',
    "crlf.py": "import os as o\r\n",
    "utf8.py": "import os as o\n# café\n",
    "bom.py": "\ufeffimport os as o\n",
    "plain.py": "x = 1\nprint(x)\n",
    "long.py": "import os as o\n" + "#" * 400 + "\n",
    "strict.js": '"use strict";\nvar a = 1;\n',
    "require.js": 'const fs = require("fs");\n',
    "exports.js": "module.exports = function () {};\n",
    "esm.js": 'import { a } from "./a.js";\nexport default a;\n',
    "export.js": "export const x = 1;\n",
    "plain.js": "console.log(1);\n",
    "include.c": "#include <stdio.h>\nint main(void) { return 0; }\n",
    "pragma.h": "#pragma once\n",
    "ifdef.h": "#ifndef X_H\n#define X_H\n#endif\n",
    "struct.c": "struct point {\n  int x;\n};\n",
    "main.c": "int main(int argc, char **argv) {\n  return 0;\n}\n",
    "ns.cpp": "namespace app {\n}\n",
    "using.cpp": "using namespace std;\n",
    "class.cpp": "class A {\n  int x;\n};\n",
    "Main.java": "public class Main {\n  public static void main(String[] a) {}\n}\n",
    "imp.java": "import java.util.List;\n",
    "objc.m": "#import <Foundation/Foundation.h>\n",
    "go.go": 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println(1) }\n',
    "Makefile": "all:\n\tcc -o x x.c\n",
    "flags.mk": "CFLAGS = -O2\n",
    "bsd.mk": '.include "other.mk"\n',
    "page.php": "<?php\necho 1;\n",
    "mod.pm": "package Foo::Bar;\n\nuse strict;\n1;\n",
    "u.diff": "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n",
    "n.diff": "diff a b\n1c1\n< a\n---\n> b\n",
    "c.diff": "*** a\n--- b\n",
    "rcs.diff": "Index: x\n",
    "doc.ps": "%!PS-Adobe-3.0\n%%Title: x\n",
    "cert.pem": "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n",
    "data.csv": "name,age\nann,31\nbob,42\n",
    "quoted.csv": 'a,"b, c",d\n1,"2",3\n4,5,6\n',
    "short.csv": "a,b\n1,2\n",
    "ragged.csv": "a,b\n1,2\n3\n",
    "crlf.csv": "a,b\r\n1,2\r\n3,4\r\n",
    "notes.md": "# Title\n\nSome *text*.\n",
    "conf.toml": "[tool]\nx = 1\n",
    "conf.yaml": "a: 1\nb: [1, 2]\n",
    "db.sqlite": _sqlite(),
    "wal.sqlite": _sqlite(counter=2, pages=2, cookie=1, wal=True),
    "ids.sqlite": _sqlite(counter=2, pages=1, cookie=0, schema=0, enc=0, appid=123, user=7),
    "u16.sqlite": _sqlite(enc=2),
    "mod.pyc": _pyc(),
    "hash.pyc": _pyc(flags=3),
    "hash_unchecked.pyc": _pyc(flags=1),
    "new.pyc": _pyc(magic=3531),
    "old.pyc": _pyc(magic=3413),
    "odd.sqlite": _sqlite()[:21] + b"\x41\x21\x20" + _sqlite()[24:],
}
FILES = dict(SOURCES)
NAMES = sorted(SOURCES)


def c(name, *args):
    return dict(name=name, argv=["file", *args], files=FILES)


CASES = [
    c("describe", *NAMES),
    c("mime_type", "--mime-type", *NAMES),
    c("mime", "-i", "data.csv", "imp_from.py", "strict.js", "include.c", "db.sqlite", "mod.pyc"),
    c("brief", "-b", "class.py", "ns.cpp", "Makefile"),
]
