"""env: print the environment, or run a command in a modified one (in-process)."""

from __future__ import annotations

import errno
import re

from pysh.builtins._misc_util import (
    Out,
    command_status,
    find_command,
    print_help,
    quote,
    strerror,
    usage_error,
)
from pysh.shellkit import Shell, on_write_error
from pysh.shellkit.text import encode

ENV_HELP = """\
Usage: env [OPTION]... [-] [NAME=VALUE]... [COMMAND [ARG]...]
Set each NAME to VALUE in the environment and run COMMAND.

Mandatory arguments to long options are mandatory for short options too.
  -i, --ignore-environment  start with an empty environment
  -0, --null           end each output line with NUL, not newline
  -u, --unset=NAME     remove variable from the environment
  -C, --chdir=DIR      change working directory to DIR
  -S, --split-string=S  process and split S into separate arguments;
                        used to pass multiple arguments on shebang lines
      --block-signal[=SIG]    block delivery of SIG signal(s) to COMMAND
      --default-signal[=SIG]  reset handling of SIG signal(s) to the default
      --ignore-signal[=SIG]   set handling of SIG signal(s) to do nothing
      --list-signal-handling  list non default signal handling to stderr
  -v, --debug          print verbose information for each processing step
      --help        display this help and exit
      --version     output version information and exit

A mere - implies -i.  If no COMMAND, print the resulting environment.

SIG may be a signal name like 'PIPE', or a signal number like '13'.
Without SIG, all known signals are included.  Multiple signals can be
comma-separated.
"""

LONG = {
    "ignore-environment": "i", "null": "0", "unset=": "u", "chdir=": "C",
    "split-string=": "S", "debug": "v", "block-signal?": "sig", "default-signal?": "sig",
    "ignore-signal?": "sig", "list-signal-handling": "sig", "help": "help",
    "version": "version",
}


class SplitError(Exception):
    pass


_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")


def split_string(s: str, env: dict[str, str]) -> list[str]:
    """GNU env -S: split on blanks with quotes, escapes, ${VAR} and # comments."""
    out: list[str] = []
    cur: list[str] = []
    have = False
    i, n = 0, len(s)
    escapes = {"f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v"}
    while i < n:
        c = s[i]
        if c in " \t\n\f\r\v":
            if have:
                out.append("".join(cur))
                cur, have = [], False
            i += 1
            continue
        if c == "#" and not have:
            break
        if c == "'":
            j = i + 1
            have = True
            while True:
                if j >= n:
                    raise SplitError("no terminating quote in -S string")
                if s[j] == "'":
                    break
                if s[j] == "\\" and j + 1 < n and s[j + 1] in "\\'":
                    cur.append(s[j + 1])
                    j += 2
                    continue
                cur.append(s[j])
                j += 1
            i = j + 1
            continue
        if c == '"':
            j = i + 1
            have = True
            while True:
                if j >= n:
                    raise SplitError("no terminating quote in -S string")
                ch = s[j]
                if ch == '"':
                    break
                if ch == "\\" and j + 1 < n:
                    e = s[j + 1]
                    if e in escapes:
                        cur.append(escapes[e])
                    elif e in '"\\$_#':
                        cur.append(" " if e == "_" else e)
                    elif e == "c":
                        raise SplitError("'\\c' must not appear in double-quoted -S string")
                    else:
                        raise SplitError(f"invalid sequence '\\{e}' in -S")
                    j += 2
                    continue
                if ch == "$":
                    m = _VAR.match(s, j)
                    if not m:
                        raise SplitError("only ${VARNAME} expansion is supported, error at: "
                                         + s[j:])
                    cur.append(env.get(m.group(1), ""))
                    j = m.end()
                    continue
                cur.append(ch)
                j += 1
            i = j + 1
            continue
        if c == "\\" and i + 1 < n:
            e = s[i + 1]
            if e == "c":
                break
            if e == "_":
                if have:
                    out.append("".join(cur))
                    cur, have = [], False
                i += 2
                continue
            if e in escapes:
                cur.append(escapes[e])
            elif e in "\"'\\$# ":
                cur.append(e)
            else:
                raise SplitError(f"invalid sequence '\\{e}' in -S")
            have = True
            i += 2
            continue
        if c == "$":
            m = _VAR.match(s, i)
            if not m:
                raise SplitError("only ${VARNAME} expansion is supported, error at: " + s[i:])
            cur.append(env.get(m.group(1), ""))
            have = True
            i = m.end()
            continue
        cur.append(c)
        have = True
        i += 1
    if have:
        out.append("".join(cur))
    return out


@on_write_error(125)
async def main(shell: Shell, argv: list[str]) -> int:
    args = list(argv[1:])
    ignore = null = debug = False
    unset: list[str] = []
    chdir: str | None = None
    longs = {k.rstrip("=?"): (v, k[-1] if k[-1] in "=?" else "") for k, v in LONG.items()}
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--":
            i += 1
            break
        if not a.startswith("-") or a == "-":
            break
        i += 1
        pending: list[tuple[str, str | None]] = []
        if a.startswith("--"):
            name, eq, value = a[2:].partition("=")
            matches = [k for k in longs if k.startswith(name)]
            if name in longs:
                matches = [name]
            if not matches:
                return await usage_error(shell, "env", f"unrecognized option '{a}'", 125)
            if len(matches) > 1:
                poss = " ".join(f"'--{m}'" for m in matches)
                return await usage_error(
                    shell, "env", f"option '--{name}' is ambiguous; possibilities: {poss}", 125)
            key, kind = longs[matches[0]]
            if kind == "=" and not eq:
                if i >= len(args):
                    return await usage_error(
                        shell, "env", f"option '--{matches[0]}' requires an argument", 125)
                value, eq = args[i], "="
                i += 1
            elif kind == "" and eq:
                return await usage_error(
                    shell, "env", f"option '--{matches[0]}' doesn't allow an argument", 125)
            pending.append((key, value if eq else None))
        else:
            j = 1
            while j < len(a):
                ch = a[j]
                if ch in "iv0":
                    pending.append((ch, None))
                    j += 1
                    continue
                if ch in "uCS":
                    value = a[j + 1:]
                    if not value:
                        if i >= len(args):
                            return await usage_error(
                                shell, "env", f"option requires an argument -- '{ch}'", 125)
                        value = args[i]
                        i += 1
                    pending.append((ch, value))
                    break
                return await usage_error(shell, "env", f"invalid option -- '{ch}'", 125)
        for k, v in pending:
            if k == "help":
                return await print_help(shell, ENV_HELP)
            if k == "version":
                await shell.stdout.write(b"env (GNU coreutils) 9.1\n")
                return 0
            if k == "i":
                ignore = True
            elif k == "0":
                null = True
            elif k == "v":
                debug = True
            elif k == "u":
                unset.append(v or "")
            elif k == "C":
                chdir = v
            elif k == "S":
                try:
                    words = split_string(v or "", shell.env)
                except SplitError as e:
                    await shell.error("env", str(e))
                    return 125
                args[i:i] = words
    operands = args[i:]
    env: dict[str, str] = dict(shell.env)
    if operands and operands[0] == "-":
        ignore = True
        operands = operands[1:]
    if ignore:
        env = {}
        if debug:
            await shell.stderr.write(b"cleaning environ\n")
    for name in unset:
        if not name or "=" in name:
            await shell.error("env", f"cannot unset {quote(name)}: Invalid argument")
            return 125
        env.pop(name, None)
        if debug:
            await shell.stderr.write(encode(f"unset:    {name}\n"))
    while operands and "=" in operands[0]:
        name, _, value = operands.pop(0).partition("=")
        env[name] = value
        if debug:
            await shell.stderr.write(encode(f"setenv:   {name}={value}\n"))
    if not operands:
        if chdir is not None:
            return await usage_error(shell, "env", "must specify command with --chdir (-C)", 125)
        end = "\0" if null else "\n"
        out = Out(shell.stdout)
        for k, v in env.items():
            await out.text(f"{k}={v}{end}")
        await out.flush()
        return 0
    if null:
        return await usage_error(shell, "env", "cannot specify --null (-0) with command", 125)
    cwd = None
    if chdir is not None:
        if not shell.fs.is_dir(chdir):
            code = errno.ENOTDIR if shell.fs.exists(chdir) else errno.ENOENT
            await shell.error("env", f"cannot change directory to '{chdir}': {strerror(code)}")
            return 125
        cwd = shell.fs.abspath(chdir)
    if debug:
        await shell.stderr.write(encode(f"executing: {operands[0]}\n" + "".join(
            f"   arg[{n}]= {quote(a)}\n" for n, a in enumerate(operands))))
    code = find_command(shell if cwd is None else shell.child(cwd=cwd), operands[0], env)
    if code:
        await shell.error("env", f"{quote(operands[0])}: {strerror(code)}")
        return command_status(code)
    return await shell.run(operands, env=env, cwd=cwd)
