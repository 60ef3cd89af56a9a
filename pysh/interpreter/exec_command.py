"""ExecCommand: one sandbox instance.

It owns a fresh ``swiftbash-<UUID>`` directory (mode 0700) under the system
temp dir, mounted at ``/tmp``; the workspace host directory mounted at the
workspace path (an ephemeral empty one when none is given); the extra
mounts; and the Shell built over them with a synthetic environment. All of
it is removed when the instance ends, however it ends.
"""

from __future__ import annotations

import os
import weakref
from collections.abc import Iterable, Mapping

from pysh.interpreter.filesystems import MountedFileSystem
from pysh.shellkit import Budget, CommandRegistry, Confinement, Limits, Mount, MountTable, Shell
from pysh.shellkit.tempdirs import new_uuid, remove_tree, system_temp_root

TEMP_PREFIX = "swiftbash-"
WORKSPACE_PREFIX = "pysh-workspace-"
USER = "user"
HOSTNAME = "sandbox"
UID = 1000
PATH = "/usr/local/bin:/usr/bin:/bin"


def synthetic_env(workspace: str) -> dict[str, str]:
    """The environment a script starts with: nothing of the host's."""
    return {
        "HOME": workspace,
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
        remove_tree(path)  # fd-based: symlinks planted inside are removed, never followed


def _cleanup(table: MountTable | None, temp_dir: str | None, workspace_dir: str | None) -> None:
    if table is not None:
        table.close()
    _remove(temp_dir)
    _remove(workspace_dir)


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
    ):
        self.workspace_dir = None if workspace_dir is None else os.fspath(workspace_dir)
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
        self.table: MountTable | None = None
        self._finalizer: weakref.finalize | None = None

    def open(self) -> ExecCommand:
        if self._finalizer is not None:
            raise RuntimeError("sandbox instance already open")
        root = system_temp_root()
        temp_dir = os.path.join(root, f"{TEMP_PREFIX}{new_uuid()}")
        os.mkdir(temp_dir, 0o700)
        ephemeral = None
        table = None
        try:
            ws_host = self.workspace_dir
            if ws_host is None:
                ephemeral = os.path.join(root, f"{WORKSPACE_PREFIX}{new_uuid()}")
                os.mkdir(ephemeral, 0o700)
                ws_host = ephemeral
            mounts = [Mount(self.workspace, ws_host, self.read_only), Mount("/tmp", temp_dir),
                      *self.extra_mounts]
            table = MountTable(mounts, allow_home=self.allow_home)
        except BaseException:
            _cleanup(table, temp_dir, ephemeral)
            raise
        self.temp_dir, self.ephemeral_workspace, self.table = temp_dir, ephemeral, table
        self._finalizer = weakref.finalize(self, _cleanup, table, temp_dir, ephemeral)
        registry = self.registry
        core = Confinement(table, registry.names)
        env = synthetic_env(self.workspace)
        env.update(self.env_overrides)
        self.shell = Shell(core, MountedFileSystem(core, self.workspace), cwd=self.workspace,
                           env=env, budget=Budget(self.limits), registry=registry)
        return self

    def close(self) -> None:
        if self._finalizer is not None:
            self._finalizer()

    @property
    def closed(self) -> bool:
        return self._finalizer is None or not self._finalizer.alive

    def __enter__(self) -> ExecCommand:
        return self.open()

    def __exit__(self, *exc) -> None:
        self.close()
