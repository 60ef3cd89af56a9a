"""Redirections over an fd table: left to right, through the FileSystem door."""

from __future__ import annotations

import errno

from pysh.interpreter.syntax import ast as A
from pysh.shellkit import (
    BytesInput,
    FileInput,
    FileOutput,
    FileSystemError,
    InputStream,
    OutputStream,
    encode,
)
from pysh.shellkit.confine import STREAM
from pysh.shellkit.streams import door_cap

_INPUT_OPS = {"<", "<>", "<<", "<<-", "<<<", "<&"}


class DuplexFile(InputStream, OutputStream):
    """A file opened read-write (``<>``): readable and writable through one fd."""

    def __init__(self, f) -> None:
        InputStream.__init__(self)
        self.file = f
        self.cap = door_cap(f, self.cap)

    async def _fill(self) -> bytes:
        try:
            return self.file.read(65536)
        except OSError:
            return b""

    async def write(self, data: bytes) -> None:
        # one fd, one offset: what was read ahead into the buffer is given back first
        if self._buf:
            try:
                self.file.seek(-len(self._buf), 1)
            except OSError:
                pass
            self._buf.clear()
        self.file.write(data)
        self.file.flush()

    def dup(self):
        self._refs += 1
        return self

    def close(self) -> None:
        self._refs -= 1
        if self._refs <= 0:
            try:
                self.file.close()
            except OSError:
                pass

    def fileno(self):
        try:
            return self.file.fileno()
        except (OSError, ValueError):
            return None


def stream_fd(interp, path: str) -> int | None:
    """The shell fd a /dev/stdin-style path names (or /proc/self/fd/N, as Linux has it),
    or None."""
    if path.startswith("/proc/self/fd/") and path[14:].isdigit():
        return int(path[14:])
    if not path.startswith("/dev/"):
        return None
    try:
        res = interp.session.root.core.kind(path)
    except FileSystemError:
        return None
    return res.fdnum if res.kind == STREAM else None


async def _heredoc_bytes(interp, r: A.Redir) -> bytes:
    hd = r.heredoc
    if hd is None:
        return b""
    if hd.quoted:
        text = "".join(getattr(p, "text", "") for p in hd.parts)
    else:
        segs = await interp.expand_parts(hd.parts, True)
        text = "".join(s[0] for s in segs if s is not None)
    data = encode(text)
    cap = interp.budget.limits.max_heredoc_size
    if len(data) > cap:
        from pysh.shellkit import LimitExceeded

        raise LimitExceeded("here-document", f"{cap} bytes")
    return data


async def apply_redirections(interp, redirs: list, permanent: bool, external: bool = False):
    """``permanent`` (exec): made in the shell's own table, and all undone if one fails
    (as bash's undo list)."""
    if permanent:
        fds = interp.fds
    else:
        fds = dict(interp.fds)
    owned: list = []
    replaced: list = []  # permanent: (fd, what it was), closed once all are made

    def install(n: int, stream) -> None:
        old = fds.get(n)
        if permanent:
            if old is not stream:
                replaced.append((n, old))
        elif old is not None and any(o is old for o in owned):
            owned.remove(old)
            old.close()
        fds[n] = stream
        owned.append(stream)

    def remove(n: int) -> None:
        old = fds.pop(n, None)
        if old is None:
            return
        if permanent:
            replaced.append((n, old))
        elif any(o is old for o in owned):
            owned.remove(old)
            old.close()

    def undo() -> None:
        for s in owned:
            s.close()
        for n, old in reversed(replaced):
            if old is None:
                fds.pop(n, None)
            else:
                fds[n] = old

    async def fail(message: str):
        # bash says it through the redirections made so far (2>&1 >/bad: on stdout)
        saved, interp.fds = interp.fds, fds
        try:
            await interp.diag(message)
        finally:
            interp.fds = saved
        undo()
        return None

    try:
        red = await _apply(interp, redirs, permanent, external, fds, owned, install, remove, fail)
    except BaseException:
        undo()
        raise
    if permanent and red is not None:
        for _, old in replaced:
            if old is not None:
                old.close()
    return red


async def _apply(interp, redirs, permanent, external, fds, owned, install, remove, fail):
    from pysh.interpreter.runner import _Redirected

    def bind(r, n: int) -> None:
        """{var}: the variable gets the fd, which stays open in the shell after the command
        (a program's redirections are made in bash's forked child: nothing stays)."""
        if external:
            return
        interp.assign(r.fd_var, str(n))
        if not permanent:
            stream = fds[n]
            if any(o is stream for o in owned):
                owned.remove(stream)
            interp.fds[n] = stream.dup()

    for r in redirs:
        op = r.op
        n = r.fd
        if n is None:
            n = 0 if op in _INPUT_OPS else 1
        if r.fd_var is not None:
            if op in (">&", "<&") and r.target.text == "-":
                # {var}>&- closes the fd whose number the variable holds
                cur = interp.get_scalar(r.fd_var) or ""
                if not cur:
                    return await fail(f"{r.fd_var}: ambiguous redirect")
                if cur.isdigit():
                    remove(int(cur))
                continue
            n = 10
            while n in interp.fds or n in fds:
                n += 1
        try:
            if op in ("<<", "<<-"):
                install(n, BytesInput(await _heredoc_bytes(interp, r)))
                if r.fd_var is not None:
                    bind(r, n)
                continue
            if op == "<<<":
                text = await interp.expand_assign_value(r.target)
                install(n, BytesInput(encode(text) + b"\n"))
                if r.fd_var is not None:
                    bind(r, n)
                continue
            if op in (">&", "<&"):
                src_text = r.target.text or ""
                if src_text.isdigit() or src_text == "-" or (
                        src_text.endswith("-") and src_text[:-1].isdigit()):
                    target = src_text
                else:
                    target = await _target(interp, r.target)
                    if target is None or target == "":
                        return await fail(f"{src_text or '$word'}: ambiguous redirect")
                if target == "-":
                    remove(n)
                    continue
                move = target.endswith("-") and target[:-1].isdigit()
                if move:
                    target = target[:-1]
                if target.isdigit():
                    src = int(target)
                    s = fds.get(src)
                    if s is None:
                        # bash names the fd, or for a word at the default fd the word
                        default = 0 if op == "<&" else 1
                        shown = target if src_text.rstrip("-").isdigit() else (
                            src_text if n == default else str(n))
                        return await fail(f"{shown}: Bad file descriptor")
                    if src != n:  # <&N and >&N are the same dup2
                        if permanent or r.fd_var is not None:
                            install(n, s.dup())
                        else:
                            fds[n] = s
                    if move and src != n:
                        remove(src)
                    if r.fd_var is not None:
                        bind(r, n)
                    continue
                if op == "<&" or n != 1 or r.fd_var is not None:
                    return await fail(f"{target}: ambiguous redirect")
                # `>&file` (and `1>&file`) is `&>file`
                op = "&>"
                path = target
            else:
                path = await _target(interp, r.target)
                if path is None:
                    return await fail(f"{r.target.text or '$word'}: ambiguous redirect")
            if path == "":
                return await fail(": No such file or directory")
            stream = await _open(interp, op, path, fds)
            if op in ("&>", "&>>"):
                install(1, stream)
                if permanent:
                    install(2, stream.dup())
                else:
                    fds[2] = stream
                continue
            install(n, stream)
            if r.fd_var is not None:
                bind(r, n)
        except FileSystemError as e:  # bash names the target as the script spelt it
            return await fail(f"{path}: {e.strerror}")
        except _Clobber as e:
            return await fail(f"{e.args[0]}: cannot overwrite existing file")
        except _NoMatch as e:
            if not external:  # the shell's own redirection: bash gives up the line
                from pysh.interpreter.errors import ExpansionError

                raise ExpansionError(e.args[0], status=1, action="line") from None
            return await fail(e.args[0])
    return _Redirected(fds, owned)


async def _target(interp, word):
    """A redirection's word; a failglob miss fails the redirection only (not the line)."""
    from pysh.interpreter.errors import ExpansionError

    try:
        return await interp.expand_redirect_target(word)
    except ExpansionError as e:
        if e.message.startswith("no match: "):
            raise _NoMatch(e.message) from None
        raise


class _NoMatch(Exception):
    pass


class _Clobber(Exception):
    pass


async def _open(interp, op: str, path: str, fds: dict):
    fdn = stream_fd(interp, interp.fs.abspath(path))
    if fdn is not None:
        s = fds.get(fdn)
        if s is None:
            s = interp.fds.get(fdn)  # opened while expanding this very target: >(cmd)
        if s is None:
            raise FileSystemError(errno.EBADF, path)
        return s.dup()
    limits = getattr(interp, "ulimits", None)
    if limits is not None and limits["n"][0] is not None and len(fds) >= limits["n"][0]:
        raise FileSystemError(errno.EMFILE, path)  # ulimit -n
    fs = interp.fs
    perm = 0o666 & ~interp.umask
    if op == "<":
        return FileInput(fs.open(path, "rb"))
    if op == "<>":
        try:
            f = fs.open(path, "r+b")
        except FileSystemError as e:
            if e.errno != errno.ENOENT:
                raise
            f = fs.open(path, "w+b", perm=perm)
        return DuplexFile(f)
    if op in (">>", "&>>"):
        return FileOutput(fs.open(path, "ab", perm=perm))
    if op in (">", "&>") and "noclobber" in interp.opts:
        try:
            return FileOutput(fs.open(path, "xb", perm=perm))
        except FileSystemError as e:
            if e.errno != errno.EEXIST:
                raise
            if fs.is_file(path):
                raise _Clobber(path) from None
    return FileOutput(fs.open(path, "wb", perm=perm))
