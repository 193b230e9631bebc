"""Percentiles and summaries against values computed by hand."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from mj_watch.bench import stats

TEN = [12.0, 3.0, 7.0, 20.0, 5.0, 9.0, 15.0, 1.0, 11.0, 8.0]
# sorted: 1 3 5 7 8 9 11 12 15 20


def test_nearest_rank_of_ten_samples_by_hand() -> None:
    ordered = sorted(TEN)
    # p50: ceil(0.5*10)=5 → 8; p90: ceil(9)=9 → 15; p95: ceil(9.5)=10 → 20; p99: ceil(9.9)=10 → 20
    assert stats.nearest_rank(ordered, 50) == 8.0
    assert stats.nearest_rank(ordered, 90) == 15.0
    assert stats.nearest_rank(ordered, 95) == 20.0
    assert stats.nearest_rank(ordered, 99) == 20.0
    assert stats.nearest_rank(ordered, 10) == 1.0  # ceil(1) = 1
    assert stats.nearest_rank(ordered, 11) == 3.0  # ceil(1.1) = 2


def test_nearest_rank_of_twenty_samples_has_no_float_drift() -> None:
    ordered = [float(v) for v in range(1, 21)]
    # p95 of 20: rank ceil(19.0) = 19 exactly (a float product could give 19.000000000000004)
    assert stats.nearest_rank(ordered, 95) == 19.0
    assert stats.nearest_rank(ordered, 90) == 18.0
    assert stats.nearest_rank(ordered, 99) == 20.0  # ceil(19.8) = 20


def test_one_sample_is_every_percentile() -> None:
    summary = stats.summarize([42.0])
    assert summary == {
        "samples": 1,
        "min_ms": 42.0,
        "p50_ms": 42.0,
        "p90_ms": 42.0,
        "p95_ms": 42.0,
        "p99_ms": 42.0,
        "max_ms": 42.0,
        "mean_ms": 42.0,
        "stddev_ms": 0.0,
    }


def test_summary_of_ten_samples_by_hand() -> None:
    summary = stats.summarize(TEN)
    # mean = 91 / 10 = 9.1; squared deviations sum = 292.9; / 9 = 32.544...; sqrt = 5.7048...
    assert summary["samples"] == 10
    assert summary["min_ms"] == 1.0
    assert summary["max_ms"] == 20.0
    assert summary["p50_ms"] == 8.0
    assert summary["mean_ms"] == 9.1
    assert summary["stddev_ms"] == 5.7


def test_out_of_range_or_empty_is_refused() -> None:
    with pytest.raises(ValueError):
        stats.nearest_rank([], 50)
    with pytest.raises(ValueError):
        stats.nearest_rank([1.0], 0)
    with pytest.raises(ValueError):
        stats.nearest_rank([1.0], 101)


@given(st.lists(st.floats(min_value=0, max_value=1e6), min_size=1, max_size=60))
def test_percentiles_are_samples_in_order(samples: list[float]) -> None:
    ordered = sorted(samples)
    picked = [stats.nearest_rank(ordered, p) for p in (1, 50, 90, 95, 99, 100)]
    assert all(p in ordered for p in picked)
    assert picked == sorted(picked)
    assert picked[-1] == ordered[-1]
