"""`mj-state check`: the judge of the active task, over `mj-state facts --for check`; and
`mj-state touch`, the one write of `check --checkpoint`.

The judge reads facts on stdin (or a file) and never the repository: the task is the ledger's,
its copy is compared with it, scope, checkpoint age, blockers, question lines and the ledger
are judged from what the facts stage gathered. No active task → 12 (a copy that says
otherwise, or one from another checkout, is reported first). `touch` passes the judge's
findings on, then moves `checkpoint_at` (one `task.checkpoint` line, the copy written anew from
the ledger) — refused (15) with no active task of this checkout.
"""

from __future__ import annotations

import argparse

from mj_core import clock
from mj_core.errors import MissingArtifact
from mj_core.errors import Refused
from mj_core.findings import Finding
from mj_core.stream.stage import Context
from mj_core.stream.stage import Stage

from mj_state.task import explain
from mj_state.task import judge
from mj_state.task import state as taskstate

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    Record = dict[str, Any]


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    facts = judge.Facts(context.records(options.input))
    situation = facts.situation
    if situation is None:
        raise MissingArtifact("check: the facts carry no situation — `mj-state facts --for check`")
    record = situation.active_record()
    if record is None:
        yield from (finding.record() for finding in _without_task(facts, situation))
        return
    if options.explain:
        items = facts.get("doctrines").get("items") or []
        yield from explain.sections(record, facts.get("profile"), facts.place.policy, items)
        return
    if options.overlap:
        yield from _overlap(facts, list(record["scope"]))
        return
    yield from (f.record() for f in judge.all_findings(facts, record))


def _overlap(facts: judge.Facts, scope: list[str]) -> Iterator[Record]:
    found = facts.get("overlap")
    yield from found.get("findings") or []
    yield from (f.record() for f in judge.remote_overlap(facts, scope))
    if not found.get("findings"):
        message = f"none of {found.get('others', 0)} other worktree(s) claims or has touched it"
        yield Finding("OK", "overlap", ",".join(scope), message).record()


def _without_task(facts: judge.Facts, situation: taskstate.Situation) -> Iterator[Finding]:
    """No active task here by the ledger: a copy that says otherwise is a FAIL, one from
    another checkout is reported, and with nothing at all there is nothing to check (12)."""
    place = facts.place
    trust = [*taskstate.copy_findings(place, situation)]
    if situation.copy_problem is not None:
        trust.insert(0, judge.unreadable_copy(place, situation.copy_problem))
    if trust:
        yield from trust
        ledger = facts.get("ledger")  # a malformed line may be why the ledger started nothing
        problems = ledger.get("problems") or []
        yield from judge.ledger_lines(place, int(ledger.get("count") or 0), problems, situation)
        return
    foreign = judge.foreign(place, situation)
    if foreign is not None:
        told, ledger = facts.get("questions"), facts.get("ledger")
        yield foreign
        yield from judge.question_lines(place, told.get("text"), told.get("problem"))
        count, problems = int(ledger.get("count") or 0), ledger.get("problems") or []
        yield from judge.ledger_lines(place, count, problems, situation)
        return
    own = situation.own
    if own is None:
        raise MissingArtifact("no active task in this checkout — run `majordomus start`")
    raise MissingArtifact(f"no active task: {own.id} ended {own.outcome} — run `majordomus start`")


def touch(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    """Pass the stream on, then append `task.checkpoint` and write the copy again from the
    ledger's task (so this is also how a copy that went missing or was edited is put right)."""
    from mj_policy.layer.loader import load

    from mj_state.ledger import store as ledger
    from mj_state.records import writing
    from mj_state.task import record as tasks

    arrived = list(context.records(options.input))
    yield from arrived
    layer = load(context.root())
    record = taskstate.read(layer).active_record()
    if record is None:
        raise Refused("check --checkpoint: no active task of this checkout; nothing written")
    moment = clock.now()
    task_id = str(record["id"])
    ledger.append(layer.root, layer.state, "task.checkpoint", {}, task_id=task_id, moment=moment)
    record = writing.touch(layer, record, moment)
    yield {
        "kind": "record",
        "action": "checkpoint",
        "path": layer.relative(tasks.current_path(layer)),
        "checkpoint_at": record["checkpoint_at"],
    }


STAGES = {"check": Stage(run), "touch": Stage(touch)}
