"""history and fc over the shell's history list.

A script (a non-interactive shell) keeps no history of its own unless ``set -o
history`` is on, as in bash: the list holds what ``history -s`` and ``history -r`` put
there, and with the option each command read (runner.history_entry).
"""

from __future__ import annotations

from pysh.interpreter.builtins_core import builtin, option_letters
from pysh.shellkit import FileSystemError, decode, encode

_USAGE = ("history: usage: history [-c] [-d offset] [n] or history -anrw [filename] "
          "or history -ps arg [arg...]\n")


def _entries(interp) -> list[str]:
    return interp.history


async def _bad(interp, message: str, status: int, usage: bool = False) -> int:
    await interp.diag(f"history: {message}")
    if usage:
        await interp.err(_USAGE)
    return status


def _number(s: str) -> int | None:
    t = s.strip()
    return int(t) if (t[1:] if t[:1] == "-" else t).isdigit() else None


@builtin("history")
async def b_history(interp, argv):
    h = _entries(interp)
    args = argv[1:]
    flags: list[str] = []
    offset = None
    while args and args[0].startswith("-") and len(args[0]) > 1 and not args[0][1:].isdigit():
        a = args.pop(0)
        if a == "--":
            break
        for j, c in enumerate(a[1:], 1):
            if c == "d":
                rest = a[j + 1:]
                if not rest:
                    if not args:
                        return await _bad(interp, "-d: option requires an argument", 2, True)
                    rest = args.pop(0)
                offset = rest
                break
            if c not in "canrwps":
                return await _bad(interp, f"-{c}: invalid option", 2, True)
            flags.append(c)
    if "c" in flags:
        h.clear()
    if offset is not None:
        n = _number(offset)
        if n is None:
            return await _bad(interp, f"{offset}: numeric argument required", 1)
        pos = n - 1 if n > 0 else len(h) + n
        if not 0 <= pos < len(h):
            return await _bad(interp, f"{offset}: history position out of range", 1)
        del h[pos]
        return 0
    if "s" in flags:
        if args:
            if "history" in interp.opts and h:
                h.pop()  # (the history -s command itself, saved as it was read)
            h.append(" ".join(args))
        return 0
    if "p" in flags:
        out = []
        for a in args:
            text = expand_history(h, a)
            if text is None:
                return await _bad(interp, f"{a}: history expansion failed", 1)
            out.append(text + "\n")
        await interp.out("".join(out))
        return 0
    if any(c in flags for c in "anrw"):
        path = args[0] if args else (interp.get_scalar("HISTFILE") or "")
        if not path:
            return 0
        try:
            if "w" in flags or "a" in flags:
                mode = "ab" if "a" in flags else "wb"
                with interp.fs.open(path, mode, perm=0o600 & ~interp.umask) as f:
                    f.write(encode("".join(line + "\n" for line in h)))
            else:
                data = decode(interp.fs.read_bytes(path))
                h.extend(line for line in data.split("\n") if line)
        except FileSystemError as e:
            return await _bad(interp, f"{path}: {e.strerror}", 1)
        return 0
    count = len(h)
    if args:
        n = _number(args[0])
        if n is None:
            return await _bad(interp, f"{args[0]}: numeric argument required", 1)
        if len(args) > 1:
            return await _bad(interp, "too many arguments", 1)
        count = max(0, min(n, len(h)))
    stamp = "??" if interp.get_scalar("HISTTIMEFORMAT") is not None else ""
    first = len(h) - count
    await interp.out("".join(f"{i + 1:5d}  {stamp}{h[i]}\n" for i in range(first, len(h))))
    return 0


def expand_history(h: list[str], word: str) -> str | None:
    """``!!``, ``!N``, ``!-N``, ``!string`` and ``!?string?`` in ``word``; None if an event
    is not found."""
    out = []
    i, n = 0, len(word)
    while i < n:
        c = word[i]
        if c != "!" or i + 1 >= n or word[i + 1] in " \t\n=(":
            out.append(c)
            i += 1
            continue
        j = i + 1
        nxt = word[j]
        if nxt == "!":
            ev, j = (h[-1] if h else None), j + 1
        elif nxt.isdigit() or nxt == "-":
            k = j + 1 if nxt == "-" else j
            while k < n and word[k].isdigit():
                k += 1
            num = int(word[j:k]) if word[j:k] not in ("", "-") else None
            if num is None:
                ev = None
            else:
                pos = num - 1 if num > 0 else len(h) + num
                ev = h[pos] if 0 <= pos < len(h) else None
            j = k
        elif nxt == "?":
            k = word.find("?", j + 1)
            k = n if k < 0 else k
            needle = word[j + 1:k]
            ev = next((e for e in reversed(h) if needle in e), None)
            j = min(k + 1, n)
        else:
            k = j
            while k < n and word[k] not in " \t\n;&|()<>:":
                k += 1
            prefix = word[j:k]
            ev = next((e for e in reversed(h) if e.startswith(prefix)), None)
            j = k
        if ev is None:
            return None
        out.append(ev)
        i = j
    return "".join(out)


@builtin("fc")
async def b_fc(interp, argv):
    h = _entries(interp)
    if h and "history" in interp.opts and getattr(interp, "invocation", "") != "c":
        h = h[:-1]  # (bash's fc leaves out its own line, which the shell recorded)
    args = argv[1:]
    n = 0  # (a negative number is a history offset, not an option)
    while n < len(args) and args[n].startswith("-") and not args[n][1:].isdigit():
        n += 1
    got = await option_letters(interp, "fc", args[:n], "elnrs",
                               "fc [-e ename] [-lnr] [first] [last] or fc -s [pat=rep] [command]")
    if got is None:
        return 2
    flags, args = got[0], got[1] + args[n:]
    if "l" not in flags:
        await interp.diag("fc: editing and re-running commands is not available here")
        return 1
    if not h:
        return 0  # (bash lists nothing)

    def pos(spec: str, default: int) -> int | None:
        n = _number(spec)
        if n is None:
            for i in range(len(h) - 1, -1, -1):
                if h[i].startswith(spec):
                    return i
            return None
        if n > len(h):
            return default  # (past the end: as if not given)
        p = n - 1 if n > 0 else len(h) + n
        return max(0, min(p, len(h) - 1))

    first = pos(args[0], max(0, len(h) - 16)) if args else max(0, len(h) - 16)
    last = pos(args[1], len(h) - 1) if len(args) > 1 else len(h) - 1
    if first is None or last is None:
        await interp.diag("fc: no command found")
        return 1
    rng = list(range(first, last + 1)) if first <= last else list(range(first, last - 1, -1))
    if "r" in flags and first <= last:  # (a range given backwards stays backwards with -r)
        rng.reverse()
    await interp.out("".join(("\t" if "n" in flags else f"{i + 1}\t") + f" {h[i]}\n" for i in rng))
    return 0
