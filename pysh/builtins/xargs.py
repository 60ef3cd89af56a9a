"""xargs: build command lines from input items and run them in-process (GNU findutils).

Commands run one after another through ``shell.run`` (``-P N`` is accepted
and runs them sequentially); their stdin is empty unless ``-a FILE`` gave the
items, as GNU does with /dev/null.
"""

from __future__ import annotations

import errno

from pysh.builtins._misc_util import (
    command_status,
    find_command,
    print_help,
    quote,
    strerror,
)
from pysh.shellkit import FileSystemError, InputStream, NullInput, Shell
from pysh.shellkit.text import decode, encode

ARG_MAX = 2093812
DEFAULT_SIZE = 131072

HELP = """\
Usage: xargs [OPTION]... COMMAND [INITIAL-ARGS]...
Run COMMAND with arguments INITIAL-ARGS and more arguments read from input.

Mandatory and optional arguments to long options are also
mandatory or optional for the corresponding short option.
  -0, --null                   items are separated by a null, not whitespace;
                                 disables quote and backslash processing and
                                 logical EOF processing
  -a, --arg-file=FILE          read arguments from FILE, not standard input
  -d, --delimiter=CHARACTER    items in input stream are separated by CHARACTER,
                                 not by whitespace; disables quote and backslash
                                 processing and logical EOF processing
  -E END                       set logical EOF string; if END occurs as a line
                                 of input, the rest of the input is ignored
                                 (ignored if -0 or -d was specified)
  -e, --eof[=END]              equivalent to -E END if END is specified;
                                 otherwise, there is no end-of-file string
  -I R                         same as --replace=R
  -i, --replace[=R]            replace R in INITIAL-ARGS with names read
                                 from standard input, split at newlines;
                                 if R is unspecified, assume {}
  -L, --max-lines=MAX-LINES    use at most MAX-LINES non-blank input lines per
                                 command line
  -l[MAX-LINES]                similar to -L but defaults to at most one non-
                                 blank input line if MAX-LINES is not specified
  -n, --max-args=MAX-ARGS      use at most MAX-ARGS arguments per command line
  -o, --open-tty               Reopen stdin as /dev/tty in the child process
                                 before executing the command; useful to run an
                                 interactive application.
  -P, --max-procs=MAX-PROCS    run at most MAX-PROCS processes at a time
  -p, --interactive            prompt before running commands
      --process-slot-var=VAR   set environment variable VAR in child processes
  -r, --no-run-if-empty        if there are no arguments, then do not run COMMAND;
                                 if this option is not given, COMMAND will be
                                 run at least once
  -s, --max-chars=MAX-CHARS    limit length of command line to MAX-CHARS
      --show-limits            show limits on command-line length
  -t, --verbose                print commands before executing them
  -x, --exit                   exit if the size (see -s) is exceeded
      --help                   display this help and exit
      --version                output version information and exit
"""

SHORT_ARG = {"a": "required", "d": "required", "E": "required", "I": "required",
             "L": "required", "n": "required", "P": "required", "s": "required",
             "e": "optional", "i": "optional", "l": "optional"}
SHORT_FLAG = set("0prtxo")
LONG = {
    "null": ("0", ""), "arg-file": ("a", "="), "delimiter": ("d", "="), "eof": ("e", "?"),
    "replace": ("i", "?"), "max-lines": ("L", "="), "max-args": ("n", "="),
    "open-tty": ("o", ""), "max-procs": ("P", "="), "interactive": ("p", ""),
    "process-slot-var": ("slotvar", "="), "no-run-if-empty": ("r", ""),
    "max-chars": ("s", "="), "show-limits": ("show-limits", ""), "verbose": ("t", ""),
    "exit": ("x", ""), "help": ("help", ""), "version": ("version", ""),
}


class Stop(Exception):
    """Abort xargs with a status (the message was already printed)."""

    def __init__(self, status: int):
        self.status = status


class XargsError(Exception):
    pass


def parse_delim(text: str) -> str | None:
    """GNU -d: one character, or an escape (\\n, \\t, \\0, \\ooo, \\xHH)."""
    if len(text) == 1:
        return text
    if text.startswith("\\"):
        esc = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t",
               "v": "\v", "\\": "\\"}
        body = text[1:]
        if body in esc:
            return esc[body]
        try:
            if body[:1] in "xX" and len(body) > 1:
                n = int(body[1:], 16)
            elif body.isdigit():
                n = int(body, 8)
            else:
                return None
        except ValueError:
            return None
        return chr(n) if n < 256 else None
    return None


def _number(text: str, opt: str, lo: int, hi: int | None = None) -> int:
    try:
        n = int(text.strip(), 10)
    except ValueError:
        raise XargsError(f'invalid number "{text}" for -{opt} option') from None
    if n < lo:
        raise XargsError(f"value {n} for -{opt} option should be >= {lo}")
    if hi is not None and n > hi:
        raise XargsError(f"value {n} for -{opt} option should be <= {hi}")
    return n


class Reader:
    """Splits the input into items the way GNU xargs does."""

    def __init__(self, stream: InputStream, opts: dict, shell: Shell):
        self.stream = stream
        self.delim: str | None = opts["delim"]
        self.eof_str: str | None = opts["eof"]
        self.replace = opts["replace"] is not None
        self.shell = shell
        self.done = False
        self.hit_eof = False
        self.pending: list[tuple[str, bool]] = []  # (item, ends a logical line)

    async def _line(self) -> str | None:
        data = await self.stream.readline()
        if not data:
            return None
        return decode(data)

    async def next_items(self) -> list[tuple[str, bool]] | None:
        """The items of the next input line (or delimited item); None at end of input."""
        if self.done:
            return None
        if self.delim is not None:
            data = await self.stream.read_until(encode(self.delim))
            if not data:
                self.done = True
                return None
            text = decode(data)
            if text.endswith(self.delim):
                text = text[:-len(self.delim)]
            return [(text, True)]
        while True:
            line = await self._line()
            if line is None:
                self.done = True
                return None
            items = self._split(line)
            while items is _CONTINUE:
                more = await self._line()
                if more is None:
                    line = line[:-1] if line.endswith("\\") else line
                    items = self._split(line + "\n")
                    break
                line = line + more
                items = self._split(line)
            if items is None or self.hit_eof:  # logical EOF
                self.done = True
                return items or None
            return items

    def _split(self, line: str):
        """Items of one line; _CONTINUE if a backslash escapes its newline."""
        if self.replace:
            return self._split_replace(line)
        items: list[tuple[str, bool]] = []
        cur: list[str] = []
        have = False
        quote_ch = None
        i, n = 0, len(line)
        while i < n:
            c = line[i]
            if quote_ch is not None:
                if c == "\n":
                    kind = "single" if quote_ch == "'" else "double"
                    raise QuoteError(kind, items)
                if c == quote_ch:
                    quote_ch = None
                else:
                    cur.append(c)
                i += 1
                continue
            if c in " \t\n":
                if have:
                    word = "".join(cur)
                    if self.eof_str is not None and word == self.eof_str:
                        self.hit_eof = True
                        return items
                    items.append((word, False))
                    cur, have = [], False
                i += 1
                continue
            if c == "\\":
                if i + 1 >= n or (line[i + 1] == "\n" and i + 2 >= n):
                    return _CONTINUE
                cur.append(line[i + 1])
                have = True
                i += 2
                continue
            if c in "'\"":
                quote_ch = c
                have = True
                i += 1
                continue
            cur.append(c)
            have = True
            i += 1
        if quote_ch is not None:
            kind = "single" if quote_ch == "'" else "double"
            raise QuoteError(kind, items)
        if have:
            word = "".join(cur)
            if self.eof_str is not None and word == self.eof_str:
                self.hit_eof = True
                return items
            items.append((word, False))
        # a line ending in a blank continues the logical line (-L)
        stripped = line.rstrip("\n")
        continues = stripped.endswith((" ", "\t"))
        if items:
            last, _ = items[-1]
            items[-1] = (last, not continues)
        return items

    def _split_replace(self, line: str):
        text = line[:-1] if line.endswith("\n") else line
        text = text.lstrip(" \t")
        if self.eof_str is not None and text == self.eof_str:
            return None
        out = []
        cur: list[str] = []
        quote_ch = None
        i, n = 0, len(text)
        while i < n:
            c = text[i]
            if quote_ch is not None:
                if c == quote_ch:
                    quote_ch = None
                else:
                    cur.append(c)
            elif c in "'\"":
                quote_ch = c
            elif c == "\\" and i + 1 < n:
                cur.append(text[i + 1])
                i += 1
            elif c == "\\":
                return _CONTINUE
            else:
                cur.append(c)
            i += 1
        if quote_ch is not None:
            raise QuoteError("single" if quote_ch == "'" else "double", [])
        word = "".join(cur)
        if word:
            out.append((word, True))
        return out


_CONTINUE = object()


class QuoteError(Exception):
    def __init__(self, kind: str, items: list):
        self.kind = kind
        self.items = items


def parse_args(argv: list[str]):
    opts = {"delim": None, "eof": None, "replace": None, "max_lines": None, "max_args": None,
            "size": None, "verbose": False, "interactive": False, "no_empty": False,
            "exit": False, "arg_file": None, "show_limits": False, "procs": 1}
    warnings: list[str] = []
    i = 0
    args = argv[1:]

    def setopt(k: str, v: str | None) -> str | None:
        if k == "0":
            opts["delim"] = "\0"
        elif k == "d":
            d = parse_delim(v or "")
            if d is None:
                raise XargsError(f"invalid input delimiter specification {v}: the delimiter "
                                 "must be either a single character or an escape sequence "
                                 "starting with \\.")
            opts["delim"] = d
        elif k == "a":
            opts["arg_file"] = v
        elif k == "E":
            opts["eof"] = v
        elif k == "e":
            opts["eof"] = v if v else None
        elif k == "I":
            opts["replace"] = v
            opts["max_lines"] = 1
            opts["max_args"] = None
        elif k == "i":
            opts["replace"] = v if v else "{}"
            opts["max_lines"] = 1
            opts["max_args"] = None
        elif k in ("L", "l"):
            opts["max_lines"] = _number(v, "L", 1) if v is not None else 1
            if opts["max_args"] is not None:
                warnings.append("warning: options --max-args and -L are mutually exclusive, "
                                "ignoring previous --max-args value")
            opts["max_args"] = None
            opts["replace"] = None
        elif k == "n":
            opts["max_args"] = _number(v or "", "n", 1)
            if opts["max_lines"] is not None and opts["replace"] is None:
                warnings.append("warning: options --max-lines and --max-args/-n are mutually "
                                "exclusive, ignoring previous --max-lines value")
                opts["max_lines"] = None
        elif k == "s":
            n = _number(v or "", "s", -(2 ** 63))
            if n < 1:
                warnings.append(f"value {n} for -s option should be >= 1")
                n = 1
            if n > ARG_MAX:
                warnings.append(f"value {n} for -s option should be <= {ARG_MAX}")
                n = ARG_MAX
            opts["size"] = n
        elif k == "P":
            opts["procs"] = _number(v or "", "P", 0)
        elif k == "t":
            opts["verbose"] = True
        elif k == "p":
            opts["interactive"] = True
            opts["verbose"] = True
        elif k == "r":
            opts["no_empty"] = True
        elif k == "x":
            opts["exit"] = True
        elif k == "show-limits":
            opts["show_limits"] = True
        elif k in ("help", "version"):
            return k
        return None

    while i < len(args):
        a = args[i]
        if a == "--":
            i += 1
            break
        if not a.startswith("-") or a == "-":
            break
        i += 1
        if a.startswith("--"):
            name, eq, value = a[2:].partition("=")
            matches = [k for k in LONG if k.startswith(name)]
            if name in LONG:
                matches = [name]
            if not matches:
                raise XargsError(f"unrecognized option '{a}'", True)
            if len(matches) > 1:
                poss = " ".join(f"'--{m}'" for m in matches)
                raise XargsError(f"option '--{name}' is ambiguous; possibilities: {poss}", True)
            key, kind = LONG[matches[0]]
            if kind == "=" and not eq:
                if i >= len(args):
                    raise XargsError(f"option '--{matches[0]}' requires an argument", True)
                value, eq = args[i], "="
                i += 1
            elif kind == "" and eq:
                raise XargsError(f"option '--{matches[0]}' doesn't allow an argument", True)
            r = setopt(key, value if eq else None)
            if r:
                return r, opts, [], warnings
            continue
        j = 1
        while j < len(a):
            ch = a[j]
            if ch in SHORT_FLAG:
                r = setopt(ch, None)
                j += 1
                continue
            kind = SHORT_ARG.get(ch)
            if kind is None:
                raise XargsError(f"invalid option -- '{ch}'", True)
            rest = a[j + 1:]
            if kind == "optional":
                setopt(ch, rest if rest else None)
            elif rest:
                setopt(ch, rest)
            elif i < len(args):
                setopt(ch, args[i])
                i += 1
            else:
                raise XargsError(f"option requires an argument -- '{ch}'", True)
            break
    return None, opts, args[i:], warnings


async def main(shell: Shell, argv: list[str]) -> int:
    try:
        special, opts, command, warnings = parse_args(argv)
    except XargsError as e:
        msg = e.args[0]
        await shell.error("xargs", msg)
        if len(e.args) > 1 or msg.startswith(("invalid number", "value")):
            if not (msg.startswith("value") and "-s option" in msg):
                await shell.stderr.write(b"Try 'xargs --help' for more information.\n")
        return 1
    if special == "help":
        return await print_help(shell, HELP)
    if special == "version":
        await shell.stdout.write(b"xargs (GNU findutils) 4.9.0\n")
        return 0
    for w in warnings:
        await shell.error("xargs", w)
    if opts["show_limits"]:
        env_size = sum(len(encode(k)) + len(encode(v)) + 2 for k, v in shell.env.items())
        await shell.stderr.write(encode(
            f"Your environment variables take up {env_size} bytes\n"
            f"POSIX upper limit on argument length (this system): {ARG_MAX}\n"
            "POSIX smallest allowable upper limit on argument length (all systems): 4096\n"
            f"Maximum length of command we could actually use: {ARG_MAX - env_size}\n"
            f"Size of command buffer we are actually using: {opts['size'] or DEFAULT_SIZE}\n"
            "Maximum parallelism (--max-procs must be no greater): 2147483647\n\n"))
    if not command:
        command = ["echo"]
    size = opts["size"] or DEFAULT_SIZE
    base_len = sum(len(encode(a)) + 1 for a in command)
    if base_len > size:
        await shell.error("xargs", "cannot fit single argument within argument list size limit")
        return 1

    child_stdin: InputStream | None = NullInput()
    source: InputStream
    opened = None
    if opts["arg_file"] is not None:
        name = opts["arg_file"]
        try:
            if name == "-":
                source = shell.stdin
            else:
                opened = source = shell.open_input(name)
        except FileSystemError as e:
            if e.errno == errno.EISDIR:  # GNU opens it and reads nothing
                opened = None
                source = NullInput()
            else:
                await shell.error("xargs", f"Cannot open input file {quote(name)}: "
                                           f"{strerror(e.errno)}")
                return 1
        child_stdin = None if name != "-" else NullInput()
    else:
        source = shell.stdin
    try:
        return await _run(shell, opts, command, size, base_len, source, child_stdin)
    finally:
        if opened is not None:
            opened.close()


async def _run(shell: Shell, opts: dict, command: list[str], size: int, base_len: int,
               source: InputStream, child_stdin: InputStream | None) -> int:
    reader = Reader(source, opts, shell)
    state = {"status": 0, "ran": False}
    replace = opts["replace"]
    max_args = opts["max_args"]
    max_lines = opts["max_lines"]

    async def run(items: list[str]) -> None:
        if replace is not None:
            argv = [a.replace(replace, items[0]) if replace else a for a in command]
        else:
            argv = command + items
        state["ran"] = True
        if opts["verbose"]:
            await shell.stderr.write(encode(" ".join(argv) + ("" if opts["interactive"]
                                                              else "\n")))
        if opts["interactive"]:
            await shell.error("xargs", "failed to open /dev/tty for reading: "
                                       "No such device or address")
            raise Stop(1)
        code = find_command(shell, argv[0])
        if code:
            await shell.error("xargs", f"{argv[0]}: {strerror(code)}")
            raise Stop(command_status(code))
        shell.budget.check()
        status = await shell.run(argv, stdin=child_stdin) if child_stdin is not None \
            else await shell.run(argv)
        if status == 255:
            await shell.error("xargs", f"{argv[0]}: exited with status 255; aborting")
            raise Stop(124)
        if status != 0:
            state["status"] = 123

    batch: list[str] = []
    batch_len = base_len
    lines = 0
    quote_error = None
    try:
        while True:
            try:
                got = await reader.next_items()
            except QuoteError as qe:
                got = qe.items or []
                quote_error = qe.kind
                reader.done = True
            if got is None:
                break
            shell.budget.check()
            for item, ends_line in got:
                if replace is not None:
                    await run([item])
                    continue
                ilen = len(encode(item)) + 1
                if batch and batch_len + ilen > size:
                    if opts["exit"] and (max_args is not None or max_lines is not None):
                        await shell.error("xargs", "argument list too long")
                        raise Stop(1)
                    await run(batch)
                    batch, batch_len, lines = [], base_len, 0
                if base_len + ilen > size:
                    await shell.error("xargs", "argument line too long")
                    raise Stop(1)
                batch.append(item)
                batch_len += ilen
                if ends_line:
                    lines += 1
                if max_args is not None and len(batch) >= max_args:
                    await run(batch)
                    batch, batch_len, lines = [], base_len, 0
                elif max_lines is not None and lines >= max_lines:
                    await run(batch)
                    batch, batch_len, lines = [], base_len, 0
            if quote_error:
                break
        if batch or (not state["ran"] and not opts["no_empty"] and replace is None
                     and not quote_error):
            await run(batch)
        if quote_error:
            await shell.error("xargs", f"unmatched {quote_error} quote; by default quotes are "
                                       "special to xargs unless you use the -0 option")
            return 1
    except Stop as s:
        return s.status
    return state["status"]
