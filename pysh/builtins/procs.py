"""ps, pgrep and pkill over the sandbox's virtual process table.

The table is the interpreter's (``shell.processes()``): the shell, its jobs
and the commands running now. Columns follow procps-ng; values the sandbox
cannot know (CPU time, memory) are zero. ``pkill`` signals through the
shell's own ``kill`` (jobs are cancelled), never a host process.
"""

from __future__ import annotations

import time

from pysh.builtins._misc_time import get_tz, localtime
from pysh.builtins._misc_util import Out, print_help
from pysh.builtins.sysinfo import USER
from pysh.shellkit import CaptureOutput, ProcessInfo, Shell
from pysh.shellkit.regex import RegexError, compile_posix
from pysh.shellkit.text import encode

TTY = "?"

PS_HELP = """\

Usage:
 ps [options]

 Basic options:
 -A, -e               all processes
 a                    all with tty, including other users
 -a                   all with tty, except session leaders
  -d                  all except session leaders
 -N, --deselect       negate selection
 r                    only running processes
 T                    all processes on this terminal
 x                    processes without controlling ttys

Selection by list:
 -p, p, --pid <PID>   process id
 --ppid <PID>         parent process id
 -C <command>         command name

Output formats:
 -F                   extra full
 -f                   full-format, including command lines
 -o, o, --format <format>
                      user-defined format
 u                    user-oriented format
 --no-headers         do not print header at all
"""

FIELDS = {
    # name: (header, width, align)
    "pid": ("PID", 5, ">"), "ppid": ("PPID", 5, ">"), "user": ("USER", 8, "<"),
    "uid": ("UID", 5, ">"), "euser": ("EUSER", 8, "<"), "comm": ("COMMAND", 0, "<"),
    "ucomm": ("COMMAND", 0, "<"), "cmd": ("CMD", 0, "<"), "args": ("COMMAND", 0, "<"),
    "command": ("COMMAND", 0, "<"), "stat": ("STAT", 4, "<"), "state": ("S", 1, "<"),
    "s": ("S", 1, "<"), "tty": ("TT", 8, "<"), "tname": ("TTY", 8, "<"), "tt": ("TT", 8, "<"),
    "time": ("TIME", 8, ">"), "cputime": ("TIME", 8, ">"), "bsdtime": ("TIME", 6, ">"), "etime": ("ELAPSED", 11, ">"),
    "etimes": ("ELAPSED", 7, ">"), "stime": ("STIME", 5, ">"), "start": ("STARTED", 8, ">"),
    "lstart": ("STARTED", 24, "<"), "bsdstart": ("START", 5, ">"), "pcpu": ("%CPU", 4, ">"), "%cpu": ("%CPU", 4, ">"),
    "pmem": ("%MEM", 4, ">"), "%mem": ("%MEM", 4, ">"), "vsz": ("VSZ", 6, ">"),
    "rss": ("RSS", 5, ">"), "nice": ("NI", 3, ">"), "ni": ("NI", 3, ">"), "pri": ("PRI", 3, ">"),
    "pgid": ("PGID", 5, ">"), "sid": ("SID", 5, ">"), "c": ("C", 2, ">"),
    "group": ("GROUP", 8, "<"), "gid": ("GID", 5, ">"), "wchan": ("WCHAN", 6, "<"),
}


def process_table(shell: Shell) -> list[ProcessInfo]:
    """The process rows, by pid; a background job running one simple command is one process.

    The interpreter lists a job and the command it runs; in bash the job *is* that
    process (fork + exec), so the child row of the same command line is folded into
    the job's row, whose pid is the one ``$!`` and ``kill`` know.
    """
    rows = sorted(shell.processes(), key=lambda p: p.pid)
    by_pid = {p.pid: p for p in rows}
    children: dict[int, list[ProcessInfo]] = {}
    for p in rows:
        children.setdefault(p.ppid, []).append(p)
    out = []
    for p in rows:
        parent = by_pid.get(p.ppid)
        if (parent is not None and parent.command == p.command
                and len(children.get(parent.pid, [])) == 1):
            continue
        out.append(p)
    return out


def _comm(p: ProcessInfo) -> str:
    first = p.command.split(" ", 1)[0] if p.command else ""
    return (first.rsplit("/", 1)[-1] or first)[:15]


def _value(p: ProcessInfo, field: str, tz, now: float) -> str:
    started = p.started or now
    if field == "pid":
        return str(p.pid)
    if field == "ppid":
        return str(p.ppid)
    if field in ("user", "euser"):
        return USER
    if field == "group":
        return USER
    if field in ("uid", "gid"):
        return "1000"
    if field in ("comm", "ucomm"):
        return _comm(p)
    if field in ("cmd", "args", "command"):
        return p.command or _comm(p)
    if field == "stat":
        return p.state + ("s" if p.pid in _LEADERS else "")
    if field in ("state", "s"):
        return p.state
    if field in ("tty", "tname", "tt"):
        return TTY
    if field in ("time", "cputime"):
        return "00:00:00"
    if field == "bsdtime":
        return "0:00"
    if field == "etime":
        el = max(0, int(now - started))
        d, rem = divmod(el, 86400)
        h, rem = divmod(rem, 3600)
        m, s = divmod(rem, 60)
        if d:
            return f"{d}-{h:02d}:{m:02d}:{s:02d}"
        if h:
            return f"{h:02d}:{m:02d}:{s:02d}"
        return f"{m:02d}:{s:02d}"
    if field == "etimes":
        return str(max(0, int(now - started)))
    if field in ("stime", "start", "bsdstart"):
        dt = localtime(int(started), tz)
        if field == "start":
            return dt.strftime("%H:%M:%S")
        if now - started > 86400:
            return dt.strftime("%b%d")
        return dt.strftime("%H:%M")
    if field == "lstart":
        return localtime(int(started), tz).strftime("%a %b %e %H:%M:%S %Y")
    if field in ("pcpu", "%cpu", "pmem", "%mem"):
        return "0.0"
    if field in ("vsz", "rss", "nice", "ni", "c"):
        return "0"
    if field == "pri":
        return "19"
    if field in ("pgid", "sid"):
        return str(p.pid)
    if field == "wchan":
        return "-"
    return "-"


_LEADERS: set[int] = set()


def _render(rows: list[ProcessInfo], fields: list[tuple[str, str]], headers: bool,
            tz) -> str:
    now = time.time()
    pids = {p.pid for p in rows}
    _LEADERS.clear()
    _LEADERS.update(p.pid for p in rows if p.ppid not in pids and p.state != "R")
    table = [[_value(p, f, tz, now) for f, _ in fields] for p in rows]
    widths = []
    for k, (f, header) in enumerate(fields):
        _, w, _a = FIELDS.get(f, (header, 0, "<"))
        col = [len(header)] + [len(r[k]) for r in table]
        widths.append(max([w] + col))
    lines = []

    def fmt(cells: list[str]) -> str:
        parts = []
        for k, (f, _) in enumerate(fields):
            align = FIELDS.get(f, ("", 0, "<"))[2]
            last = k == len(fields) - 1
            if last and align == "<":
                parts.append(cells[k])
            elif align == ">":
                parts.append(cells[k].rjust(widths[k]))
            else:
                parts.append(cells[k].ljust(widths[k]))
        return " ".join(parts).rstrip() if fields[-1][0] not in ("cmd", "args", "command",
                                                                 "comm") else " ".join(parts)

    if headers and any(h for _, h in fields):
        lines.append(fmt([h for _, h in fields]))
    for r in table:
        lines.append(fmt(r))
    return "\n".join(lines) + "\n"


def _parse_format(spec: str) -> list[tuple[str, str]] | None:
    out = []
    for item in spec.replace(" ", ",").split(","):
        if not item:
            continue
        name, eq, header = item.partition("=")
        key = name.lower()
        if key not in FIELDS:
            return None
        out.append((key, header if eq else FIELDS[key][0]))
    return out


async def ps_main(shell: Shell, argv: list[str]) -> int:
    args = argv[1:]
    full = False
    user_fmt = False
    fmt: list[tuple[str, str]] | None = None
    headers = True
    pids: set[int] | None = None
    ppids: set[int] | None = None
    names: set[str] | None = None
    i = 0
    while i < len(args):
        a = args[i]
        i += 1
        if a in ("--help", "-h"):
            return await print_help(shell, PS_HELP)
        if a in ("-V", "--version", "V"):
            await shell.stdout.write(b"ps from procps-ng 4.0.2\n")
            return 0
        if a in ("--no-headers", "--no-heading", "h"):
            headers = False
            continue
        if a.startswith("--"):
            name, eq, value = a[2:].partition("=")
            if name in ("pid", "ppid", "format", "cols", "columns", "width", "sort"):
                if not eq:
                    if i >= len(args):
                        await shell.stderr.write(encode(f"error: list of {name} required\n"))
                        return 1
                    value = args[i]
                    i += 1
                if name == "pid":
                    pids = _int_set(value)
                elif name == "ppid":
                    ppids = _int_set(value)
                elif name == "format":
                    fmt = _parse_format(value)
                    if fmt is None:
                        await shell.stderr.write(b"error: unknown user-defined format specifier\n")
                        return 1
                continue
            if name in ("deselect", "forest", "cumulative", "headers"):
                continue
            await shell.stderr.write(encode(f"error: unknown gnu long option\n{PS_HELP}"))
            return 1
        bsd = not a.startswith("-")
        body = a.lstrip("-")
        j = 0
        while j < len(body):
            ch = body[j]
            j += 1
            if ch in "eAadxrTNgwHLjlsvXyZ":
                if ch == "l" and not bsd:
                    full = True
                continue
            if ch == "f":
                if not bsd:
                    full = True
                continue
            if ch == "F":
                full = True
                continue
            if ch == "u" and bsd:
                user_fmt = True
                continue
            if ch in "opCqUuGtsq":
                value = body[j:]
                if not value:
                    if i >= len(args):
                        await shell.stderr.write(encode(f"error: list of {ch} required\n"))
                        return 1
                    value = args[i]
                    i += 1
                if ch == "o":
                    fmt = _parse_format(value)
                    if fmt is None:
                        await shell.stderr.write(b"error: unknown user-defined format specifier\n")
                        return 1
                elif ch in "pq":
                    pids = _int_set(value)
                elif ch == "C":
                    names = set(value.split(","))
                break
            await shell.stderr.write(encode(f"error: unsupported option (BSD syntax)\n{PS_HELP}"
                                            if bsd else f"error: unknown option: -{ch}\n"))
            return 1
    rows = process_table(shell)
    if pids is not None:
        rows = [p for p in rows if p.pid in pids]
    if ppids is not None:
        rows = [p for p in rows if p.ppid in ppids]
    if names is not None:
        rows = [p for p in rows if _comm(p) in names]
    if fmt is None:
        if user_fmt:
            fmt = [("user", "USER"), ("pid", "PID"), ("%cpu", "%CPU"), ("%mem", "%MEM"),
                   ("vsz", "VSZ"), ("rss", "RSS"), ("tty", "TTY"), ("stat", "STAT"),
                   ("start", "START"), ("bsdtime", "TIME"), ("command", "COMMAND")]
        elif full:
            fmt = [("uid", "UID"), ("pid", "PID"), ("ppid", "PPID"), ("c", "C"),
                   ("stime", "STIME"), ("tty", "TTY"), ("time", "TIME"), ("cmd", "CMD")]
        else:
            fmt = [("pid", "PID"), ("tty", "TTY"), ("time", "TIME"), ("comm", "CMD")]
    if user_fmt or full:
        fmt = [("user", h) if f == "uid" and full else (f, h) for f, h in fmt]
        if user_fmt:
            fmt = [(f, h) if f != "start" else ("bsdstart", h) for f, h in fmt]
    out = Out(shell.stdout)
    await out.text(_render(rows, fmt, headers, get_tz(shell.env)))
    await out.flush()
    return 0 if rows else 1


def _int_set(value: str) -> set[int]:
    out = set()
    for part in value.replace(" ", ",").split(","):
        if part.strip().isdigit():
            out.add(int(part))
    return out


# ------------------------------------------------------------- pgrep/pkill
PGREP_HELP = """\

Usage:
 {prog} [options] <pattern>

Options:
{signal} -d, --delimiter <string>  specify output delimiter
 -l, --list-name           list PID and process name
 -a, --list-full           list PID and full command line
 -v, --inverse             negates the matching
 -c, --count               count of matching processes
 -f, --full                use full process name to match
 -i, --ignore-case         match case insensitively
 -n, --newest              select most recently started
 -o, --oldest              select least recently started
 -P, --parent <PPID,...>   match only child processes of the given parent
 -u, --euid <ID,...>       match by effective IDs
 -U, --uid <ID,...>        match by real IDs
 -x, --exact               match exactly with the command name

 -h, --help     display this help and exit
 -V, --version  output version information and exit

For more details see {prog}(1).
"""


async def _grep_main(shell: Shell, argv: list[str], kill: bool) -> int:
    prog = "pkill" if kill else "pgrep"
    args = argv[1:]
    opts = {"full": False, "list": False, "listfull": False, "exact": False, "newest": False,
            "oldest": False, "count": False, "inverse": False, "icase": False,
            "delim": "\n", "parent": None, "users": None, "echo": False}
    sig = 15
    patterns: list[str] = []
    i = 0
    usage = PGREP_HELP.format(prog=prog, signal=" -<sig>, --signal <sig>    signal to send "
                              "(either number or name)\n -e, --echo                display "
                              "what is killed\n" if kill else "")

    async def bad(msg: str) -> int:
        await shell.error(prog, msg)
        await shell.stderr.write(encode(f"Try `{prog} --help' for more information.\n"))
        return 2

    while i < len(args):
        a = args[i]
        i += 1
        if a == "--":
            patterns.extend(args[i:])
            break
        if a.startswith("--"):
            name, eq, value = a[2:].partition("=")
            need = name in ("delimiter", "parent", "euid", "uid", "signal", "pgroup", "group",
                            "session", "terminal", "pidfile", "runstates", "older")
            if need and not eq:
                if i >= len(args):
                    return await bad(f"option '--{name}' requires an argument")
                value = args[i]
                i += 1
            table = {"list-name": "list", "list-full": "listfull", "full": "full",
                     "exact": "exact", "newest": "newest", "oldest": "oldest", "count": "count",
                     "inverse": "inverse", "ignore-case": "icase", "echo": "echo"}
            if name in table:
                opts[table[name]] = True
            elif name == "delimiter":
                opts["delim"] = value
            elif name == "parent":
                opts["parent"] = _int_set(value)
            elif name in ("euid", "uid"):
                opts["users"] = set(value.split(","))
            elif name == "signal" and kill:
                from pysh.builtins.timing import signal_number

                n = signal_number(value)
                if n is None:
                    return await bad(f"Unknown signal \"{value}\".")
                sig = n
            elif name == "help":
                return await print_help(shell, usage)
            elif name == "version":
                await shell.stdout.write(encode(f"{prog} from procps-ng 4.0.2\n"))
                return 0
            elif need:
                pass
            else:
                return await bad(f"unrecognized option '{a}'")
            continue
        if a.startswith("-") and len(a) > 1:
            if kill and (a[1:].isdigit() or a[1:].isupper() or a[1:].upper().startswith("SIG")):
                from pysh.builtins.timing import signal_number

                n = signal_number(a[1:])
                if n is None:
                    return await bad(f"Unknown signal \"{a[1:]}\".")
                sig = n
                continue
            j = 1
            while j < len(a):
                ch = a[j]
                j += 1
                simple = {"f": "full", "l": "list", "a": "listfull", "x": "exact", "n": "newest",
                          "o": "oldest", "c": "count", "v": "inverse", "i": "icase",
                          "e": "echo"}
                if ch in simple and (ch not in "le" or (ch == "l" and not kill)
                                     or (ch == "e" and kill)):
                    opts[simple[ch]] = True
                    continue
                if ch in "dPuUgGstFr":
                    value = a[j:]
                    if not value:
                        if i >= len(args):
                            return await bad(f"option requires an argument -- '{ch}'")
                        value = args[i]
                        i += 1
                    if ch == "d":
                        opts["delim"] = value
                    elif ch == "P":
                        opts["parent"] = _int_set(value)
                    elif ch in "uU":
                        opts["users"] = set(value.split(","))
                    break
                if ch in "hV":
                    if ch == "h":
                        return await print_help(shell, usage)
                    await shell.stdout.write(encode(f"{prog} from procps-ng 4.0.2\n"))
                    return 0
                await shell.error(prog, f"invalid option -- '{ch}'")
                await shell.stderr.write(encode(usage))
                return 2
            continue
        patterns.append(a)
    if len(patterns) > 1:
        await shell.error(prog, "only one pattern can be provided")
        await shell.stderr.write(encode(f"Try `{prog} --help' for more information.\n"))
        return 2
    if not patterns and opts["parent"] is None and opts["users"] is None:
        await shell.error(prog, "no matching criteria specified")
        await shell.stderr.write(encode(f"Try `{prog} --help' for more information.\n"))
        return 2
    rx = None
    if patterns:
        try:
            rx = compile_posix(patterns[0], extended=True, icase=opts["icase"], longest=False,
                               budget=shell.budget)
        except RegexError as e:
            await shell.error(prog, f"cannot compile regular expression '{patterns[0]}': {e}")
            return 2
    rows = process_table(shell)
    me = _self_pid(rows, argv)
    matched: list[ProcessInfo] = []
    for p in rows:
        if me is not None and p.pid == me:
            continue
        ok = True
        if rx is not None:
            subject = p.command if opts["full"] else _comm(p)
            if opts["exact"]:
                m = rx.fullmatch(subject)
            else:
                m = rx.search(subject)
            ok = m is not None
        if ok and opts["parent"] is not None:
            ok = p.ppid in opts["parent"]
        if ok and opts["users"] is not None:
            ok = bool(opts["users"] & {USER, "1000"})
        if opts["inverse"]:
            ok = not ok
        if ok:
            matched.append(p)
    if opts["newest"] and matched:
        matched = [max(matched, key=lambda p: (p.started, p.pid))]
    elif opts["oldest"] and matched:
        matched = [min(matched, key=lambda p: (p.started, p.pid))]
    out = Out(shell.stdout)
    if kill:
        status = 0 if matched else 1
        for p in matched:
            if opts["echo"]:
                await out.text(f"{_comm(p)} killed (pid {p.pid})\n")
        await out.flush()
        for p in matched:
            if not await _signal(shell, p, rows, sig):
                await shell.error(prog, f"killing pid {p.pid} failed: Operation not permitted")
        return status
    if opts["count"]:
        await out.text(f"{len(matched)}\n")
        await out.flush()
        return 0 if matched else 1
    items = []
    for p in matched:
        if opts["listfull"]:
            items.append(f"{p.pid} {p.command or _comm(p)}")
        elif opts["list"]:
            items.append(f"{p.pid} {_comm(p)}")
        else:
            items.append(str(p.pid))
    if items:
        await out.text(opts["delim"].join(items) + "\n")
    await out.flush()
    return 0 if matched else 1


async def _signal(shell: Shell, p: ProcessInfo, rows: list[ProcessInfo], sig: int) -> bool:
    """Signal one virtual process: through the executor if it can, else the shell's kill.

    A running command inside a background job is reached through its job (its parent),
    which is what the shell's ``kill`` knows.
    """
    fn = getattr(shell.executor, "kill", None)
    if fn is not None:
        r = fn(p.pid, sig)
        if hasattr(r, "__await__"):
            r = await r
        return bool(r) or r is None
    top = min((q.pid for q in rows if q.ppid not in {r.pid for r in rows}), default=None)
    for target in (p.pid, p.ppid):
        if target == top:
            continue
        sink = CaptureOutput()
        if await shell.run(["kill", f"-{sig}", str(target)], stderr=sink, stdout=sink) == 0:
            return True
    return False


def _self_pid(rows: list[ProcessInfo], argv: list[str]) -> int | None:
    """The row of this very pgrep/pkill (the newest one running this command line)."""
    line = " ".join(argv)
    mine = [p for p in rows if p.command == line and p.state == "R"]
    return max(mine, key=lambda p: p.pid).pid if mine else None


async def pgrep_main(shell: Shell, argv: list[str]) -> int:
    return await _grep_main(shell, argv, kill=False)


async def pkill_main(shell: Shell, argv: list[str]) -> int:
    return await _grep_main(shell, argv, kill=True)
