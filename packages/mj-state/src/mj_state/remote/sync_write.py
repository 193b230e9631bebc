"""`mj-state remote-publish`: `sync`'s one write — the plan `mj-state remote-judge` made,
published in one `git push --atomic`.

Under this checkout's remote lock: the `claim.lost` lines the plan owes are appended first (so
they travel with this publish), the ledger is read again and its new lines since what the
remote holds become one commit on top of that (with the records they name), each claim update
one commit on top of the claim's; then one push swaps every ref from the value the facts saw.
A swap lost (the remote moved meanwhile) publishes nothing (15: run it again); a remote that
cannot be reached, nothing (12). Then the claims file and the mirror say what the remote holds.
"""

from __future__ import annotations

from mj_core import clock
from mj_core.errors import ContractUnmet
from mj_core.errors import Refused
from mj_core.git import where as gitwhere
from mj_core.stream.stage import Stage
from mj_policy.layer.loader import load

from mj_state import mirror
from mj_state.ledger import store as ledger
from mj_state.remote import claim_doc as claimdoc
from mj_state.remote import clone
from mj_state.remote import config as remoteconf
from mj_state.remote import held
from mj_state.remote import segment
from mj_state.remote import store
from mj_state.remote import transport

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context
    from mj_policy.layer.loader import Layer

    Record = dict[str, Any]


def write(layer: Layer, records: list[Record]) -> Iterator[Record]:
    plan = next((r for r in records if r.get("kind") == "remote" and r.get("view") == "plan"), None)
    yield from (r for r in records if r is not plan)
    if plan is None:
        return
    found = remoteconf.need(layer, "sync")
    ident = clone.clone_id(layer)
    ep = transport.endpoint(layer, found, fetching=False)
    with held.lock(layer):
        for lost in plan["lost"]:
            ledger.append(
                layer.root,
                layer.state,
                "claim.lost",
                {"ref": lost["ref"], "holder": lost["holder"]},
            )
        commits, updates, lines = _commits(layer, plan, ident)
        made = store.build(ep.store, commits)
        pushed = [
            transport.Update(ref, oid, expected)
            for (ref, expected), oid in zip(updates, made, strict=True)
        ]
        status = transport.push(ep, pushed) if pushed else {}
        for update in pushed:
            said = status.get(update.ref, "stale")
            if said in ("stale", "atomic"):
                raise Refused(
                    f"sync: {update.ref} moved on {ep.shown} since this sync read it; "
                    "nothing was published — run `majordomus sync` again"
                )
            if said != "ok":
                raise transport.refused(ep, update.ref, said)
        store.set_refs(ep.store, [(u.ref, u.new) for u in pushed])
        _remember(layer, plan, {u.ref: u.new for u in pushed}, lines)
    for update in plan["claims"]:
        yield {
            "kind": "remote",
            "view": "published",
            "ref": update["ref"],
            "action": update["action"],
        }
    ledger_ref = f"refs/majordomus/ledger/{ident}"
    yield {
        "kind": "remote",
        "view": "published",
        "ref": ledger_ref,
        "action": "ledger",
        "lines": lines[1],
    }


def _commits(
    layer: Layer, plan: Record, ident: str
) -> tuple[list[store.Commit], list[tuple[str, str]], tuple[Record, int]]:
    now = clock.now()
    mail = f"{ident}@majordomus.invalid"
    published = plan["ledger"]
    scan = ledger.scan(ledger.path(layer.state))
    told = {"count": published["count"], "last": published["last"], "commit": published["expected"]}
    where = segment.position(layer, scan, told if published["count"] else None)
    if where.differs is not None:
        raise ContractUnmet(
            "sync: the ledger changed under this sync (a line no longer matches what "
            "the remote holds); nothing was published — see `majordomus history --validate`"
        )
    commits: list[store.Commit] = []
    updates: list[tuple[str, str]] = []
    tip: Record = {"count": published["count"], "last": published["last"]}
    if where.new:
        _, head, branch = gitwhere.where(layer.root)
        tree, _ = segment.files_of(layer, where, ident, {"head": head, "branch": branch})
        first, last = where.count + 1, where.count + len(where.new)
        commits.append(
            store.Commit(
                tree,
                published["expected"] or None,
                f"ledger {ident} lines {first}-{last}",
                mail,
                now,
            )
        )
        updates.append((f"refs/majordomus/ledger/{ident}", published["expected"]))
        from mj_state.ledger import chain

        tip = {"count": last, "last": chain.digest(where.new[-1])}
    for update in plan["claims"]:
        ref = update["ref"]
        commits.append(
            store.Commit(
                {claimdoc.NAME: claimdoc.encode(update["claim"])},
                update["expected"] or None,
                f"claim {ref.removeprefix('refs/majordomus/')}",
                mail,
                now,
            )
        )
        updates.append((ref, update["expected"]))
    return commits, updates, (tip, len(where.new))


def _remember(layer: Layer, plan: Record, moved: dict[str, str], lines: tuple[Record, int]) -> None:
    """The claims file and the mirror after a publish: what the remote now holds."""
    claims = [c for c in held.read(layer) if c["ref"] not in plan["drop"]]
    claims = [c for c in claims if c["ref"] not in {lost["ref"] for lost in plan["lost"]}]
    for update in plan["claims"]:
        claims = [c for c in claims if c["ref"] != update["ref"]]
        if update["action"] != "release":
            claims.append(held.entry(update["ref"], update["claim"], "held", moved[update["ref"]]))
    held.write(layer, claims)
    snapshot = mirror.read(layer)
    if snapshot is None:
        return
    tip, count = lines
    ref = f"refs/majordomus/ledger/{snapshot.get('clone')}"
    if count and ref in moved:
        snapshot["ledger"] = {
            "ref": ref,
            "commit": moved[ref],
            "count": tip["count"],
            "last": tip["last"],
        }
    on = {c["ref"]: c for c in snapshot.get("claims") or []}
    for update in plan["claims"]:
        on[update["ref"]] = {
            "ref": update["ref"],
            "commit": moved[update["ref"]],
            "claim": update["claim"],
        }
    snapshot["claims"] = list(on.values())
    from mj_core.stream import jsonl
    from mj_core.write import atomic

    atomic.create(
        mirror.directory(layer) / mirror.MIRROR,
        jsonl.dumps(snapshot),
        mode=0o600,
        replace=True,
        root=layer.root,
    )


def _run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    records = list(context.records(options.input))
    yield from write(load(context.root()), records)


STAGES = {"remote-publish": Stage(_run)}
