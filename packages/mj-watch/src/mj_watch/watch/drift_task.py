"""Drift in the task of this checkout: state, scope, handover, verification, checkpoint, activity.

Each check is `check`'s own judgement where one exists (`mj_state.task.judge`), plus the few that
compare the task's copy with the ledger's record and the handovers. Findings come back at
their native level; `watch` turns every FAIL or WARN into DRIFT.
"""

from __future__ import annotations

import shlex

from mj_core import clock
from mj_core.findings import Finding
from mj_state.records import bodies
from mj_state.task import judge
from mj_state.task import state as taskstate

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    from mj_watch.watch.facts import WatchFacts

    Task = dict[str, Any]

TERMINAL = ("completed", "partial", "blocked", "no_match", "failed")
LIFECYCLE = ("task.started", "task.finished", "task.handed_over")


def _own(facts: WatchFacts) -> Task | None:
    """This checkout's task as the ledger records it."""
    return facts.situation.record()


def _lifecycle(facts: WatchFacts, task: str) -> list[tuple[int, dict[str, Any]]]:
    """Lines that set the outcome: start, finish, and a handover that closed the task."""
    return [
        (n, r)
        for n, r in facts.task_lines(task)
        if r.get("event") in LIFECYCLE and (r["event"] != "task.handed_over" or r.get("closed"))
    ]


def state(facts: WatchFacts) -> Iterator[Finding]:
    """The copy departing from the ledger (each field), a copy that does not parse, a task of
    another checkout (reported), an active task diverged from HEAD."""
    situation, place = facts.situation, facts.place
    if situation.copy_problem is not None:
        yield judge.unreadable_copy(place, situation.copy_problem)
    yield from taskstate.copy_findings(place, situation)
    foreign = judge.foreign(place, situation)
    if foreign is not None:
        yield foreign
        return
    record = situation.active_record()
    if record is not None:
        yield judge.state(record, facts.label, facts.now)


def verification(facts: WatchFacts) -> Iterator[Finding]:
    """A copy claiming an ended outcome the ledger has no `task.finished` line for."""
    copy = facts.situation.copy
    own = facts.situation.own
    if copy is None or own is None or copy.get("outcome") not in TERMINAL:
        return
    if any(r.get("event") == "task.finished" for _, r in _lifecycle(facts, own.id)):
        return
    task = own.id
    ledger = facts.place.ledger
    message = f"outcome {copy['outcome']} without a task.finished line — finish never ran"
    absent = shlex.quote(f"no task.finished line for {task}")
    reproduce = f"grep -n task.finished {shlex.quote(ledger)} | grep -F -e {task} || echo {absent}"
    yield Finding("FAIL", "verification", task, message, reproduce)


def scope(facts: WatchFacts) -> Iterator[Finding]:
    record = _own(facts)
    if record is not None and record["outcome"] == "active":
        yield from judge.scope_findings(facts.place, record, facts.touched, facts.writes)
        yield from claims(facts)


def checkpoint(facts: WatchFacts) -> Iterator[Finding]:
    record = _own(facts)
    if record is not None and record["outcome"] == "active":
        yield judge.checkpoint(facts.place, record, facts.interval, clock.now())


def activity(facts: WatchFacts) -> Iterator[Finding]:
    """An active task whose newest ledger line is older than its checkpoint interval."""
    record = _own(facts)
    if record is None or record["outcome"] != "active":
        return
    task = str(record["id"])
    stamps = [clock.parse_iso(str(r.get("ts"))) for _, r in facts.task_lines(task)]
    known = [s for s in stamps if s is not None]
    limit = clock.parse_duration(facts.interval) or 0
    if not known or clock.now() - max(known) <= limit:
        return
    ledger = facts.place.ledger
    message = f"last ledger line {clock.iso(max(known))}, older than the interval {facts.interval}"
    reproduce = f"grep -nF -e {task} {shlex.quote(ledger)} | tail -n 1; date -u +%Y-%m-%dT%H:%M:%SZ"
    yield Finding("WARN", "activity", task, message, reproduce)


def handover(facts: WatchFacts) -> Iterator[Finding]:
    """A task handed over needs a handover naming it, with every required section."""
    record = _own(facts)
    if record is None or record["outcome"] != "handed_over":
        return
    task = str(record["id"])
    told = facts.get("handover")
    found = told.get("found")
    if found is None:
        shown = str(told.get("folder"))
        message = "handed_over, but no handover record names the task"
        absent = shlex.quote(f"no handover names {task}")
        reproduce = f"grep -rlF -e 'task_id: {task}' {shlex.quote(shown)} || echo {absent}"
        yield Finding("FAIL", "handover", task, message, reproduce)
        return
    required = [str(s) for s in facts.loaded.policy.data["handover"]["required_sections"]]
    missing = bodies.missing_sections(str(found.get("body") or ""), required)
    if missing:
        name = str(found.get("path"))
        message = f"{name} lacks {', '.join(missing)}"
        yield Finding("FAIL", "handover", task, message, f"grep -n '^# ' {shlex.quote(name)}")


def claims(facts: WatchFacts) -> Iterator[Finding]:
    """Other clones' claims, as of the last sync, that meet the active task's scope."""
    record = _own(facts)
    told = facts.facts.get("remote-mirror")
    if record is not None and record["outcome"] == "active" and told is not None:
        from mj_state import mirror

        yield from mirror.overlap_findings(told, list(record["scope"]))
