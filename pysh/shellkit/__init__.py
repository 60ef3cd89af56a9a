"""shellkit: the substrate every other part of pysh stands on.

The mount table (virtual <-> host), the one confinement core, the FileSystem
protocol (door A), the Shell with ``resolve()`` (door B), byte streams, the
command protocol and registry, and run limits. It knows nothing of bash
syntax and imports nothing else of pysh.
"""

from pysh.shellkit.commands import (
    WRITE_ERROR,
    CommandFunc,
    CommandLoadError,
    CommandRegistry,
    on_write_error,
)
from pysh.shellkit.confine import Confinement, Resolved, WalkDir, WalkEntry
from pysh.shellkit.errors import BrokenPipe, FileSystemError, MountError, WriteError
from pysh.shellkit.filesystem import DirEntry, FileSystem
from pysh.shellkit.limits import Budget, Interrupted, LimitExceeded, Limits
from pysh.shellkit.mounts import Mount, MountTable
from pysh.shellkit.shell import Executor, ProcessInfo, Shell
from pysh.shellkit.streams import (
    BytesInput,
    CaptureOutput,
    FdInput,
    FdOutput,
    FileInput,
    FileOutput,
    InputStream,
    NullInput,
    NullOutput,
    OutputStream,
    Pipe,
)
from pysh.shellkit.text import decode, encode

__all__ = [
    "WRITE_ERROR", "BrokenPipe", "Budget", "BytesInput", "CaptureOutput", "CommandFunc", "CommandLoadError",
    "CommandRegistry", "Confinement", "DirEntry", "Executor", "FdInput", "FdOutput",
    "FileInput", "FileOutput", "FileSystem", "FileSystemError", "InputStream", "Interrupted",
    "LimitExceeded", "Limits", "Mount", "MountError", "MountTable", "NullInput", "NullOutput",
    "OutputStream", "Pipe", "ProcessInfo", "Resolved", "Shell", "WalkDir", "WalkEntry", "WriteError",
    "decode", "encode", "on_write_error",
]
