"""Golden cases: hexdump and hd (util-linux 2.38.1)."""

from tests.golden.framework import pseudo_random_bytes

FILES = {
    "t1": b"hello world, this is a test\n\x00\x01\x02",
    "ctl": b"a\tb\x7f\xff\n\r\x0b\x0c\x07\x08\x00",
    "odd": b"abc",
    "e": b"",
    "z": bytes(100) + b"x" + bytes(64),
    "xs": b"X" * 40,
    "r": pseudo_random_bytes(700, 7),
    "nums": "".join(f"{i}\n" for i in range(1, 301)),
    "d/": None,
}


def case(name: str, *args: str, prog: str = "hexdump", **kw):
    return dict(name=name, argv=[prog, *args], files=FILES, **kw)


CASES = [
    case("default", "t1"),
    case("default_odd", "odd"),
    case("default_random", "r"),
    case("canonical", "-C", "t1"),
    case("canonical_long", "--canonical", "r"),
    case("canonical_odd", "-C", "odd"),
    case("hd", "t1", prog="hd"),
    case("chars", "-c", "ctl"),
    case("chars_random", "-c", "r"),
    case("octal_bytes", "-b", "ctl"),
    case("decimal", "-d", "ctl"),
    case("octal", "-o", "ctl"),
    case("hex", "-x", "ctl"),
    case("formats_in_order", "-C", "-x", "-c", "t1"),
    case("squeeze", "z"),
    case("squeeze_canonical", "-C", "z"),
    case("squeeze_tail", "-C", "xs"),
    case("no_squeeze", "-v", "-C", "z"),
    case("length", "-n", "20", "nums"),
    case("skip_length", "-C", "-s", "2", "-n", "5", "t1"),
    case("skip_hex_length_k", "-s", "0x10", "-n", "1K", "nums"),
    case("skip_past_end", "-s", "99999", "r"),
    case("length_zero", "-n", "0", "r"),
    case("long_options", "--skip=4", "--length=8", "--canonical", "t1"),
    case("bad_length", "-n", "abc", "r"),
    case("stdin", "-C", stdin=b"from stdin\n"),
    case("stdin_dash", "-", stdin=b"xy"),
    case("two_files", "-C", "odd", "t1"),
    case("empty", "e"),
    case("empty_canonical", "-C", "e"),
    case("missing", "nofile"),
    case("missing_and_present", "odd", "nofile"),
    case("all_missing", "nofile", "nofile2"),
    case("directory", "d"),
    case("directory_and_file", "-C", "d", "odd"),
    case("bad_option", "-q", "t1"),
]
