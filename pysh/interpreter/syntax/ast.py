"""The bash AST: typed, slotted dataclasses.  The parser builds them; nothing here runs.

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
DQ              parts: list[Part]; locale: bool (``$"..."``).  Inside: Lit,
                Param, CommandSub, ArithSub, BadSubst.
Param           ``$x``, ``${...}``.  Fields:
                  name: str  ('x', '1', '@', '*', '#', '?', '-', '$', '!', '0')
                  braced: bool (nc-ish: True for ``${}``; compared)
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

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# ---------------------------------------------------------------------------
# word parts


@dataclass(slots=True)
class Lit:
    text: str


@dataclass(slots=True)
class Esc:
    text: str


@dataclass(slots=True)
class SQ:
    text: str


@dataclass(slots=True)
class AnsiC:
    text: str


@dataclass(slots=True)
class DQ:
    parts: list
    locale: bool = False


@dataclass(slots=True)
class Param:
    name: str
    braced: bool = False
    index: ArithExpr | None = None
    length: bool = False
    indirect: bool = False
    op: str | None = None
    arg: Word | None = None
    arg2: Word | None = None
    offset: ArithExpr | None = None
    length_expr: ArithExpr | None = None


@dataclass(slots=True)
class BadSubst:
    text: str


@dataclass(slots=True)
class CommandSub:
    body: Program | None
    backquote: bool = False
    text: str = field(default="", compare=False)
    error: Any = field(default=None, compare=False)


@dataclass(slots=True)
class ArithSub:
    expr: ArithExpr


@dataclass(slots=True)
class ProcSub:
    op: str
    body: Program


@dataclass(slots=True)
class Tilde:
    user: str = ""


@dataclass(slots=True)
class Brace:
    alts: list


@dataclass(slots=True)
class BraceRange:
    start: str
    end: str
    step: str | None = None
    text: str = field(default="", compare=False)


@dataclass(slots=True)
class ExtGlob:
    op: str
    parts: list


Part = (Lit | Esc | SQ | AnsiC | DQ | Param | BadSubst | CommandSub | ArithSub | ProcSub
        | Tilde | Brace | BraceRange | ExtGlob)


@dataclass(slots=True)
class Word:
    parts: list
    text: str = field(default="", compare=False)


@dataclass(slots=True)
class ArithExpr:
    word: Word
    node: Any = None
    text: str = field(default="", compare=False)


# ---------------------------------------------------------------------------
# [[ ... ]]


@dataclass(slots=True)
class CondAnd:
    left: Any
    right: Any


@dataclass(slots=True)
class CondOr:
    left: Any
    right: Any


@dataclass(slots=True)
class CondNot:
    operand: Any


@dataclass(slots=True)
class CondUnary:
    op: str
    arg: Word


@dataclass(slots=True)
class CondBinary:
    op: str
    left: Word
    right: Word


@dataclass(slots=True)
class CondWord:
    word: Word


CondNode = CondAnd | CondOr | CondNot | CondUnary | CondBinary | CondWord

# ---------------------------------------------------------------------------
# assignments, redirections


@dataclass(slots=True)
class ArrayElem:
    key: ArithExpr | None
    value: Word
    append: bool = False


@dataclass(slots=True)
class Assign:
    name: str
    index: ArithExpr | None = None
    append: bool = False
    value: Word | None = None
    array: list | None = None


@dataclass(slots=True)
class HereDoc:
    delimiter: str
    quoted: bool = False
    strip_tabs: bool = False
    parts: list = field(default_factory=list)
    text: str = field(default="", compare=False)


@dataclass(slots=True)
class Redir:
    op: str
    target: Word
    fd: int | None = None
    fd_var: str | None = None
    heredoc: HereDoc | None = None


# ---------------------------------------------------------------------------
# commands


@dataclass(slots=True)
class Program:
    body: list
    line: int = field(default=1, compare=False)


@dataclass(slots=True)
class Simple:
    assigns: list
    words: list
    redirs: list
    line: int = field(default=0, compare=False)


@dataclass(slots=True)
class Pipeline:
    commands: list
    negated: bool = False
    timed: bool = False
    time_posix: bool = False
    stderr: list = field(default_factory=list)
    line: int = field(default=0, compare=False)


@dataclass(slots=True)
class AndOr:
    commands: list
    ops: list
    line: int = field(default=0, compare=False)


@dataclass(slots=True)
class Background:
    command: Any
    line: int = field(default=0, compare=False)


@dataclass(slots=True)
class BraceGroup:
    body: list
    redirs: list = field(default_factory=list)
    line: int = field(default=0, compare=False)


@dataclass(slots=True)
class Subshell:
    body: list
    redirs: list = field(default_factory=list)
    line: int = field(default=0, compare=False)


@dataclass(slots=True)
class IfClause:
    cond: list
    body: list


@dataclass(slots=True)
class If:
    clauses: list
    else_body: list | None = None
    redirs: list = field(default_factory=list)
    line: int = field(default=0, compare=False)


@dataclass(slots=True)
class While:
    cond: list
    body: list
    until: bool = False
    redirs: list = field(default_factory=list)
    line: int = field(default=0, compare=False)


@dataclass(slots=True)
class For:
    var: str
    words: list | None
    body: list
    redirs: list = field(default_factory=list)
    line: int = field(default=0, compare=False)


@dataclass(slots=True)
class Select:
    var: str
    words: list | None
    body: list
    redirs: list = field(default_factory=list)
    line: int = field(default=0, compare=False)


@dataclass(slots=True)
class ArithFor:
    init: ArithExpr | None
    cond: ArithExpr | None
    step: ArithExpr | None
    body: list
    redirs: list = field(default_factory=list)
    line: int = field(default=0, compare=False)


@dataclass(slots=True)
class CaseItem:
    patterns: list
    body: list
    terminator: str = ";;"
    line: int = field(default=0, compare=False)


@dataclass(slots=True)
class Case:
    word: Word
    items: list
    redirs: list = field(default_factory=list)
    line: int = field(default=0, compare=False)


@dataclass(slots=True)
class FunctionDef:
    name: str
    body: Any
    keyword: bool = False
    line: int = field(default=0, compare=False)


@dataclass(slots=True)
class ArithCmd:
    expr: ArithExpr
    redirs: list = field(default_factory=list)
    line: int = field(default=0, compare=False)


@dataclass(slots=True)
class CondCmd:
    expr: Any
    redirs: list = field(default_factory=list)
    line: int = field(default=0, compare=False)


@dataclass(slots=True)
class Coproc:
    name: str | None
    body: Any
    line: int = field(default=0, compare=False)


Command = (Simple | Pipeline | AndOr | Background | BraceGroup | Subshell | If | While | For
           | Select | ArithFor | Case | FunctionDef | ArithCmd | CondCmd | Coproc)

COMPOUND_TYPES = (BraceGroup, Subshell, If, While, For, Select, ArithFor, Case, ArithCmd,
                  CondCmd)
