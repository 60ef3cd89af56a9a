"""pysh: a bash interpreter in Python that runs every command in-process, inside a sandbox."""

__version__ = "0.1.0"
