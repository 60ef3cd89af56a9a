"""Golden cases: iconv (glibc 2.36)."""

FILES = {"lat": b"caf\xe9\n", "u8": "café ü ß €\n", "trunc": b"ab\xc3", "badu": b"a\xffb\n",
         "l1": b"\xe9", "ascii": "plain\n"}


def case(name, *args, **kw):
    return dict(name=name, argv=["iconv", *args], files=FILES, **kw)


CASES = [
    case("latin1_to_utf8", "-f", "latin1", "-t", "utf-8", "lat"),
    case("default_target", "-f", "ISO-8859-1", "lat"),
    case("long_options", "--from-code=ISO_8859-1", "--to-code=UTF8", "lat"),
    case("translit", "-f", "utf-8", "-t", "ascii//TRANSLIT", "u8"),
    case("unconvertible", "-f", "utf-8", "-t", "ascii", "u8"),
    case("omit", "-f", "utf-8", "-t", "ascii", "-c", "u8"),
    case("to_latin1", "-f", "utf-8", "-t", "latin1", "lat"),
    case("to_latin1_unconvertible", "-f", "utf-8", "-t", "latin1", "u8"),
    case("illegal_input", "-f", "utf-8", "-t", "utf-8", "badu"),
    case("incomplete_input", "-f", "utf-8", "-t", "utf-16le", "trunc"),
    case("unsupported_source", "-f", "bogus", "-t", "utf-8", "lat"),
    case("unsupported_target", "-f", "utf-8", "-t", "bogus", "lat"),
    case("utf16_bom", "-f", "utf8", "-t", "UTF-16", stdin=b"x"),
    case("utf16le", "-f", "utf8", "-t", "UTF-16LE", stdin=b"x"),
    case("utf32le", "-f", "utf-8", "-t", "utf-32le", "u8"),
    case("cp1252", "-f", "cp1252", "-t", "utf-8", "lat"),
    case("missing_file", "nofile"),
    case("stdin", "-f", "latin1", stdin=b"\xe9t\xe9\n"),
    case("two_files", "-f", "latin1", "l1", "lat"),
    case("ascii_identity", "-f", "ascii", "-t", "utf-8", "ascii"),
    case("bad_option", "--bogus"),
]
