"""Running a script in a sandbox instance: the entry points the faces use."""

from __future__ import annotations

import sys
import time

# importing the module registers its builtins
from pysh.interpreter import builtins_complete as _builtins_complete  # noqa: F401,E402
from pysh.interpreter import builtins_history as _builtins_history  # noqa: F401,E402
from pysh.interpreter import builtins_vars as _builtins_vars  # noqa: F401,E402
from pysh.interpreter.builtins_core import BUILTINS
from pysh.interpreter.errors import ExitShell
from pysh.interpreter.exec_command import USER, ExecCommand
from pysh.interpreter.runner import STATUS_SIGPIPE, Interp, Session
from pysh.shellkit import BrokenPipe, Budget, InputStream, Interrupted, LimitExceeded, WriteError
from pysh.shellkit.worker import ensure_loop, loop_running


def make_session(ex: ExecCommand) -> Session:
    session = Session(ex.shell, user=USER, home=ex.workspace)
    session.builtins = BUILTINS
    return session


def make_interp(session: Session, *, fds: dict, argv0: str = "pysh", args=(),
                interactive: bool = False) -> Interp:
    session.shell_stdin = fds.get(0)
    cap = session.root.budget.limits.max_string_length
    for s in fds.values():
        if isinstance(s, InputStream):
            s.cap = cap  # the face's own stdin is read within the run's string limit
    return Interp(session, fds=fds, argv0=argv0, args=list(args), interactive=interactive)


def fresh_budget(interp: Interp, timeout: float | None = None) -> Budget:
    """A new budget (deadline and counters) for one run of this session."""
    session = interp.session
    budget = Budget(session.root.budget.limits, timeout=timeout)
    session.budget = budget
    session.root.budget = budget
    _set_budget(interp, budget)
    return budget


def _set_budget(interp: Interp, budget: Budget) -> None:
    interp.budget = budget


async def run_main(interp: Interp, body, *, task_group=None) -> int:
    """Run ``body(interp)`` (a coroutine function) as one top-level run.

    Owns where background jobs and process substitutions run (a :class:`JobGroup`,
    ended with the run), applies the wall-clock deadline, and turns limits into
    clean diagnostics. With ``task_group`` (anything with ``start_soon``, e.g. a
    long-lived group of the REPL or the API), background work goes there instead
    and outlives the run: its owner decides when it ends.

    Without a deadline the run needs no event loop of its own: it moves onto one
    (``ensure_loop``) only when its script needs one. With a deadline it moves at
    once, so that the deadline's cancel scope covers the whole run; loading the
    loop (the first time: importing asyncio and anyio) is start-up work, not the
    script's, and does not count against the deadline. (Either way the budget's
    checks stop CPU-bound work at the deadline.)
    """
    _allow_deep_calls()
    session = interp.session
    budget = interp.budget
    remaining = budget.remaining()
    err_stream = interp.fds.get(2)  # kept: the body may close the shell's fds when it ends

    async def report(text: str) -> None:
        if err_stream is not None:
            try:
                await err_stream.write(text.encode("utf-8", "surrogateescape"))
            except Exception:  # noqa: BLE001 - nowhere left to report to
                pass

    status = 0
    timed_out = False
    try:
        own = task_group is None
        session.task_group = JobGroup() if own else task_group
        try:
            if remaining is None:
                status = await body(interp)
                if own:
                    await _let_jobs_finish(session)
            else:
                import anyio

                if not loop_running():
                    t0 = time.monotonic()
                    await ensure_loop()
                    anyio.current_time()  # (loads anyio's backend for the loop)
                    budget.postpone(time.monotonic() - t0)
                    remaining = budget.remaining()
                with anyio.move_on_after(remaining) as scope:
                    status = await body(interp)
                    if own:
                        await _let_jobs_finish(session)
                timed_out = scope.cancelled_caught
        finally:
            group, session.task_group = session.task_group, None
            if own:
                await group.close()
    except LimitExceeded as e:
        await report(f"{interp.argv0}: {e}\n")
        return e.status
    except RecursionError:  # nesting that no function call counted (a last resort)
        e = LimitExceeded("nesting", "as deep as this interpreter's stack goes")
        await report(f"{interp.argv0}: {e}\n")
        return e.status
    except Interrupted:
        return 130
    except ExitShell as e:
        status = e.status
    except BrokenPipe:  # the shell itself wrote to a closed stdout: bash dies of SIGPIPE
        return STATUS_SIGPIPE
    except WriteError as e:  # a write of the shell's own outside any command
        await report(f"{interp.argv0}: write error: {e}\n")
        return 1
    except BaseExceptionGroup as eg:  # noqa: F821 - a limit raised inside a task group
        limit = _first(eg, LimitExceeded)
        if limit is not None:
            await report(f"{interp.argv0}: {limit}\n")
            return limit.status
        if _first(eg, Interrupted) is not None:
            return 130
        ex = _first(eg, ExitShell)
        if ex is not None:
            return ex.status
        if _first(eg, BrokenPipe) is not None:
            return STATUS_SIGPIPE
        await report(f"{interp.argv0}: internal error ({_describe(eg)})\n")
        return 1
    except Exception as e:  # noqa: BLE001 - never a traceback in the script's output
        await report(f"{interp.argv0}: internal error ({type(e).__name__})\n")
        return 1
    if timed_out:
        err = budget.timeout_error()
        await report(f"{interp.argv0}: {err}\n")
        return err.status
    return status


# Python frames a run may nest. A shell function call costs 12-15 of them, and each
# resumed coroutine frame also uses C stack: 10,000 frames (about 700 levels of shell
# functions) stay well inside an 8 MiB thread stack, where the interpreter's default of
# 1,000 allows under 100 levels. Past it, the run ends with a clean "limit exceeded".
PYTHON_FRAMES = 10_000


def _allow_deep_calls() -> None:
    if sys.getrecursionlimit() < PYTHON_FRAMES:
        sys.setrecursionlimit(PYTHON_FRAMES)


JOB_GRACE = 1.0  # seconds left to background work when the script ends


async def _let_jobs_finish(session) -> None:
    """bash leaves its background jobs running after it exits, and their output still
    shows; an in-process shell cannot outlive its run, so it gives them a moment."""
    live = [j for j in session.jobs.values() if not j.done]
    if not live:
        return
    import anyio

    await ensure_loop()
    with anyio.move_on_after(JOB_GRACE):
        for j in live:
            await j.event.wait()


class JobGroup:
    """Where a run's background work (``&``, process substitutions) runs, in place of a
    task group: each is a task of the running loop, and :meth:`close` ends those still
    running, as the end of a task group would. Unlike a task group it costs nothing
    until used: a run without background work never needs an event loop for it."""

    __slots__ = ("_live", "_idle")

    def __init__(self) -> None:
        self._live: dict = {}  # cancel scope -> its task (a loop keeps only weak references)
        self._idle = None

    def start_soon(self, func, *args, name=None) -> None:
        """Start ``func(*args)`` (the caller runs on the loop: it awaited ensure_loop)."""
        import asyncio

        import anyio

        scope = anyio.CancelScope()
        live = self._live

        async def task() -> None:
            try:
                with scope:
                    try:
                        await func(*args)
                    except (Exception, LimitExceeded, Interrupted):  # noqa: BLE001
                        pass  # background work never takes the run's loop down
            finally:
                live.pop(scope, None)
                if not live and self._idle is not None:
                    self._idle.set()

        live[scope] = asyncio.get_running_loop().create_task(task(), name=name)

    async def close(self) -> None:
        if not self._live:
            return
        import anyio

        self._idle = anyio.Event()
        for scope in list(self._live):
            scope.cancel()
        with anyio.CancelScope(shield=True):
            await self._idle.wait()


def _describe(eg) -> str:
    for e in eg.exceptions:
        if isinstance(e, BaseExceptionGroup):  # noqa: F821
            return _describe(e)
        return type(e).__name__
    return "error"


def _first(eg, kind):
    for e in eg.exceptions:
        if isinstance(e, kind):
            return e
        if isinstance(e, BaseExceptionGroup):  # noqa: F821
            found = _first(e, kind)
            if found is not None:
                return found
    return None
