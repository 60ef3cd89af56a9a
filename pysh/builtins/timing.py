"""sleep and timeout.

``sleep`` waits in short slices, polling the run budget, so it never outlives
the run's deadline and an interrupt lands within a slice. ``timeout`` runs its
command in-process through ``shell.run`` under a scoped budget (the command's
own loops see the earlier deadline) and an anyio cancel scope (a command
waiting in an ``await`` is cancelled at the deadline).
"""

from __future__ import annotations

import signal as _signal
import time

import anyio

from pysh.builtins._misc_util import (
    command_status,
    find_command,
    parse_duration,
    print_help,
    quote,
    strerror,
    usage_error,
)
from pysh.shellkit import LimitExceeded, Shell
from pysh.shellkit.options import OptionError, parse_options
from pysh.shellkit.worker import ensure_loop

SLICE = 0.1

SLEEP_HELP = """\
Usage: sleep NUMBER[SUFFIX]...
  or:  sleep OPTION
Pause for NUMBER seconds.  SUFFIX may be 's' for seconds (the default),
'm' for minutes, 'h' for hours or 'd' for days.  NUMBER need not be an
integer.  Given two or more arguments, pause for the amount of time
specified by the sum of their values.

      --help        display this help and exit
      --version     output version information and exit
"""

TIMEOUT_HELP = """\
Usage: timeout [OPTION] DURATION COMMAND [ARG]...
  or:  timeout [OPTION]
Start COMMAND, and kill it if still running after DURATION.

Mandatory arguments to long options are mandatory for short options too.
      --preserve-status
                 exit with the same status as COMMAND, even when the
                   command times out
      --foreground
                 when not running timeout directly from a shell prompt,
                   allow COMMAND to read from the TTY and get TTY signals;
                   in this mode, children of COMMAND will not be timed out
  -k, --kill-after=DURATION
                 also send a KILL signal if COMMAND is still running
                   this long after the initial signal was sent
  -s, --signal=SIGNAL
                 specify the signal to be sent on timeout;
                   SIGNAL may be a name like 'HUP' or a number;
                   see 'kill -l' for a list of signals
  -v, --verbose  diagnose to stderr any signal sent upon timeout
      --help        display this help and exit
      --version     output version information and exit

DURATION is a floating point number with an optional suffix:
's' for seconds (the default), 'm' for minutes, 'h' for hours or 'd' for days.
A duration of 0 disables the associated timeout.

Upon timeout, send the TERM signal to COMMAND, if no other SIGNAL specified.
The TERM signal kills any process that does not block or catch that signal.
It may be necessary to use the KILL signal, since this signal can't be caught.

EXIT status:
  124  if COMMAND times out, and --preserve-status is not specified
  125  if the timeout command itself fails
  126  if COMMAND is found but cannot be invoked
  127  if COMMAND cannot be found
  137  if COMMAND (or timeout itself) is sent the KILL (9) signal (128+9)
  -    the exit status of COMMAND otherwise
"""


async def pause(shell: Shell, seconds: float) -> None:
    """Sleep ``seconds`` (may be inf) in slices, raising at the run's deadline or interrupt."""
    budget = shell.budget
    end = time.monotonic() + seconds if seconds != float("inf") else None
    await ensure_loop()
    while True:
        budget.check()
        step = SLICE
        if end is not None:
            left = end - time.monotonic()
            if left <= 0:
                return
            step = min(step, left)
        rem = budget.remaining()
        if rem is not None:
            step = min(step, max(rem, 0.001))
        await anyio.sleep(step)


async def sleep_main(shell: Shell, argv: list[str]) -> int:
    try:
        opts, operands = parse_options(argv[1:], "", {"help": "help", "version": "version"})
    except OptionError as e:
        return await usage_error(shell, "sleep", str(e))
    for k, _ in opts:
        if k == "help":
            return await print_help(shell, SLEEP_HELP)
        await shell.stdout.write(b"sleep (GNU coreutils) 9.1\n")
        return 0
    if not operands:
        return await usage_error(shell, "sleep", "missing operand")
    total = 0.0
    bad = False
    for op in operands:
        d = parse_duration(op)
        if d is None:
            await shell.error("sleep", f"invalid time interval {quote(op)}")
            bad = True
        else:
            total += d
    if bad:
        return await usage_error(shell, "sleep", None)
    await pause(shell, total)
    return 0


# ------------------------------------------------------------------- signals
def signal_number(name: str) -> int | None:
    """A signal given by name (TERM, SIGTERM, term) or number, as kill/timeout accept it."""
    if name.isdigit():
        n = int(name)
        return n if 0 <= n <= 64 else None
    up = name.upper()
    if up.startswith("SIG"):
        up = up[3:]
    aliases = {"IOT": "ABRT", "POLL": "IO", "CLD": "CHLD"}
    up = aliases.get(up, up)
    if up.startswith("RTMIN") or up.startswith("RTMAX"):
        base = _signal.SIGRTMIN if up.startswith("RTMIN") else _signal.SIGRTMAX
        rest = up[5:]
        if not rest:
            return int(base)
        try:
            off = int(rest)
        except ValueError:
            return None
        n = int(base) + off
        return n if int(_signal.SIGRTMIN) <= n <= int(_signal.SIGRTMAX) else None
    sig = getattr(_signal.Signals, "SIG" + up, None) if up.isalnum() else None
    return int(sig) if sig is not None else None


def signal_name(num: int) -> str:
    try:
        return _signal.Signals(num).name[3:]
    except ValueError:
        if int(_signal.SIGRTMIN) <= num <= int(_signal.SIGRTMAX):
            return f"RTMIN+{num - int(_signal.SIGRTMIN)}"
        return str(num)


# ------------------------------------------------------------------- timeout
async def timeout_main(shell: Shell, argv: list[str]) -> int:
    try:
        opts, operands = parse_options(argv[1:], "k:s:v", {
            "kill-after=": "k", "signal=": "s", "verbose": "v", "preserve-status": "preserve",
            "foreground": "foreground", "help": "help", "version": "version"}, permute=False)
    except OptionError as e:
        return await usage_error(shell, "timeout", str(e), 125)
    sig = int(_signal.SIGTERM)
    preserve = verbose = False
    for k, v in opts:
        if k == "help":
            return await print_help(shell, TIMEOUT_HELP)
        if k == "version":
            await shell.stdout.write(b"timeout (GNU coreutils) 9.1\n")
            return 0
        if k == "s":
            n = signal_number(v or "")
            if n is None:
                await shell.error("timeout", f"{quote(v or '')}: invalid signal")
                return await usage_error(shell, "timeout", None, 125)
            sig = n
        elif k == "k":
            if parse_duration(v or "") is None:
                await shell.error("timeout", f"invalid time interval {quote(v or '')}")
                return await usage_error(shell, "timeout", None, 125)
        elif k == "v":
            verbose = True
        elif k == "preserve":
            preserve = True
    if len(operands) < 2:
        return await usage_error(shell, "timeout", None, 125)
    seconds = parse_duration(operands[0])
    if seconds is None:
        await shell.error("timeout", f"invalid time interval {quote(operands[0])}")
        return await usage_error(shell, "timeout", None, 125)
    cmd = operands[1:]
    code = find_command(shell, cmd[0])
    if code:
        await shell.error("timeout", f"failed to run command {quote(cmd[0])}: {strerror(code)}")
        return command_status(code)
    if seconds == 0 or seconds == float("inf"):
        return await shell.run(cmd)

    scoped = shell.budget.scoped(seconds)
    child = shell.child(budget=scoped)
    timed_out = False
    status = 0
    try:
        await ensure_loop()
        with anyio.move_on_after(seconds) as scope:
            status = await child.run(cmd)
        if scope.cancelled_caught:
            timed_out = True
    except LimitExceeded as e:
        if e.budget is not scoped:
            raise
        shell.budget.check()  # the run's own deadline wins over ours
        timed_out = True
    if not timed_out and scoped.expired():
        shell.budget.check()
        timed_out = status != 0
    if not timed_out:
        return status
    if verbose:
        await shell.error("timeout", f"sending signal {signal_name(sig)} to command "
                                     f"{quote(cmd[0])}")
    if preserve or sig == int(_signal.SIGKILL):
        return 128 + sig
    return 124

