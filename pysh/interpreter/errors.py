"""Control flow and error signals of the runner."""

from __future__ import annotations


class ShellError(Exception):
    """A diagnostic for the script: printed as ``pysh: line N: <message>``."""

    def __init__(self, message: str, status: int = 1):
        super().__init__(message)
        self.message = message
        self.status = status


class ExpansionError(ShellError):
    """A failed expansion. In a non-interactive shell it ends the shell (``fatal``)."""

    def __init__(self, message: str, status: int = 1, fatal: bool = True, limit: bool = False):
        super().__init__(message, status)
        self.fatal = fatal
        self.limit = limit


class NounsetError(ExpansionError):
    def __init__(self, name: str):
        super().__init__(f"{name}: unbound variable", status=1)


class ExitShell(BaseException):
    """``exit``, errexit, or a fatal error: unwinds to the shell (or subshell) boundary."""

    def __init__(self, status: int):
        super().__init__(status)
        self.status = status


class ReturnFromFunction(BaseException):
    def __init__(self, status: int):
        super().__init__(status)
        self.status = status


class LoopControl(BaseException):
    """``break N`` / ``continue N``."""

    def __init__(self, kind: str, levels: int):
        super().__init__(kind, levels)
        self.kind = kind
        self.levels = levels
