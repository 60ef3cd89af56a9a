"""An agent loop over pysh.Sandbox, with a scripted list of tool calls standing in for the model.

    python examples/agent_loop.py

A real agent sends ``pysh.tool_schema("anthropic")`` (or ``"openai"``) with its
request, gets back tool calls, runs each with ``Sandbox.call_tool`` and sends the
text back as the tool result. Here the "model" is a fixed list of calls, so the
example runs offline; the transcript shows exactly what the model would read.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pysh

# What a model might ask for, one tool call per turn (arguments as the JSON text APIs hand over).
SCRIPTED_CALLS = [
    {"command": "pwd; echo *"},
    {"command": "wc -l < access.log; cut -d' ' -f1 access.log | sort | uniq -c | sort -rn | head -3"},
    {"command": "awk '$4 == 500 {n++} END {print n, \"errors\"}' access.log"},
    {"command": "cd /tmp && printf '%s\\n' report > summary.txt && cat summary.txt"},
    {"command": "pwd; cat /etc/passwd"},                         # state persists; the host does not
    {"command": "while :; do :; done", "timeout": 1},            # a runaway command is stopped
    {"command": "if then"},                                      # a syntax error is just a result
]

LOG = """\
10.0.0.1 GET /index.html 200
10.0.0.2 GET /api 500
10.0.0.1 GET /about 200
10.0.0.3 POST /api 500
10.0.0.1 GET /index.html 304
"""


def main() -> None:
    schema = pysh.tool_schema("anthropic")
    print("tool offered to the model:", json.dumps(schema)[:100], "...")
    with tempfile.TemporaryDirectory() as project:
        Path(project, "access.log").write_text(LOG)
        with pysh.Sandbox(project, limits=pysh.Limits.strict()) as sandbox:
            for turn, arguments in enumerate(SCRIPTED_CALLS, 1):
                print(f"\n--- turn {turn}: bash {json.dumps(arguments)}")
                print(sandbox.call_tool(json.dumps(arguments)), end="")


if __name__ == "__main__":
    main()
