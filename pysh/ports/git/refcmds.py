"""git for-each-ref, show-ref, symbolic-ref, update-ref, describe, name-rev, reflog."""

from __future__ import annotations

import fnmatch

from pysh.ports.git import reffilter, revs
from pysh.ports.git.core import (
    Ctx,
    GitExit,
    Opts,
    Repo,
    append_reflog,
    fatal,
    update_ref,
    usage_error,
)
from pysh.ports.git.gitfs import LockError
from pysh.shellkit import decode, encode


# ------------------------------------------------------------- for-each-ref
async def cmd_for_each_ref(ctx: Ctx, args: list[str]) -> int:
    opts = Opts("for-each-ref", {
        "format": ("arg", "format"), "sort": ("multi", "sort"), "count": ("arg", "count"),
        "contains": ("multi", "contains"), "no-contains": ("multi", "nocontains"),
        "merged": ("lastarg", "merged"), "no-merged": ("lastarg", "nomerged"),
        "points-at": ("multi", "pointsat"), "shell": ("flag", "q"), "perl": ("flag", "q"),
        "python": ("flag", "q"), "tcl": ("flag", "q"), "s": ("flag", "q"), "p": ("flag", "q"),
        "ignore-case": ("flag", "icase"), "color": ("optarg", "color"),
    }, usage="usage: git for-each-ref [<options>] [<pattern>]")
    vals, pos, after = opts.parse(args)
    pos += after or []
    if vals.get("q"):
        raise fatal("quoting for a language (--shell, --perl...) is not supported by this port")
    repo = ctx.repo
    refs = reffilter.collect(repo)
    if pos:
        refs = [r for r in refs if any(reffilter.pattern_match(p, decode(r.name)) for p in pos)]
    refs = _filters(repo, refs, vals)
    head = repo.head_ref()
    refs = reffilter.sort_refs(repo, refs, vals.get("sort") or [], head)
    if vals.get("count") is not None:
        try:
            n = int(vals["count"])
        except ValueError:
            raise fatal("option `count' expects a numerical value") from None
        refs = refs[:n]
    fmt = vals.get("format") or "%(objectname) %(objecttype)\t%(refname)"
    ctx.write("".join(reffilter.format_ref(repo, r, fmt, head) + "\n" for r in refs))
    return 0


def _filters(repo: Repo, refs, vals: dict):
    def one(v):
        if v is None:
            return ()
        return ("HEAD",) if v is True else (v,)

    return reffilter.filter_refs(
        repo, refs, contains=vals.get("contains") or (), no_contains=vals.get("nocontains") or (),
        merged=one(vals.get("merged")), no_merged=one(vals.get("nomerged")),
        points_at=vals.get("pointsat") or ())


# ----------------------------------------------------------------- show-ref
async def cmd_show_ref(ctx: Ctx, args: list[str]) -> int:
    opts = Opts("show-ref", {
        "heads": ("flag", "heads"), "tags": ("flag", "tags"), "d": ("flag", "deref"),
        "dereference": ("flag", "deref"), "s": ("optarg", "hash"), "hash": ("optarg", "hash"),
        "verify": ("flag", "verify"), "abbrev": ("optarg", "abbrev"), "q": ("flag", "quiet"),
        "quiet": ("flag", "quiet"), "head": ("flag", "head"),
        "exclude-existing": ("optarg", "exex"),
    }, usage="usage: git show-ref [-q | --quiet] [--verify] [--head] [-d | --dereference] "
             "[-s | --hash[=<n>]] [--abbrev[=<n>]] [--tags] [--heads] [--] [<pattern>...]")
    vals, pos, after = opts.parse(args)
    pos += after or []
    repo = ctx.repo
    abbrev = vals.get("abbrev")
    n = 7 if abbrev is True else int(abbrev) if abbrev else None
    if vals.get("hash") not in (None, True, False):
        n = int(vals["hash"])

    def row(name: bytes, sha: bytes) -> str:
        h = repo.short(sha, n) if n else decode(sha)
        return f"{h}\n" if vals.get("hash") else f"{h} {decode(name)}\n"

    out = []
    if vals.get("verify"):
        if not pos:
            raise fatal("--verify requires a reference")
        status = 0
        for p in pos:
            b = encode(p)
            sha = repo.ref_sha(b) if b.startswith(b"refs/") or b == b"HEAD" else None
            if sha is None:
                if not vals.get("quiet"):
                    ctx.ewrite(f"fatal: '{p}' - not a valid ref\n")
                return 128
            if not vals.get("quiet"):
                out.append(row(b, sha))
        ctx.write("".join(out))
        return status
    if vals.get("head") and repo.head() is not None:
        out.append(row(b"HEAD", repo.head()))
    for r in reffilter.collect(repo):
        name = r.name
        if vals.get("heads") or vals.get("tags"):
            if not ((vals.get("heads") and name.startswith(b"refs/heads/")) or
                    (vals.get("tags") and name.startswith(b"refs/tags/"))):
                continue
        if pos and not any(name == encode(p) or name.endswith(b"/" + encode(p)) for p in pos):
            continue
        out.append(row(name, r.sha))
        if vals.get("deref"):
            o = r.obj(repo)
            if o is not None and o.type_name == b"tag":
                peeled = revs._peel(repo, r.sha, None)
                out.append(row(name + b"^{}", peeled))
    if vals.get("quiet"):
        return 0 if out else 1
    ctx.write("".join(out))
    return 0 if out else 1


# ------------------------------------------------------------- symbolic-ref
async def cmd_symbolic_ref(ctx: Ctx, args: list[str]) -> int:
    opts = Opts("symbolic-ref", {
        "q": ("flag", "quiet"), "quiet": ("flag", "quiet"), "d": ("flag", "delete"),
        "delete": ("flag", "delete"), "short": ("flag", "short"), "m": ("arg", "msg"),
        "no-recurse": ("flag", "norec"), "recurse": ("flag", "rec"),
    }, usage="usage: git symbolic-ref [-m <reason>] <name> <ref>\n"
             "   or: git symbolic-ref [-q] [--short] [--no-recurse] <name>\n"
             "   or: git symbolic-ref --delete [-q] <name>")
    vals, pos, after = opts.parse(args)
    pos += after or []
    repo = ctx.repo
    if vals.get("delete"):
        if len(pos) != 1:
            raise usage_error(opts.usage)
        name = encode(pos[0])
        data = repo.refs.read_loose_ref(name)
        if not data or not data.startswith(b"ref: "):
            if vals.get("quiet"):
                return 1
            raise fatal(f"Cannot delete {pos[0]}, not a symbolic ref")
        if name == b"HEAD":
            raise fatal("deleting 'HEAD' is not allowed")
        repo.gitdir.unlink(pos[0])
        return 0
    if len(pos) == 1:
        name = encode(pos[0])
        data = repo.refs.read_loose_ref(name)
        if not data or not data.startswith(b"ref: "):
            if vals.get("quiet"):
                return 1
            raise fatal(f"ref {pos[0]} is not a symbolic ref")
        target = data[5:].strip()
        if not vals.get("norec"):
            for _ in range(5):
                nxt = repo.refs.read_loose_ref(target)
                if not nxt or not nxt.startswith(b"ref: "):
                    break
                target = nxt[5:].strip()
        if vals.get("short"):
            for pre in (b"refs/heads/", b"refs/tags/", b"refs/remotes/", b"refs/"):
                if target.startswith(pre):
                    target = target[len(pre):]
                    break
        ctx.write(decode(target) + "\n")
        return 0
    if len(pos) == 2:
        name, target = encode(pos[0]), encode(pos[1])
        if not target.startswith(b"refs/"):
            raise fatal(f"Refusing to point {pos[0]} at target outside refs/: {pos[1]}" if
                        name == b"HEAD" else f"Refusing to set '{pos[0]}' to invalid ref '{pos[1]}'")
        old = repo.ref_sha(name)
        repo.set_symbolic(name, target)
        if vals.get("msg") and name == b"HEAD":
            new = repo.ref_sha(name)
            if new is not None:
                append_reflog(repo, b"HEAD", old, new, vals["msg"])
        return 0
    raise usage_error(opts.usage)


# --------------------------------------------------------------- update-ref
async def cmd_update_ref(ctx: Ctx, args: list[str]) -> int:
    opts = Opts("update-ref", {
        "m": ("arg", "msg"), "d": ("flag", "delete"), "no-deref": ("flag", "noderef"),
        "create-reflog": ("flag", "reflog"), "stdin": ("flag", "stdin"), "z": ("flag", "z"),
    }, usage="usage: git update-ref [<options>] -d <refname> [<old-val>]\n"
             "   or: git update-ref [<options>]    <refname> <new-val> [<old-val>]")
    vals, pos, after = opts.parse(args)
    pos += after or []
    if vals.get("stdin"):
        raise fatal("update-ref --stdin is not supported by this port")
    repo = ctx.repo
    msg = vals.get("msg") or ""
    if vals.get("delete"):
        if len(pos) not in (1, 2):
            raise usage_error(opts.usage)
        name = _full_ref(repo, pos[0], vals)
        old = None
        if len(pos) == 2:
            old = revs.resolve(repo, pos[1], want="object", missing_ok=True)
            if old is None:
                raise fatal(f"{pos[1]}: not a valid old SHA1")
        cur = repo.ref_sha(name)
        if old is not None and cur != old:
            raise fatal(f"cannot lock ref '{decode(name)}': is at {decode(cur or b'0' * 40)} but "
                        f"expected {decode(old)}")
        try:
            repo.refs.remove_if_equals(name, None)
        except LockError as e:
            raise fatal(f"cannot lock ref '{decode(name)}': {e.reason}") from None
        repo.gitdir.unlink("logs/" + decode(name))
        return 0
    if len(pos) not in (2, 3):
        raise usage_error(opts.usage)
    name = _full_ref(repo, pos[0], vals)
    new = revs.resolve(repo, pos[1], want="object", missing_ok=True)
    if new is None:
        raise fatal(f"{pos[1]}: not a valid SHA1")
    cur = repo.ref_sha(name)
    if len(pos) == 3:
        want = b"0" * 40 if pos[2] in ("", "0" * 40) else revs.resolve(repo, pos[2], want="object",
                                                                        missing_ok=True)
        if (cur or b"0" * 40) != want:
            raise fatal(f"update_ref failed for ref '{decode(name)}': cannot lock ref "
                        f"'{decode(name)}': is at {decode(cur or b'0' * 40)} but expected "
                        f"{decode(want or b'')}")
    try:
        if name == b"HEAD" and vals.get("noderef"):
            repo.detach_head(new)
        else:
            update_ref(repo, name, new, msg, old=cur)
    except GitExit as e:
        if "cannot lock ref" in e.message:
            raise GitExit(e.message.replace("fatal: ", f"fatal: update_ref failed for ref "
                                                       f"'{decode(name)}': ", 1), 128) from None
        raise
    return 0


def _full_ref(repo: Repo, name: str, vals: dict) -> bytes:
    b = encode(name)
    if b == b"HEAD" or b.startswith(b"refs/"):
        return b
    return b  # git accepts any name under the git dir; pysh keeps refs/ and HEAD


# ----------------------------------------------------------------- describe
async def cmd_describe(ctx: Ctx, args: list[str]) -> int:
    opts = Opts("describe", {
        "tags": ("flag", "tags"), "all": ("flag", "all"), "always": ("flag", "always"),
        "long": ("flag", "long"), "abbrev": ("arg", "abbrev"), "dirty": ("optarg", "dirty"),
        "broken": ("optarg", "broken"), "exact-match": ("flag", "exact"),
        "candidates": ("arg", "candidates"), "match": ("multi", "match"),
        "exclude": ("multi", "exclude"), "first-parent": ("flag", "firstparent"),
        "contains": ("flag", "contains"), "debug": ("flag", "debug"),
    }, usage="usage: git describe [<options>] [<commit-ish>...]\n"
             "   or: git describe [<options>] --dirty")
    vals, pos, after = opts.parse(args)
    pos += after or []
    repo = ctx.repo
    abbrev = int(vals["abbrev"]) if vals.get("abbrev") not in (None, True) else 7
    if vals.get("dirty") is not None and pos:
        raise fatal("option '--dirty' and commit-ishes cannot be used together")
    if vals.get("contains"):
        out = []
        for p in pos or ["HEAD"]:
            sha = revs.resolve(repo, p, missing_ok=True)
            if sha is None:
                raise fatal(f"Not a valid object name {p}")
            name = _name_rev(repo, sha, tags_only=not vals.get("all"), prefer_tags=True)
            if name is None:
                raise fatal(f"cannot describe '{decode(sha)}'")
            out.append((name[5:] if name.startswith("tags/") else name) + "\n")
        ctx.write("".join(out))
        return 0
    dirty = ""
    if vals.get("dirty") is not None:
        from pysh.ports.git.status import compute

        st = compute(repo, untracked="no", renames=False)
        if st.staged or st.unstaged or st.unmerged:
            dirty = "-dirty" if vals["dirty"] is True else vals["dirty"]
    out = []
    for p in pos or ["HEAD"]:
        sha = revs.resolve(repo, p, missing_ok=True)
        if sha is None:
            raise fatal(f"Not a valid object name {p}")
        out.append(_describe(repo, sha, vals, abbrev) + dirty + "\n")
    ctx.write("".join(out))
    return 0


def _describe(repo: Repo, sha: bytes, vals: dict, abbrev: int) -> str:
    names: dict[bytes, list[tuple[int, int, str]]] = {}  # commit -> [(annotated, date, name)]
    for r in reffilter.collect(repo):
        name = decode(r.name)
        if vals.get("all"):
            shown = name[5:] if name.startswith("refs/") else name
        elif name.startswith("refs/tags/"):
            shown = name[10:]
        else:
            continue
        o = r.obj(repo)
        annotated = o is not None and o.type_name == b"tag"
        if not annotated and not vals.get("tags") and not vals.get("all"):
            continue
        tagname = name[10:] if name.startswith("refs/tags/") else shown
        if vals.get("match") and not any(fnmatch.fnmatchcase(tagname, m) for m in vals["match"]):
            continue
        if vals.get("exclude") and any(fnmatch.fnmatchcase(tagname, m) for m in vals["exclude"]):
            continue
        c = revs._peel(repo, r.sha, "commit")
        if c is None:
            continue
        date = o.tag_time if annotated else repo[c].commit_time
        names.setdefault(c, []).append((1 if annotated else 0, date, shown))
    for lst in names.values():  # annotated over lightweight, then the newer
        lst.sort(key=lambda t: (-t[0], -t[1]))
    if sha in names:
        return names[sha][0][2] + (f"-0-g{repo.short(sha, abbrev)}" if vals.get("long") else "")
    if vals.get("exact") or vals.get("candidates") == "0":
        raise fatal(f"no tag exactly matches '{decode(sha)}'")
    # candidates in the order a date-ordered walk meets them
    from pysh.ports.git.log import walk_date_order

    max_cand = int(vals.get("candidates") or 10)
    found = []
    for n, (c, _obj) in enumerate(walk_date_order(repo, [sha], [],
                                                  first_parent=bool(vals.get("firstparent")))):
        repo.ctx.tick()
        if c in names:
            found.append((c, n))
            if len(found) >= max_cand:
                break
    if not found:
        if vals.get("always"):
            return repo.short(sha, abbrev)
        raise fatal(f"No {'names' if vals.get('all') else 'tags'} can describe '{decode(sha)}'.\n"
                    "Try --always, or create some tags." if not vals.get("all") else
                    "No names found, cannot describe anything.")
    best = None
    for c, order in found:
        depth = _count_between(repo, sha, c, bool(vals.get("firstparent")))
        key = (depth, order)
        if best is None or key < best[0]:
            best = (key, c)
    (depth, _), c = best
    name = names[c][0][2]
    if abbrev == 0:
        return name
    return f"{name}-{depth}-g{repo.short(sha, abbrev)}"


def _count_between(repo: Repo, tip: bytes, base: bytes, first_parent: bool) -> int:
    """How many commits ``tip`` has that ``base`` does not (git rev-list --count base..tip)."""
    from pysh.ports.git.log import walk_date_order

    return sum(1 for _ in walk_date_order(repo, [tip], [base], first_parent=first_parent))


# ----------------------------------------------------------------- name-rev
async def cmd_name_rev(ctx: Ctx, args: list[str]) -> int:
    opts = Opts("name-rev", {
        "name-only": ("flag", "nameonly"), "tags": ("flag", "tags"), "refs": ("multi", "refs"),
        "exclude": ("multi", "exclude"), "all": ("flag", "all"), "stdin": ("flag", "stdin"),
        "undefined": ("flag", "undefined"), "no-undefined": ("flag", "noundefined"),
        "always": ("flag", "always"), "annotate-stdin": ("flag", "stdin"),
    }, usage="usage: git name-rev [<options>] <commit>...")
    vals, pos, after = opts.parse(args)
    pos += after or []
    if vals.get("stdin"):
        raise fatal("name-rev --stdin is not supported by this port")
    repo = ctx.repo
    out = []
    for p in pos:
        sha = revs.resolve(repo, p, missing_ok=True)
        if sha is None:
            ctx.ewrite(f"Could not get sha1 for {p}. Skipping.\n")
            continue
        name = _name_rev(repo, sha, tags_only=bool(vals.get("tags")), refs=vals.get("refs"),
                         exclude=vals.get("exclude"))
        if name is None:
            if vals.get("noundefined"):
                raise fatal(f"cannot describe '{decode(sha)}'")
            name = repo.short(sha) if vals.get("always") else "undefined"
        out.append(name + "\n" if vals.get("nameonly") else f"{p} {name}\n")
    ctx.write("".join(out))
    return 0


_MERGE_WEIGHT = 65535


def _name_rev(repo: Repo, target: bytes, *, tags_only: bool = False, refs=None, exclude=None,
              prefer_tags: bool = False) -> str | None:
    """git name-rev's best name for ``target``: from the older tag, else the fewest hops."""
    best = None  # (from_tag, date, distance, name)
    tips = []
    for r in reffilter.collect(repo):
        n = decode(r.name)
        if tags_only and not n.startswith("refs/tags/"):
            continue
        if refs and not any(fnmatch.fnmatchcase(n, p) or fnmatch.fnmatchcase(n[5:], p) or
                            n.endswith("/" + p) for p in refs):
            continue
        if exclude and any(fnmatch.fnmatchcase(n, p) or n.endswith("/" + p) for p in exclude):
            continue
        o = r.obj(repo)
        c = revs._peel(repo, r.sha, "commit")
        if c is None:
            continue
        deref = o is not None and o.type_name == b"tag"
        short = n[11:] if n.startswith("refs/heads/") else n[5:] if n.startswith("refs/") else n
        from_tag = n.startswith("refs/tags/")
        date = o.tag_time if deref else repo[c].commit_time
        tips.append((c, short + ("^0" if deref else ""), from_tag, date))
    for c, tip_name, from_tag, date in tips:
        got = _walk_name(repo, c, target, tip_name)
        if got is None:
            continue
        name, distance = got
        cand = (from_tag, date, distance, name)
        if best is None or _better(cand, best):
            best = cand
    return best[3] if best is not None else None


def _better(a, b) -> bool:
    """git's is_better_name: two tags: the older; a tag over a non-tag; then fewer hops."""
    if a[0] and b[0]:
        return a[1] < b[1] or (a[1] == b[1] and a[2] < b[2])
    if a[0] != b[0]:
        return a[0]
    if a[2] != b[2]:
        return a[2] < b[2]
    return a[1] < b[1]


def _walk_name(repo: Repo, tip: bytes, target: bytes, tip_name: str):
    """(name, distance) of ``target`` reached from ``tip``, the shortest way, or None."""
    import heapq

    seen: dict[bytes, int] = {}
    heap = [(0, 0, tip, tip_name, 0)]
    n = 0
    while heap:
        dist, _, sha, name, gen = heapq.heappop(heap)
        if sha in seen and seen[sha] <= dist:
            continue
        seen[sha] = dist
        repo.ctx.tick()
        if sha == target:
            if gen == 0:
                return name, dist
            base = name[:-2] if name.endswith("^0") else name
            return f"{base}~{gen}", dist
        c = repo.get(sha)
        if c is None:
            continue
        for k, p in enumerate(c.parents):
            n += 1
            if k == 0:
                heapq.heappush(heap, (dist + 1, n, p, name, gen + 1))
            else:
                base = name[:-2] if name.endswith("^0") else name
                pname = f"{base}~{gen}^{k + 1}" if gen else f"{base}^{k + 1}"
                heapq.heappush(heap, (dist + _MERGE_WEIGHT, n, p, pname, 0))
    return None


# ------------------------------------------------------------------- reflog
REFLOG_USAGE = ("usage: git reflog [show] [<log-options>] [<ref>]\n"
                "   or: git reflog exists <ref>")


async def cmd_reflog(ctx: Ctx, args: list[str]) -> int:
    """git reflog [show|exists]: git log -g --abbrev-commit --pretty=oneline over a ref's
    reflog, newest first (expire and delete are not offered)."""
    from pysh.ports.git.core import fmt_date
    from pysh.ports.git.log import Pretty

    repo = ctx.repo
    sub = args[0] if args and not args[0].startswith("-") else "show"
    if args and args[0] in ("show", "exists", "expire", "delete"):
        args = args[1:]
    elif args and not args[0].startswith("-") and sub not in ("show",):
        sub = "show"
    if sub == "exists":
        if len(args) != 1:
            raise usage_error("usage: git reflog exists <ref>")
        return 0 if repo.gitdir.exists("logs/" + args[0]) else 1
    if sub in ("expire", "delete"):
        raise fatal(f"reflog {sub} is not available in pysh's git")
    fmt, date, limit, names = "%h %gd: %gs", None, None, []
    i = 0
    while i < len(args):
        a = args[i]
        i += 1
        if a == "--":
            names += args[i:]
            break
        if a in ("--oneline", "--abbrev-commit", "--no-abbrev-commit"):
            continue
        if a.startswith("--format=") or a.startswith("--pretty="):
            v = a.split("=", 1)[1]
            if v == "oneline":
                fmt = "%h %gd: %gs"
            elif v.startswith(("format:", "tformat:")):
                fmt = v.split(":", 1)[1]
            elif "%" in v:
                fmt = v
            else:
                raise fatal(f"pysh's git reflog takes --oneline or a --format=<format>, not '{v}'")
            continue
        if a.startswith("--date="):
            date = a[7:]
            continue
        if a in ("-n", "--max-count") and i < len(args):
            a = f"-n{args[i]}"
            i += 1
        if a.startswith("--max-count="):
            a = "-n" + a[12:]
        if a.startswith("-n") and a[2:].isdigit():
            limit = int(a[2:])
            continue
        if a.startswith("-") and a[1:].isdigit():
            limit = int(a[1:])
            continue
        if a.startswith("-"):
            raise usage_error(f"error: unknown option `{a.lstrip('-')}'\n{REFLOG_USAGE}")
        names.append(a)
    name = names[0] if names else "HEAD"
    if len(names) > 1:
        raise fatal("pysh's git reflog shows one ref at a time")
    if name == "HEAD":
        ref = b"HEAD"
    else:
        ref, _ = revs.lookup_ref(repo, encode(name))
        if ref is None:
            raise fatal(f"ambiguous argument '{name}': unknown revision or path not in the "
                        "working tree.\nUse '--' to separate paths from revisions, like this:\n"
                        "'git <command> [<revision>...] -- [<file>...]'")
    pretty = Pretty(repo, fmt, abbrev=True, date=date or "default")
    out = []
    data = repo.gitdir.read_opt("logs/" + decode(ref)) or b""
    entries = []
    for line in data.splitlines():
        head, _, msg = line.partition(b"\t")
        parts = head.split(b" ", 2)
        if len(parts) < 3:
            continue
        who, _, when = parts[2].rpartition(b" ")
        who, _, secs = who.rpartition(b" ")
        entries.append((parts[1], who, secs, when, msg))
    entries.reverse()
    for n, (new, who, secs, tz, msg) in enumerate(entries):
        if limit is not None and len(out) >= limit:
            break
        c = repo.get(new)
        if c is None or c.type_name != b"commit":
            continue
        if date is not None:
            from pysh.ports.git.core import _tz_parse

            try:
                t = int(secs)
            except ValueError:
                t = 0
            sel = f"{name}@{{{fmt_date(t, _tz_parse(decode(tz)) or 0, date)}}}"
        else:
            sel = f"{name}@{{{n}}}"
        pretty.reflog = (sel, decode(msg), who)
        out.append(pretty.expand(fmt, new, c) + "\n")
    ctx.write("".join(out))
    return 0
