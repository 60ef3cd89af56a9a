"""curl against a local server: the policy, the flags, the caps, the secrets."""

from __future__ import annotations

import socket

import pytest

from pysh.api import Sandbox
from pysh.shellkit import landlock
from pysh.shellkit.network import Network
from tests import tripwire
from tests.ports.net.conftest import run
from tests.ports.net.hostile import run_hostile
from tests.ports.net.server import Server, payload


def test_off_by_default_with_a_clear_message_even_when_silent():
    with Sandbox() as box:
        r = run(box, "curl -s http://example.com/; echo $?; wget -q http://example.com/; echo $?")
    assert r.stdout == "7\n4\n"
    assert r.stderr == ("curl: (7) network access is disabled in this sandbox\n"
                        "wget: network access is disabled in this sandbox\n")


def test_a_url_outside_the_allow_list(sb, server):
    r = run(sb, f"curl -s {server.base.replace('127.0.0.1', 'localhost')}/text; echo $?;"
                "curl -s https://example.com/x; echo $?")
    assert r.stdout == "7\n7\n"
    assert "curl: (7) URL not allowed by this sandbox's network allow-list: http://localhost:" in r.stderr
    assert "https://example.com/x" in r.stderr


def test_basics(sb, server):
    u = server.base
    r = run(sb, f"curl -s {u}/text; curl -s -o /dev/null -w '%{{http_code}}\\n' {u}/nope;"
                f"curl -sS -f {u}/nope; echo rc=$?; curl -s --fail-with-body {u}/nope; echo rc=$?")
    assert r.stdout == "hello world\n404\nrc=22\nnot found\nrc=22\n"
    assert r.stderr == "curl: (22) The requested URL returned error: 404\n"


def test_request_headers_data_and_order(sb, server):
    u = server.base
    r = run(sb, f"curl -s {u}/echo -u user:pass -A agent -e http://ref/ -H 'X-B: 2' -b 'a=1'"
                f" -d x=1 -d y=2")
    host = u.split("//")[1]
    assert r.stdout == (f"POST /echo\nHost: {host}\nAuthorization: Basic dXNlcjpwYXNz\n"
                        "User-Agent: agent\nAccept: */*\nReferer: http://ref/\nCookie: a=1\n"
                        "X-B: 2\nContent-Length: 7\n"
                        "Content-Type: application/x-www-form-urlencoded\n\nx=1&y=2")
    r = run(sb, f"curl -s -G {u}/echo -d a=1 --data-urlencode 'c=x y&z' -H 'Accept:' -H 'X-E;'")
    assert r.stdout.startswith("GET /echo?a=1&c=x+y%26z\n")
    assert "Accept" not in r.stdout and "X-E: \n" in r.stdout
    r = run(sb, f"printf '{{\"k\": 1}}' > j.json; curl -s --json @j.json {u}/echo")
    assert "Content-Type: application/json\nAccept: application/json\nContent-Length: 8\n" in r.stdout
    assert r.stdout.endswith('\n\n{"k": 1}')


def test_uploads_through_the_door(sb, server):
    u = server.base
    r = run(sb, f"printf 'line1\\nline2\\n' > f.txt; curl -s -d @f.txt {u}/echo | tail -n 1;"
                f"echo; curl -s --data-binary @f.txt {u}/echo | tail -n 2;"
                f"curl -s -F a=1 -F 'up=@f.txt;type=text/x' {u}/echo | grep -a -c form-data;"
                f"curl -s -T f.txt {u}/echo | head -n 1")
    assert r.stdout == "line1line2\nline1\nline2\n3\nPUT /echo\n"
    r = run(sb, f"curl -sS -d @missing.txt {u}/echo | tail -n 1; echo; "
                f"curl -sS -F 'a=@/etc/passwd' {u}/echo; echo rc=$?")
    assert r.stdout == "\n\nrc=26\n"  # an empty POST, as curl makes
    assert "root:" not in r.stdout + r.stderr


def test_output_files(sb, server):
    u = server.base
    r = run(sb, f"cd /tmp && curl -s -O {u}/files/a.txt -o b.txt {u}/files/b && cat a.txt b.txt;"
                f"curl -s --create-dirs -o d/e/f.txt {u}/text && cat d/e/f.txt;"
                f"curl -s '{u}/files/{{x,y}}.txt' -o 'g_#1.txt' && cat g_x.txt g_y.txt")
    assert r.stdout == ("content of a.txt\ncontent of b\nhello world\n"
                        "content of x.txt\ncontent of y.txt\n")
    r = run(sb, f"curl -sS -o /nope/x {u}/text; echo rc=$?; curl -sS -o /etc/x {u}/text; echo rc=$?")
    assert r.stdout == "rc=23\nrc=23\n"
    assert r.stderr.count("curl: (23) Failure writing output to destination") == 2


def test_include_head_redirects_and_write_out(sb, server):
    u = server.base
    r = run(sb, f"curl -sI {u}/text")
    assert r.stdout == ("HTTP/1.1 200 OK\r\nServer: testsrv\r\nDate: Mon, 01 Jan 2024 00:00:00 GMT"
                        "\r\nContent-Type: text/plain\r\nContent-Length: 12\r\n\r\n")
    r = run(sb, f"curl -siL '{u}/redirect/301?to=/text' | tr -d '\\r' | grep -e HTTP -e hello")
    assert r.stdout == "HTTP/1.1 301 Moved Permanently\nHTTP/1.1 200 OK\nhello world\n"
    r = run(sb, f"curl -sL -w '%{{http_code}} %{{num_redirects}} %{{url_effective}} "
                f"%{{size_download}} %{{content_type}}\\n' '{u}/redirect/302?to=/text' -o /dev/null;"
                f"curl -s -w '%{{redirect_url}}|%{{http_code}}\\n' '{u}/redirect/307?to=/json'")
    assert r.stdout == (f"200 1 {u}/text 12 text/plain\nmoved\n{u}/json|307\n")
    r = run(sb, f"curl -sSL --max-redirs 1 '{u}/redirect/302?to=/redirect/302'; echo rc=$?")
    assert r.stdout == "rc=47\n" and "curl: (47) Maximum (1) redirects followed" in r.stderr
    r = run(sb, f"curl -sL -d a=b '{u}/redirect/302?to=/echo' | head -n 1;"
                f"curl -sL -d a=b '{u}/redirect/307?to=/echo' | head -n 1")
    assert r.stdout == "GET /echo\nPOST /echo\n"


def test_chunked_gzip_and_compressed(sb, server):
    u = server.base
    r = run(sb, f"curl -s {u}/chunked; curl -s --compressed {u}/gzip | uniq -c;"
                f"curl -s {u}/gzip | gzip -dc | wc -l")
    assert r.stdout == "first line\nsecond line\n      3 compressed hello\n3\n"


def test_errors_like_curl(sb, server):
    u = server.base
    r = run(sb, f"curl -sS {u}/close; echo $?; curl -sS {u}/short; echo \" $?\";"
                "curl -sS ftp://x/; echo $?; curl -sS 'http://[::1/'; echo $?;"
                "curl; echo $?; curl --bogus x; echo $?; curl -o; echo $?;"
                "curl -k https://x/; echo $?; curl -x http://p:1 http://x/; echo $?")
    assert r.stdout == "52\n0123456789 18\n1\n3\n2\n2\n2\n2\n2\n"
    assert r.stderr == (
        "curl: (52) Empty reply from server\n"
        "curl: (18) transfer closed with 90 bytes remaining to read\n"
        'curl: (1) Protocol "ftp" not supported or disabled in libcurl\n'
        "curl: (3) bad range specification in URL position 9:\nhttp://[::1/\n        ^\n"
        "curl: try 'curl --help' or 'curl --manual' for more information\n"
        "curl: option --bogus: is unknown\ncurl: try 'curl --help' or 'curl --manual' for more information\n"
        "curl: option -o: requires parameter\ncurl: try 'curl --help' or 'curl --manual' for more information\n"
        "curl: option -k: refused in this sandbox: TLS certificates are always verified\n"
        "curl: try 'curl --help' or 'curl --manual' for more information\n"
        "curl: option -x: refused in this sandbox: no proxies: the sandbox connects to what its "
        "allow-list checked\ncurl: try 'curl --help' or 'curl --manual' for more information\n")


def test_connection_refused_on_an_allowed_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # bound, not listening: refused
        with Sandbox(network=Network([f"http://127.0.0.1:{port}/"])) as box:
            r = run(box, f"curl -sS http://127.0.0.1:{port}/; echo $?")
    assert r.stdout == "7\n"
    assert r.stderr.startswith(f"curl: (7) Failed to connect to 127.0.0.1 port {port} after ")
    assert r.stderr.endswith(" ms: Couldn't connect to server\n")


def test_redirect_to_a_host_not_allowed_is_never_sent(server):
    with Server() as other:
        seen = []
        other.httpd.RequestHandlerClass = type("H", (other.httpd.RequestHandlerClass,), {
            "_route": lambda self: seen.append(self.path)})
        with Sandbox(network=Network([server.base + "/"])) as box:
            r = run(box, f"curl -sSL '{server.base}/redirect/302?to={other.base}/x'; echo $?")
    assert seen == []
    assert r.stdout == "7\n"
    assert f"URL not allowed by this sandbox's network allow-list: {other.base}/x" in r.stderr


def test_names_resolving_to_internal_addresses_are_refused(server):
    calls = []

    def resolver(host):
        calls.append(host)
        return {"internal.test": ["10.0.0.5"], "rebind.test": ["127.0.0.1"],
                "mapped.test": ["::ffff:169.254.169.254"]}.get(host, [])

    allow = [f"http://{h}:{server.port}/" for h in ("internal.test", "rebind.test", "mapped.test",
                                                    "nxdomain.test")]
    with Sandbox(network=Network(allow, resolver=resolver)) as box:
        r = run(box, "; ".join(f"curl -sS http://{h}:{server.port}/text; echo $?" for h in
                               ("internal.test", "rebind.test", "mapped.test", "nxdomain.test",
                                "unlisted.test")))
    assert r.stdout == "7\n7\n7\n6\n7\n"
    assert ("curl: (7) internal.test resolves to 10.0.0.5, an internal address this sandbox "
            "does not connect to\n") in r.stderr
    assert "rebind.test resolves to 127.0.0.1" in r.stderr
    assert "curl: (6) Could not resolve host: nxdomain.test\n" in r.stderr
    assert "unlisted.test" not in calls  # only names the allow-list covers are looked up


def test_localhost_entry_is_pinned_without_a_lookup(server):
    def resolver(host):
        raise AssertionError(f"looked up {host}")

    allow = [f"http://localhost:{server.port}/"]
    with Sandbox(network=Network(allow, resolver=resolver)) as box:
        r = run(box, f"curl -sS http://localhost:{server.port}/text "
                     f"'http://localhost:{server.port}/redirect/302?to=/text' -L")
    assert r.stdout == "hello world\nhello world\n", r.stderr


def test_the_connection_goes_to_the_address_that_was_checked(monkeypatch):
    """One lookup per host per command; the socket goes to the pinned address, whatever a
    second lookup would say (DNS rebinding), and TLS keeps the name for SNI."""
    import anyio

    from pysh.ports.net import client as net_client

    answers = iter([["93.184.216.34"], ["127.0.0.1"]])
    looked = []

    def resolver(host):
        looked.append(host)
        return next(answers)

    targets = []

    async def fake_connect(host, port, **kw):
        targets.append((host, port))
        raise ConnectionRefusedError(111, "refused")

    monkeypatch.setattr(net_client.anyio, "connect_tcp", fake_connect)
    net = Network(["https://api.example.com/"], resolver=resolver)

    async def go():
        c = net_client.Client(net)
        from pysh.shellkit.network import parse_url

        for _ in range(2):
            with pytest.raises(net_client.NetError) as e:
                await c.send("GET", parse_url("https://api.example.com/x"),
                             [("Host", "api.example.com")], None)
            assert e.value.kind == "connect"
        await c.aclose()

    anyio.run(go)
    assert looked == ["api.example.com"]
    assert targets == [("93.184.216.34", 443)] * 2


def test_injected_credentials_are_sent_but_never_shown(server):
    secret = "Bearer s3cr3t-T0KEN"
    u = server.base
    net = Network([u + "/"], headers={u + "/echo": {"Authorization": secret}})
    with Sandbox(network=net) as box:
        r = run(box, f"set -x; env; curl -sv {u}/echo -H 'Authorization: mine' -o out.txt;"
                     f"grep -c 'Authorization: Bearer' out.txt; curl -s {u}/files/x -v -o /dev/null;"
                     f"curl -sS -w '%{{header_json}}' {u}/echo -o /dev/null; "
                     f"curl -sSL '{u}/redirect/302?to=/text' -v")
    assert "\n1\n" in r.stdout, r.stdout  # the server got it (and echoed it into out.txt)
    assert "s3cr3t" not in r.stderr and "s3cr3t" not in r.stdout
    assert "> Authorization: [set by the sandbox, hidden]" in r.stderr
    assert "> Authorization: mine" not in r.stderr  # the embedder's header replaces the script's


def test_policy_methods_and_size(server):
    u = server.base
    with Sandbox(network=Network([u + "/"], methods=["GET"], max_bytes=1000)) as box:
        r = run(box, f"curl -sS -d a=b {u}/echo; echo $?; curl -sS {u}/bytes/1000 | wc -c;"
                     f"curl -sS {u}/bytes/1001 | wc -c; echo ${{PIPESTATUS[0]}}")
    assert r.stdout == "7\n1000\n0\n63\n"
    assert f"curl: (7) method POST not allowed by this sandbox's network policy: {u}/echo" in r.stderr
    assert "this sandbox caps a response at 1000 bytes" in r.stderr


def test_a_big_body_is_exact(sb, server):
    r = run(sb, f"curl -s {server.base}/bytes/3000000 -o big.bin; wc -c < big.bin; md5sum < big.bin")
    import hashlib

    assert r.stdout == f"3000000\n{hashlib.md5(payload(3000000)).hexdigest()}  -\n"


def test_the_kernel_floor_refuses_ports_the_policy_does_not_name(server):
    """Landlock ABI 4+: a socket on the sandbox's thread reaches only the allowed ports."""
    if landlock.abi() < 4:
        pytest.skip("Landlock ABI < 4 has no network rules")  # not on this machine's kernel
    result = {}

    async def probe(shell, argv):
        for name, port in (("allowed", server.port), ("other", int(argv[1]))):
            s = socket.socket()
            try:
                s.connect(("127.0.0.1", port))
                result[name] = "connected"
            except PermissionError:
                result[name] = "EACCES"
            except OSError as e:
                result[name] = e.errno
            finally:
                s.close()
        return 0

    with Server() as other, tripwire.caught() as seen:
        with Sandbox(network=Network([server.base + "/"]), commands={"probe": probe}) as box:
            box.run(f"probe {other.port}")
    assert result == {"allowed": "connected", "other": "EACCES"}
    assert len(seen) == 1 and str(other.port) in seen[0]  # the tripwire saw the second one


# -- hostile: in a child process with a hard kill --------------------------------------------
def test_the_run_deadline_cancels_a_slow_transfer():
    r = run_hostile("curl -s '{base}/slow?delay=30'; echo after", timeout=2, kill_after=30)
    assert r["timed_out"] and r["status"] == 124 and r["stdout"] == ""
    assert r["run_time"] < 15  # far below the 30 s transfer; loaded machines need the margin


def test_max_time_and_network_timeout():
    r = run_hostile("curl -sS -m 1 '{base}/drip?n=50&delay=0.2'; echo \" $?\";"
                    "curl -sS '{base}/slow?delay=20'; echo \" $?\"",
                    network={"timeout": 1.0}, kill_after=30)
    lines = r["stderr"].splitlines()
    assert r["stdout"].endswith(" 28\n 28\n"), r
    assert lines[0].startswith("curl: (28) Operation timed out after ")
    assert lines[0].endswith(" out of 50 bytes received")
    assert lines[1].startswith("curl: (28) Operation timed out after 10")
    assert r["run_time"] < 15  # far below the 20 s wait


def test_endless_bodies_stop_at_every_cap():
    r = run_hostile("curl -s {base}/endless > /dev/null; echo $?", network={"max_bytes": 5_000_000},
                    kill_after=30)
    assert r["stdout"] == "63\n"
    r = run_hostile("curl -s {base}/endless", limits={"max_output_bytes": 1_000_000},
                    kill_after=30)
    assert r["truncated"] and r["stdout_len"] <= 1_100_000


@pytest.mark.parametrize("fetch", ["curl -s {base}/endless -o big",
                                   "wget -q -O big {base}/endless"])
def test_an_endless_download_stops_at_the_file_size_limit(fetch):
    # the body goes to a file through the port's write path: max_file_size stops it there
    r = run_hostile(fetch + "; echo after", limits={"max_file_size": 1 << 20}, kill_after=60)
    assert (r["status"], r["stdout"]) == (126, ""), r
    assert r["stderr"] == "pysh: file size: limit exceeded (1048576 bytes)\n", r
    assert r["files"] == "1048576 big\n", r


def test_redirect_loops_end():
    r = run_hostile("curl -sSL {base}/loop -o /dev/null; echo $?; curl -sL --max-redirs 3 "
                    "-w '%{num_redirects}' {base}/loop; echo \" $?\"", kill_after=30)
    assert r["stdout"] == "47\n3 47\n", r
    assert r["stderr"] == "curl: (47) Maximum (50) redirects followed\n"


def test_cookie_jar_round_trip(sb, server):
    u = server.base
    r = run(sb, f"curl -s -c jar.txt {u}/headers -o /dev/null; grep -c 'a\tb' jar.txt;"
                f"curl -s -b jar.txt {u}/echo | grep Cookie")
    assert r.stdout == "1\nCookie: a=b\n"


def test_output_files_follow_the_core_rules(tmp_path):
    """curl -o/-O, --create-dirs, -c and wget -O open their files through door A: a hard-linked
    file is never written, a planted FIFO fails at once, a link out is never written through."""
    import os

    ws, outside = tmp_path / "ws", tmp_path / "outside"
    ws.mkdir()
    outside.mkdir()
    (outside / "secret.txt").write_bytes(b"SECRET\n")
    os.link(outside / "secret.txt", ws / "hl")
    os.link(outside / "secret.txt", ws / "a.txt")  # what -O would name the download
    os.mkfifo(ws / "fifo")
    os.symlink(outside, ws / "out")
    os.symlink(outside / "new", ws / "dang")
    lines = []
    for cmd in ("curl -sS -o hl {base}/text", "curl -sS -O {base}/files/a.txt",
                "curl -sS -o fifo {base}/text", "curl -sS -o dang {base}/text",
                "curl -sS --create-dirs -o out/d/x {base}/text", "curl -sS -c hl {base}/headers",
                "wget -q -O hl {base}/text", "wget -q -O fifo {base}/text",
                "wget -q -O dang {base}/text", "wget -q -P out {base}/text"):
        lines.append(f"{cmd} > /dev/null; echo \"{cmd.split(' {')[0]}: $?\"")
    r = run_hostile("\n".join(lines) + "\ncat hl a.txt", ws=str(ws), kill_after=60)
    assert r["stdout"].splitlines() == [
        "curl -sS -o hl: 23", "curl -sS -O: 23", "curl -sS -o fifo: 23", "curl -sS -o dang: 23",
        "curl -sS --create-dirs -o out/d/x: 23", "curl -sS -c hl: 0",
        "wget -q -O hl: 3", "wget -q -O fifo: 3", "wget -q -O dang: 3", "wget -q -P out: 3",
        "SECRET", "SECRET"], r
    err = r["stderr"]
    assert err.count("curl: (23) Failure writing output to destination\n") == 5
    assert err.endswith("hl: Operation not permitted\nfifo: No such device or address\n"
                        "dang: Permission denied\nout/text: Permission denied\n"), err
    assert str(tmp_path) not in err and "Traceback" not in err
    assert sorted(os.listdir(outside)) == ["secret.txt"]
    assert (outside / "secret.txt").read_bytes() == b"SECRET\n"
