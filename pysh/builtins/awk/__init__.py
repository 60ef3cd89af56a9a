"""awk: the POSIX awk language, compiled to Python.

Modules: ``lexer`` and ``parser`` (syntax tree in ``nodes``), ``compiler``
(tree to Python source), ``runtime`` (records, fields, I/O, builtins),
``values`` (numbers, strings, strnums), ``format`` (printf), ``awkre``
(awk EREs to Python regexes), ``rand`` (rand/srand), ``driver`` (the
command line and one run).
"""

from __future__ import annotations


async def main(shell, argv: list[str]) -> int:
    from pysh.builtins.awk.driver import main as _main

    return await _main(shell, argv)
