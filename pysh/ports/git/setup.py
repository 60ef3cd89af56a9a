"""git init, clone (local sources inside the sandbox only), config, rev-parse."""

from __future__ import annotations

import io
import os
import posixpath
import re

from pysh.ports.git import gitfs
from pysh.ports.git.core import (
    Ctx,
    GitExit,
    Opts,
    Repo,
    config_get,
    fatal,
    find_gitdir_at,
    global_config_path,
    load_config_file,
    mkdir_p,
    usage_error,
    vjoin,
    vlstat,
    write_file_atomic,
)
from pysh.ports.git.gitfs import LockError
from pysh.shellkit import decode, encode

EXCLUDE = b"""# git ls-files --others --exclude-from=.git/info/exclude
# Lines that start with '#' are comments.
# For a project mostly in C, the following would be a good set of
# exclude patterns (uncomment them if you want to use them):
# *.[oa]
# *~
"""

DESCRIPTION = b"Unnamed repository; edit this file 'description' to name the repository.\n"

BRANCH_HINT = (
    "hint: Using 'master' as the name for the initial branch. This default branch name\n"
    "hint: is subject to change. To configure the initial branch name to use in all\n"
    "hint: of your new repositories, which will suppress this warning, call:\n"
    "hint: \n"
    "hint: \tgit config --global init.defaultBranch <name>\n"
    "hint: \n"
    "hint: Names commonly chosen instead of 'master' are 'main', 'trunk' and\n"
    "hint: 'development'. The just-created branch can be renamed via this command:\n"
    "hint: \n"
    "hint: \tgit branch -m <name>\n")


def _write_new(shell, vpath: str, data: bytes) -> None:
    gitfs.write_file(shell, vpath, data)


def init_repo(ctx: Ctx, vdir: str, *, bare: bool = False, branch: str | None = None,
              quiet_hint: bool = False) -> tuple[str, bool]:
    """Create (or re-initialise) a repository; returns (virtual git dir, reinitialised)."""
    shell = ctx.shell
    mkdir_p(shell, vdir)
    vgit = vdir if bare else vjoin(vdir, ".git")
    existing = find_gitdir_at(shell, vdir) if not bare else (
        vdir if vlstat(shell, vjoin(vdir, "HEAD")) is not None else None)
    if existing is not None:
        return existing, True
    for d in ("", "branches", "hooks", "info", "objects", "objects/info", "objects/pack", "refs",
              "refs/heads", "refs/tags"):
        mkdir_p(shell, vjoin(vgit, d) if d else vgit)
    if branch is None:
        branch = config_get(ctx, "init", "defaultBranch", repo=None) if False else _default_branch(ctx)
        if branch is None:
            if not quiet_hint:
                ctx.ewrite(BRANCH_HINT)
            branch = "master"
    if not _valid_branch(branch):
        raise fatal(f"invalid initial branch name: '{branch}'")
    _write_new(shell, vjoin(vgit, "HEAD"), f"ref: refs/heads/{branch}\n".encode())
    _write_new(shell, vjoin(vgit, "description"), DESCRIPTION)
    _write_new(shell, vjoin(vgit, "info/exclude"), EXCLUDE)
    cfg = ("[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n"
           f"\tbare = {'true' if bare else 'false'}\n")
    if not bare:
        cfg += "\tlogallrefupdates = true\n"
    _write_new(shell, vjoin(vgit, "config"), cfg.encode())
    return vgit, False


def _default_branch(ctx: Ctx) -> str | None:
    from pysh.ports.git.core import global_config

    for k, v in reversed(ctx.overrides):
        if k.lower() == "init.defaultbranch":
            return v
    g = global_config(ctx)
    if g is not None:
        try:
            return decode(g.get((b"init",), b"defaultBranch"))
        except KeyError:
            return None
    return None


def _valid_branch(name: str) -> bool:
    if not name or name.startswith("-") or name.endswith("/") or name.endswith(".lock"):
        return False
    if ".." in name or "@{" in name or name == "@" or "//" in name:
        return False
    if re.search(r"[\x00-\x20~^:?*\[\\\x7f]", name):
        return False
    return all(not c.startswith(".") for c in name.split("/"))


async def cmd_init(ctx: Ctx, args: list[str]) -> int:
    opts = Opts("init", {"q": ("flag", "quiet"), "quiet": ("flag", "quiet"),
                         "bare": ("flag", "bare"), "b": ("arg", "branch"),
                         "initial-branch": ("arg", "branch"), "template": ("arg", "template"),
                         "shared": ("optarg", "shared"), "separate-git-dir": ("arg", "sep")},
                usage="usage: git init [-q | --quiet] [--bare] [--template=<template-directory>]\n"
                      "                [--separate-git-dir <git-dir>] [--object-format=<format>]\n"
                      "                [-b <branch-name> | --initial-branch=<branch-name>]\n"
                      "                [--shared[=<permissions>]] [<directory>]")
    vals, pos, after = opts.parse(args)
    pos += after or []
    if vals.get("sep"):
        raise fatal("--separate-git-dir is not supported in the sandbox")
    if len(pos) > 1:
        raise usage_error(opts.usage)
    shell = ctx.shell
    target = posixpath.normpath(shell.abspath(pos[0])) if pos else shell.cwd
    bare = bool(vals.get("bare"))
    vgit, again = init_repo(ctx, target, bare=bare, branch=vals.get("branch"),
                            quiet_hint=bool(vals.get("quiet")))
    if again and vals.get("branch"):
        ctx.ewrite(f"warning: re-init: ignored --initial-branch={vals['branch']}\n")
    if not vals.get("quiet"):
        word = "Reinitialized existing" if again else "Initialized empty"
        ctx.write(f"{word} Git repository in {vgit.rstrip('/')}/\n")
    return 0


# ------------------------------------------------------------------ clone
_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
_SCP = re.compile(r"^[^/:]+:")


def _clone_source(ctx: Ctx, src: str) -> tuple[str, str]:
    """The virtual path of a local clone source; anything networked is refused."""
    if src.startswith("file://"):
        path = src[len("file://"):]
        if not path.startswith("/"):
            raise fatal(f"repository '{src}' does not exist")
    elif _URL.match(src) or src.startswith("git@"):
        scheme = src.split(":", 1)[0]
        raise fatal(f"unable to access '{src}': the '{scheme}' transport is disabled "
                    "(pysh: only local repositories inside the sandbox can be cloned)")
    elif _SCP.match(src) and not src.startswith("./") and ":" in src.split("/", 1)[0]:
        raise fatal(f"unable to access '{src}': ssh transport is disabled "
                    "(pysh: only local repositories inside the sandbox can be cloned)")
    else:
        path = src
    vpath = posixpath.normpath(ctx.shell.abspath(path))
    return path, vpath


async def cmd_clone(ctx: Ctx, args: list[str]) -> int:
    opts = Opts("clone", {"q": ("flag", "quiet"), "quiet": ("flag", "quiet"),
                          "bare": ("flag", "bare"), "b": ("arg", "branch"),
                          "branch": ("arg", "branch"), "o": ("arg", "origin"),
                          "origin": ("arg", "origin"), "depth": ("arg", "depth"),
                          "single-branch": ("flag", "single"), "no-checkout": ("flag", "nocheckout"),
                          "n": ("flag", "nocheckout"), "l": ("flag", "local"),
                          "local": ("flag", "local"), "no-hardlinks": ("flag", "nohard"),
                          "recurse-submodules": ("flag", "recurse"),
                          "template": ("arg", "template"), "shared": ("flag", "shared"),
                          "reference": ("arg", "reference"), "config": ("multi", "config"),
                          "c": ("multi", "config"), "v": ("flag", "verbose"),
                          "progress": ("flag", "progress")},
                usage="usage: git clone [<options>] [--] <repo> [<dir>]")
    vals, pos, after = opts.parse(args)
    pos += after or []
    if not pos:
        raise usage_error("fatal: You must specify a repository to clone.\n\n" + opts.usage)
    if len(pos) > 2:
        raise usage_error("fatal: Too many arguments.\n\n" + opts.usage)
    if vals.get("shared") or vals.get("reference"):
        raise fatal("--shared/--reference (alternates) are not supported in the sandbox")
    src = pos[0]
    _, vsrc = _clone_source(ctx, src)
    shell = ctx.shell
    # the source repository: a work tree with .git, or a bare repository
    if gitfs.stat(shell, vsrc) is None:
        raise fatal(f"repository '{src}' does not exist")
    sgit = None
    try:
        sgit = find_gitdir_at(shell, vsrc)
    except GitExit:
        raise
    if sgit is None:
        if vlstat(shell, vjoin(vsrc, "HEAD")) is not None and gitfs.is_dir(shell, vjoin(vsrc, "objects")):
            sgit = vsrc
        elif vlstat(shell, vsrc + ".git") is not None:
            vsrc = vsrc + ".git"
            sgit = find_gitdir_at(shell, vsrc) or vsrc
        else:
            raise fatal(f"repository '{src}' does not exist")
    source = Repo.open(ctx, sgit, None)
    bare = bool(vals.get("bare"))
    if len(pos) > 1:
        dest_arg = pos[1]
    else:
        base = posixpath.basename(vsrc.rstrip("/"))
        if base == ".git":
            base = posixpath.basename(posixpath.dirname(vsrc.rstrip("/")))
        if not bare and base.endswith(".git"):
            base = base[:-4]
        if bare and not base.endswith(".git"):
            base += ".git"
        dest_arg = base
    vdest = posixpath.normpath(shell.abspath(dest_arg))
    st = vlstat(shell, vdest)
    if st is not None:
        try:
            empty = not shell.core.scandir(vdest)
        except OSError:
            empty = False
        if not empty:
            raise fatal(f"destination path '{dest_arg}' already exists and is not an empty directory.")
    if not vals.get("quiet"):
        ctx.ewrite(f"Cloning into {'bare repository ' if bare else ''}'{dest_arg}'...\n")
    vgit, _ = init_repo(ctx, vdest, bare=bare, branch="master", quiet_hint=True)
    dest = Repo.open(ctx, vgit, None if bare else vdest)
    # objects
    n = 0
    for sha in source.object_store:
        n += 1
        if n & 63 == 0:
            shell.budget.check()
        if sha not in dest.object_store:
            dest.object_store.add_object(source.object_store[sha])
    src_refs = source.all_refs()
    head_target = source.head_ref()
    head_sha = source.head()
    remote = vals.get("origin") or "origin"
    if not src_refs and head_sha is None:
        ctx.ewrite("warning: You appear to have cloned an empty repository.\n")
    if bare:
        for ref, sha in src_refs.items():
            if ref.startswith(b"refs/heads/") or ref.startswith(b"refs/tags/"):
                dest.set_ref(ref, sha)
        if head_target:
            dest.set_symbolic(b"HEAD", head_target)
    else:
        for ref, sha in src_refs.items():
            if ref.startswith(b"refs/heads/"):
                dest.set_ref(b"refs/remotes/" + remote.encode() + b"/" + ref[len(b"refs/heads/"):], sha)
            elif ref.startswith(b"refs/tags/"):
                dest.set_ref(ref, sha)
    url = vsrc if not src.startswith("file://") else src
    cfg = dest.edit_config()
    if not bare:
        cfg.set((b"remote", remote.encode()), b"url", encode(url))
        cfg.set((b"remote", remote.encode()), b"fetch",
                f"+refs/heads/*:refs/remotes/{remote}/*".encode())
    else:
        cfg.set((b"remote", remote.encode()), b"url", encode(url))
    want = vals.get("branch")
    if want:
        bref = b"refs/heads/" + encode(want)
        if bref not in src_refs:
            tref = b"refs/tags/" + encode(want)
            if tref in src_refs and not bare:
                dest.write_config(cfg)
                _checkout_detached(ctx, dest, src_refs[tref])
                return 0
            raise fatal(f"Remote branch {want} not found in upstream {remote}")
        head_target = bref
    branch = None
    if head_target and head_target.startswith(b"refs/heads/"):
        branch = head_target[len(b"refs/heads/"):]
    if not bare:
        if branch is not None and (b"refs/heads/" + branch) in src_refs:
            sha = src_refs[b"refs/heads/" + branch]
            dest.set_ref(b"refs/heads/" + branch, sha)
            dest.set_symbolic(b"HEAD", b"refs/heads/" + branch)
            dest.set_symbolic(b"refs/remotes/" + remote.encode() + b"/HEAD",
                              b"refs/remotes/" + remote.encode() + b"/" + branch)
            cfg.set((b"branch", branch), b"remote", remote.encode())
            cfg.set((b"branch", branch), b"merge", b"refs/heads/" + branch)
            dest.write_config(cfg)
            if not vals.get("nocheckout"):
                from pysh.ports.git.branch import checkout_tree_fresh

                checkout_tree_fresh(dest, dest[sha].tree)
        else:
            if branch is not None:
                dest.set_symbolic(b"HEAD", b"refs/heads/" + branch)
            dest.write_config(cfg)
    else:
        dest.write_config(cfg)
    if not vals.get("quiet") and src_refs:
        ctx.ewrite("done.\n")
    return 0


def _checkout_detached(ctx: Ctx, repo: Repo, sha: bytes) -> None:
    from pysh.ports.git.branch import checkout_tree_fresh

    commit = repo[sha]
    while commit.type_name == b"tag":
        commit = repo[commit.object[1]]
    repo.detach_head(commit.id)
    checkout_tree_fresh(repo, commit.tree)


# ------------------------------------------------------------------ config
def _split_key(key: str, writing: bool = True) -> tuple[tuple[bytes, ...], bytes]:
    if "." not in key:
        raise GitExit(f"error: key does not contain a section: {key}", 2 if writing else 1)
    if key.endswith("."):
        raise GitExit(f"error: key does not contain variable name: {key}", 1)
    sec, _, name = key.partition(".")
    if "." in name:
        sub, _, name = name.rpartition(".")
        section = (sec.lower().encode(), encode(sub))
    else:
        section = (sec.lower().encode(),)
    if not name or not re.fullmatch(r"[A-Za-z][A-Za-z0-9-]*", name):
        raise GitExit(f"error: invalid key: {key}", 1)
    return section, encode(name)


def _section_key(name: str) -> tuple[bytes, ...]:
    sec, dot, sub = name.partition(".")
    return (sec.lower().encode(), encode(sub)) if dot else (sec.lower().encode(),)


def _rename_section(cfg, old: str, new: str | None) -> bool:
    """Remove (``new`` None) or rename a section in place; False when there is none."""
    from dulwich.config import CaseInsensitiveOrderedMultiDict

    want = _section_key(old)
    found = False
    out = CaseInsensitiveOrderedMultiDict(default_factory=CaseInsensitiveOrderedMultiDict)
    for sec, values in cfg._values._real:
        if (len(sec) == len(want) and sec[0].lower() == want[0]
                and sec[1:] == want[1:]):
            found = True
            if new is None:
                continue
            sec = _section_key(new)
        out[sec] = values
    cfg._values = out
    return found


_UNITS = {"": 1, "k": 1024, "m": 1024 ** 2, "g": 1024 ** 3}


def _parse_int(v: str, what: str) -> str:
    """git_parse_signed: digits with an optional k/m/g unit, or git's fatal message."""
    m = re.fullmatch(r"\s*([-+]?\d+)([a-zA-Z]*)", v)
    if m is None or m.group(2).lower() not in _UNITS:
        raise fatal(f"bad numeric config value '{v}' for {what}: invalid unit")
    n = int(m.group(1)) * _UNITS[m.group(2).lower()]
    if not -(2 ** 63) <= n < 2 ** 63:
        raise fatal(f"bad numeric config value '{v}' for {what}: out of range")
    return str(n)


CONFIG_TYPES = ("bool", "int", "bool-or-int", "bool-or-str", "path", "expiry-date", "color")
CONFIG_USAGE = 'usage: git config [<options>]\n\nConfig file location\n    --global              use global config file\n    --system              use system config file\n    --local               use repository config file\n    --worktree            use per-worktree config file\n    -f, --file <file>     use given config file\n    --blob <blob-id>      read config from given blob object\n\nAction\n    --get                 get value: name [value-pattern]\n    --get-all             get all values: key [value-pattern]\n    --get-regexp          get values for regexp: name-regex [value-pattern]\n    --get-urlmatch        get value specific for the URL: section[.var] URL\n    --replace-all         replace all matching variables: name value [value-pattern]\n    --add                 add a new variable: name value\n    --unset               remove a variable: name [value-pattern]\n    --unset-all           remove all matches: name [value-pattern]\n    --rename-section      rename section: old-name new-name\n    --remove-section      remove a section: name\n    -l, --list            list all\n    --fixed-value         use string equality when comparing values to \'value-pattern\'\n    -e, --edit            open an editor\n    --get-color           find the color configured: slot [default]\n    --get-colorbool       find the color setting: slot [stdout-is-tty]\n\nType\n    -t, --type <type>     value is given this type\n    --bool                value is "true" or "false"\n    --int                 value is decimal number\n    --bool-or-int         value is --bool or --int\n    --bool-or-str         value is --bool or string\n    --path                value is a path (file or directory name)\n    --expiry-date         value is an expiry date\n\nOther\n    -z, --null            terminate values with NUL byte\n    --name-only           show variable names only\n    --includes            respect include directives on lookup\n    --show-origin         show origin of config (file, standard input, blob, command line)\n    --show-scope          show scope of config (worktree, local, global, system, command)\n    --default <value>     with --get, use default value when missing entry\n\n'


def _config_argc(n: int, lo: int, hi: int) -> None:
    if lo <= n <= hi:
        return
    should = f"should be {lo}" if lo == hi else f"should be from {lo} to {hi}"
    raise GitExit(f"error: wrong number of arguments, {should}\n" + CONFIG_USAGE[:-1], 129)


def _load_cfg_file(ctx: Ctx, vpath: str, *, expand: bool = True):
    """A config file by path (includes expanded inside the sandbox unless editing)."""
    from dulwich.config import ConfigFile

    repo = ctx._repo
    if repo is not None and vpath == vjoin(repo.vgit, "config"):  # through the git dir
        return repo.config if expand else repo.edit_config()
    cfg = load_config_file(ctx, vpath, expand=expand)
    return cfg if cfg is not None else ConfigFile()


def _save_cfg_file(ctx: Ctx, vpath: str, cfg, repo=None) -> None:
    buf = io.BytesIO()
    cfg.write_to_file(buf)
    if repo is not None:
        repo.write_config(cfg)
        return
    try:
        write_file_atomic(ctx.shell, vpath, buf.getvalue())
    except LockError as e:
        raise GitExit(f"error: could not lock config file {vpath}: {os.strerror(e.code)}",
                      255) from None


def _iter_items(cfg):
    for section in cfg.sections():
        for name, value in cfg.items(section):
            sec = decode(section[0]).lower()
            if len(section) > 1:
                sec += "." + decode(section[1])
            yield f"{sec}.{decode(name).lower()}", decode(value)


def _format_bool(v: str, key: str) -> str:
    lv = v.lower()
    if lv in ("true", "yes", "on", "1", ""):
        return "true"
    if lv in ("false", "no", "off", "0"):
        return "false"
    try:
        return "true" if int(_parse_int(v, "")) else "false"
    except GitExit:
        raise fatal(f"bad boolean config value '{v}' for '{key}'") from None


async def cmd_config(ctx: Ctx, args: list[str]) -> int:
    opts = Opts("config", {
        "global": ("flag", "global"), "local": ("flag", "local"), "system": ("flag", "system"),
        "file": ("arg", "file"), "f": ("arg", "file"), "get": ("flag", "get"),
        "get-all": ("flag", "getall"), "unset": ("flag", "unset"), "unset-all": ("flag", "unsetall"),
        "list": ("flag", "list"), "l": ("flag", "list"), "add": ("flag", "add"),
        "bool": ("flag", "bool"), "int": ("flag", "int"), "type": ("arg", "type"),
        "t": ("arg", "type"), "bool-or-int": ("flag", "boolint"), "path": ("flag", "path"),
        "show-origin": ("flag", "origin"), "name-only": ("flag", "nameonly"),
        "default": ("arg", "default"), "get-regexp": ("flag", "getregexp"),
        "replace-all": ("flag", "replaceall"), "z": ("flag", "z"), "null": ("flag", "z"),
        "worktree": ("flag", "local"), "e": ("flag", "edit"), "edit": ("flag", "edit"),
        "remove-section": ("flag", "rmsection"), "rename-section": ("flag", "mvsection"),
    }, usage="usage: git config [<options>]")
    vals, pos, after = opts.parse(args)
    pos += after or []
    if vals.get("system"):
        raise fatal("--system config is not available in the sandbox")
    if vals.get("edit"):
        raise fatal("editing config needs an editor; use 'git config <key> <value>'")
    typ = vals.get("type") or ("bool" if vals.get("bool") else "int" if vals.get("int") else
                               "bool-or-int" if vals.get("boolint") else
                               "path" if vals.get("path") else None)
    if typ is not None and typ not in CONFIG_TYPES:
        raise fatal(f"unrecognized --type argument, {typ}")
    # the argument count each action takes (git's check_argc), before any file is read
    for flag, lo, hi in (("list", 0, 0), ("get", 1, 2), ("getall", 1, 2), ("getregexp", 1, 2),
                         ("add", 2, 2), ("unset", 1, 2), ("unsetall", 1, 2),
                         ("replaceall", 2, 3), ("mvsection", 2, 2), ("rmsection", 1, 1)):
        if vals.get(flag):
            _config_argc(len(pos), lo, hi)
            break
    else:
        if not pos or len(pos) > 3:
            raise GitExit(CONFIG_USAGE[:-1], 129)
    # which file; ``shown`` is its name in git's messages
    repo = None
    scoped = bool(vals.get("global") or vals.get("file") or vals.get("local"))
    if vals.get("global"):
        vpath = global_config_path(ctx)
        if vpath is None:
            raise fatal("$HOME not set")
        shown = vpath
    elif vals.get("file"):
        vpath = posixpath.normpath(ctx.shell.abspath(vals["file"]))
        shown = vals["file"]
    else:
        repo = ctx.try_repo()
        if repo is None:
            if vals.get("local") or len(pos) > 1 or vals.get("unset"):
                raise fatal("--local can only be used inside a git repository" if vals.get("local")
                            else "not in a git directory")
            vpath = shown = None
        else:
            vpath = vjoin(repo.vgit, "config")
            shown = (posixpath.relpath(vpath, repo.vtop) if repo.vtop is not None
                     else vpath)

    def one_file():  # the scoped file, read as git reads an explicit one
        if repo is not None and vpath == vjoin(repo.vgit, "config"):
            return repo.config
        return load_config_file(ctx, vpath, shown=shown, must_exist=True)

    def every_file():  # the whole stack, lowest first
        if scoped:
            return [one_file()]
        cfgs = []
        g = global_config_path(ctx)
        if g is not None:
            cfg = load_config_file(ctx, g)
            if cfg is not None:
                cfgs.append(cfg)
        if repo is not None:
            cfgs.append(repo.config)
        return cfgs

    def present(v: str, key: str) -> str:
        if typ == "bool":
            return _format_bool(v, key)
        if typ == "int":
            return _parse_int(v, f"'{key}' in file {shown}" if shown else f"'{key}'")
        if typ == "bool-or-int":
            return v if re.fullmatch(r"[-+]?\d+[kKmMgG]?", v) else _format_bool(v, key)
        return v

    if vals.get("list"):
        rows = []
        for cfg in every_file():
            rows += list(_iter_items(cfg))
        if not scoped:
            rows += [(k.lower(), v) for k, v in ctx.overrides]
        end = "\0" if vals.get("z") else "\n"
        sep = "\n" if vals.get("z") else "="
        for k, v in rows:
            ctx.write(f"{k}{end}" if vals.get("nameonly") else f"{k}{sep}{v}{end}")
        return 0
    if vals.get("rmsection") or vals.get("mvsection"):
        if vpath is None:
            raise fatal("not in a git directory")
        own = repo if repo is not None and vpath == vjoin(repo.vgit, "config") else None
        cfg = own.edit_config() if own is not None else _load_cfg_file(ctx, vpath, expand=False)
        if not _rename_section(cfg, pos[0], pos[1] if vals.get("mvsection") else None):
            raise fatal(f"no such section: {pos[0]}")
        _save_cfg_file(ctx, vpath, cfg, own)
        return 0
    key = pos[0]
    if vals.get("getregexp"):
        try:
            rx = re.compile(key)
        except re.error:
            raise GitExit(f"error: invalid key pattern: {key}", 6) from None
        found = False
        for cfg in (every_file() if not scoped or vpath is None or _exists(ctx, vpath) else []):
            for k, v in _iter_items(cfg):
                if rx.search(k):
                    found = True
                    ctx.write(f"{k}\n" if vals.get("nameonly") else f"{k} {present(v, k)}\n")
        return 0 if found else 1
    getting = (vals.get("get") or vals.get("getall") or len(pos) == 1) and not (
        vals.get("unset") or vals.get("unsetall"))
    section, name = _split_key(key, writing=not getting)
    canon = ".".join([decode(section[0]), *(decode(x) for x in section[1:]), decode(name).lower()])
    if getting:
        values: list[str] = []
        for cfg in (every_file() if not scoped or _exists(ctx, vpath) else []):
            try:
                values.extend(decode(v) for v in cfg.get_multivar(section, name))
            except KeyError:
                pass
        if not scoped:
            from pysh.ports.git.core import _key_eq

            values += [v for k, v in ctx.overrides if _key_eq(k, key)]
        if not values:
            if vals.get("default") is not None:
                ctx.write(present(vals["default"], canon) + "\n")
                return 0
            return 1
        for v in (values if vals.get("getall") else values[-1:]):
            ctx.write(present(v, canon) + "\n")
        return 0
    if vpath is None:
        raise fatal("not in a git directory")
    own = repo if repo is not None and vpath == vjoin(repo.vgit, "config") else None
    cfg = own.edit_config() if own is not None else _load_cfg_file(ctx, vpath, expand=False)
    if vals.get("unset") or vals.get("unsetall"):
        try:
            cfg.get(section, name)
            cfg.remove(section, name)
        except KeyError:
            return 5
        _save_cfg_file(ctx, vpath, cfg, own)
        return 0
    if len(pos) < 2:
        raise GitExit(CONFIG_USAGE[:-1], 129)
    value = pos[1]
    if typ == "bool":
        value = _format_bool(value, key)
    elif typ == "int":
        value = _parse_int(value, f"'{key}'")
    if vals.get("add"):
        try:
            existing = list(cfg.get_multivar(section, name))
        except KeyError:
            existing = []
        if existing:
            cfg.add(section, name, encode(value))
        else:
            cfg.set(section, name, encode(value))
    else:
        cfg.set(section, name, encode(value))
    _save_cfg_file(ctx, vpath, cfg, own)
    return 0


def _exists(ctx: Ctx, vpath: str) -> bool:
    return vlstat(ctx.shell, vpath) is not None


# --------------------------------------------------------------- rev-parse
async def cmd_rev_parse(ctx: Ctx, args: list[str]) -> int:
    from pysh.ports.git import revs

    out = []
    short_n: int | None = None
    abbrev_ref = False
    verify = False
    quiet = False
    i = 0
    rest = []
    flags_seen = False
    while i < len(args):
        a = args[i]
        i += 1
        if a == "--show-toplevel":
            repo = ctx.repo
            if repo.vtop is None:
                raise fatal("this operation must be run in a work tree")
            out.append(repo.vtop + "\n")
        elif a == "--git-dir":
            repo = ctx.repo
            out.append(_git_dir_display(ctx, repo) + "\n")
        elif a == "--absolute-git-dir":
            out.append(ctx.repo.vgit + "\n")
        elif a == "--git-common-dir":
            out.append(_git_dir_display(ctx, ctx.repo) + "\n")
        elif a == "--is-inside-work-tree":
            repo = ctx.repo
            inside = repo.vtop is not None and (ctx.shell.cwd == repo.vtop or ctx.shell.cwd.startswith(
                repo.vtop.rstrip("/") + "/")) and not (ctx.shell.cwd + "/").startswith(repo.vgit + "/")
            out.append(("true" if inside else "false") + "\n")
        elif a == "--is-inside-git-dir":
            repo = ctx.repo
            inside = (ctx.shell.cwd + "/").startswith(repo.vgit.rstrip("/") + "/")
            out.append(("true" if inside else "false") + "\n")
        elif a == "--is-bare-repository":
            out.append(("true" if ctx.repo.bare else "false") + "\n")
        elif a == "--show-prefix":
            out.append(ctx.repo.prefix() + "\n")
        elif a == "--show-cdup":
            pre = ctx.repo.prefix()
            out.append("../" * pre.count("/") + "\n")
        elif a == "--short" or a.startswith("--short="):
            short_n = int(a.split("=", 1)[1]) if "=" in a else 7
            verify = True
        elif a == "--abbrev-ref" or a.startswith("--abbrev-ref="):
            abbrev_ref = True
        elif a == "--verify":
            verify = True
        elif a in ("-q", "--quiet"):
            quiet = True
        elif a == "--symbolic-full-name":
            abbrev_ref = "full"
        elif a == "--":
            rest.extend(args[i:])
            break
        elif a in ("--all", "--branches", "--tags"):
            repo = ctx.repo
            for ref, sha in sorted(repo.all_refs().items()):
                if a == "--branches" and not ref.startswith(b"refs/heads/"):
                    continue
                if a == "--tags" and not ref.startswith(b"refs/tags/"):
                    continue
                out.append(decode(sha) + "\n")
        elif a.startswith("--") and a not in ("--",):
            raise fatal(f"unknown option '{a}'" if False else f"ambiguous argument '{a}'")
        else:
            rest.append(a)
            flags_seen = True
    del flags_seen
    if rest:
        repo = ctx.repo
        if verify and len(rest) != 1:
            if quiet:
                return 128 if False else 1
            raise fatal("Needed a single revision")
        for r in rest:
            if abbrev_ref:
                name = _abbrev_ref(repo, r, full=abbrev_ref == "full")
                if name is None:
                    if verify and quiet:
                        return 1
                    raise revs.ambiguous(r)
                out.append(name + "\n")
                continue
            if r.startswith("^") and not verify:
                sha = revs.resolve(repo, r[1:], want=None, missing_ok=True)
                if sha is None:
                    raise revs.ambiguous(r)
                out.append("^" + decode(sha) + "\n")
                continue
            if ".." in r and not verify:
                inc, exc, _ = revs.parse_range_args(repo, [r])
                out.append(decode(inc[-1]) + "\n")
                for e in exc:
                    out.append("^" + decode(e) + "\n")
                continue
            sha = revs.resolve(repo, r, want="object", missing_ok=True)  # a tag stays a tag
            if sha is None:
                if quiet:
                    return 1
                if verify:
                    raise fatal("Needed a single revision")
                ctx.write("".join(out) + r + "\n")
                raise revs.ambiguous(r)
            if short_n is not None:
                out.append(repo.short(sha, short_n) + "\n")
            else:
                out.append(decode(sha) + "\n")
    ctx.write("".join(out))
    return 0


def _git_dir_display(ctx: Ctx, repo: Repo) -> str:
    cwd = ctx.shell.cwd
    if repo.vtop is not None and cwd == repo.vtop and repo.vgit == vjoin(repo.vtop, ".git"):
        return ".git"
    if cwd == repo.vgit:
        return "."
    return repo.vgit


def _abbrev_ref(repo: Repo, r: str, full: bool = False) -> str | None:
    from pysh.ports.git import revs

    if r in ("HEAD", "@"):
        ref = repo.head_ref()
        if ref is None:
            return "HEAD" if repo.head() is not None else None
        if full:
            return decode(ref)
        return decode(ref[len(b"refs/heads/"):]) if ref.startswith(b"refs/heads/") else decode(ref)
    ref, sha = revs.lookup_ref(repo, encode(r))
    if ref is None:
        sha = revs.resolve(repo, r, want=None, missing_ok=True)
        return "" if sha is not None and not full else None
    if full:
        return decode(ref)
    for pre in (b"refs/heads/", b"refs/tags/", b"refs/remotes/", b"refs/"):
        if ref.startswith(pre):
            return decode(ref[len(pre):])
    return decode(ref)
