"""Regenerate the README's generated sections from the code: the supported commands
(from the command registry and the language builtins), the limits table (from
``pysh.Limits``) and the command-not-found hints (``pysh.shellkit.hints``).

    python scripts/readme_commands.py          # rewrite README.md in place
    python scripts/readme_commands.py --check  # exit 1 if README.md is out of date

Each section sits between ``<!-- NAME:begin -->`` and ``<!-- NAME:end -->`` markers.
"""

from __future__ import annotations

import argparse
import pathlib
import re
import sys

README = pathlib.Path(__file__).resolve().parent.parent / "README.md"

LIMIT_DOCS = {
    "timeout": "wall-clock seconds of one run (`run()` call, `-c` script, REPL line)",
    "max_output_bytes": "bytes of stdout and of stderr: captured by the API (the text then ends with a truncation marker), written by the CLI (which then says so on stderr); past it the writer stops as on a closed pipe",
    "max_commands": "simple commands executed in one run",
    "max_loop_iterations": "iterations of all loops in one run",
    "max_call_depth": "nested function / `source` / `eval` calls",
    "max_string_length": "bytes of one variable or expansion result, of one read that gathers input to its end or to a delimiter (`read`, `mapfile`, `$(< f)`, `source`, `sort`, `jq`...), and of a width or precision from the script (`printf '%*s'`, `seq -f`, `nl -w`...)",
    "max_array_size": "elements of one array",
    "max_brace_expansion": "words produced by one brace expansion",
    "max_heredoc_size": "bytes of one here-doc or here-string",
    "max_substitution_depth": "nested `$(...)` / `<(...)`",
    "max_file_size": "apparent size of one file a write makes (redirections, fds kept with `exec`, every command and port; a seek or `truncate` past the end counts): the write stops at the limit",
    "max_total_written": "bytes written to files in one run (holes made by a seek or `truncate` count; `cp`/`mv` across mounts too)",
    "python_memory": "linear memory of one `python3` guest (wasmtime store limit)",
}
STATUS = {"timeout": "124"}
LIMIT_ERROR = "exit 126 with `pysh: ...: limit exceeded`"
_GUEST_WRITE = "; a `python3` guest's write is cut short at the limit and the next one fails with "
WHEN_HIT = {
    "timeout": "exit 124, `timed_out`",
    "max_output_bytes": "truncated, `truncated`; the CLI: `pysh: stdout: limit exceeded`",
    "max_file_size": LIMIT_ERROR + _GUEST_WRITE + "`OSError` `EFBIG` (File too large)",
    "max_total_written": LIMIT_ERROR + _GUEST_WRITE + "`OSError` `EDQUOT` (Disk quota exceeded)",
    "python_memory": "the guest's allocation fails (`MemoryError`, exit 1)",
}


def _fmt(v) -> str:
    if v is None:
        return "unlimited"
    if isinstance(v, float):
        return f"{v:g} s"
    if isinstance(v, int) and v >= 1024 * 1024 and v % (1024 * 1024) == 0:
        return f"{v // (1024 * 1024)} MiB"
    if isinstance(v, int):
        return f"{v:,}"
    return str(v)


def limits_table() -> str:
    from pysh.shellkit.limits import Limits

    default, strict = Limits(), Limits.strict()
    rows = ["| limit | default | `Limits.strict()` | what it bounds | when hit |",
            "| --- | --- | --- | --- | --- |"]
    for name in Limits.field_names():
        when = WHEN_HIT.get(name, LIMIT_ERROR)
        rows.append(f"| `{name}` | {_fmt(getattr(default, name))} | {_fmt(getattr(strict, name))} "
                    f"| {LIMIT_DOCS.get(name, '')} | {when} |")
    return "\n".join(rows)


def commands_list() -> str:
    from pysh import commands
    from pysh.interpreter import builtins_vars  # noqa: F401 - registers its builtins
    from pysh.interpreter.builtins_core import BUILTINS

    groups = [
        ("Shell builtins (the language)", sorted(BUILTINS)),
        ("grep and sed", sorted(commands.GREP_SED)),
        ("awk", sorted(commands.AWK)),
        ("File utilities", sorted(commands.FILES)),
        ("Text utilities", sorted(commands.TEXT)),
        ("System and process utilities", sorted(commands.SYSTEM)),
        ("Ports (jq, rg, fd, sqlite3, archives)", sorted(commands.PORTS)),
        ("git", sorted(commands.GIT)),
        ("python3 (CPython on WebAssembly)", sorted(commands.PYTHON)),
        ("Network, when the embedder allows URLs", sorted(commands.NET)),
    ]
    total = len(set(commands.default_table()))
    lines = [f"{total} commands in the registry, plus the shell's builtins:", ""]
    for title, names in groups:
        if names:
            lines.append(f"* **{title}**: " + ", ".join(f"`{n}`" for n in names))
    return "\n".join(lines)


def hints_table() -> str:
    from pysh.shellkit.hints import TABLE

    rows = ["| command not found | the hint line (`pysh: hint: NAME: ...`) |", "| --- | --- |"]
    for names, hint in TABLE:
        rows.append(f"| {', '.join(f'`{n}`' for n in names)} | {hint.replace('|', '&#124;')} |")
    return "\n".join(rows)


SECTIONS = {"commands": commands_list, "limits": limits_table, "hints": hints_table}


def render(text: str) -> str:
    for name, fn in SECTIONS.items():
        pat = re.compile(rf"(<!-- {name}:begin -->\n).*?(<!-- {name}:end -->)", re.S)
        if not pat.search(text):
            raise SystemExit(f"README.md has no <!-- {name}:begin --> ... <!-- {name}:end --> markers")
        body = fn()
        text = pat.sub(lambda m, body=body: m.group(1) + body + "\n" + m.group(2), text)
    return text


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    old = README.read_text()
    new = render(old)
    if a.check:
        if new != old:
            sys.stderr.write("README.md is out of date: run `make readme-commands`\n")
            return 1
        return 0
    if new != old:
        README.write_text(new)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
