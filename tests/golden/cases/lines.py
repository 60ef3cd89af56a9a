"""Golden cases: every line-matching engine applies its pattern to one line at a time, without
the terminator (GNU grep 3.8 -G/-E/-F/-P, ripgrep 13, GNU sed 4.9, gawk 5.2, expr), on CRLF
files, files without a final newline, invalid UTF-8 and empty files.

A pattern that can match a newline (\\s, \\D, [^x], look-around) must never reach into the
next line: grep -P once reported the line *before* a match and counted blank lines twice.
"""

FILES = {
    "crlf.txt": b"alpha beta\r\n  def f(self):\r\n\r\ngamma\r\n",
    "nofinal.txt": b"one two\n  three\nfour  ",
    "bad.txt": b"caf\xe9 ok\nplain line\n\xff\xfe tail\n",
    "empty.txt": b"",
    "f.py": b"class A:\n\n    def f(self):\n        pass \n\nx = 1\n",
    "ws.txt": b"a\n \n\t\nb c\n\n",
    "nul.txt": b"a\nb\0c d\0\n\0",
}
ALL = ["crlf.txt", "nofinal.txt", "bad.txt", "empty.txt", "f.py", "ws.txt"]


def c(name, argv, **kw):
    kw.setdefault("files", FILES)
    return dict(name=name, argv=argv, **kw)


CASES = [
    # -- grep -P: PCRE2 on each line alone ------------------------------------------------------
    c("P_def_self", ["grep", "-nP", "^\\s+def \\w+\\(self", "f.py", "crlf.txt"]),
    c("P_trailing_ws", ["grep", "-nP", "\\s+$"] + ALL),
    c("P_blank_count", ["grep", "-cP", "^\\s*$"] + ALL),
    c("P_nondigit", ["grep", "-nP", "\\D\\d", "f.py", "ws.txt"]),
    c("P_negated_set", ["grep", "-nP", "[^x]{3}", "ws.txt"]),
    c("P_only_ws", ["grep", "-noP", "\\s+", "ws.txt", "crlf.txt"]),
    c("P_lookbehind_ws", ["grep", "-cP", "(?<=\\s)b", "ws.txt"]),
    c("P_lookahead_ws", ["grep", "-cP", "a(?=\\s)", "ws.txt"]),
    c("P_cr_end", ["grep", "-nP", "\\r$", "crlf.txt"]),
    c("P_dollar_crlf", ["grep", "-cP", "a$", "crlf.txt"]),
    c("P_invert_nonspace", ["grep", "-vcP", "\\S", "ws.txt"]),
    c("P_o_nofinal", ["grep", "-oP", "\\s*\\S+", "nofinal.txt"]),
    c("P_newline_escape", ["grep", "-cP", "a\\nb", "ws.txt"]),
    c("P_x_space", ["grep", "-xnP", "\\s*", "ws.txt"]),
    c("P_w_space", ["grep", "-wnP", "\\s*b", "ws.txt"]),
    c("P_h_end", ["grep", "-nP", "\\h+$", "f.py"]),
    c("P_v", ["grep", "-cP", "\\v", "f.py", "crlf.txt"]),
    c("P_after", ["grep", "-A1", "-nP", "\\s$", "f.py"]),
    c("P_before", ["grep", "-B1", "-nP", "^\\s+\\w", "f.py"]),
    c("P_stdin", ["grep", "-nP", "^\\s*$"], stdin="x\n\n  \ny\n"),
    c("P_z_caret", ["grep", "-zcP", "^b", "nul.txt"]),
    c("P_z_space", ["grep", "-zcP", "a\\s", "nul.txt"]),
    c("P_empty_file", ["grep", "-cP", ".*", "empty.txt", "ws.txt"]),
    c("P_bad_utf8", ["grep", "-anP", "plain|tail", "bad.txt"]),
    # an invalid UTF-8 byte matches nothing, not even . or a negated class (PCRE2's invalid-UTF
    # mode in GNU grep); a match never runs across one
    c("P_bad_dot", ["grep", "-aP", "caf.", "bad.txt"]),
    c("P_bad_negated_o", ["grep", "-aoP", "[^a-z]+", "bad.txt"]),
    c("P_bad_anchor", ["grep", "-caP", "ok$|^ tail", "bad.txt"]),
    c("P_bad_binary", ["grep", "-P", "plain|tail", "bad.txt"]),
    c("P_bad_count", ["grep", "-cP", "\\W", "bad.txt"]),
    # -- grep -G/-E/-F ---------------------------------------------------------------------------
    c("E_space_class", ["grep", "-nE", "[[:space:]]+$", "crlf.txt", "nofinal.txt", "ws.txt", "f.py"]),
    c("E_blank_lines", ["grep", "-nE", "^[[:space:]]*$", "crlf.txt", "ws.txt", "f.py"]),
    c("G_negated_interval", ["grep", "-n", "[^a]\\{2\\}", "ws.txt"]),
    c("G_s_escape", ["grep", "-n", "\\s\\s", "ws.txt", "f.py", "nofinal.txt"]),
    c("E_W_escape", ["grep", "-nE", "\\W\\W", "ws.txt", "f.py"]),
    c("E_across", ["grep", "-cE", "a[^b]*c", "ws.txt"]),
    c("count_empty", ["grep", "-c", ""] + ALL),
    c("dollar_nofinal", ["grep", "-n", "e$", "nofinal.txt", "crlf.txt"]),
    c("F_space", ["grep", "-nF", " ", "nofinal.txt", "ws.txt"]),
    c("invert_nofinal", ["grep", "-vn", "x", "nofinal.txt"]),
    # -- ripgrep ---------------------------------------------------------------------------------
    c("rg_trailing_ws", ["rg", "-n", "\\s$", "f.py"]),
    c("rg_trailing_crlf", ["rg", "-n", "\\s$", "crlf.txt"]),
    c("rg_blank", ["rg", "-c", "^\\s*$", "ws.txt"]),
    c("rg_negated", ["rg", "-n", "[^x]{3}", "ws.txt"]),
    c("rg_nondigit", ["rg", "-n", "\\D\\d", "f.py"]),
    c("rg_only_ws", ["rg", "-no", "\\s+", "ws.txt"]),
    c("rg_across", ["rg", "-n", "a\\sb", "ws.txt"]),
    c("rg_nofinal", ["rg", "-n", "e$", "nofinal.txt"]),
    c("rg_empty_count", ["rg", "-c", "", "empty.txt"]),
    c("rg_empty_invert", ["rg", "-v", "x", "empty.txt"]),
    c("rg_count_nofinal", ["rg", "-c", "", "nofinal.txt"]),
    c("rg_bad_dot", ["rg", "-n", "caf.", "bad.txt"]),
    c("rg_bad_negated", ["rg", "-no", "[^a-z ]+", "bad.txt"]),
    c("rg_bad_plain", ["rg", "-n", "plain|tail", "bad.txt"]),
    # -- sed and awk: records are lines ----------------------------------------------------------
    c("sed_trailing_ws", ["sed", "-n", "/\\s$/=", "crlf.txt", "nofinal.txt", "ws.txt", "f.py"]),
    c("sed_subst_ws", ["sed", "-n", "s/\\s\\+$/X/p", "f.py", "crlf.txt"]),
    c("sed_last_line", ["sed", "-n", "$=", "nofinal.txt", "crlf.txt", "empty.txt"]),
    c("sed_nofinal", ["sed", "s/e$/E/", "nofinal.txt"]),
    c("sed_N_space", ["sed", "N;s/a\\sb/X/", "ws.txt"]),
    c("sed_N_negated", ["sed", "-E", "N;s/[^x]+/Y/", "ws.txt"]),
    c("awk_trailing_ws", ["awk", "/\\s$/{print FILENAME, FNR}", "crlf.txt", "nofinal.txt",
                          "ws.txt", "f.py"]),
    c("awk_blank", ["awk", "/^[[:space:]]*$/{print FILENAME, FNR}", "crlf.txt", "ws.txt", "f.py",
                    "empty.txt"]),
    c("awk_nf", ["awk", "{print NF}", "crlf.txt", "nofinal.txt"]),
    c("awk_nr", ["awk", "END{print NR}", "nofinal.txt", "empty.txt", "crlf.txt"]),
    c("awk_paragraph", ["awk", "BEGIN{RS=\"\"}/a[^x]b/{print \"m\"}{print NR\": \"$0}", "ws.txt"]),
    c("awk_string_newline", ["awk", "BEGIN{s=\"a\\nb\"; print match(s, /a[^x]b/), (s ~ /a.b/)}"]),
    c("expr_newline", ["expr", "a\nb", ":", "a.b"]),
    c("expr_newline_star", ["expr", "ab\ncd", ":", "\\(.*\\)"]),
    c("expr_negated", ["expr", "a\nb", ":", "a[^x]"]),
]
