r"""The one POSIX regular-expression layer: BRE / ERE / Perl patterns to Python's ``regex`` engine.

grep, sed, expr, awk and the interpreter's ``[[ =~ ]]`` all compile through here,
so every tool agrees on what a pattern means and none of them can hang the run.

API (stable)
============

``compile_posix(pattern, *, extended=False, icase=False, bytes_mode=False,
multiline=False, dot_newline=None, eol="\n", dialect="posix", longest=True,
anchor=None, budget=None) -> Regex``

    ``pattern`` is a ``str`` (undecodable bytes carried as surrogates, see
    :mod:`pysh.shellkit.text`), ``bytes``, or a sequence of them (the
    alternatives of grep's ``-e P1 -e P2``; back-references are renumbered so
    each refers to its own pattern's groups).

    * ``extended``: ERE (``grep -E``, ``sed -E``) instead of BRE.
    * ``dialect``: whose GNU parser to follow where they differ:

      - ``"posix"`` (default): glibc ``regcomp`` as sed and expr use it.
        BRE ``a**`` and ``\{`` at the start are errors; ERE ``*`` at the
        start and ``a{1`` are errors; an unmatched ``)`` is an error.
      - ``"grep"``: GNU grep. BRE ``a**`` is allowed, a leading ``\{`` is
        literal; ERE quantifiers at the start are skipped with a warning
        (``Regex.warnings``: ``* at start of expression``), an invalid
        interval such as ``a{1`` or ``a{x}`` is literal, an unmatched ``)``
        is literal.
      - ``"awk"``: ERE as gawk reads it (use ``extended=True``): ``*`` or
        ``+`` at the start and unmatched ``)`` are literal, an invalid
        interval is literal, no back-references, backslash escapes work
        inside brackets (``[\]]``), and awk's escapes are understood:
        ``\n \t \r \f \v \a \b``(backspace) ``\/ \" \ddd``(octal),
        ``\y`` (word boundary), ``\B \< \> \w \W \s \S \` \'``. A caller that
        has already turned a dynamic regex string's escapes into characters
        can pass it unchanged: a plain character is always itself.

    * ``icase``: case-insensitive (``-i``, sed's ``I``).
    * ``bytes_mode``: what the compiled pattern matches. ``False`` (default):
      ``str`` subjects with UTF-8 semantics (``.`` is one character). Tools
      decode their input with ``decode()`` (UTF-8 + surrogateescape): bytes
      that are not UTF-8 become lone surrogates, which match themselves
      literally, but never ``.``, ``[^x]``, ``\W`` or ``\S`` (as GNU tools
      treat an encoding error in a UTF-8 locale). ``True``: ``bytes``
      subjects with C-locale semantics (one byte is one character).
    * ``multiline``: ``^`` and ``$`` also match just after / before an ``eol``
      inside the subject (grep scanning a whole buffer of lines; sed's ``M``).
      ``\`` and ``\'`` always match only at the ends of the subject.
    * ``dot_newline``: whether ``.``, ``[^...]``, ``\W`` and ``\s`` can match
      ``eol``. Default: ``not multiline``. (POSIX tools match newline with
      ``.`` in sed's pattern space and awk strings; grep never sees one.)
    * ``eol``: the line terminator for ``multiline`` and ``dot_newline``
      (``"\0"`` for ``grep -z``).
    * ``longest``: POSIX leftmost-longest matching. Python's engine is
      leftmost-first; the two only differ on alternation and on repeated or
      optional groups, so only patterns holding those are compiled with the
      engine's POSIX flag (slower). Plain greedy quantifiers already give the
      longest match. Pass ``longest=False`` when only "does it match" matters
      (grep without ``-o``) to keep the faster engine mode.
    * ``anchor``: ``"line"`` (grep -x: the whole pattern must match a whole line)
      or ``"word"`` (grep -w: not preceded or followed by a word character).
    * ``budget``: the run's :class:`~pysh.shellkit.limits.Budget`; see
      "Pathological patterns" below. ``Regex.with_budget(b)`` rebinds a
      compiled (cached) pattern.

``compile_perl(pattern, *, icase=False, multiline=False, eol="\n", budget=None)``
    ``grep -P``: PCRE syntax mapped onto ``regex`` (``\z``, ``\Z``, ``\Q..\E``,
    ``\h``, ``\v``, ``\R``, ``\N``, ``\e``, ``\x{...}``, ``\o{...}``, verbs such as
    ``(*UCP)`` dropped); ``\d \w \s \b`` are ASCII as in grep 3.8.

``compile_python(text, *, icase=False, multiline=False, dotall=False, budget=None)``
    A pattern already in Python's syntax (rg and fd translate Rust's, find -regex
    emacs', the ports' globs), on the same engine and guarded the same way.

``guarded(method, *args, budget=None)``
    Any ``regex`` call that takes ``timeout=``, stopped at the budget's deadline.

``compile_fixed(strings, *, icase=False, bytes_mode=False, longest=True, anchor=None,
multiline=False, eol="\n", budget=None)``
    ``grep -F`` / ``fgrep``: literal strings as one pattern (the longest string wins
    at a position).

``translate(...)`` takes ``compile_posix``'s arguments and returns the
:class:`Translation` (the Python pattern text, group count, flags, risk) without
compiling; the tests read the translation table through it.

``RegexError(message)``
    ``str()`` is GNU's wording: ``Unmatched ( or \(``, ``Unmatched ) or \)``,
    ``Unmatched [, [^, [:, [., or [=``, ``Unmatched \{``, ``Invalid content of
    \{\}``, ``Invalid preceding regular expression``, ``Invalid back
    reference``, ``Invalid range end``, ``Invalid character class name``,
    ``Invalid collation character``, ``Trailing backslash``, ``Regular
    expression too big``. grep prints ``grep: MSG``; sed prints ``sed: -e
    expression #1, char N: MSG`` -- except when ``err.plain`` is true (``character
    class syntax is [[:space:]], not [:space:]``), which both print bare.

``Regex``
    ``search / match / fullmatch (s, pos=0, endpos=None)``, ``finditer(s, pos,
    endpos)``, ``findall``, ``split(s, maxsplit)``, ``sub / subn(repl, s, count)``;
    ``.groups`` (capture count), ``.raw`` (the compiled ``regex`` object),
    ``.warnings``, ``.source``, ``.python`` (the translated text), ``.risky``,
    ``.unbounded`` (count of unbounded repeats), ``.nonempty`` (it can never match the
    empty string), ``.guard_needed(length)``.

Pathological patterns
=====================

Matching uses the PyPI ``regex`` engine (for buffer scans it is as fast as or
faster than ``re``; it has ``timeout=`` and POSIX longest matching). A
backtracking engine can take exponential time (``(a|aa)*c``, back-references) or
polynomial time (``a.*b.*d`` on a long line). ``timeout=`` costs about 2 us a
call, so it is passed only when the call could be slow:

* always for *risky* patterns: back-references, a repeat over something that
  itself repeats or alternates, POSIX-longest mode;
* for ``k`` unbounded repeats, when the subject is longer than
  ``4e6 ** (1 / (k + 1))`` characters (2000 for one ``.*``, 158 for two, ...);
  never for ``k == 0``.

A guarded call runs in slices (``_Slicer``): the engine's ``timeout=`` counts the
thread's CPU time, so each slice is sized from the CPU share the thread got during
the last one to end by the deadline, wall-clock. When a slice runs out,
``budget.check()`` is called (raising ``LimitExceeded`` at the deadline,
``Interrupted`` on Ctrl-C) and the call is retried with a doubled slice. A timeout
therefore surfaces as the run's deadline, never as a traceback. Without a budget
nothing is guarded.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

_regex_mod = None


def _engine():
    """The ``regex`` module, imported on first use (it costs ~17 ms)."""
    global _regex_mod
    if _regex_mod is None:
        import regex

        _regex_mod = regex
    return _regex_mod


class RegexError(ValueError):
    """A pattern that does not compile; ``str()`` is GNU's message."""

    def __init__(self, message: str, *, plain: bool = False):
        super().__init__(message)
        self.message = message
        self.plain = plain  # printed without sed's "-e expression #1, char N: " prefix

    def __str__(self) -> str:
        return self.message


# glibc's messages (posix/regcomp.c __re_error_msgid)
E_COLLATE = "Invalid collation character"
E_CTYPE = "Invalid character class name"
E_ESCAPE = "Trailing backslash"
E_SUBREG = "Invalid back reference"
E_BRACK = "Unmatched [, [^, [:, [., or [="
E_PAREN = "Unmatched ( or \\("
E_BRACE = "Unmatched \\{"
E_BADBR = "Invalid content of \\{\\}"
E_RANGE = "Invalid range end"
E_BADRPT = "Invalid preceding regular expression"
E_SIZE = "Regular expression too big"
E_RPAREN = "Unmatched ) or \\)"
E_BADPAT = "Invalid regular expression"
E_COLON = "character class syntax is [[:space:]], not [:space:]"

RE_DUP_MAX = 0x7FFF
_BIG_REPEAT = 64  # a bounded repeat above this counts as unbounded for the risk estimate

CLASS_NAMES = ("alpha", "upper", "lower", "digit", "xdigit", "space", "print", "punct",
               "graph", "cntrl", "blank", "alnum")

# Python-side text of each class inside a set, for str (UTF-8) and bytes (C) subjects.
# The Unicode classes use the engine's own POSIX class syntax; space, blank, cntrl are
# spelled out so that the line terminator can be left out of them.
_SPACE_U = "\t\n\x0b\x0c\r \u1680\u2000-\u2006\u2008-\u200a\u2028\u2029\u205f\u3000"
_CLASS_STR = {
    "alpha": "[:alpha:]", "upper": "[:upper:]", "lower": "[:lower:]", "alnum": "[:alnum:]",
    "punct": "[:punct:]", "print": "[:print:]", "graph": "[:graph:]",
    "digit": "0-9", "xdigit": "0-9A-Fa-f", "blank": " \t",
    "space": _SPACE_U, "cntrl": "\x00-\x1f\x7f-\x9f\u2028\u2029",
}
_CLASS_BYTES = {
    "alpha": "A-Za-z", "upper": "A-Z", "lower": "a-z", "alnum": "0-9A-Za-z",
    "punct": "!-/:-@\\[-`{-~", "print": " -~", "graph": "!-~",
    "digit": "0-9", "xdigit": "0-9A-Fa-f", "blank": " \t",
    "space": "\t\n\x0b\x0c\r ", "cntrl": "\x00-\x1f\x7f",
}
_SURR = "\udc80-\udcff"  # undecodable bytes carried by surrogateescape


# ------------------------------------------------------------------ syntax
@dataclass(frozen=True)
class _Syntax:
    extended: bool
    invalid_dup: bool  # BRE: a** and a leading \{ are errors (glibc RE_CONTEXT_INVALID_DUP)
    invalid_ops: bool  # ERE: a leading * + ? { is an error (RE_CONTEXT_INVALID_OPS)
    indep_ops: bool  # ERE: a leading * + ? { is skipped (RE_CONTEXT_INDEP_OPS)
    interval_ord: bool  # an invalid interval is literal (RE_INVALID_INTERVAL_ORD)
    rparen_ord: bool  # an unmatched ) is literal (RE_UNMATCHED_RIGHT_PAREN_ORD)
    escape_in_lists: bool  # awk: backslash escapes inside brackets
    awk: bool
    warn: bool  # grep's dfa warnings


def _syntax(extended: bool, dialect: str) -> _Syntax:
    if dialect == "grep":
        if extended:
            return _Syntax(True, False, False, True, True, True, False, False, True)
        return _Syntax(False, False, False, False, False, False, False, False, False)
    if dialect == "awk":
        return _Syntax(True, False, False, False, True, True, True, True, False)
    if dialect == "posix":
        if extended:
            return _Syntax(True, False, True, True, False, False, False, False, False)
        return _Syntax(False, True, False, False, False, False, False, False, False)
    raise ValueError(f"unknown regex dialect {dialect!r}")


# Tokens
T_CHAR, T_ANY, T_BRACKET, T_ANCHOR, T_BREF, T_OPEN, T_CLOSE, T_ALT = range(8)
T_STAR, T_PLUS, T_QMARK, T_OPEN_DUP, T_CLOSE_DUP, T_ESC, T_END, T_BACKSLASH = range(8, 16)
_DUP_TOKENS = (T_STAR, T_PLUS, T_QMARK, T_OPEN_DUP)
_DUP_CHAR = {T_STAR: "*", T_PLUS: "+", T_QMARK: "?", T_OPEN_DUP: "{"}

_AWK_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "f": "\f", "v": "\v", "a": "\a", "b": "\b",
                "/": "/", '"': '"'}


# AST nodes are tuples:
#   ("lit", ch) ("any",) ("set", negated, items) ("anchor", kind) ("esc", kind)
#   ("group", index_or_None, alt) ("alt", [seq, ...]) ("rep", node, lo, hi) ("bref", n)
# where seq is a list of nodes and set items are ("c", ch) ("r", lo, hi) ("cls", name).


class _Parser:
    """glibc's regcomp parser (posix/regcomp.c), token for token, building an AST."""

    def __init__(self, text: str, syn: _Syntax, icase: bool, group_base: int = 0):
        self.s = text
        self.n = len(text)
        self.i = 0
        self.syn = syn
        self.icase = icase
        self.base = group_base  # groups of earlier alternatives (grep -e P1 -e P2)
        self.ngroups = 0
        self.completed: set[int] = set()
        self.warnings: list[str] = []
        self.tok = T_END
        self.val: object = None
        self.tok_start = 0
        self.tok_char = ""  # the source character of an operator token (for literal fallback)

    # -- tokens ------------------------------------------------------------
    def fetch(self, caret_here: bool = False) -> None:
        self.tok, self.val, self.tok_char, self.i = self._peek_at(self.i, caret_here)

    def _peek_at(self, i: int, caret_here: bool = False):
        """(token, value, source char, next index) of the token at ``i``."""
        s, n, syn = self.s, self.n, self.syn
        self.tok_start = i
        if i >= n:
            return T_END, None, "", i
        c = s[i]
        if c == "\\":
            if i + 1 >= n:
                return T_BACKSLASH, None, "\\", i + 1
            c2 = s[i + 1]
            j = i + 2
            if syn.awk:
                return self._awk_escape(c2, i + 1)
            if c2 == "|" and not syn.extended:
                return T_ALT, None, c2, j
            if "1" <= c2 <= "9":
                return T_BREF, int(c2), c2, j
            if c2 == "<":
                return T_ANCHOR, "<", c2, j
            if c2 == ">":
                return T_ANCHOR, ">", c2, j
            if c2 == "b":
                return T_ANCHOR, "b", c2, j
            if c2 == "B":
                return T_ANCHOR, "B", c2, j
            if c2 in "wWsS":
                return T_ESC, c2, c2, j
            if c2 == "`":
                return T_ANCHOR, "A", c2, j
            if c2 == "'":
                return T_ANCHOR, "Z", c2, j
            if not syn.extended:
                if c2 == "(":
                    return T_OPEN, None, c2, j
                if c2 == ")":
                    return T_CLOSE, None, c2, j
                if c2 == "+":
                    return T_PLUS, None, c2, j
                if c2 == "?":
                    return T_QMARK, None, c2, j
                if c2 == "{":
                    return T_OPEN_DUP, None, c2, j
                if c2 == "}":
                    return T_CLOSE_DUP, None, c2, j
            return T_CHAR, c2, c2, j
        j = i + 1
        if c == "*":
            return T_STAR, None, c, j
        if c == "[":
            return T_BRACKET, None, c, j
        if c == ".":
            return T_ANY, None, c, j
        if syn.extended:
            if c == "|":
                return T_ALT, None, c, j
            if c == "+":
                return T_PLUS, None, c, j
            if c == "?":
                return T_QMARK, None, c, j
            if c == "{":
                return T_OPEN_DUP, None, c, j
            if c == "}":
                return T_CLOSE_DUP, None, c, j
            if c == "(":
                return T_OPEN, None, c, j
            if c == ")":
                return T_CLOSE, None, c, j
            if c == "^":
                return T_ANCHOR, "^", c, j
            if c == "$":
                return T_ANCHOR, "$", c, j
            return T_CHAR, c, c, j
        if c == "^":
            if i == 0 or caret_here:
                return T_ANCHOR, "^", c, j
            return T_CHAR, c, c, j
        if c == "$":
            if j == n:
                return T_ANCHOR, "$", c, j
            nxt = self._peek_at(j)[0]
            self.tok_start = i
            if nxt in (T_ALT, T_CLOSE):
                return T_ANCHOR, "$", c, j
            return T_CHAR, c, c, j
        return T_CHAR, c, c, j

    def _awk_escape(self, c2: str, k: int):
        j = k + 1
        if c2 in _AWK_ESCAPES:
            return T_CHAR, _AWK_ESCAPES[c2], c2, j
        if "0" <= c2 <= "7":
            m = j
            while m < self.n and m < k + 3 and "0" <= self.s[m] <= "7":
                m += 1
            return T_CHAR, chr(int(self.s[k:m], 8) & 0xFF), c2, m
        if c2 == "y":
            return T_ANCHOR, "b", c2, j
        if c2 == "B":
            return T_ANCHOR, "B", c2, j
        if c2 == "<":
            return T_ANCHOR, "<", c2, j
        if c2 == ">":
            return T_ANCHOR, ">", c2, j
        if c2 == "`":
            return T_ANCHOR, "A", c2, j
        if c2 == "'":
            return T_ANCHOR, "Z", c2, j
        if c2 in "wWsS":
            return T_ESC, c2, c2, j
        return T_CHAR, c2, c2, j

    # -- grammar -----------------------------------------------------------
    def parse(self):
        self.fetch(caret_here=True)
        tree = self.parse_reg_exp(0)
        if self.tok != T_END:  # only an unmatched close can stop the top level
            raise RegexError(E_RPAREN)
        return tree

    def parse_reg_exp(self, nest: int):
        alts = [self.parse_branch(nest)]
        while self.tok == T_ALT:
            self.fetch(caret_here=True)
            if self.tok not in (T_ALT, T_END) and not (nest and self.tok == T_CLOSE):
                alts.append(self.parse_branch(nest))
            else:
                alts.append([])
        if len(alts) == 1:
            return alts[0]
        return [("alt", alts)]

    def parse_branch(self, nest: int) -> list:
        seq: list = []
        while self.tok not in (T_ALT, T_END) and not (nest and self.tok == T_CLOSE):
            node = self.parse_expression(nest)
            if node is not None:
                if isinstance(node, list):
                    seq.extend(node)
                else:
                    seq.append(node)
        return seq

    def parse_expression(self, nest: int):
        tok, syn = self.tok, self.syn
        if tok == T_CHAR:
            node = ("lit", self.val)
        elif tok == T_ANY:
            node = ("any",)
        elif tok == T_BRACKET:
            node = self.parse_bracket()
        elif tok == T_BREF:
            n = int(self.val)  # type: ignore[arg-type]
            if n not in self.completed:
                raise RegexError(E_SUBREG)
            node = ("bref", n + self.base)
        elif tok == T_OPEN:
            node = self.parse_sub_exp(nest + 1)
        elif tok == T_ANCHOR:
            node = ("anchor", self.val)
            self.fetch()
            return node  # an anchor is never repeated: "^*" is "^" then "*"
        elif tok == T_ESC:
            node = ("esc", self.val)
        elif tok in _DUP_TOKENS:
            if tok == T_OPEN_DUP and syn.invalid_dup:
                raise RegexError(E_BADRPT)
            if syn.invalid_ops and not syn.invalid_dup:
                raise RegexError(E_BADRPT)
            if syn.indep_ops:
                if syn.warn:
                    what = "{...}" if tok == T_OPEN_DUP else _DUP_CHAR[tok]
                    msg = f"{what} at start of expression"
                    if msg not in self.warnings:
                        self.warnings.append(msg)
                self.fetch()
                return self.parse_expression(nest)
            node = ("lit", self.tok_char)
        elif tok == T_CLOSE:
            if not syn.rparen_ord:
                raise RegexError(E_RPAREN)
            node = ("lit", ")")
        elif tok == T_CLOSE_DUP:
            node = ("lit", "}")
        elif tok == T_BACKSLASH:
            raise RegexError(E_ESCAPE)
        else:  # T_END, T_ALT
            return None
        self.fetch()
        while self.tok in _DUP_TOKENS:
            node = self.parse_dup_op(node)
            if node is None:
                return None
            if syn.invalid_dup and self.tok in (T_STAR, T_OPEN_DUP):
                raise RegexError(E_BADRPT)
        return node

    def parse_sub_exp(self, nest: int):
        self.ngroups += 1
        idx = self.ngroups
        self.fetch(caret_here=True)
        if self.tok == T_CLOSE:
            body: list = []
        else:
            body = self.parse_reg_exp(nest)
            if self.tok != T_CLOSE:
                raise RegexError(E_PAREN)
        self.completed.add(idx)
        return ("group", idx + self.base, body)

    def _fetch_number(self) -> int:
        """glibc fetch_number: -1 none, -2 invalid or end, else the (capped) number."""
        num = -1
        while True:
            self.fetch()
            if self.tok == T_END:
                return -2
            if self.tok == T_CLOSE_DUP or (self.tok == T_CHAR and self.val == ","):
                return num
            c = self.val if self.tok == T_CHAR else ""
            if self.tok != T_CHAR or not ("0" <= c <= "9") or num == -2:  # type: ignore[operator]
                num = -2
            elif num == -1:
                num = ord(c) - 48  # type: ignore[arg-type]
            else:
                num = min(RE_DUP_MAX + 1, num * 10 + ord(c) - 48)  # type: ignore[arg-type]

    def parse_dup_op(self, elem):
        tok = self.tok
        if tok == T_OPEN_DUP:
            save_i, save_char = self.i, self.tok_char
            start = self._fetch_number()
            end = 0
            if start == -1:
                if self.tok == T_CHAR and self.val == ",":
                    start = 0  # {,m} is {0,m}
                else:
                    raise RegexError(E_BADBR)  # {} is invalid
            if start != -2:
                if self.tok == T_CLOSE_DUP:
                    end = start
                elif self.tok == T_CHAR and self.val == ",":
                    end = self._fetch_number()
                else:
                    end = -2
            if start == -2 or end == -2:
                if not self.syn.interval_ord:
                    raise RegexError(E_BRACE if self.tok == T_END else E_BADBR)
                # roll back: the "{" is an ordinary character
                self.i = save_i
                self.tok, self.val, self.tok_char = T_CHAR, save_char, save_char
                return elem
            if (end != -1 and start > end) or self.tok != T_CLOSE_DUP:
                raise RegexError(E_BADBR)
            if (start if end == -1 else end) > RE_DUP_MAX:
                raise RegexError(E_SIZE)
            lo, hi = start, (None if end == -1 else end)
        else:
            lo = 1 if tok == T_PLUS else 0
            hi = 1 if tok == T_QMARK else None
        self.fetch()
        return _repeat(elem, lo, hi)

    # -- brackets ----------------------------------------------------------
    def _bracket_token(self, i: int):
        """glibc peek_token_bracket: (kind, value, next index). Kinds: end c range close
        caret open:, open. open= ."""
        s, n = self.s, self.n
        if i >= n:
            return "end", None, i
        c = s[i]
        if c == "\\" and self.syn.escape_in_lists and i + 1 < n:
            c2 = s[i + 1]
            if c2 in _AWK_ESCAPES:
                return "c", _AWK_ESCAPES[c2], i + 2
            if "0" <= c2 <= "7":
                m = i + 2
                while m < n and m < i + 4 and "0" <= s[m] <= "7":
                    m += 1
                return "c", chr(int(s[i + 1:m], 8) & 0xFF), m
            return "c", c2, i + 2
        if c == "[":
            c2 = s[i + 1] if i + 1 < n else ""
            if c2 == ".":
                return "open.", None, i + 2
            if c2 == "=":
                return "open=", None, i + 2
            if c2 == ":":
                return "open:", None, i + 2
            return "c", c, i + 1
        if c == "-":
            return "range", c, i + 1
        if c == "]":
            return "close", c, i + 1
        if c == "^":
            return "caret", c, i + 1
        return "c", c, i + 1

    def _bracket_symbol(self, kind: str, i: int):
        """[:name:], [.x.], [=x=] -> (elem, next index). Elements: ("c", ch) ("cls", name) ("eq", ch)."""
        delim = kind[-1]
        s, n = self.s, self.n
        start = i
        while True:
            if i - start >= 32 or i >= n:
                raise RegexError(E_BRACK)
            if s[i] == delim and i + 1 < n and s[i + 1] == "]":
                break
            i += 1
        name = s[start:i]
        i += 2
        if delim == ":":
            return ("cls", name), i
        if len(name) != 1:
            raise RegexError(E_COLLATE)
        return (("eq", name) if delim == "=" else ("c", name)), i

    def _bracket_element(self, kind, val, i: int, accept_hyphen: bool):
        if kind in ("open.", "open=", "open:"):
            return self._bracket_symbol(kind, i)
        if kind == "range" and not accept_hyphen:
            nk = self._bracket_token(i)[0]
            if nk != "close":
                raise RegexError(E_RANGE)
        return ("c", val), i

    def parse_bracket(self):
        i = self.i
        items: list = []
        negated = False
        kind, val, nxt = self._bracket_token(i)
        if kind == "caret":
            negated = True
            i = nxt
            kind, val, nxt = self._bracket_token(i)
        if kind == "close":
            kind = "c"
        # grep/sed's dfa check for "[:alpha:]" written without the outer brackets
        colon = 1 if (kind == "c" and val == ":") else 0
        first = True
        while True:
            if kind == "end":
                raise RegexError(E_BRACK)
            colon &= ~2
            symbol = kind in ("open.", "open=", "open:")
            start_elem, i = self._bracket_element(kind, val, nxt, first)
            first = False
            kind, val, nxt = self._bracket_token(i)
            is_range = False
            if start_elem[0] not in ("cls", "eq"):
                if kind == "end":
                    raise RegexError(E_BRACK)
                if kind == "range":
                    k2, v2, n2 = self._bracket_token(nxt)
                    if k2 == "end":
                        raise RegexError(E_BRACK)
                    if k2 == "close":
                        kind = "c"  # a final '-' is literal
                    else:
                        is_range = True
            if is_range:
                end_elem, i = self._bracket_element(k2, v2, n2, True)
                kind, val, nxt = self._bracket_token(i)
                if start_elem[0] != "c" or end_elem[0] != "c":
                    raise RegexError(E_RANGE)
                lo, hi = start_elem[1], end_elem[1]
                if ord(lo) > ord(hi):
                    raise RegexError(E_RANGE)
                items.append(("r", lo, hi))
                colon |= 8
            else:
                t = start_elem[0]
                if t == "cls":
                    name = start_elem[1]
                    if name not in CLASS_NAMES:
                        raise RegexError(E_CTYPE)
                    if self.icase and name in ("upper", "lower"):
                        name = "alpha"
                    items.append(("cls", name))
                    colon |= 8
                else:
                    ch = start_elem[1]
                    items.append(("c", ch))
                    colon |= 8 if symbol else (2 if ch == ":" else 4)
            if kind == "end":
                raise RegexError(E_BRACK)
            if kind == "close":
                break
        self.i = nxt
        if colon == 7 and not self.syn.awk:
            raise RegexError(E_COLON, plain=True)
        return ("set", negated, items)


def _repeat(node, lo: int, hi: int | None):
    """``node{lo,hi}``, folding a repeat of a repeat where the counts allow it."""
    if node[0] == "rep":
        _, inner, a, b = node
        if lo == 1 and hi == 1:
            return node
        if hi == 0:
            return ("rep", inner, 0, 0)
        if a == 1 and b == 1:
            return ("rep", inner, lo, hi)
        # (x{a,b}){c,d} is x{a*c,b*d} when the rounds' count ranges leave no gap
        if hi is not None and lo == hi:
            contiguous = True
        elif lo == 0:
            contiguous = a <= 1
        elif b is None:
            contiguous = True
        else:
            contiguous = lo * (b - a) >= a - 1
        if contiguous:
            nhi = None if (b is None or hi is None) else b * hi
            return ("rep", inner, a * lo, nhi)
        return ("rep", ("group", None, [node]), lo, hi)
    return ("rep", node, lo, hi)


# ------------------------------------------------------------------ emitting
_SPECIAL = set(".^$*+?{}[]\\|()")
_SET_SPECIAL = set("\\]^-[")


def _esc(c: str) -> str:
    if c in _SPECIAL:
        return "\\" + c
    if c == "\n":
        return "\\n"
    if c == "\x00":
        return "\\x00"
    return c


def _set_esc(c: str) -> str:
    if c in _SET_SPECIAL:
        return "\\" + c
    if c == "\n":
        return "\\n"
    if c == "\x00":
        return "\\x00"
    return c


def _anchored(text: str, anchor: str | None, em) -> str:
    """grep -x / -w: the whole pattern must be a whole line / a whole word."""
    if anchor is None:
        return text
    if anchor == "line":
        return em.anchor("^") + "(?:" + text + ")" + em.anchor("$")
    if anchor == "word":
        return "(?<!\\w)(?:" + text + ")(?!\\w)"
    raise ValueError(f"unknown anchor {anchor!r}")


class _Emitter:
    def __init__(self, *, bytes_mode: bool, multiline: bool, dot_newline: bool, eol: str,
                 line_ends: bool = False):
        self.line_ends = line_ends  # grep: \` and \' are the ends of each line
        self.bytes_mode = bytes_mode
        self.multiline = multiline
        self.dot_newline = dot_newline
        self.eol = eol
        self.unbounded = 0
        self.risky = False
        self.has_alt = False
        self.has_group_rep = False
        self.has_bref = False
        eol_t = _set_esc(eol)
        # what negated sets and the like must also refuse
        self.neg_extra = ("" if dot_newline else eol_t) + ("" if bytes_mode else _SURR)
        self.classes = _CLASS_BYTES if bytes_mode else _CLASS_STR

    def seq(self, nodes: list) -> str:
        return "".join(self.node(n) for n in nodes)

    def node(self, n) -> str:
        k = n[0]
        if k == "lit":
            return _esc(n[1])
        if k == "any":
            if self.bytes_mode and self.dot_newline:
                return "(?s:.)"
            if self.bytes_mode and self.eol == "\n":
                return "."
            return "[^" + self.neg_extra + "]" if self.neg_extra else "(?s:.)"
        if k == "set":
            return self.set(n[1], n[2])
        if k == "anchor":
            return self.anchor(n[1])
        if k == "esc":
            return self.escape(n[1])
        if k == "group":
            inner = self.alt_or_seq(n[2])
            return f"({inner})" if n[1] is not None else f"(?:{inner})"
        if k == "alt":
            self.has_alt = True
            return "|".join(self.seq(s) for s in n[1])
        if k == "rep":
            return self.rep(n)
        if k == "bref":
            self.has_bref = True
            self.risky = True
            return f"(?:\\{n[1]})" if n[1] < 10 else f"(?:\\g<{n[1]}>)"
        raise AssertionError(n)

    def alt_or_seq(self, body) -> str:
        return self.seq(body)

    def set(self, negated: bool, items: list) -> str:
        parts = []
        for it in items:
            if it[0] == "c":
                parts.append(_set_esc(it[1]))
            elif it[0] == "r":
                parts.append(_set_esc(it[1]) + "-" + _set_esc(it[2]))
            else:
                text = self.classes[it[1]]
                if not self.dot_newline and it[1] in ("space", "cntrl"):
                    text = self._without_eol(text)
                parts.append(text)
        body = "".join(parts)
        if negated:
            return "[^" + body + self.neg_extra + "]"
        return "[" + body + "]"

    def _without_eol(self, text: str) -> str:
        if self.eol == "\n":
            return text.replace("\t\n", "\t").replace("\x00-\x1f", "\x00-\x09\x0b-\x1f")
        if self.eol == "\x00":
            return text.replace("\x00-\x1f", "\x01-\x1f")
        return text

    def anchor(self, kind: str) -> str:
        if kind == "^":
            if not self.multiline:
                return "^"
            if self.eol == "\n":
                return "^"  # with the engine's MULTILINE flag
            return "(?<![^" + _set_esc(self.eol) + "])"
        if kind == "$":
            if not self.multiline:
                return "\\Z"
            if self.eol == "\n":
                return "$"
            return "(?![^" + _set_esc(self.eol) + "])"
        if kind == "A":
            return self.anchor("^") if self.line_ends else "\\A"
        if kind == "Z":
            return self.anchor("$") if self.line_ends else "\\Z"
        if kind == "b":
            return "\\b"
        if kind == "B":
            return "\\B"
        if kind == "<":
            return "\\b(?=\\w)"
        if kind == ">":
            return "\\b(?<=\\w)"
        raise AssertionError(kind)

    def escape(self, kind: str) -> str:
        eol_t = "" if self.dot_newline else _set_esc(self.eol)
        surr = "" if self.bytes_mode else _SURR
        if kind == "w":
            return "\\w"
        if kind == "W":
            return "[^\\w" + eol_t + surr + "]"
        if kind == "s":
            return "[^\\S" + eol_t + "]" if eol_t else "\\s"
        if kind == "S":
            return "[^\\s" + surr + "]" if surr else "\\S"
        raise AssertionError(kind)

    def rep(self, n) -> str:
        _, inner, lo, hi = n
        if hi is None or hi > _BIG_REPEAT:
            self.unbounded += 1
        if hi != 1 and _repeats_or_alternates(inner):
            self.risky = True  # (a*)*, (a|aa)*: nested backtracking
        if inner[0] == "group":
            self.has_group_rep = True
        text = self.node(inner)
        if inner[0] in ("group",) or _is_atom(inner):
            atom = text
        else:
            atom = f"(?:{text})"
        if (lo, hi) == (0, None):
            q = "*"
        elif (lo, hi) == (1, None):
            q = "+"
        elif (lo, hi) == (0, 1):
            q = "?"
        elif hi is None:
            q = f"{{{lo},}}"
        elif lo == hi:
            q = f"{{{lo}}}"
        else:
            q = f"{{{lo},{hi}}}"
        return atom + q


def _is_atom(n) -> bool:
    k = n[0]
    if k == "lit":
        return True
    if k in ("any", "set", "esc"):
        return True
    return False


def _min_len(nodes) -> int:
    """The fewest characters a sequence of nodes can match (0: it can match empty)."""
    total = 0
    for n in nodes:
        k = n[0]
        if k in ("lit", "any", "set", "esc"):
            total += 1
        elif k == "group":
            total += _min_len(n[2])
        elif k == "alt":
            total += min(_min_len(a) for a in n[1])
        elif k == "rep":
            total += n[2] * _min_len([n[1]])
        # anchors and back-references (which may be empty) add nothing
    return total


def _repeats_or_alternates(n) -> bool:
    k = n[0]
    if k == "rep":
        return n[3] is None or n[3] > 1 or _repeats_or_alternates(n[1])
    if k == "alt":
        return True
    if k == "group":
        return any(_repeats_or_alternates(c) for c in n[2])
    return False


# ------------------------------------------------------------------ translation
@dataclass
class Translation:
    python: str  # the pattern text for the regex engine (str; bytes patterns are latin-1 text)
    flags: int
    groups: int
    bytes_mode: bool
    risky: bool
    unbounded: int
    posix: bool  # compiled with the engine's POSIX (leftmost-longest) flag
    warnings: list[str] = field(default_factory=list)
    nonempty: bool = False  # the pattern can never match the empty string


def _as_text(p: str | bytes, bytes_mode: bool) -> str:
    if isinstance(p, bytes):
        return p.decode("latin-1") if bytes_mode else p.decode("utf-8", "surrogateescape")
    if bytes_mode:
        return p.encode("utf-8", "surrogateescape").decode("latin-1")
    return p


def translate(pattern, *, extended: bool = False, icase: bool = False, bytes_mode: bool = False,
              multiline: bool = False, dot_newline: bool | None = None, eol: str = "\n",
              dialect: str = "posix", longest: bool = True,
              anchor: str | None = None) -> Translation:
    """The Python pattern for a POSIX pattern (see the module docstring)."""
    return _translate(_key_pattern(pattern), extended, icase, bytes_mode, multiline,
                      (not multiline) if dot_newline is None else dot_newline, eol, dialect,
                      longest, anchor)


def _key_pattern(pattern):
    if isinstance(pattern, (str, bytes)):
        return pattern
    return tuple(pattern)


def _translate(pattern, extended, icase, bytes_mode, multiline, dot_newline, eol, dialect,
               longest, anchor=None) -> Translation:
    rx = _engine()
    syn = _syntax(extended, dialect)
    pats = [pattern] if isinstance(pattern, (str, bytes)) else list(pattern)
    em = _Emitter(bytes_mode=bytes_mode, multiline=multiline, dot_newline=dot_newline,
                  eol=_as_text(eol, bytes_mode), line_ends=dialect == "grep" and multiline)
    texts = []
    groups = 0
    warnings: list[str] = []
    nonempty = True
    for p in pats:
        parser = _Parser(_as_text(p, bytes_mode), syn, icase, groups)
        tree = parser.parse()
        nonempty = nonempty and _min_len(tree) > 0
        texts.append(em.seq(tree))
        groups += parser.ngroups
        for w in parser.warnings:
            if w not in warnings:
                warnings.append(w)
    if len(texts) == 1:
        text = texts[0]
    else:
        em.has_alt = True
        text = "|".join(f"(?:{t})" for t in texts)
    text = _anchored(text, anchor, em)
    flags = rx.V0
    if icase:
        flags |= rx.IGNORECASE
    if multiline and em.eol == "\n":
        flags |= rx.MULTILINE
    if bytes_mode and dot_newline:
        flags |= rx.DOTALL
    posix = bool(longest and (em.has_alt or em.has_group_rep))
    if posix:
        flags |= rx.POSIX
    return Translation(text, flags, groups, bytes_mode, em.risky, em.unbounded,
                       posix, warnings, nonempty and bool(pats))


# ------------------------------------------------------------------ compiled patterns
_SLICE = 0.05  # the first slice of a guarded call (seconds of the thread's CPU time)


class _Slicer:
    """The timeouts of one guarded call, which stops at the budget's deadline, wall-clock.

    The engine's ``timeout`` counts the thread's CPU time, not wall time: on a busy
    machine one CPU second is several wall seconds. So the call runs in slices, each
    sized from the share of the CPU the thread got during the last one so that it ends
    before the deadline; between slices the budget is checked (the deadline, Ctrl-C),
    and the call restarts with a doubled slice -- all slices together cost at most
    twice the last one, and a slow but finite match still completes."""

    __slots__ = ("budget", "slice", "share", "w0", "c0")

    def __init__(self, budget):
        self.budget = budget
        self.slice = _SLICE
        self.share = 1.0  # CPU seconds per wall second, as measured over the last slice

    def next(self) -> float:
        budget = self.budget
        rem = budget.remaining() if budget is not None else None
        if rem is not None and rem <= 0:
            budget.check()
            raise budget.timeout_error()
        self.w0, self.c0 = time.monotonic(), time.thread_time()
        if rem is None:
            return self.slice
        return max(0.005, min(self.slice, rem * self.share))

    def expired(self) -> None:
        wall = time.monotonic() - self.w0
        if wall > 0:
            self.share = min(1.0, max(0.02, (time.thread_time() - self.c0) / wall))
        if self.budget is not None:
            self.budget.check()
        self.slice *= 2


def guarded(method, *args, budget=None):
    """``method(*args, timeout=...)`` that stops at ``budget``'s deadline (see _Slicer)."""
    slicer = _Slicer(budget)
    while True:
        try:
            return method(*args, timeout=slicer.next())
        except TimeoutError:
            slicer.expired()


def _guard_length(unbounded: int) -> int:
    """Subject length above which a pattern with ``unbounded`` repeats is guarded."""
    if unbounded <= 0:
        return 1 << 62
    return int(4e6 ** (1.0 / (unbounded + 1)))


class Regex:
    """A compiled pattern bound to a run budget. Cheap to create from the cached compile."""

    __slots__ = ("raw", "source", "python", "groups", "warnings", "risky", "unbounded",
                 "posix", "bytes_mode", "budget", "_limit", "nonempty")

    def __init__(self, raw, source, tr: Translation, budget=None):
        self.raw = raw
        self.source = source
        self.python = tr.python
        self.groups = tr.groups
        self.warnings = list(tr.warnings)
        self.risky = tr.risky
        self.unbounded = tr.unbounded
        self.posix = tr.posix
        self.bytes_mode = tr.bytes_mode
        self.nonempty = tr.nonempty
        self.budget = budget
        self._limit = 0 if tr.risky else _guard_length(tr.unbounded)

    def with_budget(self, budget) -> Regex:
        new = Regex.__new__(Regex)
        for name in Regex.__slots__:
            setattr(new, name, getattr(self, name))
        new.budget = budget
        return new

    def guard_needed(self, length: int) -> bool:
        """Whether a call on a subject of ``length`` characters passes a timeout."""
        return self.budget is not None and length > self._limit

    def __repr__(self) -> str:
        return f"Regex({self.source!r} -> {self.python!r})"

    # -- guarded calls -------------------------------------------------------
    def _timed(self, method, *args):
        return guarded(method, *args, budget=self.budget)

    def _call(self, method, s, args):
        if self.budget is not None and len(s) > self._limit:
            return self._timed(method, s, *args)
        return method(s, *args)

    def search(self, s, pos: int = 0, endpos: int | None = None):
        return self._call(self.raw.search, s, (pos, endpos))

    def match(self, s, pos: int = 0, endpos: int | None = None):
        return self._call(self.raw.match, s, (pos, endpos))

    def fullmatch(self, s, pos: int = 0, endpos: int | None = None):
        return self._call(self.raw.fullmatch, s, (pos, endpos))

    def findall(self, s, pos: int = 0, endpos: int | None = None):
        return self._call(self.raw.findall, s, (pos, endpos))

    def split(self, s, maxsplit: int = 0):
        return self._call(self.raw.split, s, (maxsplit,))

    def sub(self, repl, s, count: int = 0):
        if self.budget is not None and len(s) > self._limit:
            return self._timed(lambda s_, timeout: self.raw.sub(repl, s_, count, timeout=timeout), s)
        return self.raw.sub(repl, s, count)

    def subn(self, repl, s, count: int = 0):
        if self.budget is not None and len(s) > self._limit:
            return self._timed(lambda s_, timeout: self.raw.subn(repl, s_, count, timeout=timeout),
                               s)
        return self.raw.subn(repl, s, count)

    def finditer(self, s, pos: int = 0, endpos: int | None = None) -> Iterator:
        """Like ``re.finditer``; guarded scans restart where they stopped after a slice."""
        raw = self.raw
        if not self.guard_needed(len(s) if endpos is None else endpos - pos):
            yield from raw.finditer(s, pos, endpos)
            return
        budget = self.budget
        slicer = _Slicer(budget)
        last_empty_at = -1
        while True:
            it = raw.finditer(s, pos, endpos, timeout=slicer.next())
            try:
                for m in it:
                    if m.start() == m.end() == last_empty_at:
                        continue
                    yield m
                    pos = m.end()
                    last_empty_at = pos if m.start() == m.end() else -1
                return
            except TimeoutError:
                slicer.expired()


@functools.lru_cache(maxsize=256)
def _compiled(key):
    kind = key[0]
    if kind == "posix":
        tr = _translate(*key[1:])
    elif kind == "perl":
        tr = _translate_perl(*key[1:])
    elif kind == "python":
        tr = _translate_python(*key[1:])
    else:
        tr = _translate_fixed(*key[1:])
    rx = _engine()
    text = tr.python.encode("latin-1") if tr.bytes_mode else tr.python
    try:
        raw = rx.compile(text, tr.flags)
    except (rx.error, OverflowError, RecursionError, ValueError) as e:
        if kind == "perl":
            raise RegexError(_perl_message(e)) from None
        if kind == "python":
            raise RegexError(str(e)) from None
        raise RegexError(E_BADPAT) from None
    return raw, tr


def compile_posix(pattern, *, extended: bool = False, icase: bool = False,
                  bytes_mode: bool = False, multiline: bool = False,
                  dot_newline: bool | None = None, eol: str = "\n", dialect: str = "posix",
                  longest: bool = True, anchor: str | None = None, budget=None) -> Regex:
    """Compile a POSIX BRE/ERE (GNU flavour). Raises :class:`RegexError`."""
    if dot_newline is None:
        dot_newline = not multiline
    key = ("posix", _key_pattern(pattern), bool(extended), bool(icase), bool(bytes_mode),
           bool(multiline), bool(dot_newline), eol, dialect, bool(longest), anchor)
    try:
        raw, tr = _compiled(key)
    except RecursionError:
        raise RegexError(E_SIZE) from None
    return Regex(raw, pattern, tr, budget)


# ------------------------------------------------------------------ fixed strings
def _translate_fixed(strings, icase, bytes_mode, longest, anchor=None, multiline=False,
                     eol="\n") -> Translation:
    rx = _engine()
    texts = [_as_text(s, bytes_mode) for s in strings]
    if longest and len(texts) > 1:
        texts = sorted(texts, key=len, reverse=True)  # the longest at a position wins
    text = "|".join("".join(_esc(c) for c in t) for t in texts) if texts else "(?!)"
    em = _Emitter(bytes_mode=bytes_mode, multiline=multiline, dot_newline=not multiline,
                  eol=_as_text(eol, bytes_mode))
    text = _anchored(text, anchor, em)
    flags = rx.V0 | (rx.IGNORECASE if icase else 0)
    if multiline and eol == "\n":
        flags |= rx.MULTILINE
    return Translation(text, flags, 0, bytes_mode, False, 0, False, [],
                       bool(texts) and all(texts))


def compile_fixed(strings, *, icase: bool = False, bytes_mode: bool = False,
                  longest: bool = True, anchor: str | None = None, multiline: bool = False,
                  eol: str = "\n", budget=None) -> Regex:
    """Literal strings (``grep -F``), any of which may match."""
    if isinstance(strings, (str, bytes)):
        strings = [strings]
    key = ("fixed", tuple(strings), bool(icase), bool(bytes_mode), bool(longest), anchor,
           bool(multiline), eol)
    raw, tr = _compiled(key)
    return Regex(raw, strings, tr, budget)


# ------------------------------------------------------------------ Perl (grep -P)
def _translate_perl(pattern, icase, multiline, eol) -> Translation:
    rx = _engine()
    p = _as_text(pattern, False)
    out = []
    i, n = 0, len(p)
    in_set = False
    # leading verbs such as (*UCP) (*UTF)
    while p.startswith("(*", i):
        j = p.find(")", i)
        if j < 0:
            break
        i = j + 1
    while i < n:
        c = p[i]
        if c == "\\" and i + 1 < n:
            d = p[i + 1]
            if d == "Q":
                j = p.find("\\E", i + 2)
                lit = p[i + 2:] if j < 0 else p[i + 2:j]
                out.append("".join(_set_esc(ch) for ch in lit) if in_set else rx.escape(lit))
                i = n if j < 0 else j + 2
                continue
            if d == "E":
                i += 2
                continue
            if not in_set:
                if d == "z":
                    out.append("\\Z")
                    i += 2
                    continue
                if d == "Z":
                    out.append("(?=\\n?\\Z)")
                    i += 2
                    continue
                if d == "R":
                    out.append("(?:\\r\\n|[\\n\\x0b\\x0c\\r\\x85\\u2028\\u2029])")
                    i += 2
                    continue
                if d == "N" and not p.startswith("{", i + 2):
                    out.append("[^\\n]")
                    i += 2
                    continue
                if d == "K" or d == "G":
                    out.append("\\" + d)
                    i += 2
                    continue
            if d == "h":
                out.append(" \\t\\xa0" if in_set else "[ \\t\\xa0]")
                i += 2
                continue
            if d == "H":
                out.append("[^ \\t\\xa0]")
                i += 2
                continue
            if d == "v":
                cls = "\\n\\x0b\\x0c\\r\\x85\\u2028\\u2029"
                out.append(cls if in_set else f"[{cls}]")
                i += 2
                continue
            if d == "V":
                out.append("[^\\n\\x0b\\x0c\\r\\x85\\u2028\\u2029]")
                i += 2
                continue
            if d == "e":
                out.append("\\x1b")
                i += 2
                continue
            if d == "c" and i + 2 < n:
                out.append(_esc(chr(ord(p[i + 2].upper()) ^ 0x40)))
                i += 3
                continue
            if d in "xo" and p.startswith("{", i + 2):
                j = p.find("}", i + 3)
                if j > 0:
                    try:
                        code = int(p[i + 3:j], 16 if d == "x" else 8)
                        out.append(_set_esc(chr(code)) if in_set else _esc(chr(code)))
                        i = j + 1
                        continue
                    except (ValueError, OverflowError):
                        pass
            out.append(p[i:i + 2])
            i += 2
            continue
        if in_set:
            if c == "]" and not (out and out[-1] in ("[", "[^")):
                in_set = False
            elif c == "[" and p.startswith("[:", i):
                j = p.find(":]", i + 2)
                if j > 0:
                    out.append(p[i:j + 2])
                    i = j + 2
                    continue
            out.append(c)
            i += 1
            continue
        if c == "[":
            in_set = True
            if p.startswith("[^", i):
                out.append("[^")
                i += 2
            else:
                out.append("[")
                i += 1
            if i < n and p[i] == "]":
                out.append("\\]")
                i += 1
            continue
        if c == "$" and multiline and eol != "\n":
            out.append("(?![^" + _set_esc(eol) + "])")
        elif c == "^" and multiline and eol != "\n":
            out.append("(?<![^" + _set_esc(eol) + "])")
        else:
            out.append(c)
        i += 1
    text = "".join(out)
    flags = rx.V0 | rx.ASCII
    if icase:
        flags |= rx.IGNORECASE
    if multiline and eol == "\n":
        flags |= rx.MULTILINE
    tr = Translation(text, flags, 0, False, True, 0, False, [])
    try:
        tr.groups = rx.compile(text, flags).groups
    except rx.error as e:
        raise RegexError(_perl_message(e)) from None
    return tr


def _perl_message(e) -> str:
    msg = str(getattr(e, "msg", e))
    low = msg.lower()
    if "missing )" in low or "unterminated subpattern" in low:
        return "missing closing parenthesis"
    if "unbalanced parenthesis" in low:
        return "unmatched closing parenthesis"
    if "unterminated character set" in low:
        return "missing terminating ] for character class"
    if "nothing to repeat" in low or "multiple repeat" in low:
        return "quantifier does not follow a repeatable item"
    if "bad escape" in low and "end of pattern" in low:
        return "\\ at end of pattern"
    if "invalid group reference" in low or "unknown group" in low:
        return "reference to non-existent subpattern"
    return msg


def compile_perl(pattern, *, icase: bool = False, multiline: bool = False, eol: str = "\n",
                 budget=None) -> Regex:
    """A Perl-compatible pattern (``grep -P``) on str subjects. Always guarded."""
    key = ("perl", pattern, bool(icase), bool(multiline), eol)
    raw, tr = _compiled(key)
    return Regex(raw, pattern, tr, budget)


# ------------------------------------------------------------------ Python syntax
def _python_risk(text: str, flags: int) -> tuple[bool, int]:
    """(risky, unbounded repeats) of a pattern in Python's syntax, by the rules of
    "Pathological patterns" above; anything the parser cannot read counts as risky."""
    try:
        from re import _constants as C  # noqa: N812
        from re import _parser

        tree = _parser.parse(text, flags)
    except Exception:
        return True, 0
    repeats = (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT)
    state = {"risky": False, "unbounded": 0}

    def complex_(items) -> bool:
        for op, av in items:
            if op in repeats or op is C.BRANCH:
                return True
            if op is C.SUBPATTERN and complex_(av[3]):
                return True
        return False

    def walk(items) -> None:
        for op, av in items:
            if op in repeats:
                if av[1] == C.MAXREPEAT:
                    state["unbounded"] += 1
                if complex_(av[2]):
                    state["risky"] = True
                walk(av[2])
            elif op is C.SUBPATTERN:
                walk(av[3])
            elif op is C.BRANCH:
                for b in av[1]:
                    walk(b)
            elif op in (C.ASSERT, C.ASSERT_NOT):
                walk(av[1])
            elif op is C.ATOMIC_GROUP:
                walk(av)
            elif op in (C.GROUPREF, C.GROUPREF_EXISTS):
                state["risky"] = True

    walk(tree)
    return state["risky"], state["unbounded"]


def _translate_python(text, icase, multiline, dotall) -> Translation:
    rx = _engine()
    import re

    risky, unbounded = _python_risk(text, (re.I if icase else 0) | (re.M if multiline else 0))
    flags = rx.V0 | (rx.I if icase else 0) | (rx.M if multiline else 0) | (rx.S if dotall else 0)
    return Translation(text, flags, 0, False, risky, unbounded, False)


def compile_python(text: str, *, icase: bool = False, multiline: bool = False,
                   dotall: bool = False, budget=None) -> Regex:
    """A pattern already in Python's syntax (ports that translate their own dialect, globs),
    on the ``regex`` engine and guarded like every other pattern here. Raises
    :class:`RegexError` with the engine's message when it does not compile."""
    key = ("python", text, bool(icase), bool(multiline), bool(dotall))
    raw, tr = _compiled(key)
    return Regex(raw, text, tr, budget)


def escape(text: str) -> str:
    """``text`` as a BRE matching itself (for tools that build patterns)."""
    return "".join("\\" + c if c in ".[]\\*^$" else c for c in text)


__all__ = ["Regex", "RegexError", "Translation", "compile_fixed", "compile_perl",
           "compile_posix", "compile_python", "escape", "translate"]

