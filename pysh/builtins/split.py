"""split: split a file into pieces written through the door (GNU coreutils 9.1)."""

from __future__ import annotations

from pysh.builtins._textutil import (
    NumberError,
    OptionError,
    help_text,
    parse_options,
    parse_size,
    quote,
    quoteaf,
    quotef,
    strerror,
    usage,
    version_text,
)
from pysh.shellkit.text import encode

HELP = """\
Usage: split [OPTION]... [FILE [PREFIX]]
Output pieces of FILE to PREFIXaa, PREFIXab, ...;
default size is 1000 lines, and default PREFIX is 'x'.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -a, --suffix-length=N   generate suffixes of length N (default 2)
      --additional-suffix=SUFFIX  append an additional SUFFIX to file names
  -b, --bytes=SIZE        put SIZE bytes per output file
  -C, --line-bytes=SIZE   put at most SIZE bytes of records per output file
  -d                      use numeric suffixes starting at 0, not alphabetic
      --numeric-suffixes[=FROM]  same as -d, but allow setting the start value
  -x                      use hex suffixes starting at 0, not alphabetic
      --hex-suffixes[=FROM]  same as -x, but allow setting the start value
  -e, --elide-empty-files  do not generate empty output files with '-n'
  -l, --lines=NUMBER      put NUMBER lines/records per output file
  -n, --number=CHUNKS     generate CHUNKS output files; see explanation below
  -t, --separator=SEP     use SEP instead of newline as the record separator;
                            '\\0' (zero) specifies the NUL character
      --verbose           print a diagnostic just before each
                            output file is opened
      --help        display this help and exit
      --version     output version information and exit

The SIZE argument is an integer and optional unit (example: 10K is 10*1024).
Units are K,M,G,T,P,E,Z,Y,R,Q (powers of 1024) or KB,MB,... (powers of 1000).
Binary prefixes can be used, too: KiB=K, MiB=M, and so on.

CHUNKS may be:
  N       split into N files based on size of input
  K/N     output Kth of N to stdout
  l/N     split into N files without splitting lines/records
  l/K/N   output Kth of N to stdout without splitting lines/records
  r/N     like 'l' but use round robin distribution
  r/K/N   likewise but only output Kth of N to stdout
"""

LONG = {"suffix-length=": "a", "additional-suffix=": "addsuffix", "bytes=": "b",
        "line-bytes=": "C", "numeric-suffixes?": "numeric", "hex-suffixes?": "hex",
        "elide-empty-files": "e", "lines=": "l", "number=": "n", "separator=": "t",
        "verbose": "verbose", "unbuffered": "u", "filter=": "filter", "help": "help",
        "version": "version"}


class SplitError(Exception):
    pass


class Namer:
    def __init__(self, prefix: str, alphabet: str, length: int, auto: bool, start: int,
                 extra: str):
        self.prefix = prefix
        self.alphabet = alphabet
        self.length = length
        self.auto = auto
        self.extra = extra
        base = len(alphabet)
        digits = []
        n = start
        for _ in range(length):
            digits.append(n % base)
            n //= base
        if n:
            raise SplitError("numerical suffix start value is too large for the suffix length")
        self.idx = digits[::-1]
        self.first = True

    def next(self) -> str:
        if not self.first:
            i = self.length
            while True:
                i -= 1
                if i < 0:
                    raise SplitError("output file suffixes exhausted")
                self.idx[i] += 1
                if self.auto and i == 0 and self.idx[0] + 1 >= len(self.alphabet):
                    # widen: the last letter joins the prefix, the suffix grows by one
                    self.prefix += self.alphabet[-1]
                    self.length += 1
                    self.idx = [0] * self.length
                    break
                if self.idx[i] < len(self.alphabet):
                    break
                self.idx[i] = 0
        self.first = False
        return self.prefix + "".join(self.alphabet[d] for d in self.idx) + self.extra


async def main(shell, argv: list[str]) -> int:
    prog = "split"
    args = []
    for a in argv[1:]:
        if len(a) > 1 and a[0] == "-" and a[1:].isdigit():
            args += ["-l", a[1:]]
        else:
            args.append(a)
    try:
        opts, operands = parse_options(args, "a:b:C:del:n:t:ux", LONG)
    except OptionError as e:
        return await usage(shell, prog, str(e))
    mode = ("l", 1000)
    alphabet = "abcdefghijklmnopqrstuvwxyz"
    length = 2
    length_given = False
    start = 0
    extra = ""
    elide = False
    verbose = False
    sep = b"\n"
    chunk_spec = None
    try:
        for k, v in opts:
            if k == "help":
                return await help_text(shell, HELP)
            if k == "version":
                return await version_text(shell, prog)
            v = v or ""
            if k == "a":
                if not v.isdigit():
                    raise SplitError(f"invalid suffix length: {quote(v)}")
                length = int(v)
                length_given = True
            elif k == "addsuffix":
                if "/" in v:
                    raise SplitError(f"invalid suffix {quote(v)}, contains directory separator")
                extra = v
            elif k in ("b", "C", "l"):
                try:
                    n = parse_size(v, "bkKmMGTPEZYRQ0" if k != "l" else "")
                except NumberError:
                    what = {"b": "number of bytes", "C": "number of bytes",
                            "l": "number of lines"}[k]
                    raise SplitError(f"invalid {what}: {quote(v)}") from None
                if n == 0:
                    what = "number of lines" if k == "l" else "number of bytes"
                    raise SplitError(f"invalid {what}: {quote(v)}: Numerical result out of range")
                mode = (k, n)
            elif k == "n":
                chunk_spec = v
                mode = ("n", 0)
            elif k in ("d", "numeric"):
                alphabet = "0123456789"
                if k == "numeric" and v:
                    if not v.isdigit():
                        raise SplitError(f"invalid number: {quote(v)}")
                    start = int(v)
            elif k in ("x", "hex"):
                alphabet = "0123456789abcdef"
                if k == "hex" and v:
                    start = int(v, 16)
            elif k == "e":
                elide = True
            elif k == "verbose":
                verbose = True
            elif k == "t":
                t = encode(v)
                if t == b"\\0":
                    t = b"\0"
                if len(t) != 1:
                    raise SplitError(f"multi-character separator {quote(v)}" if t else
                                     "empty record separator")
                sep = t
            elif k == "filter":
                raise SplitError("--filter is not supported in the sandbox")
    except SplitError as e:
        await shell.error(prog, str(e))
        return 1
    if len(operands) > 2:
        return await usage(shell, prog, f"extra operand {quote(operands[2])}")
    name = operands[0] if operands else "-"
    prefix = operands[1] if len(operands) > 1 else "x"
    try:
        stream = shell.open_input(name)
    except OSError as e:
        await shell.error(prog, f"cannot open {quoteaf(name)} for reading: {strerror(e)}")
        return 1
    try:
        data = await stream.read()
    except OSError as e:
        await shell.error(prog, f"{quotef(name)}: {strerror(e)}")
        return 1
    finally:
        stream.close()
    try:
        pieces, to_stdout = _pieces(data, mode, chunk_spec, sep, elide)
    except SplitError as e:
        await shell.error(prog, str(e))
        return 1
    if to_stdout is not None:
        await shell.stdout.write(to_stdout)
        return 0
    auto = not length_given and mode[0] != "n" and start == 0
    if mode[0] == "n" and not length_given:
        # the suffix must hold every chunk
        need = 2
        while len(alphabet) ** need < len(pieces):
            need += 1
        length = need
    try:
        namer = Namer(prefix, alphabet, length, auto, start, extra)
        for piece in pieces:
            fname = namer.next()
            if verbose:
                await shell.stdout.write(encode(f"creating file {quoteaf(fname)}\n"))
            try:
                out = shell.open_output(fname)
            except OSError as e:
                await shell.error(prog, f"{quotef(fname)}: {strerror(e)}")
                return 1
            try:
                await out.write(piece)
            finally:
                out.close()
            shell.budget.check()
    except SplitError as e:
        await shell.error(prog, str(e))
        return 1
    return 0


def _records(data: bytes, sep: bytes) -> list[bytes]:
    parts = data.split(sep)
    last = parts.pop()
    out = [p + sep for p in parts]
    if last:
        out.append(last)
    return out


def _pieces(data: bytes, mode, chunk_spec, sep: bytes, elide: bool):
    kind, n = mode
    if kind == "b":
        return [data[i:i + n] for i in range(0, len(data), n)], None
    if kind == "l":
        recs = _records(data, sep)
        return [b"".join(recs[i:i + n]) for i in range(0, len(recs), n)], None
    if kind == "C":
        out = []
        cur = bytearray()
        for rec in _records(data, sep):
            while len(rec) > n:
                if cur:
                    out.append(bytes(cur))
                    cur.clear()
                out.append(rec[:n])
                rec = rec[n:]
            if len(cur) + len(rec) > n:
                out.append(bytes(cur))
                cur.clear()
            cur += rec
        if cur:
            out.append(bytes(cur))
        return out, None
    # -n CHUNKS
    spec = chunk_spec or ""
    parts = spec.split("/")
    style = ""
    if parts[0] in ("l", "r"):
        style = parts.pop(0)
    try:
        nums = [int(p) for p in parts]
    except ValueError:
        raise SplitError(f"invalid number of chunks: {quote(spec)}") from None
    if len(nums) == 1:
        k, total = None, nums[0]
    elif len(nums) == 2:
        k, total = nums
    else:
        raise SplitError(f"invalid number of chunks: {quote(spec)}")
    if total == 0:
        raise SplitError(f"invalid number of chunks: {quote(spec)}: Numerical result out of range")
    if k is not None and not 1 <= k <= total:
        raise SplitError(f"invalid chunk number: {quote(str(k))}")
    size = len(data)
    chunks: list[bytes] = []
    if style == "r":
        recs = _records(data, sep)
        buckets = [[] for _ in range(total)]
        for i, rec in enumerate(recs):
            buckets[i % total].append(rec)
        chunks = [b"".join(b) for b in buckets]
    elif style == "l":
        step = size // total
        pos = 0
        for i in range(total):
            end = size if i == total - 1 else (i + 1) * step
            if end > pos:
                j = data.find(sep, end - 1) if end > 0 else -1
                end = size if j < 0 else j + 1
            end = max(end, pos)
            chunks.append(data[pos:end])
            pos = end
    else:
        step = size // total
        for i in range(total):
            a = i * step
            b = size if i == total - 1 else (i + 1) * step
            chunks.append(data[a:b])
    if k is not None:
        return [], chunks[k - 1]
    if elide:
        chunks = [c for c in chunks if c]
    return chunks, None
