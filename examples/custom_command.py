"""A custom command: the same interface as pysh's own builtins.

    python examples/custom_command.py

A command is ``async def main(shell, argv) -> int``: it reads ``shell.stdin``,
writes bytes to ``shell.stdout``/``shell.stderr``, reaches files through
``shell.fs`` (virtual paths, confined to the sandbox), and returns its exit
status. Register it on one sandbox with ``Sandbox.register`` (or
``Sandbox(commands={...})``), or for every sandbox of an installed package with
an entry point in the ``pysh.commands`` group::

    [project.entry-points."pysh.commands"]
    rot13 = "mypackage.commands:rot13"
"""

from __future__ import annotations

import codecs

import pysh
from pysh.shellkit import FileSystemError


async def rot13(shell, argv: list[str]) -> int:
    """rot13 [FILE...]: rot13 the files (or stdin) to stdout."""
    if argv[1:2] == ["--help"]:
        await shell.stdout.write(b"usage: rot13 [FILE...]\n")
        return 0
    status = 0
    out = bytearray()
    for name in argv[1:] or ["-"]:
        try:
            if name == "-":
                data = await shell.stdin.read()
            else:
                data = shell.fs.read_bytes(name)  # door A: confined, virtual paths
        except FileSystemError as e:  # str(e) is "<virtual path>: <reason>", never a host path
            await shell.error(argv[0], str(e))
            status = 1
            continue
        out += codecs.encode(data.decode("utf-8", "surrogateescape"), "rot13").encode(
            "utf-8", "surrogateescape")
    await shell.stdout.write(bytes(out))
    return status


def main() -> None:
    with pysh.Sandbox() as sb:
        sb.register("rot13", rot13)
        print(sb.run("echo 'Hello, sandbox' | rot13").stdout, end="")
        print(sb.run("echo secret > msg; rot13 msg | rot13").stdout, end="")
        r = sb.run("rot13 /etc/passwd; echo status=$?")
        print(r.stdout, r.stderr, sep="", end="")


if __name__ == "__main__":
    main()
