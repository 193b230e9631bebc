"""UTC time, to the second, in the two shapes records use.

A moment is whole seconds since the Unix epoch (an `int`): ages are a subtraction, and the
`datetime` module, a measurable share of a hook-run command's start-up, is never imported.
"""

from __future__ import annotations

import time

ISO_FORMAT = "%Y-%m-%dT%H:%M:%SZ"
COMPACT_FORMAT = "%Y%m%dT%H%M%SZ"
_MONTH_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def now() -> int:
    return int(time.time())


def iso(moment: int) -> str:
    """`2026-09-03T19:30:12Z`."""
    return time.strftime(ISO_FORMAT, time.gmtime(moment))


def compact(moment: int) -> str:
    """`20260903T193012Z`, the record file-name prefix."""
    return time.strftime(COMPACT_FORMAT, time.gmtime(moment))


def digits(moment: int) -> str:
    """`20260903193012`, the id stamp."""
    return time.strftime("%Y%m%d%H%M%S", time.gmtime(moment))


def day(moment: int) -> str:
    """`2026-09-03`."""
    return time.strftime("%Y-%m-%d", time.gmtime(moment))


def parse_iso(text: str) -> int | None:
    """The inverse of `iso`; None for anything that is not exactly that shape and a real time."""
    if not isinstance(text, str) or len(text) != 20 or not text.isascii():
        return None
    if text[4] + text[7] + text[10] + text[13] + text[16] + text[19] != "--T::Z":
        return None
    fields = (text[0:4], text[5:7], text[8:10], text[11:13], text[14:16], text[17:19])
    if not all(field.isdigit() for field in fields):
        return None
    year, month, day_, hour, minute, second = (int(field) for field in fields)
    if year < 1 or not 1 <= month <= 12 or hour > 23 or minute > 59 or second > 59:
        return None
    if not 1 <= day_ <= _days_in(year, month):
        return None
    return _epoch_days(year, month, day_) * 86400 + hour * 3600 + minute * 60 + second


def _days_in(year: int, month: int) -> int:
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    return 29 if month == 2 and leap else _MONTH_DAYS[month - 1]


def _epoch_days(year: int, month: int, day_: int) -> int:
    """Days from 1970-01-01 to the date (proleptic Gregorian; negative before 1970)."""
    shifted = year - (month <= 2)  # count years from March, so February ends the year
    era, of_era = divmod(shifted, 400)
    of_year = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day_ - 1
    of_era_days = of_era * 365 + of_era // 4 - of_era // 100 + of_year
    return era * 146097 + of_era_days - 719468


def parse_duration(text: str) -> int | None:
    """`15m`, `2h`, `1d`, `30s` → seconds; None when malformed."""
    units = {"s": 1, "m": 60, "h": 3600, "d": 86400}
    if not isinstance(text, str) or len(text) < 2 or text[-1] not in units:
        return None
    number = text[:-1]
    if not number.isdigit():
        return None
    return int(number) * units[text[-1]]
