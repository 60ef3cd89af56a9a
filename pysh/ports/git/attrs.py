"""gitattributes: which paths are text, their line endings, which are binary for diff.

Sources, lowest precedence first: ``core.attributesFile`` (default ``~/.config/git/
attributes``, the sandbox's home), the work tree's ``.gitattributes`` from the top down to
the path's directory, then ``$GIT_DIR/info/attributes``; later lines win. Patterns follow
gitattributes(5): no ``/`` matches the name at any depth, otherwise the path relative to
the file's directory; a trailing ``/`` pattern never matches a file. The ``binary`` macro
is ``-diff -merge -text``. Filters, textconv and diff drivers are never run (pysh runs no
commands): ``diff=<driver>`` just means "text".

Line endings follow convert.c (git 2.39): :func:`to_git` on the way in (add, status,
diff), :func:`to_worktree` on the way out (checkout).
"""

from __future__ import annotations

import posixpath
import re

from pysh.ports.git import gitfs
from pysh.ports.git.gitconfig import wildmatch
from pysh.shellkit import decode

MACROS = {"binary": (("diff", False), ("merge", False), ("text", False))}

# crlf actions (convert.c)
BINARY, TEXT, TEXT_INPUT, TEXT_CRLF, AUTO, AUTO_INPUT, AUTO_CRLF, UNDEFINED = (
    "binary", "text", "text-input", "text-crlf", "auto", "auto-input", "auto-crlf", "undefined")
_AUTOS = (AUTO, AUTO_INPUT, AUTO_CRLF)
_LONE_LF = re.compile(rb"(?<!\r)\n")


def _unquote(s: str) -> str:
    if len(s) >= 2 and s[0] == '"' and s[-1] == '"':
        body = s[1:-1]
        return body.encode("latin-1", "backslashreplace").decode("unicode_escape", "replace")
    return s


def parse_lines(text: str) -> list[tuple[str, list[tuple[str, object]]]]:
    """(pattern, [(attribute, value)]) per line; value True, False, None (!a) or a string."""
    out = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith('"'):
            end = line.find('"', 1)
            while end > 0 and line[end - 1] == "\\":
                end = line.find('"', end + 1)
            if end < 0:
                continue
            pat, rest = _unquote(line[:end + 1]), line[end + 1:]
        else:
            pat, _, rest = line.partition(" ") if " " in line else line.partition("\t")
        if pat.startswith("!") or pat.startswith("[attr]"):
            continue  # negative patterns are not allowed; macros other than binary: unsupported
        items = []
        for tok in rest.split():
            if tok.startswith("-"):
                items.append((tok[1:], False))
            elif tok.startswith("!"):
                items.append((tok[1:], None))
            elif "=" in tok:
                k, _, v = tok.partition("=")
                items.append((k, v))
            else:
                items.append((tok, True))
        out.append((pat, items))
    return out


def _matches(pat: str, base: str, path: str) -> bool:
    """``path`` (repo-relative) against a pattern of the attributes file in dir ``base``."""
    if pat.endswith("/"):
        return False  # a directory pattern: never a file
    if base:
        if not path.startswith(base + "/"):
            return False
        rel = path[len(base) + 1:]
    else:
        rel = path
    if "/" in pat:
        return wildmatch(pat.lstrip("/"), rel)
    return wildmatch(pat, posixpath.basename(rel))


class Attributes:
    """The attributes of a work tree (read once per command, through the core)."""

    def __init__(self, repo):
        self.repo = repo
        self._dirs: dict[str, list] = {}
        self._global: list | None = None
        self._info: list | None = None
        self._cache: dict[bytes, dict] = {}

    def _file(self, vpath: str) -> list:
        try:
            return parse_lines(decode(gitfs.read_file(self.repo.shell, vpath)))
        except OSError:
            return []

    def _dir_lines(self, d: str) -> list:
        got = self._dirs.get(d)
        if got is None:
            top = self.repo.vtop
            got = self._file(gitfs.vjoin(top, d + "/.gitattributes" if d else ".gitattributes")) \
                if top is not None else []
            self._dirs[d] = got
        return got

    def _sources(self, path: str):
        if self._global is None:
            self._global = self._global_lines()
        yield "", self._global
        parts = path.split("/")[:-1]
        for i in range(len(parts) + 1):
            d = "/".join(parts[:i])
            yield d, self._dir_lines(d)
        if self._info is None:
            data = self.repo.gitdir.read_opt("info/attributes")
            self._info = parse_lines(decode(data)) if data else []
        yield "", self._info

    def _global_lines(self) -> list:
        ctx = self.repo.ctx
        xf = self.repo.cfg_get("core", "attributesFile")
        env = ctx.env
        if xf:
            if xf.startswith("~/") and env.get("HOME"):
                xf = gitfs.vjoin(env["HOME"], xf[2:])
            return self._file(ctx.shell.abspath(xf))
        if env.get("XDG_CONFIG_HOME"):
            return self._file(gitfs.vjoin(ctx.shell.abspath(env["XDG_CONFIG_HOME"]), "git/attributes"))
        if env.get("HOME"):
            return self._file(gitfs.vjoin(ctx.shell.abspath(env["HOME"]), ".config/git/attributes"))
        return []

    def get(self, path: bytes) -> dict:
        got = self._cache.get(path)
        if got is not None:
            return got
        p = decode(path)
        state: dict = {}
        for base, lines in self._sources(p):
            for pat, items in lines:
                if not _matches(pat, base, p):
                    continue
                for k, v in items:
                    for mk, mv in MACROS.get(k, ()) if v is True else ():
                        state[mk] = mv
                    state[k] = v
        got = {k: v for k, v in state.items() if v is not None}
        self._cache[path] = got
        return got

    # -- line endings --------------------------------------------------------------
    def attr_action(self, path: bytes) -> str:
        """The crlf action the attributes alone ask for (``ls-files --eol``'s attr/)."""
        a = self.get(path)
        action = _text_action(a.get("text"))
        if action == UNDEFINED:
            legacy = a.get("crlf")
            action = _text_action(legacy) if legacy is not None else UNDEFINED
        eol = a.get("eol")
        if action == AUTO and eol == "lf":
            action = AUTO_INPUT
        elif action == AUTO and eol == "crlf":
            action = AUTO_CRLF
        elif action != BINARY and eol == "lf":
            action = TEXT_INPUT
        elif action != BINARY and eol == "crlf":
            action = TEXT_CRLF
        return action

    def crlf_action(self, path: bytes) -> str:
        action = self.attr_action(path)
        autocrlf = (self.repo.cfg_get("core", "autocrlf") or "false").lower()
        if action == TEXT:
            action = TEXT_CRLF if self._eol_is_crlf(autocrlf) else TEXT_INPUT
        if action == UNDEFINED:
            action = {"true": AUTO_CRLF, "input": AUTO_INPUT}.get(autocrlf, BINARY)
        return action

    def _eol_is_crlf(self, autocrlf: str) -> bool:
        if autocrlf == "true":
            return True
        if autocrlf == "input":
            return False
        return (self.repo.cfg_get("core", "eol") or "").lower() == "crlf"

    def _output_crlf(self, action: str) -> bool:
        if action in (TEXT_CRLF, AUTO_CRLF):
            return True
        if action in (TEXT, AUTO):
            return self._eol_is_crlf((self.repo.cfg_get("core", "autocrlf") or "").lower())
        return False

    def to_git(self, path: bytes, data: bytes, index_blob=None) -> bytes:
        """Work-tree content as it is stored (CRLF -> LF where the path is text)."""
        if not data or b"\r\n" not in data:
            return data
        action = self.crlf_action(path)
        if action == BINARY:
            return data
        if action in _AUTOS:
            st = stats(data)
            if is_binary(st):
                return data
            if index_blob is not None:
                blob = index_blob()
                if blob is not None and b"\r\n" in blob:
                    return data  # git's safer autocrlf: the staged file keeps its CRs
        return data.replace(b"\r\n", b"\n")

    def to_worktree(self, path: bytes, data: bytes) -> bytes:
        """Stored content as it is checked out (LF -> CRLF where asked)."""
        if not data or b"\n" not in data:
            return data
        action = self.crlf_action(path)
        if not self._output_crlf(action):
            return data
        st = stats(data)
        if not st["lonelf"]:
            return data
        if action in _AUTOS and (st["lonecr"] or st["crlf"] or is_binary(st)):
            return data
        return _LONE_LF.sub(b"\r\n", data)

    # -- diff ----------------------------------------------------------------------
    def diff_binary(self, path: bytes) -> bool | None:
        """True: shown as binary (-diff, binary); False: as text (diff); None: by content."""
        v = self.get(path).get("diff")
        if v is False:
            return True
        if v is True or isinstance(v, str):
            return False
        return None


def _text_action(v) -> str:
    if v is True:
        return TEXT
    if v is False:
        return BINARY
    if v == "input":
        return TEXT_INPUT
    if v == "auto":
        return AUTO
    return UNDEFINED


_PRINTABLE = bytes(range(32, 127)) + bytes(range(128, 256)) + b"\x08\x09\x1b\x0c\r\n"


def stats(data: bytes) -> dict:
    """convert.c's gather_stats (a NUL counts as non-printable too)."""
    crlf = data.count(b"\r\n")
    cr = data.count(b"\r")
    lf = data.count(b"\n")
    nonprintable = len(data.translate(None, _PRINTABLE))
    printable = len(data) - cr - lf - nonprintable
    if data.endswith(b"\x1a"):
        nonprintable -= 1
    return {"crlf": crlf, "lonecr": cr - crlf, "lonelf": lf - crlf, "nul": data.count(b"\0"),
            "printable": printable, "nonprintable": nonprintable}


def is_binary(st: dict) -> bool:
    return bool(st["lonecr"] or st["nul"] or (st["printable"] >> 7) < st["nonprintable"])


def eol_info(data: bytes | None) -> str:
    """``ls-files --eol``'s i/ and w/ words."""
    if data is None:
        return ""
    if not data:
        return "none"
    st = stats(data)
    if is_binary(st):
        return "-text"
    if st["lonelf"] and st["crlf"]:
        return "mixed"
    if st["crlf"]:
        return "crlf"
    if st["lonelf"]:
        return "lf"
    return "none"


ATTR_WORDS = {UNDEFINED: "", BINARY: "-text", TEXT: "text", TEXT_INPUT: "text eol=lf",
              TEXT_CRLF: "text eol=crlf", AUTO: "text=auto", AUTO_CRLF: "text=auto eol=crlf",
              AUTO_INPUT: "text=auto eol=lf"}
