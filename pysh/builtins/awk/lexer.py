"""The awk tokenizer.

Regex literals and division share ``/``: a ``/`` starts a regex unless the
previous token ends an operand (a name, number, string, ``)``, ``]``, ``$``
is not one, incr/decr, or a builtin like ``length`` used bare).
Newlines are tokens (the parser skips them where the grammar allows);
a backslash-newline continues a line; ``#`` starts a comment.
"""

from __future__ import annotations

from pysh.builtins.awk.errors import AwkSyntaxError

_DIGITS = frozenset("0123456789")  # awk's numbers: ASCII digits (str.isdigit takes ₀ and ²)

KEYWORDS = {
    "BEGIN", "END", "BEGINFILE", "ENDFILE", "function", "func", "if", "else", "while", "for", "do", "break",
    "continue", "next", "nextfile", "exit", "return", "delete", "in", "getline",
    "print", "printf",
}

BUILTINS = {
    "length", "substr", "index", "split", "sub", "gsub", "match", "sprintf", "sin", "cos",
    "atan2", "exp", "log", "sqrt", "int", "rand", "srand", "tolower", "toupper", "system",
    "close", "fflush",
    # gawk's
    "gensub", "asort", "asorti", "strftime", "systime", "mktime", "and", "or", "xor",
    "lshift", "rshift", "compl", "patsplit",
}

# Longest first within each leading character.
OPERATORS = [
    "**=", "&&", "||", "++", "--", "+=", "-=", "*=", "/=", "%=", "^=", "==", "<=", ">=",
    "!=", "!~", ">>", "**",
    "{", "}", "(", ")", "[", "]", ";", ",", "+", "-", "*", "/", "%", "^", "!", ">", "<",
    "|", "?", ":", "~", "$", "=",
]
_OPS_BY_CHAR: dict[str, list[str]] = {}
for _op in OPERATORS:
    _OPS_BY_CHAR.setdefault(_op[0], []).append(_op)

# After these, "/" is division (the previous token ends an operand).
_OPERAND_END = {"NAME", "NUMBER", "STRING", "ERE", "BUILTIN", ")", "]", "$", "++", "--"}

ESCAPES = {
    "n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"', "a": "\a",
    "b": "\b", "f": "\f", "v": "\v",
}


class Token:
    __slots__ = ("kind", "value", "line", "col", "pos", "space_before")

    def __init__(self, kind: str, value, line: int, col: int, pos: int, space_before: bool):
        self.kind = kind  # NAME FUNC_NAME BUILTIN NUMBER STRING ERE NEWLINE EOF, keyword, or operator
        self.value = value
        self.line = line
        self.col = col
        self.pos = pos
        self.space_before = space_before

    def __repr__(self) -> str:
        return f"Token({self.kind!r}, {self.value!r}, {self.line})"


def unescape_string(body: str, warn=None) -> str:
    """Process awk string escapes (``\\n``, ``\\t``, ``\\ddd`` octal, ...)."""
    if "\\" not in body:
        return body
    out = []
    i = 0
    n = len(body)
    while i < n:
        c = body[i]
        if c != "\\" or i + 1 >= n:
            out.append(c)
            i += 1
            continue
        d = body[i + 1]
        if d in ESCAPES:
            out.append(ESCAPES[d])
            i += 2
        elif d in "01234567":
            j = i + 1
            while j < n and j < i + 4 and body[j] in "01234567":
                j += 1
            out.append(chr(int(body[i + 1:j], 8) & 0xFF))
            i = j
        elif d == "\n":
            i += 2
        else:
            if warn is not None:
                warn(f"escape sequence `\\{d}' treated as plain `{d}'")
            out.append(d)
            i += 2
    return "".join(out)


class Lexer:
    def __init__(self, src: str, srcname: str = "cmd. line"):
        self.src = src
        self.srcname = srcname
        self.pos = 0
        self.line = 1
        self.line_start = 0
        self.last_kind: str | None = None
        self.warnings: list[tuple[int, str]] = []

    def error(self, msg: str, line: int | None = None, col: int | None = None):
        raise AwkSyntaxError(msg, line or self.line, col if col is not None else self.pos - self.line_start,
                             self.src)

    def tokens(self) -> list[Token]:
        toks = []
        while True:
            t = self.next_token()
            toks.append(t)
            if t.kind == "EOF":
                return toks

    def _tok(self, kind, value, start, space) -> Token:
        t = Token(kind, value, self.line, start - self.line_start, start, space)
        self.last_kind = kind
        return t

    def next_token(self) -> Token:
        src = self.src
        n = len(src)
        space = False
        while True:
            if self.pos >= n:
                return self._tok("EOF", None, self.pos, space)
            c = src[self.pos]
            if c in " \t\r\f\v":
                self.pos += 1
                space = True
            elif c == "\\" and src.startswith("\n", self.pos + 1):
                self.pos += 2
                self.line += 1
                self.line_start = self.pos
                space = True
            elif c == "\\" and src.startswith("\r\n", self.pos + 1):
                self.pos += 3
                self.line += 1
                self.line_start = self.pos
                space = True
            elif c == "#":
                while self.pos < n and src[self.pos] != "\n":
                    self.pos += 1
            else:
                break
        start = self.pos
        if c == "\n":
            t = self._tok("NEWLINE", "\n", start, space)
            self.pos += 1
            self.line += 1
            self.line_start = self.pos
            return t
        if c.isascii() and (c.isalpha() or c == "_"):
            j = start + 1
            while j < n and src[j].isascii() and (src[j].isalnum() or src[j] == "_"):
                j += 1
            word = src[start:j]
            self.pos = j
            if word in KEYWORDS:
                if word == "func":
                    word = "function"
                return self._tok(word, word, start, space)
            if word in BUILTINS:
                return self._tok("BUILTIN", word, start, space)
            if j < n and src[j] == "(":
                return self._tok("FUNC_NAME", word, start, space)
            return self._tok("NAME", word, start, space)
        if c in _DIGITS or (c == "." and self.pos + 1 < n and src[self.pos + 1] in _DIGITS):
            return self._number(start, space)
        if c == "@":
            # gawk's directives and indirect calls: refused, never skipped
            j = start + 1
            while j < n and src[j].isascii() and (src[j].isalnum() or src[j] == "_"):
                j += 1
            word = src[start + 1:j]
            what = f"@{word}" if word in ("include", "load", "namespace", "nsinclude") \
                else "typed regexp constants (@/re/)" if src.startswith("/", start + 1) \
                else "indirect function calls (@name())"
            self.error(f"{what} is not supported by pysh's awk", col=start - self.line_start)
        if c == '"':
            return self._string(start, space)
        if c == "/" and self.last_kind not in _OPERAND_END:
            return self._regex(start, space)
        for op in _OPS_BY_CHAR.get(c, ()):
            if src.startswith(op, start):
                self.pos = start + len(op)
                if op == "**":
                    op = "^"
                elif op == "**=":
                    op = "^="
                return self._tok(op, op, start, space)
        self.pos += 1
        self.error(f"invalid char '{c}' in expression", col=start - self.line_start)
        raise AssertionError  # unreachable

    def _number(self, start: int, space: bool) -> Token:
        src = self.src
        n = len(src)
        j = start
        while j < n and src[j] in _DIGITS:
            j += 1
        if j < n and src[j] == ".":
            j += 1
            while j < n and src[j] in _DIGITS:
                j += 1
        if j < n and src[j] in "eE":
            k = j + 1
            if k < n and src[k] in "+-":
                k += 1
            if k < n and src[k] in _DIGITS:
                while k < n and src[k] in _DIGITS:
                    k += 1
                j = k
        self.pos = j
        return self._tok("NUMBER", float(src[start:j]), start, space)

    def _string(self, start: int, space: bool) -> Token:
        src = self.src
        n = len(src)
        j = start + 1
        while True:
            if j >= n or src[j] == "\n":
                self.pos = j
                self.error("unterminated string", col=start - self.line_start)
            c = src[j]
            if c == '"':
                break
            if c == "\\" and j + 1 < n:
                if src[j + 1] == "\n":
                    self.line += 1
                    self.line_start = j + 2
                j += 2
                continue
            j += 1
        body = src[start + 1:j]
        self.pos = j + 1
        line = self.line
        value = unescape_string(body, lambda m: self.warnings.append((line, m)))
        return self._tok("STRING", value, start, space)

    def _regex(self, start: int, space: bool) -> Token:
        src = self.src
        n = len(src)
        j = start + 1
        out = []
        in_bracket = False
        bstart = -1
        while True:
            if j >= n or src[j] == "\n":
                self.pos = j
                self.error("unterminated regexp", col=start + 1 - self.line_start)
            c = src[j]
            if c == "\\" and j + 1 < n:
                if src[j + 1] == "/":
                    out.append("/")
                elif src[j + 1] == "\n":
                    pass
                else:
                    out.append(src[j:j + 2])
                j += 2
                continue
            if in_bracket:
                if c == "]" and j != bstart:
                    in_bracket = False
                elif c == "[" and src.startswith((":", ".", "="), j + 1):
                    # [:class:], [.coll.], [=equiv=] inside a bracket
                    close = src.find(src[j + 1] + "]", j + 2)
                    if close > 0:
                        out.append(src[j:close + 2])
                        j = close + 2
                        continue
            elif c == "[":
                in_bracket = True
                bstart = j + 1
                if src.startswith("^", bstart):
                    bstart += 1
            elif c == "/":
                break
            out.append(c)
            j += 1
        self.pos = j + 1
        return self._tok("ERE", "".join(out), start, space)

