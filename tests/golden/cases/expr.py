"""expr (GNU coreutils 9.1, GMP integers): operators, precedence, regex, statuses."""

E = [
    ("add", "1 + 2"), ("sub", "5 - 7"), ("mul", "6 * 7"), ("div", "7 / 2"), ("div_neg", "7 / -2"),
    ("mod", "7 % 3"), ("mod_neg", "-7 % 3"), ("mod_neg2", "5 % -3"),
    ("prec_mul_add", "1 + 2 * 3"), ("prec_parens", "( 1 + 2 ) * 3"),
    ("left_assoc_sub", "10 - 3 - 2"), ("left_assoc_div", "100 / 10 / 5"),
    ("big_add", "9223372036854775807 + 1"), ("big_sub", "-9223372036854775808 - 1"),
    ("big_mul", "99999999999999999999 * 3"), ("big_div", "12345678901234567890 / 3"),
    ("div_zero", "5 / 0"), ("mod_zero", "5 % 0"), ("non_int", "a + 1"), ("non_int_hex", "0x10 + 1"),
    ("non_int_plus", "+1 + 1"), ("neg_operand", "1 + -1"),
    ("lt_num", "2 < 10"), ("lt_str", "2 < 10a"), ("lt_alpha", "abc < abd"), ("le", "3 <= 3"),
    ("eq_num", "1 = 01"), ("eq_str", "a = a"), ("eqeq", "1 == 1"), ("ne", "1 != 1"),
    ("ge", "1 >= 1"), ("gt", "2 > 1"), ("chain_cmp", "1 < 2 < 3"), ("case_cmp", "abc = ABC"),
    ("utf8_cmp", "é < z"),
    ("or_left", "3 | 0"), ("or_right", "0 | 3"), ("or_null", "0 | 0"),
    ("or_short", "1 | 1 / 0"), ("and_true", "3 & 2"), ("and_false", "3 & 0"),
    ("and_short", "0 & 1 / 0"), ("and_str", "a & b"),
    ("colon_len", "abc : a.c"), ("colon_group", "abc : a\\(.\\)c"), ("colon_nomatch", "abc : x"),
    ("colon_group_nomatch", "abc : x\\(.\\)"), ("colon_star", "aaa : a*"),
    ("colon_interval", "aaa : a\\{2\\}"), ("colon_group_star", "abab : \\(ab\\)*"),
    ("colon_lead_star", "*a : *a"), ("colon_lead_star2", "abc : *a"),
    ("colon_alt", "abc : a\\|b"), ("colon_alt2", "bc : a\\|b"), ("colon_plus", "ab : a\\+"),
    ("colon_qmark", "aab : a\\?a"), ("colon_bracket", "a[b : a[[]"),
    ("colon_class", "abc12 : [[:alpha:]]*"), ("colon_negclass", "abc12 : [^0-9]*"),
    ("colon_backref", "aa : \\(a\\)\\1"), ("colon_backref_no", "ab : \\(a\\)\\1"),
    ("colon_caret", "abc : ^a"), ("colon_caret_lit", "a^b : a^b"), ("colon_dollar", "abc : abc$"),
    ("colon_dollar_lit", "ab$c : ab$c"), ("colon_anchored", "xabc : abc"),
    ("colon_two_groups", "abc : \\(a\\)\\(b\\)"), ("colon_optional_group", "a : a\\(b\\)\\?"),
    ("colon_ws", "a_b : a\\wb"), ("colon_s", "a_b : a\\sb"),
    ("colon_unmatched_paren", "abc : a\\("), ("colon_unmatched_bracket", "abc : ["),
    ("colon_unmatched_brace", "abc : a\\{1"), ("colon_dot_utf8", "héllo : h.l"),
    ("match_kw", "match abc b"), ("match_kw2", "match abc a"), ("match_group", "match abc \\(.\\)b"),
    ("length", "length abc"), ("length_utf8", "length é"), ("length_empty", "length ''"),
    ("substr", "substr hello 2 3"), ("substr_zero", "substr hello 0 2"),
    ("substr_neg", "substr hello 2 -1"), ("substr_past", "substr hello 10 1"),
    ("substr_long", "substr hello 4 100"), ("substr_nonint", "substr abc a 1"),
    ("substr_utf8", "substr héllo 2 2"),
    ("index", "index hello lo"), ("index_none", "index hello z"), ("index_utf8", "index héllo l"),
    ("quote_kw", "+ length"), ("quote_op", "+ +"), ("length_quote", "length + 1"),
    ("keyword_as_string", "quote"), ("zero", "0"), ("zeros", "00"), ("neg_zero", "-0"),
    ("empty_string", "''"), ("plain", "hello"), ("dashdash", "-- 5"), ("dashdash_neg", "-- -5"),
    ("neg_alone", "-5"),
    ("err_missing_plus", "1 +"), ("err_unexpected", "1 2"), ("err_minus", "- 5"),
    ("err_paren_open", "( 1"), ("err_paren_extra", "( 1 2"), ("err_close", ")"),
    ("err_empty_parens", "( )"), ("err_length", "length"), ("err_match", "match"),
    ("err_index", "index abc"), ("err_substr", "substr abc 1"), ("err_div", "/ 2"),
    ("err_div2", "2 /"), ("err_colon", "5 :"), ("err_lparen_only", "("),
]


def _split(s):
    out = []
    for w in s.split(" "):
        out.append("" if w == "''" else w)
    return out


CASES = [dict(name=n, argv=["expr", *_split(e)]) for n, e in E] + [
    dict(name="no_args", argv=["expr"]),
    dict(name="non_utf8_length", argv=["expr", "length", "\udcffa"]),
    dict(name="non_utf8_dot", argv=["expr", "\udcff", ":", "."]),
    dict(name="spaces_arg", argv=["expr", "a b", ":", "a\\sb"]),
    dict(name="newline_dot", argv=["expr", "a\nb", ":", "a.b"]),
    dict(name="bad_option", argv=["expr", "--bogus"]),
]
