"""Diffs as git prints them: Myers line diff, xdiff's group compaction with the indent
heuristic, unified hunks with function context, tree comparisons with rename detection,
``--stat``/``--numstat``/``--name-status``/``--summary`` formatting."""

from __future__ import annotations

import re
import stat as _stat
from dataclasses import dataclass

from pysh.ports.git.core import GitExit, quote_path
from pysh.shellkit import decode

ZERO = b"0" * 40


# ------------------------------------------------------------- line diff
def split_lines(data: bytes) -> list[bytes]:
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
        return [ln + b"\n" for ln in lines]
    return [ln + b"\n" for ln in lines[:-1]] + [lines[-1]]


def is_binary(data: bytes) -> bool:
    return b"\0" in data[:8000]


def _myers(a: list, b: list, budget=None) -> tuple[list[bool], list[bool]]:
    """Change marks for both sides (True = line not in the LCS)."""
    n, m = len(a), len(b)
    ra = [False] * n
    rb = [False] * m
    lo = 0
    while lo < n and lo < m and a[lo] == b[lo]:
        lo += 1
    hi_a, hi_b = n, m
    while hi_a > lo and hi_b > lo and a[hi_a - 1] == b[hi_b - 1]:
        hi_a -= 1
        hi_b -= 1
    A, B = a[lo:hi_a], b[lo:hi_b]
    N, M = len(A), len(B)
    if N == 0 or M == 0:
        for i in range(lo, hi_a):
            ra[i] = True
        for j in range(lo, hi_b):
            rb[j] = True
        return ra, rb
    # map lines to ints for speed
    ids: dict = {}
    ia = [ids.setdefault(x, len(ids)) for x in A]
    ib = [ids.setdefault(x, len(ids)) for x in B]
    maxd = N + M
    off = maxd + 1
    v = [0] * (2 * maxd + 3)
    trace: list[list[int]] = []
    final_d = 0
    for d in range(maxd + 1):
        if budget is not None and d & 63 == 63:
            budget.check()
        done = False
        for k in range(-d, d + 1, 2):
            if k == -d or (k != d and v[off + k - 1] < v[off + k + 1]):
                x = v[off + k + 1]
            else:
                x = v[off + k - 1] + 1
            y = x - k
            while x < N and y < M and ia[x] == ib[y]:
                x += 1
                y += 1
            v[off + k] = x
            if x >= N and y >= M:
                done = True
                break
        trace.append(v[off - d: off + d + 1])
        if done:
            final_d = d
            break
    x, y = N, M
    for d in range(final_d, 0, -1):
        pv = trace[d - 1]  # k from -(d-1) .. d-1 at index k + d - 1
        k = x - y
        if k == -d or (k != d and pv[k - 1 + d - 1] < pv[k + 1 + d - 1]):
            pk = k + 1
            px = pv[pk + d - 1]
            mx = px
        else:
            pk = k - 1
            px = pv[pk + d - 1]
            mx = px + 1
        while x > mx:
            x -= 1
            y -= 1
        py = px - pk
        if pk == k + 1:
            rb[lo + py] = True
        else:
            ra[lo + px] = True
        x, y = px, py
    return ra, rb


def _bogosqrt(n: int) -> int:
    i = 1
    while n > 0:
        i <<= 1
        n >>= 2
    return i


def _clean_mmatch(dis: list[int], i: int, s: int, e: int) -> bool:
    if i - s > 100:
        s = i - 100
    if e - i > 100:
        e = i + 100
    r, rdis0, rpdis0 = 1, 0, 1
    while i - r >= s:
        v = dis[i - r]
        if not v:
            rdis0 += 1
        elif v == 2:
            rpdis0 += 1
        else:
            break
        r += 1
    if rdis0 == 0:
        return False
    r, rdis1, rpdis1 = 1, 0, 1
    while i + r <= e:
        v = dis[i + r]
        if not v:
            rdis1 += 1
        elif v == 2:
            rpdis1 += 1
        else:
            break
        r += 1
    if rdis1 == 0:
        return False
    rdis1 += rdis0
    rpdis1 += rpdis0
    return rpdis1 * 4 < rpdis1 + rdis1


_LINE_MAX = 1 << 62


def _xdiff(a: list, b: list, budget=None) -> tuple[list[bool], list[bool]]:
    """git's xdiff (the default Myers variant): trimmed ends, discarded unmatched lines,
    divide and conquer on the middle snake with xdiff's cost heuristics."""
    ids: dict = {}
    ha1 = [ids.setdefault(x, len(ids)) for x in a]
    ha2 = [ids.setdefault(x, len(ids)) for x in b]
    n1, n2 = len(a), len(b)
    rchg1 = [False] * n1
    rchg2 = [False] * n2
    cnt1: dict[int, int] = {}
    cnt2: dict[int, int] = {}
    for h in ha1:
        cnt1[h] = cnt1.get(h, 0) + 1
    for h in ha2:
        cnt2[h] = cnt2.get(h, 0) + 1
    # trim ends
    lim = min(n1, n2)
    i = 0
    while i < lim and ha1[i] == ha2[i]:
        i += 1
    dstart = i
    lim -= i
    j = 0
    while j < lim and ha1[n1 - 1 - j] == ha2[n2 - 1 - j]:
        j += 1
    dend1, dend2 = n1 - j - 1, n2 - j - 1
    # discard records without matches (and multimatch runs among them)
    dis1 = [0] * (n1 + 1)
    dis2 = [0] * (n2 + 1)
    mlim = min(_bogosqrt(n1), 1024)
    for k in range(dstart, dend1 + 1):
        nm = cnt2.get(ha1[k], 0)
        dis1[k] = 0 if nm == 0 else (2 if nm >= mlim else 1)
    mlim = min(_bogosqrt(n2), 1024)
    for k in range(dstart, dend2 + 1):
        nm = cnt1.get(ha2[k], 0)
        dis2[k] = 0 if nm == 0 else (2 if nm >= mlim else 1)
    r1, h1 = [], []
    for k in range(dstart, dend1 + 1):
        if dis1[k] == 1 or (dis1[k] == 2 and not _clean_mmatch(dis1, k, dstart, dend1)):
            r1.append(k)
            h1.append(ha1[k])
        else:
            rchg1[k] = True
    r2, h2 = [], []
    for k in range(dstart, dend2 + 1):
        if dis2[k] == 1 or (dis2[k] == 2 and not _clean_mmatch(dis2, k, dstart, dend2)):
            r2.append(k)
            h2.append(ha2[k])
        else:
            rchg2[k] = True
    ndiags = len(h1) + len(h2) + 3
    mxcost = max(_bogosqrt(ndiags), 256)
    off = len(h2) + 1
    kvdf = [0] * (2 * ndiags + 2)
    kvdb = [0] * (2 * ndiags + 2)
    stack = [(0, len(h1), 0, len(h2), False)]
    steps = 0
    while stack:
        off1, lim1, off2, lim2, need_min = stack.pop()
        while off1 < lim1 and off2 < lim2 and h1[off1] == h2[off2]:
            off1 += 1
            off2 += 1
        while off1 < lim1 and off2 < lim2 and h1[lim1 - 1] == h2[lim2 - 1]:
            lim1 -= 1
            lim2 -= 1
        if off1 == lim1:
            for k in range(off2, lim2):
                rchg2[r2[k]] = True
            continue
        if off2 == lim2:
            for k in range(off1, lim1):
                rchg1[r1[k]] = True
            continue
        steps += 1
        if budget is not None and steps & 63 == 0:
            budget.check()
        si1, si2, min_lo, min_hi = _split(h1, off1, lim1, h2, off2, lim2, kvdf, kvdb, off,
                                          need_min, mxcost)
        stack.append((si1, lim1, si2, lim2, min_hi))
        stack.append((off1, si1, off2, si2, min_lo))
    return rchg1, rchg2


def _split(ha1, off1, lim1, ha2, off2, lim2, kvdf, kvdb, o, need_min, mxcost):
    dmin, dmax = off1 - lim2, lim1 - off2
    fmid, bmid = off1 - off2, lim1 - lim2
    odd = (fmid - bmid) & 1
    fmin = fmax = fmid
    bmin = bmax = bmid
    kvdf[fmid + o] = off1
    kvdb[bmid + o] = lim1
    ec = 0
    while True:
        ec += 1
        got_snake = False
        if fmin > dmin:
            fmin -= 1
            kvdf[fmin - 1 + o] = -1
        else:
            fmin += 1
        if fmax < dmax:
            fmax += 1
            kvdf[fmax + 1 + o] = -1
        else:
            fmax -= 1
        d = fmax
        while d >= fmin:
            if kvdf[d - 1 + o] >= kvdf[d + 1 + o]:
                i1 = kvdf[d - 1 + o] + 1
            else:
                i1 = kvdf[d + 1 + o]
            prev1 = i1
            i2 = i1 - d
            while i1 < lim1 and i2 < lim2 and ha1[i1] == ha2[i2]:
                i1 += 1
                i2 += 1
            if i1 - prev1 > 20:
                got_snake = True
            kvdf[d + o] = i1
            if odd and bmin <= d <= bmax and kvdb[d + o] <= i1:
                return i1, i2, True, True
            d -= 2
        if bmin > dmin:
            bmin -= 1
            kvdb[bmin - 1 + o] = _LINE_MAX
        else:
            bmin += 1
        if bmax < dmax:
            bmax += 1
            kvdb[bmax + 1 + o] = _LINE_MAX
        else:
            bmax -= 1
        d = bmax
        while d >= bmin:
            if kvdb[d - 1 + o] < kvdb[d + 1 + o]:
                i1 = kvdb[d - 1 + o]
            else:
                i1 = kvdb[d + 1 + o] - 1
            prev1 = i1
            i2 = i1 - d
            while i1 > off1 and i2 > off2 and ha1[i1 - 1] == ha2[i2 - 1]:
                i1 -= 1
                i2 -= 1
            if prev1 - i1 > 20:
                got_snake = True
            kvdb[d + o] = i1
            if not odd and fmin <= d <= fmax and i1 <= kvdf[d + o]:
                return i1, i2, True, True
            d -= 2
        if need_min:
            continue
        if got_snake and ec > 256:
            best = 0
            sp = None
            d = fmax
            while d >= fmin:
                dd = d - fmid if d > fmid else fmid - d
                i1 = kvdf[d + o]
                i2 = i1 - d
                v = (i1 - off1) + (i2 - off2) - dd
                if v > 4 * ec and v > best and off1 + 20 <= i1 < lim1 and off2 + 20 <= i2 < lim2:
                    k = 1
                    while ha1[i1 - k] == ha2[i2 - k]:
                        if k == 20:
                            best = v
                            sp = (i1, i2)
                            break
                        k += 1
                d -= 2
            if best > 0:
                return sp[0], sp[1], True, False
            best = 0
            d = bmax
            while d >= bmin:
                dd = d - bmid if d > bmid else bmid - d
                i1 = kvdb[d + o]
                i2 = i1 - d
                v = (lim1 - i1) + (lim2 - i2) - dd
                if v > 4 * ec and v > best and off1 < i1 <= lim1 - 20 and off2 < i2 <= lim2 - 20:
                    k = 0
                    while ha1[i1 + k] == ha2[i2 + k]:
                        if k == 19:
                            best = v
                            sp = (i1, i2)
                            break
                        k += 1
                d -= 2
            if best > 0:
                return sp[0], sp[1], False, True
        if ec >= mxcost:
            fbest = fbest1 = -1
            d = fmax
            while d >= fmin:
                i1 = min(kvdf[d + o], lim1)
                i2 = i1 - d
                if lim2 < i2:
                    i1, i2 = lim2 + d, lim2
                if fbest < i1 + i2:
                    fbest, fbest1 = i1 + i2, i1
                d -= 2
            bbest = bbest1 = _LINE_MAX
            d = bmax
            while d >= bmin:
                i1 = max(off1, kvdb[d + o])
                i2 = i1 - d
                if i2 < off2:
                    i1, i2 = off2 + d, off2
                if i1 + i2 < bbest:
                    bbest, bbest1 = i1 + i2, i1
                d -= 2
            if (lim1 + lim2) - bbest < fbest - (off1 + off2):
                return fbest1, fbest - fbest1, True, False
            return bbest1, bbest - bbest1, False, True


class _Side:
    __slots__ = ("recs", "c", "n")

    def __init__(self, recs, marks):
        self.recs = recs
        self.n = len(recs)
        self.c = [False] + marks + [False]  # c[i + 1] is line i

    def ch(self, i: int) -> bool:
        return self.c[i + 1]

    def set(self, i: int, val: bool) -> None:
        self.c[i + 1] = val


class _Group:
    __slots__ = ("start", "end")

    def __init__(self, side: _Side):
        self.start = 0
        self.end = 0
        while side.ch(self.end):
            self.end += 1


def _g_next(s: _Side, g: _Group) -> bool:
    if g.end == s.n:
        return False
    g.start = g.end + 1
    g.end = g.start
    while s.ch(g.end):
        g.end += 1
    return True


def _g_prev(s: _Side, g: _Group) -> bool:
    if g.start == 0:
        return False
    g.end = g.start - 1
    g.start = g.end
    while s.ch(g.start - 1):
        g.start -= 1
    return True


def _slide_down(s: _Side, g: _Group) -> bool:
    if g.end < s.n and s.recs[g.start] == s.recs[g.end]:
        s.set(g.start, False)
        g.start += 1
        s.set(g.end, True)
        g.end += 1
        while s.ch(g.end):
            g.end += 1
        return True
    return False


def _slide_up(s: _Side, g: _Group) -> bool:
    if g.start > 0 and s.recs[g.start - 1] == s.recs[g.end - 1]:
        g.start -= 1
        s.set(g.start, True)
        g.end -= 1
        s.set(g.end, False)
        while s.ch(g.start - 1):
            g.start -= 1
        return True
    return False


_MAX_INDENT, _MAX_BLANKS = 200, 20


def _indent(rec: bytes) -> int:
    ret = 0
    for c in rec:
        if c not in b" \t\n\r\f\v":
            return ret
        if c == 32:
            ret += 1
        elif c == 9:
            ret += 8 - ret % 8
        if ret >= _MAX_INDENT:
            return _MAX_INDENT
    return -1


def _measure(s: _Side, split: int):
    if split >= s.n:
        eof, ind = 1, -1
    else:
        eof, ind = 0, _indent(s.recs[split])
    pre_blank, pre_indent = 0, -1
    i = split - 1
    while i >= 0:
        pre_indent = _indent(s.recs[i])
        if pre_indent != -1:
            break
        pre_blank += 1
        if pre_blank == _MAX_BLANKS:
            pre_indent = 0
            break
        i -= 1
    post_blank, post_indent = 0, -1
    i = split + 1
    while i < s.n:
        post_indent = _indent(s.recs[i])
        if post_indent != -1:
            break
        post_blank += 1
        if post_blank == _MAX_BLANKS:
            post_indent = 0
            break
        i += 1
    return eof, ind, pre_blank, pre_indent, post_blank, post_indent


def _score(m, sc):
    eof, ind, pre_blank, pre_indent, post_blank_, post_indent = m
    eff, pen = sc
    if pre_indent == -1 and pre_blank == 0:
        pen += 1
    if eof:
        pen += 21
    post_blank = 1 + post_blank_ if ind == -1 else 0
    total_blank = pre_blank + post_blank
    pen += -30 * total_blank
    pen += 6 * post_blank
    indent = ind if ind != -1 else post_indent
    any_blanks = total_blank != 0
    eff += indent
    if indent == -1 or pre_indent == -1:
        pass
    elif indent > pre_indent:
        pen += 10 if any_blanks else -4
    elif indent == pre_indent:
        pass
    else:
        if post_indent != -1 and post_indent > indent:
            pen += 17 if any_blanks else 24
        else:
            pen += 17 if any_blanks else 23
    return eff, pen


def _cmp(s1, s2) -> int:
    ci = (s1[0] > s2[0]) - (s1[0] < s2[0])
    return 60 * ci + (s1[1] - s2[1])


def _compact(s: _Side, o: _Side, heuristic: bool = True) -> None:
    g, go = _Group(s), _Group(o)
    while True:
        if g.end != g.start:
            while True:
                size = g.end - g.start
                end_match = -1
                while _slide_up(s, g):
                    _g_prev(o, go)
                earliest = g.end
                if go.end > go.start:
                    end_match = g.end
                while _slide_down(s, g):
                    _g_next(o, go)
                    if go.end > go.start:
                        end_match = g.end
                if size == g.end - g.start:
                    break
            if g.end == earliest:
                pass
            elif end_match != -1:
                while go.end == go.start:
                    _slide_up(s, g)
                    _g_prev(o, go)
            elif heuristic:
                shift = earliest
                if g.end - size - 1 > shift:
                    shift = g.end - size - 1
                if g.end - 100 > shift:
                    shift = g.end - 100
                best, best_sc = -1, None
                while shift <= g.end:
                    sc = _score(_measure(s, shift), (0, 0))
                    sc = _score(_measure(s, shift - size), sc)
                    if best == -1 or _cmp(sc, best_sc) <= 0:
                        best, best_sc = shift, sc
                    shift += 1
                while g.end > best:
                    _slide_up(s, g)
                    _g_prev(o, go)
        if not _g_next(s, g):
            break
        _g_next(o, go)


def diff_script(a: list[bytes], b: list[bytes], budget=None, key=None,
                heuristic: bool = True) -> list[tuple[int, int, int, int]]:
    """Change blocks (i1, n1, i2, n2) between two line lists, as xdiff finds them; ``key``
    folds each line first (whitespace ignored: lines equal once folded match)."""
    if key is not None:
        a, b = [key(x) for x in a], [key(x) for x in b]
    ra, rb = _xdiff(a, b, budget)
    sa, sb = _Side(a, ra), _Side(b, rb)
    _compact(sa, sb, heuristic)
    _compact(sb, sa, heuristic)
    out = []
    i1 = i2 = 0
    n1, n2 = len(a), len(b)
    while i1 < n1 or i2 < n2:
        if (i1 < n1 and sa.ch(i1)) or (i2 < n2 and sb.ch(i2)):
            s1, s2 = i1, i2
            while i1 < n1 and sa.ch(i1):
                i1 += 1
            while i2 < n2 and sb.ch(i2):
                i2 += 1
            out.append((s1, i1 - s1, s2, i2 - s2))
        else:
            i1 += 1
            i2 += 1
    return out


def _func_line(rec: bytes) -> bytes | None:
    if rec and (chr(rec[0]).isalpha() and rec[0] < 128 or rec[:1] in (b"_", b"$")):
        s = rec[:80]
        return s.rstrip(b" \t\n\r\f\v")
    return None


def unified_hunks(a: list[bytes], b: list[bytes], ctx: int = 3, budget=None,
                  funcnames: bool = True, key=None) -> bytes:
    script = diff_script(a, b, budget, key=key)
    if not script:
        return b""
    out = bytearray()
    n1, n2 = len(a), len(b)
    func = b""
    funcprev = -1
    i = 0
    while i < len(script):
        j = i
        while j + 1 < len(script) and script[j + 1][0] - (script[j][0] + script[j][1]) <= 2 * ctx:
            j += 1
        first, last = script[i], script[j]
        s1 = max(first[0] - ctx, 0)
        s2 = max(first[2] - ctx, 0)
        e1 = min(last[0] + last[1] + ctx, n1)
        e2 = min(last[2] + last[3] + ctx, n2)
        c1, c2 = e1 - s1, e2 - s2
        hdr = b"@@ -%d" % (s1 + 1 if c1 else s1)
        if c1 != 1:
            hdr += b",%d" % c1
        hdr += b" +%d" % (s2 + 1 if c2 else s2)
        if c2 != 1:
            hdr += b",%d" % c2
        hdr += b" @@"
        if funcnames:
            ln = s1 - 1
            while ln != funcprev and 0 <= ln < n1:
                f = _func_line(a[ln])
                if f is not None:
                    func = f
                    break
                ln -= 1
            funcprev = s1 - 1
            if func:
                hdr += b" " + func
        out += hdr + b"\n"
        p1, p2 = s1, s2
        for k in range(i, j + 1):
            ci1, cn1, ci2, cn2 = script[k]
            while p1 < ci1:  # context comes from the new side (xdiff's xdf2)
                _line(out, b" ", b[p2])
                p1 += 1
                p2 += 1
            for x in range(ci1, ci1 + cn1):
                _line(out, b"-", a[x])
            for x in range(ci2, ci2 + cn2):
                _line(out, b"+", b[x])
            p1 = ci1 + cn1
            p2 = ci2 + cn2
        while p1 < e1:
            _line(out, b" ", b[p2])
            p1 += 1
            p2 += 1
        i = j + 1
    return bytes(out)


def _line(out: bytearray, sign: bytes, rec: bytes) -> None:
    out += sign + rec
    if not rec.endswith(b"\n"):
        out += b"\n\\ No newline at end of file\n"


def count_changes(a: bytes, b: bytes, budget=None, key=None) -> tuple[int, int]:
    """(insertions, deletions) between two texts."""
    la, lb = split_lines(a), split_lines(b)
    add = dele = 0
    for _, n1, _, n2 in diff_script(la, lb, budget, key=key):
        dele += n1
        add += n2
    return add, dele


# ------------------------------------------------------------ tree changes
@dataclass
class Change:
    status: str  # A D M R T
    old_path: bytes | None
    new_path: bytes | None
    old_mode: int = 0
    new_mode: int = 0
    old_sha: bytes = ZERO
    new_sha: bytes = ZERO
    score: int = 0
    # a submodule in the work tree: 'm' (modified content) and/or 'u' (untracked content)
    dirt: str = ""
    binary: bool | None = None  # from the diff attribute; None: judged by content

    @property
    def path(self) -> bytes:
        return self.new_path if self.new_path is not None else self.old_path


GITLINK = 0o160000


def side_content(c: Change, load, new: bool) -> bytes:
    """One side of a change as git diffs it: a blob, or ``Subproject commit <id>`` for a
    gitlink (``-dirty`` when the submodule's work tree has modified content)."""
    if (c.status == "A" and not new) or (c.status == "D" and new):
        return b""
    mode, sha = (c.new_mode, c.new_sha) if new else (c.old_mode, c.old_sha)
    if mode == GITLINK:
        dirty = b"-dirty" if new and "m" in c.dirt else b""
        return b"Subproject commit " + sha + dirty + b"\n"
    return load(sha)


def compare(old: dict[bytes, tuple[int, bytes]], new: dict[bytes, tuple[int, bytes]],
            ) -> list[Change]:
    out = []
    for p in sorted(set(old) | set(new)):
        o = old.get(p)
        n = new.get(p)
        if o == n:
            continue
        if o is None:
            out.append(Change("A", None, p, 0, n[0], ZERO, n[1]))
        elif n is None:
            out.append(Change("D", p, None, o[0], 0, o[1], ZERO))
        else:
            if _stat.S_IFMT(o[0]) != _stat.S_IFMT(n[0]):
                out.append(Change("T", p, p, o[0], n[0], o[1], n[1]))
            else:
                out.append(Change("M", p, p, o[0], n[0], o[1], n[1]))
    return out


def detect_renames(changes: list[Change], load, threshold: int = 50, budget=None) -> list[Change]:
    """Pair deletions with additions: exact (same blob) first, then by similarity."""
    adds = [c for c in changes if c.status == "A" and _stat.S_ISREG(c.new_mode)]
    dels = [c for c in changes if c.status == "D" and _stat.S_ISREG(c.old_mode)]
    if not adds or not dels:
        return changes
    paired: dict[int, Change] = {}
    used_del: set[int] = set()
    # exact
    by_sha: dict[bytes, list[Change]] = {}
    for d in dels:
        by_sha.setdefault(d.old_sha, []).append(d)
    for a in adds:
        cands = [d for d in by_sha.get(a.new_sha, []) if id(d) not in used_del]
        if cands:
            # prefer the same basename
            import posixpath

            cands.sort(key=lambda d: posixpath.basename(d.old_path) != posixpath.basename(a.new_path))
            d = cands[0]
            used_del.add(id(d))
            paired[id(a)] = Change("R", d.old_path, a.new_path, d.old_mode, a.new_mode, d.old_sha,
                                   a.new_sha, 100)
    rest_adds = [a for a in adds if id(a) not in paired]
    rest_dels = [d for d in dels if id(d) not in used_del]
    if rest_adds and rest_dels and len(rest_adds) * len(rest_dels) <= 10000:
        scores = []
        dblocks = {}
        for d in rest_dels:
            dblocks[id(d)] = _blocks(load(d.old_sha))
        for a in rest_adds:
            ab = _blocks(load(a.new_sha))
            for d in rest_dels:
                if budget is not None:
                    budget.check()
                db = dblocks[id(d)]
                sc = _similarity(db, ab)
                if sc >= threshold:
                    scores.append((-sc, decode(d.old_path), decode(a.new_path), a, d))
        scores.sort(key=lambda t: (t[0], t[2], t[1]))
        taken_a: set[int] = set()
        for negsc, _, _, a, d in scores:
            if id(a) in taken_a or id(d) in used_del:
                continue
            taken_a.add(id(a))
            used_del.add(id(d))
            paired[id(a)] = Change("R", d.old_path, a.new_path, d.old_mode, a.new_mode, d.old_sha,
                                   a.new_sha, -negsc)
    out = []
    for c in changes:
        if c.status == "D" and id(c) in used_del:
            continue
        if id(c) in paired:
            out.append(paired[id(c)])
        else:
            out.append(c)
    out.sort(key=lambda c: c.path)
    return out


def _blocks(data: bytes):
    """git's diffcore-delta chunks: lines (or 64-byte pieces), counted by hash."""
    counts: dict[int, int] = {}
    n = len(data)
    i = 0
    while i < n:
        j = data.find(b"\n", i, i + 64)
        end = j + 1 if j != -1 else min(i + 64, n)
        chunk = data[i:end]
        h = hash(chunk)
        counts[h] = counts.get(h, 0) + len(chunk)
        i = end
    return counts, n


def _similarity(a, b) -> int:
    ca, na = a
    cb, nb = b
    if max(na, nb) == 0:
        return 100
    common = 0
    for h, cnt in ca.items():
        other = cb.get(h)
        if other:
            common += min(cnt, other)
    # git: score = copied * MAX_SCORE / max(src, dst); MAX_SCORE 60000, shown as percent
    return common * 100 // max(na, nb)


# ----------------------------------------------------------------- patches
def _qp(prefix: str, p: bytes) -> str:
    q = quote_path(p)
    if q.startswith('"'):
        return '"' + prefix + q[1:]
    return prefix + q


def patch_for(c: Change, load, ctx: int = 3, budget=None, abbrev=None,
              src_prefix: str = "a/", dst_prefix: str = "b/", words=None, key=None) -> bytes:
    """``diff --git`` text of one change; ``load(sha)`` gives blob bytes (ZERO: empty).

    ``words`` is a :class:`WordDiff` (--word-diff, --color-words); ``key`` folds lines
    before comparing them (-w, -b, --ignore-space-at-eol)."""
    text = _patch_for(c, load, ctx, budget, abbrev, src_prefix, dst_prefix, words, key)
    if words is not None and words.color:
        return _color_meta(text)
    return text


def _patch_for(c: Change, load, ctx, budget, abbrev, src_prefix, dst_prefix, words, key) -> bytes:
    ab = abbrev or (lambda s: decode(s[:7]))
    op = c.old_path if c.old_path is not None else c.new_path
    np_ = c.new_path if c.new_path is not None else c.old_path
    out = [f"diff --git {_qp(src_prefix, op)} {_qp(dst_prefix, np_)}\n"]
    if c.status == "A":
        out.append(f"new file mode {c.new_mode:06o}\n")
    elif c.status == "D":
        out.append(f"deleted file mode {c.old_mode:06o}\n")
    elif c.old_mode != c.new_mode:
        out.append(f"old mode {c.old_mode:06o}\nnew mode {c.new_mode:06o}\n")
    if c.status == "R":
        out.append(f"similarity index {c.score}%\n")
        out.append(f"rename from {quote_path(c.old_path)}\nrename to {quote_path(c.new_path)}\n")
    dirty_only = c.old_sha == c.new_sha and "m" in c.dirt  # a submodule with modified content
    if c.old_sha == c.new_sha and c.status in ("R", "M", "T") and not dirty_only:
        return "".join(out).encode("utf-8", "surrogateescape")
    if not dirty_only:
        idx = f"index {ab(c.old_sha)}..{ab(c.new_sha)}"
        if c.status not in ("A", "D") and c.old_mode == c.new_mode:
            idx += f" {c.new_mode:06o}"
        out.append(idx + "\n")
    a = side_content(c, load, False)
    b = side_content(c, load, True)
    head = "".join(out).encode("utf-8", "surrogateescape")
    old_name = b"/dev/null" if c.status == "A" else _qp(src_prefix, op).encode("utf-8", "surrogateescape")
    new_name = b"/dev/null" if c.status == "D" else _qp(dst_prefix, np_).encode("utf-8", "surrogateescape")
    if c.binary if c.binary is not None else (is_binary(a) or is_binary(b)):
        return head + b"Binary files " + old_name + b" and " + new_name + b" differ\n"
    body = unified_hunks(split_lines(a), split_lines(b), ctx, budget, key=key)
    if not body:  # nothing left once whitespace is folded: the header only when it says more
        return head if key is None or c.status != "M" or c.old_mode != c.new_mode else b""
    if words is not None:
        body = words.render(body)
    return head + b"--- " + old_name + b"\n+++ " + new_name + b"\n" + body


# --------------------------------------------------------------------- stat
def pprint_rename(a: str, b: str) -> str:
    qa, qb = quote_path(a), quote_path(b)
    if qa.startswith('"') or qb.startswith('"'):
        return f"{qa} => {qb}"
    la, lb = len(a), len(b)
    pfx = 0
    i = 0
    while i < la and i < lb and a[i] == b[i]:
        if a[i] == "/":
            pfx = i + 1
        i += 1
    A, B = a + "\0", b + "\0"
    oi, ni = la, lb
    sfx = 0
    adj = 1 if pfx else 0
    while pfx - adj <= oi and pfx - adj <= ni and A[oi] == B[ni]:
        if A[oi] == "/":
            sfx = la - oi
        oi -= 1
        ni -= 1
    am = max(la - pfx - sfx, 0)
    bm = max(lb - pfx - sfx, 0)
    s = ""
    if pfx + sfx:
        s += a[:pfx] + "{"
    s += a[pfx:pfx + am] + " => " + b[pfx:pfx + bm]
    if pfx + sfx:
        s += "}" + a[la - sfx:]
    return s


@dataclass
class StatFile:
    name: str
    added: int
    deleted: int
    binary: bool = False


def stat_name(c: Change) -> str:
    if c.status == "R":
        return pprint_rename(decode(c.old_path), decode(c.new_path))
    return quote_path(c.path)


def _width(s: str) -> int:
    import unicodedata

    w = 0
    for ch in s:
        if unicodedata.combining(ch):
            continue
        w += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return w


def parse_stat_arg(value: str) -> tuple[int, int]:
    """``--stat=<width>[,<name-width>[,<count>]]``: (width, name width), 0 for the default."""
    parts = value.split(",")
    try:
        width = int(parts[0]) if parts[0] else 0
        name = int(parts[1]) if len(parts) > 1 and parts[1] else 0
    except ValueError:
        raise GitExit(f"error: invalid --stat value: {value}", 129) from None
    return width, name


def format_stat(files: list[StatFile], width: int = 80, name_width: int = 0) -> str:
    if not files:
        return ""
    max_len = 0
    max_change = 0
    bin_width = 0
    number_width = 0
    for f in files:
        max_len = max(max_len, _width(f.name))
        if f.binary:
            w = 14 + len(str(f.added)) + len(str(f.deleted))
            bin_width = max(bin_width, w)
            number_width = 3
            continue
        max_change = max(max_change, f.added + f.deleted)
    number_width = max(len(str(max_change)), number_width)
    if width < 16 + 6 + number_width:
        width = 16 + 6 + number_width
    graph_width = max_change if max_change + 4 > bin_width else bin_width - 4
    name_width = name_width if 0 < name_width < max_len else max_len
    if name_width + number_width + 6 + graph_width > width:
        if graph_width > width * 3 // 8 - number_width - 6:
            graph_width = width * 3 // 8 - number_width - 6
            if graph_width < 6:
                graph_width = 6
        if name_width > width - number_width - 6 - graph_width:
            name_width = width - number_width - 6 - graph_width
        else:
            graph_width = width - number_width - 6 - name_width
    out = []
    for f in files:
        name = f.name
        prefix = ""
        ln = name_width
        if name_width < _width(name):
            prefix = "..."
            ln = max(ln - 3, 0)
            while _width(name) > ln:
                name = name[1:]
            slash = name.find("/")
            if slash != -1:
                name = name[slash:]
        padding = max(ln - _width(name), 0)
        if f.binary:
            line = f" {prefix}{name}{' ' * padding} | {'Bin':>{number_width}}"
            if f.added or f.deleted:
                line += f" {f.deleted} -> {f.added} bytes"
            out.append(line + "\n")
            continue
        add, dele = f.added, f.deleted
        if graph_width <= max_change:
            total = _scale(add + dele, graph_width, max_change)
            if total < 2 and add and dele:
                total = 2
            if add < dele:
                add = _scale(add, graph_width, max_change)
                dele = total - add
            else:
                dele = _scale(dele, graph_width, max_change)
                add = total - dele
        tot = f.added + f.deleted
        line = f" {prefix}{name}{' ' * padding} | {tot:>{number_width}}{' ' if tot else ''}"
        line += "+" * add + "-" * dele
        out.append(line + "\n")
    return "".join(out)


def _scale(it: int, width: int, max_change: int) -> int:
    if not it:
        return 0
    return 1 + (it * (width - 1) // max_change)


def shortstat(files: int, ins: int, dels: int) -> str:
    if not files:
        return " 0 files changed\n"
    s = f" {files} file{'s' if files != 1 else ''} changed"
    if ins or dels == 0:
        s += f", {ins} insertion{'s' if ins != 1 else ''}(+)"
    if dels or ins == 0:
        s += f", {dels} deletion{'s' if dels != 1 else ''}(-)"
    return s + "\n"


def summary_lines(changes: list[Change]) -> str:
    out = []
    for c in changes:
        if c.status == "A":
            out.append(f" create mode {c.new_mode:06o} {quote_path(c.new_path)}\n")
        elif c.status == "D":
            out.append(f" delete mode {c.old_mode:06o} {quote_path(c.old_path)}\n")
        elif c.status == "R":
            out.append(f" rename {pprint_rename(decode(c.old_path), decode(c.new_path))} ({c.score}%)\n")
            if c.old_mode != c.new_mode:
                out.append(f" mode change {c.old_mode:06o} => {c.new_mode:06o}\n")
        elif c.old_mode != c.new_mode:
            out.append(f" mode change {c.old_mode:06o} => {c.new_mode:06o} {quote_path(c.path)}\n")
    return "".join(out)


def without_folded(changes: list[Change], load, key, budget=None) -> list[Change]:
    """The changes left once whitespace is folded (-w, -b...): a modification whose lines
    all fold equal drops out of stats and patches, as in git."""
    out = []
    for c in changes:
        if c.status == "M" and c.old_mode == c.new_mode and c.new_mode != GITLINK:
            a, b = side_content(c, load, False), side_content(c, load, True)
            if not (c.binary or is_binary(a) or is_binary(b)) and \
                    not diff_script(split_lines(a), split_lines(b), budget, key=key):
                continue
        out.append(c)
    return out


def stat_files(changes: list[Change], load, budget=None, key=None) -> list[StatFile]:
    out = []
    for c in changes:
        if c.old_sha == c.new_sha and c.new_mode == GITLINK:  # a dirty submodule: no lines
            out.append(StatFile(stat_name(c), 0, 0))
            continue
        a = side_content(c, load, False)
        b = side_content(c, load, True)
        if c.binary if c.binary is not None else (is_binary(a) or is_binary(b)):
            if a == b:
                out.append(StatFile(stat_name(c), 0, 0, True))
            else:
                out.append(StatFile(stat_name(c), len(b), len(a), True))
            continue
        if c.old_sha == c.new_sha:
            out.append(StatFile(stat_name(c), 0, 0))
            continue
        add, dele = count_changes(a, b, budget, key=key)
        out.append(StatFile(stat_name(c), add, dele))
    return out


def stat_block(changes: list[Change], load, budget=None, width: int = 80,
               name_width: int = 0, key=None) -> str:
    files = stat_files(changes, load, budget, key=key)
    ins = sum(f.added for f in files if not f.binary)
    dels = sum(f.deleted for f in files if not f.binary)
    return format_stat(files, width or 80, name_width) + shortstat(len(files), ins, dels)


def shortstat_for(changes: list[Change], load, budget=None, key=None) -> str:
    files = stat_files(changes, load, budget, key=key)
    ins = sum(f.added for f in files if not f.binary)
    dels = sum(f.deleted for f in files if not f.binary)
    return shortstat(len(files), ins, dels)


def numstat_lines(changes: list[Change], load, budget=None, key=None) -> str:
    out = []
    for c, f in zip(changes, stat_files(changes, load, budget, key=key), strict=True):
        name = f.name if c.status != "R" else pprint_rename(decode(c.old_path), decode(c.new_path))
        if f.binary:
            out.append(f"-\t-\t{name}\n")
        else:
            out.append(f"{f.added}\t{f.deleted}\t{name}\n")
    return "".join(out)


def name_status_lines(changes: list[Change]) -> str:
    out = []
    for c in changes:
        if c.status == "R":
            out.append(f"R{c.score:03d}\t{quote_path(c.old_path)}\t{quote_path(c.new_path)}\n")
        else:
            out.append(f"{c.status}\t{quote_path(c.path)}\n")
    return "".join(out)


def name_only_lines(changes: list[Change]) -> str:
    return "".join(f"{quote_path(c.path)}\n" for c in changes)


# ------------------------------------------------------------ --check
_SPACE = b" \t\n\r"  # git's isspace


def _ws_errors(line: bytes) -> list[str]:
    """core.whitespace's default rules (blank-at-eol, space-before-tab) on an added line."""
    body = line[:-1] if line.endswith(b"\n") else line
    end = len(body)
    while end and body[end - 1] in _SPACE:
        end -= 1
    errs = ["trailing whitespace"] if end < len(body) else []
    written = 0
    for i in range(end):
        ch = body[i]
        if ch == 0x20:
            continue
        if ch != 0x09:
            break
        if written < i:
            errs.append("space before tab in indent")
            break
        written = i + 1
    return errs


def _conflict_marker(line: bytes) -> bool:
    for ch in (b"<", b"=", b">"):
        if line.startswith(ch * 7):
            rest = line[7:]
            if ch == b"=":
                return rest in (b"", b"\n", b"\r\n")
            return rest[:1] in (b"", b" ", b"\n", b"\r")
    return False


def _trailing_blank(data: bytes) -> int:
    """count_trailing_blank: the blank lines at the end of a text (its first line excluded)."""
    ptr = len(data) - 1
    if ptr < 0:
        return 0
    if data[ptr:ptr + 1] == b"\n":
        ptr -= 1
    cnt = 0
    while 0 < ptr:
        prev = data.rfind(b"\n", 0, ptr + 1)
        if any(ch not in _SPACE for ch in data[prev + 1:ptr + 1]):
            break
        cnt += 1
        ptr = prev - 1
    return cnt


def check_lines(changes: list[Change], load, budget=None) -> tuple[str, bool]:
    """``--check``: whitespace errors and leftover conflict markers the changes add."""
    out: list[str] = []
    bad = False
    for c in changes:
        if c.status == "D" or c.new_mode == GITLINK or c.old_mode == GITLINK:
            continue
        a, b = side_content(c, load, False), side_content(c, load, True)
        if c.binary or (c.binary is None and (is_binary(a) or is_binary(b))):
            continue
        name = quote_path(c.path)
        la, lb = split_lines(a), split_lines(b)
        for _i1, _n1, i2, n2 in diff_script(la, lb, budget):
            for k in range(i2, i2 + n2):
                line = lb[k]
                if _conflict_marker(line):
                    bad = True
                    out.append(f"{name}:{k + 1}: leftover conflict marker\n")
                errs = _ws_errors(line)
                if errs:
                    bad = True
                    out.append(f"{name}:{k + 1}: {', '.join(errs)}.\n+"
                               + decode(line))
        t1, t2 = _trailing_blank(a), _trailing_blank(b)
        if t1 < t2:
            bad = True
            out.append(f"{name}:{len(lb) - t2 + 1}: new blank line at EOF.\n")
    return "".join(out), bad


# ------------------------------------------------------------ whitespace folding
_WS_RUN = re.compile(rb"[ \t\r\n\f\v]+")


def ws_key(mode: str):
    """-w (all), -b (change), --ignore-space-at-eol (eol): how xdiff folds a line."""
    if mode == "all":
        return lambda x: _WS_RUN.sub(b"", x)
    if mode == "change":
        return lambda x: _WS_RUN.sub(b" ", x.rstrip(b" \t\r\n\f\v")) + b"\n"
    return lambda x: x.rstrip(b" \t\r\n\f\v") + b"\n"


# ------------------------------------------------------------ word diff
RESET = b"\033[m"


class WordDiff:
    """git's diff_words: each hunk's removed and added lines diffed word by word.

    mode: plain ([-old-]{+new+}), porcelain (one token a line, ~ for newlines) or color
    (red and green, the whole patch coloured as --color-words is)."""

    def __init__(self, mode: str, regex: str | None = None):
        self.mode = mode
        self.color = mode == "color"
        try:  # REG_NEWLINE: a negated bracket never matches a newline
            rx = re.sub(r"(?<!\\)\[\^", "[^\\n", regex) if regex else None
            self.rx = re.compile(rx.encode("utf-8", "surrogateescape"), re.M) if rx else None
        except re.error:
            raise GitExit(f"fatal: invalid regular expression: {regex}", 128) from None
        if mode == "plain":
            self.old, self.new, self.ctx, self.nl = (b"[-", b"-]"), (b"{+", b"+}"), (b"", b""), b"\n"
        elif mode == "porcelain":
            self.old, self.new, self.ctx, self.nl = (b"-", b"\n"), (b"+", b"\n"), (b" ", b"\n"), b"~\n"
        else:
            self.old, self.new, self.ctx, self.nl = (b"", b""), (b"", b""), (b"", b""), b"\n"
        self.old_color = b"\033[31m" if self.color else b""
        self.new_color = b"\033[32m" if self.color else b""

    # the words of a text: (begin, end) offsets, as find_word_boundaries cuts them
    def _words(self, text: bytes) -> list[tuple[int, int]]:
        out = []
        i, n = 0, len(text)
        while i < n:
            if self.rx is not None:
                m = self.rx.search(text, i)
                if m is None:
                    break
                end = m.end()
                nl = text.find(b"\n", m.start(), end)
                if nl != -1:
                    end = nl
                if m.start() >= end:
                    break  # an empty word ends the list (git stops there too)
                out.append((m.start(), end))
                i = end
                continue
            while i < n and text[i] in b" \t\n\r":
                i += 1
            if i >= n:
                break
            j = i + 1
            while j < n and text[j] not in b" \t\n\r":
                j += 1
            out.append((i, j))
            i = j
        return out

    def _emit(self, out: bytearray, style, color: bytes, text: bytes) -> None:
        """fn_out_diff_words_write_helper: ``text`` cut at newlines, each piece wrapped."""
        pre, suf = style
        while text:
            nl = text.find(b"\n")
            piece = text if nl == -1 else text[:nl]
            if piece:
                out += color + pre + piece + suf + (RESET if color else b"")
            if nl == -1:
                return
            out += self.nl
            text = text[nl + 1:]

    def _show(self, out: bytearray, minus: bytes, plus: bytes) -> None:
        if not plus:
            self._emit(out, self.old, self.old_color, minus)
            return
        mw, pw = self._words(minus), self._words(plus)
        ml = [minus[s:e] + b"\n" for s, e in mw]
        pl = [plus[s:e] + b"\n" for s, e in pw]
        cur = 0
        for i1, n1, i2, n2 in diff_script(ml, pl, heuristic=False):  # xpp.flags = 0
            mb, me = (mw[i1][0], mw[i1 + n1 - 1][1]) if n1 else ((mw[i1 - 1][1],) * 2 if i1 else (0, 0))
            pb, pe = (pw[i2][0], pw[i2 + n2 - 1][1]) if n2 else ((pw[i2 - 1][1],) * 2 if i2 else (0, 0))
            if cur != pb:
                self._emit(out, self.ctx, b"", plus[cur:pb])
            if mb != me:
                self._emit(out, self.old, self.old_color, minus[mb:me])
            if pb != pe:
                self._emit(out, self.new, self.new_color, plus[pb:pe])
            cur = pe
        if cur != len(plus):
            self._emit(out, self.ctx, b"", plus[cur:])

    def render(self, body: bytes) -> bytes:
        """The unified hunks ``body`` as a word diff."""
        out = bytearray()
        minus, plus = bytearray(), bytearray()

        def flush():
            if minus or plus:
                self._show(out, bytes(minus), bytes(plus))
                minus.clear()
                plus.clear()

        for line in body.splitlines(keepends=True):
            sign = line[:1]
            if sign == b"-":
                minus.extend(line[1:])
            elif sign == b"+":
                plus.extend(line[1:])
            elif sign == b"\\":  # eaten: xdiff handed the line over with a newline anyway
                pass
            elif sign == b"@":
                flush()
                out += _color_hunk_header(line) if self.color else line
            else:
                flush()
                self._context(out, line)
        flush()
        return bytes(out)

    def _context(self, out: bytearray, line: bytes) -> None:
        body = line if self.mode == "porcelain" else line[1:]
        nl = body.endswith(b"\n")
        text = body[:-1] if nl else body
        cr = text.endswith(b"\r")
        if cr:
            text = text[:-1]
        if text:
            out += text + (RESET if self.color else b"")
        out += (b"\r" if cr else b"") + (b"\n" if nl else b"")
        if self.mode == "porcelain":
            out += b"~\n"


def _color_hunk_header(line: bytes) -> bytes:
    nl = line.endswith(b"\n")
    text = line[:-1] if nl else line
    end = text.find(b"@@", 2)
    head, func = (text[:end + 2], text[end + 2:]) if end != -1 else (text, b"")
    out = b"\033[36m" + head + RESET
    if func:
        out += func[:1] + RESET + func[1:] + RESET
    return out + (b"\n" if nl else b"")


def _color_meta(text: bytes) -> bytes:
    """--color-words: the header lines bold (diff --git ... +++), the rest as rendered."""
    out = bytearray()
    lines = text.splitlines(keepends=True)
    i = 0
    while i < len(lines) and not lines[i].startswith((b"\033[36m@@", b"Binary files ")):
        ln = lines[i]
        nl = ln.endswith(b"\n")
        out += b"\033[1m" + (ln[:-1] if nl else ln) + RESET + (b"\n" if nl else b"")
        i += 1
    out += b"".join(lines[i:])
    return bytes(out)
