"""du: disk usage over held dir fds (GNU fts order; each inode counted once)."""

from __future__ import annotations

import stat as _stat

from pysh.builtins._fileutil import (
    Output,
    Usage,
    help_or_version,
    human,
    lq,
    lstat,
    parse,
    parse_size,
    q,
    stat,
    strerror,
    usage_error,
    walk_ordered,
)
from pysh.shellkit import FileSystemError, on_write_error

PROG = "du"

HELP = """
Usage: du [OPTION]... [FILE]...
Summarize device usage of the set of FILEs, recursively for directories.

  -0, --null            end each output line with NUL, not newline
  -a, --all             write counts for all files, not just directories
      --apparent-size   print apparent sizes rather than device usage
  -B, --block-size=SIZE  scale sizes by SIZE before printing them
  -b, --bytes           equivalent to '--apparent-size --block-size=1'
  -c, --total           produce a grand total
  -d, --max-depth=N     print the total for a directory (or file, with --all)
                          only if it is N or fewer levels below the command
                          line argument;  --max-depth=0 is the same as
                          --summarize
  -h, --human-readable  print sizes in human readable format (e.g., 1K 234M 2G)
      --inodes          list inode usage information instead of block usage
  -k                    like --block-size=1K
  -L, --dereference     dereference all symbolic links
  -l, --count-links     count sizes many times if hard linked
  -m                    like --block-size=1M
  -P, --no-dereference  don't follow any symbolic links (this is the default)
  -S, --separate-dirs   for directories do not include size of subdirectories
      --si              like -h, but use powers of 1000 not 1024
  -s, --summarize       display only a total for each argument
  -x, --one-file-system    skip directories on different file systems
      --help        display this help and exit
"""


class Du:
    def __init__(self):
        self.all = False
        self.apparent = False
        self.block = 1024
        self.human = 0
        self.total = False
        self.max_depth = None
        self.deref = "P"
        self.count_links = False
        self.separate = False
        self.summarize = False
        self.one_fs = False
        self.inodes = False
        self.end = "\n"
        self.seen: set = set()

    def size_of(self, st) -> int:
        if self.inodes:
            return 1
        if self.apparent:
            return st.st_size if not _stat.S_ISDIR(st.st_mode) or True else 0
        return (st.st_blocks or 0) * 512

    def fmt(self, n: int) -> str:
        if self.inodes:
            return str(n)
        if self.human:
            s = human(n, self.human)
            return s.replace("K", "k") if self.human == 1000 else s
        return str(-(-n // self.block))


@on_write_error(1, "{prog}: write error\n")
async def main(shell, argv: list[str]) -> int:
    du = Du()
    try:
        opts, names = parse(argv[1:], "0abB:cd:hHklLmPSsx", {
            "null": "0", "all": "a", "apparent-size": "apparent", "block-size=": "B",
            "bytes": "b", "total": "c", "max-depth=": "d", "human-readable": "h",
            "inodes": "inodes", "dereference": "L", "dereference-args": "H",
            "count-links": "l", "no-dereference": "P", "separate-dirs": "S", "si": "si",
            "summarize": "s", "one-file-system": "x", "exclude=": "exclude",
            "time?": "time"})
        if await help_or_version(shell, PROG, opts, HELP):
            return 0
        excludes = []
        for k, v in opts:
            if k == "0":
                du.end = "\0"
            elif k == "a":
                du.all = True
            elif k == "apparent":
                du.apparent = True
            elif k == "B":
                n = parse_size(v)
                if n is None or n == 0:
                    raise Usage(f"invalid --block-size argument {lq(v)}")
                du.block, du.human = n, 0
            elif k == "b":
                du.apparent, du.block, du.human = True, 1, 0
            elif k == "c":
                du.total = True
            elif k == "d":
                if not v.isdigit():
                    raise Usage(f"invalid maximum depth {lq(v)}")
                du.max_depth = int(v)
            elif k == "h":
                du.human = 1024
            elif k == "si":
                du.human = 1000
            elif k == "k":
                du.block, du.human = 1024, 0
            elif k == "m":
                du.block, du.human = 1024 * 1024, 0
            elif k == "L":
                du.deref = "L"
            elif k == "H":
                du.deref = "H"
            elif k == "P":
                du.deref = "P"
            elif k == "l":
                du.count_links = True
            elif k == "S":
                du.separate = True
            elif k == "s":
                du.summarize = True
            elif k == "x":
                du.one_fs = True
            elif k == "inodes":
                du.inodes = True
            elif k == "exclude":
                from pysh.builtins._fileutil import compile_glob

                excludes.append(compile_glob(v).fullmatch)
        if du.summarize and du.max_depth not in (None, 0):
            await shell.error(PROG, f"warning: summarizing conflicts with --max-depth="
                                    f"{du.max_depth}")
            raise Usage("", 1)
        if du.summarize:
            du.max_depth = 0
        if du.summarize and du.all:
            raise Usage("cannot both summarize and show all entries")
    except Usage as e:
        return await usage_error(shell, PROG, e)
    out = Output(shell.stdout)
    status = 0
    grand = 0
    fs = shell.fs
    for name in names or ["."]:
        shell.budget.check()
        try:
            st = stat(fs, name) if du.deref in ("L", "H") else lstat(fs, name)
        except FileSystemError as e:
            await out.flush()
            await shell.error(PROG, f"cannot access {q(name)}: {strerror(e)}")
            status = 1
            continue
        key = (st.st_dev, st.st_ino)
        if not du.count_links and key in du.seen:
            continue
        du.seen.add(key)
        if not _stat.S_ISDIR(st.st_mode):
            n = du.size_of(st)
            grand += n
            await out.text(f"{du.fmt(n)}\t{name}{du.end}")
            continue
        total, st_ok = await du_tree(shell, du, out, name, st, excludes)
        if not st_ok:
            status = 1
        grand += total
    if du.total:
        await out.text(f"{du.fmt(grand)}\ttotal{du.end}")
    await out.flush()
    return status


async def du_tree(shell, du: Du, out: Output, top: str, top_st, excludes) -> tuple[int, bool]:
    ok = True
    follow = du.deref == "L"
    # sizes accumulated per open directory: path -> [own+children total, subdirs-excluded]
    stack: list[list] = [[top, du.size_of(top_st), 0]]
    dev = top_st.st_dev
    seen = du.seen
    for item in walk_ordered(shell, top, follow=follow):
        kind = item.kind
        if kind == "error":
            await out.flush()
            e = item.error
            await shell.error(PROG, f"cannot read directory {q(e.vpath or item.path)}: "
                                    f"{strerror(e)}")
            ok = False
            continue
        if kind == "post":
            if not stack or stack[-1][0] != item.path:
                continue
            path, size, _ = stack.pop()
            if du.max_depth is None or item.depth <= du.max_depth:
                await out.text(f"{du.fmt(size)}\t{path}{du.end}")
            if stack and not du.separate:
                stack[-1][1] += size
            continue
        if excludes and any(m(item.name) for m in excludes):
            item.prune = True
            continue
        try:
            est = item.entry.stat(follow and item.entry.type == "l")
        except FileSystemError as e:
            await out.flush()
            await shell.error(PROG, f"cannot access {q(item.path)}: {strerror(e)}")
            ok = False
            continue
        if follow and item.entry.type == "l" and item.entry.link_stat is None:
            await out.flush()
            await shell.error(PROG, f"cannot access {q(item.path)}")
            ok = False
            continue
        key = (est.st_dev, est.st_ino)
        if not du.count_links and key in seen:
            item.prune = True
            if item.is_dir:
                stack.append([item.path, 0, 0])
                stack.pop()
            continue
        seen.add(key)
        n = du.size_of(est)
        if item.is_dir:
            if du.one_fs and est.st_dev != dev:
                item.prune = True
                continue
            stack.append([item.path, n, 0])
            continue
        stack[-1][1] += n
        if du.all and (du.max_depth is None or item.depth <= du.max_depth):
            await out.text(f"{du.fmt(n)}\t{item.path}{du.end}")
        if len(out.buf) > 65536:
            await out.flush()
    total = 0
    while stack:
        path, size, _ = stack.pop()
        if stack:
            stack[-1][1] += size
        else:
            total = size
            await out.text(f"{du.fmt(size)}\t{path}{du.end}")
    return total, ok
