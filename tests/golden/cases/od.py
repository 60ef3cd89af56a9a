"""Golden cases: od (GNU coreutils 9.1)."""

import struct

from tests.golden.framework import pseudo_random_bytes


def _x87(mant: int, sign_exp: int) -> bytes:
    return mant.to_bytes(8, "little") + sign_exp.to_bytes(2, "little") + bytes(6)


FLOATS = (struct.pack("<8f", float("nan"), -float("nan"), float("inf"), -0.0, 1.5, -2.25e-40,
                      3.4028234e38, 0.1)
          + struct.pack("<6d", -float("nan"), 1e-310, float("-inf"), 0.1, 123456789.125, -1e300))
LONG_DOUBLES = b"".join([
    _x87(1 << 63, 0x3FFF),                 # 1
    _x87(0xC000000000000000, 0xC000),      # -3
    _x87(0, 0x8000),                       # -0
    _x87(1 << 63, 0x7FFF),                 # inf
    _x87((1 << 63) | 5, 0xFFFF),           # -nan
    _x87(1 << 62, 0x8000),                 # negative denormal
    _x87(1 << 63, 0x0000),                 # pseudo-denormal
    _x87((1 << 63) + (1 << 62), 0x0000),   # pseudo-denormal, integer bit dropped
    _x87(0x0123456789ABCDEF, 0x4000),      # unnormal: nan
    _x87(0xCCCCCCCCCCCCCCCD, 0x3FFB),      # 0.1
])
FILES = {
    "t1": b"hello world\n\x00\xff\x80abc",
    "e": b"",
    "z": bytes(100) + b"x" + bytes(64),
    "z32": bytes(32),
    "odd": b"abcde",
    "r": pseudo_random_bytes(96, 7),
    "s1": b"abc\0defg\0hi\0\x01xyzw\0tail",
    "ctl": bytes(range(0, 40)) + bytes(range(120, 136)) + b"\x7f\xff\xa0",
    "u8": "h\u00e9llo w\u00f6rld \u2713\n".encode(),
    "fl": FLOATS,
    "ld": LONG_DOUBLES,
    "d/": None,
}


def case(name: str, *args: str, **kw):
    return dict(name=name, argv=["od", *args], **kw)


CASES = [
    # default and the traditional format options
    case("default", "t1"),
    case("c", "-c", "t1"),
    case("a", "-a", "t1"),
    case("a_ctl", "-a", "ctl"),
    case("c_ctl", "-c", "ctl"),
    case("b", "-b", "t1"),
    case("d", "-d", "t1"),
    case("o", "-o", "t1"),
    case("s", "-s", "t1"),
    case("x", "-x", "t1"),
    case("i", "-i", "r"),
    case("l", "-l", "r"),
    case("f", "-f", "r"),
    case("D", "-D", "r"),
    case("O", "-O", "r"),
    case("X", "-X", "r"),
    case("H", "-H", "r"),
    case("B", "-B", "r"),
    case("h", "-h", "r"),
    case("e", "-e", "r"),
    case("F", "-F", "r"),
    case("I", "-I", "r"),
    case("L", "-L", "r"),
    case("bc_combined", "-bc", "t1"),
    # -A and -t
    case("An_tx1", "-A", "n", "-t", "x1", "t1"),
    case("An_c", "-A", "n", "-c", "t1"),
    case("An_tc_tx1", "-A", "n", "-t", "c", "-t", "x1", "t1"),
    case("An_tx1_c_stdin", "-An", "-tx1", "-c", stdin=b"hi\tthere\n\x01\x80"),
    case("Ad", "-Ad", "-tx2", "t1"),
    case("Ax", "-Ax", "-tu1", "t1"),
    case("Ao", "-Ao", "t1"),
    case("address_radix_long", "--address-radix=x", "--format=x1", "t1"),
    case("Ad_width", "-Ad", "-w5", "-c", "t1"),
    case("tx1z", "-tx1z", "t1"),
    case("tx2z", "-tx2z", "t1"),
    case("tcz_u8", "-t", "xCz", "-t", "a", "u8"),
    case("c_u8", "-c", "u8"),
    case("td1", "-td1", "r"),
    case("td2", "-td2", "r"),
    case("td4", "-td4", "r"),
    case("td8", "-td8", "r"),
    case("tu1", "-tu1", "r"),
    case("tu2", "-tu2", "r"),
    case("tu4", "-tu4", "r"),
    case("tu8", "-tu8", "r"),
    case("to1", "-to1", "r"),
    case("to2", "-to2", "r"),
    case("to4", "-to4", "r"),
    case("to8", "-to8", "r"),
    case("tx1", "-tx1", "r"),
    case("tx2", "-tx2", "r"),
    case("tx4", "-tx4", "r"),
    case("tx8", "-tx8", "r"),
    case("size_letters", "-tdC", "-tdS", "-tdI", "-tdL", "r"),
    case("size_letters_oux", "-toC", "-tuS", "-txI", "-txL", "r"),
    case("default_sizes", "-t", "d", "-t", "o", "-t", "u", "-t", "x", "r"),
    case("multi_in_one", "-tx1o", "t1"),
    case("many_types", "-tx1", "-tc", "-to2", "-td4", "r"),
    case("mixed_widths", "-tx1", "-tf8", "r"),
    # floating point
    case("tf4", "-tf4", "fl"),
    case("tf8", "-tf8", "-j32", "fl"),
    case("tf_default", "-t", "f", "-j32", "fl"),
    case("tfF", "-tfF", "r"),
    case("tfD", "-tfD", "r"),
    case("tfL", "-tfL", "ld"),
    case("tf16", "-tf16", "ld"),
    case("tfL_random", "-tfL", "r"),
    case("tfL_tx1", "-tfL", "-tx1", "r"),
    case("tf4_z", "-tf4z", "fl"),
    case("f_big_endian", "--endian=big", "-tf4", "-tf8", "r"),
    case("fL_big_endian", "--endian=big", "-tfL", "ld"),
    # duplicate lines, -v, widths
    case("star", "z"),
    case("star_v", "-v", "z"),
    case("star_c", "-c", "z"),
    case("star_exact", "z32"),
    case("star_tx1_stdin", "-An", "-tx1", stdin=bytes(64) + b"end"),
    case("w8", "-w8", "z"),
    case("w_default32", "-w", "z"),
    case("w4_tx1", "-w4", "-tx1", "t1"),
    case("w3_tx2", "-w3", "-tx2", "t1"),
    case("w0", "-w0", "t1"),
    case("width_long", "--width=6", "-tx2", "t1"),
    case("w1_tx1", "-tx1", "-w1", "odd"),
    # empty input, odd lengths
    case("empty", "e"),
    case("empty_c", "-c", "e"),
    case("empty_An", "-An", "e"),
    case("empty_stdin", "-tx1"),
    case("odd_default", "odd"),
    case("odd_tx4", "-tx4", "odd"),
    case("odd_td8", "-td8", "odd"),
    case("odd_tf8", "-tf8", "odd"),
    # -j -N
    case("N5", "-N", "5", "t1"),
    case("N_hex", "-N", "0x3", "t1"),
    case("N0", "-N", "0", "t1"),
    case("N_suffix_k", "-N", "2k", "t1"),
    case("j3", "-j", "3", "t1"),
    case("j_hex", "-j", "0x2", "t1"),
    case("j_octal", "-j", "010", "t1"),
    case("j_kB", "-j", "1kB", "t1"),
    case("j_KiB", "-j", "1KiB", "t1"),
    case("j_b", "-j1b", "-c", "t1"),
    case("j_N_c", "-j", "3", "-N", "4", "-c", "t1"),
    case("skip_long", "--skip-bytes=2", "--read-bytes=4", "-c", "t1"),
    case("j_past_end", "-j", "100", "t1"),
    case("j_exact_end", "-j", "18", "t1"),
    case("j_across_files", "-j", "20", "-c", "t1", "t1"),
    case("j_stdin", "-j", "2", "-c", stdin=b"abcdef"),
    # files, stdin, errors
    case("two_files", "-c", "t1", "odd"),
    case("stdin", "-c", stdin=b"from stdin\n"),
    case("stdin_dash", "-c", "-", stdin=b"dash\n"),
    case("file_and_stdin", "-c", "odd", "-", stdin=b"XY"),
    case("missing", "missing"),
    case("missing_middle", "-c", "t1", "missing", "odd"),
    case("missing_all", "m1", "m2"),
    case("dir", "d"),
    case("dir_then_file", "-c", "d", "odd"),
    case("file_then_dir", "-c", "odd", "d"),
    # strings
    case("S3", "-S", "3", "s1"),
    case("S1", "-S", "1", "s1"),
    case("S0", "-S0", "s1"),
    case("strings_default", "--strings", "s1"),
    case("strings_eq", "--strings=4", "s1"),
    case("S_N", "-S", "2", "-N", "6", "s1"),
    case("S_j", "-S", "3", "-j", "2", "s1"),
    case("S_An", "-An", "-S3", "s1"),
    case("S_Ax", "-Ax", "-S1", "s1"),
    case("S_escapes", "-S", "1", stdin=b"ab\tc\0de\n\0"),
    case("S_with_type", "-S2", "-c", "t1"),
    case("S_width_warning", "-S3", "-w3", "s1"),
    # --endian
    case("endian_big_x2", "--endian=big", "-tx2", "t1"),
    case("endian_big_x4", "--endian=big", "-tx4", "-td8", "r"),
    case("endian_little", "--endian=little", "-tx4", "t1"),
    case("endian_abbrev", "--endian=b", "t1"),
    case("endian_bad", "--endian=foo", "t1"),
    # traditional operands
    case("offset_plus", "t1", "+4"),
    case("offset_hex", "-c", "t1", "+0x4"),
    case("offset_digit", "t1", "4"),
    case("offset_b", "t1", "+1b"),
    case("offset_dot", "-c", "t1", "10."),
    case("offset_only", "+2", stdin=b"abcdefgh"),
    case("traditional_label", "--traditional", "t1", "4", "100"),
    case("traditional_label_An", "--traditional", "-An", "t1", "4", "100"),
    case("traditional_one", "--traditional", "-c", "t1", "3"),
    case("traditional_offset_label_stdin", "--traditional", "-c", "2", "10", stdin=b"abcdefghij"),
    case("traditional_extra", "--traditional", "t1", "4", "100", "x"),
    case("traditional_two_files", "--traditional", "a", "b"),
    case("modern_no_offset", "-tx1", "t1", "+4"),
    # usage errors
    case("bad_type", "-t", "q", "t1"),
    case("bad_size", "-t", "x3", "t1"),
    case("bad_size_huge", "-t", "x99999999999999999999999", "t1"),
    case("bad_size_big", "-t", "x4294967297", "t1"),
    case("bad_float_size", "-t", "f2", "t1"),
    case("bad_float_letter", "-t", "fH", "t1"),
    case("bad_zz", "-t", "x1zz", "t1"),
    case("bad_a_size", "-t", "a1", "t1"),
    case("two_bad_types", "-t", "q", "-t", "x3", "t1"),
    case("bad_radix", "-A", "q", "t1"),
    case("bad_j", "-j", "x", "t1"),
    case("bad_j_neg", "-j", "-1", "t1"),
    case("bad_j_suffix", "-j", "1e", "t1"),
    case("bad_j_R", "-j", "1R", "t1"),
    case("bad_j_big", "-j", "99999999999999999999999", "t1"),
    case("bad_N_long", "--read-bytes=q", "t1"),
    case("bad_skip_suffix_long", "--skip-bytes=1B", "t1"),
    case("bad_w", "-wx", "t1"),
    case("bad_w_neg", "-w-1", "t1"),
    case("bad_w_big", "-w99999999999999999999", "t1"),
    case("bad_S", "-Sx", "t1"),
    case("bad_option", "-Q"),
    case("bad_long_option", "--foo"),
    case("ambiguous_option", "--s", "t1"),
    case("missing_argument", "t1", "-j"),
    case("help", "--help"),
]
for c in CASES:
    c.setdefault("files", FILES)
