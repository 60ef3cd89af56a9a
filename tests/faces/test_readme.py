"""The README's generated sections come from the code."""

from __future__ import annotations

import importlib.util
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _load():
    spec = importlib.util.spec_from_file_location("readme_commands", ROOT / "scripts" / "readme_commands.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_generated_sections_render_from_the_registry_and_limits():
    mod = _load()
    text = mod.render("<!-- commands:begin -->\nSTALE-LIST\n<!-- commands:end -->\n"
                      "<!-- limits:begin -->\n<!-- limits:end -->\n"
                      "<!-- hints:begin -->\n<!-- hints:end -->\n")
    assert "STALE-LIST" not in text
    assert "`cat`" in text and "`cd`" in text and "`awk`" in text
    assert "| `timeout` | unlimited | 30 s |" in text
    assert "| `max_output_bytes` | 64 MiB | 1 MiB |" in text
    assert "| `http`, `ssh`" in text and "no network here but curl and wget" in text


def test_readme_has_the_markers_and_the_faces_sections():
    readme = (ROOT / "README.md").read_text()
    for marker in ("commands:begin", "commands:end", "limits:begin", "limits:end",
                   "hints:begin", "hints:end"):
        assert f"<!-- {marker} -->" in readme
    for section in ("## Set-up", "## The sandbox model", "### The REPL", "### The Python API",
                    "### MCP", '"mcpServers"'):
        assert section in readme
