"""POSIX basic regular expressions (GNU flavour) translated to Python ``re`` syntax.

Private to the misc commands (expr's ``:``/``match``, diff's ``-I``). GNU
extensions are honoured: ``\\+ \\? \\|``, ``\\w \\W \\s \\S \\b \\B \\< \\>
\\` \\'``, back-references ``\\1``..``\\9``; ``*`` is literal at the start of an
expression or group, ``^``/``$`` are anchors only at the ends, and ``.`` does
not match an undecodable byte (a surrogate), as GNU regex in a UTF-8 locale.
Errors raise :class:`BREError` with GNU regcomp's wording.
"""

from __future__ import annotations

import re

_CLASSES = {
    "alpha": "a-zA-Z", "digit": "0-9", "alnum": "a-zA-Z0-9", "upper": "A-Z", "lower": "a-z",
    "space": " \\t\\n\\r\\f\\v", "blank": " \\t", "punct": "!-/:-@\\[-`{-~",
    "print": " -~", "graph": "!-~", "cntrl": "\\x00-\\x1f\\x7f", "xdigit": "0-9A-Fa-f",
}
_DOT = "[^\\udc80-\\udcff]"


class BREError(Exception):
    pass


def _bracket(p: str, i: int) -> tuple[str, int]:
    """Translate the bracket expression starting after '[' at p[i]; return (class, next i)."""
    n = len(p)
    neg = False
    if i < n and p[i] == "^":
        neg = True
        i += 1
    parts: list[str] = []
    first = True
    while True:
        if i >= n:
            raise BREError("Unmatched [, [^, [:, [., or [=")
        c = p[i]
        if c == "]" and not first:
            i += 1
            break
        first = False
        if c == "[" and i + 1 < n and p[i + 1] in ":=.":
            kind = p[i + 1]
            end = p.find(kind + "]", i + 2)
            if end < 0:
                raise BREError("Unmatched [, [^, [:, [., or [=")
            name = p[i + 2:end]
            i = end + 2
            if kind == ":":
                cls = _CLASSES.get(name)
                if cls is None:
                    raise BREError("Invalid character class name")
                parts.append(cls)
            else:
                parts.append(re.escape(name) if len(name) == 1 else "")
                if len(name) != 1:
                    raise BREError("Invalid collation character")
            continue
        # a range a-z (the '-' last or first is literal)
        if i + 2 < n and p[i + 1] == "-" and p[i + 2] != "]":
            lo, hi = c, p[i + 2]
            if hi == "[" and i + 3 < n and p[i + 3] in ".=":
                end = p.find(p[i + 3] + "]", i + 4)
                if end < 0:
                    raise BREError("Unmatched [, [^, [:, [., or [=")
                hi = p[i + 4:end]
                i = end + 2
            else:
                i += 3
            if len(hi) != 1:
                raise BREError("Invalid range end")
            if ord(lo) <= ord(hi):  # an empty range (z-a) matches nothing, as in glibc
                parts.append(_esc_class(lo) + "-" + _esc_class(hi))
            continue
        parts.append(_esc_class(c))
        i += 1
    body = "".join(parts)
    if not body:
        return ("[\\s\\S]" if neg else "(?!)"), i
    if neg:
        return "[^" + body + "]", i
    return "[" + body + "]", i


def _esc_class(c: str) -> str:
    return "\\" + c if c in "\\]^-[" else c


def bre_to_python(p: str) -> str:
    """The Python ``re`` source equivalent to GNU BRE ``p``."""
    items: list[str] = []  # atoms (each may carry one quantifier)
    quantified: list[bool] = []
    stack: list[tuple[list[str], list[bool], int]] = []
    ngroups = 0
    closed: set[int] = set()
    i, n = 0, len(p)

    def at_start() -> bool:
        return not items or items[-1] in ("(", "|")

    def add(atom: str) -> None:
        items.append(atom)
        quantified.append(False)

    def quantify(q: str) -> None:
        if quantified[-1]:
            items[-1] = f"(?:{items[-1]}){q}"
        else:
            items[-1] = items[-1] + q
        quantified[-1] = True

    while i < n:
        c = p[i]
        if c == "\\":
            if i + 1 >= n:
                raise BREError("Trailing backslash")
            e = p[i + 1]
            i += 2
            if e == "(":
                ngroups += 1
                stack.append((items, quantified, ngroups))
                items, quantified = [], []
                items.append("(")
                quantified.append(True)
                continue
            if e == ")":
                if not stack:
                    raise BREError("Unmatched ) or \\)")
                body = "".join(x for x in items[1:])
                items, quantified, num = stack.pop()
                closed.add(num)
                add("(" + body + ")")
                continue
            if e == "|":
                items.append("|")
                quantified.append(True)
                continue
            if e == "{" and at_start():
                add("\\{")
                continue
            if e == "{":
                end = p.find("\\}", i)
                if end < 0:
                    raise BREError("Unmatched \\{")
                spec = p[i:end]
                i = end + 2
                m = re.fullmatch(r"(\d*)(,(\d*))?", spec)
                if not m or (not m.group(1) and not m.group(2)):
                    raise BREError("Invalid content of \\{\\}")
                lo = int(m.group(1)) if m.group(1) else 0
                hi = m.group(3)
                if hi and int(hi) < lo:
                    raise BREError("Invalid content of \\{\\}")
                if lo > 32767 or (hi and int(hi) > 32767):
                    raise BREError("Regular expression too big")
                if at_start():
                    raise BREError("Invalid preceding regular expression")
                q = f"{{{lo}}}" if not m.group(2) else f"{{{lo},{hi or ''}}}"
                quantify(q)
                continue
            if e in "+?":
                if at_start():
                    add(re.escape(e))
                else:
                    quantify(e)
                continue
            if e.isdigit() and e != "0":
                num = int(e)
                if num > ngroups or num not in closed:
                    raise BREError("Invalid back reference")
                add(f"(?:\\{num})")
                continue
            special = {"w": "\\w", "W": "\\W", "s": "\\s", "S": "\\S", "b": "\\b",
                       "B": "\\B", "<": "\\b(?=\\w)", ">": "\\b(?<=\\w)", "`": "\\A",
                       "'": "\\Z"}
            if e in special:
                add(special[e])
                continue
            add(re.escape(e))
            continue
        if c == "[":
            if i + 1 >= n:
                raise BREError("Invalid regular expression")
            cls, i = _bracket(p, i + 1)
            add(cls)
            continue
        if c == "*":
            if at_start() or (items and items[-1] == "^"):
                add("\\*")
            else:
                quantify("*")
            i += 1
            continue
        if c == "^":
            if at_start():
                items.append("^")
                quantified.append(True)
            else:
                add("\\^")
            i += 1
            continue
        if c == "$":
            rest = p[i + 1:]
            if not rest or rest.startswith("\\)") or rest.startswith("\\|"):
                items.append("\\Z")
                quantified.append(True)
            else:
                add("\\$")
            i += 1
            continue
        if c == ".":
            add(_DOT)
            i += 1
            continue
        add(re.escape(c))
        i += 1
    if stack:
        raise BREError("Unmatched ( or \\(")
    return "".join(items)


def compile_bre(p: str, flags: int = 0):
    """Compile with the ``regex`` engine: POSIX leftmost-longest where it can differ."""
    import regex

    src = bre_to_python(p)
    extra = regex.POSIX if ("\\|" in p or "\\(" in p) else 0
    try:
        return regex.compile(src, flags | regex.DOTALL | extra)
    except regex.error as e:
        raise BREError("Invalid regular expression") from e

