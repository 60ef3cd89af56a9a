"""``pysh -n``: parse only, report syntax errors the way ``bash -n`` does.

    pysh -n FILE        errors as "FILE: line N: ..."
    pysh -n -c SCRIPT   errors as "pysh: -c: line N: ..."
    pysh -n             the script is read from stdin; errors as "pysh: ..."

Exit status: 0 when the whole input parses, 2 at the first syntax error,
127 when FILE cannot be read.  Warnings (here-document delimited by end of
file) are printed and do not change the status.
"""

from __future__ import annotations

import io
import sys

from .errors import ParseError
from .parser import CommandReader


def check_source(source: str, *, prefix, stderr) -> int:
    """Parse `source` command by command; `prefix(line)` gives the message prefix."""
    reader = CommandReader(io.StringIO(source).readline)
    status = 0
    try:
        for _ in reader:
            for line, msg in reader.take_warnings():
                stderr.write(f"{prefix(line)}: {msg}\n")
    except ParseError as e:
        for line, msg in reader.take_warnings():
            stderr.write(f"{prefix(line)}: {msg}\n")
        stderr.write(e.format(prefix(e.line)) + "\n")
        status = 2
    for line, msg in reader.take_warnings():
        stderr.write(f"{prefix(line)}: {msg}\n")
    return status


def main_n(args: list[str], *, stdin=None, stderr=None, name: str = "pysh") -> int:
    """Entry point for ``pysh -n [FILE | -c SCRIPT]``."""
    stdin = sys.stdin if stdin is None else stdin
    stderr = sys.stderr if stderr is None else stderr
    if args and args[0] == "-c":
        if len(args) < 2:
            stderr.write(f"{name}: -c: option requires an argument\n")
            return 2
        return check_source(args[1], prefix=lambda ln: f"{name}: -c: line {ln}", stderr=stderr)
    if args:
        path = args[0]
        try:
            with open(path, encoding="utf-8", errors="surrogateescape") as f:
                source = f.read()
        except OSError as e:
            reason = e.strerror or "cannot read file"
            stderr.write(f"{name}: {path}: {reason}\n")
            return 127
        return check_source(source, prefix=lambda ln: f"{path}: line {ln}", stderr=stderr)
    source = stdin.read()
    return check_source(source, prefix=lambda ln: name, stderr=stderr)
