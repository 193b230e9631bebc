"""How many ledger lines `history --rotate` moves, and which it may not: one rule, read by the
rotation itself and by the retention check that names it as the fix, so a FAIL the check
reports is one the rotation clears.

The lines counted against `ledger.retention_max_lines` are the file's lines after its seal
(the first line, once a rotation has written one: it stands for the archive, not for events).
A rotation leaves the newest `cap` of them, its own `ledger.rotated` line included, and never
moves the active task's lines (from its `task.started` on), so the task stays provable from
the file. Over the cap with nothing movable is the active task holding its lines: they move
once it ends. Pure: parsed values in, counts out.
"""

from __future__ import annotations

from mj_state.ledger.chain import SEAL

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import Any


def sealed(values: list[Any]) -> bool:
    """Whether the file opens with a seal line."""
    return bool(values) and type(values[0]) is dict and values[0].get("event") == SEAL


def held_from(values: list[Any]) -> int | None:
    """The index of the active task's `task.started` line (None: no task is active): the
    newest start, unless a later line of its task ends it. Read from the end: a ledger's
    newest start is near it."""
    for index in range(len(values) - 1, -1, -1):
        value = values[index]
        if type(value) is dict and value.get("event") == "task.started":
            break
    else:
        return None
    task = value.get("task_id")
    for later in values[index + 1 :]:
        if type(later) is dict and later.get("task_id") == task and _ends(later):
            return None
    return index


def _ends(value: dict[str, Any]) -> bool:
    return value.get("event") == "task.finished" or (
        value.get("event") == "task.handed_over" and bool(value.get("closed"))
    )


def counted(lines: int, *, is_sealed: bool) -> int:
    """The lines counted against the cap: all but a seal."""
    return max(0, lines - (1 if is_sealed else 0))


def movable(lines: int, cap: int, *, is_sealed: bool, held: int | None) -> int:
    """How many lines after the seal a rotation moves: enough that the newest `cap` remain
    with its own `ledger.rotated` line, none from the active task's start on; 0 within the
    cap."""
    start = 1 if is_sealed else 0
    body = counted(lines, is_sealed=is_sealed)
    if body <= cap:
        return 0
    wanted = min(body, body - cap + 1)
    if held is not None:
        wanted = min(wanted, held - start)
    return max(0, wanted)
