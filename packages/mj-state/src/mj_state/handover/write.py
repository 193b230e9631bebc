"""`mj-state handover-write`: the one write of `handover` — the verdict `mj-state
handover-judge` gave, written: a record under `state/handovers/`, its `task.handed_over`
ledger line, the task's `checkpoint_at` moved (and, closing, its outcome `handed_over`).

It passes the judge's stream on; a `handover` verdict becomes the write, a `records-prune`
verdict the move `mj_state.records.prune.carry_out` makes. It does not take a verdict on
trust: it reads this checkout's active task itself (the ledger's, never the stream's), builds
the request again from it and the policy's required sections, and judges it again
(`mj_state.handover.judge`): a refusal there is the command's, and a verdict that differs
(a task that is not the one active here, a close with none active, a body edited after
judging) writes nothing (15).
Identity in the front matter is git's, computed when the record is published.
"""

from __future__ import annotations

from mj_core import clock
from mj_core.errors import Refused
from mj_core.stream.stage import Stage
from mj_policy.layer.loader import load

from mj_state.handover import facts as handfacts
from mj_state.handover import judge as handjudge
from mj_state.ledger import store as ledger
from mj_state.records import writing

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_core.stream.stage import Context
    from mj_policy.layer.loader import Layer

    Record = dict[str, Any]


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    for record in context.records(options.input):
        action = record.get("action") if record.get("kind") == "verdict" else None
        if action == "handover":
            yield handover(load(context.root()), record)
        elif action == "records-prune":
            from mj_state.records import prune

            yield prune.carry_out(load(context.root()), record)
        else:
            yield record


def handover(layer: Layer, verdict: Record) -> Record:
    """The verdict judged again over this checkout's task now, then written."""
    task = writing.active_here(layer)
    here = str(task["id"]) if task is not None else None
    if verdict.get("task_id") != here and verdict.get("task_id") is not None:
        _refuse(here)
    again = handfacts.request(
        layer,
        task,
        str(verdict.get("body")),
        None,
        close=bool(verdict.get("closed")),
        no_task=verdict.get("task_id") is None,
        redact=False,
        derive=False,
    )
    if handjudge.judge(again) != verdict:
        _refuse(here)
    return write(layer, task, str(verdict["body"]), closed=bool(verdict["closed"]))


def _refuse(here: str | None) -> None:
    raise Refused(
        f"handover: the verdict is not what this checkout gives now (its active task: "
        f"{here or 'none'}); nothing was written"
    )


def write(layer: Layer, task: Record | None, body: str, *, closed: bool) -> Record:
    """Publish, move checkpoint_at (and the outcome), append the ledger line."""
    task_id = str(task["id"]) if task else None
    moment = clock.now()

    def line(path: Path, where: Record) -> None:
        payload = {"handover_path": layer.relative(path), "closed": closed}
        ledger.append(
            layer.root,
            layer.state,
            "task.handed_over",
            payload,
            task_id=task_id,
            where=where,
            moment=moment,
        )

    # the record stays only when its ledger line is written
    path, where = writing.publish(layer, "handover", task, body, then=line)
    if task is not None:
        changes = {"outcome": "handed_over"} if closed else {}
        writing.touch(layer, task, moment, where, **changes)
    return {
        "kind": "record",
        "action": "handover",
        "path": layer.relative(path),
        "task_id": task_id,
        "closed": closed,
    }


STAGES = {"handover-write": Stage(run)}
