"""git remote (configuration only: nothing is contacted), and the network commands refused.

The sandbox has no network: fetch, pull, push, ls-remote and ``remote update/prune`` say so
in one line and exit 128; clone of a URL is refused by ``setup.py``.
"""

from __future__ import annotations

import re

from pysh.ports.git.core import Ctx, GitExit, Opts, Repo, fatal, usage_error
from pysh.shellkit import decode, encode

NO_NETWORK = "fatal: {what}: the sandbox has no network (pysh runs git without it)"


async def cmd_network(ctx: Ctx, args: list[str]) -> int:
    """fetch, pull, push, ls-remote: refused, naming the remote."""
    name = ctx.command
    target = next((a for a in args if not a.startswith("-")), None)
    what = f"git {name}" + (f" '{target}'" if target else "")
    raise GitExit(NO_NETWORK.format(what=what), 128)


def _remotes(repo: Repo) -> list[str]:
    out = []
    for sec in repo.config.sections():
        if len(sec) == 2 and sec[0].lower() == b"remote":
            n = decode(sec[1])
            if n not in out:
                out.append(n)
    return out


def _get(cfg, name: str, key: bytes) -> list[bytes]:
    try:
        return list(cfg.get_multivar((b"remote", encode(name)), key))
    except KeyError:
        return []


async def cmd_remote(ctx: Ctx, args: list[str]) -> int:
    verbose = False
    while args and args[0] in ("-v", "--verbose"):
        verbose = True
        args = args[1:]
    repo = ctx.repo
    if not args:
        return _list(ctx, repo, verbose)
    sub, rest = args[0], args[1:]
    if sub == "add":
        return _add(ctx, repo, rest)
    if sub in ("remove", "rm"):
        return _remove(ctx, repo, rest)
    if sub == "rename":
        return _rename(ctx, repo, rest)
    if sub == "get-url":
        return _get_url(ctx, repo, rest)
    if sub == "set-url":
        return _set_url(ctx, repo, rest)
    if sub == "show":
        return _show(ctx, repo, rest)
    if sub in ("update", "prune", "set-head") and not (sub == "set-head" and rest[1:2] and
                                                      rest[1] not in ("-a", "--auto")):
        raise GitExit(NO_NETWORK.format(what=f"git remote {sub}"), 128)
    if sub == "set-head":
        return _set_head(ctx, repo, rest)
    raise usage_error(f"error: Unknown subcommand: {sub}\n{USAGE}")


USAGE = ("usage: git remote [-v | --verbose]\n"
         "   or: git remote add [-t <branch>] [-m <master>] [-f] [--tags | --no-tags] "
         "[--mirror=<fetch|push>] <name> <url>\n"
         "   or: git remote rename [--[no-]progress] <old> <new>\n"
         "   or: git remote remove <name>\n"
         "   or: git remote set-head <name> (-a | --auto | -d | --delete | <branch>)\n"
         "   or: git remote [-v | --verbose] show [-n] <name>\n"
         "   or: git remote prune [-n | --dry-run] <name>\n"
         "   or: git remote [-v | --verbose] update [-p | --prune] [(<group> | <remote>)...]\n"
         "   or: git remote set-branches [--add] <name> <branch>...\n"
         "   or: git remote get-url [--push] [--all] <name>\n"
         "   or: git remote set-url [--push] <name> <newurl> [<oldurl>]\n"
         "   or: git remote set-url --add <name> <newurl>\n"
         "   or: git remote set-url --delete <name> <url>")


def _list(ctx: Ctx, repo: Repo, verbose: bool) -> int:
    out = []
    cfg = repo.config
    for n in _remotes(repo):
        if not verbose:
            out.append(n + "\n")
            continue
        urls = _get(cfg, n, b"url")
        pushurls = _get(cfg, n, b"pushurl") or urls
        for u in urls[:1]:
            out.append(f"{n}\t{decode(u)} (fetch)\n")
        for u in pushurls:
            out.append(f"{n}\t{decode(u)} (push)\n")
    ctx.write("".join(out))
    return 0


def _check_name(name: str) -> None:
    if not name or name.startswith("-") or re.search(r"[\x00-\x20~^:?*\[\\]|\.\.|@\{|//", name) \
            or name.endswith("/") or name.endswith(".lock") or name.startswith("."):
        raise fatal(f"'{name}' is not a valid remote name")


def _add(ctx: Ctx, repo: Repo, args: list[str]) -> int:
    opts = Opts("remote add", {"f": ("flag", "fetch"), "t": ("multi", "track"),
                               "m": ("arg", "master"), "tags": ("flag", "tags"),
                               "no-tags": ("flag", "notags"), "mirror": ("optarg", "mirror")},
                usage="usage: git remote add [<options>] <name> <url>")
    vals, pos, after = opts.parse(args)
    pos += after or []
    if len(pos) != 2:
        raise usage_error(opts.usage)
    if vals.get("fetch"):
        raise GitExit(NO_NETWORK.format(what="git remote add -f"), 128)
    name, url = pos
    _check_name(name)
    if name in _remotes(repo):
        raise GitExit(f"error: remote {name} already exists.", 3)
    cfg = repo.edit_config()
    sec = (b"remote", encode(name))
    cfg.set(sec, b"url", encode(url))
    tracks = vals.get("track") or ["*"]
    first = True
    for t in tracks:
        spec = encode(f"+refs/heads/{t}:refs/remotes/{name}/{t}")
        if first:
            cfg.set(sec, b"fetch", spec)
            first = False
        else:
            cfg.add(sec, b"fetch", spec)
    if vals.get("notags"):
        cfg.set(sec, b"tagOpt", b"--no-tags")
    elif vals.get("tags"):
        cfg.set(sec, b"tagOpt", b"--tags")
    repo.write_config(cfg)
    if vals.get("master"):
        repo.set_symbolic(f"refs/remotes/{name}/HEAD".encode(),
                          f"refs/remotes/{name}/{vals['master']}".encode())
    return 0


def _remote_refs(repo: Repo, name: str) -> list[bytes]:
    return sorted(r for r in repo.refs.allkeys() if r.startswith(f"refs/remotes/{name}/".encode()))


def _remove(ctx: Ctx, repo: Repo, args: list[str]) -> int:
    if len(args) != 1:
        raise usage_error("usage: git remote remove <name>")
    name = args[0]
    if name not in _remotes(repo):
        raise GitExit(f"error: No such remote: '{name}'", 2)
    cfg = repo.edit_config()
    for sec in list(cfg._values):
        if len(sec) == 2 and sec[0].lower() == b"remote" and sec[1] == encode(name):
            del cfg._values[sec]
    for sec in list(cfg._values):
        if len(sec) == 2 and sec[0].lower() == b"branch":
            try:
                if cfg.get(sec, b"remote") == encode(name):
                    cfg.remove(sec, b"remote")
                    try:
                        cfg.remove(sec, b"merge")
                    except KeyError:
                        pass
            except KeyError:
                pass
    from pysh.ports.git.gitconfig import drop_empty_sections

    drop_empty_sections(cfg, b"branch")
    repo.write_config(cfg)
    for ref in _remote_refs(repo, name):
        repo.refs.remove_if_equals(ref, None)
        repo.gitdir.unlink("logs/" + decode(ref))
    return 0


def _rename(ctx: Ctx, repo: Repo, args: list[str]) -> int:
    pos = [a for a in args if a not in ("--progress", "--no-progress")]
    if len(pos) != 2:
        raise usage_error("usage: git remote rename [--[no-]progress] <old> <new>")
    old, new = pos
    if old not in _remotes(repo):
        raise GitExit(f"error: No such remote: '{old}'", 2)
    _check_name(new)
    if new in _remotes(repo):
        raise GitExit(f"error: remote {new} already exists.", 3)
    from pysh.ports.git.gitconfig import rename_section, set_in_place

    cfg = repo.edit_config()
    osec, nsec = (b"remote", encode(old)), (b"remote", encode(new))
    rename_section(cfg, osec, nsec)
    values = cfg._values[nsec]
    values._real = [(k, v.replace(f"refs/remotes/{old}/".encode(), f"refs/remotes/{new}/".encode())
                     if k.lower() == b"fetch" else v) for k, v in values._real]
    for sec in list(cfg._values):
        if len(sec) == 2 and sec[0].lower() == b"branch":
            try:
                if cfg.get(sec, b"remote") == encode(old):
                    set_in_place(cfg, sec, b"remote", encode(new))
            except KeyError:
                pass
    repo.write_config(cfg)
    for ref in _remote_refs(repo, old):
        newref = f"refs/remotes/{new}/".encode() + ref[len(f"refs/remotes/{old}/"):]
        data = repo.refs.read_loose_ref(ref)
        if data and data.startswith(b"ref: "):
            target = data[5:].strip().replace(f"refs/remotes/{old}/".encode(),
                                              f"refs/remotes/{new}/".encode())
            repo.set_symbolic(newref, target)
        else:
            repo.set_ref(newref, repo.ref_sha(ref))
        repo.refs.remove_if_equals(ref, None)
        repo.gitdir.unlink("logs/" + decode(ref))
    return 0


def _get_url(ctx: Ctx, repo: Repo, args: list[str]) -> int:
    push = "--push" in args
    all_ = "--all" in args
    pos = [a for a in args if a not in ("--push", "--all")]
    if len(pos) != 1:
        raise usage_error("usage: git remote get-url [--push] [--all] <name>")
    name = pos[0]
    if name not in _remotes(repo):
        raise GitExit(f"error: No such remote '{name}'", 2)
    urls = _get(repo.config, name, b"url")
    if push:
        urls = _get(repo.config, name, b"pushurl") or urls
    ctx.write("".join(decode(u) + "\n" for u in (urls if all_ else urls[:1])))
    return 0


def _set_url(ctx: Ctx, repo: Repo, args: list[str]) -> int:
    push = "--push" in args
    add = "--add" in args
    delete = "--delete" in args
    pos = [a for a in args if a not in ("--push", "--add", "--delete")]
    if len(pos) not in (2, 3) or (add and delete):
        raise usage_error("usage: git remote set-url [--push] <name> <newurl> [<oldurl>]")
    name = pos[0]
    if name not in _remotes(repo):
        raise GitExit(f"error: No such remote '{name}'", 2)
    key = b"pushurl" if push else b"url"
    cfg = repo.edit_config()
    sec = (b"remote", encode(name))
    cur = _get(cfg, name, key)
    if add:
        cfg.add(sec, key, encode(pos[1])) if cur else cfg.set(sec, key, encode(pos[1]))
    elif delete:
        keep = [u for u in cur if not re.search(pos[1], decode(u))]
        if len(keep) == len(cur):
            raise fatal(f"No such URL found: {pos[1]}")
        if not keep and not push:
            raise fatal("Will not delete all non-push URLs")
        _replace_all(cfg, sec, key, keep)
    elif len(pos) == 3:
        new = [encode(pos[1]) if re.search(pos[2], decode(u)) else u for u in cur]
        if new == cur:
            raise fatal(f"No such URL found: {pos[2]}")
        _replace_all(cfg, sec, key, new)
    else:
        _replace_all(cfg, sec, key, [encode(pos[1])] + cur[1:])
    repo.write_config(cfg)
    return 0


def _replace_all(cfg, sec, key: bytes, values: list[bytes]) -> None:
    vals = cfg._values.get(sec)
    if vals is not None:
        for k in [k for k, _ in vals.items() if k.lower() == key]:
            try:
                del vals[k]
            except KeyError:
                pass
    for i, v in enumerate(values):
        cfg.set(sec, key, v) if i == 0 else cfg.add(sec, key, v)


def _show(ctx: Ctx, repo: Repo, args: list[str]) -> int:
    pos = [a for a in args if a not in ("-n",)]
    if not pos:
        return _list(ctx, repo, False)
    out = []
    cfg = repo.config
    for name in pos:
        if name not in _remotes(repo):
            # git would contact a URL of that name: there is no network
            raise GitExit(NO_NETWORK.format(what=f"git remote show '{name}'"), 128)
        urls = _get(cfg, name, b"url")
        pushurls = _get(cfg, name, b"pushurl") or urls
        out.append(f"* remote {name}\n")
        out.append(f"  Fetch URL: {decode(urls[0]) if urls else ''}\n")
        for u in pushurls or [b""]:
            out.append(f"  Push  URL: {decode(u)}\n")
        out.append("  HEAD branch: (not queried)\n")
        branches = [decode(r[len(f"refs/remotes/{name}/"):]) for r in _remote_refs(repo, name)
                    if not r.endswith(b"/HEAD")]
        if branches:
            out.append("  Remote branch" + ("es" if len(branches) > 1 else "") +
                       ": (status not queried)\n")
            out.extend(f"    {b}\n" for b in branches)
        merges = []
        for sec in cfg.sections():
            if len(sec) == 2 and sec[0].lower() == b"branch":
                try:
                    if cfg.get(sec, b"remote") == encode(name):
                        m = decode(cfg.get(sec, b"merge"))
                        merges.append((decode(sec[1]), m[11:] if m.startswith("refs/heads/") else m))
                except KeyError:
                    continue
        if merges:
            merges.sort()
            w = max(len(b) for b, _ in merges)
            out.append("  Local branch" + ("es" if len(merges) > 1 else "") +
                       " configured for 'git pull':\n")
            out.extend(f"    {b:<{w}} merges with remote {m}\n" for b, m in merges)
        out.append("  Local ref configured for 'git push' (status not queried):\n"
                   "    (matching) pushes to (matching)\n")
    ctx.write("".join(out))
    return 0


def _set_head(ctx: Ctx, repo: Repo, args: list[str]) -> int:
    if len(args) != 2:
        raise usage_error("usage: git remote set-head <name> (-a | --auto | -d | --delete | <branch>)")
    name, what = args
    head = f"refs/remotes/{name}/HEAD".encode()
    if what in ("-d", "--delete"):
        repo.gitdir.unlink(decode(head))
        return 0
    target = f"refs/remotes/{name}/{what}".encode()
    if repo.ref_sha(target) is None:
        raise GitExit(f"error: Not a valid ref: refs/remotes/{name}/{what}", 1)
    repo.set_symbolic(head, target)
    return 0
