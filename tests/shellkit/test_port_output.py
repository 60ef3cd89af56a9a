"""No host path on any way out of a port (issue 11 item 3): the registry folds every
door-B command's stdout and stderr, even when a library prints a path it was given and
even when a host root is split across writes."""

from __future__ import annotations

import importlib.util
import pathlib
import re

import anyio
import pytest

from pysh.commands import DOOR_A_BLOCKS, DOOR_B_BLOCKS, default_registry
from pysh.interpreter import ExecCommand
from pysh.shellkit import CaptureOutput, CommandRegistry
from pysh.shellkit.portout import FoldingOutput
from tests.harness import run_cmd
from tests.shellkit.conftest import CANARY, assert_no_canary


async def _leaky(shell, argv):
    """A port that prints the host path door B gave it, one byte per write, on both fds."""
    host = str(shell.resolve(argv[1]))
    for ch in f"[{host}] {host}/x {host}y\n":
        await shell.stdout.write(ch.encode())
        await shell.stderr.write(ch.encode())
    return 0


def test_folding_survives_every_split(instance):
    core = instance.shell.core
    root = instance.workspace_dir
    text = f"a {root}/f.txt b {root} c {root}x d {instance.temp_dir}/t {root}".encode()
    want = f"a /batch/f.txt b /batch c {root}x d /tmp/t /batch".encode()

    async def through(pieces):
        cap = CaptureOutput()
        out = FoldingOutput(cap, core)
        for p in pieces:
            await out.write(p)
        await out.finish()
        return cap.getvalue()

    async def all_splits():
        for i in range(len(text) + 1):
            assert await through([text[:i], text[i:]]) == want, i
            assert await through([text[:i], text[i:i + 9], text[i + 9:]]) == want, i
        assert await through([bytes([b]) for b in text]) == want

    anyio.run(all_splits)


def test_every_door_b_command_is_folded_and_door_a_is_not():
    reg = default_registry()
    for block in DOOR_B_BLOCKS:
        for name in block:
            assert reg.is_port(name), name
    for block in DOOR_A_BLOCKS:
        for name in block:
            assert not reg.is_port(name), name
    reg.register("mine", _leaky)  # a third party's command may use door B: folded
    assert reg.is_port("mine") and reg.copy().is_port("mine")
    assert not CommandRegistry({"x": _leaky}, port=False).is_port("x")


# Door B is Shell.resolve() (and the core's resolve_host under it); the core's own
# resolve() hands out held fds, and pathlib's resolve() takes no argument.
_DOOR_B_CALL = re.compile(r"(?<!core)\.resolve\((?!\))|\bresolve_host\(")


def test_commands_registered_unfolded_never_use_door_b():
    """A command registered port=False runs without the fold: nothing in its package may
    take a host path from door B (it would have no net under what it prints)."""
    packages = set()
    for block in DOOR_A_BLOCKS:
        for target in block.values():
            origin = importlib.util.find_spec(target.split(":")[0]).origin
            packages.add(pathlib.Path(origin).parent)
    assert len(packages) >= 4  # builtins, interpreter, python, net
    for pkg in packages:
        for f in sorted(pkg.rglob("*.py")):
            for n, line in enumerate(f.read_text().splitlines(), 1):
                assert not _DOOR_B_CALL.search(line), f"{f}:{n}: {line.strip()}"


def test_a_port_that_prints_host_paths_shows_virtual_ones(tree):
    reg = default_registry()
    reg.register("leaky", _leaky)
    with ExecCommand(tree.ws, registry=reg) as ex:
        r = run_cmd(ex, ["leaky", "/batch/dir"])
        want = "[/batch/dir] /batch/dir/x /batch/diry\n"
        assert (r.out, r.err) == (want, want)
        assert_no_canary(r.out, r.err)


async def _interleaved(shell, argv):
    """stdout's writes end where a host root could begin; stderr writes in between."""
    host = str(shell.resolve("/batch")).encode()
    await shell.stdout.write(b"a /")
    await shell.stderr.write(b"E1\n")
    await shell.stdout.write(host + b"/f /")
    await shell.stdout.flush()
    await shell.stderr.write(b"E2 " + host + b"\n")
    await shell.stdout.write(b"t\n")
    return 0


def test_stdout_and_stderr_on_one_stream_keep_their_order(tree):
    """With 2>&1 both fds are one stream: one fold for both, so a tail held back on fd 1
    is not overtaken by fd 2 (it was: 'a E1\n//batch/f E2 ...')."""
    from pysh.api import Sandbox

    with Sandbox(tree.ws, commands={"inter": _interleaved}) as sb:
        for script in ("inter 2>&1", "inter 2>&1 | cat", "{ inter; echo .; } 2>&1 | cat"):
            r = sb.run(script)
            assert r.stdout.startswith("a /E1\n/batch/f /E2 /batch\nt\n"), (script, r.stdout)
            assert_no_canary(r.stdout, r.stderr)
        r = sb.run("inter")  # apart, each is folded on its own
        assert (r.stdout, r.stderr) == ("a //batch/f /t\n", "E1\nE2 /batch\n")


@pytest.mark.parametrize("sql", ["pragma database_list", "select file from pragma_database_list"])
def test_sqlite_names_its_database_by_its_virtual_path(inst_ports, sql):
    """The finding: these printed the database's host path."""
    for db in ("/batch/x.db", "/tmp/y.db"):
        r = run_cmd(inst_ports, ["sqlite3", db, sql])
        assert r.status == 0 and db in r.out, r.out
        assert_no_canary(r.out, r.err)
        assert inst_ports.temp_dir not in r.out


@pytest.fixture
def inst_ports(tree):
    with ExecCommand(tree.ws, registry=default_registry()) as ex:
        yield ex


PORT_ERRORS = [
    ["sqlite3", "/batch/dir", "select 1"], ["sqlite3", "out_rel/x.db", "select 1"],
    ["sqlite3", "/batch/n.db", "attach 'out_abs/x.db' as o"], ["sqlite3", "/batch/n.db", ".bad"],
    ["jq", ".", "out_file"], ["jq", ".", "/batch/dir"], ["jq", "-n", "input", "/batch/nope"],
    ["rg", "x", "out_rel", "etc", "nope"], ["rg", "-L", "SECRET"], ["fd", "-L", "secret"],
    ["tar", "-xf", "nope.tar"], ["tar", "-cf", "/batch/t.tar", "out_abs", "in_dir"],
    ["tar", "-tf", "/batch/dir"], ["gzip", "-c", "out_file"], ["unzip", "nope.zip"],
    ["git", "status"], ["git", "-C", "out_rel", "log"], ["git", "init", "-q", "/batch/etc"],
    ["git", "clone", "-q", "out_abs", "c"], ["git", "-C", "/batch/dir", "status"],
    ["sqlite3", "/batch/n.db", ".read out_file"], ["sqlite3", "/batch/n.db", ".open out_abs/x.db"],
    ["fdfind", "x", "out_abs"], ["gunzip", "out_rel/x.gz"], ["zcat", "/batch/dir"],
    ["zip", "/batch/z.zip", "out_file", "nope"], ["zip", "-r", "/batch/z.zip", "out_abs"],
    ["unzip", "-l", "/batch/file.txt"], ["tar", "-xf", "/batch/file.txt", "-C", "out_abs"],
]


def test_every_port_has_an_error_path_in_the_canary_list():
    assert {a[0] for a in PORT_ERRORS} == {n for b in DOOR_B_BLOCKS for n in b}


@pytest.mark.parametrize("argv", PORT_ERRORS, ids=lambda a: " ".join(a))
def test_no_host_path_on_any_port_error(inst_ports, tree, argv):
    r = run_cmd(inst_ports, argv)
    assert_no_canary(r.out, r.err)
    assert tree.base not in r.out + r.err and inst_ports.temp_dir not in r.out + r.err
    assert "Traceback" not in r.err and "internal error" not in r.err
    assert CANARY not in r.out


def test_file_data_streamed_by_archive_ports_is_not_folded(inst_ports, tree):
    """A file that holds its own host path (a venv script's shebang) round-trips through
    tar and gzip on stdout byte for byte: folding data would break the archive."""
    import io
    import tarfile

    data = f"#!{tree.ws}/.venv/bin/python\n".encode() * 3
    inst_ports.shell.fs.write_bytes("/batch/pip", data)
    r = run_cmd(inst_ports, ["tar", "-cf", "-", "pip"])
    with tarfile.open(fileobj=io.BytesIO(r.stdout)) as tf:
        assert tf.extractfile("pip").read() == data
    r = run_cmd(inst_ports, ["gzip", "-c", "pip"])
    inst_ports.shell.fs.write_bytes("/batch/pip.gz", r.stdout)
    assert run_cmd(inst_ports, ["zcat", "pip.gz"]).stdout == data
    assert run_cmd(inst_ports, ["tar", "-xOf", "-"], stdin=run_cmd(
        inst_ports, ["tar", "-cf", "-", "pip"]).stdout).stdout == data
