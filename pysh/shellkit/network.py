"""The network policy of a sandbox: off unless the embedder allows URL prefixes or hosts.

A :class:`Network` is the embedder's word on what ``curl`` and ``wget`` may reach
(nothing else in pysh opens a socket). It holds:

* ``allow``: URL prefixes (``https://api.github.com/repos/``: scheme, host, optional
  port, path prefix) and bare hosts (``example.com``, ``example.com:8443``: https,
  any path);
* ``methods``: the HTTP methods allowed (default: any);
* ``max_bytes``: a cap on one response body; ``timeout``: seconds for one transfer;
* ``headers``: credentials the sandbox adds for a prefix (``{"https://api.x/":
  {"Authorization": "Bearer ..."}}``), never shown to the script;
* ``resolver``: how host names become addresses (default: the system resolver).

Every request and every redirect hop is checked here before it is sent: the URL
against ``allow`` (:meth:`Network.rule_for`), then each address its host resolved
to (:meth:`Network.address_allowed`): loopback, private, link-local, multicast,
reserved and unspecified addresses (v4 and v6, and v4 addresses embedded in v6:
mapped, compatible, NAT64, 6to4, Teredo) are refused unless the rule names that
literal address (or ``localhost``). The connection then goes to a checked address.

URLs are parsed here once (:func:`parse_url`): the parts the policy checked are the
parts the request is built from, so no second parser can disagree with it.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

DEFAULT_PORTS = {"http": 80, "https": 443}
SCHEMES = frozenset(DEFAULT_PORTS)

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


class URLError(ValueError):
    """A URL that cannot be used: ``kind`` is ``scheme`` (unsupported protocol) or
    ``format`` (malformed)."""

    def __init__(self, kind: str, message: str, scheme: str = "") -> None:
        super().__init__(message)
        self.kind = kind
        self.scheme = scheme


@dataclass(frozen=True)
class URL:
    """A parsed, normalised http(s) URL (dot segments removed, host lower-case ASCII)."""

    scheme: str
    host: str  # lower-case; an IPv6 literal without brackets
    port: int
    path: str  # starts with "/"
    query: str | None = None
    user: str | None = None  # userinfo, percent-decoded
    password: str | None = None

    @property
    def default_port(self) -> bool:
        return self.port == DEFAULT_PORTS[self.scheme]

    @property
    def host_text(self) -> str:
        return f"[{self.host}]" if ":" in self.host else self.host

    @property
    def netloc(self) -> str:
        """host[:port] as the Host header and messages write it."""
        return self.host_text if self.default_port else f"{self.host_text}:{self.port}"

    @property
    def target(self) -> str:
        return self.path + (f"?{self.query}" if self.query is not None else "")

    def __str__(self) -> str:
        return f"{self.scheme}://{self.netloc}{self.target}"

    def literal(self) -> IPAddress | None:
        try:
            return ipaddress.ip_address(self.host)
        except ValueError:
            return None


_SCHEME_RE = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")
_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
_BAD_HOST = re.compile(r"[\x00-\x20\x7f%/\\?#@<>^`{|}\[\]]")


def parse_url(text: str, *, default_scheme: str = "http") -> URL:
    """Parse ``text`` as curl does for http(s): no scheme means ``default_scheme``;
    ``user:pass@`` is taken; the fragment is dropped; dot segments are removed."""
    if any(c in text for c in "\r\n\x00"):
        raise URLError("format", "URL using bad/illegal format or missing URL")
    s = text.strip(" \t")
    m = _SCHEME_RE.match(s)
    if m:
        scheme = m.group(1).lower()
        rest = s[m.end():]
    else:
        if "://" in s:
            raise URLError("format", "URL using bad/illegal format or missing URL")
        scheme, rest = default_scheme, s
    if scheme not in SCHEMES:
        raise URLError("scheme", f'Protocol "{m.group(1) if m else scheme}" not supported or '
                       "disabled in libcurl", scheme)
    rest = rest.split("#", 1)[0]
    cut = min((i for i in (rest.find("/"), rest.find("?")) if i >= 0), default=len(rest))
    authority, tail = rest[:cut], rest[cut:]
    user = password = None
    if "@" in authority:
        userinfo, _, authority = authority.rpartition("@")
        u, colon, p = userinfo.partition(":")
        user = _pct_decode(u)
        password = _pct_decode(p) if colon else None
    host, port = _split_host_port(authority, scheme)
    path, qmark, query = tail.partition("?")
    return URL(scheme, host, port, normalise_path(path or "/"), query if qmark else None,
               user, password)


def _split_host_port(authority: str, scheme: str) -> tuple[str, int]:
    bad = URLError("format", "URL using bad/illegal format or missing URL")
    if authority.startswith("["):
        end = authority.find("]")
        if end < 0:
            raise bad
        host, after = authority[1:end], authority[end + 1:]
        if after and not after.startswith(":"):
            raise bad
        port_text = after[1:] if after else ""
        if "%" in host:
            raise bad  # zone ids name a host interface
        try:
            host = str(ipaddress.IPv6Address(host))
        except ValueError:
            raise bad from None  # zone ids and junk
    else:
        host, colon, port_text = authority.partition(":")
        if not colon:
            port_text = ""
        elif not port_text:
            port_text = ""
        host = normalise_host(host)
    if not host:
        raise URLError("format", "URL using bad/illegal format or missing URL")
    if port_text:
        if not port_text.isdigit() or not 0 < int(port_text) <= 65535:
            raise URLError("format", "URL using bad/illegal format or missing URL")
        port = int(port_text)
    else:
        port = DEFAULT_PORTS[scheme]
    return host, port


def normalise_host(host: str) -> str:
    """Lower-case ASCII (IDNA), trailing dot dropped, IPv4 numbers in any inet_aton
    spelling (``127.1``, ``0x7f.0.0.1``, ``2130706433``) written as dotted quads."""
    host = host.rstrip(".") if host not in (".", "") else ""
    if not host:
        return ""
    v4 = _inet_aton(host)
    if v4 is not None:
        return v4
    if not host.isascii():
        try:
            host = host.encode("idna").decode("ascii")
        except UnicodeError:
            raise URLError("format", f"Failed to convert {host} to ACE") from None
    if _BAD_HOST.search(host):
        raise URLError("format", "URL using bad/illegal format or missing URL")
    return host.lower()


def _inet_aton(text: str) -> str | None:
    parts = text.split(".")
    if not 1 <= len(parts) <= 4:
        return None
    nums = []
    for p in parts:
        try:
            if p[:2].lower() == "0x":
                n = int(p[2:] or "0", 16)
            elif len(p) > 1 and p[0] == "0":
                n = int(p[1:], 8)
            else:
                n = int(p, 10) if p.isdigit() else -1
        except ValueError:
            return None
        if n < 0:
            return None
        nums.append(n)
    *head, last = nums
    if any(n > 255 for n in head) or last >= 256 ** (5 - len(nums)):
        return None
    value = 0
    for n in head:
        value = value * 256 + n
    value = value * 256 ** (5 - len(nums)) + last
    return str(ipaddress.IPv4Address(value))


def _pct_decode(text: str) -> str:
    from urllib.parse import unquote

    return unquote(text)


def _decode_unreserved(path: str) -> str:
    """``%41`` -> ``A`` for unreserved characters only (RFC 3986 6.2.2.2): ``%2e`` is a dot."""
    def sub(m):
        c = chr(int(m.group(1), 16))
        return c if c in _UNRESERVED else m.group(0).upper()
    return re.sub(r"%([0-9A-Fa-f]{2})", sub, path)


def normalise_path(path: str) -> str:
    """Dot segments removed (RFC 3986 5.2.4) after decoding encoded unreserved characters."""
    path = _decode_unreserved(path)
    if not path.startswith("/"):
        path = "/" + path
    out: list[str] = []
    segments = path.split("/")[1:]
    for i, seg in enumerate(segments):
        last = i == len(segments) - 1
        if seg == ".":
            if last:
                out.append("")
        elif seg == "..":
            if out:
                out.pop()
            if last:
                out.append("")
        else:
            out.append(seg)
    return "/" + "/".join(out)


# -- addresses --------------------------------------------------------------------------
_NAT64 = (ipaddress.IPv6Network("64:ff9b::/96"), ipaddress.IPv6Network("64:ff9b:1::/48"))
_COMPAT = ipaddress.IPv6Network("::/96")


def embedded_v4(ip: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses a v6 address carries (mapped, compatible, NAT64, 6to4, Teredo)."""
    out = []
    if ip.ipv4_mapped is not None:
        out.append(ip.ipv4_mapped)
    low32 = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    if ip in _COMPAT or any(ip in n for n in _NAT64):
        out.append(low32)
    if ip.sixtofour is not None:
        out.append(ip.sixtofour)
    if ip.teredo is not None:
        out.extend(ip.teredo)
    return out


def is_public(ip: IPAddress) -> bool:
    """True for a globally routable unicast address, with no internal address inside it."""
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return is_public(ip.ipv4_mapped)
    if not ip.is_global or ip.is_multicast or ip.is_reserved or ip.is_unspecified:
        return False
    if isinstance(ip, ipaddress.IPv6Address):
        return all(is_public(v4) for v4 in embedded_v4(ip))
    return True


def _same(a: IPAddress, b: IPAddress) -> bool:
    if isinstance(a, ipaddress.IPv6Address) and a.ipv4_mapped is not None:
        a = a.ipv4_mapped
    if isinstance(b, ipaddress.IPv6Address) and b.ipv4_mapped is not None:
        b = b.ipv4_mapped
    return a == b


LOCALHOST = ("127.0.0.1", "::1")


# -- the policy -----------------------------------------------------------------------
@dataclass(frozen=True)
class Rule:
    """One allow-list entry: ``schemes`` on ``host``:``port`` under ``path``."""

    text: str
    schemes: frozenset[str]
    host: str
    port: int | None  # None: each scheme's default port
    path: str  # "/" allows every path

    def ports(self) -> set[int]:
        return {self.port} if self.port is not None else {DEFAULT_PORTS[s] for s in self.schemes}

    def matches(self, url: URL) -> bool:
        if url.scheme not in self.schemes or url.host != self.host:
            return False
        if url.port != (self.port if self.port is not None else DEFAULT_PORTS[url.scheme]):
            return False
        return path_under(url.path, self.path)

    def literal(self) -> IPAddress | None:
        try:
            return ipaddress.ip_address(self.host)
        except ValueError:
            return None

    def names_address(self, ip: IPAddress) -> bool:
        """True when this entry names ``ip`` itself (an IP literal, or ``localhost``)."""
        lit = self.literal()
        if lit is not None:
            return _same(lit, ip)
        return self.host == "localhost" and ip.is_loopback


def path_under(path: str, prefix: str) -> bool:
    """``path`` is ``prefix`` or below it (``/repos`` covers ``/repos/x``, not ``/reposx``).
    An encoded slash or a backslash below a narrower prefix is refused: a server that
    decodes it could climb out."""
    if prefix == "/":
        return True
    if not (path == prefix or path.startswith(prefix if prefix.endswith("/") else prefix + "/")):
        return False
    rest = path[len(prefix):].lower()
    return "%2f" not in rest and "%5c" not in rest and "\\" not in rest


def parse_rule(entry: str) -> Rule:
    """An allow-list entry: a URL prefix with a scheme, or a bare ``host[:port]`` (https)."""
    if not isinstance(entry, str) or not entry.strip():
        raise ValueError(f"network allow entry must be a non-empty string: {entry!r}")
    text = entry.strip()
    if "://" not in text:
        if "/" in text or "?" in text or "#" in text or "@" in text:
            raise ValueError(f"allow entry {entry!r}: a host is written without a path "
                             "(use a URL prefix such as https://host/path/)")
        url = _rule_url("https://" + text, entry)
        explicit_port = _has_port(text)
        return Rule(entry, frozenset({"https"}), url.host, url.port if explicit_port else None, "/")
    if "?" in text or "#" in text:
        raise ValueError(f"allow entry {entry!r}: a prefix has no query or fragment")
    url = _rule_url(text, entry)
    if url.user is not None:
        raise ValueError(f"allow entry {entry!r}: no user name in a prefix")
    authority = text.split("://", 1)[1].split("/", 1)[0]
    return Rule(entry, frozenset({url.scheme}), url.host,
                url.port if _has_port(authority) else None, url.path)


def _has_port(authority: str) -> bool:
    return bool(re.search(r":\d+$", authority))


def _rule_url(text: str, entry: str) -> URL:
    try:
        return parse_url(text)
    except URLError as e:
        raise ValueError(f"allow entry {entry!r}: {e}") from None


Resolver = Callable[[str], Iterable[str]]


class Network:
    """What the sandbox may reach over the network (see the module's docstring).

    ``Network()`` allows nothing: the same as no network at all, but ``curl`` and
    ``wget`` say which URL was refused.
    """

    __slots__ = ("rules", "methods", "max_bytes", "timeout", "headers", "resolver")

    def __init__(self, allow: Iterable[str] = (), *, methods: Iterable[str] | None = None,
                 max_bytes: int | None = None, timeout: float | None = None,
                 headers: Mapping[str, Mapping[str, str]] | None = None,
                 resolver: Resolver | None = None) -> None:
        if isinstance(allow, str):
            allow = [allow]
        self.rules: tuple[Rule, ...] = tuple(parse_rule(e) for e in allow)
        if methods is not None:
            if isinstance(methods, str):
                methods = [methods]
            ms = frozenset(m.upper() for m in methods)
            if not all(isinstance(m, str) and re.fullmatch(r"[A-Z]+", m) for m in ms):
                raise ValueError(f"methods must be HTTP method names: {sorted(ms)}")
            self.methods: frozenset[str] | None = ms
        else:
            self.methods = None
        if max_bytes is not None and (isinstance(max_bytes, bool) or not isinstance(max_bytes, int)
                                      or max_bytes < 0):
            raise ValueError("max_bytes must be a non-negative int or None")
        self.max_bytes = max_bytes
        if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, int | float)
                                    or timeout <= 0):
            raise ValueError("timeout must be a positive number of seconds or None")
        self.timeout = None if timeout is None else float(timeout)
        injected: list[tuple[Rule, tuple[tuple[str, str], ...]]] = []
        for prefix, hs in (headers or {}).items():
            rule = parse_rule(prefix)
            pairs = tuple((str(k), str(v)) for k, v in hs.items())
            for k, v in pairs:
                if not re.fullmatch(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+", k) or any(
                        c in v for c in "\r\n\x00"):
                    raise ValueError(f"injected header for {prefix!r} is not a valid header: {k!r}")
            injected.append((rule, pairs))
        self.headers: tuple[tuple[Rule, tuple[tuple[str, str], ...]], ...] = tuple(injected)
        if resolver is not None and not callable(resolver):
            raise TypeError("resolver must be a callable host -> addresses")
        self.resolver = resolver

    def __repr__(self) -> str:
        return f"Network(allow={[r.text for r in self.rules]!r})"

    @property
    def enabled(self) -> bool:
        return bool(self.rules)

    def rule_for(self, url: URL) -> Rule | None:
        """The first allow entry that covers ``url`` (None: refused)."""
        for rule in self.rules:
            if rule.matches(url):
                return rule
        return None

    def method_allowed(self, method: str) -> bool:
        return self.methods is None or method.upper() in self.methods

    def address_allowed(self, url: URL, ip: IPAddress) -> bool:
        """May a connection for ``url`` (allowed by an entry) go to ``ip``?"""
        if is_public(ip):
            return True
        return any(r.names_address(ip) for r in self.rules if r.matches(url))

    def injected_headers(self, url: URL) -> list[tuple[str, str]]:
        """The embedder's headers for ``url`` (only on URLs the allow-list also covers)."""
        if self.rule_for(url) is None:
            return []
        out: list[tuple[str, str]] = []
        for rule, pairs in self.headers:
            if rule.matches(url):
                out.extend(pairs)
        return out

    def secrets(self) -> list[str]:
        """The injected header values (masked wherever pysh would print them)."""
        return [v for _, pairs in self.headers for _, v in pairs if v]

    def ports(self) -> set[int]:
        """Every TCP port a connection may go to (the kernel floor's connect rules)."""
        out: set[int] = set()
        for r in self.rules:
            out |= r.ports()
        return out

    def permits_connect(self, address) -> bool:
        """Would the policy ever connect to ``(ip, port, ...)``? (The test suite's tripwire.)"""
        try:
            ip = ipaddress.ip_address(address[0])
            port = int(address[1])
        except (TypeError, ValueError, IndexError):
            return False
        if port not in self.ports():
            return False
        return is_public(ip) or any(r.names_address(ip) and port in r.ports() for r in self.rules)
