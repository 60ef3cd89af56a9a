"""The `pysh` command line: batch mode (-c, FILE, stdin); the REPL and MCP faces hang off it."""

from __future__ import annotations

import gc
import os
import sys

from pysh import __version__

USAGE = """\
usage: pysh [options] [-c SCRIPT [NAME [ARGS...]] | FILE [ARGS...]]
       pysh -n [FILE | -c SCRIPT]
       pysh mcp [sandbox options] [--http [HOST:]PORT]

A bash interpreter that runs every command in-process, inside a sandbox.

sandbox options:
  --sandbox DIR            host directory of the workspace (default: a fresh
                           empty directory, removed at exit)
  --workspace PATH         where the workspace is mounted (default /batch)
  --home DIR               host directory of the sandbox's home, /home/user ($HOME),
                           kept between runs (default: a fresh one, removed at exit)
  --mount HOST[:VIRTUAL][:ro|:overlay]
                           mount another host directory (repeatable); :overlay keeps
                           the host directory unchanged (writes go to a private layer)
  --read-only              mount the workspace read-only
  --overlay                mount the workspace as an overlay: the script sees and
                           changes it, the host directory stays as it was
  --changes stat|diff|json print what the script changed in the overlay mounts at
                           exit (to stderr, or to FILE with --changes-to FILE)
  --apply                  write the overlay's changes to the host directories at exit
                           (a file changed on the host meanwhile is refused: exit 1)
  --allow-home             allow your home directory (or an ancestor of it) as
                           the workspace or a mount (refused by default)
  --env NAME[=VALUE]       pass a host variable, or set one (repeatable)
  --timeout SECONDS        wall-clock limit for the run (exit 124)
  --strict                 the tight limits of Limits.strict() (30 s, 1 MiB of output
                           per stream, 64 MiB per file, 256 MiB written...)
  --limit NAME=VALUE       set one limit (repeatable): a field of pysh.Limits, e.g.
                           max_file_size=16M, max_commands=100000, timeout=5;
                           sizes take K/M/G (binary); `none` lifts it. Past
                           max_output_bytes (default 64M per stream) the run's
                           stdout/stderr stop as on a closed pipe
  --commands MODULE        load extra in-process commands from a Python module
  --allow-url PREFIX       let curl/wget reach URLs under PREFIX (scheme://host[:port]/path;
                           repeatable); the network is off without one
  --allow-host HOST        let curl/wget reach any path on HOST[:PORT] over https
                           (http://HOST for plain http too; repeatable)
  --net-methods M,M...     the HTTP methods allowed (default: any)
  --net-max-bytes N        cap one response body at N bytes
  --net-timeout SECONDS    cap one transfer's time
  --net-header 'PREFIX NAME: VALUE'
                           add a header to requests under PREFIX, unseen by the script;
                           $VAR in VALUE is taken from pysh's own environment
  --json                   print one JSON object with stdout, stderr, status
  --name NAME              the shell's own name: $0 for -c and stdin scripts, and
                           the prefix of its diagnostics (default pysh)
shell options:
  -c SCRIPT                run SCRIPT ($0 = NAME, then ARGS)
  -e -u -x -v -f -C, -o OPTION, +o OPTION   as in bash
  -n                       parse only, report syntax errors
  -i                       interactive (the REPL)
  --version, --help
"""


class UsageError(Exception):
    pass


class Options:
    def __init__(self) -> None:
        self.sandbox: str | None = None
        self.workspace = "/batch"
        self.home: str | None = None
        self.mounts: list[tuple[str, str, str]] = []  # (host, virtual, "" | "ro" | "overlay")
        self.read_only = False
        self.overlay = False
        self.changes: str | None = None  # stat, diff or json
        self.changes_to: str | None = None
        self.apply = False
        self.allow_home = False
        self.env: dict[str, str] = {}
        self.timeout: float | None = None
        self.strict: bool | None = None  # None: the face's default
        self.limits: dict[str, float | int | None] = {}  # --limit NAME=VALUE
        self.commands: list[str] = []
        self.json = False
        self.set_on: set[str] = set()
        self.set_off: set[str] = set()
        self.command: str | None = None
        self.file: str | None = None
        self.args: list[str] = []
        self.noexec = False
        self.interactive = False
        self.name = "pysh"
        self.allow: list[str] = []
        self.net_methods: list[str] | None = None
        self.net_max_bytes: int | None = None
        self.net_timeout: float | None = None
        self.net_headers: dict[str, dict[str, str]] = {}


def parse_cli(argv: list[str], host_env=None) -> Options:
    from pysh.interpreter.state import SET_OPTIONS, SHORT_TO_LONG

    host_env = os.environ if host_env is None else host_env
    o = Options()
    i = 0
    want_c = False

    def value(flag: str) -> str:
        nonlocal i
        if "=" in argv[i] and argv[i].startswith("--"):
            return argv[i].split("=", 1)[1]
        i += 1
        if i >= len(argv):
            raise UsageError(f"{flag}: option requires an argument")
        return argv[i]

    while i < len(argv):
        a = argv[i]
        name = a.split("=", 1)[0]
        if a == "--":
            i += 1
            break
        if name == "--sandbox":
            o.sandbox = value(name)
        elif name == "--workspace":
            o.workspace = value(name)
        elif name == "--home":
            o.home = value(name)
        elif name == "--mount":
            spec = value(name)
            parts = spec.split(":")
            kind = ""
            if len(parts) > 1 and parts[-1] in ("ro", "rw", "overlay"):
                kind = "" if parts[-1] == "rw" else parts[-1]
                parts = parts[:-1]
            host = parts[0]
            virtual = parts[1] if len(parts) > 1 else os.path.abspath(host)
            if not host or len(parts) > 2:
                raise UsageError(f"--mount: bad value: {spec}")
            o.mounts.append((host, virtual, kind))
        elif name == "--read-only":
            o.read_only = True
        elif a == "--overlay":
            o.overlay = True
        elif name == "--changes":
            o.changes = value(name)
            if o.changes not in ("stat", "diff", "json"):
                raise UsageError(f"--changes: stat, diff or json: {o.changes}")
        elif name == "--changes-to":
            o.changes_to = value(name)
        elif a == "--apply":
            o.apply = True
        elif a == "--allow-home":
            o.allow_home = True
        elif name == "--env":
            spec = value(name)
            k, eq, v = spec.partition("=")
            if not k or not k.replace("_", "a").isalnum() or k[0].isdigit():
                raise UsageError(f"--env: not a valid variable name: {k}")
            if eq:
                o.env[k] = v
            elif k in host_env:
                o.env[k] = host_env[k]
        elif name == "--timeout":
            v = value(name)
            try:
                o.timeout = float(v)
            except ValueError:
                raise UsageError(f"--timeout: invalid number: {v}") from None
            if o.timeout <= 0:
                raise UsageError("--timeout: must be positive")
        elif a == "--strict" or a == "--no-strict":
            o.strict = a == "--strict"
        elif name == "--limit":
            from pysh.shellkit.limits import Limits

            try:
                k, v = Limits.parse_setting(value(name))
            except ValueError as e:
                raise UsageError(f"--limit: {e}") from None
            o.limits[k] = v
        elif name == "--commands":
            o.commands.append(value(name))
        elif name in ("--allow-url", "--allow-host", "--net-methods", "--net-max-bytes",
                      "--net-timeout", "--net-header"):
            _network_option(o, name, value(name), host_env)
        elif name == "--name":
            o.name = value(name)
        elif a == "--json":
            o.json = True
        elif a in ("--norc", "--noprofile", "--posix", "--login"):
            pass
        elif a.startswith("--"):
            raise UsageError(f"{a}: invalid option")
        elif a[0] in "-+" and len(a) > 1:
            enable = a[0] == "-"
            for c in a[1:]:
                if c == "c" and enable:
                    want_c = True
                elif c == "n":
                    o.noexec = True
                elif c == "i":
                    o.interactive = True
                elif c == "s" or c == "l":
                    pass
                elif c == "o":
                    opt = value("-o")
                    if opt not in SET_OPTIONS:
                        raise UsageError(f"{opt}: invalid option name")
                    (o.set_on if enable else o.set_off).add(opt)
                elif c in SHORT_TO_LONG:
                    (o.set_on if enable else o.set_off).add(SHORT_TO_LONG[c])
                else:
                    raise UsageError(f"-{c}: invalid option")
        else:
            break
        i += 1
    rest = argv[i:]
    if want_c:
        if not rest:
            raise UsageError("-c: option requires an argument")
        o.command, o.args = rest[0], rest[1:]
    elif rest:
        o.file, o.args = rest[0], rest[1:]
    ws = o.workspace
    if not ws.startswith("/") or ws == "/" or os.path.normpath(ws) != ws:
        raise UsageError(f"--workspace: must be an absolute, normalised path other than /: {ws}")
    if o.overlay and o.read_only:
        raise UsageError("--overlay and --read-only exclude each other")
    if (o.changes or o.apply) and not (o.overlay or any(k == "overlay" for *_, k in o.mounts)):
        raise UsageError(f"{'--apply' if o.apply else '--changes'}: there is no overlay mount")
    if o.changes_to is not None and o.changes is None:
        o.changes = "stat"
    if o.sandbox is not None and not os.path.isdir(o.sandbox):
        raise UsageError(f"--sandbox: not a directory: {o.sandbox}")
    if o.home is not None and os.path.exists(o.home) and not os.path.isdir(o.home):
        raise UsageError(f"--home: not a directory: {o.home}")
    return o


def _network_option(o: Options, name: str, v: str, host_env) -> None:
    import re

    from pysh.shellkit.network import parse_rule

    if name == "--allow-url":
        if "://" not in v:
            raise UsageError(f"--allow-url: a prefix starts with http:// or https://: {v}")
        entries = [v]
    elif name == "--allow-host":
        if v.startswith("http://"):  # plain http too, and https
            host = v[len("http://"):].rstrip("/")
            entries = [f"http://{host}/", f"https://{host}/"]
        else:
            entries = [v[len("https://"):].rstrip("/") if v.startswith("https://") else v]
    elif name == "--net-methods":
        o.net_methods = [m.strip().upper() for m in v.split(",") if m.strip()]
        return
    elif name == "--net-max-bytes":
        if not v.isdigit():
            raise UsageError(f"--net-max-bytes: not a number of bytes: {v}")
        o.net_max_bytes = int(v)
        return
    elif name == "--net-timeout":
        try:
            o.net_timeout = float(v)
        except ValueError:
            raise UsageError(f"--net-timeout: invalid number: {v}") from None
        if o.net_timeout <= 0:
            raise UsageError("--net-timeout: must be positive")
        return
    else:  # --net-header 'PREFIX NAME: VALUE'
        prefix, _, header = v.strip().partition(" ")
        hname, colon, hvalue = header.partition(":")
        if not prefix or not colon or not hname.strip():
            raise UsageError(f"--net-header: expected 'PREFIX NAME: VALUE': {v}")

        def env(m: re.Match) -> str:
            var = m.group(1) or m.group(2)
            if var not in host_env:
                raise UsageError(f"--net-header: {var} is not set")
            return host_env[var]

        value = re.sub(r"\$\{(\w+)\}|\$(\w+)", env, hvalue.strip())
        try:
            parse_rule(prefix)
        except ValueError as e:
            raise UsageError(f"--net-header: {e}") from None
        o.net_headers.setdefault(prefix, {})[hname.strip()] = value
        return
    for e in entries:
        try:
            parse_rule(e)
        except ValueError as err:
            raise UsageError(f"{name}: {err}") from None
    o.allow.extend(entries)


def network_of(o: Options):
    """The Network policy the options ask for (None: no network)."""
    if not o.allow:
        if o.net_headers:
            raise UsageError("--net-header: no --allow-url or --allow-host to apply it to")
        return None
    from pysh.shellkit.network import Network

    try:
        return Network(o.allow, methods=o.net_methods, max_bytes=o.net_max_bytes,
                       timeout=o.net_timeout, headers=o.net_headers)
    except ValueError as e:
        raise UsageError(str(e)) from None


def build_instance(o: Options):
    """The ExecCommand for these options (not yet opened)."""
    from pysh.commands import default_registry
    from pysh.interpreter import ExecCommand
    from pysh.shellkit import Mount, MountError

    registry = default_registry()
    registry.load_entry_points(lazy=True)
    for module in o.commands:
        load_command_module(registry, module)
    try:
        mounts = [Mount(v, h, kind == "ro", kind == "overlay") for h, v, kind in o.mounts]
    except MountError as e:
        raise UsageError(str(e)) from None
    return ExecCommand(o.sandbox, o.workspace, mounts, read_only=o.read_only, env=o.env,
                       limits=limits_of(o), registry=registry, home_dir=o.home,
                       allow_home=o.allow_home, network=network_of(o), overlay=o.overlay)


def limits_of(o: Options):
    """The Limits these options ask for: --strict (or the defaults), then each --limit, then
    --timeout."""
    from pysh.shellkit import Limits

    limits = (Limits.strict() if o.strict else Limits()).with_(**o.limits)
    if o.timeout is not None:
        limits = limits.with_(timeout=o.timeout)
    return limits


def load_command_module(registry, module: str) -> None:
    """``--commands MODULE``: a module with COMMANDS = {name: async func or 'mod:func'}, or
    a ``register(registry)`` function."""
    import importlib

    try:
        mod = importlib.import_module(module)
    except ImportError:
        raise UsageError(f"--commands: cannot import {module}") from None
    if hasattr(mod, "register"):
        mod.register(registry)
    elif hasattr(mod, "COMMANDS"):
        registry.register_many(mod.COMMANDS)
    else:
        raise UsageError(f"--commands: {module} has neither COMMANDS nor register()")


def main(argv: list[str] | None = None) -> int:
    # Start-up makes some 100,000 long-lived objects (modules, classes, functions) and no
    # garbage cycles worth finding: the collector scanning them again and again would cost
    # a tenth of `pysh -c true`. It runs again once the script starts (_script_starts).
    gc.disable()
    try:
        return _main(argv)
    finally:
        gc.enable()


def _main(argv: list[str] | None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] in ("--version", "-V"):
        from pysh.shellkit import landlock

        print(f"pysh {__version__}\n{landlock.describe()}")
        return 0
    if args and args[0] in ("-h", "--help"):
        sys.stdout.write(USAGE)
        return 0
    if args and args[0] == "mcp":
        from pysh.mcp import main as mcp_main

        gc.enable()
        return mcp_main(args[1:])
    try:
        o = parse_cli(args)
    except UsageError as e:
        sys.stderr.write(f"pysh: {e}\n{USAGE}")
        return 2
    if o.noexec:
        from pysh.interpreter.syntax.check import main_n

        return main_n(["-c", o.command] if o.command is not None else ([o.file] if o.file else []))
    if (o.interactive and o.command is None and o.file is None) or (
            o.command is None and o.file is None and sys.stdin.isatty()):
        import signal

        from pysh.repl import run_repl
        from pysh.shellkit.tempdirs import install_signal_cleanup

        install_signal_cleanup((signal.SIGTERM, signal.SIGHUP))  # ^C is the REPL's own
        gc.enable()
        return run_repl(o)
    try:
        ex = build_instance(o)
    except UsageError as e:
        sys.stderr.write(f"pysh: {e}\n")
        return 2
    from pysh.shellkit.tempdirs import install_signal_cleanup

    install_signal_cleanup()  # the instance's directories go on SIGTERM, SIGHUP, SIGINT
    if o.json:
        return _run_json(o, ex)
    return _run_batch(o, ex)


def _script_starts() -> None:
    """The collector runs again (main() held it off); what start-up made stays for good, so
    later collections (the script's, the exit's) need not scan it."""
    gc.freeze()
    gc.enable()


def _read_script_file(path: str) -> str | None:
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        sys.stderr.write(f"pysh: {path}: {os.strerror(e.errno or 2)}\n")
        return None
    return data.decode("utf-8", "surrogateescape")


def _script_name(path: str, ex) -> str:
    """$0 and BASH_SOURCE of a script file read from the host: as typed when it names no
    directory, else its virtual path when it lies under a mount, else its file name (the
    host's layout never shows inside the sandbox)."""
    if "/" not in path:
        return path
    try:
        return ex.shell.to_virtual(os.path.realpath(path))
    except ValueError:
        return os.path.basename(path)


def _run_batch(o: Options, ex) -> int:
    from pysh.interpreter.toplevel import make_interp, make_session, run_main
    from pysh.shellkit import FdInput, FdOutput, MountError

    source = None
    if o.file is not None:
        source = _read_script_file(o.file)
        if source is None:
            return 127
    try:
        ex.open()
    except MountError as e:
        sys.stderr.write(f"pysh: {e}\n")
        return 2
    try:
        session = make_session(ex)
        stdin = FdInput(0)
        cap = ex.limits.max_output_bytes
        out, err = FdOutput(1, limit=cap), FdOutput(2, limit=cap)
        fds = {0: stdin, 1: out, 2: err}
        argv0 = _script_name(o.file, ex) if o.file is not None else (
            o.args[0] if o.command is not None and o.args else o.name)
        args = o.args[1:] if o.command is not None else o.args
        interp = make_interp(session, fds=fds, argv0=argv0, args=args)
        interp.opts |= o.set_on
        interp.opts -= o.set_off
        if o.interactive:
            interp.become_interactive()

        async def body(it):
            from pysh.interpreter.syntax import CommandReader

            if o.command is not None:
                it.invocation = "c"
                it.assign("BASH_EXECUTION_STRING", o.command)
                return await _run_text(it, o.command, lambda n: f"{argv0}: -c: line {n}")
            if source is not None:
                it.script_path = argv0
                return await _run_text(it, source, lambda n: f"{argv0}: line {n}")
            it.invocation = "stdin"
            reader = CommandReader(lambda: stdin.readline_blocking().decode("utf-8", "surrogateescape"),
                                   aliases=it.alias_table,
                                   name=argv0, extglob=it.extglob_on)
            return await it.run_reader(reader, error_prefix=lambda n: argv0)

        _script_starts()
        try:
            # the script runs on the instance's worker thread (restricted by the kernel floor
            # where Linux has Landlock); this thread waits, takes the signals, cleans up
            status = ex.call(run_main, interp, body, interrupt=interp.budget.interrupt)
        except KeyboardInterrupt:
            return 130
        finally:
            for name, s in (("stdout", out), ("stderr", err)):
                if s.truncated:  # said past the cap: the run must not end silently short
                    _say(f"{o.name}: {name}: limit exceeded ({cap} bytes): the rest was not "
                         "written\n")
        if at_exit(o, ex):  # conflicts
            status = status or 1
        return status
    finally:
        ex.close()


def _say(text: str) -> None:
    try:
        os.write(2, text.encode("utf-8", "surrogateescape"))
    except OSError:
        pass


def at_exit(o: Options, ex, into: dict | None = None) -> list | None:
    """``--changes`` and ``--apply`` once the script is done: the change set goes to
    ``--changes-to``, else into ``into["changes"]`` (``--json``), else to stderr; the
    apply's conflicts are reported on stderr and returned (None: neither was asked for)."""
    if not o.changes and not o.apply:
        return None
    from pysh import changeset

    if o.changes:
        text = changeset.render(ex, o.changes, o.workspace)
        if o.changes_to is not None:
            try:
                with open(o.changes_to, "w", encoding="utf-8", errors="surrogateescape") as f:
                    f.write(text)
            except OSError as e:
                sys.stderr.write(f"pysh: --changes-to: {o.changes_to}: "
                                 f"{os.strerror(e.errno or 5)}\n")
        elif into is not None:
            into["changes"] = text
        else:
            sys.stderr.write(text)
    conflicts = []
    if o.apply:
        conflicts = ex.apply_changes().conflicts
        for path, why in conflicts:
            sys.stderr.write(f"pysh: --apply: {path}: conflict: {why}\n")
        if conflicts:
            sys.stderr.write("pysh: --apply: nothing applied\n")
        if into is not None:
            into["conflicts"] = [{"path": p, "reason": why} for p, why in conflicts]
    return conflicts


async def _run_text(interp, text: str, error_prefix) -> int:
    from pysh.interpreter.syntax import CommandReader

    reader = CommandReader(text, name=interp.argv0, extglob=interp.extglob_on,
                           aliases=interp.alias_table)
    return await interp.run_reader(reader, error_prefix=error_prefix)


def _run_json(o: Options, ex) -> int:
    import json

    from pysh.api import Sandbox
    from pysh.shellkit import MountError

    source = o.command
    if source is None and o.file is not None:
        source = _read_script_file(o.file)
        if source is None:
            return 127
    if source is None:
        source = sys.stdin.buffer.read().decode("utf-8", "surrogateescape")
    if o.command is not None:
        argv0 = o.args[0] if o.args else "pysh"
        args = o.args[1:]
    else:
        argv0 = "pysh"
        args = o.args
    try:
        sb = Sandbox._from_instance(ex, argv0=argv0, set_on=o.set_on, set_off=o.set_off)
    except MountError as e:
        sys.stderr.write(f"pysh: {e}\n")
        return 2
    if o.command is None and o.file is not None:  # named as the sandbox sees it
        sb._interp.argv0 = sb._interp.script_path = _script_name(o.file, ex)
    with sb:
        _script_starts()
        r = sb.run(source, args=args)
        out = r.to_dict()
        at_exit(o, ex, out)
    sys.stdout.write(json.dumps(out) + "\n")
    return 0
