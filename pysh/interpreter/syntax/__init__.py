"""pysh's bash parser: source text -> typed AST.  Knows nothing about execution.

Public API
==========

``parse(source, *, name="pysh", extglob=False, line=1) -> Program``
    Parse a whole script.  Raises ``ParseError``.

``CommandReader(readline, *, name="pysh", extglob=False, line=1, aliases=None)``
    Bash's one-complete-command-at-a-time reading.  ``readline()`` returns the
    next line (with its newline) or None/"" at end of input.  Iterating yields
    one ``Program`` per complete input line (``a; b &`` is one item, with
    ``.line``), pulling lines lazily: nothing is read past the line that
    completes the command, except the here-doc bodies that belong to it -- so
    a script read from stdin can ``read`` its own following lines.  A
    ``ParseError`` is raised only when the bad command is reached.
    ``reader.take_warnings()`` returns bash's warnings (here-document
    delimited by end-of-file) to print.  ``extglob`` may be a callable,
    consulted as each word is read (``shopt -s extglob`` takes effect from
    the next line on, as in bash).  ``aliases``: a callable giving the alias
    table (or None when expansion is off), consulted at each command word; a
    word naming an alias is replaced by its value in the input, as bash does.
    ``reader.last_text`` is the input the last command was read from (set -v).

``parse_prompt_parts(text) -> list``
    A prompt string's expansions as word parts (quotes stay literal).

``parse_status(source) -> "complete" | "incomplete" | "error"`` and
``is_complete(source) -> bool``
    For the REPL: an open quote, an unclosed ``if``/``do``/``{``/``(``/
    ``case``, a pending here-doc, a trailing ``|``/``&&``/``||`` or a
    backslash-newline make the input *incomplete* (ask for another line).

``ParseError``
    ``.message`` (bash's wording, e.g. "syntax error near unexpected token
    `fi'", "syntax error: unexpected end of file", "unexpected EOF while
    looking for matching `\"'"), ``.line`` (1-based), ``.source_line`` (the
    offending line, or None when bash does not echo it), ``.incomplete``.
    ``err.format(name)`` renders it as bash prints it::

        pysh: line 2: syntax error near unexpected token `fi'
        pysh: line 2: `fi'

``parse_arith(text) -> ArithNode | None`` and ``ArithError``
    The arithmetic parser for run time, on already-expanded text (cached).
    ``str(ArithError)`` is bash's message, e.g. ``1+ : syntax error: operand
    expected (error token is "+ ")``.  See ``arith.py`` for the nodes.

``format_program(node) -> str`` (``printer.py``)
    The canonical printer: AST back to bash source, with
    ``parse(format_program(parse(s))) == parse(s)``.

``check_syntax(...)`` (``check.py``): what ``pysh -n`` runs.

The AST is in ``ast.py`` (a table of every node and field is in its
docstring).  Arithmetic expressions in the command AST are ``ArithExpr``
nodes: the text as a ``Word`` (expand it at run time, then ``parse_arith``)
plus a pre-parsed ``node`` when the text has no expansions and parses.

Modules: ``lexer.py`` (the modal tokenizer), ``grammar.lark`` (the LALR
grammar), ``gen_tables.py`` -> ``_tables.py`` (Lark's LALR tables, generated
and committed), ``parser.py`` (table-driven LALR loop, semantic actions,
entry points), ``arith.py``, ``printer.py``, ``check.py``.
"""

from . import ast
from .arith import parse_arith
from .ast import Program
from .errors import ArithError, ParseError
from .parser import (
    CommandReader,
    is_complete,
    parse,
    parse_prompt_parts,
    parse_status,
    parse_with_warnings,
)

__all__ = [
    "ArithError",
    "CommandReader",
    "ParseError",
    "Program",
    "ast",
    "is_complete",
    "parse",
    "parse_arith",
    "parse_prompt_parts",
    "parse_status",
    "parse_with_warnings",
]
