"""The Python API: :class:`Sandbox`, one persistent shell session in its own sandbox.

::

    from pysh import Sandbox

    with Sandbox("/path/to/project") as sb:        # the directory is seen as /batch
        r = sb.run("ls | wc -l")
        print(r.stdout, r.exit_code)
        sb.run("cd src; X=1")                       # state persists between calls
        sb.run("echo $X; pwd").stdout               # '1\\n/batch/src\\n'

``run()`` never raises for anything the script does: syntax errors, failed
commands, breached limits and timeouts all come back in the
:class:`RunResult`. Only misuse of the API itself (bad arguments, a closed
sandbox) raises.

``await sb.arun(...)`` is the same call for async code (anyio: asyncio or
trio). Either way the script runs on the sandbox's own worker thread and event
loop (:mod:`pysh.shellkit.worker`), which the kernel restricts to the sandbox's
directories where Linux offers Landlock (:meth:`Sandbox.info` says what this
machine gives); the caller waits on it. A busy script in one sandbox never stalls
another's loop, nor the caller's. A warm call costs tens of microseconds.
"""

from __future__ import annotations

import inspect
import json
import os
import threading
import time
import weakref
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pysh.shellkit import BrokenPipe, BytesInput, CaptureOutput, Limits, Mount
from pysh.shellkit.commands import CommandTarget
from pysh.shellkit.limits import STATUS_TIMEOUT
from pysh.shellkit.network import Network

if TYPE_CHECKING:  # the change-set module loads when an overlay's changes are asked for
    from pysh.shellkit.changes import ApplyResult, Change

__all__ = ["Limits", "Network", "RunResult", "Sandbox", "SandboxClosed", "tool_schema"]

INTERNAL_ERROR_STATUS = 70  # EX_SOFTWARE: the interpreter itself failed (a bug, not the script)


class SandboxClosed(RuntimeError):
    """The sandbox was used after :meth:`Sandbox.close`."""


@dataclass(frozen=True)
class RunResult:
    """What one :meth:`Sandbox.run` produced.

    ``stdout``/``stderr`` are decoded as UTF-8 with ``surrogateescape`` (so
    ``encode("utf-8", "surrogateescape")`` gives the bytes back) and, when the
    stream hit the output cap, end with a one-line truncation marker;
    ``stdout_bytes``/``stderr_bytes`` are exactly the bytes captured.
    """

    stdout: str
    stderr: str
    stdout_bytes: bytes
    stderr_bytes: bytes
    exit_code: int
    timed_out: bool = False
    truncated: bool = False
    duration: float = 0.0

    @property
    def ok(self) -> bool:
        return self.exit_code == 0

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of ``pysh --json``."""
        return {"stdout": self.stdout, "stderr": self.stderr, "exit_code": self.exit_code,
                "timed_out": self.timed_out, "truncated": self.truncated,
                "duration": self.duration}

    def for_llm(self) -> str:
        """The result as an LLM reads it best: stdout, then stderr, then the status if non-zero."""
        parts: list[str] = []
        if self.stdout:
            parts.append(self.stdout if self.stdout.endswith("\n") else self.stdout + "\n")
        if self.stderr:
            err = self.stderr if self.stderr.endswith("\n") else self.stderr + "\n"
            parts.append("[stderr]\n" + err)
        if self.timed_out:
            parts.append(f"[timed out: the command was stopped (exit status {self.exit_code})]\n")
        elif self.exit_code != 0:
            parts.append(f"[exit status: {self.exit_code}]\n")
        if not parts:
            parts.append("[no output]\n")
        return "".join(parts)


def _marker(stream: str, cap: int) -> str:
    return f"\n[pysh: {stream} truncated: output exceeded the {cap}-byte limit]\n"


class _CappedCapture(CaptureOutput):
    """A capture that stops the writer (like a closed pipe) once the cap is reached.

    Dropping bytes silently would let ``yes`` spin until the deadline; raising
    BrokenPipe ends the producing command the way ``yes | head -c N`` does.
    """

    async def write(self, data: bytes) -> None:
        if self.truncated:
            raise BrokenPipe()
        self.write_nowait(data)
        if self.truncated:
            raise BrokenPipe()


def _decode(b: bytes) -> str:
    return b.decode("utf-8", "surrogateescape")


def _to_bytes(data, what: str) -> bytes:
    if data is None:
        return b""
    if isinstance(data, str):
        return data.encode("utf-8", "surrogateescape")
    if isinstance(data, bytes | bytearray | memoryview):
        return bytes(data)
    raise TypeError(f"{what} must be str or bytes, not {type(data).__name__}")


def _check_command(func) -> None:
    if isinstance(func, str):
        if ":" not in func:
            raise TypeError("a command string must be 'module:function'")
        return
    if not callable(func):
        raise TypeError("a command is an async function (shell, argv) -> int")
    target = func if inspect.isfunction(func) or inspect.ismethod(func) else getattr(func, "__call__", func)  # noqa: B004
    if not inspect.iscoroutinefunction(target):
        raise TypeError("a command must be an async function: async def main(shell, argv) -> int")


def _rel_ok(rel) -> bool:
    """A path below a mount root as a snapshot may name it: relative, normalised."""
    return isinstance(rel, str) and bool(rel) and "\0" not in rel and not rel.startswith("/") \
        and all(p not in ("", ".", "..") for p in rel.split("/"))


def _mount(spec) -> Mount:
    if isinstance(spec, Mount):
        return spec
    if isinstance(spec, tuple | list) and len(spec) in (2, 3):
        host, virtual = spec[0], spec[1]
        kind = spec[2] if len(spec) == 3 else False
        if kind == "overlay":
            return Mount(virtual, str(host), overlay=True)
        if isinstance(kind, str) and kind not in ("ro", "rw"):
            raise ValueError(f"a mount's third field is a bool, 'ro', 'rw' or 'overlay': {kind!r}")
        return Mount(virtual, str(host), kind == "ro" or kind is True)
    raise TypeError("a mount is a pysh.shellkit.Mount or a (host_dir, virtual_path[, read_only "
                    "| 'ro' | 'overlay']) tuple")


_ENTRY_POINTS: dict[str, str] | None = None


def _entry_point_commands() -> dict[str, str]:
    """The ``pysh.commands`` entry points of installed distributions (scanned once per process)."""
    global _ENTRY_POINTS
    if _ENTRY_POINTS is None:
        from importlib.metadata import entry_points

        from pysh.shellkit.commands import ENTRY_POINT_GROUP

        found: dict[str, str] = {}
        try:
            for ep in entry_points(group=ENTRY_POINT_GROUP):
                found[ep.name] = ep.value
        except Exception:  # noqa: BLE001 - a broken distribution must not stop the sandbox
            pass
        _ENTRY_POINTS = found
    return _ENTRY_POINTS


class _CachedReader:
    """Replays already-parsed programs to ``Interp.run_reader``."""

    __slots__ = ("_it",)

    def __init__(self, progs) -> None:
        self._it = iter(progs)

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._it)

    def take_warnings(self) -> list:
        return []


def _parse_all(source: str):
    """The programs of ``source``, or None when it does not parse cleanly (no caching then)."""
    from pysh.interpreter.syntax import CommandReader
    from pysh.interpreter.syntax.errors import ParseError

    lines = iter(source.splitlines(keepends=True))
    reader = CommandReader(lambda: next(lines, None), name="pysh", extglob=lambda: True)
    try:
        progs = list(reader)
    except ParseError:
        return None
    except Exception:  # noqa: BLE001 - leave it to the real run to report
        return None
    if reader.warnings:
        return None
    return tuple(progs)


_PARSE_CACHE: dict[str, tuple] = {}
_PARSE_CACHE_MAX = 512
_PARSE_CACHE_MAX_SOURCE = 4096


def _cached_programs(source: str):
    progs = _PARSE_CACHE.get(source)
    if progs is not None:
        return progs
    if len(source) > _PARSE_CACHE_MAX_SOURCE:
        return None
    progs = _parse_all(source)
    if progs is None:
        return None
    if len(_PARSE_CACHE) >= _PARSE_CACHE_MAX:
        _PARSE_CACHE.pop(next(iter(_PARSE_CACHE)))
    _PARSE_CACHE[source] = progs
    return progs


def _finalize(ex, interp_holder: list) -> None:
    for interp in interp_holder:
        try:
            interp.close_fds()
        except Exception:  # noqa: BLE001
            pass
    interp_holder.clear()
    ex.close()


class Sandbox:
    """One persistent shell session in its own sandbox instance.

    * ``workspace_dir``: the host directory seen at ``workspace`` (default
      ``/batch``); ``None`` gives a fresh empty directory removed on close.
    * ``mounts``: more directories, as :class:`pysh.shellkit.Mount` or
      ``(host_dir, virtual_path[, read_only])`` tuples (``"ro"``, or ``"overlay"``
      for an overlay mount, in place of ``read_only``).
    * ``env``: variables added to the synthetic environment (nothing of the
      host's environment is passed otherwise).
    * ``limits``: a :class:`Limits` (default ``Limits()``; ``Limits.strict()``
      for untrusted agents).
    * ``commands``: extra commands, ``{name: async_func or "module:function"}``.
      Commands advertised in the ``pysh.commands`` entry-point group are
      loaded too unless ``entry_points=False``.
    * ``read_only``: mount the workspace read-only.
    * ``overlay``: mount the workspace as an overlay: the host directory is the
      read-only lower layer, every write (and deletion) the script makes lands in a
      private upper layer beside the sandbox's ``/tmp``, removed on close; the host
      directory stays byte for byte as it was. Commands see one merged tree through
      either door (C-backed tools too: a file is copied up before it is written).
    * ``network``: a :class:`Network` naming the URL prefixes and hosts ``curl`` and
      ``wget`` may reach (default: none; the network is off).
    * ``allow_home``: allow the invoking user's home directory (or an ancestor of
      it) as a mount source; refused by default, since keys and tokens live there.
    * ``home``: a host directory for the sandbox's home, ``/home/user`` ($HOME, ``~``), to
      keep dotfiles between sessions; ``None`` gives a fresh one removed on close. The
      workspace stays the starting directory either way.

    Every sandbox has its own ``/tmp`` (a fresh ``swiftbash-<UUID>`` host
    directory), removed on :meth:`close`, at the end of a ``with`` block, or
    by a finalizer when the object is collected.
    """

    def __init__(
        self,
        workspace_dir: str | Any | None = None,
        workspace: str = "/batch",
        mounts: Iterable = (),
        env: Mapping[str, str] | None = None,
        limits: Limits | None = None,
        commands: Mapping[str, CommandTarget] | None = None,
        *,
        read_only: bool = False,
        overlay: bool = False,
        entry_points: bool = True,
        home: str | Any | None = None,
        network: Network | None = None,
        allow_home: bool = False,
    ):
        from pysh.commands import default_registry
        from pysh.interpreter import ExecCommand

        if limits is not None and not isinstance(limits, Limits):
            raise TypeError("limits must be a pysh.Limits")
        if network is not None and not isinstance(network, Network):
            raise TypeError("network must be a pysh.Network")
        if env is not None:
            for k, v in env.items():
                if not isinstance(k, str) or not isinstance(v, str):
                    raise TypeError("env must map str to str")
        registry = default_registry()
        if entry_points:
            registry.register_many(_entry_point_commands())
        for name, func in (commands or {}).items():
            _check_command(func)
            registry.register(name, func)
        ex = ExecCommand(workspace_dir, workspace, [_mount(m) for m in mounts], read_only=read_only,
                         env=dict(env or {}), limits=limits or Limits(), registry=registry,
                         home_dir=home, allow_home=allow_home,
                         network=network, overlay=overlay)
        self._setup(ex)

    @classmethod
    def _from_instance(cls, ex, *, argv0: str = "pysh", set_on=(), set_off=()) -> Sandbox:
        """A Sandbox over an ExecCommand built elsewhere (the CLI's ``--json``)."""
        self = cls.__new__(cls)
        self._setup(ex, argv0)
        self._interp.opts |= set(set_on)
        self._interp.opts -= set(set_off)
        return self

    def _setup(self, ex, argv0: str = "pysh") -> None:
        from pysh.interpreter.toplevel import make_interp, make_session

        if ex.closed:
            ex.open()
        self._ex = ex
        self.limits: Limits = ex.limits
        self._session = make_session(ex)
        self._interp = make_interp(self._session, fds={}, argv0=argv0)
        self._holder = [self._interp]
        self._lock = threading.Lock()
        self._closed = False
        self._finalizer = weakref.finalize(self, _finalize, ex, self._holder)

    # -- lifecycle --------------------------------------------------------------
    def close(self) -> None:
        """Remove the sandbox's temp dirs and release its resources (idempotent)."""
        if self._closed:
            return
        with self._lock:
            self._closed = True
            self._finalizer()

    @property
    def closed(self) -> bool:
        return self._closed

    def __enter__(self) -> Sandbox:
        self._check_open()
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    async def __aenter__(self) -> Sandbox:
        self._check_open()
        return self

    async def __aexit__(self, *exc) -> None:
        self.close()

    def _check_open(self) -> None:
        if self._closed:
            raise SandboxClosed("the sandbox is closed")

    def __repr__(self) -> str:
        state = "closed" if self._closed else f"cwd={self._interp.cwd!r}"
        return f"<pysh.Sandbox workspace={self._ex.workspace!r} {state}>"

    # -- what is inside ------------------------------------------------------------
    @property
    def workspace(self) -> str:
        """The virtual path of the workspace (``/batch`` by default)."""
        return self._ex.workspace

    @property
    def cwd(self) -> str:
        """The session's current directory (virtual)."""
        return self._interp.cwd

    @property
    def shell(self):
        """The session's root :class:`pysh.shellkit.Shell` (``.fs`` is the FileSystem door)."""
        return self._ex.shell

    @property
    def fs(self):
        """The FileSystem door at the session's cwd: read and write files by virtual path.

        The embedder's own door: the run limits (file size, bytes written) are the
        script's, not the embedder's."""
        return self._session.root.fs.at(self._interp.cwd).with_budget(None)

    def getvar(self, name: str) -> str | None:
        """The value of a shell variable of the session (None when unset)."""
        self._check_open()
        return self._interp.get_scalar(name)

    def register(self, name: str, func: CommandTarget) -> None:
        """Add a command: ``async def func(shell, argv) -> int`` (or a ``"module:function"``)."""
        self._check_open()
        _check_command(func)
        self._session.registry.register(name, func)

    def info(self) -> dict[str, Any]:
        """What protects this sandbox on this machine::

            {"version": "0.1.0", "landlock": "ABI 7",        # or "unavailable (why)"
             "kernel_floor": True,                          # its thread is restricted
             "floor": "landlock ABI 7", "thread": "pysh-swiftbash-..."}

        ``kernel_floor`` False means the cooperative core alone confines the
        sandbox (see THREAT_MODEL.md). Starts the worker thread if need be.
        """
        from pysh import __version__
        from pysh.shellkit import landlock

        self._check_open()
        worker = self._ex.worker.start()
        return {"version": __version__, "landlock": landlock.describe().partition(": ")[2],
                "kernel_floor": worker.abi > 0, "floor": worker.floor, "thread": worker.name}

    def commands(self) -> list[str]:
        """The names of every command the registry knows (builtins of the language excluded)."""
        return self._session.registry.names()

    # -- the change set of overlay mounts ------------------------------------------------
    def _idle(self):
        """The session's lock, taken: no call runs while the change set is read or written."""
        self._check_open()
        return self._lock

    def changes(self) -> list[Change]:
        """What the overlay mounts change in their host directories: one
        :class:`pysh.shellkit.changes.Change` per added, modified or deleted path (files,
        directories, symlinks; mode changes; sizes), sorted by path. Empty without an
        overlay mount."""
        with self._idle():
            return self._ex.changes()

    def diff(self, stat: bool = False) -> str:
        """The change set as a unified diff in git's format (``diff --git`` headers, blob
        ids, binary files named as binary), or its ``--stat`` summary. Paths are relative
        to the workspace (other mounts: the virtual path without its leading '/')."""
        from pysh import changeset

        with self._idle():
            changes = self._ex.changes()
            render = changeset.stat_text if stat else changeset.diff_text
            return render(self._ex, changes, self._ex.workspace)

    def apply(self, paths: Iterable[str] | None = None) -> ApplyResult:
        """Write the changes (those at or beneath ``paths``, virtual or relative to the
        workspace; all for None) to the host directories, all or nothing: a path whose
        host entry changed since the sandbox first read it (or appeared meanwhile) is a
        conflict, and any conflict refuses the whole apply (``conflicts`` lists each with
        the reason, ``applied`` is empty; the changes stay the sandbox's). Otherwise
        every new version is written beside its place under a temporary name and
        fsynced, then renamed into place (deletions after), so a crash leaves each file
        old or new (:func:`pysh.shellkit.changes.apply`)."""
        if isinstance(paths, str):
            paths = [paths]
        with self._idle():
            return self._ex.apply_changes(self._virtual_paths(paths))

    def _virtual_paths(self, paths: Iterable[str] | None) -> list[str] | None:
        """``paths`` as virtual paths (a relative one is taken in the workspace)."""
        if paths is None:
            return None
        ws = self._ex.workspace
        return [p if p.startswith("/") else f"{ws}/{p}".rstrip("/") for p in paths]

    def discard(self) -> None:
        """Drop the change set: the overlay mounts show their host directories again."""
        with self._idle():
            self._ex.discard_changes()

    # -- snapshots -----------------------------------------------------------------------
    def snapshot(self) -> bytes:
        """The session as bytes: a versioned header holding the shell state (variables
        with their attributes, arrays, functions, aliases, options, traps, cwd, directory
        stack, ``$?``, ``PIPESTATUS``) and the overlay mounts' whiteouts, then a tar
        stream of their upper layers, of ``/tmp`` and of the home directory when it is
        the sandbox's own throwaway one (a ``home=`` directory is the embedder's, kept on
        the host like the workspace). :meth:`restore` rebuilds a sandbox from it.
        (Without an overlay the workspace itself is not in it: it is the host's.)"""
        with self._idle():
            return self._snapshot()

    def _snapshot(self) -> bytes:
        """:meth:`snapshot`, the session's lock already held."""
        from pysh.interpreter import snapstate
        from pysh.shellkit import snapshot

        ex = self._ex
        overlays = list(ex._overlays())
        header = {
            "workspace": ex.workspace,
            "shell": snapstate.capture(self._interp),
            "overlays": [{"virtual": m.virtual, "hidden": sorted(layer.hidden),
                          "bases": {k: list(v) for k, v in layer.bases.items()}}
                         for m, layer in overlays],
        }
        trees = [("tmp", ex.table.root_fd(ex.table.get("/tmp")))]
        trees += [(f"u{i}", layer.upper_fd) for i, (_, layer) in enumerate(overlays)]
        if ex.ephemeral_home is not None:  # pysh's own throwaway home: part of the session
            header["home"] = True
            trees.append(("home", ex.table.root_fd(ex.table.get(ex.home))))
        return snapshot.pack(header, trees)

    @classmethod
    def restore(cls, data: bytes, workspace_dir: str | Any | None = None, *,
                rebase: bool = False, max_bytes: int = 1 << 30, **kwargs) -> Sandbox:
        """A sandbox rebuilt from :meth:`snapshot` bytes over ``workspace_dir`` (other
        arguments as for :class:`Sandbox`; the workspace is an overlay when it was one).

        Restoring is data only: nothing is run (a trap, a function, ``PROMPT_COMMAND``
        wait for the next call). A snapshot whose lower layer changed underneath (a host
        file the session had read or changed is no longer the same) is refused unless
        ``rebase``; a damaged or crafted one (bad version, a member outside its place, a
        link or device member where none may be, over ``max_bytes`` of files) is refused
        with :class:`pysh.shellkit.snapshot.SnapshotError`."""
        from pysh.shellkit import snapshot

        header, _ = snapshot.read_header(data)
        overlays = header.get("overlays")
        workspace = header.get("workspace")
        if not isinstance(overlays, list) or not isinstance(workspace, str):
            raise snapshot.SnapshotError("a damaged snapshot header")
        kwargs.setdefault("workspace", workspace)
        if any(isinstance(o, dict) and o.get("virtual") == kwargs["workspace"] for o in overlays):
            kwargs.setdefault("overlay", True)
        sb = cls(workspace_dir, **kwargs)
        try:
            sb._load_snapshot(data, rebase=rebase, max_bytes=max_bytes)
        except BaseException:
            sb.close()
            raise
        return sb

    def _load_snapshot(self, data: bytes, *, rebase: bool = False,
                       max_bytes: int = 1 << 30) -> None:
        """Fill this fresh sandbox from a snapshot (see :meth:`restore`)."""
        from pysh.interpreter import snapstate
        from pysh.shellkit import changes as changeset
        from pysh.shellkit import snapshot
        from pysh.shellkit.overlay import base_key

        header, stream = snapshot.read_header(data)
        ex = self._ex
        layers = {m.virtual: (m, layer) for m, layer in ex._overlays()}
        dests = {"tmp": ex.table.root_fd(ex.table.get("/tmp"))}
        if header.get("home"):
            if ex.ephemeral_home is None:
                raise snapshot.SnapshotError(
                    "the snapshot holds the session's home directory: restore it into a "
                    "sandbox with its own home (no home= directory)")
            dests["home"] = ex.table.root_fd(ex.table.get(ex.home))
        states = []
        for i, o in enumerate(header.get("overlays") or []):
            if not isinstance(o, dict) or o.get("virtual") not in layers:
                raise snapshot.SnapshotError(f"the snapshot's overlay mount {o.get('virtual')!r} "
                                             "is not an overlay mount here")
            m, layer = layers[o["virtual"]]
            hidden, bases = o.get("hidden", []), o.get("bases", {})
            if not isinstance(hidden, list) or not all(_rel_ok(h) for h in hidden) \
                    or not isinstance(bases, dict) or not all(
                        _rel_ok(k) and isinstance(v, list) and len(v) == 5
                        and all(isinstance(x, int) for x in v) for k, v in bases.items()):
                raise snapshot.SnapshotError("a damaged snapshot header")
            if not rebase:
                root = ex.table.root_fd(m)
                for rel, key in bases.items():
                    parent, _, name = rel.rpartition("/")
                    dfd = changeset._open_rel(root, parent)
                    try:
                        now = base_key(os.stat(name, dir_fd=dfd, follow_symlinks=False))
                    except OSError:
                        now = None
                    finally:
                        if dfd >= 0:
                            os.close(dfd)
                    if now != tuple(key):
                        raise snapshot.SnapshotError(
                            f"{m.virtual}/{rel} changed on the host since the snapshot "
                            "(restore with rebase=True to take the host's version)")
            dests[f"u{i}"] = layer.upper_fd
            states.append((layer, hidden, bases))
        try:
            snapstate.restore(self._interp, header.get("shell"))
        except snapstate.StateError as e:
            raise snapshot.SnapshotError(str(e)) from None
        snapshot.unpack(stream, dests, max_bytes=max_bytes)
        for layer, hidden, bases in states:
            layer.hidden = set(hidden)
            layer.bases = {k: tuple(v) for k, v in bases.items()}

    # -- running ---------------------------------------------------------------------
    def run(self, script: str, *, stdin: str | bytes | None = None, timeout: float | None = None,
            env: Mapping[str, str] | None = None, cwd: str | None = None, args: Iterable[str] = (),
            isolated: bool = False) -> RunResult:
        """Run ``script`` in the session and return what it did.

        * ``stdin``: the script's standard input (str or bytes; empty by default).
        * ``timeout``: wall-clock seconds for this call (default: ``limits.timeout``);
          when it expires the result has ``exit_code`` 124 and ``timed_out``.
        * ``env``: variables exported for this call only; ``cwd``: the directory
          this call starts in (the session's cwd is restored afterwards);
          ``args``: the positional parameters ``$1...`` of this call.
        * ``isolated``: run in a throwaway copy of the shell state (variables,
          cwd, functions, options, traps); the file system is shared.
        """
        call = self._prepare(script, stdin, timeout, env, cwd, args)
        with self._lock:
            self._check_open()
            # the caller's thread waits; the script runs on the sandbox's worker thread
            return self._ex.call(self._start_call, call, isolated, interrupt=self._interrupt)

    async def arun(self, script: str, *, stdin: str | bytes | None = None,
                   timeout: float | None = None, env: Mapping[str, str] | None = None,
                   cwd: str | None = None, args: Iterable[str] = (),
                   isolated: bool = False) -> RunResult:
        """The async form of :meth:`run` (anyio: asyncio or trio). The script runs on the
        sandbox's worker thread; the caller's event loop keeps running meanwhile, and
        cancelling the caller stops the script."""
        import anyio

        call = self._prepare(script, stdin, timeout, env, cwd, args)
        while not self._lock.acquire(blocking=False):
            await anyio.sleep(0.001)  # another call of this session is running
        try:
            self._check_open()
            return await self._ex.acall(self._start_call, call, isolated, interrupt=self._interrupt)
        finally:
            self._lock.release()

    async def _on_worker(self, fn, *args):
        """``fn(*args)`` on the sandbox's thread, between calls (the MCP file tools)."""
        import anyio

        while not self._lock.acquire(blocking=False):
            await anyio.sleep(0.001)
        try:
            self._check_open()
            return await self._ex.acall(fn, *args)
        finally:
            self._lock.release()

    async def _between_calls(self, fn, *args):
        """``fn(*args)`` between calls, on a host thread (the MCP change-set tools: an
        apply writes host directories the sandbox's own thread may only read)."""
        import anyio

        while not self._lock.acquire(blocking=False):
            await anyio.sleep(0.001)
        try:
            self._check_open()
            return await anyio.to_thread.run_sync(fn, *args)
        finally:
            self._lock.release()

    def _start_call(self, call, isolated: bool):
        """On the worker thread: the coroutine of one call (the worker runs it)."""
        return self._run(call, isolated)

    def _interrupt(self) -> None:
        """The caller gave up on a call (cancelled, Ctrl-C): stop its CPU loops too."""
        self._session.budget.interrupt()

    def _prepare(self, script, stdin, timeout, env, cwd, args):
        self._check_open()
        if not isinstance(script, str):
            raise TypeError(f"script must be str, not {type(script).__name__}")
        data = _to_bytes(stdin, "stdin")
        if timeout is not None:
            if isinstance(timeout, bool) or not isinstance(timeout, int | float):
                raise TypeError("timeout must be a number of seconds")
            if not timeout > 0:
                raise ValueError("timeout must be positive")
        if env is not None:
            for k, v in env.items():
                if not isinstance(k, str) or not isinstance(v, str):
                    raise TypeError("env must map str to str")
                if not k.isidentifier():
                    raise ValueError(f"not a valid variable name: {k!r}")
        if cwd is not None and not isinstance(cwd, str):
            raise TypeError("cwd must be a str (a virtual path)")
        if isinstance(args, str):
            raise TypeError("args must be a sequence of str, not a str")
        args = list(args)
        if not all(isinstance(a, str) for a in args):
            raise TypeError("args must be a sequence of str")
        return (script, data, timeout, env, cwd, args)

    async def _run(self, call, isolated: bool) -> RunResult:
        """One call, on the worker thread (on its event loop once the script needs one)."""
        from pysh.interpreter.toplevel import run_main

        script, data, timeout, env, cwd, args = call
        t0 = time.perf_counter()
        cap = self.limits.max_output_bytes
        out = _CappedCapture(cap)
        err = _CappedCapture(cap)
        base = self._interp
        budget = _fresh_budget(base, self.limits, timeout)
        interp = base.fork(level=0) if isolated else base
        if isolated:
            interp.pid = base.pid
            interp.traps = dict(base.traps)
        _set_stdio(interp, BytesInput(data), out, err)
        saved = _CallState(interp, env, cwd, args)
        status = None
        try:
            if cwd is not None:
                status = await saved.enter_cwd(cwd)
            if status is None:
                saved.apply()
                # a parse made once serves every call, unless aliases can change it
                progs = None if interp.alias_table() is not None or "alias" in script \
                    else _cached_programs(script)

                async def body(it):
                    if progs is not None:
                        return await it.run_reader(_CachedReader(progs))
                    return await _run_text(it, script)
                try:
                    # background jobs get a moment to finish, then end with the call
                    status = await run_main(interp, body)
                except Exception as e:  # noqa: BLE001 - an interpreter bug must not escape as a traceback
                    await _write_quiet(err, f"pysh: internal error ({type(e).__name__})\n")
                    status = INTERNAL_ERROR_STATUS
                finally:
                    _reap_jobs(interp.session)
        finally:
            if isolated:
                interp.close_fds()
            else:
                saved.restore()
                _set_stdio(interp, None, None, None)
        timed_out = status == STATUS_TIMEOUT and budget.expired()
        out_b, err_b = out.getvalue(), err.getvalue()
        out_s, err_s = _decode(out_b), _decode(err_b)
        if out.truncated:
            out_s += _marker("stdout", cap)
        if err.truncated:
            err_s += _marker("stderr", cap)
        return RunResult(out_s, err_s, out_b, err_b, status, timed_out,
                         out.truncated or err.truncated, time.perf_counter() - t0)

    # -- function calling ------------------------------------------------------------------
    def call_tool(self, arguments: Mapping[str, Any] | str) -> str:
        """Run a ``bash`` tool call (see :func:`tool_schema`) and format it for the model.

        ``arguments`` is the call's arguments, as a mapping or as the JSON text
        function-calling APIs hand over. Bad arguments (no ``command``, a
        non-numeric ``timeout``) come back as an error text for the model,
        since the model, not the program, made them.
        """
        parsed = _tool_arguments(arguments)
        if isinstance(parsed, str):
            return parsed
        command, timeout = parsed
        return self.run(command, timeout=timeout).for_llm()

    async def acall_tool(self, arguments: Mapping[str, Any] | str) -> str:
        """The async form of :meth:`call_tool`."""
        parsed = _tool_arguments(arguments)
        if isinstance(parsed, str):
            return parsed
        command, timeout = parsed
        return (await self.arun(command, timeout=timeout)).for_llm()


class _CallState:
    """Per-call changes (env, cwd, positional parameters) and how to undo them."""

    __slots__ = ("interp", "env", "cwd", "args", "_old_vars", "_old_cwd", "_old_pwd", "_old_argv")

    def __init__(self, interp, env, cwd, args) -> None:
        self.interp = interp
        self.env = env
        self.cwd = cwd
        self.args = args
        self._old_vars: dict | None = None
        self._old_cwd = None
        self._old_pwd = None
        self._old_argv = None

    async def enter_cwd(self, cwd: str) -> int | None:
        """Move to ``cwd`` for this call; a status (and a message) when it is not a directory."""
        import posixpath

        it = self.interp
        target = posixpath.normpath(posixpath.join(it.cwd, cwd))
        if target.startswith("//"):
            target = "/" + target.lstrip("/")
        try:
            ok = it.session.root.fs.at(it.cwd).is_dir(target)
        except Exception:  # noqa: BLE001 - a denied path is just "not a directory" here
            ok = False
        if not ok:
            await it.err(f"pysh: cd: {cwd}: No such file or directory\n")
            return 1
        from pysh.interpreter.state import EXPORT, Var

        self._old_cwd = it.cwd
        self._old_pwd = it.vars.globals.get("PWD")
        it.cwd = target
        it.vars.globals["PWD"] = Var(target, EXPORT)
        it.vars.env_version += 1
        return None

    def apply(self) -> None:
        from pysh.interpreter.state import EXPORT, Var

        it = self.interp
        self._old_argv = it.argv
        it.argv = list(self.args)
        if self.env:
            g = it.vars.globals
            self._old_vars = {k: g.get(k) for k in self.env}
            for k, v in self.env.items():
                g[k] = Var(v, EXPORT)
            it.vars.env_version += 1

    def restore(self) -> None:
        it = self.interp
        if self._old_argv is not None:
            it.argv = self._old_argv
        if self._old_vars is not None:
            g = it.vars.globals
            for k, old in self._old_vars.items():
                if old is None:
                    g.pop(k, None)
                else:
                    g[k] = old
            it.vars.env_version += 1
        if self._old_cwd is not None:
            it.cwd = self._old_cwd
            if self._old_pwd is None:
                it.vars.globals.pop("PWD", None)
            else:
                it.vars.globals["PWD"] = self._old_pwd
            it.vars.env_version += 1


def _fresh_budget(interp, limits: Limits, timeout: float | None):
    """A new budget (deadline and counters) for one call, as ``toplevel.fresh_budget`` makes.

    A per-call timeout goes into the budget's limits, so the message names it
    (``timeout: limit exceeded (2s)``).
    """
    from pysh.shellkit import Budget

    if timeout is not None:
        limits = limits.with_(timeout=timeout)
    budget = Budget(limits)
    session = interp.session
    session.budget = budget
    session.root.budget = budget
    interp.budget = budget
    return budget


def _reap_jobs(session) -> None:
    """Background jobs still running when a call ends were cancelled with it: mark them
    terminated (143, as SIGTERM) so ``jobs`` and ``wait`` in later calls see them ended."""
    for job in session.jobs.values():
        if not job.done:
            job.status = 143
            job.done = True
            try:
                job.event.set()
            except Exception:  # noqa: BLE001 - an event of another loop: nobody waits on it
                pass


def _set_stdio(interp, stdin, stdout, stderr) -> None:
    fds = interp.fds
    for fd, new in ((0, stdin), (1, stdout), (2, stderr)):
        old = fds.pop(fd, None)
        if old is not None:
            try:
                old.close()
            except Exception:  # noqa: BLE001
                pass
        if new is not None:
            fds[fd] = new


async def _write_quiet(stream, text: str) -> None:
    try:
        stream.write_nowait(text.encode())
    except Exception:  # noqa: BLE001
        pass


async def _run_text(interp, text: str) -> int:
    from pysh.interpreter.syntax import CommandReader

    lines = iter(text.splitlines(keepends=True))
    reader = CommandReader(lambda: next(lines, None), name=interp.argv0, extglob=lambda: True,
                           aliases=interp.alias_table)
    return await interp.run_reader(reader)


# -- the tool description for function-calling APIs ---------------------------------------
TOOL_NAME = "bash"
TOOL_DESCRIPTION = (
    "Run a bash script in a persistent sandboxed shell session and return its output. "
    "The working directory is the workspace (/batch by default); /tmp is private scratch "
    "space; $HOME is /home/user, outside the workspace. State (cwd, variables, functions) persists between calls. Common GNU tools "
    "are available (ls, cat, grep, sed, awk, find, sort, head, tail, wc, diff, jq, rg, "
    "tar, ...) but there is no network and no host program can be run. Output is "
    "stdout, then stderr, then the exit status when it is non-zero."
)


def tool_schema(style: str = "generic") -> dict[str, Any]:
    """The JSON description of the ``bash`` tool for function-calling APIs.

    ``style``: ``"generic"`` (``name``, ``description``, ``parameters``: a JSON
    schema), ``"anthropic"`` (``input_schema`` instead of ``parameters``) or
    ``"openai"`` (``{"type": "function", "function": {...}}``).
    """
    parameters = {
        "type": "object",
        "properties": {
            "command": {"type": "string", "description": "The bash script to run."},
            "timeout": {"type": "number", "exclusiveMinimum": 0,
                        "description": "Optional wall-clock limit in seconds for this call."},
        },
        "required": ["command"],
        "additionalProperties": False,
    }
    if style == "generic":
        return {"name": TOOL_NAME, "description": TOOL_DESCRIPTION, "parameters": parameters}
    if style == "anthropic":
        return {"name": TOOL_NAME, "description": TOOL_DESCRIPTION, "input_schema": parameters}
    if style == "openai":
        return {"type": "function", "function": {"name": TOOL_NAME, "description": TOOL_DESCRIPTION,
                                                 "parameters": parameters}}
    raise ValueError(f"unknown tool schema style: {style!r} (generic, anthropic, openai)")


def _tool_arguments(arguments) -> tuple[str, float | None] | str:
    """(command, timeout), or an error text for the model."""
    if isinstance(arguments, str | bytes):
        try:
            arguments = json.loads(arguments)
        except ValueError:
            return "[tool error: the arguments are not valid JSON]\n"
    if not isinstance(arguments, Mapping):
        return "[tool error: the arguments must be an object with a \"command\" string]\n"
    command = arguments.get("command")
    if not isinstance(command, str):
        return "[tool error: missing \"command\" (a string with the bash script to run)]\n"
    timeout = arguments.get("timeout")
    if timeout is not None:
        if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not timeout > 0:
            return "[tool error: \"timeout\" must be a positive number of seconds]\n"
        timeout = float(timeout)
    return command, timeout
