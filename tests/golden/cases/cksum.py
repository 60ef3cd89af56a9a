"""Golden cases: cksum and sum (GNU coreutils 9.1): the POSIX CRC (its length octets
included), BSD and System V sums, cksum -a digests tagged and untagged, and cksum -c."""

BIG = "".join(f"{i}\n" for i in range(30000))  # 168,894 bytes: several length octets, blocks
FILES = {"f": "hello world\n", "big": BIG, "bin": bytes(range(256)) * 5, "empty": "",
         "d/": None, "odd name": "x"}
CASES = [
    dict(name="crc", argv=["cksum", "f"]),
    dict(name="crc_several", argv=["cksum", "f", "big", "bin", "empty", "odd name"]),
    dict(name="crc_stdin", argv=["cksum"], stdin="abc\n"),
    dict(name="crc_stdin_dash", argv=["cksum", "-"], stdin="abc\n"),
    dict(name="crc_empty_stdin", argv=["cksum"], stdin=""),
    dict(name="crc_missing", argv=["cksum", "f", "nope", "big"]),
    dict(name="algo_bsd", argv=["cksum", "-a", "bsd", "big", "f"]),
    dict(name="algo_sysv", argv=["cksum", "--algorithm=sysv", "big", "bin"]),
    dict(name="algo_md5", argv=["cksum", "-a", "md5", "f", "big"]),
    dict(name="algo_sha256_untagged", argv=["cksum", "-a", "sha256", "--untagged", "f"]),
    dict(name="algo_blake2b_len", argv=["cksum", "-a", "blake2b", "-l", "128", "f"]),
    dict(name="algo_len_not_blake", argv=["cksum", "-a", "sha1", "-l", "128", "f"]),
    dict(name="algo_bad", argv=["cksum", "-a", "crc32", "f"]),
    dict(name="check_tagged", script="cksum -a sha1 f big > l && cksum -c l"),
    dict(name="check_stdin", script="cksum -a md5 f | cksum -c"),
    dict(name="check_mismatch", script="cksum -a md5 f big > l && echo changed >> f; "
                                       "cksum -c l; echo status $?"),
    dict(name="check_untagged_lines", script="md5sum f > l; cksum -c l; echo status $?"),
    dict(name="check_missing_list", argv=["cksum", "-c", "nope"]),
    dict(name="check_crc", script="cksum f > l; cksum -a crc -c l; echo status $?"),
    dict(name="sum_bsd", argv=["sum", "big"]),
    dict(name="sum_r_several", argv=["sum", "-r", "big", "f", "bin"]),
    dict(name="sum_sysv", argv=["sum", "-s", "big", "f"]),
    dict(name="sum_stdin", argv=["sum"], stdin="abc\n"),
    dict(name="sum_missing", argv=["sum", "nope"]),
    dict(name="sum_bad_option", argv=["sum", "-x"]),
]
for c in CASES:
    c.setdefault("files", FILES)
