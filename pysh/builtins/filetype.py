"""file: a useful subset of file(1)'s content sniffing, through the FileSystem door.

Known: empty, directories, symlinks, text (ASCII, UTF-8 with or without BOM,
ISO-8859, extended ASCII; line terminators, very long lines, escapes), JSON,
HTML, XML, scripts by shebang (sh, bash, zsh, dash, python, perl, ruby, node,
awk), ELF (class, byte order, type, machine, linking), PNG, GIF, JPEG, PDF,
gzip, bzip2, xz, zstd, zip, tar. Anything else is "data".
"""

from __future__ import annotations

import json
import stat as _stat
import struct

from pysh.builtins._filetext import is_csv, text_rule, with_encoding
from pysh.builtins._fileutil import (
    Output,
    Usage,
    help_or_version,
    localtime,
    lstat,
    parse,
    stat,
    strerror,
)
from pysh.shellkit import FileSystemError
from pysh.shellkit.text import encode

PROG = "file"

USAGE = """Usage: file [-bcCdEhikLlNnprsSvzZ0] [--apple] [--extension] [--mime-encoding]
            [--mime-type] [-e <testname>] [-F <separator>]  [-f <namefile>]
            [-m <magicfiles>] [-P <parameter=value>] [--exclude-quiet]
            <file> ...
       file -C [-m <magicfiles>]
       file [--help]
"""

HELP = """
Usage: file [OPTION...] [FILE...]
Determine type of FILEs.

  -b, --brief                do not prepend filenames to output lines
  -i, --mime                 output MIME type strings (--mime-type and
                               --mime-encoding)
      --mime-type            output the MIME type
      --mime-encoding        output the MIME encoding
  -L, --dereference          follow symlinks
  -h, --no-dereference       don't follow symlinks (default)
  -F, --separator STRING     use string as separator instead of `:'
  -N, --no-pad               do not pad output
  -0, --print0               terminate filenames with ASCII NUL
  -f, --files-from FILE      read the filenames to be examined from FILE
      --help                 display this help and exit
"""

READ_MAX = 1 << 20

SCRIPTS = {
    "sh": ("POSIX shell script", "text/x-shellscript", "{k}, {e} text executable"),
    "dash": ("POSIX shell script", "text/x-shellscript", "{k}, {e} text executable"),
    "ash": ("POSIX shell script", "text/x-shellscript", "{k}, {e} text executable"),
    "bash": ("Bourne-Again shell script", "text/x-shellscript", "{k}, {e} text executable"),
    "zsh": ("Paul Falstad's zsh script", "text/x-shellscript", "{k}, {e} text executable"),
    "ksh": ("Korn shell script", "text/x-shellscript", "{k}, {e} text executable"),
    "python": ("Python script", "text/x-script.python", "{k}, {e} text executable"),
    "perl": ("Perl script", "text/x-perl", "{k} text executable"),
    "ruby": ("Ruby script", "text/x-ruby", "{k}, {e} text executable"),
    "node": ("Node.js script", "application/javascript", "{k} executable, {e} text"),
    "awk": ("awk script", "text/x-awk", "{k}, {e} text executable"),
    "gawk": ("GNU awk script", "text/x-gawk", "{k}, {e} text executable"),
    "php": ("PHP script", "text/x-php", "{k}, {e} text executable"),
    "tclsh": ("Tcl script", "text/x-tcl", "{k}, {e} text executable"),
}

ELF_MACHINES = {0: "no machine", 3: "Intel 80386", 8: "MIPS", 20: "PowerPC", 21: "64-bit PowerPC",
                40: "ARM", 42: "Renesas SH", 50: "IA-64", 62: "x86-64", 183: "ARM aarch64",
                243: "UCB RISC-V", 258: "LoongArch"}


def _text_info(data: bytes):
    """(kind, charset, mime_charset) for text, or None for binary data."""
    if not data:
        return None
    bom = data.startswith(b"\xef\xbb\xbf")
    body = data[3:] if bom else data
    try:
        text = body.decode("utf-8")
        utf8 = True
    except UnicodeDecodeError as e:
        # a multibyte sequence cut at the read limit is still UTF-8
        utf8 = e.start >= len(body) - 3 and len(data) >= READ_MAX
        text = body[: e.start].decode("utf-8") if utf8 else None
    bad = set(range(0, 7)) | {0x0E, 0x0F} | set(range(0x10, 0x1B)) | set(range(0x1C, 0x20))
    bad.discard(0x1B)
    if any(b in bad for b in body[:READ_MAX]) or b"\x7f" in body and False:
        return None
    if utf8 and text is not None:
        if bom:
            return "Unicode text, UTF-8 (with BOM)", "utf-8"
        if all(ord(c) < 128 for c in text):
            return "ASCII", "us-ascii"
        return "Unicode text, UTF-8", "utf-8"
    if any(0x80 <= b < 0xA0 for b in body):
        return "Non-ISO extended-ASCII", "unknown-8bit"
    return "ISO-8859", "iso-8859-1"


def _terminators(data: bytes, complete: bool) -> str:
    crlf = data.count(b"\r\n")
    lf = data.count(b"\n") - crlf
    cr = data.count(b"\r") - crlf
    notes = []
    kinds = []
    if crlf:
        kinds.append("CRLF")
    if cr:
        kinds.append("CR")
    if lf and kinds:
        kinds.append("LF")
    if kinds:
        notes.append(f"with {', '.join(kinds)} line terminators")
    elif not lf and complete:
        notes.append("with no line terminators")
    head = data[:65536].decode("utf-8", "surrogateescape")  # what file measures: characters
    longest = max((len(line) for line in head.replace("\r", "\n").split("\n")), default=0)
    if longest > 300:
        notes.insert(0, f"with very long lines ({longest})")
    if b"\x1b" in data:
        notes.append("with escape sequences")
    if b"\x08" in data:
        notes.append("with overstriking")
    return "".join(", " + n for n in notes)


def _shebang(data: bytes):
    if not data.startswith(b"#!"):
        return None
    line = data[2:].split(b"\n", 1)[0].decode("utf-8", "replace").strip()
    words = line.split()
    if not words:
        return None
    prog = words[0].rsplit("/", 1)[-1]
    if prog == "env" and len(words) > 1:
        rest = [w for w in words[1:] if not w.startswith("-")]
        prog = rest[0].rsplit("/", 1)[-1] if rest else "env"
    base = prog.rstrip("0123456789.")
    return SCRIPTS.get(prog) or SCRIPTS.get(base)


def sniff(data: bytes, complete: bool, tail: bytes = b"", shell=None):
    """(description, mime type, mime encoding) of file contents."""
    if data.startswith(b"\x7fELF") and len(data) >= 20:
        return _elf(data)
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return _png(data), "image/png", "binary"
    if data[:6] in (b"GIF87a", b"GIF89a"):
        desc = f"GIF image data, version {data[3:6].decode()}"
        if len(data) >= 10:
            w, h = struct.unpack("<HH", data[6:10])
            desc += f", {w} x {h}"
        return desc, "image/gif", "binary"
    if data.startswith(b"\xff\xd8\xff"):
        return _jpeg(data), "image/jpeg", "binary"
    if data.startswith(b"%PDF-"):
        ver = data[5:8].decode("latin-1")
        return f"PDF document, version {ver}", "application/pdf", "binary"
    if data.startswith(b"\x1f\x8b"):
        return _gzip(data, tail, shell), "application/gzip", "binary"
    if data.startswith(b"BZh"):
        return "bzip2 compressed data, block size = {}00k".format(data[3:4].decode(
            "latin-1")), "application/x-bzip2", "binary"
    if data.startswith(b"\xfd7zXZ\0"):
        return "XZ compressed data, checksum CRC64", "application/x-xz", "binary"
    if data.startswith(b"\x28\xb5\x2f\xfd"):
        return "Zstandard compressed data (v0.8+)", "application/zstd", "binary"
    if data.startswith(b"PK\x03\x04") and len(data) >= 30:
        return _zip(data), "application/zip", "binary"
    if len(data) >= 262 and data[257:262] == b"ustar":
        gnu = data[257:265] == b"ustar  \0"
        return ("POSIX tar archive (GNU)" if gnu else "POSIX tar archive",
                "application/x-tar", "binary")
    pyc = _pyc(data)
    if pyc is not None:
        return pyc, "application/x-bytecode.python", "binary"
    if data.startswith(b"SQLite format 3\0") and len(data) >= 100:
        return _sqlite(data), "application/vnd.sqlite3", "binary"
    info = _text_info(data)
    if info is None:
        return _signature(data)
    kind, charset = info
    enc = kind.replace("Unicode text, ", "")
    notes = _terminators(data, complete)
    script = _shebang(data)
    if script is not None:
        k, mime, pattern = script
        desc = pattern.format(k=k, e=enc if enc not in ("ASCII",) else "ASCII")
        return desc + notes, mime, charset
    stripped = data.lstrip()
    if stripped[:1] in (b"{", b"[") and complete:
        try:
            json.loads(data.decode("utf-8-sig"))
            return "JSON text data", "application/json", charset
        except (ValueError, UnicodeDecodeError):
            pass
    if is_csv(data):
        return "CSV text", "text/csv", charset
    low = stripped[:256].lower()
    rule = text_rule(data[:8192].decode("utf-8", "surrogateescape").lstrip("\ufeff"))
    if rule is not None:
        return with_encoding(rule[0], kind) + notes, rule[1], charset
    if low.startswith(b"<?xml"):
        ver = "1.0"
        return f"XML {ver} document, {enc} text" + notes, "text/xml", charset
    if low.startswith(b"<!doctype html") or low.startswith(b"<html"):
        return f"HTML document, {enc} text" + notes, "text/html", charset
    text_kind = kind + " text" if kind.startswith("Unicode") else kind + " text"
    return text_kind + notes, "text/plain", charset


# the first magic number of each CPython 3 release's byte code (Lib/importlib/_bootstrap_external)
_PYC_RELEASES = ((3500, "3.12 or newer"), (3450, "3.11"), (3430, "3.10"), (3420, "3.9"),
                 (3400, "3.8"))


def _pyc(data: bytes) -> str | None:
    """A CPython 3.7+ .pyc header, as file 5.44 reads it."""
    if len(data) < 16 or data[2:4] != b"\r\n":
        return None
    magic, flags = struct.unpack("<HxxI", data[:8])
    version = next((v for m, v in _PYC_RELEASES if magic >= m), None)
    if version is None or magic >= 3600:
        return None
    desc = f"Byte-compiled Python module for CPython {version}"
    if flags & 1:
        digest, = struct.unpack("<Q", data[8:16])
        return desc + (f", hash-based, check-source flag {'set' if flags & 2 else 'unset'}, "
                       f"hash: {digest:#x}")
    import time

    ts, size = struct.unpack("<II", data[8:16])
    when = time.strftime("%a %b %e %H:%M:%S %Y", time.gmtime(ts))
    return desc + f", timestamp-based, .py timestamp: {when} UTC, .py size: {size} bytes"


def _sqlite(data: bytes) -> str:
    """file 5.44's Magdir/sqlite line for a database header."""
    u32 = lambda off: struct.unpack(">I", data[off:off + 4])[0]  # noqa: E731
    desc = "SQLite 3.x database"
    if u32(68):
        desc += f", application id {u32(68)}"
    if u32(60):
        desc += f", user version {u32(60)}"
    desc += f", last written using SQLite version {u32(96)}"
    if data[18] == 2 or data[19] == 2:
        desc += f", writer version {data[18]}, read version {data[19]}"
    for off, what, usual in ((21, "maximum", 64), (22, "minimum", 32), (23, "leaf", 32)):
        if data[off] != usual:
            desc += f", {what} payload {data[off]}"
    cookie = u32(40)
    enc = {1: "UTF-8", 2: "UTF-16 little endian", 3: "UTF-16 big endian"}.get(
        u32(56), f"unknown {u32(56)} encoding")
    return (desc + f", file counter {u32(24)}, database pages {u32(28)}, cookie "
            f"{hex(cookie) if cookie else 0}, schema {u32(44)}, {enc}, "
            f"version-valid-for {u32(92)}")


def _signature(data: bytes):
    """Binary data of a kind the table above does not know: puremagic's signature library
    names it (its wording, not file's); unknown to both, it is "data"."""
    try:
        import puremagic

        found = puremagic.magic_string(data)
    except Exception:  # noqa: BLE001 - no signature matched, or the library is absent
        found = []
    if found:
        best = found[0]
        mime = next((m.mime_type for m in found if m.mime_type), "application/octet-stream")
        return best.name, mime, "binary"
    return "data", "application/octet-stream", "binary"


def _elf(data: bytes):
    cls = {1: "32-bit", 2: "64-bit"}.get(data[4], "invalid class")
    little = data[5] == 1
    order = "LSB" if little else "MSB"
    e = "<" if little else ">"
    etype, machine = struct.unpack(e + "HH", data[16:20])
    interp = dynamic = False
    try:
        if data[4] == 2:
            phoff, = struct.unpack(e + "Q", data[32:40])
            phentsize, phnum = struct.unpack(e + "HH", data[54:58])
        else:
            phoff, = struct.unpack(e + "I", data[28:32])
            phentsize, phnum = struct.unpack(e + "HH", data[42:46])
        for i in range(phnum):
            off = phoff + i * phentsize
            if off + 4 > len(data):
                break
            ptype, = struct.unpack(e + "I", data[off:off + 4])
            if ptype == 3:
                interp = True
            elif ptype == 2:
                dynamic = True
    except struct.error:
        pass
    kinds = {1: "relocatable", 2: "executable", 3: "shared object", 4: "core file"}
    kind = kinds.get(etype, "unknown type")
    mime = {1: "application/x-object", 2: "application/x-executable",
            3: "application/x-sharedlib", 4: "application/x-coredump"}.get(etype,
                                                                           "application/octet-stream")
    if etype == 3 and interp:
        kind, mime = "pie executable", "application/x-pie-executable"
    arch = ELF_MACHINES.get(machine, f"*unknown arch 0x{machine:x}*")
    desc = f"ELF {cls} {order} {kind}, {arch}, version {data[6]} (SYSV)"
    if etype in (2, 3):
        desc += ", dynamically linked" if (interp or dynamic) else ", statically linked"
    return desc, mime, "binary"


def _png(data: bytes) -> str:
    desc = "PNG image data"
    if len(data) >= 29 and data[12:16] == b"IHDR":
        w, h, depth, color, _c, _f, interlace = struct.unpack(">IIBBBBB", data[16:29])
        colors = {0: "grayscale", 2: "RGB", 3: "colormap", 4: "gray+alpha", 6: "RGBA"}
        desc += (f", {w} x {h}, {depth}-bit/color {colors.get(color, 'unknown')}, "
                 f"{'interlaced' if interlace else 'non-interlaced'}")
    return desc


def _jpeg(data: bytes) -> str:
    desc = "JPEG image data"
    if data[6:11] == b"JFIF\0" and len(data) >= 13:
        desc += f", JFIF standard {data[11]}.{data[12]:02d}"
    elif data[6:10] == b"Exif":
        desc += ", Exif standard"
    return desc


def _gzip(data: bytes, tail: bytes, shell) -> str:
    desc = "gzip compressed data"
    if len(data) < 10:
        return desc
    flags = data[3]
    mtime, = struct.unpack("<I", data[4:8])
    pos = 10
    if flags & 4 and len(data) >= 12:
        xlen, = struct.unpack("<H", data[10:12])
        pos += 2 + xlen
    if flags & 8:
        end = data.find(b"\0", pos)
        if end > 0:
            desc += f', was "{data[pos:end].decode("utf-8", "surrogateescape")}"'
    if mtime and shell is not None:
        dt = localtime(shell, mtime)
        desc += ", last modified: " + dt.strftime("%a %b %e %H:%M:%S %Y")
    xfl = data[8]
    if xfl == 2:
        desc += ", max compression"
    elif xfl == 4:
        desc += ", max speed"
    os_names = {0: "FAT filesystem (MS-DOS, OS/2, NT)", 3: "Unix", 7: "Macintosh",
                11: "NTFS filesystem (NT)"}
    if data[9] in os_names:
        desc += ", from " + os_names[data[9]]
    if len(tail) >= 4:
        size, = struct.unpack("<I", tail[-4:])
        desc += f", original size modulo 2^32 {size}"
    return desc


def _zip(data: bytes) -> str:
    ver, _flags, method = struct.unpack("<HHH", data[4:10])
    methods = {0: "store", 8: "deflate", 9: "deflate64", 12: "bzip2", 14: "lzma", 93: "zstd"}
    m = methods.get(method, str(method))
    return f"Zip archive data, at least v{ver // 10}.{ver % 10} to extract, compression method={m}"


async def main(shell, argv: list[str]) -> int:
    brief = follow = nopad = print0 = False
    mime = None  # None, "type", "encoding", "both"
    sep = ":"
    files_from = []
    try:
        opts, names = parse(argv[1:], "bihLF:N0f:kzZsrnpEcC", {
            "brief": "b", "mime": "i", "mime-type": "mime-type",
            "mime-encoding": "mime-encoding", "no-dereference": "h", "dereference": "L",
            "separator=": "F", "no-pad": "N", "print0": "0", "files-from=": "f",
            "keep-going": "k", "uncompress": "z", "special-files": "s", "raw": "r",
            "no-buffer": "n", "preserve-date": "p"})
        if await help_or_version(shell, PROG, opts, HELP):
            return 0
        for k, v in opts:
            if k == "b":
                brief = True
            elif k == "i":
                mime = "both"
            elif k == "mime-type":
                mime = "type" if mime != "encoding" else "both"
            elif k == "mime-encoding":
                mime = "encoding" if mime != "type" else "both"
            elif k == "L":
                follow = True
            elif k == "h":
                follow = False
            elif k == "F":
                sep = v
            elif k == "N":
                nopad = True
            elif k == "0":
                print0 = True
            elif k == "f":
                files_from.append(v)
    except Usage as e:
        if e.message:
            await shell.error(PROG, e.message)
        await shell.stderr.write(encode(USAGE))
        return 1
    for ff in files_from:
        try:
            data = shell.fs.read_bytes(ff) if ff != "-" else await shell.stdin.read()
        except FileSystemError as e:
            await shell.error(PROG, f"Cannot open `{ff}' ({strerror(e)})")
            return 1
        names.extend(line for line in data.decode("utf-8", "surrogateescape").split("\n")
                     if line)
    if not names:
        await shell.stderr.write(encode(USAGE))
        return 1
    names = ["/dev/stdin" if n == "-" else n for n in names]
    width = 0 if nopad or brief else max(len(n) for n in names) + len(sep)
    out = Output(shell.stdout)
    for name in names:
        shell.budget.check()
        desc, mtype, menc = await describe(shell, name, follow)
        if mime == "both":
            text = mtype + (f"; charset={menc}" if menc else "")
        elif mime == "type":
            text = mtype
        elif mime == "encoding":
            text = menc or "binary"
        else:
            text = desc
        if brief:
            await out.text(text + "\n")
        elif print0:
            await out.text(f"{name}\0{sep} {text}\n")
        else:
            label = name + sep
            await out.text(f"{label.ljust(width)} {text}\n")
    await out.flush()
    return 0


async def describe(shell, name: str, follow: bool):
    fs = shell.fs
    if name == "/dev/stdin":
        data = await shell.stdin.read(READ_MAX)
        complete = len(data) < READ_MAX
        if not data:
            return "empty", "inode/x-empty", "binary"
        return sniff(data, complete, data[-4:], shell)
    try:
        st = stat(fs, name) if follow else lstat(fs, name)
    except FileSystemError as e:
        return (f"cannot open `{name}' ({strerror(e)})", "cannot open", "")
    mode = st.st_mode
    if _stat.S_ISLNK(mode):
        try:
            target = fs.readlink(name)
        except FileSystemError:
            target = "?"
        try:
            stat(fs, name)
            return f"symbolic link to {target}", "inode/symlink", "binary"
        except FileSystemError:
            return f"broken symbolic link to {target}", "inode/symlink", ""
    if _stat.S_ISDIR(mode):
        return "directory", "inode/directory", "binary"
    if _stat.S_ISCHR(mode):
        return "character special", "inode/chardevice", "binary"
    if _stat.S_ISBLK(mode):
        return "block special", "inode/blockdevice", "binary"
    if _stat.S_ISFIFO(mode):
        return "fifo (named pipe)", "inode/fifo", "binary"
    if _stat.S_ISSOCK(mode):
        return "socket", "inode/socket", "binary"
    if st.st_size == 0:
        return "empty", "inode/x-empty", "binary"
    try:
        with fs.open(name, "rb") as f:
            data = f.read(READ_MAX)
            complete = len(data) < READ_MAX
            tail = data[-4:]
            if not complete and st.st_size >= 4:
                f.seek(st.st_size - 4)
                tail = f.read(4)
    except FileSystemError as e:
        return (f"cannot open `{name}' ({strerror(e)})", "cannot open", "")
    except OSError as e:
        return (f"cannot read `{name}' ({strerror(e)})", "cannot read", "")
    return sniff(data, complete, tail, shell)
