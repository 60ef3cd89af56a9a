"""A fixture tree full of traps, and sandbox instances over it.

Every host directory of the fixture carries CANARY in its name: no message,
repr or folded path may ever contain it.
"""

from __future__ import annotations

import os
import uuid
from dataclasses import dataclass

import pytest

from tests import harness

CANARY = "CANARY" + uuid.uuid4().hex[:12]
SECRET = b"SECRET-" + CANARY.encode()


@dataclass
class Tree:
    base: str
    ws: str
    outside: str


def build_tree(root: str) -> Tree:
    base = os.path.join(root, f"host-{CANARY}")
    ws = os.path.join(base, f"ws-{CANARY}")
    outside = os.path.join(base, f"outside-{CANARY}")
    for d in (ws, outside, os.path.join(ws, "dir", "sub")):
        os.makedirs(d, exist_ok=True)
    with open(os.path.join(outside, "secret.txt"), "wb") as f:
        f.write(SECRET)
    with open(os.path.join(ws, "file.txt"), "wb") as f:
        f.write(b"inside\n")
    with open(os.path.join(ws, "dir", "sub", "f"), "wb") as f:
        f.write(b"deep\n")
    links = {
        # in-mount links keep working
        "in_rel": "file.txt",
        "in_dir": "dir",
        "in_sub": "dir/sub",
        "in_abs": os.path.join(ws, "file.txt"),  # absolute, inside the host root
        "dir/up": "../file.txt",
        # escapes
        "out_rel": f"../outside-{CANARY}",
        "out_abs": outside,
        "out_file": os.path.join(outside, "secret.txt"),
        "etc": "/etc",
        "chain_a": "chain_b",
        "chain_b": f"dir/../../outside-{CANARY}",
        "loop1": "loop2",
        "loop2": "loop1",
        "proc_root": "/proc/self/root",
        "proc_cwd": "/proc/self/cwd",
        "dir/deep_out": f"../../outside-{CANARY}",
        "dangling_out": f"../outside-{CANARY}/newfile",
        "dangling_in": "newfile_in",
    }
    for name, target in links.items():
        os.symlink(target, os.path.join(ws, name))
    # a chain of 41 links is denied; 40 is followed (the kernel's limit)
    for i in range(41):
        os.symlink(f"l41_{i + 1}" if i < 40 else "file.txt", os.path.join(ws, f"l41_{i}"))
    for i in range(40):
        os.symlink(f"l40_{i + 1}" if i < 39 else "file.txt", os.path.join(ws, f"l40_{i}"))
    return Tree(base, ws, outside)


@pytest.fixture
def tree(tmp_path) -> Tree:
    return build_tree(str(tmp_path))


@pytest.fixture
def instance(tree):
    with harness.instance(tree.ws) as ex:
        yield ex


def assert_no_canary(*texts: object) -> None:
    for t in texts:
        assert CANARY not in str(t), t
        assert CANARY not in repr(t), t
