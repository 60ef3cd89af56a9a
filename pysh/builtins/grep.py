"""grep, egrep, fgrep: GNU grep 3.8 through the FileSystem door.

Matching goes through :mod:`pysh.shellkit.regex`. Input is read in chunks of
whole lines, decoded as UTF-8 with surrogateescape (bytes that are not UTF-8
are kept exactly and match only themselves), and each chunk is scanned as one
buffer with a multi-line pattern, so the engine, not a Python loop, skips the
lines that do not match. Binary files follow GNU: a NUL byte in the data (or,
when a line is about to be printed, an encoding error in it) makes grep stop
at the next match and say ``grep: NAME: binary file matches`` on stderr.
"""

from __future__ import annotations

import errno
import fnmatch
import os
import re
import stat as _stat

from pysh.shellkit import on_write_error
from pysh.shellkit.errors import FileSystemError
from pysh.shellkit.options import OptionError, parse_options
from pysh.shellkit.regex import RegexError, compile_fixed, compile_perl, compile_posix
from pysh.shellkit.text import decode, encode

HELP = """\
Usage: grep [OPTION]... PATTERNS [FILE]...
Search for PATTERNS in each FILE.
Example: grep -i 'hello world' menu.h main.c
PATTERNS can contain multiple patterns separated by newlines.

Pattern selection and interpretation:
  -E, --extended-regexp     PATTERNS are extended regular expressions
  -F, --fixed-strings       PATTERNS are strings
  -G, --basic-regexp        PATTERNS are basic regular expressions
  -P, --perl-regexp         PATTERNS are Perl regular expressions
  -e, --regexp=PATTERNS     use PATTERNS for matching
  -f, --file=FILE           take PATTERNS from FILE
  -i, --ignore-case         ignore case distinctions in patterns and data
      --no-ignore-case      do not ignore case distinctions (default)
  -w, --word-regexp         match only whole words
  -x, --line-regexp         match only whole lines
  -z, --null-data           a data line ends in 0 byte, not newline

Miscellaneous:
  -s, --no-messages         suppress error messages
  -v, --invert-match        select non-matching lines
  -V, --version             display version information and exit
      --help                display this help text and exit

Output control:
  -m, --max-count=NUM       stop after NUM selected lines
  -b, --byte-offset         print the byte offset with output lines
  -n, --line-number         print line number with output lines
      --line-buffered       flush output on every line
  -H, --with-filename       print file name with output lines
  -h, --no-filename         suppress the file name prefix on output
      --label=LABEL         use LABEL as the standard input file name prefix
  -o, --only-matching       show only nonempty parts of lines that match
  -q, --quiet, --silent     suppress all normal output
      --binary-files=TYPE   assume that binary files are TYPE;
                            TYPE is 'binary', 'text', or 'without-match'
  -a, --text                equivalent to --binary-files=text
  -I                        equivalent to --binary-files=without-match
  -d, --directories=ACTION  how to handle directories;
                            ACTION is 'read', 'recurse', or 'skip'
  -D, --devices=ACTION      how to handle devices, FIFOs and sockets;
                            ACTION is 'read' or 'skip'
  -r, --recursive           like --directories=recurse
  -R, --dereference-recursive  likewise, but follow all symlinks
      --include=GLOB        search only files that match GLOB (a file pattern)
      --exclude=GLOB        skip files that match GLOB
      --exclude-from=FILE   skip files that match any file pattern from FILE
      --exclude-dir=GLOB    skip directories that match GLOB
  -L, --files-without-match  print only names of FILEs with no selected lines
  -l, --files-with-matches  print only names of FILEs with selected lines
  -c, --count               print only a count of selected lines per FILE
  -T, --initial-tab         make tabs line up (if needed)
  -Z, --null                print 0 byte after FILE name

Context control:
  -B, --before-context=NUM  print NUM lines of leading context
  -A, --after-context=NUM   print NUM lines of trailing context
  -C, --context=NUM         print NUM lines of output context
  -NUM                      same as --context=NUM
      --group-separator=SEP  print SEP on line between matches with context
      --no-group-separator  do not print separator for matches with context
      --color[=WHEN],
      --colour[=WHEN]       use markers to highlight the matching strings;
                            WHEN is 'always', 'never', or 'auto'
  -U, --binary              do not strip CR characters at EOL (MSDOS/Windows)

When FILE is '-', read standard input.  With no FILE, read '.' if
recursive, '-' otherwise.  With fewer than two FILEs, assume -h.
Exit status is 0 if any line is selected, 1 otherwise;
if any error occurs and -q is not given, the exit status is 2.

Report bugs to: bug-grep@gnu.org
GNU grep home page: <https://www.gnu.org/software/grep/>
General help using GNU software: <https://www.gnu.org/gethelp/>
"""

VERSION = """\
grep (GNU grep) 3.8 (pysh)
License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.
This is free software: you are free to change and redistribute it.
There is NO WARRANTY, to the extent permitted by law.
"""

USAGE = "Usage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n"

SHORT = "0123456789A:B:C:D:EFGHILPRTUVX:Zabcd:e:f:hilm:noqrsuvwxyz"
LONG = {
    "after-context=": "A", "before-context=": "B", "context=": "C",
    "basic-regexp": "G", "extended-regexp": "E", "fixed-regexp": "F", "fixed-strings": "F",
    "perl-regexp": "P", "regexp=": "e", "file=": "f", "ignore-case": "i",
    "no-ignore-case": "no-ignore-case", "word-regexp": "w", "line-regexp": "x",
    "null-data": "z", "no-messages": "s", "invert-match": "v", "version": "V",
    "help": "help", "max-count=": "m", "byte-offset": "b", "line-number": "n",
    "line-buffered": "line-buffered", "with-filename": "H", "no-filename": "h",
    "label=": "label", "only-matching": "o", "quiet": "q", "silent": "q",
    "binary-files=": "binary-files", "text": "a", "directories=": "d", "devices=": "D",
    "recursive": "r", "dereference-recursive": "R", "include=": "include",
    "exclude=": "exclude", "exclude-from=": "exclude-from", "exclude-dir=": "exclude-dir",
    "files-without-match": "L", "files-with-matches": "l", "count": "c",
    "initial-tab": "T", "null": "Z", "group-separator=": "group-separator",
    "no-group-separator": "no-group-separator", "color?": "color", "colour?": "color",
    "binary": "U", "unix-byte-offsets": "u",
}

CHUNK = 256 * 1024
FLUSH = 64 * 1024

# GREP_COLORS defaults
SGR = {"ms": "01;31", "mc": "01;31", "sl": "", "cx": "", "fn": "35", "ln": "32", "bn": "32",
       "se": "36"}


class _Usage(Exception):
    """Exit with ``status`` after writing ``text`` to stderr (``out`` to stdout)."""

    def __init__(self, text: str = "", status: int = 2, out: str = ""):
        super().__init__(text)
        self.text = text
        self.status = status
        self.out = out


def _sgr_start(code: str) -> bytes:
    return f"\33[{code}m\33[K".encode()


SGR_END = b"\33[m\33[K"


class Options:
    def __init__(self) -> None:
        self.matcher: str | None = None  # G E F P
        self.patterns: list[str] = []
        self.have_patterns = False
        self.icase = False
        self.word = False
        self.line = False
        self.null_data = False
        self.no_messages = False
        self.invert = False
        self.max_count: int | None = None
        self.byte_offset = False
        self.line_number = False
        self.line_buffered = False
        self.with_filename: bool | None = None
        self.label = "(standard input)"
        self.only = False
        self.quiet = False
        self.binary_files = "binary"
        self.directories = "read"
        self.devices = "read"
        self.deref = False
        self.globs: list[tuple[str, str]] = []  # ("include"|"exclude", glob) in order
        self.exclude_dirs: list[str] = []
        self.list_files: str | None = None  # "l" or "L"
        self.count = False
        self.initial_tab = False
        self.null = False
        self.before = -1
        self.after = -1
        self.group_separator: str | None = "--"
        self.context_given = False
        self.color = False


def _context_arg(value: str) -> int:
    v = value.strip()
    if v.isdigit():
        return int(v)
    raise _Usage(f"grep: {value}: invalid context length argument\n")


def _argmatch(value: str, option: str, choices: tuple[str, ...]) -> str:
    matches = [c for c in choices if c.startswith(value)] if value else []
    if value in choices:
        return value
    if len(matches) == 1:
        return matches[0]
    kind = "ambiguous" if len(matches) > 1 else "invalid"
    lines = "".join(f"  - \u2018{c}\u2019\n" for c in choices)
    raise _Usage(f"grep: {kind} argument \u2018{value}\u2019 for \u2018--{option}\u2019\n"
                 f"Valid arguments are:\n{lines}{USAGE}", status=2 if kind == "ambiguous" else 1)


def parse_args(shell, argv: list[str]) -> tuple[Options, list[str], list[tuple[str, str]]]:
    """Options, operands, and ("-f", file) pattern sources still to read."""
    o = Options()
    prog = argv[0].rsplit("/", 1)[-1]
    if prog == "egrep":
        o.matcher = "E"
    elif prog == "fgrep":
        o.matcher = "F"
    try:
        opts, operands = parse_options(argv[1:], SHORT, LONG)
    except OptionError as e:
        raise _Usage(f"grep: {e}\n{USAGE}") from None
    sources: list[tuple[str, str]] = []
    digits = ""
    last_was_digit = False
    context_both: int | None = None
    for key, val in opts:
        if key.isdigit() and len(key) == 1:
            digits = digits + key if last_was_digit else key
            last_was_digit = True
            context_both = int(digits)
            continue
        last_was_digit = False
        if key == "help":
            raise _Usage(out=HELP, status=0)
        if key == "V":
            raise _Usage(out=VERSION, status=0)
        if key in "GEFP" and len(key) == 1:
            if o.matcher is not None and o.matcher != key:
                raise _Usage("grep: conflicting matchers specified\n")
            o.matcher = key
        elif key == "X":
            m = {"grep": "G", "egrep": "E", "fgrep": "F", "perl": "P"}.get(val or "")
            if m is None:
                raise _Usage(f"grep: invalid matcher {val}\n")
            o.matcher = m
        elif key == "e":
            sources.append(("e", val or ""))
        elif key == "f":
            sources.append(("f", val or ""))
        elif key in ("i", "y"):
            o.icase = True
        elif key == "no-ignore-case":
            o.icase = False
        elif key == "w":
            o.word = True
        elif key == "x":
            o.line = True
        elif key == "z":
            o.null_data = True
        elif key == "s":
            o.no_messages = True
        elif key == "v":
            o.invert = True
        elif key == "m":
            v = (val or "").strip()
            try:
                n = int(v)
            except ValueError:
                raise _Usage("grep: invalid max count\n") from None
            o.max_count = n if n >= 0 else None
        elif key == "b":
            o.byte_offset = True
        elif key == "n":
            o.line_number = True
        elif key == "line-buffered":
            o.line_buffered = True
        elif key == "H":
            o.with_filename = True
        elif key == "h":
            o.with_filename = False
        elif key == "label":
            o.label = val or ""
        elif key == "o":
            o.only = True
        elif key == "q":
            o.quiet = True
        elif key == "binary-files":
            if val not in ("binary", "text", "without-match"):
                raise _Usage("grep: unknown binary-files type\n")
            o.binary_files = val
        elif key == "a":
            o.binary_files = "text"
        elif key == "I":
            o.binary_files = "without-match"
        elif key == "d":
            o.directories = _argmatch(val or "", "directories", ("read", "recurse", "skip"))
        elif key == "D":
            o.devices = _argmatch(val or "", "devices", ("read", "skip"))
        elif key == "r":
            o.directories = "recurse"
            o.deref = False
        elif key == "R":
            o.directories = "recurse"
            o.deref = True
        elif key == "include":
            o.globs.append(("include", val or ""))
        elif key == "exclude":
            o.globs.append(("exclude", val or ""))
        elif key == "exclude-from":
            sources.append(("exclude-from", val or ""))
        elif key == "exclude-dir":
            o.exclude_dirs.append(val or "")
        elif key == "L":
            o.list_files = "L"
        elif key == "l":
            o.list_files = "l"
        elif key == "c":
            o.count = True
        elif key == "T":
            o.initial_tab = True
        elif key == "Z":
            o.null = True
        elif key == "A":
            o.after = _context_arg(val or "")
        elif key == "B":
            o.before = _context_arg(val or "")
        elif key == "C":
            context_both = _context_arg(val or "")
        elif key == "group-separator":
            o.group_separator = val or ""
        elif key == "no-group-separator":
            o.group_separator = None
        elif key == "color":
            if val is None or val in ("always", "yes", "force"):
                o.color = val is not None or False
                if val is None:
                    o.color = False  # --color alone is 'auto'; never a terminal here
            elif val in ("never", "no", "none", "auto", "tty", "if-tty"):
                o.color = False
            else:
                raise _Usage(out=HELP, status=0)  # GNU grep shows help for a bad WHEN
        elif key == "U":
            pass
        elif key == "u":
            sources.append(("warn-u", ""))
    if context_both is not None:
        if o.after < 0:
            o.after = context_both
        if o.before < 0:
            o.before = context_both
    o.context_given = o.after >= 0 or o.before >= 0
    o.after = max(o.after, 0)
    o.before = max(o.before, 0)
    if o.matcher is None:
        o.matcher = "G"
    if not any(k in ("e", "f") for k, _ in sources):
        if not operands:
            raise _Usage(USAGE)
        sources.insert(0, ("e", operands.pop(0)))
    return o, operands, sources


# ---------------------------------------------------------------------------- globs
def _glob_match(glob: str, name: str, command_line: bool) -> bool:
    if fnmatch.fnmatchcase(name, glob):
        return True
    if command_line:
        # any suffix that starts right after a slash
        i = name.find("/")
        while i >= 0:
            rest = name[i + 1:]
            if rest and rest[0] != "/" and fnmatch.fnmatchcase(rest, glob):
                return True
            i = name.find("/", i + 1)
    else:
        base = name.rsplit("/", 1)[-1]
        if base != name and fnmatch.fnmatchcase(base, glob):
            return True
    return False


def _file_included(o: Options, name: str, command_line: bool) -> bool:
    if not o.globs:
        return True
    verdict = None
    for kind, glob in o.globs:
        if _glob_match(glob, name, command_line):
            verdict = kind == "include"
    if verdict is None:
        return o.globs[0][0] != "include"
    return verdict


def _dir_excluded(o: Options, name: str, command_line: bool) -> bool:
    return any(_glob_match(g, name, command_line) for g in o.exclude_dirs)


# ---------------------------------------------------------------------------- matcher
class Matcher:
    """Finds matching lines in a decoded buffer of whole lines."""

    def __init__(self, o: Options, patterns: list[str], budget):
        self.eol = "\0" if o.null_data else "\n"
        self.patterns = patterns
        self.empty = not patterns  # no pattern at all: nothing matches
        self.warnings: list[str] = []
        need_extent = o.only or o.color
        anchor = "line" if o.line else "word" if o.word else None
        self.regex = None
        self.line_raw = None
        self.per_line = False
        self.icase = o.icase
        # plain strings (no regex operator, no -w/-x): lines are found with str.find, which
        # is far faster than a backtracking engine on alternations and common letters
        self.literals = None if self.empty or anchor else _literals(o.matcher, patterns)
        if self.literals is not None and o.icase and not all(x.isascii() for x in self.literals):
            self.literals = None
        if self.literals is not None and o.icase:
            self.literals = sorted({x.lower() for x in self.literals})
        if self.empty:
            return
        if o.matcher == "P":
            if len(patterns) > 1:
                raise RegexError("the -P option only supports a single pattern")
            pat = _wrap_perl(patterns[0], anchor)
            r = compile_perl(pat, icase=o.icase, multiline=True, eol=self.eol, budget=budget)
            # A Perl pattern can reach past a line end (\s, \D, [^x], look-around), so each
            # line is matched alone, without its terminator, as PCRE2 sees it in GNU grep.
            self.per_line = True
        elif o.matcher == "F":
            r = compile_fixed(patterns, icase=o.icase, longest=need_extent, budget=budget,
                              anchor=anchor, multiline=True, eol=self.eol)
        else:
            r = compile_posix(patterns, extended=o.matcher == "E", icase=o.icase,
                              multiline=True, eol=self.eol, dialect="grep",
                              longest=need_extent, budget=budget, anchor=anchor)
            self.warnings = r.warnings
        self.regex = r
        if self.per_line:
            return
        self.raw_search = r.raw.search
        self.guarded_search = r.search
        self.budget = budget
        self.line_limit = r._limit  # noqa: SLF001 - lines longer than this need the guard
        # the pattern followed by the rest of its line: one engine match per matching line
        rest = "[^\\x00]*\\x00?" if self.eol == "\0" else "[^\\n]*\\n?"
        try:
            import regex as _engine  # the engine the layer compiled with, loaded by now

            self.line_raw = _engine.compile(f"(?:{r.python})" + rest, r.raw.flags)
        except Exception:  # noqa: BLE001 - e.g. inline flags a Perl pattern cannot nest
            self.line_raw = None

    def searcher(self, buf: str):
        """The search function to use on ``buf``: guarded only where a call could be slow."""
        r = self.regex
        if self.budget is None or r is None:
            return self.raw_search
        if r.risky or r.unbounded > 1:
            return self._guarded
        if r.unbounded == 1 and max(map(len, buf.split(self.eol))) > self.line_limit:
            return self._guarded
        return self.raw_search

    def _guarded(self, buf, pos, endpos):
        r = self.regex
        return r._timed(r.raw.search, buf, pos, endpos)  # noqa: SLF001

    def _each_line(self, buf: str, end: int):
        """(start, end) of each line of ``buf[:end]`` that matches on its own."""
        search = self.regex.search
        bad = _INVALID.search(buf, 0, end) is not None
        pos = 0
        for line in buf[:end].split(self.eol):
            e = pos + len(line)
            if bad and _INVALID.search(line):
                if any(search(line, a, b) is not None for a, b in _valid_runs(line)):
                    yield pos, e
            elif search(line) is not None:
                yield pos, e
            pos = e + 1

    def lines(self, buf: str, end: int):
        """(start, end) of each line of ``buf[:end]`` holding a match."""
        if self.empty:
            return
        if self.per_line:
            yield from self._each_line(buf, end)
            return
        hay = self._literal_buf(buf)
        if hay is not None:
            yield from self._literal_lines(hay, end)
            return
        search = self.searcher(buf)
        eol = self.eol
        rfind, find = buf.rfind, buf.find
        pos = 0
        while pos <= end:
            m = search(buf, pos, end)
            if m is None:
                return
            ms = m.start()
            i = rfind(eol, pos, ms)
            ls = i + 1 if i >= 0 else pos
            le = find(eol, m.end(), end)
            if le < 0:
                le = end
            yield ls, le
            pos = le + 1

    def _line_call(self, buf: str, method, *args):
        r = self.regex
        if self.searcher(buf) is not self.raw_search:
            return r._timed(method, buf, *args)  # noqa: SLF001
        return method(buf, *args)

    def _literal_buf(self, buf: str) -> str | None:
        """The buffer the literals are looked for in (lowered for -i), or None."""
        if self.literals is None:
            return None
        if not self.icase:
            return buf
        return buf.lower() if buf.isascii() else None

    def _literal_lines(self, hay: str, stop: int):
        """(start, end-of-line) of each line of ``hay[:stop]`` holding one of the literals."""
        eol = self.eol
        lits = self.literals
        if sum(hay.count(x, 0, stop) for x in lits) * 64 > stop:
            # frequent: test every line (split and ``in`` run at C speed)
            pos = 0
            if len(lits) == 1:
                lit = lits[0]
                for line in hay[:stop].split(eol):
                    end = pos + len(line)
                    if lit in line:
                        yield pos, end
                    pos = end + 1
            else:
                for line in hay[:stop].split(eol):
                    end = pos + len(line)
                    for x in lits:
                        if x in line:
                            yield pos, end
                            break
                    pos = end + 1
            return
        find, rfind = hay.find, hay.rfind
        if len(lits) == 1:
            lit = lits[0]
            k = len(lit)
            pos = 0
            while True:
                i = find(lit, pos, stop)
                if i < 0:
                    return
                le = find(eol, i + k, stop)
                if le < 0:
                    le = stop
                yield rfind(eol, 0, i) + 1, le
                pos = le + 1
        starts = set()
        for lit in lits:
            k = len(lit)
            pos = 0
            while True:
                i = find(lit, pos, stop)
                if i < 0:
                    break
                starts.add(rfind(eol, 0, i) + 1)
                le = find(eol, i + k, stop)
                if le < 0:
                    break
                pos = le + 1
        for ls in sorted(starts):
            le = find(eol, ls, stop)
            yield ls, le if le >= 0 else stop

    def _literal_count(self, hay: str) -> int:
        lits = self.literals
        if len(lits) == 1:
            lit = lits[0]
            if hay.count(lit) * 64 > len(hay):
                return sum(1 for line in hay.split(self.eol) if lit in line)
        return sum(1 for _ in self._literal_lines(hay, len(hay)))

    def count(self, buf: str) -> int:
        """How many lines of ``buf`` (whole lines) hold a match."""
        if self.empty:
            return 0
        if self.per_line:
            return sum(1 for _ in self._each_line(buf, len(buf) - 1 if buf.endswith(self.eol)
                                                  else len(buf)))
        hay = self._literal_buf(buf)
        if hay is not None:
            return self._literal_count(hay)
        lr = self.line_raw
        if lr is None:
            return sum(1 for _ in self.lines(buf, len(buf) - 1 if buf.endswith(self.eol)
                                         else len(buf)))
        n = len(self._line_call(buf, lr.findall))
        if not self.regex.nonempty and lr.match(buf, len(buf)) is not None:
            n -= 1  # the empty "line" after the last one
        return n

    def line_ends(self, buf: str):
        """(start, end) of each matching line, the end just past its terminator (if any)."""
        hay = self._literal_buf(buf)
        if hay is not None and not self.empty:
            n = len(buf)
            return ((ls, le + 1 if le < n else le) for ls, le in self._literal_lines(hay, n))
        if self.per_line and not self.empty:
            n = len(buf)
            end = n - 1 if buf.endswith(self.eol) else n
            return ((ls, le + 1 if le < n else le) for ls, le in self._each_line(buf, end))
        lr = self.line_raw
        if lr is None or self.empty:
            return None
        n = len(buf)
        rfind = buf.rfind
        eol = self.eol
        if self.searcher(buf) is not self.raw_search:
            return None  # guarded scans go line by line (each search gets the deadline)
        it = lr.finditer(buf)
        return ((rfind(eol, 0, m.start()) + 1, m.end()) for m in it if m.start() < n)

    def spans(self, buf: str, ls: int, le: int):
        """Non-empty (start, end) of each match in the line ``buf[ls:le]``."""
        r = self.regex
        if r is None:
            return []
        out = []
        if self.per_line:
            line = buf[ls:le]
            for a, b in _valid_runs(line) if _INVALID.search(line) else ((0, len(line)),):
                for m in r.finditer(line, a, b):
                    if m.end() > m.start():
                        out.append((ls + m.start(), ls + m.end()))
            return out
        for m in r.finditer(buf, ls, le):
            if m.end() > m.start():
                out.append((m.start(), m.end()))
        return out


# An invalid UTF-8 byte (a surrogate escape once decoded): PCRE2 in GNU grep matches no
# character there, so -P searches the valid runs of a line between such bytes
_INVALID = re.compile("[\udc80-\udcff]")


def _valid_runs(line: str):
    pos = 0
    for m in _INVALID.finditer(line):
        if m.start() > pos:
            yield pos, m.start()
        pos = m.end()
    if pos < len(line) or not line:
        yield pos, len(line)


_BRE_SPECIAL = set("\\.[]*^$")
_ERE_SPECIAL = set("\\.[]*^$+?(){}|")


def _literals(matcher: str, patterns: list[str]) -> list[str] | None:
    """The patterns as plain strings when none has a regex operator (``a|b`` in ERE and
    ``a\\|b`` in BRE split into strings); None otherwise."""
    out: list[str] = []
    for p in patterns:
        if matcher == "F":
            parts = [p]
        elif matcher == "E":
            parts = p.split("|")
            if any(_ERE_SPECIAL & set(x) for x in parts):
                return None
        elif matcher == "G":
            parts = p.split("\\|")
            if any(_BRE_SPECIAL & set(x) for x in parts):
                return None
        else:
            return None
        if any(not x for x in parts):
            return None  # an empty alternative matches every line
        out.extend(parts)
    if any("\0" in x or "\n" in x for x in out):
        return None
    return out or None


def _wrap_perl(pat: str, anchor: str | None) -> str:
    if anchor == "line":
        return f"^(?:{pat})$"
    if anchor == "word":
        return f"(?<!\\w)(?:{pat})(?!\\w)"
    return pat


# ---------------------------------------------------------------------------- searching
class _FileState:
    """Where one input's search stands."""

    __slots__ = ("prefix", "nsel", "lineno", "byte_base", "pending_after", "last_printed",
                 "lp_pos", "lp_ln", "tail", "done", "out_quiet", "done_on_match", "nul_lines",
                 "enc_err_output", "width")

    def __init__(self, prefix: bytes | None):
        self.prefix = prefix  # file name (coloured) when names are shown
        self.nsel = 0  # selected lines so far
        self.lineno = 1  # number of the chunk's first line
        self.byte_base = 0  # byte offset of the chunk's start
        self.pending_after = 0  # trailing context lines still to print
        self.last_printed = 0  # number of the last line printed (0: none)
        self.lp_pos = 0  # position, in the chunk, of the line after the last printed one
        self.lp_ln = 1  # ... and its number
        self.tail: list = []  # last lines of the previous chunk: (lineno, bytes, offset)
        self.done = False
        self.out_quiet = False
        self.done_on_match = False
        self.nul_lines = -1  # selected lines when a NUL byte was seen (-1: none seen)
        self.enc_err_output = False  # a line was not printed for an encoding error
        self.width = 19  # -T: digits of the file's size (of INTMAX_MAX for a pipe)


class Grep:
    def __init__(self, shell, o: Options, matcher: Matcher):
        self.shell = shell
        self.o = o
        self.m = matcher
        self.eol = matcher.eol
        self.eol_b = encode(matcher.eol)
        self.out = bytearray()
        self.status_error = False
        self.any_selected = False
        self.printed_something = False  # for the group separator, across files
        self.with_filename = False
        self.stop_all = False
        self.color = o.color
        if o.color:
            self.sep_sel = _sgr_start(SGR["se"]) + b":" + SGR_END
            self.sep_ctx = _sgr_start(SGR["se"]) + b"-" + SGR_END
        else:
            self.sep_sel, self.sep_ctx = b":", b"-"
        gs = o.group_separator
        if gs is None or not o.context_given:
            self.group_sep = None
        elif o.color:
            self.group_sep = _sgr_start(SGR["se"]) + encode(gs) + SGR_END + b"\n"
        else:
            self.group_sep = encode(gs) + b"\n"
        self.plain = not (o.context_given or o.invert or o.only or o.line_number
                          or o.byte_offset or o.color or o.initial_tab)
        # matching lines with a file name and/or a line number: the other common case
        self.numbered = not (o.context_given or o.invert or o.only or o.byte_offset
                             or o.color or o.initial_tab or o.max_count is not None)

    async def flush(self) -> None:
        if self.out:
            data = bytes(self.out)
            self.out.clear()
            await self.shell.stdout.write(data)

    async def error(self, msg: str) -> None:
        self.status_error = True
        if not self.o.no_messages:
            await self.flush()
            await self.shell.stderr.write(encode(f"grep: {msg}\n"))

    # -- one input ----------------------------------------------------------
    async def search_stream(self, name: str, reader, size: int | None = None) -> int:
        """Search one input; ``reader(n)`` is an async function returning up to n bytes.

        ``size``: the size of a regular file (for -T's number width).
        """
        o = self.o
        eol_b = self.eol_b
        name_b = encode(name)
        fname = _sgr_start(SGR["fn"]) + name_b + SGR_END if self.color else name_b
        st = _FileState(fname if self.with_filename else None)
        if size is not None:
            st.width = len(str(size))
        nul_check = o.binary_files != "text" and self.eol == "\n"
        out_quiet_0 = o.quiet or o.count or o.list_files is not None
        st.out_quiet = out_quiet_0
        st.done_on_match = o.quiet or o.list_files is not None
        max_count = o.max_count
        carry = b""
        budget = self.shell.budget
        while not st.done:
            budget.check()
            data = await reader(CHUNK)
            if data:
                raw = carry + data if carry else data
                cut = raw.rfind(eol_b)
                if cut < 0:
                    carry = raw
                    budget.check_string(len(carry))
                    continue
                carry = raw[cut + 1:]
                raw = raw[:cut + 1]
            else:
                raw, carry = carry, b""
                if not raw:
                    break
            if nul_check and st.nul_lines < 0 and b"\0" in raw:
                if o.binary_files == "without-match":
                    st.nsel = 0
                    break
                if not o.count:
                    st.done_on_match = st.out_quiet = True
                st.nul_lines = st.nsel
            if st.nul_lines >= 0:
                raw = raw.replace(b"\0", b"\n")
            try:
                buf = raw.decode("utf-8")
                has_err = False
            except UnicodeDecodeError:
                buf = decode(raw)
                has_err = o.binary_files != "text"
            self._chunk(st, buf, raw if len(buf) == len(raw) else None, has_err)
            if max_count is not None and st.nsel >= max_count and st.pending_after <= 0:
                st.done = True
            if len(self.out) >= FLUSH or o.line_buffered:
                await self.flush()
            if not data:
                break
        if st.nsel:
            self.any_selected = True
        if o.count:
            if self.with_filename:
                self.out += fname + (b"\0" if o.null else self.sep_sel)
            self.out += str(st.nsel).encode() + b"\n"
        if (o.list_files == "l" and st.nsel) or (o.list_files == "L" and not st.nsel):
            self.out += fname + (b"\0" if o.null else b"\n")
        if (o.binary_files == "binary" and not out_quiet_0
                and (st.enc_err_output or 0 <= st.nul_lines < st.nsel)):
            await self.flush()
            await self.shell.stderr.write(b"grep: " + name_b + b": binary file matches\n")
        if o.quiet and st.nsel:
            self.stop_all = True
        return st.nsel

    # -- one chunk of whole lines ------------------------------------------------
    def _chunk(self, st: _FileState, buf: str, raw: bytes | None, has_err: bool) -> None:
        o, eol = self.o, self.eol
        end = len(buf) - 1 if buf.endswith(eol) else len(buf)
        nlines = buf.count(eol) + (0 if buf.endswith(eol) else 1)
        try:
            if st.out_quiet and not (o.before or o.after):
                self._count_only(st, buf, end, nlines)
            elif self.plain and not has_err and raw is not None and st.prefix is None:
                self._plain(st, buf, raw, end)
            elif not (self.numbered and not has_err and self._numbered(st, buf, raw)):
                self._general(st, buf, raw, end, has_err)
        finally:
            st.lineno += nlines
            st.byte_base += len(raw) if raw is not None else len(encode(buf))

    def _count_only(self, st: _FileState, buf: str, end: int, nlines: int) -> None:
        o, m = self.o, self.m
        max_count = o.max_count
        room = None if max_count is None else max_count - st.nsel
        if st.done_on_match:
            room = 1 if room is None else min(room, 1)
        if o.invert:
            sel = nlines - m.count(buf)
        elif room is None:
            sel = m.count(buf)
        else:
            sel = 0
            for _ in m.lines(buf, end):
                sel += 1
                if room is not None and sel >= room:
                    break
        if room is not None:
            sel = min(sel, room)
        st.nsel += sel
        if sel and st.done_on_match:
            st.done = True

    def _plain(self, st: _FileState, buf: str, raw: bytes, end: int) -> None:
        """Matching lines of an ASCII chunk, as they are: the common case, kept tight."""
        out, nl = self.out, self.eol_b
        max_count = self.o.max_count
        spans = self.m.line_ends(buf)
        if spans is not None and max_count is None:
            n = 0
            for ls, le in spans:
                out += raw[ls:le]
                n += 1
            if n:
                if not buf.endswith(self.eol) and not out.endswith(nl):
                    out += nl
                st.nsel += n
                self.printed_something = True
            return
        for ls, le in self.m.lines(buf, end):
            out += raw[ls:le]
            out += nl
            st.nsel += 1
            if max_count is not None and st.nsel >= max_count:
                st.done = True
                break
        if st.nsel:
            self.printed_something = True

    def _numbered(self, st: _FileState, buf: str, raw: bytes | None) -> bool:
        """``file:line:text`` for each matching line; False when the scan must go line by
        line (the deadline guard)."""
        if st.out_quiet:
            return False
        spans = self.m.line_ends(buf)
        if spans is None:
            return False
        o = self.o
        out, nl = self.out, self.eol_b
        eol = self.eol
        head = (st.prefix + (b"\0" if o.null else b":")) if st.prefix is not None else b""
        count = buf.count
        numbers = o.line_number
        lineno, pos = st.lineno, 0
        n = 0
        last_end = 0
        for ls, le in spans:
            out += head
            if numbers:
                lineno += count(eol, pos, ls)
                pos = ls
                out += b"%d:" % lineno
            out += raw[ls:le] if raw is not None else encode(buf[ls:le])
            n += 1
            last_end = le
        if n:
            if last_end == len(buf) and not buf.endswith(eol):
                out += nl
            st.nsel += n
            self.printed_something = True
        return True

    def _selected(self, buf: str, end: int):
        """(start, end) of each selected line: the matching ones, or with -v the others."""
        lines = self.m.lines(buf, end)
        if not self.o.invert:
            yield from lines
            return
        eol, find, n = self.eol, buf.find, len(buf)
        pos = 0
        for ms, me in lines:
            while pos < ms:
                le = find(eol, pos, ms)
                yield pos, le
                pos = le + 1
            pos = me + 1
        while pos <= end and pos < n:
            le = find(eol, pos, end)
            if le < 0:
                le = end
            yield pos, le
            pos = le + 1

    def _general(self, st: _FileState, buf: str, raw: bytes | None, end: int,
                 has_err: bool) -> None:
        o, eol = self.o, self.eol
        before, after = o.before, o.after
        max_count = o.max_count
        rfind, find, count = buf.rfind, buf.find, buf.count
        chunk_ln = st.lineno
        st.lp_pos, st.lp_ln = 0, chunk_ln
        cur_pos, cur_ln = 0, chunk_ln
        for ls, le in self._selected(buf, end):
            if (max_count is not None and st.nsel >= max_count) or st.done:
                break
            lineno = cur_ln + count(eol, cur_pos, ls)
            cur_pos, cur_ln = ls, lineno
            # trailing context of the previous selected line
            if st.pending_after > 0:
                p, ln = st.lp_pos, st.lp_ln
                while st.pending_after > 0 and ln < lineno:
                    e = find(eol, p, ls)
                    self._emit(st, buf, raw, p, e, ln, False, has_err)
                    st.pending_after -= 1
                    p, ln = e + 1, ln + 1
            # leading context
            ctx: list = []
            if before and st.last_printed < lineno - 1:
                first = max(st.last_printed + 1, lineno - before, 1)
                p, ln = ls, lineno
                while ln - 1 >= first and ln - 1 >= chunk_ln:
                    s = rfind(eol, 0, p - 1) + 1
                    ctx.append((s, p - 1, ln - 1))
                    p, ln = s, ln - 1
                ctx.reverse()
                older = [t for t in st.tail if first <= t[0] < ln]
                self._separator(st, older[0][0] if older else ctx[0][2] if ctx else lineno)
                for lno, text, off in older:
                    self._emit_saved(st, text, lno, off)
                for s, e, lno in ctx:
                    self._emit(st, buf, raw, s, e, lno, False, has_err)
            else:
                self._separator(st, lineno)
            st.nsel += 1
            self._emit(st, buf, raw, ls, le, lineno, True, has_err)
            st.pending_after = after
            if st.done_on_match:
                st.done = True
                return
        # trailing context up to the end of the chunk
        if st.pending_after > 0 and not st.done:
            p, ln = st.lp_pos, st.lp_ln
            while st.pending_after > 0 and p <= end and p < len(buf):
                e = find(eol, p, end)
                if e < 0:
                    e = end
                self._emit(st, buf, raw, p, e, ln, False, has_err)
                st.pending_after -= 1
                p, ln = e + 1, ln + 1
        if before:
            self._save_tail(st, buf, raw, end, chunk_ln)

    def _save_tail(self, st: _FileState, buf: str, raw: bytes | None, end: int,
                   chunk_ln: int) -> None:
        """Keep the chunk's last lines for the next chunk's leading context."""
        before, eol = self.o.before, self.eol
        items = []
        nlines = buf.count(eol) + (0 if buf.endswith(eol) else 1)
        ln = chunk_ln + nlines - 1
        e = end
        while len(items) < before and ln >= chunk_ln:
            s = buf.rfind(eol, 0, e) + 1 if e > 0 else 0
            items.append((ln, self._bytes(buf, raw, s, e),
                          st.byte_base + self._byte_pos(buf, raw, s)))
            ln -= 1
            if s == 0:
                break
            e = s - 1
        items.reverse()
        st.tail = (st.tail + items)[-before:]

    def _separator(self, st: _FileState, first_line: int) -> None:
        if self.group_sep is None or st.out_quiet:
            return
        if self.printed_something and (st.last_printed == 0 or first_line > st.last_printed + 1):
            self.out += self.group_sep

    @staticmethod
    def _bytes(buf: str, raw: bytes | None, s: int, e: int) -> bytes:
        return raw[s:e] if raw is not None else encode(buf[s:e])

    @staticmethod
    def _byte_pos(buf: str, raw: bytes | None, i: int) -> int:
        return i if raw is not None else len(encode(buf[:i]))

    def _printed(self, st: _FileState, lineno: int, e: int) -> None:
        st.last_printed = lineno
        st.lp_pos, st.lp_ln = e + 1, lineno + 1

    def _binary_line(self, st: _FileState) -> None:
        st.enc_err_output = True  # the line is not printed; grep says so at the end

    def _emit(self, st: _FileState, buf: str, raw: bytes | None, s: int, e: int, lineno: int,
              selected: bool, has_err: bool) -> None:
        o = self.o
        if st.out_quiet:
            self._printed(st, lineno, e)
            return
        if o.only:
            if selected and not o.invert:
                for ms, me in self.m.spans(buf, s, e):
                    if has_err and _has_surrogates(buf, ms, me):
                        self._binary_line(st)
                        continue
                    self._prefix(st, lineno, st.byte_base + self._byte_pos(buf, raw, ms), True)
                    text = self._bytes(buf, raw, ms, me)
                    if self.color:
                        text = _sgr_start(SGR["ms"]) + text + SGR_END
                    self.out += text + self.eol_b
                    self.printed_something = True
            self._printed(st, lineno, e)
            return
        if has_err and _has_surrogates(buf, s, e):
            self._binary_line(st)
            self._printed(st, lineno, e)
            return
        self._prefix(st, lineno, st.byte_base + self._byte_pos(buf, raw, s), selected)
        if self.color and selected != o.invert:
            sgr = _sgr_start(SGR["ms" if selected else "mc"])
            pos = s
            for ms, me in self.m.spans(buf, s, e):
                self.out += self._bytes(buf, raw, pos, ms) + sgr
                self.out += self._bytes(buf, raw, ms, me) + SGR_END
                pos = me
            self.out += self._bytes(buf, raw, pos, e)
        else:
            self.out += self._bytes(buf, raw, s, e)
        self.out += self.eol_b
        self.printed_something = True
        self._printed(st, lineno, e)

    def _emit_saved(self, st: _FileState, text: bytes, lineno: int, offset: int) -> None:
        """A line kept from the previous chunk (leading context)."""
        if st.out_quiet:
            return
        if self.o.binary_files != "text":
            try:
                text.decode("utf-8")
            except UnicodeDecodeError:
                self._binary_line(st)
                return
        self._prefix(st, lineno, offset, False)
        self.out += text + self.eol_b
        self.printed_something = True
        st.last_printed = lineno

    def _prefix(self, st: _FileState, lineno: int, offset: int, selected: bool) -> None:
        o, out = self.o, self.out
        sep = self.sep_sel if selected else self.sep_ctx
        if st.prefix is not None:
            out += st.prefix
            out += b"\0" if o.null else sep
        if o.line_number:
            num = str(lineno).encode()
            if o.initial_tab:
                num = num.rjust(st.width)
            out += (_sgr_start(SGR["ln"]) + num + SGR_END) if self.color else num
            out += sep
        if o.byte_offset:
            num = str(offset).encode()
            if o.initial_tab:
                num = num.rjust(st.width)
            out += (_sgr_start(SGR["bn"]) + num + SGR_END) if self.color else num
            out += sep
        if o.initial_tab and (st.prefix is not None or o.line_number or o.byte_offset):
            out += b"\t"


def _has_surrogates(buf: str, s: int, e: int) -> bool:
    seg = buf[s:e]
    return not seg.isascii() and any("\udc80" <= c <= "\udcff" for c in seg)


# ---------------------------------------------------------------------------- main
async def _read_patterns(shell, sources, o: Options) -> list[str] | None:
    patterns: list[str] = []
    for kind, val in sources:
        if kind == "e":
            patterns.extend(val.split("\n"))
        elif kind == "f":
            try:
                if val == "-":
                    data = await shell.stdin.read()
                else:
                    data = shell.fs.read_bytes(val)
            except FileSystemError as e:
                await shell.error("grep", f"{val}: {e.strerror}")
                return None
            text = decode(data)
            if text.endswith("\n"):
                text = text[:-1]
            if text or data:
                patterns.extend(text.split("\n"))
        elif kind == "exclude-from":
            try:
                data = shell.fs.read_bytes(val)
            except FileSystemError as e:
                await shell.error("grep", f"{val}: {e.strerror}")
                return None
            for line in decode(data).splitlines():
                if line:
                    o.globs.append(("exclude", line))
        elif kind == "warn-u":
            await shell.error("grep", "warning: --unix-byte-offsets (-u) is obsolete")
    return patterns


@on_write_error(2)
async def main(shell, argv: list[str]) -> int:
    return await _main(shell, argv)


async def _main(shell, argv: list[str]) -> int:
    try:
        o, operands, sources = parse_args(shell, argv)
    except _Usage as u:
        if u.out:
            await shell.stdout.write(encode(u.out))
        if u.text:
            await shell.stderr.write(encode(u.text))
        return u.status
    patterns = await _read_patterns(shell, sources, o)
    if patterns is None:
        return 2
    if o.max_count == 0:
        return 1
    try:
        matcher = Matcher(o, patterns, shell.budget)
    except RegexError as e:
        await shell.error("grep", str(e))
        return 2
    for w in matcher.warnings:
        await shell.error("grep", f"warning: {w}")
    g = Grep(shell, o, matcher)
    recursive = o.directories == "recurse"
    implicit = not operands
    if implicit:
        operands = ["."] if recursive else ["-"]
    if o.with_filename is not None:
        g.with_filename = o.with_filename
        fixed_names = True
    else:
        g.with_filename = len(operands) > 1
        fixed_names = len(operands) > 1
    try:
        for arg in operands:
            if g.stop_all:
                break
            await _search_operand(g, arg, recursive, implicit, fixed_names)
        await g.flush()
    finally:
        g.out.clear()
    if o.quiet and g.any_selected:
        return 0
    if g.status_error:
        return 2
    return 0 if g.any_selected else 1


async def _search_operand(g: Grep, arg: str, recursive: bool, implicit: bool,
                          fixed_names: bool) -> None:
    shell, o = g.shell, g.o
    if arg == "-":
        stdin = shell.stdin
        await g.search_stream(o.label, stdin.read)
        return
    if not _file_included(o, arg, True) and not _is_dir(shell, arg):
        return
    try:
        st = shell.fs.stat(arg)
    except FileSystemError as e:
        await g.error(f"{arg}: {e.strerror}")
        return
    if _stat.S_ISDIR(st.st_mode):
        if o.directories == "skip":
            return
        if not recursive:
            await g.error(f"{arg}: Is a directory")
            return
        if not implicit and _dir_excluded(o, arg.rstrip("/") or "/", True):
            return
        if not fixed_names:
            g.with_filename = True
        await _walk(g, arg, implicit)
        return
    if not _stat.S_ISREG(st.st_mode) and o.devices == "skip":
        return
    await _search_file(g, arg, arg)


def _is_dir(shell, path: str) -> bool:
    try:
        return shell.fs.is_dir(path)
    except FileSystemError:
        return False


async def _search_file(g: Grep, path: str, name: str) -> None:
    shell = g.shell
    try:
        f = shell.fs.open(path, "rb")
    except FileSystemError as e:
        if e.errno == errno.EISDIR:
            await g.error(f"{name}: Is a directory")
        else:
            await g.error(f"{name}: {e.strerror}")
        return
    failed: list[OSError] = []

    async def reader(n: int) -> bytes:
        if failed:
            return b""
        try:
            return f.read(n)
        except OSError as e:
            failed.append(e)
            return b""

    size = None
    if g.o.initial_tab:
        try:
            fst = os.fstat(f.fileno())
            if _stat.S_ISREG(fst.st_mode):
                size = fst.st_size
        except (OSError, ValueError):
            pass
    try:
        await g.search_stream(name, reader, size)
    finally:
        f.close()
    if failed:
        code = failed[0].errno or errno.EIO
        await g.error(f"{name}: {FileSystemError(code).strerror}")


async def _walk(g: Grep, top: str, implicit: bool) -> None:
    """Search a directory tree in directory order (as GNU grep's fts does, unsorted)."""
    shell = g.shell
    base = "" if implicit and top == "." else (top.rstrip("/") or "/")
    try:
        st = shell.fs.stat(top)
        ancestors = {(st.st_dev, st.st_ino)}
    except FileSystemError:
        ancestors = set()
    await _walk_dir(g, top, base, ancestors)


def _join(base: str, name: str) -> str:
    if not base:
        return name
    return base + name if base.endswith("/") else base + "/" + name


async def _walk_dir(g: Grep, path: str, shown: str, ancestors: set) -> None:
    shell, o = g.shell, g.o
    try:
        entries = shell.fs.scandir(path)
    except FileSystemError as e:
        await g.error(f"{shown or '.'}: {e.strerror}")
        return
    shell.budget.check()
    for ent in entries:
        if g.stop_all:
            return
        child = _join(path, ent.name)
        child_shown = _join(shown, ent.name)
        kind = ent.type
        st = None
        if kind == "l":
            if not o.deref:
                continue  # grep -r skips symlinks met in the tree
            try:
                st = shell.fs.stat(child)
            except FileSystemError as e:
                await g.error(f"{child_shown}: {e.strerror}")
                continue
            kind = "d" if _stat.S_ISDIR(st.st_mode) else "f" if _stat.S_ISREG(st.st_mode) else "o"
        if kind == "d":
            if _dir_excluded(o, ent.name, False):
                continue
            if st is None:
                try:
                    st = shell.fs.stat(child)
                except FileSystemError as e:
                    await g.error(f"{child_shown}: {e.strerror}")
                    continue
            key = (st.st_dev, st.st_ino)
            if key in ancestors:
                await g.error(f"{child_shown}: warning: recursive directory loop")
                continue
            ancestors.add(key)
            await _walk_dir(g, child, child_shown, ancestors)
            ancestors.discard(key)
            continue
        if kind == "o":
            continue  # devices, FIFOs and sockets met in the tree are skipped
        if not _file_included(o, ent.name, False):
            continue
        await _search_file(g, child, child_shown)
