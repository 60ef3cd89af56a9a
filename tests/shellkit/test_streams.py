"""Pipes with backpressure and SIGPIPE-like early exit; readers; the registry."""

from __future__ import annotations

import anyio
import pytest

from pysh.shellkit import (
    BrokenPipe,
    BytesInput,
    CaptureOutput,
    CommandLoadError,
    CommandRegistry,
    Pipe,
)


def run(coro_fn, *args):
    return anyio.run(coro_fn, *args)


def test_pipe_streams_and_stops_producer_when_reader_leaves():
    async def main():
        pipe = Pipe(capacity=1024)
        w, r = pipe.writer(), pipe.reader()
        produced = 0

        async def producer():
            nonlocal produced
            try:
                while True:  # `yes`
                    await w.write(b"y\n" * 100)
                    produced += 1
            except BrokenPipe:
                return "broken"
            finally:
                w.close()

        async def consumer():  # `head -n 1`
            line = await r.readline()
            r.close()
            return line

        results = {}

        async def wrap(name, fn):
            results[name] = await fn()

        async with anyio.create_task_group() as tg:
            tg.start_soon(wrap, "p", producer)
            tg.start_soon(wrap, "c", consumer)
        assert results == {"p": "broken", "c": b"y\n"}
        assert produced < 50  # backpressure: the producer never ran far ahead

    run(main)


def test_reader_sees_eof_after_last_writer_closes():
    async def main():
        pipe = Pipe()
        w1, r = pipe.writer(), pipe.reader()
        w2 = w1.dup()
        await w1.write(b"a\n")
        w1.close()
        await w2.write(b"b")
        w2.close()
        assert [line async for line in r.lines()] == [b"a\n", b"b"]
        assert await r.read() == b""

    run(main)


def test_input_stream_reads():
    async def main():
        s = BytesInput(b"one\ntwo\x00three\rfour\nfive")
        assert await s.readline() == b"one\n"
        assert await s.read_until(b"\x00") == b"two\x00"
        assert await s.read(3) == b"thr"
        assert [line async for line in s.lines()] == [b"ee\rfour\n", b"five"]

    run(main)


def test_capture_truncates_at_its_limit():
    async def main():
        c = CaptureOutput(limit=5)
        await c.write(b"abc")
        await c.write(b"defgh")
        assert c.getvalue() == b"abcde" and c.truncated

    run(main)


async def _cmd(shell, argv):
    return 7


def test_registry_lazy_and_validated():
    reg = CommandRegistry({"seven": _cmd, "lazy": "tests.shellkit.test_streams:_cmd"})
    assert reg.names() == ["lazy", "seven"]
    assert reg.get("lazy").__wrapped__ is _cmd  # a port by default: run with its output folded
    assert CommandRegistry({"lazy": "tests.shellkit.test_streams:_cmd"}, port=False).get("lazy") is _cmd
    assert reg.get("nope") is None
    reg.register("bad", "no.such.module:main")
    with pytest.raises(CommandLoadError):
        reg.get("bad")
    for name in ("", "a/b"):
        with pytest.raises(ValueError):
            reg.register(name, _cmd)


def test_scoped_budget_deadline_is_its_own():
    import time

    from pysh.shellkit import Budget, LimitExceeded

    run_budget = Budget()
    child = run_budget.scoped(0.01)
    time.sleep(0.02)
    run_budget.check()  # the run goes on
    with pytest.raises(LimitExceeded) as ei:
        child.check()
    assert ei.value.budget is child and ei.value.status == 124
    run_budget2 = Budget(timeout=0.0)
    with pytest.raises(LimitExceeded) as ei:
        run_budget2.scoped(100).check()
    assert ei.value.budget is run_budget2


class _Zero:
    """A source that never blocks, like /dev/zero (a little slow, and ending after 128 MiB,
    so that a regression fails instead of eating memory or hanging)."""

    def __init__(self):
        import time

        self.sleep = time.sleep
        self.left = 128 << 20

    def read(self, n):
        self.sleep(0.0005)
        n = min(n, self.left)
        self.left -= n
        return b"\0" * n

    def close(self):
        pass


@pytest.mark.parametrize("how", ["read", "readline", "read_exactly", "lines", "line_blocks"])
def test_every_gathering_read_stops_at_the_cap(how):
    from pysh.shellkit import FileInput, LimitExceeded

    async def main():
        s = FileInput(_Zero())
        s.cap = 1 << 20
        with pytest.raises(LimitExceeded) as e:
            if how == "read":
                await s.read()
            elif how == "readline":
                await s.readline()
            elif how == "read_exactly":
                await s.read_exactly(1 << 30)
            else:
                async for _ in getattr(s, how)():
                    pass
        assert str(e.value) == "string: limit exceeded (1048576 bytes)"

    run(main)


def test_a_read_that_never_blocks_still_lets_a_deadline_fire():
    # A file read never awaits anything that suspends: the stream must let the event loop
    # run now and then, or a cancel scope's deadline never lands inside read().
    import time

    from pysh.shellkit import FileInput

    async def main():
        s = FileInput(_Zero())
        s.cap = 64 << 20  # reached only after ~0.5 s: before it, only the deadline ends this
        t0 = time.monotonic()
        with anyio.move_on_after(0.2) as scope:
            await s.readline()
        assert scope.cancelled_caught
        assert time.monotonic() - t0 < 1.2

    run(main)
