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
    "awk": "pysh.builtins.awk:main",
    "gawk": "pysh.builtins.awk:main",
    "mawk": "pysh.builtins.awk:main",
    "nawk": "pysh.builtins.awk:main",
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
    "tree": "pysh.builtins.tree:main",
    "du": "pysh.builtins.du:main",
    "df": "pysh.builtins.df:main",
    "stat": "pysh.builtins.stat:main",
    "file": "pysh.builtins.filetype:main",
    "mktemp": "pysh.builtins.mktemp:main",
    "truncate": "pysh.builtins.truncate:main",
    "dd": "pysh.builtins.dd:main",
    "patch": "pysh.builtins.patch:main",
    "link": "pysh.builtins.simplefs:link_main",
    "unlink": "pysh.builtins.simplefs:unlink_main",
    "sync": "pysh.builtins.simplefs:sync_main",
    "chown": "pysh.builtins.chown:chown_main",
    "chgrp": "pysh.builtins.chown:chgrp_main",
    "install": "pysh.builtins.install:main",
    "xz": "pysh.builtins.compress:xz_main",
    "unxz": "pysh.builtins.compress:xz_main",
    "xzcat": "pysh.builtins.compress:xz_main",
    "lzma": "pysh.builtins.compress:xz_main",
    "unlzma": "pysh.builtins.compress:xz_main",
    "lzcat": "pysh.builtins.compress:xz_main",
    "bzip2": "pysh.builtins.compress:bzip2_main",
    "bunzip2": "pysh.builtins.compress:bzip2_main",
    "bzcat": "pysh.builtins.compress:bzip2_main",
    "zstd": "pysh.builtins.compress:zstd_main",
    "unzstd": "pysh.builtins.compress:zstd_main",
    "zstdcat": "pysh.builtins.compress:zstd_main",
    "zstdmt": "pysh.builtins.compress:zstd_main",
    "rsync": "pysh.builtins.rsync:main",
    "ed": "pysh.builtins.ed:main",
    "perl": "pysh.builtins.perl:main",
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
    "expand": "pysh.builtins.expand:expand_main",
    "unexpand": "pysh.builtins.expand:unexpand_main",
    "factor": "pysh.builtins.factor:main",
    "csplit": "pysh.builtins.csplit:main",
    "pr": "pysh.builtins.pr:main",
    "fmt": "pysh.builtins.fmt:main",
    "numfmt": "pysh.builtins.numfmt:main",
    "tsort": "pysh.builtins.tsort:main",
    "base64": "pysh.builtins.base64_cmd:main",
    "cmp": "pysh.builtins.cmp:main",
    "od": "pysh.builtins.od:main",
    "xxd": "pysh.builtins.xxd:main",
    "hexdump": "pysh.builtins.hexdump:main",
    "hd": "pysh.builtins.hexdump:main",
    "column": "pysh.builtins.column:main",
    "split": "pysh.builtins.split:main",
    "shuf": "pysh.builtins.shuf:main",
    "strings": "pysh.builtins.strings:main",
    "md5sum": "pysh.builtins.sums:main",
    "cksum": "pysh.builtins.cksum:cksum_main",
    "sum": "pysh.builtins.cksum:sum_main",
    "sha1sum": "pysh.builtins.sums:main",
    "sha224sum": "pysh.builtins.sums:main",
    "sha256sum": "pysh.builtins.sums:main",
    "sha384sum": "pysh.builtins.sums:main",
    "sha512sum": "pysh.builtins.sums:main",
    "b2sum": "pysh.builtins.sums:main",
}

# -- system and process utilities (pysh.builtins) ------------------------------
SYSTEM: dict[str, str] = {
    "echo": "pysh.builtins.sysinfo:echo_main",
    "true": "pysh.builtins.sysinfo:true_main",
    "false": "pysh.builtins.sysinfo:false_main",
    "yes": "pysh.builtins.sysinfo:yes_main",
    "whoami": "pysh.builtins.sysinfo:whoami_main",
    "logname": "pysh.builtins.sysinfo:logname_main",
    "id": "pysh.builtins.sysinfo:id_main",
    "hostname": "pysh.builtins.sysinfo:hostname_main",
    "uname": "pysh.builtins.sysinfo:uname_main",
    "arch": "pysh.builtins.sysinfo:arch_main",
    "nproc": "pysh.builtins.sysinfo:nproc_main",
    "tty": "pysh.builtins.sysinfo:tty_main",
    "getconf": "pysh.builtins.sysinfo:getconf_main",
    "printenv": "pysh.builtins.sysinfo:printenv_main",
    "which": "pysh.builtins.sysinfo:which_main",
    "mkfifo": "pysh.builtins.sysinfo:mkfifo_main",
    "env": "pysh.builtins.envcmd:main",
    "sleep": "pysh.builtins.timing:sleep_main",
    "timeout": "pysh.builtins.timing:timeout_main",
    "getopt": "pysh.builtins.getopt_cmd:main",
    "envsubst": "pysh.builtins.envsubst:main",
    "iconv": "pysh.builtins.iconv:main",
    "tput": "pysh.builtins.tput:main",
    "less": "pysh.builtins.pager:less_main",
    "more": "pysh.builtins.pager:more_main",
    "nohup": "pysh.builtins.wrappers:nohup_main",
    "nice": "pysh.builtins.wrappers:nice_main",
    "stdbuf": "pysh.builtins.wrappers:stdbuf_main",
    "xargs": "pysh.builtins.xargs:main",
    "expr": "pysh.builtins.expr:main",
    "diff": "pysh.builtins.diff:main",
    "date": "pysh.builtins.date:main",
    "bc": "pysh.builtins.bc:main",
    "ps": "pysh.builtins.procs:ps_main",
    "pgrep": "pysh.builtins.procs:pgrep_main",
    "pkill": "pysh.builtins.procs:pkill_main",
}

# -- ports through Shell.resolve() (pysh.ports) --------------------------------
PORTS: dict[str, str] = {
    "jq": "pysh.ports.jq:main",
    "rg": "pysh.ports.rg:main",
    "fd": "pysh.ports.fd:main",
    "fdfind": "pysh.ports.fd:main",
    "sqlite3": "pysh.ports.sqlite:main",
    "tar": "pysh.ports.archive:tar_main",
    "gzip": "pysh.ports.archive:gzip_main",
    "gunzip": "pysh.ports.archive:gzip_main",
    "zcat": "pysh.ports.archive:gzip_main",
    "zip": "pysh.ports.archive:zip_main",
    "unzip": "pysh.ports.archive:unzip_main",
}

# -- git (pysh.ports.git) ------------------------------------------------------
GIT: dict[str, str] = {
    "git": "pysh.ports.git:main",
}

# -- python3: CPython on WebAssembly, files through door A (pysh.ports.python) ---------
PYTHON: dict[str, str] = {
    "python3": "pysh.ports.python:main",
    "python": "pysh.ports.python:main",
    "python3.12": "pysh.ports.python:main",
}

# -- curl and wget: the network on the embedder's terms (pysh.ports.net) ----------------
NET: dict[str, str] = {
    "curl": "pysh.ports.net.curl:main",
    "wget": "pysh.ports.net.wget:main",
}


# -- the shells themselves (run by the interpreter; listed so PATH lookups find them) ----
SHELLS: dict[str, str] = {
    "bash": "pysh.interpreter.shellcmd:command",
    "sh": "pysh.interpreter.shellcmd:command",
    # coreutils' test and [ (/usr/bin/test, env test, find -exec test): the builtin does it
    "test": "pysh.interpreter.shellcmd:command",
    "[": "pysh.interpreter.shellcmd:command",
}


# Door A (shell.fs only) and door B (shell.resolve()): the registry folds host paths
# out of every door-B command's stdout and stderr (pysh.shellkit.portout). python3's
# WASI calls are answered by door A: it never holds a host path, and its output is data.
DOOR_A_BLOCKS = (GREP_SED, AWK, FILES, TEXT, SYSTEM, PYTHON, NET, SHELLS)
DOOR_B_BLOCKS = (PORTS, GIT)


def default_table() -> dict[str, str]:
    table: dict[str, str] = {}
    for block in (*DOOR_A_BLOCKS, *DOOR_B_BLOCKS):
        table.update(block)
    return table


def default_registry() -> CommandRegistry:
    reg = CommandRegistry()
    for block in DOOR_A_BLOCKS:
        reg.register_many(block, port=False)
    for block in DOOR_B_BLOCKS:
        reg.register_many(block, port=True)
    return reg
