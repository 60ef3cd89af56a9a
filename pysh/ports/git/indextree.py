"""HEAD's tree against the index, looking only where they differ.

git keeps a cache of the index's tree ids (the TREE extension) so that ``status`` and
``diff --cached`` skip every directory whose tree id is HEAD's. pysh drops that extension
when it writes the index, so the ids are computed here instead: one pass over the index
entries builds each directory's tree object (as ``git write-tree`` would, nothing
written), then HEAD's tree is walked from the top and a subtree is opened only when its
id differs. On a clean index that is one comparison at the top, instead of reading all of
HEAD's trees and comparing every path.
"""

from __future__ import annotations

import hashlib
import stat as _stat

from dulwich.index import ConflictedIndexEntry

from pysh.ports.git.indexfile import Entry

_TREE = 0o040000


def _binsha(e) -> bytes:
    return e[10] if e.__class__ is Entry else bytes.fromhex(e.sha.decode("ascii"))


def tree_ids(entries: dict) -> tuple[dict[bytes, bytes], dict[bytes, list], dict[bytes, list]]:
    """(directory -> tree id, directory -> [(name, mode, binary sha)] of its files,
    directory -> names of its subdirectories) of the merged index entries (b"" is the top).
    A directory holding an unmerged path gets no id (it cannot be written as a tree)."""
    files: dict[bytes, list] = {}
    subdirs: dict[bytes, list] = {}
    broken: set[bytes] = set()
    for path, e in entries.items():
        i = path.rfind(b"/")
        d = path[:i] if i > 0 else b""
        if e.__class__ is ConflictedIndexEntry:
            broken.add(d)
            continue
        got = files.get(d)
        if got is None:
            got = files[d] = []
            # register the directory in its parents, up to one already known
            child = d
            while child:
                j = child.rfind(b"/")
                parent = child[:j] if j > 0 else b""
                known = parent in subdirs or parent in files
                subdirs.setdefault(parent, []).append(child[j + 1:])
                if known:
                    break
                files.setdefault(parent, [])
                child = parent
        got.append((path[i + 1:], e.mode, _binsha(e)))
    for d in list(broken):  # an unmerged path spoils every tree above it
        while d:
            j = d.rfind(b"/")
            d = d[:j] if j > 0 else b""
            broken.add(d)
    ids: dict[bytes, bytes] = {}
    for d in sorted(files.keys() | subdirs.keys(), reverse=True):  # children first
        if d in broken:
            continue
        prefix = d + b"/" if d else b""
        rows = [(name, b"%o %s\0%s" % (mode, name, sha)) for name, mode, sha in files.get(d, ())]
        ok = True
        for name in subdirs.get(d, ()):
            sub = ids.get(prefix + name)
            if sub is None:
                ok = False
                break
            rows.append((name + b"/", b"40000 %s\0%s" % (name, sub)))
        if not ok:
            continue
        rows.sort()  # git's tree order: a directory sorts as if its name ended in '/'
        body = b"".join(r for _, r in rows)
        ids[d] = hashlib.sha1(b"tree %d\0" % len(body) + body).digest()
    return ids, files, subdirs


def head_index_diff(repo, head_tree: bytes | None, entries: dict
                    ) -> tuple[dict[bytes, tuple[int, bytes]], dict[bytes, tuple[int, bytes]]]:
    """path -> (mode, sha) of HEAD's tree and of the merged index entries, both limited to
    the directories whose trees differ: comparing the two gives exactly what comparing the
    whole of both would give."""
    if head_tree is None:
        return {}, {p: (e.mode, e.sha) for p, e in entries.items()
                    if e.__class__ is not ConflictedIndexEntry}
    ids, files, subdirs = tree_ids(entries)
    hf: dict[bytes, tuple[int, bytes]] = {}
    ix: dict[bytes, tuple[int, bytes]] = {}
    if ids.get(b"") == bytes.fromhex(head_tree.decode("ascii")):
        return hf, ix

    def index_side(d: bytes) -> None:
        prefix = d + b"/" if d else b""
        for name, mode, sha in files.get(d, ()):
            ix[prefix + name] = (mode, sha.hex().encode())
        for name in subdirs.get(d, ()):
            index_side(prefix + name)

    def head_side(tree_sha: bytes, prefix: bytes) -> None:
        for p, v in repo.flat_tree(tree_sha).items():
            hf[prefix + p] = v

    def walk(tree_sha: bytes, d: bytes) -> None:
        repo.ctx.tick()
        prefix = d + b"/" if d else b""
        both = set()
        for entry in repo[tree_sha].iteritems():
            path = prefix + entry.path
            if _stat.S_ISDIR(entry.mode):
                if path in subdirs or path in files:  # a directory on both sides
                    both.add(path)
                    if ids.get(path) != bytes.fromhex(entry.sha.decode("ascii")):
                        walk(entry.sha, path)
                else:
                    head_side(entry.sha, path + b"/")
            else:
                hf[path] = (entry.mode, entry.sha)
        for name, mode, sha in files.get(d, ()):
            ix[prefix + name] = (mode, sha.hex().encode())
        for name in subdirs.get(d, ()):
            if prefix + name not in both:
                index_side(prefix + name)

    walk(head_tree, b"")
    return hf, ix
