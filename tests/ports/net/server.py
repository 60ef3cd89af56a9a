"""A local HTTP/1.1 server for the network tests, the goldens and the benchmark.

Started on 127.0.0.1 (an ephemeral port) in a thread of the test process or the
recording script; deterministic: fixed Date and Server headers, no timing in
bodies. Routes:

* ``/text``: ``hello world`` (text/plain); ``/json``: a small JSON document
* ``/echo``: the request as text (method, target, headers in order, body)
* ``/status/N``: status N; ``/redirect/N?to=URL``: status N with Location URL
* ``/bytes/N``: N bytes (Content-Length); ``/chunked``: a chunked body
* ``/gzip``: a gzip-encoded body (always); ``/slow?delay=S``: waits S seconds first
* ``/drip?n=N&delay=S``: N bytes, one per S seconds; ``/endless``: a body without end
* ``/loop``: redirects to itself; ``/auth``: 401 unless Basic user:pass; ``/close``: closes without a reply
* ``/short``: announces 100 bytes, sends 10 and closes; ``/headers``: extra headers
* ``/files/NAME``: ``content of NAME``; ``/dir/``: an index page
"""

from __future__ import annotations

import base64
import gzip
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

DATE = "Mon, 01 Jan 2024 00:00:00 GMT"
_BLOCK = bytes(range(256)) * 256  # 64 KiB of every byte value


def payload(n: int) -> bytes:
    """The deterministic body of ``/bytes/N``."""
    reps, rest = divmod(n, len(_BLOCK))
    return _BLOCK * reps + _BLOCK[:rest]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def version_string(self) -> str:
        return "testsrv"

    def log_message(self, *args) -> None:  # quiet
        pass

    def date_time_string(self, timestamp=None) -> str:
        return DATE

    def _send(self, code: int, body: bytes = b"", ctype: str = "text/plain",
              headers: list[tuple[str, str]] = (), head: bool = False) -> None:
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD" and not head:
            self.wfile.write(body)

    def _body(self) -> bytes:
        n = int(self.headers.get("Content-Length") or 0)
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            out = b""
            while True:
                size = int(self.rfile.readline().strip() or b"0", 16)
                if size == 0:
                    self.rfile.readline()
                    return out
                out += self.rfile.read(size)
                self.rfile.readline()
        return self.rfile.read(n) if n else b""

    def do_GET(self) -> None:
        self._route()

    do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_HEAD = do_GET

    def _route(self) -> None:
        u = urlsplit(self.path)
        q = {k: v[-1] for k, v in parse_qs(u.query).items()}
        p = u.path
        body = self._body()
        if p == "/text":
            self._send(200, b"hello world\n")
        elif p == "/json":
            self._send(200, b'{"name": "pysh", "items": [1, 2, 3]}\n', "application/json")
        elif p == "/echo":
            lines = [f"{self.command} {self.path}"]
            lines += [f"{k}: {v}" for k, v in self.headers.items()]
            out = ("\n".join(lines) + "\n\n").encode() + body
            self._send(200, out)
        elif p.startswith("/status/"):
            code = int(p.rsplit("/", 1)[1])
            self._send(code, f"status {code}\n".encode())
        elif p == "/loop":
            self._send(302, b"again\n", headers=[("Location", "/loop")])
        elif p.startswith("/redirect/"):
            code = int(p.rsplit("/", 1)[1])
            self._send(code, b"moved\n", headers=[("Location", q.get("to", "/text"))])
        elif p.startswith("/bytes/"):
            self._send(200, payload(int(p.rsplit("/", 1)[1])), "application/octet-stream")
        elif p == "/chunked":
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for part in (b"first line\n", b"second ", b"line\n"):
                self.wfile.write(b"%x\r\n%s\r\n" % (len(part), part))
            self.wfile.write(b"0\r\n\r\n")
        elif p == "/gzip":
            self._send(200, gzip.compress(b"compressed hello\n" * 3, mtime=0),
                       headers=[("Content-Encoding", "gzip")])
        elif p == "/slow":
            time.sleep(float(q.get("delay", "5")))
            self._send(200, b"slow\n")
        elif p == "/drip":
            n, delay = int(q.get("n", "10")), float(q.get("delay", "0.5"))
            self.send_response(200)
            self.send_header("Content-Length", str(n))
            self.end_headers()
            try:
                for _ in range(n):
                    self.wfile.write(b"x")
                    self.wfile.flush()
                    time.sleep(delay)
            except OSError:
                pass
        elif p == "/endless":
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.end_headers()
            self.close_connection = True
            try:
                while not self.server.stopping:
                    self.wfile.write(_BLOCK)
            except OSError:
                pass
        elif p == "/auth":
            want = "Basic " + base64.b64encode(b"user:pass").decode()
            if self.headers.get("Authorization") == want:
                self._send(200, b"welcome\n")
            else:
                self._send(401, b"denied\n", headers=[("WWW-Authenticate", 'Basic realm="t"')])
        elif p == "/close":
            self.close_connection = True
        elif p == "/short":
            self.send_response(200)
            self.send_header("Content-Length", "100")
            self.end_headers()
            self.wfile.write(b"0123456789")
            self.close_connection = True
        elif p == "/headers":
            self._send(200, b"with headers\n", headers=[("X-Custom", "one"),
                                                       ("Set-Cookie", "a=b; Path=/")])
        elif p.startswith("/files/"):
            name = p[len("/files/"):]
            self._send(200, f"content of {name}\n".encode())
        elif p == "/dir/":
            self._send(200, b"<html>index</html>\n", "text/html")
        else:
            self._send(404, b"not found\n")


class Server:
    """``with Server() as s: s.url("/text")``: the server runs in a daemon thread."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0) -> None:
        self.httpd = ThreadingHTTPServer((host, port), Handler)
        self.httpd.daemon_threads = True
        self.httpd.handle_error = lambda request, address: None  # clients that hang up early
        self.httpd.stopping = False
        self.host, self.port = self.httpd.server_address[:2]
        self.base = f"http://{self.host}:{self.port}"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def url(self, path: str = "/") -> str:
        return self.base + path

    def __enter__(self) -> Server:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.stopping = True
        self.httpd.shutdown()
        self.httpd.server_close()


def main() -> None:  # a manual server: python -m tests.ports.net.server [PORT]
    import sys

    with Server(port=int(sys.argv[1]) if len(sys.argv) > 1 else 0) as s:
        print(s.base, flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
