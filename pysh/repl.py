"""The interactive shell: ``pysh`` on a terminal, or ``pysh -i``.

prompt-toolkit drives the line editor: ``PS1``/``PS2`` prompts with bash's
escapes, multi-line input when the parser says the command is incomplete,
history in the host user's state directory (never inside the sandbox),
completion of command names, virtual paths (through the FileSystem door) and
``$variables``, and pygments' bash highlighting. Ctrl-C cancels the running
command (status 130) or clears the line at the prompt; Ctrl-D on an empty line
exits; ``exit N`` exits with N. Background jobs keep running between lines and
their output is printed above the prompt.
"""

from __future__ import annotations

import os
import signal
import sys

from prompt_toolkit.completion import Completer, Completion

RESERVED_WORDS = ("if", "then", "else", "elif", "fi", "case", "esac", "for", "select",
                  "while", "until", "do", "done", "in", "function", "time", "coproc", "{", "}",
                  "!", "[[", "]]")
# After these tokens the next word is a command name.
COMMAND_POSITION = {"", ";", "|", "||", "&&", "&", "(", "{", "!", "then", "else", "elif", "do",
                    "while", "until", "if", "time", "$(", "`", "|&", ";;"}
WORD_BREAKS = " \t\n;|&()<>"


def history_path(host_env=None) -> str:
    """``$XDG_STATE_HOME/pysh/history``, else ``~/.local/state/pysh/history`` (host side)."""
    env = os.environ if host_env is None else host_env
    base = env.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return os.path.join(base, "pysh", "history")


def _make_history():
    """The history file, opened now: the REPL runs on the sandbox's worker thread, which
    the kernel floor keeps out of the host user's state directory."""
    from prompt_toolkit.history import FileHistory, InMemoryHistory

    path = history_path()
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o600)
    except OSError:
        return InMemoryHistory()

    class HeldFileHistory(FileHistory):
        """prompt-toolkit's history file format, read and appended through a held fd."""

        def load_history_strings(self):
            chunks = []
            try:
                while chunk := os.pread(fd, 1 << 20, sum(map(len, chunks))):
                    chunks.append(chunk)
            except OSError:
                return []
            lines: list[str] = []
            strings: list[str] = []
            for raw in b"".join(chunks).decode("utf-8", "replace").splitlines(keepends=True):
                if raw.startswith("+"):
                    lines.append(raw[1:])
                elif lines:
                    strings.append("".join(lines)[:-1])
                    lines = []
            if lines:
                strings.append("".join(lines)[:-1])
            return list(reversed(strings))

        def store_string(self, string: str) -> None:
            import datetime

            text = f"\n# {datetime.datetime.now()}\n" + "".join(f"+{line}\n" for line in string.split("\n"))
            try:
                os.write(fd, text.encode("utf-8"))
            except OSError:
                pass

    return HeldFileHistory(path)


# ------------------------------------------------------------------------- completion
def _current_word(text: str) -> tuple[str, str]:
    """(the word being typed, the token before it) for the text left of the cursor."""
    i = len(text)
    while i > 0 and text[i - 1] not in WORD_BREAKS:
        if text[i - 1] == "=" and text[:i - 1].split()[-1:] and "$" not in text[:i]:
            break  # VAR=value: complete the value as a path
        i -= 1
    word = text[i:]
    before = text[:i].rstrip(" \t")
    prev = ""
    if before:
        if before[-1] in ";|&({!`" or before.endswith("$("):
            for op in ("&&", "||", "|&", ";;", "$("):
                if before.endswith(op):
                    prev = op
                    break
            else:
                prev = before[-1]
        else:
            prev = before.split()[-1]
            if before.endswith(("<", ">")):
                prev = ">"
    return word, prev


class ShellCompleter(Completer):
    """Commands, virtual paths and variables of one interpreter."""

    def __init__(self, interp) -> None:
        self.interp = interp

    def command_names(self) -> list[str]:
        it = self.interp
        names = set(it.session.builtins) | set(it.funcs) | set(it.aliases)
        reg = it.session.registry
        if reg is not None:
            names.update(reg.names())
        names.update(w for w in RESERVED_WORDS if w.isalpha())
        return sorted(names)

    def variable_names(self) -> list[str]:
        it = self.interp
        names = set(it.vars.all_names()) | {"?", "$", "!", "#", "@", "*", "0", "RANDOM", "LINENO",
                                            "SECONDS", "PWD", "OLDPWD"}
        return sorted(n for n in names if n)

    def path_candidates(self, word: str) -> list[tuple[str, str]]:
        """(completion text, display) for a path prefix, listed through the FileSystem door."""
        it = self.interp
        shown = word
        if word.startswith("~"):
            home = it.get_scalar("HOME") or "/"
            rest = word[1:]
            if rest and not rest.startswith("/"):
                return []
            word = home.rstrip("/") + rest if rest else home
        if "/" in word:
            directory, _, prefix = word.rpartition("/")
            directory = directory or "/"
        else:
            directory, prefix = ".", word
        fs = it.fs
        try:
            names = fs.listdir(directory)
        except Exception:  # noqa: BLE001 - nothing to complete (missing, denied, not a dir)
            return []
        out = []
        head = shown[: len(shown) - len(prefix)]
        for name in names:
            if not name.startswith(prefix) or (name.startswith(".") and not prefix.startswith(".")):
                continue
            full = name if directory == "." else (directory.rstrip("/") + "/" + name)
            try:
                is_dir = fs.is_dir(full)
            except Exception:  # noqa: BLE001
                is_dir = False
            out.append((head + _quote_word(name) + ("/" if is_dir else ""),
                        name + ("/" if is_dir else "")))
        return out

    def get_completions(self, document, complete_event):
        text = document.text_before_cursor
        word, prev = _current_word(text)
        if word.startswith("${"):
            for name in self.variable_names():
                if name.startswith(word[2:]):
                    yield Completion("${" + name + "}", start_position=-len(word), display=name)
            return
        if word.startswith("$") and not word.startswith("$("):
            for name in self.variable_names():
                if name.startswith(word[1:]):
                    yield Completion("$" + name, start_position=-len(word), display=name)
            return
        if prev in COMMAND_POSITION and "/" not in word and not word.startswith(("~", ".")):
            for name in self.command_names():
                if name.startswith(word):
                    yield Completion(name, start_position=-len(word))
            return
        for completion, display in self.path_candidates(word):
            yield Completion(completion, start_position=-len(word), display=display)


def _quote_word(name: str) -> str:
    special = set(" \t\n'\"\\$`!*?[](){}<>|&;#~")
    if not any(c in special for c in name):
        return name
    return "".join("\\" + c if c in special else c for c in name)


# ------------------------------------------------------------------------------- output
def _terminal_output_class():
    from pysh.shellkit import BrokenPipe, FdOutput

    class TerminalOutput(FdOutput):
        """The terminal: written directly while a command runs; above the prompt while one
        is shown (a background job's output), so the line being edited is redrawn intact."""

        repl = None  # the Repl, set by it

        async def write(self, data: bytes) -> None:
            repl = self.repl
            if repl is not None and repl.prompt_active:
                from prompt_toolkit.application import run_in_terminal

                fd = self.fd

                def put():
                    try:
                        _write_all(fd, data)
                    except BrokenPipeError:
                        pass

                await run_in_terminal(put, in_executor=False)
                return
            try:
                _write_all(self.fd, data)
            except BrokenPipeError:
                raise BrokenPipe() from None

    return TerminalOutput


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        try:
            n = os.write(fd, view)
        except BlockingIOError:
            continue
        view = view[n:]


# --------------------------------------------------------------------------------- repl
CHANGES_USAGE = "usage: pysh-changes [stat|diff|json|discard]\n"


def _changes_command(ex, options):
    """``pysh-changes``: the REPL's view of its overlay mounts' change set (stat, diff,
    json) and ``discard``. Applying is left to the person at the terminal: ``--apply``
    on the command line applies at exit (no script of the session can apply)."""
    from pysh import changeset

    async def pysh_changes(shell, argv) -> int:
        how = argv[1] if len(argv) > 1 else "stat"
        if len(argv) > 2 or how not in ("stat", "diff", "json", "discard"):
            await shell.stderr.write(CHANGES_USAGE.encode())
            return 2
        if how == "discard":
            ex.discard_changes()
            return 0
        text = changeset.render(ex, how, options.workspace)
        await shell.stdout.write(text.encode("utf-8", "surrogateescape"))
        return 0

    return pysh_changes


class Repl:
    def __init__(self, options, ex) -> None:
        from pysh.interpreter.toplevel import make_interp, make_session
        from pysh.shellkit import FdInput

        self.options = options
        self.ex = ex
        self.session = make_session(ex)
        out_cls = _terminal_output_class()
        self.stdout = out_cls(1)
        self.stderr = out_cls(2)
        self.stdout.repl = self.stderr.repl = self
        self.stdin = FdInput(0)
        fds = {0: self.stdin, 1: self.stdout, 2: self.stderr}
        self.interp = make_interp(self.session, fds=fds, argv0="pysh", args=options.args,
                                  interactive=True)
        self.interp.opts |= options.set_on
        self.interp.opts -= options.set_off
        self.interp.shopts.add("expand_aliases")  # on in interactive shells, as in bash
        self.prompt_active = False
        self.exit_status: int | None = None
        self.tg = None
        self._run_scope = None
        self._loop = None
        self.history = None  # opened by run_repl before the worker starts
        if any(ex.table.layer(m) is not None for m in ex.table):
            self.session.registry.register("pysh-changes", _changes_command(ex, options))

    # -- prompts ------------------------------------------------------------------------
    async def prompt_text(self, var: str, default: str) -> str:
        value = self.interp.get_scalar(var)
        if value is None:
            value = default
        try:
            return await self.interp.expand_prompt_string(value)
        except Exception:  # noqa: BLE001 - a bad prompt string never stops the shell
            return value

    # -- running a command ---------------------------------------------------------------
    async def run_source(self, source: str) -> int:
        import anyio

        from pysh.interpreter.errors import ExitShell
        from pysh.interpreter.syntax import CommandReader
        from pysh.interpreter.toplevel import fresh_budget, run_main

        interp = self.interp
        fresh_budget(interp, self.options.timeout)
        lines = iter(source.splitlines(keepends=True))
        reader = CommandReader(lambda: next(lines, None), name=interp.argv0, extglob=lambda: True,
                               aliases=interp.alias_table)

        async def body(it):
            from pysh.interpreter.syntax.errors import ParseError

            status = it.status
            try:
                while True:
                    try:
                        prog = next(reader)
                    except StopIteration:
                        break
                    except ParseError as e:
                        await it.err(_parse_error_text(e, it.argv0) + "\n")
                        status = it.status = 2
                        break
                    for _line, w_msg in reader.take_warnings():
                        await it.err(f"{it.argv0}: {w_msg}\n")
                    status = await it.run_list(prog.body)
            except ExitShell as e:
                self.exit_status = e.status
                status = e.status
            return status

        status = 130
        with anyio.CancelScope() as scope:
            self._run_scope = scope  # Ctrl-C (on_sigint, in the main thread) cancels it
            try:
                status = await run_main(interp, body, task_group=self.tg)
            except Exception as e:  # noqa: BLE001 - an interpreter bug must not end the session
                await interp.err(f"pysh: internal error ({type(e).__name__})\n")
                status = 70
            finally:
                self._run_scope = None
        if scope.cancelled_caught or status == 130 and interp.budget.interrupted:
            status = 130
            _write_all(1, b"\n")
        interp.status = status
        return status

    def on_sigint(self, signum, frame) -> None:
        """SIGINT, in the main thread. While a command runs (on the worker): interrupt its
        CPU loops (budget) and awaits (the scope). Otherwise (no terminal in raw mode
        took the key) it ends the shell, as before a command started."""
        scope = self._run_scope
        loop = self._loop
        if scope is None or loop is None:
            raise KeyboardInterrupt
        self.interp.budget.interrupt()
        loop.call_soon_threadsafe(scope.cancel)

    def report_jobs(self) -> None:
        """bash's ``[1]+  Done  cmd`` lines for background jobs that ended since the last prompt."""
        session = self.session
        done = [j for j in session.jobs.values() if j.done and not j.notified]
        if not done:
            return
        lines = []
        for job in sorted(done, key=lambda j: j.number):
            job.notified = True
            state = "Done" if job.status == 0 else f"Exit {job.status}"
            lines.append(f"[{job.number}]+  {state:<24}{job.command}\n")
        _write_all(2, "".join(lines).encode("utf-8", "surrogateescape"))
        for pid in [p for p, j in session.jobs.items() if j.notified]:
            session.jobs.pop(pid, None)

    # -- the loop ------------------------------------------------------------------------
    async def main(self) -> int:
        import asyncio

        import anyio
        from prompt_toolkit import PromptSession
        from prompt_toolkit.formatted_text import ANSI
        from prompt_toolkit.lexers import PygmentsLexer
        from pygments.lexers.shell import BashLexer

        from pysh.interpreter.syntax import parse_status
        from pysh.shellkit.worker import ensure_loop

        await ensure_loop()  # the prompt and the jobs share the worker's event loop
        self._loop = asyncio.get_running_loop()
        prompt_session = PromptSession(history=self.history, completer=ShellCompleter(self.interp),
                                       lexer=PygmentsLexer(BashLexer), complete_while_typing=False,
                                       enable_history_search=True)
        async with anyio.create_task_group() as tg:
            self.tg = tg
            try:
                while self.exit_status is None:
                    self.report_jobs()
                    source = await self._read_command(prompt_session, parse_status, ANSI)
                    if source is None:  # Ctrl-D
                        _write_all(2, b"exit\n")
                        self.exit_status = self.interp.status
                        break
                    if not source.strip():
                        continue
                    await self.run_source(source)
                    if self.exit_status is not None:
                        _write_all(2, b"exit\n")
            finally:
                await self._exit_trap()
                tg.cancel_scope.cancel()
        return self.exit_status if self.exit_status is not None else self.interp.status

    async def _read_command(self, prompt_session, parse_status, ANSI) -> str | None:
        """One complete command (several lines while the parser says 'incomplete')."""
        lines: list[str] = []
        while True:
            ps = await self.prompt_text("PS1", "\\u@\\h:\\w\\$ ") if not lines else \
                await self.prompt_text("PS2", "> ")
            self.prompt_active = True
            try:
                line = await prompt_session.prompt_async(ANSI(ps))
            except KeyboardInterrupt:
                self.interp.status = 130
                lines = []
                continue
            except EOFError:
                if not lines:
                    return None
                # bash: the unfinished command meets end of file (a syntax error)
                return "\n".join(lines) + "\n"
            finally:
                self.prompt_active = False
            lines.append(line)
            source = "\n".join(lines) + "\n"
            if parse_status(source, extglob=True) != "incomplete":
                return source

    async def _exit_trap(self) -> None:
        from pysh.interpreter.toplevel import fresh_budget, run_main

        if "EXIT" not in self.interp.traps:
            return
        fresh_budget(self.interp, self.options.timeout)
        status = self.exit_status if self.exit_status is not None else self.interp.status

        async def body(it):
            return await it.run_exit_trap(status)

        try:
            await run_main(self.interp, body, task_group=self.tg)
        except Exception:  # noqa: BLE001
            pass


def _parse_error_text(e, argv0: str) -> str:
    # interactive bash names no line: "bash: syntax error near unexpected token `fi'"
    return e.format(argv0)


async def _plain_repl_main(repl: Repl) -> int:
    """-i without a terminal: read lines from stdin, prompts on stderr (as bash does)."""
    import asyncio

    import anyio

    from pysh.interpreter.syntax import parse_status
    from pysh.shellkit.worker import ensure_loop

    await ensure_loop()
    repl._loop = asyncio.get_running_loop()
    async with anyio.create_task_group() as tg:
        repl.tg = tg
        try:
            while repl.exit_status is None:
                lines: list[str] = []
                while True:
                    ps = await repl.prompt_text("PS1" if not lines else "PS2",
                                          "\\u@\\h:\\w\\$ " if not lines else "> ")
                    _write_all(2, ps.encode("utf-8", "surrogateescape"))
                    raw = repl.stdin.readline_blocking()
                    if not raw:
                        break
                    lines.append(raw.decode("utf-8", "surrogateescape").rstrip("\n"))
                    if parse_status("\n".join(lines) + "\n", extglob=True) != "incomplete":
                        break
                if not lines:
                    _write_all(2, b"exit\n")
                    break
                source = "\n".join(lines) + "\n"
                if source.strip():
                    await repl.run_source(source)
        finally:
            await repl._exit_trap()
            tg.cancel_scope.cancel()
    return repl.exit_status if repl.exit_status is not None else repl.interp.status


def run_repl(options) -> int:
    """Entry point from the CLI (``pysh`` on a terminal, or ``pysh -i``)."""
    from pysh import cli
    from pysh.shellkit import MountError

    try:
        ex = cli.build_instance(options)
        ex.open()
    except (cli.UsageError, MountError) as e:
        sys.stderr.write(f"pysh: {e}\n")
        return 2
    try:
        repl = Repl(options, ex)
        # The REPL (line editor included) runs on the sandbox's worker thread, restricted
        # by the kernel floor; this thread takes the signals, waits, and cleans up.
        previous = signal.signal(signal.SIGINT, repl.on_sigint)
        try:
            if not (sys.stdin.isatty() and sys.stdout.isatty()):
                return ex.call(_plain_repl_main, repl)
            repl.history = _make_history()
            return ex.call(repl.main)
        finally:
            signal.signal(signal.SIGINT, previous)
    except KeyboardInterrupt:
        return 130
    finally:
        try:
            cli.at_exit(options, ex)  # --changes / --apply, on this (unrestricted) thread
        finally:
            ex.close()
