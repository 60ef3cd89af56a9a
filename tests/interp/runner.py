"""Run a script through pysh in-process (for the interpreter's own tests)."""

from __future__ import annotations

from pysh.shellkit import BytesInput, CaptureOutput, Limits
from tests.harness import Result, sandbox


def run_script(source: str, *, stdin: bytes = b"", files=None, args=(), name: str = "pysh",
               limits: Limits | None = None, timeout: float | None = 20.0) -> Result:
    from pysh.interpreter.toplevel import fresh_budget, make_interp, make_session, run_main

    with sandbox(files or {}, limits=limits or Limits(timeout=timeout)) as ex:
        session = make_session(ex)
        out, err = CaptureOutput(), CaptureOutput()
        interp = make_interp(session, fds={0: BytesInput(stdin), 1: out, 2: err}, argv0=name,
                             args=list(args))
        fresh_budget(interp, timeout if limits is None else limits.timeout)
        interp.script_path = name  # as `bash script.sh` runs the recordings

        async def body(it):
            return await it.run_source(source, name=name)

        status = ex.call(run_main, interp, body)  # on the worker thread, as the faces run
        return Result(status, out.getvalue(), err.getvalue())
