"""Recursive-descent parser for the POSIX awk grammar (with gawk's usual leniencies).

Precedence, lowest first: assignment, ?:, ||, &&, in, ~ !~, comparison,
``cmd | getline``, concatenation, + -, * / %, unary ! - +, ^, ++ --, $, grouping.
In an unparenthesized print list ``>`` is redirection, not comparison.
"""

from __future__ import annotations

from pysh.builtins.awk import nodes as N
from pysh.builtins.awk.errors import AwkSyntaxError
from pysh.builtins.awk.lexer import Lexer, Token

ASSIGN_OPS = {"=", "+=", "-=", "*=", "/=", "%=", "^="}
COMPARE_OPS = {"<", "<=", "==", "!=", ">", ">="}
CONCAT_START = {"NUMBER", "STRING", "ERE", "NAME", "FUNC_NAME", "BUILTIN", "$", "(", "!",
                "++", "--", "-", "+"}
# the minimum and maximum number of arguments of each builtin (None: no maximum)
BUILTIN_ARITY = {
    "length": (0, 1), "substr": (2, 3), "index": (2, 2), "split": (2, 4), "sub": (2, 3),
    "gsub": (2, 3), "match": (2, 3), "sprintf": (1, None), "sin": (1, 1), "cos": (1, 1),
    "atan2": (2, 2), "exp": (1, 1), "log": (1, 1), "sqrt": (1, 1), "int": (1, 1),
    "rand": (0, 0), "srand": (0, 1), "tolower": (1, 1), "toupper": (1, 1), "system": (1, 1),
    "close": (1, 2), "fflush": (0, 1),
    "gensub": (3, 4), "asort": (1, 3), "asorti": (1, 3), "strftime": (0, 3), "systime": (0, 0),
    "mktime": (1, 2), "and": (1, None), "or": (1, None), "xor": (1, None), "lshift": (2, 2),
    "rshift": (2, 2), "compl": (1, 1), "patsplit": (2, 4),
}
# the builtins' arguments that are arrays: (name, index)
ARRAY_ARGS = {("split", 1), ("asort", 0), ("asort", 1), ("asorti", 0), ("asorti", 1),
              ("match", 2), ("patsplit", 1), ("patsplit", 3), ("split", 3)}
SPECIAL_VARS = {"NR", "NF", "FNR", "FS", "OFS", "ORS", "RS", "FILENAME", "SUBSEP", "RSTART",
                "RLENGTH", "CONVFMT", "OFMT", "ENVIRON", "ARGC", "ARGV"}


def is_lvalue(node) -> bool:
    return isinstance(node, (N.Var, N.Index, N.Field))


class Parser:
    def __init__(self, src: str):
        self.src = src
        lexer = Lexer(src)
        self.tokens = lexer.tokens()
        self.warnings = lexer.warnings
        self.i = 0
        self.no_gt = False  # inside an unparenthesized print list
        self.no_in = False  # inside a for (...) header's first clause
        self.functions: dict[str, N.Function] = {}
        self.in_function: N.Function | None = None
        self.loop_depth = 0

    # -- token helpers ------------------------------------------------------
    @property
    def tok(self) -> Token:
        return self.tokens[self.i]

    def peek(self, k: int = 1) -> Token:
        j = min(self.i + k, len(self.tokens) - 1)
        return self.tokens[j]

    def advance(self) -> Token:
        t = self.tokens[self.i]
        if t.kind != "EOF":
            self.i += 1
        return t

    def at(self, *kinds: str) -> bool:
        return self.tok.kind in kinds

    def error(self, tok: Token | None = None, msg: str | None = None):
        tok = tok or self.tok
        if msg is None:
            if tok.kind == "EOF" or (tok.kind == "NEWLINE" and self._only_newlines_after()):
                msg = "unexpected newline or end of string"
            else:
                msg = "syntax error"
        raise AwkSyntaxError(msg, tok.line, tok.col, self.src)

    def _only_newlines_after(self) -> bool:
        return all(t.kind in ("NEWLINE", "EOF") for t in self.tokens[self.i:])

    def expect(self, kind: str) -> Token:
        if self.tok.kind != kind:
            self.error()
        return self.advance()

    def opt_newlines(self) -> None:
        while self.tok.kind == "NEWLINE":
            self.i += 1

    def opt_terms(self) -> None:
        while self.tok.kind in ("NEWLINE", ";"):
            self.i += 1

    # -- program ------------------------------------------------------------
    def parse_program(self) -> N.Program:
        items = []
        self.opt_terms()
        while not self.at("EOF"):
            item = self.parse_item()
            if item is not None:
                items.append(item)
            if not self.at("EOF", "NEWLINE", ";") and item is not None and item.action is None:
                self.error()
            self.opt_terms()
        return N.Program(items, self.functions)

    def parse_item(self):
        t = self.tok
        if t.kind == "function":
            self.parse_function()
            return None
        if t.kind in ("BEGIN", "END", "BEGINFILE", "ENDFILE"):
            self.advance()
            self.opt_newlines()
            if not self.at("{"):
                self.error(msg=f"{t.kind} blocks must have an action part")
            return N.Item(t.kind, None, None, self.parse_block(), line=t.line)
        if t.kind == "{":
            return N.Item("main", None, None, self.parse_block(), line=t.line)
        pat = self.parse_expr()
        pat2 = None
        kind = "main"
        if self.at(","):
            self.advance()
            self.opt_newlines()
            pat2 = self.parse_expr()
            kind = "range"
        action = self.parse_block() if self.at("{") else None
        return N.Item(kind, pat, pat2, action, line=t.line)

    def parse_function(self) -> None:
        self.advance()
        t = self.tok
        if t.kind not in ("NAME", "FUNC_NAME"):
            self.error()
        name = t.value
        self.advance()
        if name in self.functions:
            self.error(t, f"function `{name}' previously defined")
        if name in SPECIAL_VARS:
            self.error(t, f"`{name}' is a built-in variable, it cannot be redefined")
        self.expect("(")
        params: list[str] = []
        self.opt_newlines()
        while not self.at(")"):
            p = self.expect("NAME") if not self.at("FUNC_NAME") else self.advance()
            if p.value in SPECIAL_VARS:
                self.error(p, f"function `{name}': cannot use special variable `{p.value}' as a function parameter")
            if p.value in params:
                self.error(p, f"function `{name}': parameter #{len(params) + 1}, `{p.value}', duplicates parameter #{params.index(p.value) + 1}")
            if p.value == name:
                self.error(p, f"function `{name}': cannot use function name as parameter name")
            params.append(p.value)
            self.opt_newlines()
            if self.at(","):
                self.advance()
                self.opt_newlines()
            elif not self.at(")"):
                self.error()
        self.advance()
        self.opt_newlines()
        fn = N.Function(name, params, None, line=t.line)
        self.functions[name] = fn
        self.in_function = fn
        fn.body = self.parse_block()
        self.in_function = None

    # -- statements ---------------------------------------------------------
    def parse_block(self) -> N.Block:
        t = self.expect("{")
        stmts = []
        self.opt_terms()
        while not self.at("}"):
            if self.at("EOF"):
                self.error()
            stmts.append(self.parse_statement())
            self.opt_terms()
        self.advance()
        return N.Block(stmts, line=t.line)

    def simple_end(self) -> None:
        """A simple statement ends at ; newline } else or EOF."""
        if self.at(";", "NEWLINE"):
            self.advance()
        elif not self.at("}", "EOF", "else"):
            self.error()

    def parse_body(self):
        """The statement of if/while/for: newlines may precede it; ';' alone is empty."""
        self.opt_newlines()
        if self.at(";"):
            t = self.advance()
            return N.Block([], line=t.line)
        return self.parse_statement()

    def parse_statement(self):
        t = self.tok
        k = t.kind
        if k == "{":
            return self.parse_block()
        if k == "if":
            self.advance()
            self.expect("(")
            cond = self.parse_expr_nl()
            self.expect(")")
            then = self.parse_body()
            save = self.i
            self.opt_terms()
            if self.at("else"):
                self.advance()
                else_ = self.parse_body()
            else:
                self.i = save
                else_ = None
            return N.If(cond, then, else_, line=t.line)
        if k == "while":
            self.advance()
            self.expect("(")
            cond = self.parse_expr_nl()
            self.expect(")")
            if self.at(";"):  # while (x);
                self.advance()
                return N.While(cond, N.Block([]), line=t.line)
            self.loop_depth += 1
            body = self.parse_body()
            self.loop_depth -= 1
            return N.While(cond, body, line=t.line)
        if k == "do":
            self.advance()
            self.loop_depth += 1
            body = self.parse_body()
            self.loop_depth -= 1
            self.opt_terms()
            self.expect("while")
            self.expect("(")
            cond = self.parse_expr_nl()
            self.expect(")")
            self.simple_end()
            return N.DoWhile(body, cond, line=t.line)
        if k == "for":
            return self.parse_for()
        if k == ";":
            self.advance()
            return N.Block([], line=t.line)
        stmt = self.parse_simple_statement()
        self.simple_end()
        return stmt

    def parse_for(self):
        t = self.advance()
        self.expect("(")
        if (self.at("NAME") and self.peek().kind == "in" and self.peek(2).kind == "NAME"
                and self.peek(3).kind == ")"):
            var = self.advance().value
            self.advance()
            arr = self.advance().value
            self.advance()
            self.loop_depth += 1
            body = self.parse_body()
            self.loop_depth -= 1
            return N.ForIn(var, arr, body, line=t.line)
        if (self.at("(") and self.peek().kind == "NAME" and self.peek(2).kind == "in"
                and self.peek(3).kind == "NAME" and self.peek(4).kind == ")"
                and self.peek(5).kind == ")"):
            self.advance()
            var = self.advance().value
            self.advance()
            arr = self.advance().value
            self.advance()
            self.advance()
            self.loop_depth += 1
            body = self.parse_body()
            self.loop_depth -= 1
            return N.ForIn(var, arr, body, line=t.line)
        init = None if self.at(";") else self.parse_simple_statement()
        self.expect(";")
        self.opt_newlines()
        cond = None if self.at(";") else self.parse_expr_nl()
        self.expect(";")
        self.opt_newlines()
        incr = None if self.at(")") else self.parse_simple_statement()
        self.expect(")")
        if self.at(";"):
            self.advance()
            return N.For(init, cond, incr, N.Block([]), line=t.line)
        self.loop_depth += 1
        body = self.parse_body()
        self.loop_depth -= 1
        return N.For(init, cond, incr, body, line=t.line)

    def _at_stmt_end(self) -> bool:
        return self.at(";", "NEWLINE", "}", "EOF")

    def parse_simple_statement(self):
        t = self.tok
        k = t.kind
        if k in ("print", "printf"):
            return self.parse_print()
        if k == "next":
            self.advance()
            return N.NextStmt(line=t.line)
        if k == "nextfile":
            self.advance()
            return N.NextFileStmt(line=t.line)
        if k == "exit":
            self.advance()
            expr = None if self._at_stmt_end() or self.at("else") else self.parse_expr()
            return N.Exit(expr, line=t.line)
        if k == "return":
            if self.in_function is None:
                self.error(t, "`return' used outside function context")
            self.advance()
            expr = None if self._at_stmt_end() or self.at("else") else self.parse_expr()
            return N.Return(expr, line=t.line)
        if k == "break":
            self.advance()
            if self.loop_depth == 0:
                self.error(t, "`break' is not allowed outside a loop")
            return N.Break(line=t.line)
        if k == "continue":
            self.advance()
            if self.loop_depth == 0:
                self.error(t, "`continue' is not allowed outside a loop")
            return N.Continue(line=t.line)
        if k == "delete":
            self.advance()
            paren = False
            if self.at("(") and self.peek().kind == "NAME" and self.peek(2).kind == ")":
                self.advance()
                paren = True
            name_tok = self.expect("NAME")
            if paren:
                self.expect(")")
                return N.Delete(name_tok.value, None, line=t.line)
            if self.at("["):
                self.advance()
                subs = self.parse_expr_list("]")
                self.expect("]")
                return N.Delete(name_tok.value, subs, line=t.line)
            return N.Delete(name_tok.value, None, line=t.line)
        return N.ExprStmt(self.parse_expr(), line=t.line)

    def parse_print(self):
        t = self.advance()
        cls = N.Print if t.kind == "print" else N.Printf
        args: list = []
        if self.at("("):
            save = self.i
            self.advance()
            old = self.no_gt, self.no_in
            self.no_gt = self.no_in = False
            self.opt_newlines()
            try:
                lst = self.parse_expr_list(")")
                ok = self.at(")")
            except AwkSyntaxError:
                ok = False
            self.no_gt, self.no_in = old
            if ok:
                self.advance()
                if self._at_stmt_end() or self.at(">", ">>", "|", "else"):
                    args = lst if len(lst) != 1 else [N.Group(lst[0])]
                else:
                    self.i = save
                    args = self.parse_print_list()
            else:
                self.i = save
                args = self.parse_print_list()
        elif not (self._at_stmt_end() or self.at(">", ">>", "|", "else")):
            args = self.parse_print_list()
        if cls is N.Printf and not args:
            self.error(t, "printf: no format")
        dest_kind = dest = None
        if self.at(">", ">>", "|"):
            dest_kind = self.advance().kind
            old = self.no_gt
            self.no_gt = True
            dest = self.parse_concat()
            self.no_gt = old
        return cls(args, dest_kind, dest, line=t.line)

    def parse_print_list(self) -> list:
        old = self.no_gt
        self.no_gt = True
        try:
            args = [self.parse_expr()]
            while self.at(","):
                self.advance()
                self.opt_newlines()
                args.append(self.parse_expr())
        finally:
            self.no_gt = old
        return args

    def parse_expr_list(self, closer: str) -> list:
        """Comma-separated expressions (newlines allowed after commas), up to ``closer``."""
        exprs = [self.parse_expr_nl()]
        while self.at(","):
            self.advance()
            self.opt_newlines()
            exprs.append(self.parse_expr_nl())
        self.opt_newlines()
        return exprs

    # -- expressions --------------------------------------------------------
    def parse_expr_nl(self):
        """An expression inside brackets or parentheses (where > compares again)."""
        old = self.no_gt, self.no_in
        self.no_gt = self.no_in = False
        try:
            return self.parse_expr()
        finally:
            self.no_gt, self.no_in = old

    def parse_expr(self):
        left = self.parse_ternary()
        if self.tok.kind in ASSIGN_OPS:
            if not is_lvalue(left):
                if isinstance(left, N.Regex) and self.tok.kind == "/=":
                    self.error()
                self.error()
            op = self.advance().kind
            self.opt_newlines()
            right = self.parse_expr()
            return N.Assign(op, left, right, line=getattr(left, "line", 0))
        return left

    def parse_ternary(self):
        cond = self.parse_or()
        if self.at("?"):
            t = self.advance()
            self.opt_newlines()
            a = self.parse_expr()
            self.opt_newlines()
            self.expect(":")
            self.opt_newlines()
            b = self.parse_expr()
            return N.Cond(cond, a, b, line=t.line)
        return cond

    def parse_or(self):
        left = self.parse_and()
        while self.at("||"):
            t = self.advance()
            self.opt_newlines()
            left = N.Or(left, self.parse_and(), line=t.line)
        return left

    def parse_and(self):
        left = self.parse_in()
        while self.at("&&"):
            t = self.advance()
            self.opt_newlines()
            left = N.And(left, self.parse_in(), line=t.line)
        return left

    def parse_in(self):
        left = self.parse_match()
        while self.at("in") and not self.no_in:
            t = self.advance()
            name = self.expect("NAME").value
            subs = left.exprs if isinstance(left, N.GroupList) else [left]
            left = N.In(subs, name, line=t.line)
        if isinstance(left, N.GroupList):
            self.error()
        return left

    def parse_match(self):
        left = self.parse_comparison()
        while self.at("~", "!~"):
            t = self.advance()
            right = self.parse_comparison()
            left = N.Match(t.kind == "!~", left, right, line=t.line)
        return left

    def parse_comparison(self):
        left = self.parse_pipe_getline()
        if self.tok.kind in COMPARE_OPS and not (self.no_gt and self.tok.kind == ">"):
            t = self.advance()
            right = self.parse_pipe_getline()
            left = N.Compare(t.kind, left, right, line=t.line)
            if self.tok.kind in COMPARE_OPS and not (self.no_gt and self.tok.kind == ">"):
                self.error()  # comparisons do not associate
        return left

    def parse_pipe_getline(self):
        left = self.parse_concat()
        while self.at("|") and self.peek().kind == "getline":
            t = self.advance()
            self.advance()
            target = self.parse_opt_lvalue()
            left = N.Getline("cmd", target, left, line=t.line)
        return left

    def parse_concat(self):
        left = self.parse_additive()
        items = None
        while self.tok.kind in CONCAT_START and self.tok.kind not in ("-", "+", "!"):
            if items is None:
                items = [left]
            items.append(self.parse_additive())
        if items is not None:
            return N.Concat(items, line=getattr(left, "line", 0))
        return left

    def parse_additive(self):
        left = self.parse_mul()
        while self.at("+", "-"):
            t = self.advance()
            left = N.Binary(t.kind, left, self.parse_mul(), line=t.line)
        return left

    def parse_mul(self):
        left = self.parse_unary()
        while self.at("*", "/", "%"):
            t = self.advance()
            left = N.Binary(t.kind, left, self.parse_unary(), line=t.line)
        return left

    def parse_unary(self):
        t = self.tok
        if t.kind == "!":
            self.advance()
            return N.Not(self.parse_unary(), line=t.line)
        if t.kind in ("-", "+"):
            self.advance()
            return N.Unary(t.kind, self.parse_unary(), line=t.line)
        return self.parse_power()

    def parse_power(self):
        base = self.parse_postfix()
        if self.at("^"):
            t = self.advance()
            exp = self.parse_power_exponent()
            return N.Binary("^", base, exp, line=t.line)
        return base

    def parse_power_exponent(self):
        t = self.tok
        if t.kind in ("-", "+"):
            self.advance()
            return N.Unary(t.kind, self.parse_power_exponent(), line=t.line)
        if t.kind == "!":
            self.advance()
            return N.Not(self.parse_power_exponent(), line=t.line)
        return self.parse_power()

    def parse_postfix(self):
        p = self.parse_primary()
        if self.at("++", "--") and is_lvalue(p):
            t = self.advance()
            return N.Incr(t.kind, False, p, line=t.line)
        return p

    def parse_opt_lvalue(self):
        if self.at("NAME"):
            return self.parse_primary()
        if self.at("$"):
            return self.parse_primary()
        return None

    def parse_field_operand(self):
        t = self.tok
        if t.kind in ("++", "--"):
            self.advance()
            target = self.parse_primary()
            if not is_lvalue(target):
                self.error(t)
            return N.Incr(t.kind, True, target, line=t.line)
        if t.kind in ("-", "+"):
            self.advance()
            return N.Unary(t.kind, self.parse_field_operand(), line=t.line)
        if t.kind == "!":
            self.advance()
            return N.Not(self.parse_field_operand(), line=t.line)
        return self.parse_primary()

    def parse_primary(self):
        t = self.tok
        k = t.kind
        if k == "NUMBER":
            self.advance()
            return N.Num(t.value, line=t.line)
        if k == "STRING":
            self.advance()
            return N.Str(t.value, line=t.line)
        if k == "ERE":
            self.advance()
            return N.Regex(t.value, line=t.line)
        if k == "$":
            self.advance()
            return N.Field(self.parse_field_operand(), line=t.line)
        if k in ("++", "--"):
            self.advance()
            target = self.parse_primary()
            if not is_lvalue(target):
                self.error(t)
            return N.Incr(k, True, target, line=t.line)
        if k in ("-", "+", "!"):
            return self.parse_unary()
        if k == "(":
            self.advance()
            old = self.no_gt, self.no_in
            self.no_gt = self.no_in = False
            self.opt_newlines()
            exprs = self.parse_expr_list(")")
            self.no_gt, self.no_in = old
            self.expect(")")
            if len(exprs) > 1:
                if not self.at("in"):
                    self.error()
                return N.GroupList(exprs, line=t.line)
            return N.Group(exprs[0], line=t.line)
        if k == "NAME":
            self.advance()
            if self.at("["):
                self.advance()
                subs = self.parse_expr_list("]")
                self.expect("]")
                return N.Index(t.value, subs, line=t.line)
            return N.Var(t.value, line=t.line)
        if k == "FUNC_NAME":
            self.advance()
            self.expect("(")
            args = []
            self.opt_newlines()
            if not self.at(")"):
                args = self.parse_expr_list(")")
            self.expect(")")
            return N.Call(t.value, args, line=t.line)
        if k == "BUILTIN":
            return self.parse_builtin()
        if k == "getline":
            self.advance()
            target = self.parse_opt_lvalue()
            if self.at("<"):
                self.advance()
                src = self.parse_getline_source()
                return N.Getline("file", target, src, line=t.line)
            return N.Getline("simple", target, None, line=t.line)
        self.error()

    def parse_getline_source(self):
        t = self.tok
        if t.kind in ("-", "+", "!"):
            self.error()
        p = self.parse_primary()
        if self.at("++", "--") and is_lvalue(p):
            op = self.advance()
            return N.Incr(op.kind, False, p, line=op.line)
        return p

    def parse_builtin(self):
        t = self.advance()
        name = t.value
        args: list = []
        if self.at("("):
            self.advance()
            self.opt_newlines()
            if not self.at(")"):
                args = self.parse_expr_list(")")
            self.expect(")")
        elif name != "length":
            self.error()
        lo, hi = BUILTIN_ARITY[name]
        if len(args) < lo or (hi is not None and len(args) > hi):
            self.error(t, f"{len(args)} is invalid as number of arguments for {name}")
        if name == "split" and not isinstance(args[1], N.Var):
            self.error(t, "split: second argument is not an array")
        if name in ("and", "or", "xor") and len(args) < 2:
            raise AwkSyntaxError(f"{name}: called with less than two arguments", t.line, -1,
                                 self.src)
        for i, a in enumerate(args):
            if (name, i) in ARRAY_ARGS and not isinstance(_ungroup(a), N.Var):
                self.error(t, f"{name}: argument {i + 1} is not an array")
            if (name, i) in ARRAY_ARGS:
                args[i] = _ungroup(a)
        if name in ("sub", "gsub") and len(args) == 3 and not is_lvalue(_ungroup(args[2])):
            args[2] = _ungroup(args[2])
            if not is_lvalue(args[2]):
                self.error(t, f"{name} third parameter is not a changeable object")
        return N.Builtin(name, args, line=t.line)


def _ungroup(node):
    while isinstance(node, N.Group):
        node = node.expr
    return node


def parse(src: str) -> tuple[N.Program, list[tuple[int, str]]]:
    p = Parser(src)
    prog = p.parse_program()
    return prog, p.warnings
