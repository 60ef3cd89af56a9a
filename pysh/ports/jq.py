"""jq: the real libjq (the PyPI ``jq`` package's, jq 1.8) behind jq 1.6's command line.

Confinement:

* file operands, ``-f FILE``, ``--rawfile`` and ``--slurpfile`` are opened
  through door B (``shell.resolve()`` + the verified open of ``_common``);
  libjq is handed ``/dev/fd/N`` of those fds, never a path it could resolve
  itself; stdin is copied into a memfd the same way. ``input_filename`` and
  error positions show the operand as typed (virtual).
* ``$ENV`` and ``env`` are the shell's environment: the program is wrapped in
  a prelude that binds ``$ENV`` (libjq only reads the C ``environ`` for an
  *unbound* ``$ENV``) and redefines ``env``, ``input_filename``,
  ``get_search_list``, ``get_jq_origin``, ``get_prog_origin`` and
  ``modulemeta``. Because the prelude comes first, ``import``/``include``
  directives can never take effect (they are refused with a clear message).
  libjq also auto-imports ``$HOME/.jq`` from the *host's* C environment; we
  refuse to run when such a file exists on the host rather than load it.
* Runaway programs: outputs are consumed one by one and the budget is polled
  between them; a watchdog thread also calls ``jq_halt()`` when the budget's
  deadline passes or the run is interrupted (libjq checks the halt flag at
  every bytecode instruction, so ``[repeat(1)]`` stops too). A single C builtin
  runs to its end; the ones a short program can make long are bounded by
  ``_jqguard``: string repetition of literals (folded at compile time), one
  regex search (oniguruma's step limits) and a global match's loop of searches
  (stopped at the deadline), and the printing of a long string (done in Python,
  in pieces). A string result past ``max_string_length`` is the limit error
  before it is printed, and so is one printed value past it.
  Not bounded: memory (``[repeat(1)]`` or ``. + .`` grow until the deadline;
  one C call allocates at most about 2 GiB, jq's own cap on a string), and a few
  C builtins whose time grows with a value's size: ``sort``/``group_by``/
  ``unique`` of a huge array, ``tojson``/``==``/``contains`` and printing of a
  value built from shared parts (``reduce range(40) as $i ([]; [., .])`` is 2^40
  leaves), and a global match's offset count (quadratic in the string's length:
  ``"a" * 1e6 | [match("a"; "g")]``).

Deviations (libjq 1.8 vs the jq 1.6 CLI this machine has): number literals
keep their text (``1.10`` stays ``1.10``, ``1e1000`` prints as ``1E+1000``),
compile-error messages use 1.8's format, ``$__loc__.line`` counts the
prelude line, ``-C`` places its colour codes as 1.8 does, and ``localtime`` /
``strflocaltime`` are UTC (libjq would read the host's ``TZ``). stdin is read whole before the program starts (with ``-n`` it
is read only when the program mentions ``input``). One regex search stops after
20 million backtracking steps with the jq error ``Regex failure:
retry-limit-in-search over`` (oniguruma's own limit, 10 million steps, is per
start position: ``Regex failure: retry-limit-in-match over``, as in jq 1.8).
"""

from __future__ import annotations

import ctypes
import errno
import os
import re
import threading

from pysh.ports import _common, _jqguard
from pysh.ports._common import Out
from pysh.shellkit import LimitExceeded, Shell, decode, encode, on_write_error

PROG = "jq"
VERSION = "jq-1.8.2"

USAGE_TAIL = ("Use jq --help for help with command-line options,\n"
              "or see the jq manpage, or online docs  at https://stedolan.github.io/jq\n")

HELP = """Usage:\tjq [options] <jq filter> [file...]
\tjq [options] --args <jq filter> [strings...]
\tjq [options] --jsonargs <jq filter> [JSON_TEXTS...]

jq is a tool for processing JSON inputs, applying the given filter to
its JSON text inputs and producing the filter's results as JSON on
standard output.

The simplest filter is ., which copies jq's input to its output
unmodified (except for formatting, but note that IEEE754 is used
for number representation internally, with all that that implies).

For more advanced filters see the jq(1) manpage ("man jq")
and/or https://stedolan.github.io/jq

Example:

\t$ echo '{"foo": 0}' | jq .
\t{
\t\t"foo": 0
\t}

Some of the options include:
  -c               compact instead of pretty-printed output;
  -n               use `null` as the single input value;
  -e               set the exit status code based on the output;
  -s               read (slurp) all inputs into an array; apply filter to it;
  -r               output raw strings, not JSON texts;
  -j               like -r, without a newline after each output;
  -a               escape non-ASCII characters in output strings;
  -R               read raw strings, not JSON texts;
  -C               colorize JSON;
  -M               monochrome (don't colorize JSON);
  -S               sort keys of objects on output;
  -f file          read the filter from a file;
  --tab            use tabs for indentation;
  --indent n       use n spaces for indentation (max 7);
  --seq            write a record separator before each output;
  --arg a v        set variable $a to value <v>;
  --argjson a v    set variable $a to JSON value <v>;
  --slurpfile a f  set variable $a to an array of JSON texts read from <f>;
  --rawfile a f    set variable $a to a string consisting of the contents of <f>;
  --args           remaining arguments are string arguments, not files;
  --jsonargs       remaining arguments are JSON arguments, not files;
  --               terminates argument processing;

Named arguments are also available as $ARGS.named[], while
positional arguments are available as $ARGS.positional[].
"""

# jq 1.6's default colours (1.8 changed null's); the object-key colour is libjq's.
COLORS_16 = b"1;30:0;39:0;39:0;39:0;32:1;39:1;39"

PRELUDE = (
    "$__pysh_env as $ENV | def env: $ENV; "
    "def _pysh_input_filename: input_filename; "
    "def input_filename: _pysh_input_filename as $f "
    "| if $f == null then null else $__pysh_fnames[$f] end; "
    "def get_search_list: []; def get_jq_origin: null; def get_prog_origin: null; "
    'def modulemeta: error("modulemeta is not available in the sandbox"); '
    # libjq's local-time builtins read the host's TZ from the C environment: the sandbox's
    # clock is UTC
    "def localtime: gmtime; def strflocaltime(f): strftime(f); \n"
)

SHORT = {"s": "slurp", "r": "raw", "j": "join", "a": "ascii", "c": "compact", "n": "null",
         "f": "file", "e": "exit", "S": "sort", "C": "color", "M": "mono", "R": "rawin",
         "h": "help", "V": "version"}
LONG = {"slurp": "slurp", "raw-output": "raw", "join-output": "join", "ascii-output": "ascii",
        "compact-output": "compact", "null-input": "null", "from-file": "file",
        "exit-status": "exit", "sort-keys": "sort", "color-output": "color",
        "monochrome-output": "mono", "raw-input": "rawin", "help": "help", "version": "version",
        "tab": "tab", "seq": "seq", "unbuffered": "unbuffered", "args": "args",
        "jsonargs": "jsonargs", "stream": "stream"}

OK, NULL_KIND, NO_OUTPUT, ERROR = 0, -1, -4, 5

_LONG = 1 << 16  # a string result longer than this is printed by _jqguard.dump_string
_LIMIT_MSG = b'{"' + _jqguard.LIMIT_KEY.encode() + b'":"string"}'

_MODULE_RE = re.compile(r"\A(?:\s|#[^\n]*\n?)*(import|include|module)\b")
_LINE_RE = re.compile(r"(at <top-level>, line )(\d+)")
_FD_RE = re.compile(r"/dev/fd/(\d+)")


class Usage(Exception):
    def __init__(self, message: str, tail: bool = True):
        super().__init__(message)
        self.tail = tail


def _parse_args(argv: list[str]):
    o = {"dumpindent": 2, "tab": False, "named": [], "positional": [], "files": [],
         "program": None}
    flags: set[str] = set()
    further = None  # "args" | "jsonargs"
    args_done = False
    i = 0
    args = argv[1:]
    n = len(args)

    def take(count: int, what: str) -> list[str]:
        nonlocal i
        if i + count > n:
            raise Usage(what)
        vals = args[i:i + count]
        i += count
        return vals

    def positional(text: str) -> None:
        if o["program"] is None:
            o["program"] = text
        elif further == "args":
            o["positional"].append(("str", text))
        elif further == "jsonargs":
            o["positional"].append(("json", text))
        else:
            o["files"].append(text)

    while i < n:
        text = args[i]
        i += 1
        if args_done:
            positional(text)
            continue
        if text == "--":
            if o["program"] is None:
                raise Usage("", tail=True)
            args_done = True
            continue
        if not text.startswith("-") or text == "-":
            positional(text)
            continue
        if text.startswith("--"):
            name = text[2:]
            if name in LONG:
                key = LONG[name]
                if key == "args":
                    further = "args"
                elif key == "jsonargs":
                    further = "jsonargs"
                else:
                    flags.add(key)
                continue
            if name == "indent":
                (val,) = take(1, "jq: --indent takes one parameter")
                try:
                    num = int(val)
                except ValueError:
                    num = -2
                if num < -1 or num > 7:
                    raise Usage("jq: --indent takes a number between -1 and 7")
                o["dumpindent"] = num
                continue
            if name in ("arg", "argjson", "slurpfile", "rawfile"):
                example = {"arg": "--arg varname value", "argjson": "--argjson varname text",
                           "slurpfile": "--slurpfile varname filename",
                           "rawfile": "--rawfile varname filename"}[name]
                vals = take(2, f"jq: --{name} takes two parameters (e.g. {example})")
                o["named"].append((name, vals[0], vals[1]))
                continue
            raise Usage(f"jq: Unknown option {text}")
        for ch in text[1:]:
            key = SHORT.get(ch)
            if key is None:
                raise Usage(f"jq: Unknown option {text}")
            flags.add(key)
    return o, flags


@on_write_error(2, "Error: writing output failed: {strerror}\n")
async def main(shell: Shell, argv: list[str]) -> int:
    return await _main(shell, argv)


async def _main(shell: Shell, argv: list[str]) -> int:
    try:
        o, flags = _parse_args(argv)
    except Usage as u:
        msg = str(u)
        text = (msg + "\n" if msg else "") + (USAGE_TAIL if u.tail else "")
        if not msg:
            text = "Usage:\tjq [OPTIONS] FILTER [FILES...]\n" + USAGE_TAIL
        await shell.stderr.write(encode(text))
        return 2
    if "help" in flags:
        await shell.stdout.write(encode(HELP))
        return 0
    if "version" in flags:
        await shell.stdout.write(encode(VERSION + "\n"))
        return 0
    return await _run(shell, o, flags)


def _host_jq_file_present() -> bool:
    home = os.environ.get("HOME")
    return bool(home) and os.path.lexists(os.path.join(home, ".jq"))


async def _run(shell: Shell, o: dict, flags: set[str]) -> int:
    from pysh.ports import _libjq as L

    err = Out(shell.stderr)

    async def die(msg: str, status: int = 2) -> int:
        await shell.stderr.write(encode(shell.display(msg)))
        return status

    if "stream" in flags:
        return await die("jq: --stream is not supported by pysh\n")

    # ---- the program
    program = o["program"]
    files = list(o["files"])
    if "file" in flags:
        if program is None:
            return await die("Usage:\tjq [OPTIONS] FILTER [FILES...]\n" + USAGE_TAIL)
        try:
            program_bytes = _common.read_file(shell, program)
        except OSError as e:
            return await die(f"jq: Could not open {program}: "
                             f"{os.strerror(e.errno or errno.EIO)}\n")
        program = decode(program_bytes)
        if program.startswith("#!"):
            program = program.split("\n", 1)[1] if "\n" in program else ""
    elif program is None:
        program = "."
    if _MODULE_RE.match(program):
        return await die("jq: error: import, include and module directives are not "
                         "available in the sandbox\njq: 1 compile error\n", 3)
    if _host_jq_file_present():
        return await die("jq: error: refusing to run: libjq would load the host's ~/.jq\n", 2)

    # ---- named and positional arguments
    fds: list[int] = []
    fnames: dict[str, str | None] = {}
    state = ctypes.c_void_p(L.jq_init())
    input_state = ctypes.c_void_p(None)
    keep: list = []  # callbacks must outlive the jq state
    try:
        named = L.jv_object()
        for kind, name, value in o["named"]:
            if kind == "arg":
                v = L.string(encode(value))
            elif kind == "argjson":
                b = encode(value)
                v = L.jv_parse_sized(b, len(b))
                if L.kind(v) == L.KIND_INVALID:
                    L.jv_free(v)
                    L.jv_free(named)
                    return await die("jq: invalid JSON text passed to --argjson\n" + USAGE_TAIL)
            else:
                try:
                    data = _common.read_file(shell, value)
                except OSError as e:
                    L.jv_free(named)
                    what = "--slurpfile" if kind == "slurpfile" else "--rawfile"
                    return await die(f"jq: Bad JSON in {what} {name} {value}: Could not open "
                                     f"{value}: {os.strerror(e.errno or errno.EIO)}\n")
                if kind == "rawfile":
                    v = L.string(data)
                else:
                    vals, perr = L.parse_all(data)
                    if perr is not None:
                        L.jv_free(named)
                        return await die(f"jq: Bad JSON in --slurpfile {name} {value}: {perr}\n")
                    v = L.jv_array()
                    for x in vals:
                        v = L.jv_array_append(v, x)
            named = L.jv_object_set(named, L.string(encode(name)), v)
        positional = L.jv_array()
        for kind, text in o["positional"]:
            b = encode(text)
            if kind == "str":
                v = L.string(b)
            else:
                v = L.jv_parse_sized(b, len(b))
                if L.kind(v) == L.KIND_INVALID:
                    L.jv_free(v)
                    L.jv_free(named)
                    L.jv_free(positional)
                    return await die("jq: invalid JSON text passed to --jsonargs\n" + USAGE_TAIL)
            positional = L.jv_array_append(positional, v)
        env = L.jv_object()
        for k, v in shell.env.items():
            env = L.jv_object_set(env, L.string(encode(k)), L.string(encode(v)))

        # ---- inputs
        input_errors = 0
        need_stdin = not files if "null" not in flags else (not files and "input" in program)
        inputs: list[str] = []
        for name in files:
            if name == "-":
                need_stdin = True
                inputs.append("-")
                continue
            try:
                fd = _common.open_read(shell, name)
            except OSError as e:
                await err.write(encode(f"jq: error: Could not open file {name}: "
                                       f"{os.strerror(e.errno or errno.EIO)}\n"))
                input_errors += 1
                continue
            fds.append(fd)
            import stat as _stat
            st = os.fstat(fd)
            if _stat.S_ISDIR(st.st_mode):
                await err.write(encode(f"jq: error: Could not open file {name}: "
                                       f"{os.strerror(errno.EISDIR)}\n"))
                input_errors += 1
                continue
            # jq's C reader knows no limit: a file past the string limit is refused (a
            # device comes as what it held, already bounded: _common.open_read)
            shell.budget.check_string(st.st_size)
            path = f"/dev/fd/{fd}"
            fnames[path] = name
            inputs.append(path)
        stdin_path = None
        if need_stdin:
            mfd = _common._memfd(await _read_stdin(shell))
            fds.append(mfd)
            stdin_path = f"/dev/fd/{mfd}"
            fnames[stdin_path] = "<stdin>"  # what jq 1.6 reports (1.7+ says null)
            if not files:
                inputs.append("-")
        inputs = [stdin_path if p == "-" else p for p in inputs]
        fn_obj = L.jv_object()
        for path, name in fnames.items():
            fn_obj = L.jv_object_set(fn_obj, L.string(path.encode()),
                                     L.jv_null() if name is None else L.string(encode(name)))

        args = L.jv_copy(named)
        args_obj = L.jv_object_set(L.jv_object(), L.string(b"positional"), positional)
        args_obj = L.jv_object_set(args_obj, L.string(b"named"), named)
        args = L.jv_object_set(args, L.string(b"ARGS"), args_obj)
        args = L.jv_object_set(args, L.string(b"__pysh_env"), env)
        args = L.jv_object_set(args, L.string(b"__pysh_fnames"), fn_obj)
        args = L.jv_object_set(args, L.string(b"__pysh_cap"),
                               L.jv_number(float(shell.budget.limits.max_string_length)))

        # ---- callbacks
        errors: list[bytes] = []
        side: list[bytes] = []

        def on_error(_data, msg):
            if L.kind(msg) == L.KIND_STRING:
                errors.append(L.string_bytes(msg))
                L.jv_free(msg)
            else:
                errors.append(b"jq: error (not a string): " + L.dump(msg))

        dumpopts = _dumpopts(o, flags, L)

        def on_debug(_data, msg):
            arr = L.jv_array_append(L.jv_array_append(L.jv_array(), L.string(b"DEBUG:")), msg)
            side.append(L.dump(arr, dumpopts & ~L.PRINT_PRETTY) + b"\n")

        def on_stderr(_data, msg):
            if L.kind(msg) == L.KIND_STRING:
                side.append(L.string_bytes(msg))
                L.jv_free(msg)
            else:
                side.append(L.dump(msg))

        def on_util_error(_data, msg):
            errors.append(msg or b"")

        cbs = (L.MSG_CB(on_error), L.MSG_CB(on_debug), L.MSG_CB(on_stderr),
               L.UTIL_MSG_CB(on_util_error))
        keep.extend(cbs)
        L.jq_set_error_cb(state, cbs[0], None)
        L.jq_set_debug_cb(state, cbs[1], None)
        L.jq_set_stderr_cb(state, cbs[2], None)
        colors = shell.env.get("JQ_COLORS")
        L.jq_set_colors(encode(colors) if colors else COLORS_16)

        # a guarded `*` joins the prelude's line (compile errors count the program's lines)
        guard, program = _jqguard.unfold(program, shell.budget.limits.max_string_length)
        source = encode(PRELUDE[:-1] + guard + "\n" + program)
        if not L.jq_compile_args(state, source, args):
            text = b"".join(_fix_lines(m) + b"\n" for m in errors)
            await shell.stderr.write(encode(shell.display(decode(text))))
            return 3
        errors.clear()

        input_state = ctypes.c_void_p(L.jq_util_input_init(cbs[3], None))
        parser = None if "rawin" in flags else L.jv_parser_new(1 if "seq" in flags else 0)
        L.jq_util_input_set_parser(input_state, parser, 1 if "slurp" in flags else 0)
        L.jq_set_input_cb(state, L.NEXT_INPUT_CB, input_state)
        for p in inputs:
            L.jq_util_input_add_input(input_state, p.encode())

        out = Out(shell.stdout, shell.budget)
        runner = _Runner(shell, L, state, input_state, flags, dumpopts, fnames, side, errors)
        watchdog = _Watchdog(shell.budget, L, state)
        watchdog.start()
        try:
            for chunk, msg in runner.run():
                if chunk:
                    await out.write(chunk)
                if msg:
                    await err.write(msg)
                if side:
                    await err.write(b"".join(side))
                    side.clear()
                shell.budget.check()
        finally:
            watchdog.stop()
        if watchdog.fired:
            shell.budget.check()
        await out.flush()
        if side:
            await err.write(b"".join(side))
        for m in errors:
            await err.write(encode(shell.display(_map_fds(decode(m), fnames))) + b"\n")
        await err.flush()
        ret = runner.ret
        if runner.halt_code is not None:
            return runner.halt_code
        if input_errors or L.jq_util_input_errors(input_state):
            return 2
        if runner.parse_error:
            return 4  # jq 1.6's status after an input parse error
        if "exit" in flags:
            return {OK: 0, NULL_KIND: 1, NO_OUTPUT: 4, ERROR: 5}.get(ret, 5)
        return ret if ret > 0 else 0
    finally:
        if input_state.value:
            L.jq_util_input_free(ctypes.byref(input_state))
        L.jq_teardown(ctypes.byref(state))
        for fd in fds:
            os.close(fd)
        keep.clear()


async def _read_stdin(shell: Shell) -> bytes:
    buf = bytearray()
    cap = shell.budget.limits.max_string_length
    async for chunk in shell.stdin.chunks():
        buf += chunk
        if len(buf) > cap:
            raise LimitExceeded("string", f"{cap} bytes")
        shell.budget.check()
    return bytes(buf)


def _dumpopts(o: dict, flags: set[str], L) -> int:
    d = L.PRINT_INDENT_FLAGS(o["dumpindent"])
    if o["dumpindent"] == 0:
        d = 0
    if "tab" in flags:
        d = (d & ~L.PRINT_INDENT_FLAGS(7)) | L.PRINT_TAB | L.PRINT_PRETTY
    if "compact" in flags:
        d &= ~(L.PRINT_TAB | L.PRINT_INDENT_FLAGS(7))
    if "sort" in flags:
        d |= L.PRINT_SORTED
    if "ascii" in flags:
        d |= L.PRINT_ASCII
    if "color" in flags and "mono" not in flags:
        d |= L.PRINT_COLOR
    return d


def _fix_lines(msg: bytes) -> bytes:
    """Compile-error locations count the user's program from line 1 (the prelude is line 1)."""
    text = decode(msg)
    text = _LINE_RE.sub(lambda m: m.group(1) + str(max(1, int(m.group(2)) - 1)), text)
    return encode(text)


def _map_fds(text: str, fnames: dict[str, str | None]) -> str:
    def sub(m: re.Match) -> str:
        name = fnames.get(m.group(0), m.group(0))
        return "<stdin>" if name is None else name
    return _FD_RE.sub(sub, text)


class _Watchdog:
    """Halts libjq (checked at every instruction) when the budget runs out or is interrupted."""

    def __init__(self, budget, L, state):
        self.budget = budget
        self.L = L
        self.state = state
        self.fired = False
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._watch, daemon=True, name="jq-watchdog")

    def start(self) -> None:
        if self.budget.deadline is None and not hasattr(self.budget, "interrupt"):
            return
        self._thread.start()

    def _watch(self) -> None:
        while not self._stop.wait(0.05):
            if self.budget.interrupted or self.budget.expired():
                with self._lock:
                    if self._stop.is_set():
                        return
                    if not self.L.jq_halted(self.state):
                        self.fired = True
                        self.L.jq_halt(self.state, self.L.jv_invalid(), self.L.jv_invalid())
                    # a C builtin (a global regex match) does not look at the halt flag:
                    # its next search fails at once (see _jqguard.Brake)
                    _jqguard.Brake.hold(id(self))
                self._stop.wait(_jqguard.BRAKE_SECONDS)
                _jqguard.Brake.release(id(self))
                return

    def stop(self) -> None:
        with self._lock:
            self._stop.set()
        if self._thread.is_alive():
            self._thread.join()
        _jqguard.Brake.release(id(self))


class _Runner:
    """jq's main loop (as jq 1.6 scores it for -e), yielding output in chunks."""

    def __init__(self, shell, L, state, input_state, flags, dumpopts, fnames, side, errors):
        self.shell = shell
        self.L = L
        self.state = state
        self.input_state = input_state
        self.flags = flags
        self.dumpopts = dumpopts
        self.fnames = fnames
        self.ret = NO_OUTPUT
        self.halt_code: int | None = None
        self.parse_error = False

    def run(self):
        L = self.L
        if "null" in self.flags:
            yield from self._process(L.jv_null())
            return
        while not L.jq_util_input_errors(self.input_state):
            value = L.jq_util_input_next_input(self.input_state)
            if L.kind(value) != L.KIND_INVALID:
                yield from self._process(value)
                if self.halt_code is not None:
                    return
                continue
            if not L.jv_invalid_has_msg(L.jv_copy(value)):
                L.jv_free(value)
                return
            msg = L.jv_invalid_get_msg(value)
            text = L.string_bytes(msg)
            L.jv_free(msg)
            if "seq" in self.flags:  # --seq: parse errors are not fatal
                yield b"", encode(self.shell.display(
                    _map_fds(decode(b"ignoring parse error: " + text), self.fnames))) + b"\n"
                continue
            self.parse_error = True
            yield b"", encode(self.shell.display(
                _map_fds(decode(b"parse error: " + text), self.fnames))) + b"\n"
            return

    def _process(self, value):
        L = self.L
        flags = self.flags
        raw = "raw" in flags or "join" in flags
        nolf = "join" in flags
        ascii_ = "ascii" in flags
        seq = "seq" in flags
        buf = bytearray()
        ret = NO_OUTPUT
        L.jq_start(self.state, value, 0)
        n = 0
        cap = self.shell.budget.limits.max_string_length
        while True:
            result = L.jq_next(self.state)
            k = L.kind(result)
            if k == L.KIND_INVALID:
                break
            size = L.jv_string_length_bytes(L.jv_copy(result)) if k == L.KIND_STRING else 0
            if size > cap:
                # a string past the limit that one C call built (a guarded `*` stops first)
                L.jv_free(result)
                raise LimitExceeded("string", f"{cap} bytes")
            if size > _LONG and (not raw or ascii_) and not self.dumpopts & L.PRINT_COLOR:
                # jq's printer is one C call, a character at a time: escape it here in
                # pieces, with the deadline polled between them (jq's text, byte for byte)
                ret = OK
                data = L.string_bytes(result)
                L.jv_free(result)
                total = len(buf)
                if seq and not raw:
                    buf += b"\x1e"
                for part in _jqguard.dump_string(data, ascii_):
                    buf += part
                    total += len(part)
                    if total > cap:
                        raise LimitExceeded("string", f"{cap} bytes")
                    if len(buf) >= 65536:
                        yield bytes(buf), b""
                        buf.clear()
                if not nolf:
                    buf += b"\n"
                continue
            if raw and k == L.KIND_STRING:
                if ascii_:
                    buf += L.dump(result, L.PRINT_ASCII)
                else:
                    buf += L.string_bytes(result)
                    L.jv_free(result)
                ret = OK
            else:
                ret = NULL_KIND if k in (L.KIND_FALSE, L.KIND_NULL) else OK
                if seq:
                    buf += b"\x1e"
                buf += L.dump(result, self.dumpopts)
            if not nolf:
                buf += b"\n"
            if len(buf) > cap:  # one value printed past the limit (an array holding such a string)
                raise LimitExceeded("string", f"{cap} bytes")
            n += 1
            if len(buf) >= 65536 or n >= 256:
                yield bytes(buf), b""
                buf.clear()
                n = 0
        msg_out = b""
        if L.jq_halted(self.state):
            code = L.jq_get_exit_code(self.state)
            em = L.jq_get_error_message(self.state)
            if L.kind(em) == L.KIND_OBJECT and L.dump(L.jv_copy(em)) == _LIMIT_MSG:
                L.jv_free(code)
                L.jv_free(em)
                L.jv_free(result)
                raise self.shell.budget.string_error()
            if L.kind(code) == L.KIND_INVALID:
                self.halt_code = 0
            elif L.kind(code) == L.KIND_NUMBER:
                self.halt_code = int(L.jv_number_value(code)) & 0xFF
            else:
                self.halt_code = 5
            L.jv_free(code)
            ek = L.kind(em)
            if ek == L.KIND_STRING:
                msg_out = L.string_bytes(em)
                L.jv_free(em)
            elif ek == L.KIND_NULL or ek == L.KIND_INVALID:
                L.jv_free(em)
            else:
                msg_out = L.dump(em) + b"\n"
            L.jv_free(result)
        elif L.jv_invalid_has_msg(L.jv_copy(result)):
            msg = L.jv_invalid_get_msg(result)
            pos = L.jq_util_input_get_position(self.state)
            where = _map_fds(decode(L.string_bytes(pos)), self.fnames)
            L.jv_free(pos)
            if L.kind(msg) == L.KIND_STRING:
                text = decode(L.string_bytes(msg))
                L.jv_free(msg)
                line = f"jq: error (at {where}): {text}\n"
            else:
                line = f"jq: error (at {where}) (not a string): {decode(L.dump(msg))}\n"
            msg_out = encode(self.shell.display(line))
            ret = ERROR
        else:
            L.jv_free(result)
        self.ret = ret
        yield bytes(buf), msg_out
