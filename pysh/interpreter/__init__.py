"""The interpreter: syntax, expansion, the runner, language builtins, FileSystem backends."""

from pysh.interpreter.exec_command import ExecCommand

__all__ = ["ExecCommand"]
