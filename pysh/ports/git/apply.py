"""git apply: git's patch parser and applier (apply.c), without fuzz, as git 2.39 behaves.

Every patch of the input is checked against an in-memory table first (a later patch of a
path sees what the earlier one made), so a failure writes nothing. Hunks are placed as
apply.c's find_pos places them: exact context, searched outward from the expected line,
the first hunk of a file anchored at its start and one without trailing context at its end.
The work tree and the index are read and written through the repository layer (door B).
"""

from __future__ import annotations

import re

from dulwich.index import ConflictedIndexEntry

from pysh.ports.git import diffing
from pysh.ports.git.core import Ctx, GitExit, Opts, Repo, fatal, quote_path
from pysh.shellkit import decode, encode

_HUNK = re.compile(rb"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


class PatchError(Exception):
    """A patch that does not apply: git's error lines, then ``<path>: patch does not apply``."""


class Hunk:
    __slots__ = ("old_start", "old_count", "new_start", "new_count", "lines")

    def __init__(self, os_, oc, ns, nc):
        self.old_start, self.old_count, self.new_start, self.new_count = os_, oc, ns, nc
        self.lines: list[tuple[bytes, bytes]] = []  # (tag ' ' '-' '+', line with its end)


class FilePatch:
    def __init__(self):
        self.old_name: str | None = None
        self.new_name: str | None = None
        self.old_mode = 0
        self.new_mode = 0
        self.is_new = False
        self.is_delete = False
        self.is_rename = False
        self.is_copy = False
        self.score = 0
        self.binary = False
        self.hunks: list[Hunk] = []

    @property
    def added(self) -> int:
        return sum(1 for h in self.hunks for t, _ in h.lines if t == b"+")

    @property
    def deleted(self) -> int:
        return sum(1 for h in self.hunks for t, _ in h.lines if t == b"-")

    @property
    def name(self) -> str:
        return self.new_name if self.new_name is not None else self.old_name

    def reverse(self) -> None:
        self.old_name, self.new_name = self.new_name, self.old_name
        self.old_mode, self.new_mode = self.new_mode, self.old_mode
        self.is_new, self.is_delete = self.is_delete, self.is_new
        swap = {b"+": b"-", b"-": b"+", b" ": b" "}
        for h in self.hunks:
            h.old_start, h.new_start = h.new_start, h.old_start
            h.old_count, h.new_count = h.new_count, h.old_count
            h.lines = [(swap[t], ln) for t, ln in h.lines]


# ------------------------------------------------------------------- parse
def _unquote(s: bytes) -> bytes:
    if not s.startswith(b'"'):
        return s
    out = bytearray()
    i = 1
    esc = {b"n"[0]: 10, b"t"[0]: 9, b'"'[0]: 34, b"\\"[0]: 92, b"a"[0]: 7, b"b"[0]: 8,
           b"f"[0]: 12, b"r"[0]: 13, b"v"[0]: 11}
    while i < len(s) and s[i] != 34:
        c = s[i]
        if c == 92 and i + 1 < len(s):
            n = s[i + 1]
            if 48 <= n <= 55:
                out.append(int(s[i + 1:i + 4], 8))
                i += 4
                continue
            out.append(esc.get(n, n))
            i += 2
            continue
        out.append(c)
        i += 1
    return bytes(out)


class TooFew(Exception):
    """-p N strips more components than a name has."""


def _strip(name: bytes, p: int) -> str | None:
    name = _unquote(name.split(b"\t")[0].rstrip(b"\r\n")) if not name.startswith(b'"') \
        else _unquote(name.rstrip(b"\r\n"))
    if name == b"/dev/null":
        return None
    for _ in range(p):
        i = name.find(b"/")
        if i < 0:
            raise TooFew
        name = name[i + 1:].lstrip(b"/")
    return decode(name)


def _git_header_names(rest: bytes, p: int) -> tuple[str | None, str | None]:
    rest = rest.rstrip(b"\r\n")
    if rest.startswith(b'"'):
        m = re.match(rb'("(?:[^"\\]|\\.)*")\s+', rest)
        if m:
            return _strip(m.group(1), p), _strip(rest[m.end():], p)
    n = (len(rest) - 1) // 2
    if len(rest) % 2 == 1 and rest[n:n + 1] == b" ":
        a, b = rest[:n], rest[n + 1:]
        sa, sb = _strip(a, p), _strip(b, p)
        if sa == sb:
            return sa, sb
    parts = rest.split(b" ")
    return _strip(parts[0], p), _strip(parts[-1], p)


def parse_patches(data: bytes, p: int = 1) -> list[FilePatch]:
    lines = data.splitlines(keepends=True)
    out: list[FilePatch] = []
    i = 0
    n = len(lines)
    while i < n:
        ln = lines[i]
        fp = None
        if ln.startswith(b"diff --git "):
            fp = FilePatch()
            try:
                fp.old_name, fp.new_name = _git_header_names(ln[len(b"diff --git "):], p)
                bad = False
            except TooFew:
                bad = True
            i += 1
            while i < n:
                h = lines[i].rstrip(b"\r\n")
                if h.startswith(b"old mode "):
                    fp.old_mode = int(h[9:], 8)
                elif h.startswith(b"new mode "):
                    fp.new_mode = int(h[9:], 8)
                elif h.startswith(b"deleted file mode "):
                    fp.is_delete = True
                    fp.old_mode = int(h[18:], 8)
                elif h.startswith(b"new file mode "):
                    fp.is_new = True
                    fp.new_mode = int(h[14:], 8)
                elif h.startswith(b"rename from "):
                    fp.is_rename = True
                    fp.old_name = decode(_unquote(h[12:]))
                elif h.startswith(b"rename to "):
                    fp.is_rename = True
                    fp.new_name = decode(_unquote(h[10:]))
                elif h.startswith(b"copy from "):
                    fp.is_copy = True
                    fp.old_name = decode(_unquote(h[10:]))
                elif h.startswith(b"copy to "):
                    fp.is_copy = True
                    fp.new_name = decode(_unquote(h[8:]))
                elif h.startswith(b"similarity index ") or h.startswith(b"dissimilarity index "):
                    fp.score = int(h.split(b" ")[-1].rstrip(b"%") or 0)
                elif h.startswith(b"index "):
                    m = re.match(rb"index \S+ (\d+)$", h)
                    if m:
                        fp.old_mode = fp.new_mode = int(m.group(1), 8)
                else:
                    break
                i += 1
            if fp.is_new:
                fp.old_name = None
            if fp.is_delete:
                fp.new_name = None
            if i < n and lines[i].startswith(b"--- ") and i + 1 < n \
                    and lines[i + 1].startswith(b"+++ "):
                i += 2
            if bad and not (fp.is_rename or fp.is_copy):
                raise GitExit(f"error: git diff header lacks filename information when removing "
                              f"{p} leading pathname components (line {i + 1})", 128)
            if i < n and (lines[i].startswith(b"GIT binary patch")
                          or lines[i].startswith(b"Binary files ")):
                fp.binary = True
                i += 1
        elif ln.startswith(b"--- ") and i + 2 < n and lines[i + 1].startswith(b"+++ ") \
                and lines[i + 2].startswith(b"@@ -"):
            fp = FilePatch()
            try:
                fp.old_name = _strip(ln[4:], p)
                fp.new_name = _strip(lines[i + 1][4:], p)
            except TooFew:
                raise GitExit(f"error: git diff header lacks filename information when removing "
                              f"{p} leading pathname components (line {i + 1})", 128) from None
            fp.is_new = fp.old_name is None
            fp.is_delete = fp.new_name is None
            i += 2
        else:
            i += 1
            continue
        while i < n and lines[i].startswith(b"@@ -"):
            m = _HUNK.match(lines[i])
            if not m:
                break
            h = Hunk(int(m.group(1)), int(m.group(2) or 1), int(m.group(3)), int(m.group(4) or 1))
            i += 1
            old, new = h.old_count, h.new_count
            while i < n and (old > 0 or new > 0):
                ln = lines[i]
                tag = ln[:1]
                if tag in (b"\n", b"\r"):
                    tag, body = b" ", ln
                else:
                    body = ln[1:]
                if tag == b" ":
                    old -= 1
                    new -= 1
                elif tag == b"-":
                    old -= 1
                elif tag == b"+":
                    new -= 1
                elif tag == b"\\" and h.lines:
                    t, prev = h.lines[-1]
                    h.lines[-1] = (t, prev.rstrip(b"\n"))
                    i += 1
                    continue
                else:
                    break
                h.lines.append((tag, body))
                i += 1
            if i < n and lines[i].startswith(b"\\") and h.lines:
                t, prev = h.lines[-1]
                h.lines[-1] = (t, prev.rstrip(b"\n"))
                i += 1
            fp.hunks.append(h)
        out.append(fp)
    return out


# ------------------------------------------------------------------- apply
def _find_pos(img: list[bytes], pre: list[bytes], line: int, begin: bool, end: bool) -> int:
    if len(pre) > len(img):
        return -1
    if begin:
        line = 0
    elif end:
        line = len(img) - len(pre)
    line = max(0, min(line, len(img)))

    def match(at: int) -> bool:
        if begin and at != 0:
            return False
        if end and at + len(pre) != len(img):
            return False
        return img[at:at + len(pre)] == pre

    back = fwd = line
    i = 0
    if match(line):
        return line
    while True:
        if back == 0 and fwd == len(img):
            return -1
        if i & 1:
            if back == 0:
                i += 1
                continue
            back -= 1
            at = back
        else:
            if fwd == len(img):
                i += 1
                continue
            fwd += 1
            at = fwd
        i += 1
        if match(at):
            return at


def apply_hunks(data: bytes, fp: FilePatch, name: str, verbose: bool = False) -> bytes:
    img = data.splitlines(keepends=True)
    for h in fp.hunks:
        pre = [ln for t, ln in h.lines if t != b"+"]
        post = [ln for t, ln in h.lines if t != b"-"]
        leading = 0
        for t, _ in h.lines:
            if t != b" ":
                break
            leading += 1
        trailing = 0
        for t, _ in reversed(h.lines):
            if t != b" ":
                break
            trailing += 1
        begin = h.old_start == 0 or h.old_start == 1
        end = not trailing
        pos = h.new_start - 1 if h.new_start else 0
        at = _find_pos(img, pre, pos, begin, end)
        if at < 0:
            shown = ""
            if verbose:  # git -v shows the lines it looked for
                shown = "error: while searching for:\n" + decode(b"".join(pre)) + "\n"
            raise PatchError(f"{shown}error: patch failed: {name}:{h.old_start}\n")
        img[at:at + len(pre)] = post
    return b"".join(img)


class Target:
    """Where patches read and write: the work tree, the index, or both."""

    def __init__(self, ctx: Ctx, repo: Repo | None, *, index: bool, cached: bool,
                 verbose: bool = False):
        self.ctx, self.repo, self.index, self.cached = ctx, repo, index, cached
        self.verbose = verbose
        self.table: dict[str, tuple[int, bytes] | None] = {}  # path -> result (None: deleted)

    def _index_entry(self, path: str):
        if self.repo is None:
            return None
        index = self.repo.index
        rel = encode(path)
        e = index[rel] if rel in index else None
        return None if isinstance(e, ConflictedIndexEntry) else e

    def _wt(self, path: str):
        from pysh.ports.git.core import read_worktree_file

        shell = self.ctx.shell
        if self.repo is not None and self.repo.vtop is not None:
            got = self.repo.wt_read(encode(path))
        else:
            got = read_worktree_file(shell, shell.abspath(path))
        return got

    def exists(self, path: str) -> bool:
        if path in self.table:
            return self.table[path] is not None
        if self.index or self.cached:
            if self._index_entry(path) is not None:
                return True
            return False if self.cached else self._wt(path) is not None
        return self._wt(path) is not None

    def read(self, path: str) -> tuple[int, bytes]:
        if path in self.table:
            got = self.table[path]
            if got is None:
                raise PatchError(f"error: {path}: No such file or directory\n", True)
            return got
        if self.index or self.cached:
            e = self._index_entry(path)
            if e is None:
                raise PatchError(f"error: {path}: does not exist in index\n", True)
            blob = self.repo[e.sha].as_raw_string()
            if self.index:
                got = self._wt(path)
                if got is None:
                    raise PatchError(f"error: {path}: No such file or directory\n", True)
                if diffing_sha(got[1]) != e.sha or got[0] != e.mode:
                    raise PatchError(f"error: {path}: does not match index\n", True)
            return e.mode, blob
        got = self._wt(path)
        if got is None:
            raise PatchError(f"error: {path}: No such file or directory\n", True)
        return got[0], got[1]


def diffing_sha(data: bytes) -> bytes:
    from pysh.ports.git.core import git_blob_sha

    return git_blob_sha(data)


def check_patch(t: Target, fp: FilePatch) -> None:
    """Apply one file patch to the table (raises PatchError)."""
    old, new = fp.old_name, fp.new_name
    if fp.binary:
        raise PatchError(f"error: cannot apply binary patch to '{fp.name}' without full index line\n")
    where = "index" if (t.index or t.cached) else "working directory"
    if fp.is_new:
        if t.exists(new):
            raise PatchError(f"error: {new}: already exists in {where}\n", True)
        src_mode, data = 0, b""
    else:
        src_mode, data = t.read(old)
        if fp.old_mode and src_mode != fp.old_mode and not fp.is_delete and not fp.is_rename:
            t.ctx.ewrite(f"warning: {old} has type {src_mode:o}, expected {fp.old_mode:o}\n")
    if (fp.is_rename or fp.is_copy) and t.exists(new) and new != old:
        raise PatchError(f"error: {new}: already exists in {where}\n", True)
    result = apply_hunks(data, fp, old or new, t.verbose)
    if fp.is_delete:
        if result:
            raise PatchError("error: removal patch leaves file contents\n")
        t.table[old] = None
        return
    mode = fp.new_mode or src_mode or 0o100644
    if fp.is_rename:
        t.table[old] = None
    t.table[new] = (mode, result)


def write_table(t: Target) -> None:
    from pysh.ports.git import worktree
    from pysh.ports.git.branch import write_path

    repo = t.repo
    if t.index or t.cached:
        repo.lock_index()
    for path, got in t.table.items():
        rel = encode(path)
        t.ctx.tick()
        if got is None:
            if t.index or t.cached:
                if rel in repo.index:
                    del repo.index[rel]
            if not t.cached:
                if repo is not None and repo.vtop is not None:
                    repo.wt_remove(rel)
                else:
                    from pysh.ports.git.core import remove_worktree_file

                    remove_worktree_file(t.ctx.shell, t.ctx.shell.cwd, rel)
            continue
        mode, data = got
        if t.cached:
            sha = repo.add_blob(data)
            repo.index[rel] = worktree.tree_entry(sha, mode)
        elif t.index:
            write_path(repo, rel, mode, repo.add_blob(data))
        elif repo is not None and repo.vtop is not None:
            repo.wt_write(rel, data, mode)
        else:
            from pysh.ports.git.core import write_worktree_file

            write_worktree_file(t.ctx.shell, t.ctx.shell.cwd, rel, data, mode)
    if t.index or t.cached:
        repo.write_index()


def apply_all(t: Target, patches: list[FilePatch], verbose: bool = False) -> bool:
    """Check every patch (each one, as git does, reporting all failures); True when all
    apply (the table then holds the results)."""
    ok = True
    for fp in patches:
        if verbose:
            nm = quote_path(fp.name)
            if fp.old_name and fp.new_name and fp.old_name != fp.new_name:
                nm = f"{quote_path(fp.old_name)} => {nm}"
            t.ctx.ewrite(f"Checking patch {nm}...\n")
        try:
            check_patch(t, fp)
        except PatchError as e:
            t.ctx.ewrite(e.args[0])
            if len(e.args) == 1:
                t.ctx.ewrite(f"error: {fp.old_name or fp.new_name}: patch does not apply\n")
            ok = False
    return ok


# ------------------------------------------------------------------ output
def stat_lines(patches: list[FilePatch]) -> str:
    max_len = 0
    max_change = 0
    for fp in patches:
        max_change = max(max_change, fp.added + fp.deleted)
        for nm in (fp.old_name, fp.new_name):
            if nm is not None:
                max_len = max(max_len, len(quote_path(nm)))
    out = []
    adds = dels = 0
    for fp in patches:
        q = quote_path(fp.name)
        width = min(max_len, 50)
        if len(q) > width:
            cut = q.find("/", len(q) + 3 - width)
            q = "..." + q[cut if cut >= 0 else len(q) + 3 - width:]
        if fp.binary:
            out.append(f" {q:<{width}} |  Bin\n")
            continue
        m = 70 - width if width + max_change > 70 else max_change
        a, d = fp.added, fp.deleted
        adds += a
        dels += d
        if max_change > 0:
            total = ((a + d) * m + max_change // 2) // max_change
            a = (a * m + max_change // 2) // max_change
            d = total - a
        out.append(f" {q:<{width}} |{fp.added + fp.deleted:5d} {'+' * a}{'-' * d}\n")
    out.append(diffing.shortstat(len(patches), adds, dels))
    return "".join(out)


def numstat_lines(patches: list[FilePatch]) -> str:
    return "".join(("-\t-\t" if fp.binary else f"{fp.added}\t{fp.deleted}\t")
                   + quote_path(fp.name) + "\n" for fp in patches)


def summary_lines(patches: list[FilePatch]) -> str:
    out = []
    for fp in patches:
        if fp.is_new:
            out.append(f" create mode {fp.new_mode:06o} {quote_path(fp.new_name)}\n")
        elif fp.is_delete:
            out.append(f" delete mode {fp.old_mode:06o} {quote_path(fp.old_name)}\n")
        elif fp.is_rename or fp.is_copy:
            word = "rename" if fp.is_rename else "copy"
            out.append(f" {word} {diffing.pprint_rename(fp.old_name, fp.new_name)} ({fp.score}%)\n")
            if fp.old_mode and fp.new_mode and fp.old_mode != fp.new_mode:
                out.append(f" mode change {fp.old_mode:06o} => {fp.new_mode:06o}\n")
        elif fp.old_mode and fp.new_mode and fp.old_mode != fp.new_mode:
            out.append(f" mode change {fp.old_mode:06o} => {fp.new_mode:06o} "
                       f"{quote_path(fp.name)}\n")
    return "".join(out)


# --------------------------------------------------------------- command
APPLY_SPEC = {
    "check": ("flag", "check"), "stat": ("flag", "stat"), "numstat": ("flag", "numstat"),
    "summary": ("flag", "summary"), "R": ("flag", "reverse"), "reverse": ("flag", "reverse"),
    "index": ("flag", "index"), "cached": ("flag", "cached"), "p": ("arg", "p"),
    "3way": ("flag", "threeway"), "3": ("flag", "threeway"), "reject": ("flag", "reject"),
    "apply": ("flag", "apply"), "v": ("flag", "verbose"), "verbose": ("flag", "verbose"),
    "q": ("flag", "quiet"), "quiet": ("flag", "quiet"), "allow-empty": ("flag", "allow_empty"),
    "whitespace": ("arg", "whitespace"), "directory": ("arg", "unsupported"),
    "include": ("multi", "unsupported"), "exclude": ("multi", "unsupported"),
    "unidiff-zero": ("flag", "unsupported"), "C": ("arg", "unsupported"),
    "recount": ("flag", "unsupported"), "intent-to-add": ("flag", "unsupported"),
    "N": ("flag", "unsupported"),
}
APPLY_USAGE = "usage: git apply [<options>] [<patch>...]"


async def read_inputs(ctx: Ctx, files: list[str]) -> bytes:
    from pysh.ports import _common

    if not files or files == ["-"]:
        return await ctx.shell.stdin.read()
    data = b""
    for f in files:
        if f == "-":
            data += await ctx.shell.stdin.read()
            continue
        try:
            data += _common.read_file(ctx.shell, ctx.shell.abspath(f))
        except OSError:
            ctx.ewrite(f"error: can't open patch '{f}': No such file or directory\n")
            raise GitExit("", 128) from None
    return data


async def cmd_apply(ctx: Ctx, args: list[str]) -> int:
    vals, pos, after = Opts("apply", APPLY_SPEC, APPLY_USAGE).parse(args)
    if "unsupported" in vals:
        raise fatal("this apply option is not supported by this port")
    if vals.get("threeway"):
        raise fatal("apply --3way is not supported by this port")
    if vals.get("reject"):
        raise fatal("apply --reject is not supported by this port")
    try:
        p = int(vals.get("p", "1"))
    except ValueError:
        raise fatal("switch `p' expects a numerical value") from None
    repo = ctx.try_repo()
    index = bool(vals.get("index"))
    cached = bool(vals.get("cached"))
    if (index or cached) and repo is None:
        raise fatal("not a git repository (or any of the parent directories): .git")
    data = await read_inputs(ctx, pos + (after or []))
    patches = parse_patches(data, p)
    if not patches:
        if vals.get("allow_empty"):
            return 0
        ctx.ewrite('error: No valid patches in input (allow with "--allow-empty")\n')
        return 128
    if vals.get("reverse"):
        for fp in patches:
            fp.reverse()
        patches.reverse()  # git prepends each reversed patch to its list
    info_only = (vals.get("stat") or vals.get("numstat") or vals.get("summary")) \
        and not vals.get("apply")
    if vals.get("stat"):
        ctx.write(stat_lines(patches))
    if vals.get("numstat"):
        ctx.write(numstat_lines(patches))
    if vals.get("summary"):
        ctx.write(summary_lines(patches))
    if info_only:
        return 0
    if repo is not None and repo.vtop is not None and repo.prefix():
        # from a subdirectory git leaves the patches of paths outside it alone
        pre = repo.prefix()
        patches = [fp for fp in patches if (fp.new_name or fp.old_name or "").startswith(pre)]
    t = Target(ctx, repo, index=index, cached=cached, verbose=bool(vals.get("verbose")))
    if not apply_all(t, patches, t.verbose):
        return 1
    if vals.get("check"):
        return 0
    write_table(t)
    return 0


__all__ = ["GitExit", "cmd_apply", "parse_patches", "apply_all", "Target", "write_table"]
