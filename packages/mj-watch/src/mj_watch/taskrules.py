"""The task-and-ledger doctrines as registry validators, over the same judges `check` runs.

scope_integrity and checkpoint_freshness judge the active task of this checkout as the ledger
records it (none, or one from another worktree: nothing to judge); state_consistency judges the
task's copy against the ledger; ledger_integrity and question_lines judge the state files
whether or not a task is active.
"""

from __future__ import annotations

from mj_core.errors import MjError
from mj_core.findings import Finding
from mj_state import history
from mj_state import judge
from mj_state import taskstate

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    from mj_policy.layer import Layer

    from mj_watch.facts import Facts


def _situation(facts: Facts) -> tuple[Layer, taskstate.Situation] | None:
    layer = facts.layer
    if layer is None:
        return None
    return layer, taskstate.read(layer)


def _active(facts: Facts) -> tuple[Layer, dict[str, Any]] | None:
    """This checkout's active task as the ledger records it."""
    found = _situation(facts)
    if found is None:
        return None
    record = found[1].active_record()
    return None if record is None else (found[0], record)


def scope_integrity(facts: Facts) -> Iterator[Finding]:
    found = _active(facts)
    if found:
        yield from judge.scope_findings(*found)


def state_consistency(facts: Facts) -> Iterator[Finding]:
    """The copy of the task agrees with the ledger field by field and parses; the ledger's
    active task has not diverged from HEAD (doctor, check, finish: Decision 15)."""
    from mj_state import identity

    found = _situation(facts)
    if found is None:
        return
    layer, situation = found
    if situation.copy_problem is not None:
        yield judge.unreadable_copy(layer, situation.copy_problem)
    distrust = list(taskstate.copy_findings(layer, situation))
    yield from distrust
    record = situation.active_record()
    if record is not None:
        yield judge.state(layer, record, identity.position(layer.root))
    elif not distrust and situation.copy_problem is None:
        yield Finding("OK", "state", "current.yaml", "no active task; nothing to disagree on")


def checkpoint_freshness(facts: Facts) -> Iterator[Finding]:
    from mj_state import start

    found = _active(facts)
    if found:
        layer, record = found
        try:
            interval = start.interval(layer, str(record["profile"]))
        except MjError:
            return  # a missing or broken profile is the policy check's finding
        yield judge.checkpoint(layer, record, interval)


def ledger_integrity(facts: Facts) -> Iterator[Finding]:
    if facts.layer is not None:
        yield from history.validate(facts.layer)


def question_lines(facts: Facts) -> Iterator[Finding]:
    if facts.layer is not None:
        yield from judge.question_lines(facts.layer)
