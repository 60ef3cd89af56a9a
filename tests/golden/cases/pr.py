"""pr (GNU coreutils 9.1): pages, headers (file dates are the fixed mtime of the test
files), columns down and across, parallel files, numbering, separators, form feeds."""

NUMS = "".join(f"{i}\n" for i in range(1, 101))
FILES = {
    "nums": NUMS,
    "tabs": "a\tb\tc\nlonger line with some words here that might get truncated in columns\n"
            "\tx\n",
    "ff": "p1\n\fp2 line\nmore\n\f\fp4\n", "crlf": "x\r\ny\r\n", "nonl": "a\nb", "empty": "",
    "ctl": b"\x01ctl\x7f\xff\n", "utf8": "caf\u00e9 na\u00efve\n",
}


def c(name, *args, **kw):
    kw.setdefault("files", FILES)
    return dict(name=name, argv=["pr", *args], **kw)


CASES = [
    c("default", "nums"),
    c("omit_header", "-t", "nums"),
    c("three_columns", "-3", "nums"),
    c("three_columns_t", "-3", "-t", "nums"),
    c("across", "-a", "-3", "nums"),
    c("numbered", "-n", "-t", "nums"),
    c("numbered_sep_width", "-t", "-n:3", "tabs"),
    c("first_line_number", "-N", "10", "-n", "-t", "tabs"),
    c("double_space", "-d", "-t", "tabs"),
    c("indent", "-o", "4", "-t", "tabs"),
    c("length_20", "-l", "20", "nums"),
    c("short_page_implies_t", "-l", "8", "tabs"),
    c("width_two_columns", "-w", "40", "-2", "-t", "tabs"),
    c("merge", "-m", "-t", "nums", "tabs"),
    # -m dates the header now (not the files' time): a fixed -D keeps the case stable
    c("merge_header", "-m", "-D", "when", "nums", "tabs", "ff"),
    c("merge_numbered", "-m", "-n", "-t", "nums", "tabs"),
    c("header_title", "-h", "My Title", "nums"),
    c("separator_char", "-t", "-s,", "-3", "nums"),
    c("separator_string", "-t", "-S | ", "-2", "nums"),
    c("join_lines", "-J", "-t", "-3", "tabs"),
    c("first_page", "+2", "nums"),
    c("page_range", "+2:3", "-l", "20", "nums"),
    c("page_past_end", "+3", "nums"),
    c("form_feeds_t", "-t", "ff"),
    c("form_feeds", "ff"),
    c("form_feeds_T", "-T", "ff"),
    c("form_feed_output", "-f", "nums"),
    c("two_columns_form_feeds", "-2", "ff"),
    c("octal_escapes", "-t", "-v", "ctl"),
    c("hat_notation", "-t", "-c", "ctl"),
    c("crlf", "-t", "crlf"),
    c("no_final_newline", "-t", "nonl"),
    c("empty_file", "empty"),
    c("empty_file_t", "-t", "empty"),
    c("utf8_bytes", "-t", "-2", "-w", "20", "utf8"),
    c("expand_tabs", "-t", "-e4", "tabs"),
    c("output_tabs", "-t", "-i4", "-3", "nums"),
    c("date_format", "-D", "%d/%m %Y", "nums"),
    c("page_width_truncates", "-W", "20", "-t", "tabs"),
    c("four_narrow_columns", "-4", "-t", "-w", "30", "nums"),
    c("columns_numbered", "-t", "-2", "-n", "nums"),
    c("columns_numbered_double", "-n", "-3", "-d", "nums"),
    c("across_four", "-a", "-4", "nums"),
    c("two_files", "nums", "tabs"),
    c("stdin_t", "-t", "-2", stdin=NUMS),
    c("stdin_no_date", "-D", "", "-l", "15", stdin="one\ntwo\n"),
    c("missing", "nofile"),
    c("missing_quiet", "-r", "nofile"),
    c("columns_and_merge", "-2", "-m", "nums", "tabs"),
    c("across_and_merge", "-a", "-m", "nums", "tabs"),
    c("bad_option", "-x"),
    c("bad_length", "-l", "x", "nums"),
    c("bad_columns", "--columns=0", "nums"),
    c("narrow", "-w", "5", "-9", "nums"),
]
