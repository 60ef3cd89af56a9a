"""The git port's fast paths give what dulwich's general code gives: the index read and written
in one pass (indexfile), commits read from a scan of their header (LazyCommit), the index's
tree ids against HEAD's tree (indextree). dulwich's own reader, writer and parser are the
reference: no real git needed."""

from __future__ import annotations

import io

from dulwich.index import (
    ConflictedIndexEntry,
    IndexChecksumReader,
    IndexChecksumWriter,
    IndexEntry,
    read_index_dict_with_version,
    write_index_dict,
)
from dulwich.objects import Blob, Commit, ShaFile, Tree

from pysh.ports.git import indexfile, indextree
from pysh.ports.git.store import LazyCommit, lazy_commit

FIELDS = ("ctime", "mtime", "dev", "ino", "mode", "uid", "gid", "size", "sha", "flags",
          "extended_flags")


def _entry(n: int, **kw) -> IndexEntry:
    sha = Blob.from_string(b"%d\n" % n).id
    args = dict(ctime=(1700000000 + n, n), mtime=(1700000001 + n, 2 * n), dev=2049, ino=1000 + n,
                mode=0o100644, uid=1000, gid=1000, size=n, sha=sha, flags=0, extended_flags=0)
    args.update(kw)
    return IndexEntry(**args)


def _dulwich_bytes(entries: dict, version: int) -> bytes:
    class Buf(io.BytesIO):
        def close(self):
            pass

    buf = Buf()
    w = IndexChecksumWriter(buf)
    write_index_dict(w, entries, version=version, extensions=[])
    w.close()
    return buf.getvalue()


def _same(a, b) -> bool:
    if isinstance(b, ConflictedIndexEntry):
        return isinstance(a, ConflictedIndexEntry) and all(
            _same(getattr(a, k), getattr(b, k)) for k in ("ancestor", "this", "other"))
    if a is None or b is None:
        return a is b
    return all(getattr(a, f) == getattr(b, f) for f in FIELDS)


def _index() -> dict:
    entries = {b"a/b/c%d.txt" % i: _entry(i) for i in range(40)}
    entries[b"top"] = _entry(50, mode=0o100755)
    entries[b"link"] = _entry(51, mode=0o120000)
    entries[b"sub"] = _entry(52, mode=0o160000)
    entries[b"u/both"] = ConflictedIndexEntry(_entry(60), _entry(61), _entry(62))
    entries[b"u/ours"] = ConflictedIndexEntry(None, _entry(63), None)
    return entries


def test_index_read_and_written_as_dulwich_does():
    for version, extra in ((2, {}), (3, {b"ita": _entry(70, extended_flags=0x2000)})):
        entries = {**_index(), **extra}
        data = _dulwich_bytes(entries, version)
        got, v, _ = indexfile.parse(data)
        want, wv, _ = read_index_dict_with_version(IndexChecksumReader(io.BytesIO(data)))
        assert v == wv == version
        assert list(got) == list(want)
        assert all(_same(got[k], want[k]) for k in want)
        assert indexfile.serialize(got, v) == data  # as read
        assert indexfile.serialize(want, v) == data  # dulwich's entries, same bytes


def test_index_long_name_as_git_writes_it():
    # past the 12-bit length field git stores 0xFFF and a NUL-ended name (dulwich's writer
    # would spill the length into the stage bits)
    entries = {b"a": _entry(1), b"x/" + b"n" * 5000: _entry(53), b"z": _entry(2)}
    data = indexfile.serialize(entries, 2)
    got, _, _ = indexfile.parse(data)
    assert list(got) == sorted(entries) and all(_same(got[k], entries[k]) for k in entries)
    at = data.index(b"x/nnnn")
    assert data[at - 2:at] == b"\x0f\xff"


def test_index_v4_left_to_dulwich():
    data = _dulwich_bytes(_index(), 4)
    got, v, _ = indexfile.parse(data)
    assert v == 4 and set(got) == set(_index())
    assert indexfile.serialize(got, 4) == data


def test_index_corruption_refused():
    data = bytearray(_dulwich_bytes(_index(), 2))
    data[100] ^= 1
    for bad in (bytes(data), b"DIRC\0\0\0\2", b"XXXX" + bytes(data[4:])):
        try:
            indexfile.parse(bad)
        except indexfile.IndexCorrupt:
            continue
        raise AssertionError("a corrupt index was read")


def _commit(parents: int, message: bytes, **kw) -> Commit:
    c = Commit()
    c.tree = Tree().id
    c.parents = [Blob.from_string(b"p%d" % i).id for i in range(parents)]
    c.author = c.committer = b"A U Thor <a@example.com>"
    c.author_time, c.commit_time = 1700000000, 1700000100
    c.author_timezone, c.commit_timezone = 3600, -7200
    c.message = message
    for k, v in kw.items():
        setattr(c, k, v)
    return c


def test_lazy_commit_has_every_field_dulwich_parses():
    commits = [_commit(0, b"root\n"), _commit(1, b"one\n\nbody\n"), _commit(2, b"merge\n"),
               _commit(1, b""), _commit(1, b"enc\n", encoding=b"ISO-8859-1"),
               _commit(1, b"signed\n", gpgsig=b"-----BEGIN PGP SIGNATURE-----\n\nxyz\n"
                                              b"-----END PGP SIGNATURE-----\n")]
    for c in commits:
        raw = c.as_raw_string()
        lazy = lazy_commit(raw, c.id)
        full = ShaFile.from_raw_string(1, raw)
        assert isinstance(lazy, LazyCommit)
        # the fields read from the header scan, then the rest (a full parse on first use)
        for f in ("tree", "parents", "commit_time", "message", "author", "committer",
                  "author_time", "author_timezone", "commit_timezone", "encoding", "gpgsig",
                  "mergetag"):
            assert getattr(lazy, f) == getattr(full, f), f
        assert lazy.as_raw_string() == raw and lazy.id == c.id


def test_lazy_commit_keeps_a_field_set_before_the_full_parse():
    c = _commit(1, b"old\n")
    lazy = lazy_commit(c.as_raw_string(), c.id)
    lazy.message = b"new\n"
    assert lazy.author == c.author and lazy.message == b"new\n"


def test_unusual_commit_header_left_to_dulwich():
    raw = _commit(1, b"x\n").as_raw_string()
    odd = raw.replace(b"author ", b"x-before: 1\nauthor ", 1)  # a header out of git's order
    assert lazy_commit(odd, ShaFile.from_raw_string(1, odd).id) is None


def test_index_tree_ids_are_the_trees_git_writes():
    from dulwich.index import commit_tree
    from dulwich.object_store import MemoryObjectStore

    entries = {p: e for p, e in _index().items() if not isinstance(e, ConflictedIndexEntry)}
    store = MemoryObjectStore()
    want = commit_tree(store, [(p, e.sha, e.mode) for p, e in entries.items()])
    ids, _, _ = indextree.tree_ids(entries)
    assert ids[b""].hex().encode() == want
    # an unmerged path leaves its directories without an id
    ids, _, _ = indextree.tree_ids(_index())
    assert b"" not in ids and b"u" not in ids and b"a/b" in ids
