"""Run the golden command lines (golden_cases.py) through real bash+curl/wget or pysh, and
normalise what is time- or port-dependent: the port, curl's progress meter, wget's dates,
speeds and dot progress, multipart boundaries, curl -v's data-chunk lines."""

from __future__ import annotations

import os
import re
import subprocess
import tempfile

from tests.ports.net.golden_cases import CURL, FILES, WGET

CASES = [("curl_" + n, c) for n, c in CURL] + [("wget_" + n, c) for n, c in WGET]

_METER_HEAD = re.compile(r"  % Total    % Received % Xferd.*\n.*Dload  Upload.*\n")
_METER_LINE = re.compile(r"\r[ \d]{3} [ \d.kMG]{5}  [ \d]{3} [ \d.kMG]{5}  [ \d]{3} [ \d.kMG]{5}"
                         r"  [ \d.kMG]{5}  [ \d.kMG]{5} [-:\d ]{8} [-:\d ]{8} [-:\d ]{8} [ \d.kMG]{5}")
_DATE = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d")
_SPEED = re.compile(r"\((?:[\d.]+ [KMG]?B/s)\)")
_DOTS = re.compile(r"^ +\d+K[ .]*(?: +\d+%)?.*(?:=[\d.]+m?s|\d+s)$\n", re.M)
_BOUNDARY = re.compile(r"-{24}[0-9a-f]{16}")
_DATA_LINE = re.compile(r"^[{}] \[\d+ bytes data\]\n", re.M)
_MS = re.compile(r"after \d+ m(s|illiseconds)")


def normalise(text: str, port: int) -> str:
    text = text.replace(f"127.0.0.1:{port}", "127.0.0.1:PORT").replace(f"port {port}", "port PORT")
    text = text.replace(f'"remote_port":{port}', '"remote_port":PORT').replace(f" {port}\n", " PORT\n")
    text = _METER_HEAD.sub("", text)
    text = _METER_LINE.sub("", text)
    text = _DATE.sub("DATE", text)
    text = _SPEED.sub("(SPEED)", text)
    text = _DOTS.sub("", text)
    text = _BOUNDARY.sub("BOUNDARY", text)
    text = _DATA_LINE.sub("", text)
    text = _MS.sub(r"after N m\1", text)
    # what is left of a meter: blank lines (curl ends its meter with one)
    return "\n".join(line for line in text.split("\n") if line.strip() != "" or line == "") \
        .replace("\n\n\n", "\n\n")


def _listing(root: str) -> dict[str, str]:
    out = {}
    for dirpath, _dirs, files in os.walk(root):
        for f in files:
            p = os.path.join(dirpath, f)
            rel = os.path.relpath(p, root)
            if rel in FILES:
                continue
            with open(p, "rb") as fh:
                out[rel] = fh.read().decode("utf-8", "replace")
    return dict(sorted(out.items()))


def _populate(root: str) -> None:
    for name, content in FILES.items():
        with open(os.path.join(root, name), "w") as f:
            f.write(content)


def fill(cmd: str, base: str, port: int) -> str:
    return cmd.format(base=base, port=port)


def run_real(cmd: str, base: str, port: int) -> dict:
    with tempfile.TemporaryDirectory() as d:
        _populate(d)
        env = {"PATH": "/usr/bin:/bin", "HOME": d, "LANG": "C.UTF-8", "TZ": "UTC"}
        p = subprocess.run(["bash", "-c", fill(cmd, base, port)], cwd=d, env=env,
                           capture_output=True, timeout=60)
        return _result(p.stdout, p.stderr, p.returncode, _listing(d), port)


def run_pysh(cmd: str, base: str, port: int) -> dict:
    from pysh.api import Sandbox
    from pysh.shellkit.network import Network

    with tempfile.TemporaryDirectory() as d:
        _populate(d)
        # port 1 is allowed so that "connection refused" cases reach the socket
        with Sandbox(d, network=Network([base + "/", "http://127.0.0.1:1/"])) as sb:
            r = sb.run(fill(cmd, base, port), timeout=30)
        return _result(r.stdout_bytes, r.stderr_bytes, r.exit_code, _listing(d), port)


def _result(out: bytes, err: bytes, status: int, files: dict, port: int) -> dict:
    dec = lambda b: normalise(b.decode("utf-8", "replace"), port)  # noqa: E731
    return {"stdout": dec(out), "stderr": dec(err), "status": status,
            "files": {k: normalise(v, port) for k, v in files.items()}}
