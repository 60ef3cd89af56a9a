"""A command that is not there: bash's line, then pysh's hint for names agents reach for;
#! lines name the program they want."""

from __future__ import annotations

from tests.interp.runner import run_script


def test_hint_follows_bash_line():
    r = run_script("ssh host true; echo $?")
    assert r.out == "127\n"
    assert r.err == ("pysh: line 1: ssh: command not found\n"
                     "pysh: hint: ssh: no network here but curl and wget, to the URLs the "
                     "embedder allows (--allow-url, --allow-host)\n")


def test_no_hint_for_unknown_names():
    r = run_script("nosuchcmd; lsx")
    assert r.err == "pysh: line 1: nosuchcmd: command not found\npysh: line 1: lsx: command not found\n"


def test_no_hint_names_a_command_pysh_has():
    """A hint for a registered command would never show: the table must follow the registry."""
    from pysh.commands import default_registry
    from pysh.shellkit.hints import HINTS

    registry = default_registry()
    assert [n for n in HINTS if registry.get(n) is not None] == []


def test_command_builtin_and_pip_make():
    r = run_script("command pip install x; make all")
    assert "pip: command not found\npysh: hint: pip: nothing can be installed" in r.err
    assert "make: command not found\npysh: hint: make: the sandbox runs no host programs" in r.err


def test_env_shebang_names_the_program():
    files = {"t.py": {"content": "#!/usr/bin/env python9\nprint(1)\n", "mode": 0o755}}
    r = run_script("./t.py; echo $?", files=files)
    assert r.out == "127\n"
    assert r.err == "pysh: line 1: ./t.py: python9: command not found\n"


def test_shebang_of_a_registered_command_runs_it():
    files = {"n.awk": {"content": "#!/usr/bin/awk -f\n{ print NR \": \" $0 }\n", "mode": 0o755},
             "s.sed": {"content": "#!/usr/bin/env -S sed -f\ns/a/A/\n", "mode": 0o755}}
    r = run_script("printf 'x\\ny\\n' | ./n.awk; echo abc | ./s.sed", files=files)
    assert (r.out, r.err, r.status) == ("1: x\n2: y\nAbc\n", "", 0)


def test_bad_interpreter():
    files = {"t": {"content": "#!/opt/bin/frob\n", "mode": 0o755}}
    r = run_script("./t; echo $?", files=files)
    assert r.out == "126\n"
    assert r.err == "pysh: line 1: ./t: /opt/bin/frob: bad interpreter: No such file or directory\n"
