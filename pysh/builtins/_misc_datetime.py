"""GNU-style strftime and date-string parsing (``date -d``), reimplemented.

:func:`strftime` knows every conversion GNU date documents, with the GNU
flags (``- _ 0 ^ #``), widths, ``%N``, ``%:z``/``%::z``/``%:::z``, ``%P``,
``%q``, ``%s``, in the C/C.UTF-8 locale.

:func:`parse_date` follows the grammar of gnulib's parse-datetime: calendar
dates (ISO, US ``m/d/y``, ``2 Jan 2024``, ``Jan 2, 2024``, ``20240102``),
times (``15:04[:05[.frac]]``, ``3pm``), zones (``UTC``, ``EST``, military
letters, ``+05:30``), day names with ordinals (``next monday``), relative
items (``3 days ago``, ``+1 hour``, ``last week``, ``tomorrow``), ``@EPOCH``,
``TZ="..."`` prefixes, and GNU's quirks (a signed number after a time is a
zone offset). It raises :class:`DateError` for strings GNU rejects.
"""

from __future__ import annotations

import calendar
from datetime import date as _date
from datetime import datetime, timedelta, tzinfo
from functools import lru_cache

from pysh.builtins._misc_time import format_offset, localtime, tz_from_string
from pysh.shellkit import LimitExceeded

DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]


class DateError(Exception):
    pass


# --------------------------------------------------------------- strftime
def _iso(dt: datetime) -> tuple[int, int, int]:
    return dt.isocalendar()


def strftime(fmt: str, dt: datetime, nsec: int = 0, epoch: int | None = None,
             max_width: int | None = None) -> str:
    """GNU date's formatting of ``dt`` (aware); ``nsec`` for %N, ``epoch`` for %s. A field
    width past ``max_width`` (the run's string limit) is the string-limit error."""
    out: list[str] = []
    i, n = 0, len(fmt)
    while i < n:
        c = fmt[i]
        if c != "%":
            out.append(c)
            i += 1
            continue
        start = i
        i += 1
        flags = ""
        while i < n and fmt[i] in "-_0^#+":
            flags += fmt[i]
            i += 1
        width_s = ""
        while i < n and fmt[i].isdigit():
            width_s += fmt[i]
            i += 1
        colons = 0
        while i < n and fmt[i] == ":":
            colons += 1
            i += 1
        if i < n and fmt[i] in "EO" and colons == 0:
            i += 1
        if i >= n:
            out.append(fmt[start:])
            break
        conv = fmt[i]
        i += 1
        width = int(width_s) if width_s else None
        if width is not None and max_width is not None and width > max_width:
            raise LimitExceeded("string", f"{max_width} bytes")
        if colons and conv != "z":
            out.append(fmt[start:i])
            continue
        if conv == "%" and (flags or width_s):
            out.append(fmt[start:i])
            continue
        r = _conv(conv, dt, nsec, epoch, flags, width, colons)
        if r is None:
            out.append(fmt[start:i])
            continue
        out.append(r)
    return "".join(out)


def _num(v: int, digits: int, flags: str, width: int | None, default_pad: str = "0") -> str:
    """A number the way GNU strftime pads it: WIDTH (default DIGITS), fill by flag."""
    if "-" in flags:
        return str(v)
    fill = default_pad
    if "_" in flags:
        fill = " "
    elif "0" in flags or "+" in flags:
        fill = "0"
    field = width if width is not None else digits
    body = str(abs(v))
    sign = "-" if v < 0 else ("+" if "+" in flags and width is not None and width > digits
                              else "")
    if fill == "0":
        return sign + body.rjust(max(field - len(sign), 0), "0")
    return (sign + body).rjust(field, " ")


def _zone(dt: datetime, colons: int, flags: str, width: int | None) -> str:
    text = format_offset(dt, colons)
    sign, body = text[0], text[1:]
    if "-" in flags and colons == 0:
        return sign + str(int(body))
    field = width if width is not None else len(text)
    if "_" in flags and colons == 0:
        return (sign + str(int(body))).rjust(field)
    return sign + body.rjust(max(field - 1, 0), "0")


def _text(s: str, flags: str, width: int | None, swap_upper: bool = True) -> str:
    if "^" in flags:
        s = s.upper()
    elif "#" in flags:
        s = s.upper() if swap_upper else s.lower()
    if "-" in flags:
        return s
    pad = "0" if "0" in flags else " "
    if width is not None and len(s) < width:
        s = s.rjust(width, pad)
    return s


def _conv(c: str, dt: datetime, nsec: int, epoch, flags: str, width, colons: int):
    if c == "%":
        return "%"
    if c == "n":
        return "\n"
    if c == "t":
        return "\t"
    wd = (dt.weekday() + 1) % 7
    if c == "a":
        return _text(DAYS[wd][:3], flags, width)
    if c == "A":
        return _text(DAYS[wd], flags, width)
    if c in "bh":
        return _text(MONTHS[dt.month - 1][:3], flags, width)
    if c == "B":
        return _text(MONTHS[dt.month - 1], flags, width)
    if c == "p":
        return _text("AM" if dt.hour < 12 else "PM", flags, width, swap_upper=False)
    if c == "P":
        return _text("am" if dt.hour < 12 else "pm", flags.replace("#", ""), width)
    if c == "Z":
        name = dt.tzname() or ""
        return _text(name, flags, width, swap_upper=False)
    if c == "z":
        if colons > 3:
            return None
        return _zone(dt, colons, flags, width)
    if c == "c":
        text = strftime("%a %b %e %H:%M:%S ", dt, nsec, epoch) + str(dt.year)
        return _text(text, flags.replace("#", ""), width)
    if c == "x":
        return _text(strftime("%m/%d/%y", dt), flags.replace("#", ""), width)
    if c == "X":
        return _text(strftime("%H:%M:%S", dt), flags.replace("#", ""), width)
    if c == "r":
        return _text(strftime("%I:%M:%S %p", dt), flags.replace("#", ""), width)
    if c == "D":
        return _text(strftime("%m/%d/%y", dt), flags.replace("#", ""), width)
    if c == "F":
        yw = None if width is None else max(width - 6, 0)
        return _num(dt.year, 4, flags, yw) + f"-{dt.month:02d}-{dt.day:02d}"
    if c == "R":
        return _text(strftime("%H:%M", dt), flags, width)
    if c == "T":
        return _text(strftime("%H:%M:%S", dt), flags, width)
    if c == "d":
        return _num(dt.day, 2, flags, width)
    if c == "e":
        return _num(dt.day, 2, flags, width, " ")
    if c == "H":
        return _num(dt.hour, 2, flags, width)
    if c == "k":
        return _num(dt.hour, 2, flags, width, " ")
    h12 = dt.hour % 12 or 12
    if c == "I":
        return _num(h12, 2, flags, width)
    if c == "l":
        return _num(h12, 2, flags, width, " ")
    if c == "j":
        return _num(dt.timetuple().tm_yday, 3, flags, width)
    if c == "m":
        return _num(dt.month, 2, flags, width)
    if c == "M":
        return _num(dt.minute, 2, flags, width)
    if c == "S":
        return _num(dt.second, 2, flags, width)
    if c == "N":
        w = width if width is not None else 9
        digits = f"{nsec:09d}"
        digits = digits[:w] if w <= 9 else digits + "0" * (w - 9)
        if "-" in flags:
            return digits.rstrip("0") or "0"
        if "_" in flags:
            return (digits.rstrip("0") or "0").ljust(w)
        return digits
    if c == "s":
        return _num(epoch if epoch is not None else int(dt.timestamp()), 1, flags, width)
    if c == "u":
        return _num(dt.isoweekday(), 1, flags, width)
    if c == "w":
        return _num(wd, 1, flags, width)
    if c == "y":
        return _num(dt.year % 100, 2, flags, width)
    if c == "Y":
        return _num(dt.year, 4, flags, width)
    if c == "C":
        return _num(dt.year // 100, 2, flags, width)
    if c == "G":
        return _num(_iso(dt)[0], 4, flags, width)
    if c == "g":
        return _num(_iso(dt)[0] % 100, 2, flags, width)
    if c == "V":
        return _num(_iso(dt)[1], 2, flags, width)
    if c == "U":
        yday = dt.timetuple().tm_yday - 1
        return _num((yday + 7 - wd) // 7, 2, flags, width)
    if c == "W":
        yday = dt.timetuple().tm_yday - 1
        return _num((yday + 7 - (wd - 1) % 7) // 7, 2, flags, width)
    if c == "q":
        return _num((dt.month - 1) // 3 + 1, 1, flags, width)
    return None


# ----------------------------------------------------------------- lexer
HOUR = 3600

_TZ_TABLE = {
    "GMT": ("zone", 0), "UT": ("zone", 0), "UTC": ("zone", 0), "WET": ("zone", 0),
    "WEST": ("dayzone", 0), "BST": ("dayzone", 0), "ART": ("zone", -3 * HOUR),
    "BRT": ("zone", -3 * HOUR), "BRST": ("dayzone", -3 * HOUR),
    "NST": ("zone", -(3 * HOUR + 1800)), "NDT": ("dayzone", -(3 * HOUR + 1800)),
    "AST": ("zone", -4 * HOUR), "ADT": ("dayzone", -4 * HOUR), "CLT": ("zone", -4 * HOUR),
    "CLST": ("dayzone", -4 * HOUR), "EST": ("zone", -5 * HOUR), "EDT": ("dayzone", -5 * HOUR),
    "CST": ("zone", -6 * HOUR), "CDT": ("dayzone", -6 * HOUR), "MST": ("zone", -7 * HOUR),
    "MDT": ("dayzone", -7 * HOUR), "PST": ("zone", -8 * HOUR), "PDT": ("dayzone", -8 * HOUR),
    "AKST": ("zone", -9 * HOUR), "AKDT": ("dayzone", -9 * HOUR), "HST": ("zone", -10 * HOUR),
    "HAST": ("zone", -10 * HOUR), "HADT": ("dayzone", -10 * HOUR),
    "SST": ("zone", -12 * HOUR), "WAT": ("zone", HOUR), "CET": ("zone", HOUR),
    "CEST": ("dayzone", HOUR), "MET": ("zone", HOUR), "MEZ": ("zone", HOUR),
    "MEST": ("dayzone", HOUR), "MESZ": ("dayzone", HOUR), "EET": ("zone", 2 * HOUR),
    "EEST": ("dayzone", 2 * HOUR), "CAT": ("zone", 2 * HOUR), "SAST": ("zone", 2 * HOUR),
    "EAT": ("zone", 3 * HOUR), "MSK": ("zone", 3 * HOUR), "MSD": ("dayzone", 3 * HOUR),
    "IST": ("zone", 5 * HOUR + 1800), "SGT": ("zone", 8 * HOUR), "KST": ("zone", 9 * HOUR),
    "JST": ("zone", 9 * HOUR), "GST": ("zone", 10 * HOUR), "NZST": ("zone", 12 * HOUR),
    "NZDT": ("dayzone", 12 * HOUR),
}
_UNIVERSAL = {"GMT", "UT", "UTC"}
_MILITARY = {}
for _k, _v in zip("ABCDEFGHI", range(1, 10), strict=True):
    _MILITARY[_k] = _v * HOUR
for _k, _v in zip("KLM", range(10, 13), strict=True):
    _MILITARY[_k] = _v * HOUR
for _k, _v in zip("NOPQRSTUVWXY", range(1, 13), strict=True):
    _MILITARY[_k] = -_v * HOUR
_MILITARY["Z"] = 0

_MONTH_DAY = {m.upper(): ("month", i + 1) for i, m in enumerate(MONTHS)}
_MONTH_DAY["SEPT"] = ("month", 9)
for _i, _d in enumerate(DAYS):
    _MONTH_DAY[_d.upper()] = ("day", _i)
_MONTH_DAY.update({"TUES": ("day", 2), "WEDNES": ("day", 3), "THUR": ("day", 4),
                   "THURS": ("day", 4)})
_UNITS = {"YEAR": ("year_unit", 1), "MONTH": ("month_unit", 1), "FORTNIGHT": ("day_unit", 14),
          "WEEK": ("day_unit", 7), "DAY": ("day_unit", 1), "HOUR": ("hour_unit", 1),
          "MINUTE": ("minute_unit", 1), "MIN": ("minute_unit", 1),
          "SECOND": ("sec_unit", 1), "SEC": ("sec_unit", 1)}
_RELATIVE = {"TOMORROW": ("day_shift", 1), "YESTERDAY": ("day_shift", -1),
             "TODAY": ("day_shift", 0), "NOW": ("day_shift", 0), "LAST": ("ordinal", -1),
             "THIS": ("ordinal", 0), "NEXT": ("ordinal", 1), "FIRST": ("ordinal", 1),
             "THIRD": ("ordinal", 3), "FOURTH": ("ordinal", 4), "FIFTH": ("ordinal", 5),
             "SIXTH": ("ordinal", 6), "SEVENTH": ("ordinal", 7), "EIGHTH": ("ordinal", 8),
             "NINTH": ("ordinal", 9), "TENTH": ("ordinal", 10), "ELEVENTH": ("ordinal", 11),
             "TWELFTH": ("ordinal", 12), "AGO": ("ago", -1), "HENCE": ("ago", 1)}


class Tok:
    __slots__ = ("kind", "value", "digits", "neg", "ns")

    def __init__(self, kind: str, value=0, digits: int = 0, neg: bool = False, ns: int = 0):
        self.kind, self.value, self.digits, self.neg, self.ns = kind, value, digits, neg, ns

    def __repr__(self) -> str:
        return f"Tok({self.kind}, {self.value!r})"


def _lookup_word(word: str, local_zones: dict[str, int]):
    w = word.upper()
    if w in ("AM", "A.M."):
        return Tok("meridian", "am")
    if w in ("PM", "P.M."):
        return Tok("meridian", "pm")
    abbrev = len(w) == 3 or (len(w) == 4 and w[3] == ".")
    for name, (kind, val) in _MONTH_DAY.items():
        if (abbrev and name[:3] == w[:3]) or name == w:
            return Tok(kind, val)
    z = _lookup_zone(w, local_zones)
    if z is not None:
        return z
    if w == "DST":
        return Tok("dst")
    if w in _UNITS:
        k, v = _UNITS[w]
        return Tok(k, v)
    if w.endswith("S") and w[:-1] in _UNITS:
        k, v = _UNITS[w[:-1]]
        return Tok(k, v)
    if w in _RELATIVE:
        k, v = _RELATIVE[w]
        return Tok(k, v)
    if len(w) == 1:
        if w == "T":
            return Tok("T", -7 * HOUR)
        if w == "J":
            return Tok("J")
        if w in _MILITARY:
            return Tok("zone", _MILITARY[w])
    w2 = w.replace(".", "")
    if w2 != w:
        z = _lookup_zone(w2, local_zones)
        if z is not None:
            return z
    return None


def _lookup_zone(w: str, local_zones: dict[str, int]):
    if w in _UNIVERSAL:
        return Tok("zone", 0)
    if w in local_zones:
        return Tok("local_zone", local_zones[w])
    if w in _TZ_TABLE:
        k, v = _TZ_TABLE[w]
        return Tok(k, v)
    return None


def tokenize(s: str, local_zones: dict[str, int]) -> list[Tok]:
    toks: list[Tok] = []
    i, n = 0, len(s)
    while i < n:
        c = s[i]
        if c.isspace():
            i += 1
            continue
        if c.isdigit() or c in "+-":
            sign = 0
            j = i
            if c in "+-":
                sign = -1 if c == "-" else 1
                j = i + 1
                while j < n and s[j].isspace():
                    j += 1
                if j >= n or not s[j].isdigit():
                    i = j  # a sign not followed by a number is skipped
                    continue
            k = j
            while k < n and s[k].isdigit():
                k += 1
            value = int(s[j:k])
            digits = k - j
            if k + 1 < n and s[k] in ".," and s[k + 1].isdigit():
                m = k + 1
                while m < n and s[m].isdigit():
                    m += 1
                frac = s[k + 1:m]
                ns = int((frac + "000000000")[:9])
                toks.append(Tok("sdecimal" if sign else "udecimal", value * (-1 if sign < 0 else 1),
                                digits, sign < 0, -ns if sign < 0 else ns))
                i = m
                continue
            toks.append(Tok("snumber" if sign else "unumber",
                            -value if sign < 0 else value, digits, sign < 0))
            i = k
            continue
        if c.isalpha():
            j = i
            while j < n and (s[j].isalpha() or s[j] == "."):
                j += 1
            word = s[i:j]
            t = _lookup_word(word, local_zones)
            if t is None:
                raise DateError
            toks.append(t)
            i = j
            continue
        if c == "(":
            depth = 0
            while i < n:
                if s[i] == "(":
                    depth += 1
                elif s[i] == ")":
                    depth -= 1
                    if depth == 0:
                        i += 1
                        break
                i += 1
            else:
                raise DateError
            continue
        toks.append(Tok(c))
        i += 1
    return toks


# ---------------------------------------------------------------- parser
class _State:
    def __init__(self, now: datetime, nsec: int):
        self.year = now.year
        self.year_digits = 0
        self.month = now.month
        self.day = now.day
        self.hour = now.hour
        self.minutes = now.minute
        self.sec = now.second
        self.ns = nsec
        self.meridian = "24"
        self.time_zone = 0
        self.local_isdst = -1
        self.day_ordinal = 0
        self.day_number = 0
        self.rel = {"year": 0, "month": 0, "day": 0, "hour": 0, "minutes": 0, "sec": 0, "ns": 0}
        self.rels_seen = False
        self.dates = self.times = self.days = self.zones = self.local_zones = self.dsts = 0
        self.timespec = None


_UNIT_KINDS = ("year_unit", "month_unit", "day_unit", "hour_unit", "minute_unit", "sec_unit")
_REL_FIELD = {"year_unit": "year", "month_unit": "month", "day_unit": "day",
              "hour_unit": "hour", "minute_unit": "minutes", "sec_unit": "sec"}


class _Parser:
    def __init__(self, toks: list[Tok], st: _State):
        self.t = toks
        self.i = 0
        self.st = st

    def peek(self, k: int = 0) -> Tok | None:
        j = self.i + k
        return self.t[j] if j < len(self.t) else None

    def kind(self, k: int = 0) -> str | None:
        t = self.peek(k)
        return t.kind if t is not None else None

    def take(self) -> Tok:
        t = self.t[self.i]
        self.i += 1
        return t

    def expect(self, kind: str) -> Tok:
        if self.kind() != kind:
            raise DateError
        return self.take()

    def parse(self) -> None:
        if self.kind() == "@":
            self.take()
            t = self.peek()
            if t is None or t.kind not in ("snumber", "unumber", "sdecimal", "udecimal"):
                raise DateError
            self.take()
            if self.peek() is not None:
                raise DateError
            self.st.timespec = (t.value, t.ns if t.kind.endswith("decimal") else 0)
            return
        while self.peek() is not None:
            self.item()

    # ---- helpers
    def apply_rel(self, field: str, value: int, factor: int, ns: int = 0) -> None:
        self.st.rel[field] += value * factor
        if ns:
            self.st.rel["ns"] += ns * factor
        self.st.rels_seen = True

    def zone_offset(self, s: Tok, mm: int) -> int:
        value = abs(s.value)
        if s.digits <= 2 and mm < 0:
            value *= 100
        if mm < 0:
            minutes = (value // 100) * 60 + value % 100
            if s.neg:
                minutes = -minutes
        else:
            minutes = (value * 60) + mm
            if s.neg:
                minutes = -minutes
        if abs(minutes) > 24 * 60:
            raise DateError
        return minutes * 60

    def o_colon_minutes(self) -> int:
        if self.kind() == ":" and self.kind(1) == "unumber":
            self.take()
            return self.take().value
        return -1

    def zone_offset_item(self) -> None:
        s = self.take()  # snumber
        mm = self.o_colon_minutes()
        self.st.zones += 1
        self.st.time_zone = self.zone_offset(s, mm)

    def relunit_after_number(self, value: int, ns: int = 0) -> bool:
        k = self.kind()
        if k in _UNIT_KINDS:
            u = self.take()
            field = _REL_FIELD[k]
            if k == "sec_unit":
                self.apply_rel(field, value * u.value, self.ago(), ns)
            else:
                if ns:
                    raise DateError
                self.apply_rel(field, value * u.value, self.ago())
            return True
        return False

    def ago(self) -> int:
        # "relunit tAGO": the factor is decided by the token after the unit
        if self.kind() == "ago":
            return self.take().value
        return 1

    def set_time(self, h: int, m: int, s: int, ns: int, mer: str) -> None:
        st = self.st
        st.hour, st.minutes, st.sec, st.ns, st.meridian = h, m, s, ns, mer
        st.times += 1

    def seconds_token(self) -> tuple[int, int]:
        t = self.peek()
        if t is None or t.kind not in ("unumber", "udecimal"):
            raise DateError
        self.take()
        return t.value, (t.ns if t.kind == "udecimal" else 0)

    def time_after_hm(self, h: int, m: int) -> None:
        """After 'H:M': optional ':S', then a meridian or an optional zone offset."""
        s = ns = 0
        if self.kind() == ":":
            self.take()
            s, ns = self.seconds_token()
        if self.kind() == "meridian":
            self.set_time(h, m, s, ns, self.take().value)
            return
        self.set_time(h, m, s, ns, "24")
        if self.kind() == "snumber":
            self.zone_offset_item()

    def iso_time(self) -> None:
        h = self.expect("unumber").value
        if self.kind() == ":":
            self.take()
            m = self.expect("unumber").value
            s = ns = 0
            if self.kind() == ":":
                self.take()
                s, ns = self.seconds_token()
            self.set_time(h, m, s, ns, "24")
            if self.kind() == "snumber":
                self.zone_offset_item()
            return
        if self.kind() == "snumber":
            self.set_time(h, 0, 0, 0, "24")
            self.zone_offset_item()
            return
        raise DateError

    def digits_to_date_time(self, t: Tok) -> None:
        st = self.st
        if st.dates and not st.year_digits and not st.rels_seen and (st.times or t.digits > 2):
            st.year, st.year_digits = t.value, t.digits
            return
        if t.digits > 4:
            st.dates += 1
            st.day = t.value % 100
            st.month = (t.value // 100) % 100
            st.year = t.value // 10000
            st.year_digits = t.digits - 4
        else:
            st.times += 1
            if t.digits <= 2:
                st.hour, st.minutes = t.value, 0
            else:
                st.hour, st.minutes = t.value // 100, t.value % 100
            st.sec = st.ns = 0
            st.meridian = "24"

    def set_date(self, y: Tok | None, m: int, d: int) -> None:
        st = self.st
        st.month, st.day = m, d
        if y is not None:
            st.year, st.year_digits = abs(y.value), y.digits
        st.dates += 1

    # ---- items
    def item(self) -> None:
        st = self.st
        t = self.peek()
        k = t.kind
        if k == "unumber":
            self.item_unumber()
        elif k == "snumber":
            self.take()
            if self.kind() in _UNIT_KINDS:
                self.relunit_after_number(t.value)
            else:
                raise DateError
        elif k in ("udecimal", "sdecimal"):
            self.take()
            if self.kind() == "sec_unit":
                self.take()
                self.apply_rel("sec", t.value, self.ago(), t.ns)
            else:
                raise DateError
        elif k == "month":
            self.take()
            if self.kind() == "snumber" and self.kind(1) == "snumber":
                d = self.take()
                y = self.take()
                self.set_date(y, t.value, abs(d.value))
            elif self.kind() == "unumber":
                d = self.take()
                if self.kind() == "," and self.kind(1) == "unumber":
                    self.take()
                    y = self.take()
                    self.set_date(y, t.value, d.value)
                else:
                    self.set_date(None, t.value, d.value)
            else:
                raise DateError
        elif k == "day":
            self.take()
            if self.kind() == ",":
                self.take()
            st.day_ordinal, st.day_number = 0, t.value
            st.days += 1
        elif k == "ordinal":
            self.take()
            if self.kind() == "day":
                d = self.take()
                st.day_ordinal, st.day_number = t.value, d.value
                st.days += 1
            elif not self.relunit_after_number(t.value):
                raise DateError
        elif k == "day_shift":
            self.take()
            self.apply_rel("day", t.value, 1)
        elif k in _UNIT_KINDS:
            self.take()
            self.i -= 1
            self.relunit_after_number(1)
        elif k in ("zone", "T"):
            self.take()
            st.time_zone = t.value
            st.zones += 1
            if self.kind() == "snumber":
                if self.kind(1) in _UNIT_KINDS:
                    s = self.take()
                    self.relunit_after_number(s.value)
                elif k == "zone":
                    s = self.take()
                    mm = self.o_colon_minutes()
                    st.time_zone = t.value + self.zone_offset(s, mm)
            elif self.kind() == "dst" and k == "zone":
                self.take()
                st.time_zone = t.value + HOUR
        elif k == "dayzone":
            self.take()
            st.time_zone = t.value + HOUR
            st.zones += 1
        elif k == "local_zone":
            self.take()
            st.local_isdst = t.value
            st.local_zones += 1
            if self.kind() == "dst":
                self.take()
                st.local_isdst = 1
                st.dsts += 1
        else:
            raise DateError

    def item_unumber(self) -> None:
        st = self.st
        t = self.take()
        k = self.kind()
        if k == "meridian":
            self.set_time(t.value, 0, 0, 0, self.take().value)
        elif k == ":":
            self.take()
            m = self.expect("unumber").value
            self.time_after_hm(t.value, m)
        elif k == "/":
            self.take()
            b = self.expect("unumber")
            if self.kind() == "/":
                self.take()
                c = self.expect("unumber")
                if t.digits >= 3:
                    self.set_date(t, b.value, c.value)
                else:
                    self.set_date(c, t.value, b.value)
            else:
                self.set_date(None, t.value, b.value)
        elif k == "snumber":
            if self.kind(1) == "snumber":
                m = self.take()
                d = self.take()
                self.set_date(t, abs(m.value), abs(d.value))
                if self.kind() == "T":
                    self.take()
                    self.iso_time()
                    st.dates -= 0
            elif self.kind(1) in _UNIT_KINDS:
                self.digits_to_date_time(t)
                s = self.take()
                self.relunit_after_number(s.value)
            else:
                self.set_time(t.value, 0, 0, 0, "24")
                self.zone_offset_item()
        elif k == "month":
            mo = self.take()
            if self.kind() == "snumber":
                y = self.take()
                self.set_date(y, mo.value, t.value)
            elif self.kind() == "unumber":
                y = self.take()
                self.set_date(y, mo.value, t.value)
            else:
                self.set_date(None, mo.value, t.value)
        elif k == "day":
            d = self.take()
            st.day_ordinal, st.day_number = t.value, d.value
            st.days += 1
        elif k in _UNIT_KINDS:
            self.relunit_after_number(t.value)
        else:
            self.digits_to_date_time(t)


def _to_year(value: int, digits: int) -> int:
    if 0 <= value and digits == 2:
        return value + (2000 if value < 69 else 1900)
    return value


def _to_hour(h: int, mer: str) -> int:
    if mer == "24":
        return h if 0 <= h < 24 else -1
    if not 0 < h <= 12:
        return -1
    return h % 12 + (12 if mer == "pm" else 0)


def _norm_date(y: int, m: int, d: int) -> _date:
    y += (m - 1) // 12
    m = (m - 1) % 12 + 1
    try:
        return _date(y, m, 1) + timedelta(days=d - 1)
    except (OverflowError, ValueError):
        raise DateError from None


_EPOCH = datetime(1970, 1, 1)


def _fields(dt: datetime) -> tuple:
    return (dt.year, dt.month, dt.day, dt.hour, dt.minute, dt.second)


def _offset(t: int, tz: tzinfo) -> int:
    return int((localtime(t, tz).utcoffset() or timedelta(0)).total_seconds())


def _mktime(tz: tzinfo | None, d: _date, h: int, mi: int, s: int, isdst: int = -1,
            fixed: int = 0) -> tuple[int, bool]:
    """glibc mktime: (seconds, fields-round-trip-ok) of local time d h:mi:s in ``tz``.

    ``tz`` None means a fixed UTC offset of ``fixed`` seconds. Ambiguous times are
    resolved as glibc's search from a UTC guess does; a time in a DST gap comes
    out normalised (and not ok).
    """
    naive = datetime(d.year, d.month, d.day) + timedelta(hours=h, minutes=mi, seconds=s)
    base = int((naive - _EPOCH).total_seconds())
    if tz is None:
        return base - fixed, True
    target = _fields(naive)
    offs = {_offset(base + k, tz) for k in (-172800, -86400, 0, 86400, 172800)}
    cands = sorted(t for t in (base - o for o in offs) if _fields(localtime(t, tz)) == target)
    if isdst >= 0 and cands:
        match = [t for t in cands if bool(localtime(t, tz).dst()) == bool(isdst)]
        if match:
            return match[0], True
        t = cands[0]
        return t + (3600 if isdst == 0 else -3600), False
    if len(cands) == 1:
        return cands[0], True
    if cands:
        t = base
        for _ in range(8):
            t2 = base - _offset(t, tz)
            if t2 == t:
                break
            t = t2
        return (t if t in cands else cands[0]), True
    return base - _offset(base - 86400, tz), False


@lru_cache(maxsize=256)
def local_zone_names(tz: tzinfo, year: int) -> dict[str, int]:
    names: dict[str, int] = {}
    for month in (1, 7):
        try:
            dt = datetime(year, month, 1, 12, tzinfo=tz)
            name = dt.tzname()
            if name and name.isalpha():
                names.setdefault(name.upper(), 1 if (dt.dst() or timedelta(0)) else 0)
        except Exception:  # noqa: BLE001
            pass
    return names


def parse_date(text: str, tz: tzinfo, now_ts: float) -> tuple[int, int]:
    """(seconds, nanoseconds) since the epoch for GNU date string ``text``."""
    s = text
    stripped = s.lstrip()
    if stripped.startswith('TZ="'):
        j = 4
        val = []
        while j < len(stripped):
            ch = stripped[j]
            if ch == "\\" and j + 1 < len(stripped) and stripped[j + 1] in '\\"':
                val.append(stripped[j + 1])
                j += 2
                continue
            if ch == '"':
                break
            val.append(ch)
            j += 1
        else:
            raise DateError
        tz = tz_from_string("".join(val))
        s = stripped[j + 1:]
    sec = int(now_ts // 1)
    nsec = int(round((now_ts - sec) * 1e9))
    now = localtime(sec, tz)
    st = _State(now, nsec)
    toks = tokenize(s, local_zone_names(tz, now.year))
    _Parser(toks, st).parse()
    if st.timespec is not None:
        v, ns = st.timespec
        if ns < 0:
            v -= 1
            ns += 1_000_000_000
        return v, ns
    if max(st.times, st.dates, st.days, st.dsts, st.local_zones + st.zones) > 1:
        raise DateError
    year = _to_year(st.year, st.year_digits)
    month, day = st.month, st.day
    if st.times or (st.rels_seen and not st.dates and not st.days):
        hour = _to_hour(st.hour, st.meridian)
        if hour < 0:
            raise DateError
        mi, se, ns = st.minutes, st.sec, st.ns
    else:
        hour = mi = se = ns = 0
    if not (1 <= month <= 12) or not (0 <= mi <= 59) or not (0 <= se <= 59):
        raise DateError
    if not (1 <= year <= 9999) or not (1 <= day <= calendar.monthrange(year, month)[1]):
        raise DateError
    work: tzinfo | None = tz
    isdst = st.local_isdst if st.local_zones else -1
    start, ok = _mktime(work, _date(year, month, day), hour, mi, se, isdst)
    if not ok:
        if not st.zones:
            raise DateError
        work = None
        start, ok = _mktime(None, _date(year, month, day), hour, mi, se, fixed=st.time_zone)

    def broken(t: int) -> datetime:
        if work is None:
            return datetime(1970, 1, 1) + timedelta(seconds=t + st.time_zone)
        return localtime(t, work).replace(tzinfo=None)

    tm = broken(start)
    if st.days and not st.dates:
        wd = (tm.weekday() + 1) % 7
        dayincr = ((st.day_number - wd + 7) % 7
                   + 7 * (st.day_ordinal - (1 if (0 < st.day_ordinal and wd != st.day_number)
                                            else 0)))
        d2 = _norm_date(tm.year, tm.month, tm.day + dayincr)
        start, _ = _mktime(work, d2, tm.hour, tm.minute, tm.second, fixed=st.time_zone)
        tm = broken(start)
    r = st.rel
    if r["year"] or r["month"] or r["day"]:
        d3 = _norm_date(tm.year + r["year"], tm.month + r["month"], tm.day + r["day"])
        start, _ = _mktime(work, d3, hour, mi, se, isdst, fixed=st.time_zone)
    if st.zones:
        gmtoff = st.time_zone if work is None else _offset(start, work)
        start -= st.time_zone - gmtoff
    total_ns = ns + r["ns"]
    t = start + r["hour"] * 3600 + r["minutes"] * 60 + r["sec"] + total_ns // 1_000_000_000
    return t, total_ns % 1_000_000_000
