"""Programmable completion builtins: compgen, complete, compopt.

No line editor reads these specs here (the shell runs scripts); what bash does with them
outside one is what they do: ``compgen`` generates matches for a word (actions in bash's
order, then -G, -W, -F, -C; then -X, -P, -S), ``complete`` stores and prints specs,
``compopt`` changes options (and fails outside a completion function).
"""

from __future__ import annotations

from pysh.interpreter import pattern as pat
from pysh.interpreter.builtins_core import _SHELL_COMMANDS, builtin
from pysh.interpreter.errors import ShellError
from pysh.interpreter.state import ARRAY, ASSOC, EXPORT, SET_OPTIONS, SHOPT_OPTIONS
from pysh.shellkit import FileSystemError

# the -a -b ... letters and the -A names, in the order bash generates and prints them
_LETTER_ACTIONS = {"a": "alias", "b": "builtin", "c": "command", "d": "directory", "e": "export",
                   "f": "file", "g": "group", "j": "job", "k": "keyword", "s": "service",
                   "u": "user", "v": "variable"}
_ACTIONS = ("alias", "arrayvar", "binding", "builtin", "disabled", "enabled", "export",
            "function", "helptopic", "hostname", "job", "keyword", "running", "service",
            "setopt", "shopt", "signal", "stopped", "variable", "command", "file", "directory",
            "user", "group")
_PRINT_LETTERS = ("a", "b", "c", "d", "e", "f", "g", "j", "k", "s", "u", "v")
_PRINT_NAMED = ("arrayvar", "binding", "disabled", "enabled", "function", "helptopic",
                "hostname", "running", "setopt", "shopt", "signal", "stopped")
_OPTIONS = ("bashdefault", "default", "dirnames", "filenames", "noquote", "nosort", "nospace",
            "plusdirs")
# bash's reserved words, in its own table's order (compgen -k)
_KEYWORD_ORDER = ("if", "then", "else", "elif", "fi", "case", "esac", "for", "select", "while",
                  "until", "do", "done", "in", "function", "time", "{", "}", "!", "[[", "]]",
                  "coproc")

_COMPGEN_USAGE = ("compgen: usage: compgen [-abcdefgjksuv] [-o option] [-A action] [-G globpat] "
                  "[-W wordlist] [-F function] [-C command] [-X filterpat] [-P prefix] "
                  "[-S suffix] [word]\n")
_COMPLETE_USAGE = ("complete: usage: complete [-abcdefgjksuv] [-pr] [-DEI] [-o option] "
                   "[-A action] [-G globpat] [-W wordlist] [-F function] [-C command] "
                   "[-X filterpat] [-P prefix] [-S suffix] [name ...]\n")


class _Spec:
    __slots__ = ("actions", "options", "glob", "words", "func", "command", "filter", "prefix",
                 "suffix")

    def __init__(self):
        self.actions: list[str] = []
        self.options: list[str] = []
        self.glob = self.words = self.func = self.command = None
        self.filter = self.prefix = self.suffix = None


def _specs(interp) -> dict:
    specs = interp.__dict__.get("comp_specs")
    if specs is None:
        specs = interp.comp_specs = {}
    return specs


async def _parse(interp, who: str, args: list[str], letters: str, usage: str):
    """(spec, flags, operands), or None after an error message (the status is 2)."""
    spec = _Spec()
    flags: set[str] = set()
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--":
            i += 1
            break
        if not a.startswith("-") or a == "-":
            break
        j = 1
        while j < len(a):
            c = a[j]
            if c in "oAGWFCXPS":
                val = a[j + 1:]
                if not val:
                    i += 1
                    if i >= len(args):
                        await interp.diag(f"{who}: -{c}: option requires an argument")
                        await interp.err(usage)
                        return None
                    val = args[i]
                if c == "o":
                    if val not in _OPTIONS:
                        await interp.diag(f"{who}: {val}: invalid option name")
                        return None
                    spec.options.append(val)
                elif c == "A":
                    if val not in _ACTIONS:
                        await interp.diag(f"{who}: {val}: invalid action name")
                        return None
                    spec.actions.append(val)
                else:
                    setattr(spec, {"G": "glob", "W": "words", "F": "func", "C": "command",
                                   "X": "filter", "P": "prefix", "S": "suffix"}[c], val)
                break
            if c in _LETTER_ACTIONS:
                spec.actions.append(_LETTER_ACTIONS[c])
            elif c in letters:
                flags.add(c)
            else:
                await interp.diag(f"{who}: -{c}: invalid option")
                await interp.err(usage)
                return None
            j += 1
        i += 1
    return spec, flags, args[i:]


@builtin("compgen")
async def b_compgen(interp, argv):
    got = await _parse(interp, "compgen", argv[1:], "", _COMPGEN_USAGE)
    if got is None:
        return 2
    spec, _, operands = got
    word = operands[0] if operands else ""
    if spec.func is not None:
        await interp.diag("compgen: warning: -F option may not work as you expect")
    if spec.command is not None:
        await interp.diag("compgen: warning: -C option may not work as you expect")
    matches, ok = await _generate(interp, spec, word)
    if matches:
        await interp.out("".join(m + "\n" for m in matches))
    if not ok:
        return 1
    return 0 if matches or not (spec.actions or spec.glob is not None or spec.words is not None
                                or spec.func is not None or spec.command is not None
                                or word) else 1


async def _generate(interp, spec: _Spec, word: str) -> tuple[list[str], bool]:
    """The matches, and False when generating them failed (a runtime error)."""
    out: list[str] = []
    for action in _ACTIONS:
        if action in spec.actions:
            out.extend(m for m in _action(interp, action, word) if m.startswith(word))
    if spec.glob is not None:
        out.extend(interp.glob(spec.glob, "dotglob" in interp.shopts, False,
                               "globstar" in interp.shopts, "extglob" in interp.shopts)
                   or [])
    ok = True
    if spec.words is not None:
        words = await _wordlist(interp, spec.words)  # (an expansion error gives up the line)
        out.extend(w for w in words if w.startswith(word))
    if spec.func is not None:
        got = await _call_function(interp, spec.func, word)
        if got is None:
            return out, False
        out.extend(got)
    if spec.command is not None:
        from pysh.interpreter.syntax import ast as A
        from pysh.interpreter.syntax.bashprint import single_quote
        from pysh.interpreter.syntax.errors import ParseError
        from pysh.interpreter.syntax.parser import parse

        # the command with bash's arguments: the command's name, the word, the word before
        text = f"{spec.command} compgen {single_quote(word)} ''"
        try:
            prog = parse(text)
        except ParseError:
            return out, False
        cap = await interp.command_substitution(A.CommandSub(prog, False, text, None))
        out.extend(line for line in cap.split("\n") if line)
    if not out:
        if "dirnames" in spec.options:
            out = _files(interp, word, dirs=True)
        elif "default" in spec.options or "bashdefault" in spec.options:
            out = _files(interp, word, dirs=False)
    elif "plusdirs" in spec.options:
        out.extend(_files(interp, word, dirs=True))
    if spec.filter is not None:
        f = spec.filter
        negate = f.startswith("!")
        if negate:
            f = f[1:]
        f = _amp(f, word)
        ext = "extglob" in interp.shopts
        out = [m for m in out if pat.match(f, m, extglob=ext) == negate]
    if spec.prefix or spec.suffix:
        out = [f"{spec.prefix or ''}{m}{spec.suffix or ''}" for m in out]
    return out, ok


def _amp(p: str, word: str) -> str:
    """-X: an unescaped & stands for the word being completed."""
    out, i = [], 0
    while i < len(p):
        if p[i] == "\\" and i + 1 < len(p):
            out.append(p[i:i + 2])
            i += 2
            continue
        out.append(pat.escape(word) if p[i] == "&" else p[i])
        i += 1
    return "".join(out)


def _action(interp, action: str, word: str) -> list[str]:
    if action == "alias":
        return sorted(interp.aliases)
    if action in ("variable", "export", "arrayvar"):
        names = []
        for name, v in interp.vars.visible():
            if v.value is None and not v.attrs & (ARRAY | ASSOC):
                continue
            if action == "export" and not v.attrs & EXPORT:
                continue
            if action == "arrayvar" and not (v.attrs & (ARRAY | ASSOC) or isinstance(v.value, dict)):
                continue
            names.append(name)
        return names
    if action == "function":
        return sorted(interp.funcs)
    if action in ("builtin", "enabled", "disabled"):
        disabled = interp.disabled_builtins
        names = sorted(n for n in interp.session.builtins if n not in _SHELL_COMMANDS)
        if action == "enabled":
            return [n for n in names if n not in disabled]
        if action == "disabled":
            return [n for n in names if n in disabled]
        return names
    if action == "keyword":
        return list(_KEYWORD_ORDER)
    if action == "helptopic":
        from pysh.interpreter.help_table import HELP_TOPICS

        return [t for t, _, _ in HELP_TOPICS]
    if action == "setopt":
        return list(SET_OPTIONS)
    if action == "shopt":
        return list(SHOPT_OPTIONS)
    if action == "signal":
        from pysh.interpreter.builtins_core import SIGNAL_NAMES

        return ["SIG" + n if not n.startswith("SIG") else n
                for _, n in sorted(SIGNAL_NAMES.items()) if n not in ("EXIT", "DEBUG", "ERR",
                                                                       "RETURN")]
    if action in ("file", "directory"):
        return _files(interp, word, dirs=action == "directory")
    if action == "command":
        return _commands(interp, word)
    if action == "job" or action == "running":
        return [j.command for j in interp.session.jobs.values() if not j.done]
    return []  # (users, groups, hosts, services, bindings, stopped jobs: none here)


def _files(interp, word: str, *, dirs: bool) -> list[str]:
    fs = interp.fs
    head, slash, base = word.rpartition("/")
    where = (head or "/") if slash else "."
    try:
        names = sorted(e.name for e in fs.scandir(where))
    except (FileSystemError, OSError):
        return []
    if base.startswith("."):
        names[:0] = [".", ".."]  # (readline offers them to a word that starts with a dot)
    out = []
    for name in names:
        if not name.startswith(base):
            continue
        path = f"{head}/{name}" if slash else name
        if dirs and not fs.is_dir(path):
            continue
        out.append(path)
    return out


def _commands(interp, word: str) -> list[str]:
    out = sorted(interp.aliases) + list(_KEYWORD_ORDER) + sorted(interp.funcs) \
        + sorted(n for n in interp.session.builtins if n not in _SHELL_COMMANDS)
    seen = set()
    for d in (interp.get_scalar("PATH") or "").split(":"):
        d = d or "."
        try:
            names = sorted(e.name for e in interp.fs.scandir(d))
        except (FileSystemError, OSError):
            continue
        for n in names:
            if n.startswith(word) and n not in seen:
                seen.add(n)
                out.append(n)
    return out


async def _wordlist(interp, text: str) -> list[str]:
    """-W: split at IFS outside quotes and expansions, then each piece expanded."""
    from pysh.interpreter.syntax.parser import parse

    ifs = interp.ifs()
    ifs = " \t\n" if ifs is None else ifs
    pieces = _split_delims(text, ifs)
    out: list[str] = []
    for piece in pieces:
        prog = parse(": " + piece)
        node = prog.body[0] if prog.body else None
        words = getattr(node, "words", None)
        if not words:
            continue
        out.extend(await interp.expand_words(words[1:]))
    return out


def _split_delims(text: str, ifs: str) -> list[str]:
    out, cur, i, n = [], [], 0, len(text)
    depth = 0
    quote = None
    while i < n:
        c = text[i]
        if quote is None and c == "\\" and i + 1 < n:
            cur.append(text[i:i + 2])
            i += 2
            continue
        if quote == "'":
            cur.append(c)
            if c == "'":
                quote = None
            i += 1
            continue
        if c in "'\"" and (quote is None or quote == c):
            if quote is None and c == "'" and depth == 0:
                quote = "'"
            elif c == '"':
                quote = None if quote == '"' else '"'
            cur.append(c)
            i += 1
            continue
        if c == "$" and i + 1 < n and text[i + 1] in "({":
            depth += 1
            cur.append(text[i:i + 2])
            i += 2
            continue
        if depth and c in ")}":
            depth -= 1
        elif depth and c in "({":
            depth += 1
        if c in ifs and quote is None and depth == 0:
            if cur:
                out.append("".join(cur))
                cur = []
            i += 1
            continue
        if c in " \t\n" and quote is None and depth == 0:
            cur.append("\\")  # (not a delimiter here: a piece is one word)
        cur.append(c)
        i += 1
    if cur:
        out.append("".join(cur))
    return out


async def _call_function(interp, name: str, word: str) -> list[str] | None:
    from pysh.interpreter.state import Var

    fn = interp.funcs.get(name)
    if fn is None:
        await interp.diag(f"compgen: {name}: function not found")  # (bash: no such message)
        return None
    g = interp.vars.globals
    saved = {k: g.get(k) for k in ("COMP_WORDS", "COMP_CWORD", "COMP_LINE", "COMP_POINT")}
    g["COMP_WORDS"] = Var({}, ARRAY)
    g["COMP_CWORD"] = Var("-1")
    g["COMP_LINE"] = Var("")
    g["COMP_POINT"] = Var("0")
    interp.vars.unset("COMPREPLY")  # (what the function leaves there is the answer)
    try:
        await interp.call_function(fn, [name, "compgen", word, ""])
    except ShellError as e:
        await interp.diag(e.message)
        return None
    finally:
        for k, v in saved.items():
            if v is None:
                g.pop(k, None)
            else:
                g[k] = v
    reply = interp.vars.lookup("COMPREPLY")
    if reply is None or reply.value is None:
        return []
    if isinstance(reply.value, dict):
        return [v for _, v in sorted(reply.value.items())]
    return [reply.value]


@builtin("complete")
async def b_complete(interp, argv):
    got = await _parse(interp, "complete", argv[1:], "prDEI", _COMPLETE_USAGE)
    if got is None:
        return 2
    spec, flags, names = got
    specs = _specs(interp)
    special = [f"-{c}" for c in "DEI" if c in flags]
    if "r" in flags:
        targets = names + special
        if not targets:
            specs.clear()
            return 0
        status = 0
        for n in targets:
            if specs.pop(n, None) is None and not n.startswith("-"):
                await interp.diag(f"complete: {n}: no completion specification")
                status = 1
        return status
    has_spec = bool(spec.actions or spec.options or any(
        getattr(spec, a) is not None for a in ("glob", "words", "func", "command", "filter",
                                               "prefix", "suffix")))
    if "p" in flags or (not names and not special and not has_spec):
        targets = names + special
        status = 0
        for n, s in (specs.items() if not targets else [(n, specs.get(n)) for n in targets]):
            if s is None:
                await interp.diag(f"complete: {n}: no completion specification")
                status = 1
                continue
            await interp.out(_spec_line(n, s) + "\n")
        return status
    if not names and not special:
        await interp.err(_COMPLETE_USAGE)
        return 2
    for n in names + special:
        specs[n] = spec
    return 0


def _spec_line(name: str, s: _Spec) -> str:
    from pysh.interpreter.syntax.bashprint import single_quote

    parts = ["complete"]
    parts += [f"-o {o}" for o in _OPTIONS if o in s.options]
    letters = {v: k for k, v in _LETTER_ACTIONS.items()}
    parts += [f"-{c}" for c in _PRINT_LETTERS if _LETTER_ACTIONS[c] in s.actions]
    parts += [f"-A {a}" for a in _PRINT_NAMED if a in s.actions and a not in letters]
    for flag, val in (("G", s.glob), ("W", s.words), ("P", s.prefix), ("S", s.suffix),
                      ("X", s.filter), ("C", s.command)):
        if val is not None:
            parts.append(f"-{flag} {single_quote(val)}")
    if s.func is not None:
        parts.append(f"-F {s.func}")
    parts.append(name)
    return " ".join(parts)


@builtin("compopt")
async def b_compopt(interp, argv):
    args = argv[1:]
    opts: list[tuple[bool, str]] = []
    flags = set()
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("-o", "+o"):
            if i + 1 >= len(args):
                await interp.diag(f"compopt: {a}: option requires an argument")
                return 2
            if args[i + 1] not in _OPTIONS:
                await interp.diag(f"compopt: {args[i + 1]}: invalid option name")
                return 2
            opts.append((a == "-o", args[i + 1]))
            i += 2
            continue
        if a.startswith("-") and len(a) > 1 and all(c in "DEI" for c in a[1:]):
            flags.update(a[1:])
            i += 1
            continue
        if a == "--":
            i += 1
        break
    names = args[i:] + [f"-{c}" for c in "DEI" if c in flags]
    if not names:  # (no line editor runs completion functions here; compgen's are no such)
        await interp.diag("compopt: not currently executing completion function")
        return 1
    specs = _specs(interp)
    status = 0
    for n in names:
        s = specs.get(n)
        if s is None:
            await interp.diag(f"compopt: {n}: no completion specification")
            status = 1
            continue
        for on, o in opts:
            if on and o not in s.options:
                s.options.append(o)
            elif not on and o in s.options:
                s.options.remove(o)
    return status
