"""`mj-state checkpoint-facts`: what `mj-state checkpoint-judge` judges, as one fact.

One `checkpoint-request` fact: this checkout's active task as the ledger records it (or none),
the body as piped on stdin or derived from git and the ledger (or what stopped reading it,
with its exit code), `--derive` and `--redact` as given, and `checkpoint.max_body_lines`.
Nothing is judged here. `--prune` gathers the checkpoint store instead (a `records-prune`
fact); `--show` and `--list` are readings (`mj_state.checkpoint.reading`), passed on as they
are.
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

MODES = ("derive", "show", "list")


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    layer = load(context.root())
    if prune.asked(options, "checkpoint", MODES):
        yield prune.survey(layer, "checkpoint", dry_run=options.dry_run)
    elif options.show or options.list:
        from mj_state.checkpoint import reading

        yield from reading.read(layer, listing=bool(options.list))
    else:
        yield gather(layer, context, derive=bool(options.derive), redact=bool(options.redact))


def gather(layer: Layer, context: Context | None, *, derive: bool, redact: bool) -> Record:
    """The request for the body piped on `context`'s stdin, or derived (`context` unused)."""
    task = writing.active_here(layer)
    body: str | None = None
    problem: Record | None = None
    try:
        if derive or context is None:
            from mj_state.records import derive as deriving

            body = deriving.checkpoint(layer, task)
        else:
            body = writing.stdin_body(context)
    except MjError as exc:
        problem = {"code": int(exc.code), "message": exc.message}
    return request(layer, task, body, problem, derive=derive or context is None, redact=redact)


def request(
    layer: Layer,
    task: Record | None,
    body: str | None,
    problem: Record | None,
    *,
    derive: bool,
    redact: bool,
) -> Record:
    """The `checkpoint-request` fact (the writer builds it again from what it reads itself)."""
    return {
        "kind": "fact",
        "fact": "checkpoint-request",
        "task_id": str(task["id"]) if task is not None else None,
        "derive": derive,
        "redact": redact,
        "body": body,
        "body_problem": problem,
        "max_body_lines": int(layer.policy.data["checkpoint"]["max_body_lines"]),
    }


STAGES = {"checkpoint-facts": Stage(run)}
