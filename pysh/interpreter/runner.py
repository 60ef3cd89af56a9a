"""The runner: executes the AST in-process on anyio.

One :class:`Session` per sandbox instance (registry, budget, virtual process
ids, jobs, the task group background work runs in); one :class:`Interp` per
shell or subshell (variables, functions, options, traps, cwd, fd table).
A subshell is a copy of its parent's Interp, so it cannot change the parent.
"""

from __future__ import annotations

import errno
import os
import time
import weakref
from collections.abc import Callable

from pysh.interpreter import glob as globmod
from pysh.interpreter import pattern as pat
from pysh.interpreter.arith_eval import ArithEvaluator, ArithRuntimeError
from pysh.interpreter.errors import (
    AbortLine,
    CircularNameref,
    ElementRefError,
    ExitShell,
    ExpansionError,
    LoopControl,
    ReadonlyError,
    ReturnFromFunction,
    ShellError,
)
from pysh.interpreter.expand import Expander, case_attr_map
from pysh.interpreter.state import (
    ARRAY,
    ASSOC,
    CASE_ATTRS,
    DEFAULT_SET,
    DEFAULT_SHOPT,
    EXPORT,
    INTEGER,
    LOCALIZED,
    NAMEREF,
    PROPAGATE,
    READONLY,
    SET_OPTIONS,
    SHOPT_OPTIONS,
    TEMPVAR,
    Frame,
    Var,
    Variables,
    sorted_items,
    valid_ref_name,
)
from pysh.interpreter.syntax import ast as A
from pysh.interpreter.syntax.errors import ArithError, ParseError
from pysh.shellkit import (
    WRITE_ERROR,
    BrokenPipe,
    Budget,
    CaptureOutput,
    FileSystemError,
    InputStream,
    Interrupted,
    LimitExceeded,
    NullInput,
    OutputStream,
    Pipe,
    ProcessInfo,
    Shell,
    WriteError,
    decode,
    encode,
)
from pysh.shellkit.commands import CommandLoadError
from pysh.shellkit.confine import COMMAND_DIRS
from pysh.shellkit.hints import hint_for
from pysh.shellkit.mounts import is_normal_abspath
from pysh.shellkit.worker import ensure_loop

NAMEREF_MAX = 8  # links a nameref chain may have (bash's)
TRAP_DEPTH_MAX = 100  # trap handlers running inside one another (bash: until it crashes)
_now = time.monotonic  # the fairness check at every command and loop round (Budget.pause)

BASH_VERSION = "5.2.15(1)-release"
BASH_VERSINFO = ["5", "2", "15", "1", "release", "x86_64-pc-linux-gnu"]
SHELL_PID = 4242  # the virtual pid of the top-level shell
STATUS_SIGPIPE = 141


class Job:
    __slots__ = ("pid", "number", "command", "status", "done", "event", "cancel_scope", "started",
                 "notified", "disowned", "signal")

    def __init__(self, pid: int, number: int, command: str):
        self.pid = pid
        self.number = number
        self.command = command
        import anyio  # a job runs on the event loop (the runner awaited ensure_loop)

        self.status = 0
        self.done = False
        self.event = anyio.Event()
        self.cancel_scope = None  # its anyio.CancelScope while it runs
        self.started = time.time()
        self.notified = False
        self.disowned = False  # (disown: no longer a job of the shell's, still a process)
        self.signal = 0  # the signal that ended it (kill), for wait's report


class Session:
    """Everything one sandbox instance shares between its shells and subshells."""

    def __init__(self, root: Shell, *, user: str = "user", home: str = "/"):
        self.root = root
        self.registry = root.registry
        self.budget: Budget = root.budget
        self.user = user
        self.home = home
        self.next_pid = SHELL_PID + 1
        self.jobs: dict[int, Job] = {}  # pid -> job
        self.task_group = None  # set for the duration of a run
        self.running: dict[int, ProcessInfo] = {}
        self.start_time = time.monotonic()
        self._random = None
        self.builtins: dict[str, Callable] = {}
        self.shell_stdin = None  # the top-level shell's own stdin stream (set by its creator)
        # pid -> the shell process (the top shell, each `bash -c`/`sh script`) that `kill`
        # may signal from another one (`sh -c "kill -USR1 $$"`)
        self.shells: weakref.WeakValueDictionary = weakref.WeakValueDictionary()

    @property
    def random(self):
        """$RANDOM's generator, made on first use (importing random costs start-up time)."""
        if self._random is None:
            import random

            self._random = random.Random()
        return self._random

    def new_pid(self) -> int:
        pid = self.next_pid
        self.next_pid += 1
        return pid


class _Redirected:
    """The fd table of one command with redirections applied (closing what it opened)."""

    __slots__ = ("fds", "owned")

    def __init__(self, fds: dict, owned: list):
        self.fds = fds
        self.owned = owned

    def close(self) -> None:
        for s in self.owned:
            try:
                s.close()
            except Exception:  # noqa: BLE001 - closing must never mask the real outcome
                pass


class Interp(Expander):
    """One shell (or subshell)."""

    debug_done = False  # the DEBUG trap of this subshell's first simple command already ran
    shell_pid = SHELL_PID  # $$: this shell process's pid (a subshell keeps its parent's)
    pending_signals: list | None = None  # signals another shell sent this one, not yet taken
    stage_cmd = None  # a pipeline element's command, in the subshell running it
    command_number = 1  # bash's current_command_number: top-level commands read, plus one
    in_prompt = False  # expanding a prompt string (a broken $(...) there is only empty)

    def __init__(self, session: Session, *, fds: dict | None = None, argv0: str = "pysh",
                 args: list[str] | None = None, cwd: str | None = None,
                 env: dict[str, str] | None = None, interactive: bool = False):
        self.session = session
        self.budget = session.budget
        self.vars = Variables()
        self.funcs: dict[str, A.FunctionDef] = {}
        self.func_attrs: dict[str, str] = {}  # function name -> "r", "x", "rx"
        self.lost_specials: set[str] = set()  # RANDOM & co. once unset: plain variables
        self.disabled_builtins: set[str] = set()  # enable -n
        self.history: list[str] = []  # history -s / -r, and what set -o history records
        self.current_command = None  # the simple command running ($BASH_COMMAND)
        self.opts: set[str] = set(DEFAULT_SET)
        self.shopts: set[str] = set(DEFAULT_SHOPT)
        self.traps: dict[str, str] = {}
        self.aliases: dict[str, str] = {}
        self.deferred_diags: list[str] = []  # messages from code that cannot await
        self.cwd = cwd or session.root.cwd
        self.dirstack: list[str] = []
        self.argv_base: list[str] | None = None  # BASH_ARGV's bottom, once extdebug is on
        self.fds: dict[int, InputStream | OutputStream] = fds if fds is not None else {}
        self.argv0 = argv0
        self.argv: list[str] = list(args or [])
        self.status = 0
        self.last_bg = None
        self.lineno = 0
        self.pid = SHELL_PID
        if SHELL_PID not in session.shells:
            session.shells[SHELL_PID] = self  # (the top shell; new_shell names its children)
        self.subshell_level = 0
        self.errexit_suppressed = 0
        self.interactive = False
        self.pipestatus: list[int] = []  # bash makes PIPESTATUS at the first command
        self.cmdsub_status: int | None = None
        self.call_depth = 0
        self.trap_depth = 0  # trap handlers running inside one another
        self.source_depth = 0
        # functions and sourced files being run, outermost first: (name, file, call line,
        # is a function); FUNCNAME, BASH_SOURCE, BASH_LINENO and caller read it
        self.call_stack: list[tuple[str, str, int, bool]] = []
        self.func_files: dict[str, str] = {}  # function name -> the file that defined it
        self.script_path: str | None = None  # the script file this shell runs, if any
        self.in_trap: bool | str = False  # True, or "signal"/"err": in which trap
        self.xtrace_level = 1  # bash's indirection_level: how many times PS4's first char shows
        self.loop_depth = 0
        self.umask = session.root.umask
        self.env_cache: tuple[int, dict] | None = None
        self.arith = ArithEvaluator(self)
        self._path_cache: tuple[str, list[str]] | None = None
        self.hashed: dict[str, str] = {}
        self.hash_hits: dict[str, int] = {}  # how often each hashed name was looked up
        self.decl_assigns: dict = {}  # argv index -> (Assign, prepared) of the last expansion
        self.procsub_fds: list = []  # (fd table, fd, stream) of <(...) / >(...) to close after
        self.last_parse_failed = False
        self._init_vars(env if env is not None else session.root.env)
        if interactive:
            self.become_interactive()

    def become_interactive(self) -> None:
        """An interactive shell's defaults: emacs editing, history and its expansion (H in
        $-), aliases expanded."""
        self.interactive = True
        self.opts |= {"emacs", "history", "histexpand"}
        self.shopts.add("expand_aliases")
        self.sync_option_vars()
        g = self.vars.globals
        home = self.get_scalar("HOME")
        for name, value in (("PS1", "\\u@\\h:\\w\\$ "), ("PS2", "> "), ("MAILCHECK", "60"),
                            ("HISTFILE", (home.rstrip("/") + "/.bash_history") if home else None)):
            if name not in g and value is not None:
                g[name] = Var(value)

    # ------------------------------------------------------------------ setup
    def _init_vars(self, env: dict[str, str]) -> None:
        g = self.vars.globals
        for k, v in env.items():
            if k.isidentifier():
                g[k] = Var(v, EXPORT)
        for k, v in env.items():
            if k.startswith("BASH_FUNC_") and k.endswith("%%") and v.startswith("() {"):
                self._import_function(k[10:-2], v)
        # $_ starts as what the parent put in the environment (the command's path), else
        # as the shell's own name; it is not a variable of ours (see get_param_value)
        self.last_arg = env.get("_", "bash")
        g.pop("_", None)
        # what bash sets in every shell (PS1, PS2, HISTFILE... only in interactive ones)
        defaults = {
            "IFS": " \t\n", "PS4": "+ ", "OPTIND": "1",
            "BASH": "/usr/bin/bash", "BASH_VERSION": BASH_VERSION, "MACHTYPE": "x86_64-pc-linux-gnu",
            "HOSTTYPE": "x86_64", "OSTYPE": "linux-gnu", "PPID": str(SHELL_PID - 1),
            "UID": "1000", "EUID": "1000", "OPTERR": "1", "TERM": "dumb",
            "SHELL": "/bin/bash",  # (the user's login shell, when the environment has none)
            "BASH_LOADABLES_PATH": "/usr/local/lib/bash:/usr/lib/bash:/opt/local/lib/bash:"
                                   "/usr/pkg/lib/bash:/opt/pkg/lib/bash:.",
        }
        for k, v in defaults.items():
            if k not in g:
                g[k] = Var(v)
        if "OLDPWD" not in g:
            g["OLDPWD"] = Var(None, EXPORT)  # bash's: exported, set by the first cd
        if "PATH" not in g:
            # started without PATH (env -i): bash's default, not exported
            g["PATH"] = Var("/usr/local/bin:/usr/local/sbin:/usr/bin:/usr/sbin:/bin:/sbin:.")
        for k in ("UID", "EUID", "PPID"):
            g[k].attrs |= READONLY | INTEGER
        g["OPTIND"].attrs |= INTEGER
        # an exported SHELLOPTS / BASHOPTS sets the new shell's options (and stays exported)
        exported = set()
        for var, table, current in (("SHELLOPTS", SET_OPTIONS, self.opts),
                                    ("BASHOPTS", SHOPT_OPTIONS, self.shopts)):
            if var in env:
                exported.add(var)
                for name in env[var].split(":"):
                    if name in table:
                        current.add(name)
                g.pop(var, None)
        self.sync_option_vars()
        for var in exported:
            g[var].attrs |= EXPORT
        g["BASH_VERSINFO"] = Var(dict(enumerate(BASH_VERSINFO)), READONLY)
        shlvl = env.get("SHLVL", "0")
        g["SHLVL"] = Var(str(int(shlvl) + 1 if shlvl.isdigit() else 1), EXPORT)
        if "PWD" not in g:
            # no PWD inherited: start from the physical directory, as bash does
            try:
                self.cwd = self.session.root.fs.at("/").realpath(self.cwd)
            except (FileSystemError, OSError):
                pass
            g["PWD"] = Var(self.cwd, EXPORT)
        elif g["PWD"].value != self.cwd:
            g["PWD"] = Var(self.cwd, EXPORT)
        if "HOSTNAME" not in g:
            g["HOSTNAME"] = Var("sandbox")
        self.vars.env_version += 1

    def _import_function(self, name: str, text: str) -> None:
        """An exported function from the environment (bash: it stays exported)."""
        from pysh.interpreter.syntax import ParseError, parse

        if not name or any(c in name for c in " \t\n$`'\"\\/=") or name in ("(", ")"):
            return
        try:
            prog = parse(f"{name} {text}")
        except ParseError:
            return
        if len(prog.body) == 1 and type(prog.body[0]) is A.FunctionDef:
            self.funcs[name] = prog.body[0]
            self.func_attrs[name] = "x"

    # ------------------------------------------------------------------ forks
    def fork(self, *, level: int = 1) -> Interp:
        """A subshell: a copy of this shell's state, sharing the session."""
        new = Interp.__new__(Interp)
        new.__dict__.update(self.__dict__)
        new.vars = self.vars.copy()
        new.funcs = dict(self.funcs)
        new.func_attrs = dict(self.func_attrs)
        new.lost_specials = set(self.lost_specials)
        new.disabled_builtins = set(self.disabled_builtins)
        new.history = list(self.history)
        new.opts = set(self.opts)
        new.shopts = set(self.shopts)
        new.traps = {k: v for k, v in self.traps.items() if v == "" or k in _inherited(self.opts)}
        new.parent_traps = dict(self.traps)
        new.aliases = dict(self.aliases)
        new.deferred_diags = []
        new.assign_tildes = False
        new.dirstack = list(self.dirstack)
        new.fds = {k: s.dup() for k, s in self.fds.items()}
        new.argv = list(self.argv)
        new.pipestatus = list(self.pipestatus)
        new.pending_signals = None
        new.subshell_level = self.subshell_level + level
        new.pid = self.session.new_pid()
        new.arith = ArithEvaluator(new)
        new.env_cache = None
        new.hashed = dict(self.hashed)
        new.hash_hits = dict(self.hash_hits)
        new.procsub_fds = []
        new.call_stack = list(self.call_stack)
        new.func_files = dict(self.func_files)
        # bash: break/continue do nothing across a subshell boundary
        new.loop_depth = 0
        return new

    def close_fds(self) -> None:
        fds, self.fds = self.fds, {}
        for s in fds.values():
            try:
                s.close()
            except Exception:  # noqa: BLE001
                pass

    # ---------------------------------------------------------------- output
    async def out(self, data: bytes | str) -> None:
        if isinstance(data, str):
            data = encode(data)
        s = self.fds.get(1)
        if isinstance(s, OutputStream):
            await s.write(data)
        else:
            raise ShellError("write error: Bad file descriptor")

    async def err(self, data: bytes | str) -> None:
        if isinstance(data, str):
            data = encode(data)
        s = self.fds.get(2)
        if isinstance(s, OutputStream):
            try:
                await s.write(data)
            except (BrokenPipe, WriteError):  # nowhere left to say it
                pass

    def prefix(self) -> str:
        if self.interactive and not self.source_depth:
            return f"{self.argv0}: "
        return f"{self.argv0}: line {self.lineno}: "

    async def diag(self, message: str) -> None:
        """A diagnostic in bash's format: ``pysh: line N: message``."""
        await self.err(self.prefix() + message + "\n")

    # ----------------------------------------------------------------- values
    def ifs(self) -> str | None:
        v = self.vars.lookup("IFS")
        if v is None or v.value is None:
            return None
        val = v.value
        if isinstance(val, dict):
            return val.get(0, "")
        return val

    def _call_frame(self):
        """The innermost function frame (temp frames hold no positional parameters)."""
        for f in reversed(self.vars.frames):
            if not f.temp:
                return f
        return None

    def positional_list(self) -> list[str]:
        f = self._call_frame() if self.vars.frames else None
        return f.argv if f is not None else self.argv

    def set_positional(self, args: list[str]) -> None:
        f = self._call_frame() if self.vars.frames else None
        if f is not None:
            f.argv = list(args)
        else:
            self.argv = list(args)

    def get_scalar(self, name: str) -> str | None:
        v = self.vars.lookup(name)
        if v is None:
            return None
        val = v.value
        if isinstance(val, dict):
            return val.get(0) if not v.attrs & ASSOC else val.get("0")
        return val

    def _resolve_nameref(self, name: str, *, warn: bool = True) -> str:
        """The variable a nameref chain ends at; "" (no variable) for a cycle, with bash's
        warning unless ``warn`` is off (find_variable_nameref: at most NAMEREF_MAX links)."""
        first = name
        orig = v = self.vars.lookup(name)
        level = 0
        while v is not None and v.attrs & NAMEREF and isinstance(v.value, str) and v.value:
            level += 1
            if level > NAMEREF_MAX:
                return ""
            prev, name = v, v.value
            v = self.vars.lookup(name.partition("[")[0])
            if v is orig or v is prev:
                if warn:
                    self.deferred_diags.append(f"warning: {first}: circular name reference")
                return ""
        return name

    def get_param_value(self, name: str, warn: bool = True) -> str | None:
        """A scalar parameter: specials, positionals, dynamic and ordinary variables.
        (``warn``: False where an unset value is looked up again, warnings and all.)"""
        v = self.vars.lookup(name)
        if v is not None:
            val = v.value
            if val.__class__ is str and not v.attrs & NAMEREF:
                return val  # the common case: an ordinary scalar
        c = name[:1]
        if c.isdigit():
            if name == "0":
                return self.argv0
            i = int(name)
            args = self.positional_list()
            return args[i - 1] if i <= len(args) else None
        if name == "_":
            return self.last_arg
        if not (c.isalpha() or c == "_"):
            if name == "?":
                return str(self.status)
            if name == "#":
                return str(len(self.positional_list()))
            if name == "$":
                return str(self.shell_pid)
            if name == "!":
                return None if self.last_bg is None else str(self.last_bg)
            if name == "-":
                return self.dash_flags()
            if name in ("@", "*"):
                ifs = self.ifs()
                sep = " " if ifs is None else ifs[:1]
                args = self.positional_list()
                return sep.join(args) if args or name == "*" else None
            if name == "_":
                return self.last_arg
            return None
        v = self.vars.lookup(name)
        if v is not None and v.attrs & NAMEREF:
            target = self._resolve_nameref(name, warn=warn)
            if target != name:
                if "[" in target:
                    base, _, sub = target[:-1].partition("[")
                    if sub in ("@", "*") or "$" in sub or "`" in sub:
                        return None  # (the expander's own path does these, in full)
                    vv = self.vars.lookup(base)
                    if vv is None or not isinstance(vv.value, dict):
                        return None
                    return vv.value.get(self.expand_subscript_sync(base, sub))
                return self.get_param_value(target)
        if v is None:
            return self.dynamic_var(name)
        val = v.value
        if isinstance(val, dict):
            return val.get("0") if v.attrs & ASSOC else val.get(0)
        if val is None and name in _DYNAMIC:
            return self.dynamic_var(name)
        return val

    # -- subscripts that arrive as text at run time (namerefs, ${!ref}, unset 'a[$k]') --
    def subscript_word(self, text: str) -> A.Word:
        """``text`` (what is between [ and ]) parsed as a word, cached."""
        hit = _SUBSCRIPT_WORDS.get(text)
        if hit is not None:
            return hit
        from pysh.interpreter.syntax import ParseError, parse

        word = A.Word([A.Lit(text)], text)
        if any(c in text for c in "$`'\"\\"):
            try:
                prog = parse(": " + text)
                cmd = prog.body[0] if len(prog.body) == 1 else None
                if type(cmd) is A.Simple and len(cmd.words) >= 2 and not cmd.redirs:
                    parts = []
                    for i, w in enumerate(cmd.words[1:]):
                        if i:
                            parts.append(A.Lit(" "))
                        parts.extend(w.parts)
                    word = A.Word(parts, text)
            except ParseError:
                pass
        if len(_SUBSCRIPT_WORDS) > 4096:
            _SUBSCRIPT_WORDS.clear()
        _SUBSCRIPT_WORDS[text] = word
        return word

    async def expand_subscript(self, base: str, text: str):
        """The key ``base[text]`` names: expanded; an int for indexed arrays."""
        word = self.subscript_word(text)
        v = self.vars.lookup(base)
        if v is not None and v.attrs & ASSOC:
            return await self.expand_key(word)
        return self._int_index(await self.expand_word(word), v)

    def expand_subscript_sync(self, base: str, text: str):
        """The same where no await is possible: quotes, $name and ${name} only."""
        v = self.vars.lookup(base)
        out = []
        i, n = 0, len(text)
        while i < n:
            c = text[i]
            if c == "'":
                j = text.find("'", i + 1)
                j = n if j < 0 else j
                out.append(text[i + 1:j])
                i = j + 1
            elif c == '"':
                i += 1
            elif c == "\\" and i + 1 < n:
                out.append(text[i + 1])
                i += 2
            elif c == "$" and i + 1 < n and (text[i + 1] == "{" or text[i + 1].isalpha() or text[i + 1] == "_"):
                if text[i + 1] == "{":
                    j = text.find("}", i + 2)
                    j = n if j < 0 else j
                    name, i = text[i + 2:j], j + 1
                else:
                    j = i + 1
                    while j < n and (text[j].isalnum() or text[j] == "_"):
                        j += 1
                    name, i = text[i + 1:j], j
                out.append(self.get_param_value(name) or "")
            else:
                out.append(c)
                i += 1
        key = "".join(out)
        if v is not None and v.attrs & ASSOC:
            return key
        return self._int_index(key, v)

    def dynamic_var(self, name: str) -> str | None:
        if self.lost_specials and name in self.lost_specials:
            return None
        if name == "RANDOM":
            return str(self.session.random.randrange(32768))
        if name == "SRANDOM":
            return str(self.session.random.getrandbits(32))
        if name == "LINENO":
            return str(self.lineno)
        if name == "SECONDS":
            return str(int(time.monotonic() - self.session.start_time))
        if name == "BASHPID":
            return str(self.pid)
        if name == "EPOCHSECONDS":
            return str(int(time.time()))
        if name == "EPOCHREALTIME":
            return f"{time.time():.6f}"
        if name == "BASH_SUBSHELL":
            return str(self.subshell_level)
        if name == "FUNCNAME":
            f = self.funcname_array()
            return f[0] if f else None
        if name == "BASH_SOURCE":
            f = self.bash_source_array()
            return f[0] if f else None
        if name == "BASH_LINENO":
            f = self.bash_lineno_array()
            return f[0] if f else None
        if name == "PIPESTATUS":
            return str(self.pipestatus[0]) if self.pipestatus else None
        if name == "BASH_COMMAND":
            node = self.current_command
            if node is None:
                return ""
            if type(node) is str:  # a compound command's head (for, case, arith for)
                return node
            from pysh.interpreter.syntax.bashprint import command_text

            return command_text(node)
        if name == "HISTCMD":
            if not self.interactive:
                return "0"
            # (the command running is in the history already, when it is kept)
            return str(len(self.history) + (0 if "history" in self.opts else 1))
        if name == "BASH_ARGV0":
            return self.argv0
        if name == "DIRSTACK":
            return self.cwd
        if name == "COMP_WORDBREAKS":  # bash computes it once asked, then it is a variable
            self.vars.globals[name] = Var(_WORDBREAKS)
            return _WORDBREAKS
        if name == "SHELLOPTS":
            return ":".join(sorted(self.opts))
        if name == "BASHOPTS":
            return ":".join(sorted(self.shopts))
        return None

    def dynamic_array(self, name: str) -> dict | None:
        if self.lost_specials and name in self.lost_specials:
            return None
        if name == "PIPESTATUS":
            return {i: str(s) for i, s in enumerate(self.pipestatus)}
        if name == "FUNCNAME":
            f = self.funcname_array()
            return dict(enumerate(f)) if f else None
        if name == "BASH_SOURCE":
            files = self.bash_source_array()
            return dict(enumerate(files)) if files else None
        if name == "BASH_LINENO":
            lines = self.bash_lineno_array()
            return dict(enumerate(lines)) if lines else None
        if name == "GROUPS":
            return {0: "1000"}
        if name in ("BASH_ARGV", "BASH_ARGC"):
            argv, argc = self.bash_argv()
            return dict(enumerate(argv if name == "BASH_ARGV" else argc))
        if name == "DIRSTACK":
            return dict(enumerate([self.cwd] + self.dirstack))
        if name == "BASH_ALIASES":
            return dict(self.aliases)
        if name == "BASH_CMDS":
            return dict(self.hashed)
        return None

    def bash_argv(self) -> tuple[list[str], list[str]]:
        """BASH_ARGV and BASH_ARGC: the shell's arguments (taken when extdebug is turned
        on, or when they are first looked at outside any function), and under extdebug
        each call's arguments on top."""
        if self.argv_base is None and ("extdebug" in self.shopts or self.vars.call_frame() is None):
            self.argv_base = list(self.argv)
        if self.argv_base is None:
            return [], []
        argv: list[str] = []
        argc: list[str] = []
        for f in reversed(self.vars.frames):
            if f.shown_args is not None:
                argv.extend(reversed(f.shown_args))
                argc.append(str(len(f.shown_args)))
        argv.extend(reversed(self.argv_base))
        argc.append(str(len(self.argv_base)))
        return argv, argc

    def dynamic_as_var(self, name: str, listing: bool = False) -> Var | None:
        """A variable the shell computes, as ``declare -p NAME`` shows it; with
        ``listing``, as a whole listing (declare -p, set) shows it: bash computes most of
        them only when they are named, so there they have no value yet."""
        if self.lost_specials and name in self.lost_specials:
            return None
        kind = _DYNAMIC_KINDS.get(name)
        if kind is None:
            return Var(self.last_arg, 0) if name == "_" else None
        attrs, computed = kind
        if name == "PIPESTATUS":
            return Var(self.dynamic_array(name), 0) if self.pipestatus else None
        if attrs & (ARRAY | ASSOC):
            if listing and (not computed or name in ("BASH_ARGV", "BASH_ARGC")
                            and self.argv_base is None):
                return Var({}, attrs)
            d = self.dynamic_array(name)
            if name in ("FUNCNAME", "BASH_SOURCE", "BASH_LINENO") and not d:
                return Var(None, ARRAY) if name == "FUNCNAME" else Var({}, ARRAY)
            return Var(d or {}, attrs)
        if listing:
            return Var(None, 0 if name == "SECONDS" else attrs)  # (-i once it is named)
        return Var(self.dynamic_var(name), attrs)

    def listed_vars(self) -> list[tuple[str, Var]]:
        """Every variable as a whole listing shows it (declare -p, set), the ones the
        shell computes among them, in name order."""
        real = dict(self.vars.visible())
        for name in _DYNAMIC_KINDS:
            v = real.get(name)
            if v is None or v.value is None:
                v = self.dynamic_as_var(name, listing=True)
                if v is not None:
                    real[name] = v
        real.setdefault("_", Var(self.last_arg, 0))
        return sorted(real.items())

    def extglob_on(self) -> bool:
        """Whether the parser reads @( !( +( *( ?( as patterns: shopt extglob, as in bash
        (inside [[ ]] always)."""
        return "extglob" in self.shopts

    def alias_table(self) -> dict[str, str] | None:
        """The aliases the parser expands (shopt expand_aliases), or None."""
        return self.aliases if "expand_aliases" in self.shopts and self.aliases else None

    # The three call-stack arrays end with the script itself (main, its file, line 0) only
    # when the shell runs a script file; -c, stdin and the REPL have no such bottom entry.
    def funcname_array(self) -> list[str]:
        """FUNCNAME: set only while a function runs (a sourced file shows as ``source``)."""
        stack = self.call_stack
        if not any(e[3] for e in stack):
            return []
        return [e[0] for e in reversed(stack)] + (["main"] if self.script_path is not None else [])

    def bash_source_array(self) -> list[str]:
        files = [e[1] for e in reversed(self.call_stack)]
        return files + [self.script_path] if self.script_path is not None else files

    def bash_lineno_array(self) -> list[str]:
        lines = [str(e[2]) for e in reversed(self.call_stack)]
        return lines + ["0"] if self.script_path is not None else lines

    def current_source_file(self) -> str:
        """The file now running, as bash names it for a function defined here."""
        if self.call_stack:
            return self.call_stack[-1][1]
        if self.script_path is not None:
            return self.script_path
        return "environment" if getattr(self, "invocation", "") == "c" else "main"

    def dash_flags(self) -> str:
        """``$-``: the set flags in bash's own order, then i, and c (-c) or s (stdin)."""
        from pysh.interpreter.state import SHORT_TO_LONG

        on = self.opts
        flags = "".join(c for c in "abefhikmnprtuvxBCEHPT"
                        if c in SHORT_TO_LONG and SHORT_TO_LONG[c] in on)
        if self.interactive:
            flags = flags.replace("h", "hi", 1) if "h" in flags else flags + "i"
        mode = getattr(self, "invocation", "")
        return flags + ("c" if mode == "c" else "s" if mode == "stdin" else "")

    # -- arrays --------------------------------------------------------------
    def is_assoc(self, name: str) -> bool:
        v = self.vars.lookup(name)
        if v is None:
            return self.assoc_view(name) is not None
        return bool(v.attrs & ASSOC)

    def assoc_view(self, name: str) -> dict | None:
        """BASH_ALIASES and BASH_CMDS (while no variable hides them): the alias and
        command hash tables. An element assigned adds to the table; bash ignores unset."""
        if name == "BASH_ALIASES" or name == "BASH_CMDS":
            if name in self.lost_specials or self.vars.lookup(name) is not None:
                return None
            return self.aliases if name == "BASH_ALIASES" else self.hashed
        return None

    def array_items(self, name: str) -> list:
        v = self.vars.lookup(self._resolve_nameref(name))
        if v is None:
            d = self.dynamic_array(name)
            return sorted_items(d) if d else []
        val = v.value
        if isinstance(val, dict):
            return sorted_items(val)
        if val is None:
            return []
        return [(0, val)]

    def array_values(self, name: str) -> list[str]:
        return [x for _, x in self.array_items(name)]

    def array_keys(self, name: str) -> list[str]:
        return [str(k) for k, _ in self.array_items(name)]

    def _int_index(self, text: str, var: Var | None = None) -> int:
        if text.isascii() and text.isdigit() and (text[0] != "0" or text == "0"):
            return int(text)  # a plain decimal index (a leading 0 would be octal)
        try:
            idx = self.arith.evaluate_text(text)
        except (ArithError, ArithRuntimeError) as e:
            raise ExpansionError(str(e), status=1, action="discard") from None
        if idx < 0:
            arr = var.value if var is not None and isinstance(var.value, dict) else {}
            top = max(arr) + 1 if arr else 0
            idx += top
        return idx

    async def subscript_value(self, name: str, index: A.ArithExpr) -> str | int:
        """The key of ``name[index]``: a string for associative arrays, an int otherwise."""
        v = self.vars.lookup(name)
        if v is not None and v.attrs & ASSOC or v is None and self.assoc_view(name) is not None:
            return await self.expand_key(index.word)
        text = index.text
        if index.node is not None:
            saved, self.arith.text = self.arith.text, text
            try:
                idx = self.arith.eval(index.node)
            except (ArithError, ArithRuntimeError) as e:  # (a value that will not parse, too)
                raise ExpansionError(str(e), status=1, action="discard") from None
            finally:
                self.arith.text = saved
        else:
            expanded = await self.expand_word(index.word)
            try:
                idx = self.arith.evaluate_text(expanded)
            except (ArithError, ArithRuntimeError) as e:
                raise ExpansionError(str(e), status=1, action="discard") from None
        if idx < 0:
            arr = v.value if v is not None and isinstance(v.value, dict) else (
                {0: v.value} if v is not None and v.value is not None else
                (self.dynamic_array(name) or {}) if v is None else {})
            top = max(arr) + 1 if arr else 0
            if idx + top < 0:
                raise BadSubscript(name, f"{name}[{text}]")
            idx += top
        return idx

    async def get_indexed(self, name: str, index: A.ArithExpr) -> str | None:
        try:
            return await self._get_indexed(name, index)
        except BadSubscript as e:
            # reading out of range: bash complains and goes on with an empty value
            await self.diag(f"{e.name}: bad array subscript")
            return None

    async def _get_indexed(self, name: str, index: A.ArithExpr) -> str | None:
        name = self._resolve_nameref(name)
        v = self.vars.lookup(name)
        if v is None:
            d = self.dynamic_array(name)
            if d is None:
                await self.subscript_value(name, index)
                return None
            key = await self.subscript_value(name, index)
            return d.get(key)
        key = await self.subscript_value(name, index)
        val = v.value
        if isinstance(val, dict):
            return val.get(key)
        if val is None:
            return None
        return val if key in (0, "0") else None

    # -- assignment -------------------------------------------------------------
    def _check_writable(self, name: str, v: Var | None) -> None:
        if v is not None and v.attrs & READONLY:
            raise ReadonlyError(name)

    def _coerce(self, v: Var | None, value: str, name: str, append_to: str | None = None) -> str:
        if v is not None and v.attrs & (INTEGER | CASE_ATTRS):
            if v.attrs & INTEGER:
                try:
                    n = self.arith.evaluate_text(value)
                    if append_to is not None:
                        n = int(self.arith.evaluate_text(append_to or "0")) + n
                except (ArithError, ArithRuntimeError) as e:  # (bash gives up the line)
                    err = ExpansionError(str(e), status=1, action="discard")
                    err.arith = True  # (a builtin assigning it is named: read: 1/0: ...)
                    raise err from None
                return str(n)
            if append_to is not None:
                value = append_to + value
            return case_attr_map(value, v.attrs, self.c_ctype())
        return value if append_to is None else append_to + value

    def assign(self, name: str, value: str, *, append: bool = False, local: bool = False,
               async_ok: bool = False) -> None:
        """``name=value`` (or ``+=``) on a scalar or an array's element 0. ``async_ok``: the
        caller expands a nameref's a[$(...)] itself (on _AsyncSubscript)."""
        if not local and not append:
            # the common case first: an existing plain scalar
            v = self.vars.lookup(name)
            if v is not None and isinstance(v.value, str) and not v.attrs & _SLOW_ATTRS:
                if len(value) > _STRING_FAST_MAX:
                    self.budget.check_string(len(value))
                v.value = value
                if v.attrs & EXPORT:
                    self.vars.env_version += 1
                if name in _SPECIAL_ON_ASSIGN:
                    self._on_special_assign(name)
                return
        if self.vars.lookup(name) is not None and self.vars.lookup(name).attrs & NAMEREF:
            target = self._resolve_nameref(name)
            if not target:  # a cycle (its warning comes with the error)
                self.deferred_diags.clear()
                raise CircularNameref(name)
            if target != name:
                if "[" in target:
                    base, _, sub = target[:-1].partition("[")
                    if sub in ("@", "*"):
                        raise ElementRefError(f"{target}: bad array subscript")
                    if async_ok and ("$" in sub or "`" in sub):  # (expanded in full)
                        raise _AsyncSubscript(target)
                    self.assign_key(base, self.expand_subscript_sync(base, sub), value,
                                    append=append)
                    return
                name = target
        if not _valid_name(name):
            raise ShellError(f"`{name}': not a valid identifier")
        self.budget.check_string(len(value))
        if name == "_" and not local:
            self.last_arg = value  # until the next command binds it again
            return
        if local:
            cf = self.vars.call_frame()
            v = cf.locals.get(name) if cf is not None else self.vars.globals.get(name)
        else:
            v = self.vars.lookup(name)
        self._check_writable(name, v)
        if v is None:
            v = Var(None, EXPORT if "allexport" in self.opts else 0)
            if local:
                self.vars.set_local(name, v)
            else:
                self.vars.globals[name] = v
        old = v.value
        if isinstance(old, dict):
            key = "0" if v.attrs & ASSOC else 0
            prev = old.get(key, "") if append else None
            old[key] = self._coerce(v, value, name, prev if append else None)
        else:
            v.value = self._coerce(v, value, name, (old or "") if append else None)
        if v.attrs & EXPORT or "allexport" in self.opts:
            if "allexport" in self.opts:
                v.attrs |= EXPORT
            self.vars.env_version += 1
        if name in _SPECIAL_ON_ASSIGN:
            self._on_special_assign(name)

    def _on_special_assign(self, name: str) -> None:
        if name in self.lost_specials:
            return
        if name == "OPTIND":  # bash: any assignment starts getopts afresh
            self._getopts_pos = 0
            return
        if name == "RANDOM":
            try:
                self.session.random.seed(int(self.get_scalar("RANDOM") or 0))
            except ValueError:
                pass
            self.vars.lookup("RANDOM").value = None
        elif name == "PATH":
            self.hashed.clear()
        elif name == "SECONDS":
            try:
                self.session.start_time = time.monotonic() - int(self.get_scalar("SECONDS") or 0)
            except ValueError:
                pass
            self.vars.lookup("SECONDS").value = None
        elif name == "LINENO":
            self.vars.lookup("LINENO").value = None
        elif name == "GLOBIGNORE":
            self.globignore_changed()

    def globignore_changed(self) -> None:
        """bash's setup_glob_ignore: a GLOBIGNORE that is not null turns dotglob on, an
        unset one turns it off (a null one leaves it)."""
        v = self.get_scalar("GLOBIGNORE")
        if v is None:
            self.shopts.discard("dotglob")
        elif v:
            self.shopts.add("dotglob")

    def assign_key(self, name: str, key, value: str, *, append: bool = False,
                   local: bool = False) -> None:
        cf = self.vars.call_frame() if local else None
        v = self.vars.lookup(name) if not local else (
            cf.locals.get(name) if cf is not None else self.vars.globals.get(name))
        self._check_writable(name, v)
        if v is None:
            view = None if local else self.assoc_view(name)
            if view is not None:
                view[str(key)] = value
                return
            v = Var({}, EXPORT if "allexport" in self.opts else 0)
            if local:
                self.vars.set_local(name, v)
            else:
                self.vars.globals[name] = v
        if not isinstance(v.value, dict):
            v.value = {} if v.value is None else {0: v.value}
        if v.attrs & ASSOC:
            key = str(key)
        elif isinstance(key, str):
            key = self._int_index(key, v)
        prev = v.value.get(key, "") if append else None
        v.value[key] = self._coerce(v, value, name, prev)
        self.budget.check_array(len(v.value))
        if v.attrs & EXPORT:
            self.vars.env_version += 1

    async def assign_index(self, name: str, index: A.ArithExpr, value: str, *,
                           append: bool = False, local: bool = False) -> None:
        name = self._resolve_nameref(name, warn=False) or _circular(name)
        try:
            key = await self.subscript_value(name, index)
        except BadSubscript as e:
            raise ExpansionError(f"{e.text}: bad array subscript", status=1, action="line") from None
        self.assign_key(name, key, value, append=append, local=local)

    def assign_array(self, name: str, items: list, *, append: bool = False, local: bool = False,
                     assoc: bool | None = None) -> None:
        """``name=(...)``: items are (key | None, value, elem_append) with keys already expanded."""
        if not local:
            v = self.vars.lookup(name)
            if v is not None and v.attrs & NAMEREF:
                name = self._resolve_nameref(name, warn=False) or _circular(name)
        if local:
            cf = self.vars.call_frame()
            v = cf.locals.get(name) if cf is not None else self.vars.globals.get(name)
        else:
            v = self.vars.lookup(name)
        self._check_writable(name, v)
        if v is None:
            v = Var(None, 0)
            if local:
                self.vars.set_local(name, v)
            else:
                self.vars.globals[name] = v
        if assoc:
            v.attrs |= ASSOC
        is_assoc = bool(v.attrs & ASSOC)
        if append and isinstance(v.value, dict):
            arr = v.value
        elif append and v.value is not None:
            arr = {0: v.value} if not is_assoc else {"0": v.value}
        else:
            arr = {}
        nxt = (max(arr) + 1 if arr else 0) if not is_assoc else 0
        # bash: in m=(...) an associative array's [k]+=v appends to the value m had before
        # (the new table is built beside the old one); an indexed array's, to the new one
        before = v.value if is_assoc and isinstance(v.value, dict) else {}
        if not is_assoc and not append:
            # bash assigns the elements one by one: a key's arithmetic sees the new array
            # so far (a=([0]=5 [a[0]]=x) sets [5])
            v.value = arr
        for key, value, el_append in items:
            if is_assoc:
                if key is None:
                    raise ShellError(f"{name}: {value}: must use subscript when assigning associative array")
                k = key
            else:
                k = nxt if key is None else self._int_index(key, Var(arr))
                nxt = k + 1
            prev = (before if is_assoc else arr).get(k, "") if el_append else None
            arr[k] = self._coerce(v, value, name, prev)
        self.budget.check_array(len(arr))
        v.value = arr
        if v.attrs & EXPORT:
            self.vars.env_version += 1

    # hooks for the arithmetic evaluator
    def arith_get(self, name: str, index: str | None) -> str | None:
        value = self._arith_get(name, index)
        # set -u: an unset variable is an error; a missing element of one that is set is not
        if value is None and "nounset" in self.opts and (
                index is None or self.vars.lookup(self._resolve_nameref(name)) is None):
            from pysh.interpreter.errors import NounsetError

            raise NounsetError(name)
        return value

    def _arith_get(self, name: str, index: str | None) -> str | None:
        if index is None:
            return self.get_param_value(name)
        v = self.vars.lookup(self._resolve_nameref(name))
        if v is None:
            d = self.dynamic_array(name)
            if d is None:
                self._int_index(index)  # (bash evaluates the subscript all the same)
                return None
            return d.get(self._int_index(index))
        if v.attrs & ASSOC:
            if not isinstance(v.value, dict):
                return None
            return v.value.get(self.expand_subscript_sync(name, index) if _QUOTES & set(index)
                               else index)
        key = self._int_index(index, v)
        if key < 0:  # before the first element: bash says so, and the value is 0
            self.deferred_diags.append(f"{name}: bad array subscript")
            return None
        val = v.value
        if isinstance(val, dict):
            return val.get(key)
        return val if key == 0 else None

    def arith_set(self, name: str, index: str | None, value: int) -> None:
        if index is None:
            if not _valid_name(name):
                raise ArithRuntimeError(f"{name}: attempted assignment to non-variable")
            self.assign(name, str(value))
        else:
            if _QUOTES & set(index) and self.is_assoc(name):
                index = self.expand_subscript_sync(name, index)  # (( m['k']=1 )): key k
            self.assign_key(name, index, str(value))

    async def eval_arith_expr(self, expr: A.ArithExpr, trace=None) -> int:
        """``trace``: set -x's line for the expression once expanded (a function of it)."""
        try:
            if expr.node is not None:
                if trace is not None:
                    await self.err(await self.ps4() + trace(expr.text) + "\n")
                self.arith.text = expr.text
                value = self.arith.eval(expr.node)
            else:
                text = await self.expand_word(expr.word)
                if trace is not None:
                    await self.err(await self.ps4() + trace(text) + "\n")
                value = self.arith.evaluate_text(text)
        except (ArithError, ArithRuntimeError) as e:
            await self._flush_diags()
            raise ExpansionError(str(e), status=1, action="line") from None
        except ExpansionError:
            await self._flush_diags()
            raise
        except ShellError as e:
            await self._flush_diags()
            raise ExpansionError(e.message, status=1, action="line") from None
        if self.deferred_diags:  # (a subscript before the first element, say)
            await self._flush_diags()
        return value

    async def _flush_diags(self) -> None:
        while self.deferred_diags:
            await self.diag(self.deferred_diags.pop(0))

    # ------------------------------------------------------------ environment
    def env(self) -> dict[str, str]:
        """The exported environment a command sees."""
        cache = self.env_cache
        ver = self.vars.env_version
        if cache is not None and cache[0] == ver:
            return cache[1]
        out: dict[str, str] = {}
        for name, v in self.vars.visible():
            if v.attrs & EXPORT and v.value is not None:
                val = v.value
                if isinstance(val, dict):
                    continue  # arrays are not exported
                out[name] = val
        if self.func_attrs:
            from pysh.interpreter.syntax.bashprint import function_text

            for name, attrs in self.func_attrs.items():
                fn = self.funcs.get(name)
                if "x" in attrs and fn is not None:  # bash's way: BASH_FUNC_f%%=() { ...
                    out[f"BASH_FUNC_{name}%%"] = function_text(fn, multiline=False, name=False)
        self.env_cache = (ver, out)
        return out

    # ------------------------------------------------------------- file system
    @property
    def fs(self):
        return self.session.root.fs.at(self.cwd)

    def glob(self, pattern: str, dotglob: bool, nocase: bool, globstar: bool,
             extglob: bool = True) -> list[str]:
        from pysh.interpreter.collate import collation_locale, sort_key

        return globmod.glob(self.fs, pattern, dotglob=dotglob, nocase=nocase, globstar=globstar,
                            extglob=extglob,
                            skipdots="globskipdots" in self.shopts, budget=self.budget,
                            key=sort_key(collation_locale(self.get_scalar)))

    def shell_for_command(self, fds: dict | None = None, env: dict | None = None) -> Shell:
        return self.session.root.child(fds=fds if fds is not None else self.fds,
                                       env=env if env is not None else self.env(),
                                       cwd=self.cwd, executor=self, umask=self.umask)

    # ------------------------------------------------------------------ running
    async def run_list(self, body: list) -> int:
        status = self.status
        for cmd in body:
            status = await self.execute(cmd)
        return status

    async def execute(self, node) -> int:
        fn = _DISPATCH.get(type(node))
        if fn is None:
            raise ShellError(f"unsupported command {type(node).__name__}")
        try:
            status = await fn(self, node)
        except ShellError as e:
            status = await self.shell_error(e, type(node) is A.Simple)
        self.status = status
        return status

    def fatal_status(self) -> int:
        """The status a non-interactive shell exits with on a fatal error: bash's 127 for
        `bash -c` (1 there too under errexit), 1 for a script or stdin."""
        return 127 if getattr(self, "invocation", "") == "c" and "errexit" not in self.opts else 1

    async def shell_error(self, e: ShellError, simple: bool = False) -> int:
        """A command's error: said, then the shell exits, gives up the line, or the
        command fails (its status returned)."""
        await self.diag(e.message)
        if isinstance(e, ExpansionError) and e.action != "command":
            if e.action == "exit" and not self.interactive:
                raise ExitShell(127 if self.fatal_status() == 127 else e.status) from None
            raise AbortLine(e.status, discard=e.action == "discard") from None
        status = self.status = e.status
        if simple:
            self.set_pipestatus((status,))
        await self.check_errexit(status)
        return status

    # -- errexit -------------------------------------------------------------
    async def check_errexit(self, status: int) -> None:
        if status == 0 or self.errexit_suppressed:
            return
        if "ERR" in self.traps and (not self.in_trap or self.in_trap == "signal"):
            self.status = status  # the trap's $? is the failed command's status
            await self.run_trap("ERR")
        if "errexit" in self.opts:
            raise ExitShell(status)

    # -- simple commands ---------------------------------------------------------
    async def exec_simple(self, node: A.Simple) -> int:
        self.lineno = node.line
        self.budget.count_command()
        if _now() >= self.budget.yield_at:
            await self.budget.pause()
        if not self.in_trap:  # (a trap's own commands leave $BASH_COMMAND be)
            self.current_command = node
            if "DEBUG" in self.traps:
                if self.debug_done:  # (a pipeline's part: the parent ran it before the fork)
                    self.debug_done = False
                else:
                    await self.run_trap("DEBUG")
        elif self.in_trap is not True and "DEBUG" in self.traps:
            await self.run_trap("DEBUG")  # (bash traps the commands of a signal's or ERR's trap)
        self.cmdsub_status = None
        words = node.words
        procsubs = self.procsub_fds
        mark = len(procsubs) if procsubs else 0
        if not words:
            try:
                return await self._assignments_only(node)
            finally:
                if self.procsub_fds and len(self.procsub_fds) > mark:
                    self.close_procsubs(mark)  # x=<(cmd): closed when the line is done
                if self.deferred_diags:  # x=$a with a circular a
                    await self._flush_diags()
        argv = await self.expand_words(words)
        if self.deferred_diags:  # warnings of the expansions (a circular nameref)
            await self._flush_diags()
        if not argv:
            try:
                return await self._assignments_only(node)
            finally:
                if self.procsub_fds and len(self.procsub_fds) > mark:
                    self.close_procsubs(mark)
        try:
            # bash: the words first, then the prefix assignments, one by one (each sees
            # those before it), then the command line's trace
            temp = await self._temp_assigns(node.assigns, argv[0]) if node.assigns else None
            try:
                if "xtrace" in self.opts:
                    if self.decl_assigns:
                        await self._trace_decl_arrays()
                    await self.err(await self.ps4() + " ".join(_xtrace_quote(x) for x in argv) + "\n")
            except BaseException:
                if temp is not None:
                    self._restore_temp(temp)
                raise
            status = await self.invoke(argv, node, words, temp)
        finally:
            if self.procsub_fds and len(self.procsub_fds) > mark:
                self.close_procsubs(mark)
        if self.deferred_diags:
            await self._flush_diags()
        self.last_arg = argv[-1]
        self.pipestatus = (status,)  # (set_pipestatus, inline: this path is hot)
        if "PIPESTATUS" in self.vars.globals:
            del self.vars.globals["PIPESTATUS"]
        if node is not self.stage_cmd:  # (a pipeline's element: the pipeline's status counts)
            await self.check_errexit(status)
        return status

    def set_pipestatus(self, statuses) -> None:
        """bash sets PIPESTATUS after each simple command, subshell, (( )), [[ ]] and
        pipeline (compound commands leave it be); what a script assigned to it goes."""
        self.pipestatus = statuses
        if "PIPESTATUS" in self.vars.globals:
            del self.vars.globals["PIPESTATUS"]

    async def _assignments_only(self, node: A.Simple) -> int:
        for a in node.assigns:
            try:
                # bash traces each one before it is made (a list as written, before its
                # words are expanded)
                if a.array is not None and "xtrace" in self.opts:
                    await self.err(await self.ps4() + self._assign_trace(a, ("array", None)) + "\n")
                prepared = await self.prepare_assign(a)
                if a.array is None and "xtrace" in self.opts:
                    await self.err(await self.ps4() + self._assign_trace(a, prepared) + "\n")
                await self.apply_assign(a, prepared)
            except ReadonlyError as e:
                # bash gives up the rest of the line (a subshell exits); with errexit,
                # suppressed or not, or in POSIX mode, it exits
                await self.diag(e.message)
                if "errexit" in self.opts and not self.interactive:
                    raise ExitShell(1) from None
                if "posix" in self.opts and not self.interactive:
                    raise ExitShell(self.fatal_status()) from None
                raise AbortLine(1) from None
        status = self.cmdsub_status if self.cmdsub_status is not None else 0
        if node.redirs:
            # bash forks for a {var} redirection without a command: nothing of it stays
            sub = self.fork() if any(r.fd_var is not None for r in node.redirs) else self
            red = await sub.apply_redirs(node.redirs)
            if red is None:
                status = 1
            else:
                red.close()
            if sub is not self:
                sub.close_fds()
        self.last_arg = ""
        self.pipestatus = (status,)  # (set_pipestatus, inline)
        if "PIPESTATUS" in self.vars.globals:
            del self.vars.globals["PIPESTATUS"]
        await self.check_errexit(status)
        return status

    async def do_assign(self, a: A.Assign, *, local: bool = False) -> None:
        await self.apply_assign(a, await self.prepare_assign(a), local=local)

    async def prepare_assign(self, a: A.Assign, *, assoc: bool = False):
        """Expand an assignment's words (keys and values), without assigning yet.
        ``assoc``: the target becomes an associative array (``declare -A m=(...)``)."""
        if a.index is not None:
            if a.array is not None:
                raise ExpansionError(f"{a.name}[{a.index.text}]: cannot assign list to array member",
                                     action="line")
            if a.index.text == "":
                raise ExpansionError(f"{a.name}[]: bad array subscript", action="line")
        if a.array is not None:
            items = []
            assoc = assoc or self.is_assoc(self._resolve_nameref(a.name))
            for el in a.array:
                if el.key is not None and "{" in el.value.text and not assoc \
                        and "braceexpand" in self.opts:
                    words = _braced_element(el)
                    if words is not None:
                        # bash expands braces in the whole `[k]=v{1,2}` first: an indexed
                        # array takes the words (`[k]=v1`, `[k]=v2`) as plain values
                        for val in await self.expand_words(words):
                            items.append((None, val, False))
                        continue
                key = await self.expand_key(el.key.word) if el.key is not None else None
                if key is None:
                    for val in await self.expand_words([el.value]):
                        items.append((None, val, False))
                else:
                    value = el.value
                    if assoc and any(type(p) is A.Tilde for p in value.parts):
                        # (an associative array's values see no tilde expansion)
                        value = A.Word([A.Lit("~" + p.user) if type(p) is A.Tilde else p
                                        for p in value.parts], value.text)
                    items.append((key, await self.expand_word(value), el.append))
            return ("array", items)
        v = a.value
        if v is None:
            value = ""
        elif v.text is not None and "~" not in v.text:  # (no tilde: no colon tildes either)
            value = await self.expand_word(v)
        else:
            value = await self.expand_assign_value(v)
        if a.index is not None:
            return ("index", value)
        return ("scalar", value)

    async def apply_assign(self, a: A.Assign, prepared, *, local: bool = False,
                           declared: bool = False) -> None:
        """``declared``: by a declaration builtin (bash words some errors differently)."""
        name = a.name
        kind, payload = prepared
        if not local and not declared:
            if kind == "scalar":
                try:
                    self.assign(name, payload, append=a.append, async_ok=True)
                except _AsyncSubscript as e:  # a nameref to a[$(...)], a[${#a[@]}]...
                    await self._assign_element_ref(e.target, kind, payload, a.append)
                return
            ref = self.vars.lookup(name)
            if ref is not None and ref.attrs & NAMEREF:
                target = self._resolve_nameref(name, warn=False)
                if target.endswith("]") and "[" in target:
                    await self._assign_element_ref(target, kind, payload, a.append)
                    return
        if kind == "array":
            items = payload
            if self.is_assoc(self._resolve_nameref(name)) and items:
                if a.array and a.array[0].key is None:
                    # bash 5.1+: m=(k1 v1 k2 v2) when the first word has no [key]=
                    flat = [v if k is None else f"[{k}]{'+' if app else ''}={v}"
                            for k, v, app in items]
                    items = [(flat[i], flat[i + 1] if i + 1 < len(flat) else "", False)
                             for i in range(0, len(flat), 2)]
                elif any(k is None for k, _, _ in items):
                    # otherwise each word without one is refused, the rest assigned
                    from pysh.interpreter.syntax.bashprint import single_quote

                    for el in a.array:
                        if el.key is None:
                            text = single_quote(el.value.text) if declared else el.value.text
                            await self.diag(f"{name}: {text}: must use subscript when "
                                            "assigning associative array")
                    items = [it for it in items if it[0] is not None]
            self.assign_array(name, items, append=a.append, local=local)
        elif kind == "index":
            await self.assign_index(name, a.index, payload, append=a.append, local=local)
        else:
            self.assign(name, payload, append=a.append, local=local)

    async def _assign_element_ref(self, target: str, kind: str, payload, append: bool) -> None:
        """``ref=value`` where ref names an element (``a[i]``): its subscript expanded in
        full now; a list, a subscript of ref, or ``a[@]`` are refused as bash does."""
        if kind != "scalar":
            raise ElementRefError(f"`{target}': not a valid identifier")
        base, _, sub = target[:-1].partition("[")
        if sub in ("@", "*"):
            raise ElementRefError(f"{target}: bad array subscript")
        await self.assign_index(base, A.ArithExpr(self.subscript_word(sub), None, sub),
                                payload, append=append)

    async def assign_word_text(self, a: A.Assign, prepared=None) -> str:
        """An assignment as a declaration builtin's argument text (for xtrace and $_)."""
        op = "+=" if a.append else "="
        idx = f"[{a.index.text}]" if a.index is not None else ""
        if a.array is not None:
            return a.name
        if prepared is None:
            prepared = await self.prepare_assign(a)
        return f"{a.name}{idx}{op}{prepared[1]}"

    async def ps4(self) -> str:
        ps4 = self.get_scalar("PS4")
        if ps4 is None:
            return ""
        if "xtrace" not in self.opts:
            return await self.expand_prompt_string(ps4)
        self.opts.discard("xtrace")  # PS4's own expansions are not traced
        try:
            text = await self.expand_prompt_string(ps4)
        finally:
            self.opts.add("xtrace")
        # bash repeats PS4's first character once per level of eval, source, trap and
        # command substitution
        return text[:1] * (self.xtrace_level - 1) + text if text else text

    async def _trace_decl_arrays(self) -> None:
        """set -x: bash shows a declaration builtin's array arguments first, one line each,
        every key and value single-quoted (``a=(['k']='v' 'w')``); the command's own line
        then has only their names."""
        from pysh.interpreter.syntax.bashprint import single_quote

        for a, (kind, items) in self.decl_assigns.values():
            if kind == "array":
                els = " ".join(("" if k is None else f"[{single_quote(k)}]{'+' if app else ''}=")
                               + single_quote(v) for k, v, app in items)
                await self.err(await self.ps4() + f"{a.name}{'+=' if a.append else '='}({els})\n")

    @staticmethod
    def _assign_trace(a: A.Assign, prepared) -> str:
        op = "+=" if a.append else "="
        kind, payload = prepared
        if kind == "array":  # bash shows an array literal as it was written ($'...' decoded)
            from pysh.interpreter.syntax.bashprint import word_text

            els = (("[" + el.key.text + "]" + ("+=" if el.append else "=") if el.key is not None
                    else "") + word_text(el.value) for el in a.array)
            return f"{a.name}{op}(" + " ".join(els) + ")"
        idx = f"[{a.index.text}]" if a.index is not None else ""
        return f"{a.name}{idx}{op}{_xtrace_quote(payload) if payload else ''}"

    async def invoke(self, argv: list[str], node: A.Simple | None = None, words=None,
                     temp: Frame | None = None, by_program: bool = False) -> int:
        """Find and run a command: function, builtin, registered command, script.
        ``temp``: the frame of its prefix assignments (made by _temp_assigns), which
        this call takes down (or, where bash keeps them, merges into the shell)."""
        name = argv[0]
        redirs = node.redirs if node is not None else []
        fn = self.funcs.get(name)
        if fn is not None and name in _SPECIAL_BUILTINS and "posix" in self.opts:
            fn = None  # POSIX: special builtins are found before functions
        builtin = None if fn is not None else self.session.builtins.get(name)
        if builtin is not None and self.disabled_builtins and name in self.disabled_builtins:
            builtin = None  # enable -n: the name is looked for in PATH
        if builtin is None and by_program and "/" in name:
            # /usr/bin/bash, /usr/bin/[ run as programs: the builtin does the work
            where, _, base = name.rpartition("/")
            if where in COMMAND_DIRS and base in _PROGRAM_BUILTINS:
                builtin = self.session.builtins.get(base)
        if fn is None and builtin is None:
            return await self.run_external(argv, redirs, temp, underscore=not by_program)
        if name == "exec" and fn is None and (len(argv) == 1 or argv[1:] == ["--"]):
            # `exec` with only redirections: they stay, in this shell's own fd table;
            # its prefix assignments last only for the exec itself
            if temp is not None:
                self._restore_temp(temp)
            if redirs:
                return 0 if await self.apply_redirs(redirs, permanent=True) is not None else 1
            return 0
        red = None
        saved_fds = None
        # POSIX mode: what is assigned before a special builtin stays (bash 5.2: not before
        # a function)
        keep = temp is not None and "posix" in self.opts and fn is None and name in _SPECIAL_BUILTINS
        try:
            if redirs:
                # bash: the prefix assignments are not seen by the redirections' words
                frames = self.vars.frames
                hidden = temp is not None and bool(frames) and frames[-1] is temp
                if hidden:
                    frames.pop()
                    self.vars.env_version += 1
                try:
                    red = await self.apply_redirs(redirs)
                finally:
                    if hidden:
                        frames.append(temp)
                        self.vars.env_version += 1
                if red is None:
                    return 1
                saved_fds, self.fds = self.fds, red.fds
            if fn is not None:
                return await self.call_function(fn, argv, None if keep else temp)
            if name in _DECL_BUILTINS:
                self._assign_args = self.decl_assigns
            return await self._run_builtin(builtin, argv)
        except ShellError as e:
            if saved_fds is None:
                raise
            # said through the command's redirections (echo x 2>&1 >&-), as bash does
            return await self.shell_error(e, simple=True)
        finally:
            if saved_fds is not None:
                await self._flush_fds()
                self.fds = saved_fds
            if red is not None:
                red.close()
            if temp is not None:
                if keep:
                    self._merge_temp(temp)
                else:
                    self._restore_temp(temp)

    async def _run_builtin(self, builtin, argv: list[str]) -> int:
        if len(argv) > 1 and argv[1] == "--help" and argv[0] in _HELP_OPTION:
            from pysh.interpreter.builtins_core import help_text

            await self.out(help_text(argv[0]))
            return 2
        try:
            return await builtin(self, argv)
        except ShellError as e:
            if e.message.startswith("write error:") or getattr(e, "arith", False):
                e.message = f"{argv[0]}: {e.message}"  # bash: echo: write error: ...
            raise
        except (BrokenPipe, FileSystemError):
            raise
        except WriteError as e:  # echo x > /dev/full
            await self.diag(f"{argv[0]}: write error: {e}")
            return 1
        except Exception as e:  # noqa: BLE001 - a bug in a builtin must not become a traceback
            await self.diag(f"{argv[0]}: internal error ({type(e).__name__})")
            return 1
        finally:
            if argv[0] in ("set", "shopt"):
                self.sync_option_vars()

    def set_option(self, name: str, on: bool) -> None:
        """set -o / +o NAME (and shopt -so), with what bash ties to it."""
        if on:
            if name == "posix" and "posix" not in self.opts:
                # bash's posix_initialize: these come on; leaving posix mode restores them
                self._posix_saved = {o for o in _POSIX_SHOPTS if o in self.shopts}
                self.shopts |= _POSIX_SHOPTS
            self.opts.add(name)
            if name in ("vi", "emacs"):  # the two editing modes exclude each other
                self.opts.discard("emacs" if name == "vi" else "vi")
        else:
            if name == "posix" and "posix" in self.opts:
                saved = getattr(self, "_posix_saved", None)
                if saved is not None:
                    self.shopts = (self.shopts - _POSIX_SHOPTS) | saved
            self.opts.discard(name)

    def sync_option_vars(self) -> None:
        """SHELLOPTS and BASHOPTS: readonly, and always the options in force."""
        g = self.vars.globals
        for name in _OPTION_LISTS:
            v = g.get(name)
            if v is None:
                g[name] = Var(self.dynamic_var(name), READONLY)
            elif not isinstance(v.value, dict):
                value = self.dynamic_var(name)
                if v.attrs & EXPORT and v.value != value:
                    self.vars.env_version += 1  # export SHELLOPTS: children see the change
                v.value = value
                v.attrs |= READONLY

    async def _flush_fds(self) -> None:
        for s in self.fds.values():
            if isinstance(s, OutputStream):
                try:
                    await s.flush()
                except (BrokenPipe, WriteError, OSError):
                    pass

    async def _temp_assigns(self, assigns, command: str = "") -> Frame:
        """``X=1 cmd``: bindings in a temp frame, exported, made left to right (each
        expanded with those before it in force, and traced under set -x). They are new
        variables: a value is not coerced by the attributes of the variable they hide."""
        frame = Frame("", [], self.lineno, temp=True)
        self.vars.frames.append(frame)
        try:
            for a in assigns:
                if a.index is not None:
                    # bash: not a name to bind in a command's environment; the command runs
                    await self.diag(f"`{a.name}[{a.index.text}]': not a valid identifier")
                    continue
                prepared = await self.prepare_assign(a)
                if "xtrace" in self.opts:
                    await self.err(await self.ps4() + self._assign_trace(a, prepared) + "\n")
                if a.array is not None:
                    # bash binds the text of the list, its words expanded: B=(b b) is "(b b)"
                    value = "(" + " ".join(v if k is None else f"[{k}]{'+' if app else ''}={v}"
                                           for k, v, app in prepared[1]) + ")"
                else:
                    value = prepared[1]
                if a.append:
                    value = (self.get_scalar(a.name) or "") + value
                old = self.vars.lookup(a.name)
                if old is not None and old.attrs & READONLY:
                    # bash says so, and runs the command without that binding (with
                    # errexit, suppressed or not, it exits)
                    await self.diag(f"{a.name}: readonly variable")
                    if "errexit" in self.opts and not self.interactive:
                        raise ExitShell(1)
                    if "posix" in self.opts:  # POSIX mode: the command does not run (before
                        # a special builtin the shell exits)
                        if command in _SPECIAL_BUILTINS and not self.interactive:
                            raise ExitShell(self.fatal_status())
                        raise AbortLine(1)
                    continue
                self.budget.check_string(len(value))
                frame.locals[a.name] = Var(value, EXPORT | TEMPVAR)
                self.vars.env_version += 1
                if a.name == "PATH":
                    self.hashed.clear()  # bash: a PATH for one command flushes the table too
        except BaseException:
            self._restore_temp(frame, propagate=False)
            raise
        return frame

    def _merge_temp(self, frame) -> None:
        """bash's merge_temporary_env: the temp bindings that survived the special
        builtin (``x=1 unset x`` leaves none) are made in the shell, still exported."""
        for v in frame.locals.values():
            v.attrs |= PROPAGATE
        self._restore_temp(frame)

    def _restore_temp(self, frame, *, propagate: bool = True) -> None:
        """Take a temp frame (or a function's frame) down. Its bindings that ``export``
        or ``readonly`` marked (bash's att_propagate) are made in the scope beneath."""
        frames = self.vars.frames
        if frame in frames:
            while frames and frames[-1] is not frame:
                frames.pop()
            frames.pop()
        self.vars.env_version += 1
        if propagate:
            for name, v in frame.locals.items():
                if v.attrs & PROPAGATE and v.attrs & TEMPVAR:
                    self._propagate(name, v)

    def _propagate(self, name: str, v: Var) -> None:
        attrs = v.attrs & ~(TEMPVAR | PROPAGATE | LOCALIZED)
        value = v.value
        if value is None or isinstance(value, dict):
            return
        cf = self.vars.call_frame()
        scope = cf.locals if cf is not None else self.vars.globals
        old = scope.get(name)
        if old is not None and old.attrs & READONLY and not attrs & READONLY:
            return
        if old is None:
            scope[name] = Var(value, attrs)
        else:
            old.value = value
            old.attrs = (old.attrs & ~(TEMPVAR | PROPAGATE)) | attrs
            if old.attrs & TEMPVAR:
                old.attrs |= PROPAGATE

    async def call_function(self, fn: A.FunctionDef, argv: list[str],
                            temp: Frame | None = None) -> int:
        """``temp``: the call's prefix assignments; as in bash they become variables of the
        function's own scope (``local`` finds them; ``export`` sends them on outward)."""
        limit = self.budget.limits.max_call_depth
        if self.call_depth >= limit:
            raise LimitExceeded("call depth", f"{limit} nested calls")
        # a function inherits the DEBUG and RETURN traps only under set -T (functrace) or
        # declare -ft, the ERR trap only under set -E (errtrace); one it sets itself
        # stays set, and the hidden ones come back if it left theirs unset
        hidden = self._hide_traps(fn.name) if self.traps else None
        frame = Frame(fn.name, argv[1:], self.lineno)
        if "extdebug" in self.shopts:  # (BASH_ARGV and BASH_ARGC show them)
            frame.shown_args = argv[1:]
            if self.argv_base is None:
                self.argv_base = list(self.argv)
        if temp is not None:
            frames = self.vars.frames
            if frames and frames[-1] is temp:
                frames.pop()
            frame.locals.update(temp.locals)
        self.vars.frames.append(frame)
        self.call_stack.append((fn.name, self.func_files.get(fn.name, ""), self.lineno, True))
        self.call_depth += 1
        saved_line = self.lineno
        end_line = fn.line  # what LINENO is in the RETURN trap: return's line, else this
        try:
            if "DEBUG" in self.traps and not self.in_trap:
                # (bash traps the start of a traced function, on the line it was defined)
                await self.debug_trap(fn.line, self.current_command)
            status = await self.exec_compound(fn.body)
        except ReturnFromFunction as r:
            status = r.status
            end_line = self.lineno
        except RecursionError:  # Python's stack ran out before max_call_depth did
            raise LimitExceeded("call depth", f"{self.call_depth} nested calls are as deep as "
                                "this interpreter's stack goes") from None
        finally:
            self.call_depth -= 1
            self.vars.frames.pop()
            if frame.saved_opts is not None:  # local -: the options come back
                self.opts = frame.saved_opts
                self.sync_option_vars()
            if "GLOBIGNORE" in frame.locals:
                self.globignore_changed()
            if temp is not None:  # what the function unset or replaced is not propagated
                temp.locals = {k: v for k, v in temp.locals.items() if frame.locals.get(k) is v}
            self.call_stack.pop()
            self.vars.env_version += 1  # exported locals go out of scope
            self.lineno = saved_line
        if "RETURN" in self.traps and not self.in_trap:
            self.lineno = end_line
            try:
                await self.run_trap("RETURN")
            finally:
                self.lineno = saved_line
        if hidden:
            for name, handler in hidden.items():
                self.traps.setdefault(name, handler)
        return status

    def _hide_traps(self, name: str) -> dict | None:
        """The DEBUG, ERR and RETURN traps a call of function ``name`` does not inherit,
        taken out of the table (bash's execute_function)."""
        traps = self.traps
        if "DEBUG" not in traps and "ERR" not in traps and "RETURN" not in traps:
            return None
        traced = "functrace" in self.opts or "t" in self.func_attrs.get(name, "")
        hidden = {}
        for sig in ("DEBUG", "ERR", "RETURN"):
            if sig in traps and not (traced if sig != "ERR" else "errtrace" in self.opts):
                hidden[sig] = traps.pop(sig)
        return hidden

    async def exec_compound(self, node) -> int:
        return await self.execute(node)

    # -- external (registered) commands and scripts --------------------------------
    def find_command(self, name: str, use_hash: bool = True,
                     path: str | None = None) -> tuple[str, str] | None:
        """('command', path) for a registered command, ('script', path) for a file.
        ``path``: a search path instead of $PATH (command -p), hashing nothing."""
        hit = self.hashed.get(name) if use_hash and path is None else None
        if hit is not None:
            self.hash_hits[name] = self.hash_hits.get(name, 0) + 1  # (hash shows the count)
            return ("command", hit) if hit.rsplit("/", 1)[0] in COMMAND_DIRS else ("script", hit)
        if path is None:
            path = self.get_scalar("PATH")
            if path is None:
                path = ""
        registry = self.session.registry
        core = self.session.root.core
        lose = None  # bash's file_to_lose_on: a file that is there but not executable
        for d in path.split(":"):
            d = d or "."
            if d in COMMAND_DIRS and name in registry:
                p = f"{d}/{name}"
                if use_hash:
                    self.hashed[name] = p
                    self.hash_hits[name] = 1
                return ("command", p)
            if d in COMMAND_DIRS or (is_normal_abspath(d) and not core.may_hold_files(d)):
                continue
            cand = (d.rstrip("/") or "") + "/" + name
            try:
                fs = self.fs
                if fs.is_file(cand):
                    if not fs.access(cand, os.X_OK):
                        lose = lose or cand
                        continue
                    if use_hash and not cand.startswith("./") and d != ".":
                        self.hashed[name] = cand  # bash hashes what PATH found, until hash -r
                        self.hash_hits[name] = 1
                    return ("script", cand)
            except (FileSystemError, OSError):
                continue
        if lose is not None:  # found, hashed, and then refused when run (Permission denied)
            if use_hash and not lose.startswith("./"):
                self.hashed[name] = lose
                self.hash_hits[name] = 1
            return ("script", lose)
        return None

    async def read_named_file(self, path: str) -> bytes:
        """A file the shell itself reads by name (source, bash FILE): /dev/fd/N, /dev/stdin
        and /proc/self/fd/N are its own fds (a <(cmd) pipe), anything else a file."""
        from pysh.interpreter.redirect import stream_fd

        n = stream_fd(self, self.fs.abspath(path))
        if n is None:
            return self.fs.read_bytes(path)
        s = self.fds.get(n)
        if not isinstance(s, InputStream):
            raise FileSystemError(errno.EBADF, path)
        return await s.read()

    def find_all_commands(self, name: str) -> list[str]:
        """Every file PATH offers for ``name``, in order (``type -a``)."""
        out = []
        registry = self.session.registry
        for d in (self.get_scalar("PATH") or "").split(":"):
            d = d or "."
            if d in COMMAND_DIRS:
                if name in registry:
                    out.append(f"{d}/{name}")
                continue
            cand = d.rstrip("/") + "/" + name
            try:
                if self.fs.is_file(cand) and self.fs.access(cand, os.X_OK):
                    out.append(cand)
            except (FileSystemError, OSError):
                continue
        return out

    async def run_external(self, argv: list[str], redirs, temp: Frame | None = None,
                           argv0: str | None = None, underscore: bool = True) -> int:
        """``temp``: the prefix assignments' frame (taken down here); ``argv0``: what the
        command is told it is called (exec -a); ``underscore``: the shell runs it (so
        its environment gets _=path), not another program (env, xargs)."""
        name = argv[0]
        found = ("script", name) if "/" in name else None
        searched = found is not None
        env = self.env()
        if temp is not None:
            try:
                env = dict(env)
                if not searched and "PATH" in temp.locals:
                    # bash searches a PATH given for the command (and hashes nothing)
                    found = self.find_command(name, use_hash=False)
                    searched = True
            finally:
                self._restore_temp(temp)
        if not searched:
            found = self.find_command(name)
        red = None
        fds = self.fds
        if redirs:
            red = await self.apply_redirs(redirs, external=True)
            if red is None:
                return 1
            fds = red.fds
        try:
            if found is None:
                await self.not_found(fds, name)
                return 127
            kind, path = found
            if underscore:
                env = {**env, "_": path}  # bash: the command's path, in its environment only
            if kind == "command":  # (the path's name: BASH_CMDS[x]=/usr/bin/cat makes x cat)
                func = self.session.registry.get(path.rpartition("/")[2])
                if func is None:
                    await self.not_found(fds, name)
                    return 127
                return await self.run_registered(func, argv if argv0 is None else [argv0] + argv[1:],
                                                 fds, env)
            return await self.run_script_file(path, argv if argv0 is None else [argv0] + argv[1:],
                                              fds, env)
        except CommandLoadError:
            await self._diag_fds(fds, f"{name}: command failed to load")
            return 126
        finally:
            if red is not None:
                red.close()

    async def not_found(self, fds, name: str, who: str | None = None) -> None:
        """bash's ``NAME: command not found``, then a hint line when pysh has one."""
        await self._diag_fds(fds, f"{who + ': ' if who else ''}{name}: command not found")
        hint = hint_for(name)
        if hint is not None:
            await self._say_fds(fds, f"pysh: hint: {name}: {hint}\n")

    async def _say_fds(self, fds, text: str) -> None:
        """``text`` on fds's stderr as it is (a command's own message), if it can be said."""
        s = fds.get(2)
        if isinstance(s, OutputStream):
            try:
                await s.write(encode(text))
            except (BrokenPipe, WriteError):
                pass

    async def _diag_fds(self, fds, message: str) -> None:
        await self._say_fds(fds, self.prefix() + message + "\n")

    async def run_registered(self, func, argv: list[str], fds: dict, env: dict) -> int:
        shell = self.shell_for_command(fds, env)
        if any("/dev/" in a for a in argv[1:]):
            # a pipe named as a file opens like a file through either door
            await shell.materialize(argv[1:])
        pid = self.session.new_pid()
        self.session.running[pid] = ProcessInfo(pid, self.pid, " ".join(argv), "R", time.time())
        try:
            status = await func(shell, argv)
        except BrokenPipe:
            status = STATUS_SIGPIPE
        except (LimitExceeded, Interrupted, ExitShell):  # (cancellation is no Exception either)
            raise
        except FileSystemError as e:
            await self._diag_fds(fds, f"{argv[0]}: {e}")
            status = 1
        except WriteError as e:  # seq > /dev/full: what the tool says (shellkit.on_write_error)
            status, message = getattr(func, "write_error", (1, WRITE_ERROR))
            await self._say_fds(fds, message.format(prog=argv[0], strerror=e.strerror))
        except Exception as e:  # noqa: BLE001 - a command's bug must not become a traceback
            await self._diag_fds(fds, f"{argv[0]}: internal error ({type(e).__name__})")
            status = 1
        finally:
            self.session.running.pop(pid, None)
        if not isinstance(status, int):
            status = 0 if status is None else 1
        return status & 0xFF

    async def run_script_file(self, path: str, argv: list[str], fds: dict, env: dict) -> int:
        fs = self.fs
        try:
            st = fs.stat(path)
        except FileSystemError as e:
            code = e.errno
            if code == 2:
                await self._diag_fds(fds, f"{argv[0]}: No such file or directory")
                return 127
            await self._diag_fds(fds, f"{argv[0]}: {e.strerror}")
            return 126
        import stat as _stat

        if _stat.S_ISDIR(st.st_mode):
            await self._diag_fds(fds, f"{argv[0]}: Is a directory")
            return 126
        if not fs.access(path, os.X_OK):
            await self._diag_fds(fds, f"{path}: Permission denied")
            return 126
        try:
            data = fs.read_bytes(path)
        except FileSystemError as e:
            await self._diag_fds(fds, f"{argv[0]}: {e.strerror}")
            return 126
        if data.startswith(COMMAND_MARKER_PREFIX):
            func = self.session.registry.get(path.rsplit("/", 1)[1])
            if func is not None:
                return await self.run_registered(func, argv, fds, env)
        if data.startswith(b"#!"):
            words = [decode(w) for w in data.split(b"\n", 1)[0][2:].strip().split()]
            prog = words[0].rsplit("/", 1)[-1] if words else ""
            rest = words[1:]
            if prog == "env":
                # #!/usr/bin/env [-S] NAME ARGS: NAME is the program
                rest = [w for w in rest if w not in ("-S", "--split-string")]
                prog, rest = (rest[0].rsplit("/", 1)[-1], rest[1:]) if rest else ("env", [])
                by_env = True
            else:
                by_env = False
            if prog not in ("bash", "sh", "pysh", "dash", "ksh", "zsh"):
                func = self.session.registry.get(prog) if prog else None
                if func is not None:  # an interpreter pysh has (awk -f, sed -f, python3...)
                    return await self.run_registered(func, [prog, *rest, path, *argv[1:]], fds,
                                                     env)
                if by_env:
                    await self.not_found(fds, prog, who=argv[0])
                    return 127
                await self._diag_fds(fds, f"{argv[0]}: {words[0] if words else ''}: "
                                          "bad interpreter: No such file or directory")
                hint = hint_for(prog)
                s = fds.get(2)
                if hint is not None and isinstance(s, OutputStream):
                    await s.write(encode(f"pysh: hint: {prog}: {hint}\n"))
                return 126
        child = self.new_shell(fds, env, argv0=argv[0], args=argv[1:])
        child.script_path = argv[0]
        return await child.run_source(decode(data), name=argv[0])

    def new_shell(self, fds: dict, env: dict, *, argv0: str = "pysh", args=()) -> Interp:
        """A fresh shell process (``bash script``, ``sh -c``): exported env only."""
        child = Interp(self.session, fds={k: s.dup() for k, s in fds.items()}, argv0=argv0,
                       args=list(args), cwd=self.cwd, env=env)
        child.pid = child.shell_pid = self.session.new_pid()
        ppid = child.vars.globals.get("PPID")
        if ppid is not None:
            ppid.value = str(self.pid)  # (its parent: the shell, or subshell, that started it)
        self.session.shells[child.pid] = child
        child.umask = self.umask
        child.subshell_level = 0
        child.budget = self.budget
        return child

    async def run_source(self, source: str, name: str | None = None) -> int:
        """Run a whole script in this shell, command by command (as bash does)."""
        from pysh.interpreter.syntax import CommandReader

        reader = CommandReader(source, name=name or self.argv0, extglob=self.extglob_on,
                               aliases=self.alias_table)
        try:
            return await self.run_reader(reader)
        finally:
            self.close_fds()

    async def run_reader(self, reader, *, top_level: bool = True, error_prefix=None) -> int:
        """Run commands as the reader yields them. ``error_prefix(line)`` is what a
        syntax error starts with: ``NAME: line N`` for a script file (the default),
        ``NAME: -c: line N`` for -c, plain ``NAME`` for a script on stdin."""
        if error_prefix is None:
            error_prefix = lambda line: f"{self.argv0}: line {line}"  # noqa: E731
        self._poll_while_parsing(reader)
        warn_where = None if getattr(self, "invocation", "") == "c" else self.argv0
        status = 0
        self.sync_option_vars()  # the options the shell was started with
        try:
            while True:
                try:
                    prog = next(reader)
                except StopIteration:
                    break
                except ParseError as e:
                    await self._parse_warnings(reader, warn_where)
                    self.lineno = e.line
                    await self.err(e.format(error_prefix(e.line)) + "\n")
                    status = self.status = e.status
                    # (a compound assignment's error: bash discards the line and reads on)
                    if self.interactive or (e.status == 1 and not e.incomplete):
                        continue
                    raise ExitShell(e.status) from None
                await self._parse_warnings(reader, warn_where)
                if "verbose" in self.opts:
                    await self._echo_input(reader)
                if "noexec" in self.opts:
                    continue
                if top_level and getattr(self, "invocation", "") != "c":
                    self.command_number += 1
                    if "history" in self.opts:  # set -o history: a script keeps one too
                        self.history.append(history_entry(reader.last_text))
                try:
                    status = await self.run_list(prog.body)
                    if self.pending_signals:
                        await self.take_signals()
                except AbortLine as e:
                    status = self.status = e.status
                    if e.discard and getattr(self, "invocation", "") == "c":
                        break
        except ExitShell as e:
            status = e.status
        if top_level:
            self.xtrace_level -= 1  # bash: the commands read are done, so is their level
            try:
                status = await self.run_exit_trap(status)
            finally:
                self.xtrace_level += 1
        self.status = status
        return status

    async def take_signals(self) -> None:
        """Act on the signals another shell sent this one (its trap, or the default)."""
        from pysh.interpreter.builtins_core import signal_self

        sigs, self.pending_signals = self.pending_signals, None
        for sig in sigs or ():
            await signal_self(self, sig)

    async def run_exit_trap(self, status: int) -> int:
        handler = self.traps.pop("EXIT", None)
        if handler:
            self.status = status
            saved = self.in_trap
            self.in_trap = True
            self.lineno = 0  # (bash numbers an EXIT trap's lines from 1)
            try:
                await self.eval_string(handler)
            except ExitShell as e:
                status = e.status
            finally:
                self.in_trap = saved
        return status

    async def debug_trap(self, line: int, command) -> None:
        """The DEBUG trap before a command that is not a simple one: a ``for`` or ``select``
        head (each time round), a ``case``, each part of an arithmetic ``for``, ``((``, ``[[``.
        ``command`` is $BASH_COMMAND: the node, or the head's text."""
        self.lineno = line
        self.current_command = command
        await self.run_trap("DEBUG")

    async def run_trap(self, name: str, *, signal: bool = False) -> None:
        """``signal``: a signal's trap (its lines numbered from 1, as bash's)."""
        handler = self.traps.get(name)
        if not handler:
            return
        # a handler that signals its own trap (trap 'kill -INT $$' INT) runs again inside
        # itself: bash recurses until its stack overflows; here handlers nest TRAP_DEPTH_MAX
        # deep at most (each level costs the Python stack an eval's worth of frames)
        if self.trap_depth >= TRAP_DEPTH_MAX:
            raise LimitExceeded("call depth", f"{TRAP_DEPTH_MAX} nested trap handlers")
        saved_status = self.status
        saved_ps = self.pipestatus
        saved = self.in_trap
        saved_line = self.lineno
        # what runs inside: a signal's trap still runs DEBUG and ERR, ERR's runs DEBUG
        self.in_trap = "signal" if signal else "err" if name == "ERR" else True
        self.trap_depth += 1
        if signal:
            self.lineno = 0
        try:
            await self.eval_string(handler)
        finally:
            self.trap_depth -= 1
            self.in_trap = saved
            self.status = saved_status
            self.pipestatus = saved_ps
            self.lineno = saved_line

    async def eval_string(self, source: str, *, name: str | None = None) -> int:
        """Parse and run ``source`` in this shell (eval, traps, source)."""
        from pysh.interpreter.syntax import CommandReader

        reader = CommandReader(source, name=name or self.argv0, extglob=self.extglob_on,
                               line=self.lineno or 1, aliases=self.alias_table)
        self.last_parse_failed = False
        self.xtrace_level += 1
        try:
            return await self._eval_reader(reader, name)
        finally:
            self.xtrace_level -= 1

    def _poll_while_parsing(self, reader) -> None:
        """The reader's lexer checks the run's deadline as it reads (a line holding a
        million commands is parsed whole before any runs)."""
        lexer = getattr(reader, "lexer", None)
        if lexer is not None:
            lexer.poll = lambda: self.budget.check()

    async def _eval_reader(self, reader, name) -> int:
        self._poll_while_parsing(reader)
        status = 0
        while True:
            try:
                prog = next(reader)
            except StopIteration:
                break
            except ParseError as e:
                await self._parse_warnings(reader, name or self.argv0)
                self.last_parse_failed = True
                await self.err(e.format(f"{self.argv0}: {name or 'eval'}: line {e.line}"
                                        if name is None else f"{name}: line {e.line}") + "\n")
                return e.status
            await self._parse_warnings(reader, name or self.argv0)
            if "verbose" in self.opts:
                await self._echo_input(reader)
            try:
                status = await self.run_list(prog.body)
            except AbortLine as e:
                # the line abandoned is the string's own (bash's parse_and_execute), unless
                # it is a DISCARD that goes to the top (break 1 2)
                if e.discard:
                    raise
                status = self.status = e.status
        return status

    async def _parse_warnings(self, reader, where: str | None) -> None:
        """bash's warnings of the parse (a here-document ended by end of file):
        ``WHERE: line N: warning: ...``, ``NAME: warning: ...`` without a WHERE (-c)."""
        for w_line, w_msg in reader.take_warnings():
            prefix = self.argv0 if where is None else f"{where}: line {w_line}"
            await self.err(f"{prefix}: {w_msg}\n")

    async def _echo_input(self, reader) -> None:
        """set -v: the input lines a command was read from, as they are read."""
        text = reader.last_text
        await self.err(text if text.endswith("\n") else text + "\n")

    # -- pipelines -----------------------------------------------------------
    async def exec_pipeline(self, node: A.Pipeline) -> int:
        t0 = time.monotonic() if node.timed else 0.0
        cmds = node.commands
        # bash ignores failures under `!` only when errexit is on as it starts (so a
        # function that turns it on itself still exits)
        suppress = node.negated and "errexit" in self.opts
        if suppress:
            self.errexit_suppressed += 1
        try:
            if len(cmds) == 1:
                status = await self.execute(cmds[0])
                if node.negated and type(cmds[0]) in (A.ArithCmd, A.CondCmd):
                    self.set_pipestatus((0 if status else 1,))  # bash: these after the `!`
            else:
                status = await self._run_stages(node)
        finally:
            if suppress:
                self.errexit_suppressed -= 1
        if node.timed:
            await self._report_time(time.monotonic() - t0, node.time_posix)
        if node.negated:
            return 0 if status else 1
        if len(cmds) > 1:
            await self.check_errexit(status)
        return status

    async def _report_time(self, elapsed: float, posix: bool) -> None:
        if posix:
            await self.err(f"real {elapsed:.2f}\nuser 0.00\nsys 0.00\n")
        else:
            m, s = divmod(elapsed, 60)
            await self.err(f"\nreal\t{int(m)}m{s:.3f}s\nuser\t0m0.000s\nsys\t0m0.000s\n")

    async def _run_stages(self, node: A.Pipeline) -> int:
        import anyio

        await ensure_loop()  # the stages run concurrently
        cmds = node.commands
        n = len(cmds)
        read_cap = self.budget.limits.max_string_length
        pipes = [Pipe(read_cap=read_cap) for _ in range(n - 1)]
        statuses = [0] * n
        lastpipe = "lastpipe" in self.shopts and not self.interactive
        # bash runs the DEBUG trap of a simple part in the parent, before that part forks
        debug = bool(self.traps) and "DEBUG" in self.traps and not self.in_trap
        stages = []
        for i, cmd in enumerate(cmds):
            in_last = lastpipe and i == n - 1
            if debug and not in_last and type(cmd) is A.Simple:
                await self.debug_trap(cmd.line, cmd)
                child = self.fork()
                child.debug_done = True
            else:
                child = self if in_last else self.fork()
            if in_last:
                saved = {k: self.fds.get(k) for k in (0, 1, 2)}
            stage_fds = {}
            if i > 0:
                stage_fds[0] = pipes[i - 1].reader()
            if i < n - 1:
                w = pipes[i].writer()
                stage_fds[1] = w
                if node.stderr[i] if i < len(node.stderr) else False:
                    stage_fds[2] = w.dup()
            for k, s in stage_fds.items():
                old = child.fds.get(k)
                if old is not None and not in_last:
                    old.close()
                child.fds[k] = s
            stages.append((child, cmd, in_last, saved if in_last else None, stage_fds))

        control: list[BaseException] = []  # return/exit/break out of a lastpipe stage

        async def run_stage(i, child, cmd, in_last, saved, stage_fds):
            try:
                statuses[i] = await child._stage(cmd, in_last)
            except (ReturnFromFunction, LoopControl, ExitShell, AbortLine) as e:
                if not in_last:
                    raise
                control.append(e)  # raised after the group: from inside it, it comes wrapped
                statuses[i] = getattr(e, "status", 0)
            finally:
                if in_last:
                    for s in stage_fds.values():
                        s.close()
                    for k, s in saved.items():
                        if s is None:
                            self.fds.pop(k, None)
                        else:
                            self.fds[k] = s
                else:
                    child.close_fds()

        async with anyio.create_task_group() as tg:
            for i, (child, cmd, in_last, saved, stage_fds) in enumerate(stages):
                tg.start_soon(run_stage, i, child, cmd, in_last, saved, stage_fds)
        self.set_pipestatus(statuses)
        if not lastpipe:  # (the ERR trap's LINENO: the last part's line)
            self.lineno = getattr(cmds[-1], "line", 0) or self.lineno
        if control:
            raise control[0]
        if "pipefail" in self.opts:
            for s in reversed(statuses):
                if s:
                    return s
            return 0
        return statuses[-1]

    async def _stage(self, cmd, in_current_shell: bool) -> int:
        if not in_current_shell:
            self.stage_cmd = cmd
        try:
            status = await self.execute(cmd)
        except BrokenPipe:
            status = STATUS_SIGPIPE
        except (ExitShell, AbortLine, ReturnFromFunction) as e:
            if in_current_shell:
                raise
            status = e.status  # a stage is a subshell: return in a function's pipe ends it
        if not in_current_shell:
            try:
                status = await self.run_exit_trap(status)
            except BrokenPipe:
                status = STATUS_SIGPIPE
        return status

    # -- lists -----------------------------------------------------------------
    async def exec_andor(self, node: A.AndOr) -> int:
        cmds = node.commands
        ops = node.ops
        last = len(cmds) - 1
        self.errexit_suppressed += 1
        try:
            status = await self.execute(cmds[0])
        finally:
            self.errexit_suppressed -= 1
        for i, op in enumerate(ops, 1):
            if (op == "&&") != (status == 0):
                continue
            if i == last:
                status = await self.execute(cmds[i])
            else:
                self.errexit_suppressed += 1
                try:
                    status = await self.execute(cmds[i])
                finally:
                    self.errexit_suppressed -= 1
        return status

    async def exec_background(self, node: A.Background) -> int:
        import anyio

        await ensure_loop()
        child = self.fork()
        stdin = child.fds.get(0)
        if stdin is not None and stdin is self.session.shell_stdin:
            # bash: with job control off, a background command does not read the shell's
            # own stdin (the script, or the terminal): it gets /dev/null
            stdin.close()
            child.fds[0] = NullInput()
        pid = child.pid
        # bash numbers a job one past the highest in its table (from 1 once it is empty)
        number = max((j.number for j in self.session.jobs.values() if not j.disowned), default=0) + 1
        job = Job(pid, number, _command_text(node.command))
        self.session.jobs[pid] = job
        self.last_bg = pid
        tg = self.session.task_group

        async def runner():
            finished = False
            try:
                with anyio.CancelScope() as scope:
                    job.cancel_scope = scope
                    try:
                        job.status = await child._stage(node.command, False)
                        finished = True
                    except (LimitExceeded, Interrupted):
                        job.status = 1
                        finished = True
                    except Exception as e:  # noqa: BLE001 - never a traceback from a job
                        await child.diag(f"internal error ({type(e).__name__})")
                        job.status = 1
                        finished = True
                    finally:
                        child.close_fds()
            finally:
                # killed (kill %N), or cancelled because the run itself ended: SIGTERM's status
                if not finished and job.status < 128:
                    job.status = 143
                job.done = True
                job.event.set()

        if self.interactive:
            await self.err(f"[{job.number}] {pid}\n")
        if tg is None:
            await runner()
        else:
            tg.start_soon(runner)
            await anyio.lowlevel.checkpoint()
        return 0

    # -- compound commands ---------------------------------------------------------
    async def with_redirs(self, redirs: list, fn, *args) -> int:
        if not redirs:
            return await fn(*args)
        mark = len(self.procsub_fds)
        red = await self.apply_redirs(redirs)
        if red is None:
            self.status = 1
            await self.check_errexit(1)
            return 1
        saved, self.fds = self.fds, red.fds
        try:
            return await fn(*args)
        except ShellError as e:  # said through the command's redirections, as bash does
            return await self.shell_error(e)
        finally:
            await self._flush_fds()
            self.fds = saved
            red.close()
            if len(self.procsub_fds) > mark:
                self.close_procsubs(mark)

    async def exec_brace(self, node: A.BraceGroup) -> int:
        return await self.with_redirs(node.redirs, self.run_list, node.body)

    async def exec_subshell(self, node: A.Subshell) -> int:
        self.lineno = node.line
        child = self.fork()
        try:
            status = await child.with_redirs(node.redirs, child._subshell_body, node.body)
        finally:
            child.close_fds()
        self.set_pipestatus((status,))
        await self.check_errexit(status)
        return status

    async def _subshell_body(self, body) -> int:
        try:
            status = await self.run_list(body)
        except (ExitShell, AbortLine, ReturnFromFunction) as e:  # ( return 3 ) in a function
            status = e.status
        return await self.run_exit_trap(status)

    async def exec_if(self, node: A.If) -> int:
        return await self.with_redirs(node.redirs, self._if, node)

    async def _if(self, node: A.If) -> int:
        for clause in node.clauses:
            self.errexit_suppressed += 1
            try:
                cond = await self.run_list(clause.cond)
            finally:
                self.errexit_suppressed -= 1
            if cond == 0:
                return await self.run_list(clause.body)
        if node.else_body is not None:
            return await self.run_list(node.else_body)
        return 0

    async def _loop_body(self, body) -> tuple[int, str | None]:
        """Run a loop body; returns (status, 'break'|'continue'|None) for this loop."""
        try:
            return await self.run_list(body), None
        except LoopControl as lc:
            if lc.levels > 1:
                lc.levels -= 1
                raise
            return lc.status, lc.kind

    async def exec_while(self, node: A.While) -> int:
        return await self.with_redirs(node.redirs, self._while, node)

    async def _while(self, node: A.While) -> int:
        status = 0
        budget = self.budget
        self.loop_depth += 1
        try:
            while True:
                budget.count_iteration()
                if _now() >= budget.yield_at:
                    await budget.pause()
                self.errexit_suppressed += 1
                try:
                    cond = await self.run_list(node.cond)
                except LoopControl as lc:
                    self.errexit_suppressed -= 1
                    if lc.levels > 1:
                        lc.levels -= 1
                        raise
                    if lc.kind == "break":
                        break
                    continue
                else:
                    self.errexit_suppressed -= 1
                if (cond == 0) == node.until:
                    break
                status, ctl = await self._loop_body(node.body)
                if ctl == "break":
                    break
        finally:
            self.loop_depth -= 1
        return status

    async def exec_for(self, node: A.For) -> int:
        return await self.with_redirs(node.redirs, self._for, node)

    async def _for(self, node: A.For) -> int:
        self.lineno = node.line
        items = list(self.positional_list()) if node.words is None else await self.expand_words(node.words)
        status = 0
        budget = self.budget
        name = node.var
        ref = self.vars.lookup(name)
        if ref is not None and (not ref.attrs & NAMEREF or not self._resolve_nameref(name, warn=False)):
            ref = None  # (a chain that loops: the assignment fails as bash's does)
        head = None
        self.loop_depth += 1
        try:
            for item in items:
                budget.count_iteration()
                if _now() >= budget.yield_at:
                    await budget.pause()
                if self.traps and "DEBUG" in self.traps and not self.in_trap:
                    await self.debug_trap(node.line, _loop_head("for", node))
                if "xtrace" in self.opts:  # bash: the loop's head, unexpanded, each time round
                    if head is None:
                        head = _loop_head("for", node)
                    await self.err(await self.ps4() + head + "\n")
                if ref is not None:  # bash: a nameref loop variable names each item in turn
                    if not valid_ref_name(item):
                        await self.diag(f"`{item}': not a valid identifier")
                        return 1
                    ref.value = item
                else:
                    try:
                        self.assign(name, item)
                    except ReadonlyError as e:
                        if "posix" not in self.opts or self.interactive:
                            raise
                        await self.diag(e.message)  # (POSIX mode: an assignment error exits)
                        raise ExitShell(self.fatal_status()) from None
                status, ctl = await self._loop_body(node.body)
                if ctl == "break":
                    break
        finally:
            self.loop_depth -= 1
        return status

    async def exec_select(self, node: A.Select) -> int:
        return await self.with_redirs(node.redirs, self._select, node)

    async def _select(self, node: A.Select) -> int:
        if self.traps and "DEBUG" in self.traps and not self.in_trap:
            await self.debug_trap(node.line, _loop_head("select", node))
        if "xtrace" in self.opts:
            await self.err(await self.ps4() + _loop_head("select", node) + "\n")
        items = list(self.positional_list()) if node.words is None else await self.expand_words(node.words)
        if not items:
            return 0
        self.loop_depth += 1  # break and continue belong to the select loop
        try:
            return await self._select_loop(node, items)
        finally:
            self.loop_depth -= 1

    async def _select_loop(self, node: A.Select, items: list[str]) -> int:
        status = 0
        show_menu = True  # bash shows the menu first and again after an empty reply only
        while True:
            self.budget.count_iteration()
            if _now() >= self.budget.yield_at:
                await self.budget.pause()
            if show_menu:
                await self.err("".join(f"{i}) {it}\n" for i, it in enumerate(items, 1)))
                show_menu = False
            await self.err(self.get_scalar("PS3") if self.get_scalar("PS3") is not None else "#? ")
            stdin = self.fds.get(0)
            line = await stdin.readline() if isinstance(stdin, InputStream) else b""
            if not line:
                await self.out("\n")  # bash ends the line at end of input, on stdout
                return 1
            reply = decode(line).rstrip("\n")
            self.assign("REPLY", reply)
            if reply == "":
                show_menu = True
                continue
            choice = items[int(reply) - 1] if reply.isdigit() and 1 <= int(reply) <= len(items) else ""
            self.assign(node.var, choice)
            status, ctl = await self._loop_body(node.body)
            if ctl == "break":
                break
        return status

    async def exec_arith_for(self, node: A.ArithFor) -> int:
        return await self.with_redirs(node.redirs, self._arith_for, node)

    async def _arith_for(self, node: A.ArithFor) -> int:
        self.lineno = node.line
        trace = _arith_for_trace if "xtrace" in self.opts else None
        debug = self.traps and "DEBUG" in self.traps and not self.in_trap

        async def empty_part() -> None:  # bash evaluates (and traces) an empty part as 1
            if "xtrace" in self.opts:
                await self.err(await self.ps4() + "(( 1 ))\n")

        if debug:  # (bash traps each part, an empty one too)
            await self.debug_trap(node.line, _arith_for_part(node.init))
        if node.init is not None:
            await self.eval_arith_expr(node.init, trace)
        else:
            await empty_part()
        status = 0
        budget = self.budget
        self.loop_depth += 1
        try:
            while True:
                budget.count_iteration()
                if _now() >= budget.yield_at:
                    await budget.pause()
                if debug:
                    await self.debug_trap(node.line, _arith_for_part(node.cond))
                self.lineno = node.line
                if node.cond is None:
                    await empty_part()
                elif await self.eval_arith_expr(node.cond, trace) == 0:
                    break
                status, ctl = await self._loop_body(node.body)
                if ctl == "break":
                    break
                if debug:
                    await self.debug_trap(node.line, _arith_for_part(node.step))
                if node.step is not None:
                    await self.eval_arith_expr(node.step, trace)
                else:
                    await empty_part()
        finally:
            self.loop_depth -= 1
        return status

    async def exec_case(self, node: A.Case) -> int:
        return await self.with_redirs(node.redirs, self._case, node)

    async def _case(self, node: A.Case) -> int:
        self.lineno = node.line
        if self.traps and "DEBUG" in self.traps and not self.in_trap:
            from pysh.interpreter.syntax.bashprint import word_text

            await self.debug_trap(node.line, f"case {word_text(node.word)} in ")
        if "xtrace" in self.opts:
            from pysh.interpreter.syntax.bashprint import word_text

            await self.err(await self.ps4() + f"case {word_text(node.word)} in\n")
        word = await self.expand_word(node.word)
        nocase = "nocasematch" in self.shopts
        status = 0
        items = node.items
        i = 0
        fall = False
        while i < len(items):
            item = items[i]
            matched = fall
            if not matched:
                for p in item.patterns:
                    if pat.match(await self.expand_pattern(p), word, nocase=nocase,
                                 extglob="extglob" in self.shopts, budget=self.budget):
                        matched = True
                        break
            if matched:
                status = await self.run_list(item.body)
                term = item.terminator
                if term == ";;":
                    return status
                if term == ";&":
                    fall = True
                    i += 1
                    continue
                fall = False  # ;;& : test the next patterns
            i += 1
        return status

    async def exec_funcdef(self, node: A.FunctionDef) -> int:
        name = node.name
        if any(c in name for c in "$'\"\\"):
            # bash's check_identifier: a name with an expansion or quoting is refused
            self.lineno = node.line
            await self.diag(f"`{name}': not a valid identifier")
            return 1
        if name in _SPECIAL_BUILTINS and "posix" in self.opts:
            await self.diag(f"`{name}': is a special builtin")
            if not self.interactive:
                raise ExitShell(2)
            return 2
        attrs = self.func_attrs.get(name, "")
        if "r" in attrs:
            self.lineno = node.line
            await self.diag(f"{name}: readonly function")
            return 1
        if "x" in attrs:
            self.vars.env_version += 1
        self.funcs[name] = node
        self.func_files[name] = self.current_source_file()
        return 0

    async def exec_arith_cmd(self, node: A.ArithCmd) -> int:
        self.lineno = node.line
        if self.traps and "DEBUG" in self.traps and not self.in_trap:
            await self.debug_trap(node.line, node)
        return await self.with_redirs(node.redirs, self._arith_cmd, node)

    async def _arith_cmd(self, node: A.ArithCmd) -> int:
        try:
            if "xtrace" in self.opts:
                v = await self.eval_arith_expr(node.expr, trace=_arith_trace)
            else:
                v = await self.eval_arith_expr(node.expr)
        except ExpansionError as e:
            if e.action == "discard":
                raise
            await self.diag("((: " + e.message)  # bash names the command
            status = 1
        else:
            status = 0 if v else 1
        self.set_pipestatus((status,))
        await self.check_errexit(status)
        return status

    async def exec_cond_cmd(self, node: A.CondCmd) -> int:
        self.lineno = node.line
        if self.traps and "DEBUG" in self.traps and not self.in_trap:
            await self.debug_trap(node.line, node)
        return await self.with_redirs(node.redirs, self._cond_cmd, node)

    async def _cond_cmd(self, node: A.CondCmd) -> int:
        from pysh.interpreter.conditional import InvalidRegex, eval_cond

        try:
            status = 0 if await eval_cond(self, node.expr) else 1
        except InvalidRegex:
            status = 2
        except (ArithError, ArithRuntimeError) as e:  # [[ x -eq . ]]: bash says so, status 1
            await self.diag(f"[[: {e}")
            status = 1
        except ExpansionError:
            raise
        except ShellError as e:
            await self.diag(e.message)
            status = 2
        self.set_pipestatus((status,))
        await self.check_errexit(status)
        return status

    async def exec_coproc(self, node: A.Coproc) -> int:
        raise ShellError("coproc: not supported", status=2)

    # -- redirections -----------------------------------------------------------
    async def apply_redirs(self, redirs: list, *, permanent: bool = False,
                           external: bool = False) -> _Redirected | None:
        """Apply redirections left to right; None (after a diagnostic) on failure.
        ``external``: for a program (bash makes them in the forked child, where a failglob
        miss fails that command only, not the line)."""
        from pysh.interpreter.redirect import apply_redirections

        return await apply_redirections(self, redirs, permanent, external)

    # -- substitutions -------------------------------------------------------------
    async def command_substitution(self, part: A.CommandSub) -> str:
        if part.body is None:
            err = part.error
            if isinstance(err, ParseError):
                await self.err(err.format(f"{self.argv0}: command substitution: line {err.line}") + "\n")
            if self.in_prompt:  # a prompt goes on without it
                return ""
            raise ExpansionError("command substitution: syntax error", status=2, fatal=False)
        body = part.body.body
        # $(< file)
        if len(body) == 1 and type(body[0]) is A.Simple and not body[0].words and not body[0].assigns \
                and len(body[0].redirs) == 1 and body[0].redirs[0].op == "<" and body[0].redirs[0].fd is None:
            target = await self.expand_word(body[0].redirs[0].target)
            try:
                data = self.fs.read_bytes(target)
            except FileSystemError as e:
                await self.diag(str(e))
                self.cmdsub_status = 1
                return ""
            self.cmdsub_status = 0
            return decode(data).rstrip("\n")
        limit = self.budget.limits.max_substitution_depth
        if self.subshell_level >= limit:
            raise LimitExceeded("substitution depth", f"{limit} levels")
        child = self.fork()
        child.xtrace_level += 1
        if "inherit_errexit" not in self.shopts:
            child.opts.discard("errexit")
        cap = CaptureOutput(limit=self.budget.limits.max_string_length, strict=True)
        old = child.fds.get(1)
        if old is not None:
            old.close()
        child.fds[1] = cap
        try:
            try:
                status = await child.run_list(body)
            except (ExitShell, AbortLine, ReturnFromFunction) as e:
                status = e.status
            except BrokenPipe:
                status = STATUS_SIGPIPE
            status = await child.run_exit_trap(status)
        finally:
            child.close_fds()
        self.cmdsub_status = status
        self.status = status
        data = cap.getvalue()
        self.budget.check_string(len(data))
        if b"\0" in data:
            await self.diag("warning: command substitution: ignored null byte in input")
            data = data.replace(b"\0", b"")
        return decode(data).rstrip("\n")

    async def process_substitution(self, part: A.ProcSub) -> str:
        import anyio

        await ensure_loop()
        pipe = Pipe(read_cap=self.budget.limits.max_string_length)
        fdnum = 63
        while fdnum in self.fds and fdnum > 10:
            fdnum -= 1
        child = self.fork()
        child.xtrace_level += 1
        if part.op == "<":
            end = pipe.writer()
            mine = pipe.reader()
            old = child.fds.get(1)
            if old is not None:
                old.close()
            child.fds[1] = end
        else:
            end = pipe.reader()
            mine = pipe.writer()
            old = child.fds.get(0)
            if old is not None:
                old.close()
            child.fds[0] = end
        self.fds[fdnum] = mine
        self.procsub_fds.append((self.fds, fdnum, mine))
        pid = child.pid
        job = Job(pid, 0, "process substitution")  # (not one of the jobs bash lists)
        self.session.jobs[pid] = job
        self.last_bg = pid  # bash: $! is the last process substitution too

        async def runner():
            try:
                job.status = await child._subshell_body(part.body.body)
            except BrokenPipe:
                job.status = STATUS_SIGPIPE
            except (LimitExceeded, Interrupted):
                job.status = 1
            except Exception as e:  # noqa: BLE001 - never a traceback from a background task
                await child.diag(f"process substitution: internal error ({type(e).__name__})")
                job.status = 1
            finally:
                child.close_fds()
                job.done = True
                job.event.set()

        tg = self.session.task_group
        if tg is None:
            raise ShellError("process substitution: not available here")
        tg.start_soon(runner)
        # a forked process starts at once: let it run up to its first wait, so that what it
        # writes without blocking is written before this command goes on
        await anyio.sleep(0)
        return f"/dev/fd/{fdnum}"

    def close_procsubs(self, mark: int = 0) -> None:
        """After the command whose words made them: our ends of <(...) / >(...) close
        (only those made since ``mark``: an inner command must not close an outer one's)."""
        mine, self.procsub_fds = self.procsub_fds[mark:], self.procsub_fds[:mark]
        for table, n, stream in mine:
            if table.get(n) is stream:
                del table[n]
            stream.close()

    # -- Executor protocol (commands running commands) -------------------------------
    async def run_argv(self, shell: Shell, argv: list[str], builtin: str | None = None) -> int:
        """Run ``argv`` for a command (env, xargs, timeout...) in a child of this shell;
        ``builtin``: by that builtin, whatever ``argv[0]`` is."""
        child = self.fork()
        child.close_fds()
        child.fds = {k: s.dup() for k, s in shell.fds.items()}
        child.cwd = shell.cwd
        child.budget = shell.budget  # `timeout` runs its command under a scoped budget
        for k, v in shell.env.items():
            if k == "_":
                child.last_arg = v
            elif child.get_scalar(k) != v:
                child.vars.globals[k] = Var(v, EXPORT)
        for k, var in list(child.vars.visible()):  # `env -i`, `env -u NAME`
            if var.attrs & EXPORT and k not in shell.env:
                child.vars.unset(k)
        child.vars.env_version += 1
        try:
            if not argv:
                return 0
            name = argv[0]
            if name in child.funcs:
                child.funcs.pop(name)
            try:
                if builtin is not None:
                    return await child._run_builtin(child.session.builtins[builtin], argv)
                return await child.invoke(argv, by_program=True)
            except ExitShell as e:
                return e.status
            except ShellError as e:
                await child.diag(e.message)
                return e.status
        finally:
            child.close_fds()

    async def run_script(self, shell: Shell, source: str) -> int:
        child = self.new_shell(shell.fds, dict(shell.env), argv0="sh")
        child.cwd = shell.cwd
        child.budget = shell.budget
        return await child.run_source(source, name="sh")

    def kill(self, pid: int, sig: int) -> bool:
        """Signal a virtual process (a job); False when there is no such process."""
        job = self.session.jobs.get(pid)
        if job is None:
            return False
        if sig != 0 and not job.done and job.cancel_scope is not None:
            job.status = 128 + sig
            job.cancel_scope.cancel()
        return True

    def processes(self) -> list[ProcessInfo]:
        rows = [ProcessInfo(SHELL_PID, SHELL_PID - 1, self.argv0, "S",
                            time.time() - (time.monotonic() - self.session.start_time))]
        for job in self.session.jobs.values():
            if not job.done:
                rows.append(ProcessInfo(job.pid, SHELL_PID, job.command, "S", job.started))
        rows.extend(self.session.running.values())
        return rows

    # -- misc -----------------------------------------------------------------------
    def prompt_expand(self, s: str, quote: bool = False) -> str:
        """A prompt's backslash escapes only (\\u, \\w, ...)."""
        from pysh.interpreter.prompt import expand_prompt

        return expand_prompt(self, s, quote)

    async def expand_prompt_string(self, s: str) -> str:
        """PS1, PS2, PS4 and ${x@P} as bash expands them: the backslash escapes, then (with
        shopt promptvars) parameter, command and arithmetic expansion as inside double
        quotes (quote characters stay, \\$ \\` \\" \\\\ lose their backslash)."""
        if "promptvars" not in self.shopts:
            return self.prompt_expand(s) if "\\" in s else s
        text = self.prompt_expand(s, True) if "\\" in s else s
        if "$" not in text and "`" not in text and "\\" not in text:
            return text
        from pysh.interpreter.syntax import parse_prompt_parts

        parts = _PROMPT_PARTS.get(text)
        if parts is None:
            parts = parse_prompt_parts(text, name=self.argv0)
            if len(_PROMPT_PARTS) > 256:
                _PROMPT_PARTS.clear()
            _PROMPT_PARTS[text] = parts
        outer, self.in_prompt = self.in_prompt, True
        try:
            segs = await self.expand_parts(parts, True)
        except ExpansionError as e:  # bash says so and keeps the string unexpanded
            if e.limit:
                raise
            await self.diag(e.message)
            return text
        finally:
            self.in_prompt = outer
        return "".join(seg[0] for seg in segs if seg is not None)

    def dirs_entry(self, spec: str) -> str:
        """``~N``, ``~+N``, ``~-N``: entry N of the list dirs shows, from the left (or,
        with -, the right); the literal text when there is no such entry."""
        digits = spec[1:] if spec[:1] in "+-" else spec
        n = int(digits)
        stack = self.dirstack
        at = len(stack) - n if spec[:1] == "-" else n
        if not 0 <= at <= len(stack) or n > len(stack):
            return "~" + spec
        return (self.get_scalar("PWD") or self.cwd) if at == 0 else stack[at - 1]

    def declare_text(self, name: str, var: Var, assignment_only: bool = False) -> str:
        from pysh.interpreter.builtins_vars import declare_line

        return declare_line(name, var, assignment_only)


COMMAND_MARKER_PREFIX = b"#!/usr/bin/env pysh-command"


_SUBSCRIPT_WORDS: dict = {}
_PROMPT_PARTS: dict = {}  # prompt text -> its parsed expansions (prompts repeat)


class BadSubscript(Exception):
    def __init__(self, name: str, text: str):
        super().__init__(text)
        self.name = name
        self.text = text

_DYNAMIC = {"RANDOM", "SRANDOM", "LINENO", "SECONDS", "BASHPID", "EPOCHSECONDS", "EPOCHREALTIME",
            "BASH_SUBSHELL", "FUNCNAME", "PIPESTATUS", "SHELLOPTS", "BASHOPTS", "HISTCMD",
            "BASH_ARGV0", "BASH_COMMAND", "DIRSTACK", "COMP_WORDBREAKS"}
_WORDBREAKS = " \t\n\"'@><=;|&(:"  # (readline's, which bash reads only when asked)
# what declare -p shows for the variables the shell computes: their attributes, and
# (arrays) whether a listing shows the value or leaves it to be computed when named
_DYNAMIC_KINDS = {
    "BASHPID": (INTEGER, False), "BASH_ALIASES": (ASSOC, True), "BASH_ARGC": (ARRAY, True),
    "BASH_ARGV": (ARRAY, True), "BASH_ARGV0": (0, False), "BASH_CMDS": (ASSOC, True),
    "BASH_COMMAND": (0, False), "BASH_LINENO": (ARRAY, True), "BASH_SOURCE": (ARRAY, True),
    "BASH_SUBSHELL": (0, False), "COMP_WORDBREAKS": (0, False), "DIRSTACK": (ARRAY, False),
    "EPOCHREALTIME": (0, False),
    "EPOCHSECONDS": (0, False), "FUNCNAME": (ARRAY, True), "GROUPS": (ARRAY, False),
    "HISTCMD": (INTEGER, False), "LINENO": (0, False), "PIPESTATUS": (ARRAY, True),
    "RANDOM": (INTEGER, False), "SECONDS": (INTEGER, False), "SRANDOM": (INTEGER, False),
}
_OPTION_LISTS = ("SHELLOPTS", "BASHOPTS")
_POSIX_SHOPTS = frozenset(("expand_aliases", "inherit_errexit", "shift_verbose", "sourcepath",
                           "interactive_comments"))
def _inherited(opts) -> tuple:
    """The traps a subshell keeps (besides ignored ones): ERR under set -E, DEBUG and
    RETURN under set -T."""
    return (("ERR",) if "errtrace" in opts else ()) + (
        ("DEBUG", "RETURN") if "functrace" in opts else ())


_SPECIAL_ON_ASSIGN = {"RANDOM", "PATH", "SECONDS", "LINENO", "OPTIND", "GLOBIGNORE"}
_SPECIAL_BUILTINS = {"break", ":", "continue", ".", "eval", "exec", "exit", "export", "readonly",
                     "return", "set", "shift", "trap", "unset", "source", "times"}
_HELP_OPTION = frozenset(
    ". alias bg break builtin caller cd command compgen complete compopt continue declare dirs "
    "disown enable eval exec exit export fc fg getopts hash help history jobs kill let local "
    "logout mapfile popd printf pushd pwd read readarray readonly return set shift shopt "
    "source suspend times trap type typeset ulimit umask unalias unset wait".split())
_PROGRAM_BUILTINS = {"bash", "sh", "test", "["}  # also files in /usr/bin that programs run
_DECL_BUILTINS = {"declare", "typeset", "local", "export", "readonly"}


class _AsyncSubscript(Exception):  # noqa: N818 - a signal, not an error
    """assign() met a nameref whose subscript has expansions ($..., `...`) to make."""

    def __init__(self, target: str):
        super().__init__(target)
        self.target = target


def _circular(name: str):
    raise CircularNameref(name)


def _valid_name(name: str) -> bool:
    return name.isidentifier() and name.isascii()


_QUOTES = frozenset("'\"\\")
_SLOW_ATTRS = READONLY | INTEGER | CASE_ATTRS | NAMEREF | ASSOC
_STRING_FAST_MAX = 256  # shorter values are not worth a limit check (limits are far larger)


def _xtrace_quote(s: str) -> str:
    from pysh.interpreter.syntax.bashprint import xtrace_word  # (set -x only: kept off start-up)

    return xtrace_word(s)


def _arith_trace(text: str) -> str:
    return f"(( {text} ))"


def _arith_for_trace(text: str) -> str:
    return f"(( {text.lstrip()} ))"


def _braced_element(el: A.ArrayElem) -> list | None:
    """``[k]=v{1,2}`` re-read as one plain word, when its value holds a brace expansion."""
    from pysh.interpreter.syntax.lexer import brace_expand_parts, merge_lits

    head = A.Lit(f"[{el.key.text}]{'+' if el.append else ''}=")
    parts = brace_expand_parts(merge_lits([head, *el.value.parts]))
    if not any(type(p) in (A.Brace, A.BraceRange) for p in parts):
        return None
    return [A.Word(parts, head.text + el.value.text)]


def _arith_for_part(expr) -> str:
    """$BASH_COMMAND in the DEBUG trap before a part of ``for ((init; cond; step))``."""
    if expr is None:
        return "((1))"  # (bash's value of an empty part)
    if expr.node is None:
        from pysh.interpreter.syntax.bashprint import word_text

        text = word_text(expr.word)
    else:
        text = expr.text
    return f"(({text.strip()} ))"


def _loop_head(kw: str, node) -> str:
    from pysh.interpreter.syntax.bashprint import word_text

    words = ['"$@"'] if node.words is None else [word_text(w) for w in node.words]
    return f"{kw} {node.var} in " + " ".join(words)


_NO_SEMICOLON_AFTER = ("then", "do", "else", "in", "{", "(", "|", "||", "&&", ";", "&")


def history_entry(text: str) -> str:
    """A command read over several lines as bash's cmdhist saves it: the lines joined
    with "; " or, where no ';' may follow, " "; a here-document or a newline inside
    quotes is kept as it is."""
    text = text[:-1] if text.endswith("\n") else text
    if "\n" not in text or "<<" in text:
        return text + "\n" if "<<" in text else text
    out = ""
    quote = None
    for k, line in enumerate(text.split("\n")):
        if k:
            prev = out.rstrip()
            out += "\n" if quote else (" " if prev.endswith(_NO_SEMICOLON_AFTER) else "; ")
        out += line
        for c in line:  # (whether a quote is still open at the line's end)
            if quote is None and c in "'\"":
                quote = c
            elif c == quote:
                quote = None
    return out


def _command_text(node) -> str:
    """A job's text, as bash's jobs shows it."""
    from pysh.interpreter.syntax.bashprint import command_text

    return command_text(node)


_DISPATCH = {
    A.Simple: Interp.exec_simple,
    A.Pipeline: Interp.exec_pipeline,
    A.AndOr: Interp.exec_andor,
    A.Background: Interp.exec_background,
    A.BraceGroup: Interp.exec_brace,
    A.Subshell: Interp.exec_subshell,
    A.If: Interp.exec_if,
    A.While: Interp.exec_while,
    A.For: Interp.exec_for,
    A.Select: Interp.exec_select,
    A.ArithFor: Interp.exec_arith_for,
    A.Case: Interp.exec_case,
    A.FunctionDef: Interp.exec_funcdef,
    A.ArithCmd: Interp.exec_arith_cmd,
    A.CondCmd: Interp.exec_cond_cmd,
    A.Coproc: Interp.exec_coproc,
}
