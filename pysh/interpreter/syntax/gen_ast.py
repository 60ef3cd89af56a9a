"""Generate ``ast.py`` (the AST node classes) from the spec below.

    python -m pysh.interpreter.syntax.gen_ast           # rewrite ast.py
    python -m pysh.interpreter.syntax.gen_ast --check   # exit 1 if out of date

The nodes behave like ``@dataclass(slots=True)`` classes -- ``__slots__``, an
``__init__`` with the same defaults, value ``__eq__`` over the compared
fields (in order, as a tuple), ``__repr__``, ``__match_args__`` -- but are
written out as plain source: creating ~45 dataclasses at import time costs
tens of milliseconds of start-up, a generated module costs almost nothing.
Each field is (name, annotation, default, compare); ``REQUIRED`` means no
default, ``LIST`` means "a new empty list" (``default_factory=list``).
``_fields`` lists every field of a class (``dataclasses.fields`` analogue).
"""

from __future__ import annotations

import os
import sys

REQUIRED = object()
LIST = object()
HERE = os.path.dirname(os.path.abspath(__file__))
TARGET = os.path.join(HERE, "ast.py")

DOC = r'''The bash AST: typed, slotted dataclasses.  The parser builds them; nothing here runs.

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
'''

NODES = [
    ('Lit', [
        ('text', 'str', REQUIRED, True),
    ]),
    ('Esc', [
        ('text', 'str', REQUIRED, True),
    ]),
    ('SQ', [
        ('text', 'str', REQUIRED, True),
    ]),
    ('AnsiC', [
        ('text', 'str', REQUIRED, True),
    ]),
    ('DQ', [
        ('parts', 'list', REQUIRED, True),
        ('locale', 'bool', False, True),
    ]),
    ('Param', [
        ('name', 'str', REQUIRED, True),
        ('braced', 'bool', False, False),
        ('index', 'ArithExpr | None', None, True),
        ('length', 'bool', False, True),
        ('indirect', 'bool', False, True),
        ('op', 'str | None', None, True),
        ('arg', 'Word | None', None, True),
        ('arg2', 'Word | None', None, True),
        ('offset', 'ArithExpr | None', None, True),
        ('length_expr', 'ArithExpr | None', None, True),
    ]),
    ('BadSubst', [
        ('text', 'str', REQUIRED, True),
    ]),
    ('CommandSub', [
        ('body', 'Program | None', REQUIRED, True),
        ('backquote', 'bool', False, True),
        ('text', 'str', '', False),
        ('error', 'Any', None, False),
    ]),
    ('ArithSub', [
        ('expr', 'ArithExpr', REQUIRED, True),
    ]),
    ('ProcSub', [
        ('op', 'str', REQUIRED, True),
        ('body', 'Program', REQUIRED, True),
    ]),
    ('Tilde', [
        ('user', 'str', '', True),
    ]),
    ('Brace', [
        ('alts', 'list', REQUIRED, True),
    ]),
    ('BraceRange', [
        ('start', 'str', REQUIRED, True),
        ('end', 'str', REQUIRED, True),
        ('step', 'str | None', None, True),
        ('text', 'str', '', False),
    ]),
    ('ExtGlob', [
        ('op', 'str', REQUIRED, True),
        ('parts', 'list', REQUIRED, True),
    ]),
    ('Word', [
        ('parts', 'list', REQUIRED, True),
        ('text', 'str', '', False),
    ]),
    ('ArithExpr', [
        ('word', 'Word', REQUIRED, True),
        ('node', 'Any', None, True),
        ('text', 'str', '', False),
    ]),
    ('CondAnd', [
        ('left', 'Any', REQUIRED, True),
        ('right', 'Any', REQUIRED, True),
    ]),
    ('CondOr', [
        ('left', 'Any', REQUIRED, True),
        ('right', 'Any', REQUIRED, True),
    ]),
    ('CondNot', [
        ('operand', 'Any', REQUIRED, True),
    ]),
    ('CondUnary', [
        ('op', 'str', REQUIRED, True),
        ('arg', 'Word', REQUIRED, True),
    ]),
    ('CondBinary', [
        ('op', 'str', REQUIRED, True),
        ('left', 'Word', REQUIRED, True),
        ('right', 'Word', REQUIRED, True),
    ]),
    ('CondWord', [
        ('word', 'Word', REQUIRED, True),
    ]),
    ('ArrayElem', [
        ('key', 'ArithExpr | None', REQUIRED, True),
        ('value', 'Word', REQUIRED, True),
        ('append', 'bool', False, True),
    ]),
    ('Assign', [
        ('name', 'str', REQUIRED, True),
        ('index', 'ArithExpr | None', None, True),
        ('append', 'bool', False, True),
        ('value', 'Word | None', None, True),
        ('array', 'list | None', None, True),
    ]),
    ('HereDoc', [
        ('delimiter', 'str', REQUIRED, True),
        ('quoted', 'bool', False, True),
        ('strip_tabs', 'bool', False, True),
        ('parts', 'list', LIST, True),
        ('text', 'str', '', False),
    ]),
    ('Redir', [
        ('op', 'str', REQUIRED, True),
        ('target', 'Word', REQUIRED, True),
        ('fd', 'int | None', None, True),
        ('fd_var', 'str | None', None, True),
        ('heredoc', 'HereDoc | None', None, True),
    ]),
    ('Program', [
        ('body', 'list', REQUIRED, True),
        ('line', 'int', 1, False),
    ]),
    ('Simple', [
        ('assigns', 'list', REQUIRED, True),
        ('words', 'list', REQUIRED, True),
        ('redirs', 'list', REQUIRED, True),
        ('line', 'int', 0, False),
    ]),
    ('Pipeline', [
        ('commands', 'list', REQUIRED, True),
        ('negated', 'bool', False, True),
        ('timed', 'bool', False, True),
        ('time_posix', 'bool', False, True),
        ('stderr', 'list', LIST, True),
        ('line', 'int', 0, False),
    ]),
    ('AndOr', [
        ('commands', 'list', REQUIRED, True),
        ('ops', 'list', REQUIRED, True),
        ('line', 'int', 0, False),
    ]),
    ('Background', [
        ('command', 'Any', REQUIRED, True),
        ('line', 'int', 0, False),
    ]),
    ('BraceGroup', [
        ('body', 'list', REQUIRED, True),
        ('redirs', 'list', LIST, True),
        ('line', 'int', 0, False),
    ]),
    ('Subshell', [
        ('body', 'list', REQUIRED, True),
        ('redirs', 'list', LIST, True),
        ('line', 'int', 0, False),
    ]),
    ('IfClause', [
        ('cond', 'list', REQUIRED, True),
        ('body', 'list', REQUIRED, True),
    ]),
    ('If', [
        ('clauses', 'list', REQUIRED, True),
        ('else_body', 'list | None', None, True),
        ('redirs', 'list', LIST, True),
        ('line', 'int', 0, False),
    ]),
    ('While', [
        ('cond', 'list', REQUIRED, True),
        ('body', 'list', REQUIRED, True),
        ('until', 'bool', False, True),
        ('redirs', 'list', LIST, True),
        ('line', 'int', 0, False),
    ]),
    ('For', [
        ('var', 'str', REQUIRED, True),
        ('words', 'list | None', REQUIRED, True),
        ('body', 'list', REQUIRED, True),
        ('redirs', 'list', LIST, True),
        ('line', 'int', 0, False),
    ]),
    ('Select', [
        ('var', 'str', REQUIRED, True),
        ('words', 'list | None', REQUIRED, True),
        ('body', 'list', REQUIRED, True),
        ('redirs', 'list', LIST, True),
        ('line', 'int', 0, False),
    ]),
    ('ArithFor', [
        ('init', 'ArithExpr | None', REQUIRED, True),
        ('cond', 'ArithExpr | None', REQUIRED, True),
        ('step', 'ArithExpr | None', REQUIRED, True),
        ('body', 'list', REQUIRED, True),
        ('redirs', 'list', LIST, True),
        ('line', 'int', 0, False),
    ]),
    ('CaseItem', [
        ('patterns', 'list', REQUIRED, True),
        ('body', 'list', REQUIRED, True),
        ('terminator', 'str', ';;', True),
        ('line', 'int', 0, False),
    ]),
    ('Case', [
        ('word', 'Word', REQUIRED, True),
        ('items', 'list', REQUIRED, True),
        ('redirs', 'list', LIST, True),
        ('line', 'int', 0, False),
    ]),
    ('FunctionDef', [
        ('name', 'str', REQUIRED, True),
        ('body', 'Any', REQUIRED, True),
        ('keyword', 'bool', False, True),
        ('line', 'int', 0, False),
    ]),
    ('ArithCmd', [
        ('expr', 'ArithExpr', REQUIRED, True),
        ('redirs', 'list', LIST, True),
        ('line', 'int', 0, False),
    ]),
    ('CondCmd', [
        ('expr', 'Any', REQUIRED, True),
        ('redirs', 'list', LIST, True),
        ('line', 'int', 0, False),
    ]),
    ('Coproc', [
        ('name', 'str | None', REQUIRED, True),
        ('body', 'Any', REQUIRED, True),
        ('line', 'int', 0, False),
    ]),
    ('ANum', [
        ('value', 'int', REQUIRED, True),
    ]),
    ('AVar', [
        ('name', 'str', REQUIRED, True),
        ('index', 'str | None', None, True),
    ]),
    ('AUnary', [
        ('op', 'str', REQUIRED, True),
        ('operand', 'Any', REQUIRED, True),
    ]),
    ('AIncDec', [
        ('op', 'str', REQUIRED, True),
        ('prefix', 'bool', REQUIRED, True),
        ('target', 'AVar', REQUIRED, True),
    ]),
    ('ABinary', [
        ('op', 'str', REQUIRED, True),
        ('left', 'Any', REQUIRED, True),
        ('right', 'Any', REQUIRED, True),
    ]),
    ('ATernary', [
        ('cond', 'Any', REQUIRED, True),
        ('then', 'Any', REQUIRED, True),
        ('else_', 'Any', REQUIRED, True),
    ]),
    ('AAssign', [
        ('op', 'str', REQUIRED, True),
        ('target', 'AVar', REQUIRED, True),
        ('value', 'Any', REQUIRED, True),
    ]),
]

SECTIONS = {
    "Lit": "word parts",
    "Word": "words, arithmetic",
    "CondAnd": "[[ ... ]]",
    "ArrayElem": "assignments, redirections",
    "Program": "commands",
    "ANum": "arithmetic nodes (built by arith.parse_arith; documented in arith.py)",
}

TAIL = '''

Part = (Lit | Esc | SQ | AnsiC | DQ | Param | BadSubst | CommandSub | ArithSub | ProcSub
        | Tilde | Brace | BraceRange | ExtGlob)

CondNode = CondAnd | CondOr | CondNot | CondUnary | CondBinary | CondWord

Command = (Simple | Pipeline | AndOr | Background | BraceGroup | Subshell | If | While | For
           | Select | ArithFor | Case | FunctionDef | ArithCmd | CondCmd | Coproc)

COMPOUND_TYPES = (BraceGroup, Subshell, If, While, For, Select, ArithFor, Case, ArithCmd,
                  CondCmd)

ArithNode = ANum | AVar | AUnary | AIncDec | ABinary | ATernary | AAssign
'''



def gen_class(name: str, fields: list) -> str:
    names = [f[0] for f in fields]
    out = [f"class {name}:"]
    slots = ", ".join(repr(n) for n in names) + ("," if len(names) == 1 else "")
    out.append(f"    __slots__ = ({slots})")
    out.append(f"    __match_args__ = ({slots})")
    out.append(f"    _fields = ({slots})")
    out.append("")
    params = []
    for fname, typ, default, _cmp in fields:
        if default is REQUIRED:
            params.append(f"{fname}: {typ}")
        elif default is LIST:
            params.append(f"{fname}: {typ} | None = None")
        else:
            params.append(f"{fname}: {typ} = {default!r}")
    sig = ", ".join(["self"] + params)
    if len(sig) > 80:
        out.append("    def __init__(")
        out.append("        self,")
        for p in params:
            out.append(f"        {p},")
        out.append("    ):")
    else:
        out.append(f"    def __init__({sig}):")
    for fname, _typ, default, _cmp in fields:
        if default is LIST:
            out.append(f"        self.{fname} = [] if {fname} is None else {fname}")
        else:
            out.append(f"        self.{fname} = {fname}")
    out.append("")
    cmp = [f[0] for f in fields if f[3]]
    out.append("    def __eq__(self, other):")
    out.append("        if other.__class__ is not self.__class__:")
    out.append("            return NotImplemented")
    if not cmp:
        out.append("        return True")
    elif len(cmp) == 1:
        out.append(f"        return self.{cmp[0]} == other.{cmp[0]}")
    else:
        a = ", ".join(f"self.{c}" for c in cmp)
        b = ", ".join(f"other.{c}" for c in cmp)
        out.append(f"        return ({a}) == (")
        out.append(f"            {b})")
    out.append("")
    out.append("    __hash__ = None")
    out.append("")
    out.append("    def __repr__(self):")
    inner = ", ".join(f"{n}={{self.{n}!r}}" for n in names)
    out.append(f'        return f"{name}({inner})"')
    return "\n".join(out)


def build() -> str:
    parts = [
        "r\"\"\"" + DOC + "\"\"\"",
        "",
        "# Generated by gen_ast.py -- do not edit; change the spec there and run",
        "#     python -m pysh.interpreter.syntax.gen_ast",
        "# ruff: noqa: E501",
        "",
        "from __future__ import annotations",
        "",
        "from typing import Any",
        "",
        "__all__ = [" + ", ".join(repr(n) for n, _ in NODES) + ", 'Part', 'CondNode', "
        "'Command', 'COMPOUND_TYPES', 'ArithNode']",
    ]
    for name, fields in NODES:
        if name in SECTIONS:
            parts.append("")
            parts.append("# " + "-" * 75)
            parts.append("# " + SECTIONS[name])
        parts.append("")
        parts.append("")
        parts.append(gen_class(name, fields))
    return "\n".join(parts) + "\n" + TAIL


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    new = build()
    if "--check" in argv:
        try:
            with open(TARGET) as f:
                old = f.read()
        except FileNotFoundError:
            old = ""
        if old != new:
            print("ast.py is out of date: run python -m pysh.interpreter.syntax.gen_ast",
                  file=sys.stderr)
            return 1
        return 0
    with open(TARGET, "w") as f:
        f.write(new)
    print(f"wrote {TARGET}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
