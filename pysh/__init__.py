"""pysh: a bash interpreter in Python that runs every command in-process, inside a sandbox.

The Python API (imported lazily, so ``import pysh.builtins...`` stays cheap)::

    from pysh import Sandbox, Limits
    with Sandbox("project/") as sb:
        print(sb.run("grep -c TODO *.py").stdout)
"""

__version__ = "0.1.0"

__all__ = ["Limits", "Network", "RunResult", "Sandbox", "SandboxClosed", "tool_schema", "__version__"]


def __getattr__(name: str):
    if name in ("Sandbox", "RunResult", "SandboxClosed", "tool_schema"):
        from pysh import api

        return getattr(api, name)
    if name == "Limits":
        from pysh.shellkit.limits import Limits

        return Limits
    if name == "Network":
        from pysh.shellkit.network import Network

        return Network
    raise AttributeError(f"module 'pysh' has no attribute {name!r}")
