"""df: the sandbox's mounts only (figures of the host file system holding each one).

Each mount shows as file system ``sandbox`` of type ``pysh``, mounted at its
virtual path; nothing of the host's mount table is shown.
"""

from __future__ import annotations

from pysh.builtins._fileutil import (
    Output,
    Usage,
    help_or_version,
    human,
    parse,
    strerror,
    usage_error,
)
from pysh.shellkit import FileSystemError

PROG = "df"

HELP = """
Usage: df [OPTION]... [FILE]...
Show information about the file system on which each FILE resides,
or all file systems by default.

  -a, --all             include pseudo, duplicate, inaccessible file systems
  -h, --human-readable  print sizes in powers of 1024 (e.g., 1023M)
  -H, --si              print sizes in powers of 1000 (e.g., 1.1G)
  -i, --inodes          list inode information instead of block usage
  -k                    like --block-size=1K
  -P, --portability     use the POSIX output format
  -T, --print-type      print file system type
      --total           elide all entries insignificant to available space,
                          and produce a grand total
      --help        display this help and exit
"""


async def main(shell, argv: list[str]) -> int:
    human_base = 0
    show_type = inodes = total = posix = False
    try:
        opts, names = parse(argv[1:], "ahHikPTlx:t:B:", {
            "all": "a", "human-readable": "h", "si": "H", "inodes": "i", "portability": "P",
            "print-type": "T", "total": "total", "local": "l", "block-size=": "B",
            "exclude-type=": "x", "type=": "t", "sync": "sync", "no-sync": "nosync",
            "output?": "output"})
        if await help_or_version(shell, PROG, opts, HELP):
            return 0
        for k, _v in opts:
            if k == "h":
                human_base = 1024
            elif k == "H":
                human_base = 1000
            elif k == "k":
                human_base = 0
            elif k == "T":
                show_type = True
            elif k == "i":
                inodes = True
            elif k == "total":
                total = True
            elif k == "P":
                posix = True
    except Usage as e:
        return await usage_error(shell, PROG, e)
    fs = shell.fs
    status = 0
    mounts = [m for m, _ro in fs.mounts()]
    chosen: list[str] = []
    if names:
        for name in names:
            try:
                canon = fs.realpath(name)
                fs.stat(name)
            except FileSystemError as e:
                await shell.error(PROG, f"{name}: {strerror(e)}")
                status = 1
                continue
            best = None
            for mp in mounts:
                if canon == mp or canon.startswith(mp.rstrip("/") + "/"):
                    if best is None or len(mp) > len(best):
                        best = mp
            if best is None:
                await shell.error(PROG, f"{name}: not on a mounted file system")
                status = 1
                continue
            chosen.append(best)
    else:
        chosen = mounts
    rows = []
    sums = [0, 0, 0]
    for mp in chosen:
        try:
            sv = fs.statvfs(mp)
        except FileSystemError as e:
            await shell.error(PROG, f"{mp}: {strerror(e)}")
            status = 1
            continue
        if inodes:
            size, free, avail = sv.f_files, sv.f_ffree, sv.f_favail
            used = size - free
        else:
            size = sv.f_blocks * sv.f_frsize
            used = (sv.f_blocks - sv.f_bfree) * sv.f_frsize
            avail = sv.f_bavail * sv.f_frsize
        sums[0] += size
        sums[1] += used
        sums[2] += avail
        rows.append(("sandbox", "pysh", size, used, avail, mp))
    if total:
        rows.append(("total", "-", sums[0], sums[1], sums[2], "-"))

    def fmt(n: int) -> str:
        if inodes:
            return str(n) if not human_base else human(n, human_base)
        if human_base:
            s = human(n, human_base)
            return s.replace("K", "k") if human_base == 1000 else s
        return str(-(-n // 1024))

    if inodes:
        heads = ["Inodes", "IUsed", "IFree", "IUse%"]
    elif human_base:
        heads = ["Size", "Used", "Avail", "Use%"]
    else:
        heads = ["1K-blocks", "Used", "Available", "Capacity" if posix else "Use%"]
    table = [["Filesystem", *(["Type"] if show_type else []), *heads, "Mounted on"]]
    for fsname, ftype, size, used, avail, mp in rows:
        denom = used + avail
        pct = "-" if denom == 0 else f"{-(-used * 100 // denom)}%"
        table.append([fsname, *([ftype] if show_type else []), fmt(size), fmt(used), fmt(avail),
                      pct, mp])
    widths = [max(len(r[i]) for r in table) for i in range(len(table[0]))]
    widths[0] = max(widths[0], 14)
    first_num = 2 if show_type else 1
    for i in range(first_num, first_num + 3):
        widths[i] = max(widths[i], 5)
    lines = []
    for r in table:
        cells = []
        for i, v in enumerate(r):
            if i == len(r) - 1:
                cells.append(v)
            elif i == 0 or (show_type and i == 1):
                cells.append(v.ljust(widths[i]))
            else:
                cells.append(v.rjust(widths[i]))
        lines.append(" ".join(cells) + "\n")
    out = Output(shell.stdout)
    await out.text("".join(lines))
    await out.flush()
    return status
