"""rg: ripgrep's interface (as when stdout is not a terminal) on Python's regex engine.

* Rust regex syntax is close to Python's; POSIX classes (``[[:alpha:]]``)
  and ``\\z`` are translated, look-around and back-references are refused as
  ripgrep refuses them.
* The tree is walked with the shell's safe walker (held directory fds;
  symlinks only with ``-L``, then each re-checked by the core); every file is
  read through door B with the verified open of ``_common``.
* Ignore files: ``.gitignore`` (and ``.git/info/exclude``) inside a git
  repository, ``.ignore`` and ``.rgignore`` always, with ``pathspec``;
  nothing of the host (no global excludes file, no ``~/.config``).
* Output order is deterministic: paths in the order given, each directory in
  name order, depth first (what ``rg --sort path`` prints). ripgrep itself is
  multi-threaded and its order varies.
* Binary files (a NUL byte) are skipped when found by the walk; named on the
  command line they are searched and reported as ripgrep does
  (``binary file matches (found "\\0" byte around offset N)``).
"""

from __future__ import annotations

import json
import os
import posixpath
import re
import time

from pysh.ports import _common
from pysh.ports._common import Ignorer, Out, ignored
from pysh.shellkit import FileSystemError, Shell, decode, encode
from pysh.shellkit.options import OptionError, parse_options
from pysh.shellkit.regex import Regex, RegexError, compile_perl, compile_python

USAGE = "USAGE:\n    \n" + """    rg [OPTIONS] PATTERN [PATH ...]
    rg [OPTIONS] -e PATTERN ... [PATH ...]
    rg [OPTIONS] -f PATTERNFILE ... [PATH ...]
    rg [OPTIONS] --files [PATH ...]
    rg [OPTIONS] --type-list
    command | rg [OPTIONS] PATTERN
    rg [OPTIONS] --help
    rg [OPTIONS] --version

For more information try --help
"""

HELP = """ripgrep 13.0.0 (pysh port)

ripgrep (rg) recursively searches the current directory for a regex pattern.
By default, ripgrep will respect gitignore rules and automatically skip hidden
files/directories and binary files.

USAGE:
    rg [OPTIONS] PATTERN [PATH ...]
    rg [OPTIONS] -e PATTERN ... [PATH ...]
    rg [OPTIONS] -f PATTERNFILE ... [PATH ...]
    rg [OPTIONS] --files [PATH ...]
    rg [OPTIONS] --type-list
    command | rg [OPTIONS] PATTERN

OPTIONS:
    -A, --after-context NUM      Show NUM lines after each match.
    -B, --before-context NUM     Show NUM lines before each match.
    -C, --context NUM            Show NUM lines before and after each match.
    -c, --count                  Only show the count of matching lines per file.
        --color WHEN             Only 'never' is supported.
    -e, --regexp PATTERN         A pattern to search for (repeatable).
    -F, --fixed-strings          Treat the pattern as a literal string.
    -f, --file PATTERNFILE       Search for patterns from the given file.
        --files                  Print each file that would be searched.
    -l, --files-with-matches     Print the paths with at least one match.
        --files-without-match    Print the paths with zero matches.
    -L, --follow                 Follow symbolic links.
    -g, --glob GLOB              Include or (with !) exclude files and directories.
        --heading / --no-heading Group matches under each file name.
    -., --hidden                 Search hidden files and directories.
    -i, --ignore-case            Case insensitive search.
    -S, --smart-case             Insensitive unless the pattern has an uppercase letter.
    -s, --case-sensitive         Case sensitive search (default).
        --json                   JSON Lines output.
    -m, --max-count NUM          Limit the number of matching lines per file.
    -n, --line-number            Show line numbers.
    -N, --no-line-number         Suppress line numbers.
        --no-ignore              Don't respect ignore files.
    -0, --null                   Print a NUL byte after file paths.
    -o, --only-matching          Print only the matched parts of a line.
    -r, --replace REPLACEMENT    Replace every match with REPLACEMENT ($1, ${name}).
    -t, --type TYPE              Only search files matching TYPE.
    -T, --type-not TYPE          Do not search files matching TYPE.
        --type-list              Show all supported file types.
    -u, --unrestricted           -u: --no-ignore, -uu: +--hidden, -uuu: +--binary.
    -v, --invert-match           Invert matching.
    -w, --word-regexp            Only show matches surrounded by word boundaries.
    -x, --line-regexp            Only show matches surrounded by line boundaries.
    -H, --with-filename / -I, --no-filename
    -q, --quiet                  Print nothing; exit 0 on the first match.
    -a, --text                   Search binary files as if they were text.
"""

SHORT = "nNiSsFwxvclo0A:B:C:m:g:t:T:Le:f:r:uj:HIhVqa.M:d:UPzp"
LONG = {
    "line-number": "n", "no-line-number": "N", "ignore-case": "i", "smart-case": "S",
    "case-sensitive": "s", "fixed-strings": "F", "word-regexp": "w", "line-regexp": "x",
    "invert-match": "v", "count": "c", "files-with-matches": "l", "only-matching": "o",
    "files-without-match": "files-without-match", "after-context=": "A", "before-context=": "B",
    "context=": "C", "max-count=": "m", "glob=": "g", "iglob=": "iglob", "type=": "t",
    "type-not=": "T", "type-list": "type-list", "files": "files", "hidden": ".",
    "no-ignore": "no-ignore", "no-ignore-vcs": "no-ignore-vcs", "no-ignore-dot": "no-ignore-dot",
    "no-ignore-parent": "no-ignore-parent", "follow": "L", "regexp=": "e", "file=": "f",
    "json": "json", "null": "0", "replace=": "r", "heading": "heading",
    "no-heading": "no-heading", "color=": "color", "colour=": "color", "threads=": "j",
    "with-filename": "H", "no-filename": "I", "help": "h", "version": "V", "quiet": "q",
    "text": "a", "binary": "binary", "sort=": "sort", "sort-files": "sort-files",
    "no-messages": "no-messages", "unrestricted": "u", "max-depth=": "d", "maxdepth=": "d",
    "no-config": "no-config", "count-matches": "count-matches", "max-columns=": "M",
    "no-require-git": "no-require-git", "vimgrep": "vimgrep", "column": "column",
    "multiline": "U", "no-multiline": "no-multiline", "multiline-dotall": "multiline-dotall",
    "no-multiline-dotall": "no-multiline-dotall", "pcre2": "P", "no-pcre2": "no-pcre2",
    "engine=": "engine", "type-add=": "type-add", "type-clear=": "type-clear",
    "passthru": "passthru", "passthrough": "passthru", "trim": "trim", "no-trim": "no-trim",
    "search-zip": "z", "no-search-zip": "no-search-zip", "stats": "stats", "no-stats": "no-stats",
    "context-separator=": "context-separator", "no-context-separator": "no-context-separator",
    "sortr=": "sortr", "pretty": "p", "max-columns-preview": "max-columns-preview",
    "no-max-columns-preview": "no-max-columns-preview", "crlf": "crlf", "no-crlf": "no-crlf",
    "line-buffered": "line-buffered", "block-buffered": "block-buffered",
    "no-ignore-messages": "no-ignore-messages",
}

_POSIX = {
    "alnum": "0-9A-Za-z", "alpha": "A-Za-z", "ascii": "\\x00-\\x7F", "blank": "\\t ",
    "cntrl": "\\x00-\\x1F\\x7F", "digit": "0-9", "graph": "!-~", "lower": "a-z",
    "print": " -~", "punct": "!-/:-@\\[-`{-~", "space": "\\t\\n\\v\\f\\r ", "upper": "A-Z",
    "word": "0-9A-Za-z_", "xdigit": "0-9A-Fa-f",
}


# ripgrep searches bytes: an invalid UTF-8 byte (a surrogate escape once decoded) is matched
# by no class, not even ``.`` or a negated one
_BAD = "\udc80-\udcff"


class RgError(Exception):
    pass


PCRE2_HINT = ("\n\nConsider enabling PCRE2 with the --pcre2 flag, which can handle "
              "backreferences\nand look-around.")
NEWLINE_ERROR = ("the literal '\"\\n\"' is not allowed in a regex\n\nConsider enabling multiline "
                 "mode with the --multiline flag (or -U for short).\nWhen multiline mode is "
                 "enabled, new line characters can be matched.")


def _unsupported(pat: str, at: int, width: int, what: str) -> RgError:
    return RgError(f"regex parse error:\n    {pat}\n    {' ' * at}{'^' * width}\nerror: {what}"
                   + PCRE2_HINT)


def translate(pat: str, dotall: bool = False, multiline: bool = True) -> str:
    """Rust regex syntax to Python's (the common subset plus POSIX classes)."""
    out = []
    i, n = 0, len(pat)
    in_class = False
    while i < n:
        c = pat[i]
        if c == "\\" and i + 1 < n:
            d = pat[i + 1]
            if d == "z" and not in_class:
                out.append(r"\Z")
            elif d in "DWS" and not in_class:
                out.append(f"[^\\{d.lower()}{_BAD}]")  # an invalid byte matches nothing
            elif d.isdigit() and d != "0" and not in_class:
                raise _unsupported(pat, i, 2, "backreferences are not supported")
            elif d == "n" and not multiline:
                raise RgError(NEWLINE_ERROR)
            elif d in "pP":
                raise RgError(f"regex parse error:\n    {pat}\nerror: Unicode property classes "
                              "are not supported by pysh's rg")
            else:
                out.append(pat[i:i + 2])
            i += 2
            continue
        if in_class:
            if c == "[" and pat.startswith("[:", i):
                j = pat.find(":]", i + 2)
                name = pat[i + 2:j] if j > 0 else ""
                neg = name.startswith("^")
                if neg:
                    name = name[1:]
                if j > 0 and name in _POSIX and not neg:
                    out.append(_POSIX[name])
                    i = j + 2
                    continue
            if c == "[":
                out.append("\\[")
                i += 1
                continue
            if c == "]":
                in_class = False
            out.append(c)
            i += 1
            continue
        if c == "[":
            in_class = True
            out.append(c)
            i += 1
            if i < n and pat[i] == "^":
                out.append("^" + _BAD)
                i += 1
            if i < n and pat[i] == "]":
                out.append("\\]")
                i += 1
            continue
        if c == "(" and pat.startswith(("(?=", "(?!", "(?<=", "(?<!"), i):
            width = 4 if pat.startswith("(?<", i) else 3
            raise _unsupported(pat, i, width, "look-around, including look-ahead and "
                               "look-behind, is not supported")
        if c == ".":
            out.append("[^" + ("" if dotall else "\n") + _BAD + "]")
            i += 1
            continue
        if c == "(" and pat.startswith("(?P<", i):
            out.append("(?P<")
            i += 4
            continue
        if c == "(" and pat.startswith("(?<", i):
            out.append("(?P<")
            i += 3
            continue
        out.append(c)
        i += 1
    return "".join(out)


def _expand_template(tmpl: str):
    """ripgrep's replacement syntax ($1, ${1}, $name, ${name}, $$) as a match -> str function."""
    parts: list = []
    i, n = 0, len(tmpl)
    lit = []
    while i < n:
        c = tmpl[i]
        if c == "$" and i + 1 < n:
            if tmpl[i + 1] == "$":
                lit.append("$")
                i += 2
                continue
            if tmpl[i + 1] == "{":
                j = tmpl.find("}", i + 2)
                if j > 0:
                    name = tmpl[i + 2:j]
                    parts.append("".join(lit))
                    lit = []
                    parts.append((name,))
                    i = j + 1
                    continue
            m = re.match(r"[A-Za-z0-9_]+", tmpl[i + 1:])
            if m:
                parts.append("".join(lit))
                lit = []
                parts.append((m.group(0),))
                i += 1 + m.end()
                continue
        lit.append(c)
        i += 1
    parts.append("".join(lit))

    def expand(mo: re.Match) -> str:
        res = []
        for p in parts:
            if isinstance(p, str):
                res.append(p)
                continue
            name = p[0]
            try:
                g = mo.group(int(name)) if name.isdigit() else mo.group(name)
            except (IndexError, error_types):
                g = None
            res.append(g or "")
        return "".join(res)
    return expand


error_types = (IndexError, re.error)


def _types_table(added=()):
    """ripgrep's file types, with --type-add NAME:GLOB[,GLOB] / NAME:include:TYPE[,TYPE] and
    --type-clear NAME applied in order."""
    from pysh.ports._rgtypes import TYPES

    table = {k: list(v) for k, v in TYPES}
    for spec in added:
        if spec.startswith("\0clear:"):
            table.pop(spec[7:], None)
            continue
        name, sep, rest = spec.partition(":")
        if not sep or not name or not rest:
            raise RgError(f"error: invalid definition (format is type:glob, e.g., "
                          f"html:*.html): {spec}")
        if rest.startswith("include:"):
            for other in rest[8:].split(","):
                if other not in table:
                    raise RgError(f"error: invalid definition: unrecognized file type: {other}")
                table.setdefault(name, []).extend(table[other])
        else:
            table.setdefault(name, []).extend(g for g in rest.split(",") if g)
    return {k: tuple(sorted(set(v))) for k, v in table.items()}


class Options:
    pass


def _parse(argv: list[str]) -> Options:
    try:
        opts, operands = parse_options(argv[1:], SHORT, LONG)
    except OptionError as e:
        msg = str(e)
        m = re.search(r"-- '(.)'", msg)
        if m:
            arg = "-" + m.group(1)
        else:
            m = re.search(r"'(--[^'=]*)", msg)
            arg = m.group(1) if m else msg
        if "requires an argument" in msg:
            raise RgError(f"error: The argument '{arg}' requires a value but none was supplied"
                          f"\n\n{USAGE}") from None
        raise RgError(f"error: Found argument '{arg}' which wasn't expected, or isn't valid in "
                      f"this context\n\n{USAGE}") from None
    o = Options()
    o.line_number = None
    o.case = "sensitive"
    o.fixed = o.word = o.line = o.invert = o.count = o.count_matches = False
    o.files_with = o.files_without = o.only = o.json = o.null = o.quiet = o.text = False
    o.after = o.before = 0
    o.max_count = None
    o.globs: list[tuple[str, bool]] = []
    o.types: list[str] = []
    o.types_not: list[str] = []
    o.type_list = o.files = o.hidden = o.follow = False
    o.no_ignore = o.no_vcs = o.no_dot = o.no_parent = False
    o.patterns: list[str] = []
    o.pattern_files: list[str] = []
    o.replace = None
    o.heading = False
    o.with_filename = None
    o.help = o.version = False
    o.binary = False
    o.unrestricted = 0
    o.no_messages = False
    o.max_depth = None
    o.require_git = True
    o.column = o.vimgrep = False
    o.multiline = o.dotall = o.pcre2 = o.passthru = o.trim = o.search_zip = o.stats = False
    o.context_sep: str | None = "--"
    o.sort: tuple[str, bool] | None = None
    o.type_add: list[str] = []
    o.max_columns = None
    o.max_columns_preview = False
    o.crlf = False
    for key, val in opts:
        if key == "n":
            o.line_number = True
        elif key == "N":
            o.line_number = False
        elif key == "i":
            o.case = "insensitive"
        elif key == "S":
            o.case = "smart"
        elif key == "s":
            o.case = "sensitive"
        elif key == "F":
            o.fixed = True
        elif key == "w":
            o.word = True
        elif key == "x":
            o.line = True
        elif key == "v":
            o.invert = True
        elif key == "c":
            o.count = True
        elif key == "count-matches":
            o.count = o.count_matches = True
        elif key == "l":
            o.files_with = True
        elif key == "files-without-match":
            o.files_without = True
        elif key == "o":
            o.only = True
        elif key in ("A", "B", "C", "m", "d"):
            try:
                num = int(val)
                if num < 0:
                    raise ValueError
            except ValueError:
                raise RgError(f"error: Invalid value for '--{_long_of(key)} <NUM>': "
                              "invalid digit found in string") from None
            if key == "A":
                o.after = num
            elif key == "B":
                o.before = num
            elif key == "C":
                o.after = o.before = num
            elif key == "m":
                o.max_count = num
            else:
                o.max_depth = num
        elif key == "g":
            o.globs.append((val, False))
        elif key == "iglob":
            o.globs.append((val, True))
        elif key == "t":
            o.types.append(val)
        elif key == "T":
            o.types_not.append(val)
        elif key == "type-list":
            o.type_list = True
        elif key == "files":
            o.files = True
        elif key == ".":
            o.hidden = True
        elif key == "no-ignore":
            o.no_ignore = True
        elif key == "no-ignore-vcs":
            o.no_vcs = True
        elif key == "no-ignore-dot":
            o.no_dot = True
        elif key == "no-ignore-parent":
            o.no_parent = True
        elif key == "no-require-git":
            o.require_git = False
        elif key == "L":
            o.follow = True
        elif key == "e":
            o.patterns.append(val)
        elif key == "f":
            o.pattern_files.append(val)
        elif key == "json":
            o.json = True
        elif key == "0":
            o.null = True
        elif key == "r":
            o.replace = val
        elif key == "heading":
            o.heading = True
        elif key == "no-heading":
            o.heading = False
        elif key == "color":
            if val not in ("never", "auto", "always", "ansi"):
                raise RgError(f"error: '{val}' isn't a valid value for '--color <WHEN>'\n"
                              "\t[possible values: never, auto, always, ansi]\n\n" + USAGE)
        elif key == "H":
            o.with_filename = True
        elif key == "I":
            o.with_filename = False
        elif key == "h":
            o.help = True
        elif key == "V":
            o.version = True
        elif key == "q":
            o.quiet = True
        elif key == "a":
            o.text = True
        elif key == "binary":
            o.binary = True
        elif key == "u":
            o.unrestricted += 1
        elif key == "no-messages":
            o.no_messages = True
        elif key == "column":
            o.column = True
            o.line_number = True
        elif key == "vimgrep":
            o.vimgrep = o.column = True
            o.line_number = True
        elif key == "U":
            o.multiline = True
        elif key == "no-multiline":
            o.multiline = False
        elif key == "multiline-dotall":
            o.dotall = True
        elif key == "no-multiline-dotall":
            o.dotall = False
        elif key == "P":
            o.pcre2 = True
        elif key == "no-pcre2":
            o.pcre2 = False
        elif key == "engine":
            if val not in ("default", "pcre2", "auto"):
                raise RgError(f"error: '{val}' isn't a valid value for '--engine <ENGINE>'\n"
                              "\t[possible values: default, pcre2, auto]\n\n" + USAGE)
            o.pcre2 = val == "pcre2"
        elif key in ("type-add", "type-clear"):
            o.type_add.append(val if key == "type-add" else "\0clear:" + val)
        elif key == "passthru":
            o.passthru = True
        elif key == "trim":
            o.trim = True
        elif key == "no-trim":
            o.trim = False
        elif key == "z":
            o.search_zip = True
        elif key == "no-search-zip":
            o.search_zip = False
        elif key == "stats":
            o.stats = True
        elif key == "no-stats":
            o.stats = False
        elif key == "context-separator":
            o.context_sep = _unescape_rg(val)
        elif key == "no-context-separator":
            o.context_sep = None
        elif key in ("sort", "sortr"):
            if val not in ("path", "modified", "accessed", "created", "none"):
                raise RgError(f"error: '{val}' isn't a valid value for '--{key} <SORTBY>'\n"
                              "\t[possible values: path, modified, accessed, created, none]\n\n"
                              + USAGE)
            o.sort = (val, key == "sortr")
        elif key == "p":
            # --pretty: headings and line numbers; no colour (pysh's rg writes none)
            o.heading = True
            o.line_number = True if o.line_number is None else o.line_number
        elif key == "M":
            try:
                o.max_columns = int(val)
            except ValueError:
                raise RgError("error: Invalid value for '--max-columns <NUM>': invalid digit "
                              "found in string") from None
            if o.max_columns == 0:
                o.max_columns = None
        elif key == "max-columns-preview":
            o.max_columns_preview = True
        elif key == "no-max-columns-preview":
            o.max_columns_preview = False
        elif key == "crlf":
            o.crlf = True
        elif key == "no-crlf":
            o.crlf = False
        # -j, --sort-files, --no-config: accepted; output is path-sorted unless --sort says
    if o.unrestricted >= 1:
        o.no_ignore = True
    if o.unrestricted >= 2:
        o.hidden = True
    if o.unrestricted >= 3:
        o.binary = True
    o.operands = operands
    return o


def _unescape_rg(s: str) -> str:
    """ripgrep's escapes in --context-separator: \\n \\t \\xHH \\\\."""
    return re.sub(r"\\(x[0-9A-Fa-f]{2}|.)", lambda m: {"n": "\n", "t": "\t", "r": "\r",
                  "0": "\0", "\\": "\\"}.get(m.group(1), chr(int(m.group(1)[1:], 16))
                  if m.group(1).startswith("x") else "\\" + m.group(1)), s)


def _long_of(key: str) -> str:
    return {"A": "after-context", "B": "before-context", "C": "context", "m": "max-count",
            "d": "max-depth"}[key]


async def main(shell: Shell, argv: list[str]) -> int:
    err = Out(shell.stderr)
    try:
        o = _parse(argv)
    except RgError as e:
        await shell.stderr.write(encode(str(e) + "\n"))
        return 2
    if o.help:
        await shell.stdout.write(encode(HELP))
        return 0
    if o.version:
        await shell.stdout.write(b"ripgrep 13.0.0 (pysh port)\n")
        return 0
    table = None
    if o.type_list:
        try:
            table = _types_table(o.type_add)
        except RgError as e:
            await shell.stderr.write(encode(str(e) + "\n"))
            return 2
        text = "".join(f"{name}: {', '.join(globs)}\n" for name, globs in sorted(table.items()))
        await shell.stdout.write(encode(text))
        return 0
    if o.json:
        for flag, on in (("--count", o.count), ("--files-with-matches", o.files_with),
                         ("--files-without-match", o.files_without), ("--files", o.files)):
            if on:
                await shell.stderr.write(encode(f"error: The argument '{flag}' cannot be used "
                                                f"with '--json'\n\n{USAGE}\n"))
                return 2
    searcher = Search(shell, o, err)
    try:
        status = await searcher.run()
    except RgError as e:
        await err.write(encode(str(e) + "\n"))
        await err.flush()
        return 2
    await err.flush()
    return status


class Search:
    def __init__(self, shell: Shell, o: Options, err: Out):
        self.shell = shell
        self.o = o
        self.err = err
        self.out = Out(shell.stdout, shell.budget)
        self.had_error = False
        self.matched_any = False
        self.printed_group = False  # for the '--' context separator
        self.stats = {"bytes_printed": 0, "bytes_searched": 0, "matched_lines": 0,
                      "matches": 0, "searches": 0, "searches_with_match": 0}
        self.start = time.monotonic()
        self.json_printed = 0
        self.sink = bytearray()
        self.group = False

    async def error(self, msg: str) -> None:
        self.had_error = True
        if not self.o.no_messages:
            await self.err.write(encode(self.shell.display(msg) + "\n"))

    # ------------------------------------------------------------ setup
    async def _patterns(self) -> list[str]:
        o = self.o
        pats = list(o.patterns)
        for pf in o.pattern_files:
            try:
                if pf == "-":
                    data = await self.shell.stdin.read()
                else:
                    data = _common.read_file(self.shell, pf)
            except OSError as e:
                raise RgError(f"{pf}: {os.strerror(e.errno or 5)} (os error {e.errno})") from None
            text = decode(data)
            pats.extend(text.split("\n")[:-1] if text.endswith("\n") else text.split("\n"))
        return pats

    def _compile(self, pats: list[str]) -> Regex:
        o = self.o
        parts = []
        for p in pats:
            if "\n" in p and not o.fixed and not o.multiline:
                raise RgError(NEWLINE_ERROR)
            if o.fixed:
                parts.append(re.escape(p))
            elif o.pcre2:
                parts.append(p.replace("\\z", "\\Z"))
            else:
                parts.append(translate(p, dotall=o.dotall, multiline=o.multiline))
        body = "|".join(f"(?:{p})" for p in parts) if len(parts) > 1 else (parts[0] if parts else "")
        if o.line:
            body = f"^(?:{body})$"
        elif o.word:
            body = rf"(?<!\w)(?:{body})(?!\w)"
        icase = o.case == "insensitive" or (o.case == "smart" and not any(
            _has_upper(p) for p in pats))
        if o.pcre2:
            # PCRE2 syntax (look-around, back-references, possessive quantifiers) through the
            # regex module, every call under the run's deadline
            try:
                return compile_perl(("(?s)" if o.dotall else "") + body, icase=icase,
                                    multiline=True, budget=self.shell.budget)
            except RegexError as e:
                raise RgError(f"PCRE2: error compiling pattern: {e}") from None
        try:
            re.compile(body, re.M | (re.I if icase else 0))  # for Python's error messages
            # matched on the regex engine, whose calls take the run's deadline: Rust's
            # engine is linear, a backtracking one is not ('(a|aa)+$' over a long line)
            return compile_python(body, icase=icase, multiline=True, budget=self.shell.budget)
        except re.error as e:
            raise RgError(_regex_error(pats, e)) from None
        except (OverflowError, RecursionError, RegexError):
            raise RgError("regex parse error: the pattern is too large") from None

    # ------------------------------------------------------------- run
    async def run(self) -> int:
        o = self.o
        operands = list(o.operands)
        if not o.files:
            if not o.patterns and not o.pattern_files:
                if not operands:
                    raise RgError("error: The following required arguments were not provided:\n"
                                  f"    <PATTERN>\n\n{USAGE}")
                o.patterns.append(operands.pop(0))
            pats = await self._patterns()
            self.regex = self._compile(pats) if pats else compile_python(r"(?!)")
            self.empty_patterns = not pats
            # \A and \Z mean "start/end of the line" to ripgrep: keep those per line; a PCRE2
            # pattern (look-around) is matched line by line too
            self.anchored_text = o.pcre2 or any(t in self.regex.python for t in ("\\A", "\\Z"))
        self.type_filter = self._type_filter()
        self.glob_spec = self._glob_spec()
        self.repl = _expand_template(o.replace) if o.replace is not None else None
        implicit = not operands
        if implicit and not o.files and _common.stdin_is_readable(self.shell):
            data = await self.shell.stdin.read()
            self.with_filename = bool(o.with_filename)
            self._begin_file()
            self._search_data(data, "<stdin>", explicit=True)
            await self._flush_file(self.sink, self.group)
            return await self._finish()
        paths = operands or ["./"]
        many = len(paths) > 1 or any(self._is_dir(p) for p in paths)
        self.with_filename = o.with_filename if o.with_filename is not None else many
        if o.vimgrep:
            self.with_filename = True
        if o.heading is False and o.with_filename is None:
            pass
        for p in paths:
            self.shell.budget.check()
            await self._search_path(p, implicit)
        return await self._finish()

    async def _finish(self) -> int:
        o = self.o
        if o.stats and not o.json:
            st = self.stats
            elapsed = time.monotonic() - self.start
            text = (f"\n{st['matches']} matches\n{st['matched_lines']} matched lines\n"
                    f"{st['searches_with_match']} files contained matches\n"
                    f"{st['searches']} files searched\n{st['bytes_printed']} bytes printed\n"
                    f"{st['bytes_searched']} bytes searched\n"
                    f"{elapsed:.6f} seconds spent searching\n{elapsed:.6f} seconds\n")
            await self.out.write(encode(text))
        if o.json and not o.files:
            elapsed = time.monotonic() - self.start
            summary = {"data": {"elapsed_total": _elapsed(elapsed), "stats": {
                "bytes_printed": self.json_printed,
                "bytes_searched": self.stats["bytes_searched"],
                "elapsed": _elapsed(elapsed), "matched_lines": self.stats["matched_lines"],
                "matches": self.stats["matches"], "searches": self.stats["searches"],
                "searches_with_match": self.stats["searches_with_match"]}}, "type": "summary"}
            await self.out.write(encode(json.dumps(summary, separators=(",", ":"),
                                                   sort_keys=True)) + b"\n")
        await self.out.flush()
        if self.had_error and not (o.quiet and self.matched_any):
            return 2
        return 0 if self.matched_any else 1

    def _is_dir(self, p: str) -> bool:
        try:
            return _common.vis_dir(self.shell, p)
        except OSError:
            return False

    def _type_filter(self):
        o = self.o
        if not o.types and not o.types_not:
            return None
        table = _types_table(o.type_add)

        def compile_type(name: str):
            if name == "all":
                globs = [g for gs in table.values() for g in gs]
            elif name in table:
                globs = list(table[name])
            else:
                raise RgError(f"unrecognized file type: {name}")
            return [_common.glob_regex(g) for g in globs]
        inc = [r for t in o.types for r in compile_type(t)]
        exc = [r for t in o.types_not for r in compile_type(t)]

        def check(name: str) -> bool:
            if exc and any(r.match(name) for r in exc):
                return False
            if inc:
                return any(r.match(name) for r in inc)
            return True
        return check

    def _glob_spec(self):
        """-g/--iglob globs as gitignore specs (case-sensitive, and lowercased for --iglob).

        In gitignore terms a whitelist glob is a negation (keep) and '!glob' an exclusion;
        the last glob that matches wins, across both kinds.
        """
        if not self.o.globs:
            return None
        import pathspec

        kinds: dict[bool, tuple[list[str], list[int]]] = {False: ([], []), True: ([], [])}
        self.has_whitelist = False
        for n, (g, icase) in enumerate(self.o.globs):
            lines, where = kinds[icase]
            if g.startswith("!"):
                line = g[1:]
            else:
                line = "!" + g
                self.has_whitelist = True
            lines.append(line.lower() if icase else line)
            where.append(n)
        try:
            return [(_common.guard_spec(pathspec.GitIgnoreSpec.from_lines(lines),
                                        self.shell.budget), where, icase)
                    for icase, (lines, where) in kinds.items() if lines]
        except Exception as e:
            raise RgError(f"error parsing glob: {type(e).__name__}") from None

    def _glob_verdict(self, rel: str, is_dir: bool) -> bool | None:
        """True: excluded by -g; False: explicitly kept (over ignore files); None: no opinion."""
        specs = self.glob_spec
        if specs is None:
            return None
        best = None
        for spec, where, icase in specs:
            target = rel.lower() if icase else rel
            r = spec.check_file(target + "/" if is_dir else target)
            if r.include is not None and (best is None or where[r.index] > best[0]):
                best = (where[r.index], r.include)
        if best is not None:
            return best[1]
        if self.has_whitelist and not is_dir:
            return True
        return None

    # ------------------------------------------------------------- walking
    async def _search_path(self, p: str, implicit: bool) -> None:
        shell = self.shell
        o = self.o
        if p == "-":
            data = await shell.stdin.read()
            self._begin_file()
            self._search_data(data, "<stdin>", explicit=True)
            await self._flush_file(self.sink, self.group)
            return
        try:
            st = _common.vstat(shell, p)
        except FileSystemError as e:
            await self.error(f"{p}: {os.strerror(e.errno)} (os error {e.errno})")
            return
        import stat as _stat
        if not _stat.S_ISDIR(st.st_mode):
            shown = p[2:] if implicit and p.startswith("./") else p
            if o.files:
                self._begin_file()
                self._print_file_path(shown)
                await self._flush_file(self.sink, False)
            else:
                await self._search_file(p, shown, explicit=True)
            return
        results = self._walk(p, implicit)
        await self._walk_errors_report()
        for _, data, group, error in results:
            if error:
                await self.error(error)
            await self._flush_file(data, group)

    def _walk(self, top: str, implicit: bool) -> list[tuple]:
        """Walk ``top`` and search (or list) every file as it is met, through the entry's held
        directory fd; return (sort key, output, is_group, error) path-sorted."""
        o = self.o
        shell = self.shell
        errors: list[FileSystemError] = []
        ign = None if o.no_ignore else Ignorer(
            shell, () if o.no_dot else (".rgignore",), git=not o.no_vcs, dot=not o.no_dot,
            require_git=o.require_git)
        top_v = posixpath.normpath(shell.abspath(top))
        repo = ign.in_repo(top_v) if ign else False
        base_levels = ign.parents_levels(top_v) if (ign and not o.no_parent) else []
        levels_of: dict[str, list] = {}
        results: list[tuple[tuple[str, ...], str, str]] = []
        top_shown = top.rstrip("/") if top not in ("/", "./") else top
        if implicit:
            top_shown = ""
        walk_top = None
        for wd in shell.walk(top_v, follow_symlinks=o.follow, onerror=errors.append):
            shell.budget.check()
            path = wd.path
            if walk_top is None:
                walk_top = path.rstrip("/") or "/"
                rel_dir = ""
            else:
                rel_dir = path[len(walk_top) + 1:] if walk_top != "/" else path[1:]
            parent_rel = rel_dir.rsplit("/", 1)[0] if "/" in rel_dir else ""
            levels = list(levels_of.get(parent_rel, base_levels)) if rel_dir else list(base_levels)
            if ign is not None:
                names = {e.name for e in wd.files} | {e.name for e in wd.dirs}
                specs = ign.level_specs(path, repo, names)
                if specs:
                    levels.append((rel_dir, specs))
            levels_of[rel_dir] = levels
            depth = rel_dir.count("/") + 1 if rel_dir else 0
            keep_dirs = []
            for e in wd.dirs:
                rel = f"{rel_dir}/{e.name}" if rel_dir else e.name
                if not o.hidden and e.name.startswith("."):
                    continue
                if o.max_depth is not None and depth + 1 >= o.max_depth:
                    continue
                verdict = self._glob_verdict(rel, True)
                if verdict is True:
                    continue
                if verdict is None and ign is not None and ignored(levels, rel, True):
                    continue
                keep_dirs.append(e)
            wd.dirs[:] = keep_dirs
            for e in wd.files:
                if e.type == "l" and (not o.follow or e.link_stat is None):
                    continue
                if e.type == "o":
                    continue
                if o.max_depth is not None and depth + 1 > o.max_depth:
                    continue
                rel = f"{rel_dir}/{e.name}" if rel_dir else e.name
                if not o.hidden and e.name.startswith("."):
                    continue
                verdict = self._glob_verdict(rel, False)
                if verdict is True:
                    continue
                if verdict is None and ign is not None and ignored(levels, rel, False):
                    continue
                if self.type_filter is not None and not self.type_filter(e.name):
                    continue
                if implicit:
                    shown = rel
                elif top_shown.endswith("/"):
                    shown = top_shown + rel
                else:
                    shown = (top_shown or ".") + "/" + rel if top_shown != "" else rel
                results.append(self._walk_file(e, top_v.rstrip("/") + "/" + rel, shown, rel))
                if o.quiet and self.matched_any:
                    break
            if o.quiet and self.matched_any:
                break
        self._walk_errors = [(e, self._shown_of(e.vpath, walk_top, top_shown, implicit))
                             for e in errors]
        if o.sort is not None and o.sort[0] in ("modified", "accessed", "created"):
            attr = {"modified": "st_mtime", "accessed": "st_atime", "created": "st_ctime"}[
                o.sort[0]]

            def when(r):
                try:
                    return getattr(_common.vstat(shell, top_v.rstrip("/") + "/" + "/".join(
                        decode(c) for c in r[0])), attr)
                except OSError:
                    return 0.0
            results.sort(key=lambda r: (when(r), r[0]), reverse=o.sort[1])
        else:
            results.sort(key=lambda r: r[0], reverse=o.sort is not None and o.sort[1])
        return results

    def _walk_file(self, e, vpath: str, shown: str, rel: str) -> tuple:
        """Search (or list) one file met by the walk; the output is kept for sorting."""
        self._begin_file()
        if self.o.files:
            self._print_file_path(shown)
            return (_key(rel), self.sink, False, None)
        try:
            if e.type == "l":  # a followed link: resolved (and re-checked) by the core
                data = _common.read_file(self.shell, vpath)
            else:
                data = _read_entry(e, self.shell)
        except OSError as err:
            code = err.errno or 5
            return (_key(rel), b"", False, f"{shown}: {os.strerror(code)} (os error {code})")
        self._search_data(data, shown, False)
        return (_key(rel), self.sink, self.group, None)

    @staticmethod
    def _shown_of(vpath: str | None, walk_top: str | None, top_shown: str, implicit: bool) -> str:
        if vpath is None or walk_top is None:
            return vpath or ""
        if vpath.startswith(walk_top.rstrip("/") + "/"):
            rel = vpath[len(walk_top.rstrip("/")) + 1:]
            if implicit:
                return rel
            return (top_shown.rstrip("/") + "/" if top_shown else "") + rel
        return vpath

    async def _walk_errors_report(self) -> None:
        for e, shown in getattr(self, "_walk_errors", []):
            await self.error(f"{shown}: {os.strerror(e.errno)} (os error {e.errno})")
        self._walk_errors = []

    # ------------------------------------------------------------ searching
    def _print_file_path(self, shown: str) -> None:
        self.matched_any = True
        self._emit(encode(shown) + (b"\0" if self.o.null else b"\n"))

    def _emit(self, data: bytes) -> None:
        if self.o.quiet:
            return
        if not self.o.count:  # ripgrep's --stats counts the bytes of printed lines only
            self.stats["bytes_printed"] += len(data)
        self.sink += data

    def _begin_file(self) -> None:
        self.sink = bytearray()
        self.group = False

    async def _flush_file(self, data: bytes, group: bool) -> None:
        """Write one file's output; groups are separated ('--' with context, '' with headings)."""
        if not data:
            return
        if group:
            if self.printed_group:
                if self.o.heading and self.with_filename:
                    await self.out.write(b"\n")
                elif self.o.before or self.o.after:
                    await self.out.write(b"--\n")
            self.printed_group = True
        await self.out.write(bytes(data))

    async def _search_file(self, vpath: str, shown: str, explicit: bool) -> None:
        try:
            data = _common.read_file(self.shell, vpath)
        except OSError as e:
            code = e.errno or 5
            await self.error(f"{shown}: {os.strerror(code)} (os error {code})")
            return
        self._begin_file()
        self._search_data(data, shown, explicit)
        await self._flush_file(self.sink, self.group)

    def _search_data(self, data: bytes, shown: str, explicit: bool) -> None:
        o = self.o
        if o.search_zip:
            plain = _decompress(data)
            if plain is not None:
                self.shell.budget.check_string(len(plain))
                data = plain
        self.stats["searches"] += 1
        self.stats["bytes_searched"] += len(data)
        nul = -1 if o.text else data.find(b"\0")
        if nul >= 0 and not explicit and not o.binary:
            return
        text = decode(data)
        rx = self.regex
        if nul >= 0:
            # Binary: ripgrep reports a match instead of printing lines.
            probe = text.replace("\0", "\n")
            found = any(self._line_matches(line) for line in probe.split("\n")) \
                if not self.empty_patterns else o.invert
            hit = found
            if o.files_without:
                hit = not found
            if hit:
                self.matched_any = True
                self.stats["searches_with_match"] += 1
                if o.files_with or o.files_without:
                    self._emit(encode(shown) + (b"\0" if o.null else b"\n"))
                elif o.count:
                    self._emit(self._prefix(shown, None, ":") + b"1\n"
                                     if self.with_filename else b"1\n")
                elif not o.json:
                    prefix = encode(shown) + b": " if self.with_filename else b""
                    self._emit(prefix + f'binary file matches (found "\\0" byte around '
                                     f'offset {nul})\n'.encode())
            return
        # Fast rejection: a file with no match anywhere has no matching line.
        if not o.invert and not o.files_without and not self.empty_patterns \
                and not o.passthru and not o.pcre2 and rx.search(text) is None:
            return
        if o.multiline:
            self._search_multiline(text, shown)
            return
        matches = None
        if text and not o.invert and not o.files_without and not self.empty_patterns \
                and not self.anchored_text:
            matches = self._matching_lines(text)
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
            ends_nl = True
        else:
            ends_nl = False
        self._search_lines(lines, shown, ends_nl, matches)

    def _search_multiline(self, text: str, shown: str) -> None:
        """-U: matches run over line ends; every line a match touches is a matching line,
        and a block of lines one match (or several overlapping) covers counts once."""
        lines = text.split("\n")
        ends_nl = bool(lines) and lines[-1] == ""
        if ends_nl:
            lines.pop()
        starts = _line_starts(text)
        import bisect

        spans = []  # (first line, last line, start, end)
        if not self.empty_patterns and text:
            budget = self.shell.budget
            for k, m in enumerate(self.regex.finditer(text)):
                if k & 1023 == 0:
                    budget.check()
                st, en = m.start(), m.end()
                if st >= len(text) and ends_nl and st > 0:
                    break
                a = bisect.bisect_right(starts, st) - 1
                b = bisect.bisect_right(starts, max(st, en - 1)) - 1
                spans.append((a, min(b, max(len(lines) - 1, 0)), st, en))
                if self.o.max_count is not None and len({x[0] for x in spans}) > self.o.max_count:
                    spans.pop()
                    break
        matched: set[int] = set()
        blocks = 0
        last = -1
        for a, b, _, _ in spans:
            if a > last:
                blocks += 1
            last = max(last, b)
            matched.update(range(a, b + 1))
        self.ml = (spans, blocks, starts, text)
        self._search_lines(lines, shown, ends_nl, sorted(matched))
        self.ml = None

    ml = None

    def _matching_lines(self, text: str) -> list[int] | None:
        """Indices of the lines with a match, from one pass over the whole text.

        With ``re.M`` a match that stays within a line is exactly a per-line match;
        one that spans a newline (``\\s``, ``[^x]``) sends us back to the per-line loop.
        """
        out: list[int] = []
        line = 0
        pos = 0
        end = len(text) - 1 if text.endswith("\n") else len(text)
        cap = self.o.max_count
        for m in self.regex.finditer(text):
            start = m.start()
            if start > end:
                break
            if "\n" in m.group(0):
                return None
            line += text.count("\n", pos, start)
            pos = start
            if not out or out[-1] != line:
                out.append(line)
                if cap is not None and len(out) >= cap:
                    break
        return out

    def _line_matches(self, line: str) -> bool:
        m = self.regex.search(line)
        return (m is not None) != self.o.invert

    def _prefix(self, shown: str, lineno: int | None, sep: str) -> bytes:
        parts = b""
        if self.with_filename and not self.o.heading:
            parts += encode(shown) + (b"\0" if self.o.null else sep.encode())
        if lineno is not None:
            parts += str(lineno).encode() + sep.encode()
        return parts

    def _search_lines(self, lines: list[str], shown: str, ends_nl: bool,
                      matches: list[int] | None = None) -> None:
        o = self.o
        rx = self.regex
        budget = self.shell.budget
        if matches is None:
            matches = []
            for i, line in enumerate(lines):
                if i & 1023 == 0:
                    budget.check()
                if (rx.search(line) is not None) != o.invert:
                    matches.append(i)
                    if o.max_count is not None and len(matches) >= o.max_count:
                        break
        elif o.invert:  # -v -U: the lines no match touches
            hit = set(matches)
            matches = [i for i in range(len(lines)) if i not in hit]
        if o.files_without:
            if not matches:
                self.matched_any = True
                self._emit(encode(shown) + (b"\0" if o.null else b"\n"))
            return
        if not matches and not o.passthru:
            return
        ml = self.ml
        if matches:
            self.matched_any = True
            self.stats["searches_with_match"] += 1
        self.stats["matched_lines"] += len(matches)
        if not o.invert:
            self.stats["matches"] += len(ml[0]) if ml else sum(
                sum(1 for _ in rx.finditer(lines[i])) for i in matches)
        if o.quiet:
            return
        if o.files_with:
            self._emit(encode(shown) + (b"\0" if o.null else b"\n"))
            return
        if o.count:
            n = len(matches) if not ml or o.invert else ml[1]
            if o.count_matches and not o.invert:
                n = len(ml[0]) if ml else sum(len([m for m in rx.finditer(lines[i])])
                                              for i in matches)
            line = (encode(shown) + (b"\0" if o.null else b":") if self.with_filename else b"")
            self._emit(line + str(n).encode() + b"\n")
            return
        if o.json:
            self._json_file(lines, matches, shown)
            return
        show_num = bool(o.line_number)
        if o.heading and self.with_filename:
            self._emit(encode(shown) + b"\n")
        self.group = True
        ctx = o.before or o.after
        match_set = set(matches)
        buf = bytearray()
        todo = range(len(lines)) if o.passthru else self._print_order(lines, matches)
        prev = None
        csep = None if o.context_sep is None else encode(o.context_sep) + b"\n"
        spans_at: dict[int, list] = {}
        if ml and o.only and not o.invert:
            for a, _b, st, en in ml[0]:
                spans_at.setdefault(a, []).append((st, en))
        for j in todo:
            if prev is not None and j != prev + 1 and ctx and csep is not None:
                buf += csep
            prev = j
            line = lines[j]
            is_match = j in match_set
            sep = ":" if is_match else "-"
            if ml and is_match and o.only and not o.invert:
                # the match's text, line by line, each with its own line number
                for st, en in spans_at.get(j, ()):
                    k = j
                    for piece in ml[3][st:en].rstrip("\n").split("\n"):
                        buf += self._prefix(shown, k + 1 if show_num else None, sep) \
                            + encode(self._trimmed(piece)) + b"\n"
                        k += 1
                continue
            if is_match and o.only and not o.invert:
                for mo in rx.finditer(line):
                    if mo.start() == mo.end() and not line:
                        pass
                    piece = self.repl(mo) if self.repl else mo.group(0)
                    col = f"{mo.start() + 1}:" if o.column else ""
                    buf += self._prefix(shown, j + 1 if show_num else None, sep) \
                        + col.encode() + encode(self._trimmed(piece)) + b"\n"
                continue
            if is_match and self.repl is not None and not o.invert:
                line = rx.sub(self.repl, line)
            line = self._trimmed(line)
            if o.max_columns is not None and len(encode(line)) > o.max_columns:
                if o.max_columns_preview:
                    line = line[:o.max_columns] + " [... omitted end of long line]"
                else:
                    line = "[Omitted long matching line]" if is_match else \
                        "[Omitted long context line]"
            col = ""
            if o.column and is_match:
                mo = rx.search(lines[j]) if not o.invert else None
                col = f"{(mo.start() if mo else 0) + 1}:"
            buf += self._prefix(shown, j + 1 if show_num else None, sep) + col.encode() \
                + encode(line) + b"\n"
            if len(buf) >= 65536:
                self._emit(bytes(buf))
                buf.clear()
        self._emit(bytes(buf))

    def _trimmed(self, text: str) -> str:
        return text.lstrip(" \t\x0b\x0c\r") if self.o.trim else text

    def _print_order(self, lines: list[str], matches: list[int]) -> list[int]:
        """The line indices to print: the matches and their context, in order."""
        o = self.o
        if not (o.before or o.after):
            return matches
        last_printed = -1
        match_set = set(matches)
        todo: list[int] = []
        for i in matches:
            lo = max(0, i - o.before)
            todo.extend(range(max(lo, last_printed + 1), i))
            todo.append(i)
            last_printed = i
            hi = min(len(lines) - 1, i + o.after)
            # after-context stops at the next match (which prints itself)
            for j in range(i + 1, hi + 1):
                if j in match_set:
                    break
                todo.append(j)
                last_printed = j
        return sorted(set(todo))

    def _json_file(self, lines: list[str], matches: list[int], shown: str) -> None:
        o = self.o
        rx = self.regex
        t0 = time.monotonic()
        path = {"text": shown}
        begin = {"type": "begin", "data": {"path": path}}
        chunk = [json.dumps(begin, separators=(",", ":"), ensure_ascii=False)]
        offsets = []
        off = 0
        for line in lines:
            offsets.append(off)
            off += len(encode(line)) + 1
        nmatch = 0
        match_set = set(matches)
        ml = self.ml
        block_of: dict[int, tuple] = {}
        if ml and not o.invert:
            # -U: one event per block of lines the matches cover, offsets within the block
            # (matches on touching lines share an event)
            cur = None
            for a, b, st, en in ml[0]:
                if cur is not None and a <= block_of[cur][1] + 1:
                    ka, kb, spans = block_of[cur]
                    block_of[cur] = (ka, max(kb, b), spans + [(st, en)])
                else:
                    cur = a
                    block_of[a] = (a, b, [(st, en)])
        todo = range(len(lines)) if o.passthru else self._print_order(lines, matches)
        skip_to = -1
        for i in todo:
            if i <= skip_to:
                continue
            line = lines[i]
            subs = []
            if i in block_of:
                a, b, spans = block_of[i]
                skip_to = b
                text = "\n".join(lines[a:b + 1]) + "\n"
                base = ml[2][a]
                for st, en in spans:
                    s0 = len(encode(ml[3][base:st]))
                    piece = ml[3][st:en]
                    subs.append({"match": {"text": piece}, "start": s0,
                                 "end": s0 + len(encode(piece))})
                nmatch += len(subs)
                ev = {"type": "match", "data": {"path": path, "lines": {"text": text},
                                                "line_number": a + 1,
                                                "absolute_offset": offsets[a],
                                                "submatches": subs}}
                chunk.append(json.dumps(ev, separators=(",", ":"), ensure_ascii=False))
                continue
            if i not in match_set:
                ev = {"type": "context", "data": {"path": path, "lines": {"text": line + "\n"},
                                                  "line_number": i + 1,
                                                  "absolute_offset": offsets[i],
                                                  "submatches": []}}
                chunk.append(json.dumps(ev, separators=(",", ":"), ensure_ascii=False))
                continue
            if not o.invert:
                for mo in rx.finditer(line):
                    s = len(encode(line[:mo.start()]))
                    subs.append({"match": {"text": mo.group(0)}, "start": s,
                                 "end": s + len(encode(mo.group(0)))})
            nmatch += len(subs)
            ev = {"type": "match", "data": {"path": path, "lines": {"text": line + "\n"},
                                            "line_number": i + 1, "absolute_offset": offsets[i],
                                            "submatches": subs}}
            chunk.append(json.dumps(ev, separators=(",", ":"), ensure_ascii=False))
        body = "".join(c + "\n" for c in chunk)
        printed = len(encode(body))
        elapsed = time.monotonic() - t0
        end = {"type": "end", "data": {"path": path, "binary_offset": None, "stats": {
            "elapsed": _elapsed(elapsed), "searches": 1, "searches_with_match": 1,
            "bytes_searched": offsets[-1] + len(encode(lines[-1])) + 1 if lines else 0,
            "bytes_printed": 0, "matched_lines": len(matches), "matches": nmatch}}}
        # bytes_printed counts the file's begin and match events
        end["data"]["stats"]["bytes_printed"] = printed
        end_text = json.dumps(end, separators=(",", ":"), ensure_ascii=False)
        self.json_printed += printed
        self._emit(encode(body + end_text + "\n"))


_RUST_MESSAGES = {
    "missing ), unterminated subpattern": "unclosed group",
    "unbalanced parenthesis": "unopened group",
    "unterminated character set": "unclosed character class",
    "nothing to repeat": "repetition operator missing expression",
    "multiple repeat": "repetition operator missing expression",
    "bad escape (end of pattern)": "incomplete escape sequence, reached end of pattern prematurely",
}


def _regex_error(pats: list[str], e: re.error) -> str:
    """Python's regex error in the shape of ripgrep's (Rust regex) message."""
    msg = _RUST_MESSAGES.get(e.msg, e.msg)
    if len(pats) == 1 and e.pos is not None and e.pos <= len(pats[0]):
        pat = pats[0]
        pos = e.pos
        if e.msg.startswith("missing )"):
            pos = pat.rfind("(") if "(" in pat else pos
        return f"regex parse error:\n    {pat}\n    {' ' * pos}^\nerror: {msg}"
    return f"regex parse error:\n    {'|'.join(pats)}\nerror: {msg}"


def _read_entry(e, shell: Shell) -> bytes:
    """A walked file's content, read through the walker's held directory fd."""
    import stat as _stat

    fd = e.open()
    try:
        if not _stat.S_ISREG(os.fstat(fd).st_mode):
            raise FileSystemError(13, e.path)
        cap = shell.budget.limits.max_string_length
        chunks = []
        total = 0
        while True:
            b = os.read(fd, 1 << 20)
            if not b:
                break
            total += len(b)
            if total > cap:
                from pysh.shellkit import LimitExceeded

                raise LimitExceeded("string", f"{cap} bytes")
            chunks.append(b)
        return b"".join(chunks)
    finally:
        os.close(fd)


def _elapsed(sec: float) -> dict:
    secs = int(sec)
    nanos = int((sec - secs) * 1e9)
    return {"secs": secs, "nanos": nanos, "human": f"{sec:.6f}s"}


def _key(rel: str) -> tuple[bytes, ...]:
    return tuple(encode(c) for c in rel.split("/"))


def _has_upper(p: str) -> bool:
    # smart case: literal uppercase characters (escapes like \S or \W do not count)
    i = 0
    while i < len(p):
        if p[i] == "\\":
            i += 2
            continue
        if p[i].isupper():
            return True
        i += 1
    return False


def _line_starts(text: str) -> list[int]:
    starts = [0]
    find = text.find
    i = find("\n")
    while i >= 0:
        starts.append(i + 1)
        i = find("\n", i + 1)
    return starts


def _decompress(data: bytes) -> bytes | None:
    """-z: the content of a gzip, bzip2 or xz file (None: not one of those)."""
    import bz2
    import gzip
    import lzma

    try:
        if data[:2] == b"\x1f\x8b":
            return gzip.decompress(data)
        if data[:3] == b"BZh":
            return bz2.decompress(data)
        if data[:6] == b"\xfd7zXZ\0":
            return lzma.decompress(data)
    except (OSError, EOFError, lzma.LZMAError, ValueError):
        return None
    return None
