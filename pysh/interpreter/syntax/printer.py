"""The canonical printer: AST -> bash source.

``format_program(node)`` prints a Program, a command, or a list of commands
in a fixed layout (one command per line, two-space indentation, here-doc
bodies after the line that opens them).  The property the tests check, as
mvdan/sh does, is ``parse(format_program(parse(s))) == parse(s)``.

Literal parts are printed from the text the parser recorded for them, in
the quoting the AST records, so printing never changes what a word means.
"""

from __future__ import annotations

from . import ast as A
from .lexer import RESERVED

__all__ = ["format_program", "format_word"]


def format_program(node) -> str:
    p = _Printer()
    if isinstance(node, A.Program):
        p.stmts(node.body)
    elif isinstance(node, list):
        p.stmts(node)
    else:
        p.stmts([node])
    return p.finish()


def format_word(word: A.Word) -> str:
    p = _Printer()
    p.word(word)
    return "".join(p.out)


def _ansi_quote(s: str) -> str:
    out = ["$'"]
    for ch in s:
        o = ord(ch)
        if ch == "\\":
            out.append("\\\\")
        elif ch == "'":
            out.append("\\'")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif o < 32 or o == 127:
            out.append(f"\\x{o:02x}")
        elif 0xDC80 <= o <= 0xDCFF:  # surrogate-escaped raw byte
            out.append(f"\\x{o - 0xDC00:02x}")
        else:
            out.append(ch)
    out.append("'")
    return "".join(out)


def _dq_escape(s: str) -> str:
    return s.replace("\\", "\\\\").replace('"', '\\"').replace("$", "\\$").replace("`", "\\`")


def _heredoc_escape(s: str) -> str:
    return s.replace("\\", "\\\\").replace("$", "\\$").replace("`", "\\`")


class _Printer:
    def __init__(self):
        self.out: list[str] = []
        self.indent = 0
        self.pending: list[A.HereDoc] = []
        self.at_line_start = True

    def w(self, s: str):
        if s:
            self.out.append(s)
            self.at_line_start = False

    def nl(self):
        self.out.append("\n")
        self.flush_heredocs()
        self.out.append("  " * self.indent)
        self.at_line_start = True

    def flush_heredocs(self):
        pend = self.pending
        self.pending = []
        for hd in pend:
            if hd.quoted:
                body = "".join(p.text for p in hd.parts)
            else:
                body = self._heredoc_body(hd.parts)
            if body and not body.endswith("\n"):
                body += "\n"
            self.out.append(body)
            self.out.append(hd.delimiter + "\n")

    def finish(self) -> str:
        if self.pending:
            self.out.append("\n")
            self.flush_heredocs()
        if self.at_line_start and self.out and not self.out[-1].strip(" "):
            self.out.pop()
        s = "".join(self.out)
        if s and not s.endswith("\n") and (len(s) - len(s.rstrip("\\"))) % 2 == 0:
            # (a lone backslash at the very end stays last: a newline after it
            # would turn it into a line continuation)
            s += "\n"
        return s

    # -- lists -----------------------------------------------------------------
    def stmts(self, cmds: list):
        first = True
        for c in cmds:
            if not first:
                self.nl()
            first = False
            self.command(c)

    def block(self, cmds: list):
        self.indent += 1
        self.nl()
        self.stmts(cmds)
        self.indent -= 1
        self.nl()

    # -- commands ------------------------------------------------------------------
    def command(self, c):
        t = type(c)
        m = getattr(self, "c_" + t.__name__)
        m(c)

    def c_Background(self, c):
        self.command(c.command)
        self.w(" &")

    def c_AndOr(self, c):
        for i, cmd in enumerate(c.commands):
            if i:
                self.w(f" {c.ops[i - 1]} ")
            self.command(cmd)

    def c_Pipeline(self, c):
        if c.timed:
            self.w("time -p " if c.time_posix else "time ")
        if c.negated:
            self.w("! ")
        cmds = c.commands
        if len(cmds) == 1 and type(cmds[0]) is A.Simple and not (
                cmds[0].assigns or cmds[0].words or cmds[0].redirs):
            # `time` / `!` alone
            if self.out and self.out[-1].endswith(" "):
                self.out[-1] = self.out[-1].rstrip(" ")
            return
        for i, cmd in enumerate(cmds):
            if i:
                self.w(" |& " if c.stderr[i - 1] else " | ")
            self.command(cmd)

    def c_Simple(self, c):
        if not (c.assigns or c.words or c.redirs):
            # only `! !` parses to a bare empty command (the negations cancel out)
            self.w("! !")
            return
        items = []
        for a in c.assigns:
            items.append(lambda a=a: self.assign(a))
        words = c.words
        redirs_first = False
        if words and not c.assigns:
            w0 = words[0]
            if type(w0) is A.Word and len(w0.parts) == 1 and type(w0.parts[0]) is A.Lit and (
                    w0.parts[0].text in RESERVED or w0.parts[0].text in ("[[", "((")
                    or w0.parts[0].text.startswith("((")):
                redirs_first = True
        if redirs_first:
            for r in c.redirs:
                items.append(lambda r=r: self.redir(r))
        for wd in words:
            if type(wd) is A.Assign:
                items.append(lambda wd=wd: self.assign(wd))
            else:
                items.append(lambda wd=wd: self.word(wd))
        if not redirs_first:
            for r in c.redirs:
                items.append(lambda r=r: self.redir(r))
        for i, f in enumerate(items):
            if i:
                self.w(" ")
            f()

    def redirs(self, rs):
        for r in rs:
            self.w(" ")
            self.redir(r)

    def c_BraceGroup(self, c):
        self.w("{")
        self.block(c.body)
        self.w("}")
        self.redirs(c.redirs)

    def c_Subshell(self, c):
        self.w("(")
        self.block(c.body)
        self.w(")")
        self.redirs(c.redirs)

    def c_If(self, c):
        for i, cl in enumerate(c.clauses):
            self.w("if" if i == 0 else "elif")
            self.block(cl.cond)
            self.w("then")
            self.block(cl.body)
        if c.else_body is not None:
            self.w("else")
            self.block(c.else_body)
        self.w("fi")
        self.redirs(c.redirs)

    def c_While(self, c):
        self.w("until" if c.until else "while")
        self.block(c.cond)
        self.w("do")
        self.block(c.body)
        self.w("done")
        self.redirs(c.redirs)

    def _loop(self, kw, c):
        self.w(f"{kw} {c.var}")
        if c.words is not None:
            self.w(" in")
            for wd in c.words:
                self.w(" ")
                self.word(wd)
        self.nl()
        self.w("do")
        self.block(c.body)
        self.w("done")
        self.redirs(c.redirs)

    def c_For(self, c):
        self._loop("for", c)

    def c_Select(self, c):
        self._loop("select", c)

    def c_ArithFor(self, c):
        def t(e):
            return e.text if e is not None else ""
        self.w(f"for (({t(c.init)};{t(c.cond)};{t(c.step)}))")
        self.nl()
        self.w("do")
        self.block(c.body)
        self.w("done")
        self.redirs(c.redirs)

    def c_Case(self, c):
        self.w("case ")
        self.word(c.word)
        self.w(" in")
        self.indent += 1
        for item in c.items:
            self.nl()
            self.w("(")
            for i, p in enumerate(item.patterns):
                if i:
                    self.w("|")
                self.word(p)
            self.w(")")
            self.indent += 1
            if item.body:
                self.nl()
                self.stmts(item.body)
            self.nl()
            self.w(item.terminator)
            self.indent -= 1
        self.indent -= 1
        self.nl()
        self.w("esac")
        self.redirs(c.redirs)

    def c_FunctionDef(self, c):
        if c.keyword:
            self.w(f"function {c.name} ")
        else:
            self.w(f"{c.name}() ")
        self.command(c.body)

    def c_ArithCmd(self, c):
        text = c.expr.text
        self.w(f"(({text}))")
        self.redirs(c.redirs)

    def c_CondCmd(self, c):
        self.w("[[ ")
        self.cond(c.expr)
        self.w(" ]]")
        self.redirs(c.redirs)

    def c_Coproc(self, c):
        self.w("coproc ")
        if c.name is not None:
            self.w(c.name + " ")
        self.command(c.body)

    # -- [[ ]] ---------------------------------------------------------------------
    def cond(self, e, paren=False):
        if paren:
            self.w("( ")
        t = type(e)
        if t is A.CondOr:
            self.cond(e.left, type(e.left) is A.CondOr)
            self.w(" || ")
            self.cond(e.right, False)
        elif t is A.CondAnd:
            self.cond(e.left, type(e.left) in (A.CondAnd, A.CondOr))
            self.w(" && ")
            self.cond(e.right, type(e.right) is A.CondOr)
        elif t is A.CondNot:
            self.w("! ")
            self.cond(e.operand, type(e.operand) in (A.CondAnd, A.CondOr))
        elif t is A.CondUnary:
            self.w(e.op + " ")
            self.word(e.arg)
        elif t is A.CondBinary:
            self.word(e.left)
            self.w(f" {e.op} ")
            self.word(e.right)
        elif t is A.CondWord:
            self.word(e.word)
        if paren:
            self.w(" )")

    # -- assignments, redirections ------------------------------------------------
    def assign(self, a: A.Assign):
        self.w(a.name)
        if a.index is not None:
            self.w(f"[{a.index.text}]")
        self.w("+=" if a.append else "=")
        if a.array is not None:
            self.w("(")
            for i, el in enumerate(a.array):
                if i:
                    self.w(" ")
                if el.key is not None:
                    self.w(f"[{el.key.text}]")
                    self.w("+=" if el.append else "=")
                self.word(el.value)
            self.w(")")
        elif a.value is not None:
            self.word(a.value)

    def redir(self, r: A.Redir):
        if r.fd is not None:
            self.w(str(r.fd))
        elif r.fd_var is not None:
            self.w("{" + r.fd_var + "}")
        self.w(r.op + " ")
        if r.heredoc is not None:
            # the delimiter word as written: its text is the delimiter
            text = r.target.text or r.heredoc.delimiter
            if (len(text) - len(text.rstrip("\\"))) % 2:
                text += "\\"  # a lone trailing backslash (end of input)
            self.w(text)
            self.pending.append(r.heredoc)
        else:
            self.word(r.target)

    # -- words -----------------------------------------------------------------------
    def word(self, wd: A.Word):
        for p in wd.parts:
            self.part(p)

    def part(self, p, in_dq=False):
        t = type(p)
        if t is A.Lit:
            self.w(_dq_escape(p.text) if in_dq else p.text)
        elif t is A.SQ:
            self.w(f"'{p.text}'")
        elif t is A.Esc:
            self.w("\\" + p.text)
        elif t is A.AnsiC:
            self.w(_ansi_quote(p.text))
        elif t is A.DQ:
            self.w('$"' if p.locale else '"')
            for q in p.parts:
                self.part(q, True)
            self.w('"')
        elif t is A.Param:
            self.param(p, in_dq)
        elif t is A.BadSubst:
            self.w(p.text)
        elif t is A.CommandSub:
            self.comsub(p, in_dq)
        elif t is A.ArithSub:
            self.w(f"$(({p.expr.text}))")
        elif t is A.ProcSub:
            self.w(p.op + "(")
            self.sub_body(p.body)
            self.w(")")
        elif t is A.Tilde:
            self.w("~" + p.user)
        elif t is A.Brace:
            self.w("{")
            for i, alt in enumerate(p.alts):
                if i:
                    self.w(",")
                for q in alt:
                    self.part(q)
            self.w("}")
        elif t is A.BraceRange:
            self.w("{" + p.start + ".." + p.end + (".." + p.step if p.step else "") + "}")
        elif t is A.ExtGlob:
            self.w(p.op + "(")
            for q in p.parts:
                self.part(q)
            self.w(")")
        else:  # pragma: no cover
            raise TypeError(f"cannot print {t.__name__}")

    def param(self, p: A.Param, in_dq: bool):
        simple = (p.index is None and not p.length and not p.indirect and p.op is None)
        if simple and not p.braced:
            self.w("$" + p.name)
            # a following name character would join the name: the next part
            # decides; printing braces is always safe
            self.out[-1] = "${" + p.name + "}"
            return
        self.w("${")
        if p.length:
            self.w("#")
        if p.indirect:
            self.w("!")
        self.w(p.name)
        if p.index is not None:
            self.w(f"[{p.index.text}]")
        op = p.op
        if op is None:
            pass
        elif op in ("!*", "!@"):
            self.out[-1:] = []
            self.w("!" + p.name + op[1])
        elif op == ":":
            self.w(":" + (p.offset.text if p.offset else ""))
            if p.length_expr is not None:
                self.w(":" + p.length_expr.text)
        elif op.startswith("@"):
            self.w(op)
        else:
            self.w(op)
            if p.arg is not None:
                self.word(p.arg)
            if p.arg2 is not None:
                self.w("/")
                self.word(p.arg2)
        self.w("}")

    def comsub(self, c: A.CommandSub, in_dq: bool):
        if c.backquote:
            if c.body is None:
                inner = c.text
            else:
                inner = _sub_text(c.body)
            inner = inner.replace("\\", "\\\\").replace("`", "\\`")
            if in_dq:
                inner = inner.replace('"', '\\"')
            self.w("`" + inner + "`")
            return
        self.w("$(")
        if c.body is None:
            self.w(c.text)
        else:
            self.sub_body(c.body)
        self.w(")")

    def sub_body(self, prog: A.Program):
        text = _sub_text(prog)
        if text.startswith("("):
            text = " " + text
        self.w(text)

    def _heredoc_body(self, parts) -> str:
        p = _Printer()
        for q in parts:
            if type(q) is A.Lit:
                p.w(_heredoc_escape(q.text))
            else:
                p.part(q, True)
        return "".join(p.out)


def _sub_text(prog: A.Program) -> str:
    """A program printed for $( ... ) / backquotes: newline-separated."""
    s = format_program(prog)
    if s.endswith("\n") and not _has_heredoc(prog):
        s = s[:-1]
    return s


def _has_heredoc(node) -> bool:
    stack = [node]
    while stack:
        n = stack.pop()
        if type(n) is A.HereDoc:
            return True
        if type(n) is list:
            stack.extend(n)
        elif hasattr(n, "__slots__"):
            for f in n.__slots__:
                v = getattr(n, f, None)
                if type(v) is list or hasattr(v, "__slots__"):
                    stack.append(v)
    return False
