"""Sampling one target in one scenario: the cold run, unsampled warm-up, then the samples.

Read-only targets run in the scenario's repository (or in one private copy when they need a
setup); mutating targets get a fresh copy of the scenario for every run, warm-up included, so
no sample sees what an earlier one wrote. A run that exits with a code its target does not
accept stops the target with status `exit-<code>`; a failed setup run gives `setup-failed`, and
a run that did not write the file its target `expect`s gives `expect-missing`, and one where
that file was there before it ran gives `expect-present` (a hook that kept an episode planted
in the copy would be timed on a path that opens nothing).
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Callable
from collections.abc import Iterator
from pathlib import Path

from mj_watch.bench import measure
from mj_watch.bench import stats
from mj_watch.bench.scenario import Scenario
from mj_watch.bench.targets import Target
from mj_watch.bench.targets import executable

TYPE_CHECKING = False  # `typing` is imported for annotations only
if TYPE_CHECKING:
    from typing import Any

Progress = Callable[[str], None]


class Plan:
    """How each target is sampled: unsampled warm-up runs, samples, and which modes."""

    __slots__ = ("modes", "samples", "warmup")

    def __init__(self, warmup: int, samples: int, modes: tuple[str, ...]) -> None:
        self.warmup = warmup
        self.samples = samples
        self.modes = modes  # ("warm",), ("cold",) or ("cold", "warm")


class TargetFailed(Exception):
    def __init__(self, status: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class _Runs:
    """The runs of one target in one scenario, counted for the progress line."""

    __slots__ = ("done", "progress", "samples", "scenario", "target", "total")

    def __init__(self, target: Target, scenario: Scenario, progress: Progress) -> None:
        self.target = target
        self.scenario = scenario
        self.progress = progress
        self.done = 0
        self.total = 0
        self.samples: list[measure.Sample] = []

    def one(self) -> measure.Sample:
        self.done += 1
        self.progress(f"{self.scenario.name}: {self.target.command} {self.done}/{self.total}")
        expected = self.target.expect
        with self._place() as where:
            if expected is not None and os.path.lexists(Path(where) / expected):
                raise TargetFailed(
                    "expect-present", f"{expected}: there before the run, which then proves nothing"
                )
            sample = measure.run(self.target.argv, where, self.scenario.env, self.target.stdin)
            missing = expected is not None and not (Path(where) / expected).is_file()
        if sample.code not in self.target.accept:
            raise TargetFailed(f"exit-{sample.code}", sample.said or f"exit {sample.code}")
        if missing:
            raise TargetFailed("expect-missing", f"{expected}: not written by the run")
        return sample

    def _place(self) -> Any:
        if self.target.empty:
            return self.scenario.empty(self._setup)
        if self.target.mutating:
            return self.scenario.fresh(self._setup)
        setup = self._setup if self.target.setup else None
        return self.scenario.shared(self.target.command, setup)

    def _setup(self, where: Any) -> None:
        for argv in self.target.setup:
            sample = measure.run(argv, where, self.scenario.env)
            if sample.code != 0:
                shown = shlex.join(_display(argv))
                raise TargetFailed("setup-failed", f"setup `{shown}`: {sample.said}")


def _display(argv: tuple[str, ...]) -> tuple[str, ...]:
    prefix = tuple(executable())
    if argv[: len(prefix)] == prefix:
        return ("majordomus", *argv[len(prefix) :])
    return (Path(argv[0]).name, *argv[1:])


def sample(
    target: Target, scenario: Scenario, plan: Plan, progress: Progress
) -> list[dict[str, Any]]:
    """One result row per mode; a failed target gives one row carrying its status."""
    runs = _Runs(target, scenario, progress)
    cold = "cold" in plan.modes
    warm = "warm" in plan.modes
    runs.total = int(cold) + (plan.warmup + plan.samples if warm else 0)
    try:
        rows = []
        if cold:
            rows.append(_row(target, scenario, "cold", [runs.one()]))
        if warm:
            for _ in range(plan.warmup):
                runs.one()
            rows.append(_row(target, scenario, "warm", [runs.one() for _ in range(plan.samples)]))
        return rows
    except TargetFailed as failed:
        return [_failed(target, scenario, plan.modes[-1], failed)]


def _head(target: Target, scenario: Scenario, mode: str, status: str) -> dict[str, Any]:
    return {
        "command": target.command,
        "mode": mode,
        "class": target.klass,
        "scenario": scenario.name,
        "status": status,
    }


def _row(
    target: Target, scenario: Scenario, mode: str, runs: list[measure.Sample]
) -> dict[str, Any]:
    row = _head(target, scenario, mode, "ok")
    row.update(stats.summarize([r.ms for r in runs]))
    peaks = sorted(r.peak_kb for r in runs)
    row["rss_p50_kb"] = int(stats.nearest_rank(peaks, 50))
    row["rss_max_kb"] = peaks[-1]
    row["cpu_p50_ms"] = round(stats.nearest_rank(sorted(r.cpu_ms for r in runs), 50), 1)
    return row


def _failed(target: Target, scenario: Scenario, mode: str, failed: TargetFailed) -> dict[str, Any]:
    row = _head(target, scenario, mode, failed.status)
    row["message"] = failed.message
    return row


def rows(
    targets: list[Target], scenario: Scenario, plan: Plan, progress: Progress
) -> Iterator[dict[str, Any]]:
    for target in targets:
        yield from sample(target, scenario, plan, progress)
