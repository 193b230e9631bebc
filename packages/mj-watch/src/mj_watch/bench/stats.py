"""Summary statistics of a benchmark's samples: pure functions, no I/O.

Percentiles are nearest-rank over the sorted samples: the p-th percentile of n samples is the
sample at 1-based rank ceil(p * n / 100), computed in integers so no float rounding moves it.
The standard deviation is the sample one (n - 1); a single sample has 0.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

PERCENTILES = (50, 90, 95, 99)


def nearest_rank(ordered: Sequence[float], percent: int) -> float:
    """The nearest-rank `percent`-th percentile of already sorted, non-empty `ordered`."""
    if not ordered:
        raise ValueError("no samples")
    if not 0 < percent <= 100:
        raise ValueError(f"percentile {percent} outside (0, 100]")
    rank = -(-percent * len(ordered) // 100)  # ceil without floats
    return ordered[max(rank, 1) - 1]


def stddev(values: Sequence[float]) -> float:
    if len(values) < 2:
        return 0.0
    mean = math.fsum(values) / len(values)
    return math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (len(values) - 1))


def summarize(samples: Sequence[float]) -> dict[str, float | int]:
    """count, min, p50, p90, p95, p99, max (milliseconds, 1 decimal), mean, stddev."""
    ordered = sorted(samples)
    out: dict[str, float | int] = {"samples": len(ordered), "min_ms": _ms(ordered[0])}
    for percent in PERCENTILES:
        out[f"p{percent}_ms"] = _ms(nearest_rank(ordered, percent))
    out["max_ms"] = _ms(ordered[-1])
    out["mean_ms"] = _ms(math.fsum(ordered) / len(ordered))
    out["stddev_ms"] = _ms(stddev(ordered))
    return out


def _ms(value: float) -> float:
    return round(value, 1)
