"""`mj-state handover-facts`: what `mj-state handover-judge` judges, as facts.

One `handover-request` fact: this checkout's active task as the ledger records it (or none),
the body as piped on stdin or derived from the task, the ledger and git (or what stopped
reading it, with its exit code), the flags as given and the policy's required sections.
Nothing is judged here. `--prune` gathers the handover store instead (a `records-prune`
fact); `--resolve` is a reading: the record that applies here, passed on as it is.
"""

from __future__ import annotations

from mj_core.errors import MjError
from mj_core.stream.stage import Stage
from mj_policy.layer.loader import load

from mj_state.records import prune
from mj_state.records import writing

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context
    from mj_policy.layer.loader import Layer

    Record = dict[str, Any]

MODES = ("derive", "close", "no_task", "resolve", "path")


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    layer = load(context.root())
    if prune.asked(options, "handover", MODES):
        yield prune.survey(layer, "handover", dry_run=options.dry_run)
    elif options.resolve:
        yield resolved(layer)
    else:
        yield gather(layer, options, context)


def gather(layer: Layer, options: argparse.Namespace, context: Context) -> Record:
    task = writing.active_here(layer)
    body: str | None = None
    problem: Record | None = None
    try:
        if options.derive:
            from mj_state.records import derive

            body = derive.handover(layer, task)
        else:
            body = writing.stdin_body(context)
    except MjError as exc:
        problem = {"code": int(exc.code), "message": exc.message}
    flags = {name: bool(getattr(options, name, False)) for name in FLAGS}
    return request(layer, task, body, problem, **flags)


FLAGS = ("close", "no_task", "redact", "derive")


def request(
    layer: Layer,
    task: Record | None,
    body: str | None,
    problem: Record | None,
    *,
    close: bool,
    no_task: bool,
    redact: bool,
    derive: bool,
) -> Record:
    """The `handover-request` fact (the writer builds it again from what it reads itself)."""
    return {
        "kind": "fact",
        "fact": "handover-request",
        "task_id": str(task["id"]) if task is not None else None,
        "close": close,
        "no_task": no_task,
        "redact": redact,
        "derive": derive,
        "body": body,
        "body_problem": problem,
        "required": [str(s) for s in layer.policy.data["handover"]["required_sections"]],
    }


def resolved(layer: Layer) -> Record:
    """The prior handover that applies here (`mj_state.records.resolve`), or that none does."""
    from mj_state.records import resolve

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


STAGES = {"handover-facts": Stage(run)}
