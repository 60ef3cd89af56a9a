"""awk printf/sprintf: every conversion, flags, widths, precision, *, and number output."""

from tests.builtins.awk.gold import case


def p(name, fmt, *args, oracle=None):
    body = ", ".join([fmt, *args])
    return case(name, f"BEGIN {{ printf {body} }}", oracle=oracle)


CASES = [
    p("d_basic", '"%d|%i|%d|%d\\n"', "42", "-7", "3.99", "-3.99"),
    # hex and inf/nan words are not numbers (one-true-awk, gawk; gawk --posix reads them)
    p("d_string_arg", '"%d %d %d\\n"', '"12abc"', '"abc"', '" 0x1A"', oracle=["gawk"]),
    p("d_width_flags", '"[%5d][%-5d][%05d][%+d][% d][%+5d][%-+5d]\\n"', "42", "42", "42", "42", "42", "42", "42"),
    p("d_precision", '"[%.3d][%8.3d][%-8.3d][%.0d][%.0d]\\n"', "5", "5", "5", "0", "7"),
    p("d_big", '"%d %d %d\\n"', "2^53", "2^53+1", "-2^63"),
    p("d_huge", '"%d\\n"', "1e30"),
    p("o_x_X_u", '"%o %x %X %u\\n"', "8", "255", "255", "42"),
    p("o_x_negative", '"%o %x %u\\n"', "-1", "-1", "-5"),
    p("alt_forms", '"%#o %#x %#X %#o %#x\\n"', "8", "255", "255", "0", "0"),
    p("x_width_zero", '"[%08x][%-8X][%.4x]\\n"', "255", "255", "255"),
    p("c_number", '"%c%c%c\\n"', "72", "105", "33"),
    p("c_string", '"%c|%c|%c|\\n"', '"hello"', '"x"', '""'),
    p("c_width", '"[%3c][%-3c]\\n"', '"a"', '"b"'),
    p("c_unicode", '"%c\\n"', "233"),
    p("s_basic", '"[%s][%10s][%-10s][%.2s][%5.1s]\\n"', '"abc"', '"abc"', '"abc"', '"abc"', '"abc"'),
    p("s_number", '"%s %s %s\\n"', "3", "3.5", "1/3"),
    p("s_number_convfmt", '"%s\\n"', "3.14159265358979"),
    p("e_f_g", '"%e %f %g\\n"', "1234.5678", "1234.5678", "1234.5678"),
    p("E_F_G", '"%E %F %G\\n"', "0.000012345", "0.000012345", "0.000012345"),
    p("f_precision", '"[%.2f][%10.3f][%-10.1f][%.0f][%#.0f]\\n"', "3.14159", "3.14159", "3.14159", "2.5", "2.5"),
    p("e_precision", '"[%.2e][%12.4E][%.0e]\\n"', "123456", "0.5", "15"),
    p("g_forms", '"%g %g %g %g %g %g\\n"', "100000", "1000000", "0.0001", "0.00001", "123456789", "1.5"),
    p("g_alt", '"%#g %#.3g %.10g\\n"', "1", "2", "1/3"),
    p("f_flags", '"[%+.2f][% .2f][%08.2f][%-8.2f]\\n"', "3.14159", "3.14159", "-3.14159", "3.14159"),
    p("star_width", '"[%*d][%-*d][%*s]\\n"', "5", "42", "5", "42", "4", '"ab"'),
    p("star_precision", '"[%.*f][%*.*f]\\n"', "2", "3.14159", "8", "3", "3.14159"),
    p("star_negative_width", '"[%*d]\\n"', "-5", "42"),
    p("percent_literal", '"100%% sure %d%%\\n"', "50"),
    p("no_args_plain", '"just text\\n"'),
    p("escapes_in_format", '"a\\tb\\\\c\\"d\\101\\n"'),
    p("inf_nan", '"%f %f %e %g %d %s %s\\n"', "log(-1)", "-log(0)", "log(0)", "-log(0)", "-log(0)", "-log(0)", "log(0)"),
    p("inf_flags", '"[%5.2f][%+f][%E][%x]\\n"', "-log(0)", "-log(0)", "-log(0)", "-log(0)"),
    p("reuse_fewer_conversions", '"%s\\n"', '"a"', '"b"', '"c"'),
    case("printf_parens", 'BEGIN { printf("%s-%s\\n", "a", "b") }'),
    case("printf_fields", '{ printf "%-6s|%4d|%6.2f\\n", $1, $2, $3 }', "ab 12 3.14159\nlonger 7 10\n"),
    case("printf_strnum_c", '{ printf "%c %c\\n", $1, $2 }', "65 B\n"),
    case("sprintf_assign", 'BEGIN { s = sprintf("%05.1f|%x", 3.14159, 4095); print s; print length(s) }'),
    case("sprintf_many", 'BEGIN { print sprintf("%s %s %s %s %s %s %s %s %s %s", 1,2,3,4,5,6,7,8,9,10) }'),
    case("printf_redirect_file", 'BEGIN { printf "%d\\n", 7 > "out"; close("out"); getline x < "out"; print "got", x }'),
    case("print_number_formats", 'BEGIN { print 1, 1.0, 0.1, 1e6, 1e7, 123456789, 1234567.8, 0.000001, 1e-7, 100/3, -0 }'),
    case("print_big_integers", 'BEGIN { print 2^31, 2^53, 2^63, 1e20, 1e30, -2^53 }'),
    case("ofmt", 'BEGIN { OFMT = "%.2f"; x = 3.14159; print x, x "", 10, 2.5 }'),
    case("convfmt", 'BEGIN { CONVFMT = "%.2f"; x = 3.14159; y = x ""; print y; a[x] = 1; for (k in a) print k; print 17 "" }'),
    case("convfmt_integer_values", 'BEGIN { CONVFMT = "%.2f"; x = 12; print (x "") }'),
    case("print_inf_nan", 'BEGIN { print log(0), -log(0), log(-1), sqrt(-1), -log(0) "" }'),
    case("printf_too_few_args", 'BEGIN { printf "%s %s\\n", "only" }'),
    case("printf_bad_conversion", 'BEGIN { printf "%z\\n", 1 }'),
    case("printf_dollar0", '{ printf $0 "\\n" }', "%d is not an arg%%\n"),
]
