"""The network options on the CLI and the MCP face."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from pysh import cli, mcp
from pysh.shellkit.network import parse_url


def test_cli_options_build_the_policy():
    o = cli.parse_cli(["--allow-url", "https://api.example.com/v1/", "--allow-host", "example.org",
                       "--allow-host", "http://plain.example:8080", "--net-methods", "get,head",
                       "--net-max-bytes", "1000", "--net-timeout", "5",
                       "--net-header", "https://api.example.com/ Authorization: Bearer $TOK",
                       "-c", "true"], host_env={"TOK": "t0k"})
    net = cli.network_of(o)
    assert [r.text for r in net.rules] == ["https://api.example.com/v1/", "example.org",
                                           "http://plain.example:8080/", "https://plain.example:8080/"]
    assert net.rule_for(parse_url("http://plain.example:8080/x")) is not None
    assert net.rule_for(parse_url("http://example.org/")) is None
    assert net.methods == {"GET", "HEAD"} and net.max_bytes == 1000 and net.timeout == 5.0
    assert net.injected_headers(parse_url("https://api.example.com/v1/x")) == [
        ("Authorization", "Bearer t0k")]
    assert cli.network_of(cli.parse_cli(["-c", "true"])) is None


@pytest.mark.parametrize("argv, message", [
    (["--allow-url", "example.com"], "--allow-url: a prefix starts with http:// or https://"),
    (["--allow-url", "ftp://x/"], "--allow-url: allow entry"),
    (["--net-header", "https://x/ Authorization: $NOPE"], "--net-header: NOPE is not set"),
    (["--net-max-bytes", "lots"], "--net-max-bytes: not a number of bytes"),
])
def test_cli_option_errors(argv, message):
    with pytest.raises(cli.UsageError) as e:
        cli.network_of(cli.parse_cli(argv + ["-c", "true"], host_env={}))
    assert str(e.value).startswith(message)


def test_the_cli_reaches_an_allowed_server(server):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    p = subprocess.run([sys.executable, "-m", "pysh", "--allow-url", server.base + "/", "-c",
                        f"curl -s {server.base}/text; curl -s http://127.0.0.1:1/; echo $?"],
                       capture_output=True, text=True, timeout=60, env=env)
    assert p.stdout == "hello world\n7\n"
    assert p.stderr == ("curl: (7) URL not allowed by this sandbox's network allow-list: "
                        "http://127.0.0.1:1/\n")


def test_mcp_takes_the_options_and_says_what_is_reachable():
    o, http = mcp.parse_args(["--allow-url", "https://api.example.com/"])
    assert cli.network_of(o).rules[0].host == "api.example.com"
    assert "https://api.example.com/" in mcp.instructions(o)
    o, _ = mcp.parse_args([])
    assert "there is no network" in mcp.instructions(o)
