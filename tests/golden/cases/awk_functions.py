"""awk user functions: recursion, scalars by value, arrays by reference, locals, return values."""

from tests.builtins.awk.gold import case

CASES = [
    case("simple", 'function add(a, b) { return a + b } BEGIN { print add(2, 3), add("4", 5) }'),
    case("recursion_factorial", 'function f(n) { return n <= 1 ? 1 : n * f(n - 1) } BEGIN { print f(10), f(20) }'),
    case("recursion_fib", 'function fib(n) { return n < 2 ? n : fib(n-1) + fib(n-2) } BEGIN { print fib(20) }'),
    case("scalar_by_value", 'function inc(x) { x++; return x } BEGIN { y = 1; print inc(y), y }'),
    case("array_by_reference", 'function fill(arr, n,   i) { for (i = 1; i <= n; i++) arr[i] = i * 10 } '
         'BEGIN { fill(a, 3); print a[1], a[2], a[3], length(a) }', oracle=["gawk"]),
    case("array_by_reference_posix", 'function fill(arr, n,   i) { for (i = 1; i <= n; i++) arr[i] = i * 10 } '
         'BEGIN { fill(a, 3); print a[1], a[2], a[3] }'),
    case("locals_are_fresh", 'function f(x,   tmp) { tmp = tmp x; return tmp } BEGIN { print f("a"), f("b") }'),
    case("local_array", 'function f(n,   arr, i, s) { for (i = 1; i <= n; i++) arr[i] = i; for (i in arr) s += arr[i]; return s } '
         'BEGIN { print f(4), f(3) }'),
    case("globals_visible", 'function show() { print g, NR } BEGIN { g = "global" } { show() }', "l1\nl2\n"),
    case("function_modifies_global", 'function bump() { count++ } { bump() } END { print count }', "a\nb\nc\n"),
    case("function_modifies_field", 'function up(i) { $i = toupper($i) } { up(2); print }', "a b c\n"),
    case("no_return_value", 'function f() { x = 1 } BEGIN { v = f(); print "[" v "]", length(v) }'),
    case("return_without_value", 'function f() { return } BEGIN { print "[" f() "]" }'),
    case("fewer_args", 'function f(a, b, c) { return a "-" b "-" c } BEGIN { print f(1), f(1, 2) }'),
    case("recursive_array", 'function qs(A, lo, hi,   i, last, t) { if (lo >= hi) return; last = lo; '
         'for (i = lo + 1; i <= hi; i++) if (A[i] < A[lo]) { t = A[++last]; A[last] = A[i]; A[i] = t } '
         't = A[lo]; A[lo] = A[last]; A[last] = t; qs(A, lo, last - 1); qs(A, last + 1, hi) } '
         '{ A[NR] = $1 } END { qs(A, 1, NR); for (i = 1; i <= NR; i++) printf "%s ", A[i]; print "" }',
         "5\n3\n9\n1\n7\n2\n"),
    case("hanoi", 'function h(n, from, to, via) { if (n == 0) return 0; return h(n-1, from, via, to) + 1 + h(n-1, via, to, from) } BEGIN { print h(10, "a", "c", "b") }'),
    case("mutual_recursion", 'function even(n) { return n == 0 ? 1 : odd(n - 1) } function odd(n) { return n == 0 ? 0 : even(n - 1) } BEGIN { print even(10), odd(7) }'),
    case("function_defined_after_use", 'BEGIN { print twice(21) } function twice(x) { return 2 * x }'),
    case("func_keyword", 'func sq(x) { return x * x } BEGIN { print sq(7) }', oracle=["gawk"]),
    case("newline_before_brace", 'function f(x)\n{\n  return x + 1\n}\nBEGIN { print f(1) }'),
    case("array_param_passthrough", 'function a1(arr) { a2(arr) } function a2(x) { x["k"] = "v" } BEGIN { a1(q); print q["k"] }'),
    case("array_param_created_in_callee", 'function setit(arr, k) { arr[k] = 1 } BEGIN { setit(m, "z"); print ("z" in m) }'),
    case("return_strnum", 'function first() { return $1 } { x = first(); print (x == 10) }', "10.0\n"),
    case("return_string_compare", 'function s() { return "10" } BEGIN { print (s() < 9) }'),
    case("call_undefined", 'BEGIN { nosuch() }'),
    case("too_many_args", 'function f(a) { return a } BEGIN { print f(1, 2) }', oracle=["gawk"]),
    case("split_in_function", 'function cnt(s,   a) { return split(s, a) } BEGIN { print cnt("a b c"), cnt("d") }'),
    case("getline_in_function", 'function rd(f,   l, n) { while ((getline l < f) > 0) n++; close(f); return n } BEGIN { print rd("data"), rd("data") }',
         files={"data": "1\n2\n3\n"}),
    case("deep_recursion", 'function d(n) { return n ? 1 + d(n - 1) : 0 } BEGIN { print d(500) }'),
    case("exit_in_function", 'function stop() { exit 3 } BEGIN { stop(); print "not here" } END { print "end" }'),
    case("next_in_function", 'function skip() { next } NR == 2 { skip() } { print }', "1\n2\n3\n"),
]
