"""``pysh mcp``: the sandbox as an MCP server (the ``mcp`` Python SDK).

    pysh mcp [--sandbox DIR] [--workspace /batch] [--mount HOST[:VIRTUAL][:ro|:overlay]]...
             [--read-only | --overlay] [--env NAME[=VALUE]]... [--timeout S] [--commands MODULE]...
             [--http [HOST:]PORT]

Serves over stdio by default; ``--http`` serves Streamable HTTP (bound to
127.0.0.1 unless a host is given) at ``/mcp``. Tools:

* ``bash(command, timeout?)``: runs in one persistent shell session per MCP
  session (cwd, variables and functions persist between calls). The result is
  text (stdout, then stderr, then the exit status when non-zero) with
  ``isError`` set when the exit status is non-zero.
* ``read_file(path)`` / ``write_file(path, content)``: through the sandbox's
  FileSystem door, relative to the session's cwd.

Nothing the script does is a protocol error: syntax errors, denied paths and
timeouts all come back as tool results.
"""

# No ``from __future__ import annotations`` here: the SDK reads the tool functions'
# annotations with typing.get_type_hints, which must resolve them at run time.

import os
import re
import sys
import weakref

USAGE = """\
usage: pysh mcp [sandbox options] [--http [HOST:]PORT]

Serve the sandbox over MCP (stdio by default) with a `bash` tool and
read_file/write_file helpers; one persistent shell session per MCP session.

options:
  --sandbox DIR            host directory of the workspace (default: a fresh
                           empty directory per session, removed at the end)
  --workspace PATH         where the workspace is mounted (default /batch)
  --mount HOST[:VIRTUAL][:ro|:overlay]   mount another host directory (repeatable)
  --read-only              mount the workspace read-only
  --overlay                mount the workspace as an overlay: each session writes to
                           its own private layer, the host directory stays unchanged
  --allow-home             allow your home directory (or an ancestor) as a mount
  --env NAME[=VALUE]       pass a host variable, or set one (repeatable)
  --timeout SECONDS        default wall-clock limit of one tool call (default 120)
  --limit NAME=VALUE       set one limit (repeatable; a field of pysh.Limits, sizes
                           with K/M/G, `none` lifts it)
  --no-strict              start from the default limits instead of the strict ones
                           (the server's callers are untrusted: by default every
                           limit is Limits.strict()'s, but the timeout is 120 s)
  --commands MODULE        load extra in-process commands from a Python module
  --allow-url PREFIX       let curl/wget reach URLs under PREFIX (repeatable;
                           the network is off without one)
  --allow-host HOST        let curl/wget reach any path on HOST over https
                           (http://HOST for plain http too; repeatable)
  --net-methods, --net-max-bytes, --net-timeout, --net-header: as for pysh
  --http [HOST:]PORT       serve Streamable HTTP at http://HOST:PORT/mcp
                           (HOST defaults to 127.0.0.1)
  --state-dir DIR          save the session (shell state, overlay changes, /tmp) in
                           DIR after each call and resume it when the server restarts
                           (stdio: the one session; HTTP: each by its Mcp-Session-Id)
"""

DEFAULT_TIMEOUT = 120.0
SERVER_NAME = "pysh"
INSTRUCTIONS = (
    "pysh is a sandboxed bash shell. The `bash` tool runs a script in a persistent "
    "session: the working directory starts at the workspace, /tmp is private scratch "
    "space, and state (cwd, variables, functions) persists between calls. Only the "
    "workspace, /tmp and any extra mounts exist; no host program can run{network}. "
    "`read_file` and `write_file` read and write files directly."
)


def instructions(options) -> str:
    """The server's instructions: what the network reaches, when the options allow any."""
    allow = getattr(options, "allow", None)
    if not allow:
        return INSTRUCTIONS.format(network="; there is no network")
    return INSTRUCTIONS.format(network="; curl and wget reach only these URL prefixes: "
                               + ", ".join(allow))


class _UsageError(Exception):
    pass


def parse_args(argv):
    """(cli Options, http (host, port) or None)."""
    from pysh import cli

    http = None
    state_dir = None
    rest = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("-h", "--help"):
            raise SystemExit(_help())
        if a == "--state-dir" or a.startswith("--state-dir="):
            if "=" in a:
                state_dir = a.split("=", 1)[1]
            else:
                i += 1
                if i >= len(argv):
                    raise _UsageError("--state-dir: option requires an argument")
                state_dir = argv[i]
        elif a == "--http" or a.startswith("--http="):
            if "=" in a:
                spec = a.split("=", 1)[1]
            else:
                i += 1
                if i >= len(argv):
                    raise _UsageError("--http: option requires an argument")
                spec = argv[i]
            http = _parse_http(spec)
        else:
            rest.append(a)
        i += 1
    try:
        o = cli.parse_cli(rest)
    except cli.UsageError as e:
        raise _UsageError(str(e)) from None
    if o.command is not None or o.file is not None or o.interactive or o.json or o.noexec \
            or o.changes or o.apply:
        raise _UsageError("mcp takes sandbox options only (no script, -c, -i, -n, --json, "
                          "--changes or --apply: the changes, diff and apply_changes tools "
                          "do that)")
    if o.strict is None:
        o.strict = True  # the callers are untrusted: Limits.strict() unless told otherwise
    if o.timeout is None and "timeout" not in o.limits:
        o.timeout = DEFAULT_TIMEOUT
    if state_dir is not None:
        if not os.path.isdir(state_dir):
            raise _UsageError(f"--state-dir: not a directory: {state_dir}")
    o.state_dir = state_dir
    return o, http


def _help() -> int:
    sys.stdout.write(USAGE)
    return 0


def _parse_http(spec: str):
    host, sep, port = spec.rpartition(":")
    if not sep:
        host = "127.0.0.1"
    host = host.strip("[]") or "127.0.0.1"
    try:
        n = int(port)
    except ValueError:
        raise _UsageError(f"--http: invalid port: {port}") from None
    if not 0 <= n <= 65535:
        raise _UsageError(f"--http: invalid port: {port}")
    return host, n


class SessionSandboxes:
    """One :class:`pysh.Sandbox` per MCP session, created on first use (``factory(session)``),
    closed with it."""

    def __init__(self, factory) -> None:
        self._factory = factory
        self._by_key: dict = {}
        self._weak: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def get(self, session):
        try:
            sb = self._weak.get(session)
        except TypeError:  # not weak-referenceable: keep it by identity
            sb = self._by_key.get(id(session))
            if sb is None:
                sb = self._by_key[id(session)] = self._factory(session)
            return sb
        if sb is None or sb.closed:
            sb = self._factory(session)
            self._weak[session] = sb
            weakref.finalize(session, sb.close)
        return sb

    def close_all(self) -> None:
        for sb in list(self._weak.values()) + list(self._by_key.values()):
            sb.close()
        self._by_key.clear()


def build_server(options, sandbox_factory=None):
    """The MCPServer for these CLI options (and the per-session sandbox table)."""
    from mcp.server.mcpserver import Context, MCPServer
    from mcp.types import CallToolResult, TextContent, ToolAnnotations

    from pysh import cli
    from pysh.api import TOOL_DESCRIPTION, Sandbox
    from pysh.shellkit import FileSystemError

    state_dir = getattr(options, "state_dir", None)
    state_files: dict[int, str] = {}  # id(sandbox) -> where --state-dir keeps its session
    if sandbox_factory is None:
        def make():
            ex = cli.build_instance(options)
            return Sandbox._from_instance(ex, set_on=options.set_on, set_off=options.set_off)

        def sandbox_factory(session=None):
            sb = make()
            path = state_file(state_dir, session)
            if path is not None:
                if not _resume(sb, path):
                    sb.close()  # half restored: start afresh
                    sb = make()
                state_files[id(sb)] = path
                weakref.finalize(sb, state_files.pop, id(sb), None)
            return sb

    async def persist(sb) -> None:
        """--state-dir: the session saved after each call (a restart resumes it)."""
        path = state_files.get(id(sb))
        if path is not None:
            await sb._between_calls(_save, sb, path)

    sandboxes = SessionSandboxes(sandbox_factory)
    server = MCPServer(SERVER_NAME, instructions=instructions(options), log_level="WARNING",
                       version=_version())

    def text_result(text: str, is_error: bool) -> CallToolResult:
        return CallToolResult(content=[TextContent(type="text", text=text)], is_error=is_error)

    def session_of(ctx: Context):
        # The SDK builds a ServerSession per request; the connection behind it is what
        # lives as long as the MCP session (stdio: the process; HTTP: the Mcp-Session-Id).
        session = ctx.request_context.session
        return getattr(session, "_connection", None) or session

    async def bash(command: str, ctx: Context, timeout: float | None = None) -> CallToolResult:
        sb = sandboxes.get(session_of(ctx))
        if timeout is not None and not timeout > 0:
            return text_result("[tool error: \"timeout\" must be a positive number of seconds]\n", True)
        r = await sb.arun(command, timeout=timeout)
        await persist(sb)
        return text_result(_json_safe(r.for_llm()), r.exit_code != 0)

    async def read_file(path: str, ctx: Context) -> CallToolResult:
        sb = sandboxes.get(session_of(ctx))
        cap = sb.limits.max_output_bytes

        def read() -> bytes:
            with sb.fs.open(path, "rb") as f:
                return f.read(cap + 1 if cap is not None else -1)

        try:
            data = await sb._on_worker(read)  # the session's thread: its kernel floor, its turn
        except FileSystemError as e:
            return text_result(f"read_file: {e}\n", True)
        text = data.decode("utf-8", "replace")
        if cap is not None and len(data) > cap:
            text = data[:cap].decode("utf-8", "replace") + \
                f"\n[read_file: truncated: the file is larger than the {cap}-byte limit]\n"
        return text_result(text, False)

    async def write_file(path: str, content: str, ctx: Context) -> CallToolResult:
        sb = sandboxes.get(session_of(ctx))
        data = content.encode("utf-8")
        cap = sb.limits.max_file_size  # the caller's file obeys the script's file limit
        if cap is not None and len(data) > cap:
            return text_result(f"write_file: {path}: file size: limit exceeded ({cap} bytes)\n",
                               True)

        def write() -> str:
            fs = sb.fs
            fs.write_bytes(path, data)
            return fs.abspath(path)

        try:
            where = await sb._on_worker(write)
        except FileSystemError as e:
            return text_result(f"write_file: {e}\n", True)
        await persist(sb)
        return text_result(f"wrote {len(data)} bytes to {where}\n", False)

    async def between_calls(ctx: Context, fn):
        sb = sandboxes.get(session_of(ctx))
        try:
            result = await sb._between_calls(fn, sb)
        except (FileSystemError, OSError) as e:
            return text_result(f"[tool error: {getattr(e, 'strerror', None) or e}]\n", True)
        await persist(sb)
        return result

    async def changes(ctx: Context) -> CallToolResult:
        from pysh import changeset

        def fn(sb):
            return text_result(changeset.json_text(sb._ex.changes()), False)

        return await between_calls(ctx, fn)

    async def diff(ctx: Context, stat: bool = False) -> CallToolResult:
        from pysh import changeset

        def fn(sb):
            render = changeset.stat_text if stat else changeset.diff_text
            text = render(sb._ex, sb._ex.changes(), sb.workspace)
            return text_result(_json_safe(text) or "(no changes)\n", False)

        return await between_calls(ctx, fn)

    async def apply_changes(ctx: Context, paths: list[str] | None = None) -> CallToolResult:
        def fn(sb):
            r = sb._ex.apply_changes(sb._virtual_paths(paths))
            lines = [f"applied {p}" for p in r.applied]
            lines += [f"conflict {p}: {why}" for p, why in r.conflicts]
            if r.conflicts:
                lines.append("nothing applied (all or nothing)")
            return text_result("\n".join(lines or ["(no changes)"]) + "\n", bool(r.conflicts))

        return await between_calls(ctx, fn)

    async def discard_changes(ctx: Context) -> CallToolResult:
        def fn(sb):
            sb._ex.discard_changes()
            return text_result("discarded\n", False)

        return await between_calls(ctx, fn)

    if options.overlay or any(k == "overlay" for *_, k in options.mounts):
        ro = ToolAnnotations(read_only_hint=True, open_world_hint=False)
        server.add_tool(changes, name="changes", annotations=ro,
                        description="List what the session changed in the overlaid workspace "
                                    "(JSON: path, status added/modified/deleted, kind, sizes, "
                                    "modes, symlink targets). The host directory is untouched "
                                    "until apply_changes.")
        server.add_tool(diff, name="diff", annotations=ro,
                        description="The session's changes as a unified diff in git's format "
                                    "(stat=true: the --stat summary).")
        server.add_tool(apply_changes, name="apply_changes",
                        annotations=ToolAnnotations(destructive_hint=True, open_world_hint=False),
                        description="Write the session's changes (all, or those at or beneath "
                                    "`paths`) to the host directory. A file changed on the host "
                                    "since the session read it is a conflict, and any "
                                    "conflict refuses the whole apply (nothing is written).")
        server.add_tool(discard_changes, name="discard_changes",
                        annotations=ToolAnnotations(destructive_hint=True, open_world_hint=False),
                        description="Drop every change of the session: the workspace shows the "
                                    "host directory again.")
    server.add_tool(bash, name="bash", description=TOOL_DESCRIPTION,
                    annotations=ToolAnnotations(title="Run bash in the sandbox", open_world_hint=False))
    server.add_tool(read_file, name="read_file",
                    description="Read a text file of the sandbox (a virtual path, absolute or "
                                "relative to the shell's current directory).",
                    annotations=ToolAnnotations(title="Read a file", read_only_hint=True,
                                                open_world_hint=False))
    server.add_tool(write_file, name="write_file",
                    description="Create or overwrite a text file of the sandbox with `content` "
                                "(a virtual path, absolute or relative to the shell's cwd).",
                    annotations=ToolAnnotations(title="Write a file", destructive_hint=True,
                                                open_world_hint=False))
    return server, sandboxes


_SESSION_ID = re.compile(r"[A-Za-z0-9_-]{1,128}")


def state_file(state_dir: str | None, session) -> str | None:
    """Where ``--state-dir`` keeps a session: ``session.snapshot`` for the one stdio
    session, ``session-<Mcp-Session-Id>.snapshot`` for an HTTP one (None: not kept)."""
    if not state_dir:
        return None
    sid = getattr(session, "session_id", None)
    if sid is None:
        return os.path.join(state_dir, "session.snapshot")
    if not isinstance(sid, str) or not _SESSION_ID.fullmatch(sid):
        return None
    return os.path.join(state_dir, f"session-{sid}.snapshot")


def resumable(manager, state_dir: str) -> None:
    """Let the HTTP sessions saved in ``state_dir`` outlive the server: a request naming a
    session id the (restarted) server does not know, but whose state is saved, brings
    the session back under that id (the client saw nothing but a dropped connection);
    its first tool call restores the shell. A DELETE ends a session and drops its state.

    The SDK answers an unknown id with 404 and has no hook for this, so the revival
    goes through its session manager's own steps (admit a transport under the id, serve
    it; a ``notifications/initialized`` opens it as the handshake had); should the SDK
    change underneath, a request gets the 404 it would have had anyway."""
    from mcp.server.streamable_http import StreamableHTTPServerTransport

    inner = manager._handle_stateful_request

    async def handle(scope, receive, send) -> None:
        sid = _header(scope, b"mcp-session-id")
        path = state_file(state_dir, _Sid(sid)) if sid else None
        if path is not None and scope.get("method") == "DELETE":
            # the state goes before the answer does: a client that saw its DELETE answered
            # must find no state left, even if the server stops right after
            try:
                os.unlink(path)
            except OSError:
                pass
            await inner(scope, receive, send)
            return
        if path is not None and os.path.isfile(path):
            try:
                async with manager._session_creation_lock:
                    revive = sid not in manager._server_instances and (
                        manager.max_sessions is None
                        or len(manager._server_instances) < manager.max_sessions)
                    if revive:
                        transport = StreamableHTTPServerTransport(
                            mcp_session_id=sid, is_json_response_enabled=manager.json_response,
                            event_store=manager.event_store,
                            security_settings=manager.security_settings,
                            retry_interval=manager.retry_interval,
                            idle_timeout=manager.session_idle_timeout)
                        manager._server_instances[sid] = transport
                if revive:
                    await manager._serve_opening_request(transport, *_initialized(scope, sid))
            except (AttributeError, TypeError):
                pass  # not this SDK: the 404
        await inner(scope, receive, send)

    manager._handle_stateful_request = handle


class _Sid:
    __slots__ = ("session_id",)

    def __init__(self, sid: str) -> None:
        self.session_id = sid


def _header(scope, name: bytes) -> str | None:
    for k, v in scope.get("headers") or ():
        if k.lower() == name:
            return v.decode("latin-1")
    return None


def _initialized(scope, sid: str):
    """(scope, receive, send) of a ``notifications/initialized`` POST in session ``sid``,
    from the headers of the client's own request (host, origin, protocol version)."""
    body = b'{"jsonrpc":"2.0","method":"notifications/initialized"}'
    keep = {b"host", b"origin", b"mcp-protocol-version", b"authorization"}
    headers = [(k, v) for k, v in scope.get("headers") or () if k.lower() in keep]
    headers += [(b"content-type", b"application/json"),
                (b"accept", b"application/json, text/event-stream"),
                (b"mcp-session-id", sid.encode()), (b"content-length", str(len(body)).encode())]
    sent = False

    async def receive():
        nonlocal sent
        if sent:
            return {"type": "http.disconnect"}
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message) -> None:
        pass

    return dict(scope, method="POST", headers=headers), receive, send


def _save(sb, path: str) -> None:
    data = sb._snapshot()  # between calls: the session's lock is held
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def _resume(sb, path: str) -> bool:
    """Restore the saved session into a fresh sandbox; one that cannot be restored (the
    workspace changed underneath, a damaged file) is set aside and the session starts
    afresh."""
    from pysh.shellkit.snapshot import SnapshotError

    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        return True
    try:
        sb._load_snapshot(data)
    except SnapshotError as e:
        sys.stderr.write(f"pysh mcp: --state-dir: not resumed: {e}\n")
        os.replace(path, path + ".unusable")
        return False
    return True


async def _serve_http(server, host: str, port: int, state_dir: str | None) -> None:
    """``server.run_streamable_http_async``, with the sessions made resumable first."""
    import uvicorn

    app = server.streamable_http_app(host=host)
    if state_dir:
        resumable(server.session_manager, state_dir)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning")
    await uvicorn.Server(config).serve()


def _json_safe(text: str) -> str:
    """Lone surrogates (undecodable bytes) cannot travel in JSON text: show them as U+FFFD."""
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _version() -> str:
    from pysh import __version__

    return __version__


def main(argv) -> int:
    try:
        options, http = parse_args(list(argv))
    except _UsageError as e:
        sys.stderr.write(f"pysh mcp: {e}\n{USAGE}")
        return 2
    except SystemExit as e:
        return int(e.code or 0)
    try:
        import mcp.server.mcpserver  # noqa: F401
    except ImportError:
        sys.stderr.write("pysh mcp: the `mcp` package (>= 2) is not installed\n")
        return 1
    # Check the options once (a bad --sandbox/--mount fails now, not at the first call).
    from pysh import cli
    from pysh.shellkit import MountError

    try:
        probe = cli.build_instance(options)
        probe.open()
        probe.close()
    except cli.UsageError as e:
        sys.stderr.write(f"pysh mcp: {e}\n")
        return 2
    except MountError as e:
        sys.stderr.write(f"pysh mcp: {e}\n")
        return 2
    server, sandboxes = build_server(options)
    import anyio

    from pysh.shellkit.tempdirs import install_signal_cleanup

    # SIGTERM/SIGHUP/SIGINT: every session's sandbox directories go, then the server ends
    # by the signal (a worker thread stuck in a call cannot hold the exit up)
    install_signal_cleanup()
    try:
        if http is None:
            anyio.run(server.run_stdio_async)
        else:
            host, port = http
            anyio.run(_serve_http, server, host, port, options.state_dir)
    except KeyboardInterrupt:
        pass
    finally:
        sandboxes.close_all()
    return 0
