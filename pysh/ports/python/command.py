"""The ``python3`` command: options, refusals, running the guest on a worker thread."""

from __future__ import annotations

import anyio

from pysh.shellkit import Shell


async def main(shell: Shell, argv: list[str]) -> int:
    from pysh.ports.python.runtime import RuntimeUnavailable, get_runtime
    from pysh.ports.python.wasi import Guest

    prog = argv[0].rsplit("/", 1)[-1] or "python3"
    try:
        rt = await anyio.to_thread.run_sync(get_runtime)
    except RuntimeUnavailable as e:
        await shell.error(prog, str(e))
        return 127
    guest = Guest(shell, ["python3", *argv[1:]], shell.env, cwd=shell.cwd, cwd_slot=rt.cwd_slot)
    return await _run(shell, rt, guest)


async def _run(shell: Shell, rt, guest) -> int:
    limit = getattr(shell.budget.limits, "python_memory", None)
    done = anyio.Event()
    try:
        await anyio.to_thread.run_sync(rt.run, guest, limit, abandon_on_cancel=True)
    except anyio.get_cancelled_exc_class():
        guest.kill()
        with anyio.CancelScope(shield=True):
            while not guest.finished.is_set():
                await anyio.sleep(0.005)
        raise
    del done
    if guest.stop_exc is not None:
        raise guest.stop_exc
    if guest.exit_code is not None:
        return guest.exit_code
    if guest.trap is not None:
        await shell.error("python3", "the interpreter stopped: " + _trap_text(guest.trap))
        return 1
    return 0


def _trap_text(trap) -> str:
    code = getattr(trap, "trap_code", None)
    return str(code.name).lower().replace("_", " ") if code is not None else "fatal error"
