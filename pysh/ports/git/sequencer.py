"""git cherry-pick, revert and rebase (non-interactive): git's sequencer, one commit at a time.

The state lives where git keeps it and in git's formats, so either git can go on with what
the other started: ``CHERRY_PICK_HEAD``/``REVERT_HEAD`` and ``MERGE_MSG`` for one pick,
``sequencer/`` (todo, head, abort-safety, opts) for a series, ``rebase-merge/`` for a rebase.
Merges are path-wise three-way merges (merge.merge_trees), labelled as git labels them.
"""

from __future__ import annotations

import posixpath
import re

from dulwich.index import ConflictedIndexEntry

from pysh.ports.git import diffing, revs
from pysh.ports.git.core import (
    Ctx,
    GitExit,
    Ident,
    Opts,
    Repo,
    cleanup_message,
    fatal,
    identity,
    subject_of,
    update_ref,
    usage_error,
)
from pysh.shellkit import decode, encode

PICK_HINT = ('After resolving the conflicts, mark them with\n"git add/rm <pathspec>", then run\n'
             '"git {a} --continue".\nYou can instead skip this commit with "git {a} --skip".\n'
             'To abort and get back to the state before "git {a}",\nrun "git {a} --abort".')
REBASE_HINT = ('Resolve all conflicts manually, mark them as resolved with\n'
               '"git add/rm <conflicted_files>", then run "git rebase --continue".\n'
               'You can instead skip this commit: run "git rebase --skip".\n'
               'To abort and get back to the state before "git rebase", run "git rebase --abort".')
EMPTY_PICK = ("The previous cherry-pick is now empty, possibly due to conflict resolution.\n"
              "If you wish to commit it anyway, use:\n\n    git commit --allow-empty\n\n")


def hints(text: str) -> str:
    return "".join(f"hint: {ln}\n" if ln else "hint:\n" for ln in text.split("\n"))


class Failed(Exception):
    """The sequencer gave up (git: an error() and a return of -1): 'fatal: <action> failed'."""


class PickOpts:
    def __init__(self, action: str):
        self.action = action  # 'cherry-pick', 'revert' or 'rebase'
        self.no_commit = False
        self.mainline = 0
        self.record_origin = False
        self.signoff = False
        self.allow_ff = False
        self.allow_empty = False
        self.allow_empty_message = False
        self.keep_redundant = False
        self.drop_redundant = False
        self.reference = False
        self.quiet = False
        self.cleanup: str | None = None

    @property
    def rebase(self) -> bool:
        return self.action == "rebase"


# ------------------------------------------------------------------- helpers
def author_of(c) -> Ident:
    m = re.fullmatch(rb"(.*?) ?<(.*)>", c.author)
    name, email = (decode(m.group(1)), decode(m.group(2))) if m else (decode(c.author), "")
    return Ident(name, email, c.author_time, c.author_timezone)


def label(repo: Repo, sha: bytes) -> str:
    return f"{repo.short(sha)} ({subject_of(repo[sha].message)})"


def full_message(c) -> str:
    """The message as git's find_commit_subject gives it (leading blank lines skipped)."""
    return decode(c.message).lstrip("\n")


def index_flat(repo: Repo) -> dict:
    return {p: (e.mode, e.sha) for p, e in repo.index.items()
            if not isinstance(e, ConflictedIndexEntry)}


def unmerged(repo: Repo) -> bool:
    return any(isinstance(e, ConflictedIndexEntry) for _, e in repo.index.items())


def index_differs_from_head(repo: Repo) -> bool:
    return index_flat(repo) != repo.flat_tree(repo.tree_of(repo.head())) or unmerged(repo)


def worktree_differs(repo: Repo) -> bool:
    from pysh.ports.git.branch import _local_state

    idx, wt = _local_state(repo)
    return any(wt.get(p) != v for p, v in idx.items())


def remove_dir(repo: Repo, rel: str) -> None:
    """rm -r of a state directory in the git dir (only its own files, never links followed)."""
    gd = repo.gitdir
    if not gd.isdir(rel):
        gd.unlink(rel)
        return
    for name, t in gd.listdir(rel):
        sub = f"{rel}/{name}"
        if t == "d":
            remove_dir(repo, sub)
        else:
            gd.unlink(sub)
    gd.rmdir(rel)


def write_file(repo: Repo, rel: str, data: bytes | str) -> None:
    if "/" in rel:
        repo.gitdir.mkdirs(posixpath.dirname(rel))
    repo.write_state(rel, encode(data) if isinstance(data, str) else data)


def read_line(repo: Repo, rel: str) -> str | None:
    data = repo.read_state(rel)
    if data is None:
        return None
    return decode(data).rstrip("\n")


def has_trailer_footer(msg: str) -> bool:
    """Whether the last paragraph is all trailers (git's has_conforming_footer, roughly)."""
    paras = [p for p in msg.rstrip("\n").split("\n\n") if p.strip()]
    if len(paras) < 2:
        return False
    lines = paras[-1].split("\n")
    return all(re.match(r"[A-Za-z0-9-]+: ", ln) or ln.startswith("(cherry picked from commit ")
               for ln in lines)


def append_signoff(ctx: Ctx, msg: str) -> str:
    who = identity(ctx, "COMMITTER")
    sob = f"Signed-off-by: {who.name} <{who.email}>\n"
    if msg and not msg.endswith("\n"):
        msg += "\n"
    if msg.endswith(sob) and (msg == sob or has_trailer_footer(msg) or msg == sob):
        return msg
    if not has_trailer_footer(msg) and msg != sob:
        if not msg:
            msg = "\n\n"
        elif not msg.endswith("\n\n"):
            msg += "\n"
    return msg + sob


def term_clear_line(ctx: Ctx) -> str:
    term = ctx.env.get("TERM")
    if not term or term == "dumb":
        try:
            cols = int(ctx.env.get("COLUMNS", "80"))
        except ValueError:
            cols = 80
        return "\r" + " " * (cols if cols > 0 else 80) + "\r"
    return "\r\x1b[K"


# ------------------------------------------------------------- one pick
def _merge_into_worktree(ctx: Ctx, repo: Repo, base_tree, head_tree, next_tree, base_label: str,
                         next_label: str, show: bool) -> tuple[bool, list[bytes]]:
    """Merge ``next`` into the index and work tree (against ``base``): (clean, conflicted
    paths). Local changes in the way stop it with git's message, before anything is written."""
    from pysh.ports.git.branch import _local_state
    from pysh.ports.git.merge import merge_trees, write_merge_result

    result, conflicts, contents, msgs = merge_trees(repo, base_tree, head_tree, next_tree,
                                                    "HEAD", next_label)
    head_flat = repo.flat_tree(head_tree)
    idx, wt = _local_state(repo)
    touched = [p for p in sorted(set(idx) | set(head_flat))
               if (idx.get(p) != head_flat.get(p) or wt.get(p) != idx.get(p))
               and result.get(p) != head_flat.get(p)]
    if touched:
        ctx.ewrite("error: Your local changes to the following files would be overwritten by "
                   "merge:\n" + "".join(f"\t{decode(p)}\n" for p in touched) +
                   "Please commit your changes or stash them before you merge.\nAborting\n")
        raise Failed()
    untracked = [p for p in sorted(result) if p not in head_flat and p not in idx
                 and result[p] is not None and repo.wt_lstat(p) is not None
                 and result[p][0] != 0o160000]
    if untracked:
        ctx.ewrite("error: The following untracked working tree files would be overwritten by "
                   "merge:\n" + "".join(f"\t{decode(p)}\n" for p in untracked) +
                   "Please move or remove them before you merge.\nAborting\n")
        raise Failed()
    if show or conflicts:
        for m in msgs:
            ctx.write(m + "\n")
    write_merge_result(repo, head_flat, result, conflicts, contents)
    repo.write_index()
    return not conflicts, sorted(conflicts)


def _conflicts_hint(paths: list[bytes]) -> str:
    return "\n# Conflicts:\n" + "".join(f"#\t{decode(p)}\n" for p in paths)


def pick(ctx: Ctx, repo: Repo, sha: bytes, o: PickOpts, *, revert: bool = False) -> int:
    """git's do_pick_commit: 0 done, 1 stopped on conflicts (or an empty result that needs
    the user); raises Failed when it could not start."""
    from pysh.ports.git.branch import switch_trees
    from pysh.ports.git.index import build_tree_from_index, commit_summary, make_commit

    action = "revert" if revert else o.action
    head = repo.head()
    if o.no_commit:
        if unmerged(repo):
            ctx.ewrite("error: your index file is unmerged.\n")
            raise Failed()
        head_tree = build_tree_from_index(repo)
    else:
        head_tree = repo.tree_of(head)
        if index_differs_from_head(repo):
            _dirty_index(ctx, repo, "revert" if revert else o.action)
    c = repo[sha]
    parents = c.parents
    if not parents:
        parent = None
    elif len(parents) > 1:
        if not o.mainline:
            ctx.ewrite(f"error: commit {decode(sha)} is a merge but no -m option was given.\n")
            raise Failed()
        if o.mainline > len(parents):
            ctx.ewrite(f"error: commit {decode(sha)} does not have parent {o.mainline}\n")
            raise Failed()
        parent = parents[o.mainline - 1]
    elif o.mainline > 1:
        ctx.ewrite(f"error: commit {decode(sha)} does not have parent {o.mainline}\n")
        raise Failed()
    else:
        parent = parents[0]
    subject = subject_of(c.message)
    short = repo.short(sha)
    lab = f"{short} ({subject})"
    reflog_action = ("rebase (pick)" if o.rebase else action)
    # fast-forward: the commit already sits on HEAD
    if o.allow_ff and not revert and ((parent is not None and parent == head) or
                                      (parent is None and head is None)):
        switch_trees(repo, head_tree, c.tree, what="merge")
        update_ref(repo, b"HEAD", sha, f"{reflog_action}: " +
                   (subject if o.rebase else "fast-forward"), old=head)
        return 0
    if revert:
        base, base_label, nxt, next_label = sha, lab, parent, f"parent of {lab}"
        if o.reference:
            from pysh.ports.git.core import fmt_date

            ref = f"{short} ({subject}, {fmt_date(c.author_time, c.author_timezone, 'short')})"
            msg = "# *** SAY WHY WE ARE REVERTING ON THE TITLE LINE ***"
        else:
            ref = decode(sha)
            msg = f'Revert "{subject}"'
        msg += f"\n\nThis reverts commit {ref}"
        if len(parents) > 1:
            pref = decode(parent) if not o.reference else label(repo, parent)
            msg += f", reversing\nchanges made to {pref}"
        msg += ".\n"
        author = None
    else:
        base, base_label, nxt, next_label = parent, f"parent of {lab}", sha, lab
        msg = full_message(c)
        if o.record_origin:
            if msg and not msg.endswith("\n"):
                msg += "\n"
            if not has_trailer_footer(msg):
                msg += "\n"
            msg += f"(cherry picked from commit {decode(sha)})\n"
        author = author_of(c)
    if o.signoff:
        msg = append_signoff(ctx, msg)
    base_tree = repo.tree_of(base) if base is not None else None
    next_tree = repo.tree_of(nxt) if nxt is not None else None
    del base_label
    clean, conflicted = _merge_into_worktree(ctx, repo, base_tree, head_tree, next_tree, "",
                                             next_label, show=not o.rebase)
    write_file(repo, "MERGE_MSG", msg + ("" if clean else _conflicts_hint(conflicted)))
    if not revert and not o.no_commit:
        write_file(repo, "CHERRY_PICK_HEAD", sha + b"\n")
    if revert and ((o.no_commit and clean) or not clean):
        write_file(repo, "REVERT_HEAD", sha + b"\n")
    if not clean:
        ctx.ewrite(f"error: could not {'revert' if revert else 'apply'} {short}... {subject}\n")
        if o.rebase:
            ctx.ewrite(hints(REBASE_HINT))
            repo.remove_state("CHERRY_PICK_HEAD")
        elif o.no_commit:
            ctx.ewrite(hints("after resolving the conflicts, mark the corrected paths\n"
                             "with 'git add <paths>' or 'git rm <paths>'"))
        else:
            ctx.ewrite(hints(PICK_HINT.format(a=action)))
        return 1
    if o.no_commit:
        return 0
    tree = build_tree_from_index(repo)
    allow = o.allow_empty
    if allow and tree == head_tree:
        originally_empty = repo.tree_of(parent) == c.tree if parent else False
        if not o.keep_redundant and not originally_empty and o.drop_redundant:
            repo.remove_state("CHERRY_PICK_HEAD")
            repo.remove_state("MERGE_MSG")
            ctx.ewrite(f"dropping {decode(sha)} {subject} -- patch contents already upstream\n")
            return 0
        if not o.keep_redundant and not originally_empty and not o.drop_redundant:
            allow = False
    if tree == head_tree and not allow:
        return _empty_stop(ctx, repo, o)
    committer = identity(ctx, "COMMITTER")
    if author is None:
        author = identity(ctx, "AUTHOR")
    cleanup = o.cleanup or ("whitespace" if (o.signoff or o.record_origin) else "verbatim")
    if cleanup in ("whitespace", "strip"):
        msg = cleanup_message(msg, cleanup == "strip")
    if not msg.strip() and not o.allow_empty_message and not o.rebase:
        ctx.ewrite("Aborting commit due to empty commit message.\n")
        raise Failed()
    new = make_commit(repo, tree, [head] if head else [], msg, author, committer)
    update_ref(repo, b"HEAD", new.id, f"{reflog_action}: {subject_of(new.message)}", old=head,
               ident=committer)
    repo.remove_state("CHERRY_PICK_HEAD")
    repo.remove_state("MERGE_MSG")
    if not o.rebase:
        ctx.write(commit_summary(repo, new, root=head is None, show_date=True))
    return 0


def _dirty_index(ctx: Ctx, repo: Repo, action: str) -> None:
    if unmerged(repo):
        _resolve_conflict(ctx, action)
    ctx.ewrite(f"error: your local changes would be overwritten by {action}.\n"
               "hint: commit your changes or stash them to proceed.\n")
    raise Failed()


def _resolve_conflict(ctx: Ctx, action: str) -> None:
    what = {"cherry-pick": "Cherry-picking", "revert": "Reverting"}.get(action, "Committing")
    ctx.ewrite(f"error: {what} is not possible because you have unmerged files.\n"
               "hint: Fix them up in the work tree, and then use 'git add/rm <file>'\n"
               "hint: as appropriate to mark resolution and make a commit.\n")
    raise Failed()


def _empty_stop(ctx: Ctx, repo: Repo, o: PickOpts) -> int:
    """git commit's refusal of an empty pick: the status, then the advice (exit 1)."""
    from pysh.ports.git.status import compute, long_text

    ctx.write(long_text(repo, compute(repo)))
    if o.rebase:
        ctx.ewrite("No changes\nYou asked to amend the most recent commit, but doing so would make\n"
                   "it empty.\n")
        return 1
    ctx.ewrite(EMPTY_PICK + ("Otherwise, please use 'git cherry-pick --skip'\n"
                             if repo.gitdir.exists("CHERRY_PICK_HEAD") else
                             "Otherwise, please use 'git rebase --skip'\n"))
    return 1


# --------------------------------------------------------- cherry-pick, revert
_SEQ_COMMON = """
    --quit                end revert or cherry-pick sequence
    --continue            resume revert or cherry-pick sequence
    --abort               cancel revert or cherry-pick sequence
    --skip                skip current commit and continue
    --cleanup <mode>      how to strip spaces and #comments from message
    -n, --no-commit       don't automatically commit
    -e, --edit            edit the commit message
    -s, --signoff         add a Signed-off-by trailer
    -m, --mainline <parent-number>
                          select mainline parent
    --rerere-autoupdate   update the index with reused conflict resolution if possible
    --strategy <strategy>
                          merge strategy
    -X, --strategy-option <option>
                          option for merge strategy
    -S, --gpg-sign[=<key-id>]
                          GPG sign commit
"""
SEQ_USAGE = {
    "cherry-pick": "usage: git cherry-pick [--edit] [-n] [-m <parent-number>] [-s] [-x] [--ff]\n"
                   "                       [-S[<keyid>]] <commit>...\n"
                   "   or: git cherry-pick (--continue | --skip | --abort | --quit)\n" + _SEQ_COMMON +
                   """    -x                    append commit name
    --ff                  allow fast-forward
    --allow-empty         preserve initially empty commits
    --allow-empty-message
                          allow commits with empty messages
    --keep-redundant-commits
                          keep redundant, empty commits
""",
    "revert": "usage: git revert [--[no-]edit] [-n] [-m <parent-number>] [-s] [-S[<keyid>]] "
              "<commit>...\n   or: git revert (--continue | --skip | --abort | --quit)\n" +
              _SEQ_COMMON + "    --reference           use the 'reference' format to refer to "
                            "commits\n",
}


async def cmd_cherry_pick(ctx: Ctx, args: list[str]) -> int:
    return await _run(ctx, "cherry-pick", args)


async def cmd_revert(ctx: Ctx, args: list[str]) -> int:
    return await _run(ctx, "revert", args)


async def _run(ctx: Ctx, action: str, args: list[str]) -> int:
    spec = {"quit": ("flag", "quit"), "continue": ("flag", "cont"), "abort": ("flag", "abort"),
            "skip": ("flag", "skip"), "cleanup": ("arg", "cleanup"),
            "n": ("flag", "nocommit"), "no-commit": ("flag", "nocommit"),
            "e": ("flag", "edit"), "edit": ("flag", "edit"), "r": ("flag", "noop"),
            "s": ("flag", "signoff"), "signoff": ("flag", "signoff"),
            "m": ("arg", "mainline"), "mainline": ("arg", "mainline"),
            "rerere-autoupdate": ("flag", "noop"), "strategy": ("arg", "strategy"),
            "X": ("multi", "xopt"), "strategy-option": ("multi", "xopt"),
            "S": ("optarg", "gpg"), "gpg-sign": ("optarg", "gpg")}
    if action == "cherry-pick":
        spec.update({"x": ("flag", "x"), "ff": ("flag", "ff"), "allow-empty": ("flag", "allowempty"),
                     "allow-empty-message": ("flag", "allowemptymsg"),
                     "keep-redundant-commits": ("flag", "keep")})
    else:
        spec["reference"] = ("flag", "reference")
    vals, pos, after = Opts(action, spec, usage=SEQ_USAGE[action]).parse(args)
    pos += after or []
    if vals.get("gpg") not in (None, False):
        raise fatal("signing commits is not available in the sandbox")
    if vals.get("edit"):
        from pysh.ports.git.editor import no_editor

        no_editor(ctx, f"{action} --edit")
    o = PickOpts(action)
    o.no_commit = bool(vals.get("nocommit"))
    o.signoff = bool(vals.get("signoff"))
    o.record_origin = bool(vals.get("x"))
    o.allow_ff = bool(vals.get("ff"))
    o.allow_empty = bool(vals.get("allowempty") or vals.get("keep"))
    o.keep_redundant = bool(vals.get("keep"))
    o.allow_empty_message = bool(vals.get("allowemptymsg"))
    o.reference = bool(vals.get("reference"))
    o.cleanup = vals.get("cleanup")
    if vals.get("mainline") is not None:
        m = vals["mainline"]
        if not m.isdigit() or int(m) <= 0:
            raise usage_error("error: option `mainline' expects a number greater than zero")
        o.mainline = int(m)
    if vals.get("strategy") not in (None, "ort", "recursive"):
        raise fatal(f"the merge strategy '{vals['strategy']}' is not available in pysh's git")
    modes = [k for k in ("quit", "cont", "abort", "skip") if vals.get(k)]
    repo = ctx.repo
    repo.require_worktree(action)
    try:
        if modes:
            name = {"quit": "--quit", "cont": "--continue", "abort": "--abort", "skip": "--skip"}
            for flag, label_ in (("nocommit", "--no-commit"), ("signoff", "--signoff"),
                                 ("mainline", "--mainline"), ("strategy", "--strategy"),
                                 ("xopt", "--strategy-option"), ("x", "-x"), ("ff", "--ff")):
                if vals.get(flag):
                    raise fatal(f"{action}: {label_} cannot be used with {name[modes[0]]}")
            if pos:
                raise usage_error(SEQ_USAGE[action])
            if modes[0] == "quit":
                remove_dir(repo, "sequencer")
                for n in ("CHERRY_PICK_HEAD", "REVERT_HEAD", "MERGE_MSG"):
                    repo.remove_state(n)
                return 0
            if modes[0] == "abort":
                return _rollback(ctx, repo, action)
            if modes[0] == "skip":
                return await _skip(ctx, repo, action, o)
            return await _continue(ctx, repo, action, o)
        if o.allow_ff:
            for flag, label_ in (("signoff", "--signoff"), ("nocommit", "--no-commit"),
                                 ("x", "-x"), ("edit", "--edit")):
                if vals.get(flag):
                    raise fatal(f"{action}: {label_} cannot be used with --ff")
        if not pos:
            raise usage_error(SEQ_USAGE[action])
        return _pick_revisions(ctx, repo, action, o, pos)
    except Failed:
        raise fatal(f"{action} failed") from None


def _commits_from_args(ctx: Ctx, repo: Repo, action: str, args: list[str]) -> tuple[list[bytes], bool]:
    """The commits to pick, in order, and whether it is a single pick (git's no-walk of one
    revision: no sequencer state)."""
    from pysh.ports.git.log import walk_date_order

    walk = any(".." in a or a.startswith("^") for a in args)
    for a in args:
        for part in (a.lstrip("^").replace("...", "..").split("..") if walk else [a]):
            name = part or "HEAD"
            if name == "-":
                name = "@{-1}"
            sha = revs.resolve(repo, name, want=None, missing_ok=True)
            if sha is None:
                raise fatal(f"bad revision '{a}'")
            obj = repo[sha]
            if revs._peel(repo, sha, "commit") is None:
                ctx.ewrite(f"error: {a}: can't cherry-pick a {decode(obj.type_name)}\n")
                raise Failed()
    if not walk:
        shas = [revs.resolve(repo, "@{-1}" if a == "-" else a) for a in args]
        return shas, len(shas) == 1
    inc, exc, _ = revs.parse_range_args(repo, args)
    commits = [s for s, _c in walk_date_order(repo, inc, exc)]
    if action == "cherry-pick":
        commits.reverse()
    if not commits:
        ctx.ewrite("error: empty commit set passed\n")
        raise Failed()
    return commits, False


def _pick_revisions(ctx: Ctx, repo: Repo, action: str, o: PickOpts, args: list[str]) -> int:
    repo.lock_index()
    if unmerged(repo):
        _resolve_conflict(ctx, action)
    commits, single = _commits_from_args(ctx, repo, action, args)
    if single:
        return pick(ctx, repo, commits[0], o, revert=action == "revert")
    if repo.gitdir.exists("sequencer"):
        last = _last_command(repo)
        skip = "--skip | " if (repo.gitdir.exists("REVERT_HEAD") or
                               repo.gitdir.exists("CHERRY_PICK_HEAD")) else ""
        ctx.ewrite(f"error: {last} is already in progress\n"
                   f"hint: try \"git {last} (--continue | {skip}--abort | --quit)\"\n")
        raise Failed()
    head = repo.head()
    if head is None and action == "revert":
        ctx.ewrite("error: can't revert as initial commit\n")
        raise Failed()
    verb = "revert" if action == "revert" else "pick"
    todo = [f"{verb} {repo.short(s)} {subject_of(repo[s].message)}" for s in commits]
    repo.gitdir.mkdirs("sequencer")
    write_file(repo, "sequencer/head", (head or b"0" * 40) + b"\n")
    opts_lines = []
    if o.no_commit:
        opts_lines.append("\tno-commit = true\n")
    if o.signoff:
        opts_lines.append("\tsignoff = true\n")
    if o.record_origin:
        opts_lines.append("\trecord-origin = true\n")
    if o.allow_ff:
        opts_lines.append("\tallow-ff = true\n")
    if o.mainline:
        opts_lines.append(f"\tmainline = {o.mainline}\n")
    write_file(repo, "sequencer/opts", "[options]\n" + "".join(opts_lines) if opts_lines else "")
    _save_todo(repo, todo)
    _abort_safety(repo)
    return _run_todo(ctx, repo, action, o, todo)


def _save_todo(repo: Repo, todo: list[str]) -> None:
    write_file(repo, "sequencer/todo", "".join(t + "\n" for t in todo))


def _abort_safety(repo: Repo) -> None:
    if repo.gitdir.exists("sequencer"):
        write_file(repo, "sequencer/abort-safety", repo.head() or b"")


def _read_todo(repo: Repo) -> list[str]:
    data = repo.read_state("sequencer/todo")
    if data is None:
        return []
    return [ln for ln in decode(data).split("\n") if ln.strip() and not ln.startswith("#")]


def _last_command(repo: Repo) -> str | None:
    todo = _read_todo(repo)
    if not todo:
        return None
    return "revert" if todo[0].split()[0] in ("revert", "r") else "cherry-pick"


def _load_opts(repo: Repo, o: PickOpts) -> None:
    text = decode(repo.read_state("sequencer/opts") or b"")
    for line in text.split("\n"):
        k, _, v = line.strip().partition(" = ")
        if k == "no-commit":
            o.no_commit = v == "true"
        elif k == "signoff":
            o.signoff = v == "true"
        elif k == "record-origin":
            o.record_origin = v == "true"
        elif k == "allow-ff":
            o.allow_ff = v == "true"
        elif k == "mainline" and v.isdigit():
            o.mainline = int(v)


def _run_todo(ctx: Ctx, repo: Repo, action: str, o: PickOpts, todo: list[str]) -> int:
    while todo:
        verb, name = todo[0].split()[:2]
        sha = revs.resolve(repo, name)
        status = pick(ctx, repo, sha, o, revert=verb in ("revert", "r"))
        _abort_safety(repo)
        if status:
            return status
        todo = todo[1:]
        _save_todo(repo, todo)
    remove_dir(repo, "sequencer")
    return 0


def _rollback(ctx: Ctx, repo: Repo, action: str) -> int:
    from pysh.ports.git.branch import _hard_reset_tree

    head_file = read_line(repo, "sequencer/head")
    if head_file is None:
        if not (repo.gitdir.exists("CHERRY_PICK_HEAD") or repo.gitdir.exists("REVERT_HEAD")):
            ctx.ewrite("error: no cherry-pick or revert in progress\n")
            raise Failed()
        head = repo.head()
        if head is None:
            ctx.ewrite("error: cannot abort from a branch yet to be born\n")
            raise Failed()
        _reset_merge(repo, head)
        return 0
    target = head_file.strip().encode()
    if not re.fullmatch(rb"[0-9a-f]{40}", target):
        ctx.ewrite(f"error: stored pre-cherry-pick HEAD file '{repo.gitdir.vpath('sequencer/head')}'"
                   " is corrupt\n")
        raise Failed()
    safety = read_line(repo, "sequencer/abort-safety")
    if (safety or "").encode() != (repo.head() or b""):
        ctx.ewrite("warning: You seem to have moved HEAD. Not rewinding, check your HEAD!\n")
    else:
        _reset_merge(repo, target)
    del _hard_reset_tree
    remove_dir(repo, "sequencer")
    return 0


def _reset_merge(repo: Repo, target: bytes) -> None:
    """``git reset --merge TARGET``: the index and work tree back to it, state files gone."""
    from pysh.ports.git.branch import _hard_reset_tree

    repo.lock_index()
    _hard_reset_tree(repo, repo.tree_of(target))
    head = repo.head()
    if head != target:
        repo.write_state("ORIG_HEAD", (head or b"") + b"\n")
        update_ref(repo, b"HEAD", target, "reset: moving to " + decode(target), old=head)
    for n in ("CHERRY_PICK_HEAD", "REVERT_HEAD", "MERGE_MSG", "MERGE_HEAD", "MERGE_MODE"):
        repo.remove_state(n)


async def _skip(ctx: Ctx, repo: Repo, action: str, o: PickOpts) -> int:
    own = "REVERT_HEAD" if action == "revert" else "CHERRY_PICK_HEAD"
    if not repo.gitdir.exists(own):
        last = _last_command(repo)
        if last != action:
            ctx.ewrite(f"error: no {action} in progress\n")
            raise Failed()
        if (read_line(repo, "sequencer/abort-safety") or "").encode() != (repo.head() or b""):
            ctx.ewrite("error: there is nothing to skip\nhint: have you committed already?\n"
                       f"hint: try \"git {action} --continue\"\n")
            raise Failed()
    head = repo.head()
    _reset_merge(repo, head)
    if not repo.gitdir.exists("sequencer"):
        return 0
    return await _continue(ctx, repo, action, o)


async def _continue(ctx: Ctx, repo: Repo, action: str, o: PickOpts) -> int:
    repo.lock_index()
    todo = _read_todo(repo)
    if not repo.gitdir.exists("sequencer/todo"):
        if not (repo.gitdir.exists("CHERRY_PICK_HEAD") or repo.gitdir.exists("REVERT_HEAD")):
            ctx.ewrite("error: no cherry-pick or revert in progress\n")
            raise Failed()
        return await _commit_pending(ctx)
    _load_opts(repo, o)
    if repo.gitdir.exists("CHERRY_PICK_HEAD") or repo.gitdir.exists("REVERT_HEAD"):
        status = await _commit_pending(ctx)
        if status:
            return status
    if index_differs_from_head(repo):
        _dirty_index(ctx, repo, action)
    return _run_todo(ctx, repo, action, o, todo[1:])


async def _commit_pending(ctx: Ctx) -> int:
    """``git commit --no-edit --cleanup=strip`` of a resolved pick (what git runs)."""
    from pysh.ports.git.index import cmd_commit

    return await cmd_commit(ctx, ["--no-edit", "--cleanup=strip"])


# ----------------------------------------------------------------------- rebase
REBASE_USAGE = """usage: git rebase [-i] [options] [--exec <cmd>] [--onto <newbase> | --keep-base] [<upstream> [<branch>]]
   or: git rebase [-i] [options] [--exec <cmd>] [--onto <newbase>] --root [<branch>]
   or: git rebase --continue | --abort | --skip | --edit-todo
"""

IN_PROGRESS = ("It seems that there is already a {d} directory, and\n"
               "I wonder if you are in the middle of another rebase.  If that is the\n"
               "case, please try\n\tgit rebase (--continue | --abort | --skip)\n"
               "If that is not the case, please\n\trm -fr \"{path}\"\n"
               "and run me again.  I am stopping in case you still have something\n"
               "valuable there.\n")


async def cmd_rebase(ctx: Ctx, args: list[str]) -> int:
    vals, pos, after = Opts("rebase", {
        "onto": ("arg", "onto"), "keep-base": ("flag", "keepbase"),
        "no-verify": ("flag", "noop"), "verify": ("flag", "noop"),
        "q": ("flag", "quiet"), "quiet": ("flag", "quiet"), "v": ("flag", "verbose"),
        "verbose": ("flag", "verbose"), "n": ("flag", "nostat"), "no-stat": ("flag", "nostat"),
        "stat": ("flag", "stat"), "signoff": ("flag", "signoff"),
        "committer-date-is-author-date": ("flag", "cdate"),
        "reset-author-date": ("flag", "ignoredate"), "ignore-date": ("flag", "ignoredate"),
        "f": ("flag", "force"), "force-rebase": ("flag", "force"), "no-ff": ("flag", "force"),
        "continue": ("flag", "cont"), "skip": ("flag", "skip"), "abort": ("flag", "abort"),
        "quit": ("flag", "quit"), "edit-todo": ("flag", "edittodo"),
        "show-current-patch": ("flag", "showpatch"), "apply": ("flag", "apply"),
        "m": ("flag", "merge"), "merge": ("flag", "merge"), "i": ("flag", "interactive"),
        "interactive": ("flag", "interactive"), "x": ("multi", "exec"), "exec": ("multi", "exec"),
        "r": ("optarg", "rebasemerges"), "rebase-merges": ("optarg", "rebasemerges"),
        "root": ("flag", "root"), "autosquash": ("flag", "autosquash"),
        "autostash": ("flag", "autostash"), "fork-point": ("flag", "forkpoint"),
        "s": ("arg", "strategy"), "strategy": ("arg", "strategy"),
        "X": ("multi", "xopt"), "strategy-option": ("multi", "xopt"),
        "empty": ("arg", "empty"), "keep-empty": ("flag", "keepempty"),
        "reapply-cherry-picks": ("flag", "reapply"), "update-refs": ("flag", "updaterefs"),
        "S": ("optarg", "gpg"), "gpg-sign": ("optarg", "gpg"),
        "ignore-whitespace": ("flag", "noop"), "C": ("arg", "noop"), "whitespace": ("arg", "noop"),
    }, usage=REBASE_USAGE).parse(args)
    pos += after or []
    if vals.get("interactive") or vals.get("edittodo"):
        raise GitExit("error: interactive rebase needs an editor and a terminal: pysh's git "
                      "runs only non-interactive rebases", 1)
    if vals.get("exec") or vals.get("autosquash"):
        raise fatal("rebase --exec and --autosquash are not available in pysh's git")
    if vals.get("gpg") not in (None, False):
        raise fatal("signing commits is not available in the sandbox")
    if vals.get("apply"):
        raise fatal("rebase --apply is not available in pysh's git (the merge backend is)")
    repo = ctx.repo
    repo.require_worktree("rebase")
    gd = repo.gitdir
    if gd.exists("rebase-apply/applying"):
        raise fatal("It looks like 'git am' is in progress. Cannot rebase.")
    in_progress = gd.isdir("rebase-merge") or gd.isdir("rebase-apply")
    actions = [k for k in ("cont", "skip", "abort", "quit", "showpatch") if vals.get(k)]
    if actions and len(args) != 1:
        raise usage_error(REBASE_USAGE)
    if len(pos) > 2:
        raise usage_error(REBASE_USAGE)
    if actions and not in_progress:
        raise fatal("No rebase in progress?")
    o = PickOpts("rebase")
    o.allow_empty = True
    o.drop_redundant = True
    if actions:
        o.quiet = gd.exists("rebase-merge/quiet")
        act = actions[0]
        if act == "abort":
            return _rebase_abort(ctx, repo)
        if act == "quit":
            remove_dir(repo, "rebase-merge")
            return 0
        if act == "showpatch":
            sha = read_line(repo, "rebase-merge/stopped-sha")
            from pysh.ports.git.log import cmd_show

            return await cmd_show(ctx, [sha or "REBASE_HEAD"])
        if act == "skip":
            from pysh.ports.git.branch import _hard_reset_tree

            repo.lock_index()
            _hard_reset_tree(repo, repo.tree_of(repo.head()))
            for n in ("MERGE_MSG", "MERGE_HEAD", "CHERRY_PICK_HEAD"):
                repo.remove_state(n)
            return _rebase_run(ctx, repo, o)
        # --continue
        if repo.head() is None:
            raise fatal("Cannot read HEAD")
        needs = sorted({p for p, e in repo.index.items() if isinstance(e, ConflictedIndexEntry)})
        if needs or worktree_differs(repo):
            ctx.write("".join(f"{decode(p)}: needs merge\n" for p in needs) +
                      "You must edit all merge conflicts and then\n"
                      "mark them as resolved using git add\n")
            return 1
        status = await _rebase_commit_staged(ctx, repo)
        if status:
            return status
        return _rebase_run(ctx, repo, o)
    if in_progress:
        d = "rebase-merge" if gd.isdir("rebase-merge") else "rebase-apply"
        from pysh.ports.git.status import _gitdir_shown

        raise fatal(IN_PROGRESS.format(d=d, path=f"{_gitdir_shown(repo)}/{d}"))
    o.quiet = bool(vals.get("quiet"))
    if vals.get("strategy") not in (None, "ort", "recursive"):
        raise fatal(f"the merge strategy '{vals['strategy']}' is not available in pysh's git")
    force = bool(vals.get("force") or vals.get("signoff") or vals.get("cdate") or
                 vals.get("ignoredate"))
    o.signoff = bool(vals.get("signoff"))
    if vals.get("empty") not in (None, "drop", "keep", "ask"):
        raise fatal(f"unrecognized empty type '{vals['empty']}'; valid values are \"drop\", "
                    "\"keep\", and \"ask\".")
    if vals.get("empty") == "keep":
        o.drop_redundant, o.keep_redundant = False, True
    keep_base = bool(vals.get("keepbase"))
    if keep_base and vals.get("onto"):
        raise fatal("options '--keep-base' and '--onto' cannot be used together")
    if keep_base and vals.get("root"):
        raise fatal("options '--keep-base' and '--root' cannot be used together")
    if vals.get("root"):
        raise fatal("rebase --root is not available in pysh's git")
    fork_point = vals.get("forkpoint")
    if fork_point is None:
        fork_point = not pos and not keep_base
    reapply = vals.get("reapply", keep_base)
    # upstream
    if not pos:
        from pysh.ports.git.status import upstream_of

        br = repo.head_branch()
        up = upstream_of(repo, br) if br else None
        if up is None:
            ctx.write(_no_upstream(repo, br))
            return 1
        upstream_name = up[0]
        upstream_ref = up[1]
        upstream = repo.ref_sha(upstream_ref)
        if upstream is None:
            raise fatal(f"invalid upstream '{upstream_name}'")
    else:
        upstream_name = "@{-1}" if pos[0] == "-" else pos[0]
        upstream = revs.resolve(repo, upstream_name, missing_ok=True)
        upstream_ref = revs.lookup_ref(repo, encode(upstream_name))[0]
        if upstream is None:
            raise fatal(f"invalid upstream '{upstream_name}'")
    # the branch
    switch_to = None
    if len(pos) == 2:
        switch_to = pos[1]
        bref = b"refs/heads/" + encode(switch_to)
        bsha = repo.ref_sha(bref)
        if bsha is not None:
            head_name, orig_head, branch_name = bref, bsha, switch_to
        else:
            orig_head = revs.resolve(repo, switch_to, missing_ok=True)
            head_name, branch_name = None, switch_to
            if orig_head is None:
                raise fatal(f"no such branch/commit '{switch_to}'")
    else:
        head_name = repo.head_ref()
        orig_head = repo.head()
        if orig_head is None:
            raise fatal("Could not resolve HEAD to a commit")
        if head_name is not None and head_name.startswith(b"refs/heads/"):
            branch_name = decode(head_name[11:])
        elif head_name is not None:
            branch_name = decode(head_name)
        else:
            branch_name = "HEAD"
    onto_name = vals.get("onto") or (f"{upstream_name}...{branch_name}" if keep_base
                                     else upstream_name)
    if "..." in onto_name:
        left, right = onto_name.split("...", 1)
        bases = revs.merge_bases(repo, revs.resolve(repo, left or "HEAD"),
                                 revs.resolve(repo, right or "HEAD"))
        if len(bases) != 1:
            raise fatal(f"'{upstream_name if keep_base else onto_name}': need exactly one merge base"
                        + (" with branch" if keep_base else ""))
        onto = bases[0]
    else:
        onto = revs.resolve(repo, onto_name, missing_ok=True)
        if onto is None:
            raise fatal(f"Does not point to a valid commit '{onto_name}'")
    if keep_base and reapply:
        upstream = onto
    bases = revs.merge_bases(repo, onto, orig_head)
    branch_base = bases[0] if len(bases) == 1 else None
    restrict = _fork_point(repo, upstream_ref, orig_head) if fork_point and upstream_ref else None
    repo.lock_index()
    if _require_clean(ctx, repo):
        return 1
    up_bases = revs.merge_bases(repo, upstream, orig_head)
    can_ff = (branch_base == onto and (restrict is None or restrict == branch_base)
              and len(up_bases) == 1 and up_bases[0] == onto and _linear(repo, onto, orig_head))
    if can_ff:
        if not force:
            if switch_to is not None:
                _checkout_for_rebase(repo, orig_head, head_name, f"rebase: checkout {switch_to}")
            if not o.quiet:
                ctx.write("HEAD is up to date.\n" if branch_name == "HEAD"
                          else f"Current branch {branch_name} is up to date.\n")
            return 0
        if not o.quiet:
            ctx.write("HEAD is up to date, rebase forced.\n" if branch_name == "HEAD"
                      else f"Current branch {branch_name} is up to date, rebase forced.\n")
    if vals.get("stat") or vals.get("verbose"):
        from pysh.ports.git.merge import _stat_between

        if vals.get("verbose"):
            ctx.write(f"Changes from {decode(branch_base)} to {decode(onto)}:\n" if branch_base
                      else f"Changes to {decode(onto)}:\n")
        ctx.write(_stat_between(repo, repo.tree_of(branch_base) if branch_base else None,
                                repo.tree_of(onto)))
    # the todo list: what orig_head has that upstream has not, oldest first, no merges
    todo = _make_todo(ctx, repo, upstream, orig_head, restrict, reapply, o.quiet)
    gd.mkdirs("rebase-merge")
    write_file(repo, "rebase-merge/head-name",
               (decode(head_name) if head_name else "detached HEAD") + "\n")
    write_file(repo, "rebase-merge/onto", onto + b"\n")
    write_file(repo, "rebase-merge/orig-head", orig_head + b"\n")
    write_file(repo, "rebase-merge/interactive", b"")
    if o.quiet:
        write_file(repo, "rebase-merge/quiet", b"")
    if o.drop_redundant:
        write_file(repo, "rebase-merge/drop_redundant_commits", b"")
    if o.keep_redundant:
        write_file(repo, "rebase-merge/keep_redundant_commits", b"")
    if o.signoff:
        write_file(repo, "rebase-merge/signoff", b"--signoff\n")
    if force:
        write_file(repo, "rebase-merge/force", b"")
    write_file(repo, "rebase-merge/no-reschedule-failed-exec", b"")
    lines = [f"pick {decode(s)} {subject_of(repo[s].message)}" for s in todo] or ["noop"]
    write_file(repo, "rebase-merge/git-rebase-todo", "".join(ln + "\n" for ln in lines))
    write_file(repo, "rebase-merge/end", f"{len(todo)}\n")
    write_file(repo, "rebase-merge/msgnum", "0\n")
    repo.write_state("ORIG_HEAD", orig_head + b"\n")
    _checkout_for_rebase(repo, onto, None, f"rebase (start): checkout {onto_name}", orig=orig_head)
    return _rebase_run(ctx, repo, o)


def _no_upstream(repo: Repo, br: str | None) -> str:
    """git rebase without an upstream to go on (git prints it on stdout)."""
    if br is None:
        return ("You are not currently on a branch.\nPlease specify which branch you want to "
                "rebase against.\nSee git-rebase(1) for details.\n\n    git rebase '<branch>'\n\n")
    remotes = [decode(s[1]) for s in repo.config.sections() if len(s) == 2 and s[0] == b"remote"]
    remote = remotes[0] if len(remotes) == 1 else "<remote>"
    return ("There is no tracking information for the current branch.\n"
            "Please specify which branch you want to rebase against.\n"
            "See git-rebase(1) for details.\n\n    git rebase '<branch>'\n\n"
            "If you wish to set tracking information for this branch you can do so with:\n\n"
            f"    git branch --set-upstream-to={remote}/<branch> {br}\n\n")


def _fork_point(repo: Repo, ref: bytes, orig_head: bytes) -> bytes | None:
    """git merge-base --fork-point: the best ancestor of orig_head among the upstream's
    reflog entries (None when there is none)."""
    cands = [new for _, new, _ in revs.reflog_entries(repo, ref)]
    tip = repo.ref_sha(ref)
    if tip is not None:
        cands.append(tip)
    cands = [c for c in dict.fromkeys(cands) if repo.has(c)]
    if not cands:
        return None
    mine = revs.ancestors(repo, orig_head)
    theirs: set[bytes] = set()
    for c in cands:
        theirs |= revs.ancestors(repo, c)
    common = mine & theirs
    best = set(common)
    for c in common:
        if c in best:
            for p in repo[c].parents:
                best -= revs.ancestors(repo, p)
    if len(best) != 1:
        return None
    b = best.pop()
    return b if b in cands else None


def _linear(repo: Repo, base: bytes, tip: bytes) -> bool:
    cur = tip
    while cur != base:
        ps = repo[cur].parents
        if not ps:
            return True
        if len(ps) > 1:
            return False
        cur = ps[0]
    return True


def _require_clean(ctx: Ctx, repo: Repo) -> bool:
    """git's require_clean_work_tree for rebase: True (and the messages) when it is not."""
    unstaged = worktree_differs(repo)
    staged = index_differs_from_head(repo)
    if not unstaged and not staged:
        return False
    if unstaged:
        ctx.ewrite("error: cannot rebase: You have unstaged changes.\n")
    if staged:
        ctx.ewrite("error: additionally, your index contains uncommitted changes.\n" if unstaged
                   else "error: cannot rebase: Your index contains uncommitted changes.\n")
    ctx.ewrite("error: Please commit or stash them.\n")
    return True


def _checkout_for_rebase(repo: Repo, target: bytes, branch: bytes | None, msg: str,
                         orig: bytes | None = None) -> None:
    from pysh.ports.git.branch import switch_trees
    from pysh.ports.git.core import append_reflog

    head = repo.head()
    switch_trees(repo, repo.tree_of(head), repo.tree_of(target), what="checkout")
    if branch is not None:
        repo.set_symbolic(b"HEAD", branch)
        append_reflog(repo, b"HEAD", head, target, msg)
    else:
        repo.detach_head(target)
        append_reflog(repo, b"HEAD", head, target, msg)


def patch_id(repo: Repo, sha: bytes) -> tuple | None:
    """What makes two commits 'the same patch' (git patch-id, up to its hash): the changed
    paths and their added/removed lines without whitespace. None for merges."""
    c = repo[sha]
    if len(c.parents) > 1:
        return None
    old = repo.flat_tree(repo.tree_of(c.parents[0]) if c.parents else None)
    new = repo.flat_tree(c.tree)
    key = []
    for ch in diffing.compare(old, new):
        a = repo[ch.old_sha].as_raw_string() if ch.old_sha != diffing.ZERO else b""
        b = repo[ch.new_sha].as_raw_string() if ch.new_sha != diffing.ZERO else b""
        lines = []
        for tag, i1, i2, j1, j2 in _opcodes(a, b, repo):
            del tag
            lines += [b"-" + re.sub(rb"\s", b"", x) for x in diffing.split_lines(a)[i1:i2]]
            lines += [b"+" + re.sub(rb"\s", b"", x) for x in diffing.split_lines(b)[j1:j2]]
        key.append((ch.old_path, ch.new_path, tuple(lines)))
    return tuple(key)


def _opcodes(a: bytes, b: bytes, repo: Repo):
    la, lb = diffing.split_lines(a), diffing.split_lines(b)
    for i, n, j, m in diffing.diff_script(la, lb, repo.shell.budget):
        yield "c", i, i + n, j, j + m


def _make_todo(ctx: Ctx, repo: Repo, upstream: bytes, orig_head: bytes, restrict: bytes | None,
               reapply: bool, quiet: bool) -> list[bytes]:
    from pysh.ports.git.log import topo_sort, walk_date_order

    exclude = [upstream] + ([restrict] if restrict is not None else [])
    mine = [(s, c) for s, c in walk_date_order(repo, [orig_head], exclude)]
    mine = topo_sort(repo, mine)
    mine.reverse()
    picks = [s for s, c in mine if len(c.parents) <= 1]
    if reapply or not picks:
        return picks
    base = revs.merge_bases(repo, upstream, orig_head)
    theirs = [s for s, c in walk_date_order(repo, [upstream], base) if len(c.parents) <= 1]
    ids = {patch_id(repo, s) for s in theirs}
    out = []
    skipped = False
    for s in picks:
        c = repo[s]
        empty = repo.tree_of(c.parents[0]) == c.tree if c.parents else False
        if not empty and theirs and patch_id(repo, s) in ids:
            if not quiet:
                ctx.ewrite(f"warning: skipped previously applied commit {repo.short(s)}\n")
            skipped = True
            continue
        out.append(s)
    if skipped:
        ctx.ewrite("hint: use --reapply-cherry-picks to include skipped commits\n"
                   "hint: Disable this message with \"git config advice.skippedCherryPicks false\"\n")
    return out


def _rebase_todo(repo: Repo) -> list[str]:
    data = decode(repo.read_state("rebase-merge/git-rebase-todo") or b"")
    return [ln for ln in data.split("\n") if ln.strip() and not ln.startswith("#")]


def _rebase_run(ctx: Ctx, repo: Repo, o: PickOpts) -> int:
    o.quiet = o.quiet or repo.gitdir.exists("rebase-merge/quiet")
    o.signoff = repo.gitdir.exists("rebase-merge/signoff")
    o.allow_ff = not repo.gitdir.exists("rebase-merge/force") and not o.signoff
    if repo.gitdir.exists("rebase-merge/keep_redundant_commits"):
        o.drop_redundant, o.keep_redundant = False, True
    todo = _rebase_todo(repo)
    try:
        total = int(read_line(repo, "rebase-merge/end") or "0")
        done_n = int(read_line(repo, "rebase-merge/msgnum") or "0")
    except ValueError:
        total, done_n = len(todo), 0
    progress = []
    while todo:
        line = todo[0]
        parts = line.split(None, 2)
        if parts[0] == "noop":
            todo = todo[1:]
            continue
        done_n += 1
        write_file(repo, "rebase-merge/msgnum", f"{done_n}\n")
        if not o.quiet:
            progress.append(f"Rebasing ({done_n}/{total})\r")
            ctx.ewrite(progress[-1])
        done = decode(repo.read_state("rebase-merge/done") or b"")
        write_file(repo, "rebase-merge/done", done + line + "\n")
        todo = todo[1:]
        write_file(repo, "rebase-merge/git-rebase-todo", "".join(t + "\n" for t in todo))
        for n in ("rebase-merge/message", "rebase-merge/author-script", "rebase-merge/stopped-sha",
                  "MERGE_HEAD", "REBASE_HEAD"):
            repo.remove_state(n)
        sha = revs.resolve(repo, parts[1])
        c = repo[sha]
        a = author_of(c)
        write_file(repo, "rebase-merge/author-script",
                   f"GIT_AUTHOR_NAME={_sq(a.name)}\nGIT_AUTHOR_EMAIL={_sq(a.email)}\n"
                   f"GIT_AUTHOR_DATE={_sq(f'@{a.time} {_tz(a.tz)}')}\n")
        try:
            status = pick(ctx, repo, sha, o)
        except Failed:
            # could not even start (local changes in the way): git reschedules the pick
            todo = [line] + todo
            write_file(repo, "rebase-merge/git-rebase-todo", "".join(t + "\n" for t in todo))
            write_file(repo, "rebase-merge/done", done)
            ctx.ewrite(f"hint: Could not execute the todo command\nhint:\nhint:     {line}\nhint:\n"
                       "hint: It has been rescheduled; To edit the command before continuing, "
                       "please\nhint: edit the todo list first:\nhint:\nhint:     git rebase "
                       "--edit-todo\nhint:     git rebase --continue\n")
            return 1
        if status:
            _stopped(ctx, repo, sha, c)
            return status
        rewritten = decode(repo.read_state("rebase-merge/rewritten-list") or b"")
        write_file(repo, "rebase-merge/rewritten-list",
                   rewritten + f"{decode(sha)} {decode(repo.head())}\n")
    return _rebase_finish(ctx, repo, o)


def _sq(s: str) -> str:
    return "'" + s.replace("'", "'\\''") + "'"


def _tz(tz: int) -> str:
    from pysh.ports.git.core import fmt_tz

    return fmt_tz(tz)


def _stopped(ctx: Ctx, repo: Repo, sha: bytes, c) -> None:
    """A pick stopped: the files git leaves for --continue, then 'Could not apply'."""
    from pysh.ports.git.log import commit_patch_text

    write_file(repo, "rebase-merge/stopped-sha", decode(sha) + "\n")
    write_file(repo, "REBASE_HEAD", sha + b"\n")
    write_file(repo, "rebase-merge/patch", commit_patch_text(repo, c))
    if not repo.gitdir.exists("rebase-merge/message"):
        write_file(repo, "rebase-merge/message", full_message(c) + "\n")
    ctx.ewrite(f"Could not apply {repo.short(sha)}... {subject_of(c.message)}\n")


async def _rebase_commit_staged(ctx: Ctx, repo: Repo) -> int:
    """--continue: commit what the user staged for the stopped pick, as git runs ``git commit
    -F rebase-merge/message -e --allow-empty`` with the picked commit's author."""
    from pysh.ports.git.index import cmd_commit

    if not index_differs_from_head(repo):
        repo.remove_state("CHERRY_PICK_HEAD")
        repo.remove_state("MERGE_MSG")
        return 0
    msg = decode(repo.read_state("rebase-merge/message") or repo.read_state("MERGE_MSG") or b"")
    author = None
    script = decode(repo.read_state("rebase-merge/author-script") or b"")
    found = dict(re.findall(r"^GIT_AUTHOR_(NAME|EMAIL|DATE)='((?:[^']|'\\'')*)'$", script, re.M))
    if found:
        from pysh.ports.git.core import parse_date

        unq = {k: v.replace("'\\''", "'") for k, v in found.items()}
        when = parse_date(unq.get("DATE", ""))
        if when is not None:
            author = Ident(unq.get("NAME", ""), unq.get("EMAIL", ""), when[0], when[1])
    try:
        status = await cmd_commit(ctx, ["-e", "--allow-empty"], message=msg, author=author,
                                  reflog="rebase (continue)")
    except GitExit as e:
        ctx.ewrite(e.message + "\n")
        status = 1
    if status:
        ctx.ewrite("error: could not commit staged changes.\n")
        return 1
    stopped = read_line(repo, "rebase-merge/stopped-sha")
    if stopped:
        rewritten = decode(repo.read_state("rebase-merge/rewritten-list") or b"")
        write_file(repo, "rebase-merge/rewritten-list",
                   rewritten + f"{stopped} {decode(repo.head())}\n")
    return 0


def _rebase_finish(ctx: Ctx, repo: Repo, o: PickOpts) -> int:
    from pysh.ports.git.core import append_reflog

    head_name = read_line(repo, "rebase-merge/head-name") or ""
    head = repo.head()
    if head_name.startswith("refs/"):
        orig = (read_line(repo, "rebase-merge/orig-head") or "").encode()
        onto = read_line(repo, "rebase-merge/onto") or ""
        ref = encode(head_name)
        repo.set_ref(ref, head)
        append_reflog(repo, ref, orig, head, f"rebase (finish): {head_name} onto {onto}")
        repo.set_symbolic(b"HEAD", ref)
        append_reflog(repo, b"HEAD", head, head, f"rebase (finish): returning to {head_name}")
    repo.remove_state("REBASE_HEAD")
    remove_dir(repo, "rebase-merge")
    if not o.quiet:
        ctx.ewrite(term_clear_line(ctx) +
                   f"Successfully rebased and updated {head_name or 'detached HEAD'}.\n")
    return 0


def _rebase_abort(ctx: Ctx, repo: Repo) -> int:
    from pysh.ports.git.branch import _hard_reset_tree
    from pysh.ports.git.core import append_reflog

    head_name = read_line(repo, "rebase-merge/head-name") or "detached HEAD"
    orig = (read_line(repo, "rebase-merge/orig-head") or "").encode()
    if not re.fullmatch(rb"[0-9a-f]{40}", orig):
        raise fatal("could not read orig-head")
    repo.lock_index()
    _hard_reset_tree(repo, repo.tree_of(orig))
    head = repo.head()
    msg = f"rebase (abort): returning to {head_name if head_name.startswith('refs/') else decode(orig)}"
    if head_name.startswith("refs/"):
        ref = encode(head_name)
        repo.set_symbolic(b"HEAD", ref)
        append_reflog(repo, b"HEAD", head, orig, msg)
    else:
        repo.detach_head(orig)
        append_reflog(repo, b"HEAD", head, orig, msg)
    for n in ("MERGE_MSG", "MERGE_HEAD", "CHERRY_PICK_HEAD", "REBASE_HEAD", "AUTO_MERGE"):
        repo.remove_state(n)
    remove_dir(repo, "rebase-merge")
    return 0
