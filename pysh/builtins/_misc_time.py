"""Time zones from the sandbox's ``TZ`` (never the host's): zoneinfo names and POSIX strings.

Private helper of the misc commands (date, diff headers). An unset or empty
``TZ`` is UTC, as on the sandbox's synthetic machine. ``TZ=Area/City`` (with
or without a leading ``:``) uses the zoneinfo database; anything else is
parsed as a POSIX TZ string (``EST5EDT``, ``<+03>-3``, ``CET-1CEST,M3.5.0,M10.5.0/3``);
a name glibc cannot parse still names UTC, abbreviated by its leading letters.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, tzinfo
from functools import lru_cache

_KEY = re.compile(r"[A-Za-z0-9_+\-]+(/[A-Za-z0-9_+\-]+)*\Z")


class PosixTZ(tzinfo):
    """A POSIX TZ rule: standard time, and optionally DST with M-format transition rules."""

    def __init__(self, std: str, std_off: int, dst: str | None = None, dst_off: int | None = None,
                 start=None, end=None):
        self.std, self.std_off = std, std_off
        self.dst = dst
        self.dst_off = dst_off if dst_off is not None else std_off + 3600
        self.start = start or ("M", 3, 2, 0, 7200)
        self.end = end or ("M", 11, 1, 0, 7200)

    def __repr__(self) -> str:
        return f"PosixTZ({self.std!r})"

    @staticmethod
    def _rule_date(year: int, rule) -> datetime:
        kind = rule[0]
        secs = rule[-1]
        if kind == "M":
            _, month, week, wday, _ = rule
            first = datetime(year, month, 1)
            # weekday(): Mon=0..Sun=6; POSIX: Sun=0..Sat=6
            delta = (wday - (first.weekday() + 1) % 7) % 7
            day = 1 + delta + (week - 1) * 7
            if week == 5:
                while True:
                    try:
                        datetime(year, month, day)
                        break
                    except ValueError:
                        day -= 7
                # the last such weekday of the month
                while True:
                    try:
                        datetime(year, month, day + 7)
                        day += 7
                    except ValueError:
                        break
            base = datetime(year, month, day)
        elif kind == "J":  # Jn: 1..365, Feb 29 never counted
            n = rule[1]
            base = datetime(year, 1, 1) + timedelta(days=n - 1)
            if n >= 60 and _leap(year):
                base += timedelta(days=1)
        else:  # n: 0..365 counting Feb 29
            base = datetime(year, 1, 1) + timedelta(days=rule[1])
        return base + timedelta(seconds=secs)

    def _is_dst_utc(self, dt_utc: datetime) -> bool:
        if self.dst is None:
            return False
        y = dt_utc.year
        start = self._rule_date(y, self.start) - timedelta(seconds=self.std_off)
        end = self._rule_date(y, self.end) - timedelta(seconds=self.dst_off)
        naive = dt_utc.replace(tzinfo=None)
        if start < end:
            return start <= naive < end
        return not (end <= naive < start)

    def fromutc(self, dt: datetime) -> datetime:
        off = self.dst_off if self._is_dst_utc(dt) else self.std_off
        return (dt + timedelta(seconds=off)).replace(tzinfo=self)

    def _local_dst(self, dt: datetime) -> bool:
        if self.dst is None or dt is None:
            return False
        naive = dt.replace(tzinfo=None)
        as_std = naive - timedelta(seconds=self.std_off)
        return self._is_dst_utc(as_std)

    def utcoffset(self, dt):
        return timedelta(seconds=self.dst_off if self._local_dst(dt) else self.std_off)

    def dst(self, dt):
        if self._local_dst(dt):
            return timedelta(seconds=self.dst_off - self.std_off)
        return timedelta(0)

    def tzname(self, dt):
        return self.dst if self._local_dst(dt) else self.std


def _leap(y: int) -> bool:
    return y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)


def _parse_name(s: str, i: int) -> tuple[str | None, int]:
    if i < len(s) and s[i] == "<":
        j = s.find(">", i)
        if j < 0:
            return None, i
        return s[i + 1:j], j + 1
    j = i
    while j < len(s) and s[j].isalpha():
        j += 1
    if j - i < 3:
        return None, i
    return s[i:j], j


def _parse_offset(s: str, i: int) -> tuple[int | None, int]:
    m = re.compile(r"([+-]?)(\d{1,3})(?::(\d{1,2})(?::(\d{1,2}))?)?").match(s, i)
    if not m:
        return None, i
    secs = int(m.group(2)) * 3600 + int(m.group(3) or 0) * 60 + int(m.group(4) or 0)
    # POSIX offsets are west-positive; ours are east-positive.
    return (secs if m.group(1) == "-" else -secs), m.end()


def _parse_rule(s: str):
    m = re.fullmatch(r"(?:M(\d+)\.(\d)\.(\d)|J(\d+)|(\d+))(?:/([+-]?\d+(?::\d+(?::\d+)?)?))?", s)
    if not m:
        return None
    secs = 7200
    if m.group(6):
        sign = -1 if m.group(6).startswith("-") else 1
        parts = [int(p) for p in m.group(6).lstrip("+-").split(":")] + [0, 0]
        secs = sign * (parts[0] * 3600 + parts[1] * 60 + parts[2])
    if m.group(1):
        month, week, wday = int(m.group(1)), int(m.group(2)), int(m.group(3))
        if not (1 <= month <= 12 and 1 <= week <= 5 and 0 <= wday <= 6):
            return None
        return ("M", month, week, wday, secs)
    if m.group(4):
        return ("J", int(m.group(4)), secs)
    return ("n", int(m.group(5)), secs)


def parse_posix_tz(s: str) -> tzinfo | None:
    name, i = _parse_name(s, 0)
    if name is None:
        return None
    off, j = _parse_offset(s, i)
    if off is None:
        return PosixTZ(name, 0)
    i = j
    if i >= len(s):
        return PosixTZ(name, off)
    dst, k = _parse_name(s, i)
    if dst is None:
        return PosixTZ(name, off)
    i = k
    dst_off = None
    if i < len(s) and s[i] != ",":
        dst_off, i = _parse_offset(s, i)
    start = end = None
    if i < len(s) and s[i] == ",":
        rules = s[i + 1:].split(",")
        if len(rules) == 2:
            start, end = _parse_rule(rules[0]), _parse_rule(rules[1])
    return PosixTZ(name, off, dst, dst_off, start, end)


@lru_cache(maxsize=64)
def tz_from_string(value: str | None) -> tzinfo:
    if not value:
        return _UTC_NAMED
    key = value[1:] if value.startswith(":") else value
    if not key:
        return _UTC_NAMED
    if key in ("UTC", "UTC0", "Etc/UTC", "Universal", "Zulu"):
        return _UTC_NAMED
    if _KEY.match(key) and ".." not in key:
        try:
            from zoneinfo import ZoneInfo

            return ZoneInfo(key)
        except Exception:  # noqa: BLE001 - not a zone name: try the POSIX form
            pass
    tz = parse_posix_tz(key)
    return tz if tz is not None else _UTC_NAMED


class _NamedUTC(tzinfo):
    def utcoffset(self, dt):
        return timedelta(0)

    def dst(self, dt):
        return timedelta(0)

    def tzname(self, dt):
        return "UTC"

    def fromutc(self, dt):
        return dt.replace(tzinfo=self)

    def __repr__(self) -> str:
        return "UTC"


_UTC_NAMED = _NamedUTC()


def get_tz(env: dict[str, str]) -> tzinfo:
    """The time zone a command in this shell lives in."""
    return tz_from_string(env.get("TZ"))


def localtime(seconds: int | float, tz: tzinfo) -> datetime:
    """``seconds`` since the epoch as an aware datetime in ``tz`` (handles negative times)."""
    base = datetime(1970, 1, 1, tzinfo=UTC) + timedelta(seconds=seconds)
    return base.astimezone(tz)


def format_offset(dt: datetime, colons: int = 0) -> str:
    off = dt.utcoffset() or timedelta(0)
    total = int(off.total_seconds())
    sign = "-" if total < 0 else "+"
    total = abs(total)
    h, rem = divmod(total, 3600)
    m, s = divmod(rem, 60)
    if colons == 0:
        return f"{sign}{h:02d}{m:02d}"
    if colons == 1:
        return f"{sign}{h:02d}:{m:02d}"
    if colons == 2:
        return f"{sign}{h:02d}:{m:02d}:{s:02d}"
    # %:::z — minimal precision
    if s:
        return f"{sign}{h:02d}:{m:02d}:{s:02d}"
    if m:
        return f"{sign}{h:02d}:{m:02d}"
    return f"{sign}{h:02d}"
