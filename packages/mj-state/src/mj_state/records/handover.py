"""`mj-state handover`: an append-only continuation record, or the best prior one resolved.

Body on stdin (or `--derive`d): every `handover.required_sections` heading present with content
(placeholders like `<…>` are empty) else 10 naming the section; identity-like lines → 10; a
credential → 15 naming its line, unless `--redact` (a derived body is always redacted). No
active task needs `--no-task` (else 12). `--close` also ends the task as `handed_over`.
`--resolve` prints the record that applies here, or says there is none (exit 0).
"""

from __future__ import annotations

import argparse

from mj_core import clock
from mj_core.errors import MissingArtifact
from mj_core.stream.stage import Context
from mj_core.stream.stage import Stage
from mj_policy.layer.loader import Layer
from mj_policy.layer.loader import load

from mj_state.ledger import store as ledger
from mj_state.records import bodies
from mj_state.records import derive
from mj_state.records import prune
from mj_state.records import resolve
from mj_state.records import writing

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    Record = dict[str, Any]


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    layer = load(context.root())
    if prune.asked(options, "handover", ("derive", "close", "no_task", "resolve", "path")):
        yield prune.prune(layer, "handover", dry_run=options.dry_run)
        return
    if options.resolve:
        yield resolved(layer)
        return
    task = writing.active_here(layer)
    if task is None and not options.no_task:
        raise MissingArtifact(
            "no active task in this checkout — run `majordomus start`, or pass --no-task "
            "to hand over the episode without one"
        )
    body = derive.handover(layer, task) if options.derive else writing.stdin_body(context)
    redact = options.redact or options.derive  # a hook derives: nobody to refuse
    body = bodies.guarded(body, writing.STDIN, redact=redact)
    yield write(layer, task, body, close=options.close)


def write(layer: Layer, task: Record | None, body: str, *, close: bool) -> Record:
    """Check the body, publish, move checkpoint_at (and the outcome), append the ledger line."""
    required = [str(s) for s in layer.policy.data["handover"]["required_sections"]]
    bodies.refuse_identity(body, writing.STDIN)
    bodies.refuse_missing(body, required, writing.STDIN)
    closed = close and task is not None
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


def resolved(layer: Layer) -> Record:
    found = resolve.resolve(layer.root, layer.state, "handover")
    if found is None:
        return {"kind": "record", "action": "resolve", "path": None}
    return {
        "kind": "record",
        "action": "resolve",
        "path": layer.relative(found.path),
        "label": found.label,
        "created_at": found.front.get("created_at"),
        "task_id": found.front.get("task_id"),
        "head": str(found.front.get("head") or "")[:7],
        "body": found.body,
    }


STAGES = {"handover": Stage(run)}
