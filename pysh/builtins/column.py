"""column: columnate lists (util-linux 2.38): fill mode, -x, and -t tables with -s -o -N."""

from __future__ import annotations

import re

from pysh.builtins._textutil import (
    OptionError,
    char_width,
    help_text,
    parse_options,
    strerror,
)
from pysh.shellkit.text import decode, encode

HELP = """\
Usage:
 column [options] [<file>...]

Columnate lists.

Options:
 -t, --table                      create a table
 -n, --table-name <name>          table name for JSON output
 -O, --table-order <columns>      specify order of output columns
 -N, --table-columns <names>      comma separated columns names
 -l, --table-columns-limit <num>  maximal number of input columns
 -E, --table-noextreme <columns>  don't count long text from the columns to column width
 -d, --table-noheadings           don't print header
 -e, --table-header-repeat        repeat header for each page
 -H, --table-hide <columns>       don't print the columns
 -R, --table-right <columns>      right align text in these columns
 -T, --table-truncate <columns>   truncate text in the columns when necessary
 -W, --table-wrap <columns>       wrap text in the columns when necessary
 -L, --keep-empty-lines           don't ignore empty lines
 -J, --json                       use JSON output format for table

 -r, --tree <column>              column to use tree-like output for the table
 -i, --tree-id <column>           line ID to specify child-parent relation
 -p, --tree-parent <column>       parent to specify child-parent relation

 -c, --output-width <width>       width of output in number of characters
 -o, --output-separator <string>  columns separator for table output (default is two spaces)
 -s, --separator <string>         possible table delimiters
 -x, --fillrows                   fill rows before columns

 -h, --help                       display this help
 -V, --version                    display version
"""

LONG = {"table": "t", "table-columns=": "N", "table-right=": "R", "table-hide=": "H",
        "table-noheadings": "d", "table-columns-limit=": "l", "keep-empty-lines": "L",
        "output-width=": "c", "output-separator=": "o", "separator=": "s", "fillrows": "x",
        "help": "h", "version": "V", "table-name=": "n", "json": "J"}


def width_of(s: str) -> int:
    if s.isascii():
        return len(s)
    return sum(max(char_width(ch), 0) if ord(ch) >= 0x20 else 0 for ch in s)


def _columns_arg(spec: str, names: list[str]) -> set[int]:
    out = set()
    for part in spec.split(","):
        part = part.strip()
        if part.isdigit():
            out.add(int(part) - 1)
        elif part in names:
            out.add(names.index(part))
        elif part == "-":
            out.add(-1)
    return out


async def main(shell, argv: list[str]) -> int:
    prog = "column"
    try:
        opts, files = parse_options(argv[1:], "tN:R:H:dl:Lc:o:s:xhVn:J", LONG)
    except OptionError as e:
        await shell.error(prog, str(e))
        await shell.stderr.write(b"Try 'column --help' for more information.\n")
        return 1
    table = fillrows = keep_empty = no_headings = False
    names: list[str] = []
    right = hide = ""
    limit = None
    width = None
    osep = "  "
    seps = " \t"
    greedy = True
    for k, v in opts:
        if k == "h":
            return await help_text(shell, HELP)
        if k == "V":
            await shell.stdout.write(b"column from util-linux 2.38.1\n")
            return 0
        if k == "t":
            table = True
        elif k == "N":
            names = (v or "").split(",")
        elif k == "R":
            right = v or ""
        elif k == "H":
            hide = v or ""
        elif k == "d":
            no_headings = True
        elif k == "l":
            try:
                limit = int(v or "")
            except ValueError:
                await shell.error(prog, f"invalid columns limit argument: '{v}'")
                return 1
        elif k == "L":
            keep_empty = True
        elif k == "c":
            try:
                width = int(v or "")
            except ValueError:
                await shell.error(prog, f"invalid columns argument: '{v}'")
                return 1
            if not 0 <= width <= 0xFFFFFFFF:  # util-linux reads an unsigned 32-bit number
                await shell.error(prog, f"invalid columns argument: '{v}': "
                                        "Numerical result out of range")
                return 1
        elif k == "o":
            osep = v or ""
        elif k == "s":
            seps = v or ""
            greedy = False
        elif k == "x":
            fillrows = True
    if width is None:
        try:
            width = int(shell.env.get("COLUMNS", "80"))
        except ValueError:
            width = 80
    data = bytearray()
    status = 0
    for name in files or ["-"]:
        try:
            stream = shell.open_input(name)
        except OSError as e:
            await shell.error(prog, f"{name}: {strerror(e)}")
            status = 1
            continue
        try:
            data += await stream.read()
        finally:
            stream.close()
    text = decode(bytes(data))
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if table:
        out = _table(lines, seps, osep, names, right, hide, no_headings, limit, keep_empty,
                     greedy)
    else:
        out = _fill(lines, width, fillrows)
    await shell.stdout.write(encode(out))
    return status


def _table(lines, seps, osep, names, right, hide, no_headings, limit, keep_empty,
           greedy=True) -> str:
    sep_re = re.compile("[" + re.escape(seps) + "]" + ("+" if greedy else "")) if seps else None
    rows: list[list[str] | None] = []
    for line in lines:
        if not line.strip(seps) if seps else not line:
            if keep_empty:
                rows.append(None)
            continue
        if sep_re is None:
            cells = [line]
        elif greedy:
            cells = [c for c in sep_re.split(line) if c != ""]
        else:
            cells = sep_re.split(line)
        if limit and len(cells) > limit:
            rest = line
            cells = []
            for _ in range(limit - 1):
                m = sep_re.search(rest.lstrip(seps))
                stripped = rest.lstrip(seps)
                if not m:
                    break
                cells.append(stripped[:m.start()])
                rest = stripped[m.end():]
            cells.append(rest)
        rows.append(cells)
    if names and not no_headings:
        rows.insert(0, list(names))
    ncols = max([len(r) for r in rows if r is not None] + [len(names)])
    hidden = _columns_arg(hide, names)
    rights = _columns_arg(right, names)
    widths = [0] * ncols
    for r in rows:
        if r is None:
            continue
        for i, c in enumerate(r):
            widths[i] = max(widths[i], width_of(c))
    visible = [i for i in range(ncols) if i not in hidden]
    last = visible[-1] if visible else -1
    out = []
    for r in rows:
        if r is None:
            out.append("\n")
            continue
        parts = []
        for i in visible:
            c = r[i] if i < len(r) else ""
            pad = widths[i] - width_of(c)
            if i == last:
                parts.append(" " * pad + c if i in rights else c)
            else:
                parts.append((" " * pad + c) if i in rights else (c + " " * pad))
                parts.append(osep)
        out.append("".join(parts) + "\n")
    return "".join(out)


def _fill(lines, width, fillrows) -> str:
    items = [x for x in lines if x != ""]
    if not items:
        return ""
    maxlen = max(width_of(x) for x in items)
    colw = (maxlen + 8) & ~7
    n = len(items)
    numcols = min(max(width // colw, 1), n)  # no more columns than items, however wide
    out = []
    if fillrows:
        for start in range(0, n, numcols):
            row = items[start:start + numcols]
            out.append(_row(row, colw))
        return "".join(out)
    numrows = (n + numcols - 1) // numcols
    for r in range(numrows):
        row = [items[c * numrows + r] for c in range(numcols) if c * numrows + r < n]
        out.append(_row(row, colw))
    return "".join(out)


def _row(row, colw) -> str:
    parts = []
    for i, item in enumerate(row):
        parts.append(item)
        if i < len(row) - 1:
            chcnt = width_of(item)
            while chcnt < colw:
                parts.append("\t")
                chcnt = (chcnt + 8) & ~7
    return "".join(parts) + "\n"
