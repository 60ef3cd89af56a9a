"""patch: apply unified and context diffs (GNU patch 2.7.6 behaviour), through the FileSystem door.

Reads a unified diff (``diff -u``, ``diff -ruN``, ``git diff``, with renames,
copies and mode changes) or a context diff (``diff -c``) from stdin or ``-i
FILE`` and applies it hunk by hunk, the way GNU patch does: the same
file-name rules (``-pN``; without ``-p`` only the base name), the same search
for each hunk (offsets, then fuzz up to ``-F``, default 2), reversed-patch
detection, ``.rej`` files in unified format, ``.orig`` backups, creation and
deletion of files, and GNU's messages and exit statuses (0 applied, 1 some
hunk failed or was skipped, 2 trouble). There is no terminal in the sandbox,
so every question GNU would ask gets its default answer, as GNU does when
stdout is not a tty.
"""

from __future__ import annotations

import errno as _errno
import re
import stat as _stat

from pysh.shellkit import FileSystemError, decode, encode
from pysh.shellkit.options import OptionError, parse_options

PROG = "patch"

SHORT = "bB:cd:D:eEfF:g:i:lnNo:p:r:RstTuvV:x:Y:z:Z"
LONG = {
    "backup": "b", "prefix=": "B", "context": "c", "directory=": "d", "ifdef=": "D",
    "ed": "e", "remove-empty-files": "E", "force": "f", "fuzz=": "F", "get=": "g",
    "input=": "i", "ignore-whitespace": "l", "normal": "n", "forward": "N",
    "output=": "o", "strip=": "p", "reject-file=": "r", "reverse": "R", "quiet": "s",
    "silent": "s", "batch": "t", "set-time": "T", "unified": "u", "version": "v",
    "version-control=": "V", "debug=": "x", "basename-prefix=": "Y", "suffix=": "z",
    "set-utc": "Z", "dry-run": "dry-run", "verbose": "verbose", "binary": "binary",
    "help": "help", "backup-if-mismatch": "backup-if-mismatch",
    "no-backup-if-mismatch": "no-backup-if-mismatch", "posix": "posix",
    "quoting-style=": "quoting-style", "reject-format=": "reject-format",
    "read-only=": "read-only", "follow-symlinks": "follow-symlinks",
}

HELP = """\
Usage: patch [OPTION]... [ORIGFILE [PATCHFILE]]

Input options:

  -p NUM  --strip=NUM  Strip NUM leading components from file names.
  -F LINES  --fuzz LINES  Set the fuzz factor to LINES for inexact matching.
  -l  --ignore-whitespace  Ignore white space changes between patch and input.

  -c  --context  Interpret the patch as a context difference.
  -e  --ed  Interpret the patch as an ed script.
  -n  --normal  Interpret the patch as a normal difference.
  -u  --unified  Interpret the patch as a unified difference.

  -N  --forward  Ignore patches that appear to be reversed or already applied.
  -R  --reverse  Assume patches were created with old and new files swapped.

  -i PATCHFILE  --input=PATCHFILE  Read patch from PATCHFILE instead of stdin.

Output options:

  -o FILE  --output=FILE  Output patched files to FILE.
  -r FILE  --reject-file=FILE  Output rejects to FILE.

  -D NAME  --ifdef=NAME  Make merged if-then-else output using NAME.
  --merge  Merge using conflict markers instead of creating reject files.
  -E  --remove-empty-files  Remove output files that are empty after patching.

  -Z  --set-utc  Set times of patched files, assuming diff uses UTC (GMT).
  -T  --set-time  Likewise, assuming local time.

  --quoting-style=WORD   output file names using quoting style WORD.
    Valid WORDs are: literal, shell, shell-always, c, escape.
    Default is taken from QUOTING_STYLE env variable, or 'shell' if unset.

Backup and version control options:

  -b  --backup  Back up the original contents of each file.
  --backup-if-mismatch  Back up if the patch does not match exactly.
  --no-backup-if-mismatch  Back up mismatches only if otherwise requested.

  -V STYLE  --version-control=STYLE  Use STYLE version control.
	STYLE is either 'simple', 'numbered', or 'existing'.
  -B PREFIX  --prefix=PREFIX  Prepend PREFIX to backup file names.
  -Y PREFIX  --basename-prefix=PREFIX  Prepend PREFIX to backup file basenames.
  -z SUFFIX  --suffix=SUFFIX  Append SUFFIX to backup file names.

  -g NUM  --get=NUM  Get files from RCS etc. if positive; ask if negative.

Miscellaneous options:

  -t  --batch  Ask no questions; skip bad-Prereq patches; assume reversed.
  -f  --force  Like -t, but ignore bad-Prereq patches, and assume unreversed.
  -s  --quiet  --silent  Work silently unless an error occurs.
  --verbose  Output extra information about the work being done.
  --dry-run  Do not actually change any files; just print what would happen.
  --posix  Conform to the POSIX standard.

  -d DIR  --directory=DIR  Change the working directory to DIR first.
  --reject-format=FORMAT  Create 'context' or 'unified' rejects.
  --binary  Read and write data in binary mode.
  --read-only=BEHAVIOR  How to handle read-only input files: 'ignore' that they
                        are read-only, 'warn' (default), or 'fail'.

  -v  --version  Output version info.
  --help  Output this help.

Report bugs to <bug-patch@gnu.org>.
"""

VERSION = """\
GNU patch 2.7.6
Copyright (C) 2003, 2009-2012 Free Software Foundation, Inc.
Copyright (C) 1988 Larry Wall

License GPLv3+: GNU GPL version 3 or later <http://gnu.org/licenses/gpl.html>.
This is free software: you are free to change and redistribute it.
There is NO WARRANTY, to the extent permitted by law.

Written by Larry Wall and Paul Eggert
"""

OLD, NEW, INDEX = 0, 1, 2
SILENT, NORMAL, VERBOSE = 0, 1, 2
NO_DIFF, UNI_DIFF, CONTEXT_DIFF, NEW_CONTEXT_DIFF = 0, 1, 2, 3


class Fatal(Exception):
    """``patch: **** MSG`` on stderr, exit 2."""


class Usage(Exception):
    """A usage error: MSG (may be empty), then the --help hint, exit 2."""


_SAFE = re.compile(r"^[A-Za-z0-9_./\-+,:@%^=]+$")


def quote(name: str) -> str:
    """GNU quotearg's shell style: bare when safe, else single quotes."""
    if name and _SAFE.match(name):
        return name
    return "'" + name.replace("'", "'\\''") + "'"


def _numeric(value: str, what: str) -> int:
    if not re.fullmatch(r"[+-]?\d+", value):
        raise Fatal(f"{what} {quote(value)} is not a number")
    n = int(value)
    if n < 0:
        raise Fatal(f"{what} {quote(value)} is negative")
    if n > 2**31 - 1:
        raise Fatal(f"{what} {quote(value)} is too large")
    return n


# -- file names in headers ---------------------------------------------------------

def _strip_leading(name: bytes, strip: int) -> bytes | None:
    s = strip
    n = 0
    i = 0
    while i < len(name):
        if name[i:i + 1] == b"/":
            while name[i + 1:i + 2] == b"/":
                i += 1
            if strip < 0:
                n = i + 1
            else:
                s -= 1
                if s >= 0:
                    n = i + 1
        i += 1
    if (strip < 0 or s <= 0) and n < len(name):
        return name[n:]
    return None


_C_ESC = {b"a": b"\a", b"b": b"\b", b"f": b"\f", b"n": b"\n", b"r": b"\r", b"t": b"\t",
          b"v": b"\v", b"\\": b"\\", b'"': b'"'}


def _parse_c_string(s: bytes) -> tuple[bytes | None, int]:
    out = bytearray()
    i = 1
    while i < len(s):
        c = s[i:i + 1]
        if c == b'"':
            return bytes(out), i + 1
        if c == b"\\":
            i += 1
            c = s[i:i + 1]
            if c in _C_ESC:
                out += _C_ESC[c]
                i += 1
            elif c.isdigit():
                m = re.match(rb"[0-7]{1,3}", s[i:])
                if not m:
                    return None, i
                out.append(int(m.group(), 8) & 0xFF)
                i += len(m.group())
            else:
                return None, i
        elif c in (b"\n", b""):
            return None, i
        else:
            out += c
            i += 1
    return None, i


def _parse_name(s: bytes, strip: int) -> tuple[bytes | None, int]:
    """(name after -p stripping or None, index just past the name in ``s``)."""
    i = 0
    while i < len(s) and s[i:i + 1].isspace():
        i += 1
    if s[i:i + 1] == b'"':
        name, end = _parse_c_string(s[i:])
        end += i
    else:
        j = i
        while j < len(s) and not s[j:j + 1].isspace():
            j += 1
        name, end = s[i:j], j
    if name is None:
        return None, end
    if not name:
        return None, end
    return _strip_leading(name, strip), end


_ISO = re.compile(rb"^\s*(\d{4})-(\d\d)-(\d\d)[ T](\d\d):(\d\d)(?::(\d\d)(?:\.\d+)?)?"
                  rb"\s*(?:([+-])(\d\d):?(\d\d)|UTC|GMT|Z)?\s*$")
_CTIME = re.compile(rb"^\s*\w{3}\s+(\w{3})\s+(\d+)\s+(\d\d):(\d\d):(\d\d)\s+(\d{4})\s*$")
_MONTHS = [b"jan", b"feb", b"mar", b"apr", b"may", b"jun", b"jul", b"aug", b"sep", b"oct",
           b"nov", b"dec"]


def _days(y: int, m: int, d: int) -> int:
    import datetime
    return (datetime.date(y, m, d) - datetime.date(1970, 1, 1)).days


def _timestamp(text: bytes) -> int:
    """Seconds since the epoch of a header timestamp; -1 when there is none."""
    text = text.rstrip(b"\r\n")
    if not text.strip():
        return -1
    try:
        m = _ISO.match(text)
        if m:
            y, mo, d, hh, mm = (int(m.group(k)) for k in range(1, 6))
            ss = int(m.group(6) or 0)
            t = _days(y, mo, d) * 86400 + hh * 3600 + mm * 60 + ss
            if m.group(7):
                off = int(m.group(8)) * 3600 + int(m.group(9)) * 60
                t -= off if m.group(7) == b"+" else -off
            return t
        m = _CTIME.match(text)
        if m and m.group(1).lower() in _MONTHS:
            mo = _MONTHS.index(m.group(1).lower()) + 1
            t = (_days(int(m.group(6)), mo, int(m.group(2))) * 86400 + int(m.group(3)) * 3600
                 + int(m.group(4)) * 60 + int(m.group(5)))
            return t
    except ValueError:
        return -1
    return -1


def _filename_is_safe(name: bytes) -> bool:
    if name.startswith(b"/"):
        return False
    return b".." not in name.split(b"/")


# -- hunks ------------------------------------------------------------------------------

class Hunk:
    __slots__ = ("first", "newfirst", "old", "new", "prefix", "suffix", "func", "beg")

    def __init__(self) -> None:
        self.first = 0
        self.newfirst = 0
        self.old: list[tuple[str, bytes]] = []
        self.new: list[tuple[str, bytes]] = []
        self.prefix = 0
        self.suffix = 0
        self.func: bytes | None = None
        self.beg = 0

    def swap(self) -> None:
        self.first, self.newfirst = self.newfirst, self.first
        old = [("-" if c == "+" else c, t) for c, t in self.new]
        new = [("+" if c == "-" else c, t) for c, t in self.old]
        self.old, self.new = old, new


# -- the program ----------------------------------------------------------------------------

class Patch:
    def __init__(self, shell) -> None:
        self.shell = shell
        self.fs = shell.fs
        self.out = bytearray()
        self.msg_to_stderr = False
        # options
        self.strip = -1
        self.maxfuzz = 2
        self.reverse_flag = False
        self.noreverse = False
        self.force = False
        self.batch = False
        self.dry_run = False
        self.verbosity = NORMAL
        self.make_backups = False
        self.backup_if_mismatch = True
        self.posix = False
        self.remove_empty = False
        self.outfile: str | None = None
        self.rejname: str | None = None
        self.inname_arg: str | None = None
        self.patchname: str | None = None
        self.canonicalize = False
        self.suffix = ".orig"
        self.read_only = "warn"
        self.reject_format = None
        # patch-file reader
        self.plines: list[bytes] = []
        self.pos = 0
        self.p_input_line = 0
        self.p_base = 0
        self.p_bline = 1
        self.buf = b""
        self.strip_cr = False
        # per patch
        self.reverse = False
        self.skip = False
        self.somefailed = False
        self.created: set[str] = set()   # files this run created (rejects: append)
        self.backed_up: set[str] = set()
        self.to_delete: list[tuple[str, bool]] = []
        self.out_fp = None

        self.written_to_rejname = False

    # -- output -----------------------------------------------------------------
    def say(self, text: str | bytes) -> None:
        self.out += text if isinstance(text, bytes) else encode(text)

    async def flush(self) -> None:
        if self.out:
            stream = self.shell.stderr if self.msg_to_stderr else self.shell.stdout
            data = bytes(self.out)
            self.out.clear()
            await stream.write(data)

    def ask(self, question: str) -> None:
        # No terminal: GNU prints the question, a newline, and takes the default answer.
        self.say(question + "\n")

    # -- reading the patch -----------------------------------------------------------
    def get_line(self, *, comments: bool = False, raw: bool = False) -> bytes | None:
        while True:
            if self.pos >= len(self.plines):
                return None
            line = self.plines[self.pos]
            self.pos += 1
            if not line.endswith(b"\n"):
                self.pos = len(self.plines)
                self.say("patch unexpectedly ends in middle of line\n")
                return None
            self.p_input_line += 1
            if line.startswith(b"#") and not comments:
                continue
            if self.strip_cr and not raw and line.endswith(b"\r\n"):
                line = line[:-2] + b"\n"
            self.buf = line
            return line

    def incomplete_line(self) -> bool:
        if self.pos < len(self.plines) and self.plines[self.pos].startswith(b"\\"):
            self.pos += 1
            return True
        return False

    def malformed(self):
        raise Fatal(f"malformed patch at line {self.p_input_line}: {decode(self.buf)}")

    # -- intuit: find the next patch and its file -------------------------------------
    def fetchname(self, at: bytes, *, stamped: bool = True):
        """(name, timestamp text, seconds or -1), or None for /dev/null.

        A name may hold spaces when a tab separates it from the timestamp (or, for
        ``Index:``, when more text follows on the line).
        """
        at = at.lstrip()
        if at[:1] == b'"':
            raw, end = _parse_c_string(at)
            if raw is None:
                raw, end = b"", 0
        else:
            sep = b"\t" if stamped else b"\n"
            t = 0
            n = len(at)
            while t < n:
                if at[t:t + 1].isspace():
                    u = t
                    while at[u:u + 1] != b"\t" and at[u + 1:u + 2].isspace():
                        u += 1
                    if at[u:u + 1] != b"\t" and sep in at[u + 1:]:
                        t += 1
                        continue
                    break
                t += 1
            raw, end = at[:t], t
        if raw == b"/dev/null":
            return None
        name = _strip_leading(raw, self.strip) if raw else None
        rest = at[end:]
        timestr = rest.rstrip(b"\n").rstrip(b"\r")
        stamp = -1
        if rest.strip():
            t = _timestamp(rest.strip())
            if t != -1:
                stamp = 0 if -86400 < t < 86400 else t
        return name, timestr or None, stamp

    def intuit(self) -> int:
        self.names: list[bytes | None] = [None, None, None]
        self.timestr: list[bytes | None] = [None, None]
        self.stamp = [-1, -1]
        self.says = [0, 0]
        self.git = False
        self.mode = [0, 0]
        self.rename = [False, False]
        self.copy = [False, False]
        extended = False
        need_header = self.inname_arg is None
        self.pos = self.p_base
        self.p_input_line = self.p_bline - 1
        self.strip_cr = False
        stars_this = False
        this_line = self.pos
        while True:
            previous_line = this_line
            this_line = self.pos
            line = self.get_line(raw=True)
            if line is None:
                self.p_start, self.p_sline = this_line, self.p_input_line
                if extended:
                    return UNI_DIFF
                return NO_DIFF
            strip_cr = line.endswith(b"\r\n")
            s = line
            stars_last = stars_this
            if not stars_last and s.startswith(b"*** "):
                got = self.fetchname(s[4:])
                if got is not None:
                    self.names[OLD], self.timestr[OLD], self.stamp[OLD] = got
                need_header = False
            elif s.startswith(b"+++ "):
                got = self.fetchname(s[4:])
                if got is None:
                    self.stamp[OLD] = 0
                else:
                    self.names[OLD], self.timestr[OLD], self.stamp[OLD] = got
                need_header = False
                self.strip_cr = strip_cr
            elif s.startswith(b"Index:"):
                got = self.fetchname(s[6:], stamped=False)
                if got is not None:
                    self.names[INDEX] = got[0]
                need_header = False
                self.strip_cr = strip_cr
            elif s.startswith(b"diff --git "):
                if extended:
                    self.p_start, self.p_sline = this_line, self.p_input_line
                    return UNI_DIFF
                self.names[OLD] = self.names[NEW] = None
                a, end = _parse_name(s[11:], self.strip)
                rest = s[11 + end:]
                b, end2 = (_parse_name(rest, self.strip) if rest[:1].isspace() else (None, 0))
                if a is not None and b is not None and not rest[end2:].strip():
                    self.names[OLD], self.names[NEW] = a, b
                self.git = True
            elif self.git and s.startswith(b"index "):
                m = re.match(rb"index ([0-9a-f]+)\.\.([0-9a-f]+)(?:\s+(\S+))?\s*$", s)
                if m:
                    for k in (OLD, NEW):
                        sha = m.group(1 + k)
                        self.says[k] = 2 if set(sha) == {ord("0")} else (
                            1 if "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391".startswith(
                                sha.decode()) else 0)
                    if m.group(3):
                        self.mode[OLD] = self.mode[NEW] = _fetchmode(m.group(3))
                    extended = True
            elif self.git and s.startswith(b"old mode "):
                self.mode[OLD] = _fetchmode(s[9:])
                extended = True
            elif self.git and s.startswith(b"new mode "):
                self.mode[NEW] = _fetchmode(s[9:])
                extended = True
            elif self.git and s.startswith(b"deleted file mode "):
                self.mode[OLD] = _fetchmode(s[18:])
                self.says[NEW] = 2
                extended = True
            elif self.git and s.startswith(b"new file mode "):
                self.mode[NEW] = _fetchmode(s[14:])
                self.says[OLD] = 2
                extended = True
            elif self.git and s.startswith((b"rename from ", b"rename to ")):
                self.rename[OLD if s.startswith(b"rename from ") else NEW] = True
                extended = True
            elif self.git and s.startswith((b"copy from ", b"copy to ")):
                self.copy[OLD if s.startswith(b"copy from ") else NEW] = True
                extended = True
            elif self.git and s.startswith(b"GIT binary patch"):
                raise Fatal("git binary diffs are not supported")
            elif s.startswith(b"--- "):
                got = self.fetchname(s[4:])
                if got is None:
                    stamp = 0
                else:
                    self.names[NEW], self.timestr[NEW], stamp = got
                if stamp != -1:
                    self.stamp[NEW] = stamp
                need_header = False
                self.strip_cr = strip_cr
            stars_this = s.startswith(b"********")
            if need_header:
                continue
            if s.startswith(b"@@ -"):
                self.names[OLD], self.names[NEW] = self.names[NEW], self.names[OLD]
                self.timestr[OLD], self.timestr[NEW] = self.timestr[NEW], self.timestr[OLD]
                self.stamp[OLD], self.stamp[NEW] = self.stamp[NEW], self.stamp[OLD]
                t = s[4:]
                if t[:1] == b"0" and not t[1:2].isdigit():
                    self.says[OLD] = 1 + (self.stamp[OLD] == 0)
                k = 0
                while k < len(t) and t[k:k + 1] not in (b" ", b"\n"):
                    k += 1
                while t[k:k + 1] == b" ":
                    k += 1
                if t[k:k + 1] == b"+" and t[k + 1:k + 2] == b"0" and not t[k + 2:k + 3].isdigit():
                    self.says[NEW] = 1 + (self.stamp[NEW] == 0)
                self.p_start, self.p_sline = this_line, self.p_input_line
                return UNI_DIFF
            if stars_last and s.startswith(b"*** "):
                t = s[4:]
                if t[:1] == b"0" and not t[1:2].isdigit():
                    self.says[OLD] = 1 + (self.stamp[OLD] == 0)
                kind = NEW_CONTEXT_DIFF if s.rstrip(b"\r\n").endswith(b"*") else CONTEXT_DIFF
                self.p_start, self.p_sline = previous_line, self.p_input_line - 1
                # scan the first hunk: does it empty the file?
                self.pos, self.p_input_line = self.p_start, self.p_sline - 1
                saved = self.p_base, self.p_bline
                self.diff_type = kind
                rev, self.reverse = self.reverse, False
                try:
                    h = self.another_hunk()
                finally:
                    self.reverse = rev
                self.p_base, self.p_bline = saved
                if h is not None and not h.new and h.newfirst == 1:
                    self.says[NEW] = 1 + (self.stamp[NEW] == 0)
                return kind

    def name_is_valid(self, name: bytes) -> bool:
        if name in self.invalid:
            return False
        if _filename_is_safe(name):
            return True
        self.say(f"Ignoring potentially dangerous file name {quote(decode(name))}\n")
        self.invalid.append(name)
        return False

    def best_name(self, ignore: list) -> int | None:
        # GNU's running minima, criterion by criterion (fewest components, shortest
        # base name, shortest name), then the first valid name matching all three
        inf = 1 << 62
        cmin = bmin = lmin = inf
        comps: dict[int, int] = {}
        bases: dict[int, int] = {}
        lens: dict[int, int] = {}
        for i in (OLD, NEW, INDEX):
            n = self.names[i]
            if n is None or ignore[i]:
                continue
            comps[i] = _prefix_components(n)
            if cmin < comps[i]:
                continue
            cmin = comps[i]
            bases[i] = len(n.rstrip(b"/").rsplit(b"/", 1)[-1])
            if bmin < bases[i]:
                continue
            bmin = bases[i]
            lens[i] = len(n)
            if lmin < lens[i]:
                continue
            lmin = lens[i]
        for i in (OLD, NEW, INDEX):
            n = self.names[i]
            if (n is not None and not ignore[i] and self.name_is_valid(n)
                    and comps.get(i) == cmin and bases.get(i) == bmin and lens.get(i) == lmin):
                return i
        return None

    def lstat(self, name: str):
        try:
            return self.fs.lstat(name), 0
        except FileSystemError as e:
            return None, e.errno or _errno.ENOENT

    def maybe_reverse(self, name: str, nonexistent: bool, is_empty: bool) -> bool:
        rev = self.reverse
        looks = int(not is_empty) < self.says[int(rev) ^ int(is_empty)]
        if (is_empty and self.says[int(rev) ^ int(nonexistent)] == 1
                and self.says[int(not rev) ^ int(nonexistent)] == 2):
            return False
        if looks:
            what = "delete" if nonexistent else ("empty out" if is_empty else "create")
            which = ("does not exist" if nonexistent
                     else ("is already empty" if is_empty else "already exists"))
            if self.ok_to_reverse(
                    f"The next patch{', when reversed,' if rev else ''} would {what} the file "
                    f"{quote(name)},\nwhich {which}!"):
                self.reverse = not self.reverse
        return looks

    def ok_to_reverse(self, message: str) -> bool:
        r = False
        if self.noreverse or not (self.force and self.verbosity == SILENT):
            self.say(message)
        if self.noreverse:
            self.say("  Skipping patch.\n")
            self.skip = True
        elif self.force:
            if self.verbosity != SILENT:
                self.say("  Applying it anyway.\n")
        elif self.batch:
            self.say("  Ignoring -R.\n" if self.reverse else "  Assuming -R.\n")
            r = True
        else:
            self.ask("  Ignore -R? [n] " if self.reverse else "  Assume -R? [n] ")
            self.ask("Apply anyway? [n] ")
            if self.verbosity != SILENT:
                self.say("Skipping patch.\n")
            self.skip = True
        return r

    def choose_inname(self) -> None:
        self.invalid: list[bytes] = []
        self.chosen = None
        self.inname: str | None = None
        self.instat = None
        self.inerrno = -1
        if self.inname_arg is not None:
            self.inname = self.inname_arg
            st, err = self.lstat(self.inname)
            self.instat, self.inerrno = st, err
            if err or _stat.S_ISREG(st.st_mode):
                self.maybe_reverse(self.inname, bool(err), bool(err) or st.st_size == 0)
            return
        if not self.posix and (self.names[OLD] or self.names[NEW]) and self.names[INDEX]:
            self.names[INDEX] = None
        stats: list = [None, None, None]
        errs = [0, 0, 0]
        i0 = None
        for i in (OLD, NEW, INDEX):
            n = self.names[i]
            if n is None:
                continue
            if i0 is not None and self.names[i0] == n:
                stats[i], errs[i] = stats[i0], errs[i0]
            else:
                stats[i], errs[i] = self.lstat(decode(n))
                if not errs[i] and decode(n) in self.deleted_names:
                    errs[i] = _errno.ENOENT
            i0 = i
        i = self.best_name(errs)
        if (i0 is not None
                and (i is None or _stat.S_ISREG(stats[i].st_mode))
                and self.maybe_reverse(decode(self.names[i if i is not None else i0]),
                                       i is None, i is None or stats[i].st_size == 0)
                and i is None):
            i = i0
        if i is None and self.says[int(self.reverse)]:
            newdirs = {}
            for k in (OLD, NEW, INDEX):
                n = self.names[k]
                if n is not None:
                    newdirs[k] = _prefix_components(n) - self._existing_components(n)
            if newdirs:
                low = min(newdirs.values())
                dist = [newdirs.get(k, 0) - low if k in newdirs else 0 for k in range(3)]
                i = self.best_name(dist)
        self.chosen = i
        if i is None:
            return
        self.inname = decode(self.names[i])
        self.inerrno = errs[i]
        self.instat = stats[i]

    def _existing_components(self, name: bytes) -> int:
        parts = name.split(b"/")
        count = 0
        path = b""
        for p in parts[:-1]:
            if not p:
                path += b"/"
                continue
            path += p
            try:
                if not self.fs.is_dir(decode(path)):
                    break
            except FileSystemError:
                break
            count += 1
            path += b"/"
        return count

    # -- hunks -------------------------------------------------------------------------------
    def another_hunk(self) -> Hunk | None:
        if self.diff_type in (CONTEXT_DIFF, NEW_CONTEXT_DIFF):
            return self.another_context_hunk()
        return self.another_unified_hunk()

    def _context_range(self, line: bytes, what: bytes) -> tuple[int, int]:
        m = re.match(re.escape(what) + rb" (\d+)(?:,(\d+))?", line)
        if not m:
            self.malformed()
        first = int(m.group(1))
        if m.group(2) is not None and not (first == 0 and m.group(2) == b"0"):
            count = int(m.group(2)) + 1 - first
            if count < 0:
                self.malformed()
        elif first:
            count = 1
        else:
            count, first = 0, 1
        return first, count

    def _context_item(self, line: bytes, allowed: str) -> tuple[str, bytes] | None:
        c = line[:1]
        if c in (b"\n", b"\t"):
            return " ", line[1:] if c == b"\t" else line
        ch = chr(line[0])
        if ch in allowed and line[1:2] in (b" ", b"\t"):
            text = line[2:]
        else:
            return None
        if self.incomplete_line():
            text = text[:-1]
        return ch, text

    def another_context_hunk(self) -> Hunk | None:
        begin_pos, begin_line = self.pos, self.p_input_line
        line = self.get_line()
        if line is None or len(line) <= 8 or not line.startswith(b"********"):
            self.p_base, self.p_bline = begin_pos, begin_line + 1
            return None
        h = Hunk()
        rest = line.lstrip(b"*")
        if rest.startswith(b" "):
            h.func = rest.rstrip(b"\n")
        h.beg = self.p_input_line + 1
        line = self.get_line()
        if line is None:
            raise Fatal("unexpected end of file in patch")
        h.first, ptrn = self._context_range(line, b"***")
        old: list[tuple[str, bytes]] = []
        while True:
            line = self.get_line()
            if line is None:
                raise Fatal("unexpected end of file in patch")
            if line.startswith(b"--- "):
                break
            item = self._context_item(line, " -!")
            if item is None:
                self.malformed()
            old.append(item)
        h.newfirst, repl = self._context_range(line, b"---")
        new: list[tuple[str, bytes]] = []
        while len(new) < repl:
            pos0, ln0 = self.pos, self.p_input_line
            line = self.get_line()
            item = self._context_item(line, " +!") if line is not None else None
            if item is None:
                self.pos, self.p_input_line = pos0, ln0
                break
            new.append(item)
        mangled = f"replacement text or line numbers mangled in hunk at line {h.beg}"
        if not new and repl:
            new = [(" ", t) for c, t in old if c == " "]
        if not old and ptrn:
            old = [(" ", t) for c, t in new if c == " "]
            if not old and ptrn == 1 and not any(c == " " for c, _ in new):
                # a null hunk with no context: append after the line, as GNU does
                ptrn = 0
                h.first += 1
        if len(old) != ptrn or len(new) != repl:
            raise Fatal(mangled)
        if [t for c, t in old if c == " "] != [t for c, t in new if c == " "]:
            raise Fatal(f"context mangled in hunk at line {h.beg}")
        h.old, h.new = old, new

        def lead(side, ch):
            if not any(c != " " for c, _ in side):
                return None
            n = 0
            for c, _ in side:
                if c != " ":
                    break
                n += 1
            return n
        pre = [x for x in (lead(old, "-"), lead(new, "+")) if x is not None]
        suf = [x for x in (lead(old[::-1], "-"), lead(new[::-1], "+")) if x is not None]
        if not pre:
            raise Fatal(mangled)
        h.prefix, h.suffix = min(pre), min(suf)
        if self.reverse:
            h.swap()
        return h

    def another_unified_hunk(self) -> Hunk | None:
        begin_pos, begin_line = self.pos, self.p_input_line
        line = self.get_line()
        if line is None or len(line) <= 4 or not line.startswith(b"@@ -"):
            self.p_base, self.p_bline = begin_pos, begin_line + 1
            return None
        h = Hunk()
        m = re.match(rb"@@ -(\d*)(?:,(\d*))? ?\+(\d*)(?:,(\d*))? ?@", line)
        if not m:
            self._header_error(line)
        if any(g == b"" for g in m.groups() if g is not None):
            raise Fatal(f"missing line number at line {self.p_input_line}: {decode(line)}")
        first = int(m.group(1))
        ptrn = int(m.group(2)) if m.group(2) is not None else 1
        newfirst = int(m.group(3))
        repl = int(m.group(4)) if m.group(4) is not None else 1
        rest = line[m.end():]
        if rest.startswith(b"@ "):
            h.func = rest[1:].rstrip(b"\n")
        if not ptrn:
            first += 1
        if not repl:
            newfirst += 1
        h.first, h.newfirst = first, newfirst
        h.beg = self.p_input_line + 1
        context = 0
        prefix = -1
        n_old = n_new = 0
        budget = self.shell.budget
        count = 0
        while n_old < ptrn or n_new < repl:
            count += 1
            if count & 1023 == 0:
                budget.check()
            line = self.get_line()
            if line is None:
                if repl - n_new < 4:
                    line = b" \n"
                    self.buf = line
                else:
                    raise Fatal("unexpected end of file in patch")
            if line[:1] in (b"\t", b"\n"):
                ch, s = " ", line
            else:
                ch, s = chr(line[0]), line[1:]
            if ch == "-":
                if n_old >= ptrn:
                    self.malformed()
                if n_old == ptrn - 1 and self.incomplete_line():
                    s = s[:-1]
                h.old.append(("-", s))
                n_old += 1
            elif ch in (" ", "=", "+"):
                if ch != "+":
                    ch = " "
                    if n_old >= ptrn:
                        self.malformed()
                    context += 1
                    if n_old == ptrn - 1 and self.incomplete_line():
                        s = s[:-1]
                    h.old.append((" ", s))
                    n_old += 1
                if n_new >= repl:
                    self.malformed()
                if n_new == repl - 1 and self.incomplete_line():
                    s = s[:-1]
                h.new.append((ch, s))
                n_new += 1
            else:
                self.malformed()
            if ch != " ":
                if prefix == -1:
                    prefix = context
                context = 0
        if prefix == -1:
            self.malformed()
        h.prefix, h.suffix = prefix, context
        if self.reverse:
            h.swap()
        return h

    def _header_error(self, line: bytes):
        # GNU scans the numbers one by one: name the first thing it trips over
        m = re.match(rb"@@ -(\d+)(?:,(\d+))?", line)
        if not m or (line[m.end(1):m.end(1) + 1] == b"," and m.group(2) is None):
            raise Fatal(f"missing line number at line {self.p_input_line}: {decode(line)}")
        self.buf = line
        self.malformed()

    # -- applying --------------------------------------------------------------------------
    def ifetch(self, n: int) -> bytes:
        if 1 <= n <= len(self.ilines):
            return self.ilines[n - 1]
        return b""

    def patch_match(self, h: Hunk, base: int, offset: int, pfuzz: int, sfuzz: int) -> bool:
        old = h.old
        end = len(old) - sfuzz
        iline = base + offset + pfuzz
        for p in range(pfuzz, end):
            a = self.ifetch(iline)
            b = old[p][1]
            if self.canonicalize:
                if not _similar(a, b):
                    return False
            elif a != b:
                return False
            iline += 1
        return True

    def locate_hunk(self, h: Hunk, fuzz: int) -> int:
        first_guess = h.first + self.in_offset
        pat_lines = len(h.old)
        prefix_context, suffix_context = h.prefix, h.suffix
        context = max(prefix_context, suffix_context)
        prefix_fuzz = fuzz + prefix_context - context
        suffix_fuzz = fuzz + suffix_context - context
        input_lines = len(self.ilines)
        max_where = input_lines - (pat_lines - suffix_fuzz) + 1
        min_where = self.last_frozen + 1
        max_pos_offset = max_where - first_guess
        max_neg_offset = first_guess - min_where
        max_offset = max(max_pos_offset, max_neg_offset)
        if not pat_lines:
            return first_guess
        if first_guess <= max_neg_offset:
            max_neg_offset = first_guess - 1
        if prefix_fuzz < 0 and h.first <= 1:
            if suffix_fuzz < 0:
                if pat_lines != input_lines or prefix_context < self.last_frozen:
                    return 0
            offset = 1 - first_guess
            if (self.last_frozen <= prefix_context and offset <= max_pos_offset
                    and self.patch_match(h, first_guess, offset, 0, suffix_fuzz)):
                self.in_offset += offset
                return first_guess + offset
            return 0
        elif prefix_fuzz < 0:
            prefix_fuzz = 0
        if suffix_fuzz < 0:
            offset = first_guess - (input_lines - pat_lines + 1)
            if offset <= max_neg_offset and self.patch_match(h, first_guess, -offset,
                                                             prefix_fuzz, 0):
                self.in_offset -= offset
                return first_guess - offset
            return 0
        if max_pos_offset < 0:
            min_offset = first_guess - max_where
        elif max_neg_offset < 0:
            min_offset = first_guess - min_where
        else:
            min_offset = 0
        budget = self.shell.budget
        offset = min_offset
        while offset <= max_offset:
            if offset & 255 == 0:
                budget.check()
            if offset <= max_pos_offset and self.patch_match(h, first_guess, offset,
                                                             prefix_fuzz, suffix_fuzz):
                self.in_offset += offset
                return first_guess + offset
            if offset <= max_neg_offset and self.patch_match(h, first_guess, -offset,
                                                             prefix_fuzz, suffix_fuzz):
                self.in_offset -= offset
                return first_guess - offset
            offset += 1
        return 0

    def copy_till(self, lastline: int) -> bool:
        if self.last_frozen > lastline:
            self.say("misordered hunks! output would be garbled\n")
            return False
        o = self.output
        while self.last_frozen < lastline:
            self.last_frozen += 1
            s = self.ifetch(self.last_frozen)
            if s:
                if not self.after_newline:
                    o.append(b"\n")
                o.append(s)
                self.after_newline = s.endswith(b"\n")
                self.zero_output = False
        return True

    def apply_hunk(self, h: Hunk, where: int) -> bool:
        old, new = h.old, h.new
        o = self.output
        where -= 1
        oi = ni = 0
        while oi < len(old):
            if old[oi][0] in "-!":
                if not self.copy_till(where + oi):
                    return False
                self.last_frozen += 1
                oi += 1
            elif ni >= len(new):
                break
            elif new[ni][0] in "+!":
                if not self.copy_till(where + oi):
                    return False
                text = new[ni][1]
                o.append(text)
                self.after_newline = text.endswith(b"\n")
                self.zero_output = False
                ni += 1
            else:
                oi += 1
                ni += 1
        if ni < len(new) and new[ni][0] in "+!":
            if not self.copy_till(where + oi):
                return False
            while ni < len(new) and new[ni][0] in "+!":
                if not self.after_newline:
                    o.append(b"\n")
                text = new[ni][1]
                o.append(text)
                self.after_newline = text.endswith(b"\n")
                self.zero_output = False
                ni += 1
        self.out_offset += len(new) - len(old)
        return True

    def check_line_endings(self, h: Hunk, where: int) -> bool:
        p = h.old[0][1] if h.old else b"--- \n"
        if not p:
            return False
        patch_crlf = p.endswith(b"\r\n")
        if not self.ilines:
            return False
        where = min(where, len(self.ilines))
        s = self.ifetch(where)
        if not s:
            return False
        return patch_crlf != s.endswith(b"\r\n")

    def abort_hunk(self, h: Hunk, header: bool) -> None:
        if self.diff_type in (CONTEXT_DIFF, NEW_CONTEXT_DIFF):
            self.abort_hunk_context(h, header)
            return
        r = self.rej
        if header:
            if self.names[INDEX] is not None:
                r += b"Index: " + self.names[INDEX] + b"\n"
            for tag, which in ((b"---", int(self.reverse)), (b"+++", int(not self.reverse))):
                name = self.names[which]
                r += tag + b" " + (name if name is not None else b"/dev/null")
                r += (self.timestr[which] or b"") + b"\n"
        r += b"@@ -" + _range(h.first + self.out_offset, len(h.old))
        r += b" +" + _range(h.newfirst + self.out_offset, len(h.new))
        r += b" @@" + (h.func or b"") + b"\n"
        old, new = h.old, h.new
        oi = ni = 0
        while True:
            while oi < len(old) and old[oi][0] in "-!":
                r += b"-" + old[oi][1]
                oi += 1
            while ni < len(new) and new[ni][0] in "+!":
                r += b"+" + new[ni][1]
                ni += 1
            if oi >= len(old):
                break
            r += b" " + old[oi][1]
            oi += 1
            ni += 1

    def abort_hunk_context(self, h: Hunk, header: bool) -> None:
        r = self.rej
        newstyle = self.diff_type == NEW_CONTEXT_DIFF
        stars, minuses = (b" ****", b" ----") if newstyle else (b"", b" -----")
        if header:
            if self.names[INDEX] is not None:
                r += b"Index: " + self.names[INDEX] + b"\n"
            for tag, which in ((b"***", int(self.reverse)), (b"---", int(not self.reverse))):
                name = self.names[which]
                r += tag + b" " + (name if name is not None else b"/dev/null")
                r += (self.timestr[which] or b"") + b"\n"
        r += b"***************" + (h.func or b"") + b"\n"
        for tag, first, side, tail in ((b"***", h.first, h.old, stars),
                                       (b"---", h.newfirst, h.new, minuses)):
            first += self.out_offset
            last = first + len(side) - 1
            if last < first:
                r += tag + b" 0" + tail + b"\n"
            elif last == first:
                r += tag + b" %d" % first + tail + b"\n"
            else:
                r += tag + b" %d,%d" % (first, last) + tail + b"\n"
            for c, t in side:
                r += c.encode() + b" " + t

    # -- one file ------------------------------------------------------------------------
    def file_label(self) -> str:
        return quote(self.outname)

    async def do_one(self) -> None:
        self.in_offset = 0
        self.out_offset = 0
        self.last_frozen = 0
        self.rej = bytearray()
        if self.skip:
            pass
        elif self.verbosity != SILENT:
            if self.strip_cr:
                self.say("(Stripping trailing CRs from patch; use --binary to disable.)\n")
            if self.inname is None:
                self.say(f"can't find file to patch at input line {self.p_sline}\n")
                self.say("Perhaps you should have used the -p or --strip option?\n"
                         if self.strip == -1 else
                         "Perhaps you used the wrong -p or --strip option?\n")
        # skip_to: show the text leading up to the hunk
        if (not self.skip and (self.verbosity == VERBOSE or self.inname is None)
                and self.p_base < self.p_start):
            self.say("The text leading up to this was:\n--------------------------\n")
            for k in range(self.p_base, self.p_start):
                ln = self.plines[k]
                self.say(b"|" + ln + (b"" if ln.endswith(b"\n") else b"\n"))
            self.say("--------------------------\n")
        self.pos = self.p_start
        self.p_input_line = self.p_sline - 1
        if self.inname is None and not self.skip:
            if self.force or self.batch:
                self.say("No file to patch.  Skipping patch.\n")
            else:
                self.ask("File to patch: ")
                self.ask("Skip this patch? [y] ")
                if self.verbosity != SILENT:
                    self.say("Skipping patch.\n")
            self.skip = True
        if self.skip:
            self.somefailed = True
        outname = None
        if not self.skip:
            if self.outfile is not None:
                outname = self.outfile
            elif self.is_rename or self.is_copy:
                outname = decode(self.names[int(not self.reverse)])
            else:
                outname = self.inname
        self.outname = outname
        # get_input_file
        if not self.skip:
            if self.inerrno == -1:
                self.instat, self.inerrno = self.lstat(self.inname)
            if not self.inerrno and not _stat.S_ISREG(self.instat.st_mode):
                self.say(f"File {quote(self.inname)} is not a regular file -- "
                         "refusing to patch\n")
                self.skip = True
                self.somefailed = True
        if (not self.skip and self.read_only != "ignore" and not self.inerrno
                and not self.fs.access(self.inname, 2)):
            self.say(f"File {quote(self.inname)} is read-only; ")
            if self.read_only == "warn":
                self.say("trying to patch anyway\n")
            else:
                self.say("refusing to patch\n")
                self.skip = True
                self.somefailed = True
        self.output: list[bytes] = []
        self.after_newline = True
        self.zero_output = True
        self.ilines = []
        if not self.skip:
            if not self.inerrno:
                try:
                    data = self.fs.read_bytes(self.inname)
                except FileSystemError as e:
                    raise Fatal(f"Can't open file {quote(self.inname)} : {e.strerror}") from None
                self.ilines = _split_lf(data)
            elif self.inerrno not in (_errno.ENOENT, _errno.ENOTDIR):
                raise Fatal(f"Can't open file {quote(self.inname)} : "
                            f"{_strerror(self.inerrno)}")
            if self.verbosity != SILENT:
                renamed = outname != self.inname
                self.say(f"{'checking' if self.dry_run else 'patching'} file {quote(outname)}"
                         + (" " if renamed or self.is_copy or self.is_rename else "\n"))
                how = "copied" if self.is_copy else "renamed" if self.is_rename else "read"
                if renamed:
                    self.say(f"({how} from {self.inname})\n")
                elif self.is_copy or self.is_rename:
                    self.say(f"(already {how} from "
                             f"{decode(self.names[int(self.reverse)])})\n")
                if self.verbosity == VERBOSE:
                    self.say("Using Plan A...\n")
        hunk = 0
        failed = 0
        mismatch = False
        apply_anyway = False
        budget = self.shell.budget
        while True:
            budget.check()
            h = self.another_hunk()
            if h is None:
                break
            where = 0
            fuzz = 0
            mymaxfuzz = min(self.maxfuzz, max(h.prefix, h.suffix))
            hunk += 1
            if not self.skip:
                while True:
                    where = self.locate_hunk(h, fuzz)
                    if not where or fuzz or self.in_offset:
                        mismatch = True
                    if (hunk == 1 and not where and not (self.force or apply_anyway)
                            and self.reverse == self.reverse_flag):
                        h.swap()
                        where = self.locate_hunk(h, fuzz)
                        if where and self.ok_to_reverse(
                                "Unreversed patch detected!" if self.reverse else
                                "Reversed (or previously applied) patch detected!"):
                            self.reverse = not self.reverse
                        else:
                            h.swap()
                            if where:
                                apply_anyway = True
                                fuzz -= 1
                                where = 0
                    if self.skip or where:
                        break
                    fuzz += 1
                    if fuzz > mymaxfuzz:
                        break
            newwhere = (where if where else h.first) + self.out_offset
            if (self.skip
                    or (where == 1 and self.says[int(self.reverse)] == 2 and self.ilines)
                    or not where or not self.apply_hunk(h, where)):
                self.abort_hunk(h, not failed)
                failed += 1
                if self.verbosity == VERBOSE or (not self.skip and self.verbosity != SILENT):
                    le = (" (different line endings)"
                          if not self.skip and self.check_line_endings(h, newwhere) else "")
                    self.say(f"Hunk #{hunk} {'ignored' if self.skip else 'FAILED'} at "
                             f"{newwhere}{le}.\n")
            elif self.verbosity == VERBOSE or (self.verbosity != SILENT
                                               and (fuzz or self.in_offset)):
                msg = f"Hunk #{hunk} succeeded at {newwhere}"
                if fuzz:
                    msg += f" with fuzz {fuzz}"
                if self.in_offset:
                    n = self.in_offset
                    msg += f" (offset {n} line{'' if n == 1 else 's'})"
                self.say(msg + ".\n")
        if not self.skip and self.last_frozen < len(self.ilines):
            self.copy_till(len(self.ilines))
        await self.flush()
        if not self.skip:
            await self.finish_file(hunk, failed, mismatch)
        if failed:
            self.somefailed = True
            self.say(f"{failed} out of {hunk} hunk{'' if hunk == 1 else 's'} "
                     f"{'ignored' if self.skip else 'FAILED'}")
            if outname is not None and self.rejname != "-":
                rej = self.rejname if self.rejname is not None else outname + ".rej"
                if not self.dry_run:
                    self.say(f" -- saving rejects to file {quote(rej)}\n")
                    self.write_reject(rej)
                else:
                    self.say("\n")
            else:
                self.say("\n")
        await self.flush()

    async def finish_file(self, hunk: int, failed: int, mismatch: bool) -> None:
        data = b"".join(self.output)
        self.output = []
        if self.outfile is not None:
            # GNU writes -o FILE even with --dry-run
            if self.outfile == "-":
                await self.shell.stdout.write(data)
            else:
                try:
                    self.fs.append_bytes(self.outfile, data)
                except FileSystemError as e:
                    raise Fatal(f"Can't create file {quote(self.outfile)} : "
                                f"{e.strerror}") from None
            return
        outname = self.outname
        backup = self.make_backups or (self.backup_if_mismatch and (mismatch or failed))
        if self.zero_output and (self.remove_empty or
                                 (self.says[int(not self.reverse)] == 2 and not self.posix)):
            if not self.dry_run:
                self.to_delete.append((outname, backup))
                self.deleted_names.add(outname)
            return
        if (not self.zero_output and self.says[int(not self.reverse)] == 2
                and (self.remove_empty or not self.posix)):
            self.somefailed = True
            if self.verbosity != SILENT:
                self.say(f"Not deleting file {quote(outname)} as content differs from patch\n")
        if self.dry_run:
            return
        old_mode = self.mode[int(self.reverse)]
        new_mode = self.mode[int(not self.reverse)]
        set_mode = bool(new_mode) and old_mode != new_mode
        if not (failed < hunk or set_mode or self.is_rename or self.is_copy):
            if backup:  # nothing changed, but GNU still backs the file up
                self.create_backup(outname, exists=not self.inerrno)
            return
        if new_mode:
            perm = new_mode & 0o777
        elif not self.inerrno:
            perm = _stat.S_IMODE(self.instat.st_mode)
        else:
            perm = 0o666 & ~self.shell.umask
        if backup:
            self.create_backup(outname, exists=self.fs.lexists(outname))
        self.write_file(outname, data, perm)
        if self.is_rename and self.inname != outname:
            self.to_delete.append((self.inname, backup))
            self.deleted_names.add(self.inname)

    async def spill_partial_output(self) -> None:
        """GNU streams -o output as it goes: what was produced before a fatal error stays."""
        data = b"".join(getattr(self, "output", []))
        self.output = []
        if not data or self.outfile is None:
            return
        if self.outfile == "-":
            await self.shell.stdout.write(data)
            return
        try:
            self.fs.append_bytes(self.outfile, data)
        except FileSystemError:
            pass

    def backup_name(self, name: str) -> str:
        return name + self.suffix

    def create_backup(self, name: str, *, exists: bool) -> None:
        if name in self.backed_up:
            return
        self.backed_up.add(name)
        bname = self.backup_name(name)
        try:
            if exists:
                try:
                    self.fs.unlink(bname)
                except FileSystemError:
                    pass
                data = self.fs.read_bytes(name)
                st = self.fs.stat(name)
                self.fs.write_bytes(bname, data)
                self.fs.chmod(bname, _stat.S_IMODE(st.st_mode))
            else:
                self._makedirs(bname)
                self.fs.write_bytes(bname, b"")
        except FileSystemError as e:
            raise Fatal(f"Can't create file {quote(bname)} : {e.strerror}") from None

    def _makedirs(self, name: str) -> None:
        head = name.rpartition("/")[0]
        if head and not self.fs.is_dir(head):
            self.fs.mkdir(head, parents=True, exist_ok=True)

    def write_file(self, name: str, data: bytes, perm: int) -> None:
        fs = self.fs
        try:
            self._makedirs(name)
            if fs.lexists(name):
                # write the new content in place of the old, as sed -i does through the door
                head, slash, base = name.rpartition("/")
                tmp = f"{head}{slash}.patch{id(data) & 0xFFFFFF:x}.tmp"
                with fs.open(tmp, "xb", perm=0o600) as f:
                    f.write(data)
                try:
                    fs.chmod(tmp, perm)
                    fs.rename(tmp, name)
                except FileSystemError:
                    try:
                        fs.unlink(tmp)
                    except FileSystemError:
                        pass
                    raise
            else:
                with fs.open(name, "xb", perm=perm) as f:
                    f.write(data)
                self.created.add(name)
        except FileSystemError as e:
            raise Fatal(f"Can't create file {quote(name)} : {e.strerror}") from None

    def write_reject(self, rej: str) -> None:
        data = bytes(self.rej)
        try:
            if self.rejname is not None:
                if self.written_to_rejname:
                    self.fs.append_bytes(rej, data)
                else:
                    self.fs.write_bytes(rej, data)
                    self.written_to_rejname = True
            elif rej in self.created:
                self.fs.append_bytes(rej, data)
            else:
                self._makedirs(rej)
                if self.fs.lexists(rej):
                    self.fs.unlink(rej)
                with self.fs.open(rej, "xb", perm=0o666 & ~self.shell.umask) as f:
                    f.write(data)
                self.created.add(rej)
        except FileSystemError as e:
            raise Fatal(f"Can't create file {quote(rej)} : {e.strerror}") from None

    def delete_files(self) -> None:
        for name, backup in self.to_delete:
            if self.verbosity == VERBOSE:
                self.say(f"Removing file {quote(name)}\n")
            exists = self.fs.lexists(name)
            if backup:
                self.create_backup(name, exists=exists)
            if exists:
                try:
                    self.fs.unlink(name)
                except FileSystemError as e:
                    raise Fatal(f"Can't remove file {quote(name)} : {e.strerror}") from None
            # remove the directories the deletion left empty
            head = name.rpartition("/")[0]
            while head and head not in (".", "/"):
                try:
                    self.fs.rmdir(head)
                except FileSystemError:
                    break
                if self.verbosity == VERBOSE:
                    self.say(f"Removed empty directory {quote(head)}\n")
                head = head.rpartition("/")[0]

    # -- the whole run -------------------------------------------------------------------------
    async def run(self, argv: list[str]) -> int:
        self.deleted_names: set[str] = set()
        if "POSIXLY_CORRECT" in self.shell.env:
            self.posix = True
            self.backup_if_mismatch = False
        suffix = self.shell.env.get("SIMPLE_BACKUP_SUFFIX")
        if suffix:
            self.suffix = suffix
        try:
            opts, operands = parse_options(argv[1:], SHORT, LONG)
        except OptionError as e:
            raise Usage(str(e)) from None
        for key, val in opts:
            if key == "help":
                await self.shell.stdout.write(encode(HELP))
                return 0
            if key == "v":
                await self.shell.stdout.write(encode(VERSION))
                return 0
            if key == "b":
                self.make_backups = True
            elif key == "d":
                path = self.fs.abspath(val)
                try:
                    ok = self.fs.is_dir(path)
                    if not ok:
                        self.fs.stat(path)
                        raise FileSystemError(_errno.ENOTDIR, val)
                except FileSystemError as e:
                    raise Fatal(f"Can't change to directory {quote(val)} : "
                                f"{e.strerror}") from None
                self.fs = self.fs.at(path)
            elif key == "E":
                self.remove_empty = True
            elif key == "f":
                self.force = True
            elif key == "F":
                self.maxfuzz = _numeric(val, "fuzz factor")
            elif key == "i":
                self.patchname = val
            elif key == "l":
                self.canonicalize = True
            elif key == "N":
                self.noreverse = True
            elif key == "o":
                self.outfile = val
            elif key == "p":
                self.strip = _numeric(val, "strip count")
            elif key == "r":
                self.rejname = val
            elif key == "R":
                self.reverse_flag = True
            elif key == "s":
                self.verbosity = SILENT
            elif key == "t":
                self.batch = True
            elif key == "verbose":
                self.verbosity = VERBOSE
            elif key == "dry-run":
                self.dry_run = True
            elif key == "z":
                if not val:
                    raise Fatal("backup suffix is empty")
                self.suffix = val
            elif key == "backup-if-mismatch":
                self.backup_if_mismatch = True
            elif key == "no-backup-if-mismatch":
                self.backup_if_mismatch = False
            elif key == "posix":
                self.posix = True
            elif key == "read-only":
                if val not in ("ignore", "warn", "fail"):
                    raise Usage("")
                self.read_only = val
            elif key == "reject-format":
                if val not in ("context", "unified"):
                    raise Usage("")
                if val == "context":
                    raise Fatal("context rejects are not supported")
            elif key in ("D", "e", "c", "n"):
                raise Fatal(f"option -{key} is not supported")
            # u, T, Z, V, B, Y, g, x, binary, follow-symlinks, quoting-style: accepted
        if operands:
            self.inname_arg = operands[0]
            if len(operands) > 1:
                self.patchname = operands[1]
            if len(operands) > 2:
                raise Usage(f"{quote(operands[2])}: extra operand")
        data = await self.read_patch()
        self.plines = _split_lf(data)
        if self.outfile is not None:
            if self.outfile == "-":
                self.msg_to_stderr = True
            else:  # created at once, even with --dry-run, as GNU does
                try:
                    self._makedirs(self.outfile)
                    with self.fs.open(self.outfile, "wb", perm=0o600):
                        pass
                except FileSystemError as e:
                    raise Fatal(f"Can't create file {quote(self.outfile)} : "
                                f"{e.strerror}") from None
        first = True
        while True:
            if not first and self.p_base >= len(self.plines):
                if self.verbosity == VERBOSE:
                    self.say("done\n")
                break
            if self.verbosity == VERBOSE:
                self.say("Hmm...")
            self.diff_type = NO_DIFF
            kind = self.intuit()
            self.diff_type = kind
            self.reverse = self.reverse_flag
            self.skip = False
            if kind != NO_DIFF:
                self.is_rename = self.rename[OLD] and self.rename[NEW]
                self.is_copy = self.copy[OLD] and self.copy[NEW]
                self.choose_inname()
                if ((self.is_rename or self.is_copy) and self.inname_arg is None
                        and not (self.chosen in (OLD, NEW)
                                 and self.names[int(not self.reverse)] is not None
                                 and self.name_is_valid(self.names[int(not self.reverse)]))):
                    self.say(f"Cannot {'rename' if self.is_rename else 'copy'} file "
                             "without two valid file names\n")
                    self.skip = True
            if kind == NO_DIFF:
                if self.verbosity == VERBOSE:
                    self.say("  Ignoring the trailing garbage.\ndone\n" if not first else
                             "  I can't seem to find a patch in there anywhere.\n")
                if first and data:
                    raise Fatal("Only garbage was found in the patch input.")
                break
            if self.verbosity == VERBOSE and not self.skip:
                what = {UNI_DIFF: "a unified diff", CONTEXT_DIFF: "a context diff",
                        NEW_CONTEXT_DIFF: "a new-style context diff"}[kind]
                self.say(f"  {'L' if first else 'The next patch l'}ooks like {what} to me...\n")
            first = False
            await self.do_one()
        if not self.dry_run:
            self.delete_files()
        await self.flush()
        return 1 if self.somefailed else 0

    async def read_patch(self) -> bytes:
        name = self.patchname
        if name is None or name == "" or name == "-":
            return await self.shell.stdin.read()
        try:
            stream = self.shell.open_input(name)
        except FileSystemError as e:
            raise Fatal(f"Can't open patch file {quote(name)} : {e.strerror}") from None
        try:
            return await stream.read()
        except FileSystemError as e:
            raise Fatal(f"Can't open patch file {quote(name)} : {e.strerror}") from None
        except IsADirectoryError:
            raise Fatal(f"Can't open patch file {quote(name)} : Is a directory") from None
        finally:
            stream.close()


def _split_lf(data: bytes) -> list[bytes]:
    if not data:
        return []
    parts = data.split(b"\n")
    lines = [p + b"\n" for p in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def _range(start: int, count: int) -> bytes:
    if count == 0:
        return b"%d,0" % (start - 1)
    if count == 1:
        return b"%d" % start
    return b"%d,%d" % (start, count)


def _prefix_components(name: bytes) -> int:
    count = 0
    for k in range(1, len(name)):
        if name[k:k + 1] == b"/" and name[k - 1:k] != b"/":
            count += 1
    return count


def _fetchmode(s: bytes) -> int:
    s = s.strip()
    if re.fullmatch(rb"[0-7]{6}", s):
        return int(s, 8)
    return 0


def _similar(a: bytes, b: bytes) -> bool:
    """GNU's -l comparison: runs of blanks match runs of blanks, newlines ignored."""
    if a.endswith(b"\n"):
        a = a[:-1]
    if b.endswith(b"\n"):
        b = b[:-1]
    i = j = 0
    la, lb = len(a), len(b)
    blank = b" \t"
    while True:
        if j >= lb or b[j] in blank:
            while j < lb and b[j] in blank:
                j += 1
            if i < la:
                if a[i] not in blank:
                    return False
                while i < la and a[i] in blank:
                    i += 1
            if i >= la or j >= lb:
                return (la - i) == (lb - j)
        elif i >= la or a[i] != b[j]:
            return False
        else:
            i += 1
            j += 1


def _strerror(err: int) -> str:
    import os
    return os.strerror(err)


async def main(shell, argv: list[str]) -> int:
    p = Patch(shell)
    try:
        return await p.run(argv)
    except Usage as e:
        await p.flush()
        if str(e):
            await shell.error(PROG, str(e))
        await shell.error(PROG, f"Try '{PROG} --help' for more information.")
        return 2
    except Fatal as e:
        await p.flush()
        await p.spill_partial_output()
        await shell.stderr.write(encode(f"{PROG}: **** {e}\n"))
        return 2
