"""The comparison engine of diff: GNU diffutils' algorithm, reimplemented.

The steps are those of GNU diff, so that the hunks come out the same:

1. the identical prefix and suffix are set aside, keeping ``horizon`` lines
   of each (the context length) so that boundaries may still shift;
2. the remaining lines are put in equivalence classes (per -i/-b/-w/-Z/-E);
   an incomplete last line only equals the other file's incomplete line;
3. lines that match nothing in the other file are discarded up front, and
   lines that match very many are discarded when they sit in runs of
   discards (``discard_confusing_lines``);
4. Myers' O(ND) search with divide and conquer on the middle snake finds
   which remaining lines changed; past a cost of ``too_expensive`` (about the
   square root of the input, at least 4096) the search settles for a good
   diagonal instead of the best one, so big inputs stay near-linear;
5. runs of changes are slid to merge with neighbours and to end on the last
   possible line (``shift_boundaries``);
6. the change flags become an edit script of (line0, line1, deleted, inserted).

All line numbers here are 0-based indices into the whole files.
"""

from __future__ import annotations

import re

SNAKE_LIMIT = 20
# After this many diagonal steps (seconds of Python, a blink for GNU's C) the search
# stops insisting on a minimal script, as GNU's too_expensive heuristic does earlier
# on huge inputs: the output stays a correct diff, possibly not GNU's exact one.
WORK_CAP = 6_000_000
CHEAP_TOO_EXPENSIVE = 256

# ignore_white_space levels, in GNU's order
WS_NONE, WS_TAB, WS_TRAILING, WS_TAB_TRAILING, WS_CHANGE, WS_ALL = 0, 1, 2, 3, 4, 5

_SPACE_RUN = re.compile(rb"[ \t\n\v\f\r]+")
_SPACE_ANY = re.compile(rb"[ \t\n\v\f\r]")
_TRAILING = re.compile(rb"[ \t\n\v\f\r]+\Z")


def _expand_tabs(line: bytes, tabsize: int) -> bytes:
    if b"\t" not in line and b"\b" not in line and b"\r" not in line:
        return line
    out = bytearray()
    col = 0
    for c in line:
        if c == 9:
            n = tabsize - col % tabsize
            out += b" " * n
            col += n
        elif c == 8:
            col = max(0, col - 1)
            out.append(c)
        elif c == 13:
            col = 0
            out.append(c)
        else:
            col += 1
            out.append(c)
    return bytes(out)


def key_function(ignore_case: bool, white: int, tabsize: int = 8):
    """The canonical form of a line (without its newline) under the ignore options."""
    funcs = []
    if white == WS_ALL:
        funcs.append(lambda s: _SPACE_ANY.sub(b"", s))
    elif white == WS_CHANGE:
        funcs.append(lambda s: _TRAILING.sub(b"", _SPACE_RUN.sub(b" ", s)))
    else:
        if white & WS_TRAILING:
            funcs.append(lambda s: _TRAILING.sub(b"", s))
        if white & WS_TAB:
            funcs.append(lambda s: _expand_tabs(s, tabsize))
    if ignore_case:
        funcs.append(bytes.lower)
    if not funcs:
        return None
    if len(funcs) == 1:
        return funcs[0]

    def chain(s: bytes) -> bytes:
        for f in funcs:
            s = f(s)
        return s

    return chain


class Budgeted:
    """Counts work and polls the run budget every so often."""

    __slots__ = ("check", "n")

    def __init__(self, check):
        self.check = check
        self.n = 0

    def tick(self, amount: int = 1) -> None:
        self.n += amount
        if self.n >= 20000:
            self.n = 0
            if self.check is not None:
                self.check()


def identical_ends(a: list[bytes], b: list[bytes], horizon: int) -> tuple[int, int]:
    """(prefix, suffix) line counts set aside, keeping ``horizon`` lines of each."""
    n = min(len(a), len(b))
    p = 0
    while p < n and a[p] == b[p]:
        p += 1
    p = max(0, p - horizon)
    limit = n - p
    s = 0
    la, lb = len(a), len(b)
    while s < limit and a[la - 1 - s] == b[lb - 1 - s]:
        s += 1
    s = max(0, s - horizon)
    return p, s


def discard_confusing_lines(eq0: list[int], eq1: list[int], nclasses: int, minimal: bool):
    """(undiscarded0, realindex0, undiscarded1, realindex1, discarded0, discarded1)."""
    counts0 = [0] * nclasses
    counts1 = [0] * nclasses
    for e in eq0:
        counts0[e] += 1
    for e in eq1:
        counts1[e] += 1
    result = []
    for eqs, other in ((eq0, counts1), (eq1, counts0)):
        end = len(eqs)
        many = 5
        tem = end // 64
        while True:
            tem >>= 2
            if tem <= 0:
                break
            many *= 2
        disc = bytearray(end)
        for i, e in enumerate(eqs):
            if e == 0:
                continue
            nm = other[e]
            if nm == 0:
                disc[i] = 1
            elif nm > many:
                disc[i] = 2
        _refine_discards(disc)
        result.append(disc)
    out = []
    for eqs, disc in zip((eq0, eq1), result, strict=True):
        und, real = [], []
        for i, e in enumerate(eqs):
            if minimal or disc[i] == 0:
                und.append(e)
                real.append(i)
        out.append((und, real))
    return out[0][0], out[0][1], out[1][0], out[1][1], result[0], result[1]


def _refine_discards(disc: bytearray) -> None:
    """Keep provisional discards only inside runs of definite ones (GNU's rules)."""
    end = len(disc)
    i = 0
    while i < end:
        if disc[i] == 2:
            disc[i] = 0
        elif disc[i] != 0:
            provisional = 0
            j = i
            while j < end:
                if disc[j] == 0:
                    break
                if disc[j] == 2:
                    provisional += 1
                j += 1
            while j > i and disc[j - 1] == 2:
                j -= 1
                disc[j] = 0
                provisional -= 1
            length = j - i
            if provisional * 4 > length:
                while j > i:
                    j -= 1
                    if disc[j] == 2:
                        disc[j] = 0
            else:
                minimum = 1
                tem = length >> 2
                while True:
                    tem >>= 2
                    if tem <= 0:
                        break
                    minimum <<= 1
                minimum += 1
                consec = 0
                j = 0
                while j < length:
                    if disc[i + j] != 2:
                        consec = 0
                    else:
                        consec += 1
                        if minimum == consec:
                            j -= consec
                        elif minimum < consec:
                            disc[i + j] = 0
                    j += 1
                consec = 0
                for j in range(length):
                    if j >= 8 and disc[i + j] == 1:
                        break
                    if disc[i + j] == 2:
                        consec = 0
                        disc[i + j] = 0
                    elif disc[i + j] == 0:
                        consec = 0
                    else:
                        consec += 1
                    if consec == 3:
                        break
                i += length - 1
                consec = 0
                for j in range(length):
                    if j >= 8 and disc[i - j] == 1:
                        break
                    if disc[i - j] == 2:
                        consec = 0
                        disc[i - j] = 0
                    elif disc[i - j] == 0:
                        consec = 0
                    else:
                        consec += 1
                    if consec == 3:
                        break
        i += 1


class Myers:
    """GNU's diag/compareseq over two vectors of equivalence-class numbers."""

    def __init__(self, xv: list[int], yv: list[int], changed0: bytearray, changed1: bytearray,
                 real0: list[int], real1: list[int], heuristic: bool, budget: Budgeted):
        self.xv, self.yv = xv, yv
        self.changed0, self.changed1 = changed0, changed1
        self.real0, self.real1 = real0, real1
        diags = len(xv) + len(yv) + 3
        self.fd = [0] * (diags + 2)
        self.bd = [0] * (diags + 2)
        self.work = 0
        self.heuristic = heuristic
        te = 1
        d = diags
        while d != 0:
            te <<= 1
            d >>= 2
        self.too_expensive = max(4096, te)
        self.budget = budget

    def diag(self, xoff: int, xlim: int, yoff: int, ylim: int, find_minimal: bool):
        # fd/bd are indexed by the diagonal itself: negative diagonals wrap to the end
        fd, bd, xv, yv = self.fd, self.bd, self.xv, self.yv
        dmin = xoff - ylim
        dmax = xlim - yoff
        fmid = xoff - yoff
        bmid = xlim - ylim
        fmin = fmax = fmid
        bmin = bmax = bmid
        odd = (fmid - bmid) & 1
        fd[fmid] = xoff
        bd[bmid] = xlim
        tick = self.budget.tick
        big = 1 << 62
        c = 0
        while True:
            c += 1
            big_snake = False
            if fmin > dmin:
                fmin -= 1
                fd[fmin - 1] = -1
            else:
                fmin += 1
            if fmax < dmax:
                fmax += 1
                fd[fmax + 1] = -1
            else:
                fmax -= 1
            tick(fmax - fmin + 1)
            for d in range(fmax, fmin - 1, -2):
                tlo = fd[d - 1]
                thi = fd[d + 1]
                x = tlo + 1 if tlo >= thi else thi
                y = x - d
                if x < xlim and y < ylim and xv[x] == yv[y]:
                    x0 = x
                    x += 1
                    y += 1
                    while x < xlim and y < ylim and xv[x] == yv[y]:
                        x += 1
                        y += 1
                    if x - x0 > SNAKE_LIMIT:
                        big_snake = True
                fd[d] = x
                if odd and bmin <= d <= bmax and bd[d] <= x:
                    return x, y, True, True
            if bmin > dmin:
                bmin -= 1
                bd[bmin - 1] = big
            else:
                bmin += 1
            if bmax < dmax:
                bmax += 1
                bd[bmax + 1] = big
            else:
                bmax -= 1
            tick(bmax - bmin + 1)
            for d in range(bmax, bmin - 1, -2):
                tlo = bd[d - 1]
                thi = bd[d + 1]
                x = tlo if tlo < thi else thi - 1
                y = x - d
                if x > xoff and y > yoff and xv[x - 1] == yv[y - 1]:
                    x0 = x
                    x -= 1
                    y -= 1
                    while x > xoff and y > yoff and xv[x - 1] == yv[y - 1]:
                        x -= 1
                        y -= 1
                    if x0 - x > SNAKE_LIMIT:
                        big_snake = True
                bd[d] = x
                if not odd and fmin <= d <= fmax and x <= fd[d]:
                    return x, y, True, True
            self.work += (fmax - fmin) + (bmax - bmin) + 2
            if self.work > WORK_CAP and self.too_expensive > CHEAP_TOO_EXPENSIVE:
                # far beyond what GNU's C does in a blink: settle sooner from now on
                self.too_expensive = CHEAP_TOO_EXPENSIVE
            if find_minimal:
                continue
            if 200 < c and big_snake and self.heuristic:
                r = self._heuristic(c, xoff, xlim, yoff, ylim, fmin, fmax, bmin, bmax,
                                    fmid, bmid)
                if r is not None:
                    return r
            if c >= self.too_expensive:
                fxybest = -1
                fxbest = 0
                for d in range(fmax, fmin - 1, -2):
                    x = min(fd[d], xlim)
                    y = x - d
                    if ylim < y:
                        x = ylim + d
                        y = ylim
                    if fxybest < x + y:
                        fxybest = x + y
                        fxbest = x
                bxybest = 1 << 62
                bxbest = 0
                for d in range(bmax, bmin - 1, -2):
                    x = max(xoff, bd[d])
                    y = x - d
                    if y < yoff:
                        x = yoff + d
                        y = yoff
                    if x + y < bxybest:
                        bxybest = x + y
                        bxbest = x
                if (xlim + ylim) - bxybest < fxybest - (xoff + yoff):
                    return fxbest, fxybest - fxbest, True, False
                return bxbest, bxybest - bxbest, False, True

    def _heuristic(self, c, xoff, xlim, yoff, ylim, fmin, fmax, bmin, bmax, fmid, bmid):
        fd, bd, xv, yv = self.fd, self.bd, self.xv, self.yv
        best = 0
        part = None
        for d in range(fmax, fmin - 1, -2):
            dd = d - fmid
            x = fd[d]
            y = x - d
            v = (x - xoff) * 2 - dd
            if v > 12 * (c + abs(dd)):
                if (v > best and xoff + SNAKE_LIMIT <= x < xlim
                        and yoff + SNAKE_LIMIT <= y < ylim):
                    k = 1
                    while xv[x - k] == yv[y - k]:
                        if k == SNAKE_LIMIT:
                            best = v
                            part = (x, y)
                            break
                        k += 1
        if best > 0:
            return part[0], part[1], True, False
        best = 0
        for d in range(bmax, bmin - 1, -2):
            dd = d - bmid
            x = bd[d]
            y = x - d
            v = (xlim - x) * 2 + dd
            if v > 12 * (c + abs(dd)):
                if (v > best and xoff < x <= xlim - SNAKE_LIMIT
                        and yoff < y <= ylim - SNAKE_LIMIT):
                    k = 0
                    while xv[x + k] == yv[y + k]:
                        if k == SNAKE_LIMIT - 1:
                            best = v
                            part = (x, y)
                            break
                        k += 1
        if best > 0:
            return part[0], part[1], False, True
        return None

    def compareseq(self, xoff: int, xlim: int, yoff: int, ylim: int, find_minimal: bool) -> None:
        xv, yv = self.xv, self.yv
        ch0, ch1, r0, r1 = self.changed0, self.changed1, self.real0, self.real1
        stack = [(xoff, xlim, yoff, ylim, find_minimal)]
        while stack:
            xoff, xlim, yoff, ylim, find_minimal = stack.pop()
            while xoff < xlim and yoff < ylim and xv[xoff] == yv[yoff]:
                xoff += 1
                yoff += 1
            while xlim > xoff and ylim > yoff and xv[xlim - 1] == yv[ylim - 1]:
                xlim -= 1
                ylim -= 1
            if xoff == xlim:
                for y in range(yoff, ylim):
                    ch1[r1[y]] = 1
            elif yoff == ylim:
                for x in range(xoff, xlim):
                    ch0[r0[x]] = 1
            else:
                xmid, ymid, lo_min, hi_min = self.diag(xoff, xlim, yoff, ylim, find_minimal)
                # the halves are independent: process the low one first, as GNU does
                stack.append((xmid, xlim, ymid, ylim, hi_min))
                stack.append((xoff, xmid, yoff, ymid, lo_min))


def shift_boundaries(eqs: tuple[list[int], list[int]], changed: tuple[bytearray, bytearray]):
    """Slide runs of changes (GNU's shift_boundaries). ``changed[f]`` has a 0 at both ends."""
    for f in (0, 1):
        ch = changed[f]
        other = changed[1 - f]
        eq = eqs[f]
        # arrays are offset by one: index k of a line is ch[k + 1]; ch[0] and ch[-1] are 0
        i = 0
        j = 0
        i_end = len(eq)
        while True:
            while i < i_end and not ch[i + 1]:
                while other[j + 1]:
                    j += 1
                j += 1
                i += 1
            if i == i_end:
                break
            start = i
            i += 1
            while ch[i + 1]:
                i += 1
            while other[j + 1]:
                j += 1
            while True:
                runlength = i - start
                while start and eq[start - 1] == eq[i - 1]:
                    start -= 1
                    ch[start + 1] = 1
                    i -= 1
                    ch[i + 1] = 0
                    while ch[start]:  # ch[start - 1 + 1]
                        start -= 1
                    j -= 1
                    while other[j + 1]:
                        j -= 1
                corresponding = i if other[j] else i_end  # other[(j - 1) + 1]
                while i != i_end and eq[start] == eq[i]:
                    ch[start + 1] = 0
                    start += 1
                    ch[i + 1] = 1
                    i += 1
                    while ch[i + 1]:
                        i += 1
                    j += 1
                    while other[j + 1]:
                        j += 1
                        corresponding = i
                if runlength == i - start:
                    break
            while corresponding < i:
                start -= 1
                ch[start + 1] = 1
                i -= 1
                ch[i + 1] = 0
                j -= 1
                while other[j + 1]:
                    j -= 1


def build_script(ch0: bytearray, ch1: bytearray, n0: int, n1: int, base: int):
    """Forward edit script from offset change flags: [(line0, line1, deleted, inserted)]."""
    script = []
    i0 = i1 = 0
    while i0 < n0 or i1 < n1:
        if ch0[i0 + 1] or ch1[i1 + 1]:
            l0, l1 = i0, i1
            while ch0[i0 + 1]:
                i0 += 1
            while ch1[i1 + 1]:
                i1 += 1
            script.append((l0 + base, l1 + base, i0 - l0, i1 - l1))
        i0 += 1
        i1 += 1
    return script


def compare(a: list[bytes], b: list[bytes], *, missing0: bool, missing1: bool,
            ignore_case: bool = False, white: int = WS_NONE, tabsize: int = 8,
            horizon: int = 0, minimal: bool = False, heuristic: bool = False,
            check=None) -> list[tuple[int, int, int, int]]:
    """The edit script turning ``a`` into ``b`` (lines without their newlines).

    ``missing0/1`` say the last line of a/b lacks its newline: such a line only
    matches the other file's incomplete last line (unless trailing white space
    is ignored).
    """
    budget = Budgeted(check)
    # identical ends compare lines with their newline state
    ta: list = a[:-1] + [(a[-1],)] if (missing0 and a) else a
    tb: list = b[:-1] + [(b[-1],)] if (missing1 and b) else b
    prefix, suffix = identical_ends(ta, tb, horizon)
    end0, end1 = len(a) - suffix, len(b) - suffix
    keyf = key_function(ignore_case, white, tabsize)
    classes: dict = {}
    eq0: list[int] = []
    eq1: list[int] = []
    robust_noeol = white < WS_TRAILING
    for lines, missing, eqs, end in ((a, missing0, eq0, end0), (b, missing1, eq1, end1)):
        last = len(lines) - 1
        for k in range(prefix, end):
            line = lines[k]
            key = keyf(line) if keyf is not None else line
            if missing and k == last and robust_noeol:
                key = (key,)
            e = classes.get(key)
            if e is None:
                e = classes[key] = len(classes) + 1
            eqs.append(e)
        budget.tick(end - prefix)
    n0, n1 = len(eq0), len(eq1)
    ch0 = bytearray(n0 + 2)
    ch1 = bytearray(n1 + 2)
    und0, real0, und1, real1, d0, d1 = discard_confusing_lines(eq0, eq1, len(classes) + 1,
                                                               minimal)
    for i in range(n0):
        if d0[i] and not minimal:
            ch0[i + 1] = 1
    for i in range(n1):
        if d1[i] and not minimal:
            ch1[i + 1] = 1
    # changed flags are offset by one so that index -1 exists and is 0
    real0p = [r + 1 for r in real0]
    real1p = [r + 1 for r in real1]
    m = Myers(und0, und1, ch0, ch1, real0p, real1p, heuristic, budget)
    m.compareseq(0, len(und0), 0, len(und1), minimal)
    shift_boundaries((eq0, eq1), (ch0, ch1))
    return build_script(ch0, ch1, n0, n1, prefix)
