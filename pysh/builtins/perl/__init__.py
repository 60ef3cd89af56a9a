"""perl: the one-liner subset of Perl 5.36 that agents type, run in-process.

See :mod:`pysh.builtins.perl.main` for the command line and what is supported.
"""

from pysh.builtins.perl.main import main

__all__ = ["main"]
