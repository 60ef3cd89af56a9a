"""The default command set: names to ``module:function`` strings, imported on first use.

Assembled here, above builtins, ports and interpreter, so that the interpreter
finds commands through the registry and never imports their modules. Each
block is one area of the tree; keep blank lines between blocks.
"""

from __future__ import annotations

from pysh.shellkit.commands import CommandRegistry

# -- grep and sed (pysh.builtins) ----------------------------------------------
GREP_SED: dict[str, str] = {
}

# -- awk (pysh.builtins.awk) ---------------------------------------------------
AWK: dict[str, str] = {
}

# -- file utilities (pysh.builtins) --------------------------------------------
FILES: dict[str, str] = {
    "basename": "pysh.builtins.paths:basename_main",
    "dirname": "pysh.builtins.paths:dirname_main",
    "pwd": "pysh.builtins.paths:pwd_main",
    "realpath": "pysh.builtins.paths:realpath_main",
    "readlink": "pysh.builtins.paths:readlink_main",
    "mkdir": "pysh.builtins.mkdir:mkdir_main",
    "rmdir": "pysh.builtins.mkdir:rmdir_main",
    "find": "pysh.builtins.find:main",
    "ls": "pysh.builtins.ls:main",
    "rm": "pysh.builtins.rm:main",
    "cp": "pysh.builtins.cp:main",
    "mv": "pysh.builtins.mv:main",
    "ln": "pysh.builtins.ln:main",
    "touch": "pysh.builtins.touch:main",
    "chmod": "pysh.builtins.chmod:main",
}

# -- text utilities (pysh.builtins) --------------------------------------------
TEXT: dict[str, str] = {
    "cat": "pysh.builtins.cat:main",
    "comm": "pysh.builtins.comm:main",
    "cut": "pysh.builtins.cut:main",
    "fold": "pysh.builtins.fold:main",
    "head": "pysh.builtins.head:main",
    "join": "pysh.builtins.join:main",
    "nl": "pysh.builtins.nl:main",
    "paste": "pysh.builtins.paste:main",
    "rev": "pysh.builtins.rev:main",
    "seq": "pysh.builtins.seq:main",
    "sort": "pysh.builtins.sort:main",
    "tac": "pysh.builtins.tac:main",
    "tail": "pysh.builtins.tail:main",
    "tee": "pysh.builtins.tee:main",
    "tr": "pysh.builtins.tr:main",
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
