"""Commands printed the way bash prints them (print_cmd.c).

``declare -f``, ``type``, ``command -V``, ``set`` and exported functions show a
function as bash does: ``name () `` on its own line, ``{ ``, the body indented
by four with ``;`` after each command but the last, words as they were written.
This is not the canonical printer (printer.py): that one round-trips the AST;
this one copies bash's layout, quirks included (``elif`` becomes a nested
``if``, ``|&`` becomes ``2>&1 |``, a lone ``[[ word ]]`` is ``[[ -n word ]]``).
"""

from __future__ import annotations

from . import ast as A
from .lexer import RESERVED

__all__ = ["function_text", "word_text", "single_quote", "xtrace_word"]


def function_text(fn: A.FunctionDef, *, multiline: bool = True, name: bool = True) -> str:
    """bash's named_function_string: ``f () \\n{ \\n    body\\n}``; without
    ``multiline``, the one-line form of an exported function (``() {  body``)."""
    p = _Printer()
    return p.named_function(fn.name if name else "", fn.body, multiline)


def command_text(node) -> str:
    """A command (or a list of commands) on one line, as bash prints a job."""
    p = _Printer()
    p.make(_as_command(node))
    p.flush_deferred("")
    return "".join(p.out)


def single_quote(s: str) -> str:
    """bash's sh_single_quote."""
    if s == "'":
        return "\\'"
    return "'" + s.replace("'", "'\\''") + "'"


_SHELL_METAS = frozenset(" \t\n'\"\\|&;()<>!{}*[?]^$`")


def xtrace_word(s: str) -> str:
    """A word as set -x shows it (bash's xtrace_print_word_list): single-quoted when it
    holds a shell metacharacter, $'...' when it holds an unprintable one."""
    if s == "":
        return "''"
    if has_shell_metas(s):
        return single_quote(s)
    if needs_ansic(s):
        return ansic_quote(s)
    return s


def has_shell_metas(s: str) -> bool:
    """bash's sh_contains_shell_metas."""
    for i, c in enumerate(s):
        if c in _SHELL_METAS or (c == "~" and (i == 0 or s[i - 1] in "=:")) or (c == "#" and i == 0):
            return True
    return False


def needs_ansic(s: str) -> bool:
    """bash's ansic_shouldquote: an unprintable character."""
    for c in s:
        o = ord(c)
        if o < 32 or o == 127 or 0x80 <= o < 0xA0 or 0xDC80 <= o <= 0xDCFF:
            return True
    return False


def ansic_quote(s: str) -> str:
    """bash's ansic_quote: $'...' with C escapes, other unprintables in octal."""
    named = {"\x1b": "E", "\a": "a", "\v": "v", "\b": "b", "\f": "f", "\n": "n", "\r": "r",
             "\t": "t", "\\": "\\", "'": "'"}
    out = ["$'"]
    for c in s:
        o = ord(c)
        if c in named:
            out.append("\\" + named[c])
        elif 0xDC80 <= o <= 0xDCFF:  # an undecodable byte
            out.append(f"\\{o - 0xDC00:03o}")
        elif o < 32 or o == 127:
            out.append(f"\\{o:03o}")
        elif 0x80 <= o < 0xA0:
            out.extend(f"\\{b:03o}" for b in c.encode())
        else:
            out.append(c)
    out.append("'")
    return "".join(out)


# -- words ---------------------------------------------------------------------------------
def word_text(word: A.Word) -> str:
    """The word as bash keeps it after parsing: the source text, with $'...' turned into
    '...', $"..." into "...", line continuations gone, and $(...) printed anew."""
    text = word.text
    if text is None:
        return ""
    if not any(c in text for c in "$\\"):
        return text
    subs = [p for p in _walk_parts(word.parts) if type(p) in (A.AnsiC, A.CommandSub)]
    return _rewrite(text, subs)


def _walk_parts(parts):
    for p in parts:
        t = type(p)
        yield p
        if t is A.DQ or t is A.ExtGlob:
            yield from _walk_parts(p.parts)
        elif t is A.Param:
            for w in (p.arg, p.arg2):
                if w is not None:
                    yield from _walk_parts(w.parts)
        elif t is A.Brace:
            for alt in p.alts:
                yield from _walk_parts(alt)


def _rewrite(text: str, subs: list) -> str:
    out = []
    i, n = 0, len(text)
    in_dq = False
    subs = list(subs)
    while i < n:
        c = text[i]
        if c == "\\" and i + 1 < n:
            if text[i + 1] == "\n":
                i += 2  # a line continuation: gone
                continue
            out.append(text[i:i + 2])
            i += 2
            continue
        if c == "'" and not in_dq:
            j = text.find("'", i + 1)
            j = n - 1 if j < 0 else j
            out.append(text[i:j + 1])
            i = j + 1
            continue
        if c == '"':
            in_dq = not in_dq
            out.append(c)
            i += 1
            continue
        if c == "`":
            j = i + 1
            while j < n and text[j] != "`":
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
            continue
        if c == "$" and i + 1 < n:
            nxt = text[i + 1]
            if nxt == "'" and not in_dq:
                j = i + 2
                while j < n and text[j] != "'":
                    j += 2 if text[j] == "\\" else 1
                ansi = _next_of(subs, A.AnsiC)
                out.append(single_quote(ansi.text) if ansi is not None else text[i:j + 1])
                i = j + 1
                continue
            if nxt == '"' and not in_dq:
                i += 1  # $"..." is printed as "..." (no translation catalogue)
                continue
            if nxt == "(" and not text.startswith("$((", i):
                cs = _next_of(subs, A.CommandSub, backquote=False)
                if cs is not None and text.startswith(cs.text + ")", i + 2):
                    out.append("$(" + _comsub_text(cs) + ")")
                    i += 2 + len(cs.text) + 1
                    continue
        out.append(c)
        i += 1
    return "".join(out)


def _next_of(subs: list, kind, backquote=None):
    while subs:
        p = subs.pop(0)
        if type(p) is kind and (backquote is None or p.backquote == backquote):
            return p
    return None


def _comsub_text(cs: A.CommandSub) -> str:
    """bash 5.2 parses $(...) and keeps it printed anew (print_comsub)."""
    if cs.body is None or not cs.body.body:
        return cs.text
    p = _Printer()
    p.comsub = True
    p.make(_list(cs.body.body))
    p.flush_deferred("")
    return "".join(p.out)


def _assign_text(a: A.Assign) -> str:
    op = "+=" if a.append else "="
    idx = f"[{a.index.text}]" if a.index is not None else ""
    if a.array is not None:
        els = []
        for el in a.array:
            v = word_text(el.value)
            if el.key is not None:
                v = f"[{el.key.text}]{'+=' if el.append else '='}{v}"
            els.append(v)
        return f"{a.name}{idx}{op}(" + " ".join(els) + ")"
    return f"{a.name}{idx}{op}{word_text(a.value) if a.value is not None else ''}"


# -- bash's command tree ----------------------------------------------------------------------
class _Conn:
    """bash's cm_connection: first, connector (';' '\\n' '&' '|' '&&' '||'), second."""

    __slots__ = ("first", "op", "second", "negated", "timed", "time_posix", "redirs")

    def __init__(self, first, op, second):
        self.first, self.op, self.second = first, op, second
        self.negated = self.timed = self.time_posix = False
        self.redirs = []


class _Flagged:
    """A command carrying bash's ! / time flags (a one-command pipeline)."""

    __slots__ = ("command", "negated", "timed", "time_posix")

    def __init__(self, command, negated, timed, time_posix):
        self.command, self.negated, self.timed, self.time_posix = command, negated, timed, time_posix


def _line(c) -> int:
    return getattr(c, "line", 0) or 0


def _list(cmds: list):
    """A list of commands as bash's left-leaning chain of connections."""
    if not cmds:
        return None
    result = None
    pending_bg = False
    prev = None
    for c in cmds:
        bg = type(c) is A.Background
        cmd = _as_command(c.command if bg else c)
        if result is None:
            result = cmd
        else:
            op = "&" if pending_bg else ("\n" if _line(c) > _line(prev) else ";")
            result = _Conn(result, op, cmd)
        pending_bg = bg
        prev = c
    if pending_bg:
        result = _Conn(result, "&", None)
    return result


def _as_command(c):
    t = type(c)
    if t is list:
        return _list(c)
    if t is A.Program:
        return _list(c.body)
    if t is A.Background:
        return _Conn(_as_command(c.command), "&", None)
    if t is A.AndOr:
        result = _as_command(c.commands[0])
        for op, nxt in zip(c.ops, c.commands[1:], strict=True):
            result = _Conn(result, op, _as_command(nxt))
        return result
    if t is A.Pipeline:
        cmds = c.commands
        if len(cmds) == 1:
            inner = _as_command(cmds[0])
        else:
            inner = None
            for i, cmd in enumerate(cmds):
                piece = _as_command(cmd)
                if i < len(cmds) - 1 and i < len(c.stderr) and c.stderr[i]:
                    piece = _with_stderr(piece)
                inner = piece if inner is None else _Conn(inner, "|", piece)
        if not (c.negated or c.timed):
            return inner
        if type(inner) is _Conn:
            inner.negated, inner.timed, inner.time_posix = c.negated, c.timed, c.time_posix
            return inner
        return _Flagged(inner, c.negated, c.timed, c.time_posix)
    return c


_STDERR_DUP = A.Redir(">&", A.Word([A.Lit("1")], "1"), 2, None, None)


def _with_stderr(cmd):
    """``a |& b`` is ``a 2>&1 | b`` in bash's tree."""
    t = type(cmd)
    if t is A.Simple:
        return A.Simple(cmd.assigns, cmd.words, list(cmd.redirs) + [_STDERR_DUP], cmd.line)
    if hasattr(cmd, "redirs") and t is not _Conn:
        import copy

        new = copy.copy(cmd)
        new.redirs = list(cmd.redirs) + [_STDERR_DUP]
        return new
    return cmd


class _Printer:
    def __init__(self):
        self.out: list[str] = []
        self.indentation = 0
        self.amount = 4
        self.inside_function_def = 0
        self.skip_this_indent = 0
        self.was_heredoc = False
        self.printing_connection = 0
        self.comsub = False
        self.deferred: list = []

    # -- output primitives (cprintf, newline, indent, semicolon) --
    def w(self, s: str) -> None:
        if s:
            self.out.append(s)

    def last_char(self) -> str:
        for s in reversed(self.out):
            if s:
                return s[-1]
        return ""

    def indent(self, amount: int) -> None:
        self.w(" " * amount)

    def newline(self, s: str = "") -> None:
        self.w("\n")
        self.indent(self.indentation)
        self.w(s)

    def semicolon(self) -> None:
        if self.last_char() in ("&", "\n"):
            return
        self.w(";")

    # -- functions --
    def named_function(self, name: str, body, multiline: bool) -> str:
        if name:
            if name in RESERVED:
                self.w("function ")
            self.w(name + " ")
        self.w("() ")
        old_indent, old_amount = self.indentation, self.amount
        if not multiline:
            self.indentation, self.amount = 1, 0
        else:
            self.w("\n")
            self.indentation += self.amount
        self.inside_function_def += 1
        self.w("{ \n" if multiline else "{ ")
        func_redirs = []
        if type(body) is A.BraceGroup:
            func_redirs = body.redirs
            self.make(_list(body.body))
        else:
            self.make(_as_command(body))
        self.flush_deferred("")
        self.indentation, self.amount = old_indent, old_amount
        self.inside_function_def -= 1
        if func_redirs:
            self.newline("} ")
            self.redirection_list(func_redirs)
        else:
            self.newline("}")
        text = "".join(self.out)
        if not multiline and text[2:3] == "\n":
            text = text[:2] + text[3:]
        return text

    def function_def(self, fn: A.FunctionDef) -> None:
        """A definition inside a function body (print_function_def)."""
        self.w(f"function {fn.name} () \n")
        self.indent(self.indentation)
        self.w("{ \n")
        self.inside_function_def += 1
        self.indentation += self.amount
        body = fn.body
        func_redirs = []
        if type(body) is A.BraceGroup:
            func_redirs = body.redirs
            self.make(_list(body.body))
        else:
            self.make(_as_command(body))
        self.flush_deferred("")
        self.indentation -= self.amount
        self.inside_function_def -= 1
        self.was_heredoc = False  # (its body's here-doc ended before the brace)
        if func_redirs:
            self.newline("} ")
            self.redirection_list(func_redirs)
        else:
            self.newline("}")

    # -- commands (make_command_string_internal) --
    def make(self, c) -> None:
        if c is None:
            return
        if self.skip_this_indent:
            self.skip_this_indent -= 1
        else:
            self.indent(self.indentation)
        t = type(c)
        if t is _Flagged or t is _Conn:
            if c.timed:
                self.w("time ")
                if c.time_posix:
                    self.w("-p ")
            if c.negated:
                self.w("! ")
            if t is _Flagged:
                self.skip_this_indent += 1
                self.make(c.command)
                return
            self.connection(c)
            return
        redirs = None
        if t is A.Simple:
            self.simple(c)
        elif t is A.For or t is A.Select:
            self.for_select(c, "for" if t is A.For else "select")
            redirs = c.redirs
        elif t is A.ArithFor:
            self.arith_for(c)
            redirs = c.redirs
        elif t is A.Case:
            self.case(c)
            redirs = c.redirs
        elif t is A.While:
            self.while_(c)
            redirs = c.redirs
        elif t is A.If:
            self.if_(c)
            redirs = c.redirs
        elif t is A.ArithCmd:
            self.w("((" + c.expr.text + "))")
            redirs = c.redirs
        elif t is A.CondCmd:
            self.w("[[ ")
            self.cond(c.expr)
            self.w(" ]]")
            redirs = c.redirs
        elif t is A.FunctionDef:
            self.function_def(c)
        elif t is A.BraceGroup:
            self.group(c)
            redirs = c.redirs
        elif t is A.Subshell:
            self.w("( ")
            self.skip_this_indent += 1
            self.make(_list(c.body))
            self.flush_deferred("")
            self.w(" )")
            redirs = c.redirs
        elif t is A.Coproc:
            self.w(f"coproc {c.name or 'COPROC'} ")
            self.skip_this_indent += 1
            self.make(_as_command(c.body))
        else:
            self.make(_as_command(c))
            return
        if redirs:
            self.w(" ")
            self.redirection_list(redirs)

    def connection(self, c: _Conn) -> None:
        self.skip_this_indent += 1
        self.printing_connection += 1
        self.make(c.first)
        op = c.op
        if op in ("&", "|"):
            self.flush_deferred(" " + op)
            if op != "&" or c.second is not None:
                self.w(" ")
                self.skip_this_indent += 1
        elif op in ("&&", "||"):
            self.flush_deferred(f" {op} ")
            if c.second is not None:
                self.skip_this_indent += 1
        else:  # ';' or newline
            s = op if self.comsub else ";"
            if not self.deferred:
                if not self.was_heredoc:
                    self.w(s)
                else:
                    self.was_heredoc = False
            else:
                self.flush_deferred("" if self.inside_function_def else ";")
            if self.inside_function_def:
                self.w("\n")
            else:
                if op == ";":
                    self.w(" ")
                if c.second is not None:
                    self.skip_this_indent += 1
        self.make(c.second)
        self.flush_deferred("")
        self.printing_connection -= 1

    def simple(self, c: A.Simple) -> None:
        words = [_assign_text(a) for a in c.assigns]
        for wd in c.words:
            words.append(_assign_text(wd) if type(wd) is A.Assign else word_text(wd))
        self.w(" ".join(words))
        if c.redirs:
            if words:
                self.w(" ")
            self.redirection_list(c.redirs)

    def group(self, c: A.BraceGroup) -> None:
        self.w("{ ")
        if not self.inside_function_def:
            self.skip_this_indent += 1
        else:
            self.w("\n")
            self.indentation += self.amount
        self.make(_list(c.body))
        self.flush_deferred("")
        if self.inside_function_def:
            self.w("\n")
            self.indentation -= self.amount
            self.indent(self.indentation)
        else:
            self.semicolon()
            self.w(" ")
        self.w("}")

    def for_select(self, c, kw: str) -> None:
        words = [word_text(w) for w in c.words] if c.words is not None else ['"$@"']
        self.w(f"{kw} {c.var} in " + " ".join(words))
        self.w(";")
        self.newline("do\n")
        self.indentation += self.amount
        self.make(_list(c.body))
        self.flush_deferred("")
        self.semicolon()
        self.indentation -= self.amount
        self.newline("done")

    def arith_for(self, c: A.ArithFor) -> None:
        def t(e):  # an empty part is printed as 1 (what it means)
            text = e.text.lstrip() if e is not None else ""
            return text if text.strip() else "1"

        self.w(f"for (({t(c.init)}; {t(c.cond)}; {t(c.step)}))")
        self.newline("do\n")
        self.indentation += self.amount
        self.make(_list(c.body))
        self.flush_deferred("")
        self.semicolon()
        self.indentation -= self.amount
        self.newline("done")

    def case(self, c: A.Case) -> None:
        self.w(f"case {word_text(c.word)} in ")
        self.indentation += self.amount
        for item in c.items:
            self.newline("")
            self.w(" | ".join(word_text(p) for p in item.patterns))
            self.w(")\n")
            self.indentation += self.amount
            self.make(_list(item.body))
            self.indentation -= self.amount
            self.flush_deferred("")
            self.newline(item.terminator)
        self.indentation -= self.amount
        self.newline("esac")

    def while_(self, c: A.While) -> None:
        self.w("until " if c.until else "while ")
        self.skip_this_indent += 1
        self.make(_list(c.cond))
        self.flush_deferred("")
        self.semicolon()
        self.w(" do\n")
        self.indentation += self.amount
        self.make(_list(c.body))
        self.flush_deferred("")
        self.indentation -= self.amount
        self.semicolon()
        self.newline("done")

    def if_(self, c: A.If, clause: int = 0) -> None:
        cl = c.clauses[clause]
        self.w("if ")
        self.skip_this_indent += 1
        self.make(_list(cl.cond))
        self.semicolon()
        self.w(" then\n")
        self.indentation += self.amount
        self.make(_list(cl.body))
        self.flush_deferred("")
        self.indentation -= self.amount
        if clause + 1 < len(c.clauses) or c.else_body is not None:
            self.semicolon()
            self.newline("else\n")
            self.indentation += self.amount
            if clause + 1 < len(c.clauses):  # elif: an if inside the else
                self.indent(self.indentation)
                self.if_(c, clause + 1)
            else:
                self.make(_list(c.else_body))
            self.flush_deferred("")
            self.indentation -= self.amount
        self.semicolon()
        self.newline("fi")

    def cond(self, e) -> None:
        t = type(e)
        if t is A.CondOr or t is A.CondAnd:
            # the tree keeps no parentheses: print those the grouping needs
            lp = t is A.CondAnd and type(e.left) is A.CondOr
            rp = type(e.right) is A.CondOr or (t is A.CondAnd and type(e.right) is A.CondAnd)
            self._cond_side(e.left, lp)
            self.w(" || " if t is A.CondOr else " && ")
            self._cond_side(e.right, rp)
        elif t is A.CondNot:
            self.w("! ")
            paren = type(e.operand) in (A.CondAnd, A.CondOr)
            if paren:
                self.w("( ")
            self.cond(e.operand)
            if paren:
                self.w(" )")
        elif t is A.CondUnary:
            self.w(e.op + " " + word_text(e.arg))
        elif t is A.CondBinary:
            self.w(word_text(e.left) + f" {e.op} " + word_text(e.right))
        elif t is A.CondWord:
            self.w("-n " + word_text(e.word))

    def _cond_side(self, e, paren: bool) -> None:
        if paren:
            self.w("( ")
        self.cond(e)
        if paren:
            self.w(" )")

    # -- redirections --
    def redirection_list(self, redirs: list) -> None:
        heredocs = []
        self.was_heredoc = False
        for i, r in enumerate(redirs):
            if i:
                self.w(" ")
            if r.heredoc is not None:
                self.heredoc_header(r)
                heredocs.append(r)
            else:
                self.w(_redirection(r))
        if heredocs and self.printing_connection:
            self.deferred.extend(heredocs)
        elif heredocs:
            self.heredoc_bodies(heredocs)

    def heredoc_header(self, r: A.Redir) -> None:
        if r.fd_var is not None:
            self.w("{" + r.fd_var + "}")
        elif r.fd is not None and r.fd != 0:
            self.w(str(r.fd))
        hd = r.heredoc
        eof = single_quote(hd.delimiter) if hd.quoted else hd.delimiter
        self.w(("<<-" if hd.strip_tabs else "<<") + eof)

    def heredoc_bodies(self, heredocs: list) -> None:
        self.w("\n")
        for r in heredocs:
            self.w((r.heredoc.text or "") + r.heredoc.delimiter)
            self.w("\n")
        self.was_heredoc = True

    def flush_deferred(self, cstring: str) -> None:
        """print_deferred_heredocs: the connector, then the bodies held back for it."""
        show = bool(cstring) and (cstring[0] != ";" or len(cstring) > 1)
        if show:
            self.w(cstring)
        if self.deferred:
            pending, self.deferred = self.deferred, []
            self.heredoc_bodies(pending)
            if show:
                self.w(" ")
            self.was_heredoc = True


def _redirection(r: A.Redir) -> str:
    op = r.op
    target = word_text(r.target) if r.target is not None else ""
    if r.fd_var is not None:
        fd_text = "{" + r.fd_var + "}"
        fd = None
    else:
        fd_text = None
        fd = r.fd
    default = 0 if op in ("<", "<<<", "<&", "<>") else 1

    def pre(show_default: bool = False) -> str:
        if fd_text is not None:
            return fd_text
        n = default if fd is None else fd
        if show_default or n != (1 if op == "<>" else default):
            return str(n)
        return ""

    if op in ("&>", "&>>"):
        return f"{op} {target}"
    if op in ("<", ">", ">>", ">|", "<>", "<<<"):
        return f"{pre()}{op} {target}"
    if op in (">&", "<&"):
        if target == "-":  # closing is always printed as N>&-
            return f"{pre(True)}>&-"
        if target.isdigit():
            return f"{pre(True)}{op}{target}"
        if target.endswith("-") and target[:-1].isdigit():
            return f"{pre(True)}{op}{target}"
        return f"{pre()}{op}{target}"
    return f"{pre()}{op} {target}"
