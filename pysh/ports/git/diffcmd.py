"""git diff: work tree vs index, --cached, REV, A B, A..B, A...B; patch/stat/name formats."""

from __future__ import annotations

import stat

from dulwich.index import ConflictedIndexEntry

from pysh.ports.git import diffing, revs, worktree
from pysh.ports.git.core import Ctx, GitExit, Pathspec, Repo, fatal, git_blob_sha, usage_error
from pysh.shellkit import decode


class DiffOpts:
    def __init__(self):
        self.cached = False
        self.stat = False
        self.numstat = False
        self.shortstat = False
        self.name_only = False
        self.name_status = False
        self.summary = False
        self.ctx_lines = 3
        self.quiet = False
        self.exit_code = False
        self.renames = True
        self.no_index = False
        self.patch = False
        self.no_patch = False
        self.raw = False
        self.stat_width = self.stat_name_width = 0
        self.check = self.check_failed = False
        self.words = None  # a diffing.WordDiff
        self.word_regex: str | None = None
        self.ws = None  # -w / -b / --ignore-space-at-eol
        self.revs: list[str] = []
        self.paths: list[str] = []


def parse(args: list[str]) -> DiffOpts:
    o = DiffOpts()
    i = 0
    dashdash = False
    while i < len(args):
        a = args[i]
        i += 1
        if a == "--":
            o.paths.extend(args[i:])
            dashdash = True
            break
        if not a.startswith("-") or a == "-":
            o.revs.append(a)
            continue
        if a in ("--cached", "--staged"):
            o.cached = True
        elif a == "--stat" or a.startswith("--stat="):
            o.stat = True
            if "=" in a:
                o.stat_width, o.stat_name_width = diffing.parse_stat_arg(a.split("=", 1)[1])
        elif a == "--check":
            o.check = True
        elif parse_word_option(o, a):
            pass
        elif a == "--numstat":
            o.numstat = True
        elif a == "--shortstat":
            o.shortstat = True
        elif a == "--name-only":
            o.name_only = True
        elif a == "--name-status":
            o.name_status = True
        elif a == "--summary":
            o.summary = True
        elif a.startswith("-U") or a.startswith("--unified"):
            if a.startswith("-U"):
                v = a[2:]
                if not v:
                    if i >= len(args):
                        raise usage_error("error: switch `U' requires a value")
                    v = args[i]
                    i += 1
            else:
                v = a.split("=", 1)[1] if "=" in a else "3"
            try:
                o.ctx_lines = int(v)
            except ValueError:
                raise usage_error("error: switch `U' expects a numerical value") from None
            o.patch = True
        elif a == "--quiet":
            o.quiet = o.exit_code = True
        elif a == "--exit-code":
            o.exit_code = True
        elif a == "--no-renames":
            o.renames = False
        elif a in ("-M", "--find-renames") or a.startswith("-M") or a.startswith("--find-renames="):
            o.renames = True
        elif a == "--no-index":
            o.no_index = True
        elif a in ("-p", "-u", "--patch"):
            o.patch = True
        elif a in ("-s", "--no-patch"):
            o.no_patch = True
        elif a == "--raw":
            o.raw = True
        elif a in ("--no-color", "--no-ext-diff", "--no-textconv", "--color=never", "--binary",
                   "--full-index", "-R") or a.startswith("--color"):
            if a == "-R":
                raise fatal("-R is not supported by this port")
            continue
        else:
            raise usage_error(f"error: invalid option: {a}")
    del dashdash
    return o


def _tree_flat(repo: Repo, rev: str) -> dict:
    tree = revs.resolve(repo, rev, want="tree", missing_ok=True)
    if tree is None:
        raise revs.ambiguous(rev)
    return repo.flat_tree(tree)


def _index_flat(repo: Repo) -> dict:
    out = {}
    for p, e in repo.index.items():
        if isinstance(e, ConflictedIndexEntry):
            continue
        out[p] = (e.mode, e.sha)
    return out


def _worktree_flat(repo: Repo, paths: set[bytes], cache: dict[bytes, bytes],
                   dirt: dict[bytes, str]) -> dict:
    """(mode, sha) of the work-tree files at ``paths`` (the tracked ones); content cached.
    A checked-out submodule is at its HEAD; its own changes go to ``dirt``."""
    index = repo.index
    sc = worktree.scan(repo, set(paths), want_untracked=False)
    idx_mtime = worktree.index_mtime(repo)
    out = {}
    for p in sorted(paths):
        repo.ctx.tick()
        st = sc.files.get(p)
        if st is None:
            continue
        e = index[p] if p in index else None
        if e is not None and not isinstance(e, ConflictedIndexEntry) and \
                e.mode == worktree.GITLINK and stat.S_ISDIR(st.st_mode):
            out[p] = (worktree.GITLINK, worktree.gitlink_sha(repo, p, e.sha))
            d = worktree.submodule_dirt(repo, p)
            if d:
                dirt[p] = d
            continue
        if e is not None and not isinstance(e, ConflictedIndexEntry) and \
                worktree.stat_clean(e, st, idx_mtime):
            out[p] = (e.mode, e.sha)
            continue
        got = repo.wt_read(p)
        if got is None:
            continue
        mode, data, _ = got
        sha = git_blob_sha(data)
        cache[sha] = data
        out[p] = (mode, sha)
    return out


def _with_dirt(changes, old: dict, new: dict, dirt: dict) -> list:
    """A submodule with modified content is a change even at the same commit (git shows
    ``-dirty``); untracked content alone is not."""
    seen = {c.path for c in changes}
    for c in changes:
        c.dirt = dirt.get(c.path, "")
    for p, d in dirt.items():
        if p not in seen and "m" in d and p in old and p in new:
            mode, sha = new[p]
            changes.append(diffing.Change("M", p, p, old[p][0], mode, old[p][1], sha, dirt=d))
    changes.sort(key=lambda c: c.path)
    return changes


def _filter(flat: dict, ps) -> dict:
    if ps is None:
        return flat
    return {p: v for p, v in flat.items() if ps.match(p)}


def parse_word_option(o, a: str) -> bool:
    """--word-diff[=mode], --word-diff-regex, --color-words[=regex], -w, -b and friends, for
    diff, log and show (``o`` gets ``words``, ``word_regex`` and ``ws``)."""
    if a == "--word-diff" or a.startswith("--word-diff="):
        mode = a.split("=", 1)[1] if "=" in a else "plain"
        if mode == "none":
            o.words = None
            return True
        if mode not in ("plain", "porcelain", "color"):
            raise GitExit(f"error: bad --word-diff argument: {mode}", 129)
        o.words = diffing.WordDiff(mode, getattr(o, "word_regex", None))
    elif a.startswith("--word-diff-regex="):
        o.word_regex = a.split("=", 1)[1]
        o.words = diffing.WordDiff(o.words.mode if getattr(o, "words", None) else "plain",
                                   o.word_regex)
    elif a == "--color-words" or a.startswith("--color-words="):
        if "=" in a:
            o.word_regex = a.split("=", 1)[1]
        o.words = diffing.WordDiff("color", getattr(o, "word_regex", None))
    elif a in ("-w", "--ignore-all-space"):
        o.ws = diffing.ws_key("all")
    elif a in ("-b", "--ignore-space-change"):
        o.ws = diffing.ws_key("change")
    elif a == "--ignore-space-at-eol":
        o.ws = diffing.ws_key("eol")
    else:
        return False
    return True


async def cmd_diff(ctx: Ctx, args: list[str]) -> int:
    o = parse(args)
    if o.no_index:
        return await _no_index(ctx, o)
    repo = ctx.repo
    # revisions vs paths
    rev_args = []
    for i, r in enumerate(o.revs):
        if ".." in r or revs.resolve(repo, r, want=None, missing_ok=True) is not None:
            rev_args.append(r)
            continue
        from pysh.ports.git.core import vjoin
        from pysh.ports.git.gitfs import exists

        if repo.vtop is not None and exists(ctx.shell, vjoin(ctx.shell.cwd, r), follow=False):
            o.paths = o.revs[i:] + o.paths
            break
        raise revs.ambiguous(r)
    ps = Pathspec(repo, o.paths) if o.paths else None
    cache: dict[bytes, bytes] = {}
    dirt: dict[bytes, str] = {}  # submodules with modified/untracked content
    if len(rev_args) == 1 and "..." in rev_args[0]:
        left, right = rev_args[0].split("...", 1)
        ls = revs.resolve(repo, left or "HEAD")
        rs = revs.resolve(repo, right or "HEAD")
        bases = revs.merge_bases(repo, ls, rs)
        if not bases:
            raise fatal(f"{rev_args[0]}: no merge base")
        old = repo.flat_tree(repo[bases[0]].tree)
        new = repo.flat_tree(repo[rs].tree)
    elif len(rev_args) == 1 and ".." in rev_args[0]:
        left, right = rev_args[0].split("..", 1)
        old = _tree_flat(repo, left or "HEAD")
        new = _tree_flat(repo, right or "HEAD")
    elif len(rev_args) == 2:
        old = _tree_flat(repo, rev_args[0])
        new = _tree_flat(repo, rev_args[1])
    elif len(rev_args) > 2:
        raise usage_error("usage: git diff [<options>] [<commit>] [--] [<path>...]")
    elif o.cached:
        repo.require_worktree("diff")
        base = rev_args[0] if rev_args else "HEAD"
        if not rev_args and repo.head() is None:
            old = {}
        else:
            old = _tree_flat(repo, base)
        new = _index_flat(repo)
        for p, e in repo.index.items():  # git diff --cached names a conflict, no diff
            if isinstance(e, ConflictedIndexEntry) and (ps is None or ps.match(p)):
                ctx.write(f"* Unmerged path {decode(p)}\n")
                old.pop(p, None)
    elif rev_args:
        repo.require_worktree("diff")
        old = _tree_flat(repo, rev_args[0])
        idx = _index_flat(repo)
        new = _worktree_flat(repo, set(idx), cache, dirt)
    else:
        repo.require_worktree("diff")
        old = _index_flat(repo)
        new = _worktree_flat(repo, set(old), cache, dirt)
        # unmerged paths
        for p, e in repo.index.items():
            if isinstance(e, ConflictedIndexEntry):
                ctx.write(f"* Unmerged path {decode(p)}\n")
    old, new = _filter(old, ps), _filter(new, ps)
    changes = diffing.compare(old, new)
    if dirt:
        changes = _with_dirt(changes, old, new, dirt)

    def load(sha: bytes) -> bytes:
        if sha == diffing.ZERO:
            return b""
        if sha in cache:
            return cache[sha]
        obj = repo.get(sha)
        return obj.as_raw_string() if obj is not None else b""

    if o.renames:
        changes = diffing.detect_renames(changes, load, budget=ctx.shell.budget)
    if o.quiet:
        return 1 if changes else 0
    ctx.write(render(repo, changes, o, load))
    status = 2 if o.check_failed else 0
    if o.exit_code and changes:
        status |= 1
    return status


def render(repo: Repo, changes, o, load) -> str:
    from pysh.ports.git.log import diff_output

    o.fmt = None
    return diff_output(repo, changes, o, default_patch=True, load=load)


async def _no_index(ctx: Ctx, o: DiffOpts) -> int:
    from pysh.ports import _common
    from pysh.ports.git import gitfs

    files = o.revs + o.paths
    if len(files) != 2:
        raise usage_error("usage: git diff --no-index [<options>] <path> <path>")
    datas = []
    for f in files:
        try:
            datas.append(gitfs.read_file(ctx.shell, ctx.shell.abspath(f)))
        except OSError as e:
            raise GitExit(f"error: Could not access '{f}'" if e.errno == 2 else
                          f"error: {_common.fs_message(e, f)}", 1) from None
    a, b = datas
    if a == b:
        return 0
    sa, sb = git_blob_sha(a), git_blob_sha(b)
    c = diffing.Change("M", f"{files[0]}".encode(), f"{files[1]}".encode(), 0o100644, 0o100644, sa, sb)
    blobs = {sa: a, sb: b}
    text = diffing.patch_for(c, lambda s: blobs.get(s, b""), o.ctx_lines, ctx.shell.budget)
    # --no-index names both sides by their own paths
    head = f"diff --git a/{files[0]} b/{files[1]}\n".encode()
    rest = text.split(b"\n", 1)[1]
    rest = rest.replace(f"--- a/{files[0]}\n+++ b/{files[0]}\n".encode(),
                        f"--- a/{files[0]}\n+++ b/{files[1]}\n".encode())
    ctx.write(head + rest)
    return 1
