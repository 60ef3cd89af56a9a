"""diff: compare files line by line (GNU diffutils 3.8 output formats and statuses).

Formats: normal, ``-u``/``-U N``, ``-c``/``-C N``, ``-y`` side by side,
``-e`` ed script, ``-n`` RCS, ``-q`` brief; ``-r`` recursive with
"Only in" / "Common subdirectories" lines, ``-N`` absent files as empty,
``-s`` identical reports, the ignore options ``-i -b -w -Z -E -B -I RE
--strip-trailing-cr``, ``-a`` text, ``--label``, ``--from-file``/``--to-file``.
Exit status 0 same, 1 different, 2 trouble. The comparison itself is in
``_misc_diffcore`` (GNU's algorithm, so the hunks are GNU's).
"""

from __future__ import annotations

import errno
import fnmatch
import stat as _stat
import time

from pysh.builtins import _misc_diffcore as core
from pysh.builtins._misc_bre import BREError, compile_bre
from pysh.builtins._misc_time import format_offset, get_tz, localtime
from pysh.builtins._misc_util import Out, strerror
from pysh.shellkit import FileSystemError, Shell, on_write_error
from pysh.shellkit.text import encode

HELP = """\
Usage: diff [OPTION]... FILES
Compare FILES line by line.

Mandatory arguments to long options are mandatory for short options too.
      --normal                  output a normal diff (the default)
  -q, --brief                   report only when files differ
  -s, --report-identical-files  report when two files are the same
  -c, -C NUM, --context[=NUM]   output NUM (default 3) lines of copied context
  -u, -U NUM, --unified[=NUM]   output NUM (default 3) lines of unified context
  -e, --ed                      output an ed script
  -n, --rcs                     output an RCS format diff
  -y, --side-by-side            output in two columns
  -W, --width=NUM               output at most NUM (default 130) print columns
      --left-column             output only the left column of common lines
      --suppress-common-lines   do not output common lines

      --label LABEL             use LABEL instead of file name and timestamp
                                  (can be repeated)

  -t, --expand-tabs             expand tabs to spaces in output
  -T, --initial-tab             make tabs line up by prepending a tab
      --tabsize=NUM             tab stops every NUM (default 8) print columns
      --suppress-blank-empty    suppress space or tab before empty output lines

  -r, --recursive                 recursively compare any subdirectories found
  -N, --new-file                  treat absent files as empty
      --unidirectional-new-file   treat absent first files as empty
  -x, --exclude=PAT               exclude files that match PAT
  -X, --exclude-from=FILE         exclude files that match any pattern in FILE
      --from-file=FILE1           compare FILE1 to all operands;
                                    FILE1 can be a directory
      --to-file=FILE2             compare all operands to FILE2;
                                    FILE2 can be a directory

  -i, --ignore-case               ignore case differences in file contents
  -E, --ignore-tab-expansion      ignore changes due to tab expansion
  -Z, --ignore-trailing-space     ignore white space at line end
  -b, --ignore-space-change       ignore changes in the amount of white space
  -w, --ignore-all-space          ignore all white space
  -B, --ignore-blank-lines        ignore changes where lines are all blank
  -I, --ignore-matching-lines=RE  ignore changes where all lines match RE

  -a, --text                      treat all files as text
      --strip-trailing-cr         strip trailing carriage return on input

  -d, --minimal            try hard to find a smaller set of changes
      --horizon-lines=NUM  keep NUM lines of the common prefix and suffix
      --speed-large-files  assume large files and many scattered small changes
      --color[=WHEN]       color output; WHEN is 'never', 'always', or 'auto'

      --help               display this help and exit
  -v, --version            output version information and exit

FILES are 'FILE1 FILE2' or 'DIR1 DIR2' or 'DIR FILE' or 'FILE DIR'.
If --from-file or --to-file is given, there are no restrictions on FILE(s).
If a FILE is '-', read standard input.
Exit status is 0 if inputs are the same, 1 if different, 2 if trouble.
"""

SHORT = "0123456789abBcC:dD:eEfF:hHiI:lL:nNpPqrsS:tTuU:vwW:x:X:yZ"
LONG = {
    "binary": "binary", "brief": "q", "changed-group-format=": "unsupported",
    "color?": "color", "context?": "C", "ed": "e", "exclude=": "x", "exclude-from=": "X",
    "expand-tabs": "t", "forward-ed": "f", "from-file=": "from-file", "help": "help",
    "horizon-lines=": "horizon", "ifdef=": "D", "ignore-all-space": "w",
    "ignore-blank-lines": "B", "ignore-case": "i", "ignore-file-name-case": "ifnc",
    "ignore-matching-lines=": "I", "ignore-space-change": "b", "ignore-tab-expansion": "E",
    "ignore-trailing-space": "Z", "inhibit-hunk-merge": "inhibit", "initial-tab": "T",
    "label=": "L", "left-column": "left-column", "line-format=": "unsupported",
    "minimal": "d", "new-file": "N", "new-group-format=": "unsupported",
    "new-line-format=": "unsupported", "no-dereference": "no-deref",
    "no-ignore-file-name-case": "noifnc", "normal": "normal",
    "old-group-format=": "unsupported", "old-line-format=": "unsupported", "paginate": "l",
    "palette=": "palette", "rcs": "n", "recursive": "r", "report-identical-files": "s",
    "sdiff-merge-assist": "unsupported", "show-c-function": "p",
    "show-function-line=": "F", "side-by-side": "y", "speed-large-files": "H",
    "starting-file=": "S", "strip-trailing-cr": "strip-cr",
    "suppress-blank-empty": "suppress-blank-empty",
    "suppress-common-lines": "suppress-common-lines", "tabsize=": "tabsize", "text": "a",
    "to-file=": "to-file", "unchanged-group-format=": "unsupported",
    "unchanged-line-format=": "unsupported", "unidirectional-new-file": "P",
    "unified?": "U", "version": "v", "width=": "W",
}

NORMAL, CONTEXT, UNIFIED, ED, RCS, SDIFF, FORWARD_ED = range(7)
OLD, NEW = 1, 2


class Trouble(Exception):
    """A fatal diff error (already reported); exit 2."""


class UsageError(Exception):
    pass


def getopt(args: list[str], short: str, long: dict[str, str]):
    """GNU getopt_long with permutation: (opts, operands, option words as typed)."""
    sspec: dict[str, str] = {}
    i = 0
    while i < len(short):
        ch = short[i]
        if short[i + 1:i + 2] == ":":
            sspec[ch] = "required"
            i += 2
        else:
            sspec[ch] = "none"
            i += 1
    lspec: dict[str, tuple[str, str]] = {}
    for name, key in long.items():
        if name.endswith("="):
            lspec[name[:-1]] = ("required", key)
        elif name.endswith("?"):
            lspec[name[:-1]] = ("optional", key)
        else:
            lspec[name] = ("none", key)
    opts: list[tuple[str, str | None]] = []
    operands: list[str] = []
    words: list[str] = []
    i = 0
    n = len(args)
    while i < n:
        arg = args[i]
        i += 1
        if arg == "--":
            words.append(arg)
            operands.extend(args[i:])
            break
        if arg.startswith("--"):
            words.append(arg)
            name, eq, value = arg[2:].partition("=")
            matches = [name] if name in lspec else [k for k in lspec if k.startswith(name)]
            if len({lspec[k] for k in matches}) == 1:
                matches = matches[:1]
            if not matches:
                raise UsageError(f"unrecognized option '{arg}'" if eq
                                 else f"unrecognized option '--{name}'")
            if len(matches) > 1:
                poss = " ".join(f"'--{m}'" for m in matches)
                raise UsageError(f"option '--{name}' is ambiguous; possibilities: {poss}")
            kind, key = lspec[matches[0]]
            if kind == "none":
                if eq:
                    raise UsageError(f"option '--{matches[0]}' doesn't allow an argument")
                opts.append((key, None))
            elif kind == "required":
                if eq:
                    opts.append((key, value))
                elif i < n:
                    opts.append((key, args[i]))
                    words.append(args[i])
                    i += 1
                else:
                    raise UsageError(f"option '--{matches[0]}' requires an argument")
            else:
                opts.append((key, value if eq else None))
            continue
        if arg.startswith("-") and arg != "-":
            words.append(arg)
            j = 1
            while j < len(arg):
                ch = arg[j]
                kind = sspec.get(ch)
                if kind is None:
                    raise UsageError(f"invalid option -- '{ch}'")
                if kind == "none":
                    opts.append((ch, None))
                    j += 1
                    continue
                rest = arg[j + 1:]
                if rest:
                    opts.append((ch, rest))
                elif i < n:
                    opts.append((ch, args[i]))
                    words.append(args[i])
                    i += 1
                else:
                    raise UsageError(f"option requires an argument -- '{ch}'")
                break
            continue
        operands.append(arg)
    return opts, operands, words


def _shell_quote(s: str) -> str:
    if s and all(c.isalnum() or c in "@%+=:,./-_" for c in s):
        return s
    return "'" + s.replace("'", "'\\''") + "'"


class Options:
    def __init__(self):
        self.style: int | None = None
        self.context = -1
        self.ocontext = -1
        self.explicit_context = False
        self.text = False
        self.white = core.WS_NONE
        self.ignore_case = False
        self.ignore_blank = False
        self.ignore_re = []
        self.brief = False
        self.recursive = False
        self.new_file = False
        self.unidirectional = False
        self.report_identical = False
        self.labels: list[str] = []
        self.minimal = False
        self.heuristic = False
        self.horizon = 0
        self.expand_tabs = False
        self.initial_tab = False
        self.tabsize = 0
        self.width = 0
        self.left_column = False
        self.suppress_common = False
        self.suppress_blank_empty = False
        self.strip_cr = False
        self.excludes: list[str] = []
        self.from_file: str | None = None
        self.to_file: str | None = None
        self.switch_string = ""
        self.ignore_rx = None
        self.function_re: list[str] = []
        self.function_rx = None
        self.show_c_function = False


def _specify_style(o: Options, style: int) -> None:
    if o.style is not None and o.style != style:
        raise UsageError("conflicting output style options")
    o.style = style


def parse(shell: Shell, argv: list[str]):
    o = Options()
    opts, operands, words = getopt(argv[1:], SHORT, LONG)
    prev = None
    for k, v in opts:
        if k.isdigit() and len(k) == 1:
            if not (prev is not None and prev.isdigit() and len(prev) == 1):
                o.ocontext = 0
            o.ocontext = o.ocontext * 10 + int(k)
        elif k == "a":
            o.text = True
        elif k == "b":
            if o.white < core.WS_CHANGE:
                o.white = core.WS_CHANGE
        elif k == "Z":
            if o.white < core.WS_CHANGE:
                o.white |= core.WS_TRAILING
        elif k == "E":
            if o.white < core.WS_CHANGE:
                o.white |= core.WS_TAB
        elif k == "w":
            o.white = core.WS_ALL
        elif k == "B":
            o.ignore_blank = True
        elif k in ("C", "U"):
            if v is not None:
                if not v.isdigit():
                    raise UsageError(f"invalid context length '{v}'")
                num = int(v)
            else:
                num = 3
            _specify_style(o, UNIFIED if k == "U" else CONTEXT)
            if o.context < num:
                o.context = num
            o.explicit_context = True
        elif k == "c":
            _specify_style(o, CONTEXT)
            o.context = max(o.context, 3)
        elif k == "u":
            _specify_style(o, UNIFIED)
            o.context = max(o.context, 3)
        elif k == "d":
            o.minimal = True
        elif k == "e":
            _specify_style(o, ED)
        elif k == "f":
            _specify_style(o, FORWARD_ED)
        elif k == "n":
            _specify_style(o, RCS)
        elif k == "y":
            _specify_style(o, SDIFF)
        elif k == "normal":
            _specify_style(o, NORMAL)
        elif k == "H":
            o.heuristic = True
        elif k == "i":
            o.ignore_case = True
        elif k == "I":
            o.ignore_re.append(v or "")
        elif k == "L":
            if len(o.labels) >= 2:
                raise Trouble("too many file label options")
            o.labels.append(v or "")
        elif k == "N":
            o.new_file = True
        elif k == "P":
            o.unidirectional = True
        elif k == "q":
            o.brief = True
        elif k == "r":
            o.recursive = True
        elif k == "s":
            o.report_identical = True
        elif k == "t":
            o.expand_tabs = True
        elif k == "T":
            o.initial_tab = True
        elif k == "W":
            if not (v or "").isdigit() or int(v) <= 0:
                raise UsageError(f"invalid width '{v}'")
            o.width = int(v)
        elif k == "tabsize":
            if not (v or "").isdigit() or int(v) <= 0:
                raise UsageError(f"invalid tabsize '{v}'")
            o.tabsize = int(v)
        elif k == "horizon":
            if not (v or "").isdigit():
                raise UsageError(f"invalid horizon length '{v}'")
            o.horizon = max(o.horizon, int(v))
        elif k == "x":
            o.excludes.append(v or "")
        elif k == "X":
            try:
                data = shell.fs.read_bytes(v or "")
            except (FileSystemError, OSError) as e:
                raise Trouble(f"{v}: {strerror(e.errno)}") from None
            o.excludes.extend(x for x in data.decode("utf-8", "surrogateescape").split("\n") if x)
        elif k == "from-file":
            o.from_file = v
        elif k == "to-file":
            o.to_file = v
        elif k == "left-column":
            o.left_column = True
        elif k == "suppress-common-lines":
            o.suppress_common = True
        elif k == "suppress-blank-empty":
            o.suppress_blank_empty = True
        elif k == "strip-cr":
            o.strip_cr = True
        elif k == "color":
            if v not in (None, "auto", "always", "never"):
                raise UsageError(f"invalid color '{v}'")
        elif k in ("help", "v"):
            return k, o, operands
        elif k == "unsupported":
            raise Trouble("this output format is not supported")
        elif k == "p":
            o.show_c_function = True
            o.function_re.append("^[[:alpha:]$_]")
        elif k == "F":
            o.function_re.append(v or "")
        elif k in ("D", "l", "S"):
            if k in ("D", "l"):
                raise Trouble(f"-{k} is not supported")
        prev = k
    if o.style is None:
        if o.show_c_function:
            o.style = CONTEXT
            if o.ocontext < 0:
                o.context = max(o.context, 3)
        else:
            o.style = NORMAL
    if 0 <= o.ocontext and o.style in (CONTEXT, UNIFIED) and (
            o.context < o.ocontext or (o.ocontext < o.context and not o.explicit_context)):
        o.context = o.ocontext
    if o.style not in (CONTEXT, UNIFIED):
        o.context = 0
    elif o.context < 0:
        o.context = 3
    if not o.tabsize:
        o.tabsize = 8
    if not o.width:
        o.width = 130
    t = 1 if o.expand_tabs else o.tabsize
    off = (o.width + t + 3) // (2 * t) * t
    o.half_width = max(0, min(off - 3, o.width - off))
    o.column2 = off if o.half_width else o.width
    o.horizon = max(o.horizon, o.context)
    if o.ignore_re:
        try:
            o.ignore_rx = compile_bre("\\|".join(o.ignore_re) if len(o.ignore_re) > 1
                                      else o.ignore_re[0])
        except BREError as e:
            raise Trouble(f"{o.ignore_re[0]}: {e}") from None
    if o.function_re:
        try:
            o.function_rx = compile_bre("\\|".join(o.function_re) if len(o.function_re) > 1
                                        else o.function_re[0])
        except BREError as e:
            raise Trouble(f"{o.function_re[0]}: {e}") from None
    o.switch_string = "".join(" " + _shell_quote(w) for w in words)
    return None, o, operands


# --------------------------------------------------------------- file data
class FileData:
    __slots__ = ("name", "label", "exists", "st", "is_stdin", "data", "lines", "missing",
                 "err", "mode")

    def __init__(self, name: str):
        self.name = name
        self.label: str | None = None
        self.exists = True
        self.st = None
        self.is_stdin = False
        self.data: bytes | None = None
        self.lines: list[bytes] | None = None
        self.missing = False
        self.err = 0
        self.mode = 0


def file_type(st) -> str:
    m = st.st_mode
    if _stat.S_ISREG(m):
        return "regular empty file" if st.st_size == 0 else "regular file"
    if _stat.S_ISDIR(m):
        return "directory"
    if _stat.S_ISLNK(m):
        return "symbolic link"
    if _stat.S_ISFIFO(m):
        return "fifo"
    if _stat.S_ISCHR(m):
        return "character special file"
    if _stat.S_ISBLK(m):
        return "block special file"
    if _stat.S_ISSOCK(m):
        return "socket"
    return "weird file"


class Diff:
    def __init__(self, shell: Shell, o: Options):
        self.shell = shell
        self.o = o
        self.out = Out(shell.stdout)
        self.tz = get_tz(shell.env)
        self.stdin_data: bytes | None = None
        self.now = time.time_ns()

    async def err(self, msg: str) -> None:
        await self.out.flush()
        await self.shell.error("diff", msg)

    # ------------------------------------------------------------ stat/open
    def _stat(self, f: FileData) -> None:
        if f.name == "-" or f.name == "/dev/stdin" or f.name.startswith("/dev/fd/"):
            # the shell's own fds (stdin, process substitution): read as streams
            f.is_stdin = True
            f.mode = _stat.S_IFIFO | 0o600
            return
        try:
            f.st = self.shell.fs.stat(f.name)
            f.mode = f.st.st_mode
        except FileSystemError as e:
            f.err = e.errno or errno.ENOENT
        except OSError as e:
            f.err = e.errno or errno.EIO

    def _is_dir(self, f: FileData) -> bool:
        return f.exists and not f.err and _stat.S_ISDIR(f.mode)

    async def _read(self, f: FileData) -> bool:
        if not f.exists:
            f.data = b""
            return True
        if f.data is not None:
            return True
        try:
            if f.is_stdin and f.name == "-":
                if self.stdin_data is None:
                    self.stdin_data = await self.shell.stdin.read()
                f.data = self.stdin_data
            elif f.is_stdin:
                stream = self.shell.open_input(f.name)
                try:
                    f.data = await stream.read()
                finally:
                    stream.close()
            else:
                with self.shell.fs.open(f.name, "rb") as fh:
                    f.data = fh.read()
        except (FileSystemError, OSError) as e:
            await self.err(f"{f.name}: {strerror(e.errno)}")
            return False
        if self.o.strip_cr:
            f.data = f.data.replace(b"\r\n", b"\n")
        return True

    # ----------------------------------------------------------- top level
    async def compare_top(self, name0: str, name1: str) -> int:
        f0, f1 = FileData(name0), FileData(name1)
        self._stat(f0)
        if name1 == name0 and name0 != "-":
            f1.st, f1.mode, f1.err = f0.st, f0.mode, f0.err
        else:
            self._stat(f1)
        if not f0.err and not f1.err and self._is_dir(f0) != self._is_dir(f1):
            dir_f, file_f = (f0, f1) if self._is_dir(f0) else (f1, f0)
            if file_f.is_stdin:
                raise Trouble("cannot compare '-' to a directory")
            base = file_f.name.rstrip("/").rsplit("/", 1)[-1]
            dir_f.name = _join(dir_f.name, base)
            dir_f.err = 0
            self._stat(dir_f)
        o = self.o
        for f, g in ((f0, f1), (f1, f0)):
            if ((o.new_file or (f is f0 and o.unidirectional))
                    and f.err in (errno.ENOENT, errno.ENOTDIR)
                    and g.err not in (errno.ENOENT, errno.ENOTDIR)):
                f.exists = False
                f.err = 0
        return await self._compare_prepped(f0, f1, None)

    async def _compare_prepped(self, f0: FileData, f1: FileData, parent) -> int:
        o = self.o
        for f, g in ((f0, f1), (f1, f0)):
            if not f.exists:
                f.mode = g.mode
        status = 0
        for f in (f0, f1):
            if f.err:
                await self.err(f"{f.name}: {strerror(f.err)}")
                status = 2
        if status:
            return status
        if not f0.exists and not f1.exists:
            return 0
        toplevel = parent is None
        same = (f0.exists and f1.exists and not f0.is_stdin and not f1.is_stdin
                and f0.st is not None and f1.st is not None
                and (f0.st.st_dev, f0.st.st_ino) == (f1.st.st_dev, f1.st.st_ino)
                and f0.st.st_ino != 0)
        if same and o.style != SDIFF:
            return await self._identical(f0, f1, 0)
        d0, d1 = _stat.S_ISDIR(f0.mode), _stat.S_ISDIR(f1.mode)
        if (d0 and d1) or (o.recursive and (
                (o.new_file and d1 and not f0.exists)
                or ((o.new_file or o.unidirectional) and d0 and not f1.exists))):
            if o.recursive or toplevel:
                return await self.diff_dirs(f0, f1)
            await self.out.text(f"Common subdirectories: {f0.name} and {f1.name}\n")
            return 0
        if (not f0.exists and not (o.new_file or o.unidirectional)) or (
                not f1.exists and not o.new_file):
            existing = f1 if not f0.exists else f0
            dname = parent[0 if existing is f0 else 1]
            await self.out.text(f"Only in {dname}: {existing.name.rsplit('/', 1)[-1]}\n")
            return 1
        m0, m1 = f0.mode, f1.mode
        if toplevel:
            mismatch = False
        elif _stat.S_ISREG(m0):
            mismatch = not _stat.S_ISREG(m1)
        elif _stat.S_ISCHR(m0):
            mismatch = not _stat.S_ISCHR(m1)
        elif _stat.S_ISBLK(m0):
            mismatch = not _stat.S_ISBLK(m1)
        else:
            mismatch = True
        if d0 != d1 and not toplevel:
            mismatch = True
        if mismatch:
            t0 = file_type(f0.st) if f0.st is not None else "fifo"
            t1 = file_type(f1.st) if f1.st is not None else "fifo"
            if not f0.exists:
                t0 = t1
            if not f1.exists:
                t1 = t0
            n0 = self.o.labels[0] if len(self.o.labels) > 0 else f0.name
            n1 = self.o.labels[1] if len(self.o.labels) > 1 else f1.name
            await self.out.text(f"File {n0} is a {t0} while file {n1} is a {t1}\n")
            return 1
        if not toplevel and not _stat.S_ISREG(m0) and f0.exists and f1.exists:
            if f0.st is not None and f1.st is not None and f0.st.st_rdev == f1.st.st_rdev:
                return 0
        status = await self.diff_2_files(f0, f1, parent)
        return await self._identical(f0, f1, status)

    async def _identical(self, f0: FileData, f1: FileData, status: int) -> int:
        if status == 0 and self.o.report_identical and not _stat.S_ISDIR(f0.mode):
            n0 = self.o.labels[0] if len(self.o.labels) > 0 else f0.name
            n1 = self.o.labels[1] if len(self.o.labels) > 1 else f1.name
            await self.out.text(f"Files {n0} and {n1} are identical\n")
        return status

    async def diff_dirs(self, f0: FileData, f1: FileData) -> int:
        names = []
        for f in (f0, f1):
            if not f.exists:
                names.append([])
                continue
            try:
                listing = self.shell.fs.listdir(f.name)
            except (FileSystemError, OSError) as e:
                await self.err(f"{f.name}: {strerror(e.errno)}")
                return 2
            names.append([n for n in listing if not self._excluded(n)])
        a, b = set(names[0]), set(names[1])
        status = 0
        parent = (f0.name, f1.name)
        for name in sorted(a | b):
            self.shell.budget.check()
            s = await self.compare_child(parent, name if name in a else None,
                                         name if name in b else None)
            status = max(status, s)
        return status

    def _excluded(self, name: str) -> bool:
        return any(fnmatch.fnmatchcase(name, p) for p in self.o.excludes)

    async def compare_child(self, parent: tuple[str, str], name0: str | None,
                            name1: str | None) -> int:
        o = self.o
        if not ((name0 and name1) or (o.unidirectional and name1) or o.new_file):
            name = name0 or name1
            d = parent[0] if name0 else parent[1]
            await self.out.text(f"Only in {d}: {name}\n")
            return 1
        n0 = name0 or name1
        n1 = name1 or name0
        f0, f1 = FileData(_join(parent[0], n0)), FileData(_join(parent[1], n1))
        if name0:
            self._stat(f0)
        else:
            f0.exists = False
        if name1:
            self._stat(f1)
        else:
            f1.exists = False
        return await self._compare_prepped(f0, f1, parent)

    # ------------------------------------------------------------ two files
    async def diff_2_files(self, f0: FileData, f1: FileData, parent) -> int:
        o = self.o
        label0 = o.labels[0] if len(o.labels) > 0 else f0.name
        label1 = o.labels[1] if len(o.labels) > 1 else f1.name
        can_binary = (o.brief and not (o.ignore_blank or o.ignore_case or o.strip_cr
                                       or o.ignore_re or o.white))
        if (can_binary and f0.exists and f1.exists and f0.st is not None and f1.st is not None
                and _stat.S_ISREG(f0.mode) and _stat.S_ISREG(f1.mode)
                and f0.st.st_size != f1.st.st_size):
            await self.out.text(f"Files {label0} and {label1} differ\n")
            return 1
        if not await self._read(f0) or not await self._read(f1):
            return 2
        binary = False
        if not o.text:
            for f in (f0, f1):
                blk = 4096
                if f.st is not None and getattr(f.st, "st_blksize", 0):
                    blk = max(f.st.st_blksize, 4096)
                if b"\0" in f.data[:blk]:
                    binary = True
        if binary or can_binary:
            if f0.data == f1.data:
                return 0
            if binary and not o.brief:
                await self.out.text(f"Binary files {label0} and {label1} differ\n")
            else:
                await self.out.text(f"Files {label0} and {label1} differ\n")
            return 1
        for f in (f0, f1):
            data = f.data
            f.missing = bool(data) and not data.endswith(b"\n")
            lines = data.split(b"\n")
            if not f.missing:
                lines.pop()
            f.lines = lines
        robust = o.style not in (ED, FORWARD_ED)
        script = core.compare(
            f0.lines, f1.lines, missing0=f0.missing and robust, missing1=f1.missing and robust,
            ignore_case=o.ignore_case, white=o.white, tabsize=o.tabsize,
            horizon=o.horizon if o.style != SDIFF else 0, minimal=o.minimal,
            heuristic=o.heuristic, check=self.shell.budget.check)
        if o.ignore_blank or o.ignore_rx is not None:
            changes = any(self.analyze([c], f0, f1)[0] for c in script)
        else:
            changes = bool(script)
        if o.brief:
            if changes:
                await self.out.text(f"Files {label0} and {label1} differ\n")
            return 1 if changes else 0
        status = 1 if changes else 0
        if changes or o.style == SDIFF:
            self.header_done = False
            self.pending_header = (f0, f1, parent)
            if o.style == SDIFF:
                await self._begin()
            if o.style in (CONTEXT, UNIFIED):
                await self.print_context(script, f0, f1, o.style == UNIFIED)
            elif o.style == NORMAL:
                await self.print_normal(script, f0, f1)
            elif o.style == SDIFF:
                await self.print_sdiff(script, f0, f1)
            elif o.style in (ED, FORWARD_ED):
                await self.print_ed(script, f0, f1, o.style == FORWARD_ED)
            elif o.style == RCS:
                await self.print_rcs(script, f0, f1)
            if not robust:
                for f, lab in ((f0, label0), (f1, label1)):
                    if f.missing:
                        await self.err(f"{lab}: No newline at end of file\n")
                        status = 2
        return status

    async def _begin(self) -> None:
        if self.header_done:
            return
        self.header_done = True
        f0, f1, parent = self.pending_header
        o = self.o
        if parent is not None:
            await self.out.text(f"diff{o.switch_string} {f0.name} {f1.name}\n")
        if o.style in (CONTEXT, UNIFIED):
            marks = ("---", "+++") if o.style == UNIFIED else ("***", "---")
            for i, (mark, f) in enumerate(zip(marks, (f0, f1), strict=True)):
                if len(o.labels) > i:
                    await self.out.text(f"{mark} {o.labels[i]}\n")
                else:
                    await self.out.text(f"{mark} {f.name}\t{self._time(f)}\n")

    def _time(self, f: FileData) -> str:
        if f.is_stdin:
            ns = self.now
        elif not f.exists or f.st is None:
            ns = 0
        else:
            ns = f.st.st_mtime_ns
        sec, nsec = divmod(ns, 1_000_000_000)
        dt = localtime(sec, self.tz)
        return dt.strftime("%Y-%m-%d %H:%M:%S") + f".{nsec:09d} " + format_offset(dt)

    # -------------------------------------------------------- hunk analysis
    def _trivial(self, line: bytes) -> bool:
        o = self.o
        if o.ignore_blank:
            if line == b"" or (o.white >= core.WS_TRAILING and not line.strip(b" \t\v\f\r")):
                return True
        if o.ignore_rx is not None:
            from pysh.shellkit.text import decode

            if o.ignore_rx.search(decode(line)):
                return True
        return False

    def analyze(self, hunk, f0: FileData, f1: FileData):
        """(changes, first0, last0, first1, last1) as GNU's analyze_hunk."""
        trivial = self.o.ignore_blank or self.o.ignore_rx is not None
        show_from = show_to = 0
        first0, first1 = hunk[0][0], hunk[0][1]
        l0 = l1 = 0
        for line0, line1, deleted, inserted in hunk:
            l0 = line0 + deleted - 1
            l1 = line1 + inserted - 1
            show_from += deleted
            show_to += inserted
            if trivial:
                for i in range(line0, l0 + 1):
                    if not self._trivial(f0.lines[i]):
                        trivial = False
                        break
            if trivial:
                for i in range(line1, l1 + 1):
                    if not self._trivial(f1.lines[i]):
                        trivial = False
                        break
        if trivial:
            return 0, first0, l0, first1, l1
        return (OLD if show_from else 0) | (NEW if show_to else 0), first0, l0, first1, l1

    def hunks(self, script, f0, f1, context: int):
        """Split the script into hunks as GNU's find_hunk (ignorable changes bridge less)."""
        ignorable = [False] * len(script)
        if self.o.ignore_blank or self.o.ignore_rx is not None:
            ignorable = [not self.analyze([c], f0, f1)[0] for c in script]
        out = []
        i = 0
        n = len(script)
        non_ign = 2 * context + 1
        while i < n:
            j = i
            while True:
                top0 = script[j][0] + script[j][2]
                if j + 1 >= n:
                    break
                thresh = context if ignorable[j + 1] else non_ign
                if script[j + 1][0] - top0 >= thresh:
                    break
                j += 1
            out.append(script[i:j + 1])
            i = j + 1
        return out

    # -------------------------------------------------------------- output
    def _line_text(self, line: bytes, flag_format: str | None = None,
                   line_flag: str = "") -> bytes:
        if not self.o.expand_tabs:
            return line
        out = bytearray()
        col = 0
        ts = self.o.tabsize
        for idx, c in enumerate(line):
            if c == 9:
                spaces = ts - col % ts
                col += spaces
                out += b" " * spaces
            elif c == 13:
                out.append(c)
                if flag_format is not None and idx + 1 < len(line):
                    out += encode(flag_format % line_flag)
                col = 0
            elif c == 8:
                if col == 0:
                    continue
                col -= 1
                out.append(c)
            else:
                col += 1 if 32 <= c < 127 else 0
                out.append(c)
        return bytes(out)

    async def _print_1_line(self, flag: str, f: FileData, i: int) -> None:
        """GNU print_1_line: FLAG, a space (or tab), the text, its newline or the marker."""
        o = self.o
        line = f.lines[i]
        fmt = "%s\t" if o.initial_tab else "%s "
        if flag:
            if o.suppress_blank_empty and line == b"":
                await self.out.text(flag[1:] if flag.startswith(" ") else flag)
            else:
                await self.out.text(fmt % flag)
        await self.out.write(self._line_text(line, fmt if flag else None, flag))
        await self._eol(f, i)

    async def _eol(self, f: FileData, i: int) -> None:
        if i == len(f.lines) - 1 and f.missing:
            await self.out.write(b"\n\\ No newline at end of file\n")
        else:
            await self.out.write(b"\n")

    @staticmethod
    def _range(sep: str, a: int, b: int) -> str:
        ta, tb = a + 1, b + 1
        return f"{ta}{sep}{tb}" if tb > ta else f"{tb}"

    async def print_normal(self, script, f0, f1) -> None:
        for change in script:
            kind, first0, last0, first1, last1 = self.analyze([change], f0, f1)
            if not kind:
                continue
            await self._begin()
            letter = {OLD: "d", NEW: "a", OLD | NEW: "c"}[kind]
            await self.out.text(self._range(",", first0, last0) + letter
                                + self._range(",", first1, last1) + "\n")
            if kind & OLD:
                for i in range(first0, last0 + 1):
                    await self._print_1_line("<", f0, i)
            if kind == OLD | NEW:
                await self.out.write(b"---\n")
            if kind & NEW:
                for i in range(first1, last1 + 1):
                    await self._print_1_line(">", f1, i)

    def find_function(self, f0, linenum: int) -> bytes | None:
        """GNU find_function: the last line before LINENUM matching -p/-F, searching back."""
        from pysh.shellkit.text import decode

        i = linenum
        last = self.ff_last_search
        self.ff_last_search = i
        rx = self.o.function_rx
        while last <= i - 1:
            i -= 1
            if rx.search(decode(f0.lines[i])):
                self.ff_last_match = i
                return f0.lines[i]
        if self.ff_last_match is not None:
            return f0.lines[self.ff_last_match]
        return None

    @staticmethod
    def _function_text(line: bytes) -> bytes:
        i = 0
        while i < len(line) and line[i] in b" \t\v\f\r":
            i += 1
        j = min(len(line), i + 40)
        while j > i and line[j - 1] in b" \t\v\f\r":
            j -= 1
        return b" " + line[i:j]

    async def print_context(self, script, f0, f1, unified: bool) -> None:
        ctx = self.o.context
        self.ff_last_search = 0
        self.ff_last_match = None
        for hunk in self.hunks(script, f0, f1, ctx):
            self.shell.budget.check()
            kind, first0, last0, first1, last1 = self.analyze(hunk, f0, f1)
            if not kind:
                continue
            first0 = max(first0 - ctx, 0)
            first1 = max(first1 - ctx, 0)
            n0, n1 = len(f0.lines), len(f1.lines)
            last0 = last0 + ctx if last0 < n0 - ctx else n0 - 1
            last1 = last1 + ctx if last1 < n1 - ctx else n1 - 1
            func = None
            if self.o.function_rx is not None:
                func = self.find_function(f0, first0)
            await self._begin()
            if unified:
                await self._unified_hunk(hunk, f0, f1, first0, last0, first1, last1, func)
            else:
                await self._context_hunk(hunk, kind, f0, f1, first0, last0, first1, last1, func)

    @staticmethod
    def _unified_range(a: int, b: int) -> str:
        ta, tb = a + 1, b + 1
        if tb <= ta:
            return f"{tb},0" if tb < ta else f"{tb}"
        return f"{ta},{tb - ta + 1}"

    async def _unified_hunk(self, hunk, f0, f1, first0, last0, first1, last1,
                            func=None) -> None:
        o = self.o
        out = self.out
        await out.text(f"@@ -{self._unified_range(first0, last0)} "
                       f"+{self._unified_range(first1, last1)} @@")
        if func is not None:
            await out.write(self._function_text(func))
        await out.write(b"\n")
        i, j = first0, first1
        k = 0
        lead_ctx = b"\t" if o.initial_tab else b" "
        while i <= last0 or j <= last1:
            nxt = hunk[k] if k < len(hunk) else None
            if nxt is None or i < nxt[0]:
                line = f0.lines[i]
                if not (o.suppress_blank_empty and line == b""):
                    await out.write(lead_ctx)
                await out.write(self._line_text(line))
                await self._eol(f0, i)
                i += 1
                j += 1
                continue
            for _ in range(nxt[2]):
                line = f0.lines[i]
                await out.write(b"-")
                if o.initial_tab and not (o.suppress_blank_empty and line == b""):
                    await out.write(b"\t")
                await out.write(self._line_text(line))
                await self._eol(f0, i)
                i += 1
            for _ in range(nxt[3]):
                line = f1.lines[j]
                await out.write(b"+")
                if o.initial_tab and not (o.suppress_blank_empty and line == b""):
                    await out.write(b"\t")
                await out.write(self._line_text(line))
                await self._eol(f1, j)
                j += 1
            k += 1

    @staticmethod
    def _context_range(a: int, b: int) -> str:
        ta, tb = a + 1, b + 1
        return f"{tb}" if tb <= ta else f"{ta},{tb}"

    async def _context_hunk(self, hunk, kind, f0, f1, first0, last0, first1, last1,
                            func=None) -> None:
        out = self.out
        await out.text("***************")
        if func is not None:
            await out.write(self._function_text(func))
        await out.write(b"\n")
        await out.text(f"*** {self._context_range(first0, last0)} ****\n")
        if kind & OLD:
            k = 0
            for i in range(first0, last0 + 1):
                while k < len(hunk) and hunk[k][0] + hunk[k][2] <= i:
                    k += 1
                prefix = " "
                if k < len(hunk) and hunk[k][0] <= i:
                    prefix = "!" if hunk[k][3] > 0 else "-"
                await self._print_1_line(prefix, f0, i)
        await out.text(f"--- {self._context_range(first1, last1)} ----\n")
        if kind & NEW:
            k = 0
            for i in range(first1, last1 + 1):
                while k < len(hunk) and hunk[k][1] + hunk[k][3] <= i:
                    k += 1
                prefix = " "
                if k < len(hunk) and hunk[k][1] <= i:
                    prefix = "!" if hunk[k][2] > 0 else "+"
                await self._print_1_line(prefix, f1, i)

    async def print_ed(self, script, f0, f1, forward: bool) -> None:
        order = script if forward else list(reversed(script))
        for change in order:
            kind, first0, last0, first1, last1 = self.analyze([change], f0, f1)
            if not kind:
                continue
            await self._begin()
            letter = {OLD: "d", NEW: "a", OLD | NEW: "c"}[kind]
            if forward:
                await self.out.text(letter + self._range(" ", first0, last0) + "\n")
            else:
                await self.out.text(self._range(",", first0, last0) + letter + "\n")
            if kind & NEW:
                inserting = True
                for i in range(first1, last1 + 1):
                    if not inserting:
                        await self.out.write(b"a\n")
                        inserting = True
                    line = f1.lines[i]
                    if line == b"." and not forward:
                        await self.out.write(b"..\n.\ns/.//\n")
                        inserting = False
                        continue
                    await self.out.write(line + b"\n")
                if inserting:
                    await self.out.write(b".\n")

    async def print_rcs(self, script, f0, f1) -> None:
        for change in script:
            kind, first0, last0, first1, last1 = self.analyze([change], f0, f1)
            if not kind:
                continue
            await self._begin()
            if kind & OLD:
                await self.out.text(f"d{first0 + 1} {last0 - first0 + 1}\n")
            if kind & NEW:
                await self.out.text(f"a{last0 + 1} {last1 - first1 + 1}\n")
                for i in range(first1, last1 + 1):
                    line = f1.lines[i]
                    await self.out.write(line)
                    if not (i == len(f1.lines) - 1 and f1.missing):
                        await self.out.write(b"\n")

    # ------------------------------------------------------- side by side
    def _tab_from_to(self, buf: bytearray, frm: int, to: int) -> int:
        ts = self.o.tabsize
        if not self.o.expand_tabs:
            tab = frm + ts - frm % ts
            while tab <= to:
                buf.append(9)
                frm = tab
                tab += ts
        while frm < to:
            buf.append(32)
            frm += 1
        return to

    def _half_line(self, buf: bytearray, line: bytes, indent: int, out_bound: int) -> int:
        ts = self.o.tabsize
        expand = self.o.expand_tabs
        in_pos = out_pos = 0
        k = 0
        n = len(line)
        while k < n:
            c = line[k]
            k += 1
            if c >= 0xC2:
                w, size = _mb_width(line, k - 1)
                if size:
                    k += size - 1
                    in_pos += w
                    if in_pos <= out_bound:
                        out_pos = in_pos
                        buf += line[k - size:k]
                    continue
            if c == 9:
                spaces = ts - in_pos % ts
                if in_pos == out_pos:
                    tabstop = out_pos + spaces
                    if expand:
                        if out_bound < tabstop:
                            tabstop = out_bound
                        while out_pos < tabstop:
                            buf.append(32)
                            out_pos += 1
                    elif tabstop < out_bound:
                        out_pos = tabstop
                        buf.append(c)
                in_pos += spaces
            elif c == 13:
                buf.append(c)
                self._tab_from_to(buf, 0, indent)
                in_pos = out_pos = 0
            elif c == 8:
                if in_pos != 0:
                    in_pos -= 1
                    if in_pos < out_bound:
                        if out_pos <= in_pos:
                            while out_pos < in_pos:
                                buf.append(32)
                                out_pos += 1
                        else:
                            out_pos = in_pos
                            buf.append(c)
            elif 32 <= c < 127:
                if in_pos < out_bound:
                    in_pos += 1
                    out_pos = in_pos
                    buf.append(c)
                else:
                    in_pos += 1
            else:
                if in_pos < out_bound:
                    buf.append(c)
        return out_pos

    async def _sdiff_line(self, f0, i0: int | None, sep: str, f1, i1: int | None) -> None:
        hw = self.o.half_width
        c2o = self.o.column2
        buf = bytearray()
        col = 0
        put_newline = False
        if i0 is not None:
            put_newline |= not (i0 == len(f0.lines) - 1 and f0.missing)
            col = self._half_line(buf, f0.lines[i0], 0, hw)
        if sep != " ":
            col = self._tab_from_to(buf, col, (hw + c2o - 1) // 2) + 1
            if sep == "|" and put_newline != (not (i1 == len(f1.lines) - 1 and f1.missing)):
                sep = "/" if put_newline else "\\"
            buf += sep.encode()
        if i1 is not None:
            right_nl = not (i1 == len(f1.lines) - 1 and f1.missing)
            put_newline |= right_nl
            if f1.lines[i1] != b"" or not right_nl:
                col = self._tab_from_to(buf, col, c2o)
                self._half_line(buf, f1.lines[i1], col, hw)
        if put_newline:
            buf.append(10)
        await self.out.write(bytes(buf))

    async def _sdiff_common(self, f0, f1, limit0: int, limit1: int) -> None:
        i0, i1 = self.next0, self.next1
        if not self.o.suppress_common and (i0 != limit0 or i1 != limit1):
            if not self.o.left_column:
                while i0 != limit0 and i1 != limit1:
                    await self._sdiff_line(f0, i0, " ", f1, i1)
                    i0 += 1
                    i1 += 1
                while i1 != limit1:
                    await self._sdiff_line(f0, None, ")", f1, i1)
                    i1 += 1
            while i0 != limit0:
                await self._sdiff_line(f0, i0, "(", f1, None)
                i0 += 1
        self.next0, self.next1 = limit0, limit1

    async def print_sdiff(self, script, f0, f1) -> None:
        self.next0 = self.next1 = 0
        for change in script:
            self.shell.budget.check()
            kind, first0, last0, first1, last1 = self.analyze([change], f0, f1)
            if not kind:
                continue
            await self._sdiff_common(f0, f1, first0, first1)
            if kind == OLD | NEW:
                i, j = first0, first1
                while i <= last0 and j <= last1:
                    await self._sdiff_line(f0, i, "|", f1, j)
                    i += 1
                    j += 1
                kind = (OLD if i <= last0 else 0) | (NEW if j <= last1 else 0)
                self.next0 = first0 = i
                self.next1 = first1 = j
            if kind & NEW:
                for j in range(first1, last1 + 1):
                    await self._sdiff_line(f0, None, ">", f1, j)
                self.next1 = last1 + 1
            if kind & OLD:
                for i in range(first0, last0 + 1):
                    await self._sdiff_line(f0, i, "<", f1, None)
                self.next0 = last0 + 1
        await self._sdiff_common(f0, f1, len(f0.lines), len(f1.lines))


def _mb_width(line: bytes, k: int) -> tuple[int, int]:
    """(display width, byte length) of the UTF-8 character at ``line[k]``; (0, 0) if invalid."""
    c = line[k]
    size = 2 if c < 0xE0 else 3 if c < 0xF0 else 4 if c < 0xF5 else 0
    if not size:
        return 0, 0
    try:
        ch = line[k:k + size].decode("utf-8")
    except UnicodeDecodeError:
        return 0, 0
    import unicodedata

    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
        return 0, size
    return (2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1), size


def _join(d: str, name: str) -> str:
    return d + name if d.endswith("/") else f"{d}/{name}"


@on_write_error(2, "{prog}: standard output: {strerror}\n")
async def main(shell: Shell, argv: list[str]) -> int:
    try:
        special, o, operands = parse(shell, argv)
    except UsageError as e:
        await shell.error("diff", str(e))
        await shell.error("diff", "Try 'diff --help' for more information.")
        return 2
    except Trouble as e:
        await shell.error("diff", str(e))
        return 2
    if special == "help":
        await shell.stdout.write(encode(HELP))
        return 0
    if special == "v":
        await shell.stdout.write(b"diff (GNU diffutils) 3.8\n")
        return 0
    d = Diff(shell, o)
    status = 0
    try:
        if o.from_file is not None or o.to_file is not None:
            if o.from_file is not None and o.to_file is not None:
                raise Trouble("--from-file and --to-file both specified")
            for op in operands:
                pair = (o.from_file, op) if o.from_file is not None else (op, o.to_file)
                status = max(status, await d.compare_top(*pair))
        else:
            if len(operands) != 2:
                await d.out.flush()
                if len(operands) < 2:
                    last = argv[-1] if len(argv) > 1 else "diff"
                    await shell.error("diff", f"missing operand after '{last}'")
                else:
                    await shell.error("diff", f"extra operand '{operands[2]}'")
                await shell.error("diff", "Try 'diff --help' for more information.")
                return 2
            status = await d.compare_top(operands[0], operands[1])
    except Trouble as e:
        await d.out.flush()
        await shell.error("diff", str(e))
        return 2
    await d.out.flush()
    return status
