"""date: print the time in a format, or the time a date string names (GNU coreutils 9.1).

Setting the clock (``-s``, ``MMDDhhmm...``) is refused: the sandbox's clock is
not the script's to change. ``TZ`` comes from the shell's environment.
"""

from __future__ import annotations

import errno
import time

from pysh.builtins._misc_datetime import DateError, parse_date, strftime
from pysh.builtins._misc_time import get_tz, localtime, tz_from_string
from pysh.builtins._misc_util import Out, print_help, quote, strerror, usage_error
from pysh.shellkit import FileSystemError, Shell
from pysh.shellkit.text import decode

HELP = """\
Usage: date [OPTION]... [+FORMAT]
  or:  date [-u|--utc|--universal] [MMDDhhmm[[CC]YY][.ss]]
Display date and time in the given FORMAT.
With -s, or with [MMDDhhmm[[CC]YY][.ss]], set the date and time.

Mandatory arguments to long options are mandatory for short options too.
  -d, --date=STRING          display time described by STRING, not 'now'
      --debug                annotate the parsed date,
                              and warn about questionable usage to stderr
  -f, --file=DATEFILE        like --date; once for each line of DATEFILE
  -I[FMT], --iso-8601[=FMT]  output date/time in ISO 8601 format.
                               FMT='date' for date only (the default),
                               'hours', 'minutes', 'seconds', or 'ns'
                               for date and time to the indicated precision.
                               Example: 2006-08-14T02:34:56-06:00
  -R, --rfc-email            output date and time in RFC 5322 format.
                               Example: Mon, 14 Aug 2006 02:34:56 -0600
      --rfc-3339=FMT         output date/time in RFC 3339 format.
                               FMT='date', 'seconds', or 'ns'
                               for date and time to the indicated precision.
                               Example: 2006-08-14 02:34:56-06:00
  -r, --reference=FILE       display the last modification time of FILE
  -s, --set=STRING           set time described by STRING (refused in the sandbox)
  -u, --utc, --universal     print or set Coordinated Universal Time (UTC)
      --help        display this help and exit
      --version     output version information and exit

FORMAT controls the output.  Interpreted sequences are:

  %%   a literal %
  %a   locale's abbreviated weekday name (e.g., Sun)
  %A   locale's full weekday name (e.g., Sunday)
  %b   locale's abbreviated month name (e.g., Jan)
  %B   locale's full month name (e.g., January)
  %c   locale's date and time (e.g., Thu Mar  3 23:05:25 2005)
  %C   century; like %Y, except omit last two digits (e.g., 20)
  %d   day of month (e.g., 01)
  %D   date; same as %m/%d/%y
  %e   day of month, space padded; same as %_d
  %F   full date; like %+4Y-%m-%d
  %g   last two digits of year of ISO week number (see %G)
  %G   year of ISO week number (see %V); normally useful only with %V
  %h   same as %b
  %H   hour (00..23)
  %I   hour (01..12)
  %j   day of year (001..366)
  %k   hour, space padded ( 0..23); same as %_H
  %l   hour, space padded ( 1..12); same as %_I
  %m   month (01..12)
  %M   minute (00..59)
  %n   a newline
  %N   nanoseconds (000000000..999999999)
  %p   locale's equivalent of either AM or PM; blank if not known
  %P   like %p, but lower case
  %q   quarter of year (1..4)
  %r   locale's 12-hour clock time (e.g., 11:11:04 PM)
  %R   24-hour hour and minute; same as %H:%M
  %s   seconds since the Epoch (1970-01-01 00:00 UTC)
  %S   second (00..60)
  %t   a tab
  %T   time; same as %H:%M:%S
  %u   day of week (1..7); 1 is Monday
  %U   week number of year, with Sunday as first day of week (00..53)
  %V   ISO week number, with Monday as first day of week (01..53)
  %w   day of week (0..6); 0 is Sunday
  %W   week number of year, with Monday as first day of week (00..53)
  %x   locale's date representation (e.g., 12/31/99)
  %X   locale's time representation (e.g., 23:13:48)
  %y   last two digits of year (00..99)
  %Y   year
  %z   +hhmm numeric time zone (e.g., -0400)
  %:z  +hh:mm numeric time zone (e.g., -04:00)
  %::z  +hh:mm:ss numeric time zone (e.g., -04:00:00)
  %:::z  numeric time zone with : to necessary precision (e.g., -04, +05:30)
  %Z   alphabetic time zone abbreviation (e.g., EDT)

By default, date pads numeric fields with zeroes.
The following optional flags may follow '%':

  -  (hyphen) do not pad the field
  _  (underscore) pad with spaces
  0  (zero) pad with zeros
  +  pad with zeros, and put '+' before future years with >4 digits
  ^  use upper case if possible
  #  use opposite case if possible
"""

DEFAULT_FMT = "%a %b %e %H:%M:%S %Z %Y"
ISO = {"date": "%Y-%m-%d", "hours": "%Y-%m-%dT%H%:z", "minutes": "%Y-%m-%dT%H:%M%:z",
       "seconds": "%Y-%m-%dT%H:%M:%S%:z", "ns": "%Y-%m-%dT%H:%M:%S,%N%:z"}
ISO_ORDER = ["hours", "minutes", "date", "seconds", "ns"]
RFC3339 = {"date": "%Y-%m-%d", "seconds": "%Y-%m-%d %H:%M:%S%:z",
           "ns": "%Y-%m-%d %H:%M:%S.%N%:z"}
RFC3339_ORDER = ["date", "seconds", "ns"]
RFC_EMAIL = "%a, %d %b %Y %H:%M:%S %z"

LONG = {
    "date=": "d", "debug": "debug", "file=": "f", "iso-8601?": "I", "rfc-email": "R",
    "rfc-822": "R", "rfc-2822": "R", "rfc-3339=": "rfc3339", "reference=": "r", "set=": "s",
    "utc": "u", "universal": "u", "uct": "u", "help": "help", "version": "version",
}


class _Usage(Exception):
    pass


def _argmatch(value: str, choices: list[str]) -> str | None:
    if value in choices:
        return value
    matches = [c for c in choices if c.startswith(value)]
    return matches[0] if len(matches) == 1 else None


def _parse_args(args: list[str]):
    """date's getopt: short ``d:f:I::r:Rs:u`` with permutation."""
    opts: list[tuple[str, str | None]] = []
    operands: list[str] = []
    longs = {k.rstrip("=?"): (v, k[-1] if k[-1] in "=?" else "") for k, v in LONG.items()}
    i = 0
    while i < len(args):
        a = args[i]
        i += 1
        if a == "--":
            operands.extend(args[i:])
            break
        if a.startswith("--"):
            name, eq, value = a[2:].partition("=")
            matches = [name] if name in longs else [k for k in longs if k.startswith(name)]
            if len({longs[m] for m in matches}) == 1:
                matches = matches[:1]
            if not matches:
                raise _Usage(f"unrecognized option '{a}'" if eq else f"unrecognized option '--{name}'")
            if len(matches) > 1:
                poss = " ".join(f"'--{m}'" for m in matches)
                raise _Usage(f"option '--{name}' is ambiguous; possibilities: {poss}")
            key, kind = longs[matches[0]]
            if kind == "=" and not eq:
                if i >= len(args):
                    raise _Usage(f"option '--{matches[0]}' requires an argument")
                value, eq = args[i], "="
                i += 1
            elif kind == "" and eq:
                raise _Usage(f"option '--{matches[0]}' doesn't allow an argument")
            opts.append((key, value if eq else None))
            continue
        if a.startswith("-") and a != "-":
            j = 1
            while j < len(a):
                ch = a[j]
                if ch in "Ru":
                    opts.append((ch, None))
                    j += 1
                    continue
                if ch == "I":
                    opts.append(("I", a[j + 1:] or None))
                    break
                if ch in "dfrs":
                    rest = a[j + 1:]
                    if rest:
                        opts.append((ch, rest))
                    elif i < len(args):
                        opts.append((ch, args[i]))
                        i += 1
                    else:
                        raise _Usage(f"option requires an argument -- '{ch}'")
                    break
                raise _Usage(f"invalid option -- '{ch}'")
            continue
        operands.append(a)
    return opts, operands


async def main(shell: Shell, argv: list[str]) -> int:
    try:
        opts, operands = _parse_args(argv[1:])
    except _Usage as e:
        return await usage_error(shell, "date", str(e))
    dates: list[str] = []
    datefile = None
    reference = None
    set_str = None
    utc = False
    fmt = None
    fmt_kinds = 0
    for k, v in opts:
        if k == "help":
            return await print_help(shell, HELP)
        if k == "version":
            await shell.stdout.write(b"date (GNU coreutils) 9.1\n")
            return 0
        if k == "d":
            dates.append(v or "")
        elif k == "f":
            datefile = v
        elif k == "r":
            reference = v
        elif k == "s":
            set_str = v
        elif k == "u":
            utc = True
        elif k == "R":
            fmt, fmt_kinds = RFC_EMAIL, fmt_kinds + 1
        elif k == "I":
            which = "date" if v is None else _argmatch(v, ISO_ORDER)
            if which is None:
                await shell.error("date", f"invalid argument {quote(v)} for {quote('--iso-8601')}")
                await shell.stderr.write(("Valid arguments are:\n" + "".join(
                    f"  - {quote(c)}\n" for c in ISO_ORDER)).encode())
                return await usage_error(shell, "date", None)
            fmt, fmt_kinds = ISO[which], fmt_kinds + 1
        elif k == "rfc3339":
            which = _argmatch(v or "", RFC3339_ORDER)
            if which is None:
                await shell.error("date", f"invalid argument {quote(v or '')} for "
                                          f"{quote('--rfc-3339')}")
                await shell.stderr.write(("Valid arguments are:\n" + "".join(
                    f"  - {quote(c)}\n" for c in RFC3339_ORDER)).encode())
                return await usage_error(shell, "date", None)
            fmt, fmt_kinds = RFC3339[which], fmt_kinds + 1
    # operands: +FORMAT, or a date to set
    set_operand = None
    if operands:
        if operands[0].startswith("+"):
            if len(operands) > 1:
                return await usage_error(shell, "date", f"extra operand {quote(operands[1])}")
            if fmt_kinds:
                await shell.error("date", "multiple output formats specified")
                return 1
            fmt = operands[0][1:]
        else:
            if len(operands) > 1:
                return await usage_error(shell, "date", f"extra operand {quote(operands[1])}")
            set_operand = operands[0]
    if fmt_kinds > 1:
        await shell.error("date", "multiple output formats specified")
        return 1
    n_sources = (1 if dates else 0) + (datefile is not None) + (reference is not None)
    if n_sources > 1 or len(dates) > 1:
        await shell.error("date", "the options to specify dates for printing are mutually "
                                  "exclusive")
        return await usage_error(shell, "date", None)
    if (set_str is not None or set_operand is not None) and n_sources:
        await shell.error("date", "the options to print and set the time may not be used "
                                  "together")
        return await usage_error(shell, "date", None)
    tz = tz_from_string("UTC0") if utc else get_tz(shell.env)
    if fmt is None:
        fmt = DEFAULT_FMT
    now = time.time()
    out = Out(shell.stdout)

    async def emit(sec: int, nsec: int) -> None:
        dt = localtime(sec, tz)
        await out.text(strftime(fmt, dt, nsec, sec, shell.budget.limits.max_string_length)
                       + "\n")

    if set_str is not None or set_operand is not None:
        if set_str is not None:
            try:
                parse_date(set_str, tz, now)
            except DateError:
                await shell.error("date", f"invalid date {quote(set_str)}")
                return 1
        elif not _valid_set_operand(set_operand):
            await shell.error("date", f"invalid date {quote(set_operand)}")
            return 1
        await shell.error("date", "cannot set date: Operation not permitted")
        return 1
    status = 0
    if reference is not None:
        try:
            st = shell.fs.stat(reference)
        except (FileSystemError, OSError) as e:
            await shell.error("date", f"{reference}: {strerror(e.errno or errno.ENOENT)}")
            return 1
        sec, nsec = divmod(st.st_mtime_ns, 1_000_000_000)
        await emit(sec, nsec)
    elif datefile is not None:
        try:
            if datefile == "-":
                data = await shell.stdin.read()
            else:
                with shell.fs.open(datefile, "rb") as fh:
                    data = fh.read()
        except (FileSystemError, OSError) as e:
            await shell.error("date", f"{datefile}: {strerror(e.errno)}")
            return 1
        text = decode(data)
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        for line in lines:
            shell.budget.check()
            try:
                sec, nsec = parse_date(line, tz, now)
                await emit(sec, nsec)
            except DateError:
                await out.flush()
                await shell.error("date", f"invalid date {quote(line)}")
                status = 1
            except (OverflowError, ValueError, OSError):
                await out.flush()
                await shell.error("date", f"invalid date {quote(line)}")
                status = 1
    elif dates:
        try:
            sec, nsec = parse_date(dates[0], tz, now)
            await emit(sec, nsec)
        except (DateError, OverflowError, ValueError, OSError):
            await shell.error("date", f"invalid date {quote(dates[0])}")
            return 1
    else:
        sec = int(now // 1)
        await emit(sec, int((now - sec) * 1e9))
    await out.flush()
    return status


def _valid_set_operand(s: str) -> bool:
    body, dot, ss = s.partition(".")
    if dot and (len(ss) != 2 or not ss.isdigit()):
        return False
    return body.isdigit() and len(body) in (8, 10, 12)
