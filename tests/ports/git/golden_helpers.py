"""Helpers for the git golden groups (tests/golden/cases/git_*.py).

Every case runs a list of setup steps first (git commands with pinned identities and dates,
plus file writes done by the harness itself), then the command under test, on both the real
git and pysh's port."""

from __future__ import annotations

ENV = {
    "GIT_AUTHOR_NAME": "A U Thor",
    "GIT_AUTHOR_EMAIL": "author@example.com",
    "GIT_COMMITTER_NAME": "A U Thor",
    "GIT_COMMITTER_EMAIL": "author@example.com",
    "GIT_AUTHOR_DATE": "@1700000000 +0000",
    "GIT_COMMITTER_DATE": "@1700000000 +0000",
    "GIT_CONFIG_NOSYSTEM": "1",
}

FILES = {
    "a.txt": "one\ntwo\nthree\n",
    "b.txt": "bee\n",
    "dir/c.txt": "sea\n",
    "dir/sub/d.txt": "dee\n",
}


def git(*args: str) -> list[str]:
    return ["git", *args]


def dated(n: int, argv: list[str]) -> list[str]:
    """``argv`` with author and committer dates n minutes after the base date."""
    t = 1700000000 + 60 * n
    return ["env", f"GIT_AUTHOR_DATE=@{t} +0000", f"GIT_COMMITTER_DATE=@{t} +0000", *argv]


def commit(n: int, msg: str, *extra: str) -> list[str]:
    return dated(n, git("commit", "-q", *extra, "-m", msg))


def w(path: str, content: str) -> dict:
    return {"write": path, "content": content}


def ap(path: str, content: str) -> dict:
    return {"write": path, "content": content, "append": True}


BASE = [git("init", "-q", "-b", "main"), git("add", "."), commit(1, "initial")]

SETUPS: dict[str, list] = {
    "base": BASE,
    "two_commits": BASE + [ap("a.txt", "four\n"), commit(2, "second", "-a")],
}


def case(name: str, argv: list[str], *, setup=None, files=None, env=None, cwd=None,
         extra_setup=None, stdin=None, fixture=None) -> dict:
    if setup is None:
        steps = list(BASE)
    elif isinstance(setup, str):
        steps = list(SETUPS[setup])
    else:
        steps = list(setup)
    if extra_setup:
        steps += extra_setup
    SETUPS[name] = steps
    full_env = dict(ENV, **(env or {}))
    if files is None:
        files = {} if fixture is not None else FILES
    c = dict(name=name, argv=argv, setup=steps, files=files,
             env={k: v for k, v in full_env.items() if v is not None})
    if cwd:
        c["cwd"] = cwd
    if stdin is not None:
        c["stdin"] = stdin
    if fixture is not None:
        c["fixture"] = fixture
    return c
