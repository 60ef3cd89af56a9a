"""git branch, checkout, switch, restore, reset, tag; the tree-switching machinery."""

from __future__ import annotations

import fnmatch

from dulwich.index import ConflictedIndexEntry

from pysh.ports.git import gitfs, revs, worktree
from pysh.ports.git.core import (
    Ctx,
    GitExit,
    Opts,
    Pathspec,
    Repo,
    append_reflog,
    fatal,
    git_blob_sha,
    identity,
    subject_of,
    update_ref,
    usage_error,
    vjoin,
)
from pysh.ports.git.gitfs import LockError
from pysh.shellkit import decode, encode

DETACHED_ADVICE = """Note: switching to '{name}'.

You are in 'detached HEAD' state. You can look around, make experimental
changes and commit them, and you can discard any commits you make in this
state without impacting any branches by switching back to a branch.

If you want to create a new branch to retain commits you create, you may
do so (now or later) by using -c with the switch command. Example:

  git switch -c <new-branch-name>

Or undo this operation with:

  git switch -

Turn off this advice by setting config variable advice.detachedHead to false

"""


# -------------------------------------------------------------- machinery
def _blob(repo: Repo, sha: bytes) -> bytes:
    return repo[sha].as_raw_string()


def write_path(repo: Repo, path: bytes, mode: int, sha: bytes) -> None:
    """Check a blob out to the work tree and stage it with fresh stat info."""
    if mode == 0o160000:
        worktree_mkdir(repo, path)
        repo.index[path] = worktree.tree_entry(sha, mode)
        return
    st = repo.wt_write(path, _blob(repo, sha), mode)
    repo.index[path] = worktree.make_entry(st, sha, mode) if st is not None else \
        worktree.tree_entry(sha, mode)


def worktree_mkdir(repo: Repo, path: bytes) -> None:
    from pysh.ports.git.core import mkdir_p

    mkdir_p(repo.shell, repo.wt(path))


def checkout_tree_fresh(repo: Repo, tree: bytes) -> None:
    """Populate an empty work tree and index from ``tree`` (clone)."""
    flat = repo.flat_tree(tree)
    for path in sorted(flat):
        repo.ctx.tick()
        mode, sha = flat[path]
        write_path(repo, path, mode, sha)
    if repo.checkout_errors:
        raise fatal("unable to checkout working tree\n"
                    "warning: Clone succeeded, but checkout failed.\n"
                    "You can inspect what was checked out with 'git status'\n"
                    "and retry with 'git restore --source=HEAD :/'\n")
    repo.write_index()


def _local_state(repo: Repo):
    """(index flat, work-tree flat) of the tracked files, hashing only stat-dirty files."""
    index = repo.index
    idx = {}
    for p, e in index.items():
        if isinstance(e, ConflictedIndexEntry):
            continue
        idx[p] = (e.mode, e.sha)
    sc = worktree.scan(repo, set(index), want_untracked=False)
    mt = worktree.index_mtime(repo)
    wt = {}
    for p in idx:
        st = sc.files.get(p)
        if st is None:
            continue
        s, m = worktree.worktree_sha(repo, p, index[p], st, mt)
        if s is not None:
            wt[p] = (m, s)
    return idx, wt


def switch_trees(repo: Repo, old_tree: bytes | None, new_tree: bytes | None, *, force: bool = False,
                 what: str = "checkout") -> None:
    """Two-way merge of the index and work tree from ``old_tree`` to ``new_tree`` (git's rules)."""
    old = repo.flat_tree(old_tree)
    new = repo.flat_tree(new_tree)
    idx, wt = _local_state(repo)
    index = repo.index
    conflicts: list[bytes] = []
    untracked_hit: list[bytes] = []
    ops = []
    for p in sorted(set(old) | set(new)):
        o, n = old.get(p), new.get(p)
        if o == n:
            continue
        i = idx.get(p)
        w = wt.get(p)
        local = (i != o) or (w != i)
        if not force and local:
            if i == n and (w == i or n is None and w is None):
                continue
            if i is None and o is None and w is None and p not in index:
                # untracked in the way? (a directory where a submodule comes is its home)
                if repo.wt_lstat(p) is not None and not _submodule_home(repo, p, n):
                    untracked_hit.append(p)
                    continue
            elif i == n:
                continue
            else:
                conflicts.append(p)
                continue
        if not force and o is None and i is None and repo.wt_lstat(p) is not None and \
                not _submodule_home(repo, p, n):
            untracked_hit.append(p)
            continue
        ops.append((p, n))
    if conflicts:
        word = "checkout" if what == "checkout" else what
        raise GitExit("error: Your local changes to the following files would be overwritten by "
                      f"{word}:\n" + "".join(f"\t{decode(p)}\n" for p in conflicts) +
                      "Please commit your changes or stash them before you switch branches.\nAborting"
                      if what == "checkout" else
                      "error: Your local changes to the following files would be overwritten by "
                      f"{word}:\n" + "".join(f"\t{decode(p)}\n" for p in conflicts) +
                      f"Please commit your changes or stash them before you {word}.\nAborting", 1)
    if untracked_hit:
        raise GitExit("error: The following untracked working tree files would be overwritten by "
                      f"{what}:\n" + "".join(f"\t{decode(p)}\n" for p in untracked_hit) +
                      ("Please move or remove them before you switch branches.\nAborting"
                       if what == "checkout" else f"Please move or remove them before you {what}.\nAborting"), 1)
    for p, n in ops:
        repo.ctx.tick()
        if n is None:
            if p in index:
                del index[p]
            repo.wt_remove(p)
        else:
            write_path(repo, p, n[0], n[1])
    if force:
        # a forced switch also drops staged additions not in the new tree
        for p in list(index):
            if p not in new:
                e = index[p]
                if isinstance(e, ConflictedIndexEntry) or p not in old:
                    del index[p]
                    repo.wt_remove(p)
    repo.write_index()


def _submodule_home(repo: Repo, p: bytes, n) -> bool:
    import stat as _st

    st = repo.wt_lstat(p)
    return n is not None and n[0] == worktree.GITLINK and st is not None and _st.S_ISDIR(st.st_mode)


def local_change_lines(repo: Repo) -> str:
    """'M\tpath' lines git prints after switching with local changes carried over."""
    head_flat = repo.flat_tree(repo.tree_of(repo.head()))
    idx, wt = _local_state(repo)
    out = []
    for p in sorted(set(head_flat) | set(idx)):
        h, i, w = head_flat.get(p), idx.get(p), wt.get(p)
        if i is None and h is not None:
            out.append(f"D\t{decode(p)}\n")
        elif h is None and i is not None:
            out.append(f"A\t{decode(p)}\n")
        elif w is None and i is not None:
            out.append(f"D\t{decode(p)}\n")
        elif i != h or w != i:
            out.append(f"M\t{decode(p)}\n")
    return "".join(out)


def head_label(repo: Repo) -> str:
    br = repo.head_branch()
    if br is not None:
        return br
    h = repo.head()
    return decode(h) if h else "HEAD"


def _move_head_to_branch(repo: Repo, branch: str, target: bytes, msg_from: str) -> None:
    ref = b"refs/heads/" + encode(branch)
    old = repo.head()
    repo.set_symbolic(b"HEAD", ref)
    append_reflog(repo, b"HEAD", old, target, f"checkout: moving from {msg_from} to {branch}")


def _detach(repo: Repo, sha: bytes, name: str, msg_from: str) -> None:
    old = repo.head()
    repo.detach_head(sha)
    append_reflog(repo, b"HEAD", old, sha, f"checkout: moving from {msg_from} to {name}")


def do_switch(ctx: Ctx, repo: Repo, *, branch: str | None, target: bytes, name: str,
              create: bool = False, force: bool = False, detach: bool = False,
              track_from: str | None = None, switch_cmd: bool = False,
              explicit_detach: bool = False) -> int:
    """Switch HEAD (creating a branch if asked) and update the index and work tree."""
    cur_head = repo.head()
    cur_branch = repo.head_branch()
    from_label = cur_branch if cur_branch is not None else (decode(cur_head) if cur_head else "HEAD")
    target_commit = repo[target]
    # a new branch where HEAD already is leaves the index alone (git skips the tree merge)
    same = create and target == cur_head and not force
    if not same:
        repo.lock_index()
    unmerged = sorted(p for p, e in repo.index.items() if isinstance(e, ConflictedIndexEntry))
    if unmerged and not force:
        if switch_cmd and repo.gitdir.exists("MERGE_HEAD"):
            raise fatal("cannot switch branch while merging\n"
                        "Consider \"git merge --quit\" or \"git worktree add\".")
        ctx.write("".join(f"{decode(p)}: needs merge\n" for p in unmerged))
        raise GitExit("error: you need to resolve your current index first", 1)
    if not create and not detach and branch is not None and branch == cur_branch:
        ctx.ewrite(f"Already on '{branch}'\n")
        ctx.write(local_change_lines(repo))
        ctx.write(_tracking_info(repo, branch))
        return 0
    if not same:
        switch_trees(repo, repo.tree_of(cur_head), target_commit.tree, force=force)
    was_detached = cur_branch is None and cur_head is not None
    reset = False
    if create:
        ref = b"refs/heads/" + encode(branch)
        old = repo.ref_sha(ref)
        reset = old is not None
        repo.set_ref(ref, target)
        append_reflog(repo, ref, old, target,
                      f"branch: Reset to {name}" if reset else f"branch: Created from {name}")
        if track_from is not None:
            # 'remote/branch', or './branch' for a local branch (git's branch.<name>.remote=.)
            remote, _, rb = track_from.partition("/")
            cfg = repo.edit_config()
            cfg.set((b"branch", encode(branch)), b"remote", encode(remote))
            cfg.set((b"branch", encode(branch)), b"merge", b"refs/heads/" + encode(rb))
            repo.write_config(cfg)
    if was_detached and (detach is False or cur_head != target):
        if cur_head != target or branch is not None:
            ctx.ewrite(f"Previous HEAD position was {repo.short(cur_head)} "
                       f"{subject_of(repo[cur_head].message)}\n")
    if branch is not None and not detach:
        _move_head_to_branch(repo, branch, target, from_label)
        if not (same and name == "HEAD"):  # -b without a start point: no local changes listed
            ctx.write(local_change_lines(repo))
        if track_from is not None:
            shown = track_from[2:] if track_from.startswith("./") else track_from
            ctx.write(f"branch '{branch}' set up to track '{shown}'.\n")
        if reset:
            ctx.ewrite(f"Switched to and reset branch '{branch}'\n")
        elif create:
            ctx.ewrite(f"Switched to a new branch '{branch}'\n")
        else:
            ctx.ewrite(f"Switched to branch '{branch}'\n")
            ctx.write(_tracking_info(repo, branch))
    else:
        _detach(repo, target, name, from_label)
        ctx.write(local_change_lines(repo))
        advice = repo.cfg_get("advice", "detachedHead")
        if not was_detached and not explicit_detach and advice not in ("false", "no", "off", "0"):
            ctx.ewrite(DETACHED_ADVICE.format(name=name))
        ctx.ewrite(f"HEAD is now at {repo.short(target)} {subject_of(target_commit.message)}\n")
    return 0


def _tracking_info(repo: Repo, branch: str) -> str:
    from pysh.ports.git.status import tracking_lines

    return tracking_lines(repo, branch, True)


def restore_paths(repo: Repo, ps: Pathspec, source: dict | None, *, worktree_: bool, staged: bool,
                  args: list[str]) -> int:
    """Restore matching paths into the index and/or work tree from ``source`` (None = index);
    the number of work-tree files written (git's nr_checkouts: those that differed)."""
    repo.lock_index()
    index = repo.index
    written = 0
    idx_mtime = worktree.index_mtime(repo)
    idx = {p: (e.mode, e.sha) for p, e in index.items() if not isinstance(e, ConflictedIndexEntry)}
    src = source if source is not None else idx
    hits = 0
    matched = [False] * len(ps.items)
    universe = set(src) | (set(idx) if staged or source is not None else set())
    for p in sorted(universe):
        k = ps.match_index(p)
        if k < 0:
            continue
        for j, (rel, glob) in enumerate(ps.items):
            from pysh.ports.git.core import _match_one

            if _match_one(rel, glob, decode(p)):
                matched[j] = True
        hits += 1
        v = src.get(p)
        if staged:
            if v is None:
                if p in index:
                    del index[p]
            else:
                e = index[p] if p in index else None
                if e is None or isinstance(e, ConflictedIndexEntry) or (e.mode, e.sha) != v:
                    index[p] = worktree.tree_entry(v[1], v[0])
        if worktree_:
            if v is None:
                if source is not None:
                    repo.wt_remove(p)
                continue
            e = index[p] if p in index else None
            e = None if isinstance(e, ConflictedIndexEntry) else e
            cur = repo.wt_lstat(p)
            if cur is not None and e is not None and (e.mode, e.sha) == v and \
                    worktree.stat_clean(e, cur, (1 << 62, 0)) and \
                    worktree.worktree_sha(repo, p, e, cur, idx_mtime) == (v[1], v[0]):
                continue  # git's ie_match_stat: the stat info (and, when racy, the content)
            written += 1
            st = repo.wt_write(p, _blob(repo, v[1]), v[0])
            if staged or source is None:
                e = index[p] if p in index else None
                if st is not None and e is not None and not isinstance(e, ConflictedIndexEntry) \
                        and e.sha == v[1]:
                    index[p] = worktree.make_entry(st, v[1], v[0])
    for j, ok in enumerate(matched):
        if not ok:
            raise GitExit(f"error: pathspec '{args[j]}' did not match any file(s) known to git", 1)
    repo.write_index()
    return written


def _paths_status(repo: Repo) -> int:
    """checkout/restore of paths: git exits 255 when an entry could not be checked out."""
    return 255 if repo.checkout_errors else 0


def _count_note(ctx: Ctx, n: int, tree: bytes | None) -> None:
    """git checkout's count of the paths it wrote (without -q and without '--')."""
    what = f"from {ctx.repo.short(tree)}" if tree is not None else "from the index"
    ctx.ewrite(f"Updated {n} path{'' if n == 1 else 's'} {what}\n")


# ---------------------------------------------------------------- checkout
async def cmd_checkout(ctx: Ctx, args: list[str]) -> int:
    opts = Opts("checkout", {
        "b": ("arg", "b"), "B": ("arg", "B"), "q": ("flag", "quiet"), "quiet": ("flag", "quiet"),
        "f": ("flag", "force"), "force": ("flag", "force"), "detach": ("flag", "detach"),
        "t": ("flag", "track"), "track": ("flag", "track"), "no-track": ("flag", "notrack"),
        "orphan": ("arg", "orphan"), "m": ("flag", "merge"), "merge": ("flag", "merge"),
        "ours": ("flag", "ours"), "theirs": ("flag", "theirs"), "p": ("flag", "patch"),
        "patch": ("flag", "patch"), "progress": ("flag", "progress"),
        "no-progress": ("flag", "noprogress"), "guess": ("flag", "guess"),
        "no-guess": ("flag", "noguess"),
    }, usage="usage: git checkout [<options>] <branch>\n   or: git checkout [<options>] [<branch>] -- <file>...")
    vals, pos, after = opts.parse(args)
    repo = ctx.repo
    repo.require_worktree("checkout")
    quiet = vals.get("quiet")
    if vals.get("patch"):
        raise fatal("interactive checkout is not available in the sandbox")
    if after is not None:
        # checkout [<tree-ish>] -- <paths>
        if len(pos) > 1:
            raise fatal(f"only one reference expected, {len(pos)} given.")
        paths = after
        if not paths:
            if pos:
                return await _checkout_branch(ctx, repo, pos[0], vals, quiet)
            return 0
        if pos:
            tree = revs.resolve(repo, pos[0], want="tree", missing_ok=True)
            if tree is None:
                raise fatal(f"invalid reference: {pos[0]}")
            source = repo.flat_tree(tree)
            restore_paths(repo, Pathspec(repo, paths), source, worktree_=True, staged=True, args=paths)
        else:
            restore_paths(repo, Pathspec(repo, paths), None, worktree_=True, staged=False, args=paths)
        return _paths_status(repo)
    if vals.get("b") or vals.get("B") or vals.get("orphan"):
        name = vals.get("b") or vals.get("B") or vals.get("orphan")
        start = pos[0] if pos else "HEAD"
        if len(pos) > 1:
            if vals.get("track"):
                raise fatal("'--track' cannot be used with updating paths")
            raise fatal(f"Cannot update paths and switch to branch '{name}' at the same time.")
        if vals.get("orphan"):
            ref = b"refs/heads/" + encode(name)
            if repo.ref_sha(ref) is not None:
                raise fatal(f"a branch named '{name}' already exists")
            repo.set_symbolic(b"HEAD", ref)
            ctx.ewrite(f"Switched to a new branch '{name}'\n")
            return 0
        return _quiet(ctx, _create_and_switch(ctx, repo, name, start,
                                              force_create=bool(vals.get("B")),
                                              track=False if vals.get("notrack") else
                                              vals.get("track"),
                                              force=bool(vals.get("force"))), quiet)
    if not pos and vals.get("detach"):
        pos = ["HEAD"]
    if not pos:
        return 0
    if len(pos) == 1:
        return await _checkout_branch(ctx, repo, pos[0], vals, quiet)
    # checkout <tree-ish> <paths...> (without --)
    tree = revs.resolve(repo, pos[0], want="tree", missing_ok=True)
    if tree is not None:
        n = restore_paths(repo, Pathspec(repo, pos[1:]), repo.flat_tree(tree), worktree_=True,
                          staged=True, args=pos[1:])
    else:
        n = restore_paths(repo, Pathspec(repo, pos), None, worktree_=True, staged=False, args=pos)
    if not quiet:
        _count_note(ctx, n, tree)
    return _paths_status(repo)


def _create_and_switch(ctx: Ctx, repo: Repo, name: str, start: str, *, force_create: bool = False,
                       track=None, force: bool = False, switch_cmd: bool = False) -> int:
    from pysh.ports.git.setup import _valid_branch

    if not _valid_branch(name):
        raise fatal(f"'{name}' is not a valid branch name")
    ref = b"refs/heads/" + encode(name)
    if repo.ref_sha(ref) is not None and not force_create:
        raise fatal(f"a branch named '{name}' already exists")
    if start == "HEAD" and repo.head() is None:
        # a new branch on an unborn HEAD
        repo.set_symbolic(b"HEAD", ref)
        ctx.ewrite(f"Switched to a new branch '{name}'\n")
        return 0
    target = revs.resolve(repo, start, missing_ok=True)
    if target is None:
        raise fatal(f"'{start}' is not a commit and a branch '{name}' cannot be created from it")
    track_from = None
    if track is None and repo.cfg_get("branch", "autoSetupMerge") not in ("false", "never"):
        r, _ = revs.lookup_ref(repo, encode(start))
        track = r is not None and r.startswith(b"refs/remotes/")  # git's branch.autoSetupMerge
    if track:
        r, _ = revs.lookup_ref(repo, encode(start))
        if r is not None and r.startswith(b"refs/remotes/"):
            track_from = decode(r[len(b"refs/remotes/"):])
        elif r is not None and r.startswith(b"refs/heads/"):
            track_from = "./" + decode(r[len(b"refs/heads/"):])
    return do_switch(ctx, repo, branch=name, target=target, name=start, create=True, force=force,
                     track_from=track_from, switch_cmd=switch_cmd)


async def _checkout_branch(ctx: Ctx, repo: Repo, name: str, vals: dict, quiet) -> int:
    if name == "-":
        prev = revs.previous_branch(repo, 1)
        if prev is None:
            raise GitExit("error: pathspec '-' did not match any file(s) known to git", 1)
        name = decode(prev)
    ref = b"refs/heads/" + encode(name)
    sha = repo.ref_sha(ref)
    force = bool(vals.get("force"))
    if sha is not None and not vals.get("detach"):
        r = do_switch(ctx, repo, branch=name, target=sha, name=name, force=force)
        return _quiet(ctx, r, quiet)
    target = revs.resolve(repo, name, missing_ok=True)
    if target is None:
        # a remote branch of that name: create a tracking branch (git's DWIM)
        cands = [r for r in repo.refs.keys(base=b"refs/remotes/") if r.split(b"/", 1)[-1] == encode(name)]
        if len(cands) == 1 and not vals.get("noguess"):
            start = decode(b"refs/remotes/" + cands[0])
            tsha = repo.ref_sha(b"refs/remotes/" + cands[0])
            return _quiet(ctx, do_switch(ctx, repo, branch=name, target=tsha, name=start[13:],
                                         create=True, force=force,
                                         track_from=start[len("refs/remotes/"):]), quiet)
        # a path?
        if gitfs.exists(ctx.shell, vjoin(ctx.shell.cwd, name), follow=False) or any(
                Pathspec(repo, [name]).match(p) for p in repo.index):
            n = restore_paths(repo, Pathspec(repo, [name]), None, worktree_=True, staged=False,
                              args=[name])
            if not quiet:
                _count_note(ctx, n, None)
            return _paths_status(repo)
        raise GitExit(f"error: pathspec '{name}' did not match any file(s) known to git", 1)
    r = do_switch(ctx, repo, branch=None, target=target, name=name, detach=True, force=force,
                  explicit_detach=bool(vals.get("detach")))
    return _quiet(ctx, r, quiet)


def _quiet(ctx: Ctx, r: int, quiet) -> int:
    """-q: no 'Switched to...', no tracking or local-change lines; warnings and errors stay."""
    if quiet:
        kept = [ln for ln in bytes(ctx.err).splitlines(keepends=True)
                if ln.startswith((b"warning: ", b"error: "))]
        ctx.err[:] = b"".join(kept)
        ctx.out.clear()
    return r


async def cmd_switch(ctx: Ctx, args: list[str]) -> int:
    opts = Opts("switch", {
        "c": ("arg", "c"), "create": ("arg", "c"), "C": ("arg", "C"), "force-create": ("arg", "C"),
        "d": ("flag", "detach"), "detach": ("flag", "detach"), "q": ("flag", "quiet"),
        "quiet": ("flag", "quiet"), "f": ("flag", "force"), "force": ("flag", "force"),
        "discard-changes": ("flag", "force"), "t": ("flag", "track"), "track": ("flag", "track"),
        "no-track": ("flag", "notrack"), "orphan": ("arg", "orphan"), "guess": ("flag", "guess"),
        "no-guess": ("flag", "noguess"), "m": ("flag", "merge"), "merge": ("flag", "merge"),
    }, usage="usage: git switch [<options>] [<branch>]")
    vals, pos, after = opts.parse(args)
    pos += after or []
    repo = ctx.repo
    repo.require_worktree("switch")
    quiet = vals.get("quiet")
    if vals.get("c") or vals.get("C"):
        name = vals.get("c") or vals.get("C")
        return _quiet(ctx, _create_and_switch(ctx, repo, name, pos[0] if pos else "HEAD",
                                              force_create=bool(vals.get("C")),
                                              track=False if vals.get("notrack") else
                                              vals.get("track"),
                                              force=bool(vals.get("force")), switch_cmd=True), quiet)
    if vals.get("orphan"):
        raise fatal("--orphan is not supported by this port")
    if not pos:
        raise fatal("missing branch or commit argument")
    name = pos[0]
    if name == "-":
        prev = revs.previous_branch(repo, 1)
        if prev is None:
            raise fatal("invalid reference: @{-1}")
        name = decode(prev)
    if vals.get("detach"):
        target = revs.resolve(repo, name, missing_ok=True)
        if target is None:
            raise fatal(f"invalid reference: {name}")
        return _quiet(ctx, do_switch(ctx, repo, switch_cmd=True, branch=None, target=target, name=name, detach=True,
                                     force=bool(vals.get("force")), explicit_detach=True), quiet)
    sha = repo.ref_sha(b"refs/heads/" + encode(name))
    if sha is None:
        cands = [r for r in repo.refs.keys(base=b"refs/remotes/") if r.split(b"/", 1)[-1] == encode(name)]
        if len(cands) == 1 and not vals.get("noguess"):
            tsha = repo.ref_sha(b"refs/remotes/" + cands[0])
            src = decode(cands[0])
            return _quiet(ctx, do_switch(ctx, repo, switch_cmd=True, branch=name, target=tsha, name=src, create=True,
                                         force=bool(vals.get("force")), track_from=src), quiet)
        target = revs.resolve(repo, name, missing_ok=True)
        if target is not None:
            raise fatal(f"a branch is expected, got commit '{name}'\n"
                        "hint: If you want to detach HEAD at the commit, try again with the --detach option.")
        raise fatal(f"invalid reference: {name}")
    return _quiet(ctx, do_switch(ctx, repo, switch_cmd=True, branch=name, target=sha, name=name,
                                 force=bool(vals.get("force"))), quiet)


# ----------------------------------------------------------------- restore
async def cmd_restore(ctx: Ctx, args: list[str]) -> int:
    opts = Opts("restore", {
        "s": ("arg", "source"), "source": ("arg", "source"), "S": ("flag", "staged"),
        "staged": ("flag", "staged"), "W": ("flag", "worktree"), "worktree": ("flag", "worktree"),
        "q": ("flag", "quiet"), "quiet": ("flag", "quiet"), "ours": ("flag", "ours"),
        "theirs": ("flag", "theirs"), "p": ("flag", "patch"), "patch": ("flag", "patch"),
        "overlay": ("flag", "overlay"), "no-overlay": ("flag", "nooverlay"),
        "progress": ("flag", "progress"),
    }, usage="usage: git restore [<options>] [--source=<branch>] <file>...")
    vals, pos, after = opts.parse(args)
    paths = pos + (after or [])
    repo = ctx.repo
    repo.require_worktree("restore")
    if not paths:
        raise fatal("you must specify path(s) to restore")
    staged = bool(vals.get("staged"))
    wt = bool(vals.get("worktree")) or not staged
    src_rev = vals.get("source")
    if src_rev is None and staged:
        src_rev = "HEAD"
    source = None
    if src_rev is not None:
        if src_rev == "HEAD" and repo.head() is None:
            source = {}
        else:
            tree = revs.resolve(repo, src_rev, want="tree", missing_ok=True)
            if tree is None:
                raise fatal(f"could not resolve {src_rev}")
            source = repo.flat_tree(tree)
    restore_paths(repo, Pathspec(repo, paths), source, worktree_=wt, staged=staged, args=paths)
    return _paths_status(repo)


# ------------------------------------------------------------------- reset
async def cmd_reset(ctx: Ctx, args: list[str]) -> int:
    opts = Opts("reset", {
        "soft": ("flag", "soft"), "mixed": ("flag", "mixed"), "hard": ("flag", "hard"),
        "keep": ("flag", "keep"), "merge": ("flag", "merge"), "q": ("flag", "quiet"),
        "quiet": ("flag", "quiet"), "p": ("flag", "patch"), "patch": ("flag", "patch"),
        "N": ("flag", "ita"), "intent-to-add": ("flag", "ita"),
    }, usage="usage: git reset [--mixed | --soft | --hard | --merge | --keep] [-q] [<commit>]")
    vals, pos, after = opts.parse(args)
    repo = ctx.repo
    repo.require_worktree("reset")
    quiet = vals.get("quiet")
    mode = "hard" if vals.get("hard") else "soft" if vals.get("soft") else "keep" if vals.get(
        "keep") else "merge" if vals.get("merge") else "mixed"
    rev = None
    paths: list[str] = list(after or [])
    if pos:
        if after is None:
            sha = revs.resolve(repo, pos[0], missing_ok=True)
            if sha is not None:
                rev = pos[0]
                paths = pos[1:] + paths
            else:
                if len(pos) == 1 and not gitfs.exists(ctx.shell, vjoin(ctx.shell.cwd, pos[0]),
                                                         follow=False) and not any(
                        Pathspec(repo, pos).match(p) for p in repo.index):
                    raise revs.ambiguous(pos[0])
                paths = pos + paths
        else:
            rev = pos[0]
            if len(pos) > 1:
                paths = pos[1:] + paths
    head = repo.head()
    if paths and mode in ("soft", "hard", "keep", "merge"):
        raise fatal(f"Cannot do {mode} reset with paths.")
    if mode != "soft":
        repo.lock_index()
    if paths:
        if rev is None:
            source = repo.flat_tree(repo.tree_of(head)) if head else {}
        else:
            tree = revs.resolve(repo, rev, want="tree")
            source = repo.flat_tree(tree)
        ps = Pathspec(repo, paths)
        index = repo.index
        for p in sorted(set(source) | set(index)):
            if not ps.match(p):
                continue
            v = source.get(p)
            if v is None:
                if p in index:
                    del index[p]
            else:
                e = index[p] if p in index else None
                if e is None or isinstance(e, ConflictedIndexEntry) or (e.mode, e.sha) != v:
                    index[p] = worktree.tree_entry(v[1], v[0])
        repo.write_index()
        if not quiet:
            ctx.write(_unstaged_after(repo))
        return 0
    target = revs.resolve(repo, rev or "HEAD", missing_ok=True) if (rev or head) else None
    if rev is not None and target is None:
        raise revs.ambiguous(rev)
    if target is None:
        # an unborn branch: reset empties the index
        if mode == "hard":
            for p in list(repo.index):
                repo.wt_remove(p)
        repo.index.clear()
        repo.write_index()
        return 0
    commit = repo[target]
    if mode == "hard":
        _hard_reset_tree(repo, commit.tree)
        if repo.checkout_errors:
            raise fatal(f"Could not reset index file to revision '{rev or 'HEAD'}'.")
    elif mode == "mixed":
        _reset_index(repo, commit.tree)
    elif mode in ("keep", "merge"):
        switch_trees(repo, repo.tree_of(head), commit.tree, what="reset")
    if head is not None:
        repo.write_state("ORIG_HEAD", head + b"\n")
    update_ref(repo, b"HEAD", target, f"reset: moving to {rev or 'HEAD'}", old=head)
    for name in ("MERGE_HEAD", "MERGE_MSG", "MERGE_MODE"):
        repo.remove_state(name)
    if mode == "hard" and not quiet:
        ctx.write(f"HEAD is now at {repo.short(target)} {subject_of(commit.message)}\n")
    elif mode == "mixed" and not quiet:
        ctx.write(_unstaged_after(repo))
    return 0


def _unstaged_after(repo: Repo) -> str:
    idx, wt = _local_state(repo)
    lines = []
    for p in sorted(idx):
        w = wt.get(p)
        if w is None:
            lines.append(f"D\t{decode(p)}\n")
        elif w != idx[p]:
            lines.append(f"M\t{decode(p)}\n")
    if not lines:
        return ""
    return "Unstaged changes after reset:\n" + "".join(lines)


def _reset_index(repo: Repo, tree: bytes) -> None:
    flat = repo.flat_tree(tree)
    index = repo.index
    keep = {}
    for p, e in index.items():
        if not isinstance(e, ConflictedIndexEntry) and flat.get(p) == (e.mode, e.sha):
            keep[p] = e
    index.clear()
    for p, (mode, sha) in flat.items():
        index[p] = keep.get(p) or worktree.tree_entry(sha, mode)
    repo.write_index()


def _hard_reset_tree(repo: Repo, tree: bytes) -> None:
    flat = repo.flat_tree(tree)
    idx, wt = _local_state(repo)
    index = repo.index
    for p in sorted(set(idx) | set(p for p, e in index.items() if isinstance(e, ConflictedIndexEntry))):
        if p not in flat:
            repo.wt_remove(p)
            del index[p]
    for p, (mode, sha) in sorted(flat.items()):
        repo.ctx.tick()
        if idx.get(p) == (mode, sha) and wt.get(p) == (mode, sha):
            continue
        write_path(repo, p, mode, sha)
    repo.write_index()


# ------------------------------------------------------------------ branch
def _branch_is_merged(repo: Repo, sha: bytes, into: bytes | None) -> bool:
    if into is None:
        return False
    return revs.is_ancestor(repo, sha, into)


async def cmd_branch(ctx: Ctx, args: list[str]) -> int:
    opts = Opts("branch", {
        "d": ("flag", "delete"), "delete": ("flag", "delete"), "D": ("flag", "Delete"),
        "f": ("flag", "force"), "force": ("flag", "force"), "a": ("flag", "all"),
        "all": ("flag", "all"), "r": ("flag", "remotes"), "remotes": ("flag", "remotes"),
        "v": ("count", "verbose"), "verbose": ("count", "verbose"),
        "show-current": ("flag", "current"), "m": ("flag", "move"), "move": ("flag", "move"),
        "M": ("flag", "Move"), "c": ("flag", "copy"), "copy": ("flag", "copy"),
        "l": ("flag", "list"), "list": ("flag", "list"), "u": ("arg", "upstream"),
        "set-upstream-to": ("arg", "upstream"), "unset-upstream": ("flag", "unsetup"),
        "q": ("flag", "quiet"), "quiet": ("flag", "quiet"), "merged": ("lastarg", "merged"),
        "no-merged": ("lastarg", "nomerged"), "contains": ("lastarg", "contains"),
        "no-contains": ("lastarg", "nocontains"), "points-at": ("lastarg", "pointsat"),
        "t": ("flag", "track"), "track": ("flag", "track"), "no-track": ("flag", "notrack"),
        "color": ("optarg", "color"), "no-color": ("flag", "nocolor"), "column": ("optarg", "col"),
        "no-column": ("flag", "nocol"), "sort": ("multi", "sort"), "format": ("arg", "format"),
        "abbrev": ("arg", "abbrev"), "no-abbrev": ("flag", "noabbrev"),
    }, usage="usage: git branch [<options>] [-r | -a] [--merged] [--no-merged]")
    vals, pos, after = opts.parse(args)
    pos += after or []
    repo = ctx.repo
    if vals.get("current"):
        br = repo.head_branch()
        if br:
            ctx.write(br + "\n")
        return 0
    if vals.get("delete") or vals.get("Delete"):
        if not pos:
            raise fatal("branch name required")
        force = vals.get("Delete") or vals.get("force")
        status = 0
        head = repo.head()
        for name in pos:
            if vals.get("remotes"):
                ref = b"refs/remotes/" + encode(name)
            else:
                ref = b"refs/heads/" + encode(name)
            sha = repo.ref_sha(ref)
            if sha is None:
                ctx.ewrite(f"error: {'remote-tracking ' if vals.get('remotes') else ''}branch '{name}' not found.\n")
                status = 1
                continue
            if ref == repo.head_ref() and repo.vtop is not None:
                ctx.ewrite(f"error: Cannot delete branch '{name}' checked out at '{repo.vtop}'\n")
                status = 1
                continue
            if not force and not vals.get("remotes"):
                from pysh.ports.git.status import upstream_of

                up = upstream_of(repo, name)
                into = repo.ref_sha(up[1]) if up else head
                if into is None:
                    into = head
                if not _branch_is_merged(repo, sha, into):
                    ctx.ewrite(f"error: The branch '{name}' is not fully merged.\n"
                               f"If you are sure you want to delete it, run 'git branch -D {name}'.\n")
                    status = 1
                    continue
            try:
                repo.refs.remove_if_equals(ref, None)
            except LockError as e:
                ctx.ewrite(f"error: could not delete reference {decode(ref)}: {e.reason}\n")
                status = 1
                continue
            _common_unlink(repo, "logs/" + decode(ref))
            if not vals.get("remotes"):
                sec = (b"branch", encode(name))
                cfg = repo.edit_config()
                if sec in cfg._values:
                    del cfg._values[sec]
                    repo.write_config(cfg)
            if not vals.get("quiet"):
                kind = "remote-tracking branch" if vals.get("remotes") else "branch"
                ctx.write(f"Deleted {kind} {name} (was {repo.short(sha)}).\n")
        return status
    if vals.get("move") or vals.get("Move") or vals.get("copy"):
        if len(pos) == 1:
            old, new = repo.head_branch(), pos[0]
            if old is None:
                raise fatal("cannot rename the current branch while not on any.")
        elif len(pos) == 2:
            old, new = pos
        else:
            raise fatal("too many arguments for a rename operation")
        from pysh.ports.git.setup import _valid_branch

        if not _valid_branch(new):
            raise fatal(f"'{new}' is not a valid branch name")
        oref, nref = b"refs/heads/" + encode(old), b"refs/heads/" + encode(new)
        sha = repo.ref_sha(oref)
        if sha is None:
            if old == repo.head_branch() and repo.head() is None:
                repo.set_symbolic(b"HEAD", nref)
                return 0
            raise fatal(f"no branch named '{old}'")
        if repo.ref_sha(nref) is not None and not vals.get("Move") and not vals.get("force"):
            raise fatal(f"a branch named '{new}' already exists")
        repo.set_ref(nref, sha)
        if not vals.get("copy"):
            if old != new:
                repo.refs.remove_if_equals(oref, None)
            if repo.head_ref() == oref:
                repo.set_symbolic(b"HEAD", nref)
        return 0
    if vals.get("upstream"):
        br = pos[0] if pos else repo.head_branch()
        if br is None:
            raise fatal("could not set upstream of HEAD to {} when it does not point to any branch.".format(
                vals["upstream"]))
        up = vals["upstream"]
        r, _ = revs.lookup_ref(repo, encode(up))
        if r is None:
            raise fatal(f"the requested upstream branch '{up}' does not exist")
        cfg = repo.edit_config()
        if r.startswith(b"refs/remotes/"):
            remote, _, rb = decode(r[13:]).partition("/")
            cfg.set((b"branch", encode(br)), b"remote", encode(remote))
            cfg.set((b"branch", encode(br)), b"merge", b"refs/heads/" + encode(rb))
            ctx.write(f"branch '{br}' set up to track '{remote}/{rb}'.\n")
        else:
            cfg.set((b"branch", encode(br)), b"remote", b".")
            cfg.set((b"branch", encode(br)), b"merge", r)
            ctx.write(f"branch '{br}' set up to track '{decode(r[11:])}'.\n")
        repo.write_config(cfg)
        return 0
    if vals.get("unsetup"):
        br = pos[0] if pos else repo.head_branch()
        sec = (b"branch", encode(br or ""))
        cfg = repo.edit_config()
        for k in (b"remote", b"merge"):
            try:
                cfg.remove(sec, k)
            except KeyError:
                pass
        repo.write_config(cfg)
        return 0
    listing = vals.get("list") or not pos or vals.get("all") and not pos or vals.get("remotes") and not pos
    if pos and not vals.get("list"):
        name = pos[0]
        from pysh.ports.git.setup import _valid_branch

        if not _valid_branch(name):
            raise fatal(f"'{name}' is not a valid branch name")
        ref = b"refs/heads/" + encode(name)
        if repo.ref_sha(ref) is not None and not vals.get("force"):
            raise fatal(f"a branch named '{name}' already exists")
        start = pos[1] if len(pos) > 1 else "HEAD"
        if start == "HEAD" and repo.head() is None:
            raise fatal(f"not a valid object name: '{repo.head_branch() or 'HEAD'}'")
        target = revs.resolve(repo, start, missing_ok=True)
        if target is None:
            raise fatal(f"not a valid object name: '{start}'")
        repo.set_ref(ref, target)
        append_reflog(repo, ref, None, target, f"branch: Created from {start}")
        if vals.get("track"):
            r, _ = revs.lookup_ref(repo, encode(start))
            if r is not None and r.startswith(b"refs/remotes/"):
                remote, _, rb = decode(r[13:]).partition("/")
                cfg = repo.edit_config()
                cfg.set((b"branch", encode(name)), b"remote", encode(remote))
                cfg.set((b"branch", encode(name)), b"merge", b"refs/heads/" + encode(rb))
                repo.write_config(cfg)
                ctx.write(f"branch '{name}' set up to track '{remote}/{rb}'.\n")
        return 0
    if listing:
        patterns = pos if vals.get("list") else []
        _list_branches(ctx, repo, vals, patterns)
    return 0


def _common_unlink(repo: Repo, rel: str) -> None:
    try:
        repo.gitdir.unlink(rel)
    except OSError:
        pass


def _list_branches(ctx: Ctx, repo: Repo, vals: dict, patterns: list[str]) -> None:
    rows: list[tuple[str, str, bytes | None, bool, str | None]] = []  # (marker, name, sha, current, symref)
    cur = repo.head_ref()
    head = repo.head()
    verbose = vals.get("verbose") or 0
    from pysh.ports.git import reffilter

    def shown(r) -> bool:
        name = decode(r.name[11:] if r.name.startswith(b"refs/heads/") else
                      r.name[13:] if not vals.get("all") else b"remotes/" + r.name[13:])
        return not patterns or any(fnmatch.fnmatchcase(name, p) for p in patterns)

    prefixes = ()
    if not vals.get("remotes"):
        prefixes += (b"refs/heads/",)
    if vals.get("all") or vals.get("remotes"):
        prefixes += (b"refs/remotes/",)
    refs = [r for r in reffilter.collect(repo, prefixes) if shown(r)]
    refs = _ref_filters(repo, refs, vals)
    sort = vals.get("sort") or ([repo.cfg_get("branch", "sort")] if repo.cfg_get("branch", "sort")
                                else [])
    refs = reffilter.sort_refs(repo, refs, sort, cur)
    if cur is None and head is not None and not vals.get("remotes") and \
            _ref_filters(repo, [reffilter.Ref(b"HEAD", head)], vals):
        from pysh.ports.git.status import head_description

        rows.append(("*", head_description(repo, head), head, True, None))
    if vals.get("format"):
        ctx.write("".join(reffilter.format_ref(repo, r, vals["format"], cur) + "\n" for r in refs))
        return
    for r in refs:
        if r.name.startswith(b"refs/heads/"):
            rows.append(("*" if r.name == cur else " ", decode(r.name[11:]), r.sha, r.name == cur,
                         None))
            continue
        name = ("remotes/" if vals.get("all") else "") + decode(r.name[13:])
        sym = None
        if r.symref is not None:
            t = r.symref
            sym = decode(t[13:]) if t.startswith(b"refs/remotes/") else decode(t)
        rows.append((" ", name, r.sha, False, sym))
    width = max((len(r[1]) for r in rows if r[4] is None), default=0)
    out = []
    from pysh.ports.git.status import ahead_behind, upstream_of

    for marker, name, sha, _current, sym in rows:
        if sym is not None:
            out.append(f"{marker} {name} -> {sym}\n")
            continue
        if not verbose or sha is None:
            out.append(f"{marker} {name}\n")
            continue
        c = repo[sha]
        track = ""
        if not name.startswith("(") and not name.startswith("remotes/") and not vals.get("remotes"):
            up = upstream_of(repo, name)
            if up is not None:
                usha = repo.ref_sha(up[1])
                if usha is None:
                    info = "gone"
                else:
                    a, b = ahead_behind(repo, sha, usha)
                    parts = []
                    if a:
                        parts.append(f"ahead {a}")
                    if b:
                        parts.append(f"behind {b}")
                    info = ", ".join(parts)
                if verbose >= 2:
                    track = f"[{up[0]}{': ' + info if info else ''}] "
                elif info:
                    track = f"[{info}] "
        out.append(f"{marker} {name:<{width}} {repo.short(sha)} {track}{subject_of(c.message)}\n")
    ctx.write("".join(out))


def _ref_filters(repo: Repo, refs, vals: dict):
    """--contains/--no-contains/--merged/--no-merged/--points-at (default HEAD)."""
    from pysh.ports.git import reffilter

    def one(v):
        if v is None or v is False:
            return ()
        return ("HEAD",) if v is True else (v,)

    return reffilter.filter_refs(
        repo, refs, contains=one(vals.get("contains")), no_contains=one(vals.get("nocontains")),
        merged=one(vals.get("merged")), no_merged=one(vals.get("nomerged")),
        points_at=one(vals.get("pointsat")))


# --------------------------------------------------------------------- tag
async def cmd_tag(ctx: Ctx, args: list[str]) -> int:
    opts = Opts("tag", {
        "a": ("flag", "annotate"), "annotate": ("flag", "annotate"), "m": ("multi", "message"),
        "message": ("multi", "message"), "F": ("arg", "file"), "file": ("arg", "file"),
        "d": ("flag", "delete"), "delete": ("flag", "delete"), "l": ("flag", "list"),
        "list": ("flag", "list"), "f": ("flag", "force"), "force": ("flag", "force"),
        "n": ("optarg", "n"), "s": ("flag", "sign"), "sign": ("flag", "sign"),
        "u": ("arg", "sign"), "v": ("flag", "verify"), "verify": ("flag", "verify"),
        "contains": ("lastarg", "contains"), "no-contains": ("lastarg", "nocontains"),
        "points-at": ("lastarg", "pointsat"),
        "sort": ("multi", "sort"), "merged": ("lastarg", "merged"),
        "no-merged": ("lastarg", "nomerged"),
        "column": ("optarg", "col"), "no-column": ("flag", "nocol"), "format": ("arg", "format"),
        "i": ("flag", "icase"), "ignore-case": ("flag", "icase"), "cleanup": ("arg", "cleanup"),
    }, usage="usage: git tag [-a | -s | -u <key-id>] [-f] [-m <msg> | -F <file>] <tagname> [<head>]")
    vals, pos, after = opts.parse(args)
    pos += after or []
    repo = ctx.repo
    if vals.get("sign") or vals.get("verify"):
        raise fatal("signed tags are not available in the sandbox")
    if vals.get("delete"):
        status = 0
        for name in pos:
            ref = b"refs/tags/" + encode(name)
            sha = repo.ref_sha(ref)
            if sha is None:
                ctx.ewrite(f"error: tag '{name}' not found.\n")
                status = 1
                continue
            repo.refs.remove_if_equals(ref, None)
            ctx.write(f"Deleted tag '{name}' (was {repo.short(sha)})\n")
        return status
    msgs = vals.get("message") or []
    if vals.get("file") is not None:
        try:
            msgs = [decode(gitfs.read_file(ctx.shell, vals["file"]))]
        except OSError:
            raise fatal(f"could not open or read '{vals['file']}': No such file or directory") from None
    if vals.get("list") or not pos or vals.get("n") is not None and not (msgs or vals.get("annotate")):
        if not (vals.get("list") or not pos or vals.get("n") is not None):
            pass
        from pysh.ports.git import reffilter

        pats = pos
        lines_n = vals.get("n")
        nlines = 0 if lines_n is None else (1 if lines_n is True else int(lines_n))
        refs = [r for r in reffilter.collect(repo, (b"refs/tags/",))
                if not pats or any(fnmatch.fnmatchcase(decode(r.name[10:]), p) for p in pats)]
        refs = _ref_filters(repo, refs, vals)
        sort = vals.get("sort") or ([repo.cfg_get("tag", "sort")] if repo.cfg_get("tag", "sort")
                                    else [])
        refs = reffilter.sort_refs(repo, refs, sort, repo.head_ref())
        out = []
        for r in refs:
            name = decode(r.name[10:])
            if vals.get("format"):
                out.append(reffilter.format_ref(repo, r, vals["format"], repo.head_ref()) + "\n")
            elif nlines:
                obj = r.obj(repo)
                from dulwich.objects import Tag

                msg = obj.message if isinstance(obj, Tag) else \
                    repo[revs._peel(repo, r.sha, "commit")].message
                text = decode(msg).strip("\n").split("\n")
                text = [t for t in text][:nlines]
                first = text[0] if text else ""
                out.append(f"{name:<15} {first}\n".rstrip(" \n") + "\n" if first else f"{name}\n")
                for extra in text[1:]:
                    out.append(f"    {extra}\n")
            else:
                out.append(name + "\n")
        ctx.write("".join(out))
        return 0
    name = pos[0]
    from pysh.ports.git.setup import _valid_branch

    if not _valid_branch(name):
        raise fatal(f"'{name}' is not a valid tag name.")
    target_rev = pos[1] if len(pos) > 1 else "HEAD"
    if len(pos) > 2:
        raise fatal("too many arguments")
    target = revs.resolve(repo, target_rev, want=None, missing_ok=True)
    if target is None:
        raise fatal(f"Failed to resolve '{target_rev}' as a valid ref.")
    ref = b"refs/tags/" + encode(name)
    old = repo.ref_sha(ref)
    if old is not None and not vals.get("force"):
        raise fatal(f"tag '{name}' already exists")
    if msgs or vals.get("annotate"):
        if not msgs:
            raise GitExit("error: Terminal is dumb, but EDITOR unset\n"
                          "Please supply the message using either -m or -F option.", 1)
        from dulwich.objects import Tag

        from pysh.ports.git.core import cleanup_message

        tagger = identity(ctx, "COMMITTER")
        t = Tag()
        t.name = encode(name)
        obj = repo[target]
        t.object = (type(obj), target)
        t.tagger = tagger.raw()
        t.tag_time, t.tag_timezone = tagger.time, tagger.tz
        t.message = encode(cleanup_message("\n\n".join(msgs), strip_comments=False))
        repo.add_object(t)
        repo.set_ref(ref, t.id)
    else:
        repo.set_ref(ref, target)
    if old is not None and old != repo.ref_sha(ref):
        ctx.write(f"Updated tag '{name}' (was {repo.short(old)})\n")
    return 0


__all__ = ["checkout_tree_fresh", "cmd_branch", "cmd_checkout", "cmd_reset", "cmd_restore",
           "cmd_switch", "cmd_tag", "git_blob_sha", "usage_error"]
