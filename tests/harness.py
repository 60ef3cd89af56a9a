"""Run one registered command in a sandbox instance and capture what it does.

    with sandbox(files={...}) as ex:
        r = run_cmd(ex, ["grep", "-n", "x", "f"], stdin=b"...")
        r.status, r.stdout, r.stderr

Commands are called directly through the registry (argv level) with captured
stdio. Commands that run other commands (xargs, find -exec) get an executor
that runs registered commands the same way.
"""

from __future__ import annotations

import contextlib
import os
import posixpath
import shutil
import stat
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from pysh.commands import default_registry
from pysh.interpreter import ExecCommand
from pysh.shellkit import BytesInput, CaptureOutput, CommandRegistry, Shell
from pysh.shellkit.errors import FileSystemError


@dataclass
class Result:
    status: int
    stdout: bytes
    stderr: bytes

    @property
    def out(self) -> str:
        return self.stdout.decode("utf-8", "surrogateescape")

    @property
    def err(self) -> str:
        return self.stderr.decode("utf-8", "surrogateescape")


class RegistryExecutor:
    """Runs argv through the registry; scripts need the interpreter."""

    async def run_argv(self, shell: Shell, argv: list[str]) -> int:
        func = shell.registry.get(argv[0]) if shell.registry else None
        if func is None:
            await shell.error("pysh", f"{argv[0]}: command not found")
            return 127
        return await func(shell, argv)

    async def run_script(self, shell: Shell, source: str) -> int:
        raise NotImplementedError("running scripts needs the interpreter")


FIXED_MTIME = 1704164645  # 2024-01-02 03:04:05 UTC


def populate(root: str, files: Mapping[str, object], mtime: int | None = FIXED_MTIME) -> None:
    """Create ``files`` under host dir ``root``.

    Values: str/bytes (file content), None (a directory; or use a trailing '/'),
    or a dict with ``content`` / ``symlink`` / ``mode`` / ``mtime``.
    """
    links = []
    for rel, spec in files.items():
        path = os.path.join(root, rel)
        if spec is None or rel.endswith("/"):
            os.makedirs(path, exist_ok=True)
            continue
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if isinstance(spec, dict):
            if "symlink" in spec:
                links.append((spec["symlink"], path))
                continue
            content = spec.get("content", b"")
        else:
            content = spec
            spec = {}
        if isinstance(content, str):
            content = content.encode("utf-8", "surrogateescape")
        with open(path, "wb") as f:
            f.write(content)
        if "mode" in spec:
            os.chmod(path, spec["mode"])
        t = spec.get("mtime", mtime)
        if t is not None:
            os.utime(path, (t, t))
    for target, path in links:
        os.symlink(target, path)
    if mtime is not None:
        for dirpath, dirnames, _ in os.walk(root, topdown=False):
            for d in dirnames:
                p = os.path.join(dirpath, d)
                if not os.path.islink(p):
                    os.utime(p, (mtime, mtime))


_overlay = os.environ.get("PYSH_TEST_OVERLAY") == "1"  # see overlay_workspace()


@contextlib.contextmanager
def overlay_workspace() -> Iterator[None]:
    """Within it, every :func:`sandbox` mounts its workspace as an overlay, and checks when
    it ends that the host directory is byte for byte what it was (contents, modes, times,
    link targets): whatever the commands did went to the upper layer."""
    global _overlay
    was, _overlay = _overlay, True
    try:
        yield
    finally:
        _overlay = was


# Why a test is plain_only (see tests/conftest.py): an overlay leaves the host directory
# alone by design, so a test whose point is the host directory's own state cannot run on one.
PLANTS_ON_THE_HOST = (
    "plants, swaps or builds entries in the host directory while the sandbox is open (the "
    "host side is the attacker, or the real git builds the repository): on an overlay that "
    "is a change of the lower layer, which the harness's unchanged-host check refuses")
READS_THE_HOST = (
    "checks what the sandbox's writes leave in the host directory itself (link text, modes, "
    "inodes), which an overlay leaves alone by design; the overlay's own confinement is "
    "tests/shellkit/test_overlay.py")
FOLLOWS_A_DESCRIPTOR = (
    "tail -f follows by descriptor a file that the writes copy up: on an overlay the open "
    "descriptor keeps the lower file (as on Linux overlayfs); tail -F follows the name")


def overlay_mode() -> bool:
    """Whether workspaces are mounted as overlays now."""
    return _overlay


@contextlib.contextmanager
def plain_workspace(plain_only) -> Iterator[None]:
    """For a test marked ``plain_only`` (it checks what the commands did to the host
    directory itself, which an overlay leaves alone by design): a plain workspace even
    under ``make test-overlay``."""
    global _overlay
    if plain_only is None:
        yield
        return
    if not plain_only.args:
        raise TypeError("plain_only needs the reason")
    was, _overlay = _overlay, False
    try:
        yield
    finally:
        _overlay = was


def tree_state(root: str) -> dict[str, tuple]:
    """Every entry under ``root``: type, mode, mtime, size and content or link target."""
    out: dict[str, tuple] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = os.path.join(dirpath, name)
            st = os.lstat(p)
            rel = os.path.relpath(p, root)
            if os.path.islink(p):
                out[rel] = ("l", os.readlink(p), st.st_mtime_ns)
            elif os.path.isdir(p):
                out[rel] = ("d", st.st_mode, st.st_mtime_ns)
            elif not stat.S_ISREG(st.st_mode):  # a planted FIFO or device: never opened
                out[rel] = ("o", st.st_mode, st.st_mtime_ns, st.st_rdev)
            else:  # read without touching its atime (find -atime, stat %x compare it)
                fd = os.open(p, os.O_RDONLY | getattr(os, "O_NOATIME", 0))
                with open(fd, "rb") as f:
                    out[rel] = ("f", st.st_mode, st.st_mtime_ns, st.st_ino, f.read())
    st = os.lstat(root)
    out["."] = ("d", st.st_mode, st.st_mtime_ns)
    return out


@contextlib.contextmanager
def sandbox(files: Mapping[str, object] | None = None, *, registry: CommandRegistry | None = None,
            **kwargs) -> Iterator[ExecCommand]:
    """An instance over a fresh host workspace holding ``files``."""
    with tempfile.TemporaryDirectory(prefix="pysh-test-") as ws:
        populate(ws, files or {})
        with instance(ws, registry=registry or default_registry(), **kwargs) as ex:
            yield ex


@contextlib.contextmanager
def instance(ws: str, **kwargs) -> Iterator[ExecCommand]:
    """An instance over host workspace ``ws``: under ``make test-overlay`` (or within
    :func:`overlay_workspace`) mounted as an overlay, and ``ws`` checked byte for byte
    unchanged when it closes (what the test itself put there: :func:`host_changed`)."""
    if not _overlay or kwargs.get("read_only"):
        with ExecCommand(ws, **kwargs) as ex:  # (an overlay is never read-only)
            yield ex
        return
    ex = ExecCommand(ws, overlay=True, **kwargs)
    with ex:
        before = tree_state(ws)

        def refresh() -> None:  # the test put more files in the host dir itself
            nonlocal before
            before = tree_state(ws)

        ex.host_changed = refresh
        ex.views = []
        try:
            yield ex
        finally:
            for d in ex.views:
                shutil.rmtree(d, ignore_errors=True)
    after = tree_state(ws)
    assert after == before, "the overlay's host directory changed: " + ", ".join(
        sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k)))


def host_changed(ex: ExecCommand) -> None:
    """The test itself changed the host workspace (planted a file, as the host could): on
    an overlay that is a change of the lower layer, not of the sandbox."""
    refresh = getattr(ex, "host_changed", None)
    if refresh is not None:
        refresh()


_NOWHERE = "/nonexistent/pysh-view"  # what view() names for a path the sandbox lacks


def view(ex: ExecCommand, *parts: str) -> str:
    """The host path of what the sandbox sees at ``parts`` (relative to the workspace; the
    leaf not followed): read results here, not in ``ex.workspace_dir``. On a plain mount
    it is the workspace's own path; on an overlay (``make test-overlay``), the layer
    that holds the entry, as the sandbox's door B (``shell.resolve``) finds it: the
    upper one, else the lower one unless a whiteout hides it (then, or where the path
    is missing, a path that exists nowhere)."""
    if not ex.overlay:
        return os.path.join(ex.workspace_dir, *parts)
    try:
        p = str(ex.shell.resolve(posixpath.join(ex.workspace, *parts), follow=False))
    except FileSystemError:
        return os.path.join(_NOWHERE, *parts)
    return p if os.path.lexists(p) else os.path.join(_NOWHERE, *parts)


def view_root(ex: ExecCommand) -> str:
    """A host directory holding what the sandbox sees of its workspace now, for tests that
    walk a whole tree: the workspace itself on a plain mount; on an overlay, a copy of
    the merged view (contents, modes, times, link targets; made through the sandbox's
    own doors: its listing, then :func:`view` per entry), removed with the sandbox."""
    if not ex.overlay:
        return ex.workspace_dir
    dest = tempfile.mkdtemp(prefix="pysh-view-")
    ex.views.append(dest)
    _export(ex, ex.workspace, dest)
    st = os.lstat(view(ex))
    os.chmod(dest, stat.S_IMODE(st.st_mode))
    os.utime(dest, ns=(st.st_atime_ns, st.st_mtime_ns))
    return dest


def _export(ex: ExecCommand, vdir: str, dest: str) -> None:
    for name in ex.shell.fs.listdir(vdir):
        v = posixpath.join(vdir, name)
        src, d = str(ex.shell.resolve(v, follow=False)), os.path.join(dest, name)
        st = os.lstat(src)
        if stat.S_ISLNK(st.st_mode):
            os.symlink(os.readlink(src), d)
        else:
            if stat.S_ISDIR(st.st_mode):
                os.mkdir(d)
                _export(ex, v, d)
            elif stat.S_ISREG(st.st_mode):
                shutil.copyfile(src, d)
            else:
                os.mkfifo(d)
            os.chmod(d, stat.S_IMODE(st.st_mode))
        os.utime(d, ns=(st.st_atime_ns, st.st_mtime_ns), follow_symlinks=False)


def run_cmd(ex: ExecCommand, argv: list[str], stdin: bytes | str = b"", *, cwd: str | None = None,
            env: Mapping[str, str] | None = None) -> Result:
    if isinstance(stdin, str):
        stdin = stdin.encode("utf-8", "surrogateescape")

    async def main() -> Result:
        out, err = CaptureOutput(), CaptureOutput()
        shell = ex.shell.child(fds={0: BytesInput(stdin), 1: out, 2: err},
                               cwd=cwd or ex.shell.cwd, executor=RegistryExecutor())
        if env:
            shell.env.update(env)
        func = shell.registry.get(argv[0])
        assert func is not None, f"{argv[0]} is not registered"
        status = await func(shell, list(argv))
        return Result(status, out.getvalue(), err.getvalue())

    return ex.call(main)  # on the instance's worker thread, under the kernel floor
