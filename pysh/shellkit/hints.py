"""What to tell an agent when a command it typed is not there: one table (the README shows it).

``bash``-like ``pysh: NAME: command not found`` stays the first line; the hint is a second
line, ``pysh: hint: ...``, naming the nearest thing pysh has. Only names in this table get
one: a guess at a typo would change what scripts compared with bash print.
"""

from __future__ import annotations

NO_NETWORK = ("no network here but curl and wget, to the URLs the embedder allows "
              "(--allow-url, --allow-host)")
NO_HOST = "the sandbox runs no host programs"
NO_INSTALL = "nothing can be installed in the sandbox; " + NO_HOST
EDIT = "no interactive editor: edit with ed -s, sed -i, patch, or cat > FILE <<'EOF'"

# (names, hint): the order is the README's
TABLE: tuple[tuple[tuple[str, ...], str], ...] = (
    (("http", "ssh", "scp", "nc", "ping", "ftp", "telnet"), NO_NETWORK),
    (("make", "cmake", "ninja", "gcc", "cc", "g++", "clang", "cargo", "rustc", "go", "javac",
      "java", "docker", "podman", "kubectl", "systemctl"), NO_HOST),
    (("pip", "pip3", "pipx", "uv", "poetry", "conda"),
     "nothing can be installed in the sandbox: python3 has CPython 3.12's standard library"
     " and nothing else"),
    (("npm", "npx", "yarn", "pnpm", "apt", "apt-get", "dpkg", "yum", "dnf", "apk", "brew",
      "gem"), NO_INSTALL),
    (("node", "ruby", "php", "lua"),
     NO_HOST + ": python3, awk, sed, jq, bc and bash itself do the usual jobs"),
    (("vim", "vi", "nano", "emacs"), EDIT),
    (("sudo", "su", "doas"), "one user in the sandbox: run the command without sudo"),
    (("7z", "7za", "rar", "unrar", "lz4"),
     "archives here: tar, gzip, bzip2, xz, zstd, zip and unzip"),
    (("open", "xdg-open", "pbcopy", "pbpaste", "xclip"), "no desktop in the sandbox"),
)

HINTS: dict[str, str] = {name: hint for names, hint in TABLE for name in names}


def hint_for(name: str) -> str | None:
    """The hint line's text for a command that was not found, or None."""
    return HINTS.get(name.rsplit("/", 1)[-1])
