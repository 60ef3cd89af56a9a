"""The Perl subset's parser: source text to an AST of tuples.

Perl cannot be tokenized without knowing whether a term or an operator comes
next (``/`` starts a pattern or divides, ``{`` opens a block or a hash, ``<``
reads a line or compares), so the scanner is driven by the parser: every
token is read with that expectation. Expressions are parsed by precedence
climbing over Perl's precedence table (perlop). Strings and patterns keep
their interpolated parts as sub-expressions.

Nodes are tuples whose first item names them; see the compiler for the list.
Anything outside the subset raises :class:`Unsupported`; a malformed program
raises :class:`PerlSyntaxError` (perl's own "syntax error at -e line N").
"""

from __future__ import annotations

import re

# What `require` may name: pragmas, which load nothing pysh's perl lacks (its modules are
# reached through `use`'s imports, not fully qualified names).
_REQUIRABLE = frozenset(("strict", "warnings", "integer", "vars", "feature"))


class PerlSyntaxError(Exception):
    def __init__(self, message: str, line: int):
        super().__init__(message)
        self.message = message
        self.line = line


class Unsupported(Exception):
    """A construct outside pysh's perl subset."""


# named unary operators: one optional argument, binding tighter than comparisons
NAMED_UNARY = {
    "defined", "ref", "scalar", "lc", "uc", "lcfirst", "ucfirst", "length", "chr", "ord",
    "int", "abs", "sqrt", "log", "exp", "sin", "cos", "hex", "oct", "quotemeta", "chomp",
    "chop", "chdir", "rmdir", "readline", "close", "undef", "exists", "delete", "each",
    "keys", "values", "shift", "pop", "rand", "srand", "exit", "umask", "localtime",
    "gmtime", "caller", "fc", "lock", "eof", "fileno", "chroot", "readlink", "stat", "lstat",
    "sleep", "pos",
}
# list operators: everything to the right, up to a low-precedence and/or/not
LIST_OPS = {
    "print", "printf", "say", "push", "unshift", "splice", "join", "split", "sprintf", "die",
    "warn", "return", "reverse", "sort", "map", "grep", "unlink", "open", "binmode", "pack", "unpack", "chomp", "chop", "kill", "system", "exec", "wantarray",
    "atan2", "index", "rindex", "substr", "select", "mkdir", "utime", "chmod", "chown",
    "rename", "local", "my", "our", "sum", "sum0", "max", "min", "maxstr", "minstr", "first",
    "any", "all", "none", "uniq", "uniqnum", "shuffle", "floor", "ceil", "pairs", "reduce",
    "lc", "uc", "time", "times", "wait", "opendir", "readdir", "closedir", "seek", "tell",
    "read", "sysread", "syswrite", "truncate", "link", "symlink", "glob", "exit",
}
NO_ARG_FUNCS = {"time", "times", "wantarray", "wait"}

_IDENT = re.compile(r"[A-Za-z_]\w*(?:::\w+)*")
_NUM = re.compile(r"0[xX][0-9a-fA-F_]+|0[bB][01_]+|(?:\d[\d_]*)?\.?\d[\d_]*(?:[eE][+-]?\d+)?")
_SPECIAL_SCALARS = set("&`'+!@/\\,;.0_123456789<>[]^$:?-|\"~%=") | {"ARGV"}
_PAIRS = {"(": ")", "[": "]", "{": "}", "<": ">"}

BINARY = {
    # op: (precedence, right-assoc)
    "**": (16, True),
    "=~": (14, False), "!~": (14, False),
    "*": (13, False), "/": (13, False), "%": (13, False), "x": (13, False),
    "+": (12, False), "-": (12, False), ".": (12, False),
    "<<": (11, False), ">>": (11, False),
    "<": (9, False), ">": (9, False), "<=": (9, False), ">=": (9, False),
    "lt": (9, False), "gt": (9, False), "le": (9, False), "ge": (9, False),
    "==": (8, False), "!=": (8, False), "<=>": (8, False), "eq": (8, False),
    "ne": (8, False), "cmp": (8, False),
    "&": (7, False), "|": (6, False), "^": (6, False),
    "&&": (5, False), "||": (4, False), "//": (4, False),
    "..": (3, False), "...": (3, False),
    "?": (2, True),
    "=": (1, True), "+=": (1, True), "-=": (1, True), "*=": (1, True), "/=": (1, True),
    ".=": (1, True), "x=": (1, True), "%=": (1, True), "**=": (1, True), "||=": (1, True),
    "&&=": (1, True), "//=": (1, True), "|=": (1, True), "&=": (1, True), "^=": (1, True),
    "<<=": (1, True), ">>=": (1, True),
}
ASSIGN_OPS = {op for op, (p, _) in BINARY.items() if p == 1}
NAMED_UNARY_PREC = 10
COMMA_PREC = 0
# multi-character operators, longest first
_OPS = sorted([op for op in BINARY if not op.isalpha()] +
              ["->", "++", "--", "=>", ",", "!", "~", "\\", "(", ")", "[", "]", "{", "}", ";",
               ":", "?", "<>", "<<>>"], key=len, reverse=True)


class Parser:
    def __init__(self, src: str, line: int = 1, features: set | None = None):
        self.src = src
        self.pos = 0
        self.line0 = line
        self.features = features if features is not None else set()

    # -- errors ---------------------------------------------------------------------
    def lineno(self, pos: int | None = None) -> int:
        return self.line0 + self.src.count("\n", 0, self.pos if pos is None else pos)

    def error(self, near: str | None = None) -> PerlSyntaxError:
        if near is None:
            # perl shows the text from the token before the offending one to the line's end
            src = self.src
            k = self.pos
            while k > 0 and src[k - 1] in " \t":
                k -= 1
            if k > 0:
                word = src[k - 1].isalnum() or src[k - 1] == "_"
                while k > 0 and not src[k - 1].isspace() and \
                        (src[k - 1].isalnum() or src[k - 1] == "_") == word:
                    k -= 1
            near = src[k:].split("\n")[0]
        return PerlSyntaxError(f'syntax error at -e line {self.lineno()}, near "{near}"',
                               self.lineno())

    def unsupported(self, what: str) -> Unsupported:
        return Unsupported(f"{what} at -e line {self.lineno()}")

    # -- scanning -----------------------------------------------------------------------
    def skip_ws(self) -> None:
        src = self.src
        n = len(src)
        while self.pos < n:
            c = src[self.pos]
            if c in " \t\r\n\f":
                self.pos += 1
            elif c == "#":
                j = src.find("\n", self.pos)
                self.pos = n if j < 0 else j + 1
            elif c == "=" and (self.pos == 0 or src[self.pos - 1] == "\n") and \
                    src[self.pos + 1:self.pos + 2].isalpha():
                j = src.find("\n=cut", self.pos)  # POD
                self.pos = n if j < 0 else src.find("\n", j + 1) % (n + 1) or n
            else:
                break

    def peek(self, s: str) -> bool:
        self.skip_ws()
        return self.src.startswith(s, self.pos)

    def peek_word(self) -> str | None:
        self.skip_ws()
        m = _IDENT.match(self.src, self.pos)
        return m.group(0) if m else None

    def accept(self, s: str) -> bool:
        self.skip_ws()
        if self.src.startswith(s, self.pos):
            if s[-1].isalnum() or s[-1] == "_":  # a word must end at a word boundary
                end = self.pos + len(s)
                if end < len(self.src) and (self.src[end].isalnum() or self.src[end] == "_"):
                    return False
            self.pos += len(s)
            return True
        return False

    def expect(self, s: str) -> None:
        if not self.accept(s):
            raise self.error()

    def at_end(self) -> bool:
        self.skip_ws()
        return self.pos >= len(self.src)

    # -- program structure -----------------------------------------------------------------
    def parse_program(self) -> list:
        stmts = []
        while not self.at_end():
            st = self.statement()
            if st is not None:
                stmts.append(st)
        return stmts

    def block(self) -> list:
        self.expect("{")
        stmts = []
        while not self.peek("}"):
            if self.at_end():
                raise PerlSyntaxError(f"Missing right curly or square bracket at -e line "
                                      f"{self.lineno()}, at end of line\nsyntax error at -e "
                                      f"line {self.lineno()}, at EOF", self.lineno())
            st = self.statement()
            if st is not None:
                stmts.append(st)
        self.expect("}")
        return stmts

    def statement(self):
        self.skip_ws()
        if self.accept(";"):
            return None
        start = self.pos
        label = None
        m = re.compile(r"([A-Z_][A-Z0-9_]*)\s*:(?!:)").match(self.src, self.pos)
        if m and m.group(1) not in ("BEGIN", "END"):
            label = m.group(1)
            self.pos = m.end()
            self.skip_ws()
        if self.peek("{"):
            return ("bare_block", self.block(), label)
        w = self.peek_word()
        if w in ("if", "unless"):
            self.accept(w)
            return self.if_statement(w)
        if w in ("while", "until"):
            self.accept(w)
            self.expect("(")
            cond = ("num", 1) if self.peek(")") else self.expr()
            self.expect(")")
            body = self.block()
            cont = self.block() if self.accept("continue") else None
            return ("while", cond, body, label, w == "until", cont)
        if w in ("for", "foreach"):
            self.accept(w)
            return self.for_statement(label)
        if w in ("BEGIN", "END") and self.src[self.pos + len(w):].lstrip().startswith("{"):
            self.accept(w)
            return (w.lower(), self.block())
        if w == "sub":
            save = self.pos
            self.accept("sub")
            name = self.peek_word()
            if name:
                self.accept(name)
                return ("subdef", name, self.block())
            self.pos = save
        if w == "package":
            self.accept("package")
            name = self.peek_word()
            if name:
                self.accept(name)
            self.accept(";")
            return None
        if w in ("use", "no"):
            return self.use_statement(w)
        if w == "do" and self.src[self.pos + 2:].lstrip().startswith("{"):
            self.accept("do")
            body = self.block()
            w2 = self.peek_word()
            if w2 in ("while", "until"):
                self.accept(w2)
                cond = self.expr()
                self.accept(";")
                return ("do_while", body, cond, w2 == "until")
            node = ("do_block", body)
            return self.finish_simple(self.continue_expr(node), start)
        if w == "format":
            raise self.unsupported("format")
        e = self.expr()
        return self.finish_simple(e, start)

    def continue_expr(self, left):
        """An expression that began with an already parsed term (``do {...} ...``)."""
        return self.expr_rest(left, -1)

    def finish_simple(self, e, start):
        w = self.peek_word()
        node = ("expr", e)
        if w in ("if", "unless", "while", "until", "for", "foreach"):
            self.accept(w)
            cond = self.expr()
            if w == "if":
                node = ("if", [(cond, [node])], None)
            elif w == "unless":
                node = ("if", [(("not", cond), [node])], None)
            elif w in ("while", "until"):
                node = ("while", cond, [node], None, w == "until", None)
            else:
                node = ("foreach", None, cond, [node], None)
        if not self.accept(";"):
            if not (self.peek("}") or self.at_end()):
                raise self.error()
        return node

    def if_statement(self, w: str):
        self.expect("(")
        cond = self.expr()
        self.expect(")")
        if w == "unless":
            cond = ("not", cond)
        clauses = [(cond, self.block())]
        else_block = None
        while True:
            if self.accept("elsif"):
                self.expect("(")
                c = self.expr()
                self.expect(")")
                clauses.append((c, self.block()))
            elif self.accept("else"):
                else_block = self.block()
                break
            else:
                break
        return ("if", clauses, else_block)

    def for_statement(self, label):
        var = None
        if self.accept("my") or self.accept("our") or self.accept("local"):
            self.skip_ws()
            if not self.src.startswith("$", self.pos):
                raise self.error()
            self.pos += 1
            m = _IDENT.match(self.src, self.pos)
            if not m:
                raise self.error()
            self.pos = m.end()
            var = ("my", m.group(0))
        elif self.peek("$"):
            self.pos += 1
            m = _IDENT.match(self.src, self.pos)
            if not m:
                raise self.error()
            self.pos = m.end()
            var = ("global", m.group(0))
        self.expect("(")
        if var is None:
            # C-style for (init; cond; step) or foreach over a list with $_
            init = None if self.peek(";") else self.expr()
            if self.accept(";"):
                cond = None if self.peek(";") else self.expr()
                self.expect(";")
                step = None if self.peek(")") else self.expr()
                self.expect(")")
                body = self.block()
                return ("cfor", init, cond, step, body, label)
            self.expect(")")
            return ("foreach", None, init if init is not None else ("list", []), self.block(),
                    label)
        lst = ("list", []) if self.peek(")") else self.expr()
        self.expect(")")
        return ("foreach", var, lst, self.block(), label)

    def use_statement(self, w: str):
        self.accept(w)
        m = re.compile(r"\s*(v?5[\d.]*|[A-Za-z_][\w:]*)").match(self.src, self.pos)
        if not m:
            raise self.error()
        name = m.group(1)
        self.pos = m.end()
        args = None
        if not self.peek(";") and not self.at_end() and not self.peek("}"):
            args = self.expr()
        self.accept(";")
        if name[0] in "v5" and name[1:2].isdigit() or name.startswith("5"):
            parts = [int(x) for x in re.findall(r"\d+", name)]
            minor = parts[1] if len(parts) > 1 else 0
            if name.startswith("5.") and len(parts) > 1 and len(str(parts[1])) >= 3:
                minor = parts[1] // 1000 if len(str(parts[1])) > 3 else parts[1]
            if parts and parts[0] == 5 and minor >= 10 and w == "use":
                self.features.add("say")
            return None
        return ("use", name, args, w == "no")

    def require_expr(self):
        """`require VERSION` and `require Module` (loads, imports nothing): true when the
        version or module is one this perl has; a file name would run code from a file."""
        m = re.compile(r"\s*(v?5[\d.]*|[A-Za-z_][\w:]*)").match(self.src, self.pos)
        if not m:
            raise self.unsupported("require FILE")
        name = m.group(1)
        self.pos = m.end()
        version = name[0] in "v5" and name[1:2].isdigit() or name.startswith("5")
        if not version and name not in _REQUIRABLE:
            raise self.unsupported(f"the module {name}")
        return ("num", 1)

    # -- expressions ------------------------------------------------------------------------
    def expr(self):
        """A full expression, low-precedence or/and/not included."""
        return self.low_or()

    def low_or(self):
        left = self.low_and()
        while True:
            if self.accept("or"):
                left = ("logor", left, self.low_and())
            elif self.accept("xor"):
                left = ("xor", left, self.low_and())
            else:
                return left

    def low_and(self):
        left = self.low_not()
        while self.accept("and"):
            left = ("logand", left, self.low_not())
        return left

    def low_not(self):
        if self.accept("not"):
            if self.peek(")") or self.peek(";"):
                return ("not", ("list", []))
            return ("not", self.low_not())
        return self.comma_expr()

    def comma_expr(self):
        first = self.assign_expr()
        if not (self.peek(",") or self.peek("=>")):
            return first
        items = [first]
        while self.accept(",") or self.accept("=>"):
            if self.ends_list():
                break
            items.append(self.assign_expr())
        return ("list", items)

    def ends_list(self) -> bool:
        self.skip_ws()
        if self.pos >= len(self.src):
            return True
        if self.src[self.pos] in ")]};:":
            return True
        w = self.peek_word()
        return w in ("or", "and", "not", "xor", "if", "unless", "while", "until", "for",
                     "foreach")

    def assign_expr(self):
        return self.binary(1)

    def binary(self, min_prec: int):
        left = self.unary()
        return self.expr_rest(left, min_prec)

    def expr_rest(self, left, min_prec: int):
        while True:
            op = self.peek_binop()
            if op is None:
                return left
            prec, right = BINARY[op]
            if prec < min_prec:
                return left
            self.pos += len(op)
            if op == "?":
                a = self.assign_expr()
                self.expect(":")
                b = self.binary(prec)
                left = ("cond", left, a, b)
                continue
            if op in ("=~", "!~"):
                rhs = self.unary()
                left = ("bind", op, left, rhs)
                continue
            rhs = self.binary(prec if right else prec + 1)
            if op in ASSIGN_OPS:
                left = ("assign", op, left, rhs)
            elif op in ("&&", "||", "//"):
                left = ({"&&": "logand", "||": "logor", "//": "dor"}[op], left, rhs)
            elif op in ("..", "..."):
                left = ("range", op, left, rhs)
            else:
                left = ("binop", op, left, rhs)

    def peek_binop(self) -> str | None:
        self.skip_ws()
        src, p = self.src, self.pos
        if p >= len(src) or src.startswith("=>", p):
            return None
        for w in ("lt", "gt", "le", "ge", "eq", "ne", "cmp", "x=", "x"):
            if src.startswith(w, p):
                end = p + len(w)
                if w == "x" and end < len(src) and src[end].isdigit():
                    return "x"  # "x3" repeats
                if end < len(src) and (src[end].isalnum() or src[end] == "_") and w != "x=":
                    continue
                return w
        for op in _OPS:
            if src.startswith(op, p) and op in BINARY:
                return op
        return None

    def unary(self):
        self.skip_ws()
        src, p = self.src, self.pos
        if src.startswith("!", p) and not src.startswith("!~", p) and \
                not src.startswith("!=", p):
            self.pos += 1
            return ("not", self.unary())
        if src.startswith("~", p) and not src.startswith("~~", p):
            self.pos += 1
            return ("bitnot", self.unary())
        if src.startswith("\\", p):
            self.pos += 1
            return ("ref", self.unary())
        if src.startswith("-", p) and not src.startswith("--", p) and \
                not src.startswith("-=", p):
            m = re.compile(r"-([edfrwxszl])(?![\w=>])").match(src, p)
            if m:  # a file test
                self.pos = m.end()
                arg = None if self.ends_list() or self.peek_binop() else self.binary(
                    NAMED_UNARY_PREC + 1)
                return ("filetest", m.group(1), arg)
            self.pos += 1
            m = _IDENT.match(src, self.pos)
            if m and not self.src.startswith("(", m.end()) and m.group(0) not in \
                    NAMED_UNARY | LIST_OPS:
                self.pos = m.end()
                return ("str", "-" + m.group(0))  # -bareword is a string
            return ("neg", self.binary(15))
        if src.startswith("+", p) and not src.startswith("++", p) and \
                not src.startswith("+=", p):
            self.pos += 1
            return self.unary()
        if src.startswith("++", p) or src.startswith("--", p):
            self.pos += 2
            return ("preinc" if src[p] == "+" else "predec", self.unary())
        return self.power()

    def power(self):
        left = self.postfix()
        if self.peek("**") and not self.peek("**="):
            self.pos += 2
            right = self.unary()  # right associative, binds tighter than unary minus on left
            return ("binop", "**", left, right)
        return left

    def postfix(self):
        node = self.primary()
        while True:
            self.skip_ws()
            src, p = self.src, self.pos
            if src.startswith("++", p):
                self.pos += 2
                node = ("postinc", node)
            elif src.startswith("--", p):
                self.pos += 2
                node = ("postdec", node)
            elif src.startswith("->", p):
                self.pos += 2
                self.skip_ws()
                if self.accept("["):
                    idx = self.expr()
                    self.expect("]")
                    node = ("aelem", ("deref_array", node), idx)
                elif self.accept("{"):
                    key = self.hash_key()
                    node = ("helem", ("deref_hash", node), key)
                elif self.accept("("):
                    args = [] if self.peek(")") else [self.expr()]
                    self.expect(")")
                    node = ("callref", node, args)
                elif self.accept("@*"):
                    node = ("deref_array", node)
                elif self.accept("%*"):
                    node = ("deref_hash", node)
                else:
                    m = _IDENT.match(src, self.pos)
                    if m:
                        raise self.unsupported("method calls")
                    raise self.error()
            elif node[0] in ("aelem", "helem") and (src.startswith("[", p) or
                                                    src.startswith("{", p)):
                # $a[0][1], $h{a}{b}: an implied arrow between subscripts
                if src[p] == "[":
                    self.pos += 1
                    idx = self.expr()
                    self.expect("]")
                    node = ("aelem", ("deref_array", node), idx)
                else:
                    self.pos += 1
                    node = ("helem", ("deref_hash", node), self.hash_key())
            else:
                return node

    def hash_key(self):
        """The inside of {...} after a hash name; a bareword or -bareword is a string."""
        self.skip_ws()
        m = re.compile(r"(-?[A-Za-z_]\w*)\s*\}").match(self.src, self.pos)
        if m:
            self.pos = m.end()
            return ("str", m.group(1))
        key = self.expr()
        self.expect("}")
        return key

    # -- primary terms ------------------------------------------------------------------------
    def primary(self):
        self.skip_ws()
        src, p = self.src, self.pos
        if p >= len(src):
            raise self.error("")
        c = src[p]
        if c == "(":
            self.pos += 1
            if self.accept(")"):
                node = ("list", [])
            else:
                inner = self.expr()
                self.expect(")")
                node = ("paren", inner)
            if self.peek("["):  # a list slice: (LIST)[...]
                self.pos += 1
                idx = self.expr()
                self.expect("]")
                return ("lslice", node, idx)
            return node
        if c == "[":
            self.pos += 1
            items = [] if self.peek("]") else [self.expr()]
            self.expect("]")
            return ("anonarray", items)
        if c == "{":
            self.pos += 1
            items = [] if self.peek("}") else [self.expr()]
            self.expect("}")
            return ("anonhash", items)
        if c == "$":
            return self.scalar_var()
        if c == "@":
            return self.array_var()
        if c == "%":
            return self.hash_var()
        if c == "&":
            self.pos += 1
            if self.accept("$"):
                m = _IDENT.match(src, self.pos)
                self.pos = m.end()
                ref = ("scalar", m.group(0))
            else:
                m = _IDENT.match(src, self.pos)
                if not m:
                    raise self.error()
                self.pos = m.end()
                ref = ("funcname", m.group(0))
            args = None
            if self.accept("("):
                args = [] if self.peek(")") else [self.expr()]
                self.expect(")")
            return ("amp_call", ref, args)
        if c in "'\"`":
            return self.quoted(c)
        if c.isdigit() or (c == "." and src[p + 1:p + 2].isdigit()):
            m = _NUM.match(src, p)
            self.pos = m.end()
            return ("num", _number(m.group(0)))
        if c == "/" or (c == "?" and False):
            self.pos += 1
            return self.match_op("/")
        if c == "<":
            m = re.compile(r"<(\$?\w*)>").match(src, p)
            if m:
                self.pos = m.end()
                name = m.group(1)
                if name in ("", "ARGV"):
                    return ("readline", ("argv",))
                if name == "STDIN":
                    return ("readline", ("stdin",))
                if name.startswith("$"):
                    return ("readline", ("scalar", name[1:]))
                return ("readline", ("bareword", name))
            if src.startswith("<<>>", p):
                self.pos += 4
                return ("readline", ("argv",))
            if src.startswith("<<", p):
                raise self.unsupported("here-documents")
            raise self.unsupported("glob <...>")
        if c == "-" and src[p + 1:p + 2].isalpha():
            self.pos += 1
            m = _IDENT.match(src, self.pos)
            self.pos = m.end()
            return ("str", "-" + m.group(0))
        m = _IDENT.match(src, p)
        if m:
            return self.word(m.group(0))
        raise self.error()

    def scalar_var(self):
        src = self.src
        self.pos += 1
        p = self.pos
        if src.startswith("#", p):  # $#array or $#{expr} / $#$ref
            self.pos += 1
            if self.accept("{"):
                e = self.expr()
                self.expect("}")
                return ("lastidx", ("deref_array", e))
            if src.startswith("$", self.pos):
                inner = self.scalar_var()
                return ("lastidx", ("deref_array", inner))
            m = _IDENT.match(src, self.pos)
            if not m:
                raise self.error()
            self.pos = m.end()
            return ("lastidx", ("array", m.group(0)))
        if src.startswith("$", p) and (src[p + 1:p + 2].isalpha() or src[p + 1:p + 2] in "_{$"):
            inner = self.scalar_var()  # $$ref
            return self.subscripts(("deref_scalar_of", inner))
        if src.startswith("{", p):
            m = re.compile(r"\{\s*(\^?\w+)\s*\}").match(src, p)
            if m:
                self.pos = m.end()
                return self.subscripts(("scalar", m.group(1)))
            self.pos += 1
            e = self.expr()
            self.expect("}")
            return self.subscripts(("deref_scalar_of", e))
        m = _IDENT.match(src, p)
        if m:
            self.pos = m.end()
            return self.subscripts(("scalar", m.group(0)))
        m = re.compile(r"\d+").match(src, p)
        if m:
            self.pos = m.end()
            return ("scalar", m.group(0))
        if p < len(src) and src[p] == "^" and p + 1 < len(src) and src[p + 1].isalpha():
            self.pos = p + 2
            return ("scalar", "^" + src[p + 1])
        if p < len(src) and src[p] in "&`'+!@/\\,;._0<>[]$:?-|\"~%=":
            self.pos = p + 1
            name = src[p]
            if name in "[]":
                raise self.unsupported(f"${name}")
            return self.subscripts(("scalar", name)) if name in "_+-" else ("scalar", name)
        raise self.error()

    def subscripts(self, node):
        """$x[..] and $x{..} right after a scalar name mean an element of @x / %x."""
        src = self.src
        if node[0] == "scalar" and self.pos < len(src):
            if src[self.pos] == "[":
                self.pos += 1
                idx = self.expr()
                self.expect("]")
                return ("aelem", ("array", node[1]), idx)
            if src[self.pos] == "{":
                self.pos += 1
                return ("helem", ("hash", node[1]), self.hash_key())
        if node[0] == "deref_scalar_of" and self.pos < len(src):
            if src[self.pos] == "[":
                self.pos += 1
                idx = self.expr()
                self.expect("]")
                return ("aelem", ("deref_array", node[1]), idx)
            if src[self.pos] == "{":
                self.pos += 1
                return ("helem", ("deref_hash", node[1]), self.hash_key())
        return node

    def array_var(self):
        src = self.src
        self.pos += 1
        p = self.pos
        if src.startswith("{", p):
            self.pos += 1
            e = self.expr()
            self.expect("}")
            base = ("deref_array", e)
        elif src.startswith("$", p):
            inner = self.scalar_var()
            base = ("deref_array", inner)
        else:
            m = _IDENT.match(src, p) or re.compile(r"[_]").match(src, p)
            if not m:
                if src.startswith("-", p) or src.startswith("+", p):
                    self.pos = p + 1
                    return ("array", src[p])
                raise self.error()
            self.pos = m.end()
            base = ("array", m.group(0))
        if self.pos < len(src) and src[self.pos] == "[":
            self.pos += 1
            idx = self.expr()
            self.expect("]")
            return ("aslice", base, idx)
        if self.pos < len(src) and src[self.pos] == "{":
            self.pos += 1
            key = self.expr()
            self.expect("}")
            hb = ("hash", base[1]) if base[0] == "array" else ("deref_hash", base[1])
            return ("hslice", hb, key)
        return base

    def hash_var(self):
        src = self.src
        self.pos += 1
        p = self.pos
        if src.startswith("{", p):
            self.pos += 1
            e = self.expr()
            self.expect("}")
            return ("deref_hash", e)
        if src.startswith("$", p):
            return ("deref_hash", self.scalar_var())
        m = _IDENT.match(src, p)
        if not m:
            if src.startswith("+", p) or src.startswith("-", p):
                self.pos = p + 1
                return ("hash", src[p])
            raise self.error()
        self.pos = m.end()
        return ("hash", m.group(0))

    # -- words: functions, quote-likes, barewords ------------------------------------------------
    def word(self, w: str):
        src = self.src
        after = self.pos + len(w)
        nxt = src[after:after + 1]
        if w in ("q", "qq", "qw", "m", "qr", "s", "tr", "y") and nxt and \
                nxt not in "=,;)" and not (nxt == " " and w in ("s", "y", "q", "m") and
                                          src[after:].lstrip()[:1] in "=,;)"):
            rest = src[after:]
            stripped = rest.lstrip()
            if stripped and not stripped[0].isalnum() and stripped[0] not in "_=,;)" and \
                    not (stripped.startswith("=>")):
                self.pos = after + (len(rest) - len(stripped))
                delim = src[self.pos]
                if w == "q":
                    return ("str", self.delimited(delim)[0])
                if w == "qq":
                    body = self.delimited(delim)[0]
                    return self.interpolate(body, delim != "'")
                if w == "qw":
                    body = self.delimited(delim)[0]
                    return ("list", [("str", x) for x in body.split()])
                if w in ("m", "qr"):
                    return self.match_op(delim, qr=w == "qr", from_m=True)
                if w == "s":
                    return self.subst_op(delim)
                return self.trans_op(delim)
        self.pos = after
        if src.startswith("=>", self.pos) or src[self.pos:].lstrip().startswith("=>"):
            return ("str", w)  # a bareword before => is a string
        if w in ("__FILE__",):
            return ("str", "-e")
        if w == "__LINE__":
            return ("num", self.lineno())
        if w in ("__END__", "__DATA__"):
            self.pos = len(src)
            return ("list", [])
        if w in ("my", "our", "local", "state"):
            return self.declaration(w)
        if w == "sub":
            return ("anonsub", self.block())
        if w == "do":
            if self.peek("{"):
                return ("do_block", self.block())
            raise self.unsupported("do FILE")
        if w == "require":
            return self.require_expr()
        if w == "eval":
            if self.peek("{"):
                return ("eval_block", self.block())
            raise self.unsupported("string eval")
        if w in ("STDIN", "STDOUT", "STDERR", "ARGV"):
            return ("bareword", w)
        if w in ("last", "next", "redo"):
            m = re.compile(r"\s*([A-Z_][A-Z0-9_]*)\b").match(src, self.pos)
            label = None
            if m and m.group(1) not in ("if", "unless"):
                label = m.group(1)
                self.pos = m.end()
            return (w, label)
        if w == "return":
            if self.ends_list():
                return ("return", None)
            return ("return", self.comma_or_single())
        if w in ("print", "printf", "say"):
            if w == "say" and "say" not in self.features:
                raise PerlSyntaxError(
                    f'String found where operator expected at -e line {self.lineno()}, near '
                    f'"say "\n\t(Do you need to predeclare say?)\nsyntax error at -e line '
                    f'{self.lineno()}, near "say "', self.lineno())
            return self.print_op(w)
        if w in ("sort", "map", "grep") or (w in ("first", "any", "all", "none", "sum",
                                                  "reduce") and self.peek("{")):
            return self.block_list_op(w)
        if w == "split":
            return self.split_op()
        if w in ("defined", "exists", "delete", "undef") and self.peek("&"):
            pass
        if w in ("open",):
            args = self.call_args(w)
            return ("func", w, args)
        # generic functions
        if w in NAMED_UNARY:
            if self.accept("("):
                if self.accept(")"):  # eof() is the end of all input; eof, of this file
                    return ("func", w, [("list", [])] if w == "eof" else [])
                arg = self.expr()
                self.expect(")")
                return ("func", w, [arg])
            if self.ends_list() or self.peek_binop() in ("==", "!=", "<", ">", "<=", ">=", "eq",
                                                         "ne", "lt", "gt", "le", "ge", "=",
                                                         "||", "&&", "//", "?", "<=>", "cmp",
                                                         "=~", "!~", "+", "*", ".", "x",
                                                         "..", "-") and not self.peek("-") \
                    and not self.peek("<"):
                return ("func", w, [])
            arg = self.binary(NAMED_UNARY_PREC + 1)
            return ("func", w, [arg])
        if w in LIST_OPS or w in NO_ARG_FUNCS:
            if w in NO_ARG_FUNCS and not self.peek("("):
                return ("func", w, [])
            return ("func", w, self.call_args(w))
        if self.peek("("):
            args = self.call_args(w)
            return ("call", w, args)
        if w in ("and", "or", "not", "xor", "if", "unless", "while", "until", "foreach",
                 "for", "else", "elsif"):
            raise self.error(w)
        # a bareword: a call of a user sub without parentheses, or a string
        if not self.ends_list() and not self.peek_binop() and w[0].islower():
            return ("call", w, [self.comma_or_single()], True)
        return ("bareword", w)

    def comma_or_single(self):
        return self.comma_expr()

    def call_args(self, w: str) -> list:
        if self.accept("("):
            if self.accept(")"):
                return []
            e = self.expr()
            self.expect(")")
            return [e]
        if self.ends_list():
            return []
        return [self.comma_expr()]

    def declaration(self, w: str):
        self.skip_ws()
        kind = {"my": "my", "our": "our", "local": "local", "state": "my"}[w]
        if kind == "local":
            target = self.binary(NAMED_UNARY_PREC + 1) if not self.peek("(") else self.primary()
            return ("local", target)
        if self.accept("("):
            names = []
            while not self.accept(")"):
                self.skip_ws()
                sig = self.src[self.pos]
                if sig not in "$@%":
                    if self.accept("undef"):
                        names.append(("undef", ""))
                        self.accept(",")
                        continue
                    raise self.error()
                self.pos += 1
                m = _IDENT.match(self.src, self.pos)
                if not m:
                    raise self.error()
                self.pos = m.end()
                names.append((sig, m.group(0)))
                self.accept(",")
            return (kind, names, True)
        sig = self.src[self.pos:self.pos + 1]
        if sig not in ("$", "@", "%"):
            raise self.error()
        self.pos += 1
        m = _IDENT.match(self.src, self.pos)
        if not m:
            raise self.error()
        self.pos = m.end()
        return (kind, [(sig, m.group(0))], False)

    def print_op(self, w: str):
        parens = self.accept("(")
        fh = None
        self.skip_ws()
        src, p = self.src, self.pos
        m = re.compile(r"(STDOUT|STDERR|STDIN|[A-Z][A-Z0-9_]*)\b(?!\s*[,(=;.\-]|\s*\)|::)").match(
            src, p)
        if m and m.group(1) not in ("ARGV",):
            fh = ("bareword", m.group(1))
            self.pos = m.end()
        elif src.startswith("{", p):
            self.pos += 1
            fh = self.expr()
            self.expect("}")
        else:
            m = re.compile(r"\$(\w+)\s+(?=[\"'$@\\\w])").match(src, p)
            if m and not re.compile(r"\$\w+\s+(x\b|x=|and\b|or\b|not\b|xor\b|if\b|unless\b|"
                                    r"for\b|foreach\b|while\b|until\b|eq\b|ne\b|lt\b|gt\b|"
                                    r"le\b|ge\b|cmp\b)").match(src, p):
                fh = ("scalar", m.group(1))
                self.pos = p + 1 + len(m.group(1))
        args = []
        if parens:
            if not self.accept(")"):
                args = [self.expr()]
                self.expect(")")
        elif not self.ends_list():
            args = [self.comma_expr()]
        return ("print", w, fh, args)

    def block_list_op(self, w: str):
        parens = self.accept("(")
        self.skip_ws()
        block = None
        cmpfunc = None
        if self.peek("{") and self.looks_like_block():
            block = self.block()
            self.accept(",")
        elif w == "sort" and self.peek("$") and re.compile(r"\$\w+\s+[@(]").match(
                self.src, self.pos):
            cmpfunc = self.scalar_var()
        elif w == "sort" and re.compile(r"[a-z_]\w*\s+[@(]").match(self.src, self.pos) and \
                self.peek_word() not in ("keys", "values", "map", "grep", "reverse", "split",
                                         "sort", "uniq"):
            name = self.peek_word()
            self.accept(name)
            cmpfunc = ("funcname", name)
        elif w in ("map", "grep", "first", "any", "all", "none"):
            expr = self.assign_expr()
            self.expect(",")
            block = [("expr", expr)]
        if parens:
            lst = ("list", []) if self.peek(")") else self.expr()
            self.expect(")")
        else:
            lst = ("list", []) if self.ends_list() else self.comma_expr()
        return ("blockop", w, block, cmpfunc, lst)

    def looks_like_block(self) -> bool:
        """``{`` after map/grep/sort opens a block (``map { $_ => 1 }`` too, as perl guesses)."""
        return True

    def split_op(self):
        parens = self.accept("(")
        self.skip_ws()
        args = []
        if not (parens and self.peek(")")) and not (not parens and self.ends_list()):
            first = self.assign_expr()
            args.append(first)
            while self.accept(",") or self.accept("=>"):
                args.append(self.assign_expr())
        if parens:
            self.expect(")")
        return ("split", args)

    # -- quoting ----------------------------------------------------------------------------------
    def delimited(self, open_ch: str) -> tuple[str, str]:
        """The raw text up to the matching delimiter (brackets nest; escapes are kept)."""
        src = self.src
        close = _PAIRS.get(open_ch, open_ch)
        i = self.pos + 1
        depth = 1
        start = i
        while i < len(src):
            c = src[i]
            if c == "\\" and i + 1 < len(src):
                i += 2
                continue
            if open_ch in _PAIRS and c == open_ch:
                depth += 1
            elif c == close:
                depth -= 1
                if depth == 0:
                    self.pos = i + 1
                    return src[start:i], close
            i += 1
        raise PerlSyntaxError(f"Can't find string terminator \"{close}\" anywhere before EOF at "
                              f"-e line {self.lineno()}.", self.lineno())

    def quoted(self, q: str):
        if q == "`":
            raise self.unsupported("backticks (running commands)")
        body, _ = self.delimited(q)
        if q == "'":
            return ("str", _single_unescape(body, "'"))
        return self.interpolate(body, True)

    def interpolate(self, body: str, interp: bool, regex: bool = False):
        """A double-quoted body: ("interp", parts) or ("str", text)."""
        if not interp:
            return ("str", body)
        parts = parse_interpolated(body, self, regex)
        if all(p[0] == "str" for p in parts):
            return ("str", "".join(p[1] for p in parts))
        return ("interp", parts)

    def match_op(self, delim: str, qr: bool = False, from_m: bool = False):
        if not from_m:
            self.pos -= 1
        body, _ = self.delimited(delim)
        flags = self.regex_flags("msixpodualngcr")
        pat = self.interpolate(body, delim != "'", regex=True)
        if qr:
            return ("qr", pat, flags)
        return ("match", pat, flags)

    def regex_flags(self, allowed: str) -> str:
        m = re.compile(r"[a-zA-Z]*").match(self.src, self.pos)
        flags = m.group(0)
        self.pos = m.end()
        for f in flags:
            if f not in allowed:
                if f == "e" and "e" not in allowed:
                    pass
                raise PerlSyntaxError(f'Unknown regexp modifier "/{f}" at -e line '
                                      f'{self.lineno()}, at end of line', self.lineno())
        return flags

    def subst_op(self, delim: str):
        pat_body, _ = self.delimited(delim)
        if delim in _PAIRS:
            self.skip_ws()
            d2 = self.src[self.pos]
            repl_body, _ = self.delimited(d2)
        else:
            self.pos -= 1
            repl_body, _ = self.delimited(delim)
        flags = self.regex_flags("msixpodualngcre")
        if flags.count("e") > 1:
            raise self.unsupported("s///ee (the replacement's value evaluated as a string)")
        pat = self.interpolate(pat_body, delim != "'", regex=True)
        if "e" in flags:  # the replacement is code, run as a block for each match
            sub = Parser("{" + repl_body + "}", self.lineno(), self.features)
            repl = ("do_block", sub.block())
            if not sub.at_end():
                raise sub.error()
        else:
            repl = self.interpolate(repl_body, delim != "'")
        return ("subst", pat, repl, flags)

    def trans_op(self, delim: str):
        from_body, _ = self.delimited(delim)
        if delim in _PAIRS:
            self.skip_ws()
            to_body, _ = self.delimited(self.src[self.pos])
        else:
            self.pos -= 1
            to_body, _ = self.delimited(delim)
        flags = self.regex_flags("cdsr")
        return ("trans", _tr_expand(from_body), _tr_expand(to_body), flags)


# ----------------------------------------------------------------------------- helpers
def _number(text: str):
    t = text.replace("_", "")
    low = t.lower()
    if low.startswith("0x"):
        return int(low[2:], 16)
    if low.startswith("0b"):
        return int(low[2:], 2)
    if re.fullmatch(r"0[0-7]+", t):
        return int(t, 8)
    if re.fullmatch(r"\d+", t):
        return int(t)
    return float(t)


def _single_unescape(body: str, q: str) -> str:
    out = []
    i = 0
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body) and body[i + 1] in ("\\", q):
            out.append(body[i + 1])
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "f": "\f", "a": "\a", "e": "\x1b", "0": "\0",
            "b": "\b"}


def _tr_expand(body: str) -> str:
    """tr/// lists: escapes and a-z ranges expanded into the characters."""
    chars: list[tuple[str, bool]] = []  # (character, escaped)
    i = 0
    n = len(body)
    while i < n:
        c = body[i]
        if c == "\\" and i + 1 < n:
            d = body[i + 1]
            if d in _ESCAPES:
                chars.append((_ESCAPES[d], True))
            elif d == "x":
                m = re.compile(r"\{([0-9a-fA-F]+)\}|([0-9a-fA-F]{1,2})").match(body, i + 2)
                if m:
                    chars.append((chr(int(m.group(1) or m.group(2), 16)), True))
                    i = m.end()
                    continue
                chars.append(("\0", True))
            else:
                chars.append((d, True))
            i += 2
            continue
        chars.append((c, False))
        i += 1
    out = []
    k = 0
    while k < len(chars):
        c = chars[k][0]
        if k + 2 < len(chars) and chars[k + 1] == ("-", False):
            a, b = ord(c), ord(chars[k + 2][0])
            if b < a:
                raise Unsupported(f'Invalid range "{c}-{chars[k + 2][0]}" in transliteration '
                                  "operator")
            out.extend(chr(x) for x in range(a, b + 1))
            k += 3
            continue
        out.append(c)
        k += 1
    return "".join(out)


def _find_close(s: str, i: int, open_ch: str, close_ch: str) -> int:
    """Index of the bracket closing the one at s[i], or -1."""
    depth = 0
    j = i
    while j < len(s):
        c = s[j]
        if c == "\\":
            j += 2
            continue
        if c == open_ch:
            depth += 1
        elif c == close_ch:
            depth -= 1
            if depth == 0:
                return j
        j += 1
    return -1


def parse_interpolated(body: str, parser: Parser, regex: bool) -> list:
    """Literal text and embedded variables of a double-quoted string or a pattern.

    In a pattern, backslash escapes stay for the regex engine; in a string they are
    turned into characters. \\U \\L \\u \\l \\Q \\E become case/quote markers.
    """
    parts: list = []
    lit: list[str] = []
    i = 0
    n = len(body)

    def flush():
        if lit:
            parts.append(("str", "".join(lit)))
            lit.clear()

    while i < n:
        c = body[i]
        if c == "\\" and i + 1 < n:
            d = body[i + 1]
            if d in "ULQEul":
                flush()
                parts.append(("case", d))
                i += 2
                continue
            if regex:
                lit.append(body[i:i + 2])
                i += 2
                continue
            if d in _ESCAPES:
                lit.append(_ESCAPES[d])
                i += 2
                continue
            if d == "x":
                m = re.compile(r"\{([0-9a-fA-F]*)\}|([0-9a-fA-F]{1,2})").match(body, i + 2)
                if m:
                    lit.append(chr(int(m.group(1) or m.group(2) or "0", 16)))
                    i = m.end()
                    continue
                lit.append("\0")
                i += 2
                continue
            if d.isdigit():
                m = re.compile(r"[0-7]{1,3}").match(body, i + 1)
                lit.append(chr(int(m.group(0), 8)))
                i = m.end()
                continue
            if d == "c" and i + 2 < n:
                lit.append(chr(ord(body[i + 2].upper()) ^ 64))
                i += 3
                continue
            if d == "N" and body[i + 2:i + 4] == "{U":
                m = re.compile(r"\{U\+([0-9a-fA-F]+)\}").match(body, i + 2)
                if m:
                    lit.append(chr(int(m.group(1), 16)))
                    i = m.end()
                    continue
            lit.append(d)
            i += 2
            continue
        if c in "$@" and i + 1 < n:
            end = _var_extent(body, i, regex)
            if end > i + 1:
                text = body[i:end]
                flush()
                sub = Parser(text, parser.lineno(), parser.features)
                try:
                    node = sub.expr()
                    if not sub.at_end():
                        raise sub.error()
                except (PerlSyntaxError, Unsupported):
                    lit.append(text)
                    i = end
                    continue
                parts.append(("join_array", node) if c == "@" else ("scalar_value", node))
                i = end
                continue
        lit.append(c)
        i += 1
    flush()
    return parts


def _var_extent(s: str, i: int, regex: bool) -> int:
    """Where the variable expression starting at s[i] ($ or @) ends (i+1 if it is none)."""
    n = len(s)
    sigil = s[i]
    j = i + 1
    if j >= n:
        return i + 1
    c = s[j]
    if sigil == "$" and regex and (c in ")|" or j == n):
        return i + 1  # an end-of-line anchor
    if sigil == "$" and c == "#" and j + 1 < n and (s[j + 1].isalpha() or s[j + 1] in "_{$"):
        j += 1  # $#array, $#{expr}, $#$ref
        c = s[j]
        if c == "{":
            k = _find_close(s, j, "{", "}")
            return i + 1 if k < 0 else k + 1
        if c == "$":
            j += 1
        m = _IDENT.match(s, j)
        return m.end() if m else i + 1
    if c == "{":
        k = _find_close(s, j, "{", "}")
        if k < 0:
            return i + 1
        j = k + 1
    elif c == "$" and j + 1 < n and (s[j + 1].isalpha() or s[j + 1] == "_"):
        m = _IDENT.match(s, j + 1)
        j = m.end()
    elif c.isalpha() or c == "_":
        m = re.compile(r"[A-Za-z_]\w*(?:::\w+)*").match(s, j)
        j = m.end()
    elif c.isdigit() and sigil == "$":
        m = re.compile(r"\d+").match(s, j)
        j = m.end()
        return j
    elif sigil == "$" and c in "&`'+!/\\,;.0-@":
        if regex and c in "!/\\,;.'`-@":
            return i + 1
        if c in "+-" and j + 1 < n and s[j + 1] in "{[":
            j += 1  # $+{name}, $-[0]: subscripts follow
        else:
            return j + 1
    elif sigil == "@" and c == "{":
        pass
    else:
        return i + 1
    if sigil == "@" and not (s[i + 1].isalpha() or s[i + 1] in "_{$"):
        return i + 1
    # subscripts
    while j < n:
        if s[j] == "[":
            k = _find_close(s, j, "[", "]")
            if k < 0:
                break
            inner = s[j + 1:k]
            if regex and not re.fullmatch(r"\s*-?\d+\s*|\s*\$\w+\s*", inner):
                break  # a character class
            j = k + 1
        elif s[j] == "{":
            k = _find_close(s, j, "{", "}")
            if k < 0:
                break
            inner = s[j + 1:k]
            if regex and re.fullmatch(r"\s*\d*\s*,?\s*\d*\s*", inner):
                break  # a quantifier
            j = k + 1
        elif s.startswith("->", j) and j + 2 < n and s[j + 2] in "[{":
            j += 2
        else:
            break
    return j
