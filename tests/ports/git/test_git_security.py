"""git port: both doors, denials, the canary, and the git-specific attacks (gitdir redirect,
alternates, hooks, filters, fsmonitor/sshCommand, symlinked internals, network clones)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.harness import PLANTS_ON_THE_HOST, run_cmd
from tests.ports.conftest import CANARY, SECRET, door_a_errno, run, strerror

ENV = {"GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "T",
       "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_AUTHOR_DATE": "@1700000000 +0000",
       "GIT_COMMITTER_DATE": "@1700000000 +0000"}


def g(inst, *args, cwd=None, env=None):
    return run(inst, ["git", *args], cwd=cwd, env=dict(ENV, **(env or {})))


def real_git(cwd, *args):
    env = dict(ENV, PATH="/usr/bin:/bin", HOME=cwd, GIT_CONFIG_NOSYSTEM="1")
    return subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, check=True)


def outside_repo(tree) -> str:
    """A real repository outside the sandbox, with a secret commit."""
    path = os.path.join(tree.outside, "repo")
    os.makedirs(path)
    real_git(path, "init", "-q", "-b", "main")
    with open(os.path.join(path, "secret.txt"), "wb") as f:
        f.write(SECRET)
    real_git(path, "add", ".")
    real_git(path, "commit", "-q", "-m", "secret " + CANARY)
    return path


def outside_snapshot(tree) -> list:
    out = []
    for dirpath, _dirs, files in os.walk(tree.outside):
        for n in files:
            p = os.path.join(dirpath, n)
            with open(p, "rb") as f:
                out.append((p, f.read()))
    return sorted(out)


# ----------------------------------------------------------------- both doors
@pytest.mark.parametrize("where", ["/batch/r", "/tmp/r", "rel"])
def test_builtin_written_file_committed_and_read_back(inst, where):
    fs = inst.shell.fs
    top = where if where != "rel" else "/batch/sub/r"
    fs.mkdir(top, parents=True)
    fs.write_bytes(top + "/note.txt", b"written by door A\n")
    cwd = top if where != "rel" else "/batch/sub"
    prefix = "" if where != "rel" else "r/"
    r = g(inst, "init", "-q", *( [] if where != "rel" else ["r"]), cwd=cwd)
    assert r.status == 0, r.err
    gcwd = top
    assert g(inst, "add", "note.txt", cwd=gcwd).status == 0
    r = g(inst, "commit", "-q", "-m", "from a builtin", cwd=gcwd)
    assert r.status == 0, r.err
    r = g(inst, "show", "HEAD:note.txt", cwd=gcwd)
    assert r.stdout == b"written by door A\n"
    # git writes (checkout), a builtin reads
    fs.write_bytes(top + "/note.txt", b"scribble\n")
    assert g(inst, "checkout", "--", "note.txt", cwd=gcwd).status == 0
    assert fs.read_bytes(top + "/note.txt") == b"written by door A\n"
    r = g(inst, "rev-parse", "--show-toplevel", cwd=gcwd)
    assert r.out.strip() == top
    del prefix


def test_tmpdir_spelling(inst):
    tmp = inst.shell.env["TMPDIR"]
    r = g(inst, "init", "-q", f"{tmp}/tr")
    assert r.status == 0, r.err
    inst.shell.fs.write_bytes("/tmp/tr/x", b"x\n")
    assert g(inst, "-C", f"{tmp}/tr", "add", "x").status == 0
    r = g(inst, "-C", "/tmp/tr", "status", "--porcelain")
    assert r.out == "A  x\n"


def test_clone_checkout_read_by_builtin(inst):
    fs = inst.shell.fs
    fs.mkdir("/batch/src")
    fs.write_bytes("/batch/src/f.txt", b"hello\n")
    assert g(inst, "init", "-q", "src").status == 0
    assert g(inst, "-C", "src", "add", ".").status == 0
    assert g(inst, "-C", "src", "commit", "-q", "-m", "x").status == 0
    r = g(inst, "clone", "-q", "src", "/tmp/copy")
    assert r.status == 0, r.err
    assert fs.read_bytes("/tmp/copy/f.txt") == b"hello\n"


# ------------------------------------------------------------------- denials
@pytest.mark.parametrize("kind", ["outside", "host_spelling", "link_rel", "link_abs", "sibling"])
def test_denied_paths_same_errno(inst, tree, sibling, kind):
    path = {
        "outside": "/etc/newrepo",
        "host_spelling": os.path.join(tree.ws, "newrepo"),
        "link_rel": "out_rel/newrepo",
        "link_abs": "out_abs/newrepo",
        "sibling": os.path.join(sibling.temp_dir, "newrepo"),
    }[kind]
    before = outside_snapshot(tree)
    code = door_a_errno(inst, path)
    assert code != 0
    r = g(inst, "-C", path, "status")
    assert r.status == 128
    assert r.err.endswith(f": {strerror(code)}\n"), r.err
    if kind in ("outside", "link_rel", "link_abs"):
        code = door_a_errno(inst, path + "/x")
        r = g(inst, "init", path)
        assert r.status == 128
        assert r.err.startswith("fatal: cannot mkdir ")
        assert r.err.endswith(f"newrepo: {strerror(code)}\n"), r.err
    else:
        # a host spelling is just a virtual path under the instance's own /tmp
        r = g(inst, "init", "-q", path)
        assert r.status == 0
        assert os.path.isdir(os.path.join(inst.temp_dir, path[len("/tmp/"):], ".git"))
    assert outside_snapshot(tree) == before
    assert not os.path.exists(os.path.join(sibling.temp_dir, "newrepo"))
    assert not os.path.exists(os.path.join(tree.outside, "newrepo"))


def test_add_paths_outside_refused(inst, tree):
    assert g(inst, "init", "-q").status == 0
    for p in ("/etc/passwd", "out_rel/secret.txt", "out_file", os.path.join(tree.outside, "secret.txt")):
        r = g(inst, "add", p)
        assert r.status != 0 or p == "out_file"
    # a symlink is staged as a link (its target text), never followed
    r = g(inst, "ls-files", "-s", "out_file")
    assert SECRET.decode() not in r.out
    r = g(inst, "commit", "-q", "-m", "x")
    r = g(inst, "grep", "SECRET")
    assert SECRET.decode() not in r.out


# ------------------------------------------------------------------- canary
def test_canary_never_printed(inst):
    cmds = [("init", "-q"), ("status",), ("status", "-s"), ("add", "-A"), ("status", "--porcelain"),
            ("commit", "-q", "-m", "trap tree"), ("log", "--stat"), ("ls-files",),
            ("rev-parse", "--show-toplevel"), ("rev-parse", "--git-dir"), ("branch", "-v"),
            ("diff", "--stat", "HEAD"), ("blame", "file.txt"), ("grep", "-n", "inside"),
            ("show", "--stat"), ("rm", "-q", "--cached", "file.txt"), ("-C", "dir", "status")]
    for c in cmds:
        r = g(inst, *c)
        assert b"Traceback" not in r.stderr
    # failing commands too: their messages are virtual
    for c in [("-C", "out_rel", "status"), ("-C", "etc", "log"), ("init", "out_abs/x"),
              ("clone", "out_rel", "c1"), ("add", "out_rel/secret.txt"), ("show", "HEAD:out_rel/x")]:
        r = g(inst, *c)
        assert r.status != 0


# ------------------------------------------------------------------- attacks
def test_gitdir_redirect_out_refused(inst, tree):
    repo = outside_repo(tree)
    before = outside_snapshot(tree)
    for target in (os.path.join(repo, ".git"), f"../outside-{CANARY}/repo/.git", "/etc", "/proc/self/cwd"):
        inst.shell.fs.write_bytes("/batch/.git", f"gitdir: {target}\n".encode())
        for c in (("status",), ("log",), ("add", "file.txt"), ("commit", "-m", "x"),
                  ("rev-parse", "--git-dir")):
            r = run_cmd(inst, ["git", *c], env=ENV)
            assert r.status == 128, (target, c, r.out, r.err)
            assert SECRET.decode() not in r.out + r.err
            assert "secret " not in r.out
    assert outside_snapshot(tree) == before


def test_git_dir_env_and_option_out_refused(inst, tree):
    outside_repo(tree)
    for env in ({"GIT_DIR": "out_rel/repo/.git"}, {"GIT_DIR": "/etc"}):
        r = g(inst, "log", env=env)
        assert r.status == 128
    r = g(inst, "--git-dir=out_rel/repo/.git", "log")
    assert r.status == 128


@pytest.mark.plain_only(PLANTS_ON_THE_HOST)
def test_symlinked_dotgit_out_refused(inst, tree):
    repo = outside_repo(tree)
    os.symlink(os.path.join(repo, ".git"), os.path.join(tree.ws, ".git"))
    r = g(inst, "log")
    assert r.status == 128 and "secret" not in r.out


@pytest.mark.plain_only(PLANTS_ON_THE_HOST)
@pytest.mark.parametrize("internal", ["objects", "refs", "refs/heads", "objects/pack", "HEAD", "config",
                                      "index", "loose"])
def test_symlinked_internals_out_refused(inst, tree, internal):
    repo = outside_repo(tree)
    real_git(tree.ws, "init", "-q", "-b", "main")
    gd = os.path.join(tree.ws, ".git")
    out_gd = os.path.join(repo, ".git")
    if internal == "loose":
        # one loose object directory of the outside repository, linked in
        sha = real_git(repo, "rev-parse", "HEAD").stdout.decode().strip()
        os.symlink(os.path.join(out_gd, "objects", sha[:2]), os.path.join(gd, "objects", sha[:2]))
    else:
        p = os.path.join(gd, internal)
        if os.path.isdir(p):
            import shutil

            shutil.rmtree(p)
        elif os.path.exists(p):
            os.unlink(p)
        os.symlink(os.path.join(out_gd, internal), p)
    before = outside_snapshot(tree)
    for c in (("log",), ("status",), ("add", "file.txt"), ("commit", "-m", "x"), ("branch", "x")):
        r = g(inst, *c)
        assert r.status == 128, (internal, c, r.out, r.err)
        assert "refusing the repository" in r.err or "not a git repository" in r.err
    assert outside_snapshot(tree) == before


@pytest.mark.plain_only(PLANTS_ON_THE_HOST)
def test_alternates_refused(inst, tree):
    repo = outside_repo(tree)
    real_git(tree.ws, "init", "-q", "-b", "main")
    sha = real_git(repo, "rev-parse", "HEAD").stdout.decode().strip()
    info = os.path.join(tree.ws, ".git", "objects", "info")
    os.makedirs(info, exist_ok=True)
    with open(os.path.join(info, "alternates"), "w") as f:
        f.write(os.path.join(repo, ".git", "objects") + "\n")
    for c in (("cat-file", "-p", sha), ("show", sha), ("log", sha), ("status",)):
        r = g(inst, *c)
        assert r.status == 128, (c, r.out, r.err)
        assert "alternates" in r.err
        assert "secret" not in r.out


def _marker_hooks(tree, hooks_dir: str, marker: str) -> None:
    os.makedirs(hooks_dir, exist_ok=True)
    for name in ("pre-commit", "commit-msg", "prepare-commit-msg", "post-commit", "post-checkout",
                 "post-merge", "pre-merge-commit", "reference-transaction", "post-index-change",
                 "pre-auto-gc"):
        p = os.path.join(hooks_dir, name)
        with open(p, "w") as f:
            f.write(f"#!/bin/sh\necho {name} >> {marker}\n")
        os.chmod(p, 0o755)


def _no_subprocess(monkeypatch):
    calls = []

    def boom(*a, **k):
        calls.append(a)
        raise AssertionError("a subprocess was started")

    monkeypatch.setattr(subprocess, "Popen", boom)
    monkeypatch.setattr(os, "system", boom)
    monkeypatch.setattr(os, "posix_spawn", boom, raising=False)
    monkeypatch.setattr(os, "execv", boom)
    monkeypatch.setattr(os, "fork", boom)
    return calls


@pytest.mark.plain_only(PLANTS_ON_THE_HOST)
def test_hooks_never_run(inst, tree, monkeypatch):
    real_git(tree.ws, "init", "-q", "-b", "main")
    marker = os.path.join(tree.base, "hook-ran")
    _marker_hooks(tree, os.path.join(tree.ws, ".git", "hooks"), marker)
    other = os.path.join(tree.ws, "myhooks")
    _marker_hooks(tree, other, marker)
    calls = _no_subprocess(monkeypatch)
    assert g(inst, "config", "core.hooksPath", "myhooks").status == 0
    assert g(inst, "add", "file.txt").status == 0
    r = g(inst, "commit", "-m", "with hooks")
    assert r.status == 0, r.err
    assert g(inst, "checkout", "-q", "-b", "side").status == 0
    inst.shell.fs.write_bytes("/batch/s.txt", b"s\n")
    assert g(inst, "add", "s.txt").status == 0
    assert g(inst, "commit", "-q", "-m", "side").status == 0
    assert g(inst, "checkout", "-q", "main").status == 0
    assert g(inst, "merge", "-q", "side").status == 0
    assert not os.path.exists(marker)
    assert calls == []


@pytest.mark.plain_only(PLANTS_ON_THE_HOST)
def test_command_config_never_runs(inst, tree, monkeypatch):
    real_git(tree.ws, "init", "-q", "-b", "main")
    marker = os.path.join(tree.base, "cfg-ran")
    cmd = f"touch {marker}"
    cfg = os.path.join(tree.ws, ".git", "config")
    with open(cfg, "a") as f:
        f.write(f"[core]\n\tfsmonitor = {cmd}\n\tsshCommand = {cmd}\n\tpager = {cmd}\n"
                f"\teditor = {cmd}\n\taskPass = {cmd}\n"
                f"[filter \"x\"]\n\tclean = {cmd}\n\tsmudge = {cmd}\n\tprocess = {cmd}\n"
                f"\trequired = true\n"
                f"[diff \"x\"]\n\ttextconv = {cmd}\n\tcommand = {cmd}\n"
                f"[diff]\n\texternal = {cmd}\n[merge \"x\"]\n\tdriver = {cmd}\n"
                f"[credential]\n\thelper = !{cmd}\n[alias]\n\tst = !{cmd}\n"
                f"[gpg]\n\tprogram = {cmd}\n[commit]\n\tgpgSign = false\n")
    with open(os.path.join(tree.ws, ".gitattributes"), "w") as f:
        f.write("* filter=x diff=x merge=x\n")
    calls = _no_subprocess(monkeypatch)
    inst.shell.fs.write_bytes("/batch/data.txt", b"raw content\n")
    assert g(inst, "add", "data.txt", ".gitattributes").status == 0
    assert g(inst, "status").status == 0
    assert g(inst, "commit", "-q", "-m", "filtered?").status == 0
    assert g(inst, "diff", "HEAD").status == 0
    assert g(inst, "log", "-p").status == 0
    r = g(inst, "show", "HEAD:data.txt")
    assert r.stdout == b"raw content\n"  # the clean filter never ran
    inst.shell.fs.write_bytes("/batch/data.txt", b"changed\n")
    assert g(inst, "checkout", "--", "data.txt").status == 0
    assert inst.shell.fs.read_bytes("/batch/data.txt") == b"raw content\n"
    assert g(inst, "st").status == 1  # aliases are not commands here
    assert g(inst, "clone", "ssh://example.com/x", "y").status == 128
    assert not os.path.exists(marker)
    assert calls == []


def test_host_global_config_never_read(inst, tree, monkeypatch):
    import dulwich.config

    def boom(*a, **k):
        raise AssertionError("the host config stack was consulted")

    monkeypatch.setattr(dulwich.config.StackedConfig, "default_backends", boom)
    monkeypatch.setattr(dulwich.config, "get_xdg_config_home_path", boom)
    assert g(inst, "init", "-q").status == 0
    # --global writes the virtual HOME's .gitconfig only
    r = g(inst, "config", "--global", "user.name", "Virtual Name")
    assert r.status == 0, r.err
    assert inst.shell.fs.read_bytes("/home/user/.gitconfig").count(b"Virtual Name") == 1
    assert not inst.shell.fs.exists("/batch/.gitconfig")  # never in the workspace
    env = {k: None for k in ()}
    del env
    r = run_cmd(inst, ["git", "config", "user.name"])
    assert r.out == "Virtual Name\n"


def test_identity_missing_is_gits_error(inst):
    assert run_cmd(inst, ["git", "init", "-q"]).status == 0
    inst.shell.fs.write_bytes("/batch/x", b"x\n")
    assert run_cmd(inst, ["git", "add", "x"]).status == 0
    r = run_cmd(inst, ["git", "commit", "-m", "x"])
    assert r.status == 128
    assert "Author identity unknown" in r.err and "Please tell me who you are" in r.err
    assert "unable to auto-detect email address" in r.err


@pytest.mark.parametrize("src", ["ssh://host/repo.git", "https://example.com/r.git", "git://h/r",
                                 "http://h/r", "host:path/repo", "git@github.com:a/b.git",
                                 "file:///etc", "/etc", "../..", "../../..", "/proc/self/cwd",
                                 "ext::sh -c touch% /tmp/pwned"])
def test_clone_refused(inst, tree, src):
    before = set(sys.modules)
    r = g(inst, "clone", src, "dest")
    assert r.status == 128, (src, r.out, r.err)
    assert not inst.shell.fs.exists("/batch/dest/.git")
    new = set(sys.modules) - before
    assert not any(m.startswith("dulwich.client") for m in new)
    assert not os.path.exists("/tmp/pwned")


def test_clone_of_host_spelling_refused(inst, tree):
    repo = outside_repo(tree)
    for src in (repo, os.path.join(tree.ws, "file.txt"), f"file://{repo}", "out_rel/repo"):
        r = g(inst, "clone", src, "dest")
        assert r.status == 128, src
        assert "secret" not in r.out + r.err


def test_discovery_stops_at_mount_root(inst, tree):
    # the host directory above the workspace is a repository: never found from inside
    real_git(tree.base, "init", "-q", "-b", "main")
    r = g(inst, "status", cwd="/batch/dir")
    assert r.status == 128
    assert r.err == "fatal: not a git repository (or any of the parent directories): .git\n"
    r = g(inst, "rev-parse", "--show-toplevel", cwd="/tmp")
    assert r.status == 128


# -------------------------------------------------------------- odd inputs
def test_non_utf8_empty_missing_and_directory(inst):
    fs = inst.shell.fs
    assert g(inst, "init", "-q").status == 0
    name = "caf\udce9.txt"  # a Latin-1 byte in the name
    fs.write_bytes("/batch/" + name, b"\xff\xfe latin\n")
    fs.write_bytes("/batch/empty", b"")
    assert g(inst, "add", name, "empty").status == 0
    r = g(inst, "status", "--porcelain", name, "empty")
    assert r.out.splitlines() == ['A  "caf\\351.txt"', "A  empty"]
    assert g(inst, "commit", "-q", "-m", "odd").status == 0
    r = g(inst, "show", "HEAD:" + name)
    assert r.stdout == b"\xff\xfe latin\n"
    r = g(inst, "show", "HEAD:empty")
    assert r.stdout == b""
    r = g(inst, "add", "missing.txt")
    assert r.status == 128 and r.err == "fatal: pathspec 'missing.txt' did not match any files\n"
    fs.mkdir("/batch/adir")
    r = g(inst, "blame", "adir")
    assert r.status == 128
    r = g(inst, "show", "HEAD:nope")
    assert r.status == 128
    r = g(inst, "log", "--bogus-option")
    assert r.status == 129
    r = g(inst, "commit", "--bogus")
    assert r.status == 129 and "unknown option" in r.err
    r = g(inst, "status", "-h")
    assert r.status == 0
    r = run_cmd(inst, ["git", "--help"])
    assert r.status == 0 and "usage: git" in r.out


def test_budget_polled_in_long_log(inst):
    from pysh.shellkit import LimitExceeded

    assert g(inst, "init", "-q").status == 0
    for i in range(30):
        inst.shell.fs.write_bytes("/batch/f", b"%d\n" % i)
        assert g(inst, "commit", "-q", "-a" if i else "--allow-empty", "-m", f"c{i}").status == 0 \
            if i else g(inst, "add", "f").status == 0
    inst.shell.budget.deadline = 0  # already expired: the first poll raises
    with pytest.raises(LimitExceeded):
        run_cmd(inst, ["git", "log", "-p"], env=ENV)
