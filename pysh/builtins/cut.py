"""cut: select bytes, characters or fields of lines (GNU coreutils; -c is byte-based as in GNU)."""

from __future__ import annotations

from pysh.builtins._textutil import (
    OptionError,
    Writer,
    help_text,
    parse_options,
    quote,
    quotef,
    strerror,
    usage,
    version_text,
)
from pysh.shellkit.text import encode

HELP = """\
Usage: cut OPTION... [FILE]...
Print selected parts of lines from each FILE to standard output.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -b, --bytes=LIST        select only these bytes
  -c, --characters=LIST   select only these characters
  -d, --delimiter=DELIM   use DELIM instead of TAB for field delimiter
  -f, --fields=LIST       select only these fields;  also print any line
                            that contains no delimiter character, unless
                            the -s option is specified
  -n                      (ignored)
      --complement        complement the set of selected bytes, characters
                            or fields
  -s, --only-delimited    do not print lines not containing delimiters
      --output-delimiter=STRING  use STRING as the output delimiter
                            the default is to use the input delimiter
  -z, --zero-terminated   line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit

Use one, and only one of -b, -c or -f.  Each LIST is made up of one
range, or many ranges separated by commas.  Selected input is written
in the same order that it is read, and is written exactly once.
Each range is one of:

  N     N'th byte, character or field, counted from 1
  N-    from N'th byte, character or field, to end of line
  N-M   from N'th to M'th (included) byte, character or field
  -M    from first to M'th (included) byte, character or field
"""

LONG = {"bytes=": "b", "characters=": "c", "delimiter=": "d", "fields=": "f",
        "complement": "complement", "only-delimited": "s", "output-delimiter=": "outdelim",
        "zero-terminated": "z", "help": "help", "version": "version"}

INF = 2 ** 63


class ListError(Exception):
    pass


def parse_list(spec: str, fields: bool) -> list[tuple[int, int]]:
    """Ranges (1-based, inclusive), sorted and merged; ListError in GNU's words."""
    ranges: list[tuple[int, int]] = []
    from_one = "fields are numbered from 1" if fields else \
        "byte/character positions are numbered from 1"

    def bad_value(part):
        return ListError(f"invalid field value {quote(part)}" if fields
                         else f"invalid byte/character position {quote(part)}")

    for part in spec.replace(" ", ",").split(","):
        if part == "":
            raise ListError(from_one)
        if part == "-":
            raise ListError("invalid range with no endpoint: -")
        if "-" in part:
            lo_s, _, hi_s = part.partition("-")
            if not (lo_s.isdigit() or lo_s == "") or not (hi_s.isdigit() or hi_s == ""):
                if "-" in hi_s and (lo_s.isdigit() or lo_s == ""):
                    raise ListError("invalid field range" if fields
                                    else "invalid byte or character range")
                raise bad_value(part)
            lo = int(lo_s) if lo_s else 1
            hi = int(hi_s) if hi_s else INF
            if lo == 0:
                raise ListError(from_one)
            if hi < lo:
                raise ListError("invalid decreasing range")
        else:
            if not part.isdigit():
                raise bad_value(part)
            lo = hi = int(part)
            if lo == 0:
                raise ListError(from_one)
        ranges.append((lo, hi))
    ranges.sort()
    merged: list[tuple[int, int]] = []
    for lo, hi in ranges:
        if merged and lo <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], hi))
        else:
            merged.append((lo, hi))
    return merged


def complement(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out = []
    nxt = 1
    for lo, hi in ranges:
        if lo > nxt:
            out.append((nxt, lo - 1))
        nxt = hi + 1
    if nxt < INF:
        out.append((nxt, INF))
    return out


async def main(shell, argv: list[str]) -> int:
    prog = "cut"
    try:
        opts, files = parse_options(argv[1:], "b:c:d:f:nsz", LONG)
    except OptionError as e:
        return await usage(shell, prog, str(e))
    mode = None
    spec = ""
    delim: bytes | None = None
    outdelim: bytes | None = None
    only_delimited = False
    comp = False
    eol = b"\n"
    for k, v in opts:
        if k == "help":
            return await help_text(shell, HELP)
        if k == "version":
            return await version_text(shell, prog)
        if k in ("b", "c", "f"):
            if mode is not None:
                return await usage(shell, prog, "only one list may be specified")
            mode, spec = k, v or ""
        elif k == "d":
            d = encode(v or "")
            if len(d) > 1:
                try:
                    ok = len((v or "").encode("utf-8")) == len(d) and len(v or "") == 1
                except UnicodeEncodeError:
                    ok = False
                if not ok:
                    return await usage(shell, prog, "the delimiter must be a single character")
            delim = d if d else b"\0"
        elif k == "outdelim":
            outdelim = encode(v or "")
        elif k == "s":
            only_delimited = True
        elif k == "complement":
            comp = True
        elif k == "z":
            eol = b"\0"
    if mode is None:
        return await usage(shell, prog, "you must specify a list of bytes, characters, or fields")
    if mode != "f" and delim is not None:
        return await usage(shell, prog,
                           "an input delimiter may be specified only when operating on fields")
    if mode != "f" and only_delimited:
        return await usage(shell, prog, "suppressing non-delimited lines makes sense\n"
                                        "\tonly when operating on fields")
    try:
        ranges = parse_list(spec, mode == "f")
    except ListError as e:
        return await usage(shell, prog, str(e))
    if comp:
        ranges = complement(ranges)
    if delim is None:
        delim = b"\t"
    if not files:
        files = ["-"]
    out = Writer(shell.stdout)
    status = 0
    if mode == "f":
        od = delim if outdelim is None else outdelim
        process = _field_cutter(ranges, delim, od, only_delimited)
        block = _field_block(ranges, delim, od, only_delimited, process)
    else:
        process = _byte_cutter(ranges, outdelim)

        def block(parts):
            return list(map(process, parts))
    for name in files:
        try:
            stream = shell.open_input(name)
        except OSError as e:
            await out.flush()
            await shell.error(prog, f"{quotef(name)}: {strerror(e)}")
            status = 1
            continue
        try:
            async for data in stream.line_blocks(eol):
                shell.budget.check()
                parts = data.split(eol)
                last = parts.pop()  # not empty only for a last line without its delimiter
                res = block(parts)
                if res:
                    await out.write(eol.join(res) + eol)
                if last:
                    r = process(last)
                    if r is not None:
                        await out.write(r + eol)
        finally:
            stream.close()
    await out.flush()
    return status


def _byte_cutter(ranges, outdelim):
    slices = [(lo - 1, None if hi >= INF else hi) for lo, hi in ranges]
    if outdelim is None:
        if len(slices) == 1:
            a, b = slices[0]
            return lambda line: line[a:b]
        return lambda line: b"".join(line[a:b] for a, b in slices)

    def cut(line: bytes) -> bytes:
        return outdelim.join(p for p in (line[a:b] for a, b in slices) if p)

    return cut


def _field_block(ranges, delim, od, only_delimited, process):
    """Whole blocks at once through itemgetter when every selected field is explicit."""
    import operator

    def slow(parts):
        return [x for x in map(process, parts) if x is not None]

    if only_delimited or ranges[-1][1] >= INF:
        return slow
    idx = [i - 1 for lo, hi in ranges for i in range(lo, hi + 1)]
    if len(idx) > 64:
        return slow
    maxsplit = idx[-1] + 1
    if len(idx) == 1:
        k = idx[0]

        def fast(parts):
            try:
                return [line.split(delim, maxsplit)[k] for line in parts]
            except IndexError:
                return slow(parts)
        return fast
    getter = operator.itemgetter(*idx)
    join = od.join

    def fast(parts):
        try:
            return [join(getter(line.split(delim, maxsplit))) for line in parts]
        except IndexError:
            return slow(parts)
    return fast


def _field_cutter(ranges, delim, od, only_delimited):
    slices = [(lo - 1, None if hi >= INF else hi) for lo, hi in ranges]
    top = ranges[-1][1]
    maxsplit = -1 if top >= INF else top
    if len(slices) == 1:
        a, b = slices[0]

        def cut(line: bytes):
            if delim not in line:
                return None if only_delimited else line
            return od.join(line.split(delim, maxsplit)[a:b])
        return cut

    def cut(line: bytes):
        if delim not in line:
            return None if only_delimited else line
        fields = line.split(delim, maxsplit)
        sel = []
        for a, b in slices:
            sel += fields[a:b]
        return od.join(sel)

    return cut
