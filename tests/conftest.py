"""Suite-wide plugins: the tripwire (tests/tripwire.py) watches every sandbox thread."""

pytest_plugins = ["tests.tripwire"]
