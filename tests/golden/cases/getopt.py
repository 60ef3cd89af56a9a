"""Golden cases: getopt (util-linux 2.38.1)."""


def case(name, *args, **kw):
    return dict(name=name, argv=["getopt", *args], **kw)


CASES = [
    case("long_and_short", "-o", "hvf:", "--long", "help,verbose,file:,opt::", "-n", "myscript",
         "--", "-v", "--file=x", "a", "-f", "y", "--opt=3", "--opt", "b"),
    case("bad_options_reported_and_skipped", "-o", "hv", "-n", "myscript", "--", "-q", "-v",
         "--bad", "a"),
    case("missing_argument", "-o", "a:", "--", "-a"),
    case("quoting", "-o", "ab", "--", "it's", "-ab", "x y"),
    case("unquoted", "-u", "-o", "ab", "--", "-a", "c"),
    case("test", "-T"),
    case("stop_at_operand", "-o", "+ab", "--", "c", "-a"),
    case("operands_in_place", "-o", "-a", "--", "x", "-a", "y"),
    case("abbreviation", "-o", "a", "-l", "longx", "--", "--long"),
    case("ambiguous", "-o", "a", "-l", "longx,longy", "--", "--long"),
    case("exact_beats_prefix", "-o", "v", "--long", "verbose,verb", "--", "--verb"),
    case("old_form", "abc", "-a", "-b", "x"),
    case("alternative", "-a", "-o", "x", "-l", "xlong", "--", "-xlong"),
    case("alternative_short_still_short", "-o", "a", "-l", "x", "-a", "--", "-x", "-a"),
    case("nothing", "-o", "a", "--"),
    case("no_optstring"),
    case("quiet", "-q", "-o", "a", "--", "-z"),
    case("quiet_output", "-Q", "-o", "a", "--", "-z"),
    case("attached_required", "-o", "ab:", "--", "-ba", "x"),
    case("optional_short", "-o", "ab::", "--", "-b", "-bfoo", "x"),
    case("long_requires_argument", "-l", "file:", "-o", "", "--", "--file"),
    case("long_no_argument_allowed", "-l", "verbose", "-o", "", "--", "--verbose=3"),
    case("double_dash_in_params", "-o", "a", "--", "a", "--", "-a"),
    case("csh_quoting", "-s", "csh", "-o", "a", "--", "x!y", "it's"),
    case("tcsh_newline", "-s", "tcsh", "-o", "a", "--", "a\nb"),
    case("bad_shell", "-s", "fish", "-o", "a", "--", "x"),
    case("bad_own_option", "--bogus"),
    case("posixly_correct", "-o", "a", "--", "x", "-a", env={"POSIXLY_CORRECT": "1"}),
    case("help", "--help"),
    case("version", "--version"),
]
