"""awk numbers and comparisons: strnums, uninitialized values, conversions, math, operators."""

from tests.builtins.awk.gold import case


def b(name, body, stdin="", **kw):
    return case(name, "BEGIN { " + body + " }", stdin, **kw)


MIXED = "10 9\n10 10.0\nabc 10\n 5  5\n1e2 100\n0x1A 26\n+3 3\n.5 0.5\n10 abc\n-0 0\n"

CASES = [
    # hex and inf/nan words in input are strings, as the one-true-awk and gawk read them
    # (gawk --posix uses strtod: "INFO" would be infinity)
    case("field_compare_numeric", '{ print ($1 < $2), ($1 == $2) }', MIXED, oracle=["gawk"]),
    case("field_vs_constant", '{ print ($1 > 9), ($1 == "10") }', MIXED, oracle=["gawk"]),
    case("log_words_are_zero", '{ s += $1 * 2 } END { print s }', "INFO\nnan\ninfinity\n0x10\n3\n",
         oracle=["original-awk"]),
    case("ieee_magic_values", '{ print $1 + 0, ($1 == $1 + 0) }', "+inf\n-inf\n+nan\n-NaN\n+INF\n",
         oracle=["gawk"]),
    case("field_string_vs_number", '$1 == 10', MIXED),
    case("strnum_whitespace", '{ print ($0 == 5) }', " 5 \n5x\n\t5\n"),
    b("constant_strings_compare_as_strings", 'print ("10" < "9"), (10 < 9), ("abc" < 1)'),
    b("uninit_compares", 'print (x == 0), (x == ""), (x < 1), (x "" == "")'),
    b("uninit_arithmetic", 'print x + 1, x * 2, -x, x++ , x'),
    b("number_to_string_keeps_int", 'x = 3.0; y = x ""; print y, length(y)'),
    b("string_to_number_prefix", 'print "3abc" + 1, "abc" + 1, " 12 " + 0, "1e3" * 1, ".5" + 0, "+7" - 0, "--3" + 0'),
    b("string_to_number_hex_inf", 'print "0x10" + 0, "inf" + 0, "-inf" + 0, "nan" + 0, "infinity" + 1',
      oracle=["gawk"]),
    b("arith_ops", 'print 7 + 2, 7 - 2, 7 * 2, 7 / 2, 7 % 2, -7 % 2, 7 % -2, 2 ^ 10, 2 ** 3, 2 ^ 0.5', oracle=["gawk"]),
    b("power_right_assoc", 'print 2 ^ 3 ^ 2, -2 ^ 2, (-2) ^ 2, 2 ^ -1'),
    b("unary_minus_concat", 'x = 5; print -x, - -x, !x, !!x, -"3"'),
    b("modulo_fractions", 'print 5.5 % 2, -5.5 % 2, 1e30 % 7'),
    b("increment_forms", 'x = 5; print x++, x, ++x, x--, x, --x'),
    b("compound_assign", 'x = 10; x += 5; print x; x -= 3; print x; x *= 2; print x; x /= 8; print x; x %= 2; print x; x ^= 3; print x'),
    b("assign_is_expression", 'a = b = c = 7; print a, b, c; print (d = 3) + 1, d'),
    b("conditional_expr", 'x = 5; print (x > 3 ? "big" : "small"), (x < 3 ? "big" : x == 5 ? "five" : "other")'),
    b("logical_short_circuit", 'x = 0; if (x && (y = 1)) print "no"; print y + 0; if (x || (y = 2)) print y'),
    b("logical_values", 'print (1 && 2), (0 || ""), ("0" && 1), ("" || "a"), !"", !"a", !0, !"0"'),
    b("truth_of_strnum", 'split("0 0.0 +0 00 a", t); for (i = 1; i <= 5; i++) printf "%s ", (t[i] ? "T" : "F"); print ""'),
    case("truth_of_fields", '{ print ($1 ? "T" : "F") }', "0\n0.0\n1\nabc\n\n \n"),
    b("int_function", 'print int(3.9), int(-3.9), int("4.5abc"), int(""), int(1e30)'),
    b("math_functions", 'printf "%.5f %.5f %.5f %.5f %.5f %.5f\\n", sin(1), cos(1), atan2(1, 2), exp(1), log(10), sqrt(2)'),
    b("math_edge", 'print exp(1000), log(0), atan2(0, -1), sqrt(0)'),
    b("large_numbers", 'print 2^53 + 1, 1e308 * 10, -1e308 * 10, 2^1024'),
    b("float_precision", 'print 0.1 + 0.2, 1/3, 2/3, 1e-5, 123456.7, 1234567.8'),
    b("number_output_ofmt_int", 'print 1e15, 1e16, 1e17, 3.0, -3.0, 100000000000000000000'),
    b("division_by_zero", 'x = 0; print 1 / x'),
    b("modulo_by_zero", 'x = 0; print 1 % x'),
    case("compare_nr_string", 'NR == "2"', "a\nb\nc\n"),
    case("getline_var_strnum", 'NR == 1 { getline x; print (x == 10), (x < 9) }', "first\n10.0\n"),
    case("nf_arithmetic", '{ print NF * 2, $NF + 1, $(NF - 1) }', "1 2 3\n"),
    b("not_precedence", 'x = 0; print !x == 2, !x + 1'),
    b("in_ternary", 'a["k"]; print ("k" in a) ? "yes" : "no"'),
    case("v_strnum", 'BEGIN { print (x < 9), (y == "abc") }', opts=["-v", "x=10", "-v", "y=abc"]),
    case("environ_strnum", 'BEGIN { print (ENVIRON["N"] < 9) }', env={"N": "10"}),
    case("argv_strnum", 'BEGIN { print (ARGV[1] < 9) }', args=["10"]),
    b("srand_rand_range", 'srand(1); ok = 1; for (i = 0; i < 1000; i++) { r = rand(); if (r < 0 || r >= 1) ok = 0 }; print ok'),
    b("srand_returns_previous", 'srand(5); print srand(7); print srand()'),
    b("srand_repeatable", 'srand(42); a = rand(); srand(42); b = rand(); print (a == b)'),
    b("rand_onetrue_sequence", 'srand(42); printf "%.6f %.6f\\n", rand(), rand()', oracle=["original-awk"]),
    b("int_rand_dice", 'srand(3); for (i = 0; i < 5; i++) d[int(rand() * 6) + 1]; for (k in d) if (k < 1 || k > 6) print "bad"; print "ok"'),
]
