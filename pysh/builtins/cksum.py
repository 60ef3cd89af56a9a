"""cksum and sum (GNU coreutils 9.1): the POSIX CRC, the BSD and System V sums, and
`cksum -a` for the digests md5sum and friends compute (handed to pysh.builtins.sums)."""

from __future__ import annotations

import zlib

from pysh.builtins import sums
from pysh.builtins._textutil import (
    OptionError,
    help_text,
    parse_options,
    quote,
    quotef,
    strerror,
    usage,
    version_text,
)
from pysh.shellkit import on_write_error
from pysh.shellkit.streams import BytesInput
from pysh.shellkit.text import encode

CKSUM_HELP = """\
Usage: cksum [OPTION]... [FILE]...
Print or verify checksums.
By default use the 32 bit CRC algorithm.

With no FILE, or when FILE is -, read standard input.

  -a, --algorithm=TYPE  select the digest type to use.  See DIGEST below.
  -c, --check           read checksums from the FILEs and check them
  -l, --length=BITS     digest length in bits; must not exceed the max for
                          the blake2 algorithm and must be a multiple of 8
      --tag             create a BSD-style checksum (the default)
      --untagged        create a reversed style checksum, without digest type
  -z, --zero            end each output line with NUL, not newline,
                          and disable file name escaping

      --help        display this help and exit
      --version     output version information and exit

DIGEST determines the digest algorithm and default output format:
  sysv      (equivalent to sum -s)
  bsd       (equivalent to sum -r)
  crc       (equivalent to cksum)
  md5       (equivalent to md5sum)
  sha1      (equivalent to sha1sum)
  sha224    (equivalent to sha224sum)
  sha256    (equivalent to sha256sum)
  sha384    (equivalent to sha384sum)
  sha512    (equivalent to sha512sum)
  blake2b   (equivalent to b2sum)
"""

SUM_HELP = """\
Usage: sum [OPTION]... [FILE]...
Print checksum and block counts for each FILE.

With no FILE, or when FILE is -, read standard input.

  -r              use BSD sum algorithm (the default), use 1K blocks
  -s, --sysv      use System V sum algorithm, use 512 bytes blocks
      --help        display this help and exit
      --version     output version information and exit
"""

DIGESTS = {"md5": "md5sum", "sha1": "sha1sum", "sha224": "sha224sum", "sha256": "sha256sum",
           "sha384": "sha384sum", "sha512": "sha512sum", "blake2b": "b2sum"}
ALGORITHMS = ("bsd", "sysv", "crc", *DIGESTS, "sm3")

# POSIX cksum is CRC-32 (polynomial 0x04C11DB7) fed most significant bit first; zlib's crc32 is
# the same polynomial fed least significant bit first. Reversing the bits of every byte going in
# and of the register coming out turns one into the other, at zlib's speed.
_REVERSE = bytes(int(f"{b:08b}"[::-1], 2) for b in range(256))


def _reverse32(x: int) -> int:
    return int(f"{x:032b}"[::-1], 2)


class _Crc:
    def __init__(self) -> None:
        self.state = 0  # the register, bit-reversed, starting from 0 as POSIX says

    def update(self, data: bytes) -> None:
        self.state = zlib.crc32(data.translate(_REVERSE), self.state ^ 0xFFFFFFFF) ^ 0xFFFFFFFF

    def result(self, length: int) -> str:
        octets = bytearray()  # the length goes in too, low octet first, no more octets than needed
        n = length
        while n:
            octets.append(n & 0xFF)
            n >>= 8
        self.update(bytes(octets))
        return f"{_reverse32(self.state) ^ 0xFFFFFFFF} {length}"


class _Bsd:
    def __init__(self) -> None:
        self.state = 0

    def update(self, data: bytes) -> None:
        s = self.state
        for b in data:
            s = ((s >> 1) + ((s & 1) << 15) + b) & 0xFFFF
        self.state = s

    def result(self, length: int) -> str:
        return f"{self.state:05d} {(length + 1023) // 1024:5d}"


class _Sysv:
    def __init__(self) -> None:
        self.state = 0

    def update(self, data: bytes) -> None:
        self.state += sum(data)

    def result(self, length: int) -> str:
        r = (self.state & 0xFFFF) + ((self.state & 0xFFFFFFFF) >> 16)
        r = (r & 0xFFFF) + (r >> 16)
        return f"{r} {(length + 511) // 512}"


async def _checksum(shell, name: str, algo):
    """(checksum text, None) or (None, error)."""
    try:
        stream = shell.open_input(name)
    except OSError as e:
        return None, e
    length = 0
    try:
        while True:
            chunk = await stream.read(1 << 20)
            if not chunk:
                break
            shell.budget.check()
            length += len(chunk)
            algo.update(chunk)
    except OSError as e:
        return None, e
    finally:
        stream.close()
    return algo.result(length), None


async def _print_sums(shell, prog: str, make, files: list[str]) -> int:
    """One line per input; a file named on the command line (even '-') is named after it."""
    status = 0
    for name in files or ["-"]:
        text, err = await _checksum(shell, name, make())
        if err is not None:
            await shell.error(prog, f"{quotef(name)}: {strerror(err)}")
            status = 1
            continue
        await shell.stdout.write(encode(text + (f" {name}" if files else "") + "\n"))
    return status


async def _tagged_algorithm(shell, files: list[str]):
    """(digest, shell) for `cksum -c`: the digest the first BSD-style line of the first check
    list names ('MD5 (f) = ...'), and the shell to check with (a list on stdin is read here,
    so the checker gets it back as its stdin)."""
    name = files[0] if files else "-"
    try:
        stream = shell.open_input(name)
    except OSError:
        return "md5", shell  # the checker reports the missing list in its own words
    try:
        head = await (stream.read() if name == "-" else stream.read(4096))
    finally:
        stream.close()
    if name == "-":
        shell = shell.child(fds={**shell.fds, 0: BytesInput(head)})
    label = head.split(b" (", 1)[0].lstrip(b"\\").decode("ascii", "replace")
    names = {"MD5": "md5", "SHA1": "sha1", "SHA224": "sha224", "SHA256": "sha256",
             "SHA384": "sha384", "SHA512": "sha512"}
    return ("blake2b" if label.startswith("BLAKE2b") else names.get(label)), shell


@on_write_error(1, "cksum: write error\n")
async def cksum_main(shell, argv: list[str]) -> int:
    try:
        opts, files = parse_options(argv[1:], "a:cl:wz", {
            "algorithm=": "a", "check": "c", "length=": "l", "tag": "tag", "untagged": "untagged",
            "zero": "z", "warn": "w", "ignore-missing": "ignore-missing", "quiet": "quiet",
            "status": "status", "strict": "strict", "help": "help", "version": "version"})
    except OptionError as e:
        return await usage(shell, "cksum", str(e))
    algo = "crc"
    explicit = False
    passed: list[str] = []
    untagged = False
    for k, v in opts:
        if k == "help":
            return await help_text(shell, CKSUM_HELP)
        if k == "version":
            return await version_text(shell, "cksum")
        if k == "a":
            if v not in ALGORITHMS:
                await shell.error("cksum", f"invalid argument {quote(v or '')} for "
                                           f"{quote('--algorithm')}")
                listed = "\n".join(f"  - {quote(a)}" for a in ALGORITHMS)
                await shell.stderr.write(encode(f"Valid arguments are:\n{listed}\n"
                                                "Try 'cksum --help' for more information.\n"))
                return 1
            algo, explicit = v, True
        elif k == "untagged":
            untagged = True
        elif k == "tag":
            untagged = False
        else:
            passed.append(f"--{k}" if len(k) > 1 else f"-{k}")
            if k == "l":
                passed.append(v or "")
    if "-c" in passed and algo == "crc" and not explicit:
        # a check list names its digest on each line (BSD style, as cksum writes by default)
        tagged, shell = await _tagged_algorithm(shell, files)
        if tagged is None:  # cksum -c reads only the tagged lines cksum writes
            listname = files[0] if files else "-"
            shown = "standard input" if listname == "-" else listname
            await shell.error("cksum", f"{quotef(shown)}: no properly formatted checksum lines "
                                       "found")
            return 1
        algo = tagged
    if algo in DIGESTS:
        if algo != "blake2b" and "-l" in passed:
            await shell.error("cksum", "--length is only supported with --algorithm=blake2b")
            return 1
        tag = [] if untagged or "-c" in passed else ["--tag"]
        return await sums.main(shell, ["cksum", *tag, *passed, "--", *files],
                               algorithm=DIGESTS[algo])
    if "-c" in passed:
        await shell.error("cksum", "--check is not supported with --algorithm={bsd,sysv,crc}")
        return 1
    if "-l" in passed:
        await shell.error("cksum", "--length is only supported with --algorithm=blake2b")
        return 1
    if algo == "sm3":
        await shell.error("cksum", "the sm3 digest is not available in pysh")
        return 1
    make = {"crc": _Crc, "bsd": _Bsd, "sysv": _Sysv}[algo]
    return await _print_sums(shell, "cksum", make, files)


@on_write_error(1, "sum: write error\n")
async def sum_main(shell, argv: list[str]) -> int:
    try:
        opts, files = parse_options(argv[1:], "rs", {"sysv": "s", "help": "help",
                                                     "version": "version"})
    except OptionError as e:
        return await usage(shell, "sum", str(e))
    make = _Bsd
    for k, _ in opts:
        if k == "help":
            return await help_text(shell, SUM_HELP)
        if k == "version":
            return await version_text(shell, "sum")
        make = _Sysv if k == "s" else _Bsd
    return await _print_sums(shell, "sum", make, files)
