"""fold: wrap input lines to a width (GNU coreutils; columns are bytes, as in GNU 9.1)."""

from __future__ import annotations

from pysh.builtins._textutil import (
    OptionError,
    Writer,
    help_text,
    parse_options,
    quote,
    quotef,
    strerror,
    usage,
    version_text,
)

HELP = """\
Usage: fold [OPTION]... [FILE]...
Wrap input lines in each FILE, writing to standard output.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -b, --bytes         count bytes rather than columns
  -s, --spaces        break at spaces
  -w, --width=WIDTH   use WIDTH columns instead of 80
      --help        display this help and exit
      --version     output version information and exit
"""

LONG = {"bytes": "b", "spaces": "s", "width=": "w", "help": "help", "version": "version"}


def _adjust(col: int, c: int, count_bytes: bool) -> int:
    if count_bytes:
        return col + 1
    if c == 8:
        return col - 1 if col > 0 else 0
    if c == 13:
        return 0
    if c == 9:
        return col + 8 - col % 8
    return col + 1


def fold_line(line: bytes, width: int, spaces: bool, count_bytes: bool) -> bytes:
    """One line (without its newline) folded."""
    if len(line) <= width and (count_bytes or not (b"\t" in line or b"\b" in line
                                                    or b"\r" in line)):
        return line
    if not spaces and (count_bytes or not (b"\t" in line or b"\b" in line or b"\r" in line)):
        return b"\n".join(line[i:i + width] for i in range(0, len(line), width))
    out = bytearray()
    buf = bytearray()
    col = 0
    i = 0
    n = len(line)
    while i < n:
        c = line[i]
        col = _adjust(col, c, count_bytes)
        if col > width:
            if spaces:
                j = len(buf) - 1
                while j >= 0 and buf[j] not in (32, 9):
                    j -= 1
                if j >= 0:
                    out += buf[:j + 1] + b"\n"
                    del buf[:j + 1]
                    col = 0
                    for b in buf:
                        col = _adjust(col, b, count_bytes)
                    continue  # rescan c
            if not buf:
                buf.append(c)
                i += 1
                continue
            out += buf + b"\n"
            buf.clear()
            col = 0
            continue  # rescan c
        buf.append(c)
        i += 1
    out += buf
    return bytes(out)


async def main(shell, argv: list[str]) -> int:
    prog = "fold"
    args = []
    for a in argv[1:]:
        # obsolete -NUM means -w NUM
        if len(a) > 1 and a[0] == "-" and a[1:].isdigit():
            args += ["-w", a[1:]]
        else:
            args.append(a)
    try:
        opts, files = parse_options(args, "bsw:", LONG)
    except OptionError as e:
        return await usage(shell, prog, str(e))
    width = 80
    spaces = count_bytes = False
    for k, v in opts:
        if k == "help":
            return await help_text(shell, HELP)
        if k == "version":
            return await version_text(shell, prog)
        if k == "b":
            count_bytes = True
        elif k == "s":
            spaces = True
        elif k == "w":
            try:
                width = int((v or "").strip())
                if width < 1:
                    raise ValueError
            except ValueError:
                tail = ": Numerical result out of range" if (v or "").strip().lstrip("-").isdigit() else ""
                await shell.error(prog, f"invalid number of columns: {quote(v or '')}{tail}")
                return 1
    out = Writer(shell.stdout)
    status = 0
    for name in files or ["-"]:
        try:
            stream = shell.open_input(name)
        except OSError as e:
            await out.flush()
            await shell.error(prog, f"{quotef(name)}: {strerror(e)}")
            status = 1
            continue
        try:
            async for block in stream.line_blocks(b"\n"):
                shell.budget.check()
                parts = block.split(b"\n")
                last = parts.pop()  # not empty only for a last line without its newline
                await out.write(b"".join(fold_line(p, width, spaces, count_bytes) + b"\n"
                                         for p in parts))
                if last:
                    await out.write(fold_line(last, width, spaces, count_bytes))
        finally:
            stream.close()
    await out.flush()
    return status
