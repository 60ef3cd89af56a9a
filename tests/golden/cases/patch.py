"""patch (GNU patch 2.7.6): unified diffs from diff -u, diff -ruN and git diff.

The recording holds patch's messages and status; for the cases marked
``tree`` tests/builtins/test_patch.py compares the resulting files (patched
files, backups, rejects, modes) with the real patch run side by side. Stdin is never a tty, so GNU takes the default answer to every question.
"""

TEN = "".join(f"{i}\n" for i in range(1, 11))
THIRTY = "".join(f"{i}\n" for i in range(1, 31))

# diff -u f f.new, with 5 -> five
D_FIVE = """--- f\t2024-01-02 03:04:05.000000000 +0000
+++ f.new\t2024-01-02 03:04:05.000000000 +0000
@@ -2,7 +2,7 @@
 2
 3
 4
-5
+five
 6
 7
 8
"""

# two hunks over THIRTY: 5 -> five, 20 -> twenty
D_TWO = """--- f\t2024-01-02 03:04:05.000000000 +0000
+++ f.new\t2024-01-02 03:04:05.000000000 +0000
@@ -2,7 +2,7 @@
 2
 3
 4
-5
+five
 6
 7
 8
@@ -17,7 +17,7 @@ int main()
 17
 18
 19
-20
+twenty
 21
 22
 23
"""

D_GROW = """--- f
+++ f
@@ -1,3 +1,6 @@
 1
+1a
+1b
+1c
 2
 3
@@ -8,3 +11,3 @@
 8
-9
+nine
 10
"""

GIT = """diff --git a/src/app.py b/src/app.py
index 3b18e51..a2a1b2c 100644
--- a/src/app.py
+++ b/src/app.py
@@ -1,3 +1,4 @@
 import os
+import sys
\x20
 def main():
diff --git a/docs/new.md b/docs/new.md
new file mode 100644
index 0000000..e69de29
--- /dev/null
+++ b/docs/new.md
@@ -0,0 +1,2 @@
+# New
+text
diff --git a/old.txt b/old.txt
deleted file mode 100644
index 587be6b..0000000
--- a/old.txt
+++ /dev/null
@@ -1 +0,0 @@
-x
"""
GIT_FILES = {"src/app.py": "import os\n\ndef main():\n    pass\n", "old.txt": "x\n"}

RUN = """diff -ruN a/k b/k
--- a/k\t2024-01-02 03:04:05.000000000 +0000
+++ b/k\t2024-01-02 03:04:05.000000000 +0000
@@ -1 +1,2 @@
 keep
+more
diff -ruN a/new b/new
--- a/new\t1970-01-01 00:00:00.000000000 +0000
+++ b/new\t2024-01-02 03:04:05.000000000 +0000
@@ -0,0 +1,2 @@
+n1
+n2
diff -ruN a/old b/old
--- a/old\t2024-01-02 03:04:05.000000000 +0000
+++ b/old\t1970-01-01 00:00:00.000000000 +0000
@@ -1 +0,0 @@
-x
"""
RUN_FILES = {"k": "keep\n", "old": "x\n"}

NOEOL = """--- a\t2024-01-02 03:04:05.000000000 +0000
+++ b\t2024-01-02 03:04:05.000000000 +0000
@@ -1,2 +1,2 @@
 x
-y
\\ No newline at end of file
+Y
\\ No newline at end of file
"""

ADD_EOL = """--- a
+++ a
@@ -1,2 +1,2 @@
 x
-y
\\ No newline at end of file
+y
"""

CRLF_FILE = "x\r\ny\r\nz\r\n"
CRLF_DIFF = "--- w\n+++ w\n@@ -1,3 +1,3 @@\n x\r\n-y\r\n+Y\r\n z\r\n"
CRLF_ALL = "--- w\r\n+++ w\r\n@@ -1,3 +1,3 @@\r\n x\r\n-y\r\n+Y\r\n z\r\n"

NEWFILE = "--- /dev/null\n+++ b/dir/sub/new.txt\n@@ -0,0 +1,2 @@\n+a\n+b\n"
DELFILE = "--- a/gone.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b\n"
CTX = ('*** f\t2024-01-02 03:04:05.000000000 +0000\n--- f\t2024-01-02 03:04:05.000000000 +0000\n'
       '***************\n*** 2,12 ****\n  2\n  3\n  4\n! 5\n  6\n  7\n  8\n  9\n  10\n! 11\n  12\n'
       '--- 2,12 ----\n  2\n  3\n  4\n! five\n  6\n  7\n  8\n  9\n  10\n! eleven\n  12\n')
CTX_RN = ('diff -crN a/new b/new\n*** a/new\t1970-01-01 00:00:00.000000000 +0000\n'
          '--- b/new\t2024-01-02 03:04:05.000000000 +0000\n***************\n*** 0 ****\n'
          '--- 1,2 ----\n+ n1\n+ n2\ndiff -crN a/old b/old\n'
          '*** a/old\t2024-01-02 03:04:05.000000000 +0000\n'
          '--- b/old\t1970-01-01 00:00:00.000000000 +0000\n***************\n*** 1 ****\n- x\n'
          '--- 0 ----\n')
TWELVE = "".join(f"{i}\n" for i in range(1, 13))
EMPTYOUT = "--- a/e\n+++ b/e\n@@ -1 +0,0 @@\n-a\n"


def c(name, args, files=None, stdin="", show=(), ls=True, **kw):
    """patch ARGS with STDIN; tests/builtins/test_patch.py also compares the resulting
    workspace (every file's content and mode) with the real patch's."""
    return dict(name=name, argv=["patch", *args], files=files or {}, stdin=stdin, tree=True,
                **kw)


def p(name, args, files=None, stdin="", **kw):
    """patch alone: its messages and status."""
    return dict(name=name, argv=["patch", *args], files=files or {}, stdin=stdin, **kw)


CASES = [
    # the basics
    c("stdin_plain", [], {"f": TEN}, D_FIVE, show=["f"]),
    c("input_file", ["-i", "d"], {"f": TEN, "d": D_FIVE}, show=["f"]),
    c("input_long", ["--input=d"], {"f": TEN, "d": D_FIVE}, show=["f"]),
    c("file_operand", ["g"], {"g": TEN}, D_FIVE, show=["g"]),
    c("file_and_patchfile", ["g", "d"], {"g": TEN, "d": D_FIVE}, show=["g"]),
    c("two_hunks", [], {"f": THIRTY}, D_TWO, show=["f"]),
    c("grow_out_offset", [], {"f": TEN}, D_GROW, show=["f"]),
    c("dry_run", ["--dry-run"], {"f": TEN}, D_FIVE, show=["f"]),
    c("silent", ["-s"], {"f": TEN}, D_FIVE, show=["f"]),
    c("quiet_long", ["--quiet"], {"f": THIRTY}, D_TWO.replace("-20\n", "-XX\n")),
    c("verbose", ["--verbose"], {"f": THIRTY}, D_TWO, show=["f"]),
    c("verbose_leading_text", ["--verbose"], {"f": TEN}, "Some mail text\n\n" + D_FIVE),
    c("backup", ["-b"], {"f": TEN}, D_FIVE, show=["f", "f.orig"]),
    c("backup_long_suffix", ["--backup", "-z", ".bak"], {"f": TEN}, D_FIVE, show=["f.bak"]),
    c("output_file", ["-o", "out"], {"f": TEN}, D_FIVE, show=["f", "out"]),
    c("output_stdout", ["-o", "-"], {"f": TEN}, D_FIVE),
    c("directory", ["-d", "sub"], {"sub/f": TEN}, D_FIVE, show=["sub/f"]),
    c("directory_long", ["--directory=sub", "-p0"], {"sub/f": TEN}, D_FIVE, show=["sub/f"]),
    c("reverse", ["-R"], {"f": TEN.replace("5\n", "five\n")}, D_FIVE, show=["f"]),
    c("reverse_long", ["--reverse"], {"f": TEN.replace("5\n", "five\n")}, D_FIVE),
    # offsets, fuzz, rejects
    c("offset", [], {"f": "a\nb\nc\n" + TEN}, D_FIVE, show=["f"]),
    c("offset_one", [], {"f": "a\n" + TEN}, D_FIVE, show=["f"]),
    c("offset_negative", [], {"f": TEN[4:]}, D_FIVE.replace("@@ -2,7 +2,7 @@", "@@ -4,7 +4,7 @@")
      .replace(" 2\n 3\n 4\n", " 2\n 3\n 4\n", 1), show=["f"]),
    c("fuzz_one", [], {"f": TEN.replace("2\n", "TWO\n", 1)}, D_FIVE, show=["f"]),
    c("fuzz_two", [], {"f": TEN.replace("3\n", "three\n", 1)}, D_FIVE, show=["f", "f.orig"]),
    c("fuzz_zero_fails", ["-F0"], {"f": TEN.replace("2\n", "TWO\n", 1)}, D_FIVE, show=["f.rej"]),
    c("fuzz_long", ["--fuzz=1"], {"f": TEN.replace("3\n", "three\n", 1)}, D_FIVE),
    c("fuzz_then_hunk_inside_frozen", [], {"f": "b1\nmut\na1\nc5\na1\n5\nc5\n"},
      "--- f\n+++ f\n@@ -1,4 +1,4 @@\n b1\n-5\n+chg\n a1\n c5\n@@ -6,2 +6,3 @@\n 5\n c5\n+chg\n"),
    c("append_past_end", [], {"f": "mut\n"}, "--- f\n+++ f\n@@ -2,0 +3,2 @@\n+n1\n+n2\n"),
    c("reject_one_of_two", [], {"f": THIRTY.replace("19\n", "nineteen\n").replace("18\n", "X\n")
                                .replace("21\n", "Y\n").replace("17\n", "Z\n")},
      D_TWO, show=["f", "f.rej"]),
    c("reject_all", [], {"f": "nothing\nalike\n"}, D_TWO, show=["f", "f.rej"]),
    c("reject_dry_run", ["--dry-run"], {"f": "nothing\nalike\n"}, D_TWO),
    c("reject_file_option", ["-r", "out.rej"], {"f": "nothing\nalike\n"}, D_FIVE,
      show=["out.rej"]),
    c("reject_discard", ["-r", "-"], {"f": "nothing\nalike\n"}, D_FIVE),
    c("offset_and_reject", ["--verbose"], {"f": "e1\ne2\ne3\n" + THIRTY.replace("19\n", "XIX\n")
                                           .replace("18\n", "X\n").replace("21\n", "Y\n")
                                           .replace("17\n", "Z\n")}, D_TWO, show=["f.rej"]),
    c("different_line_endings", [], {"w": CRLF_FILE},
      "--- w\n+++ w\n@@ -1,3 +1,3 @@\n x\n-y\n+Y\n z\n", show=["w.rej"]),
    # already applied
    c("already_applied", [], {"f": TEN.replace("5\n", "five\n")}, D_FIVE, show=["f", "f.rej"]),
    c("forward_skip", ["-N"], {"f": TEN.replace("5\n", "five\n")}, D_FIVE, show=["f.rej"]),
    c("forward_long", ["--forward"], {"f": TEN.replace("5\n", "five\n")}, D_FIVE),
    c("force_no_reverse", ["-f"], {"f": TEN.replace("5\n", "five\n")}, D_FIVE),
    c("batch_assume_reverse", ["-t"], {"f": TEN.replace("5\n", "five\n")}, D_FIVE, show=["f"]),
    c("batch_ignore_R", ["-t", "-R"], {"f": TEN}, D_FIVE, show=["f"]),
    c("reverse_of_unapplied", ["-R"], {"f": TEN}, D_FIVE),
    # file names and -p
    c("git_p1", ["-p1"], GIT_FILES, GIT, show=["src/app.py", "docs/new.md"]),
    c("git_strip_long", ["--strip=1"], GIT_FILES, GIT),
    c("git_default_strip", [], {"app.py": "import os\n\ndef main():\n"}, GIT.split("diff --git a/docs")[0],
      show=["app.py"]),
    c("git_p0_missing", ["-p0"], GIT_FILES, GIT),
    c("git_p2_too_many", ["-p2"], GIT_FILES, GIT),
    c("diff_ruN", ["-p1"], RUN_FILES, RUN, show=["k", "new"]),
    c("diff_ruN_reverse", ["-p1", "-R"], {"k": "keep\nmore\n", "new": "n1\nn2\n"}, RUN,
      show=["k", "old"]),
    c("diff_ruN_missing_old", ["-p1"], {"k": "keep\n"}, RUN),
    c("missing_target", [], {}, D_FIVE),
    c("missing_target_p1", ["-p1"], {}, "--- a/x.c\n+++ b/x.c\n@@ -1 +1 @@\n-a\n+b\n"),
    c("missing_target_force", ["-f", "-p1"], {}, "--- a/x.c\n+++ b/x.c\n@@ -1 +1 @@\n-a\n+b\n"),
    c("missing_target_batch", ["--batch"], {}, D_FIVE),
    c("missing_target_silent", ["-s"], {}, D_FIVE),
    c("index_line", [], {"f": TEN}, "Index: f\n" + "\n".join(D_FIVE.split("\n")[2:])),
    c("index_and_names", [], {"f": TEN}, "Index: nope\n" + D_FIVE),
    c("prefer_existing_new_name", [], {"f.new": TEN}, D_FIVE, show=["f.new"]),
    c("dangerous_dotdot", ["-p0"], {}, "--- ../evil\n+++ ../evil\n@@ -0,0 +1 @@\n+pwn\n"),
    c("dangerous_absolute", ["-p0"], {}, "--- /tmp/evil\n+++ /tmp/evil\n@@ -0,0 +1 @@\n+pwn\n"),
    c("dangerous_inner", ["-p1"], {"x": "a\n"}, "--- a/../x\n+++ b/../x\n@@ -1 +1 @@\n-a\n+b\n"),
    c("name_with_space", [], {"my file": "a\n"}, '--- "my file"\n+++ "my file"\n@@ -1 +1 @@\n-a\n+b\n',
      show=["my file"]),
    c("multi_files", [], {"a": "1\n", "b": "2\n"},
      "--- a\n+++ a\n@@ -1 +1 @@\n-1\n+one\n--- b\n+++ b\n@@ -1 +1 @@\n-2\n+two\n", show=["a", "b"]),
    c("multi_same_file_rej", [], {"a": "1\n2\n"},
      "--- a\n+++ a\n@@ -1 +1 @@\n-x\n+y\n--- a\n+++ a\n@@ -2 +2 @@\n-z\n+w\n", show=["a.rej"]),
    c("comment_lines", [], {"f": TEN}, "# a comment\n" + D_FIVE.replace(" 6\n", "# inside\n 6\n")),
    # creation and deletion
    c("create_dev_null", ["-p1"], {}, NEWFILE, show=["dir/sub/new.txt"]),
    c("create_backup", ["-b", "-p1"], {}, NEWFILE),
    c("create_exists", ["-p1"], {"dir/sub/new.txt": "a\nb\n"}, NEWFILE),
    c("create_exists_differs", ["-p1"], {"dir/sub/new.txt": "other\n"}, NEWFILE),
    c("create_exists_forward", ["-N", "-p1"], {"dir/sub/new.txt": "a\nb\n"}, NEWFILE),
    c("create_exists_force", ["-f", "-p1"], {"dir/sub/new.txt": "other\n"}, NEWFILE),
    c("create_empty_origin", [], {}, "--- new.txt\n+++ new.txt\n@@ -0,0 +1 @@\n+hi\n",
      show=["new.txt"]),
    c("delete_dev_null", ["-p1"], {"gone.txt": "a\nb\n"}, DELFILE),
    c("delete_keeps_dir", ["-p1"], {"d/gone.txt": "a\nb\n", "d/other": "o\n"},
      DELFILE.replace("gone.txt", "d/gone.txt")),
    c("delete_removes_empty_dir", ["-p1"], {"d/e/gone.txt": "a\nb\n"},
      DELFILE.replace("gone.txt", "d/e/gone.txt")),
    c("delete_backup", ["-b", "-p1"], {"gone.txt": "a\nb\n"}, DELFILE, show=["gone.txt.orig"]),
    c("delete_missing", ["-p1"], {}, DELFILE),
    c("delete_differs", ["-p1"], {"gone.txt": "a\nb\nc\n"}, DELFILE, show=["gone.txt"]),
    c("empty_out_keeps", ["-p1"], {"e": "a\n"}, EMPTYOUT),
    c("remove_empty", ["-E", "-p1"], {"e": "a\n"}, EMPTYOUT),
    c("remove_empty_long", ["--remove-empty-files", "-p1"], {"e": "a\n"}, EMPTYOUT),
    # newline at end of file, CRLF
    c("noeol_both", [], {"a": "x\ny"}, NOEOL, show=["a"]),
    c("noeol_add_newline", [], {"a": "x\ny"}, ADD_EOL, show=["a"]),
    c("noeol_remove_newline", ["-R"], {"a": "x\ny\n"}, ADD_EOL, show=["a"]),
    c("noeol_reject", [], {"a": "q\nr"}, NOEOL, show=["a.rej"]),
    c("crlf_passthrough", [], {"w": CRLF_FILE}, CRLF_DIFF, show=["w"]),
    c("crlf_patch_lf_file", [], {"w": "x\ny\nz\n"}, CRLF_ALL, show=["w"]),
    # git extras
    c("git_mode_change", ["-p1"], {"run.sh": "echo\n"},
      "diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\nindex 1..2\n"
      "--- a/run.sh\n+++ b/run.sh\n@@ -1 +1,2 @@\n echo\n+echo 2\n", ls=False),
    c("git_rename_only", ["-p1"], {"old.txt": "x\n"},
      "diff --git a/old.txt b/new.txt\nsimilarity index 100%\nrename from old.txt\n"
      "rename to new.txt\n"),
    c("git_rename_and_edit", ["-p1"], {"src/a.py": "1\n2\n3\n"},
      "diff --git a/src/a.py b/lib/b.py\nsimilarity index 70%\nrename from src/a.py\n"
      "rename to lib/b.py\nindex 1..2 100644\n--- a/src/a.py\n+++ b/lib/b.py\n"
      "@@ -1,3 +1,3 @@\n 1\n-2\n+two\n 3\n"),
    c("git_rename_reverse", ["-p1", "-R"], {"lib/b.py": "1\ntwo\n3\n"},
      "diff --git a/src/a.py b/lib/b.py\nsimilarity index 70%\nrename from src/a.py\n"
      "rename to lib/b.py\nindex 1..2 100644\n--- a/src/a.py\n+++ b/lib/b.py\n"
      "@@ -1,3 +1,3 @@\n 1\n-2\n+two\n 3\n"),
    c("git_already_renamed", ["-p1"], {"new.txt": "x\n"},
      "diff --git a/old.txt b/new.txt\nsimilarity index 90%\nrename from old.txt\n"
      "rename to new.txt\nindex 1..2 100644\n--- a/old.txt\n+++ b/new.txt\n"
      "@@ -1 +1,2 @@\n x\n+y\n"),
    c("git_copy", ["-p1"], {"a.txt": "x\n"},
      "diff --git a/a.txt b/c.txt\nsimilarity index 100%\ncopy from a.txt\ncopy to c.txt\n"),
    c("git_new_executable", ["-p1"], {},
      "diff --git a/run.sh b/run.sh\nnew file mode 100755\nindex 0000000..1\n--- /dev/null\n"
      "+++ b/run.sh\n@@ -0,0 +1 @@\n+echo hi\n"),
    c("git_names_with_space", ["-p1"], {"my file.txt": "a\n"},
      "diff --git a/my file.txt b/my file.txt\nindex 1..2 100644\n--- a/my file.txt\t\n"
      "+++ b/my file.txt\t\n@@ -1 +1 @@\n-a\n+b\n"),
    c("tab_separated_name_with_space", [], {"x y": "a\n"},
      "--- x y\t2024-01-02 03:04:05.000000000 +0000\n+++ x y\t2024-01-02 03:04:05.000000000 +0000\n"
      "@@ -1 +1 @@\n-a\n+b\n"),
    c("silent_already_applied", ["-s"], {"f": TEN.replace("5\n", "five\n")}, D_FIVE),
    c("verbose_delete_dirs", ["--verbose", "-p1"], {"d/e/gone.txt": "a\nb\n"},
      DELFILE.replace("gone.txt", "d/e/gone.txt")),
    c("delete_missing_force", ["-f", "-b", "-p1"], {"d/": None}, DELFILE.replace("gone.txt", "d/g")),
    c("output_dry_run", ["--dry-run", "-o", "out"], {"f": TEN}, D_FIVE),
    c("output_two_patches", ["-o", "out"], {"f": TEN}, D_FIVE + D_FIVE.replace("-5\n+five\n",
                                                                               "-6\n+six\n")),
    c("ignore_whitespace", ["-l"], {"f": "a\n  b  c\nd\n"},
      "--- f\n+++ f\n@@ -1,3 +1,3 @@\n a\n-b c\n+B\n d\n"),
    c("ignore_whitespace_match", ["-l"], {"f": "a\nb   c\t\nd\n"},
      "--- f\n+++ f\n@@ -1,3 +1,3 @@\n a\n-b c\n+B\n d\n"),
    c("whitespace_differs", [], {"f": "a\n  b  c\nd\n"},
      "--- f\n+++ f\n@@ -1,3 +1,3 @@\n a\n-b c\n+B\n d\n"),
    c("posix_mode", ["--posix"], {"f": "a\nb\n"}, D_FIVE),
    c("read_only_fail", ["--read-only=fail"], {"f": {"content": TEN, "mode": 0o444}}, D_FIVE),
    c("read_only_warn", [], {"f": {"content": TEN, "mode": 0o444}}, D_FIVE),
    c("index_svn_style", ["-p0"], {"f": TEN},
      "Index: f\n===================================================================\n" + D_FIVE),
    c("git_trailer_signature", ["-p1"], GIT_FILES, GIT + "-- \n2.40.0\n\n"),
    c("no_backup_if_mismatch", ["--no-backup-if-mismatch"], {"f": "a\n" + TEN}, D_FIVE),
    c("backup_if_mismatch_posix", ["--posix", "--backup-if-mismatch"], {"f": "a\n" + TEN}, D_FIVE),
    # context diffs (diff -c)
    c("context_plain", [], {"f": TWELVE}, CTX, show=["f"]),
    c("context_verbose", ["--verbose"], {"f": TWELVE}, CTX),
    c("context_offset_fuzz", [], {"f": "x\n" + TWELVE.replace("2\n", "TWO\n", 1)}, CTX),
    c("context_reject", [], {"f": TWELVE.replace("10\n", "X\n").replace("9\n", "Y\n")
                             .replace("12\n", "Z\n").replace("8\n", "W\n")}, CTX),
    c("context_reverse", ["-R"], {"f": TWELVE.replace("5\n", "five\n").replace("11\n", "eleven\n")},
      CTX),
    c("context_already_applied", [], {"f": TWELVE.replace("5\n", "five\n")
                                      .replace("11\n", "eleven\n")}, CTX),
    c("context_create_delete", ["-p1"], {"old": "x\n"}, CTX_RN),
    c("context_C0_insert", [], {"f": "1\n2\n3\n"},
      "*** f\n--- f\n***************\n*** 2 ****\n--- 3 ----\n+ new\n"),
    p("context_C0_delete_mangled", [], {"f": "1\n2\n3\n"},
      "*** f\n--- f\n***************\n*** 2 ****\n- 2\n--- 1 ----\n"),
    c("context_noeol", [], {"f": "a\nb"},
      "*** f\n--- f\n***************\n*** 1,2 ****\n  a\n! b\n\\ No newline at end of file\n"
      "--- 1,2 ----\n  a\n! B\n\\ No newline at end of file\n"),
    # errors
    p("garbage", [], {}, "this is not a patch\n"),
    p("empty_input", [], {}, ""),
    p("missing_patchfile", ["-i", "nope"], {}),
    p("bad_option", ["-Q"], {}),
    p("bad_long_option", ["--bogus"], {}),
    p("extra_operand", ["a", "b", "c"], {}),
    p("strip_not_number", ["-px"], {}, D_FIVE),
    p("fuzz_not_number", ["-F", "x"], {}, D_FIVE),
    p("bad_directory", ["-d", "nope"], {}, D_FIVE),
    p("missing_arg", ["-i"], {}),
    p("help", ["--help"], {}),
    p("version", ["--version"], {}),
    p("malformed_hunk_line", [], {"f": TEN}, D_FIVE.replace(" 6\n", "?6\n")),
    p("malformed_header", [], {"f": TEN}, "--- f\n+++ f\n@@ -x +1 @@\n-a\n+b\n"),
    p("truncated_hunk", [], {"f": TEN}, "--- f\n+++ f\n@@ -1,8 +1,8 @@\n 1\n-2\n+two\n"),
    p("short_context_at_eof", [], {"f": TEN}, "--- f\n+++ f\n@@ -8,3 +8,3 @@\n 8\n-9\n+nine\n"),
    p("directory_target", [], {"dd/": None}, "--- dd\n+++ dd\n@@ -1 +1 @@\n-a\n+b\n"),
    p("bare_hunk_no_header", [], {"f": TEN}, "@@ -5 +5 @@\n-5\n+five\n"),
    c("bare_hunk_with_file", ["f"], {"f": TEN}, "@@ -5 +5 @@\n-5\n+five\n", show=["f"]),
    p("trailing_garbage", [], {"f": TEN}, D_FIVE + "-- \nsignature\n"),
    p("no_final_newline", [], {"f": TEN}, D_FIVE[:-1]),
]
