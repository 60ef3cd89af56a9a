"""ln: hard and symbolic links through the FileSystem door.

Absolute virtual targets of ``ln -s`` are stored relative by the door (so the
link keeps working wherever the workspace is mounted); ``readlink`` shows
them as given.
"""

from __future__ import annotations

import errno
import os
import stat as _stat

from pysh.builtins._backup import Backups
from pysh.builtins._fileutil import (
    Output,
    Usage,
    ask,
    help_or_version,
    join,
    lstat,
    parse,
    q,
    stat,
    strerror,
    usage_error,
)
from pysh.shellkit import FileSystemError

PROG = "ln"

HELP = """
Usage: ln [OPTION]... [-T] TARGET LINK_NAME
  or:  ln [OPTION]... TARGET
  or:  ln [OPTION]... TARGET... DIRECTORY
  or:  ln [OPTION]... -t DIRECTORY TARGET...
Create links.  By default, hard links; with --symbolic, symbolic links.

  -f, --force                 remove existing destination files
  -i, --interactive           prompt whether to remove destinations
  -L, --logical               dereference TARGETs that are symbolic links
  -n, --no-dereference        treat LINK_NAME as a normal file if
                                it is a symbolic link to a directory
  -P, --physical              make hard links directly to symbolic links
  -r, --relative              with -s, create links relative to link location
  -s, --symbolic              make symbolic links instead of hard links
  -t, --target-directory=DIRECTORY  specify the DIRECTORY in which to create
                                the links
  -T, --no-target-directory   treat LINK_NAME as a normal file always
  -v, --verbose               print name of each linked file
      --help        display this help and exit
"""


def _lexical_abs(shell, path: str) -> str:
    full = shell.fs.abspath(path)
    out: list[str] = []
    for c in full.split("/"):
        if c in ("", "."):
            continue
        if c == "..":
            if out:
                out.pop()
            continue
        out.append(c)
    return "/" + "/".join(out)


def _canon(shell, path: str) -> str:
    """Canonical path with missing trailing components kept (realpath -m)."""
    fs = shell.fs
    full = _lexical_abs(shell, path) if not path.startswith("/") else path
    try:
        return fs.realpath(full)
    except FileSystemError:
        head, _, tail = full.rstrip("/").rpartition("/")
        return join(_canon(shell, head or "/"), tail)


def _relative(target: str, start: str) -> str:
    a = [c for c in target.split("/") if c]
    s = [c for c in start.split("/") if c]
    i = 0
    while i < len(a) and i < len(s) and a[i] == s[i]:
        i += 1
    return "/".join([".."] * (len(s) - i) + a[i:]) or "."


async def main(shell, argv: list[str]) -> int:
    fs = shell.fs
    force = interactive = no_deref = relative = symbolic = verbose = no_target = False
    logical = False
    target_dir = None
    backups = Backups()
    try:
        opts, operands = parse(argv[1:], "bdfFiLnPrsS:t:Tv", {
            "backup?": "b", "directory": "d", "force": "f", "interactive": "i",
            "logical": "L", "no-dereference": "n", "physical": "P", "relative": "r",
            "symbolic": "s", "suffix=": "S", "target-directory=": "t",
            "no-target-directory": "T", "verbose": "v"})
        if await help_or_version(shell, PROG, opts, HELP):
            return 0
        for k, v in opts:
            if backups.option(k, v):
                continue
            if k == "f":
                force, interactive = True, False
            elif k == "i":
                interactive, force = True, False
            elif k == "L":
                logical = True
            elif k == "P":
                logical = False
            elif k == "n":
                no_deref = True
            elif k == "r":
                relative = True
            elif k == "s":
                symbolic = True
            elif k == "t":
                target_dir = v
            elif k == "T":
                no_target = True
            elif k == "v":
                verbose = True
        if relative and not symbolic:
            raise Usage("cannot do --relative without --symbolic", hint=False)
        backups.settle(shell.env)
        if target_dir is not None and no_target:
            raise Usage("cannot combine --target-directory and --no-target-directory")
        if not operands:
            raise Usage("missing file operand")
        if no_target and len(operands) > 2:
            raise Usage(f"extra operand {q(operands[2])}")
        if no_target and len(operands) < 2:
            raise Usage(f"missing destination file operand after {q(operands[0])}")
    except Usage as e:
        return await usage_error(shell, PROG, e)
    out = Output(shell.stdout)
    status = 0

    def is_dir_dest(p: str) -> bool:
        try:
            if no_deref and _stat.S_ISLNK(lstat(fs, p).st_mode):
                return False
            return _stat.S_ISDIR(stat(fs, p).st_mode)
        except FileSystemError:
            return False

    if target_dir is not None:
        if not is_dir_dest(target_dir):
            try:
                stat(fs, target_dir)
                await shell.error(PROG, f"target {q(target_dir)} is not a directory")
            except FileSystemError as e:
                await shell.error(PROG, f"target directory {q(target_dir)}: {strerror(e)}")
            return 1
        pairs = [(t, join(target_dir, _base(t))) for t in operands]
    elif len(operands) == 1:
        pairs = [(operands[0], join(".", _base(operands[0])))]
    else:
        dest = operands[-1]
        if not no_target and is_dir_dest(dest):
            pairs = [(t, join(dest, _base(t))) for t in operands[:-1]]
        elif len(operands) > 2:
            try:
                stat(fs, dest)
                await shell.error(PROG, f"target {q(dest)} is not a directory")
            except FileSystemError as e:
                await shell.error(PROG, f"target {q(dest)}: {strerror(e)}")
            return 1
        else:
            pairs = [(operands[0], dest)]
    for target, link in pairs:
        shell.budget.check()
        kind = "symbolic link" if symbolic else "hard link"
        if not symbolic:
            try:
                tst = stat(fs, target) if logical else lstat(fs, target)
            except FileSystemError as e:
                await shell.error(PROG, f"failed to access {q(target)}: {strerror(e)}")
                status = 1
                continue
            if _stat.S_ISDIR(tst.st_mode):
                await shell.error(PROG, f"{target}: hard link not allowed for directory")
                status = 1
                continue
        try:
            lst = lstat(fs, link)
        except FileSystemError:
            lst = None
        if lst is not None:
            if not symbolic:
                try:
                    tst2 = lstat(fs, target)
                    if (tst2.st_dev, tst2.st_ino) == (lst.st_dev, lst.st_ino) and force:
                        await shell.error(PROG, f"{q(target)} and {q(link)} are the same file")
                        status = 1
                        continue
                except FileSystemError:
                    pass
            if interactive:
                if not await ask(shell, f"{PROG}: replace {q(link)}? "):
                    continue
            elif not force and backups.kind == "none":
                await shell.error(PROG, f"failed to create {kind} {q(link)}: File exists")
                status = 1
                continue
            if _stat.S_ISDIR(lst.st_mode):
                await shell.error(PROG, f"{q(link)}: cannot overwrite directory")
                status = 1
                continue
        stored = target
        if symbolic and relative:
            stored = _relative(_canon(shell, target), _canon(shell, _parent(link)))
        backup = None
        if lst is not None and backups.kind != "none":
            try:
                backup = backups.make(fs, link)
            except FileSystemError as e:
                await shell.error(PROG, f"cannot backup {q(link)}: {strerror(e)}")
                status = 1
                continue
            lst = None
        # Like GNU ln, a replacement is made under a temporary name and renamed over
        # the old link: if it cannot be made (a link out of the sandbox), the old stays.
        made = _temp_name(link) if lst is not None else link
        try:
            if symbolic:
                fs.symlink(stored, made)
            elif logical:
                fs.link(fs.realpath(target), made)
            else:
                fs.link(target, made)
            if made != link:
                try:
                    fs.rename(made, link)
                except FileSystemError:
                    fs.unlink(made)
                    raise
        except FileSystemError as e:
            if backup is not None:  # as GNU ln: the old one comes back
                try:
                    fs.rename(backup, link)
                except FileSystemError:
                    pass
            if not symbolic and e.errno == errno.EXDEV:
                await shell.error(PROG, f"failed to create hard link {q(link)} => {q(target)}: "
                                        f"{strerror(e)}")
            else:
                await shell.error(PROG, f"failed to create {kind} {q(link)}: {strerror(e)}")
            status = 1
            continue
        if verbose:
            arrow = "->" if symbolic else "=>"
            saved = f"{q(backup)} ~ " if backup else ""
            await out.text(f"{saved}{q(link)} {arrow} {q(stored)}\n")
    await out.flush()
    return status


def _temp_name(link: str) -> str:
    head, sep, _ = link.rstrip("/").rpartition("/")
    return f"{head}{sep}.ln-{os.urandom(6).hex()}"


def _base(p: str) -> str:
    s = p.rstrip("/")
    return s.rsplit("/", 1)[-1] if s else "/"


def _parent(p: str) -> str:
    s = p.rstrip("/")
    if "/" not in s:
        return "."
    return s.rsplit("/", 1)[0] or "/"
