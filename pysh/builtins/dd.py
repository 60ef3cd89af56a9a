"""dd (GNU coreutils 9.1) through the FileSystem door.

Operands ``if= of= bs= ibs= obs= count= skip=/iseek= seek=/oseek= status=`` (none, noxfer,
progress), ``conv=`` (ucase lcase swab sync notrunc excl nocreat noerror fsync fdatasync
sparse), ``iflag=``/``oflag=`` (skip_bytes count_bytes seek_bytes fullblock append, and the
I/O hints, which have nothing to act on here), GNU's number syntax (``c w b kB K MB M xM``
..., ``NxM`` products, a trailing ``B`` counting bytes). Records are counted as GNU counts
them (``full+partial``); the transfer line gives the bytes, the time and the rate.
Not supported: ``cbs``, ``conv=block/unblock/ascii/ebcdic/ibm`` (refused with an error).
"""

from __future__ import annotations

import errno
import re
import stat as _stat
import time

from pysh.builtins._misc_util import quote, squote, strerror
from pysh.shellkit import FileSystemError, WriteError
from pysh.shellkit.text import encode

PROG = "dd"

_SUFFIX = {"c": 1, "w": 2, "b": 512, "": 1}
for _i, _p in enumerate("KMGTPEZY", 1):
    _SUFFIX[_p] = _SUFFIX[_p + "iB"] = 1024 ** _i
    _SUFFIX[_p + "B"] = 1000 ** _i
_SUFFIX["k"] = 1024
_SUFFIX["kB"] = 1000
_SUFFIX["xM"] = 1024 ** 2
_NUM_RE = re.compile(r"([0-9]+)([A-Za-z]*)")

HELP_TEXT = """\
Usage: dd [OPERAND]...
  or:  dd OPTION
Copy a file, converting and formatting according to the operands.

  bs=BYTES        read and write up to BYTES bytes at a time (default: 512);
                  overrides ibs and obs
  cbs=BYTES       convert BYTES bytes at a time
  conv=CONVS      convert the file as per the comma separated symbol list
  count=N         copy only N input blocks
  ibs=BYTES       read up to BYTES bytes at a time (default: 512)
  if=FILE         read from FILE instead of stdin
  iflag=FLAGS     read as per the comma separated symbol list
  obs=BYTES       write BYTES bytes at a time (default: 512)
  of=FILE         write to FILE instead of stdout
  oflag=FLAGS     write as per the comma separated symbol list
  seek=N          (or oseek=N) skip N obs-sized output blocks
  skip=N          (or iseek=N) skip N ibs-sized input blocks
  status=LEVEL    The LEVEL of information to print to stderr;
                  'none' suppresses everything but error messages,
                  'noxfer' suppresses the final transfer statistics,
                  'progress' shows periodic transfer statistics

N and BYTES may be followed by the following multiplicative suffixes:
c=1, w=2, b=512, kB=1000, K=1024, MB=1000*1000, M=1024*1024, xM=M,
GB=1000*1000*1000, G=1024*1024*1024, and so on for T, P, E, Z, Y.
Binary prefixes can be used, too: KiB=K, MiB=M, and so on.
If N ends in 'B', it counts bytes not blocks.

Each CONV symbol may be:

  ascii     from EBCDIC to ASCII
  ebcdic    from ASCII to EBCDIC
  ibm       from ASCII to alternate EBCDIC
  block     pad newline-terminated records with spaces to cbs-size
  unblock   replace trailing spaces in cbs-size records with newline
  lcase     change upper case to lower case
  ucase     change lower case to upper case
  sparse    try to seek rather than write all-NUL output blocks
  swab      swap every pair of input bytes
  sync      pad every input block with NULs to ibs-size; when used
            with block or unblock, pad with spaces rather than NULs
  excl      fail if the output file already exists
  nocreat   do not create the output file
  notrunc   do not truncate the output file
  noerror   continue after read errors
  fdatasync  physically write output file data before finishing
  fsync     likewise, but also write metadata

Each FLAG symbol may be:

  append    append mode (makes sense only for output; conv=notrunc suggested)
  direct    use direct I/O for data
  directory  fail unless a directory
  dsync     use synchronized I/O for data
  sync      likewise, but also for metadata
  fullblock  accumulate full blocks of input (iflag only)
  nonblock  use non-blocking I/O
  noatime   do not update access time
  nocache   Request to drop cache.  See also oflag=sync
  noctty    do not assign controlling terminal from file
  nofollow  do not follow symlinks

Sending a USR1 signal to a running 'dd' process makes it
print I/O statistics to standard error and then resume copying.

Options are:

      --help        display this help and exit
      --version     output version information and exit

GNU coreutils online help: <https://www.gnu.org/software/coreutils/>
Report any translation bugs to <https://translationproject.org/team/>
Full documentation <https://www.gnu.org/software/coreutils/dd>
or available locally via: info '(coreutils) dd invocation'
"""

VERSION_TEXT = """dd (coreutils) 9.1
Copyright (C) 2022 Free Software Foundation, Inc.
License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.
This is free software: you are free to change and redistribute it.
There is NO WARRANTY, to the extent permitted by law.

Written by Paul Rubin, David MacKenzie, and Stuart Kemp.
"""

CONVS = {"ucase", "lcase", "swab", "sync", "notrunc", "excl", "nocreat", "noerror", "fsync",
         "fdatasync", "sparse"}
UNSUPPORTED_CONVS = {"ascii", "ebcdic", "ibm", "block", "unblock"}
IFLAGS = {"skip_bytes", "count_bytes", "fullblock", "direct", "dsync", "sync", "nonblock",
          "noatime", "nocache", "noctty", "nofollow", "binary", "text", "directory"}
OFLAGS = {"append", "seek_bytes", "direct", "dsync", "sync", "nonblock", "noatime", "nocache",
          "noctty", "nofollow", "binary", "text", "directory"}


class _Bad(Exception):
    pass


def _number(text: str) -> tuple[int, bool]:
    """GNU dd's number: products with x, suffixes; (value, counts bytes: ends in B)."""
    total = 1
    in_bytes = False
    body = text[:-2] + "M" if text.endswith("xM") else text  # the suffix xM is M
    pieces = body.split("x")
    for piece in pieces:
        m = _NUM_RE.fullmatch(piece)
        if m is None:
            raise _Bad(f"invalid number: {quote(text)}")
        digits, suffix = m.groups()
        if suffix == "B":  # N...B counts bytes, not blocks; not in a product
            if len(pieces) > 1:
                raise _Bad(f"invalid number: {quote(text)}")
            in_bytes, suffix = True, ""
        mult = _SUFFIX.get(suffix)
        if mult is None:
            raise _Bad(f"invalid number: {quote(text)}")
        total *= int(digits) * mult
    return total, in_bytes


def _human(n: float, base: int) -> str:
    """coreutils' human_readable as dd prints sizes and rates: 2.5 kB, 2.4 KiB, 249 MB."""
    prefixes = "kMGTPEZY" if base == 1000 else "KMGTPEZY"
    i = -1
    while n >= base and i < len(prefixes) - 1:
        n /= base
        i += 1
    if i < 0:
        return f"{n:.0f} B"
    unit = prefixes[i] + ("B" if base == 1000 else "iB")
    return f"{n:.1f} {unit}" if n < 10 else f"{n:.0f} {unit}"


def _stats(stats: list[int], copied: int, elapsed: float, status: str) -> str:
    rin_full, rin_part, rout_full, rout_part = stats
    text = f"{rin_full}+{rin_part} records in\n{rout_full}+{rout_part} records out\n"
    if status == "noxfer":
        return text
    size = f"{copied} byte{'' if copied == 1 else 's'}"
    if copied >= 1000:
        size += f" ({_human(copied, 1000)}, {_human(copied, 1024)})"
    rate = copied / elapsed if elapsed > 0 else float("inf")
    # rates start at kB (0.0 kB/s for nothing copied)
    rate_text = "Infinity B" if rate == float("inf") else \
        f"{rate / 1000:.1f} kB" if rate < 1000 else _human(rate, 1000)
    return text + f"{size} copied, {elapsed:.6g} s, {rate_text}/s\n"


def _parse(args: list[str]) -> dict:
    o: dict = {"ibs": 512, "obs": 512, "count": None, "skip": 0, "seek": 0, "if": None,
               "of": None, "conv": set(), "iflag": set(), "oflag": set(), "status": "default",
               "count_bytes": False, "skip_bytes": False, "seek_bytes": False}
    for arg in args:
        key, eq, value = arg.partition("=")
        if not eq:
            raise _Bad(f"unrecognized operand {quote(arg)}")
        if key in ("bs", "ibs", "obs"):
            n, _ = _number(value)
            if n == 0:
                raise _Bad(f"invalid number: {quote(value)}")
            if key == "bs":
                o["ibs"] = o["obs"] = n
            else:
                o[key] = n
        elif key in ("count", "skip", "iseek", "seek", "oseek"):
            n, in_bytes = _number(value)
            name = {"iseek": "skip", "oseek": "seek"}.get(key, key)
            o[name] = n
            if in_bytes:
                o[name + "_bytes"] = True
        elif key in ("if", "of"):
            o[key] = value
        elif key == "conv":
            for c in value.split(","):
                if c in UNSUPPORTED_CONVS:
                    raise _Bad(f"conv={c} is not supported by pysh's dd")
                if c not in CONVS:
                    raise _Bad(f"invalid conversion: {quote(c)}")
                o["conv"].add(c)
        elif key in ("iflag", "oflag"):
            allowed = IFLAGS if key == "iflag" else OFLAGS
            for f in value.split(","):
                if f not in allowed:
                    kind = "input" if key == "iflag" else "output"
                    raise _Bad(f"invalid {kind} flag: {quote(f)}")
                o[key].add(f)
        elif key == "status":
            if value not in ("none", "noxfer", "progress"):
                raise _Bad(f"invalid status level: {quote(value)}")
            o["status"] = value
        elif key == "cbs":
            raise _Bad("cbs= is not supported by pysh's dd")
        else:
            raise _Bad(f"unrecognized operand {quote(arg)}")
    for flag in ("skip_bytes", "count_bytes"):
        if flag in o["iflag"]:
            o[flag] = True
    if "seek_bytes" in o["oflag"]:
        o["seek_bytes"] = True
    if {"ucase", "lcase"} <= o["conv"]:
        raise _Bad("cannot combine lcase and ucase")
    if {"excl", "nocreat"} <= o["conv"]:
        raise _Bad("cannot combine excl and nocreat")
    return o


async def main(shell, argv: list[str]) -> int:
    args = argv[1:]
    if args and args[0] == "--":
        args = args[1:]
    if args[:1] == ["--help"]:
        await shell.stdout.write(encode(HELP_TEXT))
        return 0
    if args[:1] == ["--version"]:
        await shell.stdout.write(VERSION_TEXT.encode())
        return 0
    if args and args[0].startswith("-") and args[0] != "-":
        await shell.error(PROG, f"unrecognized option {squote(args[0])}" if args[0].startswith("--")
                          else f"invalid option -- {squote(args[0][1:2])}")
        await shell.stderr.write(b"Try 'dd --help' for more information.\n")
        return 1
    try:
        o = _parse(args)
    except _Bad as e:
        await shell.error(PROG, str(e))
        if str(e).startswith(("unrecognized operand", "invalid status", "invalid input flag",
                              "invalid output flag", "invalid conversion")):
            await shell.stderr.write(b"Try 'dd --help' for more information.\n")
        return 1
    # a block size from the script sizes the buffers: past the string limit, as GNU dd
    # says when it cannot have them
    cap = shell.budget.limits.max_string_length
    for key, which in (("ibs", "input"), ("obs", "output")):
        if o[key] > cap:
            await shell.error("dd", f"memory exhausted by {which} buffer of size {o[key]} bytes "
                                    f"({_human(o[key], 1024)})")
            return 1
    return await _copy(shell, o)


async def _copy(shell, o: dict) -> int:
    fs = shell.fs
    ibs, obs = o["ibs"], o["obs"]
    conv = o["conv"]
    started = time.monotonic()
    # input
    infile = None
    if o["if"] is not None:
        try:
            infile = fs.open(o["if"], "rb")
        except FileSystemError as e:
            await shell.error(PROG, f"failed to open {squote(o['if'])}: {strerror(e.errno)}")
            return 1
    stream = None if infile is not None else shell.stdin
    # output
    outfile = None
    if o["of"] is not None:
        seek_at = o["seek"] if o["seek_bytes"] else o["seek"] * obs
        try:
            outfile = _open_output(fs, o, seek_at)
        except FileSystemError as e:
            if infile is not None:
                infile.close()
            await shell.error(PROG, f"failed to open {squote(o['of'])}: {strerror(e.errno)}")
            return 1
    stats = [0, 0, 0, 0]
    copied = 0
    status = 0
    pending = bytearray()

    async def read(n: int) -> bytes:
        if infile is not None:
            return infile.read(n)
        return await stream.read(n)

    async def write_out(data: bytes) -> None:
        nonlocal copied
        try:
            if outfile is not None:
                outfile.write(data)
                outfile.flush()  # as dd's write(2): a full disk fails this block, not the close
            else:
                await shell.stdout.write(data)
        except WriteError as e:
            raise FileSystemError(e.errno) from None
        except OSError as e:
            raise FileSystemError(e.errno or errno.EIO) from None
        copied += len(data)

    try:
        skip = o["skip"] if o["skip_bytes"] else o["skip"] * ibs
        if skip:
            if infile is not None:
                infile.seek(skip)
            else:
                left = skip
                while left:
                    got = await stream.read(min(left, 1 << 16))
                    if not got:
                        break
                    left -= len(got)
        remaining_bytes = None
        count_blocks = None
        if o["count"] is not None:
            if o["count_bytes"]:
                remaining_bytes = o["count"]
            else:
                count_blocks = o["count"]
        fullblock = "fullblock" in o["iflag"]
        while True:
            if count_blocks is not None and stats[0] + stats[1] >= count_blocks:
                break
            want = ibs if remaining_bytes is None else min(ibs, remaining_bytes)
            if want == 0:
                break
            block = await read(want)
            if fullblock:
                while block and len(block) < want:
                    more = await read(want - len(block))
                    if not more:
                        break
                    block += more
            if not block:
                break
            shell.budget.check()
            if remaining_bytes is not None:
                remaining_bytes -= len(block)
            if len(block) == ibs:
                stats[0] += 1
            else:
                stats[1] += 1
                if "sync" in conv:
                    block = block + bytes(ibs - len(block))
            block = _convert(block, conv)
            if ibs == obs and not pending:
                await write_out(block)
                stats[2 if len(block) == obs else 3] += 1
                continue
            pending += block
            while len(pending) >= obs:
                await write_out(bytes(pending[:obs]))
                del pending[:obs]
                stats[2] += 1
        if pending:
            await write_out(bytes(pending))
            stats[3] += 1
        if outfile is not None and "notrunc" not in conv and "append" not in o["oflag"] \
                and o.get("of_regular"):
            outfile.truncate()
    except FileSystemError as e:
        await shell.error(PROG, f"error writing {squote(o['of'] or 'standard output')}: "
                                f"{strerror(e.errno)}")
        status = 1
    except OSError as e:
        name = o["if"] or "standard input"
        await shell.error(PROG, f"error reading {squote(name)}: {strerror(e.errno or errno.EIO)}")
        status = 1
    finally:
        if infile is not None:
            infile.close()
        if outfile is not None:
            try:
                outfile.close()
            except OSError:  # the block that failed is still in its buffer: said above
                pass
    if o["status"] != "none":
        await shell.stderr.write(_stats(stats, copied, time.monotonic() - started,
                                        o["status"]).encode())
    return status


def _open_output(fs, o: dict, seek_at: int):
    conv = o["conv"]
    path = o["of"]
    if "excl" in conv:
        f = fs.open(path, "xb")
        f.seek(seek_at)
        return f
    if "append" in o["oflag"]:
        if "nocreat" in conv and not fs.exists(path):
            raise FileSystemError(errno.ENOENT, path)
        return fs.open(path, "ab")
    try:
        f = fs.open(path, "r+b")
    except FileSystemError as e:
        if e.errno != errno.ENOENT or "nocreat" in conv:
            raise
        f = fs.open(path, "w+b")
    o["of_regular"] = _stat.S_ISREG(fs.stat(path).st_mode)
    if "notrunc" not in conv and o["of_regular"]:  # a device is not truncated (GNU)
        f.truncate(seek_at)
    f.seek(seek_at)
    return f


def _convert(block: bytes, conv: set) -> bytes:
    if "swab" in conv:
        b = bytearray(block)
        b[0:len(b) - len(b) % 2:2], b[1:len(b) - len(b) % 2:2] = \
            block[1:len(b) - len(b) % 2:2], block[0:len(b) - len(b) % 2:2]
        block = bytes(b)
    if "ucase" in conv:
        block = block.upper()
    elif "lcase" in conv:
        block = block.lower()
    return block
