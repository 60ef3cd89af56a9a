"""git am: apply an mbox of patches (as format-patch writes them) as commits.

The session lives in ``.git/rebase-apply`` in git's own files (``0001``.. the split mails,
``next``, ``last``, ``info``, ``msg``, ``patch``, ``final-commit``, ``author-script``,
``abort-safety``, the option flags), so the real git can go on with a session pysh
stopped in, and the other way round. Patches are applied as ``git apply --index`` applies
them (apply.py). ``-3`` (three-way fallback) and interactive mode are refused.
"""

from __future__ import annotations

import re

from pysh.ports.git import apply as _apply
from pysh.ports.git.core import (
    Ctx,
    GitExit,
    Ident,
    Opts,
    Repo,
    fatal,
    identity,
    parse_date,
    update_ref,
)
from pysh.ports.git.sequencer import (
    append_signoff,
    index_differs_from_head,
    read_line,
    remove_dir,
    write_file,
)
from pysh.shellkit import decode, encode

D = "rebase-apply"
RESOLVE = ('When you have resolved this problem, run "git am --continue".\n'
           'If you prefer to skip this patch, run "git am --skip" instead.\n'
           'To restore the original branch and stop patching, run "git am --abort".\n')


# ------------------------------------------------------------------- mail
def split_mbox(data: bytes) -> list[bytes]:
    """git mailsplit: one mail per ``From `` line (the first line need not be one)."""
    mails: list[bytes] = []
    cur: list[bytes] = []
    for ln in data.splitlines(keepends=True):
        if ln.startswith(b"From ") and cur:
            mails.append(b"".join(cur))
            cur = []
        cur.append(ln)
    if cur and any(x.strip() for x in cur):
        mails.append(b"".join(cur))
    return mails


def _q_decode(text: str) -> bytes:
    out = bytearray()
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "_":
            out.append(32)
        elif ch == "=" and i + 2 < len(text) + 1 and re.fullmatch(r"[0-9A-Fa-f]{2}", text[i + 1:i + 3]):
            out.append(int(text[i + 1:i + 3], 16))
            i += 3
            continue
        else:
            out += ch.encode("utf-8", "surrogateescape")
        i += 1
    return bytes(out)


_ENCODED = re.compile(r"=\?([^?]+)\?([qQbB])\?([^?]*)\?=")


def decode_header(value: str) -> str:
    """RFC 2047 encoded words decoded; whitespace between two of them dropped."""
    out: list[str] = []
    pos = 0
    last_encoded = False
    for m in _ENCODED.finditer(value):
        gap = value[pos:m.start()]
        if not (last_encoded and not gap.strip()):
            out.append(gap)
        if m.group(2) in "qQ":
            raw = _q_decode(m.group(3))
        else:
            import base64

            try:
                raw = base64.b64decode(m.group(3))
            except ValueError:
                raw = encode(m.group(3))
        try:
            out.append(raw.decode(m.group(1)))
        except (LookupError, UnicodeDecodeError):
            out.append(decode(raw))
        pos = m.end()
        last_encoded = True
    out.append(value[pos:])
    return "".join(out)


def cleanup_subject(s: str, keep_non_patch: bool = False) -> str:
    at = 0
    while at < len(s):
        c = s[at]
        if c in "rR":
            if len(s) <= at + 3:
                break
            if s[at + 1] in "eE" and s[at + 2] == ":":
                s = s[:at] + s[at + 3:]
                continue
            break
        if c in " \t:":
            s = s[:at] + s[at + 1:]
            continue
        if c == "[":
            end = s.find("]", at)
            if end < 0:
                break
            remove = end - at + 1
            if not keep_non_patch or (remove >= 7 and "PATCH" in s[at:end + 1]):
                s = s[:at] + s[at + remove:]
            else:
                at += remove
                if at < len(s) and s[at].isspace():
                    at += 1
            continue
        break
    return s.strip()


class MailInfo:
    def __init__(self, name: str, email: str, subject: str, date: str, msg: str, patch: bytes):
        self.name, self.email, self.subject, self.date = name, email, subject, date
        self.msg, self.patch = msg, patch


def _parse_from(value: str) -> tuple[str, str]:
    value = decode_header(value).strip()
    m = re.match(r"(.*?)\s*<([^>]*)>\s*$", value)
    if m:
        name, email = m.group(1).strip(), m.group(2).strip()
    else:
        name, email = "", value
    if name.startswith('"') and name.endswith('"') and len(name) >= 2:
        name = re.sub(r"\\(.)", r"\1", name[1:-1])
    if not name:
        name = email.split("@")[0]
    return name, email


def mailinfo(mail: bytes, keep: str) -> MailInfo:
    """git mailinfo on one mail: author, subject (cleaned unless -k), message, patch."""
    lines = mail.splitlines(keepends=True)
    i = 0
    if lines and lines[0].startswith(b"From ") and b"@" not in lines[0][:5]:
        i = 1
    headers: dict[str, str] = {}
    cur: str | None = None
    while i < len(lines):
        ln = decode(lines[i]).rstrip("\r\n")
        i += 1
        if not ln:
            break
        if ln[:1] in (" ", "\t") and cur is not None:
            headers[cur] += ln
            continue
        k, sep, v = ln.partition(":")
        if not sep:
            i -= 1
            break
        cur = k.strip().lower()
        headers[cur] = v.strip()
    body = lines[i:]
    msg_lines: list[str] = []
    j = 0
    while j < len(body):
        ln = body[j]
        s = ln.rstrip(b"\r\n")
        if s == b"---" or s.startswith(b"diff -") or s.startswith(b"Index: "):
            break
        msg_lines.append(decode(ln).rstrip("\r\n"))
        j += 1
    patch = b"".join(body[j:])
    while msg_lines and not msg_lines[0].strip():
        msg_lines.pop(0)
    while msg_lines and not msg_lines[-1].strip():
        msg_lines.pop()
    msg = "".join(ln.rstrip() + "\n" for ln in msg_lines)
    subject = decode_header(headers.get("subject", ""))
    if keep != "t":
        subject = cleanup_subject(subject, keep == "b")
    name, email = _parse_from(headers.get("from", ""))
    return MailInfo(name, email, subject, headers.get("date", ""), msg, patch)


def _sq(s: str) -> str:
    return "'" + s.replace("'", "'\\''") + "'"


# ---------------------------------------------------------------- session
AM_SPEC = {
    "3": ("flag", "threeway"), "3way": ("flag", "threeway"), "i": ("flag", "interactive"),
    "interactive": ("flag", "interactive"), "s": ("flag", "signoff"), "signoff": ("flag", "signoff"),
    "k": ("flag", "keep"), "keep": ("flag", "keep"), "keep-non-patch": ("flag", "keep_np"),
    "q": ("flag", "quiet"), "quiet": ("flag", "quiet"), "continue": ("flag", "cont"),
    "r": ("flag", "cont"), "resolved": ("flag", "cont"), "skip": ("flag", "skip"),
    "abort": ("flag", "abort"), "quit": ("flag", "quit"), "show-current-patch": ("optarg", "show"),
    "p": ("arg", "unsupported"), "C": ("arg", "unsupported"), "directory": ("arg", "unsupported"),
    "exclude": ("multi", "unsupported"), "include": ("multi", "unsupported"),
    "committer-date-is-author-date": ("flag", "cdate"), "ignore-date": ("flag", "idate"),
    "m": ("flag", "unsupported"), "message-id": ("flag", "unsupported"),
    "scissors": ("flag", "unsupported"), "c": ("flag", "unsupported"),
    "whitespace": ("arg", "whitespace"), "ignore-whitespace": ("flag", "whitespace"),
    "empty": ("arg", "unsupported"), "patch-format": ("arg", "unsupported"),
    "u": ("flag", "utf8"), "utf8": ("flag", "utf8"), "no-utf8": ("flag", "noutf8"),
}
AM_USAGE = ("usage: git am [<options>] [(<mbox> | <Maildir>)...]\n"
            "   or: git am [<options>] (--continue | --skip | --abort)")


def _flag(repo: Repo, name: str) -> bool:
    return read_line(repo, f"{D}/{name}") == "t"


def in_progress(repo: Repo) -> bool:
    return repo.gitdir.isdir(D)


async def cmd_am(ctx: Ctx, args: list[str]) -> int:
    vals, pos, after = Opts("am", AM_SPEC, AM_USAGE).parse(args)
    pos += after or []
    if "unsupported" in vals:
        raise fatal("this am option is not supported by this port")
    if vals.get("interactive"):
        raise fatal("am --interactive is not supported by this port")
    repo = ctx.repo
    repo.require_worktree("am")
    resume = [k for k in ("cont", "skip", "abort", "quit", "show") if vals.get(k)]
    if len(resume) > 1:
        names = {"--continue": "cont", "-r": "cont", "--resolved": "cont", "--skip": "skip",
                 "--abort": "abort", "--quit": "quit"}
        order = [names[a] for a in args if a in names] + ["show"]
        raise GitExit(f"error: option `{_long(order[1])}' is incompatible with "
                      f"--{_long(order[0])}", 129)
    session = in_progress(repo) and repo.gitdir.exists(f"{D}/applying") \
        or in_progress(repo) and repo.gitdir.exists(f"{D}/next")
    if resume:
        if not session:
            raise fatal("Resolve operation not in progress, we are not resuming.")
        if pos:
            raise fatal("previous rebase directory .git/rebase-apply still exists but mbox given.")
        what = resume[0]
        if what == "abort":
            return _abort(ctx, repo)
        if what == "quit":
            remove_dir(repo, D)
            return 0
        if what == "show":
            cur = int(read_line(repo, f"{D}/next") or "1")
            which = vals["show"]
            if which is True or which == "raw":
                ctx.write(repo.gitdir.read(f"{D}/{cur:04d}"))
            elif which == "diff":
                ctx.write(repo.gitdir.read(f"{D}/patch"))
            else:
                raise fatal(f"Invalid value for --show-current-patch: {which}")
            return 0
        if what == "skip":
            _reset_to_head(repo)
            _advance(repo)
            return await _run(ctx, repo)
        return await _continue(ctx, repo)
    if session or in_progress(repo):
        raise fatal("previous rebase directory .git/rebase-apply still exists but mbox given.")
    if vals.get("threeway"):
        raise fatal("am -3 (three-way fallback) is not supported by this port")
    if index_differs_from_head(repo):
        from pysh.ports.git.sequencer import index_flat

        head = repo.flat_tree(repo.tree_of(repo.head()))
        idx = index_flat(repo)
        dirty = sorted(p for p in set(head) | set(idx) if head.get(p) != idx.get(p))
        raise fatal("Dirty index: cannot apply patches (dirty: "
                    + " ".join(decode(p) for p in dirty) + ")")
    data = await _apply.read_inputs(ctx, pos) if pos else await ctx.shell.stdin.read()
    mails = split_mbox(data)
    if pos and pos != ["-"] and not _looks_like_mail(data):
        ctx.ewrite("Patch format detection failed.\n")
        return 128
    if not mails:
        ctx.ewrite("Patch format detection failed.\n")
        return 128
    gd = repo.gitdir
    gd.mkdirs(D)
    for k, m in enumerate(mails, 1):
        write_file(repo, f"{D}/{k:04d}", m)
    keep = "t" if vals.get("keep") else ("b" if vals.get("keep_np") else "f")
    for name, val in (("keep", keep), ("messageid", "f"), ("quiet", "t" if vals.get("quiet") else "f"),
                      ("sign", "t" if vals.get("signoff") else "f"), ("threeway", "f"),
                      ("utf8", "f" if vals.get("noutf8") else "t")):
        write_file(repo, f"{D}/{name}", val + "\n")
    for name in ("apply-opt", "scissors", "quoted-cr"):
        write_file(repo, f"{D}/{name}", "")
    write_file(repo, f"{D}/next", "1\n")
    write_file(repo, f"{D}/last", f"{len(mails)}\n")
    head = repo.head()
    if head is not None:
        repo.write_state("ORIG_HEAD", head + b"\n")
        write_file(repo, f"{D}/abort-safety", head + b"\n")
    else:
        write_file(repo, f"{D}/abort-safety", "")
    write_file(repo, f"{D}/applying", "")
    return await _run(ctx, repo)


def _looks_like_mail(data: bytes) -> bool:
    """git am's detect_patch_format, for the mbox form only."""
    first = next((ln for ln in data.split(b"\n") if ln.strip()), b"")
    return first.startswith(b"From ") or first.startswith(b"From: ") or \
        re.match(rb"[!-9;-~]+:[ \t]", first) is not None


def _long(k: str) -> str:
    return {"cont": "continue", "show": "show-current-patch"}.get(k, k)


def _advance(repo: Repo) -> None:
    cur = int(read_line(repo, f"{D}/next") or "1")
    write_file(repo, f"{D}/next", f"{cur + 1}\n")


def _reset_to_head(repo: Repo) -> None:
    from pysh.ports.git.branch import _hard_reset_tree

    repo.lock_index()
    _hard_reset_tree(repo, repo.tree_of(repo.head()))


def _load_info(ctx: Ctx, repo: Repo, cur: int) -> MailInfo | None:
    """Parse mail ``cur`` into the session's info/msg/patch/final-commit/author-script."""
    mail = repo.gitdir.read_opt(f"{D}/{cur:04d}")
    if mail is None:
        return None
    mi = mailinfo(mail, read_line(repo, f"{D}/keep") or "f")
    if _flag(repo, "sign"):
        mi.msg = append_signoff(ctx, mi.subject + "\n\n" + mi.msg if mi.msg else mi.subject + "\n")
        mi.msg = mi.msg.split("\n", 1)[1].lstrip("\n") if "\n" in mi.msg else ""
    write_file(repo, f"{D}/info", f"Author: {mi.name}\nEmail: {mi.email}\nSubject: {mi.subject}\n"
                                  f"Date: {mi.date}\n\n")
    write_file(repo, f"{D}/msg", mi.msg)
    write_file(repo, f"{D}/patch", mi.patch)
    write_file(repo, f"{D}/final-commit", mi.subject + "\n" + ("\n" + mi.msg if mi.msg else ""))
    write_file(repo, f"{D}/author-script",
               f"GIT_AUTHOR_NAME={_sq(mi.name)}\nGIT_AUTHOR_EMAIL={_sq(mi.email)}\n"
               f"GIT_AUTHOR_DATE={_sq(mi.date)}\n")
    return mi


def _author(repo: Repo) -> Ident:
    vals: dict[str, str] = {}
    for ln in decode(repo.gitdir.read_opt(f"{D}/author-script") or b"").split("\n"):
        k, sep, v = ln.partition("=")
        if sep:
            vals[k] = re.sub(r"'\\''", "'", v[1:-1] if v.startswith("'") else v)
    parsed = parse_date(vals.get("GIT_AUTHOR_DATE", "")) or (0, 0)
    return Ident(vals.get("GIT_AUTHOR_NAME", ""), vals.get("GIT_AUTHOR_EMAIL", ""), *parsed)


def _subject(repo: Repo) -> str:
    for ln in decode(repo.gitdir.read_opt(f"{D}/info") or b"").split("\n"):
        if ln.startswith("Subject: "):
            return ln[9:]
    return ""


def _commit(ctx: Ctx, repo: Repo) -> None:
    from pysh.ports.git.index import build_tree_from_index, make_commit

    tree = build_tree_from_index(repo)
    head = repo.head()
    msg = decode(repo.gitdir.read_opt(f"{D}/final-commit") or b"")
    c = make_commit(repo, tree, [head] if head else [], msg, _author(repo),
                    identity(ctx, "COMMITTER"))
    update_ref(repo, b"HEAD", c.id, f"am: {_subject(repo)}", old=head)
    write_file(repo, f"{D}/abort-safety", c.id + b"\n")


async def _run(ctx: Ctx, repo: Repo) -> int:
    last = int(read_line(repo, f"{D}/last") or "0")
    quiet = _flag(repo, "quiet")
    while True:
        cur = int(read_line(repo, f"{D}/next") or "1")
        if cur > last:
            break
        ctx.tick()
        mi = _load_info(ctx, repo, cur)
        if mi is None:
            _advance(repo)
            continue
        patches = _apply.parse_patches(mi.patch, 1)
        if not patches:
            ctx.write("Patch is empty.\n" + RESOLVE.replace(
                "To restore", 'To record the empty patch as an empty commit, run "git am '
                '--allow-empty".\nTo restore'))
            return 128
        if not quiet:
            ctx.write(f"Applying: {mi.subject}\n")
        t = _apply.Target(ctx, repo, index=True, cached=False)
        if not _apply.apply_all(t, patches):
            ctx.write(f"Patch failed at {cur:04d} {mi.subject}\n")
            ctx.ewrite("hint: Use 'git am --show-current-patch=diff' to see the failed patch\n")
            ctx.write(RESOLVE)
            return 128
        _apply.write_table(t)
        _commit(ctx, repo)
        _advance(repo)
    remove_dir(repo, D)
    return 0


async def _continue(ctx: Ctx, repo: Repo) -> int:
    from pysh.ports.git.sequencer import unmerged

    cur = int(read_line(repo, f"{D}/next") or "1")
    if not repo.gitdir.exists(f"{D}/final-commit"):
        _load_info(ctx, repo, cur)
    subject = _subject(repo)
    if unmerged(repo):
        raise fatal("You still have unmerged paths in your index.\n"
                    "You should 'git add' each file with resolved conflicts to mark them as such.\n"
                    "You might run `git rm` on a file to accept \"deleted by them\" for it.")
    if not index_differs_from_head(repo):
        ctx.write(f"Applying: {subject}\n")
        ctx.write("No changes - did you forget to use 'git add'?\n"
                  "If there is nothing left to stage, chances are that something else\n"
                  "already introduced the same changes; you might want to skip this patch.\n")
        ctx.write(RESOLVE)
        return 128
    if not _flag(repo, "quiet"):
        ctx.write(f"Applying: {subject}\n")
    _commit(ctx, repo)
    _advance(repo)
    return await _run(ctx, repo)


def _abort(ctx: Ctx, repo: Repo) -> int:
    safety = read_line(repo, f"{D}/abort-safety") or ""
    head = repo.head()
    orig = repo.read_state("ORIG_HEAD")
    if head is not None and decode(head) != safety:
        ctx.ewrite("error: You seem to have moved HEAD since the last 'am' failure.\n"
                   "Not rewinding to ORIG_HEAD\n")
        remove_dir(repo, D)
        return 0
    target = orig.strip() if orig else None
    from pysh.ports.git.branch import _hard_reset_tree

    repo.lock_index()
    if target:
        _hard_reset_tree(repo, repo.tree_of(target))
        if target != head:
            update_ref(repo, b"HEAD", target, "am --abort", old=head)
    else:
        _hard_reset_tree(repo, repo.tree_of(head))
    remove_dir(repo, D)
    return 0
