"""md5sum, sha1sum, sha224sum, sha256sum, sha384sum, sha512sum, b2sum (GNU coreutils)."""

from __future__ import annotations

import hashlib
import re

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
from pysh.shellkit.text import decode, encode

ALGOS = {
    "md5sum": ("MD5", "md5", 128),
    "sha1sum": ("SHA1", "sha1", 160),
    "sha224sum": ("SHA224", "sha224", 224),
    "sha256sum": ("SHA256", "sha256", 256),
    "sha384sum": ("SHA384", "sha384", 384),
    "sha512sum": ("SHA512", "sha512", 512),
    "b2sum": ("BLAKE2b", "blake2b", 512),
}

HELP = """\
Usage: {prog} [OPTION]... [FILE]...
Print or check {tag} ({bits}-bit) checksums.

With no FILE, or when FILE is -, read standard input.

  -b, --binary         read in binary mode
  -c, --check          read checksums from the FILEs and check them
{b2}      --tag            create a BSD-style checksum
  -t, --text           read in text mode (default)
  -z, --zero           end each output line with NUL, not newline,
                       and disable file name escaping

The following five options are useful only when verifying checksums:
      --ignore-missing  don't fail or report status for missing files
      --quiet          don't print OK for each successfully verified file
      --status         don't output anything, status code shows success
      --strict         exit non-zero for improperly formatted checksum lines
  -w, --warn           warn about improperly formatted checksum lines

      --help        display this help and exit
      --version     output version information and exit
"""

LONG = {"binary": "b", "check": "c", "tag": "tag", "text": "t", "zero": "z",
        "ignore-missing": "ignore-missing", "quiet": "quiet", "status": "status",
        "strict": "strict", "warn": "w", "help": "help", "version": "version"}


def _escape(name: str) -> tuple[bool, str]:
    if "\\" in name or "\n" in name or "\r" in name:
        return True, name.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r")
    return False, name


def _unescape(name: str) -> str | None:
    out = []
    i = 0
    while i < len(name):
        c = name[i]
        if c == "\\":
            if i + 1 >= len(name):
                return None
            d = name[i + 1]
            if d == "\\":
                out.append("\\")
            elif d == "n":
                out.append("\n")
            elif d == "r":
                out.append("\r")
            else:
                return None
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


async def _digest(shell, name: str, hname: str, nbytes: int):
    """(hexdigest, None) or (None, error)."""
    try:
        stream = shell.open_input(name)
    except OSError as e:
        return None, e
    try:
        h = hashlib.blake2b(digest_size=nbytes) if hname == "blake2b" else hashlib.new(hname)
        while True:
            chunk = await stream.read(1 << 20)
            if not chunk:
                break
            shell.budget.check()
            h.update(chunk)
        return h.hexdigest(), None
    finally:
        stream.close()


@on_write_error(1, "{prog}: write error\n")
async def main(shell, argv: list[str], *, algorithm: str | None = None) -> int:
    """`algorithm` (a key of ALGOS) is for cksum -a: the digest, while messages keep argv[0]."""
    cmd = argv[0].rsplit("/", 1)[-1]
    prog = algorithm or cmd
    if prog not in ALGOS:
        prog = "md5sum"
    tag, hname, bits = ALGOS[prog]
    short = "bctwzl:" if prog == "b2sum" else "bctwz"
    long = dict(LONG)
    if prog == "b2sum":
        long["length="] = "l"
    try:
        opts, files = parse_options(argv[1:], short, long)
    except OptionError as e:
        return await usage(shell, cmd, str(e))
    binary = None
    check = bsd = zero = False
    ignore_missing = quiet = status_only = strict = warn = False
    for k, v in opts:
        if k == "help":
            b2 = ("  -l, --length=BITS    digest length in bits; must not exceed the max for\n"
                  "                         the blake2 algorithm and must be a multiple of 8\n"
                  if prog == "b2sum" else "")
            return await help_text(shell, HELP.format(prog=prog, tag=tag, bits=bits, b2=b2))
        if k == "version":
            return await version_text(shell, prog)
        if k == "b":
            binary = True
        elif k == "t":
            binary = False
        elif k == "c":
            check = True
        elif k == "tag":
            bsd = True
        elif k == "z":
            zero = True
        elif k == "ignore-missing":
            ignore_missing = True
        elif k == "quiet":
            quiet = True
        elif k == "status":
            status_only = True
        elif k == "strict":
            strict = True
        elif k == "w":
            warn = True
        elif k == "l":
            t = (v or "").strip()
            if not t.isdigit():
                await shell.error(cmd, f"invalid length: {quote(v or '')}")
                return 1
            n = int(t)
            if n % 8 or n > 512 or n == 0:
                if n > 512:
                    await shell.error(cmd, f"invalid length: {quote(v or '')}")
                    await shell.error(cmd, "maximum digest length for "
                                            f"{quote('BLAKE2b')} is 512 bits")
                else:
                    await shell.error(cmd, f"invalid length: {quote(v or '')}")
                    await shell.error(cmd, "length is not a multiple of 8")
                return 1
            bits = n
    if zero and check:
        return await usage(shell, cmd, "the --zero option is not supported when verifying "
                                        "checksums")
    if bsd and check:
        return await usage(shell, cmd, "the --tag option is meaningless when verifying "
                                        "checksums")
    if bsd and binary is False:
        return await usage(shell, cmd, "--tag does not support --text mode")
    if check and binary is not None:
        return await usage(shell, cmd, "the --binary and --text options are meaningless "
                                        "when verifying checksums")
    if not check:
        for flag, what in ((ignore_missing, "--ignore-missing"), (status_only, "--status"),
                           (warn, "--warn"), (quiet, "--quiet"), (strict, "--strict")):
            if flag:
                return await usage(shell, cmd, f"the {what} option is meaningful only when "
                                                "verifying checksums")
    nbytes = bits // 8
    files = files or ["-"]
    if check:
        # b2sum takes each line's digest length from the line itself (as GNU 9.1)
        return await _check(shell, cmd, prog, tag, hname, nbytes, bits, files, ignore_missing,
                            quiet, status_only, strict, warn, zero, infer=prog == "b2sum")
    status = 0
    out: list[bytes] = []
    for name in files:
        digest, err = await _digest(shell, name, hname, nbytes)
        if err is not None:
            await shell.stdout.write(b"".join(out))
            out.clear()
            await shell.error(cmd, f"{quotef(name)}: {strerror(err)}")
            status = 1
            continue
        shown = name
        esc = False
        bs = "\\"
        if not zero:
            esc, shown = _escape(name)
        if bsd:
            label = tag if prog != "b2sum" or bits == 512 else f"BLAKE2b-{bits}"
            line = f"{bs if esc else ''}{label} ({shown}) = {digest}"
        else:
            line = f"{bs if esc else ''}{digest} {'*' if binary else ' '}{shown}"
        out.append(encode(line) + (b"\0" if zero else b"\n"))
    await shell.stdout.write(b"".join(out))
    return status


async def _check(shell, cmd, prog, tag, hname, nbytes, bits, files, ignore_missing, quiet,
                 status_only, strict, warn, zero, infer: bool = False) -> int:
    hexlen = nbytes * 2
    status = 0
    for listname in files:
        try:
            stream = shell.open_input(listname)
        except OSError as e:
            await shell.error(cmd, f"{quotef(listname)}: {strerror(e)}")
            status = 1
            continue
        try:
            data = await stream.read()
        finally:
            stream.close()
        shown_list = "standard input" if listname == "-" else listname
        lines = data.split(b"\n")
        if lines and lines[-1] == b"":
            lines.pop()
        bad_format = mismatched = unreadable = 0
        matched_any = False
        properly = 0
        out: list[bytes] = []
        for lineno, raw in enumerate(lines, 1):
            if raw.endswith(b"\r"):  # a checksum file written on Windows
                raw = raw[:-1]
            line = decode(raw)
            if line.startswith("#"):
                continue
            parsed = _parse_line(line, tag, hexlen, bits, prog, infer)
            if parsed is None:
                bad_format += 1
                if warn:
                    await shell.stdout.write(b"".join(out))
                    out.clear()
                    await shell.error(cmd, f"{quotef(shown_list)}: {lineno}: improperly "
                                            f"formatted {tag} checksum line")
                continue
            properly += 1
            want, fname, _ = parsed
            size = len(want) // 2 if prog == "b2sum" else nbytes
            digest, err = await _digest(shell, fname, hname, size)
            # coreutils 9.1 escapes a checked name only when it holds a newline
            shown = "\\" + _escape(fname)[1] if "\n" in fname else fname
            if err is not None:
                if ignore_missing and getattr(err, "errno", None) == 2:
                    continue
                unreadable += 1
                await shell.stdout.write(b"".join(out))
                out.clear()
                await shell.error(cmd, f"{quotef(fname)}: {strerror(err)}")  # even --status
                if not status_only:
                    out.append(encode(f"{shown}: FAILED open or read\n"))
                continue
            matched_any = True
            if digest == want.lower():
                if not (quiet or status_only):
                    out.append(encode(f"{shown}: OK\n"))
            else:
                mismatched += 1
                if not status_only:
                    out.append(encode(f"{shown}: FAILED\n"))
        await shell.stdout.write(b"".join(out))
        if properly == 0:
            await shell.error(cmd, f"{quotef(shown_list)}: no properly formatted "
                                    "checksum lines found")
            status = 1
            continue
        if not status_only:
            if bad_format:
                s = "line is" if bad_format == 1 else "lines are"
                await shell.error(cmd, f"WARNING: {bad_format} {s} improperly formatted")
            if unreadable:
                s = "listed file" if unreadable == 1 else "listed files"
                await shell.error(cmd, f"WARNING: {unreadable} {s} could not be read")
            if mismatched:
                s = "computed checksum" if mismatched == 1 else "computed checksums"
                await shell.error(cmd, f"WARNING: {mismatched} {s} did NOT match")
            if ignore_missing and not matched_any:
                await shell.error(cmd, f"{quotef(shown_list)}: no file was verified")
        if mismatched or unreadable or (strict and bad_format) or \
                (ignore_missing and not matched_any):
            status = 1
    return status


def _parse_line(line: str, tag: str, hexlen: int, bits: int, prog: str, infer: bool = False):
    """(hexdigest, filename, escaped) of a checksum line, or None. ``infer``: any even
    digest length up to 128 hex digits is accepted (b2sum -c without -l)."""
    escaped = False
    s = line
    if s.startswith("\\"):
        escaped = True
        s = s[1:]
    # BSD style: TAG (FILE) = HEX
    m = re.match(r"(\w+(?:-\d+)?) \((.*)\) = ([0-9a-fA-F]+)$", s)
    if m:
        label = m.group(1)
        ok_label = label == tag or (prog == "b2sum" and label.startswith("BLAKE2b"))
        if not ok_label:
            return None
        want = m.group(3)
        if prog == "b2sum" and "-" in label:
            if len(want) != int(label.split("-")[1]) // 4:
                return None
        elif len(want) != hexlen:
            return None
        name = m.group(2)
        if escaped:
            name = _unescape(name)
            if name is None:
                return None
        return want, name, escaped
    m = re.match(r"([0-9a-fA-F]+) ([ *])(.*)$", s)
    if not m or not m.group(3):
        return None
    n = len(m.group(1))
    if (n != hexlen) if not infer else (n % 2 or n > 128):
        return None
    name = m.group(3)
    if escaped:
        name = _unescape(name)
        if name is None:
            return None
    return m.group(1), name, escaped
