"""shuf: random permutations (GNU coreutils).

With --random-source=FILE the bytes of FILE drive gnulib's randint/randperm
exactly as GNU shuf uses them, so the output is reproducible (and matches GNU).
"""

from __future__ import annotations

import os

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
Usage: shuf [OPTION]... [FILE]
  or:  shuf -e [OPTION]... [ARG]...
  or:  shuf -i LO-HI [OPTION]...
Write a random permutation of the input lines to standard output.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -e, --echo                treat each ARG as an input line
  -i, --input-range=LO-HI   treat each number LO through HI as an input line
  -n, --head-count=COUNT    output at most COUNT lines
  -o, --output=FILE         write result to FILE instead of standard output
      --random-source=FILE  get random bytes from FILE
  -r, --repeat              output lines can be repeated
  -z, --zero-terminated     line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit
"""

LONG = {"echo": "e", "input-range=": "i", "head-count=": "n", "output=": "o",
        "random-source=": "random-source", "repeat": "r", "zero-terminated": "z",
        "help": "help", "version": "version"}
MASK = 2 ** 64 - 1


class RandomExhausted(Exception):
    pass


class RandInt:
    """gnulib randint over a byte source."""

    def __init__(self, read):
        self.read = read
        self.randnum = 0
        self.randmax = 0

    def genmax(self, genmax: int) -> int:
        randnum, randmax = self.randnum, self.randmax
        choices = genmax + 1
        while True:
            if randmax < genmax:
                i = 0
                rmax = randmax
                while True:
                    rmax = ((rmax << 8) & MASK) + 255
                    i += 1
                    if rmax >= genmax:
                        break
                buf = self.read(i)
                j = 0
                while True:
                    randnum = ((randnum << 8) & MASK) + buf[j]
                    randmax = ((randmax << 8) & MASK) + 255
                    j += 1
                    if randmax >= genmax:
                        break
            if randmax == genmax:
                self.randnum = self.randmax = 0
                return randnum
            excess = randmax - genmax
            unusable = excess % choices
            last_usable = randmax - unusable
            reduced = randnum % choices
            if randnum <= last_usable:
                self.randnum = randnum // choices
                self.randmax = excess // choices
                return reduced
            randnum = reduced
            randmax = unusable

    def choose(self, n: int) -> int:
        return self.genmax(n - 1)


def randperm(r: RandInt, h: int, n: int) -> list[int]:
    if h == 0:
        return []
    if h == 1:
        return [r.choose(n)]
    v: dict[int, int] = {}
    out = []
    for i in range(h):
        j = i + r.choose(n - i)
        vi, vj = v.get(i, i), v.get(j, j)
        v[i], v[j] = vj, vi
        out.append(vj)
    return out


async def main(shell, argv: list[str]) -> int:
    prog = "shuf"
    try:
        opts, operands = parse_options(argv[1:], "ei:n:o:rz", LONG)
    except OptionError as e:
        return await usage(shell, prog, str(e))
    echo = repeat = False
    rng_spec = None
    count = None
    output = None
    source = None
    eol = b"\n"
    for k, v in opts:
        if k == "help":
            return await help_text(shell, HELP)
        if k == "version":
            return await version_text(shell, prog)
        if k == "e":
            echo = True
        elif k == "i":
            if rng_spec is not None:
                return await usage(shell, prog, "multiple -i options specified")
            lo, dash, hi = (v or "").partition("-")
            bad = None
            if not dash:
                bad = v or ""
            elif not lo.strip().isdigit():
                bad = lo
            elif not hi.strip().isdigit():
                bad = hi
            elif int(hi) + 1 < int(lo):
                bad = v or ""
            if bad is not None:
                await shell.error(prog, f"invalid input range: {quote(bad)}")
                return 1
            rng_spec = (int(lo), int(hi))
        elif k == "n":
            t = (v or "").strip()
            if not t.isdigit():
                await shell.error(prog, f"invalid line count: {quote(v or '')}")
                return 1
            count = int(t) if count is None else min(count, int(t))
        elif k == "o":
            output = v
        elif k == "random-source":
            if source is not None and source != v:
                await shell.error(prog, "multiple random sources specified")
                return 1
            source = v
        elif k == "r":
            repeat = True
        elif k == "z":
            eol = b"\0"
    if echo and rng_spec is not None:
        return await usage(shell, prog, "cannot combine -e and -i options")
    if echo:
        lines = [encode(a) for a in operands]
    elif rng_spec is not None:
        if operands:
            return await usage(shell, prog, f"extra operand {quote(operands[0])}")
        lines = None
    else:
        if len(operands) > 1:
            return await usage(shell, prog, f"extra operand {quote(operands[1])}")
        name = operands[0] if operands else "-"
        try:
            stream = shell.open_input(name)
        except OSError as e:
            await shell.error(prog, f"{quotef(name)}: {strerror(e)}")
            return 1
        try:
            data = await stream.read()
        finally:
            stream.close()
        lines = data.split(eol)
        if lines and lines[-1] == b"":
            lines.pop()
    n = (rng_spec[1] - rng_spec[0] + 1) if lines is None else len(lines)

    def item(i: int) -> bytes:
        return b"%d" % (rng_spec[0] + i) if lines is None else lines[i]

    if source is not None:
        try:
            f = shell.fs.open(source, "rb")
        except OSError as e:
            await shell.error(prog, f"{quotef(source)}: {strerror(e)}")
            return 1

        def read(k: int) -> bytes:
            b = f.read(k)
            if len(b) < k:
                raise RandomExhausted()
            return b
    else:
        f = None

        def read(k: int) -> bytes:
            return os.urandom(k)

    r = RandInt(read)
    out_stream = shell.stdout
    if output is not None:
        try:
            out_stream = shell.open_output(output)
        except OSError as e:
            await shell.error(prog, f"{quotef(output)}: {strerror(e)}")
            return 1
    try:
        if repeat:
            if n == 0:
                if count:
                    await shell.error(prog, "no lines to repeat")
                    return 1
                return 0
            buf = []
            emitted = 0
            while count is None or emitted < count:
                buf.append(item(r.choose(n)) + eol)
                emitted += 1
                if len(buf) >= 4096:
                    shell.budget.check()
                    await out_stream.write(b"".join(buf))
                    buf.clear()
            await out_stream.write(b"".join(buf))
            return 0
        h = n if count is None else min(count, n)
        perm = randperm(r, h, n)
        await out_stream.write(b"".join(item(i) + eol for i in perm))
        return 0
    except RandomExhausted:
        await shell.error(prog, f"{quote(source)}: end of file")
        return 1
    finally:
        if f is not None:
            f.close()
        if output is not None:
            out_stream.close()
