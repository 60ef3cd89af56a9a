"""rm: remove files and directories through the FileSystem door.

``/`` (the synthetic root) is never removed: ``--preserve-root`` is always in
force for it, and an operand that resolves to ``/`` (``/batch/..``) is refused
the same way. Mount roots refuse removal (the core says EBUSY) after their
contents are gone, as a real mount point would. ``-i``/``-I`` ask on stderr and
read the answer from stdin like GNU; with a terminal on stdin they assume "no".
"""

from __future__ import annotations

import errno
import stat as _stat

from pysh.builtins._fileutil import (
    Output,
    Usage,
    ask,
    describe,
    help_or_version,
    lstat,
    parse,
    q,
    strerror,
    usage_error,
    walk_ordered,
)
from pysh.shellkit import FileSystemError

PROG = "rm"

HELP = """
Usage: rm [OPTION]... [FILE]...
Remove (unlink) the FILE(s).

  -f, --force           ignore nonexistent files and arguments, never prompt
  -i                    prompt before every removal
  -I                    prompt once before removing more than three files, or
                          when removing recursively
      --interactive[=WHEN]  prompt according to WHEN: never, once (-I), or
                          always (-i); without WHEN, prompt always
      --one-file-system  when removing a hierarchy recursively, skip any
                          directory that is on a file system different from
                          that of the corresponding command line argument
      --no-preserve-root  do not treat '/' specially
      --preserve-root[=all]  do not remove '/' (default)
  -r, -R, --recursive   remove directories and their contents recursively
  -d, --dir             remove empty directories
  -v, --verbose         explain what is being done
      --help        display this help and exit
"""


class State:
    def __init__(self, shell):
        self.shell = shell
        self.fs = shell.fs
        self.force = False
        self.interactive = "never"
        self.recursive = False
        self.dirs = False
        self.verbose = False
        self.one_fs = False
        self.no_preserve = False
        self.status = 0
        self.out = Output(shell.stdout)

    async def err(self, msg: str) -> None:
        await self.out.flush()
        await self.shell.error(PROG, msg)
        self.status = 1


async def main(shell, argv: list[str]) -> int:
    st = State(shell)
    try:
        opts, names = parse(argv[1:], "fiIrRdv", {
            "force": "f", "interactive?": "interactive", "one-file-system": "one",
            "no-preserve-root": "nopreserve", "preserve-root?": "preserve", "recursive": "r",
            "dir": "d", "verbose": "v"})
        if await help_or_version(shell, PROG, opts, HELP):
            return 0
        for k, v in opts:
            if k == "f":
                st.force, st.interactive = True, "never"
            elif k == "i":
                st.interactive, st.force = "always", False
            elif k == "I":
                st.interactive, st.force = "once", False
            elif k == "interactive":
                w = v or "always"
                if w in ("never", "no", "none"):
                    st.interactive = "never"
                elif w in ("once",):
                    st.interactive = "once"
                elif w in ("always", "yes"):
                    st.interactive = "always"
                else:
                    raise Usage(f"invalid argument {_lq(w)} for {_lq('--interactive')}\n"
                                "Valid arguments are:\n  - ‘never’, ‘no’, ‘none’\n"
                                "  - ‘once’\n  - ‘always’, ‘yes’")
            elif k in ("r", "R"):
                st.recursive = True
            elif k == "d":
                st.dirs = True
            elif k == "v":
                st.verbose = True
            elif k == "one":
                st.one_fs = True
            elif k == "nopreserve":
                st.no_preserve = True
            elif k == "preserve":
                st.no_preserve = False
        if not names:
            if st.force:
                return 0
            raise Usage("missing operand")
    except Usage as e:
        return await usage_error(shell, PROG, e)
    if st.interactive == "once" and (len(names) > 3 or st.recursive):
        what = (f"remove {len(names)} argument{'s' if len(names) != 1 else ''}"
                + (" recursively" if st.recursive else ""))
        if not await ask(shell, f"{PROG}: {what}? "):
            return 0
    for name in names:
        shell.budget.check()
        await remove_operand(st, name)
    await st.out.flush()
    return st.status


def _lq(s: str) -> str:
    from pysh.builtins._fileutil import lq

    return lq(s)


async def remove_operand(st: State, name: str) -> None:
    fs = st.fs
    base = name.rstrip("/").rsplit("/", 1)[-1] if name.rstrip("/") else name
    if base in (".", ".."):
        await st.err(f"refusing to remove '.' or '..' directory: skipping {q(name)}")
        return
    try:
        if name.endswith("/") and name.rstrip("/"):
            from pysh.builtins._fileutil import stat as _follow

            lst = _follow(fs, name)
        else:
            lst = lstat(fs, name.rstrip("/") or "/")
    except FileSystemError as e:
        if st.force and e.errno == errno.ENOENT:
            return
        await st.err(f"cannot remove {q(name)}: {strerror(e)}")
        return
    is_dir = _stat.S_ISDIR(lst.st_mode)
    if is_dir and st.recursive:
        try:
            canon = fs.realpath(name)
        except FileSystemError:
            canon = None
        if canon == "/":
            if st.no_preserve:
                await st.err(f"cannot remove {q(name)}: Permission denied")
                return
            if name.rstrip("/") in ("", "/") or name == "/":
                await st.err(f"it is dangerous to operate recursively on {q('/')}")
            else:
                await st.err(f"it is dangerous to operate recursively on {q(name)} "
                             f"(same as {q('/')})")
            await st.shell.error(PROG, "use --no-preserve-root to override this failsafe")
            return
    if is_dir and not st.recursive:
        if not st.dirs:
            await st.err(f"cannot remove {q(name)}: Is a directory")
            return
        if not await _confirm(st, f"remove directory {q(name)}"):
            return
        await _rmdir(st, name)
        return
    if not is_dir:
        if not await _confirm(st, f"remove {describe(lst)} {q(name)}"):
            return
        await _unlink(st, name)
        return
    await remove_tree(st, name, lst)


async def _confirm(st: State, what: str) -> bool:
    if st.interactive != "always":
        return True
    return await ask(st.shell, f"{PROG}: {what}? ")


async def _unlink(st: State, path: str) -> bool:
    try:
        st.fs.unlink(path)
    except FileSystemError as e:
        await st.err(f"cannot remove {q(path)}: {strerror(e)}")
        return False
    if st.verbose:
        await st.out.text(f"removed {q(path)}\n")
    return True


async def _rmdir(st: State, path: str) -> bool:
    try:
        st.fs.rmdir(path)
    except FileSystemError as e:
        code = errno.ENOTEMPTY if e.errno == errno.EEXIST else e.errno
        await st.err(f"cannot remove {q(path)}: {strerror(code)}")
        return False
    if st.verbose:
        await st.out.text(f"removed directory {q(path)}\n")
    return True


async def remove_tree(st: State, top: str, top_st) -> None:
    shell = st.shell
    if st.interactive == "always" and not await ask(
            shell, f"{PROG}: descend into directory {q(top)}? "):
        return
    failed: set[str] = set()  # directories that cannot be emptied
    skipped: set[str] = set()
    dev = top_st.st_dev
    for item in walk_ordered(shell, top):
        kind = item.kind
        if kind == "error":
            await st.err(f"cannot remove {q(item.error.vpath or item.path)}: "
                         f"{strerror(item.error)}")
            _mark_parents(failed, item.path, top)
            if item.is_dir:
                failed.add(item.path)
            continue
        path = item.path
        if kind == "entry":
            if item.is_dir:
                if st.one_fs:
                    try:
                        if item.entry.stat(False).st_dev != dev:
                            await st.err(f"skipping {q(path)}, since it's on a different "
                                         "device")
                            item.prune = True
                            skipped.add(path)
                            _mark_parents(failed, path, top)
                            continue
                    except FileSystemError:
                        pass
                if st.interactive == "always" and not await ask(
                        shell, f"{PROG}: descend into directory {q(path)}? "):
                    item.prune = True
                    skipped.add(path)
                    _mark_parents(failed, path, top)
                continue
            try:
                est = item.entry.stat(False)
                desc = describe(est)
            except FileSystemError:
                desc = "file"
            if not await _confirm(st, f"remove {desc} {q(path)}"):
                _mark_parents(failed, path, top)
                continue
            if not await _unlink(st, path):
                _mark_parents(failed, path, top)
        elif kind == "post":
            if path in skipped or path in failed:
                continue
            if not await _confirm(st, f"remove directory {q(path)}"):
                _mark_parents(failed, path, top)
                continue
            if not await _rmdir(st, path):
                _mark_parents(failed, path, top)
    if top in failed:
        return
    if not await _confirm(st, f"remove directory {q(top)}"):
        return
    await _rmdir(st, top)


def _mark_parents(failed: set[str], path: str, top: str) -> None:
    p = path
    while True:
        i = p.rfind("/")
        if i <= 0:
            break
        p = p[:i]
        failed.add(p)
        if len(p) <= len(top.rstrip("/")):
            break
    failed.add(top)
