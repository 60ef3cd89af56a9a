"""tsort (GNU coreutils 9.1): topological sort, Knuth's algorithm T as GNU runs it.

The order of the output and of a reported loop follows GNU's: zero-count
items are queued in byte order of their names (GNU walks a search tree),
successors are visited newest relation first, and a loop is found and broken
by the same walk, so ties and cycles come out exactly as GNU prints them.
"""

from __future__ import annotations

from pysh.builtins._textutil import (
    OpenFailed,
    OptionError,
    Writer,
    help_text,
    open_input,
    parse_options,
    quote,
    quotef,
    read_all,
    strerror,
    usage,
    version_text,
)
from pysh.shellkit.text import decode

HELP = """\
Usage: tsort [OPTION] [FILE]
Write totally ordered list consistent with the partial ordering in FILE.

With no FILE, or when FILE is -, read standard input.

      --help        display this help and exit
      --version     output version information and exit
"""


class _Item:
    __slots__ = ("name", "count", "top", "qlink", "done")

    def __init__(self, name: bytes):
        self.name = name
        self.count = 0
        self.top: list[_Item] = []  # successors, newest first (GNU prepends)
        self.qlink: _Item | None = None
        self.done = False


def _find_loop(items: list[_Item], state: list) -> list[bytes] | None:
    """One walk of GNU's detect_loop; the loop's names when it closes one (and breaks it)."""
    for k in items:
        if k.count <= 0:
            continue
        loop = state[0]
        if loop is None:
            state[0] = k
            continue
        for i, suc in enumerate(k.top):
            if suc is not loop:
                continue
            if k.qlink is not None:
                names = []
                while loop is not None:
                    nxt = loop.qlink
                    names.append(loop.name)
                    if loop is k:
                        suc.count -= 1
                        del k.top[i]
                        break
                    loop.qlink = None
                    loop = nxt
                while loop is not None:
                    nxt = loop.qlink
                    loop.qlink = None
                    loop = nxt
                state[0] = None
                return names
            k.qlink = loop
            state[0] = k
            break
    return None


async def main(shell, argv: list[str]) -> int:
    prog = "tsort"
    try:
        opts, operands = parse_options(argv[1:], "", {"help": "help", "version": "version"})
    except OptionError as e:
        return await usage(shell, prog, str(e))
    for k, _ in opts:
        if k == "help":
            return await help_text(shell, HELP)
        if k == "version":
            return await version_text(shell, prog)
    if len(operands) > 1:
        return await usage(shell, prog, f"extra operand {quote(operands[1])}")
    name = operands[0] if operands else "-"
    try:
        stream = open_input(shell, name)
    except OpenFailed as e:
        await shell.error(prog, f"{quotef(name)}: {strerror(e.exc)}")
        return 1
    try:
        data = await read_all(shell, stream)
    except OSError as e:
        await shell.error(prog, f"{quotef(name)}: {strerror(e)}")
        return 1
    finally:
        stream.close()
    tokens = data.replace(b"\t", b" ").replace(b"\n", b" ").split(b" ")
    tokens = [t for t in tokens if t]
    if len(tokens) % 2:
        await shell.error(prog, f"{quotef(name)}: input contains an odd number of tokens")
        return 1
    table: dict[bytes, _Item] = {}
    for t in tokens:
        if t not in table:
            table[t] = _Item(t)
    for j, k in zip(tokens[0::2], tokens[1::2], strict=True):
        if j != k:
            a, b = table[j], table[k]
            b.count += 1
            a.top.insert(0, b)
    items = [table[k] for k in sorted(table)]
    out = Writer(shell.stdout)
    budget = shell.budget
    remaining = len(items)
    status = 0
    while remaining > 0:
        budget.check()
        queue = [k for k in items if k.count == 0 and not k.done]
        qi = 0
        while qi < len(queue):
            head = queue[qi]
            qi += 1
            await out.write(head.name + b"\n")
            head.done = True
            remaining -= 1
            for suc in head.top:
                suc.count -= 1
                if suc.count == 0:
                    queue.append(suc)
        if remaining > 0:
            await out.flush()
            await shell.error(prog, f"{quotef(name)}: input contains a loop:")
            status = 1
            state: list = [None]
            while True:
                budget.check()
                names = _find_loop(items, state)
                if names is not None:
                    for n in names:
                        await shell.error(prog, decode(n))
                if state[0] is None:
                    break
    await out.flush()
    return status
