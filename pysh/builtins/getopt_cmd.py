"""getopt (util-linux 2.38): parse a script's options with GNU getopt_long and print them
normalised for ``eval set -- "$(getopt ...)"``.

The three forms (``getopt OPTSTRING PARAMS``, ``getopt [options] [--] OPTSTRING PARAMS``,
``getopt [options] -o OPTSTRING [options] [--] PARAMS``), ``-l`` long options (``name``,
``name:``, ``name::``; unambiguous prefixes), ``-a`` long options after one dash, ``-n``,
``-q``, ``-Q``, ``-s sh|bash|csh|tcsh``, ``-u``, ``-T`` (status 4), a leading ``+`` (stop at
the first operand) or ``-`` (operands in place) in OPTSTRING, and ``POSIXLY_CORRECT``.
Bad options are reported and skipped; the status is then 1 (2 for getopt's own usage).
"""

from __future__ import annotations

from pysh.shellkit import on_write_error
from pysh.shellkit.options import OptionError, parse_options

PROG = "getopt"
USAGE = """
Usage:
 getopt <optstring> <parameters>
 getopt [options] [--] <optstring> <parameters>
 getopt [options] -o|--options <optstring> [options] [--] <parameters>

Parse command options.

Options:
 -a, --alternative             allow long options starting with single -
 -l, --longoptions <longopts>  the long options to be recognized
 -n, --name <progname>         the name under which errors are reported
 -o, --options <optstring>     the short options to be recognized
 -q, --quiet                   disable error reporting by getopt(3)
 -Q, --quiet-output            no normal output
 -s, --shell <shell>           set quoting conventions to those of <shell>
 -T, --test                    test for getopt(1) version
 -u, --unquoted                do not quote the output

 -h, --help                    display this help
 -V, --version                 display version

For more details see getopt(1).
"""
OWN_LONG = {"alternative": "a", "longoptions=": "l", "name=": "n", "options=": "o",
            "quiet": "q", "quiet-output": "Q", "shell=": "s", "test": "T", "unquoted": "u",
            "help": "h", "version": "V"}


def _quote(s: str, shell: str) -> str:
    s = s.replace("'", "'\\''")
    if shell in ("csh", "tcsh"):  # ! leaves the quotes backslashed; a newline is \\n
        s = s.replace("!", "'\\!'").replace("\n", "\\n")
    return "'" + s + "'"


def _short_spec(optstring: str) -> dict[str, int]:
    """letter -> 0 (no argument), 1 (required), 2 (optional)."""
    spec: dict[str, int] = {}
    i = 0
    while i < len(optstring):
        c = optstring[i]
        kind = 0
        if optstring[i + 1:i + 3] == "::":
            kind, i = 2, i + 2
        elif optstring[i + 1:i + 2] == ":":
            kind, i = 1, i + 1
        spec[c] = kind
        i += 1
    return spec


def _long_spec(longopts: list[str]) -> dict[str, int]:
    spec: dict[str, int] = {}
    for group in longopts:
        for name in group.replace(" ", ",").split(","):
            if not name:
                continue
            kind = 2 if name.endswith("::") else 1 if name.endswith(":") else 0
            spec[name.rstrip(":")] = kind
    return spec


class _Parse:
    def __init__(self, short: dict[str, int], long: dict[str, int], alternative: bool):
        self.short, self.long, self.alternative = short, long, alternative
        self.errors: list[str] = []

    def _match_long(self, name: str, arg: str) -> str | None:
        if name in self.long:
            return name
        hits = [k for k in self.long if k.startswith(name)]
        if len(hits) == 1:
            return hits[0]
        if not hits:
            self.errors.append(f"unrecognized option '{arg}'")
        else:
            poss = " ".join(f"'--{h}'" for h in hits)
            self.errors.append(f"option '{arg}' is ambiguous; possibilities: {poss}")
        return None

    def long_option(self, arg: str, body: str, params: list[str], i: int, out: list) -> int:
        name, eq, value = body.partition("=")
        full = self._match_long(name, arg.partition("=")[0] if eq else arg)
        if full is None:
            return i
        kind = self.long[full]
        if kind == 0:
            if eq:
                self.errors.append(f"option '--{full}' doesn't allow an argument")
                return i
            out.append(("--" + full, None))
        elif kind == 1:
            if not eq:
                if i >= len(params):
                    self.errors.append(f"option '--{full}' requires an argument")
                    return i
                value, i = params[i], i + 1
            out.append(("--" + full, value))
        else:
            out.append(("--" + full, value if eq else ""))
        return i

    def short_cluster(self, arg: str, params: list[str], i: int, out: list) -> int:
        j = 1
        while j < len(arg):
            c = arg[j]
            kind = self.short.get(c)
            if kind is None or c in ":;":
                self.errors.append(f"invalid option -- '{c}'")
                j += 1
                continue
            rest = arg[j + 1:]
            if kind == 0:
                out.append(("-" + c, None))
                j += 1
                continue
            if kind == 2:
                out.append(("-" + c, rest))
            elif rest:
                out.append(("-" + c, rest))
            elif i < len(params):
                out.append(("-" + c, params[i]))
                i += 1
            else:
                self.errors.append(f"option requires an argument -- '{c}'")
            break
        return i


def _normalise(parse: _Parse, params: list[str], mode: str):
    """(options with their values, operands) the way glibc's getopt_long permutes them."""
    opts: list[tuple[str, str | None]] = []
    operands: list[str] = []
    i = 0
    while i < len(params):
        arg = params[i]
        i += 1
        if arg == "--":
            operands.extend(params[i:])
            break
        if arg.startswith("--") and len(arg) > 2:
            i = parse.long_option(arg, arg[2:], params, i, opts)
        elif arg.startswith("-") and len(arg) > 1:
            if parse.alternative and parse.long:
                name = arg[1:].partition("=")[0]
                if name in parse.long or (len(name) > 1 and any(k.startswith(name) for k in parse.long)):
                    i = parse.long_option(arg, arg[1:], params, i, opts)
                    continue
            i = parse.short_cluster(arg, params, i, opts)
        elif mode == "+":
            operands.extend(params[i - 1:])
            break
        elif mode == "-":
            opts.append(("\1", arg))  # an operand kept in place
        else:
            operands.append(arg)
    return opts, operands


@on_write_error(3)
async def main(shell, argv: list[str]) -> int:
    args = argv[1:]
    try:
        own, rest = parse_options(args, "al:n:o:qQs:TuhV", OWN_LONG, permute=False)
    except OptionError as e:
        await shell.error(PROG, str(e))
        await shell.stderr.write(b"Try 'getopt --help' for more information.\n")
        return 2
    optstring = None
    longopts: list[str] = []
    name = PROG
    quiet = quiet_output = unquoted = alternative = False
    shell_kind = "bash"
    for key, val in own:
        if key == "h":
            await shell.stdout.write(USAGE.encode())
            return 0
        if key == "V":
            await shell.stdout.write(b"getopt from util-linux 2.38.1\n")
            return 0
        if key == "T":
            return 4
        if key == "o":
            optstring = val
        elif key == "l":
            longopts.append(val or "")
        elif key == "n":
            name = val or ""
        elif key == "q":
            quiet = True
        elif key == "Q":
            quiet_output = True
        elif key == "u":
            unquoted = True
        elif key == "a":
            alternative = True
        elif key == "s":
            if val not in ("sh", "bash", "csh", "tcsh"):
                await shell.error(PROG, "unknown shell after -s or --shell argument")
                await shell.stderr.write(b"Try 'getopt --help' for more information.\n")
                return 2
            shell_kind = val
    if not own and rest and not rest[0].startswith("-"):
        unquoted = True  # the first, compatible form: getopt OPTSTRING PARAMS
    if optstring is None:
        if not rest:
            await shell.error(PROG, "missing optstring argument")
            await shell.stderr.write(b"Try 'getopt --help' for more information.\n")
            return 2
        optstring, rest = rest[0], rest[1:]
    mode = ""
    if optstring and optstring[0] in "+-":
        mode, optstring = optstring[0], optstring[1:]
    elif "POSIXLY_CORRECT" in shell.env:
        mode = "+"
    parse = _Parse(_short_spec(optstring), _long_spec(longopts), alternative)
    opts, operands = _normalise(parse, rest, mode)
    if parse.errors and not quiet:
        await shell.stderr.write("".join(f"{name}: {e}\n" for e in parse.errors).encode(
            "utf-8", "surrogateescape"))

    def q(s: str) -> str:
        return s if unquoted else _quote(s, shell_kind)

    if not quiet_output:
        words = []
        for opt, val in opts:
            if opt == "\1":
                words.append(q(val or ""))
                continue
            words.append(opt)
            if val is not None:
                words.append(q(val))
        words.append("--")
        words.extend(q(o) for o in operands)
        await shell.stdout.write((" " + " ".join(words) + "\n").encode("utf-8", "surrogateescape"))
    return 1 if parse.errors else 0
