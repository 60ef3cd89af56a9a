"""rev: reverse the characters of each line (util-linux).

Deviation: util-linux stops at an invalid multibyte sequence; pysh reverses
it byte-wise instead, so non-UTF-8 input round-trips.
"""

from __future__ import annotations

from pysh.builtins._textutil import (
    OptionError,
    Writer,
    help_text,
    parse_options,
    strerror,
    utf8_locale,
)
from pysh.shellkit.text import decode, encode

HELP = """\
Usage: rev [options] [file ...]

Reverse lines characterwise.

Options:
 -0, --zero     zero line delimiter

 -h, --help     display this help
 -V, --version  display version
"""


async def main(shell, argv: list[str]) -> int:
    prog = "rev"
    try:
        opts, files = parse_options(argv[1:], "0hV", {"zero": "0", "help": "h",
                                                     "version": "V"})
    except OptionError as e:
        await shell.error(prog, str(e))
        await shell.stderr.write(b"Try 'rev --help' for more information.\n")
        return 1
    delim = b"\n"
    for k, _ in opts:
        if k == "h":
            return await help_text(shell, HELP)
        if k == "V":
            await shell.stdout.write(b"rev from util-linux 2.38.1\n")
            return 0
        if k == "0":
            delim = b"\0"
    utf8 = utf8_locale(shell)
    if utf8:
        def flip(line: bytes) -> bytes:
            return line[::-1] if line.isascii() else encode(decode(line)[::-1])
    else:
        def flip(line: bytes) -> bytes:
            return line[::-1]
    out = Writer(shell.stdout)
    status = 0
    for name in files or ["-"]:
        try:
            stream = shell.open_input(name)
        except OSError as e:
            await out.flush()
            if e.errno == 21:
                await shell.error(prog, f"{name}: 0: Is a directory")
            else:
                await shell.error(prog, f"cannot open {name}: {strerror(e)}")
            status = 1
            continue
        try:
            async for block in stream.line_blocks(delim):
                shell.budget.check()
                parts = block.split(delim)
                last = parts.pop()  # not empty only for a last line without its delimiter
                await out.write(b"".join(flip(p) + delim for p in parts))
                if last:
                    await out.write(flip(last))
        finally:
            stream.close()
    await out.flush()
    return status
