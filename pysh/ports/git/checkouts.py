"""git submodule status and git worktree list: the checkouts a repository has (pysh's git
makes no linked worktrees and clones no submodules: those subcommands say so in one line)."""

from __future__ import annotations

from dulwich.index import ConflictedIndexEntry

from pysh.ports.git import worktree
from pysh.ports.git.core import Ctx, GitExit, Opts, Pathspec, fatal, quote_path
from pysh.shellkit import decode


async def cmd_submodule(ctx: Ctx, args: list[str]) -> int:
    sub = args[0] if args and not args[0].startswith("-") else "status"
    rest = args[1:] if args and not args[0].startswith("-") else args
    if sub != "status":
        raise fatal(f"git submodule {sub} is not available in pysh's git (no network, no "
                    "clones): 'git submodule status' lists the submodules")
    vals, pos, after = Opts("submodule", {
        "cached": ("flag", "cached"), "recursive": ("flag", "recursive"),
        "q": ("flag", "quiet"), "quiet": ("flag", "quiet")},
        usage="usage: git submodule status [--quiet] [--cached] [--recursive] [<path>...]"
    ).parse(rest)
    repo = ctx.repo
    repo.require_worktree("submodule")
    paths = pos + (after or [])
    ps = Pathspec(repo, paths) if paths else None
    out = []
    for p, e in sorted(repo.index.items()):
        ctx.tick()
        if ps is not None and not ps.match(p):
            continue
        shown = quote_path(repo.rel_to_cwd(p))
        if isinstance(e, ConflictedIndexEntry):
            if any(x is not None and x.mode == worktree.GITLINK for x in (e.this, e.other)):
                out.append(f"U{'0' * 40} {shown}\n")
            continue
        if e.mode != worktree.GITLINK:
            continue
        s = worktree.submodule(repo, p)
        if s is None or s.head() is None:
            out.append(f"-{decode(e.sha)} {shown}\n")
            continue
        head = s.head()
        sha = e.sha if vals.get("cached") else head
        mark = " " if head == e.sha else "+"
        out.append(f"{mark}{decode(sha)} {shown} ({_rev_name(s, sha)})\n")
    if not vals.get("quiet"):
        ctx.write("".join(out))
    return 0


def _rev_name(repo, sha: bytes) -> str:
    """git submodule's compute_rev_name: describe, --tags, --contains, then --all --always."""
    from pysh.ports.git.refcmds import _describe, _name_rev

    for vals in ({}, {"tags": True}):
        try:
            return _describe(repo, sha, vals, 7)
        except GitExit:
            pass
    name = _name_rev(repo, sha, tags_only=True, prefer_tags=True)
    if name is not None:
        return name[5:] if name.startswith("tags/") else name
    return _describe(repo, sha, {"all": True, "always": True}, 7)


WORKTREE_USAGE = """usage: git worktree add [-f] [--detach] [--checkout] [--lock [--reason <string>]]
                        [-b <new-branch>] <path> [<commit-ish>]
   or: git worktree list [-v | --porcelain [-z]]
   or: git worktree lock [--reason <string>] <worktree>
   or: git worktree move <worktree> <new-path>
   or: git worktree prune [-n] [-v] [--expire <expire>]
   or: git worktree remove [-f] <worktree>
   or: git worktree repair [<path>...]
   or: git worktree unlock <worktree>
"""


async def cmd_worktree(ctx: Ctx, args: list[str]) -> int:
    sub = args[0] if args else ""
    if sub != "list":
        if not sub:
            raise GitExit("error: need a subcommand\n" + WORKTREE_USAGE, 129)
        raise fatal(f"git worktree {sub} is not available in pysh's git: one work tree per "
                    "repository ('git worktree list' shows it)")
    vals, pos, after = Opts("worktree", {
        "porcelain": ("flag", "porcelain"), "v": ("flag", "verbose"),
        "verbose": ("flag", "verbose"), "z": ("flag", "z"),
        "expire": ("arg", "expire")}, usage="usage: git worktree list [<options>]").parse(args[1:])
    if pos or after:
        raise GitExit("usage: git worktree list [<options>]", 129)
    repo = ctx.repo
    bare = repo.vtop is None
    path = repo.vgit if bare else repo.vtop
    head = repo.head()
    br = repo.head_ref()
    if vals.get("porcelain"):
        eol = "\0" if vals.get("z") else "\n"
        lines = [f"worktree {path}"]
        if bare:
            lines.append("bare")
        else:
            lines.append(f"HEAD {decode(head) if head else '0' * 40}")
            lines.append(f"branch {decode(br)}" if br is not None else "detached")
        ctx.write("".join(ln + eol for ln in lines) + eol)
        return 0
    if bare:
        ctx.write(f"{path}  (bare)\n")
        return 0
    where = f"[{decode(br)[11:] if br.startswith(b'refs/heads/') else decode(br)}]" \
        if br is not None else "(detached HEAD)"
    ctx.write(f"{path}  {repo.short(head) if head else '0' * 7} {where}\n")
    return 0
