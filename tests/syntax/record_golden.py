#!/usr/bin/env python3
"""Re-record bash's `bash -n` verdicts into the golden files used by the tests.

    python3 tests/syntax/record_golden.py            # spec cases + corpus
    python3 tests/syntax/record_golden.py --corpus-only

* golden/spec_bash_n.json: for every case of ../shared/spec/cases/*.test.sh,
  keyed by "file::case name", the sha256 of the case's code and bash's
  verdict ("ok" or the first error line).
* golden/snippets_bash_n.json: the same for the hand-written tricky snippets
  of golden/snippets.txt (separated by lines "====").
* golden/corpus_bash_n.json: the same for every script in corpus/ (a
  committed copy of real-world scripts, see corpus/README.md), and for
  mutants of each script (cut after 1/4, 1/2, 3/4 of its lines; one line
  deleted at 1/3 and at 2/3) -- real code that bash often rejects.

The tests only read these files; they never run bash.

bash's verdict: `bash -n FILE` accepts when it exits 0 and prints nothing
but warnings.  bash 5.2 has one more twist: an error inside `[[ ]]` makes
the parser stop as if at end of file, sometimes silently and with status 0.
So an accepted file is probed once more with a `)` line appended: if bash
does not complain about that `)`, it stopped early and the verdict is a
rejection.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SPEC_DIR = os.path.normpath(os.path.join(ROOT, "..", "shared", "spec"))
if not os.path.isdir(SPEC_DIR):
    SPEC_DIR = "/work/shared/spec"
GOLDEN = os.path.join(HERE, "golden")
CORPUS = os.path.join(HERE, "corpus")


def load_parse_spec():
    path = os.path.join(SPEC_DIR, "run_spec.py")
    spec = importlib.util.spec_from_file_location("_run_spec", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.parse_spec


def spec_cases():
    """Yield (key, code_bytes) for every spec case."""
    parse_spec = load_parse_spec()
    cases_dir = os.path.join(SPEC_DIR, "cases")
    for fn in sorted(os.listdir(cases_dir)):
        if not fn.endswith(".test.sh"):
            continue
        with open(os.path.join(cases_dir, fn), "rb") as f:
            _, cases = parse_spec(f.read())
        seen = {}
        for c in cases:
            name = c["name"]
            n = seen.get(name, 0)
            seen[name] = n + 1
            key = f"{fn}::{name}" + (f"#{n}" if n else "")
            yield key, c["code"]


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _bash_n(data: bytes) -> tuple[int, list[str]]:
    with tempfile.NamedTemporaryFile("wb", suffix=".sh", delete=False) as f:
        f.write(data)
        path = f.name
    try:
        p = subprocess.run(["bash", "-n", path], capture_output=True, timeout=30)
    finally:
        os.unlink(path)
    lines = p.stderr.decode("utf-8", "replace").replace(path, "FILE").splitlines()
    return p.returncode, lines


def bash_verdict(data: bytes) -> str:
    rc, lines = _bash_n(data)
    errors = [ln for ln in lines if "warning:" not in ln]
    if rc != 0 or errors:
        return errors[0] if errors else f"exit {rc}"
    probe = data if data.endswith(b"\n") or not data else data + b"\n"
    _, lines2 = _bash_n(probe + b")\n")
    text = "\n".join(lines2)
    if "unexpected token `)'" in text:
        return "ok"
    if lines2 and all("warning:" in ln for ln in lines2):
        return "ok"  # the ')' went into an unterminated here-document
    return "stopped early: " + (lines2[0] if lines2 else "(silently)")


def corpus_files():
    if not os.path.isdir(CORPUS):
        return
    for root, _dirs, files in os.walk(CORPUS):
        for fn in sorted(files):
            if fn.endswith(".md"):
                continue
            path = os.path.join(root, fn)
            yield os.path.relpath(path, CORPUS), path


def record_spec():
    out = {}
    for key, code in spec_cases():
        out[key] = {"sha256": sha(code), "bash": bash_verdict(code)}
    write(os.path.join(GOLDEN, "spec_bash_n.json"), out)
    return out


def mutants(data: bytes):
    """(suffix, bytes) variants of a script: truncations and one-line deletions."""
    lines = data.splitlines(keepends=True)
    n = len(lines)
    if n < 8:
        return
    for num, den in ((1, 4), (1, 2), (3, 4)):
        k = n * num // den
        yield f"@cut{k}", b"".join(lines[:k])
    for num, den in ((1, 3), (2, 3)):
        k = n * num // den
        yield f"@del{k}", b"".join(lines[:k] + lines[k + 1:])


def snippets():
    with open(os.path.join(GOLDEN, "snippets.txt"), "rb") as f:
        data = f.read()
    for n, snip in enumerate(data.split(b"\n====\n")):
        yield f"snippet{n}", snip


def record_snippets():
    out = {}
    for key, code in snippets():
        out[key] = {"sha256": sha(code), "bash": bash_verdict(code)}
    write(os.path.join(GOLDEN, "snippets_bash_n.json"), out)
    return out


def record_corpus():
    out = {}
    for rel, path in corpus_files():
        with open(path, "rb") as f:
            data = f.read()
        out[rel] = {"sha256": sha(data), "bash": bash_verdict(data)}
        for suffix, mdata in mutants(data):
            out[rel + suffix] = {"sha256": sha(mdata), "bash": bash_verdict(mdata)}
    write(os.path.join(GOLDEN, "corpus_bash_n.json"), out)
    return out


def write(path, obj):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(obj, f, indent=1, sort_keys=True)
        f.write("\n")
    ok = sum(1 for v in obj.values() if v["bash"] == "ok")
    print(f"{path}: {len(obj)} entries, bash accepts {ok}")


def main(argv):
    if "--corpus-only" not in argv:
        record_spec()
        record_snippets()
    record_corpus()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
