"""Golden cases: ripgrep 13's flags agents type: -U/--multiline, --multiline-dotall,
-P (PCRE2: look-around, back-references), --type-add, --passthru, --trim, -z, --stats,
--context-separator, --sort/--sortr, --max-columns(-preview), --json in every mode."""

import gzip

M = "fn a() {\n  x\n}\nfn b() {}\n"
FILES = {
    "m.rs": M,
    "long.txt": "short x\n" + "a" * 30 + " x y x\n",
    "t2.txt": "  \t lead x\n",
    "srt/b.foo": "x\n", "srt/a.txt": "x\n", "srt/c.foo": "x\n",
    "z.gz": gzip.compress(b"zipped needle\nother\n", mtime=0),
    "pairs.txt": "abab\nabcabc\nxyzzy\n",
}


def c(name, *argv, **kw):
    kw.setdefault("files", FILES)
    return dict(name=name, argv=["rg", *argv], **kw)


def s(name, script):
    return dict(name=name, script=script, files=FILES)


NO_TIME = " | grep -v seconds"
JSON_SED = r""" | sed -E 's/"(elapsed|elapsed_total)":\{[^}]*\}/E/g'"""
CASES = [
    # -- multiline ---------------------------------------------------------------------------
    c("U_across", "-U", "fn a\\(\\) \\{\\n  x", "m.rs"),
    c("U_numbers", "-nU", "x\\n\\}", "m.rs"),
    c("U_dotall_only", "-U", "--multiline-dotall", "-o", "fn a.*?\\}", "m.rs"),
    c("U_no_dotall", "-U", "-o", "fn a.*?\\}", "m.rs"),
    c("U_count", "-c", "-U", "x\\n\\}", "m.rs"),
    c("U_count_lines", "-c", "-U", "\\{\\n|\\}\\n", "m.rs"),
    c("U_count_matches", "--count-matches", "-U", "x\\n\\}|fn", "m.rs"),
    c("U_only", "-o", "-n", "-U", "x\\n\\}", "m.rs"),
    c("U_context", "-U", "-n", "-A1", "\\{\\n  x", "m.rs"),
    c("U_anchors", "-nU", "^fn", "m.rs"),
    c("U_space", "-U", "-n", "\\s+x", "m.rs"),
    c("U_invert", "-U", "-v", "-n", "x\\n\\}", "m.rs"),
    c("U_files", "-U", "-l", "x\\n\\}", "m.rs", "long.txt", "--sort", "path"),
    s("U_json", "rg --json -U '\\{\\n|\\}\\n' m.rs" + JSON_SED),
    c("no_newline_without_U", "x\\n\\}", "m.rs"),
    # -- PCRE2 -------------------------------------------------------------------------------
    c("P_lookbehind", "-P", "(?<=fn )a", "m.rs"),
    c("P_lookahead_o", "-P", "-o", "\\w+(?=\\(\\))", "m.rs"),
    c("P_backref", "-P", "-n", "(ab)\\1", "pairs.txt"),
    c("P_possessive", "-P", "-c", "z++y", "pairs.txt"),
    c("P_multiline", "-P", "-U", "-n", "(?<=\\{)\\n\\s+x", "m.rs"),
    c("lookaround_without_P", "(?<=fn )a", "m.rs"),
    c("lookahead_without_P", "x(?!y)", "m.rs"),
    c("backref_without_P", "(x)\\1", "m.rs"),
    # -- output modes --------------------------------------------------------------------------
    c("passthru", "--passthru", "-n", "x", "m.rs"),
    s("passthru_json", "rg --json --passthru x m.rs" + JSON_SED),
    s("context_json", "rg --json -U -A1 'fn a' m.rs" + JSON_SED),
    c("trim", "--trim", "x", "t2.txt"),
    c("trim_context", "--trim", "-n", "-A1", "x", "m.rs"),
    c("trim_only", "--trim", "-o", "x", "m.rs"),
    c("max_columns", "-M", "20", "x", "long.txt"),
    c("max_columns_preview", "-M", "20", "--max-columns-preview", "x", "long.txt"),
    c("max_columns_only", "-n", "-M", "20", "-o", "x", "long.txt"),
    c("context_separator", "--context-separator=XX", "-A1", "-n", "fn", "m.rs"),
    c("context_separator_none", "--no-context-separator", "-B1", "fn b|fn a|x", "m.rs"),
    c("context_separator_c0", "--context-separator=XX", "-C0", "-n", "fn|\\}", "m.rs"),
    # -- files, types, order -----------------------------------------------------------------------
    c("sortr_path", "-l", "x", "srt", "--sortr", "path"),
    c("type_add", "--type-add", "foo:*.foo", "-t", "foo", "-l", "x", "srt", "--sort", "path"),
    c("type_add_include", "--type-add", "foo:*.foo", "--type-add", "both:include:foo,txt",
      "-t", "both", "-l", "x", "srt", "--sort", "path"),
    c("type_add_not", "--type-add", "foo:*.foo", "-T", "foo", "-l", "x", "srt", "--sort", "path"),
    c("search_zip", "-z", "needle", "z.gz"),
    c("search_zip_off", "-c", "needle", "z.gz"),
    s("stats", "rg --stats -c x m.rs long.txt --sort path" + NO_TIME),
    s("stats_quiet", "rg --stats -q x m.rs" + NO_TIME + "; echo $?"),
]
