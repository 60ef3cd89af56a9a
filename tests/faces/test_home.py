"""The sandbox's own home: $HOME and ~ are /home/user, never the workspace (dotfiles must not
land in the project); a host directory named with home= / --home keeps it between runs."""

from __future__ import annotations

import os

from pysh import Sandbox
from tests.test_cli import run as run_cli


def test_home_is_its_own_and_the_workspace_the_start(tmp_path):
    with Sandbox(str(tmp_path)) as sb:
        r = sb.run('echo "$HOME" ~; pwd; cd; pwd; git config --global user.name T; '
                   'touch ~/.bashrc; ls -A ~; ls -A /batch')
        assert r.stdout == "/home/user /home/user\n/batch\n/home/user\n.bashrc\n.gitconfig\n"
    assert os.listdir(tmp_path) == []  # nothing of the home reached the workspace


def test_fresh_home_goes_with_the_sandbox():
    sb = Sandbox()
    host = sb._ex.ephemeral_home
    assert host and os.path.isdir(host) and (os.stat(host).st_mode & 0o777) == 0o700
    sb.run("echo x > ~/f")
    sb.close()
    assert not os.path.exists(host)


def test_named_home_is_kept(tmp_path):
    home = tmp_path / "h"
    with Sandbox(home=str(home)) as sb:
        sb.run("echo kept > ~/.note")
    with Sandbox(home=str(home)) as sb:
        assert sb.run("cat ~/.note").stdout == "kept\n"
    assert (home / ".note").read_text() == "kept\n"


def test_cli_home_option(tmp_path):
    home = tmp_path / "h"
    status, out, err = run_cli(["--home", str(home), "-c", "echo $HOME; echo v > ~/x; pwd"])
    assert (out, status) == ("/home/user\n/batch\n", 0)
    assert (home / "x").read_text() == "v\n"
    status, out, err = run_cli(["--home", str(tmp_path / "h" / "x"), "-c", "true"])
    assert status == 2 and "--home: not a directory" in err


def test_prompt_tilde_follows_home():
    from pysh.interpreter.prompt import expand_prompt

    with Sandbox() as sb:
        it = sb._interp
        assert expand_prompt(it, "\\w") == "/batch"
        sb.run("cd ~/")
        assert expand_prompt(it, "\\w") == "~"
        sb.run("HOME=/batch; cd /batch")
        assert expand_prompt(it, "\\w") == "~"
