"""`mj-state check`: is the active task consistent with policy, scope and git?

Read-only, except `--checkpoint`, which after the checks moves `checkpoint_at` and appends one
`task.checkpoint` line. No active task → 12; a record that does not parse → one FAIL.
"""

from __future__ import annotations

import argparse

from mj_core import clock
from mj_core.errors import MissingArtifact
from mj_core.errors import Refused
from mj_core.findings import Finding
from mj_core.stage import Context
from mj_core.stage import Stage
from mj_policy.layer import Layer
from mj_policy.layer import load

from mj_state import explain
from mj_state import judge
from mj_state import ledger
from mj_state import overlap
from mj_state import start
from mj_state import tasks
from mj_state import taskstate
from mj_state import writing

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    Record = dict[str, Any]


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    layer = load(context.root())
    situation = taskstate.read(layer)
    record = situation.active_record()
    if record is None:
        yield from _without_task(layer, situation)
        if options.checkpoint:
            raise Refused("check --checkpoint: no active task of this checkout; nothing written")
        return
    if options.explain:
        yield from explain.sections(layer, record)
        return
    if options.overlap:
        yield from _overlap(layer, list(record["scope"]))
        return
    interval = start.interval(layer, str(record["profile"]))
    yield from (f.record() for f in judge.all_findings(layer, record, interval, situation))
    if options.checkpoint:
        yield checkpoint(layer, record)


def _without_task(layer: Layer, situation: taskstate.Situation) -> Iterator[Record]:
    """No active task here by the ledger: a copy that says otherwise is a FAIL, one from
    another checkout is reported, and with nothing at all there is nothing to check (12)."""
    trust = [*taskstate.copy_findings(layer, situation)]
    if situation.copy_problem is not None:
        trust.insert(0, judge.unreadable_copy(layer, situation.copy_problem))
    if trust:
        yield from (finding.record() for finding in trust)
        return
    foreign = judge.foreign(layer, situation)
    if foreign is not None:
        yield foreign.record()
        yield from (f.record() for f in judge.question_lines(layer))
        yield from (f.record() for f in judge.ledger_lines(layer, situation))
        return
    own = situation.own
    if own is None:
        raise MissingArtifact("no active task in this checkout — run `majordomus start`")
    raise MissingArtifact(f"no active task: {own.id} ended {own.outcome} — run `majordomus start`")


def _overlap(layer: Layer, scope: list[str]) -> Iterator[Record]:
    found = 0
    for finding in overlap.report(layer.root, scope):
        found += 1
        yield finding.record()
    if not found:
        others = len(overlap.other_worktrees(layer.root))
        message = f"none of {others} other worktree(s) claims or has touched it"
        yield Finding("OK", "overlap", ",".join(scope), message).record()


def active(layer: Layer) -> Record:
    """The active task as the ledger records it; none (or an ended one) → 12."""
    situation = taskstate.read(layer)
    record = situation.active_record()
    if record is not None:
        return record
    own = situation.own
    if own is None:
        raise MissingArtifact("no active task in this checkout — run `majordomus start`")
    raise MissingArtifact(f"no active task: {own.id} ended {own.outcome} — run `majordomus start`")


def checkpoint(layer: Layer, record: Record) -> Record:
    """Append `task.checkpoint` and write the copy again from the ledger's task (so this is
    also how a copy that went missing or was edited is put right)."""
    moment = clock.now()
    ledger.append(
        layer.root, layer.state, "task.checkpoint", {}, task_id=str(record["id"]), moment=moment
    )
    record = writing.touch(layer, record, moment)
    return {
        "kind": "record",
        "action": "checkpoint",
        "path": layer.relative(tasks.current_path(layer)),
        "checkpoint_at": record["checkpoint_at"],
    }


STAGES = {"check": Stage(run)}
