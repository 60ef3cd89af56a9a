"""cp: copy files and trees through the FileSystem door (across mounts too).

Ownership is never changed (every file belongs to the synthetic user); ``-p``
and ``-a`` keep modes and times. ``-i`` asks on stderr and reads the answer
from stdin like GNU (with a terminal on stdin it assumes "no"). Backups
(``-b``) are not made.
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
    stat,
    strerror,
    usage_error,
    walk_ordered,
)
from pysh.shellkit import FileSystemError

PROG = "cp"

HELP = """
Usage: cp [OPTION]... [-T] SOURCE DEST
  or:  cp [OPTION]... SOURCE... DIRECTORY
  or:  cp [OPTION]... -t DIRECTORY SOURCE...
Copy SOURCE to DEST, or multiple SOURCE(s) to DIRECTORY.

  -a, --archive                same as -dR --preserve=all
      --attributes-only        don't copy the file data, just the attributes
  -d                           same as --no-dereference --preserve=links
  -f, --force                  if an existing destination file cannot be
                                 opened, remove it and try again
  -i, --interactive            prompt before overwrite
  -H                           follow command-line symbolic links in SOURCE
  -l, --link                   hard link files instead of copying
  -L, --dereference            always follow symbolic links in SOURCE
  -n, --no-clobber             do not overwrite an existing file
  -P, --no-dereference         never follow symbolic links in SOURCE
  -p                           same as --preserve=mode,ownership,timestamps
      --preserve[=ATTR_LIST]   preserve the specified attributes
      --no-preserve=ATTR_LIST  don't preserve the specified attributes
      --parents                use full source file name under DIRECTORY
  -R, -r, --recursive          copy directories recursively
      --remove-destination     remove each existing destination file before
                                 attempting to open it
  -s, --symbolic-link          make symbolic links instead of copying
  -t, --target-directory=DIRECTORY  copy all SOURCE arguments into DIRECTORY
  -T, --no-target-directory    treat DEST as a normal file
  -u, --update                 copy only when the SOURCE file is newer
                                 than the destination file or when the
                                 destination file is missing
  -v, --verbose                explain what is being done
  -x, --one-file-system        stay on this file system
      --help        display this help and exit
"""


class Cp:
    def __init__(self, shell):
        self.shell = shell
        self.fs = shell.fs
        self.recursive = False
        self.deref = None  # None: default (L unless recursive), "L", "H", "P"
        self.force = False
        self.no_clobber = False
        self.interactive = False
        self.verbose = False
        self.update = False
        self.mode = "copy"  # copy, link, symlink
        self.preserve_mode = False
        self.preserve_times = False
        self.parents = False
        self.remove_dest = False
        self.attributes_only = False
        self.one_fs = False
        self.backups = Backups()
        self.status = 0
        self.out = Output(shell.stdout)

    async def err(self, msg: str) -> None:
        await self.out.flush()
        await self.shell.error(PROG, msg)
        self.status = 1


def _preserve(cp: Cp, spec: str | None, on: bool) -> None:
    attrs = (spec or "mode,ownership,timestamps").split(",")
    for a in attrs:
        if a in ("mode", "all"):
            cp.preserve_mode = on
        if a in ("timestamps", "all"):
            cp.preserve_times = on
        if a not in ("mode", "ownership", "timestamps", "links", "context", "xattr", "all"):
            raise Usage(f"invalid argument {_lq(a)} for {_lq('--preserve')}\n"
                        "Valid arguments are:\n  - ‘mode’\n  - ‘timestamps’\n  - ‘ownership’\n"
                        "  - ‘links’\n  - ‘context’\n  - ‘xattr’\n  - ‘all’")


def _lq(s: str) -> str:
    from pysh.builtins._fileutil import lq

    return lq(s)


async def main(shell, argv: list[str]) -> int:
    cp = Cp(shell)
    target_dir = None
    no_target = False
    try:
        opts, operands = parse(argv[1:], "adfiHlLnPpRrst:TuvxbS:Z", {
            "archive": "a", "attributes-only": "attributes-only", "force": "f",
            "interactive": "i", "link": "l", "dereference": "L", "no-clobber": "n",
            "no-dereference": "P", "preserve?": "preserve", "no-preserve=": "no-preserve",
            "parents": "parents", "recursive": "R", "remove-destination": "remove",
            "symbolic-link": "s", "target-directory=": "t", "no-target-directory": "T",
            "update?": "u", "verbose": "v", "one-file-system": "x", "backup?": "b",
            "suffix=": "S", "sparse=": "sparse", "reflink?": "reflink",
            "strip-trailing-slashes": "strip", "context?": "Z", "copy-contents": "cc",
            "debug": "debug"})
        if await help_or_version(shell, PROG, opts, HELP):
            return 0
        for k, v in opts:
            if cp.backups.option(k, v):
                continue
            if k == "a":
                cp.recursive, cp.deref = True, "P"
                cp.preserve_mode = cp.preserve_times = True
            elif k == "d":
                cp.deref = "P"
            elif k == "f":
                cp.force = True
            elif k == "i":
                cp.interactive, cp.no_clobber = True, False
            elif k == "H":
                cp.deref = "H"
            elif k == "l":
                cp.mode = "link"
            elif k == "L":
                cp.deref = "L"
            elif k == "n":
                cp.no_clobber, cp.interactive = True, False
            elif k == "P":
                cp.deref = "P"
            elif k == "p":
                cp.preserve_mode = cp.preserve_times = True
            elif k == "preserve":
                _preserve(cp, v, True)
            elif k == "no-preserve":
                _preserve(cp, v, False)
            elif k in ("R", "r"):
                cp.recursive = True
            elif k == "remove":
                cp.remove_dest = True
            elif k == "s":
                cp.mode = "symlink"
            elif k == "t":
                target_dir = v
            elif k == "T":
                no_target = True
            elif k == "u":
                if v in (None, "older"):
                    cp.update = True
                elif v == "none":
                    cp.no_clobber = True
                elif v == "all":
                    cp.update = False
                else:
                    raise Usage(f"invalid argument {_lq(v)} for {_lq('--update')}")
            elif k == "v":
                cp.verbose = True
            elif k == "x":
                cp.one_fs = True
            elif k == "parents":
                cp.parents = True
            elif k == "attributes-only":
                cp.attributes_only = True
        if target_dir is not None and no_target:
            raise Usage("cannot combine --target-directory (-t) and --no-target-directory (-T)")
        if cp.backups.wanted and cp.no_clobber:
            raise Usage("options --backup and --no-clobber are mutually exclusive")
        cp.backups.settle(shell.env)
        if not operands:
            raise Usage("missing file operand")
        if target_dir is None and len(operands) == 1:
            raise Usage(f"missing destination file operand after {q(operands[0])}")
        if no_target and len(operands) > 2:
            raise Usage(f"extra operand {q(operands[2])}")
    except Usage as e:
        return await usage_error(shell, PROG, e)
    if cp.deref is None:
        cp.deref = "P" if cp.recursive else "L"
    fs = shell.fs
    target = await copy_target(shell, PROG, operands, target_dir, no_target)
    if target is None:
        return 1
    sources, dest, into = target
    if cp.parents and not into:
        await shell.error(PROG, "with --parents, the destination must be a directory")
        await shell.stderr.write(f"Try '{PROG} --help' for more information.\n".encode())
        return 1
    for src in sources:
        shell.budget.check()
        if into:
            if cp.parents:
                rel = src.lstrip("/")
                d = dest
                parts = rel.rstrip("/").split("/")
                ok = True
                for i, part in enumerate(parts[:-1]):
                    d = join(d, part)
                    if not fs.is_dir(d):
                        try:
                            sst = stat(fs, "/".join(src.split("/")[: i + 1]) or "/")
                            fs.mkdir(d, _stat.S_IMODE(sst.st_mode) | 0o700)
                            if cp.verbose:
                                await cp.out.text(f"{'/'.join(parts[:i + 1])} -> {d}\n")
                        except FileSystemError as e:
                            await cp.err(f"cannot make directory {q(d)}: {strerror(e)}")
                            ok = False
                            break
                if not ok:
                    continue
                target = join(dest, rel.rstrip("/"))
            else:
                target = join(dest, _base(src))
        else:
            target = dest
        await copy_top(cp, src, target, into)
    await cp.out.flush()
    return cp.status


def _base(p: str) -> str:
    s = p.rstrip("/")
    return s.rsplit("/", 1)[-1] if s else "/"


async def copy_top(cp: Cp, src: str, dst: str, into: bool = False) -> None:
    fs = cp.fs
    follow = cp.deref in ("L", "H")
    try:
        sst = stat(fs, src) if follow else lstat(fs, src)
    except FileSystemError as e:
        await cp.err(f"cannot stat {q(src)}: {strerror(e)}")
        return
    if _stat.S_ISDIR(sst.st_mode):
        if not cp.recursive:
            await cp.err(f"-r not specified; omitting directory {q(src)}")
            return
        if cp.mode == "symlink" and False:
            pass
        await copy_dir(cp, src, dst, sst, into)
        return
    await copy_file(cp, src, dst, sst)


def _same(a, b) -> bool:
    return a is not None and b is not None and (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


async def copy_file(cp: Cp, src: str, dst: str, sst, *, in_tree: bool = False) -> bool:
    fs = cp.fs
    try:
        dlst = lstat(fs, dst)
    except FileSystemError as e:
        if e.errno not in (errno.ENOENT,):
            await cp.err(f"cannot stat {q(dst)}: {strerror(e)}")
            return False
        dlst = None
    dst_st = dlst
    if dlst is not None and _stat.S_ISLNK(dlst.st_mode):
        try:
            dst_st = stat(fs, dst)
        except FileSystemError:
            dst_st = None
    if dst_st is not None:
        if _same(sst, dst_st) or (_stat.S_ISLNK(sst.st_mode) and _same(sst, dlst)):
            if not (cp.mode == "symlink" and _stat.S_ISLNK(dlst.st_mode)):
                await cp.err(f"{q(src)} and {q(dst)} are the same file")
                return False
        if _stat.S_ISDIR(dst_st.st_mode):
            await cp.err(f"cannot overwrite directory {q(dst)} with non-directory")
            return False
    if dlst is not None:
        if cp.no_clobber:
            return True
        if cp.update and dst_st is not None and dst_st.st_mtime_ns >= sst.st_mtime_ns:
            return True
        if cp.interactive and not await ask(cp.shell, f"{PROG}: overwrite {q(dst)}? "):
            return True
    backup = None
    if dlst is not None and cp.backups.kind != "none":
        try:
            backup = cp.backups.make(fs, dst)
        except FileSystemError as e:
            await cp.err(f"cannot backup {q(dst)}: {strerror(e)}")
            return False
        dlst = dst_st = None
    if cp.mode == "link":
        try:
            if dlst is not None:
                fs.unlink(dst)
            fs.link(src, dst)
        except FileSystemError as e:
            await cp.err(f"cannot create hard link {q(dst)} to {q(src)}: {strerror(e)}")
            return False
        await _verbose(cp, src, dst, backup)
        return True
    if cp.mode == "symlink":
        if not src.startswith("/") and "/" in dst.rstrip("/"):
            await cp.err(f"{dst}: can make relative symbolic links only in current directory")
            return False
        try:
            if dlst is not None:
                fs.unlink(dst)
            fs.symlink(src, dst)
        except FileSystemError as e:
            await cp.err(f"cannot create symbolic link {q(dst)} to {q(src)}: {strerror(e)}")
            return False
        await _verbose(cp, src, dst, backup)
        return True
    if _stat.S_ISLNK(sst.st_mode):
        try:
            target = fs.readlink(src)
        except FileSystemError as e:
            await cp.err(f"cannot read symbolic link {q(src)}: {strerror(e)}")
            return False
        try:
            if dlst is not None:
                fs.unlink(dst)
            fs.symlink(target, dst)
        except FileSystemError as e:
            await cp.err(f"cannot create symbolic link {q(dst)}: {strerror(e)}")
            return False
        if cp.preserve_times:
            try:
                fs.utime(dst, ns=(sst.st_atime_ns, sst.st_mtime_ns), follow_symlinks=False)
            except FileSystemError:
                pass
        await _verbose(cp, src, dst, backup)
        return True
    piped = _stat.S_ISFIFO(sst.st_mode) and cp.shell.stream_data(src) is not None
    if not _stat.S_ISREG(sst.st_mode) and not piped:  # a pipe named as a file (<(cmd)) copies
        await cp.err(f"cannot copy special file {q(src)}: not supported in the sandbox")
        return False
    if cp.remove_dest and dlst is not None:
        try:
            fs.unlink(dst)
            dlst = dst_st = None
        except FileSystemError as e:
            await cp.err(f"cannot remove {q(dst)}: {strerror(e)}")
            return False
    mode = _stat.S_IMODE(sst.st_mode)
    created = dst_st is None
    perm = mode & 0o777 & ~cp.shell.umask
    try:
        fin = fs.open(src, "rb")
    except FileSystemError as e:
        await cp.err(f"cannot open {q(src)} for reading: {strerror(e)}")
        return False
    try:
        try:
            fout = fs.open(dst, "wb", perm=perm)
        except FileSystemError as e:
            if cp.force and dlst is not None and e.errno in (errno.EACCES, errno.EPERM):
                try:
                    fs.unlink(dst)
                    fout = fs.open(dst, "wb", perm=perm)
                    created = True
                except FileSystemError as e2:
                    await cp.err(f"cannot create regular file {q(dst)}: {strerror(e2)}")
                    return False
            else:
                verb = "create regular file" if dlst is None else "open"
                tail = "" if dlst is None else " for writing"
                await cp.err(f"cannot {verb} {q(dst)}{tail}: {strerror(e)}")
                return False
        try:
            if not cp.attributes_only:
                budget = cp.shell.budget
                while True:
                    chunk = fin.read(1 << 20)
                    if not chunk:
                        break
                    fout.write(chunk)  # the door counts it against the write limits
                    budget.check()
        finally:
            fout.close()
    except OSError as e:
        await cp.err(f"error writing {q(dst)}: {strerror(e)}")
        return False
    finally:
        fin.close()
    try:
        if cp.preserve_mode:
            fs.chmod(dst, mode)
        elif created and cp.shell.umask != 0o022:
            fs.chmod(dst, perm)
        if cp.preserve_times:
            fs.utime(dst, ns=(sst.st_atime_ns, sst.st_mtime_ns))
    except FileSystemError as e:
        await cp.err(f"preserving permissions for {q(dst)}: {strerror(e)}")
    await _verbose(cp, src, dst, backup)
    return True


async def _verbose(cp: Cp, src: str, dst: str, backup: str | None = None) -> None:
    if cp.verbose:
        tail = f" (backup: {q(backup)})" if backup else ""
        await cp.out.text(f"{q(src)} -> {q(dst)}{tail}\n")


def _inode_order(entries: list) -> list:
    def key(e):
        try:
            return e.stat(False).st_ino
        except OSError:
            return 0
    return sorted(entries, key=key)


async def copy_dir(cp: Cp, src: str, dst: str, sst, into: bool = False) -> None:
    fs = cp.fs
    shell = cp.shell
    try:
        dst_st = stat(fs, dst)
    except FileSystemError:
        dst_st = None
    if dst_st is not None and not _stat.S_ISDIR(dst_st.st_mode):
        await cp.err(f"cannot overwrite non-directory {q(dst)} with directory {q(src)}")
        return
    try:
        csrc = fs.realpath(src)
        cdst = _canon_missing(fs, dst)
    except FileSystemError:
        csrc = cdst = None
    inside = csrc is not None and cdst is not None and (
        cdst == csrc or cdst.startswith(csrc.rstrip("/") + "/"))
    if inside and not (into and dst_st is None):
        await cp.err(f"cannot copy a directory, {q(src)}, into itself, {q(dst)}")
        return
    if cp.mode == "symlink":
        await copy_file(cp, src, dst, sst)
        return
    mode = _stat.S_IMODE(sst.st_mode)
    if dst_st is None:
        try:
            fs.mkdir(dst, (mode & ~shell.umask) | 0o700)
        except FileSystemError as e:
            await cp.err(f"cannot create directory {q(dst)}: {strerror(e)}")
            return
        await _verbose(cp, src, dst)
        created = True
    else:
        created = False
    skip_key = None
    if inside:
        try:
            nst = stat(fs, dst)
            skip_key = (nst.st_dev, nst.st_ino)
        except FileSystemError:
            pass
    pending_dirs: dict[str, tuple] = {}  # post-order fix-ups: mode and times
    follow = cp.deref == "L"
    src_base = src.rstrip("/") or "/"
    dev = sst.st_dev
    for item in walk_ordered(shell, src, follow=follow, order=_inode_order):
        if item.kind == "error":
            await cp.err(f"cannot access {q(item.error.vpath or item.path)}: "
                         f"{strerror(item.error)}")
            continue
        rel = item.path[len(src_base):].lstrip("/")
        target = join(dst, rel)
        if item.kind == "post":
            fix = pending_dirs.pop(item.path, None)
            if fix is not None:
                await _fix_dir(cp, target, *fix)
            continue
        try:
            est = item.entry.stat(follow and item.entry.type == "l")
        except FileSystemError as e:
            await cp.err(f"cannot stat {q(item.path)}: {strerror(e)}")
            continue
        if item.is_dir:
            if skip_key is not None and (est.st_dev, est.st_ino) == skip_key:
                item.prune = True
                continue
            if cp.one_fs and est.st_dev != dev:
                item.prune = True
                continue
            try:
                tst = stat(fs, target)
            except FileSystemError:
                tst = None
            emode = _stat.S_IMODE(est.st_mode)
            if tst is None:
                try:
                    fs.mkdir(target, (emode & ~shell.umask) | 0o700)
                except FileSystemError as e:
                    await cp.err(f"cannot create directory {q(target)}: {strerror(e)}")
                    item.prune = True
                    continue
                await _verbose(cp, item.path, target)
                pending_dirs[item.path] = (est, True)
            elif not _stat.S_ISDIR(tst.st_mode):
                await cp.err(f"cannot overwrite non-directory {q(target)} with directory "
                             f"{q(item.path)}")
                item.prune = True
            else:
                pending_dirs[item.path] = (est, False)
            continue
        await copy_file(cp, item.path, target, est, in_tree=True)
    await _fix_dir(cp, dst, sst, created)
    if skip_key is not None:
        await cp.err(f"cannot copy a directory, {q(src)}, into itself, {q(dst)}")


async def _fix_dir(cp: Cp, path: str, st, created: bool) -> None:
    fs = cp.fs
    mode = _stat.S_IMODE(st.st_mode)
    try:
        if cp.preserve_mode:
            fs.chmod(path, mode)
        elif created:
            want = mode & ~cp.shell.umask
            if want != (want | 0o700):
                fs.chmod(path, want)
        if cp.preserve_times:
            fs.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    except FileSystemError as e:
        await cp.err(f"preserving times for {q(path)}: {strerror(e)}")


def _canon_missing(fs, path: str) -> str:
    """Canonical form of a path whose last components may not exist yet."""
    parts = []
    p = path.rstrip("/") or "/"
    while True:
        try:
            base = fs.realpath(p)
            break
        except FileSystemError:
            if "/" not in p.strip("/"):
                base = fs.realpath(".") if not p.startswith("/") else "/"
                parts.append(p.strip("/"))
                break
            p, _, leaf = p.rpartition("/")
            parts.append(leaf)
            p = p or "/"
    for leaf in reversed(parts):
        base = join(base, leaf)
    return base
