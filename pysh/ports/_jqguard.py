"""Bounds for the parts of libjq that one C call runs to the end (issue 12).

libjq checks its halt flag (``jq_halt``, set by jq's watchdog) at every bytecode
instruction, but a single C builtin runs to its end. Three of them can be made
arbitrarily long or large by a short program, and each is bounded here before
libjq runs it:

* **String repetition of literals** (``"x" * 1e9``). When both operands are
  literals, jq's parser folds the product while it *compiles* the program: one
  C call that builds every such string (up to 2 GiB each) before the program
  starts. :func:`unfold` finds, from the literals alone, whether folding could
  build a string past the run's ``max_string_length``; then it wraps each number
  literal so that nothing folds (``(1e9 as $__pysh_n | $__pysh_n)``: the same
  value, computed at run time) and redefines ``_multiply`` (what ``*`` calls) so
  a repetition past the limit halts with the limit error before the builtin
  allocates. Other programs keep the builtin ``*``: a jq-defined ``*`` costs
  several times the builtin, and a repetition at run time is one bytecode step
  like ``. + .`` (which doubles a string just as fast): it allocates at most 2 GiB
  (jq's own cap), and the halt flag is seen right after it.
* **Regex search** (oniguruma: ``test``, ``match``, ``capture``, ``scan``,
  ``split``/``splits``, ``sub``/``gsub``). Oniguruma already stops one match
  attempt after 10 million backtracking steps ("retry-limit-in-match over"), but a
  search tries every start position and a global match searches again after each
  match. :data:`SEARCH_RETRY_LIMIT` caps the steps of one search the same way
  ("Regex failure: retry-limit-in-search over", a jq error), and :class:`Brake`
  drops that cap to one step while a run is past its deadline, so the next search
  of a global match fails at once and the C loop returns to the halted bytecode.
  Oniguruma's limits are process-wide: while a run is braked (at most
  :data:`BRAKE_SECONDS`), a regex search of another jq run in this process that
  needs backtracking fails the same way.
* **Printing a long string**: ``jv_dump_string`` appends one character at a time
  (4 s of C for 100 MB). :func:`dump_string` escapes it in Python, chunk by chunk,
  so the caller polls its deadline between chunks.

What is still one unbounded C call: see the module docstring of ``pysh.ports.jq``.
"""

from __future__ import annotations

import json
import math
import re
import threading

from pysh.ports import _libjq as L

# -- string repetition ---------------------------------------------------------------------

# the halt message of a breached limit: the runner turns it into LimitExceeded
LIMIT_KEY = "__pysh_limit"

# ``b as $b | a as $a``: jq's own order for generators ([(1,2) * (3,4)] is [3,6,4,8]);
# ``_pysh_times`` is defined before the override, so its ``*`` is the builtin's
_MULTIPLY = (
    "def _pysh_times($n): . * $n; "
    "def _pysh_rep($n): (utf8bytelength | _pysh_times($n | floor)) as $size "
    "| if $size > $__pysh_cap and $size < 2147483647 "
    'then {"' + LIMIT_KEY + '": "string"} | halt_error(126) else _pysh_times($n) end; '
    "def _multiply(a; b): b as $b | a as $a "
    '| if ($a|type) == "string" and ($b|type) == "number" then $a | _pysh_rep($b) '
    'elif ($b|type) == "string" and ($a|type) == "number" then $b | _pysh_rep($a) '
    "else $a | _pysh_times($b) end; "
)


_NUMBER = re.compile(r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_WORD = re.compile(r"\$?(?:[a-zA-Z_][a-zA-Z_0-9]*::)*[a-zA-Z_][a-zA-Z_0-9]*|@[a-zA-Z0-9_]+"
                   r"|\.[a-zA-Z_][a-zA-Z_0-9]*")


def number_spans(program: str) -> tuple[list[tuple[int, int]], int]:
    """Where jq's lexer (1.8's lexer.l) sees a number literal, outside strings and comments;
    and how many bytes its string literals hold (escapes counted as written)."""
    spans: list[tuple[int, int]] = []
    chars = 0
    n = len(program)
    i = 0
    # stack of open brackets; "s" marks a string interpolation's "\(" (its ")" resumes the string)
    stack: list[str] = []

    def string_body(i: int) -> int:
        """From just after a '"': returns the index after the closing '"', or after "\\("."""
        nonlocal chars
        start = i
        while i < n and program[i] != '"' and not program.startswith("\\(", i):
            i += 2 if program[i] == "\\" else 1
        i = min(i, n)
        chars += len(program[start:i].encode("utf-8", "surrogatepass"))
        if program.startswith("\\(", i):
            stack.append("s")
            return i + 2
        return i + 1

    while i < n:
        c = program[i]
        if c == "#":
            i += 1
            while i < n and program[i] != "\n":
                i += 2 if program[i] == "\\" and i + 1 < n else 1
            continue
        if c == '"':
            i = string_body(i + 1)
            continue
        if c in "([{":
            stack.append(c)
            i += 1
            continue
        if c in ")]}":
            top = stack.pop() if stack else None
            i += 1
            if top == "s" and c == ")":
                i = string_body(i)
            continue
        if c == "." and program.startswith("..", i):
            i += 2
            continue
        m = _NUMBER.match(program, i) if (c.isdigit() or c == ".") else None
        if m and m.end() > i + (1 if c == "." else 0):
            spans.append((i, m.end()))
            i = m.end()
            continue
        w = _WORD.match(program, i)
        i = w.end() if w else i + 1
    return spans, chars


def unfold(program: str, cap: int) -> tuple[str, str]:
    """(definitions to put before the program, the program to compile).

    When jq's constant folding could build a string past ``cap`` bytes at compile time,
    the program's number literals are wrapped and the guarded ``*`` is defined; else the
    program is unchanged and nothing is defined (the guard costs several times the
    builtin on every ``*``). A folded string is a string literal repeated by products
    and sums of number literals, so its length is at most the bytes of the string
    literals times the product of the number literals' magnitudes (each counted as at
    least 2, and a small one as its inverse: ``1 / 1e-9``); ``. * 1e9`` is left alone."""
    if "*" not in program or '"' not in program:
        return "", program
    spans, chars = number_spans(program)
    bound = float(chars)
    for a, b in spans:
        v = abs(float(program[a:b]))
        bound *= max(2.0, v, 1 / v if v else 2.0)
        if bound > cap or math.isinf(bound):
            break
    else:
        return "", program
    out = []
    last = 0
    for a, b in spans:
        out.append(program[last:a])
        out.append(f"({program[a:b]} as $__pysh_n | $__pysh_n)")
        last = b
    out.append(program[last:])
    return _MULTIPLY, "".join(out)


# -- regex searches ------------------------------------------------------------------------

SEARCH_RETRY_LIMIT = 20_000_000  # backtracking steps of one search: about 1 s of C
BRAKE_SECONDS = 2.0  # the longest a run past its deadline keeps the brake on

_set_search_limit = L.onig_set_retry_limit_in_search


class Brake:
    """The process-wide search cap, dropped to one step while some run is past its deadline."""

    _lock = threading.Lock()
    _held: set[int] = set()

    @classmethod
    def setup(cls) -> None:
        with cls._lock:
            if not cls._held:
                _set_search_limit(SEARCH_RETRY_LIMIT)

    @classmethod
    def hold(cls, key: int) -> None:
        with cls._lock:
            cls._held.add(key)
            _set_search_limit(1)

    @classmethod
    def release(cls, key: int) -> None:
        with cls._lock:
            if key in cls._held:
                cls._held.discard(key)
                if not cls._held:
                    _set_search_limit(SEARCH_RETRY_LIMIT)


Brake.setup()


# -- printing a long string ----------------------------------------------------------------

DUMP_CHUNK = 1 << 20  # bytes escaped between two deadline polls


def dump_string(data: bytes, ascii_only: bool):
    """jq's JSON text of the string ``data`` (valid UTF-8, as every jv string), in pieces.

    jq escapes what ``json.dumps`` escapes (``"``, ``\\``, ``\\b\\f\\n\\r\\t``, other
    controls as ``\\u00xx``), and DEL too; ``-a`` escapes non-ASCII as ``\\uxxxx``
    with surrogate pairs, as ``ensure_ascii`` does."""
    yield b'"'
    view = memoryview(data)
    start, n = 0, len(data)
    while start < n:
        end = min(n, start + DUMP_CHUNK)
        while end < n and data[end] & 0xC0 == 0x80:  # never split a character
            end -= 1
        part = json.dumps(str(view[start:end], "utf-8", "surrogatepass"),
                          ensure_ascii=ascii_only)[1:-1]
        if not ascii_only:
            part = part.replace("\x7f", "\\u007f")
        yield part.encode("utf-8", "surrogatepass")
        start = end
    yield b'"'
