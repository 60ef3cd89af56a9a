"""Fixtures for the ports: the shellkit trap tree, and a helper that runs a port in an instance."""

from __future__ import annotations

import errno
import os

import pytest

from pysh.commands import default_registry
from pysh.interpreter import ExecCommand
from pysh.shellkit import FileSystemError
from tests.harness import instance, run_cmd
from tests.shellkit.conftest import CANARY, SECRET, assert_no_canary, build_tree  # noqa: F401


@pytest.fixture
def tree(tmp_path):
    return build_tree(str(tmp_path))


@pytest.fixture
def inst(tree):
    with instance(tree.ws, registry=default_registry()) as ex:
        yield ex


@pytest.fixture
def sibling(tmp_path):
    """Another instance: its /tmp is a host directory the first one must never reach."""
    ws = tmp_path / "sibling-ws"
    ws.mkdir()
    with ExecCommand(str(ws), registry=default_registry()) as ex:
        with open(os.path.join(ex.temp_dir, "theirs.txt"), "wb") as f:
            f.write(b"sibling data " + CANARY.encode())
        yield ex


def run(ex, argv, stdin=b"", cwd=None, env=None):
    """Run a port; nothing it prints may name a host directory (beyond echoing an operand)."""
    r = run_cmd(ex, argv, stdin, cwd=cwd, env=env)
    out, err = r.out, r.err
    for a in argv:
        if CANARY in a:  # a host spelling typed by the caller may be echoed back as typed
            for piece in sorted({a, os.path.dirname(a), a.split(" ", 1)[-1]}, key=len,
                                reverse=True):
                if CANARY in piece:
                    out, err = out.replace(piece, ""), err.replace(piece, "")
    assert_no_canary(out, err)
    return r


def door_a_errno(ex, path: str) -> int:
    """The errno the FileSystem door gives for reading ``path``."""
    try:
        ex.shell.fs.read_bytes(path)
    except FileSystemError as e:
        return e.errno
    return 0


def strerror(code: int) -> str:
    return os.strerror(code)


ENOENT, EACCES = errno.ENOENT, errno.EACCES
