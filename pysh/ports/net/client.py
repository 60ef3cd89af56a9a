"""The HTTP engine under curl and wget: checked, resolved once, connected to what was checked.

One :class:`Client` per command invocation. :meth:`Client.send` takes one request
(the commands follow redirects themselves and call it again for each hop) and:

1. checks the URL against the sandbox's :class:`~pysh.shellkit.network.Network`
   (no policy: the network is off) and the method against its methods;
2. resolves the host once (an IP literal is its own address; ``localhost`` is the
   loopback addresses; any other name goes to the embedder's resolver or the
   system's, on a thread the kernel floor does not restrict: only names the
   allow-list covers are ever looked up);
3. keeps only the addresses the policy allows (no loopback/private/link-local/...
   unless the entry names that address) and *pins* them: the connection pool's
   network backend connects only to a pinned address of that host and port, while
   TLS keeps the host name for SNI and certificate checks;
4. adds the embedder's injected headers for that URL (replacing the script's own).

HTTP/1.1 is h11's (the protocol engine under httpx and httpcore), the streams
and TLS are anyio's over the standard library's ssl; one connection per host and
port is kept alive for the command's next request. Nothing here reads the host's
proxy variables, netrc or cookie files. (httpcore itself is not used: importing it
imports trio where trio is installed, and trio's import starts a process.)
"""

from __future__ import annotations

import ipaddress
import re
import socket
import ssl
import threading
import time

import anyio
import anyio.abc
import h11
from anyio.streams.tls import TLSStream

from pysh.shellkit import landlock, worker
from pysh.shellkit.network import LOCALHOST, URL, Network

READ_SIZE = 256 * 1024
MAX_HEADER_BYTES = 256 * 1024  # a response head larger than this is a protocol error


class NetError(Exception):
    """A failed transfer. ``kind``: off, blocked, method, private, resolve, connect,
    connect_timeout, tls, tls_verify, send, recv, empty, partial, protocol."""

    def __init__(self, kind: str, url: URL | None = None, detail: str = "", **info) -> None:
        super().__init__(kind, detail)
        self.kind = kind
        self.url = url
        self.detail = detail
        self.info = info


# -- work that must not run under the kernel floor ------------------------------------------
async def off_floor(fn, *args):
    """``fn(*args)`` on a thread the kernel floor does not restrict (a fresh one, started
    by pysh's unrestricted service thread when called from a sandbox's worker)."""
    if worker.current() is None and not landlock.thread_is_restricted():
        return await anyio.to_thread.run_sync(fn, *args, abandon_on_cancel=True)
    done = threading.Event()
    box: dict = {}

    def job() -> None:
        try:
            box["value"] = fn(*args)
        except BaseException as e:  # noqa: BLE001 - handed back below
            box["error"] = e
        finally:
            done.set()

    worker.unrestricted(lambda: threading.Thread(target=job, name="pysh-net", daemon=True).start())
    await anyio.to_thread.run_sync(done.wait, abandon_on_cancel=True)
    if "error" in box:
        raise box["error"]
    return box["value"]


_CA_CANDIDATES = ("/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt",
                  "/etc/ssl/cert.pem", "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem")
_ssl_context: ssl.SSLContext | None = None
_ssl_lock = threading.Lock()


def _make_ssl_context() -> ssl.SSLContext:
    """The system's CA bundle, loaded whole (a CA directory would be read lazily, at each
    handshake, where the kernel floor refuses it); never SSL_CERT_* from the environment."""
    global _ssl_context
    with _ssl_lock:
        if _ssl_context is None:
            ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
            ctx.minimum_version = ssl.TLSVersion.TLSv1_2
            import os

            paths = ssl.get_default_verify_paths()
            for cafile in (paths.openssl_cafile, *_CA_CANDIDATES):
                if cafile and os.path.isfile(cafile):
                    try:
                        ctx.load_verify_locations(cafile=cafile)
                        break
                    except (OSError, ssl.SSLError):
                        continue
            _ssl_context = ctx
    return _ssl_context


async def ssl_context() -> ssl.SSLContext:
    if _ssl_context is not None:
        return _ssl_context
    return await off_floor(_make_ssl_context)


def _system_resolve(host: str) -> list[str]:
    try:
        infos = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError, OSError):
        return []
    out: list[str] = []
    for family, *_rest, addr in infos:
        if family in (socket.AF_INET, socket.AF_INET6) and addr[0] not in out:
            out.append(addr[0])
    return out


# -- connections ----------------------------------------------------------------------------
class _Conn:
    """One HTTP/1.1 connection to a pinned address."""

    __slots__ = ("stream", "proto", "number", "host", "ip", "reused")

    def __init__(self, stream: anyio.abc.ByteStream, number: int, host: str, ip: str) -> None:
        self.stream = stream
        self.reused = False  # kept alive from an earlier request (the server may have closed it)
        self.proto = h11.Connection(h11.CLIENT, max_incomplete_event_size=MAX_HEADER_BYTES)
        self.number = number
        self.host = host
        self.ip = ip

    async def close(self) -> None:
        with anyio.CancelScope(shield=True):
            try:
                await self.stream.aclose()
            except Exception:  # noqa: BLE001 - dropped either way
                pass


class Response:
    """Status line and headers of one response; iterate :meth:`chunks` for the body."""

    def __init__(self, client: Client, conn: _Conn, url: URL, event: h11.Response) -> None:
        self.client = client
        self.conn: _Conn | None = conn
        self.url = url
        self.status: int = event.status_code
        self.version = "HTTP/" + event.http_version.decode("ascii", "replace")
        self.reason: str = event.reason.decode("latin-1")
        self.headers: list[tuple[str, str]] = [
            (k.decode("latin-1"), v.decode("latin-1")) for k, v in _raw_items(event.headers)]
        self.done = False

    def header(self, name: str) -> str | None:
        name = name.lower()
        for k, v in self.headers:
            if k.lower() == name:
                return v
        return None

    async def chunks(self):
        conn = self.conn
        if conn is None or self.done:
            return
        while True:
            event = await self.client._next_event(conn, self.url, body=True)
            if isinstance(event, h11.Data):
                yield bytes(event.data)
            elif isinstance(event, h11.EndOfMessage | h11.ConnectionClosed):
                self.done = True
                return

    async def aclose(self) -> None:
        """Keep the connection for the next request when the exchange ended cleanly."""
        conn, self.conn = self.conn, None
        if conn is None:
            return
        p = conn.proto
        if self.done and p.our_state is h11.DONE and p.their_state is h11.DONE:
            p.start_next_cycle()
            await self.client._keep(self.url, conn)
        else:
            await conn.close()
            self.client.trace(f"* Closing connection {conn.number}")


def _raw_items(headers):
    """The headers as the server cased them."""
    return headers.raw_items()


_PARTIAL = re.compile(r"received (\d+) bytes, expected (\d+)")


class Client:
    """One command's connections; ``trace`` receives curl -v style ``*`` lines."""

    def __init__(self, network: Network | None, *, connect_timeout: float | None = None,
                 trace=None) -> None:
        self.network = network
        self.connect_timeout = connect_timeout
        self.pins: dict[tuple[str, int], list[str]] = {}
        self._resolved: dict[str, list[str]] = {}
        self._idle: dict[tuple[str, str, int], _Conn] = {}
        self._trace = trace
        self.connections = 0
        self.primary: tuple[str, int] = ("", 0)
        self.local: tuple[str, int] = ("", 0)
        self.t_resolved = self.t_connected = 0.0

    def trace(self, line: str) -> None:
        if self._trace is not None:
            self._trace(line)

    # -- the checks ---------------------------------------------------------------------
    def check(self, method: str, url: URL) -> None:
        """Raise NetError unless the policy allows ``method`` on ``url`` (no I/O)."""
        net = self.network
        if net is None or not net.enabled:
            raise NetError("off", url)
        if net.rule_for(url) is None:
            raise NetError("blocked", url)
        if not net.method_allowed(method):
            raise NetError("method", url, method)

    async def _addresses(self, url: URL) -> list[str]:
        host = url.host
        found = self._resolved.get(host)
        if found is None:
            lit = url.literal()
            if lit is not None:
                found = [str(lit)]
            elif host == "localhost" or host.endswith(".localhost"):
                found = list(LOCALHOST)
            else:
                resolver = self.network.resolver if self.network else None
                found = [str(a) for a in await off_floor(resolver or _system_resolve, host)]
            self._resolved[host] = found
        if not found:
            raise NetError("resolve", url)
        allowed = []
        for a in found:
            try:
                ip = ipaddress.ip_address(a)
            except ValueError:
                continue
            if self.network.address_allowed(url, ip):
                allowed.append(str(ip))
        if not allowed:
            raise NetError("private", url, found[0])
        return allowed

    # -- one request ----------------------------------------------------------------------
    async def send(self, method: str, url: URL, headers: list[tuple[str, str]],
                   body: bytes | None) -> Response:
        """Check, resolve, connect (or reuse), send the request and read the response head."""
        self.check(method, url)
        t0 = time.monotonic()
        addrs = self.pins[(url.host, url.port)] = await self._addresses(url)
        self.t_resolved = time.monotonic() - t0
        injected = self.network.injected_headers(url)
        if injected:
            names = {k.lower() for k, _ in injected}
            headers = [(k, v) for k, v in headers if k.lower() not in names] + injected
        try:
            request = h11.Request(method=method, target=url.target.encode("ascii"),
                                  headers=[(k.encode("latin-1"), v.encode("latin-1"))
                                           for k, v in headers])
        except (h11.LocalProtocolError, UnicodeError) as e:
            raise NetError("protocol", url, str(e)) from None
        key = (url.scheme, url.host, url.port)
        conn = self._idle.pop(key, None)
        if conn is not None:
            self.trace(f"* Re-using existing connection #{conn.number} with host {url.host}")
            conn.reused = True
            try:
                return await self._exchange(conn, url, request, body)
            except _Stale:
                await conn.close()
        conn = await self._connect(url, addrs)
        self.t_connected = time.monotonic() - t0
        return await self._exchange(conn, url, request, body)

    async def _connect(self, url: URL, addrs: list[str]) -> _Conn:
        last: NetError | None = None
        for ip in addrs:
            shown = f"[{ip}]" if ":" in ip else ip
            self.trace(f"*   Trying {shown}:{url.port}...")
            try:
                with anyio.fail_after(self.connect_timeout):
                    stream = await anyio.connect_tcp(ip, url.port)
            except TimeoutError:
                raise NetError("connect_timeout", url) from None
            except OSError as e:
                last = NetError("connect", url, _strerror(e))
                continue
            try:
                local = stream.extra(anyio.abc.SocketAttribute.local_address)
            except Exception:  # noqa: BLE001
                local = ("", 0)
            self.primary, self.local = (ip, url.port), (str(local[0]), int(local[1]))
            number = self.connections
            self.connections += 1
            self.trace(f"* Connected to {url.host} ({ip}) port {url.port} (#{number})")
            if url.scheme == "https":
                stream = await self._tls(stream, url)
            return _Conn(stream, number, url.host, ip)
        raise last if last is not None else NetError("connect", url)

    async def _tls(self, stream, url: URL):
        ctx = await ssl_context()
        try:
            with anyio.fail_after(self.connect_timeout):
                tls = await TLSStream.wrap(stream, hostname=url.host, ssl_context=ctx,
                                           standard_compatible=False)
        except TimeoutError:
            await _close(stream)
            raise NetError("connect_timeout", url) from None
        except BaseException as e:
            await _close(stream)
            cause = e if isinstance(e, ssl.SSLError) else (e.__cause__ or e.__context__)
            if isinstance(cause, ssl.SSLCertVerificationError):
                raise NetError("tls_verify", url, cause.verify_message or
                               "certificate verify failed") from None
            if isinstance(cause, ssl.SSLError):
                raise NetError("tls", url, cause.reason or "TLS handshake failed") from None
            if isinstance(e, Exception):
                raise NetError("tls", url, "TLS handshake failed") from None
            raise
        self.trace(f"* SSL connection using {tls.extra(anyio.streams.tls.TLSAttribute.tls_version, '')}"
                   f" / {(tls.extra(anyio.streams.tls.TLSAttribute.cipher, None) or ('',))[0]}")
        return tls

    async def _exchange(self, conn: _Conn, url: URL, request: h11.Request,
                        body: bytes | None) -> Response:
        p = conn.proto
        try:
            await conn.stream.send(p.send(request))
            if body:
                await conn.stream.send(p.send(h11.Data(data=body)))
            await conn.stream.send(p.send(h11.EndOfMessage()))
        except h11.LocalProtocolError as e:
            await conn.close()
            raise NetError("protocol", url, str(e)) from None
        except (anyio.BrokenResourceError, anyio.ClosedResourceError, OSError) as e:
            if conn.reused:
                raise _Stale() from None
            await conn.close()
            raise NetError("send", url, _strerror(e)) from None
        while True:
            event = await self._next_event(conn, url, body=False)
            if isinstance(event, h11.Response):
                return Response(self, conn, url, event)
            # 1xx (100 Continue): the final response follows

    async def _next_event(self, conn: _Conn, url: URL, *, body: bool):
        p = conn.proto
        while True:
            try:
                event = p.next_event()
            except h11.RemoteProtocolError as e:
                await conn.close()
                raise _protocol_error(url, e, body) from None
            if event is not h11.NEED_DATA:
                return event
            try:
                data = await conn.stream.receive(READ_SIZE)
            except (anyio.EndOfStream, anyio.ClosedResourceError):
                data = b""
            except anyio.BrokenResourceError as e:
                await conn.close()
                raise NetError("recv", url, _strerror(e.__cause__)) from None
            except OSError as e:
                await conn.close()
                raise NetError("recv", url, _strerror(e)) from None
            except ssl.SSLError:
                await conn.close()
                raise NetError("recv", url, "TLS error") from None
            if not data and not body and p.their_state is h11.SEND_RESPONSE:
                if conn.reused:  # closed by the server while kept: send again once
                    raise _Stale()
                await conn.close()
                raise NetError("empty", url)
            p.receive_data(data)

    def has_idle(self, url: URL) -> bool:
        """Is a kept-alive connection waiting for ``url``'s host and port?"""
        return (url.scheme, url.host, url.port) in self._idle

    async def _keep(self, url: URL, conn: _Conn) -> None:
        key = (url.scheme, url.host, url.port)
        old = self._idle.pop(key, None)
        self._idle[key] = conn
        self.trace(f"* Connection #{conn.number} to host {url.host} left intact")
        if old is not None and old is not conn:
            await old.close()

    async def aclose(self) -> None:
        for conn in list(self._idle.values()):
            await conn.close()
        self._idle.clear()


class _Stale(Exception):
    """A kept-alive connection the server had closed: try once more on a new one."""


async def _close(stream) -> None:
    with anyio.CancelScope(shield=True):
        try:
            await stream.aclose()
        except Exception:  # noqa: BLE001
            pass


def _protocol_error(url: URL, e: Exception, body: bool) -> NetError:
    text = str(e)
    m = _PARTIAL.search(text)
    if m:
        return NetError("partial", url, remaining=int(m.group(2)) - int(m.group(1)))
    if body and "incomplete chunked read" in text:
        return NetError("partial", url, remaining=None)
    if body:
        return NetError("partial", url, remaining=None)
    return NetError("protocol", url, text)


def _strerror(e) -> str:
    import os

    while e is not None and not isinstance(e, OSError):
        e = e.__cause__ or e.__context__
    if isinstance(e, OSError) and e.errno:
        return os.strerror(e.errno)
    return ""
