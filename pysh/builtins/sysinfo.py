"""Synthetic system information: whoami, id, hostname, uname, nproc, tty, getconf,
printenv, which, yes, true, false, mkfifo (refused).

Nothing here reads the host: user, host name and kernel are fixed synthetic
values, the processor count is the sandbox's, and ``which`` searches the
virtual ``$PATH`` through the FileSystem door.
"""

from __future__ import annotations

import os

from pysh.builtins._misc_util import Out, print_help, quote, usage_error
from pysh.shellkit import Shell, WriteError, on_write_error
from pysh.shellkit.options import OptionError, parse_options
from pysh.shellkit.text import encode

USER = "user"
GROUP = "user"
UID = 1000
GID = 1000
HOSTNAME = "sandbox"
NPROC = 2
UNAME = {
    "s": "Linux",
    "n": HOSTNAME,
    "r": "6.1.0-pysh",
    "v": "#1 SMP PREEMPT_DYNAMIC pysh",
    "m": "x86_64",
    "p": "unknown",
    "i": "unknown",
    "o": "GNU/Linux",
}

COREUTILS_TAIL = (
    "\nGNU coreutils online help: <https://www.gnu.org/software/coreutils/>\n"
)


def _help(usage: str, body: str) -> str:
    return usage + "\n" + body + "\n      --help        display this help and exit\n" \
        "      --version     output version information and exit\n"


def _version(name: str, pkg: str = "GNU coreutils", ver: str = "9.1") -> str:
    return f"{name} ({pkg}) {ver}\n"


async def _simple(shell: Shell, argv: list[str], short: str, long: dict, help_text: str,
                  usage_status: int = 1):
    """Parse options; returns (opts, operands) or an int status when done/failed."""
    prog = argv[0].rsplit("/", 1)[-1]
    try:
        opts, operands = parse_options(argv[1:], short, dict(long, help="help",
                                                              version="version"))
    except OptionError as e:
        return await usage_error(shell, prog, str(e), usage_status)
    for k, _ in opts:
        if k == "help":
            return await print_help(shell, help_text)
        if k == "version":
            await shell.stdout.write(encode(_version(prog)))
            return 0
    return opts, operands


# ----------------------------------------------------------------- true/false
async def true_main(shell: Shell, argv: list[str]) -> int:
    if len(argv) == 2 and argv[1] == "--help":
        await print_help(shell, "Usage: true [ignored command line arguments]\n  or:  true OPTION\n"
                                "Exit with a status code indicating success.\n")
    elif len(argv) == 2 and argv[1] == "--version":
        await shell.stdout.write(encode(_version("true")))
    return 0


async def false_main(shell: Shell, argv: list[str]) -> int:
    if len(argv) == 2 and argv[1] == "--help":
        await print_help(shell, "Usage: false [ignored command line arguments]\n"
                                "  or:  false OPTION\n"
                                "Exit with a status code indicating failure.\n")
    elif len(argv) == 2 and argv[1] == "--version":
        await shell.stdout.write(encode(_version("false")))
    return 1


# ------------------------------------------------------------------------ yes
async def yes_main(shell: Shell, argv: list[str]) -> int:
    r = await _simple(shell, argv, "", {}, _help(
        "Usage: yes [STRING]...\n  or:  yes OPTION",
        "Repeatedly output a line with all specified STRING(s), or 'y'.\n"))
    if isinstance(r, int):
        return r
    _, operands = r
    # GNU yes takes every argument after option parsing, '--' excepted.
    line = encode(" ".join(operands) if operands else "y") + b"\n"
    block = line * max(1, 8192 // len(line))
    budget = shell.budget
    out = shell.stdout
    try:
        while True:
            budget.check()
            await out.write(block)
    except WriteError as e:
        await shell.error("yes", f"standard output: {e.strerror}")
        return 1


# -------------------------------------------------------------------- whoami
async def whoami_main(shell: Shell, argv: list[str]) -> int:
    r = await _simple(shell, argv, "", {}, _help(
        "Usage: whoami [OPTION]...",
        "Print the user name associated with the current effective user ID.\n"
        "Same as id -un.\n"))
    if isinstance(r, int):
        return r
    _, operands = r
    if operands:
        return await usage_error(shell, "whoami", f"extra operand {quote(operands[0])}")
    await shell.stdout.write(encode(USER + "\n"))
    return 0


async def logname_main(shell: Shell, argv: list[str]) -> int:
    r = await _simple(shell, argv, "", {}, _help("Usage: logname [OPTION]",
                                                 "Print the user's login name.\n"))
    if isinstance(r, int):
        return r
    if r[1]:
        return await usage_error(shell, "logname", f"extra operand {quote(r[1][0])}")
    await shell.stdout.write(encode(USER + "\n"))
    return 0


# ------------------------------------------------------------------------ id
ID_HELP = _help(
    "Usage: id [OPTION]... [USER]...",
    "Print user and group information for each specified USER,\n"
    "or (when USER omitted) for the current process.\n\n"
    "  -a             ignore, for compatibility with other versions\n"
    "  -Z, --context  print only the security context of the process\n"
    "  -g, --group    print only the effective group ID\n"
    "  -G, --groups   print all group IDs\n"
    "  -n, --name     print a name instead of a number, for -ugG\n"
    "  -r, --real     print the real ID instead of the effective ID, with -ugG\n"
    "  -u, --user     print only the effective user ID\n"
    "  -z, --zero     delimit entries with NUL characters, not whitespace;\n"
    "                   not permitted in default format\n")


async def id_main(shell: Shell, argv: list[str]) -> int:
    r = await _simple(shell, argv, "aZgGnruz", {
        "context": "Z", "group": "g", "groups": "G", "name": "n", "real": "r",
        "user": "u", "zero": "z"}, ID_HELP)
    if isinstance(r, int):
        return r
    opts, operands = r
    flags = {k for k, _ in opts}
    if "Z" in flags:
        await shell.error("id", "--context (-Z) works only on an SELinux-enabled kernel")
        return 1
    status = 0
    users = operands or [None]
    sel = [f for f in "ugG" if f in flags]
    if len(sel) > 1:
        await shell.error("id", "cannot print \"only\" of more than one choice")
        return 1
    if not sel and ("n" in flags or "r" in flags):
        await shell.error("id", "cannot print only names or real IDs in default format")
        return 1
    if not sel and "z" in flags:
        await shell.error("id", "option --zero not permitted in default format")
        return 1
    out = Out(shell.stdout)
    for user in users:
        if user is not None and user not in (USER, str(UID)):
            if user in ("root", "0"):
                uid, gid, name, gname = 0, 0, "root", "root"
            else:
                await shell.error("id", f"{quote(user)}: no such user")
                status = 1
                continue
        else:
            uid, gid, name, gname = UID, GID, USER, GROUP
        end = "\0" if "z" in flags else "\n"
        if "u" in flags:
            await out.text((name if "n" in flags else str(uid)) + end)
        elif "g" in flags:
            await out.text((gname if "n" in flags else str(gid)) + end)
        elif "G" in flags:
            sep = "\0" if "z" in flags else " "
            item = gname if "n" in flags else str(gid)
            await out.text(item + (sep if "z" in flags else "") + ("" if "z" in flags else "\n"))
        else:
            await out.text(f"uid={uid}({name}) gid={gid}({gname}) groups={gid}({gname})\n")
    await out.flush()
    return status


# ------------------------------------------------------------------ hostname
async def hostname_main(shell: Shell, argv: list[str]) -> int:
    help_text = ("Usage: hostname [-s|-f|-d|-i|-I|-a|-A]      display host name\n"
                 "       hostname NAME                          (refused in the sandbox)\n\n"
                 "    -s, --short            short host name\n"
                 "    -f, --fqdn, --long     long host name (FQDN)\n"
                 "    -d, --domain           DNS domain name\n"
                 "    -i, --ip-address       addresses for the host name\n"
                 "    -I, --all-ip-addresses all addresses for the host\n"
                 "    -a, --alias            alias names\n"
                 "    -A, --all-fqdns        all long host names (FQDNs)\n")
    try:
        opts, operands = parse_options(argv[1:], "sfdiIaAhVy", {
            "short": "s", "fqdn": "f", "long": "f", "domain": "d", "ip-address": "i",
            "all-ip-addresses": "I", "alias": "a", "all-fqdns": "A", "help": "h",
            "version": "V", "yp": "y", "nis": "y"})
    except OptionError as e:
        await shell.error("hostname", str(e))
        await shell.stderr.write(encode(help_text))
        return 1
    mode = None
    for k, _ in opts:
        if k == "h":
            return await print_help(shell, help_text)
        if k == "V":
            await shell.stdout.write(b"hostname (pysh) 3.23\n")
            return 0
        mode = k
    if operands:
        await shell.error("hostname", "you must be root to change the host name")
        return 1
    text = {None: HOSTNAME, "s": HOSTNAME, "f": HOSTNAME, "A": HOSTNAME + " ", "d": "",
            "a": "", "i": "127.0.1.1", "I": "127.0.1.1 ", "y": None}[mode]
    if text is None:
        await shell.error("hostname", "Local domain name not set")
        return 1
    await shell.stdout.write(encode(text + "\n"))
    return 0


# --------------------------------------------------------------------- uname
UNAME_HELP = _help(
    "Usage: uname [OPTION]...",
    "Print certain system information.  With no OPTION, same as -s.\n\n"
    "  -a, --all                print all information, in the following order,\n"
    "                             except omit -p and -i if unknown:\n"
    "  -s, --kernel-name        print the kernel name\n"
    "  -n, --nodename           print the network node hostname\n"
    "  -r, --kernel-release     print the kernel release\n"
    "  -v, --kernel-version     print the kernel version\n"
    "  -m, --machine            print the machine hardware name\n"
    "  -p, --processor          print the processor type (non-portable)\n"
    "  -i, --hardware-platform  print the hardware platform (non-portable)\n"
    "  -o, --operating-system   print the operating system\n")


async def uname_main(shell: Shell, argv: list[str]) -> int:
    r = await _simple(shell, argv, "asnrvmpio", {
        "all": "a", "kernel-name": "s", "sysname": "s", "nodename": "n",
        "kernel-release": "r", "release": "r", "kernel-version": "v", "machine": "m",
        "processor": "p", "hardware-platform": "i", "operating-system": "o"}, UNAME_HELP)
    if isinstance(r, int):
        return r
    opts, operands = r
    if operands:
        return await usage_error(shell, "uname", f"extra operand {quote(operands[0])}")
    want = {k for k, _ in opts}
    fields = []
    for k in "snrvmpio":
        if k in want:
            fields.append(UNAME[k])
        elif "a" in want and (k not in "pi" or UNAME[k] != "unknown"):
            fields.append(UNAME[k])
    if not fields:
        fields = [UNAME["s"]]
    await shell.stdout.write(encode(" ".join(fields) + "\n"))
    return 0


async def arch_main(shell: Shell, argv: list[str]) -> int:
    r = await _simple(shell, argv, "", {}, _help("Usage: arch [OPTION]...",
                                                 "Print machine architecture.\n"))
    if isinstance(r, int):
        return r
    if r[1]:
        return await usage_error(shell, "arch", f"extra operand {quote(r[1][0])}")
    await shell.stdout.write(encode(UNAME["m"] + "\n"))
    return 0


# --------------------------------------------------------------------- nproc
async def nproc_main(shell: Shell, argv: list[str]) -> int:
    r = await _simple(shell, argv, "", {"all": "all", "ignore=": "ignore"}, _help(
        "Usage: nproc [OPTION]...",
        "Print the number of processing units available to the current process,\n"
        "which may be less than the number of online processors\n\n"
        "      --all      print the number of installed processors\n"
        "      --ignore=N  if possible, exclude N processing units\n"))
    if isinstance(r, int):
        return r
    opts, operands = r
    if operands:
        return await usage_error(shell, "nproc", f"extra operand {quote(operands[0])}")
    n = NPROC
    ignore = 0
    for k, v in opts:
        if k == "ignore":
            try:
                ignore = int(v or "")
                if ignore < 0:
                    raise ValueError
            except ValueError:
                await shell.error("nproc", f"invalid number: {quote(v or '')}")
                return 1
    n = max(1, n - ignore)
    await shell.stdout.write(encode(f"{n}\n"))
    return 0


# ----------------------------------------------------------------------- tty
async def tty_main(shell: Shell, argv: list[str]) -> int:
    r = await _simple(shell, argv, "s", {"silent": "s", "quiet": "s"}, _help(
        "Usage: tty [OPTION]...",
        "Print the file name of the terminal connected to standard input.\n\n"
        "  -s, --silent, --quiet   print nothing, only return an exit status\n"), 2)
    if isinstance(r, int):
        return r
    opts, operands = r
    if operands:
        return await usage_error(shell, "tty", f"extra operand {quote(operands[0])}", 2)
    silent = any(k == "s" for k, _ in opts)
    if shell.stdin.isatty():
        if not silent:
            await shell.stdout.write(b"/dev/tty\n")
        return 0
    if not silent:
        await shell.stdout.write(b"not a tty\n")
    return 1


# ------------------------------------------------------------------- getconf
GETCONF = {
    "ARG_MAX": "2097152",
    "PAGE_SIZE": "4096",
    "PAGESIZE": "4096",
    "_NPROCESSORS_ONLN": str(NPROC),
    "_NPROCESSORS_CONF": str(NPROC),
    "CHILD_MAX": "63448",
    "CLK_TCK": "100",
    "OPEN_MAX": "1024",
    "LINE_MAX": "2048",
    "NAME_MAX": "255",
    "PATH_MAX": "4096",
    "PIPE_BUF": "4096",
    "HOST_NAME_MAX": "64",
    "LOGIN_NAME_MAX": "256",
    "INT_MAX": "2147483647",
    "INT_MIN": "-2147483648",
    "LONG_BIT": "64",
    "WORD_BIT": "32",
    "CHAR_BIT": "8",
    "UINT_MAX": "4294967295",
    "LONG_MAX": "9223372036854775807",
    "LONG_MIN": "-9223372036854775808",
    "ULONG_MAX": "18446744073709551615",
    "SSIZE_MAX": "32767",
    "BC_BASE_MAX": "99",
    "BC_DIM_MAX": "2048",
    "BC_SCALE_MAX": "99",
    "BC_STRING_MAX": "1000",
    "RE_DUP_MAX": "32767",
    "_POSIX_VERSION": "200809",
    "POSIX_VERSION": "200809",
    "_POSIX2_VERSION": "200809",
    "POSIX2_VERSION": "200809",
    "GNU_LIBC_VERSION": "glibc 2.36",
    "PATH": "/bin:/usr/bin",
    "CS_PATH": "/bin:/usr/bin",
}
GETCONF_PATHCONF = {"NAME_MAX": "255", "PATH_MAX": "4096", "PIPE_BUF": "4096",
                    "LINK_MAX": "65000", "FILESIZEBITS": "64"}
GETCONF_USAGE = ("Usage: getconf [-v specification] variable_name [pathname]\n"
                 "       getconf -a [pathname]\n")


async def getconf_main(shell: Shell, argv: list[str]) -> int:
    args = argv[1:]
    if args and args[0] in ("-h", "--help"):
        return await print_help(shell, GETCONF_USAGE)
    if args and args[0] == "--version":
        await shell.stdout.write(b"getconf (GNU libc) 2.36\n")
        return 0
    if args and args[0].startswith("-v"):
        args = args[2:] if args[0] == "-v" else args[1:]
    if args and args[0] == "-a":
        out = Out(shell.stdout)
        width = max(len(k) for k in GETCONF)
        for k in sorted(GETCONF):
            await out.text(f"{k:<{width}} {GETCONF[k]}\n")
        await out.flush()
        return 0
    if args and args[0].startswith("-") and args[0] != "-":
        await shell.stderr.write(encode(f"getconf: invalid option -- '{args[0][1:2]}'\n"
                                        + GETCONF_USAGE))
        return 1
    if not args or len(args) > 2:
        await shell.stderr.write(encode(GETCONF_USAGE))
        return 2
    name = args[0]
    if len(args) == 2:
        value = GETCONF_PATHCONF.get(name)
        if value is not None and not shell.fs.exists(args[1]):
            await shell.error("getconf", f"{args[1]}: No such file or directory")
            return 1
    else:
        value = GETCONF.get(name)
        if value is None and name.startswith("_POSIX_"):
            value = GETCONF.get(name[1:])
    if value is None:
        await shell.stderr.write(encode(f"getconf: Unrecognized variable `{name}'\n"))
        return 2
    await shell.stdout.write(encode(value + "\n"))
    return 0


# ------------------------------------------------------------------ printenv
@on_write_error(2)
async def printenv_main(shell: Shell, argv: list[str]) -> int:
    r = await _simple(shell, argv, "0", {"null": "0"}, _help(
        "Usage: printenv [OPTION]... [VARIABLE]...",
        "Print the values of the specified environment VARIABLE(s).\n"
        "If no VARIABLE is specified, print name and value pairs for them all.\n\n"
        "  -0, --null     end each output line with NUL, not newline\n"), 2)
    if isinstance(r, int):
        return r
    opts, operands = r
    end = "\0" if opts else "\n"
    out = Out(shell.stdout)
    if not operands:
        for k, v in shell.env.items():
            await out.text(f"{k}={v}{end}")
        await out.flush()
        return 0
    status = 0
    for name in operands:
        if "=" not in name and name in shell.env:
            await out.text(shell.env[name] + end)
        else:
            status = 1
    await out.flush()
    return status


# --------------------------------------------------------------------- which
async def which_main(shell: Shell, argv: list[str]) -> int:
    args = argv[1:]
    all_ = False
    names: list[str] = []
    for i, a in enumerate(args):
        if a == "--":
            names.extend(args[i + 1:])
            break
        if a in ("--help", "-h"):
            return await print_help(shell, "Usage: which [-a] args\n"
                                           "Write the full path of COMMAND(s) to standard output.\n"
                                           "  -a  print all matching pathnames of each argument\n")
        if a.startswith("-") and a != "-" and not names:
            for ch in a[1:]:
                if ch != "a":
                    await shell.stderr.write(encode(f"Illegal option -{ch}\n"))
                    await shell.stdout.write(b"Usage: /usr/bin/which [-a] args\n")
                    return 2
            all_ = True
            continue
        names.append(a)
    if not names:
        return 1
    path = shell.env.get("PATH", "")
    fs = shell.fs
    out = Out(shell.stdout)
    status = 0
    for name in names:
        found = False
        if "/" in name:
            if fs.is_file(name) and fs.access(name, os.X_OK):
                await out.text(name + "\n")
                found = True
        else:
            for d in path.split(":"):
                cand = f"{d.rstrip('/')}/{name}" if d else f"./{name}"
                try:
                    ok = fs.is_file(cand) and fs.access(cand, os.X_OK)
                except Exception:  # an odd PATH entry is just not a match
                    ok = False
                if ok:
                    await out.text(cand + "\n")
                    found = True
                    if not all_:
                        break
        if not found:
            status = 1
    await out.flush()
    return status


# -------------------------------------------------------------------- mkfifo
async def mkfifo_main(shell: Shell, argv: list[str]) -> int:
    r = await _simple(shell, argv, "m:Z", {"mode=": "m", "context?": "Z"}, _help(
        "Usage: mkfifo [OPTION]... NAME...",
        "Create named pipes (FIFOs) with the given NAMEs.\n\n"
        "  -m, --mode=MODE    set file permission bits to MODE, not a=rw - umask\n"))
    if isinstance(r, int):
        return r
    _, operands = r
    if not operands:
        return await usage_error(shell, "mkfifo", "missing operand")
    for name in operands:
        await shell.error("mkfifo", f"cannot create fifo {quote(name)}: Operation not permitted")
    return 1


# ---------------------------------------------------------------------- echo
# /usr/bin/echo (coreutils): what xargs, env and timeout run; the shell's own
# builtin echo lives in the interpreter.
def _echo_escapes(s: str) -> tuple[str, bool]:
    out: list[str] = []
    i, n = 0, len(s)
    simple = {"\\": "\\", "a": "\a", "b": "\b", "e": "\x1b", "f": "\f", "n": "\n",
              "r": "\r", "t": "\t", "v": "\v"}
    while i < n:
        c = s[i]
        if c != "\\" or i + 1 >= n:
            out.append(c)
            i += 1
            continue
        e = s[i + 1]
        if e in simple:
            out.append(simple[e])
            i += 2
        elif e == "c":
            return "".join(out), True
        elif e == "x" and i + 2 < n and s[i + 2] in "0123456789abcdefABCDEF":
            j = i + 2
            while j < n and j < i + 4 and s[j] in "0123456789abcdefABCDEF":
                j += 1
            out.append(chr(int(s[i + 2:j], 16)) if int(s[i + 2:j], 16) < 128
                       else bytes([int(s[i + 2:j], 16)]).decode("utf-8", "surrogateescape"))
            i = j
        elif e == "0" or e in "1234567":
            j = i + 2 if e == "0" else i + 1
            k = j
            while k < n and k < j + 3 and s[k] in "01234567":
                k += 1
            v = int(s[j:k], 8) & 0xFF if k > j else 0
            out.append(chr(v) if v < 128 else bytes([v]).decode("utf-8", "surrogateescape"))
            i = k
        else:
            out.append(c)
            i += 1
    return "".join(out), False


async def echo_main(shell: Shell, argv: list[str]) -> int:
    args = argv[1:]
    if len(args) == 1 and args[0] == "--help":
        return await print_help(shell, "Usage: echo [SHORT-OPTION]... [STRING]...\n"
                                       "  or:  echo LONG-OPTION\n"
                                       "Echo the STRING(s) to standard output.\n\n"
                                       "  -n             do not output the trailing newline\n"
                                       "  -e             enable interpretation of backslash "
                                       "escapes\n"
                                       "  -E             disable interpretation of backslash "
                                       "escapes (default)\n")
    if len(args) == 1 and args[0] == "--version":
        await shell.stdout.write(encode(_version("echo")))
        return 0
    newline, escapes = True, False
    while args and len(args[0]) > 1 and args[0][0] == "-" and all(c in "neE" for c in args[0][1:]):
        for c in args[0][1:]:
            if c == "n":
                newline = False
            elif c == "e":
                escapes = True
            else:
                escapes = False
        args = args[1:]
    text = " ".join(args)
    if escapes:
        text, stop = _echo_escapes(text)
        if stop:
            newline = False
    await shell.stdout.write(encode(text + ("\n" if newline else "")))
    return 0
