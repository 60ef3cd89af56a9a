"""awk run-time errors and usage: gawk's wording, exit status 2, no traceback."""

from tests.builtins.awk.gold import case

CASES = [
    case("negative_field", '{ print $(-1) }', "a\n"),
    case("negative_field_assign", '{ $(-2) = 1 }', "a\n"),
    case("negative_nf", '{ NF = -1 }', "a\n"),
    case("division_by_zero_record", '{ print $1 / $2 }', "1 2\n3 0\n"),
    case("modulo_by_zero", 'BEGIN { x = 0; print 5 % x }'),
    case("compound_division_by_zero", 'BEGIN { x = 5; y = 0; x /= y }'),
    case("bad_dynamic_regex", '{ if ($0 ~ "a(") print }', "a\n"),
    case("bad_dynamic_regex_bracket", 'BEGIN { r = "["; if ("x" ~ r) print }'),
    case("bad_dynamic_regex_interval", 'BEGIN { r = "a{2,1}"; if ("x" ~ r) print }'),
    case("bad_dynamic_regex_class", 'BEGIN { r = "[[:foo:]]"; if ("x" ~ r) print }'),
    case("bad_dynamic_regex_range", 'BEGIN { r = "[z-a]"; if ("x" ~ r) print }'),
    case("unmatched_paren_literal", 'BEGIN { r = "a)"; print ("a)" ~ r) }'),
    case("next_in_begin_function", 'function f() { next } BEGIN { f() }'),
    case("undefined_function", 'BEGIN { f() }'),
    case("scalar_param_as_array", 'function f(a) { a[1] = 1 } BEGIN { x = 1; f(x) }'),
    case("printf_not_enough", 'BEGIN { printf "%d %d\\n", 1 }'),
    case("fatal_keeps_prior_output", 'BEGIN { print "before"; x = 0; print 1 / x; print "after" }'),
    case("fatal_in_end", 'END { print NR; print 1 % (NR - NR) }', "a\n"),
    case("progfile_missing", None, opts=["-f", "nosuch.awk"]),
    case("redirect_missing_dir", 'BEGIN { print "x" > "no/such/dir/f" }'),
]
