"""Pathname expansion through the FileSystem door."""

from __future__ import annotations

from pysh.interpreter import pattern as pat
from pysh.shellkit import FileSystem, FileSystemError


def _split(p: str) -> list[str]:
    """Split an escaped pattern on unescaped '/'."""
    parts, cur, i, n = [], [], 0, len(p)
    while i < n:
        c = p[i]
        if c == "\\" and i + 1 < n:
            cur.append(p[i:i + 2])
            i += 2
            continue
        if c == "/":
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(c)
        i += 1
    parts.append("".join(cur))
    return parts


def _join(base: str, name: str) -> str:
    if base == "":
        return name
    if base.endswith("/"):
        return base + name
    return base + "/" + name


def glob(fs: FileSystem, pattern: str, *, dotglob: bool = False, nocase: bool = False,
         globstar: bool = False, extglob: bool = True, skipdots: bool = True,
         budget=None, key=None) -> list[str]:
    """Matches of an escaped pattern, sorted (by ``key``: the locale's collation); []
    when nothing matches."""
    comps = _split(pattern)
    if comps[0] == "" and len(comps) > 1:  # absolute
        paths = ["/"]
        comps = comps[1:]
    else:
        paths = [""]
    trailing_slash = len(comps) > 1 and comps[-1] == ""
    if trailing_slash:
        comps = comps[:-1]
    # the last component that holds a glob character
    last_glob = max((i for i, c in enumerate(comps) if pat.has_glob(c, extglob)), default=-1)
    literal = True  # the paths so far are the pattern's own text (no wildcard before)
    for idx, comp in enumerate(comps):
        if comp == "":
            paths = [p + "/" if not p.endswith("/") else p for p in paths]
            continue
        if not pat.has_glob(comp, extglob):
            lit = pat.unescape(comp)
            paths = [_join(p, lit) for p in paths]
            continue
        is_last = idx == len(comps) - 1
        if globstar and comp == "**":
            paths = _globstar(fs, paths, dotglob, is_last=is_last, trailing_slash=trailing_slash,
                              literal=literal, budget=budget)
            literal = False
            if not paths:
                return []
            continue
        literal = False
        fullmatch = pat.compile_pattern(comp, nocase=nocase, extglob=extglob).fullmatch
        explicit_dot = pat.unescape(comp[:2]).startswith(".") or comp.startswith("\\.")
        new: list[str] = []
        for base in paths:
            if budget is not None:
                budget.check()
            try:
                entries = fs.scandir(base or ".")
            except (FileSystemError, OSError):
                continue
            names = sorted(e.name for e in entries if (is_last and not trailing_slash) or _is_dir(fs, base, e))
            if explicit_dot and not skipdots:
                names[:0] = [".", ".."]  # shopt -u globskipdots: a leading dot may match them
            for name in names:
                if name.startswith(".") and not explicit_dot and not dotglob:
                    continue
                if name in (".", "..") and skipdots:
                    continue
                if fullmatch(name, budget):
                    new.append(_join(base, name))
        paths = new
        if not paths:
            return []
    if last_glob < 0:
        return []
    if last_glob < len(comps) - 1 or trailing_slash:
        paths = [p for p in paths if _exists(fs, p, trailing_slash)]
    if trailing_slash:
        paths = [p + "/" for p in paths]
    return sorted(paths, key=key)


def _is_dir(fs: FileSystem, base: str, entry) -> bool:
    if entry.type == "d":
        return True
    if entry.type == "l":
        return fs.is_dir(_join(base, entry.name) if base else entry.name)
    return False


def _exists(fs: FileSystem, path: str, want_dir: bool) -> bool:
    if want_dir:
        return fs.is_dir(path)
    return fs.lexists(path)


def _globstar(fs: FileSystem, paths: list[str], dotglob: bool, *, is_last: bool,
              trailing_slash: bool, literal: bool, budget=None) -> list[str]:
    """``**``: zero or more directory levels (files too when it is the last component).
    Zero levels is the base itself: ``**/x`` looks in ``.`` too; ``dir/**`` lists ``dir/``
    (as typed: ``dir/``; a base a wildcard found stays as found: ``*/**`` lists ``a``)."""
    dirs_only = not is_last or trailing_slash
    out: list[str] = []
    for base in paths:
        if base and not fs.is_dir(base):
            continue
        if not is_last:
            out.append(base)  # ("" is the current directory: the next component joins it)
        elif base:
            out.append(base if base.endswith("/") or not literal or trailing_slash
                       else base + "/")
        stack = [base]
        while stack:
            if budget is not None:
                budget.check()
            d = stack.pop()
            try:
                entries = sorted(fs.scandir(d or "."), key=lambda e: e.name)
            except (FileSystemError, OSError):
                continue
            subdirs = []
            for e in entries:
                if e.name.startswith(".") and not dotglob:
                    continue
                p = _join(d, e.name)
                if e.type == "d":
                    out.append(p)
                    subdirs.append(p)
                elif not dirs_only:
                    out.append(p)
            stack.extend(reversed(subdirs))
    return list(dict.fromkeys(out))  # (**/** reaches a directory more than one way)
