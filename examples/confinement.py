"""Both doors of the confinement core on a throwaway sandbox.

    python examples/confinement.py

Builds one sandbox instance (an ephemeral workspace at /batch and a private
/tmp), writes and reads through the FileSystem door, resolves through
Shell.resolve(), and shows that escapes are refused with virtual-path errors.
"""

from __future__ import annotations

import os

from pysh.interpreter import ExecCommand
from pysh.shellkit import FileSystemError


def main() -> None:
    with ExecCommand() as ex:
        shell = ex.shell
        fs = shell.fs
        fs.write_bytes("notes.txt", b"hello from the workspace\n")
        fs.mkdir("/tmp/work/deep", parents=True)
        fs.write_bytes("/tmp/work/deep/data", b"scratch\n")
        fs.symlink("/batch/notes.txt", "/batch/link")
        print("/ lists:", " ".join(fs.listdir("/")))
        print("door A read /batch/link ->", fs.read_bytes("/batch/link").decode().strip())
        print("door A readlink /batch/link ->", fs.readlink("/batch/link"))
        host = shell.resolve("/tmp/work/deep/data")
        print("door B resolve + to_virtual ->", shell.to_virtual(host))
        print("display folds host paths:", shell.display(f"error in {host}"))
        # A symlink planted on the host side, pointing out of the sandbox.
        os.symlink("/etc", os.path.join(ex.ephemeral_workspace, "escape"))
        for label, attempt in [
            ("door A read /etc/passwd", lambda: fs.read_bytes("/etc/passwd")),
            ("door A read /batch/escape/passwd", lambda: fs.read_bytes("/batch/escape/passwd")),
            ("door B resolve /batch/escape/passwd", lambda: shell.resolve("/batch/escape/passwd")),
            ("door A write /batch/../etc/x", lambda: fs.write_bytes("/batch/../etc/x", b"")),
        ]:
            try:
                attempt()
                print(f"{label}: ALLOWED (this is a bug)")
            except FileSystemError as e:
                print(f"{label}: refused: {e}")
    print("temp dir removed:", not os.path.exists(ex.temp_dir))


if __name__ == "__main__":
    main()
