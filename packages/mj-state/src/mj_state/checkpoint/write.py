"""`mj-state checkpoint-write`: the one write of `checkpoint` — the verdict `mj-state
checkpoint-judge` gave, written: a record under `state/checkpoints/` (none for an empty body),
its `task.checkpoint` ledger line, the active task's `checkpoint_at` moved; with a remote, the
leases this clone holds renewed once half run (`mj_state.remote.hooks.renew`).

It passes the judge's stream on; a `checkpoint` verdict becomes the write, a `records-prune`
verdict the move `mj_state.records.prune.carry_out` makes. It does not take a verdict on
trust: it reads this checkout's active task itself (the ledger's, never the stream's), builds
the request again from it and the policy's cap, and judges it again
(`mj_state.checkpoint.judge`): a refusal there is the command's, and a verdict that differs (a
task that is not the one active here, a body edited after judging) writes nothing (15).
Identity in the front matter is git's, computed when the record is published.
"""

from __future__ import annotations

from mj_core import clock
from mj_core.errors import Refused
from mj_core.stream.stage import Stage
from mj_policy.layer.loader import load

from mj_state.checkpoint import facts as pointfacts
from mj_state.checkpoint import judge as pointjudge
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
        if action == "checkpoint":
            layer = load(context.root())
            yield checkpoint(layer, record)
            yield from _renewed(layer)
        elif action == "records-prune":
            from mj_state.records import prune

            yield prune.carry_out(load(context.root()), record)
        else:
            yield record


def derived(root: Path) -> None:
    """`checkpoint --derive`'s three stages in one process, for the PreCompact hook: the body
    derived, judged, written (and the leases renewed); a refusal raised with its exit code."""
    layer = load(root)
    checkpoint(layer, pointjudge.judge(pointfacts.gather(layer, None, derive=True, redact=False)))
    for _ in _renewed(layer):
        pass


def checkpoint(layer: Layer, verdict: Record) -> Record:
    """The verdict judged again over this checkout's task now, then written."""
    task = writing.active_here(layer)
    here = str(task["id"]) if task is not None else None
    body = verdict.get("body")
    again = pointfacts.request(layer, task, body if isinstance(body, str) else None, None,
                               derive=False, redact=False)  # fmt: skip
    if pointjudge.judge(again) != verdict:
        raise Refused(
            f"checkpoint: the verdict is not what this checkout gives now (its active task: "
            f"{here or 'none'}); nothing was written"
        )
    return write(layer, task, str(verdict["body"]))


def _renewed(layer: Layer) -> Iterator[Record]:
    """With a remote: the leases this clone holds renewed once half run (`remote.hooks.renew`)."""
    if isinstance(layer.policy.data.get("remote"), dict):  # `mirror.configured`, no import
        from mj_state.remote import hooks

        yield from hooks.renew(layer)


def write(layer: Layer, task: Record | None, body: str) -> Record:
    """Publish (a body with lines), append the ledger line, move `checkpoint_at`."""
    from mj_state.records import bodies

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
    if bodies.line_count(body):  # the record stays only when its ledger line is written
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


STAGES = {"checkpoint-write": Stage(run)}
