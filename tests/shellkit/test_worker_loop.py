"""The worker runs a job's coroutine without an event loop until it asks for one."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading

import pytest

from pysh.shellkit.worker import Worker, ensure_loop, loop_running


@pytest.fixture
def worker():
    w = Worker(restrict=False).start()
    yield w
    w.close()


def test_a_job_that_never_suspends_needs_no_loop(worker):
    async def job():
        return loop_running(), threading.current_thread().name

    assert worker.call(job) == (False, "pysh-worker")
    assert worker.loop is None


def test_the_rest_of_a_job_moves_onto_the_loop(worker):
    async def job():
        import anyio

        before = loop_running()
        await ensure_loop()
        await anyio.sleep(0.01)  # suspends for real
        async with anyio.create_task_group() as tg:
            tg.start_soon(anyio.sleep, 0)
        return before, loop_running()

    assert worker.call(job) == (False, True)
    assert worker.loop is not None
    # the next job starts without the loop again, on the same thread
    assert worker.call(lambda: loop_running()) is False


def test_errors_and_cancellation_reach_the_moved_coroutine(worker):
    async def fails():
        await ensure_loop()
        raise KeyError("x")

    with pytest.raises(KeyError):
        worker.call(fails)

    seen = []

    async def sleeps():
        await ensure_loop()
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            seen.append("cancelled")
            raise

    async def caller():
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(worker.acall(sleeps), 0.5)

    asyncio.run(caller())
    assert seen == ["cancelled"]


def test_a_plain_run_imports_no_event_loop():
    # start-up cost: `pysh -c` with a script that needs no concurrency never imports
    # asyncio or anyio; one with a pipeline does, and both give the right output
    code = ("import sys, pysh.cli; st = pysh.cli.main(['-c', sys.argv[1]]); "
            "print('asyncio' in sys.modules, 'anyio' in sys.modules, st)")
    plain = subprocess.run([sys.executable, "-c", code, "x=$((6*7)); echo $x; f() { echo f$1; }; f 1"],
                           capture_output=True, text=True, timeout=120)
    assert plain.stdout == "42\nf1\nFalse False 0\n", plain.stderr
    piped = subprocess.run([sys.executable, "-c", code, "echo a; echo hi | tr a-z A-Z; echo b"],
                           capture_output=True, text=True, timeout=120)
    assert piped.stdout == "a\nHI\nb\nTrue True 0\n", piped.stderr
