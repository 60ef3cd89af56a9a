"""``test`` and ``[``: POSIX's argument-count rules plus bash's extensions."""

from __future__ import annotations

from pysh.interpreter import conditional as cond

_UNARY = set("abcdefghkprsuwxGLNOSt") | {"z", "n", "v", "o", "R"}
_BINARY = {"=", "==", "!=", "<", ">", "-eq", "-ne", "-lt", "-le", "-gt", "-ge", "-nt", "-ot",
           "-ef", "=~"}


class TestError(Exception):
    pass


def _int(s: str) -> int:
    t = s.strip(" \t\n")
    if t[1:].isdigit() if t[:1] in "-+" else t.isdigit():
        n = int(t)
        if -(1 << 63) <= n < (1 << 63):  # bash's legal_number: an intmax_t, no overflow
            return n
    raise TestError(f"{s}: integer expression expected")


class _Eval:
    def __init__(self, interp, args: list[str]):
        self.interp = interp
        self.args = args
        self.pos = 0

    def peek(self, k: int = 0):
        i = self.pos + k
        return self.args[i] if i < len(self.args) else None

    def take(self):
        a = self.args[self.pos]
        self.pos += 1
        return a

    def expr(self) -> bool:
        v = self.and_()
        while self.peek() == "-o":
            self.take()
            r = self.and_()
            v = v or r
        return v

    def and_(self) -> bool:
        v = self.not_()
        while self.peek() == "-a":
            self.take()
            r = self.not_()
            v = v and r
        return v

    def not_(self) -> bool:
        if self.peek() == "!" and self.peek(1) is not None:
            self.take()
            return not self.not_()
        return self.primary()

    def primary(self) -> bool:
        a = self.peek()
        if a is None:
            raise TestError("argument expected")
        if a == "(" and self.pos + 1 < len(self.args):
            self.take()
            v = self.expr()
            if self.peek() != ")":
                raise TestError("`)' expected")
            self.take()
            return v
        nxt = self.peek(1)
        if nxt in _BINARY and self.peek(2) is not None:
            left = self.take()
            op = self.take()
            right = self.take()
            return self.binary(left, op, right)
        if a.startswith("-") and len(a) == 2 and a[1] in _UNARY and nxt is not None:
            self.take()
            return self.unary(a[1], self.take())
        self.take()
        return a != ""

    def unary(self, op: str, arg: str) -> bool:
        if op == "z":
            return arg == ""
        if op == "n":
            return arg != ""
        if op == "v":
            return cond.var_is_set(self.interp, arg)
        if op == "o":
            return arg in self.interp.opts
        if op == "R":
            from pysh.interpreter.state import NAMEREF

            v = self.interp.vars.lookup(arg)
            return v is not None and bool(v.attrs & NAMEREF)
        return cond.file_test(self.interp, op, arg)

    def binary(self, left: str, op: str, right: str) -> bool:
        if op in ("=", "=="):
            return left == right
        if op == "!=":
            return left != right
        if op == "<":
            return left < right
        if op == ">":
            return left > right
        if op in cond.INT_OPS:
            return cond.int_compare(op, _int(left), _int(right))
        if op in ("-nt", "-ot", "-ef"):
            return cond.file_compare(self.interp, op, left, right)
        raise TestError(f"{op}: binary operator expected")


def evaluate(interp, args: list[str]) -> bool:
    n = len(args)
    e = _Eval(interp, args)
    if n == 0:
        return False
    if n == 1:
        return args[0] != ""
    if n == 2:
        if args[0] == "!":
            return args[1] == ""
        if args[0].startswith("-") and len(args[0]) == 2 and args[0][1] in _UNARY:
            return e.unary(args[0][1], args[1])
        raise TestError(f"{args[0]}: unary operator expected")
    if n == 3:
        if args[1] in _BINARY:
            return e.binary(args[0], args[1], args[2])
        if args[0] == "!":
            return not evaluate(interp, args[1:])
        if args[0] == "(" and args[2] == ")":
            return args[1] != ""
        if args[1] in ("-a", "-o"):
            # POSIX: with three arguments a binary -a/-o joins two one-argument tests
            if args[1] == "-a":
                return args[0] != "" and args[2] != ""
            return args[0] != "" or args[2] != ""
        else:
            raise TestError(f"{args[1]}: binary operator expected")
    if n == 4:
        if args[0] == "!":
            return not evaluate(interp, args[1:])
        if args[0] == "(" and args[3] == ")":
            return evaluate(interp, args[1:3])
    v = e.expr()
    if e.pos != n:
        raise TestError("too many arguments")
    return v


async def run_test(interp, argv: list[str]) -> int:
    name = argv[0].rpartition("/")[2]  # (/usr/bin/[ too)
    args = argv[1:]
    if name == "[":
        if not args or args[-1] != "]":
            await interp.diag("[: missing `]'")
            return 2
        args = args[:-1]
    try:
        return 0 if evaluate(interp, args) else 1
    except TestError as e:
        await interp.diag(f"{name}: {e}")
        return 2
    finally:
        await cond.flush_deferred_diags(interp)
