"""git status: long, --short, -b, --porcelain[=v1]."""

from __future__ import annotations

import re

from dulwich.index import ConflictedIndexEntry

from pysh.ports.git import diffing, indextree, worktree
from pysh.ports.git.core import Ctx, Opts, Pathspec, Repo, fatal, quote_path, usage_error
from pysh.shellkit import decode, encode


class State:
    def __init__(self, repo: Repo | None = None):
        self.repo = repo
        self.staged: list[diffing.Change] = []
        self.unstaged: list[diffing.Change] = []
        self.untracked: list[bytes] = []
        self.ignored: list[bytes] = []
        self.unmerged: dict[bytes, str] = {}
        self.head: bytes | None = None
        self._index_flat: dict[bytes, tuple[int, bytes]] | None = None

    @property
    def index_flat(self) -> dict[bytes, tuple[int, bytes]]:
        """path -> (mode, sha) of the merged index entries (made when a caller asks)."""
        if self._index_flat is None:
            self._index_flat = index_flat(self.repo)
        return self._index_flat


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
    st = State(repo)
    st.head = repo.head()
    entries = repo.index._byname  # read only: no path normalizer to go through
    conflicts = {p: e for p, e in entries.items() if isinstance(e, ConflictedIndexEntry)}
    # staged: HEAD's tree against the index, only where their trees differ
    hf, ix = indextree.head_index_diff(repo, repo.tree_of(st.head), entries)
    if pathspec is not None:
        hf = {p: v for p, v in hf.items() if pathspec.match(p)}
        ix = {p: v for p, v in ix.items() if pathspec.match(p)}
    staged = [c for c in diffing.compare(hf, ix) if c.path not in conflicts]
    if renames:
        staged = diffing.detect_renames(staged, lambda s: _blob(repo, s), budget=repo.shell.budget)
    st.staged = staged
    # the work tree: tracked files whose stat data matches their entry are not even listed
    idx_mtime = worktree.index_mtime(repo)
    sc = worktree.scan(repo, entries.keys(), want_untracked=untracked != "no",
                       want_ignored=ignored, pathspec=pathspec, entries=entries,
                       idx_mtime=idx_mtime)
    files, clean = sc.files, sc.clean
    tick = repo.ctx.tick
    for path in sorted(entries.keys() - clean):
        if pathspec is not None and not pathspec.match(path):
            continue
        tick()
        e = entries[path]
        if path in conflicts:
            continue
        stt = files.get(path)
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
    st.untracked = worktree.collapse_untracked(sc.untracked, entries.keys(), untracked == "all")
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


def porcelain_v2(repo: Repo, st: State, *, branch: bool, z: bool) -> str:
    """git status --porcelain=v2 [--branch] [-z]."""
    eol = "\0" if z else "\n"
    name = (lambda p: repo.rel_to_cwd(p)) if z else (
        lambda p: quote_path(repo.rel_to_cwd(p), sp=True))
    out = []
    if branch:
        head = st.head
        br = repo.head_branch()
        out.append(f"# branch.oid {decode(head) if head else '(initial)'}{eol}")
        out.append(f"# branch.head {br if br is not None else '(detached)'}{eol}")
        up = upstream_of(repo, br) if br is not None else None
        if up is not None:
            out.append(f"# branch.upstream {up[0]}{eol}")
            usha = repo.ref_sha(up[1])
            if usha is not None and head is not None:
                a, b = ahead_behind(repo, head, usha)
                out.append(f"# branch.ab +{a} -{b}{eol}")
    head_flat = repo.flat_tree(repo.tree_of(st.head))
    idx = st.index_flat
    rows: dict[bytes, list] = {}
    for c in st.staged:
        rows.setdefault(c.path, [None, None])[0] = c
    for c in st.unstaged:
        rows.setdefault(c.path, [None, None])[1] = c
    z40 = "0" * 40
    entries = []
    for path, (sc, uc) in rows.items():
        orig = sc.old_path if sc is not None and sc.status == "R" else path
        h = head_flat.get(orig)
        i = idx.get(path)
        m_h, h_h = (h[0], decode(h[1])) if h else (0, z40)
        m_i, h_i = (i[0], decode(i[1])) if i else (0, z40)
        m_w = uc.new_mode if uc is not None else m_i
        x = sc.status if sc is not None else "."
        y = uc.status if uc is not None else "."
        if worktree.GITLINK in (m_h, m_i, m_w):
            moved = (uc is not None and uc.old_sha != uc.new_sha) or sc is not None
            dirt = uc.dirt if uc is not None else ""
            sub = "S" + ("C" if moved else ".") + ("M" if "m" in dirt else ".") + \
                ("U" if "u" in dirt else ".")
        else:
            sub = "N..."
        fields = f"{x}{y} {sub} {m_h:06o} {m_i:06o} {m_w:06o} {h_h} {h_i}"
        if sc is not None and sc.status == "R":
            sep = "\0" if z else "\t"
            entries.append((path, f"2 {fields} R{sc.score} {name(path)}{sep}{name(orig)}{eol}"))
        else:
            entries.append((path, f"1 {fields} {name(path)}{eol}"))
    conflicts = unmerged_paths(repo)
    for path, code in st.unmerged.items():
        ce = conflicts[path]
        stages = [ce.ancestor, ce.this, ce.other]
        modes = " ".join(f"{e.mode if e is not None else 0:06o}" for e in stages)
        shas = " ".join(decode(e.sha) if e is not None else z40 for e in stages)
        wst = repo.wt_lstat(path)
        m_w = worktree.git_mode(wst) if wst is not None else 0
        entries.append((path, f"u {code} N... {modes} {m_w:06o} {shas} {name(path)}{eol}"))
    entries.sort(key=lambda t: t[0])
    out.extend(e for _, e in entries)
    out.extend(f"? {name(p)}{eol}" for p in st.untracked)
    out.extend(f"! {name(p)}{eol}" for p in st.ignored)
    return "".join(out)


def long_text(repo: Repo, st: State, *, show_untracked: bool = True) -> str:
    out = []
    br = repo.head_branch()
    if br is not None:
        out.append(f"On branch {br}\n")
        tr = tracking_lines(repo, br, True)
        if tr:
            out.append(tr + "\n")
    pr = Progress(repo)
    if br is None:
        if pr.rebasing:
            out.append(("interactive rebase in progress; onto " if pr.rebase_i else
                        "rebase in progress; onto ") + (pr.onto or "") + "\n")
        else:
            out.append(f"{detached_description(repo, repo.head())}\n")
    out.append(progress_lines(repo, pr, bool(st.unmerged)))
    from_commit = whence(repo) == "commit"
    if st.head is None:
        out.append("\nNo commits yet\n\n")
    rel = lambda p: quote_path(repo.rel_to_cwd(p))
    if st.staged:
        out.append("Changes to be committed:\n")
        if not from_commit:
            pass
        elif st.head is None:
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
        if from_commit:
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


def whence(repo: Repo) -> str:
    """git 2.39's determine_whence: 'merge', 'cherry-pick', 'rebase-pick' or 'commit' (2.39
    never reports a multi-commit cherry-pick: its sequencer_determine_whence overwrites it)."""
    if repo.gitdir.exists("MERGE_HEAD"):
        return "merge"
    cp = repo.read_state("CHERRY_PICK_HEAD")
    if cp is None:
        return "commit"
    rh = repo.read_state("REBASE_HEAD")
    if repo.gitdir.isdir("rebase-merge") and rh is not None and rh.strip() == cp.strip():
        return "rebase-pick"
    return "cherry-pick"


class Progress:
    """What git's wt_status_get_state finds in the git dir: an operation under way."""

    def __init__(self, repo: Repo):
        gd = repo.gitdir
        self.merge = gd.exists("MERGE_HEAD")
        self.am = self.rebase = self.rebase_i = False
        self.branch: str | None = None
        self.onto: str | None = None
        self.cherry_pick: bytes | None = None  # b"" when only the sequencer says so
        self.revert: bytes | None = None
        if gd.isdir("rebase-apply"):
            if gd.exists("rebase-apply/applying"):
                self.am = True
            else:
                self.rebase = True
                self.branch = self._branch(repo, "rebase-apply/head-name")
                self.onto = self._branch(repo, "rebase-apply/onto")
        elif gd.isdir("rebase-merge"):
            if gd.exists("rebase-merge/interactive"):
                self.rebase_i = True
            else:
                self.rebase = True
            self.branch = self._branch(repo, "rebase-merge/head-name")
            self.onto = self._branch(repo, "rebase-merge/onto")
        rebasing = self.rebase or self.rebase_i or self.am
        if not self.merge and not rebasing:
            cp = self._oid(repo, "CHERRY_PICK_HEAD")
            if cp is not None:
                self.cherry_pick = cp
        rv = self._oid(repo, "REVERT_HEAD")
        if rv is not None:
            self.revert = rv
        todo = decode(repo.read_state("sequencer/todo") or b"").split("\n")[0].split(" ")[0]
        if todo in ("pick", "p"):
            self.cherry_pick = b""
        elif todo in ("revert", "r"):
            self.revert = b""

    @staticmethod
    def _oid(repo: Repo, name: str) -> bytes | None:
        data = (repo.read_state(name) or b"").strip()
        return data if len(data) == 40 and repo.has(data) else None

    @staticmethod
    def _branch(repo: Repo, rel: str) -> str | None:
        """git's get_branch: a branch's short name, an abbreviated id, None for 'detached HEAD'."""
        s = decode(repo.read_state(rel) or b"").rstrip("\n")
        if not s or s == "detached HEAD":
            return None
        if s.startswith("refs/heads/"):
            return s[11:]
        if not s.startswith("refs/") and len(s) == 40 and all(c in "0123456789abcdef" for c in s):
            return repo.short(s.encode())
        return s

    @property
    def rebasing(self) -> bool:
        return self.rebase or self.rebase_i


def _todo_lines(repo: Repo, rel: str) -> list[str] | None:
    """git's read_rebase_todolist: the commands, comments dropped, object ids abbreviated."""
    data = repo.read_state(rel)
    if data is None:
        return None
    out = []
    for ln in decode(data).split("\n"):
        ln = ln.strip()
        if not ln or ln.startswith("#"):
            continue
        parts = ln.split(" ", 2)
        if len(parts) >= 2 and len(parts[1]) == 40 and repo.has(parts[1].encode()):
            parts[1] = repo.short(parts[1].encode())
        out.append(" ".join(parts))
    return out


def _rebase_information(repo: Repo, pr: Progress) -> list[str]:
    if not pr.rebase_i:
        return []
    out = []
    done = _todo_lines(repo, "rebase-merge/done") or []
    todo = _todo_lines(repo, "rebase-merge/git-rebase-todo")
    if todo is None:
        out.append("git-rebase-todo is missing.")
        todo = []
    if not done:
        out.append("No commands done.")
    else:
        n = len(done)
        out.append(f"Last command done ({n} command done):" if n == 1 else
                   f"Last commands done ({n} commands done):")
        out += [f"   {x}" for x in done[-2:]]
        if n > 2:
            out.append(f"  (see more in file {_gitdir_shown(repo)}/rebase-merge/done)")
    if not todo:
        out.append("No commands remaining.")
    else:
        n = len(todo)
        out.append(f"Next command to do ({n} remaining command):" if n == 1 else
                   f"Next commands to do ({n} remaining commands):")
        out += [f"   {x}" for x in todo[:2]]
        out.append("  (use \"git rebase --edit-todo\" to view and edit)")
    return out


def _gitdir_shown(repo: Repo) -> str:
    """git_path()'s form of the git dir: .git at the top of the work tree, else absolute."""
    if repo.vtop is not None and repo.ctx.shell.cwd == repo.vtop and \
            repo.vgit == repo.vtop.rstrip("/") + "/.git":
        return ".git"
    return repo.vgit


def progress_lines(repo: Repo, pr: Progress, unmerged: bool) -> str:
    """wt_longstatus_print_state: the paragraph on the operation under way."""
    out: list[str] = []
    if pr.merge:
        if pr.rebase_i:
            out += _rebase_information(repo, pr) + [""]
        if unmerged:
            out += ["You have unmerged paths.", "  (fix conflicts and run \"git commit\")",
                    "  (use \"git merge --abort\" to abort the merge)"]
        else:
            out += ["All conflicts fixed but you are still merging.",
                    "  (use \"git commit\" to conclude merge)"]
    elif pr.am:
        st = repo.gitdir.stat("rebase-apply/patch")
        empty = st is not None and st.st_size == 0
        out += ["You are in the middle of an am session."]
        if empty:
            out.append("The current patch is empty.")
        else:
            out.append("  (fix conflicts and then run \"git am --continue\")")
        out.append("  (use \"git am --skip\" to skip this patch)")
        if empty:
            out.append("  (use \"git am --allow-empty\" to record this patch as an empty commit)")
        out.append("  (use \"git am --abort\" to restore the original branch)")
    elif pr.rebasing:
        where = (f"branch '{pr.branch}' on '{pr.onto}'" if pr.branch else None)
        out += _rebase_information(repo, pr)
        if unmerged:
            out.append(f"You are currently rebasing {where}." if where else
                       "You are currently rebasing.")
            out += ["  (fix conflicts and then run \"git rebase --continue\")",
                    "  (use \"git rebase --skip\" to skip this patch)",
                    "  (use \"git rebase --abort\" to check out the original branch)"]
        elif pr.rebase or repo.gitdir.exists("MERGE_MSG"):
            out.append(f"You are currently rebasing {where}." if where else
                       "You are currently rebasing.")
            out.append("  (all conflicts fixed: run \"git rebase --continue\")")
        else:
            out.append(f"You are currently editing a commit while rebasing {where}." if where
                       else "You are currently editing a commit during a rebase.")
            out += ["  (use \"git commit --amend\" to amend the current commit)",
                    "  (use \"git rebase --continue\" once you are satisfied with your changes)"]
    elif pr.cherry_pick is not None or pr.revert is not None:
        if pr.cherry_pick is not None:
            verb, noun, oid = "cherry-pick", "cherry-picking", pr.cherry_pick
            first = "Cherry-pick currently in progress."
        else:
            verb, noun, oid = "revert", "reverting", pr.revert
            first = "Revert currently in progress."
        out.append(f"You are currently {noun} commit {repo.short(oid)}." if oid else first)
        if unmerged:
            out.append(f"  (fix conflicts and run \"git {verb} --continue\")")
        elif not oid:
            out.append(f"  (run \"git {verb} --continue\" to continue)")
        else:
            out.append(f"  (all conflicts fixed: run \"git {verb} --continue\")")
        out += [f"  (use \"git {verb} --skip\" to skip this patch)",
                f"  (use \"git {verb} --abort\" to cancel the {verb} operation)"]
    text = "".join(ln + "\n" for ln in out) + "\n" if out else ""
    if repo.gitdir.exists("BISECT_LOG"):  # show_bisect_in_progress, after any other state
        start = decode(repo.read_state("BISECT_START") or b"").strip().removeprefix("refs/heads/")
        if re.fullmatch(r"[0-9a-f]{40}", start):
            start = repo.short(encode(start))
        text += (f"You are currently bisecting, started from branch '{start}'.\n" if start
                 else "You are currently bisecting.\n")
        text += "  (use \"git bisect reset\" to get back to the original branch)\n\n"
    return text


def detached_from(repo: Repo, head: bytes | None) -> tuple[str, bool] | None:
    """git's wt_status_get_detached_from: (what HEAD was detached from, whether it is still
    there) from the newest 'checkout: moving from A to B' in HEAD's reflog; None without one."""
    from dulwich.objects import Tag

    from pysh.ports.git.revs import reflog_entries

    for _, new, msg in reflog_entries(repo, b"HEAD"):
        if not msg.startswith(b"checkout: moving from ") or b" to " not in msg:
            continue
        target = msg[len(b"checkout: moving from "):].split(b" to ", 1)[1].split(b"\n")[0]
        name = None
        if target != b"HEAD":
            found = []
            for c in (target, b"refs/" + target, b"refs/tags/" + target, b"refs/heads/" + target,
                      b"refs/remotes/" + target, b"refs/remotes/" + target + b"/HEAD"):
                if not c.startswith(b"refs/") and c not in (b"FETCH_HEAD", b"ORIG_HEAD",
                                                            b"MERGE_HEAD"):
                    continue
                try:
                    sha = repo.ref_sha(c)
                except Exception:
                    sha = None
                if sha is not None:
                    found.append((c, sha))
            if len(found) == 1:
                ref, sha = found[0]
                obj = repo.get(sha)
                while isinstance(obj, Tag):
                    obj = repo.get(obj.object[1])
                if sha == new or (obj is not None and obj.id == new):
                    name = decode(ref)
                    for pre in ("refs/tags/", "refs/remotes/"):
                        if name.startswith(pre):
                            name = name[len(pre):]
                            break
        if name is None:
            name = repo.short(new)
        return name, head == new
    return None


def detached_description(repo: Repo, head: bytes | None) -> str:
    """The line git status prints for a detached HEAD."""
    df = detached_from(repo, head)
    if df is None:
        return "Not currently on any branch."
    return f"HEAD detached {'at' if df[1] else 'from'} {df[0]}"


def head_description(repo: Repo, head: bytes | None) -> str:
    """ref-filter's get_head_description: git branch's name for a detached HEAD."""
    pr = Progress(repo)
    if pr.rebasing:
        if pr.branch:
            return f"(no branch, rebasing {pr.branch})"
        df = detached_from(repo, head)
        return f"(no branch, rebasing detached HEAD {df[0] if df else ''})"
    df = detached_from(repo, head)
    if df is None:
        return "(no branch)"
    return f"(HEAD detached {'at' if df[1] else 'from'} {df[0]})"


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
        if porcelain in ("v2", "2"):
            ctx.write(porcelain_v2(repo, st, branch=bool(vals.get("branch")),
                                   z=bool(vals.get("z"))))
            return 0
        if porcelain not in (True, "v1", "1"):
            raise fatal(f"unsupported porcelain version '{porcelain}'")
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
