"""hexdump beyond the golden cases: confinement, help, large input streamed in blocks."""

from __future__ import annotations

from tests.harness import run_cmd, sandbox

FILES = {"escape": {"symlink": "/etc"}, "f": b"\xff\xfe\x80 a\n"}


def test_denied_and_missing_paths():
    with sandbox(FILES) as ex:
        r = run_cmd(ex, ["hexdump", "-C", "escape/passwd"])
        assert r.status == 1 and "escape/passwd: Permission denied" in r.err
        assert "root" not in r.out
        r = run_cmd(ex, ["hexdump", "/etc/passwd"])
        assert r.status == 1 and "/etc/passwd: No such file or directory" in r.err


def test_help_version_and_format_strings():
    with sandbox(FILES) as ex:
        r = run_cmd(ex, ["hexdump", "--help"])
        assert r.status == 0 and "Usage:\n hexdump [options] <file>..." in r.out
        r = run_cmd(ex, ["hexdump", "-e", '"%x"', "f"])
        assert r.status == 1 and "not supported" in r.err and r.out == ""


def test_large_input_matches_block_by_block():
    data = bytes(range(256)) * 64  # 16 KiB, every block different from the one before
    with sandbox({"big": data}) as ex:
        r = run_cmd(ex, ["hexdump", "-C", "big"])
    lines = r.out.splitlines()
    assert r.status == 0 and len(lines) == len(data) // 16 + 1
    assert lines[1] == "00000010  10 11 12 13 14 15 16 17  18 19 1a 1b 1c 1d 1e 1f  |................|"
    assert lines[-1] == "00004000"
