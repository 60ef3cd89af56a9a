"""Probe scripts per bash feature area (issue 15), recorded from bash 5.2.

Each ``<area>.py`` here holds ``CASES`` (built with ``tests.interp.cases.case``);
``expected/<area>.json`` is its recording:

    .venv/bin/python -m tests.interp.record AREA...     # re-record those areas
    .venv/bin/python -m tests.interp.record --diff AREA # bash vs pysh, live
"""

from __future__ import annotations

import importlib
import pathlib

HERE = pathlib.Path(__file__).parent


def areas() -> list[str]:
    return sorted(p.stem for p in HERE.glob("*.py") if not p.stem.startswith("_"))


def area_cases(area: str) -> list[dict]:
    return importlib.import_module(f"{__name__}.{area}").CASES


def expected_path(area: str) -> pathlib.Path:
    return HERE / "expected" / f"{area}.json"
