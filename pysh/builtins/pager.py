"""less and more as they behave when their output is not a terminal (less 590, util-linux
2.38's more): they copy their files (or standard input) to standard output. pysh has no
terminal to page on, so in the REPL too they print everything at once. Their options are
accepted and, as in that mode, change nothing; ``more`` puts its ``::::`` header before
each file, as it does then. A file that cannot be read is reported (by less in its output)
and skipped; the exit status stays 0, as theirs does.
"""

from __future__ import annotations

from pysh.builtins._textutil import OpenFailed, open_input, strerror

# less options that take a value in the next word when it is not attached (-p PATTERN)
_LESS_WITH_VALUE = set("bhjkoOpPtTxyz#")
_HEADER = b"::::::::::::::\n"
LESS_VERSION = b"""less 590 (GNU regular expressions)
Copyright (C) 1984-2021  Mark Nudelman

less comes with NO WARRANTY, to the extent permitted by law.
For information about the terms of redistribution,
see the file named README in the less distribution.
Home page: https://greenwoodsoftware.com/less
"""


def _files(argv: list[str], with_value: set[str]) -> list[str]:
    files: list[str] = []
    i = 1
    only_files = False
    while i < len(argv):
        a = argv[i]
        i += 1
        if only_files or a == "-" or not a.startswith(("-", "+")):
            files.append(a)
        elif a == "--":
            only_files = True
        elif a[:1] == "-" and len(a) == 2 and a[1] in with_value and i < len(argv):
            i += 1
    return files


async def _copy(shell, prog: str, files: list[str], header: bool) -> int:
    out = shell.stdout
    if not files:
        async for chunk in shell.stdin.chunks():
            shell.budget.check()
            await out.write(chunk)
        return 0
    for name in files:
        try:
            stream = open_input(shell, name)
        except OpenFailed as e:
            reason = strerror(e.exc)
            if prog == "more":
                await shell.stderr.write(f"more: cannot open {name}: {reason}\n".encode(
                    "utf-8", "surrogateescape"))
            else:  # less says it in the output itself
                await out.write(f"{name}: {reason}\n".encode("utf-8", "surrogateescape"))
            continue
        try:
            if header:
                await out.write(_HEADER + name.encode("utf-8", "surrogateescape") + b"\n" + _HEADER)
            async for chunk in stream.chunks():
                shell.budget.check()
                await out.write(chunk)
        finally:
            stream.close()
    return 0


async def less_main(shell, argv: list[str]) -> int:
    if "--version" in argv[1:] or "-V" in argv[1:]:
        await shell.stdout.write(LESS_VERSION)
        return 0
    return await _copy(shell, "less", _files(argv, _LESS_WITH_VALUE), header=False)


async def more_main(shell, argv: list[str]) -> int:
    if "--version" in argv[1:] or "-V" in argv[1:]:
        await shell.stdout.write(b"more from util-linux 2.38.1\n")
        return 0
    return await _copy(shell, "more", _files(argv, {"n"}), header=True)
