"""chmod: change modes through the FileSystem door (octal and symbolic modes).

Setuid and setgid bits are always stripped by the door; the sticky bit is kept.
"""

from __future__ import annotations

import errno
import stat as _stat

from pysh.builtins._fileutil import (
    Output,
    Usage,
    help_or_version,
    lq,
    lstat,
    mode_bits_string,
    parse,
    parse_mode,
    q,
    stat,
    strerror,
    usage_error,
    walk_ordered,
)
from pysh.shellkit import FileSystemError

PROG = "chmod"

HELP = """
Usage: chmod [OPTION]... MODE[,MODE]... FILE...
  or:  chmod [OPTION]... OCTAL-MODE FILE...
  or:  chmod [OPTION]... --reference=RFILE FILE...
Change the mode of each FILE to MODE.
With --reference, change the mode of each FILE to that of RFILE.

  -c, --changes          like verbose but report only when a change is made
  -f, --silent, --quiet  suppress most error messages
  -v, --verbose          output a diagnostic for every file processed
      --no-preserve-root  do not treat '/' specially (the default)
      --preserve-root    fail to operate recursively on '/'
      --reference=RFILE  use RFILE's mode instead of MODE values
  -R, --recursive        change files and directories recursively
      --help        display this help and exit

Each MODE is of the form '[ugoa]*([-+=]([rwxXst]*|[ugo]))+|[-+=][0-7]+'.
"""

_MODE_CHARS = set("rwxXstugoa,+-=01234567")


def _split_mode_args(args: list[str]) -> tuple[list[str], str | None]:
    """GNU chmod takes '-w', '-x', '-rwx' as modes, not options: pull the first one out."""
    rest = []
    mode = None
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--":
            rest.extend(args[i:])
            break
        if (mode is None and len(a) > 1 and a[0] == "-" and a[1] != "-"
                and set(a[1:]) <= _MODE_CHARS and not set(a[1:]) <= set("Rcfv")):
            mode = a
        else:
            rest.append(a)
        i += 1
    return rest, mode


async def main(shell, argv: list[str]) -> int:
    fs = shell.fs
    args, dash_mode = _split_mode_args(argv[1:])
    changes = quiet = verbose = recursive = preserve_root = False
    reference = None
    try:
        opts, operands = parse(args, "cfvR", {
            "changes": "c", "silent": "f", "quiet": "f", "verbose": "v", "recursive": "R",
            "reference=": "reference", "preserve-root": "preserve",
            "no-preserve-root": "nopreserve"})
        if await help_or_version(shell, PROG, opts, HELP):
            return 0
        for k, v in opts:
            if k == "c":
                changes = True
            elif k == "f":
                quiet = True
            elif k == "v":
                verbose = True
            elif k == "R":
                recursive = True
            elif k == "reference":
                reference = v
            elif k == "preserve":
                preserve_root = True
            elif k == "nopreserve":
                preserve_root = False
        if reference is None:
            if dash_mode is not None:
                spec = dash_mode
            else:
                if not operands:
                    raise Usage("missing operand")
                spec = operands.pop(0)
            if not operands:
                raise Usage(f"missing operand after {lq(spec)}")
            fn = parse_mode(spec)
            if fn is None:
                raise Usage(f"invalid mode: {lq(spec)}")
        else:
            if not operands:
                raise Usage("missing operand")
            try:
                ref_mode = _stat.S_IMODE(stat(fs, reference).st_mode)
            except FileSystemError as e:
                await shell.error(PROG, f"failed to get attributes of {q(reference)}: "
                                        f"{strerror(e)}")
                return 1
            fn = lambda mode, is_dir, umask: ref_mode  # noqa: E731
    except Usage as e:
        return await usage_error(shell, PROG, e)
    out = Output(shell.stdout)
    status = 0

    async def change(path: str, st, report_path: str | None = None) -> None:
        nonlocal status
        shown = report_path or path
        old = _stat.S_IMODE(st.st_mode)
        new = fn(old, _stat.S_ISDIR(st.st_mode), shell.umask) & 0o7777
        try:
            if new != old:
                fs.chmod(path, new)
        except FileSystemError as e:
            status = 1
            if not quiet:
                await out.flush()
                await shell.error(PROG, f"changing permissions of {q(shown)}: {strerror(e)}")
            return
        try:
            got = _stat.S_IMODE(stat(fs, path).st_mode)
        except FileSystemError:
            got = new
        if verbose or (changes and got != old):
            if got != old:
                await out.text(f"mode of {q(shown)} changed from {old:04o} "
                               f"({mode_bits_string(old)}) to {got:04o} "
                               f"({mode_bits_string(got)})\n")
            else:
                await out.text(f"mode of {q(shown)} retained as {old:04o} "
                               f"({mode_bits_string(old)})\n")

    for name in operands:
        shell.budget.check()
        try:
            st = stat(fs, name)
        except FileSystemError as e:
            status = 1
            dangling = False
            if e.errno == errno.ENOENT:
                try:
                    dangling = _stat.S_ISLNK(lstat(fs, name).st_mode)
                except FileSystemError:
                    pass
            if verbose and dangling:
                await out.text(f"{q(name)} could not be accessed\n")
            if not quiet:
                await out.flush()
                if dangling:
                    await shell.error(PROG, f"cannot operate on dangling symlink {q(name)}")
                else:
                    await shell.error(PROG, f"cannot access {q(name)}: {strerror(e)}")
            continue
        if recursive and preserve_root and fs.realpath(name) == "/":
            await out.flush()
            await shell.error(PROG, f"it is dangerous to operate recursively on {q(name)}")
            await shell.error(PROG, "use --no-preserve-root to override this failsafe")
            status = 1
            continue
        await change(name, st)
        if recursive and _stat.S_ISDIR(st.st_mode):
            try:
                is_link = _stat.S_ISLNK(lstat(fs, name).st_mode)
            except FileSystemError:
                is_link = False
            top = fs.realpath(name) if is_link else name
            for item in walk_ordered(shell, top):
                if item.kind == "error":
                    status = 1
                    if not quiet:
                        await out.flush()
                        await shell.error(PROG, f"cannot access {q(item.error.vpath or item.path)}"
                                                f": {strerror(item.error)}")
                    continue
                if item.kind != "entry":
                    continue
                path = item.path
                shown = name.rstrip("/") + path[len(top.rstrip("/")):] if is_link else path
                if item.entry.type == "l":
                    if verbose:
                        await out.text(f"neither symbolic link {q(shown)} nor referent has "
                                       "been changed\n")
                    continue
                try:
                    est = item.entry.stat(False)
                except FileSystemError as e:
                    status = 1
                    if not quiet:
                        await shell.error(PROG, f"cannot access {q(shown)}: {strerror(e)}")
                    continue
                await change(path, est, shown)
    await out.flush()
    return status
