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


@pytest.mark.overlay_too
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


@pytest.mark.parametrize("argv,status,err", [
    (["submodule", "update", "--init"], 128, "fatal: git submodule update is not available in "
     "pysh's git (no network, no clones): 'git submodule status' lists the submodules\n"),
    (["worktree", "add", "../x"], 128, "fatal: git worktree add is not available in pysh's git: "
     "one work tree per repository ('git worktree list' shows it)\n"),
    (["rebase", "-i", "HEAD"], 1, "error: interactive rebase needs an editor and a terminal: "
     "pysh's git runs only non-interactive rebases\n"),
    (["clean", "-i"], 128, "fatal: git clean -i is interactive: pysh has no terminal (use -n, "
     "then -f)\n"),
    (["reflog", "expire", "--all"], 128, "fatal: reflog expire is not available in pysh's git\n"),
])
def test_out_of_scope_refused_in_one_line(repo, argv, status, err):
    r = g(repo, *argv)
    assert (r.out, r.err, r.status) == ("", err, status)


@pytest.mark.overlay_too
def test_commit_without_message_runs_the_editor_in_process():
    from tests.interp.runner import run_script

    ident = " ".join(f"{k}='{v}'" for k, v in ENV.items())
    r = run_script(f"export {ident}\ngit init -q; echo a > f; git add f\n"
                   "git commit; echo rc=$?\n"  # no editor: one line, exit 1
                   # an editor is a command line, run by pysh itself on COMMIT_EDITMSG
                   "GIT_EDITOR='sed -i 1s/^/edited/' git commit -q; echo rc=$?\n"
                   "git log --format=%B; head -3 .git/COMMIT_EDITMSG\n")
    assert r.stderr == (b"error: Terminal is dumb, but EDITOR unset\n"
                        b"Please supply the message using either -m or -F option.\n")
    assert r.stdout == (b"rc=1\nrc=0\nedited\n\nedited\n# Please enter the commit message for "
                        b"your changes. Lines starting\n# with '#' will be ignored, and an empty "
                        b"message aborts the commit.\n")


def test_library_errors_speak_git_never_python():
    """Every exception the library can raise past a subcommand gets git's words: no class
    name, no repr of a key (fatal: <ExceptionClass>: ... was printed before)."""
    import zlib

    from dulwich import errors as de

    from pysh.ports.git import library_error

    sha = "a" * 40
    cases = [KeyError(bytes.fromhex(sha)), KeyError(sha.encode()), de.NotGitRepository("x"),
             de.ObjectMissing(sha.encode()), de.NotCommitError(sha.encode()),
             de.ChecksumMismatch(sha.encode(), "b" * 40), de.ApplyDeltaError("bad delta"),
             de.ObjectFormatException("bad"), de.PackedRefsException("bad"),
             de.HangupException(), zlib.error("Error -3 while decompressing data"),
             UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte"), ValueError("x"),
             RecursionError(), BufferError("cannot close exported pointers exist")]
    for e in cases:
        text = library_error(e)
        assert text and type(e).__name__ not in text and "Error" not in text, (e, text)
    assert library_error(KeyError(bytes.fromhex(sha))) == f"unable to read {sha}"


def test_corrupt_repository_files_get_git_messages(repo):
    fs = repo.shell.fs
    fs.write_bytes("/batch/.git/packed-refs", b"# pack-refs with: peeled\ngarbage line\n")
    r = g(repo, "branch")
    assert (r.status, r.err) == (128, "fatal: unexpected line in .git/packed-refs: garbage line\n")
    fs.unlink("/batch/.git/packed-refs")
    sha = g(repo, "rev-parse", "HEAD:f").out.strip()
    loose = f"/batch/.git/objects/{sha[:2]}/{sha[2:]}"
    fs.chmod(loose, 0o644)
    fs.write_bytes(loose, b"garbage")
    r = g(repo, "show", "HEAD:f")
    assert r.status == 128 and r.out == ""
    assert r.err == f"fatal: bad object {sha}\n"
