"""git: a hardened port on dulwich's object store, refs and index.

Subcommands live in sibling modules, imported on first use. See ``core`` for the
security model (discovery, refusals, the config stack, work-tree I/O).
"""

from __future__ import annotations

from pysh.shellkit import Shell

HELP = """usage: git [-C <path>] [-c <name>=<value>] [--no-pager] <command> [<args>]

pysh's git (on dulwich). Supported commands:

   init       clone      add        rm         mv         commit     status
   log        diff       show       branch     checkout   switch     restore
   reset      tag        rev-parse  ls-files   grep       blame      stash
   merge      config     cat-file   ls-tree    rev-list   describe   shortlog
   remote     merge-base for-each-ref show-ref symbolic-ref update-ref
   name-rev   count-objects gc      prune      repack     fsck       help
   cherry-pick revert    rebase     reflog     clean      submodule  worktree
   diff-tree  format-patch apply am notes archive bisect

fetch, pull, push and ls-remote need a network: the sandbox has none.

Hooks, filters, fsmonitor and other command-running configuration never run;
no host configuration is read; network transports are refused.
"""

COMMANDS = {
    "init": "setup:cmd_init",
    "clone": "setup:cmd_clone",
    "config": "setup:cmd_config",
    "add": "index:cmd_add",
    "rm": "index:cmd_rm",
    "mv": "index:cmd_mv",
    "commit": "index:cmd_commit",
    "status": "status:cmd_status",
    "ls-files": "index:cmd_ls_files",
    "log": "log:cmd_log",
    "show": "log:cmd_show",
    "diff": "diffcmd:cmd_diff",
    "rev-parse": "setup:cmd_rev_parse",
    "cat-file": "log:cmd_cat_file",
    "ls-tree": "log:cmd_ls_tree",
    "branch": "branch:cmd_branch",
    "checkout": "branch:cmd_checkout",
    "switch": "branch:cmd_switch",
    "restore": "branch:cmd_restore",
    "reset": "branch:cmd_reset",
    "tag": "branch:cmd_tag",
    "merge": "merge:cmd_merge",
    "stash": "merge:cmd_stash",
    "grep": "log:cmd_grep",
    "blame": "log:cmd_blame",
    "for-each-ref": "refcmds:cmd_for_each_ref",
    "show-ref": "refcmds:cmd_show_ref",
    "symbolic-ref": "refcmds:cmd_symbolic_ref",
    "update-ref": "refcmds:cmd_update_ref",
    "describe": "refcmds:cmd_describe",
    "name-rev": "refcmds:cmd_name_rev",
    "rev-list": "history:cmd_rev_list",
    "merge-base": "history:cmd_merge_base",
    "shortlog": "history:cmd_shortlog",
    "count-objects": "history:cmd_count_objects",
    "gc": "history:cmd_maintenance_noop",
    "prune": "history:cmd_maintenance_noop",
    "repack": "history:cmd_maintenance_noop",
    "fsck": "history:cmd_maintenance_noop",
    "remote": "remote:cmd_remote",
    "reflog": "refcmds:cmd_reflog",
    "clean": "clean:cmd_clean",
    "diff-tree": "history:cmd_diff_tree",
    "format-patch": "patch:cmd_format_patch",
    "apply": "apply:cmd_apply",
    "am": "am:cmd_am",
    "notes": "notes:cmd_notes",
    "archive": "archive:cmd_archive",
    "bisect": "bisect:cmd_bisect",
    "submodule": "checkouts:cmd_submodule",
    "worktree": "checkouts:cmd_worktree",
    "cherry-pick": "sequencer:cmd_cherry_pick",
    "revert": "sequencer:cmd_revert",
    "rebase": "sequencer:cmd_rebase",
    "fetch": "remote:cmd_network",
    "pull": "remote:cmd_network",
    "push": "remote:cmd_network",
    "ls-remote": "remote:cmd_network",
}


async def main(shell: Shell, argv: list[str]) -> int:
    import importlib

    from pysh.ports.git.core import Ctx, GitExit
    from pysh.shellkit import BrokenPipe

    args = list(argv[1:])
    overrides: list[tuple[str, str]] = []
    cwd = shell.cwd
    while args and args[0].startswith("-"):
        a = args.pop(0)
        if a in ("-h", "--help"):
            await shell.stdout.write(HELP.encode())
            return 0
        if a == "--version":
            await shell.stdout.write(b"git version 2.39.5 (pysh)\n")
            return 0
        if a in ("--no-pager", "-P", "--no-replace-objects", "--literal-pathspecs",
                 "--no-optional-locks"):
            continue
        if a == "-C" or a == "-c":
            if not args:
                await shell.stderr.write(f"error: no directory given for {a}\n".encode()
                                         if a == "-C" else b"error: -c expects a configuration string\n")
                return 129
            val = args.pop(0)
            if a == "-C":
                import os
                import posixpath
                import stat

                target = posixpath.normpath(shell.abspath(val))
                try:
                    st = shell.core.stat(target, follow=True)
                    code = 0 if stat.S_ISDIR(st.st_mode) else 20
                except OSError as e:
                    code = e.errno or 2
                if code:
                    await shell.stderr.write(
                        f"fatal: cannot change to '{val}': {os.strerror(code)}\n".encode(
                            "utf-8", "surrogateescape"))
                    return 128
                cwd = target
            else:
                k, eq, v = val.partition("=")
                overrides.append((k, v if eq else "true"))
            continue
        if a.startswith("--git-dir=") or a.startswith("--work-tree="):
            k, _, v = a.partition("=")
            shell = shell.child(env={**shell.env, ("GIT_DIR" if k == "--git-dir" else
                                                  "GIT_WORK_TREE"): v})
            continue
        await shell.stderr.write(f"unknown option: {a}\n{HELP.splitlines()[0]}\n".encode())
        return 129
    if not args:
        await shell.stdout.write(HELP.encode())
        return 1
    if cwd != shell.cwd:
        shell = shell.child(cwd=cwd)
    name = args[0]
    if name == "help":
        await shell.stdout.write(HELP.encode())
        return 0
    target = COMMANDS.get(name)
    if target is None:
        await shell.stderr.write(
            f"git: '{name}' is not a git command. See 'git --help'.\n".encode("utf-8", "surrogateescape"))
        return 1
    if len(args) > 1 and args[1] in ("-h", "--help"):
        await shell.stdout.write(f"usage: git {name} [<options>]\n\n(pysh port: see 'git --help')\n".encode())
        return 0
    mod, func = target.split(":")
    fn = getattr(importlib.import_module(f"pysh.ports.git.{mod}"), func)
    ctx = Ctx(shell, overrides)
    ctx.command = name
    try:
        try:
            status = await fn(ctx, args[1:])
        finally:
            ctx.close()  # index lock released unless written, packs closed
    except GitExit as e:
        await ctx.flush()
        msg = e.message
        if msg:
            await shell.stderr.write(shell.display(msg).encode("utf-8", "surrogateescape") + b"\n")
        return e.status
    except OSError as e:
        await ctx.flush()
        from pysh.ports._common import fs_message

        await shell.stderr.write(f"fatal: {fs_message(e)}\n".encode("utf-8", "surrogateescape"))
        return 128
    except BrokenPipe:
        raise
    except Exception as e:  # a library error: git's words for it, never a class name or a traceback
        await ctx.flush()
        text = shell.display(library_error(e, name))
        await shell.stderr.write(f"fatal: {text}\n".encode("utf-8", "surrogateescape"))
        return 128
    await ctx.flush()
    return status


def _object_name(key) -> str:
    """A sha (20 raw bytes or 40 hex digits, bytes or str) as git prints it."""
    if isinstance(key, bytes) and len(key) == 20:
        return key.hex()
    if isinstance(key, bytes):
        return key.decode("ascii", "replace")
    return str(key)


def library_error(e: BaseException, command: str = "") -> str:
    """git 2.39's message (after ``fatal: ``) for an error the library raised past a subcommand.

    dulwich raises KeyError for a missing object, its FileFormatException family for corrupt
    files, ChecksumMismatch for a damaged pack; git says what it could not read."""
    from dulwich import errors as de

    from pysh.ports.git.core import NOT_A_REPO

    if isinstance(e, KeyError) and e.args:
        return f"unable to read {_object_name(e.args[0])}"
    if isinstance(e, de.NotGitRepository):
        return NOT_A_REPO
    if isinstance(e, de.ObjectMissing):
        return f"unable to read {_object_name(e.args[0]) if e.args else 'object'}"
    if isinstance(e, de.MissingCommitError):
        return f"bad object {_object_name(e.args[0]) if e.args else 'commit'}"
    if isinstance(e, de.WrongObjectException):
        kind = {de.NotCommitError: "commit", de.NotTreeError: "tree", de.NotTagError: "tag",
                de.NotBlobError: "blob"}.get(type(e), "object")
        return f"object {_object_name(e.args[0]) if e.args else ''} is not a {kind}".replace("  ", " ")
    if isinstance(e, de.PackedRefsException):
        return "unexpected line in .git/packed-refs"
    if isinstance(e, de.RefFormatError):
        return "bad ref name"
    if isinstance(e, (de.ChecksumMismatch, de.ApplyDeltaError)):
        return "packfile is corrupt"
    if isinstance(e, (de.FileFormatException, de.NoIndexPresent)) or type(e).__module__.startswith(
            ("dulwich.index", "dulwich.pack", "dulwich.objects", "zlib")):
        return "object file is corrupt" if "index" not in type(e).__module__ else "index file corrupt"
    if isinstance(e, de.GitProtocolError):
        return "the remote end hung up unexpectedly"
    if isinstance(e, (UnicodeError, ValueError)):
        return "bad object: invalid data in the repository"
    if isinstance(e, RecursionError):
        return "the history is too deep to walk"
    if isinstance(e, MemoryError):
        return "out of memory"
    # anything else is a fault of this port: say what failed, never Python's words for it
    return f"git {command}: the command could not complete" if command else \
        "the command could not complete"
