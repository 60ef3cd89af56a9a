"""The tripwire: a pytest plugin that fails any test in which sandbox code reaches the host.

Active for the whole suite (``tests/conftest.py`` loads it). An audit hook
(``sys.addaudithook``) watches what Python does *on a sandbox's worker thread*
(:func:`pysh.shellkit.worker.current`), where every script of the suite runs, and
records a violation when that code

* opens, lists, creates, removes, renames, links or changes a path whose real
  location (symlinks resolved, as the kernel would) is outside that sandbox's
  rules: its mount host roots, the Python installation, the emulated devices and
  the system data files (the worker's Landlock rules, the same list);
* starts a process (``subprocess.Popen``, ``os.exec*``, ``os.system``, ``os.fork``,
  ``os.posix_spawn``, ``os.spawn*``, ``os.forkpty``);
* connects, binds or sends a socket to anything but an address a test allowed
  (:func:`allow_socket`: an MCP test server) or an address the sandbox's own network
  policy permits (``curl``/``wget`` to a public address on an allowed port, or to an
  address an allow-list entry names: :meth:`pysh.shellkit.network.Network.permits_connect`).

The test then fails with the list. It sees what the kernel floor does not report
(it runs before the system call, with the floor on or off), so a port that would
have escaped fails its test even where Landlock stopped it.

What it cannot see: an ``open`` audit event carries no ``dir_fd``, so a relative
name is the core's own fd-relative open (or a cwd-relative one, which the kernel
floor refuses: the process cwd is outside every root); system calls made by C
code (SQLite, libjq, ctypes) raise no audit events; threads a worker starts are
not marked (the kernel restricts them all the same).
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading

import pytest

from pysh.shellkit import worker as _worker

_PATH_EVENTS = {
    # event: (indexes of path arguments, index of their dir_fd argument or None)
    "open": ((0,), None),
    "os.listdir": ((0,), None),
    "os.scandir": ((0,), None),
    "os.mkdir": ((0,), 2),
    "os.rmdir": ((0,), 1),
    "os.remove": ((0,), 1),
    "os.rename": ((0, 1), 2),
    "os.link": ((0, 1), 2),
    "os.symlink": ((1,), 2),  # the link itself; its target is only text
    "os.chmod": ((0,), 2),
    "os.chown": ((0,), 3),
    "os.utime": ((0,), 3),
    "os.truncate": ((0,), None),
    "shutil.rmtree": ((0,), 1),
    "shutil.copyfile": ((0, 1), None),
}
_PROCESS_EVENTS = {"subprocess.Popen", "os.exec", "os.system", "os.fork", "os.forkpty",
                   "os.posix_spawn", "os.spawn", "os.startfile", "pty.spawn"}
_SOCKET_EVENTS = {"socket.connect", "socket.bind", "socket.sendto", "socket.sendmsg"}
_EVENTS = frozenset(_PATH_EVENTS) | _PROCESS_EVENTS | _SOCKET_EVENTS

_violations: list[str] = []
_allowed_sockets: set = set()
_guard = threading.local()


def allow_socket(address) -> None:
    """Let sandbox threads reach ``address`` (e.g. ``("127.0.0.1", port)`` of a test server)."""
    _allowed_sockets.add(address)


def _roots(w) -> tuple[str, ...]:
    roots = getattr(w, "_tripwire_roots", None)
    if roots is None:
        roots = w._tripwire_roots = tuple(sorted({os.path.realpath(r.path) for r in w.rules
                                                  if r.path}))
    return roots


def _outside(path: str, roots: tuple[str, ...]) -> bool:
    real = os.path.realpath(path)
    return not any(real == r or real.startswith(r + "/") for r in roots)


def _hook(event: str, args: tuple) -> None:
    if event not in _EVENTS:
        return
    w = _worker.current()
    if w is None or getattr(_guard, "busy", False):
        return
    _guard.busy = True
    try:
        _check(w, event, args)
    except Exception as e:  # noqa: BLE001 - the tripwire must never break the code it watches
        _violations.append(f"{event}: tripwire error {type(e).__name__}: {e}")
    finally:
        _guard.busy = False


def _check(w, event: str, args: tuple) -> None:
    if event in _PROCESS_EVENTS:
        _violations.append(f"{event}: a process started on {w.name}: {args[:2]!r}")
        return
    if event in _SOCKET_EVENTS:
        address = args[1] if len(args) > 1 else None
        net = getattr(w, "network", None)
        if event == "socket.connect" and net is not None and net.permits_connect(address):
            return
        if address not in _allowed_sockets:
            _violations.append(f"{event}: a socket to {address!r} on {w.name}")
        return
    indexes, dir_fd_at = _PATH_EVENTS[event]
    if dir_fd_at is not None and len(args) > dir_fd_at and args[dir_fd_at] not in (None, -100):
        return  # relative to a held directory fd: the core's own walk
    for i in indexes:
        if i >= len(args):
            continue
        p = args[i]
        if isinstance(p, int) or p is None:
            continue  # an fd
        p = os.fsdecode(p)
        if not os.path.isabs(p):
            if dir_fd_at is not None:  # no dir_fd: relative to the host process's cwd
                _violations.append(f"{event}: {p!r} relative to the host cwd on {w.name}")
            continue
        if _outside(p, _roots(w)):
            _violations.append(f"{event}: {p!r} (really {os.path.realpath(p)!r}) is outside "
                               f"the sandbox on {w.name}")


@contextlib.contextmanager
def caught():
    """Collect the violations of the block instead of failing the test with them."""
    start = len(_violations)
    found: list[str] = []
    try:
        yield found
    finally:
        found.extend(_violations[start:])
        del _violations[start:]


def _fail_on_new(start: int, phase: str) -> None:
    new = _violations[start:]
    if new:
        del _violations[start:]
        shown = "\n  ".join(new[:20])
        more = f"\n  ... and {len(new) - 20} more" if len(new) > 20 else ""
        pytest.fail(f"tripwire ({phase}): sandbox code reached the host:\n  {shown}{more}",
                    pytrace=False)


def _wrap(phase: str):
    @pytest.hookimpl(wrapper=True)
    def hook(item):
        start = len(_violations)
        try:
            return (yield)
        finally:
            _fail_on_new(start, phase)
    return hook


pytest_runtest_setup = _wrap("setup")
pytest_runtest_call = _wrap("call")
pytest_runtest_teardown = _wrap("teardown")

_installed = False


def pytest_configure(config) -> None:
    global _installed
    if not _installed:
        sys.addaudithook(_hook)
        _installed = True
