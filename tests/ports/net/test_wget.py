"""wget against a local server: naming, statuses, the policy."""

from __future__ import annotations

from tests.ports.net.conftest import run


def test_download_naming_and_statuses(sb, server):
    u = server.base
    r = run(sb, f"cd /tmp && wget -q {u}/files/a.txt && wget -q {u}/files/a.txt && cat a.txt.1;"
                f"wget -q {u}/dir/ && cat index.html; wget -q '{u}/redirect/302?to=/text';"
                f"ls; wget -qO- {u}/nope; echo $?; wget -q -O out {u}/nope; echo $?; wc -c < out")
    assert r.stdout == ("content of a.txt\n<html>index</html>\n302?to=%2Ftext\na.txt\na.txt.1\n"
                        "index.html\n8\n8\n0\n")
    assert r.stderr == ""


def test_post_headers_and_server_response(sb, server):
    u = server.base
    host = u.split("//")[1]
    r = run(sb, f"wget -q -O - --post-data 'a=b' --header 'X-A: 1' -U ua {u}/echo")
    assert r.stdout == (f"POST /echo\nHost: {host}\nUser-Agent: ua\nAccept: */*\n"
                        "Accept-Encoding: identity\nConnection: Keep-Alive\n"
                        "Content-Type: application/x-www-form-urlencoded\nContent-Length: 3\n"
                        "X-A: 1\n\na=b")
    r = run(sb, f"wget -qS -O /dev/null {u}/text")
    assert r.stderr == ("  HTTP/1.1 200 OK\n  Server: testsrv\n  Date: Mon, 01 Jan 2024 00:00:00 GMT\n"
                        "  Content-Type: text/plain\n  Content-Length: 12\n")


def test_errors_and_policy(sb, server):
    r = run(sb, "wget -q http://127.0.0.1:1/; echo $?; wget -q -t 1 " + server.base + "/close;"
                " echo $?; wget --bogus; echo $?; wget; echo $?; wget ftp://x/; echo $?;"
                " wget --no-check-certificate https://x/; echo $?")
    assert r.stdout == "4\n4\n2\n1\n1\n2\n"
    assert r.stderr.startswith(
        "wget: URL not allowed by this sandbox's network allow-list: http://127.0.0.1:1/\n"
        "wget: unrecognized option '--bogus'\nUsage: wget [OPTION]... [URL]...\n")
    assert "ftp://x/: Unsupported scheme ‘ftp’.\n" in r.stderr
    assert "option --no-check-certificate refused in this sandbox" in r.stderr


def test_verbose_log_shape(sb, server):
    r = run(sb, f"cd /tmp && wget {server.base}/files/v.txt")
    lines = r.stderr.splitlines()
    assert lines[0].startswith("--") and lines[0].endswith(f"--  {server.base}/files/v.txt")
    assert lines[1:5] == [f"Connecting to 127.0.0.1:{server.port}... connected.",
                          "HTTP request sent, awaiting response... 200 OK",
                          "Length: 17 [text/plain]", "Saving to: ‘v.txt’"]
    assert lines[-1] == "" and lines[-2].endswith(" - ‘v.txt’ saved [17/17]")
