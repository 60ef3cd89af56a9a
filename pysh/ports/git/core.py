"""The hardened repository layer under every git subcommand.

* **Discovery** walks up from the virtual cwd and stops at the mount root. A ``.git``
  file's ``gitdir:`` is read as a *virtual* path and resolved by the core: a redirect
  out of the sandbox is refused.
* **Opening** never hands dulwich a path. The object store, the refs container and the
  index are built on :class:`gitfs.GitDir` (``store.py``): every file of the git dir is
  opened through the confinement core at the moment of use, on held directory fds, and
  one that is (or is reached through) a symlink leaving the git dir is refused. No
  alternates, ``commondir``, hooks, filters, fsmonitor or ``sshCommand``; no host
  config: the repo's ``config`` and the *virtual* ``$HOME/.gitconfig``, whose
  ``include``/``includeIf`` are virtual paths too (``gitconfig.py``).
* **Writes** take git's lock files (``index.lock``, ``<ref>.lock``, ``packed-refs.lock``)
  in the held directory and rename them into place; on a read-only mount the first lock
  fails with git's message and nothing is written.
* **The working tree** is read and written through the core (door A's operations;
  symlinks are created by ``shell.fs.symlink``, so the core's link rules apply).
* Every message names virtual paths; dulwich's exception texts are folded.
"""

from __future__ import annotations

import errno
import fnmatch
import hashlib
import io
import os
import posixpath
import re
import stat as _stat
import time
from contextvars import ContextVar

from pysh.ports import _common
from pysh.ports.git import gitfs
from pysh.ports.git.gitfs import GitDir, GitExit, LockError, fatal, usage_error, vjoin
from pysh.shellkit import FileSystemError, Shell, decode, encode

__all__ = ["GitExit", "LockError", "fatal", "usage_error", "vjoin"]


NOT_A_REPO = "not a git repository (or any of the parent directories): .git"
_NOW: ContextVar[int | None] = ContextVar("git_now", default=None)


# ------------------------------------------------------------------ context
class Ctx:
    """One git invocation: the shell, buffered output, the repository once found."""

    def __init__(self, shell: Shell, config_overrides: list[tuple[str, str]]):
        self.shell = shell
        self.out = bytearray()
        self.err = bytearray()
        self.overrides = config_overrides
        self._repo: Repo | None = None
        self.opened: list[Repo] = []  # every repository opened: closed when the command ends
        self._global = False  # the global config, once read (None: there is none)
        self.command = ""  # the subcommand's name
        shell.budget.check()
        self._n = 0
        pinned = shell.env.get("GIT_TEST_DATE_NOW", "")
        _NOW.set(int(pinned) if pinned.isdigit() else None)

    # output
    def write(self, data: bytes | str) -> None:
        self.out += encode(data) if isinstance(data, str) else data

    def ewrite(self, data: bytes | str) -> None:
        self.err += encode(data) if isinstance(data, str) else data

    async def flush(self) -> None:
        if self.err:
            data = bytes(self.err)
            self.err.clear()
            await self.shell.stderr.write(data)
        if self.out:
            data = bytes(self.out)
            self.out.clear()
            await self.shell.stdout.write(data)

    async def maybe_flush(self) -> None:
        if len(self.out) >= 64 * 1024:
            self.shell.budget.check()
            await self.flush()

    def tick(self) -> None:
        self._n += 1
        if self._n & 127 == 0:
            self.shell.budget.check()

    @property
    def env(self) -> dict[str, str]:
        return self.shell.env

    # the repository
    @property
    def repo(self) -> Repo:
        if self._repo is None:
            self._repo = discover(self)
        return self._repo

    def try_repo(self) -> Repo | None:
        try:
            return self.repo
        except GitExit:
            return None

    def close(self) -> None:
        for r in self.opened:
            r.close()
        self.opened.clear()


# --------------------------------------------------------- virtual helpers
def vlstat(shell: Shell, vpath: str) -> os.stat_result | None:
    return gitfs.lstat(shell, vpath)


def is_mount_root(shell: Shell, vpath: str) -> bool:
    try:
        return shell.core.table.get(vpath) is not None
    except Exception:
        return True


def _realpath(shell: Shell, vpath: str) -> str | None:
    """The canonical virtual path (the core follows links that stay in the sandbox)."""
    try:
        return shell.core.realpath(vpath)
    except OSError:
        return None


# -------------------------------------------------------------- discovery
def _gitfile_target(shell: Shell, dotgit: str) -> str:
    """The virtual git dir a ``.git`` file names (``gitdir: X``), confined by the core."""
    try:
        data = gitfs.read_file(shell, dotgit)[:4096]
    except OSError:
        raise fatal(f"invalid gitfile format: {dotgit}") from None
    text = decode(data).strip()
    if not text.startswith("gitdir:"):
        raise fatal(f"invalid gitfile format: {dotgit}")
    target = text[len("gitdir:"):].strip()
    vt = target if target.startswith("/") else vjoin(posixpath.dirname(dotgit), target)
    real = _realpath(shell, posixpath.normpath(vt))
    if real is None:
        raise fatal(f"not a git repository: {dotgit} (its gitdir is outside the sandbox)")
    if not _looks_like_gitdir(shell, real):
        raise fatal(f"not a git repository: {real}")
    return real


def _looks_like_gitdir(shell: Shell, vdir: str) -> bool:
    st = vlstat(shell, vjoin(vdir, "HEAD"))
    if st is None:
        return False
    for sub in ("objects", "refs"):
        st = vlstat(shell, vjoin(vdir, sub))
        # a symlinked internal passes here; where it leads is judged at every open (GitDir)
        if st is None or not (_stat.S_ISDIR(st.st_mode) or _stat.S_ISLNK(st.st_mode)):
            return False
    return True


def find_gitdir_at(shell: Shell, d: str) -> str | None:
    """The virtual git dir of a work tree rooted at ``d`` (``d/.git``), or None."""
    dotgit = vjoin(d, ".git")
    st = vlstat(shell, dotgit)
    if st is None:
        return None
    if _stat.S_ISLNK(st.st_mode):
        # a symlinked .git: followed only while it stays inside the sandbox
        real = _realpath(shell, dotgit)
        if real is None:
            raise fatal(f"not a git repository: {dotgit} (a symlink out of the sandbox)")
        if gitfs.is_dir(shell, real):
            return real if _looks_like_gitdir(shell, real) else None
        return _gitfile_target(shell, real)
    if _stat.S_ISDIR(st.st_mode):
        return dotgit if _looks_like_gitdir(shell, dotgit) else None
    if _stat.S_ISREG(st.st_mode):
        return _gitfile_target(shell, dotgit)
    return None


def discover(ctx: Ctx) -> Repo:
    shell = ctx.shell
    env_gitdir = ctx.env.get("GIT_DIR")
    if env_gitdir:
        vg = shell.abspath(env_gitdir)
        if not _looks_like_gitdir(shell, vg):
            raise fatal(f"not a git repository: '{env_gitdir}'")
        wt = ctx.env.get("GIT_WORK_TREE")
        vtop = shell.abspath(wt) if wt else shell.cwd
        return Repo.open(ctx, vg, vtop)
    d = shell.cwd
    while True:
        g = find_gitdir_at(shell, d)
        if g is not None:
            return Repo.open(ctx, g, d)
        # a bare repository (we are inside its git dir)
        if _looks_like_gitdir(shell, d) and vlstat(shell, vjoin(d, "config")) is not None:
            cfg = _read_config_bytes(shell, vjoin(d, "config"))
            if cfg is not None and _cfg_bool(cfg, b"core", b"bare", False):
                return Repo.open(ctx, d, None)
        if d == "/" or is_mount_root(shell, d):
            raise fatal(NOT_A_REPO)
        d = posixpath.dirname(d) or "/"


def _read_config_bytes(shell: Shell, vpath: str):
    """A config file without its includes (discovery only needs core.bare)."""
    try:
        data = gitfs.read_file(shell, vpath)
    except OSError:
        return None
    return _parse_config(data, vpath, None)


def _parse_config(data: bytes, vpath: str, scope, *, expand: bool = True, shown: str | None = None):
    from pysh.ports.git import gitconfig

    try:
        return gitconfig.parse(data, vpath, scope, expand=expand)
    except (ValueError, UnicodeError):
        line = _bad_config_line(data)
        raise fatal(f"bad config line {line} in file {shown or vpath}") from None


def _bad_config_line(data: bytes) -> int:
    """The first line at which ``data`` stops parsing (dulwich's error has no line number)."""
    from dulwich.config import ConfigFile

    lines = data.splitlines(keepends=True)
    lo, hi = 1, len(lines)  # the smallest prefix length that fails
    while lo < hi:
        mid = (lo + hi) // 2
        try:
            ConfigFile.from_file(io.BytesIO(b"".join(lines[:mid])), expand_includes=False)
        except (ValueError, UnicodeError):
            hi = mid
        else:
            lo = mid + 1
    return lo


def config_scope(ctx: Ctx, repo: Repo | None = None):
    """What include/includeIf need: the sandbox's $HOME and (lazily) the repository."""
    from pysh.ports.git.gitconfig import Scope

    home = ctx.env.get("HOME")
    home = ctx.shell.abspath(home) if home else None

    def gitdir():
        r = repo if repo is not None else ctx._repo
        return r.vgit if r is not None else None

    def branch():
        r = repo if repo is not None else ctx._repo
        return r.head_branch() if r is not None else None

    return Scope(ctx.shell, home, gitdir, branch)


def _cfg_bool(cfg, section, name, default):
    try:
        return cfg.get_boolean(section, name, default)
    except Exception:
        return default


# ------------------------------------------------------------ the repository
_REFUSED_FILES = ("commondir", "objects/info/alternates", "objects/info/http-alternates")
_INTERNALS = {"HEAD", "config", "index", "objects", "refs", "packed-refs", "logs", "info",
              "ORIG_HEAD", "FETCH_HEAD", "MERGE_HEAD", "MERGE_MSG", "MERGE_MODE", "shallow",
              "CHERRY_PICK_HEAD", "REVERT_HEAD", "modules", "worktrees"}


def _check_gitdir(gd: GitDir) -> None:
    """Refuse early what would make git reach outside: alternates, commondir, and a top-level
    internal that is a symlink out of the repository. (Every later open is checked again by
    GitDir, at open time: this early look only makes the refusal come first.)"""
    for rel in _REFUSED_FILES:
        st = gd.stat(rel, follow=False)
        if st is None:
            continue
        if _stat.S_ISREG(st.st_mode) and st.st_size == 0:
            continue
        raise fatal(f"refusing the repository at {gd.root}: '{rel}' is not allowed in the sandbox")
    for name, t in gd.listdir(""):
        if t == "l" and name in _INTERNALS:
            gd.entry_kind(name, t)  # refuses a link that leaves the repository
    for sub in ("objects", "refs", "refs/heads", "refs/tags", "objects/pack", "logs"):
        for name, t in gd.listdir(sub) if gd.isdir(sub) else ():
            if t == "l":
                gd.entry_kind(f"{sub}/{name}", t)


class Repo:
    """A repository opened from primitives: object store, refs, index, config."""

    def __init__(self, ctx: Ctx, vgit: str, vtop: str | None):
        from pysh.ports.git.store import SandboxObjectStore, SandboxRefs

        self.ctx = ctx
        self.shell = ctx.shell
        self.vgit = vgit
        self.vtop = vtop  # None: bare
        real = _realpath(self.shell, vgit)
        if real is None:
            raise fatal(f"not a git repository: '{vgit}'")
        # every file of the git dir is opened through this (confined, checked at open time)
        self.gitdir = GitDir(self.shell, real)
        self._index = None
        self._index_lock = None
        self.checkout_errors = 0  # symlinks that could not be created (git: "unable to create")
        self.submodules: dict[bytes, Repo | None] = {}  # checked-out submodules, by path
        self._attrs = None
        self._config = None
        self._tree_cache: dict[bytes, dict[bytes, tuple[int, bytes]]] = {}
        self.object_store = SandboxObjectStore(self.gitdir)
        self.refs = SandboxRefs(self.gitdir)

    @classmethod
    def open(cls, ctx: Ctx, vgit: str, vtop: str | None) -> Repo:
        repo = cls(ctx, vgit, vtop)
        ctx.opened.append(repo)
        _check_gitdir(repo.gitdir)
        cfg = repo.config
        try:
            fmt = int(cfg.get(b"core", b"repositoryformatversion"))
        except (KeyError, ValueError):
            fmt = 0
        if fmt not in (0, 1):
            raise fatal(f"Expected git repo version <= 1, found {fmt}")
        if fmt == 1:
            for key, value in cfg.items(b"extensions"):
                k = key.lower()
                if k == b"objectformat" and value.lower() == b"sha1":
                    continue
                if k in (b"worktreeconfig", b"noop"):
                    continue
                raise fatal(f"unknown repository extension found:\n\t{decode(key.lower())}")
        try:
            wt = decode(cfg.get(b"core", b"worktree"))
        except KeyError:
            wt = None
        if wt is not None and vtop is not None:
            # a submodule's git dir names its work tree (relative to the git dir): a virtual
            # path like any other, resolved by the core
            real = _realpath(ctx.shell, wt if wt.startswith("/") else vjoin(repo.gitdir.root, wt))
            if real is None or not gitfs.is_dir(ctx.shell, real):
                raise fatal(f"cannot chdir to '{wt}': No such file or directory")
            repo.vtop = real
        if vtop is not None and _cfg_bool(cfg, b"core", b"bare", False) and vgit != vjoin(vtop, ".git"):
            repo.vtop = None
        return repo

    def close(self) -> None:
        """Release what the command held: the index lock (unless written), open packs."""
        if self._index_lock is not None:
            self._index_lock.release()
            self._index_lock = None
        self.object_store.close()

    # -- config --------------------------------------------------------------
    @property
    def config(self):
        """The repository's config with its includes (virtual paths), for reading."""
        if self._config is None:
            self._config = self._load_config(expand=True)
        return self._config

    def _load_config(self, expand: bool):
        from dulwich.config import ConfigFile

        data = self.gitdir.read_opt("config", cap=1 << 22)
        if data is None:
            return ConfigFile()
        scope = config_scope(self.ctx, self) if expand else None
        return _parse_config(data, self.gitdir.vpath("config"), scope, expand=expand)

    def edit_config(self):
        """The config file as written (includes not expanded): change it, then write_config()."""
        return self._load_config(expand=False)

    def write_config(self, cfg) -> None:
        import io

        buf = io.BytesIO()
        cfg.write_to_file(buf)
        try:
            self.gitdir.write("config", buf.getvalue())
        except LockError as e:
            raise GitExit(f"error: could not lock config file {self.config_display()}: "
                          f"{os.strerror(e.code)}", 255) from None
        self._config = None

    def config_display(self) -> str:
        """The config file's name as git prints it (relative to the top when we are there)."""
        cwd = self.shell.cwd
        if self.vtop is not None and cwd == self.vtop and self.vgit == vjoin(self.vtop, ".git"):
            return ".git/config"
        return vjoin(self.vgit, "config")

    def cfg_get(self, section: str, name: str, sub: str | None = None) -> str | None:
        return config_get(self.ctx, section, name, sub, repo=self)

    @property
    def bare(self) -> bool:
        return self.vtop is None

    def require_worktree(self, cmd: str) -> str:
        if self.vtop is None:
            raise fatal("this operation must be run in a work tree")
        return self.vtop

    # -- objects ---------------------------------------------------------------
    def __getitem__(self, sha: bytes):
        self.ctx.tick()
        try:
            return self.object_store[sha]
        except (KeyError, GitExit, OSError):
            raise
        except Exception as e:  # a corrupt object: no library text leaks
            raise fatal(f"bad object {decode(sha)}") from e

    def get(self, sha: bytes):
        try:
            return self[sha]
        except KeyError:
            return None

    def has(self, sha: bytes) -> bool:
        return sha in self.object_store

    def add_blob(self, data: bytes) -> bytes:
        from dulwich.objects import Blob

        b = Blob.from_string(data)
        if b.id not in self.object_store:
            self.object_store.add_object(b)
        return b.id

    def add_object(self, obj) -> bytes:
        if obj.id not in self.object_store:
            self.object_store.add_object(obj)
        return obj.id

    def flat_tree(self, tree_sha: bytes | None) -> dict[bytes, tuple[int, bytes]]:
        """path -> (mode, sha) of every non-tree entry of a tree (recursively)."""
        if tree_sha is None:
            return {}
        cached = self._tree_cache.get(tree_sha)
        if cached is not None:
            return cached
        out: dict[bytes, tuple[int, bytes]] = {}
        stack = [(b"", tree_sha)]
        while stack:
            prefix, sha = stack.pop()
            self.ctx.tick()
            tree = self[sha]
            for entry in tree.iteritems():
                name, mode, esha = entry.path, entry.mode, entry.sha
                path = prefix + name
                if _stat.S_ISDIR(mode):
                    stack.append((path + b"/", esha))
                else:
                    out[path] = (mode, esha)
        self._tree_cache[tree_sha] = out
        return out

    def tree_of(self, commit_sha: bytes | None) -> bytes | None:
        if commit_sha is None:
            return None
        return self[commit_sha].tree

    # -- refs ------------------------------------------------------------------
    def head_ref(self) -> bytes | None:
        """What HEAD points at symbolically (b'refs/heads/main'), or None when detached."""
        data = self.refs.read_loose_ref(b"HEAD")
        if data and data.startswith(b"ref: "):
            return data[5:].strip()
        return None

    def head_branch(self) -> str | None:
        r = self.head_ref()
        if r is not None and r.startswith(b"refs/heads/"):
            return decode(r[len(b"refs/heads/"):])
        return None

    def head(self) -> bytes | None:
        """The commit HEAD resolves to (None on an unborn branch)."""
        return self.ref_sha(b"HEAD")

    def ref_sha(self, name: bytes) -> bytes | None:
        from dulwich.refs import SymrefLoop

        try:
            _, sha = self.refs.follow(name)
        except (KeyError, ValueError, SymrefLoop):
            return None
        return sha

    def set_ref(self, name: bytes, sha: bytes, message: str | None = None) -> None:
        """Write a loose ref (lock file + rename in the held git dir, no fsync)."""
        self._check_refname(name)
        self._write_ref(name, sha + b"\n")

    def _write_ref(self, name: bytes, data: bytes) -> None:
        rel = decode(name)
        try:
            if "/" in rel:
                self.gitdir.mkdirs(posixpath.dirname(rel))
            self.gitdir.write(rel, data)
        except LockError as e:
            raise fatal(f"cannot lock ref '{rel}': {e.reason}") from None
        except FileSystemError as e:
            raise fatal(f"cannot lock ref '{rel}': {gitfs_message(e)}") from None

    @staticmethod
    def _check_refname(name: bytes) -> None:
        if name != b"HEAD" and not name.startswith(b"refs/"):
            raise fatal(f"refusing to update ref with bad name '{decode(name)}'")
        parts = name.split(b"/")
        if any(p in (b"", b".", b"..") or p.startswith(b".") or p.endswith(b".lock")
               for p in parts) or re.search(rb"[\x00-\x20~^:?*\[\\\x7f]|\.\.|@\{", name):
            raise fatal(f"'{decode(name)}' is not a valid ref name")

    def set_head_to(self, sha: bytes) -> None:
        """Move whatever HEAD points at (the branch, or HEAD itself when detached)."""
        ref = self.head_ref()
        self.set_ref(ref if ref is not None else b"HEAD", sha)

    def set_symbolic(self, name: bytes, target: bytes) -> None:
        self._check_refname(name)
        self._check_refname(target)
        self._write_ref(name, b"ref: " + target + b"\n")

    def detach_head(self, sha: bytes) -> None:
        self._write_ref(b"HEAD", sha + b"\n")

    def write_state(self, name: str, data: bytes) -> None:
        """A state file at the top of the git dir (ORIG_HEAD, MERGE_HEAD, MERGE_MSG...)."""
        try:
            self.gitdir.write(name, data)
        except LockError as e:
            raise fatal(e.reason) from None

    def read_state(self, name: str) -> bytes | None:
        return self.gitdir.read_opt(name)

    def remove_state(self, name: str) -> None:
        self.gitdir.unlink(name)

    def branches(self) -> list[bytes]:
        return sorted(self.refs.keys(base=b"refs/heads/"))

    def tags(self) -> list[bytes]:
        return sorted(self.refs.keys(base=b"refs/tags/"))

    def all_refs(self) -> dict[bytes, bytes]:
        out = {}
        for k in self.refs.allkeys():
            if k == b"HEAD":
                continue
            v = self.ref_sha(k)
            if v is not None:
                out[k] = v
        return out

    # -- index -----------------------------------------------------------------
    @property
    def index(self):
        if self._index is None:
            self.require_worktree("index")
            self._index = _read_index(self.gitdir)
        return self._index

    def lock_index(self) -> None:
        """Take ``index.lock`` now, as git does first thing in every command that writes the
        index (on a read-only repository this is where it stops, before any write)."""
        if self._index_lock is None:
            self._index_lock = self.gitdir.lock("index")

    def write_index(self) -> None:
        import io

        from dulwich.index import IndexChecksumWriter, write_index_dict

        idx = self.index
        idx._extensions = []  # TREE/UNTR caches would be stale: git rebuilds them

        class _Buf(io.BytesIO):
            def close(self):  # keep the bytes after the checksum writer closes us
                pass

        buf = _Buf()
        w = IndexChecksumWriter(buf, idx._object_format)
        write_index_dict(w, idx._byname, version=idx._version, extensions=[],
                         object_format=idx._object_format)
        w.close()
        self.lock_index()
        lk, self._index_lock = self._index_lock, None
        try:
            lk.write(buf.getvalue())
            lk.commit()
        except OSError as e:
            raise fatal(f"Unable to write new index file ({os.strerror(e.errno or errno.EIO)})") from None
        finally:
            lk.release()

    # -- work tree I/O through the core ----------------------------------------
    def wt(self, rel: bytes | str) -> str:
        top = self.require_worktree("")
        r = decode(rel) if isinstance(rel, bytes) else rel
        return vjoin(top, r)

    def wt_read(self, rel: bytes) -> tuple[int, bytes, os.stat_result] | None:
        """(git mode, content as stored, stat) of a work-tree file, or None when absent or
        a directory. Line endings are converted as .gitattributes/core.autocrlf say."""
        got = read_worktree_file(self.shell, self.wt(rel))
        if got is None or got[0] == 0o120000 or b"\r\n" not in got[1]:
            return got
        return got[0], self.attrs.to_git(rel, got[1], lambda: self._index_blob(rel)), got[2]

    def _index_blob(self, rel: bytes) -> bytes | None:
        from dulwich.index import ConflictedIndexEntry

        index = self.index
        if rel not in index or isinstance(index[rel], ConflictedIndexEntry):
            return None
        obj = self.get(index[rel].sha)
        return obj.as_raw_string() if obj is not None else None

    @property
    def attrs(self):
        if self._attrs is None:
            from pysh.ports.git.attrs import Attributes

            self._attrs = Attributes(self)
        return self._attrs

    def wt_write(self, rel: bytes, data: bytes, mode: int) -> os.stat_result | None:
        """Check content out; a symlink the core refuses to create is git's error, counted
        in ``checkout_errors``, and None comes back (the command goes on, as git's does)."""
        if mode not in (0o120000, 0o160000) and b"\n" in data:
            data = self.attrs.to_worktree(rel, data)
        try:
            return write_worktree_file(self.shell, self.require_worktree(""), rel, data, mode)
        except FileSystemError as e:
            if mode != 0o120000:
                raise
            self.ctx.ewrite(f"error: unable to create symlink {decode(rel)}: "
                            f"{os.strerror(e.errno or errno.EIO)}\n")
            self.checkout_errors += 1
            return None

    def wt_remove(self, rel: bytes) -> None:
        """Remove a tracked path from the work tree; a submodule's directory only if empty
        (git warns and leaves a checked-out one)."""
        st = self.wt_lstat(rel)
        if st is not None and _stat.S_ISDIR(st.st_mode):
            try:
                self.shell.core.rmdir(self.wt(rel))
            except FileSystemError as e:
                if e.errno in (errno.ENOTEMPTY, errno.EEXIST):
                    self.ctx.ewrite(f"warning: unable to rmdir '{decode(rel)}': "
                                    "Directory not empty\n")
                    return
                raise
        remove_worktree_file(self.shell, self.require_worktree(""), rel)

    def wt_lstat(self, rel: bytes) -> os.stat_result | None:
        return vlstat(self.shell, self.wt(rel))

    # -- display -----------------------------------------------------------------
    def prefix(self) -> str:
        """The cwd relative to the top ('' at the top, else 'sub/dir/')."""
        top = self.vtop
        if top is None:
            return ""
        cwd = self.shell.cwd
        if cwd == top:
            return ""
        if cwd.startswith(top.rstrip("/") + "/"):
            return cwd[len(top.rstrip("/")) + 1:] + "/"
        return ""

    def rel_to_cwd(self, path: bytes) -> str:
        """A repo path as git shows it relative to the cwd (``../x``)."""
        p = decode(path)
        pre = self.prefix()
        if not pre:
            return p
        r = posixpath.relpath(p or ".", pre.rstrip("/") or ".")
        return r + "/" if p.endswith("/") and not r.endswith("/") else r

    def short(self, sha: bytes, n: int = 7) -> str:
        return abbrev(self, sha, n)


def _read_index(gd: GitDir):
    """The index, parsed from bytes the core read (dulwich never opens it itself)."""
    import io

    from dulwich.index import Index, IndexChecksumReader, read_index_dict_with_version

    class SandboxIndex(Index):
        def read(self):  # noqa: D102 - only ever filled from bytes, below
            raise NotImplementedError

        def write(self):  # noqa: D102 - written by Repo.write_index through the git dir
            raise NotImplementedError

    idx = SandboxIndex("index", read=False)
    data = gd.read_opt("index")
    if not data:
        return idx
    try:
        reader = IndexChecksumReader(io.BytesIO(data), idx._object_format)
        entries, version, extensions = read_index_dict_with_version(reader, idx._object_format)
        idx._version = version
        idx._extensions = extensions
        for name, value in entries.items():
            idx.set_verbatim(name, value)
        reader.check_checksum(allow_empty=True)
    except Exception as e:
        raise fatal("index file corrupt") from e
    return idx


def gitfs_message(e: OSError) -> str:
    return os.strerror(e.errno or errno.EIO)


def abbrev(repo: Repo, sha: bytes, n: int = 7) -> str:
    s = decode(sha)
    n = max(4, min(40, n))
    while n < 40:
        pre = s[:n]
        if _unique_prefix(repo, pre):
            return pre
        n += 1
    return s


def _unique_prefix(repo: Repo, pre: str) -> bool:
    count = 0
    for _ in repo.object_store.iter_prefix(pre.encode()):
        count += 1
        if count > 1:
            return False
    return True


# ------------------------------------------------------------ work tree I/O
# Every call goes through the core (door A's operations): the leaf is never followed
# unless said, links are created by the core (its rules on targets apply).
def read_worktree_file(shell: Shell, vpath: str):
    """(git mode, content, stat) of a work-tree file or symlink; None when absent/other."""
    st = gitfs.lstat(shell, vpath)
    if st is None:
        return None
    if _stat.S_ISLNK(st.st_mode):
        try:
            target = shell.core.readlink(vpath)
        except OSError:
            return None
        return 0o120000, os.fsencode(target), st
    if not _stat.S_ISREG(st.st_mode):
        return None
    try:
        fd, st = gitfs.open_regular(shell, vpath)
    except OSError:
        return None
    try:
        data = gitfs._read_fd(fd, shell, vpath, None)
    except OSError:
        return None
    mode = 0o100755 if st.st_mode & 0o100 else 0o100644
    return mode, data, st


def _ensure_dirs(shell: Shell, top: str, rel_dir: str) -> None:
    """Make the directories of ``rel_dir`` under the top; a leading symlink or file is replaced
    (git never writes through a symlinked directory)."""
    core = shell.core
    cur = top
    for comp in [c for c in rel_dir.split("/") if c]:
        cur = vjoin(cur, comp)
        st = gitfs.lstat(shell, cur)
        if st is not None and _stat.S_ISDIR(st.st_mode):
            continue
        if st is not None:
            core.unlink(cur)
        core.mkdir(cur, 0o777 & ~shell.umask)


def write_worktree_file(shell: Shell, top: str, rel: bytes, data: bytes, mode: int) -> os.stat_result:
    r = decode(rel)
    parent = posixpath.dirname(r)
    if parent:
        _ensure_dirs(shell, top, parent)
    vpath = vjoin(top, r)
    st = gitfs.lstat(shell, vpath)
    if st is not None:
        if _stat.S_ISDIR(st.st_mode):
            _remove_tree(shell, vpath)
        else:
            shell.core.unlink(vpath)
    if mode == 0o120000:
        # door A: the core's rules for link targets apply (one leaving the mount is refused)
        shell.fs.symlink(os.fsdecode(data), vpath)
        return shell.core.stat(vpath, follow=False)
    perm = (0o777 if mode & 0o111 else 0o666) & ~shell.umask
    # O_EXCL: whatever appears at the name meanwhile is not written through
    fd = shell.core.open(vpath, os.O_WRONLY | os.O_CREAT | os.O_EXCL, perm)
    try:
        _common.write_all(fd, data, shell.budget)
        return os.fstat(fd)
    finally:
        os.close(fd)


def _remove_tree(shell: Shell, vpath: str) -> None:
    """Remove a directory tree through the safe walker (used when a file replaces a dir)."""
    dirs: list[str] = []
    for wd in shell.walk(vpath):
        dirs.append(wd.path)
        for f in wd.files:
            shell.core.unlink(f.path)
    for d in reversed(dirs):
        try:
            shell.core.rmdir(d)
        except OSError:
            pass


def remove_worktree_file(shell: Shell, top: str, rel: bytes) -> None:
    r = decode(rel)
    vpath = vjoin(top, r)
    try:
        shell.core.unlink(vpath)
    except FileSystemError as e:
        if e.errno != errno.ENOENT:
            raise
    # remove emptied parent directories, as git does
    parent = posixpath.dirname(r)
    while parent:
        try:
            shell.core.rmdir(vjoin(top, parent))
        except OSError:
            break
        parent = posixpath.dirname(parent)


def write_file_atomic(shell: Shell, vpath: str, data: bytes) -> None:
    """Replace a file that is not in a git dir (a global config file): lock file + rename."""
    try:
        gitfs.replace_file(shell, vpath, data)
    except LockError:
        raise
    except OSError as e:
        raise fatal(f"could not write {vpath}: {os.strerror(e.errno or errno.EIO)}") from None


def mkdir_p(shell: Shell, vpath: str, _top: str | None = None) -> None:
    """``mkdir -p`` through the core; errors name the directory asked for, with its errno."""
    top = _top or vpath
    st = vlstat(shell, vpath)
    if st is not None:
        if _stat.S_ISDIR(st.st_mode) or gitfs.is_dir(shell, vpath):
            return
        raise fatal(f"cannot mkdir {top}: File exists")
    err = None
    for attempt in (0, 1):
        try:
            shell.core.mkdir(vpath, 0o777 & ~shell.umask)
            return
        except FileSystemError as e:
            if e.errno == errno.EEXIST:
                return
            err = e
            if e.errno != errno.ENOENT or attempt:
                break
        parent = posixpath.dirname(vpath)
        if not parent or parent == vpath or parent == "/" or is_mount_root(shell, vpath):
            break
        mkdir_p(shell, parent, top)
    raise fatal(f"cannot mkdir {top}: {os.strerror(err.errno if err else errno.EIO)}")


def git_blob_sha(data: bytes) -> bytes:
    h = hashlib.sha1(b"blob %d\0" % len(data))
    h.update(data)
    return h.hexdigest().encode()


# ------------------------------------------------------------------ config
def config_get(ctx: Ctx, section: str, name: str, sub: str | None = None, *,
               repo: Repo | None = None) -> str | None:
    """A config value: ``-c`` overrides, then the repo config, then the virtual ~/.gitconfig."""
    key = f"{section}.{sub}.{name}" if sub is not None else f"{section}.{name}"
    for k, v in reversed(ctx.overrides):
        if _key_eq(k, key):
            return v
    if repo is None:
        repo = ctx.try_repo()
    sec = (section.encode(), sub.encode()) if sub is not None else (section.encode(),)
    if repo is not None:
        try:
            return decode(repo.config.get(sec, name.encode()))
        except KeyError:
            pass
    g = global_config(ctx)
    if g is not None:
        try:
            return decode(g.get(sec, name.encode()))
        except KeyError:
            pass
    return None


def _key_eq(a: str, b: str) -> bool:
    ap, bp = a.split("."), b.split(".")
    if len(ap) != len(bp):
        return False
    if ap[0].lower() != bp[0].lower() or ap[-1].lower() != bp[-1].lower():
        return False
    return ap[1:-1] == bp[1:-1]


def global_config_path(ctx: Ctx) -> str | None:
    home = ctx.env.get("HOME")
    if not home:
        return None
    return vjoin(ctx.shell.abspath(home), ".gitconfig")


def load_config_file(ctx: Ctx, vpath: str, *, expand: bool = True, shown: str | None = None,
                     must_exist: bool = False):
    """A config file by virtual path (None when absent); includes resolved in the sandbox.

    ``shown`` is the name git's messages use (the path as typed); ``must_exist`` makes an
    absent or unreadable file fatal, as git's reading of an explicit file is."""
    try:
        data = gitfs.read_file(ctx.shell, vpath)
    except OSError as e:
        if not must_exist:
            return None
        name = shown or vpath
        why = os.strerror(e.errno or errno.ENOENT)
        pre = f"warning: unable to access '{name}': {why}\n" if e.errno == errno.EISDIR else ""
        raise GitExit(f"{pre}fatal: unable to read config file '{name}': {why}", 128) from None
    return _parse_config(data, vpath, config_scope(ctx) if expand else None, expand=expand,
                         shown=shown)


def global_config(ctx: Ctx):
    """The sandbox's ``$HOME/.gitconfig`` (the host's is never read)."""
    if ctx._global is False:
        p = global_config_path(ctx)
        cfg = None
        if p is not None:
            try:
                cfg = load_config_file(ctx, p)
            except GitExit:
                cfg = None
        ctx._global = cfg
    return ctx._global


def config_bool(value: str | None, default: bool) -> bool:
    if value is None:
        return default
    v = value.strip().lower()
    if v in ("true", "yes", "on", "1", ""):
        return True
    if v in ("false", "no", "off", "0"):
        return False
    return default


# ---------------------------------------------------------------- identity
class Ident:
    __slots__ = ("name", "email", "time", "tz")

    def __init__(self, name: str, email: str, when: int, tz: int):
        self.name, self.email, self.time, self.tz = name, email, when, tz

    def raw(self) -> bytes:
        return encode(f"{self.name} <{self.email}>")


IDENT_HELP = """
*** Please tell me who you are.

Run

  git config --global user.email "you@example.com"
  git config --global user.name "Your Name"

to set your account's default identity.
Omit --global to set the identity only in this repository.

"""


def identity(ctx: Ctx, kind: str) -> Ident:
    """``kind`` is 'AUTHOR' or 'COMMITTER': the env first, then user.name/user.email."""
    env = ctx.env
    name = env.get(f"GIT_{kind}_NAME")
    if name is None:
        name = config_get(ctx, "user", "name")
    email = env.get(f"GIT_{kind}_EMAIL")
    if email is None:
        email = config_get(ctx, "user", "email") or env.get("EMAIL")
    if not email:
        user = env.get("USER") or env.get("LOGNAME") or "user"
        host = env.get("HOSTNAME") or "localhost"
        label = "Author" if kind == "AUTHOR" else "Committer"
        raise GitExit(f"{label} identity unknown\n{IDENT_HELP}"
                      f"fatal: unable to auto-detect email address (got '{user}@{host}.(none)')",
                      128)
    if name is None:
        name = env.get("USER") or "user"
    if not name.strip():
        raise fatal(f"empty ident name (for <{email}>) not allowed")
    date = env.get(f"GIT_{kind}_DATE")
    if date:
        parsed = parse_date(date)
        if parsed is None:
            raise fatal(f"invalid date format: {date}")
        when, tz = parsed
    else:
        when, tz = now(), _local_tz(ctx)
    return Ident(name.strip(), email.strip().strip("<>"), when, tz)


def _local_tz(ctx: Ctx) -> int:
    tzname = ctx.env.get("TZ", "UTC")
    if tzname in ("UTC", "UTC0", "GMT", ""):
        return 0
    try:
        import datetime as _dt
        from zoneinfo import ZoneInfo

        off = _dt.datetime.now(ZoneInfo(tzname)).utcoffset()
        return int(off.total_seconds()) if off else 0
    except Exception:
        return 0


# ------------------------------------------------------------------ dates
_MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
_DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]


def _tz_parse(s: str) -> int | None:
    m = re.fullmatch(r"([+-])(\d\d):?(\d\d)", s)
    if not m:
        if s in ("Z", "z", "UTC", "GMT"):
            return 0
        return None
    sign = -1 if m.group(1) == "-" else 1
    return sign * (int(m.group(2)) * 3600 + int(m.group(3)) * 60)


def parse_date(s: str, at: float | None = None) -> tuple[int, int] | None:
    """Git's date formats for GIT_*_DATE, --date and --since: (unix time, tz offset seconds)."""
    import calendar

    s = s.strip()
    m = re.fullmatch(r"@?(\d{5,})(?:\s+([+-]\d{4}))?", s)
    if m and (s.startswith("@") or m.group(2)):
        tz = _tz_parse(m.group(2)) if m.group(2) else 0
        return int(m.group(1)), tz or 0
    m = re.fullmatch(r"(\d{4})-(\d\d)-(\d\d)(?:[T ](\d\d):(\d\d)(?::(\d\d))?(?:\.\d+)?)?\s*"
                     r"(Z|[+-]\d\d:?\d\d)?", s)
    if m:
        y, mo, d = int(m.group(1)), int(m.group(2)), int(m.group(3))
        hh = int(m.group(4) or 0)
        mi = int(m.group(5) or 0)
        ss = int(m.group(6) or 0)
        tz = _tz_parse(m.group(7)) if m.group(7) else 0
        if tz is None:
            return None
        t = calendar.timegm((y, mo, d, hh, mi, ss, 0, 0, 0)) - tz
        return t, tz
    # RFC 2822: [Day,] DD Mon YYYY HH:MM:SS +ZZZZ ; or git's default: Day Mon DD HH:MM:SS YYYY +ZZZZ
    toks = s.replace(",", " ").split()
    day = mon = year = None
    hms = (0, 0, 0)
    tz = 0
    for t in toks:
        tl = t.lower()[:3]
        if tl in _MONTHS and t.isalpha():
            mon = _MONTHS.index(tl) + 1
        elif re.fullmatch(r"\d\d?:\d\d(:\d\d)?", t):
            parts = [int(x) for x in t.split(":")] + [0]
            hms = (parts[0], parts[1], parts[2])
        elif re.fullmatch(r"[+-]\d{4}", t):
            tz = _tz_parse(t) or 0
        elif t.isdigit() and len(t) == 4:
            year = int(t)
        elif t.isdigit() and len(t) <= 2:
            day = int(t)
    if day and mon and year:
        t = calendar.timegm((year, mon, day, *hms, 0, 0, 0)) - tz
        return t, tz
    # relative: "N units ago", "yesterday", "now"
    t0 = now() if at is None else at
    if s == "now":
        return int(t0), 0
    if s == "yesterday":
        return int(t0 - 86400), 0
    m = re.fullmatch(r"(\d+)[ .]*(second|minute|hour|day|week|month|year)s?[ .]*ago", s)
    if m:
        n = int(m.group(1))
        mult = {"second": 1, "minute": 60, "hour": 3600, "day": 86400, "week": 604800,
                "month": 2592000, "year": 31536000}[m.group(2)]
        return int(t0 - n * mult), 0
    return None


def fmt_tz(tz: int) -> str:
    sign = "-" if tz < 0 else "+"
    a = abs(tz)
    return f"{sign}{a // 3600:02d}{(a % 3600) // 60:02d}"


def _gm(t: int, tz: int):
    return time.gmtime(t + tz)


def fmt_date(t: int, tz: int, style: str = "default") -> str:
    g = _gm(t, tz)
    if style in ("default", ""):
        return (f"{_DAYS[g.tm_wday]} {_MONTHS[g.tm_mon - 1].capitalize()} {g.tm_mday} "
                f"{g.tm_hour:02d}:{g.tm_min:02d}:{g.tm_sec:02d} {g.tm_year} {fmt_tz(tz)}")
    if style == "iso":
        return (f"{g.tm_year:04d}-{g.tm_mon:02d}-{g.tm_mday:02d} "
                f"{g.tm_hour:02d}:{g.tm_min:02d}:{g.tm_sec:02d} {fmt_tz(tz)}")
    if style == "iso-strict":
        z = fmt_tz(tz)
        z = "Z" if tz == 0 and False else z[:3] + ":" + z[3:]
        return (f"{g.tm_year:04d}-{g.tm_mon:02d}-{g.tm_mday:02d}T"
                f"{g.tm_hour:02d}:{g.tm_min:02d}:{g.tm_sec:02d}{z}")
    if style == "rfc":
        return (f"{_DAYS[g.tm_wday]}, {g.tm_mday} {_MONTHS[g.tm_mon - 1].capitalize()} "
                f"{g.tm_year} {g.tm_hour:02d}:{g.tm_min:02d}:{g.tm_sec:02d} {fmt_tz(tz)}")
    if style == "short":
        return f"{g.tm_year:04d}-{g.tm_mon:02d}-{g.tm_mday:02d}"
    if style == "unix":
        return str(t)
    if style == "raw":
        return f"{t} {fmt_tz(tz)}"
    if style == "relative":
        return relative_date(t)
    if style.startswith("format:") or style.startswith("format-local:"):
        if style.startswith("format-local:"):
            tz = 0  # the sandbox's local time zone is UTC unless TZ says otherwise
            g = _gm(t, tz)
        return _strftime(style.split(":", 1)[1], g, tz)
    return fmt_date(t, tz)


def _strftime(fmt: str, g, tz: int) -> str:
    """strftime in the C locale, with git's own %z (the commit's zone) and %Z (empty)."""
    out = []
    i = 0
    while i < len(fmt):
        j = fmt.find("%", i)
        if j < 0 or j + 1 >= len(fmt):
            out.append(fmt[i:])
            break
        out.append(fmt[i:j])
        c = fmt[j + 1]
        if c == "z":
            out.append(fmt_tz(tz))
        elif c == "Z":
            pass
        elif c == "%":
            out.append("%")
        else:
            try:
                out.append(time.strftime("%" + c, g))
            except ValueError:
                out.append("%" + c)
        i = j + 2
    return "".join(out)


def now() -> int:
    """The clock of this git command (GIT_TEST_DATE_NOW pins it, as it does git's)."""
    v = _NOW.get()
    return v if v is not None else int(time.time())


def relative_date(t: int) -> str:
    """git's show_date_relative."""
    diff = now() - t
    if diff < 0:
        return "in the future"

    def n(k: int, unit: str) -> str:
        return f"{k} {unit}{'s' if k != 1 else ''} ago"
    if diff < 90:
        return n(diff, "second")
    diff = (diff + 30) // 60
    if diff < 90:
        return n(diff, "minute")
    diff = (diff + 30) // 60
    if diff < 36:
        return n(diff, "hour")
    diff = (diff + 12) // 24
    if diff < 14:
        return n(diff, "day")
    if diff < 70:
        return n((diff + 3) // 7, "week")
    if diff < 365:
        return n((diff + 15) // 30, "month")
    if diff < 1825:
        total = (diff * 12 * 2 + 365) // (365 * 2)
        years, months = divmod(total, 12)
        if months:
            return f"{years} year{'s' if years != 1 else ''}, {n(months, 'month')}"
        return n(years, "year")
    return n((diff + 183) // 365, "year")


# ------------------------------------------------------------ path quoting
_ESC = {7: "\\a", 8: "\\b", 9: "\\t", 10: "\\n", 11: "\\v", 12: "\\f", 13: "\\r",
        34: '\\"', 92: "\\\\"}


def quote_path(p: str | bytes, quote: bool = True, sp: bool = False) -> str:
    """git's core.quotePath: C-style quoting of odd bytes, in double quotes (``sp``: also
    when the name has a space, as status's short format does)."""
    b = encode(p) if isinstance(p, str) else p
    if not quote:
        return decode(b)
    need = sp and b" " in b
    out = []
    for c in b:
        if c in _ESC:
            out.append(_ESC[c])
            need = True
        elif c < 0x20 or c >= 0x7f:
            out.append(f"\\{c:03o}")
            need = True
        else:
            out.append(chr(c))
    s = "".join(out)
    return f'"{s}"' if need else s


# --------------------------------------------------------------- pathspecs
_GLOB = re.compile(r"[*?\[]")


class Pathspec:
    """Command-line paths, relative to the cwd, matched against repo paths (bytes)."""

    def __init__(self, repo: Repo, args: list[str]):
        self.repo = repo
        self.items: list[tuple[str, bool]] = []  # (repo-relative path, is_glob)
        self.args = list(args)
        top = repo.vtop or "/"
        for a in args:
            if a.startswith(":(top)") or a.startswith(":/"):
                rel = a.split(")", 1)[1] if a.startswith(":(") else a[2:]
            else:
                full = posixpath.normpath(vjoin(repo.shell.cwd, a) if not a.startswith("/") else a)
                if full == top:
                    rel = ""
                elif full.startswith(top.rstrip("/") + "/"):
                    rel = full[len(top.rstrip("/")) + 1:]
                else:
                    raise fatal(f"{a}: '{a}' is outside repository at '{top}'")
            if rel == ".":
                rel = ""
            self.items.append((rel, bool(_GLOB.search(rel))))

    def __bool__(self) -> bool:
        return bool(self.items)

    def match(self, path: bytes, is_dir: bool = False) -> bool:
        if not self.items:
            return True
        p = decode(path)
        for rel, glob in self.items:
            if _match_one(rel, glob, p):
                return True
        return False

    def match_index(self, path: bytes) -> int:
        """Which item matches (its index), or -1."""
        p = decode(path)
        for i, (rel, glob) in enumerate(self.items):
            if _match_one(rel, glob, p):
                return i
        return -1

    def could_contain(self, dir_path: str) -> bool:
        """Whether something under directory ``dir_path`` may match (to prune walks)."""
        if not self.items:
            return True
        for rel, glob in self.items:
            if rel == "" or glob:
                return True
            if rel == dir_path or rel.startswith(dir_path + "/") or dir_path.startswith(rel + "/"):
                return True
        return False


def _match_one(rel: str, glob: bool, p: str) -> bool:
    if rel == "":
        return True
    if p == rel or p.startswith(rel.rstrip("/") + "/"):
        return True
    if glob and fnmatch.fnmatchcase(p, rel):
        return True
    if glob and rel.endswith("/") is False and fnmatch.fnmatchcase(p, rel + "/*"):
        return True
    return False


# ----------------------------------------------------------- option parsing
class Opts:
    """A small git-style option parser (parse-options): bundling, --x=v, unique prefixes."""

    def __init__(self, cmd: str, spec: dict[str, tuple], usage: str = ""):
        # spec: option name -> (kind, dest) ; kind: 'flag' | 'arg' | 'multi' | 'optarg' | 'count'
        self.cmd = cmd
        self.spec = spec
        self.usage = usage

    def parse(self, args: list[str], *, stop_at_nonopt: bool = False,
              keep_dashdash: bool = False) -> tuple[dict, list[str], list[str] | None]:
        vals: dict = {}
        pos: list[str] = []
        after: list[str] | None = None
        i = 0
        while i < len(args):
            a = args[i]
            i += 1
            if a == "--":
                after = args[i:]
                break
            if a.startswith("--") and len(a) > 2:
                name, eq, val = a[2:].partition("=")
                key = self._long(name)
                if key is None:
                    if name.startswith("no-") and self._long(name[3:]) is not None:
                        k2 = self._long(name[3:])
                        kind, dest = self.spec[k2]
                        vals[dest] = False if kind != "multi" else []
                        continue
                    raise usage_error(f"error: unknown option `{name}'\n{self._usage()}")
                kind, dest = self.spec[key]
                if kind in ("flag", "count"):
                    if eq:
                        raise usage_error(f"error: option `{key}' takes no value\n{self._usage()}")
                    vals[dest] = vals.get(dest, 0) + 1 if kind == "count" else True
                elif kind == "optarg":
                    vals[dest] = val if eq else True
                elif kind == "lastarg":
                    # parse-options' LASTARG_DEFAULT: the next word, the default when none
                    if eq:
                        vals[dest] = val
                    elif i < len(args):
                        vals[dest] = args[i]
                        i += 1
                    else:
                        vals[dest] = True
                else:
                    if not eq:
                        if i >= len(args):
                            raise usage_error(f"error: option `{key}' requires a value\n{self._usage()}")
                        val = args[i]
                        i += 1
                    if kind == "multi":
                        vals.setdefault(dest, []).append(val)
                    else:
                        vals[dest] = val
                continue
            if a.startswith("-") and len(a) > 1:
                j = 1
                while j < len(a):
                    c = a[j]
                    j += 1
                    if c not in self.spec:
                        if c.isdigit() and "-NUM" in self.spec:
                            num = a[j - 1:]
                            vals[self.spec["-NUM"][1]] = int(re.match(r"\d+", num).group())
                            break
                        raise usage_error(f"error: unknown switch `{c}'\n{self._usage()}")
                    kind, dest = self.spec[c]
                    if kind in ("flag", "count"):
                        vals[dest] = vals.get(dest, 0) + 1 if kind == "count" else True
                    elif kind == "optarg":
                        rest = a[j:]
                        vals[dest] = rest if rest else True
                        break
                    else:
                        rest = a[j:]
                        if not rest:
                            if i >= len(args):
                                raise usage_error(f"error: switch `{c}' requires a value\n{self._usage()}")
                            rest = args[i]
                            i += 1
                        if kind == "multi":
                            vals.setdefault(dest, []).append(rest)
                        else:
                            vals[dest] = rest
                        break
                continue
            pos.append(a)
            if stop_at_nonopt:
                pos.extend(args[i:])
                break
        return vals, pos, after

    def _long(self, name: str) -> str | None:
        longs = [k for k in self.spec if len(k) > 1 and not k.startswith("-")]
        if name in longs:
            return name
        cands = [k for k in longs if k.startswith(name)]
        if len(cands) == 1 and len(name) >= 2:
            return cands[0]
        if len(cands) > 1:
            # an abbreviation that is ambiguous
            dests = {self.spec[k][1] for k in cands}
            if len(dests) == 1:
                return cands[0]
            raise usage_error(f"error: ambiguous option: {name} (could be --{cands[0]} or "
                              f"--{cands[1]})\n{self._usage()}")
        return None

    def _usage(self) -> str:
        return self.usage or f"usage: git {self.cmd} [<options>]"


# ----------------------------------------------------------------- reflogs
def append_reflog(repo: Repo, ref: bytes, old: bytes | None, new: bytes, msg: str,
                  ident: Ident | None = None) -> None:
    """One reflog line, as git writes with core.logAllRefUpdates (best effort)."""
    if ident is None:
        try:
            ident = identity(repo.ctx, "COMMITTER")
        except GitExit:
            return
    line = (old or b"0" * 40) + b" " + new + b" " + ident.raw() + \
        f" {ident.time} {fmt_tz(ident.tz)}\t".encode() + encode(msg.split("\n", 1)[0]) + b"\n"
    rel = "logs/" + decode(ref)
    try:
        repo.gitdir.mkdirs(posixpath.dirname(rel))
        repo.gitdir.append(rel, line)
    except (OSError, GitExit):
        return


def update_ref(repo: Repo, ref: bytes, new: bytes, msg: str, *, old: bytes | None = None,
               ident: Ident | None = None, log_head: bool = True) -> None:
    """Point ``ref`` at ``new`` and log it (and HEAD's reflog when HEAD is on ``ref``)."""
    if old is None:
        old = repo.ref_sha(ref)
    if ref == b"HEAD":
        target = repo.head_ref()
        if target is not None:
            repo.set_ref(target, new)
            append_reflog(repo, target, old, new, msg, ident)
        else:
            repo.detach_head(new)
        append_reflog(repo, b"HEAD", old, new, msg, ident)
        return
    repo.set_ref(ref, new)
    append_reflog(repo, ref, old, new, msg, ident)
    if log_head and repo.head_ref() == ref:
        append_reflog(repo, b"HEAD", old, new, msg, ident)


def cleanup_message(msg: str, strip_comments: bool = False) -> str:
    """git's message cleanup (``whitespace`` mode; ``strip`` also drops # lines)."""
    lines = [ln.rstrip() for ln in msg.split("\n")]
    if strip_comments:
        lines = [ln for ln in lines if not ln.startswith("#")]
    out: list[str] = []
    blank = False
    for ln in lines:
        if not ln:
            blank = True
            continue
        if blank and out:
            out.append("")
        blank = False
        out.append(ln)
    return "\n".join(out) + "\n" if out else ""


def subject_of(message: bytes) -> str:
    """git's %s: the first paragraph, lines joined by spaces."""
    text = decode(message)
    lines = text.split("\n")
    i = 0
    while i < len(lines) and not lines[i].strip():
        i += 1
    sub = []
    while i < len(lines) and lines[i].strip():
        sub.append(lines[i].strip())
        i += 1
    return " ".join(sub)
