"""A command module for the plugin tests (entry point and ``commands=`` strings)."""


async def hi(shell, argv):
    await shell.stdout.write(f"plugin says {' '.join(argv[1:])}\n".encode())
    return 0
