"""The change set of a sandbox's overlay mounts as the faces show it: JSON records, a
unified diff in git's format (``diff --git`` headers, real blob ids, binary files named
as binary) and its ``--stat`` form. The diff machinery is the git port's own."""

from __future__ import annotations

import hashlib
import json
import stat as _stat

from pysh.shellkit.changes import Change


def _blob_id(data: bytes) -> bytes:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest().encode()  # noqa: S324


def _git_mode(kind: str | None, mode: int | None) -> int:
    if kind == "symlink":
        return 0o120000
    if kind == "file":
        return 0o100755 if (mode or 0) & 0o111 else 0o100644
    return 0


def git_changes(ex, changes: list[Change], workspace: str):
    """(git diffing Changes, load) for the files and symlinks among ``changes``: paths
    relative to the workspace for its own files, else the virtual path without its '/'."""
    from pysh.ports.git.diffing import ZERO
    from pysh.ports.git.diffing import Change as GitChange

    blobs: dict[bytes, bytes] = {ZERO: b""}
    out = []
    for c in changes:
        old_mode = _git_mode(c.old_kind, c.old_mode) if c.status != "added" else 0
        new_mode = _git_mode(c.kind, c.mode) if c.status != "deleted" else 0
        if not old_mode and not new_mode:
            continue  # directories (git does not track them), FIFOs and the like

        def side(mode: int, new: bool, c=c) -> bytes:
            if not mode:
                return ZERO
            if mode == 0o120000:
                t = c.target if new else c.old_target
                data = (t or "").encode("utf-8", "surrogateescape")
            else:
                data = ex.change_content(c, new)
            sha = _blob_id(data)
            blobs[sha] = data
            return sha

        old_sha, new_sha = side(old_mode, False), side(new_mode, True)
        if old_sha == new_sha and old_mode == new_mode:
            continue  # a change git cannot see (a mode bit other than x)
        if not old_mode:
            status = "A"
        elif not new_mode:
            status = "D"
        elif _stat.S_IFMT(old_mode) != _stat.S_IFMT(new_mode):
            status = "T"
        else:
            status = "M"
        rel = c.path[len(workspace) + 1:] if c.path.startswith(workspace + "/") else c.path[1:]
        p = rel.encode("utf-8", "surrogateescape")
        if status == "T":  # git shows a type change as a deletion and an addition
            out.append(GitChange("D", p, None, old_mode, 0, old_sha, ZERO))
            out.append(GitChange("A", None, p, 0, new_mode, ZERO, new_sha))
            continue
        out.append(GitChange(status, p if old_mode else None, p if new_mode else None,
                             old_mode, new_mode, old_sha, new_sha))
    return out, blobs.__getitem__


def diff_text(ex, changes: list[Change], workspace: str) -> str:
    """The unified diff of the change set, as ``git diff`` prints it."""
    from pysh.ports.git.diffing import patch_for

    gcs, load = git_changes(ex, changes, workspace)
    data = b"".join(patch_for(c, load) for c in gcs)
    return data.decode("utf-8", "surrogateescape")


def stat_text(ex, changes: list[Change], workspace: str) -> str:
    """``git diff --stat`` of the change set (empty when nothing changed)."""
    from pysh.ports.git.diffing import stat_block, summary_lines

    gcs, load = git_changes(ex, changes, workspace)
    if not gcs:
        return ""
    return stat_block(gcs, load) + summary_lines(gcs)


def json_text(changes: list[Change]) -> str:
    return json.dumps([c.to_dict() for c in changes], indent=1) + "\n"


def render(ex, how: str, workspace: str) -> str:
    """The change set as ``how``: "stat", "diff" or "json"."""
    changes = ex.changes()
    if how == "json":
        return json_text(changes)
    if how == "diff":
        return diff_text(ex, changes, workspace)
    return stat_text(ex, changes, workspace)
