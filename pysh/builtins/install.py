"""install (GNU coreutils 9.1): copy files and set their modes, or make directories.

Through the FileSystem door. Modes are exact (GNU runs with umask 0): files
0755 and directories 0755 unless ``-m``; ``-D`` and ``-d`` make the missing
parents (0755). Backups (``-b``, ``-S``, ``--backup=CONTROL``), ``-C``
(copy only when contents, mode or owner differ), ``-p``, ``-T``, ``-t`` and
``-v`` behave as GNU's.

Ownership: every file in the sandbox belongs to its one user. ``-o user``,
``-o 1000``, ``-g user`` and ``-g 1000`` are accepted and change nothing; any
other known owner (root) fails as for an unprivileged user ("cannot change
ownership ...: Operation not permitted", after the copy, exit 1), an unknown
name is an ``invalid user``. ``-s`` (strip) is refused: it runs a host
program. SELinux options (``-Z``, ``--context``, ``--preserve-context``) are
accepted and do nothing, as on a kernel without SELinux.
"""

from __future__ import annotations

import errno
import stat as _stat

from pysh.builtins._backup import Backups
from pysh.builtins._fileutil import (
    GID,
    UID,
    USER,
    Output,
    Usage,
    help_or_version,
    join,
    lq,
    lstat,
    parse,
    parse_mode,
    q,
    stat,
    strerror,
    usage_error,
)
from pysh.shellkit import FileSystemError

PROG = "install"
DEFAULT_MODE = 0o755

HELP = """
Usage: install [OPTION]... [-T] SOURCE DEST
  or:  install [OPTION]... SOURCE... DIRECTORY
  or:  install [OPTION]... -t DIRECTORY SOURCE...
  or:  install [OPTION]... -d DIRECTORY...

This install program copies files (often just compiled) into destination
locations you choose.  If you want to download and install a ready-to-use
package on a GNU/Linux system, you should instead be using a package manager
like yum(1) or apt-get(1).

In the first three forms, copy SOURCE to DEST or multiple SOURCE(s) to
the existing DIRECTORY, while setting permission modes and owner/group.
In the 4th form, create all components of the given DIRECTORY(ies).

Mandatory arguments to long options are mandatory for short options too.
      --backup[=CONTROL]  make a backup of each existing destination file
  -b                  like --backup but does not accept an argument
  -c                  (ignored)
  -C, --compare       compare content of source and destination files, and
                        if no change to the destination, do not modify
                        the destination at all
  -d, --directory     treat all arguments as directory names; create all
                        components of the specified directories
  -D                  create all leading components of DEST except the last,
                        or all components of --target-directory,
                        then copy SOURCE to DEST
  -g, --group=GROUP   set group ownership, instead of process' current group
  -m, --mode=MODE     set permission mode (as in chmod), instead of rwxr-xr-x
  -o, --owner=OWNER   set ownership (super-user only)
  -p, --preserve-timestamps   apply access/modification times of SOURCE files
                        to corresponding destination files
  -s, --strip         strip symbol tables (refused in the sandbox)
      --strip-program=PROGRAM  program used to strip binaries
  -S, --suffix=SUFFIX  override the usual backup suffix
  -t, --target-directory=DIRECTORY  copy all SOURCE arguments into DIRECTORY
  -T, --no-target-directory  treat DEST as a normal file
  -v, --verbose       print the name of each directory as it is created
      --preserve-context  preserve SELinux security context
  -Z                      set SELinux security context of destination
                            file and each created directory to default type
      --context[=CTX]     like -Z, or if CTX is specified then set the
                            SELinux or SMACK security context to CTX
      --help        display this help and exit
      --version     output version information and exit

The backup suffix is '~', unless set with --suffix or SIMPLE_BACKUP_SUFFIX.
The version control method may be selected via the --backup option or through
the VERSION_CONTROL environment variable.  Here are the values:

  none, off       never make backups (even if --backup is given)
  numbered, t     make numbered backups
  existing, nil   numbered if numbered backups exist, simple otherwise
  simple, never   always make simple backups

In the sandbox every file belongs to 'user': -o/-g naming that user or its
group are accepted and change nothing; other owners are refused.
"""

class Install:
    def __init__(self, shell):
        self.shell = shell
        self.fs = shell.fs
        self.out = Output(shell.stdout)
        self.verbose = False
        self.mode = DEFAULT_MODE
        self.dir_mode = DEFAULT_MODE
        self.compare = False
        self.preserve_times = False
        self.backups = Backups()
        self.chown_fails = False  # -o/-g named someone else: EPERM after the copy
        self.status = 0

    async def err(self, msg: str) -> None:
        await self.out.flush()
        await self.shell.error(PROG, msg)
        self.status = 1

    # -- directories -----------------------------------------------------------
    async def make_dirs(self, path: str, final_mode: int | None) -> bool:
        """mkdir -p with GNU's announcements; the last component gets ``final_mode``
        (None: the path's parents only, as -D)."""
        fs = self.fs
        comps = path.split("/")
        prefix = "/" if path.startswith("/") else ""
        built = ""
        # every non-empty prefix in turn; the last one only with a final mode (-d)
        last_index = max((i for i, c in enumerate(comps) if c), default=-1)
        for i, c in enumerate(comps):
            if not c:
                continue
            built = c if not built and not prefix else (built + "/" + c if built else prefix + c)
            is_last = i == last_index
            if is_last and final_mode is None:
                break
            shown = built
            try:
                st = fs.stat(shown)
                if not _stat.S_ISDIR(st.st_mode):
                    await self.err(f"cannot create directory {lq(shown)}: "
                                   f"{strerror(errno.ENOTDIR if not is_last else errno.EEXIST)}")
                    return False
                if is_last:
                    self.shell.budget.check()
                    await self._chmod(shown, final_mode, True)
                continue
            except FileSystemError as e:
                if e.errno not in (errno.ENOENT,):
                    await self.err(f"cannot create directory {lq(shown)}: {strerror(e)}")
                    return False
            try:
                fs.mkdir(shown, 0o700)
            except FileSystemError as e:
                await self.err(f"cannot create directory {lq(shown)}: {strerror(e)}")
                return False
            if self.verbose:
                await self.out.text(f"{PROG}: creating directory {q(shown)}\n")
            if is_last:
                await self._chmod(shown, final_mode, True)
            else:
                self._plain_chmod(shown, DEFAULT_MODE)
        return True

    def _plain_chmod(self, path: str, mode: int) -> None:
        """An ancestor's mode (GNU makes them 0755 and never chowns them)."""
        try:
            self.fs.chmod(path, mode)
        except FileSystemError:
            pass

    async def _chmod(self, path: str, mode: int, is_dir: bool) -> bool:
        if self.chown_fails:
            what = (f"owner and permissions of {lq(path)}" if is_dir
                    else f"ownership of {q(path)}")
            await self.err(f"cannot change {what}: {strerror(errno.EPERM)}")
            return False
        try:
            self.fs.chmod(path, mode)
        except FileSystemError as e:
            await self.err(f"cannot change permissions of {q(path)}: {strerror(e)}")
            return False
        return True

    # -- files -----------------------------------------------------------------
    def _need_copy(self, src: str, dst: str) -> bool:
        fs = self.fs
        if self.mode & ~0o777:
            return True
        try:
            s = lstat(fs, src)
            d = lstat(fs, dst)
        except FileSystemError:
            return True
        if not (_stat.S_ISREG(s.st_mode) and _stat.S_ISREG(d.st_mode)):
            return True
        if s.st_mode & ~0o170777 or d.st_mode & ~0o170777:
            return True
        if s.st_size != d.st_size or _stat.S_IMODE(d.st_mode) != self.mode:
            return True
        if self.chown_fails:
            return True
        budget = self.shell.budget
        try:
            with fs.open(src, "rb") as a, fs.open(dst, "rb") as b:
                while True:
                    x = a.read(1 << 16)
                    y = b.read(1 << 16)
                    budget.check()
                    if x != y:
                        return True
                    if not x:
                        return False
        except OSError:
            return True

    async def install_file(self, src: str, dst: str) -> bool:
        fs = self.fs
        try:
            if not src:
                raise FileSystemError(errno.ENOENT, src)
            sst = stat(fs, src)
        except FileSystemError as e:
            await self.err(f"cannot stat {q(src)}: {strerror(e)}")
            return False
        if self.compare and not self._need_copy(src, dst):
            return await self._chmod(dst, self.mode, False)
        if _stat.S_ISDIR(sst.st_mode):
            await self.err(f"omitting directory {q(src)}")
            return False
        try:
            dlst = lstat(fs, dst)
        except FileSystemError as e:
            if e.errno not in (errno.ENOENT, errno.ENOTDIR):
                await self.err(f"cannot stat {q(dst)}: {strerror(e)}")
                return False
            dlst = None
        if dlst is not None:
            try:
                dst_st = stat(fs, dst)
            except FileSystemError:
                dst_st = dlst
            if (dst_st.st_dev, dst_st.st_ino) == (sst.st_dev, sst.st_ino):
                await self.err(f"{q(src)} and {q(dst)} are the same file")
                return False
            if _stat.S_ISDIR(dst_st.st_mode):
                await self.err(f"cannot overwrite directory {q(dst)} with non-directory")
                return False
        backup = self.backups.name(fs, dst) if dlst is not None else None
        try:
            if backup is not None:
                fs.rename(dst, backup)
            elif dlst is not None:
                fs.unlink(dst)
                if self.verbose:
                    await self.out.text(f"removed {q(dst)}\n")
        except FileSystemError as e:
            verb = "backup" if backup else "remove"
            await self.err(f"cannot {verb} {q(dst)}: {strerror(e)}")
            return False
        try:
            fin = fs.open(src, "rb")
        except FileSystemError as e:
            await self.err(f"cannot open {q(src)} for reading: {strerror(e)}")
            return False
        try:
            try:
                fout = fs.open(dst, "wb", perm=0o600)
            except FileSystemError as e:
                await self.err(f"cannot create regular file {q(dst)}: {strerror(e)}")
                return False
            try:
                budget = self.shell.budget
                while True:
                    chunk = fin.read(1 << 20)
                    if not chunk:
                        break
                    fout.write(chunk)
                    budget.count_written(len(chunk))
                    budget.check()
            finally:
                fout.close()
        except OSError as e:
            await self.err(f"error writing {q(dst)}: {strerror(e)}")
            return False
        finally:
            fin.close()
        if self.verbose:
            tail = f" (backup: {q(backup)})" if backup else ""
            await self.out.text(f"{q(src)} -> {q(dst)}{tail}\n")
        if self.preserve_times:
            try:
                fs.utime(dst, ns=(sst.st_atime_ns, sst.st_mtime_ns))
            except FileSystemError as e:
                await self.err(f"cannot set timestamps for {q(dst)}: {strerror(e)}")
                return False
        return await self._chmod(dst, self.mode, False)


def _owner(name: str, table: dict[str, int], kind: str) -> tuple[bool, str | None]:
    """(refused, error): the sandbox's user is fine, root is refused, others unknown."""
    if name in table:
        return table[name] not in (UID, GID), None
    if name.isdigit() and name.isascii():
        return int(name) not in (UID, GID), None
    return False, f"invalid {kind} {lq(name)}"


async def main(shell, argv: list[str]) -> int:
    ins = Install(shell)
    fs = shell.fs
    dir_arg = mkdir_and_install = no_target = strip = False
    strip_program = False
    target = None
    mode_spec = owner = group = None
    try:
        opts, files = parse(argv[1:], "bcCsDdg:m:o:pt:TvS:Z", {
            "backup?": "backup", "compare": "C", "directory": "d", "group=": "g",
            "mode=": "m", "owner=": "o", "preserve-timestamps": "p", "strip": "s",
            "strip-program=": "strip-program", "suffix=": "S", "target-directory=": "t",
            "no-target-directory": "T", "verbose": "v", "preserve-context": "pc",
            "context?": "Z"})
        if await help_or_version(shell, PROG, opts, HELP):
            return 0
        for k, v in opts:
            if ins.backups.option(k, v):
                pass
            elif k == "C":
                ins.compare = True
            elif k == "s":
                strip = True
            elif k == "strip-program":
                strip_program = True
            elif k == "d":
                dir_arg = True
            elif k == "D":
                mkdir_and_install = True
            elif k == "v":
                ins.verbose = True
            elif k == "g":
                group = v
            elif k == "m":
                mode_spec = v
            elif k == "o":
                owner = v
            elif k == "p":
                ins.preserve_times = True
            elif k == "t":
                if target is not None:
                    raise Usage("multiple target directories specified", hint=False)
                target = v
            elif k == "T":
                no_target = True
        if dir_arg and strip:
            raise Usage("the strip option may not be used when installing a directory",
                        hint=False)
        if dir_arg and target is not None:
            raise Usage("target directory not allowed when installing a directory", hint=False)
        ins.backups.settle(shell.env)
        need = 0 if (dir_arg or target is not None) else 1
        if len(files) <= need:
            if not files:
                raise Usage("missing file operand")
            raise Usage(f"missing destination file operand after {q(files[0])}")
    except Usage as e:
        return await usage_error(shell, PROG, e)
    target_ok = True
    if no_target:
        if target is not None:
            await shell.error(PROG, "cannot combine --target-directory (-t) and "
                                    "--no-target-directory (-T)")
            return 1
        if len(files) > 2:
            return await usage_error(shell, PROG, Usage(f"extra operand {q(files[2])}"))
    elif target is not None:
        try:
            if not _stat.S_ISDIR(stat(fs, target).st_mode):
                await shell.error(PROG, f"failed to access {q(target)}: Not a directory")
                return 1
        except FileSystemError as e:
            if not (mkdir_and_install and e.errno == errno.ENOENT):
                await shell.error(PROG, f"failed to access {q(target)}: {strerror(e)}")
                return 1
            target_ok = False
    elif not dir_arg:
        last = files[-1]
        try:
            is_dir = _stat.S_ISDIR(stat(fs, last).st_mode)
            err = None if is_dir else errno.ENOTDIR
        except FileSystemError as e:
            is_dir, err = False, e.errno
        if is_dir:
            target = last
            files = files[:-1]
        elif len(files) > 2:
            await shell.error(PROG, f"target {q(last)}: {strerror(err)}")
            return 1
    if mode_spec is not None:
        fn = parse_mode(mode_spec)
        if fn is None:
            await shell.error(PROG, f"invalid mode {lq(mode_spec)}")
            return 1
        ins.mode = fn(0, False, 0) & 0o7777
        ins.dir_mode = fn(0, True, 0) & 0o7777
    if strip_program and not strip:
        await shell.error(PROG, "WARNING: ignoring --strip-program option as -s option was "
                                "not specified")
    if ins.compare and ins.preserve_times:
        await shell.error(PROG, "options --compare (-C) and --preserve-timestamps are mutually "
                                "exclusive")
        return await usage_error(shell, PROG, Usage(""))
    if ins.compare and strip:
        await shell.error(PROG, "options --compare (-C) and --strip are mutually exclusive")
        return await usage_error(shell, PROG, Usage(""))
    for name, table, kind in ((owner, {USER: UID, "root": 0}, "user"),
                              (group, {USER: GID, "root": 0}, "group")):
        if name is not None:
            refused, error = _owner(name, table, kind)
            if error:
                await shell.error(PROG, error)
                return 1
            ins.chown_fails |= refused
    if strip:
        await shell.error(PROG, "cannot run 'strip': not supported in the sandbox (it runs a "
                                "host program)")
        return 1
    if dir_arg:
        for d in files:
            shell.budget.check()
            if not d:
                await ins.err(f"cannot create directory {lq(d)}: {strerror(errno.ENOENT)}")
                continue
            await ins.make_dirs(d, ins.dir_mode)
    elif target is None:
        src, dst = files
        if mkdir_and_install and "/" in dst.rstrip("/"):
            if not await ins.make_dirs(dst, None):
                await ins.out.flush()
                return 1
        await ins.install_file(src, dst)
    else:
        for i, src in enumerate(files):
            shell.budget.check()
            if not target_ok:
                if i == 0 and mkdir_and_install:
                    target_ok = await ins.make_dirs(target, DEFAULT_MODE)
                if not target_ok:
                    ins.status = 1
                    continue
            base = src.rstrip("/").rsplit("/", 1)[-1] or src
            await ins.install_file(src, join(target, base))
    await ins.out.flush()
    return ins.status
