"""git merge (fast-forward and simple three-way, with conflict markers) and git stash."""

from __future__ import annotations

from dulwich.index import ConflictedIndexEntry

from pysh.ports.git import diffing, revs, worktree
from pysh.ports.git.branch import _hard_reset_tree, _local_state, switch_trees, write_path
from pysh.ports.git.core import (
    Ctx,
    GitExit,
    Opts,
    Repo,
    append_reflog,
    fatal,
    identity,
    subject_of,
    update_ref,
    usage_error,
)
from pysh.ports.git.gitfs import LockError
from pysh.shellkit import decode, encode


# ------------------------------------------------------------ line merge
def merge3(base: list[bytes], ours: list[bytes], theirs: list[bytes], budget=None):
    """(merged lines, conflict count) with git-style markers left to the caller (None chunks)."""
    d1 = diffing.diff_script(base, ours, budget)
    d2 = diffing.diff_script(base, theirs, budget)
    chunks = [(c[0], c[0] + c[1], 1, c) for c in d1] + [(c[0], c[0] + c[1], 2, c) for c in d2]
    chunks.sort(key=lambda t: (t[0], t[1]))
    out: list = []
    pos = 0
    off1 = off2 = 0  # side index minus base index before the current region
    i = 0
    conflicts = 0
    while i < len(chunks):
        bs, be, _, _ = chunks[i]
        region = [chunks[i]]
        j = i + 1
        while j < len(chunks) and chunks[j][0] <= be:
            be = max(be, chunks[j][1])
            region.append(chunks[j])
            j += 1
        out.extend(base[pos:bs])
        s1 = [c for c in region if c[2] == 1]
        s2 = [c for c in region if c[2] == 2]
        d1sum = sum(c[3][3] - c[3][1] for c in s1)
        d2sum = sum(c[3][3] - c[3][1] for c in s2)
        o_seg = ours[bs + off1: be + off1 + d1sum]
        t_seg = theirs[bs + off2: be + off2 + d2sum]
        if not s2:
            out.extend(o_seg)
        elif not s1:
            out.extend(t_seg)
        elif o_seg == t_seg:
            out.extend(o_seg)
        else:
            # zealous: common leading/trailing lines stay outside the markers
            a, b = 0, 0
            while a < len(o_seg) and a < len(t_seg) and o_seg[a] == t_seg[a]:
                a += 1
            while b < len(o_seg) - a and b < len(t_seg) - a and o_seg[-1 - b] == t_seg[-1 - b]:
                b += 1
            out.extend(o_seg[:a])
            out.append((o_seg[a:len(o_seg) - b], t_seg[a:len(t_seg) - b]))
            out.extend(o_seg[len(o_seg) - b:])
            conflicts += 1
        off1 += d1sum
        off2 += d2sum
        pos = be
        i = j
    out.extend(base[pos:])
    return out, conflicts


def render_merge(out: list, ours_label: str, theirs_label: str) -> bytes:
    buf = bytearray()
    for item in out:
        if isinstance(item, tuple):
            o, t = item
            buf += b"<<<<<<< " + encode(ours_label) + b"\n"
            for ln in o:
                buf += ln if ln.endswith(b"\n") else ln + b"\n"
            buf += b"=======\n"
            for ln in t:
                buf += ln if ln.endswith(b"\n") else ln + b"\n"
            buf += b">>>>>>> " + encode(theirs_label) + b"\n"
        else:
            buf += item
    return bytes(buf)


def merge_trees(repo: Repo, base_tree, ours_tree, theirs_tree, ours_label: str, theirs_label: str):
    """Path-wise three-way merge: (result flat, conflicts {path: (b, o, t)}, auto-merged, messages)."""
    b = repo.flat_tree(base_tree)
    o = repo.flat_tree(ours_tree)
    t = repo.flat_tree(theirs_tree)
    result: dict = {}
    conflicts: dict = {}
    contents: dict[bytes, bytes] = {}
    msgs: list[str] = []
    for p in sorted(set(b) | set(o) | set(t)):
        repo.ctx.tick()
        bv, ov, tv = b.get(p), o.get(p), t.get(p)
        if ov == tv:
            if ov is not None:
                result[p] = ov
            continue
        if bv == ov:
            if tv is not None:
                result[p] = tv
            continue
        if bv == tv:
            if ov is not None:
                result[p] = ov
            continue
        # both sides changed
        name = decode(p)
        if ov is None or tv is None:
            kept = ov or tv
            who = "HEAD" if ov is None else theirs_label
            msgs.append(f"CONFLICT (modify/delete): {name} deleted in "
                        f"{'HEAD' if ov is None else theirs_label} and modified in "
                        f"{theirs_label if ov is None else 'HEAD'}.  Version {'' if ov else ''}"
                        f"{theirs_label if ov is None else 'HEAD'} of {name} left in tree.")
            del who
            result[p] = kept
            conflicts[p] = (bv, ov, tv)
            continue
        bl = diffing.split_lines(repo[bv[1]].as_raw_string()) if bv else []
        ol = diffing.split_lines(repo[ov[1]].as_raw_string())
        tl = diffing.split_lines(repo[tv[1]].as_raw_string())
        msgs.append(f"Auto-merging {name}")
        merged, n = merge3(bl, ol, tl, repo.shell.budget)
        data = render_merge(merged, ours_label, theirs_label)
        mode = ov[0] if ov[0] == tv[0] else (tv[0] if bv and ov[0] == bv[0] else ov[0])
        if n:
            kind = "add/add" if bv is None else "content"
            msgs.append(f"CONFLICT ({kind}): Merge conflict in {name}")
            conflicts[p] = (bv, ov, tv)
            contents[p] = data
            result[p] = (mode, None)
        else:
            sha = repo.add_blob(data)
            result[p] = (mode, sha)
    return result, conflicts, contents, msgs


def write_merge_result(repo: Repo, head_flat: dict, result: dict, conflicts: dict,
                       contents: dict) -> None:
    """Bring the index and work tree from ``head_flat`` to a merge result: changed paths
    checked out, conflicted ones written with their markers and staged in stages 1-3."""
    index = repo.index
    for p in sorted(set(head_flat) | set(result)):
        repo.ctx.tick()
        rv = result.get(p)
        if p in conflicts:
            bv, ov, tv = conflicts[p]
            if p in contents:
                repo.wt_write(p, contents[p], rv[0])
            elif rv is not None and rv != head_flat.get(p):
                write_path(repo, p, rv[0], rv[1])
            index[p] = ConflictedIndexEntry(
                ancestor=worktree.tree_entry(bv[1], bv[0]) if bv else None,
                this=worktree.tree_entry(ov[1], ov[0]) if ov else None,
                other=worktree.tree_entry(tv[1], tv[0]) if tv else None)
            continue
        if rv is None:
            if p in index:
                del index[p]
            repo.wt_remove(p)
        elif rv != head_flat.get(p):
            write_path(repo, p, rv[0], rv[1])


def merge_message(repo: Repo, name: str, ref: bytes | None) -> str:
    br = repo.head_branch()
    if ref is not None and ref.startswith(b"refs/heads/"):
        msg = f"Merge branch '{decode(ref[11:])}'"
    elif ref is not None and ref.startswith(b"refs/remotes/"):
        msg = f"Merge remote-tracking branch '{decode(ref[13:])}'"
    elif ref is not None and ref.startswith(b"refs/tags/"):
        msg = f"Merge tag '{decode(ref[10:])}'"
    else:
        msg = f"Merge commit '{name}'"
    if br is not None and br not in ("main", "master"):
        msg += f" into {br}"
    return msg


async def cmd_merge(ctx: Ctx, args: list[str]) -> int:
    opts = Opts("merge", {
        "m": ("multi", "message"), "message": ("multi", "message"), "no-ff": ("flag", "noff"),
        "ff": ("flag", "ff"), "ff-only": ("flag", "ffonly"), "no-edit": ("flag", "noedit"),
        "edit": ("flag", "edit"), "e": ("flag", "edit"), "abort": ("flag", "abort"),
        "continue": ("flag", "cont"), "q": ("flag", "quiet"), "quiet": ("flag", "quiet"),
        "squash": ("flag", "squash"), "stat": ("flag", "stat"), "n": ("flag", "nostat"),
        "no-stat": ("flag", "nostat"), "no-commit": ("flag", "nocommit"), "commit": ("flag", "commit"),
        "s": ("arg", "strategy"), "strategy": ("arg", "strategy"), "X": ("multi", "xopt"),
        "strategy-option": ("multi", "xopt"), "no-verify": ("flag", "noverify"),
        "allow-unrelated-histories": ("flag", "unrelated"), "log": ("optarg", "log"),
        "verbose": ("flag", "v"), "v": ("flag", "v"), "progress": ("flag", "progress"),
        "signoff": ("flag", "signoff"), "S": ("optarg", "gpg"), "gpg-sign": ("optarg", "gpg"),
    }, usage="usage: git merge [<options>] [<commit>...]")
    vals, pos, after = opts.parse(args)
    pos += after or []
    repo = ctx.repo
    repo.require_worktree("merge")
    if vals.get("abort"):
        if not repo.gitdir.exists("MERGE_HEAD"):
            raise fatal("There is no merge to abort (MERGE_HEAD missing).")
        head = repo.head()
        _hard_reset_tree(repo, repo.tree_of(head))
        _clear_merge_state(repo)
        return 0
    if vals.get("cont"):
        from pysh.ports.git.index import cmd_commit

        return await cmd_commit(ctx, ["--no-edit"])
    if not pos:
        raise fatal("No remote for the current branch.")
    if len(pos) > 1:
        raise fatal("octopus merges are not supported by this port")
    name = pos[0]
    if not repo.gitdir.exists("MERGE_HEAD") and any(
            isinstance(e, ConflictedIndexEntry) for _, e in repo.index.items()):
        raise GitExit("error: Merging is not possible because you have unmerged files.\n"
                      "hint: Fix them up in the work tree, and then use 'git add/rm <file>'\n"
                      "hint: as appropriate to mark resolution and make a commit.\n"
                      "fatal: Exiting because of an unresolved conflict.", 128)
    if repo.gitdir.exists("MERGE_HEAD"):
        raise GitExit("error: Merging is not possible because you have unmerged files.\n"
                      "hint: Fix them up in the work tree, and then use 'git add/rm <file>'\n"
                      "hint: as appropriate to mark resolution and make a commit.\n"
                      "fatal: Exiting because of an unresolved conflict." if any(
                          isinstance(e, ConflictedIndexEntry) for _, e in repo.index.items()) else
                      "fatal: You have not concluded your merge (MERGE_HEAD exists).\n"
                      "Please, commit your changes before you merge.", 128)
    theirs = revs.resolve(repo, name, missing_ok=True)
    if theirs is None:
        raise GitExit(f"merge: {name} - not something we can merge", 1)
    ref, _ = revs.lookup_ref(repo, encode(name))
    head = repo.head()
    quiet = vals.get("quiet")
    if head is None:
        # merging into an unborn branch: just take it
        switch_trees(repo, None, repo[theirs].tree, what="merge")
        update_ref(repo, b"HEAD", theirs, "initial pull")
        return 0
    if theirs == head or revs.is_ancestor(repo, theirs, head):
        ctx.write("Already up to date.\n")
        return 0
    _write_orig_head(repo, head)  # git's first write (where a read-only repository stops)
    ff_possible = revs.is_ancestor(repo, head, theirs)
    if vals.get("ffonly") and not ff_possible:
        raise fatal("Not possible to fast-forward, aborting.")
    if ff_possible and not vals.get("noff") and not vals.get("squash"):
        old_tree = repo[head].tree
        new_tree = repo[theirs].tree
        if not quiet:
            ctx.write(f"Updating {repo.short(head)}..{repo.short(theirs)}\n")
        switch_trees(repo, old_tree, new_tree, what="merge")
        update_ref(repo, b"HEAD", theirs, f"merge {name}: Fast-forward", old=head)
        if not quiet:
            ctx.write("Fast-forward\n")
            if not vals.get("nostat"):
                ctx.write(_stat_between(repo, old_tree, new_tree))
        return 0
    bases = revs.merge_bases(repo, head, theirs)
    if not bases and not vals.get("unrelated"):
        raise fatal("refusing to merge unrelated histories")
    base_tree = repo[bases[0]].tree if bases else None
    ours_tree = repo[head].tree
    theirs_tree = repo[theirs].tree
    # local changes in the way?
    idx, wt = _local_state(repo)
    head_flat = repo.flat_tree(ours_tree)
    dirty = [p for p in sorted(set(idx) | set(head_flat)) if idx.get(p) != head_flat.get(p) or
             wt.get(p) != idx.get(p)]
    result, conflicts, contents, msgs = merge_trees(repo, base_tree, ours_tree, theirs_tree, "HEAD", name)
    touched = [p for p in dirty if result.get(p) != head_flat.get(p)]
    if touched:
        raise GitExit("error: Your local changes to the following files would be overwritten by merge:\n" +
                      "".join(f"\t{decode(p)}\n" for p in touched) +
                      "Please commit your changes or stash them before you merge.\nAborting", 2)
    if not quiet:
        for m in msgs:
            ctx.write(m + "\n")
    write_merge_result(repo, head_flat, result, conflicts, contents)
    repo.write_index()
    message = "\n\n".join(vals.get("message") or []) or merge_message(repo, name, ref)
    if conflicts or vals.get("nocommit") or vals.get("squash"):
        if vals.get("squash"):
            if not quiet:
                ctx.write("Squash commit -- not updating HEAD\n")
            return 1 if conflicts else 0
        _write_new(repo, "MERGE_HEAD", theirs + b"\n")
        msg_text = message + "\n"
        if conflicts:
            msg_text += "\n# Conflicts:\n" + "".join(f"#\t{decode(p)}\n" for p in sorted(conflicts))
        _write_new(repo, "MERGE_MSG", encode(msg_text))
        _write_new(repo, "MERGE_MODE", b"no-ff\n" if vals.get("noff") else b"")
        if conflicts:
            ctx.write("Automatic merge failed; fix conflicts and then commit the result.\n")
            return 1
        ctx.write("Automatic merge went well; stopped before committing as requested\n")
        return 0
    from pysh.ports.git.core import cleanup_message
    from pysh.ports.git.index import build_tree_from_index, make_commit

    tree = build_tree_from_index(repo)
    author = identity(ctx, "AUTHOR")
    committer = identity(ctx, "COMMITTER")
    c = make_commit(repo, tree, [head, theirs], cleanup_message(message), author, committer)
    update_ref(repo, b"HEAD", c.id, f"merge {name}: Merge made by the 'ort' strategy.", old=head,
               ident=committer)
    if not quiet:
        ctx.write("Merge made by the 'ort' strategy.\n")
        if not vals.get("nostat"):
            ctx.write(_stat_between(repo, ours_tree, tree))
    return 0


def _write_new(repo: Repo, name: str, data: bytes) -> None:
    repo.write_state(name, data)


def _write_orig_head(repo: Repo, head: bytes) -> None:
    try:
        repo.gitdir.write("ORIG_HEAD", head + b"\n")
    except LockError as e:
        raise fatal(f"update_ref failed for ref 'ORIG_HEAD': cannot lock ref 'ORIG_HEAD': "
                    f"{e.reason}") from None


def _clear_merge_state(repo: Repo) -> None:
    for name in ("MERGE_HEAD", "MERGE_MSG", "MERGE_MODE"):
        repo.remove_state(name)


def _stash_show(repo: Repo, sha: bytes, flags: list[str]) -> str:
    """``stash show [-p] [--stat] [--name-only]...``: the stash against its base (--stat alone
    by default)."""
    from pysh.ports.git.log import _blob_loader, diff_output, parse_log_args

    o = parse_log_args(flags)
    if not (o.patch or o.stat or o.shortstat or o.numstat or o.name_only or o.name_status or
            o.summary or o.raw):
        o.stat = True
    w = repo[sha]
    ch = diffing.compare(repo.flat_tree(repo[w.parents[0]].tree), repo.flat_tree(w.tree))
    if o.renames:
        ch = diffing.detect_renames(ch, _blob_loader(repo), budget=repo.shell.budget)
    return diff_output(repo, ch, o, default_patch=False)


def _stat_between(repo: Repo, a, b) -> str:
    from pysh.ports.git.log import _blob_loader

    ch = diffing.compare(repo.flat_tree(a), repo.flat_tree(b))
    ch = diffing.detect_renames(ch, _blob_loader(repo), budget=repo.shell.budget)
    if not ch:
        return ""
    from pysh.ports.git.log import mark_binary

    mark_binary(repo, ch)
    load = _blob_loader(repo)
    return diffing.stat_block(ch, load, repo.shell.budget) + diffing.summary_lines(ch)


# ------------------------------------------------------------------- stash
def _stash_entries(repo: Repo) -> list[tuple[bytes, bytes]]:
    """(sha, message) newest first."""
    return [(new, msg) for _, new, msg in revs.reflog_entries(repo, b"refs/stash")]


def _write_stash_log(repo: Repo, entries: list[tuple[bytes, bytes, bytes]]) -> None:
    """Rewrite refs/stash's reflog (raw lines, oldest first)."""
    rel = "logs/refs/stash"
    data = b"".join(entries)
    if not entries:
        repo.gitdir.unlink(rel)
        return
    repo.gitdir.mkdirs("logs/refs")
    repo.gitdir.write(rel, data)


def _raw_stash_log(repo: Repo) -> list[bytes]:
    data = repo.gitdir.read_opt("logs/refs/stash")
    if data is None:
        return []
    return [ln + b"\n" for ln in data.split(b"\n") if ln]


def _stash_index(arg: str | None, n: int) -> int:
    if arg is None:
        return 0
    import re

    m = re.fullmatch(r"(?:stash@\{)?(\d+)\}?", arg)
    if not m:
        raise fatal(f"'{arg}' is not a stash-like commit")
    k = int(m.group(1))
    if k >= n:
        raise fatal(f"stash@{{{k}}}: not a valid stash reference" if n else "No stash entries found.")
    return k


async def cmd_stash(ctx: Ctx, args: list[str]) -> int:
    repo = ctx.repo
    repo.require_worktree("stash")
    sub = args[0] if args and not args[0].startswith("-") else "push"
    rest = args[1:] if args and not args[0].startswith("-") else args
    if sub in ("push", "save"):
        return _stash_push(ctx, repo, rest, save=sub == "save")
    entries = _stash_entries(repo)
    if sub == "list":
        for i, (_sha, msg) in enumerate(entries):
            ctx.write(f"stash@{{{i}}}: {decode(msg)}\n")
        return 0
    if sub == "clear":
        repo.refs.remove_if_equals(b"refs/stash", None)
        _write_stash_log(repo, [])
        return 0
    if sub in ("pop", "apply", "drop", "show"):
        opt_index = "--index" in rest
        quiet = "-q" in rest or "--quiet" in rest
        names = [a for a in rest if not a.startswith("-")]
        if not entries:
            raise GitExit("No stash entries found." if sub != "show" else "No stash entries found.", 1)
        k = _stash_index(names[0] if names else None, len(entries))
        sha = entries[k][0]
        if sub == "show":
            ctx.write(_stash_show(repo, sha, [a for a in rest if a.startswith("-")]))
            return 0
        if sub in ("pop", "apply"):
            status = _stash_apply(ctx, repo, sha, opt_index, quiet)
            if status != 0 or sub == "apply":
                return status
        _stash_drop(ctx, repo, k, entries, quiet)
        return 0
    raise usage_error(f"usage: git stash list | show | drop | pop | apply | push | clear\n"
                      f"error: unknown subcommand: {sub}" if sub else "usage: git stash")


def _stash_push(ctx: Ctx, repo: Repo, args: list[str], *, save: bool) -> int:
    opts = Opts("stash", {"m": ("arg", "message"), "message": ("arg", "message"),
                          "q": ("flag", "quiet"), "quiet": ("flag", "quiet"),
                          "u": ("flag", "untracked"), "include-untracked": ("flag", "untracked"),
                          "k": ("flag", "keep"), "keep-index": ("flag", "keep"),
                          "p": ("flag", "patch"), "a": ("flag", "all"), "all": ("flag", "all"),
                          "S": ("flag", "staged"), "staged": ("flag", "staged")},
                usage="usage: git stash [push [-m <message>]]")
    vals, pos, after = opts.parse(args)
    if vals.get("untracked") or vals.get("all") or vals.get("patch") or vals.get("staged"):
        raise fatal("this stash option is not supported by this port")
    message = vals.get("message")
    if save and pos:
        message = " ".join(pos)
    try:
        repo.lock_index()  # git refreshes the index first; on failure it stops, silently
    except LockError:
        return 1
    head = repo.head()
    if head is None:
        raise fatal("You do not have the initial commit yet")
    idx, wt = _local_state(repo)
    for p, v in idx.items():  # a submodule's own state is not stashed (git ignores it)
        if v[0] == worktree.GITLINK:
            wt[p] = v
    head_flat = repo.flat_tree(repo[head].tree)
    if idx == head_flat and all(wt.get(p) == v for p, v in idx.items()):
        ctx.write("No local changes to save\n")
        return 0
    from pysh.ports.git.index import build_tree_from_index, make_commit, tree_from_flat

    br = repo.head_branch() or "(no branch)"
    head_c = repo[head]
    summary = f"{repo.short(head)} {subject_of(head_c.message)}"
    author = identity(ctx, "AUTHOR")
    committer = identity(ctx, "COMMITTER")
    itree = build_tree_from_index(repo)
    icommit = make_commit(repo, itree, [head], f"index on {br}: {summary}\n", author, committer)
    # the work tree's state, as git builds it: the index tree, then every path where the
    # work tree (or the index) differs from HEAD takes its work-tree content (or is dropped)
    wflat = dict(idx)
    for p in sorted(set(head_flat) | set(idx)):
        if p in idx and wt.get(p) == head_flat.get(p):
            continue
        got = repo.wt_read(p)
        if got is None:
            wflat.pop(p, None)
            continue
        mode, data, _ = got
        wflat[p] = (mode, repo.add_blob(data))
    wtree = tree_from_flat(repo, wflat)
    wmsg = f"On {br}: {message}" if message else f"WIP on {br}: {summary}"
    wcommit = make_commit(repo, wtree, [head, icommit.id], wmsg, author, committer)
    old = repo.ref_sha(b"refs/stash")
    repo.set_ref(b"refs/stash", wcommit.id)
    append_reflog(repo, b"refs/stash", old, wcommit.id, wmsg, committer)
    _hard_reset_tree(repo, head_c.tree)
    if vals.get("keep"):
        switch_trees(repo, head_c.tree, itree, force=True)
    if not vals.get("quiet"):
        ctx.write(f"Saved working directory and index state {wmsg}\n")
    return 0


def _stash_apply(ctx: Ctx, repo: Repo, sha: bytes, restore_index: bool, quiet: bool) -> int:
    w = repo[sha]
    base_tree = repo[w.parents[0]].tree
    head = repo.head()
    ours_tree = repo[head].tree
    idx, wt = _local_state(repo)
    head_flat = repo.flat_tree(ours_tree)
    result, conflicts, contents, msgs = merge_trees(repo, base_tree, ours_tree, w.tree,
                                                    "Updated upstream", "Stashed changes")
    dirty = [p for p in sorted(set(idx) | set(head_flat)) if (idx.get(p) != head_flat.get(p) or
                                                              wt.get(p) != idx.get(p))
             and result.get(p) != head_flat.get(p)]
    if dirty:
        raise GitExit("error: Your local changes to the following files would be overwritten by merge:\n" +
                      "".join(f"\t{decode(p)}\n" for p in dirty) +
                      "Please commit your changes or stash them before you merge.\nAborting", 1)
    index = repo.index
    itree = repo[w.parents[1]].tree if len(w.parents) > 1 else None
    iflat = repo.flat_tree(itree) if itree else {}
    for m in msgs:
        ctx.write(m + "\n")
    for p in sorted(set(head_flat) | set(result)):
        rv = result.get(p)
        if p in conflicts:
            bv, ov, tv = conflicts[p]
            if p in contents:
                repo.wt_write(p, contents[p], rv[0])
            index[p] = ConflictedIndexEntry(
                ancestor=worktree.tree_entry(bv[1], bv[0]) if bv else None,
                this=worktree.tree_entry(ov[1], ov[0]) if ov else None,
                other=worktree.tree_entry(tv[1], tv[0]) if tv else None)
            continue
        if rv == head_flat.get(p):
            continue
        if rv is None:
            if p in index:
                del index[p]
            repo.wt_remove(p)
            continue
        st = repo.wt_write(p, repo[rv[1]].as_raw_string(), rv[0])
        if p not in head_flat or (restore_index and iflat.get(p) == rv):
            index[p] = worktree.make_entry(st, rv[1], rv[0]) if st is not None else \
                worktree.tree_entry(rv[1], rv[0])
    repo.write_index()
    if conflicts:
        return 1
    if not quiet:
        from pysh.ports.git.status import compute, long_text

        ctx.write(long_text(repo, compute(repo)))
    return 0


def _stash_drop(ctx: Ctx, repo: Repo, k: int, entries, quiet: bool) -> None:
    raw = _raw_stash_log(repo)  # oldest first
    sha = entries[k][0]
    idx_from_old = len(raw) - 1 - k
    del raw[idx_from_old]
    _write_stash_log(repo, raw)
    if raw:
        newest = raw[-1].split(b" ")[1]
        repo.set_ref(b"refs/stash", newest)
    else:
        repo.refs.remove_if_equals(b"refs/stash", None)
        _write_stash_log(repo, [])
    if not quiet:
        ctx.write(f"Dropped refs/stash@{{{k}}} ({decode(sha)})\n")
