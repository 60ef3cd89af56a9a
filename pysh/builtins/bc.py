"""bc: the arbitrary-precision calculator language (GNU bc 1.07.1 behaviour).

Like GNU bc, the program is compiled line by line (or function by function)
to GNU's stack-machine code and run; runtime errors and warnings name the same
function and code address GNU reports (``Runtime error (func=(main), adr=3):
Divide by zero``). ``-l`` defines ``s c a l e j`` with GNU's algorithms and
sets ``scale=20``. Output lines are split with a backslash at
``BC_LINE_LENGTH`` (default 70) like GNU bc. ``quit`` is honoured when read,
``halt`` when run.
"""

from __future__ import annotations

import errno

from pysh.builtins import _misc_bcnum as N
from pysh.builtins._misc_util import Out, print_help
from pysh.shellkit import FileSystemError, Shell
from pysh.shellkit.text import decode, encode

HELP = """\
usage: bc [options] [file ...]
  -h  --help         print this usage and exit
  -i  --interactive  force interactive mode
  -l  --mathlib      use the predefined math routines
  -q  --quiet        don't print initial banner
  -s  --standard     non-standard bc constructs are errors
  -w  --warn         warn about non-standard bc constructs
  -v  --version      print version information and exit
"""

VERSION = """bc 1.07.1
Copyright 1991-1994, 1997, 1998, 2000, 2004, 2006, 2008, 2012-2017 Free Software Foundation, Inc.
"""

KEYWORDS = {"define", "break", "quit", "length", "return", "for", "if", "while", "sqrt",
            "else", "scale", "ibase", "obase", "auto", "read", "random", "warranty", "halt",
            "last", "continue", "print", "limits", "void"}

BC_BASE_MAX = 2147483647
BC_SCALE_MAX = 2147483647
BC_DIM_MAX = 16777215
MAX_IBASE = 36


class Quit(Exception):
    pass


class Halt(Exception):
    pass


class SyntaxErr(Exception):
    def __init__(self, msg: str = "syntax error", line: int | None = None):
        super().__init__(msg)
        self.msg = msg
        self.line = line


# ------------------------------------------------------------------- lexer
class Tok:
    __slots__ = ("kind", "text", "line")

    def __init__(self, kind: str, text: str, line: int):
        self.kind, self.text, self.line = kind, text, line

    def __repr__(self) -> str:
        return f"Tok({self.kind},{self.text!r})"


class Lexer:
    """scan.l: tokens with the line number counted after each token is read."""

    def __init__(self, src: str, on_error=None):
        self.s = src
        self.i = 0
        self.line = 1
        self.on_error = on_error

    def next(self) -> Tok:
        s = self.s
        n = len(s)
        while True:
            if self.i >= n:
                return Tok("EOF", "", 1)  # GNU's line count restarts at the end of input
            c = s[self.i]
            if c in " \t\r\f\v":
                self.i += 1
                continue
            if c == "\\" and self.i + 1 < n and s[self.i + 1] == "\n":
                self.i += 2
                self.line += 1
                continue
            if c == "#":
                while self.i < n and s[self.i] != "\n":
                    self.i += 1
                continue
            if c == "/" and s.startswith("/*", self.i):
                end = s.find("*/", self.i + 2)
                if end < 0:
                    self.line += s.count("\n", self.i)
                    self.i = n
                    if self.on_error is not None:
                        self.on_error(None, self.line)
                    return Tok("EOF", "", 1)
                self.line += s.count("\n", self.i, end)
                self.i = end + 2
                continue
            break
        if c == "\n":
            self.i += 1
            self.line += 1
            return Tok("NL", "\n", self.line)
        if c == '"':
            end = s.find('"', self.i + 1)
            if end < 0:
                self.i += 1
                if self.on_error is not None:
                    self.on_error('illegal character: "', self.line)
                    return self.next()
                raise SyntaxErr('illegal character: "', self.line)
            text = s[self.i + 1:end]
            self.line += text.count("\n")
            self.i = end + 1
            return Tok("STRING", text, self.line)
        if c.isdigit() or ("A" <= c <= "Z") or (c == "." and self._digit_after(self.i + 1)):
            return self._number()
        if "a" <= c <= "z":
            j = self.i
            while j < n and (("a" <= s[j] <= "z") or s[j].isdigit() or s[j] == "_"):
                j += 1
            word = s[self.i:j]
            self.i = j
            if word in KEYWORDS:
                return Tok(word, word, self.line)
            return Tok("NAME", word, self.line)
        two = s[self.i:self.i + 2]
        if two in ("==", "<=", ">=", "!="):
            self.i += 2
            return Tok("REL", two, self.line)
        if two in ("+=", "-=", "*=", "/=", "%=", "^="):
            self.i += 2
            return Tok("ASSIGN", two[0], self.line)
        if two in ("++", "--"):
            self.i += 2
            return Tok("INCR", two[0], self.line)
        if two == "&&":
            self.i += 2
            return Tok("AND", two, self.line)
        if two == "||":
            self.i += 2
            return Tok("OR", two, self.line)
        self.i += 1
        if c in "<>":
            return Tok("REL", c, self.line)
        if c == "=":
            return Tok("ASSIGN", "=", self.line)
        if c == "!":
            return Tok("NOT", c, self.line)
        if c == ".":
            return Tok("last", ".", self.line)
        if c in "+-*/%^()[]{},;&":
            return Tok(c, c, self.line)
        if self.on_error is not None:
            self.on_error(f"illegal character: {c}", self.line)
            return self.next()
        raise SyntaxErr(f"illegal character: {c}", self.line)

    def _digit_after(self, j: int) -> bool:
        s = self.s
        while j + 1 < len(s) and s[j] == "\\" and s[j + 1] == "\n":
            j += 2
        return j < len(s) and (s[j].isdigit() or "A" <= s[j] <= "Z")

    def _number(self) -> Tok:
        s = self.s
        n = len(s)
        out = []
        seen_dot = False
        while self.i < n:
            c = s[self.i]
            if c.isdigit() or "A" <= c <= "Z":
                out.append(c)
                self.i += 1
            elif c == "." and not seen_dot:
                seen_dot = True
                out.append(c)
                self.i += 1
            elif c == "\\" and self.i + 1 < n and s[self.i + 1] == "\n":
                self.i += 2
                self.line += 1
            else:
                break
        text = "".join(out)
        if text.endswith("."):
            text = text[:-1]
        stripped = text.lstrip("0") or "0"
        return Tok("NUMBER", stripped, self.line)


# ----------------------------------------------------------------- codegen
class Instr:
    __slots__ = ("op", "arg", "addr", "end")

    def __init__(self, op: str, arg, addr: int, end: int):
        self.op, self.arg, self.addr, self.end = op, arg, addr, end


class Code:
    """A code segment being loaded (load.c): instructions with GNU byte addresses."""

    def __init__(self):
        self.ins: list[Instr] = []
        self.labels: dict[int, int] = {}  # label -> instruction index
        self.size = 0

    def _add(self, op: str, arg, nbytes: int) -> None:
        self.ins.append(Instr(op, arg, self.size, self.size + nbytes))
        self.size += nbytes

    def op(self, op: str) -> None:
        self._add(op, None, 1)

    def const(self, text: str) -> None:
        if text == "0":
            self._add("0", None, 1)
        elif text == "1":
            self._add("1", None, 1)
        else:
            self._add("K", text, 2 + len(text))

    def var(self, op: str, idx: int, name: str) -> None:
        self._add(op, name, 2 if idx < 128 else 3)

    def jump(self, op: str, label: int) -> None:
        self._add(op, label, 3)

    def label(self, label: int) -> None:
        self.labels[label] = len(self.ins)

    def call(self, fname: str, fnum: int, argtypes: str) -> None:
        self._add("C", (fname, argtypes), 1 + (1 if fnum < 128 else 2) + len(argtypes) + 1)

    def array_ref(self, name: str, idx: int) -> None:
        self._add("KA", name, 2 + len(str(idx)))

    def special(self, which: str) -> None:
        self._add("c", which, 2)

    def string(self, op: str, text: str) -> None:
        self._add(op, text, 1 + len(encode(text)) + 1)


class Function:
    def __init__(self, name: str):
        self.name = name
        self.params: list[tuple[str, bool, bool]] = []  # (name, is_array, by_reference)
        self.autos: list[tuple[str, bool]] = []
        self.code: Code | None = None
        self.void = False
        self.native = None  # a Python implementation (the math library)

    @property
    def defined(self) -> bool:
        return self.code is not None or self.native is not None


EX_ASSGN, EX_REG, EX_COMP, EX_PAREN, EX_VOID, EX_EMPTY = 0, 1, 2, 4, 8, 16


class Parser:
    """bc.y as recursive descent with yacc's precedences; emits GNU's code."""

    PREC = {"OR": 1, "AND": 2, "REL": 4, "+": 6, "-": 6, "*": 7, "/": 7, "%": 7, "^": 8}

    def __init__(self, vm: VM, src: str, fname: str):
        self.vm = vm
        self.had_error = False
        self.errflag = 0
        self.ntok = 0
        self.lex = Lexer(src, self._lex_error)
        self.fname = fname
        self.tok = None
        self.code: Code = Code()
        self.cur_func: Function | None = None
        self.break_label = 0
        self.continue_label = 0
        self.if_label = 0
        self.next_label = 1
        self.advance()

    def semantic(self, msg: str, line: int | None = None) -> None:
        """A yyerror() from a grammar action: reported, the item is not run, parsing goes on."""
        self.vm.errbuf.append(f"{self.fname} {line if line is not None else self.tok.line}: "
                              f"{msg}\n")
        self.had_error = True

    def report_syntax(self, e: SyntaxErr) -> None:
        """yacc's report: only when three tokens were shifted since the last error."""
        if self.errflag == 0:
            line = e.line if e.line is not None else self.tok.line
            self.vm.errbuf.append(f"{self.fname} {line}: {e.msg}\n")
        self.errflag = 3
        self.had_error = True

    STARTS = {"NUMBER", "NAME", "STRING", "(", "-", "NOT", "INCR", "{", "ibase", "obase",
              "scale", "last", "length", "sqrt", "read", "random", "if", "while", "for",
              "break", "continue", "quit", "halt", "return", "print", "limits", "warranty"}

    def discard_until(self, stops: set[str]) -> str:
        """yacc error recovery: drop tokens until one of ``stops`` (or EOF)."""
        while self.kind() not in stops and self.kind() != "EOF":
            self.tok = self.lex.next()
            self.ntok += 1
        return self.kind()

    def _lex_error(self, msg: str | None, line: int) -> None:
        if msg is None:
            self.vm.errbuf.append("EOF encountered in a comment.\n")
        else:
            self.vm.errbuf.append(f"{self.fname} {line}: {msg}\n")
        self.had_error = True

    def advance(self) -> Tok:
        prev = self.tok
        self.tok = self.lex.next()
        self.ntok += 1
        if self.errflag:
            self.errflag -= 1
        return prev

    def kind(self) -> str:
        return self.tok.kind

    def expect(self, kind: str) -> Tok:
        if self.tok.kind != kind:
            raise SyntaxErr(line=self.tok.line)
        return self.advance()

    def error(self, msg: str = "syntax error") -> SyntaxErr:
        return SyntaxErr(msg, self.tok.line)

    # ---- input items: one line or one function at a time
    def next_item(self):
        """Parse the next input item: ('code', Code) | ('func', None) | ('eof', None)."""
        while True:
            if self.kind() == "EOF":
                return "eof", None
            if self.kind() == "define":
                self.had_error = False
                self.function()
                return "func", None
            self.code = Code()
            self.next_label = 1
            start = self.ntok
            self.semicolon_list()
            if self.kind() == "NL":
                self.advance()
            elif self.kind() == "EOF":
                if self.ntok != start or self.had_error:
                    # an item must end with a newline: GNU reports the end of input
                    raise SyntaxErr(line=1)
            else:
                raise self.error()
            return "code", self.code

    def reset_labels(self) -> None:
        if self.cur_func is None:
            self.break_label = self.continue_label = self.if_label = 0

    def skip_line(self) -> None:
        while self.kind() not in ("NL", "EOF"):
            try:
                self.advance()
            except SyntaxErr:
                continue
        if self.kind() == "NL":
            self.advance()

    def semicolon_list(self) -> None:
        while True:
            if self.kind() in ("NL", "EOF"):
                return
            if self.kind() == ";":
                self.advance()
                continue
            try:
                self.statement()
                if self.kind() == ";":
                    self.advance()
                    continue
                if self.kind() in ("NL", "EOF"):
                    return
                raise self.error()
            except SyntaxErr as e:
                self.report_syntax(e)
                self.reset_labels()
                k = self.discard_until(self.STARTS | {"NL"})
                if k == "NL":
                    self.errflag = 0  # input_item: error ENDOFLINE { yyerrok; }
                    return
                if k == "EOF":
                    return

    def statement_list(self) -> None:
        """Statements separated by newlines or semicolons, up to a '}'."""
        while True:
            k = self.kind()
            if k in ("NL", ";"):
                self.advance()
                continue
            if k == "}" or k == "EOF":
                return
            try:
                self.statement()
                if self.kind() not in ("NL", ";", "}"):
                    raise self.error()
            except SyntaxErr as e:
                self.report_syntax(e)
                if self.discard_until(self.STARTS) == "EOF":
                    raise SyntaxErr(line=self.tok.line) from None

    def opt_newline(self) -> None:
        if self.kind() == "NL":
            self.advance()

    def statement(self) -> None:
        c = self.code
        k = self.kind()
        if k == "warranty":
            self.advance()
            self.vm.output_text("bc 1.07.1\n")
            return
        if k == "limits":
            self.advance()
            self.vm.output_text(
                f"BC_BASE_MAX     = {BC_BASE_MAX}\nBC_DIM_MAX      = {BC_DIM_MAX}\n"
                f"BC_SCALE_MAX    = {BC_SCALE_MAX}\nBC_STRING_MAX   = 2147483647\n"
                "MAX Exponent    = 9223372036854775807\nNumber of vars  = 32767\n")
            return
        if k == "STRING":
            t = self.advance()
            c.string("w", t.text)
            return
        if k == "break":
            line = self.tok.line
            self.advance()
            if self.break_label == 0:
                self.semantic("Break outside a for/while", line)
            else:
                c.jump("J", self.break_label)
            return
        if k == "continue":
            line = self.tok.line
            self.advance()
            if self.continue_label == 0:
                self.semantic("Continue outside a for", line)
            else:
                c.jump("J", self.continue_label)
            return
        if k == "quit":
            self.advance()
            raise Quit()
        if k == "halt":
            self.advance()
            c.op("h")
            return
        if k == "return":
            self.advance()
            if self.kind() in ("NL", ";", "}", "EOF"):
                c.op("0")
                if self.cur_func is None:
                    self.semantic("Return outside of a function.")
            else:
                flags = self.expression()
                if flags & EX_VOID:
                    self.semantic("return requires non-void expression")
                if self.cur_func is None:
                    self.semantic("Return outside of a function.")
                elif self.cur_func.void:
                    self.semantic("Return expression in a void function.")
            c.op("R")
            return
        if k == "for":
            self.for_statement()
            return
        if k == "if":
            self.advance()
            self.expect("(")
            flags = self.expression()
            self.expect(")")
            if flags & EX_VOID:
                self.semantic("void expression")
            saved = self.if_label
            self.if_label = self.next_label
            self.next_label += 1
            c.jump("Z", self.if_label)
            self.opt_newline()
            self.statement()
            if self.kind() == "else":
                self.advance()
                lab = self.next_label
                self.next_label += 1
                c.jump("J", lab)
                c.label(self.if_label)
                self.if_label = lab
                self.opt_newline()
                self.statement()
            c.label(self.if_label)
            self.if_label = saved
            return
        if k == "while":
            self.advance()
            saved_c = self.continue_label
            self.continue_label = self.next_label
            self.next_label += 1
            c.label(self.continue_label)
            self.expect("(")
            flags = self.expression()
            if flags & EX_VOID:
                self.semantic("void expression")
            saved_b = self.break_label
            self.break_label = self.next_label
            self.next_label += 1
            c.jump("Z", self.break_label)
            self.expect(")")
            self.opt_newline()
            self.statement()
            c.jump("J", self.continue_label)
            c.label(self.break_label)
            self.break_label = saved_b
            self.continue_label = saved_c
            return
        if k == "{":
            self.advance()
            self.statement_list()
            self.expect("}")
            return
        if k == "print":
            self.advance()
            while True:
                if self.kind() == "STRING":
                    t = self.advance()
                    c.string("O", t.text)
                else:
                    flags = self.expression()
                    if flags & EX_VOID:
                        self.semantic("void expression in print")
                    c.op("P")
                if self.kind() == ",":
                    self.advance()
                    continue
                break
            return
        flags = self.expression()
        if flags & EX_REG:
            c.op("W")
        else:
            c.op("p")

    def for_statement(self) -> None:
        c = self.code
        self.advance()
        saved_b = self.break_label
        self.break_label = self.next_label
        self.next_label += 1
        self.expect("(")
        f1 = self.opt_expression(";")
        self.expect(";")
        if f1 & EX_VOID:
            self.semantic("first expression is void")
        if not f1 & EX_EMPTY:
            c.op("p")
        l4 = self.next_label
        self.next_label += 1
        c.label(l4)
        f2 = self.opt_expression(";")
        self.expect(";")
        if f2 & EX_VOID:
            self.semantic("second expression is void")
        if f2 & EX_EMPTY:
            c.op("1")
        l7 = self.next_label
        self.next_label += 1
        c.jump("B", l7)
        c.jump("J", self.break_label)
        saved_c = self.continue_label
        self.continue_label = self.next_label
        self.next_label += 1
        c.label(self.continue_label)
        f3 = self.opt_expression(")")
        self.expect(")")
        if f3 & EX_VOID:
            self.semantic("third expression is void")
        if not f3 & EX_EMPTY:
            c.op("p")
        c.jump("J", l4)
        c.label(l7)
        self.opt_newline()
        self.statement()
        c.jump("J", self.continue_label)
        c.label(self.break_label)
        self.break_label = saved_b
        self.continue_label = saved_c

    def opt_expression(self, stop: str) -> int:
        if self.kind() == stop:
            return EX_EMPTY
        return self.expression()

    # ---- functions
    def function(self) -> None:
        self.advance()  # define
        void = False
        if self.kind() == "void":
            self.advance()
            void = True
        name = self.expect("NAME").text
        self.expect("(")
        params = []
        if self.kind() != ")":
            params = self.define_list(allow_ref=True)
        self.expect(")")
        self.opt_newline()
        self.expect("{")
        while self.kind() == "NL":
            self.advance()
        autos: list = []
        if self.kind() == "auto":
            self.advance()
            autos = [(n, a) for n, a, _ in self.define_list(allow_ref=False)]
            if self.kind() in ("NL", ";"):
                self.advance()
            else:
                raise self.error()
        names = [p[0] + ("[]" if p[1] else "") for p in params]
        for a in autos:
            key = a[0] + ("[]" if a[1] else "")
            if key in names:
                self.semantic(f"duplicate parameter names in function {name}")
        func = Function(name)
        func.params = params
        func.autos = autos
        func.void = void
        self.vm.function_number(name)
        saved = (self.code, self.cur_func, self.next_label, self.break_label,
                 self.continue_label, self.if_label)
        self.code = Code()
        self.cur_func = func
        self.next_label = 1
        self.break_label = self.continue_label = self.if_label = 0
        try:
            self.statement_list()
            self.expect("}")
            self.code.op("0")
            self.code.op("R")
            func.code = self.code
        finally:
            (self.code, self.cur_func, self.next_label, self.break_label,
             self.continue_label, self.if_label) = saved
        if not self.had_error:
            self.vm.functions[name] = func

    def define_list(self, allow_ref: bool) -> list[tuple[str, bool, bool]]:
        out = []
        while True:
            ref = False
            if allow_ref and self.kind() in ("*", "&"):
                self.advance()
                ref = True
            name = self.expect("NAME").text
            is_array = False
            if self.kind() == "[":
                self.advance()
                self.expect("]")
                is_array = True
            elif ref:
                raise self.error()
            out.append((name, is_array, ref))
            if self.kind() != ",":
                return out
            self.advance()

    # ---- expressions
    def expression(self, min_prec: int = 0) -> int:
        c = self.code
        flags = self.unary()
        while True:
            k = self.kind()
            if k == "REL":
                op = self.tok.text
            elif k in self.PREC:
                op = k
            else:
                return flags
            p = self.PREC[k]
            if p < min_prec:
                return flags
            self.advance()
            if k == "AND":
                lab = self.next_label
                self.next_label += 1
                c.op("D")
                c.jump("Z", lab)
                c.op("p")
                rhs = self.expression(p + 1)
                if (flags | rhs) & EX_VOID:
                    self.semantic("void expression with &&")
                c.op("D")
                c.jump("Z", lab)
                c.op("p")
                c.op("1")
                c.label(lab)
                flags = (flags | rhs) & ~EX_PAREN
                continue
            if k == "OR":
                lab = self.next_label
                self.next_label += 1
                c.jump("B", lab)
                rhs = self.expression(p + 1)
                if (flags | rhs) & EX_VOID:
                    self.semantic("void expression with ||")
                tmp = self.next_label
                self.next_label += 1
                c.jump("B", lab)
                c.op("0")
                c.jump("J", tmp)
                c.label(lab)
                c.op("1")
                c.label(tmp)
                flags = (flags | rhs) & ~EX_PAREN
                continue
            rhs = self.expression(p if k == "^" else p + 1)
            if (flags | rhs) & EX_VOID:
                self.semantic(f"void expression with {op}")
            if k == "REL":
                c.op({"==": "=", "!=": "#", "<": "<", "<=": "{", ">": ">", ">=": "}"}[op])
                flags = EX_REG | EX_COMP
            else:
                c.op(k)
                flags = (flags | rhs) & ~EX_PAREN

    def unary(self) -> int:
        c = self.code
        k = self.kind()
        if k == "NOT":
            self.advance()
            flags = self.expression(4)  # operators above NOT's precedence
            if flags & EX_VOID:
                self.semantic("void expression with !")
            c.op("!")
            return flags & ~EX_PAREN
        if k == "-":
            self.advance()
            flags = self.unary_operand()
            if flags & EX_VOID:
                self.semantic("void expression with unary -")
            c.op("n")
            return flags & ~EX_PAREN
        return self.primary()

    def unary_operand(self) -> int:
        """The operand of unary minus: binds tighter than every binary operator."""
        return self.unary()

    def named(self):
        """named_expression: ('var'|'array', name) with code for a subscript emitted."""
        k = self.kind()
        if k in ("ibase", "obase", "scale", "last"):
            self.advance()
            return ("var", k)
        t = self.expect("NAME")
        if self.kind() == "[":
            self.advance()
            flags = self.expression()
            if flags & EX_VOID:
                self.semantic("void expression as subscript")
            self.expect("]")
            return ("array", t.text)
        return ("var", t.text)

    def _var_op(self, op: str, target) -> None:
        kind, name = target
        if kind == "array":
            self.code.var(op.upper() if op in "ls" else op, self.vm.array_index(name), name)
        else:
            self.code.var(op, self.vm.var_index(name), name)

    def primary(self) -> int:
        c = self.code
        k = self.kind()
        if k == "NUMBER":
            t = self.advance()
            c.const(t.text)
            return EX_REG
        if k == "(":
            self.advance()
            flags = self.expression()
            self.expect(")")
            if flags & EX_VOID:
                self.semantic("void expression in parenthesis")
            return flags | EX_REG | EX_PAREN
        if k in ("length", "sqrt") or (k == "scale" and self._peek_paren()):
            self.advance()
            self.expect("(")
            flags = self.expression()
            self.expect(")")
            if flags & EX_VOID:
                self.semantic(f"void expression in {k}()")
            c.special({"length": "L", "sqrt": "R", "scale": "S"}[k])
            return EX_REG
        if k in ("read", "random"):
            self.advance()
            self.expect("(")
            self.expect(")")
            c.special("I" if k == "read" else "X")
            return EX_REG
        if k == "INCR":
            op = self.advance().text
            target = self.named()
            kind, name = target
            if kind == "array":
                idx = self.vm.array_index(name)
                c.op("D")
                c.var("A" if op == "+" else "M", idx, name)
                c.var("L", idx, name)
            else:
                idx = self.vm.var_index(name)
                c.var("i" if op == "+" else "d", idx, name)
                c.var("l", idx, name)
            return EX_REG
        if k == "NAME" and self._peek_call():
            name = self.advance().text
            self.expect("(")
            argtypes = []
            if self.kind() != ")":
                while True:
                    if self.kind() == "NAME" and self._peek_array_arg():
                        aname = self.advance().text
                        self.expect("[")
                        self.expect("]")
                        c.array_ref(aname, self.vm.array_index(aname))
                        argtypes.append("1")
                    else:
                        flags = self.expression()
                        if flags & EX_VOID:
                            self.semantic("void argument")
                        argtypes.append("0")
                    if self.kind() == ",":
                        self.advance()
                        continue
                    break
            self.expect(")")
            fnum = self.vm.function_number(name)
            c.call(name, fnum, "".join(argtypes))
            func = self.vm.functions.get(name)
            return EX_VOID if (func is not None and func.void) else EX_REG
        if k in ("NAME", "ibase", "obase", "scale", "last"):
            target = self.named()
            kind, name = target
            if self.kind() == "ASSIGN":
                op = self.advance().text
                if op != "=":
                    if kind == "array":
                        c.op("D")
                        c.var("L", self.vm.array_index(name), name)
                    else:
                        c.var("l", self.vm.var_index(name), name)
                rhs = self.expression(5)
                if rhs & EX_VOID:
                    self.semantic("Assignment of a void expression")
                if op != "=":
                    c.op(op)
                if kind == "array":
                    c.var("S", self.vm.array_index(name), name)
                else:
                    c.var("s", self.vm.var_index(name), name)
                return EX_ASSGN
            if self.kind() == "INCR":
                op = self.advance().text
                if kind == "array":
                    idx = self.vm.array_index(name)
                    c.op("D")
                    c.var("L", idx, name)
                    c.op("x")
                    c.var("A" if op == "+" else "M", idx, name)
                else:
                    idx = self.vm.var_index(name)
                    c.var("l", idx, name)
                    c.var("i" if op == "+" else "d", idx, name)
                return EX_REG
            if kind == "array":
                c.var("L", self.vm.array_index(name), name)
            else:
                c.var("l", self.vm.var_index(name), name)
            return EX_REG
        raise self.error()

    def _peek(self, k: int = 1) -> Tok:
        save = (self.lex.i, self.lex.line)
        tok = None
        try:
            for _ in range(k):
                tok = self.lex.next()
        except SyntaxErr:
            tok = Tok("ERR", "", self.lex.line)
        self.lex.i, self.lex.line = save
        return tok

    def _peek_paren(self) -> bool:
        return self._peek().kind == "("

    def _peek_call(self) -> bool:
        return self._peek().kind == "("

    def _peek_array_arg(self) -> bool:
        return self._peek(1).kind == "[" and self._peek(2).kind == "]"


# ---------------------------------------------------------------------- VM
class RuntimeErr(Exception):
    pass


class VM:
    def __init__(self, shell: Shell, out: Out, line_size: int):
        self.shell = shell
        self.out = out
        self.line_size = line_size
        self.col = 0
        self.scale = 0
        self.ibase = 10
        self.obase = 10
        self.last: N.Num = N.ZERO
        self.vars: dict[str, list[N.Num]] = {}
        self.arrays: dict[str, list[dict]] = {}
        self.functions: dict[str, Function] = {}
        self._var_idx: dict[str, int] = {"ibase": 0, "obase": 1, "scale": 2, "last": 4}
        self._arr_idx: dict[str, int] = {}
        self._fn_idx: dict[str, int] = {"(main)": 0}
        self.errbuf: list[str] = []
        self.steps = 0
        self.stdin_buf: str | None = None
        self.stdin_pos = 0
        self.frames: list = []
        self._fn_ibase: list[int] = []
        self._bound_vars: list[str] = []
        self._bound_arrays: list[str] = []

    # ---- name numbering (only the byte sizes of the code depend on it)
    def var_index(self, name: str) -> int:
        if name not in self._var_idx:
            self._var_idx[name] = len(self._var_idx) + 1
        return self._var_idx[name]

    def array_index(self, name: str) -> int:
        if name not in self._arr_idx:
            self._arr_idx[name] = len(self._arr_idx) + 1
        return self._arr_idx[name]

    def function_number(self, name: str) -> int:
        if name not in self._fn_idx:
            self._fn_idx[name] = len(self._fn_idx)
        return self._fn_idx[name]

    # ---- output
    def out_char(self, text: str) -> None:
        buf = []
        ls = self.line_size
        col = self.col
        for ch in text:
            if ch == "\n":
                col = 0
                buf.append("\n")
                continue
            col += 1
            if ls != 0 and col == ls - 1:
                buf.append("\\\n")
                col = 1
            buf.append(ch)
        self.col = col
        self.out.buf += encode("".join(buf))

    def output_text(self, text: str) -> None:
        self.out_char(text)

    def rt_error(self, func: str, addr: int, msg: str) -> None:
        self.errbuf.append(f"Runtime error (func={func}, adr={addr}): {msg}\n")

    def rt_warn(self, func: str, addr: int, msg: str) -> None:
        self.errbuf.append(f"Runtime warning (func={func}, adr={addr}): {msg}\n")

    # ---- variables
    def get_var(self, name: str) -> N.Num:
        if name == "ibase":
            return (self.ibase, 0)
        if name == "obase":
            return (self.obase, 0)
        if name == "scale":
            return (self.scale, 0)
        if name == "last":
            return self.last
        st = self.vars.get(name)
        return st[-1] if st else N.ZERO

    def set_var(self, name: str, value: N.Num, warn) -> None:
        if name == "last":
            self.last = value
            return
        if name in ("ibase", "obase", "scale"):
            neg = N.is_neg(value)
            temp = 0
            toobig = False
            if neg:
                msg = {"ibase": "negative ibase, set to 2", "obase": "negative obase, set to 2",
                       "scale": "negative scale, set to 0"}[name]
                warn(msg)
                temp = 0 if name == "scale" else 2
            else:
                temp = N.int_part(value)
                if temp > 0x7FFFFFFFFFFFFFFF:
                    toobig = True
            if name == "ibase":
                if temp < 2 and not toobig:
                    self.ibase = 2
                    if not neg:
                        warn("ibase too small, set to 2")
                elif temp > MAX_IBASE or toobig:
                    self.ibase = MAX_IBASE
                    warn(f"ibase too large, set to {MAX_IBASE}")
                else:
                    self.ibase = temp
            elif name == "obase":
                if temp < 2 and not toobig:
                    self.obase = 2
                    if not neg:
                        warn("obase too small, set to 2")
                elif temp > BC_BASE_MAX or toobig:
                    self.obase = BC_BASE_MAX
                    warn(f"obase too large, set to {BC_BASE_MAX}")
                else:
                    self.obase = temp
            else:
                if temp > BC_SCALE_MAX or toobig:
                    self.scale = BC_SCALE_MAX
                    warn(f"scale too large, set to {BC_SCALE_MAX}")
                else:
                    # every later quotient, root and power has this many digits
                    self.shell.budget.check_string(temp)
                    self.scale = temp
            return
        st = self.vars.setdefault(name, [])
        if st:
            st[-1] = value
        else:
            st.append(value)

    def array(self, name: str) -> dict:
        st = self.arrays.setdefault(name, [])
        if not st:
            st.append({})
        return st[-1]

    # ---- running
    def run_code(self, code: Code, func_name: str = "(main)") -> None:
        """Execute a main-program chunk (one input line)."""
        try:
            self._exec(code)
        except RuntimeErr:
            pass
        finally:
            # unwind the autos and parameters of the functions left by an error
            while self.frames:
                self._pop_frame()

    def _pop_frame(self) -> None:
        frame = self.frames.pop()
        for pname in frame[5]:
            self.vars[pname].pop()
        for pname in frame[6]:
            self.arrays[pname].pop()
        self._fn_ibase = self._fn_ibase[:-1]

    def _exec(self, code: Code) -> None:
        """The machine: frames are (code, pc, stack, fname, _, vars, arrays)."""
        self.frames = []
        ins = code.ins
        labels = code.labels
        fname = "(main)"
        stack: list = []
        pc = 0
        n = len(ins)
        budget = self.shell.budget
        while True:
            if pc >= n:
                return  # only main code ends without 'R'; function bodies end "0R"
            self.steps += 1
            if self.steps & 0x3FF == 0:
                budget.check()
            i = ins[pc]
            pc += 1
            op = i.op
            if op == "K":
                stack.append(self.constant(i.arg))
            elif op == "0":
                stack.append(N.ZERO)
            elif op == "1":
                stack.append(N.ONE)
            elif op == "l":
                stack.append(self.get_var(i.arg))
            elif op == "s":
                self.set_var(i.arg, stack[-1],
                             lambda m, i=i, fname=fname: self.rt_warn(fname, i.end, m))
            elif op == "p":
                if stack:
                    stack.pop()
            elif op in "WP":
                v = stack.pop()
                self.out_char(N.format_num(v, self.obase))
                if op == "W":
                    self.out_char("\n")
                self.last = v
            elif op in "+-":
                b = stack.pop()
                a = stack.pop()
                stack.append(N.add(a, b) if op == "+" else N.sub(a, b))
            elif op == "*":
                b = stack.pop()
                a = stack.pop()
                self.shell.budget.check_string(  # the product's digits, before Python makes them
                    int((abs(a[0]).bit_length() + abs(b[0]).bit_length()) * 0.30103))
                stack.append(N.mul(a, b, self.scale))
            elif op == "/":
                r = N.div(stack[-2], stack[-1], self.scale)
                if r is None:
                    self.rt_error(fname, i.end, "Divide by zero")
                    raise RuntimeErr
                del stack[-2:]
                stack.append(r)
            elif op == "%":
                if N.is_zero(stack[-1]):
                    self.rt_error(fname, i.end, "Modulo by zero")
                    raise RuntimeErr
                r = N.mod(stack[-2], stack[-1], self.scale)
                del stack[-2:]
                stack.append(r)
            elif op == "^":
                b = stack.pop()
                a = stack.pop()
                if abs(N.int_part(b)) * max(abs(a[0]).bit_length(), 1) > 400_000_000 and (
                        abs(a[0]) > 1 or a[1] > 0):
                    self.rt_error(fname, i.end, "exponent too large in raise")
                    raise RuntimeErr
                if abs(a[0]) > 1 or a[1] > 0:  # the power's digits, before Python makes them
                    self.shell.budget.check_string(
                        int(abs(N.int_part(b)) * abs(a[0]).bit_length() * 0.30103))
                r, msg = N.raise_(a, b, self.scale)
                if msg == "non-zero scale in exponent":
                    self.rt_warn(fname, i.end, msg)
                elif msg is not None:
                    self.rt_error(fname, i.end, msg)
                    raise RuntimeErr
                stack.append(r)
            elif op == "n":
                stack[-1] = N.neg(stack[-1])
            elif op in "=#<{>}":
                b = stack.pop()
                a = stack.pop()
                cmp = N.compare(a, b)
                res = {"=": cmp == 0, "#": cmp != 0, "<": cmp < 0, "{": cmp <= 0,
                       ">": cmp > 0, "}": cmp >= 0}[op]
                stack.append(N.ONE if res else N.ZERO)
            elif op == "!":
                stack[-1] = N.ONE if N.is_zero(stack[-1]) else N.ZERO
            elif op == "D":
                stack.append(stack[-1])
            elif op == "x":
                stack[-1], stack[-2] = stack[-2], stack[-1]
            elif op in "JBZ":
                if op == "J":
                    pc = labels[i.arg]
                else:
                    v = stack.pop()
                    nz = not N.is_zero(v)
                    if (op == "B" and nz) or (op == "Z" and not nz):
                        pc = labels[i.arg]
            elif op == "L":
                idx = self._index(stack.pop(), i, fname)
                stack.append(self.array(i.arg).get(idx, N.ZERO))
            elif op == "S":
                value = stack.pop()
                idx = self._index(stack.pop(), i, fname)
                self.array(i.arg)[idx] = value
                stack.append(value)
            elif op in "AM":
                idx = self._index(stack.pop(), i, fname)
                arr = self.array(i.arg)
                cur = arr.get(idx, N.ZERO)
                arr[idx] = N.add(cur, N.ONE) if op == "A" else N.sub(cur, N.ONE)
            elif op in "id":
                self._incr(i.arg, op == "i", fname, i.end)
            elif op == "c":
                self._special(i, stack, fname)
            elif op == "w":
                self.out_char(i.arg)
            elif op == "O":
                self.out_char(_escapes(i.arg))
            elif op == "KA":
                stack.append(("array", i.arg))
            elif op == "C":
                func = self._call(i, stack, fname)
                if func is None:
                    continue
                # enter the function: save where we are
                self.frames.append([code, pc, stack, fname, None,
                                    self._bound_vars, self._bound_arrays])
                if len(self.frames) > 100000:
                    self.rt_error(fname, i.end, "function call nesting too deep")
                    raise RuntimeErr
                code = func.code
                ins, labels, n = code.ins, code.labels, len(code.ins)
                pc = 0
                stack = []
                fname = func.name
            elif op == "R":
                if not self.frames:
                    self.rt_error(fname, i.end, "Return from main program.")
                    raise RuntimeErr
                value = stack.pop() if stack else N.ZERO
                frame = self.frames[-1]
                self._pop_frame()
                code, pc, stack, fname = frame[0], frame[1], frame[2], frame[3]
                ins, labels, n = code.ins, code.labels, len(code.ins)
                stack.append(value)
            elif op == "h":
                raise Halt()
            else:  # pragma: no cover - the parser emits nothing else
                self.rt_error(fname, i.end, f"bad instruction: inst={op}")
                raise RuntimeErr

    def _index(self, v: N.Num, i: Instr, fname: str) -> int:
        idx = N.int_part(v)
        if idx < 0 or idx > BC_DIM_MAX:
            self.rt_error(fname, i.end, f"Array {i.arg} subscript out of bounds.")
            raise RuntimeErr
        return idx

    def _incr(self, name: str, up: bool, fname: str, addr: int) -> None:
        if name == "ibase":
            if up and self.ibase < 16:
                self.ibase += 1
            elif not up and self.ibase > 2:
                self.ibase -= 1
            else:
                self.rt_warn(fname, addr, "ibase too big in ++" if up else "ibase too small in --")
            return
        if name == "obase":
            if up and self.obase < BC_BASE_MAX:
                self.obase += 1
            elif not up and self.obase > 2:
                self.obase -= 1
            else:
                self.rt_warn(fname, addr, "obase too big in ++" if up else "obase too small in --")
            return
        if name == "scale":
            if up and self.scale < BC_SCALE_MAX:
                self.scale += 1
            elif not up and self.scale > 0:
                self.scale -= 1
            else:
                self.rt_warn(fname, addr, "Scale too big in ++" if up
                             else "scale can not be negative in -- ")
            return
        if name == "last":
            self.last = N.add(self.last, N.ONE) if up else N.sub(self.last, N.ONE)
            return
        cur = self.get_var(name)
        self.set_var(name, N.add(cur, N.ONE) if up else N.sub(cur, N.ONE), None)

    def constant(self, text: str) -> N.Num:
        base = self._const_base()
        if base == 10:
            return N.parse_b10(text)
        return N.parse_base(text, base)

    def _const_base(self) -> int:
        return self._fn_ibase[-1] if self._fn_ibase else self.ibase

    def _special(self, i: Instr, stack: list, fname: str) -> None:
        which = i.arg
        if which == "L":
            stack[-1] = (N.length(stack[-1]), 0)
        elif which == "S":
            stack[-1] = (stack[-1][1], 0)
        elif which == "R":
            r = N.sqrt(stack[-1], self.scale)
            if r is None:
                self.rt_error(fname, i.end, "Square root of a negative number")
                raise RuntimeErr
            stack[-1] = r
        elif which == "I":
            stack.append(self.read_number())
        elif which == "X":
            import random

            stack.append((random.randrange(2 ** 31), 0))

    def read_number(self) -> N.Num:
        """read(): a number from standard input in ibase (GNU push_constant on input_char)."""
        data = self.stdin_buf or ""
        j = self.stdin_pos
        n = len(data)
        while j < n and (data[j] <= " "):
            j += 1
        negative = False
        if j < n and data[j] in "+-":
            negative = data[j] == "-"
            j += 1
        start = j
        while j < n:
            ch = data[j]
            if ch == "\\" and j + 1 < n and data[j + 1] == "\n":
                j += 2
                continue
            if ch.isdigit() or "A" <= ch <= "F" or "a" <= ch <= "f" or ch == ".":
                j += 1
                continue
            break
        text = data[start:j].replace("\\\n", "").upper()
        self.stdin_pos = min(j + 1, n)  # the terminating character is consumed
        if not text.strip("."):
            return N.ZERO
        base = self.ibase
        v = N.parse_b10(text) if base == 10 else N.parse_base(text, base)
        return N.neg(v) if negative else v

    def _call(self, i: Instr, stack: list, fname: str) -> Function | None:
        """Check and bind a call; returns the function to enter (None: done natively)."""
        name, argtypes = i.arg
        func = self.functions.get(name)
        fnum_bytes = 1 if self._fn_idx.get(name, 0) < 128 else 2
        addr_after_fn = i.addr + 1 + fnum_bytes
        if func is None or not func.defined:
            self.rt_error(fname, addr_after_fn, f"Function {name} not defined.")
            raise RuntimeErr
        nargs = len(argtypes)
        args = stack[len(stack) - nargs:] if nargs else []
        del stack[len(stack) - nargs:]
        params = func.params
        if nargs > len(params):
            self.rt_error(fname, addr_after_fn + len(params) + 1, "Parameter number mismatch")
            raise RuntimeErr
        for k, (t, (pname, is_array, _ref)) in enumerate(zip(argtypes, params[:nargs],
                                                               strict=False)):
            if (t == "1") != is_array:
                pos = addr_after_fn + k + 1
                if is_array:
                    self.rt_error(fname, pos, f"Parameter type mismatch parameter {pname}.")
                else:
                    self.rt_error(fname, pos, f"Parameter type mismatch, parameter {pname}.")
                self.rt_error(fname, pos + 1, "Parameter number mismatch")
                raise RuntimeErr
        if nargs < len(params):
            self.rt_error(fname, addr_after_fn + nargs + 1, "Parameter number mismatch")
            raise RuntimeErr
        if func.native is not None:
            stack.append(func.native(self, *args))
            return None
        # bind parameters and autos (dynamic scoping: a stack per name)
        pushed_vars: list[str] = []
        pushed_arrays: list[str] = []
        for (pname, is_array, ref), value in zip(params, args, strict=True):
            if is_array:
                src = self.array(value[1]) if isinstance(value, tuple) and value[0] == "array" \
                    else {}
                self.arrays.setdefault(pname, []).append(src if ref else dict(src))
                pushed_arrays.append(pname)
            else:
                self.vars.setdefault(pname, []).append(value)
                pushed_vars.append(pname)
        for aname, is_array in func.autos:
            if is_array:
                self.arrays.setdefault(aname, []).append({})
                pushed_arrays.append(aname)
            else:
                self.vars.setdefault(aname, []).append(N.ZERO)
                pushed_vars.append(aname)
        self._fn_ibase = self._fn_ibase + [self.ibase]
        self._bound_vars = pushed_vars
        self._bound_arrays = pushed_arrays
        return func


def _escapes(text: str) -> str:
    out = []
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        if i + 1 >= n:
            break
        e = text[i + 1]
        i += 2
        out.append({"a": "\a", "b": "\b", "f": "\f", "n": "\n", "q": '"', "r": "\r",
                    "t": "\t", "\\": "\\"}.get(e, ""))
    return "".join(out)


# ------------------------------------------------------------ math library
def _c(text: str) -> N.Num:
    return N.parse_b10(text)


def _m_e(vm: VM, x: N.Num) -> N.Num:
    scale = vm.scale
    m = False
    if N.is_neg(x):
        m = True
        x = N.neg(x)
    z = scale
    n = N.add(N.add((6, 0), (z, 0)), N.mul(_c(".44"), x, scale))
    scale = x[1] + 1
    f = 0
    while N.compare(x, N.ONE) > 0:
        f += 1
        x = N.div(x, (2, 0), scale)
        scale += 1
    scale = N.int_part(n)
    v = N.add(N.ONE, x)
    a = x
    d = N.ONE
    i = 2
    while True:
        vm.shell.budget.check()
        a = N.mul(a, x, scale)
        d = N.mul(d, (i, 0), scale)
        e = N.div(a, d, scale)
        if N.is_zero(e):
            while f > 0:
                f -= 1
                v = N.mul(v, v, scale)
            scale = z
            if m:
                return N.div(N.ONE, v, scale)
            return N.div(v, N.ONE, scale)
        v = N.add(v, e)
        i += 1


def _m_l(vm: VM, x: N.Num) -> N.Num:
    scale = vm.scale
    if N.compare(x, N.ZERO) <= 0:
        r, _ = N.raise_((10, 0), (scale, 0), scale)
        return N.div(N.sub(N.ONE, r), N.ONE, scale)
    z = scale
    scale = 6 + scale
    f: N.Num = (2, 0)
    while N.compare(x, (2, 0)) >= 0:
        f = N.mul(f, (2, 0), scale)
        x = N.sqrt(x, scale)
    while N.compare(x, (5, 1)) <= 0:
        f = N.mul(f, (2, 0), scale)
        x = N.sqrt(x, scale)
    n = N.div(N.sub(x, N.ONE), N.add(x, N.ONE), scale)
    v = n
    m = N.mul(n, n, scale)
    i = 3
    while True:
        vm.shell.budget.check()
        n = N.mul(n, m, scale)
        e = N.div(n, (i, 0), scale)
        if N.is_zero(e):
            v = N.mul(f, v, scale)
            scale = z
            return N.div(v, N.ONE, scale)
        v = N.add(v, e)
        i += 2


_ATAN1 = [(25, ".7853981633974483096156608"),
          (40, ".7853981633974483096156608458198757210492"),
          (60, ".785398163397448309615660845819875721049292349843776455243736")]
_ATAN_2 = [(25, ".1973955598498807583700497"),
           (40, ".1973955598498807583700497651947902934475"),
           (60, ".197395559849880758370049765194790293447585103787852101517688")]


def _atan(x: N.Num, scale: int, vm: VM) -> N.Num:
    m: N.Num = N.ONE
    if N.is_neg(x):
        m = (-1, 0)
        x = N.neg(x)
    for value, table in ((N.ONE, _ATAN1), (_c(".2"), _ATAN_2)):
        if N.compare(x, value) == 0:
            for limit, digits in table:
                if scale <= limit:
                    return N.div(_c(digits), m, scale)
    z = scale
    a = N.ZERO
    if N.compare(x, _c(".2")) > 0:
        a = _atan(_c(".2"), z + 5, vm)
    scale = z + 3
    f = 0
    while N.compare(x, _c(".2")) > 0:
        f += 1
        x = N.div(N.sub(x, _c(".2")), N.add(N.ONE, N.mul(x, _c(".2"), scale)), scale)
    v = n = x
    s = N.mul(N.neg(x), x, scale)
    i = 3
    while True:
        vm.shell.budget.check()
        n = N.mul(n, s, scale)
        e = N.div(n, (i, 0), scale)
        if N.is_zero(e):
            scale = z
            return N.div(N.add(N.mul((f, 0), a, scale), v), m, scale)
        v = N.add(v, e)
        i += 2


def _m_a(vm: VM, x: N.Num) -> N.Num:
    return _atan(x, vm.scale, vm)


def _sin(x: N.Num, z: int, vm: VM) -> N.Num:
    scale = N.int_part(N.add(N.mul(_c("1.1"), (z, 0), z), (2, 0)))
    v = _atan(N.ONE, scale, vm)
    m = False
    if N.is_neg(x):
        m = True
        x = N.neg(x)
    scale = 0
    n = N.div(N.add(N.div(x, v, 0), (2, 0)), (4, 0), 0)
    x = N.sub(x, N.mul(N.mul((4, 0), n, 0), v, 0))
    if not N.is_zero(N.mod(n, (2, 0), 0)):
        x = N.neg(x)
    scale = z + 2
    v = e = x
    s = N.mul(N.neg(x), x, scale)
    i = 3
    while True:
        vm.shell.budget.check()
        e = N.mul(e, N.div(s, N.mul((i, 0), (i - 1, 0), scale), scale), scale)
        if N.is_zero(e):
            scale = z
            if m:
                return N.div(N.neg(v), N.ONE, scale)
            return N.div(v, N.ONE, scale)
        v = N.add(v, e)
        i += 2


def _m_s(vm: VM, x: N.Num) -> N.Num:
    return _sin(x, vm.scale, vm)


def _m_c(vm: VM, x: N.Num) -> N.Num:
    z = vm.scale
    scale = N.int_part(N.mul((z, 0), _c("1.2"), z))
    arg = N.add(x, N.mul(_atan(N.ONE, scale, vm), (2, 0), scale))
    v = _sin(arg, scale, vm)
    return N.div(v, N.ONE, z)


def _m_j(vm: VM, n: N.Num, x: N.Num) -> N.Num:
    z = vm.scale
    scale = 0
    n = N.div(n, N.ONE, 0)
    m = False
    if N.is_neg(n):
        n = N.neg(n)
        if N.compare(N.mod(n, (2, 0), 0), N.ONE) == 0:
            m = True
    f: N.Num = N.ONE
    i = 2
    ni = N.int_part(n)
    while i <= ni:
        f = N.mul(f, (i, 0), scale)
        i += 1
    scale = N.int_part(N.mul(_c("1.5"), (z, 0), scale))
    xn, _ = N.raise_(x, n, scale)
    tn, _ = N.raise_((2, 0), n, scale)
    f = N.div(N.div(xn, tn, scale), f, scale)
    v = e = N.ONE
    s = N.div(N.mul(N.neg(x), x, scale), (4, 0), scale)
    scale = N.int_part(N.add(N.sub(N.add(N.mul(_c("1.5"), (z, 0), scale),
                                               (N.length(f), 0)), (f[1], 0)), N.ZERO))
    i = 1
    while True:
        vm.shell.budget.check()
        e = N.div(N.div(N.mul(e, s, scale), (i, 0), scale), N.add(n, (i, 0)), scale)
        if N.is_zero(e):
            scale = z
            if m:
                return N.div(N.mul(N.neg(f), v, scale), N.ONE, scale)
            return N.div(N.mul(f, v, scale), N.ONE, scale)
        v = N.add(v, e)
        i += 1


def load_mathlib(vm: VM) -> None:
    for name, fn, params in (("e", _m_e, 1), ("l", _m_l, 1), ("s", _m_s, 1),
                             ("a", _m_a, 1), ("c", _m_c, 1), ("j", _m_j, 2)):
        f = Function(name)
        f.params = [(p, False, False) for p in ("n", "x")[2 - params:]]
        f.native = fn
        vm.functions[name] = f
        vm.function_number(name)
    vm.scale = 20


# -------------------------------------------------------------------- main
async def main(shell: Shell, argv: list[str]) -> int:
    mathlib = False
    files: list[str] = []
    args = argv[1:]
    i = 0
    while i < len(args):
        a = args[i]
        i += 1
        if a == "--":
            files.extend(args[i:])
            break
        if a.startswith("--"):
            name = a[2:]
            longs = {"help": "h", "interactive": "i", "mathlib": "l", "quiet": "q",
                     "standard": "s", "warn": "w", "version": "v"}
            matches = [k for k in longs if k.startswith(name)] if name else []
            if name in longs:
                matches = [name]
            if len(matches) != 1:
                await shell.stderr.write(encode(f"bc: unrecognized option '{a}'\n"))
                await shell.stdout.write(encode(HELP))
                return 1
            flags = longs[matches[0]]
        elif a.startswith("-") and a != "-":
            flags = a[1:]
        else:
            files.append(a)
            continue
        for ch in flags:
            if ch == "h":
                return await print_help(shell, HELP)
            if ch == "v":
                await shell.stdout.write(encode(VERSION))
                return 0
            if ch == "l":
                mathlib = True
            elif ch in "iqsw":
                pass
            else:
                await shell.stderr.write(encode(f"bc: invalid option -- '{ch}'\n"))
                await shell.stdout.write(encode(HELP))
                return 1
    env_ls = shell.env.get("BC_LINE_LENGTH")
    line_size = 70
    if env_ls is not None:
        try:
            line_size = int(env_ls.strip() or "0")
        except ValueError:
            line_size = 0 if not env_ls.strip().lstrip("-").isdigit() else 70
        if line_size < 3 and line_size != 0:
            line_size = 70
    out = Out(shell.stdout)
    vm = VM(shell, out, line_size)
    if mathlib:
        load_mathlib(vm)
    texts: list[tuple[str, str]] = []
    try:
        for name in files:
            try:
                with shell.fs.open(name, "rb") as fh:
                    texts.append((name, decode(fh.read())))
            except (FileSystemError, OSError) as e:
                texts.append((name, "" if e.errno == errno.EISDIR else None))
                if e.errno == errno.EISDIR:
                    texts[-1] = (name, False)
        if any(isinstance(t, str) and "read" in t for _, t in texts):
            vm.stdin_buf = decode(await shell.stdin.read())
        for name, text in texts:
            if text is False:
                await flush(vm)
                await shell.stderr.write(encode(f"{name} 1: read() in flex scanner failed\n"))
                return 1
            if text is None:
                await flush(vm)
                await shell.stderr.write(encode(f"File {name} is unavailable.\n"))
                return 1
            await run_source(vm, text, name)
        if vm.stdin_buf is None:
            vm.stdin_buf = decode(await shell.stdin.read())
            vm.stdin_pos = len(vm.stdin_buf)  # read() in a stdin program sees no data
            await run_source(vm, vm.stdin_buf, "(standard_in)")
        else:
            rest = vm.stdin_buf[vm.stdin_pos:]
            await run_source(vm, rest, "(standard_in)")
    except (Quit, Halt):
        pass
    await flush(vm)
    return 0


async def flush(vm: VM) -> None:
    if vm.out.buf:
        await vm.out.flush()
    if vm.errbuf:
        await vm.shell.stderr.write(encode("".join(vm.errbuf)))
        vm.errbuf.clear()


async def run_source(vm: VM, text: str, name: str) -> None:
    parser = Parser(vm, text, name)
    while True:
        try:
            kind, code = parser.next_item()
        except SyntaxErr as e:
            parser.report_syntax(e)
            await flush(vm)
            parser.cur_func = None
            parser.break_label = parser.continue_label = parser.if_label = 0
            parser.skip_line()
            parser.had_error = False
            continue
        if kind == "eof":
            await flush(vm)
            return
        if kind == "code":
            if not parser.had_error:
                vm.run_code(code)
        parser.had_error = False
        await flush(vm)
        vm.shell.budget.check()
