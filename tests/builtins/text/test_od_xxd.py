"""od and xxd: what the golden recordings cannot show (the door, denied paths, files written)."""

from __future__ import annotations

import pytest

from tests.harness import run_cmd, sandbox

BIN = bytes(range(256)) * 3 + b"\xff\xfe\x80 tail"
FILES = {"escape": {"symlink": "/etc"}, "bin": BIN, "f": "hello\n", "d/": None}


@pytest.fixture(scope="module")
def ex():
    with sandbox(FILES) as ex:
        yield ex


@pytest.mark.parametrize("argv", [["od"], ["od", "-c"], ["xxd"], ["xxd", "-r"], ["xxd", "-i"]])
def test_denied_symlink_escape(ex, argv):
    r = run_cmd(ex, argv + ["escape/passwd"])
    assert r.status != 0
    assert "escape/passwd: Permission denied" in r.err
    assert "root:" not in r.out and "/etc" not in r.err.replace("escape/passwd", "")


@pytest.mark.parametrize("cmd", ["od", "xxd"])
def test_host_etc_passwd_does_not_exist(ex, cmd):
    r = run_cmd(ex, [cmd, "/etc/passwd"])
    assert r.status != 0
    assert "/etc/passwd: No such file or directory" in r.err
    assert "root:" not in r.out


@pytest.mark.parametrize("cmd", ["od", "xxd"])
def test_help_exits_0_and_bad_option_is_clean(ex, cmd):
    r = run_cmd(ex, [cmd, "--help"])
    assert r.status == 0 and r.out.startswith("Usage") and r.err == ""
    # (xxd reads "--no-such-option" as -n o-such-option, as the real one does)
    r = run_cmd(ex, [cmd, "--zzz"])
    assert r.status == 1 and r.out == ""
    assert "Traceback" not in r.err
    assert ("unrecognized option '--zzz'" in r.err) if cmd == "od" else r.err.startswith(
        "Usage:")


def _parse_od_tx1(text: str) -> bytes:
    return bytes(int(tok, 16) for line in text.splitlines() for tok in line.split())


def test_od_non_utf8_bytes_exact(ex):
    r = run_cmd(ex, ["od", "-An", "-v", "-tx1", "bin"])
    assert r.status == 0 and _parse_od_tx1(r.out) == BIN


@pytest.mark.parametrize("skip,count", [(0, 70000), (65530, 20), (1, 131072), (100000, 1)])
def test_od_chunk_boundaries(skip, count):
    data = bytes((i * 7 + i // 251) & 0xFF for i in range(200_000))
    with sandbox({"big": data}) as ex:
        r = run_cmd(ex, ["od", "-An", "-v", "-tx1", "-j", str(skip), "-N", str(count), "big"])
        assert r.status == 0 and r.err == ""
        assert _parse_od_tx1(r.out) == data[skip:skip + count]
        # the offsets of a default dump count the same bytes
        r = run_cmd(ex, ["od", "-Ad", "-j", str(skip), "-N", str(count), "big"])
        assert r.out.splitlines()[-1] == f"{skip + min(count, len(data) - skip):07d}"


def test_od_star_suppresses_only_repeats():
    data = bytes(16) * 5 + b"x" * 16 + bytes(16)
    with sandbox({"z": data}) as ex:
        r = run_cmd(ex, ["od", "-An", "-tx1", "z"])
        lines = r.out.splitlines()
        assert lines[1] == "*" and lines.count("*") == 1
        assert lines[2].split() == ["78"] * 16
        r = run_cmd(ex, ["od", "-An", "-v", "-tx1", "z"])
        assert "*" not in r.out and len(r.out.splitlines()) == 7


def test_xxd_round_trip_big_non_utf8():
    data = bytes((i * 131 + (i >> 9)) & 0xFF for i in range(150_000)) + b"\xff\x00odd"
    with sandbox({"big": data}) as ex:
        r = run_cmd(ex, ["xxd", "big"])
        assert r.status == 0
        assert r.stdout.count(b"\n") == (len(data) + 15) // 16
        back = run_cmd(ex, ["xxd", "-r"], stdin=r.stdout)
        assert back.status == 0 and back.stdout == data
        plain = run_cmd(ex, ["xxd", "-p", "big"])
        assert bytes.fromhex(plain.out.replace("\n", "")) == data
        back = run_cmd(ex, ["xxd", "-r", "-p"], stdin=plain.stdout)
        assert back.stdout == data


def test_xxd_outfile_written_through_the_door():
    with sandbox({"f": b"hello\xff\n", "o": "old content that is longer\n"}) as ex:
        r = run_cmd(ex, ["xxd", "f", "o"])
        assert r.status == 0 and r.stdout == b""
        expected = run_cmd(ex, ["xxd", "f"]).stdout
        assert ex.shell.fs.read_bytes("o") == expected
        r = run_cmd(ex, ["xxd", "-i", "f", "/tmp/inc.h"])
        assert r.status == 0
        assert ex.shell.fs.read_bytes("/tmp/inc.h").startswith(b"unsigned char f[] = {\n  0x68")


def test_xxd_reverse_patches_without_truncating():
    with sandbox({"h": "00000002: 4142\n", "target": "0123456789\n"}) as ex:
        r = run_cmd(ex, ["xxd", "-r", "h", "target"])
        assert r.status == 0 and r.stdout == b""
        assert ex.shell.fs.read_bytes("target") == b"01AB456789\n"
        # the hex dump may seek backwards in a file
        ex.shell.fs.write_bytes("h2", b"00000008: 5a\n00000000: 59\n")
        assert run_cmd(ex, ["xxd", "-r", "h2", "target"]).status == 0
        assert ex.shell.fs.read_bytes("target") == b"Y1AB4567Z9\n"
        # a new file is created, holes read back as NUL bytes
        assert run_cmd(ex, ["xxd", "-r", "h", "new"]).status == 0
        assert ex.shell.fs.read_bytes("new") == b"\x00\x00AB"


def test_xxd_reverse_backwards_on_stdout_fails_cleanly():
    with sandbox({}) as ex:
        r = run_cmd(ex, ["xxd", "-r"], stdin=b"00000004: 41\n00000000: 42\n")
        assert r.status == 5 and r.stdout == b"\x00" * 4 + b"A"
        assert r.err == "xxd: Sorry, cannot seek backwards.\n"


@pytest.mark.parametrize("argv", [["xxd", "f", "out"], ["xxd", "-r", "h", "out"],
                                  ["xxd", "-p", "f", "out"]])
def test_xxd_read_only_mount_refuses_the_outfile(argv):
    with sandbox({"f": "hello\n", "h": "0: 41\n", "out": "original\n"}, read_only=True) as ex:
        r = run_cmd(ex, argv)
        assert r.status == 3
        assert r.err == "xxd: out: Permission denied\n"
        assert ex.shell.fs.read_bytes("out") == b"original\n"


def test_xxd_reads_a_directory_like_xxd(ex):
    r = run_cmd(ex, ["xxd", "d"])
    assert (r.status, r.err) == (2, "xxd: Is a directory\n")
    r = run_cmd(ex, ["od", "d"])
    assert (r.status, r.err, r.out) == (1, "od: d: Is a directory\n", "0000000\n")


def test_xxd_huge_hex_address_does_not_run_away():
    # a 20-digit "address" wraps like a C long: a backwards seek, not terabytes of NULs
    with sandbox({}) as ex:
        r = run_cmd(ex, ["xxd", "-r"], stdin=b"xD6A9Dd26a7BF8dE5C8\n79\nac2\n")
        assert r.status == 5 and r.stdout == b""
