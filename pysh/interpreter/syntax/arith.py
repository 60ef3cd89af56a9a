"""The arithmetic sub-language: ``$(( ))``, ``(( ))``, ``for ((;;))``, ``let``, subscripts.

``parse_arith(text) -> ArithNode`` parses an expression that has already been
word-expanded (bash expands ``$x``, ``${x}``, ``$(cmd)`` textually first, then
parses the result).  It raises ``ArithError`` with bash's wording.  Results
(and errors) are cached, so calling it at run time for every evaluation is
cheap.

The parser mirrors bash's ``expr.c`` (a precedence-climbing recursive
descent): the same token rules (``++``/``--`` pre/post detection, numbers in
bases ``0x``, ``0``, ``N#digits``), the same precedence and the same error
messages and "error token" text.  Numeric constants are validated here (bash
does it while lexing, even in short-circuited branches).  Errors that depend
on values (division by 0, negative exponent, bad subscripts at run time) are
for the evaluator.

Nodes
=====

==========  ===============================================================
ANum        value: int  (already reduced to a signed 64-bit value)
AVar        name: str; index: str | None -- the raw subscript text of
            ``a[...]`` (evaluate it with parse_arith for indexed arrays; use
            it as the key for associative arrays)
AUnary      op: '-' | '+' | '!' | '~'; operand
AIncDec     op: '++' | '--'; prefix: bool; target: AVar
ABinary     op: one of ``, || && | ^ & == != < > <= >= << >> + - * / % **``;
            left; right   (``&&``, ``||`` short-circuit; ``,`` evaluates both)
ATernary    cond; then; else_
AAssign     op: '=' or one of ``*= /= %= += -= <<= >>= &= ^= |=``;
            target: AVar; value
==========  ===============================================================
"""

from __future__ import annotations

from .ast import AAssign, ABinary, AIncDec, ANum, ATernary, AUnary, AVar
from .errors import ArithError

__all__ = ["ANum", "AVar", "AUnary", "AIncDec", "ABinary", "ATernary", "AAssign",
           "ArithError", "parse_arith", "to_int64"]


def to_int64(v: int) -> int:
    """Wrap an int to bash's intmax_t (signed 64-bit)."""
    v &= 0xFFFFFFFFFFFFFFFF
    return v - 0x10000000000000000 if v & 0x8000000000000000 else v


_WS = " \t\n"  # not \r: bash's arithmetic whitespace
_ARITH_OP_CHARS = set("=><!~&|^+-*/%?:(),")
_VAR_START = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")
_VAR_CHARS = _VAR_START | set("0123456789")
_NUM_CHARS = _VAR_CHARS | set("#@")
_ASSIGN_OPS = {"=", "*=", "/=", "%=", "+=", "-=", "<<=", ">>=", "&=", "^=", "|="}

# token kinds (besides operator strings)
_EOF = ""
_NUM = "NUM"
_STR = "STR"
_PREC = {"||": 1, "&&": 2, "|": 3, "^": 4, "&": 5, "==": 6, "!=": 6, "<": 7, ">": 7,
         "<=": 7, ">=": 7, "<<": 8, ">>": 8, "+": 9, "-": 9, "*": 10, "/": 10, "%": 10}
_MAX_DEPTH = 200
_BINARY_OPS = {"||", "&&", "|", "^", "&", "==", "!=", "<", ">", "<=", ">=", "<<", ">>",
               "+", "-", "*", "/", "%", "**", ","}


def _digit_value(c: str, base: int) -> int:
    if "0" <= c <= "9":
        return ord(c) - 48
    if "a" <= c <= "z":
        return ord(c) - 87
    if "A" <= c <= "Z":
        return ord(c) - (55 if base <= 36 else 29)
    if c == "@":
        return 62
    if c == "_":
        return 63
    return 99


class _Parser:
    __slots__ = ("s", "n", "cp", "tp", "lasttp", "curtok", "lasttok", "tokval", "tokname",
                 "tokindex", "depth")

    def __init__(self, s: str):
        self.s = s
        self.n = len(s)
        self.cp = 0
        self.tp = 0
        self.lasttp = 0
        self.curtok = _EOF
        self.lasttok = _EOF
        self.tokval = 0
        self.tokname = ""
        self.tokindex = None
        self.depth = 0

    # -- errors ------------------------------------------------------------
    def error(self, msg: str, end: int | None = None):
        s = self.s if end is None else self.s[:end]
        expr = s.lstrip(" \t\n")
        tok = s[self.lasttp:] if self.lasttp < len(s) else ""
        raise ArithError(expr, msg, tok)

    # -- lexer (bash readtok) -----------------------------------------------
    def readtok(self):
        s, n = self.s, self.n
        cp = self.cp
        while cp < n and s[cp] in _WS:
            cp += 1
        if cp >= n:
            self.lasttok = self.curtok
            self.curtok = _EOF
            self.tp = self.cp = cp
            return
        c = s[cp]
        self.lasttp = self.tp = cp
        cp += 1
        if c in _VAR_START:
            while cp < n and s[cp] in _VAR_CHARS:
                cp += 1
            name = s[self.tp:cp]
            index = None
            if cp < n and s[cp] == "[":
                e = _skip_subscript(s, cp)
                if e < n and s[e] == "]":
                    index = s[cp + 1:e]
                    cp = e + 1
                else:
                    self.cp = cp
                    self.error("bad array subscript")
            self.cp = cp
            self.tokname = name
            self.tokindex = index
            self.lasttok = self.curtok
            self.curtok = _STR
            return
        if "0" <= c <= "9":
            while cp < n and s[cp] in _NUM_CHARS:
                cp += 1
            self.cp = cp
            self.tokval = self._strlong(self.tp, cp)
            self.lasttok = self.curtok
            self.curtok = _NUM
            return
        c1 = s[cp] if cp < n else ""
        cp += 1
        tok = c
        if c == "=" and c1 == "=":
            tok = "=="
        elif c == "!" and c1 == "=":
            tok = "!="
        elif c == ">" and c1 == "=":
            tok = ">="
        elif c == "<" and c1 == "=":
            tok = "<="
        elif c == "<" and c1 == "<":
            if cp < n and s[cp] == "=":
                tok = "<<="
                cp += 1
            else:
                tok = "<<"
        elif c == ">" and c1 == ">":
            if cp < n and s[cp] == "=":
                tok = ">>="
                cp += 1
            else:
                tok = ">>"
        elif c == "&" and c1 == "&":
            tok = "&&"
        elif c == "|" and c1 == "|":
            tok = "||"
        elif c == "*" and c1 == "*":
            tok = "**"
        elif c in "+-" and c1 == c and self.curtok == _STR:
            tok = "POST" + c * 2
        elif c in "+-" and c1 == c and self.curtok == _NUM and self.lasttok in ("PRE++",
                                                                                "PRE--"):
            self.cp = cp
            self.error(f"{c}{c}: assignment requires lvalue")
        elif c in "+-" and c1 == c:
            xp = cp
            while xp < n and s[xp] in _WS:
                xp += 1
            if xp < n and s[xp] in _VAR_START:
                tok = "PRE" + c * 2
            else:
                cp -= 1
        elif c1 == "=" and c in "*/%+-&^|":
            tok = c + "="
        elif c not in _ARITH_OP_CHARS:
            cp -= 1
            self.cp = cp
            ct = self.curtok
            if ct == _EOF or (ct not in (_NUM, _STR) and not ct.startswith("POST")):
                self.error("syntax error: operand expected")
            self.error("syntax error: invalid arithmetic operator")
        else:
            cp -= 1
        self.cp = cp
        self.lasttok = self.curtok
        self.curtok = tok

    def _strlong(self, start: int, end: int) -> int:
        num = self.s[start:end]
        i = 0
        base = 10
        foundbase = False
        if num[0] == "0":
            i = 1
            if len(num) == 1:
                return 0
            if num[1] in "xX":
                base = 16
                i = 2
            else:
                base = 8
            foundbase = True
        val = 0
        n = len(num)
        while i < n:
            c = num[i]
            i += 1
            if c == "#":
                if foundbase:
                    self.error("invalid number", end)
                if val < 2 or val > 64:
                    self.error("invalid arithmetic base", end)
                base = val
                val = 0
                foundbase = True
                if i >= n or num[i] == "#":
                    self.error("invalid integer constant", end)
            else:
                d = _digit_value(c, base)
                if d >= base:
                    self.error("value too great for base", end)
                val = val * base + d
        return to_int64(val)

    # -- grammar (bash expr.c) -------------------------------------------------
    def parse(self):
        self.readtok()
        if self.curtok == _EOF:
            return None
        val = self.expcomma()
        if self.curtok != _EOF:
            self.error("syntax error in expression")
        return val

    def expcomma(self):
        self.depth += 1
        if self.depth > _MAX_DEPTH:
            self.error("expression recursion level exceeded")
        val = self.expassign()
        while self.curtok == ",":
            self.readtok()
            val = ABinary(",", val, self.expassign())
        self.depth -= 1
        return val

    def expassign(self):
        val = self.expcond()
        tok = self.curtok
        if tok in _ASSIGN_OPS:
            if self.lasttok != _STR or not isinstance(val, AVar):
                self.error("attempted assignment to non-variable")
            self.readtok()
            rhs = self.expassign()
            node = AAssign(tok, val, rhs)
            node.tok = self.s[self.lasttp:]
            return node
        return val

    def expcond(self):
        cond = self.explor()
        if self.curtok == "?":
            self.readtok()
            if self.curtok == _EOF or self.curtok == ":":
                self.error("expression expected")
            then = self.expcomma()
            if self.curtok != ":":
                self.error("`:' expected for conditional expression")
            self.readtok()
            if self.curtok == _EOF:
                self.error("expression expected")
            else_ = self.expcond()
            self.lasttok = _NUM
            return ATernary(cond, then, else_)
        return cond

    def explor(self):
        return self._binary(1)

    def _binary(self, minp):
        # precedence climbing over bash's exp5 .. explor levels (all left-assoc)
        val = self.exppower()
        prec = _PREC
        while True:
            op = self.curtok
            p = prec.get(op)
            if p is None or p < minp:
                return val
            after = self.cp  # (bash shows a division by 0 from the divisor on)
            self.readtok()
            val = ABinary(op, val, self._binary(p + 1))
            if op == "/" or op == "%":
                val.tok = self.s[after:].lstrip(" \t")
            self.lasttok = _NUM

    def exppower(self):
        val = self.exp1()
        if self.curtok == "**":
            self.readtok()
            rhs = self.exppower()
            self.lasttok = _NUM
            node = ABinary("**", val, rhs)
            node.tok = self.s[self.lasttp:]
            return node
        return val

    def exp1(self):
        tok = self.curtok
        if tok in ("!", "~", "-", "+"):
            self.readtok()
            self.depth += 1
            if self.depth > _MAX_DEPTH:
                self.error("expression recursion level exceeded")
            val = AUnary(tok, self.exp1())
            self.depth -= 1
            self.lasttok = _NUM
            return val
        return self.exp0()

    def exp0(self):
        tok = self.curtok
        if tok in ("PRE++", "PRE--"):
            self.lasttok = tok
            self.readtok()
            if self.curtok != _STR:
                self.error("identifier expected after pre-increment or pre-decrement")
            target = AVar(self.tokname, self.tokindex)
            self.curtok = _NUM  # bash: "make it look like a number"
            self.readtok()
            return AIncDec(tok[3:], True, target)
        if tok == "(":
            self.readtok()
            val = self.expcomma()
            if self.curtok != ")":
                self.error("missing `)'")
            self.readtok()
            return val
        if tok == _NUM:
            val = ANum(self.tokval)
            self.readtok()
            return val
        if tok == _STR:
            target = AVar(self.tokname, self.tokindex)
            self.readtok()
            if self.curtok in ("POST++", "POST--"):
                op = self.curtok[4:]
                self.lasttok = _NUM
                self.readtok()
                return AIncDec(op, False, target)
            return target
        self.error("syntax error: operand expected")


def _skip_subscript(s: str, i: int) -> int:
    """Index of the ']' matching the '[' at s[i] (or len(s))."""
    depth = 0
    n = len(s)
    while i < n:
        c = s[i]
        if c == "[":
            depth += 1
        elif c == "]":
            depth -= 1
            if depth == 0:
                return i
        elif c == "\\":
            i += 1
        elif c in "'\"":
            j = s.find(c, i + 1)
            if j < 0:
                return n
            i = j
        i += 1
    return n


_cache: dict[str, object] = {}
_CACHE_MAX = 4096


def parse_arith(text: str):
    """Parse an (already expanded) arithmetic expression.

    Returns an ArithNode, or None for an empty/blank expression (which bash
    evaluates to 0).  Raises ArithError.
    """
    hit = _cache.get(text, _cache)
    if hit is not _cache:
        if isinstance(hit, ArithError):
            raise ArithError(hit.expr, hit.message, hit.token)
        return hit
    try:
        result = _Parser(text).parse()
    except ArithError as e:
        result = e
    except RecursionError:
        result = ArithError(text.lstrip(" \t\n"), "expression recursion level exceeded", None)
    if len(_cache) >= _CACHE_MAX:
        _cache.clear()
    _cache[text] = result
    if isinstance(result, ArithError):
        raise ArithError(result.expr, result.message, result.token)
    return result
