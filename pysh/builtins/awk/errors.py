"""awk's errors: syntax errors (exit 2, gawk's two-line form) and fatal run-time errors."""

from __future__ import annotations


class AwkError(Exception):
    """Base of awk's own errors (never a Python traceback)."""


class AwkSyntaxError(AwkError):
    def __init__(self, msg: str, line: int, col: int, src: str = ""):
        super().__init__(msg)
        self.msg = msg
        self.line = line
        self.col = col
        self.src = src

    def source_line(self) -> str:
        lines = self.src.split("\n")
        if 1 <= self.line <= len(lines):
            return lines[self.line - 1]
        return ""


class AwkFatal(AwkError):
    """A fatal run-time error: ``awk: cmd. line:N: fatal: MSG``, exit 2."""

    def __init__(self, msg: str, line: int | None = None):
        super().__init__(msg)
        self.msg = msg
        self.line = line


class AwkExit(BaseException):
    """``exit [status]`` (BaseException so that nothing in between swallows it)."""

    def __init__(self, status: int | None):
        super().__init__(status)
        self.status = status


class NextRecord(BaseException):
    pass


class NextFile(BaseException):
    pass
