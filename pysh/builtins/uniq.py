"""uniq: report or omit repeated lines (GNU coreutils semantics)."""

from __future__ import annotations

import re

from pysh.builtins._textutil import (
    OptionError,
    Writer,
    argmatch,
    argmatch_die,
    help_text,
    parse_options,
    quote,
    quoteaf,
    quotef,
    strerror,
    usage,
    version_text,
)

HELP = """\
Usage: uniq [OPTION]... [INPUT [OUTPUT]]
Filter adjacent matching lines from INPUT (or standard input),
writing to OUTPUT (or standard output).

With no options, matching lines are merged to the first occurrence.

Mandatory arguments to long options are mandatory for short options too.
  -c, --count           prefix lines by the number of occurrences
  -d, --repeated        only print duplicate lines, one for each group
  -D                    print all duplicate lines
      --all-repeated[=METHOD]  like -D, but allow separating groups
                                 with an empty line;
                                 METHOD={none(default),prepend,separate}
  -f, --skip-fields=N   avoid comparing the first N fields
      --group[=METHOD]  show all items, separating groups with an empty line;
                          METHOD={separate(default),prepend,append,both}
  -i, --ignore-case     ignore differences in case when comparing
  -s, --skip-chars=N    avoid comparing the first N characters
  -u, --unique          only print unique lines
  -z, --zero-terminated     line delimiter is NUL, not newline
  -w, --check-chars=N   compare no more than N characters in lines
      --help        display this help and exit
      --version     output version information and exit

A field is a run of blanks (usually spaces and/or TABs), then non-blank
characters.  Fields are skipped before chars.
"""

LONG = {"count": "c", "repeated": "d", "all-repeated?": "all-repeated", "skip-fields=": "f",
        "group?": "group", "ignore-case": "i", "skip-chars=": "s", "unique": "u",
        "zero-terminated": "z", "check-chars=": "w", "help": "help", "version": "version"}

_GROUP = [("prepend", "prepend"), ("append", "append"), ("separate", "separate"),
          ("both", "both")]
_DELIMIT = [("none", "none"), ("prepend", "prepend"), ("separate", "separate")]


def _number(v: str) -> int | None:
    t = v.lstrip(" \t\n\v\f\r")
    if t.startswith("+"):
        t = t[1:]
    if not t or not t.isdigit() or not t.isascii():
        return None
    return int(t)


async def main(shell, argv: list[str]) -> int:
    prog = "uniq"
    args = argv[1:]
    # obsolete -N (skip fields) and +N (skip chars)
    fixed: list[str] = []
    for a in args:
        if a == "--":
            fixed.append(a)
            continue
        if len(a) > 1 and a[0] == "+" and a[1:].isdigit():
            fixed += ["-s", a[1:]]
            continue
        fixed.append(a)
    try:
        opts, files = parse_options(fixed, "0123456789cdDf:is:uw:z", LONG)
    except OptionError as e:
        return await usage(shell, prog, str(e))
    count = repeated = unique_only = ignore_case = False
    all_rep: str | None = None
    group: str | None = None
    skip_fields = skip_chars = 0
    check_chars: int | None = None
    delim = b"\n"
    digits = ""
    for k, v in opts:
        if k == "help":
            return await help_text(shell, HELP)
        if k == "version":
            return await version_text(shell, prog)
        if k.isdigit():
            digits += k
            skip_fields = int(digits)
            continue
        digits = ""
        if k == "c":
            count = True
        elif k == "d":
            repeated = True
        elif k == "D":
            all_rep = "none"
        elif k == "all-repeated":
            if v is None:
                all_rep = "none"
            else:
                got = argmatch(v, _DELIMIT)
                if got is None or got == "\0ambiguous":
                    return await argmatch_die(shell, prog, "--all-repeated", v, _DELIMIT)
                all_rep = got
        elif k == "group":
            if v is None:
                group = "separate"
            else:
                got = argmatch(v, _GROUP)
                if got is None or got == "\0ambiguous":
                    return await argmatch_die(shell, prog, "--group", v, _GROUP)
                group = got
        elif k == "f":
            n = _number(v or "")
            if n is None:
                await shell.error(prog, f"{v or ''}: invalid number of fields to skip")
                return 1
            skip_fields = n
        elif k == "s":
            n = _number(v or "")
            if n is None:
                await shell.error(prog, f"{v or ''}: invalid number of bytes to skip")
                return 1
            skip_chars = n
        elif k == "w":
            n = _number(v or "")
            if n is None:
                await shell.error(prog, f"{v or ''}: invalid number of bytes to compare")
                return 1
            check_chars = n
        elif k == "i":
            ignore_case = True
        elif k == "u":
            unique_only = True
        elif k == "z":
            delim = b"\0"
    if len(files) > 2:
        return await usage(shell, prog, f"extra operand {quote(files[2])}")
    if group is not None and (count or repeated or unique_only or all_rep is not None):
        return await usage(shell, prog, "--group is mutually exclusive with -c/-d/-D/-u")
    if count and all_rep is not None:
        return await usage(shell, prog,
                           "printing all duplicated lines and repeat counts is meaningless")
    infile = files[0] if files else "-"
    outfile = files[1] if len(files) > 1 else None
    try:
        stream = shell.open_input(infile)
    except OSError as e:
        if e.errno == 21:
            await shell.error(prog, f"error reading {quoteaf(infile)}")
        else:
            await shell.error(prog, f"{quotef(infile)}: {strerror(e)}")
        return 1
    if outfile is not None and outfile != "-":
        try:
            ostream = shell.open_output(outfile)
        except OSError as e:
            stream.close()
            await shell.error(prog, f"{quotef(outfile)}: {strerror(e)}")
            return 1
    else:
        ostream = shell.stdout.dup()
    out = Writer(ostream)
    try:
        await _uniq(shell, stream, out, delim, count, repeated, unique_only, all_rep, group,
                    skip_fields, skip_chars, check_chars, ignore_case)
        await out.flush()
    finally:
        stream.close()
        ostream.close()
    return 0


_FIELDS_CACHE: dict[int, re.Pattern] = {}


def _make_key(skip_fields, skip_chars, check_chars, ignore_case):
    if not (skip_fields or skip_chars or check_chars is not None or ignore_case):
        return None
    fre = None
    if skip_fields:
        fre = _FIELDS_CACHE.get(skip_fields)
        if fre is None:
            fre = _FIELDS_CACHE[skip_fields] = re.compile(
                rb"(?:[ \t]*[^ \t]*){%d}" % skip_fields)

    def key(line: bytes) -> bytes:
        if fre is not None:
            line = line[fre.match(line).end():]
        if skip_chars:
            line = line[skip_chars:]
        if check_chars is not None:
            line = line[:check_chars]
        if ignore_case:
            line = line.upper()
        return line

    return key


async def _uniq(shell, stream, out, delim, count, repeated, unique_only, all_rep, group,
                skip_fields, skip_chars, check_chars, ignore_case) -> None:
    keyf = _make_key(skip_fields, skip_chars, check_chars, ignore_case)
    budget = shell.budget
    # state across blocks: the current group
    cur_line: bytes | None = None
    cur_key = None
    cur_n = 0
    groups_seen = 0
    buf: list[bytes] = []

    def flush_group(line: bytes, n: int, members: list[bytes] | None) -> None:
        nonlocal groups_seen
        if group is not None:
            if group in ("prepend", "both") or (groups_seen and group in ("separate", "append")):
                buf.append(delim)
            buf.append(delim.join(members) + delim)
            groups_seen += 1
            return
        if all_rep is not None:
            if n > 1:
                if all_rep == "prepend" or (all_rep == "separate" and groups_seen):
                    buf.append(delim)
                buf.append(delim.join(members) + delim)
                groups_seen += 1
            return
        if repeated and n < 2:
            return
        if unique_only and n > 1:
            return
        if count:
            buf.append(b"%7d " % n + line + delim)
        else:
            buf.append(line + delim)

    keep_members = group is not None or all_rep is not None
    members: list[bytes] = []
    async for data in stream.line_blocks(delim):
        budget.check()
        parts = data.split(delim)
        if not parts[-1]:
            parts.pop()  # the block ends with its delimiter (not so a last line without it)
        for line in parts:
            k = keyf(line) if keyf is not None else line
            if cur_n and k == cur_key:
                cur_n += 1
                if keep_members:
                    members.append(line)
                continue
            if cur_n:
                flush_group(cur_line, cur_n, members)
            cur_line, cur_key, cur_n = line, k, 1
            if keep_members:
                members = [line]
        if buf:
            await out.write(b"".join(buf))
            buf.clear()
    if cur_n:
        flush_group(cur_line, cur_n, members)
    if group in ("append", "both") and groups_seen:
        buf.append(delim)
    if buf:
        await out.write(b"".join(buf))
