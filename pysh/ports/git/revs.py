"""Revision names: ``HEAD``, branches, tags, hex prefixes, ``~N ^N ^{type}``, ``REV:PATH``,
``stash@{N}``, ``@{-N}`` (from the HEAD reflog)."""

from __future__ import annotations

import re

from pysh.ports.git.core import GitExit, Repo, fatal
from pysh.shellkit import decode, encode

AMBIGUOUS = ("ambiguous argument '{0}': unknown revision or path not in the working tree.\n"
             "Use '--' to separate paths from revisions, like this:\n"
             "'git <command> [<revision>...] -- [<file>...]'")


def ambiguous(arg: str) -> GitExit:
    return fatal(AMBIGUOUS.format(arg))


_HEX = re.compile(rb"[0-9a-fA-F]{4,40}")


_UPSTREAM = re.compile(rb"(.*)@\{(?i:upstream|u|push)\}")


def upstream_ref(repo: Repo, spec: bytes) -> bytes:
    """The remote-tracking ref that ``branch@{upstream}`` (``@{u}``, ``@{push}``) names."""
    from pysh.ports.git.status import upstream_of

    m = _UPSTREAM.fullmatch(spec)
    name = m.group(1) if m else b""
    if name in (b"", b"HEAD", b"@"):
        br = repo.head_branch()
        if br is None:
            raise fatal("HEAD does not point to a branch")
    else:
        br = decode(name[len(b"refs/heads/"):] if name.startswith(b"refs/heads/") else name)
        if repo.ref_sha(b"refs/heads/" + encode(br)) is None:
            raise fatal(f"no such branch: '{br}'")
    up = upstream_of(repo, br)
    if up is None:
        raise fatal(f"no upstream configured for branch '{br}'")
    if repo.ref_sha(up[1]) is None:
        raise fatal(f"upstream branch '{decode(up[1])}' not stored as a remote-tracking branch")
    return up[1]


def lookup_ref(repo: Repo, name: bytes) -> tuple[bytes | None, bytes | None]:
    """(full ref name, sha) of a short ref name, git's order of candidates."""
    if name == b"@":
        name = b"HEAD"
    if _UPSTREAM.fullmatch(name):
        ref = upstream_ref(repo, name)
        return ref, repo.ref_sha(ref)
    cands = [name, b"refs/" + name, b"refs/tags/" + name, b"refs/heads/" + name,
             b"refs/remotes/" + name, b"refs/remotes/" + name + b"/HEAD"]
    for c in cands:
        if c != b"HEAD" and not c.startswith(b"refs/") and c not in (b"FETCH_HEAD", b"ORIG_HEAD",
                                                                        b"MERGE_HEAD"):
            continue
        try:
            sha = repo.ref_sha(c)
        except Exception:
            sha = None
        if sha is not None:
            return c, sha
    return None, None


def _by_hex(repo: Repo, s: bytes) -> bytes | None:
    if not _HEX.fullmatch(s):
        return None
    s = s.lower()
    if len(s) == 40:
        return s if repo.has(s) else None
    found = []
    try:
        for sha in repo.object_store.iter_prefix(s):
            found.append(sha)
            if len(found) > 1:
                break
    except Exception:
        return None
    if len(found) == 1:
        return found[0]
    if len(found) > 1:
        raise fatal(f"ambiguous argument '{decode(s)}': short object ID {decode(s)} is ambiguous")
    return None


def _peel(repo: Repo, sha: bytes, want: str | None) -> bytes | None:
    """Peel tags (and commits to trees) until the type ``want`` (None: any non-tag)."""
    from dulwich.objects import Commit, Tag, Tree

    obj = repo.get(sha)
    if want == "object":
        return obj.id if obj is not None else None
    while obj is not None:
        if want == "tag" and isinstance(obj, Tag):
            return obj.id
        if isinstance(obj, Tag):
            obj = repo.get(obj.object[1])
            continue
        if want in (None, ""):
            return obj.id
        if want == "commit":
            return obj.id if isinstance(obj, Commit) else None
        if want == "tree":
            if isinstance(obj, Commit):
                return obj.tree
            return obj.id if isinstance(obj, Tree) else None
        if want == "blob":
            return obj.id if obj.type_name == b"blob" else None
        if want == "object":
            return obj.id
        return None
    return None


def reflog_entries(repo: Repo, ref: bytes) -> list[tuple[bytes, bytes, bytes]]:
    """(old, new, message) of a ref's reflog, newest first."""
    data = repo.gitdir.read_opt("logs/" + decode(ref))
    if data is None:
        return []
    out = []
    for line in data.splitlines():
        parts = line.split(b" ", 2)
        if len(parts) < 3:
            continue
        msg = line.split(b"\t", 1)[1] if b"\t" in line else b""
        out.append((parts[0], parts[1], msg))
    out.reverse()
    return out


def resolve(repo: Repo, rev: str, *, want: str | None = "commit", missing_ok: bool = False
            ) -> bytes | None:
    """The object a revision names (peeled to ``want``), or raise git's error."""
    sha = _resolve(repo, rev, want)
    if sha is None and not missing_ok:
        raise ambiguous(rev)
    return sha


def _resolve(repo: Repo, rev: str, want: str | None) -> bytes | None:
    b = encode(rev)
    if b.startswith(b":/") and len(b) > 2:  # :/regex: the youngest commit any ref reaches
        tips = [s for s in [repo.head(), *repo.all_refs().values()] if s is not None]
        found = _message_search(repo, tips, b[2:])
        return _peel(repo, found, want) if found is not None else None
    m = re.fullmatch(rb"(.*?)\^\{/(.*)\}", b, re.S)
    if m:  # REV^{/regex}
        start = _resolve(repo, decode(m.group(1)), "commit")
        found = _message_search(repo, [start], m.group(2)) if start is not None else None
        return _peel(repo, found, want) if found is not None else None
    if b"..." not in b and b":" in b and not b.startswith(b":"):
        base, _, path = b.partition(b":")
        tree_sha = _resolve(repo, decode(base), "tree")
        if tree_sha is None:
            return None
        return tree_path(repo, tree_sha, path)
    if b.startswith(b":") and len(b) > 1 and not b.startswith(b":/"):
        # :path in the index
        path = b[1:]
        if path.startswith(b"0:"):
            path = path[2:]
        try:
            e = repo.index[path]
            return e.sha
        except KeyError:
            return None
    m = re.match(rb"^(.*?)((?:[~^][0-9]*|\^\{[a-z]*\})*)$", b)
    base, suffix = m.group(1), m.group(2)
    sha = _base(repo, base)
    if sha is None:
        return None
    for op in re.findall(rb"~[0-9]*|\^\{[a-z]*\}|\^[0-9]*", suffix):
        if op.startswith(b"^{"):
            t = decode(op[2:-1])
            sha = _peel(repo, sha, t if t else None)
        elif op.startswith(b"~"):
            n = int(op[1:]) if len(op) > 1 else 1
            for _ in range(n):
                c = _peel(repo, sha, "commit")
                if c is None:
                    return None
                parents = repo[c].parents
                if not parents:
                    return None
                sha = parents[0]
        else:
            n = int(op[1:]) if len(op) > 1 else 1
            c = _peel(repo, sha, "commit")
            if c is None:
                return None
            if n == 0:
                sha = c
                continue
            parents = repo[c].parents
            if len(parents) < n:
                return None
            sha = parents[n - 1]
        if sha is None:
            return None
    return _peel(repo, sha, want)


def _message_search(repo: Repo, tips: list[bytes], pattern: bytes) -> bytes | None:
    """The youngest commit reachable from ``tips`` whose message matches (git's ^{/re})."""
    from pysh.ports.git.log import walk_date_order

    try:
        rx = re.compile(decode(pattern))
    except re.error:
        return None
    commits = [t for t in (_peel(repo, t, "commit") for t in tips) if t is not None]
    for sha, c in walk_date_order(repo, commits, []):
        repo.ctx.tick()
        if rx.search(decode(c.message)):
            return sha
    return None


def _base(repo: Repo, base: bytes) -> bytes | None:
    m = re.fullmatch(rb"(.*)@\{(-?\d+)\}", base)
    if m:
        name, n = m.group(1) or b"HEAD", int(m.group(2))
        if n < 0:
            br = previous_branch(repo, -n)
            if br is None:
                return None
            _, sha = lookup_ref(repo, br)
            return sha
        ref, _ = lookup_ref(repo, name)
        if ref is None:
            return None
        if ref == b"HEAD" and name == b"HEAD":
            pass
        entries = reflog_entries(repo, ref)
        if n < len(entries):
            return entries[n][1]
        return None
    if not base:
        return None
    ref, sha = lookup_ref(repo, base)
    if sha is not None:
        return sha
    return _by_hex(repo, base)


def previous_branch(repo: Repo, n: int) -> bytes | None:
    """The branch checked out before (``@{-N}``, ``-``), from HEAD's reflog."""
    count = 0
    for _, _, msg in reflog_entries(repo, b"HEAD"):
        m = re.match(rb"checkout: moving from (\S+) to (\S+)", msg)
        if m:
            count += 1
            if count == n:
                return m.group(1)
    return None


def tree_path(repo: Repo, tree_sha: bytes, path: bytes) -> bytes | None:
    from dulwich.objects import Tree

    path = path.strip(b"/")
    if not path:
        return tree_sha
    sha = tree_sha
    for comp in path.split(b"/"):
        obj = repo.get(sha)
        if not isinstance(obj, Tree):
            return None
        try:
            _, sha = obj[comp]
        except KeyError:
            return None
    return sha


def parse_range_args(repo: Repo, args: list[str]) -> tuple[list[bytes], list[bytes], list[str]]:
    """Revision arguments of log-like commands: (included, excluded, rest-not-revs)."""
    inc: list[bytes] = []
    exc: list[bytes] = []
    for a in args:
        if "..." in a:
            left, right = a.split("...", 1)
            ls = resolve(repo, left or "HEAD")
            rs = resolve(repo, right or "HEAD")
            inc += [ls, rs]
            for mb in merge_bases(repo, ls, rs):
                exc.append(mb)
        elif ".." in a:
            left, right = a.split("..", 1)
            exc.append(resolve(repo, left or "HEAD"))
            inc.append(resolve(repo, right or "HEAD"))
        elif a.startswith("^"):
            exc.append(resolve(repo, a[1:]))
        else:
            inc.append(resolve(repo, a))
    return inc, exc, []


def ancestors(repo: Repo, sha: bytes) -> set[bytes]:
    seen: set[bytes] = set()
    stack = [sha]
    while stack:
        s = stack.pop()
        if s in seen:
            continue
        seen.add(s)
        repo.ctx.tick()
        obj = repo.get(s)
        if obj is None:
            continue
        stack.extend(obj.parents)
    return seen


def merge_bases(repo: Repo, a: bytes, b: bytes) -> list[bytes]:
    """The best common ancestors of two commits."""
    anc_a = ancestors(repo, a)
    if b in anc_a:
        return [b]
    anc_b = ancestors(repo, b)
    if a in anc_b:
        return [a]
    common = anc_a & anc_b
    if not common:
        return []
    # drop commons that are ancestors of other commons
    best = set(common)
    for c in common:
        if c not in best:
            continue
        obj = repo.get(c)
        stack = list(obj.parents) if obj is not None else []
        seen = set()
        while stack:
            p = stack.pop()
            if p in seen:
                continue
            seen.add(p)
            best.discard(p)
            o = repo.get(p)
            if o is not None:
                stack.extend(o.parents)
    return sorted(best)


def is_ancestor(repo: Repo, anc: bytes, desc: bytes) -> bool:
    return anc in ancestors(repo, desc)
