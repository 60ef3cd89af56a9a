"""``python3``: real CPython (compiled to WASI) run in-process by wasmtime, confined by door A."""

from pysh.ports.python.command import main, pip_main

__all__ = ["main", "pip_main"]
