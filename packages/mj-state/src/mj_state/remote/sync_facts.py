"""`mj-state remote-facts`: what `sync` judges, gathered — the remote fetched first.

One `git fetch` of `refs/majordomus/*` into the store (fetching is the mirror's write: the
store's refs and `mirror.json` are replaced by what the remote holds now), then facts: the
remote (`remote`), every claim on it and every ref that is not well formed (`remote-claims`),
this clone's published ledger against the ledger here (`remote-ledger`), and this clone's own
claims (`remote-held`). Judged by `mj-state remote-judge`; published by `mj-state
remote-publish`.
"""

from __future__ import annotations

from mj_core import clock
from mj_core.stream.stage import Stage
from mj_policy.layer.loader import load

from mj_state import mirror
from mj_state.ledger import store as ledger
from mj_state.remote import clone
from mj_state.remote import config as remoteconf
from mj_state.remote import held
from mj_state.remote import reading
from mj_state.remote import segment
from mj_state.remote import transport

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_core.stream.stage import Context
    from mj_policy.layer.loader import Layer

    from mj_state.ledger.scan import Scan

    Record = dict[str, Any]


def fact(which: str, /, **fields: Any) -> Record:
    return {"kind": "fact", "fact": which, **fields}


def gather(layer: Layer) -> Iterator[Record]:
    found = remoteconf.need(layer, "sync")
    ep = transport.endpoint(layer, found)  # a name git does not know: 12 before any write
    ident = clone.clone_id(layer)
    target = ledger.path(layer.state)
    scan = ledger.scan(target)
    with held.lock(layer):
        transport.fetch(ep)
        known = reading.read(ep.store, ident)
        where = segment.position(layer, scan, known.ledger)
        if known.ledger is None:  # never published as this clone: as whom it began, if anyone
            known.ledger, where = _began_as(layer, ep.store, ident, scan, where)
        snapshot = held.write_mirror(layer, found.name, ident, known)
        mine = held.read(layer)
    yield fact(
        "remote",
        name=found.name,
        url=transport.bare(ep.push_url),
        clone=ident,
        synced_at=snapshot["synced_at"],
        now=clock.now(),
        lease=found.lease,
    )
    yield fact("remote-claims", claims=known.claims, problems=known.problems)
    broken = [list(p) for p in scan.problems]
    if not scan.chain.ok and scan.chain.broken is not None:
        broken.append(list(scan.chain.broken))
    elif not scan.chain.ok:
        broken.append([0, str(scan.chain.tip_problem)])
    yield fact(
        "remote-ledger",
        ledger=layer.relative(target),
        published=known.ledger,
        new=len(where.new),
        differs=where.differs,
        broken=broken,
    )
    yield fact("remote-held", claims=mine)


def _began_as(
    layer: Layer, where: Path, ident: str, scan: Scan, position: segment.Position
) -> tuple[Record | None, segment.Position]:
    """Another clone's published ledger this one began as, when it no longer holds it (a
    rewrite under a new clone id, `remote.lineage`); else (None, `position`) unchanged."""
    from mj_state.remote import lineage

    local = mirror.sequence(layer.state, scan.rows)
    other = lineage.ancestor(where, ident, local[0][2]) if local else None
    if other is None:
        return None, position
    held_to = segment.position(layer, scan, other)
    return (other, held_to) if held_to.differs is not None else (None, position)


def _run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    yield from gather(load(context.root()))


STAGES = {"remote-facts": Stage(_run)}
