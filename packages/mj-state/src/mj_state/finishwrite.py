"""`mj-state record`: the one write of `finish` — the verdict `mj-watch finish` gave, recorded.

It passes the judge's stream on; a `verdict` record of a met contract (and only that) becomes
the write: the completion note copied, `task.finished` appended (with the verified tree), the
task's copy written anew. An upstream that stopped, or a refused contract, writes nothing.
"""

from __future__ import annotations

from mj_core.stage import Context
from mj_core.stage import Stage
from mj_policy.layer import load

from mj_state import finishing
from mj_state import taskstate

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    Record = dict[str, Any]


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    arrived = list(context.records(options.input))
    for record in arrived:
        if record.get("kind") != "verdict":
            yield record
            continue
        yield _record(context, record)


def _record(context: Context, verdict: Record) -> Record:
    from mj_core.errors import Refused

    layer = load(context.root())
    task = taskstate.read(layer).active_record()
    if task is None or task["id"] != verdict["task"]["id"]:
        raise Refused("finish: the task judged is not this checkout's active task; nothing written")
    written = finishing.record(
        layer,
        task,
        outcome=str(verdict["outcome"]),
        contract=dict(verdict["contract"]),
        run=verdict.get("run"),
        note_text=str(verdict["note_text"]),
    )
    return {
        "kind": "record",
        "action": "finished",
        "task_id": task["id"],
        "outcome": verdict["outcome"],
        "blocking": [],
        **written,
    }


STAGES = {"record": Stage(run)}
