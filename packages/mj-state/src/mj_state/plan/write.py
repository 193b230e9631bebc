"""What every plan writer shares (`mj_state.plan.start_write` for `plan start`,
`mj_state.plan.move_write` for `plan verify`, `plan evidence` and `plan done`; each is
facts | judge | writer): the warning for a clone lock its last holder never released, whether the
policy names a remote (whose claims a start takes and a done releases), and the next READY issue
each prints.

Every writer takes the clone's plan lock (`mj_state.plan.lock`, in git's common directory,
shared by the clone's worktrees) and `.ai/local/state/plan.lock`, gathers and judges again under
them, then appends its line to the issue file (every other byte stays as written) and publishes
the file atomically with its ledger line: both land or neither. No writer acts on a plan
holding a lifecycle marker that neither git nor this checkout's ledger holds (`plan.markers`,
10): a status moved by hand moves nothing further.
"""

from __future__ import annotations

from mj_policy.plan import status as derive

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    from mj_policy.plan import model as planmodel

    from mj_state.plan.lock import CloneLock

    Record = dict[str, Any]


def stale(shared: CloneLock) -> Iterator[Record]:
    """A WARN when the clone's plan lock was last held by a process killed while holding it."""
    from mj_core.findings import Finding

    left = shared.stale
    if left is not None:
        message = (
            f"the last holder (pid {left.get('pid')}, started {left.get('started') or '?'}, "
            f"worktree {left.get('worktree')}, since {left.get('since')}) ended without "
            "releasing it: taken over"
        )
        yield Finding("WARN", "plan", str(shared.home / "plan.lock"), message).record()


def remote_of(lay: Any) -> bool:
    from mj_state import mirror

    return mirror.configured(lay.policy.data)


def next_ready(model: planmodel.Model) -> Iterator[Record]:
    statuses = derive.issue_statuses(model)
    ready = [i for i in derive.ranked(model, list(model.issues)) if statuses[i] == "READY"]
    if ready:
        item = model.issues[ready[0]]
        yield {"kind": "plan", "view": "next", "id": item.id, "title": item.data["title"]}
