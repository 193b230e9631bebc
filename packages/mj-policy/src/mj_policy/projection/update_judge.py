"""`mj-policy update-judge`: what `update` does, over `mj-policy update-facts`.

A judge: it reads the one `update` fact on stdin (or a file) and never the repository.
`--diff` gives the one target's diff; `--check` (the read-only CI gate) one finding per target,
each file and client over its budget, and every orphan. Otherwise every judgement comes before
the first write, in this order: a file over its budget or a client over its own (10), a target
edited by hand or never written by `update`, an orphan edited by hand (15 without `--force`).
A run that changes nothing, or a dry run, is its `projection` records; any other run is one
verdict for `mj-policy update-write`: every target with what it holds now and will hold.
"""

from __future__ import annotations

from mj_core.errors import ContractUnmet
from mj_core.errors import MissingArtifact
from mj_core.errors import Refused
from mj_core.findings import Finding
from mj_core.stream.stage import Stage

from mj_policy.projection import targets

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    yield from judge(context.the_fact(options.input, "update", "mj-policy update-facts"))


def judge(fact: Record) -> list[Record]:
    """The records of a read-only view, of a run that writes nothing, or the one verdict."""
    if fact.get("diff") is not None:
        return [diff(fact)]
    if fact.get("check"):
        return [found.record() for found in check(fact)]
    refuse_if_needed(fact)
    changed = [t for t in fact["targets"] if t["state"] != targets.CURRENT]
    orphans = list(fact["orphans"])
    if fact.get("dry_run") or not (changed or orphans):
        action = "would write" if fact.get("dry_run") else "wrote"
        return [record(t, action) for t in fact["targets"]] + [
            orphan_record(o, fact) for o in orphans
        ]
    return [
        {
            "kind": "verdict",
            "action": "update",
            "force": bool(fact.get("force")),
            "policy_sha256": fact["policy_sha256"],
            "targets": [
                {**record(t, "wrote"), "old": t["old"], "new": t["new"]} for t in fact["targets"]
            ],
            "orphans": [orphan_record(o, fact) for o in orphans],
        }
    ]


def record(target: Record, action: str) -> Record:
    return {
        "kind": "projection",
        "provider": target["provider"],
        "target": target["target"],
        "mode": target["mode"],
        "state": target["state"],
        "action": action if target["state"] != targets.CURRENT else "unchanged",
        "policy": target["policy"],
        "content": target["content"],
    }


def orphan_record(orphan: Record, fact: Record) -> Record:
    return {
        "kind": "projection",
        "provider": orphan["provider"],
        "target": orphan["target"],
        "mode": "file",
        "state": orphan["state"],
        "action": "would remove" if fact.get("dry_run") else "removed",
        "policy": str(fact["policy_sha256"])[:12],
        "content": "",
    }


def over_budget(fact: Record) -> list[tuple[Record, list[str]]]:
    """Each always-loaded target over its providers' budget, with what it is over."""
    from mj_policy.projection import budgets

    found = []
    for t in fact["targets"]:
        names, loaded = t["providers"], bool(t["always_loaded"])
        over = budgets.overruns(names, loaded, int(t["lines"]), int(t["bytes"]), fact["budget"])
        if over:
            found.append((t, over))
    return found


def clients(fact: Record) -> list[Finding]:
    """Each client over what it loads into every conversation (`receipt.client_loads`)."""
    from mj_policy.receipt import client_loads as clientloads

    loads = fact["loads"]
    return clientloads.findings(loads["targets"], loads["rules"], fact["budget"])


def refuse_if_needed(fact: Record) -> None:
    for t, over in over_budget(fact):
        raise ContractUnmet(
            f"{t['target']}: the always-loaded projection would be "
            f"{'; '.join(over)} — shorten the template or the rules it carries; "
            "nothing was written"
        )
    for client in clients(fact):
        if client.level == "FAIL":
            raise ContractUnmet(
                f"{client.subject}: {client.message} — shorten the rules or the templates, "
                "declare fewer providers or raise the budget; nothing was written"
            )
    force = bool(fact.get("force"))
    refused = [t for t in fact["targets"] if t["state"] in targets.REFUSED_STATES]
    if refused and not force:
        raise refusal(refused[0], len(refused) - 1)
    edited = [o for o in fact["orphans"] if not o["intact"]]
    if edited and not force:
        more = f" (and {len(edited) - 1} more)" if len(edited) > 1 else ""
        raise Refused(
            f"{edited[0]['target']}: {edited[0]['refused']}{more} — "
            "`majordomus update --force` removes it"
        )


def refusal(target: Record, extra: int) -> Refused:
    what = target.get("why") or (
        "carries no stamp, so `majordomus update` did not write it"
        if target["state"] == targets.UNSTAMPED
        else "was edited by hand since `majordomus update` wrote it"
    )
    more = f" (and {extra} more target(s))" if extra else ""
    return Refused(
        f"{target['target']}: {what}{more} — see `majordomus update --diff {target['target']}`; "
        "`majordomus update --force` overwrites it"
    )


def diff(fact: Record) -> Record:
    wanted = fact["diff"]
    for t in fact["targets"]:
        if t["target"] == wanted["target"] and "text" in wanted:
            text = wanted["text"]
            return {"kind": "diff", "target": t["target"], "state": t["state"], "text": text}
    declared = ", ".join(t["target"] for t in fact["targets"]) or "none"
    raise MissingArtifact(
        f"{wanted['target']}: not a projection target of the policy (targets: {declared})"
    )


def check(fact: Record) -> Iterator[Finding]:
    """`update --check`: every failure here is 10; each target worded as doctor words it."""
    from mj_policy.projection import verdict as projectionverdict

    for t, over in over_budget(fact):
        target = t["target"]
        yield Finding(
            "FAIL",
            "budget",
            target,
            f"would be {'; '.join(over)}",
            f"majordomus update --dry-run; wc -lc {target}",
        )
    for client in clients(fact):  # what each client loads, judged as doctor judges it
        yield client.replace(code=None)
    for t in fact["targets"]:
        hashes = (t["actual"], t["stamped"])
        found = projectionverdict.worded(t["target"], t["mode"], t["state"], hashes, t["empty"])
        yield found.replace(code=None)
    for o in fact["orphans"]:
        yield Finding("FAIL", "projection", o["target"], o["found"], f"head -5 {o['target']}")


STAGES = {"update-judge": Stage(run)}
