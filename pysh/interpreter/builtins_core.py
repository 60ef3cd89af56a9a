"""Language builtins that need interpreter state: control flow, cd/pwd, echo/printf,
eval/source/exec, command lookup, jobs, traps, test.
"""

from __future__ import annotations

import errno
import posixpath

from pysh.interpreter.errors import AbortLine, ExitShell, LoopControl, ReturnFromFunction
from pysh.interpreter.printf import echo_unescape, printf
from pysh.interpreter.syntax import ast as A
from pysh.interpreter.syntax.lexer import canonical_bytes
from pysh.shellkit import FileSystemError, decode
from pysh.shellkit.confine import COMMAND_DIRS
from pysh.shellkit.worker import ensure_loop

BUILTINS: dict = {}


def builtin(*names):
    def deco(fn):
        for n in names:
            BUILTINS[n] = fn
        return fn
    return deco


async def option_letters(interp, name: str, args: list[str], allowed: str, usage: str):
    """A builtin's single-letter options: (the letters, the operands), or None after
    bash's invalid-option message and usage line (the caller returns 2)."""
    flags: set[str] = set()
    while args and args[0].startswith("-") and len(args[0]) > 1:
        if args[0] == "--":
            return flags, args[1:]
        for c in args[0][1:]:
            if c not in allowed:
                await interp.diag(f"{name}: -{c}: invalid option")
                await interp.err(f"{name}: usage: {usage}\n")
                return None
            flags.add(c)
        args = args[1:]
    return flags, args


async def usage_error(interp, name: str, message: str, status: int = 2) -> int:
    await interp.diag(f"{name}: {message}")
    return status


def _int_arg(s: str) -> int | None:
    s = s.strip()
    if s.lstrip("-+").isdigit():
        return int(s)
    return None


# -- trivial ----------------------------------------------------------------------
@builtin(":", "true")
async def b_true(interp, argv):
    return 0


@builtin("false")
async def b_false(interp, argv):
    return 1


# -- control flow -------------------------------------------------------------------
@builtin("exit")
async def b_exit(interp, argv):
    if len(argv) > 1:
        n = _int_arg(argv[1])
        if n is None:
            await interp.diag(f"exit: {argv[1]}: numeric argument required")
            raise ExitShell(2)
        if len(argv) > 2:
            await _too_many(interp, "exit")
        raise ExitShell(n & 0xFF)
    raise ExitShell(interp.status)


async def _too_many(interp, name: str):
    """bash's get_numeric_arg: more than one number gives up the input line (DISCARD)."""
    await interp.diag(f"{name}: too many arguments")
    raise AbortLine(1, discard=True)


@builtin("return")
async def b_return(interp, argv):
    if interp.vars.call_frame() is None and not interp.source_depth:
        # (a temp frame, x=1 return, is no function)
        await interp.diag("return: can only `return' from a function or sourced script")
        return 2
    if len(argv) > 1:
        n = _int_arg(argv[1])
        if n is None:
            await interp.diag(f"return: {argv[1]}: numeric argument required")
            raise ReturnFromFunction(2)
        if len(argv) > 2:
            await _too_many(interp, "return")
        raise ReturnFromFunction(n & 0xFF)
    raise ReturnFromFunction(interp.status)


@builtin("break", "continue")
async def b_break(interp, argv):
    # bash's break_builtin: the loop level is checked first, then get_numeric_arg
    name = argv[0]
    if interp.loop_depth == 0:
        await interp.diag(f"{name}: only meaningful in a `for', `while', or `until' loop")
        return 0
    args = argv[1:]
    if args and args[0] == "--":
        args = args[1:]
    n = 1
    if args:
        v = _int_arg(args[0])
        if v is None:
            await interp.diag(f"{name}: {args[0]}: numeric argument required")
            raise ExitShell(128)
        if len(args) > 1:
            # no_args(): the whole top-level command is thrown away
            await interp.diag(f"{name}: too many arguments")
            raise AbortLine(1, discard=True)
        if v < 1:
            # bash breaks out of every loop, whichever of the two it was
            await interp.diag(f"{name}: {args[0]}: loop count out of range")
            raise LoopControl("break", interp.loop_depth, status=1)
        n = v
    raise LoopControl(name, min(n, interp.loop_depth))


# -- output -----------------------------------------------------------------------------
@builtin("echo")
async def b_echo(interp, argv):
    args = argv[1:]
    newline = True
    escapes = "xpg_echo" in interp.shopts
    while args:
        a = args[0]
        if len(a) > 1 and a[0] == "-" and all(c in "neE" for c in a[1:]):
            for c in a[1:]:
                if c == "n":
                    newline = False
                elif c == "e":
                    escapes = True
                else:
                    escapes = False
            args = args[1:]
        else:
            break
    text = " ".join(args)
    if escapes:
        text, stop = echo_unescape(text, bare_octal=False)
        if stop:
            newline = False
    await interp.out(text + "\n" if newline else text)
    return 0


@builtin("printf")
async def b_printf(interp, argv):
    args = argv[1:]
    var = None
    if args and args[0] == "-v":
        if len(args) < 2:
            await interp.diag("printf: -v: option requires an argument")
            await interp.err("printf: usage: printf [-v var] format [arguments]\n")
            return 2
        var = args[1]
        args = args[2:]
        if not _valid_var_name(var):
            await interp.diag(f"printf: `{var}': not a valid identifier")
            return 2
    if args and args[0] == "--":
        args = args[1:]
    if not args:
        await interp.err("printf: usage: printf [-v var] format [arguments]\n")
        return 2
    fmt, rest = args[0], args[1:]
    text, errors = printf(fmt, rest, tz=interp.env().get("TZ"),
                          max_len=interp.budget.limits.max_string_length)
    interp.budget.check_string(len(text))
    for e in errors:
        await interp.diag(f"printf: {e}")
    # (no failure for warnings nor for a \x or \u without digits)
    errors = [e for e in errors if not e.startswith(("warning: ", "missing "))]
    if var is not None:
        text = canonical_bytes(text)
        if "[" in var and var.endswith("]"):
            base, _, sub = var[:-1].partition("[")
            interp.assign_key(base, sub, text)
        else:
            interp.assign(var, text)
    else:
        await interp.out(text)
    return 1 if errors else 0


def _valid_var_name(name: str) -> bool:
    from pysh.interpreter.state import valid_ref_name

    return valid_ref_name(name)


# -- directories ---------------------------------------------------------------------------
def _logical_join(cwd: str, path: str) -> str:
    full = path if path.startswith("/") else posixpath.join(cwd, path)
    norm = posixpath.normpath(full)
    if norm.startswith("//"):
        norm = "/" + norm.lstrip("/")
    return norm


async def change_dir(interp, target: str, physical: bool, name: str = "cd") -> int:
    fs = interp.session.root.fs.at(interp.cwd)
    if physical:
        try:
            new = fs.realpath(target)
        except FileSystemError as e:
            await interp.diag(f"{name}: {target}: {e.strerror}")
            return 1
    else:
        new = _logical_join(interp.cwd, target)
        # bash checks the path as written too: `cd missing/..` fails
        if ".." in target.split("/") and not fs.is_dir(target if target.startswith("/")
                                                       else interp.cwd.rstrip("/") + "/" + target):
            await interp.diag(f"{name}: {target}: No such file or directory")
            return 1
    try:
        st_ok = fs.is_dir(new)
        if not st_ok:
            fs.stat(new)  # for the right errno
            await interp.diag(f"{name}: {target}: Not a directory")
            return 1
    except FileSystemError as e:
        if not physical:
            # bash retries physically when the logical path does not work
            try:
                real = fs.realpath(target)
                if fs.is_dir(real):
                    new = real
                else:
                    raise e
            except FileSystemError:
                await interp.diag(f"{name}: {target}: {e.strerror}")
                return 1
        else:
            await interp.diag(f"{name}: {target}: {e.strerror}")
            return 1
    import os

    if not fs.access(new, os.X_OK):
        await interp.diag(f"{name}: {target}: Permission denied")
        return 1
    old = interp.get_scalar("PWD") or interp.cwd
    interp.cwd = new
    interp.assign("OLDPWD", old)
    oldpwd = interp.vars.lookup("OLDPWD")
    if oldpwd is not None and not oldpwd.attrs & 1:  # bash exports OLDPWD once cd sets it
        from pysh.interpreter.state import EXPORT

        oldpwd.attrs |= EXPORT
        interp.vars.env_version += 1
    interp.assign("PWD", new)
    return 0


@builtin("cd")
async def b_cd(interp, argv):
    return await _cd(interp, argv[1:])


async def _cd(interp, args: list[str], name: str = "cd") -> int:
    """cd's work; pushd and popd run it under their own names, as bash does."""
    physical = "physical" in interp.opts
    while args and args[0].startswith("-") and args[0] not in ("-", "--") and len(args[0]) > 1:
        for c in args[0][1:]:
            if c == "P":
                physical = True
            elif c == "L":
                physical = False
            elif c in "e@":
                pass
            else:
                await interp.diag(f"cd: -{c}: invalid option")
                await interp.err("cd: usage: cd [-L|[-P [-e]] [-@]] [dir]\n")
                return 2
        args = args[1:]
    if args and args[0] == "--":
        args = args[1:]
    if len(args) > 1:
        await interp.diag(f"{name}: too many arguments")
        return 1
    print_dir = False
    if not args:
        target = interp.get_scalar("HOME")
        if target is None:
            await interp.diag(f"{name}: HOME not set")
            return 1
        if target == "":
            return 0
    else:
        target = args[0]
        if target == "-":
            target = interp.get_scalar("OLDPWD")
            if target is None:
                await interp.diag(f"{name}: OLDPWD not set")
                return 1
            print_dir = True
        elif target == "":
            return 0
    if not target.startswith("/") and not target.startswith(".") and interp.get_scalar("CDPATH"):
        fs = interp.fs
        for d in interp.get_scalar("CDPATH").split(":"):
            cand = posixpath.join(d or ".", target)
            if fs.is_dir(_logical_join(interp.cwd, cand)):
                status = await change_dir(interp, cand, physical, name)
                if status == 0 and d:
                    await interp.out(interp.cwd + "\n")
                return status
    status = await change_dir(interp, target, physical, name)
    if status == 0 and print_dir:
        await interp.out(interp.cwd + "\n")
    return status


@builtin("pwd")
async def b_pwd(interp, argv):
    physical = "physical" in interp.opts
    for a in argv[1:]:
        if a == "-P":
            physical = True
        elif a == "-L":
            physical = False
        elif a.startswith("-") and a != "-":
            await interp.diag(f"pwd: {a}: invalid option")
            await interp.err("pwd: usage: pwd [-LP]\n")
            return 2
    if physical:
        try:
            path = interp.fs.realpath(interp.cwd)
        except FileSystemError as e:
            await interp.diag(f"pwd: error retrieving current directory: {e.strerror}")
            return 1
    else:
        path = interp.cwd
    await interp.out(path + "\n")
    return 0


def _dirs_list(interp, tilde: bool = True) -> list[str]:
    """The stack as dirs shows it: the current directory first, then the pushed ones."""
    home = interp.get_scalar("HOME") or ""
    out = []
    for d in [interp.cwd] + interp.dirstack:
        if tilde and home and (d == home or d.startswith(home.rstrip("/") + "/")):
            d = "~" + d[len(home):]
        out.append(d)
    return out


_DIRS_USAGE = {"dirs": "dirs [-clpv] [+N] [-N]", "pushd": "pushd [-n] [+N | -N | dir]",
               "popd": "popd [-n] [+N | -N]"}


async def _dirs_usage(interp, name: str, message: str) -> int:
    await interp.diag(f"{name}: {message}")
    await interp.err(f"{name}: usage: {_DIRS_USAGE[name]}\n")
    return 2


def _stack_number(text: str) -> int | None:
    """bash's legal_number: an optional sign, digits, blanks around."""
    t = text.strip(" \t\n")
    body = t[1:] if t[:1] in "+-" else t
    return int(t) if body.isdigit() and body.isascii() else None


async def _stack_range_error(interp, name: str, arg: str) -> int:
    await interp.diag(f"{name}: " + ("directory stack empty" if not interp.dirstack
                                     else f"{arg}: directory stack index out of range"))
    return 1


async def _print_dirs(interp) -> None:
    await interp.out(" ".join(_dirs_list(interp)) + "\n")


@builtin("dirs")
async def b_dirs(interp, argv):
    long_form = clear = verbose = per_line = False
    index = None  # the position in the list dirs shows (0: the current directory)
    arg = ""
    args = argv[1:]
    while args:
        a = args.pop(0)
        if a == "--":
            break
        if a in ("-l", "-c", "-v", "-p"):
            long_form |= a == "-l"
            clear |= a == "-c"
            verbose |= a == "-v"
            per_line |= a == "-p"
        elif a[:1] in "+-" and a:
            n = _stack_number(a[1:])
            if n is None:
                return await _dirs_usage(interp, "dirs", f"{a}: invalid number")
            arg = a[1:]
            size = len(interp.dirstack)
            index = n if a[0] == "+" else size - n
            if not 0 <= n <= size:
                index = -1
        else:
            return await _dirs_usage(interp, "dirs", f"{a}: invalid option")
    if clear:
        interp.dirstack.clear()
        return 0
    items = _dirs_list(interp, not long_form)
    if index is not None:
        if not 0 <= index <= len(interp.dirstack):
            return await _stack_range_error(interp, "dirs", arg)
        await interp.out(f"{index:2d}  {items[index]}\n" if verbose else items[index] + "\n")
    elif verbose:
        await interp.out("".join(f"{i:2d}  {d}\n" for i, d in enumerate(items)))
    elif per_line:
        await interp.out("".join(d + "\n" for d in items))
    else:
        await interp.out(" ".join(items) + "\n")
    return 0


@builtin("pushd")
async def b_pushd(interp, argv):
    args = argv[1:]
    skip_options = bool(args) and args[0] == "--"
    if skip_options:
        args = args[1:]
    stack = interp.dirstack
    if not args:
        if not stack:
            await interp.diag("pushd: no other directory")
            return 1
        old = interp.cwd
        target, stack[0] = stack[0], old
        return await _cd_and_show(interp, target)
    no_cd = False
    rotate = None
    while args and not skip_options:
        a = args[0]
        if a == "-n":
            no_cd = True
        elif a == "--":
            args.pop(0)
            break
        elif a == "-":  # pushd - is cd -
            break
        elif a[:1] in "+-":
            n = _stack_number(a[1:])
            if n is None:
                return await _dirs_usage(interp, "pushd", f"{a}: invalid number")
            if a[0] == "-":
                n = len(stack) - n
            if not 0 <= n <= len(stack):
                return await _stack_range_error(interp, "pushd", a)
            rotate = n
        else:
            break
        args.pop(0)
    if rotate is not None:
        # the list dirs shows turns round until entry N comes first: that one is cd'd to
        whole = [interp.cwd] + stack
        whole = whole[rotate:] + whole[:rotate]
        if rotate:
            stack[:] = whole[1:]
        return 0 if no_cd else await _cd_and_show(interp, whole[0])
    if not args:
        return 0
    old = interp.cwd
    if not no_cd:
        status = await _cd(interp, args, "pushd")
        if status:
            return status
    stack.insert(0, args[0] if no_cd else old)
    await _print_dirs(interp)
    return 0


async def _cd_and_show(interp, target: str) -> int:
    status = await _cd(interp, ["--", target], "pushd")
    if status == 0:
        await _print_dirs(interp)
    return status


@builtin("popd")
async def b_popd(interp, argv):
    no_cd = False
    which, plus, word = 0, True, ""
    for a in argv[1:]:
        if a == "-n":
            no_cd = True
        elif a == "--":
            break
        elif a[:1] in "+-" and a:
            n = _stack_number(a[1:])
            if n is None:
                return await _dirs_usage(interp, "popd", f"{a}: invalid number")
            which, plus, word = n, a[0] == "+", a
        elif a.startswith("-"):
            return await _dirs_usage(interp, "popd", f"{a}: invalid option")
        elif a:
            return await _dirs_usage(interp, "popd", f"{a}: invalid argument")
        else:
            break
    stack = interp.dirstack
    size = len(stack)
    if which > size or which < -size or (size == 0 and which == 0):
        return await _stack_range_error(interp, "popd", word)
    if (plus and which == 0) or (not plus and which == size):
        if not no_cd:
            status = await _cd(interp, ["--", stack[0]], "popd")
            if status:
                return status
        stack.pop(0)
    else:
        at = which if plus else size - which  # its place in the list dirs shows
        if not 1 <= at <= size:
            return await _stack_range_error(interp, "popd", word)
        stack.pop(at - 1)
    await _print_dirs(interp)
    return 0


# -- evaluation ---------------------------------------------------------------------------------
@builtin("eval")
async def b_eval(interp, argv):
    args = argv[1:]
    if args and args[0] == "--":
        args = args[1:]
    elif args and len(args[0]) > 1 and args[0][0] == "-":
        await interp.diag(f"eval: {args[0]}: invalid option")
        await interp.err("eval: usage: eval [arg ...]\n")
        return 2
    source = " ".join(args)
    if not source.strip():
        return 0
    limit = interp.budget.limits.max_call_depth
    if interp.call_depth >= limit:
        from pysh.shellkit import LimitExceeded

        raise LimitExceeded("call depth", f"{limit} nested calls")
    interp.call_depth += 1
    try:
        return await interp.eval_string(source)
    finally:
        interp.call_depth -= 1


@builtin("source", ".")
async def b_source(interp, argv):
    name = argv[0]
    args = argv[1:]
    if args and args[0] == "--":
        args = args[1:]
    if not args:
        await interp.diag(f"{name}: filename argument required")
        await interp.err(f"{name}: usage: {name} filename [arguments]\n")
        return 2
    path = args[0]
    fs = interp.fs
    candidates = [path]
    if "/" not in path and "sourcepath" in interp.shopts:
        candidates = [posixpath.join(d or ".", path) for d in (interp.get_scalar("PATH") or "").split(":")
                      if d not in COMMAND_DIRS] + [path]
    data = None
    err = None
    if path.startswith("/dev/"):  # source <(cmd): the pipe, read to its end
        sh = interp.shell_for_command()
        await sh.materialize([path])
        data = sh.stream_data(path)
        if data is not None:
            candidates = []
    for c in candidates:
        try:
            if fs.is_dir(c):
                err = FileSystemError(21, c)
                continue
            data = await interp.read_named_file(c)  # a file, a device, a <(cmd) pipe
            break
        except FileSystemError as e:
            err = err or e
    if data is None:
        if err is not None and err.errno == errno.EISDIR:
            await interp.diag(f"{name}: {path}: is a directory")
        else:
            await interp.diag(f"{path}: {err.strerror if err is not None else 'file not found'}")
        await _source_return_trap(interp)
        return 1
    limit = interp.budget.limits.max_call_depth
    if interp.call_depth >= limit:
        from pysh.shellkit import LimitExceeded

        raise LimitExceeded("call depth", f"{limit} nested calls")
    saved_args = None
    if len(args) > 1:
        saved_args = interp.positional_list()
        interp.set_positional(args[1:])
    interp.source_depth += 1
    interp.call_depth += 1
    saved_line = interp.lineno
    interp.call_stack.append(("source", path, interp.lineno, False))
    try:
        interp.lineno = 0
        status = await interp.eval_string(decode(data), name=path)
        status = 1 if status == 2 and interp.last_parse_failed else status
    except ReturnFromFunction as r:
        status = r.status
    finally:
        interp.source_depth -= 1
        interp.call_depth -= 1
        interp.call_stack.pop()
        interp.lineno = saved_line
        if saved_args is not None:
            interp.set_positional(saved_args)
    await _source_return_trap(interp)
    return status


async def _source_return_trap(interp) -> None:
    """bash runs the RETURN trap when `source` ends, even if the file could not be read."""
    if "RETURN" in interp.traps and not interp.in_trap:
        await interp.run_trap("RETURN")


@builtin("exec")
async def b_exec(interp, argv):
    args = argv[1:]
    argv0 = None
    while args and args[0].startswith("-") and len(args[0]) > 1:
        if args[0] == "--":
            args = args[1:]
            break
        if args[0] in ("-c", "-l"):
            args = args[1:]
            continue
        if args[0] == "-a" and len(args) > 1:
            argv0 = args[1]
            args = args[2:]
            continue
        break
    if not args:
        return 0
    if argv0 is not None and args[0] not in interp.funcs and args[0] not in interp.session.builtins:
        status = await interp.run_external(args, [], argv0=argv0)
    elif argv0 is not None and args[0] not in interp.funcs:
        # a builtin standing for a program (sh, bash): it is told the name too
        status = await interp._run_builtin(interp.session.builtins[args[0]], [argv0] + args[1:])
    else:
        status = await interp.invoke(args)
    raise ExitShell(status)


@builtin("command")
async def b_command(interp, argv):
    args = argv[1:]
    mode = None
    default_path = False
    while args and args[0].startswith("-") and len(args[0]) > 1:
        a = args[0]
        if a == "--":
            args = args[1:]
            break
        for c in a[1:]:
            if c in "vV":
                mode = c
            elif c == "p":
                default_path = True
            else:
                await interp.diag(f"command: -{c}: invalid option")
                await interp.err("command: usage: command [-pVv] command [arg ...]\n")
                return 2
        args = args[1:]
    if not args:
        return 0
    if mode is not None:
        found = 0  # bash: success when any of the names was found
        for name in args:
            hit, lines = describe(interp, name, "reuse" if mode == "v" else "short",
                                  std_path=default_path)
            if lines:
                await interp.out("".join(line + "\n" for line in lines))
            if hit:
                found += 1
            elif mode == "V":
                await interp.diag(f"command: {name}: not found")
        return 0 if found else 1
    name = args[0]
    b = interp.session.builtins.get(name)
    if b is not None and name not in _SHELL_COMMANDS and name not in interp.disabled_builtins:
        return await b(interp, args)
    if default_path:
        # command -p: look the name up in the standard PATH, not $PATH
        found = interp.find_command(name, path=STANDARD_PATH)
        if found is None:
            await interp.not_found(interp.fds, name)
            return 127
        func = interp.session.registry.get(name) if found[0] == "command" else None
        if func is not None:
            return await interp.run_registered(func, args, interp.fds, interp.env())
        return await interp.run_script_file(found[1], args, interp.fds, interp.env())
    return await interp.run_external(args, [])


@builtin("builtin")
async def b_builtin(interp, argv):
    if len(argv) > 1 and argv[1] == "--":
        argv = argv[:1] + argv[2:]
    if len(argv) < 2:
        return 0
    b = interp.session.builtins.get(argv[1])
    if b is None:
        await interp.diag(f"builtin: {argv[1]}: not a shell builtin")
        return 1
    return await b(interp, argv[1:])


KEYWORDS = {"if", "then", "else", "elif", "fi", "case", "esac", "for", "select", "while", "until",
            "do", "done", "in", "function", "time", "{", "}", "!", "[[", "]]", "coproc"}


# bash and sh are programs on a real system; pysh runs them in-process, but reports them as
# the files they would be (`command -v bash` is /usr/bin/bash)
_SHELL_COMMANDS = {"bash", "sh"}


def _alias_of(interp, name: str) -> str | None:
    """An alias counts (type, command -v) only where aliases are expanded, as in bash."""
    return interp.aliases.get(name) if "expand_aliases" in interp.shopts else None


STANDARD_PATH = "/bin:/usr/bin"  # (glibc's confstr _CS_PATH: command -p, type's -p)


def describe(interp, name: str, mode: str = "short", *, all_: bool = False,
             force_path: bool = False, no_funcs: bool = False,
             std_path: bool = False) -> tuple[bool, list[str]]:
    """bash's describe_command: whether ``name`` means anything, and the lines to print.
    ``mode``: "short" (type, command -V), "reuse" (command -v), "type" (type -t) or
    "path" (type -p/-P: files only); ``all_`` every meaning (type -a)."""
    out: list[str] = []
    found = False

    def say(kind: str, short: str, reuse: str | None) -> None:
        if mode == "type":
            out.append(kind)
        elif mode == "short":
            out.append(short)
        elif mode == "reuse" and reuse is not None:
            out.append(reuse)

    if not force_path:
        alias = _alias_of(interp, name)
        if alias is not None:
            say("alias", f"{name} is aliased to `{alias}'", _alias_line(name, alias).rstrip("\n"))
            found = True
        if (all_ or not found) and name in KEYWORDS:
            say("keyword", f"{name} is a shell keyword", name)
            found = True
        if (all_ or not found) and not no_funcs and name in interp.funcs:
            say("function", f"{name} is a function\n{format_function(interp.funcs[name])}", name)
            found = True
        if (all_ or not found) and name in interp.session.builtins and \
                name not in _SHELL_COMMANDS and name not in interp.disabled_builtins:
            special = "posix" in interp.opts and name in _SPECIAL_BUILTINS
            say("builtin", f"{name} is a {'special ' if special else ''}shell builtin", name)
            found = True
        if found and not all_:
            return True, out
    if "/" in name:
        import os

        fs = interp.fs
        if fs.is_file(name) and fs.access(name, os.X_OK):
            say("file", f"{name} is {name}", name)
            if mode == "path":
                out.append(name)
            return True, out
    if (not all_ or force_path) and name in interp.hashed:
        path = interp.find_command(name)[1]
        say("file", f"{name} is hashed ({path})", path)
        if mode == "path":
            out.append(path)
        return True, out
    if std_path or not all_:
        hit = interp.find_command(name, use_hash=False,  # (type and command hash nothing)
                                  path=STANDARD_PATH if std_path else None)
        paths = [hit[1]] if hit is not None else []
    else:
        paths = interp.find_all_commands(name)
    for path in paths:
        say("file", f"{name} is {path}", path)
        if mode == "path":
            out.append(path)
        found = True
    return found, out


_SPECIAL_BUILTINS = frozenset(("break", ":", ".", "continue", "eval", "exec", "exit", "export",
                               "readonly", "return", "set", "shift", "source", "times", "trap",
                               "unset"))


def _alias_order(name: str) -> tuple:
    """bash's qsort_alias_compare: the first bytes as signed chars, then strcmp."""
    b = name.encode("utf-8", "surrogateescape")
    return (b[0] - 256 if b and b[0] > 127 else (b[0] if b else 0), b)


def _alias_line(name: str, value: str, reusable: bool = True) -> str:
    """As bash's print_alias (``alias -- -x='y'``; posix mode lists without ``alias``)."""
    from pysh.interpreter.syntax.bashprint import single_quote

    lead = ("alias -- " if name[:1] == "-" else "alias ") if reusable else ""
    return f"{lead}{name}={single_quote(value)}\n"


def format_function(fn: A.FunctionDef) -> str:
    """The function as bash prints it (``type f``, ``declare -f``)."""
    from pysh.interpreter.syntax.bashprint import function_text

    return function_text(fn)


@builtin("type")
async def b_type(interp, argv):
    args = argv[1:]
    letters = ""
    while args and args[0].startswith("-") and len(args[0]) > 1:
        if args[0] == "--":
            args = args[1:]
            break
        word = {"-type": "-t", "--type": "-t", "-path": "-p", "--path": "-p", "-all": "-a",
                "--all": "-a"}.get(args[0], args[0])  # (bash's obsolete long forms)
        bad = next((c for c in word[1:] if c not in "afptP"), None)
        if bad is not None:
            await interp.diag(f"type: -{bad}: invalid option")
            await interp.err("type: usage: type [-afptP] name [name ...]\n")
            return 2
        letters += word[1:]
        args = args[1:]
    mode, force_path = "short", False
    for c in letters:  # the last of -p, -t and -P decides what is printed
        if c in "pP":
            mode = "path"
            force_path = force_path or c == "P"
        elif c == "t":
            mode = "type"
    status = 0
    for name in args:
        hit, lines = describe(interp, name, mode, all_="a" in letters, force_path=force_path,
                              no_funcs="f" in letters)
        if lines:
            await interp.out("".join(line + "\n" for line in lines))
        if not hit:
            if mode == "short":
                await interp.diag(f"type: {name}: not found")
            status = 1
    return status


@builtin("hash")
async def b_hash(interp, argv):
    args = argv[1:]
    flags: set[str] = set()
    pathname = None
    while args and args[0].startswith("-") and len(args[0]) > 1:
        a = args.pop(0)
        if a == "--":
            break
        for i, c in enumerate(a[1:], 1):
            if c == "p":
                rest = a[i + 1:]
                if not rest and not args:
                    await interp.diag("hash: -p: option requires an argument")
                    await interp.err(_HASH_USAGE)
                    return 2
                pathname = rest or args.pop(0)
                break
            if c not in "dlrt":
                await interp.diag(f"hash: -{c}: invalid option")
                await interp.err(_HASH_USAGE)
                return 2
            flags.add(c)
    table, hits = interp.hashed, interp.hash_hits
    if not args and ("d" in flags or "t" in flags):
        await interp.diag(f"hash: -{'d' if 'd' in flags else 't'}: option requires an argument")
        return 1
    if not args and "r" not in flags:
        rows = _hash_walk(table)
        if "l" in flags:
            await interp.out("".join(f"builtin hash -p {p} {n}\n" for n, p in rows))
        elif rows:
            await interp.out("hits\tcommand\n" + "".join(
                f"{hits.get(n, 0):4d}\t{p}\n" for n, p in rows))
        else:
            await interp.out("hash: hash table empty\n")
        return 0
    if "r" in flags:
        table.clear()
    status = 0
    if "t" in flags:
        for name in args:
            found = interp.find_command(name) if name in table else None
            if found is None:
                await interp.diag(f"hash: {name}: not found")
                status = 1
            elif "l" in flags:
                await interp.out(f"builtin hash -p {found[1]} {name}\n")
            else:
                await interp.out(f"{name}\t{found[1]}\n" if len(args) > 1 else found[1] + "\n")
        return status
    for name in args:
        if "/" in name:
            continue
        if pathname is not None:
            if interp.fs.is_dir(pathname):
                await interp.diag(f"hash: {pathname}: Is a directory")
                status = 1
            else:
                table[name], hits[name] = pathname, 0
        elif "d" in flags:
            if table.pop(name, None) is None:
                await interp.diag(f"hash: {name}: not found")
                status = 1
        elif name not in interp.funcs and name not in interp.session.builtins:
            table.pop(name, None)
            found = interp.find_command(name, use_hash=False)
            if found is None:
                await interp.diag(f"hash: {name}: not found")
                status = 1
            else:
                table[name], hits[name] = found[1], 0
    return status


_HASH_USAGE = "hash: usage: hash [-lr] [-p pathname] [-dt] [name ...]\n"


def _hash_walk(table: dict) -> list:
    """The table in bash's order: its 256 buckets in turn, the newest first in each."""
    from pysh.interpreter.state import bash_hash

    names = list(table)
    order = sorted(range(len(names)), key=lambda i: (bash_hash(names[i]) & 255, -i))
    return [(names[i], table[names[i]]) for i in order]


@builtin("enable")
async def b_enable(interp, argv):
    got = await option_letters(interp, "enable", argv[1:], "adfnps",
                               "enable [-a] [-dnps] [-f filename] [name ...]")
    if got is None:
        return 2
    flags, args = got
    if "f" in flags or "d" in flags:
        await interp.diag("enable: loading builtins from shared objects is not supported")
        return 1
    off = interp.disabled_builtins
    names = sorted(n for n in interp.session.builtins if n not in _SHELL_COMMANDS)
    if not args:
        for n in names:
            disabled = n in off
            if "a" in flags or ("n" in flags) == disabled:
                await interp.out(f"enable {'-n ' if disabled else ''}{n}\n")
        return 0
    status = 0
    for n in args:
        if n not in interp.session.builtins or n in _SHELL_COMMANDS:
            await interp.diag(f"enable: {n}: not a shell builtin")
            status = 1
        elif "n" in flags:
            off.add(n)
        else:
            off.discard(n)
    return status


@builtin("help")
async def b_help(interp, argv):
    from pysh.interpreter import pattern as pat
    from pysh.interpreter.help_table import HELP_TOPICS

    got = await option_letters(interp, "help", argv[1:], "dms", "help [-dms] [pattern ...]")
    if got is None:
        return 2
    flags, args = got
    mode = next((c for c in "dms" if c in flags), "")
    if not args:
        names = sorted(interp.session.builtins)
        await interp.out("pysh: a bash-compatible shell running in a sandbox. Builtins:\n"
                         + " ".join(names) + "\n")
        return 0
    out = []
    if pat.has_glob(args[0]):
        out.append("Shell commands matching keyword" + ("s" if len(args) > 1 else "")
                   + " `" + ", ".join(args) + "'\n\n")
    found = 0
    for t in args:
        # bash: exact names and pattern matches first; failing those, names t begins
        hits = [row for row in HELP_TOPICS if row[0] == t or pat.match(t, row[0])]
        if not hits:
            hits = [row for row in HELP_TOPICS if row[0].startswith(t)]
        found += len(hits)
        for name, synopsis, desc in hits:
            if mode == "d":
                out.append(f"{name} - {desc}\n")
            elif mode == "m":
                out.append(f"NAME\n    {name} - {desc}\n\nSYNOPSIS\n    {synopsis}\n\n")
            elif mode == "s":
                out.append(f"{name}: {synopsis}\n")
            else:
                out.append(help_text(name))
    if not found:
        t = args[-1]
        await interp.diag(f"help: no help topics match `{t}'.  Try `help help' or `man -k {t}' or `info {t}'.")
        return 1
    await interp.out("".join(out))
    return 0


def help_text(name: str) -> str:
    """``help NAME`` and ``NAME --help``: bash's synopsis and its one-line description (the
    long text of bash's help is not reproduced)."""
    from pysh.interpreter.help_table import HELP_TOPICS

    for topic, synopsis, desc in HELP_TOPICS:
        if topic == name:
            return f"{name}: {synopsis}\n    {desc}\n"
    return f"{name}: {name}\n"


@builtin("times")
async def b_times(interp, argv):
    await interp.out("0m0.000s 0m0.000s\n0m0.000s 0m0.000s\n")
    return 0


@builtin("umask")
async def b_umask(interp, argv):
    args = argv[1:]
    symbolic = p = False
    while args and args[0].startswith("-") and len(args[0]) > 1:
        if args[0] == "--":
            args = args[1:]
            break
        for c in args[0][1:]:
            if c not in "Sp":
                await interp.diag(f"umask: -{c}: invalid option")
                await interp.err("umask: usage: umask [-p] [-S] [mode]\n")
                return 2
            symbolic, p = symbolic or c == "S", p or c == "p"
        args = args[1:]
    if not args:
        if p:
            await interp.out("umask -S " if symbolic else "umask ")
        await interp.out(_symbolic_umask(interp.umask) if symbolic else f"{interp.umask:04o}\n")
        return 0
    spec = args[0]
    if spec[:1].isdigit():
        if not all(c in "01234567" for c in spec) or int(spec, 8) > 0o7777:  # read_octal
            await interp.diag(f"umask: {spec}: octal number out of range")
            return 1
        interp.umask = int(spec, 8) & 0o777
    else:
        bits = _symbolic_mode(spec, 0o777 & ~interp.umask)
        if isinstance(bits, str):
            await interp.diag(f"umask: {bits}")
            return 1
        interp.umask = 0o777 & ~bits
    if symbolic:  # (umask -S MODE shows the new mask)
        await interp.out(_symbolic_umask(interp.umask))
    return 0


def _symbolic_umask(mask: int) -> str:
    perm = 0o777 & ~mask
    return ",".join(who + "=" + "".join(c for c, b in (("r", 4), ("w", 2), ("x", 1))
                                        if (perm >> shift) & b)
                    for who, shift in (("u", 6), ("g", 3), ("o", 0))) + "\n"


def _symbolic_mode(mode: str, bits: int) -> int | str:
    """bash's parse_symbolic_mode: the permission bits after ``u=rwx,g-w,...``, or the
    error message (its characters as bash shows them, a missing one as NUL)."""
    i, n = 0, len(mode)
    at = lambda k: mode[k] if k < n else "\0"  # noqa: E731
    while True:
        who = perm = 0
        while at(i) in "agou" and i < n:
            who |= {"u": 0o700, "g": 0o070, "o": 0o007, "a": 0o777}[mode[i]]
            i += 1
        op = at(i)
        i += 1
        if op not in "+-=" or op == "\0":
            return f"`{op}': invalid symbolic mode operator"
        while i < n and mode[i] in "rwx":
            perm |= {"r": 0o444, "w": 0o222, "x": 0o111}[mode[i]]
            i += 1
        if i < n and mode[i] != ",":
            return f"`{mode[i]}': invalid symbolic mode character"
        if who:
            perm &= who
        if op == "+":
            bits |= perm
        elif op == "-":
            bits &= ~perm
        else:
            bits = (bits & ~(who or 0o777)) | perm
        if i >= n:
            return bits
        i += 1  # past the ','


@builtin("caller")
async def b_caller(interp, argv):
    """caller [N]: "LINE SUBROUTINE FILE" of the Nth call up; without N, "LINE FILE"."""
    lines = interp.bash_lineno_array()
    if not lines:
        return 1
    names = interp.funcname_array()
    files = interp.bash_source_array()
    if len(argv) > 1:
        if not argv[1].isdigit():
            await interp.diag(f"caller: {argv[1]}: invalid number")
            return 2
        n = int(argv[1])
        if n + 1 >= len(lines) or n + 1 >= len(files):
            return 1
        await interp.out(f"{lines[n]} {names[n + 1] if n + 1 < len(names) else 'main'} {files[n + 1]}\n")
        return 0
    await interp.out(f"{lines[0]} {files[1] if len(files) > 1 else 'NULL'}\n")
    return 0


_NOT_IN_ALIAS_NAMES = frozenset("()<>;&| \t\n\"'`\\$/")  # bash's legal_alias_name


@builtin("alias")
async def b_alias(interp, argv):
    args = argv[1:]
    listing = False
    while args and args[0].startswith("-") and len(args[0]) > 1:
        if args[0] == "--":
            args = args[1:]
            break
        for c in args[0][1:]:
            if c != "p":
                await interp.diag(f"alias: -{c}: invalid option")
                await interp.err("alias: usage: alias [-p] [name[=value] ... ]\n")
                return 2
        listing = True
        args = args[1:]
    reusable = listing or "posix" not in interp.opts
    if not args or listing:
        if not interp.aliases:
            return 0  # (bash, even with names after -p)
        for k in sorted(interp.aliases, key=_alias_order):
            await interp.out(_alias_line(k, interp.aliases[k], reusable))
    status = 0
    for a in args:
        name, eq, value = a.partition("=")
        if eq and name:
            if any(c in _NOT_IN_ALIAS_NAMES for c in name):
                await interp.diag(f"alias: `{name}': invalid alias name")
                status = 1
            else:
                interp.aliases[name] = value
        elif a in interp.aliases:
            await interp.out(_alias_line(a, interp.aliases[a], reusable))
        else:
            await interp.diag(f"alias: {a}: not found")
            status = 1
    return status


@builtin("unalias")
async def b_unalias(interp, argv):
    args = argv[1:]
    usage = "unalias: usage: unalias [-a] name [name ...]\n"
    every = False
    while args and args[0].startswith("-") and args[0] != "-":
        opt = args.pop(0)
        if opt == "--":
            break
        for c in opt[1:]:
            if c != "a":
                await interp.diag(f"unalias: -{c}: invalid option")
                await interp.err(usage)
                return 2
            every = True
    if every:
        interp.aliases.clear()
        return 0
    if not args:
        await interp.err(usage)
        return 2
    status = 0
    for a in args:
        if interp.aliases.pop(a, None) is None:
            await interp.diag(f"unalias: {a}: not found")
            status = 1
    return status


@builtin("let")
async def b_let(interp, argv):
    if len(argv) < 2:
        await interp.diag("let: expression expected")
        return 1
    from pysh.interpreter.arith_eval import ArithRuntimeError
    from pysh.interpreter.syntax.errors import ArithError

    v = 0
    for expr in argv[1:]:
        try:
            v = interp.arith.evaluate_text(expr)
        except (ArithError, ArithRuntimeError) as e:
            await interp.diag(f"let: {e}")
            return 1
    return 0 if v else 1


@builtin("shift")
async def b_shift(interp, argv):
    n = 1
    if len(argv) > 1:
        v = _int_arg(argv[1])
        if v is None:
            await interp.diag(f"shift: {argv[1]}: numeric argument required")
            return 1
        if len(argv) > 2:
            await _too_many(interp, "shift")
        n = v
    args = interp.positional_list()
    if n < 0 or n > len(args):
        if n < 0 or "shift_verbose" in interp.shopts:
            # (bash names the count only when one was given)
            await interp.diag(f"shift: {argv[1]}: shift count out of range" if len(argv) > 1
                              else "shift: shift count out of range")
        return 1
    interp.set_positional(args[n:])
    return 0


# -- jobs ---------------------------------------------------------------------------------------
def _job_by_spec(interp, spec: str):
    jobs = _jobs(interp)
    if spec.startswith("%"):
        s = spec[1:]
        live = sorted((j for j in jobs.values() if j.number), key=lambda j: j.number)
        if s in ("", "+", "%"):
            return live[-1] if live else None
        if s == "-":
            return live[-2] if len(live) > 1 else (live[-1] if live else None)
        if s.isdigit():
            for j in jobs.values():
                if j.number == int(s):
                    return j
            return None
        for j in jobs.values():
            if j.command.startswith(s):
                return j
        return None
    if spec.isdigit():  # a pid: disowned or not, still the shell's child
        return interp.session.jobs.get(int(spec))
    return None


def _jobs(interp) -> dict:
    """The shell's jobs (pid -> Job), the disowned ones left out."""
    jobs = interp.session.jobs
    if any(j.disowned for j in jobs.values()):
        return {pid: j for pid, j in jobs.items() if not j.disowned}
    return jobs


@builtin("wait")
async def b_wait(interp, argv):
    args = list(argv[1:])
    any_mode = False
    pvar = None
    while args and args[0].startswith("-") and args[0] != "-":
        opt = args.pop(0)
        if opt == "--":
            break
        for c in opt[1:]:
            if c == "n":
                any_mode = True
            elif c == "p" and args:
                pvar = args.pop(0)  # the waited job's pid goes there
            elif c != "f":
                await interp.diag(f"wait: -{c}: invalid option")
                await interp.err("wait: usage: wait [-fn] [-p var] [id ...]\n")
                return 2
    jobs = _jobs(interp)
    budget = interp.budget
    if any_mode and args:  # -n ID...: the first of those to end (each a job, or no such job)
        picked = {}
        for spec in args:
            j = _job_by_spec(interp, spec)
            if j is None:
                await interp.diag(f"wait: {spec}: no such job")
            else:
                picked[j.pid] = j
        if not picked:
            return 127
        jobs, args = picked, []
    if not args:
        if any_mode:
            for j in jobs.values():
                if j.done:  # one that ended before the wait (not waited for yet) comes first
                    interp.session.jobs.pop(j.pid, None)
                    if pvar:
                        interp.assign(pvar, str(j.pid))
                    return j.status
            live = [j for j in jobs.values() if not j.done]
            if not live:
                return 127
            import anyio

            await ensure_loop()
            with anyio.move_on_after(budget.remaining() if budget.remaining() is not None else 1e9):
                async with anyio.create_task_group() as tg:
                    done = anyio.Event()

                    async def waiter(j):
                        await j.event.wait()
                        done.set()

                    for j in live:
                        tg.start_soon(waiter, j)
                    await done.wait()
                    tg.cancel_scope.cancel()
            budget.check()
            for j in live:
                if j.done:
                    interp.session.jobs.pop(j.pid, None)
                    if pvar:
                        interp.assign(pvar, str(j.pid))
                    return j.status
            return 127
        for j in list(jobs.values()):
            await _wait_job(interp, j)
            interp.session.jobs.pop(j.pid, None)
        return 0
    status = 0
    for spec in args:
        if not spec.startswith("%") and not spec.isdigit():
            await interp.diag(f"wait: `{spec}': not a pid or valid job spec")
            status = 1
            continue
        j = _job_by_spec(interp, spec)
        if j is None:
            if spec.isdigit():
                await interp.diag(f"wait: pid {spec} is not a child of this shell")
            else:
                await interp.diag(f"wait: {spec}: no such job")
            status = 127
            continue
        if j.disowned:  # (bash does not wait for it)
            status = 0
            continue
        await _wait_job(interp, j)
        status = j.status
        interp.session.jobs.pop(j.pid, None)
        await _report_signal(interp, j)
        if pvar:
            interp.assign(pvar, str(j.pid))
    return status


async def _report_signal(interp, job) -> None:
    """bash's line for a waited job a signal ended (not INT, PIPE or TERM): where, its pid,
    the signal's description, the command."""
    if job.signal and job.signal not in (2, 13, 15):
        import signal

        try:
            desc = signal.strsignal(job.signal) or f"Signal {job.signal}"
        except ValueError:
            desc = f"Signal {job.signal}"
        await interp.diag(f"{job.pid:5d} {desc:<24}{job.command}")


async def _wait_job(interp, job) -> None:
    import anyio

    budget = interp.budget
    if not job.done:
        await ensure_loop()
    while not job.done:
        rem = budget.remaining()
        with anyio.move_on_after(min(rem, 0.5) if rem is not None else 0.5):
            await job.event.wait()
        budget.check()


@builtin("jobs")
async def b_jobs(interp, argv):
    jobs = sorted((j for j in _jobs(interp).values() if j.number), key=lambda j: j.number)
    show_pid = "-l" in argv or "-p" in argv
    for i, j in enumerate(jobs):
        mark = "+" if i == len(jobs) - 1 else ("-" if i == len(jobs) - 2 else " ")
        state = ("Done" if j.status == 0 else f"Exit {j.status}") if j.done else "Running"
        if "-p" in argv:
            await interp.out(f"{j.pid}\n")
            continue
        pid = f"{j.pid} " if show_pid else ""
        amp = "" if j.done else " &"
        await interp.out(f"[{j.number}]{mark}  {pid}{state:<24}{j.command}{amp}\n")
    if interp.subshell_level == 0:  # a finished job is reported once, then forgotten
        for j in jobs:  # (by this shell: `jobs | cat` forgets nothing)
            if j.done:
                interp.session.jobs.pop(j.pid, None)
    return 0


SIGNALS = {"HUP": 1, "INT": 2, "QUIT": 3, "ILL": 4, "TRAP": 5, "ABRT": 6, "BUS": 7, "FPE": 8,
           "KILL": 9, "USR1": 10, "SEGV": 11, "USR2": 12, "PIPE": 13, "ALRM": 14, "TERM": 15,
           "STKFLT": 16, "CHLD": 17, "CONT": 18, "STOP": 19, "TSTP": 20, "TTIN": 21, "TTOU": 22,
           "URG": 23, "XCPU": 24, "XFSZ": 25, "VTALRM": 26, "PROF": 27, "WINCH": 28, "IO": 29,
           "PWR": 30, "SYS": 31, "RTMIN": 34, "RTMAX": 64,
           **{f"RTMIN+{i}": 34 + i for i in range(1, 16)},
           **{f"RTMAX-{i}": 64 - i for i in range(1, 15)}}
SIGNAL_NAMES = {v: k for k, v in SIGNALS.items()}
NSIG = 65


def signal_number(spec: str) -> int | None:
    s = spec.upper()
    if s.isdigit():
        n = int(s)
        return n if n < NSIG else None
    if s.startswith("SIG"):
        s = s[3:]
    return SIGNALS.get(s)


async def _list_signals(interp, words: list[str]) -> int:
    """kill -l [SIG...]: the table, or each number's name and each name's number."""
    if not words:
        # five a line, each but a line's last followed by a tab (also the table's very last)
        names = [f"{n:2d}) SIG{SIGNAL_NAMES[n]}" + ("\n" if i % 5 == 4 else "\t")
                 for i, n in enumerate(sorted(SIGNAL_NAMES))]
        await interp.out("".join(names) + ("" if len(names) % 5 == 0 else "\n"))
        return 0
    status = 0
    for a in words:
        n = _int_arg(a)
        if n is not None:
            n = n - 128 if n > 128 else n  # (an exit status names its signal)
            if not 0 <= n < NSIG:
                await interp.diag(f"kill: {a}: invalid signal specification")
                status = 1
            elif n == 0 or n in SIGNAL_NAMES:
                await interp.out(("EXIT" if n == 0 else SIGNAL_NAMES[n]) + "\n")
            continue
        n = 0 if a.upper() in ("EXIT", "SIGEXIT") else signal_number(a)
        if n is None:
            await interp.diag(f"kill: {a}: invalid signal specification")
            status = 1
        else:
            await interp.out(f"{n}\n")
    return status


@builtin("kill")
async def b_kill(interp, argv):
    args = argv[1:]
    sig: int | None = 15
    spec = ""
    listing = saw_signal = False
    usage = "kill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]\n"
    while args:  # (bash's kill_builtin: only the first -SIG is a signal)
        w = args[0]
        if w in ("-l", "-L"):
            listing = True
        elif w in ("-s", "-n"):
            if len(args) < 2:
                await interp.diag(f"kill: {w}: option requires an argument")
                return 1
            spec = args[1]
            sig, saw_signal = signal_number(spec), True
            args = args[1:]
        elif w[:2] in ("-s", "-n") and len(w) > 2 and (w[2].isalpha() if w[1] == "s" else w[2].isdigit()):
            spec = w[2:]
            sig, saw_signal = signal_number(spec), True
        elif w == "--":
            args = args[1:]
            break
        elif w == "-?":
            await interp.err(usage)
            return 2
        elif w[:1] == "-" and not saw_signal:
            spec = w[1:]
            sig, saw_signal = signal_number(spec), True
        else:
            break
        args = args[1:]
    if listing:
        return await _list_signals(interp, args)
    if sig is None:
        await interp.diag(f"kill: {spec}: invalid signal specification")
        return 1
    if not args:
        await interp.err(usage)
        return 2
    status = 0
    for spec in args:
        if spec in (str(interp.shell_pid), str(interp.pid)):
            await signal_self(interp, sig)
            continue
        other = interp.session.shells.get(int(spec)) if spec.isdigit() else None
        if other is not None:
            # another shell process (the parent of `sh -c "kill -USR1 $$"`): it acts on the
            # signal once it has control again (its trap, or the default action)
            if sig != 0:
                other.pending_signals = [*(other.pending_signals or ()), sig]
            continue
        j = _job_by_spec(interp, spec)
        if j is None:
            if spec.lstrip("-").isdigit():
                await interp.diag(f"kill: ({spec}) - No such process")
            else:
                await interp.diag(f"kill: {spec}: arguments must be process or job IDs")
            status = 1
            continue
        if sig not in _IGNORED_BY_DEFAULT and not j.done and j.cancel_scope is not None:
            j.cancel_scope.cancel()
            j.status = 128 + sig
            j.signal = sig
    return status


_IGNORED_BY_DEFAULT = (0, 17, 18, 23, 28)  # (and 0 only asks): CHLD CONT URG WINCH


async def signal_self(interp, sig: int) -> None:
    name = SIGNAL_NAMES.get(sig, str(sig))
    handler = interp.traps.get(name)
    if handler is not None:
        if handler:
            await interp.run_trap(name, signal=True)
        return
    if sig in _IGNORED_BY_DEFAULT:
        return
    raise ExitShell(128 + sig)


@builtin("disown")
async def b_disown(interp, argv):
    args = argv[1:]
    every = running = keep = False
    while args and args[0].startswith("-") and len(args[0]) > 1:
        if args[0] == "--":
            args = args[1:]
            break
        for c in args[0][1:]:
            if c not in "arh":
                await interp.diag(f"disown: -{c}: invalid option")
                await interp.err("disown: usage: disown [-h] [-ar] [jobspec ... | pid ...]\n")
                return 2
            every, running, keep = every or c == "a", running or c == "r", keep or c == "h"
        args = args[1:]
    status = 0
    if args:
        targets = []
        for spec in args:
            j = _job_by_spec(interp, spec)
            if j is None:
                await interp.diag(f"disown: {spec}: no such job")
                status = 1
            else:
                targets.append(j)
    elif every or running:
        targets = [j for j in _jobs(interp).values() if not (running and j.done)]
    else:
        j = _job_by_spec(interp, "%+")
        if j is None:
            await interp.diag("disown: current: no such job")
            return 1
        targets = [j]
    if not keep:  # (-h: kept as a job, only SIGHUP would spare it)
        for j in targets:
            j.disowned = True
    return status


@builtin("fg", "bg")
async def b_fg(interp, argv):
    """Without set -m: no job control. With it, fg waits for the job (its command shown)
    and gives its status; bg finds every job already in the background (none stops)."""
    name = argv[0]
    if "monitor" not in interp.opts:
        await interp.diag(f"{name}: no job control")
        return 1
    specs = [a for a in argv[1:] if a != "--"] or ["%+"]
    if name == "fg":
        specs = specs[:1]
    status = 0
    for spec in specs:
        j = _job_by_spec(interp, spec if spec.startswith("%") or spec.isdigit() else "%" + spec)
        if j is None or j.disowned or (j.done and j.notified):
            shown = "current" if spec == "%+" and len(argv) == 1 else spec
            await interp.diag(f"{name}: {shown}: no such job")
            status = 1
            continue
        if name == "bg":
            await interp.diag(f"bg: job {j.number} already in background")
            continue
        if j.done:
            await interp.diag("fg: job has terminated")
            return 1
        await interp.out(j.command + "\n")
        await _wait_job(interp, j)
        interp.session.jobs.pop(j.pid, None)
        return j.status
    return status


@builtin("suspend")
async def b_suspend(interp, argv):
    await interp.diag("suspend: cannot suspend: no job control")
    return 1


# ulimit: an emulated table (nothing real to limit in-process, except open files,
# which redirections honour). letter: (description, unit text, multiplier, soft, hard)
_UNLIMITED = None
ULIMITS = {
    "R": ("real-time non-blocking time", "microseconds", 1, None, None),
    "c": ("core file size", "blocks", 1024, 0, None),
    "d": ("data seg size", "kbytes", 1024, None, None),
    "e": ("scheduling priority", "", 1, 0, 0),
    "f": ("file size", "blocks", 1024, None, None),
    "i": ("pending signals", "", 1, 15243, 15243),
    "l": ("max locked memory", "kbytes", 1024, 8192 * 1024, 8192 * 1024),
    "m": ("max memory size", "kbytes", 1024, None, None),
    "n": ("open files", "", 1, 1024, 1048576),
    "p": ("pipe size", "512 bytes", 512, 8 * 512, 8 * 512),
    "q": ("POSIX message queues", "bytes", 1, 819200, 819200),
    "r": ("real-time priority", "", 1, 0, 0),
    "s": ("stack size", "kbytes", 1024, 8192 * 1024, None),
    "t": ("cpu time", "seconds", 1, None, None),
    "u": ("max user processes", "", 1, 15243, 15243),
    "v": ("virtual memory", "kbytes", 1024, None, None),
    "x": ("file locks", "", 1, None, None),
}
_RLIM_MAX = (1 << 64) - 1


def ulimit_table(interp) -> dict:
    t = getattr(interp, "ulimits", None)
    if t is None:
        t = interp.ulimits = {k: [v[3], v[4]] for k, v in ULIMITS.items()}
    return t


@builtin("ulimit")
async def b_ulimit(interp, argv):
    args = argv[1:]
    soft = hard = False
    show_all = False
    res = []
    value = None
    i = 0
    while i < len(args):
        a = args[i]
        if a.startswith("-") and len(a) > 1 and not a[1:].isdigit():
            for c in a[1:]:
                if c == "S":
                    soft = True
                elif c == "H":
                    hard = True
                elif c == "a":
                    show_all = True
                elif c in ULIMITS:
                    res.append(c)
                else:
                    await interp.diag(f"ulimit: -{c}: invalid option")
                    await interp.err("ulimit: usage: ulimit [-SHabcdefiklmnpqrstuvxPRT] [limit]\n")
                    return 2
            i += 1
            continue
        value = a
        i += 1
    table = ulimit_table(interp)
    if show_all:
        lines = []
        for c, (desc, unit, mult, _, _) in ULIMITS.items():
            cur = table[c][1 if hard and not soft else 0]
            units = f"({unit}, -{c}) " if unit else f"(-{c}) "
            shown = "unlimited" if cur is None else str(cur // mult)
            lines.append(f"{desc:<20} {units:>20}{shown}\n")  # bash's "%-20s %20s"
        await interp.out("".join(lines))
        return 0
    if not res:
        res = ["f"]
    if value is None:
        for c in res:
            cur = table[c][1 if hard and not soft else 0]
            mult = ULIMITS[c][2]
            await interp.out(("unlimited" if cur is None else str(cur // mult)) + "\n")
        return 0
    c = res[-1]
    mult = ULIMITS[c][2]
    if value == "unlimited":
        new = None
    elif value in ("hard", "soft"):
        new = table[c][1 if value == "hard" else 0]
    else:
        if not value.isdigit():
            await interp.diag(f"ulimit: {value}: invalid number")
            return 1
        new = int(value) * mult
        if new > _RLIM_MAX - 1:
            await interp.diag(f"ulimit: {value}: limit out of range")
            return 1
    if not soft and not hard:
        soft = hard = True
    cur_soft, cur_hard = table[c]

    def gt(a, b):  # None is unlimited
        if a is None:
            return b is not None
        return b is not None and a > b

    if hard:
        if gt(new, cur_hard):  # only root may raise a hard limit
            await interp.diag(f"ulimit: {ULIMITS[c][0]}: cannot modify limit: Operation not permitted")
            return 1
    if soft and gt(new, cur_hard if not hard else new):
        await interp.diag(f"ulimit: {ULIMITS[c][0]}: cannot modify limit: Invalid argument")
        return 1
    if hard:
        table[c][1] = new
    if soft:
        table[c][0] = new
    return 0


@builtin("trap")
async def b_trap(interp, argv):
    args = argv[1:]
    if args and args[0] == "--":
        args = args[1:]
    elif args and args[0][:1] == "-" and len(args[0]) > 1 and args[0] not in ("-p", "-l"):
        bad = next((c for c in args[0][1:] if c not in "lp"), None)
        if bad is not None:  # (trap -1 EXIT: no handler, an option bash refuses)
            await interp.diag(f"trap: -{bad}: invalid option")
            await interp.err("trap: usage: trap [-lp] [[arg] signal_spec ...]\n")
            return 2
        args = ["-l" if "l" in args[0] else "-p", *args[1:]]
    if not args or args[0] == "-p":
        names = args[1:] if args else []
        items = interp.traps.items() if not names else [
            (_trap_name(n), interp.traps.get(_trap_name(n))) for n in names]
        if not args and not interp.traps and hasattr(interp, "parent_traps"):
            items = interp.parent_traps.items()
        for name, cmd in sorted(items, key=lambda kv: _trap_order(kv[0])):
            if cmd is None:
                continue
            q = "'" + cmd.replace("'", "'\\''") + "'"
            await interp.out(f"trap -- {q} {_trap_display(name)}\n")
        return 0
    if args[0] == "-l":
        return await _list_signals(interp, [])
    if len(args) == 1 or (_int_arg(args[0]) is not None and _trap_name(args[0]) is not None
                          and len(args) >= 1 and args[0].isdigit()):
        # `trap SIG` (or numbers only): reset
        for n in args:
            name = _trap_name(n)
            if name is None:
                await interp.diag(f"trap: {n}: invalid signal specification")
                return 1
            interp.traps.pop(name, None)
        return 0
    action, sigs = args[0], args[1:]
    status = 0
    for s in sigs:
        name = _trap_name(s)
        if name is None:
            await interp.diag(f"trap: {s}: invalid signal specification")
            status = 1
            continue
        if action == "-":
            interp.traps.pop(name, None)
        else:
            interp.traps[name] = action
    return status


_PSEUDO = {"EXIT": 0, "DEBUG": -1, "ERR": -2, "RETURN": -3}


def _trap_name(spec: str) -> str | None:
    s = spec.upper()
    if s.startswith("SIG"):
        s = s[3:]
    if s in _PSEUDO:
        return s
    if s.isdigit():
        n = int(s)
        if n == 0:
            return "EXIT"
        return SIGNAL_NAMES.get(n)
    return s if s in SIGNALS else None


def _trap_display(name: str) -> str:
    return name if name in _PSEUDO else "SIG" + name


def _trap_order(name: str) -> int:
    if name == "EXIT":
        return 0
    if name in SIGNALS:
        return SIGNALS[name]
    return 100 + -_PSEUDO.get(name, 0)


# -- test / [ ------------------------------------------------------------------------------------
@builtin("test", "[")
async def b_test(interp, argv):
    from pysh.interpreter.testcmd import run_test

    return await run_test(interp, argv)


# -- shells -----------------------------------------------------------------------------------------
@builtin("bash", "sh")
async def b_bash(interp, argv):
    from pysh.interpreter.shellcmd import run_child_shell

    status = await run_child_shell(interp, argv)
    if interp.pending_signals:  # (what the child sent this shell, once it is done)
        await interp.take_signals()
    return status

