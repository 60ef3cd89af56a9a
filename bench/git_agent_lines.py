"""git as an agent types it, on a real project: pysh's port against git 2.39, line by line.

    python bench/git_agent_lines.py [--sdist click-8.1.7.tar.gz] [-v] [-k SUBSTR] [--keep DIR]

A repository is built by the real git from a real project's sources (click 8.1.7's sdist,
fetched with ``pip download`` unless --sdist names it) with a made-up history: 40+ commits,
annotated and lightweight tags, a remote with remote-tracking branches, packed refs and
packed plus loose objects, merges, a rename, an uninitialised submodule, .gitattributes,
CRLF and binary files, a mode change, a symlink, an empty commit and local changes. A
second clone has the submodule initialised and a detached HEAD.

Every line of LINES runs on its own fresh copy of the clone, once with the real git (bash)
and once with pysh (``pysh --sandbox``, one process for all lines); stdout, stderr and exit
status are compared. Prints one line per command (ok/FAIL), the mismatches' diffs with -v,
and the count of identical lines. Refusals by design (network, interactive) are counted
like any other line: they match when pysh says what git says.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

ENV = {
    "GIT_AUTHOR_NAME": "A U Thor", "GIT_AUTHOR_EMAIL": "author@example.com",
    "GIT_COMMITTER_NAME": "C O Mitter", "GIT_COMMITTER_EMAIL": "committer@example.com",
    "GIT_AUTHOR_DATE": "@1700000000 +0000", "GIT_COMMITTER_DATE": "@1700000000 +0000",
    "GIT_CONFIG_NOSYSTEM": "1", "LC_ALL": "C.UTF-8", "TZ": "UTC",
    "GIT_TEST_DATE_NOW": "1700100000",
}

# The history, made by the real git (bash; $SDIST is the tarball, $R the build directory).
BUILD = r'''
set -e
cd $R
export HOME=$R/home GIT_CONFIG_NOSYSTEM=1; mkdir -p $HOME
git config --global protocol.file.allow always
git config --global init.defaultBranch main
n=0
d(){ n=$((n+1)); export GIT_AUTHOR_DATE="@$((1690000000+n*3607)) +0200" GIT_COMMITTER_DATE="@$((1690000000+n*3607+30)) +0200"; }
who(){ export GIT_AUTHOR_NAME="$1" GIT_AUTHOR_EMAIL="$2" GIT_COMMITTER_NAME="$1" GIT_COMMITTER_EMAIL="$2"; }
who "Pallets Dev" "dev@pallets.example"
tar xzf $SDIST
SRC=$(ls -d $R/click-*/)
# the submodule's repository: click's examples
mkdir sub && cd sub && git init -q && cp -r $SRC/examples/* . 2>/dev/null || true
git add -A && d && git commit -qm "examples: initial import" && echo "# extra" >> README && git add -A && d && git commit -qm "examples: readme note" && cd ..
git clone -q --bare sub sub.git
mkdir work && cd work && git init -q
for f in README.rst LICENSE.rst setup.py setup.cfg pyproject.toml MANIFEST.in CHANGES.rst; do [ -f $SRC/$f ] && cp $SRC/$f .; done
git add -A && d && git commit -qm "Initial commit: project metadata"
mkdir -p src/click
for f in $(ls $SRC/src/click | sort); do
  cp $SRC/src/click/$f src/click/$f; git add src/click/$f; d
  who "$( [ $((n%3)) = 0 ] && echo 'Jane Doe' || echo 'Pallets Dev')" "$( [ $((n%3)) = 0 ] && echo jane@example.org || echo dev@pallets.example)"
  git commit -qm "Add $f" -m "Imported from the sdist."
done
git tag v0.1
git tag -a v0.2 -m "Release 0.2" HEAD~3
mkdir -p tests && cp $SRC/tests/*.py tests/ && git add tests && d && git commit -qm "Add the test suite"
cp -r $SRC/docs docs && git add docs && d && git commit -qm "docs: import"
printf '* text=auto\n*.bat eol=crlf\n*.png binary\n*.dat -diff\n' > .gitattributes
printf 'echo hi\r\nexit 0\r\n' > run.bat
python3 -c "import sys; sys.stdout.buffer.write(bytes((i * 37 + 11) % 256 for i in range(300)))" > docs/logo.png
printf 'a\0b\0c' > data.dat
git add -A && d && git commit -qm "Attributes, a batch file, binary files"
ln -s src/click/core.py core_link.py; chmod +x docs/conf.py
git add -A && d && git commit -qm "A symlink and an executable conf.py"
d && git commit -q --allow-empty -m "Empty commit: CI trigger"
git checkout -q -b feature/rename
git mv src/click/_compat.py src/click/compat.py && sed -i 's/_compat/compat/' src/click/__init__.py && d && git commit -qam "Rename _compat to compat"
sed -i '1a # feature note' src/click/core.py && d && git commit -qam "core: feature note"
git checkout -q main
sed -i '1a # main note' src/click/types.py && d && git commit -qam "types: main note"
d && git merge -q --no-ff -m "Merge branch 'feature/rename'" feature/rename
git tag -a v1.0 -m "Version 1.0"
d && git submodule -q add ../sub.git ext/examples && d && git commit -qm "Add the examples submodule"
for i in 1 2 3 4 5; do sed -i "\$a # change $i" src/click/utils.py; d; git commit -qam "utils: change $i"; done
sed -i 's/def echo(/def echo(  /; s/^    """Print a message/    """Print  a message/' src/click/utils.py && d && git commit -qam "utils: echo spacing"
git checkout -q -b topic HEAD~2
sed -i '1a # topic' src/click/parser.py && sed -i '$a # topic end' src/click/utils.py && d && git commit -qam "parser: topic work"
git checkout -q main
sed -i '$a # main end' src/click/utils.py && d && git commit -qam "utils: main end"
git tag light-tag HEAD~1
cd .. && git clone -q --bare work origin.git
git clone -q origin.git other && cd other && who "Other Person" "other@example.com"
sed -i '1a # upstream' src/click/termui.py && d && git commit -qam "termui: upstream change" && git push -q origin main && cd ..
git clone -q origin.git proj && cd proj
who "Pallets Dev" "dev@pallets.example"
git reset -q --hard HEAD~1
sed -i '1a # local' src/click/decorators.py && d && git commit -qam "decorators: local change"
git checkout -q -b wip && sed -i '1a # wip' src/click/shell_completion.py && d && git commit -qam "wip: completion" && git checkout -q main
git gc -q
echo '# loose' >> README.rst && d && git commit -qam "README: loose object"
echo "# modified" >> src/click/globals.py
sed -i 's/^def get_current_context(silent: bool = False)/def  get_current_context(silent: bool = False) /' src/click/globals.py
echo "# staged" >> src/click/testing.py && git add src/click/testing.py
echo "new" > notes.txt
mkdir -p scratch && echo "scratch" > scratch/s.txt
rm tests/conftest.py
printf 'build/\n*.pyc\n' > .git/info/exclude; mkdir -p build; echo x > build/out.pyc
cd .. && git clone -q origin.git proj2 && cd proj2 && git submodule -q update --init && git checkout -q HEAD~3
cd $R && rm -rf click-*/ other
'''

# A merge with conflicts in src/click/utils.py (both ends changed) left for the line to look at.
CONFLICT = "git merge topic >/dev/null; "

LINES = r"""
git status
git status --short
git status -sb
git status --porcelain
git status --porcelain=v2
git status --porcelain=v2 --branch
git status --ignored
git status -uall
git status -uno
git status --short -- src
git diff
git diff --stat
git diff --name-only
git diff --name-status
git diff --numstat
git diff --shortstat
git diff --summary
git diff --cached
git diff --staged --stat
git diff HEAD
git diff HEAD~3 HEAD --stat
git diff v1.0 HEAD -- src/click/utils.py
git diff origin/main
git diff origin/main...HEAD --stat
git diff -U1 src/click/globals.py
git diff --word-diff
git diff --word-diff=plain
git diff --word-diff=porcelain
git diff --word-diff-regex=. src/click/globals.py
git diff --color-words
git diff --color-words HEAD~1 HEAD
git diff --word-diff HEAD~1 HEAD
git diff -M --stat v0.2 v1.0
git diff --name-status v0.2 v1.0
git diff HEAD~1 -- README.rst
git diff --check
git diff --check HEAD~1 HEAD
git diff -w HEAD~1 HEAD
git diff -b HEAD~1 HEAD
git diff --ignore-all-space --stat HEAD~1 HEAD
git diff -w
git diff --ignore-blank-lines HEAD~3 HEAD
git diff --stat=40 HEAD~8 HEAD
git diff --stat=60,20 v1.0 HEAD
git diff --dirstat v0.2 HEAD
git diff --dirstat=files v0.2 HEAD
git merge origin/topic; git diff
git merge origin/topic; git diff --cc
git merge origin/topic; git diff --ours
git merge origin/topic; git diff --theirs
git merge origin/topic; git diff --base
git merge origin/topic; git diff --name-only
git merge origin/topic; git diff --stat
git merge origin/topic; git status --short
git merge origin/topic; git diff HEAD --stat
git show HEAD~9
git show --cc HEAD~9
git show -c HEAD~9
git show -m --stat HEAD~9 | head -20
git log
git log --oneline
git log --oneline -5
git log --oneline --graph --all
git log --oneline --decorate -10
git log --stat -3
git log --numstat -2
git log --shortstat -3
git log --name-status -3
git log --name-only -2
git log -p -1
git log --oneline -- src/click/compat.py
git log --oneline --follow -- src/click/compat.py
git log --follow --stat --oneline -- src/click/compat.py | head -20
git log --follow --name-status --format=%s src/click/compat.py | head -12
git log --oneline --full-history -- src/click/compat.py
git log --oneline --full-history -- src/click/core.py
git log --format='%H %an %ae %ad %s' -3
git log --format='%h %ar %cr %s' -3
git log --format='%h %d %D' -5
git log --format='%h %P %p %T %t' -3
git log --format='%an <%ae>%n%b' -2
git log --format='%cd %cn %ce' --date=iso -2
git log --date=short --format='%ad %s' -4
git log --date=format:%Y-%m --format='%ad %s' -3
git log --date=relative -2
git log --date=iso-strict -1
git log --date=rfc -1
git log --date=unix -1 --format=%ad
git log --since=2023-07-22 --oneline
git log --until=2023-07-22 --oneline | head -3
git log --author=Jane --oneline
git log --grep=utils --oneline
git log --grep=UTILS -i --oneline
git log --merges --oneline
git log --no-merges --oneline -5
git log --first-parent --oneline -8
git log --reverse --oneline -3
git log -S'main note' --oneline
git log -G'change [0-9]' --oneline
git log -L 1,3:src/click/types.py --oneline
git log -L 10,14:src/click/utils.py --format=%s
git log -L '/def echo/,+3:src/click/utils.py' --oneline
git log -L :get_current_context:src/click/globals.py --oneline
git log -L :echo:src/click/utils.py -s --oneline
git log -L 1,2:README.rst -L 1,1:setup.py --oneline
git log origin/main..HEAD --oneline
git log HEAD..origin/main --oneline
git log --all --oneline --since=2023-07-23
git log -n 3 --pretty=fuller
git log --oneline v0.2..v1.0
git log --oneline --tags --no-walk
git log --pretty=oneline -2
git log --format=%s --max-count=2 --skip=3
git log -p --word-diff -1 --format=%s
git show
git show --stat
git show --stat=50
git show --name-only
git show --name-status HEAD~2
git show HEAD:src/click/__init__.py | head -5
git show v1.0
git show v1.0 --stat
git show light-tag --oneline --stat
git show HEAD~4 --format=%B -s
git show --oneline -s HEAD~1
git show HEAD~3:docs
git show --word-diff HEAD~4
git show -w HEAD~6
git blame src/click/globals.py | head -5
git blame -L 10,16 src/click/utils.py
git blame -L 1,+3 src/click/types.py
git blame --porcelain -L 2,2 src/click/core.py
git blame -s -L 1,4 src/click/parser.py
git blame -e -L 1,2 README.rst
git grep -n 'def echo'
git grep -c 'import'
git grep -l 'Context' -- src
git grep -i -w 'parameter' -- '*.py' | head -5
git grep -n --untracked 'new'
git grep -e TODO --and -e FIXME
git grep 'main note' v1.0
git stash list
git stash
git stash && git stash list && git status --short
git stash push -m wip-msg src/click/globals.py && git stash list
git stash push -- src/click/globals.py && git status --short
git stash push -m two -- src/click/globals.py src/click/testing.py && git status --short && git stash show
git stash -u && git status --short
git stash --include-untracked && git stash show --stat
git stash -u && git stash show -u
git stash -u && git stash show --include-untracked --stat
git stash -u && git stash pop && git status --short
git stash -a && git status --short --ignored
git stash --all && git stash pop && git status --short --ignored
git stash && git stash show
git stash && git stash show -p
git stash && git stash show --stat
git stash && git stash show --name-only
git stash && git stash pop && git status --short
git stash && git stash pop --index && git status --short
git stash && git stash apply && git stash drop
git stash && git stash apply --index && git status --short
git stash && git stash branch stashed && git status --short && git branch
git stash && git stash branch stashed HEAD~1
git stash branch nothing
git stash && git stash clear && git stash list
git stash && echo x >> src/click/globals.py && git stash pop
git stash && echo x >> src/click/globals.py && git add src/click/globals.py && git commit -qm x && git stash pop; git status --short
git stash -u && echo other > notes.txt && git stash pop
git stash show
git stash pop
git stash drop
git stash push -- nosuchfile
git stash -p
git branch
git branch -a
git branch -r
git branch -v
git branch -vv
git branch --contains HEAD~5
git branch --merged
git branch --no-merged
git branch --sort=-committerdate
git branch --show-current
git branch new-b && git branch
git branch -d wip
git branch -D wip
git branch -m wip wip2 && git branch
git checkout wip
git checkout -b feat
git checkout -b feat origin/topic
git checkout topic
git checkout -
git checkout v1.0
git checkout HEAD~2
git checkout -- src/click/globals.py && git status --short
git checkout HEAD -- tests/conftest.py && git status --short
git switch wip
git switch -c feat2
git switch --detach HEAD~1
git switch topic
git restore src/click/globals.py && git status --short
git restore --staged src/click/testing.py && git status --short
git restore --source=HEAD~2 src/click/utils.py && git status --short
git reset
git reset --soft HEAD~1 && git status --short
git reset --hard && git status --short
git reset --hard HEAD~2 && git log --oneline -1
git reset HEAD src/click/testing.py && git status --short
git reset --mixed HEAD~1 && git status --short
git add -p
git add -i
git add -A && git status --short
git add . && git status --short
git add -u && git status --short
git add notes.txt && git status --short
git add -n .
git add build/out.pyc
git rm --cached src/click/testing.py && git status --short
git rm tests/conftest.py && git status --short
git mv README.rst README.md && git status --short
git commit -m "test commit"
git commit -am "all changes"
git commit -m "x" -- src/click/testing.py
git commit --amend -m "amended" && git log --oneline -2
git commit --allow-empty -m empty
git commit
git commit -q -m quiet && git log -1 --format=%s
git rev-parse HEAD
git rev-parse --short HEAD
git rev-parse --abbrev-ref HEAD
git rev-parse --show-toplevel
git rev-parse --git-dir
git rev-parse --is-inside-work-tree
git rev-parse HEAD~3 v1.0 v1.0^{commit}
git rev-parse --symbolic-full-name @{u}
git rev-parse --verify nope
git rev-parse origin/main
git ls-files | head
git ls-files | wc -l
git ls-files -m
git ls-files -d
git ls-files -o
git ls-files -o --exclude-standard
git ls-files -s src/click/__init__.py
git ls-files --stage ext
git ls-files -- '*.bat'
git ls-files --eol run.bat docs/make.bat
git ls-tree HEAD
git ls-tree -r --name-only HEAD src | head
git ls-tree HEAD ext/examples
git cat-file -t HEAD
git cat-file -p HEAD
git cat-file -p v1.0
git cat-file -s HEAD:README.rst
git cat-file -p 0000000000000000000000000000000000000001
git cat-file -t deadbeef
git rev-list --count HEAD
git rev-list --count --all
git rev-list HEAD~3..HEAD
git rev-list --left-right --count origin/main...HEAD
git describe
git describe --tags
git describe --always
git describe --tags --dirty
git describe --abbrev=0 --tags
git shortlog -sn
git shortlog -sne HEAD
git shortlog -s v0.2..v1.0
git remote
git remote -v
git remote show origin
git remote get-url origin
git remote add upstream ../origin.git && git remote -v
git remote rename origin up && git remote -v && git branch -vv
git remote remove origin && git branch -a
git remote set-url origin ../sub.git && git remote -v
git fetch
git fetch origin
git pull
git push
git push origin main
git clone https://github.com/pallets/click.git
git fetch https://example.com/repo.git
git merge-base HEAD origin/main
git merge-base --is-ancestor HEAD~3 HEAD; echo $?
git for-each-ref
git for-each-ref --format='%(refname:short) %(objectname:short)' refs/heads
git for-each-ref --sort=-creatordate --format='%(refname:short)' refs/tags
git show-ref
git show-ref --tags
git symbolic-ref HEAD
git symbolic-ref refs/remotes/origin/HEAD
git name-rev HEAD~4
git tag
git tag -l 'v*'
git tag -n
git tag --sort=-v:refname
git tag --contains HEAD~10
git tag -a v2.0 -m "Version 2.0" && git tag -n
git tag -d light-tag
git submodule status
git submodule
git worktree list
git reflog -5
git count-objects
git count-objects -v
git fsck
git gc
git config user.name
git config --list --local
git config --get remote.origin.url
git config --get-regexp 'branch\..*'
git config -f missing --list
git config -f missing user.name
git config --file .gitmodules --list
git config --get nosuch.key
git config nosection
git config --unset nosuch.key
git config core.bare
git config --bool core.bare
git merge topic
git merge --no-ff wip -m "merge wip"
git merge origin/main
git merge origin/topic; git merge --abort && git status --short
git cherry-pick origin/topic
git revert --no-edit HEAD
git rebase origin/main
git clean -n
git clean -nd
git clean -fd && git status --short
git clean -nx
git apply --check /dev/null
git format-patch -1 --stdout
git format-patch -2 -o patches
git diff-tree --no-commit-id --name-only -r HEAD
git archive --format=tar HEAD | tar t | head -3
git notes list
git bisect start
git help
git --version
git log --oneline -3 --no-decorate
git -C src log --oneline -2
git -c core.abbrev=10 log --oneline -2
git --no-pager log --oneline -2
git -P diff --stat
git -C nowhere status
cd ../proj2 && git status
cd ../proj2 && git status --short --branch
cd ../proj2 && git submodule status
cd ../proj2 && git branch
cd ../proj2 && git log --oneline --decorate -3
cd ../proj2 && git describe --tags
git log nosuchref
git show nosuchref:README.rst
git diff nosuchref
git blame nosuchfile
git log -L 1,2:nosuchfile
"""


def lines() -> list[str]:
    return [x for x in LINES.strip().splitlines() if x.strip() and not x.startswith("#")]


def build(sdist: str, dest: str) -> None:
    """The repositories under ``dest`` (proj: the agent's clone; proj2: detached, submodule up)."""
    os.makedirs(dest)
    env = {"PATH": "/usr/bin:/bin", "R": dest, "SDIST": os.path.abspath(sdist), "LC_ALL": "C",
           "TZ": "UTC"}
    subprocess.run(["bash", "-c", BUILD], env=env, check=True, capture_output=True)


def _script(base: str, cwd: str, cmds: list[str]) -> str:
    return "".join(f'( cd {base}/w{i}/{cwd} && {{ {c}\n}} ; echo "@@@RC=$?" ) </dev/null; '
                   f'echo "@@@ERR" >&2\n' for i, c in enumerate(cmds))


def _split(out: bytes, err: bytes) -> list[tuple[bytes, bytes, int]]:
    parts = out.split(b"@@@RC=")
    outs, rcs = [parts[0]], []
    for part in parts[1:]:
        rc, _, rest = part.partition(b"\n")
        rcs.append(int(rc))
        outs.append(rest)
    errs = err.split(b"@@@ERR\n")
    return list(zip(outs[:-1], errs[:-1], rcs, strict=False))


COPIED = ("proj", "origin.git", "sub.git")


def _link_objects(src: str, dst: str) -> None:
    """Object files (loose and packed) are only ever replaced, never written in place."""
    if "/objects/" in src and "/objects/info" not in src:
        os.link(src, dst)
    else:
        shutil.copy2(src, dst)


def _copies(template: str, cmds: list[str]) -> str:
    d = tempfile.mkdtemp(prefix="git-agent-")
    for i, c in enumerate(cmds):  # the clone the lines run in, the repositories its remotes name
        os.mkdir(f"{d}/w{i}")
        for name in COPIED + ("proj2",) * ("proj2" in c):
            shutil.copytree(os.path.join(template, name), f"{d}/w{i}/{name}", symlinks=True,
                            copy_function=_link_objects)
    os.mkdir(d + "/home")
    shutil.copy(os.path.join(template, "home", ".gitconfig"), d + "/home/.gitconfig")
    return d


def run_real(template: str, cmds: list[str]) -> list[tuple[bytes, bytes, int]]:
    d = _copies(template, cmds)
    try:
        p = subprocess.run(["bash", "-c", _script(d, "proj", cmds)], cwd=d,
                           env=dict(ENV, PATH="/usr/bin:/bin", HOME=d + "/home"),
                           capture_output=True, timeout=3600)
        return _split(p.stdout.replace(d.encode(), b"/batch"), p.stderr.replace(d.encode(), b"/batch"))
    finally:
        shutil.rmtree(d)


def run_pysh(template: str, cmds: list[str], root: str = ROOT) -> list[tuple[bytes, bytes, int]]:
    d = _copies(template, cmds)
    try:
        args = [sys.executable, "-m", "pysh", "--sandbox", d, "--json", "--timeout", "3000"]
        for k, v in ENV.items():
            args += ["--env", f"{k}={v}"]
        args += ["--env", "HOME=/batch/home", "-c", _script("/batch", "proj", cmds)]
        q = subprocess.run(args, capture_output=True, timeout=3600, cwd=root,
                           env=dict(os.environ, PYTHONPATH=root))
        j = json.loads(q.stdout)
        enc = ("utf-8", "surrogateescape")
        return _split(j["stdout"].encode(*enc), j["stderr"].encode(*enc))
    finally:
        shutil.rmtree(d)


def _show(v) -> str:
    return v.decode(errors="replace") if isinstance(v, bytes) else str(v)


def fetch_sdist(where: str) -> str:
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-binary", ":all:", "--no-deps",
                    "click==8.1.7", "-d", where], check=True, capture_output=True)
    return glob.glob(os.path.join(where, "click-*.tar.gz"))[0]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sdist")
    ap.add_argument("-v", action="store_true", help="show the mismatches' outputs")
    ap.add_argument("-k", help="only the lines containing this")
    ap.add_argument("--keep", help="build (or reuse) the repositories here")
    ap.add_argument("--pysh-root", default=ROOT, help="the pysh checkout to measure")
    a = ap.parse_args()
    cmds = [c for c in lines() if not a.k or a.k in c]
    tmp = tempfile.mkdtemp(prefix="git-agent-build-")
    try:
        base = a.keep or os.path.join(tmp, "repos")
        if not os.path.isdir(os.path.join(base, "proj")):
            if os.path.isdir(base):
                shutil.rmtree(base)
            build(a.sdist or fetch_sdist(tmp), base)
        real = run_real(base, cmds)
        mine = run_pysh(base, cmds, a.pysh_root)
    finally:
        shutil.rmtree(tmp)
    ok = 0
    for i, c in enumerate(cmds):
        x = real[i] if i < len(real) else None
        y = mine[i] if i < len(mine) else None
        same = x == y
        ok += same
        print(("ok:   " if same else "FAIL: ") + c)
        if not same and a.v and x and y:
            for label, p, q in zip(("stdout", "stderr", "status"), x, y, strict=True):
                if p != q:
                    print(f"  --- {label} git:\n{_show(p)}\n  +++ pysh:\n{_show(q)}")
    print(f"{ok}/{len(cmds)} same")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
