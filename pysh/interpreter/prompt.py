"""Prompt strings: bash's backslash escapes in PS1/PS2/PS4 and ${x@P} (parse.y's
decode_prompt_string). With ``promptvars`` the result is expanded afterwards like the
inside of double quotes, so what an escape inserts from outside (a directory, the user
or host name, a date) is backslash-quoted first and is never expanded again."""

from __future__ import annotations

import time

from pysh.interpreter.syntax.lexer import canonical_bytes


def _dq_quote(s: str) -> str:
    """sh_backslash_quote_for_double_quotes: a backslash before " $ ` and \\."""
    if not any(c in '"$`\\' for c in s):
        return s
    return "".join("\\" + c if c in '"$`\\' else c for c in s)


def _visible(s: str) -> str:
    """sh_strvis: control characters as ^X."""
    return "".join("^" + chr(ord(c) ^ 0x40) if ord(c) < 32 or c == "\x7f" else c for c in s)


def _byte(v: int) -> str:
    return chr(v) if v < 0x80 else chr(0xDC00 + v)


def expand_prompt(interp, s: str, quote: bool = False) -> str:
    """The backslash escapes; ``quote``: protect inserted text from the expansions that
    follow (shopt promptvars)."""
    q = _dq_quote if quote else (lambda t: t)
    out = []
    i, n = 0, len(s)
    while i < n:
        c = s[i]
        if c != "\\" or i + 1 >= n:
            out.append(c)
            i += 1
            continue
        d = s[i + 1]
        i += 2
        if d == "u":
            out.append(q(interp.get_scalar("USER") or interp.session.user))
        elif d in "hH":
            host = interp.get_scalar("HOSTNAME") or "sandbox"
            out.append(q(host.split(".")[0] if d == "h" else host))
        elif d in "wW":
            out.append(q(_visible(_directory(interp, d))))
        elif d == "$":
            if interp.get_scalar("EUID") == "0":
                out.append("#")
            else:
                out.append("\\$" if quote else "$")
        elif d == "s":
            out.append("bash")
        elif d == "v":
            out.append("5.2")
        elif d == "V":
            out.append("5.2.15")
        elif d == "n":
            out.append("\n")
        elif d == "r":
            out.append("\r")
        elif d == "a":
            out.append("\a")
        elif d == "e":
            out.append("\x1b")
        elif d in "tT@Ad":
            fmt = {"t": "%H:%M:%S", "T": "%I:%M:%S", "@": "%I:%M %p", "A": "%H:%M",
                   "d": "%a %b %d"}[d]
            out.append(time.strftime(fmt))
        elif d == "D" and i < n and s[i] == "{":
            j = s.find("}", i + 1)
            j = n if j < 0 else j
            fmt = s[i + 1:j] or "%X"
            try:
                stamp = time.strftime(fmt)
            except ValueError:
                stamp = ""
            out.append(q(stamp))
            i = j + 1
        elif d == "j":
            out.append(str(sum(1 for j in interp.session.jobs.values()
                               if not j.done and not j.disowned)))
        elif d == "l":
            out.append("tty")  # the sandbox's stdin is never a terminal
        elif d == "!":  # (a script adds its lines to the history only with set -o history)
            out.append(str(len(interp.history) or 1) if "history" in interp.opts else "1")
        elif d == "#":
            out.append(str(interp.command_number - 1))
        elif d in "[]":
            pass  # no line editing: the markers go
        elif d == "\\":
            out.append("\\")
        elif d in "01234567":
            # read_octal: the next three characters (fewer at the end) must all be
            # octal digits, else the backslash stands for itself
            digits = s[i - 1:i + 2]
            if all(x in "01234567" for x in digits):
                v = int(digits, 8) & 0xFF
                out.append(_byte(v) if v else "")
                i += len(digits) - 1
            else:
                out.append("\\")
                i -= 1
        else:
            out.append("\\" + d)
    return canonical_bytes("".join(out))


def _directory(interp, d: str) -> str:
    w = interp.get_scalar("PWD") or interp.cwd
    home = interp.get_scalar("HOME")
    if d == "W" and w != home:
        return w if w in ("/", "//") else w.rsplit("/", 1)[-1]
    if home and len(home) > 1 and (w == home or w.startswith(home.rstrip("/") + "/")):
        return "~" + w[len(home):]
    return w
