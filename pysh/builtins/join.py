"""join: join lines of two sorted files on a common field (GNU coreutils)."""

from __future__ import annotations

import re

from pysh.builtins._textutil import (
    OptionError,
    help_text,
    parse_options,
    quote,
    quoteaf,
    quotef,
    strerror,
    usage,
    version_text,
)
from pysh.shellkit.text import encode

HELP = """\
Usage: join [OPTION]... FILE1 FILE2
For each pair of input lines with identical join fields, write a line to
standard output.  The default join field is the first, delimited by blanks.

When FILE1 or FILE2 (not both) is -, read standard input.

  -a FILENUM        also print unpairable lines from file FILENUM, where
                      FILENUM is 1 or 2, corresponding to FILE1 or FILE2
  -e STRING         replace missing (empty) input fields with STRING;
                      I.e., missing fields specified with '-12jo' options
  -i, --ignore-case  ignore differences in case when comparing fields
  -j FIELD          equivalent to '-1 FIELD -2 FIELD'
  -o FORMAT         obey FORMAT while constructing output line
  -t CHAR           use CHAR as input and output field separator
  -v FILENUM        like -a FILENUM, but suppress joined output lines
  -1 FIELD          join on this FIELD of file 1
  -2 FIELD          join on this FIELD of file 2
      --check-order   check that the input is correctly sorted, even
                      if all input lines are pairable
      --nocheck-order  do not check that the input is correctly sorted
      --header          treat the first line in each file as field headers,
                          print them without trying to pair them
  -z, --zero-terminated     line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit

Unless -t CHAR is given, leading blanks separate fields and are ignored,
else fields are separated by CHAR.  Any FIELD is a field number counted
from 1.  FORMAT is one or more comma or blank separated specifications,
each being 'FILENUM.FIELD' or '0'.  Default FORMAT outputs the join field,
the remaining fields from FILE1, the remaining fields from FILE2, all
separated by CHAR.  If FORMAT is the keyword 'auto', then the first
line of each file determines the number of fields output for each line.

Important: FILE1 and FILE2 must be sorted on the join fields.
E.g., use "sort -k 1b,1" if 'join' has no options,
or use "join -t ''" if 'sort' has no options.
Note, comparisons honor the rules specified by 'LC_COLLATE'.
If the input is not sorted and some lines cannot be joined, a
warning message will be given.
"""

LONG = {"ignore-case": "i", "check-order": "check", "nocheck-order": "nocheck",
        "header": "header", "zero-terminated": "z", "help": "help", "version": "version"}

_BLANK_SPLIT = re.compile(rb"[ \t\n]+")


class JoinError(Exception):
    def __init__(self, msg, usage_error=False):
        super().__init__(msg)
        self.usage_error = usage_error


def _field_number(s: str) -> int:
    t = s.strip()
    if not t.isdigit() or int(t) == 0:
        raise JoinError(f"invalid field number: {quote(s)}")
    return int(t)


def _file_number(s: str) -> int:
    if s not in ("1", "2"):
        raise JoinError(f"invalid field number: {quote(s)}")
    return int(s)


def _parse_format(spec: str) -> list[tuple[int, int]] | str:
    if spec == "auto":
        return "auto"
    out = []
    for item in re.split(r"[, \t]+", spec.strip()):
        if not item:
            continue
        if item == "0":
            out.append((0, 0))
            continue
        fnum, dot, field = item.partition(".")
        if not dot:
            raise JoinError(f"invalid file number in field spec: {quote(item)}")
        if fnum not in ("1", "2"):
            raise JoinError(f"invalid file number in field spec: {quote(item)}")
        if not field.isdigit() or int(field) == 0:
            raise JoinError(f"invalid field number: {quote(field)}")
        out.append((int(fnum), int(field)))
    return out


async def main(shell, argv: list[str]) -> int:
    prog = "join"
    # -j1/-j2 obsolete forms and '-o' taking several operands are GNU extensions we skip
    try:
        opts, files = parse_options(argv[1:], "a:e:ij:o:t:v:1:2:z", LONG)
    except OptionError as e:
        return await usage(shell, prog, str(e))
    unpaired = {1: False, 2: False}
    only_unpaired = False
    empty: bytes | None = None
    ignore_case = False
    f1 = f2 = 1
    fmt = None
    tab: bytes | None = None
    check: bool | None = None
    header = False
    eol = b"\n"
    try:
        for k, v in opts:
            if k == "help":
                return await help_text(shell, HELP)
            if k == "version":
                return await version_text(shell, prog)
            v = v or ""
            if k == "a":
                unpaired[_file_number(v)] = True
            elif k == "v":
                unpaired[_file_number(v)] = True
                only_unpaired = True
            elif k == "e":
                empty = encode(v)
            elif k == "i":
                ignore_case = True
            elif k == "j":
                f1 = f2 = _field_number(v)
            elif k == "1":
                f1 = _field_number(v)
            elif k == "2":
                f2 = _field_number(v)
            elif k == "o":
                parsed = _parse_format(v)
                if fmt is None or parsed == "auto" or fmt == "auto":
                    fmt = parsed
                else:
                    fmt = fmt + parsed
            elif k == "t":
                t = encode(v)
                if len(t) > 1:
                    if t == b"\\0":
                        t = b"\0"
                    else:
                        raise JoinError(f"multi-character tab {quote(v)}")
                if tab is not None and tab != t:
                    raise JoinError("incompatible tabs")
                tab = t
            elif k == "check":
                check = True
            elif k == "nocheck":
                check = False
            elif k == "header":
                header = True
            elif k == "z":
                eol = b"\0"
    except JoinError as e:
        await shell.error(prog, str(e))
        return 1
    if len(files) < 2:
        if not files:
            return await usage(shell, prog, "missing operand")
        return await usage(shell, prog, f"missing operand after {quote(files[-1])}")
    if len(files) > 2:
        return await usage(shell, prog, f"extra operand {quoteaf(files[2])}")
    data = []
    for name in files:
        try:
            stream = shell.open_input(name)
        except OSError as e:
            if e.errno == 21:
                await shell.error(prog, "read error: Is a directory")
            else:
                await shell.error(prog, f"{quotef(name)}: {strerror(e)}")
            return 1
        try:
            raw = await stream.read()
        finally:
            stream.close()
        lines = raw.split(eol)
        if lines and lines[-1] == b"":
            lines.pop()
        data.append(lines)

    if tab is None:
        def split(line: bytes) -> list[bytes]:
            s = line.lstrip(b" \t\n")
            return _BLANK_SPLIT.split(s) if s else []
        osep = b" "
    elif tab == b"":
        def split(line: bytes) -> list[bytes]:
            return [line]
        osep = b""
    else:
        def split(line: bytes) -> list[bytes]:
            return line.split(tab)
        osep = tab

    rows = [[split(x) for x in data[0]], [split(x) for x in data[1]]]
    jf = (f1 - 1, f2 - 1)

    def key(fields: list[bytes], which: int) -> bytes:
        i = jf[which]
        k = fields[i] if i < len(fields) else b""
        return k.upper() if ignore_case else k

    out: list[bytes] = []
    auto_n = None
    if fmt == "auto":
        auto_n = (len(rows[0][0]) if rows[0] else 0, len(rows[1][0]) if rows[1] else 0)

    def field_or_empty(fields, i) -> bytes | None:
        return fields[i] if fields is not None and i < len(fields) else None

    def render(a: list[bytes] | None, b: list[bytes] | None) -> bytes:
        e = empty if empty is not None else b""
        if fmt is not None:
            specs = fmt
            if fmt == "auto":
                specs = [(0, 0)] + [(1, i + 1) for i in range(auto_n[0]) if i != jf[0]] + \
                    [(2, i + 1) for i in range(auto_n[1]) if i != jf[1]]
            parts = []
            for fnum, field in specs:
                if fnum == 0:
                    v = field_or_empty(a, jf[0]) if a is not None else field_or_empty(b, jf[1])
                else:
                    v = field_or_empty(a if fnum == 1 else b, field - 1)
                parts.append(e if v is None else v)
            return osep.join(parts)
        parts = []
        if a is not None:
            jv = field_or_empty(a, jf[0])
        else:
            jv = field_or_empty(b, jf[1])
        parts.append(jv if jv is not None else e)
        if a is not None:
            parts.extend(x for i, x in enumerate(a) if i != jf[0])
        if b is not None:
            parts.extend(x for i, x in enumerate(b) if i != jf[1])
        return osep.join(parts)

    r0, r1 = rows
    i = j = 0
    if header and r0 and r1:
        out.append(render(r0[0], r1[0]) + eol)
        i = j = 1
    elif header:
        if r0:
            out.append(render(r0[0], None) + eol)
            i = 1
        if r1:
            out.append(render(None, r1[0]) + eol)
            j = 1
    seen_unpairable = False
    warned = [False, False]
    names = files

    async def advance(which: int, n: int) -> None:
        """Moving to line index n of file `which`: the GNU order check."""
        rows_w = rows[which]
        if check is False or n >= len(rows_w) or n == 0 or warned[which]:
            return
        if header and n == 1:
            return
        if not (check or seen_unpairable):
            return
        if key(rows_w[n - 1], which) > key(rows_w[n], which):
            shown = data[which][n]
            await shell.stdout.write(b"".join(out))
            out.clear()
            await shell.stderr.write(encode(f"join: {names[which]}:{n + 1}: is not sorted: ")
                                     + shown + b"\n")
            if check:
                raise JoinError("")
            warned[which] = True

    try:
        while i < len(r0) and j < len(r1):
            k0, k1 = key(r0[i], 0), key(r1[j], 1)
            if k0 < k1:
                if unpaired[1]:
                    out.append(render(r0[i], None) + eol)
                seen_unpairable = True
                i += 1
                await advance(0, i)
                continue
            if k0 > k1:
                if unpaired[2]:
                    out.append(render(None, r1[j]) + eol)
                seen_unpairable = True
                j += 1
                await advance(1, j)
                continue
            i2 = i + 1
            await advance(0, i2)
            while i2 < len(r0) and key(r0[i2], 0) == k1:
                i2 += 1
                await advance(0, i2)
            j2 = j + 1
            await advance(1, j2)
            while j2 < len(r1) and key(r1[j2], 1) == k0:
                j2 += 1
                await advance(1, j2)
            if not only_unpaired:
                for a in r0[i:i2]:
                    for b in r1[j:j2]:
                        out.append(render(a, b) + eol)
            i, j = i2, j2
            if len(out) > 4096:
                shell.budget.check()
                await shell.stdout.write(b"".join(out))
                out.clear()
        while i < len(r0):
            if unpaired[1]:
                out.append(render(r0[i], None) + eol)
            seen_unpairable = True
            i += 1
            await advance(0, i)
        while j < len(r1):
            if unpaired[2]:
                out.append(render(None, r1[j]) + eol)
            seen_unpairable = True
            j += 1
            await advance(1, j)
    except JoinError:
        return 1
    await shell.stdout.write(b"".join(out))
    if warned[0] or warned[1]:
        await shell.error(prog, "input is not in sorted order")
        return 1
    return 0
