"""basename, dirname, pwd, realpath, readlink: names of files, through the FileSystem door."""

from __future__ import annotations

import errno

from pysh.builtins._fileutil import (
    Output,
    Usage,
    help_or_version,
    join,
    lq,
    parse,
    strerror,
    usage_error,
)
from pysh.shellkit import FileSystemError
from pysh.shellkit.text import encode

# ------------------------------------------------------------------ basename
BASENAME_HELP = """
Usage: basename NAME [SUFFIX]
  or:  basename OPTION... NAME...
Print NAME with any leading directory components removed.
If specified, also remove a trailing SUFFIX.

  -a, --multiple       support multiple arguments and treat each as a NAME
  -s, --suffix=SUFFIX  remove a trailing SUFFIX; implies -a
  -z, --zero           end each output line with NUL, not newline
      --help        display this help and exit
"""


def base_name(name: str, suffix: str | None = None) -> str:
    stripped = name.rstrip("/")
    if not stripped:
        return "/" if name else ""
    base = stripped.rsplit("/", 1)[-1]
    if suffix and base != suffix and base.endswith(suffix):
        base = base[: -len(suffix)]
    return base


async def basename_main(shell, argv: list[str]) -> int:
    prog = "basename"
    try:
        opts, names = parse(argv[1:], "as:z", {"multiple": "a", "suffix=": "s", "zero": "z"})
        if await help_or_version(shell, prog, opts, BASENAME_HELP):
            return 0
        multiple = False
        suffix = None
        end = "\n"
        for k, v in opts:
            if k == "a":
                multiple = True
            elif k == "s":
                suffix, multiple = v, True
            elif k == "z":
                end = "\0"
        if not names:
            raise Usage("missing operand")
        if not multiple:
            if len(names) > 2:
                raise Usage(f"extra operand {lq(names[2])}")
            suffix = names[1] if len(names) == 2 else None
            names = names[:1]
    except Usage as e:
        return await usage_error(shell, prog, e)
    await shell.stdout.write(encode("".join(base_name(n, suffix) + end for n in names)))
    return 0


# ------------------------------------------------------------------- dirname
DIRNAME_HELP = """
Usage: dirname [OPTION] NAME...
Output each NAME with its last non-slash component and trailing slashes
removed; if NAME contains no /'s, output '.' (meaning the current directory).

  -z, --zero     end each output line with NUL, not newline
      --help     display this help and exit
"""


def dir_name(path: str) -> str:
    p = path.rstrip("/")
    if not p:
        if path.startswith("//") and not path.startswith("///"):
            return "//"
        return "/" if path else "."
    if "/" not in p:
        return "."
    d = p.rsplit("/", 1)[0]
    stripped = d.rstrip("/")
    if not stripped:
        return "//" if d == "//" else "/"
    return stripped


async def dirname_main(shell, argv: list[str]) -> int:
    prog = "dirname"
    try:
        opts, names = parse(argv[1:], "z", {"zero": "z"})
        if await help_or_version(shell, prog, opts, DIRNAME_HELP):
            return 0
        end = "\0" if any(k == "z" for k, _ in opts) else "\n"
        if not names:
            raise Usage("missing operand")
    except Usage as e:
        return await usage_error(shell, prog, e)
    await shell.stdout.write(encode("".join(dir_name(n) + end for n in names)))
    return 0


# ----------------------------------------------------------------------- pwd
PWD_HELP = """
Usage: pwd [OPTION]...
Print the full filename of the current working directory.

  -L, --logical   use PWD from environment, even if it contains symlinks
  -P, --physical  avoid all symlinks (the default)
      --help     display this help and exit
"""


def _logical_ok(shell, pwd: str) -> bool:
    if not pwd.startswith("/"):
        return False
    parts = pwd.split("/")
    if "." in parts or ".." in parts:
        return False
    try:
        return shell.fs.realpath(pwd) == shell.fs.realpath(shell.cwd)
    except OSError:
        return False


async def pwd_main(shell, argv: list[str]) -> int:
    prog = argv[0] if argv else "pwd"
    try:
        opts, extra = parse(argv[1:], "LP", {"logical": "L", "physical": "P"})
        if await help_or_version(shell, "pwd", opts, PWD_HELP):
            return 0
    except Usage as e:
        return await usage_error(shell, prog, e)
    logical = False
    for k, _ in opts:
        logical = k == "L"
    if extra:
        await shell.error(prog, "ignoring non-option arguments")
    if logical:
        pwd = shell.env.get("PWD", "")
        if _logical_ok(shell, pwd):
            await shell.stdout.write(encode(pwd + "\n"))
            return 0
    try:
        here = shell.fs.realpath(shell.cwd)
    except OSError as e:
        await shell.error(prog, f"error retrieving current directory: {strerror(e)}")
        return 1
    await shell.stdout.write(encode(here + "\n"))
    return 0


# ---------------------------------------------------------------- canonical
EXISTING_PARENT, EXISTING_ALL, MISSING_OK = "E", "e", "m"


def lexical(shell, path: str) -> str:
    """``path`` made absolute and normalised without looking at the file system."""
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


def canonicalize(shell, path: str, mode: str, physical: bool = True) -> str:
    """realpath(1)'s modes; raises FileSystemError against ``path``."""
    fs = shell.fs
    if path == "":
        raise FileSystemError(errno.ENOENT, path)
    if not physical:
        res = lexical(shell, path)
        if mode == EXISTING_ALL and not fs.lexists(res):
            raise FileSystemError(errno.ENOENT, path)
        return res
    if mode == MISSING_OK:
        return _canon_missing(shell, path)
    try:
        res = fs.realpath(path)
    except FileSystemError as e:
        raise FileSystemError(e.errno, path) from None
    trailing = path.endswith("/")
    if mode == EXISTING_ALL or trailing:
        try:
            st = fs.stat(res)
        except FileSystemError as e:
            raise FileSystemError(e.errno, path) from None
        if trailing:
            import stat as _stat

            if not _stat.S_ISDIR(st.st_mode):
                raise FileSystemError(errno.ENOTDIR, path)
    return res


def _canon_missing(shell, path: str) -> str:
    fs = shell.fs
    full = fs.abspath(path)
    cur = "/"
    missing = False
    for c in full.split("/"):
        if c in ("", "."):
            continue
        if c == "..":
            cur = cur.rsplit("/", 1)[0] or "/"
            continue
        cand = join(cur, c)
        if missing:
            cur = cand
            continue
        try:
            cur = fs.realpath(cand)
        except FileSystemError as e:
            if e.errno in (errno.ENOENT, errno.ENOTDIR):
                cur = cand
                missing = True
            else:
                raise FileSystemError(e.errno, path) from None
        else:
            if not fs.lexists(cur):
                missing = True
    return cur


def relative(path: str, start: str) -> str:
    a = [c for c in path.split("/") if c]
    s = [c for c in start.split("/") if c]
    i = 0
    while i < len(a) and i < len(s) and a[i] == s[i]:
        i += 1
    parts = [".."] * (len(s) - i) + a[i:]
    return "/".join(parts) or "."


def _under(path: str, base: str) -> bool:
    return base == "/" or path == base or path.startswith(base + "/")


# ------------------------------------------------------------------ realpath
REALPATH_HELP = """
Usage: realpath [OPTION]... FILE...
Print the resolved absolute file name;
all but the last component must exist

  -e, --canonicalize-existing  all components of the path must exist
  -m, --canonicalize-missing   no path components need exist or be a directory
  -L, --logical                resolve '..' components before symlinks
  -P, --physical               resolve symlinks as encountered (default)
  -q, --quiet                  suppress most error messages
      --relative-to=DIR        print the resolved path relative to DIR
      --relative-base=DIR      print absolute paths unless paths below DIR
  -s, --strip, --no-symlinks   don't expand symlinks
  -z, --zero                   end each output line with NUL, not newline
      --help        display this help and exit
"""


async def realpath_main(shell, argv: list[str]) -> int:
    prog = "realpath"
    try:
        opts, names = parse(argv[1:], "emLPqsz", {
            "canonicalize-existing": "e", "canonicalize-missing": "m", "logical": "L",
            "physical": "P", "quiet": "q", "strip": "s", "no-symlinks": "s", "zero": "z",
            "relative-to=": "relative-to", "relative-base=": "relative-base"})
        if await help_or_version(shell, prog, opts, REALPATH_HELP):
            return 0
        mode, physical, quiet, end = EXISTING_PARENT, True, False, "\n"
        strip = logical = False
        rel_to = rel_base = None
        for k, v in opts:
            if k in ("e", "m"):
                mode = EXISTING_ALL if k == "e" else MISSING_OK
            elif k == "L":
                logical = True
            elif k == "P":
                logical = False
            elif k == "s":
                strip = True
            elif k == "q":
                quiet = True
            elif k == "z":
                end = "\0"
            elif k == "relative-to":
                rel_to = v
            elif k == "relative-base":
                rel_base = v
        physical = not strip
        if not names:
            raise Usage("missing operand")
    except Usage as e:
        return await usage_error(shell, prog, e)

    def canon(p: str) -> str:
        if logical and not strip:
            p = lexical(shell, p)
        return canonicalize(shell, p, mode, physical)

    try:
        if rel_to is not None:
            rel_to = canon(rel_to)
        if rel_base is not None:
            rel_base = canon(rel_base)
    except FileSystemError as e:
        await shell.error(prog, f"{e.vpath}: {strerror(e)}")
        return 1
    if rel_base is not None and rel_to is not None and not _under(rel_to, rel_base):
        rel_to = rel_base = None
    elif rel_base is not None and rel_to is None:
        rel_to = rel_base
    out = Output(shell.stdout)
    status = 0
    for name in names:
        shell.budget.check()
        try:
            res = canon(name)
        except FileSystemError as e:
            status = 1
            if not quiet:
                await out.flush()
                await shell.error(prog, f"{name}: {strerror(e)}")
            continue
        if rel_to is not None and (rel_base is None or _under(res, rel_base)):
            res = relative(res, rel_to)
        await out.text(res + end)
    await out.flush()
    return status


# ------------------------------------------------------------------ readlink
READLINK_HELP = """
Usage: readlink [OPTION]... FILE...
Print value of a symbolic link or canonical file name

  -f, --canonicalize            canonicalize by following every symlink in
                                every component of the given name recursively;
                                all but the last component must exist
  -e, --canonicalize-existing   canonicalize by following every symlink in
                                every component of the given name recursively,
                                all components must exist
  -m, --canonicalize-missing    canonicalize by following every symlink in
                                every component of the given name recursively,
                                without requirements on components existence
  -n, --no-newline              do not output the trailing delimiter
  -q, --quiet
  -s, --silent                  suppress most error messages (on by default)
  -v, --verbose                 report error messages
  -z, --zero                    end each output line with NUL, not newline
      --help        display this help and exit
"""


async def readlink_main(shell, argv: list[str]) -> int:
    prog = "readlink"
    try:
        opts, names = parse(argv[1:], "femnqsvz", {
            "canonicalize": "f", "canonicalize-existing": "e", "canonicalize-missing": "m",
            "no-newline": "n", "quiet": "q", "silent": "s", "verbose": "v", "zero": "z"})
        if await help_or_version(shell, prog, opts, READLINK_HELP):
            return 0
        mode = None
        newline, verbose, end = True, False, "\n"
        for k, _ in opts:
            if k == "f":
                mode = EXISTING_PARENT
            elif k == "e":
                mode = EXISTING_ALL
            elif k == "m":
                mode = MISSING_OK
            elif k == "n":
                newline = False
            elif k in ("q", "s"):
                verbose = False
            elif k == "v":
                verbose = True
            elif k == "z":
                end = "\0"
        if not names:
            raise Usage("missing operand")
    except Usage as e:
        return await usage_error(shell, prog, e)
    if not newline and len(names) > 1:
        await shell.error(prog, "ignoring --no-newline with multiple arguments")
        newline = True
    out = Output(shell.stdout)
    status = 0
    for name in names:
        shell.budget.check()
        try:
            if mode is None:
                res = shell.fs.readlink(name)
            else:
                res = canonicalize(shell, name, mode)
        except FileSystemError as e:
            status = 1
            if verbose:
                await out.flush()
                await shell.error(prog, f"{name}: {strerror(e)}")
            continue
        await out.text(res + (end if newline else ""))
    await out.flush()
    return status
