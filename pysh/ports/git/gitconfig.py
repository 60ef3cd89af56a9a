"""Config files with ``include`` and ``includeIf`` resolved inside the sandbox.

dulwich follows ``include.path`` with the host's ``~`` and opens the file on the
host. Here every include is a *virtual* path: ``~`` is the sandbox's ``$HOME``, a
relative path is relative to the including file's virtual directory, and the file is
read through the confinement core (a missing or unreadable file is skipped, as git
does). ``includeIf`` knows git 2.39's conditions: ``gitdir:``, ``gitdir/i:``,
``onbranch:`` and ``hasconfig:remote.*.url:``.

A config parsed for *editing* never expands includes (its included values would be
written back into the file).
"""

from __future__ import annotations

import io
import posixpath
import re
from collections.abc import Callable

from dulwich.config import ConfigFile

from pysh.ports.git import gitfs
from pysh.shellkit import Shell

MAX_DEPTH = 10
MAX_SIZE = 1 << 22


class Scope:
    """What include conditions need: the shell, $HOME, the repository (lazily)."""

    def __init__(self, shell: Shell, home: str | None, gitdir: Callable[[], str | None],
                 branch: Callable[[], str | None]):
        self.shell = shell
        self.home = home
        self.gitdir = gitdir
        self.branch = branch


def _refuse_open(path):  # dulwich's own include opener, should it ever be reached
    raise OSError("includes are resolved by pysh")


def parse(data: bytes, vpath: str | None, scope: Scope | None, *, expand: bool = True,
          _depth: int = 0, _seen: frozenset = frozenset()) -> ConfigFile:
    """A ConfigFile from ``data`` (the content of virtual ``vpath``)."""
    if not expand or scope is None:
        return ConfigFile.from_file(io.BytesIO(data), expand_includes=False)
    cls = type("SandboxConfigFile", (_Expanding,), {
        "_scope": scope, "_vpath": vpath, "_depth": _depth, "_seen": _seen | {vpath}})
    return cls.from_file(io.BytesIO(data), file_opener=_refuse_open, expand_includes=True)


class _Expanding(ConfigFile):
    _scope: Scope
    _vpath: str | None
    _depth: int
    _seen: frozenset

    def _handle_include_directive(self, section, setting, value, **_kw) -> None:
        if section is None or setting.lower() != b"path":
            return
        head = section[0].lower()
        if head == b"include":
            pass
        elif head == b"includeif" and len(section) > 1:
            if not self._condition(section[1].decode("utf-8", "surrogateescape")):
                return
        else:
            return
        target = self._target(value.decode("utf-8", "surrogateescape"))
        if target is None or target in self._seen or self._depth >= MAX_DEPTH:
            return
        shell = self._scope.shell
        try:
            data = gitfs.read_file(shell, target)
        except OSError:
            return  # git skips a missing or unreadable include
        if len(data) > MAX_SIZE:
            return
        try:
            inc = parse(data, target, self._scope, _depth=self._depth + 1, _seen=self._seen)
        except (ValueError, UnicodeError):
            return
        self._merge_config(inc)

    def _base_dir(self) -> str | None:
        return posixpath.dirname(self._vpath) if self._vpath else None

    def _target(self, path: str) -> str | None:
        if not path:
            return None
        if path.startswith("~/") or path == "~":
            home = self._scope.home
            if not home:
                return None
            path = gitfs.vjoin(home, path[2:])
        elif path.startswith("~"):
            return None  # ~user: no other users in the sandbox
        elif not path.startswith("/"):
            base = self._base_dir()
            if base is None:
                return None
            path = gitfs.vjoin(base, path)
        return posixpath.normpath(path)

    def _condition(self, cond: str) -> bool:
        if cond.startswith("gitdir:") or cond.startswith("gitdir/i:"):
            icase = cond.startswith("gitdir/i:")
            pat = cond.split(":", 1)[1]
            gd = self._scope.gitdir()
            if not gd or not pat:
                return False
            if pat.startswith("~/"):
                if not self._scope.home:
                    return False
                pat = self._scope.home.rstrip("/") + "/" + pat[2:]
            elif pat.startswith("./"):
                base = self._base_dir()
                if base is None:
                    return False
                pat = base.rstrip("/") + "/" + pat[2:]
            elif not pat.startswith("/"):
                pat = "**/" + pat
            if pat.endswith("/"):
                pat += "**"
            return wildmatch(pat, gd, icase) or wildmatch(pat, gd.rstrip("/") + "/", icase)
        if cond.startswith("onbranch:"):
            pat = cond[len("onbranch:"):]
            br = self._scope.branch()
            if not br or not pat:
                return False
            if pat.endswith("/"):
                pat += "**"
            return wildmatch(pat, br, False)
        if cond.startswith("hasconfig:"):
            return self._evaluate_hasconfig_condition(cond[len("hasconfig:"):])
        return False


def wildmatch(pattern: str, text: str, icase: bool = False) -> bool:
    """git's wildmatch with WM_PATHNAME: ``*`` stays in a component, ``**/`` spans them."""
    return re.fullmatch(_wild_regex(pattern), text, re.S | (re.I if icase else 0)) is not None


def _wild_regex(glob: str) -> str:
    out = []
    i, n = 0, len(glob)
    while i < n:
        c = glob[i]
        i += 1
        if c == "*":
            start = i - 1
            if i < n and glob[i] == "*":
                while i < n and glob[i] == "*":
                    i += 1
                at_start = start == 0 or glob[start - 1] == "/"
                if at_start and i < n and glob[i] == "/":
                    i += 1
                    out.append("(?:.*/)?")
                elif at_start and i >= n:
                    out.append(".*")
                else:
                    out.append("[^/]*")
            else:
                out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            j = i
            if j < n and glob[j] in "!^":
                j += 1
            if j < n and glob[j] == "]":
                j += 1
            while j < n and glob[j] != "]":
                j += 1
            if j >= n:
                out.append(r"\[")
            else:
                body = glob[i:j]
                i = j + 1
                if body[:1] in "!^":
                    body = "^" + body[1:]
                out.append("[" + body.replace("\\", "\\\\") + "]")
        elif c == "\\" and i < n:
            out.append(re.escape(glob[i]))
            i += 1
        else:
            out.append(re.escape(c))
    return "".join(out)


# ----------------------------------------------------- editing in place
# git edits a config file where things are: a renamed section or a changed value keeps its
# place, a section left empty goes. dulwich's set() moves a value to the end of its section.
def set_in_place(cfg: ConfigFile, section: tuple, name: bytes, value: bytes) -> None:
    from dulwich.config import lower_key

    sec = cfg._values.get(section)
    if sec is None:
        cfg.set(section, name, value)
        return
    low = lower_key(name)
    idx = [i for i, (k, _) in enumerate(sec._real) if lower_key(k) == low]
    if not idx:
        cfg.set(section, name, value)
        return
    k, _ = sec._real[idx[-1]]
    sec._real[idx[-1]] = (k, value)
    sec._keyed[low] = value


def rename_section(cfg: ConfigFile, old: tuple, new: tuple) -> None:
    from dulwich.config import lower_key

    vals = cfg._values
    lo = lower_key(old)
    vals._real = [(new if lower_key(k) == lo else k, v) for k, v in vals._real]
    if lo in vals._keyed:
        vals._keyed[lower_key(new)] = vals._keyed.pop(lo)


def drop_empty_sections(cfg: ConfigFile, head: bytes) -> None:
    """Remove sections named ``head`` (e.g. b"branch") that have no value left."""
    for sec in list(cfg._values):
        if sec[0].lower() == head and not list(cfg._values[sec].items()):
            del cfg._values[sec]
