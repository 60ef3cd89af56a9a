"""gawk's `-i inplace`: while a file operand is read, standard output goes to a temporary
file beside it, which replaces the file when the next file starts or the input ends (END's
output goes to the real standard output); `-v inplace::suffix=.bak` keeps the old file under
that suffix. gawk 5.2 accepts `-v inplace::enable=0` and still edits (its inplace.awk sets
the flag again in BEGIN): so does this."""

from __future__ import annotations

import os
import stat as _stat

from pysh.shellkit import FileSystemError


class InPlace:
    def __init__(self) -> None:
        self.enabled = False  # -i inplace was given
        self.suffix = ""  # inplace::suffix
        self._current: tuple | None = None  # (file, temp name, its stream, the real stdout)

    def option(self, assign: str) -> bool:
        """Take a `-v inplace::NAME=VALUE` assignment; False for any other."""
        name, eq, value = assign.partition("=")
        if not eq or name not in ("inplace::suffix", "inplace::enable"):
            return False
        if name == "inplace::suffix":
            self.suffix = value
        return True

    async def begin(self, rt, name: str) -> None:
        """The main input moves to ``name``: its output goes to a temporary file from here."""
        await self.end(rt)
        fs = rt.shell.fs
        try:
            regular = name not in ("-", "/dev/stdin") and _stat.S_ISREG(fs.stat(name).st_mode)
        except FileSystemError:
            regular = False
        if not regular:
            await rt.shell.error("awk", "inplace:59: warning: inplace::begin: disabling "
                                        f"in-place editing for invalid FILENAME `{name}'")
            return
        head, sep, _ = name.rpartition("/")
        temp = f"{head}{sep}.pysh-inplace-{os.urandom(6).hex()}"
        await rt.stdout.flush()
        stream = rt.shell.open_output(temp)
        self._current = (name, temp, stream, rt.stdout.stream)
        rt.stdout.stream = stream

    async def end(self, rt) -> None:
        """The file being edited ends: its new text replaces it (the old kept under the
        suffix, if one was asked for)."""
        if self._current is None:
            return
        name, temp, stream, real = self._current
        self._current = None
        try:
            await rt.stdout.flush()
        finally:
            rt.stdout.stream = real
            stream.close()
        fs = rt.shell.fs
        fs.chmod(temp, _stat.S_IMODE(fs.stat(name).st_mode))
        if self.suffix:
            fs.rename(name, name + self.suffix)
        fs.rename(temp, name)

    async def abandon(self, rt) -> None:
        """A fatal error: the file keeps its old text, and what was printed for it is
        dropped with the temporary file (as gawk does)."""
        if self._current is None:
            return
        _, temp, stream, real = self._current
        self._current = None
        rt.stdout.buf.clear()
        rt.stdout.stream = real
        stream.close()
        try:
            rt.shell.fs.unlink(temp)
        except FileSystemError:
            pass
