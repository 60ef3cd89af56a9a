"""dulwich's object store and refs container, built on :class:`GitDir`.

dulwich only ever sees bytes and file objects that the confinement core opened:
loose objects are read as bytes, pack and index files are handed over as open files
(dulwich mmaps them), refs and packed-refs are parsed from bytes. No alternates, no
commit-graph, no multi-pack-index, no bitmaps: nothing that would make dulwich open a
path of its own.
"""

from __future__ import annotations

import binascii
import errno
import io
import zlib

from dulwich.object_store import PackBasedObjectStore
from dulwich.objects import ShaFile, hex_to_sha, sha_to_hex, valid_hexsha
from dulwich.pack import Pack, PackData, load_pack_index_file
from dulwich.refs import (
    SYMREF,
    RefsContainer,
    check_ref_format,
    read_packed_refs,
    read_packed_refs_with_peeled,
    write_packed_refs,
)

from pysh.ports.git.gitfs import GitDir
from pysh.shellkit import FileSystemError

_MISSING = (errno.ENOENT, errno.ENOTDIR, errno.EISDIR)


class _Pack(Pack):
    """A pack whose data and index come from files the core opened; never a bitmap."""

    @property
    def bitmap(self):
        return None

    def keep(self, msg=None):  # pragma: no cover - not reachable from pysh's git
        raise NotImplementedError("keep files are not written in the sandbox")


class SandboxObjectStore(PackBasedObjectStore):
    """Loose objects and packs of ``objects/`` in a :class:`GitDir`."""

    def __init__(self, gitdir: GitDir):
        super().__init__()
        self.gitdir = gitdir
        self._pack_dir_key: tuple | None = None
        # names in each fan-out directory, listed once per command (abbreviating every id of a
        # long log asks again and again); objects this store writes are added as they are
        self._fanout: dict[str, set[str]] = {}

    def __repr__(self) -> str:
        return f"<SandboxObjectStore({self.gitdir.vpath('objects')!r})>"

    # -- packs -------------------------------------------------------------------
    def _open_pack(self, base: str) -> Pack:
        gd, fmt = self.gitdir, self.object_format
        rel = f"objects/pack/{base}"

        def idx():
            f = gd.open_file(rel + ".idx")
            try:
                return load_pack_index_file(base + ".idx", f, fmt)
            except BaseException:
                f.close()
                raise

        def data():
            f = gd.open_file(rel + ".pack")
            try:
                d = PackData(base + ".pack", fmt, file=f)
            except BaseException:
                f.close()
                raise
            d._close_file = True  # we opened it: the pack closes it
            return d

        pack = _Pack(base, object_format=fmt)
        pack._idx_load = idx
        pack._data_load = data
        return pack

    def _update_pack_cache(self) -> list[Pack]:
        st = self.gitdir.stat("objects/pack")
        key = None if st is None else (st.st_ino, st.st_mtime_ns, st.st_ctime_ns)
        if key is not None and key == self._pack_dir_key:
            return []  # nothing appeared or went since the last look
        names = {n for n, _ in self.gitdir.listdir("objects/pack")}
        bases = {n[:-5] for n in names if n.endswith(".pack") and n[:-5] + ".idx" in names}
        new = []
        for base in sorted(bases):
            if base not in self._pack_cache:
                pack = self._open_pack(base)
                new.append(pack)
                self._pack_cache[base] = pack
                self._mark_pack_used(base)
        for gone in set(self._pack_cache) - bases:
            self._pack_cache.pop(gone).close()
            try:
                self._pack_access_order.remove(gone)
            except ValueError:
                pass
        self._pack_dir_key = key
        return new

    def _remove_pack(self, pack: Pack) -> None:
        base = pack._basename
        pack.close()
        self._pack_cache.pop(base, None)
        for ext in (".pack", ".idx", ".rev", ".bitmap", ".keep"):
            self.gitdir.unlink(f"objects/pack/{base}{ext}")
        self._pack_dir_key = None

    def _clear_cached_packs(self) -> None:
        # a pack whose mmap a failed read still points into (the exception's frames hold a
        # view) cannot close yet: the collector releases it; the command's own error stands
        packs = list(self._pack_cache.values())
        self._pack_cache = {}
        self._pack_access_order = []
        for pack in packs:
            try:
                pack.close()
            except BufferError:
                pass

    def add_pack(self):
        raise NotImplementedError("receiving packs is not supported in the sandbox")

    # -- loose objects ---------------------------------------------------------
    @staticmethod
    def _rel(sha: bytes) -> str:
        if len(sha) == 20:
            sha = sha_to_hex(sha)
        if not valid_hexsha(sha):
            raise ValueError(f"Invalid object id {sha!r}")
        s = sha.decode("ascii")
        return f"objects/{s[:2]}/{s[2:]}"

    def _get_loose_object(self, sha) -> ShaFile | None:
        hexsha = sha_to_hex(sha) if len(sha) == 20 else sha
        data = self.gitdir.read_opt(self._rel(hexsha))
        if data is None:
            return None
        return ShaFile.from_file(io.BytesIO(data), hexsha, object_format=self.object_format)

    def contains_loose(self, sha) -> bool:
        try:
            return self.gitdir.stat(self._rel(sha)) is not None
        except ValueError:
            return False

    def _listed(self, fan: str) -> set[str]:
        got = self._fanout.get(fan)
        if got is None:
            got = self._fanout[fan] = {n for n, _ in self.gitdir.listdir(f"objects/{fan}")}
        return got

    def _iter_loose_objects(self):
        for base, t in self.gitdir.listdir("objects"):
            if len(base) != 2 or self.gitdir.entry_kind(f"objects/{base}", t) != "d":
                continue
            for rest in sorted(self._listed(base)):
                sha = (base + rest).encode("ascii", "replace")
                if valid_hexsha(sha):
                    yield sha

    def delete_loose_object(self, sha) -> None:
        rel = self._rel(sha)
        self.gitdir.unlink(rel, missing_ok=False)
        self._fanout.get(rel[8:10], set()).discard(rel[11:])
        self._invalidate_peel_cache()

    def add_object(self, obj: ShaFile) -> None:
        rel = self._rel(obj.id)
        if self.contains_loose(obj.id):
            return
        self.gitdir.mkdirs(rel.rsplit("/", 1)[0])
        self.gitdir.write_new(rel, obj.as_legacy_object(compression_level=zlib.Z_DEFAULT_COMPRESSION))
        if rel[8:10] in self._fanout:
            self._fanout[rel[8:10]].add(rel[11:])

    def add_objects(self, objects, progress=None):
        for obj, _path in objects:
            self.add_object(obj)
        return None

    def iter_prefix(self, prefix: bytes):
        seen = set()
        if len(prefix) >= 2:
            d = prefix[:2].decode("ascii", "replace")
            rest = prefix[2:].decode("ascii", "replace")
            for name in self._listed(d):
                if name.startswith(rest):
                    sha = (d + name).encode("ascii", "replace")
                    if valid_hexsha(sha) and sha not in seen:
                        seen.add(sha)
                        yield sha
        else:
            for sha in self._iter_loose_objects():
                if sha.startswith(prefix) and sha not in seen:
                    seen.add(sha)
                    yield sha
        bin_prefix = binascii.unhexlify(prefix[: len(prefix) - len(prefix) % 2])
        # the pack directory is looked at once per command here (an abbreviation per id)
        packs = list(self._iter_cached_packs()) if self._pack_dir_key is not None else self.packs
        for p in packs:
            for bin_sha in p.index.iter_prefix(bin_prefix):
                sha = sha_to_hex(bin_sha)
                if sha.startswith(prefix) and sha not in seen:
                    seen.add(sha)
                    yield sha

    def get_raw(self, name):
        # packs first (dulwich's order); a loose object is read through the git dir
        if len(name) == 40:
            sha, hexsha = hex_to_sha(name), name
        else:
            sha, hexsha = name, None
        try:
            return self._lookup_in_packs(lambda p: p.get_raw(sha))
        except KeyError:
            pass
        obj = self._get_loose_object(hexsha if hexsha is not None else sha_to_hex(sha))
        if obj is None:
            raise KeyError(hexsha or sha_to_hex(sha))
        return obj.type_num, obj.as_raw_string()


# ------------------------------------------------------------------ refs
class SandboxRefs(RefsContainer):
    """Loose refs, packed-refs and symbolic refs of a :class:`GitDir`."""

    def __init__(self, gitdir: GitDir):
        super().__init__(logger=None)
        self.gitdir = gitdir
        self._packed: dict | None = None
        self._peeled: dict | None = None
        self._packed_key: tuple | None = None

    def __repr__(self) -> str:
        return f"SandboxRefs({self.gitdir.root!r})"

    # -- reading -----------------------------------------------------------------
    def read_loose_ref(self, name):
        if name != b"HEAD" and not (name.startswith(b"refs/") and check_ref_format(name[5:])) \
                and name not in (b"refs/stash",) and not _pseudo(name):
            return None
        try:
            data = self.gitdir.read_opt(name.decode("utf-8", "surrogateescape"), cap=1 << 16)
        except FileSystemError as e:
            if e.errno in _MISSING:
                return None
            raise
        if data is None:
            return None
        line = data.split(b"\n", 1)[0].rstrip(b"\r")
        return line

    def _packed_file_key(self):
        st = self.gitdir.stat("packed-refs")
        return None if st is None else (st.st_ino, st.st_size, st.st_mtime_ns)

    def get_packed_refs(self):
        key = self._packed_file_key()
        if self._packed is not None and key == self._packed_key:
            return self._packed
        self._packed, self._peeled, self._packed_key = {}, {}, key
        data = self.gitdir.read_opt("packed-refs") if key is not None else None
        if not data:
            return self._packed
        f = io.BytesIO(data)
        first = data.split(b"\n", 1)[0]
        try:
            if first.startswith(b"# pack-refs") and b" peeled" in first:
                f.readline()
                for sha, name, peeled in read_packed_refs_with_peeled(f):
                    self._packed[name] = sha
                    if peeled:
                        self._peeled[name] = peeled
            else:
                for sha, name in read_packed_refs(f):
                    self._packed[name] = sha
        except Exception:
            from pysh.ports.git.gitfs import fatal

            raise fatal(f"unexpected line in {_packed_refs_name(self.gitdir)}: "
                        f"{_bad_packed_line(data)}") from None
        return self._packed

    def get_peeled(self, name):
        packed = self.get_packed_refs()
        if name not in packed:
            return None
        return self._peeled.get(name, packed[name]) if self._peeled is not None else None

    def allkeys(self):
        keys = set()
        if self.gitdir.exists("HEAD"):
            keys.add(b"HEAD")
        keys.update(self._loose("refs"))
        keys.update(self.get_packed_refs())
        return keys

    def subkeys(self, base):
        base = base.rstrip(b"/")
        out = set()
        for key in self._loose(base.decode("utf-8", "surrogateescape")):
            if key.startswith(base + b"/"):
                out.add(key[len(base) + 1:])
        for key in self.get_packed_refs():
            if key.startswith(base + b"/"):
                out.add(key[len(base) + 1:])
        return out

    def _loose(self, base: str) -> set[bytes]:
        out: set[bytes] = set()
        stack = [base]
        seen = 0
        while stack:
            d = stack.pop()
            for name, t in self.gitdir.listdir(d):
                seen += 1
                if seen & 255 == 0:
                    self.gitdir.shell.budget.check()
                rel = d + "/" + name
                kind = self.gitdir.entry_kind(rel, t)
                if kind == "d":
                    stack.append(rel)
                elif kind == "f":
                    ref = rel.encode("utf-8", "surrogateescape")
                    if check_ref_format(ref[5:]) and not name.endswith(".lock"):
                        out.add(ref)
        return out

    # -- writing (dulwich's API; pysh's git writes refs through Repo) --------------
    def _invalidate(self) -> None:
        self._packed = self._peeled = self._packed_key = None

    def _write_loose(self, name: bytes, value: bytes, old=None) -> bool:
        rel = name.decode("utf-8", "surrogateescape")
        self.gitdir.mkdirs(rel.rsplit("/", 1)[0]) if "/" in rel else None
        with self.gitdir.lock(rel) as lk:
            if old is not None:
                cur = self.read_loose_ref(name) or self.get_packed_refs().get(name)
                if (cur or b"0" * 40) != old:
                    return False
            lk.write(value + b"\n")
            lk.commit()
        return True

    def set_symbolic_ref(self, name, other, committer=None, timestamp=None, timezone=None,
                         message=None):
        self._check_refname(name)
        self._check_refname(other)
        self._write_loose(name, SYMREF + other)

    def set_if_equals(self, name, old_ref, new_ref, committer=None, timestamp=None,
                      timezone=None, message=None):
        self._check_refname(name)
        try:
            realnames, _ = self.follow(name)
            realname = realnames[-1]
        except (KeyError, IndexError):
            realname = name
        return self._write_loose(realname, new_ref, old_ref)

    def add_if_new(self, name, ref, committer=None, timestamp=None, timezone=None, message=None):
        if self.read_ref(name) is not None:
            return False
        return self._write_loose(name, ref)

    def remove_if_equals(self, name, old_ref, committer=None, timestamp=None, timezone=None,
                         message=None):
        """Delete a ref (loose and packed) as git does: packed-refs is locked first."""
        self._check_refname(name)
        rel = name.decode("utf-8", "surrogateescape")
        with self.gitdir.lock("packed-refs") as plk:
            if old_ref is not None:
                cur = self.read_loose_ref(name) or self.get_packed_refs().get(name) or b"0" * 40
                if cur != old_ref:
                    return False
            self.gitdir.unlink(rel)
            self._invalidate()
            packed = dict(self.get_packed_refs())
            if name in packed:
                peeled = dict(self._peeled or {})
                del packed[name]
                peeled.pop(name, None)
                buf = io.BytesIO()
                write_packed_refs(buf, packed, peeled)
                plk.write(buf.getvalue())
                plk.commit()
            self._invalidate()
        if "/" in rel:
            self.gitdir.remove_empty_parents(rel, "refs")
        return True

    def add_packed_refs(self, new_refs):
        raise NotImplementedError("packing refs is not supported in the sandbox")

    def pack_refs(self, all=False):
        raise NotImplementedError("packing refs is not supported in the sandbox")


def _pseudo(name: bytes) -> bool:
    """Pseudo-refs that live at the top of the git dir (ORIG_HEAD, MERGE_HEAD...)."""
    return name.isupper() and b"/" not in name and name.replace(b"_", b"").isalpha()



def _packed_refs_name(gitdir: GitDir) -> str:
    """packed-refs as git names it (from the work tree's top, where git runs)."""
    vpath = gitdir.vpath("packed-refs")
    return ".git/packed-refs" if vpath.endswith("/.git/packed-refs") else vpath


def _bad_packed_line(data: bytes) -> str:
    """The first line of packed-refs that is neither a ref, a peeled line nor the header."""
    for line in data.split(b"\n"):
        if not line or line.startswith(b"#"):
            continue
        sha, sp, name = line.partition(b" ")
        if line.startswith(b"^"):
            sha, sp, name = line[1:], b" ", b"x"
        if not (sp and name and len(sha) == 40 and all(c in b"0123456789abcdef" for c in sha)):
            return line.decode("utf-8", "replace")
    return ""
