"""touch: create files and set their times through the FileSystem door."""

from __future__ import annotations

import errno
import time

from pysh.builtins._fileutil import (
    Usage,
    help_or_version,
    lq,
    parse,
    parse_date,
    parse_touch_stamp,
    q,
    stat,
    strerror,
    usage_error,
)
from pysh.builtins._fileutil import lstat as xlstat
from pysh.shellkit import FileSystemError

PROG = "touch"

HELP = """
Usage: touch [OPTION]... FILE...
Update the access and modification times of each FILE to the current time.

A FILE argument that does not exist is created empty, unless -c or -h
is supplied.

  -a                     change only the access time
  -c, --no-create        do not create any files
  -d, --date=STRING      parse STRING and use it instead of current time
  -f                     (ignored)
  -h, --no-dereference   affect each symbolic link instead of any referenced
                         file (useful only on systems that can change the
                         timestamps of a symlink)
  -m                     change only the modification time
  -r, --reference=FILE   use this file's times instead of current time
  -t STAMP               use [[CC]YY]MMDDhhmm[.ss] instead of current time
      --time=WORD        change the specified time:
                           WORD is access, atime, or use: equivalent to -a
                           WORD is modify or mtime: equivalent to -m
      --help        display this help and exit
"""


async def main(shell, argv: list[str]) -> int:
    fs = shell.fs
    only_a = only_m = no_create = no_deref = False
    date = stamp = ref = None
    try:
        opts, names = parse(argv[1:], "acd:fhmr:t:", {
            "no-create": "c", "date=": "d", "no-dereference": "h", "reference=": "r",
            "time=": "time"})
        if await help_or_version(shell, PROG, opts, HELP):
            return 0
        for k, v in opts:
            if k == "a":
                only_a = True
            elif k == "m":
                only_m = True
            elif k == "c":
                no_create = True
            elif k == "h":
                no_deref = True
            elif k == "d":
                date = v
            elif k == "t":
                stamp = v
            elif k == "r":
                ref = v
            elif k == "time":
                if v in ("access", "atime", "use"):
                    only_a = True
                elif v in ("modify", "mtime"):
                    only_m = True
                else:
                    raise Usage(f"invalid argument {lq(v)} for {lq('--time')}\n"
                                "Valid arguments are:\n  - ‘atime’, ‘access’, ‘use’\n"
                                "  - ‘mtime’, ‘modify’")
        if stamp is not None and (date is not None or ref is not None):
            raise Usage("cannot specify times from more than one source")
        if not names:
            raise Usage("missing file operand")
    except Usage as e:
        return await usage_error(shell, PROG, e)
    times = None  # (atime_ns, mtime_ns); None = now
    if ref is not None:
        try:
            rst = stat(fs, ref) if not no_deref else xlstat(fs, ref)
        except FileSystemError as e:
            await shell.error(PROG, f"failed to get attributes of {q(ref)}: {strerror(e)}")
            return 1
        times = (rst.st_atime_ns, rst.st_mtime_ns)
        if date is not None:
            a = parse_date(shell, date, rst.st_atime_ns)
            m = parse_date(shell, date, rst.st_mtime_ns)
            if a is None:
                await shell.error(PROG, f"invalid date format {lq(date)}")
                return 1
            times = (a, m)
    elif date is not None:
        t = parse_date(shell, date)
        if t is None:
            await shell.error(PROG, f"invalid date format {lq(date)}")
            return 1
        times = (t, t)
    elif stamp is not None:
        t = parse_touch_stamp(shell, stamp)
        if t is None:
            await shell.error(PROG, f"invalid date format {lq(stamp)}")
            return 1
        times = (t, t)
    status = 0
    for name in names:
        shell.budget.check()
        if name == "-":
            continue
        exists = True
        try:
            cur = xlstat(fs, name) if no_deref else stat(fs, name)
        except FileSystemError as e:
            if e.errno != errno.ENOENT:
                await shell.error(PROG, f"cannot touch {q(name)}: {strerror(e)}")
                status = 1
                continue
            exists = False
            cur = None
        if not exists:
            if no_create or no_deref:
                continue
            try:
                f = fs.open(name, "ab", perm=0o666 & ~shell.umask)
                f.close()
            except FileSystemError as e:
                await shell.error(PROG, f"cannot touch {q(name)}: {strerror(e)}")
                status = 1
                continue
            if times is None and not (only_a or only_m):
                continue
            try:
                cur = stat(fs, name)
            except FileSystemError:
                continue
        now_ns = time.time_ns()
        a, m = times if times is not None else (now_ns, now_ns)
        if only_a and not only_m:
            m = cur.st_mtime_ns
        elif only_m and not only_a:
            a = cur.st_atime_ns
        try:
            fs.utime(name, ns=(a, m), follow_symlinks=not no_deref)
        except FileSystemError as e:
            await shell.error(PROG, f"setting times of {q(name)}: {strerror(e)}")
            status = 1
    return status
