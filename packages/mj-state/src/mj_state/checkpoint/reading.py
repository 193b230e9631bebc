"""`checkpoint --show` and `--list`: the newest checkpoint that applies here, and this
worktree's checkpoints, as records (a reading: nothing is judged, nothing written)."""

from __future__ import annotations

from mj_state.records import resolve

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    from mj_policy.layer.loader import Layer

    from mj_state.records.store import Record as StoredRecord

    Record = dict[str, Any]


def read(layer: Layer, *, listing: bool) -> Iterator[Record]:
    if listing:
        for found in resolve.this_worktree(layer.root, layer.state, "checkpoint"):
            yield listed(layer, found)
    else:
        yield shown(layer, resolve.resolve(layer.root, layer.state, "checkpoint"))


def shown(layer: Layer, found: StoredRecord | None) -> Record:
    if found is None:
        return {"kind": "record", "action": "show", "path": None}
    return {**listed(layer, found), "action": "show", "body": found.body}


def listed(layer: Layer, found: StoredRecord) -> Record:
    return {
        "kind": "record",
        "action": "listed",
        "path": layer.relative(found.path),
        "label": found.label,
        "created_at": found.front.get("created_at"),
        "task_id": found.front.get("task_id"),
        "head": str(found.front.get("head") or "")[:7],
    }
