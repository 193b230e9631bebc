from __future__ import annotations

import datetime as dt
import re

from mj_core import clock
from mj_core import ids

MOMENT = dt.datetime(2026, 9, 3, 19, 30, 12, tzinfo=dt.UTC)


def test_timestamp_shapes() -> None:
    assert clock.iso(MOMENT) == "2026-09-03T19:30:12Z"
    assert clock.compact(MOMENT) == "20260903T193012Z"
    assert clock.parse_iso("2026-09-03T19:30:12Z") == MOMENT
    assert clock.parse_iso("2026-09-03 19:30") is None
    assert clock.now().tzinfo is not None and clock.now().microsecond == 0


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
