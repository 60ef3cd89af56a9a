"""Suite-wide plugins: the tripwire (tests/tripwire.py) watches every sandbox thread; and
the tests marked ``overlay_too`` run twice in ``make test``: on a plain workspace and on
one mounted as an overlay (a representative selection: ``make test-overlay`` runs the
whole suite that way, which takes as long as the suite itself)."""

import pytest

from tests import harness

pytest_plugins = ["tests.tripwire"]


def pytest_configure(config) -> None:
    config.addinivalue_line("markers", "overlay_too: run on a plain and on an overlay workspace")
    config.addinivalue_line("markers", "plain_only(why): checks the host directory's own "
                                       "effects, so it runs on a plain workspace only")


def pytest_generate_tests(metafunc) -> None:
    if metafunc.definition.get_closest_marker("overlay_too") and not harness.overlay_mode():
        metafunc.parametrize("workspace_layers", ["plain", "overlay"], indirect=True)


@pytest.fixture(autouse=True)
def workspace_layers(request):
    """(autouse, so it is set before the fixtures that build an instance)"""
    if getattr(request, "param", None) == "overlay":
        with harness.overlay_workspace():
            yield
    else:
        with harness.plain_workspace(request.node.get_closest_marker("plain_only")):
            yield
