"""Control flow and error signals of the runner."""

from __future__ import annotations


class ShellError(Exception):
    """A diagnostic for the script: printed as ``pysh: line N: <message>``."""

    def __init__(self, message: str, status: int = 1):
        super().__init__(message)
        self.message = message
        self.status = status


class ReadonlyError(ShellError):
    """An assignment to a readonly variable."""

    def __init__(self, name: str):
        super().__init__(f"{name}: readonly variable")


class CircularNameref(ReadonlyError):
    """An assignment through a nameref cycle: bash warns and gives the assignment up as it
    gives up one to a readonly variable."""

    def __init__(self, name: str):
        ShellError.__init__(self, f"warning: {name}: circular name reference")


class ElementRefError(ReadonlyError):
    """An assignment through a nameref to an array element that bash refuses (a list,
    a subscript, or a[@]): given up like one to a readonly variable."""

    def __init__(self, message: str):
        ShellError.__init__(self, message)


class ExpansionError(ShellError):
    """A failed expansion, and what bash does about it in a non-interactive shell:

    * ``"exit"``: the shell exits (``${x:?}``, an unbound variable with ``set -u``);
    * ``"line"``: the rest of the current input line is abandoned (arithmetic
      errors, bad substitutions) and the shell goes on with the next line;
    * ``"discard"``: the same, but a ``bash -c`` string is given up altogether, and
      ``(( ))`` and ``let`` do not catch it (an array subscript's arithmetic error:
      bash's DISCARD; its message names no command);
    * ``"command"``: only the command fails.
    """

    def __init__(self, message: str, status: int = 1, action: str = "exit", limit: bool = False,
                 fatal: bool | None = None):
        super().__init__(message, status)
        if fatal is not None:
            action = "exit" if fatal else "command"
        self.action = action
        self.limit = limit

    @property
    def fatal(self) -> bool:
        return self.action == "exit"


class AbortLine(BaseException):
    """Abandon the current top-level input line (an expansion error bash does not exit on).

    ``discard`` is bash's ``jump_to_top_level (DISCARD)`` (``break 1 2``): the same in a
    script or on stdin, but a ``bash -c`` string is given up altogether."""

    def __init__(self, status: int, discard: bool = False):
        super().__init__(status)
        self.status = status
        self.discard = discard


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

    def __init__(self, kind: str, levels: int, status: int = 0):
        super().__init__(kind, levels)
        self.kind = kind
        self.levels = levels
        self.status = status
