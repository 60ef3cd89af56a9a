"""Pipes named as files where pysh goes beyond the real tool: unzip reads a zip from a pipe."""

from tests.interp.runner import run_script


def test_unzip_from_process_substitution():
    r = run_script("zip -q - f1 > /dev/null; unzip -p <(zip -q - f1) f1; unzip -l <(zip -q - f1) "
                   "| tail -1", files={"f1": "one\ntwo\n"})
    assert r.out.splitlines()[:2] == ["one", "two"] and r.out.endswith("1 file\n")
    assert (r.err, r.status) == ("", 0)


def test_stat_of_a_pipe_is_a_fifo():
    r = run_script("file <(echo hi); stat -c %F <(echo hi)")
    assert r.out == "/dev/fd/63: fifo (named pipe)\nfifo\n"
