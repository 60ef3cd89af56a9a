"""mktemp: unique files and directories, always inside the sandbox (default /tmp)."""

from __future__ import annotations

import errno
import secrets

from pysh.builtins._fileutil import (
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

PROG = "mktemp"

HELP = """
Usage: mktemp [OPTION]... [TEMPLATE]
Create a temporary file or directory, safely, and print its name.
TEMPLATE must contain at least 3 consecutive 'X's in last component.
If TEMPLATE is not specified, use tmp.XXXXXXXXXX, and --tmpdir is implied.
Files are created u+rw, and directories u+rwx, minus umask restrictions.

  -d, --directory     create a directory, not a file
  -u, --dry-run       do not create anything; merely print a name (unsafe)
  -q, --quiet         suppress diagnostics about file/dir-creation failure
      --suffix=SUFF   append SUFF to TEMPLATE; SUFF must not contain a slash.
                        This option is implied if TEMPLATE does not end in X
  -p DIR, --tmpdir[=DIR]  interpret TEMPLATE relative to DIR; if DIR is not
                        specified, use $TMPDIR if set, else /tmp.
                        With this option, TEMPLATE must not be an absolute name;
                        unlike with -t, TEMPLATE may contain slashes, but
                        mktemp creates only the final component
  -t                  interpret TEMPLATE as a single file name component,
                        relative to a directory: $TMPDIR, if set; else the
                        directory specified via -p; else /tmp [deprecated]
      --help        display this help and exit
"""

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


async def main(shell, argv: list[str]) -> int:
    directory = dry = quiet = use_t = False
    tmpdir = None
    use_tmpdir = False
    suffix = None
    try:
        opts, args = parse(argv[1:], "duqp:tV", {
            "directory": "d", "dry-run": "u", "quiet": "q", "suffix=": "suffix",
            "tmpdir?": "tmpdir"})
        if await help_or_version(shell, PROG, opts, HELP):
            return 0
        for k, v in opts:
            if k == "d":
                directory = True
            elif k == "u":
                dry = True
            elif k == "q":
                quiet = True
            elif k == "p":
                tmpdir, use_tmpdir = v, True
            elif k == "tmpdir":
                tmpdir, use_tmpdir = v, True
            elif k == "t":
                use_t = True
            elif k == "suffix":
                suffix = v
        if len(args) > 1:
            raise Usage("too many templates")
        if not args:
            template = "tmp.XXXXXXXXXX"
            use_tmpdir = True
        else:
            template = args[0]
        if suffix is not None and "/" in suffix:
            raise Usage(f"invalid suffix {lq(suffix)}, contains directory separator", hint=False)
        if suffix is None:
            end = len(template)
            while end > 0 and template[end - 1] != "X":
                end -= 1
            run = end
            while run > 0 and template[run - 1] == "X":
                run -= 1
            if end - run >= 3 and end < len(template):
                suffix = template[end:]
                template = template[:end]
                if "/" in suffix:
                    raise Usage(f"invalid suffix {lq(suffix)}, contains directory separator",
                                hint=False)
            else:
                suffix = ""
        else:
            if not template.endswith("XXX"):
                raise Usage(f"too few X's in template {lq(template + suffix)}", hint=False)
        n = len(template) - len(template.rstrip("X"))
        if n < 3:
            raise Usage(f"too few X's in template {lq(template + suffix)}", hint=False)
        if use_t or use_tmpdir:
            if use_t and "/" in template:
                raise Usage(f"invalid template, {lq(template)}, contains directory separator",
                            hint=False)
            if use_tmpdir and template.startswith("/"):
                raise Usage(f"invalid template, {lq(template)}; with --tmpdir, it may not be "
                            "absolute", hint=False)
            base = tmpdir if tmpdir else (shell.env.get("TMPDIR") or "/tmp")
            if use_t and not use_tmpdir:
                base = shell.env.get("TMPDIR") or tmpdir or "/tmp"
            template = join(base, template)
    except Usage as e:
        if quiet and e.hint is False:
            return 1
        return await usage_error(shell, PROG, e)
    fs = shell.fs
    prefix = template[: len(template) - n]
    parent = prefix.rsplit("/", 1)[0] if "/" in prefix else "."
    what = "directory" if directory else "file"
    last_err = None
    for _ in range(100):
        shell.budget.check()
        name = prefix + "".join(secrets.choice(ALPHABET) for _ in range(n)) + suffix
        if dry:
            try:
                if parent and not fs.is_dir(parent or "/"):
                    fs.stat(parent or "/")
                    raise FileSystemError(errno.ENOTDIR, parent)
            except FileSystemError as e:
                last_err = e
                break
            if fs.lexists(name):
                continue
            await shell.stdout.write(encode(name + "\n"))
            return 0
        try:
            if directory:
                fs.mkdir(name, 0o700)
            else:
                f = fs.open(name, "xb", perm=0o600)
                f.close()
        except FileSystemError as e:
            if e.errno == errno.EEXIST:
                continue
            last_err = e
            break
        await shell.stdout.write(encode(name + "\n"))
        return 0
    if not quiet:
        reason = strerror(last_err) if last_err is not None else "File exists"
        await shell.error(PROG, f"failed to create {what} via template {lq(template + suffix)}: "
                                f"{reason}")
    return 1
