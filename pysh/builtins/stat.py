"""stat: file status through the FileSystem door (owner is the synthetic user).

Birth time is not known to the door: ``%w`` is ``-`` and ``%W`` is ``0``.
``%m`` is the virtual mount point. ``-f`` reports the file system of the
mount holding the file.
"""

from __future__ import annotations

import os
import re
import stat as _stat

from pysh.builtins._fileutil import (
    GID,
    UID,
    USER,
    Output,
    Usage,
    file_type_name,
    full_time,
    help_or_version,
    lstat,
    mode_string,
    parse,
    q,
    stat,
    strerror,
    usage_error,
)
from pysh.shellkit import FileSystemError
from pysh.shellkit.text import encode

PROG = "stat"

HELP = """
Usage: stat [OPTION]... FILE...
Display file or file system status.

  -L, --dereference     follow links
  -f, --file-system     display file system status instead of file status
  -c  --format=FORMAT   use the specified FORMAT instead of the default;
                          output a newline after each use of FORMAT
      --printf=FORMAT   like --format, but interpret backslash escapes,
                          and do not output a mandatory trailing newline;
                          if you want a newline, include \\n in FORMAT
  -t, --terse           print the information in terse form
      --help        display this help and exit

The valid format sequences for files (without --file-system):

  %a   permission bits in octal    %A   permission bits and file type
  %b   number of blocks allocated  %B   the size in bytes of each block
  %d   device number in decimal    %D   device number in hex
  %f   raw mode in hex             %F   file type
  %g   group ID of owner           %G   group name of owner
  %h   number of hard links        %i   inode number
  %m   mount point                 %n   file name
  %N   quoted file name with dereference if symbolic link
  %o   optimal I/O transfer size hint
  %s   total size, in bytes        %t   major device type in hex
  %T   minor device type in hex    %u   user ID of owner
  %U   user name of owner          %w   time of file birth, or '-'
  %W   time of file birth, seconds since Epoch, or 0
  %x   time of last access         %X   time of last access, seconds
  %y   time of last data modification  %Y   ... seconds since Epoch
  %z   time of last status change  %Z   ... seconds since Epoch
"""

DEFAULT = ("  File: %!\n  Size: %-10s\tBlocks: %-10b IO Block: %-6o %F\n"
           "Device: %Hd,%Ld\tInode: %-10i  Links: %h\n"
           "Access: (%04a/%10.10A)  Uid: (%5u/%8U)   Gid: (%5g/%8G)\n"
           "Access: %x\nModify: %y\nChange: %z\n Birth: %w\n")
DEFAULT_DEV = ("  File: %!\n  Size: %-10s\tBlocks: %-10b IO Block: %-6o %F\n"
               "Device: %Hd,%Ld\tInode: %-10i  Links: %-5h Device type: %Hr,%Lr\n"
               "Access: (%04a/%10.10A)  Uid: (%5u/%8U)   Gid: (%5g/%8G)\n"
               "Access: %x\nModify: %y\nChange: %z\n Birth: %w\n")
TERSE = "%n %s %b %f %u %g %D %i %h %t %T %X %Y %Z %W %o\n"
FS_DEFAULT = ("  File: \"%n\"\n    ID: %-8i Namelen: %-7l Type: %T\n"
              "Block size: %-10s Fundamental block size: %S\n"
              "Blocks: Total: %-10b Free: %-10f Available: %a\n"
              "Inodes: Total: %-10c Free: %d\n")
FS_TERSE = "%n %i %l %t %s %S %b %f %a %c %d\n"

_ESC = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v",
        "\\": "\\", '"': '"', "'": "'", "?": "?"}


def unescape(fmt: str) -> str:
    out = []
    i = 0
    while i < len(fmt):
        c = fmt[i]
        if c == "\\" and i + 1 < len(fmt):
            d = fmt[i + 1]
            if d in "01234567":
                j = i + 1
                while j < len(fmt) and j < i + 4 and fmt[j] in "01234567":
                    j += 1
                out.append(chr(int(fmt[i + 1:j], 8) & 0xFF))
                i = j
                continue
            if d == "x" and i + 2 < len(fmt) and fmt[i + 2] in "0123456789abcdefABCDEF":
                j = i + 2
                while j < len(fmt) and j < i + 4 and fmt[j] in "0123456789abcdefABCDEF":
                    j += 1
                out.append(chr(int(fmt[i + 2:j], 16)))
                i = j
                continue
            if d in _ESC:
                out.append(_ESC[d])
                i += 2
                continue
            out.append("\\" + d)
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


_SPEC = re.compile(r"%([-#+ 0']*)(\d*)(?:\.(\d*))?([HL]?)(.)", re.DOTALL)


def render(fmt: str, value_of) -> str:
    out = []
    i = 0
    n = len(fmt)
    while i < n:
        c = fmt[i]
        if c != "%":
            out.append(c)
            i += 1
            continue
        if i + 1 < n and fmt[i + 1] == "%":
            out.append("%")
            i += 2
            continue
        m = _SPEC.match(fmt, i)
        if not m:
            out.append(fmt[i:])
            break
        flags, width, prec, hl, d = m.groups()
        i = m.end()
        v, numeric = value_of(d, hl)
        if v is None:
            out.append("?")
            continue
        if prec is not None and not numeric:
            v = v[: int(prec or 0)]
        elif prec is not None and numeric and prec:
            v = v.zfill(int(prec)) if not v.startswith("-") else "-" + v[1:].zfill(int(prec))
        if width:
            w = int(width)
            if "-" in flags:
                v = v.ljust(w)
            elif "0" in flags and numeric:
                v = v.zfill(w)
            else:
                v = v.rjust(w)
        out.append(v)
    return "".join(out)


def _mount_of(shell, path: str) -> str:
    try:
        canon = shell.fs.realpath(path)
    except FileSystemError:
        canon = shell.fs.abspath(path)
    best = "/"
    for mp, _ro in shell.fs.mounts():
        if canon == mp or canon.startswith(mp.rstrip("/") + "/"):
            if len(mp) > len(best):
                best = mp
    return best


def file_values(shell, name: str, st, follow: bool):
    fs = shell.fs

    def tm(ns: int) -> str:
        return full_time(shell, ns)

    def value(d: str, hl: str):
        mode = st.st_mode
        if d == "a":
            return f"{_stat.S_IMODE(mode):o}", True
        if d == "A":
            return mode_string(mode), False
        if d == "b":
            return str(st.st_blocks or 0), True
        if d == "B":
            return "512", True
        if d == "C":
            return "?", False
        if d == "d":
            if hl == "H":
                return str(os.major(st.st_dev)), True
            if hl == "L":
                return str(os.minor(st.st_dev)), True
            return str(st.st_dev), True
        if d == "D":
            return f"{st.st_dev:x}", False
        if d == "f":
            return f"{mode:x}", False
        if d == "F":
            return file_type_name(mode, st.st_size), False
        if d == "g":
            return str(GID), True
        if d == "G":
            return USER, False
        if d == "h":
            return str(st.st_nlink), True
        if d == "i":
            return str(st.st_ino), True
        if d == "m":
            return _mount_of(shell, name), False
        if d == "n":
            return name, False
        if d == "!":
            from pysh.builtins._fileutil import shell_quote_name

            text = shell_quote_name(name)
            if _stat.S_ISLNK(mode):
                try:
                    text += " -> " + shell_quote_name(fs.readlink(name))
                except FileSystemError:
                    pass
            return text, False
        if d == "N":
            if _stat.S_ISLNK(mode):
                try:
                    return f"{q(name)} -> {q(fs.readlink(name))}", False
                except FileSystemError:
                    return q(name), False
            return q(name), False
        if d == "o":
            return str(st.st_blksize or 4096), True
        if d == "s":
            return str(st.st_size), True
        if d in "tT" or d == "r":
            rdev = st.st_rdev or 0
            if d == "r":
                if hl == "H":
                    return str(os.major(rdev)), True
                if hl == "L":
                    return str(os.minor(rdev)), True
                return str(rdev), True
            v = os.major(rdev) if d == "t" else os.minor(rdev)
            return f"{v:x}", False
        if d == "u":
            return str(UID), True
        if d == "U":
            return USER, False
        if d == "w":
            return "-", False
        if d == "W":
            return "0", True
        if d == "x":
            return tm(st.st_atime_ns), False
        if d == "X":
            return str(st.st_atime_ns // 1_000_000_000), True
        if d == "y":
            return tm(st.st_mtime_ns), False
        if d == "Y":
            return str(st.st_mtime_ns // 1_000_000_000), True
        if d == "z":
            return tm(st.st_ctime_ns), False
        if d == "Z":
            return str(st.st_ctime_ns // 1_000_000_000), True
        return None, False
    return value


def fs_values(shell, name: str, sv):
    def value(d: str, hl: str):
        m = {
            "a": str(sv.f_bavail), "b": str(sv.f_blocks), "c": str(sv.f_files),
            "d": str(sv.f_ffree), "f": str(sv.f_bfree), "i": f"{sv.f_fsid:x}",
            "l": str(sv.f_namemax), "n": name, "s": str(sv.f_bsize), "S": str(sv.f_frsize),
            "t": "0", "T": "pysh",
        }
        if d in m:
            return m[d], d not in "niT"
        return None, False
    return value


async def main(shell, argv: list[str]) -> int:
    follow = filesystem = terse = False
    fmt = None
    printf = False
    try:
        opts, names = parse(argv[1:], "Lfc:t", {
            "dereference": "L", "file-system": "f", "format=": "c", "printf=": "printf",
            "terse": "t", "cached=": "cached"})
        if await help_or_version(shell, PROG, opts, HELP):
            return 0
        for k, v in opts:
            if k == "L":
                follow = True
            elif k == "f":
                filesystem = True
            elif k == "c":
                fmt, printf = v, False
            elif k == "printf":
                fmt, printf = v, True
            elif k == "t":
                terse = True
        if not names:
            raise Usage("missing operand")
    except Usage as e:
        return await usage_error(shell, PROG, e)
    fs = shell.fs
    out = Output(shell.stdout)
    status = 0
    for name in names:
        shell.budget.check()
        if filesystem:
            try:
                sv = fs.statvfs(name)
            except FileSystemError as e:
                await out.flush()
                await shell.error(PROG, f"cannot read file system information for {q(name)}: "
                                        f"{strerror(e)}")
                status = 1
                continue
            value = fs_values(shell, name, sv)
            f = FS_TERSE if terse else FS_DEFAULT
            if fmt is not None:
                f = unescape(fmt) if printf else fmt + "\n"
            await out.write(encode(render(f, value)))
            continue
        try:
            st = stat(fs, name) if follow else lstat(fs, name)
        except FileSystemError as e:
            await out.flush()
            await shell.error(PROG, f"cannot statx {q(name)}: {strerror(e)}")
            status = 1
            continue
        value = file_values(shell, name, st, follow)
        if fmt is not None:
            f = unescape(fmt) if printf else fmt + "\n"
        elif terse:
            f = TERSE
        elif _stat.S_ISCHR(st.st_mode) or _stat.S_ISBLK(st.st_mode):
            f = DEFAULT_DEV
        else:
            f = DEFAULT
        await out.write(encode(render(f, value)))
    await out.flush()
    return status
