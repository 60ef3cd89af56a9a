"""The default command set: names to ``module:function`` strings, imported on first use.

Assembled here, above builtins, ports and interpreter, so that the interpreter
finds commands through the registry and never imports their modules. Each
block is one area of the tree; keep blank lines between blocks.
"""

from __future__ import annotations

from pysh.shellkit.commands import CommandRegistry

# -- grep and sed (pysh.builtins) ----------------------------------------------
GREP_SED: dict[str, str] = {
    "egrep": "pysh.builtins.grep:main",
    "fgrep": "pysh.builtins.grep:main",
    "grep": "pysh.builtins.grep:main",
    "sed": "pysh.builtins.sed:main",
}

# -- awk (pysh.builtins.awk) ---------------------------------------------------
AWK: dict[str, str] = {
}

# -- file utilities (pysh.builtins) --------------------------------------------
FILES: dict[str, str] = {
}

# -- text utilities (pysh.builtins) --------------------------------------------
TEXT: dict[str, str] = {
    "cat": "pysh.builtins.cat:main",
    "head": "pysh.builtins.head:main",
    "sort": "pysh.builtins.sort:main",
    "tail": "pysh.builtins.tail:main",
    "uniq": "pysh.builtins.uniq:main",
    "wc": "pysh.builtins.wc:main",
}

# -- system and process utilities (pysh.builtins) ------------------------------
SYSTEM: dict[str, str] = {
}

# -- ports through Shell.resolve() (pysh.ports) --------------------------------
PORTS: dict[str, str] = {
}

# -- git (pysh.ports.git) ------------------------------------------------------
GIT: dict[str, str] = {
}


def default_table() -> dict[str, str]:
    table: dict[str, str] = {}
    for block in (GREP_SED, AWK, FILES, TEXT, SYSTEM, PORTS, GIT):
        table.update(block)
    return table


def default_registry() -> CommandRegistry:
    return CommandRegistry(default_table())
