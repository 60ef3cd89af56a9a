"""git commands whose behaviour is pysh's own (no real git to record against): the network
commands refused in one line, maintenance that does nothing and says so."""

from __future__ import annotations

import pytest

from tests.harness import run_cmd

ENV = {"GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "T",
       "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_AUTHOR_DATE": "@1700000000 +0000",
       "GIT_COMMITTER_DATE": "@1700000000 +0000"}


def g(inst, *args):
    return run_cmd(inst, ["git", *args], env=ENV)


@pytest.fixture
def repo(inst):
    assert g(inst, "init", "-q", "-b", "main").status == 0
    inst.shell.fs.write_bytes("/batch/f", b"x\n")
    assert g(inst, "add", "f").status == 0
    assert g(inst, "commit", "-qm", "one").status == 0
    assert g(inst, "remote", "add", "origin", "https://example.com/r.git").status == 0
    return inst


@pytest.mark.parametrize("argv,what", [
    (["fetch"], "git fetch"), (["fetch", "origin"], "git fetch 'origin'"),
    (["pull", "--rebase", "origin", "main"], "git pull 'origin'"),
    (["push", "-u", "origin", "main"], "git push 'origin'"),
    (["ls-remote", "origin"], "git ls-remote 'origin'"),
    (["remote", "update"], "git remote update"),
    (["remote", "add", "-f", "up", "/x"], "git remote add -f"),
])
def test_network_refused_in_one_line(repo, argv, what):
    r = g(repo, *argv)
    assert r.status == 128
    assert r.out == ""
    assert r.err == f"fatal: {what}: the sandbox has no network (pysh runs git without it)\n"


def test_maintenance_says_it_does_nothing(repo):
    for cmd in ("gc", "prune", "repack"):
        r = g(repo, cmd)
        assert r.status == 0
        assert r.err == f"pysh: git {cmd}: nothing to do (pysh's git does not repack or prune)\n"
    assert g(repo, "fsck").status == 0


def test_gc_on_read_only_is_gits_error(tree):
    import subprocess

    from pysh.commands import default_registry
    from pysh.interpreter import ExecCommand

    env = dict(ENV, PATH="/usr/bin:/bin", HOME=tree.ws, GIT_CONFIG_NOSYSTEM="1")
    subprocess.run(["git", "init", "-q"], cwd=tree.ws, env=env, check=True)
    with ExecCommand(tree.ws, registry=default_registry(), read_only=True) as ex:
        r = g(ex, "gc")
    assert r.status == 128
    assert r.err == "fatal: Unable to create '/batch/.git/gc.pid.lock': Read-only file system\n"
