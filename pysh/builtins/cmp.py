"""cmp: compare two files byte by byte (GNU diffutils 3.8); exit 0 same, 1 differ, 2 trouble."""

from __future__ import annotations

import stat as _stat

from pysh.builtins._textutil import (
    NumberError,
    OptionError,
    parse_options,
    parse_size,
    quotef,
    strerror,
    version_text,
)
from pysh.shellkit.text import encode

HELP = """\
Usage: cmp [OPTION]... FILE1 [FILE2 [SKIP1 [SKIP2]]]
Compare two files byte by byte.

The optional SKIP1 and SKIP2 specify the number of bytes to skip
at the beginning of each file (zero by default).

Mandatory arguments to long options are mandatory for short options too.
  -b, --print-bytes          print differing bytes
  -i, --ignore-initial=SKIP         skip first SKIP bytes of both inputs
  -i, --ignore-initial=SKIP1:SKIP2  skip first SKIP1 bytes of FILE1 and
                                      first SKIP2 bytes of FILE2
  -l, --verbose              output byte numbers and differing byte values
  -n, --bytes=LIMIT          compare at most LIMIT bytes
  -s, --quiet, --silent      suppress all normal output
      --help                 display this help and exit
  -v, --version              output version information and exit

SKIP values may be followed by the following multiplicative suffixes:
kB 1000, K 1024, MB 1,000,000, M 1,048,576,
GB 1,000,000,000, G 1,073,741,824, and so on for T, P, E, Z, Y.

If a FILE is '-' or missing, read standard input.
Exit status is 0 if inputs are the same, 1 if different, 2 if trouble.
"""

async def usage(shell, prog, message, status=2):
    if message:
        await shell.error(prog, message)
    await shell.error(prog, f"Try '{prog} --help' for more information.")
    return status


LONG = {"print-bytes": "b", "ignore-initial=": "i", "verbose": "l", "bytes=": "n",
        "quiet": "s", "silent": "s", "help": "help", "version": "v"}


def _show(c: int) -> str:
    s = ""
    if c >= 128:
        s = "M-"
        c -= 128
    if c < 32:
        return s + "^" + chr(c + 64)
    if c == 127:
        return s + "^?"
    return s + chr(c)


async def main(shell, argv: list[str]) -> int:
    prog = "cmp"
    try:
        opts, operands = parse_options(argv[1:], "bi:ln:sv", LONG)
    except OptionError as e:
        return await usage(shell, prog, str(e), 2)
    print_bytes = verbose = silent = False
    skip = [0, 0]
    limit = None
    try:
        for k, v in opts:
            if k == "help":
                await shell.stdout.write(encode(HELP))
                return 0
            if k == "v":
                return await version_text(shell, prog)
            if k == "b":
                print_bytes = True
            elif k == "l":
                verbose = True
            elif k == "s":
                silent = True
            elif k == "n":
                limit = parse_size(v or "", "kKMGTPEZY0")
            elif k == "i":
                a, _, b = (v or "").partition(":")
                skip = [parse_size(a, "kKMGTPEZY0"), parse_size(b if _ else a, "kKMGTPEZY0")]
    except NumberError:
        what = "--bytes" if k == "n" else "--ignore-initial"
        return await usage(shell, prog, f"invalid {what} value '{v or ''}'", 2)
    if verbose and silent:
        return await usage(shell, prog, "options -l and -s are incompatible", 2)
    if not operands:
        return await usage(shell, prog, "missing operand after 'cmp'", 2)
    if len(operands) > 4:
        return await usage(shell, prog, f"extra operand '{operands[4]}'", 2)
    names = [operands[0], operands[1] if len(operands) > 1 else "-"]
    for i, extra in enumerate(operands[2:4]):
        try:
            skip[i] = parse_size(extra, "kKMGTPEZY0")
        except NumberError:
            return await usage(shell, prog, f"invalid --ignore-initial value '{extra}'", 2)
    if names[0] == "-" and names[1] == "-" and skip[0] == skip[1]:
        return 0
    datas = []
    regular = []
    for name in names:
        try:
            stream = shell.open_input(name)
        except OSError as e:
            await shell.error(prog, f"{quotef(name)}: {strerror(e)}")
            return 2
        try:
            datas.append(await stream.read())
        finally:
            stream.close()
        try:
            regular.append(name != "-" and _stat.S_ISREG(shell.fs.stat(name).st_mode))
        except OSError:
            regular.append(False)
    a = datas[0][skip[0]:]
    b = datas[1][skip[1]:]
    if limit is not None:
        a, b = a[:limit], b[:limit]
    n = min(len(a), len(b))
    shown = [quotef(names[0]) if names[0] != "-" else "-",
             quotef(names[1]) if names[1] != "-" else "-"]
    status = 0
    if verbose:
        if all(regular):
            maxnum = min(len(datas[0]) - skip[0], len(datas[1]) - skip[1])
            if limit is not None:
                maxnum = min(maxnum, limit)
        else:
            maxnum = 2 ** 63 - 1
        width = len(str(max(maxnum, 0)))
        out = []
        for i in range(n):
            x, y = a[i], b[i]
            if x != y:
                status = 1
                if print_bytes:
                    out.append(f"{i + 1:{width}d} {x:3o} {_show(x):<4} {y:3o} {_show(y)}\n")
                else:
                    out.append(f"{i + 1:{width}d} {x:3o} {y:3o}\n")
                if len(out) > 4096:
                    shell.budget.check()
                    await shell.stdout.write(encode("".join(out)))
                    out.clear()
        await shell.stdout.write(encode("".join(out)))
        if len(a) != len(b):
            short = 0 if len(a) < len(b) else 1
            await shell.stderr.write(encode(
                f"cmp: EOF on {shown[short]} after byte {min(len(a), len(b))}\n"
                if n else f"cmp: EOF on {shown[short]} which is empty\n"))
            return 1
        return status
    # first difference
    i = 0
    if a[:n] != b[:n]:
        lo, hi = 0, n
        while hi - lo > 64:  # binary search the first differing byte
            mid = (lo + hi) // 2
            if a[lo:mid] != b[lo:mid]:
                hi = mid
            else:
                lo = mid
        i = lo
        while a[i] == b[i]:
            i += 1
        if not silent:
            line = a.count(b"\n", 0, i) + 1
            msg = f"{shown[0]} {shown[1]} differ: byte {i + 1}, line {line}"
            if print_bytes:
                msg += f" is {a[i]:3o} {_show(a[i])} {b[i]:3o} {_show(b[i])}"
            await shell.stdout.write(encode(msg + "\n"))
        return 1
    if len(a) != len(b):
        if not silent:
            short = 0 if len(a) < len(b) else 1
            d = a if short == 0 else b
            nl = d.count(b"\n")
            if not d:
                await shell.stderr.write(encode(f"cmp: EOF on {shown[short]} which is empty\n"))
            elif d.endswith(b"\n"):
                await shell.stderr.write(encode(
                    f"cmp: EOF on {shown[short]} after byte {len(d)}, line {nl}\n"))
            else:
                await shell.stderr.write(encode(
                    f"cmp: EOF on {shown[short]} after byte {len(d)}, in line "
                    f"{nl + 1}\n"))
        return 1
    return 0
