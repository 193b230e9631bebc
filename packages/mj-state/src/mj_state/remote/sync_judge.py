"""`mj-state remote-judge`: `sync`'s judgement over `mj-state remote-facts` — pure.

FAIL (nothing is published) when the ledger no longer holds what the remote witnessed (the
first differing line named), when its chain is broken, or when a claim this clone took unshared
is held on the remote by another clone (both holders named). WARN for every remote ref that is
not well formed. Otherwise one `remote` record, the plan: the ledger's new lines, a renewal of
every claim this clone holds, the publication of its unshared claims, the release of those
whose task finished, and the claims another clone took over (each a `claim.lost` line).
"""

from __future__ import annotations

from mj_core import clock
from mj_core.errors import MissingArtifact
from mj_core.findings import Finding
from mj_core.stream.stage import Stage

from mj_state import mirror
from mj_state.remote import claim_doc as claimdoc

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]

HISTORY = "majordomus history --validate"


def judge(records: list[Record]) -> Iterator[Record]:
    facts = {r["fact"]: r for r in records if r.get("kind") == "fact"}
    for name in ("remote", "remote-claims", "remote-ledger", "remote-held"):
        if name not in facts:
            raise MissingArtifact(
                f"remote-judge: the facts carry no {name} fact — `mj-state remote-facts`"
            )
    remote, ledger = facts["remote"], facts["remote-ledger"]
    for problem in facts["remote-claims"].get("problems") or []:
        yield Finding(
            "WARN",
            "remote",
            str(problem["ref"]),
            f"{problem['why']}; not read",
            f"git --git-dir=.ai/local/remote/store.git cat-file -p {problem['ref']}",
        ).record()
    own = f"refs/majordomus/ledger/{remote['clone']}"
    for problem in facts["remote-claims"].get("problems") or []:
        if problem["ref"] == own:  # this clone's ledger is there, and is not one: never over it
            message = f"{problem['why']} — nothing is published over it; it needs a person's look"
            yield Finding(
                "FAIL", "witness", own, message, f"git ls-remote {remote['url']} {own}"
            ).record()
            return
    failed = list(_ledger_findings(remote, ledger))
    plan, found = _claims(
        remote, facts["remote-claims"].get("claims") or [], facts["remote-held"].get("claims") or []
    )
    failed += found
    yield from (f.record() for f in failed)
    if failed:
        return
    published = ledger.get("published") or {}
    plan["ledger"] = {
        "expected": published.get("commit") or "",
        "count": published.get("count") or 0,
        "last": published.get("last") or "",
        "new": ledger["new"],
    }
    yield plan


def _ledger_findings(remote: Record, ledger: Record) -> Iterator[Finding]:
    shown = str(ledger["ledger"])
    for number, why in ledger.get("broken") or []:
        yield Finding(
            "FAIL",
            "ledger",
            f"{shown}:{number}",
            f"{why} — a broken chain is never published",
            HISTORY,
        )
    differs = ledger.get("differs")
    if differs is not None:
        published = ledger.get("published") or {}
        fact = {
            "remote": remote["name"],
            "ref": published.get("ref"),
            "published": published.get("count"),
            "synced_at": remote["synced_at"],
            "holds": False,
            "differs": differs,
        }
        yield from mirror.witness_findings(fact, shown)


def _claims(
    remote: Record, claims: list[Record], mine: list[Record]
) -> tuple[Record, list[Finding]]:
    on = {c["ref"]: c for c in claims}
    clone, now, lease = str(remote["clone"]), int(remote["now"]), int(remote["lease"])
    plan: Record = {
        "kind": "remote",
        "view": "plan",
        "remote": remote["name"],
        "claims": [],
        "lost": [],
        "drop": [],
    }
    failed: list[Finding] = []
    for entry in mine:
        ref, state, doc = entry["ref"], entry.get("state"), entry.get("claim") or {}
        there = on.get(ref)
        theirs = there["claim"] if there else None
        free = theirs is None or theirs.get("state") == "released"
        ours = theirs is not None and (theirs.get("who") or {}).get("clone") == clone
        expected = there["commit"] if there else ""
        if state == "releasing":
            if ours and theirs is not None and theirs.get("state") == "held":
                plan["claims"].append(
                    _update(ref, expected, {**theirs, "state": "released"}, "release")
                )
            else:
                plan["drop"].append(ref)
        elif state == "unshared":
            if free or ours:
                plan["claims"].append(_update(ref, expected, _renewed(doc, now, lease), "publish"))
            else:
                assert theirs is not None
                failed.append(_conflict(ref, theirs, doc))
        elif ours and theirs is not None and theirs.get("state") == "released":
            plan["drop"].append(ref)
        elif theirs is None:  # gone from the remote (a remote that allows deletions): again
            plan["claims"].append(_update(ref, "", _renewed(doc, now, lease), "publish"))
        elif ours:
            if _due(theirs, now, lease):
                plan["claims"].append(_update(ref, expected, _renewed(theirs, now, lease), "renew"))
        else:
            plan["lost"].append({"ref": ref, "holder": claimdoc.holder(theirs)})
    return plan, failed


def _update(ref: str, expected: str, doc: Record, why: str) -> Record:
    return {"ref": ref, "expected": expected, "claim": doc, "action": why}


def _due(doc: Record, now: int, lease: int) -> bool:
    """A held lease is renewed once half of it has run (a lease-less claim never is)."""
    until = clock.parse_iso(str(doc.get("lease_until"))) if doc.get("lease_until") else None
    return until is not None and until - now < lease // 2


def _renewed(doc: Record, now: int, lease: int) -> Record:
    if doc.get("lease_until") is None:
        return dict(doc)
    return {**doc, "lease_until": clock.iso(now + lease)}


def _conflict(ref: str, theirs: Record, ours: Record) -> Finding:
    message = (
        f"claimed on the remote by {claimdoc.holder(theirs)} and here by "
        f"{claimdoc.holder(ours)}, taken while the remote could not be reached — finish or hand "
        "over this task (its unshared claim goes with it), or agree with the holder"
    )
    return Finding("FAIL", "claim", ref, message, "majordomus claims")


def _run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    yield from judge(list(context.records(options.input)))


STAGES = {"remote-judge": Stage(_run)}
