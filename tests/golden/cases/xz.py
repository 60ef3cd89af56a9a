"""xz / unxz / xzcat / lzma (XZ Utils 5.4.1): bytes, names, messages, exit statuses."""

import lzma

BIG = "".join(f"{i}\n" for i in range(1, 20001))
_big_xz = lzma.compress(BIG.encode(), preset=6)
_corrupt = bytearray(_big_xz)
_corrupt[2000] ^= 0xFF
FILES = {
    "a": "hello\n", "big": BIG, "crlf": "a\r\nb\r\n", "bin": b"\xff\xfe\x00bin",
    "empty": "", "d/": None, "big.xz": _big_xz, "t.xz": _big_xz[:100],
    "c.xz": bytes(_corrupt), "g.xz": "garbage\n", "nonl": "no newline",
}
SHOW = ('; s=$?; for f in $(ls | sort); do [ -f "$f" ] && echo "$f $(wc -c < "$f") '
        '$(md5sum < "$f" | cut -c1-8)"; done; exit $s')


def s(name, cmd, **kw):
    return dict(name=name, script=cmd + SHOW, files=FILES, **kw)


def c(name, *argv, **kw):
    kw.setdefault("files", FILES)
    return dict(name=name, argv=list(argv), **kw)


CASES = [
    s("compress", "xz a"),
    s("compress_verbose", "xz -v a"),
    s("compress_many_keep", "xz -k a crlf bin empty nonl"),
    s("already_suffix", "xz -k a; xz a.xz"),
    s("exists", "xz -k a; xz -k a"),
    s("exists_force", "xz -k a; xz -kf a"),
    s("decompress", "xz -d big.xz"),
    s("decompress_keep", "xz -dk big.xz"),
    s("unxz_unknown_suffix", "cp big.xz zz; unxz zz"),
    s("unxz_txz", "cp big.xz x.txz; unxz x.txz"),
    s("custom_suffix", "xz -S .q -k a; xz -d -S .q a.q"),
    s("lzma_roundtrip", "lzma -k a; lzma -d -c a.lzma; unlzma a.lzma"),
    s("levels", "xz -0 -k -S .0 big; xz -9e -k -S .9 big; xz -C crc32 -k -S .c big"),
    s("check_sha256_list", "xz -k -C sha256 a; xz -l a.xz"),
    s("symlink", "ln -s a sl; xz sl"),
    s("hard_link_keep", "ln a hl; xz -k hl"),
    s("hard_link", "ln a hl; xz hl"),
    s("empty_file_verbose", "xz -v empty"),
    c("stdout", "xz", "-c", "a"),
    c("stdin_roundtrip", "xz", stdin="hi\n"),
    c("stdin_decompress", "xz", "-d", stdin=_big_xz),
    c("xzcat", "xzcat", "big.xz"),
    c("xzcat_missing", "xzcat", "nofile", "a.xz"),
    c("test_ok", "xz", "-t", "big.xz"),
    c("test_verbose", "xz", "-tv", "big.xz"),
    c("test_many", "xz", "-t", "g.xz", "t.xz", "big.xz", "c.xz"),
    c("list", "xz", "-l", "big.xz"),
    c("list_many", "xz", "-l", "big.xz", "a", "empty"),
    c("list_stdin", "xz", "-l", stdin=_big_xz),
    c("missing", "xz", "nofile"),
    c("directory", "xz", "d"),
    c("not_xz", "xz", "-d", "a"),
    c("garbage", "unxz", "g.xz"),
    c("truncated", "xz", "-d", "t.xz"),
    c("corrupt", "xz", "-d", "c.xz"),
    c("truncated_stdout", "xz", "-dc", "t.xz"),
    c("passthrough", "xz", "-dcf", "a", "big.xz"),
    c("concatenated", "xz", "-dc", stdin=_big_xz + _big_xz),
    c("trailing_junk", "xz", "-dc", stdin=_big_xz + b"junk"),
    c("single_stream", "xz", "-dc", "--single-stream", stdin=_big_xz + b"junk"),
    c("padding", "xz", "-dc", stdin=_big_xz + b"\0\0\0\0"),
    c("empty_stdin", "xz", "-d", stdin=""),
    c("quiet_warning", "xz", "-q", "d"),
    c("quiet_error", "xz", "-qq", "nofile"),
    c("bad_format", "xz", "-F", "foo", "a"),
    c("bad_check", "xz", "-C", "foo", "a"),
    c("bad_option", "xz", "-x"),
    c("version", "xz", "-V"),
]
