"""awk: gawk 5.2's extensions that agents use (recorded from plain gawk, not --posix):
PROCINFO["sorted_in"], IGNORECASE, BEGINFILE/ENDFILE, gensub, asort/asorti, patsplit,
3-argument match, 4-argument split, strftime/systime/mktime, the bit functions, tolower and
toupper on UTF-8, length(array); @include and the gawk variables pysh lacks are refused."""

from tests.builtins.awk.gold import case

G = ["gawk"]
ORDERS = ("@ind_str_asc @ind_str_desc @ind_num_asc @ind_num_desc @val_type_asc @val_type_desc "
          "@val_str_asc @val_str_desc @val_num_asc @val_num_desc @unsorted")
ARR = 'a["b"]=2; a["a"]=10; a[3]="x"; a[10]=1; a["c"]="10"; a["d"]=2; '
FILES = {"f1": "l1\nl2\n", "f2": "m1\n", "ic.txt": "Foo bar\nfoo BAZ\nqux\n",
         "nums": "10 x\n9 y\n11 z\n2 w\n"}


def g(name, prog, stdin="", args=(), **kw):
    kw.setdefault("files", FILES)
    return case(name, prog, stdin, args, oracle=G, **kw)


CASES = [
    # -- PROCINFO["sorted_in"] ----------------------------------------------------------------
    g("sorted_in_orders", "BEGIN { " + ARR + f'n = split("{ORDERS}", o, " "); '
      'for (i = 1; i < n; i++) { PROCINFO["sorted_in"] = o[i]; s = o[i] ":"; '
      'for (k in a) s = s " " k "=" a[k]; print s } }'),
    g("sorted_in_strnum", '{ b[NR] = $1 } END { PROCINFO["sorted_in"] = "@val_type_asc"; '
      'for (k in b) printf "%s=%s ", k, b[k]; print ""; PROCINFO["sorted_in"] = "@val_num_desc"; '
      'for (k in b) printf "%s=%s ", k, b[k]; print "" }', args=["nums"]),
    g("sorted_in_function", "function cmp(i1, v1, i2, v2) { return v1 < v2 ? -1 : v1 > v2 } "
      'BEGIN { a[1] = 3; a[2] = 1; a[3] = 2; PROCINFO["sorted_in"] = "cmp"; for (k in a) print k }'),
    g("sorted_in_words", '{ n[$2]++ } END { PROCINFO["sorted_in"] = "@ind_str_asc"; '
      'for (w in n) print w, n[w] }', args=["nums"]),
    g("sorted_in_in_function", 'function show(arr,   k) { for (k in arr) printf "%s ", k; print "" } '
      'BEGIN { x[5]; x[1]; x[12]; PROCINFO["sorted_in"] = "@ind_num_asc"; show(x) }'),
    g("sorted_in_undefined", 'BEGIN { PROCINFO["sorted_in"] = "nosuch"; a[1]; for (k in a) print k }'),
    # -- IGNORECASE ---------------------------------------------------------------------------
    g("ignorecase_v", "/FOO/", args=["ic.txt"], opts=["-v", "IGNORECASE=1"]),
    g("ignorecase_ops", 'BEGIN { IGNORECASE = 1 } $2 == "bar" { print "eq", $0 } '
      '{ n = split($0, p, /O/); print n; print index($0, "BA"), match($0, /baz/), RSTART; '
      's = $0; gsub(/o/, "0", s); print s }', args=["ic.txt"]),
    g("ignorecase_fs_char", 'BEGIN { IGNORECASE = 1; FS = "A" } { print $1 }', args=["ic.txt"]),
    g("ignorecase_fs_regex", 'BEGIN { IGNORECASE = 1; FS = "[A]" } { print $1 }', args=["ic.txt"]),
    g("ignorecase_compare", 'BEGIN { IGNORECASE = 1; print ("ABC" < "abd"), ("a" == "A"); '
      'x["A"] = 1; print ("a" in x); IGNORECASE = 0; print ("a" == "A"), ("a" ~ /A/) }'),
    g("ignorecase_toggle", 'NR == 2 { IGNORECASE = 1 } /foo/ { print NR }', args=["ic.txt"]),
    # -- BEGINFILE / ENDFILE ----------------------------------------------------------------------
    g("beginfile_endfile", 'BEGINFILE { print "begin", FILENAME, FNR, NR } '
      'ENDFILE { print "end", FILENAME, FNR, NR } { n++ }', args=["f1", "f2"]),
    g("beginfile_nextfile", 'BEGINFILE { print "bf", FILENAME; if (FILENAME == "f1") nextfile } '
      'ENDFILE { print "ef", FILENAME, FNR } { print }', args=["f1", "f2"]),
    g("main_nextfile_endfile", 'BEGINFILE { print "bf", FILENAME } ENDFILE { print "ef", FILENAME, FNR } '
      '{ print; nextfile }', args=["f1", "f2"]),
    g("beginfile_only", 'BEGINFILE { print "bf", FILENAME }', args=["f1", "f2"]),
    g("endfile_only", 'ENDFILE { print "ef", FILENAME, FNR, $0 }', args=["f1", "f2"]),
    g("beginfile_errno", 'BEGINFILE { print "bf", FILENAME, ERRNO; if (ERRNO) nextfile } { print }',
      args=["nosuch", "f2"]),
    g("beginfile_missing_fatal", 'BEGINFILE { print "bf", FILENAME } { print }', args=["nosuch", "f2"]),
    g("endfile_exit", 'NR == 1 { exit } ENDFILE { print "ef" } END { print "end" }', args=["f1"]),
    g("beginfile_next", "BEGINFILE { next }", args=["f1"]),
    g("beginfile_getline", "BEGINFILE { getline x; print x }", args=["f1"]),
    g("endfile_with_getline", '{ while ((getline line) > 0) print "got", line } '
      'ENDFILE { print "ef", FILENAME }', args=["f1", "f2"]),
    # -- gensub ------------------------------------------------------------------------------------
    g("gensub", 'BEGIN { print gensub(/(a)(b)/, "<\\\\2\\\\1>", "g", "abcab"); '
      'print gensub(/o/, "0", 2, "foo boo"); print gensub(/o/, "[&]", "G", "foo"); '
      'print gensub(/(l+)/, "\\\\\\\\1=\\\\1 \\\\0", "g", "hello"); '
      'print gensub(/x*/, "-", "g", "abc") }'),
    g("gensub_record", '{ print gensub(/o/, "0", "g"); print $0 }', stdin="foo boo\n"),
    g("gensub_bad_how", 'BEGIN { print gensub("o", "0", "h", "foo") }'),
    # -- asort / asorti ------------------------------------------------------------------------
    g("asort", 'BEGIN { a[1] = "pear"; a[2] = "Apple"; a[3] = 10; a[4] = 9; a["x"] = "banana"; '
      'n = asort(a, b); for (i = 1; i <= n; i++) printf "%s ", b[i]; print n; '
      'n = asorti(a, c); for (i = 1; i <= n; i++) printf "%s ", c[i]; print n; '
      'n = asort(a); for (i = 1; i <= n; i++) printf "%s ", a[i]; print "" }'),
    g("asort_how", 'BEGIN { d[3] = 1; d[1] = 2; d[2] = 3; asorti(d, e, "@ind_num_desc"); '
      'print e[1], e[2], e[3]; asort(d, f, "@val_num_desc"); print f[1] f[2] f[3] }'),
    g("asort_fields", '{ v[NR] = $1 } END { n = asort(v); for (i = 1; i <= n; i++) print v[i] }',
      args=["nums"]),
    # -- match / split / patsplit -------------------------------------------------------------------
    g("match_array", 'BEGIN { if (match("foo=bar; x=1", /([a-z]+)=([a-z]+)/, m)) '
      'for (k = 0; k <= 2; k++) print k, m[k], m[k, "start"], m[k, "length"]; print length(m) }'),
    g("match_array_unset_group", 'BEGIN { match("abc", /(x)?b(c)/, m); print length(m), (1 in m), m[2]; '
      'n = match("zzz", /a/, m); print n, length(m) }'),
    g("split_seps", 'BEGIN { n = split("a:b::c", p, ":", s); for (i = 1; i <= n; i++) '
      'printf "[%s|%s]", p[i], s[i]; print ""; n = split("  a  b ", q, " ", t); '
      'print n, "[" t[0] "]", "[" t[1] "]", "[" t[2] "]" }'),
    g("patsplit", 'BEGIN { n = patsplit("a1b22c333", arr, /[0-9]+/, seps); print n; '
      'for (i = 1; i <= n; i++) print arr[i]; for (i = 0; i <= n; i++) print "s" i "[" seps[i] "]"; '
      'n = patsplit("x,y z", a2); print n, a2[1], a2[2] }'),
    # -- time ------------------------------------------------------------------------------------
    g("strftime", 'BEGIN { print strftime("%Y-%m-%d %H:%M:%S", 0); print strftime("%Y", 86400 * 366, 1); '
      'print strftime("[%a %b %e %j %Z %z %%]", 1704164645); print (systime() > 1700000000) }',
      env={"TZ": "UTC"}),
    g("strftime_zone", 'BEGIN { print strftime("%H %Z", 0); print strftime("%H %Z", 0, 1) }',
      env={"TZ": "America/New_York"}),
    g("mktime", 'BEGIN { print mktime("2024 01 02 03 04 05"); print mktime("2024 1 2 3 4 5 -1"); '
      'print mktime("bad"); print mktime("2024 13 01 00 00 00"); print mktime("2024 03 00 00 00 00"); '
      'print mktime("1970 01 01 00 00 00", 1) }', env={"TZ": "UTC"}),
    g("mktime_zone", 'BEGIN { print mktime("1970 01 01 00 00 00"); print mktime("2024 07 01 12 00 00") }',
      env={"TZ": "America/New_York"}),
    g("strftime_default", 'BEGIN { print length(strftime()) > 20 }', env={"TZ": "UTC"}),
    # -- bits -------------------------------------------------------------------------------------
    g("bits", 'BEGIN { print and(12, 10), or(12, 10), xor(12, 10), lshift(1, 10), rshift(1024, 3), '
      'compl(0), and(5, 3, 1), or(1, 2, 4), compl(5), and(1.9, 3), lshift(1, 70) }'),
    g("bits_negative", "BEGIN { print and(-1, 3) }"),
    g("bits_one_arg", "BEGIN { print and(1) }"),
    # -- strings, arrays ---------------------------------------------------------------------------
    g("case_utf8", 'BEGIN { print toupper("straße ǆ éà ıi"), tolower("ÉCOLE İ ΣΑΣ") }'),
    g("length_array", 'function f(x) { return length(x) } BEGIN { a[1]; a[2]; print length(a), f(a) }'),
    g("next_in_begin", "BEGIN { next }"),
]
