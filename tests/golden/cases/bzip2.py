"""bzip2 / bunzip2 / bzcat (1.0.8): bytes, names, messages, exit statuses."""

import bz2

BIG = "".join(f"{i}\n" for i in range(1, 20001))
_big_bz2 = bz2.compress(BIG.encode(), 9)
_corrupt = bytearray(_big_bz2)
_corrupt[5000] ^= 0xFF
FILES = {
    "a": "hello\n", "big": BIG, "crlf": "a\r\nb\r\n", "bin": b"\xff\xfe\x00bin",
    "empty": "", "d/": None, "big.bz2": _big_bz2, "t.bz2": _big_bz2[:100],
    "c.bz2": bytes(_corrupt), "g.bz2": "garbage\n",
}
SHOW = ('; s=$?; for f in $(ls | sort); do [ -f "$f" ] && echo "$f $(wc -c < "$f") '
        '$(md5sum < "$f" | cut -c1-8)"; done; exit $s')


def s(name, cmd, **kw):
    return dict(name=name, script=cmd + SHOW, files=FILES, **kw)


def c(name, *argv, **kw):
    kw.setdefault("files", FILES)
    return dict(name=name, argv=list(argv), **kw)


CASES = [
    s("compress", "bzip2 a"),
    s("compress_verbose", "bzip2 -v a big"),
    s("compress_many_keep", "bzip2 -k a crlf bin empty"),
    s("already_suffix", "bzip2 -k a; bzip2 a.bz2"),
    s("exists", "bzip2 -k a; bzip2 -k a"),
    s("exists_force", "bzip2 -k a; bzip2 -kf a"),
    s("decompress", "bzip2 -d big.bz2"),
    s("decompress_verbose", "bzip2 -dv big.bz2"),
    s("bunzip2_guess", "cp big.bz2 zz; bunzip2 zz"),
    s("bunzip2_tbz", "cp big.bz2 x.tbz; bunzip2 x.tbz"),
    s("not_bzip2", "bzip2 -d a"),
    s("not_bzip2_force_stdout", "bzip2 -dcf a crlf; echo $?; bzcat -f < bin | od -c"),
    s("not_bzip2_force_file", "bzip2 -df a; echo $?; bzip2 -tf crlf; echo $?"),
    s("corrupt_to_file", "cp c.bz2 c2.bz2; bzip2 -d c2.bz2"),
    s("truncated_to_file", "cp t.bz2 t2.bz2; bzip2 -d t2.bz2"),
    s("level1", "bzip2 -1 -k big"),
    s("hard_link", "ln a hl; bzip2 hl"),
    c("stdout", "bzip2", "-c", "a"),
    c("stdin", "bzip2", stdin="hi\n"),
    c("stdin_verbose", "bzip2", "-v", stdin="hi\n"),
    c("stdin_decompress_verbose", "bzip2", "-dv", stdin=_big_bz2),
    c("empty_stdin_verbose", "bzip2", "-v", stdin=""),
    c("bzcat", "bzcat", "big.bz2"),
    c("bzcat_not_bzip2", "bzcat", "a"),
    c("test_ok", "bzip2", "-t", "big.bz2"),
    c("test_verbose", "bzip2", "-tv", "big.bz2", "t.bz2"),
    c("test_many", "bzip2", "-t", "big.bz2", "g.bz2", "t.bz2", "c.bz2"),
    c("test_quiet", "bzip2", "-tq", "g.bz2"),
    c("missing", "bzip2", "nofile"),
    c("directory", "bzip2", "d"),
    c("garbage", "bzip2", "-d", "g.bz2"),
    c("truncated_stdout", "bzip2", "-dc", "t.bz2"),
    c("truncated_stdin", "bzip2", "-d", stdin=_big_bz2[:100]),
    c("stop_after_failure", "bzip2", "-dc", "big.bz2", "t.bz2", "a"),
    c("concatenated", "bzip2", "-dc", stdin=_big_bz2 + _big_bz2),
    c("trailing_junk", "bzip2", "-dc", stdin=_big_bz2 + b"junk"),
    c("trailing_junk_test", "bzip2", "-t", stdin=_big_bz2 + b"junk"),
    c("empty_stdin_decompress", "bzip2", "-d", stdin=""),
    c("bad_flag", "bzip2", "-x"),
    c("bad_long_flag", "bzip2", "--foo"),
    c("help", "bzip2", "-h"),
    c("version", "bzip2", "-V"),
]
