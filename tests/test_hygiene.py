"""The non-negotiables, checked over the product code itself."""

from __future__ import annotations

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent / "pysh"

FORBIDDEN = re.compile(
    r"\bimport subprocess\b|\bfrom subprocess\b|os\.system\(|os\.popen\(|os\.exec[lv]p?e?\("
    r"|os\.fork\(|os\.spawn|os\.posix_spawn|os\.chdir\(|os\.fchdir\("
    r"|os\.environ\[[^]]*\]\s*=|os\.environ\.(update|setdefault|pop)\(|os\.putenv\("
)


def test_no_subprocess_chdir_or_environ_writes():
    hits = []
    for path in ROOT.rglob("*.py"):
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if FORBIDDEN.search(line):
                hits.append(f"{path.relative_to(ROOT.parent)}:{n}: {line.strip()}")
    assert hits == []
