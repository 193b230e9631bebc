"""UTC time, to the second, in the two shapes records use."""

from __future__ import annotations

import datetime as _dt

ISO_FORMAT = "%Y-%m-%dT%H:%M:%SZ"
COMPACT_FORMAT = "%Y%m%dT%H%M%SZ"


def now() -> _dt.datetime:
    return _dt.datetime.now(_dt.UTC).replace(microsecond=0)


def iso(moment: _dt.datetime) -> str:
    """`2026-09-03T19:30:12Z`."""
    return moment.astimezone(_dt.UTC).strftime(ISO_FORMAT)


def compact(moment: _dt.datetime) -> str:
    """`20260903T193012Z`, the record file-name prefix."""
    return moment.astimezone(_dt.UTC).strftime(COMPACT_FORMAT)


def digits(moment: _dt.datetime) -> str:
    """`20260903193012`, the id stamp."""
    return moment.astimezone(_dt.UTC).strftime("%Y%m%d%H%M%S")


def parse_iso(text: str) -> _dt.datetime | None:
    """The inverse of `iso`; None for anything that is not exactly that shape."""
    if not isinstance(text, str) or len(text) != 20 or not text.isascii():
        return None
    if text[4] + text[7] + text[10] + text[13] + text[16] + text[19] != "--T::Z":
        return None
    fields = (text[0:4], text[5:7], text[8:10], text[11:13], text[14:16], text[17:19])
    if not all(field.isdigit() for field in fields):
        return None
    year, month, day, hour, minute, second = (int(field) for field in fields)
    try:
        return _dt.datetime(year, month, day, hour, minute, second, tzinfo=_dt.UTC)
    except ValueError:
        return None


def parse_duration(text: str) -> int | None:
    """`15m`, `2h`, `1d`, `30s` → seconds; None when malformed."""
    units = {"s": 1, "m": 60, "h": 3600, "d": 86400}
    if not isinstance(text, str) or len(text) < 2 or text[-1] not in units:
        return None
    number = text[:-1]
    if not number.isdigit():
        return None
    return int(number) * units[text[-1]]
