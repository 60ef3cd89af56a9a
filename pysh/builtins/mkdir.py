"""mkdir and rmdir, through the FileSystem door."""

from __future__ import annotations

import errno
import stat as _stat

from pysh.builtins._fileutil import (
    Usage,
    help_or_version,
    lq,
    parse,
    parse_mode,
    q,
    strerror,
    usage_error,
)
from pysh.shellkit import FileSystemError
from pysh.shellkit.confine import PATH_MAX

MKDIR_HELP = """
Usage: mkdir [OPTION]... DIRECTORY...
Create the DIRECTORY(ies), if they do not already exist.

Mandatory arguments to long options are mandatory for short options too.
  -m, --mode=MODE   set file mode (as in chmod), not a=rwx - umask
  -p, --parents     no error if existing, make parent directories as needed,
                    with their file modes unaffected by any -m option.
  -v, --verbose     print a message for each created directory
      --help        display this help and exit
"""


async def mkdir_main(shell, argv: list[str]) -> int:
    prog = "mkdir"
    try:
        opts, names = parse(argv[1:], "m:pvZ", {"mode=": "m", "parents": "p", "verbose": "v",
                                                "context?": "Z"})
        if await help_or_version(shell, prog, opts, MKDIR_HELP):
            return 0
        parents = verbose = False
        mode_spec = None
        for k, v in opts:
            if k == "p":
                parents = True
            elif k == "v":
                verbose = True
            elif k == "m":
                mode_spec = v
        if not names:
            raise Usage("missing operand")
        mode = 0o777 & ~shell.umask
        explicit = False
        if mode_spec is not None:
            fn = parse_mode(mode_spec)
            if fn is None:
                raise Usage(f"invalid mode {lq(mode_spec)}", hint=False)
            mode = fn(0o777, True, shell.umask)
            explicit = True
    except Usage as e:
        return await usage_error(shell, prog, e)
    fs = shell.fs
    status = 0
    for name in names:
        shell.budget.check()
        try:
            if parents:
                if len(fs.abspath(name).encode("utf-8", "surrogateescape")) >= PATH_MAX:
                    # the door refuses so long a path (as the kernel does in one call): say
                    # so now, not after building levels to PATH_MAX, each walking them all
                    raise FileSystemError(errno.ENAMETOOLONG, name)
                comps = name.split("/")
                real = [i for i, c in enumerate(comps) if c and c not in (".", "..")]
                last_i = real[-1] if real else -1
                prefix = ""
                for i, c in enumerate(comps):
                    shell.budget.check()
                    prefix = c if i == 0 else prefix + "/" + c
                    if not c or c in (".", ".."):
                        continue
                    last = i == last_i
                    try:
                        fs.mkdir(prefix, mode if last else (0o777 & ~shell.umask) | 0o300)
                    except FileSystemError as e:
                        if e.errno != errno.EEXIST:
                            raise FileSystemError(e.errno, prefix) from None
                        try:
                            st = fs.stat(prefix)
                        except FileSystemError as e2:
                            raise FileSystemError(e2.errno, prefix) from None
                        if not _stat.S_ISDIR(st.st_mode):
                            raise FileSystemError(errno.EEXIST if last else errno.ENOTDIR,
                                                  prefix) from None
                        continue
                    if (last and explicit) or shell.umask != 0o022:
                        fs.chmod(prefix, mode if last else (0o777 & ~shell.umask) | 0o300)
                    if verbose:
                        await shell.stdout.write(
                            f"{prog}: created directory {q(prefix)}\n".encode("utf-8",
                                                                              "surrogateescape"))
            else:
                fs.mkdir(name, mode)
                if explicit or shell.umask != 0o022:
                    fs.chmod(name, mode)
                if verbose:
                    await shell.stdout.write(f"{prog}: created directory {q(name)}\n".encode(
                        "utf-8", "surrogateescape"))
        except FileSystemError as e:
            status = 1
            where = e.vpath if parents and e.vpath else name
            await shell.error(prog, f"cannot create directory {lq(where)}: {strerror(e)}")
    return status


RMDIR_HELP = """
Usage: rmdir [OPTION]... DIRECTORY...
Remove the DIRECTORY(ies), if they are empty.

      --ignore-fail-on-non-empty
                    ignore each failure to remove a non-empty directory
  -p, --parents     remove DIRECTORY and its ancestors;
                    e.g., 'rmdir -p a/b' is similar to 'rmdir a/b a'
  -v, --verbose     output a diagnostic for every directory processed
      --help        display this help and exit
"""


def _nonempty(e: OSError) -> bool:
    return e.errno in (errno.ENOTEMPTY, errno.EEXIST)


async def rmdir_main(shell, argv: list[str]) -> int:
    prog = "rmdir"
    try:
        opts, names = parse(argv[1:], "pv", {"parents": "p", "verbose": "v",
                                             "ignore-fail-on-non-empty": "ignore"})
        if await help_or_version(shell, prog, opts, RMDIR_HELP):
            return 0
        keys = {k for k, _ in opts}
        parents, verbose, ignore = "p" in keys, "v" in keys, "ignore" in keys
        if not names:
            raise Usage("missing operand")
    except Usage as e:
        return await usage_error(shell, prog, e)
    fs = shell.fs
    status = 0
    out = shell.stdout
    for name in names:
        shell.budget.check()
        if verbose:
            await out.write(f"{prog}: removing directory, {q(name)}\n".encode(
                "utf-8", "surrogateescape"))
        try:
            _rmdir(fs, name)
        except FileSystemError as e:
            if ignore and _nonempty(e):
                continue
            status = 1
            await shell.error(prog, f"failed to remove {q(name)}: {strerror(e)}")
            continue
        if parents:
            path = name.rstrip("/")
            while "/" in path:
                path = path.rsplit("/", 1)[0].rstrip("/")
                if not path or path in (".", ".."):
                    break
                if verbose:
                    await out.write(f"{prog}: removing directory, {q(path)}\n".encode(
                        "utf-8", "surrogateescape"))
                try:
                    _rmdir(fs, path)
                except FileSystemError as e:
                    if ignore and _nonempty(e):
                        break
                    status = 1
                    await shell.error(prog, f"failed to remove directory {q(path)}: "
                                            f"{strerror(e)}")
                    break
    return status


def _rmdir(fs, name: str) -> None:
    try:
        st = fs.lstat(name.rstrip("/") or "/")
    except FileSystemError as e:
        raise FileSystemError(e.errno, name) from None
    if _stat.S_ISLNK(st.st_mode) and name.endswith("/"):
        try:
            tst = fs.stat(name)
        except FileSystemError as e:
            raise FileSystemError(e.errno, name) from None
        raise FileSystemError(errno.ENOTDIR if not _stat.S_ISDIR(tst.st_mode)
                              else errno.ENOTDIR, name)
    if not _stat.S_ISDIR(st.st_mode):
        raise FileSystemError(errno.ENOTDIR, name)
    try:
        fs.rmdir(name)
    except FileSystemError as e:
        code = errno.ENOTEMPTY if e.errno == errno.EEXIST else e.errno
        raise FileSystemError(code, name) from None
