"""Whose published ledger this one began as, when this clone id has published nothing yet.

A clone id is made once, under `.ai/local/remote/`; removing that directory makes the checkout
a clone the remote has never seen, with nothing of its own to be held to. Its ledger is still
the one it was: its first line is the first line another clone id published. `ancestor` finds
that published ledger (the root commit of each other clone's ref, its first line compared), so
`sync` holds the ledger to it as to its own: a rewritten one is refused, naming that ref.

Read only on a clone's first publish, from the store the fetch filled; each root's
`lines.jsonl` is sized before it is read.
"""

from __future__ import annotations

from mj_core import limits

from mj_state.remote import layout
from mj_state.remote import reading
from mj_state.remote import store

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    Record = dict[str, Any]


def ancestor(where: Path, clone: str, first: bytes) -> Record | None:
    """{ref, commit, count, last} of another clone's published ledger whose first line is
    `first`; None when there is none."""
    others = {}
    for name, oid, kind in store.refs(where):
        parsed = layout.parse(name)
        if kind == "commit" and parsed is not None and parsed[0] == "ledger" and parsed[1] != clone:
            others[name] = oid
    if not others:
        return None
    fmt = "--format=%H%x00%S"
    code, out, _ = store.run(where, "log", "--source", "--max-parents=0", fmt, *sorted(others))
    roots = [line.split("\0") for line in out.decode("ascii", "replace").splitlines()]
    for root, ref in (r for r in roots if code == 0 and len(r) == 2 and r[1] in others):
        if _first_line(where, f"{root}:{reading.LINES}", limits.LEDGER[0]) == first:
            return _tip(where, ref, others[ref])
    return None


def _first_line(where: Path, spec: str, limit: int) -> bytes | None:
    data = _capped(where, spec, limit)
    return data.split(b"\n", 1)[0] if data is not None else None


def _capped(where: Path, spec: str, limit: int) -> bytes | None:
    size = store.sizes(where, [spec])[0]
    if size is None or size[0] != "blob" or size[1] > limit:
        return None
    return store.contents(where, [spec])[0]


def _tip(where: Path, ref: str, commit: str) -> Record | None:
    data = _capped(where, f"{commit}:{reading.TIP}", reading.TIP_LIMIT)
    tip = reading.parse_tip(data) if data is not None else None
    if tip is None:
        return None
    return {"ref": ref, "commit": commit, "count": tip["count"], "last": tip["last"]}
