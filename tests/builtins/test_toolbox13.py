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


@pytest.mark.parametrize("code,what", [
    ("s/a/b/ee", "s///ee"),
    ("print `ls`", "backticks"),
    ("system('ls')", "system"),
    ("print <<EOF\nx\nEOF", "here-documents"),
    ("use Data::Dumper; print 1", "Data::Dumper"),
    ("open(my $f, 'ls |')", "pipe"),
    ("my $o = Foo->new", "method calls"),
    ("eval 'print 1'", "string eval"),
])
def test_perl_refuses_what_the_subset_lacks(code, what):
    with sandbox(FILES) as ex:
        r = run_cmd(ex, ["perl", "-e", code])
    assert r.status == 255, (code, r.stdout, r.stderr)
    assert b"pysh's perl subset does not support" in r.stderr and what.encode() in r.stderr
    assert b"Traceback" not in r.stderr and b"internal error" not in r.stderr


def test_perl_unicode_switch_refused():
    with sandbox(FILES) as ex:
        r = run_cmd(ex, ["perl", "-CSD", "-e", "print 1"])
    assert r.status == 255 and b"does not support the -C switch" in r.stderr


def test_perl_runaway_programs_stop():
    """Busy loops, catastrophic patterns, huge strings and deep recursion end cleanly."""
    from tests.interp.hostile import Case, assert_clean, run_hostile

    cases = [Case("perl -e 'while (1) {}'", timeout=1.0),
             Case("perl -e '1 while 1'", timeout=1.0),
             Case("perl -e 'for (;;) { $i++ }'", timeout=1.0),
             Case("perl -e 'print \"x\" while 1' | head -c 10", timeout=1.0),
             Case("perl -e '$x = \"a\" x 1e12; print length $x'", timeout=2.0),
             Case("perl -e '@a = (1..1e12); print scalar @a'", timeout=2.0),
             Case("perl -e 'sub f { f() } f()'", timeout=2.0),
             Case("yes | perl -ne 'print if $. > 1e9'", timeout=1.0),
             # the engine may finish a catastrophic pattern fast; it must not outlive the run
             Case("perl -e '$x = (\"a\" x 40) . \"c\"; print $x =~ /^(a|a)*b/ ? 1 : 0'",
                  timeout=1.0)]
    outcomes = run_hostile(cases)
    for c, o in zip(cases[:-1], outcomes, strict=False):
        assert_clean(o)
        assert o.status != 0, (c.script, o.status, o.out[-300:], o.err[-300:])
    assert_clean(outcomes[-1])
    assert (outcomes[-1].status, outcomes[-1].out) in ((0, "0"), (124, ""))
