"""iconv beyond the golden cases: -o through the door, confinement."""

from __future__ import annotations

from tests.harness import run_cmd, sandbox


def test_output_file_and_denied_paths():
    with sandbox({"l1": b"\xe9", "escape": {"symlink": "/etc"}}) as ex:
        r = run_cmd(ex, ["iconv", "-f", "latin1", "-t", "utf8", "l1", "-o", "out.u"])
        assert (r.status, r.out) == (0, "")
        assert ex.shell.fs.read_bytes("out.u") == "é".encode()
        r = run_cmd(ex, ["iconv", "escape/passwd"])
        assert r.status == 1 and "`escape/passwd': Permission denied" in r.err
        r = run_cmd(ex, ["iconv", "-f", "latin1", "l1", "-o", "escape/x"])
        assert r.status == 1 and "cannot open output file" in r.err
