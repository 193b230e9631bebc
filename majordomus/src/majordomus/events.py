"""Ledger events a write stage owes: stages yield `{"kind": "event", ...}` records and the
dispatcher hands them to mj-state, which owns the ledger (mj-policy cannot depend on it)."""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import Any

    from majordomus.invocation import Invocation


def append(inv: Invocation, event: dict[str, Any]) -> None:
    from mj_state import ledger

    root = inv.root()
    payload = {k: v for k, v in event.items() if k not in ("kind", "event")}
    ledger.append(root, root / ".ai" / "local" / "state", str(event["event"]), payload)
