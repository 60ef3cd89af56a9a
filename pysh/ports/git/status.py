"""git status: long, --short, -b, --porcelain[=v1]."""

from __future__ import annotations

from dulwich.index import ConflictedIndexEntry

from pysh.ports.git import diffing, worktree
from pysh.ports.git.core import Ctx, Opts, Pathspec, Repo, quote_path, usage_error
from pysh.shellkit import decode


class State:
    def __init__(self):
        self.staged: list[diffing.Change] = []
        self.unstaged: list[diffing.Change] = []
        self.untracked: list[bytes] = []
        self.ignored: list[bytes] = []
        self.unmerged: dict[bytes, str] = {}
        self.head: bytes | None = None
        self.index_flat: dict[bytes, tuple[int, bytes]] = {}


def index_flat(repo: Repo) -> dict[bytes, tuple[int, bytes]]:
    out = {}
    for path, e in repo.index.items():
        if isinstance(e, ConflictedIndexEntry):
            continue
        out[path] = (e.mode, e.sha)
    return out


def unmerged_paths(repo: Repo) -> dict[bytes, ConflictedIndexEntry]:
    return {p: e for p, e in repo.index.items() if isinstance(e, ConflictedIndexEntry)}


def compute(repo: Repo, *, untracked: str = "normal", renames: bool = True,
            ignored: bool = False, pathspec=None) -> State:
    st = State()
    st.head = repo.head()
    head_flat = repo.flat_tree(repo.tree_of(st.head))
    idx = index_flat(repo)
    st.index_flat = idx
    conflicts = unmerged_paths(repo)
    # staged
    if pathspec is not None:
        hf = {p: v for p, v in head_flat.items() if pathspec.match(p)}
        ix = {p: v for p, v in idx.items() if pathspec.match(p)}
    else:
        hf, ix = head_flat, idx
    for p in conflicts:
        hf.pop(p, None) if hf is not head_flat else None
    staged = [c for c in diffing.compare(hf, ix) if c.path not in conflicts]
    if renames:
        staged = diffing.detect_renames(staged, lambda s: _blob(repo, s), budget=repo.shell.budget)
    st.staged = staged
    # the work tree
    all_paths = set(idx) | set(conflicts)
    sc = worktree.scan(repo, all_paths, want_untracked=untracked != "no", want_ignored=ignored,
                       pathspec=pathspec)
    idx_mtime = worktree.index_mtime(repo)
    index = repo.index
    for path in sorted(idx):
        if pathspec is not None and not pathspec.match(path):
            continue
        repo.ctx.tick()
        e = index[path]
        stt = sc.files.get(path)
        sha, mode = worktree.worktree_sha(repo, path, e, stt, idx_mtime)
        if sha is None:
            st.unstaged.append(diffing.Change("D", path, None, e.mode, 0, e.sha, diffing.ZERO))
        elif mode == e.mode == worktree.GITLINK:
            dirt = worktree.submodule_dirt(repo, path)
            if sha != e.sha or dirt:
                st.unstaged.append(diffing.Change("M", path, path, mode, mode, e.sha, sha,
                                                  dirt=dirt))
        elif sha != e.sha or mode != e.mode:
            if mode >> 12 != e.mode >> 12:
                st.unstaged.append(diffing.Change("T", path, path, e.mode, mode, e.sha, sha))
            else:
                st.unstaged.append(diffing.Change("M", path, path, e.mode, mode, e.sha, sha))
    for path, ce in conflicts.items():
        if pathspec is not None and not pathspec.match(path):
            continue
        st.unmerged[path] = _unmerged_code(ce)
    st.untracked = worktree.collapse_untracked(sc.untracked, all_paths, untracked == "all")
    st.ignored = sorted(sc.ignored)
    return st


def _unmerged_code(ce) -> str:
    a, o, t = ce.ancestor is not None, ce.this is not None, ce.other is not None
    if a and o and t:
        return "UU"
    if not a and o and t:
        return "AA"
    if a and not o and not t:
        return "DD"
    if a and o and not t:
        return "UD"
    if a and not o and t:
        return "DU"
    if not a and o and not t:
        return "AU"
    return "UA"


def _blob(repo: Repo, sha: bytes) -> bytes:
    if sha == diffing.ZERO:
        return b""
    obj = repo.get(sha)
    return obj.as_raw_string() if obj is not None else b""


def load_blob_or_wt(repo: Repo):
    """A loader for diffs whose 'new' side may be work-tree content not in the store."""
    cache: dict[bytes, bytes] = {}

    def load(sha: bytes) -> bytes:
        if sha == diffing.ZERO:
            return b""
        if sha in cache:
            return cache[sha]
        obj = repo.get(sha)
        return obj.as_raw_string() if obj is not None else b""

    return load, cache


# ------------------------------------------------------------------ upstream
def upstream_of(repo: Repo, branch: str) -> tuple[str, bytes] | None:
    remote = repo.cfg_get("branch", "remote", branch)
    merge = repo.cfg_get("branch", "merge", branch)
    if not remote or not merge:
        return None
    if remote == ".":
        ref = merge.encode()
        short = merge[len("refs/heads/"):] if merge.startswith("refs/heads/") else merge
    else:
        name = merge[len("refs/heads/"):] if merge.startswith("refs/heads/") else merge
        ref = f"refs/remotes/{remote}/{name}".encode()
        short = f"{remote}/{name}"
    return short, ref


def ahead_behind(repo: Repo, a: bytes, b: bytes) -> tuple[int, int]:
    from pysh.ports.git.revs import ancestors

    aa = ancestors(repo, a)
    bb = ancestors(repo, b)
    return len(aa - bb), len(bb - aa)


def tracking_lines(repo: Repo, branch: str, long: bool) -> str:
    up = upstream_of(repo, branch)
    if up is None:
        return ""
    short, ref = up
    head = repo.head()
    usha = repo.ref_sha(ref)
    if usha is None:
        if long:
            return (f"Your branch is based on '{short}', but the upstream is gone.\n"
                    "  (use \"git branch --unset-upstream\" to fixup)\n")
        return ""
    if head is None:
        return ""
    ahead, behind = ahead_behind(repo, head, usha)
    if not long:
        return ""
    if ahead == 0 and behind == 0:
        return f"Your branch is up to date with '{short}'.\n"
    if behind == 0:
        return (f"Your branch is ahead of '{short}' by {ahead} commit{'s' if ahead != 1 else ''}.\n"
                "  (use \"git push\" to publish your local commits)\n")
    if ahead == 0:
        return (f"Your branch is behind '{short}' by {behind} commit{'s' if behind != 1 else ''}, "
                "and can be fast-forwarded.\n  (use \"git pull\" to update your local branch)\n")
    return (f"Your branch and '{short}' have diverged,\nand have {ahead} and {behind} different "
            "commits each, respectively.\n  (use \"git pull\" to merge the remote branch into yours)\n")


def branch_header_short(repo: Repo) -> str:
    br = repo.head_branch()
    head = repo.head()
    if br is None:
        return "## HEAD (no branch)\n"
    if head is None:
        return f"## No commits yet on {br}\n"
    up = upstream_of(repo, br)
    if up is None:
        return f"## {br}\n"
    short, ref = up
    usha = repo.ref_sha(ref)
    if usha is None:
        return f"## {br}...{short} [gone]\n"
    ahead, behind = ahead_behind(repo, head, usha)
    extra = []
    if ahead:
        extra.append(f"ahead {ahead}")
    if behind:
        extra.append(f"behind {behind}")
    return f"## {br}...{short}" + (f" [{', '.join(extra)}]" if extra else "") + "\n"


# ------------------------------------------------------------------- output
_LABEL = {"A": "new file:   ", "M": "modified:   ", "D": "deleted:    ", "R": "renamed:    ",
          "T": "typechange: "}
_UNMERGED_LABEL = {"UU": "both modified:   ", "AA": "both added:      ", "DD": "both deleted:    ",
                   "UD": "deleted by them: ", "DU": "deleted by us:   ", "AU": "added by us:     ",
                   "UA": "added by them:   "}


def short_lines(repo: Repo, st: State, porcelain: bool) -> str:
    rel = (lambda p: quote_path(p, sp=True)) if porcelain else (
        lambda p: quote_path(repo.rel_to_cwd(p), sp=True))
    rows: dict[bytes, list] = {}
    for c in st.staged:
        rows.setdefault(c.path, [" ", " ", c])[0] = c.status
    for c in st.unstaged:
        r = rows.setdefault(c.path, [" ", " ", None])
        r[1] = c.status
        if c.dirt and c.old_sha == c.new_sha and not porcelain:
            r[1] = "m" if "m" in c.dirt else "?"  # a submodule's own changes, short format
    out = []
    entries = []
    for path, (x, y, c) in rows.items():
        if c is not None and c.status == "R":
            name = f"{rel(c.old_path)} -> {rel(c.new_path)}"
        else:
            name = rel(path)
        entries.append((path, f"{x}{y} {name}\n"))
    for path, code in st.unmerged.items():
        entries.append((path, f"{code} {rel(path)}\n"))
    entries.sort(key=lambda t: t[0])
    out.extend(e for _, e in entries)
    for p in st.untracked:
        out.append(f"?? {rel(p)}\n")
    for p in st.ignored:
        out.append(f"!! {rel(p)}\n")
    return "".join(out)


def long_text(repo: Repo, st: State, *, show_untracked: bool = True) -> str:
    out = []
    br = repo.head_branch()
    if br is not None:
        out.append(f"On branch {br}\n")
        tr = tracking_lines(repo, br, True)
        if tr:
            out.append(tr + "\n")
    else:
        out.append(f"HEAD detached {_detached_label(repo, repo.head())}\n")
    if _merging(repo):
        if st.unmerged:
            out.append("You have unmerged paths.\n  (fix conflicts and run \"git commit\")\n"
                       "  (use \"git merge --abort\" to abort the merge)\n\n")
        else:
            out.append("All conflicts fixed but you are still merging.\n"
                       "  (use \"git commit\" to conclude merge)\n\n")
    if st.head is None:
        out.append("\nNo commits yet\n\n")
    rel = lambda p: quote_path(repo.rel_to_cwd(p))
    if st.staged:
        out.append("Changes to be committed:\n")
        if st.head is None:
            out.append("  (use \"git rm --cached <file>...\" to unstage)\n")
        else:
            out.append("  (use \"git restore --staged <file>...\" to unstage)\n")
        for c in st.staged:
            if c.status == "R":
                out.append(f"\t{_LABEL['R']}{rel(c.old_path)} -> {rel(c.new_path)}\n")
            else:
                out.append(f"\t{_LABEL[c.status]}{rel(c.path)}\n")
        out.append("\n")
    if st.unmerged:
        out.append("Unmerged paths:\n")
        if not _merging(repo):
            out.append("  (use \"git rm --cached <file>...\" to unstage)\n" if st.head is None else
                       "  (use \"git restore --staged <file>...\" to unstage)\n")
        codes = set(st.unmerged.values())
        both_deleted = "DD" in codes
        del_mod = bool(codes & {"UD", "DU"})
        if not both_deleted:
            out.append("  (use \"git add/rm <file>...\" as appropriate to mark resolution)\n"
                       if del_mod else "  (use \"git add <file>...\" to mark resolution)\n")
        elif not del_mod:
            out.append("  (use \"git rm <file>...\" to mark resolution)\n")
        else:
            out.append("  (use \"git add/rm <file>...\" as appropriate to mark resolution)\n")
        for path, code in sorted(st.unmerged.items()):
            out.append(f"\t{_UNMERGED_LABEL[code]}{rel(path)}\n")
        out.append("\n")
    if st.unstaged:
        out.append("Changes not staged for commit:\n")
        if any(c.status == "D" for c in st.unstaged):
            out.append("  (use \"git add/rm <file>...\" to update what will be committed)\n")
        else:
            out.append("  (use \"git add <file>...\" to update what will be committed)\n")
        out.append("  (use \"git restore <file>...\" to discard changes in working directory)\n")
        if any(c.dirt for c in st.unstaged):
            out.append("  (commit or discard the untracked or modified content in submodules)\n")
        for c in st.unstaged:
            out.append(f"\t{_LABEL[c.status]}{rel(c.path)}{_submodule_note(c)}\n")
        out.append("\n")
    if st.untracked and show_untracked:
        out.append("Untracked files:\n  (use \"git add <file>...\" to include in what will be committed)\n")
        for p in st.untracked:
            out.append(f"\t{rel(p)}\n")
        out.append("\n")
    if not show_untracked and st.staged:
        out.append("Untracked files not listed (use -u option to show untracked files)\n")
    if st.ignored:
        out.append("Ignored files:\n  (use \"git add -f <file>...\" to include in what will be committed)\n")
        for p in st.ignored:
            out.append(f"\t{rel(p)}\n")
        out.append("\n")
    if st.staged:
        pass
    elif st.unstaged or st.unmerged:
        out.append("no changes added to commit (use \"git add\" and/or \"git commit -a\")\n")
    elif st.untracked and show_untracked:
        out.append("nothing added to commit but untracked files present (use \"git add\" to track)\n")
    elif st.head is None:
        out.append("nothing to commit (create/copy files and use \"git add\" to track)\n")
    elif not show_untracked:
        out.append("nothing to commit (use -u to show untracked files)\n")
    else:
        out.append("nothing to commit, working tree clean\n")
    return "".join(out)


def _submodule_note(c: diffing.Change) -> str:
    """git's '(new commits, modified content, untracked content)' after a submodule."""
    if c.status != "M" or c.new_mode != worktree.GITLINK:
        return ""
    parts = []
    if c.old_sha != c.new_sha:
        parts.append("new commits")
    if "m" in c.dirt:
        parts.append("modified content")
    if "u" in c.dirt:
        parts.append("untracked content")
    return f" ({', '.join(parts)})" if parts else ""


def _merging(repo: Repo) -> bool:
    return repo.gitdir.exists("MERGE_HEAD")


def _detached_label(repo: Repo, head: bytes | None) -> str:
    """git's "at X"/"from X": X from the last checkout in HEAD's reflog when it names a ref
    or a full object id, else the abbreviated HEAD."""
    import re as _re

    from pysh.ports.git.revs import lookup_ref, reflog_entries

    for _, _new, msg in reflog_entries(repo, b"HEAD"):
        if msg.startswith(b"checkout: moving from "):
            target = msg.rsplit(b" to ", 1)[-1]
            ref, sha = lookup_ref(repo, target)
            if ref is not None and ref != b"HEAD":
                from dulwich.objects import Tag

                obj = repo.get(sha)
                while isinstance(obj, Tag):
                    obj = repo.get(obj.object[1])
                sha = obj.id if obj is not None else sha
                name = decode(target)
            elif _re.fullmatch(rb"[0-9a-f]{40}", target):
                sha, name = target, repo.short(target)
            else:
                break
            return f"at {name}" if sha == head else f"from {name}"
        break
    return f"at {repo.short(head)}" if head else "at (unknown)"


async def cmd_status(ctx: Ctx, args: list[str]) -> int:
    opts = Opts("status", {
        "s": ("flag", "short"), "short": ("flag", "short"),
        "b": ("flag", "branch"), "branch": ("flag", "branch"),
        "porcelain": ("optarg", "porcelain"), "long": ("flag", "long"),
        "u": ("optarg", "untracked"), "untracked-files": ("optarg", "untracked"),
        "ignored": ("optarg", "ignored"), "z": ("flag", "z"),
        "no-renames": ("flag", "norenames"), "renames": ("flag", "renames"),
        "show-stash": ("flag", "stash"), "ahead-behind": ("flag", "ab"),
        "column": ("optarg", "column"), "no-column": ("flag", "nocolumn"),
        "v": ("count", "verbose"), "verbose": ("count", "verbose"),
    })
    vals, pos, after = opts.parse(args)
    repo = ctx.repo
    repo.require_worktree("status")
    paths = pos + (after or [])
    ps = Pathspec(repo, paths) if paths else None
    um = vals.get("untracked", "normal")
    if um is True:
        um = "all"
    if um not in ("no", "normal", "all"):
        raise usage_error(f"fatal: Invalid untracked files mode '{um}'")
    st = compute(repo, untracked=um, renames=not vals.get("norenames"),
                 ignored=bool(vals.get("ignored")), pathspec=ps)
    porcelain = vals.get("porcelain")
    if porcelain is not None and porcelain is not False:
        if porcelain not in (True, "v1", "1"):
            raise usage_error(f"fatal: unsupported porcelain version '{porcelain}'")
        if vals.get("branch"):
            ctx.write(branch_header_short(repo))
        ctx.write(short_lines(repo, st, True))
    elif vals.get("short") and not vals.get("long"):
        if vals.get("branch"):
            ctx.write(branch_header_short(repo))
        ctx.write(short_lines(repo, st, False))
    else:
        ctx.write(long_text(repo, st, show_untracked=um != "no"))
    return 0
