"""The error types of the substrate.

Python's own ``OSError`` text carries host paths, so nothing here ever reuses
it: a :class:`FileSystemError` is built from an errno and the *virtual* path.
"""

from __future__ import annotations

import errno as _errno
import os


class FileSystemError(OSError):
    """A file-system failure reported against virtual paths only.

    ``str(err)`` is ``"<virtual path>: <strerror>"``, the shape the coreutils
    print after their own name (``cat: /batch/x: No such file or directory``).
    """

    def __init__(self, code: int, path: str | None = None, path2: str | None = None):
        super().__init__(code, os.strerror(code))
        # OSError's own filename slots would be re-rendered by OSError.__str__;
        # keep ours separately and render them ourselves.
        self.vpath = path
        self.vpath2 = path2

    @property
    def filename(self):  # type: ignore[override]
        return self.vpath

    @property
    def filename2(self):  # type: ignore[override]
        return self.vpath2

    def __str__(self) -> str:
        if self.vpath is None:
            return self.strerror
        if self.vpath2 is None:
            return f"{self.vpath}: {self.strerror}"
        return f"{self.vpath} -> {self.vpath2}: {self.strerror}"

    def __repr__(self) -> str:
        name = _errno.errorcode.get(self.errno, str(self.errno))
        return f"FileSystemError({name}, {self.vpath!r})"

    def __reduce__(self):
        return (FileSystemError, (self.errno, self.vpath, self.vpath2))


class MountError(ValueError):
    """A mount table that cannot be built (bad virtual path, unsafe host root)."""


class BrokenPipe(Exception):
    """Raised by a write to a pipe whose reading end is gone (bash: SIGPIPE, status 141)."""


class WriteError(Exception):
    """A write to an output stream failed (``echo x > /dev/full``: ENOSPC, EIO, ...).

    Not an OSError, so a command's ``except OSError`` around its *file* operations does
    not take it for one: it reaches the interpreter, which reports it as the tools do
    (``seq: write error: No space left on device``, status 1). ``str()`` is the strerror.
    """

    def __init__(self, code: int):
        super().__init__(code)
        self.errno = code
        self.strerror = os.strerror(code)

    def __str__(self) -> str:
        return self.strerror

    @classmethod
    def of(cls, e: OSError) -> WriteError:
        return cls(e.errno or _errno.EIO)
