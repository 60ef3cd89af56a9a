"""The commit-message editor, as git finds it (GIT_EDITOR, core.editor, VISUAL, EDITOR).

An editor is a command line like any other: it runs in-process, through the shell, on the
message file in the git dir (``:`` is git's own "leave it as it is"). With none set, git
would start ``vi`` on a terminal; the sandbox has neither, so it says so in one line.
"""

from __future__ import annotations

from pysh.ports.git.core import Ctx, GitExit, Repo, config_get
from pysh.shellkit import decode, encode

NO_EDITOR = ("error: {what} needs an editor and none is set (pysh has no terminal): "
             "give the message with -m or -F, or set GIT_EDITOR")


def editor_command(ctx: Ctx) -> str | None:
    env = ctx.env
    ed = env.get("GIT_EDITOR")
    if ed is None:
        ed = config_get(ctx, "core", "editor")
    term = env.get("TERM")
    dumb = not term or term == "dumb"
    if ed is None and not dumb:
        ed = env.get("VISUAL")
    if ed is None:
        ed = env.get("EDITOR")
    return ed if ed else None


def no_editor(ctx: Ctx, what: str) -> None:
    if what == "commit":  # git's own words (no terminal, no editor set)
        raise GitExit("error: Terminal is dumb, but EDITOR unset\n"
                      "Please supply the message using either -m or -F option.", 1)
    raise GitExit(NO_EDITOR.format(what=what), 1)


async def edit(ctx: Ctx, repo: Repo, text: str, *, what: str = "commit",
               name: str = "COMMIT_EDITMSG") -> str:
    """The message after the user's editor saw ``text`` (written to ``.git/<name>``)."""
    ed = editor_command(ctx)
    if ed is None:
        no_editor(ctx, what)
    repo.write_state(name, encode(text))
    if ed.strip() != ":":
        import shlex

        vpath = repo.gitdir.vpath(name)
        status = await ctx.shell.run_script(f"{ed} {shlex.quote(vpath)}")
        if status != 0:
            raise GitExit(f"error: There was a problem with the editor '{ed}'.", 1)
    data = repo.read_state(name)
    return decode(data or b"")
