"""The `pysh` command line."""

import sys

from pysh import __version__

USAGE = """\
usage: pysh [options] [-c SCRIPT [NAME [ARGS...]] | FILE [ARGS...]]

A bash interpreter that runs every command in-process, inside a sandbox.
"""


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] == "-n":  # parse only, like bash -n
        from pysh.interpreter.syntax.check import main_n

        return main_n(args[1:])
    if args and args[0] in ("--version", "-V"):
        print(f"pysh {__version__}")
        return 0
    sys.stdout.write(USAGE)
    return 0 if args and args[0] in ("-h", "--help") else 2
