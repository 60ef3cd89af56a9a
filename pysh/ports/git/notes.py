"""git notes: add, append, show, list, remove, get-ref on a notes ref (refs/notes/commits).

A notes ref points at a commit whose tree maps an object's hex id to the note's blob; git
reads both flat and fanned-out trees (``ab/cdef...``), and so does this. Trees are written
flat (git fans out only past some hundreds of notes). Each change is a commit on the ref,
with git's messages ("Notes added by 'git notes add'") and reflog lines.
"""

from __future__ import annotations

from pysh.ports.git import revs
from pysh.ports.git.core import (
    Ctx,
    GitExit,
    Opts,
    Repo,
    cleanup_message,
    config_get,
    fatal,
    identity,
    update_ref,
)
from pysh.shellkit import decode, encode

NOTES_USAGE = """usage: git notes [--ref <notes-ref>] [list [<object>]]
   or: git notes [--ref <notes-ref>] add [-f] [--allow-empty] [-m <msg> | -F <file> | (-c | -C) <object>] [<object>]
   or: git notes [--ref <notes-ref>] copy [-f] <from-object> <to-object>
   or: git notes [--ref <notes-ref>] append [--allow-empty] [-m <msg> | -F <file> | (-c | -C) <object>] [<object>]
   or: git notes [--ref <notes-ref>] edit [--allow-empty] [<object>]
   or: git notes [--ref <notes-ref>] show [<object>]
   or: git notes [--ref <notes-ref>] merge [-v | -q] [-s <strategy>] <notes-ref>
   or: git notes merge --commit [-v | -q]
   or: git notes merge --abort [-v | -q]
   or: git notes [--ref <notes-ref>] remove [<object>...]
   or: git notes [--ref <notes-ref>] prune [-n] [-v]
   or: git notes [--ref <notes-ref>] get-ref
"""


def expand_ref(name: str) -> str:
    if name.startswith("refs/notes/"):
        return name
    if name.startswith("notes/"):
        return "refs/" + name
    return "refs/notes/" + name


def default_ref(repo: Repo, override: str | None = None) -> str:
    if override:
        return expand_ref(override)
    env = repo.ctx.env.get("GIT_NOTES_REF")
    if env:
        return env
    cfg = config_get(repo.ctx, "core", "notesRef")
    return expand_ref(cfg) if cfg else "refs/notes/commits"


def read_notes(repo: Repo, ref: str) -> dict[bytes, bytes]:
    """object hex id -> note blob id, from the notes tree (fanout directories joined)."""
    sha = repo.ref_sha(encode(ref))
    if sha is None:
        return {}
    obj = repo.get(sha)
    if obj is None or obj.type_name != b"commit":
        return {}
    out: dict[bytes, bytes] = {}
    for path, (_mode, blob) in repo.flat_tree(obj.tree).items():
        key = path.replace(b"/", b"")
        if len(key) == 40:
            out[key] = blob
    return out


def _write_notes(ctx: Ctx, repo: Repo, ref: str, notes: dict[bytes, bytes], msg: str) -> None:
    from pysh.ports.git.index import make_commit, tree_from_flat

    tree = tree_from_flat(repo, {k: (0o100644, v) for k, v in notes.items()})
    parent = repo.ref_sha(encode(ref))
    who = identity(ctx, "COMMITTER")
    author = identity(ctx, "AUTHOR")
    c = make_commit(repo, tree, [parent] if parent else [], msg, author, who)
    update_ref(repo, encode(ref), c.id, "notes: " + msg.rstrip("\n"), old=parent, log_head=False)


def _object(repo: Repo, name: str) -> bytes:
    sha = revs.resolve(repo, name, want="object", missing_ok=True)
    if sha is None:
        raise fatal(f"failed to resolve '{name}' as a valid ref.")
    return sha


async def _message(ctx: Ctx, vals: dict) -> str | None:
    """The note from -m (paragraphs) / -F, cleaned up as git does; None when none given."""
    parts: list[str] = []
    for kind, v in vals.get("msgs", []):
        if kind == "m":
            parts.append(v)
        else:
            from pysh.ports import _common

            if v == "-":
                data = await ctx.shell.stdin.read()
            else:
                try:
                    data = _common.read_file(ctx.shell, ctx.shell.abspath(v))
                except OSError:
                    raise fatal(f"could not open or read '{v}': No such file or directory") \
                        from None
            parts.append(decode(data))
    if not parts:
        return None
    return cleanup_message("\n\n".join(p.rstrip("\n") for p in parts), strip_comments=False)


class _MsgOpts(Opts):
    """-m and -F keep their order (git joins them as paragraphs)."""

    def parse(self, args, **kw):
        msgs = []
        rest = []
        i = 0
        while i < len(args):
            a = args[i]
            if a in ("-m", "--message", "-F", "--file") and i + 1 < len(args):
                msgs.append(("m" if a in ("-m", "--message") else "F", args[i + 1]))
                i += 2
                continue
            if a.startswith("--message=") or a.startswith("--file="):
                k, _, v = a.partition("=")
                msgs.append(("m" if k == "--message" else "F", v))
            elif a.startswith("-m") and len(a) > 2:
                msgs.append(("m", a[2:]))
            elif a.startswith("-F") and len(a) > 2:
                msgs.append(("F", a[2:]))
            else:
                rest.append(a)
            i += 1
        vals, pos, after = super().parse(rest, **kw)
        vals["msgs"] = msgs
        return vals, pos, after


async def cmd_notes(ctx: Ctx, args: list[str]) -> int:
    ref_override = None
    while args and args[0].startswith("--ref"):
        a = args.pop(0)
        if a == "--ref":
            if not args:
                raise GitExit("error: option `ref' requires a value\n" + NOTES_USAGE.rstrip("\n"),
                              129)
            ref_override = args.pop(0)
        else:
            ref_override = a.split("=", 1)[1]
    repo = ctx.repo
    ref = default_ref(repo, ref_override)
    sub = args[0] if args else "list"
    rest = args[1:]
    if sub == "list":
        return _list(ctx, repo, ref, rest)
    if sub in ("add", "append"):
        return await _add(ctx, repo, ref, rest, append=sub == "append")
    if sub == "show":
        if len(rest) > 1:
            raise GitExit("error: too many arguments\nusage: git notes show [<object>]\n", 129)
        sha = _object(repo, rest[0] if rest else "HEAD")
        blob = read_notes(repo, ref).get(sha)
        if blob is None:
            raise GitExit(f"error: no note found for object {decode(sha)}.", 1)
        ctx.write(repo[blob].as_raw_string())
        return 0
    if sub == "remove":
        return _remove(ctx, repo, ref, rest)
    if sub == "get-ref":
        ctx.write(ref + "\n")
        return 0
    if sub in ("copy", "edit", "merge", "prune"):
        raise fatal(f"git notes {sub} is not supported by this port")
    raise GitExit(f"error: unknown subcommand: `{sub}'\n" + NOTES_USAGE
                  + "\n    --ref <notes-ref>     use notes from <notes-ref>\n", 129)


def _list(ctx: Ctx, repo: Repo, ref: str, rest: list[str]) -> int:
    notes = read_notes(repo, ref)
    if len(rest) > 1:
        raise GitExit("error: too many arguments\nusage: git notes [list [<object>]]\n", 129)
    if rest:
        sha = _object(repo, rest[0])
        blob = notes.get(sha)
        if blob is None:
            raise GitExit(f"error: no note found for object {decode(sha)}.", 1)
        ctx.write(blob + b"\n")
        return 0
    for obj in sorted(notes):
        ctx.write(notes[obj] + b" " + obj + b"\n")
    return 0


ADD_SPEC = {"f": ("flag", "force"), "force": ("flag", "force"),
            "allow-empty": ("flag", "allow_empty"), "C": ("arg", "unsupported"),
            "c": ("arg", "unsupported"), "reuse-message": ("arg", "unsupported"),
            "reedit-message": ("arg", "unsupported")}


async def _add(ctx: Ctx, repo: Repo, ref: str, rest: list[str], *, append: bool) -> int:
    word = "append" if append else "add"
    vals, pos, after = _MsgOpts(f"notes {word}", ADD_SPEC,
                                f"usage: git notes {word} [<options>] [<object>]").parse(rest)
    pos += after or []
    if "unsupported" in vals:
        raise fatal("notes -C/-c are not supported by this port")
    if len(pos) > 1:
        raise GitExit(f"error: too many arguments\nusage: git notes {word} [<options>] [<object>]\n",
                      129)
    sha = _object(repo, pos[0] if pos else "HEAD")
    msg = await _message(ctx, vals)
    if msg is None:
        from pysh.ports.git.editor import no_editor

        no_editor(ctx, "git notes " + word)
    notes = read_notes(repo, ref)
    old = notes.get(sha)
    if append:
        if old is not None:
            prev = repo[old].as_raw_string()
            text = encode(msg)
            msg_bytes = prev + (b"\n" if prev and text else b"") + text
        else:
            msg_bytes = encode(msg)
    else:
        if old is not None:
            if not vals.get("force"):
                raise GitExit(f"error: Cannot add notes. Found existing notes for object "
                              f"{decode(sha)}. Use '-f' to overwrite existing notes", 1)
            ctx.ewrite(f"Overwriting existing notes for object {decode(sha)}\n")
        msg_bytes = encode(msg)
    if not msg_bytes and not vals.get("allow_empty"):
        ctx.ewrite(f"Removing note for object {decode(sha)}\n")
        if old is None:
            return 0
        del notes[sha]
        _write_notes(ctx, repo, ref, notes, "Notes removed by 'git notes " + word + "'\n")
        return 0
    notes[sha] = repo.add_blob(msg_bytes)
    _write_notes(ctx, repo, ref, notes, f"Notes added by 'git notes {word}'\n")
    return 0


def _remove(ctx: Ctx, repo: Repo, ref: str, rest: list[str]) -> int:
    vals, pos, after = Opts("notes remove", {"ignore-missing": ("flag", "ignore_missing"),
                                             "stdin": ("flag", "stdin")},
                            "usage: git notes remove [<object>...]").parse(rest)
    if vals.get("stdin"):
        raise fatal("notes remove --stdin is not supported by this port")
    names = pos + (after or []) or ["HEAD"]
    notes = read_notes(repo, ref)
    status = 0
    changed = False
    for name in names:
        sha = _object(repo, name)
        if sha not in notes:
            ctx.ewrite(f"Object {name} has no note\n")
            if not vals.get("ignore_missing"):
                status = 1
            continue
        ctx.ewrite(f"Removing note for object {name}\n")
        del notes[sha]
        changed = True
    if changed and not status:
        _write_notes(ctx, repo, ref, notes, "Notes removed by 'git notes remove'\n")
    return status
