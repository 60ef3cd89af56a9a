"""git add, rm, mv, commit, ls-files."""

from __future__ import annotations

import posixpath

from dulwich.index import ConflictedIndexEntry

from pysh.ports.git import diffing, gitfs, worktree
from pysh.ports.git.core import (
    Ctx,
    GitExit,
    Opts,
    Pathspec,
    Repo,
    cleanup_message,
    fatal,
    fmt_date,
    identity,
    parse_date,
    quote_path,
    subject_of,
    update_ref,
    usage_error,
    vjoin,
)
from pysh.shellkit import FileSystemError, decode, encode


def _stage_file(repo: Repo, rel: bytes) -> bool:
    """Put the work-tree content of ``rel`` in the index (False when it is gone)."""
    got = repo.wt_read(rel)
    if got is None:
        return False
    mode, data, st = got
    sha = repo.add_blob(data)
    repo.index[rel] = worktree.make_entry(st, sha, mode)
    return True


def stage_tracked(repo: Repo, pathspec=None) -> None:
    """``add -u``: modifications and deletions of tracked files."""
    index = repo.index
    paths = set(index)
    sc = worktree.scan(repo, paths, want_untracked=False, pathspec=pathspec)
    idx_mtime = worktree.index_mtime(repo)
    for path in sorted(paths):
        if pathspec is not None and not pathspec.match(path):
            continue
        repo.ctx.tick()
        e = index[path]
        st = sc.files.get(path)
        if st is None:
            del index[path]
            continue
        if isinstance(e, ConflictedIndexEntry):
            _stage_file(repo, path)
            continue
        if worktree.is_gitlink_dir(e, st):
            worktree.stage_gitlink(repo, path, e)
            continue
        if worktree.stat_clean(e, st, idx_mtime):
            continue
        _stage_file(repo, path)


ADD_EMPTY = ("Nothing specified, nothing added.\n"
             "hint: Maybe you wanted to say 'git add .'?\n"
             "hint: Turn this message off by running\n"
             "hint: \"git config advice.addEmptyPathspec false\"\n")

IGNORED_MSG = ("The following paths are ignored by one of your .gitignore files:\n{paths}"
               "hint: Use -f if you really want to add them.\n"
               "hint: Turn this message off by running\n"
               "hint: \"git config advice.addIgnoredFile false\"\n")


async def cmd_add(ctx: Ctx, args: list[str]) -> int:
    opts = Opts("add", {
        "A": ("flag", "all"), "all": ("flag", "all"), "u": ("flag", "update"),
        "update": ("flag", "update"), "f": ("flag", "force"), "force": ("flag", "force"),
        "n": ("flag", "dry"), "dry-run": ("flag", "dry"), "v": ("flag", "verbose"),
        "verbose": ("flag", "verbose"), "ignore-removal": ("flag", "noremoval"),
        "no-all": ("flag", "noremoval"), "N": ("flag", "ita"), "intent-to-add": ("flag", "ita"),
        "p": ("flag", "patch"), "patch": ("flag", "patch"), "i": ("flag", "patch"),
        "interactive": ("flag", "patch"), "refresh": ("flag", "refresh"),
        "ignore-errors": ("flag", "ignerr"), "chmod": ("arg", "chmod"),
    }, usage="usage: git add [<options>] [--] <pathspec>...")
    vals, pos, after = opts.parse(args)
    paths = pos + (after or [])
    if vals.get("patch"):
        raise fatal("interactive add is not available in the sandbox")
    repo = ctx.repo
    repo.require_worktree("add")
    if vals.get("all") is False:
        vals["noremoval"] = True
    if not paths and not (vals.get("all") or vals.get("update")):
        ctx.ewrite(ADD_EMPTY)
        return 0
    repo.lock_index()
    ps = Pathspec(repo, paths) if paths else None
    index = repo.index
    tracked = set(index)
    verbose = vals.get("verbose") or vals.get("dry")
    dry = vals.get("dry")
    force = vals.get("force")
    sc = worktree.scan(repo, tracked, want_untracked=not vals.get("update"), want_ignored=bool(force),
                       pathspec=ps)
    matched = [False] * (len(ps.items) if ps else 0)

    def mark(p: bytes) -> None:
        if ps:
            i = ps.match_index(p)
            if i >= 0:
                matched[i] = True
                # every item matching counts
                for j, (rel, glob) in enumerate(ps.items):
                    if not matched[j]:
                        from pysh.ports.git.core import _match_one

                        if _match_one(rel, glob, decode(p)):
                            matched[j] = True

    # nested repositories and ignored files brought in by -f
    candidates: list[bytes] = [p for p in sc.untracked if not p.endswith(b"/")]
    if force:
        extra = _expand_ignored(repo, sc.ignored)
        candidates += [p for p in extra if ps is None or ps.match(p)]
    idx_mtime = worktree.index_mtime(repo)
    changed: list[tuple[str, bytes]] = []
    for path in sorted(tracked):
        if ps is not None and not ps.match(path):
            continue
        mark(path)
        ctx.tick()
        e = index[path]
        st = sc.files.get(path)
        if st is None:
            if vals.get("noremoval"):
                continue
            changed.append(("remove", path))
            if not dry:
                del index[path]
            continue
        if not isinstance(e, ConflictedIndexEntry) and worktree.is_gitlink_dir(e, st):
            if worktree.stage_gitlink(repo, path, e, dry=bool(dry)):
                changed.append(("add", path))
            continue
        if not isinstance(e, ConflictedIndexEntry) and worktree.stat_clean(e, st, idx_mtime):
            continue
        got = repo.wt_read(path)
        if got is None:
            continue
        mode, data, lst = got
        sha = diffing.ZERO
        from pysh.ports.git.core import git_blob_sha

        sha = git_blob_sha(data)
        if isinstance(e, ConflictedIndexEntry) or sha != e.sha or mode != e.mode:
            changed.append(("add", path))
        if not dry:
            repo.add_blob(data) if (isinstance(e, ConflictedIndexEntry) or sha != e.sha) else None
            index[path] = worktree.make_entry(lst, sha, mode)
    if not vals.get("update"):
        for path in sorted(set(candidates)):
            if ps is not None and not ps.match(path):
                continue
            mark(path)
            ctx.tick()
            changed.append(("add", path))
            if not dry:
                _stage_file(repo, path)
    # pathspecs that matched nothing
    ignored_hits: list[str] = []
    if ps:
        for i, (rel, _glob) in enumerate(ps.items):
            if matched[i]:
                continue
            vp = vjoin(repo.vtop, rel)
            if rel and gitfs.exists(ctx.shell, vp, follow=False):
                if _is_ignored_path(repo, rel):
                    ignored_hits.append(ps.args[i])
                    continue
                if gitfs.is_dir(ctx.shell, vp):
                    continue  # an empty (or wholly ignored) directory
                continue
            if rel == "" or (vals.get("update") and False):
                continue
            raise fatal(f"pathspec '{ps.args[i]}' did not match any files")
    if verbose:
        for what, p in changed:
            ctx.write(f"{what} '{quote_path(repo.rel_to_cwd(p), False)}'\n")
    if not dry:
        repo.write_index()
    if ignored_hits:
        ctx.ewrite(IGNORED_MSG.format(paths="".join(f"{p}\n" for p in ignored_hits)))
        return 1
    return 0


def _is_ignored_path(repo: Repo, rel: str) -> bool:
    ign = worktree.Ignores(repo)
    return ign.ignored(rel, gitfs.is_dir(repo.shell, vjoin(repo.vtop, rel)))


def _expand_ignored(repo: Repo, ignored: list[bytes]) -> list[bytes]:
    """The files under ignored paths (``add -f``), via the safe walker."""
    out = []
    for p in ignored:
        if not p.endswith(b"/"):
            out.append(p)
            continue
        top = vjoin(repo.vtop, decode(p[:-1]))
        base = len(repo.vtop.rstrip("/")) + 1
        for wd in repo.shell.walk(top):
            wd.dirs[:] = [d for d in wd.dirs if d.name != ".git"]
            for f in wd.files:
                if f.type in ("f", "l"):
                    out.append(encode(f.path[base:]))
    return out


# ---------------------------------------------------------------------- rm
def _blob_of_worktree(repo: Repo, rel: bytes) -> bytes | None:
    got = repo.wt_read(rel)
    if got is None:
        return None
    from pysh.ports.git.core import git_blob_sha

    return git_blob_sha(got[1])


async def cmd_rm(ctx: Ctx, args: list[str]) -> int:
    opts = Opts("rm", {
        "r": ("flag", "r"), "cached": ("flag", "cached"), "f": ("flag", "force"),
        "force": ("flag", "force"), "q": ("flag", "quiet"), "quiet": ("flag", "quiet"),
        "n": ("flag", "dry"), "dry-run": ("flag", "dry"), "ignore-unmatch": ("flag", "ignun"),
    }, usage="usage: git rm [<options>] [--] <file>...")
    vals, pos, after = opts.parse(args)
    paths = pos + (after or [])
    if not paths:
        raise usage_error("usage: git rm [<options>] [--] <file>...")
    repo = ctx.repo
    repo.require_worktree("rm")
    repo.lock_index()
    index = repo.index
    ps = Pathspec(repo, paths)
    targets: list[bytes] = []
    for i, (rel, glob) in enumerate(ps.items):
        hits = [p for p in index if _item_match(rel, glob, p)]
        if not hits:
            if vals.get("ignun"):
                continue
            raise fatal(f"pathspec '{ps.args[i]}' did not match any files")
        if not vals.get("r") and not glob and rel and encode(rel) not in index:
            raise fatal(f"not removing '{ps.args[i]}' recursively without -r")
        targets.extend(hits)
    targets = sorted(set(targets))
    head_flat = repo.flat_tree(repo.tree_of(repo.head()))
    if not vals.get("force"):
        staged_both, staged, local = [], [], []
        for p in targets:
            e = index[p]
            if isinstance(e, ConflictedIndexEntry):
                continue
            wsha = _blob_of_worktree(repo, p)
            h = head_flat.get(p)
            idx_differs_head = h is None or h[1] != e.sha
            wt_differs = wsha is not None and wsha != e.sha
            if vals.get("cached"):
                if idx_differs_head and wt_differs and (h is None or wsha != h[1]):
                    staged_both.append(p)
                continue
            if idx_differs_head and wt_differs:
                staged_both.append(p)
            elif idx_differs_head and h is not None:
                staged.append(p)
            elif idx_differs_head and h is None:
                staged.append(p)
            elif wt_differs:
                local.append(p)
        msgs = []
        if staged_both:
            msgs.append(_rm_msg(repo, staged_both, "has staged content different from both the\nfile and the HEAD",
                                "have staged content different from both the\nfile and the HEAD",
                                "(use -f to force removal)"))
        if staged:
            msgs.append(_rm_msg(repo, staged, "has changes staged in the index",
                                "have changes staged in the index",
                                "(use --cached to keep the file, or -f to force removal)"))
        if local:
            msgs.append(_rm_msg(repo, local, "has local modifications", "have local modifications",
                                "(use --cached to keep the file, or -f to force removal)"))
        if msgs:
            ctx.ewrite("".join(msgs))
            return 1
    for p in targets:
        if not vals.get("quiet"):
            ctx.write(f"rm '{quote_path(p, False)}'\n")
        if vals.get("dry"):
            continue
        del index[p]
        if not vals.get("cached"):
            try:
                repo.wt_remove(p)
            except FileSystemError:
                pass
    if not vals.get("dry"):
        repo.write_index()
    return 0


def _rm_msg(repo: Repo, paths: list[bytes], one: str, many: str, hint: str) -> str:
    head = f"error: the following file {one}:\n" if len(paths) == 1 else \
        f"error: the following files {many}:\n"
    return head + "".join(f"    {decode(p)}\n" for p in paths) + hint + "\n"


def _item_match(rel: str, glob: bool, p: bytes) -> bool:
    from pysh.ports.git.core import _match_one

    return _match_one(rel, glob, decode(p))


# ---------------------------------------------------------------------- mv
def _rename(shell, src_v: str, dst_v: str) -> None:
    shell.core.rename(src_v, dst_v)


async def cmd_mv(ctx: Ctx, args: list[str]) -> int:
    opts = Opts("mv", {"f": ("flag", "force"), "force": ("flag", "force"),
                       "k": ("flag", "skip"), "n": ("flag", "dry"), "dry-run": ("flag", "dry"),
                       "v": ("flag", "verbose"), "verbose": ("flag", "verbose")},
                usage="usage: git mv [<options>] <source>... <destination>")
    vals, pos, after = opts.parse(args)
    paths = pos + (after or [])
    if len(paths) < 2:
        raise usage_error(opts.usage)
    repo = ctx.repo
    repo.require_worktree("mv")
    repo.lock_index()
    index = repo.index
    shell = ctx.shell
    ps = Pathspec(repo, paths)
    rels = [r for r, _ in ps.items]
    srcs, dst = rels[:-1], rels[-1]
    dst_arg = ps.args[-1]
    dst_is_dir = gitfs.is_dir(shell, vjoin(repo.vtop, dst)) if dst else True
    if len(srcs) > 1 and not dst_is_dir:
        raise fatal(f"destination '{dst_arg}' is not a directory")
    moves: list[tuple[str, str, str]] = []
    for i, src in enumerate(srcs):
        src_arg = ps.args[i]
        target = posixpath.join(dst, posixpath.basename(src)) if dst_is_dir else dst
        shown = f"source={src}, destination={target}"
        sv = vjoin(repo.vtop, src)
        st = gitfs.lstat(shell, sv)
        try:
            if st is None:
                raise GitExit(f"fatal: bad source, {shown}")
            import stat as _st

            if _st.S_ISDIR(st.st_mode):
                if not any(p.startswith(encode(src) + b"/") for p in index):
                    raise GitExit(f"fatal: source directory is empty, {shown}")
                if target == src or target.startswith(src + "/"):
                    raise GitExit(f"fatal: can not move directory into itself, {shown}")
            elif encode(src) not in index:
                raise GitExit(f"fatal: not under version control, {shown}")
            if gitfs.exists(shell, vjoin(repo.vtop, target), follow=False) and not vals.get("force"):
                raise GitExit(f"fatal: destination exists, {shown}")
        except GitExit:
            if vals.get("skip"):
                continue
            raise
        del src_arg
        moves.append((src, target, shown))
    for src, target, _ in moves:
        if vals.get("verbose") or vals.get("dry"):
            ctx.write(f"Renaming {src} to {target}\n")
        if vals.get("dry"):
            continue
        tv = vjoin(repo.vtop, target)
        if vals.get("force") and gitfs.exists(shell, tv, follow=False) and not gitfs.is_dir(shell, tv):
            shell.core.unlink(tv)
        _rename(shell, vjoin(repo.vtop, src), tv)
        sb, tb = encode(src), encode(target)
        for p in sorted(index):
            if p == sb or p.startswith(sb + b"/"):
                e = index[p]
                del index[p]
                index[tb + p[len(sb):]] = e
    if not vals.get("dry"):
        repo.write_index()
    return 0


# ------------------------------------------------------------------ commit
def build_tree_from_index(repo: Repo) -> bytes:
    from dulwich.index import commit_tree

    items = []
    for path, e in repo.index.items():
        if isinstance(e, ConflictedIndexEntry):
            continue
        items.append((path, e.sha, e.mode))
    return commit_tree(repo.object_store, items)


def tree_from_flat(repo: Repo, flat: dict[bytes, tuple[int, bytes]]) -> bytes:
    from dulwich.index import commit_tree

    return commit_tree(repo.object_store, [(p, s, m) for p, (m, s) in flat.items()])


def make_commit(repo: Repo, tree: bytes, parents: list[bytes], message: str, author, committer):
    from dulwich.objects import Commit

    c = Commit()
    c.tree = tree
    c.parents = parents
    c.author = author.raw()
    c.committer = committer.raw()
    c.author_time, c.author_timezone = author.time, author.tz
    c.commit_time, c.commit_timezone = committer.time, committer.tz
    c.message = encode(message)
    repo.add_object(c)
    return c


def commit_summary(repo: Repo, c, *, root: bool, show_date: bool = False) -> str:
    br = repo.head_branch()
    label = br if br is not None else "detached HEAD"
    if root:
        label += " (root-commit)"
    out = [f"[{label} {repo.short(c.id)}] {subject_of(c.message)}\n"]
    if c.author != c.committer:
        out.append(f" Author: {decode(c.author)}\n")
    if show_date:
        out.append(f" Date: {fmt_date(c.author_time, c.author_timezone)}\n")
    parent_tree = repo[c.parents[0]].tree if c.parents else None
    old = repo.flat_tree(parent_tree)
    new = repo.flat_tree(c.tree)
    changes = diffing.detect_renames(diffing.compare(old, new), lambda s: repo[s].as_raw_string(),
                                     budget=repo.shell.budget)
    if changes or not c.parents:
        load = lambda s: repo[s].as_raw_string() if s != diffing.ZERO else b""
        if changes:
            out.append(diffing.shortstat_for(changes, load, repo.shell.budget))
            out.append(diffing.summary_lines(changes))
    return "".join(out)


def _parse_author(s: str):
    import re

    m = re.fullmatch(r"\s*(.*?)\s*<([^>]*)>\s*", s)
    if not m:
        raise fatal(f"--author '{s}' is not 'Name <email>' and matches no existing author")
    return m.group(1), m.group(2)


EMPTY_AMEND = ("You asked to amend the most recent commit, but doing so would make\n"
               "it empty. You can repeat your command with --allow-empty, or you can\n"
               "remove the commit entirely with \"git reset HEAD^\".\n")
EMPTY_PICK = ("The previous cherry-pick is now empty, possibly due to conflict resolution.\n"
              "If you wish to commit it anyway, use:\n\n    git commit --allow-empty\n\n")
EMPTY_PICK_MORE = {
    "cherry-pick": "Otherwise, please use 'git cherry-pick --skip'\n",
    "rebase-pick": "Otherwise, please use 'git rebase --skip'\n",
}


def _editor_comment(repo: Repo, text: str, cleanup: str) -> str:
    """What git adds below the message it gives the editor: the hint and the status."""
    from pysh.ports.git.status import compute, long_text

    if cleanup not in ("default", "strip"):
        return ""
    hint = ("Please enter the commit message for your changes. Lines starting\n"
            "with '#' will be ignored, and an empty message aborts the commit.\n\n")
    st = long_text(repo, compute(repo)).replace("No commits yet", "Initial commit")
    body = hint + "".join(ln for ln in st.splitlines(keepends=True)  # git: status without hints
                          if not ln.startswith("  (")).split("\n\nno changes added")[0]
    lines = ["#\t" + ln[1:] if ln.startswith("\t") else ("# " + ln if ln else "#")
             for ln in body.rstrip("\n").split("\n")]
    return ("" if text.endswith("\n") or not text else "\n") + "\n" + "\n".join(lines) + "\n#\n"


async def cmd_commit(ctx: Ctx, args: list[str], *, message: str | None = None,
                     author=None, reflog: str | None = None) -> int:
    """git commit. The sequencer calls it as git runs ``git commit`` (a message and author
    of its own, its reflog action)."""
    opts = Opts("commit", {
        "m": ("multi", "message"), "message": ("multi", "message"), "a": ("flag", "all"),
        "all": ("flag", "all"), "amend": ("flag", "amend"), "allow-empty": ("flag", "allowempty"),
        "allow-empty-message": ("flag", "allowemptymsg"), "F": ("arg", "file"),
        "file": ("arg", "file"), "q": ("flag", "quiet"), "quiet": ("flag", "quiet"),
        "author": ("arg", "author"), "date": ("arg", "date"), "no-edit": ("flag", "noedit"),
        "edit": ("flag", "edit"), "e": ("flag", "edit"),
        "no-verify": ("flag", "noverify"), "n": ("flag", "noverify"), "verify": ("flag", "verify"),
        "s": ("flag", "signoff"), "signoff": ("flag", "signoff"), "v": ("flag", "verbose"),
        "verbose": ("flag", "verbose"), "cleanup": ("arg", "cleanup"), "C": ("arg", "reuse"),
        "reuse-message": ("arg", "reuse"), "c": ("arg", "reedit"), "reedit-message": ("arg", "reedit"),
        "o": ("flag", "only"), "only": ("flag", "only"),
        "i": ("flag", "include"), "include": ("flag", "include"), "S": ("optarg", "gpg"),
        "gpg-sign": ("optarg", "gpg"), "no-gpg-sign": ("flag", "nogpg"),
        "dry-run": ("flag", "dry"), "short": ("flag", "short"), "porcelain": ("flag", "porcelain"),
        "status": ("flag", "statusflag"), "no-status": ("flag", "nostatus"),
        "reset-author": ("flag", "resetauthor"),
    }, usage="usage: git commit [<options>] [--] <pathspec>...")
    vals, pos, after = opts.parse(args)
    paths = pos + (after or [])
    if vals.get("gpg") not in (None, False):
        raise fatal("signing commits is not available in the sandbox")
    repo = ctx.repo
    repo.require_worktree("commit")
    index = repo.index
    head = repo.head()
    amend = bool(vals.get("amend"))
    if amend and head is None:
        raise fatal("You have nothing to amend.")
    repo.lock_index()
    from pysh.ports.git.status import whence as determine_whence

    whence = determine_whence(repo)
    merge_head = None
    if whence == "merge":
        mh = repo.read_state("MERGE_HEAD") or b""
        merge_head = mh.split()[0] if mh.split() else None
        if amend:
            raise fatal("You are in the middle of a merge -- cannot amend.")
    elif whence != "commit" and amend:
        raise fatal("You are in the middle of a cherry-pick -- cannot amend.")
    if vals.get("all") and paths:
        raise fatal("paths '" + " ".join(paths) + " ...' with -a does not make sense")
    if vals.get("all"):  # git add -u first: it resolves conflicts too
        stage_tracked(repo)
    conflicted = sorted(p for p, e in index.items() if isinstance(e, ConflictedIndexEntry))
    if conflicted:
        ctx.write("".join(f"U\t{quote_path(p)}\n" for p in conflicted))
        ctx.ewrite("error: Committing is not possible because you have unmerged files.\n"
                   "hint: Fix them up in the work tree, and then use 'git add/rm <file>'\n"
                   "hint: as appropriate to mark resolution and make a commit.\n")
        raise fatal("Exiting because of an unresolved conflict.")
    # the message
    msgs = vals.get("message") or []
    template = None
    author_commit = None  # the commit whose author (and date) the new one takes
    if message is not None:
        pass
    elif msgs:
        message = "\n\n".join(msgs)
    elif vals.get("file") is not None:
        f = vals["file"]
        try:
            if f == "-":
                data = await ctx.shell.stdin.read()
            else:
                data = gitfs.read_file(ctx.shell, f)
        except OSError:
            raise fatal(f"could not read log file '{f}': No such file or directory") from None
        message = decode(data)
    elif vals.get("reuse") or vals.get("reedit"):
        from pysh.ports.git import revs

        author_commit = repo[revs.resolve(repo, vals.get("reuse") or vals.get("reedit"))]
        message = decode(author_commit.message)
    elif amend:
        template = decode(repo[head].message)
    else:
        mm = repo.read_state("MERGE_MSG")
        if mm is not None:
            template = decode(mm)
    use_editor = (message is None or bool(vals.get("reedit")) or bool(vals.get("edit"))) \
        and not vals.get("noedit")
    if vals.get("noedit") and message is None:
        message = template
    if amend and not vals.get("resetauthor") and author_commit is None:
        author_commit = repo[head]
    if whence == "cherry-pick" and author_commit is None and \
            not vals.get("resetauthor"):
        author_commit = repo.get(repo.read_state("CHERRY_PICK_HEAD").strip())
    cleanup = vals.get("cleanup") or "default"
    if cleanup not in ("default", "whitespace", "strip", "verbatim", "scissors"):
        raise fatal(f"Invalid cleanup mode {cleanup}")
    # what to commit
    if paths:
        ps = Pathspec(repo, paths)
        hits = [p for p in index if ps.match(p)]
        if not hits:
            ctx.ewrite(f"error: pathspec '{paths[0]}' did not match any file(s) known to git\n")
            return 1
        stage_tracked(repo, ps)
    tree = build_tree_from_index(repo)
    base = repo[head] if head is not None else None
    parents = list(base.parents) if (amend and base is not None) else ([head] if head else [])
    if merge_head is not None:
        parents.append(merge_head)
    parent_tree = repo[parents[0]].tree if parents else None
    from pysh.ports.git.status import compute, long_text

    if parents and tree == parent_tree and not vals.get("allowempty") and merge_head is None and \
            not (amend and len(base.parents) > 1):
        repo.write_index() if vals.get("all") else None
        ctx.write(long_text(repo, compute(repo)))
        if amend:
            ctx.ewrite(EMPTY_AMEND)
        elif whence in EMPTY_PICK_MORE:
            ctx.ewrite(EMPTY_PICK + EMPTY_PICK_MORE[whence])
        return 1
    if not parents and not index_has_entries(repo) and not vals.get("allowempty"):
        ctx.write(long_text(repo, compute(repo)))
        return 1
    if use_editor:
        from pysh.ports.git.editor import edit

        await ctx.flush()
        text = message if message is not None else (template or "")
        message = await edit(ctx, repo, text + _editor_comment(repo, text, cleanup))
    if message is None:
        message = ""
    if cleanup == "default":
        cleanup = "strip" if use_editor else "whitespace"
    if cleanup == "whitespace":
        message = cleanup_message(message)
    elif cleanup in ("strip", "scissors"):
        message = cleanup_message(message, True)
    if vals.get("signoff"):
        who = identity(ctx, "COMMITTER")
        line = f"Signed-off-by: {who.name} <{who.email}>"
        if line not in message:
            message = message.rstrip("\n") + ("\n\n" if "\n" not in message.strip("\n") or
                                             not message.rstrip("\n").split("\n")[-1].startswith(
                                                 "Signed-off-by:") else "\n") + line + "\n"
    if not message.strip() and not vals.get("allowemptymsg"):
        ctx.ewrite("Aborting commit due to empty commit message.\n")
        return 1
    # identities (git asks for the author first)
    identity(ctx, "AUTHOR")
    committer = identity(ctx, "COMMITTER")
    if author is not None:
        pass
    elif vals.get("author"):
        name, email = _parse_author(vals["author"])
        author = identity(ctx, "AUTHOR")
        author.name, author.email = name, email
    elif author_commit is not None:
        from pysh.ports.git.sequencer import author_of

        author = author_of(author_commit)
    else:
        author = identity(ctx, "AUTHOR")
    if vals.get("date"):
        d = parse_date(vals["date"])
        if d is None:
            raise fatal(f"invalid date format: {vals['date']}")
        author.time, author.tz = d
    repo.write_index()
    c = make_commit(repo, tree, parents, message, author, committer)
    subject = subject_of(c.message)
    action = reflog or ctx.env.get("GIT_REFLOG_ACTION")
    if action:
        pass
    elif amend:
        action = "commit (amend)"
    elif not parents:
        action = "commit (initial)"
    elif merge_head is not None:
        action = "commit (merge)"
    elif whence == "cherry-pick":
        action = "commit (cherry-pick)"
    elif whence == "rebase-pick":
        action = "commit (rebase)"
    else:
        action = "commit"
    update_ref(repo, b"HEAD", c.id, f"{action}: {subject}", old=head, ident=committer)
    for name in ("MERGE_HEAD", "MERGE_MSG", "MERGE_MODE", "CHERRY_PICK_HEAD", "REVERT_HEAD",
                 "AUTO_MERGE"):
        repo.remove_state(name)
    if not vals.get("quiet"):
        ctx.write(commit_summary(repo, c, root=not parents and not amend, show_date=author_commit is not None or
                                 bool(vals.get("date"))))
    return 0


def _eol_cols(repo: Repo, p: bytes, e, vals: dict) -> str:
    """``--eol``: i/<index eol> w/<work-tree eol> attr/<attributes>, then a tab."""
    if not vals.get("eol"):
        return ""
    from pysh.ports.git import attrs as _attrs
    from pysh.ports.git.core import read_worktree_file

    regular = not isinstance(e, ConflictedIndexEntry) and e.mode >> 12 == 0o10
    i = w = ""
    if regular:
        obj = repo.get(e.sha)
        i = _attrs.eol_info(obj.as_raw_string() if obj is not None else None)
        got = read_worktree_file(repo.shell, repo.wt(p))
        if got is not None and got[0] != 0o120000:
            w = _attrs.eol_info(got[1])
    attr = _attrs.ATTR_WORDS[repo.attrs.attr_action(p)]
    return f"i/{i:<5} w/{w:<5} attr/{attr:<17}\t"


def index_has_entries(repo: Repo) -> bool:
    return len(repo.index) > 0


# ----------------------------------------------------------------- ls-files
async def cmd_ls_files(ctx: Ctx, args: list[str]) -> int:
    opts = Opts("ls-files", {
        "c": ("flag", "cached"), "cached": ("flag", "cached"), "s": ("flag", "stage"),
        "stage": ("flag", "stage"), "m": ("flag", "modified"), "modified": ("flag", "modified"),
        "d": ("flag", "deleted"), "deleted": ("flag", "deleted"), "o": ("flag", "others"),
        "others": ("flag", "others"), "i": ("flag", "ignored"), "ignored": ("flag", "ignored"),
        "exclude-standard": ("flag", "std"), "z": ("flag", "z"), "full-name": ("flag", "full"),
        "u": ("flag", "unmerged"), "unmerged": ("flag", "unmerged"),
        "error-unmatch": ("flag", "errun"), "directory": ("flag", "directory"),
        "no-empty-directory": ("flag", "noempty"), "t": ("flag", "tags"),
        "x": ("multi", "exclude"), "exclude": ("multi", "exclude"),
        "abbrev": ("optarg", "abbrev"), "deduplicate": ("flag", "dedup"),
        "eol": ("flag", "eol"),
    }, usage="usage: git ls-files [<options>] [<file>...]")
    vals, pos, after = opts.parse(args)
    paths = pos + (after or [])
    repo = ctx.repo
    repo.require_worktree("ls-files")
    index = repo.index
    ps = Pathspec(repo, paths) if paths else None
    pre = repo.prefix()
    end = "\0" if vals.get("z") else "\n"
    quote = not vals.get("z")

    def show(p: bytes) -> str:
        if vals.get("full"):
            return quote_path(p, quote)
        return quote_path(repo.rel_to_cwd(p), quote)

    def in_scope(p: bytes) -> bool:
        if ps is not None:
            return ps.match(p)
        return not pre or decode(p).startswith(pre)

    want_cached = vals.get("cached") or vals.get("stage") or not any(
        vals.get(k) for k in ("modified", "deleted", "others", "ignored", "unmerged"))
    out = []
    tags = vals.get("tags")
    if vals.get("stage") or vals.get("unmerged"):
        for p in sorted(index):
            if not in_scope(p):
                continue
            e = index[p]
            if isinstance(e, ConflictedIndexEntry):
                for stage, se in ((1, e.ancestor), (2, e.this), (3, e.other)):
                    if se is not None:
                        out.append(f"{se.mode:06o} {decode(se.sha)} {stage}\t{show(p)}{end}")
            elif not vals.get("unmerged"):
                out.append(f"{e.mode:06o} {decode(e.sha)} 0\t{show(p)}{end}")
    elif want_cached:
        for p in sorted(index):
            if in_scope(p):
                out.append(("H " if tags else "") + _eol_cols(repo, p, index[p], vals) +
                           show(p) + end)
    if vals.get("modified") or vals.get("deleted"):
        sc = worktree.scan(repo, set(index), want_untracked=False)
        idx_mtime = worktree.index_mtime(repo)
        for p in sorted(index):
            if not in_scope(p):
                continue
            e = index[p]
            st = sc.files.get(p)
            if st is None:
                if vals.get("deleted"):
                    out.append(("R " if tags else "") + show(p) + end)
                if vals.get("modified"):
                    out.append(("C " if tags else "") + show(p) + end)
                continue
            if vals.get("modified") and not isinstance(e, ConflictedIndexEntry):
                sha, mode = worktree.worktree_sha(repo, p, e, st, idx_mtime)
                if sha != e.sha or mode != e.mode:
                    out.append(("C " if tags else "") + show(p) + end)
    if vals.get("others") or vals.get("ignored"):
        sc = worktree.scan(repo, set(index), want_untracked=True, want_ignored=bool(vals.get("ignored")))
        if vals.get("ignored"):
            items = _expand_ignored(repo, sc.ignored) if not vals.get("directory") else sc.ignored
        else:
            items = sc.untracked
            if not vals.get("directory"):
                items = [p for p in items if not p.endswith(b"/")] + [
                    p for p in items if p.endswith(b"/")]
            else:
                items = worktree.collapse_untracked(items, set(index), False)
        for p in sorted(set(items)):
            if in_scope(p):
                out.append(("? " if tags else "") + show(p) + end)
    if vals.get("errun") and ps is not None:
        for i, (rel, glob) in enumerate(ps.items):
            if not any(_item_match(rel, glob, p) for p in index):
                ctx.write("".join(out))
                ctx.ewrite(f"error: pathspec '{ps.args[i]}' did not match any file(s) known to git\n"
                           "Did you forget to 'git add'?\n")
                return 1
    ctx.write("".join(out))
    return 0
