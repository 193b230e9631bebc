"""`bench --check`: a fresh run's p50, p95 and p99 against the baseline, per target and mode.

A percentile over `baseline × (1 + policy.benchmark.regression.<p>)` is a FAIL (10); a target
the baseline does not hold is INFO (nothing to compare with is not a regression).
"""

from __future__ import annotations

import shlex
from collections.abc import Iterator

from mj_core.errors import Refused
from mj_core.findings import Finding

from mj_watch.bench.results import BASELINE_SCHEMA

TYPE_CHECKING = False  # `typing` is imported for annotations only
if TYPE_CHECKING:
    from typing import Any

KEYS = ("p50", "p95", "p99")
Key = tuple[str, str, str]


def _key(row: dict[str, Any]) -> Key:
    return (str(row.get("command")), str(row.get("scenario")), str(row.get("mode")))


def index(baseline: dict[str, Any], shown: str) -> dict[Key, dict[str, Any]]:
    """Baseline rows by (command, scenario, mode); a row without numbers → 15 (incomparable)."""
    rows = baseline.get("results")
    if not isinstance(rows, list):
        raise Refused(f"{shown}:results: not a list — incomparable {BASELINE_SCHEMA}")
    out = {}
    for number, row in enumerate(rows):
        bad = not isinstance(row, dict) or any(
            not isinstance(row.get(f"{k}_ms"), int | float) for k in KEYS
        )
        if bad:
            raise Refused(f"{shown}:results[{number}]: no p50/p95/p99 figures — incomparable")
        out[_key(row)] = row
    return out


def findings(
    fresh: list[dict[str, Any]],
    baseline: dict[Key, dict[str, Any]],
    regression: dict[str, float],
    extra: tuple[str, ...] = (),
) -> Iterator[Finding]:
    """One finding per measured row; `extra` (e.g. `--baseline <path>`) goes into reproduce."""
    for row in fresh:
        if row["status"] != "ok":
            continue
        old = baseline.get(_key(row))
        subject = f"{row['command']} [{row['scenario']}, {row['mode']}]"
        if old is None:
            yield Finding("INFO", "bench", subject, "not in the baseline; nothing to compare")
            continue
        yield _judge(row, old, regression, subject, extra)


def _judge(
    row: dict[str, Any],
    old: dict[str, Any],
    regression: dict[str, float],
    subject: str,
    extra: tuple[str, ...],
) -> Finding:
    over = []
    for key in KEYS:
        limit = old[f"{key}_ms"] * (1 + regression[key])
        if row[f"{key}_ms"] > limit:
            over.append(
                f"{key} {row[f'{key}_ms']} ms > {old[f'{key}_ms']} ms × {1 + regression[key]:g}"
            )
    if over:
        return Finding("FAIL", "bench", subject, "; ".join(over), reproduce=reproduce(row, extra))
    figures = ", ".join(f"{k} {row[f'{k}_ms']} ms (baseline {old[f'{k}_ms']})" for k in KEYS)
    return Finding("OK", "bench", subject, figures)


def reproduce(row: dict[str, Any], extra: tuple[str, ...] = ()) -> str:
    argv = ["majordomus", "bench", row["command"], "--check", *extra]
    scenario = str(row["scenario"])
    if scenario.startswith("fixture "):
        name, _, scale = scenario.removeprefix("fixture ").partition("×")
        argv += ["--fixture", name] + (["--scale", scale] if scale else [])
    if row["mode"] != "warm":
        argv += ["--mode", row["mode"]]
    return shlex.join(argv)
