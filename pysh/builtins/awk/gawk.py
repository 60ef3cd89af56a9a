"""gawk's extensions (as gawk 5.2 behaves): PROCINFO["sorted_in"], IGNORECASE, gensub, asort,
asorti, patsplit, 3-argument match, 4-argument split, strftime/systime/mktime and the bit
functions. A mixin of the Runtime: ``self`` is the run's Runtime.
"""

from __future__ import annotations

import functools
import math
import time

from pysh.builtins.awk.awkre import AwkRegex
from pysh.builtins.awk.errors import AwkFatal
from pysh.builtins.awk.values import UNINIT, StrNum, looks_numeric, to_num

DEFAULT_TIME_FORMAT = "%a %b %e %H:%M:%S %Z %Y"


class IcaseRegex:
    """An awk regex that follows IGNORECASE: each use asks the run which twin to take."""

    __slots__ = ("rt", "plain", "folded", "source")

    def __init__(self, rt, plain: AwkRegex, source: str):
        self.rt = rt
        self.plain = plain
        self.folded = None
        self.source = source

    def _pick(self) -> AwkRegex:
        if not self.rt.ignorecase():
            return self.plain
        if self.folded is None:
            self.folded = AwkRegex(self.source, self.rt.budget, icase=True)
        return self.folded

    @property
    def search(self):
        return self._pick().search

    @property
    def extent(self):
        return self._pick().extent

    @property
    def fast_sub(self):
        return self._pick().fast_sub

    @property
    def fast_lim(self):
        return self._pick().fast_lim


class GawkMixin:
    # -- IGNORECASE -------------------------------------------------------------------------
    icase_mode = False  # the program names IGNORECASE (or -v sets it)

    def ignorecase(self) -> bool:
        v = self.g.get("V_IGNORECASE", UNINIT)
        if v.__class__ is float:
            return v != 0.0
        if v is UNINIT or v == "":
            return False
        f = looks_numeric(v) if isinstance(v, StrNum) else None
        return f != 0.0 if f is not None else True

    def fold(self, a, b):
        """Compared strings, lowered when IGNORECASE is on."""
        if self.ignorecase():
            return a.lower(), b.lower()
        return a, b

    def index(self, s, t) -> float:
        s, t = self.tostr(s), self.tostr(t)
        if self.icase_mode and self.ignorecase():
            s, t = s.lower(), t.lower()
        return float(s.find(t) + 1)

    # -- for (k in a) in PROCINFO["sorted_in"] order ------------------------------------------
    def forin_keys(self, arr: dict) -> list:
        how = self.g["A_PROCINFO"].get("sorted_in")
        if how is None:
            return list(arr)
        return self._sorted_keys(arr, self.tostr(how))

    def _sorted_keys(self, arr: dict, how: str) -> list:
        keys = list(arr)
        if how == "@unsorted":
            return keys
        spec = _ORDERS.get(how) if how.startswith("@") else None
        fn = self.g.get("F_" + how)
        if spec is None and fn is None:
            raise AwkFatal(f"sort comparison function `{how}' is not defined")
        if len(keys) < 2:
            return keys
        if spec is not None:
            key_of, desc = spec
            return sorted(keys, key=lambda k: key_of(self, k, arr[k]), reverse=desc)

        def cmp(a, b):
            r = fn(StrNum(a), arr[a], StrNum(b), arr[b])
            if hasattr(r, "__await__"):
                r.close()
                raise AwkFatal(f"sort comparison function `{how}' must not read or run commands")
            v = to_num(r)
            return -1 if v < 0 else 1 if v > 0 else 0
        return sorted(keys, key=functools.cmp_to_key(cmp))

    # -- asort / asorti ----------------------------------------------------------------------------
    def asort(self, src: dict, dest, how=None) -> float:
        return self._asort(src, dest, how, values=True)

    def asorti(self, src: dict, dest, how=None) -> float:
        return self._asort(src, dest, how, values=False)

    def _asort(self, src: dict, dest, how, values: bool) -> float:
        if how is None:
            how = "@val_type_asc" if values else "@ind_str_asc"
        keys = self._sorted_keys(src, self.tostr(how))
        items = [src[k] for k in keys] if values else [StrNum(k) for k in keys]
        out = src if dest is None else dest
        out.clear()
        for i, v in enumerate(items, 1):
            out[str(i)] = v
        return float(len(items))

    # -- gensub, patsplit, match(s, re, arr), split(s, a, fs, seps) ----------------------------------
    def gensub(self, rx, repl, how, target, line=None) -> str:
        rx = self.dyn_regex(rx)
        target, repl = self.tostr(target), self.tostr(repl)
        hs = self.tostr(how)
        if hs[:1] in ("g", "G"):
            which = 0
        else:
            n = to_num(how)
            if n != n or n < 1:
                self.warn_at(line, f"gensub: third argument `{hs}' treated as 1")
                n = 1.0
            which = int(n)
        from pysh.builtins.awk.runtime import awk_matches

        out, pos = [], 0
        for count, m in enumerate(awk_matches(rx, target, self.budget), 1):
            if which == 0 or count == which:
                out.append(target[pos:m.start()])
                out.append(_expand_gensub(repl, m))
                pos = m.end()
                if which:
                    break
        out.append(target[pos:])
        return self.check_str("".join(out))

    def match(self, s, rx, arr=None) -> float:
        s = self.tostr(s)
        rx = self.dyn_regex(rx)
        m = rx.extent(s, 0)
        g = self.g
        if arr is not None:
            arr.clear()
        if m is None:
            g["V_RSTART"] = 0.0
            g["V_RLENGTH"] = -1.0
            return 0.0
        g["V_RSTART"] = float(m.start() + 1)
        g["V_RLENGTH"] = float(m.end() - m.start())
        if arr is not None:
            sub = self.g["V_SUBSEP"]
            for i in range(0, (m.re.groups if hasattr(m, "re") else 0) + 1):
                if m.start(i) < 0:
                    continue  # a group that took no part: no element
                k = str(i)
                arr[k] = StrNum(m.group(i))
                arr[k + sub + "start"] = float(m.start(i) + 1)
                arr[k + sub + "length"] = float(m.end(i) - m.start(i))
        return float(m.start() + 1)

    def patsplit(self, s, arr: dict, pat=None, seps=None) -> float:
        s = self.tostr(s)
        if pat is None:
            fpat = self.g.get("V_FPAT", UNINIT)
            pat = fpat if fpat not in (UNINIT, "") else "[^[:space:]]+"
        rx = self.dyn_regex(pat)
        arr.clear()
        if seps is not None:
            seps.clear()
        fields, between = [], []
        pos = p = 0
        n = len(s)
        while p <= n:
            m = rx.extent(s, p)
            if m is None:
                break
            st, en = m.start(), m.end()
            if st == en:  # an empty match is no field
                if st >= n:
                    break
                p = st + 1
                continue
            between.append(s[pos:st])
            fields.append(s[st:en])
            pos = p = en
        between.append(s[pos:])
        for i, f in enumerate(fields, 1):
            arr[str(i)] = StrNum(f)
        if seps is not None:
            for i, sep in enumerate(between):
                if sep or i in (0, len(fields)):
                    seps[str(i)] = StrNum(sep)
        return float(len(fields))

    def split_seps(self, s: str, parts: list[str], rx, fs, seps: dict) -> None:
        """split()'s fourth argument: the separators between the fields."""
        seps.clear()
        if rx is None:
            if fs == " ":
                import re

                found = re.findall(r"[ \t\n]+", s.strip(" \t\n"))
                lead = s[:len(s) - len(s.lstrip(" \t\n"))]
                trail = s[len(s.rstrip(" \t\n")):]
                if lead:
                    seps["0"] = StrNum(lead)
                for i, sep in enumerate(found, 1):
                    seps[str(i)] = StrNum(sep)
                if trail and parts:
                    seps[str(len(parts))] = StrNum(trail)
                return
            for i in range(1, len(parts)):
                seps[str(i)] = StrNum(fs)
            return
        pos = 0
        for i in range(1, len(parts)):
            pos += len(parts[i - 1])
            m = rx.extent(s, pos)
            if m is None:
                break
            seps[str(i)] = StrNum(s[m.start():m.end()])
            pos = m.end()

    # -- time ---------------------------------------------------------------------------------------
    def _tz(self, utc: bool):
        from pysh.builtins._misc_time import tz_from_string

        return tz_from_string("GMT" if utc else self.shell.env.get("TZ"))

    def systime(self) -> float:
        return float(int(time.time()))

    def strftime(self, fmt=None, ts=None, utc=None) -> str:
        if fmt is None:
            fmt = self.g["A_PROCINFO"].get("strftime", DEFAULT_TIME_FORMAT)
        fmt = self.tostr(fmt)
        t = time.time() if ts is None else to_num(ts)
        if t != t or t < 0 and not math.isfinite(t):
            raise AwkFatal("strftime: second argument out of range for time_t")
        from pysh.builtins._misc_datetime import strftime
        from pysh.builtins._misc_time import localtime

        secs = int(t)
        dt = localtime(secs, self._tz(utc is not None and self._truthy(utc)))
        return self.check_str(strftime(fmt, dt, 0, secs))

    def mktime(self, spec, utc=None) -> float:
        parts = self.tostr(spec).split()
        try:
            nums = [int(float(x)) for x in parts]
        except ValueError:
            return -1.0
        if len(nums) < 6:
            return -1.0
        y, mo, d, h, mi, sec = nums[:6]
        dst = nums[6] if len(nums) > 6 else -1
        from pysh.builtins._misc_datetime import DateError, _mktime, _norm_date

        try:
            # months and days out of range carry over, as C's mktime normalises them
            t, _ = _mktime(self._tz(utc is not None and self._truthy(utc)),
                           _norm_date(y, mo, d), h, mi, sec, dst)
            return float(t)
        except (ValueError, OverflowError, DateError):
            return -1.0

    def _truthy(self, v) -> bool:
        if v.__class__ is float:
            return v != 0.0
        f = looks_numeric(v) if isinstance(v, StrNum) else None
        return f != 0.0 if f is not None else v != ""

    # -- and, or, xor, lshift, rshift, compl --------------------------------------------------------
    def bits(self, name: str, *vals: float) -> float:
        ints = []
        for i, v in enumerate(vals, 1):
            if v < 0:
                raise AwkFatal(f"{name}: argument {i} negative value {_g(v)} is not allowed")
            ints.append(int(v) & 0xFFFFFFFFFFFFFFFF if math.isfinite(v) else 0)
        if name == "and":
            r = functools.reduce(lambda a, b: a & b, ints)
        elif name == "or":
            r = functools.reduce(lambda a, b: a | b, ints)
        elif name == "xor":
            r = functools.reduce(lambda a, b: a ^ b, ints)
        elif name == "lshift":
            r = (ints[0] << (ints[1] % 64)) & 0xFFFFFFFFFFFFFFFF
        elif name == "rshift":
            r = ints[0] >> (ints[1] % 64)
        else:
            r = ~ints[0] & 0xFFFFFFFFFFFFFFFF
        return float(_adjust_uint(r))


def _g(v: float) -> str:
    return f"{v:.0f}" if v == int(v) else f"{v:g}"


def _adjust_uint(n: int) -> int:
    """gawk's adjust_uint: drop the high bits a double cannot hold with the low ones."""
    if n == 0:
        return 0
    low = (n & -n).bit_length() - 1
    while n.bit_length() - low > 53:
        n &= ~(1 << (n.bit_length() - 1))
    return n


def _expand_gensub(repl: str, m) -> str:
    """gensub's replacement: \\0 and & the match, \\1..\\9 the groups, \\\\ a backslash."""
    out = []
    i, n = 0, len(repl)
    while i < n:
        c = repl[i]
        if c == "\\" and i + 1 < n:
            d = repl[i + 1]
            if d.isdigit():
                k = int(d)
                try:
                    out.append(m.group(k) or "")
                except IndexError:
                    pass
                i += 2
                continue
            if d == "&":
                out.append("&")
                i += 2
                continue
            if d == "\\":
                out.append("\\")
                i += 2
                continue
            out.append(c)
            i += 1
            continue
        out.append(m.group(0) if c == "&" else c)
        i += 1
    return "".join(out)


# -- PROCINFO["sorted_in"] orders: (sort key of (runtime, index, value), descending) ------------
def _num_or_none(v):
    if v.__class__ is float:
        return v
    if isinstance(v, StrNum) and v is not UNINIT:
        return looks_numeric(v)
    if v is UNINIT:
        return 0.0
    return None


def _ind_str(rt, k, v):
    return k


def _ind_num(rt, k, v):
    return (to_num(StrNum(k)), k)


def _val_str(rt, k, v):
    return (rt.tostr(v), k)


def _val_num(rt, k, v):
    return (to_num(v), rt.tostr(v), k)


def _val_type(rt, k, v):
    f = _num_or_none(v)
    if f is not None:
        return (0, f, "", k)
    return (1, 0.0, rt.tostr(v), k)


_ORDERS = {
    "@ind_str_asc": (_ind_str, False), "@ind_str_desc": (_ind_str, True),
    "@ind_num_asc": (_ind_num, False), "@ind_num_desc": (_ind_num, True),
    "@val_str_asc": (_val_str, False), "@val_str_desc": (_val_str, True),
    "@val_num_asc": (_val_num, False), "@val_num_desc": (_val_num, True),
    "@val_type_asc": (_val_type, False), "@val_type_desc": (_val_type, True),
}
