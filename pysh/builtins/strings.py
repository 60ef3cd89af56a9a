"""strings: print the printable character sequences in files (GNU binutils, whole file)."""

from __future__ import annotations

import re

from pysh.builtins._textutil import (
    OptionError,
    help_text,
    parse_options,
    strerror,
)
from pysh.shellkit.text import encode

HELP = """\
Usage: strings [option(s)] [file(s)]
 Display printable strings in [file(s)] (stdin by default)
 The options are:
  -a - --all                Scan the entire file, not just the data section [default]
  -f --print-file-name      Print the name of the file before each string
  -n <number>               Locate & print any sequence of at least <number>
    --bytes=<number>         displayable characters.  (The default is 4).
  -t --radix={o,d,x}        Print the location of the string in base 8, 10 or 16
  -o                        An alias for --radix=o
  -w --include-all-whitespace Include all whitespace as valid string characters
  -s --output-separator=<string> String used to separate strings in output.
  -h --help                 Display this information
  -v -V --version           Print the program's version number
"""

LONG = {"all": "a", "print-file-name": "f", "bytes=": "n", "radix=": "t",
        "include-all-whitespace": "w", "output-separator=": "s", "help": "h",
        "version": "v", "data": "d"}


async def main(shell, argv: list[str]) -> int:
    prog = "strings"
    args = []
    for a in argv[1:]:
        if len(a) > 1 and a[0] == "-" and a[1:].isdigit():
            args += ["-n", a[1:]]
        else:
            args.append(a)
    try:
        opts, files = parse_options(args, "adfn:t:ows:hvV", LONG)
    except OptionError as e:
        await shell.error(prog, str(e))
        await shell.stderr.write(encode(HELP))
        return 1
    minlen = 4
    radix = None
    print_name = False
    allws = False
    sep = b"\n"
    for k, v in opts:
        if k == "h":
            return await help_text(shell, HELP)
        if k in ("v", "V"):
            await shell.stdout.write(b"GNU strings (GNU Binutils for Debian) 2.40\n")
            return 0
        if k == "n":
            try:
                minlen = int(v or "")
                if minlen < 1:
                    raise ValueError
            except ValueError:
                await shell.error(prog, f"invalid minimum string length {v}")
                return 1
        elif k == "t":
            if v not in ("o", "d", "x"):
                await shell.error(prog, f"invalid radix: {v}" if False else
                                  "invalid argument to -t/--radix: " + (v or ""))
                return 1
            radix = v
        elif k == "o":
            radix = "o"
        elif k == "f":
            print_name = True
        elif k == "w":
            allws = True
        elif k == "s":
            sep = encode(v or "")
    cls = rb"[\x20-\x7e\t\n\r\f\v]" if allws else rb"[\x20-\x7e\t]"
    status = 0
    for name in files or ["-"]:
        try:
            stream = shell.open_input(name)
        except OSError as e:
            if e.errno == 21:
                await shell.error(prog, f"Warning: '{name}' is a directory")
            else:
                what = "No such file" if e.errno == 2 else strerror(e)
                await shell.error(prog, f"'{name}': {what}")
            status = 1
            continue
        try:
            data = await stream.read()
        finally:
            stream.close()
        shell.budget.check()
        # no run can be longer than the data: past it a huge -n is the same (and re can compile it)
        pat = re.compile(cls + b"{%d,}" % min(minlen, len(data) + 1))
        shown = encode("{standard input}" if name == "-" else name)
        out = []
        for m in pat.finditer(data):
            prefix = b""
            if print_name:
                prefix = shown + b": "
            if radix is not None:
                fmt = {"o": "%7o ", "d": "%7d ", "x": "%7x "}[radix]
                prefix += encode(fmt % m.start())
            out.append(prefix + m.group() + sep)
        await shell.stdout.write(b"".join(out))
    return status
