"""Own wall time against the policy budget: WARN over it (with a reproduce), silence within."""

from __future__ import annotations

from mj_watch.doctor.self_time import wall_time


def _policy(ms: object) -> dict[str, object]:
    return {"benchmark": {"budget": {"doctor_ms": ms, "watch_ms": ms}}}


def test_over_the_budget_is_a_warning_never_a_failure() -> None:
    [found] = list(wall_time(_policy(0), "watch"))
    assert found.level == "WARN"
    assert found.category == "budget" and found.subject == "watch"
    assert "over benchmark.budget.watch_ms 0 ms" in found.message
    assert found.reproduce == "MJ_TIMING=1 majordomus watch >/dev/null"


def test_within_the_budget_or_without_one_says_nothing() -> None:
    assert list(wall_time(_policy(10**9), "doctor")) == []
    assert list(wall_time(_policy(True), "doctor")) == []
    assert list(wall_time({}, "doctor")) == []
