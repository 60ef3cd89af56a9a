"""python3 tests: the runtime is built (or loaded from the user's cache) once per session."""

from __future__ import annotations

import pytest

from pysh.api import Sandbox


@pytest.fixture(scope="session", autouse=True)
def runtime():
    from pysh.ports.python.runtime import get_runtime

    return get_runtime()  # the first session on a machine compiles it (10-20 s), later ones load it


@pytest.fixture
def sb(tmp_path):
    ws = tmp_path / "ws"
    ws.mkdir()
    with Sandbox(str(ws)) as s:
        s.host = ws
        yield s
