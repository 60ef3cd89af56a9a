"""diff (GNU diffutils 3.8): formats, ignore options, directories, statuses.

Files get the harness's fixed mtime (2024-01-02 03:04:05 UTC), so the -u/-c
headers are deterministic.
"""

A = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n"
B = "a\nB\nc\nd\ne\nf\ng\nh\nI\nj\nk\n"
PAIR = {"a": A, "b": B}
NOEOL = {"a": "x\ny\nz", "b": "x\nY\nz"}
WS = {"a": "a  b\nc\t d\n  e\nf \nG\n\n", "b": "a b\nc d\ne\nf\ng\n\n\n"}
BLANK = {"a": "1\n2\n3\n", "b": "1\n\n2\n3\n\n"}
LONGF = {"a": "".join(f"line {i}\n" for i in range(1, 31)),
         "b": "".join(f"line {i}\n" if i not in (5, 20) else f"LINE {i}\n"
                      for i in range(1, 31))}
TREE = {
    "A/f": "1\n2\n", "B/f": "1\n3\n",
    "A/sub/g": "x\n", "B/sub/g": "y\n",
    "B/new": "n\n", "A/only/": None, "A/empty": "", "B/empty/": None,
    "A/same": "s\n", "B/same": "s\n",
}


def c(name, args, files=PAIR, **kw):
    return dict(name=name, argv=["diff", *args], files=files, **kw)


CASES = [
    c("normal", ["a", "b"]),
    c("normal_flag", ["--normal", "a", "b"]),
    c("same", ["a", "a"]),
    c("identical_content", ["a", "b"], files={"a": "x\n", "b": "x\n"}),
    c("unified", ["-u", "a", "b"]),
    c("unified_U1", ["-U", "1", "a", "b"]),
    c("unified_U0", ["-U0", "a", "b"]),
    c("unified_long", ["--unified=2", "a", "b"]),
    c("unified_merge_hunks", ["-u", "a", "b"], files=LONGF),
    c("unified_split_hunks", ["-U2", "a", "b"], files=LONGF),
    c("context", ["-c", "a", "b"]),
    c("context_C1", ["-C", "1", "a", "b"]),
    c("context_long", ["--context=0", "a", "b"]),
    c("context_long_file", ["-c", "a", "b"], files=LONGF),
    c("obsolete_digits", ["-2", "-u", "a", "b"]),
    c("noeol_normal", ["a", "b"], files=NOEOL),
    c("noeol_unified", ["-u", "a", "b"], files=NOEOL),
    c("noeol_context", ["-c", "a", "b"], files=NOEOL),
    c("noeol_one_side", ["-u", "a", "b"], files={"a": "x\ny", "b": "x\ny\n"}),
    c("noeol_add", ["a", "b"], files={"a": "x\n", "b": "x\ny"}),
    c("empty_vs_file", ["-u", "a", "b"], files={"a": "", "b": "x\ny\n"}),
    c("file_vs_empty", ["a", "b"], files={"a": "x\ny\n", "b": ""}),
    c("both_empty", ["a", "b"], files={"a": "", "b": ""}),
    c("brief", ["-q", "a", "b"]),
    c("brief_long", ["--brief", "a", "b"]),
    c("brief_same", ["-q", "a", "b"], files={"a": "x\n", "b": "x\n"}),
    c("brief_ignore", ["-q", "-i", "a", "b"], files={"a": "X\n", "b": "x\n"}),
    c("report_identical", ["-s", "a", "b"], files={"a": "x\n", "b": "x\n"}),
    c("report_identical_differ", ["-s", "a", "b"]),
    c("ignore_case", ["-i", "a", "b"], files={"a": "Hello\nWorld\n", "b": "hello\nWORLD\nx\n"}),
    c("ignore_case_u", ["--ignore-case", "-u", "a", "b"],
      files={"a": "Hello\nWorld\n", "b": "hello\nthere\n"}),
    c("ws_none", ["a", "b"], files=WS),
    c("ws_b", ["-b", "a", "b"], files=WS),
    c("ws_w", ["-w", "a", "b"], files=WS),
    c("ws_Z", ["-Z", "a", "b"], files=WS),
    c("ws_E", ["-E", "a", "b"], files={"a": "a\tb\n        x\n", "b": "a       b\n\tx\n"}),
    c("ws_bu", ["-bu", "a", "b"], files=WS),
    c("ws_w_long", ["--ignore-all-space", "-u", "a", "b"], files=WS),
    c("ws_b_long", ["--ignore-space-change", "a", "b"], files=WS),
    c("ws_wi", ["-w", "-i", "a", "b"], files=WS),
    c("blank_B", ["-B", "a", "b"], files=BLANK),
    c("blank_none", ["a", "b"], files=BLANK),
    c("blank_Bu", ["-B", "-u", "a", "b"], files=BLANK),
    c("blank_B_mixed", ["-B", "-u", "a", "b"],
      files={"a": "1\n2\n3\n4\n5\n6\n7\n8\n", "b": "1\n\n2\n3\nx\n4\n5\n6\n7\n\n8\n"}),
    c("blank_Bw", ["-B", "-w", "a", "b"], files={"a": "1\n \n2\n", "b": "1\n2\n\t\n"}),
    c("ignore_matching", ["-I", "^#", "a", "b"],
      files={"a": "x\n# c1\ny\n", "b": "x\n# c2\ny\nz\n"}),
    c("ignore_matching_all", ["-I", "^#", "a", "b"],
      files={"a": "x\n# c1\ny\n", "b": "x\n# c2\ny\n"}),
    c("side_by_side", ["-y", "a", "b"]),
    c("side_by_side_W", ["-y", "-W", "40", "a", "b"]),
    c("side_by_side_width_long", ["--side-by-side", "--width=60", "a", "b"]),
    c("side_by_side_suppress", ["-y", "--suppress-common-lines", "a", "b"]),
    c("side_by_side_left", ["-y", "--left-column", "a", "b"]),
    c("side_by_side_noeol", ["-y", "a", "b"], files=NOEOL),
    c("side_by_side_tabs", ["-y", "-W", "50", "a", "b"],
      files={"a": "a\tb\nlong line that is longer than the column width\n", "b": "a\tc\n"}),
    c("side_by_side_expand", ["-y", "-t", "-W", "50", "a", "b"],
      files={"a": "a\tb\nx\n", "b": "a\tc\nx\n"}),
    c("side_by_side_empty_lines", ["-y", "a", "b"], files={"a": "\nx\n\n", "b": "\ny\n"}),
    c("side_by_side_identical", ["-y", "a", "b"], files={"a": "x\ny\n", "b": "x\ny\n"}),
    c("ed", ["-e", "a", "b"]),
    c("ed_dot", ["-e", "a", "b"], files={"a": "x\ny\n", "b": "x\n.\ny\n"}),
    c("rcs", ["-n", "a", "b"]),
    c("label", ["-u", "--label", "old", "--label", "new", "a", "b"]),
    c("label_L", ["-L", "one", "-u", "a", "b"]),
    c("label_brief", ["-q", "--label=L1", "--label=L2", "a", "b"]),
    c("label_context", ["-c", "-L", "x", "-L", "y", "a", "b"]),
    c("expand_tabs", ["-t", "a", "b"], files={"a": "a\tb\n", "b": "a\tc\n"}),
    c("initial_tab", ["-T", "a", "b"]),
    c("initial_tab_u", ["-T", "-u", "a", "b"]),
    c("suppress_blank_empty", ["--suppress-blank-empty", "-u", "a", "b"],
      files={"a": "x\n\ny\n", "b": "x\n\nz\n"}),
    c("minimal", ["-d", "a", "b"]),
    c("minimal_long", ["--minimal", "-u", "a", "b"]),
    c("speed_large", ["-H", "a", "b"]),
    c("horizon", ["--horizon-lines=5", "a", "b"]),
    c("strip_cr", ["--strip-trailing-cr", "a", "b"], files={"a": "x\r\ny\r\n", "b": "x\ny\n"}),
    c("color_never", ["--color=never", "-u", "a", "b"]),
    c("text_a", ["-a", "a", "b"], files={"a": "x\0y\n1\n", "b": "x\0z\n1\n"}),
    c("binary", ["a", "b"], files={"a": "x\0y\n", "b": "x\0z\n"}),
    c("binary_same", ["a", "b"], files={"a": "x\0y\n", "b": "x\0y\n"}),
    c("binary_brief", ["-q", "a", "b"], files={"a": "x\0y\n", "b": "x\0z\n"}),
    c("non_utf8", ["-u", "a", "b"], files={"a": b"caf\xe9\nok\n", "b": b"caf\xc3\xa9\nok\n"}),
    c("non_utf8_y", ["-y", "a", "b"], files={"a": b"caf\xe9\nok\n", "b": b"caf\xc3\xa9\nok\n"}),
    c("utf8_y", ["-y", "-W", "30", "a", "b"], files={"a": "héllo wörld\n", "b": "hello world\n"}),
    c("missing_first", ["nosuch", "b"]),
    c("missing_second", ["a", "nosuch"]),
    c("missing_both", ["nosuch1", "nosuch2"]),
    c("new_file_N", ["-N", "nosuch", "b"]),
    c("new_file_N_u", ["-Nu", "a", "nosuch"]),
    c("unidirectional", ["--unidirectional-new-file", "nosuch", "b"]),
    c("file_vs_dir", ["a", "d"], files={"a": "x\n", "d/a": "y\n"}),
    c("dir_vs_file", ["d", "a"], files={"a": "x\n", "d/a": "x\n"}),
    c("file_vs_dir_missing", ["a", "d"], files={"a": "x\n", "d/": None}),
    c("dirs", ["A", "B"], files=TREE),
    c("dirs_r", ["-r", "A", "B"], files=TREE),
    c("dirs_ru", ["-ru", "A", "B"], files=TREE),
    c("dirs_r_u_split", ["-r", "-u", "A", "B"], files=TREE),
    c("dirs_rq", ["-rq", "A", "B"], files=TREE),
    c("dirs_rN", ["-rN", "A", "B"], files=TREE),
    c("dirs_rNu", ["-r", "-N", "-u", "A", "B"], files=TREE),
    c("dirs_rs", ["-rs", "A", "B"], files=TREE),
    c("dirs_exclude", ["-r", "-x", "sub", "A", "B"], files=TREE),
    c("dirs_exclude_glob", ["-r", "--exclude=*e*", "A", "B"], files=TREE),
    c("dirs_same", ["-r", "A", "A"], files=TREE),
    c("dirs_trailing_slash", ["-r", "A/", "B/"], files=TREE),
    c("from_file", ["--from-file=a", "b", "a"]),
    c("from_file_dir", ["--from-file", "A", "B"], files=TREE),
    c("to_file", ["--to-file=b", "a", "b"]),
    c("stdin_first", ["-", "b"], stdin=A),
    c("stdin_label", ["-u", "--label", "in", "--label", "b", "-", "b"], stdin=A),
    c("missing_operand", ["a"]),
    c("no_operands", []),
    c("extra_operand", ["a", "b", "c"]),
    c("bad_context", ["-U", "x", "a", "b"]),
    c("bad_width", ["-W", "0", "-y", "a", "b"]),
    c("bad_option", ["-k", "a", "b"]),
    c("bad_long", ["--bogus", "a", "b"]),
    c("conflicting_styles", ["-u", "-c", "a", "b"]),
    c("bad_color", ["--color=sometimes", "a", "b"]),
    c("moved_block", ["-u", "a", "b"],
      files={"a": "1\n2\n3\n4\n5\n6\n7\n8\n9\n", "b": "1\n2\n6\n7\n8\n3\n4\n5\n9\n"}),
    c("repeated_lines", ["a", "b"],
      files={"a": "x\nx\nx\ny\nx\nx\n", "b": "x\nx\ny\nx\nx\nx\nx\n"}),
    c("shift_boundary", ["-u", "a", "b"],
      files={"a": "{\n  a\n}\n{\n  b\n}\n", "b": "{\n  a\n}\n{\n  c\n}\n{\n  b\n}\n"}),
]


def _big():
    import random

    r = random.Random(5)
    lines = [f"line {i}: some text here {r.randint(0, 1000)}" for i in range(10000)]
    a = "".join(x + "\n" for x in lines)
    for k in range(100):
        i = r.randrange(len(lines))
        op = r.random()
        if op < 0.33:
            del lines[i]
        elif op < 0.66:
            lines.insert(i, f"inserted {k}")
        else:
            lines[i] = f"changed {k}"
    b = "".join(x + "\n" for x in lines)
    dup = "".join(r.choice(["{", "}", "", "x", "return 0;"]) + "\n" for _ in range(600))
    dup2 = "".join(r.choice(["{", "}", "", "x", "y"]) + "\n" for _ in range(600))
    return {"big1": a, "big2": b, "dup1": dup, "dup2": dup2}


BIG = _big()
CASES += [
    c("big_normal", ["big1", "big2"], files=BIG),
    c("big_unified", ["-u", "big1", "big2"], files=BIG),
    c("big_brief", ["-q", "big1", "big2"], files=BIG),
    c("dup_normal", ["dup1", "dup2"], files=BIG),
    c("dup_unified", ["-U", "1", "dup1", "dup2"], files=BIG),
    c("dup_minimal", ["-d", "dup1", "dup2"], files=BIG),
]

CFILES = {"a": "int main(void)\n{\n  int x;\n  x = 1;\n  return x;\n}\n\nstatic int helper(int a)\n"
               "{\n  a++;\n  a++;\n  a++;\n  a++;\n  return a;\n}\n",
          "b": "int main(void)\n{\n  int x;\n  x = 2;\n  return x;\n}\n\nstatic int helper(int a)\n"
               "{\n  a++;\n  a++;\n  a++;\n  a--;\n  return a;\n}\n"}
CASES += [
    c("show_c_function_u", ["-up", "a", "b"], files=CFILES),
    c("show_c_function_c", ["-p", "a", "b"], files=CFILES),
    c("show_function_line", ["-U1", "-F", "^static", "a", "b"], files=CFILES),
]
