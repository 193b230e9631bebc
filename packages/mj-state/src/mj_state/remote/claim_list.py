"""`mj-state claims`: every claim known here, without the network — the remote's as of the last
sync (`mirror.json`, its age said) and this clone's own (`claims.json`: those not shared yet,
and those whose release waits for the next sync), one `remote` record each."""

from __future__ import annotations

from mj_core import clock
from mj_core.stream.stage import Stage
from mj_policy.layer.loader import load

from mj_state import mirror
from mj_state.remote import claim_doc as claimdoc
from mj_state.remote import config as remoteconf
from mj_state.remote import held

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context
    from mj_policy.layer.loader import Layer

    Record = dict[str, Any]


def listing(layer: Layer) -> Iterator[Record]:
    found = remoteconf.need(layer, "claims")
    now = clock.now()
    snapshot = mirror.read(layer)
    yield {
        "kind": "remote",
        "view": "mirror",
        "remote": found.name,
        "synced_at": snapshot.get("synced_at") if snapshot else None,
        "age": mirror.age(snapshot, now) if snapshot else None,
        "problems": len(snapshot.get("problems") or []) if snapshot else 0,
    }
    mine = {c["ref"]: c for c in held.read(layer)}
    clone = snapshot.get("clone") if snapshot else None
    for entry in sorted((snapshot or {}).get("claims") or [], key=lambda c: str(c.get("ref"))):
        own = mine.pop(entry["ref"], None)
        state = own.get("state") if own else None
        yield _row(entry["ref"], entry["claim"], (now, clone), "remote", state)
    for ref, entry in sorted(mine.items()):
        yield _row(ref, entry.get("claim") or {}, (now, clone), "local", entry.get("state"))


def _row(ref: str, doc: Record, here: tuple[int, object], source: str, local: object) -> Record:
    now, clone = here
    who = doc.get("who") or {}
    since = clock.parse_iso(str(doc.get("since")))
    state = str(doc.get("state"))
    if state == "held" and claimdoc.lapsed(doc, now):
        state = "lapsed"
    return {
        "kind": "remote",
        "view": "claim",
        "ref": ref,
        "what": (doc.get("what") or {}).get("type"),
        "id": (doc.get("what") or {}).get("id"),
        "state": state,
        "local": local,
        "mine": who.get("clone") == clone or source == "local",
        "clone": who.get("clone"),
        "branch": who.get("branch"),
        "task": doc.get("task"),
        "scope": doc.get("scope") or [],
        "since": doc.get("since"),
        "age_s": now - since if since is not None else None,
        "lease_until": doc.get("lease_until"),
        "source": source,
    }


def _run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    yield from listing(load(context.root()))


STAGES = {"claims": Stage(_run)}
