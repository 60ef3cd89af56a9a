"""perl one-liners (perl 5.36) of the kinds agents and shell how-tos use, on real material:
CRLF files, a file without a final newline, invalid UTF-8, empty files, JSON, logs, CSV."""

DATA = """The quick brown fox jumps over the lazy dog
foo bar baz
Hello World
  leading spaces and trailing\x20\x20\x20
foo again here
numbers 42 and 7 and 1000
UPPER lower MiXeD
last line of data
"""
NUMS = """alice 10 3.5
bob 20 4.25
carol 30 1
dave 5 2.75
alice 7 1.5
"""
CSV = """name,age,city
Alice,30,Paris
Bob,25,"New York"
Carol,35,Berlin
"""
LOG = """2024-01-15 10:23:45 INFO  [web] GET /index.html 200 192.168.1.10 1234ms
2024-01-15 10:24:01 ERROR [db] connection refused from 10.0.0.5
2024-01-15 10:25:13 WARN  [web] slow request /api/users 3200ms 192.168.1.11
2024-01-16 09:00:00 INFO  [auth] user=bob login ok 172.16.0.1
2024-01-16 09:05:30 ERROR [web] GET /missing 404 192.168.1.10 12ms
2024-01-16 11:11:11 INFO  [db] backup done size=1048576
"""
JSON = """{
  "name": "pysh",
  "version": "1.2.3",
  "dependencies": {
    "lark": "^1.1.9",
    "anyio": ">=4.3"
  },
  "scripts": {"test": "pytest -q", "lint": "ruff check ."},
  "private": true,
  "count": 42
}
"""
CODE = """import os
import sys

def foo(x):
    return x + 1  # add one

class Bar:
    def method(self):
        print("hello")  # greet
        return None
"""
PARA = """First paragraph line one.
First paragraph line two.

Second paragraph.


Third paragraph, after two blank lines.
"""
FILES = {
    "data.txt": DATA, "nums.txt": NUMS, "data.csv": CSV, "app.log": LOG, "package.json": JSON,
    "code.py": CODE, "para.txt": PARA, "crlf.txt": "one\r\ntwo\r\nthree\r\n",
    "nonl.txt": "alpha\nbeta\ngamma", "bin.dat": b"ok\n\xff\xfe bad\ncaf\xc3\xa9\n",
    "empty.txt": "", "dups.txt": "b\na\nb\nc\na\nb\n",
    "words.txt": "apple banana apple cherry banana apple\ndate\n",
}
DIRS = {**FILES, "d/a.txt": "a\n", "d/B.txt": "b\n", "d/c.log": "c\n", "d/.h.txt": "h\n",
        "d/sub/x.txt": "x\n"}
SHOW = "; s=$?; echo \"== rc=$s\"; cat"


def c(name, *argv, stdin=None):
    """``perl ARGS``; a first argument like "-0777 -ne" is several switches."""
    kw = {} if stdin is None else {"stdin": stdin}
    args = list(argv)
    if args and args[0].startswith("-") and " -" in args[0]:
        args = args[0].split(" ") + args[1:]
    return dict(name=name, argv=["perl", *args], files=FILES, **kw)


def s(name, script):
    return dict(name=name, script=script, files=FILES)


CASES = [
    # -- printing and filtering
    c("print_hello", "-e", 'print "hello\\n"'),
    c("le_print", "-le", 'print "a"; print "b"'),
    c("grep_like", "-ne", "print if /foo/", "data.txt"),
    c("grep_v_like", "-ne", "print unless /foo/", "data.txt"),
    c("grep_icase", "-ne", "print if /hello/i", "data.txt"),
    c("line_numbers", "-ne", 'print "$.: $_"', "data.txt"),
    c("line_2", "-ne", "print if $. == 2", "data.txt"),
    c("lines_2_to_4", "-ne", "print if 2..4", "data.txt"),
    c("range_regex", "-ne", "print if /quick/../World/", "data.txt"),
    c("range_exclusive", "-ne", "print if /^foo/.../^foo/", "data.txt"),
    c("first_line", "-ne", "print; exit", "data.txt"),
    c("last_line", "-ne", "$l = $_; END { print $l }", "data.txt"),
    c("head_3", "-ne", "print if $. <= 3", "data.txt"),
    c("tail_like", "-e", "@l = <>; print @l[-2..-1]", "data.txt"),
    c("count_lines", "-lne", "END { print $. }", "data.txt"),
    c("count_matching", "-lne", "$n++ if /foo/; END { print $n+0 }", "data.txt"),
    c("eof_each_file", "-ne", 'print "$ARGV: $_" if eof', "data.txt", "nums.txt"),
    c("close_argv_resets", "-ne", 'print "$ARGV:$.\\n" if eof; close ARGV if eof',
      "data.txt", "nums.txt"),
    c("missing_file_warns", "-ne", "print", "nofile.txt", "dups.txt"),
    c("stdin_filter", "-ne", "print if /b/", stdin="abc\ndef\nxbz\n"),
    c("reverse_lines", "-e", "print reverse <>", "data.txt"),
    c("reverse_each_line", "-lne", "print scalar reverse", "dups.txt"),
    c("number_lines_printf", "-ne", 'printf "%3d %s", $., $_', "nonl.txt"),
    c("longest_line", "-lne", '$m = length if length > $m; END { print $m }', "data.txt"),
    c("print_length", "-lne", "print length", "data.txt"),
    c("blank_line_removal", "-ne", "print if /\\S/", "para.txt"),
    c("squeeze_blank", "-00 -pe", "", "para.txt"),
    # -- substitutions
    c("subst_first", "-pe", "s/foo/FOO/", "data.txt"),
    c("subst_global", "-pe", "s/o/0/g", "data.txt"),
    c("subst_icase", "-pe", "s/hello/bye/i", "data.txt"),
    c("subst_capture", "-pe", "s/(\\w+) (\\w+)/$2 $1/", "data.txt"),
    c("subst_trailing_ws", "-pe", "s/\\s+$/\\n/", "data.txt"),
    c("subst_leading_ws", "-pe", "s/^\\s+//", "data.txt"),
    c("subst_braces", "-pe", "s{foo}{[foo]}g", "data.txt"),
    c("subst_pipe_delim", "-pe", "s|/|::|g", "app.log"),
    c("subst_count", "-lne", '$n += s/o/o/g; END { print $n }', "data.txt"),
    c("subst_r_flag", "-lne", "print s/a/A/gr", "dups.txt"),
    c("subst_named_capture", "-ne",
      'print "$+{y}/$+{m}\\n" if /(?<y>\\d{4})-(?<m>\\d\\d)/', "app.log"),
    c("subst_case_change", "-pe", "s/(\\w+)/\\u$1/g", "data.txt"),
    c("subst_upper_all", "-pe", "s/(foo)/\\U$1\\E!/g", "data.txt"),
    c("subst_x_flag", "-pe", "s/ (\\d+) \\s+ and /<$1> and/x", "data.txt"),
    c("subst_s_flag", "-0777 -pe", "s/line one.\\nFirst/JOINED/s", "para.txt"),
    c("subst_m_flag", "-0777 -pe", "s/^F/f/mg", "para.txt"),
    c("subst_ampersand", "-pe", "s/[aeiou]/[$&]/g", "dups.txt"),
    c("subst_special_chars", "-pe", "s/\\./<dot>/g", "package.json"),
    c("subst_nth", "-pe", "s/apple/APPLE/ for 1..2", "words.txt"),
    c("subst_in_var", "-lne", "($x = $_) =~ s/a/@/g; print $x", "dups.txt"),
    c("subst_tab", "-pe", "s/ /\\t/g", "nums.txt"),
    c("subst_crlf", "-pe", "s/\\r$//", "crlf.txt"),
    c("subst_crlf_add", "-pe", "s/\\n/\\r\\n/", "nonl.txt"),
    c("tr_upper", "-pe", "tr/a-z/A-Z/", "data.txt"),
    c("tr_count", "-lne", "$n += tr/o//; END { print $n }", "data.txt"),
    c("tr_delete", "-pe", "tr/aeiou//d", "data.txt"),
    c("tr_squeeze", "-pe", "tr/a-z//s", "dups.txt"),
    c("tr_rot13", "-pe", "tr/A-Za-z/N-ZA-Mn-za-m/", "data.txt"),
    c("tr_return", "-lne", "print tr/a-z//", "data.txt"),
    c("tr_complement", "-pe", "tr/a-zA-Z\\n/_/c", "dups.txt"),
    c("y_synonym", "-pe", "y/abc/xyz/", "dups.txt"),
    # -- in-place edits
    s("inplace_subst", "perl -pi -e 's/foo/qux/g' data.txt" + SHOW + " data.txt"),
    s("inplace_backup", "perl -i.bak -pe 's/b/B/' dups.txt" + SHOW + " dups.txt dups.txt.bak"),
    s("inplace_delete_lines", "perl -ni -e 'print unless /^\\s*#/' code.py" + SHOW +
      " code.py"),
    s("inplace_two_files", "perl -pi -e 's/^/> /' dups.txt nonl.txt" + SHOW +
      " dups.txt nonl.txt"),
    s("inplace_crlf", "perl -pi -e 's/\\r\\n/\\n/' crlf.txt" + SHOW + " crlf.txt"),
    s("inplace_insert_line", "perl -pi -e 'print \"# header\\n\" if $. == 1' code.py" + SHOW +
      " code.py"),
    s("inplace_append_after", "perl -pi -e '$_ .= \"    pass\\n\" if /^class/' code.py" +
      SHOW + " code.py"),
    s("inplace_slurp", "perl -0777 -pi -e 's/\\n\\n+/\\n/g' para.txt" + SHOW + " para.txt"),
    # -- fields
    c("field_2", "-lane", "print $F[1]", "nums.txt"),
    c("field_last", "-lane", "print $F[-1]", "data.txt"),
    c("fields_swap", "-lane", 'print "@F[1,0]"', "nums.txt"),
    c("field_count", "-lane", "print scalar @F", "data.txt"),
    c("csv_split", "-F, -lane", "print $F[0]", "data.csv"),
    c("csv_colon", "-F: -lane", "print $F[0]", stdin="root:x:0:0\nuser:x:1000:1000\n"),
    c("f_regex", "-F/\\s*,\\s*/", "-lane", "print join '|', @F", stdin="a , b,c ,  d\n"),
    c("sum_column", "-lane", "$s += $F[1]; END { print $s }", "nums.txt"),
    c("sum_float_column", "-lane", "$s += $F[2]; END { print $s }", "nums.txt"),
    c("avg_column", "-lane", "$s += $F[1]; $n++; END { printf \"%.2f\\n\", $s/$n }",
      "nums.txt"),
    c("max_column", "-lane", "$m = $F[1] if $F[1] > $m; END { print $m }", "nums.txt"),
    c("sum_by_key", "-lane", "$h{$F[0]} += $F[1]; END { print \"$_ $h{$_}\" for sort keys %h }",
      "nums.txt"),
    c("group_count_sorted_by_value", "-lane",
      "$h{$F[0]}++; END { print \"$h{$_} $_\" for sort { $h{$b} <=> $h{$a} || $a cmp $b } "
      "keys %h }", "nums.txt"),
    c("join_fields", "-lane", "print join ',', @F", "nums.txt"),
    c("filter_by_field", "-lane", "print if $F[1] > 9", "nums.txt"),
    c("print_fields_range", "-lane", "print \"@F[1..$#F]\"", "data.txt"),
    c("awk_like_nf", "-lane", "print $F[$#F]", "nums.txt"),
    c("split_explicit", "-lne", "@a = split /,/; print $a[1]", "data.csv"),
    c("split_limit", "-lne", "print join '|', split /,/, $_, 2", "data.csv"),
    c("split_chars", "-lne", "print join '-', split //", "dups.txt"),
    c("split_keep_delims", "-le", "print join '|', split /(,)/, 'a,b,c'"),
    c("split_trailing_empty", "-le", "print scalar(split /,/, 'a,b,,,')"),
    c("split_negative_limit", "-le", "print scalar(@x = split /,/, 'a,b,,,', -1)"),
    c("split_awk_mode", "-le", "print join '|', split ' ', '  lead and  trail  '"),
    # -- counting and dedup
    c("dedup_seen", "-ne", "print unless $seen{$_}++", "dups.txt"),
    c("dedup_count", "-lne", "$c{$_}++; END { print \"$_: $c{$_}\" for sort keys %c }",
      "dups.txt"),
    c("only_duplicates", "-ne", "print if $seen{$_}++ == 1", "dups.txt"),
    c("word_frequency", "-lne", "$w{$_}++ for split; END { for (sort { $w{$b} <=> $w{$a} "
      "|| $a cmp $b } keys %w) { print \"$w{$_} $_\" } }", "words.txt"),
    c("count_words", "-lne", "$n += () = /\\S+/g; END { print $n }", "data.txt"),
    c("count_chars", "-lne", "$n += length; END { print $n }", "data.txt"),
    c("unique_words_sorted", "-lne", "$s{$_} = 1 for split; END { print for sort keys %s }",
      "words.txt"),
    c("count_ips", "-lne", "$h{$1}++ while /(\\d+\\.\\d+\\.\\d+\\.\\d+)/g; END { print \"$_ "
      "$h{$_}\" for sort keys %h }", "app.log"),
    c("count_levels", "-lane", "$h{$F[2]}++; END { printf \"%-5s %d\\n\", $_, $h{$_} for sort "
      "keys %h }", "app.log"),
    c("histogram", "-lne", "$h{length $_}++; END { print \"$_ \", '*' x $h{$_} for sort { $a "
      "<=> $b } keys %h }", "dups.txt"),
    # -- slurp, paragraphs, records
    c("slurp_length", "-0777 -ne", "print length", "data.txt"),
    c("slurp_count_lines", "-0777 -ne", "print tr/\\n//", "data.txt"),
    c("slurp_multiline_match", "-0777 -ne", "print \"$1\\n\" while /\"(\\w+)\": \\{/g",
      "package.json"),
    c("paragraph_mode", "-00 -ne", "print \"[$.] $_\"", "para.txt"),
    c("paragraph_count", "-00 -ne", "END { print \"$.\\n\" }", "para.txt"),
    c("paragraph_grep", "-00 -ne", "print if /Second/", "para.txt"),
    c("record_sep_comma", "-ne", "BEGIN { $/ = ',' } chomp; print \"<$_>\\n\"",
      stdin="a,b,c"),
    c("null_separated", "-0 -ne", "chomp; print \"$_\\n\"", stdin="x\0y\0z\0"),
    c("l_with_0777", "-0777 -lne", "print length", "data.txt"),
    c("join_all_lines", "-0777 -pe", "s/\\n/,/g", "dups.txt"),
    c("join_lines_l", "-lne", "push @a, $_; END { print join ',', @a }", "dups.txt"),
    c("local_irs", "-e", "local $/; $x = <>; print length($x), \"\\n\"", "data.txt"),
    # -- extraction (JSON-ish, logs, code)
    c("json_value", "-ne", "print \"$1\\n\" if /\"version\":\\s*\"([^\"]+)\"/",
      "package.json"),
    c("json_keys", "-ne", "print \"$1\\n\" while /\"([a-z]+)\":/g", "package.json"),
    c("json_number", "-lne", "print $1 * 2 if /\"count\":\\s*(\\d+)/", "package.json"),
    c("json_deps", "-0777 -ne", "if (/\"dependencies\":\\s*\\{(.*?)\\}/s) { my $d = $1; print "
      "\"$1=$2\\n\" while $d =~ /\"([^\"]+)\":\\s*\"([^\"]+)\"/g }", "package.json"),
    c("json_bool", "-ne", "print \"private\\n\" if /\"private\":\\s*true/", "package.json"),
    c("log_errors", "-ne", "print if /ERROR/", "app.log"),
    c("log_times", "-lne", "print $1 if /(\\d\\d:\\d\\d):\\d\\d/", "app.log"),
    c("log_slow", "-lne", "print \"$1 $2\" if /(\\S+) (\\d+)ms/ && $2 > 1000", "app.log"),
    c("log_kv", "-lne", "print \"$1 => $2\" while /(\\w+)=(\\w+)/g", "app.log"),
    c("log_by_day", "-lane", "$d{$F[0]}++; END { print \"$_ $d{$_}\" for sort keys %d }",
      "app.log"),
    c("code_defs", "-lne", "print $1 if /^\\s*def (\\w+)/", "code.py"),
    c("code_comments", "-lne", "print $1 if /#\\s*(.*)/", "code.py"),
    c("code_imports", "-lne", "push @m, $1 if /^import (\\w+)/; END { print join ' ', @m }",
      "code.py"),
    c("list_matches_global", "-le", "@m = 'a1b22c333' =~ /(\\d+)/g; print \"@m\""),
    c("match_in_list_ctx", "-le", "($y, $m, $d) = '2024-01-15' =~ /(\\d+)-(\\d+)-(\\d+)/; "
      "print \"$d/$m/$y\""),
    c("pos_loop", "-le", "$_ = 'aXbXc'; $n++ while /X/g; print $n"),
    # -- case conversion
    c("uc_all", "-ne", "print uc", "data.txt"),
    c("lc_all", "-ne", "print lc", "data.txt"),
    c("ucfirst_words", "-pe", "s/(\\w+)/\\u\\L$1/g", "data.txt"),
    c("lcfirst", "-lne", "print lcfirst", "data.txt"),
    c("swap_case", "-pe", "tr/a-zA-Z/A-Za-z/", "data.txt"),
    c("uc_invalid_utf8", "-ne", "print uc", "bin.dat"),
    c("length_bytes", "-lne", "print length", "bin.dat"),
    # -- formatting
    c("printf_table", "-lane", "printf \"%-8s|%5d|%8.3f\\n\", @F", "nums.txt"),
    c("sprintf_pad", "-le", "print sprintf('%05.1f|%-6s|%+d|%x|%o|%e|%b', 3.14159, 'ab', 5, "
      "255, 8, 12345.678, 10)"),
    c("printf_percent", "-e", "printf \"%d%%\\n\", 50"),
    c("number_formats", "-le", "print 1/3; print 1e21; print 2**53; print 10/2; print -7/2; "
      "print 0.1+0.2"),
    c("int_ops", "-le", "print int(7.9), ' ', int(-7.9), ' ', 7 % 3, ' ', -7 % 3, ' ', 2**10"),
    c("string_repeat", "-le", "print '-' x 20"),
    c("list_repeat", "-le", "@a = ('a', 'b') x 3; print \"@a\""),
    c("commify", "-le", "$n = 1234567; 1 while $n =~ s/^(\\d+)(\\d{3})/$1,$2/; print $n"),
    c("hex_oct", "-le", "print hex('ff'), ' ', oct('755'), ' ', oct('0x1f'), ' ', "
      "sprintf('%#x', 255)"),
    c("chr_ord", "-le", "print ord('A'), ' ', chr(97), ' ', join(',', map { ord } split //, "
      "'hi')"),
    c("join_map", "-le", "print join ', ', map { \"<$_>\" } 1..5"),
    c("ranges_letters", "-le", "print join '', 'a'..'e'"),
    # -- lists, sort, map, grep
    c("sort_numeric", "-e", "print sort { $a <=> $b } <>", stdin="10\n9\n100\n1\n"),
    c("sort_numeric_desc", "-le", "print join ' ', sort { $b <=> $a } 3, 11, 2"),
    c("sort_default", "-le", "print join ' ', sort qw(banana Apple cherry apple)"),
    c("sort_by_length", "-e", "print sort { length($a) <=> length($b) or $a cmp $b } <>",
      "data.txt"),
    c("sort_by_field", "-e", "print sort { (split ' ', $a)[1] <=> (split ' ', $b)[1] } <>",
      "nums.txt"),
    c("sort_uniq", "-e", "my %s; print grep { !$s{$_}++ } sort <>", "dups.txt"),
    c("grep_count", "-le", "print scalar grep { $_ % 2 } 1..9"),
    c("grep_regex_list", "-le", "print join ' ', grep /an/, qw(banana apple mango kiwi)"),
    c("map_hash", "-le", "%h = map { $_ => length } qw(aa b cccc); print \"$_=$h{$_}\" for "
      "sort keys %h"),
    c("map_with_index", "-le", "@a = qw(x y z); print join ' ', map { \"$_:$a[$_]\" } "
      "0..$#a"),
    c("reverse_sort", "-le", "print join ' ', reverse sort { $a <=> $b } 5, 3, 9"),
    c("array_funcs", "-le", "@a = (1..5); push @a, 6; unshift @a, 0; $p = pop @a; $s = shift "
      "@a; print \"@a|$p|$s|\", scalar(@a)"),
    c("splice", "-le", "@a = (1..6); splice(@a, 1, 2, 'x'); print \"@a\""),
    c("exists_delete", "-le", "%h = (a => 1, b => 2); delete $h{a}; print exists $h{a} ? 1 : "
      "0, exists $h{b} ? 1 : 0"),
    c("hash_slice", "-le", "%h = (a => 1, b => 2, c => 3); print join ',', @h{qw(c a)}"),
    c("keys_count", "-le", "%h = map { $_ => 1 } qw(a b c a); print scalar keys %h"),
    c("nested_data", "-le", "push @{$h{$_ % 2 ? 'odd' : 'even'}}, $_ for 1..6; print "
      "\"$_: @{$h{$_}}\" for sort keys %h"),
    c("array_ref", "-le", "$r = [1, 2, 3]; print $r->[1], ' ', scalar @$r, ' ', \"@$r\""),
    c("hash_ref", "-le", "$r = {a => 1}; $r->{b} = 2; print join ',', map { \"$_=$r->{$_}\" } "
      "sort keys %$r"),
    c("wantarray_context", "-le", "my @a = (5, 6, 7); my $n = @a; my ($f) = @a; print "
      "\"$n $f $#a\""),
    c("last_element", "-le", "@a = (1..4); print $a[-1], $a[$#a]"),
    c("list_util_sum", "-MList::Util=sum,max,min -le", "print sum(1..10), ' ', max(3, 9, 2), "
      "' ', min(3, 9, 2)"),
    c("list_util_first", "-MList::Util=first -le", "print first { $_ > 3 } 1..10"),
    c("list_util_columns", "-MList::Util=sum -lane", "print sum @F[1..$#F]", "nums.txt"),
    # -- control flow and subs
    c("begin_end", "-ne", "BEGIN { print \"start\\n\" } print if /foo/; END { print "
      "\"end\\n\" }", "data.txt"),
    c("next_in_loop", "-ne", "next if /^foo/; print", "data.txt"),
    c("last_in_loop", "-ne", "last if /World/; print", "data.txt"),
    c("while_loop", "-le", "$i = 0; while ($i < 3) { print $i++ }"),
    c("until_loop", "-le", "$i = 3; until ($i == 0) { print $i-- }"),
    c("for_c_style", "-le", "for (my $i = 0; $i < 3; $i++) { print $i * $i }"),
    c("foreach_my", "-le", "foreach my $x (qw(a b c)) { print uc $x }"),
    c("foreach_modifies", "-le", "@a = (1, 2, 3); $_ *= 10 for @a; print \"@a\""),
    c("nested_loops_label", "-le", "OUTER: for $i (1..3) { for $j (1..3) { next OUTER if $j "
      "> $i; print \"$i$j\" } }"),
    c("if_elsif_else", "-le", "for (1, 15, 150) { if ($_ < 10) { print 'small' } elsif ($_ < "
      "100) { print 'medium' } else { print 'large' } }"),
    c("unless_else", "-le", "unless (0) { print 'yes' } else { print 'no' }"),
    c("ternary_chain", "-le", "for (-1, 0, 1) { print $_ < 0 ? 'neg' : $_ == 0 ? 'zero' : "
      "'pos' }"),
    c("sub_recursion", "-le", "sub fact { my $n = shift; $n <= 1 ? 1 : $n * fact($n - 1) } "
      "print fact(10)"),
    c("sub_list_return", "-le", "sub mm { my @s = sort { $a <=> $b } @_; return ($s[0], "
      "$s[-1]) } my ($lo, $hi) = mm(5, 2, 8); print \"$lo $hi\""),
    c("sub_with_hash", "-le", "my %c; sub add { $c{$_[0]}++ } add($_) for qw(x y x); print "
      "join ',', map { \"$_$c{$_}\" } sort keys %c"),
    c("do_block_value", "-le", "my $x = do { 1; 2; 3 }; print $x"),
    c("string_ops", "-le", "$s = 'Hello'; $s .= ', World'; print length($s), ' ', index($s, "
      "'World'), ' ', substr($s, 0, 5), ' ', rindex($s, 'o')"),
    c("substr_replace", "-le", "$s = 'Hello World'; substr($s, 0, 5) = 'HELLO'; print $s"),
    c("substr_4arg", "-le", "$s = 'abcdef'; substr($s, 1, 2, 'XY'); print $s"),
    c("string_compare", "-le", "print 'a' lt 'b' ? 1 : 0, 'b' cmp 'a', 10 <=> 9, 'abc' x 2"),
    c("chained_string_ops", "-le", "my @w = map { ucfirst lc } qw(hELLO wORLD); print \"@w\""),
    c("chop_chomp", "-le", "$s = \"abc\\n\"; chomp $s; chop $s; print $s"),
    c("sprintf_list", "-le", "my @a = (1, 2); print sprintf('%s-%s', @a)"),
    c("numeric_string", "-le", "print '3 apples' + 2, ' ', '0x10' + 0, ' ', '1e3' * 1"),
    c("string_increment", "-le", "$v = 'aa9'; $v++; print $v; $z = 'Az'; $z++; print $z"),
    c("undef_and_defined", "-le", "my $x; print defined($x) ? 'def' : 'undef'; $x = 0; print "
      "defined($x) ? 'def' : 'undef'"),
    c("defined_or", "-le", "my $x; my $y = $x // 'default'; print $y"),
    c("or_default", "-le", "my $v = '' || 'fallback'; print $v"),
    c("local_var", "-le", "$x = 1; sub show { print $x } sub t { local $x = 2; show() } t(); "
      "show()"),
    c("die_message", "-e", "die \"fatal problem\\n\""),
    c("die_no_newline", "-e", "die 'oops'"),
    c("die_in_eval", "-le", "eval { die \"inner\\n\" }; print \"caught: $@\""),
    c("exit_status", "-e", "exit 3"),
    c("warn_to_stderr", "-e", "warn \"careful\\n\"; print \"out\\n\""),
    c("open_missing_die", "-e", "open(my $f, '<', 'nofile') or die \"Cannot open: $!\\n\""),
    c("open_read_file", "-e", "open(my $f, '<', 'dups.txt') or die; while (my $l = <$f>) { "
      "print \"> $l\" } close $f"),
    s("open_write_file", "perl -e 'open(my $o, \">\", \"out.txt\") or die; print $o "
      "\"line $_\\n\" for 1..3; close $o'" + SHOW + " out.txt"),
    s("open_append_file", "perl -e 'open(my $o, \">>\", \"dups.txt\") or die; print {$o} "
      "\"appended\\n\"'" + SHOW + " dups.txt"),
    c("print_stderr", "-e", "print STDERR \"to stderr\\n\"; print STDOUT \"to stdout\\n\""),
    c("file_tests", "-le", "print -e 'data.txt' ? 'e' : '-', -d '.' ? 'd' : '-', -f 'nope' ? "
      "'f' : '-', -s 'nonl.txt'"),
    c("env_var", "-le", "print $ENV{HOME} ? 'home set' : 'no home'"),
    c("argv_args", "-le", "print scalar(@ARGV), ' ', join('|', @ARGV)", "a", "b c"),
    c("shift_argv", "-le", "$x = shift; print $x", "first", "second"),
    c("chomp_stdin", "-e", "chomp(my $l = <STDIN>); print \"[$l]\\n\"", stdin="typed\nmore\n"),
    c("stdin_all_lines", "-e", "my @l = <STDIN>; print scalar(@l), \"\\n\"",
      stdin="a\nb\nc\n"),
    c("while_stdin", "-e", "while (<STDIN>) { print \"$.:$_\" }", stdin="x\ny\n"),
    c("while_diamond", "-e", "while (<>) { chomp; print \"<$_>\\n\" }", "nonl.txt"),
    c("dollar_zero", "-le", "print $0"),
    c("special_vars_match", "-le", "'hello world' =~ /o w/; print \"[$`|$&|$']\""),
    c("say_with_E", "-E", "say 'hello'; say for 1..2"),
    c("crlf_chomp_l", "-lne", "print length", "crlf.txt"),
    c("crlf_strip_print", "-lpe", "s/\\r//", "crlf.txt"),
    c("nonl_file_p", "-pe", "s/a/A/g", "nonl.txt"),
    c("nonl_file_l", "-lne", "print \"[$_]\"", "nonl.txt"),
    c("empty_file", "-ne", "print; END { print \"lines: $.\\n\" }", "empty.txt"),
    c("invalid_utf8_passthrough", "-pe", "s/bad/BAD/", "bin.dat"),
    # -- s///e: the replacement is code (agents' arithmetic and formatting edits)
    c("subst_e_arith", "-pe", "s/(\\d+)/$1*2/e", "nums.txt"),
    c("subst_e_global_sprintf", "-pe", "s/(\\d+(?:\\.\\d+)?)/sprintf('%06.2f', $1)/ge",
      "nums.txt"),
    c("subst_e_block", "-pe", "s{(\\w+)}{ my $w = ucfirst lc $1; \"<$w>\" }ge", "crlf.txt"),
    c("subst_e_hash", "-pe", "BEGIN { %m = (foo => 'FOO', bar => 'BAR') } "
      "s/(\\w+)/exists $m{$1} ? $m{$1} : $1/ge", "data.txt"),
    c("subst_e_counter", "-pe", "s/^/++$n . ': '/e", "nonl.txt"),
    c("subst_e_length", "-lpe", "s/(\\S+)/length $1/eg", "bin.dat"),
    c("subst_e_r", "-le", "$s = 'a1b22'; print $s =~ s/(\\d+)/$1+1/gre; print $s"),
    c("subst_e_syntax_error", "-pe", "s/x/$1+/e", "nonl.txt"),
    # -- pos, eof() and eof, paragraph mode with -l, files and directories
    c("pos_in_while", "-le", "$_ = 'a1b22c333'; while (/\\d+/g) { print pos }"),
    c("pos_of_var", "-le", "$x = 'abab'; while ($x =~ /b/g) { print pos($x) } "
      "print defined pos($x) ? 'set' : 'undef'"),
    c("eof_per_file", "-lne", "print \"$.: $_\" if eof", "dups.txt", "nonl.txt"),
    c("eof_all_input", "-lne", "print \"$.: $_\" if eof()", "dups.txt", "nonl.txt"),
    c("paragraph_l", "-00 -lne", "print length", "para.txt"),
    c("l_then_paragraph", "-l -00 -ne", "print \"<$_>\"", "para.txt"),
    dict(name="glob_patterns", argv=["perl", "-le", "print join ',', glob 'd/*.txt'; "
         "print join ',', glob 'd/{a,c}.*'; print join ',', glob 'd/*/*.txt d/none'; "
         "print join ',', glob 'd/.*.txt'; print scalar(() = glob 'd/*')"], files=DIRS),
    dict(name="opendir_readdir", argv=["perl", "-le", "opendir(my $d, 'd') or die; "
         "print join ',', sort grep { !/^\\.\\.?$/ } readdir $d; closedir $d; "
         "opendir(D, 'nope') or print 'no: ', $! ? 1 : 0"], files=DIRS),
    dict(name="readdir_scalar", argv=["perl", "-e", "opendir D, 'd/sub'; my @n; "
         "while (defined(my $e = readdir D)) { push @n, $e } print join(',', sort @n), "
         "\"\\n\""], files=DIRS),
    c("stat_fields", "-le", "my @s = stat 'nums.txt'; print scalar(@s), ' ', $s[7]; "
      "printf \"%o\\n\", $s[2] & 07777; print stat('nope') ? 'y' : 'n'; "
      "print((lstat 'data.txt')[7])"),
    c("strftime_fields", "-MPOSIX=strftime -le", "print strftime('%Y-%m-%d %H:%M:%S', 5, 4, 3, 2, "
      "0, 124); print strftime('%a %d %b %j', 0, 0, 0, 31, 1, 124); "
      "print strftime('%Y-%m-%d', 0, 0, 0, 0, 12, 99)"),
    c("strftime_gmtime", "-MPOSIX -le", "print strftime('%Y-%m-%dT%H:%M:%S', gmtime(86400 * 365))"),
    c("syntax_error", "-e", "print 1 +;"),
    c("unbalanced_brace", "-e", "if (1) { print 1"),
    c("multiple_e", "-e", "print 'a';", "-e", "print \"b\\n\""),
    c("check_syntax", "-c", "-e", "print 1"),
    # require of a pragma or a version loads nothing and is true
    c("require_pragma", "-le", "require strict; require warnings; print 1 if require integer"),
    c("require_version", "-le", "require 5.006; require v5.10; print 'ok'"),
]
