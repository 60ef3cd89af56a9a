"""git rev-list, merge-base, shortlog, count-objects; gc/prune/fsck/repack as no-ops."""

from __future__ import annotations

from pysh.ports.git import revs
from pysh.ports.git.core import Ctx, GitExit, Opts, Repo, fatal, subject_of, usage_error
from pysh.ports.git.log import (
    LogOptions,
    Pretty,
    _ident_parts,
    log_pathspec,
    log_tips,
    parse_log_args,
    select_commits,
)
from pysh.shellkit import decode

# ----------------------------------------------------------------- rev-list
REV_LIST_USAGE = """usage: git rev-list [<options>] <commit>... [--] [<path>...]

  limiting output:
    --max-count=<n>
    --max-age=<epoch>
    --min-age=<epoch>
    --sparse
    --no-merges
    --min-parents=<n>
    --no-min-parents
    --max-parents=<n>
    --no-max-parents
    --remove-empty
    --all
    --branches
    --tags
    --remotes
    --stdin
    --exclude-hidden=[receive|uploadpack]
    --quiet
  ordering output:
    --topo-order
    --date-order
    --reverse
  formatting output:
    --parents
    --children
    --objects | --objects-edge
    --disk-usage[=human]
    --unpacked
    --header | --pretty
    --[no-]object-names
    --abbrev=<n> | --no-abbrev
    --abbrev-commit
    --left-right
    --count
  special purpose:
    --bisect
    --bisect-vars
    --bisect-all"""


async def cmd_rev_list(ctx: Ctx, args: list[str]) -> int:
    flags = {"count": False, "parents": False, "left-right": False, "objects": False,
             "quiet": False, "abbrev-commit": False}
    rest = []
    for a in args:
        if a.startswith("--") and a[2:] in flags:
            flags[a[2:]] = True
        elif a in ("--no-abbrev-commit",):
            flags["abbrev-commit"] = False
        elif a in ("--oneline",):
            rest.append(a)
            flags["abbrev-commit"] = True
        else:
            rest.append(a)
    o = parse_log_args(rest)
    o.default_head = False
    repo = ctx.repo
    if not o.revs and not (o.all or o.branches or o.tags):
        raise usage_error(REV_LIST_USAGE)
    if flags["objects"]:
        raise fatal("rev-list --objects is not supported by this port")
    left_right = flags["left-right"]
    sides: dict[bytes, str] = {}
    if left_right and len(o.revs) == 1 and "..." in o.revs[0]:
        left, right = o.revs[0].split("...", 1)
        ls = revs.resolve(repo, left or "HEAD")
        rs = revs.resolve(repo, right or "HEAD")
        lset, rset = revs.ancestors(repo, ls), revs.ancestors(repo, rs)
        for s in lset - rset:
            sides[s] = "<"
        for s in rset - lset:
            sides[s] = ">"
    tips, excl = log_tips(repo, o)
    ps = log_pathspec(repo, o)
    selected = list(select_commits(ctx, repo, o, tips, excl, ps))
    if o.reverse:
        selected.reverse()
    if flags["count"]:
        if left_right and sides:
            lc = sum(1 for s, _, _ in selected if sides.get(s) == "<")
            rc = sum(1 for s, _, _ in selected if sides.get(s) == ">")
            ctx.write(f"{lc}\t{rc}\n")
        else:
            ctx.write(f"{len(selected)}\n")
        return 0
    if flags["quiet"]:
        return 0
    user_fmt = o.fmt != "medium"
    pretty = Pretty(repo, o.fmt, abbrev=flags["abbrev-commit"] or bool(o.abbrev),
                    abbrev_n=o.abbrev_n, date=o.date) if user_fmt else None
    out = []
    for sha, c, _ in selected:
        ctx.tick()
        h = repo.short(sha, o.abbrev_n) if flags["abbrev-commit"] or o.abbrev else decode(sha)
        mark = sides.get(sha, "") if left_right else ""
        line = mark + h
        if flags["parents"]:
            line += "".join(" " + (repo.short(p, o.abbrev_n) if flags["abbrev-commit"] else decode(p))
                            for p in c.parents)
        if pretty is not None and pretty.kind == "oneline":
            out.append(f"{line} {subject_of(c.message)}\n")
        elif pretty is not None:
            out.append(f"commit {line}\n" + pretty.header(sha, c).rstrip("\n") + "\n")
        else:
            out.append(line + "\n")
        if len(out) >= 512:
            ctx.write("".join(out))
            out.clear()
            await ctx.maybe_flush()
    ctx.write("".join(out))
    return 0


# --------------------------------------------------------------- merge-base
async def cmd_merge_base(ctx: Ctx, args: list[str]) -> int:
    opts = Opts("merge-base", {
        "a": ("flag", "all"), "all": ("flag", "all"), "is-ancestor": ("flag", "isanc"),
        "octopus": ("flag", "octopus"), "independent": ("flag", "indep"),
        "fork-point": ("flag", "fork"),
    }, usage="usage: git merge-base [-a | --all] <commit> <commit>...\n"
             "   or: git merge-base [-a | --all] --octopus <commit>...\n"
             "   or: git merge-base --is-ancestor <commit> <commit>\n"
             "   or: git merge-base --independent <commit>...\n"
             "   or: git merge-base --fork-point <ref> [<commit>]")
    vals, pos, after = opts.parse(args)
    pos += after or []
    repo = ctx.repo

    def commit(name: str) -> bytes:
        sha = revs.resolve(repo, name, missing_ok=True)
        if sha is None:
            raise fatal(f"Not a valid object name {name}")
        return sha

    if vals.get("isanc"):
        if len(pos) != 2:
            raise usage_error("usage: git merge-base --is-ancestor <commit> <commit>")
        return 0 if revs.is_ancestor(repo, commit(pos[0]), commit(pos[1])) else 1
    if vals.get("indep"):
        shas = [commit(p) for p in pos]
        keep = [s for s in shas if not any(o != s and revs.is_ancestor(repo, s, o) for o in shas)]
        ctx.write("".join(decode(s) + "\n" for s in dict.fromkeys(keep)))
        return 0
    if vals.get("fork"):
        if not pos or len(pos) > 2:
            raise usage_error(opts.usage)
        ref, tip = pos[0], (pos[1] if len(pos) > 1 else "HEAD")
        bases = revs.merge_bases(repo, commit(ref), commit(tip))
        if not bases:
            return 1
        ctx.write(decode(bases[0]) + "\n")
        return 0
    if vals.get("octopus"):
        shas = [commit(p) for p in pos]
        if not shas:
            return 1
        cur = [shas[0]]
        for s in shas[1:]:
            nxt = []
            for c in cur:
                nxt.extend(revs.merge_bases(repo, c, s))
            cur = list(dict.fromkeys(nxt))
            if not cur:
                return 1
        ctx.write("".join(decode(b) + "\n" for b in (cur if vals.get("all") else cur[:1])))
        return 0
    if len(pos) < 2:
        raise usage_error(opts.usage)
    a = commit(pos[0])
    bases: list[bytes] = []
    for other in pos[1:]:
        bases.extend(revs.merge_bases(repo, a, commit(other)))
    bases = list(dict.fromkeys(bases))
    if not bases:
        return 1
    ctx.write("".join(decode(b) + "\n" for b in (bases if vals.get("all") else bases[:1])))
    return 0


# ----------------------------------------------------------------- shortlog
async def cmd_shortlog(ctx: Ctx, args: list[str]) -> int:
    flags = {"s": False, "n": False, "e": False, "c": False}
    fmt = None
    rest = []
    group = "author"
    for a in args:
        if a.startswith("-") and not a.startswith("--") and len(a) > 1 and set(a[1:]) <= set("snec"):
            for ch in a[1:]:
                flags[ch] = True
        elif a in ("--summary", "--numbered", "--email", "--committer"):
            flags[{"--summary": "s", "--numbered": "n", "--email": "e", "--committer": "c"}[a]] = True
        elif a.startswith("--format=") or a.startswith("--pretty="):
            fmt = a.split("=", 1)[1]
        elif a.startswith("--group="):
            group = a.split("=", 1)[1]
        else:
            rest.append(a)
    if flags["c"]:
        group = "committer"
    if group not in ("author", "committer"):
        raise fatal(f"unknown group type: {group}")
    o: LogOptions = parse_log_args(rest)
    repo = ctx.repo
    tips, excl = log_tips(repo, o)
    ps = log_pathspec(repo, o)
    pretty = None
    if fmt:
        pretty = Pretty(repo, fmt if "%" not in fmt or fmt.startswith(("format:", "tformat:"))
                        else "tformat:" + fmt, abbrev=True, abbrev_n=o.abbrev_n, date=o.date)
    groups: dict[str, list[str]] = {}
    for sha, c, _ in select_commits(ctx, repo, o, tips, excl, ps):
        raw = c.author if group == "author" else c.committer
        name, email = _ident_parts(raw)
        key = f"{name} <{email}>" if flags["e"] else name
        line = pretty.header(sha, c).rstrip("\n") if pretty is not None else subject_of(c.message)
        groups.setdefault(key, []).append(line)
    keys = sorted(groups, key=lambda k: (-len(groups[k]), k) if flags["n"] else k)
    out = []
    for k in keys:
        items = groups[k]
        if flags["s"]:
            out.append(f"{len(items):>6}\t{k}\n")
            continue
        out.append(f"{k} ({len(items)}):\n")
        for line in reversed(items):
            out.append(f"      {line}\n")
        out.append("\n")
    ctx.write("".join(out))
    return 0


# ------------------------------------------------------------- count-objects
async def cmd_count_objects(ctx: Ctx, args: list[str]) -> int:
    verbose = any(a in ("-v", "--verbose") for a in args)
    human = any(a in ("-H", "--human-readable") for a in args)
    for a in args:
        if a not in ("-v", "--verbose", "-H", "--human-readable"):
            raise usage_error("usage: git count-objects [-v] [-H | --human-readable]")
    repo = ctx.repo
    gd = repo.gitdir
    count = size = 0
    for fan, t in gd.listdir("objects"):
        if len(fan) != 2 or gd.entry_kind(f"objects/{fan}", t) != "d":
            continue
        for name, _ in gd.listdir(f"objects/{fan}"):
            st = gd.stat(f"objects/{fan}/{name}")
            if st is not None:
                count += 1
                size += st.st_blocks * 512
    kb = size // 1024
    if not verbose:
        ctx.write(f"{count} objects, {_human(size) if human else str(kb) + ' kilobytes'}\n")
        return 0
    packs = in_pack = pack_size = 0
    for name, _ in gd.listdir("objects/pack"):
        if name.endswith(".pack"):
            packs += 1
            st = gd.stat(f"objects/pack/{name}")
            idx = gd.stat(f"objects/pack/{name[:-5]}.idx")
            pack_size += (st.st_size if st else 0) + (idx.st_size if idx else 0)
    for p in repo.object_store.packs:
        in_pack += len(p.index)
    ctx.write(f"count: {count}\nsize: {_human(size) if human else kb}\nin-pack: {in_pack}\n"
              f"packs: {packs}\nsize-pack: {_human(pack_size) if human else pack_size // 1024}\n"
              f"prune-packable: 0\ngarbage: 0\nsize-garbage: {'0 bytes' if human else 0}\n")
    return 0


def _human(n: int) -> str:
    for unit in ("bytes", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            if unit == "bytes":
                return f"{n} {unit}"
            return f"{n:.2f} {unit}"
        n /= 1024
    return f"{n} bytes"


# ------------------------------------------------------------- maintenance
async def cmd_maintenance_noop(ctx: Ctx, args: list[str]) -> int:
    """gc, prune, repack, fsck, maintenance: pysh keeps objects as they are (say so)."""
    name = ctx.command
    repo = ctx.repo
    if name == "gc":
        try:
            lk = repo.gitdir.lock("gc.pid")  # git's first step; a read-only repository stops here
        except GitExit:
            raise
        lk.release()
    if name == "fsck":
        return _fsck(ctx, repo, args)
    ctx.ewrite(f"pysh: git {name}: nothing to do (pysh's git does not repack or prune)\n")
    return 0


def _fsck(ctx: Ctx, repo: Repo, args: list[str]) -> int:
    """Check that every ref reaches readable objects (a light fsck)."""
    bad = 0
    seen: set[bytes] = set()
    stack = [sha for sha in repo.all_refs().values()]
    h = repo.head()
    if h is not None:
        stack.append(h)
    while stack:
        sha = stack.pop()
        if sha in seen:
            continue
        seen.add(sha)
        ctx.tick()
        try:
            obj = repo[sha]
        except KeyError:
            ctx.write(f"missing object {decode(sha)}\n")
            bad += 1
            continue
        t = obj.type_name
        if t == b"commit":
            stack.append(obj.tree)
            stack.extend(obj.parents)
        elif t == b"tree":
            for e in obj.iteritems():
                if e.mode != 0o160000:
                    stack.append(e.sha)
        elif t == b"tag":
            stack.append(obj.object[1])
    return 2 if bad else 0


# ---------------------------------------------------------------- diff-tree
async def cmd_diff_tree(ctx: Ctx, args: list[str]) -> int:
    """git diff-tree [-r] [--root] [--no-commit-id] [-s] [<diff options>] <tree-ish> [<tree-ish>]
    [--] [<path>...]: raw lines with full ids, or the log's diff formats."""
    from pysh.ports.git import diffing
    from pysh.ports.git.core import Pathspec, quote_path
    from pysh.ports.git.log import diff_output

    recursive = root = no_id = silent = False
    rest = []
    for i, a in enumerate(args):
        if a == "--":
            rest += args[i:]
            break
        if a == "-r":
            recursive = True
        elif a == "--root":
            root = True
        elif a == "--no-commit-id":
            no_id = True
        elif a == "-s":
            silent = True
        elif a in ("-t", "--raw"):
            recursive = recursive or a == "-t"
        else:
            rest.append(a)
    o = parse_log_args(rest)
    repo = ctx.repo
    tips = o.revs
    if not tips or len(tips) > 2:
        raise usage_error("usage: git diff-tree [--stdin] [-m] [-s] [-v] [--no-commit-id] "
                          "[--pretty]\n              [-t] [-r] [-c | --cc] "
                          "[--combined-all-paths] [--root] [--merge-base]\n              "
                          "[<common-diff-options>] <tree-ish> [<tree-ish>] [<path>...]")
    if o.patch or o.stat or o.numstat or o.shortstat or o.name_only or o.name_status:
        recursive = True
    ps = Pathspec(repo, o.paths) if o.paths else None
    head = ""
    if len(tips) == 2:
        old_t = revs.resolve(repo, tips[0], want="tree")
        new_t = revs.resolve(repo, tips[1], want="tree")
    else:
        sha = revs.resolve(repo, tips[0], want=None)
        c = repo.get(revs._peel(repo, sha, "commit") or b"")
        if c is None:
            raise fatal(f"ambiguous argument '{tips[0]}'")
        if len(c.parents) > 1 or (not c.parents and not root):
            return 0
        old_t = repo[c.parents[0]].tree if c.parents else None
        new_t = c.tree
        head = "" if no_id else decode(c.id) + "\n"
    if recursive:
        old, new = repo.flat_tree(old_t), repo.flat_tree(new_t)
    else:
        def top(t):
            return {name: (mode, s) for name, mode, s in repo[t].iteritems()} if t else {}
        old, new = top(old_t), top(new_t)
    if ps is not None:
        old = {p: v for p, v in old.items() if ps.match(p)}
        new = {p: v for p, v in new.items() if ps.match(p)}
    changes = diffing.compare(old, new)
    if recursive and any(a.startswith(("-M", "--find-renames")) for a in rest):  # not by default
        from pysh.ports.git.log import _blob_loader

        changes = diffing.detect_renames(changes, _blob_loader(repo), budget=repo.shell.budget)
    if not changes:
        return 0
    if silent:
        ctx.write(head)
        return 0
    if not (o.patch or o.stat or o.numstat or o.shortstat or o.name_only or o.name_status):
        z40 = "0" * 40
        rows = []
        for ch in changes:
            st = ch.status if ch.status != "R" else f"R{ch.score:03d}"
            names = quote_path(ch.path) if ch.status != "R" else \
                f"{quote_path(ch.old_path)}\t{quote_path(ch.new_path)}"
            osha = decode(ch.old_sha) if ch.old_sha != diffing.ZERO else z40
            nsha = decode(ch.new_sha) if ch.new_sha != diffing.ZERO else z40
            rows.append(f":{ch.old_mode:06o} {ch.new_mode:06o} {osha} {nsha} {st}\t{names}\n")
        ctx.write(head + "".join(rows))
        return 0
    ctx.write(head + diff_output(repo, changes, o, default_patch=False))
    return 0
