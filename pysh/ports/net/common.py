"""What curl and wget share: reading operands through the door, masking secrets, curl's meter."""

from __future__ import annotations

import time

import anyio

from pysh.shellkit import Shell
from pysh.shellkit.text import encode
from pysh.shellkit.worker import ensure_loop


async def read_operand(shell: Shell, name: str) -> bytes:
    """The bytes of a file operand (``-`` is stdin), through the FileSystem door, bounded
    by the string limit. Raises FileSystemError."""
    await shell.materialize([name])
    stream = shell.open_input(name)
    cap = shell.budget.limits.max_string_length
    buf = bytearray()
    try:
        async for chunk in stream.chunks():
            buf += chunk
            shell.budget.check()
            if len(buf) > cap:
                shell.budget.check_string(len(buf))
    finally:
        stream.close()
    return bytes(buf)


def mask(text: str, secrets: list[str]) -> str:
    """``text`` with every injected credential replaced (belt and braces: pysh never
    prints them, but a server may echo one into a header curl -v shows)."""
    for s in secrets:
        if s and s in text:
            text = text.replace(s, "[hidden]")
    return text


def max5(n: float) -> str:
    """curl's five-column size (progress.c max5data)."""
    n = int(n)
    k, m, g = 1024, 1024 * 1024, 1024 * 1024 * 1024
    if n < 100000:
        return f"{n:5d}"
    if n < 10000 * k:
        return f"{n // k:4d}k"
    if n < 100 * m:
        return f"{n // m:2d}.{(n % m) // (m // 10)}M"
    if n < 10000 * m:
        return f"{n // m:4d}M"
    if n < 100 * g:
        return f"{n // g:2d}.{(n % g) // (g // 10)}G"
    return f"{n // g:4d}G"


def _time(seconds: float) -> str:
    s = int(seconds)
    if s <= 0:
        return "--:--:--"
    h, rem = divmod(s, 3600)
    if h <= 99:
        return f"{h:2d}:{rem // 60:02d}:{rem % 60:02d}"
    d = h // 24
    return f"{d:3d}d {h % 24:02d}h" if d <= 999 else f"{d // 365:4d}y {d % 365 // 1:3d}d"[:8]


HEADER = ("  % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current\n"
          "                                 Dload  Upload   Total   Spent    Left  Speed\n")


class Meter:
    """curl's progress meter on stderr: its header and first line when a transfer starts,
    its last line when it ends (the lines between are time-dependent; not drawn)."""

    def __init__(self, err, enabled: bool) -> None:
        self.err = err
        self.enabled = enabled
        self.t0 = time.monotonic()
        self.started = False

    async def start(self) -> None:
        if self.enabled and not self.started:
            self.started = True
            self.t0 = time.monotonic()
            await self.err.write(encode(HEADER + self._line(0, None, 0)))

    async def finish(self, down: int, expected: int | None, up: int) -> None:
        if self.enabled and self.started:
            await self.err.write(encode(self._line(down, expected, up) + "\n"))

    def _line(self, down: int, expected: int | None, up: int) -> str:
        spent = time.monotonic() - self.t0
        total = (expected or 0) + up
        got = down + up
        pct = lambda a, b: int(a * 100 / b) if b else 0  # noqa: E731
        speed = down / spent if spent > 0 and down else 0
        uspeed = up / spent if spent > 0 and up else 0
        left = ((expected - down) / speed) if expected and speed else 0
        return (f"\r{pct(got, total) if total else 0:3d} {max5(total)}  "
                f"{pct(down, expected) if expected else 0:3d} {max5(down)}  "
                f"{pct(up, up) if up else 0:3d} {max5(up)}  {max5(speed)}  {max5(uspeed)} "
                f"{_time(spent + left) if expected else '--:--:--'} {_time(spent)} "
                f"{_time(left) if expected else '--:--:--'} {max5(speed)}")


def policy_message(e) -> str | None:
    """The sandbox's own words for a refusal by its network policy (a NetError of kind
    off, blocked, method or private), the same for curl and wget; None for other errors."""
    url, k = e.url, e.kind
    if k == "off":
        return "network access is disabled in this sandbox"
    if k == "blocked":
        return f"URL not allowed by this sandbox's network allow-list: {url}"
    if k == "method":
        return f"method {e.detail} not allowed by this sandbox's network policy: {url}"
    if k == "private":
        return (f"{url.host} resolves to {e.detail}, an internal address this sandbox "
                "does not connect to")
    return None


async def budget_sleep(shell: Shell, seconds: float) -> None:
    """Sleep between retries in slices, so the run's deadline and interrupts land."""
    await ensure_loop()
    end = time.monotonic() + seconds
    while True:
        shell.budget.check()
        left = end - time.monotonic()
        if left <= 0:
            return
        await anyio.sleep(min(left, 0.1))
