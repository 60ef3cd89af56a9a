"""factor (GNU coreutils 9.1): prime factors of arbitrarily large integers.

Trial division by small primes, then Miller-Rabin and Pollard-Brent rho, both
polling the run's budget: a 60-digit semiprime ends at the deadline instead
of hanging the run.
"""

from __future__ import annotations

import math
import time

from pysh.builtins._textutil import (
    OptionError,
    Writer,
    blocks,
    help_text,
    parse_options,
    quote,
    usage,
    version_text,
)
from pysh.shellkit.text import decode, encode

HELP = """\
Usage: factor [NUMBER]...
  or:  factor OPTION
Print the prime factors of each specified integer NUMBER.  If none
are specified on the command line, read them from standard input.

      --help        display this help and exit
      --version     output version information and exit
"""

_SMALL = [p for p in range(2, 1000) if all(p % d for d in range(2, int(p ** 0.5) + 1))]
# Deterministic Miller-Rabin bases for n < 3.3e24; larger n are probable primes.
_BASES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)


class _Poll:
    """Budget polling (and fair yielding) from inside the number-theory loops."""

    def __init__(self, shell):
        self.budget = shell.budget
        self.count = 0

    def __call__(self) -> None:
        self.count += 1
        if self.count & 63 == 0:
            self.budget.check()


def _is_prime(n: int) -> bool:
    if n < 2:
        return False
    for p in _SMALL[:13]:
        if n % p == 0:
            return n == p
    d, s = n - 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    for a in _BASES:
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def _rho(n: int, poll: _Poll) -> int:
    """A non-trivial factor of the composite ``n`` (Brent's variant)."""
    if n % 2 == 0:
        return 2
    c = 1
    while True:
        y, r, q, g = 2, 1, 1, 1
        x = ys = y
        while g == 1:
            x = y
            for _ in range(r):
                y = (y * y + c) % n
            k = 0
            while k < r and g == 1:
                ys = y
                for _ in range(min(128, r - k)):
                    y = (y * y + c) % n
                    q = q * abs(x - y) % n
                poll()
                g = math.gcd(q, n)
                k += 128
            r *= 2
        if g == n:
            g = 1
            while g == 1:
                ys = (ys * ys + c) % n
                g = math.gcd(abs(x - ys), n)
                poll()
        if g != n:
            return g
        c += 1


def factorize(n: int, poll: _Poll) -> list[int]:
    out: list[int] = []
    if n < 2:
        return out
    for p in _SMALL:
        if p * p > n:
            break
        while n % p == 0:
            out.append(p)
            n //= p
    if n == 1:
        return out
    stack = [n]
    big: list[int] = []
    while stack:
        m = stack.pop()
        if m == 1:
            continue
        if _is_prime(m):
            big.append(m)
            continue
        r = math.isqrt(m)
        if r * r == m:
            stack += [r, r]
            continue
        d = _rho(m, poll)
        stack += [d, m // d]
    return out + sorted(big)


def _parse(word: str) -> int | None:
    t = word.lstrip(" \t\n\v\f\r")
    if t.startswith("+"):
        t = t[1:]
    if not t or not (t.isascii() and t.isdigit()):
        return None
    return int(t)


async def main(shell, argv: list[str]) -> int:
    prog = "factor"
    args = argv[1:]
    try:
        opts, operands = parse_options(args, "", {"help": "help", "version": "version"})
    except OptionError as e:
        return await usage(shell, prog, str(e))
    for k, _ in opts:
        if k == "help":
            return await help_text(shell, HELP)
        if k == "version":
            return await version_text(shell, prog)
    out = Writer(shell.stdout)
    poll = _Poll(shell)
    budget = shell.budget
    status = 0

    async def one(word: str) -> None:
        nonlocal status
        n = _parse(word)
        if n is None:
            await out.flush()
            await shell.error(prog, f"{quote(word)} is not a valid positive integer")
            status = 1
            return
        budget.check()
        if time.monotonic() >= budget.yield_at:
            await budget.pause()
        fs = factorize(n, poll)
        await out.write(encode(f"{n}:" + "".join(f" {p}" for p in fs) + "\n"))

    if operands:
        for w in operands:
            await one(w)
    else:
        async for block in blocks(shell, shell.stdin):
            for w in decode(block).split():
                await one(w)
    await out.flush()
    return status
