"""What the ports share: verified host opens, buffered output, messages, ignore files.

Every port reaches disk through door B: ``shell.resolve()`` turns a virtual
path into the canonical host path *now*. Opening that string later could
lose a race against a concurrent symlink swap of one of its directories, so
the helpers here open the **parent directory** by the resolved string, check
through ``/proc/self/fd`` that the directory actually reached is the one the
core resolved (anything else: EACCES), and then act on the leaf relative to
that held directory fd with ``O_NOFOLLOW``. What a port reads or writes is
therefore always inside a mount, whatever happens to the names meanwhile.
"""

from __future__ import annotations

import errno
import os
import re
import stat as _stat
from collections.abc import Iterable
from pathlib import Path

from pysh.shellkit import FileSystemError, Shell, encode
from pysh.shellkit.capped import read_capped, write_fd
from pysh.shellkit.confine import open_canonical_dir, open_leaf
from pysh.shellkit.regex import Regex, compile_python

CHUNK = 64 * 1024


class Out:
    """Collects output and writes it in chunks of at least 64 KiB."""

    __slots__ = ("stream", "buf", "budget")

    def __init__(self, stream, budget=None):
        self.stream = stream
        self.buf = bytearray()
        self.budget = budget

    async def write(self, data: bytes) -> None:
        self.buf += data
        if len(self.buf) >= CHUNK:
            await self.flush()

    async def flush(self) -> None:
        if self.buf:
            data = bytes(self.buf)
            self.buf.clear()
            if self.budget is not None:
                self.budget.check()
            await self.stream.write(data)


def strerror(code: int) -> str:
    return os.strerror(code)


def fs_message(e: OSError, vpath: str | None = None) -> str:
    """``<virtual path>: <strerror>`` for any OSError, never its host-path text."""
    if isinstance(e, FileSystemError):
        path = e.vpath if e.vpath is not None else vpath
    else:
        path = vpath
    code = e.errno or errno.EIO
    return f"{path}: {os.strerror(code)}" if path is not None else os.strerror(code)


def fold(shell: Shell, text: str) -> str:
    """A library's message with every host root folded back to virtual."""
    return shell.display(text)


# ------------------------------------------------------------------ host I/O
def _held_parent(host: Path, vpath: str) -> int:
    """An O_PATH fd of ``host``'s parent, checked to be the directory the core resolved.

    Opened without following symlinks (the core's path is canonical): a directory swapped
    for a link since is refused before anything outside is even named."""
    parent = str(host.parent)
    try:
        dfd = open_canonical_dir(parent)
        if dfd is None:  # no openat2: open, then check where it landed (below)
            dfd = os.open(parent, os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as e:
        code = e.errno or errno.EIO
        raise FileSystemError(errno.EACCES if code == errno.ELOOP else code, vpath) from None
    try:
        real = os.readlink(f"/proc/self/fd/{dfd}")
    except OSError:
        real = None
    if real != parent:
        os.close(dfd)
        raise FileSystemError(errno.EACCES, vpath)
    return dfd


class HeldDir:
    """The verified parent directory of a resolved path; ops act on ``name`` in it."""

    __slots__ = ("fd", "name", "vpath")

    def __init__(self, host: Path, vpath: str):
        self.vpath = vpath
        self.name = host.name
        self.fd = _held_parent(host, vpath)

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def __enter__(self) -> HeldDir:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _err(self, e: OSError) -> FileSystemError:
        code = e.errno or errno.EIO
        if code == errno.ELOOP:
            code = errno.EACCES  # the leaf turned into a symlink after resolution
        return FileSystemError(code, self.vpath)

    def open(self, flags: int, mode: int = 0o666) -> int:
        """The core's leaf open: never blocks on a FIFO or device (ENXIO), never writes a
        file with other hard links (EPERM), never follows a symlink at the leaf."""
        try:
            return open_leaf(self.name, flags, mode, self.fd, self.vpath)
        except FileSystemError as e:
            raise self._err(e) from None

    def mkdir(self, mode: int = 0o777) -> None:
        try:
            os.mkdir(self.name, mode & 0o1777, dir_fd=self.fd)
        except OSError as e:
            raise self._err(e) from None

    def unlink(self) -> None:
        try:
            os.unlink(self.name, dir_fd=self.fd)
        except OSError as e:
            raise self._err(e) from None

    def lstat(self) -> os.stat_result:
        try:
            return os.stat(self.name, dir_fd=self.fd, follow_symlinks=False)
        except OSError as e:
            raise self._err(e) from None

    def chmod(self, mode: int) -> None:
        fd = self.open(os.O_PATH)
        try:
            os.chmod(f"/proc/self/fd/{fd}", mode & 0o777)
        except OSError as e:
            raise self._err(e) from None
        finally:
            os.close(fd)

    def utime(self, mtime: float) -> None:
        try:
            os.utime(self.name, (mtime, mtime), dir_fd=self.fd, follow_symlinks=False)
        except OSError as e:
            raise self._err(e) from None


def host_of(shell: Shell, vpath: str, *, follow: bool = True, write: bool = False) -> Path:
    """Door B, raising FileSystemError against ``vpath`` as typed by the user."""
    try:
        return shell.resolve(vpath, follow=follow, write=write)
    except FileSystemError as e:
        raise FileSystemError(e.errno, vpath) from None


def _memfd(data: bytes) -> int:
    """A read-only-in-use anonymous file holding ``data`` (a materialized pipe)."""
    fd = os.memfd_create("pysh-pipe", os.MFD_CLOEXEC)
    try:
        write_all(fd, data, None)  # private scratch, not a sandbox file
        os.lseek(fd, 0, os.SEEK_SET)
    except OSError:
        os.close(fd)
        raise
    return fd


def open_read(shell: Shell, vpath: str, *, host: Path | None = None) -> int:
    """A host fd for reading virtual ``vpath`` (devices like /dev/null included)."""
    data = shell.stream_data(vpath) if host is None and "/dev/" in vpath else None
    if data is not None:  # a pipe named as a file (<(cmd), /dev/stdin): its content
        return _memfd(data)
    if host is None:
        host = host_of(shell, vpath)
    if str(host).startswith("/dev/") and not shell.is_host_path(vpath):
        # an emulated device: what the library reads is what it holds now, within the
        # string limit (/dev/zero or /dev/urandom has no end for a library to stop at)
        return _memfd(_read_device(shell, str(host), vpath))
    with HeldDir(host, vpath) as d:
        if d.name in ("", ".", ".."):
            raise FileSystemError(errno.EISDIR, vpath)
        return d.open(os.O_RDONLY)


def _read_device(shell: Shell, host: str, vpath: str) -> bytes:
    try:
        fd = os.open(host, os.O_RDONLY | os.O_CLOEXEC)
    except OSError as e:
        raise FileSystemError(e.errno or errno.EIO, vpath) from None
    try:
        return _read_all(shell, fd, vpath)
    finally:
        os.close(fd)


def _read_all(shell: Shell, fd: int, vpath: str) -> bytes:
    """All of ``fd``, within the run's string limit, polling its deadline."""
    def read(n: int) -> bytes:
        try:
            return os.read(fd, n)
        except OSError as e:
            raise FileSystemError(e.errno or errno.EIO, vpath) from None
    return read_capped(read, shell.budget.limits.max_string_length, shell.budget)


def read_file(shell: Shell, vpath: str) -> bytes:
    """The whole content of a file operand ('-' is not handled here).

    Bounded by the run's string limit and polled against the budget, so that
    ``/dev/zero`` or a growing file cannot make a port read forever.
    """
    fd = open_read(shell, vpath)
    try:
        st = os.fstat(fd)
        if _stat.S_ISDIR(st.st_mode):
            raise FileSystemError(errno.EISDIR, vpath)
        shell.budget.check_string(st.st_size)  # refused before it is read
        return _read_all(shell, fd, vpath)
    finally:
        os.close(fd)


def open_write(shell: Shell, vpath: str, *, append: bool = False, exclusive: bool = False,
               mode: int = 0o666) -> int:
    host = host_of(shell, vpath, write=True)
    if str(host).startswith("/dev/") and not shell.is_host_path(vpath):
        try:
            return os.open(str(host), os.O_WRONLY | os.O_CLOEXEC)
        except OSError as e:
            raise FileSystemError(e.errno or errno.EIO, vpath) from None
    flags = os.O_WRONLY | os.O_CREAT
    flags |= os.O_APPEND if append else (os.O_EXCL if exclusive else os.O_TRUNC)
    with HeldDir(host, vpath) as d:
        return d.open(flags, mode & ~shell.umask)


def write_all(fd: int, data: bytes | memoryview, budget) -> None:
    """Write all of ``data`` to a sandbox file a port opened, within the run's write limits
    (``budget`` None only for a port's private scratch fd, such as a memfd)."""
    write_fd(budget, fd, data)


# ------------------------------------------------------------- ignore files
class _GuardedRegex:
    """What pathspec calls on a pattern's regex, on the regex engine with the run's deadline
    (pathspec compiles ``*a*a*a*b`` to a backtracking ``re`` pattern: polynomial blow-up
    on a long name)."""

    __slots__ = ("rx",)

    def __init__(self, rx: Regex):
        self.rx = rx

    def match(self, s):
        return self.rx.match(s)

    def search(self, s):
        return self.rx.search(s)

    @property
    def pattern(self):
        return self.rx.source


def guard_spec(spec, budget):
    """Make a pathspec spec's patterns match under ``budget`` (see _GuardedRegex)."""
    for p in getattr(spec, "patterns", ()):
        rx = getattr(p, "regex", None)
        if isinstance(rx, re.Pattern) and isinstance(rx.pattern, str):
            p.regex = _GuardedRegex(compile_python(
                rx.pattern, icase=bool(rx.flags & re.I), dotall=bool(rx.flags & re.S),
                multiline=bool(rx.flags & re.M), budget=budget))
    return spec


def _load_spec(lines: Iterable[str], budget=None):
    import pathspec

    lines = list(lines)
    try:
        spec = pathspec.GitIgnoreSpec.from_lines(lines)
    except Exception:  # a malformed pattern: ignore the line-set like git would skip it
        good = []
        for ln in lines:
            try:
                pathspec.GitIgnoreSpec.from_lines([ln])
                good.append(ln)
            except Exception:
                continue
        spec = pathspec.GitIgnoreSpec.from_lines(good)
    return guard_spec(spec, budget)


class IgnoreLevel:
    """The ignore rules that one directory contributes (several files, highest priority first)."""

    __slots__ = ("base", "specs")

    def __init__(self, base: str, specs: list):
        self.base = base  # the directory's path relative to the walk root ('' for the root)
        self.specs = specs


class Ignorer:
    """gitignore-style filtering during a walk, as ripgrep and fd apply it.

    ``.gitignore`` and ``.git/info/exclude`` count only inside a git repository
    (a directory with ``.git`` at or above the walk root, up to the mount root);
    ``.ignore`` and the tool's own file (``.rgignore``/``.fdignore``) always do.
    No global excludes file of the host is ever read.
    """

    def __init__(self, shell: Shell, own_names: tuple[str, ...], *, git: bool = True,
                 dot: bool = True, require_git: bool = True, extra_files: Iterable[str] = ()):
        self.shell = shell
        self.own = own_names
        self.git = git
        self.dot = dot
        self.require_git = require_git
        self.extra: list = []
        for vpath in extra_files:
            try:
                text = read_file(shell, vpath).decode("utf-8", "replace")
            except OSError:
                continue
            self.extra.append(_load_spec(text.splitlines(), shell.budget))

    def _read_lines(self, vdir: str, name: str) -> list[str] | None:
        vpath = vdir.rstrip("/") + "/" + name
        try:
            data = read_file(self.shell, vpath)
        except OSError:
            return None
        return data.decode("utf-8", "replace").splitlines()

    def in_repo(self, vdir: str) -> bool:
        """Whether ``vdir`` or an ancestor (within its mount) holds a ``.git``."""
        d = vdir.rstrip("/") or "/"
        while True:
            if vexists(self.shell, d.rstrip("/") + "/.git", follow=False):
                return True
            if d == "/" or self._is_mount_root(d):
                return False
            d = d.rsplit("/", 1)[0] or "/"

    def _is_mount_root(self, d: str) -> bool:
        try:
            return self.shell.core.table.get(d) is not None
        except Exception:
            return True

    def parents_levels(self, vroot: str) -> list[tuple[str, list]]:
        """Ignore files of the ancestors of the walk root (ripgrep reads those too)."""
        out: list[tuple[str, list]] = []
        d = vroot.rstrip("/") or "/"
        chain = []
        while d != "/" and not self._is_mount_root(d):
            d = d.rsplit("/", 1)[0] or "/"
            chain.append(d)
        for anc in reversed(chain):
            specs = self.level_specs(anc, True)
            if specs:
                rel = os.path.relpath(vroot, anc)
                out.append((rel, specs))
        return out

    def level_specs(self, vdir: str, repo: bool, entries: set[str] | None = None) -> list:
        names: list[str] = []
        names.extend(self.own)
        if self.dot:
            names.append(".ignore")
        if self.git and (repo or not self.require_git):
            names.append(".gitignore")
        specs = []
        for name in names:
            if entries is not None and name not in entries:
                continue
            lines = self._read_lines(vdir, name)
            if lines:
                specs.append(_load_spec(lines, self.shell.budget))
        if self.git and repo and (entries is None or ".git" in entries):
            lines = self._read_lines(vdir, ".git/info/exclude")
            if lines:
                specs.append(_load_spec(lines, self.shell.budget))
        return specs


def ignored(levels: list[tuple[str, list]], rel: str, is_dir: bool, extra=()) -> bool:
    """Whether ``rel`` (relative to the walk root) is ignored; deepest level wins."""
    for base_rel, specs in reversed(levels):
        if base_rel.startswith(".."):
            # an ancestor of the root: paths are relative to it
            sub = os.path.normpath(os.path.join(base_rel, rel)) if rel else base_rel
        else:
            if base_rel and not (rel == base_rel or rel.startswith(base_rel + "/")):
                continue
            sub = rel[len(base_rel) + 1:] if base_rel else rel
        if not sub or sub == ".":
            continue
        cand = sub + "/" if is_dir else sub
        for spec in specs:  # highest priority first
            r = spec.check_file(cand)
            if r.include is not None:
                return r.include
    for spec in extra:
        r = spec.check_file(rel + "/" if is_dir else rel)
        if r.include is not None:
            return r.include
    return False


# ----------------------------------------------------------------- globbing
def glob_regex(glob: str, *, case_insensitive: bool = False, budget=None) -> Regex:
    """A shell-style glob on names (``*``, ``?``, ``[...]``, ``{a,b}``) as a regex for
    ``match``; with the run's budget, a pattern that backtracks stops at the deadline."""
    return compile_python(_glob_body(glob) + r"\Z", icase=case_insensitive, dotall=True,
                          budget=budget)


def _glob_body(glob: str) -> str:
    out = []
    i, n = 0, len(glob)
    depth = 0
    while i < n:
        c = glob[i]
        i += 1
        if c == "*":
            if i < n and glob[i] == "*":
                while i < n and glob[i] == "*":
                    i += 1
                if i < n and glob[i] == "/":
                    i += 1
                    out.append("(?:.*/)?")
                else:
                    out.append(".*")
            else:
                out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            j = i
            if j < n and glob[j] in "!^":
                j += 1
            if j < n and glob[j] == "]":
                j += 1
            while j < n and glob[j] != "]":
                j += 1
            if j >= n:
                out.append(r"\[")
            else:
                body = glob[i:j]
                i = j + 1
                if body[:1] in "!^":
                    body = "^" + body[1:]
                out.append("[" + body.replace("\\", "\\\\") + "]")
        elif c == "{":
            depth += 1
            out.append("(?:")
        elif c == "}" and depth:
            depth -= 1
            out.append(")")
        elif c == "," and depth:
            out.append("|")
        elif c == "\\" and i < n:
            out.append(re.escape(glob[i]))
            i += 1
        else:
            out.append(re.escape(c))
    return "".join(out)


def encode_path(p: str) -> bytes:
    return encode(p)


def stdin_is_readable(shell: Shell) -> bool:
    """Whether a command with no path operands should read stdin (ripgrep's heuristic).

    A pipe, a redirected file or here-doc data counts; no stdin, an empty one and
    a terminal do not (there rg and fd search the working directory).
    """
    from pysh.shellkit.streams import BytesInput, FdInput, FileInput, NullInput, PipeReader

    s = shell.stdin
    if isinstance(s, NullInput):
        return False
    if isinstance(s, PipeReader | FileInput):
        return True
    if isinstance(s, BytesInput):
        return bool(s._buf)
    if isinstance(s, FdInput):
        try:
            st = os.fstat(s.fd)
        except OSError:
            return False
        return _stat.S_ISFIFO(st.st_mode) or _stat.S_ISREG(st.st_mode)
    return False


# ------------------------------------------------- metadata through door B
def _is_mount_root_host(shell: Shell, host: Path) -> bool:
    try:
        shell.to_virtual(host.parent)
        return False
    except ValueError:
        return True


def vstat(shell: Shell, vpath: str, *, follow: bool = True) -> os.stat_result:
    """stat of a virtual path through door B (lstat when ``follow`` is False)."""
    if "/dev/" in vpath and shell.stream_data(vpath) is not None:
        return shell.fs.stat(vpath)  # a materialized pipe
    host = host_of(shell, vpath, follow=follow)
    # (a link's lstat is the link's, also when what it points to is out of reach)
    if _is_mount_root_host(shell, host) or not shell.is_host_path(vpath, follow=follow):
        try:
            return os.stat(str(host))
        except OSError as e:
            raise FileSystemError(e.errno or errno.EIO, vpath) from None
    with HeldDir(host, vpath) as d:
        return d.lstat()


def vexists(shell: Shell, vpath: str, *, follow: bool = True) -> bool:
    try:
        vstat(shell, vpath, follow=follow)
        return True
    except OSError:
        return False


def vis_dir(shell: Shell, vpath: str) -> bool:
    try:
        return _stat.S_ISDIR(vstat(shell, vpath).st_mode)
    except OSError:
        return False


def vrealpath(shell: Shell, vpath: str) -> str:
    host = host_of(shell, vpath)
    try:
        return shell.to_virtual(host)
    except ValueError:
        raise FileSystemError(errno.EACCES, vpath) from None


def vunlink(shell: Shell, vpath: str) -> None:
    """Remove the name ``vpath`` through the core (in an overlay mount a lower file is
    hidden, which no unlink of a host path can do)."""
    try:
        shell.core.unlink(shell.abspath(vpath))
    except FileSystemError as e:
        raise FileSystemError(e.errno, vpath) from None


def vlistdir(shell: Shell, vpath: str) -> list[tuple[str, str]]:
    """(name, type) of a directory's entries ('d', 'f', 'l', 'o'), via the safe walker."""
    errors: list = []
    gen = shell.walk(vpath, onerror=errors.append)
    try:
        wd = next(iter(gen), None)
    finally:
        gen.close()
    if wd is None:
        if errors:
            raise errors[0]
        raise FileSystemError(errno.ENOTDIR, vpath)
    return [(e.name, e.type) for e in wd.dirs] + [(e.name, e.type) for e in wd.files]
