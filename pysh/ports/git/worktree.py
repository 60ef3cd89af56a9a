"""The work tree against the index: a walk through the safe walker, ignore rules,
stat-cache matching (hashing only what may have changed)."""

from __future__ import annotations

import os
import stat as _stat

from pysh.ports import _common
from pysh.ports.git import gitfs
from pysh.ports.git.core import Repo, config_get, git_blob_sha, vjoin
from pysh.shellkit import decode, encode


def entry_time(t) -> tuple[int, int]:
    if isinstance(t, tuple):
        return int(t[0]), int(t[1])
    if isinstance(t, float):
        sec = int(t)
        return sec, int((t - sec) * 1e9)
    return int(t), 0


def make_entry(st: os.stat_result, sha: bytes, mode: int):
    from dulwich.index import IndexEntry

    return IndexEntry(
        ctime=(int(st.st_ctime), st.st_ctime_ns % 1_000_000_000),
        mtime=(int(st.st_mtime), st.st_mtime_ns % 1_000_000_000),
        dev=st.st_dev & 0xFFFFFFFF, ino=st.st_ino & 0xFFFFFFFF, mode=mode,
        uid=st.st_uid & 0xFFFFFFFF, gid=st.st_gid & 0xFFFFFFFF, size=st.st_size & 0xFFFFFFFF,
        sha=sha, flags=0)


def tree_entry(sha: bytes, mode: int):
    """An index entry for content that is not (yet) in the work tree (no stat info)."""
    from dulwich.index import IndexEntry

    return IndexEntry(ctime=(0, 0), mtime=(0, 0), dev=0, ino=0, mode=mode, uid=0, gid=0,
                      size=0, sha=sha, flags=0)


def git_mode(st: os.stat_result) -> int:
    if _stat.S_ISLNK(st.st_mode):
        return 0o120000
    return 0o100755 if st.st_mode & 0o100 else 0o100644


def index_mtime(repo: Repo) -> tuple[int, int]:
    st = repo.gitdir.stat("index", follow=False)
    if st is None:
        return (0, 0)
    return int(st.st_mtime), st.st_mtime_ns % 1_000_000_000


GITLINK = 0o160000


def gitlinks(repo: Repo) -> set[bytes]:
    """Index paths that are submodules (gitlinks)."""
    from dulwich.index import ConflictedIndexEntry

    return {p for p, e in repo.index.items()
            if not isinstance(e, ConflictedIndexEntry) and e.mode == GITLINK}


def submodule(repo: Repo, rel: bytes) -> Repo | None:
    """The checked-out submodule at ``rel`` (its own repository), or None when the directory
    holds none (not initialised: git treats it as unchanged)."""
    cache = repo.submodules
    if rel in cache:
        return cache[rel]
    from pysh.ports.git.core import find_gitdir_at

    vdir = repo.wt(rel)
    sub = None
    g = find_gitdir_at(repo.shell, vdir)
    if g is not None:
        sub = Repo.open(repo.ctx, g, vdir)
    cache[rel] = sub
    return sub


def submodule_head(repo: Repo, rel: bytes) -> bytes | None:
    sub = submodule(repo, rel)
    return sub.head() if sub is not None else None


def submodule_dirt(repo: Repo, rel: bytes) -> str:
    """'m' when a checked-out submodule has modified content, 'u' when untracked files."""
    sub = submodule(repo, rel)
    if sub is None:
        return ""
    from pysh.ports.git.status import compute

    st = compute(sub, renames=False)
    return ("m" if st.staged or st.unstaged or st.unmerged else "") + ("u" if st.untracked else "")


def gitlink_sha(repo: Repo, rel: bytes, entry_sha: bytes) -> bytes:
    """The commit a submodule directory is at (the recorded one when not checked out)."""
    return submodule_head(repo, rel) or entry_sha


def is_gitlink_dir(entry, st: os.stat_result | None) -> bool:
    """A submodule entry whose directory is there (checked out or not)."""
    return (st is not None and getattr(entry, "mode", 0) == GITLINK
            and _stat.S_ISDIR(st.st_mode))


def stage_gitlink(repo: Repo, rel: bytes, entry, dry: bool = False) -> bool:
    """``add`` of a submodule: record the commit its checkout is at (never its files)."""
    head = submodule_head(repo, rel)
    if head is None or head == entry.sha:
        return False
    if not dry:
        repo.index[rel] = tree_entry(head, GITLINK)
    return True


def stat_clean(entry, st: os.stat_result, idx_mtime: tuple[int, int]) -> bool:
    """Whether the stat info says the file is unchanged since it was staged (called once per
    tracked file by status, add and diff: kept to attribute reads and one tuple compare)."""
    emode = entry.mode
    if emode != GITLINK:
        m = st.st_mode
        if _stat.S_ISLNK(m):
            if emode != 0o120000:
                return False
        elif emode != (0o100755 if m & 0o100 else 0o100644):
            return False
    if (st.st_size & 0xFFFFFFFF) != entry.size or (st.st_ino & 0xFFFFFFFF) != entry.ino:
        return False
    mt = divmod(st.st_mtime_ns, 1_000_000_000)
    em = entry.mtime
    if mt != (em if type(em) is tuple else entry_time(em)):
        return False
    # racy git: a file modified in the same instant as the index is written is re-hashed
    return mt < idx_mtime


class Ignores:
    """gitignore rules of the work tree: per-directory .gitignore, info/exclude, excludesFile."""

    def __init__(self, repo: Repo):
        self.repo = repo
        self.shell = repo.shell
        self._levels: dict[str, list] = {}
        self.root_extra: list = []
        data = repo.gitdir.read_opt("info/exclude")
        texts = [data] if data else []
        for vp in self._extra_files():
            try:
                texts.append(gitfs.read_file(self.shell, vp))
            except OSError:
                pass
        for text in texts:
            lines = text.decode("utf-8", "surrogateescape").splitlines()
            if lines:
                self.root_extra.append(_common._load_spec(lines))

    def _extra_files(self) -> list[str]:
        out = []
        xf = config_get(self.repo.ctx, "core", "excludesFile", repo=self.repo)
        env = self.repo.ctx.env
        if xf:
            if xf.startswith("~/") and env.get("HOME"):
                xf = vjoin(env["HOME"], xf[2:])
            out.append(self.shell.abspath(xf))
        else:
            xdg = env.get("XDG_CONFIG_HOME")
            if xdg:
                out.append(vjoin(self.shell.abspath(xdg), "git/ignore"))
            elif env.get("HOME"):
                out.append(vjoin(self.shell.abspath(env["HOME"]), ".config/git/ignore"))
        return out

    def _read(self, vpath: str) -> list[str] | None:
        try:
            data = gitfs.read_file(self.shell, vpath)
        except OSError:
            return None
        return data.decode("utf-8", "surrogateescape").splitlines()

    def no_file(self, rel_dir: str) -> None:
        """The directory's listing has no .gitignore: its level need not be read."""
        if rel_dir not in self._levels:
            self._levels[rel_dir] = self.root_extra if rel_dir == "" else []

    def level(self, rel_dir: str) -> list:
        got = self._levels.get(rel_dir)
        if got is None:
            lines = self._read(vjoin(self.repo.vtop, rel_dir + "/.gitignore" if rel_dir else ".gitignore"))
            got = [_common._load_spec(lines)] if lines else []
            if rel_dir == "":
                got = got + self.root_extra
            self._levels[rel_dir] = got
        return got

    def ignored(self, rel: str, is_dir: bool) -> bool:
        levels = []
        parts = rel.split("/")
        # a path under an ignored directory is ignored
        for i in range(1, len(parts)):
            d = "/".join(parts[:i])
            if self._dir_ignored(d):
                return True
        base = ""
        for i in range(len(parts)):
            specs = self.level(base)
            if specs:
                levels.append((base, specs))
            base = "/".join(parts[:i + 1])
        return _common.ignored(levels, rel, is_dir)

    def _dir_ignored(self, d: str) -> bool:
        key = "\0dir:" + d
        got = self._levels.get(key)
        if got is None:
            parts = d.split("/")
            levels = []
            base = ""
            for i in range(len(parts)):
                specs = self.level(base)
                if specs:
                    levels.append((base, specs))
                base = "/".join(parts[:i + 1])
            res = _common.ignored(levels, d, True)
            if not res and len(parts) > 1:
                res = self._dir_ignored("/".join(parts[:-1]))
            got = [res]
            self._levels[key] = got
        return got[0]


class Scan:
    """What a walk of the work tree found."""

    def __init__(self):
        self.files: dict[bytes, os.stat_result] = {}  # every non-ignored or tracked file
        self.untracked: list[bytes] = []
        self.ignored: list[bytes] = []
        self.nested: list[bytes] = []  # untracked directories holding another repository
        self.clean: set[bytes] = set()  # tracked files whose stat data matched (not in files)


def dirs_of(paths) -> set[bytes]:
    """Every leading directory of the given paths (b"a/b/c" gives b"a" and b"a/b")."""
    out: set[bytes] = set()
    for p in paths:
        i = p.rfind(b"/")
        while i > 0:
            d = p[:i]
            if d in out:
                break
            out.add(d)
            i = p.rfind(b"/", 0, i)
    return out


def scan(repo: Repo, index_paths, *, want_untracked: bool = True,
         want_ignored: bool = False, pathspec=None, entries=None,
         idx_mtime: tuple[int, int] = (0, 0)) -> Scan:
    """Walk the work tree (pruned by ignore rules where nothing is tracked): one listing per
    directory through the core's walker (held dir fds), one lstat per tracked file. With the
    index ``entries``, a tracked file whose stat data matches its entry goes to ``clean``
    instead of ``files`` (git's refresh: the caller need not look at it again)."""
    from dulwich.index import ConflictedIndexEntry

    shell = repo.shell
    top = repo.vtop
    res = Scan()
    files, clean = res.files, res.clean
    tracked_dirs = {decode(d) for d in dirs_of(index_paths)}
    ign = Ignores(repo)
    links = gitlinks(repo)
    n = 0
    errors: list = []
    base_len = len(top.rstrip("/")) + 1
    for wd in shell.walk(top, onerror=errors.append):
        n += 1
        if n & 63 == 0:
            shell.budget.check()
        rel_dir = wd.path[base_len:] if wd.path != top else ""
        if not any(ent.name == ".gitignore" for ent in wd.files):
            ign.no_file(rel_dir)
        keep = []
        for ent in wd.dirs:
            name = ent.name
            if name == ".git":
                continue
            rel = rel_dir + "/" + name if rel_dir else name
            if pathspec is not None and not pathspec.could_contain(rel):
                continue
            if encode(rel) in links:  # a submodule: there, and never entered
                try:
                    files[encode(rel)] = ent.stat()
                except OSError:
                    pass
                continue
            if rel in tracked_dirs:
                keep.append(ent)
                continue
            if ign.ignored(rel, True):
                if want_ignored:
                    res.ignored.append(encode(rel + "/"))
                continue
            if not want_untracked:
                continue
            if gitfs.lstat(shell, ent.path + "/.git") is not None:
                res.nested.append(encode(rel + "/"))
                res.untracked.append(encode(rel + "/"))
                continue
            keep.append(ent)
        wd.dirs[:] = keep
        prefix = encode(rel_dir + "/") if rel_dir else b""
        for ent in wd.files:
            t = ent.type
            if t != "f" and t != "l":
                continue
            relb = prefix + ent.name.encode("utf-8", "surrogateescape")
            if relb in index_paths:
                try:
                    st = ent.stat()
                except OSError:
                    continue
                if entries is not None:
                    e = entries[relb]
                    if e.__class__ is not ConflictedIndexEntry and e.mode != GITLINK and \
                            stat_clean(e, st, idx_mtime):
                        clean.add(relb)
                        continue
                files[relb] = st
                continue
            if not prefix and relb == b".git":
                continue
            if pathspec is not None and not pathspec.match(relb):
                continue
            rel = decode(relb)
            if ign.ignored(rel, False):
                if want_ignored:
                    res.ignored.append(relb)
                continue
            if want_untracked:
                try:
                    files[relb] = ent.stat()
                except OSError:
                    continue
                res.untracked.append(relb)
    res.untracked.sort()
    return res


def worktree_sha(repo: Repo, rel: bytes, entry, st: os.stat_result | None,
                 idx_mtime: tuple[int, int]) -> tuple[bytes | None, int]:
    """(sha, mode) of the work-tree file at ``rel`` (sha None when missing)."""
    if st is None:
        return None, 0
    if entry is not None and entry.mode == GITLINK and _stat.S_ISDIR(st.st_mode):
        return gitlink_sha(repo, rel, entry.sha), GITLINK
    mode = git_mode(st)
    if entry is not None and stat_clean(entry, st, idx_mtime):
        return entry.sha, entry.mode
    got = repo.wt_read(rel)
    if got is None:
        return None, 0
    mode, data, _ = got
    return git_blob_sha(data), mode


def collapse_untracked(paths: list[bytes], index_paths: set[bytes], all_files: bool) -> list[bytes]:
    """Untracked files as git shows them by default: a wholly untracked directory as ``dir/``."""
    if all_files:
        return [p for p in paths if not p.endswith(b"/")]
    if not paths:
        return []
    tracked_dirs = dirs_of(index_paths)
    out: list[bytes] = []
    seen: set[bytes] = set()
    for p in paths:
        parts = p.rstrip(b"/").split(b"/")
        shown = p
        for i in range(1, len(parts)):
            d = b"/".join(parts[:i])
            if d not in tracked_dirs:
                shown = d + b"/"
                break
        if shown not in seen:
            seen.add(shown)
            out.append(shown)
    return sorted(out)
