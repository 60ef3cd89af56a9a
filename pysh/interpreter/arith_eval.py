"""Evaluate arithmetic ASTs the way bash does: signed 64-bit wrap-around, variables
whose values are themselves expressions, bash's error messages.
"""

from __future__ import annotations

from pysh.interpreter.syntax.arith import (
    AAssign,
    ABinary,
    AIncDec,
    ANum,
    ATernary,
    AUnary,
    AVar,
    parse_arith,
    to_int64,
)
from pysh.interpreter.syntax.errors import ArithError

_MAX_RECURSION = 1024


class ArithRuntimeError(Exception):
    """A run-time arithmetic error; ``str()`` is bash's text after ``pysh: line N: ``."""


def _div_token(text: str, op: str) -> str:
    i = text.rfind(op)
    return text[i + len(op):].lstrip(" \t\n") if i >= 0 else text


class ArithEvaluator:
    """Evaluates against a variable store offering the small interface below.

    ``store.arith_get(name, index)`` -> str | None (the raw value; None if unset)
    ``store.arith_set(name, index, value: int)``
    ``store.arith_is_assoc(name)`` -> bool
    ``store.arith_subscript(index_text)`` -> int (evaluate an indexed subscript)
    """

    __slots__ = ("store", "depth", "text")

    def __init__(self, store):
        self.store = store
        self.depth = 0
        self.text = ""

    def evaluate_text(self, text: str) -> int:
        """Parse and evaluate an expanded expression (empty text is 0)."""
        node = parse_arith(text)
        if node is None:
            return 0
        saved = self.text
        self.text = text
        try:
            return self.eval(node)
        finally:
            self.text = saved

    def eval(self, node) -> int:
        t = type(node)
        if t is ANum:
            return node.value
        if t is AVar:
            return self.var_value(node)
        if t is ABinary:
            op = node.op
            if op == "&&":
                return 1 if self.eval(node.left) and self.eval(node.right) else 0
            if op == "||":
                return 1 if self.eval(node.left) or self.eval(node.right) else 0
            a = self.eval(node.left)
            b = self.eval(node.right)
            return self.binary(op, a, b, node.tok)
        if t is AAssign:
            target = node.target
            if node.op == "=":
                value = self.eval(node.value)
            else:
                value = self.binary(node.op[:-1], self.var_value(target), self.eval(node.value),
                                    node.tok)
            self.store.arith_set(target.name, target.index, value)
            return value
        if t is AIncDec:
            target = node.target
            old = self.var_value(target)
            new = to_int64(old + 1 if node.op == "++" else old - 1)
            self.store.arith_set(target.name, target.index, new)
            return new if node.prefix else old
        if t is AUnary:
            v = self.eval(node.operand)
            op = node.op
            if op == "-":
                return to_int64(-v)
            if op == "+":
                return v
            if op == "!":
                return 0 if v else 1
            return to_int64(~v)
        if t is ATernary:
            return self.eval(node.then) if self.eval(node.cond) else self.eval(node.else_)
        raise ArithRuntimeError(f"{self.text}: syntax error in expression")

    def binary(self, op: str, a: int, b: int, tok: str | None = None) -> int:
        """``tok``: the error token bash would show (ABinary.tok), else guessed from the text."""
        if op == "+":
            return to_int64(a + b)
        if op == "-":
            return to_int64(a - b)
        if op == "*":
            return to_int64(a * b)
        if op in ("/", "%"):
            if b == 0:
                expr = self.text.lstrip(" \t\n")  # (bash keeps the trailing blanks)
                raise ArithRuntimeError(
                    f'{expr}: division by 0 (error token is "{tok if tok is not None else _div_token(self.text, op)}")')
            if a == -0x8000000000000000 and b == -1:
                return a if op == "/" else 0
            q = abs(a) // abs(b)
            if (a < 0) != (b < 0):
                q = -q
            return to_int64(q) if op == "/" else to_int64(a - q * b)
        if op == "**":
            if b < 0:
                expr = self.text.lstrip(" \t\n")  # (bash keeps the trailing blanks)
                raise ArithRuntimeError(
                    f'{expr}: exponent less than 0 (error token is "{tok if tok is not None else _div_token(self.text, "**")}")')
            return to_int64(pow(a, b, 1 << 64))
        if op == "<<":  # the shift count is taken mod 64, as x86 does for bash
            return to_int64(a << (b & 63))
        if op == ">>":
            return a >> (b & 63)
        if op == "&":
            return a & b
        if op == "|":
            return a | b
        if op == "^":
            return a ^ b
        if op == "==":
            return int(a == b)
        if op == "!=":
            return int(a != b)
        if op == "<":
            return int(a < b)
        if op == ">":
            return int(a > b)
        if op == "<=":
            return int(a <= b)
        if op == ">=":
            return int(a >= b)
        if op == ",":
            return b
        raise ArithRuntimeError(f"{self.text}: syntax error in expression")

    def var_value(self, var: AVar) -> int:
        raw = self.store.arith_get(var.name, var.index)
        if raw is None or raw == "":
            return 0
        return self.value_of_string(raw)

    def value_of_string(self, raw: str) -> int:
        """A variable's value is itself an expression (``x=1+2; $((x*3))`` is 9)."""
        s = raw.strip(" \t\n")
        if s.isdigit() and (s[0] != "0" or len(s) == 1):
            return to_int64(int(s))
        self.depth += 1
        if self.depth > _MAX_RECURSION:
            self.depth = 0
            raise ArithRuntimeError(f"{raw}: expression recursion level exceeded "
                                    f'(error token is "{raw}")')
        try:
            node = parse_arith(raw)
            if node is None:
                return 0
            saved = self.text
            self.text = raw
            try:
                return self.eval(node)
            finally:
                self.text = saved
        finally:
            self.depth -= 1


__all__ = ["ArithEvaluator", "ArithRuntimeError", "ArithError"]
