"""The REPL, driven through a real pseudo-terminal (pexpect), and its completer."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time

import pytest

pexpect = pytest.importorskip("pexpect")

PROMPT = re.compile(r"user@sandbox:[^\r\n]*\$")


def _spawn(tmp_path, *args):
    env = dict(os.environ, XDG_STATE_HOME=str(tmp_path / "state"), TERM="xterm",
               PROMPT_TOOLKIT_NO_CPR="1")
    child = pexpect.spawn(sys.executable, ["-m", "pysh", *args], env=env, encoding="utf-8",
                          timeout=20, dimensions=(40, 160), cwd=os.getcwd())
    child.expect(PROMPT)
    return child


def _finish(child, code):
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == code


def test_command_state_multiline_and_exit(tmp_path):
    ws = tmp_path / "ws"
    ws.mkdir()
    c = _spawn(tmp_path, "-i", "--sandbox", str(ws))
    c.sendline("echo hel''lo; X=5; cd /tmp")
    c.expect("hello")
    c.expect(r"user@sandbox:/tmp\$")
    c.sendline("for i in 1 2")
    c.expect(">")
    c.sendline("do echo it$i-$X")
    c.expect(">")
    c.sendline("done")
    c.expect("it1-5")
    c.expect("it2-5")
    c.expect(PROMPT)
    c.sendline("if then")
    c.expect("syntax error near unexpected token `then'")
    c.expect(PROMPT)
    c.sendline("echo still-$((1+1))")  # (expect computed text: the typed line is echoed too)
    c.expect("still-2")
    c.expect(PROMPT)
    c.sendline("exit 7")
    _finish(c, 7)
    # history went to the host user's state dir, never into the sandbox
    hist = (tmp_path / "state" / "pysh" / "history").read_text()
    assert "for i in 1 2" in hist and "exit 7" in hist
    assert list(ws.iterdir()) == []


def test_tab_completion(tmp_path):
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "report-2024.txt").write_text("the report\n")
    (ws / "subdir").mkdir()
    c = _spawn(tmp_path, "--sandbox", str(ws), "-i")
    c.send("ech\t")  # a command name
    time.sleep(0.3)
    c.send(" one$((2+3))\r")
    c.expect("one5")
    c.expect(PROMPT)
    c.send("cat rep\t")  # a virtual path
    time.sleep(0.3)
    c.send("\r")
    c.expect("the report")
    c.expect(PROMPT)
    c.sendline("MYVARIABLE=v$((1+1))al")
    c.expect(PROMPT)
    c.send("echo $MYVAR\t")  # a variable
    time.sleep(0.3)
    c.send("\r")
    c.expect("v2al")
    c.expect(PROMPT)
    c.sendline("myfunction() { echo from-func; }")
    c.expect(PROMPT)
    c.send("myfun\t")  # a function
    time.sleep(0.3)
    c.send("\r")
    c.expect("from-func")
    c.expect(PROMPT)
    c.sendline("exit")
    _finish(c, 0)


def test_ctrl_c_cancels_the_running_command(tmp_path):
    c = _spawn(tmp_path, "-i")
    c.sendline("sleep 100")
    time.sleep(0.5)
    c.sendintr()
    c.expect(PROMPT)
    c.sendline("echo st=$?")
    c.expect("st=130")
    c.expect(PROMPT)
    c.sendline("while :; do :; done")
    time.sleep(0.5)
    c.sendintr()
    c.expect(PROMPT)
    c.sendline("echo st=$?")
    c.expect("st=130")
    c.expect(PROMPT)
    # at the prompt, Ctrl-C throws the line away
    c.send("echo never-run")
    time.sleep(0.2)
    c.sendintr()
    c.expect(PROMPT)
    c.sendline("echo after-$?")
    c.expect("after-130")  # had the line run, $? would be 0
    c.expect(PROMPT)
    c.sendline("exit 0")
    _finish(c, 0)


def test_background_job_output_and_ctrl_d(tmp_path):
    c = _spawn(tmp_path, "-i")
    c.sendline("(sleep 0.3; echo bg-$((40+2))) &")
    c.expect(PROMPT)
    c.expect("bg-42", timeout=10)  # shows up while the prompt waits
    c.expect(PROMPT)  # ...and the prompt is drawn again below it
    time.sleep(0.2)
    c.sendline("trap 'echo bye-$((6*7))' EXIT; false")
    c.expect(PROMPT)
    time.sleep(0.2)
    c.sendeof()  # Ctrl-D on an empty line
    c.expect("exit")  # bash says "exit", then runs the EXIT trap
    c.expect("bye-42")
    _finish(c, 1)


def test_plain_interactive_without_a_terminal():
    p = subprocess.run([sys.executable, "-m", "pysh", "-i"], input=b"X=1\nfor i in a b\ndo echo $i$X\ndone\nexit 4\n",
                       capture_output=True, timeout=60)
    assert p.stdout == b"a1\nb1\n"
    assert p.returncode == 4
    assert b"user@sandbox:/batch$ " in p.stderr and b"> " in p.stderr


# -- the completer, in-process --------------------------------------------------------------


def _completions(interp, text):
    from prompt_toolkit.document import Document

    from pysh.repl import ShellCompleter

    return [c.text for c in ShellCompleter(interp).get_completions(Document(text), None)]


@pytest.fixture
def interp(tmp_path):
    from pysh.commands import default_registry
    from pysh.interpreter import ExecCommand
    from pysh.interpreter.toplevel import make_interp, make_session

    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "alpha.txt").write_text("")
    (ws / "alps").mkdir()
    (ws / ".hidden").write_text("")
    (ws / "with space").write_text("")
    (ws / "escape").symlink_to("/etc")
    ex = ExecCommand(ws, registry=default_registry())
    ex.open()
    try:
        it = make_interp(make_session(ex), fds={}, interactive=True)
        it.assign("MY_VAR", "1")
        yield it
    finally:
        ex.close()


def test_completer_commands(interp):
    assert "cd" in _completions(interp, "c")  # a language builtin
    assert "cat" in _completions(interp, "ca")  # a registered command
    assert "wc" in _completions(interp, "echo x | w")
    assert "while" in _completions(interp, "whi")


def test_completer_paths_are_virtual(interp):
    assert sorted(_completions(interp, "cat al")) == ["alpha.txt", "alps/"]
    assert _completions(interp, "cat /ba") == ["/batch/"]
    assert "/batch/alpha.txt" in _completions(interp, "cat /batch/a")
    interp.assign("HOME", "/batch")  # ~ completes under $HOME, whatever it is
    assert _completions(interp, "cat ~/alp") == ["~/alpha.txt", "~/alps/"]
    assert _completions(interp, "cat wi") == ["with\\ space"]
    assert _completions(interp, "cat .h") == [".hidden"]
    assert ".hidden" not in _completions(interp, "cat ")
    # an escaping symlink lists nothing; host directories do not exist
    assert _completions(interp, "cat escape/pass") == []
    assert _completions(interp, "cat /etc/pas") == []
    roots = _completions(interp, "ls /")
    assert "/batch/" in roots and "/tmp/" in roots and "/etc/" not in roots


def test_completer_variables(interp):
    assert _completions(interp, "echo $MY_") == ["$MY_VAR"]
    assert _completions(interp, "echo ${MY_") == ["${MY_VAR}"]
    assert "$HOME" in _completions(interp, "echo $HO")


def test_history_path(monkeypatch, tmp_path):
    from pysh.repl import history_path

    assert history_path({"XDG_STATE_HOME": "/x"}) == "/x/pysh/history"
    monkeypatch.setenv("HOME", str(tmp_path))
    assert history_path({}) == os.path.join(str(tmp_path), ".local", "state", "pysh", "history")
