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
from mj_state.task import judge
from mj_state.task import state as taskstate

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    from mj_policy.layer.loader import Layer

    from mj_watch.doctor.facts_view import Facts


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
    from mj_state.task import scope
    from mj_state.task.place import Place

    known = _situation(facts)
    if known is None:
        return
    layer, situation = known
    record = situation.active_record()
    if record is None:  # an ended task's recorded violations stay visible
        yield from judge.recorded_scope(Place.of(layer), situation)
        return
    touched, writes = scope.touched_and_writes(layer, str(record["head"]))
    yield from judge.scope_findings(Place.of(layer), record, touched, writes)


def state_consistency(facts: Facts) -> Iterator[Finding]:
    """The copy of the task agrees with the ledger field by field and parses; the ledger's
    active task has not diverged from HEAD (doctor, check, finish: Decision 15). Judged over
    the `situation` and `git` facts."""
    if facts.layer is None:
        return
    from mj_state.task.place import Place

    told = facts.get("git")
    situation = taskstate.Situation.from_fact(facts.get("situation"))
    place = Place.of(facts.layer)
    if situation.copy_problem is not None:
        yield judge.unreadable_copy(place, situation.copy_problem)
    distrust = list(taskstate.copy_findings(place, situation))
    yield from distrust
    record = situation.active_record()
    if record is not None:
        yield judge.state(record, str(told.get("label")), dict(told.get("here") or {}))
    elif not distrust and situation.copy_problem is None:
        yield Finding("OK", "state", "current.yaml", "no active task; nothing to disagree on")


def recorded_scope(facts: Facts) -> Iterator[Finding]:
    """Doctor's WARN for this checkout's ended task whose finish recorded paths outside its
    scope (an abandoning outcome), judged over the `situation` fact."""
    if facts.layer is None:
        return
    from mj_state.task.place import Place

    situation = taskstate.Situation.from_fact(facts.get("situation"))
    yield from judge.recorded_scope(Place.of(facts.layer), situation)


def checkpoint_freshness(facts: Facts) -> Iterator[Finding]:
    from mj_state.task import start_facts

    found = _active(facts)
    if found:
        layer, record = found
        try:
            interval = start_facts.interval(layer, str(record["profile"]))
        except MjError:
            return  # a missing or broken profile is the policy check's finding
        from mj_core import clock
        from mj_state.task.place import Place

        yield judge.checkpoint(Place.of(layer), record, interval, clock.now())


def ledger_integrity(facts: Facts) -> Iterator[Finding]:
    """Every malformed line and the hash chain, judged over the `ledger` fact."""
    if facts.layer is not None:
        from mj_state.ledger import chain
        from mj_state.ledger import store as ledger

        told = facts.get("ledger")
        rows: list[tuple[int, bytes, bool]] = [(0, b"", True)] * int(told.get("count") or 0)
        problems = [(int(n), str(why)) for n, why in told.get("problems") or []]
        verdict = chain.Verdict.from_fact(told.get("chain") or {})
        yield from history.validate(facts.layer, ledger.Scan(rows, [], problems, verdict))


def question_lines(facts: Facts) -> Iterator[Finding]:
    """The open-questions file's lines, judged over the `questions` fact."""
    from mj_state.task.place import Place

    if facts.layer is not None:
        told = facts.get("questions")
        text, problem = told.get("text"), told.get("problem")
        yield from judge.question_lines(Place.of(facts.layer), text, problem)


def state_identity(facts: Facts) -> Iterator[Finding]:
    """Whether the state here is this checkout's (`mj_state.state_id`): gone while git's config
    binds it, or carried over from another clone, is a FAIL."""
    told = facts.facts.get("state-identity")
    if told:
        from mj_state import state_id as stateid

        yield from stateid.findings(told)
