"""Golden cases: nohup, nice and stdbuf (GNU coreutils 9.1), with no terminal attached."""


def case(name, *argv, **kw):
    return dict(name=name, argv=list(argv), **kw)


CASES = [
    case("nohup_runs", "nohup", "cat", stdin=b"hi\n"),
    case("nohup_status", "nohup", "false"),
    case("nohup_missing_command", "nohup", "nosuch"),
    case("nohup_no_operand", "nohup"),
    case("nohup_help", "nohup", "--help"),
    case("nohup_version", "nohup", "--version"),
    case("nohup_bad_option", "nohup", "--bogus", "true"),
    case("nice_no_command", "nice"),
    case("nice_n", "nice", "-n", "5", "echo", "ok"),
    case("nice_old_form", "nice", "-5", "echo", "hi"),
    case("nice_long", "nice", "--adjustment=3", "echo", "a"),
    case("nice_negative", "nice", "-n", "-5", "echo", "neg"),
    case("nice_missing_argument", "nice", "-n"),
    case("nice_bad_adjustment", "nice", "-n", "x", "true"),
    case("nice_adjustment_without_command", "nice", "-n", "3"),
    case("nice_missing_command", "nice", "nosuch"),
    case("nice_help", "nice", "--help"),
    case("nice_command_options_are_its_own", "nice", "echo", "-n", "x"),
    case("stdbuf_line", "stdbuf", "-oL", "echo", "s"),
    case("stdbuf_sizes", "stdbuf", "-o0", "-e", "1K", "-i", "4MB", "echo", "v"),
    case("stdbuf_no_mode", "stdbuf", "echo", "t"),
    case("stdbuf_bad_mode", "stdbuf", "-oX", "echo", "u"),
    case("stdbuf_line_stdin", "stdbuf", "-iL", "cat"),
    case("stdbuf_no_command", "stdbuf", "-oL"),
    case("stdbuf_missing_command", "stdbuf", "-oL", "nosuch"),
    case("stdbuf_help", "stdbuf", "--help"),
]
