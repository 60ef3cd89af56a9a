"""Every golden case: pysh's stdout, stderr and status against the real tool's recording."""

from __future__ import annotations

import pytest

from tests.golden.framework import decode_blob, groups, load_cases, load_expected, to_bytes
from tests.harness import run_cmd, sandbox


def _params():
    for group in groups():
        expected = load_expected(group)
        for case in load_cases(group):
            yield pytest.param(case, expected.get(case["name"]), id=f"{group}:{case['name']}")


@pytest.mark.parametrize("case,expected", list(_params()))
def test_golden(case, expected):
    assert expected is not None, "no recording: run python -m tests.golden.record"
    if "script" in case:
        from tests.interp.runner import run_script

        assert not case.get("setup") and not case.get("env") and not case.get("cwd")
        r = run_script(case["script"], stdin=to_bytes(case.get("stdin")),
                       files=case.get("files", {}))
        assert (r.stdout, r.stderr, r.status) == (
            decode_blob(expected["stdout"]), decode_blob(expected["stderr"]), expected["status"])
        return
    with sandbox(case.get("files", {})) as ex:
        if case.get("fixture"):  # unpacked under the files, as when recording
            from tests.golden.fixtures.build import unpack

            unpack(case["fixture"], ex.workspace_dir)
            if hasattr(ex, "host_changed"):  # an overlay's lower layer, unpacked on the host
                ex.host_changed()
        for step in case.get("setup", []):
            if isinstance(step, dict):  # a file the harness writes itself
                path = "/batch/" + step["write"]
                parent = path.rsplit("/", 1)[0]
                ex.shell.fs.mkdir(parent, parents=True, exist_ok=True)
                data = to_bytes(step.get("content"))
                if step.get("append"):
                    ex.shell.fs.append_bytes(path, data)
                else:
                    ex.shell.fs.write_bytes(path, data)
                continue
            run_cmd(ex, step, env=case.get("env"))
        cwd = "/batch/" + case["cwd"] if case.get("cwd") else None
        r = run_cmd(ex, case["argv"], to_bytes(case.get("stdin")), env=case.get("env"), cwd=cwd)
    assert (r.stdout, r.stderr, r.status) == (
        decode_blob(expected["stdout"]), decode_blob(expected["stderr"]), expected["status"])
