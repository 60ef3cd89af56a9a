"""Golden cases: git 2.39's bisect (start, good/bad/old/new, skip, next, reset, log, run with
a command run in-process), the commit it picks on linear and merged histories and with
skipped commits, and its state files and refs, which are compared as the files themselves so
that either git can go on with a bisection the other started."""

from tests.ports.git.golden_helpers import case, commit, git, w

SEQ = [git("init", "-q", "-b", "main")]
for i in range(1, 13):
    SEQ.append(w("f.txt", "".join(f"{k}\n" for k in range(1, i + 1))))
    if i == 8:
        SEQ.append(w("bug.txt", "bug\n"))
    SEQ += [git("add", "."), commit(i, f"c{i}")]
# a side branch merged back: a history that is not a single line
MERGED = SEQ + [git("checkout", "-q", "-b", "side", "HEAD~6"), w("s.txt", "s\n"),
                git("add", "s.txt"), commit(20, "s1"), w("s.txt", "s2\n"), commit(21, "s2", "-a"),
                git("checkout", "-q", "main"), ["env", "GIT_AUTHOR_DATE=@1700001400 +0000",
                                                 "GIT_COMMITTER_DATE=@1700001400 +0000", "git",
                                                 "merge", "-q", "--no-edit", "side"]]
START = git("bisect", "start", "HEAD", "HEAD~11")
STATE = ["cat", ".git/BISECT_START", ".git/BISECT_LOG", ".git/BISECT_TERMS",
         ".git/BISECT_EXPECTED_REV", ".git/BISECT_NAMES"]
REFS = git("for-each-ref", "--format=%(objectname) %(refname)", "refs/bisect")
SCRIPT = """export GIT_AUTHOR_NAME='A U Thor' GIT_AUTHOR_EMAIL=author@example.com
export GIT_COMMITTER_NAME='A U Thor' GIT_COMMITTER_EMAIL=author@example.com GIT_CONFIG_NOSYSTEM=1
git init -q -b main
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
  seq 1 $i > f.txt
  if [ $i = 8 ]; then echo bug > bug.txt; fi
  t="@$((1700000000 + i * 60)) +0000"
  git add . && GIT_AUTHOR_DATE=$t GIT_COMMITTER_DATE=$t git commit -q -m c$i
done
git bisect start HEAD HEAD~11 >/dev/null
"""


def script(name, text):
    return {"name": name, "script": SCRIPT + text + "\n", "files": {}}


def c(name, argv, steps=(), base=SEQ):
    return case(name, argv, setup=base + list(steps))


CASES = [
    c("start", git("bisect", "start")),
    c("start_files", ["cat", ".git/BISECT_START", ".git/BISECT_LOG", ".git/BISECT_NAMES"],
      [git("bisect", "start")]),
    c("bad_first", git("bisect", "bad"), [git("bisect", "start")]),
    c("good_first", git("bisect", "good", "HEAD~3"), [git("bisect", "start")]),
    c("start_revs", START),
    c("start_state", STATE, [START]),
    c("start_refs", REFS, [START]),
    c("start_status", git("status"), [START]),
    c("start_head", git("log", "-1", "--format=%H %s"), [START]),
    c("good", git("bisect", "good"), [START]),
    c("bad", git("bisect", "bad"), [START]),
    c("old_new", git("bisect", "old"), [git("bisect", "start"), git("bisect", "new")]),
    c("found", git("bisect", "bad"), [START, git("bisect", "good"), git("bisect", "bad"),
                                      git("bisect", "good")]),
    c("found_log", git("bisect", "log"), [START, git("bisect", "good"), git("bisect", "bad"),
                                          git("bisect", "good"), git("bisect", "bad")]),
    c("skip", git("bisect", "skip"), [START]),
    c("skip_twice", git("bisect", "skip"), [START, git("bisect", "skip")]),
    c("skip_refs", REFS, [START, git("bisect", "skip"), git("bisect", "skip")]),
    c("skip_all", git("bisect", "skip"), [START] + [git("bisect", "skip")] * 9),
    c("skip_range_log", git("bisect", "log"), [START] + [git("bisect", "skip")] * 11),
    c("run_false", git("bisect", "run", "false"), [START]),
    c("run_not_started", git("bisect", "run", "true")),
    # run with a shell command line: scripts (the command runs in-process through the shell)
    script("run", "git bisect run sh -c 'test ! -f bug.txt'; echo rc=$?; git bisect log"),
    script("run_skip", "git bisect run sh -c 'exit 125'; echo rc=$?"),
    script("run_abort", "git bisect run sh -c 'exit 200'; echo rc=$?; git status | head -3"),
    script("run_status", "git bisect run sh -c 'test ! -f bug.txt || exit 3' >/dev/null; "
                         "git bisect reset; git status --short; git log -1 --format=%s"),
    c("reset", git("bisect", "reset"), [START, git("bisect", "good")]),
    c("reset_state", git("status"), [START, git("bisect", "good"), git("bisect", "reset")]),
    c("reset_commit", git("bisect", "reset", "HEAD~2"), [START]),
    c("reset_not", git("bisect", "reset")),
    c("log_not", git("bisect", "log")),
    c("bad_order", git("bisect", "start", "HEAD~5", "HEAD")),
    c("bad_order_after", git("bisect", "reset"), [git("bisect", "start", "HEAD~5", "HEAD")]),
    c("merged_start", START, base=MERGED),
    c("merged_steps", git("bisect", "bad"), [START, git("bisect", "good")], base=MERGED),
]
