"""Golden cases: less 590 and util-linux 2.38's more with their output not a terminal."""

FILES = {"p.txt": "a\nb\n", "q.txt": "c\n", "bin": b"\xff\x00x\n"}


def case(name, *argv, **kw):
    return dict(name=name, argv=list(argv), files=FILES, **kw)


CASES = [
    case("less_file", "less", "p.txt"),
    case("less_files", "less", "p.txt", "q.txt"),
    case("less_stdin", "less", stdin=b"piped\n"),
    case("less_options_change_nothing", "less", "-N", "-S", "-R", "-p", "b", "p.txt"),
    case("less_missing_file", "less", "p.txt", "nofile", "q.txt"),
    case("less_binary", "less", "bin"),
    case("less_version", "less", "--version"),
    case("more_file", "more", "p.txt"),
    case("more_files", "more", "p.txt", "q.txt"),
    case("more_stdin", "more", stdin=b"piped\n"),
    case("more_options", "more", "-d", "-n", "5", "p.txt"),
    case("more_missing_file", "more", "p.txt", "nofile"),
]
