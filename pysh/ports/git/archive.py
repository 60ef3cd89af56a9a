"""git archive: a tree as tar (byte for byte as git 2.39 writes it), tar.gz or zip.

The tar writer is archive-tar.c's: a pax global header carrying the commit id, ustar
headers (uid/gid 0, ``root``, modes through tar.umask 002, the commit time), a pax ``path``
or ``linkpath`` record for names that do not fit, 10 KiB records. Directories are written
when something under them is (as git 2.39 queues them). zip goes through Python's
zipfile in memory (same entries, modes and contents; not git's bytes). The archive is
written to stdout or, with ``-o``, to a file through the confinement core.
"""

from __future__ import annotations

import errno
import io
import os
import stat as _stat

from pysh.ports.git import revs
from pysh.ports.git.core import Ctx, GitExit, Opts, Repo, fatal, now
from pysh.shellkit import decode, encode

BLOCK = 512
RECORD = 10240
TAR_UMASK = 0o002


def _entries(repo: Repo, tree: bytes, base: bytes, paths: list[bytes]):
    """(path, mode, sha) of the tree in git's order; directories end with '/'."""
    def wanted(p: bytes, is_dir: bool) -> bool:
        if not paths:
            return True
        for sp in paths:
            sp = sp.rstrip(b"/")
            if p == sp or p.startswith(sp + b"/"):
                return True
            if is_dir and sp.startswith(p + b"/"):
                return True
        return False

    def walk(tsha: bytes, prefix: bytes):
        repo.ctx.tick()
        for e in repo[tsha].iteritems():
            p = prefix + e.path
            if _stat.S_ISDIR(e.mode):
                if not wanted(p, True):
                    continue
                sub = list(walk(e.sha, p + b"/"))
                if sub or wanted(p, False):
                    yield p + b"/", e.mode, e.sha
                    yield from sub
            elif wanted(p, False):
                yield p, e.mode, e.sha

    return walk(tree, b"")


def _ext_record(key: str, value: bytes) -> bytes:
    body = encode(key) + b"=" + value + b"\n"
    n = len(body) + 2
    while len(str(n)) + 1 + len(body) != n:
        n = len(str(n)) + 1 + len(body)
    return str(n).encode() + b" " + body


def _header(name: bytes, mode: int, size: int, mtime: int, typeflag: bytes,
            link: bytes = b"", prefix: bytes = b"") -> bytes:
    h = bytearray(BLOCK)

    def put(off: int, length: int, data: bytes) -> None:
        h[off:off + len(data[:length])] = data[:length]

    put(0, 100, name)
    put(100, 8, b"%07o" % (mode & 0o7777))
    put(108, 8, b"%07o" % 0)
    put(116, 8, b"%07o" % 0)
    put(124, 12, b"%011o" % size)
    put(136, 12, b"%011o" % mtime)
    put(156, 1, typeflag)
    put(157, 100, link)
    put(257, 6, b"ustar\0")
    put(263, 2, b"00")
    put(265, 32, b"root")
    put(297, 32, b"root")
    put(329, 8, b"%07o" % 0)
    put(337, 8, b"%07o" % 0)
    put(345, 155, prefix)
    h[148:156] = b" " * 8
    put(148, 8, b"%07o\0" % sum(h))
    return bytes(h)


def _pad(data: bytes) -> bytes:
    return data + b"\0" * (-len(data) % BLOCK)


def _path_prefix(path: bytes, maxlen: int) -> int:
    """archive-tar.c's get_path_prefix: where to split a long name into prefix/name."""
    i = len(path)
    if i > 1 and path[i - 1:i] == b"/":
        i -= 1
    i = min(i, maxlen)
    while True:
        i -= 1
        if i <= 0 or path[i:i + 1] == b"/":
            return max(i, 0)


def write_tar(repo: Repo, entries, mtime: int, commit: bytes | None) -> bytes:
    out = bytearray()
    if commit is not None:
        rec = _ext_record("comment", commit)
        out += _header(b"pax_global_header", 0o100666, len(rec), mtime, b"g")
        out += _pad(rec)
    for path, mode, sha in entries:
        repo.ctx.tick()
        ext = b""
        data = b""
        link = b""
        if _stat.S_ISDIR(mode) or mode == 0o160000:
            tf, m = b"5", (mode | 0o777) & ~TAR_UMASK
            if not path.endswith(b"/"):
                path += b"/"
        elif _stat.S_ISLNK(mode):
            tf, m = b"2", mode | 0o777
            link = repo[sha].as_raw_string()
            if len(link) > 100:
                ext += _ext_record("linkpath", link)
        else:
            tf = b"0"
            m = (mode | (0o777 if mode & 0o100 else 0o666)) & ~TAR_UMASK
            data = repo[sha].as_raw_string()
        name, prefix = path, b""
        if len(path) > 100:
            plen = _path_prefix(path, 155)
            rest = len(path) - plen - 1
            if plen > 0 and rest <= 100:
                prefix, name = path[:plen], path[plen + 1:]
            else:
                name = sha + b".data"
                ext = _ext_record("path", path) + ext
        if ext:
            out += _header(sha + b".paxheader", 0o100666, len(ext), mtime, b"x")
            out += _pad(ext)
        out += _header(name, m, len(data), mtime, tf, link[:100] if len(link) <= 100 else b"",
                       prefix)
        out += _pad(data)
    out += b"\0" * (2 * BLOCK)
    out += b"\0" * (-len(out) % RECORD)
    return bytes(out)


def write_zip(repo: Repo, entries, mtime: int, commit: bytes | None) -> bytes:
    """A zip with git's entries and attributes: plain files and directories as FAT entries
    (text flag as git judges it), executables and symlinks with their unix modes; an entry
    is deflated only when that makes it smaller."""
    import struct
    import time
    import zipfile
    import zlib

    from pysh.ports.git.diffing import is_binary

    buf = io.BytesIO()
    t = time.gmtime(mtime)
    dt = (max(t.tm_year, 1980), t.tm_mon, t.tm_mday, t.tm_hour, t.tm_min, t.tm_sec)
    with zipfile.ZipFile(buf, "w") as z:
        for path, mode, sha in entries:
            repo.ctx.tick()
            info = zipfile.ZipInfo(decode(path), dt)
            info.create_system = 0
            info.create_version = 0
            info.extra = struct.pack("<HHBl", 0x5455, 5, 1, mtime)  # git's "UT" mtime field
            if _stat.S_ISDIR(mode) or mode == 0o160000:
                if not info.filename.endswith("/"):
                    info.filename += "/"
                info.external_attr = 0x10
                z.writestr(info, b"")
                continue
            data = repo[sha].as_raw_string()
            if _stat.S_ISLNK(mode) or mode & 0o100:
                info.create_system = 3
                info.create_version = 0x17
                info.external_attr = (0o120777 if _stat.S_ISLNK(mode) else 0o100755) << 16
            if not is_binary(data):
                info.internal_attr = 1
            c = zlib.compressobj(zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, -15)
            small = len(c.compress(data) + c.flush()) < len(data)
            info.compress_type = zipfile.ZIP_DEFLATED if small else zipfile.ZIP_STORED
            z.writestr(info, data)
        for info in z.infolist():
            if info.external_attr == 0o600 << 16:  # zipfile's default for "no attributes"
                info.external_attr = 0
        if commit is not None:
            z.comment = commit
    return buf.getvalue()


ARCHIVE_SPEC = {
    "format": ("arg", "format"), "prefix": ("arg", "prefix"), "o": ("arg", "output"),
    "output": ("arg", "output"), "l": ("flag", "list"), "list": ("flag", "list"),
    "v": ("flag", "verbose"), "verbose": ("flag", "verbose"), "remote": ("arg", "remote"),
    "exec": ("arg", "remote"), "worktree-attributes": ("flag", "wtattrs"),
    "add-file": ("multi", "unsupported"), "add-virtual-file": ("multi", "unsupported"),
    "mtime": ("arg", "unsupported"),
    **{str(d): ("flag", "level") for d in range(10)},
}
ARCHIVE_USAGE = ("usage: git archive [<options>] <tree-ish> [<path>...]\n"
                 "   or: git archive --list\n"
                 "   or: git archive --remote <repo> [--exec <cmd>] [<options>] <tree-ish> [<path>...]\n"
                 "   or: git archive --remote <repo> [--exec <cmd>] --list")
FORMATS = ("tar", "tgz", "tar.gz", "zip")


async def cmd_archive(ctx: Ctx, args: list[str]) -> int:
    vals, pos, after = Opts("archive", ARCHIVE_SPEC, ARCHIVE_USAGE).parse(args)
    pos += after or []
    if vals.get("list"):
        ctx.write("".join(f + "\n" for f in FORMATS))
        return 0
    if vals.get("remote"):
        raise fatal("archive --remote needs a network: the sandbox has none")
    if "unsupported" in vals:
        raise fatal("archive --add-file/--add-virtual-file/--mtime are not supported by this port")
    repo = ctx.repo
    out_path = vals.get("output")
    fmt = vals.get("format")
    if fmt is None:
        fmt = "tar"
        if out_path:
            for ext, f in ((".tar.gz", "tar.gz"), (".tgz", "tgz"), (".zip", "zip"), (".tar", "tar")):
                if out_path.endswith(ext):
                    fmt = f
                    break
    if fmt not in FORMATS:
        raise fatal(f"Unknown archive format '{fmt}'")
    if not pos:
        raise GitExit(ARCHIVE_USAGE, 129)
    name = pos[0]
    obj = revs.resolve(repo, name, want="object", missing_ok=True)
    if obj is None:
        raise fatal(f"not a valid object name: {name}")
    commit = revs.resolve(repo, name, want="commit", missing_ok=True)
    tree = revs.resolve(repo, name, want="tree", missing_ok=True)
    if tree is None:
        raise fatal(f"not a tree object: {decode(obj)}")
    mtime = repo[commit].commit_time if commit is not None else now()
    prefix = encode(vals.get("prefix", ""))
    pfx_cwd = encode(repo.prefix()) if repo.vtop is not None else b""
    paths = [pfx_cwd + encode(p) for p in pos[1:]]
    entries = list(_entries(repo, tree, b"", paths))
    for p in paths:
        if not any(e[0].rstrip(b"/") == p.rstrip(b"/") or e[0].startswith(p.rstrip(b"/") + b"/")
                   for e in entries):
            raise fatal(f"pathspec '{decode(p)}' did not match any files")
    if prefix:
        lead = []
        if prefix.endswith(b"/"):
            lead.append((prefix, 0o40000, tree))
        entries = lead + [(prefix + p, m, s) for p, m, s in entries]
    if vals.get("verbose"):
        for p, _, _ in entries:
            ctx.ewrite(p + b"\n")
    if fmt == "zip":
        data = write_zip(repo, entries, mtime, commit)
    else:
        data = write_tar(repo, entries, mtime, commit)
        if fmt in ("tgz", "tar.gz"):
            import gzip

            data = gzip.compress(data, compresslevel=6, mtime=0)
    if out_path:
        _write_output(ctx, out_path, data)
    else:
        ctx.write(data)
    return 0


def _write_output(ctx: Ctx, path: str, data: bytes) -> None:
    from pysh.ports import _common

    shell = ctx.shell
    try:
        fd = shell.core.open(shell.abspath(path), os.O_WRONLY | os.O_CREAT | os.O_TRUNC,
                             0o666 & ~shell.umask)
    except OSError as e:
        raise fatal(f"could not create archive file '{path}': "
                    f"{os.strerror(e.errno or errno.EIO)}") from None
    try:
        _common.write_all(fd, data, shell.budget)
    finally:
        os.close(fd)
