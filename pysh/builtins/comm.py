"""comm: compare two sorted files line by line (GNU coreutils)."""

from __future__ import annotations

from pysh.builtins._textutil import (
    OptionError,
    help_text,
    parse_options,
    quote,
    quotef,
    strerror,
    usage,
    version_text,
)
from pysh.shellkit.text import encode

HELP = """\
Usage: comm [OPTION]... FILE1 FILE2
Compare sorted files FILE1 and FILE2 line by line.

When FILE1 or FILE2 (not both) is -, read standard input.

With no options, produce three-column output.  Column one contains
lines unique to FILE1, column two contains lines unique to FILE2,
and column three contains lines common to both files.

  -1                      suppress column 1 (lines unique to FILE1)
  -2                      suppress column 2 (lines unique to FILE2)
  -3                      suppress column 3 (lines that appear in both files)

      --check-order       check that the input is correctly sorted, even
                            if all input lines are pairable
      --nocheck-order     do not check that the input is correctly sorted
      --output-delimiter=STR  separate columns with STR
      --total             output a summary
  -z, --zero-terminated   line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit
"""

LONG = {"check-order": "check", "nocheck-order": "nocheck", "output-delimiter=": "delim",
        "total": "total", "zero-terminated": "z", "help": "help", "version": "version"}


async def main(shell, argv: list[str]) -> int:
    prog = "comm"
    try:
        opts, files = parse_options(argv[1:], "123z", LONG)
    except OptionError as e:
        return await usage(shell, prog, str(e))
    show = {1: True, 2: True, 3: True}
    check: bool | None = None
    delim: bytes | None = None
    total = False
    eol = b"\n"
    for k, v in opts:
        if k == "help":
            return await help_text(shell, HELP)
        if k == "version":
            return await version_text(shell, prog)
        if k in "123" and len(k) == 1:
            show[int(k)] = False
        elif k == "check":
            check = True
        elif k == "nocheck":
            check = False
        elif k == "delim":
            d = encode(v or "")
            if delim is not None and d != delim:
                await shell.error(prog, "multiple output delimiters specified")
                return 1
            delim = d
        elif k == "total":
            total = True
        elif k == "z":
            eol = b"\0"
    if len(files) < 2:
        if not files:
            return await usage(shell, prog, "missing operand")
        return await usage(shell, prog, f"missing operand after {quote(files[-1])}")
    if len(files) > 2:
        return await usage(shell, prog, f"extra operand {quote(files[2])}")
    if delim is None:
        delim = b"\t"
    elif delim == b"":
        delim = b"\0"
    data = []
    for name in files:
        try:
            stream = shell.open_input(name)
        except OSError as e:
            await shell.error(prog, f"{quotef(name)}: {strerror(e)}")
            return 1
        try:
            raw = await stream.read()
        finally:
            stream.close()
        lines = raw.split(eol)
        if lines and lines[-1] == b"":
            lines.pop()
        data.append(lines)
    a, b = data
    out: list[bytes] = []
    prefix2 = delim if show[1] else b""
    prefix3 = (delim if show[1] else b"") + (delim if show[2] else b"")
    counts = [0, 0, 0]
    i = j = 0
    disorder = False
    warned = [False, False]
    status = 0
    prev = [None, None]

    async def check_order(which: int, line: bytes) -> bool:
        nonlocal disorder, status
        p = prev[which]
        prev[which] = line
        if check is False or p is None or warned[which]:
            return False
        if p > line:
            warned[which] = True
            disorder = True
            await shell.stdout.write(b"".join(out))
            out.clear()
            await shell.error(prog, f"file {which + 1} is not in sorted order")
            if check:
                return True
        return False

    while i < len(a) or j < len(b):
        if i < len(a) and (j >= len(b) or a[i] < b[j]):
            if await check_order(0, a[i]):
                return 1
            counts[0] += 1
            if show[1]:
                out.append(a[i] + eol)
            i += 1
        elif j < len(b) and (i >= len(a) or b[j] < a[i]):
            if await check_order(1, b[j]):
                return 1
            counts[1] += 1
            if show[2]:
                out.append(prefix2 + b[j] + eol)
            j += 1
        else:
            if await check_order(0, a[i]) or await check_order(1, b[j]):
                return 1
            counts[2] += 1
            if show[3]:
                out.append(prefix3 + a[i] + eol)
            i += 1
            j += 1
        if len(out) > 4096:
            shell.budget.check()
            await shell.stdout.write(b"".join(out))
            out.clear()
    if total:
        out.append(b"%d" % counts[0] + delim + b"%d" % counts[1] + delim + b"%d" % counts[2]
                   + delim + b"total" + eol)
    await shell.stdout.write(b"".join(out))
    if disorder:
        await shell.error(prog, "input is not in sorted order")
        status = 1
    return status
