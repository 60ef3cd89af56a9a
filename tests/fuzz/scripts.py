"""Random scripts from a grammar of shell constructs, builtins and commands with random
arguments, run through the API; any internal error, traceback, host path in the output
or run past its deadline is a failure (issue 12, item 8).

    python -m tests.fuzz [--seconds N] [--seed N] [--derandomize]

Every host directory the sandbox uses (workspace, home, the instance's /tmp) carries a
canary in its name, and the host environment carries it too: it must never show. Each
script is written to ``<tmp>/current.sh`` before it runs, so a run that a parent has to
kill for hanging can still be reported.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import tempfile
import time
import uuid
import warnings

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

CANARY = "CANARY" + uuid.uuid4().hex[:10]
RUN_TIMEOUT = 1.0
SLACK = 1.5  # a run may overrun its deadline by this much (a loaded machine) before it fails

BUILTINS = [":", "true", "false", "echo", "printf", "read", "test", "[", "declare", "local",
            "export", "unset", "shift", "set", "shopt", "eval", "source", ".", "trap", "kill",
            "cd", "pwd", "pushd", "popd", "dirs", "mapfile", "readarray", "getopts", "let",
            "alias", "unalias", "type", "command", "builtin", "hash", "jobs", "wait", "return",
            "break", "continue", "readonly", "typeset", "umask", "ulimit", "times", "caller",
            "help", "enable", "exec", "exit"]
COMMANDS = ["cat", "grep", "egrep", "sed", "awk", "sort", "uniq", "head", "tail", "cut", "tr",
            "wc", "find", "ls", "mkdir", "touch", "rm", "cp", "mv", "ln", "seq", "expr", "bc",
            "jq", "rg", "fd", "date", "xargs", "tee", "basename", "dirname", "realpath",
            "readlink", "stat", "du", "od", "xxd", "base64", "md5sum", "sha256sum", "diff",
            "tar", "gzip", "zcat", "paste", "join", "comm", "column", "fold", "nl", "rev",
            "tac", "shuf", "split", "strings", "env", "printenv", "timeout", "sleep", "yes",
            "file", "iconv", "hexdump", "truncate", "dd", "mktemp", "tree", "which", "getopt",
            "envsubst", "cmp", "patch", "sqlite3", "git", "bash", "sh", "id", "uname", "ps",
            "nohup", "nice", "stdbuf", "chmod", "df", "rmdir", "zip", "unzip", "tput"]
ARGS = ["-a", "-n", "-e", "-r", "-v", "-x", "-c", "-f", "-i", "-l", "-s", "-z", "-0", "-1",
        "-p", "-u", "-d", "-t", "-k2", "-t:", "-d,", "-F:", "-E", "-P", "-o", "-R", "-L", "-h",
        "--help", "--version", "-", "--", "-name", "-type", "-exec", "{}", ";", "+",
        "0", "1", "2", "-1", "3.5", "1e9", "99999999999999999999", "0x1f", "010",
        "", "a", "abc", "a b", "*", "?", "[a-z]*", "*a*a*a*b", "+(a|b)", "!(x)", ".", "..",
        "/", "/etc/passwd", "/dev/null", "/dev/stdin", "/proc/self/environ", "/tmp", "~",
        "~root", "../../..", "/bin/sh", "f", "d", "d/", "f.txt", "nonexistent", "é", "日本",
        "%s %d %5.2f %q", "%(%Y)T", "%b", "\\n\\t\\0", "s/a/b/g", "s/\\(a\\)*/x/", "p",
        "{print $1}", "BEGIN{x=2^1000; print x}", ".[]", ".a.b", "keys", "^a.*b$", "(a|aa)+$",
        "x=1", "y[3]=4", "-o", "pipefail", "errexit", "nounset", "extglob", "nullglob",
        "INT", "EXIT", "ERR", "DEBUG", "HUP", "%1", "$$", "2>&1", "x" * 300]
NAMES = ["x", "y", "a", "arr", "i", "IFS", "PATH", "HOME", "PWD", "OLDPWD", "REPLY", "RANDOM",
         "BASH_REMATCH", "FUNCNAME", "PIPESTATUS", "_", "1", "@", "*", "#", "?", "!", "-"]
OPS = ["", ":-w", ":=w", ":+w", "-w", "#*/", "##*/", "%.*", "%%/*", "/a/b", "//a/", "/#a/b",
       "/%a/b", ":1", ":1:2", ":-1", "^", "^^", ",", ",,", "@Q", "@U", "@a", "@E", "@P", "@K"]


def _quote(s: str) -> str:
    return shlex.quote(s)


@st.composite
def word(draw) -> str:
    kind = draw(st.integers(0, 9))
    if kind <= 3:
        return _quote(draw(st.sampled_from(ARGS)))
    if kind == 4:
        name = draw(st.sampled_from(NAMES))
        op = draw(st.sampled_from(OPS))
        if op == "" and draw(st.booleans()):
            return "$" + name if len(name) > 1 or not name.isalnum() else "${" + name + "}"
        prefix = draw(st.sampled_from(["", "", "#", "!"]))
        if prefix == "#":
            op = ""
        sub = draw(st.sampled_from(["", "", "[0]", "[@]", "[*]", "[-1]", "[i+1]"]))
        return '"${' + prefix + name + sub + op + '}"'
    if kind == 5:
        a, b = draw(st.sampled_from(["1", "x", "i", "2**62", "-1", "arr[2]", "RANDOM"])), \
            draw(st.sampled_from(["1", "0", "x", "3", "64", "y"]))
        op = draw(st.sampled_from(["+", "-", "*", "/", "%", "**", "<<", ">>", "&", "|", "^",
                                   "&&", "||", ",", "<", "==", "=", "+="]))
        return f"$(({a} {op} {b}))"
    if kind == 6:
        return '"$(' + draw(simple()) + ')"'
    if kind == 7:
        return draw(st.sampled_from(["*", "?", "[ab]*", "*.txt", "**", "d/*", "{a,b}{1..3}",
                                     "{1..5..2}", "~", "~+", "$'\\x41\\n'", '"$@"', "$*",
                                     "<(echo a)", "@(a|b)*"]))
    if kind == 8:
        return _quote(draw(st.text(alphabet="ab*?[]{}$\\'\" \t\n|&;<>()é", max_size=8)))
    return _quote(draw(st.text(max_size=6)))


@st.composite
def simple(draw) -> str:
    name = draw(st.sampled_from(BUILTINS + COMMANDS + ["f", "g"]))
    args = draw(st.lists(word(), max_size=4))
    redir = draw(st.sampled_from(["", "", "", " >f", " >>f", " <f", " 2>&1", " 2>/dev/null",
                                  " <<<abc", " >&-", " <&-", " 3>f",
                                  " </dev/null", " >d", " <nonexistent"]))
    prefix = draw(st.sampled_from(["", "", "", "x=1 ", "IFS=: ", "LC_ALL=C ", "PATH= "]))
    return prefix + " ".join([name, *args]) + redir


@st.composite
def statement(draw, depth: int = 0) -> str:
    kind = draw(st.integers(0, 13 if depth < 2 else 3))
    if kind <= 1:
        return draw(simple())
    if kind == 2:
        return draw(st.sampled_from(NAMES[:6])) + "=" + draw(word())
    if kind == 3:
        return " | ".join(draw(st.lists(simple(), min_size=2, max_size=3)))
    body = draw(block(depth + 1))
    if kind == 4:
        return f"if {draw(simple())}; then {body}; else {draw(block(depth + 1))}; fi"
    if kind == 5:
        return f"for x in {' '.join(draw(st.lists(word(), max_size=3)))}; do {body}; done"
    if kind == 6:
        return f"i=0; while [ $i -lt 3 ]; do i=$((i+1)); {body}; done"
    if kind == 7:
        pats = draw(st.sampled_from(["a", "*", "?(x)|b*", "[!a]*", "*a*a*b", "''"]))
        return f"case {draw(word())} in {pats}) {body};; *) :;; esac"
    if kind == 8:
        fname = draw(st.sampled_from(["f", "g"]))
        return f"{fname}() {{ {body}; }}; {fname} {' '.join(draw(st.lists(word(), max_size=2)))}"
    if kind == 9:
        return f"( {body} )"
    if kind == 10:
        return f"{{ {body}; }} {draw(st.sampled_from(['', '>f', '2>&1', '&']))}"
    if kind == 11:
        return f"[[ {draw(word())} {draw(st.sampled_from(['==', '!=', '=~', '<', '-eq', '-nt']))} {draw(word())} ]]"
    if kind == 12:
        return f"{draw(simple())} {draw(st.sampled_from(['&&', '||']))} {body}"
    return f"cat <<EOF\n{draw(st.sampled_from(['a', '$x', '$(echo b)', '${y:-z}', '`pwd`']))}\nEOF"


@st.composite
def block(draw, depth: int = 0) -> str:
    return "; ".join(draw(st.lists(statement(depth), min_size=1, max_size=3)))


scripts = st.lists(statement(), min_size=1, max_size=5).map("\n".join)

BAD = ("internal error", "Traceback (most recent call last)")


class Fuzzer:
    """One sandbox whose every host directory carries the canary; runs and judges scripts."""

    def __init__(self, root: str):
        from pysh import Limits, Sandbox

        os.environ["PYSH_FUZZ_SECRET"] = CANARY  # the host environment must not leak either
        self.root = root
        self.ws = os.path.join(root, f"ws-{CANARY}")
        os.makedirs(self.ws)
        with open(os.path.join(self.ws, "f"), "w") as fh:
            fh.write("a b\nc:d\n")
        os.makedirs(os.path.join(self.ws, "d"))
        home = os.path.join(root, f"home-{CANARY}")
        os.makedirs(home)
        limits = Limits.strict().with_(timeout=RUN_TIMEOUT, max_output_bytes=64 * 1024)
        self.sb = Sandbox(self.ws, limits=limits, home=home)
        self.current = os.path.join(root, "current.sh")
        self.runs = 0

    def check(self, script: str) -> None:
        with open(self.current, "w") as fh:
            fh.write(script)
        t = time.monotonic()
        r = self.sb.run(script, isolated=True)
        elapsed = time.monotonic() - t
        self.runs += 1
        text = r.stdout + r.stderr
        for bad in BAD:
            assert bad not in text, f"{bad!r} in the output of:\n{script}\n---\n{text[-2000:]}"
        assert CANARY not in text, f"a host path in the output of:\n{script}\n---\n{text[-2000:]}"
        assert elapsed < RUN_TIMEOUT + SLACK, f"ran {elapsed:.1f}s past a {RUN_TIMEOUT}s " \
                                              f"timeout:\n{script}"

    def close(self) -> None:
        self.sb.close()


def fuzz(seconds: float, derandomize: bool, seed: int | None = None) -> int:
    """Run batches of examples until ``seconds`` are spent; a failure raises (shrunk)."""
    root = tempfile.mkdtemp(prefix=f"pysh-fuzz-{CANARY}-")
    os.environ["TMPDIR"] = root  # the instance's /tmp lands in a canary directory too
    tempfile.tempdir = None
    fz = Fuzzer(root)
    # the interpreter raises the recursion limit (deep bash recursion); hypothesis notices
    warnings.filterwarnings("ignore", message="The recursion limit will not be reset")
    stop = time.monotonic() + seconds
    batch = 0
    try:
        while time.monotonic() < stop:
            @settings(max_examples=20, deadline=None, database=None, derandomize=derandomize,
                      phases=[Phase.generate, Phase.shrink], print_blob=True,
                      suppress_health_check=list(HealthCheck))
            @given(scripts)
            def run(script):
                fz.check(script)

            if seed is not None or derandomize:
                from hypothesis import seed as hseed

                run = hseed((seed or 0) * 10_000 + batch)(run)
            run()
            batch += 1
    finally:
        fz.close()
        from pysh.shellkit.tempdirs import remove_tree

        remove_tree(root)
    return fz.runs


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--seed", type=int)
    ap.add_argument("--derandomize", action="store_true")
    a = ap.parse_args()
    n = fuzz(a.seconds, a.derandomize, a.seed)
    print(f"fuzz: {n} scripts, no failure", file=sys.stderr)


if __name__ == "__main__":
    main()
