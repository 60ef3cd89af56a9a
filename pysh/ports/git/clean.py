"""git clean: untracked (and with -x/-X ignored) files, and with -d directories, below the cwd
or the paths given; -n lists, -f removes (clean.requireForce as git)."""

from __future__ import annotations

import os

from pysh.ports.git import status
from pysh.ports.git.core import Ctx, Opts, Pathspec, fatal, quote_path, vjoin
from pysh.shellkit import FileSystemError, decode


async def cmd_clean(ctx: Ctx, args: list[str]) -> int:
    vals, pos, after = Opts("clean", {
        "n": ("flag", "dry"), "dry-run": ("flag", "dry"), "f": ("count", "force"),
        "force": ("count", "force"), "d": ("flag", "dirs"), "x": ("flag", "x"),
        "X": ("flag", "X"), "q": ("flag", "quiet"), "quiet": ("flag", "quiet"),
        "i": ("flag", "interactive"), "interactive": ("flag", "interactive"),
        "e": ("multi", "exclude"), "exclude": ("multi", "exclude"),
    }, usage="usage: git clean [-d] [-f] [-i] [-n] [-q] [-e <pattern>] [-x | -X] [--] "
              "[<pathspec>...]").parse(args)
    paths = pos + (after or [])
    repo = ctx.repo
    repo.require_worktree("clean")
    if vals.get("interactive"):
        raise fatal("git clean -i is interactive: pysh has no terminal (use -n, then -f)")
    if vals.get("exclude"):
        raise fatal("git clean -e is not available in pysh's git (use a .gitignore rule)")
    dry, force = bool(vals.get("dry")), vals.get("force") or 0
    required = (repo.cfg_get("clean", "requireForce") or "true").lower() not in (
        "false", "no", "off", "0")
    if required and not dry and not force:
        raise fatal("clean.requireForce defaults to true and neither -i, -n, nor -f given; "
                    "refusing to clean")
    if vals.get("x") and vals.get("X"):
        raise fatal("-x and -X cannot be used together")
    ps = Pathspec(repo, paths or ["."])
    want_ignored = bool(vals.get("x") or vals.get("X"))
    st = status.compute(repo, untracked="normal", ignored=want_ignored, pathspec=ps)
    found = [] if vals.get("X") else list(st.untracked)
    if want_ignored:
        found += st.ignored
    if not vals.get("dirs") and not paths:  # no -d: untracked directories only under a path
        found = [p for p in found if not p.endswith(b"/")]
    verb = "Would remove" if dry else "Removing"
    out = []
    for p in sorted(found):
        ctx.tick()
        shown = quote_path(repo.rel_to_cwd(p.rstrip(b"/"))) + ("/" if p.endswith(b"/") else "")
        if not vals.get("quiet") or dry:
            out.append(f"{verb} {shown}\n")
        if not dry:
            ctx.write("".join(out))
            out.clear()
            _remove(ctx, vjoin(repo.vtop, decode(p).rstrip("/")), p.endswith(b"/"), shown)
    ctx.write("".join(out))
    return 0


def _remove(ctx: Ctx, vpath: str, is_dir: bool, shown: str) -> None:
    """rm -r through the core, one confined call per entry; links are removed, not followed."""
    core = ctx.shell.core
    try:
        if is_dir:
            for name, t in core.scandir(vpath):
                ctx.tick()
                _remove(ctx, vjoin(vpath, name), t == "d", shown)
            core.rmdir(vpath)
        else:
            core.unlink(vpath)
    except FileSystemError as e:
        ctx.ewrite(f"warning: failed to remove {shown}: {os.strerror(e.errno)}\n")
