"""The net under every door-B command: no host path on its stdout or stderr.

A command that reaches files through ``shell.resolve()`` hands host paths to
library code, and a library may print what it was given (sqlite's ``pragma
database_list``, a traceback-free error message, a debug line). The registry
runs every such command (``register(..., port=True)``) with fds 1 and 2 wrapped
in a :class:`FoldingOutput`, which folds each mount's host root back to its
virtual path in whatever is written, also when a root is split across writes.
Ports keep folding their own messages; this catches what they do not know of.

A port that streams *file data* to stdout (an archive, decompressed content)
writes it through :func:`raw_output`: folding data would corrupt it (a tar member
holding a host path would change length), and what it would hide is the file's
own content, which ``cat`` shows anyway. Its messages still go through the fold.
"""

from __future__ import annotations

import functools

from pysh.shellkit.errors import BrokenPipe, WriteError
from pysh.shellkit.streams import OutputStream

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)

if TYPE_CHECKING:
    from pysh.shellkit.commands import CommandFunc
    from pysh.shellkit.confine import Confinement
    from pysh.shellkit.shell import Shell


class FoldingOutput(OutputStream):
    """Writes to ``inner`` with host roots folded to virtual paths (see ``Confinement.fold_bytes``).

    It has no ``fileno()``: a port cannot reach the host fd under it and write around
    the fold. :meth:`finish` writes what is held back at the end; :meth:`flush` does
    not (a root split across a flush would go out unfolded).
    """

    def __init__(self, inner: OutputStream, core: Confinement) -> None:
        super().__init__()
        self.inner = inner
        self.core = core
        self._held = b""

    async def write(self, data: bytes) -> None:
        if self._held:
            data, self._held = self._held + data, b""
        out, self._held = self.core.fold_bytes(bytes(data), final=False)
        if out:
            await self.inner.write(out)

    async def flush(self) -> None:
        await self.inner.flush()

    async def finish(self) -> None:
        if self._held:
            out, self._held = self.core.fold_bytes(self._held)[0], b""
            await self.inner.write(out)

    def isatty(self) -> bool:
        return self.inner.isatty()


def raw_output(stream: OutputStream) -> OutputStream:
    """The stream under the fold, for a port's file-data output (see the module doc)."""
    return stream.inner if isinstance(stream, FoldingOutput) else stream


def folding(func: CommandFunc) -> CommandFunc:
    """``func`` run with its stdout and stderr folded."""

    @functools.wraps(func)
    async def port(shell: Shell, argv: list[str]) -> int:
        fds = dict(shell.fds)
        wrapped: dict[int, FoldingOutput] = {}
        for n in (1, 2):
            s = fds.get(n)
            if isinstance(s, OutputStream) and not isinstance(s, FoldingOutput):
                # one fold per stream: with 2>&1 a tail held back on fd 1 must not let
                # a later write on fd 2 overtake it
                w = wrapped.get(id(s))
                if w is None:
                    w = wrapped[id(s)] = FoldingOutput(s, shell.core)
                fds[n] = w
        if not wrapped:
            return await func(shell, argv)
        try:
            return await func(shell.child(fds=fds), argv)
        finally:
            for w in wrapped.values():
                try:
                    await w.finish()
                except (BrokenPipe, WriteError, OSError):
                    pass

    return port
