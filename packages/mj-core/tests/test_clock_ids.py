from __future__ import annotations

import datetime as dt
import re

from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from mj_core import clock
from mj_core import ids

MOMENT = int(dt.datetime(2026, 9, 3, 19, 30, 12, tzinfo=dt.UTC).timestamp())


def test_timestamp_shapes() -> None:
    assert clock.iso(MOMENT) == "2026-09-03T19:30:12Z"
    assert clock.compact(MOMENT) == "20260903T193012Z"
    assert clock.day(MOMENT) == "2026-09-03"
    assert clock.parse_iso("2026-09-03T19:30:12Z") == MOMENT
    assert clock.parse_iso("2026-09-03 19:30") is None
    assert isinstance(clock.now(), int)
    assert abs(clock.now() - dt.datetime.now(dt.UTC).timestamp()) < 5


def reference(text: str) -> int | None:
    """`parse_iso` as `datetime` reads the shape."""
    try:
        moment = dt.datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=dt.UTC)
    except ValueError:
        return None
    return int(moment.timestamp())


@settings(max_examples=2000, deadline=None)
@given(st.datetimes(min_value=dt.datetime(1, 1, 1), max_value=dt.datetime(9999, 12, 31)))
def test_every_moment_reads_back_as_datetime_computes_it(when: dt.datetime) -> None:
    text = when.strftime("%Y-%m-%dT%H:%M:%SZ").rjust(20, "0")
    expected = int(when.replace(tzinfo=dt.UTC, microsecond=0).timestamp())
    assert clock.parse_iso(text) == expected
    if when.year >= 1000:
        assert clock.iso(expected) == text


@settings(max_examples=2000, deadline=None)
@given(
    st.tuples(*(st.integers(0, limit) for limit in (9999, 13, 32, 25, 61, 61))).map(
        lambda f: f"{f[0]:04d}-{f[1]:02d}-{f[2]:02d}T{f[3]:02d}:{f[4]:02d}:{f[5]:02d}Z"
    )
)
def test_impossible_dates_are_refused_like_datetime_refuses_them(text: str) -> None:
    assert clock.parse_iso(text) == reference(text)


def test_durations() -> None:
    assert clock.parse_duration("15m") == 900
    assert clock.parse_duration("2h") == 7200
    assert clock.parse_duration("1d") == 86400
    assert clock.parse_duration("m") is None
    assert clock.parse_duration("1.5h") is None


def test_ids_and_record_names() -> None:
    assert re.fullmatch(r"t-20260903193012-[0-9a-f]{4}", ids.task_id(MOMENT))
    assert re.fullmatch(r"s-20260903193012-[0-9a-f]{4}", ids.session_id(MOMENT))
    assert ids.branch_key("feature/x y") == "feature-x-y"
    assert ids.branch_key(None) == "DETACHED"
    name = ids.record_name(MOMENT, "main", "9b1e2d4f8c3a")
    assert re.fullmatch(r"20260903T193012Z--main--9b1e2d4--[0-9a-f]{16}\.md", name)


def test_parse_iso_takes_exactly_the_written_shape() -> None:
    for text in (
        "2026-9-03T19:30:12Z",
        "2026-09-03T19:30:12",
        "2026-09-03T19:30:12+00:00",
        " 2026-09-03T19:30:12Z",
        "2026-02-30T00:00:00Z",
        "2026-09-03T24:00:00Z",
        "２026-09-03T19:30:12Z",
        "+026-09-03T19:30:12Z",
    ):
        assert clock.parse_iso(text) is None, text
    assert clock.parse_iso(clock.iso(MOMENT)) == MOMENT
