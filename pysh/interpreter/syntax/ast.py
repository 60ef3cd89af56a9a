r"""The bash AST: typed, slotted dataclasses.  The parser builds them; nothing here runs.

Every node compares by value, except the bookkeeping fields marked (nc) below
(``line``, ``Word.text``, raw texts): those are ``compare=False`` so that the
round-trip property ``parse(print(parse(s))) == parse(s)`` holds.

Commands (every command node has ``line``: the 1-based line it starts on)
========================================================================

==============  ==========================================================
node            fields
==============  ==========================================================
Program         body: list[Command]
Simple          assigns: list[Assign]   -- ``a=1 b+=2`` before the name
                words: list[Word | Assign]  -- name and arguments; an
                    ``Assign`` appears here only as an argument of a
                    declaration builtin named literally (declare, typeset,
                    local, export, readonly, alias): ``declare -A m=([k]=v)``
                redirs: list[Redir]     -- in source order
Pipeline        commands: list[Command] (>= 1); negated: bool (``!``, toggled
                per ``!``); timed: bool (``time``); time_posix: bool
                (``time -p``); stderr: list[bool], one per ``|`` (True for
                ``|&``).  A plain command that is not in a pipeline and has
                no ``!``/``time`` is NOT wrapped in a Pipeline.
                ``time`` or ``!`` alone: commands == [Simple([], [], [])].
AndOr           commands: list[Command] (>= 2); ops: list[str], each
                ``'&&'`` or ``'||'`` (len == len(commands) - 1)
Background      command: Command        -- ``cmd &`` (an item of a list)
BraceGroup      body: list[Command]; redirs
Subshell        body: list[Command]; redirs
If              clauses: list[IfClause] (if + each elif);
                else_body: list[Command] | None; redirs
IfClause        cond: list[Command]; body: list[Command]  (not a command)
While           cond: list[Command]; body: list[Command]; until: bool; redirs
For             var: str; words: list[Word] | None (None: no ``in``, i.e.
                "$@"); body: list[Command]; redirs
Select          same fields as For
ArithFor        init, cond, step: ArithExpr | None; body; redirs
Case            word: Word; items: list[CaseItem]; redirs
CaseItem        patterns: list[Word]; body: list[Command];
                terminator: ``';;'`` | ``';&'`` | ``';;&'``; line
FunctionDef     name: str; body: Command (a compound command, which carries
                the function's redirections); keyword: bool (``function f``)
ArithCmd        expr: ArithExpr (``(( ... ))``); redirs
CondCmd         expr: CondNode (``[[ ... ]]``); redirs
Coproc          name: str | None; body: Command  (parsed; not run by pysh)
==============  ==========================================================

A *list* (``Program.body``, a loop body, ...) is a ``list[Command]`` run in
order; an item ended by ``&`` is wrapped in ``Background``.

Words and their parts
=====================

A ``Word`` is ``parts: list[Part]`` plus ``text`` (nc: source text).  Quoting
is recorded by the part type, never re-discovered later:

==============  ==========================================================
part            meaning
==============  ==========================================================
Lit             text: str.  Unquoted literal text.  Glob characters in it
                (``* ? [...]``) are live pattern characters.  Inside DQ /
                here-doc bodies / ExtGlob, a Lit is literal text of that
                context (quoted, for DQ and here-docs).
Esc             text: str.  One backslash-escaped character outside double
                quotes (``\\*`` -> Esc('*')): quoted literal.
SQ              text: str.  ``'...'``: quoted literal.
AnsiC           text: str.  ``$'...'`` already decoded: quoted literal.
                ``\xHH`` / octal escapes >= 0x80 give raw bytes, held as
                surrogate escapes (chr(0xDC00 + byte)), as
                ``bytes.decode('utf-8', 'surrogateescape')`` would.
DQ              parts: list[Part]; locale: bool (``$"..."``).  Inside: Lit,
                Param, CommandSub, ArithSub, BadSubst.
Param           ``$x``, ``${...}``.  Fields:
                  name: str  ('x', '1', '@', '*', '#', '?', '-', '$', '!', '0')
                  braced: bool (nc: True when written ``${x}``)
                  index: ArithExpr | None   ``${a[i]}``; ``index.text`` is
                      '@' or '*' for ``${a[@]}`` / ``${a[*]}``
                  length: bool   ``${#x}``
                  indirect: bool ``${!x}``; with index @/* it means the keys
                      ``${!a[@]}``
                  op: str | None, one of
                      ':-' '-' ':=' '=' ':?' '?' ':+' '+'   (arg = word)
                      '#' '##' '%' '%%'                     (arg = pattern)
                      '/' '//' '/#' '/%'  (arg = pattern, arg2 = replacement
                                           word or None when no second '/')
                      ':'   slice: offset / length are ArithExpr (length None
                            when absent)
                      '^' '^^' ',' ',,'                      (arg = pattern|None)
                      '@Q' '@E' '@P' '@A' '@K' '@a' '@u' '@U' '@L' '@k'
                      '!*' '!@'   ``${!prefix*}`` / ``${!prefix@}`` (name is
                                  the prefix)
                  arg: Word | None; arg2: Word | None
                  offset: ArithExpr | None; length_expr: ArithExpr | None
                The operand words of ':-' and friends are parsed as the
                context requires: inside double quotes their single quotes
                are literal (bash), in pattern operands quotes always quote.
BadSubst        text: str.  A ``${...}`` bash accepts at parse time but
                rejects when expanded ("bad substitution"); text is the whole
                ``${...}``.
CommandSub      body: Program | None; backquote: bool; text (nc: the source
                between the delimiters, after backquote unescaping);
                error: ParseError | None (nc).  ``body`` is None only for a
                backquote / here-doc substitution whose text does not parse:
                bash reports that error when it runs the substitution.
ArithSub        expr: ArithExpr   ``$(( ... ))`` (and legacy ``$[ ... ]``)
ProcSub         op: '<' | '>'; body: Program
Tilde           user: str.  A live tilde prefix: '' for ``~``, 'bob', '+',
                '-', '+2' ...  Only at the start of a word, and after ``=``
                and after each ``:`` in assignment values (and in arguments
                that look like assignments, as bash does).
Brace           alts: list[list[Part]].  ``{a,b}`` brace expansion; an
                alternative may contain nested Brace / BraceRange.  Only
                where bash expands braces (not in assignments, not quoted;
                ``{}``, ``{a}``, ``${`` stay literal).
BraceRange      start: str; end: str; step: str | None; text (nc).
                ``{1..10..2}``, ``{a..e}``, ``{01..10}`` (zero padding is in
                the start/end text).
ExtGlob         op: one of ``@ * + ? !``; parts: list[Part] -- the text
                between the parentheses, ``|`` separators kept in Lit parts.
==============  ==========================================================

Arithmetic and other sub-languages
==================================

ArithExpr       word: Word  (the expression text as word parts: ``$x``,
                ``${..}``, ``$(..)`` inside are still to expand); text (nc,
                source); node: ArithNode | None -- pre-parsed when the text
                has no ``$`` / backquote expansion and parses; None otherwise
                (expand ``word`` at run time, then ``parse_arith`` it -- a
                syntax error must surface at run time).
                ArithNode classes live in ``arith.py``.

CondNode        CondAnd(left, right) | CondOr(left, right) | CondNot(operand)
                | CondUnary(op: str, arg: Word) | CondBinary(op: str,
                left: Word, right: Word) | CondWord(word)  (``[[ w ]]``).
                For ``==``/``=``/``!=`` the right word is a pattern (extglob
                syntax allowed); for ``=~`` it is the regex, quoting recorded.

Assignments and redirections
============================

Assign          name: str; index: ArithExpr | None (``a[i]=v``);
                append: bool (``+=``); value: Word | None (None for an array
                literal); array: list[ArrayElem] | None (``a=(x y)``)
ArrayElem       key: ArithExpr | None (``[k]=v``); value: Word; append: bool
                (``[k]+=v``)
Redir           op: one of ``< > >> >| <> << <<- <<< &> &>> >& <&``;
                fd: int | None (explicit ``2>``); fd_var: str | None
                (``{var}>``); target: Word (file, fd number, ``-``, here-string
                word, or here-doc delimiter word); heredoc: HereDoc | None
HereDoc         delimiter: str (quote-removed); quoted: bool; strip_tabs: bool
                (``<<-``, already applied); parts: list[Part] (unquoted
                delimiter: DQ-like parts -- Lit, Param, CommandSub, ArithSub;
                quoted: a single Lit); text (nc: raw body)
==============  ==========================================================
"""

# Generated by gen_ast.py -- do not edit; change the spec there and run
#     python -m pysh.interpreter.syntax.gen_ast
# ruff: noqa: E501

from __future__ import annotations

from typing import Any

__all__ = ['Lit', 'Esc', 'SQ', 'AnsiC', 'DQ', 'Param', 'BadSubst', 'CommandSub', 'ArithSub', 'ProcSub', 'Tilde', 'Brace', 'BraceRange', 'ExtGlob', 'Word', 'ArithExpr', 'CondAnd', 'CondOr', 'CondNot', 'CondUnary', 'CondBinary', 'CondWord', 'ArrayElem', 'Assign', 'HereDoc', 'Redir', 'Program', 'Simple', 'Pipeline', 'AndOr', 'Background', 'BraceGroup', 'Subshell', 'IfClause', 'If', 'While', 'For', 'Select', 'ArithFor', 'CaseItem', 'Case', 'FunctionDef', 'ArithCmd', 'CondCmd', 'Coproc', 'ANum', 'AVar', 'AUnary', 'AIncDec', 'ABinary', 'ATernary', 'AAssign', 'Part', 'CondNode', 'Command', 'COMPOUND_TYPES', 'ArithNode']

# ---------------------------------------------------------------------------
# word parts


class Lit:
    __slots__ = ('text',)
    __match_args__ = ('text',)
    _fields = ('text',)

    def __init__(self, text: str):
        self.text = text

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self.text == other.text

    __hash__ = None

    def __repr__(self):
        return f"Lit(text={self.text!r})"


class Esc:
    __slots__ = ('text',)
    __match_args__ = ('text',)
    _fields = ('text',)

    def __init__(self, text: str):
        self.text = text

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self.text == other.text

    __hash__ = None

    def __repr__(self):
        return f"Esc(text={self.text!r})"


class SQ:
    __slots__ = ('text',)
    __match_args__ = ('text',)
    _fields = ('text',)

    def __init__(self, text: str):
        self.text = text

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self.text == other.text

    __hash__ = None

    def __repr__(self):
        return f"SQ(text={self.text!r})"


class AnsiC:
    __slots__ = ('text',)
    __match_args__ = ('text',)
    _fields = ('text',)

    def __init__(self, text: str):
        self.text = text

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self.text == other.text

    __hash__ = None

    def __repr__(self):
        return f"AnsiC(text={self.text!r})"


class DQ:
    __slots__ = ('parts', 'locale')
    __match_args__ = ('parts', 'locale')
    _fields = ('parts', 'locale')

    def __init__(self, parts: list, locale: bool = False):
        self.parts = parts
        self.locale = locale

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.parts, self.locale) == (
            other.parts, other.locale)

    __hash__ = None

    def __repr__(self):
        return f"DQ(parts={self.parts!r}, locale={self.locale!r})"


class Param:
    __slots__ = ('name', 'braced', 'index', 'length', 'indirect', 'op', 'arg', 'arg2', 'offset', 'length_expr')
    __match_args__ = ('name', 'braced', 'index', 'length', 'indirect', 'op', 'arg', 'arg2', 'offset', 'length_expr')
    _fields = ('name', 'braced', 'index', 'length', 'indirect', 'op', 'arg', 'arg2', 'offset', 'length_expr')

    def __init__(
        self,
        name: str,
        braced: bool = False,
        index: ArithExpr | None = None,
        length: bool = False,
        indirect: bool = False,
        op: str | None = None,
        arg: Word | None = None,
        arg2: Word | None = None,
        offset: ArithExpr | None = None,
        length_expr: ArithExpr | None = None,
    ):
        self.name = name
        self.braced = braced
        self.index = index
        self.length = length
        self.indirect = indirect
        self.op = op
        self.arg = arg
        self.arg2 = arg2
        self.offset = offset
        self.length_expr = length_expr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.name, self.index, self.length, self.indirect, self.op, self.arg, self.arg2, self.offset, self.length_expr) == (
            other.name, other.index, other.length, other.indirect, other.op, other.arg, other.arg2, other.offset, other.length_expr)

    __hash__ = None

    def __repr__(self):
        return f"Param(name={self.name!r}, braced={self.braced!r}, index={self.index!r}, length={self.length!r}, indirect={self.indirect!r}, op={self.op!r}, arg={self.arg!r}, arg2={self.arg2!r}, offset={self.offset!r}, length_expr={self.length_expr!r})"


class BadSubst:
    __slots__ = ('text',)
    __match_args__ = ('text',)
    _fields = ('text',)

    def __init__(self, text: str):
        self.text = text

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self.text == other.text

    __hash__ = None

    def __repr__(self):
        return f"BadSubst(text={self.text!r})"


class CommandSub:
    __slots__ = ('body', 'backquote', 'text', 'error')
    __match_args__ = ('body', 'backquote', 'text', 'error')
    _fields = ('body', 'backquote', 'text', 'error')

    def __init__(
        self,
        body: Program | None,
        backquote: bool = False,
        text: str = '',
        error: Any = None,
    ):
        self.body = body
        self.backquote = backquote
        self.text = text
        self.error = error

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.body, self.backquote) == (
            other.body, other.backquote)

    __hash__ = None

    def __repr__(self):
        return f"CommandSub(body={self.body!r}, backquote={self.backquote!r}, text={self.text!r}, error={self.error!r})"


class ArithSub:
    __slots__ = ('expr',)
    __match_args__ = ('expr',)
    _fields = ('expr',)

    def __init__(self, expr: ArithExpr):
        self.expr = expr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self.expr == other.expr

    __hash__ = None

    def __repr__(self):
        return f"ArithSub(expr={self.expr!r})"


class ProcSub:
    __slots__ = ('op', 'body')
    __match_args__ = ('op', 'body')
    _fields = ('op', 'body')

    def __init__(self, op: str, body: Program):
        self.op = op
        self.body = body

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.op, self.body) == (
            other.op, other.body)

    __hash__ = None

    def __repr__(self):
        return f"ProcSub(op={self.op!r}, body={self.body!r})"


class Tilde:
    __slots__ = ('user',)
    __match_args__ = ('user',)
    _fields = ('user',)

    def __init__(self, user: str = ''):
        self.user = user

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self.user == other.user

    __hash__ = None

    def __repr__(self):
        return f"Tilde(user={self.user!r})"


class Brace:
    __slots__ = ('alts',)
    __match_args__ = ('alts',)
    _fields = ('alts',)

    def __init__(self, alts: list):
        self.alts = alts

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self.alts == other.alts

    __hash__ = None

    def __repr__(self):
        return f"Brace(alts={self.alts!r})"


class BraceRange:
    __slots__ = ('start', 'end', 'step', 'text')
    __match_args__ = ('start', 'end', 'step', 'text')
    _fields = ('start', 'end', 'step', 'text')

    def __init__(self, start: str, end: str, step: str | None = None, text: str = ''):
        self.start = start
        self.end = end
        self.step = step
        self.text = text

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.start, self.end, self.step) == (
            other.start, other.end, other.step)

    __hash__ = None

    def __repr__(self):
        return f"BraceRange(start={self.start!r}, end={self.end!r}, step={self.step!r}, text={self.text!r})"


class ExtGlob:
    __slots__ = ('op', 'parts')
    __match_args__ = ('op', 'parts')
    _fields = ('op', 'parts')

    def __init__(self, op: str, parts: list):
        self.op = op
        self.parts = parts

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.op, self.parts) == (
            other.op, other.parts)

    __hash__ = None

    def __repr__(self):
        return f"ExtGlob(op={self.op!r}, parts={self.parts!r})"

# ---------------------------------------------------------------------------
# words, arithmetic


class Word:
    __slots__ = ('parts', 'text')
    __match_args__ = ('parts', 'text')
    _fields = ('parts', 'text')

    def __init__(self, parts: list, text: str = ''):
        self.parts = parts
        self.text = text

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self.parts == other.parts

    __hash__ = None

    def __repr__(self):
        return f"Word(parts={self.parts!r}, text={self.text!r})"


class ArithExpr:
    __slots__ = ('word', 'node', 'text')
    __match_args__ = ('word', 'node', 'text')
    _fields = ('word', 'node', 'text')

    def __init__(self, word: Word, node: Any = None, text: str = ''):
        self.word = word
        self.node = node
        self.text = text

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.word, self.node) == (
            other.word, other.node)

    __hash__ = None

    def __repr__(self):
        return f"ArithExpr(word={self.word!r}, node={self.node!r}, text={self.text!r})"

# ---------------------------------------------------------------------------
# [[ ... ]]


class CondAnd:
    __slots__ = ('left', 'right')
    __match_args__ = ('left', 'right')
    _fields = ('left', 'right')

    def __init__(self, left: Any, right: Any):
        self.left = left
        self.right = right

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.left, self.right) == (
            other.left, other.right)

    __hash__ = None

    def __repr__(self):
        return f"CondAnd(left={self.left!r}, right={self.right!r})"


class CondOr:
    __slots__ = ('left', 'right')
    __match_args__ = ('left', 'right')
    _fields = ('left', 'right')

    def __init__(self, left: Any, right: Any):
        self.left = left
        self.right = right

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.left, self.right) == (
            other.left, other.right)

    __hash__ = None

    def __repr__(self):
        return f"CondOr(left={self.left!r}, right={self.right!r})"


class CondNot:
    __slots__ = ('operand',)
    __match_args__ = ('operand',)
    _fields = ('operand',)

    def __init__(self, operand: Any):
        self.operand = operand

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self.operand == other.operand

    __hash__ = None

    def __repr__(self):
        return f"CondNot(operand={self.operand!r})"


class CondUnary:
    __slots__ = ('op', 'arg')
    __match_args__ = ('op', 'arg')
    _fields = ('op', 'arg')

    def __init__(self, op: str, arg: Word):
        self.op = op
        self.arg = arg

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.op, self.arg) == (
            other.op, other.arg)

    __hash__ = None

    def __repr__(self):
        return f"CondUnary(op={self.op!r}, arg={self.arg!r})"


class CondBinary:
    __slots__ = ('op', 'left', 'right')
    __match_args__ = ('op', 'left', 'right')
    _fields = ('op', 'left', 'right')

    def __init__(self, op: str, left: Word, right: Word):
        self.op = op
        self.left = left
        self.right = right

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.op, self.left, self.right) == (
            other.op, other.left, other.right)

    __hash__ = None

    def __repr__(self):
        return f"CondBinary(op={self.op!r}, left={self.left!r}, right={self.right!r})"


class CondWord:
    __slots__ = ('word',)
    __match_args__ = ('word',)
    _fields = ('word',)

    def __init__(self, word: Word):
        self.word = word

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self.word == other.word

    __hash__ = None

    def __repr__(self):
        return f"CondWord(word={self.word!r})"

# ---------------------------------------------------------------------------
# assignments, redirections


class ArrayElem:
    __slots__ = ('key', 'value', 'append')
    __match_args__ = ('key', 'value', 'append')
    _fields = ('key', 'value', 'append')

    def __init__(self, key: ArithExpr | None, value: Word, append: bool = False):
        self.key = key
        self.value = value
        self.append = append

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.key, self.value, self.append) == (
            other.key, other.value, other.append)

    __hash__ = None

    def __repr__(self):
        return f"ArrayElem(key={self.key!r}, value={self.value!r}, append={self.append!r})"


class Assign:
    __slots__ = ('name', 'index', 'append', 'value', 'array')
    __match_args__ = ('name', 'index', 'append', 'value', 'array')
    _fields = ('name', 'index', 'append', 'value', 'array')

    def __init__(
        self,
        name: str,
        index: ArithExpr | None = None,
        append: bool = False,
        value: Word | None = None,
        array: list | None = None,
    ):
        self.name = name
        self.index = index
        self.append = append
        self.value = value
        self.array = array

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.name, self.index, self.append, self.value, self.array) == (
            other.name, other.index, other.append, other.value, other.array)

    __hash__ = None

    def __repr__(self):
        return f"Assign(name={self.name!r}, index={self.index!r}, append={self.append!r}, value={self.value!r}, array={self.array!r})"


class HereDoc:
    __slots__ = ('delimiter', 'quoted', 'strip_tabs', 'parts', 'text')
    __match_args__ = ('delimiter', 'quoted', 'strip_tabs', 'parts', 'text')
    _fields = ('delimiter', 'quoted', 'strip_tabs', 'parts', 'text')

    def __init__(
        self,
        delimiter: str,
        quoted: bool = False,
        strip_tabs: bool = False,
        parts: list | None = None,
        text: str = '',
    ):
        self.delimiter = delimiter
        self.quoted = quoted
        self.strip_tabs = strip_tabs
        self.parts = [] if parts is None else parts
        self.text = text

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.delimiter, self.quoted, self.strip_tabs, self.parts) == (
            other.delimiter, other.quoted, other.strip_tabs, other.parts)

    __hash__ = None

    def __repr__(self):
        return f"HereDoc(delimiter={self.delimiter!r}, quoted={self.quoted!r}, strip_tabs={self.strip_tabs!r}, parts={self.parts!r}, text={self.text!r})"


class Redir:
    __slots__ = ('op', 'target', 'fd', 'fd_var', 'heredoc')
    __match_args__ = ('op', 'target', 'fd', 'fd_var', 'heredoc')
    _fields = ('op', 'target', 'fd', 'fd_var', 'heredoc')

    def __init__(
        self,
        op: str,
        target: Word,
        fd: int | None = None,
        fd_var: str | None = None,
        heredoc: HereDoc | None = None,
    ):
        self.op = op
        self.target = target
        self.fd = fd
        self.fd_var = fd_var
        self.heredoc = heredoc

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.op, self.target, self.fd, self.fd_var, self.heredoc) == (
            other.op, other.target, other.fd, other.fd_var, other.heredoc)

    __hash__ = None

    def __repr__(self):
        return f"Redir(op={self.op!r}, target={self.target!r}, fd={self.fd!r}, fd_var={self.fd_var!r}, heredoc={self.heredoc!r})"

# ---------------------------------------------------------------------------
# commands


class Program:
    __slots__ = ('body', 'line')
    __match_args__ = ('body', 'line')
    _fields = ('body', 'line')

    def __init__(self, body: list, line: int = 1):
        self.body = body
        self.line = line

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self.body == other.body

    __hash__ = None

    def __repr__(self):
        return f"Program(body={self.body!r}, line={self.line!r})"


class Simple:
    __slots__ = ('assigns', 'words', 'redirs', 'line')
    __match_args__ = ('assigns', 'words', 'redirs', 'line')
    _fields = ('assigns', 'words', 'redirs', 'line')

    def __init__(self, assigns: list, words: list, redirs: list, line: int = 0):
        self.assigns = assigns
        self.words = words
        self.redirs = redirs
        self.line = line

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.assigns, self.words, self.redirs) == (
            other.assigns, other.words, other.redirs)

    __hash__ = None

    def __repr__(self):
        return f"Simple(assigns={self.assigns!r}, words={self.words!r}, redirs={self.redirs!r}, line={self.line!r})"


class Pipeline:
    __slots__ = ('commands', 'negated', 'timed', 'time_posix', 'stderr', 'line')
    __match_args__ = ('commands', 'negated', 'timed', 'time_posix', 'stderr', 'line')
    _fields = ('commands', 'negated', 'timed', 'time_posix', 'stderr', 'line')

    def __init__(
        self,
        commands: list,
        negated: bool = False,
        timed: bool = False,
        time_posix: bool = False,
        stderr: list | None = None,
        line: int = 0,
    ):
        self.commands = commands
        self.negated = negated
        self.timed = timed
        self.time_posix = time_posix
        self.stderr = [] if stderr is None else stderr
        self.line = line

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.commands, self.negated, self.timed, self.time_posix, self.stderr) == (
            other.commands, other.negated, other.timed, other.time_posix, other.stderr)

    __hash__ = None

    def __repr__(self):
        return f"Pipeline(commands={self.commands!r}, negated={self.negated!r}, timed={self.timed!r}, time_posix={self.time_posix!r}, stderr={self.stderr!r}, line={self.line!r})"


class AndOr:
    __slots__ = ('commands', 'ops', 'line')
    __match_args__ = ('commands', 'ops', 'line')
    _fields = ('commands', 'ops', 'line')

    def __init__(self, commands: list, ops: list, line: int = 0):
        self.commands = commands
        self.ops = ops
        self.line = line

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.commands, self.ops) == (
            other.commands, other.ops)

    __hash__ = None

    def __repr__(self):
        return f"AndOr(commands={self.commands!r}, ops={self.ops!r}, line={self.line!r})"


class Background:
    __slots__ = ('command', 'line')
    __match_args__ = ('command', 'line')
    _fields = ('command', 'line')

    def __init__(self, command: Any, line: int = 0):
        self.command = command
        self.line = line

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self.command == other.command

    __hash__ = None

    def __repr__(self):
        return f"Background(command={self.command!r}, line={self.line!r})"


class BraceGroup:
    __slots__ = ('body', 'redirs', 'line')
    __match_args__ = ('body', 'redirs', 'line')
    _fields = ('body', 'redirs', 'line')

    def __init__(self, body: list, redirs: list | None = None, line: int = 0):
        self.body = body
        self.redirs = [] if redirs is None else redirs
        self.line = line

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.body, self.redirs) == (
            other.body, other.redirs)

    __hash__ = None

    def __repr__(self):
        return f"BraceGroup(body={self.body!r}, redirs={self.redirs!r}, line={self.line!r})"


class Subshell:
    __slots__ = ('body', 'redirs', 'line')
    __match_args__ = ('body', 'redirs', 'line')
    _fields = ('body', 'redirs', 'line')

    def __init__(self, body: list, redirs: list | None = None, line: int = 0):
        self.body = body
        self.redirs = [] if redirs is None else redirs
        self.line = line

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.body, self.redirs) == (
            other.body, other.redirs)

    __hash__ = None

    def __repr__(self):
        return f"Subshell(body={self.body!r}, redirs={self.redirs!r}, line={self.line!r})"


class IfClause:
    __slots__ = ('cond', 'body')
    __match_args__ = ('cond', 'body')
    _fields = ('cond', 'body')

    def __init__(self, cond: list, body: list):
        self.cond = cond
        self.body = body

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.cond, self.body) == (
            other.cond, other.body)

    __hash__ = None

    def __repr__(self):
        return f"IfClause(cond={self.cond!r}, body={self.body!r})"


class If:
    __slots__ = ('clauses', 'else_body', 'redirs', 'line')
    __match_args__ = ('clauses', 'else_body', 'redirs', 'line')
    _fields = ('clauses', 'else_body', 'redirs', 'line')

    def __init__(
        self,
        clauses: list,
        else_body: list | None = None,
        redirs: list | None = None,
        line: int = 0,
    ):
        self.clauses = clauses
        self.else_body = else_body
        self.redirs = [] if redirs is None else redirs
        self.line = line

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.clauses, self.else_body, self.redirs) == (
            other.clauses, other.else_body, other.redirs)

    __hash__ = None

    def __repr__(self):
        return f"If(clauses={self.clauses!r}, else_body={self.else_body!r}, redirs={self.redirs!r}, line={self.line!r})"


class While:
    __slots__ = ('cond', 'body', 'until', 'redirs', 'line')
    __match_args__ = ('cond', 'body', 'until', 'redirs', 'line')
    _fields = ('cond', 'body', 'until', 'redirs', 'line')

    def __init__(
        self,
        cond: list,
        body: list,
        until: bool = False,
        redirs: list | None = None,
        line: int = 0,
    ):
        self.cond = cond
        self.body = body
        self.until = until
        self.redirs = [] if redirs is None else redirs
        self.line = line

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.cond, self.body, self.until, self.redirs) == (
            other.cond, other.body, other.until, other.redirs)

    __hash__ = None

    def __repr__(self):
        return f"While(cond={self.cond!r}, body={self.body!r}, until={self.until!r}, redirs={self.redirs!r}, line={self.line!r})"


class For:
    __slots__ = ('var', 'words', 'body', 'redirs', 'line')
    __match_args__ = ('var', 'words', 'body', 'redirs', 'line')
    _fields = ('var', 'words', 'body', 'redirs', 'line')

    def __init__(
        self,
        var: str,
        words: list | None,
        body: list,
        redirs: list | None = None,
        line: int = 0,
    ):
        self.var = var
        self.words = words
        self.body = body
        self.redirs = [] if redirs is None else redirs
        self.line = line

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.var, self.words, self.body, self.redirs) == (
            other.var, other.words, other.body, other.redirs)

    __hash__ = None

    def __repr__(self):
        return f"For(var={self.var!r}, words={self.words!r}, body={self.body!r}, redirs={self.redirs!r}, line={self.line!r})"


class Select:
    __slots__ = ('var', 'words', 'body', 'redirs', 'line')
    __match_args__ = ('var', 'words', 'body', 'redirs', 'line')
    _fields = ('var', 'words', 'body', 'redirs', 'line')

    def __init__(
        self,
        var: str,
        words: list | None,
        body: list,
        redirs: list | None = None,
        line: int = 0,
    ):
        self.var = var
        self.words = words
        self.body = body
        self.redirs = [] if redirs is None else redirs
        self.line = line

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.var, self.words, self.body, self.redirs) == (
            other.var, other.words, other.body, other.redirs)

    __hash__ = None

    def __repr__(self):
        return f"Select(var={self.var!r}, words={self.words!r}, body={self.body!r}, redirs={self.redirs!r}, line={self.line!r})"


class ArithFor:
    __slots__ = ('init', 'cond', 'step', 'body', 'redirs', 'line')
    __match_args__ = ('init', 'cond', 'step', 'body', 'redirs', 'line')
    _fields = ('init', 'cond', 'step', 'body', 'redirs', 'line')

    def __init__(
        self,
        init: ArithExpr | None,
        cond: ArithExpr | None,
        step: ArithExpr | None,
        body: list,
        redirs: list | None = None,
        line: int = 0,
    ):
        self.init = init
        self.cond = cond
        self.step = step
        self.body = body
        self.redirs = [] if redirs is None else redirs
        self.line = line

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.init, self.cond, self.step, self.body, self.redirs) == (
            other.init, other.cond, other.step, other.body, other.redirs)

    __hash__ = None

    def __repr__(self):
        return f"ArithFor(init={self.init!r}, cond={self.cond!r}, step={self.step!r}, body={self.body!r}, redirs={self.redirs!r}, line={self.line!r})"


class CaseItem:
    __slots__ = ('patterns', 'body', 'terminator', 'line')
    __match_args__ = ('patterns', 'body', 'terminator', 'line')
    _fields = ('patterns', 'body', 'terminator', 'line')

    def __init__(self, patterns: list, body: list, terminator: str = ';;', line: int = 0):
        self.patterns = patterns
        self.body = body
        self.terminator = terminator
        self.line = line

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.patterns, self.body, self.terminator) == (
            other.patterns, other.body, other.terminator)

    __hash__ = None

    def __repr__(self):
        return f"CaseItem(patterns={self.patterns!r}, body={self.body!r}, terminator={self.terminator!r}, line={self.line!r})"


class Case:
    __slots__ = ('word', 'items', 'redirs', 'line')
    __match_args__ = ('word', 'items', 'redirs', 'line')
    _fields = ('word', 'items', 'redirs', 'line')

    def __init__(self, word: Word, items: list, redirs: list | None = None, line: int = 0):
        self.word = word
        self.items = items
        self.redirs = [] if redirs is None else redirs
        self.line = line

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.word, self.items, self.redirs) == (
            other.word, other.items, other.redirs)

    __hash__ = None

    def __repr__(self):
        return f"Case(word={self.word!r}, items={self.items!r}, redirs={self.redirs!r}, line={self.line!r})"


class FunctionDef:
    __slots__ = ('name', 'body', 'keyword', 'line')
    __match_args__ = ('name', 'body', 'keyword', 'line')
    _fields = ('name', 'body', 'keyword', 'line')

    def __init__(self, name: str, body: Any, keyword: bool = False, line: int = 0):
        self.name = name
        self.body = body
        self.keyword = keyword
        self.line = line

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.name, self.body, self.keyword) == (
            other.name, other.body, other.keyword)

    __hash__ = None

    def __repr__(self):
        return f"FunctionDef(name={self.name!r}, body={self.body!r}, keyword={self.keyword!r}, line={self.line!r})"


class ArithCmd:
    __slots__ = ('expr', 'redirs', 'line')
    __match_args__ = ('expr', 'redirs', 'line')
    _fields = ('expr', 'redirs', 'line')

    def __init__(self, expr: ArithExpr, redirs: list | None = None, line: int = 0):
        self.expr = expr
        self.redirs = [] if redirs is None else redirs
        self.line = line

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.expr, self.redirs) == (
            other.expr, other.redirs)

    __hash__ = None

    def __repr__(self):
        return f"ArithCmd(expr={self.expr!r}, redirs={self.redirs!r}, line={self.line!r})"


class CondCmd:
    __slots__ = ('expr', 'redirs', 'line')
    __match_args__ = ('expr', 'redirs', 'line')
    _fields = ('expr', 'redirs', 'line')

    def __init__(self, expr: Any, redirs: list | None = None, line: int = 0):
        self.expr = expr
        self.redirs = [] if redirs is None else redirs
        self.line = line

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.expr, self.redirs) == (
            other.expr, other.redirs)

    __hash__ = None

    def __repr__(self):
        return f"CondCmd(expr={self.expr!r}, redirs={self.redirs!r}, line={self.line!r})"


class Coproc:
    __slots__ = ('name', 'body', 'line')
    __match_args__ = ('name', 'body', 'line')
    _fields = ('name', 'body', 'line')

    def __init__(self, name: str | None, body: Any, line: int = 0):
        self.name = name
        self.body = body
        self.line = line

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.name, self.body) == (
            other.name, other.body)

    __hash__ = None

    def __repr__(self):
        return f"Coproc(name={self.name!r}, body={self.body!r}, line={self.line!r})"

# ---------------------------------------------------------------------------
# arithmetic nodes (built by arith.parse_arith; documented in arith.py)


class ANum:
    __slots__ = ('value',)
    __match_args__ = ('value',)
    _fields = ('value',)

    def __init__(self, value: int):
        self.value = value

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self.value == other.value

    __hash__ = None

    def __repr__(self):
        return f"ANum(value={self.value!r})"


class AVar:
    __slots__ = ('name', 'index')
    __match_args__ = ('name', 'index')
    _fields = ('name', 'index')

    def __init__(self, name: str, index: str | None = None):
        self.name = name
        self.index = index

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.name, self.index) == (
            other.name, other.index)

    __hash__ = None

    def __repr__(self):
        return f"AVar(name={self.name!r}, index={self.index!r})"


class AUnary:
    __slots__ = ('op', 'operand')
    __match_args__ = ('op', 'operand')
    _fields = ('op', 'operand')

    def __init__(self, op: str, operand: Any):
        self.op = op
        self.operand = operand

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.op, self.operand) == (
            other.op, other.operand)

    __hash__ = None

    def __repr__(self):
        return f"AUnary(op={self.op!r}, operand={self.operand!r})"


class AIncDec:
    __slots__ = ('op', 'prefix', 'target')
    __match_args__ = ('op', 'prefix', 'target')
    _fields = ('op', 'prefix', 'target')

    def __init__(self, op: str, prefix: bool, target: AVar):
        self.op = op
        self.prefix = prefix
        self.target = target

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.op, self.prefix, self.target) == (
            other.op, other.prefix, other.target)

    __hash__ = None

    def __repr__(self):
        return f"AIncDec(op={self.op!r}, prefix={self.prefix!r}, target={self.target!r})"


class ABinary:
    __slots__ = ('op', 'left', 'right')
    __match_args__ = ('op', 'left', 'right')
    _fields = ('op', 'left', 'right')

    def __init__(self, op: str, left: Any, right: Any):
        self.op = op
        self.left = left
        self.right = right

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.op, self.left, self.right) == (
            other.op, other.left, other.right)

    __hash__ = None

    def __repr__(self):
        return f"ABinary(op={self.op!r}, left={self.left!r}, right={self.right!r})"


class ATernary:
    __slots__ = ('cond', 'then', 'else_')
    __match_args__ = ('cond', 'then', 'else_')
    _fields = ('cond', 'then', 'else_')

    def __init__(self, cond: Any, then: Any, else_: Any):
        self.cond = cond
        self.then = then
        self.else_ = else_

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.cond, self.then, self.else_) == (
            other.cond, other.then, other.else_)

    __hash__ = None

    def __repr__(self):
        return f"ATernary(cond={self.cond!r}, then={self.then!r}, else_={self.else_!r})"


class AAssign:
    __slots__ = ('op', 'target', 'value')
    __match_args__ = ('op', 'target', 'value')
    _fields = ('op', 'target', 'value')

    def __init__(self, op: str, target: AVar, value: Any):
        self.op = op
        self.target = target
        self.value = value

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.op, self.target, self.value) == (
            other.op, other.target, other.value)

    __hash__ = None

    def __repr__(self):
        return f"AAssign(op={self.op!r}, target={self.target!r}, value={self.value!r})"


Part = (Lit | Esc | SQ | AnsiC | DQ | Param | BadSubst | CommandSub | ArithSub | ProcSub
        | Tilde | Brace | BraceRange | ExtGlob)

CondNode = CondAnd | CondOr | CondNot | CondUnary | CondBinary | CondWord

Command = (Simple | Pipeline | AndOr | Background | BraceGroup | Subshell | If | While | For
           | Select | ArithFor | Case | FunctionDef | ArithCmd | CondCmd | Coproc)

COMPOUND_TYPES = (BraceGroup, Subshell, If, While, For, Select, ArithFor, Case, ArithCmd,
                  CondCmd)

ArithNode = ANum | AVar | AUnary | AIncDec | ABinary | ATernary | AAssign
