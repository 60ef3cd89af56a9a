"""git, sqlite3, tar and jq on an overlaid workspace (door B copies a file up before a
library writes it) give what they give on a plain copy, and leave the host untouched."""

from __future__ import annotations

import shutil

import pysh
from tests.harness import tree_state

ENV = {"GIT_AUTHOR_NAME": "A", "GIT_AUTHOR_EMAIL": "a@example.com", "GIT_COMMITTER_NAME": "C",
       "GIT_COMMITTER_EMAIL": "c@example.com", "GIT_AUTHOR_DATE": "@1700000000 +0000",
       "GIT_COMMITTER_DATE": "@1700000000 +0000", "TZ": "UTC"}

SETUP = """
set -e
mkdir -p src old && echo 'int main(){}' > src/main.c && echo x > old/x && echo keep > README
printf '{"a":1,"b":[1,2]}' > data.json
git init -q && git add -A && git commit -qm first
sqlite3 db.sqlite 'create table t(x); insert into t values (1),(2);' && git add db.sqlite
git commit -qm db && git checkout -qb topic && echo topic > T && git add T && git commit -qm topic
git checkout -q master
"""

WORK = """
echo change >> README && rm -r old && mv src src2 && echo new > src2/new.c
git status --short; git add -A && git commit -qm second && git log --oneline --all | wc -l
git branch -a; git merge -q topic -m merged 2>&1; git log --format=%s | head -3
git gc -q 2>&1; git count-objects | cut -c1-3; git fsck 2>&1 | head -3
sqlite3 db.sqlite 'insert into t values (3); select count(*), sum(x) from t; pragma integrity_check;'
tar cf /tmp/a.tar src2 README && mkdir out && tar xf /tmp/a.tar -C out && tar tf /tmp/a.tar | sort
jq -c '.a += 1 | .b |= map(. * 10)' data.json > d2 && mv d2 data.json && jq -c . data.json
find . -path ./.git -prune -o -print | sort; cat README out/README
git status --short; git log --oneline | wc -l
"""


def _run(sb: pysh.Sandbox, script: str) -> str:
    r = sb.run(script)
    return f"{r.stdout}{r.stderr}status={r.exit_code}\n"


def test_tools_on_an_overlay_match_a_plain_copy(tmp_path):
    lower, copy = tmp_path / "lower", tmp_path / "copy"
    lower.mkdir()
    with pysh.Sandbox(str(lower), env=ENV) as sb:
        assert _run(sb, SETUP).endswith("status=0\n")
    shutil.copytree(lower, copy, symlinks=True)
    before = tree_state(str(lower))
    after = "git log --oneline | wc -l; sqlite3 db.sqlite 'select count(*) from t'"
    with pysh.Sandbox(str(copy), env=ENV) as sb:
        plain = _run(sb, WORK)
    with pysh.Sandbox(str(copy), env=ENV) as sb:  # a new session sees what the last one left
        plain_after = _run(sb, after)
    with pysh.Sandbox(str(lower), env=ENV, overlay=True) as sb:
        overlay = _run(sb, WORK)
        overlay_after = _run(sb, after)
    assert "master" in plain and "topic" in plain and "merged" in plain, plain
    assert overlay == plain
    assert overlay_after == plain_after == "5\n3\nstatus=0\n"
    assert tree_state(str(lower)) == before  # the host directory: byte for byte as it was
