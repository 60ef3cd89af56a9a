"""Fixtures: a local HTTP server on 127.0.0.1 and sandboxes whose allow-list names it."""

from __future__ import annotations

import pytest

from pysh.api import Sandbox
from pysh.shellkit.network import Network
from tests.ports.net.server import Server


@pytest.fixture(scope="module")
def server():
    with Server() as s:
        yield s


@pytest.fixture(scope="module")
def sb(server):
    """A sandbox allowed to reach the test server (its literal address: loopback is refused
    unless an entry names it)."""
    with Sandbox(network=Network([server.base + "/"])) as box:
        yield box


def run(box, script: str, **kw):
    r = box.run(script, **kw)
    assert "internal error" not in r.stderr, r.stderr
    assert "Traceback" not in r.stderr
    return r
