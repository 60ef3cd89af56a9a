"""The round trip of issue 14: a 31-step agent session (branch, edit, commit, rebase,
cherry-pick, revert, stash, a merge whose conflict is resolved by editing, tags, format-patch,
am) with dates and identities pinned, run by pysh in-process and compared with what the real
git 2.39 printed for the same script: every step's status and output, then every commit id,
tree id and ref. Equal commit ids mean the repositories hold the same objects.

The real git is not needed here: its result is recorded in ``roundtrip_expected.json`` by
``python -m tests.ports.git.test_git_roundtrip`` (bash + git 2.39 on the host), which also runs
the same script through the pysh CLI on a host directory and has the real ``git fsck --strict``
check the repository pysh wrote; the recording refuses to be written unless both pass.
"""

from __future__ import annotations

import json
import pathlib

HERE = pathlib.Path(__file__).resolve().parent
SCENARIO = HERE / "roundtrip_scenario.sh"
EXPECTED = HERE / "roundtrip_expected.json"


def test_agent_session_gives_gits_commits():
    from tests.interp.runner import run_script

    want = json.loads(EXPECTED.read_text())
    r = run_script(SCENARIO.read_text(), timeout=120.0)
    assert r.err == ""
    assert (r.out, r.status) == (want["stdout"], want["status"])
    # the recording checked pysh's repository with the real git fsck
    assert want["pysh_fsck"] == {"status": 0, "errors": ""}


def _record() -> None:
    import os
    import subprocess
    import sys
    import tempfile

    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LC_ALL": "C.UTF-8", "TZ": "UTC"}
    with tempfile.TemporaryDirectory() as real, tempfile.TemporaryDirectory() as home, \
            tempfile.TemporaryDirectory() as mine:
        p = subprocess.run(["bash", str(SCENARIO)], cwd=real, env=dict(env, HOME=home),
                           capture_output=True, text=True, timeout=120)
        pysh = os.path.join(os.path.dirname(sys.executable), "pysh")
        q = subprocess.run([pysh, "--sandbox", mine, "-c", SCENARIO.read_text()],
                           capture_output=True, text=True, timeout=300)
        fsck = subprocess.run(["git", "-C", os.path.join(mine, "repo"), "fsck", "--strict",
                               "--no-dangling"], env=dict(env, HOME=home), capture_output=True,
                              text=True, timeout=120)
    if p.stderr or p.returncode:
        raise SystemExit(f"the real run failed:\n{p.stderr}")
    if (q.stdout, q.returncode) != (p.stdout, p.returncode):
        raise SystemExit("pysh's run differs from git's: fix pysh before recording")
    if fsck.returncode or fsck.stdout or fsck.stderr:
        raise SystemExit(f"git fsck on pysh's repository:\n{fsck.stdout}{fsck.stderr}")
    EXPECTED.write_text(json.dumps({"stdout": p.stdout, "status": p.returncode,
                                    "pysh_fsck": {"status": fsck.returncode,
                                                  "errors": fsck.stderr}}, indent=1) + "\n")
    print(f"recorded {EXPECTED.name}: {p.stdout.count(chr(10))} lines, pysh's repository "
          "passes git fsck --strict")


if __name__ == "__main__":
    _record()
