"""sed: GNU sed 4.9 through the FileSystem door.

The compiler follows GNU's (sed/compile.c) character by character, so error
messages carry the same ``-e expression #N, char M`` positions; the executor
follows sed/execute.c: the same cycle, address ranges, append queue, missing
final newline, ``D`` restart, ``n``/``N`` at end of input, ``q``/``Q`` exit codes.
Regular expressions go through :mod:`pysh.shellkit.regex` (POSIX BRE/ERE, glibc
dialect, leftmost-longest). Text is handled as ``str`` decoded with
surrogateescape, so bytes that are not UTF-8 pass through unchanged.

Refused: the ``e`` command and the ``s///e`` flag (they would run a host
command). ``--debug`` is accepted and does nothing. In-place editing writes a
temporary file in the file's directory through the door and renames it over the
original (keeping its mode), after renaming the original to the backup name
when a suffix is given.
"""

from __future__ import annotations

import errno
import os
import secrets
import stat as _stat

from pysh.shellkit import on_write_error
from pysh.shellkit.errors import FileSystemError
from pysh.shellkit.options import OptionError, parse_options
from pysh.shellkit.regex import RegexError, compile_posix
from pysh.shellkit.text import decode, encode

HELP = """\
Usage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...

  -n, --quiet, --silent
                 suppress automatic printing of pattern space
      --debug
                 annotate program execution
  -e script, --expression=script
                 add the script to the commands to be executed
  -f script-file, --file=script-file
                 add the contents of script-file to the commands to be executed
  --follow-symlinks
                 follow symlinks when processing in place
  -i[SUFFIX], --in-place[=SUFFIX]
                 edit files in place (makes backup if SUFFIX supplied)
  -l N, --line-length=N
                 specify the desired line-wrap length for the `l' command
  --posix
                 disable all GNU extensions.
  -E, -r, --regexp-extended
                 use extended regular expressions in the script
                 (for portability use POSIX -E).
  -s, --separate
                 consider files as separate rather than as a single,
                 continuous long stream.
      --sandbox
                 operate in sandbox mode (disable e/r/w commands).
  -u, --unbuffered
                 load minimal amounts of data from the input files and flush
                 the output buffers more often
  -z, --null-data
                 separate lines by NUL characters
      --help     display this help and exit
      --version  output version information and exit

If no -e, --expression, -f, or --file option is given, then the first
non-option argument is taken as the sed script to interpret.  All
remaining arguments are names of input files; if no input files are
specified, then the standard input is read.

GNU sed home page: <https://www.gnu.org/software/sed/>.
General help using GNU software: <https://www.gnu.org/gethelp/>.
"""

VERSION = """\
sed (GNU sed) 4.9 (pysh)
License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.
This is free software: you are free to change and redistribute it.
There is NO WARRANTY, to the extent permitted by law.
"""

SHORT = "bnrsuzEe:f:i::l:"
LONG = {
    "quiet": "n", "silent": "n", "expression=": "e", "file=": "f", "in-place?": "i",
    "line-length=": "l", "null-data": "z", "zero-terminated": "z", "regexp-extended": "E",
    "separate": "s", "sandbox": "sandbox", "unbuffered": "u", "binary": "b",
    "follow-symlinks": "follow-symlinks", "posix": "posix", "debug": "debug",
    "help": "help", "version": "version",
}

EXIT_BAD_USAGE = 1
EXIT_BAD_INPUT = 2
EXIT_PANIC = 4

CHUNK = 256 * 1024
FLUSH = 64 * 1024

# address types
A_NULL, A_REGEX, A_NUM, A_NUM_MOD, A_STEP, A_STEP_MOD, A_LAST = range(7)
# range states
R_INACTIVE, R_ACTIVE, R_CLOSED = range(3)
# replacement case types (sed.h)
REPL_ASIS, REPL_UPPERCASE, REPL_LOWERCASE = 0, 1, 2
REPL_UPPERCASE_FIRST, REPL_LOWERCASE_FIRST = 4, 8
REPL_MODIFIERS = REPL_UPPERCASE_FIRST | REPL_LOWERCASE_FIRST


class SedError(Exception):
    """Stop with ``message`` on stderr (already formatted, without 'sed: ') and ``status``."""

    def __init__(self, message: str, status: int = EXIT_BAD_USAGE):
        super().__init__(message)
        self.message = message
        self.status = status


# ------------------------------------------------------------------ compiled form
class Addr:
    __slots__ = ("type", "number", "step", "regex")

    def __init__(self):
        self.type = A_NULL
        self.number = -1
        self.step = 0
        self.regex = None  # a _Re, or None for the empty regex (the last one used)


class Cmd:
    __slots__ = ("a1", "a2", "bang", "cmd", "range_state", "text", "label", "jump", "subst",
                 "fname", "outf", "int_arg", "ymap", "inf", "append")

    def __init__(self):
        self.a1: Addr | None = None
        self.a2: Addr | None = None
        self.bang = False
        self.cmd = ""
        self.range_state = R_INACTIVE
        self.text: str | None = None
        self.label: str | None = None
        self.jump = -1
        self.subst: Subst | None = None
        self.fname: str | None = None
        self.outf = None
        self.int_arg = -1
        self.ymap: dict | None = None
        self.inf = None
        self.append = True


class Subst:
    __slots__ = ("regex", "replacement", "global_", "print_", "numb", "outf", "max_id",
                 "simple", "template")

    def __init__(self):
        self.regex = None
        self.replacement: list = []  # (prefix, group or -1, type)
        self.global_ = False
        self.print_ = 0
        self.numb = 0
        self.outf = None
        self.max_id = 0
        self.simple: str | None = None  # the replacement when it is plain text
        self.template: str | None = None  # ... as a regex-engine template, without case ops


class _Re:
    """A compiled sed regex, the text and flags it was written with, and a line variant."""

    __slots__ = ("rx", "raw", "limit", "text", "icase", "newline", "extended", "delim",
                 "_line")

    def __init__(self, rx, text: str, icase: bool, newline: bool, extended: bool, delim: str):
        self.rx = rx
        self.raw = rx.raw.search
        # subjects longer than this get the deadline guard (see pysh.shellkit.regex)
        self.limit = (1 << 62) if rx.budget is None else rx._limit  # noqa: SLF001
        self.text = text
        self.icase = icase
        self.newline = newline
        self.extended = extended
        self.delim = delim
        self._line = False

    def search(self, s: str, pos: int = 0):
        if len(s) > self.limit:
            return self.rx.search(s, pos)
        return self.raw(s, pos)

    def line_variant(self):
        """The same pattern for a buffer of many lines (each line one pattern space), or
        None when the pattern could behave differently there (a newline, buffer anchors)."""
        if self._line is False:
            t = self.text
            if self.delim in t or "\\`" in t or "\\'" in t or "\\n" in t:
                self._line = None
            else:
                self._line = compile_posix(t, extended=self.extended, icase=self.icase,
                                           multiline=True, dot_newline=False, eol=self.delim,
                                           dialect="posix", budget=self.rx.budget)
        return self._line


class _TextBuf:
    __slots__ = ("cmd",)


# ------------------------------------------------------------------ compiler
EOF = None


class Compiler:
    def __init__(self, sed: Sed):
        self.sed = sed
        self.cmds: list[Cmd] = []
        self.blocks: list[tuple[int, tuple]] = []  # (index of '{', error location)
        self.labels: dict[str, int] = {}
        self.jumps: list[tuple[int, str]] = []
        self.pending: list[str] | None = None  # text of an a/i/c still being read
        self.pending_cmd: Cmd | None = None
        self.first_script = True
        self.expr_count = 0
        self.src = ""
        self.pos = 0
        self.file_name: str | None = None
        self.line = 0
        self.wfiles: dict[str, _Out] = {}
        self.rfiles: dict[str, _RFile] = {}

    # -- characters --------------------------------------------------------------
    def inchar(self):
        if self.pos < len(self.src):
            ch = self.src[self.pos]
            self.pos += 1
            if ch == "\n":
                self.line += 1
            return ch
        return EOF

    def savchar(self, ch) -> None:
        if ch is EOF:
            return
        if ch == "\n" and self.line > 0:
            self.line -= 1
        self.pos -= 1

    def in_nonblank(self):
        while True:
            ch = self.inchar()
            if ch not in (" ", "\t"):
                return ch

    def in_integer(self, ch) -> int:
        num = 0
        while ch is not EOF and "0" <= ch <= "9":
            num = num * 10 + ord(ch) - 48
            ch = self.inchar()
        self.savchar(ch)
        return num

    def where(self) -> str:
        if self.file_name is not None:
            return f"file {self.file_name} line {self.line}"
        return f"-e expression #{self.expr_count}, char {self.pos}"

    def bad_prog(self, why: str):
        raise SedError(f"{self.where()}: {why}")

    # -- sources -------------------------------------------------------------------------
    def compile_string(self, text: str) -> None:
        self.expr_count += 1
        self.file_name = None
        self.src, self.pos, self.line = text, 0, 0
        self.compile_program()
        self.first_script = False

    def compile_file(self, name: str, text: str) -> None:
        self.file_name = name
        self.src, self.pos, self.line = text, 0, 1
        self.compile_program()
        self.first_script = False
        self.file_name = None

    def finish(self) -> list[Cmd]:
        if self.blocks:
            _, loc = self.blocks[-1]
            kind, a, b = loc
            if kind == "f":
                raise SedError(f"file {a} line {b}: unmatched `{{'")
            raise SedError(f"-e expression #{a}, char 0: unmatched `{{'")
        if self.pending is not None:
            self._store_text(self.pending_cmd, self.pending, final=True)
            self.pending = None
        n = len(self.cmds)
        for idx, name in self.jumps:
            if name in self.labels:
                self.cmds[idx].jump = self.labels[name]
            elif name:
                raise SedError(f"can't find label for jump to `{name}'", EXIT_PANIC)
            else:
                self.cmds[idx].jump = n
        return self.cmds

    # -- pieces ---------------------------------------------------------------------------
    def read_end_of_cmd(self) -> None:
        ch = self.in_nonblank()
        if ch == "}" or ch == "#":
            self.savchar(ch)
        elif ch is not EOF and ch != "\n" and ch != ";":
            self.bad_prog("extra characters after command")

    def read_filename(self) -> str:
        if self.sed.sandbox:
            self.bad_prog("e/r/w commands disabled in sandbox mode")
        out = []
        ch = self.in_nonblank()
        while ch is not EOF and ch != "\n":
            out.append(ch)
            ch = self.inchar()
        return "".join(out)

    def read_label(self) -> str:
        out = []
        ch = self.in_nonblank()
        while ch is not EOF and ch not in "\n \t;}#":
            out.append(ch)
            ch = self.inchar()
        self.savchar(ch)
        return "".join(out)

    def snarf_char_class(self, b: list[str]):
        ch = self.inchar()
        if ch == "^":
            b.append(ch)
            ch = self.inchar()
        if ch == "]":
            b.append(ch)
            ch = self.inchar()
        state = 0
        delim = ""
        while True:
            if ch is EOF or ch == "\n":
                return ch
            if ch in ".:=":
                if state == 1:
                    delim = ch
                    state = 2
                    b.append(ch)
                    ch = self.inchar()
                    continue
                if state == 2 and ch == delim:
                    state = 3
                    b.append(ch)
                    ch = self.inchar()
                    continue
            elif ch == "[":
                if state == 0:
                    state = 1
                b.append(ch)
                ch = self.inchar()
                continue
            elif ch == "]":
                if state in (0, 1):
                    return ch
                if state == 3:
                    state = 0
            state &= ~1
            b.append(ch)
            ch = self.inchar()

    def match_slash(self, slash, regex: bool) -> str | None:
        if slash is EOF:
            return None
        b: list[str] = []
        while True:
            ch = self.inchar()
            if ch is EOF or ch == "\n":
                break
            if ch == slash:
                return "".join(b)
            if ch == "\\":
                ch = self.inchar()
                if ch is EOF:
                    break
                if ch == "n" and regex:
                    ch = "\n"
                elif ch != "\n" and (ch != slash or (not regex and ch == "&")):
                    b.append("\\")
            elif ch == "[" and regex:
                b.append(ch)
                ch = self.snarf_char_class(b)
                if ch != "]":
                    break
            b.append(ch)
        if ch == "\n":
            self.savchar(ch)
        return None

    def compile_regex(self, text: str, icase: bool, newline: bool, needed: int = 0):
        if text == "":
            if icase or newline:
                self.bad_prog("cannot specify modifiers on empty regexp")
            return None
        sed = self.sed
        try:
            rx = compile_posix(text, extended=sed.extended, icase=icase, multiline=newline,
                               dot_newline=not newline, eol=sed.delim, dialect="posix",
                               budget=sed.shell.budget)
        except RegexError as e:
            if e.plain:
                raise SedError(e.message, EXIT_PANIC) from None  # dfa's message: no position
            self.bad_prog(e.message)
        if needed > rx.groups + 1:
            self.bad_prog(f"invalid reference \\{needed - 1} on `s' command's RHS")
        return _Re(rx, text, icase, newline, sed.extended, sed.delim)

    def compile_address(self, addr: Addr, ch) -> bool:
        if ch == "/" or ch == "\\":
            if ch == "\\":
                ch = self.inchar()
            b = self.match_slash(ch, True)
            if b is None:
                self.bad_prog("unterminated address regex")
            icase = newline = False
            while True:
                ch = self.in_nonblank()
                if ch == "I":
                    icase = True
                elif ch == "M":
                    newline = True
                else:
                    self.savchar(ch)
                    break
            addr.type = A_REGEX
            addr.regex = self.compile_regex(normalize_text(self, b, "regex"), icase, newline)
            return True
        if ch is not EOF and "0" <= ch <= "9":
            addr.number = self.in_integer(ch)
            addr.type = A_NUM
            ch = self.in_nonblank()
            if ch != "~":
                self.savchar(ch)
            else:
                step = self.in_integer(self.in_nonblank())
                if step > 0:
                    addr.step = step
                    addr.type = A_NUM_MOD
            return True
        if ch == "+" or ch == "~":
            addr.step = self.in_integer(self.in_nonblank())
            if addr.step > 0:
                addr.type = A_STEP if ch == "+" else A_STEP_MOD
            return True
        if ch == "$":
            addr.type = A_LAST
            return True
        return False

    # -- text of a, i, c -------------------------------------------------------------------
    def read_text(self, cmd: Cmd | None, leadin) -> None:
        if cmd is not None:
            self.pending = []
            self.pending_cmd = cmd
        buf = self.pending
        assert buf is not None
        if leadin is EOF:
            return
        if leadin != "\n":
            buf.append(leadin)
        ch = self.inchar()
        while ch is not EOF and ch != "\n":
            if ch == "\\":
                ch = self.inchar()
                if ch is not EOF:
                    buf.append("\\")
            if ch is EOF:
                buf.append("\n")
                return  # continues in the next -e (GNU: sed -e 'a\' -e text)
            buf.append(ch)
            ch = self.inchar()
        buf.append("\n")
        self._store_text(self.pending_cmd, buf)
        self.pending = None

    def _store_text(self, cmd: Cmd | None, buf: list[str], final: bool = False) -> None:
        if cmd is None:
            return
        cmd.text = normalize_text(self, "".join(buf), "buffer")

    # -- the program ------------------------------------------------------------------------
    def compile_program(self) -> None:
        if self.pending is not None:
            self.read_text(None, "\n")
        cmds = self.cmds
        while True:
            ch = self.inchar()
            while ch == ";" or (ch is not EOF and ch in " \t\n\r\v\f"):
                ch = self.inchar()
            if ch is EOF:
                break
            cmd = Cmd()
            a = Addr()
            if self.compile_address(a, ch):
                if a.type in (A_STEP, A_STEP_MOD):
                    self.bad_prog("invalid usage of +N or ~N as first address")
                cmd.a1 = a
                ch = self.in_nonblank()
                if ch == ",":
                    a2 = Addr()
                    if not self.compile_address(a2, self.in_nonblank()):
                        self.bad_prog("unexpected `,'")
                    cmd.a2 = a2
                    ch = self.in_nonblank()
                if (cmd.a1.type == A_NUM and cmd.a1.number == 0
                        and ((cmd.a2 is None and ch != "r")
                             or (cmd.a2 is not None and cmd.a2.type != A_REGEX)
                             or self.sed.posix)):
                    self.bad_prog("invalid usage of line address 0")
            if ch == "!":
                cmd.bang = True
                ch = self.in_nonblank()
                if ch == "!":
                    self.bad_prog("multiple `!'s")
            cmd.cmd = ch if ch is not EOF else ""
            if self.sed.posix and ch is not EOF:
                if ch in "eFvzLQTRW":
                    self.bad_prog(f"unknown command: `{ch}'")
                if ch in "ail=r" and cmd.a2 is not None:
                    self.bad_prog("command only uses one address")
            if ch == "#":
                if cmd.a1 is not None:
                    self.bad_prog("comments don't accept any addresses")
                ch = self.inchar()
                if (ch == "n" and self.first_script and self.line < 2
                        and self.pos == 2 and (self.pos >= len(self.src)
                                               or self.src[self.pos] == "\n")):
                    self.sed.quiet = True
                while ch is not EOF and ch != "\n":
                    ch = self.inchar()
                continue
            if ch == "v":
                version = self.read_label()
                if _version_newer(version or "4.0", "4.9"):
                    self.bad_prog("expected newer version of sed")
                continue
            if ch == "{":
                loc = (("f", self.file_name, self.line) if self.file_name is not None
                       else ("e", self.expr_count, 0))
                self.blocks.append((len(cmds), loc))
                cmd.bang = not cmd.bang
            elif ch == "}":
                if not self.blocks:
                    self.bad_prog("unexpected `}'")
                if cmd.a1 is not None:
                    self.bad_prog("`}' doesn't want any addresses")
                self.read_end_of_cmd()
                start, _ = self.blocks.pop()
                cmds[start].jump = len(cmds)
            elif ch == "e":
                self.bad_prog("`e' command not supported in the sandbox (it runs a command)")
            elif ch in ("a", "i", "c"):
                ch = self.in_nonblank()
                if ch is EOF:
                    self.bad_prog("expected \\ after `a', `c' or `i'")
                if ch == "\\":
                    ch = self.inchar()
                else:
                    if self.sed.posix:
                        self.bad_prog("expected \\ after `a', `c' or `i'")
                    self.savchar(ch)
                    ch = "\n"
                self.read_text(cmd, ch)
                if cmd.text is None:
                    cmd.text = ""
            elif ch == ":":
                if cmd.a1 is not None:
                    self.bad_prog(": doesn't want any addresses")
                label = self.read_label()
                if not label:
                    self.bad_prog('":" lacks a label')
                self.labels[label] = len(cmds)
            elif ch in ("T", "b", "t"):
                self.jumps.append((len(cmds), self.read_label()))
            elif ch in ("Q", "q", "L", "l"):
                if ch in ("Q", "q") and cmd.a2 is not None:
                    self.bad_prog("command only uses one address")
                ch = self.in_nonblank()
                if ch is not EOF and "0" <= ch <= "9":
                    cmd.int_arg = self.in_integer(ch)
                else:
                    cmd.int_arg = -1
                    self.savchar(ch)
                self.read_end_of_cmd()
            elif ch is not EOF and ch in "=dDFgGhHnNpPzx":
                self.read_end_of_cmd()
            elif ch == "r":
                name = self.read_filename()
                if not name:
                    self.bad_prog("missing filename in r/R/w/W commands")
                cmd.fname = name
                if (cmd.a1 is not None and cmd.a1.type == A_NUM and cmd.a1.number == 0
                        and cmd.a2 is None):
                    cmd.a1.number = 1
                    cmd.append = False
            elif ch == "R":
                name = self.read_filename()
                if not name:
                    self.bad_prog("missing filename in r/R/w/W commands")
                cmd.inf = self.rfiles.setdefault(name, _RFile(name))
            elif ch in ("W", "w"):
                cmd.outf = self.open_wfile()
            elif ch == "s":
                self.compile_s(cmd)
            elif ch == "y":
                self.compile_y(cmd)
            elif ch is EOF:
                self.bad_prog("missing command")
            else:
                self.bad_prog(f"unknown command: `{ch}'")
            cmds.append(cmd)
        if self.sed.posix and self.pending is not None:
            self.bad_prog("incomplete command")

    def open_wfile(self):
        name = self.read_filename()
        if not name:
            self.bad_prog("missing filename in r/R/w/W commands")
        return self.sed.open_wfile(name)

    def compile_s(self, cmd: Cmd) -> None:
        slash = self.inchar()
        b = self.match_slash(slash, True)
        if b is None:
            self.bad_prog("unterminated `s' command")
        b2 = self.match_slash(slash, False)
        if b2 is None:
            self.bad_prog("unterminated `s' command")
        sub = Subst()
        setup_replacement(self, sub, b2)
        icase = newline = False
        while True:
            ch = self.in_nonblank()
            if ch in ("i", "I"):
                icase = True
            elif ch in ("m", "M"):
                newline = True
            elif ch == "e":
                self.bad_prog("option `e' of `s' not supported in the sandbox (it runs a command)")
            elif ch == "p":
                if sub.print_:
                    self.bad_prog("multiple `p' options to `s' command")
                sub.print_ = 1
            elif ch == "g":
                if sub.global_:
                    self.bad_prog("multiple `g' options to `s' command")
                sub.global_ = True
            elif ch == "w":
                sub.outf = self.open_wfile()
                break
            elif ch is not EOF and "0" <= ch <= "9":
                if sub.numb:
                    self.bad_prog("multiple number options to `s' command")
                sub.numb = self.in_integer(ch)
                if not sub.numb:
                    self.bad_prog("number option to `s' command may not be zero")
            elif ch == "}" or ch == "#":
                self.savchar(ch)
                break
            elif ch is EOF or ch in ("\n", ";"):
                break
            elif ch == "\r":
                if self.inchar() == "\n":
                    break
                self.bad_prog("unknown option to `s'")
            else:
                self.bad_prog("unknown option to `s'")
        sub.regex = self.compile_regex(normalize_text(self, b, "regex"), icase, newline,
                                       sub.max_id + 1)
        if sub.numb == 0:
            sub.numb = 1
        cmd.subst = sub

    def compile_y(self, cmd: Cmd) -> None:
        slash = self.inchar()
        b = self.match_slash(slash, False)
        if b is None:
            self.bad_prog("unterminated `y' command")
        src = _y_text(normalize_text(self, b, "buffer"))
        b2 = self.match_slash(slash, False)
        if b2 is None:
            self.bad_prog("unterminated `y' command")
        dst = _y_text(normalize_text(self, b2, "buffer"))
        if len(src) != len(dst):
            self.bad_prog("strings for `y' command are different lengths")
        cmd.ymap = {ord(s): d for s, d in zip(src, dst, strict=True)}
        self.read_end_of_cmd()


def _y_text(text: str) -> str:
    # after normalize_text (buffer) a y string has no escapes left
    return text


def _version_newer(a: str, b: str) -> bool:
    def key(v: str):
        out = []
        for part in v.split("."):
            digits = "".join(ch for ch in part if ch.isdigit())
            out.append(int(digits) if digits else 0)
        return out
    return key(a) > key(b)


def _byte_char(n: int) -> str:
    """The character for byte value ``n`` (a surrogate for a lone byte >= 0x80)."""
    n &= 0xFF
    return chr(n) if n < 0x80 else chr(0xDC00 + n)


def normalize_text(comp: Compiler, text: str, kind: str) -> str:
    """GNU's normalize_text: \\a \\f \\n \\r \\t \\v \\dNNN \\oNNN \\xHH \\cX (kind: regex,
    replacement or buffer; in a buffer other escapes lose their backslash)."""
    if "\\" not in text:
        return text
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "\\" and i + 1 < n:
            d = text[i + 1]
            simple = {"a": "\a", "f": "\f", "\n": "\n", "n": "\n", "r": "\r", "t": "\t",
                      "v": "\v"}.get(d)
            if simple is not None:
                out.append(simple)
                i += 2
                continue
            base = {"d": 10, "x": 16, "o": 8}.get(d)
            if base is not None:
                j = i + 2
                val = 0
                mx = 1
                digits = 0
                while j < n and mx <= 255:
                    try:
                        dv = int(text[j], 16)
                    except ValueError:
                        break
                    if dv >= base:
                        break
                    val = val * base + dv
                    j += 1
                    mx *= base
                    digits += 1
                if digits == 0:
                    ch = d
                else:
                    ch = _byte_char(val)
                if kind == "replacement" and ch == "&":
                    out.append("\\")
                out.append(ch)
                i = j if digits else i + 2
                continue
            if d == "c":
                if i + 2 < n:
                    x = text[i + 2]
                    out.append(chr(ord(x.upper()) ^ 0x40) if ord(x) < 128 else x)
                    i += 3
                    if x == "\\":
                        if i < n and text[i] == "\\":
                            i += 1
                        else:
                            comp.bad_prog("recursive escaping after \\c not allowed")
                    continue
                if kind != "buffer":
                    out.append("\\")
                i += 1
                continue
            if kind != "buffer":
                out.append("\\")
            out.append(d)
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


def setup_replacement(comp: Compiler, sub: Subst, text: str) -> None:
    """GNU's setup_replacement: literal pieces, \\0-\\9 and &, \\L \\U \\E \\l \\u."""
    text = normalize_text(comp, text, "replacement")
    pieces: list[list] = []  # [prefix, group, type]
    repl_type = save_type = REPL_ASIS
    base = 0
    i, n = 0, len(text)
    max_id = 0
    while i < n:
        c = text[i]
        if c == "\\":
            piece = [text[base:i], -1, repl_type]
            pieces.append(piece)
            repl_type = save_type
            i += 1
            if i == n:
                piece[0] += "\\"
                base = i
                break
            d = text[i]
            if "0" <= d <= "9":
                piece[1] = ord(d) - 48
                max_id = max(max_id, piece[1])
            elif d == "L":
                repl_type = save_type = REPL_LOWERCASE
            elif d == "U":
                repl_type = save_type = REPL_UPPERCASE
            elif d == "E":
                repl_type = save_type = REPL_ASIS
            elif d == "l":
                save_type = repl_type
                repl_type |= REPL_LOWERCASE_FIRST
            elif d == "u":
                save_type = repl_type
                repl_type |= REPL_UPPERCASE_FIRST
            else:
                piece[0] += d
            base = i + 1
        elif c == "&":
            pieces.append([text[base:i], 0, repl_type])
            repl_type = save_type
            base = i + 1
        i += 1
    if base < n:
        pieces.append([text[base:], -1, repl_type])
    sub.replacement = [tuple(p) for p in pieces]
    sub.max_id = max_id
    if all(p[1] < 0 and p[2] == REPL_ASIS for p in pieces):
        sub.simple = "".join(p[0] for p in pieces)
    if all(p[2] == REPL_ASIS for p in pieces):
        # the same replacement as an engine template (for whole-buffer substitution)
        sub.template = "".join(p[0].replace("\\", "\\\\") + (f"\\g<{p[1]}>" if p[1] >= 0 else "")
                               for p in pieces)


def _upper(s: str) -> str:
    if s.isascii():
        return s.upper()
    return "".join(u if len(u := ch.upper()) == 1 else ch for ch in s)  # towupper: 1 to 1


def _lower(s: str) -> str:
    if s.isascii():
        return s.lower()
    return "".join(u if len(u := ch.lower()) == 1 else ch for ch in s)


def _case(s: str, typ: int) -> str:
    """str_append_modified: apply a replacement piece's case conversion."""
    if not s or typ == REPL_ASIS:
        return s
    first = ""
    if typ & REPL_UPPERCASE_FIRST:
        first, s = _upper(s[0]), s[1:]
    elif typ & REPL_LOWERCASE_FIRST:
        first, s = _lower(s[0]), s[1:]
    typ &= ~REPL_MODIFIERS
    if typ == REPL_UPPERCASE:
        s = _upper(s)
    elif typ == REPL_LOWERCASE:
        s = _lower(s)
    return first + s


def append_replacement(out: list[str], pieces, m) -> None:
    repl_mod = 0
    for prefix, i, ptype in pieces:
        curr = ptype if ptype & REPL_MODIFIERS else ptype | repl_mod
        repl_mod = 0
        if prefix:
            out.append(_case(prefix, curr))
            curr &= ~REPL_MODIFIERS
        if i >= 0:
            try:
                s, e = m.span(i)
            except IndexError:
                continue
            if s < 0:
                if ptype & REPL_MODIFIERS:
                    repl_mod = curr & REPL_MODIFIERS
                continue
            if e == s and ptype & REPL_MODIFIERS:
                repl_mod = curr & REPL_MODIFIERS
            elif e != s:
                out.append(_case(m.string[s:e], curr))


# ------------------------------------------------------------------ output
class _Out:
    """An output of sed: stdout, an in-place temporary file, a ``w`` file."""

    __slots__ = ("parts", "size", "stream", "file", "missing_newline", "name", "unbuffered")

    def __init__(self, name: str, *, stream=None, file=None, unbuffered: bool = False):
        self.parts: list[str] = []
        self.size = 0
        self.stream = stream  # an OutputStream (async) ...
        self.file = file  # ... or a binary file object
        self.missing_newline = False
        self.name = name
        self.unbuffered = unbuffered

    def add(self, text: str) -> None:
        self.parts.append(text)
        self.size += len(text)

    def data(self) -> bytes:
        if not self.parts:
            return b""
        text = "".join(self.parts)
        self.parts.clear()
        self.size = 0
        return encode(text)

    async def flush(self) -> None:
        if not self.parts:
            return
        data = self.data()
        if self.stream is not None:
            await self.stream.write(data)
        elif self.file is not None:
            self.file.write(data)


class _RFile:
    """A file read line by line by ``R``."""

    __slots__ = ("name", "lines", "pos", "opened")

    def __init__(self, name: str):
        self.name = name
        self.lines: list[str] = []
        self.pos = 0
        self.opened = False


# ------------------------------------------------------------------ input
class _Input:
    """The input files as one stream of lines (or one at a time with -s / -i)."""

    def __init__(self, sed: Sed, names: list[str]):
        self.sed = sed
        self.names = names
        self.ni = 0  # next name to open
        self.name = "-"  # current file (F)
        self.vname = ""
        self.file = None  # binary file object of the current file, or None for stdin
        self.stdin = None
        self.open = False  # a file is open
        self.lines: list[str] = []
        self.idx = 0
        self.carry = ""
        self.file_eof = True
        self.unchomped = -1  # index in lines of a final line that lacks its delimiter
        self.line_number = 0
        self.bad_count = 0
        self.reset_at_next_file = True

    async def _read_chunk(self) -> bytes:
        if self.file is not None:
            try:
                return self.file.read(CHUNK)
            except OSError as e:
                raise SedError(f"read error on {self.name}: {os.strerror(e.errno or errno.EIO)}",
                               EXIT_PANIC) from None
        return await self.stdin.read(CHUNK)

    async def _fill_current(self) -> bool:
        """Read more lines of the current file; False when it has no more."""
        delim = self.sed.delim
        budget = self.sed.shell.budget
        partial: list[str] = []  # pieces of a line longer than a chunk (joined once)
        size = len(self.carry)
        while not self.file_eof:
            data = await self._read_chunk()
            if not data:
                self.file_eof = True
                if partial:
                    self.carry += "".join(partial)
                if self.carry:
                    self.lines = [self.carry]
                    self.idx = 0
                    self.unchomped = 0
                    self.carry = ""
                    return True
                return False
            text = decode(data)
            if delim not in text:
                partial.append(text)
                size += len(text)
                budget.check_string(size)  # a line without end (/dev/zero) is bounded
                budget.check()
                continue
            if self.carry or partial:
                text = self.carry + "".join(partial) + text
                partial.clear()
            parts = text.split(delim)
            self.carry = parts.pop()
            size = len(self.carry)
            if parts:
                self.lines = parts
                self.idx = 0
                self.unchomped = -1
                return True
        return False

    def has_buffered(self) -> bool:
        return self.idx < len(self.lines)

    async def ensure(self) -> bool:
        """Make sure a line is buffered if the current file (or, joined, any file) has one."""
        if self.idx < len(self.lines):
            return True
        if self.open and await self._fill_current():
            return True
        if self.sed.separate:
            return False
        # the joined stream: look into the next files (GNU's last_file_with_data_p)
        while True:
            if self.open:
                await self.sed.closedown(self)
            if self.ni >= len(self.names):
                return False
            await self.sed.open_next_file(self, self.names[self.ni])
            self.ni += 1
            if self.open and await self._fill_current():
                return True

    async def read_line(self) -> tuple[str, bool] | None:
        """The next line and whether it had its delimiter (read_pattern_space's reading)."""
        while True:
            if self.idx < len(self.lines) or (self.open and await self._fill_current()):
                i = self.idx
                self.idx = i + 1
                self.line_number += 1
                return self.lines[i], i != self.unchomped
            if self.open:
                await self.sed.closedown(self)
            if self.ni >= len(self.names):
                return None
            if self.reset_at_next_file:
                self.line_number = 0
                self.sed.reset_for_file()
                self.reset_at_next_file = self.sed.separate
            await self.sed.open_next_file(self, self.names[self.ni])
            self.ni += 1

    async def at_eof(self) -> bool:
        """test_eof: is the current line the last one ($)?"""
        if self.idx < len(self.lines):
            return False
        return not await self.ensure_no_reset()

    async def ensure_no_reset(self) -> bool:
        if self.open and await self._fill_current():
            return True
        if self.sed.separate:
            return False
        return await self.ensure()


# ------------------------------------------------------------------ the editor
class Sed:
    def __init__(self, shell):
        self.shell = shell
        self.quiet = False
        self.extended = False
        self.separate = False
        self.in_place: str | None = None  # the suffix ("" for none) when -i
        self.follow_symlinks = False
        self.posix = False
        self.unbuffered = False
        self.delim = "\n"
        self.line_len = 70
        self.sandbox = False
        self.stdout = _Out("-", stream=shell.stdout)
        self.real_stdout = self.stdout
        self.output = self.stdout
        self.wfiles: dict[str, _Out] = {}
        self.hold = ""
        self.hold_chomped = True
        self.last_regex = None
        self.program: list[Cmd] = []
        self.append_queue: list = []
        self.replaced = False
        self.quit_status: int | None = None
        self.inplace_state = None
        self.input: _Input | None = None
        self.rfile_list: list[_RFile] = []
        self.uses_last = False
        self.compiler: Compiler | None = None

    # -- files ---------------------------------------------------------------------------
    def open_wfile(self, name: str) -> _Out:
        if name == "/dev/stdout":
            # GNU sed gives a `w /dev/stdout` its own output (its own missing-newline state)
            # on the same stream: here a second _Out sharing standard output's buffer, so the
            # order of what both write is kept
            out = self.wfiles.get(name)
            if out is None:
                out = self.wfiles[name] = _Out(name, stream=self.real_stdout.stream,
                                               file=self.real_stdout.file)
                out.parts = self.real_stdout.parts
            return out
        if name == "/dev/stderr":
            out = self.wfiles.get(name)
            if out is None:
                out = self.wfiles[name] = _Out(name, stream=self.shell.stderr)
            return out
        out = self.wfiles.get(name)
        if out is None:
            try:
                f = self.shell.fs.open(name, "wb", perm=0o666 & ~self.shell.umask)
            except FileSystemError as e:
                raise SedError(f"couldn't open file {name}: {e.strerror}", EXIT_PANIC) from None
            out = self.wfiles[name] = _Out(name, file=f)
        return out

    def reset_for_file(self) -> None:
        self.hold = ""
        for cmd in self.program:
            a1 = cmd.a1
            if a1 is not None and a1.type == A_NUM and a1.number == 0:
                cmd.range_state = R_ACTIVE
            else:
                cmd.range_state = R_INACTIVE
        for rf in self.rfile_list:
            rf.pos = 0
        if self.in_place is not None:
            self.output.missing_newline = False

    async def open_next_file(self, inp: _Input, name: str) -> None:
        inp.lines, inp.idx, inp.carry, inp.unchomped = [], 0, "", -1
        inp.file_eof = False
        inp.name = name
        inp.open = False
        shell = self.shell
        if name == "-" and self.in_place is None:
            inp.file = None
            inp.stdin = shell.stdin
            inp.open = True
            return
        path = name
        try:
            if self.in_place is not None and self.follow_symlinks:
                path = shell.fs.realpath(name)
            st = shell.fs.stat(path)
        except FileSystemError as e:
            await self._error(f"can't read {name}: {e.strerror}")
            inp.bad_count += 1
            inp.file_eof = True
            return
        if _stat.S_ISDIR(st.st_mode):
            if self.in_place is not None:
                raise SedError(f"couldn't edit {name}: not a regular file", EXIT_PANIC)
            raise SedError(f"read error on {name}: Is a directory", EXIT_PANIC)
        try:
            f = shell.fs.open(path, "rb")
        except FileSystemError as e:
            await self._error(f"can't read {name}: {e.strerror}")
            inp.bad_count += 1
            inp.file_eof = True
            return
        inp.file = f
        inp.open = True
        if self.in_place is not None:
            if not _stat.S_ISREG(st.st_mode):
                f.close()
                inp.open = False
                raise SedError(f"couldn't edit {name}: not a regular file", EXIT_PANIC)
            head, slash, _ = path.rpartition("/")
            tmp = None
            for _ in range(20):
                cand = head + slash + f"sed{secrets.token_hex(3)}"
                try:
                    tf = shell.fs.open(cand, "xb", perm=0o600)
                    tmp = cand
                    break
                except FileSystemError as e:
                    if e.errno == errno.EEXIST:
                        continue
                    f.close()
                    inp.open = False
                    raise SedError(f"couldn't open temporary file {cand}: {e.strerror}",
                                   EXIT_PANIC) from None
            if tmp is None:
                raise SedError(f"couldn't open temporary file in {head or '.'}", EXIT_PANIC)
            self.inplace_state = (path, name, tmp, st.st_mode)
            self.output = _Out(tmp, file=tf)

    async def closedown(self, inp: _Input) -> None:
        if not inp.open:
            return
        inp.open = False
        if inp.file is not None:
            try:
                inp.file.close()
            except OSError:
                pass
            inp.file = None
        if self.in_place is not None and self.inplace_state is not None:
            path, name, tmp, mode = self.inplace_state
            self.inplace_state = None
            out = self.output
            await out.flush()
            out.file.close()
            self.output = self.stdout
            fs = self.shell.fs
            try:
                fs.chmod(tmp, _stat.S_IMODE(mode))
            except FileSystemError:
                pass
            try:
                if self.in_place:
                    backup = _backup_name(path, self.in_place)
                    fs.rename(path, backup)
                fs.rename(tmp, path)
            except FileSystemError as e:
                try:
                    fs.unlink(tmp)
                except FileSystemError:
                    pass
                raise SedError(f"cannot rename {name}: {e.strerror}", EXIT_PANIC) from None

    async def abort_inplace(self) -> None:
        if self.inplace_state is not None:
            _, _, tmp, _ = self.inplace_state
            self.inplace_state = None
            try:
                self.output.file.close()
            except (OSError, AttributeError):
                pass
            try:
                self.shell.fs.unlink(tmp)
            except FileSystemError:
                pass
            self.output = self.stdout

    async def _error(self, msg: str) -> None:
        await self.flush_all()
        await self.shell.stderr.write(encode(f"sed: {msg}\n"))

    async def flush_all(self) -> None:
        await self.stdout.flush()
        if self.output is not self.stdout:
            await self.output.flush()
        for out in self.wfiles.values():
            await out.flush()

    # -- output helpers --------------------------------------------------------------------------
    def output_line(self, text: str, nl: bool, out: _Out) -> None:
        if out.missing_newline:
            out.parts.append(self.delim)
            out.missing_newline = False
        out.parts.append(text)
        if nl:
            out.parts.append(self.delim)
        else:
            out.missing_newline = True
        out.size += len(text) + 1

    def dump_append(self) -> None:
        out = self.output
        if out.missing_newline:
            out.parts.append(self.delim)
            out.missing_newline = False
        for kind, val in self.append_queue:
            if kind == "text":
                out.add(val)
            elif kind == "rline":
                out.add(val)
            else:
                out.add(self._read_whole(val))
        self.append_queue.clear()

    def _read_whole(self, name: str) -> str:
        if name == "/dev/stdin":
            return self.stdin_text()
        try:
            return decode(self.shell.fs.read_bytes(name))
        except (FileSystemError, OSError):
            return ""  # POSIX: an unreadable file is an empty one

    def stdin_text(self) -> str:
        return ""

    # -- running ----------------------------------------------------------------------------------
    async def run(self, names: list[str]) -> int:
        inp = self.input = _Input(self, names)
        self.rfile_list = list(self.compiler.rfiles.values())
        self.reset_for_file()
        budget = self.shell.budget
        status = 0
        cycles = 0
        fast = self._fast_kind()
        try:
            while True:
                if self.append_queue:
                    self.dump_append()
                k = inp.idx
                if fast is not None and k < len(inp.lines):
                    done = self._bulk(fast, inp)
                    if done:
                        budget.check()
                        out = self.output
                        if out.size >= FLUSH or self.unbuffered:
                            await out.flush()
                            if self.unbuffered:
                                await self.stdout.flush()
                        continue
                if k < len(inp.lines):
                    inp.idx = k + 1
                    inp.line_number += 1
                    ps, chomped = inp.lines[k], k != inp.unchomped
                else:
                    got = await inp.read_line()
                    if got is None:
                        break
                    ps, chomped = got
                self.replaced = False
                cycles += 1
                if cycles & 255 == 0:
                    budget.check()
                r = await self.execute(ps, chomped)
                out = self.output
                if out.size >= FLUSH or self.unbuffered:
                    await out.flush()
                    if self.unbuffered:
                        await self.stdout.flush()
                if r is not None:
                    status = r
                    if self.append_queue:
                        self.dump_append()
                    break
            if self.append_queue:
                self.dump_append()
            await inp.sed.closedown(inp)
        except BaseException:
            await self.abort_inplace()
            raise
        if inp.bad_count:
            status = EXIT_BAD_INPUT
        return status

    # -- whole-buffer fast paths -------------------------------------------------------------
    def _fast_kind(self):
        """A way to run the script on many buffered lines at once, when its result is the
        same as line by line: numeric addresses only (lines outside them pass straight
        through), a lone ``s`` (substitution over the buffer), a lone ``/re/p`` or
        ``/re/d`` (a filter, like grep)."""
        prog = self.program
        if not prog:
            return ("numeric",)
        if all(c.a1 is not None and c.a1.type == A_NUM and not c.bang
               and (c.a2 is None or c.a2.type == A_NUM) for c in prog):
            return ("numeric",)
        if len(prog) != 1:
            return None
        cmd = prog[0]
        if cmd.cmd == "s" and cmd.a1 is None and not cmd.bang and not self.quiet:
            sub = cmd.subst
            if (sub.regex is None or sub.print_ or sub.outf is not None or sub.numb != 1
                    or sub.template is None or not sub.regex.rx.nonempty):
                return None
            line = sub.regex.line_variant()
            if line is None:
                return None
            self.last_regex = sub.regex
            return ("subst", line, sub.template, sub.global_)
        if cmd.a1 is not None and cmd.a1.type == A_REGEX and cmd.a2 is None \
                and cmd.a1.regex is not None:
            if cmd.cmd == "p" and self.quiet:
                keep = not cmd.bang
            elif cmd.cmd == "d" and not self.quiet:
                keep = cmd.bang
            else:
                return None
            line = cmd.a1.regex.line_variant()
            if line is None:
                return None
            self.last_regex = cmd.a1.regex
            return ("filter", line, keep)
        return None

    def _emit_lines(self, text: str, last_unchomped: bool) -> None:
        """Whole lines joined by the delimiter (without the final one) to the output."""
        out = self.output
        if out.missing_newline:
            out.parts.append(self.delim)
            out.missing_newline = False
        out.parts.append(text)
        if last_unchomped:
            out.missing_newline = True
        else:
            out.parts.append(self.delim)
        out.size += len(text) + 1

    def _bulk(self, fast, inp: _Input) -> int:
        """Run the fast path on the buffered lines; how many lines it handled."""
        lines, k = inp.lines, inp.idx
        end = len(lines)
        kind = fast[0]
        if kind == "numeric":
            nxt = self._next_interesting(inp.line_number)
            room = nxt - inp.line_number - 1
            if room <= 0:
                return 0
            end = min(end, k + room)
            if not self.quiet:
                self._emit_lines(self.delim.join(lines[k:end]), inp.unchomped == end - 1)
        else:
            seg = self.delim.join(lines[k:])
            last_unchomped = inp.unchomped == end - 1
            if kind == "subst":
                _, rx, template, glob = fast
                if glob:
                    new, n = rx.subn(template, seg) if len(seg) > rx._limit \
                        else rx.raw.subn(template, seg)  # noqa: SLF001
                    seg = new
                else:
                    seg = self._subst_first(rx, template, seg)
                self._emit_lines(seg, last_unchomped)
            else:
                _, rx, keep = fast
                self._filter(rx, keep, seg, last_unchomped)
        inp.line_number += end - k
        inp.idx = end
        return end - k

    def _subst_first(self, rx, template: str, seg: str) -> str:
        """The first match of each line replaced."""
        out = []
        pos = 0
        skip_until = -1
        delim = self.delim
        for m in rx.finditer(seg):
            ms = m.start()
            if ms < skip_until:
                continue
            out.append(seg[pos:ms])
            out.append(m.expand(template))
            pos = m.end()
            e = seg.find(delim, pos)
            skip_until = e + 1 if e >= 0 else len(seg) + 1
        out.append(seg[pos:])
        return "".join(out)

    def _filter(self, rx, keep: bool, seg: str, last_unchomped: bool) -> None:
        delim = self.delim
        search = rx.search if len(seg) > rx._limit else rx.raw.search  # noqa: SLF001
        rfind, find = seg.rfind, seg.find
        n = len(seg)
        pos = 0
        kept: list[str] = []
        last_kept_end = -1
        while pos <= n:
            m = search(seg, pos)
            if m is None:
                break
            ms = m.start()
            i = rfind(delim, pos, ms)
            ls = i + 1 if i >= 0 else pos
            le = find(delim, m.end())
            if le < 0:
                le = n
            if keep:
                kept.append(seg[ls:le])
            elif ls > pos:
                kept.append(seg[pos:ls - 1])
            last_kept_end = le
            pos = le + 1
        if not keep and pos <= n:
            kept.append(seg[pos:])
            last_kept_end = n
        if kept:
            self._emit_lines(delim.join(kept), last_unchomped and last_kept_end == n)

    def _next_interesting(self, current: int) -> int:
        """The next line number at which some numeric address may match."""
        best = 1 << 62
        nxt = current + 1
        for c in self.program:
            a1 = c.a1
            if c.a2 is None:
                if a1.number >= nxt:
                    best = min(best, a1.number)
            elif c.range_state == R_ACTIVE:
                return nxt
            elif c.range_state == R_INACTIVE:
                best = min(best, max(a1.number, nxt))
        return best

    def match_address(self, cmd: Cmd, ps: str, line_number: int, eof) -> bool:
        """match_address_p; ``eof`` is a callable answering the $ address."""
        a1 = cmd.a1
        if cmd.range_state != R_ACTIVE:
            a2 = cmd.a2
            if a2 is None:
                return self.match_an_address(a1, ps, line_number, eof)
            if a1.type == A_NUM:
                if cmd.range_state == R_CLOSED or line_number < a1.number:
                    return False
            elif not self.match_an_address(a1, ps, line_number, eof):
                return False
            cmd.range_state = R_ACTIVE
            t = a2.type
            if t == A_REGEX:
                return True
            if t == A_NUM:
                if line_number >= a2.number:
                    cmd.range_state = R_CLOSED
                return line_number <= a2.number or self.match_an_address(a1, ps, line_number, eof)
            if t == A_STEP:
                a2.number = line_number + a2.step
                return True
            if t == A_STEP_MOD:
                a2.number = line_number + a2.step - (line_number % a2.step)
                return True
        a2 = cmd.a2
        if a2.type == A_NUM:
            if line_number >= a2.number:
                cmd.range_state = R_CLOSED
            return line_number <= a2.number
        if self.match_an_address(a2, ps, line_number, eof):
            cmd.range_state = R_CLOSED
        return True

    def match_an_address(self, addr: Addr, ps: str, line_number: int, eof) -> bool:
        t = addr.type
        if t == A_NUM:
            return addr.number == line_number
        if t == A_REGEX:
            return self.regex_search(addr.regex, ps, 0) is not None
        if t == A_NULL:
            return True
        if t == A_NUM_MOD:
            return line_number >= addr.number and (line_number - addr.number) % addr.step == 0
        if t in (A_STEP, A_STEP_MOD):
            return addr.number <= line_number
        if t == A_LAST:
            return eof()
        raise AssertionError(t)

    def regex_search(self, re_: _Re | None, s: str, pos: int):
        if re_ is None:
            re_ = self.last_regex
            if re_ is None:
                raise SedError("-e expression #1, char 0: no previous regular expression")
        else:
            self.last_regex = re_
        return re_.search(s, pos)

    async def execute(self, ps: str, chomped: bool) -> int | None:
        """One cycle of the script on pattern space ``ps``; an exit status to quit, else None."""
        prog = self.program
        n = len(prog)
        inp = self.input
        budget = self.shell.budget
        jumps = 0
        eof_state = [False]
        if self.uses_last and inp.idx >= len(inp.lines):
            eof_state[0] = await inp.at_eof()

        def eof() -> bool:
            return inp.idx >= len(inp.lines) and eof_state[0]

        i = 0
        while i < n:
            cmd = prog[i]
            if cmd.a1 is not None:
                matched = self.match_address(cmd, ps, inp.line_number, eof)
                if matched == cmd.bang:
                    i += 1
                    continue
            elif cmd.bang:
                i += 1
                continue
            c = cmd.cmd
            if c == "p":
                self.output_line(ps, chomped, self.output)
            elif c == "s":
                ps = self.do_subst(cmd.subst, ps, chomped)
            elif c == "{" or c == "b":
                i = cmd.jump
                jumps += 1
                if jumps & 1023 == 0:
                    budget.check()
                    budget.check_string(len(ps))
                continue
            elif c == "}" or c == ":":
                pass
            elif c == "d":
                return None
            elif c == "t":
                if self.replaced:
                    self.replaced = False
                    i = cmd.jump
                    jumps += 1
                    if jumps & 1023 == 0:
                        budget.check()
                        budget.check_string(len(ps))
                    continue
            elif c == "T":
                if not self.replaced:
                    i = cmd.jump
                    jumps += 1
                    if jumps & 1023 == 0:
                        budget.check()
                    continue
                self.replaced = False
            elif c == "n":
                if not self.quiet:
                    self.output_line(ps, chomped, self.output)
                if await inp.at_eof():
                    return None
                if self.append_queue:
                    self.dump_append()
                self.replaced = False
                got = await inp.read_line()
                if got is None:
                    return None
                ps, chomped = got
                if self.uses_last and inp.idx >= len(inp.lines):
                    eof_state[0] = await inp.at_eof()
            elif c == "N":
                if await inp.at_eof():
                    if not self.posix and not self.quiet:
                        self.output_line(ps, chomped, self.output)
                    return None
                if self.append_queue:
                    self.dump_append()
                self.replaced = False
                got = await inp.read_line()
                if got is None:
                    if not self.posix and not self.quiet:
                        self.output_line(ps, chomped, self.output)
                    return None
                ps = ps + self.delim + got[0]
                chomped = got[1]
                if self.uses_last and inp.idx >= len(inp.lines):
                    eof_state[0] = await inp.at_eof()
                budget.check_string(len(ps))
            elif c == "a":
                self.append_queue.append(("text", cmd.text))
            elif c == "i":
                if cmd.text:
                    self.output_line(cmd.text[:-1], True, self.output)
            elif c == "c":
                if cmd.range_state != R_ACTIVE and cmd.text:
                    self.output_line(cmd.text[:-1], True, self.output)
                return None
            elif c == "D":
                k = ps.find(self.delim)
                if k < 0:
                    return None
                ps = ps[k + 1:]
                i = 0
                jumps += 1
                if jumps & 1023 == 0:
                    budget.check()
                continue
            elif c == "g":
                ps = self.hold
            elif c == "G":
                ps = ps + self.delim + self.hold
                budget.check_string(len(ps))
            elif c == "h":
                self.hold = ps
            elif c == "H":
                self.hold = self.hold + self.delim + ps
                budget.check_string(len(self.hold))
            elif c == "x":
                ps, self.hold = self.hold, ps
            elif c == "l":
                self.do_list(ps, self.line_len if cmd.int_arg == -1 else cmd.int_arg)
            elif c == "=":
                out = self.output
                if out.missing_newline:
                    out.parts.append(self.delim)
                    out.missing_newline = False
                out.add(f"{inp.line_number}{self.delim}")
            elif c == "F":
                out = self.output
                if out.missing_newline:
                    out.parts.append(self.delim)
                    out.missing_newline = False
                out.add(f"{inp.name}{self.delim}")
            elif c == "q":
                if not self.quiet:
                    self.output_line(ps, chomped, self.output)
                self.dump_append()
                return 0 if cmd.int_arg == -1 else cmd.int_arg
            elif c == "Q":
                return 0 if cmd.int_arg == -1 else cmd.int_arg
            elif c == "r":
                if cmd.append:
                    self.append_queue.append(("file", cmd.fname))
                else:
                    out = self.output
                    out.add(self._read_whole(cmd.fname))
            elif c == "R":
                line = await self.rfile_line(cmd.inf)
                if line is not None:
                    self.append_queue.append(("rline", line))
            elif c == "w":
                self.output_line(ps, chomped, cmd.outf)
            elif c == "W":
                k = ps.find(self.delim)
                if k >= 0:
                    self.output_line(ps[:k], True, cmd.outf)
                else:
                    self.output_line(ps, chomped, cmd.outf)
            elif c == "P":
                k = ps.find(self.delim)
                if k >= 0:
                    self.output_line(ps[:k], True, self.output)
                else:
                    self.output_line(ps, chomped, self.output)
            elif c == "y":
                ps = ps.translate(cmd.ymap)
            elif c == "z":
                ps = ""
            i += 1
        if not self.quiet:
            self.output_line(ps, chomped, self.output)
        return None

    async def rfile_line(self, rf: _RFile) -> str | None:
        if not rf.opened:
            rf.opened = True
            if rf.name == "/dev/stdin":
                data = await self.shell.stdin.read()
            else:
                try:
                    data = self.shell.fs.read_bytes(rf.name)
                except (FileSystemError, OSError):
                    data = b""
            text = decode(data)
            rf.lines = text.split(self.delim)
            if rf.lines and rf.lines[-1] == "":
                rf.lines.pop()
                rf.lines = [x + self.delim for x in rf.lines]
            else:
                last = rf.lines.pop() if rf.lines else None
                rf.lines = [x + self.delim for x in rf.lines]
                if last is not None:
                    rf.lines.append(last)
        if rf.pos < len(rf.lines):
            rf.pos += 1
            return rf.lines[rf.pos - 1]
        return None

    def do_subst(self, sub: Subst, ps: str, chomped: bool) -> str:
        re_ = sub.regex
        if re_ is None:
            re_ = self.last_regex
            if re_ is None:
                raise SedError("-e expression #1, char 0: no previous regular expression")
        else:
            self.last_regex = re_
        search = re_.raw if len(ps) <= re_.limit else re_.rx.search
        m = search(ps, 0)
        if m is None:
            return ps
        numb = sub.numb
        glob = sub.global_
        simple = sub.simple
        pieces = sub.replacement
        out: list[str] = []
        start = 0
        last_end = 0
        count = 0
        length = len(ps)
        replaced_any = False
        while True:
            offset, end = m.span()
            matched = end - offset
            if start < offset:
                out.append(ps[start:offset])
            again = True
            if (matched > 0 or count == 0 or offset > last_end):
                count += 1
                hit = count >= numb
            else:
                hit = False
            if hit:
                replaced_any = True
                if simple is not None:
                    out.append(simple)
                else:
                    append_replacement(out, pieces, m)
                again = glob
            else:
                if matched == 0:
                    if start < length:
                        matched = 1
                    else:
                        break
                out.append(ps[offset:offset + matched])
            start = offset + matched
            last_end = end
            if not again or start > length:
                break
            m = search(ps, start)
            if m is None:
                break
        if start < length:
            out.append(ps[start:])
        if not replaced_any:
            return ps
        self.replaced = True
        ps = "".join(out)
        if len(ps) > 1 << 20:
            self.shell.budget.check_string(len(ps))
        if sub.print_:
            self.output_line(ps, chomped, self.output)
        if sub.outf is not None:
            self.output_line(ps, chomped, sub.outf)
        return ps

    def do_list(self, ps: str, line_len: int) -> None:
        out = self.output
        if out.missing_newline:
            out.parts.append(self.delim)
            out.missing_newline = False
        data = encode(ps)
        pieces = []
        width = 0
        esc = {7: "\\a", 8: "\\b", 12: "\\f", 10: "\\n", 13: "\\r", 9: "\\t", 11: "\\v"}
        for b in data:
            if 32 <= b < 127:
                o = "\\\\" if b == 92 else chr(b)
            elif b in esc:
                o = esc[b]
            else:
                o = f"\\{b:03o}"
            if line_len > 0 and width + len(o) >= line_len:
                pieces.append("\\" + self.delim)
                width = 0
            pieces.append(o)
            width += len(o)
        pieces.append("$" + self.delim)
        out.add("".join(pieces))


def _backup_name(path: str, suffix: str) -> str:
    directory, slash, base = path.rpartition("/")
    if "*" in suffix:
        name = suffix.replace("*", base)
    else:
        name = base + suffix
    if "/" in name:
        return name
    return directory + slash + name


# ------------------------------------------------------------------ main
def _usage_error(msg: str | None = None) -> SedError:
    text = (f"sed: {msg}\n" if msg else "") + HELP
    return SedError(text, EXIT_BAD_USAGE)


@on_write_error(4, "{prog}: couldn't flush stdout: {strerror}\n")
async def main(shell, argv: list[str]) -> int:
    return await _sed_main(shell, argv)


async def _sed_main(shell, argv: list[str]) -> int:
    sed = Sed(shell)
    try:
        return await _main(sed, shell, argv)
    except SedError as e:
        await sed.flush_all()
        if e.message:
            text = e.message if e.message.endswith("\n") else f"sed: {e.message}\n"
            await shell.stderr.write(encode(text))
        return e.status


async def _main(sed: Sed, shell, argv: list[str]) -> int:
    try:
        opts, operands = parse_options(argv[1:], SHORT, LONG)
    except OptionError as e:
        raise SedError(f"sed: {e}\n{HELP}", EXIT_BAD_USAGE) from None
    scripts: list[tuple[str, str]] = []
    for key, val in opts:
        if key == "help":
            await shell.stdout.write(encode(HELP + "E-mail bug reports to: <bug-sed@gnu.org>.\n"))
            return 0
        if key == "version":
            await shell.stdout.write(encode(VERSION))
            return 0
        if key == "n":
            sed.quiet = True
        elif key == "e":
            scripts.append(("e", val or ""))
        elif key == "f":
            scripts.append(("f", val or ""))
        elif key in ("E", "r"):
            sed.extended = True
        elif key == "i":
            sed.in_place = val or ""
            sed.separate = True
        elif key == "l":
            try:
                sed.line_len = int(val or "0")
            except ValueError:
                sed.line_len = 0
        elif key == "s":
            sed.separate = True
        elif key == "u":
            sed.unbuffered = True
        elif key == "z":
            sed.delim = "\0"
        elif key == "posix":
            sed.posix = True
        elif key == "follow-symlinks":
            sed.follow_symlinks = True
        elif key == "sandbox":
            sed.sandbox = True
    if not scripts:
        if not operands:
            raise _usage_error()
        scripts.append(("e", operands.pop(0)))
    comp = sed.compiler = Compiler(sed)
    for kind, val in scripts:
        if kind == "e":
            comp.compile_string(val)
        else:
            if val == "-":
                data = await shell.stdin.read()
            else:
                try:
                    data = shell.fs.read_bytes(val)
                except FileSystemError as e:
                    raise SedError(f"couldn't open file {val}: {e.strerror}", EXIT_PANIC) from None
            text = decode(data)
            if text.endswith("\n"):
                text = text[:-1]
            comp.compile_file(val, text)
    sed.program = comp.finish()
    sed.uses_last = any((c.a1 is not None and c.a1.type == A_LAST)
                        or (c.a2 is not None and c.a2.type == A_LAST) for c in sed.program)
    names = operands or ["-"]
    if sed.in_place is not None and not operands:
        raise SedError("no input files", EXIT_PANIC)
    try:
        status = await sed.run(names)
    finally:
        await sed.flush_all()
        for out in sed.wfiles.values():
            if out.file is not None:
                try:
                    out.file.close()
                except OSError:
                    pass
    return status
