"""`mj-watch watch`: what has drifted in the work? Read-only, never a hook blocker. A judge over
`mj-watch facts --for watch`: it reads facts on stdin (or a file) and never the repository.

`CHECKS` is the ordered drift table (CLI-REFERENCE §2.7, then the additions of the watch
issue); each entry is (category, check). Every FAIL or WARN a check yields becomes DRIFT with
its reproduce command; a category with nothing to report gets one OK line. Watch's own wall
time over `benchmark.budget.watch_ms` is a WARN, never part of the exit code.
"""

from __future__ import annotations

from mj_core.findings import Finding
from mj_core.stream.stage import Context
from mj_core.stream.stage import Stage

from mj_watch.doctor.self_time import wall_time
from mj_watch.doctrine import context_check as contextcheck
from mj_watch.watch import drift_layer
from mj_watch.watch import drift_task
from mj_watch.watch.facts import WatchFacts

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable
    from collections.abc import Iterable
    from collections.abc import Iterator
    from typing import Any

    Check = Callable[[WatchFacts], Iterable[Finding]]

CHECKS: list[tuple[str, str, Check]] = [  # (category, what a clean result covers, check)
    ("policy", "projection stamps", drift_layer.policy),
    ("projection", "projection targets", drift_layer.projection),
    ("state", "task record", drift_task.state),
    ("scope", "touched files", drift_task.scope),
    ("handover", "handed-over task", drift_task.handover),
    ("verification", "terminal outcome", drift_task.verification),
    ("checkpoint", "checkpoint age", drift_task.checkpoint),
    ("activity", "task activity", drift_task.activity),
    ("retention", "ledger and record stores", drift_layer.retention),
    ("decisions", "decision log", drift_layer.decision_log),
    ("questions", "open questions", drift_layer.questions),
    ("ledger", "ledger lines", drift_layer.ledger),
    ("prompts", "prompt assets", contextcheck.prompt_assets),
    ("records", "checkpoints and handovers", drift_layer.foreign_records),
]


def drift(finding: Finding) -> Finding | None:
    """FAIL or WARN → DRIFT (its doctrine's exit code dropped); OK and INFO are not drift."""
    if finding.level in ("OK", "INFO"):
        return None
    f = finding
    return Finding("DRIFT", f.category, f.subject, f.message, f.reproduce, None)


def findings(facts: WatchFacts) -> Iterator[Finding]:
    for category, covered, check in CHECKS:
        found = [d for d in map(drift, check(facts)) if d is not None]
        yield from found
        if not found:
            yield Finding("OK", category, covered, "no drift")
    yield from wall_time(facts.loaded.policy.data, "watch")


def _run(options: argparse.Namespace, context: Context) -> Iterator[dict[str, Any]]:
    for finding in findings(WatchFacts(context.records(options.input))):
        yield finding.record()


STAGES = {
    "watch": Stage(_run),
}
