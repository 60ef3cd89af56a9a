"""cat: concatenate files (GNU coreutils semantics, -n -b -s -A -v -e -t -E -T -u)."""

from __future__ import annotations

import re

from pysh.builtins._textutil import (
    OptionError,
    Writer,
    help_text,
    parse_options,
    quotef,
    strerror,
    usage,
    version_text,
)

HELP = """\
Usage: cat [OPTION]... [FILE]...
Concatenate FILE(s) to standard output.

With no FILE, or when FILE is -, read standard input.

  -A, --show-all           equivalent to -vET
  -b, --number-nonblank    number nonempty output lines, overrides -n
  -e                       equivalent to -vE
  -E, --show-ends          display $ at end of each line
  -n, --number             number all output lines
  -s, --squeeze-blank      suppress repeated empty output lines
  -t                       equivalent to -vT
  -T, --show-tabs          display TAB characters as ^I
  -u                       (ignored)
  -v, --show-nonprinting   use ^ and M- notation, except for LFD and TAB
      --help        display this help and exit
      --version     output version information and exit
"""

LONG = {"number-nonblank": "b", "number": "n", "squeeze-blank": "s", "show-nonprinting": "v",
        "show-ends": "E", "show-tabs": "T", "show-all": "A", "help": "help", "version": "version"}


def _caret(c: int, tabs: bool) -> bytes:
    if c >= 128:
        prefix = b"M-"
        c -= 128
    else:
        prefix = b""
    if c < 32:
        if c == 9 and not tabs and not prefix:
            return b"\t"
        return prefix + b"^" + bytes([c + 64])
    if c == 127:
        return prefix + b"^?"
    return prefix + bytes([c])


def _visible_table(tabs: bool) -> dict[int, bytes]:
    return {c: _caret(c, tabs) for c in range(256) if c != 10}


class _State:
    __slots__ = ("line", "blank_run", "at_start")

    def __init__(self):
        self.line = 0
        self.blank_run = 0
        self.at_start = True


async def main(shell, argv: list[str]) -> int:
    prog = "cat"
    try:
        opts, files = parse_options(argv[1:], "AbeEnstTuv", LONG)
    except OptionError as e:
        return await usage(shell, prog, str(e))
    number = nonblank = squeeze = ends = tabs = visible = False
    for k, _ in opts:
        if k == "help":
            return await help_text(shell, HELP)
        if k == "version":
            return await version_text(shell, prog)
        if k == "A":
            visible = ends = tabs = True
        elif k == "b":
            nonblank = number = True
        elif k == "e":
            visible = ends = True
        elif k == "E":
            ends = True
        elif k == "n":
            number = True
        elif k == "s":
            squeeze = True
        elif k == "t":
            visible = tabs = True
        elif k == "T":
            tabs = True
        elif k == "v":
            visible = True
    plain = not (number or squeeze or ends or tabs or visible)
    if not files:
        files = ["-"]
    out = Writer(shell.stdout)
    status = 0
    state = _State()
    table = None
    pattern = None
    if visible or tabs:
        if visible:
            table = _visible_table(tabs)
            pattern = re.compile(rb"[\x00-\x09\x0b-\x1f\x7f-\xff]" if tabs
                                 else rb"[\x00-\x08\x0b-\x1f\x7f-\xff]")
        else:
            table = {9: b"^I"}
            pattern = re.compile(rb"\t")
    for name in files:
        try:
            stream = shell.open_input(name)
        except OSError as e:
            await out.flush()
            await shell.error(prog, f"{quotef(name)}: {strerror(e)}")
            status = 1
            continue
        try:
            if plain:
                while True:
                    chunk = await stream.read(1 << 18)
                    if not chunk:
                        break
                    shell.budget.check()
                    await out.write(chunk)
                continue
            await _cat_lines(shell, stream, out, state, number, nonblank, squeeze, ends,
                             table, pattern)
        finally:
            stream.close()
    await out.flush()
    return status


async def _cat_lines(shell, stream, out, state, number, nonblank, squeeze, ends, table,
                     pattern) -> None:
    sub = (lambda m: table[m.group()[0]]) if table is not None else None
    fast = number and not (squeeze or ends or pattern is not None)
    while True:
        chunk = await stream.read(1 << 18)
        if not chunk:
            break
        shell.budget.check()
        parts = chunk.split(b"\n")
        last = parts.pop()  # text after the last newline ('' when chunk ends with one)
        res = []
        if fast:
            n = state.line
            for text in parts:
                if state.at_start:
                    if nonblank and not text:
                        res.append(b"\n")
                        continue
                    n += 1
                    res.append(b"%6d\t%b\n" % (n, text))
                else:
                    res.append(text + b"\n")
                    state.at_start = True
            state.line = n
            if last:
                _emit(res, state, last, False, number, nonblank, squeeze, ends, pattern, sub)
            await out.write(b"".join(res))
            continue
        for text in parts:
            _emit(res, state, text, True, number, nonblank, squeeze, ends, pattern, sub)
        if last:
            _emit(res, state, last, False, number, nonblank, squeeze, ends, pattern, sub)
        await out.write(b"".join(res))


def _emit(res, state, text, newline, number, nonblank, squeeze, ends, pattern, sub) -> None:
    # `state.at_start`: the next byte begins a new output line
    if state.at_start:
        if not text and newline:
            state.blank_run += 1
            if squeeze and state.blank_run > 1:
                return
        elif text:
            state.blank_run = 0
        if number and not (nonblank and not text):
            state.line += 1
            res.append(b"%6d\t" % state.line)
    elif text:
        state.blank_run = 0
    if text:
        if pattern is not None:
            text = pattern.sub(sub, text)
        res.append(text)
    if newline:
        if ends:
            res.append(b"$")
        res.append(b"\n")
        state.at_start = True
    elif text:
        state.at_start = False
