"""fmt (GNU coreutils 9.1): fill paragraphs with GNU's cost-based line breaking.

The algorithm is Ross Paterson's as GNU 9.1 runs it, over bytes: words end at
any C-locale space (so a CR of a CRLF file is a word of its own, as in GNU),
blanks are only spaces and tabs, sentences end in ``[.?!][)\\]'"]*`` followed
by a newline or two spaces, and each paragraph's breaks minimise the summed
cost (squared distance from the goal width, raggedness, widow/orphan and
punctuation terms). Paragraphs longer than GNU's buffers (5000 bytes, 998
words) are flushed at a cheap break near the end, exactly where GNU
flushes them, so long paragraphs come out the same too.
"""

from __future__ import annotations

import errno

from pysh.builtins._textutil import (
    OptionError,
    Writer,
    help_text,
    parse_options,
    quote,
    quoteaf,
    read_all,
    strerror,
    usage,
    version_text,
)
from pysh.shellkit.text import encode

HELP = """\
Usage: fmt [-WIDTH] [OPTION]... [FILE]...
Reformat each paragraph in the FILE(s), writing to standard output.
The option -WIDTH is an abbreviated form of --width=DIGITS.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -c, --crown-margin        preserve indentation of first two lines
  -p, --prefix=STRING       reformat only lines beginning with STRING,
                              reattaching the prefix to reformatted lines
  -s, --split-only          split long lines, but do not refill
  -t, --tagged-paragraph    indentation of first line different from second
  -u, --uniform-spacing     one space between words, two after sentences
  -w, --width=WIDTH         maximum line width (default of 75 columns)
  -g, --goal=WIDTH          goal width (default of 93% of width)
      --help        display this help and exit
      --version     output version information and exit
"""

WIDTH = 75
LEEWAY = 7
DEF_INDENT = 3
TABWIDTH = 8
MAXWORDS = 1000
MAXCHARS = 5000
MAXCOST = (1 << 63) - 1
EOF = -1


def _equiv(n: int) -> int:
    return n * n


def _short_cost(n: int) -> int:
    return _equiv(n * 10)


def _ragged_cost(n: int) -> int:
    return _short_cost(n) // 2


LINE_COST = _equiv(70)
SENTENCE_BONUS = _equiv(50)
NOBREAK_COST = _equiv(600)
PAREN_BONUS = _equiv(40)
PUNCT_BONUS = _equiv(40)
LINE_CREDIT = _equiv(3)

_SPACE = frozenset(b" \t\n\v\f\r")
_OPEN = frozenset(b"(['`\"")
_CLOSE = frozenset(b")]'\"")
_PERIOD = frozenset(b".?!")
_PUNCT = frozenset(b"!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


class _Word:
    __slots__ = ("text", "length", "space", "paren", "period", "punct", "final",
                 "line_width", "best_cost", "next_break")

    def __init__(self) -> None:
        self.text = 0
        self.length = 0
        self.space = 0
        self.paren = self.period = self.punct = self.final = False
        self.line_width = 0
        self.best_cost = 0
        self.next_break = 0

    def copy_from(self, o: _Word) -> None:
        for k in _Word.__slots__:
            setattr(self, k, getattr(o, k))


class Fmt:
    """The formatter's state (GNU keeps it in globals); one instance per run."""

    def __init__(self, out: bytearray, max_width: int, goal_width: int, crown: bool,
                 tagged: bool, split: bool, uniform: bool, prefix: bytes, poll):
        self.out = out
        self.max_width = max_width
        self.goal_width = goal_width
        self.crown, self.tagged, self.split, self.uniform = crown, tagged, split, uniform
        lead = len(prefix) - len(prefix.lstrip(b" "))
        self.prefix_lead_space = lead
        full = prefix[lead:]
        self.prefix_full_length = len(full)
        self.prefix = full.rstrip(b" ")
        self.prefix_length = len(self.prefix)
        self.poll = poll
        self.parabuf = bytearray(MAXCHARS)
        self.words = [_Word() for _ in range(MAXWORDS)]
        self.wptr = 0
        self.word_limit = 0
        self.in_column = self.out_column = 0
        self.tabs = False
        self.prefix_indent = self.first_indent = self.other_indent = 0
        self.next_char = EOF
        self.next_prefix_indent = 0
        self.last_line_width = 0
        self.data = b""
        self.pos = 0

    # -- input ----------------------------------------------------------------
    def getc(self) -> int:
        if self.pos < len(self.data):
            c = self.data[self.pos]
            self.pos += 1
            return c
        return EOF

    def run(self, data: bytes) -> None:
        self.data, self.pos = data, 0
        self.tabs = False
        self.other_indent = 0
        self.next_char = self.get_prefix()
        while self.get_paragraph():
            self.poll()
            self.fmt_paragraph()
            self.put_paragraph(self.word_limit)

    def set_other_indent(self, same: bool) -> None:
        if self.split:
            self.other_indent = self.first_indent
        elif self.crown:
            self.other_indent = self.in_column if same else self.first_indent
        elif self.tagged:
            if same and self.in_column != self.first_indent:
                self.other_indent = self.in_column
            elif self.other_indent == self.first_indent:
                self.other_indent = DEF_INDENT if self.first_indent == 0 else 0
        else:
            self.other_indent = self.first_indent

    def get_paragraph(self) -> bool:
        self.last_line_width = 0
        c = self.next_char
        while (c in (10, EOF) or self.next_prefix_indent < self.prefix_lead_space
               or self.in_column < self.next_prefix_indent + self.prefix_full_length):
            c = self.copy_rest(c)
            if c == EOF:
                self.next_char = EOF
                return False
            self.out.append(10)
            c = self.get_prefix()
        self.prefix_indent = self.next_prefix_indent
        self.first_indent = self.in_column
        self.wptr = 0
        self.word_limit = 0
        c = self.get_line(c)
        self.set_other_indent(self.same_para(c))
        if self.split:
            pass
        elif self.crown or self.tagged:
            if self.same_para(c) and (self.crown or self.in_column != self.first_indent):
                while True:
                    c = self.get_line(c)
                    if not (self.same_para(c) and self.in_column == self.other_indent):
                        break
        else:
            while self.same_para(c) and self.in_column == self.other_indent:
                c = self.get_line(c)
        last = self.words[self.word_limit - 1]
        last.period = last.final = True
        self.next_char = c
        return True

    def copy_rest(self, c: int) -> int:
        out = self.out
        self.out_column = 0
        if self.in_column > self.next_prefix_indent or c not in (10, EOF):
            self.put_space(self.next_prefix_indent)
            for ch in self.prefix:
                if self.out_column == self.in_column:
                    break
                out.append(ch)
                self.out_column += 1
            if c not in (10, EOF):
                self.put_space(self.in_column - self.out_column)
            if c == EOF and self.in_column >= self.next_prefix_indent + self.prefix_length:
                out.append(10)
        if c not in (10, EOF):
            out.append(c)
            end = self.data.find(b"\n", self.pos)
            end = len(self.data) if end < 0 else end
            out += self.data[self.pos:end]
            self.pos = end
            c = self.getc()
        return c

    def same_para(self, c: int) -> bool:
        return (self.next_prefix_indent == self.prefix_indent
                and self.in_column >= self.next_prefix_indent + self.prefix_full_length
                and c not in (10, EOF))

    def get_line(self, c: int) -> int:
        words = self.words
        buf = self.parabuf
        while True:
            self.poll()
            w = words[self.word_limit]
            w.text = self.wptr
            while True:
                if self.wptr == MAXCHARS:
                    self.set_other_indent(True)
                    self.flush_paragraph()
                    w = words[self.word_limit]
                buf[self.wptr] = c
                self.wptr += 1
                c = self.getc()
                if c == EOF or c in _SPACE:
                    break
            w.length = self.wptr - w.text
            self.in_column += w.length
            self.check_punctuation(w)
            start = self.in_column
            c = self.get_space(c)
            w.space = self.in_column - start
            w.final = c == EOF or (w.period and (c == 10 or w.space > 1))
            if c in (10, EOF) or self.uniform:
                w.space = 2 if w.final else 1
            if self.word_limit == MAXWORDS - 2:
                self.set_other_indent(True)
                self.flush_paragraph()
            self.word_limit += 1
            if c in (10, EOF):
                break
        return self.get_prefix()

    def get_prefix(self) -> int:
        self.in_column = 0
        c = self.get_space(self.getc())
        if self.prefix_length == 0:
            self.next_prefix_indent = min(self.prefix_lead_space, self.in_column)
        else:
            self.next_prefix_indent = self.in_column
            for pc in self.prefix:
                if c != pc:
                    return c
                self.in_column += 1
                c = self.getc()
            c = self.get_space(c)
        return c

    def get_space(self, c: int) -> int:
        while True:
            if c == 32:
                self.in_column += 1
            elif c == 9:
                self.tabs = True
                self.in_column = (self.in_column // TABWIDTH + 1) * TABWIDTH
            else:
                return c
            c = self.getc()

    def check_punctuation(self, w: _Word) -> None:
        buf = self.parabuf
        start = w.text
        finish = start + w.length - 1
        w.paren = buf[start] in _OPEN
        w.punct = buf[finish] in _PUNCT
        while start < finish and buf[finish] in _CLOSE:
            finish -= 1
        w.period = buf[finish] in _PERIOD

    # -- line breaking --------------------------------------------------------
    def flush_paragraph(self) -> None:
        words = self.words
        if self.word_limit == 0:
            self.out += self.parabuf[:self.wptr]
            self.wptr = 0
            return
        self.fmt_paragraph()
        split_point = self.word_limit
        best_break = MAXCOST
        w = words[0].next_break
        while w != self.word_limit:
            nb = words[w].next_break
            d = words[w].best_cost - words[nb].best_cost
            if d < best_break:
                split_point = w
                best_break = d
            if best_break <= MAXCOST - LINE_CREDIT:
                best_break += LINE_CREDIT
            w = nb
        self.put_paragraph(split_point)
        shift = words[split_point].text
        self.parabuf[0:self.wptr - shift] = self.parabuf[shift:self.wptr]
        self.wptr -= shift
        moved = self.word_limit - split_point
        for i in range(moved + 1):
            words[i].copy_from(words[split_point + i])
            words[i].text -= shift
            words[i].next_break -= split_point
        self.word_limit = moved

    def fmt_paragraph(self) -> None:
        words = self.words
        limit = self.word_limit
        lw = words[limit]
        lw.best_cost = 0
        saved = lw.length
        lw.length = self.max_width
        max_width = self.max_width
        goal = self.goal_width
        last_line_width = self.last_line_width
        for start in range(limit - 1, -1, -1):
            sw = words[start]
            best = MAXCOST
            wid = self.first_indent if start == 0 else self.other_indent
            w = start
            wid += sw.length
            while True:
                w += 1
                ww = words[w]
                # line_cost(w, wid) + w.best_cost
                if w == limit:
                    wcost = 0
                else:
                    wcost = _short_cost(goal - wid)
                    if ww.next_break != limit:
                        wcost += _ragged_cost(wid - ww.line_width)
                wcost += ww.best_cost
                if start == 0 and last_line_width > 0:
                    wcost += _ragged_cost(wid - last_line_width)
                if wcost < best:
                    best = wcost
                    sw.next_break = w
                    sw.line_width = wid
                if w == limit:
                    break
                wid += words[w - 1].space + ww.length
                if wid >= max_width:
                    break
            sw.best_cost = best + self.base_cost(start)
        lw.length = saved

    def base_cost(self, i: int) -> int:
        words = self.words
        this = words[i]
        cost = LINE_COST
        if i > 0:
            prev = words[i - 1]
            if prev.period:
                if prev.final:
                    cost -= SENTENCE_BONUS
                else:
                    cost += NOBREAK_COST
            elif prev.punct:
                cost -= PUNCT_BONUS
            elif i > 1 and words[i - 2].final:
                cost += _equiv(200) // (prev.length + 2)
        if this.paren:
            cost -= PAREN_BONUS
        elif this.final:
            cost += _equiv(150) // (this.length + 2)
        return cost

    # -- output ---------------------------------------------------------------
    def put_paragraph(self, finish: int) -> None:
        words = self.words
        self.put_line(0, self.first_indent)
        w = words[0].next_break
        while w != finish:
            self.put_line(w, self.other_indent)
            w = words[w].next_break

    def put_line(self, w: int, indent: int) -> None:
        words = self.words
        out = self.out
        buf = self.parabuf
        self.out_column = 0
        self.put_space(self.prefix_indent)
        out += self.prefix
        self.out_column += self.prefix_length
        self.put_space(indent - self.out_column)
        endline = words[w].next_break - 1
        while True:
            word = words[w]
            out += buf[word.text:word.text + word.length]
            self.out_column += word.length
            if w == endline:
                break
            self.put_space(word.space)
            w += 1
        self.last_line_width = self.out_column
        out.append(10)

    def put_space(self, space: int) -> None:
        target = self.out_column + space
        if self.tabs:
            tab_target = target // TABWIDTH * TABWIDTH
            if self.out_column + 1 < tab_target:
                while self.out_column < tab_target:
                    self.out.append(9)
                    self.out_column = (self.out_column // TABWIDTH + 1) * TABWIDTH
        if self.out_column < target:
            self.out += b" " * (target - self.out_column)
            self.out_column = target


def _width(text: str, maximum: int) -> tuple[int | None, str]:
    t = text.lstrip(" \t\n\v\f\r")
    if t.startswith("+"):
        t = t[1:]
    if not t or not (t.isascii() and t.isdigit()):
        return None, f"invalid width: {quote(text)}"
    v = int(t)
    if v > maximum:
        return None, f"invalid width: {quote(text)}: Numerical result out of range"
    return v, ""


async def main(shell, argv: list[str]) -> int:
    prog = "fmt"
    args = argv[1:]
    width_opt = goal_opt = None
    if args and len(args[0]) > 1 and args[0][0] == "-" and args[0][1].isdigit():
        width_opt = args[0][1:]
        args = args[1:]
    try:
        opts, files = parse_options(args, "0123456789cstuw:p:g:", {
            "crown-margin": "c", "prefix=": "p", "split-only": "s", "tagged-paragraph": "t",
            "uniform-spacing": "u", "width=": "w", "goal=": "g", "help": "help",
            "version": "version"})
    except OptionError as e:
        return await usage(shell, prog, str(e))
    crown = tagged = split = uniform = False
    prefix = b""
    for k, v in opts:
        if k == "help":
            return await help_text(shell, HELP)
        if k == "version":
            return await version_text(shell, prog)
        if k.isdigit():
            await shell.error(prog, f"invalid option -- {k}; -WIDTH is recognized only when "
                                    "it is the first\noption; use -w N instead")
            return await usage(shell, prog, None)
        if k == "c":
            crown = True
        elif k == "s":
            split = True
        elif k == "t":
            tagged = True
        elif k == "u":
            uniform = True
        elif k == "w":
            width_opt = v
        elif k == "g":
            goal_opt = v
        elif k == "p":
            prefix = encode(v or "")
    max_width = WIDTH
    if width_opt is not None:
        max_width, msg = _width(width_opt, MAXCHARS // 2)
        if max_width is None:
            await shell.error(prog, msg)
            return 1
    if goal_opt is not None:
        goal_width, msg = _width(goal_opt, max_width)
        if goal_width is None:
            await shell.error(prog, msg)
            return 1
        if width_opt is None:
            max_width = goal_width + 10
    else:
        goal_width = max_width * (2 * (100 - LEEWAY) + 1) // 200
    budget = shell.budget
    count = [0]

    def poll() -> None:
        count[0] += 1
        if count[0] & 63 == 0:
            budget.check()

    buf = bytearray()
    f = Fmt(buf, max_width, goal_width, crown, tagged, split, uniform, prefix, poll)
    out = Writer(shell.stdout)
    status = 0
    for name in files or ["-"]:
        try:
            stream = shell.open_input(name)
        except OSError as e:
            await out.flush()
            if e.errno == errno.EISDIR:  # GNU opens it and fails to read it
                await shell.error(prog, "read error")
            else:
                await shell.error(prog, f"cannot open {quoteaf(name)} for reading: {strerror(e)}")
            status = 1
            continue
        try:
            data = await read_all(shell, stream)
        except OSError:
            await out.flush()
            await shell.error(prog, "read error")
            status = 1
            data = None
        finally:
            stream.close()
        if data is None:
            continue
        f.run(data)
        await out.write(bytes(buf))
        buf.clear()
    await out.flush()
    return status
