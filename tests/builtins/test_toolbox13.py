"""Issue 13 §3 commands: what golden tests cannot show -- the sandbox's refusals and limits."""

from __future__ import annotations

import pytest

from tests.harness import run_cmd, sandbox

FILES = {"src/a": "a\n", "src/sub/b": "b\n", "f": "hello\n"}


@pytest.mark.parametrize("operand", ["host:/x", "user@host:dir", "host::module", "rsync://h/m"])
def test_rsync_remote_refused(operand):
    with sandbox(FILES) as ex:
        r = run_cmd(ex, ["rsync", "-a", "src/", operand])
        assert r.status == 10
        assert b"no network" in r.stderr and operand.encode() in r.stderr
        r = run_cmd(ex, ["rsync", "-a", operand, "dst"])
        assert r.status == 10


def test_rsync_unsupported_option_is_a_clear_usage_error():
    with sandbox(FILES) as ex:
        r = run_cmd(ex, ["rsync", "-a", "--link-dest=x", "src/", "dst"])
        assert r.status == 1 and b"not supported" in r.stderr
        r = run_cmd(ex, ["rsync", "-a", "-f", "dir-merge .rules", "src/", "dst"])
        assert r.status == 1 and b"not supported" in r.stderr


def test_rsync_cannot_leave_the_sandbox():
    with sandbox({**FILES, "esc": {"symlink": "/etc"}}) as ex:
        r = run_cmd(ex, ["rsync", "-a", "src/", "/etc/pysh-rsync-test/"])
        assert r.status != 0
        r = run_cmd(ex, ["rsync", "-a", "src/", "esc/"])
        assert r.status != 0
        r = run_cmd(ex, ["rsync", "-aL", "esc/", "copied/"])
        assert r.status != 0
        assert not any(m in (r.stdout + r.stderr) for m in (b"passwd", b"Traceback"))


def test_install_strip_refused():
    with sandbox(FILES) as ex:
        r = run_cmd(ex, ["install", "-s", "f", "g"])
        assert r.status == 1 and b"not supported in the sandbox" in r.stderr
        assert run_cmd(ex, ["cat", "g"]).status == 1  # nothing was installed


@pytest.mark.parametrize("argv", [["xz", "--lzma2=preset=1", "f"], ["xz", "-F", "raw", "f"],
                                  ["xz", "--files=list"]])
def test_xz_unsupported_refused(argv):
    with sandbox(FILES) as ex:
        r = run_cmd(ex, argv)
        assert r.status == 1 and b"not supported" in r.stderr


def test_xz_list_verbose_refused():
    with sandbox(FILES) as ex:
        assert run_cmd(ex, ["xz", "-k", "f"]).status == 0
        r = run_cmd(ex, ["xz", "-lv", "f.xz"])
        assert r.status == 1 and b"not supported" in r.stderr


def test_long_computations_stop_at_the_deadline():
    """No hang: factoring a big semiprime, numfmt and fmt on hostile input poll the budget."""
    from pysh.builtins.factor import _is_prime
    from tests.interp.hostile import Case, assert_clean, run_hostile

    def next_prime(n: int) -> int:
        while not _is_prime(n):
            n += 1
        return n

    semiprime = next_prime(2 ** 100) * next_prime(2 ** 101)  # rho needs ~2**50 steps
    cases = [Case(f"factor {semiprime}", timeout=1.0),
             Case("yes 'word word word' | head -c 50000000 | tr -d '\\n' | fmt -w 20 | tail -1",
                  timeout=1.0)]
    for c, o in zip(cases, run_hostile(cases), strict=True):
        assert_clean(o)
        assert o.status == 124, (c.script, o.status, o.err)


@pytest.mark.parametrize("script", ["!echo hi\n", "r !ls\n", "w !cat\n", "e !ls\n",
                                    "2,3!sort\n"])
def test_ed_shell_commands_refused(script):
    with sandbox({"f": "one\ntwo\nthree\n"}) as ex:
        r = run_cmd(ex, ["ed", "-s", "f"], script + ",p\nq\n")
    assert r.stdout == b"?\none\ntwo\nthree\n"
    assert b"not available in the sandbox" in r.stderr
    assert r.status == 1


def test_ed_growth_is_bounded():
    """Doubling the buffer or a line in a loop ends at the run's limits, not in memory."""
    from tests.interp.hostile import Case, assert_clean, run_hostile

    cases = [Case("printf 'x\\n' > f; yes '1,$t$' | head -100 | ed -s f", timeout=3.0),
             Case("printf 'x\\n' > f; yes ',s/.*/&&/' | head -100 | ed -s f", timeout=3.0)]
    for c, o in zip(cases, run_hostile(cases), strict=True):
        assert_clean(o)
        assert o.status != 0, (c.script, o.status, o.out[-300:], o.err[-300:])
