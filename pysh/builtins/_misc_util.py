"""Shared helpers of the system/misc utilities (diff, expr, bc, date, xargs, env, ps, ...).

Private to the misc engineer's commands: buffered output, GNU-style usage
errors, error text from a FileSystemError built only from the operand and the
errno (never Python's OSError text, which carries host paths), and duration
parsing shared by sleep and timeout.
"""

from __future__ import annotations

import math
import os

from pysh.shellkit import FileSystemError, OutputStream, Shell
from pysh.shellkit.text import encode

FLUSH_AT = 64 * 1024


class Out:
    """Collects output and writes it in chunks of at least 64 KiB."""

    __slots__ = ("stream", "buf")

    def __init__(self, stream: OutputStream):
        self.stream = stream
        self.buf = bytearray()

    async def write(self, data: bytes) -> None:
        self.buf += data
        if len(self.buf) >= FLUSH_AT:
            await self.flush()

    async def text(self, s: str) -> None:
        await self.write(encode(s))

    async def flush(self) -> None:
        if self.buf:
            data = bytes(self.buf)
            self.buf.clear()
            await self.stream.write(data)


def strerror(code: int | None) -> str:
    if not code:
        return "Unknown error"
    return os.strerror(code)


def fs_message(name: str, exc: BaseException) -> str:
    """``name: strerror`` for a file error against the operand as the user spelled it."""
    code = getattr(exc, "errno", None)
    if isinstance(exc, FileSystemError) or isinstance(exc, OSError):
        return f"{name}: {strerror(code)}"
    return f"{name}: {exc.__class__.__name__}"


async def usage_error(shell: Shell, prog: str, message: str | None, status: int = 1,
                      *, try_help: bool = True) -> int:
    """``prog: message`` and GNU's ``Try 'prog --help'`` line on stderr; returns ``status``."""
    text = ""
    if message:
        text += f"{prog}: {message}\n"
    if try_help:
        text += f"Try '{prog} --help' for more information.\n"
    await shell.stderr.write(encode(text))
    return status


async def print_help(shell: Shell, text: str) -> int:
    await shell.stdout.write(encode(text if text.endswith("\n") else text + "\n"))
    return 0


def quote(s: str) -> str:
    """gnulib quote() in a UTF-8 locale, as coreutils messages print an operand: ‘text’."""
    return "\u2018" + s + "\u2019"


def squote(s: str) -> str:
    """quote() in the C locale style ('text'), as diffutils and some messages print it."""
    return "'" + s + "'"


_DURATION_UNITS = {"": 1.0, "s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0}


def parse_duration(text: str) -> float | None:
    """GNU sleep/timeout duration: a float (C syntax, incl. hex/inf) with suffix s, m, h or d."""
    t = text.strip()
    if not t or t != text:
        return None
    unit = ""
    if t[-1] in "smhd" and not t.lower().endswith(("inf", "infinity")):
        unit, t = t[-1], t[:-1]
    if not t:
        return None
    try:
        if t.lower().startswith(("0x", "+0x", "-0x")):
            value = float.fromhex(t)
        else:
            if any(c not in "0123456789.eE+-" for c in t) and t.lower().lstrip("+-") not in (
                    "inf", "infinity"):
                return None
            value = float(t)
    except ValueError:
        return None
    if math.isnan(value) or value < 0:
        return None
    return value * _DURATION_UNITS[unit]


# Utilities bash implements as builtins that also exist as programs (/usr/bin/echo ...):
# xargs, env and timeout may run them even when the registry does not list them.
SHELL_UTILITIES = frozenset({
    "echo", "printf", "test", "[", "kill", "pwd", "true", "false", "sh", "bash",
})


def find_command(shell: Shell, name: str, env: dict[str, str] | None = None) -> int:
    """0 if ``name`` can be run, else the errno why not (ENOENT, EACCES) — like execvp."""
    import errno
    import stat as _stat

    if not name:
        return errno.ENOENT
    if "/" in name:
        try:
            st = shell.fs.stat(name)
        except FileSystemError as e:
            return e.errno or errno.ENOENT
        except OSError:
            return errno.ENOENT
        if _stat.S_ISDIR(st.st_mode) or not shell.fs.access(name, os.X_OK):
            return errno.EACCES
        return 0
    reg = shell.registry
    if (reg is not None and name in reg) or name in SHELL_UTILITIES:
        return 0
    path = (env if env is not None else shell.env).get("PATH", "")
    for d in path.split(":"):
        cand = f"{d.rstrip('/')}/{name}" if d else name
        try:
            if shell.fs.is_file(cand) and shell.fs.access(cand, os.X_OK):
                return 0
        except Exception:  # noqa: BLE001 - an odd PATH entry is just not a match
            continue
    return errno.ENOENT


def command_status(code: int) -> int:
    """The exit status GNU tools use for an exec failure: 127 not found, 126 otherwise."""
    import errno

    return 127 if code == errno.ENOENT else 126
