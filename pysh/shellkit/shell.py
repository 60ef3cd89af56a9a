"""The Shell a command sees: env, cwd, fds, the two doors, the budget.

The interpreter builds one per command invocation (cheaply: ``child()``);
commands never touch ``os.environ``, ``os.getcwd()``, ``sys.stdout`` or the
host file system directly.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Iterator, Mapping

from pysh.shellkit.confine import HOST, STREAM, Confinement, WalkDir
from pysh.shellkit.errors import FileSystemError
from pysh.shellkit.filesystem import FileSystem
from pysh.shellkit.limits import Budget
from pysh.shellkit.streams import (
    FileInput,
    FileOutput,
    InputStream,
    MaterialInput,
    NullInput,
    NullOutput,
    OutputStream,
)
from pysh.shellkit.text import encode

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)

if TYPE_CHECKING:
    from pathlib import Path
    from typing import Protocol

    from pysh.shellkit.commands import CommandRegistry
    from pysh.shellkit.network import Network
else:
    Protocol = object  # Executor is checked structurally by type checkers only


class Executor(Protocol):
    """What the interpreter offers commands that run other commands (xargs, find -exec, awk)."""

    async def run_argv(self, shell: Shell, argv: list[str]) -> int:
        """Run one command (function, builtin or registered) with ``shell``'s fds, env and cwd."""
        ...

    async def run_script(self, shell: Shell, source: str) -> int:
        """Run shell source in a child shell (``sh -c``), with ``shell``'s fds, env and cwd."""
        ...

    def processes(self) -> list[ProcessInfo]:
        """The virtual process table: the shell itself, its jobs, running commands."""
        ...


class ProcessInfo:
    """One row of the virtual process table (``ps``, ``pgrep``)."""

    __slots__ = ("pid", "ppid", "command", "state", "started")

    def __init__(self, pid: int, ppid: int, command: str, state: str = "R",
                 started: float = 0.0):
        self.pid = pid
        self.ppid = ppid
        self.command = command
        self.state = state  # R running, S sleeping/waiting, T stopped, Z done
        self.started = started  # time.time() when it started

    def __repr__(self) -> str:
        return f"ProcessInfo({self.pid}, {self.command!r})"


_NULL_IN = NullInput()
_NULL_OUT = NullOutput()


class Shell:
    """A command's view of its sandbox."""

    __slots__ = ("core", "_fs_root", "_fs", "cwd", "env", "fds", "budget", "executor",
                 "registry", "umask", "network")

    def __init__(
        self,
        core: Confinement,
        fs: FileSystem,
        *,
        cwd: str = "/",
        env: Mapping[str, str] | None = None,
        fds: dict[int, InputStream | OutputStream] | None = None,
        budget: Budget | None = None,
        executor: Executor | None = None,
        registry: CommandRegistry | None = None,
        umask: int = 0o022,
        network: Network | None = None,
    ):
        self.core = core
        self._fs_root = fs
        self._fs: FileSystem | None = None
        self.cwd = cwd
        self.env: dict[str, str] = dict(env or {})
        self.fds: dict[int, InputStream | OutputStream] = fds if fds is not None else {}
        self.budget = budget or Budget()
        self.executor = executor
        self.registry = registry
        self.umask = umask
        self.network = network  # the embedder's network policy (None: no network)

    def child(self, **changes) -> Shell:
        """A copy sharing the core and budget, with ``changes`` applied (fds, env, cwd, ...)."""
        new = Shell.__new__(Shell)
        new.core = self.core
        new._fs_root = self._fs_root
        new._fs = None
        new.cwd = changes.pop("cwd", self.cwd)
        new.env = dict(changes.pop("env", self.env))
        new.fds = dict(changes.pop("fds", self.fds))
        new.budget = changes.pop("budget", self.budget)
        new.executor = changes.pop("executor", self.executor)
        new.registry = changes.pop("registry", self.registry)
        new.umask = changes.pop("umask", self.umask)
        new.network = self.network
        if changes:
            raise TypeError(f"unknown Shell fields: {sorted(changes)}")
        return new

    # -- stdio --------------------------------------------------------------
    @property
    def stdin(self) -> InputStream:
        s = self.fds.get(0)
        return s if isinstance(s, InputStream) else _NULL_IN

    @property
    def stdout(self) -> OutputStream:
        s = self.fds.get(1)
        return s if isinstance(s, OutputStream) else _NULL_OUT

    @property
    def stderr(self) -> OutputStream:
        s = self.fds.get(2)
        return s if isinstance(s, OutputStream) else _NULL_OUT

    async def error(self, prog: str, message: str) -> None:
        """Write ``prog: message`` and a newline to stderr."""
        await self.stderr.write(encode(f"{prog}: {message}\n"))

    # -- door A -------------------------------------------------------------
    @property
    def fs(self) -> FileSystem:
        """The FileSystem door, with relative paths taken against this shell's cwd."""
        fs = self._fs
        if fs is None or fs.cwd != self.cwd or fs.budget is not self.budget:
            fs = self._fs = self._fs_root.at(self.cwd).with_budget(self.budget)
            if any(isinstance(s, MaterialInput) for s in self.fds.values()):
                fs = self._fs = StreamFileSystem(fs, self)
        return fs

    # -- pipes named as files ---------------------------------------------------
    async def materialize(self, words) -> None:
        """Read to its end every pipe that ``words`` name as a file (/dev/fd/N of a process
        substitution, /dev/stdin), so that both doors can open it like a file. Bounded by
        the string limit."""
        for w in words:
            i = w.find("/dev/")
            if i < 0 or (i and w[i - 1] not in "= "):  # FILE, --opt=FILE, ".read FILE"
                continue
            node = self._stream_node(w[i:])
            s = self.fds.get(node) if node is not None else None
            if not isinstance(s, InputStream) or isinstance(s, MaterialInput):
                continue
            cap = self.budget.limits.max_string_length
            buf = bytearray()
            async for chunk in s.chunks():
                buf += chunk
                self.budget.check()
                if cap is not None and len(buf) > cap:
                    self.budget.check_string(len(buf))
            self.fds[node] = MaterialInput(bytes(buf))
            self._fs = None

    def stream_data(self, path: str) -> bytes | None:
        """The content of a materialized pipe ``path`` names, else None."""
        node = self._stream_node(path)
        s = self.fds.get(node) if node is not None else None
        return s.data if isinstance(s, MaterialInput) else None

    def abspath(self, path: str) -> str:
        return self.fs.abspath(path)

    def open_input(self, path: str) -> InputStream:
        """A readable stream for a command's file operand: '-' and /dev/stdin, /dev/fd/N are fds."""
        if path == "-":
            return self.stdin.dup()
        node = self._stream_node(path)
        if node is not None:
            s = self.fds.get(node)
            if not isinstance(s, InputStream):
                raise FileSystemError(errno.EBADF, path)
            return s.dup()
        return FileInput(self.fs.open(path, "rb"))

    def open_output(self, path: str, *, append: bool = False) -> OutputStream:
        """A writable stream: /dev/stdout, /dev/stderr, /dev/fd/N are the shell's fds."""
        node = self._stream_node(path)
        if node is not None:
            s = self.fds.get(node)
            if not isinstance(s, OutputStream):
                raise FileSystemError(errno.EBADF, path)
            return s.dup()
        return FileOutput(self.fs.open(path, "ab" if append else "wb",
                                       perm=0o666 & ~self.umask))

    def _stream_node(self, path: str) -> int | None:
        if not path:
            return None
        if not path.startswith("/dev/") and not (self.cwd.startswith("/dev") and "/" not in path):
            return None
        try:
            res = self.core.kind(self.abspath(path))
        except FileSystemError:
            return None
        return res.fdnum if res.kind == STREAM else None

    # -- door B -------------------------------------------------------------
    def resolve(self, path: str | Path, *, follow: bool = True, write: bool = False) -> Path:
        """The canonical host path of a virtual path (absolute, or relative to ``cwd``).

        Confined by the same core as the FileSystem door: the same path gets the
        same target or the same denial through either. ``write=True`` also refuses
        read-only mounts. The leaf may not exist yet (an output file).

        The returned string is canonical and under a mount's host root *now*. A
        port that opens it later can still lose a race against a concurrent
        symlink swap of one of its directories; only an OS layer underneath
        (Landlock) closes that window for code that opens host paths itself.
        Where a port can, it should use ``shell.fs``-style fd-held operations instead.
        """
        return self.core.resolve_host(self.abspath(str(path)), follow=follow, write=write)

    def to_virtual(self, host_path: str | Path) -> str:
        """The virtual path of a host path under some mount's host root (ValueError otherwise)."""
        return self.core.to_virtual(host_path)

    def display(self, text: str) -> str:
        """``text`` with every mount's host root folded back to its virtual path."""
        return self.core.display(text)

    def walk(self, top: str, *, follow_symlinks: bool = False, onerror=None) -> Iterator[WalkDir]:
        """The safe walker (held dir fds; links re-checked by the core) for ports."""
        return self.core.walk(self.abspath(top), follow_symlinks=follow_symlinks, onerror=onerror)

    def is_host_path(self, path: str, *, follow: bool = True) -> bool:
        """True when ``path`` names an entry of a mounted host directory (not a synthetic node)."""
        try:
            return self.core.kind(self.abspath(path), follow=follow).kind == HOST
        except FileSystemError:
            return False

    # -- running other commands ----------------------------------------------
    async def run(self, argv: list[str], *, stdin: InputStream | None = None,
                  stdout: OutputStream | None = None, stderr: OutputStream | None = None,
                  env: Mapping[str, str] | None = None, cwd: str | None = None) -> int:
        """Run a command in-process through the interpreter (127 when there is none)."""
        if self.executor is None:
            await self.error(argv[0] if argv else "pysh", "cannot run commands here")
            return 127
        return await self.executor.run_argv(self._with(stdin, stdout, stderr, env, cwd), argv)

    async def run_script(self, source: str, *, stdin: InputStream | None = None,
                         stdout: OutputStream | None = None, stderr: OutputStream | None = None,
                         env: Mapping[str, str] | None = None, cwd: str | None = None) -> int:
        if self.executor is None:
            await self.error("sh", "cannot run commands here")
            return 127
        return await self.executor.run_script(self._with(stdin, stdout, stderr, env, cwd), source)

    def processes(self) -> list[ProcessInfo]:
        """The virtual process table (empty when no interpreter drives this shell)."""
        fn = getattr(self.executor, "processes", None)
        return list(fn()) if fn is not None else []

    def _with(self, stdin, stdout, stderr, env, cwd) -> Shell:
        fds = dict(self.fds)
        if stdin is not None:
            fds[0] = stdin
        if stdout is not None:
            fds[1] = stdout
        if stderr is not None:
            fds[2] = stderr
        changes: dict = {"fds": fds}
        if env is not None:
            changes["env"] = env
        if cwd is not None:
            changes["cwd"] = cwd
        return self.child(**changes)


class StreamFileSystem(FileSystem):
    """The FileSystem door of a shell holding materialized pipes: /dev/fd/N and /dev/stdin
    open as read-only files with the pipe's content; everything else is the inner door's."""

    def __init__(self, inner: FileSystem, shell: Shell):
        self._inner = inner
        self._shell = shell
        self.cwd = inner.cwd
        self.budget = inner.budget

    def __getattr__(self, name):
        return getattr(self._inner, name)

    def at(self, cwd: str) -> FileSystem:
        return StreamFileSystem(self._inner.at(cwd), self._shell)

    def with_budget(self, budget) -> FileSystem:
        return StreamFileSystem(self._inner.with_budget(budget), self._shell)

    def abspath(self, path: str) -> str:
        return self._inner.abspath(path)

    def _data(self, path: str) -> bytes | None:
        return self._shell.stream_data(path) if "/dev/" in path else None

    def open(self, path: str, mode: str = "rb", *, perm: int = 0o666):
        data = self._data(path)
        if data is None:
            return self._inner.open(path, mode, perm=perm)
        if mode not in ("rb", "br"):
            raise FileSystemError(errno.EBADF, path)
        import io

        return io.BytesIO(data)

    def stat(self, path: str) -> os.stat_result:
        data = self._data(path)
        if data is None:
            return self._inner.stat(path)
        return _pipe_stat(len(data))

    def lstat(self, path: str) -> os.stat_result:
        data = self._data(path)
        return self._inner.lstat(path) if data is None else _pipe_stat(len(data))

    def access(self, path: str, mode: int) -> bool:
        if self._data(path) is not None:
            return not mode & (os.W_OK | os.X_OK)
        return self._inner.access(path, mode)



def _delegate(name: str):
    def method(self, *args, **kwargs):
        return getattr(self._inner, name)(*args, **kwargs)
    method.__name__ = name
    return method


# every other operation of the door is the inner door's
for _name in FileSystem.__abstractmethods__ - set(vars(StreamFileSystem)):
    setattr(StreamFileSystem, _name, _delegate(_name))
StreamFileSystem.__abstractmethods__ = frozenset()


def _pipe_stat(size: int) -> os.stat_result:
    import stat as _st

    return os.stat_result((_st.S_IFIFO | 0o600, 0, 0, 1, 1000, 1000, size, 0, 0, 0))
