"""ed (GNU ed 1.19): scripted edits as agents write them, addresses, every command, errors."""

CODE = """import os
# comment one
def foo(x):
    return x + 1

def bar(y):
    # inner comment
    return y * 2
"""
FILES = {
    "f": "one\ntwo\nthree\nfour\nfive\n", "code.py": CODE, "nonl": "a\nb",
    "crlf": "x\r\ny\r\n", "bin": b"\xff\xfe\nok\n", "empty": "", "two": "aa\nbb\n",
    "long": "a" * 150 + "\n" + "x\tb" * 40 + "\n",
}


def c(name, args, script, **kw):
    return dict(name=name, argv=["ed", *args.split()], stdin=script, files=FILES, **kw)


def s(name, script):
    """A heredoc edit, then the file as it was left."""
    return dict(name=name, script=f"ed -s code.py <<'EOF'\n{script}EOF\necho \"rc=$?\"; cat code.py",
                files=FILES)


CASES = [
    c("print_all", "f", ",p\nq\n"),
    c("quiet_print", "-s f", ",p\nq\n"),
    c("numbered", "-s f", ",s/e/E/g\n,n\nQ\n"),
    c("unknown_command", "-s f", "x\n,p\nq\n"),
    c("verbose_errors", "-v -s f", "b\n1,2,3p\nkA\n3;k\n0p\n1,0p\nj9\n/zz/\n//\ns/a/b/z\n"
      "s/a\n,s/x/y/\nu\nQ\n"),
    c("h_and_H", "-s f", "9p\nh\nH\nx\nQ\n"),
    c("bad_address", "-s f", "6p\nq\n"),
    c("modified_quit_twice", "-s f", "a\nnew\n.\nq\nq\n"),
    c("modified_eof", "-s f", "a\nnew\n.\n"),
    c("no_filename", "-s", "a\nx\n.\nw\nq\n"),
    c("search_both_ways", "-s f", "/three/\n?one?\nq\n"),
    c("global_print", "-s f", "g/o/p\nQ\n"),
    c("global_nested", "-v -s f", "g/o/g/x/p\nv/o/p\ng/o/\\\np\\\np\nQ\n"),
    c("relative", "-s f", "2\n+\n-2\n$\n.=\n=\n/o/=\nq\n"),
    c("join", "-s f", "1,2j\n,p\nq\n"),
    c("move", "-s f", "2,3m0\n,p\nQ\n"),
    c("copy", "-s f", "1t$\n,p\nQ\n"),
    c("marks", "-s f", "ka\n3\n'a\np\n'b\nQ\n"),
    c("change", "-s f", "2c\nTWO\n.\n,p\nQ\n"),
    c("change_nothing", "-s f", "2,3c\n.\n.=\np\nQ\n"),
    c("insert", "-s f", "2i\nins\n.\n,p\nQ\n"),
    c("append_at_zero", "-s f", "0a\nzero\n.\n1p\nQ\n"),
    c("undo_redo", "-s f", "u\n2d\nu\n,p\nu\n,p\nQ\n"),
    c("backrefs", "-s f", ",s/\\(o\\)\\(n\\)/\\2\\1/\n,p\nQ\n"),
    c("nth_match", "-s f", ",s/e/[&]/2\n,p\nQ\n"),
    c("write_byte_counts", "f", "w out\n2d\nw\nq\n"),
    c("read_file", "-s f", "r f\n,p\nQ\n"),
    c("filename", "-s f", "f\nf new\nf\nQ\n"),
    c("prompt", "-s f", ",p\nP\nQ\n"),
    c("prompt_option", "-p: f", "p\nq\n"),
    c("no_final_newline", "nonl", ",p\nw\nq\n"),
    c("crlf_list", "-s crlf", ",l\ns/\\r$//\n,l\nQ\n"),
    c("strip_trailing_cr", "-s --strip-trailing-cr crlf", ",l\nQ\n"),
    c("invalid_utf8_list", "bin", ",l\nq\n"),
    c("empty_file", "empty", ",p\nq\n"),
    c("missing_file", "-s nofile", "a\nhi\n.\nw\nq\n"),
    c("missing_file_quiet", "-q nofile", "q\n"),
    c("yank_put", "-s f", "1y\n$x\n,p\nQ\n"),
    c("scroll", "-s f", "1z2\nz\n.=\nQ\n"),
    c("write_quit", "-s f", "wq out3\n"),
    c("append_write", "-s f", "2,3W app\nq\n"),
    c("global_subst_continued", "-s f", "g/o/s/o/0/\\\np\n,p\nQ\n"),
    c("split_lines", "-s f", ",s/o/\\\n/g\n,p\nQ\n"),
    c("repeat_failed_subst", "-s f", "s/one/&&/\ns\np\nQ\n"),
    c("null_regex", "-s f", ",s/o/X/\n,s//Y/\n,p\nQ\n"),
    c("percent_no_previous", "-s f", "s/o/%/\nQ\n"),
    c("percent_previous", "-s f", "2s/t/A/\n3s/t/%/\n,p\nQ\n"),
    c("semicolon", "-s f", "/t/;/e/p\nQ\n"),
    c("offsets", "-s f", "2;+1p\n-,.p\nQ\n"),
    c("end_of_lines", "-s f", "1,$s/$/!/\n,p\nQ\n"),
    c("interactive_global", "-s f", "G/o/\np\n\n&\nQ\n"),
    c("list_long_lines", "-s long", "1l\n1n\n1nl\n2l\n2nl\nQ\n"),
    c("extended_regexp", "-E -s two", ",s/(a+)|(b+)/<\\1\\2>/\n,p\nQ\n"),
    c("set_filename_then_write", "-s", "f x.txt\na\nhi\n.\nw\nq\n"),
    c("two_operands", "-s two f", ",p\nf\nq\n"),
    c("loose_exit", "-l -s two", "x\nq\n"),
    c("global_append", "-s code.py", "g/def/a\n# after def\n.\n,p\nQ\n"),
    c("global_insert_continued", "-s code.py", "g/def/i\\\n# before\\\n# two\n,p\nQ\n"),
    c("global_change", "-s code.py", "g/return/c\\\n    pass\n,p\nQ\n"),
    c("global_undo", "-s code.py", "g/o/s/o/0/g\nu\n,p\nu\n,p\nQ\n"),
    c("global_move_to_top", "-s code.py", "g/return/m0\n,p\nQ\n"),
    c("delete_blank_lines", "-s code.py", "g/^$/d\n,n\nQ\n"),
    c("mark_range", "-s code.py", "ka\n/bar/\nkb\n'a,'bp\nQ\n"),
    c("edit_again", "-s code.py", "2d\ne code.py\ne code.py\n,p\nq\n"),
    c("read_missing", "-s code.py", "r nofile\nq\n"),
    c("write_directory", "-s code.py", "w .\nq\n"),
    c("word_boundaries", "-s code.py", ",s/\\<x\\>/arg/g\n,p\nQ\n"),
    c("char_class", "-s code.py", ",s/[[:digit:]]/N/g\n,p\nQ\n"),
    c("interval", "-s code.py", ",s/a\\{2,\\}/Y/\nQ\n"),
    c("bad_backref", "-s code.py", "s/\\(x\\)/\\2/\nQ\n"),
    c("bad_bracket", "-s code.py", "s/[/x/\nQ\n"),
    s("append_after_match", "/def foo/a\n    # added\n.\nw\nq\n"),
    s("substitute_all", ",s/return/yield/g\nw\nq\n"),
    s("delete_comments", "g/^ *#/d\nw\nq\n"),
    s("append_at_end", "$a\n# end\n.\nw\nq\n"),
    s("insert_shebang", "1i\n#!/usr/bin/env python3\n.\nw\nq\n"),
    s("delete_to_end", "/def bar/,$d\nw\nq\n"),
    s("next_line_substitute", "/def foo/+1s/x + 1/x + 2/\nw\nq\n"),
    s("range_substitute", "/def foo/;/return/s/x/z/g\nw\nq\n"),
    s("no_match_then_write", "/nonexistent/d\nw\nq\n"),
    s("replace_block", "/def bar/+1,/return/c\n    return y\n.\nw\nq\n"),
    s("wq", "1d\nwq\n"),
]
