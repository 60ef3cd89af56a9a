"""In-process versions of the helper programs the spec cases call.

Their output is byte-for-byte that of the ``_PORTS`` sources in
``shared/spec/run_spec.py`` (the Python 3 ports of Oils' spec/bin helpers).
Loaded with ``pysh --commands tests.spec.helpers``.
"""

from __future__ import annotations

import os

from pysh.shellkit import InputStream, encode


async def argv_py(shell, argv):
    # Python 2 printed the repr() of a list of byte strings; bytes repr minus 'b'.
    out = "[" + ", ".join(repr(encode(a))[1:] for a in argv[1:]) + "]\n"
    await shell.stdout.write(out.encode("utf-8", "surrogateescape"))
    return 0


async def printenv_py(shell, argv):
    out = bytearray()
    for name in argv[1:]:
        v = shell.env.get(name)
        out += b"None" if v is None else encode(v)
        out += b"\n"
    await shell.stdout.write(bytes(out))
    return 0


async def stdout_stderr_py(shell, argv):
    # the Python source flushes stderr while its stdout, block-buffered unless it is a
    # terminal, waits for exit: on one pipe (|&, 2>&1) STDERR comes first
    a = argv
    out = encode((a[1] if len(a) > 1 else "STDOUT") + "\n")
    err = encode((a[2] if len(a) > 2 else "STDERR") + "\n")
    isatty = getattr(shell.stdout, "isatty", None)
    if isatty is not None and isatty():
        await shell.stdout.write(out)
        await shell.stderr.write(err)
    else:
        await shell.stderr.write(err)
        await shell.stdout.write(out)
    return int(a[3]) if len(a) > 3 else 0


async def read_from_fd_py(shell, argv):
    for arg in argv[1:]:
        fd = int(arg)
        s = shell.fds.get(fd)
        if not isinstance(s, InputStream):
            await shell.stderr.write(
                f"FATAL: Error reading from fd {fd}: [Errno 9] Bad file descriptor\n".encode())
            return 1
        data = await s.read(1024)
        await shell.stdout.write(b"%d: " % fd + data)
    return 0


async def show_fd_table_py(shell, argv):
    lines = []
    for fd in sorted(shell.fds):
        lines.append(f"{fd} pysh-fd-{fd}\n")
    await shell.stdout.write("".join(lines).encode())
    return 0


async def python2(shell, argv):
    """The runner's Python 2 shim, in-process: ``python2 -c CODE ARGS`` with latin-1 bytes
    out, ``sys.argv`` and a Python 2 ``repr`` of byte strings.

    Test infrastructure only (never a pysh command): the spec cases use it to print
    arbitrary bytes.
    """
    import io
    import re
    import types

    a = argv[1:]
    if len(a) < 2 or a[0] != "-c":
        await shell.stderr.write(b"python2 (spec helper): only -c CODE is supported\n")
        return 2
    code = encode(a[1]).decode("latin-1")
    code = re.sub(r"(?m)(^|;)([ \t]*)print[ \t]+(?![(=])([^;\n]+)", r"\1\2print(\3)", code)
    buf = io.StringIO()

    def _print(*args, sep=" ", end="\n", file=None):
        buf.write(sep.join(str(x) for x in args) + end)

    def _repr(x):  # a Python 2 str is bytes
        return repr(x.encode("latin-1"))[1:] if isinstance(x, str) else repr(x)

    fake_sys = types.SimpleNamespace(argv=["-c"] + [encode(x).decode("latin-1") for x in a[2:]],
                                     stdout=buf, stderr=buf)
    real_import = __import__

    def _import(name, *args, **kw):
        return fake_sys if name == "sys" else real_import(name, *args, **kw)

    env = {"__name__": "__main__", "print": _print, "repr": _repr,
           "__builtins__": dict(__builtins__ if isinstance(__builtins__, dict) else vars(__builtins__),
                                __import__=_import)}
    try:
        exec(compile(code, "<string>", "exec"), env)
    except Exception as e:  # noqa: BLE001 - report like Python would, briefly
        await shell.stdout.write(buf.getvalue().encode("latin-1", "replace"))
        await shell.stderr.write(f"python2: {type(e).__name__}\n".encode())
        return 1
    await shell.stdout.write(buf.getvalue().encode("latin-1", "replace"))
    return 0


async def shell_as_bash(shell, argv):
    """The runner's wrapper for $SH: it runs this shell, which calls itself bash."""
    if shell.executor is None:
        await shell.stderr.write(b"bash-4.4 (spec helper): no interpreter\n")
        return 127
    return await shell.executor.run_argv(shell, ["bash"] + argv[1:])


async def foo_eq_bar(shell, argv):
    """spec/bin/foo=bar: ``echo HI`` (a command whose name holds an escaped '=')."""
    await shell.stdout.write(b"HI\n")
    return 0


COMMANDS = {
    "python2": python2,
    "argv.py": argv_py,
    "printenv.py": printenv_py,
    "stdout_stderr.py": stdout_stderr_py,
    "read_from_fd.py": read_from_fd_py,
    "show_fd_table.py": show_fd_table_py,
    # the runner names the shell after the file's compare_shells spelling ($SH is
    # bash-4.4 there) and puts that name on the host PATH; inside the sandbox it is
    # the same in-process shell
    "bash-4.4": shell_as_bash,
    "foo=bar": foo_eq_bar,
}

_ = os
