"""stat (GNU coreutils 9.1): -c/--printf with the directives whose values are the same for both
tools (owner recorded as the synthetic user: uid/gid 1000, user/user)."""

from tests.builtins.files.fixtures import TREE

IDS = [(r"\b0\|root\|0\|root\b", "1000|user|1000|user")]


def c(name, *args, files=TREE, **kw):
    return dict(name=name, argv=["stat", *args], files=files, **kw)


CASES = [
    c("name_size", "-c", "%n %s", "src/main.py", "big.bin", "docs"),
    c("modes", "-c", "%a %A %f %F", "script.sh", "ro.txt", "docs", "docs/empty"),
    c("type_empty", "-c", "%F", "src/util.py"),
    c("links", "-c", "%h", "src", "src/main.py"),
    c("times", "-c", "%y|%Y|%x|%X", "src/main.py", "old.txt"),
    c("blocks", "-c", "%b %B %s", "big.bin", "src/lib/helper.py"),
    c("owner", "-c", "%u|%U|%g|%G", "src/main.py", subst=IDS),
    c("quoted_name", "-c", "%N", "src/main.py", "link_main", "dangling"),
    c("symlink_lstat", "-c", "%F %s", "link_main"),
    c("symlink_follow", "-L", "-c", "%F %s %n", "link_main"),
    c("printf", "--printf", "%n\\t%s\\n", "src/main.py", "docs"),
    c("printf_no_newline", "--printf", "%n", "src/main.py"),
    c("printf_escapes", "--printf", "a\\tb\\\\\\101\\x41\\n", "src/main.py"),
    c("width", "-c", "[%-12n][%8s][%.3n]", "src/main.py"),
    c("zero_pad", "-c", "%08s|%5a", "big.bin"),
    c("unknown_directive", "-c", "%q", "src/main.py"),
    c("percent", "-c", "100%%", "src/main.py"),
    c("format_long", "--format=%s", "big.bin"),
    c("missing", "nope"),
    c("missing_and_present", "-c", "%n", "nope", "big.bin"),
    c("missing_operand"),
    c("bad_option", "-W", "x"),
]
