"""tee: copy standard input to standard output and to files (through the door)."""

from __future__ import annotations

from pysh.builtins._textutil import (
    OptionError,
    argmatch,
    argmatch_die,
    help_text,
    parse_options,
    quotef,
    strerror,
    usage,
    version_text,
)
from pysh.shellkit.errors import BrokenPipe, WriteError

HELP = """\
Usage: tee [OPTION]... [FILE]...
Copy standard input to each FILE, and also to standard output.

  -a, --append              append to the given FILEs, do not overwrite
  -i, --ignore-interrupts   ignore interrupt signals
  -p                        operate in a more appropriate MODE with pipes.
      --output-error[=MODE]   set behavior on write error.  See MODE below
      --help        display this help and exit
      --version     output version information and exit

MODE determines behavior with write errors on the outputs:
  warn           diagnose errors writing to any output
  warn-nopipe    diagnose errors writing to any output not a pipe
  exit           exit on error writing to any output
  exit-nopipe    exit on error writing to any output not a pipe
The default MODE for the -p option is 'warn-nopipe'.
The default operation when --output-error is not specified, is to
exit immediately on error writing to a pipe, and diagnose errors
writing to non pipe outputs.
"""

LONG = {"append": "a", "ignore-interrupts": "i", "output-error?": "output-error",
        "help": "help", "version": "version"}
_MODES = [("warn", "warn"), ("warn-nopipe", "warn-nopipe"), ("exit", "exit"),
          ("exit-nopipe", "exit-nopipe")]


async def main(shell, argv: list[str]) -> int:
    prog = "tee"
    try:
        opts, files = parse_options(argv[1:], "aip", LONG)
    except OptionError as e:
        return await usage(shell, prog, str(e))
    append = False
    mode: str | None = None
    for k, v in opts:
        if k == "help":
            return await help_text(shell, HELP)
        if k == "version":
            return await version_text(shell, prog)
        if k == "a":
            append = True
        elif k == "p":
            mode = "warn-nopipe"
        elif k == "output-error":
            if v is None:
                mode = "warn-nopipe"
            else:
                got = argmatch(v, _MODES)
                if got is None or got == "\0ambiguous":
                    return await argmatch_die(shell, prog, "--output-error", v, _MODES)
                mode = got
    status = 0
    outs: list[tuple[str, object]] = []
    for name in files:
        try:
            outs.append((name, shell.open_output(name, append=append)))
        except OSError as e:
            await shell.error(prog, f"{quotef(name)}: {strerror(e)}")
            status = 1
    stdout_ok = True
    try:
        while True:
            chunk = await shell.stdin.read(1 << 16)
            if not chunk:
                break
            shell.budget.check()
            if stdout_ok:
                try:
                    await shell.stdout.write(chunk)
                except BrokenPipe:
                    if mode is None or mode in ("exit",):
                        raise
                    stdout_ok = False
                    if mode == "warn":
                        await shell.error(prog, "standard output: Broken pipe")
                        status = 1
                except WriteError as e:  # > /dev/full: the files still get their copy
                    await shell.error(prog, f"'standard output': {e}")
                    status = 1
                    stdout_ok = False
                    if mode in ("exit", "exit-nopipe"):
                        return 1
            for i, (name, o) in enumerate(list(outs)):
                if o is None:
                    continue
                try:
                    await o.write(chunk)
                except BrokenPipe:
                    if mode is None:
                        raise
                    outs[i] = (name, None)
                except (OSError, WriteError) as e:
                    await shell.error(prog, f"{quotef(name)}: {strerror(e)}")
                    status = 1
                    outs[i] = (name, None)
                    if mode in ("exit", "exit-nopipe"):
                        return 1
            if not stdout_ok and all(o is None for _, o in outs):
                break
    finally:
        for _, o in outs:
            if o is not None:
                o.close()
    return status
