"""The compiled-module cache: reused across processes, rebuilt (never loaded) when damaged."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from importlib.metadata import version

import wasmtime

from pysh.ports.python.runtime import Binary, Runtime, get_runtime

# A tiny WASI program (it exits 0): compiling it is instant, so the cache logic can be
# exercised without the 10-20 s compile of CPython.
TINY_WAT = """
(module
  (import "wasi_snapshot_preview1" "proc_exit" (func $exit (param i32)))
  (memory (export "memory") 1)
  (func (export "_start") (call $exit (i32.const 0))))
"""


def tiny_binary(tmp_path) -> Binary:
    data = wasmtime.wat2wasm(TINY_WAT)
    p = tmp_path / "tiny.wasm"
    p.write_bytes(data)
    return Binary(p, hashlib.sha256(data).hexdigest(), pinned=False)


def test_second_process_loads_without_compiling(tmp_path):
    rt = get_runtime()
    code, sums = rt.cache_paths()
    cache = tmp_path / "cache" / "pysh"
    cache.mkdir(parents=True)
    for f in (code, sums):
        shutil.copy(f, cache / f.name)
    child = ("import json; from pysh.ports.python.runtime import get_runtime; "
             "rt = get_runtime(); print(json.dumps([rt.compiled, str(rt.cache)]))")
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"))
    p = subprocess.run([sys.executable, "-c", child], env=env, capture_output=True, timeout=120)
    assert p.returncode == 0, p.stderr
    compiled, where = json.loads(p.stdout)
    assert compiled is False
    assert where == str(cache)


def test_cache_file_is_keyed_and_checked(tmp_path):
    binary = tiny_binary(tmp_path)
    cache = tmp_path / "cache"
    first = Runtime(binary, cache=cache)
    assert first.compiled
    code, sums = first.cache_paths()
    assert binary.sha256[:32] in code.name
    assert f"wasmtime{version('wasmtime')}" in code.name
    assert sums.read_text() == first._seal(code.read_bytes())
    assert Runtime(binary, cache=cache).compiled is False  # the second start loads it


def test_corrupt_cache_is_rebuilt_not_trusted(tmp_path):
    binary = tiny_binary(tmp_path)
    cache = tmp_path / "cache"
    rt = Runtime(binary, cache=cache)
    code, sums = rt.cache_paths()
    good = code.read_bytes()

    def damaged_then_rebuilt(damage) -> None:
        damage()
        again = Runtime(binary, cache=cache)
        assert again.compiled  # the damaged file was not loaded
        assert code.read_bytes() == good
        assert sums.read_text() == again._seal(good)

    flipped = bytearray(good)
    flipped[len(flipped) // 2] ^= 0xFF
    damaged_then_rebuilt(lambda: code.write_bytes(bytes(flipped)))
    damaged_then_rebuilt(lambda: code.write_bytes(good[: len(good) // 3]))
    damaged_then_rebuilt(lambda: code.write_bytes(b"\0" * len(good)))
    damaged_then_rebuilt(lambda: sums.write_text("0" * 64))
    damaged_then_rebuilt(lambda: sums.unlink())
    # Bytes wasmtime did write, for another module, with a plain sha256 of them beside:
    # the sum binds the bytes to this binary, so they are not loaded.
    other = bytes(wasmtime.Module(rt.engine, wasmtime.wat2wasm("(module)")).serialize())
    damaged_then_rebuilt(lambda: (code.write_bytes(other),
                                  sums.write_text(hashlib.sha256(other).hexdigest())))
