"""tar, gzip/gunzip/zcat, zip, unzip on the stdlib (tarfile, gzip, bz2, lzma, zipfile).

Extraction never hands a path to the library: members are read from the
archive object and written by this module through the core, one by one:

* a member name that is absolute or contains ``..`` is refused;
* every directory a member lands in is resolved by the core and must be
  inside the (canonical) destination, so an archive cannot plant a symlink
  and then write through it, and a pre-existing link cannot redirect it;
* symlink targets and hard-link sources must resolve inside the destination;
* devices, FIFOs and other special members are refused;
* modes are masked to ``0o777 & ~umask`` (no setuid/setgid/sticky), and
  ownership is never applied;
* the member count is capped by the run's array limit, bytes by its file and
  total-written limits (``Budget.count_written``);
* leaves are created with ``O_NOFOLLOW``/``O_EXCL`` relative to a held,
  verified directory fd (``_common.HeldDir``).

Messages name members and virtual paths only. Archives we write carry the
sandbox's synthetic owner (``user``/``user``, 1000/1000), never the host's.
"""

from __future__ import annotations

import calendar
import errno
import io
import os
import posixpath
import re
import stat as _stat
import time

from pysh.ports import _common
from pysh.ports._common import HeldDir, Out
from pysh.shellkit import FileSystemError, LimitExceeded, Shell, decode, encode
from pysh.shellkit.capped import door_file
from pysh.shellkit.portout import raw_output

UID = GID = 1000
UNAME = GNAME = "user"


class Refused(Exception):
    """A member that is not extracted; ``str()`` is the message after ``prog: ``."""


class LinkRefused(Refused):
    """A link member that was not made; ``code`` is the errno (unzip prints only that)."""

    def __init__(self, message: str, code: int = errno.EPERM):
        super().__init__(message)
        self.code = code


class ArchiveError(Exception):
    pass


# --------------------------------------------------------------- helpers
def _strerror(e: OSError) -> str:
    return os.strerror(e.errno or errno.EIO)


def _norm_member(name: str) -> str:
    """Refuse absolute names and '..'; return the normalized relative name."""
    if name.startswith("/") or name.startswith("\\"):
        raise Refused(f"{name}: Member name is absolute, refusing to extract it")
    parts = [p for p in name.replace("\\", "/").split("/") if p not in ("", ".")]
    if ".." in parts:
        raise Refused(f"{name}: Member name contains '..'")
    return "/".join(parts)


class Extractor:
    """Writes members under a destination directory, through the core."""

    def __init__(self, shell: Shell, dest: str, prog: str, create: bool = False):
        self.shell = shell
        self.prog = prog
        self.dest_v = posixpath.normpath(shell.abspath(dest))
        if create and not _common.vexists(shell, self.dest_v):
            self._make_dest(dest)
        try:
            canon = _common.vrealpath(shell, self.dest_v)
        except FileSystemError as e:
            raise ArchiveError(f"{dest}: Cannot open: {os.strerror(e.errno)}") from None
        if not _common.vis_dir(shell, self.dest_v):
            code = errno.ENOTDIR if _common.vexists(shell, self.dest_v) else errno.ENOENT
            raise ArchiveError(f"{dest}: Cannot open: {os.strerror(code)}")
        self.dest_canon = canon.rstrip("/") or "/"
        self.count = 0
        self.dir_times: list[tuple[str, float]] = []
        # member directories already made or checked in this run (a leaf's own parent is
        # still re-checked by _held() for every file)
        self.known_dirs: set[str] = set()
        limits = shell.budget.limits
        self.max_members = limits.max_array_size
        self.max_file = limits.max_file_size

    def _make_dest(self, dest: str) -> None:
        parts = [p for p in self.dest_v.split("/") if p]
        for i in range(1, len(parts) + 1):
            sub = "/" + "/".join(parts[:i])
            if _common.vexists(self.shell, sub):
                continue
            try:
                host = self.shell.resolve(sub, follow=False, write=True)
                with HeldDir(host, sub) as d:
                    d.mkdir(0o777 & ~self.shell.umask)
            except FileSystemError as e:
                raise ArchiveError(f"{dest}: Cannot create: {os.strerror(e.errno)}") from None

    def _inside(self, vcanon: str) -> bool:
        d = self.dest_canon
        return vcanon == d or vcanon.startswith(d.rstrip("/") + "/")

    def _vpath(self, rel: str) -> str:
        return self.dest_v.rstrip("/") + "/" + rel if rel else self.dest_v

    def _held(self, rel: str, shown: str) -> HeldDir:
        """The verified parent directory of member ``rel``, checked to lie in the destination."""
        vpath = self._vpath(rel)
        parent_v = posixpath.dirname(vpath)
        try:
            canon_parent = _common.vrealpath(self.shell, parent_v)
        except FileSystemError as e:
            raise Refused(f"{shown}: Cannot open: {os.strerror(e.errno)}") from None
        if not self._inside(canon_parent):
            raise Refused(f"{shown}: Cannot open: refusing to write outside the destination "
                          "(through a symbolic link)")
        try:
            host = self.shell.resolve(vpath, follow=False, write=True)
            return HeldDir(host, vpath)
        except FileSystemError as e:
            raise Refused(f"{shown}: Cannot open: {os.strerror(e.errno)}") from None

    def count_member(self) -> None:
        self.count += 1
        if self.count > self.max_members:
            raise LimitExceeded("archive", f"{self.max_members} members")
        self.shell.budget.check()

    def mkdirs(self, rel: str, shown: str, mode: int = 0o777) -> None:
        parts = rel.split("/") if rel else []
        for i in range(1, len(parts) + 1):
            sub = "/".join(parts[:i])
            if sub in self.known_dirs:
                continue
            self._ensure_dir(sub, shown, mode if i == len(parts) else 0o777)
            self.known_dirs.add(sub)

    def _ensure_dir(self, sub: str, shown: str, mode: int) -> None:
        with self._held(sub, shown) as d:
            try:
                st = d.lstat()
            except FileSystemError:
                st = None
            if st is not None and _stat.S_ISDIR(st.st_mode):
                return
            if st is not None and _stat.S_ISLNK(st.st_mode):
                # a link is fine only when it leads to a directory inside the destination
                try:
                    canon = _common.vrealpath(self.shell, self._vpath(sub))
                except FileSystemError:
                    canon = ""
                if self._inside(canon) and _common.vis_dir(self.shell, self._vpath(sub)):
                    return
                raise Refused(f"{shown}: Cannot open: refusing to write outside the "
                              "destination (through a symbolic link)")
            if st is not None:
                d.unlink()
            try:
                d.mkdir(mode & ~self.shell.umask & 0o777)
            except FileSystemError as e:
                if e.errno != errno.EEXIST:
                    raise Refused(f"{shown}: Cannot mkdir: {os.strerror(e.errno)}") from None

    def write_file(self, rel: str, shown: str, src, mode: int, mtime: float | None,
                   size_hint: int | None = None) -> None:
        if self.max_file is not None and size_hint is not None and size_hint > self.max_file:
            raise LimitExceeded("file size", f"{self.max_file} bytes")
        parent = posixpath.dirname(rel)
        if parent:
            self.mkdirs(parent, shown)
        with self._held(rel, shown) as d:
            try:
                st = d.lstat()
            except FileSystemError:
                st = None
            if st is not None:
                if _stat.S_ISDIR(st.st_mode):
                    raise Refused(f"{shown}: Cannot open: {os.strerror(errno.EISDIR)}")
                d.unlink()  # GNU tar replaces files and links (it never writes through them)
            try:
                fd = d.open(os.O_WRONLY | os.O_CREAT | os.O_EXCL,
                            mode & 0o777 & ~self.shell.umask)
            except FileSystemError as e:
                raise Refused(f"{shown}: Cannot open: {os.strerror(e.errno)}") from None
            try:
                while True:
                    chunk = src.read(1 << 20)
                    if not chunk:
                        break
                    self.shell.budget.check()
                    _common.write_all(fd, chunk, self.shell.budget)
            finally:
                os.close(fd)
            if mtime is not None:
                try:
                    d.utime(mtime)
                except FileSystemError:
                    pass

    def forget(self, rel: str) -> None:
        self.known_dirs = {d for d in self.known_dirs if d != rel and not d.startswith(rel + "/")}

    def symlink(self, rel: str, shown: str, target: str) -> None:
        """A link member, made through the core (which refuses any link out of its mount).

        Stricter than the core: an absolute target, or one leading out of the
        destination, is refused too, with the same EPERM as the core's refusal.
        """
        self.forget(rel)
        refused = LinkRefused(f"{shown}: Cannot create symlink to '{target}': "
                              f"{os.strerror(errno.EPERM)}")
        if target.startswith("/"):
            raise refused
        link_dir = posixpath.dirname(self._vpath(rel))
        try:
            canon_dir = _common.vrealpath(self.shell, link_dir) if _common.vexists(self.shell, link_dir) \
                else link_dir
        except FileSystemError:
            canon_dir = link_dir
        dest_of = posixpath.normpath(posixpath.join(canon_dir, target))
        if not self._inside(dest_of):
            raise refused
        parent = posixpath.dirname(rel)
        if parent:
            self.mkdirs(parent, shown)
        with self._held(rel, shown) as d:
            try:
                st = d.lstat()
            except FileSystemError:
                st = None
            if st is not None and not _stat.S_ISDIR(st.st_mode):
                d.unlink()
        try:
            self.shell.fs.symlink(target, self._vpath(rel))
        except FileSystemError as e:
            raise LinkRefused(f"{shown}: Cannot create symlink to '{target}': "
                              f"{os.strerror(e.errno)}", e.errno) from None

    def hardlink(self, rel: str, shown: str, target_rel: str) -> None:
        src_v = self._vpath(target_rel)
        try:
            canon = _common.vrealpath(self.shell, posixpath.dirname(src_v))
        except FileSystemError as e:
            raise Refused(f"{shown}: Cannot hard link to '{target_rel}': "
                          f"{os.strerror(e.errno)}") from None
        if not self._inside(canon):
            raise Refused(f"{shown}: Cannot hard link to '{target_rel}': it is outside the "
                          "destination")
        parent = posixpath.dirname(rel)
        if parent:
            self.mkdirs(parent, shown)
        with self._held(target_rel, shown) as s, self._held(rel, shown) as d:
            try:
                sst = s.lstat()
            except FileSystemError as e:
                raise Refused(f"{shown}: Cannot hard link to '{target_rel}': "
                              f"{os.strerror(e.errno)}") from None
            if not _stat.S_ISREG(sst.st_mode):
                raise Refused(f"{shown}: Cannot hard link to '{target_rel}': not a regular file")
            try:
                if d.lstat():
                    d.unlink()
            except FileSystemError:
                pass
            try:
                os.link(s.name, d.name, src_dir_fd=s.fd, dst_dir_fd=d.fd, follow_symlinks=False)
            except OSError as e:
                raise Refused(f"{shown}: Cannot hard link to '{target_rel}': "
                              f"{_strerror(e)}") from None

    def finish(self) -> None:
        for rel, mtime in reversed(self.dir_times):
            try:
                with self._held(rel, rel) as d:
                    d.utime(mtime)
            except (Refused, FileSystemError):
                pass


def _open_in(shell: Shell, vpath: str):
    fd = _common.open_read(shell, vpath)
    return os.fdopen(fd, "rb")


async def _read_stdin(shell: Shell) -> bytes:
    buf = bytearray()
    cap = shell.budget.limits.max_string_length
    async for chunk in shell.stdin.chunks():
        buf += chunk
        shell.budget.check()
        if len(buf) > cap:
            raise LimitExceeded("string", f"{cap} bytes")
    return bytes(buf)


# ===================================================================== tar
TAR_HELP = """Usage: tar [OPTION...] [FILE]...
pysh's tar: create, list and extract archives (tarfile).

  -c, --create               create a new archive
  -t, --list                 list the contents of an archive
  -x, --extract, --get       extract files from an archive
  -f, --file=ARCHIVE         use archive file ARCHIVE ('-': stdin/stdout)
  -z, --gzip                 filter the archive through gzip
  -j, --bzip2                filter the archive through bzip2
  -J, --xz                   filter the archive through xz
  -v, --verbose              verbosely list files processed
  -C, --directory=DIR        change to directory DIR
  -O, --to-stdout            extract files to standard output
      --strip-components=NUMBER   strip NUMBER leading components from file names
  -h, --dereference          follow symlinks; archive the files they point to
  -k, --keep-old-files       don't replace existing files when extracting
  -T, --files-from=FILE      get names to extract or create from FILE ('-': stdin)
      --null                 -T reads null-terminated names
  -X, --exclude-from=FILE    exclude patterns listed in FILE
      --exclude=PATTERN      exclude files matching PATTERN
"""

TAR_TRY = "Try 'tar --help' or 'tar --usage' for more information.\n"


# -T/--files-from names a list whose names stand where the option stood among the operands,
# so it is taken out before option parsing and left in the operands as a marker (argv never
# holds a NUL, so no real operand can look like one).
_LIST_MARK = "\0T"


def _files_from_markers(args: list[str]) -> list[str]:
    out: list[str] = []
    i = 0
    while i < len(args):
        a = args[i]
        i += 1
        if a == "--":
            out += args[i - 1:]
            break
        if a.startswith("--files-from"):
            if a.startswith("--files-from="):
                out.append(_LIST_MARK + a[len("--files-from="):])
                continue
            if a == "--files-from" and i < len(args):
                out.append(_LIST_MARK + args[i])
                i += 1
                continue
        if a.startswith("-") and not a.startswith("--") and "T" in a:
            letters = a[1:]
            for k, ch in enumerate(letters):
                if ch in "fCX":  # the rest of the word is this option's argument
                    break
                if ch == "T":
                    value = letters[k + 1:]
                    if not value and i < len(args):
                        value = args[i]
                        i += 1
                    if k:
                        out.append("-" + letters[:k])
                    out.append(_LIST_MARK + value)
                    break
            else:
                out.append(a)
            continue
        out.append(a)
    return out


async def _expand_files_from(shell, operands: list[str], null: bool) -> list[str]:
    """Each -T marker becomes the names its list holds (one per line, or NUL-separated with
    --null; '-' reads stdin)."""
    names: list[str] = []
    for op in operands:
        if not op.startswith(_LIST_MARK):
            names.append(op)
            continue
        name = op[len(_LIST_MARK):]
        try:
            data = await _read_stdin(shell) if name == "-" else _common.read_file(shell, name)
        except OSError as e:
            raise ArchiveError(f"{name}: Cannot stat: {_strerror(e)}") from None
        names += [n for n in decode(data).split("\0" if null else "\n") if n]
    return names


def _tar_args(argv: list[str]):
    args = list(argv[1:])
    # old-style: the first argument's letters are options even without a dash
    if args and not args[0].startswith("-"):
        first = args.pop(0)
        rest = []
        for ch in first:
            rest.append("-" + ch)
            if ch in "fC":
                if args:
                    rest.append(args.pop(0))
        args = rest + args
    args = _files_from_markers(args)
    from pysh.shellkit.options import parse_options

    return parse_options(args, "ctxf:zjJvC:OhkpaX:", {
        "create": "c", "list": "t", "extract": "x", "get": "x", "file=": "f", "gzip": "z",
        "gunzip": "z", "bzip2": "j", "xz": "J", "verbose": "v", "directory=": "C",
        "to-stdout": "O", "strip-components=": "strip", "dereference": "h",
        "keep-old-files": "k", "help": "help", "no-same-owner": "p", "preserve-permissions": "p",
        "same-permissions": "p", "auto-compress": "a", "sort=": "sort", "version": "version",
        "no-same-permissions": "p", "overwrite": "overwrite", "numeric-owner": "numeric-owner",
        "exclude=": "exclude", "exclude-vcs": "exclude-vcs", "exclude-from=": "X",
        "wildcards": "wildcards", "no-wildcards": "no-wildcards", "anchored": "anchored",
        "no-anchored": "no-anchored", "transform=": "transform", "xform=": "transform",
        "owner=": "owner", "group=": "group", "mtime=": "mtime", "zstd": "zstd",
        "lzma": "lzma", "lzip": "lzip", "lzop": "lzop", "null": "null", "no-null": "no-null",
    })


def _mode_string(mode: int, kind: str) -> str:
    t = {"d": "d", "l": "l", "h": "h", "c": "c", "b": "b", "p": "p"}.get(kind, "-")
    if kind == "h":
        t = "h"
    s = [t]
    for shift in (6, 3, 0):
        bits = (mode >> shift) & 7
        s.append("r" if bits & 4 else "-")
        s.append("w" if bits & 2 else "-")
        s.append("x" if bits & 1 else "-")
    if mode & 0o4000:
        s[3] = "s" if s[3] == "x" else "S"
    if mode & 0o2000:
        s[6] = "s" if s[6] == "x" else "S"
    if mode & 0o1000:
        s[9] = "t" if s[9] == "x" else "T"
    return "".join(s)


def _tar_long(m, numeric: bool = False) -> str:
    kind = "d" if m.isdir() else "l" if m.issym() else "h" if m.islnk() else \
        "c" if m.ischr() else "b" if m.isblk() else "p" if m.isfifo() else "-"
    if kind == "h":
        kind = "-"
        prefix = "h"
    else:
        prefix = None
    modes = _mode_string(m.mode, kind)
    if prefix:
        modes = "h" + modes[1:]
    owner = f"{m.uid}/{m.gid}" if numeric else f"{m.uname or m.uid}/{m.gname or m.gid}"
    size = str(m.size) if not (m.ischr() or m.isblk()) else f"{m.devmajor},{m.devminor}"
    width = max(19, len(owner) + 1 + len(size))
    pad = " " * (width - len(owner) - len(size))
    when = time.strftime("%Y-%m-%d %H:%M", time.gmtime(m.mtime))
    name = m.name + ("/" if m.isdir() and not m.name.endswith("/") else "")
    line = f"{modes} {owner}{pad}{size} {when} {name}"
    if m.issym():
        line += f" -> {m.linkname}"
    elif m.islnk():
        line += f" link to {m.linkname}"
    return line


async def tar_main(shell: Shell, argv: list[str]) -> int:
    from pysh.shellkit.options import OptionError

    err = Out(shell.stderr)
    try:
        opts, operands = _tar_args(argv)
    except OptionError as e:
        await shell.stderr.write(encode(f"tar: {e}\n{TAR_TRY}"))
        return 2
    o: dict = {}
    for k, v in opts:
        if k in ("C", "exclude", "X", "transform"):
            o.setdefault(k, []).append(v)
        else:
            o[k] = v if v is not None else True
    for codec in ("zstd", "lzma", "lzip", "lzop"):
        if codec in o:
            await shell.stderr.write(encode(f"tar: --{codec}: this compression is not available "
                                            f"in the sandbox (gzip -z, bzip2 -j, xz -J are)\n"
                                            f"{TAR_TRY}"))
            return 2
    try:
        o["filters"] = await _tar_filters(shell, o)
    except ArchiveError as e:
        await shell.stderr.write(encode(shell.display(f"tar: {e}\n{TAR_TRY}")))
        return 2
    if "help" in o:
        await shell.stdout.write(encode(TAR_HELP))
        return 0
    if "version" in o:
        await shell.stdout.write(b"tar (pysh port) 1.34\n")
        return 0
    modes = [k for k in ("c", "t", "x") if k in o]
    if len(modes) != 1:
        msg = "You must specify one of the '-Acdtrux', '--delete' or '--test-label' options" \
            if not modes else "You may not specify more than one '-Acdtrux', '--delete' or  " \
            "'--test-label' option"
        await shell.stderr.write(encode(f"tar: {msg}\n{TAR_TRY}"))
        return 2
    mode = modes[0]
    strip = 0
    if "strip" in o:
        try:
            strip = int(o["strip"])
        except ValueError:
            await shell.stderr.write(encode(f"tar: Invalid number of elements: "
                                            f"'{o['strip']}'\n{TAR_TRY}"))
            return 2
    status = 0
    cdir = o.get("C", [None])[-1]
    try:
        if any(op.startswith(_LIST_MARK) for op in operands):
            null = "null" in o and "no-null" not in o
            operands = await _expand_files_from(shell, operands, null)
        if mode == "c":
            status = await _tar_create(shell, o, operands, cdir, err)
        else:
            status = await _tar_read(shell, o, operands, cdir, mode, strip, err)
    except ArchiveError as e:
        await err.write(encode(shell.display(f"tar: {e}\n")))
        await err.write(b"tar: Error is not recoverable: exiting now\n")
        status = 2
    if status == 2 and "fatal" not in o:
        pass
    await err.flush()
    return status


def _compression(o: dict, for_write: bool) -> str:
    if "z" in o:
        return "gz"
    if "j" in o:
        return "bz2"
    if "J" in o:
        return "xz"
    return ""


async def _tar_read(shell, o, operands, cdir, mode, strip, err: Out) -> int:
    import tarfile

    archive = o.get("f", "-")
    if archive is True:
        archive = "-"
    if archive == "-":
        f = io.BytesIO(await _read_stdin(shell))
    else:
        try:
            f = _open_in(shell, archive)
        except OSError as e:
            raise ArchiveError(f"{archive}: Cannot open: {_strerror(e)}") from None
    status = 0
    out = Out(raw_output(shell.stdout), shell.budget)  # member data (-O) is not folded
    wanted = [w.rstrip("/") for w in operands]
    found = set()
    try:
        try:
            tf = tarfile.open(fileobj=f, mode="r:*")
        except (tarfile.TarError, EOFError, OSError):
            raise ArchiveError("This does not look like a tar archive") from None
        ex = None
        if mode == "x" and "O" not in o:
            dest = cdir or "."
            ex = Extractor(shell, dest, "tar")
        count = 0
        try:
            for m in tf:
                count += 1
                if ex is not None:
                    ex.count_member()
                elif count > shell.budget.limits.max_array_size:
                    raise LimitExceeded("archive", "too many members")
                shell.budget.check()
                name = m.name
                filters = o["filters"]
                if filters.excluded(name):
                    continue
                if wanted:
                    hit = [w for w in wanted if filters.wanted(w, name)]
                    if not hit:
                        continue
                    found.update(hit)
                name = filters.rename(name)
                if strip:
                    parts = [p for p in name.split("/") if p]
                    if len(parts) <= strip:
                        continue
                    name = "/".join(parts[strip:]) + ("/" if m.isdir() else "")
                if mode == "t":
                    line = _tar_long(m, "numeric-owner" in o) if "v" in o else name + (
                        "/" if m.isdir() and not name.endswith("/") else "")
                    await out.write(encode(line) + b"\n")
                    continue
                if "O" in o:
                    if m.isfile():
                        src = tf.extractfile(m)
                        while True:
                            chunk = src.read(1 << 20)
                            if not chunk:
                                break
                            await out.write(chunk)
                    continue
                if "v" in o:
                    await out.write(encode(m.name) + (b"/" if m.isdir() and not
                                                      m.name.endswith("/") else b"") + b"\n")
                try:
                    await _extract_member(shell, tf, m, name, ex, o, strip)
                except Refused as r:
                    await err.write(encode(shell.display(f"tar: {r}\n")))
                    status = 2
        except tarfile.TarError as e:
            await err.write(encode(f"tar: {type(e).__name__}: archive is damaged\n"))
            status = 2
        except (EOFError, OSError) as e:
            if isinstance(e, FileSystemError):
                raise
            await err.write(b"tar: Unexpected EOF in archive\n")
            status = 2
        if ex is not None:
            ex.finish()
    finally:
        f.close()
    await out.flush()
    for w in wanted:
        if w not in found:
            await err.write(encode(f"tar: {w}: Not found in archive\n"))
            status = 2
    if status == 2:
        await err.write(b"tar: Exiting with failure status due to previous errors\n")
    return status


async def _extract_member(shell, tf, m, name: str, ex: Extractor, o: dict,
                          strip: int = 0) -> None:
    rel = _norm_member(name)
    shown = name
    if not rel:
        return
    if m.isdir():
        ex.mkdirs(rel, shown, m.mode & 0o777 | 0o700)
        ex.dir_times.append((rel, m.mtime))
        return
    if m.issym():
        ex.symlink(rel, shown, m.linkname)
        return
    if m.islnk():
        target = _norm_member(m.linkname)
        if strip:
            target = "/".join(target.split("/")[strip:])
        ex.hardlink(rel, shown, target)
        return
    if m.ischr() or m.isblk() or m.isfifo():
        raise Refused(f"{shown}: Cannot mknod: refusing to create a device or FIFO")
    if not m.isfile():
        raise Refused(f"{shown}: Unknown file type; file ignored")
    if "k" in o and _common.vexists(shell, ex._vpath(rel), follow=False):
        raise Refused(f"{shown}: Cannot open: File exists")
    src = tf.extractfile(m)
    ex.write_file(rel, shown, src, m.mode, m.mtime, m.size)


async def _tar_create(shell, o, operands, cdir, err: Out) -> int:
    import tarfile

    if not operands:
        await err.write(b"tar: Cowardly refusing to create an empty archive\n" + encode(TAR_TRY))
        return 2
    archive = o.get("f", "-")
    comp = _compression(o, True)
    if "a" in o and archive not in ("-", True) and not comp:
        for suf, c in ((".tgz", "gz"), (".tar.gz", "gz"), (".tbz2", "bz2"), (".tar.bz2", "bz2"),
                       (".txz", "xz"), (".tar.xz", "xz")):
            if archive.endswith(suf):
                comp = c
    to_stdout = archive in ("-", True)
    if to_stdout:
        fobj = io.BytesIO()
    else:
        try:
            fd = _common.open_write(shell, archive)
        except OSError as e:
            raise ArchiveError(f"{archive}: Cannot open: {_strerror(e)}") from None
        fobj = door_file(fd, "wb", shell.budget, archive)  # within the write limits
    status = 0
    out = Out(shell.stdout if not to_stdout else shell.stderr, shell.budget)
    base = posixpath.normpath(shell.abspath(cdir)) if cdir else shell.cwd
    archive_canon = None
    if not to_stdout:
        try:
            archive_canon = _common.vrealpath(shell, archive)
        except OSError:
            pass
    try:
        mode = "w:" + comp if comp else "w"
        kwargs = {"compresslevel": 6} if comp in ("gz", "bz2") else {}
        tf = tarfile.open(fileobj=fobj, mode=mode, format=tarfile.GNU_FORMAT, **kwargs)
        removed_note = False
        try:
            for op in operands:
                name = op
                if name.startswith("/"):
                    if not removed_note:
                        await err.write(b"tar: Removing leading `/' from member names\n")
                        removed_note = True
                    name = name.lstrip("/")
                vpath = posixpath.join(base, op)
                try:
                    st = _common.vstat(shell, vpath) if "h" in o else _common.vstat(shell, vpath, follow=False)
                except FileSystemError as e:
                    await err.write(encode(f"tar: {op}: Cannot stat: {os.strerror(e.errno)}\n"))
                    status = 2
                    continue
                filters = o["filters"]
                for member_name, mvpath, mst in _collect(shell, vpath, name, st, "h" in o,
                                                         filters.excluded):
                    shell.budget.check()
                    if archive_canon is not None and _stat.S_ISREG(mst.st_mode):
                        try:
                            if _common.vrealpath(shell, mvpath) == archive_canon:
                                await err.write(encode(f"tar: {member_name}: file is the "
                                                       "archive; not dumped\n"))
                                continue
                        except OSError:
                            pass
                    try:
                        _add_member(shell, tf, filters.rename(member_name), mvpath, mst,
                                    filters)
                    except OSError as e:
                        what = "readlink" if _stat.S_ISLNK(mst.st_mode) else "open"
                        await err.write(encode(f"tar: {member_name}: Cannot {what}: "
                                               f"{_strerror(e)}\n"))
                        status = 2
                        continue
                    if "v" in o:
                        shown = member_name + ("/" if _stat.S_ISDIR(mst.st_mode) else "")
                        await out.write(encode(shown) + b"\n")
        finally:
            tf.close()
    finally:
        if to_stdout:
            data = fobj.getvalue()
            await out.flush()
            await raw_output(shell.stdout).write(data)
        else:
            fobj.close()
    await out.flush()
    if status == 2:
        await err.write(b"tar: Exiting with failure status due to previous errors\n")
    return status


def _collect(shell, vpath: str, name: str, st, deref: bool, excluded=None):
    """(member name, virtual path, stat) of ``vpath`` and, for a directory, its tree (sorted);
    an excluded name is left out with everything under it."""
    if excluded is not None and excluded(name):
        return
    yield name, vpath, st
    if not _stat.S_ISDIR(st.st_mode):
        return
    entries = []
    try:
        listing = sorted(_common.vlistdir(shell, vpath), key=lambda e: encode(e[0]))
    except OSError:
        return
    for ename, _ in listing:
        sub_v = vpath.rstrip("/") + "/" + ename
        sub_n = name.rstrip("/") + "/" + ename if name else ename
        try:
            sst = _common.vstat(shell, sub_v) if deref else _common.vstat(shell, sub_v, follow=False)
        except OSError:
            continue
        entries.append((sub_n, sub_v, sst))
    for sub_n, sub_v, sst in entries:
        yield from _collect(shell, sub_v, sub_n, sst, deref, excluded)


def _add_member(shell, tf, name: str, vpath: str, st, filters=None) -> None:
    import tarfile

    ti = tarfile.TarInfo(name)
    ti.mtime = int(st.st_mtime)
    ti.mode = st.st_mode & 0o7777
    ti.uid, ti.gid, ti.uname, ti.gname = UID, GID, UNAME, GNAME
    if filters is not None:
        filters.stamp(ti)
    if _stat.S_ISDIR(st.st_mode):
        ti.type = tarfile.DIRTYPE
        tf.addfile(ti)
    elif _stat.S_ISLNK(st.st_mode):
        ti.type = tarfile.SYMTYPE
        ti.linkname = _readlink(shell, vpath)
        tf.addfile(ti)
    elif _stat.S_ISREG(st.st_mode):
        ti.size = st.st_size
        with _open_in(shell, vpath) as f:
            real = os.fstat(f.fileno()).st_size
            ti.size = real
            tf.addfile(ti, f)
    else:
        raise FileSystemError(errno.EPERM, vpath)


# --exclude-vcs: GNU tar 1.34's list
VCS_NAMES = ("CVS", "RCS", "SCCS", ".git", ".gitignore", ".gitattributes", ".gitmodules",
             ".cvsignore", ".svn", ".arch-ids", "{arch}", "=RELEASE-ID", "=meta-update",
             "=update", ".bzr", ".bzrignore", ".bzrtags", ".hg", ".hgignore", ".hgtags", "_darcs")


class _TarFilters:
    """--exclude*, --wildcards, --transform, --owner/--group/--mtime."""

    def __init__(self):
        self.excludes: list = []  # compiled name patterns
        self.member_globs = False
        self.transforms: list = []
        self.owner = self.group = None
        self.mtime = None

    def excluded(self, name: str) -> bool:
        if not self.excludes:
            return False
        name = name.rstrip("/")
        while name.startswith("./"):
            name = name[2:]
        parts = name.split("/")
        # unanchored (any tail after a '/') with FNM_LEADING_DIR (or a leading directory of
        # it), as tar excludes by default: 'build' drops proj/build and all under it
        pieces = ["/".join(parts[i:j]) for i in range(len(parts))
                  for j in range(i + 1, len(parts) + 1)]
        return any(rx.fullmatch(t) for rx in self.excludes for t in pieces)

    def wanted(self, operand: str, name: str) -> bool:
        name = name.rstrip("/")
        if self.member_globs:
            import fnmatch

            rx = re.compile(fnmatch.translate(operand))
            return bool(rx.match(name)) or any(rx.match("/".join(name.split("/")[:i]))
                                               for i in range(1, name.count("/") + 1))
        return name == operand or name.startswith(operand + "/")

    def rename(self, name: str) -> str:
        for rx, repl, count in self.transforms:
            name = rx.sub(repl, name, count=count)
        return name

    def stamp(self, ti) -> None:
        if self.owner is not None:
            ti.uname, ti.uid = self.owner
        if self.group is not None:
            ti.gname, ti.gid = self.group
        if self.mtime is not None:
            ti.mtime = self.mtime


async def _tar_filters(shell, o: dict) -> _TarFilters:
    import fnmatch

    f = _TarFilters()
    pats = list(o.get("exclude", []))
    for name in o.get("X", []):
        try:
            data = await _read_stdin(shell) if name == "-" else _common.read_file(shell, name)
        except OSError as e:
            raise ArchiveError(f"{name}: Cannot open: {_strerror(e)}") from None
        pats += [p for p in decode(data).split("\n") if p]
    if "exclude-vcs" in o:
        pats += VCS_NAMES
    f.excludes = [re.compile(fnmatch.translate(p.rstrip("/")), re.S) for p in pats]
    f.member_globs = "wildcards" in o and "no-wildcards" not in o
    for expr in o.get("transform", []):
        for part in _split_transforms(expr):
            f.transforms.append(_transform(part))
    for key in ("owner", "group"):
        if key in o:
            name, _, num = o[key].partition(":")
            uid = int(num) if num.isdigit() else (int(name) if name.isdigit() else
                                                    UID if key == "owner" else GID)
            setattr(f, key, (name if not name.isdigit() else "", uid))
    if "mtime" in o:
        f.mtime = _parse_mtime(shell, o["mtime"])
    return f


def _split_transforms(expr: str) -> list[str]:
    """tar allows several s/// expressions separated by ';'."""
    out, i = [], 0
    while i < len(expr):
        if expr[i] != "s" or i + 1 >= len(expr):
            raise ArchiveError(f"Invalid transform expression: {expr}")
        d = expr[i + 1]
        j, seen = i + 2, 0
        while j < len(expr) and seen < 2:
            if expr[j] == "\\":
                j += 2
                continue
            if expr[j] == d:
                seen += 1
            j += 1
        while j < len(expr) and expr[j] != ";":
            j += 1
        out.append(expr[i:j])
        i = j + 1
    return out


def _transform(expr: str):
    """One sed-style ``s/REGEX/REPL/FLAGS`` (BRE unless x) as (regex, template, count)."""
    from pysh.shellkit.regex import RegexError, compile_posix

    d = expr[1]
    parts, cur, i = [], [], 2
    while i < len(expr):
        c = expr[i]
        if c == "\\" and i + 1 < len(expr):
            cur.append(expr[i + 1] if expr[i + 1] == d else expr[i:i + 2])
            i += 2
            continue
        if c == d and len(parts) < 2:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(c)
        i += 1
    if len(parts) != 2:
        raise ArchiveError(f"Invalid transform expression: {expr}")
    flags = "".join(cur)
    if any(c not in "gixrshSRH0123456789" for c in flags):
        raise ArchiveError(f"Unknown flag in transform expression: {flags}")
    try:
        rx = compile_posix(parts[0], extended="x" in flags, icase="i" in flags).raw
    except RegexError:
        raise ArchiveError(f"Invalid transform expression: {expr}") from None
    digits = "".join(c for c in flags if c.isdigit())
    count = 0 if "g" in flags else int(digits) if digits else 1
    repl = parts[1]

    def template(m, repl=repl):
        out, k = [], 0
        while k < len(repl):
            c = repl[k]
            if c == "\\" and k + 1 < len(repl):
                n = repl[k + 1]
                out.append((m.group(int(n)) or "") if n.isdigit() else n)
                k += 2
                continue
            out.append(m.group(0) if c == "&" else c)
            k += 1
        return "".join(out)
    if digits and "g" not in flags and int(digits) > 1:  # the Nth match only
        nth = int(digits)

        class _Nth:
            def sub(self, fn, name, count=0):
                seen = [0]

                def one(m):
                    seen[0] += 1
                    return fn(m) if seen[0] == nth else m.group(0)
                return rx.sub(one, name)
        return _Nth(), template, 0
    return rx, template, count


def _parse_mtime(shell, text: str) -> int:
    """--mtime: @EPOCH, an ISO date (UTC unless TZ says otherwise), or a file's mtime."""
    import calendar
    import datetime as _dt

    t = text.strip()
    if t.startswith("@"):
        try:
            return int(float(t[1:]))
        except ValueError:
            pass
    for fmt in ("%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%d", "%Y-%m-%dT%H:%M:%S"):
        try:
            d = _dt.datetime.strptime(t, fmt)
            return calendar.timegm(d.timetuple())
        except ValueError:
            continue
    if t.startswith(("/", ".")):
        try:
            return int(_common.vstat(shell, t).st_mtime)
        except OSError:
            pass
    raise ArchiveError(f"--mtime: unknown date format '{text}': use @EPOCH or "
                       "YYYY-MM-DD[ HH:MM[:SS]] or a file name")


def _readlink(shell, vpath: str) -> str:
    """A link's text as the core shows it (readlink): an absolute target in a mount comes
    back virtual, one that would tell where the sandbox lives on the host is refused."""
    try:
        return shell.core.readlink(shell.abspath(vpath))
    except FileSystemError as e:
        raise FileSystemError(e.errno, vpath) from None


# ==================================================================== gzip
GZIP_HELP = """Usage: gzip [OPTION]... [FILE]...
Compress or uncompress FILEs (by default, compress FILES in-place).

  -c, --stdout      write on standard output, keep original files unchanged
  -d, --decompress  decompress
  -f, --force       force overwrite of output file
  -k, --keep        keep (don't delete) input files
  -l, --list        list compressed file contents
  -n, --no-name     do not save or restore the original name and timestamp
  -N, --name        save or restore the original name and timestamp
  -q, --quiet       suppress all warnings
  -1 .. -9          compression level
"""


async def gzip_main(shell: Shell, argv: list[str]) -> int:
    import gzip

    from pysh.shellkit.options import OptionError, parse_options

    invoked = posixpath.basename(argv[0])
    prog = "gzip"  # gunzip and zcat report as gzip
    try:
        opts, files = parse_options(argv[1:], "cdfklnNqrtv123456789", {
            "stdout": "c", "to-stdout": "c", "decompress": "d", "uncompress": "d", "force": "f",
            "keep": "k", "list": "l", "no-name": "n", "name": "N", "quiet": "q", "help": "h",
            "test": "t", "verbose": "v", "fast": "1", "best": "9", "recursive": "r",
            "version": "V"})
    except OptionError as e:
        await shell.stderr.write(encode(f"{prog}: {e}\nTry `{prog} --help' for more "
                                        "information.\n"))
        return 1
    keys = {k for k, _ in opts}
    if "h" in keys:
        await shell.stdout.write(encode(GZIP_HELP))
        return 0
    if "V" in keys:
        await shell.stdout.write(b"gzip 1.12 (pysh port)\n")
        return 0
    level = 6
    for k, _ in opts:
        if k.isdigit():
            level = int(k)
    if "r" in keys:
        await shell.stderr.write(b"gzip: -r (recursive) is not supported by pysh's gzip\n")
        return 1
    if "t" in keys:  # --test: decompress everything, keep nothing
        status = 0
        for name in files or ["-"]:
            try:
                data = await _read_stdin(shell) if name == "-" else _common.read_file(shell, name)
                for _ in _gunzip_chunks(data, shell.budget):
                    pass
            except FileSystemError as e:
                await shell.stderr.write(encode(f"gzip: {name}: {os.strerror(e.errno)}\n"))
                status = 1
            except BadGzip:
                await shell.stderr.write(encode(f"\ngzip: {name}: not in gzip format\n"))
                status = 1
        return status
    decompress = "d" in keys or invoked in ("gunzip", "zcat")
    to_stdout = "c" in keys or invoked == "zcat"
    keep = "k" in keys
    force = "f" in keys
    quiet = "q" in keys
    save_name = "n" not in keys
    restore_name = "N" in keys
    out = Out(raw_output(shell.stdout), shell.budget)  # file data: not folded
    err = Out(shell.stderr)
    status = 0

    async def warn(msg: str, code: int = 1) -> None:
        nonlocal status
        if not quiet or code == 1:
            lead = "\n" if msg.endswith("not in gzip format") else ""
            await err.write(encode(f"{lead}{prog}: {msg}\n"))
        status = max(status, code) if status != 1 else 1

    if "l" in keys:
        return await _gzip_list(shell, files or ["-"], prog, out, err)
    if not files:
        files = ["-"]
    for name in files:
        shell.budget.check()
        if name == "-":
            data = await _read_stdin(shell)
            try:
                if decompress:
                    for piece in _gunzip_chunks(data, shell.budget):
                        await out.write(piece)
                else:
                    await out.write(gzip.compress(data, compresslevel=level, mtime=0))
            except BadGzip:
                await warn("stdin: not in gzip format")
            continue
        try:
            st = _common.vstat(shell, name)
        except FileSystemError as e:
            await warn(f"{name}: {os.strerror(e.errno)}")
            continue
        if _stat.S_ISDIR(st.st_mode):
            await warn(f"{name} is a directory -- ignored", 2)
            continue
        if decompress:
            if not to_stdout:
                base = None
                for suf in (".gz", ".z", ".tgz", "-gz", ".Z"):
                    if name.endswith(suf) and len(name) > len(suf):
                        base = name[: -len(suf)] + (".tar" if suf == ".tgz" else "")
                        break
                if base is None:
                    await warn(f"{name}: unknown suffix -- ignored", 2)
                    continue
            try:
                data = _common.read_file(shell, name)
                pieces = _gunzip_chunks(data, shell.budget)
                first = next(pieces, b"")  # not gzip at all: nothing is created
            except FileSystemError as e:
                await warn(f"{name}: {os.strerror(e.errno)}")
                continue
            except BadGzip:
                await warn(f"{name}: not in gzip format")
                continue
            result = _chain(first, pieces)
            if to_stdout:
                try:
                    for piece in result:
                        await out.write(piece)
                except BadGzip:
                    await warn(f"{name}: not in gzip format")
                continue
            if restore_name:
                orig = _gzip_header_name(data)
                if orig:
                    base = posixpath.join(posixpath.dirname(name), posixpath.basename(orig))
            target = base
            mtime = _gzip_header_mtime(data) if restore_name else None
        else:
            if name.endswith(".gz") and not to_stdout and not force:
                await warn(f"{name} already has .gz suffix -- unchanged", 0)
                continue
            try:
                data = _common.read_file(shell, name)
            except FileSystemError as e:
                await warn(f"{name}: {os.strerror(e.errno)}")
                continue
            fname = posixpath.basename(name).encode("latin-1", "replace") if save_name else b""
            result = [_gzip_bytes(data, level, int(st.st_mtime) if save_name else 0, fname)]
            if to_stdout:
                await out.write(result[0])
                continue
            target = name + ".gz"
            mtime = st.st_mtime
        if _common.vexists(shell, target, follow=False) and not force:
            await warn(f"{target} already exists;\tnot overwritten", 2)
            continue
        try:
            if _common.vexists(shell, target, follow=False):
                _common.vunlink(shell, target)
            fd = _common.open_write(shell, target, exclusive=True, mode=st.st_mode & 0o777)
        except FileSystemError as e:
            await warn(f"{target}: {os.strerror(e.errno)}")
            continue
        try:
            for piece in result:
                _common.write_all(fd, piece, shell.budget)
        except BadGzip:
            os.close(fd)
            try:
                _common.vunlink(shell, target)  # as gzip leaves no half-made output behind
            except FileSystemError:
                pass
            await warn(f"{name}: not in gzip format")
            continue
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)
        try:
            host = _common.host_of(shell, target)
            with HeldDir(host, target) as d:
                d.utime(mtime if mtime is not None else st.st_mtime)
                d.chmod(st.st_mode & 0o777)
        except (FileSystemError, OSError):
            pass
        if not keep:
            try:
                _common.vunlink(shell, name)
            except FileSystemError as e:
                await warn(f"{name}: {os.strerror(e.errno)}")
    await out.flush()
    await err.flush()
    return status


def _gzip_bytes(data: bytes, level: int, mtime: int, fname: bytes) -> bytes:
    """A gzip member as GNU gzip writes it (FNAME and MTIME in the header when given)."""
    import struct
    import zlib

    flags = 0x08 if fname else 0
    xfl = 2 if level == 9 else 4 if level == 1 else 0
    header = b"\x1f\x8b\x08" + bytes([flags]) + struct.pack("<I", mtime) + bytes([xfl, 3])
    if fname:
        header += fname.replace(b"\0", b"") + b"\0"
    comp = zlib.compressobj(level, zlib.DEFLATED, -15, 9)
    body = comp.compress(data) + comp.flush()
    trailer = struct.pack("<II", zlib.crc32(data) & 0xFFFFFFFF, len(data) & 0xFFFFFFFF)
    return header + body + trailer


class BadGzip(Exception):
    """Data that is not gzip, or is corrupt."""


def _gunzip_chunks(data: bytes, budget):
    """The decompressed bytes a piece at a time (a bomb never sits in memory whole), member
    after member; BadGzip where the data is not gzip or is corrupt."""
    import zlib

    if data[:2] != b"\x1f\x8b":
        raise BadGzip()
    rest = memoryview(data)
    try:
        while rest:
            d = zlib.decompressobj(16 + zlib.MAX_WBITS)
            tail = rest
            while tail and not d.eof:
                chunk = d.decompress(tail, GUNZIP_PIECE)
                tail = d.unconsumed_tail
                if chunk:
                    budget.check()
                    yield chunk
            while not d.eof:
                chunk = d.decompress(b"", GUNZIP_PIECE)
                if not chunk:
                    raise BadGzip()  # ended before its end-of-stream marker
                budget.check()
                yield chunk
            rest = memoryview(d.unused_data.lstrip(b"\0"))
            if rest and rest[:2] != b"\x1f\x8b":
                raise BadGzip()  # trailing garbage
    except zlib.error:
        raise BadGzip() from None


GUNZIP_PIECE = 1 << 20


def _chain(first: bytes, rest):
    if first:
        yield first
    yield from rest


def _gzip_header_name(data: bytes) -> str | None:
    if len(data) < 10 or data[:2] != b"\x1f\x8b" or not data[3] & 0x08:
        return None
    pos = 10
    if data[3] & 0x04:
        xlen = int.from_bytes(data[10:12], "little")
        pos = 12 + xlen
    end = data.find(b"\0", pos)
    return data[pos:end].decode("latin-1") if end > pos else None


def _gzip_header_mtime(data: bytes) -> int | None:
    if len(data) < 10:
        return None
    t = int.from_bytes(data[4:8], "little")
    return t or None


async def _gzip_list(shell, files, prog, out: Out, err: Out) -> int:
    status = 0
    header_done = False
    tot_c = tot_u = 0
    n = 0
    for name in files:
        try:
            data = await _read_stdin(shell) if name == "-" else _common.read_file(shell, name)
        except FileSystemError as e:
            await err.write(encode(f"{prog}: {name}: {os.strerror(e.errno)}\n"))
            status = 1
            continue
        if len(data) < 18 or data[:2] != b"\x1f\x8b":
            await err.write(encode(f"\n{prog}: {name}: not in gzip format\n"))
            status = 1
            continue
        if not header_done:
            await out.write(b"         compressed        uncompressed  ratio uncompressed_name\n")
            header_done = True
        comp = len(data)
        uncomp = int.from_bytes(data[-4:], "little")
        header = 10
        if data[3] & 0x04:
            header = 12 + int.from_bytes(data[10:12], "little")
        for bit in (0x08, 0x10):
            if data[3] & bit:
                end = data.find(b"\0", header)
                header = end + 1 if end >= 0 else header
        if data[3] & 0x02:
            header += 2
        deflated = comp - header - 8
        uname = name[:-3] if name.endswith(".gz") else name
        if name == "-":
            uname = "stdout"
        await out.write(encode(f"{comp:>19} {uncomp:>19} {_ratio(uncomp, deflated)} {uname}\n"))
        tot_c += comp
        tot_u += uncomp
        n += 1
        shell.budget.check()
    if n > 1:
        await out.write(encode(f"{tot_c:>19} {tot_u:>19} {_ratio(tot_u, tot_c - 18 * n)} "
                               "(totals)\n"))
    await out.flush()
    await err.flush()
    return status


def _ratio(orig: int, comp: int) -> str:
    if orig == 0:
        r = 0.0
    else:
        r = (orig - comp) * 100.0 / orig
    return f"{r:5.1f}%"


# ===================================================================== zip
ZIP_HELP = """Usage: zip [-options] zipfile list
  -r   recurse into directories
  -j   junk (don't record) directory names
  -q   quiet operation
  -0..-9  compression level
"""


async def zip_main(shell: Shell, argv: list[str]) -> int:
    import zipfile

    args = argv[1:]
    flags: set[str] = set()
    rest = []
    only_pos = False
    level = 6
    for a in args:
        if not only_pos and a.startswith("-") and len(a) > 1:
            if a == "--":
                only_pos = True
                continue
            if a in ("-h", "--help"):
                await shell.stdout.write(encode(ZIP_HELP))
                return 0
            for ch in a[1:]:
                if ch.isdigit():
                    level = int(ch)
                elif ch in "rqjvDX":
                    flags.add(ch)
                else:
                    await shell.stderr.write(encode(f"zip error: Invalid command arguments "
                                                    f"(no such option: {ch})\n"))
                    return 16
            continue
        rest.append(a)
    if len(rest) < 2:
        await shell.stderr.write(b"zip error: Nothing to do! (try: zip -r archive.zip dir)\n")
        return 12
    zname, inputs = rest[0], rest[1:]
    # 'zip - FILES' streams the archive to stdout; its messages go to stderr then
    streaming = zname == "-"
    # Info-ZIP seeks back to store what deflate made bigger, unless stdout is a pipe
    pipe_out = streaming and not _is_regular(raw_output(shell.stdout))
    if "." not in posixpath.basename(zname) and not streaming:
        zname += ".zip"
    err = Out(shell.stderr)
    out = err if streaming else Out(shell.stdout, shell.budget)
    existing: dict[str, tuple] = {}
    if not streaming and _common.vexists(shell, zname):
        try:
            with _open_in(shell, zname) as f, zipfile.ZipFile(f) as zf:
                for info in zf.infolist():
                    existing[info.filename] = (info, zf.read(info))
        except (OSError, zipfile.BadZipFile):
            await err.write(encode(f"zip error: Zip file structure invalid ({zname})\n"))
            await err.flush()
            return 3
    members: list[tuple[str, str, os.stat_result]] = []
    status = 0
    for op in inputs:
        try:
            st = _common.vstat(shell, op, follow=False)
        except FileSystemError:
            if "q" not in flags:
                await out.write(encode(f"\tzip warning: name not matched: {op}\n"))
            continue
        if _stat.S_ISDIR(st.st_mode) and "r" in flags:
            for mname, mv, mst in _collect(shell, op, op.rstrip("/"), st, True):
                members.append((mname, mv, mst))
        else:
            try:
                st = _common.vstat(shell, op)
            except FileSystemError:
                pass
            members.append((op.rstrip("/") if _stat.S_ISDIR(st.st_mode) else op, op, st))
    if not members and not existing:
        await out.write(encode("\nzip error: Nothing to do! (" + zname + ")\n"))
        await out.flush()
        return 12
    buf = io.BytesIO()
    entries: dict[str, tuple] = dict(existing)
    new_names = []
    for mname, mv, mst in members:
        shell.budget.check()
        name = mname.lstrip("/")
        while name.startswith("./"):
            name = name[2:]
        if "j" in flags:
            if _stat.S_ISDIR(mst.st_mode):
                continue
            name = posixpath.basename(name)
        is_dir = _stat.S_ISDIR(mst.st_mode)
        if is_dir:
            name = name.rstrip("/") + "/"
        t = time.gmtime(max(mst.st_mtime, 315532800))
        info = zipfile.ZipInfo(name, date_time=t[:6])
        info.create_system = 3
        info.external_attr = (mst.st_mode & 0xFFFF) << 16
        if is_dir:
            info.external_attr |= 0x10
            data = b""
            info.compress_type = zipfile.ZIP_STORED
        else:
            try:
                data = _common.read_file(shell, mv)
            except OSError as e:
                await err.write(encode(f"\tzip warning: could not open for reading: {mname}: "
                                       f"{_strerror(e)}\n"))
                status = 18
                continue
            info.compress_type = zipfile.ZIP_STORED
            if _looks_text(data):
                info.internal_attr = 1
            if data and level:
                import zlib

                c = zlib.compressobj(level, zlib.DEFLATED, -15)
                if pipe_out or len(c.compress(data) + c.flush()) < len(data):
                    info.compress_type = zipfile.ZIP_DEFLATED
        verb = "updating" if name in existing else "adding"
        entries[name] = (info, data)
        new_names.append((verb, name, info, data))
    with zipfile.ZipFile(buf, "w") as zf:
        for info, data in entries.values():
            zf.writestr(info, data, compresslevel=level if info.compress_type else None)
    if "q" not in flags:
        for verb, name, info, data in new_names:
            zi = zipfile.ZipFile(io.BytesIO(buf.getvalue())).getinfo(name)
            if info.compress_type == zipfile.ZIP_STORED or not data:
                how = "stored 0%"
            else:
                # Info-ZIP's percent(): (saved * 100 + n / 2) / n in C's integer division
                n = max(1, zi.file_size)
                num = (zi.file_size - zi.compress_size) * 100 + n // 2
                pct = num // n if num >= 0 else -(-num // n)
                how = f"deflated {pct}%"
            await out.write(encode(f"  {verb}: {name} ({how})\n"))
    payload = buf.getvalue()
    if streaming:
        await err.flush()
        shell.budget.count_written(len(payload))
        await raw_output(shell.stdout).write(payload)
        return status
    try:
        if _common.vexists(shell, zname, follow=False):
            _common.vunlink(shell, zname)
        fd = _common.open_write(shell, zname, exclusive=True)
    except FileSystemError as e:
        await err.write(encode(f"zip I/O error: {zname}: {os.strerror(e.errno)}\n"))
        await err.flush()
        return 15
    try:
        _common.write_all(fd, payload, shell.budget)
    finally:
        os.close(fd)
    await out.flush()
    await err.flush()
    return status


def _is_regular(stream) -> bool:
    fileno = getattr(stream, "fileno", None)
    fd = fileno() if fileno is not None else None
    if fd is None:
        return False
    try:
        return _stat.S_ISREG(os.fstat(fd).st_mode)
    except OSError:
        return False


def _looks_text(data: bytes) -> bool:
    """Info-ZIP's text/binary guess, roughly: no NUL and few control bytes."""
    if b"\0" in data[:65536]:
        return False
    bad = sum(1 for c in data[:4096] if c < 32 and c not in (9, 10, 12, 13, 27))
    return bad == 0


# =================================================================== unzip
UNZIP_HELP = """Usage: unzip [-opts] file[.zip] [list] [-d exdir]
  -l  list files (short format)      -p  extract files to pipe, no messages
  -o  overwrite files WITHOUT prompting
  -q  quiet mode                     -d  extract files into exdir
"""


async def unzip_main(shell: Shell, argv: list[str]) -> int:
    import zipfile

    args = argv[1:]
    flags: set[str] = set()
    dest = None
    pos: list[str] = []
    i = 0
    while i < len(args):
        a = args[i]
        i += 1
        if a.startswith("-") and len(a) > 1:
            if a in ("-h", "--help"):
                await shell.stdout.write(encode(UNZIP_HELP))
                return 0
            j = 1
            while j < len(a):
                ch = a[j]
                if ch == "d":
                    dest = a[j + 1:] or (args[i] if i < len(args) else None)
                    if not a[j + 1:]:
                        i += 1
                    if dest is None:
                        await shell.stderr.write(b"error:  must specify directory to which to "
                                                 b"extract with -d option\n")
                        return 10
                    break
                if ch in "loqpnj":
                    flags.add(ch)
                else:
                    await shell.stderr.write(encode(f"unzip:  invalid option -- '{ch}'\n"))
                    return 10
                j += 1
            continue
        pos.append(a)
    if not pos:
        await shell.stdout.write(encode(UNZIP_HELP))
        return 0
    zname, wanted = pos[0], pos[1:]
    out = Out(raw_output(shell.stdout), shell.budget)  # -p writes member data: not folded
    err = Out(shell.stderr)
    real_name = zname
    if not _common.vexists(shell, zname) and _common.vexists(shell, zname + ".zip"):
        real_name = zname + ".zip"
    try:
        f = _open_in(shell, real_name)
    except OSError:
        await err.write(encode(f"unzip:  cannot find or open {zname}, {zname}.zip or "
                               f"{zname}.ZIP.\n"))
        await err.flush()
        return 9
    status = 0
    quiet = "q" in flags or "p" in flags
    try:
        try:
            zf = zipfile.ZipFile(f)
        except zipfile.BadZipFile:
            await out.write(encode(f"Archive:  {real_name}\n"))
            await out.flush()
            await err.write(encode(
                "  End-of-central-directory signature not found.  Either this file is not\n"
                "  a zipfile, or it constitutes one disk of a multi-part archive.  In the\n"
                "  latter case the central directory and zipfile comment will be found on\n"
                "  the last disk(s) of this archive.\n"
                f"unzip:  cannot find zipfile directory in one of {zname} or\n"
                f"        {zname}.zip, and cannot find {zname}.ZIP, period.\n"))
            await err.flush()
            return 9
        infos = zf.infolist()
        if wanted:
            import fnmatch

            infos = [z for z in infos if any(fnmatch.fnmatchcase(z.filename, w) for w in wanted)]
        # the archive comment follows the "Archive:" line, as unzip prints it
        note = decode(zf.comment) + "\n" if zf.comment else ""
        if "l" in flags:
            await _unzip_list(out, real_name, infos, note)
            await out.flush()
            return 0
        if not quiet:
            await out.write(encode(f"Archive:  {real_name}\n{note}"))
        ex = None if "p" in flags else Extractor(shell, dest or ".", "unzip", create=True)
        skipped_existing = False
        for info in infos:
            shell.budget.check()
            if ex is not None:
                ex.count_member()
            name = info.filename
            if "p" in flags:
                if not name.endswith("/"):
                    with zf.open(info) as src:
                        while chunk := src.read(1 << 20):
                            await out.write(chunk)
                continue
            try:
                rel = _norm_member(name)
                if "j" in flags:
                    if name.endswith("/"):
                        continue
                    rel = posixpath.basename(rel)
                if not rel:
                    continue
                shown = (dest.rstrip("/") + "/" if dest else "") + rel + (
                    "/" if name.endswith("/") else "")
                mode = (info.external_attr >> 16) & 0xFFFF
                if name.endswith("/") or _stat.S_ISDIR(mode):
                    if not _common.vis_dir(shell, ex._vpath(rel)):
                        if not quiet:
                            await out.write(encode(f"   creating: {shown}\n"))
                        ex.mkdirs(rel, shown)
                    continue
                exists = _common.vexists(shell, ex._vpath(rel), follow=False)
                if exists and "o" not in flags:
                    if "n" not in flags and not skipped_existing:
                        await out.write(encode(f"replace {shown}? [y]es, [n]o, [A]ll, [N]one, "
                                               "[r]ename: NULL\n(EOF or read error, treating as "
                                               '"[N]one" ...)\n'))
                    skipped_existing = True
                    continue
                if _stat.S_ISLNK(mode):
                    target = decode(zf.read(info))
                    if not quiet:
                        await out.write(encode(f"    linking: {shown}  -> {target} \n"))
                    try:
                        ex.symlink(rel, shown, target)
                    except LinkRefused as r:  # UnZip's words; it goes on and exits 0
                        await err.write(encode(f"symlink error: {os.strerror(r.code)}\n"))
                    continue
                if mode and not _stat.S_ISREG(mode):
                    raise Refused(f"{name}: refusing to create a device or FIFO")
                verb = "inflating" if info.compress_type != zipfile.ZIP_STORED else "extracting"
                if not quiet:
                    tail = " " if info.internal_attr & 1 else "  "  # UnZip's text/binary mark
                    await out.write(encode(f"{verb:>11}: {shown:<22}{tail}\n"))
                perm = (mode & 0o777) or 0o644
                t = calendar.timegm(info.date_time + (0, 0, 0))
                with zf.open(info) as src:
                    ex.write_file(rel, shown, src, perm, t, info.file_size)
            except Refused as r:
                await err.write(encode(shell.display(f"unzip: {r}\n")))
                status = max(status, 1)
            except (zipfile.BadZipFile, OSError) as e:
                if isinstance(e, FileSystemError):
                    await err.write(encode(f"unzip: {e}\n"))
                else:
                    await err.write(encode(f"unzip: {name}: bad zipfile member\n"))
                status = 2
        if ex is not None:
            ex.finish()
    except ArchiveError as e:
        await err.write(encode(f"unzip: {e}\n"))
        status = 3
    finally:
        f.close()
    await out.flush()
    await err.flush()
    return status


async def _unzip_list(out: Out, zname: str, infos, note: str = "") -> None:
    lines = [f"Archive:  {zname}\n{note}", "  Length      Date    Time    Name\n",
             "---------  ---------- -----   ----\n"]
    total = 0
    for z in infos:
        y, mo, d, h, mi, _ = z.date_time
        lines.append(f"{z.file_size:>9}  {y:04d}-{mo:02d}-{d:02d} {h:02d}:{mi:02d}   "
                     f"{z.filename}\n")
        total += z.file_size
    n = len(infos)
    lines.append("---------                     -------\n")
    lines.append(f"{total:>9}                     {n} file{'s' if n != 1 else ''}\n")
    await out.write(encode("".join(lines)))
