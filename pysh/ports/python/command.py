"""The ``python3`` command (also ``python``, ``python3.12``).

CPython parses its own options; this module only looks for ``-m MODULE`` to
refuse what cannot work in a sandbox (installs, servers), then runs the guest
on a worker thread of its own. The guest's host functions block that thread,
never the event loop: the shell's pipes keep flowing while it runs, and a
cancelled run (timeout, Ctrl-C, a closed pipeline) stops the guest at its next
host call or epoch tick before this command returns.
"""

from __future__ import annotations

import threading

import anyio

from pysh.shellkit import Shell
from pysh.shellkit.worker import ensure_loop

_NO_INSTALLS = ("no network and no installs here; python3 has CPython 3.12's standard library "
                "(json, csv, re, sqlite3, pathlib, argparse, unittest, ...) and nothing else")
_REFUSED = {  # (a bare ``pip`` is not found, with a hint: pysh.shellkit.hints)
    "pip": f"pip is not available: {_NO_INSTALLS}",
    "ensurepip": f"ensurepip is not available: {_NO_INSTALLS}",
    "venv": f"venv is not available: {_NO_INSTALLS}",
    "virtualenv": f"virtualenv is not available: {_NO_INSTALLS}",
    "http.server": "http.server is not available: python3 has no network in this sandbox",
}
# CPython's short options that take a value (the value may be attached: -Wignore).
_VALUE_OPTS = "WX"


def module_operand(args: list[str]) -> str | None:
    """The MODULE of ``-m MODULE`` when that is what runs, else None."""
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--" or a == "-" or not a.startswith("-"):
            return None  # a script operand (or stdin) ends the options
        if a.startswith("--"):
            i += 2 if a == "--check-hash-based-pycs" else 1
            continue
        for j in range(1, len(a)):
            c = a[j]
            if c in "cm":
                value = a[j + 1:] or (args[i + 1] if i + 1 < len(args) else None)
                return value if c == "m" else None
            if c in _VALUE_OPTS:
                if not a[j + 1:]:
                    i += 1
                break
        i += 1
    return None


async def main(shell: Shell, argv: list[str]) -> int:
    from pysh.ports.python.runtime import RuntimeUnavailable, get_runtime
    from pysh.ports.python.wasi import Guest

    await ensure_loop()  # the guest runs on a thread the loop waits for

    prog = argv[0].rsplit("/", 1)[-1] or "python3"
    module = module_operand(argv[1:])
    if module in _REFUSED:
        await shell.error(prog, f"-m {module}: {_REFUSED[module]}")
        return 1
    try:
        rt = await _runtime(get_runtime)
    except RuntimeUnavailable as e:
        await shell.error(prog, str(e))
        return 127
    guest = Guest(shell, [prog, *argv[1:]], shell.env, cwd=shell.cwd, cwd_slot=rt.cwd_slot)
    return await _run(shell, rt, guest)


async def _runtime(get_runtime):
    """The process's runtime. Loading it reads (and the first time writes) the compiled
    module in the user's cache directory, which a sandbox's kernel-restricted worker thread
    may not touch: there it is loaded on pysh's unrestricted service thread."""
    from pysh.ports.python import runtime
    from pysh.shellkit import landlock, worker

    if runtime._runtime is not None:
        return runtime._runtime
    if worker.current() is None and not landlock.thread_is_restricted():
        return await anyio.to_thread.run_sync(get_runtime)
    done = threading.Event()
    box: dict = {}

    def job() -> None:
        try:
            box["rt"] = get_runtime()
        except BaseException as e:  # noqa: BLE001 - handed back to the caller below
            box["error"] = e
        finally:
            done.set()

    worker.unrestricted(job)
    await anyio.to_thread.run_sync(done.wait, abandon_on_cancel=True)
    if "error" in box:
        raise box["error"]
    return box["rt"]


async def _run(shell: Shell, rt, guest) -> int:
    limit = shell.budget.limits.python_memory
    try:
        # A limiter of its own: a long-running guest must not hold a token of anyio's shared
        # pool, which the shell's own blocking reads need.
        await anyio.to_thread.run_sync(rt.run, guest, limit, abandon_on_cancel=True,
                                       limiter=anyio.CapacityLimiter(1))
    except anyio.get_cancelled_exc_class():
        guest.kill()
        with anyio.CancelScope(shield=True):
            while not guest.finished.is_set():
                await anyio.sleep(0.005)
        raise
    if guest.stop_exc is not None:
        raise guest.stop_exc
    if guest.exit_code is not None:
        return guest.exit_code
    if guest.trap is not None:
        await shell.error("python3", _trap_text(guest.trap))
        return 1
    return 0


def _trap_text(trap) -> str:
    code = getattr(trap, "trap_code", None)
    if code is not None and code.name == "MEMORY_OUT_OF_BOUNDS":
        # The WASI build's C stack is small (about 60 levels of Python -> C -> Python
        # recursion, e.g. a recursive lru_cache function); running past it lands here.
        return "fatal error: the interpreter's C stack overflowed (deep recursion through C code)"
    if code is not None and code.name == "STACK_OVERFLOW":
        return "fatal error: stack overflow"
    return "fatal error: the interpreter stopped (" + (code.name.lower() if code else "trap") + ")"
