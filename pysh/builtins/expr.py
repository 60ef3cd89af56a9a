"""expr: evaluate an expression (GNU coreutils 9.1, arbitrary-precision integers).

Precedence, lowest first: ``|``, ``&``, comparisons, ``+ -``, ``* / %``,
``:``, then ``match substr index length``, ``+ TOKEN`` and parentheses.
Exit status: 0 if the result is neither null nor 0, 1 if it is, 2 for a
syntax or argument error, 3 for any other error.
"""

from __future__ import annotations

import re

from pysh.builtins._misc_bre import BREError, compile_bre
from pysh.builtins._misc_util import print_help, quote, usage_error
from pysh.shellkit import Shell, on_write_error
from pysh.shellkit.regex import guarded
from pysh.shellkit.text import encode

HELP = """\
Usage: expr EXPRESSION
  or:  expr OPTION

      --help        display this help and exit
      --version     output version information and exit

Print the value of EXPRESSION to standard output.  A blank line below
separates increasing precedence groups.  EXPRESSION may be:

  ARG1 | ARG2       ARG1 if it is neither null nor 0, otherwise ARG2

  ARG1 & ARG2       ARG1 if neither argument is null or 0, otherwise 0

  ARG1 < ARG2       ARG1 is less than ARG2
  ARG1 <= ARG2      ARG1 is less than or equal to ARG2
  ARG1 = ARG2       ARG1 is equal to ARG2
  ARG1 != ARG2      ARG1 is unequal to ARG2
  ARG1 >= ARG2      ARG1 is greater than or equal to ARG2
  ARG1 > ARG2       ARG1 is greater than ARG2

  ARG1 + ARG2       arithmetic sum of ARG1 and ARG2
  ARG1 - ARG2       arithmetic difference of ARG1 and ARG2

  ARG1 * ARG2       arithmetic product of ARG1 and ARG2
  ARG1 / ARG2       arithmetic quotient of ARG1 divided by ARG2
  ARG1 % ARG2       arithmetic remainder of ARG1 divided by ARG2

  STRING : REGEXP   anchored pattern match of REGEXP in STRING

  match STRING REGEXP        same as STRING : REGEXP
  substr STRING POS LENGTH   substring of STRING, POS counted from 1
  index STRING CHARS         index in STRING where any CHARS is found, or 0
  length STRING              length of STRING
  + TOKEN                    interpret TOKEN as a string, even if it is a
                               keyword like 'match' or an operator like '/'

  ( EXPRESSION )             value of EXPRESSION

Beware that many operators need to be escaped or quoted for shells.
Comparisons are arithmetic if both ARGs are numbers, else lexicographical.
Pattern matches return the string matched between \\( and \\) or null; if
\\( and \\) are not used, they return the number of characters matched or 0.

Exit status is 0 if EXPRESSION is neither null nor 0, 1 if EXPRESSION is null
or 0, 2 if EXPRESSION is syntactically invalid, and 3 if an error occurred.
"""

_INT = re.compile(r"-?[0-9]+\Z")


class ExprError(Exception):
    def __init__(self, message: str, status: int = 2):
        super().__init__(message)
        self.status = status


def _looks_int(s: str) -> bool:
    return bool(_INT.match(s))


def _to_int(v: int | str) -> int | None:
    if isinstance(v, int):
        return v
    return int(v) if _looks_int(v) else None


def _to_str(v: int | str) -> str:
    return str(v) if isinstance(v, int) else v


def _null(v: int | str) -> bool:
    if isinstance(v, int):
        return v == 0
    if v == "":
        return True
    s = v[1:] if v.startswith("-") else v
    return s != "" and all(c == "0" for c in s)


class Parser:
    def __init__(self, args: list[str], budget=None):
        self.args = args
        self.budget = budget
        self.pos = 0

    def _peek(self) -> str | None:
        return self.args[self.pos] if self.pos < len(self.args) else None

    def _next_is(self, tok: str) -> bool:
        if self._peek() == tok:
            self.pos += 1
            return True
        return False

    def _missing(self) -> ExprError:
        return ExprError(f"syntax error: missing argument after {quote(self.args[self.pos - 1])}")

    # eval: a | b
    def expr(self, ev: bool) -> int | str:
        left = self.and_(ev)
        while self._next_is("|"):
            right = self.and_(ev and _null(left))
            if _null(left):
                left = right if not _null(right) else 0
        return left

    def and_(self, ev: bool) -> int | str:
        left = self.cmp(ev)
        while self._next_is("&"):
            right = self.cmp(ev and not _null(left))
            if _null(left) or _null(right):
                left = 0
        return left

    _CMP = ("<", "<=", "=", "==", "!=", ">=", ">")

    def cmp(self, ev: bool) -> int | str:
        left = self.add(ev)
        while self._peek() in self._CMP:
            op = self.args[self.pos]
            self.pos += 1
            right = self.add(ev)
            if not ev:
                continue
            li, ri = _to_int(left), _to_int(right)
            if li is not None and ri is not None:
                a, b = li, ri
            else:
                a, b = _to_str(left), _to_str(right)
            res = {"<": a < b, "<=": a <= b, "=": a == b, "==": a == b, "!=": a != b,
                   ">=": a >= b, ">": a > b}[op]
            left = 1 if res else 0
        return left

    def add(self, ev: bool) -> int | str:
        left = self.mul(ev)
        while self._peek() in ("+", "-"):
            op = self.args[self.pos]
            self.pos += 1
            right = self.mul(ev)
            if not ev:
                continue
            a, b = _to_int(left), _to_int(right)
            if a is None or b is None:
                raise ExprError("non-integer argument")
            left = a + b if op == "+" else a - b
        return left

    def mul(self, ev: bool) -> int | str:
        left = self.colon(ev)
        while self._peek() in ("*", "/", "%"):
            op = self.args[self.pos]
            self.pos += 1
            right = self.colon(ev)
            if not ev:
                continue
            a, b = _to_int(left), _to_int(right)
            if a is None or b is None:
                raise ExprError("non-integer argument")
            if op == "*":
                left = a * b
                continue
            if b == 0:
                raise ExprError("division by zero")
            q = abs(a) // abs(b)
            if (a < 0) != (b < 0):
                q = -q
            left = q if op == "/" else a - b * q
        return left

    def colon(self, ev: bool) -> int | str:
        left = self.unary(ev)
        while self._next_is(":"):
            right = self.unary(ev)
            if ev:
                left = docolon(left, right, self.budget)
        return left

    def unary(self, ev: bool) -> int | str:
        tok = self._peek()
        if tok is None:
            raise self._missing()
        if tok == "length" and self._has_more():
            self.pos += 1
            v = self.unary(ev)
            return len(_to_str(v))
        if tok == "match" and self._has_more():
            self.pos += 1
            s = self.unary(ev)
            r = self.unary(ev)
            return docolon(s, r, self.budget) if ev else 0
        if tok == "index" and self._has_more():
            self.pos += 1
            s = _to_str(self.unary(ev))
            chars = _to_str(self.unary(ev))
            for i, ch in enumerate(s):
                if ch in chars:
                    return i + 1
            return 0
        if tok == "substr" and self._has_more():
            self.pos += 1
            s = _to_str(self.unary(ev))
            p = _to_int(self.unary(ev))
            n = _to_int(self.unary(ev))
            if p is None or n is None or p < 1 or n < 1 or p > len(s):
                return ""
            return s[p - 1:p - 1 + n]
        return self.primary(ev)

    def _has_more(self) -> bool:
        if self.pos + 1 >= len(self.args):
            self.pos += 1
            raise self._missing()
        return True

    def primary(self, ev: bool) -> int | str:
        tok = self._peek()
        if tok is None:
            raise self._missing()
        if tok == "(":
            self.pos += 1
            if self._peek() is None:
                raise self._missing()
            v = self.expr(ev)
            nxt = self._peek()
            if nxt is None:
                raise ExprError(f"syntax error: expecting ')' after "
                                f"{quote(self.args[self.pos - 1])}")
            if nxt != ")":
                raise ExprError(f"syntax error: expecting ')' instead of {quote(nxt)}")
            self.pos += 1
            return v
        if tok == ")":
            raise ExprError("syntax error: unexpected ')'")
        if tok == "+":
            self.pos += 1
            if self._peek() is None:
                raise self._missing()
            v = self.args[self.pos]
            self.pos += 1
            return v
        self.pos += 1
        return tok


def docolon(s: int | str, r: int | str, budget=None) -> int | str:
    text, pat = _to_str(s), _to_str(r)
    try:
        rx = compile_bre(pat)
    except BREError as e:
        raise ExprError(str(e)) from None
    m = guarded(rx.match, text, budget=budget)
    if rx.groups >= 1:
        if m is None:
            return ""
        g = m.group(1)
        return g if g is not None else ""
    return len(m.group(0)) if m else 0


@on_write_error(3)
async def main(shell: Shell, argv: list[str]) -> int:
    args = argv[1:]
    if len(args) == 1 and args[0] == "--help":
        return await print_help(shell, HELP)
    if len(args) == 1 and args[0] == "--version":
        await shell.stdout.write(b"expr (GNU coreutils) 9.1\n")
        return 0
    if args and args[0] == "--":
        args = args[1:]
    if not args:
        return await usage_error(shell, "expr", "missing operand", 2)
    parser = Parser(args, shell.budget)
    try:
        value = parser.expr(True)
        if parser.pos < len(args):
            raise ExprError(f"syntax error: unexpected argument {quote(args[parser.pos])}")
    except ExprError as e:
        await shell.error("expr", str(e))
        return e.status
    except RecursionError:
        await shell.error("expr", "memory exhausted")
        return 3
    await shell.stdout.write(encode(_to_str(value) + "\n"))
    return 1 if _null(value) else 0
