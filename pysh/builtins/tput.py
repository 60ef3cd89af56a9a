"""tput (ncurses 6.4) for the terminals scripts name: the xterm, screen/tmux, linux, vt100
and dumb families, with the capabilities colour and cursor code uses (setaf setab bold dim
smul rmul rev blink smso rmso sitm ritm sgr0 el el1 ed clear cup home sc rc civis cnorm
cuu1 cud1 cuf1 cub1 cols lines colors longname). ``cols``/``lines`` come from $COLUMNS and
$LINES (else 80x24: there is no terminal to ask). ``-T TYPE``, ``-S`` (capabilities from
standard input), and ncurses' messages and exit statuses (2 no $TERM, 3 unknown terminal,
4 unknown capability, 1 a capability the terminal lacks). ``init``/``reset`` need a real
terminal and fail as ncurses does without one.
"""

from __future__ import annotations

E = "\x1b"
_XTERM = {
    "bold": E + "[1m", "dim": E + "[2m", "smul": E + "[4m", "rmul": E + "[24m",
    "rev": E + "[7m", "blink": E + "[5m", "smso": E + "[7m", "rmso": E + "[27m",
    "sitm": E + "[3m", "ritm": E + "[23m", "sgr0": E + "(B" + E + "[m", "el": E + "[K",
    "el1": E + "[1K", "ed": E + "[J", "clear": E + "[H" + E + "[2J" + E + "[3J",
    "home": E + "[H", "sc": E + "7", "rc": E + "8", "civis": E + "[?25l",
    "cnorm": E + "[?12l" + E + "[?25h", "cuu1": E + "[A", "cud1": "\n", "cuf1": E + "[C",
    "cub1": "\b", "smcup": E + "[?1049h" + E + "[22;0;0t", "rmcup": E + "[?1049l" + E + "[23;0;0t",
}
_SCREEN = {**_XTERM, "sgr0": E + "[m\x0f", "clear": E + "[H" + E + "[J", "cnorm": E + "[34h" + E + "[?25h",
           "smso": E + "[3m", "rmso": E + "[23m", "cuu1": E + "M", "smcup": E + "[?1049h",
           "rmcup": E + "[?1049l"}
for _k in ("sitm", "ritm"):
    _SCREEN.pop(_k)
_TMUX = {**_SCREEN, "smso": E + "[7m", "rmso": E + "[27m", "sitm": E + "[3m", "ritm": E + "[23m",
         "clear": E + "[H" + E + "[J" + E + "[3J"}
_LINUX = {**_XTERM, "sgr0": E + "[m\x0f", "clear": E + "[H" + E + "[J" + E + "[3J",
          "cnorm": E + "[?25h" + E + "[?0c", "civis": E + "[?25l" + E + "[?1c"}
for _k in ("sitm", "ritm", "smcup", "rmcup"):
    _LINUX.pop(_k)
_VT100 = {"bold": E + "[1m", "smul": E + "[4m", "rmul": E + "[m", "rev": E + "[7m",
          "blink": E + "[5m", "smso": E + "[7m", "rmso": E + "[m", "sgr0": E + "[m\x0f",
          "el": E + "[K", "el1": E + "[1K", "ed": E + "[J", "clear": E + "[H" + E + "[J",
          "home": E + "[H", "sc": E + "7", "rc": E + "8", "cuu1": E + "[A", "cud1": "\n",
          "cuf1": E + "[C", "cub1": "\b"}
# name -> (capabilities, colours, long name)
TERMINALS = {
    "xterm": (_XTERM, 8, "xterm terminal emulator (X Window System)"),
    "xterm-256color": (_XTERM, 256, "xterm with 256 colors"),
    "screen": (_SCREEN, 8, "VT 100/ANSI X3.64 virtual terminal"),
    "screen-256color": (_SCREEN, 256, "GNU Screen with 256 colors"),
    "tmux": (_TMUX, 8, "tmux terminal multiplexer"),
    "tmux-256color": (_TMUX, 256, "tmux with 256 colors"),
    "linux": (_LINUX, 8, "Linux console"),
    "vt100": (_VT100, -1, "DEC VT100 (w/advanced video)"),
    "vt220": ({**_VT100, "sgr0": E + "[m" + E + "(B", "rmul": E + "[24m", "rmso": E + "[27m",
               "civis": E + "[?25l", "cnorm": E + "[?25h"}, -1, "DEC VT220"),
    "dumb": ({"cud1": "\n"}, -1, "80-column dumb tty"),
}
KNOWN = {"setaf", "setab", "cup", "cols", "lines", "colors", "longname", "init", "reset",
         "bold", "dim", "smul", "rmul", "rev", "blink", "smso", "rmso", "sitm", "ritm", "sgr0",
         "el", "el1", "ed", "clear", "home", "sc", "rc", "civis", "cnorm", "cuu1", "cud1",
         "cuf1", "cub1", "smcup", "rmcup"}
_SETAF_RAW = {256: E + "[%?%p1%{8}%<%t3%p1%d%e%p1%{16}%<%t9%p1%{8}%-%d%e38;5;%p1%d%;m",
              8: E + "[3%p1%dm"}
_SETAB_RAW = {256: E + "[%?%p1%{8}%<%t4%p1%d%e%p1%{16}%<%t10%p1%{8}%-%d%e48;5;%p1%d%;m",
              8: E + "[4%p1%dm"}


USAGE = b"""Usage: tput [options] [command]

Options:
  -S <<       read commands from standard input
  -T TERM     use this instead of $TERM
  -V          print curses-version
  -x          do not try to clear scrollback

Commands:
  clear       clear the screen
  init        initialize the terminal
  reset       reinitialize the terminal
  capname     unlike clear/init/reset, print value for capability "capname"
"""


def _atoi(s: str) -> int:
    digits = ""
    for i, c in enumerate(s.strip()):
        if c.isdigit() or (i == 0 and c in "+-"):
            digits += c
        else:
            break
    try:
        return int(digits)
    except ValueError:
        return 0


def _color(n: int, colors: int, fg: bool) -> str:
    base = 3 if fg else 4
    if colors == 256:
        if n < 8:
            return f"{E}[{base}{n}m"
        if n < 16:
            return f"{E}[{base + 6 if fg else 10}{n - 8}m"
        return f"{E}[{base}8;5;{n}m"
    return f"{E}[{base}{n}m"


def _capability(shell, term: str, cap: str, args: list[str]) -> tuple[str, int]:
    """(output, status) of one capability; an error message goes in a status > 1."""
    caps, colors, long_name = TERMINALS[term]
    if cap not in KNOWN:
        return f"tput: unknown terminfo capability '{cap}'\n", 4
    if cap == "cols":
        return f"{_atoi(shell.env.get('COLUMNS', '')) or 80}\n", 0
    if cap == "lines":
        return f"{_atoi(shell.env.get('LINES', '')) or 24}\n", 0
    if cap == "colors":
        return f"{colors}\n", 0
    if cap == "longname":
        return long_name, 0
    if cap in ("init", "reset"):
        return "tput: terminal attributes: No such device or address\n\n", 10
    if cap == "clear" and "clear" not in caps:
        return "", 2  # ncurses' tput clears through the terminal description or fails
    if cap in ("setaf", "setab"):
        if colors < 0:
            return "", 1
        if not args:
            return (_SETAF_RAW if cap == "setaf" else _SETAB_RAW)[colors], 0
        return _color(_atoi(args[0]), colors, cap == "setaf"), 0
    if cap == "cup":
        if "home" not in caps:  # a terminal without cursor addressing
            return "", 1
        row, col = (_atoi(a) for a in (args + ["0", "0"])[:2])
        return f"{E}[{row + 1};{col + 1}H", 0
    value = caps.get(cap)
    if value is None:
        return "", 1
    return value, 0


async def main(shell, argv: list[str]) -> int:
    args = argv[1:]
    term = shell.env.get("TERM")
    from_stdin = False
    while args and args[0].startswith("-") and args[0] != "-":
        a = args.pop(0)
        if a == "-S":
            from_stdin = True
        elif a.startswith("-T"):
            term = a[2:] or (args.pop(0) if args else "")
        elif a in ("-V", "--version"):
            await shell.stdout.write(b"ncurses 6.4.20221231\n")
            return 0
        elif a == "-x":
            continue
        else:
            await shell.stderr.write(f"tput: invalid option -- '{a[1:2]}'\n".encode() + USAGE)
            return 2
    if not term:
        await shell.stderr.write(b"tput: No value for $TERM and no -T specified\n")
        return 2
    if term not in TERMINALS:
        await shell.stderr.write(f'tput: unknown terminal "{term}"\n'.encode("utf-8", "surrogateescape"))
        return 3
    if from_stdin:
        requests = [line.split() for line in (await shell.stdin.read()).decode(
            "utf-8", "surrogateescape").splitlines() if line.split()]
    elif args:
        requests = [args]
    else:
        await shell.stderr.write(USAGE)
        return 2
    out: list[str] = []
    status = 0
    for cap, *rest in requests:
        text, code = _capability(shell, term, cap, rest)
        if code > 1:
            await shell.stdout.write("".join(out).encode())
            await shell.stderr.write(text.encode("utf-8", "surrogateescape"))
            return code
        out.append(text)
        status = status or code
    await shell.stdout.write("".join(out).encode())
    return status
