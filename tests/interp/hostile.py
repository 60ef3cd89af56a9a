"""Run hostile scripts in a child process with a hard kill, so a regression (a hang, a
runaway allocation) fails the test instead of hanging the suite.

    results = run_hostile([Case("[[ $x == *a*b ]]", timeout=2), ...])

All cases of one call share one child (start-up is paid once); each result carries the
time its run took, measured in the child.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import asdict, dataclass, field

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

_CHILD = r"""
import json, sys, time
import anyio
from pysh.interpreter.toplevel import fresh_budget, make_interp, make_session, run_main
from pysh.shellkit import BytesInput, CaptureOutput, Limits
from tests.harness import sandbox
cases = json.loads(sys.stdin.read())
for c in cases:
    files = {k: (None if v is None else v.encode()) for k, v in c["files"].items()}
    limits = Limits.strict() if c["strict"] else Limits()
    limits = limits.with_(timeout=c["timeout"], **c["limits"])
    with sandbox(files, limits=limits) as ex:  # as tests/interp/runner.py, the run timed alone
        out, err = CaptureOutput(), CaptureOutput()
        interp = make_interp(make_session(ex), fds={0: BytesInput(c["stdin"].encode()), 1: out,
                                                    2: err}, argv0="pysh")
        fresh_budget(interp, limits.timeout)
        interp.script_path = "pysh"
        t = time.monotonic()
        status = anyio.run(run_main, interp, lambda it: it.run_source(c["script"], name="pysh"))
        elapsed = time.monotonic() - t
    o, e = (x.getvalue().decode("utf-8", "surrogateescape") for x in (out, err))
    print(json.dumps(dict(status=status, out=o[-4000:], err=e[-4000:], elapsed=elapsed)),
          flush=True)
"""


@dataclass
class Case:
    script: str
    timeout: float = 2.0
    files: dict = field(default_factory=dict)  # relative path -> text (None: a directory)
    limits: dict = field(default_factory=dict)  # other Limits fields
    strict: bool = False  # start from Limits.strict()
    stdin: str = ""


@dataclass
class Outcome:
    status: int
    out: str
    err: str
    elapsed: float


def run_hostile(cases: list[Case], slack: float = 20.0) -> list[Outcome]:
    """Run every case in one child; kill it when the whole batch overruns its deadlines."""
    budget = sum(c.timeout + 1 for c in cases) + slack
    p = subprocess.run([sys.executable, "-c", _CHILD], input=json.dumps([asdict(c) for c in cases]),
                       capture_output=True, text=True, timeout=budget, cwd=ROOT)
    lines = [ln for ln in p.stdout.splitlines() if ln.startswith("{")]
    assert len(lines) == len(cases), (p.returncode, p.stdout[-2000:], p.stderr[-2000:])
    return [Outcome(**json.loads(ln)) for ln in lines]


def assert_clean(o: Outcome) -> None:
    """No traceback, no internal error."""
    text = o.out + o.err
    assert "Traceback" not in text and "internal error" not in text, text[-2000:]


def run_python(code: str, timeout: float) -> str:
    """Run Python ``code`` in a child (hard-killed after ``timeout``); its stdout."""
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=timeout, cwd=ROOT)
    assert p.returncode == 0, (p.stdout[-2000:], p.stderr[-2000:])
    return p.stdout
