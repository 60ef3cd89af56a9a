"""fmt (GNU coreutils 9.1): GNU's optimal line breaking, modes, prefixes, odd input."""

import random

_rng = random.Random(5)
_WORDS = ("the quick brown fox jumps over lazy dog. Hello world! (paren) quote\" end? "
          "a an I etc., semi; colon: longerwordhere x").split(" ")


def _prose() -> str:
    out = []
    for _ in range(6):
        ind = " " * _rng.choice([0, 0, 2, 4])
        for _ in range(_rng.randint(1, 6)):
            out.append(ind + " ".join(_rng.choice(_WORDS) for _ in range(_rng.randint(1, 18))))
        out.append("")
    return "\n".join(out)


PROSE = _prose()
BIG = " ".join(_rng.choice(_WORDS) for _ in range(3000)) + "\n"
FILES = {
    "prose": PROSE,
    "big": BIG,
    "crlf": "line one here\r\nline two there\r\n\r\nnext para\r\n",
    "tabbed": "\tindented with tab and more words to wrap around the width of the line for "
              "sure yes\n\tsecond line\n# comment text that is long enough to be wrapped by fmt "
              "when using a prefix ok\n# more\nplain\n",
    "nonl": "no newline at the end of this",
    "bin": b"caf\xc3\xa9 \xff\xfe bytes and more words here\n",
    "empty": "",
    "d/": None,
}


def c(name, *args, **kw):
    kw.setdefault("files", FILES)
    return dict(name=name, argv=["fmt", *args], **kw)


CASES = [
    c("default", "prose"),
    c("w40", "-w", "40", "prose"),
    c("uniform", "-u", "prose"),
    c("split", "-s", "-w", "30", "prose"),
    c("crown", "-c", "-w", "30", "prose"),
    c("tagged", "-t", "-w", "30", "prose"),
    c("goal", "-g", "30", "prose"),
    c("width_goal", "-w", "50", "-g", "40", "prose"),
    c("obsolete_width", "-30", "prose"),
    c("long_paragraph", "big"),
    c("long_paragraph_narrow", "-w", "20", "big"),
    c("long_paragraph_wide", "-w", "2500", "big"),
    c("crlf", "crlf"),
    c("tabs", "tabbed"),
    c("tabs_narrow", "-w", "30", "tabbed"),
    c("prefix", "-p", "#", "-w", "30", "tabbed"),
    c("prefix_spaces", "-p", " # ", "-w", "30", "tabbed"),
    c("nonl", "nonl"),
    c("invalid_utf8", "-w", "10", "bin"),
    c("empty", "empty"),
    c("blank_lines", stdin="\n\n\n"),
    c("sentences", stdin="a.  b. c\nd e\n"),
    c("stdin", "-w", "25", stdin=PROSE),
    c("bad_width", "-w", "x"),
    c("width_range", "-w", "3000"),
    c("goal_range", "-g", "80"),
    c("late_digit_option", "-c", "-5"),
    c("missing", "nofile", "prose"),
    c("dir", "d"),
]
