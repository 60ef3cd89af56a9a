"""truncate: shrink or extend files through the FileSystem door."""

from __future__ import annotations

import errno
import os
import re
import stat as _stat

from pysh.builtins._fileutil import (
    Usage,
    help_or_version,
    lq,
    parse,
    q,
    stat,
    strerror,
    usage_error,
)
from pysh.shellkit import FileSystemError

PROG = "truncate"

HELP = """
Usage: truncate OPTION... FILE...
Shrink or extend the size of each FILE to the specified size

A FILE argument that does not exist is created.

If a FILE is larger than the specified size, the extra data is lost.
If a FILE is shorter, it is extended and the sparse extended part (hole)
reads as zero bytes.

Mandatory arguments to long options are mandatory for short options too.
  -c, --no-create        do not create any files
  -o, --io-blocks        treat SIZE as number of IO blocks instead of bytes
  -r, --reference=RFILE  base size on RFILE
  -s, --size=SIZE        set or adjust the file size by SIZE bytes
      --help        display this help and exit

The SIZE argument is an integer and optional unit (example: 10K is 10*1024).
Units are K,M,G,T,P,E,Z,Y (powers of 1024) or KB,MB,... (powers of 1000).
Binary prefixes can be used, too: KiB=K, MiB=M, and so on.

SIZE may also be prefixed by one of the following modifying characters:
'+' extend by, '-' reduce by, '<' at most, '>' at least,
'/' round down to multiple of, '%' round up to multiple of.
"""

_UNITS = {"": 1, "K": 1024, "M": 1024 ** 2, "G": 1024 ** 3, "T": 1024 ** 4, "P": 1024 ** 5,
          "E": 1024 ** 6, "Z": 1024 ** 7, "Y": 1024 ** 8}


OFF_MAX = (1 << 63) - 1  # off_t


def parse_size(text: str) -> tuple[str, int] | None:
    m = re.fullmatch(r"\s*([-+<>/%]?)\s*(\d+)([KMGTPEZY]?)((?:iB|B)?)", text, re.IGNORECASE)
    if not m:
        return None
    op, num, unit, tail = m.group(1), int(m.group(2)), m.group(3).upper(), m.group(4)
    if m.group(3) == "k":
        unit = "K"
    elif m.group(3) and m.group(3) != m.group(3).upper() and m.group(3) != "k":
        return None
    if tail.upper() == "B" and unit:
        mult = 1000 ** (list(_UNITS).index(unit))
    elif tail and tail.lower() == "ib" and unit:
        mult = _UNITS[unit]
    elif tail:
        return None
    else:
        mult = _UNITS[unit]
    return op, num * mult


async def main(shell, argv: list[str]) -> int:
    fs = shell.fs
    no_create = io_blocks = False
    size_spec = ref = None
    try:
        opts, names = parse(argv[1:], "cor:s:", {
            "no-create": "c", "io-blocks": "o", "reference=": "r", "size=": "s"})
        if await help_or_version(shell, PROG, opts, HELP):
            return 0
        for k, v in opts:
            if k == "c":
                no_create = True
            elif k == "o":
                io_blocks = True
            elif k == "r":
                ref = v
            elif k == "s":
                size_spec = v
        if size_spec is None and ref is None:
            raise Usage(f"you must specify either {lq('--size')} or {lq('--reference')}")
        parsed = None
        if size_spec is not None:
            parsed = parse_size(size_spec)
            if parsed is None:
                raise Usage(f"Invalid number: {lq(size_spec)}", hint=False)
            if parsed[1] > OFF_MAX:
                raise Usage(f"Invalid number: {lq(size_spec)}: Value too large for defined "
                            "data type", hint=False)
            if parsed[0] in ("/", "%") and parsed[1] == 0:
                raise Usage("division by zero", hint=False)
        if ref is not None and parsed is not None and parsed[0] == "":
            raise Usage(f"you must specify a relative {lq('--size')} with {lq('--reference')}")
        if not names:
            raise Usage("missing file operand")
    except Usage as e:
        return await usage_error(shell, PROG, e)
    ref_size = None
    if ref is not None:
        try:
            ref_size = stat(fs, ref).st_size
        except FileSystemError as e:
            await shell.error(PROG, f"cannot stat {q(ref)}: {strerror(e)}")
            return 1
    status = 0
    for name in names:
        shell.budget.check()
        try:
            st = stat(fs, name)
        except FileSystemError as e:
            if e.errno != errno.ENOENT:
                await shell.error(PROG, f"cannot open {q(name)} for writing: {strerror(e)}")
                status = 1
                continue
            st = None
        if st is None and no_create:
            continue
        if st is not None and _stat.S_ISDIR(st.st_mode):
            await shell.error(PROG, f"cannot open {q(name)} for writing: Is a directory")
            status = 1
            continue
        cur = st.st_size if st is not None else 0
        base = ref_size if ref_size is not None else cur
        if parsed is None:
            new = base
        else:
            op, n = parsed
            if io_blocks:
                n *= (st.st_blksize if st is not None and st.st_blksize else 4096)
            if op == "":
                new = n
            elif op == "+":
                new = base + n
            elif op == "-":
                new = max(0, base - n)
            elif op == "<":
                new = min(base, n)
            elif op == ">":
                new = max(base, n)
            elif op == "/":
                new = (base // n) * n
            else:
                new = -(-base // n) * n
        try:
            if st is None:
                f = fs.open(name, "ab", perm=0o666 & ~shell.umask)
                f.close()
            if new > OFF_MAX:
                await shell.error(PROG, f"failed to truncate {q(name)} at {new} bytes: "
                                        f"{os.strerror(errno.EFBIG)}")
                status = 1
                continue
            if st is None or new != cur:
                fs.truncate(name, new)
        except FileSystemError as e:
            if e.errno == errno.EFBIG:
                await shell.error(PROG, f"failed to truncate {q(name)} at {new} bytes: "
                                        f"{strerror(e)}")
                status = 1
                continue
            await shell.error(PROG, f"cannot open {q(name)} for writing: {strerror(e)}")
            status = 1
    return status
