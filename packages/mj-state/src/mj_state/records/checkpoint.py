"""`mj-state checkpoint`: a short progress note, quotable whole by the next briefing.

Body on stdin (or `--derive`d from git and the ledger). Over `checkpoint.max_body_lines` → 10
with advice to write a handover; never truncated. A credential in it refuses the write (15)
unless `--redact` (a derived body is always redacted: a hook writes it). An empty body writes no
file: only the active task's `checkpoint_at` moves. Works with or without an active task
(Decision 4).
"""

from __future__ import annotations

import argparse

from mj_core import clock
from mj_core.errors import ContractUnmet
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
from mj_state.records.store import Record as StoredRecord

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    Record = dict[str, Any]


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    layer = load(context.root())
    if prune.asked(options, "checkpoint", ("derive", "show", "list")):
        yield prune.prune(layer, "checkpoint", dry_run=options.dry_run)
    elif options.show:
        yield shown(layer, resolve.resolve(layer.root, layer.state, "checkpoint"))
    elif options.list:
        for found in resolve.this_worktree(layer.root, layer.state, "checkpoint"):
            yield listed(layer, found)
    else:
        task = writing.active_here(layer)
        body = derive.checkpoint(layer, task) if options.derive else writing.stdin_body(context)
        redact = options.redact or options.derive  # a hook derives: nobody to refuse
        yield write(layer, task, bodies.guarded(body, writing.STDIN, redact=redact))
        yield from _renewed(layer)


def _renewed(layer: Layer) -> Iterator[Record]:
    """With a remote: the leases this clone holds renewed once half run (`remote.hooks.renew`)."""
    if isinstance(layer.policy.data.get("remote"), dict):  # `mirror.configured`, no import
        from mj_state.remote import hooks

        yield from hooks.renew(layer)


def write(layer: Layer, task: Record | None, body: str) -> Record:
    cap = int(layer.policy.data["checkpoint"]["max_body_lines"])
    count = bodies.line_count(body)
    if count > cap:
        raise ContractUnmet(
            f"{writing.STDIN}: {count} lines, over checkpoint.max_body_lines {cap} — nothing "
            "written; a note this long is a handover: `majordomus handover < body.md`"
        )
    moment = clock.now()
    task_id = str(task["id"]) if task else None

    def line(path: Path | None, where: Record | None) -> None:
        payload = {"checkpoint_path": layer.relative(path)} if path else {}
        ledger.append(
            layer.root,
            layer.state,
            "task.checkpoint",
            payload,
            task_id=task_id,
            where=where,
            moment=moment,
        )

    path, where = None, None
    if count:  # the record stays only when its ledger line is written
        path, where = writing.publish(layer, "checkpoint", task, body, then=line)
    elif task is not None:
        line(None, None)
    if task is not None:
        task = writing.touch(layer, task, moment, where)
    return {
        "kind": "record",
        "action": "checkpoint",
        "path": layer.relative(path) if path else None,
        "task_id": str(task["id"]) if task else None,
        "checkpoint_at": task["checkpoint_at"] if task else None,
    }


def shown(layer: Layer, found: StoredRecord | None) -> Record:
    if found is None:
        return {"kind": "record", "action": "show", "path": None}
    return {**listed(layer, found), "action": "show", "body": found.body}


def listed(layer: Layer, found: StoredRecord) -> Record:
    return {
        "kind": "record",
        "action": "listed",
        "path": layer.relative(found.path),
        "label": found.label,
        "created_at": found.front.get("created_at"),
        "task_id": found.front.get("task_id"),
        "head": str(found.front.get("head") or "")[:7],
    }


STAGES = {"checkpoint": Stage(run)}
