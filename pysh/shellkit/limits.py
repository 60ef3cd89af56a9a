"""Run limits and the per-run budget every long loop polls.

anyio cancellation only lands at an ``await``; CPU-bound Python loops and C
engines do not stop by themselves. So every long loop calls
:meth:`Budget.check` (cheap: one clock read), and engines with their own
interrupt (sqlite progress handler, regex timeouts) ask the budget how much
time is left.
"""

from __future__ import annotations

import re
import sys
import time

from pysh.shellkit.worker import loop_running

QUANTUM = 0.004  # seconds a run may hold the event loop before Budget.pause() yields
HANDOFF = 0.0001  # seconds a pause gives the GIL away, so other threads get it (Budget.pause)

# Exit statuses of a breached limit (documented in the README's limits table).
STATUS_TIMEOUT = 124  # like timeout(1)
STATUS_LIMIT = 126
STATUS_INTERRUPTED = 130  # 128 + SIGINT


class Limits:
    """Every limit of a run. ``None`` means unlimited. Immutable: ``with_`` makes a changed copy.

    A plain class, not a dataclass: importing ``dataclasses`` (and the ``inspect`` it pulls
    in) would cost every ``pysh -c`` a third of its start-up time.
    """

    # name: (default, None allowed)
    _FIELDS = {
        "timeout": (None, True),  # wall-clock seconds for one run
        "max_output_bytes": (64 * 1024 * 1024, True),  # per stream, captured output (API)
        "max_commands": (50_000_000, True),  # simple commands executed in one run
        "max_loop_iterations": (50_000_000, True),  # iterations of all loops in one run
        "max_call_depth": (1000, False),  # nested function / source / eval calls
        "max_string_length": (256 * 1024 * 1024, False),  # one variable or expansion, in bytes
        "max_array_size": (10_000_000, False),  # elements of one array
        "max_brace_expansion": (1_000_000, False),  # words produced by one brace expansion
        "max_heredoc_size": (64 * 1024 * 1024, False),  # bytes of one here-doc or here-string
        "max_substitution_depth": (200, False),  # nested $(...) / <(...)
        "max_file_size": (None, True),  # bytes of one file written through the door
        "max_total_written": (None, True),  # bytes written through the door in one run
        "python_memory": (512 * 1024 * 1024, True),  # linear memory of one python3 guest
    }
    __slots__ = tuple(_FIELDS)

    timeout: float | None
    max_output_bytes: int | None
    max_commands: int | None
    max_loop_iterations: int | None
    max_call_depth: int
    max_string_length: int
    max_array_size: int
    max_brace_expansion: int
    max_heredoc_size: int
    max_substitution_depth: int
    max_file_size: int | None
    max_total_written: int | None
    python_memory: int | None

    def __init__(self, **values) -> None:
        unknown = values.keys() - self._FIELDS.keys()
        if unknown:
            raise TypeError(f"Limits() got an unexpected keyword argument {sorted(unknown)[0]!r}")
        for name, (default, _) in self._FIELDS.items():
            object.__setattr__(self, name, values.get(name, default))

    def __setattr__(self, name, value) -> None:
        raise AttributeError(f"cannot assign to field {name!r} (Limits is immutable: use with_)")

    def __eq__(self, other) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in self._FIELDS)

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, n) for n in self._FIELDS))

    def __repr__(self) -> str:
        return "Limits(" + ", ".join(f"{n}={getattr(self, n)!r}" for n in self._FIELDS) + ")"

    def __reduce__(self):  # copy and pickle: rebuilt through __init__
        return _limits_from, (self.as_dict(),)

    @classmethod
    def strict(cls) -> Limits:
        """A tight profile for untrusted scripts driven by an agent."""
        return cls(
            timeout=30.0,
            max_output_bytes=1024 * 1024,
            max_commands=1_000_000,
            max_loop_iterations=1_000_000,
            max_call_depth=200,
            max_string_length=16 * 1024 * 1024,
            max_array_size=1_000_000,
            max_brace_expansion=100_000,
            max_heredoc_size=4 * 1024 * 1024,
            max_substitution_depth=50,
            max_file_size=64 * 1024 * 1024,
            max_total_written=256 * 1024 * 1024,
            python_memory=256 * 1024 * 1024,
        )

    def with_(self, **changes) -> Limits:
        return Limits(**{**self.as_dict(), **changes})

    def as_dict(self) -> dict[str, float | int | None]:
        return {n: getattr(self, n) for n in self._FIELDS}

    @classmethod
    def field_names(cls) -> list[str]:
        return list(cls._FIELDS)

    @classmethod
    def parse_setting(cls, spec: str) -> tuple[str, float | int | None]:
        """``NAME=VALUE`` (the faces' ``--limit``): a field name of Limits and its value.

        Sizes in bytes take K, M, G, T suffixes (binary: 64M = 64 MiB, also KiB, MB...);
        ``timeout`` is seconds; ``none`` (or ``unlimited``) lifts the limit. ValueError
        with a message for anything else.
        """
        name, eq, text = spec.partition("=")
        name = name.strip().replace("-", "_")
        if not eq:
            raise ValueError(f"{spec}: expected NAME=VALUE")
        if name not in cls._FIELDS:
            raise ValueError(f"{name}: no such limit (one of: {', '.join(cls._FIELDS)})")
        text = text.strip()
        if text.lower() in ("none", "unlimited"):
            # a field that cannot be None gets a bound nothing reaches
            return name, None if cls._FIELDS[name][1] else sys.maxsize
        try:
            if name == "timeout":
                value: float | int = float(text)
                if not value > 0 or value != value:
                    raise ValueError
                return name, value
            m = _SETTING.fullmatch(text)
            if m is None or (m.group(2) and name not in _SIZES):
                raise ValueError
            value = int(m.group(1).replace("_", "")) * _UNIT[m.group(2)[:1].upper()]
        except ValueError:
            what = "a number of seconds" if name == "timeout" else (
                "a size (like 64M)" if name in _SIZES else "a whole number")
            raise ValueError(f"{name}: invalid value: {text} (expected {what} or none)") from None
        return name, value


def _limits_from(values: dict) -> Limits:
    return Limits(**values)


_SIZES = {"max_output_bytes", "max_string_length", "max_heredoc_size", "max_file_size",
          "max_total_written", "python_memory"}
_UNIT = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
_SETTING = re.compile(r"(\d[\d_]*)\s*((?:[KMGT](?:i?B)?)?)", re.IGNORECASE)


class LimitExceeded(BaseException):
    """A breached limit. A BaseException, so a command's ``except Exception`` cannot swallow it.

    ``str()`` is the text after ``pysh: ``, e.g. ``timeout: limit exceeded (5s)``.
    """

    def __init__(self, what: str, detail: str, status: int = STATUS_LIMIT, budget=None):
        super().__init__(what, detail, status)
        self.what = what
        self.detail = detail
        self.status = status
        self.budget = budget  # the Budget whose limit this is (a scoped one for `timeout`)

    def __str__(self) -> str:
        return f"{self.what}: limit exceeded ({self.detail})"


class Interrupted(BaseException):
    """The run was interrupted (Ctrl-C in the REPL, or the embedder cancelled it)."""

    status = STATUS_INTERRUPTED


class Budget:
    """Counters and the deadline of one run; shared by every command of the run."""

    __slots__ = ("limits", "deadline", "commands", "loop_iterations", "written", "_interrupted",
                 "parent", "_scoped_seconds", "_run_seconds", "yield_at")

    def __init__(self, limits: Limits | None = None, timeout: float | None = None):
        self.limits = limits or Limits()
        t = self.limits.timeout if timeout is None else timeout
        self._run_seconds = t  # what the deadline was set from, for the message
        self.deadline = time.monotonic() + t if t is not None else None
        self.commands = 0
        self.loop_iterations = 0
        self.written = 0
        self._interrupted = False
        self.parent: Budget | None = None
        self._scoped_seconds: float | None = None
        # a run starts with a whole quantum: pausing at its first command would cost every
        # short run the hand-off sleep for nothing
        self.yield_at = time.monotonic() + QUANTUM

    def scoped(self, seconds: float) -> Budget:
        """A child budget with an earlier deadline (``timeout 5 cmd``); counters stay shared.

        Its expiry raises LimitExceeded with ``.budget`` set to the child, so the one
        who made it can tell its own deadline from the run's.
        """
        child = Budget.__new__(Budget)
        child.limits = self.limits
        own = time.monotonic() + seconds
        child.deadline = own if self.deadline is None else min(own, self.deadline)
        child.commands = child.loop_iterations = child.written = 0
        child._interrupted = False
        child.parent = self
        child._scoped_seconds = seconds
        child._run_seconds = seconds
        child.yield_at = self.yield_at  # the quantum goes on
        return child

    def _root(self) -> Budget:
        b = self
        while b.parent is not None:
            b = b.parent
        return b

    # -- time ---------------------------------------------------------------
    def check(self) -> None:
        """Raise if the run is out of time or was interrupted. Call it in every long loop."""
        if self._interrupted:
            raise Interrupted()
        if self.deadline is not None and time.monotonic() >= self.deadline:
            if self.parent is not None:
                self.parent.check()  # the run's own deadline (or interrupt) wins
            raise self.timeout_error()
        if self.parent is not None and self.parent._interrupted:
            raise Interrupted()

    async def pause(self) -> None:
        """Yield to the event loop; the next pause is due a quantum (QUANTUM) from now.

        Fairness: anyio switches tasks only at an ``await`` that suspends, and the
        interpreter's awaits mostly do not. The runner checks at every command and loop
        round (``if time.monotonic() >= budget.yield_at: await budget.pause()``, cheap),
        so a busy loop lets background jobs, the other sessions of the event loop, and
        cancellation in every few milliseconds.

        The short sleep is for the other *threads* (other sandboxes' workers, the embedder's
        loop, the MCP server): the checkpoint's zero-timeout poll drops the GIL for a
        microsecond, and each such drop restarts a waiting thread's switch-interval clock,
        so a loop that pauses more often than every 5 ms starved them outright. A sleep
        drops the GIL long enough for a waiter to take it (about 2.5% of a busy loop).

        A run its worker drives without an event loop (see :mod:`pysh.shellkit.worker`)
        has nothing on its thread to yield to (background work would have brought the
        loop), and the budget's checks see an interrupt: only the sleep is left then."""
        if loop_running():
            import anyio.lowlevel

            await anyio.lowlevel.checkpoint()
        time.sleep(HANDOFF)
        self.yield_at = time.monotonic() + QUANTUM

    def postpone(self, seconds: float) -> None:
        """Move the deadline ``seconds`` later: for start-up work that is not the script's."""
        if self.deadline is not None:
            self.deadline += seconds

    def remaining(self) -> float | None:
        """Seconds left before the deadline (never negative), or None without one."""
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - time.monotonic())

    def expired(self) -> bool:
        return self.deadline is not None and time.monotonic() >= self.deadline

    def timeout_error(self) -> LimitExceeded:
        t = self._scoped_seconds if self._scoped_seconds is not None else self._run_seconds
        return LimitExceeded("timeout", f"{t:g}s" if t is not None else "deadline",
                             STATUS_TIMEOUT, budget=self)

    def interrupt(self) -> None:
        self._interrupted = True

    @property
    def interrupted(self) -> bool:
        return self._interrupted or (self.parent is not None and self.parent.interrupted)

    # -- counters -----------------------------------------------------------
    def count_command(self) -> None:
        if self.parent is not None:
            self._root().count_command()
            self.check()
            return
        self.commands += 1
        cap = self.limits.max_commands
        if cap is not None and self.commands > cap:
            raise LimitExceeded("commands", f"{cap} commands")
        self.check()

    def count_iteration(self) -> None:
        if self.parent is not None:
            self._root().count_iteration()
            self.check()
            return
        self.loop_iterations += 1
        cap = self.limits.max_loop_iterations
        if cap is not None and self.loop_iterations > cap:
            raise LimitExceeded("loop", f"{cap} iterations")
        self.check()

    def count_written(self, n: int) -> None:
        if self.parent is not None:
            self._root().count_written(n)
            return
        self.written += n
        cap = self.limits.max_total_written
        if cap is not None and self.written > cap:
            raise self.written_error()

    def write_room(self) -> int | None:
        """Bytes the run may still write (None: no total limit)."""
        cap = self.limits.max_total_written
        return None if cap is None else max(0, cap - self._root().written)

    def written_error(self) -> LimitExceeded:
        return LimitExceeded("write", f"{self.limits.max_total_written} bytes written")

    def file_size_error(self) -> LimitExceeded:
        return LimitExceeded("file size", f"{self.limits.max_file_size} bytes")

    def string_error(self) -> LimitExceeded:
        return LimitExceeded("string", f"{self.limits.max_string_length} bytes")

    def check_string(self, length: int) -> None:
        if length > self.limits.max_string_length:
            raise self.string_error()

    def check_array(self, size: int) -> None:
        cap = self.limits.max_array_size
        if size > cap:
            raise LimitExceeded("array", f"{cap} elements")
