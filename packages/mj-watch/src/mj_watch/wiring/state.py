"""The abstract state the hook proof walks with, and the outcomes of a step.

A state is (phase, flags, `$?`, whether the call ran in this round of a runner's loop). The
phase is PRE until the declared call runs and FAIL on the path where it failed. `$?` is one of
`wiring.commands.ZERO`, `NONZERO`, `FAILED` (the failing call's own status) or `ANY`.
"""

from __future__ import annotations

from mj_watch.wiring.commands import ANY
from mj_watch.wiring.commands import NONZERO
from mj_watch.wiring.commands import ZERO

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    State = tuple[int, int, int, bool]
    Out = tuple[int, State]  # (NEXT | EXIT | OK | BRK | CONT, the state it leaves)

PRE, FAIL = 0, 1
NEXT, EXIT, OK, BRK, CONT = 0, 1, 2, 3, 4


class Unproven(Exception):
    def __init__(self, line: int, reason: str, kind: str = "unproven") -> None:
        super().__init__(reason)
        self.line = line
        self.reason = reason
        self.kind = kind  # "unproven", or "swallow" when the call runs and its status is lost


def with_(st: State, status: int | None = None, called: bool | None = None) -> State:
    return (st[0], st[1], st[2] if status is None else status, st[3] if called is None else called)


def split(status: int) -> tuple[int, ...]:
    """The statuses a branch on `status` can see: ANY is both zero and non-zero."""
    return (ZERO, NONZERO) if status == ANY else (status,)


def negate(status: int) -> int:
    return ANY if status == ANY else NONZERO if status == ZERO else ZERO


def short(text: str) -> str:
    return text if len(text) <= 60 else text[:57] + "..."
