"""paste: merge lines of files (GNU coreutils)."""

from __future__ import annotations

from pysh.builtins._textutil import (
    OptionError,
    help_text,
    parse_options,
    quotef,
    strerror,
    usage,
    version_text,
)
from pysh.shellkit.text import encode

HELP = """\
Usage: paste [OPTION]... [FILE]...
Write lines consisting of the sequentially corresponding lines from
each FILE, separated by TABs, to standard output.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -d, --delimiters=LIST   reuse characters from LIST instead of TABs
  -s, --serial            paste one file at a time instead of in parallel
  -z, --zero-terminated    line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit
"""

LONG = {"delimiters=": "d", "serial": "s", "zero-terminated": "z", "help": "help",
        "version": "version"}


def parse_delims(spec: bytes) -> list[bytes]:
    out: list[bytes] = []
    i = 0
    while i < len(spec):
        c = spec[i:i + 1]
        if c == b"\\" and i + 1 < len(spec):
            d = spec[i + 1:i + 2]
            out.append({b"n": b"\n", b"t": b"\t", b"\\": b"\\", b"0": b"", b"b": b"\b",
                        b"f": b"\f", b"r": b"\r", b"v": b"\v"}.get(d, d))
            i += 2
            continue
        out.append(c)
        i += 1
    return out


async def main(shell, argv: list[str]) -> int:
    prog = "paste"
    try:
        opts, files = parse_options(argv[1:], "d:sz", LONG)
    except OptionError as e:
        return await usage(shell, prog, str(e))
    delims = [b"\t"]
    serial = False
    eol = b"\n"
    for k, v in opts:
        if k == "help":
            return await help_text(shell, HELP)
        if k == "version":
            return await version_text(shell, prog)
        if k == "d":
            raw = encode(v or "")
            if raw.endswith(b"\\") and not raw.endswith(b"\\\\"):
                await shell.error(prog, f"delimiter list ends with an unescaped backslash: {v}")
                return 1
            delims = parse_delims(raw) or [b""]
        elif k == "s":
            serial = True
        elif k == "z":
            eol = b"\0"
    files = files or ["-"]
    contents: list[list[bytes]] = []
    stdin_lines = None
    stdin_uses = files.count("-")
    for name in files:
        if name == "-":
            if stdin_lines is None:
                data = await shell.stdin.read()
                stdin_lines = _split(data, eol)
            contents.append(stdin_lines)
            continue
        try:
            stream = shell.open_input(name)
        except OSError as e:
            await shell.error(prog, f"{quotef(name)}: {strerror(e)}")
            return 1
        try:
            data = await stream.read()
        finally:
            stream.close()
        shell.budget.check()
        contents.append(_split(data, eol))
    out: list[bytes] = []
    nd = len(delims)
    if serial:
        for lines in contents:
            if lines is stdin_lines and stdin_uses > 1:
                pass
            parts = []
            for i, line in enumerate(lines):
                if i:
                    parts.append(delims[(i - 1) % nd])
                parts.append(line)
            out.append(b"".join(parts) + eol)
    else:
        # '-' given several times takes successive stdin lines in turn
        iters = []
        shared = {}
        for lines in contents:
            if lines is stdin_lines and stdin_uses > 1:
                key = id(lines)
                if key not in shared:
                    shared[key] = iter(lines)
                iters.append(shared[key])
            else:
                iters.append(iter(lines))
        while True:
            row = []
            got = False
            for it in iters:
                try:
                    row.append(next(it))
                    got = True
                except StopIteration:
                    row.append(None)
            if not got:
                break
            parts = []
            for i, cell in enumerate(row):
                if i:
                    parts.append(delims[(i - 1) % nd])
                if cell is not None:
                    parts.append(cell)
            out.append(b"".join(parts) + eol)
            if len(out) % 4096 == 0:
                shell.budget.check()
    body = b"".join(out)
    await shell.stdout.write(body)
    return 0


def _split(data: bytes, eol: bytes) -> list[bytes]:
    if not data:
        return []
    parts = data.split(eol)
    if parts[-1] == b"":
        parts.pop()
    return parts
