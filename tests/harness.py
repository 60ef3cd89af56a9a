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
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from pysh.commands import default_registry
from pysh.interpreter import ExecCommand
from pysh.shellkit import BytesInput, CaptureOutput, CommandRegistry, Shell


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
        if not _overlay or kwargs.get("read_only"):  # (an overlay is never read-only)
            with ExecCommand(ws, registry=registry or default_registry(), **kwargs) as ex:
                yield ex
            return
        ex = ExecCommand(ws, registry=registry or default_registry(), overlay=True, **kwargs)
        with ex:
            before = tree_state(ws)

            def refresh() -> None:  # the test put more files in the host dir itself
                nonlocal before
                before = tree_state(ws)

            ex.host_changed = refresh
            yield ex
        after = tree_state(ws)
        assert after == before, "the overlay's host directory changed: " + ", ".join(
            sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k)))


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
