"""A concurrent symlink swap while rg and sqlite3 run over the swapped directory: zero outside reads."""

from __future__ import annotations

import os
import sqlite3
import threading
import time

import pytest

from tests.harness import PLANTS_ON_THE_HOST, run_cmd
from tests.shellkit.conftest import CANARY
from tests.shellkit.test_race import _exchange


def _swap_setup(inst, tree, make):
    ws = inst.workspace_dir
    real = os.path.join(ws, "swap")
    os.mkdir(real)
    make(real, inside=True)
    make(tree.outside, inside=False)
    other = os.path.join(ws, "swap_other")
    os.symlink(tree.outside, other)
    return real, other


def _race(real, other, body, seconds=1.5):
    stop = threading.Event()
    swaps = 0

    def swapper():
        nonlocal swaps
        while not stop.is_set():
            _exchange(real, other)
            swaps += 1

    t = threading.Thread(target=swapper, daemon=True)
    t.start()
    results = []
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            results.append(body())
    finally:
        stop.set()
        t.join()
    return swaps, results


@pytest.mark.plain_only(PLANTS_ON_THE_HOST)
def test_rg_swap_race(inst, tree):
    def make(d, inside):
        with open(os.path.join(d, "f.txt"), "wb") as f:
            f.write(b"needle inside\n" if inside else b"needle " + CANARY.encode() + b"\n")

    real, other = _swap_setup(inst, tree, make)

    def body():
        r = run_cmd(inst, ["rg", "needle", "swap/f.txt", "swap"])
        return r

    swaps, results = _race(real, other, body)
    assert swaps > 100
    outs = [r.out + r.err for r in results]
    assert all(CANARY not in o for o in outs)
    assert any("needle inside" in r.out for r in results)  # the race ran both ways:
    assert any(r.status == 2 for r in results)             # found inside, and denied


@pytest.mark.plain_only(PLANTS_ON_THE_HOST)
def test_sqlite_swap_race(inst, tree):
    def make(d, inside):
        c = sqlite3.connect(os.path.join(d, "db.sqlite"))
        c.execute("create table t(v)")
        c.execute("insert into t values (?)", ("inside" if inside else CANARY,))
        c.commit()
        c.close()

    real, other = _swap_setup(inst, tree, make)

    def body():
        return run_cmd(inst, ["sqlite3", "-readonly", "swap/db.sqlite", "select v from t"])

    swaps, results = _race(real, other, body)
    assert swaps > 100
    assert all(CANARY not in r.out + r.err for r in results)
    assert any(r.out == "inside\n" for r in results)
    assert any(r.status != 0 for r in results)
