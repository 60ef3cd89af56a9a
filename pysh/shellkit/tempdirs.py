"""The system temp root, and fresh names under it, without importing tempfile/uuid at start-up."""

from __future__ import annotations

import os
import sys


def system_temp_root() -> str:
    """What ``tempfile.gettempdir()`` returns (it is used when already imported)."""
    mod = sys.modules.get("tempfile")
    if mod is not None:
        return mod.gettempdir()
    for name in ("TMPDIR", "TEMP", "TMP"):
        d = os.environ.get(name)
        if d and os.path.isdir(d) and os.access(d, os.W_OK | os.X_OK):
            return os.path.abspath(d)
    for d in ("/tmp", "/var/tmp", "/usr/tmp"):
        if os.path.isdir(d) and os.access(d, os.W_OK | os.X_OK):
            return d
    import tempfile

    return tempfile.gettempdir()


def new_uuid() -> str:
    """A random (version 4) UUID string."""
    b = bytearray(os.urandom(16))
    b[6] = (b[6] & 0x0F) | 0x40
    b[8] = (b[8] & 0x3F) | 0x80
    h = b.hex()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"
