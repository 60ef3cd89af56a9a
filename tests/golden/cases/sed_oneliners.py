"""Golden cases: the classic sed one-liners (Eric Pement's sed1line.txt), against GNU sed 4.9."""

POEM = """\
The quick brown fox
jumps over the lazy dog.

  Leading spaces here
Trailing spaces here \x20\x20
\tTabbed line\t

foo bar foo baz foo
Iowa is a state
some middle text
Montana is another state
duplicate
duplicate
unique
duplicate
last line
"""

NUMS = "1234\n1234567\n12\n1234567890\n-98765.4321\n"
PARA = """\
para one line one
para one AAA line two

para two line one
para two line two

para three AAA
"""
CONT = "first \\\nsecond \\\nthird\nfourth\n=joined\nfifth\n"
BLANKS = "\n\n\nstart\n\n\n\nmiddle\n\nend\n\n\n"
DOS = "dos line\r\nanother\r\n"
SEQ = "".join(f"{i}\n" for i in range(1, 31))

FILES = {"poem": POEM, "nums": NUMS, "para": PARA, "cont": CONT, "blanks": BLANKS, "dos": DOS,
         "seq": SEQ}


def o(name, *args, file="poem"):
    return dict(name=name, argv=["sed", *args, file], files=FILES)


CASES = [
    # spacing
    o("double_space", "G"),
    o("double_space_no_dup", "/^$/d;G"),
    o("triple_space", "G;G"),
    o("undo_double", "n;d"),
    o("blank_above_match", "/fox/{x;p;x;}"),
    o("blank_below_match", "/fox/G"),
    o("blank_around_match", "/fox/{x;p;x;G;}"),
    # numbering
    o("number_left", "="),
    o("count_lines", "-n", "$="),
    o("number_nonblank", "/./="),
    # text conversion
    o("dos2unix", "s/.$//", file="dos"),
    o("dos2unix_cr", "s/\\x0D$//", file="dos"),
    o("unix2dos", "s/$/\\r/"),
    o("strip_leading", "s/^[ \\t]*//"),
    o("strip_trailing", "s/[ \\t]*$//"),
    o("strip_both", "s/^[ \\t]*//;s/[ \\t]*$//"),
    o("indent", "s/^/     /"),
    o("right_align", "-e", ":a", "-e", "s/^.\\{1,30\\}$/ &/;ta"),
    o("center", "-e", ":a", "-e", "s/^.\\{1,29\\}$/ & /;ta"),
    o("center2", "-e", ":a", "-e", "s/^.\\{1,29\\}$/ &/;ta", "-e", "s/\\( *\\)\\1/\\1/"),
    o("replace_4th", "s/o/0/4"),
    o("replace_last", "s/\\(.*\\)foo/\\1bar/"),
    o("replace_next_to_last", "s/\\(.*\\)foo\\(.*foo\\)/\\1bar\\2/"),
    o("replace_if_match", "/baz/s/foo/bar/g"),
    o("replace_unless_match", "/baz/!s/foo/bar/g"),
    o("replace_alternatives", "s/quick\\|lazy\\|brown/red/g"),
    o("reverse_lines_tac", "1!G;h;$!d"),
    o("reverse_lines_tac2", "-n", "1!G;h;$p"),
    o("reverse_chars_rev", "/\\n/!G;s/\\(.\\)\\(.*\\n\\)/&\\2\\1/;//D;s/.//"),
    o("join_pairs", "$!N;s/\\n/ /"),
    o("join_backslash", "-e", ":a", "-e", "/\\\\$/N; s/\\\\\\n//; ta", file="cont"),
    o("join_equals", "-e", ":a", "-e", "$!N;s/\\n=/ /;ta", "-e", "P;D", file="cont"),
    o("commify", "-e", ":a", "-e", "s/\\(.*[0-9]\\)\\([0-9]\\{3\\}\\)/\\1,\\2/;ta", file="nums"),
    o("commify_decimal", "-r", ":a;s/(^|[^0-9.])([0-9]+)([0-9]{3})/\\1\\2,\\3/g;ta", file="nums"),
    o("blank_every_5", "n;n;n;n;G;", file="seq"),
    o("blank_every_5_gnu", "0~5G", file="seq"),
    # selective printing
    o("head", "10q"),
    o("head_1", "q"),
    o("tail", "-e", ":a", "-e", "$q;N;11,$D;ba"),
    o("tail_2", "$!N;$!D"),
    o("tail_1", "$!d"),
    o("tail_1b", "-n", "$p"),
    o("next_to_last", "-e", "$!{h;d;}", "-e", "x"),
    o("next_to_last_one_line", "-e", "1{$q;}", "-e", "$!{h;d;}", "-e", "x", file="dos"),
    o("grep", "-n", "/fox/p"),
    o("grep2", "/fox/!d"),
    o("grep_v", "-n", "/fox/!p"),
    o("grep_v2", "/fox/d"),
    o("line_before_match", "-n", "/jumps/{g;1!p;};h"),
    o("line_after_match", "-n", "/fox/{n;p;}"),
    o("context_match", "-n", "-e", "/lazy/{=;x;1!p;g;$!N;p;D;}", "-e", "h"),
    o("grep_and", "/o/!d; /e/!d; /a/!d"),
    o("grep_paragraph", "-e", "/./{H;$!d;}", "-e", "x;/AAA/!d;", file="para"),
    o("grep_paragraph_and", "-e", "/./{H;$!d;}", "-e", "x;/AAA/!d;/two/!d", file="para"),
    o("long_lines", "-n", "/^.\\{20\\}/p"),
    o("short_lines", "-n", "/^.\\{20\\}/!p"),
    o("short_lines2", "/^.\\{20\\}/d"),
    o("from_regex_to_end", "-n", "/Iowa/,$p"),
    o("lines_8_12", "-n", "8,12p"),
    o("lines_8_12b", "8,12!d"),
    o("line_5", "-n", "5p"),
    o("line_5b", "5!d"),
    o("line_5c", "5q;d"),
    o("every_7th_from_3", "-n", "3,${p;n;n;n;n;n;n;}", file="seq"),
    o("every_7th_gnu", "-n", "3~7p", file="seq"),
    o("between_regexes", "-n", "/Iowa/,/Montana/p"),
    # selective deletion
    o("delete_between", "/Iowa/,/Montana/d"),
    o("uniq", "$!N; /^\\(.*\\)\\n\\1$/!P; D"),
    o("uniq_nonconsecutive", "-n", "G; s/\\n/&&/; /^\\([ -~]*\\n\\).*\\n\\1/d; s/\\n//; h; P"),
    o("uniq_d", "$!N; s/^\\(.*\\)\\n\\1$/\\1/; t; D"),
    o("delete_first_10", "1,10d"),
    o("delete_first", "1d"),
    o("delete_last", "$d"),
    o("delete_last_2", "N;$!P;$!D;$d"),
    o("delete_last_10", "-e", ":a", "-e", "$d;N;2,10ba", "-e", "P;D", file="seq"),
    o("delete_last_10b", "-n", "-e", ":a", "-e", "1,10!{P;N;D;};N;ba", file="seq"),
    o("delete_every_8th", "n;n;n;n;n;n;n;d;", file="seq"),
    o("delete_every_8th_gnu", "0~8d", file="seq"),
    o("delete_matching", "/duplicate/d"),
    o("delete_blank", "/^$/d", file="blanks"),
    o("delete_blank2", "/./!d", file="blanks"),
    o("squeeze_blank", "/./,/^$/!d", file="blanks"),
    o("squeeze_blank2", "/^$/N;/\\n$/D", file="blanks"),
    o("squeeze_to_two", "/^$/N;/\\n$/N;//D", file="blanks"),
    o("delete_leading_blank", "/./,$!d", file="blanks"),
    o("delete_trailing_blank", "-e", ":a", "-e", "/^\\n*$/{$d;N;ba", "-e", "}", file="blanks"),
    o("delete_trailing_blank2", "-e", ":a", "-e", "/^\\n*$/N;/\\n$/ba", file="blanks"),
    o("delete_last_para_line", "-n", "/^$/{p;h;};/./{x;/./p;}", file="para"),
    # special applications
    o("rot13", "y/abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ/"
      "nopqrstuvwxyzabcdefghijklmNOPQRSTUVWXYZABCDEFGHIJKLM/"),
    o("first_word_upper", "s/\\w\\+/\\U&/"),
    o("title_case", "s/\\b\\(.\\)/\\u\\1/g"),
    o("swap_words", "s/\\([a-z]*\\) \\([a-z]*\\)/\\2 \\1/"),
    o("number_lines_right", "-n", "=;p", file="seq"),
    o("html_strip", "-e", ":a", "-e", "s/<[^>]*>//g;/</N;//ba", file="html"),
]
FILES["html"] = "<b>bold</b> and <i\n>italic</i> text\n<p>para</p>\n"
