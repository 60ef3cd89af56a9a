"""tac: concatenate and print files in reverse (GNU coreutils)."""

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
Usage: tac [OPTION]... [FILE]...
Write each FILE to standard output, last line first.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -b, --before             attach the separator before instead of after
  -r, --regex              interpret the separator as a regular expression
  -s, --separator=STRING   use STRING as the separator instead of newline
      --help        display this help and exit
      --version     output version information and exit
"""

LONG = {"before": "b", "regex": "r", "separator=": "s", "help": "help", "version": "version"}


def emacs_to_python(p: bytes) -> bytes:
    """GNU regex's default (Emacs) syntax, which tac -r uses, to Python."""
    out = bytearray()
    i = 0
    while i < len(p):
        c = p[i:i + 1]
        if c == b"\\" and i + 1 < len(p):
            d = p[i + 1:i + 2]
            if d in b"()|":
                out += d
            elif d in b"+?{}":
                out += b"\\" + d
            else:
                out += b"\\" + d
            i += 2
            continue
        if c in b"(){}|":
            out += b"\\" + c
        elif c == b"[":
            j = p.find(b"]", i + 2)
            if j < 0:
                out += b"\\["
            else:
                out += p[i:j + 1]
                i = j + 1
                continue
        else:
            out += c
        i += 1
    return bytes(out)


def records(data: bytes, sep_re, sep: bytes, before: bool) -> list[bytes]:
    """Split into records, each keeping its separator (after, or before with -b)."""
    out: list[bytes] = []
    if sep_re is None:
        if not before:
            parts = data.split(sep)
            last = parts.pop()
            out = [p + sep for p in parts]
            if last:
                out.append(last)
            return out
        parts = data.split(sep)
        first = parts[0]
        if first:
            out.append(first)
        out.extend(sep + p for p in parts[1:])
        return out
    pos = 0
    starts = []
    for m in sep_re.finditer(data):
        if m.end() == m.start():
            continue
        starts.append((m.start(), m.end()))
    if not before:
        for _a, b in starts:
            out.append(data[pos:b])
            pos = b
        if pos < len(data):
            out.append(data[pos:])
        return out
    prev = 0
    for a, _b in starts:
        if a > prev:
            out.append(data[prev:a])
        prev = a
    if prev < len(data):
        out.append(data[prev:])
    return out


async def main(shell, argv: list[str]) -> int:
    prog = "tac"
    try:
        opts, files = parse_options(argv[1:], "brs:", LONG)
    except OptionError as e:
        return await usage(shell, prog, str(e))
    before = regex = False
    sep = b"\n"
    for k, v in opts:
        if k == "help":
            return await help_text(shell, HELP)
        if k == "version":
            return await version_text(shell, prog)
        if k == "b":
            before = True
        elif k == "r":
            regex = True
        elif k == "s":
            sep = encode(v or "")
            if not sep:
                sep = b"\0"
    sep_re = None
    if regex:
        try:
            sep_re = re.compile(emacs_to_python(sep))
        except re.error:
            await shell.error(prog, f"invalid regular expression {quote(encode(sep).decode('utf-8', 'replace'))}")
            return 1
    status = 0
    for name in files or ["-"]:
        try:
            stream = shell.open_input(name)
        except OSError as e:
            if e.errno == 21:
                await shell.error(prog, f"{quotef(name)}: read error: Invalid argument")
            else:
                await shell.error(prog, f"failed to open {quoteaf(name)} for reading: {strerror(e)}")
            status = 1
            continue
        try:
            data = await stream.read()
        finally:
            stream.close()
        shell.budget.check()
        if sep_re is None and not before:
            parts = data.split(sep)
            last = parts.pop()
            parts.reverse()
            body = last + sep.join(parts) + (sep if parts else b"")
        else:
            recs = records(data, sep_re, sep, before)
            recs.reverse()
            body = b"".join(recs)
        for i in range(0, len(body), 1 << 20):
            await shell.stdout.write(body[i:i + (1 << 20)])
    return status
