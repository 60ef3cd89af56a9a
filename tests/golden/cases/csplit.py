"""csplit (GNU coreutils 9.1): the sizes it prints, its errors, and the pieces it leaves."""

NUMS = "".join(f"{i}\n" for i in range(1, 11))
FILES = {"f": NUMS, "crlf": "a\r\nb\r\nc", "bin": b"x\n\xff\xfe\n--\ny\n", "empty": "",
         "md": "# Title\nintro\n## One\nbody 1\n## Two\nbody 2\n"}
SHOW = '; s=$?; for x in $(ls | grep -v "^f$\\|^crlf$\\|^bin$\\|^empty$\\|^md$"); do echo "== $x"; cat "$x"; done; exit $s'


def c(name, *args, **kw):
    kw.setdefault("files", FILES)
    return dict(name=name, argv=["csplit", *args], **kw)


def s(name, cmd, **kw):
    """A case that also shows the pieces left behind."""
    return dict(name=name, script=cmd + SHOW, files=FILES, **kw)


CASES = [
    s("lines", "csplit f 3"),
    s("lines_two", "csplit f 3 6"),
    s("repeat", "csplit f 3 {2}"),
    s("repeat_forever_lines", "csplit f 3 {*}"),
    s("line_out_of_range", "csplit f 11"),
    s("last_line", "csplit f 10"),
    s("regexp", "csplit f /5/"),
    s("regexps", "csplit f /5/ /7/"),
    s("offset_plus", "csplit f /5/+1"),
    s("offset_minus", "csplit f /5/-2"),
    s("skip", "csplit f %5%"),
    s("every_line", "csplit f '/[0-9]/' '{*}'"),
    s("no_match", "csplit f /x/"),
    s("no_match_keep", "csplit -k f /x/"),
    s("suppress_matched", "csplit --suppress-matched f /5/"),
    s("suppress_matched_lines", "csplit --suppress-matched f 3 '{*}'"),
    s("elide_empty", "csplit -z f /1/ /2/"),
    s("elide_lines", "csplit -z f 1 2 3"),
    s("same_line_twice", "csplit f 5 5"),
    s("markdown_sections", "csplit -s -f part md '/^## /' '{*}'"),
    s("suffix_format", "csplit -b %03d.txt f 5"),
    s("suffix_hex_alt", "csplit -b '%#x' f 4"),
    s("digits", "csplit -n 4 f 5"),
    s("prefix", "csplit -f pre f 5"),
    s("quiet", "csplit -s f 5"),
    s("repeat_too_many", "csplit f 2 '{20}'"),
    s("repeat_too_many_keep", "csplit -k f 2 '{20}'"),
    s("regexp_repeat_fails", "csplit f /5/ '{3}'"),
    s("skip_then_repeat", "csplit f %1% /3/ '{*}'"),
    s("offset_repeat", "csplit f /1/+1 '{*}'"),
    s("offset_minus_3", "csplit f /10/-3"),
    s("offset_before_start", "csplit f /2/-3"),
    s("offset_past_end", "csplit f /5/+10"),
    s("crlf", "csplit crlf /b/"),
    s("invalid_utf8", "csplit bin /--/"),
    s("bre_interval", "csplit f '/^[0-9]\\{2\\}/'"),
    s("empty_input", "csplit empty 1"),
    c("stdin", "-", "3", stdin=NUMS),
    c("decreasing", "f", "5", "3"),
    c("zero", "f", "0"),
    c("bad_pattern", "f", "x"),
    c("no_closing", "f", "/5"),
    c("bad_offset", "f", "/5/x"),
    c("bad_repeat", "f", "3", "{x}"),
    c("unclosed_repeat", "f", "3", "{2"),
    c("suffix_no_conversion", "-b", "abc", "f", "5"),
    c("suffix_bad_conversion", "-b", "%s", "f", "5"),
    c("suffix_two", "-b", "%d%d", "f", "5"),
    c("bad_regex", "f", "/\\(/"),
    c("missing_file", "nofile", "5"),
    c("one_operand", "f"),
    c("no_operand"),
    c("bad_digits", "-n", "x", "f", "1"),
]
