"""wget 1.21, the options scripts use, over the sandbox's network policy (pysh.ports.net.client).

Messages and exit statuses are wget's (4 network failure, 8 server error, 2 usage
...); the default output file is named as wget names it (the URL's last segment,
``index.html``, ``.1`` suffixes instead of overwriting) and written through the
FileSystem door. What the sandbox's policy refuses exits 4 with its own message,
printed even under ``-q``. ``-T`` bounds each attempt as a whole; ``-t`` retries
(default 20, as wget) within the run's deadline.
"""

from __future__ import annotations

import base64
import os
import time
from urllib.parse import quote, unquote, urljoin

import anyio

from pysh.shellkit import FileSystemError, Shell
from pysh.shellkit.network import URL, URLError, parse_url
from pysh.shellkit.streams import BrokenPipe
from pysh.shellkit.text import encode
from pysh.shellkit.worker import ensure_loop

from .client import Client, NetError
from .common import budget_sleep, mask, policy_message, read_operand

VERSION = "1.21.3"
USAGE = "Usage: wget [OPTION]... [URL]...\n\nTry `wget --help' for more options.\n"

# long name: (dest, takes an argument)
_LONG = {
    "quiet": ("quiet", False), "verbose": ("verbose", False), "no-verbose": ("nv", False),
    "output-document": ("output", True), "server-response": ("server_response", False),
    "header": ("header", True), "post-data": ("post_data", True), "post-file": ("post_file", True),
    "body-data": ("body_data", True), "body-file": ("body_file", True), "method": ("method", True),
    "timeout": ("timeout", True), "tries": ("tries", True), "user-agent": ("user_agent", True),
    "user": ("user", True), "password": ("password", True), "http-user": ("user", True),
    "http-password": ("password", True), "directory-prefix": ("prefix", True),
    "no-clobber": ("no_clobber", False), "spider": ("spider", False),
    "max-redirect": ("max_redirect", True), "content-on-error": ("content_on_error", False),
    "read-timeout": ("timeout", True), "connect-timeout": ("connect_timeout", True),
    "waitretry": ("waitretry", True), "retry-connrefused": ("retry_connrefused", False),
    "referer": ("referer", True), "no-cache": ("", False), "no-dns-cache": ("", False),
    "inet4-only": ("", False), "inet6-only": ("", False), "no-hsts": ("", False),
    "progress": ("", True), "show-progress": ("", False), "no-config": ("", False),
    "compression": ("compression", True), "help": ("help", False), "version": ("version", False),
    "save-headers": ("save_headers", False),
    # refused: each would weaken the sandbox or reach around its policy
    "no-check-certificate": ("!TLS certificates are always verified", False),
    "ca-certificate": ("!the sandbox's CA store is fixed", True),
    "ca-directory": ("!the sandbox's CA store is fixed", True),
    "certificate": ("!no client certificates", True), "private-key": ("!no client certificates", True),
    "proxy": ("!no proxies", True), "use-proxy": ("!no proxies", True),
    "bind-address": ("!no interface choice", True), "config": ("!no config files", True),
    "execute": ("!no .wgetrc commands", True), "load-cookies": ("", True),
    "input-file": ("!no input files", True), "recursive": ("!no recursive retrieval", False),
    "mirror": ("!no recursive retrieval", False), "page-requisites": ("!no recursive retrieval", False),
}
_SHORT = {"q": "quiet", "v": "verbose", "O": "output-document", "S": "server-response",
          "T": "timeout", "t": "tries", "U": "user-agent", "P": "directory-prefix",
          "h": "help", "V": "version", "i": "input-file", "r": "recursive", "m": "mirror",
          "p": "page-requisites", "e": "execute", "Y": "use-proxy", "c": "", "N": ""}


class Usage(Exception):
    pass


class Opts:
    def __init__(self) -> None:
        self.quiet = self.verbose = self.nv = self.server_response = self.no_clobber = False
        self.spider = self.content_on_error = self.retry_connrefused = self.save_headers = False
        self.help = self.version = False
        self.output = self.post_data = self.post_file = self.body_data = self.body_file = None
        self.method = self.user_agent = self.user = self.password = self.prefix = None
        self.referer = self.compression = None
        self.timeout = self.connect_timeout = None
        self.tries = 20
        self.waitretry = 10.0
        self.max_redirect = 20
        self.header: list[str] = []
        self.urls: list[str] = []


def parse_args(argv: list[str]) -> Opts:
    o = Opts()
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--":
            o.urls.extend(argv[i + 1:])
            break
        if a.startswith("--") and len(a) > 2:
            word, eq, inline = a[2:].partition("=")
            hits = [k for k in _LONG if k == word] or [k for k in _LONG if k.startswith(word)]
            if len(hits) != 1:
                raise Usage(f"wget: {'option' if hits else 'unrecognized option'} '{a}'"
                            + (" is ambiguous" if hits else ""))
            name = hits[0]
            dest, takes = _LONG[name]
            value = None
            if takes:
                if eq:
                    value = inline
                else:
                    i += 1
                    if i >= len(argv):
                        raise Usage(f"wget: option '--{name}' requires an argument")
                    value = argv[i]
            elif eq:
                raise Usage(f"wget: option '--{name}' doesn't allow an argument")
            _set(o, name, dest, value)
        elif a.startswith("-") and len(a) > 1:
            if a in ("-nv", "-nc", "-nd", "-nH"):
                if a == "-nv":
                    o.nv = True
                elif a == "-nc":
                    o.no_clobber = True
                i += 1
                continue
            j = 1
            while j < len(a):
                c = a[j]
                name = _SHORT.get(c)
                if name is None:
                    raise Usage(f"wget: invalid option -- '{c}'")
                if name == "":
                    j += 1
                    continue
                dest, takes = _LONG[name]
                if takes:
                    value = a[j + 1:]
                    if not value:
                        i += 1
                        if i >= len(argv):
                            raise Usage(f"wget: option requires an argument -- '{c}'")
                        value = argv[i]
                    _set(o, name, dest, value)
                    break
                _set(o, name, dest, None)
                j += 1
        else:
            o.urls.append(a)
        i += 1
    return o


def _set(o: Opts, name: str, dest: str, value: str | None) -> None:
    if dest.startswith("!"):
        raise Usage(f"wget: option --{name} refused in this sandbox: {dest[1:]}")
    if not dest:
        return
    if value is None:
        setattr(o, dest, True)
        return
    if dest in ("timeout", "connect_timeout", "waitretry"):
        try:
            setattr(o, dest, float(value) or None)
        except ValueError:
            raise Usage(f"wget: --{name}: Invalid time period ‘{value}’") from None
    elif dest in ("tries", "max_redirect"):
        try:
            n = int(value)
        except ValueError:
            if value == "inf":
                n = 0
            else:
                raise Usage(f"wget: --{name}: Invalid number ‘{value}’") from None
        setattr(o, dest, n if n or dest == "max_redirect" else 1_000_000)
    elif dest == "header":
        o.header.append(value)
    else:
        setattr(o, dest, value)


async def main(shell: Shell, argv: list[str]) -> int:
    await ensure_loop()  # transfers run on the event loop
    try:
        o = parse_args(argv[1:])
    except Usage as e:
        await shell.stderr.write(encode(f"{e}\n{USAGE}"))
        return 2
    if o.version:
        await shell.stdout.write(f"GNU Wget {VERSION} built on linux-gnu (pysh sandbox).\n".encode())
        return 0
    if o.help:
        await shell.stdout.write(f"GNU Wget {VERSION}, a non-interactive network retriever.\n"
                                 f"{USAGE}".encode())
        return 0
    if not o.urls:
        await shell.stderr.write(encode(f"wget: missing URL\n{USAGE}"))
        return 1
    return await Wget(shell, o).run()


class Failure(Exception):
    def __init__(self, code: int, lines: str, *, policy: bool = False, retry: bool = False) -> None:
        super().__init__(code, lines)
        self.code = code
        self.lines = lines
        self.policy = policy
        self.retry = retry


def _now() -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S")


def _speed(n: int, seconds: float) -> str:
    rate = n / seconds if seconds > 0 else float(n)
    for unit in ("B/s", "KB/s", "MB/s", "GB/s"):
        if rate < 1024 or unit == "GB/s":
            return f"{rate:.0f} {unit}" if unit == "B/s" else f"{rate:.2f} {unit}"
        rate /= 1024
    return ""


class Wget:
    def __init__(self, shell: Shell, o: Opts) -> None:
        self.shell = shell
        self.o = o
        self.network = shell.network
        self.secrets = self.network.secrets() if self.network is not None else []
        self.verbose = not o.quiet and not o.nv

    async def say(self, text: str) -> None:
        await self.shell.stderr.write(encode(mask(text, self.secrets)))

    async def run(self) -> int:
        status = 0
        doc = None  # -O FILE: one document for every URL, opened before the first request
        client = Client(self.network, connect_timeout=self.o.connect_timeout or self.o.timeout,
                        trace=None)
        try:
            if self.o.output is not None and self.o.output != "-":
                try:
                    doc = self.shell.open_output(self.o.output)
                except FileSystemError as e:
                    await self.say(f"{self.o.output}: {os.strerror(e.errno or 2)}\n")
                    return 3
            for text in self.o.urls:
                code = await self._one(client, text, doc)
                if code:
                    status = code
        finally:
            await client.aclose()
            if doc is not None:
                doc.close()
        return status

    async def _one(self, client: Client, text: str, doc) -> int:
        o = self.o
        try:
            url = parse_url(text)
        except URLError as e:
            if not o.quiet:
                await self.say(f"{text}: Unsupported scheme ‘{e.scheme}’.\n" if e.kind == "scheme"
                               else f"{text}: Invalid URL.\n")
            return 1
        attempt = 0
        while True:
            attempt += 1
            try:
                await self._attempt(client, url, doc, attempt)
                return 0
            except Failure as f:
                if f.policy or not (f.retry and attempt < o.tries):
                    if f.lines and (self.verbose or f.policy or o.nv):
                        await self.say(f.lines + ("Giving up.\n\n" if f.retry else ""))
                    return f.code
                if self.verbose:
                    await self.say(f.lines + "Retrying.\n\n")
                await budget_sleep(self.shell, min(attempt, o.waitretry or 0) if attempt > 1 else 1)

    async def _attempt(self, client: Client, first: URL, doc, attempt: int) -> None:
        o = self.o
        url = first
        body = await self._body()
        method = (o.method or ("POST" if body is not None else "GET")).upper()
        if o.spider:
            method = "HEAD"
        redirects = 0
        while True:
            try_text = f" (try:{attempt:2d}) " if attempt > 1 else "  "
            if self.verbose:
                await self.say(f"--{_now()}--{try_text}{url}\n")
            try:
                client.check(method, url)
            except NetError as e:
                raise self._net(e) from None
            limits = [t for t in (o.timeout, self.network.timeout if self.network else None,
                                  self.shell.budget.remaining()) if t is not None]
            with anyio.move_on_after(min(limits) if limits else None) as scope:
                resp = await self._send(client, method, url, body)
            if scope.cancelled_caught:
                self.shell.budget.check()
                raise Failure(4, "Read error (Connection timed out) in headers.\n", retry=True)
            try:
                status = resp.status
                if self.verbose or o.server_response:
                    msg = "HTTP request sent, awaiting response... " if self.verbose else ""
                    if o.server_response:
                        msg += ("\n" if self.verbose else "") + "  " + (
                            f"{resp.version} {status} {resp.reason}".rstrip() + "\n")
                        msg += "".join(f"  {k}: {v}\n" for k, v in resp.headers)
                    else:
                        msg += f"{status} {resp.reason}\n"
                    await self.say(msg)
                location = resp.header("location")
                if status in (301, 302, 303, 307, 308) and location is not None:
                    redirects += 1
                    if redirects > o.max_redirect:
                        raise Failure(8, f"{o.max_redirect} redirections exceeded.\n")
                    try:
                        new = parse_url(urljoin(str(url), location.strip()))
                    except URLError:
                        raise Failure(1, f"{location}: Unsupported scheme.\n") from None
                    if self.verbose:
                        await self.say(f"Location: {location} [following]\n")
                    async for _ in resp.chunks():
                        pass
                    if status in (301, 302, 303) and method == "POST":
                        method, body = "GET", None
                    url = new
                    continue
                if status >= 400 and not o.content_on_error:
                    lines = f"{_now()} ERROR {status}: {resp.reason}.\n\n" if self.verbose else (
                        f"{url}:\n{_now()} ERROR {status}: {resp.reason}.\n" if o.nv else "")
                    raise Failure(8 if status != 401 else 6, lines)
                await self._save(resp, first, url, doc)
                return
            finally:
                await resp.aclose()

    async def _send(self, client: Client, method: str, url: URL, body):
        reuse = client.has_idle(url)
        if self.verbose:
            await self.say(f"Reusing existing connection to {url.host_text}:{url.port}.\n" if reuse
                           else f"Connecting to {url.host_text}:{url.port}... ")
        try:
            resp = await client.send(method, url, self._headers(url, method, body), body)
        except NetError as e:
            raise self._net(e) from None
        if self.verbose and not reuse:
            await self.say("connected.\n")
        return resp

    def _net(self, e: NetError) -> Failure:
        url = e.url
        k = e.kind
        refused = policy_message(e)
        if refused is not None:
            return Failure(4, f"wget: {refused}\n", policy=True)
        if k == "resolve":
            return Failure(4, f"failed: Name or service not known.\nwget: unable to resolve host "
                           f"address ‘{url.host}’\n")
        if k == "connect":
            return Failure(4, f"failed: {e.detail or 'Connection refused'}.\n",
                           retry=self.o.retry_connrefused)
        if k == "connect_timeout":
            return Failure(4, "failed: Connection timed out.\n", retry=True)
        if k in ("tls", "tls_verify"):
            return Failure(5, f"ERROR: cannot verify {url.host}'s certificate: {e.detail}\n")
        if k == "empty":
            return Failure(4, "No data received.\n", retry=True)
        if k == "timeout":
            return Failure(4, "Read error (Connection timed out) in headers.\n", retry=True)
        return Failure(4, f"Read error ({e.detail or 'Connection reset by peer'}) in headers.\n",
                       retry=True)

    async def _body(self) -> bytes | None:
        o = self.o
        for text, name in ((o.post_data, o.post_file), (o.body_data, o.body_file)):
            if text is not None:
                return encode(text)
            if name is not None:
                try:
                    return await read_operand(self.shell, name)
                except FileSystemError as e:
                    raise Failure(3, f"{name}: {os.strerror(e.errno or 2)}\n", policy=True) from None
        return None

    def _headers(self, url: URL, method: str, body) -> list[tuple[str, str]]:
        o = self.o
        custom = []
        for h in o.header:
            name, colon, value = h.partition(":")
            if colon and name.strip() and not any(c in h for c in "\r\n\x00"):
                custom.append((name.strip(), value.strip()))
        have = {k.lower() for k, _ in custom}
        hdrs = []

        def add(name, value):
            if name.lower() not in have:
                hdrs.append((name, value))

        add("Host", url.netloc)
        add("User-Agent", o.user_agent if o.user_agent is not None else f"Wget/{VERSION}")
        add("Accept", "*/*")
        add("Accept-Encoding", "identity" if o.compression in (None, "none") else "gzip")
        if o.user is not None or url.user is not None:
            user = o.user if o.user is not None else url.user
            pw = o.password if o.password is not None else (url.password or "")
            add("Authorization", "Basic " + base64.b64encode(encode(f"{user}:{pw}")).decode())
        if o.referer is not None:
            add("Referer", o.referer)
        add("Connection", "Keep-Alive")
        if body is not None:
            add("Content-Type", "application/x-www-form-urlencoded")
            add("Content-Length", str(len(body)))
        hosts = [v for k, v in custom if k.lower() == "host"]
        if hosts and hosts[-1].lower() != url.netloc.lower():
            raise Failure(4, f"wget: a Host header other than the URL's ({hosts[-1]}) is not "
                          "allowed in this sandbox\n", policy=True)
        return hdrs + custom

    def _file_name(self, first: URL) -> str:
        seg = first.path.rsplit("/", 1)[-1]
        if first.query is not None and seg:
            seg += "?" + quote(unquote(first.query), safe="=&;:,+$!*'()@")
        name = unquote(seg.split("?")[0]) + (seg[len(seg.split("?")[0]):]) if seg else ""
        name = name or "index.html"
        fs = self.shell.fs
        if self.o.prefix:
            try:
                fs.mkdir(self.o.prefix, parents=True)
            except FileSystemError:
                pass  # opening the file reports it
            name = self.o.prefix.rstrip("/") + "/" + name
        if self.o.no_clobber:
            return name
        base, n = name, 0
        while fs.exists(name):
            n += 1
            name = f"{base}.{n}"
        return name

    async def _save(self, resp, first: URL, url: URL, doc) -> None:
        o = self.o
        length = resp.header("content-length")
        ctype = resp.header("content-type")
        if self.verbose:
            shown = f"Length: {length}" if length else "Length: unspecified"
            if length and int(length) >= 1024:
                shown += f" ({_human(int(length))})"
            await self.say(shown + (f" [{ctype}]" if ctype else "") + "\n")
        if o.spider or resp.status == 204:
            if self.verbose and o.spider:
                await self.say("Remote file exists.\n\n")
            return
        if o.output == "-":
            out, shown_name, own = self.shell.stdout, "STDOUT", False
        elif doc is not None:
            out, shown_name, own = doc, o.output, False
        else:
            name = self._file_name(first)
            if o.no_clobber and self.shell.fs.exists(name):
                if self.verbose:
                    await self.say(f"File ‘{name}’ already there; not retrieving.\n\n")
                return
            try:
                out = self.shell.open_output(name)
            except FileSystemError as e:
                raise Failure(3, f"{name}: {os.strerror(e.errno or 2)}\n", policy=True) from None
            shown_name, own = name, True
        if self.verbose:
            await self.say(f"Saving to: ‘{shown_name}’\n\n")
        t0 = time.monotonic()
        got = 0
        cap = self.network.max_bytes if self.network is not None else None
        try:
            if o.save_headers:
                head = f"{resp.version} {resp.status} {resp.reason}\r\n" + "".join(
                    f"{k}: {v}\r\n" for k, v in resp.headers) + "\r\n"
                await out.write(head.encode("latin-1"))
            try:
                async for chunk in resp.chunks():
                    got += len(chunk)
                    if cap is not None and got > cap:
                        raise Failure(1, f"wget: this sandbox caps a response at {cap} bytes\n",
                                      policy=True)
                    await out.write(chunk)
                    self.shell.budget.check()
            except NetError as e:
                raise Failure(4, f"{_now()} ({_speed(got, time.monotonic() - t0)}) - Read error "
                              f"at byte {got}{'/' + length if length else ''} "
                              f"({e.detail or 'Connection closed'}). ", retry=True) from None
            except BrokenPipe:
                raise Failure(3, "wget: write error: Broken pipe\n", policy=True) from None
        finally:
            if own:
                out.close()
        if self.verbose:
            await self.say(_dots(got, int(length) if length and length.isdigit() else None,
                                 time.monotonic() - t0))
            secs = time.monotonic() - t0
            total = f"[{got}/{length}]" if length else f"[{got}]"
            what = "written to stdout" if shown_name == "STDOUT" else f"‘{shown_name}’ saved"
            await self.say(f"{_now()} ({_speed(got, secs)}) - {what} {total}\n\n")
        elif o.nv:
            await self.say(f"{_now()} URL:{url} [{got}{'/' + length if length else ''}] -> "
                           f"\"{'-' if shown_name == 'STDOUT' else shown_name}\" [1]\n")


def _human(n: int) -> str:
    for unit in ("K", "M", "G"):
        n_ = n / 1024
        if n_ < 1024 or unit == "G":
            return f"{n_:.0f}{unit}" if n_ >= 10 else f"{n_:.1f}{unit}"
        n = n_
    return str(n)


def _dots(got: int, total: int | None, secs: float) -> str:
    """wget's dot progress (default style: 1K a dot, 50 a line), drawn at the end."""
    lines = []
    kb = got // 1024
    rows = max(1, (kb + 49) // 50) if kb else 1
    for r in range(rows):
        n = min(50, kb - r * 50) if kb else 0
        groups = " ".join("." * min(10, n - g * 10) for g in range(5) if n - g * 10 > 0)
        pct = ""
        if total:
            done = min(got, (r + 1) * 50 * 1024) if r < rows - 1 else got
            pct = f"{int(done * 100 / total):3d}%"
        lines.append(f"{r * 50:6d}K {groups:<54s} {pct} {_speed(got, secs).split()[0]}="
                     f"{secs:.2g}s")
    return "\n".join(lines) + "\n\n"
