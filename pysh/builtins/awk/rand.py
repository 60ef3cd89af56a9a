"""rand()/srand() as the one-true-awk does them: C random(3) (glibc's TYPE_3 additive
feedback generator, seeded by srandom), one draw per rand() divided by 2^31.

The same seed gives the same sequence as onetrue awk (original-awk) on glibc.
"""

from __future__ import annotations

_DEG = 31
_SEP = 3


class Random:
    __slots__ = ("state", "f", "r", "seed")

    def __init__(self) -> None:
        self.seed = 1.0
        self._srandom(1)

    def _srandom(self, seed: int) -> None:
        seed &= 0xFFFFFFFF
        if seed == 0:
            seed = 1
        st = [0] * _DEG
        st[0] = seed
        word = seed
        for i in range(1, _DEG):
            hi = int(word / 127773)
            lo = word - hi * 127773
            word = 16807 * lo - 2836 * hi
            if word < 0:
                word += 2147483647
            st[i] = word & 0xFFFFFFFF
        self.state = st
        self.f = _SEP
        self.r = 0
        for _ in range(10 * _DEG):
            self._random()

    def _random(self) -> int:
        st = self.state
        f, r = self.f, self.r
        val = st[f] = (st[f] + st[r]) & 0xFFFFFFFF
        f += 1
        if f >= _DEG:
            f = 0
            r += 1
        else:
            r += 1
            if r >= _DEG:
                r = 0
        self.f, self.r = f, r
        return val >> 1

    def rand(self) -> float:
        return self._random() / 2147483648.0

    def srand(self, seed: float) -> float:
        prev = self.seed
        self.seed = seed
        try:
            s = int(seed)
        except (ValueError, OverflowError):
            s = 0
        self._srandom(s)
        return prev
