"""A concurrent symlink swap must never win: zero outside reads through the door."""

from __future__ import annotations

import ctypes
import os
import threading
import time

import pytest

from pysh.shellkit import FileSystemError
from tests.harness import PLANTS_ON_THE_HOST
from tests.shellkit.conftest import CANARY

_libc = ctypes.CDLL(None, use_errno=True)
_RENAME_EXCHANGE = 2


def _exchange(a: str, b: str) -> None:
    """Atomically swap two names (renameat2 RENAME_EXCHANGE), or a 4-step rename dance."""
    if hasattr(_libc, "renameat2"):
        if _libc.renameat2(-100, a.encode(), -100, b.encode(), _RENAME_EXCHANGE) == 0:
            return
    tmp = a + ".swap"
    os.rename(a, tmp)
    os.rename(b, a)
    os.rename(tmp, b)


@pytest.mark.plain_only(PLANTS_ON_THE_HOST)
def test_swap_race_has_no_outside_reads(instance, tree):
    ws = instance.workspace_dir
    real = os.path.join(ws, "swap")
    os.mkdir(real)
    with open(os.path.join(real, "f"), "wb") as f:
        f.write(b"inside")
    with open(os.path.join(tree.outside, "f"), "wb") as f:
        f.write(CANARY.encode())
    other = os.path.join(ws, "swap_other")
    os.symlink(tree.outside, other)

    stop = threading.Event()
    swaps = 0

    def swapper():
        nonlocal swaps
        while not stop.is_set():
            _exchange(real, other)
            swaps += 1

    t = threading.Thread(target=swapper, daemon=True)
    t.start()
    shell = instance.shell
    root = os.path.realpath(ws)
    reads = inside = denied = 0
    outside_reads = 0
    resolved_bad = []
    deadline = time.monotonic() + 2.0
    try:
        while time.monotonic() < deadline:
            try:
                data = shell.fs.read_bytes("/batch/swap/f")
                reads += 1
                if CANARY.encode() in data:
                    outside_reads += 1
                else:
                    inside += 1
            except FileSystemError:
                denied += 1
            try:
                host = str(shell.resolve("/batch/swap/f"))
                if not host.startswith(root + "/") or host != os.path.normpath(host) \
                        or host != os.path.join(root, "swap", "f"):
                    resolved_bad.append(host)
            except FileSystemError:
                pass
    finally:
        stop.set()
        t.join()
    assert swaps > 100
    assert inside > 0 and denied > 0  # the race really happened both ways
    assert outside_reads == 0
    assert resolved_bad == []
