"""chown and chgrp: accepted as no-ops for the sandbox's own user, refused otherwise.

Every file in the sandbox belongs to the one synthetic user (``user``, uid
1000, group ``user``, gid 1000). Giving a file to that owner changes nothing
and succeeds, with GNU's ``-v`` wording ("ownership of 'f' retained as
user"); any other owner or group fails as it does for an unprivileged user
on a real system (``changing ownership of 'f': Operation not permitted``),
and a name the sandbox does not know is an ``invalid user``. ``-R`` walks the
tree in GNU's order (a directory after its contents).
"""

from __future__ import annotations

import errno
import os

from pysh.builtins._fileutil import (
    GID,
    UID,
    USER,
    Output,
    Usage,
    help_or_version,
    lq,
    parse,
    q,
    stat,
    strerror,
    usage_error,
    walk_ordered,
)
from pysh.shellkit import FileSystemError

# The accounts the sandbox knows (as `id` does): the user itself and root.
_USERS = {USER: UID, "root": 0}
_GROUPS = {USER: GID, "root": 0}

CHOWN_HELP = """
Usage: chown [OPTION]... [OWNER][:[GROUP]] FILE...
  or:  chown [OPTION]... --reference=RFILE FILE...
Change the owner and/or group of each FILE to OWNER and/or GROUP.
With --reference, change the owner and group of each FILE to those of RFILE.

  -c, --changes          like verbose but report only when a change is made
  -f, --silent, --quiet  suppress most error messages
  -v, --verbose          output a diagnostic for every file processed
      --dereference      affect the referent of each symbolic link (this is
                         the default), rather than the symbolic link itself
  -h, --no-dereference   affect symbolic links instead of any referenced file
      --from=CURRENT_OWNER:CURRENT_GROUP
                         change the owner and/or group of each file only if
                         its current owner and/or group match those specified
                         here.  Either may be omitted
      --no-preserve-root  do not treat '/' specially (the default)
      --preserve-root    fail to operate recursively on '/'
      --reference=RFILE  use RFILE's owner and group rather than
                         specifying OWNER:GROUP values
  -R, --recursive        operate on files and directories recursively
  -H, -L, -P             how -R traverses symbolic links (default -P)
      --help        display this help and exit
      --version     output version information and exit

In the sandbox every file belongs to 'user' (uid 1000, group 'user'): giving
a file to that owner succeeds and changes nothing; any other owner is refused
(Operation not permitted), as for an unprivileged user.
"""

CHGRP_HELP = """
Usage: chgrp [OPTION]... GROUP FILE...
  or:  chgrp [OPTION]... --reference=RFILE FILE...
Change the group of each FILE to GROUP.
With --reference, change the group of each FILE to that of RFILE.

  -c, --changes          like verbose but report only when a change is made
  -f, --silent, --quiet  suppress most error messages
  -v, --verbose          output a diagnostic for every file processed
      --dereference      affect the referent of each symbolic link (this is
                         the default), rather than the symbolic link itself
  -h, --no-dereference   affect symbolic links instead of any referenced file
      --no-preserve-root  do not treat '/' specially (the default)
      --preserve-root    fail to operate recursively on '/'
      --reference=RFILE  use RFILE's group rather than specifying a
                         GROUP value
  -R, --recursive        operate on files and directories recursively
  -H, -L, -P             how -R traverses symbolic links (default -P)
      --help        display this help and exit
      --version     output version information and exit

In the sandbox every file belongs to group 'user' (gid 1000): that group is
accepted and changes nothing; any other group is refused.
"""


def _lookup(name: str, table: dict[str, int]) -> int | None:
    if name in table:
        return table[name]
    if name.isdigit() and name.isascii():
        return int(name)
    return None


def _parse_spec(spec: str, prog: str) -> tuple[str | None, str | None, str | None]:
    """(user, group, warning) parts of OWNER[:[GROUP]]; raises Usage for unknown names."""
    warning = None
    if prog == "chgrp":
        if spec and _lookup(spec, _GROUPS) is None:
            raise Usage(f"invalid group: {lq(spec)}", hint=False)
        return None, spec, None
    if ":" in spec:
        user, _, group = spec.partition(":")
    elif "." in spec and _lookup(spec, _USERS) is None:
        user, _, group = spec.partition(".")
        warning = f"warning: '.' should be ':': {lq(spec)}"
    else:
        user, group = spec, None
    if user and _lookup(user, _USERS) is None:
        raise Usage(f"invalid user: {lq(spec)}", hint=False)
    if group and _lookup(group, _GROUPS) is None:
        raise Usage(f"invalid group: {lq(spec)}", hint=False)
    if group == "" and user:  # "user:" means the user's login group
        group = USER if _lookup(user, _USERS) == UID else "root"
        return user, group, warning
    return user or None, group or None, warning


async def _main(shell, argv: list[str], prog: str) -> int:
    fs = shell.fs
    quiet = verbose = recursive = preserve_root = False
    reference = None
    try:
        opts, operands = parse(argv[1:], "cfvhRHLP", {
            "changes": "c", "silent": "f", "quiet": "f", "verbose": "v",
            "dereference": "deref", "no-dereference": "h", "recursive": "R",
            "reference=": "reference", "preserve-root": "preserve",
            "no-preserve-root": "nopreserve", **({"from=": "from"} if prog == "chown" else {})})
        if await help_or_version(shell, prog, opts, CHOWN_HELP if prog == "chown" else CHGRP_HELP):
            return 0
        from_spec = None
        for k, v in opts:
            if k == "f":  # (-c reports changes, and nothing ever changes)
                quiet = True
            elif k == "v":
                verbose = True
            elif k == "R":
                recursive = True
            elif k == "reference":
                reference = v
            elif k == "preserve":
                preserve_root = True
            elif k == "nopreserve":
                preserve_root = False
            elif k == "from":
                from_spec = v
        if reference is None:
            if not operands:
                raise Usage("missing operand")
            spec = operands.pop(0)
            if not operands:
                raise Usage(f"missing operand after {lq(spec)}")
            user, group, warning = _parse_spec(spec, prog)
        else:
            if not operands:
                raise Usage("missing operand")
            user, group, warning = (None if prog == "chgrp" else USER), USER, None
        if from_spec is not None:
            _parse_spec(from_spec, "chown")
    except Usage as e:
        return await usage_error(shell, prog, e)
    if reference is not None:
        try:
            stat(fs, reference)
        except FileSystemError as e:
            await shell.error(prog, f"failed to get attributes of {q(reference)}: {strerror(e)}")
            return 1
    if warning:
        await shell.error(prog, warning)
    uid = _lookup(user, _USERS) if user else None
    gid = _lookup(group, _GROUPS) if group else None
    allowed = uid in (None, UID) and gid in (None, GID)
    what = "group" if prog == "chgrp" else "ownership"
    if prog == "chgrp":
        kept, old, new = USER, USER, group
    elif user is None and group is None:
        kept = old = new = None
    else:
        both = group is not None
        kept = f"{USER}:{USER}" if both else USER
        old = kept
        new = f"{user or ''}:{group}" if both else user
    out = Output(shell.stdout)
    status = 0

    async def change(shown: str) -> None:
        nonlocal status
        if allowed:
            if verbose:
                tail = f" as {kept}" if kept else ""
                await out.text(f"{what} of {q(shown)} retained{tail}\n")
            return
        status = 1
        if not quiet:
            await out.flush()
            verb = "group" if prog == "chgrp" or user is None else "ownership"
            await shell.error(prog, f"changing {verb} of {q(shown)}: {os.strerror(errno.EPERM)}")
        if verbose:
            await out.text(f"failed to change {what} of {q(shown)} from {old} to {new}\n")

    for name in operands:
        shell.budget.check()
        try:
            st = stat(fs, name)
        except FileSystemError as e:
            status = 1
            if not quiet:
                await out.flush()
                await shell.error(prog, f"cannot access {q(name)}: {strerror(e)}")
            continue
        if recursive and preserve_root and fs.realpath(name) == "/":
            await out.flush()
            await shell.error(prog, f"it is dangerous to operate recursively on {q(name)}")
            await shell.error(prog, "use --no-preserve-root to override this failsafe")
            status = 1
            continue
        if recursive and st.st_mode & 0o170000 == 0o040000:
            for item in walk_ordered(shell, name):
                if item.kind == "error":
                    status = 1
                    if not quiet:
                        await out.flush()
                        await shell.error(prog, f"cannot access {q(item.error.vpath or item.path)}"
                                                f": {strerror(item.error)}")
                elif item.kind == "post" or (item.kind == "entry" and not item.is_dir):
                    await change(item.path)
        await change(name)
    await out.flush()
    return status


async def chown_main(shell, argv: list[str]) -> int:
    return await _main(shell, argv, "chown")


async def chgrp_main(shell, argv: list[str]) -> int:
    return await _main(shell, argv, "chgrp")
