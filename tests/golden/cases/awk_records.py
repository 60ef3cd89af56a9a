"""awk record separators: RS single characters, paragraph mode, regex RS (gawk), RS changes."""

from tests.builtins.awk.gold import case

G = ["gawk"]  # regex RS is a gawk extension (gawk --posix uses RS's first character)

CASES = [
    case("rs_char_with_newlines", 'BEGIN { RS = "," } { print NR ": [" $0 "]", NF }', "a b,c\nd,e"),
    case("rs_char_trailing_newline_record", 'BEGIN { RS = "|" } { print NR "<" $0 ">" }', "x|y|\n"),
    case("rs_regex", 'BEGIN { RS = "[,;]+" } { print NR, $0 }', "a,b;;c,,;d\n", oracle=G),
    case("rs_regex_newlines", 'BEGIN { RS = "\\n+" } { print NR, $0 }', "a\n\n\nb\nc\n\n", oracle=G),
    case("rs_regex_word", 'BEGIN { RS = "END" } { print NR "[" $0 "]" }', "oneENDtwoENDthree", oracle=G),
    case("rs_regex_alternation", 'BEGIN { RS = "ab|a" } { print NR "[" $0 "]" }', "1ab2a3", oracle=G),
    case("rs_paragraph_leading_trailing", 'BEGIN { RS = "" } { print NR "<" $0 ">" } END { print NR }',
         "\n\n\npara one\nline two\n\n\n\npara two\n\n\n"),
    case("rs_paragraph_spaces_not_blank", 'BEGIN { RS = "" } { print NR "<" $0 ">" }', "a\n  \nb\n\nc\n"),
    case("rs_paragraph_fields_newline", 'BEGIN { RS = "" } { for (i = 1; i <= NF; i++) printf "%s|", $i; print "" }',
         "a b\nc\n\nd\te\n"),
    case("rs_paragraph_fs_tab", 'BEGIN { RS = ""; FS = "\\t" } { print NF; print $2 }', "a\tb\nc d\te\n"),
    case("rs_paragraph_fs_regex", 'BEGIN { RS = ""; FS = ",+" } { print NF, $3 }', "a,,b\nc\n\nd\n"),
    case("rs_change_midstream", 'NR == 2 { RS = ";" } { print NR, $0 }', "a\nb\nc;d;e\n"),
    case("rs_change_to_paragraph", 'NR == 1 { RS = "" } { print NR "<" $0 ">" }', "first\nsecond\nthird\n\nfourth\n"),
    case("rs_with_getline", 'BEGIN { RS = ";" } { getline nxt; print $0 "+" nxt }', "a;b;c;d;"),
    case("rs_newline_crlf_records", '{ print NF ":" length($0) }', "a b\r\nc\r\n"),
    case("rs_single_space", 'BEGIN { RS = " " } { print NR "<" $0 ">" }', "a b  c\n"),
    case("rs_from_v", '{ print NR, $0 }', "x:y:z", opts=["-v", "RS=:"]),
    case("rs_from_operand", '{ print NR, $0 }', files={"f": "1;2;3"}, args=["RS=;", "f"]),
    case("begin_record_state", 'BEGIN { print NF, NR, "[" $0 "]", "[" $1 "]", FNR }'),
    case("end_nr_across_files", 'END { print NR, FNR, FILENAME }', files={"a": "1\n2\n", "b": "3\n"}, args=["a", "b"]),
    case("nr_assign", 'NR == 2 { NR = 10 } { print NR, $0 }', "a\nb\nc\n"),
    case("fnr_assign", 'FNR == 1 { FNR = 5 } { print FNR }', "a\nb\n"),
    case("filename_assign", '{ FILENAME = "x"; print FILENAME }', "a\n"),
    case("fs_tab_default_space", '{ print NF }', "a\t\tb  c\n"),
    case("fs_regex_anchor_caret", '{ print NF; print $1 }', "xax\n", opts=["-F", "^x"]),
    case("fs_single_backslash", '{ print $2 }', "a\\b\\c\n", opts=["-F\\\\"]),
    case("fs_empty_chars", '{ print NF, $1, $3 }', "abc\n", opts=["-F", ""], oracle=G),
    case("fs_newline_in_record_default", 'BEGIN { RS = ";" } { print NF }', "a\nb;c d\ne;"),
    case("fs_change_then_dollar0_assign", '{ FS = ","; $0 = "x,y"; print $2 }', "a b\n"),
    case("field_access_after_fs_change", '{ FS = ","; print $1 }', "a,b c,d\ne,f g\n"),
    case("long_record", '{ print length($0), NF }', "x " * 50000 + "\n"),
    case("many_records_count", 'END { print NR }', "l\n" * 20000),
]
