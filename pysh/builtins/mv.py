"""mv: rename through the FileSystem door (across mounts as copy + delete, by the door).

``-i`` asks on stderr and reads the answer from stdin like GNU (with a terminal
on stdin it assumes "no"). Mount roots cannot be moved (Device or resource busy).
"""

from __future__ import annotations

import errno
import stat as _stat

from pysh.builtins._backup import Backups
from pysh.builtins._fileutil import (
    Output,
    Usage,
    ask,
    copy_target,
    help_or_version,
    join,
    lstat,
    parse,
    q,
    strerror,
    usage_error,
)
from pysh.shellkit import FileSystemError

PROG = "mv"

HELP = """
Usage: mv [OPTION]... [-T] SOURCE DEST
  or:  mv [OPTION]... SOURCE... DIRECTORY
  or:  mv [OPTION]... -t DIRECTORY SOURCE...
Rename SOURCE to DEST, or move SOURCE(s) to DIRECTORY.

  -f, --force                  do not prompt before overwriting
  -i, --interactive            prompt before overwrite
  -n, --no-clobber             do not overwrite an existing file
      --strip-trailing-slashes  remove any trailing slashes from each SOURCE
                                 argument
  -t, --target-directory=DIRECTORY  move all SOURCE arguments into DIRECTORY
  -T, --no-target-directory    treat DEST as a normal file
  -u, --update                 move only when the SOURCE file is newer
                                 than the destination file or when the
                                 destination file is missing
  -v, --verbose                explain what is being done
      --help        display this help and exit
"""


async def main(shell, argv: list[str]) -> int:
    fs = shell.fs
    force = interactive = no_clobber = update = verbose = strip = False
    no_target = False
    target_dir = None
    backups = Backups()
    try:
        opts, operands = parse(argv[1:], "fint:TuvbS:Z", {
            "force": "f", "interactive": "i", "no-clobber": "n", "target-directory=": "t",
            "no-target-directory": "T", "update?": "u", "verbose": "v", "backup?": "b",
            "suffix=": "S", "strip-trailing-slashes": "strip", "context": "Z",
            "no-copy": "no-copy"})
        if await help_or_version(shell, PROG, opts, HELP):
            return 0
        for k, v in opts:
            if backups.option(k, v):
                continue
            if k == "f":
                force, interactive, no_clobber = True, False, False
            elif k == "i":
                interactive, force, no_clobber = True, False, False
            elif k == "n":
                no_clobber, force, interactive = True, False, False
            elif k == "t":
                target_dir = v
            elif k == "T":
                no_target = True
            elif k == "u":
                update = v in (None, "older")
                if v == "none":
                    no_clobber = True
            elif k == "v":
                verbose = True
            elif k == "strip":
                strip = True
        if target_dir is not None and no_target:
            raise Usage("cannot combine --target-directory (-t) and --no-target-directory (-T)")
        if backups.wanted and no_clobber:
            raise Usage("options --backup and --no-clobber are mutually exclusive")
        backups.settle(shell.env)
        if not operands:
            raise Usage("missing file operand")
        if target_dir is None and len(operands) == 1:
            raise Usage(f"missing destination file operand after {q(operands[0])}")
        if no_target and len(operands) > 2:
            raise Usage(f"extra operand {q(operands[2])}")
    except Usage as e:
        return await usage_error(shell, PROG, e)
    del force
    out = Output(shell.stdout)
    status = 0

    async def err(msg: str) -> None:
        nonlocal status
        await out.flush()
        await shell.error(PROG, msg)
        status = 1

    target = await copy_target(shell, PROG, operands, target_dir, no_target)
    if target is None:
        return 1
    sources, dest, into = target
    for src in sources:
        shell.budget.check()
        if strip:
            src = src.rstrip("/") or "/"
        try:
            sst = lstat(fs, src.rstrip("/") or "/")
        except FileSystemError as e:
            await err(f"cannot stat {q(src)}: {strerror(e)}")
            continue
        if into:
            base = src.rstrip("/").rsplit("/", 1)[-1] or "/"
            target = join(dest, base)
        else:
            target = dest
        try:
            tst = lstat(fs, target.rstrip("/") or "/")
        except FileSystemError:
            tst = None
        src_dir = _stat.S_ISDIR(sst.st_mode)
        if tst is not None:
            if (tst.st_dev, tst.st_ino) == (sst.st_dev, sst.st_ino):
                await err(f"{q(src)} and {q(target)} are the same file")
                continue
            tdir = _stat.S_ISDIR(tst.st_mode)
            if src_dir and not tdir:
                await err(f"cannot overwrite non-directory {q(target)} with directory {q(src)}")
                continue
            if not src_dir and tdir:
                await err(f"cannot overwrite directory {q(target)} with non-directory")
                continue
            if no_clobber:
                continue
            if update and tst.st_mtime_ns >= sst.st_mtime_ns:
                continue
            if interactive and not await ask(shell, f"{PROG}: overwrite {q(target)}? "):
                continue
        if src_dir:
            try:
                csrc = fs.realpath(src)
                ctgt = fs.realpath(target.rstrip("/") or "/") if tst is not None else \
                    join(fs.realpath(_parent(target)), target.rstrip("/").rsplit("/", 1)[-1])
            except FileSystemError:
                csrc = ctgt = None
            if csrc and ctgt and ctgt.startswith(csrc.rstrip("/") + "/"):
                await err(f"cannot move {q(src)} to a subdirectory of itself, {q(target)}")
                continue
        backup = None
        if tst is not None and backups.kind != "none":
            try:
                backup = backups.make(fs, target.rstrip("/") or "/")
            except FileSystemError as e:
                await err(f"cannot backup {q(target)}: {strerror(e)}")
                continue
        try:
            fs.rename(src.rstrip("/") or "/", target.rstrip("/") or "/")
        except FileSystemError as e:
            code = e.errno
            if code == errno.EEXIST:
                code = errno.ENOTEMPTY
            made = _made_during_copy(fs, e, target)
            if code == errno.EPERM and made is not None:
                # across mounts mv copies: a link that would point out is not made there
                await err(f"cannot create symbolic link {q(made)}: {strerror(code)}")
                continue
            await err(f"cannot move {q(src)} to {q(target)}: {strerror(code)}")
            continue
        if verbose:
            tail = f" (backup: {q(backup)})" if backup else ""
            await out.text(f"renamed {q(src)} -> {q(target)}{tail}\n")
    await out.flush()
    return status


def _made_during_copy(fs, e: FileSystemError, target: str) -> str | None:
    """The destination path (as typed) a cross-mount copy failed to create, if that failed."""
    top = fs.abspath(target.rstrip("/") or "/")
    v = e.vpath or ""
    if v == top:
        return target
    if v.startswith(top.rstrip("/") + "/"):
        return target.rstrip("/") + v[len(top.rstrip("/")):]
    return None


def _parent(p: str) -> str:
    s = p.rstrip("/")
    if "/" not in s:
        return "."
    return s.rsplit("/", 1)[0] or "/"
