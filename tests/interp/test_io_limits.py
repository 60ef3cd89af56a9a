"""Every read and write of a run is bounded where it passes (issue 12, items 4 and 6).

Reads that gather "until end" stop past ``max_string_length`` with the string-limit
error; writes stop at ``max_file_size`` / ``max_total_written`` with the file left no
larger than the limit. Each script runs in a child process with a hard kill
(tests/interp/isolated.py): on a regression these scripts would run until MemoryError
or fill the disk.
"""

from __future__ import annotations

import pytest

from pysh import Limits
from tests.interp.isolated import Outcome, run_batch

MIB = 1 << 20
READ_LIMITS = dict(timeout=5.0, max_string_length=MIB)
STRING_ERR = f"pysh: string: limit exceeded ({MIB} bytes)"

# Each reads /dev/zero (or endless output) "until end": before, each ran until MemoryError
# ("internal error") or past its deadline.
READS = {
    "read": "read x < /dev/zero",
    "while-read": "while read -r l; do :; done < /dev/zero",
    "read-N": "yes | { read -N 100000000 x; }",
    "cmdsub-file": "x=$(< /dev/zero)",
    "cmdsub-cat": "x=$(cat /dev/zero)",
    "cmdsub-yes": "x=$(yes)",
    "source": "source /dev/zero",
    "mapfile": "mapfile a < /dev/zero",
    "mapfile-urandom": "mapfile a < /dev/urandom",
    "sort": "sort /dev/zero",
    "sort-pipe": "cat /dev/zero | sort",
    "tac": "tac /dev/zero",
    "paste": "paste /dev/zero",
    "shuf": "shuf /dev/zero",
    "column": "column /dev/zero",
    "comm": "comm /dev/zero /dev/zero",
    "join": "join /dev/zero /dev/zero",
    "diff": "diff /dev/zero /dev/null",
    "cmp": "cmp /dev/zero /dev/zero",
    "strings": "strings /dev/zero",
    "bc": "bc /dev/zero",
    "split": "split /dev/zero",
    "xargs": "xargs -a /dev/zero",
    "envsubst": "envsubst < /dev/zero",
    "jq": "jq . /dev/zero",
    "sed": "sed p /dev/zero",
    "wc-L": "wc -L < /dev/zero",
    "fold": "fold /dev/zero",
    "rev": "rev /dev/zero",
    "uniq": "uniq /dev/zero",
    "nl": "nl /dev/zero",
    "cut": "cut -c1 /dev/zero",
    "awk": "awk 1 /dev/zero",
    "grep": "grep x /dev/zero",
    "tr-stdin": "tr -d x < /dev/zero | sort",
    "bash-stdin": "bash < /dev/zero",
    "sh-c-file": "sh /dev/zero",
    "head-elide": "head -n -1 /dev/zero",
    "tail-stdin": "tail -n 1 < /dev/zero",
    "xxd-r": "xxd -r < /dev/zero",
    "iconv": "iconv -f utf-8 -t utf-16 /dev/zero",
    "sort-m": "sort -m /dev/zero /dev/zero",
    "awk-getline": "awk 'BEGIN { getline x < \"/dev/zero\" }'",
    "patch": "patch < /dev/zero",
    "grep-f": "grep -f /dev/zero /dev/null",
    "tar-t": "tar tf /dev/zero",
    "unzip-l": "unzip -l /dev/zero",
    "sqlite-read": "sqlite3 :memory: '.read /dev/zero'",
    "cmp-procsub": "cmp <(yes) <(yes)",
}

LIM_W = dict(timeout=20.0, max_file_size=MIB, max_total_written=3 * MIB)
FILE_ERR = f"pysh: file size: limit exceeded ({MIB} bytes)"
TOTAL_ERR = f"pysh: write: limit exceeded ({3 * MIB} bytes written)"
SIZE = "stat -c %s f"

# name: (script, message, script run afterwards in the same sandbox, what it prints)
WRITES = {
    ">": ("head -c 2M /dev/zero > f", FILE_ERR, SIZE, f"{MIB}\n"),
    ">>": ("echo hi > f; head -c 2M /dev/zero >> f", FILE_ERR, SIZE, f"{MIB}\n"),
    "exec-fd": ("exec 3>f; head -c 2M /dev/zero >&3", FILE_ERR, SIZE, f"{MIB}\n"),
    "cat>": ("head -c 2M /dev/zero | cat > f", FILE_ERR, SIZE, f"{MIB}\n"),
    "tee": ("head -c 2M /dev/zero | tee f >/dev/null", FILE_ERR, SIZE, f"{MIB}\n"),
    "dd": ("dd if=/dev/zero of=f bs=64K count=32 status=none", FILE_ERR, SIZE, f"{MIB}\n"),
    "dd-seek": ("dd if=/dev/zero of=f bs=1 count=1 seek=10G status=none", FILE_ERR, SIZE,
                "0\n"),
    "truncate": ("truncate -s 10G f", FILE_ERR, SIZE, "0\n"),
    "xxd-r-s": ("echo 00000000: 41 | xxd -r -s 10000000000 - f", FILE_ERR, SIZE, "0\n"),
    "sort-o": ("seq 200000 | sort -o f", FILE_ERR, SIZE, f"{MIB}\n"),
    "sed-i": ("seq 100000 > f; sed -i p f", FILE_ERR, "ls", "f\n"),
    "sed>": ("seq 100000 | sed p > f", FILE_ERR, SIZE, f"{MIB}\n"),
    "cp": ("cp big c", FILE_ERR, "stat -c %s big c", f"{2 * MIB}\n{MIB}\n"),
    "mv-across-mounts-big": ("mv big /tmp/c", FILE_ERR, "stat -c %s big /tmp/c",
                             f"{2 * MIB}\n{MIB}\n"),
    "cp-total": ("head -c 900K /dev/zero > f; for x in a b c; do cp f $x; done", TOTAL_ERR,
                 "stat -c %s c", f"{3 * MIB - 3 * 900 * 1024}\n"),
    "mv-across-mounts": ("seq 100000 > /tmp/a; for x in b c d; do cp /tmp/a /tmp/$x; done; "
                         "mv /tmp/a /tmp/b /tmp/c /tmp/d .", TOTAL_ERR, None, None),
    "four-files": ("for i in 1 2 3 4; do head -c 900K /dev/zero > f$i; done", TOTAL_ERR,
                   "stat -c %s f4", f"{3 * MIB - 3 * 900 * 1024}\n"),
    "tar-c": ("seq 100000 > a; cp a b; tar cf t.tar a b", FILE_ERR, "stat -c %s t.tar",
              f"{MIB}\n"),
    "gunzip-bomb": ("head -c 8M /dev/zero | gzip > b.gz; gunzip b.gz", FILE_ERR,
                    "stat -c %s b", f"{MIB}\n"),
    "zcat>": ("head -c 8M /dev/zero | gzip > b.gz; zcat b.gz > f", FILE_ERR, SIZE,
              f"{MIB}\n"),
}


@pytest.fixture(scope="module")
def reads() -> dict:
    cases = [dict(name=k, script=v, limits=READ_LIMITS) for k, v in READS.items()]
    return run_batch(cases, kill_after=120)


@pytest.fixture(scope="module")
def writes() -> dict:
    cases = [dict(name=k, script=v[0], limits=LIM_W, after=v[2],
                  plant={"big": 2 * MIB} if "big" in v[0] else {})  # a file the host put there
             for k, v in WRITES.items()]
    return run_batch(cases, kill_after=180)


def test_a_read_that_only_drops_nul_bytes_ends_at_its_deadline():
    # bash drops NUL bytes and waits for more: /dev/zero never gives `read -N` a character.
    # Nothing grows, but the deadline must still land inside the read.
    r = run_batch([dict(name="n", limits=dict(timeout=1.0),
                        script="read -N 10 x < /dev/zero")], kill_after=60)["n"]
    assert isinstance(r, Outcome), r
    assert (r.status, r.err) == (124, "pysh: timeout: limit exceeded (1s)\n"), r
    assert r.elapsed < 2, r


def _clean(r: Outcome) -> None:
    assert "internal error" not in r.err and "Traceback" not in r.err, r


@pytest.mark.parametrize("name", list(READS))
def test_a_read_until_end_stops_at_the_string_limit(reads, name):
    r = reads[name]
    assert isinstance(r, Outcome), r
    _clean(r)
    assert (r.status, r.err) == (126, STRING_ERR + "\n"), r
    assert r.elapsed < READ_LIMITS["timeout"] + 1, r


@pytest.mark.parametrize("name", list(WRITES))
def test_a_write_stops_at_the_write_limits(writes, name):
    script, message, _after, size = WRITES[name]
    r = writes[name]
    assert isinstance(r, Outcome), r
    _clean(r)
    assert r.status == 126, r
    assert message in r.err, r
    if size is not None:
        assert r.after == size, r


def test_the_strict_limits_hold_at_full_size():
    # the issue's own reproductions under Limits.strict() (64 MiB per file, 256 MiB per run)
    strict = Limits.strict().as_dict()
    r = run_batch([dict(name="80M", limits=strict, script="head -c 80M /dev/zero > f",
                        after="stat -c %s f"),
                   dict(name="five", limits=strict, after="stat -c %s f5",
                        script="for i in 1 2 3 4 5; do head -c 60M /dev/zero > f$i; done")],
                  kill_after=240)
    big, five = r["80M"], r["five"]
    assert isinstance(big, Outcome) and isinstance(five, Outcome), r
    assert (big.status, big.err, big.after) == (
        126, "pysh: file size: limit exceeded (67108864 bytes)\n", f"{64 * MIB}\n"), big
    assert (five.status, five.err, five.after) == (
        126, "pysh: write: limit exceeded (268435456 bytes written)\n", f"{16 * MIB}\n"), five


def test_writes_under_the_limits_are_untouched(writes):
    # the same commands well inside the limits (the door must not change what they do)
    r = run_batch([dict(name="ok", limits=LIM_W, script=(
        "head -c 100K /dev/zero > f; echo x >> f; exec 3>g; echo y >&3; exec 3>&-; "
        "dd if=f of=h bs=1000 seek=3 status=none; truncate -s 200K f; cp f c; mv c /tmp/c; "
        "seq 1000 | sort -o s; sed -i p s; echo 00000000: 41 | xxd -r -s 100 - x; "
        "stat -c '%n %s' f g h s x /tmp/c; "
        "head -c 1M /dev/zero | gzip > b.gz; gunzip b.gz; stat -c %s b"))], kill_after=60)["ok"]
    assert isinstance(r, Outcome), r
    assert (r.status, r.err) == (0, ""), r
    assert r.out == ("f 204800\ng 2\nh 105402\ns 7786\nx 101\n/tmp/c 204800\n1048576\n"), r


def test_a_full_device_is_a_write_error_not_an_internal_error():
    r = run_batch([dict(name="full", limits=dict(timeout=10.0), script=(
        "echo x > /dev/full; echo $?; cat /dev/null /etc/x 2>/dev/null; "
        "seq 3 > /dev/full; echo $?; sort /dev/null > /dev/full; yes > /dev/full; echo $?"))],
        kill_after=60)["full"]
    assert isinstance(r, Outcome), r
    _clean(r)
    assert r.out == "1\n1\n1\n", r
    assert r.err == ("pysh: line 1: echo: write error: No space left on device\n"
                     "seq: write error: No space left on device\n"
                     "yes: standard output: No space left on device\n"), r


# A number from the script that sizes an allocation is checked before anything is made
# (issue 12, item 5): past the string limit it is the limit error; past what the real tool
# takes, the tool's own error (recorded from bash 5.2 / GNU coreutils / util-linux).
WIDTHS = {
    "printf-star": ("printf '%*s' 1000000000 x", 126, STRING_ERR),
    "printf-star-huge": ("printf '%*d' 99999999999 1", 126, STRING_ERR),
    "printf-width": ("printf '%99999999999d' 1", 126, STRING_ERR),
    "printf-precision": ("printf '%.*f' 99999999999 1", 126, STRING_ERR),
    "printf-total": ("printf '%500000s' 1 2 3", 126, STRING_ERR),
    "printf-v": ("printf -v x '%2000000s' 1", 126, STRING_ERR),
    "seq-format": ("seq -f '%099999999999g' 1 1", 126, STRING_ERR),
    "seq-huge": ("seq 1e999999 1e999999", 1, "seq: invalid floating point argument: ‘1e999999’"),
    "nl-width": ("echo a | nl -w 2000000", 126, STRING_ERR),
    "nl-width-huge": ("echo a | nl -w 99999999999", 1, "nl: invalid line number field width: "
                      "‘99999999999’: Value too large for defined data type"),
    "column-huge": ("echo a | column -c 99999999999", 1, "column: invalid columns argument: "
                    "'99999999999': Numerical result out of range"),
    "dd-bs": ("dd if=/dev/zero of=/dev/null bs=99999999999 count=1", 1,
              "dd: memory exhausted by input buffer of size 99999999999 bytes (93 GiB)"),
    "date-width": ("date +%99999999999d", 126, STRING_ERR),
    "truncate-huge": ("truncate -s 99999999999P f", 1, "truncate: Invalid number: "
                      "‘99999999999P’: Value too large for defined data type"),
    "tail-c": ("cat /dev/zero | tail -c 99999999999", 126, STRING_ERR),
    "tail-line": ("tail -n 1 /dev/zero", 126, STRING_ERR),
    "expand-tab": ("printf 'a\\tb\\n' | expand -t 99999999999", 126, STRING_ERR),
    "numfmt-padding": ("numfmt --padding=99999999 1", 126, STRING_ERR),
    "numfmt-format": ("numfmt --format=%099999999f 1", 126, STRING_ERR),
    "numfmt-precision": ("numfmt --format=%.99999999f 1", 126, STRING_ERR),
    "bc-power": ("echo '2^99999999' | bc", 126, STRING_ERR),
    "bc-scale": ("echo 'scale=99999999; 1/3' | bc", 126, STRING_ERR),
    "bc-squaring": ("echo 'x=2; while (1) x = x * x' | bc", 126, STRING_ERR),
    "tr-repeat-set1": ("echo ab | tr -s '[a*99999999999]' x", 126, STRING_ERR),
}

# Huge counts that cost nothing in the real tool (recorded from GNU coreutils / binutils):
# pysh must not allocate or loop by them either (before: MemoryError, OverflowError, OOM).
HUGE_BUT_HARMLESS = {
    "sort-k": ("printf '1 b\\n2 a\\n' | sort -k 99999999999", "1 b\n2 a\n"),
    "sort-k-end": ("printf '1 b\\n2 a\\n' | sort -k 1,99999999999 -k 2", "1 b\n2 a\n"),
    "sort-k-char": ("printf '1 b\\n2 a\\n' | sort -k 1.99999999999", "1 b\n2 a\n"),
    "tr-repeat": ("echo a | tr a '[b*99999999999]'; echo abc | tr abc '[x*99999999999]'",
                  "b\nxxx\n"),
    "tr-squeeze-repeat": ("echo aabbc | tr -ds c '[b*99999999]'", "aab\n"),
    "strings-n": ("printf 'abcdefgh' | strings -n 99999999999; echo $?", "0\n"),
}


@pytest.fixture(scope="module")
def widths() -> dict:
    cases = [dict(name=k, script=v[0], limits=READ_LIMITS) for k, v in WIDTHS.items()]
    cases += [dict(name=k, script=v[0], limits=READ_LIMITS) for k, v in HUGE_BUT_HARMLESS.items()]
    cases.append(dict(name="column-wide", limits=READ_LIMITS,
                      script="seq 5 | column -c 4000000000; seq 3 | column -x -c 3000000000"))
    return run_batch(cases, kill_after=90)


@pytest.mark.parametrize("name", list(WIDTHS))
def test_a_width_from_the_script_is_checked_before_it_allocates(widths, name):
    _script, status, message = WIDTHS[name]
    r = widths[name]
    assert isinstance(r, Outcome), r
    _clean(r)
    assert (r.status, r.err.splitlines()[:1]) == (status, [message]), r
    assert r.elapsed < READ_LIMITS["timeout"] + 1, r


def test_a_very_wide_column_layout_costs_no_more_than_its_items(widths):
    r = widths["column-wide"]
    assert isinstance(r, Outcome), r
    assert (r.status, r.out) == (0, "1\t2\t3\t4\t5\n1\t2\t3\n"), r


@pytest.mark.parametrize("name", list(HUGE_BUT_HARMLESS))
def test_a_huge_count_that_costs_the_tool_nothing_costs_nothing(widths, name):
    r = widths[name]
    assert isinstance(r, Outcome), r
    assert (r.status, r.out, r.err) == (0, HUGE_BUT_HARMLESS[name][1], ""), r
