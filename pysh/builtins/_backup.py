"""Backups of overwritten destinations (GNU's -b, --backup[=CONTROL], -S/--suffix) for cp, mv,
ln and install: the version-control kinds, VERSION_CONTROL and SIMPLE_BACKUP_SUFFIX, and the
backup's name."""

from __future__ import annotations

from pysh.builtins._fileutil import Usage, lq
from pysh.shellkit import FileSystemError

KINDS = (("none", "none"), ("off", "none"), ("simple", "simple"), ("never", "simple"),
         ("existing", "existing"), ("nil", "existing"), ("numbered", "numbered"),
         ("t", "numbered"))


class Backups:
    """What the options asked for; ``kind`` stays "none" when no backups are made."""

    def __init__(self) -> None:
        self.wanted = False
        self.control: str | None = None
        self.suffix: str | None = None
        self.kind = "none"

    def option(self, key: str, value: str | None) -> bool:
        """Take -b or --backup[=CONTROL] (key "b" or "backup") or -S/--suffix ("S");
        False for other keys."""
        if key in ("b", "backup"):
            self.wanted = True
            if value is not None:
                self.control = value
        elif key == "S":
            self.wanted = True
            self.suffix = value
        else:
            return False
        return True

    def settle(self, env) -> None:
        """Decide the kind and the suffix once every option is read (raises Usage)."""
        if not self.wanted:
            return
        control = self.control or env.get("VERSION_CONTROL") or "existing"
        kind = dict(KINDS).get(control)
        if kind is None:
            matches = {val for name, val in KINDS if name.startswith(control)}
            if len(matches) != 1:
                what = "ambiguous" if matches else "invalid"
                raise Usage(f"{what} argument {lq(control)} for {lq('backup type')}\n"
                            "Valid arguments are:\n  - ‘none’, ‘off’\n  - ‘simple’, "
                            "‘never’\n  - ‘existing’, ‘nil’\n  - ‘numbered’, ‘t’")
            kind = matches.pop()
        self.kind = kind
        self.suffix = self.suffix or env.get("SIMPLE_BACKUP_SUFFIX") or "~"

    def name(self, fs, dst: str) -> str | None:
        """The name the existing ``dst`` is renamed to, or None when no backup is made."""
        if self.kind == "none":
            return None
        base = dst.rsplit("/", 1)[-1]
        parent = dst[:len(dst) - len(base)] or "."
        if self.kind in ("numbered", "existing"):
            try:
                names = fs.listdir(parent)
            except FileSystemError:
                names = []
            highest = 0
            for n in names:
                if n.startswith(base + ".~") and n.endswith("~") and n[len(base) + 2:-1].isdigit():
                    highest = max(highest, int(n[len(base) + 2:-1]))
            if self.kind == "numbered" or highest:
                return f"{dst}.~{highest + 1}~"
        return dst + (self.suffix or "~")

    def make(self, fs, dst: str) -> str | None:
        """Rename the existing ``dst`` to its backup name; the name, or None when none is made.
        Raises FileSystemError when the rename fails."""
        backup = self.name(fs, dst)
        if backup is not None:
            fs.rename(dst, backup)
        return backup
