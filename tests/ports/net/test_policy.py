"""The network policy on its own: URL parsing, allow-list matching, address classes."""

from __future__ import annotations

import ipaddress

import pytest

from pysh.shellkit.network import Network, URLError, is_public, parse_rule, parse_url


@pytest.mark.parametrize("text, scheme, host, port, target", [
    ("http://Example.COM/a/b?x=1#frag", "http", "example.com", 80, "/a/b?x=1"),
    ("example.com", "http", "example.com", 80, "/"),
    ("https://example.com:8443", "https", "example.com", 8443, "/"),
    ("http://127.1/", "http", "127.0.0.1", 80, "/"),
    ("http://2130706433/", "http", "127.0.0.1", 80, "/"),
    ("http://0x7f.0.0.1/", "http", "127.0.0.1", 80, "/"),
    ("http://[::ffff:127.0.0.1]:81/", "http", "::ffff:7f00:1", 81, "/"),
    ("http://h/a/./b/../c", "http", "h", 80, "/a/c"),
    ("http://h/a/%2e%2e/b", "http", "h", 80, "/b"),
    ("http://h/../../etc", "http", "h", 80, "/etc"),
    ("http://user:pw@h.example/x", "http", "h.example", 80, "/x"),
    ("http://allowed.example@evil.example/", "http", "evil.example", 80, "/"),
    ("http://bücher.example/", "http", "xn--bcher-kva.example", 80, "/"),
    ("http://h.example./", "http", "h.example", 80, "/"),
])
def test_parse_url(text, scheme, host, port, target):
    u = parse_url(text)
    assert (u.scheme, u.host, u.port, u.target) == (scheme, host, port, target)


@pytest.mark.parametrize("text, kind", [
    ("ftp://x/", "scheme"), ("file:///etc/passwd", "scheme"), ("gopher://x/", "scheme"),
    ("http://", "format"), ("http://h:99999/", "format"), ("http://[::1/", "format"),
    ("http://[fe80::1%25eth0]/", "format"), ("http://a b/", "format"), ("http://h\r\nX: y/", "format"),
])
def test_bad_urls(text, kind):
    with pytest.raises(URLError) as e:
        parse_url(text)
    assert e.value.kind == kind


def test_prefix_rules():
    net = Network(["https://api.github.com/repos/", "http://127.0.0.1:8080/v1", "example.com"])
    ok = ["https://api.github.com/repos/a/b", "https://API.github.com:443/repos/x",
          "http://127.0.0.1:8080/v1", "http://127.0.0.1:8080/v1/x?y", "https://example.com/any",
          "https://example.com:443/"]
    refused = ["https://api.github.com/user", "http://api.github.com/repos/a",
               "https://api.github.com:8443/repos/a", "https://api.github.com/repos/../user",
               "https://api.github.com/repos/%2e%2e/user", "http://127.0.0.1:8080/v1x",
               "http://127.0.0.1/v1", "http://example.com/", "https://example.com:8443/",
               "https://sub.example.com/", "https://api.github.com.evil.com/repos/",
               "https://api.github.com/repos/a%2f..%2f..%2fuser", "https://api.github.com/repos/a\\b"]
    for u in ok:
        assert net.rule_for(parse_url(u)) is not None, u
    for u in refused:
        assert net.rule_for(parse_url(u)) is None, u
    assert net.ports() == {443, 8080}


@pytest.mark.parametrize("bad", ["", "http://h/?q=1", "ftp://h/", "https://u@h/", "h/path",
                                 "http://h:0/"])
def test_bad_rules(bad):
    with pytest.raises(ValueError):
        parse_rule(bad)


@pytest.mark.parametrize("addr, public", [
    ("93.184.216.34", True), ("2606:2800:220:1:248:1893:25c8:1946", True),
    ("127.0.0.1", False), ("10.1.2.3", False), ("172.16.0.1", False), ("192.168.1.1", False),
    ("169.254.169.254", False), ("0.0.0.0", False), ("100.64.0.1", False),
    ("224.0.0.1", False), ("239.255.255.250", False), ("255.255.255.255", False),
    ("240.0.0.1", False), ("198.18.0.1", False), ("::1", False), ("::", False),
    ("fe80::1", False), ("fc00::1", False), ("fd12::1", False), ("ff02::1", False),
    ("::ffff:127.0.0.1", False), ("::ffff:10.0.0.1", False), ("::ffff:93.184.216.34", True),
    ("::127.0.0.1", False), ("64:ff9b::7f00:1", False), ("64:ff9b::a9fe:a9fe", False),
    ("2002:7f00:1::", False), ("2002:a00:1::", False), ("2001:0:4136:e378:8000:63bf:80ff:fffe", False),
])
def test_address_classes(addr, public):
    assert is_public(ipaddress.ip_address(addr)) is public


def test_literal_entry_names_its_private_address_only():
    net = Network(["http://127.0.0.1:8080/", "http://localhost:9000/", "https://example.com/"])
    u = parse_url("http://127.0.0.1:8080/x")
    assert net.address_allowed(u, ipaddress.ip_address("127.0.0.1"))
    assert not net.address_allowed(u, ipaddress.ip_address("127.0.0.2"))
    assert net.address_allowed(parse_url("http://localhost:9000/"), ipaddress.ip_address("::1"))
    e = parse_url("https://example.com/")
    assert not net.address_allowed(e, ipaddress.ip_address("127.0.0.1"))
    assert net.address_allowed(e, ipaddress.ip_address("93.184.216.34"))
    # the tripwire's question: would the policy ever connect there?
    assert net.permits_connect(("127.0.0.1", 8080)) and not net.permits_connect(("127.0.0.1", 22))
    assert net.permits_connect(("93.184.216.34", 443)) and not net.permits_connect(("10.0.0.1", 443))


def test_injected_headers_and_methods():
    net = Network(["https://api.example.com/"], methods=["get", "HEAD"],
                  headers={"https://api.example.com/v1/": {"Authorization": "Bearer s3cret"}})
    assert net.injected_headers(parse_url("https://api.example.com/v1/x")) == [
        ("Authorization", "Bearer s3cret")]
    assert net.injected_headers(parse_url("https://api.example.com/v2/x")) == []
    assert net.method_allowed("GET") and not net.method_allowed("POST")
    assert net.secrets() == ["Bearer s3cret"]
    with pytest.raises(ValueError):
        Network(["https://a/"], headers={"https://a/": {"X": "a\r\nEvil: 1"}})
    with pytest.raises(ValueError):
        Network(["https://a/"], max_bytes=-1)
