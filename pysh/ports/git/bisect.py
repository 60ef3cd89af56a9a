"""git bisect: start, good/bad (old/new), skip, next, reset, log, run.

The state is git's own, so the real git can go on with a bisection pysh started and the
other way round: ``BISECT_START`` (where to go back), ``BISECT_LOG`` (replayable),
``BISECT_TERMS``, ``BISECT_NAMES``, ``BISECT_EXPECTED_REV``, ``BISECT_ANCESTORS_OK`` and
the refs ``refs/bisect/bad``, ``refs/bisect/good-<id>``, ``refs/bisect/skip-<id>``. The
commit to test is chosen as bisect.c chooses it (weights counted oldest first with the
half-way shortcut, distance-sorted with skip_away's pseudo-random step when commits are
skipped). ``run`` executes its command in-process through the shell, like any script.
"""

from __future__ import annotations

import struct

from pysh.ports.git import revs
from pysh.ports.git.core import Ctx, GitExit, Repo, fatal, subject_of
from pysh.shellkit import decode, encode

NOT_STARTED = 'You need to start by "git bisect start"\n\n'


def _sq(s: str) -> str:
    """git's sq_quote_buf: single quotes, with ' and ! escaped outside them."""
    out = ["'"]
    for ch in s:
        if ch in "'!":
            out.append(f"'\\{ch}'")
        else:
            out.append(ch)
    out.append("'")
    return "".join(out)


def _bisecting(repo: Repo) -> bool:
    return repo.gitdir.exists("BISECT_START")


def _log(repo: Repo, text: str) -> None:
    repo.gitdir.append("BISECT_LOG", encode(text))


def _oneline(repo: Repo, sha: bytes) -> str:
    return f"[{decode(sha)}] {subject_of(repo[sha].message)}"


def _bisect_refs(repo: Repo) -> dict[bytes, bytes]:
    return {k: v for k, v in repo.all_refs().items() if k.startswith(b"refs/bisect/")}


def _terms(repo: Repo) -> tuple[str, str]:
    """(the term for bad, the term for good): bad/good, or new/old as BISECT_TERMS says."""
    lines = decode(repo.read_state("BISECT_TERMS") or b"").split("\n")
    return (lines[0], lines[1]) if len(lines) >= 2 and lines[0] and lines[1] else ("bad", "good")


def _mark(ctx: Ctx, repo: Repo, role: str, sha: bytes, *, log_cmd: bool = True) -> None:
    """Mark ``sha`` bad, good or skip (refs and log lines named with the terms in use)."""
    bad_t, good_t = _terms(repo)
    term = {"bad": bad_t, "good": good_t}.get(role, role)
    # git keeps no reflog for refs/bisect/
    ref = b"refs/bisect/" + encode(term) + (b"" if role == "bad" else b"-" + sha)
    repo.set_ref(ref, sha)
    _log(repo, f"# {term}: {_oneline(repo, sha)}\n")
    if log_cmd:
        _log(repo, f"git bisect {term} {decode(sha)}\n")


def _clean_state(repo: Repo) -> None:
    for ref in _bisect_refs(repo):
        repo.refs.remove_if_equals(ref, None)
    for name in ("BISECT_EXPECTED_REV", "BISECT_ANCESTORS_OK", "BISECT_LOG", "BISECT_TERMS",
                 "BISECT_NAMES", "BISECT_RUN", "BISECT_FIRST_PARENT", "BISECT_START"):
        repo.gitdir.unlink(name)


def _checkout(ctx: Ctx, repo: Repo, sha: bytes) -> None:
    """``git checkout -q <sha>``: its messages dropped, the reflog line kept."""
    from pysh.ports.git.branch import do_switch

    n_out, n_err = len(ctx.out), len(ctx.err)
    do_switch(ctx, repo, branch=None, target=sha, name=decode(sha), detach=True,
              explicit_detach=True)
    del ctx.out[n_out:]
    del ctx.err[n_err:]


# ------------------------------------------------------------------ the choice
def _candidates(repo: Repo, bad: bytes, goods: list[bytes]) -> list[bytes]:
    """rev-list bad --not goods, oldest first (the order find_bisection works in)."""
    from pysh.ports.git.log import walk_date_order

    return [sha for sha, _ in walk_date_order(repo, [bad], goods)][::-1]


def _weights(repo: Repo, order: list[bytes], shortcut: bool) -> tuple[dict[bytes, int], bytes | None]:
    """do_find_bisection: each candidate's count of candidate ancestors (itself included);
    with ``shortcut``, the first one found half-way is returned at once."""
    nr = len(order)
    inside = set(order)
    parents = {s: [p for p in repo[s].parents if p in inside] for s in order}
    w: dict[bytes, int] = {}

    def halfway(s: bytes) -> bool:
        diff = 2 * w[s] - nr
        return -1 <= diff <= 1 or abs(diff) < nr // 1024

    for s in order:
        if not parents[s]:
            w[s] = 1
    for s in order:  # merges: counted the expensive way
        if len(parents[s]) > 1:
            seen = set()
            stack = [s]
            while stack:
                x = stack.pop()
                if x in seen:
                    continue
                seen.add(x)
                stack.extend(parents[x])
            w[s] = len(seen)
            if shortcut and halfway(s):
                return w, s
    while len(w) < nr:
        progress = False
        for s in order:
            if s in w:
                continue
            known = next((p for p in parents[s] if p in w), None)
            if known is None:
                continue
            w[s] = w[known] + 1
            progress = True
            if shortcut and halfway(s):
                return w, s
        if not progress:
            break
    return w, None


def _f32(v: float) -> float:
    return struct.unpack("f", struct.pack("f", v))[0]


def _sqrti(val: int) -> int:
    if val <= 0:
        return 0
    x = _f32(float(val))
    while True:
        y = _f32(_f32(x + _f32(_f32(float(val)) / x)) / 2)
        d = _f32(y - x) if y > x else _f32(x - y)
        x = y
        if d < 0.5:
            return int(x)


def _cdiv(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def _skip_away(lst: list[bytes], count: int, bad: bytes) -> bytes:
    prn = ((count * 1103515245 + 12345) & 0xFFFFFFFF) // 65536 % 32768  # unsigned, as in C
    index = _cdiv(_cdiv(count * prn, 32768) * _sqrti(prn), _sqrti(32768))
    prev = None
    for i, cur in enumerate(lst):
        if i == index:
            if cur != bad:
                return cur
            return prev if prev is not None else lst[0]
        prev = cur
    return lst[0]


def choose(repo: Repo, bad: bytes, goods: list[bytes], skips: set[bytes]):
    """(the commit to test or None, reaches, all, the skipped ones tried)."""
    order = _candidates(repo, bad, goods)
    nr = len(order)
    if not nr:
        return None, 0, 0, []
    if not skips:
        w, best = _weights(repo, order, True)
        if best is None:
            best, dist = order[0], -1
            for s in order:
                d = min(w[s], nr - w[s])
                if d > dist:
                    best, dist = s, d
        return best, w[best], nr, []
    w, _ = _weights(repo, order, False)
    ranked = sorted(order, key=lambda s: (-min(w[s], nr - w[s]), s))
    reaches = w[ranked[0]]
    tried = [s for s in ranked if s in skips]
    kept = [s for s in ranked if s not in skips]
    if not kept:
        return None, reaches, nr, tried
    if ranked[0] not in skips:
        return ranked[0], reaches, nr, tried
    return _skip_away(kept, len(kept), bad), reaches, nr, tried


def _steps(all_: int) -> int:
    if all_ < 3:
        return 0
    n = all_.bit_length() - 1
    e = 1 << n
    x = all_ - e
    return n if e < 3 * x else n - 1


def _state(repo: Repo) -> tuple[bytes | None, list[bytes], set[bytes]]:
    refs = _bisect_refs(repo)
    bad_t, good_t = (encode(t) for t in _terms(repo))
    bad = refs.get(b"refs/bisect/" + bad_t)
    goods = [v for k, v in sorted(refs.items()) if k.startswith(b"refs/bisect/" + good_t + b"-")]
    skips = {v for k, v in refs.items() if k.startswith(b"refs/bisect/skip-")}
    return bad, goods, skips


def _next(ctx: Ctx, repo: Repo) -> int:
    """bisect_next_all; returns git's result: 0 going on, 10 found, 2 only skipped left."""
    bad, goods, skips = _state(repo)
    bad_t, good_t = _terms(repo)
    if bad is None or not goods:
        if bad is None and not goods:
            msg = "status: waiting for both good and bad commits"
        elif bad is None:
            n = len(goods)
            msg = f"status: waiting for bad commit, {n} good commit{'s' if n != 1 else ''} known"
        else:
            msg = "status: waiting for good commit(s), bad commit known"
        ctx.write(msg + "\n")
        _log(repo, f"# {msg}\n")
        return 0
    anc_bad = revs.ancestors(repo, bad)
    if any(g not in anc_bad for g in goods):
        if not repo.gitdir.exists("BISECT_ANCESTORS_OK"):
            if all(g in anc_bad or bad in revs.ancestors(repo, g) for g in goods):
                raise GitExit("Some good revs are not ancestors of the bad rev.\n"
                              "git bisect cannot work properly in this case.\n"
                              "Maybe you mistook good and bad revs?", 1)
            raise fatal("bisect across merge bases of unrelated good and bad commits is not "
                        "supported by this port")
    repo.gitdir.write("BISECT_ANCESTORS_OK", b"")
    best, reaches, all_, tried = choose(repo, bad, goods, skips)
    if not all_:
        ctx.write(f"{decode(bad)} was both {good_t} and {bad_t}\n")
        return 1
    if best is None or best == bad:
        if tried and (best is None or best == bad):
            ctx.write("There are only 'skip'ped commits left to test.\n"
                      f"The first {bad_t} commit could be any of:\n")
            ctx.write("".join(decode(s) + "\n" for s in tried))
            if best is not None:
                ctx.write(decode(bad) + "\n")
            ctx.write("We cannot bisect more!\n")
            newest_first = sorted(tried, key=_candidates(repo, bad, goods).index, reverse=True)
            _log(repo, "# only skipped commits left to test\n" +
                 (f"# possible first {bad_t} commit: {_oneline(repo, bad)}\n" if best else "")
                 + "".join(f"# possible first {bad_t} commit: {_oneline(repo, s)}\n"
                         for s in newest_first))
            return 2
        ctx.write(f"{decode(bad)} is the first {bad_t} commit\n")
        ctx.write(_diff_tree(repo, bad))
        _log(repo, f"# first {bad_t} commit: {_oneline(repo, bad)}\n")
        return 10
    nr = all_ - reaches - 1
    steps = _steps(all_)
    ctx.write(f"Bisecting: {nr} revision{'s' if nr != 1 else ''} left to test after this "
              f"(roughly {steps} step{'s' if steps != 1 else ''})\n")
    repo.gitdir.write("BISECT_EXPECTED_REV", best + b"\n")
    _checkout(ctx, repo, best)
    ctx.write(_oneline(repo, best) + "\n")
    return 0


def _diff_tree(repo: Repo, sha: bytes) -> str:
    """``git diff-tree --pretty --stat --summary --cc <sha>``."""
    from pysh.ports.git import diffing
    from pysh.ports.git.log import Pretty, _blob_loader, commit_changes

    c = repo[sha]
    pretty = Pretty(repo, "medium", abbrev=False)
    out = pretty.header(sha, c)
    if len(c.parents) <= 1:
        changes = commit_changes(repo, c, renames=True)
        if changes:
            load = _blob_loader(repo)
            out += "\n" + diffing.stat_block(changes, load, repo.shell.budget) + \
                diffing.summary_lines(changes)
    return out


# ------------------------------------------------------------------ commands
async def cmd_bisect(ctx: Ctx, args: list[str]) -> int:
    repo = ctx.repo
    if not args:
        raise GitExit("usage: git bisect [help|start|bad|good|new|old|terms|skip|next|reset|"
                      "visualize|view|replay|log|run]", 1)
    sub, rest = args[0], args[1:]
    if sub == "start":
        return _start(ctx, repo, rest)
    if sub in ("bad", "good", "new", "old", "skip"):
        if not _bisecting(repo):
            ctx.ewrite(NOT_STARTED)
            return 1
        if sub != "skip":
            if not repo.gitdir.exists("BISECT_TERMS"):
                repo.gitdir.write("BISECT_TERMS", b"new\nold\n" if sub in ("new", "old")
                                  else b"bad\ngood\n")
            bad_t, good_t = _terms(repo)
            if sub not in (bad_t, good_t):
                raise GitExit(f"error: Invalid command: you're currently in a {bad_t}/{good_t} "
                              "bisect", 1)
            sub = "bad" if sub == bad_t else "good"
        return _mark_cmd(ctx, repo, sub, rest)
    if sub == "next":
        if not _bisecting(repo):
            ctx.ewrite(NOT_STARTED)
            return 1
        r = _next(ctx, repo)
        return 0 if r in (0, 10) else r
    if sub == "reset":
        return _reset(ctx, repo, rest)
    if sub == "log":
        data = repo.read_state("BISECT_LOG") if _bisecting(repo) else None
        if data is None:
            raise GitExit("error: We are not bisecting.", 1)
        ctx.write(data)
        return 0
    if sub == "run":
        return await _run(ctx, repo, rest)
    if sub in ("visualize", "view", "replay", "terms", "help"):
        raise fatal(f"git bisect {sub} is not supported by this port")
    raise GitExit(f"error: unknown command: '{args[0]}'\nusage: git bisect [help|start|bad|good|"
                  "new|old|terms|skip|next|reset|visualize|view|replay|log|run]", 1)


def _start(ctx: Ctx, repo: Repo, rest: list[str]) -> int:
    revs_: list[str] = []
    paths: list[str] = []
    seen_dd = False
    for a in rest:
        if seen_dd:
            paths.append(a)
        elif a == "--":
            seen_dd = True
        elif a.startswith("--"):
            raise fatal(f"git bisect start {a} is not supported by this port")
        else:
            revs_.append(a)
    if paths:
        raise fatal("git bisect start with paths is not supported by this port")
    shas = []
    for r in revs_:
        sha = revs.resolve(repo, r, want="commit", missing_ok=True)
        if sha is None:
            raise fatal(f"'{r}' does not appear to be a valid revision")
        shas.append(sha)
    if _bisecting(repo):
        start = decode(repo.read_state("BISECT_START") or b"").strip()
        _reset_to(ctx, repo, start, quiet=True)
        _clean_state(repo)
    br = repo.head_branch()
    head = repo.head()
    if br is None and head is None:
        raise fatal("Bad HEAD - I need a HEAD")
    repo.gitdir.write("BISECT_START", encode(br if br is not None else decode(head)) + b"\n")
    repo.gitdir.write("BISECT_NAMES", b"\n")
    repo.gitdir.write("BISECT_LOG", b"")
    if shas:
        repo.gitdir.write("BISECT_TERMS", b"bad\ngood\n")
        _mark(ctx, repo, "bad", shas[0], log_cmd=False)
        for g in shas[1:]:
            _mark(ctx, repo, "good", g, log_cmd=False)
    _log(repo, "git bisect start" + "".join(" " + _sq(r) for r in revs_) + "\n")
    if not shas:
        _next(ctx, repo)
        return 0
    try:
        r = _next(ctx, repo)
    except GitExit:
        _clean_state(repo)  # git leaves no bisection behind when its start fails
        raise
    return 0 if r in (0, 10) else r


def _mark_cmd(ctx: Ctx, repo: Repo, term: str, rest: list[str]) -> int:
    names = rest or ["HEAD"]
    shas = []
    for r in names:
        sha = revs.resolve(repo, r, want="commit", missing_ok=True)
        if sha is None:
            raise fatal(f"Bad rev input: {r}")
        shas.append(sha)
    for sha in shas:
        _mark(ctx, repo, term, sha)
    r = _next(ctx, repo)
    return 0 if r in (0, 10) else r


def _reset_to(ctx: Ctx, repo: Repo, target: str, *, quiet: bool) -> None:
    from pysh.ports.git.branch import do_switch

    n_out, n_err = len(ctx.out), len(ctx.err)
    if target and repo.ref_sha(b"refs/heads/" + encode(target)) is not None:
        do_switch(ctx, repo, branch=target, target=repo.ref_sha(b"refs/heads/" + encode(target)),
                  name=target)
    elif target:
        sha = revs.resolve(repo, target, want="commit", missing_ok=True)
        if sha is None:
            raise fatal(f"could not check out original HEAD '{target}'. Try 'git bisect reset "
                        "<commit>'.")
        do_switch(ctx, repo, branch=None, target=sha, name=target, detach=True)
    if quiet:
        del ctx.out[n_out:]
        del ctx.err[n_err:]


def _reset(ctx: Ctx, repo: Repo, rest: list[str]) -> int:
    if not _bisecting(repo):
        ctx.write("We are not bisecting.\n")
        return 0
    start = decode(repo.read_state("BISECT_START") or b"").strip()
    target = rest[0] if rest else start
    _reset_to(ctx, repo, target, quiet=False)
    _clean_state(repo)
    return 0


async def _run(ctx: Ctx, repo: Repo, cmd: list[str]) -> int:
    if not _bisecting(repo):
        return 1  # git says nothing here
    if not cmd:
        raise GitExit("error: bisect run failed: no command provided.", 1)
    line = "".join(" " + _sq(a) for a in cmd)  # sq_quote_argv: a space before each word
    while True:
        ctx.write(f"running {line}\n")
        await ctx.flush()
        # the command runs in-process through the shell's registry (git runs it through sh;
        # its words, quoted, make the same command)
        status = await ctx.shell.run(list(cmd))
        ctx.tick()
        if status < 0 or status >= 128:
            ctx.ewrite(f"error: bisect run failed: exit code {status} from '{line}' is < 0 or "
                       ">= 128\n")
            return -status & 0xFF
        term = "good" if status == 0 else ("skip" if status == 125 else "bad")
        head = repo.head()
        if head is None:
            raise fatal("bisect run failed: no HEAD")
        _mark(ctx, repo, term, head)
        r = _next(ctx, repo)
        if r == 10:
            ctx.write(f"bisect found first {_terms(repo)[0]} commit")
            return 0
        if r == 2:
            ctx.ewrite("error: bisect run cannot continue any more\n")
            return 2
        if r != 0:
            bad_t, good_t = _terms(repo)
            name = {"bad": bad_t, "good": good_t}.get(term, term)
            ctx.ewrite(f"bisect run failed: 'git bisect {name}' exited with error code {r}\n")
            return r
        await ctx.flush()
