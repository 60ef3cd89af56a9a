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
from pysh.shellkit import FileSystemError, decode, encode


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
    """``stash show [-p] [--stat] [--name-only] [-u | --only-untracked]...``: the stash against
    its base (--stat alone by default); -u lays the untracked files' tree over it."""
    from pysh.ports.git.log import _blob_loader, diff_output, parse_log_args

    untracked = only = False
    rest = []
    for f in flags:
        if f in ("-u", "--include-untracked"):
            untracked = True
        elif f == "--only-untracked":
            only = True
        elif f == "--no-include-untracked":
            untracked = False
        else:
            rest.append(f)
    o = parse_log_args(rest)
    if not (o.patch or o.stat or o.shortstat or o.numstat or o.name_only or o.name_status or
            o.summary or o.raw):
        o.stat = True
    w = repo[sha]
    utree = repo[w.parents[2]].tree if len(w.parents) > 2 else None
    old = repo.flat_tree(repo[w.parents[0]].tree)
    new = {} if only else repo.flat_tree(w.tree)
    if (untracked or only) and utree is not None:
        new.update(repo.flat_tree(utree))
    if only:
        old = {}
    ch = diffing.compare(old, new)
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
    if sub == "branch":
        return _stash_branch(ctx, repo, rest, entries)
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
            if status != 0 and sub == "pop":
                ctx.write("The stash entry is kept in case you need it again.\n")
            if status != 0 or sub == "apply":
                return status
        _stash_drop(ctx, repo, k, entries, quiet)
        return 0
    raise usage_error(f"usage: git stash list | show | drop | pop | apply | push | clear\n"
                      f"error: unknown subcommand: {sub}" if sub else "usage: git stash")


def _untracked_files(repo: Repo, with_ignored: bool, ps) -> list[bytes]:
    """Every untracked file (each file of an untracked directory; with ``with_ignored`` the
    ignored ones too), as ``git ls-files -o [--exclude-standard]`` lists them for stash -u/-a."""
    from pysh.ports.git.core import vjoin

    sc = worktree.scan(repo, set(repo.index), want_untracked=True, want_ignored=with_ignored)
    out = [p for p in sc.untracked if not p.endswith(b"/")]
    top = repo.vtop.rstrip("/")
    for p in sc.ignored if with_ignored else []:
        if not p.endswith(b"/"):
            out.append(p)
            continue
        for wd in repo.shell.walk(vjoin(top, decode(p[:-1]))):
            repo.ctx.tick()
            for ent in wd.files:
                if ent.type in ("f", "l"):
                    out.append(encode(ent.path[len(top) + 1:]))
    return sorted(p for p in out if ps is None or ps.match(p))


def _remove_untracked(repo: Repo, paths: list[bytes]) -> None:
    """``git clean -d`` of what was stashed: the files, then directories left empty."""
    dirs: set[bytes] = set()
    for p in paths:
        repo.ctx.tick()
        repo.wt_remove(p)
        d = p.rpartition(b"/")[0]
        while d:
            dirs.add(d)
            d = d.rpartition(b"/")[0]
    for d in sorted(dirs, key=len, reverse=True):
        try:
            repo.shell.core.rmdir(repo.wt(d))
        except (OSError, FileSystemError):
            pass


def _stash_push(ctx: Ctx, repo: Repo, args: list[str], *, save: bool) -> int:
    from pysh.ports.git.core import Pathspec

    opts = Opts("stash", {"m": ("arg", "message"), "message": ("arg", "message"),
                          "q": ("flag", "quiet"), "quiet": ("flag", "quiet"),
                          "u": ("flag", "untracked"), "include-untracked": ("flag", "untracked"),
                          "no-include-untracked": ("flag", "nountracked"),
                          "k": ("flag", "keep"), "keep-index": ("flag", "keep"),
                          "no-keep-index": ("flag", "nokeep"),
                          "p": ("flag", "patch"), "patch": ("flag", "patch"),
                          "a": ("flag", "all"), "all": ("flag", "all"),
                          "S": ("flag", "staged"), "staged": ("flag", "staged")},
                usage="usage: git stash [push [-m <message>]]")
    vals, pos, after = opts.parse(args)
    if vals.get("patch"):
        raise fatal("git stash -p is interactive: pysh has no terminal (stash paths instead: "
                    "git stash push -- <path>...)")
    if vals.get("staged"):
        raise fatal("git stash --staged is not supported by pysh's git")
    if vals.get("untracked") and vals.get("all"):
        raise fatal("Can't use --patch and --include-untracked or --all at the same time"
                    if vals.get("patch") else
                    "options '--include-untracked' and '--all' cannot be used together")
    message = vals.get("message")
    paths = list(pos) + list(after or [])
    if save:
        message = " ".join(paths) if paths else message
        paths = []
    try:
        repo.lock_index()  # git refreshes the index first; on failure it stops, silently
    except LockError:
        return 1
    head = repo.head()
    if head is None:
        raise fatal("You do not have the initial commit yet")
    ps = Pathspec(repo, paths) if paths else None
    idx, wt = _local_state(repo)
    for p, v in idx.items():  # a submodule's own state is not stashed (git ignores it)
        if v[0] == worktree.GITLINK:
            wt[p] = v
    head_flat = repo.flat_tree(repo[head].tree)
    with_u = bool(vals.get("untracked") or vals.get("all"))
    untracked = _untracked_files(repo, bool(vals.get("all")), ps) if with_u else []
    if ps is not None:
        known = set(head_flat) | set(idx) | set(untracked)
        for raw in paths:
            one = Pathspec(repo, [raw])
            if not any(one.match(p) for p in known):
                raise GitExit(f"error: pathspec ':(,prefix:{len(repo.prefix())}){raw}' did not "
                              "match any file(s) known to git\nDid you forget to 'git add'?", 1)
    in_ps = (lambda p: True) if ps is None else ps.match
    changed = [p for p in sorted(set(head_flat) | set(idx)) if in_ps(p) and (
        idx.get(p) != head_flat.get(p) or wt.get(p) != idx.get(p))]
    if not changed and not untracked:
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
    parents = [head, icommit.id]
    if untracked:
        uflat = {}
        for p in untracked:
            got = repo.wt_read(p)
            if got is not None:
                uflat[p] = (got[0], repo.add_blob(got[1]))
        ucommit = make_commit(repo, tree_from_flat(repo, uflat), [],
                              f"untracked files on {br}: {summary}\n", author, committer)
        parents.append(ucommit.id)
    # the work tree's state, as git builds it: the index tree, then every path (in the
    # pathspec) where the work tree or the index differs from HEAD takes its work-tree
    # content (or is dropped)
    wflat = dict(idx)
    for p in changed:
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
    wcommit = make_commit(repo, wtree, parents, wmsg, author, committer)
    old = repo.ref_sha(b"refs/stash")
    repo.set_ref(b"refs/stash", wcommit.id)
    append_reflog(repo, b"refs/stash", old, wcommit.id, wmsg, committer)
    if ps is None:
        _hard_reset_tree(repo, head_c.tree)
        if vals.get("keep"):
            switch_trees(repo, head_c.tree, itree, force=True)
    else:  # only the paths given go back to HEAD, in the index and the work tree
        index = repo.index
        for p in changed:
            hv = head_flat.get(p)
            if hv is None:
                if p in index:
                    del index[p]
                if not vals.get("keep"):
                    repo.wt_remove(p)
                continue
            if vals.get("keep") and idx.get(p) is not None:
                hv = idx[p]
            st = repo.wt_write(p, repo[hv[1]].as_raw_string(), hv[0])
            index[p] = worktree.make_entry(st, hv[1], hv[0]) if st is not None else \
                worktree.tree_entry(hv[1], hv[0])
        repo.write_index()
    _remove_untracked(repo, untracked)
    if not vals.get("quiet"):
        ctx.write(f"Saved working directory and index state {wmsg}\n")
    return 0


def _restore_untracked(ctx: Ctx, repo: Repo, utree: bytes) -> bool:
    """The stash's untracked files back; one that exists is left alone (git's message)."""
    ok = True
    for p, (mode, sha) in sorted(repo.flat_tree(utree).items()):
        ctx.tick()
        if repo.wt_lstat(p) is not None:
            ctx.ewrite(f"{decode(p)} already exists, no checkout\n")
            ok = False
            continue
        repo.wt_write(p, repo[sha].as_raw_string(), mode)
    return ok


def _stash_apply(ctx: Ctx, repo: Repo, sha: bytes, restore_index: bool, quiet: bool) -> int:
    """git's do_apply_stash: merge the stash into the index's tree; then the index is put back
    as it was (files the stash adds stay staged) or, with --index, gets the stash's index
    changes; untracked files come back last. Status follows, whatever happened."""
    from pysh.ports.git.index import build_tree_from_index

    w = repo[sha]
    base_tree = repo[w.parents[0]].tree
    if any(isinstance(e, ConflictedIndexEntry) for _, e in repo.index.items()):
        raise GitExit("error: Cannot apply a stash in the middle of a merge", 1)
    idx, wt = _local_state(repo)
    ours_tree = build_tree_from_index(repo)
    itree = repo[w.parents[1]].tree if len(w.parents) > 1 else None
    utree = repo[w.parents[2]].tree if len(w.parents) > 2 else None
    new_index = None
    if restore_index and itree is not None and itree != base_tree:
        new_index, iconf, _, _ = merge_trees(repo, base_tree, ours_tree, itree, "", "")
        if iconf:
            raise GitExit("error: conflicts in index. Try without --index.\n"
                          "error: could not generate diff "
                          f"{decode(w.parents[1])}^!.", 1)
    result, conflicts, contents, msgs = merge_trees(repo, base_tree, ours_tree, w.tree,
                                                    "Updated upstream", "Stashed changes")
    status = 0
    dirty = [p for p in sorted(set(idx) | set(result)) if wt.get(p) != idx.get(p)
             and result.get(p) != idx.get(p)]
    if dirty:
        ctx.ewrite("error: Your local changes to the following files would be overwritten by "
                   "merge:\n" + "".join(f"\t{decode(p)}\n" for p in dirty) +
                   "Please commit your changes or stash them before you merge.\nAborting\n")
        status = 1
    else:
        index = repo.index
        for m in msgs:
            ctx.write(m + "\n")
        for p in sorted(set(idx) | set(result)):
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
            if rv == idx.get(p):
                continue
            if rv is None:
                repo.wt_remove(p)
                if conflicts or (new_index is not None and p not in new_index):
                    if p in index:
                        del index[p]
                continue
            st = repo.wt_write(p, repo[rv[1]].as_raw_string(), rv[0])
            staged = rv if (conflicts or p not in idx) else None
            if new_index is not None and not conflicts:
                staged = new_index.get(p)
            if staged is not None:
                same = staged == rv and st is not None
                index[p] = worktree.make_entry(st, staged[1], staged[0]) if same else \
                    worktree.tree_entry(staged[1], staged[0])
        if new_index is not None and not conflicts:  # --index: staged deletions, other paths
            for p in set(idx) - set(new_index):
                if p in index and p not in result:
                    del index[p]
        repo.write_index()
        if conflicts:
            status = 1
    if utree is not None and not _restore_untracked(ctx, repo, utree):
        ctx.ewrite("error: could not restore untracked files from stash\n")
        status = 1
    if not quiet:
        from pysh.ports.git.status import compute, long_text

        ctx.write(long_text(repo, compute(repo)))
    return status


def _stash_branch(ctx: Ctx, repo: Repo, rest: list[str], entries) -> int:
    """``stash branch <name> [<stash>]``: a branch at the stash's base, the stash applied
    with its index, then dropped."""
    from pysh.ports.git.branch import _create_and_switch

    names = [a for a in rest if not a.startswith("-")]
    if not names:
        raise usage_error("usage: git stash branch <branchname> [<stash>]")
    if not entries:
        raise GitExit("No stash entries found.", 1)
    k = _stash_index(names[1] if len(names) > 1 else None, len(entries))
    sha = entries[k][0]
    try:
        _create_and_switch(ctx, repo, names[0], decode(repo[sha].parents[0]), track=False)
    except GitExit as e:
        raise GitExit(e.message, 1) from None
    status = _stash_apply(ctx, repo, sha, True, False)
    if status == 0:
        _stash_drop(ctx, repo, k, entries, False)
    return status


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
