"""awk arrays: subscripts, in, delete, multi-dimensional keys, SUBSEP, for-in."""

from tests.builtins.awk.gold import case


def b(name, body, stdin=""):
    return case(name, "BEGIN { " + body + " }", stdin)


CASES = [
    b("assign_read", 'a["x"] = 1; a["y"] = "two"; print a["x"], a["y"], a["z"] "|"'),
    case("in_does_not_create", "BEGIN { " + 'if ("k" in a) print "yes"; else print "no"; print length(a) + 0' + " }", oracle=["gawk"]),
    b("reference_creates", 'x = a["k"]; if ("k" in a) print "created"'),
    b("numeric_subscripts", 'a[1] = "one"; a["1"] = "uno"; print a[1]; a[0.1 + 0.2] = "f"; print a[0.3]'),
    b("subscript_convfmt", 'CONVFMT = "%.2f"; a[0.1234] = 1; for (k in a) print k'),
    b("subscript_integer_values", 'a[1e6] = 1; a[2^31] = 2; for (k in a) n++; print n, (1000000 in a), (2147483648 in a)'),
    case("subscript_strnum", "BEGIN { " + 'a["01"] = "s"; a[1] = "n"; print a["01"], a[1], length(a)' + " }", oracle=["gawk"]),
    b("delete_elem", 'a[1]; a[2]; a[3]; delete a[2]; print (1 in a), (2 in a), (3 in a)'),
    case("delete_all", "BEGIN { " + 'a[1]; a[2]; delete a; print length(a) + 0; a[5] = 1; print (5 in a)' + " }", oracle=["gawk"]),
    b("delete_missing_ok", 'delete a["nothing"]; print "ok"'),
    b("multi_dim", 'a[1, 2] = "x"; if ((1, 2) in a) print "in"; for (k in a) { split(k, p, SUBSEP); print p[1], p[2] }'),
    b("multi_dim_subsep", 'SUBSEP = ":"; a["p", "q"] = 1; for (k in a) print k'),
    b("multi_dim_default_subsep", 'a["p", "q"] = 1; for (k in a) print (k == "p\\034q")'),
    b("for_in_sum", 'for (i = 1; i <= 10; i++) a[i] = i * i; for (k in a) s += a[k]; print s'),
    b("for_in_key_strnum", 'a[1]; a[10]; a[2]; for (k in a) if (k < 5) n++; print n'),
    case("for_in_delete_during", "BEGIN { " + 'for (i = 1; i <= 5; i++) a[i]; for (k in a) delete a[k]; print length(a) + 0' + " }", oracle=["gawk"]),
    b("for_in_count", 'n = split("a b c a b a", w); for (i = 1; i <= n; i++) c[w[i]]++; print c["a"], c["b"], c["c"]'),
    b("array_of_counts_sorted", 'n = split("3 1 2", w); for (i = 1; i <= n; i++) v[w[i]] = i; for (i = 1; i <= 3; i++) print i, v[i]'),
    case("uniq_lines", "!seen[$0]++", "a\nb\na\nc\nb\n"),
    case("count_words", "{ for (i = 1; i <= NF; i++) c[$i]++ } END { print c[\"the\"], c[\"cat\"] }",
         "the cat\nthe dog\nthe cat sat\n"),
    case("join_lines_by_key", '{ a[$1] = a[$1] " " $2 } END { print a["x"]; print a["y"] }', "x 1\ny 2\nx 3\n"),
    case("two_file_join", 'NR == FNR { m[$1] = $2; next } $1 in m { print $0, m[$1] }',
         files={"a": "1 one\n2 two\n", "b": "2 B\n3 C\n1 A\n"}, args=["a", "b"]),
    case("reverse_lines", "{ l[NR] = $0 } END { for (i = NR; i >= 1; i--) print l[i] }", "1\n2\n3\n"),
    case("in_precedence", 'BEGIN { a["x"]; print "x" in a, !("y" in a); if (("x" in a) && !("z" in a)) print "ok" }'),
    case("in_with_concat", 'BEGIN { a["xy"]; k = "x"; print (k "y") in a }'),
    case("array_uninit_value", 'BEGIN { print a[1] + 0, "[" a[2] "]", length(a) }', oracle=["gawk"]),
    case("scalar_as_array_error", 'BEGIN { x = 1; x[1] = 2 }'),
    case("array_as_scalar_error", 'BEGIN { a[1] = 1; print a }'),
]
