"""Golden cases: dd (GNU coreutils 9.1). The transfer line holds a time, so cases print
the record counts (status=noxfer) or nothing (status=none); unit tests check that line."""

FILES = {"in.txt": "hello world\n", "abc": "abcdefgh", "big": "0123456789" * 300}


def case(name, *operands, files=None, **kw):
    return dict(name=name, argv=["dd", *operands], files=files or FILES, **kw)


def with_out(name, *operands, out="abcdef", **kw):
    """A case that writes o1 (starting as ``out``) and shows it."""
    return case(name, *operands, files={**FILES, "o1": out}, **kw)


CASES = [
    case("blocks", "if=in.txt", "bs=4", "count=2", "status=noxfer"),
    case("skip_count", "if=in.txt", "bs=1", "skip=6", "count=5", "status=none"),
    case("stdin_stdout", "bs=3", "status=noxfer", stdin=b"abcdefgh"),
    case("ibs_obs", "ibs=3", "obs=2", "status=noxfer", stdin=b"abcdefgh"),
    case("default_blocks", "if=big", "status=noxfer"),
    case("suffix_k", "if=big", "bs=1K", "status=noxfer"),
    case("ucase", "if=in.txt", "conv=ucase", "status=none"),
    case("lcase", "conv=lcase", "status=none", stdin=b"MiXeD\n"),
    case("swab", "if=in.txt", "conv=swab", "status=none"),
    case("sync_pads", "if=in.txt", "bs=5", "count=3", "conv=sync", "status=noxfer"),
    case("bytes_flags", "if=in.txt", "iflag=skip_bytes,count_bytes", "skip=2", "count=3",
         "status=none"),
    case("count_in_bytes", "if=in.txt", "count=5B", "bs=2", "status=none"),
    case("product", "if=in.txt", "count=1x2", "bs=1", "status=none"),
    case("product_suffixes", "if=big", "count=2x1kB", "bs=1", "status=noxfer"),
    case("suffix_xM", "if=big", "count=1xM", "bs=1", "status=noxfer"),
    case("bytes_in_product", "if=big", "count=2x3B", "bs=1"),
    case("fullblock", "if=big", "bs=1000", "count=2", "iflag=fullblock", "status=noxfer"),
    with_out("of_truncates", "if=in.txt", "of=o1", "bs=4", "count=1", "status=noxfer"),
    with_out("seek_notrunc", "if=in.txt", "of=o1", "seek=1", "bs=3", "conv=notrunc",
             "status=none"),
    with_out("seek_truncates", "if=in.txt", "of=o1", "bs=3", "seek=2", "count=1", "status=none"),
    with_out("append", "if=in.txt", "of=o1", "oflag=append", "conv=notrunc", "status=noxfer"),
    with_out("excl_exists", "if=in.txt", "of=o1", "conv=excl"),
    case("nocreat_missing", "if=in.txt", "of=o1", "conv=nocreat"),
    case("new_file", "if=in.txt", "of=new", "status=noxfer"),
    case("bad_number", "bs=x"),
    case("zero_bs", "if=in.txt", "bs=0"),
    case("bad_operand", "foo=1"),
    case("bad_status", "if=in.txt", "status=bogus"),
    case("bad_iflag", "if=in.txt", "iflag=bogus"),
    case("bad_conv", "if=in.txt", "conv=bogus"),
    case("lcase_and_ucase", "if=in.txt", "conv=lcase,ucase"),
    case("missing_input", "if=nofile"),
    case("bad_option", "-x"),
    case("help", "--help"),
    case("version", "--version"),
]
