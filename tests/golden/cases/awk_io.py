"""awk input and output: getline from files and stdin, redirections, close, fflush, next, exit."""

from tests.builtins.awk.gold import case

F = {"data": "one 1\ntwo 2\nthree 3\n", "other": "x\ny\n"}

CASES = [
    case("getline_plain", "NR == 1 { getline; print \"now\", $0, NR, FNR, NF }", "a b\nc d e\nf\n"),
    case("getline_plain_returns", "{ while ((r = getline) > 0) n++; print r, n, NR }", "1\n2\n3\n"),
    case("getline_var", "{ getline nxt; print $0 \"+\" nxt, NR }", "1\n2\n3\n4\n"),
    case("getline_var_at_eof", "{ r = getline v; print $0, r, \"[\" v \"]\" }", "1\n2\n3\n"),
    case("getline_in_begin", 'BEGIN { getline; print "first:", $0, NR } { print "main:", $0 }', "a\nb\n"),
    case("getline_var_in_begin", 'BEGIN { while ((getline line) > 0) n++; print n, NR }', "a\nb\nc\n"),
    case("getline_file", 'BEGIN { while ((getline < "data") > 0) print NF, $2; print NR }', files=F),
    case("getline_var_file", 'BEGIN { while ((getline l < "data") > 0) print "[" l "]"; print NR, NF }', files=F),
    case("getline_file_missing", 'BEGIN { r = (getline l < "nosuch"); print r }'),
    case("getline_file_directory", 'BEGIN { r = (getline l < "."); print r }'),
    case("getline_file_concat_precedence", 'BEGIN { d = "da"; while ((getline l < (d "ta")) > 0) n++; print n }', files=F),
    case("getline_file_interleaved_main", '{ getline o < "other"; print $0, o }', "1\n2\n3\n", files=F),
    case("getline_file_close_reread", 'BEGIN { getline a < "data"; close("data"); getline b < "data"; print (a == b) }', files=F),
    case("getline_stdin_dash", 'BEGIN { while ((getline l < "-") > 0) print "in:", l }', "p\nq\n"),
    case("getline_updates_nf_fields", '{ getline; print $2 }', "a b\nc d\n"),
    case("getline_paragraph_file", 'BEGIN { RS = ""; while ((getline r < "p") > 0) print "<" r ">" }',
         files={"p": "a\nb\n\n\nc\n"}),
    case("print_to_file_and_read", 'BEGIN { print "hello" > "out"; print "world" > "out"; close("out"); '
         'while ((getline l < "out") > 0) print "read:", l }'),
    case("append_to_file", 'BEGIN { print "1" > "f"; close("f"); print "2" >> "f"; close("f"); '
         'while ((getline l < "f") > 0) print l }'),
    case("truncate_on_first_open", 'BEGIN { print "x" > "existing"; close("existing"); getline l < "existing"; print l }',
         files={"existing": "old content\nmore\n"}),
    case("print_to_stderr", 'BEGIN { print "to err" > "/dev/stderr"; print "to out" }'),
    case("print_to_stdout_file", 'BEGIN { print "a" > "/dev/stdout"; print "b" }'),
    case("printf_to_file_many", '{ printf "%s;", $1 > "o" } END { close("o"); getline l < "o"; print l }', "a\nb\nc\n"),
    case("redirect_concat_name", 'BEGIN { n = "x"; print "v" > n ".txt"; close("x.txt"); getline l < "x.txt"; print l }'),
    case("close_returns", 'BEGIN { print "a" > "f"; print close("f"), close("f"), close("never") }'),
    case("close_input_returns", 'BEGIN { getline l < "data"; print close("data") }', files=F),
    case("fflush_forms", 'BEGIN { print "a"; fflush(); print "b" > "f"; print fflush("f"); print fflush("nope") }'),
    case("redirect_to_dir_fatal", 'BEGIN { print "x" > "." }'),
    case("next_skips", 'NR % 2 { next } { print }', "1\n2\n3\n4\n"),
    case("next_in_loop", '{ for (i = 1; i <= NF; i++) if ($i == "x") next; print }', "a b\nx y\nc x\nd\n"),
    case("exit_status", '{ print } NR == 2 { exit 3 }', "1\n2\n3\n"),
    case("exit_runs_end", '{ exit } END { print "end", NR }', "a\nb\n"),
    case("exit_in_end", 'END { print "x"; exit 4; print "y" }', ""),
    case("exit_in_begin_runs_end", 'BEGIN { exit 1 } { print "never" } END { print "end ran" }', "a\n"),
    case("exit_end_keeps_status", 'BEGIN { exit 5 } END { exit }', ""),
    case("exit_expression", 'BEGIN { exit 2 + 1 }'),
    case("exit_large_status", 'BEGIN { exit 258 }'),
    case("nextfile", 'FNR == 2 { nextfile } { print FILENAME, $0 }', files={"a": "1\n2\n3\n", "b": "4\n5\n"}, args=["a", "b"]),
    case("nextfile_end", '{ nextfile } END { print NR }', files={"a": "1\n2\n", "b": "3\n"}, args=["a", "b"]),
    case("missing_file_fatal", '{ print }', files={"a": "1\n"}, args=["a", "nosuch"]),
    case("missing_file_first", '{ print }', args=["nosuch"]),
    case("directory_operand", '{ print }', args=["."]),
    case("empty_file", '{ print "line" } END { print NR }', files={"e": ""}, args=["e"]),
    case("empty_stdin", 'END { print NR, "[" $0 "]" }', ""),
    case("no_trailing_newline_file", '{ print NR ":" $0 }', files={"n": "a\nb"}, args=["n"]),
    case("non_utf8_input", '{ print length($0), $2 }', b"\xff\xfe x\xe9y\n\xc3\xa9 z\n", subst=[
        (r"(?m)^awk: cmd\. line:1: \(FILENAME=- FNR=1\) warning: Invalid multibyte data detected\. "
         r"There may be a mismatch between your data and your locale\n", "")]),
    case("non_utf8_passthrough", '{ print }', b"\xff\xfe\x80\n"),
    case("non_utf8_regex", '/\\xe9/ { print "m" } { n++ } END { print n }', b"caf\xe9\n"),
    case("non_utf8_file", '{ print $1 }', files={"bin": b"\x80\x81 two\n"}, args=["bin"]),
]
