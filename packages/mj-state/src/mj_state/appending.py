"""`mj-state log`: the writer of the ledger lines a stream owes.

A stage that cannot write the ledger (mj-policy's `update` and `vendor-update`) yields each
line it owes as an `append` record; this stage, after the whole stream has arrived complete,
appends them in order (one chained line each, `mj_state.ledger.store`) and passes every other
record on, so the printed pipeline does the same writes as the command.
"""

from __future__ import annotations

from mj_core.stream.stage import Context
from mj_core.stream.stage import Stage

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    Record = dict[str, Any]


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    arrived = list(context.records(options.input))  # an upstream that stopped writes nothing
    if not any(record.get("kind") == "append" for record in arrived):
        yield from arrived  # nothing owed (`update --check`): the ledger is not even imported
        return
    from mj_policy.layer import loader as layer_mod

    from mj_state.ledger import store as ledger

    root = context.root()
    if not (root / layer_mod.MANIFEST).is_file():  # the stage before read the whole layer;
        raise layer_mod.absent(root)  # a line needs only the layer's place (12 without one)
    state = root / ".ai" / "local" / "state"  # `Layer.state`: fixed by the layout
    for record in arrived:
        if record.get("kind") != "append":
            yield record
            continue
        payload = {k: v for k, v in record.items() if k not in ("kind", "event", "task_id")}
        event = str(record["event"])
        if event == "knowledge.promoted":  # a person's act: never inside a task, named by git
            from mj_state.records import promote as promoting

            promoting.refuse_while_active(root, "knowledge.promoted")
            payload["promoted_by"] = promoting.promoter(root)
        ledger.append(root, state, event, payload, task_id=record.get("task_id"))
        yield {"kind": "record", "action": "appended", "event": event}


STAGES = {"log": Stage(run)}
