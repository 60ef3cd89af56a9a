"""sort: GNU coreutils sort, byte order (what glibc's C and C.UTF-8 collations both give).

Keys are compared the GNU way (begfield/limfield field arithmetic, per-key
ordering flags, global options inherited by keys without their own), then the
whole line as a last resort unless -s or -u. Sorting is a series of stable
Python sorts, last key first, so each key keeps its own direction.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
from decimal import Decimal

from pysh.builtins._textutil import (
    OptionError,
    argmatch,
    argmatch_die,
    help_text,
    parse_options,
    quote,
    quoteaf,
    quotef,
    strerror,
    usage,
    version_text,
)
from pysh.shellkit import on_write_error
from pysh.shellkit.text import decode, encode

HELP = """\
Usage: sort [OPTION]... [FILE]...
  or:  sort [OPTION]... --files0-from=F
Write sorted concatenation of all FILE(s) to standard output.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
Ordering options:

  -b, --ignore-leading-blanks  ignore leading blanks
  -d, --dictionary-order      consider only blanks and alphanumeric characters
  -f, --ignore-case           fold lower case to upper case characters
  -g, --general-numeric-sort  compare according to general numerical value
  -i, --ignore-nonprinting    consider only printable characters
  -M, --month-sort            compare (unknown) < 'JAN' < ... < 'DEC'
  -h, --human-numeric-sort    compare human readable numbers (e.g., 2K 1G)
  -n, --numeric-sort          compare according to string numerical value
  -R, --random-sort           shuffle, but group identical keys.  See shuf(1)
      --random-source=FILE    get random bytes from FILE
  -r, --reverse               reverse the result of comparisons
      --sort=WORD             sort according to WORD:
                                general-numeric -g, human-numeric -h, month -M,
                                numeric -n, random -R, version -V
  -V, --version-sort          natural sort of (version) numbers within text

Other options:

      --batch-size=NMERGE   (accepted, ignored)
  -c, --check, --check=diagnose-first  check for sorted input; do not sort
  -C, --check=quiet, --check=silent  like -c, but do not report first bad line
      --compress-program=PROG  (accepted, ignored)
      --files0-from=F       read input from the files specified by
                            NUL-terminated names in file F;
                            If F is - then read names from standard input
  -k, --key=KEYDEF          sort via a key; KEYDEF gives location and type
  -m, --merge               merge already sorted files; do not sort
  -o, --output=FILE         write result to FILE instead of standard output
  -s, --stable              stabilize sort by disabling last-resort comparison
  -S, --buffer-size=SIZE    (accepted, ignored)
  -t, --field-separator=SEP  use SEP instead of non-blank to blank transition
  -T, --temporary-directory=DIR  (accepted, ignored)
      --parallel=N          (accepted, ignored)
  -u, --unique              with -c, check for strict ordering;
                              without -c, output only the first of an equal run
  -z, --zero-terminated     line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit

KEYDEF is F[.C][OPTS][,F[.C][OPTS]] for start and stop position, where F is a
field number and C a character position in the field; both are origin 1, and
the stop position defaults to the line's end.  If neither -t nor -b is in
effect, characters in a field are counted from the beginning of the preceding
whitespace.  OPTS is one or more single-letter ordering options [bdfgiMhnRrV],
which override global ordering options for that key.  If no key is given, use
the entire line as the key.

*** WARNING ***
The locale specified by the environment affects sort order.
Set LC_ALL=C to get the traditional sort order that uses
native byte values.
"""

LONG = {
    "ignore-leading-blanks": "b", "check?": "check", "dictionary-order": "d",
    "ignore-case": "f", "general-numeric-sort": "g", "human-numeric-sort": "h",
    "ignore-nonprinting": "i", "key=": "k", "merge": "m", "month-sort": "M",
    "numeric-sort": "n", "output=": "o", "random-sort": "R", "random-source=": "random-source",
    "reverse": "r", "sort=": "sort", "stable": "s", "buffer-size=": "S",
    "field-separator=": "t", "temporary-directory=": "T", "unique": "u",
    "version-sort": "V", "zero-terminated": "z", "parallel=": "parallel",
    "batch-size=": "batch-size", "compress-program=": "compress-program",
    "files0-from=": "files0", "debug": "debug", "help": "help", "version": "version",
}

SORT_FAILURE = 2
_BLANKS = b" \t\n"
_MONTHS = {m: i + 1 for i, m in enumerate(
    (b"JAN", b"FEB", b"MAR", b"APR", b"MAY", b"JUN", b"JUL", b"AUG", b"SEP", b"OCT", b"NOV",
     b"DEC"))}
_UNIT = {ord(c): i for i, c in enumerate("KMGTPEZYRQ", 1)}
_UNIT[ord("k")] = 1
_ALNUM_BLANK = bytes(c for c in range(256) if chr(c).isascii() and (chr(c).isalnum() or c in b" \t"))
_NON_DICT = bytes(c for c in range(256) if c not in _ALNUM_BLANK)
_NON_PRINT = bytes(c for c in range(256) if not 0x20 <= c < 0x7f)
_NUM = re.compile(rb"[ \t\n]*(-?)([0-9]*)(?:\.([0-9]*))?")
_GNUM = re.compile(
    rb"[ \t\n\v\f\r]*([+-]?)(?:(inf(?:inity)?)|(nan(?:\([0-9a-z_]*\))?)"
    rb"|0x((?:[0-9a-f]+\.?[0-9a-f]*|\.[0-9a-f]+)(?:p[+-]?[0-9]+)?)"
    rb"|((?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:e[+-]?[0-9]+)?))", re.I)
_HNUM = re.compile(rb"[ \t\n]*(-?)([0-9]*)(?:\.([0-9]*))?(.?)", re.S)


class SortError(Exception):
    pass


class Key:
    __slots__ = ("sword", "schar", "eword", "echar", "skipsblanks", "skipeblanks", "ignore",
                 "translate", "numeric", "general", "human", "month", "version", "random",
                 "reverse")

    def __init__(self):
        self.sword: int | None = None  # None: the line start
        self.schar = 0
        self.eword: int | None = None  # None: the line end
        self.echar = 0
        self.skipsblanks = self.skipeblanks = False
        self.ignore: str | None = None  # 'd' or 'i'
        self.translate = False
        self.numeric = self.general = self.human = self.month = False
        self.version = self.random = self.reverse = False

    def default_compare(self) -> bool:
        return not (self.ignore or self.translate or self.skipsblanks or self.skipeblanks
                    or self.numeric or self.general or self.human or self.month
                    or self.version or self.random)

    def opts(self) -> str:
        s = ""
        if self.skipsblanks or self.skipeblanks:
            s += "b"
        if self.ignore == "d":
            s += "d"
        if self.translate:
            s += "f"
        if self.general:
            s += "g"
        if self.human:
            s += "h"
        if self.ignore == "i":
            s += "i"
        if self.month:
            s += "M"
        if self.numeric:
            s += "n"
        if self.random:
            s += "R"
        if self.reverse:
            s += "r"
        if self.version:
            s += "V"
        return s


def _set_ordering(s: str, key: Key, where: str) -> str:
    i = 0
    while i < len(s):
        c = s[i]
        if c == "b":
            if where in ("start", "both"):
                key.skipsblanks = True
            if where in ("end", "both"):
                key.skipeblanks = True
        elif c == "d":
            key.ignore = "d"
        elif c == "f":
            key.translate = True
        elif c == "g":
            key.general = True
        elif c == "h":
            key.human = True
        elif c == "i":
            if not key.ignore:
                key.ignore = "i"
        elif c == "M":
            key.month = True
        elif c == "n":
            key.numeric = True
        elif c == "R":
            key.random = True
        elif c == "r":
            key.reverse = True
        elif c == "V":
            key.version = True
        else:
            return s[i:]
        i += 1
    return ""


def _field_count(s: str, msgid: str, spec: str) -> tuple[int, str]:
    t = s.lstrip(" \t\n\v\f\r")
    i = 0
    while i < len(t) and "0" <= t[i] <= "9":
        i += 1
    if i == 0 or s[:1] == "-":
        raise SortError(f"{msgid}: invalid count at start of {quote(s)}")
    return min(int(t[:i]), 2 ** 64 - 1), t[i:]


def parse_key(spec: str) -> Key:
    key = Key()

    def bad(msg):
        return SortError(f"{msg}: invalid field specification {quote(spec)}")

    n, s = _field_count(spec, "invalid number at field start", spec)
    if n == 0:
        raise bad("field number is zero")
    sword = n - 1
    schar = 0
    if s.startswith("."):
        c, s = _field_count(s[1:], "invalid number after '.'", spec)
        if c == 0:
            raise bad("character offset is zero")
        schar = c - 1
    key.sword = None if (sword == 0 and schar == 0) else sword
    key.schar = schar
    s = _set_ordering(s, key, "start")
    if not s.startswith(","):
        key.eword = None
        key.echar = 0
    else:
        n, s = _field_count(s[1:], "invalid number after ','", spec)
        if n == 0:
            raise bad("field number is zero")
        key.eword = n - 1
        if s.startswith("."):
            key.echar, s = _field_count(s[1:], "invalid number after '.'", spec)
        s = _set_ordering(s, key, "end")
    if s:
        raise bad("stray character in field spec")
    return key


# ------------------------------------------------------------------ fields
@functools.lru_cache(maxsize=64)
def _fields_re(n: int, line: bytes):
    # a line has at most len(line) + 1 fields: a bigger count (from the script) is the same
    # and would make re repeat its empty match that many times
    return re.compile(rb"(?:[ \t\n]*[^ \t\n]*){%d}" % min(n, len(line) + 1))


def _skip_blanks(line: bytes, pos: int, lim: int) -> int:
    while pos < lim and line[pos] in _BLANKS:
        pos += 1
    return pos


def _make_extractor(key: Key, tab: bytes | None):
    """A function line -> key bytes (GNU begfield/limfield)."""
    sword, schar, eword, echar = key.sword, key.schar, key.eword, key.echar
    sb, eb = key.skipsblanks, key.skipeblanks

    def beg(line: bytes, lim: int) -> int:
        if sword is None:
            return _skip_blanks(line, 0, lim) if sb else 0
        if tab is None:
            pos = _fields_re(sword, line).match(line).end() if sword else 0
            if pos > lim:
                pos = lim
        else:
            pos = 0
            for _ in range(sword):
                i = line.find(tab, pos, lim)
                if i < 0:
                    pos = lim
                    break
                pos = i + 1
        if sb:
            pos = _skip_blanks(line, pos, lim)
        return min(lim, pos + schar)

    def end(line: bytes, lim: int) -> int:
        if eword is None:
            return lim
        n = eword + 1 if echar == 0 else eword
        if tab is None:
            pos = _fields_re(n, line).match(line).end() if n else 0
            if pos > lim:
                pos = lim
        else:
            pos = 0
            for k in range(n):
                i = line.find(tab, pos, lim)
                if i < 0:
                    pos = lim
                    break
                pos = i + 1 if (k < n - 1 or echar) else i
        if echar:
            if eb:
                pos = _skip_blanks(line, pos, lim)
            pos = min(lim, pos + echar)
        return pos

    if sword is None and eword is None:
        if sb:
            return lambda line: line[_skip_blanks(line, 0, len(line)):]
        return None

    def extract(line: bytes) -> bytes:
        lim = len(line)
        a = beg(line, lim)
        b = end(line, lim)
        return line[a:b] if b > a else b""

    return extract


# ------------------------------------------------------------------ orderings
def _num_value(text: bytes):
    m = _NUM.match(text)
    neg, ip, fp = m.group(1), m.group(2), m.group(3)
    if fp:
        fp = fp.rstrip(b"0")
    if fp:
        v = Decimal((ip or b"0").decode() + "." + fp.decode())
    else:
        v = int(ip) if ip else 0
    return -v if neg else v


def _general_value(text: bytes):
    m = _GNUM.match(text)
    if not m:
        return (0, 0.0)
    sign = -1.0 if m.group(1) == b"-" else 1.0
    if m.group(2):
        return (2, sign * float("inf"))
    if m.group(3):
        return (1, 0.0)
    if m.group(4) is not None:
        h = m.group(4).decode()
        try:
            return (2, sign * float.fromhex("0x" + h))
        except (ValueError, OverflowError):
            return (2, sign * float("inf"))
    try:
        return (2, sign * float(m.group(5)))
    except (ValueError, OverflowError):
        return (2, sign * float("inf"))


def _human_value(text: bytes):
    m = _HNUM.match(text)
    neg, ip, fp, unit = m.group(1), m.group(2), m.group(3), m.group(4)
    digits = (ip or b"") + (fp or b"")
    order = 0
    if digits.strip(b"0"):
        order = _UNIT.get(unit[0], 0) if unit else 0
        if neg:
            order = -order
    return (order, _num_value(text))


def _month_value(text: bytes) -> int:
    i = 0
    n = len(text)
    while i < n and text[i] in _BLANKS:
        i += 1
    return _MONTHS.get(text[i:i + 3].upper(), 0)


def _order(c: int) -> int:
    if 48 <= c <= 57:
        return 0
    if 65 <= c <= 90 or 97 <= c <= 122:
        return c
    if c == 126:
        return -1
    return c + 256


def _verrevcmp(a: bytes, alen: int, b: bytes, blen: int) -> int:
    i = j = 0
    while i < alen or j < blen:
        first_diff = 0
        while (i < alen and not 48 <= a[i] <= 57) or (j < blen and not 48 <= b[j] <= 57):
            ac = 0 if i == alen else _order(a[i])
            bc = 0 if j == blen else _order(b[j])
            if ac != bc:
                return ac - bc
            i += 1
            j += 1
        while i < alen and a[i] == 48:
            i += 1
        while j < blen and b[j] == 48:
            j += 1
        while i < alen and j < blen and 48 <= a[i] <= 57 and 48 <= b[j] <= 57:
            if not first_diff:
                first_diff = a[i] - b[j]
            i += 1
            j += 1
        if i < alen and 48 <= a[i] <= 57:
            return 1
        if j < blen and 48 <= b[j] <= 57:
            return -1
        if first_diff:
            return first_diff
    return 0


def _isalpha(c: int) -> bool:
    return 65 <= c <= 90 or 97 <= c <= 122


def _prefixlen(s: bytes) -> int:
    n = len(s)
    prefix = 0
    i = 0
    while i < n:
        i += 1
        prefix = i
        while i + 1 < n and s[i] == 46 and (_isalpha(s[i + 1]) or s[i + 1] == 126):
            i += 2
            while i < n and (_isalpha(s[i]) or 48 <= s[i] <= 57 or s[i] == 126):
                i += 1
    return prefix


def filevercmp(a: bytes, b: bytes) -> int:
    """gnulib filevercmp (2022): version order of two strings."""
    if not a:
        return -1 if b else 0
    if not b:
        return 1
    if a[0] == 46:
        if b[0] != 46:
            return -1
        if a == b".":
            return 0 if b == b"." else -1
        if b == b".":
            return 1
        if a == b"..":
            return 0 if b == b".." else -1
        if b == b"..":
            return 1
    elif b[0] == 46:
        return 1
    ap, bp = _prefixlen(a), _prefixlen(b)
    one_pass = ap == len(a) and bp == len(b)
    r = _verrevcmp(a, ap, b, bp)
    if r or one_pass:
        return r
    return _verrevcmp(a, len(a), b, len(b))


_VersionKey = functools.cmp_to_key(filevercmp)


def _make_keyfunc(key: Key, tab: bytes | None, salt: bytes | None, hard: bytes = b""):
    extract = _make_extractor(key, tab)
    if key.numeric:
        conv = _num_value
    elif key.general:
        conv = _general_value
    elif key.human:
        conv = _human_value
    elif key.month:
        conv = _month_value
    elif key.version:
        conv = _VersionKey
    else:
        delete = _NON_DICT if key.ignore == "d" else _NON_PRINT if key.ignore == "i" else None
        upper = key.translate
        if key.random:
            def conv(t: bytes):
                if delete is not None:
                    t = t.translate(None, delete)
                if upper:
                    t = t.upper()
                return (hashlib.md5(salt + t + hard if t else salt).digest(), t)
        elif delete is not None and upper:
            def conv(t: bytes):
                return t.translate(None, delete).upper()
        elif delete is not None:
            def conv(t: bytes):
                return t.translate(None, delete)
        elif upper:
            conv = bytes.upper
        else:
            conv = None
    if extract is None:
        return conv
    if conv is None:
        return extract
    return lambda line: conv(extract(line))


# ------------------------------------------------------------------ main
@on_write_error(2, "{prog}: fflush failed: 'standard output': {strerror}\n{prog}: write error\n")
async def main(shell, argv: list[str]) -> int:
    return await _main(shell, argv)


async def _main(shell, argv: list[str]) -> int:
    prog = "sort"
    try:
        opts, files = parse_options(argv[1:], "bcCdfghik:mMno:rRsS:t:T:uVz", LONG)
    except OptionError as e:
        return await usage(shell, prog, str(e), SORT_FAILURE)
    gkey = Key()
    keys: list[Key] = []
    check: str | None = None
    output: str | None = None
    unique = stable = False
    tab: bytes | None = None
    delim = b"\n"
    random_source: str | None = None
    files0: str | None = None
    merge = False
    try:
        for k, v in opts:
            if k == "help":
                return await help_text(shell, HELP)
            if k == "version":
                return await version_text(shell, prog)
            if k in "bdfghiMnRrV" and len(k) == 1:
                _set_ordering(k, gkey, "both")
            elif k == "sort":
                words = [("general-numeric", "g"), ("human-numeric", "h"), ("month", "M"),
                         ("numeric", "n"), ("random", "R"), ("version", "V")]
                got = argmatch(v or "", words)
                if got is None or got == "\0ambiguous":
                    return await argmatch_die(shell, prog, "--sort", v or "", words)
                _set_ordering(got, gkey, "both")
            elif k == "c":
                check = "diagnose"
            elif k == "C":
                check = "quiet"
            elif k == "check":
                choices = [("quiet", "quiet"), ("silent", "quiet"),
                           ("diagnose-first", "diagnose")]
                if v is None:
                    check = "diagnose"
                else:
                    got = argmatch(v, choices)
                    if got is None or got == "\0ambiguous":
                        return await argmatch_die(shell, prog, "--check", v, choices)
                    check = got
            elif k == "k":
                keys.append(parse_key(v or ""))
            elif k == "m":
                merge = True
            elif k == "o":
                if output is not None and output != v:
                    raise SortError("multiple output files specified")
                output = v
            elif k == "s":
                stable = True
            elif k == "u":
                unique = True
            elif k == "z":
                delim = b"\0"
            elif k == "t":
                t = encode(v or "")
                if not t:
                    raise SortError("empty tab")
                if len(t) > 1:
                    if t == b"\\0":
                        t = b"\0"
                    else:
                        raise SortError(f"multi-character tab {quote(v or '')}")
                if tab is not None and tab != t:
                    raise SortError("incompatible tabs")
                tab = t
            elif k == "random-source":
                random_source = v
            elif k == "files0":
                files0 = v
            elif k in ("S", "T", "parallel", "batch-size", "compress-program", "debug"):
                if k == "parallel":
                    try:
                        if int(v or "") < 1:
                            raise ValueError
                    except ValueError:
                        raise SortError(f"invalid number of threads: {quote(v or '')}") from None
    except SortError as e:
        await shell.error(prog, str(e))
        return SORT_FAILURE

    # global options reach the keys that have none of their own
    for key in keys:
        if key.default_compare() and not key.reverse:
            for attr in ("ignore", "translate", "skipsblanks", "skipeblanks", "month", "numeric",
                         "general", "human", "version", "random", "reverse"):
                setattr(key, attr, getattr(gkey, attr))
    if not keys and not gkey.default_compare():
        gkey.sword = gkey.eword = None
        keys.append(gkey)
    for key in keys:
        if (key.numeric + key.general + key.human + key.month
                + (key.version or key.random or bool(key.ignore))) > 1:
            key.skipsblanks = key.skipeblanks = key.reverse = False
            await shell.error(prog, f"options '-{key.opts()}' are incompatible")
            return SORT_FAILURE
    reverse = gkey.reverse

    if files0 is not None:
        if files:
            await shell.error(prog, f"extra operand {quote(files[0])}")
            await shell.stderr.write(b"file operands cannot be combined with --files0-from\n")
            return await usage(shell, prog, None, SORT_FAILURE)
        try:
            src = shell.open_input(files0)
        except OSError as e:
            await shell.error(prog, f"cannot open {quote(files0)} for reading: {strerror(e)}")
            return SORT_FAILURE
        try:
            data = await src.read()
        finally:
            src.close()
        files = [decode(n) for n in data.split(b"\0")]
        if files and files[-1] == "":
            files.pop()
        for i, n in enumerate(files):
            if n == "":
                await shell.error(prog, f"{quotef(files0)}:{i + 1}: invalid zero-length file name")
                return SORT_FAILURE
    if not files:
        files = ["-"]
    if check and len(files) > 1:
        await shell.error(prog, f"extra operand {quoteaf(files[1])} not allowed with -{'c' if check == 'diagnose' else 'C'}")
        return SORT_FAILURE

    salt = None
    if any(k.random for k in keys):
        if random_source is not None:
            try:
                f = shell.fs.open(random_source, "rb")
            except OSError as e:
                await shell.error(prog, f"open failed: {quotef(random_source)}: {strerror(e)}")
                return SORT_FAILURE
            with f:
                salt = f.read(16)
            if len(salt) < 16:
                await shell.error(prog, f"{quotef(random_source)}: end of file")
                return SORT_FAILURE
        else:
            salt = os.urandom(16)

    # read every input
    lines: list[bytes] = []
    inputs: list[list[bytes]] = []
    for name in files:
        try:
            stream = shell.open_input(name)
        except OSError as e:
            if e.errno == 21:
                await shell.error(prog, f"read failed: {quotef(name)}: Is a directory")
            else:
                await shell.error(prog, f"cannot read: {quotef(name)}: {strerror(e)}")
            return SORT_FAILURE
        try:
            data = await stream.read()
        finally:
            stream.close()
        shell.budget.check()
        if data:
            part = data.split(delim)
            if part[-1] == b"":
                part.pop()
            if check:
                return await _check(shell, name, part, keys, tab, salt, unique, stable,
                                    reverse, check, delim)
            lines.extend(part)
            inputs.append(part)
    if check:
        return 0

    hard = b"\0" if _hard_collate(shell) else b""
    keyfuncs = [_make_keyfunc(k, tab, salt, hard) for k in keys]
    if merge and len(inputs) > 1:
        lines = _merge(inputs, keys, keyfuncs, unique, stable, reverse)
        if unique:
            lines = _uniq(lines, keyfuncs)
        return await _output(shell, prog, output, lines, delim)
    if not keys:
        lines.sort(reverse=reverse)
    else:
        if not (stable or unique):
            lines.sort(reverse=reverse)
        for key, kf in zip(reversed(keys), reversed(keyfuncs), strict=True):
            shell.budget.check()
            if kf is None:
                lines.sort(reverse=key.reverse)
            else:
                lines.sort(key=kf, reverse=key.reverse)
    if unique:
        lines = _uniq(lines, keyfuncs)
    return await _output(shell, prog, output, lines, delim)


def _hard_collate(shell) -> bool:
    """GNU's hard_LC_COLLATE: any collation locale but C/POSIX (changes -R's hashing)."""
    for var in ("LC_ALL", "LC_COLLATE", "LANG"):
        v = shell.env.get(var)
        if v:
            return v not in ("C", "POSIX")
    return False


def _merge(inputs, keys, keyfuncs, unique, stable, reverse) -> list[bytes]:
    import heapq

    funcs = [(kf if kf is not None else (lambda x: x), k.reverse) for k, kf in zip(keys, keyfuncs, strict=True)]

    def compare(a, b) -> int:
        for f, rev in funcs:
            d = _cmp(f(a), f(b))
            if d:
                return -d if rev else d
        if funcs and (unique or stable):
            return 0
        d = _cmp(a, b)
        return -d if reverse else d

    return list(heapq.merge(*inputs, key=functools.cmp_to_key(compare)))


async def _output(shell, prog, output, lines, delim) -> int:
    body = delim.join(lines) + delim if lines else b""
    if output is not None:
        try:
            out = shell.open_output(output)
        except OSError as e:
            await shell.error(prog, f"open failed: {quotef(output)}: {strerror(e)}")
            return SORT_FAILURE
        try:
            await out.write(body)
        finally:
            out.close()
        return 0
    view = memoryview(body)
    for i in range(0, len(body), 1 << 20):
        await shell.stdout.write(bytes(view[i:i + (1 << 20)]))
    return 0


def _uniq(lines: list[bytes], keyfuncs) -> list[bytes]:
    if not lines:
        return lines
    if not keyfuncs:
        out = [lines[0]]
        prev = lines[0]
        for line in lines:
            if line != prev:
                out.append(line)
                prev = line
        return out
    funcs = [kf if kf is not None else (lambda x: x) for kf in keyfuncs]

    def kt(line):
        return tuple(f(line) for f in funcs)

    out = [lines[0]]
    prev = kt(lines[0])
    for line in lines[1:]:
        cur = kt(line)
        if cur != prev:
            out.append(line)
            prev = cur
    return out


def _cmp(x, y) -> int:
    return -1 if x < y else (1 if x > y else 0)


async def _check(shell, name, lines, keys, tab, salt, unique, stable, reverse, mode,
                 delim) -> int:
    funcs = [(kf if kf is not None else (lambda x: x), k.reverse)
             for k, kf in zip(keys, [_make_keyfunc(k, tab, salt) for k in keys], strict=True)]

    def compare(a, b) -> int:
        for f, rev in funcs:
            d = _cmp(f(a), f(b))
            if d:
                return -d if rev else d
        if funcs and (unique or stable):
            return 0
        d = _cmp(a, b)
        return -d if reverse else d

    for i in range(1, len(lines)):
        if i % 4096 == 0:
            shell.budget.check()
        d = compare(lines[i - 1], lines[i])
        if d > 0 or (unique and d == 0):
            if mode == "diagnose":
                shown = lines[i]
                await shell.stderr.write(encode(f"sort: {name}:{i + 1}: disorder: ") + shown + b"\n")
            return 1
    return 0
