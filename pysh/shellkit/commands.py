"""The command protocol and the registry commands are found in.

A command is one async callable with one signature, whether builtin, port or
a third party's::

    async def main(shell: Shell, argv: list[str]) -> int

``argv[0]`` is the name it was invoked as. It reads ``shell.stdin``, writes
``shell.stdout``/``shell.stderr`` (bytes), reaches files through ``shell.fs``
(builtins) or ``shell.resolve()`` (ports), polls ``shell.budget.check()`` in
long loops, and returns its exit status.

A registry maps names to callables or to ``"module:function"`` strings; a
string's module is imported the first time the command runs, so start-up
does not pay for awk, git or sqlite when a script only says ``echo hi``.
"""

from __future__ import annotations

import importlib
from collections.abc import Awaitable, Callable, Iterable, Mapping

from pysh.shellkit.portout import folding

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)

if TYPE_CHECKING:
    from pysh.shellkit.shell import Shell

CommandFunc = Callable[["Shell", list[str]], Awaitable[int]]
CommandTarget = str | CommandFunc

ENTRY_POINT_GROUP = "pysh.commands"


WRITE_ERROR = "{prog}: write error: {strerror}\n"  # GNU's close_stdout, status 1


def on_write_error(status: int, message: str = WRITE_ERROR):
    """Declare what a command says, and its status, when writing its output fails
    (``ls > /dev/full``: ``ls: write error: No space left on device``, 2). The
    interpreter reports a :class:`~pysh.shellkit.errors.WriteError` a command lets
    out this way; ``message`` is formatted with ``prog`` and ``strerror``."""

    def mark(func):
        func.write_error = (status, message)
        return func

    return mark


class CommandLoadError(Exception):
    """A registered ``module:function`` could not be imported."""


def _valid_name(name: str) -> bool:
    return bool(name) and "/" not in name and "\0" not in name and not name.isspace()


class CommandRegistry:
    """Names to commands. Cheap to copy; loading is lazy and cached.

    A command is a *port* (the default) unless registered with ``port=False``: it may
    reach files through door B (``shell.resolve()``), so it runs with its stdout and
    stderr folded (:mod:`pysh.shellkit.portout`): no host path gets out of it. pysh's
    own door-A builtins are registered with ``port=False``.
    """

    def __init__(self, table: Mapping[str, CommandTarget] | None = None, *, port: bool = True):
        self._targets: dict[str, CommandTarget] = {}
        self._loaded: dict[str, CommandFunc] = {}
        self._lazy_groups: list[str] = []
        self._door_a: set[str] = set()  # names registered with port=False
        if table:
            for name, target in table.items():
                self.register(name, target, port=port)

    def register(self, name: str, target: CommandTarget, *, port: bool = True) -> None:
        if not _valid_name(name):
            raise ValueError(f"invalid command name: {name!r}")
        if not (callable(target) or (isinstance(target, str) and ":" in target)):
            raise TypeError("a command is an async callable or a 'module:function' string")
        self._targets[name] = target
        self._loaded.pop(name, None)
        if port:
            self._door_a.discard(name)
        else:
            self._door_a.add(name)

    def register_many(self, table: Mapping[str, CommandTarget], *, port: bool = True) -> None:
        for name, target in table.items():
            self.register(name, target, port=port)

    def unregister(self, name: str) -> None:
        self._targets.pop(name, None)
        self._loaded.pop(name, None)
        self._door_a.discard(name)

    def is_port(self, name: str) -> bool:
        """Whether ``name`` is registered as a door-B command (its output is folded)."""
        return name in self._targets and name not in self._door_a

    def get(self, name: str) -> CommandFunc | None:
        func = self._loaded.get(name)
        if func is not None:
            return func
        target = self._targets.get(name)
        if target is None and self._lazy_groups:
            self._load_pending_entry_points()
            target = self._targets.get(name)
        if target is None:
            return None
        if isinstance(target, str):
            module_name, _, attr = target.partition(":")
            try:
                func = getattr(importlib.import_module(module_name), attr)
            except (ImportError, AttributeError) as e:
                raise CommandLoadError(f"{name}: cannot load {target}") from e
        else:
            func = target
        if name not in self._door_a:
            func = folding(func)
        self._loaded[name] = func
        return func

    def __contains__(self, name: object) -> bool:
        if name not in self._targets and self._lazy_groups:
            self._load_pending_entry_points()
        return name in self._targets

    def names(self) -> list[str]:
        if self._lazy_groups:
            self._load_pending_entry_points()
        return sorted(self._targets)

    def items(self) -> Iterable[tuple[str, CommandTarget]]:
        return self._targets.items()

    def copy(self) -> CommandRegistry:
        new = CommandRegistry()
        new._targets = dict(self._targets)
        new._loaded = dict(self._loaded)
        new._lazy_groups = list(self._lazy_groups)
        new._door_a = set(self._door_a)
        return new

    def load_entry_points(self, group: str = ENTRY_POINT_GROUP, *, lazy: bool = False) -> None:
        """Register commands that installed distributions advertise in ``group``.

        ``lazy``: scan the installed distributions (slow) only when a name is not
        found otherwise, or when the full list of names is asked for.
        """
        if lazy:
            self._lazy_groups.append(group)
            return
        from importlib.metadata import entry_points

        for ep in entry_points(group=group):
            if ep.name not in self._targets:
                self.register(ep.name, ep.value)

    def _load_pending_entry_points(self) -> None:
        groups, self._lazy_groups = self._lazy_groups, []
        for g in groups:
            self.load_entry_points(g)
