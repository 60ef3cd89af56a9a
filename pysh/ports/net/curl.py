"""curl 7.88, the options agents use, over the sandbox's network policy (pysh.ports.net.client).

Options are parsed as curl parses them (clusters of short options, unambiguous long
prefixes, ``--no-`` toggles, URLs anywhere); messages and exit statuses are curl's
(``curl: (6) Could not resolve host: x``, ``(22)`` with ``-f``, ``(28)`` on a
timeout, ``(7)`` refused). What the sandbox's policy refuses exits 7 with a message
of its own, printed even under ``-s``. Output files go through the FileSystem door
(its write limits apply). Options that would weaken the sandbox (``-k``, ``-x``,
``--resolve``, ``--netrc``, ``--unix-socket``, ``-K`` ...) are refused.
"""

from __future__ import annotations

import base64
import json
import re
import time
import zlib
from urllib.parse import quote, urljoin

import anyio

from pysh.shellkit import FileSystemError, Shell
from pysh.shellkit.network import URL, URLError, parse_url
from pysh.shellkit.streams import BrokenPipe
from pysh.shellkit.text import encode
from pysh.shellkit.worker import ensure_loop

from .client import Client, NetError
from .common import Meter, budget_sleep, mask, policy_message, read_operand

VERSION = "7.88.1"
TRY = "curl: try 'curl --help' or 'curl --manual' for more information\n"
VERSION_TEXT = (f"curl {VERSION} (x86_64-pc-linux-gnu) libcurl/{VERSION} (pysh sandbox)\n"
                "Release-Date: 2023-02-20\n"
                "Protocols: http https\n"
                "Features: IPv6 Largefile libz UnixSockets\n")

# name: (dest, kind). kind: "bool", "arg", "num" (float), "int", "refuse", "noop", "noarg-noop"
_LONG: dict[str, tuple[str, str]] = {
    "silent": ("silent", "bool"), "show-error": ("show_error", "bool"),
    "fail": ("fail", "bool"), "fail-with-body": ("fail_with_body", "bool"),
    "fail-early": ("fail_early", "bool"), "location": ("location", "bool"),
    "location-trusted": ("location_trusted", "bool"), "head": ("head", "bool"),
    "include": ("include", "bool"), "verbose": ("verbose", "bool"), "get": ("get", "bool"),
    "compressed": ("compressed", "bool"), "remote-name": ("remote_name", "once"),
    "remote-name-all": ("remote_name_all", "bool"), "globoff": ("globoff", "bool"),
    "create-dirs": ("create_dirs", "bool"), "path-as-is": ("path_as_is", "bool"),
    "progress-bar": ("progress_bar", "bool"), "no-progress-meter": ("no_meter", "bool"),
    "remote-header-name": ("remote_header_name", "bool"), "post301": ("post301", "bool"),
    "post302": ("post302", "bool"), "post303": ("post303", "bool"),
    "retry-connrefused": ("retry_connrefused", "bool"), "retry-all-errors": ("retry_all", "bool"),
    "output": ("output", "arg"), "request": ("request", "arg"), "header": ("header", "arg"),
    "data": ("data", "arg"), "data-ascii": ("data", "arg"), "data-raw": ("data_raw", "arg"),
    "data-binary": ("data_binary", "arg"), "data-urlencode": ("data_urlencode", "arg"),
    "json": ("json", "arg"), "form": ("form", "arg"), "form-string": ("form_string", "arg"),
    "user": ("user", "arg"), "user-agent": ("user_agent", "arg"), "referer": ("referer", "arg"),
    "write-out": ("write_out", "arg"), "max-time": ("max_time", "num"),
    "connect-timeout": ("connect_timeout", "num"), "retry": ("retry", "int"),
    "retry-delay": ("retry_delay", "int"), "retry-max-time": ("retry_max_time", "int"),
    "max-redirs": ("max_redirs", "int"), "max-filesize": ("max_filesize", "int"),
    "range": ("range", "arg"), "cookie": ("cookie", "arg"), "cookie-jar": ("cookie_jar", "arg"),
    "upload-file": ("upload_file", "arg"), "url": ("url", "arg"),
    "dump-header": ("dump_header", "arg"), "output-dir": ("output_dir", "arg"),
    "oauth2-bearer": ("bearer", "arg"), "stderr": ("stderr", "arg"),
    "basic": ("basic", "bool"),
    # refused: each would weaken the sandbox or reach around its policy
    "insecure": ("TLS certificates are always verified", "refuse"),
    "proxy": ("no proxies: the sandbox connects to what its allow-list checked", "refuse"),
    "preproxy": ("no proxies", "refuse"), "socks5": ("no proxies", "refuse"),
    "socks5-hostname": ("no proxies", "refuse"), "socks4": ("no proxies", "refuse"),
    "proxy-user": ("no proxies", "refuse"), "proxy-insecure": ("no proxies", "refuse"),
    "resolve": ("host names are resolved by the sandbox", "refuse"),
    "connect-to": ("connections go where the allow-list checked", "refuse"),
    "unix-socket": ("no local sockets", "refuse"), "abstract-unix-socket": ("no local sockets", "refuse"),
    "interface": ("no interface choice", "refuse"), "local-port": ("no local port choice", "refuse"),
    "dns-servers": ("host names are resolved by the sandbox", "refuse"),
    "doh-url": ("host names are resolved by the sandbox", "refuse"),
    "netrc": ("no host credentials", "refuse"), "netrc-file": ("no host credentials", "refuse"),
    "netrc-optional": ("no host credentials", "refuse"), "config": ("no config files", "refuse"),
    "cert": ("no client certificates", "refuse"), "key": ("no client certificates", "refuse"),
    "cacert": ("the sandbox's CA store is fixed", "refuse"),
    "capath": ("the sandbox's CA store is fixed", "refuse"),
    "trace": ("no trace files", "refuse"), "trace-ascii": ("no trace files", "refuse"),
    # accepted, no effect here (HTTP/1.1 only; transfers are not rate-shaped)
    "http1.1": ("", "noop"), "http1.0": ("", "noop"), "http2": ("", "noop"),
    "http2-prior-knowledge": ("", "noop"), "tcp-nodelay": ("", "noop"),
    "keepalive": ("", "noop"), "no-keepalive": ("", "noop"), "no-buffer": ("", "noop"),
    "buffer": ("", "noop"), "ipv4": ("", "noop"), "ipv6": ("", "noop"), "disable": ("", "noop"),
    "parallel": ("", "noop"), "styled-output": ("", "noop"), "sessionid": ("", "noop"),
    "tlsv1.2": ("", "noop"), "tlsv1.3": ("", "noop"), "tlsv1": ("", "noop"), "raw": ("", "noop"),
    "tr-encoding": ("", "noop"), "ssl-reqd": ("", "noop"), "xattr": ("", "noop"),
    "limit-rate": ("", "noop-arg"), "expect100-timeout": ("", "noop-arg"),
    "keepalive-time": ("", "noop-arg"), "parallel-max": ("", "noop-arg"),
    "proto": ("", "noop-arg"), "proto-redir": ("", "noop-arg"), "proto-default": ("", "noop-arg"),
    "noproxy": ("", "noop-arg"), "speed-limit": ("", "noop-arg"), "speed-time": ("", "noop-arg"),
    "happy-eyeballs-timeout-ms": ("", "noop-arg"),
    "help": ("help", "special"), "version": ("version", "special"),
    "manual": ("manual", "special"),
}
_SHORT = {
    "s": "silent", "S": "show-error", "f": "fail", "L": "location", "I": "head", "i": "include",
    "v": "verbose", "G": "get", "O": "remote-name", "g": "globoff", "#": "progress-bar",
    "J": "remote-header-name", "o": "output", "X": "request", "H": "header", "d": "data",
    "F": "form", "u": "user", "A": "user-agent", "e": "referer", "w": "write-out",
    "m": "max-time", "r": "range", "b": "cookie", "c": "cookie-jar", "T": "upload-file",
    "D": "dump-header", "k": "insecure", "x": "proxy", "n": "netrc", "K": "config",
    "E": "cert", "N": "no-buffer", "4": "ipv4", "6": "ipv6", "q": "disable", "Z": "parallel",
    "0": "http1.0", "h": "help", "V": "version", "M": "manual", "Y": "speed-limit",
    "y": "speed-time", "1": "tlsv1",
}
_MULTI = {"header", "data", "data_raw", "data_binary", "data_urlencode", "json", "form",
          "form_string", "url"}
_NO_OK = {k for k, (_, kind) in _LONG.items() if kind == "bool"} | {"remote-name"}


class Usage(Exception):
    def __init__(self, message: str, status: int = 2) -> None:
        super().__init__(message)
        self.status = status


class Opts:
    def __init__(self) -> None:
        self.silent = self.show_error = self.fail = self.fail_with_body = self.fail_early = False
        self.location = self.location_trusted = self.head = self.include = self.verbose = False
        self.get = self.compressed = self.remote_name_all = self.globoff = False
        self.create_dirs = self.path_as_is = self.progress_bar = self.no_meter = False
        self.remote_header_name = self.post301 = self.post302 = self.post303 = False
        self.retry_connrefused = self.retry_all = self.basic = False
        self.request = self.user = self.user_agent = self.referer = self.write_out = None
        self.max_time = self.connect_timeout = None
        self.retry = 0
        self.retry_delay = self.retry_max_time = None
        self.max_redirs = 50
        self.max_filesize = None
        self.range = self.cookie = self.cookie_jar = self.upload_file = None
        self.dump_header = self.output_dir = self.bearer = self.stderr = None
        self.header: list[str] = []
        self.data: list[tuple[str, str]] = []  # (kind, text), in order
        self.form: list[tuple[str, str]] = []
        self.json = False
        self.urls: list[str] = []
        self.outputs: list[str | None] = []  # per URL: a file name, or None for -O


def parse_args(argv: list[str]) -> Opts:
    o = Opts()
    i = 0
    n = len(argv)

    def take(name: str, shown: str, inline: str | None) -> str:
        nonlocal i
        if inline is not None:
            return inline
        i += 1
        if i >= n:
            raise Usage(f"option {shown}: requires parameter")
        return argv[i]

    while i < n:
        a = argv[i]
        if a.startswith("--") and len(a) > 2:
            word = a[2:]
            neg = False
            name = _long_name(word, a)
            if name is None and word.startswith("no-"):
                name = _long_name(word[3:], a)
                neg = True
                if name is not None and name not in _NO_OK:
                    raise Usage(f"option {a}: is unknown")
            if name is None:
                raise Usage(f"option {a}: is unknown")
            _apply(o, name, a, neg, lambda nm, shown: take(nm, shown, None))
        elif a.startswith("-") and len(a) > 1:
            j = 1
            while j < len(a):
                c = a[j]
                name = _SHORT.get(c)
                if name is None:
                    raise Usage(f"option -{a[j:]}: is unknown" if j == 1 else f"option -{c}: is unknown")
                dest, kind = _LONG[name]
                if kind in ("arg", "num", "int", "noop-arg") or name in ("proxy", "config", "cert",
                                                                        "speed-limit", "speed-time"):
                    rest = a[j + 1:] or None
                    _apply(o, name, f"-{c}", False, lambda nm, shown, r=rest: take(nm, shown, r))
                    break
                _apply(o, name, f"-{c}", False, None)
                j += 1
        else:
            o.urls.append(a)
        i += 1
    return o


def _long_name(word: str, shown: str) -> str | None:
    if word in _LONG:
        return word
    hits = [k for k in _LONG if k.startswith(word)]
    if len(hits) == 1:
        return hits[0]
    if len(hits) > 1:
        raise Usage(f"option {shown}: is ambiguous")
    return None


def _apply(o: Opts, name: str, shown: str, neg: bool, take) -> None:
    dest, kind = _LONG[name]
    if kind == "refuse":
        raise Usage(f"option {shown}: refused in this sandbox: {dest}")
    if kind == "special":
        raise Usage(dest, status=-1)
    if kind == "noop":
        return
    if kind == "noop-arg":
        take(name, shown)
        return
    if kind == "bool":
        setattr(o, dest, not neg)
        return
    if kind == "once":  # -O: one more output slot
        o.outputs.append(None)
        return
    value = take(name, shown)
    if kind in ("num", "int"):
        try:
            num = float(value) if kind == "num" else int(value, 10)
        except ValueError:
            raise Usage(f"option {shown}: expected a proper numerical parameter") from None
        if num < 0:
            raise Usage(f"option {shown}: expected a proper numerical parameter")
        setattr(o, dest, num)
        return
    if dest == "output":
        o.outputs.append(value)
    elif dest == "url":
        o.urls.append(value)
    elif dest == "header":
        o.header.append(value)
    elif dest in ("data", "data_raw", "data_binary", "data_urlencode", "json"):
        o.data.append((dest, value))
        if dest == "json":
            o.json = True
    elif dest in ("form", "form_string"):
        o.form.append((dest, value))
    else:
        setattr(o, dest, value)


# -- the command ----------------------------------------------------------------------------
async def main(shell: Shell, argv: list[str]) -> int:
    await ensure_loop()  # transfers run on the event loop
    try:
        o = parse_args(argv[1:])
    except Usage as e:
        if e.status == -1:
            return await _special(shell, str(e))
        await shell.stderr.write(encode(f"curl: {e}\n{TRY}"))
        return e.status
    if not o.urls:
        await shell.stderr.write(encode(TRY if len(argv) == 1 else f"curl: no URL specified!\n{TRY}"))
        return 2
    return await Curl(shell, o).run()


async def _special(shell: Shell, what: str) -> int:
    if what == "version":
        await shell.stdout.write(VERSION_TEXT.encode())
        return 0
    await shell.stdout.write(
        b"Usage: curl [options...] <url>\n"
        b" -d, --data <data>          HTTP POST data\n"
        b" -f, --fail                 Fail fast with no output on HTTP errors\n"
        b" -h, --help <category>      Get help for commands\n"
        b" -i, --include              Include protocol response headers in the output\n"
        b" -o, --output <file>        Write to file instead of stdout\n"
        b" -O, --remote-name          Write output to a file named as the remote file\n"
        b" -s, --silent               Silent mode\n"
        b" -T, --upload-file <file>   Transfer local FILE to destination\n"
        b" -u, --user <user:password> Server user and password\n"
        b" -A, --user-agent <name>    Send User-Agent <name> to server\n"
        b" -v, --verbose              Make the operation more talkative\n"
        b" -V, --version              Show version number and quit\n"
        b"\nThis is not the full help, this menu is stripped into categories.\n"
        b"In this sandbox the network reaches only what the embedder allows.\n")
    return 0


class Failure(Exception):
    """A transfer's curl error: ``code`` and message (without the ``curl: (N) `` prefix)."""

    def __init__(self, code: int, message: str, *, policy: bool = False) -> None:
        super().__init__(code, message)
        self.code = code
        self.message = message
        self.policy = policy


class Stats:
    def __init__(self) -> None:
        self.t0 = time.monotonic()
        self.status = 0
        self.version = ""
        self.content_type = None
        self.url: URL | None = None
        self.url_text = ""
        self.redirects = 0
        self.redirect_url = None
        self.size_download = 0
        self.size_upload = 0
        self.size_header = 0
        self.size_request = 0
        self.t_start = 0.0
        self.t_connect = 0.0
        self.t_name = 0.0
        self.t_total = 0.0
        self.headers: list[tuple[str, str]] = []
        self.method = "GET"
        self.filename = None
        self.expected = None
        self.exitcode = 0
        self.errormsg = None
        self.remote: tuple[str, int] = ("", 0)
        self.local: tuple[str, int] = ("", 0)


class Curl:
    def __init__(self, shell: Shell, o: Opts) -> None:
        self.shell = shell
        self.o = o
        self.network = shell.network
        secrets = self.network.secrets() if self.network is not None else []
        self.secrets = secrets
        self.stdout_tty = shell.stdout.isatty()
        self.err = shell.stderr

    async def say(self, text: str) -> None:
        await self.err.write(encode(mask(text, self.secrets)))

    async def run(self) -> int:
        o = self.o
        if o.stderr is not None and o.stderr != "-":
            try:
                self.err = self.shell.open_output(o.stderr)
            except FileSystemError:
                pass
        if o.cookie is not None and "=" not in o.cookie:
            await self._load_cookies(o.cookie)
        try:
            body, content_type = await self._body()
        except Failure as f:
            await self._report(f)
            return f.code
        status = 0
        client = Client(self.network, connect_timeout=o.connect_timeout, trace=self._trace)
        try:
            for idx, arg in enumerate(o.urls):
                # -o/-O pair with the URL arguments in order; a glob's URLs share theirs
                out = o.outputs[idx] if idx < len(o.outputs) else (
                    None if o.remote_name_all else "")
                try:
                    expanded = _glob(arg) if not o.globoff else [(arg, ())]
                except Failure as f:
                    await self._report(f)
                    status = f.code
                    continue
                for text, glob_values in expanded:
                    code = await self._one(client, text, glob_values, out, body, content_type)
                    if code:
                        status = code
                        if o.fail_early:
                            return status
        finally:
            await client.aclose()
        return status

    def _trace(self, line: str) -> None:
        if self.o.verbose:
            self._pending.append(line + "\n")

    _pending: list[str]

    async def _flush_trace(self) -> None:
        if self._pending:
            text = "".join(self._pending)
            self._pending.clear()
            await self.say(text)

    async def _report(self, f: Failure) -> None:
        o = self.o
        if f.policy or not o.silent or o.show_error:
            await self.say(f"curl: ({f.code}) {f.message}\n")

    # -- request body ---------------------------------------------------------------------
    async def _body(self) -> tuple[bytes | None, str | None]:
        o = self.o
        if o.form:
            return await self._multipart()
        if not o.data:
            return None, None
        parts: list[bytes] = []
        for kind, text in o.data:
            if kind == "data_raw":
                parts.append(encode(text))
            elif kind in ("data", "data_binary", "json"):
                if text.startswith("@"):
                    data = await self._read(text[1:], kind == "data")
                    parts.append(data)
                else:
                    parts.append(encode(text))
            else:  # data_urlencode
                parts.append(await self._urlencode(text))
        sep = b"" if o.json and all(k == "json" for k, _ in o.data) else b"&"
        body = sep.join(parts)
        return body, ("application/json" if o.json else "application/x-www-form-urlencoded")

    async def _read(self, name: str, strip: bool) -> bytes:
        try:
            data = await read_operand(self.shell, name)
        except FileSystemError:
            if not self.o.silent:
                await self.say(f'Warning: Couldn\'t read data from file "{name}", this makes '
                               "an empty POST.\n")
            return b""
        if strip:
            data = data.replace(b"\r", b"").replace(b"\n", b"")
        return data

    async def _urlencode(self, text: str) -> bytes:
        if text.startswith("="):
            return quote(text[1:], safe="").encode().replace(b"%20", b"+")
        eq = text.find("=")
        at = text.find("@")
        if at >= 0 and (eq < 0 or at < eq):
            name, fname = text[:at], text[at + 1:]
            content = (await self._read(fname, False)).decode("utf-8", "surrogateescape")
            enc = quote(content, safe="").replace("%20", "+")
            return (f"{name}={enc}" if name else enc).encode()
        if eq >= 0:
            name, content = text[:eq], text[eq + 1:]
            enc = quote(content, safe="").replace("%20", "+")
            return (f"{name}={enc}" if name else enc).encode()
        return quote(text, safe="").replace("%20", "+").encode()

    async def _multipart(self) -> tuple[bytes, str]:
        import secrets as _secrets

        boundary = "-" * 24 + _secrets.token_hex(8)
        out = bytearray()
        for kind, spec in self.o.form:
            name, eq, value = spec.partition("=")
            if not eq:
                raise Failure(26, "Failed to open/read local data from file/application")
            ctype = filename = None
            if kind == "form":
                value, params = _form_params(value)
                ctype = params.get("type")
                filename = params.get("filename")
            out += f"--{boundary}\r\n".encode()
            if kind == "form" and value.startswith("@"):
                path = value[1:]
                try:
                    data = await read_operand(self.shell, path)
                except FileSystemError:
                    raise Failure(26, "Failed to open/read local data from file/application") from None
                fname = filename or path.rsplit("/", 1)[-1]
                out += (f'Content-Disposition: form-data; name="{name}"; filename="{fname}"\r\n'
                        f"Content-Type: {ctype or _mime(fname)}\r\n\r\n").encode()
                out += data
            elif kind == "form" and value.startswith("<"):
                try:
                    data = await read_operand(self.shell, value[1:])
                except FileSystemError:
                    raise Failure(26, "Failed to open/read local data from file/application") from None
                out += f'Content-Disposition: form-data; name="{name}"\r\n'.encode()
                if ctype:
                    out += f"Content-Type: {ctype}\r\n".encode()
                out += b"\r\n" + data
            else:
                out += f'Content-Disposition: form-data; name="{name}"'.encode()
                if filename:
                    out += f'; filename="{filename}"'.encode()
                out += b"\r\n"
                if ctype:
                    out += f"Content-Type: {ctype}\r\n".encode()
                out += b"\r\n" + encode(value)
            out += b"\r\n"
        out += f"--{boundary}--\r\n".encode()
        return bytes(out), f"multipart/form-data; boundary={boundary}"

    # -- one URL ----------------------------------------------------------------------------
    async def _one(self, client: Client, text: str, glob_values, out_spec: str | None,
                   body: bytes | None, body_type: str | None) -> int:
        o = self.o
        self._pending = []
        st = Stats()
        st.url_text = text
        # curl draws no meter when the body goes to a terminal
        meter = Meter(self.err, enabled=not o.silent and not o.no_meter and not (
            self.stdout_tty and out_spec == ""))
        result: Failure | None = None
        sink = _Sink(self, out_spec, glob_values, st)
        attempts = 0
        delay = o.retry_delay if o.retry_delay else 1
        started = time.monotonic()
        while True:
            try:
                await meter.start()
                await self._transfer(client, text, body, body_type, sink, st, meter)
                result = None
            except Failure as f:
                result = f
            except NetError as e:
                result = self._net_failure(e, st, client)
            except BrokenPipe:
                result = Failure(23, "Failed writing body")
            except FileSystemError:
                result = Failure(23, "Failure writing output to destination")
            retry = self._retryable(result, st)
            if retry and attempts < o.retry and not (
                    o.retry_max_time and time.monotonic() - started + delay > o.retry_max_time):
                attempts += 1
                left = o.retry - attempts
                what = "timeout" if result is not None and result.code == 28 else (
                    "HTTP error" if result is None or result.code == 22 else "connection failure")
                if not o.silent:
                    await self.say(f"Warning: Problem : {what}. Will retry in {delay} seconds. "
                                   f"{left} retries left.\n")
                await budget_sleep(self.shell, delay)
                if not o.retry_delay:
                    delay = min(delay * 2, 600)
                await self._flush_trace()
                await sink.reset()
                st = Stats()
                st.url_text = text
                sink.st = st
                continue
            break
        await meter.finish(st.size_download, st.expected, st.size_upload)
        await self._flush_trace()
        await sink.close(result is None or result.code not in (22,))
        st.t_total = time.monotonic() - st.t0
        if result is not None:
            st.exitcode, st.errormsg = result.code, result.message
            await self._report(result)
        if o.write_out is not None:
            await self._write_out(st, sink)
        if o.cookie_jar is not None:
            await self._save_cookies()
        return result.code if result is not None else 0

    def _retryable(self, result: Failure | None, st: Stats) -> bool:
        o = self.o
        if not o.retry:
            return False
        if result is None:
            return st.status in (408, 429, 500, 502, 503, 504)
        if result.policy:
            return False
        if o.retry_all:
            return True
        if result.code == 28:
            return True
        if result.code == 7 and o.retry_connrefused:
            return True
        return result.code == 22 and st.status in (408, 429, 500, 502, 503, 504)

    def _net_failure(self, e: NetError, st: Stats, client: Client) -> Failure:
        url = e.url
        host = url.host if url else ""
        ms = int((time.monotonic() - st.t0) * 1000)
        k = e.kind
        refused = policy_message(e)
        if refused is not None:
            return Failure(7, refused, policy=True)
        if k == "resolve":
            return Failure(6, f"Could not resolve host: {host}")
        if k == "connect":
            return Failure(7, f"Failed to connect to {host} port {url.port} after {ms} ms: "
                           "Couldn't connect to server")
        if k == "connect_timeout":
            return Failure(28, f"Failed to connect to {host} port {url.port} after {ms} ms: "
                           "Timeout was reached")
        if k == "timeout":
            return self._timeout(st)
        if k == "tls_verify":
            return Failure(60, f"SSL certificate problem: {e.detail}")
        if k == "tls":
            return Failure(35, f"OpenSSL/3.0: error: {e.detail}")
        if k == "empty":
            return Failure(52, "Empty reply from server")
        if k == "partial":
            left = e.info.get("remaining")
            if left is None:
                return Failure(18, "transfer closed with outstanding read data remaining")
            return Failure(18, f"transfer closed with {left} bytes remaining to read")
        if k == "partial_chunked":
            return Failure(18, "transfer closed with outstanding read data remaining")
        if k == "send":
            return Failure(55, f"Send failure: {e.detail or 'Broken pipe'}")
        if k == "recv":
            return Failure(56, f"Recv failure: {e.detail or 'Connection reset by peer'}")
        return Failure(8, "Weird server reply")

    def _timeout(self, st: Stats) -> Failure:
        ms = int((time.monotonic() - st.t0) * 1000)
        if st.expected is not None:
            return Failure(28, f"Operation timed out after {ms} milliseconds with "
                           f"{st.size_download} out of {st.expected} bytes received")
        return Failure(28, f"Operation timed out after {ms} milliseconds with "
                       f"{st.size_download} bytes received")

    async def _transfer(self, client: Client, text: str, body, body_type, sink, st: Stats,
                        meter: Meter) -> None:
        o = self.o
        limits = [t for t in (o.max_time, self.network.timeout if self.network else None,
                              self.shell.budget.remaining()) if t is not None]
        deadline = min(limits) if limits else None
        with anyio.move_on_after(deadline) as scope:
            await self._hops(client, text, body, body_type, sink, st, meter)
        if scope.cancelled_caught:
            self.shell.budget.check()  # the run's own deadline: the run's limit, not curl's
            raise self._timeout(st)

    async def _hops(self, client: Client, text: str, body, body_type, sink, st: Stats,
                    meter: Meter) -> None:
        o = self.o
        try:
            url = parse_url(text)
        except URLError as e:
            raise Failure(1 if e.kind == "scheme" else 3, str(e)) from None
        method, body = self._method(body)
        if o.get and o.data:
            q = body.decode("latin-1") if body else ""
            url = _with_query(url, q)
            body = None
        if o.upload_file is not None:
            body = await self._upload_body()
            if url.path.endswith("/"):
                url = parse_url(str(url).split("?")[0] + quote(o.upload_file.rsplit("/", 1)[-1])
                                + (f"?{url.query}" if url.query is not None else ""))
        first_host = (url.host, url.port)
        while True:
            st.url, st.method = url, method
            sink.url = url
            same_host = (url.host, url.port) == first_host
            headers = self._headers(url, method, body, body_type, same_host)
            client.check(method, url)  # before anything is built or printed
            st.size_request = _request_size(method, url, headers) + (len(body) if body else 0)
            resp = await client.send(method, url, headers, body)
            st.t_name = client.t_resolved
            st.t_connect = client.t_connected
            st.t_start = time.monotonic() - st.t0
            st.remote, st.local = client.primary, client.local
            if o.verbose:
                await self._verbose_request(method, url, headers, body)
            st.size_upload = len(body) if body else 0
            try:
                await self._response(client, resp, url, st, sink, meter, method)
            finally:
                await resp.aclose()
            location = resp.header("location")
            st.redirect_url = None
            if location is not None and 300 <= resp.status < 400:
                try:
                    st.redirect_url = str(parse_url(urljoin(str(url), location.strip())))
                except URLError:
                    st.redirect_url = None
            if not (o.location and location is not None and 300 <= resp.status < 400):
                break
            if st.redirects >= o.max_redirs:
                raise Failure(47, f"Maximum ({o.max_redirs}) redirects followed")
            try:
                new = parse_url(urljoin(str(url), location.strip()))
            except URLError as e:
                raise Failure(1 if e.kind == "scheme" else 3, str(e)) from None
            if o.verbose:
                self._trace(f"* Issue another request to this URL: '{new}'")
            st.redirects += 1
            code = resp.status
            if (code == 303 and method not in ("GET", "HEAD") and not o.post303) or (
                    method == "POST" and ((code == 301 and not o.post301) or (
                        code == 302 and not o.post302))):
                # the body goes; the method too, unless -X named one
                body, body_type = None, None
                if o.request is None:
                    method = "HEAD" if o.head else "GET"
            url = new
        if o.fail or o.fail_with_body:
            if st.status >= 400:
                raise Failure(22, f"The requested URL returned error: {st.status}")

    def _method(self, body):
        o = self.o
        if o.request is not None:
            method = o.request
        elif o.head:
            method = "HEAD"
        elif o.upload_file is not None:
            method = "PUT"
        elif body is not None and not o.get:
            method = "POST"
        else:
            method = "GET"
        if not re.fullmatch(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+", method):
            raise Failure(3, "URL using bad/illegal format or missing URL")
        return method, body

    async def _upload_body(self) -> bytes:
        name = self.o.upload_file
        try:
            return await read_operand(self.shell, name)
        except FileSystemError:
            raise Failure(26, "Failed to open/read local data from file/application") from None

    def _headers(self, url: URL, method: str, body, body_type, same_host: bool) -> list[tuple[str, str]]:
        o = self.o
        custom: list[tuple[str, str]] = []
        removed: set[str] = set()
        for h in o.header:
            if h.startswith("@"):
                continue
            name, colon, value = h.partition(":")
            if not colon:
                if name.endswith(";"):
                    custom.append((name[:-1].strip(), ""))
                continue
            # curl keeps trailing blanks; h11 refuses them on the wire, so they go
            name, value = name.strip(), value.strip(" \t")
            if not name or any(c in name + value for c in "\r\n\x00"):
                continue
            if not value.strip():
                removed.add(name.lower())
                continue
            if not same_host and not o.location_trusted and name.lower() in ("authorization", "cookie"):
                continue
            custom.append((name, value))
        if o.json:
            for name, value in (("Content-Type", "application/json"), ("Accept", "application/json")):
                if not any(k.lower() == name.lower() for k, _ in custom):
                    custom.append((name, value))
        have = {k.lower() for k, _ in custom} | removed
        hdrs: list[tuple[str, str]] = []

        def add(name: str, value: str | None) -> None:
            if value is not None and name.lower() not in have:
                hdrs.append((name, value))

        add("Host", url.netloc)
        user = o.user if o.user is not None else (
            f"{url.user}:{url.password or ''}" if url.user is not None else None)
        if user is not None and (same_host or o.location_trusted):
            if ":" not in user:
                user += ":"
            add("Authorization", "Basic " + base64.b64encode(encode(user)).decode())
        elif o.bearer is not None and (same_host or o.location_trusted):
            add("Authorization", f"Bearer {o.bearer}")
        if o.range is not None:
            add("Content-Range" if body is not None and method != "GET" else "Range",
                f"bytes {o.range}/{len(body)}" if body is not None and method != "GET"
                else f"bytes={o.range}")
        add("User-Agent", f"curl/{VERSION}" if o.user_agent is None else o.user_agent or None)
        add("Accept", "*/*")
        if o.compressed:
            add("Accept-Encoding", "deflate, gzip")
        if o.referer is not None:
            add("Referer", o.referer.split(";auto")[0] or None)
        if o.cookie is not None and "=" in o.cookie and (same_host or o.location_trusted):
            add("Cookie", o.cookie)
        elif self._jar_cookies(url):
            add("Cookie", self._jar_cookies(url))
        hdrs.extend(custom)
        if body is not None and method not in ("GET", "HEAD") or (body is not None and o.request):
            add("Content-Length", str(len(body)))
            if o.upload_file is None:
                add("Content-Type", body_type)
            else:
                add("Expect", "100-continue")
        hosts = [v for k, v in hdrs if k.lower() == "host"]
        if hosts and hosts[-1].lower() != url.netloc.lower():
            raise Failure(7, f"a Host header other than the URL's ({hosts[-1]}) is not allowed "
                          "in this sandbox", policy=True)
        return hdrs

    # cookies: -b FILE (Netscape format, read through the door), -c FILE
    _jar: dict[str, str] | None = None

    def _jar_cookies(self, url: URL) -> str | None:
        if not self._jar:
            return None
        return "; ".join(f"{k}={v}" for k, v in self._jar.items())

    async def _load_cookies(self, name: str) -> None:
        """``-b FILE``: a Netscape cookie file (or ``Set-Cookie:`` lines) read through the
        door; a file that cannot be read is no cookies, as with curl."""
        try:
            text = (await read_operand(self.shell, name)).decode("utf-8", "surrogateescape")
        except FileSystemError:
            return
        jar: dict[str, str] = {}
        for line in text.splitlines():
            if line.startswith("#HttpOnly_"):
                line = line[len("#HttpOnly_"):]
            if not line.strip() or line.startswith("#"):
                continue
            if line.lower().startswith("set-cookie:"):
                k, _, v = line.split(":", 1)[1].strip().partition("=")
                jar[k.strip()] = v.split(";", 1)[0]
                continue
            fields = line.split("\t")
            if len(fields) == 7:
                jar[fields[5]] = fields[6]
        self._jar = jar or None

    async def _save_cookies(self) -> None:
        lines = ["# Netscape HTTP Cookie File", "# https://curl.se/docs/http-cookies.html",
                 "# This file was generated by libcurl! Edit at your own risk.", ""]
        host = self._cookie_host or ""
        for k, v in (self._jar or {}).items():
            lines.append(f"{host}\tFALSE\t/\tFALSE\t0\t{k}\t{v}")
        try:
            f = self.shell.open_output(self.o.cookie_jar)
        except FileSystemError:
            return
        try:
            await f.write(("\n".join(lines) + "\n").encode())
        finally:
            f.close()

    _cookie_host: str | None = None

    async def _response(self, client: Client, resp, url: URL, st: Stats, sink, meter: Meter,
                        method: str) -> None:
        o = self.o
        st.status = resp.status
        st.version = resp.version
        st.headers = resp.headers
        st.content_type = resp.header("content-type")
        cl = resp.header("content-length")
        st.expected = int(cl) if cl and cl.strip().isdigit() else None
        head_text = f"{resp.version} {resp.status} {resp.reason}".rstrip() + "\r\n"
        head_text += "".join(f"{k}: {v}\r\n" for k, v in resp.headers) + "\r\n"
        st.size_header += len(head_text)
        for k, v in resp.headers:
            if k.lower() == "set-cookie" and (o.cookie_jar is not None or o.cookie is not None):
                name, _, rest = v.partition("=")
                if self._jar is None:
                    self._jar = {}
                self._jar[name.strip()] = rest.split(";", 1)[0]
                self._cookie_host = url.host
        if o.verbose:
            await self._flush_trace()
            await self.say("".join(f"< {line}\r\n" for line in head_text[:-2].split("\r\n")[:-1])
                           + "< \r\n")
        if o.dump_header is not None:
            await sink.dump_headers(head_text, o.dump_header)
        is_redirect = o.location and resp.header("location") is not None and 300 <= resp.status < 400
        failing = (o.fail and not o.fail_with_body) and resp.status >= 400 and not is_redirect
        if o.include or o.head:
            await sink.write(head_text.encode("latin-1"), header=True)
        if method == "HEAD" or is_redirect or failing:
            if is_redirect:
                async for _ in resp.chunks():
                    pass
            return
        cap = self._cap()
        decoder = _decoder(resp.header("content-encoding")) if o.compressed else None
        st.size_download = 0
        async for chunk in resp.chunks():
            st.size_download += len(chunk)
            if cap is not None and st.size_download > cap[0]:
                raise Failure(63, cap[1])
            if o.verbose:
                await self.say(f"{{ [{len(chunk)} bytes data]\n")
            if decoder is not None:
                try:
                    chunk = decoder.decompress(chunk)
                except zlib.error:
                    raise Failure(61, "Unrecognized content encoding type. libcurl understands "
                                  "deflate, gzip content encodings.") from None
            if chunk:
                await sink.write(chunk)
            self.shell.budget.check()
        if decoder is not None:
            tail = decoder.flush()
            if tail:
                await sink.write(tail)
        await sink.body_done()

    def _cap(self) -> tuple[int, str] | None:
        caps = []
        if self.o.max_filesize is not None:
            caps.append((self.o.max_filesize, "Maximum file size exceeded"))
        net = self.network
        if net is not None and net.max_bytes is not None:
            caps.append((net.max_bytes, f"Maximum file size exceeded: this sandbox caps a "
                         f"response at {net.max_bytes} bytes"))
        return min(caps) if caps else None

    async def _verbose_request(self, method, url: URL, headers, body) -> None:
        injected = self.network.injected_headers(url) if self.network else []
        names = {k.lower() for k, _ in injected}
        lines = [f"> {method} {url.target} HTTP/1.1\r\n"]
        for k, v in headers:
            if k.lower() not in names:  # the embedder's replaces the script's
                lines.append(f"> {k}: {v}\r\n")
        for k, _ in injected:
            lines.append(f"> {k}: [set by the sandbox, hidden]\r\n")
        lines.append("> \r\n")
        if body:
            lines.append(f"}} [{len(body)} bytes data]\n")
        await self._flush_trace()
        await self.say("".join(lines))

    async def _write_out(self, st: Stats, sink) -> None:
        fmt = self.o.write_out
        if fmt.startswith("@"):
            try:
                fmt = (await read_operand(self.shell, fmt[1:])).decode("utf-8", "surrogateescape")
            except FileSystemError:
                return
        out_stream = self.shell.stdout
        buf: list[str] = []
        i = 0
        while i < len(fmt):
            c = fmt[i]
            if c == "%" and fmt.startswith("%{", i):
                end = fmt.find("}", i)
                if end < 0:
                    buf.append(fmt[i:])
                    break
                var = fmt[i + 2:end]
                i = end + 1
                if var in ("stdout", "stderr"):
                    await out_stream.write(encode("".join(buf)))
                    buf = []
                    out_stream = self.shell.stdout if var == "stdout" else self.err
                    continue
                if var == "onerror":
                    if st.exitcode == 0:
                        break
                    continue
                buf.append(self._var(var, st, sink))
                continue
            if c == "%" and fmt.startswith("%header{", i):
                end = fmt.find("}", i)
                if end > 0:
                    want = fmt[i + 8:end].lower()
                    buf.append(", ".join(v for k, v in st.headers if k.lower() == want))
                    i = end + 1
                    continue
            if c == "%" and fmt.startswith("%%", i):
                buf.append("%")
                i += 2
                continue
            if c == "\\" and i + 1 < len(fmt) and fmt[i + 1] in "nrt\\":
                buf.append({"n": "\n", "r": "\r", "t": "\t", "\\": "\\"}[fmt[i + 1]])
                i += 2
                continue
            buf.append(c)
            i += 1
        await out_stream.write(encode(mask("".join(buf), self.secrets)))

    def _var(self, var: str, st: Stats, sink) -> str:
        total = st.t_total
        url = str(st.url) if st.url is not None else st.url_text
        values = {
            "http_code": f"{st.status:03d}", "response_code": f"{st.status:03d}",
            "size_download": str(st.size_download), "size_upload": str(st.size_upload),
            "size_header": str(st.size_header), "size_request": str(st.size_request),
            "content_type": st.content_type or "", "url_effective": url,
            "url": st.url_text, "num_redirects": str(st.redirects),
            "redirect_url": st.redirect_url or "", "time_total": f"{total:.6f}",
            "time_namelookup": f"{st.t_name:.6f}", "time_connect": f"{st.t_connect:.6f}",
            "time_appconnect": "0.000000", "time_pretransfer": f"{st.t_connect:.6f}",
            "time_starttransfer": f"{st.t_start:.6f}", "time_redirect": "0.000000",
            "speed_download": str(int(st.size_download / total) if total > 0 else 0),
            "speed_upload": str(int(st.size_upload / total) if total > 0 else 0),
            "remote_ip": st.remote[0], "remote_port": str(st.remote[1] or ""),
            "local_ip": st.local[0], "local_port": str(st.local[1] or ""), "scheme": (st.url.scheme.upper() if st.url else ""),
            "http_version": st.version.replace("HTTP/", "") if st.version else "0",
            "method": st.method, "exitcode": str(st.exitcode), "errormsg": st.errormsg or "",
            "filename_effective": sink.filename or "", "num_connects": "1" if st.status else "0",
            "num_headers": str(len(st.headers)), "urlnum": "0", "ssl_verify_result": "0",
            "content_length": "", "referer": self.o.referer or "",
        }
        if var == "header_json":
            return _header_json(st.headers)
        if var == "json":
            d = {k: v for k, v in values.items()}
            return json.dumps(d, separators=(",", ":"))
        return values.get(var, "")


def _request_size(method: str, url: URL, headers) -> int:
    return len(f"{method} {url.target} HTTP/1.1\r\n") + sum(len(k) + len(v) + 4 for k, v in headers) + 2


def _header_json(headers) -> str:
    seen: dict[str, list[str]] = {}
    for k, v in headers:
        seen.setdefault(k.lower(), []).append(v)
    items = [f"{json.dumps(k)}:{json.dumps(v, separators=(',', ':'))}" for k, v in seen.items()]
    return "{" + ",\n".join(items) + "\n}"


def _with_query(url: URL, q: str) -> URL:
    from dataclasses import replace

    if not q:
        return url
    return replace(url, query=f"{url.query}&{q}" if url.query else q)


def _form_params(value: str) -> tuple[str, dict[str, str]]:
    parts = value.split(";")
    params = {}
    keep = [parts[0]]
    for p in parts[1:]:
        k, eq, v = p.partition("=")
        if eq and k.strip() in ("type", "filename", "headers", "encoder"):
            params[k.strip()] = v.strip().strip('"')
        else:
            keep.append(p)
    return ";".join(keep), params


_MIME = {"gif": "image/gif", "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png",
         "svg": "image/svg+xml", "txt": "text/plain", "htm": "text/html", "html": "text/html",
         "pdf": "application/pdf", "xml": "application/xml"}


def _mime(name: str) -> str:
    ext = name.rsplit(".", 1)[-1].lower() if "." in name else ""
    return _MIME.get(ext, "application/octet-stream")


def _decoder(encoding: str | None):
    enc = (encoding or "").strip().lower()
    if enc in ("gzip", "x-gzip"):
        return zlib.decompressobj(16 + zlib.MAX_WBITS)
    if enc == "deflate":
        return zlib.decompressobj()
    return None


def _glob(text: str) -> list[tuple[str, tuple[str, ...]]]:
    """curl's URL globbing: ``{a,b}`` sets and ``[1-3]``/``[a-c]`` ranges (``[::1]`` is an
    address). Returns (url, values for #1, #2...)."""
    pieces: list[list[str]] = []
    lit = ""
    i = 0
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text) and text[i + 1] in "{}[]":
            lit += text[i + 1]
            i += 2
            continue
        if c == "{":
            end = text.find("}", i)
            if end < 0:
                raise Failure(3, f"unmatched brace in URL position {i + 1}:\n{text}\n{' ' * i}^")
            pieces.append([lit])
            pieces.append(text[i + 1:end].split(","))
            lit = ""
            i = end + 1
            continue
        if c == "[":
            end = text.find("]", i)
            inner = text[i + 1:end] if end > 0 else ""
            m = re.fullmatch(r"(\d+)-(\d+)(?::(\d+))?|([a-zA-Z])-([a-zA-Z])(?::(\d+))?", inner)
            if end < 0:
                if i + 1 < len(text) and (text[i + 1] == ":" or text[i + 1] in "0123456789abcdefABCDEF"
                                          and ":" in text[i:]):
                    raise Failure(3, f"bad range specification in URL position {i + 2}:\n{text}\n"
                                  f"{' ' * (i + 1)}^")
                raise Failure(3, f"bad range in URL position {len(text) + 1}:\n{text}\n"
                              f"{' ' * len(text)}^")
            if ":" in inner and not m:  # an IPv6 address
                lit += text[i:end + 1]
                i = end + 1
                continue
            if m is None:
                raise Failure(3, f"bad range in URL position {end + 1}:\n{text}\n{' ' * end}^")
            pieces.append([lit])
            lit = ""
            if m.group(1) is not None:
                a, b, step = int(m.group(1)), int(m.group(2)), int(m.group(3) or 1)
                width = len(m.group(1)) if m.group(1).startswith("0") else 0
                pieces.append([str(n).zfill(width) for n in range(a, b + 1, step)])
            else:
                a, b, step = ord(m.group(4)), ord(m.group(5)), int(m.group(6) or 1)
                pieces.append([chr(n) for n in range(a, b + 1, step)])
            i = end + 1
            continue
        lit += c
        i += 1
    pieces.append([lit])
    results: list[tuple[str, tuple[str, ...]]] = [("", ())]
    for k, options in enumerate(pieces):
        is_set = k % 2 == 1
        results = [(u + opt, vals + ((opt,) if is_set else ())) for u, vals in results
                   for opt in options]
        if len(results) > 100_000:
            return [(text, ())]
    return results


class _Sink:
    """Where one URL's output goes: stdout, or a file opened through the door on first
    write (``-o``, ``-O``); headers to ``-D``."""

    def __init__(self, curl: Curl, spec: str | None, glob_values, st: Stats) -> None:
        self.curl = curl
        self.spec = spec  # "" stdout, None -O, else a file name
        self.glob_values = glob_values
        self.st = st
        self.url: URL | None = None
        self.stream = None
        self.filename: str | None = None
        self.dump = None
        self.wrote = False

    def _name(self) -> str:
        o = self.curl.o
        if self.spec is None:
            seg = self.url.path.rsplit("/", 1)[-1] if self.url else ""
            from urllib.parse import unquote

            name = unquote(seg)
        else:
            name = re.sub(r"#(\d)", lambda m: (self.glob_values[int(m.group(1)) - 1]
                                              if 0 < int(m.group(1)) <= len(self.glob_values)
                                              else m.group(0)), self.spec)
        if o.output_dir and not name.startswith("/") and name != "-":
            name = o.output_dir.rstrip("/") + "/" + name
        return name

    async def _open(self):
        if self.stream is not None:
            return self.stream
        shell = self.curl.shell
        if self.spec == "" or (self.spec == "-"):
            self.stream = shell.stdout
            return self.stream
        name = self._name()
        if not name or name.endswith("/"):
            raise Failure(23, "Failed writing received data to disk/application")
        self.filename = name
        if self.curl.o.create_dirs and "/" in name.rstrip("/"):
            try:
                shell.fs.mkdir(name.rsplit("/", 1)[0], parents=True)
            except FileSystemError:
                pass  # opening the file reports it
        try:
            self.stream = shell.open_output(name)
        except FileSystemError as e:
            if not self.curl.o.silent:
                import os

                await self.curl.say(f"Warning: Failed to open the file {name}: "
                                    f"{os.strerror(e.errno or 2)}\n")
            raise Failure(23, "Failure writing output to destination") from None
        return self.stream

    async def write(self, data: bytes, header: bool = False) -> None:
        stream = await self._open()
        await stream.write(data)
        self.wrote = True

    async def body_done(self) -> None:
        await self._open()  # an empty body still makes its file

    async def dump_headers(self, text: str, spec: str) -> None:
        if self.dump is None:
            if spec == "-":
                self.dump = self.curl.shell.stdout
            else:
                try:
                    self.dump = self.curl.shell.open_output(spec)
                except FileSystemError:
                    return
        await self.dump.write(text.encode("latin-1"))

    async def reset(self) -> None:
        await self.close(True)
        self.stream = None

    async def close(self, ok: bool) -> None:
        for s in (self.stream, self.dump):
            if s is not None and s is not self.curl.shell.stdout:
                s.close()
        self.dump = None

