"""``bash`` / ``sh`` inside the sandbox: a child shell run in-process."""

from __future__ import annotations

from pysh.interpreter.state import SET_OPTIONS, SHOPT_OPTIONS, SHORT_TO_LONG, Var
from pysh.shellkit import FileSystemError, InputStream, decode


def parse_shell_args(args: list[str]):
    """bash's own command line: options, -c SCRIPT [NAME [ARGS]], or FILE [ARGS].

    Returns (opts_on, opts_off, command or None, file or None, rest, error or None).
    """
    on: set[str] = set()
    off: set[str] = set()
    command = None
    want_c = False
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--" or a == "-":
            i += 1
            break
        if a == "--login":  # (a login shell: shopt login_shell is on)
            on.add("shopt:login_shell")
            i += 1
            continue
        if a in ("--norc", "--noprofile", "--posix", "-s", "--restricted", "--noediting"):
            i += 1
            continue
        if a in ("-O", "+O"):  # shopt options: kept as "shopt:NAME" for _apply
            if i + 1 >= len(args) or args[i + 1] not in SHOPT_OPTIONS:
                name = args[i + 1] if i + 1 < len(args) else ""
                return on, off, None, None, [], f"{name}: invalid shell option name"
            (on if a == "-O" else off).add("shopt:" + args[i + 1])
            i += 2
            continue
        if a in ("--rcfile", "--init-file"):  # read by an interactive shell only
            if i + 1 >= len(args):
                return on, off, None, None, [], f"{a}: option requires an argument"
            i += 2
            continue
        if a in ("--help", "--version"):
            return on, off, None, None, [], a
        if a.startswith("--"):
            return on, off, None, None, [], f"{a}: invalid option"
        if len(a) > 1 and a[0] in "-+":
            enable = a[0] == "-"
            j = 1
            while j < len(a):
                c = a[j]
                if c == "c":
                    want_c = True
                elif c == "o":
                    i += 1
                    if i >= len(args) or args[i] not in SET_OPTIONS:
                        return on, off, None, None, [], "-o: invalid option name"
                    (on if enable else off).add(args[i])
                elif c == "i":
                    if enable:
                        on.add("interactive:")
                elif c == "l":
                    on.add("shopt:login_shell")
                elif c == "s":
                    pass
                elif c in SHORT_TO_LONG:
                    (on if enable else off).add(SHORT_TO_LONG[c])
                else:
                    return on, off, None, None, [], f"-{c}: invalid option"
                j += 1
            i += 1
            continue
        break
    rest = args[i:]
    if want_c:
        if not rest:
            return on, off, None, None, [], "-c: option requires an argument"
        command, rest = rest[0], rest[1:]
        return on, off, command, None, rest, None
    if rest:
        return on, off, None, rest[0], rest[1:], None
    return on, off, None, None, [], None


_USAGE = (
    "Usage:\t{0} [GNU long option] [option] ...\n"
    "\t{0} [GNU long option] [option] script-file ...\n"
    "GNU long options:\n" + "".join(f"\t--{o}\n" for o in (
        "debug debugger dump-po-strings dump-strings help init-file login noediting "
        "noprofile norc posix pretty-print rcfile restricted verbose version").split())
    + "Shell options:\n\t-ilrsD or -c command or -O shopt_option\t\t(invocation only)\n"
    "\t-abefhkmnptuvxBCEHPT or -o option\n")


async def run_child_shell(interp, argv: list[str]) -> int:
    from pysh.interpreter.runner import BASH_VERSINFO, BASH_VERSION

    on, off, command, file, rest, error = parse_shell_args(argv[1:])
    name = argv[0].rpartition("/")[2]
    if error == "--help":
        await interp.out(f"GNU bash, version {BASH_VERSION}-({BASH_VERSINFO[5]})\n"
                         + _USAGE.format(name)
                         + f"Type `{name} -c \"help set\"' for more information about shell options.\n"
                         f"Type `{name} -c help' for more information about shell builtin commands.\n"
                         "Use the `bashbug' command to report bugs.\n\n"
                         "bash home page: <http://www.gnu.org/software/bash>\n"
                         "General help using GNU software: <http://www.gnu.org/gethelp/>\n")
        return 0
    if error == "--version":
        await interp.out(f"GNU bash, version {BASH_VERSION} ({BASH_VERSINFO[5]})\n"
                         "Copyright (C) 2022 Free Software Foundation, Inc.\n"
                         "License GPLv3+: GNU GPL version 3 or later <http://gnu.org/licenses/gpl.html>\n"
                         "\nThis is free software; you are free to change and redistribute it.\n"
                         "There is NO WARRANTY, to the extent permitted by law.\n")
        return 0
    if error:
        await interp.err(f"{argv[0]}: {error}\n")
        if error.endswith("invalid option"):
            await interp.err(_USAGE.format(name))
        return 2
    found = interp.find_command(argv[0]) if "/" not in argv[0] else None
    env = {**interp.env(), "_": found[1] if found else argv[0]}  # as for any program
    if command is not None:
        name = rest[0] if rest else argv[0]
        child = interp.new_shell(interp.fds, env, argv0=name, args=rest[1:])
        child.invocation = "c"
        child.vars.globals["BASH_EXECUTION_STRING"] = Var(command)
        _apply(child, on, off)
        if "noexec" in on:
            return await _syntax_only(child, command)
        return await child.run_source(command, name=name)
    if file is not None:
        try:
            data = await interp.read_named_file(file)
        except FileSystemError as e:
            await interp.err(f"{argv[0]}: {file}: {e.strerror}\n")
            return 127 if e.errno == 2 else 126
        if b"\0" in data:
            if b"\0" in data[:80].split(b"\n", 1)[0] and name != "sh" and "posix" not in on:
                # bash's check_binary_file: a NUL on the first line (sh reads on)
                await interp.err(f"{file}: {file}: cannot execute binary file\n")
                return 126
            data = data.replace(b"\0", b"")  # (bash drops the NULs it reads)
        child = interp.new_shell(interp.fds, env, argv0=file, args=rest)
        child.script_path = file
        _apply(child, on, off)
        if "noexec" in on:
            return await _syntax_only(child, decode(data))
        return await child.run_source(decode(data), name=file)
    # script on stdin
    stream = interp.fds.get(0)
    data = await stream.read() if isinstance(stream, InputStream) else b""
    child = interp.new_shell(interp.fds, env, argv0=argv[0], args=rest)
    child.invocation = "stdin"  # ($- shows s)
    _apply(child, on, off)
    return await child.run_source(decode(data), name=argv[0])


def _apply(child, on: set[str], off: set[str]) -> None:
    for name in on:
        if name == "interactive:":
            child.become_interactive()
        elif name.startswith("shopt:"):
            child.shopts.add(name[6:])
        else:
            child.opts.add(name)
    for name in off:
        if name.startswith("shopt:"):
            child.shopts.discard(name[6:])
        else:
            child.opts.discard(name)


async def _syntax_only(child, source: str) -> int:
    from pysh.interpreter.syntax import ParseError, parse

    try:
        parse(source, name=child.argv0)
    except ParseError as e:
        await child.err(e.format(child.argv0) + "\n")
        child.close_fds()
        return 2
    child.close_fds()
    return 0


async def command(shell, argv: list[str]) -> int:
    """``bash``/``sh`` as commands (``/usr/bin/bash``, ``env bash``, ``xargs sh -c``): the
    interpreter runs them, since a shell needs one; the builtin does the work."""
    if shell.executor is None:
        await shell.error(argv[0], "no interpreter to run a shell")
        return 127
    if "/" in argv[0]:
        # a path to one of them (/bin/sh, //bin/sh, /bin/../bin/[, ./test in /usr/bin): the
        # builtin of that name runs it, $0 as named; run by the path again, it would come
        # back here
        return await shell.executor.run_argv(shell, argv, builtin=argv[0].rpartition("/")[2])
    return await shell.executor.run_argv(shell, argv)
