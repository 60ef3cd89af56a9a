"""What the golden recordings cannot show: the sandbox's own rules and limits."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

import anyio
import pytest

from pysh.commands import default_registry
from pysh.shellkit import (
    BrokenPipe,
    BytesInput,
    CaptureOutput,
    LimitExceeded,
    Limits,
    Pipe,
    ProcessInfo,
)
from tests.harness import RegistryExecutor, run_cmd, sandbox

MINE = ["diff", "expr", "bc", "date", "xargs", "env", "printenv", "which", "whoami", "id",
        "hostname", "uname", "yes", "sleep", "timeout", "nproc", "tty", "true", "false", "ps",
        "pgrep", "pkill", "mkfifo", "getconf", "echo", "logname", "arch"]


@pytest.fixture(scope="module")
def ex():
    with sandbox({"f": "x\n"}) as ex:
        yield ex


@pytest.mark.parametrize("cmd", MINE)
def test_help_answers(ex, cmd):
    r = run_cmd(ex, [cmd, "--help"])
    assert r.status == (1 if cmd == "false" else 0)  # coreutils false exits 1 even for --help
    assert r.out.strip()
    assert "Traceback" not in r.err


@pytest.mark.parametrize("cmd", [c for c in MINE if c not in ("true", "false", "echo", "expr",
                                                                "getconf", "which")])
def test_unknown_option_is_a_clean_error(ex, cmd):
    r = run_cmd(ex, [cmd, "--no-such-option-xyz"])
    assert r.status != 0
    assert "Traceback" not in r.err and r.err


# ----------------------------------------------------------------- date
def test_date_set_is_refused_and_clock_untouched(ex):
    before = time.time()
    for argv in (["date", "-s", "2001-01-01"], ["date", "--set=@0"], ["date", "0102030424"]):
        r = run_cmd(ex, argv)
        assert (r.status, r.err) == (1, "date: cannot set date: Operation not permitted\n")
    assert abs(time.time() - before) < 60
    r = run_cmd(ex, ["date", "-s", "not a date"])
    assert (r.status, r.err) == (1, "date: invalid date \u2018not a date\u2019\n")


def _now_in(tzname: str):
    from zoneinfo import ZoneInfo

    return datetime.now(ZoneInfo(tzname))


@pytest.mark.parametrize("tz", ["UTC", "America/New_York", "Asia/Kolkata"])
def test_date_relative_to_now(ex, tz):
    now = _now_in(tz)
    env = {"TZ": tz}
    r = run_cmd(ex, ["date", "-d", "tomorrow", "+%F"], env=env)
    assert r.out.strip() in {(now + timedelta(days=1)).strftime("%F"),
                             (now + timedelta(days=1, minutes=1)).strftime("%F")}
    r = run_cmd(ex, ["date", "-d", "yesterday", "+%F"], env=env)
    assert r.out.strip() in {(now - timedelta(days=1)).strftime("%F"),
                             (now - timedelta(days=1) + timedelta(minutes=1)).strftime("%F")}
    r = run_cmd(ex, ["date", "-d", "next monday", "+%A %T"], env=env)
    assert r.out == "Monday 00:00:00\n"
    days_ahead = (0 - now.weekday()) % 7 or 7
    r = run_cmd(ex, ["date", "-d", "next monday", "+%F"], env=env)
    assert r.out.strip() in {(now + timedelta(days=days_ahead)).strftime("%F"),
                             (now + timedelta(days=days_ahead - 1)).strftime("%F")}
    r = run_cmd(ex, ["date", "-d", "2 hours ago", "+%s"], env=env)
    assert abs(int(r.out) - (time.time() - 7200)) < 5
    r = run_cmd(ex, ["date", "-d", "today", "+%F"], env=env)
    assert r.out.strip() in {now.strftime("%F"), (now + timedelta(minutes=1)).strftime("%F")}


def test_date_default_uses_shell_tz_not_host(ex):
    r = run_cmd(ex, ["date", "+%Z"], env={"TZ": "Asia/Tokyo"})
    assert r.out == "JST\n"
    r = run_cmd(ex, ["date", "-u", "+%Z %z"], env={"TZ": "Asia/Tokyo"})
    assert r.out == "UTC +0000\n"
    r = run_cmd(ex, ["date", "+%s"])
    assert abs(int(r.out) - time.time()) < 5


# ---------------------------------------------------------------- which
def test_which_finds_first_path_entry(ex):
    path = ex.shell.env["PATH"].split(":")
    having = [f"{d}/ls" for d in path if ex.shell.fs.is_file(f"{d}/ls")]
    assert having  # the registry's commands are listed under the command directories
    r = run_cmd(ex, ["which", "ls"])
    assert (r.status, r.out) == (0, having[0] + "\n")
    r = run_cmd(ex, ["which", "-a", "ls"])
    assert r.out == "".join(h + "\n" for h in having)
    first = having[0].rsplit("/", 1)[0]
    r = run_cmd(ex, ["which", "diff", "nosuch", "bc"])
    assert (r.status, r.out) == (1, f"{first}/diff\n{first}/bc\n")
    r = run_cmd(ex, ["which", "ls"], env={"PATH": "/bin:/usr/bin"})
    assert r.out == "/bin/ls\n"


# ------------------------------------------------- sleep / timeout / yes
def test_sleep_stops_at_the_run_deadline():
    with sandbox({}, limits=Limits(timeout=0.3)) as ex:
        start = time.monotonic()
        with pytest.raises(LimitExceeded) as info:
            run_cmd(ex, ["sleep", "30"])
        assert info.value.status == 124
        assert time.monotonic() - start < 5


def test_sleep_waits(ex):
    start = time.monotonic()
    assert run_cmd(ex, ["sleep", "0.1", "0.05"]).status == 0
    assert time.monotonic() - start >= 0.15


def test_timeout_stops_a_busy_command_and_statuses(ex):
    r = run_cmd(ex, ["timeout", "0.2", "yes"])  # yes polls the budget, output is captured
    assert r.status == 124 and r.stdout.startswith(b"y\ny\n")
    assert run_cmd(ex, ["timeout", "-s", "KILL", "0.1", "sleep", "5"]).status == 137
    assert run_cmd(ex, ["timeout", "--preserve-status", "0.1", "sleep", "5"]).status == 143
    r = run_cmd(ex, ["timeout", "0.1", "bc"], "while (1) { }\n")
    assert r.status == 124


def test_timeout_leaves_the_runs_own_deadline_to_the_run():
    with sandbox({}, limits=Limits(timeout=0.3)) as ex:
        with pytest.raises(LimitExceeded) as info:
            run_cmd(ex, ["timeout", "20", "sleep", "30"])
        assert info.value.budget is not None and info.value.budget.parent is None


def test_yes_stops_on_broken_pipe(ex):
    async def main():
        pipe = Pipe()
        w = pipe.writer()
        r = pipe.reader()
        r.close()
        shell = ex.shell.child(fds={0: BytesInput(b""), 1: w, 2: CaptureOutput()})
        func = shell.registry.get("yes")
        with pytest.raises(BrokenPipe):
            await func(shell, ["yes"])

    anyio.run(main)


# ----------------------------------------------------------------- xargs
async def _exit255(shell, argv):
    return 255


async def _show_stdin(shell, argv):
    data = await shell.stdin.read()
    await shell.stdout.write(b"stdin=%d\n" % len(data))
    return 0


async def _show_env(shell, argv):
    await shell.stdout.write(("|".join(f"{k}={v}" for k, v in sorted(shell.env.items()))
                              + "\n").encode())
    return 0


def _registry():
    reg = default_registry()
    reg.register("exit255", _exit255)
    reg.register("showstdin", _show_stdin)
    reg.register("showenv", _show_env)
    return reg


def test_xargs_255_aborts_with_124():
    with sandbox({}, registry=_registry()) as ex:
        r = run_cmd(ex, ["xargs", "-n1", "exit255"], "a b c\n")
        assert (r.status, r.err) == (124, "xargs: exit255: exited with status 255; aborting\n")


def test_xargs_commands_get_empty_stdin_unless_arg_file():
    with sandbox({"list": "a\n"}, registry=_registry()) as ex:
        r = run_cmd(ex, ["xargs", "showstdin"], "a b\n")
        assert r.out == "stdin=0\n"
        r = run_cmd(ex, ["xargs", "-a", "list", "showstdin"], "12345")
        assert r.out == "stdin=5\n"


def test_env_runs_command_with_exactly_the_new_environment():
    with sandbox({}, registry=_registry()) as ex:
        r = run_cmd(ex, ["env", "-i", "A=1", "B=2", "showenv"])
        assert r.out == "A=1|B=2\n"
        r = run_cmd(ex, ["env", "-u", "HOME", "showenv"])
        assert "HOME=" not in r.out and "PATH=" in r.out


def test_xargs_polls_the_budget_on_endless_input():
    with sandbox({}, limits=Limits(timeout=0.3)) as ex:
        async def main():
            pipe = Pipe()
            w = pipe.writer()
            r = pipe.reader()
            shell = ex.shell.child(fds={0: r, 1: CaptureOutput(), 2: CaptureOutput()},
                                   executor=RegistryExecutor())

            async def feed():
                while True:
                    await w.write(b"a\n" * 1000)
                    await anyio.sleep(0)

            async with anyio.create_task_group() as tg:
                tg.start_soon(feed)
                try:
                    await shell.registry.get("xargs")(shell, ["xargs", "-n", "1000", "true"])
                finally:
                    tg.cancel_scope.cancel()

        with pytest.raises(BaseExceptionGroup) as info:
            anyio.run(main)
        assert info.value.subgroup(LimitExceeded) is not None


# --------------------------------------------------------------------- bc
def test_bc_endless_loop_hits_the_deadline():
    with sandbox({}, limits=Limits(timeout=0.3)) as ex:
        with pytest.raises(LimitExceeded):
            run_cmd(ex, ["bc"], "while (1) { x += 1 }\n")


def test_bc_huge_power_is_refused_not_hung(ex):
    r = run_cmd(ex, ["bc"], "2^99999999999\n")
    assert r.status == 0
    assert "exponent too large in raise" in r.err


def test_bc_prints_numbers_of_any_size(ex):
    r = run_cmd(ex, ["bc"], "x = 7^20000; length(x)\nx % 1000\n")
    assert r.out.split("\n")[:2] == ["16902", "1"]
    r = run_cmd(ex, ["bc"], "2^20000\n", env={"BC_LINE_LENGTH": "0"})
    digits = r.out.rstrip("\n")
    assert digits.isdigit() and len(digits) == 6021
    assert int(digits[-12:]) == pow(2, 20000, 10 ** 12)


# -------------------------------------------------------------------- expr
def test_expr_pathological_regex_finishes(ex):
    r = run_cmd(ex, ["expr", "a" * 40, ":", "\\(a*\\)*b"])
    assert (r.status, r.out) == (1, "\n")


def test_expr_big_numbers(ex):
    r = run_cmd(ex, ["expr", "123456789012345678901234567890", "*", "3"])
    assert r.out == "370370367037037036703703703670\n"


# -------------------------------------------------------------- processes
class FakeExecutor(RegistryExecutor):
    def __init__(self, rows):
        self.rows = rows
        self.killed: list[tuple[int, int]] = []

    def processes(self):
        return list(self.rows)

    def kill(self, pid, sig):
        self.killed.append((pid, sig))
        return True


def _run_with(ex, executor, argv):
    async def main():
        out, err = CaptureOutput(), CaptureOutput()
        shell = ex.shell.child(fds={0: BytesInput(b""), 1: out, 2: err}, executor=executor,
                               env=dict(ex.shell.env, TZ="UTC"))
        status = await shell.registry.get(argv[0])(shell, argv)
        return status, out.getvalue().decode(), err.getvalue().decode()

    return anyio.run(main)


T0 = time.time() - 60
ROWS = [ProcessInfo(1000, 999, "pysh", "S", T0),
        ProcessInfo(1001, 1000, "sleep 100", "S", T0 + 1),
        ProcessInfo(1002, 1001, "sleep 100", "R", T0 + 2),
        ProcessInfo(1003, 1000, "/usr/bin/python3 script.py --fast", "R", T0 + 3)]
STIME = datetime.fromtimestamp(T0 + 3, UTC).strftime("%H:%M")


def test_ps_formats(ex):
    fx = FakeExecutor(ROWS)
    status, out, _ = _run_with(ex, fx, ["ps"])
    assert status == 0
    assert out.splitlines()[0] == "  PID TTY          TIME CMD"
    # the job 1001 and the command 1002 it runs are one process, as in bash
    assert out.splitlines()[1:] == [" 1000 ?        00:00:00 pysh",
                                    " 1001 ?        00:00:00 sleep",
                                    " 1003 ?        00:00:00 python3"]
    status, out, _ = _run_with(ex, fx, ["ps", "-ef"])
    assert out.splitlines()[0] == "UID        PID  PPID  C STIME TTY          TIME CMD"
    assert out.splitlines()[3] == (f"user      1003  1000  0 {STIME} ?        00:00:00 "
                                   "/usr/bin/python3 script.py --fast")
    status, out, _ = _run_with(ex, fx, ["ps", "aux"])
    assert out.splitlines()[0].split() == ["USER", "PID", "%CPU", "%MEM", "VSZ", "RSS", "TTY",
                                           "STAT", "START", "TIME", "COMMAND"]
    assert out.splitlines()[1].split()[:3] == ["user", "1000", "0.0"]
    status, out, _ = _run_with(ex, fx, ["ps", "-o", "pid,ppid,comm", "-p", "1001"])
    assert out.split("\n")[1].split() == ["1001", "1000", "sleep"]


def test_pgrep_and_pkill(ex):
    fx = FakeExecutor(ROWS)
    assert _run_with(ex, fx, ["pgrep", "sleep"]) == (0, "1001\n", "")
    assert _run_with(ex, fx, ["pgrep", "-l", "pyt"])[1] == "1003 python3\n"
    assert _run_with(ex, fx, ["pgrep", "-l", "py"])[1] == "1000 pysh\n1003 python3\n"
    assert _run_with(ex, fx, ["pgrep", "-a", "-f", "fast"])[1] == \
        "1003 /usr/bin/python3 script.py --fast\n"
    assert _run_with(ex, fx, ["pgrep", "-n", "."])[1] == "1003\n"
    assert _run_with(ex, fx, ["pgrep", "-o", "."])[1] == "1000\n"
    assert _run_with(ex, fx, ["pgrep", "-c", "nothing"]) == (1, "0\n", "")
    assert _run_with(ex, fx, ["pgrep", "-d,", "[sp]"])[1] == "1000,1001,1003\n"
    status, _, err = _run_with(ex, fx, ["pgrep"])
    assert status == 2 and "no matching criteria" in err
    assert _run_with(ex, fx, ["pkill", "-9", "python"]) == (0, "", "")
    assert fx.killed == [(1003, 9)]
    assert _run_with(ex, fx, ["pkill", "nothing"])[0] == 1


def test_ps_without_interpreter_is_empty(ex):
    r = run_cmd(ex, ["ps"])
    assert (r.status, r.out) == (1, "  PID TTY          TIME CMD\n")


def test_mkfifo_refused(ex):
    r = run_cmd(ex, ["mkfifo", "p"])
    assert r.status == 1 and "Operation not permitted" in r.err
    assert not ex.shell.fs.exists("p")


def test_synthetic_identity(ex):
    assert run_cmd(ex, ["whoami"]).out == "user\n"
    assert run_cmd(ex, ["id"]).out == "uid=1000(user) gid=1000(user) groups=1000(user)\n"
    assert run_cmd(ex, ["hostname"]).out == "sandbox\n"
    assert run_cmd(ex, ["uname", "-a"]).out == (
        "Linux sandbox 6.1.0-pysh #1 SMP PREEMPT_DYNAMIC pysh x86_64 GNU/Linux\n")
    assert run_cmd(ex, ["nproc"]).out == "2\n"
    assert run_cmd(ex, ["tty"]).out == "not a tty\n"


def test_date_zone_parsing_helpers():
    from pysh.builtins._misc_time import tz_from_string

    dt = datetime(2024, 7, 1, 12, tzinfo=UTC)
    assert dt.astimezone(tz_from_string("CET-1CEST,M3.5.0,M10.5.0/3")).tzname() == "CEST"
    assert dt.astimezone(tz_from_string("EST5EDT")).utcoffset() == timedelta(hours=-4)
    assert dt.astimezone(tz_from_string("<+0330>-3:30")).utcoffset() == timedelta(hours=3.5)
    assert dt.astimezone(tz_from_string("../../etc/passwd")).tzname() == "UTC"



# ------------------------------------------------- through the interpreter
def _pysh(script: str, timeout: float = 60) -> tuple[int, str, str]:
    """The whole pysh: interpreter, registry, executor (what xargs/env/timeout run through)."""
    import subprocess
    import sys

    p = subprocess.run([sys.executable, "-m", "pysh", "-c", script], capture_output=True,
                       timeout=timeout, env={"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"})
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def test_timeout_interrupts_interpreter_loops():
    start = time.monotonic()
    status, out, _ = _pysh('timeout 0.3 sh -c "while :; do :; done"; echo "t=$?"; '
                           'timeout 0.3 bash -c "i=0; while true; do i=$((i+1)); done"; '
                           'echo "t=$?"')
    assert (status, out) == (0, "t=124\nt=124\n")
    assert time.monotonic() - start < 30


def test_env_clears_and_unsets_through_the_interpreter():
    status, out, _ = _pysh("env -i A=1 env; env -u HOME env | grep -c '^HOME='; "
                           "X=2 env | grep '^X='; echo a b | xargs -n1 sh -c 'echo \"<$0>\"'")
    assert out == "A=1\n0\nX=2\n<a>\n<b>\n"


def test_pkill_stops_a_background_job():
    start = time.monotonic()
    status, out, err = _pysh("sleep 20 & sleep 0.2; pgrep -l sleep; pkill sleep; echo \"k=$?\"; "
                             "wait; pgrep sleep; echo \"g=$?\"")
    lines = out.splitlines()
    assert lines[0].endswith(" sleep") and lines[1:] == ["k=0", "g=1"]
    assert time.monotonic() - start < 15


def test_date_empty_string_is_todays_midnight(ex):
    now = _now_in("UTC")
    r = run_cmd(ex, ["date", "-u", "-d", "", "+%F %T"])
    assert r.out in {now.strftime("%F") + " 00:00:00\n",
                     (now + timedelta(minutes=1)).strftime("%F") + " 00:00:00\n"}
