"""The modal tokenizer: shell text -> tokens for the LALR parser.

Shell cannot be tokenized by regular expressions alone, so this is a
hand-written scanner with modes (command words, double quotes, ``${...}``
operands, arithmetic text, ``[[ ... ]]``, array literals, here-doc bodies),
following bash's own lexer (parse.y: read_token / read_token_word /
special_case_tokens / reserved_word_acceptable).

* Reserved words are recognised only where bash recognises them (command
  position, ``in``/``do`` after ``for x``, ``esac`` in case patterns, ``}``
  ...), from the previous tokens -- not from the parser state, exactly as bash.
* Assignment words only in the command prefix (and ``name=(...)`` after a
  declaration builtin).
* IO numbers (``2>``), ``{var}>`` redirection words, operators.
* Here-doc bodies are collected when the newline that ends their command line
  is read; backslash-newline continuations and comments are removed.
* Words come out as structured parts (see ast.py); ``$(...)`` is parsed
  recursively through the parser (``self.subparse``), ``[[ ]]`` and
  ``(( ))`` are read whole and returned as one token each, like bash.

Input is pulled lazily, one line at a time, from ``readline`` (or is a
complete string): the scanner asks for a new line only when the current
token cannot be finished without it.
"""

from __future__ import annotations

import re

from . import ast as A
from .arith import parse_arith
from .errors import ArithError, ParseError

# ---------------------------------------------------------------------------
# token types (terminal names of grammar.lark)

WORD = "WORD"
ASSIGNMENT_WORD = "ASSIGNMENT_WORD"
IO_NUMBER = "IO_NUMBER"
REDIR_WORD = "REDIR_WORD"
REDIR_OP = "REDIR_OP"
NEWLINE = "NEWLINE"
SEMI = "SEMI"
AMP = "AMP"
PIPE = "PIPE"
PIPE_AMP = "PIPE_AMP"
AND_IF = "AND_IF"
OR_IF = "OR_IF"
LPAREN = "LPAREN"
RPAREN = "RPAREN"
DSEMI = "DSEMI"
SEMI_AMP = "SEMI_AMP"
DSEMI_AMP = "DSEMI_AMP"
ARITH_CMD = "ARITH_CMD"
ARITH_FOR = "ARITH_FOR"
COND_CMD = "COND_CMD"
END = "$END"
START = "START"  # pseudo "previous token" at the start of input

RESERVED = {
    "if": "IF", "then": "THEN", "else": "ELSE", "elif": "ELIF", "fi": "FI",
    "case": "CASE", "esac": "ESAC", "for": "FOR", "select": "SELECT",
    "while": "WHILE", "until": "UNTIL", "do": "DO", "done": "DONE", "in": "IN",
    "function": "FUNCTION", "time": "TIME", "{": "LBRACE", "}": "RBRACE",
    "!": "BANG", "[[": "COND_START", "]]": "COND_END", "coproc": "COPROC",
}

# tokens after which a reserved word is recognised (bash reserved_word_acceptable)
_RESERVED_OK = frozenset({
    NEWLINE, SEMI, LPAREN, RPAREN, PIPE, AMP, "LBRACE", "RBRACE", AND_IF, ARITH_CMD,
    "BANG", PIPE_AMP, COND_CMD, "DO", "DONE", "ELIF", "ELSE", "ESAC", "FI", "IF", OR_IF,
    DSEMI, SEMI_AMP, DSEMI_AMP, "THEN", "TIME", "TIMEOPT", "TIMEIGN", "COPROC", "UNTIL",
    "WHILE", START,
})
_CASE_SEPS = frozenset({DSEMI, SEMI_AMP, DSEMI_AMP})
_NEST_DELTA = {"IF": 1, "WHILE": 1, "UNTIL": 1, "FOR": 1, "SELECT": 1, "CASE": 1,
               "LBRACE": 1, "FI": -1, "DONE": -1, "ESAC": -1, "RBRACE": -1}
# bash time_command_acceptable
_TIME_OK = frozenset({AND_IF, OR_IF, AMP, "WHILE", "DO", "UNTIL", "IF", "THEN", "ELIF",
                      "ELSE", "LBRACE", LPAREN, RPAREN, "BANG", "TIME", "TIMEOPT",
                      "TIMEIGN", COND_CMD})

DECL_BUILTINS = frozenset({"declare", "typeset", "local", "export", "readonly", "alias"})

_OPERATORS = {
    ";": SEMI, ";;": DSEMI, ";&": SEMI_AMP, ";;&": DSEMI_AMP,
    "&": AMP, "&&": AND_IF, "|": PIPE, "||": OR_IF, "|&": PIPE_AMP,
    "(": LPAREN, ")": RPAREN,
}
_REDIR_OPS = frozenset({"<", ">", ">>", ">|", "<>", "<<", "<<-", "<<<", "&>", "&>>", ">&",
                        "<&"})
_OP_RE = re.compile(r";;&|;;|;&|;|&&|&>>|&>|&|\|\||\|&|\||<<<|<<-|<<|<&|<>|<|>>|>&|>\||>|\(|\)")

_PLAIN_RE = re.compile(r"[^ \t\n|&;()<>$`'\"\\]+")
_DQ_PLAIN_RE = re.compile(r"[^\"\\$`]+")
_BLANK_RE = re.compile(r"[ \t]+")
_SKIP_RE = re.compile(r"[ \t]*(?:#[^\n]*)?")
_NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_ASSIGN_START_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?=\+?=|\[)")
_DIGITS_RE = re.compile(r"[0-9]+$")
_REDIR_WORD_RE = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?)\}$")
_ASSIGNLIKE_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=")

_META = frozenset(" \t\n|&;()<>")
# a word with nothing to decide: followed by a blank, ';', '&', '|', ')' or the end
_SIMPLE_WORD_RE = re.compile(r"[^ \t\n|&;()<>$`'\"\\=~{}\[\]]+(?=[ \t\n;&|)])")
_CONTEXT_WORDS = frozenset(set(RESERVED) | {"-p", "--", "declare", "typeset", "local",
                                            "export", "readonly", "alias", "eval", "let"})
_SLOW_AFTER = frozenset({"FUNCTION", "CASE", "FOR", "SELECT", "TIME", "TIMEOPT",
                         ARITH_FOR})
_SPECIAL_PARAMS = frozenset("@*#?-$!")
_EXTGLOB_OPS = frozenset("@*+?!")
_TRANSFORM_OPS = frozenset("QEPAKauULk")

MAX_DEPTH = 100  # nesting limit: compound commands plus $( ), ${ }, quotes ...
MAX_SOURCE = 16 * 1024 * 1024  # characters
POLL_EVERY = 256  # tokens or input lines between two calls of Lexer.poll


_LEADING_TABS_RE = re.compile(r"^\t+", re.M)
_HEREDOC_LIT_RE = re.compile(r"[^\\$`]*")
_WINDOW = 1 << 20  # characters a search or a substitution takes between two deadline polls


def _heredoc_end_re(delim: str, strip: bool) -> re.Pattern:
    """A here-doc's closing line with the newline before it: starting with a literal,
    the pattern is searched fast, and the lookahead turns down EOFx in the engine."""
    return re.compile("\n" + ("\t*" if strip else "") + re.escape(delim) + r"(?=\n|\Z)")


def _search_lines(pat: re.Pattern, text: str, pos: int, poll) -> re.Match | None:
    """pat.search(text, pos) a window at a time, polling the deadline between windows;
    pat starts with a newline and ends at the end of its line."""
    n = len(text)
    w = _WINDOW
    while True:
        end = min(pos + w, n)
        m = pat.search(text, pos, end)
        if m is not None and (end == n or m.end() < end or text[end] == "\n"):
            return m
        if end == n:
            return None
        nl = text.rfind("\n", pos, end)  # a match may run across the window's end
        if nl > pos:
            pos, w = nl, _WINDOW
        else:
            w *= 2
        if poll is not None:
            poll()


def _strip_leading_tabs(body: str, poll) -> str:
    """<<- : every line's leading tabs removed, a window of lines at a time."""
    if "\t" not in body:
        return body
    out = []
    pos, n = 0, len(body)
    while pos < n:
        end = body.find("\n", pos + _WINDOW)
        end = n if end < 0 else end + 1
        out.append(_LEADING_TABS_RE.sub("", body[pos:end]))
        pos = end
        if poll is not None and pos < n:
            poll()
    return "".join(out)


class TextInput:
    """A whole text as the lexer's input: read a line at a time ("\n" only, as
    io.StringIO), or through a here-doc's closing line in one search (more_heredoc)."""

    __slots__ = ("text", "pos")

    def __init__(self, text: str):
        self.text = text
        self.pos = 0

    def __call__(self) -> str:
        t, p = self.text, self.pos
        j = t.find("\n", p)
        self.pos = len(t) if j < 0 else j + 1
        return t[p:self.pos]

    def through(self, end_re: re.Pattern, limit: int, poll=None) -> str:
        """The lines through the first one that closes a here-doc (``end_re``, see
        _heredoc_end_re), all that is left without one; at most ``limit`` characters."""
        t, p = self.text, self.pos
        m = _search_lines(end_re, t, max(p - 1, 0), poll)
        end = len(t) if m is None else min(m.end() + 1, len(t))
        self.pos = end = max(min(end, p + limit), p)
        return t[p:end]


class Token(tuple):
    """(type, value, line, text, pos) -- a plain tuple for speed."""

    __slots__ = ()


def _tok(type_, value, line, text, pos):
    return (type_, value, line, text, pos)


# ---------------------------------------------------------------------------
# ANSI-C $'...' decoding

_SIMPLE_ESC = {"a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f", "n": "\n",
               "r": "\r", "t": "\t", "v": "\v", "\\": "\\", "'": "'", '"': '"', "?": "?"}


def _byte_char(b: int) -> str:
    """A raw byte as str: ASCII as is, 0x80-0xFF as a surrogate escape."""
    return chr(b) if b < 0x80 else chr(0xDC00 + b)


def code_point(v: int) -> str:
    """A \\u/\\U escape's code point as bash writes it in UTF-8: a surrogate or a
    value past U+10FFFF is still encoded by the UTF-8 scheme (up to 6 bytes, raw
    bytes here); 0x80000000 and above give nothing."""
    if v < 0xD800 or 0xE000 <= v <= 0x10FFFF:
        return chr(v)
    if v >= 0x80000000:
        return ""
    n = 3 if v < 0x10000 else 4 if v < 0x200000 else 5 if v < 0x4000000 else 6
    lead = (0, 0, 0, 0xE0, 0xF0, 0xF8, 0xFC)[n]
    out = [0x80 | (v >> 6 * k & 0x3F) for k in range(n - 1)]
    out.append(lead | v >> 6 * (n - 1))
    return "".join(chr(0xDC00 + b) for b in reversed(out))


def decode_ansi_c(s: str) -> str:
    """Decode the body of a ``$'...'`` string as bash does."""
    if "\\" not in s:
        return s
    out = []
    i, n = 0, len(s)
    while i < n:
        c = s[i]
        if c != "\\" or i + 1 >= n:
            out.append(c)
            i += 1
            continue
        e = s[i + 1]
        i += 2
        if e in _SIMPLE_ESC:
            out.append(_SIMPLE_ESC[e])
        elif e in "01234567":
            j = i - 1
            k = j
            while k < n and k < j + 3 and s[k] in "01234567":
                k += 1
            out.append(_byte_char(int(s[j:k], 8) & 0xFF))
            i = k
        elif e == "x":
            k = i
            while k < n and k < i + 2 and s[k] in "0123456789abcdefABCDEF":
                k += 1
            if k == i:
                out.append("\\x")
            else:
                out.append(_byte_char(int(s[i:k], 16)))
            i = k
        elif e in "uU":
            width = 4 if e == "u" else 8
            k = i
            while k < n and k < i + width and s[k] in "0123456789abcdefABCDEF":
                k += 1
            if k == i:
                out.append("\\" + e)
            else:
                out.append(code_point(int(s[i:k], 16)))
            i = k
        elif e == "c":
            if i < n:
                ch = s[i]
                i += 1
                if ch == "\\" and i < n and s[i] == "\\":
                    i += 1
                out.append(chr(ord(ch.upper()) & 0x1F) if ch != "?" else "\x7f")
            else:
                out.append("\\c")
        else:
            out.append("\\" + e)
    r = canonical_bytes("".join(out))
    nul = r.find("\0")
    return r if nul < 0 else r[:nul]


def canonical_bytes(s: str) -> str:
    """Escaped bytes that spell valid UTF-8 together (``$'\\xce\\xbc'``) are that
    character: a string is its bytes, decoded with surrogateescape."""
    if s.isascii():
        return s
    try:
        return s.encode("utf-8", "surrogateescape").decode("utf-8", "surrogateescape")
    except UnicodeError:  # a lone surrogate code point from \\u: kept as it is
        return s


# ---------------------------------------------------------------------------
# word post-processing helpers


def merge_lits(parts: list) -> list:
    """Merge adjacent Lit parts (in place semantics, returns the list)."""
    if len(parts) < 2:
        return parts
    out = []
    for p in parts:
        if type(p) is A.Lit and out and type(out[-1]) is A.Lit:
            out[-1] = A.Lit(out[-1].text + p.text)
        else:
            out.append(p)
    return out


def tilde_prefix(parts: list, assign: bool = False) -> list:
    """Mark a leading ``~`` (and, for assignment values, one after each ':')."""
    if not parts:
        return parts
    first = parts[0]
    if type(first) is A.Lit and first.text.startswith("~"):
        parts = _tilde_at_start(parts, assign)
    if assign:
        out = []
        for idx, p in enumerate(parts):
            if type(p) is A.Lit and ":~" in p.text:
                rest = parts[idx + 1:]
                out.extend(_split_colon_tildes(p.text, rest, out))
            else:
                out.append(p)
        parts = out
    return parts


def _tilde_at_start(parts: list, assign: bool) -> list:
    text = parts[0].text
    stop = "/:"  # bash: a tilde prefix ends at a slash, and at a colon in any word
    j = 1
    while j < len(text) and text[j] not in stop:
        j += 1
    if j == len(text) and len(parts) > 1:
        nxt = parts[1]
        # the prefix would run into a quoted / expanded part: not a tilde prefix
        if not (type(nxt) is A.Lit and nxt.text[:1] == ":"):
            return parts
    user = text[1:j]
    if "{" in user:
        # ~{a,b}: brace expansion comes first; the words it makes get their tilde then
        return parts
    rest = text[j:]
    new = [A.Tilde(user)]
    if rest:
        new.append(A.Lit(rest))
    return new + parts[1:]


def _split_colon_tildes(text: str, rest: list, out_so_far: list) -> list:
    res = []
    pieces = text.split(":")
    buf = pieces[0]
    for k, piece in enumerate(pieces[1:], 1):
        if piece.startswith("~"):
            j = 1
            while j < len(piece) and piece[j] not in "/:":
                j += 1
            last_piece = k == len(pieces) - 1
            if j == len(piece) and last_piece and rest and not (
                    type(rest[0]) is A.Lit and rest[0].text[:1] in "/:"):
                buf += ":" + piece
                continue
            res.append(A.Lit(buf + ":"))
            res.append(A.Tilde(piece[1:j]))
            buf = piece[j:]
        else:
            buf += ":" + piece
    if buf:
        res.append(A.Lit(buf))
    return res


def brace_expand_parts(parts: list) -> list:
    """Find bash brace expansions ({a,b}, {1..3}) among the unquoted Lit text."""
    for p in parts:
        if type(p) is A.Lit and "{" in p.text:
            break
    else:
        return parts
    # flatten into items: single characters of unquoted Lit text, or whole parts
    items: list = []
    for p in parts:
        if type(p) is A.Lit:
            items.extend(p.text)
        else:
            items.append(p)
    result = _brace_items(items, 0)
    return merge_lits(result)


def _brace_items(items: list, depth: int) -> list:
    out: list = []
    i = 0
    n = len(items)
    while i < n:
        it = items[i]
        if it == "{" and depth < 50 and not (i > 0 and items[i - 1] == "$"):
            got = _try_brace(items, i, depth)
            if got is not None:
                part, i = got
                out.append(part)
                continue
        out.append(A.Lit(it) if type(it) is str else it)
        i += 1
    return out


_SEQ_INT_RE = re.compile(r"^([+-]?[0-9]+)\.\.([+-]?[0-9]+)(?:\.\.([+-]?[0-9]+))?$")
_SEQ_CHR_RE = re.compile(r"^([A-Za-z])\.\.([A-Za-z])(?:\.\.([+-]?[0-9]+))?$")


def _try_brace(items: list, start: int, depth: int):
    # find the matching close brace and the top-level commas
    level = 0
    commas = []
    j = start + 1
    n = len(items)
    while j < n:
        it = items[j]
        if it == "{" and not (items[j - 1] == "$"):
            level += 1
        elif it == "}":
            if level == 0:
                break
            level -= 1
        elif it == "," and level == 0:
            commas.append(j)
        j += 1
    else:
        return None
    end = j
    if commas:
        alts = []
        prev = start + 1
        for c in commas + [end]:
            alts.append(_brace_items(items[prev:c], depth + 1))
            prev = c + 1
        return A.Brace([merge_lits(a) for a in alts]), end + 1
    inner = items[start + 1:end]
    if all(type(x) is str for x in inner):
        s = "".join(inner)
        m = _SEQ_INT_RE.match(s) or _SEQ_CHR_RE.match(s)
        if m:
            return A.BraceRange(m.group(1), m.group(2), m.group(3), "{" + s + "}"), end + 1
    return None


def word_text_is(word: A.Word, text: str) -> bool:
    parts = word.parts
    return len(parts) == 1 and type(parts[0]) is A.Lit and parts[0].text == text


def literal_word_text(word: A.Word) -> str | None:
    """The text of a word made of one unquoted Lit, else None."""
    parts = word.parts
    if len(parts) == 1 and type(parts[0]) is A.Lit:
        return parts[0].text
    return None


def _remove_quotes_raw(raw: str) -> tuple[str, bool]:
    """Quote removal on raw source text (here-doc delimiters)."""
    out = []
    quoted = False
    i, n = 0, len(raw)
    while i < n:
        c = raw[i]
        if c == "\\" and i + 1 < n:
            quoted = True
            out.append(raw[i + 1])
            i += 2
        elif c == "'":
            quoted = True
            j = raw.find("'", i + 1)
            j = n if j < 0 else j
            out.append(raw[i + 1:j])
            i = j + 1
        elif c == '"':
            quoted = True
            i += 1
            while i < n and raw[i] != '"':
                if raw[i] == "\\" and i + 1 < n and raw[i + 1] in '$`"\\':
                    i += 1
                out.append(raw[i])
                i += 1
            i += 1
        elif c == "$" and i + 1 < n and raw[i + 1] in "'\"":
            i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out), quoted


class _Heredoc:
    __slots__ = ("node", "line")

    def __init__(self, node, line):
        self.node = node
        self.line = line


class _State:
    """The per-parse token context (saved/restored around $(...))."""

    __slots__ = ("last", "before", "open_braces", "esacs", "casepat", "expect_in",
                 "allow_lbrace", "assign_ok", "decl", "heredoc_op", "cmd_start",
                 "redirlist", "nest", "pat_paren")

    def __init__(self):
        self.last = START
        self.before = START
        self.open_braces = 0
        self.esacs = 0
        self.casepat = False
        self.expect_in: list = []
        self.allow_lbrace = False
        self.assign_ok = False
        self.decl = False
        self.heredoc_op = None
        self.cmd_start = True
        self.redirlist = False
        self.nest = 0  # open compound commands (if, {, (, case, loops)
        self.pat_paren = False


class Lexer:
    """Tokenizer over a growing text buffer.

    ``text``/``i``: the buffer and the scan position.  ``readline``: callable
    returning the next line (with its newline) or None/"" at end of input; or
    None when ``text`` is the whole input.
    """

    def __init__(self, text: str = "", readline=None, *, line: int = 1, extglob=False,
                 name: str = "pysh", heredoc_eof_warn: bool = True):
        self.text = text
        self.i = 0
        self.readline = readline
        self.base_line = line
        # line_at counts newlines from the position it was last asked about (tokens come
        # in order): no per-line table, which cost seconds and 50 bytes a line for a
        # here-doc of millions of lines
        self._lc = (0, 0)  # (a position, the newlines in text before it)
        self.extglob = extglob  # bool or callable
        self.st = _State()
        self.pending: list[_Heredoc] = []
        self.depth = 0
        self.warnings: list[tuple[int, str]] = []
        self.subparse = None  # set by the parser: (lexer, start_symbol) -> result
        # alias expansion: a callable giving the alias table, or None when off
        self.aliases = None
        self._alias_active: list[tuple[str, int]] = []  # (name, end of its text)
        self._alias_check_at = -1  # a blank-ended alias: the word from here is checked too
        self._alias_check_later = -1  # ... and from here, once that one is read
        self.builder = None  # the parser's semantic actions, cached per lexer
        self.name = name
        self.eof_continuation = False
        self.eof_newline = False
        self.heredoc_eof = False
        self.heredoc_eof_warn = heredoc_eof_warn
        # called every POLL_EVERY tokens and input lines: the run's deadline check (a line
        # of a million commands, a huge here-doc take seconds to read)
        self.poll = None
        self._ticks = 0
        self.total = len(text)
        if self.total > MAX_SOURCE:
            raise ParseError("script too large", line)

    # -- input ---------------------------------------------------------------
    def more(self) -> bool:
        rl = self.readline
        if rl is None:
            return False
        line = rl()
        if not line:
            self.readline = None
            return False
        self._append(line)
        return True

    def _append(self, chunk: str) -> None:
        self._tick()
        self.total += len(chunk)
        if self.total > MAX_SOURCE:
            raise ParseError("script too large", self.line_at(len(self.text)))
        self.text += chunk

    def more_heredoc(self, end_re: re.Pattern) -> bool:
        """Like more(), but pull every line through the next one that could close the
        here-doc (``end_re`` matches it) in one append: line by line, the growing buffer
        is copied each time. A whole text as input gives them in one search."""
        rl = self.readline
        if rl is None:
            return False
        through = getattr(rl, "through", None)
        if through is not None:
            chunk = through(end_re, MAX_SOURCE - self.total + 1, self.poll)
            if not chunk:
                self.readline = None
                return False
            self._append(chunk)
            return True
        lines: list[str] = []
        size = 0
        while True:
            line = rl()
            if not line:
                self.readline = None
                break
            lines.append(line)
            size += len(line)
            self._tick()
            if not line.endswith("\n") or self.total + size > MAX_SOURCE:
                break
            if end_re.match("\n" + line):
                break
        if not lines:
            return False
        self._append("".join(lines))
        return True

    def at_eof(self, i: int) -> bool:
        """True if there is no character at i (pulling more input if needed)."""
        while i >= len(self.text):
            if not self.more():
                return True
        return False

    def discard_consumed(self):
        """Forget text before the scan position (between top-level commands)."""
        self._alias_active = []
        self._alias_check_at = -1
        self._alias_check_later = -1
        i = self.i
        if i > 65536 or i == len(self.text):
            line = self.line_at(i)
            self.text = self.text[i:]
            self.i = 0
            self.base_line = line
            self._lc = (0, 0)

    def line_at(self, i: int) -> int:
        p, n = self._lc
        i = min(i, len(self.text))  # text may grow: count no further than it goes
        if i >= p:
            n += self.text.count("\n", p, i)
        else:
            n -= self.text.count("\n", i, p)
        self._lc = (i, n)
        return self.base_line + n

    def source_line(self, i: int) -> str:
        text = self.text
        if i > len(text):
            i = len(text)
        s = text.rfind("\n", 0, i) + 1
        e = text.find("\n", i)
        if e < 0:
            e = len(text)
        return text[s:e]

    def error(self, msg: str, i: int, *, show_line: bool = False, incomplete: bool = False,
              line: int | None = None):
        ln = self.line_at(i) if line is None else line
        src = self.source_line(i) if show_line else None
        return ParseError(msg, ln, src, incomplete)

    def eof_error(self, what: str, start: int):
        return self.error(f"unexpected EOF while looking for matching `{what}'", start,
                          incomplete=True)

    def _extglob(self) -> bool:
        e = self.extglob
        return e() if callable(e) else e

    def enter(self, i: int):
        self.depth += 1
        if self.depth + self.st.nest > MAX_DEPTH:
            raise self.error(f"syntax error: nesting too deep (limit {MAX_DEPTH})", i)

    def leave(self):
        self.depth -= 1

    def _nest(self, delta):
        st = self.st
        st.nest += delta
        if st.nest + self.depth > MAX_DEPTH:
            raise ParseError(f"syntax error: nesting too deep (limit {MAX_DEPTH})",
                             self.line_at(self.i), None, False)

    def _tick(self) -> None:
        if self.poll is not None:
            self._ticks += 1
            if not self._ticks % POLL_EVERY:
                self.poll()

    def sub_lexer(self, text: str, line: int) -> Lexer:
        """A lexer over a piece of this one's input, with the same settings."""
        sub = Lexer(text, None, line=line, extglob=self.extglob, name=self.name)
        sub.subparse = self.subparse
        sub.depth = self.depth
        sub.poll = self.poll
        return sub

    # -- tokens ----------------------------------------------------------------
    def next_token(self):
        if self.poll is not None:
            self._tick()
        st = self.st
        text = self.text
        i = self.i
        # skip blanks, line continuations, comments
        skip = _SKIP_RE.match
        while True:
            i = skip(text, i).end()
            if i >= len(text) and "#" in text[self.i:i]:
                # a comment that runs to the end of the buffer: it goes on to
                # the end of the line, which may not be read yet
                j = text.rfind("#", self.i, i)
                while text.find("\n", j) < 0 and self.more():
                    text = self.text
                k = text.find("\n", j)
                i = len(text) if k < 0 else k
            if i >= len(text):
                if not self.more():
                    self.i = i
                    if text and not text.endswith("\n") and not self.eof_newline:
                        # like bash, input that does not end in a newline gets one
                        self.eof_newline = True
                        line = self.line_at(i)
                        self._after_op(NEWLINE)
                        if self.pending:
                            self._read_heredocs()
                        return (NEWLINE, "\n", line, "newline", i)
                    return self._eof_token(i)
                text = self.text
                continue
            c = text[i]
            if c == "\\":
                if i + 1 >= len(text):
                    if self.more():
                        text = self.text
                        continue
                elif text[i + 1] == "\n":
                    i += 2
                    if i >= len(text) and not self.more():
                        self.eof_continuation = True
                    text = self.text
                    continue
            break
        self.i = i
        start = i
        if c == "\n":
            self.i = i + 1
            line = self.line_at(i)
            tok = (NEWLINE, "\n", line, "newline", i)
            self._after_op(NEWLINE)
            if self.pending:
                self._read_heredocs()
            return tok
        if c in "<>" and (i + 1 < len(text) or self.more()) and self.text[i + 1] == "(":
            return self._word_token(start)
        if c in ";&|()<>":
            m = _OP_RE.match(text, i)
            op = m.group()
            self.i = m.end()
            line = self.line_at(i)
            if op in _REDIR_OPS:
                st.heredoc_op = op if op in ("<<", "<<-") else None
                st.allow_lbrace = False
                st.redirlist = False
                st.before, st.last = st.last, REDIR_OP
                return (REDIR_OP, op, line, op, i)
            typ = _OPERATORS[op]
            if typ == LPAREN and (st.last == "FOR" or self._reserved_ok()) and \
                    not self.at_eof(i + 1) and self.text[i + 1] == "(":
                got = self._try_dparen(i)
                if got is not None:
                    return got
                if st.last == "FOR":
                    raise self.error("syntax error near unexpected token `('", i,
                                     show_line=True)
            self._after_op(typ)
            return (typ, op, line, op, i)
        # fast path: a plain word (no quotes, expansions, '=', '~', '{', '[') that
        # is none of the context-dependent words
        m = _SIMPLE_WORD_RE.match(text, i)
        if m is not None:
            w = m.group()
            last = st.last
            if (w not in _CONTEXT_WORDS and st.heredoc_op is None
                    and last not in _SLOW_AFTER and not st.casepat):
                end = m.end()
                if self.aliases is not None and (st.cmd_start or self._alias_check_at >= 0) \
                        and self._expand_alias(i, end, [A.Lit(w)]):
                    return self.next_token()
                self.i = end
                if last == REDIR_OP:
                    st.redirlist = st.cmd_start
                elif st.cmd_start:
                    st.cmd_start = False
                    st.redirlist = False
                else:
                    st.redirlist = False
                st.before = last
                st.last = WORD
                return (WORD, A.Word([A.Lit(w)], w), self.line_at(i), w, i)
        return self._word_token(start)

    def _eof_token(self, i):
        return (END, None, self.line_at(i), "end of file", i)

    def _after_op(self, typ):
        st = self.st
        st.before, st.last = st.last, typ
        st.assign_ok = False
        st.decl = False
        st.allow_lbrace = False
        st.heredoc_op = None
        st.cmd_start = True
        st.redirlist = False
        if typ == LPAREN:
            if st.casepat:
                st.pat_paren = True
            self._nest(1)
        elif typ == RPAREN:
            if not st.casepat or st.pat_paren:
                st.nest -= 1
            st.casepat = False
            st.pat_paren = False
        elif typ in _CASE_SEPS:
            if st.esacs:
                st.casepat = True

    def _try_dparen(self, i):
        """At '((' : arithmetic command / for ((;;)), or None for nested subshells."""
        st = self.st
        line = self.line_at(i)
        got = self._scan_arith(i + 2, ")")
        if got is None:
            return None
        expr, end = got
        self.i = end
        if st.last == "FOR":
            raw = self.text[i + 2:end - 2]
            parts = self._split_arith_for(raw, line)
            if parts is None:
                raise ParseError("syntax error: arithmetic expression required", line,
                                 None, False)
            st.before, st.last = st.last, ARITH_FOR
            st.cmd_start = False
            return (ARITH_FOR, parts, line, "((" + raw + "))", i)
        st.before, st.last = st.last, ARITH_CMD
        st.cmd_start = False
        st.redirlist = False
        return (ARITH_CMD, expr, line, self.text[i:end], i)

    def _split_arith_for(self, raw: str, line: int):
        """Split the text of ((init; cond; step)) at top-level ';'."""
        pieces = _split_top_semis(raw)
        if len(pieces) != 3:
            return None
        out = []
        for piece in pieces:
            if not piece.strip():
                out.append(None)
                continue
            sub = self.sub_lexer(piece + "))", line)
            got = sub._scan_arith(0, ")")
            if got is None:
                return None
            out.append(got[0])
        return out

    # -- words -------------------------------------------------------------------
    def _word_token(self, start):
        st = self.st
        i = start
        text = self.text
        # [[ ... ]] is read whole
        if (text.startswith("[[", i) and not st.casepat and self._reserved_ok()
                and self._word_end_at(i + 2)):
            return self._cond_command(i)
        if st.last != REDIR_OP:
            assign_pos = not st.casepat and (
                st.last == ASSIGNMENT_WORD or st.redirlist
                or (st.last not in _CASE_SEPS and self._reserved_ok()))
            if assign_pos or st.assign_ok:
                m = _ASSIGN_START_RE.match(text, i)
                if m:
                    got = self._try_assignment(i, m, prefix=assign_pos)
                    if got is not None:
                        return got
        parts, end = self.read_word_parts(i)
        if self.aliases is not None and self._expand_alias(start, end, parts):
            return self.next_token()
        self.i = end
        return self._finish_word(parts, start, end)

    def _expand_alias(self, start: int, end: int, parts) -> bool:
        """Replace a command word that names an alias by its value, in the input itself
        (bash re-reads the value as shell input). True when it did."""
        st = self.st
        follows_blank_alias = self._alias_check_at >= 0 and start >= self._alias_check_at
        if follows_blank_alias:
            self._alias_check_at = self._alias_check_later
            self._alias_check_later = -1
        if len(parts) != 1 or type(parts[0]) is not A.Lit:
            return False
        name = parts[0].text
        if self.text[start:end] != name:  # quoted or escaped: not an alias
            return False
        if not follows_blank_alias and (st.last == REDIR_OP or st.casepat or not (
                st.last == ASSIGNMENT_WORD or st.redirlist
                or (st.last not in _CASE_SEPS and self._reserved_ok()))):
            return False
        table = self.aliases()
        value = table.get(name) if table else None
        if value is None:
            return False
        active = [(n, e) for n, e in self._alias_active if e > start]
        if any(n == name for n, _ in active):  # alias ls='ls -F' expands once
            return False
        shift = len(value) - (end - start)
        self._alias_active = [(n, e + shift) for n, e in active] + [(name, start + len(value))]
        self.text = self.text[:start] + value + self.text[end:]
        if self._lc[0] > start:
            self._lc = (0, 0)
        self.i = start
        blank = value[-1:] in (" ", "\t")
        if follows_blank_alias:
            # bash re-reads the value: its first word is looked up too (eye2='eye1 ' after
            # for='for '), and the word after it when the value ends in a blank
            self._alias_check_at = start
            self._alias_check_later = start + len(value) if blank else -1
        elif blank:
            self._alias_check_at = start + len(value)
        return True

    def _word_end_at(self, i):
        if self.at_eof(i):
            return True
        return self.text[i] in _META

    def _finish_word(self, parts, start, end):
        st = self.st
        raw = self.text[start:end]
        line = self.line_at(start)
        parts = merge_lits(parts)
        next_c = "" if self.at_eof(end) else self.text[end]
        # IO number / {var} redirection word
        if next_c and next_c in "<>" and len(parts) == 1 and type(parts[0]) is A.Lit:
            lit = parts[0].text
            if _DIGITS_RE.match(lit) and len(lit) < 10:
                st.before, st.last = st.last, IO_NUMBER
                return (IO_NUMBER, int(lit), line, raw, start)
            m = _REDIR_WORD_RE.match(lit)
            if m:
                st.before, st.last = st.last, REDIR_WORD
                return (REDIR_WORD, m.group(1), line, raw, start)
        # reserved words and special cases
        lit = parts[0].text if len(parts) == 1 and type(parts[0]) is A.Lit else None
        if lit is not None and raw == lit:
            typ = self._special_or_reserved(lit)
            if typ is not None:
                d = _NEST_DELTA.get(typ)
                if d is not None:
                    if d > 0:
                        self._nest(1)
                    else:
                        st.nest -= 1
                st.before, st.last = st.last, typ
                st.cmd_start = True
                st.assign_ok = False
                st.decl = False
                st.redirlist = False
                return (typ, lit, line, raw, start)
        # a plain word
        heredoc_op = st.heredoc_op
        st.heredoc_op = None
        if heredoc_op is not None and st.last == REDIR_OP:
            delim, _ = _remove_quotes_raw(raw)
            quoted = any(type(p) in (A.SQ, A.DQ, A.Esc, A.AnsiC) for p in parts)
            node = A.HereDoc(delim, quoted, heredoc_op == "<<-")
            self.pending.append(_Heredoc(node, line))
            word = A.Word(parts, raw)
            st.before, st.last = st.last, WORD
            return (WORD, (word, node), line, raw, start)
        if st.last == REDIR_OP:
            # a redirection target: the simple command's prefix goes on
            st.redirlist = st.cmd_start
            word = A.Word(tilde_prefix(parts), raw)
            st.before, st.last = st.last, WORD
            return (WORD, word, line, raw, start)
        parts = tilde_prefix(parts)
        word = A.Word(parts, raw)
        last = st.last
        if last == "FUNCTION":
            st.allow_lbrace = True
        if last in ("CASE", "FOR", "SELECT"):
            st.expect_in.append(last)
        if st.cmd_start:
            # the command name: declaration builtins take a=(...) arguments
            if lit is not None and (st.redirlist or last == ASSIGNMENT_WORD or (
                    last not in _CASE_SEPS and self._reserved_ok())):
                if lit in DECL_BUILTINS:
                    st.assign_ok = True
                    st.decl = True
                elif lit in ("eval", "let"):
                    st.assign_ok = True
            st.cmd_start = False
        st.redirlist = False
        st.before, st.last = st.last, WORD
        return (WORD, word, line, raw, start)

    def _special_or_reserved(self, lit):
        st = self.st
        last = st.last
        before = st.before
        if lit == "in":
            if (last == WORD and before in ("FOR", "CASE", "SELECT")) or (
                    st.expect_in and last in (WORD, NEWLINE)):
                kind = st.expect_in.pop() if st.expect_in else before
                if kind == "CASE":
                    st.casepat = True
                    st.esacs += 1
                return "IN"
        if lit == "do":
            if st.expect_in and last in (NEWLINE, SEMI):
                st.expect_in.pop()
                return "DO"
            if last == WORD and before in ("FOR", "SELECT"):
                if st.expect_in:
                    st.expect_in.pop()
                return "DO"
            if last == ARITH_FOR:
                return "DO"
        if lit == "esac" and st.esacs and last == "IN":
            st.esacs -= 1
            st.casepat = False
            return "ESAC"
        if st.allow_lbrace:
            st.allow_lbrace = False
            if lit == "{":
                st.open_braces += 1
                return "LBRACE"
        if last == ARITH_FOR and lit == "{":
            st.open_braces += 1
            return "LBRACE"
        if st.open_braces and lit == "}" and self._reserved_ok():
            st.open_braces -= 1
            return "RBRACE"
        if last == "TIME" and lit in ("-p", "--"):
            return "TIMEOPT" if lit == "-p" else "TIMEIGN"
        if last == "TIMEOPT" and lit == "--":
            return "TIMEIGN"
        typ = RESERVED.get(lit)
        if typ is not None and self._reserved_ok():
            if st.casepat and typ != "ESAC":
                return None
            if typ == "TIME" and not self._time_ok():
                return None
            if st.casepat and last in (PIPE, LPAREN) and typ == "ESAC":
                return None
            if typ == "ESAC":
                st.casepat = False
                if st.esacs:
                    st.esacs -= 1
            elif typ == "CASE":
                pass
            elif typ == "LBRACE":
                st.open_braces += 1
            elif typ == "RBRACE" and st.open_braces:
                st.open_braces -= 1
            return typ
        return None

    def _reserved_ok(self):
        st = self.st
        last = st.last
        if last in _RESERVED_OK:
            return True
        if last == WORD and st.before in ("COPROC", "FUNCTION"):
            return True
        return False

    def _time_ok(self):
        st = self.st
        last = st.last
        if last in (START, SEMI, NEWLINE):
            return st.before != PIPE
        return last in _TIME_OK

    # -- assignments ---------------------------------------------------------------
    def _try_assignment(self, start, m, prefix: bool):
        st = self.st
        text = self.text
        name = m.group()
        j = m.end()
        index = None
        if text[j] == "[":
            got = self._scan_subscript(j + 1)
            if got is None:
                return None
            index, j = got
            if not prefix and self.read_word_parts(start)[1] < j:
                # bash reads name[...] whole in a command's place only: an argument
                # (declare a[1 + 1]=3) splits at the blank
                return None
            if self.at_eof(j):
                return self._subscript_word(start, j) if prefix else None
            text = self.text
        append = False
        if text.startswith("+=", j):
            append = True
            j += 2
        elif j < len(text) and text[j] == "=":
            j += 1
        elif index is not None and prefix:
            return self._subscript_word(start, j)
        else:
            return None
        line = self.line_at(start)
        decl = st.decl and not prefix
        if not self.at_eof(j) and self.text[j] == "(" and (prefix or st.assign_ok):
            # compound assignment a=( ... )
            got = self._array_literal(j + 1)
            elems, end = got
            if not self._word_end_at(end):
                # bash keeps a=(1)x as a plain string value
                parts, end2 = self.read_word_parts(end)
                raw_val = self.text[j:end]
                node = A.Assign(name, index, append,
                                A.Word(merge_lits([A.Lit(raw_val)] + parts),
                                       self.text[j:end2]))
                end = end2
            else:
                node = A.Assign(name, index, append, None, elems)
            self.i = end
            raw = self.text[start:end]
            if prefix:
                st.before, st.last = st.last, ASSIGNMENT_WORD
                st.redirlist = False
                return (ASSIGNMENT_WORD, node, line, raw, start)
            st.before, st.last = st.last, WORD
            if decl:
                return (WORD, node, line, raw, start)
            # eval / let: pass the text on as a word
            return (WORD, A.Word(self._array_as_parts(raw, start, j, elems), raw), line,
                    raw, start)
        parts, end = self.read_word_parts(j)
        self.i = end
        raw = self.text[start:end]
        parts = tilde_prefix(merge_lits(parts), assign=True)
        node = A.Assign(name, index, append, A.Word(parts, self.text[j:end]))
        if prefix:
            st.before, st.last = st.last, ASSIGNMENT_WORD
            st.redirlist = False
            return (ASSIGNMENT_WORD, node, line, raw, start)
        if decl:
            st.before, st.last = st.last, WORD
            return (WORD, node, line, raw, start)
        self.i = start
        return None

    def _subscript_word(self, start, close):
        """name[...] in a command's place without an = after it: bash has read the brackets
        as one piece (parse_matched_pair), so a blank, ; or # inside is part of the word
        (``a[1 + 2]``, ``if[[ #]]``) and the word goes on after the ]."""
        parts: list = []
        i = start
        while True:
            got, i = self.read_word_parts(i)
            parts += got
            if i >= close:
                break
            parts.append(A.Lit(self.text[i]))  # a blank or operator character inside
            i += 1
        self.i = i
        return self._finish_word(parts, start, i)

    def _array_as_parts(self, raw, start, j, elems):
        return [A.Lit(raw)]

    def _scan_subscript(self, i):
        """Scan a subscript after '['; returns (ArithExpr, index after ']')."""
        got = self._scan_arith(i, "]")
        return got

    def _array_literal(self, i):
        """Parse the elements of a compound assignment after '('. A syntax error in
        it gives status 1, as bash's."""
        try:
            return self._array_elements(i)
        except ParseError as e:
            e.status = 1
            raise

    def _array_elements(self, i):
        elems = []
        self.enter(i)
        start = i
        while True:
            text = self.text
            if i >= len(text):
                if not self.more():
                    raise self.eof_error(")", start - 1)
                continue
            c = text[i]
            if c in " \t\n":
                i += 1
                continue
            if c == "\\" and i + 1 < len(text) and text[i + 1] == "\n":
                i += 2
                continue
            if c == "#":
                j = text.find("\n", i)
                i = len(text) if j < 0 else j
                continue
            if c == ")":
                i += 1
                break
            if c in "|&;<>(" and not (c in "<>" and text.startswith("(", i + 1)):  # <(cmd) is a word
                self.i = i
                raise self.error(f"syntax error near unexpected token `{c}'", i,
                                 show_line=True)
            key = None
            append = False
            wstart = i
            if c == "[":
                got = self._scan_arith(i + 1, "]")
                if got is not None:
                    k, j = got
                    text = self.text
                    if text.startswith("]=", j - 1) or text.startswith("+=", j):
                        if text[j] == "+":
                            append = True
                            j += 2
                        else:
                            j += 1
                        key = k
                        parts, end = self.read_word_parts(j)
                        parts = tilde_prefix(merge_lits(parts), assign=True)
                        elems.append(A.ArrayElem(key, A.Word(parts, self.text[j:end]), append))
                        i = end
                        continue
            parts, end = self.read_word_parts(wstart)
            if end == wstart:
                self.i = wstart
                raise self.error(f"syntax error near unexpected token `{self.text[wstart]}'",
                                 wstart, show_line=True)
            parts = brace_expand_parts(tilde_prefix(merge_lits(parts)))
            elems.append(A.ArrayElem(None, A.Word(parts, self.text[wstart:end])))
            i = end
        self.leave()
        return elems, i

    # -- word parts ---------------------------------------------------------------
    def read_word_parts(self, i, *, regex: bool = False, extglob: bool | None = None):
        """Read one shell word starting at i; returns (parts, end)."""
        parts: list = []
        ext = self._extglob() if extglob is None else extglob
        plain = _PLAIN_RE
        while True:
            text = self.text
            m = plain.match(text, i)
            if m:
                parts.append(A.Lit(m.group()))
                i = m.end()
            if i >= len(text):
                if not self.more():
                    break
                continue
            c = text[i]
            if c == "'":
                j = text.find("'", i + 1)
                while j < 0:
                    if not self.more():
                        raise self.eof_error("'", i)
                    text = self.text
                    j = text.find("'", i + 1)
                parts.append(A.SQ(text[i + 1:j]))
                i = j + 1
                continue
            if c == '"':
                part, i = self.parse_dq(i + 1)
                parts.append(part)
                continue
            if c == "\\":
                if i + 1 >= len(text) and not self.more():
                    # a backslash at the very end of the input stays a backslash
                    parts.append(A.Esc("\\"))
                    i += 1
                    break
                text = self.text
                n = text[i + 1]
                if n == "\n":
                    i += 2
                    if i >= len(text) and not self.more():
                        self.eof_continuation = True
                    continue
                parts.append(A.Esc(n))
                i += 2
                continue
            if c == "$":
                part, i = self.parse_dollar(i, False)
                parts.append(part)
                continue
            if c == "`":
                part, i = self.parse_backquote(i + 1, False)
                parts.append(part)
                continue
            if c == "(":
                if ext and parts and type(parts[-1]) is A.Lit and parts[-1].text[-1:] in \
                        _EXTGLOB_OPS:
                    lit = parts.pop()
                    op = lit.text[-1]
                    if len(lit.text) > 1:
                        parts.append(A.Lit(lit.text[:-1]))
                    inner, i = self.parse_extglob(i + 1)
                    parts.append(A.ExtGlob(op, inner))
                    continue
                if regex:
                    inner, i = self.parse_regex_group(i + 1)
                    parts.append(A.Lit("("))
                    parts.extend(inner)
                    parts.append(A.Lit(")"))
                    continue
                break
            if c in "<>":
                if i + 1 < len(text) or self.more():
                    text = self.text
                    if text[i + 1] == "(":
                        part, i = self.parse_procsub(i)
                        parts.append(part)
                        continue
                break
            if c == "|" and regex:
                parts.append(A.Lit("|"))
                i += 1
                continue
            break
        return parts, i

    def parse_dq(self, i, locale=False):
        """Parse a double-quoted string body starting after the opening quote."""
        start = i - 1
        parts: list = []
        self.enter(i)
        while True:
            text = self.text
            m = _DQ_PLAIN_RE.match(text, i)
            if m:
                parts.append(A.Lit(m.group()))
                i = m.end()
            if i >= len(text):
                if not self.more():
                    raise self.eof_error('"', start)
                continue
            c = text[i]
            if c == '"':
                i += 1
                break
            if c == "\\":
                if i + 1 >= len(text) and not self.more():
                    raise self.eof_error('"', start)
                text = self.text
                n = text[i + 1]
                if n == "\n":
                    i += 2
                elif n in '$`"\\':
                    parts.append(A.Lit(n))
                    i += 2
                else:
                    parts.append(A.Lit("\\" + n))
                    i += 2
                continue
            if c == "$":
                part, i = self.parse_dollar(i, True)
                parts.append(part)
                continue
            if c == "`":
                part, i = self.parse_backquote(i + 1, True)
                parts.append(part)
                continue
        self.leave()
        return A.DQ(merge_lits(parts), locale), i

    def parse_dollar(self, i, in_dq: bool):
        """Parse an expansion at text[i] == '$'; returns (part, end)."""
        if self.at_eof(i + 1):
            return A.Lit("$"), i + 1
        text = self.text
        c = text[i + 1]
        k = i + 1  # the character after '$' (past any backslash-newlines)
        if c == "\\" and not self.at_eof(i + 2) and self.text[i + 2] == "\n":
            while not self.at_eof(k + 1) and self.text[k] == "\\" and self.text[k + 1] == "\n":
                k += 2
            if self.at_eof(k):
                return A.Lit("$"), k
            text = self.text
            c = text[k]
            if c not in "{(" and not _NAME_RE.match(c) and c not in _SPECIAL_PARAMS \
                    and not ("0" <= c <= "9"):
                return A.Lit("$"), i + 1
            if c == "{":
                return self.parse_braced(k + 1, in_dq)
            if c == "(":
                return self.parse_comsub(k + 1)
            m = _NAME_RE.match(text, k)
            if m:
                return A.Param(m.group()), m.end()
            return A.Param(c), k + 1
        if c == "{":
            return self.parse_braced(i + 2, in_dq)
        if c == "(":
            if not self.at_eof(i + 2) and self.text[i + 2] == "(":
                got = self._scan_arith(i + 3, ")")
                if got is not None:
                    expr, end = got
                    return A.ArithSub(expr), end
            return self.parse_comsub(i + 2)
        m = _NAME_RE.match(text, i + 1)
        if m:
            return A.Param(m.group()), m.end()
        if "0" <= c <= "9":
            return A.Param(c), i + 2
        if c in _SPECIAL_PARAMS:
            return A.Param(c), i + 2
        if c == "'" and not in_dq:
            return self.parse_ansi_c(i + 2)
        if c == '"' and not in_dq:
            part, end = self.parse_dq(i + 2, locale=True)
            return part, end
        if c == "[":
            got = self._scan_arith(i + 2, "]")
            if got is None:
                raise self.eof_error("]", i)
            expr, end = got
            return A.ArithSub(expr), end
        return A.Lit("$"), i + 1

    def parse_ansi_c(self, i):
        start = i - 2
        text = self.text
        j = i
        while True:
            if j >= len(text):
                if not self.more():
                    raise self.eof_error("'", start + 1)
                text = self.text
                continue
            c = text[j]
            if c == "\\":
                j += 2
                continue
            if c == "'":
                break
            j += 1
        return A.AnsiC(decode_ansi_c(text[i:j])), j + 1

    def parse_comsub(self, i):
        """Parse $( ... ) starting after '$('; the parser reads up to the ')'."""
        start = i
        self.enter(i)
        self.i = i
        prog = self._subparse_comsub()
        end = self.i
        self.leave()
        return A.CommandSub(prog, False, self.text[start:end - 1]), end

    def _subparse_comsub(self):
        try:
            return self.subparse(self, "comsub")
        except ParseError as e:
            if e.incomplete and e.message == "syntax error: unexpected end of file":
                e.message = "unexpected EOF while looking for matching `)'"
                e.args = (e.message,)
            raise

    def parse_procsub(self, i):
        op = self.text[i]
        self.enter(i)
        self.i = i + 2
        prog = self._subparse_comsub()
        end = self.i
        self.leave()
        return A.ProcSub(op, prog), end

    def parse_backquote(self, i, in_dq: bool):
        """Parse `...` starting after the opening backquote."""
        start = i - 1
        out = []
        text = self.text
        j = i
        while True:
            if j >= len(text):
                if not self.more():
                    raise self.eof_error("`", start)
                text = self.text
                continue
            c = text[j]
            if c == "`":
                break
            if c == "\\":
                if j + 1 >= len(text) and not self.more():
                    raise self.eof_error("`", start)
                text = self.text
                n = text[j + 1]
                if n in "$`\\" or (in_dq and n == '"'):
                    out.append(n)
                    j += 2
                    continue
                if n == "\n":
                    j += 2
                    continue
                out.append("\\" + n)
                j += 2
                continue
            out.append(c)
            j += 1
        body = "".join(out)
        line = self.line_at(i)
        self.enter(i)
        try:
            prog = parse_string_nested(body, line, self)
            node = A.CommandSub(prog, True, body)
        except ParseError as e:
            node = A.CommandSub(None, True, body, e)
        self.leave()
        return node, j + 1

    def parse_extglob(self, i):
        """The inside of @( ... ) up to the matching ')'."""
        start = i
        parts: list = []
        depth = 0
        self.enter(i)
        while True:
            text = self.text
            if i >= len(text):
                if not self.more():
                    raise self.eof_error(")", start - 1)
                continue
            c = text[i]
            if c == ")" and depth == 0:
                i += 1
                break
            if c == "(":
                if parts and type(parts[-1]) is A.Lit and parts[-1].text[-1:] in _EXTGLOB_OPS:
                    lit = parts.pop()
                    op = lit.text[-1]
                    if len(lit.text) > 1:
                        parts.append(A.Lit(lit.text[:-1]))
                    inner, i = self.parse_extglob(i + 1)
                    parts.append(A.ExtGlob(op, inner))
                    continue
                depth += 1
                parts.append(A.Lit("("))
                i += 1
                continue
            if c == ")":
                depth -= 1
                parts.append(A.Lit(")"))
                i += 1
                continue
            if c in " \t\n|&;<>":
                parts.append(A.Lit(c))
                i += 1
                continue
            sub, j = self.read_word_parts(i, extglob=False)
            if j == i:
                parts.append(A.Lit(c))
                j = i + 1
            else:
                parts.extend(sub)
            i = j
        self.leave()
        return merge_lits(parts), i

    def parse_regex_group(self, i):
        """Inside a [[ =~ ]] regex: ( ... ) read as a word, spaces included."""
        start = i
        parts: list = []
        self.enter(i)
        while True:
            text = self.text
            if i >= len(text):
                if not self.more():
                    raise self.eof_error(")", start - 1)
                continue
            c = text[i]
            if c == ")":
                i += 1
                break
            if c in " \t\n|&;<>":
                parts.append(A.Lit(c))
                i += 1
                continue
            if c == "(":
                inner, i = self.parse_regex_group(i + 1)
                parts.append(A.Lit("("))
                parts.extend(inner)
                parts.append(A.Lit(")"))
                continue
            sub, j = self.read_word_parts(i, regex=False, extglob=False)
            if j == i:
                parts.append(A.Lit(c))
                j = i + 1
            else:
                parts.extend(sub)
            i = j
        self.leave()
        return parts, i

    # -- ${ ... } ------------------------------------------------------------------
    def parse_braced(self, i, in_dq: bool):
        """Parse ${...} starting after '${'; returns (part, end)."""
        start = i - 2
        self.enter(i)
        try:
            got = self._parse_braced(i, in_dq)
        except _BadSubst:
            got = None
        if got is None:
            end = self._skip_braced(i, start)
            part = A.BadSubst(self.text[start:end])
        else:
            part, end = got
        self.leave()
        return part, end

    def _ch(self, i):
        if self.at_eof(i):
            raise self.eof_error("}", self._brace_start)
        return self.text[i]

    def _parse_braced(self, i, in_dq):
        self._brace_start = i - 2
        c = self._ch(i)
        length = indirect = False
        if c == "#":
            n = self._ch(i + 1)
            if n == "}":
                return A.Param("#", True), i + 2
            # ${#name}, ${#1}, ${#@} ... ; otherwise '#' is the parameter
            j = self._param_name_end(i + 1)
            if j > i + 1:
                k = j
                if self._ch(j) == "[" and _NAME_RE.fullmatch(self.text[i + 1:j]):
                    got = self._scan_arith(j + 1, "]")
                    if got is None or got[0].text == "":  # ${#a[]}
                        raise _BadSubst
                    k = got[1]
                if self._ch(k) == "}":
                    length = True
                    i += 1
                elif n not in ":-=?+#%/^,@}" or n == "#" and False:
                    length = True
                    i += 1
        elif c == "!":
            n = self._ch(i + 1)
            if n == "}":
                return A.Param("!", True), i + 2
            j = self._param_name_end(i + 1)
            if j > i + 1:
                indirect = True
                i += 1
        j = self._param_name_end(i)
        if j == i:
            raise _BadSubst
        name = self.text[i:j]
        i = j
        index = None
        c = self._ch(i)
        if c == "[" and _NAME_RE.fullmatch(name):
            got = self._scan_arith(i + 1, "]")
            if got is None or got[0].text == "":  # ${a[]}
                raise _BadSubst
            index, i = got
            c = self._ch(i)
        node = A.Param(name, True, index, length, indirect)
        if c == "}":
            return node, i + 1
        if length:
            raise _BadSubst
        if indirect and c in "*@" and self._ch(i + 1) == "}" and index is None:
            node.op = "!" + c
            node.indirect = False
            return node, i + 2
        # operators
        two = c + self._ch(i + 1)
        if two in (":-", ":=", ":?", ":+"):
            node.op = two
            node.arg, i = self._operand(i + 2, in_dq, value=True)
            return node, i + 1
        if c in "-=?+":
            node.op = c
            node.arg, i = self._operand(i + 1, in_dq, value=True)
            return node, i + 1
        if c == ":":
            if self._ch(i + 1) == "}":  # ${s:} (${s: } is an offset of 0)
                raise _BadSubst
            node.op = ":"
            node.offset, i = self._slice_part(i + 1, ":}")
            if self.text[i] == ":":
                node.length_expr, i = self._slice_part(i + 1, "}")
            return node, i + 1
        if c in "#%":
            if self._ch(i + 1) == c:
                node.op = c + c
                i += 2
            else:
                node.op = c
                i += 1
            node.arg, i = self._operand(i, in_dq, value=False)
            return node, i + 1
        if c == "/":
            n = self._ch(i + 1)
            if n in "/#%":
                node.op = "/" + n
                i += 2
            else:
                node.op = "/"
                i += 1
            # bash: a pattern of ${x//...} that starts with '/' keeps it (${x////c})
            node.arg, i = self._operand(i, in_dq, value=False, stop_slash=True,
                                        lead_slash=node.op == "//")
            if self.text[i] == "/":
                node.arg2, i = self._operand(i + 1, in_dq, value=False, repl=True)
            return node, i + 1
        if c in "^,~":
            if self._ch(i + 1) == c:
                node.op = c + c
                i += 2
            else:
                node.op = c
                i += 1
            if self._ch(i) == "}":
                return node, i + 1
            node.arg, i = self._operand(i, in_dq, value=False)
            return node, i + 1
        if c == "@":
            n = self._ch(i + 1)
            if n in _TRANSFORM_OPS and self._ch(i + 2) == "}":
                node.op = "@" + n
                return node, i + 3
        raise _BadSubst

    def _param_name_end(self, i):
        if self.at_eof(i):
            return i
        text = self.text
        c = text[i]
        m = _NAME_RE.match(text, i)
        if m:
            return m.end()
        if "0" <= c <= "9":
            j = i
            while not self.at_eof(j) and "0" <= self.text[j] <= "9":
                j += 1
            return j
        if c in _SPECIAL_PARAMS:
            return i + 1
        return i

    def _skip_braced(self, i, start):
        """Find the end of a ${...} bash accepts but cannot expand."""
        depth = 0
        while True:
            if self.at_eof(i):
                raise self.eof_error("}", start)
            text = self.text
            c = text[i]
            if c == "\\":
                i += 2
                continue
            if c == "'":
                j = text.find("'", i + 1)
                while j < 0:
                    if not self.more():
                        raise self.eof_error("'", i)
                    text = self.text
                    j = text.find("'", i + 1)
                i = j + 1
                continue
            if c == '"':
                _, i = self.parse_dq(i + 1)
                continue
            if c == "$":
                _, i = self.parse_dollar(i, False)
                continue
            if c == "`":
                _, i = self.parse_backquote(i + 1, False)
                continue
            if c == "{":
                depth += 1
            elif c == "}":
                if depth == 0:
                    return i + 1
                depth -= 1
            i += 1

    def _slice_part(self, i, stops):
        """An arithmetic piece of ${x:off:len}, ending at one of `stops`."""
        start = i
        parts: list = []
        depth = 0
        tern = 0
        while True:
            text = self.text
            if i >= len(text):
                if not self.more():
                    raise self.eof_error("}", self._brace_start)
                continue
            c = text[i]
            if depth == 0 and c in stops:
                if c == ":" and tern:
                    tern -= 1
                else:
                    break
            if c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
            elif c == "?":
                tern += 1
            if c == "$":
                part, i = self.parse_dollar(i, True)
                parts.append(part)
                continue
            if c == "`":
                part, i = self.parse_backquote(i + 1, True)
                parts.append(part)
                continue
            if c == '"':
                part, i = self.parse_dq(i + 1)
                parts.append(part)
                continue
            if c == "'":
                j = text.find("'", i + 1)
                if j < 0:
                    raise self.eof_error("'", i)
                parts.append(A.Lit(text[i:j + 1]))
                i = j + 1
                continue
            if c == "\\" and i + 1 < len(text):
                if text[i + 1] == "\n":
                    i += 2
                    continue
                parts.append(A.Lit(text[i:i + 2]))
                i += 2
                continue
            parts.append(A.Lit(c))
            i += 1
        parts = merge_lits(parts)
        return self._make_arith(parts, self.text[start:i]), i

    def _operand(self, i, in_dq, *, value, stop_slash=False, repl=False, lead_slash=False,
                 sq_inner=False):
        """Operand word of ${x op word}; returns (Word, index of the closing char).

        ``sq_inner``: inside '...' of a value operand in double quotes, up to the
        closing quote: bash keeps the quotes and expands what is between them."""
        start = i
        parts: list = []
        ext = self._extglob() and not value
        sq_literal = in_dq and value
        while True:
            text = self.text
            if i >= len(text):
                if not self.more():
                    raise self.eof_error("'" if sq_inner else "}", self._brace_start)
                continue
            c = text[i]
            if sq_inner and c in "'{}":
                if c == "'":
                    break
                parts.append(A.Lit(c))
                i += 1
                continue
            if c == "}":  # a bare { does not nest: ${u:-{a}b} is "{a" then "b}"
                break
            if c == "{":
                parts.append(A.Lit("{"))
                i += 1
                continue
            if c == "/" and stop_slash and not (lead_slash and i == start):
                break
            if c == "'":
                j = text.find("'", i + 1)
                while j < 0:
                    if not self.more():
                        raise self.eof_error("'", i)
                    text = self.text
                    j = text.find("'", i + 1)
                if sq_literal:
                    # "${x:-'$v'}": the quotes stay, $v is expanded
                    inner, j = self._operand(i + 1, in_dq, value=True, sq_inner=True)
                    parts.append(A.Lit("'"))
                    parts.extend(inner.parts)
                    parts.append(A.Lit("'"))
                else:
                    parts.append(A.SQ(text[i + 1:j]))
                i = j + 1
                continue
            if c == '"':
                part, i = self.parse_dq(i + 1)
                if sq_literal:
                    parts.extend(part.parts)
                else:
                    parts.append(part)
                continue
            if c == "\\":
                if self.at_eof(i + 1):
                    raise self.eof_error("}", self._brace_start)
                text = self.text
                n = text[i + 1]
                i += 2
                if n == "\n":
                    continue
                if in_dq:
                    if n in '$`"\\}':
                        parts.append(A.Lit(n) if value else A.Esc(n))
                    else:
                        parts.append(A.Lit("\\" + n))
                else:
                    parts.append(A.Esc(n))
                continue
            if c == "$":
                if in_dq and not self.at_eof(i + 1) and self.text[i + 1] in "'\"":
                    # $'..' / $".." inside "${...}": bash expands them too
                    part, i = self.parse_dollar(i, False)
                else:
                    part, i = self.parse_dollar(i, in_dq)
                parts.append(part)
                continue
            if c == "`":
                part, i = self.parse_backquote(i + 1, in_dq)
                parts.append(part)
                continue
            if c == "(" and ext and parts and type(parts[-1]) is A.Lit and \
                    parts[-1].text[-1:] in _EXTGLOB_OPS:
                lit = parts.pop()
                op = lit.text[-1]
                if len(lit.text) > 1:
                    parts.append(A.Lit(lit.text[:-1]))
                inner, i = self.parse_extglob(i + 1)
                parts.append(A.ExtGlob(op, inner))
                continue
            j = i + 1
            while j < len(text) and text[j] not in "}{/'\"\\$`(":
                j += 1
            parts.append(A.Lit(text[i:j]))
            i = j
        parts = merge_lits(parts)
        if not in_dq:
            parts = tilde_prefix(parts)
        if sq_literal and not sq_inner:
            # inside double quotes a value operand is itself double-quoted
            wparts = [A.DQ(parts)] if parts else []
        else:
            wparts = parts
        return A.Word(wparts, self.text[start:i]), i

    # -- arithmetic text ----------------------------------------------------------
    def _scan_arith(self, i, closer):
        """Scan arithmetic text from i up to `))` (closer ')') or `]` (closer ']').

        Returns (ArithExpr, end-after-closer), or None when '((' turns out to be
        two parentheses (the inner parenthesis closed without a second ')').
        """
        start = i
        parts: list = []
        depth = 0
        self.enter(i)
        while True:
            text = self.text
            if i >= len(text):
                if not self.more():
                    raise self.eof_error(")" if closer == ")" else "]", start - 2)
                continue
            c = text[i]
            if c == closer and depth == 0:
                if closer == "]":
                    end = i + 1
                    break
                if not self.at_eof(i + 1) and self.text[i + 1] == ")":
                    end = i + 2
                    break
                self.leave()
                return None
            if c == "(" or (c == "[" and closer == "]"):
                depth += 1
            elif c == ")" or (c == "]" and closer == "]"):
                depth -= 1
            if c == "$":
                part, i = self.parse_dollar(i, True)
                parts.append(part)
                continue
            if c == "`":
                part, i = self.parse_backquote(i + 1, True)
                parts.append(part)
                continue
            if c == '"':
                part, i = self.parse_dq(i + 1)
                parts.append(part)
                continue
            if c == "'":
                j = text.find("'", i + 1)
                while j < 0:
                    if not self.more():
                        raise self.eof_error("'", i)
                    text = self.text
                    j = text.find("'", i + 1)
                parts.append(A.Lit(text[i:j + 1]))
                i = j + 1
                continue
            if c == "\\":
                if self.at_eof(i + 1):
                    parts.append(A.Lit("\\"))
                    i += 1
                    continue
                text = self.text
                if text[i + 1] == "\n":
                    i += 2
                    continue
                parts.append(A.Lit(text[i:i + 2]))
                i += 2
                continue
            j = i + 1
            stop = "()$`\"'\\" + closer
            if closer == "]":
                stop += "["
            while j < len(text) and text[j] not in stop:
                j += 1
            parts.append(A.Lit(text[i:j]))
            i = j
        self.leave()
        parts = merge_lits(parts)
        src = self.text[start:i]
        return self._make_arith(parts, src), end

    def _make_arith(self, parts, src):
        word = A.Word(parts, src)
        node = None
        simple = True
        texts = []
        for p in parts:
            t = type(p)
            if t is A.Lit:
                texts.append(p.text)
            elif t is A.DQ and all(type(q) is A.Lit for q in p.parts):
                texts.extend(q.text for q in p.parts)
            else:
                simple = False
                break
        if simple:
            try:
                node = parse_arith("".join(texts))
            except ArithError:
                node = None
        return A.ArithExpr(word, node, src)

    # -- here-documents -----------------------------------------------------------
    def _read_heredocs(self):
        pend = self.pending
        self.pending = []
        for hd in pend:
            self._read_heredoc(hd)

    def _read_heredoc(self, hd: _Heredoc):
        node = hd.node
        delim = node.delimiter
        strip = node.strip_tabs
        quoted = node.quoted
        i = self.i
        # bash's "here-document at line N" is the last line read before the body (the
        # operator's for the first here-doc of a line, the one before for the next)
        hd.line = self.line_at(max(i - 1, 0))
        body_line = self.line_at(i)
        end_re = _heredoc_end_re(delim, strip)
        whole = self._heredoc_whole(hd, i, end_re)
        if whole is not None:
            raw, self.i = whole
        else:
            raw, self.i = self._heredoc_lines(hd, i, end_re)
        node.text = raw
        if quoted:
            node.parts = [A.Lit(raw)] if raw else []
        else:
            node.parts = self._heredoc_parts(raw, body_line)

    def _heredoc_whole(self, hd: _Heredoc, i: int, end_re: re.Pattern):
        """The body and the index after it found with one search (a 10 MB here-doc is not
        a million lines through Python), or None when a line of it may join the next
        (backslash-newline in an unquoted body: _heredoc_lines decides)."""
        node = hd.node
        if "\n" in node.delimiter or not i or self.text[i - 1] != "\n":
            return None
        pos = i - 1  # the newline before the body: end_re starts with one
        while True:
            text = self.text
            m = _search_lines(end_re, text, pos, self.poll)
            if m is not None and m.start() + 1 == len(text):
                m = None  # an empty delimiter "matched" past the last line
            if m is not None and (m.end() < len(text) or self.readline is None):
                break
            pos = text.rfind("\n", pos)  # the last line may go on
            if not self.more_heredoc(end_re) and m is None:
                break
        end = len(text) if m is None else m.start() + 1
        body = text[i:end]
        if not node.quoted and ("\\\n" in body or (m is None and body.endswith("\\"))):
            return None
        if node.strip_tabs:
            body = _strip_leading_tabs(body, self.poll)
        if m is None:
            if body and not body.endswith("\n"):
                body += "\n"
            self._heredoc_eof(hd, len(text))
            return body, len(text)
        return body, min(m.end() + 1, len(text))

    def _heredoc_lines(self, hd: _Heredoc, i: int, end_re: re.Pattern):
        """The body read line by line, joining backslash-newlines unless quoted."""
        node = hd.node
        delim = node.delimiter
        strip = node.strip_tabs
        quoted = node.quoted
        body = []
        while True:
            text = self.text
            j = text.find("\n", i)
            while j < 0:
                if not self.more_heredoc(end_re):
                    break
                text = self.text
                j = text.find("\n", i)
            if j < 0:
                if i >= len(text):
                    # end of input before the delimiter
                    self._heredoc_eof(hd, i)
                    break
                line = text[i:]
                nxt = len(text)
            else:
                line = text[i:j]
                nxt = j + 1
            if not quoted:
                # join lines ending in an unescaped backslash
                while (len(line) - len(line.rstrip("\\"))) % 2 == 1 and j >= 0:
                    k = text.find("\n", nxt)
                    while k < 0:
                        if not self.more():
                            break
                        text = self.text
                        k = text.find("\n", nxt)
                    if k < 0:
                        line = line[:-1] + text[nxt:]
                        nxt = len(text)
                        j = -1
                        break
                    line = line[:-1] + text[nxt:k]
                    nxt = k + 1
            cand = line.lstrip("\t") if strip else line
            if cand == delim:
                i = nxt
                break
            body.append(cand + "\n")
            i = nxt
            if j < 0:
                self._heredoc_eof(hd, i)
                break
        return "".join(body), i

    def _heredoc_eof(self, hd, i):
        self.heredoc_eof = True
        if self.heredoc_eof_warn:
            self.warnings.append(
                # the line of the last character read, as bash counts
                (self.line_at(max(i - 1, 0)), f"warning: here-document at line {hd.line} delimited "
                 f"by end-of-file (wanted `{hd.node.delimiter}')"))

    def _heredoc_parts(self, raw, line, escapes="$`\\"):
        """An unquoted here-doc body's parts (``escapes``: what a backslash quotes; a
        prompt string adds the double quote)."""
        if "$" not in raw and "`" not in raw and "\\" not in raw:
            return [A.Lit(raw)] if raw else []
        sub = self.sub_lexer(raw, line)
        parts: list = []
        i = 0
        n = len(raw)
        tick = self._tick  # the deadline, every POLL_EVERY parts
        while i < n:
            c = raw[i]
            tick()
            if c == "\\" and i + 1 < n and raw[i + 1] in escapes:
                parts.append(A.Lit(raw[i + 1]))
                i += 2
                continue
            if c == "$":
                try:
                    part, i = sub.parse_dollar(i, True)
                except ParseError as e:
                    part, i = self._broken_sub(raw, i, e)
                parts.append(part)
                continue
            if c == "`":
                try:
                    part, i = sub.parse_backquote(i + 1, True)
                except ParseError as e:
                    part, i = A.CommandSub(None, True, raw[i + 1:], e), n
                parts.append(part)
                continue
            j = _HEREDOC_LIT_RE.match(raw, i + 1).end()
            parts.append(A.Lit(raw[i:j]))
            i = j
        return merge_lits(parts)

    def _broken_sub(self, raw, i, err):
        """A $(...) in a here-doc body that does not parse: keep it for run time."""
        if raw.startswith("$(", i):
            depth = 0
            j = i + 1
            while j < len(raw):
                if raw[j] == "(":
                    depth += 1
                elif raw[j] == ")":
                    depth -= 1
                    if depth == 0:
                        break
                j += 1
            return A.CommandSub(None, False, raw[i + 2:j], err), j + 1
        return A.Lit(raw[i:]), len(raw)

    # -- [[ ... ]] ------------------------------------------------------------------
    def _cond_command(self, i):
        st = self.st
        line = self.line_at(i)
        self.i = i + 2
        self.enter(i)
        cp = _CondParser(self, line)
        expr = cp.parse()
        self.leave()
        st.before, st.last = st.last, COND_CMD
        st.cmd_start = False
        st.redirlist = False
        return (COND_CMD, expr, line, self.text[i:self.i], i)

    # -- misc --------------------------------------------------------------------
    def save_state(self):
        saved = (self.st, self.pending)
        self.st = _State()
        self.pending = []
        return saved

    def restore_state(self, saved):
        inner_pending = self.pending
        self.st, self.pending = saved
        if inner_pending:
            self.pending.extend(inner_pending)


class _BadSubst(Exception):
    pass


def _split_top_semis(raw: str) -> list[str]:
    """Split at ';' outside quotes, parentheses, ${ } and backquotes."""
    pieces = []
    depth = 0
    cur = 0
    i = 0
    n = len(raw)
    while i < n:
        c = raw[i]
        if c == "\\":
            i += 2
            continue
        if c in "'\"`":
            j = i + 1
            while j < n and raw[j] != c:
                if raw[j] == "\\" and c != "'":
                    j += 1
                j += 1
            i = j + 1
            continue
        if c in "({[":
            depth += 1
        elif c in ")}]":
            depth -= 1
        elif c == ";" and depth == 0:
            pieces.append(raw[cur:i])
            cur = i + 1
        i += 1
    pieces.append(raw[cur:])
    return pieces


_UNARY_TESTS = frozenset("-a -b -c -d -e -f -g -h -k -p -r -s -t -u -w -x -G -L -N -O -S "
                         "-z -n -o -v -R".split())
_BINARY_TESTS = frozenset("= == != =~ < > -eq -ne -lt -le -gt -ge -nt -ot -ef".split())


class _CondParser:
    """bash's cond_expr / cond_or / cond_and / cond_term over [[ ... ]] tokens."""

    def __init__(self, lx: Lexer, line: int):
        self.lx = lx
        self.line = line
        self.tok = None

    def err(self, msg, pos=None):
        lx = self.lx
        p = lx.i if pos is None else pos
        if msg.startswith("unexpected EOF"):
            return ParseError(msg, self.line, None, True)
        return ParseError(msg, lx.line_at(p), None, False)

    def read(self, regex=False, pattern=False):
        """Next cond token: ('WORD', Word, text) / ('&&',) / ('||',) / ('(',) / (')',)
        / ('!',) / (']]',) / ('NL',) / ('EOF',) / ('<',) / ('>',) / ('OP', text)."""
        lx = self.lx
        text = lx.text
        i = lx.i
        while True:
            if i >= len(text):
                if not lx.more():
                    lx.i = i
                    if text and not text.endswith("\n") and not lx.eof_newline:
                        lx.eof_newline = True
                        return ("NL", None, "newline", i)
                    return ("EOF", None, "", i)
                text = lx.text
                continue
            c = text[i]
            if c in " \t":
                i += 1
                continue
            if c == "\\" and (i + 1 < len(text) or lx.more()):
                text = lx.text
                if text[i + 1] == "\n":
                    i += 2
                    continue
            if c == "#":
                j = text.find("\n", i)
                i = len(text) if j < 0 else j
                continue
            break
        start = i
        if c == "\n":
            lx.i = i + 1
            if lx.pending:
                lx._read_heredocs()
            return ("NL", None, "newline", start)
        if not regex:
            if text.startswith("&&", i):
                lx.i = i + 2
                return ("&&", None, "&&", start)
            if text.startswith("||", i):
                lx.i = i + 2
                return ("||", None, "||", start)
        if c in "()" and not regex:
            lx.i = i + 1
            return (c, None, c, start)
        if c in "<>" and not (i + 1 < len(text) and text[i + 1] == "("):
            if not regex:
                lx.i = i + 1
                return (c, None, c, start)
        if c in ";&|" and not (regex and c == "|"):
            m = _OP_RE.match(text, i)
            lx.i = m.end()
            return ("OP", None, m.group(), start)
        ext = True if pattern else None
        parts, end = lx.read_word_parts(i, regex=regex, extglob=ext)
        if end == i:
            # a lone metacharacter in a regex, e.g. '(' handled above; be safe
            lx.i = i + 1
            return ("OP", None, c, start)
        lx.i = end
        raw = lx.text[start:end]
        if raw == "]]":
            return ("]]", None, raw, start)
        parts = merge_lits(parts)
        if not regex:
            parts = tilde_prefix(parts)
        return ("WORD", A.Word(parts, raw), raw, start)

    def skip_newlines(self):
        while True:
            t = self.read()
            if t[0] != "NL":
                self.tok = t
                return t

    def parse(self):
        expr = self.cond_or()
        t = self.tok
        if t[0] != "]]":
            if t[0] == "EOF":
                e = self.err("unexpected EOF while looking for `]]'")
                e.incomplete = True
                raise e
            if t[0] in ("WORD", "NL"):
                raise self.err("syntax error in conditional expression")
            raise self.err(f"syntax error in conditional expression: unexpected token "
                           f"`{t[2]}'")
        return expr

    def fail(self, msg, incomplete=False):
        e = self.err(msg)
        e.incomplete = incomplete
        raise e

    def cond_or(self):
        left = self.cond_and()
        if self.tok[0] == "||":
            right = self.cond_or()
            return A.CondOr(left, right)
        return left

    def cond_and(self):
        left = self.cond_term()
        if self.tok[0] == "&&":
            right = self.cond_and()
            return A.CondAnd(left, right)
        return left

    def _etext(self, t):
        if t[0] == "EOF":
            return None
        return t[2]

    def cond_term(self):
        lx = self.lx
        t = self.skip_newlines()
        kind = t[0]
        if kind == "EOF":
            self.fail("unexpected EOF while looking for `]]'", True)
        if kind == "]]":
            self.fail("syntax error in conditional expression")
        if kind == "(":
            lx.enter(t[3])
            term = self.cond_or()
            lx.leave()
            if self.tok[0] != ")":
                et = self._etext(self.tok)
                if self.tok[0] == "EOF":
                    self.fail("unexpected EOF while looking for `]]'", True)
                self.fail(f"unexpected token `{et}', expected `)'" if et else "expected `)'")
            self.skip_newlines()
            return term
        if kind == "!" or (kind == "WORD" and t[2] == "!"):
            lx.enter(t[3])
            term = self.cond_term()
            lx.leave()
            return A.CondNot(term)
        if kind == "WORD" and t[2] in _UNARY_TESTS and word_text_is(t[1], t[2]):
            op = t[2]
            t2 = self.read()
            if t2[0] == "WORD":
                term = A.CondUnary(op, t2[1])
                self.skip_newlines()
                return term
            if t2[0] == "EOF":
                self.fail("unexpected EOF while looking for `]]'", True)
            et = self._etext(t2)
            self.fail(f"unexpected argument `{et}' to conditional unary operator" if et
                      else "unexpected argument to conditional unary operator")
        if kind == "WORD":
            left = t[1]
            t2 = self.read()
            k2 = t2[0]
            op = None
            regex = pattern = False
            if k2 == "WORD" and t2[2] in _BINARY_TESTS and word_text_is(t2[1], t2[2]):
                op = t2[2]
                if op in ("=", "==", "!="):
                    pattern = True
                elif op == "=~":
                    regex = True
            elif k2 in ("<", ">"):
                op = k2
            elif k2 in ("]]", "&&", "||", ")"):
                self.tok = t2
                return A.CondWord(left)
            else:
                if k2 == "EOF":
                    self.fail("unexpected EOF while looking for `]]'", True)
                et = self._etext(t2)
                if k2 == "NL":
                    self.fail("unexpected token `newline', conditional binary operator "
                              "expected")
                self.fail(f"unexpected token `{et}', conditional binary operator expected"
                          if et and k2 != "WORD" else "conditional binary operator expected")
            t3 = self.read(regex=regex, pattern=pattern)
            if t3[0] == "WORD":
                right = t3[1]
                if regex:  # (a leading ~ is still a tilde prefix, as bash expands it)
                    right = A.Word(tilde_prefix(merge_lits(right.parts)), right.text)
                term = A.CondBinary(op, left, right)
                self.skip_newlines()
                return term
            if t3[0] == "EOF":
                self.fail("unexpected EOF while looking for `]]'", True)
            et = self._etext(t3)
            self.fail(f"unexpected argument `{et}' to conditional binary operator" if et
                      else "unexpected argument to conditional binary operator")
        et = t[2]
        self.fail(f"unexpected token `{et}' in conditional command")


def parse_string_nested(text: str, line: int, parent: Lexer):
    """Parse a backquote body as an independent program (errors deferred)."""
    from .parser import parse_program_text
    return parse_program_text(text, line=line, extglob=parent.extglob, name=parent.name,
                              depth=parent.depth)
