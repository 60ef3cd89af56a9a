"""tr: translate, squeeze and delete bytes (GNU coreutils; byte-based as GNU tr is)."""

from __future__ import annotations

import re

from pysh.builtins._textutil import (
    OptionError,
    help_text,
    parse_options,
    quote,
    usage,
    version_text,
)
from pysh.shellkit.text import decode, encode

HELP = """\
Usage: tr [OPTION]... STRING1 [STRING2]
Translate, squeeze, and/or delete characters from standard input,
writing to standard output.  STRING1 and STRING2 specify arrays of
characters ARRAY1 and ARRAY2 that control the action.

  -c, -C, --complement    use the complement of ARRAY1
  -d, --delete            delete characters in ARRAY1, do not translate
  -s, --squeeze-repeats   replace each sequence of a repeated character
                            that is listed in the last specified ARRAY,
                            with a single occurrence of that character
  -t, --truncate-set1     first truncate ARRAY1 to length of ARRAY2
      --help        display this help and exit
      --version     output version information and exit

ARRAYs are specified as strings of characters.  Most represent themselves.
Interpreted sequences are:

  \\NNN            character with octal value NNN (1 to 3 octal digits)
  \\\\              backslash
  \\a              audible BEL
  \\b              backspace
  \\f              form feed
  \\n              new line
  \\r              return
  \\t              horizontal tab
  \\v              vertical tab
  CHAR1-CHAR2     all characters from CHAR1 to CHAR2 in ascending order
  [CHAR*]         in ARRAY2, copies of CHAR until length of ARRAY1
  [CHAR*REPEAT]   REPEAT copies of CHAR, REPEAT octal if starting with 0
  [:alnum:]       all letters and digits
  [:alpha:]       all letters
  [:blank:]       all horizontal whitespace
  [:cntrl:]       all control characters
  [:digit:]       all digits
  [:graph:]       all printable characters, not including space
  [:lower:]       all lower case letters
  [:print:]       all printable characters, including space
  [:punct:]       all punctuation characters
  [:space:]       all horizontal or vertical whitespace
  [:upper:]       all upper case letters
  [:xdigit:]      all hexadecimal digits
  [=CHAR=]        all characters which are equivalent to CHAR

Translation occurs if -d is not given and both STRING1 and STRING2 appear.
-t may be used only when translating.  ARRAY2 is extended to length of
ARRAY1 by repeating its last character as necessary.  Excess characters
of ARRAY2 are ignored.  Character classes expand in unspecified order;
while translating, [:lower:] and [:upper:] may be used in pairs to
specify case conversion.  Squeezing occurs after translation or deletion.
"""

LONG = {"complement": "c", "delete": "d", "squeeze-repeats": "s", "truncate-set1": "t",
        "help": "help", "version": "version"}


def _cls(pred) -> list[int]:
    return [c for c in range(256) if pred(c)]


CLASSES = {
    "alnum": _cls(lambda c: chr(c).isascii() and chr(c).isalnum()),
    "alpha": _cls(lambda c: chr(c).isascii() and chr(c).isalpha()),
    "blank": [9, 32],
    "cntrl": _cls(lambda c: c < 32 or c == 127),
    "digit": list(range(48, 58)),
    "graph": list(range(33, 127)),
    "lower": list(range(97, 123)),
    "print": list(range(32, 127)),
    "punct": _cls(lambda c: 33 <= c < 127 and not chr(c).isalnum()),
    "space": [9, 10, 11, 12, 13, 32],
    "upper": list(range(65, 91)),
    "xdigit": list(range(48, 58)) + list(range(65, 71)) + list(range(97, 103)),
}
_ESC = {ord("a"): 7, ord("b"): 8, ord("f"): 12, ord("n"): 10, ord("r"): 13, ord("t"): 9,
        ord("v"): 11}


class TrError(Exception):
    pass


def _unescape(s: bytes) -> list[tuple[int, bool]]:
    """(byte, was_escaped) for each character of a set string."""
    out = []
    i = 0
    n = len(s)
    while i < n:
        c = s[i]
        if c == 92 and i + 1 < n:
            d = s[i + 1]
            if d in _ESC:
                out.append((_ESC[d], True))
                i += 2
                continue
            if 48 <= d <= 55:
                j = i + 1
                v = 0
                while j < n and j < i + 4 and 48 <= s[j] <= 55:
                    nv = v * 8 + s[j] - 48
                    if nv > 255:
                        break
                    v = nv
                    j += 1
                out.append((v, True))
                i = j
                continue
            out.append((d, True))
            i += 2
            continue
        out.append((c, False))
        i += 1
    return out


def parse_set(s: bytes, is_set2: bool, budget, most: int | None = None):
    """A list of elements: ints, ('fill', c) for [c*] and ('class', name).

    ``most``: copies past it of a [c*n] cannot matter (string2 past string1's length);
    without it, a count past the string limit is the limit error before the list is made."""
    chars = _unescape(s)
    items: list = []
    i = 0
    n = len(chars)
    while i < n:
        c, esc = chars[i]
        if c == 91 and not esc and i + 1 < n:  # '['
            # [:class:]
            rest = bytes(x for x, _ in chars[i + 1:])
            if rest.startswith(b":"):
                j = rest.find(b":]", 1)
                if j > 0:
                    name = rest[1:j].decode("latin-1")
                    if name in CLASSES:
                        items.append(("class", name))
                        i += j + 3
                        continue
                    raise TrError(f"invalid character class {quote(name)}")
            if rest.startswith(b"="):
                if len(chars) > i + 3 and chars[i + 3][0] == 61 and chars[i + 4:i + 5] and \
                        chars[i + 4][0] == 93:
                    items.append(chars[i + 2][0])
                    i += 5
                    continue
            # [c*n]
            if i + 2 < n and chars[i + 2][0] == 42 and not chars[i + 2][1]:
                j = i + 3
                digits = b""
                while j < n and 48 <= chars[j][0] <= 57 and not chars[j][1]:
                    digits += bytes([chars[j][0]])
                    j += 1
                if j < n and chars[j][0] == 93:
                    ch = chars[i + 1][0]
                    if not digits or int(digits, 8 if digits.startswith(b"0") else 10) == 0:
                        if not is_set2:
                            raise TrError("the [c*] repeat construct may not appear in string1")
                        items.append(("fill", ch))
                    else:
                        try:
                            count = int(digits, 8 if digits.startswith(b"0") else 10)
                        except ValueError:
                            raise TrError(f"invalid repeat count {quote(decode(digits))} in "
                                          "[c*n] construct") from None
                        if most is not None:
                            count = min(count, max(most, 1))
                        else:
                            budget.check_string(len(items) + count)
                        items.extend([ch] * count)
                    i = j + 1
                    continue
        # range a-z
        if i + 2 < n and chars[i + 1] == (45, False):
            lo, hi = c, chars[i + 2][0]
            if hi < lo:
                raise TrError(f"range-endpoints of '{_show(lo)}-{_show(hi)}' are in "
                              "reverse collating sequence order")
            items.extend(range(lo, hi + 1))
            i += 3
            continue
        items.append(c)
        i += 1
    return items


def _show(c: int) -> str:
    return decode(bytes([c]))


def expand(items, length_hint: int | None = None) -> list[int]:
    out: list[int] = []
    fill_at = None
    for it in items:
        if isinstance(it, int):
            out.append(it)
        elif it[0] == "class":
            out.extend(CLASSES[it[1]])
        elif it[0] == "fill":
            fill_at = (len(out), it[1])
    if fill_at is not None:
        pos, ch = fill_at
        need = max(0, (length_hint or 0) - len(out))
        out[pos:pos] = [ch] * need
    return out


async def main(shell, argv: list[str]) -> int:
    prog = "tr"
    try:
        opts, args = parse_options(argv[1:], "cCdst", LONG)
    except OptionError as e:
        return await usage(shell, prog, str(e))
    comp = delete = squeeze = truncate = False
    for k, _ in opts:
        if k == "help":
            return await help_text(shell, HELP)
        if k == "version":
            return await version_text(shell, prog)
        if k in "cC":
            comp = True
        elif k == "d":
            delete = True
        elif k == "s":
            squeeze = True
        elif k == "t":
            truncate = True
    translating = not delete and len(args) == 2
    need = 2 if (delete and squeeze) or (not delete and not squeeze) else 1
    if not args:
        return await usage(shell, prog, "missing operand")
    if len(args) < need:
        msg = f"missing operand after {quote(args[-1])}"
        if not delete and not squeeze:
            msg += "\nTwo strings must be given when translating."
        else:
            msg += "\nTwo strings must be given when both deleting and squeezing repeats."
        return await usage(shell, prog, msg)
    if len(args) > need and not (need == 1 and squeeze and not delete and len(args) == 2):
        msg = f"extra operand {quote(args[need])}"
        if delete and not squeeze and len(args) == 2:
            msg += "\nOnly one string may be given when deleting without squeezing repeats."
        return await usage(shell, prog, msg)
    try:
        items1 = parse_set(encode(args[0]), False, shell.budget)
        set1 = expand(items1)
        if comp:
            present = set(set1)
            set1 = [c for c in range(256) if c not in present]
        set2: list[int] = []
        if len(args) > 1:
            items2 = parse_set(encode(args[1]), True, shell.budget, len(set1))
            set2 = expand(items2, len(set1))
    except TrError as e:
        await shell.error(prog, str(e))
        return 1
    table = None
    deleteset = b""
    squeezeset = b""
    if translating:
        if not set2 and set1:
            await shell.error(prog, "when not truncating set1, string2 must be non-empty")
            return 1
        if truncate:
            set1 = set1[:len(set2)]
        elif len(set2) < len(set1):
            set2 = set2 + [set2[-1]] * (len(set1) - len(set2))
        t = list(range(256))
        for a, b in zip(set1, set2, strict=False):
            t[a] = b
        table = bytes(t)
        if squeeze:
            squeezeset = bytes(sorted(set(set2)))
    elif delete:
        deleteset = bytes(sorted(set(set1)))
        if squeeze:
            squeezeset = bytes(sorted(set(set2)))
    else:  # squeeze only
        squeezeset = bytes(sorted(set(set1)))
    sq = None
    if squeezeset:
        cls = b"".join(b"\\" + bytes([c]) if not chr(c).isalnum() else bytes([c])
                       for c in squeezeset)
        sq = re.compile(b"([" + cls + b"])\\1+")
    last = -1
    budget = shell.budget
    while True:
        chunk = await shell.stdin.read(1 << 18)
        if not chunk:
            break
        budget.check()
        if table is not None or deleteset:
            chunk = chunk.translate(table, deleteset)
        if sq is not None and chunk:
            chunk = sq.sub(rb"\1", chunk)
            if chunk and chunk[0] == last and last in squeezeset:
                i = 0
                while i < len(chunk) and chunk[i] == last:
                    i += 1
                chunk = chunk[i:]
            if chunk:
                last = chunk[-1]
        if chunk:
            await shell.stdout.write(chunk)
    return 0
