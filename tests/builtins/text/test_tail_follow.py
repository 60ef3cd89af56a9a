"""tail -f / -F: following through the door until the budget says stop."""

from __future__ import annotations

import anyio
import pytest

from pysh.shellkit import Budget, BytesInput, CaptureOutput, Interrupted, LimitExceeded
from tests.harness import FOLLOWS_A_DESCRIPTOR, sandbox


def _follow(ex, argv, actions, timeout=1.5, interrupt_after=None):
    """Run tail with a fresh budget; `actions` is [(delay, fn(fs))] run concurrently."""
    out, err = CaptureOutput(), CaptureOutput()
    budget = Budget(timeout=timeout)
    shell = ex.shell.child(fds={0: BytesInput(b""), 1: out, 2: err}, budget=budget)
    func = shell.registry.get("tail")
    outcome = {}

    async def main():
        async with anyio.create_task_group() as tg:
            async def driver():
                for delay, fn in actions:
                    await anyio.sleep(delay)
                    fn(shell.fs)
                if interrupt_after is not None:
                    await anyio.sleep(interrupt_after)
                    budget.interrupt()

            tg.start_soon(driver)
            try:
                outcome["status"] = await func(shell, argv)
            except (LimitExceeded, Interrupted) as e:
                outcome["exc"] = e
            tg.cancel_scope.cancel()

    anyio.run(main)
    return outcome, out.getvalue(), err.getvalue()


@pytest.mark.plain_only(FOLLOWS_A_DESCRIPTOR)
def test_follow_until_deadline_sees_appends():
    with sandbox({"log": "one\ntwo\n"}) as ex:
        outcome, out, err = _follow(
            ex, ["tail", "-f", "-s", "0.05", "-n", "1", "log"],
            [(0.2, lambda fs: fs.append_bytes("log", b"three\n")),
             (0.2, lambda fs: fs.append_bytes("log", b"four\n"))], timeout=1.0)
        assert isinstance(outcome.get("exc"), LimitExceeded)
        assert out == b"two\nthree\nfour\n"


@pytest.mark.plain_only(FOLLOWS_A_DESCRIPTOR)
def test_follow_interrupted():
    with sandbox({"log": "a\n"}) as ex:
        outcome, out, _ = _follow(ex, ["tail", "-f", "-s", "0.05", "log"],
                                  [(0.1, lambda fs: fs.append_bytes("log", b"b\n"))],
                                  timeout=30, interrupt_after=0.2)
        assert isinstance(outcome.get("exc"), Interrupted)
        assert out == b"a\nb\n"


@pytest.mark.plain_only(FOLLOWS_A_DESCRIPTOR)
def test_follow_truncation_reported():
    with sandbox({"log": "aaaa\nbbbb\n"}) as ex:
        outcome, out, err = _follow(
            ex, ["tail", "-f", "-s", "0.05", "log"],
            [(0.2, lambda fs: fs.write_bytes("log", b"new\n"))], timeout=0.8)
        assert out == b"aaaa\nbbbb\nnew\n"
        assert b"tail: log: file truncated\n" in err


def test_follow_name_sees_replacement():
    def replace(fs):
        fs.write_bytes("log.new", b"fresh\n")
        fs.rename("log.new", "log")

    with sandbox({"log": "old\n"}) as ex:
        outcome, out, err = _follow(ex, ["tail", "-F", "-s", "0.05", "log"],
                                    [(0.2, replace)], timeout=0.8)
        assert out == b"old\nfresh\n"
        assert b"has been replaced;  following new file" in err


@pytest.mark.plain_only(FOLLOWS_A_DESCRIPTOR)
def test_follow_multiple_files_headers():
    with sandbox({"a": "1\n", "b": "2\n"}) as ex:
        outcome, out, _ = _follow(ex, ["tail", "-f", "-s", "0.05", "a", "b"],
                                  [(0.2, lambda fs: fs.append_bytes("a", b"3\n"))], timeout=0.7)
        assert out == b"==> a <==\n1\n\n==> b <==\n2\n\n==> a <==\n3\n"


def test_follow_pid_gone_stops():
    with sandbox({"log": "x\n"}) as ex:
        outcome, out, _ = _follow(ex, ["tail", "-f", "--pid=4242", "-s", "0.05", "log"], [],
                                  timeout=5)
        assert outcome.get("status") == 0
        assert out == b"x\n"


@pytest.mark.parametrize("argv", [["tail", "-f", "-n", "1"], ["tail", "-f", "-", "-n", "1"]])
def test_follow_on_pipe_just_tails(argv):
    with sandbox({}) as ex:
        out, err = CaptureOutput(), CaptureOutput()
        shell = ex.shell.child(fds={0: BytesInput(b"a\nb\n"), 1: out, 2: err},
                               budget=Budget(timeout=5))
        status = anyio.run(shell.registry.get("tail"), shell, argv)
        assert status == 0 and out.getvalue() == b"b\n"
