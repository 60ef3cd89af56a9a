"""tar flags pysh refuses say so clearly (usage errors exit 2)."""

import pytest

from tests.harness import run_cmd, sandbox


@pytest.mark.parametrize("flag", ["--zstd", "--lzma", "--lzip", "--lzop"])
def test_missing_codec_is_refused(flag):
    with sandbox({"f": "x\n"}) as ex:
        r = run_cmd(ex, ["tar", "-cf", "t.tar", flag, "f"])
    assert r.status == 2 and r.out == ""
    assert r.err.startswith(f"tar: {flag}: this compression is not available in the sandbox")


def test_bad_transform_and_mtime():
    with sandbox({"f": "x\n"}) as ex:
        r = run_cmd(ex, ["tar", "-cf", "t.tar", "--transform=q/a/b/", "f"])
        assert r.status == 2 and "Invalid transform expression" in r.err
        r = run_cmd(ex, ["tar", "-cf", "t.tar", "--mtime=next tuesday", "f"])
        assert r.status == 2 and "use @EPOCH or YYYY-MM-DD" in r.err
