"""git on held fds (issue 11): hostile workspaces that relink .git internals, config includes
that name host files, read-only workspaces, symlink blobs, and a swap race.

Every hostile script runs in a child ``pysh`` process with a hard kill (subprocess timeout);
the escaping links are planted host-side (a workspace prepared by someone else), so the
attacks do not depend on what ``ln`` may create. Host paths carry CANARY: no output may.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

import pytest

from tests.harness import PLANTS_ON_THE_HOST, run_cmd
from tests.ports.conftest import CANARY, SECRET
from tests.shellkit.test_race import _exchange

IDENT = ("export GIT_AUTHOR_NAME=T GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=T "
         "GIT_COMMITTER_EMAIL=t@example.com GIT_AUTHOR_DATE='@1700000000 +0000' "
         "GIT_COMMITTER_DATE='@1700000000 +0000'\n")
GIT_ENV = {"GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "T",
           "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_AUTHOR_DATE": "@1700000000 +0000",
           "GIT_COMMITTER_DATE": "@1700000000 +0000"}


def pysh(ws: str, script: str, *, read_only: bool = False, home: str | None = None,
         timeout: float = 90) -> subprocess.CompletedProcess:
    """The script in a child pysh (killed if it outlives ``timeout``); nothing printed may
    name the host."""
    argv = [sys.executable, "-m", "pysh", "--sandbox", ws]
    if read_only:
        argv.append("--read-only")
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home or "/nonexistent",
           "PYTHONPATH": os.pathsep.join(sys.path)}
    p = subprocess.run(argv + ["-c", IDENT + script], capture_output=True, timeout=timeout, env=env)
    out = p.stdout + p.stderr
    assert CANARY.encode() not in out, out.decode("utf-8", "replace")
    assert SECRET not in out
    assert b"Traceback" not in out and b"internal error" not in out, out.decode("utf-8", "replace")
    return p


def real_git(cwd: str, *args: str) -> bytes:
    env = dict(GIT_ENV, PATH="/usr/bin:/bin", HOME=cwd, GIT_CONFIG_NOSYSTEM="1")
    return subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, check=True).stdout


def snapshot(root: str) -> list:
    """Every name under ``root`` with its type, content (or link target) and mtime."""
    out = []
    for dirpath, dirs, files in os.walk(root):
        for n in dirs + files:
            p = os.path.join(dirpath, n)
            st = os.lstat(p)
            if os.path.islink(p):
                data = os.readlink(p).encode()
            elif os.path.isfile(p):
                with open(p, "rb") as f:
                    data = f.read()
            else:
                data = b""
            out.append((p, st.st_mode, st.st_mtime_ns if not os.path.isdir(p) else 0, data))
    return sorted(out)


def rel(target: str, link_dir: str) -> str:
    return os.path.relpath(target, link_dir)


@pytest.fixture
def outside_stuff(tree):
    """Host files outside the sandbox: a secret, a fake ref, a victim, a fake object store."""
    o = tree.outside
    with open(os.path.join(o, f"tag-{CANARY}"), "w") as f:
        f.write("a" * 40 + "\n")
    with open(os.path.join(o, "victim"), "wb") as f:
        f.write(SECRET)
    os.makedirs(os.path.join(o, "objdir"))
    return o


def _repo_in(ws: str) -> str:
    r = os.path.join(ws, "r")
    os.makedirs(r)
    real_git(r, "init", "-q", "-b", "main")
    with open(os.path.join(r, "f"), "w") as f:
        f.write("hi\n")
    real_git(r, "add", "f")
    real_git(r, "commit", "-q", "-m", "one")
    return r


# ------------------------------------------------------------ relinked refs
def test_relinked_refs_read_list_delete(tree, outside_stuff):
    """The issue's attack: refs moved to a sibling, linked back, links planted in the sibling."""
    ws = tree.ws
    r = _repo_in(ws)
    sib = os.path.join(ws, "sib")
    os.makedirs(sib)
    os.rename(os.path.join(r, ".git", "refs"), os.path.join(sib, "refs"))
    os.makedirs(os.path.join(sib, "refs", "remotes", "origin"))
    heads, tags = os.path.join(sib, "refs", "heads"), os.path.join(sib, "refs", "tags")
    os.symlink(rel(os.path.join(tree.outside, "secret.txt"), heads), os.path.join(heads, "pw"))
    os.symlink(rel(tree.outside, tags), os.path.join(tags, "etcdir"))
    remotes = os.path.join(sib, "refs", "remotes", "origin")
    os.symlink(rel(os.path.join(tree.outside, "victim"), remotes), os.path.join(remotes, "victim"))
    before = snapshot(tree.outside)
    p = pysh(ws, "cd r\nln -s ../../sib/refs .git/refs\n"
                 "git branch -m pw stolen; echo rc=$?\n"
                 "git log --oneline pw; echo rc=$?\n"
                 "git tag -l; echo rc=$?\n"
                 "git branch -a; echo rc=$?\n"
                 "git branch -D pw; echo rc=$?\n"
                 "git branch -r -D origin/victim; echo rc=$?\n"
                 "git status; echo rc=$?\n")
    out = p.stdout.decode()
    assert out.count("rc=128") == 7, p.stdout + p.stderr
    assert b"a symlink out of the repository" in p.stderr
    assert snapshot(tree.outside) == before
    assert os.path.islink(os.path.join(remotes, "victim"))
    assert not os.path.exists(os.path.join(heads, "stolen"))


def _outside_repo(outside: str) -> tuple[str, str]:
    """A real repository outside the sandbox with a commit saying CANARY: (git dir, its id)."""
    path = os.path.join(outside, "repo")
    os.makedirs(path)
    real_git(path, "init", "-q", "-b", "main")
    with open(os.path.join(path, "secret.txt"), "wb") as f:
        f.write(SECRET)
    real_git(path, "add", ".")
    real_git(path, "commit", "-q", "-m", "secret " + CANARY)
    return os.path.join(path, ".git"), real_git(path, "rev-parse", "HEAD").decode().strip()


def test_relinked_fanout_read(tree, outside_stuff):
    """A fan-out directory moved to a sibling and linked back; inside the sibling, an object
    is a relative link to the object file of a host repository."""
    ws = tree.ws
    r = _repo_in(ws)
    out_git, sha = _outside_repo(tree.outside)
    fan = os.path.join(ws, "fan")
    src = os.path.join(r, ".git", "objects", sha[:2])
    os.makedirs(src, exist_ok=True)
    os.rename(src, fan)
    os.symlink(rel(os.path.join(out_git, "objects", sha[:2], sha[2:]), fan),
               os.path.join(fan, sha[2:]))
    p = pysh(ws, f"cd r\nln -s ../../../fan .git/objects/{sha[:2]}\n"
                 f"git cat-file -p {sha}; echo rc=$?\ngit log {sha}; echo rc=$?\n"
                 f"git show {sha}; echo rc=$?\n")
    assert p.stdout.decode().count("rc=128") == 3, p.stdout + p.stderr


def test_relinked_objects_write(tree, outside_stuff):
    """objects moved to a sibling and linked back; in the sibling every missing fan-out
    directory is a link to a host directory: nothing may be written there."""
    ws = tree.ws
    r = _repo_in(ws)
    sibobj = os.path.join(ws, "sibobj")
    os.rename(os.path.join(r, ".git", "objects"), sibobj)
    objdir = os.path.join(tree.outside, "objdir")
    for i in range(256):
        d = os.path.join(sibobj, f"{i:02x}")
        if not os.path.exists(d):
            os.symlink(rel(objdir, sibobj), d)
    before = snapshot(tree.outside)
    p = pysh(ws, "cd r\nln -s ../../sibobj .git/objects\n"
                 "git log --oneline; echo rc=$?\n"
                 "echo new > g; git add g; echo rc=$?\n"
                 "echo x >> f; git commit -qam two; echo rc=$?\n"
                 "git stash; echo rc=$?\n")
    assert p.stdout.decode().count("rc=128") == 4, p.stdout + p.stderr
    assert b"'objects' is a symlink out of the repository" in p.stderr
    assert snapshot(tree.outside) == before
    assert os.listdir(objdir) == []


def test_link_inside_git_dir_is_followed(tree):
    """A symlink that stays inside the git dir is an ordinary internal."""
    ws = tree.ws
    r = _repo_in(ws)
    gd = os.path.join(r, ".git")
    os.rename(os.path.join(gd, "refs", "heads"), os.path.join(gd, "heads-real"))
    os.symlink("../heads-real", os.path.join(gd, "refs", "heads"))
    p = pysh(ws, "cd r\ngit log --oneline; git branch x && git branch\n")
    assert p.returncode == 0, p.stderr
    assert p.stdout.decode().endswith("* main\n  x\n")
    assert os.path.isfile(os.path.join(gd, "heads-real", "x"))


def test_other_sandbox_tmp_never_read(tree, sibling):
    """Refs moved to a sibling; there, relative links into another sandbox's private /tmp."""
    ws = tree.ws
    r = _repo_in(ws)
    sib = os.path.join(ws, "sib")
    os.makedirs(sib)
    os.rename(os.path.join(r, ".git", "refs"), os.path.join(sib, "refs"))
    heads = os.path.join(sib, "refs", "heads")
    sib_ref = os.path.join(sibling.temp_dir, "ref")
    with open(sib_ref, "w") as f:
        f.write("b" * 40 + "\n")
    os.symlink(rel(os.path.join(sibling.temp_dir, "theirs.txt"), heads), os.path.join(heads, "t"))
    os.symlink(rel(sib_ref, heads), os.path.join(heads, "u"))
    p = pysh(ws, "cd r\nln -s ../../sib/refs .git/refs\n"
                 "git log --oneline t; git branch -m t x; git log -1 u; git branch -a; git tag -l\n")
    assert b"sibling data" not in p.stdout + p.stderr
    assert b"bbbbbbb" not in p.stdout + p.stderr
    assert p.stdout == b""
    with open(os.path.join(sibling.temp_dir, "theirs.txt"), "rb") as f:
        assert f.read().startswith(b"sibling data")
    assert not os.path.exists(os.path.join(heads, "x"))


# ------------------------------------------------------------------- config
def test_config_includes_never_read_host_files(tree, tmp_path):
    host_home = tmp_path / "hosthome"
    host_home.mkdir()
    (host_home / ".gitconfig").write_text(
        f"[user]\n\tname = Host {CANARY}\n\temail = host-{CANARY}@example.com\n"
        f"[credential]\n\thelper = store-{CANARY}\n")
    ws = tree.ws
    _repo_in(ws)
    cfg = os.path.join(ws, "r", ".git", "config")
    with open(cfg, "a") as f:
        f.write("[include]\n\tpath = ~/.gitconfig\n"
                f"[include]\n\tpath = {host_home}/.gitconfig\n"
                "[include]\n\tpath = ../../../../hosthome/.gitconfig\n"
                f"[includeIf \"gitdir:/\"]\n\tpath = {host_home}/.gitconfig\n")
    p = pysh(ws, "cd r\ngit config -l\ngit config user.name; echo rc=$?\n"
                 "git config --global -l\ngit log -1 --format=%an\n", home=str(host_home))
    out = p.stdout.decode()
    assert "rc=1" in out
    assert "credential" not in out and "Host" not in out


def test_config_includes_resolved_inside_the_sandbox(tree):
    ws = tree.ws
    _repo_in(ws)
    p = pysh(ws, "cd r\n"
                 "printf '[user]\\n\\tname = FromHome\\n' > ~/inc.cfg\n"
                 "printf '[core]\\n\\tabbrev = 9\\n' > .git/rel.cfg\n"
                 "printf '[x]\\n\\ty = when-dir\\n' > .git/cond.cfg\n"
                 "printf '[x]\\n\\tz = on-main\\n' > .git/br.cfg\n"
                 "printf '[x]\\n\\tw = never\\n' > .git/no.cfg\n"
                 "git config include.path '~/inc.cfg'\n"
                 "git config --add include.path rel.cfg\n"
                 "git config includeIf.gitdir:/batch/r/.path cond.cfg\n"
                 "git config includeIf.onbranch:main.path br.cfg\n"
                 "git config includeIf.gitdir:/elsewhere/.path no.cfg\n"
                 "git config user.name; git config core.abbrev; git config x.y; git config x.z\n"
                 "git config x.w; echo rc=$?\n"
                 "git config user.email probe@example.com\n"
                 "cat .git/config\n")
    out = p.stdout.decode()
    assert out.startswith("FromHome\n9\nwhen-dir\non-main\nrc=1\n"), out + p.stderr.decode()
    # editing the config never writes the included values into it
    assert "FromHome" not in out.split("rc=1\n", 1)[1]


# ---------------------------------------------------------------- read-only
def test_read_only_workspace_git_writes_nothing(tree):
    ws = tree.ws
    r = _repo_in(ws)
    real_git(r, "branch", "side")
    with open(os.path.join(r, "f"), "a") as f:
        f.write("local\n")
    before = snapshot(ws)
    p = pysh(ws, "cd r\n"
                 "git commit -a -m y; echo rc=$?\n"
                 "git stash; echo rc=$?\n"
                 "git branch -D side; echo rc=$?\n"
                 "git branch new; echo rc=$?\n"
                 "git tag t; echo rc=$?\n"
                 "git config a.b c; echo rc=$?\n"
                 "git add f; echo rc=$?\n"
                 "git reset --hard; echo rc=$?\n"
                 "git checkout -b nb; echo rc=$?\n"
                 "git commit --allow-empty -m e; echo rc=$?\n", read_only=True)
    lock = "Unable to create '/batch/r/.git/{}.lock': Read-only file system"
    want = (f"fatal: {lock.format('index')}\n"
            f"error: could not delete reference refs/heads/side: {lock.format('packed-refs')}\n"
            f"fatal: cannot lock ref 'refs/heads/new': {lock.format('refs/heads/new')}\n"
            f"fatal: cannot lock ref 'refs/tags/t': {lock.format('refs/tags/t')}\n"
            "error: could not lock config file .git/config: Read-only file system\n"
            f"fatal: {lock.format('index')}\n"
            f"fatal: {lock.format('index')}\n"
            f"fatal: cannot lock ref 'refs/heads/nb': {lock.format('refs/heads/nb')}\n"
            f"fatal: {lock.format('index')}\n")
    assert p.stderr.decode() == want
    assert p.stdout.decode() == "".join(f"rc={c}\n" for c in (128, 1, 1, 128, 128, 255, 128, 128,
                                                               128, 128))
    assert snapshot(ws) == before


# ---------------------------------------------------------- symlink blobs
@pytest.mark.plain_only(PLANTS_ON_THE_HOST)
def test_symlink_blob_checked_out_through_door_a(inst, tree):
    """An absolute in-mount target is stored relative by the core (door A), never as given."""
    r = _repo_in(tree.ws)
    os.symlink("/batch/r/f", os.path.join(r, "l"))
    real_git(r, "add", "l")
    real_git(r, "commit", "-q", "-m", "link")
    os.unlink(os.path.join(r, "l"))
    res = run_cmd(inst, ["git", "checkout", "--", "l"], cwd="/batch/r", env=GIT_ENV)
    assert res.status == 0, res.err
    assert os.readlink(os.path.join(r, "l")) == "f"


@pytest.mark.plain_only(PLANTS_ON_THE_HOST)
@pytest.mark.parametrize("target", ["/etc/passwd", "../../.."])
def test_symlink_blob_leaving_the_mount_is_refused(inst, tree, target):
    """The core refuses a link whose target leaves its mount: git says so, as git does when
    it cannot create a symlink, and goes on with the other paths."""
    r = _repo_in(tree.ws)
    os.symlink(target, os.path.join(r, "l"))
    real_git(r, "add", "l")
    real_git(r, "commit", "-q", "-m", "link")
    os.unlink(os.path.join(r, "l"))
    os.unlink(os.path.join(r, "f"))
    res = run_cmd(inst, ["git", "checkout", "--", "l", "f"], cwd="/batch/r", env=GIT_ENV)
    assert (res.status, res.err) == (255, "error: unable to create symlink l: Operation not permitted\n")
    assert os.path.isfile(os.path.join(r, "f"))
    assert not os.path.lexists(os.path.join(r, "l"))
    res = run_cmd(inst, ["git", "reset", "-q", "--hard"], cwd="/batch/r", env=GIT_ENV)
    assert res.status == 128
    assert res.err.endswith("fatal: Could not reset index file to revision 'HEAD'.\n")
    assert not os.path.lexists(os.path.join(r, "l"))


# --------------------------------------------------------------- no host path
@pytest.mark.plain_only(PLANTS_ON_THE_HOST)
def test_no_host_path_reaches_a_library(inst, tree):
    """While git runs, nothing opens, lists, renames or maps a path string under the host
    workspace: every access is relative to a directory fd the core holds."""
    r = _repo_in(tree.ws)
    real_git(r, "gc", "-q")  # packs and packed-refs too
    with open(os.path.join(r, "f"), "a") as f:
        f.write("more\n")
    seen: list = []
    active = threading.Event()
    root = os.path.realpath(tree.base)

    def hook(event, args):
        if not active.is_set() or event not in ("open", "os.listdir", "os.scandir", "os.rename",
                                                 "os.remove", "os.mkdir", "os.symlink", "os.rmdir",
                                                 "shutil.rmtree", "os.chmod", "os.utime"):
            return
        p = args[0] if args else None
        if isinstance(p, bytes):
            p = os.fsdecode(p)
        if isinstance(p, str) and os.path.isabs(p) and os.path.realpath(p).startswith(root):
            seen.append((event, p))

    sys.addaudithook(hook)
    active.set()
    try:
        for argv in (["status"], ["log", "--oneline"], ["commit", "-qam", "two"],
                     ["branch", "b"], ["branch", "-D", "b"], ["tag", "v1"], ["stash", "list"],
                     ["show", "HEAD~1:f"], ["diff", "HEAD~1"], ["config", "x.y", "z"]):
            res = run_cmd(inst, ["git", *argv], cwd="/batch/r", env=GIT_ENV)
            assert res.status == 0, (argv, res.err)
    finally:
        active.clear()
    assert seen == []


# -------------------------------------------------------------------- race
@pytest.mark.plain_only(PLANTS_ON_THE_HOST)
def test_swap_race_refs_and_objects(inst, tree):
    r = _repo_in(tree.ws)
    gd = os.path.join(r, ".git")
    out_git, _ = _outside_repo(tree.outside)
    pairs = []
    for name in ("refs", "objects"):
        other = os.path.join(tree.ws, name + "_other")  # swapped in from outside the git dir
        os.symlink(os.path.join(out_git, name), other)
        pairs.append((os.path.join(gd, name), other))
    before = snapshot(tree.outside)
    stop = threading.Event()
    swaps = 0

    def swapper():
        nonlocal swaps
        while not stop.is_set():
            for _ in range(50):  # a burst of swaps, then a pause in the real state
                for a, b in pairs:
                    _exchange(a, b)
                swaps += 1
            time.sleep(0.01)

    t = threading.Thread(target=swapper, daemon=True)
    t.start()
    results = []
    start = time.monotonic()
    n = 0

    def both_ways() -> bool:
        return {0, 128} <= {res.status for res in results}

    try:
        # at least 2 s, and on until the race has gone both ways (8 s at most)
        while time.monotonic() < start + 2.0 or (not both_ways() and time.monotonic() < start + 8):
            n += 1
            with open(os.path.join(r, "f"), "a") as f:
                f.write(f"{n}\n")
            for argv in (["commit", "-qam", f"c{n}"], ["log", "--oneline"], ["status", "-s"]):
                results.append(run_cmd(inst, ["git", *argv], cwd="/batch/r", env=GIT_ENV))
    finally:
        stop.set()
        t.join()
    for a, b in pairs:  # put the real directories back
        if os.path.islink(a):
            _exchange(a, b)
    assert swaps > 50
    for res in results:
        assert CANARY not in res.out + res.err
        assert "Traceback" not in res.err
    assert snapshot(tree.outside) == before  # zero outside writes
    assert both_ways()  # the race ran both ways: found inside, and refused
    assert real_git(r, "fsck", "--no-progress") is not None
