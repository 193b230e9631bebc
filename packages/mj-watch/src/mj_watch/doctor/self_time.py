"""A judge's own wall time against `benchmark.budget.<command>_ms`: WARN over it, never a FAIL.

The time runs from the start of the process (`mj_core.timing`'s clock), so it is what a hook
waiting on the command sees, interpreter start-up aside.
"""

from __future__ import annotations

from mj_core import timing
from mj_core.findings import Finding

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    from mj_watch.doctor.facts_view import Facts


def wall_time(policy: dict[str, Any], command: str) -> Iterator[Finding]:
    key = f"{command}_ms"
    budget = ((policy.get("benchmark") or {}).get("budget") or {}).get(key)
    if not isinstance(budget, int) or isinstance(budget, bool):
        return
    spent = timing.elapsed_ms()
    if spent <= budget:
        return
    message = (
        f"own wall time {spent:.0f} ms, over benchmark.budget.{key} {budget} ms "
        "— the phases: MJ_TIMING=1"
    )
    reproduce = f"MJ_TIMING=1 majordomus {command} >/dev/null"
    yield Finding("WARN", "budget", command, message, reproduce)


def doctor_budget(facts: Facts) -> Iterator[Finding]:
    """Doctor's last check: its own wall time so far against `benchmark.budget.doctor_ms`."""
    if facts.layer is not None:
        yield from wall_time(facts.layer.policy.data, "doctor")
