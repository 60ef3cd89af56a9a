"""``python3``: real CPython (compiled to WASI) run in-process by wasmtime, confined by door A."""

from pysh.ports.python.command import main

__all__ = ["main"]
