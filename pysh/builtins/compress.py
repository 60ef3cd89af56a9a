"""xz, unxz, xzcat, lzma, unlzma, lzcat (XZ Utils 5.4), bzip2, bunzip2, bzcat (1.0.8), and
zstd, unzstd, zstdcat, zstdmt (Zstandard CLI 1.5.4).

The codecs are the standard library's ``lzma`` and ``bz2`` over the same
liblzma and libbz2 the real tools use, so the compressed bytes are the real
tools' bytes. zstd uses the standard library's ``compression.zstd`` (Python 3.14+) or
its backport ``backports.zstd`` (libzstd 1.5.7: the same bytes as zstd 1.5.4 at the
default level for inputs up to ~100 KiB; higher levels and larger inputs may differ
by a few bytes, and decompress identically). Files go through the FileSystem door: a compressed file takes
its input's mode and times, and the input is removed unless ``-k`` or
``-c``; a failed output is removed again. Messages and exit statuses are the
tools' own (xz: 1 error, 2 warning; bzip2: 1 I/O problem, 2 corrupt input).

Not supported (refused with a message): xz's raw filter chains
(``--lzma1``, ``--x86``, ...), ``--files``/``--files0``, ``xz -lv``; lzip
(``.lz``) input; zstd's dictionaries, benchmark, training, -r, lz4 and compressing
to formats other than zstd, ``zstd -lv``.
"""

from __future__ import annotations

import bz2
import lzma
import re as _re
import stat as _stat
import zlib

from pysh.builtins._textutil import strerror
from pysh.shellkit.options import OptionError, parse_options
from pysh.shellkit.text import encode

CHUNK = 1 << 18


class ToolError(Exception):
    """A per-file failure: its message is already printed; ``status`` is its exit status."""

    def __init__(self, status: int):
        super().__init__(status)
        self.status = status


class Fatal(Exception):
    """A failure that ends the whole run (bzip2's cleanUpAndFail)."""

    def __init__(self, status: int):
        super().__init__(status)
        self.status = status


# ============================================================== shared file plumbing
async def _read_chunks(shell, f):
    budget = shell.budget
    while True:
        chunk = f.read(CHUNK)
        if not chunk:
            return
        budget.check()
        yield chunk


async def _stdin_chunks(shell):
    budget = shell.budget
    while True:
        chunk = await shell.stdin.read(CHUNK)
        if not chunk:
            return
        budget.check()
        yield chunk


class _Sink:
    """Where output goes: the shell's stdout, a file through the door, or nowhere (-t)."""

    def __init__(self, shell, f=None, stdout: bool = False):
        self.shell = shell
        self.f = f
        self.stdout = stdout
        self.count = 0

    async def write(self, data: bytes) -> None:
        if not data:
            return
        self.count += len(data)
        if self.stdout:
            await self.shell.stdout.write(data)
        elif self.f is not None:
            self.f.write(data)
            self.shell.budget.count_written(len(data))


def _copy_attrs(fs, src_st, dst: str) -> None:
    try:
        fs.chmod(dst, _stat.S_IMODE(src_st.st_mode) & 0o777)
        fs.utime(dst, ns=(src_st.st_atime_ns, src_st.st_mtime_ns))
    except OSError:
        pass


# ============================================================== xz
XZ_HELP = """\
Usage: xz [OPTION]... [FILE]...
Compress or decompress FILEs in the .xz format.

  -z, --compress      force compression
  -d, --decompress    force decompression
  -t, --test          test compressed file integrity
  -l, --list          list information about .xz files
  -k, --keep          keep (don't delete) input files
  -f, --force         force overwrite of output file and (de)compress links
  -c, --stdout        write to standard output and don't delete input files
  -0 ... -9           compression preset; default is 6; take compressor *and*
                      decompressor memory usage into account before using 7-9!
  -e, --extreme       try to improve compression ratio by using more CPU time;
                      does not affect decompressor memory requirements
  -T, --threads=NUM   use at most NUM threads; the default is 1; set to 0
                      to use as many threads as there are processor cores
  -q, --quiet         suppress warnings; specify twice to suppress errors too
  -v, --verbose       be verbose; specify twice for even more verbose
  -h, --help          display this short help and exit
  -H, --long-help     display the long help (lists also the advanced options)
  -V, --version       display the version number and exit

With no FILE, or when FILE is -, read standard input.

In the sandbox the codec is liblzma through Python's lzma module; raw filter
chains, --files, --files0 and -lv are not supported.
"""

_XZ_MAGIC = b"\xfd7zXZ\x00"
_CHECKS = {"none": lzma.CHECK_NONE, "crc32": lzma.CHECK_CRC32, "crc64": lzma.CHECK_CRC64,
           "sha256": lzma.CHECK_SHA256}
_CHECK_NAMES = {0: "None", 1: "CRC32", 4: "CRC64", 10: "SHA-256"}
_XZ_PROGS = {
    "xz": ("compress", "xz", False), "unxz": ("decompress", "xz", False),
    "xzcat": ("decompress", "xz", True), "lzma": ("compress", "lzma", False),
    "unlzma": ("decompress", "lzma", False), "lzcat": ("decompress", "lzma", True),
}


def _nicestr(value: int, unit_min: int = 0) -> str:
    """xz's uint_to_nicestr(value, unit_min, TiB, false)."""
    if unit_min == 0 and value < 10000:
        return f"{value} B"
    d = float(value)
    unit = 0
    while True:
        d /= 1024.0
        unit += 1
        if not (unit < unit_min or (d > 9999.9 and unit < 4)):
            break
    return f"{d:.1f} " + ("B", "KiB", "MiB", "GiB", "TiB")[unit]


def _xz_sizes(compressed: int, uncompressed: int) -> str:
    ratio = compressed / uncompressed if uncompressed > 0 else 16.0
    tail = " > 9.999" if ratio > 9.999 else f" = {ratio:.3f}"
    return f"{_nicestr(compressed)} / {_nicestr(uncompressed)}{tail}"


def sniff(head: bytes) -> str | None:
    """xz's own format detection on the first 8 KiB: "xz", "lzma" or None (coder.c)."""
    if head[:6] == _XZ_MAGIC:
        return "xz"
    if len(head) < 13 or head[0] > (4 * 5 + 4) * 9 + 8:
        return None
    dict_size = int.from_bytes(head[1:5], "little")
    if dict_size != 0xFFFFFFFF:
        d = dict_size - 1
        for sh in (2, 3, 4, 8, 16):
            d |= d >> sh
        if d + 1 != dict_size or dict_size == 0:
            return None
    size = int.from_bytes(head[5:13], "little")
    if size != (1 << 64) - 1 and size > 1 << 38:
        return None
    return "lzma"


async def _with_head(head: bytes, chunks):
    if head:
        yield head
    async for c in chunks:
        yield c


async def _take_head(chunks, n: int = 8192) -> tuple[bytes, object]:
    """The first ``n`` bytes (fewer at the end) and an iterator over the rest."""
    it = chunks.__aiter__()
    head = b""
    while len(head) < n:
        try:
            head += await it.__anext__()
        except StopAsyncIteration:
            break
    return head, it


def _vli(data: bytes, i: int) -> tuple[int, int]:
    value = 0
    shift = 0
    while True:
        if i >= len(data) or shift > 63:
            raise ValueError("vli")
        b = data[i]
        i += 1
        value |= (b & 0x7F) << shift
        if not b & 0x80:
            return value, i
        shift += 7


def xz_index(data: bytes) -> tuple[int, int, int, set[int]]:
    """(streams, blocks, uncompressed size, checks) of a whole .xz file; ValueError if bad."""
    import binascii

    end = len(data)
    streams = blocks = usize = 0
    checks: set[int] = set()
    while end > 0:
        while end >= 4 and data[end - 4:end] == b"\0\0\0\0":  # stream padding
            end -= 4
        if end < 24:
            raise ValueError("truncated")
        footer = data[end - 12:end]
        if footer[10:12] != b"YZ":
            raise ValueError("footer")
        if binascii.crc32(footer[4:10]) != int.from_bytes(footer[0:4], "little"):
            raise ValueError("footer crc")
        backward = (int.from_bytes(footer[4:8], "little") + 1) * 4
        check = footer[9] & 0x0F
        index_start = end - 12 - backward
        if index_start < 12 or data[index_start] != 0:
            raise ValueError("index")
        n, i = _vli(data, index_start + 1)
        unpadded_total = 0
        for _ in range(n):
            unpadded, i = _vli(data, i)
            size, i = _vli(data, i)
            unpadded_total += (unpadded + 3) & ~3
            usize += size
        stream_start = index_start - unpadded_total - 12
        if stream_start < 0 or data[stream_start:stream_start + 6] != _XZ_MAGIC:
            raise ValueError("header")
        streams += 1
        blocks += n
        checks.add(check)
        end = stream_start
    return streams, blocks, usize, checks


class Xz:
    def __init__(self, shell, prog: str):
        self.shell = shell
        self.fs = shell.fs
        self.prog = prog
        mode, fmt, to_stdout = _XZ_PROGS.get(prog, _XZ_PROGS["xz"])
        self.mode = mode
        self.prog_format = fmt
        self.format: str | None = None  # --format; else settled by the mode (settle_format)
        self.stdout = to_stdout
        self.keep = to_stdout
        self.force = False
        self.quiet = 0
        self.verbose = 0
        self.no_warn = False
        self.suffix: str | None = None
        self.preset = 6
        self.extreme = False
        self.check = "crc64"
        self.single_stream = False
        self.status = 0

    async def msg(self, text: str, status: int) -> None:
        """A message (warning: status 2; error: 1), unless -q / -qq silence it."""
        if status == 2 and not self.no_warn:
            self.status = max(self.status, 2) if self.status != 1 else 1
        elif status == 1:
            self.status = 1
        if (status == 2 and self.quiet >= 1) or (status == 1 and self.quiet >= 2):
            return
        await self.shell.stderr.write(encode(f"{self.prog}: {text}\n"))

    def settle_format(self) -> None:
        if self.format is None:
            if self.prog_format == "lzma":
                self.format = "lzma"
            else:
                self.format = "xz" if self.mode == "compress" else "auto"
        elif self.format == "auto" and self.mode == "compress":
            self.format = "xz"

    # -- codecs ----------------------------------------------------------------
    def compressor(self):
        preset = self.preset | (lzma.PRESET_EXTREME if self.extreme else 0)
        if self.format == "lzma":
            return lzma.LZMACompressor(format=lzma.FORMAT_ALONE, preset=preset)
        return lzma.LZMACompressor(format=lzma.FORMAT_XZ, check=_CHECKS[self.check],
                                   preset=preset)

    def detect(self, head: bytes) -> str | None:
        """The input's format: "xz", "lzma", or None when not recognized."""
        if self.format == "auto":
            return sniff(head)
        return self.format

    async def decode(self, name: str, chunks, sink: _Sink, head: bytes | None = None) -> None:
        """Decompress a stream of chunks (concatenated .xz streams, padding) into ``sink``."""
        if head is None:
            head, chunks = await _take_head(chunks)
        kind = self.detect(head)
        if kind is None:
            if self.stdout and self.force and self.mode == "decompress":
                await sink.write(head)  # xz -dcf copies what it does not recognize
                async for c in chunks:
                    await sink.write(c)
                return
            await self.msg(f"{name}: File format not recognized", 1)
            raise ToolError(1)
        dec = lzma.LZMADecompressor(format=lzma.FORMAT_XZ if kind == "xz" else lzma.FORMAT_ALONE)
        between = b""  # input after a finished stream: padding, then maybe another stream
        async for data in _with_head(head, chunks):
            while data:
                if dec is None:
                    between = (between + data).lstrip(b"\0")
                    data = b""
                    if len(between) < 6:
                        break
                    if between[:6] != _XZ_MAGIC:
                        await self.msg(f"{name}: Compressed data is corrupt", 1)
                        raise ToolError(1)
                    dec = lzma.LZMADecompressor(format=lzma.FORMAT_XZ)
                    data, between = between, b""
                try:
                    out = dec.decompress(data)
                except lzma.LZMAError:
                    await self.msg(f"{name}: Compressed data is corrupt", 1)
                    raise ToolError(1) from None
                await sink.write(out)
                if not dec.eof:
                    break
                data = dec.unused_data
                dec = None
                if self.single_stream or kind == "lzma":
                    return  # .lzma has one stream; what follows is ignored
        if dec is not None or between:
            await self.msg(f"{name}: Unexpected end of input", 1)
            raise ToolError(1)

    # -- one operand ---------------------------------------------------------
    def target_name(self, name: str) -> str | None:
        """The output file name for ``name``, or None after a warning."""
        if self.mode == "compress":
            if self.format == "lzma":
                sufs = [".lzma", ".tlz"]
                new = self.suffix or ".lzma"
            else:
                sufs = [".xz", ".txz"]
                new = self.suffix or ".xz"
            for s in ([self.suffix] if self.suffix else []) + sufs:
                if name.endswith(s) and len(name) > len(s):
                    return "\0" + s
            return name + new
        pairs = [(self.suffix, "")] if self.suffix else []
        if self.format in ("auto", "xz"):
            pairs += [(".xz", ""), (".txz", ".tar")]
        if self.format in ("auto", "lzma"):
            pairs += [(".lzma", ""), (".tlz", ".tar")]
        for s, rep in pairs:
            if name.endswith(s) and len(name) > len(s):
                return name[:-len(s)] + rep
        return None

    async def one(self, name: str) -> None:
        fs = self.fs
        shell = self.shell
        if name == "-":
            await self.one_stdin()
            return
        try:
            lst = fs.lstat(name)
        except OSError as e:
            await self.msg(f"{name}: {strerror(e)}", 1)
            return
        to_stdout = self.stdout or self.mode == "test"
        if _stat.S_ISLNK(lst.st_mode) and not (self.force or to_stdout):
            await self.msg(f"{name}: Is a symbolic link, skipping", 2)
            return
        try:
            st = fs.stat(name)
        except OSError as e:
            await self.msg(f"{name}: {strerror(e)}", 1)
            return
        if _stat.S_ISDIR(st.st_mode):
            await self.msg(f"{name}: Is a directory, skipping", 2)
            return
        if not _stat.S_ISREG(st.st_mode) and not (to_stdout and shell.stream_data(name)
                                                  is not None):
            await self.msg(f"{name}: Not a regular file, skipping", 2)
            return
        try:
            fin = fs.open(name, "rb")
        except OSError as e:
            await self.msg(f"{name}: {strerror(e)}", 1)
            return
        try:
            await self._one_open(name, st, fin, to_stdout)
        finally:
            fin.close()

    async def _one_open(self, name: str, st, fin, to_stdout: bool) -> None:
        fs = self.fs
        shell = self.shell
        head = None
        if self.mode != "compress":
            head = fin.read(8192)
            if self.detect(head) is None and not (self.stdout and self.force):
                await self.msg(f"{name}: File format not recognized", 1)
                return
        out_name = None
        if not to_stdout:
            if self.format == "raw" and not self.suffix:
                await self.msg("With --format=raw, --suffix=.SUF is required unless writing "
                               "to stdout", 1)
                return
            out_name = self.target_name(name)
            if out_name is None:
                await self.msg(f"{name}: Filename has an unknown suffix, skipping", 2)
                return
            if out_name.startswith("\0"):
                await self.msg(f"{name}: File already has `{out_name[1:]}' suffix, skipping", 2)
                return
            if st.st_nlink > 1 and not self.force and not self.keep:
                await self.msg(f"{name}: Input file has more than one hard link, skipping", 2)
                return
            if fs.lexists(out_name):
                if not self.force:
                    await self.msg(f"{out_name}: File exists", 1)
                    return
                try:
                    fs.unlink(out_name)
                except OSError as e:
                    await self.msg(f"{out_name}: Cannot remove: {strerror(e)}", 1)
                    return
        fout = None
        try:
            if out_name is not None:
                try:
                    fout = fs.open(out_name, "wb", perm=0o600)
                except OSError as e:
                    await self.msg(f"{out_name}: {strerror(e)}", 1)
                    return
            sink = _Sink(shell, fout, stdout=self.stdout and self.mode != "test")
            ok = await self.run(name, _read_chunks(shell, fin), sink, head)
        finally:
            if fout is not None:
                fout.close()
        if out_name is not None:
            if not ok:
                try:
                    fs.unlink(out_name)
                except OSError:
                    pass
                return
            _copy_attrs(fs, st, out_name)
            if not self.keep:
                try:
                    fs.unlink(name)
                except OSError as e:
                    await self.msg(f"{name}: Cannot remove: {strerror(e)}", 1)

    async def one_stdin(self) -> None:
        shell = self.shell
        if self.mode == "list":
            await self.msg("--list does not support reading from standard input", 1)
            return
        if self.mode == "compress" and not self.stdout and shell.stdout.isatty():
            await self.msg("Compressed data cannot be written to a terminal", 1)
            return
        sink = _Sink(shell, stdout=self.mode != "test")
        await self.run("(stdin)", _stdin_chunks(shell), sink)

    async def run(self, name: str, chunks, sink: _Sink, head: bytes | None = None) -> bool:
        counted = [0]

        async def counting():
            async for c in chunks:
                counted[0] += len(c)
                yield c

        if head is not None:
            counted[0] += len(head)

        try:
            if self.mode == "compress":
                comp = self.compressor()
                async for c in counting():
                    await sink.write(comp.compress(c))
                await sink.write(comp.flush())
                compressed, plain = sink.count, counted[0]
            else:
                await self.decode(name, counting(), sink, head)
                compressed, plain = counted[0], sink.count
                if self.mode == "test":
                    plain = sink.count
        except ToolError:
            return False
        except OSError as e:
            await self.msg(f"{name}: {strerror(e)}", 1)
            return False
        if self.verbose:
            await self.shell.stderr.write(encode(f"{name}: {_xz_sizes(compressed, plain)}\n"))
        return True

    # -- --list ----------------------------------------------------------------
    async def list_files(self, names: list[str]) -> None:
        fs = self.fs
        rows = []
        for name in names:
            if name == "-":
                await self.msg("--list does not support reading from standard input", 1)
                continue
            try:
                st = fs.stat(name)
                if _stat.S_ISDIR(st.st_mode):
                    await self.msg(f"{name}: Is a directory, skipping", 2)
                    continue
                data = fs.read_bytes(name)
            except OSError as e:
                await self.msg(f"{name}: {strerror(e)}", 1)
                continue
            self.shell.budget.check()
            if not data or len(data) < 24 or data[:6] != _XZ_MAGIC:
                why = ("File is empty" if not data else "Too small to be a valid .xz file"
                       if len(data) < 24 else "File format not recognized")
                await self.msg(f"{name}: {why}", 1)
                continue
            try:
                streams, blocks, usize, checks = xz_index(data)
            except ValueError:
                await self.msg(f"{name}: Compressed data is corrupt", 1)
                continue
            rows.append((streams, blocks, len(data), usize, checks, name))
        if not rows:
            return
        out = ["Strms  Blocks   Compressed Uncompressed  Ratio  Check   Filename"]

        def line(streams, blocks, csize, usize, checks, label):
            ratio = "---" if usize == 0 or csize / usize > 9.999 else f"{csize / usize:.3f}"
            check = ",".join(_CHECK_NAMES.get(c, f"Unknown-{c}") for c in sorted(checks))
            return (f"{streams:>5} {blocks:>7}  {_nicestr(csize):>11} {_nicestr(usize):>12}  "
                    f"{ratio:>5}  {check:<7} {label}")

        for r in rows:
            out.append(line(*r))
        if len(rows) > 1:
            out.append("-" * 79)
            tot = [sum(r[i] for r in rows) for i in range(4)]
            checks = set().union(*(r[4] for r in rows))
            out.append(line(*tot, checks, f"{len(rows)} files"))
        await self.shell.stdout.write(encode("\n".join(out) + "\n"))


async def xz_main(shell, argv: list[str]) -> int:
    prog = argv[0].rsplit("/", 1)[-1]
    x = Xz(shell, prog if prog in _XZ_PROGS else "xz")
    prog = x.prog
    try:
        opts, files = parse_options(argv[1:], "zdtlkfcS:F:C:0123456789eT:M:qvQhHV", {
            "compress": "z", "decompress": "d", "uncompress": "d", "test": "t", "list": "l",
            "keep": "k", "force": "f", "stdout": "c", "to-stdout": "c", "suffix=": "S",
            "format=": "F", "check=": "C", "extreme": "e", "threads=": "T",
            "memlimit=": "M", "memory=": "M", "memlimit-compress=": "M",
            "memlimit-decompress=": "M", "memlimit-mt-decompress=": "M", "no-adjust": "noop",
            "quiet": "q", "verbose": "v", "no-warn": "Q", "help": "h", "long-help": "H",
            "version": "V", "single-stream": "single", "no-sparse": "noop", "fast": "0",
            "best": "9", "block-size=": "noop", "block-list=": "noop", "flush-timeout=": "noop",
            "robot": "unsupported", "files?": "unsupported", "files0?": "unsupported",
            "lzma1?": "unsupported", "lzma2?": "unsupported", "x86?": "unsupported",
            "arm?": "unsupported", "armthumb?": "unsupported", "arm64?": "unsupported",
            "powerpc?": "unsupported", "ia64?": "unsupported", "sparc?": "unsupported",
            "delta?": "unsupported", "info-memory": "unsupported", "ignore-check": "noop"})
    except OptionError as e:
        await shell.stderr.write(encode(f"{prog}: {e}\n{prog}: Try `{prog} --help' for more "
                                        "information.\n"))
        return 1
    for k, v in opts:
        if k in ("h", "H"):
            await shell.stdout.write(encode(XZ_HELP.replace("xz", prog, 1)))
            return 0
        if k == "V":
            await shell.stdout.write(b"xz (XZ Utils) 5.4.1\nliblzma 5.4.1\n")
            return 0
        if k == "unsupported":
            opt = next(a for a in argv[1:] if a.startswith("--"))
            await shell.error(prog, f"{opt.split('=')[0]}: not supported in the sandbox's xz")
            return 1
        if k == "z":
            x.mode = "compress"
        elif k == "d":
            x.mode = "decompress"
        elif k == "t":
            x.mode = "test"
        elif k == "l":
            x.mode = "list"
        elif k == "k":
            x.keep = True
        elif k == "f":
            x.force = True
        elif k == "c":
            x.stdout = x.keep = True
        elif k == "S":
            if not v or "/" in v:
                await shell.error(prog, f"{v}: Invalid filename suffix")
                return 1
            x.suffix = v
        elif k == "F":
            if v not in ("auto", "xz", "lzma", "alone", "raw"):
                await shell.error(prog, f"{v}: Unknown file format type")
                return 1
            x.format = "lzma" if v == "alone" else v
            if v == "raw":
                await shell.error(prog, "--format=raw: not supported in the sandbox's xz")
                return 1
        elif k == "C":
            if v not in _CHECKS:
                await shell.error(prog, f"{v}: Unsupported integrity check type")
                return 1
            x.check = v
        elif k.isdigit():
            x.preset = int(k)
        elif k == "e":
            x.extreme = True
        elif k == "q":
            x.quiet += 1
        elif k == "v":
            x.verbose += 1
        elif k == "Q":
            x.no_warn = True
        elif k == "single":
            x.single_stream = True
    x.settle_format()
    if x.mode == "list":
        if x.verbose:
            await shell.error(prog, "--list --verbose: not supported in the sandbox's xz")
            return 1
        if not files:
            await x.msg("--list does not support reading from standard input", 1)
            return x.status
        await x.list_files(files)
        return x.status
    if x.mode == "test":
        x.stdout = True
        x.keep = True
    for name in files or ["-"]:
        shell.budget.check()
        await x.one(name)
    return x.status


# ============================================================== bzip2
BZIP2_USAGE = """\
bzip2, a block-sorting file compressor.  Version 1.0.8, 13-Jul-2019.

   usage: {prog} [flags and input files in any order]

   -h --help           print this message
   -d --decompress     force decompression
   -z --compress       force compression
   -k --keep           keep (don't delete) input files
   -f --force          overwrite existing output files
   -t --test           test compressed file integrity
   -c --stdout         output to standard out
   -q --quiet          suppress noncritical error messages
   -v --verbose        be verbose (a 2nd -v gives more)
   -L --license        display software version & license
   -V --version        display software version & license
   -s --small          use less memory (at most 2500k)
   -1 .. -9            set block size to 100k .. 900k
   --fast              alias for -1
   --best              alias for -9

   If invoked as `bzip2', default action is to compress.
              as `bunzip2',  default action is to decompress.
              as `bzcat', default action is to decompress to stdout.

   If no file names are given, bzip2 compresses or decompresses
   from standard input to standard output.  You can combine
   short flags, so `-v -4' means the same as -v4 or -4v, &c.

"""

_BLANK = "   "  # bzip2 prints these "empty" lines with three spaces
BZIP2_VERSION = "\n".join([
    "bzip2, a block-sorting file compressor.  Version 1.0.8, 13-Jul-2019.", _BLANK,
    "   Copyright (C) 1996-2019 by Julian Seward.", _BLANK,
    "   This program is free software; you can redistribute it and/or modify",
    "   it under the terms set out in the LICENSE file, which is included",
    "   in the bzip2 source distribution.", _BLANK,
    "   This program is distributed in the hope that it will be useful,",
    "   but WITHOUT ANY WARRANTY; without even the implied warranty of",
    "   MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the",
    "   LICENSE file for more details.", _BLANK, ""])

_BZ_SUFFIXES = [(".bz2", ""), (".bz", ""), (".tbz2", ".tar"), (".tbz", ".tar")]
_RECOVER = ("\nYou can use the `bzip2recover' program to attempt to recover\n"
            "data from undamaged sections of corrupted files.\n\n")
_CADVISE = ("\nIt is possible that the compressed file(s) have become corrupted.\n"
            "You can use the -tvv option to test integrity of such files.\n" + _RECOVER)


class _BzCorrupt(Exception):
    """kind: 'magic' (not bzip2 at all), 'data' (CRC), 'eof' (truncated)."""

    def __init__(self, kind: str):
        super().__init__(kind)
        self.kind = kind


class Bzip2:
    def __init__(self, shell, prog: str):
        self.shell = shell
        self.fs = shell.fs
        self.prog = prog
        self.mode = {"bunzip2": "decompress", "bzcat": "decompress"}.get(prog, "compress")
        self.stdout = prog == "bzcat"
        self.keep = False
        self.force = False
        self.quiet = False
        self.verbose = 0
        self.level = 9
        self.longest = 7
        self.status = 0
        self.test_fails = False
        self.out_name: str | None = None

    def set_exit(self, v: int) -> None:
        self.status = max(self.status, v)

    async def err(self, text: str) -> None:
        await self.shell.stderr.write(encode(text))

    def pad(self, name: str) -> str:
        return " " * max(0, self.longest - len(name))

    async def decode(self, chunks, sink: _Sink, name: str, warn_garbage: bool) -> None:
        """Decompress concatenated bzip2 streams; raises _BzCorrupt."""
        dec = None
        streams = 0
        pending = b""  # the start of a stream, until its 4-byte magic can be checked
        async for chunk in chunks:
            data = chunk
            while data:
                if dec is None:
                    pending += data
                    data = b""
                    if len(pending) < 4 and b"BZh".startswith(pending[:3]):
                        break  # not enough to tell yet
                    if not (pending[:3] == b"BZh" and 0x31 <= pending[3] <= 0x39):
                        if streams == 0 and self.force and self.mode != "test":
                            await sink.write(pending)  # bzip2 -f copies what is not bzip2
                            async for c in chunks:
                                await sink.write(c)
                            return
                        if streams == 0:
                            raise _BzCorrupt("magic")
                        if warn_garbage:
                            await self.garbage(name)
                        return
                    dec = bz2.BZ2Decompressor()
                    data, pending = pending, b""
                try:
                    out = dec.decompress(data)
                except OSError:
                    raise _BzCorrupt("data") from None
                await sink.write(out)
                if not dec.eof:
                    break
                streams += 1
                data = dec.unused_data
                dec = None
        if dec is not None:
            raise _BzCorrupt("eof")
        if pending or streams == 0:
            if streams == 0:
                raise _BzCorrupt("eof" if b"BZh".startswith(pending[:3]) else "magic")
            if warn_garbage:
                await self.garbage(name)

    async def garbage(self, name: str) -> None:
        if self.quiet:
            return
        if self.mode == "test":
            await self.err("trailing garbage after EOF ignored\n" if self.verbose else
                           f"{self.prog}: {name}: trailing garbage after EOF ignored\n")
        else:
            await self.err(f"\n{self.prog}: {name}: trailing garbage after EOF ignored\n")

    async def fail(self, status: int) -> None:
        """bzip2's cleanUpAndFail: remove a half-written output, then stop the run."""
        if self.out_name is not None and self.mode != "test":
            if not self.quiet:
                await self.err(f"{self.prog}: Deleting output file {self.out_name}, "
                               "if it exists.\n")
            try:
                self.fs.unlink(self.out_name)
            except OSError:
                pass
        raise Fatal(status)

    async def one(self, name: str | None) -> None:
        fs = self.fs
        shell = self.shell
        prog = self.prog
        shown = name if name is not None else "(stdin)"
        to_stdout = self.stdout or name is None
        st = None
        if name is not None:
            try:
                st = fs.stat(name)
            except OSError as e:
                await self.err(f"{prog}: Can't open input file {name}: {strerror(e)}.\n")
                self.set_exit(1)
                return
            if _stat.S_ISDIR(st.st_mode):
                await self.err(f"{prog}: Input file {name} is a directory.\n")
                self.set_exit(1)
                return
        out_name = None
        if self.mode == "compress" and name is not None and not to_stdout:
            for s, _ in _BZ_SUFFIXES:
                if name.endswith(s):
                    if not self.quiet:
                        await self.err(f"{prog}: Input file {name} already has {s} suffix.\n")
                    self.set_exit(1)
                    return
            out_name = name + ".bz2"
        elif self.mode == "decompress" and name is not None and not to_stdout:
            for s, rep in _BZ_SUFFIXES:
                if name.endswith(s):
                    out_name = name[:-len(s)] + rep
                    break
            else:
                out_name = name + ".out"
                if not self.quiet:
                    await self.err(f"{prog}: Can't guess original name for {name} -- using "
                                   f"{out_name}\n")
        if name is not None and st is not None and not _stat.S_ISREG(st.st_mode) \
                and shell.stream_data(name) is None:
            await self.err(f"{prog}: Input file {name} is not a normal file.\n")
            self.set_exit(1)
            return
        if out_name is not None:
            if fs.lexists(out_name):
                if not self.force:
                    await self.err(f"{prog}: Output file {out_name} already exists.\n")
                    self.set_exit(1)
                    return
                try:
                    fs.unlink(out_name)
                except OSError:
                    pass
            if st is not None and st.st_nlink > 1 and not self.force:
                n = st.st_nlink - 1
                await self.err(f"{prog}: Input file {name} has {n} other link"
                               f"{'s' if n > 1 else ''}.\n")
                self.set_exit(1)
                return
        fin = None
        if name is not None:
            try:
                fin = fs.open(name, "rb")
            except OSError as e:
                await self.err(f"{prog}: Can't open input file {name}: {strerror(e)}.\n")
                self.set_exit(1)
                return
            chunks = _read_chunks(shell, fin)
        else:
            chunks = _stdin_chunks(shell)
        fout = None
        try:
            if out_name is not None:
                try:
                    fout = fs.open(out_name, "wb", perm=0o600)
                except OSError as e:
                    await self.err(f"{prog}: Can't create output file {out_name}: "
                                   f"{strerror(e)}.\n")
                    self.set_exit(1)
                    return
                self.out_name = out_name
            sink = _Sink(shell, fout, stdout=to_stdout and self.mode != "test")
            if self.verbose:
                await self.err(f"  {shown}: {self.pad(shown)}")
            if self.mode == "compress":
                ok = await self.compress(chunks, sink)
            else:
                ok = await self.decompress(chunks, sink, shown, out_name)
        finally:
            if fin is not None:
                fin.close()
            if fout is not None:
                fout.close()
        self.out_name = None
        if out_name is not None:
            if not ok:
                try:
                    fs.unlink(out_name)
                except OSError:
                    pass
                return
            _copy_attrs(fs, st, out_name)
            if not self.keep:
                try:
                    fs.unlink(name)
                except OSError:
                    pass

    async def compress(self, chunks, sink: _Sink) -> bool:
        comp = bz2.BZ2Compressor(self.level)
        total = 0
        async for c in chunks:
            total += len(c)
            await sink.write(comp.compress(c))
        await sink.write(comp.flush())
        if self.verbose:
            if total == 0:
                await self.err(" no data compressed.\n")
            else:
                n_in, n_out = float(total), float(sink.count)
                await self.err(f"{n_in / n_out:6.3f}:1, {8.0 * n_out / n_in:6.3f} bits/byte, "
                               f"{100.0 * (1.0 - n_out / n_in):5.2f}% saved, {total} in, "
                               f"{sink.count} out.\n")
        return True

    async def decompress(self, chunks, sink: _Sink, shown: str, out_name: str | None) -> bool:
        prog = self.prog
        testing = self.mode == "test"
        try:
            await self.decode(chunks, sink, shown, True)
        except _BzCorrupt as e:
            if testing:
                if not self.verbose:
                    await self.err(f"{prog}: {shown}: ")
                await self.err({"magic": "bad magic number (file not created by bzip2)\n",
                                "data": "data integrity (CRC) error in data\n",
                                "eof": "file ends unexpectedly\n"}[e.kind])
                self.test_fails = True
                self.set_exit(2)
                return False
            if e.kind == "magic":
                await self.err(f"{prog}: {shown} is not a bzip2 file.\n")
                self.set_exit(2)
                return False
            outn = out_name or "(stdout)"
            if e.kind == "data":
                await self.err(f"\n{prog}: Data integrity error when decompressing.\n"
                               f"\tInput file = {shown}, output file = {outn}\n{_CADVISE}")
            else:
                reason = ("Inappropriate ioctl for device" if shown == "(stdin)" else
                          "Success" if out_name is None else "No such file or directory")
                await self.err(f"\n{prog}: Compressed file ends unexpectedly;\n\t"
                               "perhaps it is corrupted?  *Possible* reason follows.\n"
                               f"{prog}: {reason}\n"
                               f"\tInput file = {shown}, output file = {outn}\n{_CADVISE}")
            await self.fail(2)
        if self.verbose:
            await self.err("ok\n" if testing else "done\n")
        return True


async def bzip2_main(shell, argv: list[str]) -> int:
    prog = argv[0].rsplit("/", 1)[-1]
    if prog not in ("bzip2", "bunzip2", "bzcat"):
        prog = "bzip2"
    b = Bzip2(shell, prog)
    files: list[str] = []
    flags_done = False
    longs = {"--help": "h", "--decompress": "d", "--compress": "z", "--keep": "k",
             "--force": "f", "--test": "t", "--stdout": "c", "--quiet": "q",
             "--verbose": "v", "--small": "s", "--license": "L", "--version": "V",
             "--fast": "1", "--best": "9", "--repetitive-fast": "", "--repetitive-best": "",
             "--exponential": ""}
    flags: list[str] = []
    for a in argv[1:]:
        if flags_done or not a.startswith("-"):
            files.append(a)
            continue
        if a == "-":  # an empty flag group, as bzip2 reads it
            continue
        if a == "--":
            flags_done = True
            continue
        if a.startswith("--"):
            if a not in longs:
                await b.err(f"{prog}: Bad flag `{a}'\n" + BZIP2_USAGE.format(prog=prog))
                return 1
            flags.append(longs[a])
            continue
        for ch in a[1:]:
            if ch not in "cdzkftqvLVs123456789h":
                await b.err(f"{prog}: Bad flag `{a}'\n" + BZIP2_USAGE.format(prog=prog))
                return 1
            flags.append(ch)
    for ch in flags:
        if ch == "h":
            await b.err(BZIP2_USAGE.format(prog=prog))
            return 0
        if ch in ("L", "V"):
            await b.err(BZIP2_VERSION)
            return 0
        if ch == "c":
            b.stdout = True
        elif ch == "d":
            b.mode = "decompress"
        elif ch == "z":
            b.mode = "compress"
        elif ch == "k":
            b.keep = True
        elif ch == "f":
            b.force = True
        elif ch == "t":
            b.mode = "test"
        elif ch == "q":
            b.quiet = True
        elif ch == "v":
            b.verbose += 1
        elif ch.isdigit():
            b.level = int(ch)
    if b.mode == "test":
        b.stdout = False
    for f in files:
        b.longest = max(b.longest, len(f))
    names: list[str | None] = list(files) or [None]
    if b.mode == "compress" and b.stdout is False and names == [None] and \
            shell.stdout.isatty():
        await b.err(f"{prog}: I won't write compressed data to a terminal.\n"
                    f"{prog}: For help, type: `{prog} --help'.\n")
        return 1
    if b.stdout or b.mode == "test":
        b.keep = True
    done = 0
    try:
        for n in names:
            shell.budget.check()
            done += 1
            await b.one(n)
    except Fatal as f:
        if files and len(files) > done and not b.quiet:
            await b.err(f"{prog}: WARNING: some files have not been processed:\n"
                        f"{prog}:    {len(files)} specified on command line, "
                        f"{len(files) - done} not processed yet.\n\n")
        return f.status
    if b.mode == "test" and b.test_fails and not b.quiet:
        await b.err(_RECOVER)
    return b.status


# ============================================================== zstd
_ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
_ZSTD_BANNER = "*** Zstandard CLI (64-bit) v1.5.4, by Yann Collet ***\n"
_ZSTD_SUFFIXES = [(".zst", ""), (".tzst", ".tar"), (".gz", ""), (".tgz", ".tar"),
                  (".lzma", ""), (".xz", ""), (".txz", ".tar"), (".lz4", ""), (".tlz4", ".tar")]
_ZSTD_STDIN, _ZSTD_STDOUT = "/*stdin*\\", "/*stdout*\\"
ZSTD_USAGE = """\
Compress or decompress the INPUT file(s); reads from STDIN if INPUT is `-` or not provided.

Usage: {prog} [OPTIONS...] [INPUT... | -] [-o OUTPUT]

Options:
  -o OUTPUT                     Write output to a single file, OUTPUT.
  -k, --keep                    Preserve INPUT file(s). [Default]\x20
  --rm                          Remove INPUT file(s) after successful (de)compression.

  -#                            Desired compression level, where `#` is a number between 1 and 19;
                                lower numbers provide faster compression, higher numbers yield
                                better compression ratios. [Default: 3]

  -d, --decompress              Perform decompression.
  -D DICT                       Use DICT as the dictionary for compression or decompression.

  -f, --force                   Disable input and output checks. Allows overwriting existing files,
                                receiving input from the console, printing ouput to STDOUT, and
                                operating on links, block devices, etc. Unrecognized formats will be
                                passed-through through as-is.

  -h                            Display short usage and exit.
  -H, --help                    Display full help and exit.
  -V, --version                 Display the program version and exit.

"""
# options zstd has that the sandbox's does not: they run other programs' jobs (benchmark,
# dictionary training), read dictionaries or file lists, or walk directories
_ZSTD_REFUSED = ("-r", "-b", "-D", "--train", "--patch-from", "--filelist", "--output-dir-flat",
                 "--output-dir-mirror", "--trace", "--show-default-cparams", "--adapt", "-i", "-e",
                 "--zstd", "--target-compressed-block-size", "--split-block")


def _zstd_codec():
    """The codec: the standard library's compression.zstd (Python 3.14+), else its backport."""
    try:
        from compression import zstd  # type: ignore[import-not-found]
    except ImportError:
        from backports import zstd  # type: ignore[import-not-found,no-redef]
    return zstd


def _hr(size: int, verbose: bool = False) -> tuple[float, int, str]:
    """zstd's human-readable size (value, precision, suffix): UTIL_makeHumanReadableSize."""
    if verbose:
        return float(size), 0, " B"
    value, suffix = float(size), " B"
    for shift, name in ((60, " EiB"), (50, " PiB"), (40, " TiB"), (30, " GiB"), (20, " MiB"),
                        (10, " KiB")):
        if size >= 1 << shift:
            value, suffix = size / (1 << shift), name
            break
    if value >= 100 or int(value) == size:
        prec = 0
    elif value >= 10:
        prec = 1
    elif value > 1:
        prec = 2
    else:
        prec = 3
    return value, prec, suffix


def _hrs(size: int, verbose: bool = False, pad: int = 0) -> str:
    value, prec, suffix = _hr(size, verbose)
    return f"{value:6.{prec}f}{suffix:>{pad}}"


def zstd_frames(data: bytes) -> dict:
    """What zstd -l reports of a file: frames, skippable frames, content size (None when a
    frame does not record it), checksum. Raises ValueError when the data is not zstd."""
    i, frames, skips, usize, check = 0, 0, 0, 0, False
    while i < len(data):
        magic = data[i:i + 4]
        if len(magic) == 4 and magic[1:] == b"\x2a\x4d\x18" and magic[0] & 0xF0 == 0x50:
            if i + 8 > len(data):
                raise ValueError("truncated")
            i += 8 + int.from_bytes(data[i + 4:i + 8], "little")
            skips += 1
            continue
        if magic != _ZSTD_MAGIC:
            raise ValueError("not zstd")
        fhd = data[i + 4]
        single, has_check, did, fcs = fhd >> 5 & 1, fhd >> 2 & 1, fhd & 3, fhd >> 6
        j = i + 5 + (0 if single else 1) + (0, 1, 2, 4)[did]
        size_len = (1 if single else 0, 2, 4, 8)[fcs]
        if size_len:
            n = int.from_bytes(data[j:j + size_len], "little") + (256 if size_len == 2 else 0)
            usize = None if usize is None else usize + n
        else:
            usize = None
        j += size_len
        while True:  # the blocks
            if j + 3 > len(data):
                raise ValueError("truncated")
            head = int.from_bytes(data[j:j + 3], "little")
            kind, size = head >> 1 & 3, head >> 3
            j += 3 + (1 if kind == 1 else size)
            if head & 1:
                break
        if has_check:
            j += 4
        if j > len(data):
            raise ValueError("truncated")
        check = bool(has_check)
        frames += 1
        i = j
    return {"frames": frames + skips, "skips": skips, "usize": usize, "check": check}


class Zstd:
    def __init__(self, shell, prog: str):
        self.shell = shell
        self.fs = shell.fs
        self.prog = prog
        self.mode = {"unzstd": "decompress", "zstdcat": "decompress"}.get(prog, "compress")
        self.stdout = prog == "zstdcat"
        self.force = prog == "zstdcat"
        self.passthrough: bool | None = None  # not said: with -c -f (zstdcat's own way)
        self.out: str | None = None
        self.remove = False
        self.display = 2
        self.level = 3
        self.ultra = False
        self.checksum = True
        self.content_size = True
        self.long: int | None = None
        self.status = 0
        self.many = False  # several inputs: one summary line instead of one line each
        self.total_in = self.total_out = self.done = 0

    async def say(self, level: int, text: str) -> None:
        if self.display >= level:
            await self.shell.stderr.write(encode(text))

    async def fail(self, text: str, level: int = 1) -> None:
        self.status = 1
        await self.say(level, text)

    async def confirm(self, prompt: str, abort: str) -> bool:
        """zstd's y/n question, answered from standard input."""
        await self.shell.stderr.write(encode(prompt))
        line = await self.shell.stdin.readline()
        if line[:1] in (b"y", b"Y"):
            return True
        await self.shell.stderr.write(encode(abort + " \n"))
        return False

    # -- codecs ----------------------------------------------------------------
    def compressor(self, size: int | None):
        zstd = _zstd_codec()
        p = zstd.CompressionParameter
        opts = {p.compression_level: self.level, p.checksum_flag: int(self.checksum),
                p.content_size_flag: int(self.content_size)}
        if self.long is not None:
            opts[p.enable_long_distance_matching] = 1
            opts[p.window_log] = self.long
        comp = zstd.ZstdCompressor(options=opts)
        if size is not None:
            comp.set_pledged_input_size(size)
        return comp

    async def encode(self, chunks, sink: _Sink, size: int | None) -> None:
        comp = self.compressor(size)
        first = True
        async for c in chunks:
            first = False
            await sink.write(comp.compress(c))
        if first:  # empty input: the frame zstd writes when it knows the size is 0
            comp = self.compressor(0)
        await sink.write(comp.flush())

    async def decode(self, name: str, chunks, sink: _Sink) -> None:
        """Decompress concatenated frames (zstd, skippable; gzip, xz and lzma streams as zstd
        reads them too) into ``sink``; raises ToolError after the message."""
        zstd = _zstd_codec()
        buf = b""
        dec = None
        kind = None
        frames = 0
        skip = 0
        it = chunks.__aiter__()
        ended = False
        while True:
            if not buf or (dec is None and len(buf) < 8):
                if not ended:
                    try:
                        buf += await it.__anext__()
                        continue
                    except StopAsyncIteration:
                        ended = True
                if not buf:
                    break
            if skip:
                n = min(skip, len(buf))
                buf, skip = buf[n:], skip - n
                continue
            if dec is None:
                head = buf[:8]
                if head[:4] == _ZSTD_MAGIC:
                    kind, dec = "zstd", zstd.ZstdDecompressor()
                elif head[1:4] == b"\x2a\x4d\x18" and head[0] & 0xF0 == 0x50:
                    if len(buf) < 8:
                        break
                    skip = int.from_bytes(buf[4:8], "little")
                    buf = buf[8:]
                    frames += 1
                    continue
                elif head[:2] == b"\x1f\x8b":
                    kind, dec = "gzip", zlib.decompressobj(31)
                elif head[:6] == _XZ_MAGIC:
                    kind, dec = "xz", lzma.LZMADecompressor(format=lzma.FORMAT_XZ)
                elif head[:2] == b"\x5d\x00":
                    kind, dec = "lzma", lzma.LZMADecompressor(format=lzma.FORMAT_ALONE)
                elif head[:4] == b"\x04\x22\x4d\x18":
                    await self.fail(f"zstd: {name}: lz4 is not supported in the "
                                    "sandbox's zstd\n")
                    raise ToolError(1)
                elif frames == 0 and self.stdout and (self.passthrough or (
                        self.passthrough is None and self.force)):
                    await sink.write(buf)  # zstd -dcf copies what it does not recognize
                    async for c in it:
                        await sink.write(c)
                    return
                else:
                    why = "unknown header" if name == _ZSTD_STDIN else "unsupported format"
                    await self.fail(f"zstd: {name}: {why} \n")
                    raise ToolError(1)
            try:
                if kind == "zstd":
                    out = dec.decompress(buf, CHUNK)
                    buf = b""
                    while True:
                        await sink.write(out)
                        if dec.eof or dec.needs_input:
                            break
                        self.shell.budget.check()
                        out = dec.decompress(b"", CHUNK)
                    done = dec.eof
                elif kind == "gzip":
                    await sink.write(dec.decompress(buf))
                    buf = b""
                    done = dec.eof
                else:
                    await sink.write(dec.decompress(buf))
                    buf = b""
                    done = dec.eof
            except zstd.ZstdError as e:
                why = str(e).split(": ", 1)[-1]
                await self.fail(f"{name} : Decoding error (36) : {why} \n")
                raise ToolError(1) from None
            except (zlib.error, lzma.LZMAError):
                await self.fail(f"zstd: {name}: {kind} decoding error \n")
                raise ToolError(1) from None
            if done:
                buf = dec.unused_data
                dec = None
                frames += 1
        if dec is not None or skip:
            await self.fail(f"{name} : Read error (39) : premature end \n")
            raise ToolError(1)
        if frames == 0:
            await self.fail(f"zstd: {name}: unexpected end of file \n")
            raise ToolError(1)

    # -- one operand -------------------------------------------------------------
    def target(self, name: str) -> str | None:
        if self.out is not None:
            return self.out
        if self.mode == "compress":
            return name + ".zst"
        for suf, rep in _ZSTD_SUFFIXES:
            if name.endswith(suf) and len(name) > len(suf):
                return name[:-len(suf)] + rep
        return None

    async def report(self, name: str, dst: str, size_in: int, size_out: int) -> None:
        self.total_in += size_in
        self.total_out += size_out
        self.done += 1
        if self.display < 3 and (self.many or self.display < 2):
            return
        verbose = self.display > 3
        if self.mode == "compress":
            sizes = f"({_hrs(size_in, verbose)} => {_hrs(size_out, verbose)}, {dst})"
            if size_in:
                await self.say(2, f"{name:<20} :{size_out / size_in * 100:6.2f}%   {sizes} \n")
            else:
                await self.say(2, f"{name:<20} :  {sizes} \n")
        else:
            await self.say(2, f"{name:<20}: {size_out} bytes \n")

    async def one(self, name: str, sink_out=None) -> None:
        fs = self.fs
        if name == "-":
            sink = sink_out or _Sink(self.shell, stdout=self.mode != "test")
            await self.process(_ZSTD_STDIN, _stdin_chunks(self.shell), sink, None,
                               _ZSTD_STDOUT if sink.stdout else (self.out or ""))
            return
        dst = None
        if self.mode == "decompress" and sink_out is None:
            dst = self.target(name)
            if dst is None:
                await self.fail(f"zstd: {name}: unknown suffix (.zst/.tzst/.gz/.tgz/"
                                ".lzma/.xz/.txz/.lz4/.tlz4 expected). Can't derive the output "
                                "file name. Specify it with -o dstFileName. Ignoring.\n")
                return
        try:
            st = fs.stat(name)
        except OSError as e:
            await self.fail(f"zstd: can't stat {name} : {strerror(e)} -- ignored \n")
            return
        if _stat.S_ISDIR(st.st_mode):
            await self.fail(f"zstd: {name} is a directory -- ignored \n")
            return
        if sink_out is None and dst is None:
            dst = self.target(name)
        try:
            fin = fs.open(name, "rb")
        except OSError as e:
            await self.fail(f"zstd: {name}: {strerror(e)} \n")
            return
        try:
            if sink_out is not None:
                shown = _ZSTD_STDOUT if sink_out.stdout else (self.out or "")
                await self.process(name, _read_chunks(self.shell, fin), sink_out, st, shown)
                return
            await self.to_file(name, fin, st, dst)
        finally:
            fin.close()

    async def to_file(self, name: str, fin, st, dst: str) -> None:
        fs = self.fs
        if fs.lexists(dst) and not self.force:
            if self.display < 2:
                await self.fail(f"zstd: {dst} already exists; not overwritten  \n")
                return
            if not await self.confirm(f"zstd: {dst} already exists; overwrite (y/n) ? ",
                                      "Not overwritten  \n"):
                self.status = 1
                return
        try:
            if fs.lexists(dst):
                fs.unlink(dst)
            fout = fs.open(dst, "wb", perm=0o600)
        except OSError as e:
            await self.fail(f"zstd: {dst}: {strerror(e)}\n")
            return
        try:
            ok = await self.process(name, _read_chunks(self.shell, fin), _Sink(self.shell, fout),
                                    st, dst)
        finally:
            fout.close()
        if not ok:
            try:
                fs.unlink(dst)
            except OSError:
                pass
            return
        _copy_attrs(fs, st, dst)
        if self.remove:
            try:
                fs.unlink(name)
            except OSError as e:
                await self.fail(f"zstd: {name}: {strerror(e)}\n")

    async def process(self, name: str, chunks, sink: _Sink, st, dst: str) -> bool:
        counted = [0]

        async def counting():
            async for c in chunks:
                counted[0] += len(c)
                yield c

        start = sink.count
        try:
            if self.mode == "compress":
                size = st.st_size if st is not None and _stat.S_ISREG(st.st_mode) else None
                await self.encode(counting(), sink, size)
            else:
                await self.decode(name, counting(), sink)
        except ToolError:
            return False
        except OSError as e:
            await self.fail(f"zstd: {name}: {strerror(e)}\n")
            return False
        await self.report(name, dst, counted[0], sink.count - start)
        return True

    async def summary(self) -> None:
        if not self.many or not self.done:
            return
        if self.mode == "compress":
            if self.total_in:
                await self.say(2, f"{self.done:3d} files compressed : "
                                  f"{self.total_out / self.total_in * 100:.2f}% "
                                  f"({_hrs(self.total_in, pad=4)} => "
                                  f"{_hrs(self.total_out, pad=4)})\n")
        else:
            await self.say(2, f"{self.done} files decompressed : {self.total_out:6d} bytes "
                              "total \n")

    # -- --list ----------------------------------------------------------------
    async def list_files(self, names: list[str]) -> None:
        out = ["Frames  Skips  Compressed  Uncompressed  Ratio  Check  Filename"]
        total = {"frames": 0, "skips": 0, "csize": 0, "usize": 0, "check": True, "n": 0}

        def row(frames, skips, csize, usize, check, label):
            c = {True: "XXH64", False: "None"}.get(check, "")  # "": the files differ
            head = f"{frames:6d}  {skips:5d}  {_hrs(csize, pad=4)}"
            if usize is None:  # a frame without its content size
                return f"{head}{'':23}{c:>5}  {label}"
            value, prec, suffix = _hr(usize)
            ratio = usize / csize if csize else 0.0
            return f"{head}  {value:8.{prec}f}{suffix:>4}  {ratio:5.3f}  {c:>5}  {label}"

        for name in names:
            try:
                st = self.fs.stat(name)
                if not _stat.S_ISREG(st.st_mode):
                    raise IsADirectoryError
                data = self.fs.read_bytes(name)
            except OSError:
                await self.fail(f"Error : {name} is not a file \n")
                continue
            self.shell.budget.check()
            try:
                if len(data) < 6:  # shorter than any frame header
                    raise ValueError("short")
                info = zstd_frames(data)
            except ValueError as e:
                self.status = 1
                if str(e) != "not zstd":
                    await self.say(1, "Error: reached end of file with incomplete frame \n")
                if str(e) != "truncated":  # zstd says so on stdout
                    out.append(f'File "{name}" not compressed by zstd ')
                continue
            out.append(row(info["frames"], info["skips"], len(data), info["usize"],
                           info["check"], name))
            total["frames"] += info["frames"]
            total["skips"] += info["skips"]
            total["csize"] += len(data)
            total["usize"] = None if None in (total["usize"], info["usize"]) else \
                total["usize"] + info["usize"]
            total["check"] = info["check"] if total["n"] == 0 or total["check"] == \
                info["check"] else None
            total["n"] += 1
        if len(names) > 1:
            out.append("-" * 65 + " ")
            out.append(row(total["frames"], total["skips"], total["csize"], total["usize"],
                           total["check"], f"{total['n']} files"))
        await self.shell.stdout.write(encode("\n".join(out) + "\n"))


async def _zstd_usage(shell, prog: str, text: str = "Incorrect parameters \n") -> int:
    await shell.stderr.write(encode(text + ZSTD_USAGE.format(prog=prog)))
    return 1


def _zstd_number(text: str) -> int | None:
    """zstd's readU32FromChar: digits with an optional K/M (KiB/MiB) suffix."""
    m = _re.fullmatch(r"(\d+)(?:([KM])i?B?)?", text)
    if not m:
        return None
    return int(m.group(1)) << {None: 0, "K": 10, "M": 20}[m.group(2)]


async def zstd_main(shell, argv: list[str]) -> int:
    prog = argv[0].rsplit("/", 1)[-1]
    if prog not in ("zstd", "unzstd", "zstdcat", "zstdmt"):
        prog = "zstd"
    z = Zstd(shell, prog)
    files: list[str] = []
    args = argv[1:]
    i = 0
    only_files = False
    level_given = None
    while i < len(args):
        a = args[i]
        i += 1
        if only_files or a == "-" or not a.startswith("-"):
            files.append(a)
            continue
        if a == "--":
            only_files = True
            continue
        if a.startswith("--"):
            name, eq, val = a.partition("=")
            if name in _ZSTD_REFUSED:
                await shell.error(prog, f"{name}: not supported in the sandbox's zstd")
                return 1
            simple = {"--compress": ("mode", "compress"), "--decompress": ("mode", "decompress"),
                      "--uncompress": ("mode", "decompress"), "--test": ("mode", "test"),
                      "--list": ("mode", "list"), "--stdout": ("stdout", True),
                      "--force": ("force", True), "--keep": ("remove", False),
                      "--rm": ("remove", True), "--ultra": ("ultra", True),
                      "--check": ("checksum", True), "--no-check": ("checksum", False),
                      "--content-size": ("content_size", True),
                      "--no-content-size": ("content_size", False),
                      "--pass-through": ("passthrough", True),
                      "--no-pass-through": ("passthrough", False)}
            if name in simple and not eq:
                setattr(z, *simple[name])
            elif name == "--quiet" and not eq:
                z.display -= 1
            elif name == "--verbose" and not eq:
                z.display += 1
            elif name in ("--help", "--version") and not eq:
                args = args[:i - 1] + ["-H" if name == "--help" else "-V"] + args[i:]
                i -= 1
            elif name == "--fast":
                n = _zstd_number(val) if eq else 1
                if n is None or n == 0:
                    return await _zstd_usage(shell, prog)
                level_given = -n
            elif name == "--long":
                n = _zstd_number(val) if eq else 27
                if n is None or not 10 <= n <= 31:
                    return await _zstd_usage(shell, prog)
                z.long = n
            elif name == "--format":
                if val == "zstd":
                    continue
                if val in ("gzip", "xz", "lzma", "lz4"):
                    await shell.error(prog, f"--format={val}: not supported in the sandbox's "
                                            "zstd (decompressing .gz, .xz and .lzma is)")
                    return 1
                return await _zstd_usage(shell, prog)
            elif name in ("--threads", "--memory", "--memlimit", "--memlimit-decompress",
                          "--block-size", "--stream-size", "--size-hint", "--jobsize") and eq:
                if _zstd_number(val) is None:
                    return await _zstd_usage(shell, prog)
            elif name in ("--single-thread", "--no-progress", "--progress", "--sparse",
                          "--no-sparse", "--rsyncable", "--exclude-compressed", "--no-asyncio",
                          "--asyncio", "--no-row-match-finder", "--row-match-finder",
                          "--no-mmap", "--mmap") and not eq:
                pass  # speed, terminal and file-system knobs: the bytes are the same
            else:
                return await _zstd_usage(shell, prog)
            continue
        j = 1
        while j < len(a):
            ch = a[j]
            j += 1
            if ch.isdigit():
                k = j
                while k < len(a) and a[k].isdigit():
                    k += 1
                level_given = int(a[j - 1:k])
                j = k
            elif ch in "dztlcfkqvhHV":
                if ch == "d":
                    z.mode = "decompress"
                elif ch == "z":
                    z.mode = "compress"
                elif ch == "t":
                    z.mode = "test"
                elif ch == "l":
                    z.mode = "list"
                elif ch == "c":
                    z.stdout = True
                    z.out = None
                elif ch == "f":
                    z.force = True
                elif ch == "k":
                    z.remove = False
                elif ch == "q":
                    z.display -= 1
                elif ch == "v":
                    z.display += 1
                elif ch == "V":
                    await shell.stdout.write(_ZSTD_BANNER.encode())
                    return 0
                else:  # -h, -H
                    await shell.stdout.write(encode(ZSTD_USAGE.format(prog=prog)))
                    return 0
            elif ch == "o":
                if j < len(a):
                    z.out = a[j:]
                elif i < len(args) and not args[i].startswith("-"):
                    z.out = args[i]
                    i += 1
                else:
                    await shell.stderr.write(b"error: missing command argument \n")
                    return 1
                z.stdout = False
                break
            elif ch in "TBM":
                k = j
                while k < len(a) and (a[k].isdigit() or a[k] in "KMiB"):
                    k += 1
                if _zstd_number(a[j:k]) is None:
                    return await _zstd_usage(shell, prog)
                j = k
            elif "-" + ch in _ZSTD_REFUSED:
                await shell.error(prog, f"-{ch}: not supported in the sandbox's zstd")
                return 1
            else:
                return await _zstd_usage(shell, prog)
    if level_given is not None:
        top = 22 if z.ultra else 19
        if level_given > top:
            await z.say(1, f"Warning : compression level higher than max, reduced to {top} \n")
            level_given = top
        z.level = level_given or 3
    await z.say(3, _ZSTD_BANNER)
    if z.mode == "list":
        if not files or "-" in files:
            await shell.stderr.write(encode("zstd: --list does not support reading from "
                                            "standard input \nNo files given \n"))
            return 1
        await z.list_files(files)
        return z.status
    names = files or ["-"]
    to_stdout = z.stdout or (z.out is None and names == ["-"] and z.mode != "test")
    if to_stdout and z.display == 2:
        z.display = 1  # no status line when the data goes to stdout
    z.many = len(names) > 1
    single = None  # one output for every input (-c, -o with several inputs, -t)
    fout = None
    if z.mode == "test":
        single = _Sink(shell)
    elif to_stdout:
        single = _Sink(shell, stdout=True)
        if z.many:
            await z.say(2, "zstd: WARNING: all input files will be processed and "
                           "concatenated into stdout. \nThe concatenated output CANNOT "
                           "regenerate original file names nor directory structure. \n")
    elif z.out is not None and (z.many or names == ["-"]):
        if z.many:
            if not z.force and z.display < 2:
                await shell.stderr.write(b"Concatenating multiple processed inputs into a "
                                         b"single output loses file metadata. \nAborting. \n")
                return 1
            warning = (f"zstd: WARNING: all input files will be processed and concatenated "
                       f"into a single output file: {z.out} \nThe concatenated output CANNOT "
                       "regenerate original file names nor directory structure. \n")
            if z.force:
                await z.say(2, warning)
            elif not await z.confirm(warning + "Proceed? (y/n): ", "Aborting..."):
                return 1
        if shell.fs.lexists(z.out) and not z.force:
            if z.display < 2 or not await z.confirm(
                    f"zstd: {z.out} already exists; overwrite (y/n) ? ",
                    "Not overwritten  \n"):
                if z.display < 2:
                    await z.fail(f"zstd: {z.out} already exists; not overwritten  \n")
                return 1
        try:
            fout = shell.fs.open(z.out, "wb")
        except OSError as e:
            await z.fail(f"zstd: {z.out}: {strerror(e)}\n")
            return 1
        single = _Sink(shell, fout)
    try:
        for name in names:
            shell.budget.check()
            await z.one(name, single)
            if single is not None and z.remove and name != "-" and z.mode != "test" and \
                    not to_stdout and z.status == 0:
                try:
                    shell.fs.unlink(name)
                except OSError:
                    pass
    finally:
        if fout is not None:
            fout.close()
    await z.summary()
    return z.status
