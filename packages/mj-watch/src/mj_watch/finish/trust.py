"""Whether a finish can trust the task's record, judged over the finish fact's `trust` block.

The facts stage gathers what the record is (the situation without its lines, the ledger's
malformed lines, the state directory); this judges it: a copy that does not parse or that
departs from the ledger, a malformed line among the task's, a hash chain over them that does
not hold. Each is a FAIL of the state doctrine whatever the outcome claimed. Nothing here
opens a file.
"""

from __future__ import annotations

from mj_core.findings import Finding
from mj_state.ledger import chain
from mj_state.task import state as taskstate
from mj_state.task.place import Place

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import Any

    Record = dict[str, Any]


def findings(block: Record) -> list[Finding]:
    """The FAILs that make the task's record untrustworthy, from a `trust` block."""
    place = Place.from_fact({"state": block["state"]})
    situation = taskstate.Situation.from_fact(block["situation"])
    found: list[Finding] = []
    if situation.copy_problem is not None:
        from mj_state.task import judge  # the copy's own verdict, only for one that does not parse

        found.append(judge.unreadable_copy(place, situation.copy_problem))
    found.extend(taskstate.copy_findings(place, situation))
    shown = place.ledger
    for number, reason in block.get("ledger_problems") or []:
        where = f"{shown}:{number}"
        found.append(Finding("FAIL", "ledger", where, reason, f"sed -n '{number}p' {shown}"))
    verdict = situation.scan.chain
    found.extend(f for f in chain.findings(verdict, shown) if f.level == "FAIL")
    return found
