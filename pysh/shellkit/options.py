"""GNU getopt_long-style option parsing for commands (builtins and ports alike).

    opts, operands = parse_options(argv[1:], "nvE:e:m:", {
        "line-number": "n", "invert-match": "v", "regexp=": "e",
        "max-count=": "m", "color?": "color", "help": "help",
    })

* ``short``: option letters; a letter followed by ``:`` takes an argument
  (``-e PAT`` or ``-ePAT``), by ``::`` an optional attached one (``-xARG``).
* ``long``: ``name`` -> key; a name ending in ``=`` takes a required argument
  (``--name=V`` or ``--name V``), in ``?`` an optional one (``--name[=V]``).
  Unambiguous prefixes are accepted (``--line`` for ``--line-number``).
* Returns ``[(key, value_or_None), ...]`` in command-line order (keys are the
  short letter, or the long option's key) and the operands. As GNU does,
  options may follow operands unless ``permute=False``; ``--`` ends options;
  ``-`` alone is an operand.
* Errors raise :class:`OptionError` whose text is GNU's wording, without the
  program name: ``invalid option -- 'k'``.
"""

from __future__ import annotations

from collections.abc import Mapping


class OptionError(Exception):
    """A usage error; ``str()`` is GNU's message without the ``prog: `` prefix."""


def _parse_short_spec(short: str) -> dict[str, str]:
    spec: dict[str, str] = {}
    i = 0
    while i < len(short):
        ch = short[i]
        kind = "none"
        if short[i + 1:i + 3] == "::":
            kind, i = "optional", i + 2
        elif short[i + 1:i + 2] == ":":
            kind, i = "required", i + 1
        spec[ch] = kind
        i += 1
    return spec


def _parse_long_spec(long: Mapping[str, str]) -> dict[str, tuple[str, str]]:
    spec: dict[str, tuple[str, str]] = {}
    for name, key in long.items():
        if name.endswith("="):
            spec[name[:-1]] = ("required", key)
        elif name.endswith("?"):
            spec[name[:-1]] = ("optional", key)
        else:
            spec[name] = ("none", key)
    return spec


def parse_options(
    args: list[str],
    short: str = "",
    long: Mapping[str, str] | None = None,
    *,
    permute: bool = True,
) -> tuple[list[tuple[str, str | None]], list[str]]:
    sspec = _parse_short_spec(short)
    lspec = _parse_long_spec(long or {})
    opts: list[tuple[str, str | None]] = []
    operands: list[str] = []
    i = 0
    n = len(args)
    while i < n:
        arg = args[i]
        i += 1
        if arg == "--":
            operands.extend(args[i:])
            break
        if arg.startswith("--"):
            body = arg[2:]
            name, eq, value = body.partition("=")
            if name in lspec:
                matches = [name]
            else:
                matches = [k for k in lspec if k.startswith(name)]
                # prefixes of several spellings of one option are not ambiguous
                if len({lspec[k] for k in matches}) == 1:
                    matches = matches[:1]
            if not matches:
                raise OptionError(f"unrecognized option '--{name}'" if not eq
                                  else f"unrecognized option '{arg}'")
            if len(matches) > 1:
                poss = " ".join(f"'--{m}'" for m in matches)
                raise OptionError(f"option '{arg}' is ambiguous; possibilities: {poss}")
            full = matches[0]
            kind, key = lspec[full]
            if kind == "none":
                if eq:
                    raise OptionError(f"option '--{full}' doesn't allow an argument")
                opts.append((key, None))
            elif kind == "required":
                if eq:
                    opts.append((key, value))
                elif i < n:
                    opts.append((key, args[i]))
                    i += 1
                else:
                    raise OptionError(f"option '--{full}' requires an argument")
            else:
                opts.append((key, value if eq else None))
            continue
        if arg.startswith("-") and arg != "-":
            j = 1
            while j < len(arg):
                ch = arg[j]
                kind = sspec.get(ch)
                if kind is None:
                    raise OptionError(f"invalid option -- '{ch}'")
                if kind == "none":
                    opts.append((ch, None))
                    j += 1
                    continue
                rest = arg[j + 1:]
                if kind == "optional":
                    opts.append((ch, rest or None))
                elif rest:
                    opts.append((ch, rest))
                elif i < n:
                    opts.append((ch, args[i]))
                    i += 1
                else:
                    raise OptionError(f"option requires an argument -- '{ch}'")
                break
            continue
        operands.append(arg)
        if not permute:
            operands.extend(args[i:])
            break
    return opts, operands
