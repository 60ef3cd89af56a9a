"""link, unlink and sync (GNU coreutils 9.1): one system call each, through the FileSystem door.

``sync`` has nothing to flush (the door writes through at close) and only
checks that its operands can be opened, as GNU does.
"""

from __future__ import annotations

from pysh.builtins._fileutil import (
    Usage,
    help_or_version,
    lq,
    parse,
    q,
    strerror,
    usage_error,
)
from pysh.shellkit import FileSystemError

LINK_HELP = """
Usage: link FILE1 FILE2
  or:  link OPTION
Call the link function to create a link named FILE2 to an existing FILE1.

      --help        display this help and exit
      --version     output version information and exit
"""

UNLINK_HELP = """
Usage: unlink FILE
  or:  unlink OPTION
Call the unlink function to remove the specified FILE.

      --help        display this help and exit
      --version     output version information and exit
"""

SYNC_HELP = """
Usage: sync [OPTION] [FILE]...
Synchronize cached writes to persistent storage

If one or more files are specified, sync only them,
or their containing file systems.

  -d, --data             sync only file data, no unneeded metadata
  -f, --file-system      sync the file systems that contain the files
      --help        display this help and exit
      --version     output version information and exit
"""


def _operands(operands: list[str], n: int) -> None:
    """Exactly ``n`` operands, with GNU's messages otherwise."""
    if not operands:
        raise Usage("missing operand")
    if len(operands) < n:
        raise Usage(f"missing operand after {lq(operands[-1])}")
    if len(operands) > n:
        raise Usage(f"extra operand {lq(operands[n])}")


async def link_main(shell, argv: list[str]) -> int:
    try:
        opts, operands = parse(argv[1:], "", {})
        if await help_or_version(shell, "link", opts, LINK_HELP):
            return 0
        _operands(operands, 2)
    except Usage as e:
        return await usage_error(shell, "link", e)
    src, dst = operands
    try:
        shell.fs.link(src, dst)
    except FileSystemError as e:
        await shell.error("link", f"cannot create link {q(dst)} to {q(src)}: {strerror(e)}")
        return 1
    return 0


async def unlink_main(shell, argv: list[str]) -> int:
    try:
        opts, operands = parse(argv[1:], "", {})
        if await help_or_version(shell, "unlink", opts, UNLINK_HELP):
            return 0
        _operands(operands, 1)
    except Usage as e:
        return await usage_error(shell, "unlink", e)
    try:
        shell.fs.unlink(operands[0])
    except FileSystemError as e:
        await shell.error("unlink", f"cannot unlink {q(operands[0])}: {strerror(e)}")
        return 1
    return 0


async def sync_main(shell, argv: list[str]) -> int:
    data = filesystem = False
    try:
        opts, operands = parse(argv[1:], "df", {"data": "d", "file-system": "f"})
        if await help_or_version(shell, "sync", opts, SYNC_HELP):
            return 0
        for k, _ in opts:
            data |= k == "d"
            filesystem |= k == "f"
        if data and filesystem:
            raise Usage("cannot specify both --data and --file-system", hint=False)
        if data and not operands:
            raise Usage("--data needs at least one argument", hint=False)
    except Usage as e:
        return await usage_error(shell, "sync", e)
    status = 0
    for name in operands:
        try:
            shell.fs.stat(name)
        except FileSystemError as e:
            await shell.error("sync", f"error opening {q(name)}: {strerror(e)}")
            status = 1
    return status
