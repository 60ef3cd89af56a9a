"""git format-patch: commits as mbox mails, in git 2.39's format byte for byte.

The mail is git's ``--pretty=email`` (RFC 2047 / RFC 822 quoting of the From name and the
Subject, the subject folded at 78 columns as git's strbuf_add_wrapped_text folds it), then
``---``, the diffstat and summary, the patch, and git's signature. Files are written
through the confinement core under the current directory or ``-o DIR``.
"""

from __future__ import annotations

import errno
import os

from pysh.ports.git import diffing
from pysh.ports.git.core import Ctx, Opts, Repo, fatal, fmt_date, usage_error
from pysh.shellkit import decode, encode

SIGNATURE = "2.39.5"
_RFC822_SPECIALS = set('()<>@,;:\\".[]')


# ------------------------------------------------------------ mail headers
def needs_rfc2047(text: str) -> bool:
    return any(ord(ch) > 127 or ch == "\n" for ch in text) or "=?" in text


def _rfc2047_special(b: int, address: bool) -> bool:
    ch = chr(b)
    if b > 127 or not (32 <= b < 127) or ch in " =?_\t":
        return True
    if not address:
        return False
    return not (ch.isalnum() or ch in "!*+-/")


def add_rfc2047(line_len: int, text: str, address: bool) -> str:
    """git's add_rfc2047: Q-encoding, broken into encoded words of at most 76 columns."""
    out = ["=?UTF-8?q?"]
    line_len += len("UTF-8") + 5
    for ch in text:
        raw = ch.encode("utf-8", "surrogateescape")
        special = len(raw) > 1 or _rfc2047_special(raw[0], address)
        enc = "".join(f"={b:02X}" for b in raw) if special else ch
        if line_len + len(enc) + 2 > 76:
            out.append("?=\n =?UTF-8?q?")
            line_len = len("UTF-8") + 5 + 1
        out.append(enc)
        line_len += len(enc)
    out.append("?=")
    return "".join(out)


def wrap_text(text: str, indent1: int, indent2: int, width: int) -> str:
    """git's strbuf_add_wrapped_text for one-line text (a negative indent1: the length of
    what the line already holds)."""
    out: list[str] = []
    w = indent = indent1
    space: int | None = None
    bol = 0
    if indent < 0:
        w = -indent
        space = 0
    i = 0
    n = len(text)
    while True:
        c = text[i] if i < n else ""
        if not c or c.isspace():
            if w <= width or space is None:
                start = bol
                if not c and i == start:
                    return "".join(out)
                if space is not None:
                    start = space
                else:
                    out.append(" " * indent)
                out.append(text[start:i])
                if not c:
                    return "".join(out)
                space = i
                if c == "\t":
                    w |= 7
                w += 1
                i += 1
            else:
                out.append("\n")
                i = bol = space + (1 if space < n and text[space].isspace() else 0)
                space = None
                w = indent = indent2
            continue
        w += 1
        i += 1


def from_header(name: str, email: str) -> str:
    line = "From: "
    max_length = 78
    if needs_rfc2047(name):
        line += add_rfc2047(len(line), name, True)
        max_length = 76
    else:
        if any(ch in _RFC822_SPECIALS for ch in name):
            name = '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'
        line += wrap_text(name, -6, 1, max_length)
    last = len(line) - line.rfind("\n") - 1
    if max_length < last + 2 + len(email) + 1:
        line += "\n"
    return line + f" <{email}>\n"


def subject_header(prefix: str, title: str) -> str:
    line = "Subject: " + prefix
    if needs_rfc2047(title):
        return line + add_rfc2047(len(line), title, False) + "\n"
    return line + wrap_text(title, -len(line), 1, 78) + "\n"


def split_message(message: str) -> tuple[str, list[str]]:
    """(title: the first paragraph joined by spaces, the body lines after it)."""
    lines = message.split("\n")
    i = 0
    while i < len(lines) and not lines[i].strip():
        i += 1
    title = []
    while i < len(lines) and lines[i].strip():
        title.append(lines[i].strip())
        i += 1
    while i < len(lines) and not lines[i].strip():
        i += 1
    body = lines[i:]
    while body and not body[-1].strip():
        body.pop()
    return " ".join(title), body


def sanitized_subject(title: str) -> str:
    """git's format_sanitized_subject: the patch file's name."""
    out: list[str] = []
    space = 2
    i = 0
    while i < len(title):
        ch = title[i]
        if ch.isascii() and (ch.isalnum() or ch in "._"):
            if space == 1:
                out.append("-")
            space = 0
            out.append(ch)
            if ch == ".":
                while i + 1 < len(title) and title[i + 1] == ".":
                    i += 1
        else:
            space |= 1
        i += 1
    return "".join(out).rstrip(".-")


def _ident(raw: bytes) -> tuple[str, str]:
    s = decode(raw)
    name, _, rest = s.partition("<")
    return name.strip(), rest.rstrip(">").strip()


# ------------------------------------------------------------- the mail
def mail_for(ctx: Ctx, repo: Repo, sha: bytes, c, prefix: str, *, keep: bool, signoff: bool,
             stat_width: int = 72) -> str | None:
    """One commit as format-patch writes it; None when its diff is empty (git skips it)."""
    from pysh.ports.git.log import _blob_loader, commit_changes, mark_binary

    changes = commit_changes(repo, c, renames=True)
    if not changes:
        return None
    mark_binary(repo, changes)
    load = _blob_loader(repo)
    for ch in changes:
        a = diffing.side_content(ch, load, False)
        b = diffing.side_content(ch, load, True)
        if ch.binary or (ch.binary is None and (diffing.is_binary(a) or diffing.is_binary(b))):
            raise fatal(f"format-patch of binary changes is not supported by this port "
                        f"({decode(ch.path)})")
    message = decode(c.message)
    if signoff:
        from pysh.ports.git.sequencer import append_signoff

        message = append_signoff(ctx, message)
    title, body = split_message(message)
    name, email = _ident(c.author)
    out = [f"From {decode(sha)} Mon Sep 17 00:00:00 2001\n", from_header(name, email),
           f"Date: {fmt_date(c.author_time, c.author_timezone, 'rfc')}\n",
           subject_header("" if keep else prefix, title)]
    raw_msg = c.message + (b"" if not signoff else encode(message))
    if any(b > 127 for b in raw_msg):
        out.append("MIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-8\n"
                   "Content-Transfer-Encoding: 8bit\n")
    out.append("\n")
    out.extend(ln + "\n" for ln in body)
    out.append("---\n")
    budget = repo.shell.budget
    out.append(diffing.stat_block(changes, load, budget, width=stat_width))
    out.append(diffing.summary_lines(changes))
    out.append("\n")
    out.extend(decode(diffing.patch_for(ch, load, 3, budget, abbrev=lambda s: repo.short(s)))
               for ch in changes)
    out.append(f"-- \n{SIGNATURE}\n\n")
    return "".join(out)


FP_SPEC = {
    "o": ("arg", "outdir"), "output-directory": ("arg", "outdir"),
    "stdout": ("flag", "stdout"), "numbered": ("flag", "numbered"), "n": ("flag", "numbered"),
    "no-numbered": ("flag", "no_numbered"), "N": ("flag", "no_numbered"),
    "k": ("flag", "keep"), "keep-subject": ("flag", "keep"),
    "subject-prefix": ("arg", "prefix"), "rfc": ("flag", "rfc"),
    "signoff": ("flag", "signoff"), "s": ("flag", "signoff"),
    "root": ("flag", "root"), "start-number": ("arg", "start"),
    "cover-letter": ("flag", "cover"), "no-stat": ("flag", "nostat"), "p": ("flag", "nostat"),
    "q": ("flag", "quiet"), "quiet": ("flag", "quiet"), "always": ("flag", "always"),
    "-NUM": ("arg", "max"),
    "thread": ("optarg", "thread"), "in-reply-to": ("arg", "unsupported"),
    "attach": ("optarg", "unsupported"), "inline": ("optarg", "unsupported"),
    "binary": ("flag", "binary"), "zero-commit": ("flag", "unsupported"),
    "base": ("arg", "unsupported"), "range-diff": ("arg", "unsupported"),
    "interdiff": ("arg", "unsupported"), "v": ("arg", "unsupported"),
    "reroll-count": ("arg", "unsupported"), "suffix": ("arg", "suffix"),
    "numbered-files": ("flag", "numbered_files"),
}


def _commits(ctx: Ctx, repo: Repo, vals: dict, revs_: list[str]) -> list[tuple[bytes, object]]:
    from pysh.ports.git import revs
    from pysh.ports.git.log import log_tips, parse_log_args, select_commits

    maxn = vals.get("max")
    for r in revs_:
        for part in r.replace("...", "..").split(".."):
            if part and revs.resolve(repo, part.lstrip("^"), missing_ok=True) is None:
                raise revs.ambiguous(r)  # git names the whole argument
    if not revs_ and maxn is None and vals.get("root"):
        revs_ = ["HEAD"]
    if not revs_ and maxn is None:
        # git format-patch with nothing: the commits of the branch's upstream..HEAD;
        # without an upstream, nothing
        return []
    if len(revs_) == 1 and ".." not in revs_[0] and not revs_[0].startswith("^") \
            and maxn is None and not vals.get("root"):
        # one revision: <since>..HEAD
        revs_ = [f"{revs_[0]}..HEAD"]
    if maxn is not None and not revs_:
        revs_ = ["HEAD"]
    o = parse_log_args(list(revs_) + ["--no-merges"])
    if maxn is not None:
        o.max_count = maxn
    tips, excl = log_tips(repo, o)
    sel = [(sha, c) for sha, c, _ in select_commits(ctx, repo, o, tips, excl, None)]
    sel.reverse()
    return sel


async def cmd_format_patch(ctx: Ctx, args: list[str]) -> int:
    vals, pos, after = Opts("format-patch", FP_SPEC,
                            "usage: git format-patch [<options>] [<since> | <revision-range>]"
                            ).parse(args)
    repo = ctx.repo
    if "unsupported" in vals or vals.get("thread"):
        raise fatal("this format-patch option is not supported by this port")
    if vals.get("cover"):
        raise fatal("format-patch --cover-letter is not supported by this port")
    if vals.get("numbered") and vals.get("no_numbered"):
        raise fatal("options '-n' and '-N' cannot be used together")
    if vals.get("keep") and vals.get("numbered"):
        raise fatal("options '-n' and '-k' cannot be used together")
    if vals.get("stdout") and vals.get("outdir"):
        raise fatal("options '--stdout' and '--output-directory' cannot be used together")
    if "max" in vals:
        try:
            vals["max"] = int(vals["max"])
        except (TypeError, ValueError):
            raise usage_error("usage: git format-patch [<options>] [<since> | <revision-range>]") from None
    commits = _commits(ctx, repo, vals, pos + (after or []))
    prefix_word = vals.get("prefix", "PATCH")
    if vals.get("rfc"):
        prefix_word = "RFC " + prefix_word
    mails: list[tuple[bytes, object]] = []
    for sha, c in commits:
        ctx.tick()
        mails.append((sha, c))
    total = len(mails)
    numbered = (total > 1 or vals.get("numbered")) and not vals.get("no_numbered") \
        and not vals.get("keep")
    try:
        start = int(vals.get("start", "1"))
    except ValueError:
        raise fatal(f"invalid number '{vals.get('start')}'") from None
    outdir = vals.get("outdir")
    if not vals.get("stdout"):
        base = ctx.shell.abspath(outdir) if outdir else ctx.shell.cwd
        if outdir:
            from pysh.ports.git.core import mkdir_p

            mkdir_p(ctx.shell, base)
    suffix = vals.get("suffix", ".patch")
    n = 0
    for k, (sha, c) in enumerate(mails):
        nr = start + k
        if numbered:
            pre = f"[{prefix_word} {nr}/{start + total - 1}] " if prefix_word else f"[{nr}/{total}] "
        else:
            pre = f"[{prefix_word}] " if prefix_word else ""
        text = mail_for(ctx, repo, sha, c, pre, keep=bool(vals.get("keep")),
                        signoff=bool(vals.get("signoff")))
        if text is None:
            continue
        n += 1
        if vals.get("stdout"):
            ctx.write(text if n == 1 else "\n" + text)
            continue
        title, _ = split_message(decode(c.message))
        if vals.get("numbered_files"):
            fname = str(nr)
        else:
            fname = f"{nr:04d}-{sanitized_subject(title)}"
            fname = fname[:64 - len(suffix) - 1] + suffix
        shown = (outdir.rstrip("/") + "/" if outdir else "") + fname
        _write(ctx, os.path.join(base, fname), encode(text), shown)
        if not vals.get("quiet"):
            ctx.write(shown + "\n")
    return 0


def _write(ctx: Ctx, vpath: str, data: bytes, shown: str) -> None:
    from pysh.ports import _common

    shell = ctx.shell
    try:
        fd = shell.core.open(vpath, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666 & ~shell.umask)
    except OSError as e:
        raise fatal(f"cannot open patch file {shown}: {os.strerror(e.errno or errno.EIO)}") \
            from None
    try:
        _common.write_all(fd, data, shell.budget)
    finally:
        os.close(fd)
