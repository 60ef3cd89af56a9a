"""envsubst (GNU gettext-runtime 0.21): ``$VAR`` and ``${VAR}`` in standard input replaced
by the (virtual) environment's values, unset ones by nothing; a SHELL-FORMAT argument
limits the substitution to the variables it names; ``-v`` lists them instead."""

from __future__ import annotations

import re

from pysh.shellkit.options import OptionError, parse_options

PROG = "envsubst"
HELP = """\
Usage: envsubst [OPTION] [SHELL-FORMAT]

Substitutes the values of environment variables.

Operation mode:
  -v, --variables             output the variables occurring in SHELL-FORMAT

Informative output:
  -h, --help                  display this help and exit
  -V, --version               output version information and exit

In normal operation mode, standard input is copied to standard output,
with references to environment variables of the form $VARIABLE or ${VARIABLE}
being replaced with the corresponding values.  If a SHELL-FORMAT is given,
only those environment variables that are referenced in SHELL-FORMAT are
substituted; otherwise all environment variables references occurring in
standard input are substituted.

When --variables is used, standard input is ignored, and the output consists
of the environment variables that are referenced in SHELL-FORMAT, one per line.

Report bugs in the bug tracker at <https://savannah.gnu.org/projects/gettext>
or by email to <bug-gettext@gnu.org>.
"""
VERSION = """envsubst (GNU gettext-runtime) 0.21
Copyright (C) 2003-2020 Free Software Foundation, Inc.
License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>
This is free software: you are free to change and redistribute it.
There is NO WARRANTY, to the extent permitted by law.
Written by Bruno Haible.
"""
# $NAME or ${NAME}: a name starts with a letter or _; ${...} must close with }
_REF = re.compile(rb"\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)\})")


def _names(fmt: str) -> list[str]:
    return [(m.group(1) or m.group(2)).decode() for m in _REF.finditer(fmt.encode())]


async def main(shell, argv: list[str]) -> int:
    try:
        opts, operands = parse_options(argv[1:], "vhV", {"variables": "v", "help": "h",
                                                         "version": "V"})
    except OptionError as e:
        await shell.error(PROG, str(e))
        await shell.stderr.write(b"Try 'envsubst --help' for more information.\n")
        return 1
    listing = False
    for key, _ in opts:
        if key == "h":
            await shell.stdout.write(HELP.encode())
            return 0
        if key == "V":
            await shell.stdout.write(VERSION.encode())
            return 0
        listing = True
    if len(operands) > 1:
        await shell.error(PROG, "too many arguments")
        return 1
    if listing:
        if not operands:
            await shell.error(PROG, "missing arguments")
            return 1
        await shell.stdout.write("".join(n + "\n" for n in _names(operands[0])).encode())
        return 0
    only = set(_names(operands[0])) if operands else None
    env = shell.env

    def value(m: re.Match) -> bytes:
        name = (m.group(1) or m.group(2)).decode()
        if only is not None and name not in only:
            return m.group(0)
        return env.get(name, "").encode("utf-8", "surrogateescape")

    out = bytearray()
    async for line in shell.stdin.lines():
        shell.budget.check()
        out += _REF.sub(value, line) if b"$" in line else line
        if len(out) >= 1 << 16:
            await shell.stdout.write(bytes(out))
            out.clear()
    await shell.stdout.write(bytes(out))
    return 0
