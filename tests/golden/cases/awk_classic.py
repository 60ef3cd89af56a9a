"""Classic awk programs in the style of the one-true-awk T.* tests and the AWK book one-liners."""

from tests.builtins.awk.gold import case

EMP = """Beth	4.00	0
Dan	3.75	0
Kathy	4.00	10
Mark	5.00	20
Mary	5.50	22
Susie	4.25	18
"""
COUNTRIES = """USSR	8649	275	Asia
Canada	3852	25	North America
China	3705	1032	Asia
USA	3615	237	North America
Brazil	3286	134	South America
India	1267	746	Asia
Mexico	762	78	North America
France	211	55	Europe
Japan	144	120	Asia
Germany	96	61	Europe
England	94	56	Europe
"""
TEXT = """The quick brown fox
jumps over the lazy dog.

Pack my box with five dozen
liquor jugs!  The end.
"""


def e(name, prog, stdin=EMP, **kw):
    return case(name, prog, stdin, **kw)


CASES = [
    # the AWK book, chapter 1 and 2 one-liners
    e("book_pay", "$3 > 0 { print $1, $2 * $3 }"),
    e("book_zero_hours", "$3 == 0 { print $1 }"),
    e("book_printf_pay", '{ printf("total pay for %s is $%.2f\\n", $1, $2 * $3) }'),
    e("book_printf_columns", '{ printf("%-8s $%6.2f\\n", $1, $2 * $3) }'),
    e("book_selection_compound", "$2 >= 4 || $3 >= 20"),
    e("book_not", "!($2 < 4 && $3 < 20)"),
    e("book_validation", 'NF != 3 { print $0, "number of fields is not equal to 3" } '
      '$2 < 3.35 { print $0, "rate is below minimum wage" } '
      '$2 > 10 { print $0, "rate exceeds $10 per hour" } '
      '$3 < 0 { print $0, "negative hours worked" } '
      '$3 > 60 { print $0, "too many hours worked" }'),
    e("book_begin_header", 'BEGIN { print "NAME    RATE    HOURS"; print "" } { print }'),
    e("book_count", '$3 > 15 { emp = emp + 1 } END { print emp, "employees worked more than 15 hours" }'),
    e("book_average", '{ pay = pay + $2 * $3 } END { print NR, "employees"; print "total pay is", pay; print "average pay is", pay/NR }'),
    e("book_highest", '$2 > maxrate { maxrate = $2; maxemp = $1 } END { print "highest hourly rate:", maxrate, "for", maxemp }'),
    e("book_concat_names", '{ names = names $1 " " } END { print names }'),
    e("book_last_line", '{ last = $0 } END { print last }'),
    e("book_nchars", '{ nc = nc + length($0) + 1; nw = nw + NF } END { print NR, "lines,", nw, "words,", nc, "characters" }', TEXT),
    e("book_reverse", '{ line[NR] = $0 } END { i = NR; while (i > 0) { print line[i]; i = i - 1 } }'),
    e("book_nf_gt_4", "NF > 4", TEXT),
    e("book_last_field", "{ print $NF }", TEXT),
    e("book_swap_fields", "{ temp = $1; $1 = $2; $2 = temp; print }"),
    e("book_delete_first_field", '{ $1 = ""; print }'),
    e("book_fields_reverse", '{ for (i = NF; i > 0; i = i - 1) printf("%s ", $i); printf("\\n") }'),
    e("book_sum_fields", "{ sum = 0; for (i = 1; i <= NF; i = i + 1) sum = sum + $i; print sum }", "1 2 3\n4 5\n\n6\n"),
    e("book_abs_values", "{ for (i = 1; i <= NF; i = i + 1) if ($i < 0) $i = -$i; print }", "1 -2 3\n-4 5\n"),
    e("book_line_numbers", '{ printf("%5d %s\\n", NR, $0) }', TEXT),
    e("book_countries_asia", '$4 == "Asia" { print $1, 1000 * $3 / $2 }', COUNTRIES, opts=["-F\t"]),
    e("book_countries_density", '{ printf("%-10s %6.1f\\n", $1, 1000 * $3 / $2) }', COUNTRIES, opts=["-F\t"]),
    e("book_countries_by_continent", '{ pop[$4] += $3 } END { print pop["Asia"], pop["Europe"], pop["North America"], pop["South America"] }',
      COUNTRIES, opts=["-F\t"]),
    e("book_range_can_usa", "/Canada/, /USA/", COUNTRIES),
    e("book_regex_fields", '$4 ~ /Asia/ { print $1 }', COUNTRIES, opts=["-F\t"]),
    e("book_word_frequency", '{ gsub(/[.,:;!?(){}]/, ""); for (i = 1; i <= NF; i++) count[tolower($i)]++ } '
      'END { print count["the"], count["box"], count["end"] }', TEXT),
    e("book_wc_like", '{ c += length + 1; w += NF } END { printf "%d %d %d\\n", NR, w, c }', TEXT),
    e("book_fmt_paragraphs", 'BEGIN { RS = "" } { printf "para %d: %d lines, first word %s\\n", NR, split($0, l, "\\n"), $1 }', TEXT),
    e("book_prime_sieve", 'BEGIN { n = 50; for (i = 2; i <= n; i++) p[i] = 1; for (i = 2; i * i <= n; i++) if (p[i]) for (j = i * i; j <= n; j += i) p[j] = 0; '
      'for (i = 2; i <= n; i++) if (p[i]) printf "%d ", i; print "" }', ""),
    e("book_interest", '{ i = 1; while (i <= $3) { printf("\\t%.2f\\n", $1 * (1 + $2) ^ i); i = i + 1 } }', "1000 .06 5\n100 .12 3\n"),
    e("book_do_while", 'BEGIN { i = 5; do { printf "%d ", i; i-- } while (i > 0); print "" }', ""),
    # T.* style: field splitting
    e("t_split_ws_mixed", "{ print NF; for (i = 1; i <= NF; i++) printf \"<%s>\", $i; print \"\" }", " a\tb  c\t\t d \n"),
    e("t_split_colon_empty", "{ for (i = 1; i <= NF; i++) printf \"<%s>\", $i; print NF }", "::a::b:\n", opts=["-F:"]),
    e("t_split_regex_spaces", "{ for (i = 1; i <= NF; i++) printf \"<%s>\", $i; print NF }", "a  b   c\n", opts=["-F", " +"]),
    e("t_nf_assign_rebuild", 'BEGIN { OFS = "|" } { NF = NF; print; $0 = $0; print NF }', "a b  c\n"),
    e("t_field_zero_assign", '{ $0 = $2 " " $1; print $1 }', "x y\n"),
    e("t_set_nf_then_field", "{ NF = 2; $4 = \"d\"; print; print NF }", "a b c\n"),
    # T.* style: uninitialized values
    e("t_uninit_var", 'BEGIN { if (x == 0 && x == "") print "both"; print length(x), x + 0 }', ""),
    e("t_uninit_field", '{ if ($5 == "" && $5 == 0) print "empty field"; print ($5 == 0) }', "a b\n"),
    e("t_uninit_array_elem", 'BEGIN { if (a["x"] == 0 && a["x"] == "") print "yes" }', ""),
    # T.* style: getline
    e("t_getline_count", '{ n = 0; while ((getline line) > 0) n++; print n, NR }', "1\n2\n3\n4\n"),
    e("t_getline_next_pairs", "{ a = $0; getline; print a \"-\" $0 }", "1\n2\n3\n4\n"),
    # T.* style: printf
    e("t_printf_table", '{ printf "%-5s|%5s|%05.1f|%x\\n", $1, $2, $2, $2 }', "a 10\nbb 255\n"),
    e("t_printf_c_of_fields", '{ printf "%c", $1 } END { print "" }', "72\n105\n"),
    # T.* style: arrays
    e("t_array_delete_loop", '{ a[NR] = $0 } END { for (i = 1; i <= NR; i += 2) delete a[i]; for (i = 1; i <= NR; i++) print i, (i in a) }', "a\nb\nc\nd\n"),
    e("t_array_split_count", '{ n = split($0, w, /[ ,]+/); print n, w[n] }', "a, b,c d\n"),
    e("t_substr_loop", '{ for (i = 1; i <= length($0); i++) printf "%s.", substr($0, i, 1); print "" }', "abc\n"),
    # T.* style: regex
    e("t_regex_special_chars", '/\\$/ { print "dollar:" $0 } /\\^/ { print "caret:" $0 } /\\./ { print "dot:" $0 }', "a$b\nc^d\ne.f\n"),
    e("t_dynamic_regex_from_field", '$0 ~ $1 { print "self:" NR }', "a.c abc\n[ x\n"),
    e("t_gsub_count_chars", '{ n = gsub(/[aeiou]/, "&"); print n }', TEXT),
    e("t_match_extract", 'match($0, /[0-9]+\\.[0-9]+/) { print substr($0, RSTART, RLENGTH) }', "pi is 3.14159 ok\nnone\ne 2.71\n"),
    # numbers
    e("t_number_output", '{ print $1 + 0, $1 * 1.0, $1 / 3 }', "1\n10\n0.5\n1e3\n-7\n"),
    e("t_compare_mixed", '{ print ($1 < $2) ? "lt" : "ge" }', "2 10\n10 2\nabc abd\n2 abc\n"),
    e("t_increment_field", '{ $2++; print }', "a 1\nb 9\n"),
    # tricky grammar
    e("g_print_redirect_vs_compare", '{ print ($1 > $2) }', "3 2\n1 2\n"),
    e("g_print_paren_list", '{ print($1, $2) }', "a b\n"),
    e("g_paren_concat", '{ print ($1)($2) }', "a b\n"),
    e("g_getline_pipe_less", 'BEGIN { "x" ; print 1 < 2 }', ""),
    e("g_regex_as_arg", 'BEGIN { s = "aXbXc"; n = split(s, p, /X/); print n, p[2] }', ""),
    e("g_semicolon_after_brace", '{ print $1 }; { print $2 };', "a b\n"),
    e("g_empty_pattern_action", "{}", "a\n"),
    e("g_dollar_precedence", '{ i = 1; print $i++, i; print $++i }', "a b c\n"),
    e("g_minus_field", '{ print -$1, $1-1, $1 -1 }', "5\n"),
    e("g_not_match", '{ print !/a/, !($0 ~ /b/) }', "a\nb\n"),
    e("g_ternary_nested", '{ print ($1 > 5 ? "big" : $1 > 2 ? "mid" : "small") }', "1\n3\n7\n"),
    e("g_unary_minus_exponent", 'BEGIN { print -2^2, 2^-2, -2^-2 }', ""),
    e("g_string_concat_number", 'BEGIN { x = 1 2; y = 1 " " 2; print x + 1, y }', ""),
    e("g_assign_in_condition", '{ if ((n = length($0)) > 2) print n }', "ab\nabc\n"),
    e("g_post_incr_array", '{ a[$1]++ } END { print a["x"]++, a["x"] }', "x\nx\n"),
    e("g_nested_ternary_assign", 'BEGIN { x = 1 ? 2 ? "a" : "b" : "c"; print x }', ""),
    e("g_comment_after_action", '{ print } # trailing\n', "z\n"),
    e("g_continue_for", 'BEGIN { for (i = 0; i < 5; i++) { if (i == 2) continue; printf "%d", i }; print "" }', ""),
    e("g_break_while", 'BEGIN { while (1) { if (++i > 3) break }; print i }', ""),
    e("g_continue_do", 'BEGIN { do { i++; if (i == 2) continue; printf "%d", i } while (i < 4); print "" }', ""),
    e("g_if_else_chain", '{ if ($1 < 0) print "neg"; else if ($1 == 0) print "zero"; else print "pos" }', "-1\n0\n3\n"),
    e("g_else_on_new_line", '{ if ($1)\n print "t"\nelse\n print "f" }', "1\n0\n"),
]
