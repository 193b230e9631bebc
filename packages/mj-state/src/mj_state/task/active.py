"""This checkout's active task for the client hooks: the newest task's lines read with `json`
alone (`task.tail.light`), else by the full reader (`ledger.scan.task_rows`), derived as
`task.log.derive` derives it; no git process and no `pathlib` on the light path."""

from __future__ import annotations

import os

from mj_state.task import log as tasklog
from mj_state.task import tail as tasktail

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path


def active(root: str | Path) -> tasklog.Task | None:
    """This checkout's active task as the ledger records it, or None (no task, an ended one,
    one started in another checkout). Read with `light`, else with `ledger.scan`."""
    ledger = os.path.join(root, *tasktail.LEDGER)
    found = tasktail.light(ledger)
    if found is None:
        from pathlib import Path

        from mj_state.ledger import scan as ledgerscan

        found = ledgerscan.task_rows(Path(ledger))
    task = tasklog.derive(found)
    if task is None or not task.active:
        return None
    from mj_state.worktree_id import worktree_id

    started_in = task.fields.get("worktree_id")
    if started_in is not None and str(started_in) != worktree_id(root):
        return None
    return task
