"""python3 in the REPL (a real pseudo-terminal): Ctrl-C stops a running guest; the guest's
own interactive prompt works on the terminal."""

from __future__ import annotations

import time

import pytest

from tests.faces.test_repl import PROMPT, _finish, _spawn

pexpect = pytest.importorskip("pexpect")


def test_ctrl_c_stops_a_busy_or_sleeping_guest(tmp_path):
    c = _spawn(tmp_path, "-i")
    for cmd in ("python3 -c 'while True: pass'", "python3 -c 'import time; time.sleep(100)'"):
        c.sendline(cmd)
        time.sleep(1.5)
        c.sendintr()
        c.expect(PROMPT)
        c.sendline("echo st=$?")
        c.expect("st=130")
        c.expect(PROMPT)
    c.sendline("exit 0")
    _finish(c, 0)


def test_the_guests_interactive_prompt(tmp_path):
    c = _spawn(tmp_path, "-i")
    c.sendline("python3 -q")
    c.expect(">>> ")
    c.sendline("6 * 7")
    c.expect("42")
    c.expect(">>> ")
    c.sendline("import sys; sys.exit(4)")
    c.expect(PROMPT)
    c.sendline("echo st=$?")
    c.expect("st=4")
    c.expect(PROMPT)
    c.sendline("exit 0")
    _finish(c, 0)
