"""iconv (glibc 2.36) on Python's codecs: ``-f/--from-code``, ``-t/--to-code`` (UTF-8 by
default), ``//TRANSLIT`` (decomposition, then a small table, then ``?``) and ``//IGNORE`` or
``-c`` (drop what cannot be converted), ``-o/--output FILE``, files or standard input, ``-l``
(the encodings Python offers, under glibc's usual names), and glibc's messages: an illegal
input sequence stops the conversion at its byte position (exit 1), as does input that ends
inside a character.
"""

from __future__ import annotations

import codecs
import encodings.aliases
import unicodedata

from pysh.builtins._textutil import OpenFailed, open_input, read_all, strerror
from pysh.shellkit import FileSystemError
from pysh.shellkit.options import OptionError, parse_options

PROG = "iconv"
USAGE = """\
Usage: iconv [OPTION...] [FILE...]
Convert encoding of given files from one encoding to another.

 Input/Output format specification:
  -f, --from-code=NAME       encoding of original text
  -t, --to-code=NAME         encoding for output

 Information:
  -l, --list                 list all known coded character sets

 Output control:
  -c                         omit invalid characters from output
  -o, --output=FILE          output file
  -s, --silent               suppress warnings
      --verbose              print progress information

  -?, --help                 Give this help list
      --usage                Give a short usage message
  -V, --version              Print program version

Mandatory or optional arguments to long options are also mandatory or optional
for any corresponding short options.

For bug reporting instructions, please see:
<http://www.debian.org/Bugs/>.
"""
LONG = {"from-code=": "f", "to-code=": "t", "list": "l", "output=": "o", "silent": "s",
        "verbose": "verbose", "help": "?", "usage": "usage", "version": "V"}
_TRANSLIT = {"ß": "ss", "€": "EUR", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ø": "o",
             "Ø": "O", "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "þ": "th", "Þ": "TH",
             "“": '"', "”": '"', "„": '"', "‘": "'", "’": "'", "‚": "'", "–": "-", "—": "-",
             "…": "...", "×": "x", "©": "(C)", "®": "(R)", "™": "(TM)", "«": "<<", "»": ">>",
             "\u00a0": " "}


def _codec(name: str) -> tuple[str | None, bool, bool]:
    """(Python codec name or None, translit, ignore) for a glibc-style encoding name."""
    base, *suffixes = name.split("//")
    flags = {s.upper() for s in suffixes if s}
    key = base.strip().lower().replace("_", "-")
    if key in ("", "char"):
        key = "utf-8"
    for cand in (key, key.replace("-", ""), key.replace("-", "_")):
        try:
            return codecs.lookup(cand).name, "TRANSLIT" in flags, "IGNORE" in flags
        except LookupError:
            continue
    return None, False, False


def _translit(ch: str, target: str) -> str:
    out = []
    for c in unicodedata.normalize("NFKD", ch):
        if unicodedata.combining(c):
            continue
        try:
            c.encode(target)
            out.append(c)
        except UnicodeEncodeError:
            out.append(_TRANSLIT.get(c, "?"))
    text = "".join(out)
    try:
        text.encode(target)
    except UnicodeEncodeError:
        return "?"
    return text


async def main(shell, argv: list[str]) -> int:
    try:
        opts, files = parse_options(argv[1:], "f:t:lco:s?V", LONG)
    except OptionError as e:
        await shell.error(PROG, str(e))
        await shell.stderr.write(b"Try `iconv --help' or `iconv --usage' for more information.\n")
        return 64
    src, dst, output, omit = "UTF-8", "UTF-8", None, False
    for key, val in opts:
        if key == "?":
            await shell.stdout.write(USAGE.encode())
            return 0
        if key == "usage":
            await shell.stdout.write(b"Usage: iconv [-cls?V] [-f NAME] [-t NAME] [-o FILE] "
                                     b"[--from-code=NAME]\n")
            return 0
        if key == "V":
            await shell.stdout.write(b"iconv (Debian GLIBC 2.36-9+deb12u14) 2.36\n")
            return 0
        if key == "l":
            names = sorted({n.upper().replace("_", "-") for n in encodings.aliases.aliases.values()})
            await shell.stdout.write("".join(f"{n}//\n" for n in names).encode())
            return 0
        if key == "f":
            src = val or ""
        elif key == "t":
            dst = val or ""
        elif key == "o":
            output = val
        elif key == "c":
            omit = True
    src_codec, _, _ = _codec(src)
    dst_codec, translit, ignore = _codec(dst)
    if src_codec is None or dst_codec is None:  # glibc 2.36's own words
        await shell.error(PROG, "failed to start conversion processing: No such file or directory")
        return 1
    drop = omit or ignore
    chunks: list[bytes] = []
    status = 0
    failure = None
    for name in files or ["-"]:
        try:
            stream = open_input(shell, name)
        except OpenFailed as e:
            await shell.error(PROG, f"cannot open input file `{name}': {strerror(e.exc)}")
            status = 1
            continue
        try:
            data = await read_all(shell, stream)
        finally:
            stream.close()
        text, failure = _decode(data, src_codec, drop)
        encoded, failure2 = _encode(text, data, src_codec, dst_codec, translit, drop)
        chunks.append(encoded)
        failure = failure or failure2
        if failure:
            status = 1
            break
    out = b"".join(chunks)
    if output is not None:
        try:
            shell.fs.write_bytes(output, out)
        except FileSystemError as e:
            await shell.error(PROG, f"cannot open output file: {e.strerror}")
            return 1
    else:
        await shell.stdout.write(out)
    if failure:  # after the output converted so far, as glibc's iconv flushes it
        await shell.error(PROG, failure)
    return status


def _decode(data: bytes, codec: str, drop: bool) -> tuple[str, str | None]:
    try:
        return data.decode(codec), None
    except UnicodeDecodeError as e:
        if drop:
            return data.decode(codec, errors="ignore"), None
        head = data[:e.start].decode(codec, errors="ignore")
        if e.end >= len(data) and "end of data" in e.reason:
            return head, "incomplete character or shift sequence at end of buffer"
        return head, f"illegal input sequence at position {e.start}"


def _encode(text: str, data: bytes, src: str, dst: str, translit: bool,
            drop: bool) -> tuple[bytes, str | None]:
    try:
        return text.encode(dst), None
    except UnicodeEncodeError as e:
        bad_at = e.start
    if translit or drop:
        out = []
        for ch in text:
            try:
                out.append(ch.encode(dst))
            except UnicodeEncodeError:
                if translit:
                    out.append(_translit(ch, dst).encode(dst))
        return b"".join(out), None
    position = len(text[:bad_at].encode(src, errors="replace"))
    return text[:bad_at].encode(dst), f"illegal input sequence at position {position}"
