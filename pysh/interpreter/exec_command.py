"""ExecCommand: one sandbox instance.

It owns a fresh ``swiftbash-<UUID>`` directory (mode 0700) under the system
temp dir, mounted at ``/tmp``; the workspace host directory mounted at the
workspace path (an ephemeral empty one when none is given); a home of the
sandbox's own at ``/home/user`` ($HOME: dotfiles never land in the workspace),
a fresh ``pysh-home-<UUID>`` directory beside /tmp's unless the embedder names a
host directory to keep; the extra mounts; and the Shell built over them with a
synthetic environment. What it created is removed when the instance ends,
however it ends.

Its scripts run on its :class:`~pysh.shellkit.worker.Worker` (``call``/``acall``):
a thread of its own, started on first use and restricted by Landlock to the
instance's mount roots (read-only mounts read-only), the Python installation
and the few system files commands read.
"""

from __future__ import annotations

import os
import weakref
from collections.abc import Iterable, Mapping

from pysh.interpreter.filesystems import MountedFileSystem
from pysh.shellkit import (
    Budget,
    CommandRegistry,
    Confinement,
    Limits,
    Mount,
    MountTable,
    Shell,
    landlock,
)
from pysh.shellkit.tempdirs import (
    make_instance_dir,
    remove_instance_dir,
    sweep_stale,
    system_temp_root,
)
from pysh.shellkit.worker import Worker, unrestricted

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)

if TYPE_CHECKING:  # a policy is built by the embedder: its module loads only then
    from pysh.shellkit import changes as changeset
    from pysh.shellkit.network import Network

TEMP_PREFIX = "swiftbash-"
WORKSPACE_PREFIX = "pysh-workspace-"
HOME_PREFIX = "pysh-home-"
OVERLAY_PREFIX = "pysh-overlay-"
HOME = "/home/user"
USER = "user"
HOSTNAME = "sandbox"
UID = 1000
PATH = "/usr/local/bin:/usr/bin:/bin"


def synthetic_env(workspace: str, home: str = HOME) -> dict[str, str]:
    """The environment a script starts with: nothing of the host's."""
    return {
        "HOME": home,
        "PWD": workspace,
        "TMPDIR": "/tmp",
        "USER": USER,
        "LOGNAME": USER,
        "HOSTNAME": HOSTNAME,
        "PATH": PATH,
        "SHELL": "/bin/bash",
        "LANG": "C.UTF-8",
    }


def _remove(path: str | None) -> None:
    if path:
        remove_instance_dir(path)  # fd-based: symlinks planted inside are removed, never followed


def _sweep_applies(table: MountTable) -> None:
    """What an apply that died left in a writable host directory (the temporaries its
    journal names: :func:`pysh.shellkit.changes.sweep`); only a root holding a journal
    costs more than one directory listing."""
    for m in table:
        if m.read_only:
            continue
        try:
            fd = os.open(".", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC,
                         dir_fd=table.root_fd(m))
        except OSError:
            continue
        try:
            with os.scandir(fd) as it:
                found = any(e.name.startswith(".pysh-apply-") and e.name.endswith(".journal")
                            for e in it)
        except OSError:
            found = False
        finally:
            os.close(fd)
        if found:
            from pysh.shellkit import changes as changeset

            changeset.sweep(table.root_fd(m))


def _cleanup(worker: list, table: MountTable | None, *dirs: str | None) -> None:
    if worker:
        worker.pop().close()  # its jobs end before the directories go
    # a finalizer may run on a (restricted) worker thread: removing the instance's own
    # directories needs rights on the system temp root
    unrestricted(_cleanup_host, table, *dirs)


def _cleanup_host(table: MountTable | None, *dirs: str | None) -> None:
    if table is not None:
        table.close()
    for d in dirs:
        _remove(d)


def command_dirs(registry: CommandRegistry | None) -> list[str]:
    """Where the commands registered from outside pysh (``"module:function"``) live."""
    if registry is None:
        return []
    return landlock.module_dirs(t.partition(":")[0] for _, t in registry.items()
                                if isinstance(t, str) and not t.startswith("pysh."))


def floor_rules(table: MountTable, modules: list[str],
                network: Network | None = None) -> list:
    """The Landlock rules of an instance's worker: its mount roots (through the table's
    held fds), the command packages ``modules``, the base rules, and TCP connect to the
    ports the network policy allows (none without one)."""
    rules: list = [landlock.Rule(m.host_real, landlock.READ if m.read_only or m.overlay
                                 else landlock.WRITE, fd=table.root_fd(m)) for m in table]
    # an overlay mount's upper layer (and the work dir its copy-ups are built in)
    rules += [landlock.Rule(area, landlock.WRITE) for area in table.overlay_areas()]
    rules += [landlock.Rule(p, landlock.READ) for p in modules]
    if network is not None:
        rules += [landlock.PortRule(p) for p in sorted(network.ports())]
    return rules + landlock.base_rules()


class ExecCommand:
    """One sandbox instance; a context manager yielding itself (``.shell``, ``.temp_dir``)."""

    def __init__(
        self,
        workspace_dir: str | os.PathLike | None = None,
        workspace: str = "/batch",
        mounts: Iterable[Mount] = (),
        *,
        read_only: bool = False,
        env: Mapping[str, str] | None = None,
        limits: Limits | None = None,
        registry: CommandRegistry | None = None,
        allow_home: bool = False,
        home_dir: str | os.PathLike | None = None,
        home: str = HOME,
        kernel_floor: bool = True,
        network: Network | None = None,
        overlay: bool = False,
        overlay_dir: str | os.PathLike | None = None,
    ):
        self.workspace_dir = None if workspace_dir is None else os.fspath(workspace_dir)
        self.overlay = overlay  # the workspace is the lower layer of a private upper layer
        # where the upper layers live (default: a fresh pysh-overlay-<UUID> removed at the
        # end; a restored snapshot brings its own, filled)
        self.overlay_dir = None if overlay_dir is None else os.fspath(overlay_dir)
        self.home_dir = None if home_dir is None else os.fspath(home_dir)
        self.home = home
        self.workspace = workspace
        self.extra_mounts = tuple(mounts)
        self.read_only = read_only
        self.allow_home = allow_home  # the user's home (or an ancestor) may be a mount source
        self.env_overrides = dict(env or {})
        self.limits = limits or Limits()
        self.registry = registry if registry is not None else CommandRegistry()
        self.shell: Shell | None = None
        self.temp_dir: str | None = None
        self.ephemeral_workspace: str | None = None
        self.ephemeral_home: str | None = None
        self.table: MountTable | None = None
        self.overlay_area: str | None = None
        self.network = network  # the embedder's network policy (None: curl/wget refuse)
        self.kernel_floor = kernel_floor  # False: the worker runs unrestricted (tests of one layer)
        self._worker: list[Worker] = []  # shared with the finalizer
        self._finalizer: weakref.finalize | None = None

    def open(self) -> ExecCommand:
        if self._finalizer is not None:
            raise RuntimeError("sandbox instance already open")
        root = system_temp_root()
        sweep_stale()  # once per process: the dirs of runs that were SIGKILLed
        temp_dir = make_instance_dir(root, TEMP_PREFIX)
        ephemeral = eph_home = eph_overlay = None
        table = None
        try:
            ws_host = self.workspace_dir
            if ws_host is None:
                ephemeral = make_instance_dir(root, WORKSPACE_PREFIX)
                ws_host = ephemeral
            mounts = [Mount(self.workspace, ws_host, self.read_only, self.overlay),
                      Mount("/tmp", temp_dir), *self.extra_mounts]
            area = self.overlay_dir
            if area is None and any(m.overlay for m in mounts):
                eph_overlay = area = make_instance_dir(root, OVERLAY_PREFIX)
            if not any(m.virtual.rstrip("/") == self.home.rstrip("/") for m in mounts):
                home_host = self.home_dir
                if home_host is not None and not os.path.isdir(home_host):
                    os.makedirs(home_host, 0o700)  # a home to keep: made on first use
                if home_host is None:
                    eph_home = make_instance_dir(root, HOME_PREFIX)
                    home_host = eph_home
                mounts.append(Mount(self.home, home_host))
            table = MountTable(mounts, allow_home=self.allow_home, overlay_area=area)
        except BaseException:
            _cleanup_host(table, temp_dir, ephemeral, eph_home, eph_overlay)
            raise
        _sweep_applies(table)
        self.temp_dir, self.ephemeral_workspace, self.table = temp_dir, ephemeral, table
        self.ephemeral_home = eph_home
        self.overlay_area = area
        self._worker = []
        self._finalizer = weakref.finalize(self, _cleanup, self._worker, table, temp_dir, ephemeral,
                                           eph_home, eph_overlay)
        registry = self.registry
        core = Confinement(table, registry.names)
        env = synthetic_env(self.workspace, self.home)
        env.update(self.env_overrides)
        self.shell = Shell(core, MountedFileSystem(core, self.workspace), cwd=self.workspace,
                           env=env, budget=Budget(self.limits), registry=registry,
                           network=self.network)
        return self

    def close(self) -> None:
        if self._finalizer is not None:
            self._finalizer()

    # -- overlay change sets (called between runs, on the embedder's thread: an apply
    # writes the host directories the worker may only read) -------------------------------
    def _overlays(self):
        if self.closed:
            raise RuntimeError("sandbox instance is closed")
        for m in self.table:
            layer = self.table.layer(m)
            if layer is not None:
                yield m, layer

    def changes(self) -> list[changeset.Change]:
        """What every overlay mount changes in its host directory, sorted by path."""
        from pysh.shellkit import changes as changeset

        out = []
        for m, layer in self._overlays():
            out += changeset.scan(layer, self.table.root_fd(m), m.virtual)
        return out

    def change_content(self, change: changeset.Change, new: bool) -> bytes:
        """One side of a file change: the host's (``new`` False) or the sandbox's."""
        from pysh.shellkit import changes as changeset

        for m, layer in self._overlays():
            if m.virtual == change.mount:
                return changeset.read_side(layer, self.table.root_fd(m), change, new)
        return b""

    def apply_changes(self, paths: Iterable[str] | None = None) -> changeset.ApplyResult:
        """Write the changes at or beneath ``paths`` (virtual; all for None) to the host."""
        from pysh.shellkit import changes as changeset

        result = changeset.ApplyResult([], [])
        todo = []
        for m, layer in self._overlays():
            chosen = changeset.selected(changeset.scan(layer, self.table.root_fd(m), m.virtual),
                                        None if paths is None else list(paths))
            todo.append((layer, self.table.root_fd(m), chosen))
            result.conflicts += changeset.conflicts(*todo[-1])
        if result.conflicts:  # all or nothing, across the mounts too
            return result
        for layer, root, chosen in todo:
            r = changeset.apply(layer, root, chosen)
            result.applied += r.applied
            result.conflicts += r.conflicts
        return result

    def discard_changes(self) -> None:
        """Drop every overlay mount's changes: the sandbox sees its host directories again."""
        from pysh.shellkit import changes as changeset

        for _, layer in self._overlays():
            changeset.discard(layer)

    # -- the worker ---------------------------------------------------------------------------
    @property
    def worker(self) -> Worker:
        """The instance's thread (started on first use, restricted at its start)."""
        if not self._worker:
            if self.closed:
                raise RuntimeError("sandbox instance is closed")
            modules = command_dirs(self.registry)
            w = Worker(f"pysh-{os.path.basename(self.temp_dir)}",
                       floor_rules(self.table, modules, self.network),
                       restrict=self.kernel_floor, import_dirs=landlock.python_dirs() + modules)
            w.network = self.network  # what its sockets may reach (the test suite's tripwire)
            self._worker.append(w)
        return self._worker[0]

    def call(self, fn, *args, interrupt=None):
        """``fn(*args)`` on the instance's worker (a coroutine it returns runs on the
        worker's loop); the calling thread waits. See :meth:`Worker.call`."""
        return self.worker.call(fn, *args, interrupt=interrupt)

    async def acall(self, fn, *args, interrupt=None):
        """:meth:`call` for async code (asyncio or trio): the caller's loop keeps running."""
        return await self.worker.acall(fn, *args, interrupt=interrupt)

    @property
    def floor(self) -> str:
        """What stands under the cooperative core on this instance's thread."""
        return self.worker.start().floor

    @property
    def closed(self) -> bool:
        return self._finalizer is None or not self._finalizer.alive

    def __enter__(self) -> ExecCommand:
        return self.open()

    def __exit__(self, *exc) -> None:
        self.close()
