"""git log, show, cat-file, grep, blame."""

from __future__ import annotations

import heapq
import re

from dulwich.objects import Blob, Commit, Tag, Tree

from pysh.ports.git import diffing, revs
from pysh.ports.git.core import (
    Ctx,
    GitExit,
    Opts,
    Pathspec,
    Repo,
    fatal,
    fmt_date,
    fmt_tz,
    parse_date,
    quote_path,
    subject_of,
    usage_error,
)
from pysh.shellkit import decode, encode


# ------------------------------------------------------------ commit walks
def walk_date_order(repo: Repo, tips: list[bytes], exclude: list[bytes], *,
                    first_parent: bool = False):
    """Commits reachable from ``tips`` but not ``exclude``, newest commit date first."""
    hidden: set[bytes] = set()
    for e in exclude:
        hidden |= revs.ancestors(repo, e)
    seen: set[bytes] = set()
    heap: list = []
    counter = 0
    for t in tips:
        if t in seen or t in hidden:
            continue
        seen.add(t)
        c = repo[t]
        heapq.heappush(heap, (-c.commit_time, counter, t, c))
        counter += 1
    while heap:
        repo.ctx.tick()
        _, _, sha, c = heapq.heappop(heap)
        yield sha, c
        parents = c.parents[:1] if first_parent else c.parents
        for p in parents:
            if p in seen or p in hidden:
                continue
            seen.add(p)
            pc = repo.get(p)
            if pc is None:
                continue
            heapq.heappush(heap, (-pc.commit_time, counter, p, pc))
            counter += 1


def topo_sort(repo: Repo, commits: list[tuple[bytes, Commit]]) -> list[tuple[bytes, Commit]]:
    """git's REV_SORT_IN_GRAPH_ORDER over a date-ordered list."""
    present = {sha: c for sha, c in commits}
    indeg = {sha: 1 for sha in present}
    for _sha, c in commits:
        for p in c.parents:
            if p in indeg:
                indeg[p] += 1
    stack = [sha for sha, _ in commits if indeg[sha] == 1]
    stack.reverse()
    out = []
    while stack:
        sha = stack.pop()
        c = present[sha]
        for p in c.parents:
            if p not in indeg or indeg[p] == 0:
                continue
            indeg[p] -= 1
            if indeg[p] == 1:
                stack.append(p)
        indeg[sha] = 0
        out.append((sha, c))
    return out


# ---------------------------------------------------------------- pretty
def _ident_parts(raw: bytes) -> tuple[str, str]:
    m = re.fullmatch(rb"(.*?) ?<(.*)>", raw)
    if not m:
        return decode(raw), ""
    return decode(m.group(1)), decode(m.group(2))


def decorations(repo: Repo) -> dict[bytes, list[str]]:
    """sha -> ['HEAD -> main', 'tag: v1', 'origin/main', ...] in git's order."""
    out: dict[bytes, list[str]] = {}
    head_ref = repo.head_ref()
    head = repo.head()
    refs = repo.all_refs()
    items = []
    for ref, sha in refs.items():
        target = sha
        obj = repo.get(sha)
        while isinstance(obj, Tag):
            target = obj.object[1]
            obj = repo.get(target)
        if ref.startswith(b"refs/heads/"):
            name, kind = decode(ref[11:]), 1
        elif ref.startswith(b"refs/remotes/"):
            name, kind = decode(ref[13:]), 2
        elif ref.startswith(b"refs/tags/"):
            name, kind = "tag: " + decode(ref[10:]), 3
        elif ref == b"refs/stash":
            name, kind = "refs/stash", 4
        else:
            continue
        items.append((target, kind, ref, name))
    items.sort(key=lambda t: t[2])
    cur = head_ref if head_ref is not None and head_ref.startswith(b"refs/heads/") else None
    # git prepends each decoration as it loads refs (sorted), then HEAD: newest first
    for target, _kind, ref, name in reversed(items):
        if ref == cur:
            continue
        out.setdefault(target, []).append(name)
    if head is not None:
        lst = out.setdefault(head, [])
        if cur is not None:
            lst.insert(0, f"HEAD -> {decode(cur[11:])}")
        else:
            lst.insert(0, "HEAD")
        if cur is not None and repo.ref_sha(cur) != head:
            pass
    return out


class Pretty:
    def __init__(self, repo: Repo, fmt: str, *, abbrev: bool, abbrev_n: int | None = None,
                 date: str = "default", decorate: bool = False):
        self.repo = repo
        self.abbrev = abbrev
        self.n = abbrev_n
        self.date = date
        self.deco = decorations(repo) if decorate or "%d" in fmt or "%D" in fmt else None
        self.decorate = decorate
        self.kind = "medium"
        self.user = None
        self.sep = False
        self.reflog: tuple[str, str, bytes] | None = None  # %gd, %gs, the entry's identity
        self.show_notes = False  # "Notes:" after the message (git log/show without --pretty)
        self.notes_ref: str | None = None
        self._notes: dict | None = None
        if fmt in ("", "medium"):
            self.kind = "medium"
        elif fmt in ("oneline", "short", "full", "fuller", "raw", "reference", "email"):
            self.kind = fmt
        elif fmt.startswith("format:"):
            self.kind, self.user, self.sep = "user", fmt[7:], True
        elif fmt.startswith("tformat:"):
            self.kind, self.user = "user", fmt[8:]
        elif "%" in fmt:
            self.kind, self.user = "user", fmt
        else:
            raise fatal(f"invalid --pretty format: {fmt}")

    def h(self, sha: bytes) -> str:
        return self.repo.short(sha, self.n) if self.abbrev else decode(sha)

    def deco_str(self, sha: bytes, wrap: bool = True) -> str:
        if self.deco is None:
            return ""
        names = self.deco.get(sha)
        if not names:
            return ""
        s = ", ".join(names)
        return f" ({s})" if wrap else s

    def header(self, sha: bytes, c: Commit, graph_merge: bool = False) -> str:
        """The commit's text before any diff output (no trailing blank line)."""
        k = self.kind
        if k == "user":
            return self.expand(self.user, sha, c)
        if k == "oneline":
            return f"{self.h(sha)}{self.deco_str(sha) if self.decorate else ''} {subject_of(c.message)}\n"
        if k == "reference":
            g = _gm_short(c.author_time, c.author_timezone)
            return f"{self.repo.short(sha)} ({subject_of(c.message)}, {g})\n"
        out = [f"commit {self.h(sha) if self.abbrev else decode(sha)}"
               f"{self.deco_str(sha) if self.decorate else ''}\n"]
        if len(c.parents) > 1:
            out.append("Merge: " + " ".join(self.repo.short(p) for p in c.parents) + "\n")
        if k == "raw":
            out = [f"commit {decode(sha)}\n", f"tree {decode(c.tree)}\n"]
            out += [f"parent {decode(p)}\n" for p in c.parents]
            out.append(f"author {decode(c.author)} {c.author_time} {fmt_tz(c.author_timezone)}\n")
            out.append(f"committer {decode(c.committer)} {c.commit_time} {fmt_tz(c.commit_timezone)}\n")
        elif k == "fuller":
            out.append(f"Author:     {decode(c.author)}\n")
            out.append(f"AuthorDate: {fmt_date(c.author_time, c.author_timezone, self.date)}\n")
            out.append(f"Commit:     {decode(c.committer)}\n")
            out.append(f"CommitDate: {fmt_date(c.commit_time, c.commit_timezone, self.date)}\n")
        elif k == "full":
            out.append(f"Author: {decode(c.author)}\n")
            out.append(f"Commit: {decode(c.committer)}\n")
        elif k == "short":
            out.append(f"Author: {decode(c.author)}\n")
        else:
            out.append(f"Author: {decode(c.author)}\n")
            out.append(f"Date:   {fmt_date(c.author_time, c.author_timezone, self.date)}\n")
        out.append("\n")
        msg = decode(c.message)
        lines = msg.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        while lines and not lines[0].strip():
            lines.pop(0)
        if k == "short":
            body = []
            for ln in lines:
                if not ln.strip():
                    break
                body.append(ln)
            lines = body
        while lines and not lines[-1].strip():
            lines.pop()
        for ln in lines:
            out.append("    " + ln + "\n")
        if self.show_notes and k != "email":
            note = self.note(sha)
            if note:
                out.append(f"\nNotes{self.notes_label()}:\n")
                out.extend("    " + ln + "\n" for ln in note.rstrip("\n").split("\n"))
        return "".join(out)

    def notes_label(self) -> str:
        from pysh.ports.git import notes

        ref = notes.default_ref(self.repo, self.notes_ref)
        if self.notes_ref is None or ref == notes.default_ref(self.repo):
            return ""
        return " (" + ref.removeprefix("refs/notes/") + ")"

    def note(self, sha: bytes) -> str:
        """The commit's note in the default notes ref (git notes), or ''."""
        from pysh.ports.git import notes

        if self._notes is None:
            self._notes = notes.read_notes(self.repo, notes.default_ref(self.repo, self.notes_ref))
        blob = self._notes.get(sha)
        return decode(self.repo[blob].as_raw_string()) if blob is not None else ""

    def expand(self, fmt: str, sha: bytes, c: Commit) -> str:
        out = []
        i = 0
        n = len(fmt)
        while i < n:
            ch = fmt[i]
            if ch != "%" or i + 1 >= n:
                out.append(ch)
                i += 1
                continue
            i += 1
            x = fmt[i]
            i += 1
            if x == "%":
                out.append("%")
            elif x == "n":
                out.append("\n")
            elif x == "H":
                out.append(decode(sha))
            elif x == "h":
                out.append(self.repo.short(sha, self.n))
            elif x == "T":
                out.append(decode(c.tree))
            elif x == "t":
                out.append(self.repo.short(c.tree, self.n))
            elif x == "P":
                out.append(" ".join(decode(p) for p in c.parents))
            elif x == "p":
                out.append(" ".join(self.repo.short(p, self.n) for p in c.parents))
            elif x in "ac" and i < n:
                y = fmt[i]
                i += 1
                raw = c.author if x == "a" else c.committer
                t = c.author_time if x == "a" else c.commit_time
                tz = c.author_timezone if x == "a" else c.commit_timezone
                name, email = _ident_parts(raw)
                val = {
                    "n": name, "N": name, "e": email, "E": email,
                    "l": email.split("@")[0], "L": email.split("@")[0],
                    "d": fmt_date(t, tz, self.date), "D": fmt_date(t, tz, "rfc"),
                    "r": fmt_date(t, tz, "relative"), "t": str(t), "i": fmt_date(t, tz, "iso"),
                    "I": fmt_date(t, tz, "iso-strict"), "s": fmt_date(t, tz, "short"),
                }.get(y)
                if val is None:
                    out.append("%" + x + y)
                else:
                    out.append(val)
            elif x == "s":
                out.append(subject_of(c.message))
            elif x == "N":
                out.append(self.note(sha))
            elif x == "f":
                s = re.sub(r"[^A-Za-z0-9._]+", "-", subject_of(c.message)).strip("-.")
                out.append(s)
            elif x == "b":
                out.append(_body(c.message))
            elif x == "B":
                out.append(decode(c.message))
            elif x == "e":
                out.append("")
            elif x == "g" and i < n and self.reflog is not None:
                y = fmt[i]
                i += 1
                sel, gmsg, who = self.reflog
                name, email = _ident_parts(who)
                val = {"d": sel, "D": sel, "s": gmsg, "n": name, "N": name, "e": email,
                       "E": email}.get(y)
                out.append("%g" + y if val is None else val)
            elif x == "d":
                out.append(self.deco_str(sha, True))
            elif x == "D":
                out.append(self.deco_str(sha, False))
            elif x == "x" and i + 1 < n + 1:
                hexs = fmt[i:i + 2]
                i += 2
                try:
                    out.append(chr(int(hexs, 16)))
                except ValueError:
                    out.append("%x" + hexs)
            elif x == "C":
                # colours: never (output is not a terminal)
                if fmt.startswith("(", i):
                    j = fmt.find(")", i)
                    i = j + 1 if j != -1 else n
                else:
                    for word in ("reset", "red", "green", "blue"):
                        if fmt.startswith(word, i):
                            i += len(word)
                            break
            else:
                out.append("%" + x)
        return "".join(out)


def _gm_short(t: int, tz: int) -> str:
    return fmt_date(t, tz, "short")


def _body(message: bytes) -> str:
    text = decode(message)
    lines = text.split("\n")
    i = 0
    while i < len(lines) and not lines[i].strip():
        i += 1
    while i < len(lines) and lines[i].strip():
        i += 1
    while i < len(lines) and not lines[i].strip():
        i += 1
    body = "\n".join(lines[i:])
    if body and not body.endswith("\n"):
        body += "\n"
    return body


# ------------------------------------------------------------------ graph
class Graph:
    """A port of git's graph.c (columns, mapping, post-merge and collapsing rows)."""

    PADDING, SKIP, PRE_COMMIT, COMMIT, POST_MERGE, COLLAPSING = range(6)

    def __init__(self):
        self.commit = None
        self.parents: list[bytes] = []
        self.num_parents = 0
        self.width = 0
        self.state = self.PADDING
        self.prev_state = self.PADDING
        self.commit_index = 0
        self.prev_commit_index = 0
        self.merge_layout = 0
        self.edges_added = 0
        self.prev_edges_added = 0
        self.columns: list[bytes] = []
        self.new_columns: list[bytes] = []
        self.mapping: list[int] = []
        self.old_mapping: list[int] = []

    # -- update ---------------------------------------------------------------
    def update(self, commit: bytes, parents: list[bytes]) -> None:
        self.commit = commit
        self.parents = parents
        self.num_parents = len(parents)
        self.prev_commit_index = self.commit_index
        self._update_columns()
        if self.state != self.PADDING:
            self.state = self.SKIP
        else:
            self.state = self.COMMIT

    def _find_new(self, c: bytes) -> int:
        try:
            return self.new_columns.index(c)
        except ValueError:
            return -1

    def _insert(self, c: bytes, idx: int) -> None:
        i = self._find_new(c)
        if i < 0:
            i = len(self.new_columns)
            self.new_columns.append(c)
        if self.num_parents > 1 and idx > -1 and self.merge_layout == -1:
            dist = idx - i
            shift = 2 * dist - 3 if dist > 1 else 1
            self.merge_layout = 0 if dist > 0 else 1
            self.edges_added = self.num_parents + self.merge_layout - 2
            mapping_idx = self.width + (self.merge_layout - 1) * shift
            self.width += 2 * self.merge_layout
        elif self.edges_added > 0 and self.width >= 2 and i == self.mapping[self.width - 2]:
            mapping_idx = self.width - 2
            self.edges_added = -1
        else:
            mapping_idx = self.width
            self.width += 2
        self.mapping[mapping_idx] = i

    def _update_columns(self) -> None:
        self.columns, self.new_columns = self.new_columns, []
        num_columns = len(self.columns)
        max_new = num_columns + self.num_parents
        self.mapping = [-1] * (2 * max_new + 2)
        self.mapping_size = 2 * max_new
        self.width = 0
        self.prev_edges_added = self.edges_added
        self.edges_added = 0
        seen_this = False
        for i in range(num_columns + 1):
            if i == num_columns:
                if seen_this:
                    break
                col = self.commit
            else:
                col = self.columns[i]
            if col == self.commit:
                seen_this = True
                self.commit_index = i
                self.merge_layout = -1
                for p in self.parents:
                    self._insert(p, i)
                if self.num_parents == 0:
                    self.width += 2
            else:
                self._insert(col, -1)
        while self.mapping_size > 1 and self.mapping[self.mapping_size - 1] < 0:
            self.mapping_size -= 1

    def _mapping_correct(self) -> bool:
        for i in range(self.mapping_size):
            t = self.mapping[i]
            if t >= 0 and t != i // 2:
                return False
        return True

    def _set_state(self, s: int) -> None:
        self.prev_state = self.state
        self.state = s

    def finished(self) -> bool:
        return self.state == self.PADDING

    # -- lines --------------------------------------------------------------------
    def next_line(self) -> tuple[str, bool]:
        """(the next graph prefix, whether it was the commit line)."""
        st = self.state
        shown = False
        if st == self.PADDING:
            line = "".join("| " for _ in self.new_columns)
        elif st == self.SKIP:
            line = "..."
            self._set_state(self.COMMIT)
        elif st == self.COMMIT:
            line = self._commit_line()
            shown = True
        elif st == self.POST_MERGE:
            line = self._post_merge_line()
        elif st == self.PRE_COMMIT:
            line = "".join("| " for _ in self.columns)
            self._set_state(self.COMMIT)
        else:
            line = self._collapsing_line()
        if len(line) < self.width:
            line += " " * (self.width - len(line))
        return line, shown

    def padding_line(self) -> str:
        if self.state != self.COMMIT:
            return self.next_line()[0]
        out = []
        for c in self.columns:
            out.append("|")
            if c == self.commit and self.num_parents > 2:
                out.append(" " * ((self.num_parents - 2) * 2))
            else:
                out.append(" ")
        line = "".join(out)
        if len(line) < self.width:
            line += " " * (self.width - len(line))
        self.prev_state = self.PADDING
        return line

    def _commit_line(self) -> str:
        out = []
        seen_this = False
        n = len(self.columns)
        for i in range(n + 1):
            if i == n:
                if seen_this:
                    break
                col = self.commit
            else:
                col = self.columns[i]
            if col == self.commit:
                seen_this = True
                out.append("*")
                if self.num_parents > 2:
                    out.append(self._octopus())
            elif seen_this and self.edges_added > 1:
                out.append("\\")
            elif seen_this and self.edges_added == 1:
                if self.prev_state == self.POST_MERGE and self.prev_edges_added > 0 and \
                        self.prev_commit_index < i:
                    out.append("\\")
                else:
                    out.append("|")
            elif self.prev_state == self.COLLAPSING and 2 * i + 1 < len(self.old_mapping) and \
                    self.old_mapping[2 * i + 1] == i and self.mapping[2 * i] < i:
                out.append("/")
            else:
                out.append("|")
            out.append(" ")
        if self.num_parents > 1:
            self._set_state(self.POST_MERGE)
        elif self._mapping_correct():
            self._set_state(self.PADDING)
        else:
            self._set_state(self.COLLAPSING)
        return "".join(out)

    def _octopus(self) -> str:
        dashed = self.num_parents - 2 if self.merge_layout == 1 else self.num_parents - 1
        # git: dashes for the extra parents ("*-." / "*-.-.")
        s = ""
        for k in range(dashed):
            s += "-" if k < dashed - 1 or True else ""
        return ("-" * (2 * dashed - 1)).replace("--", "-.") if dashed > 0 else ""

    def _post_merge_line(self) -> str:
        out = []
        seen_this = False
        n = len(self.columns)
        first_parent = self.parents[0] if self.parents else None
        parent_col_seen = False
        for i in range(n + 1):
            if i == n:
                if seen_this:
                    break
                col = self.commit
            else:
                col = self.columns[i]
            if col == self.commit:
                seen_this = True
                idx = self.merge_layout
                for j in range(self.num_parents):
                    out.append("/|\\"[idx])
                    if idx == 2:
                        if self.edges_added > 0 or j < self.num_parents - 1:
                            out.append(" ")
                    else:
                        idx += 1
                if self.edges_added == 0:
                    out.append(" ")
            elif seen_this:
                out.append("\\ " if self.edges_added > 0 else "| ")
            else:
                out.append("|")
                if self.merge_layout != 0 or i != self.commit_index - 1:
                    out.append("_" if parent_col_seen else " ")
            if col == first_parent:
                parent_col_seen = True
        if self._mapping_correct():
            self._set_state(self.PADDING)
        else:
            self._set_state(self.COLLAPSING)
        return "".join(out)

    def _collapsing_line(self) -> str:
        used_horizontal = False
        horizontal_edge = -1
        horizontal_edge_target = -1
        self.mapping, self.old_mapping = self.old_mapping, self.mapping
        size = self.mapping_size
        if len(self.mapping) < len(self.old_mapping):
            self.mapping = self.mapping + [-1] * (len(self.old_mapping) - len(self.mapping))
        for i in range(len(self.mapping)):
            self.mapping[i] = -1
        for i in range(size):
            target = self.old_mapping[i]
            if target < 0:
                continue
            if target * 2 == i:
                self.mapping[i] = target
            elif self.mapping[i - 1] < 0:
                self.mapping[i - 1] = target
                if horizontal_edge == -1:
                    horizontal_edge = i
                    horizontal_edge_target = target
                    for j in range(target * 2 + 3, i - 2, 2):
                        self.mapping[j] = target
            elif self.mapping[i - 1] == target:
                pass
            else:
                self.mapping[i - 2] = target
                if horizontal_edge == -1:
                    horizontal_edge_target = target
                    horizontal_edge = i - 1
                    for j in range(target * 2 + 3, i - 2, 2):
                        self.mapping[j] = target
        self.old_mapping = list(self.mapping)
        if self.mapping[size - 1] < 0:
            size -= 1
        self.mapping_size = size
        out = []
        for i in range(size):
            target = self.mapping[i]
            if target < 0:
                out.append(" ")
            elif target * 2 == i:
                out.append("|")
            elif target == horizontal_edge_target and i != horizontal_edge - 1:
                if i != target * 2 + 3:
                    self.mapping[i] = -1
                used_horizontal = True
                out.append("_")
            else:
                if used_horizontal and i < horizontal_edge:
                    self.mapping[i] = -1
                out.append("/")
        if self._mapping_correct():
            self._set_state(self.PADDING)
        return "".join(out)


# -------------------------------------------------------------------- log
LOG_USAGE = "usage: git log [<options>] [<revision-range>] [[--] <path>...]"


class LogOptions:
    def __init__(self):
        self.max_count: int | None = None
        self.skip = 0
        self.fmt = "medium"
        self.abbrev: bool | None = None
        self.abbrev_n: int | None = None  # git's default length
        self.date = "default"
        self.patch = False
        self.stat = False
        self.shortstat = False
        self.numstat = False
        self.name_only = False
        self.name_status = False
        self.summary = False
        self.no_patch = False
        self.ctx_lines = 3
        self.graph = False
        self.all = False
        self.branches = False
        self.tags = False
        self.reverse = False
        self.first_parent = False
        self.merges: bool | None = None
        self.parents_range: list[int | None] = [None, None]  # --min-parents, --max-parents
        self.since: int | None = None
        self.until: int | None = None
        self.authors: list[str] = []
        self.committers: list[str] = []
        self.greps: list[str] = []
        self.all_match = False
        self.icase = False
        self.invert_grep = False
        self.regex_kind = "basic"
        self.follow = False
        self.decorate: bool | None = None
        self.renames = True
        self.topo = False
        self.revs: list[str] = []
        self.paths: list[str] = []
        self.raw = False
        self.hidden: set[bytes] = set()
        self.pickaxe: str | None = None  # -S<string>
        self.pickaxe_grep: str | None = None  # -G<regex>
        self.pickaxe_regex = False
        self.pickaxe_all = False
        self.default_head = True  # no revision given: start at HEAD (rev-list: nothing)
        self.notes: bool | None = None  # --notes / --no-notes
        self.notes_ref: str | None = None  # --notes=<ref>
        self.pretty_given = False


def _need_int(opt: str, v: str) -> int:
    try:
        return int(v)
    except ValueError:
        raise fatal(f"'{v}': not an integer") from None


def parse_log_args(args: list[str], *, show: bool = False) -> LogOptions:
    o = LogOptions()
    i = 0
    while i < len(args):
        a = args[i]
        i += 1

        def val(a: str = a) -> str:
            nonlocal i
            if "=" in a:
                return a.split("=", 1)[1]
            if i >= len(args):
                raise fatal(f"option '{a.lstrip('-')}' requires a value")
            v = args[i]
            i += 1
            return v

        if a == "--":
            o.paths.extend(args[i:])
            break
        if not a.startswith("-") or a == "-":
            o.revs.append(a)
            continue
        if re.fullmatch(r"-\d+", a):
            o.max_count = int(a[1:])
        elif a == "-n" or a.startswith("--max-count"):
            o.max_count = _need_int(a, val())
        elif a.startswith("-n") and a[2:].isdigit():
            o.max_count = int(a[2:])
        elif a.startswith("--skip"):
            o.skip = _need_int(a, val())
        elif a == "--oneline":
            o.fmt, o.abbrev = "oneline", True if o.abbrev is None else o.abbrev
            o.pretty_given = True
        elif a in ("--notes", "--show-notes", "--no-notes"):
            o.notes = a != "--no-notes"
        elif a.startswith("--notes=") or a.startswith("--show-notes="):
            o.notes, o.notes_ref = True, a.split("=", 1)[1]
        elif a.startswith("--pretty") or a.startswith("--format"):
            o.pretty_given = True
            if a in ("--pretty",):
                o.fmt = "medium"
            else:
                v = a.split("=", 1)[1] if "=" in a else val()
                o.fmt = v if a.startswith("--pretty") else (v if v in () else
                                                           ("tformat:" + v if "%" in v or v == ""
                                                            else v))
        elif a == "--abbrev-commit":
            o.abbrev = True
        elif a == "--no-abbrev-commit" or a == "--no-abbrev":
            o.abbrev = False
        elif a.startswith("--abbrev="):
            o.abbrev_n = _need_int(a, a.split("=", 1)[1])
        elif a.startswith("--date"):
            v = val()
            o.date = {"local": "default", "iso8601": "iso", "iso8601-strict": "iso-strict",
                      "rfc2822": "rfc"}.get(v, v)
        elif a in ("-p", "-u", "--patch"):
            o.patch = True
        elif a in ("-s", "--no-patch"):
            o.no_patch = True
        elif a == "--stat" or a.startswith("--stat="):
            o.stat = True
            if "=" in a:
                o.stat_width, o.stat_name_width = diffing.parse_stat_arg(a.split("=", 1)[1])
        elif a == "--check":
            o.check = True
        elif _word_option(o, a):
            o.patch = o.patch or getattr(o, "words", None) is not None
        elif a == "--shortstat":
            o.shortstat = True
        elif a == "--numstat":
            o.numstat = True
        elif a == "--name-only":
            o.name_only = True
        elif a == "--name-status":
            o.name_status = True
        elif a == "--summary":
            o.summary = True
        elif a.startswith("-U") or a.startswith("--unified"):
            v = a[2:] if a.startswith("-U") and len(a) > 2 else val()
            o.ctx_lines = _need_int(a, v)
            o.patch = True
        elif a == "--graph":
            o.graph = True
        elif a == "--all":
            o.all = True
        elif a == "--branches":
            o.branches = True
        elif a == "--tags":
            o.tags = True
        elif a == "--reverse":
            o.reverse = True
        elif a == "--first-parent":
            o.first_parent = True
        elif a == "--merges":
            o.merges = True
        elif a == "--no-merges":
            o.merges = False
        elif a.startswith(("--max-parents=", "--min-parents=")) and a.split("=", 1)[1].isdigit():
            o.parents_range[a.startswith("--max")] = int(a.split("=", 1)[1])
        elif a in ("--no-max-parents", "--no-min-parents"):
            o.parents_range[a == "--no-max-parents"] = None
        elif a.startswith("--since") or a.startswith("--after"):
            v = val()
            d = parse_date(v)
            if d is None:
                raise fatal(f"invalid date '{v}'")
            o.since = d[0]
        elif a.startswith("--until") or a.startswith("--before"):
            v = val()
            d = parse_date(v)
            if d is None:
                raise fatal(f"invalid date '{v}'")
            o.until = d[0]
        elif a.startswith("-S") or a.startswith("-G"):
            v = a[2:] if len(a) > 2 else val("-" + a[1])
            if a[1] == "S":
                o.pickaxe = v
            else:
                o.pickaxe_grep = v
        elif a == "--pickaxe-regex":
            o.pickaxe_regex = True
        elif a == "--pickaxe-all":
            o.pickaxe_all = True
        elif a.startswith("--author"):
            o.authors.append(val())
        elif a.startswith("--committer"):
            o.committers.append(val())
        elif a.startswith("--grep"):
            o.greps.append(val())
        elif a == "--all-match":
            o.all_match = True
        elif a in ("-i", "--regexp-ignore-case"):
            o.icase = True
        elif a == "--invert-grep":
            o.invert_grep = True
        elif a in ("-E", "--extended-regexp"):
            o.regex_kind = "extended"
        elif a in ("-F", "--fixed-strings"):
            o.regex_kind = "fixed"
        elif a == "--follow":
            o.follow = True
        elif a == "--decorate" or a.startswith("--decorate="):
            o.decorate = not a.endswith("=no")
        elif a == "--no-decorate":
            o.decorate = False
        elif a in ("--no-renames",):
            o.renames = False
        elif a in ("-M", "--find-renames") or a.startswith("-M") or a.startswith("--find-renames="):
            o.renames = True
        elif a in ("--topo-order", "--date-order", "--author-date-order"):
            o.topo = a == "--topo-order"
        elif a in ("--no-color", "--color=never", "--no-ext-diff", "--no-textconv", "--cc",
                   "-m", "--full-history", "--simplify-merges", "--no-expand-tabs",
                   "--use-mailmap", "--no-mailmap", "--full-diff", "--no-walk", "-c", "--raw"):
            if a == "--no-walk":
                o.max_count = o.max_count
            if a == "--raw":
                o.raw = True
            continue
        elif a.startswith("--color"):
            continue
        else:
            raise usage_error(f"fatal: unrecognized argument: {a}")
    return o


def _word_option(o, a: str) -> bool:
    from pysh.ports.git.diffcmd import parse_word_option

    return parse_word_option(o, a)


def _compile_grep(o: LogOptions, pats: list[str]):
    flags = re.I if o.icase else 0
    out = []
    for p in pats:
        if o.regex_kind == "fixed":
            out.append(re.compile(re.escape(p), flags))
        else:
            rx = p if o.regex_kind == "extended" else _bre_to_py(p)
            try:
                out.append(re.compile(rx, flags | re.M))
            except re.error:
                raise fatal(f"invalid regular expression: {p}") from None
    return out


def _bre_to_py(p: str) -> str:
    """A basic regular expression (POSIX BRE) as a Python regex (common subset)."""
    out = []
    i = 0
    while i < len(p):
        c = p[i]
        if c == "\\" and i + 1 < len(p):
            n = p[i + 1]
            if n in "(){}|+?":
                out.append(n)
            else:
                out.append("\\" + n)
            i += 2
            continue
        if c in "(){}|+?":
            out.append("\\" + c)
        else:
            out.append(c)
        i += 1
    return "".join(out)


def _commit_matches(o: LogOptions, c: Commit, author_rx, committer_rx, grep_rx) -> bool:
    if o.merges is True and len(c.parents) < 2:
        return False
    if o.merges is False and len(c.parents) > 1:
        return False
    lo, hi = o.parents_range
    if (lo is not None and len(c.parents) < lo) or (hi is not None and len(c.parents) > hi):
        return False
    if o.since is not None and c.commit_time < o.since:
        return False
    if o.until is not None and c.commit_time > o.until:
        return False
    checks = []
    if author_rx:
        line = decode(c.author)
        checks.append(any(r.search(line) for r in author_rx))
    if committer_rx:
        line = decode(c.committer)
        checks.append(any(r.search(line) for r in committer_rx))
    if grep_rx:
        msg = decode(c.message)
        hits = [bool(r.search(msg)) for r in grep_rx]
        g = all(hits) if o.all_match else any(hits)
        if o.invert_grep:
            g = not g
        checks.append(g)
    return all(checks)


def _blob_loader(repo: Repo):
    def load(sha: bytes) -> bytes:
        if sha == diffing.ZERO:
            return b""
        obj = repo.get(sha)
        return obj.as_raw_string() if isinstance(obj, Blob) else b""

    return load


def commit_changes(repo: Repo, c: Commit, *, renames: bool = True, pathspec=None,
                   parent_index: int = 0) -> list[diffing.Change]:
    old_tree = repo[c.parents[parent_index]].tree if c.parents else None
    old = repo.flat_tree(old_tree)
    new = repo.flat_tree(c.tree)
    if pathspec is not None:
        old = {p: v for p, v in old.items() if pathspec.match(p)}
        new = {p: v for p, v in new.items() if pathspec.match(p)}
    ch = diffing.compare(old, new)
    if renames:
        ch = diffing.detect_renames(ch, _blob_loader(repo), budget=repo.shell.budget)
    return ch


def mark_binary(repo: Repo, changes: list[diffing.Change]) -> None:
    """The diff attribute (``-diff``, ``binary``, ``diff``) of each changed path."""
    if repo.vtop is None or not changes:
        return
    attrs = repo.attrs
    for c in changes:
        c.binary = attrs.diff_binary(c.path)


def diff_output(repo: Repo, changes: list[diffing.Change], o, *, default_patch: bool,
                load=None) -> str:
    """The diff part of a log/show entry (stat, summary, patch...)."""
    mark_binary(repo, changes)
    load = load or _blob_loader(repo)
    budget = repo.shell.budget
    if getattr(o, "ws", None) is not None:
        changes = diffing.without_folded(changes, load, o.ws, budget)
    parts = []
    patch = (o.patch or (default_patch and not (o.stat or o.shortstat or o.numstat or o.name_only
                                                  or o.name_status or o.summary or o.raw))) \
        and not o.no_patch
    if o.no_patch and not (o.stat or o.name_only or o.name_status or o.numstat or o.shortstat):
        return ""
    if o.raw:
        rows = []
        for c in changes:
            st = c.status if c.status != "R" else f"R{c.score:03d}"
            names = quote_path(c.path) if c.status != "R" else \
                f"{quote_path(c.old_path)}\t{quote_path(c.new_path)}"
            rows.append(f":{c.old_mode:06o} {c.new_mode:06o} {repo.short(c.old_sha) if c.old_sha != diffing.ZERO else '0000000'} "
                        f"{repo.short(c.new_sha) if c.new_sha != diffing.ZERO else '0000000'} {st}\t{names}\n")
        parts.append("".join(rows))
    if o.name_only:
        parts.append(diffing.name_only_lines(changes))
    if o.name_status:
        parts.append(diffing.name_status_lines(changes))
    if o.numstat:
        parts.append(diffing.numstat_lines(changes, load, budget, key=getattr(o, "ws", None)))
    if getattr(o, "check", False):  # whitespace errors only; the status says whether any
        text, o.check_failed = diffing.check_lines(changes, load, budget)
        return text
    if o.stat:
        parts.append(diffing.stat_block(changes, load, budget, getattr(o, "stat_width", 0),
                                        getattr(o, "stat_name_width", 0),
                                        key=getattr(o, "ws", None)) if changes else "")
    elif o.shortstat and changes:
        parts.append(diffing.shortstat_for(changes, load, budget, key=getattr(o, "ws", None)))
    if o.summary:
        parts.append(diffing.summary_lines(changes))
    if patch:
        words, key = getattr(o, "words", None), getattr(o, "ws", None)
        pt = "".join(decode(diffing.patch_for(c, load, o.ctx_lines, budget, words=words, key=key))
                     for c in changes)
        if pt and parts and any(parts):
            parts.append("\n")
        parts.append(pt)
    return "".join(parts)


def _follow_changes(repo: Repo, c: Commit, path: bytes) -> tuple[list[diffing.Change], bytes]:
    """The changes of one commit touching ``path`` (following a rename); the path before it."""
    old_tree = repo[c.parents[0]].tree if c.parents else None
    old = repo.flat_tree(old_tree)
    new = repo.flat_tree(c.tree)
    if old.get(path) == new.get(path):
        return [], path
    if path in new and path not in old:
        ch = diffing.compare(old, new)
        ch = diffing.detect_renames(ch, _blob_loader(repo), budget=repo.shell.budget)
        for x in ch:
            if x.status == "R" and x.new_path == path:
                return [x], x.old_path
    ch = [x for x in diffing.compare({path: old[path]} if path in old else {},
                                     {path: new[path]} if path in new else {})]
    return ch, path


async def cmd_log(ctx: Ctx, args: list[str]) -> int:
    o = parse_log_args(args)
    repo = ctx.repo
    await run_log(ctx, repo, o)
    return 0


def _split_revs_paths(repo: Repo, o: LogOptions) -> None:
    """Arguments before '--' that are not revisions but existing paths become paths."""
    keep = []
    for i, r in enumerate(o.revs):
        sha = None
        try:
            if ".." in r or r.startswith("^"):
                keep.append(r)
                continue
            sha = revs.resolve(repo, r, missing_ok=True, want=None)
        except GitExit:
            raise
        if sha is not None:
            keep.append(r)
            continue
        from pysh.ports.git.core import vjoin
        from pysh.ports.git.gitfs import exists

        if repo.vtop is not None and exists(repo.shell, vjoin(repo.shell.cwd, r), follow=False):
            o.paths.extend(o.revs[i:])
            break
        raise revs.ambiguous(r)
    o.revs = keep


def log_tips(repo: Repo, o: LogOptions) -> tuple[list[bytes], list[bytes]]:
    """(commits to start from, commits whose history is excluded) of a log/rev-list."""
    _split_revs_paths(repo, o)
    tips: list[bytes] = []
    excl: list[bytes] = []
    if o.revs:
        inc, exc, _ = revs.parse_range_args(repo, o.revs)
        tips += inc
        excl += exc
    if o.all or o.branches or o.tags:
        for ref, sha in sorted(repo.all_refs().items()):
            if o.branches and not o.all and not ref.startswith(b"refs/heads/"):
                continue
            if o.tags and not o.all and not ref.startswith(b"refs/tags/"):
                continue
            if ref == b"refs/stash" and not o.all:
                continue
            c = revs._peel(repo, sha, "commit")
            if c is not None:
                tips.append(c)
        if o.all:
            h = repo.head()
            if h is not None:
                tips.insert(0, h)
    if not o.revs and not (o.all or o.branches or o.tags) and o.default_head:
        h = repo.head()
        if h is None:
            br = repo.head_branch() or "HEAD"
            raise fatal(f"your current branch '{br}' does not have any commits yet")
        tips.append(h)
    # peel tags to commits
    tips = [revs._peel(repo, t, "commit") or t for t in tips]
    excl = [revs._peel(repo, t, "commit") or t for t in excl]
    return tips, excl


def log_pathspec(repo: Repo, o: LogOptions):
    ps = Pathspec(repo, o.paths) if o.paths and repo.vtop is not None else None
    if o.paths and repo.vtop is None:
        ps = Pathspec.__new__(Pathspec)
        ps.repo, ps.args = repo, list(o.paths)
        ps.items = [(p, bool(re.search(r"[*?\[]", p))) for p in o.paths]
    if o.follow and (ps is None or len(ps.items) != 1):
        if ps is not None:
            raise fatal("--follow requires exactly one pathspec")
        o.follow = False
    return ps


def select_commits(ctx: Ctx, repo: Repo, o: LogOptions, tips: list[bytes], excl: list[bytes],
                   ps):
    """(sha, commit, changes or None) of the commits a log shows, in order (before
    --reverse), with every filter, --skip and --max-count applied."""
    author_rx = _compile_grep(o, o.authors) if o.authors else None
    committer_rx = _compile_grep(o, o.committers) if o.committers else None
    grep_rx = _compile_grep(o, o.greps) if o.greps else None
    pickaxe = _pickaxe(repo, o)
    walk = walk_date_order(repo, tips, excl, first_parent=o.first_parent)
    if o.graph or o.topo:
        walk = iter(topo_sort(repo, list(walk)))
    follow_path = encode(ps.items[0][0]) if o.follow else None
    count = 0
    skipped = 0
    for sha, c in walk:
        ctx.tick()
        changes = None
        if follow_path is not None:
            changes, prev = _follow_changes(repo, c, follow_path)
            if not changes:
                continue
            follow_path = prev
        elif ps is not None:
            if not _touches(repo, c, ps, o.first_parent):
                continue
        if not _commit_matches(o, c, author_rx, committer_rx, grep_rx):
            continue
        if pickaxe is not None:
            if len(c.parents) > 1:
                continue  # merges are not diffed: nothing for the pickaxe to find
            hits = [x for x in commit_changes(repo, c, renames=o.renames, pathspec=ps)
                    if pickaxe(x)]
            if not hits:
                continue
            if not o.pickaxe_all:
                changes = hits
        if skipped < o.skip:
            skipped += 1
            continue
        if o.max_count is not None and count >= o.max_count:
            break
        count += 1
        yield sha, c, changes


async def run_log(ctx: Ctx, repo: Repo, o: LogOptions) -> None:
    tips, excl = log_tips(repo, o)
    ps = log_pathspec(repo, o)
    abbrev = o.abbrev if o.abbrev is not None else False
    decorate = bool(o.decorate)
    pretty = Pretty(repo, o.fmt, abbrev=abbrev, abbrev_n=o.abbrev_n, date=o.date, decorate=decorate)
    pretty.show_notes = o.notes if o.notes is not None else not o.pretty_given
    pretty.notes_ref = o.notes_ref
    want_diff = o.patch or o.stat or o.shortstat or o.numstat or o.name_only or o.name_status or \
        o.summary or o.raw
    o.hidden = set()
    if o.graph:
        for e in excl:
            o.hidden |= revs.ancestors(repo, e)
    selected = []
    for sha, c, changes in select_commits(ctx, repo, o, tips, excl, ps):
        selected.append((sha, c, changes))
        if not o.reverse and not o.graph:
            await _emit(ctx, repo, o, pretty, sha, c, changes, ps, want_diff, len(selected) == 1)
    if o.reverse:
        selected.reverse()
        for n, (sha, c, changes) in enumerate(selected):
            await _emit(ctx, repo, o, pretty, sha, c, changes, ps, want_diff, n == 0)
    elif o.graph:
        g = Graph()
        for n, (sha, c, changes) in enumerate(selected):
            await _emit(ctx, repo, o, pretty, sha, c, changes, ps, want_diff, n == 0, graph=g,
                        last=n == len(selected) - 1)


def _pickaxe(repo: Repo, o: LogOptions):
    """-S (the number of occurrences changes) or -G (an added or removed line matches)."""
    if o.pickaxe is None and o.pickaxe_grep is None:
        return None
    load = _blob_loader(repo)
    flags = re.I if o.icase else 0

    def sides(x):
        return (load(x.old_sha) if x.status != "A" else b"",
                load(x.new_sha) if x.status != "D" else b"")

    if o.pickaxe is not None:
        if o.pickaxe_regex:
            try:
                rx = re.compile(encode(o.pickaxe), flags)
            except re.error:
                raise fatal(f"invalid regex: {o.pickaxe}") from None

            def count(data: bytes) -> int:
                return len(rx.findall(data))
        else:
            needle = encode(o.pickaxe)

            def count(data: bytes) -> int:
                if flags:
                    return data.lower().count(needle.lower())
                return data.count(needle)

        def hit_s(x) -> bool:
            a, b = sides(x)
            return count(a) != count(b)

        return hit_s
    try:  # -G and --pickaxe-regex are extended regular expressions
        grx = re.compile(encode(o.pickaxe_grep), flags)
    except re.error:
        raise fatal(f"invalid regex: {o.pickaxe_grep}") from None

    def hit_g(x) -> bool:
        a, b = sides(x)
        if diffing.is_binary(a) or diffing.is_binary(b):
            return False
        la, lb = diffing.split_lines(a), diffing.split_lines(b)
        for i1, n1, i2, n2 in diffing.diff_script(la, lb, repo.shell.budget):
            if any(grx.search(ln) for ln in la[i1:i1 + n1]) or \
                    any(grx.search(ln) for ln in lb[i2:i2 + n2]):
                return True
        return False

    return hit_g


def _touches(repo: Repo, c: Commit, ps, first_parent: bool) -> bool:
    new = repo.flat_tree(c.tree)
    mine = {p: v for p, v in new.items() if ps.match(p)}
    if not c.parents:
        return bool(mine)
    parents = c.parents[:1] if first_parent else c.parents
    diffs = 0
    for p in parents:
        old = repo.flat_tree(repo[p].tree)
        theirs = {q: v for q, v in old.items() if ps.match(q)}
        if theirs == mine:
            return False  # TREESAME to a parent: history simplification drops it
        diffs += 1
    return diffs > 0


async def _emit(ctx: Ctx, repo: Repo, o: LogOptions, pretty: Pretty, sha: bytes, c: Commit,
                changes, ps, want_diff: bool, first: bool, graph: Graph | None = None,
                last: bool = False) -> None:
    text = pretty.header(sha, c)
    diff = ""
    if want_diff:
        if changes is None:
            if len(c.parents) > 1 and not o.first_parent:
                changes = []
            else:
                changes = commit_changes(repo, c, renames=o.renames, pathspec=ps)
        diff = diff_output(repo, changes, o, default_patch=False)
    kind = pretty.kind
    if kind == "user" and pretty.user == "":
        # an empty format prints no header, no terminator, no blank line before the diff
        sep = ("" if first else "\n") if pretty.sep else ""
        body = diff
    elif kind == "user":
        if pretty.sep:
            sep = "" if first else "\n"
            body = text + ("\n" + diff if diff else "")
        else:
            sep = ""
            body = text + "\n" + ("\n" + diff if diff else "")
    elif kind == "oneline":
        sep = ""
        body = text + diff
    else:
        sep = "" if first else "\n"
        body = text + ("\n" + diff if diff else "")
    if graph is None:
        ctx.write(sep + body)
        await ctx.maybe_flush()
        return
    ctx.write(_graph_entry(graph, o, kind, pretty, sha, c, text, diff, first))
    await ctx.maybe_flush()


def _graph_entry(graph: Graph, o: LogOptions, kind: str, pretty: Pretty, sha: bytes, c: Commit,
                 text: str, diff: str, first: bool) -> str:
    """One commit's output with git's graph prefixes (log-tree.c's order of calls)."""
    parents = list(c.parents[:1] if o.first_parent else c.parents)
    graph.update(sha, [p for p in parents if p not in o.hidden])
    use_term = kind == "oneline" or (kind == "user" and not pretty.sep)
    out: list[str] = []
    if not first and not use_term:
        out.append(graph.padding_line() + "\n")
    while True:
        line, shown = graph.next_line()
        out.append(line)
        if shown:
            break
        out.append("\n")
    msg = text
    terminated = msg.endswith("\n")
    if kind == "oneline" and terminated:  # our oneline header carries its terminator
        msg, terminated = msg[:-1], False
    lines = msg.split("\n")
    if terminated:
        lines.pop()
    for k, ln in enumerate(lines):
        if k:
            out.append("\n" + graph.next_line()[0])
        out.append(ln)
    if terminated:
        out.append("\n")
    if not graph.finished():
        if not terminated:
            out.append("\n")
        while True:
            out.append(graph.next_line()[0])
            if graph.finished():
                break
            out.append("\n")
        if terminated:
            out.append("\n")
    if use_term:  # log-tree.c: padding first when the message ended its own line
        out.append((graph.padding_line() if terminated else "") + "\n")
    if diff:
        if kind != "oneline":
            out.append(graph.next_line()[0] + "\n")
        dl = diff.split("\n")
        if dl and dl[-1] == "":
            dl.pop()
        for ln in dl:
            out.append(graph.next_line()[0] + ln + "\n")
    return "".join(out)


def commit_patch_text(repo: Repo, c: Commit) -> str:
    """The patch a commit brings (against its first parent), as ``git show --format=`` prints."""
    o = parse_log_args([])
    return diff_output(repo, commit_changes(repo, c, renames=True), o, default_patch=True)


# ------------------------------------------------------------------- show
async def cmd_show(ctx: Ctx, args: list[str]) -> int:
    o = parse_log_args(args, show=True)
    repo = ctx.repo
    targets = o.revs or ["HEAD"]
    if o.abbrev is None:
        o.abbrev = False
    pretty = Pretty(repo, o.fmt, abbrev=bool(o.abbrev), abbrev_n=o.abbrev_n, date=o.date,
                    decorate=bool(o.decorate))
    pretty.show_notes = o.notes if o.notes is not None else not o.pretty_given
    pretty.notes_ref = o.notes_ref
    first = True
    ps = Pathspec(repo, o.paths) if o.paths and repo.vtop is not None else None
    for t in targets:
        sha = revs.resolve(repo, t, want="object", missing_ok=True)
        if sha is None:
            if ":" in t and not t.startswith(":"):
                rev, _, path = t.partition(":")
                if revs.resolve(repo, rev, want="tree", missing_ok=True) is not None:
                    raise fatal(f"path '{path}' does not exist in '{rev}'")
            raise revs.ambiguous(t)
        obj = repo[sha]
        await _show_object(ctx, repo, o, pretty, t, obj, first, ps)
        first = False
    return 0


async def _show_object(ctx: Ctx, repo: Repo, o: LogOptions, pretty: Pretty, name: str, obj,
                       first: bool, ps) -> None:
    if isinstance(obj, Blob):
        ctx.write(obj.as_raw_string())
        return
    if isinstance(obj, Tree):
        if not first:
            ctx.write("\n")
        ctx.write(f"tree {name}\n\n")
        for e in sorted(obj.iteritems(), key=lambda e: e.path + (b"/" if e.mode & 0o40000 else b"")):
            ctx.write(quote_path(e.path) + ("/" if e.mode & 0o40000 and not e.mode & 0o100000 else "") + "\n")
        return
    if isinstance(obj, Tag):
        if not first:
            ctx.write("\n")
        name_, email = _ident_parts(obj.tagger or b"")
        ctx.write(f"tag {decode(obj.name)}\n")
        if obj.tagger:
            ctx.write(f"Tagger: {decode(obj.tagger)}\n")
            ctx.write(f"Date:   {fmt_date(obj.tag_time, obj.tag_timezone, o.date)}\n")
        ctx.write("\n" + decode(obj.message).rstrip("\n") + "\n" if obj.message else "\n")
        target = repo.get(obj.object[1])
        if target is not None:
            ctx.write("\n")
            await _show_object(ctx, repo, o, pretty, name, target, True, ps)
        return
    c = obj
    o2 = o
    text = pretty.header(c.id, c)
    if len(c.parents) > 1:
        changes: list = []
    else:
        changes = commit_changes(repo, c, renames=o.renames, pathspec=ps)
    diff = diff_output(repo, changes, o2, default_patch=True)
    if len(c.parents) > 1 and not o.no_patch and not diff and pretty.kind != "user":
        diff = "\n" if False else ""
        text += "\n"
    sep = "" if first else "\n"
    if pretty.kind == "oneline":
        ctx.write(sep + text + ("\n" + diff if diff and o2.patch or diff and not (
            o.stat or o.name_only or o.name_status or o.numstat or o.shortstat) else diff))
    elif pretty.kind == "user" and pretty.user == "":  # an empty format: the diff alone
        ctx.write((sep if pretty.sep else "") + diff)
    elif pretty.kind == "user":
        ctx.write(sep + text + ("" if pretty.sep else "\n") + ("\n" + diff if diff else ""))
    else:
        ctx.write(sep + text + ("\n" + diff if diff else ""))
    await ctx.maybe_flush()


# --------------------------------------------------------------- cat-file
async def cmd_cat_file(ctx: Ctx, args: list[str]) -> int:
    repo = ctx.repo
    if len(args) == 2 and args[0] in ("-t", "-s", "-p", "-e"):
        sha = revs.resolve(repo, args[1], want="object", missing_ok=True)
        if sha is None:
            if args[0] == "-e":
                return 1
            raise fatal(f"Not a valid object name {args[1]}")
        obj = repo[sha]
        if args[0] == "-e":
            return 0
        if args[0] == "-t":
            ctx.write(decode(obj.type_name) + "\n")
        elif args[0] == "-s":
            ctx.write(f"{len(obj.as_raw_string())}\n")
        else:
            if isinstance(obj, Tree):
                for e in obj.iteritems():
                    kind = "tree" if e.mode & 0o40000 and not e.mode & 0o100000 else (
                        "commit" if e.mode == 0o160000 else "blob")
                    ctx.write(f"{e.mode:06o} {kind} {decode(e.sha)}\t{quote_path(e.path)}\n")
            else:
                ctx.write(obj.as_raw_string())
        return 0
    if len(args) == 2:
        sha = revs.resolve(repo, args[1], want=None, missing_ok=True)
        if sha is None:
            raise fatal(f"Not a valid object name {args[1]}")
        obj = repo[sha]
        if decode(obj.type_name) != args[0]:
            peeled = revs._peel(repo, sha, args[0])
            if peeled is None:
                raise fatal(f"git cat-file {args[1]}: bad file")
            obj = repo[peeled]
        ctx.write(obj.as_raw_string())
        return 0
    raise usage_error("usage: git cat-file (-t | -s | -e | -p | <type>) <object>")


# -------------------------------------------------------------------- grep
async def cmd_grep(ctx: Ctx, args: list[str]) -> int:
    opts = Opts("grep", {
        "n": ("flag", "n"), "line-number": ("flag", "n"), "i": ("flag", "i"),
        "ignore-case": ("flag", "i"), "l": ("flag", "l"), "files-with-matches": ("flag", "l"),
        "name-only": ("flag", "l"), "L": ("flag", "L"), "files-without-match": ("flag", "L"),
        "c": ("flag", "c"), "count": ("flag", "c"), "w": ("flag", "w"), "word-regexp": ("flag", "w"),
        "v": ("flag", "v"), "invert-match": ("flag", "v"), "e": ("multi", "e"),
        "E": ("flag", "E"), "extended-regexp": ("flag", "E"), "F": ("flag", "F"),
        "fixed-strings": ("flag", "F"), "G": ("flag", "G"), "basic-regexp": ("flag", "G"),
        "P": ("flag", "E"), "perl-regexp": ("flag", "E"),
        "cached": ("flag", "cached"), "h": ("flag", "h"), "H": ("flag", "H"),
        "q": ("flag", "q"), "quiet": ("flag", "q"), "o": ("flag", "o"),
        "only-matching": ("flag", "o"), "untracked": ("flag", "untracked"),
        "x": ("flag", "x"), "line-regexp": ("flag", "x"), "full-name": ("flag", "full"),
        "no-color": ("flag", "nocolor"), "color": ("optarg", "color"), "z": ("flag", "z"),
        "break": ("flag", "brk"), "heading": ("flag", "heading"), "I": ("flag", "I"),
        "column": ("flag", "column"), "max-depth": ("arg", "maxdepth"),
    }, usage="usage: git grep [<options>] [-e] <pattern> [<rev>...] [[--] <path>...]")
    vals, pos, after = opts.parse(args)
    repo = ctx.repo
    pats = list(vals.get("e") or [])
    if not pats:
        if not pos:
            raise usage_error("fatal: no pattern given")
        pats = [pos.pop(0)]
    rev_list: list[tuple[str, bytes]] = []
    paths = list(after or [])
    for i, a in enumerate(pos):
        sha = revs.resolve(repo, a, want="tree", missing_ok=True) if after is not None or True else None
        if sha is not None and not paths:
            rev_list.append((a, sha))
            continue
        paths.extend(pos[i:])
        break
    ps = Pathspec(repo, paths) if paths else None
    flags = re.I if vals.get("i") else 0
    rxs = []
    for p in pats:
        if vals.get("F"):
            body = re.escape(p)
        elif vals.get("E"):
            body = p
        else:
            body = _bre_to_py(p)
        if vals.get("w"):
            body = r"(?<![\w])(?:" + body + r")(?![\w])"
        if vals.get("x"):
            body = r"^(?:" + body + r")$"
        try:
            rxs.append(re.compile(encode(body), flags))
        except re.error:
            raise fatal(f"command line, '{p}': Invalid regular expression") from None
    invert = bool(vals.get("v"))
    pre = repo.prefix()

    def show_name(path: bytes, label: str | None) -> str:
        name = decode(path) if vals.get("full") or label else repo.rel_to_cwd(path)
        name = quote_path(name) if not vals.get("z") else name
        return f"{label}:{name}" if label else name

    def in_scope(p: bytes) -> bool:
        if ps is not None:
            return ps.match(p)
        return not pre or decode(p).startswith(pre)

    sources: list[tuple[str | None, bytes, callable]] = []
    if rev_list:
        for label, tree_sha in rev_list:
            flat = repo.flat_tree(tree_sha)
            for p in sorted(flat):
                if in_scope(p) and flat[p][0] != 0o160000:
                    sha = flat[p][1]
                    sources.append((label, p, (lambda s=sha: repo[s].as_raw_string())))
    else:
        from dulwich.index import ConflictedIndexEntry

        repo.require_worktree("grep")
        for p, e in sorted(repo.index.items()):
            if isinstance(e, ConflictedIndexEntry) or not in_scope(p):
                continue
            if vals.get("cached"):
                sources.append((None, p, (lambda s=e.sha: repo[s].as_raw_string())))
            else:
                sources.append((None, p, (lambda q=p: (repo.wt_read(q) or (0, None, None))[1])))
    found = False
    out = []
    sep_z = "\0" if vals.get("z") else None
    for label, path, get in sources:
        ctx.tick()
        data = get()
        if data is None:
            continue
        binary = b"\0" in data[:8000]
        if binary and vals.get("I"):
            continue
        lines = data.split(b"\n")
        if lines and lines[-1] == b"":
            lines.pop()
        hits = []
        for no, ln in enumerate(lines, 1):
            m = any(r.search(ln) for r in rxs)
            if m != invert:
                hits.append((no, ln))
        name = show_name(path, label)
        if vals.get("L"):
            if not hits:
                out.append(name + (sep_z or "\n"))
                found = True
            continue
        if not hits:
            continue
        found = True
        if vals.get("q"):
            break
        if vals.get("l"):
            out.append(name + (sep_z or "\n"))
            continue
        if vals.get("c"):
            out.append(f"{name}{sep_z or ':'}{len(hits)}\n")
            continue
        if binary:
            out.append(f"Binary file {name} matches\n")
            continue
        for no, ln in hits:
            prefix = "" if vals.get("h") else name + (sep_z or ":")
            if vals.get("n"):
                prefix += f"{no}{sep_z or ':'}"
            if vals.get("o") and not invert:
                for r in rxs:
                    for mm in r.finditer(ln):
                        if mm.group(0):
                            out.append(prefix + decode(mm.group(0)) + "\n")
            else:
                out.append(prefix + decode(ln) + "\n")
        if len(out) > 2000:
            ctx.write("".join(out))
            out = []
            await ctx.maybe_flush()
    if not vals.get("q"):
        ctx.write("".join(out))
    return 0 if found else 1


# ------------------------------------------------------------------- blame
async def cmd_blame(ctx: Ctx, args: list[str]) -> int:
    opts = Opts("blame", {
        "L": ("multi", "L"), "l": ("flag", "long"), "s": ("flag", "s"), "e": ("flag", "email"),
        "line-porcelain": ("flag", "lporcelain"),
        "show-email": ("flag", "email"), "n": ("flag", "number"), "show-number": ("flag", "number"),
        "f": ("flag", "fname"), "show-name": ("flag", "fname"), "p": ("flag", "porcelain"),
        "porcelain": ("flag", "porcelain"), "t": ("flag", "rawtime"), "w": ("flag", "w"),
        "root": ("flag", "root"), "M": ("optarg", "M"), "C": ("optarg", "C"),
        "abbrev": ("arg", "abbrev"), "c": ("flag", "c"),
    }, usage="usage: git blame [<options>] [<rev-opts>] [<rev>] [--] <file>")
    vals, pos, after = opts.parse(args)
    repo = ctx.repo
    if after:
        path_arg = after[0]
        rev = pos[0] if pos else None
    elif len(pos) == 2:
        rev, path_arg = pos
    elif len(pos) == 1:
        rev, path_arg = None, pos[0]
    else:
        raise usage_error(opts.usage)
    ps = Pathspec(repo, [path_arg])
    path = encode(ps.items[0][0])
    if rev is not None:
        start = revs.resolve(repo, rev)
        final_data = None
    else:
        start = repo.head()
        got = repo.wt_read(path)
        if got is None:
            if start is None or path not in repo.flat_tree(repo.tree_of(start)):
                raise fatal(f"no such path '{decode(path)}' in HEAD")
            final_data = None
        else:
            final_data = got[1]
    if start is None:
        raise fatal(f"no such path '{decode(path)}' in HEAD")
    flat = repo.flat_tree(repo.tree_of(start))
    if path not in flat and final_data is None:
        raise fatal(f"no such path {decode(path)} in {rev or 'HEAD'}")
    head_data = repo[flat[path][1]].as_raw_string() if path in flat else b""
    data = final_data if final_data is not None else head_data
    lines = diffing.split_lines(data) if data else []
    owner: list = [None] * len(lines)  # (commit sha or None for not committed, orig line no, path)
    # the lines still to blame, as runs (index in the final text, index in the version being
    # looked at, length) in the order of that version: a commit costs a diff and a pass over
    # the runs, not a pass over every line
    runs: list[tuple[int, int, int]]
    if final_data is not None:  # lines not in HEAD's version belong to "Not Committed Yet"
        base_lines = diffing.split_lines(head_data) if head_data else []
        kept = _unchanged(base_lines, lines, repo) if path in flat else []
        runs = [(new, old, n) for new, old, n in kept]
        _assign_gaps(owner, kept, len(lines), None, path)
    else:
        runs = [(0, 0, len(lines))] if lines else []
    sha, cur_path = start, path
    cur_blob = flat[path][1] if path in flat else None
    cur_lines = diffing.split_lines(head_data) if head_data else []
    while runs:
        ctx.tick()
        c = repo[sha]
        parent = c.parents[0] if c.parents else None
        if parent is None:
            _assign_runs(owner, runs, sha, cur_path)
            break
        ptree = repo[parent].tree
        ppath = cur_path
        pblob = _path_blob(repo, ptree, cur_path)
        if pblob is None:
            # a rename?
            ch = diffing.detect_renames(diffing.compare(repo.flat_tree(ptree),
                                                        repo.flat_tree(c.tree)),
                                        _blob_loader(repo), budget=repo.shell.budget)
            ppath = None
            for x in ch:
                if x.status == "R" and x.new_path == cur_path:
                    ppath = x.old_path
            if ppath is None:
                _assign_runs(owner, runs, sha, cur_path)
                break
            pblob = repo.flat_tree(ptree)[ppath][1]
        if pblob == cur_blob:  # the same content: nothing to look at in this commit
            sha, cur_path = parent, ppath
            continue
        plines = diffing.split_lines(repo[pblob].as_raw_string())
        if plines == cur_lines:
            sha, cur_path, cur_blob = parent, ppath, pblob
            continue
        runs = _carry(runs, _unchanged(plines, cur_lines, repo), owner, sha, cur_path)
        sha, cur_path, cur_lines, cur_blob = parent, ppath, plines, pblob
    # output: the lines asked for (-L), widths measured on them
    commits: dict = {}  # each commit read once, however many lines it owns

    def commit(sha: bytes):
        got = commits.get(sha)
        if got is None:
            got = commits[sha] = repo[sha]
        return got

    shown = _blame_ranges(vals.get("L") or [], lines, decode(path))
    if vals.get("porcelain") or vals.get("lporcelain"):
        ctx.write(_blame_porcelain(repo, ctx, owner, lines, shown, bool(vals.get("lporcelain"))))
        return 0
    owner = [owner[i] for i in shown]
    nums = [i + 1 for i in shown]
    lines = [lines[i] for i in shown]
    show_email = vals.get("email")
    names = []
    for own in owner:
        if own[0] is None:
            names.append("<not.committed.yet>" if show_email else "Not Committed Yet")
        else:
            nm, em = _ident_parts(commit(own[0]).author)
            names.append(f"<{em}>" if show_email else nm)
    width = max((len(n) for n in names), default=0)
    show_fname = vals.get("fname") or any(own[2] != path for own in owner)
    fwidth = max((len(decode(own[2])) for own in owner), default=0)
    maxline = len(str(max(nums, default=1)))
    hashlen = _blame_abbrev(repo, vals.get("abbrev"), {own[0] for own in owner})
    out = []
    for i, (own, ln) in enumerate(zip(owner, lines, strict=True)):
        if own[0] is None:
            h = "0" * hashlen
            t, tz = ctx.shell.budget and _now_ident(ctx)
        else:
            c = commit(own[0])
            # git prints the first hashlen digits; a boundary commit gives one to its '^'
            h = ("^" + decode(own[0])[:hashlen - 1]) if not c.parents else decode(own[0])[:hashlen]
            t, tz = c.author_time, c.author_timezone
        if vals.get("long"):
            h = ("^" if h.startswith("^") else "") + (decode(own[0]) if own[0] else "0" * 40)
        text = decode(ln.rstrip(b"\n"))
        fname = f"{decode(own[2]):<{fwidth}} " if show_fname else ""
        num = f"{own[1]:>{maxline}} " if vals.get("number") else ""
        if vals.get("s"):
            out.append(f"{h} {fname}{num}{nums[i]:>{maxline}}) {text}\n")
        else:
            date = fmt_date(t, tz, "iso") if not vals.get("rawtime") else f"{t} {fmt_tz(tz)}"
            out.append(f"{h} {fname}{num}({names[i]:<{width}} {date} {nums[i]:>{maxline}}) {text}\n")
    ctx.write("".join(out))
    return 0


def _blame_abbrev(repo: Repo, opt, commits: set) -> int:
    """The width of blame's commit column: --abbrev=N plus one (room for a boundary's '^'),
    else one more than the longest unique abbreviation of the commits shown, at git's
    default length or more."""
    if opt not in (None, True) and str(opt).isdigit():
        n = int(opt)
        n = 40 if n == 0 else max(4, min(40, n))
        return n + 1 if n < 40 else 40
    auto = repo.default_abbrev
    return max((len(repo.short(c, auto)) for c in commits if c is not None), default=auto) + 1


def _blame_ranges(specs: list[str], lines: list[bytes], name: str) -> list[int]:
    """0-based indexes of the lines that ``-L`` ranges select (all lines without -L)."""
    n = len(lines)
    if not specs:
        return list(range(n))
    chosen: set[int] = set()
    for spec in specs:
        a, comma, b = _split_L(spec)
        start = _L_point(a, lines, 0, spec) if a else 1
        if not comma:
            end = n
        elif not b:
            end = n
        elif b[0] in "+-" and b[1:].isdigit():
            k = int(b[1:])
            if b[0] == "+":
                end = start + k - 1 if k else start
            else:
                start, end = max(1, start - k + 1), start
        else:
            end = _L_point(b, lines, start - 1, spec)
        if start < 1 or end < 1:
            raise fatal(f"-L invalid line number: {min(start, end)}")
        if start > end:
            start, end = end, start
        if start > n:
            raise fatal(f"file {name} has only {n} line{'s' if n != 1 else ''}")
        chosen.update(range(start - 1, min(end, n)))
    return sorted(chosen)


def _split_L(spec: str) -> tuple[str, str, str]:
    """'a,b' split on the comma outside /regex/ parts."""
    i = 0
    if spec.startswith("/"):
        j = spec.find("/", 1)
        while j > 0 and spec[j - 1] == "\\":
            j = spec.find("/", j + 1)
        i = j + 1 if j > 0 else len(spec)
    k = spec.find(",", i)
    if k < 0:
        return spec, "", ""
    return spec[:k], ",", spec[k + 1:]


def _L_point(tok: str, lines: list[bytes], after: int, spec: str) -> int:
    if tok.isdigit():
        return int(tok)
    if tok.startswith("/") and tok.endswith("/") and len(tok) > 1:
        try:
            rx = re.compile(encode(tok[1:-1]))
        except re.error:
            raise fatal(f"-L parameter '{tok[1:-1]}': invalid regex") from None
        for i in range(after, len(lines)):
            if rx.search(lines[i]):
                return i + 1
        raise fatal(f"-L parameter '{tok[1:-1]}' starting at line {after + 1}: no match")
    raise fatal(f"invalid -L range: '{spec}'" if not tok.startswith(":") else
                "-L :funcname is not supported by this port")


def _blame_porcelain(repo: Repo, ctx: Ctx, owner: list, lines: list[bytes], shown: list[int],
                     every_line: bool) -> str:
    """--porcelain (a commit's details once) and --line-porcelain (on every line)."""
    out: list[str] = []
    seen: set = set()
    k = 0
    while k < len(shown):
        i = shown[k]
        own = owner[i]
        group = 1
        while k + group < len(shown) and shown[k + group] == i + group:
            nxt = owner[i + group]
            if nxt[0] != own[0] or nxt[2] != own[2] or nxt[1] != own[1] + group:
                break
            group += 1
        hexsha = decode(own[0]) if own[0] is not None else "0" * 40
        for g in range(group):
            if g == 0:
                out.append(f"{hexsha} {own[1]} {i + 1} {group}\n")
            else:
                out.append(f"{hexsha} {own[1] + g} {i + 1 + g}\n")
            if g == 0 and (own[0], own[2]) not in seen or every_line:
                seen.add((own[0], own[2]))
                out.append(_blame_details(repo, own))
            out.append("\t" + decode(lines[i + g].rstrip(b"\n")) + "\n")
        k += group
    return "".join(out)


def _blame_details(repo: Repo, own) -> str:
    if own[0] is None:
        return ("author Not Committed Yet\nauthor-mail <not.committed.yet>\n"
                f"filename {decode(own[2])}\n")
    c = repo[own[0]]
    an, ae = _ident_parts(c.author)
    cn, ce = _ident_parts(c.committer)
    out = [f"author {an}\n", f"author-mail <{ae}>\n", f"author-time {c.author_time}\n",
           f"author-tz {fmt_tz(c.author_timezone)}\n", f"committer {cn}\n",
           f"committer-mail <{ce}>\n", f"committer-time {c.commit_time}\n",
           f"committer-tz {fmt_tz(c.commit_timezone)}\n", f"summary {subject_of(c.message)}\n"]
    if not c.parents:
        out.append("boundary\n")
    else:
        parent = c.parents[0]
        pflat = repo.flat_tree(repo[parent].tree)
        prev = own[2] if own[2] in pflat else None
        if prev is None:
            ch = diffing.detect_renames(diffing.compare(pflat, repo.flat_tree(c.tree)),
                                        _blob_loader(repo), budget=repo.shell.budget)
            prev = next((x.old_path for x in ch if x.status == "R" and x.new_path == own[2]), None)
        if prev is not None:
            out.append(f"previous {decode(parent)} {quote_path(prev)}\n")
    out.append(f"filename {quote_path(own[2])}\n")
    return "".join(out)


def _now_ident(ctx: Ctx):
    from pysh.ports.git.core import now

    return now(), 0


def _unchanged(old: list[bytes], new: list[bytes], repo: Repo) -> list[tuple[int, int, int]]:
    """The lines a diff leaves alone, as runs (index in ``new``, index in ``old``, length)."""
    out = []
    i1 = i2 = 0
    for c1, n1, c2, n2 in diffing.diff_script(old, new, repo.shell.budget):
        if c2 > i2:
            out.append((i2, i1, c2 - i2))
        i1, i2 = c1 + n1, c2 + n2
    n = min(len(old) - i1, len(new) - i2)
    if n > 0:
        out.append((i2, i1, n))
    return out


def _carry(runs: list, kept: list, owner: list, sha: bytes, path: bytes) -> list:
    """Move the runs still to blame back to the parent through the unchanged lines ``kept``
    (both in the order of the current version); a line that the commit changed is its own."""
    out: list[tuple[int, int, int]] = []
    k = 0
    for f, j, n in runs:
        end = j + n
        while j < end:
            while k < len(kept) and kept[k][0] + kept[k][2] <= j:
                k += 1
            if k < len(kept) and kept[k][0] <= j:
                new, old, m = kept[k]
                take = min(end, new + m) - j
                pj = old + j - new
                if out and out[-1][0] + out[-1][2] == f and out[-1][1] + out[-1][2] == pj:
                    out[-1] = (out[-1][0], out[-1][1], out[-1][2] + take)
                else:
                    out.append((f, pj, take))
            else:
                take = min(end, kept[k][0] if k < len(kept) else end) - j
                for x in range(take):
                    owner[f + x] = (sha, j + x + 1, path)
            f += take
            j += take
    return out


def _assign_runs(owner: list, runs: list, sha: bytes, path: bytes) -> None:
    for f, j, n in runs:
        for x in range(n):
            owner[f + x] = (sha, j + x + 1, path)


def _assign_gaps(owner: list, kept: list, total: int, sha, path: bytes) -> None:
    """Lines of the final text outside the runs ``kept`` (by final index) belong to ``sha``."""
    i = 0
    for new, _old, n in kept + [(total, 0, 0)]:
        for x in range(i, new):
            owner[x] = (sha, x + 1, path)
        i = new + n


def _path_blob(repo: Repo, tree_sha: bytes, path: bytes) -> bytes | None:
    """The id of the file (not directory) at ``path`` in a tree, None when there is none."""
    sha = tree_sha
    parts = path.split(b"/")
    for i, comp in enumerate(parts):
        obj = repo.get(sha)
        if not isinstance(obj, Tree):
            return None
        try:
            mode, sha = obj[comp]
        except KeyError:
            return None
        if (mode & 0o170000 == 0o040000) != (i < len(parts) - 1):
            return None
    return sha


# ----------------------------------------------------------------- ls-tree
async def cmd_ls_tree(ctx: Ctx, args: list[str]) -> int:
    opts = Opts("ls-tree", {"r": ("flag", "r"), "d": ("flag", "d"), "t": ("flag", "t"),
                            "name-only": ("flag", "names"), "name-status": ("flag", "names"),
                            "l": ("flag", "long"), "long": ("flag", "long"), "z": ("flag", "z"),
                            "full-name": ("flag", "full"), "full-tree": ("flag", "fulltree"),
                            "abbrev": ("optarg", "abbrev")},
                usage="usage: git ls-tree [<options>] <tree-ish> [<path>...]")
    vals, pos, after = opts.parse(args)
    pos += after or []
    if not pos:
        raise usage_error(opts.usage)
    repo = ctx.repo
    tree = revs.resolve(repo, pos[0], want="tree", missing_ok=True)
    if tree is None:
        raise fatal("Not a valid object name " + pos[0])
    paths = [p.strip("/") for p in pos[1:]]
    inside = {p.strip("/") for p in pos[1:] if p.endswith("/")}  # 'dir/': its entries
    end = "\0" if vals.get("z") else "\n"
    out = []

    def walk(sha: bytes, prefix: bytes) -> None:
        for e in repo[sha].iteritems():
            ctx.tick()
            full = prefix + e.path
            is_tree = e.mode == 0o40000
            name = decode(full)
            if paths and not any(name == p or name.startswith(p + "/") or p.startswith(name + "/")
                                 for p in paths):
                continue
            descend = is_tree and (vals.get("r") or name in inside or
                                   any(p.startswith(name + "/") for p in paths))
            if descend:
                if vals.get("t"):
                    out.append(_ls_row(repo, e, full, vals, end))
                walk(e.sha, full + b"/")
                continue
            if vals.get("d") and not is_tree:
                continue
            out.append(_ls_row(repo, e, full, vals, end))

    walk(tree, b"")
    ctx.write("".join(out))
    return 0


def _ls_row(repo: Repo, e, full: bytes, vals: dict, end: str) -> str:
    name = quote_path(full) if not vals.get("z") else decode(full)
    if vals.get("names"):
        return name + end
    kind = "tree" if e.mode == 0o40000 else "commit" if e.mode == 0o160000 else "blob"
    sha = repo.short(e.sha, int(vals["abbrev"])) if vals.get("abbrev") not in (None, True) else decode(e.sha)
    if vals.get("long"):
        size = "-" if kind != "blob" else str(len(repo[e.sha].as_raw_string()))
        return f"{e.mode:06o} {kind} {sha} {size:>7}\t{name}{end}"
    return f"{e.mode:06o} {kind} {sha}\t{name}{end}"
