"""awk regular expressions: ERE syntax, awk escapes, dynamic regexes, regex as a value."""

from tests.builtins.awk.gold import case

LINES = "foo\nbar\nfoobar\nbaz qux\nFOO\n123\na.b\na+b\n/path/to\n[x]\nab\naab\n\n"


def r(name, pattern, stdin=LINES):
    return case(name, pattern, stdin)


CASES = [
    r("re_literal", "/foo/"),
    r("re_anchors", "/^foo$/"),
    r("re_dot", "/^a.b$/"),
    r("re_escaped_dot", "/^a\\.b$/"),
    r("re_plus_literal", "/a\\+b/"),
    r("re_alternation", "/^(foo|bar)$/"),
    r("re_star_plus_question", "/^a*b$/ { print \"1:\" $0 } /^a+b$/ { print \"2:\" $0 } /^a?b$/ { print \"3:\" $0 }"),
    r("re_interval", "/^a{2}b$/ { print \"2:\" $0 } /^a{1,2}b$/ { print \"12:\" $0 } /^a{1,}b/ { print \"1+:\" $0 }"),
    r("re_bracket", "/^[0-9]+$/"),
    r("re_bracket_negated", "/^[^a-z]+$/"),
    r("re_bracket_special", "/^\\[x\\]$/ { print \"esc:\" $0 } /[]]/ { print \"rb:\" $0 }"),
    r("re_class_alpha", "/^[[:alpha:]]+$/"),
    r("re_class_digit_space", "/[[:digit:]]/ { print \"d:\" $0 } /[[:space:]]/ { print \"s:\" $0 }"),
    r("re_class_upper_lower", "/^[[:upper:]]+$/ { print \"u:\" $0 } /^[[:lower:]]+$/ { print \"l:\" $0 }"),
    r("re_class_punct_alnum", "/[[:punct:]]/ { print \"p:\" $0 } /^[[:alnum:]]+$/ { print \"an:\" $0 }"),
    r("re_slash_escaped", "/\\/path/"),
    r("re_slash_in_bracket", "/[/]to/"),
    r("re_empty_line", "/^$/ { print NR }"),
    r("re_group_star", "/^(ab)*$/ { print NR \":\" $0 }"),
    case("re_leading_star_literal", "BEGIN { print match(\"a*b\", /*b/) }", oracle=["gawk"]),
    r("re_dynamic_string", "$0 ~ \"^fo+\""),
    r("re_dynamic_var", "BEGIN { re = \"a[.+]b\" } $0 ~ re"),
    r("re_dynamic_escape", "$0 ~ \"a\\\\.b\""),
    r("re_dynamic_concat", "BEGIN { x = \"ba\" } $0 ~ (\"^\" x)"),
    r("re_value_in_expr", "{ print (/foo/ ? \"y\" : \"n\"), /bar/ + 0 }"),
    r("re_not_operator", "!/o/"),
    r("re_match_operator_negated", "$0 !~ /^[a-z]+$/"),
    r("re_field_match", "$2 ~ /^q/ { print $1 }"),
    r("re_newline_matched_by_dot", "BEGIN { s = \"a\\nb\"; print (s ~ /a.b/), (s ~ /^b/), (s ~ /a$/) }", ""),
    r("re_case_sensitive", "/foo/ { n++ } END { print n }"),
    r("re_octal_escape", "/\\101/ { print \"A:\" $0 }", "ABC\nabc\n"),
    r("re_tab_escape", "/a\\tb/", "a\tb\nab\n"),
    r("re_unicode_dot", "/^.$/", "é\nab\n日\n"),
    r("re_regex_in_split", "BEGIN { n = split(\"2024-01-02T03:04\", a, /[-T:]/); print n, a[1], a[5] }", ""),
    r("re_division_not_regex", "BEGIN { a = 10; b = 2; c = a / b / 1; print c }", ""),
    r("re_div_assign", "BEGIN { x = 10; x /= 4; print x }", ""),
    r("re_regex_after_paren", "{ if (/foo/) print \"m\", $0 }"),
    r("re_regex_after_comma", "BEGIN { s = \"xyz\"; print gsub(/y/, \"Y\", s), s }", ""),
    r("re_eq_regex", "$0 ~ /=/", "a=b\nab\n"),
    r("re_bracket_dash", "/^[a-]+$/", "a-a\nab\n-\n"),
    r("re_bracket_backslash", "/[\\\\]/", "a\\b\nab\n"),
    r("re_alternation_empty_side", "BEGIN { print match(\"xb\", /(a|)b/), RLENGTH }", ""),
    r("re_question_after_group", "BEGIN { print match(\"xxy\", /x*(xy)?/), RLENGTH }", ""),
    r("re_longest_of_alternatives", "BEGIN { s = \"abcde\"; sub(/a|ab|abc/, \"X\", s); print s }", ""),
    r("re_fs_regex_alternation", "BEGIN { FS = \"ab|a\" } { print NF; for (i = 1; i <= NF; i++) printf \"[%s]\", $i; print \"\" }", "xabyaz\n"),
]
