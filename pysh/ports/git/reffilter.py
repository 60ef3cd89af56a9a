"""git's ref-filter: the refs that for-each-ref, branch and tag list, their --format atoms,
--sort keys, and the --contains/--merged/--points-at filters."""

from __future__ import annotations

import re

from pysh.ports.git import revs
from pysh.ports.git.core import Repo, fatal, fmt_date, fmt_tz, subject_of
from pysh.ports.git.gitconfig import wildmatch
from pysh.shellkit import decode


class Ref:
    __slots__ = ("name", "sha", "symref", "_obj", "_peeled")

    def __init__(self, name: bytes, sha: bytes | None, symref: bytes | None = None):
        self.name, self.sha, self.symref = name, sha, symref
        self._obj = None
        self._peeled = False

    def obj(self, repo: Repo):
        if self._obj is None and self.sha is not None:
            self._obj = repo.get(self.sha)
        return self._obj

    def target(self, repo: Repo):
        """The object a tag points at (``*`` atoms), else None."""
        o = self.obj(repo)
        if o is None or o.type_name != b"tag":
            return None
        return repo.get(o.object[1])


def collect(repo: Repo, prefixes: tuple[bytes, ...] = (b"refs/",)) -> list[Ref]:
    """Every ref under the prefixes (symbolic refs keep their target)."""
    out = []
    for name in sorted(repo.refs.allkeys()):
        if name == b"HEAD" or not name.startswith(prefixes):
            continue
        data = repo.refs.read_loose_ref(name)
        sym = data[5:].strip() if data and data.startswith(b"ref: ") else None
        sha = repo.ref_sha(name)
        if sha is None:
            continue
        out.append(Ref(name, sha, sym))
    return out


def pattern_match(pattern: str, refname: str) -> bool:
    """A for-each-ref pattern: a leading part ending at a '/', or a glob (no '/' in '*')."""
    if refname == pattern or (refname.startswith(pattern) and
                              (pattern.endswith("/") or refname[len(pattern)] == "/")):
        return True
    return bool(re.search(r"[*?\[]", pattern)) and wildmatch(pattern, refname)


# ----------------------------------------------------------------- filters
def filter_refs(repo: Repo, refs: list[Ref], *, contains=(), no_contains=(), merged=(),
                no_merged=(), points_at=()) -> list[Ref]:
    def commit_of(r: Ref) -> bytes | None:
        return revs._peel(repo, r.sha, "commit")

    def resolve_all(names):
        out = []
        for n in names:
            sha = revs.resolve(repo, n, want="commit", missing_ok=True)
            if sha is None:
                raise fatal(f"malformed object name {n}")
            out.append(sha)
        return out

    cs, ncs = resolve_all(contains), resolve_all(no_contains)
    ms, nms = resolve_all(merged), resolve_all(no_merged)
    pts = []
    for n in points_at:
        sha = revs.resolve(repo, n, want="object", missing_ok=True)
        if sha is None:
            raise fatal(f"malformed object name '{n}'")
        pts.append(sha)
    out = []
    for r in refs:
        c = commit_of(r)
        if (cs or ncs or ms or nms) and c is None:
            continue
        if cs and not any(revs.is_ancestor(repo, x, c) for x in cs):
            continue
        if ncs and any(revs.is_ancestor(repo, x, c) for x in ncs):
            continue
        if ms and not any(revs.is_ancestor(repo, c, x) for x in ms):
            continue
        if nms and any(revs.is_ancestor(repo, c, x) for x in nms):
            continue
        if pts:
            o = r.obj(repo)
            peeled = r.target(repo)
            if not (r.sha in pts or (peeled is not None and peeled.id in pts)
                    or (o is not None and o.type_name == b"tag" and o.object[1] in pts)):
                continue
        out.append(r)
    return out


# ----------------------------------------------------------------- atoms
_DATE_ATOMS = ("authordate", "committerdate", "taggerdate", "creatordate")


def _who(o, role: str):
    """(raw 'Name <email>', time, tz) of a commit/tag role, or None."""
    if o is None:
        return None
    if role == "author" and o.type_name == b"commit":
        return o.author, o.author_time, o.author_timezone
    if role == "committer" and o.type_name == b"commit":
        return o.committer, o.commit_time, o.commit_timezone
    if role == "tagger" and o.type_name == b"tag" and o.tagger:
        return o.tagger, o.tag_time, o.tag_timezone
    if role == "creator":
        return _who(o, "tagger") if o.type_name == b"tag" else _who(o, "committer")
    return None


def _message(o) -> bytes:
    if o is None or o.type_name not in (b"commit", b"tag"):
        return b""
    return o.message or b""


def _body(msg: bytes) -> str:
    text = decode(msg)
    lines = text.split("\n")
    i = 0
    while i < len(lines) and lines[i].strip():
        i += 1
    while i < len(lines) and not lines[i].strip():
        i += 1
    rest = "\n".join(lines[i:])
    return rest


def atom(repo: Repo, r: Ref, name: str, ctx_head: bytes | None) -> str | int:
    """The value of ``%(name)`` for ref ``r`` (a str; dates and sizes also sort as ints)."""
    deref = name.startswith("*")
    if deref:
        name = name[1:]
    base, _, arg = name.partition(":")
    o = r.target(repo) if deref else r.obj(repo)
    if base == "refname":
        return _refname(r.name, arg)
    if base == "objectname":
        sha = (o.id if o is not None else b"") if deref else r.sha
        if arg.startswith("short"):
            n = int(arg.split("=", 1)[1]) if "=" in arg else 7
            return repo.short(sha, n)
        return decode(sha)
    if base == "objecttype":
        return decode(o.type_name) if o is not None else ""
    if base == "objectsize":
        return len(o.as_raw_string()) if o is not None else 0
    if base == "HEAD":
        return "*" if r.name == ctx_head else " "
    if base == "symref":
        return _refname(r.symref, arg) if r.symref else ""
    if base in ("upstream", "push"):
        return _upstream(repo, r, arg)
    if base == "tree":
        return decode(o.tree) if o is not None and o.type_name == b"commit" else ""
    if base == "parent":
        return " ".join(decode(p) for p in o.parents) if o is not None and \
            o.type_name == b"commit" else ""
    if base == "numparent":
        return len(o.parents) if o is not None and o.type_name == b"commit" else ""
    if base in ("object", "type", "tag"):
        if o is None or o.type_name != b"tag":
            return ""
        return {"object": decode(o.object[1]), "type": decode(o.object[0].type_name),
                "tag": decode(o.name)}[base]
    for role in ("author", "committer", "tagger", "creator"):
        if base.startswith(role):
            who = _who(o, role)
            if who is None:
                return ""
            raw, t, tz = who
            field = base[len(role):]
            m = re.fullmatch(rb"(.*?) <(.*)>", raw)
            nm, em = (m.group(1), m.group(2)) if m else (raw, b"")
            if field == "":
                return f"{decode(raw)} {t} {fmt_tz(tz)}"
            if field == "name":
                return decode(nm)
            if field == "email":
                return decode(em) if arg in ("trim", "localpart") and arg == "trim" else \
                    decode(em.split(b"@")[0]) if arg == "localpart" else f"<{decode(em)}>"
            if field == "date":
                return _date(t, tz, arg)
            return ""
    msg = _message(o)
    if base == "subject":
        s = subject_of(msg)
        return re.sub(r"[^\w.-]+", "-", s).strip("-") if arg == "sanitize" else s
    if base == "body":
        return _body(msg)
    if base == "contents":
        if arg == "subject":
            return subject_of(msg)
        if arg == "body":
            return _body(msg)
        if arg == "signature":
            return ""
        return decode(msg)
    raise fatal(f"unknown field name: {base}")


def atom_sort(repo: Repo, r: Ref, name: str, head: bytes | None):
    """A sort key for atom ``name`` (dates by time, sizes by number)."""
    base = name.lstrip("*").split(":", 1)[0]
    if base in _DATE_ATOMS:
        o = r.target(repo) if name.startswith("*") else r.obj(repo)
        who = _who(o, base[:-4])
        return who[1] if who is not None else 0
    v = atom(repo, r, name, head)
    return v


def _date(t: int, tz: int, fmt: str) -> str:
    if not fmt:
        return fmt_date(t, tz)
    style = {"iso8601": "iso", "iso8601-strict": "iso-strict", "rfc2822": "rfc",
             "local": "default"}.get(fmt, fmt)
    return fmt_date(t, tz, style)


def _refname(name: bytes, arg: str) -> str:
    s = decode(name)
    if not arg:
        return s
    if arg == "short":
        for pre in ("refs/heads/", "refs/tags/", "refs/remotes/", "refs/"):
            if s.startswith(pre):
                return s[len(pre):]
        return s
    m = re.fullmatch(r"(lstrip|rstrip|strip)=(-?\d+)", arg)
    if m:
        parts = s.split("/")
        n = int(m.group(2))
        if m.group(1) in ("lstrip", "strip"):
            parts = parts[n:] if n >= 0 else parts[len(parts) + n:]
        else:
            parts = parts[:len(parts) - n] if n >= 0 else parts[:-n]
        return "/".join(parts)
    raise fatal(f"unrecognized %(refname) argument: {arg}")


def _upstream(repo: Repo, r: Ref, arg: str) -> str:
    from pysh.ports.git.status import ahead_behind, upstream_of

    if not r.name.startswith(b"refs/heads/"):
        return ""
    up = upstream_of(repo, decode(r.name[len(b"refs/heads/"):]))
    if up is None:
        return ""
    short, full = up
    if arg == "short":
        return short
    if arg in ("track", "trackshort", "track,nobracket"):
        usha = repo.ref_sha(full)
        if usha is None:
            return "[gone]" if arg == "track" else ""
        a, b = ahead_behind(repo, r.sha, usha)
        if arg == "trackshort":
            return "<>" if a and b else ">" if a else "<" if b else "="
        parts = ([f"ahead {a}"] if a else []) + ([f"behind {b}"] if b else [])
        if not parts:
            return ""
        body = ", ".join(parts)
        return body if arg.endswith("nobracket") else f"[{body}]"
    if arg == "remotename":
        return short.split("/", 1)[0]
    return decode(full)


# --------------------------------------------------------------- formats
_ATOM = re.compile(r"%\(([^)]*)\)|%([0-9a-fA-F]{2})|%%")


def format_ref(repo: Repo, r: Ref, fmt: str, head: bytes | None) -> str:
    """Expand a --format string: %(atom), %xx (hex byte), %%, and %(if)/%(then)/%(else)/%(end)
    and %(align:N[,position])...%(end)."""
    toks = _tokens(fmt)
    out, _ = _render(repo, r, toks, 0, head, None)
    return out


def _tokens(fmt: str) -> list[tuple[str, str]]:
    toks = []
    pos = 0
    for m in _ATOM.finditer(fmt):
        if m.start() > pos:
            toks.append(("text", fmt[pos:m.start()]))
        if m.group(1) is not None:
            toks.append(("atom", m.group(1)))
        elif m.group(2) is not None:
            toks.append(("text", chr(int(m.group(2), 16))))
        else:
            toks.append(("text", "%"))
        pos = m.end()
    if pos < len(fmt):
        toks.append(("text", fmt[pos:]))
    return toks


def _render(repo, r, toks, i, head, stop):
    """Render tokens from ``i`` until a token in ``stop``; returns (text, index of the stop)."""
    out = []
    while i < len(toks):
        kind, val = toks[i]
        if kind == "atom" and stop and val.split(":", 1)[0] in stop:
            return "".join(out), i
        i += 1
        if kind == "text":
            out.append(val)
            continue
        name = val.split(":", 1)[0]
        if name == "if":
            cond_text, i = _render(repo, r, toks, i, head, ("then",))
            then_text, i = _render(repo, r, toks, i + 1, head, ("else", "end"))
            else_text = ""
            if i < len(toks) and toks[i][1].startswith("else"):
                else_text, i = _render(repo, r, toks, i + 1, head, ("end",))
            i += 1
            arg = val.split(":", 1)[1] if ":" in val else ""
            if arg.startswith("equals="):
                ok = cond_text == arg[7:]
            elif arg.startswith("notequals="):
                ok = cond_text != arg[10:]
            else:
                ok = bool(cond_text.strip())
            out.append(then_text if ok else else_text)
            continue
        if name == "align":
            inner, i = _render(repo, r, toks, i, head, ("end",))
            i += 1
            width, position = 0, "left"
            for part in (val.split(":", 1)[1] if ":" in val else "").split(","):
                if part.isdigit():
                    width = int(part)
                elif part.startswith("width="):
                    width = int(part[6:])
                elif part.startswith("position="):
                    position = part[9:]
                elif part in ("left", "right", "middle"):
                    position = part
            pad = max(width - len(inner), 0)
            if position == "right":
                out.append(" " * pad + inner)
            elif position == "middle":
                out.append(" " * (pad // 2) + inner + " " * (pad - pad // 2))
            else:
                out.append(inner + " " * pad)
            continue
        if name == "color":
            continue
        out.append(str(atom(repo, r, val, head)))
    return "".join(out), i


# ----------------------------------------------------------------- sort
def version_key(s: str):
    """git's versioncmp, roughly: digit runs compare as numbers."""
    return [(0, int(t), "") if t.isdigit() else (1, 0, t) for t in re.findall(r"\d+|\D+", s)]


def sort_refs(repo: Repo, refs: list[Ref], keys: list[str], head: bytes | None) -> list[Ref]:
    """Sorted by the keys, the last one given first (refname breaks ties)."""
    out = sorted(refs, key=lambda r: r.name)
    for key in keys:
        rev = key.startswith("-")
        k = key[1:] if rev else key
        if k in ("version:refname", "v:refname"):
            out.sort(key=lambda r: version_key(decode(r.name)), reverse=rev)
            continue
        vals = {id(r): atom_sort(repo, r, k, head) for r in out}
        out.sort(key=lambda r: (isinstance(vals[id(r)], str), vals[id(r)]), reverse=rev)
    return out
