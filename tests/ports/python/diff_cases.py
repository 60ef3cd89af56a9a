"""Agent-style command lines run twice: real bash + the host's CPython, and pysh's python3.

Each case is one bash command line run in a fresh copy of FIXTURE (the workspace,
``/batch``). ``record_diff.py`` runs them with the real tools and stores stdout, the exit
status, the last line of stderr and the files left behind in ``diff_expected.json``;
``test_differential.py`` runs them through pysh and compares.

Keep the cases deterministic and free of version-specific text: the goldens come from
the host's CPython 3.11, pysh runs CPython 3.12 (see the notes in the test).
"""

from __future__ import annotations

FIXTURE: dict[str, str] = {
    "data.json": '{"users": [{"name": "ann", "age": 31, "tags": ["a", "b"]}, '
                 '{"name": "bob", "age": 25, "tags": []}, '
                 '{"name": "cy", "age": 40, "tags": ["b"]}], "version": 2}\n',
    "data.csv": "name,dept,salary\nann,eng,100\nbob,ops,80\ncy,eng,120\ndee,sales,90\n",
    "notes.txt": "TODO: write tests\nemail ann@example.com about the release\n"
                 "done: parser\nTODO: fix bug 42\ncontact bob@example.org\n",
    "config.ini": "[server]\nhost = localhost\nport = 8080\n\n[db]\nname = app.db\n",
    "logs/app.log": "2024-01-01 10:00:00 INFO start\n2024-01-01 10:00:01 WARN slow query\n"
                    "2024-01-01 10:00:02 ERROR failed to connect\n"
                    "2024-01-01 10:00:03 INFO retry\n2024-01-01 10:00:04 ERROR timeout\n",
    "src/app.py": "import os\n\n\ndef greet(name):\n    return 'hello ' + name\n\n\n"
                  "class Counter:\n    def __init__(self):\n        self.n = 0\n\n"
                  "    def inc(self):\n        self.n += 1\n        return self.n\n",
    "src/util.py": "def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n",
    "src/test_util.py": "import unittest\nfrom util import add, mul\n\n\n"
                        "class T(unittest.TestCase):\n    def test_add(self):\n"
                        "        self.assertEqual(add(2, 3), 5)\n\n    def test_mul(self):\n"
                        "        self.assertEqual(mul(2, 3), 6)\n",
    "tools/cli.py": "import argparse\n\np = argparse.ArgumentParser(prog='cli', description='A tool.')\n"
                    "p.add_argument('files', nargs='*')\np.add_argument('-n', type=int, default=1)\n"
                    "p.add_argument('--upper', action='store_true')\nargs = p.parse_args()\n"
                    "for f in args.files:\n    with open(f) as fh:\n"
                    "        text = fh.read()\n    text = text.upper() if args.upper else text\n"
                    "    print(''.join(text.splitlines(True)[:args.n]), end='')\n",
    "README.md": "# Project\n\nSome text.\n\n## Usage\n\nRun it.\n",
}

# name -> bash command line (run in /batch)
CASES: dict[str, str] = {
    # -- JSON ------------------------------------------------------------------------
    "json_names": """python3 -c 'import json; d = json.load(open("data.json")); print([u["name"] for u in d["users"]])'""",
    "json_filter_sort": """python3 -c '
import json
d = json.load(open("data.json"))
for u in sorted(d["users"], key=lambda u: -u["age"]):
    print(u["name"], u["age"])'""",
    "json_stdin": """cat data.json | python3 -c 'import json,sys; print(json.load(sys.stdin)["version"])'""",
    "json_tool": "python3 -m json.tool data.json",
    "json_tool_sort": "echo '{\"b\": 1, \"a\": [1, 2]}' | python3 -m json.tool --sort-keys",
    "json_tool_bad": "echo '{bad' | python3 -m json.tool; echo status=$?",
    "json_rewrite": """python3 -c '
import json
d = json.load(open("data.json"))
d["version"] += 1
d["users"].append({"name": "eve", "age": 22, "tags": []})
json.dump(d, open("data.json", "w"), indent=2)
print("ok")'; cat data.json""",
    "json_dumps_unicode": """python3 -c 'import json; print(json.dumps({"k": "é", "n": None, "t": True}, ensure_ascii=False))'""",
    "json_lines": """printf '{"a":1}\\n{"a":2}\\n{"a":3}\\n' | python3 -c 'import json,sys; print(sum(json.loads(l)["a"] for l in sys.stdin))'""",
    "json_to_csv": """python3 - <<'EOF'
import csv, json
users = json.load(open("data.json"))["users"]
with open("users.csv", "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=["name", "age"])
    w.writeheader()
    for u in users:
        w.writerow({"name": u["name"], "age": u["age"]})
EOF
cat users.csv""",
    # -- CSV ---------------------------------------------------------------------------
    "csv_sum": """python3 -c 'import csv; print(sum(int(r["salary"]) for r in csv.DictReader(open("data.csv"))))'""",
    "csv_group": """python3 - <<'EOF'
import csv
from collections import defaultdict
tot = defaultdict(int)
for row in csv.DictReader(open("data.csv")):
    tot[row["dept"]] += int(row["salary"])
for k in sorted(tot):
    print(f"{k}: {tot[k]}")
EOF""",
    "csv_filter_write": """python3 -c '
import csv
rows = list(csv.reader(open("data.csv")))
with open("eng.csv", "w", newline="") as f:
    csv.writer(f).writerows([rows[0]] + [r for r in rows[1:] if r[1] == "eng"])'; cat eng.csv""",
    "csv_stdin_columns": """cut -d, -f1,3 data.csv | python3 -c 'import csv,sys; [print(r[1].rjust(5), r[0]) for r in csv.reader(sys.stdin)]'""",
    "csv_max": """python3 -c 'import csv; r = max(csv.DictReader(open("data.csv")), key=lambda r: int(r["salary"])); print(r["name"])'""",
    # -- regex edits ---------------------------------------------------------------------
    "re_emails": """python3 -c 'import re; print(re.findall(r"[\\w.]+@[\\w.]+", open("notes.txt").read()))'""",
    "re_sub_inplace": """python3 -c '
import re
p = "notes.txt"
s = open(p).read()
s = re.sub(r"^TODO:", "DONE:", s, flags=re.M)
open(p, "w").write(s)'; cat notes.txt""",
    "re_count_levels": """python3 -c '
import re, collections
c = collections.Counter(re.search(r" (INFO|WARN|ERROR) ", l).group(1) for l in open("logs/app.log"))
print(sorted(c.items()))'""",
    "re_groups": """echo 'version=1.2.3' | python3 -c 'import re,sys; m = re.match(r"version=(\\d+)\\.(\\d+)\\.(\\d+)", sys.stdin.read()); print(m.groups(), m.group(2))'""",
    "re_rename_function": """python3 - <<'EOF'
import re
from pathlib import Path
p = Path("src/app.py")
p.write_text(re.sub(r"\\bgreet\\b", "salute", p.read_text()))
EOF
grep -n salute src/app.py""",
    "re_split": """python3 -c 'import re; print(re.split(r"[,;\\s]+", "a, b;c  d"))'""",
    # -- pathlib and os -------------------------------------------------------------------
    "pathlib_glob": """python3 -c 'from pathlib import Path; print(sorted(str(p) for p in Path(".").glob("*.json")))'""",
    "pathlib_rglob": """python3 -c 'from pathlib import Path; print(sorted(str(p) for p in Path(".").rglob("*.py")))'""",
    "pathlib_write_mkdir": """python3 -c '
from pathlib import Path
d = Path("out/deep/er")
d.mkdir(parents=True, exist_ok=True)
(d / "x.txt").write_text("hello\\n")
print((d / "x.txt").exists(), (d / "x.txt").stat().st_size)'; cat out/deep/er/x.txt""",
    "pathlib_parts": """python3 -c 'from pathlib import Path; p = Path("src/app.py"); print(p.name, p.stem, p.suffix, p.parent, p.with_suffix(".txt"))'""",
    "pathlib_resolve": """cd src && python3 -c 'from pathlib import Path; print(Path("app.py").resolve(), Path.cwd())'""",
    "os_walk": """python3 -c '
import os
for root, dirs, files in sorted(os.walk(".")):
    dirs.sort()
    print(root, sorted(files))'""",
    "os_listdir_sizes": """python3 -c '
import os
for n in sorted(os.listdir(".")):
    if os.path.isfile(n):
        print(n, os.path.getsize(n))'""",
    "os_getcwd_sub": "mkdir -p sub/dir && cd sub/dir && python3 -c 'import os; print(os.getcwd())'",
    "os_rename_remove": """python3 -c '
import os
os.rename("README.md", "README.txt")
os.remove("notes.txt")
os.makedirs("a/b")
os.rmdir("a/b")
print(sorted(os.listdir(".")))'""",
    "os_environ": "FOO=bar python3 -c 'import os; print(os.environ[\"FOO\"], os.environ.get(\"NOPE\", \"-\"))'",
    "os_exists_missing": """python3 -c 'import os; print(os.path.exists("nope"), os.path.isdir("src"), os.path.isfile("src"))'""",
    "shutil_copy_tree": """python3 -c '
import shutil
shutil.copytree("src", "src2")
shutil.copy("data.csv", "data2.csv")
shutil.rmtree("logs")'; ls -R src2; ls""",
    "glob_module": """python3 -c 'import glob; print(sorted(glob.glob("**/*.py", recursive=True)))'""",
    "fnmatch_filter": """python3 -c 'import fnmatch, os; print(sorted(fnmatch.filter(os.listdir("."), "*.*")))'""",
    "open_missing": "python3 -c 'open(\"missing.txt\")'; echo status=$?",
    "write_append": """python3 -c 'open("log.txt", "a").write("one\\n")'; python3 -c 'open("log.txt", "a").write("two\\n")'; cat log.txt""",
    "binary_roundtrip": """python3 -c 'open("b.bin", "wb").write(bytes(range(256)))'; python3 -c 'd = open("b.bin", "rb").read(); print(len(d), d[:4], d[-1])'""",
    "seek_tell": """python3 -c '
f = open("data.csv", "rb")
f.seek(5)
print(f.read(4), f.tell())
f.seek(-4, 2)
print(f.read())'""",
    "read_lines_count": "python3 -c 'print(sum(1 for _ in open(\"logs/app.log\")))'",
    "tempfile_in_cwd": """python3 -c '
import tempfile, os
with tempfile.NamedTemporaryFile("w", dir=".", suffix=".tmp", delete=False) as f:
    f.write("x")
    name = f.name
os.replace(name, "final.txt")
print(open("final.txt").read())'""",
    # -- heredoc edits (the agent's favourite) ---------------------------------------------
    "heredoc_replace_line": """python3 - <<'EOF'
p = "config.ini"
lines = open(p).read().splitlines()
lines = ["port = 9090" if l.startswith("port") else l for l in lines]
open(p, "w").write("\\n".join(lines) + "\\n")
EOF
cat config.ini""",
    "heredoc_insert_function": """python3 - <<'EOF'
from pathlib import Path
p = Path("src/util.py")
s = p.read_text()
s = s.replace("def mul(a, b):", "def sub(a, b):\\n    return a - b\\n\\n\\ndef mul(a, b):")
p.write_text(s)
print(s.count("def "))
EOF
python3 -c 'import sys; sys.path.insert(0, "src"); import util; print(util.sub(5, 2))'""",
    "heredoc_configparser": """python3 - <<'EOF'
import configparser
c = configparser.ConfigParser()
c.read("config.ini")
print(c["server"]["host"], c.getint("server", "port"), c.sections())
c["db"]["name"] = "prod.db"
with open("config.ini", "w") as f:
    c.write(f)
EOF
cat config.ini""",
    "heredoc_markdown_toc": """python3 - <<'EOF'
for line in open("README.md"):
    if line.startswith("#"):
        level = len(line) - len(line.lstrip("#"))
        print("  " * (level - 1) + "- " + line.strip("# \\n"))
EOF""",
    "heredoc_args": """python3 - one two <<'EOF'
import sys
print(sys.argv)
EOF""",
    # -- scripts, argparse -------------------------------------------------------------------
    "argparse_run": "python3 tools/cli.py -n 2 notes.txt data.csv",
    "argparse_upper": "python3 tools/cli.py --upper notes.txt",
    "argparse_help": "python3 tools/cli.py --help",
    "argparse_bad": "python3 tools/cli.py -n x; echo status=$?",
    "script_argv": "printf 'import sys\\nprint(sys.argv[1:], len(sys.argv))\\n' > s.py && python3 s.py a 'b c' d",
    "script_name_main": "printf 'def main():\\n    print(\"main ran\", __name__)\\n\\nif __name__ == \"__main__\":\\n    main()\\n' > m.py && python3 m.py",
    "script_import_sibling": "printf 'from util import add\\nprint(add(2, 40))\\n' > src/use.py && python3 src/use.py",
    "script_shebang": "printf '#!/usr/bin/env python3\\nimport sys\\nprint(\"ran\", sys.argv[1:])\\n' > run.py && chmod +x run.py && ./run.py x y",
    "module_run": "cd src && python3 -m util && python3 -c 'import app; print(app.greet(\"x\"), app.Counter().inc())'",
    "py_compile_ok": "python3 -m py_compile src/app.py && echo compiled",
    "py_compile_bad": "printf 'def f(:\\n' > bad.py; python3 -m py_compile bad.py; echo status=$?",
    "syntax_error": "python3 -c 'def f(:'; echo status=$?",
    # -- language ----------------------------------------------------------------------------
    "dataclass": """python3 - <<'EOF'
from dataclasses import dataclass, field, asdict
@dataclass(order=True)
class Item:
    price: float
    name: str = field(compare=False)
    tags: list = field(default_factory=list)
items = sorted([Item(3.5, "b"), Item(1.25, "a", ["x"])])
print(items[0], asdict(items[1]))
EOF""",
    "generators": """python3 -c '
def fib():
    a, b = 0, 1
    while True:
        yield a
        a, b = b, a + b
import itertools
print(list(itertools.islice(fib(), 12)))
print(sum(x * x for x in range(10) if x % 2))'""",
    "classes_inheritance": """python3 - <<'EOF'
class Shape:
    def area(self):
        raise NotImplementedError
    def __repr__(self):
        return f"{type(self).__name__}({self.area():.2f})"
class Sq(Shape):
    def __init__(self, s): self.s = s
    def area(self): return self.s ** 2
class Circle(Shape):
    def __init__(self, r): self.r = r
    def area(self): return 3.14159 * self.r ** 2
print(sorted([Sq(2), Circle(1), Sq(1)], key=lambda s: s.area()))
print(isinstance(Sq(1), Shape), Sq.__mro__[1].__name__)
EOF""",
    "comprehensions": """python3 -c 'print({k: v for k, v in zip("abc", range(3))}, [i * j for i in range(3) for j in range(2)], {x % 3 for x in range(10)})'""",
    "exceptions_handled": """python3 - <<'EOF'
class AppError(Exception):
    pass
try:
    try:
        1 / 0
    except ZeroDivisionError as e:
        raise AppError("bad") from e
except AppError as e:
    print(type(e).__name__, e, type(e.__cause__).__name__)
finally:
    print("finally")
EOF""",
    "context_manager": """python3 - <<'EOF'
from contextlib import contextmanager
@contextmanager
def tag(n):
    print(f"<{n}>")
    yield
    print(f"</{n}>")
with tag("a"), tag("b"):
    print("body")
EOF""",
    "decorators_lru": """python3 -c '
from functools import lru_cache, wraps
@lru_cache(maxsize=None)
def f(n): return n if n < 2 else f(n - 1) + f(n - 2)
print(f(50), f.cache_info().hits)'""",
    "stdlib_collections": """python3 -c '
from collections import Counter, deque, namedtuple, OrderedDict
P = namedtuple("P", "x y")
d = deque([1, 2, 3]); d.rotate(1)
print(Counter("mississippi").most_common(2), list(d), P(1, 2)._asdict())'""",
    "stdlib_misc": """python3 -c '
import math, statistics, decimal, fractions, hashlib, base64, textwrap
print(math.gcd(12, 18), statistics.median([3, 1, 2]), decimal.Decimal("0.1") + decimal.Decimal("0.2"))
print(fractions.Fraction(3, 6), hashlib.sha256(b"x").hexdigest()[:12], base64.b64encode(b"hi").decode())
print(textwrap.fill("a b c d e f g", width=5))'""",
    "string_formatting": """python3 -c 'x = 3.14159; print(f"{x:.2f} {x:>10.3f} {42:05d} {255:#x} {1234567:,}"); print("%s-%d" % ("a", 5))'""",
    "sorting_keys": """python3 -c 'w = "banana Apple cherry apple".split(); print(sorted(w), sorted(w, key=str.lower), sorted(w, key=len, reverse=True))'""",
    "datetime_fixed": """python3 -c '
from datetime import datetime, timedelta, date
d = datetime(2024, 1, 31, 12, 30)
print(d + timedelta(days=1), d.strftime("%Y-%m-%d %H:%M"), date(2024, 3, 1) - date(2024, 2, 1))
print(datetime.strptime("2024-05-06", "%Y-%m-%d").isoformat())'""",
    "typing_enum": """python3 - <<'EOF'
from enum import Enum, auto
from typing import NamedTuple, Optional
class Color(Enum):
    RED = auto()
    GREEN = auto()
class Pt(NamedTuple):
    x: int
    y: Optional[int] = None
print(list(Color), Color["GREEN"].value, Pt(1))
EOF""",
    "walrus_match": """python3 - <<'EOF'
def kind(v):
    match v:
        case {"type": "user", "name": str(n)}:
            return f"user {n}"
        case [x, y]:
            return f"pair {x},{y}"
        case _:
            return "other"
print(kind({"type": "user", "name": "ann"}), kind([1, 2]), kind(3))
if (n := len("hello")) > 3:
    print(n)
EOF""",
    # -- sqlite3 on a workspace file -------------------------------------------------------------
    "sqlite_create_query": """python3 - <<'EOF'
import sqlite3
con = sqlite3.connect("app.db")
con.execute("create table t (id integer primary key, name text, n int)")
con.executemany("insert into t (name, n) values (?, ?)", [("a", 1), ("b", 2), ("c", 3)])
con.commit()
print(con.execute("select count(*), sum(n) from t").fetchone())
con.close()
EOF
python3 -c 'import sqlite3; print(sqlite3.connect("app.db").execute("select name from t where n > 1 order by name").fetchall())'""",
    "sqlite_from_csv": """python3 - <<'EOF'
import csv, sqlite3
con = sqlite3.connect("people.db")
con.execute("create table p (name, dept, salary int)")
con.executemany("insert into p values (?, ?, ?)", [(r["name"], r["dept"], int(r["salary"])) for r in csv.DictReader(open("data.csv"))])
con.commit()
for row in con.execute("select dept, avg(salary) from p group by dept order by dept"):
    print(row)
EOF""",
    "sqlite_update_transaction": """python3 - <<'EOF'
import sqlite3
con = sqlite3.connect("k.db")
con.execute("create table kv (k text primary key, v text)")
with con:
    con.execute("insert into kv values ('a', '1')")
try:
    with con:
        con.execute("insert into kv values ('b', '2')")
        con.execute("insert into kv values ('a', 'dup')")
except sqlite3.IntegrityError as e:
    print("rolled back:", e)
print(con.execute("select * from kv").fetchall())
EOF""",
    # -- pipes in and out ----------------------------------------------------------------------
    "pipe_out_head": "python3 -c 'for i in range(100000): print(i)' | head -3",
    "pipe_in_yes": "yes | head -1000 | python3 -c 'import sys; print(len(sys.stdin.readlines()))'",
    "pipe_between": "seq 1 10 | python3 -c 'import sys; [print(int(l) ** 2) for l in sys.stdin]' | python3 -c 'import sys; print(sum(map(int, sys.stdin)))'",
    "pipe_sort_uniq": "python3 -c 'import json; [print(u[\"name\"]) for u in json.load(open(\"data.json\"))[\"users\"] for _ in range(2)]' | sort | uniq -c",
    "pipe_grep_in": "grep ERROR logs/app.log | python3 -c 'import sys; print([l.split()[-1] for l in sys.stdin])'",
    "stdin_input": "printf 'ann\\n42\\n' | python3 -c 'n = input(\"name? \"); a = int(input()); print(f\"{n} is {a}\")'",
    "stdin_eof": "python3 -c 'import sys; print(repr(sys.stdin.read()))' < /dev/null",
    "stdout_stderr_split": "python3 -c 'import sys; print(\"out\"); print(\"err\", file=sys.stderr)' 2>/dev/null",
    "stderr_to_stdout": "python3 -c 'import sys; sys.stderr.write(\"to err\\n\")' 2>&1 | tr a-z A-Z",
    "redirect_to_file": "python3 -c 'print(\"saved\")' > out.txt && cat out.txt",
    "unbuffered_order": "python3 -u -c 'import sys; print(\"a\"); sys.stderr.write(\"b\\n\"); print(\"c\")' 2>&1",
    "command_substitution": "n=$(python3 -c 'print(6 * 7)'); echo \"answer=$n\"",
    "xargs_python": "printf 'a\\nb\\n' | xargs -I{} python3 -c 'import sys; print(sys.argv[1].upper())' {}",
    "while_read_loop": "printf '1\\n2\\n3\\n' | while read n; do python3 -c \"print($n * 10)\"; done",
    # -- exit statuses and tracebacks --------------------------------------------------------
    "exit_code": "python3 -c 'import sys; sys.exit(3)'; echo status=$?",
    "exit_message": "python3 -c 'import sys; sys.exit(\"fatal: no input\")'; echo status=$?",
    "exit_zero_none": "python3 -c 'raise SystemExit'; echo status=$?",
    "uncaught_exception": "python3 -c 'raise ValueError(\"boom\")'; echo status=$?",
    "traceback_nested": "printf 'def a():\\n    b()\\n\\ndef b():\\n    {}[\"k\"]\\n\\na()\\n' > tb.py; python3 tb.py; echo status=$?",
    "and_or_chain": "python3 -c 'import sys; sys.exit(1)' || echo failed; python3 -c 'pass' && echo passed",
    "set_e_script": "set -e; python3 -c 'print(1)'; python3 -c 'import sys; sys.exit(2)'; echo unreachable",
    "keyboard_like_exit": "python3 -c 'import os; os._exit(7)'; echo status=$?",
    "assert_fail": "python3 -c 'assert 1 == 2, \"math\"'; echo status=$?",
    "import_error": "python3 -c 'import no_such_module'; echo status=$?",
    "missing_script": "python3 nope.py; echo status=$?",
    # -- unittest, doctest, timeit, base64 --------------------------------------------------------
    "unittest_pass": "cd src && python3 -m unittest -q test_util; echo status=$?",
    "unittest_discover": "cd src && python3 -m unittest discover -q 2>&1 | tail -1",
    "unittest_fail": """printf 'import unittest\\nclass T(unittest.TestCase):\\n    def test_x(self):\\n        self.assertEqual(1, 2)\\nunittest.main()\\n' > t_fail.py; python3 t_fail.py 2>&1 | grep -E '^(FAIL|FAILED|AssertionError)'; echo""",
    "doctest_mod": """printf 'def sq(x):\\n    \"\"\"\\n    >>> sq(3)\\n    9\\n    \"\"\"\\n    return x * x\\n' > dt.py; python3 -m doctest dt.py && echo doctest-ok""",
    "timeit_runs": "python3 -m timeit -n 10 -r 1 'sum(range(10))' | grep -c 'loop'",
    "base64_module": "echo hello | python3 -m base64 | python3 -m base64 -d",
    "version_flag": "python3 -c 'import sys; print(sys.version_info[0])'",
    "isolated_flags": "python3 -I -B -E -c 'import sys; print(sys.flags.isolated, sys.dont_write_bytecode)'",
    # -- text processing ---------------------------------------------------------------------------
    "word_freq": "python3 -c 'import collections, re; w = re.findall(r\"[a-z]+\", open(\"notes.txt\").read().lower()); print(collections.Counter(w).most_common(3))'",
    "dedupe_lines": "printf 'b\\na\\nb\\nc\\na\\n' | python3 -c 'import sys; seen = set(); [print(l, end=\"\") for l in sys.stdin if not (l in seen or seen.add(l))]'",
    "unicode_text": "printf 'héllo wörld\\n' > u.txt; python3 -c 'print(open(\"u.txt\", encoding=\"utf-8\").read().upper(), len(\"héllo\"))'",
    "line_numbers": "python3 -c '[print(f\"{i:3}: {l}\", end=\"\") for i, l in enumerate(open(\"README.md\"), 1)]'",
}
