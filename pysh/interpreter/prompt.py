"""Prompt strings: bash's backslash escapes in PS1/PS2/PS4 and ${x@P}."""

from __future__ import annotations

import time


def expand_prompt(interp, s: str) -> str:
    out = []
    i, n = 0, len(s)
    home = interp.get_scalar("HOME") or ""
    cwd = interp.get_scalar("PWD") or interp.cwd
    while i < n:
        c = s[i]
        if c != "\\" or i + 1 >= n:
            out.append(c)
            i += 1
            continue
        d = s[i + 1]
        i += 2
        if d == "u":
            out.append(interp.get_scalar("USER") or interp.session.user)
        elif d in "hH":
            host = interp.get_scalar("HOSTNAME") or "sandbox"
            out.append(host.split(".")[0] if d == "h" else host)
        elif d in "wW":
            w = cwd
            if home and (w == home or w.startswith(home.rstrip("/") + "/")):
                w = "~" + w[len(home):]
            if d == "W" and w not in ("/", "~"):
                w = w.rsplit("/", 1)[-1]
            out.append(w)
        elif d == "$":
            out.append("#" if interp.get_scalar("EUID") == "0" else "$")
        elif d == "s":
            out.append("pysh")
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
        elif d == "t":
            out.append(time.strftime("%H:%M:%S"))
        elif d == "T":
            out.append(time.strftime("%I:%M:%S"))
        elif d == "@":
            out.append(time.strftime("%I:%M %p"))
        elif d == "A":
            out.append(time.strftime("%H:%M"))
        elif d == "d":
            out.append(time.strftime("%a %b %d"))
        elif d == "j":
            out.append(str(sum(1 for j in interp.session.jobs.values()
                               if not j.done and not j.disowned)))
        elif d == "!" or d == "#":
            out.append("1")
        elif d in "[]":
            pass
        elif d == "\\":
            out.append("\\")
        elif d in "01234567":
            j = i - 1
            k = j
            while k < n and k - j < 3 and s[k] in "01234567":
                k += 1
            out.append(chr(int(s[j:k], 8)))
            i = k
        else:
            out.append("\\" + d)
    return "".join(out)
