"""nohup, nice and stdbuf (GNU coreutils 9.1): commands that run another command.

There are no processes, signals or stdio buffers to change in pysh, so what each one
adjusts is a no-op; their command lines, messages and exit statuses are GNU's, and nohup
still moves terminal output to ``nohup.out``. The virtual niceness is always 0.
"""

from __future__ import annotations

import re

from pysh.builtins._misc_util import (
    command_status,
    find_command,
    print_help,
    quote,
    squote,
    strerror,
    usage_error,
)
from pysh.shellkit import BytesInput, FileSystemError, Shell
from pysh.shellkit.options import OptionError, parse_options
from pysh.shellkit.text import encode

_FOOTER = """
NOTE: your shell may have its own version of {p}, which usually supersedes
the version described here.  Please refer to your shell's documentation
for details about the options it supports.

GNU coreutils online help: <https://www.gnu.org/software/coreutils/>
Report any translation bugs to <https://translationproject.org/team/>
Full documentation <https://www.gnu.org/software/coreutils/{p}>
or available locally via: info '(coreutils) {p} invocation'
"""
NOHUP_HELP = """\
Usage: nohup COMMAND [ARG]...
  or:  nohup OPTION
Run COMMAND, ignoring hangup signals.

      --help        display this help and exit
      --version     output version information and exit

If standard input is a terminal, redirect it from an unreadable file.
If standard output is a terminal, append output to 'nohup.out' if possible,
'$HOME/nohup.out' otherwise.
If standard error is a terminal, redirect it to standard output.
To save output to FILE, use 'nohup COMMAND > FILE'.
""" + _FOOTER.format(p="nohup")
NICE_HELP = """\
Usage: nice [OPTION] [COMMAND [ARG]...]
Run COMMAND with an adjusted niceness, which affects process scheduling.
With no COMMAND, print the current niceness.  Niceness values range from
-20 (most favorable to the process) to 19 (least favorable to the process).

Mandatory arguments to long options are mandatory for short options too.
  -n, --adjustment=N   add integer N to the niceness (default 10)
      --help        display this help and exit
      --version     output version information and exit
""" + _FOOTER.format(p="nice")
STDBUF_HELP = """\
Usage: stdbuf OPTION... COMMAND
Run COMMAND, with modified buffering operations for its standard streams.

Mandatory arguments to long options are mandatory for short options too.
  -i, --input=MODE   adjust standard input stream buffering
  -o, --output=MODE  adjust standard output stream buffering
  -e, --error=MODE   adjust standard error stream buffering
      --help        display this help and exit
      --version     output version information and exit

If MODE is 'L' the corresponding stream will be line buffered.
This option is invalid with standard input.

If MODE is '0' the corresponding stream will be unbuffered.

Otherwise MODE is a number which may be followed by one of the following:
KB 1000, K 1024, MB 1000*1000, M 1024*1024, and so on for G, T, P, E, Z, Y.
Binary prefixes can be used, too: KiB=K, MiB=M, and so on.
In this case the corresponding stream will be fully buffered with the buffer
size set to MODE bytes.

NOTE: If COMMAND adjusts the buffering of its standard streams ('tee' does
for example) then that will override corresponding changes by 'stdbuf'.
Also some filters (like 'dd' and 'cat' etc.) don't use streams for I/O,
and are thus unaffected by 'stdbuf' settings.

GNU coreutils online help: <https://www.gnu.org/software/coreutils/>
Report any translation bugs to <https://translationproject.org/team/>
Full documentation <https://www.gnu.org/software/coreutils/stdbuf>
or available locally via: info '(coreutils) stdbuf invocation'
"""
_VERSION = """{p} (GNU coreutils) 9.1
Copyright (C) 2022 Free Software Foundation, Inc.
License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.
This is free software: you are free to change and redistribute it.
There is NO WARRANTY, to the extent permitted by law.

Written by {author}.
"""
_AUTHORS = {"nohup": "Jim Meyering", "nice": "David MacKenzie", "stdbuf": "Padraig Brady"}


async def _run(shell: Shell, prog: str, cmd: list[str], **streams) -> int:
    """Run ``cmd`` as GNU's wrappers exec it: a command that cannot run is 127 or 126."""
    code = find_command(shell, cmd[0])
    if code:
        name = squote(cmd[0]) if prog == "nohup" else quote(cmd[0])  # GNU's own quoting
        await shell.error(prog, f"{name}: {strerror(code)}" if prog == "nice"
                          else f"failed to run command {name}: {strerror(code)}")
        return command_status(code)
    return await shell.run(cmd, **streams)


async def _wrapper_options(shell: Shell, prog: str, args: list[str], short: str, long: dict,
                           fail: int):
    """GNU's option scan for a wrapper: options end at the command's name."""
    try:
        return parse_options(args, short, long, permute=False)
    except OptionError as e:
        return await usage_error(shell, prog, str(e), fail)


async def nohup_main(shell: Shell, argv: list[str]) -> int:
    prog = "nohup"
    got = await _wrapper_options(shell, prog, argv[1:], "", {"help": "help", "version": "version"},
                                 125)
    if isinstance(got, int):
        return got
    opts, cmd = got
    for key, _ in opts:
        if key == "help":
            return await print_help(shell, NOHUP_HELP)
        await shell.stdout.write(encode(_VERSION.format(p=prog, author=_AUTHORS[prog])))
        return 0
    if not cmd:
        return await usage_error(shell, prog, "missing operand", 125)
    streams: dict = {}
    ignoring = shell.stdin.isatty()
    if ignoring:
        streams["stdin"] = BytesInput(b"")
    out = None
    if shell.stdout.isatty():
        try:
            out = shell.open_output("nohup.out", append=True)
        except (FileSystemError, OSError) as e:
            await shell.error(prog, f"failed to open 'nohup.out': {strerror(e.errno or 5)}")
            return 125
        streams["stdout"] = out
        note = "ignoring input and appending output to 'nohup.out'" if ignoring \
            else "appending output to 'nohup.out'"
        await shell.error(prog, note)
    elif ignoring:
        await shell.error(prog, "ignoring input")
    if shell.stderr.isatty():
        streams["stderr"] = streams.get("stdout", shell.stdout)
    try:
        return await _run(shell, prog, cmd, **streams)
    finally:
        if out is not None:
            await out.flush()
            out.close()


async def nice_main(shell: Shell, argv: list[str]) -> int:
    prog = "nice"
    args = argv[1:]
    if args and re.fullmatch(r"-[0-9]+", args[0]):  # the old form: nice -5 cmd
        args = ["-n", args[0][1:]] + args[1:]
    got = await _wrapper_options(shell, prog, args, "n:",
                                 {"adjustment=": "n", "help": "help", "version": "version"},
                                 125)
    if isinstance(got, int):
        return got
    opts, cmd = got
    adjusted = False
    for key, value in opts:
        if key == "help":
            return await print_help(shell, NICE_HELP)
        if key == "version":
            await shell.stdout.write(encode(_VERSION.format(p=prog, author=_AUTHORS[prog])))
            return 0
        if not re.fullmatch(r"[+-]?[0-9]+", value or ""):
            await shell.error(prog, f"invalid adjustment {quote(value or '')}")
            return 125
        adjusted = True
    if not cmd:
        if adjusted:
            return await usage_error(shell, prog, "a command must be given with an adjustment", 125)
        await shell.stdout.write(b"0\n")
        return 0
    return await _run(shell, prog, cmd)


_MODE_RE = re.compile(r"(?:L|0|[0-9]+(?:[KMGTPEZY](?:i?B)?|[kK]B|B)?)")


async def stdbuf_main(shell: Shell, argv: list[str]) -> int:
    prog = "stdbuf"
    got = await _wrapper_options(shell, prog, argv[1:], "i:o:e:",
                                 {"input=": "i", "output=": "o", "error=": "e",
                                  "help": "help", "version": "version"}, 125)
    if isinstance(got, int):
        return got
    opts, cmd = got
    modes = 0
    for key, value in opts:
        if key == "help":
            return await print_help(shell, STDBUF_HELP)
        if key == "version":
            await shell.stdout.write(encode(_VERSION.format(p=prog, author=_AUTHORS[prog])))
            return 0
        if key == "i" and value == "L":
            await shell.error(prog, "line buffering stdin is meaningless")
            return await usage_error(shell, prog, None, 125)
        if not _MODE_RE.fullmatch(value or ""):
            await shell.error(prog, f"invalid mode {quote(value or '')}")
            return 125
        modes += 1
    if not cmd:
        return await usage_error(shell, prog, "missing operand", 125)
    if not modes:
        return await usage_error(shell, prog, "you must specify a buffering mode option", 125)
    return await _run(shell, prog, cmd)
