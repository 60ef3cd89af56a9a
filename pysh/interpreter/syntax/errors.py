"""Errors raised by the parser and by the arithmetic parser."""

from __future__ import annotations


class ParseError(Exception):
    """A syntax error, worded as bash words it.

    message      bash's text, e.g. "syntax error near unexpected token `fi'"
    line         1-based line the error is reported on
    source_line  the offending line as bash echoes it on a second line
                 (``pysh: line 2: `fi'``), or None when bash prints no such
                 line (unexpected EOF, ``[[`` errors, ...)
    incomplete   True when the input merely stopped early (open quote,
                 unclosed compound command, pending here-doc, trailing
                 operator): a REPL should read a continuation line
    status       the exit status it gives: 2, but 1 inside a compound assignment
                 (bash's parse_compound_assignment fails as a command does)
    """

    status = 2

    def __init__(self, message: str, line: int = 1, source_line: str | None = None,
                 incomplete: bool = False):
        super().__init__(message)
        self.message = message
        self.line = line
        self.source_line = source_line
        self.incomplete = incomplete

    def format(self, prefix: str | None = None) -> str:
        """The error as bash prints it (one or two lines, no trailing newline).

        ``prefix`` is what bash puts before each line: ``"pysh: line 2"``
        (the default), ``"script.sh: line 2"`` for a script file,
        ``"pysh: -c: line 2"`` for ``-c``, plain ``"pysh"`` for a script read
        from stdin (bash shows no line number there).
        """
        if prefix is None:
            prefix = f"pysh: line {self.line}"
        out = f"{prefix}: {self.message}"
        if self.source_line is not None:
            out += f"\n{prefix}: `{self.source_line}'"
        return out

    def __reduce__(self):
        return (_rebuild, (self.message, self.line, self.source_line, self.incomplete,
                           self.status))

    def __repr__(self) -> str:
        return (f"ParseError({self.message!r}, line={self.line}, "
                f"source_line={self.source_line!r}, incomplete={self.incomplete})")


def _rebuild(message, line, source_line, incomplete, status) -> ParseError:
    e = ParseError(message, line, source_line, incomplete)
    e.status = status
    return e


class ArithError(Exception):
    """An arithmetic syntax error (raised by ``parse_arith``), worded as bash.

    expr     the expression text bash shows before the colon
    message  e.g. "syntax error: operand expected"
    token    the "error token" (rest of the expression), or None

    ``str(err)`` is bash's text without the ``pysh: line N: `` prefix:
    ``1+ : syntax error: operand expected (error token is "+ ")``.
    """

    def __init__(self, expr: str, message: str, token: str | None = None):
        self.expr = expr
        self.message = message
        self.token = token
        super().__init__(str(self))

    def __str__(self) -> str:
        s = f"{self.expr}: {self.message}"
        if self.token is not None:
            s += f' (error token is "{self.token}")'
        return s

    def __reduce__(self):
        return (ArithError, (self.expr, self.message, self.token))
